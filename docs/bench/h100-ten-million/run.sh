#!/bin/bash
# 10M objects at 94e6a18: the defaults over a longer run, and with the switches fixed, to read
# what a two-phase frame draws (the JSON's counters are the last frame's).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" .gl/cur.xz /tmp/cur; chmod +x /tmp/cur
D=$OUT/t; mkdir -p $D
pack() { (cd $OUT && tar czf t.tgz t); }
bench() { local name=$1; shift
  timeout 200 /tmp/cur bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; }
T="--objects 10000000 --size 1920x1080 --shadows off"
bench t-defaults $T --frames 90 --warmup 30
pack
bench t-fixed $T --frames 30 --warmup 20 --occlusion on --soft-raster on --deferred on
bench t-lod05 $T --frames 30 --warmup 20 --occlusion on --soft-raster on --deferred on --lod-error 0.5
pack
python3 - $D > $D/summary.txt <<'PY'
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + '/*.json')):
    for r in json.load(open(f))['rows']:
        p = r['gpu_ms']['passes']
        print(os.path.basename(f), r['objects'], 'total', round(r['gpu_ms']['total'], 3), 'visible', r['visible'], 'in_frustum', r['in_frustum'], 'occluded', r['occluded'], 'drawn', r['drawn'], 'soft', r['soft_drawn'], 'occluders', r.get('occluders'), 'tris', r['triangles'], 'levels', r['levels'], '2ph', r['two_phase_frames'], 'sr', r['soft_frames'], 'df', r['deferred_frames'], 'wall', round(r['wall_ms']['median'], 3))
        print('   ', {k: round(v, 3) for k, v in sorted(p.items(), key=lambda x: -x[1])})
PY
pack
