#!/bin/bash
# The occluders' threshold: an experiment build of the occluders-first change whose radius
# threshold (MD_EXP_OCC_PX, px; committed 32) and list room (MD_EXP_OCC_CAP; committed 1024)
# come from the environment; MULTIDRAW_OCCLUDERS=off for the build without occluders.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" .gl/px.xz /tmp/px; chmod +x /tmp/px
D=$OUT/px; mkdir -p $D
pack() { (cd $OUT && tar czf px.tgz px); }
bench() { local name=$1; shift
  timeout 100 /tmp/px bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; }
M="scenes/million.toml --size 1920x1080 --frames 60 --warmup 20 --shadows off"
S="--objects 10000,100000 --frames 60 --warmup 15 --shadows off"
MULTIDRAW_OCCLUDERS=off bench m-off $M
for p in 24:2048 20:2048 16:4096 32:1024; do
  MD_EXP_OCC_PX=${p%%:*} MD_EXP_OCC_CAP=${p#*:} bench m-px${p%%:*} $M
done
pack
MULTIDRAW_OCCLUDERS=off bench d-off $S
MD_EXP_OCC_PX=24 MD_EXP_OCC_CAP=2048 bench d-px24 $S
MD_EXP_OCC_PX=32 MD_EXP_OCC_CAP=1024 bench d-px32 $S
pack
python3 - $D > $D/summary.txt <<'PY'
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + '/*.json')):
    for r in json.load(open(f))['rows']:
        p = r['gpu_ms']['passes']
        print(f"{os.path.basename(f):14s} {r['objects']:>8} total {r['gpu_ms']['total']:.3f} main {p.get('main',0):.3f} build {p.get('build',0):.3f} occl {r.get('occluders')} wall {r['wall_ms']['median']:.3f}")
PY
pack
