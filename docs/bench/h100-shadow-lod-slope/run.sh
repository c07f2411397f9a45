#!/bin/bash
# The cascades' own level-of-detail threshold, in texels: an experiment build of f21d503 whose
# threshold comes from MD_EXP_SHADOW_LOD (the committed code: the view's --lod-error, 0.25).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" .gl/slod.xz /tmp/slod; chmod +x /tmp/slod
D=$OUT/l; mkdir -p $D
pack() { (cd $OUT && tar czf l.tgz l); }
nvidia-smi -L > $D/gpu.txt 2>&1
bench() { local name=$1 v=$2; shift 2
  MD_EXP_SHADOW_LOD=$v timeout 120 /tmp/slod bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; }
M="scenes/million.toml --size 1920x1080 --frames 60 --warmup 20 --shadows on"
S="--objects 1000,10000,100000 --frames 60 --warmup 15 --shadows on"
C="scenes/city-sun.toml --size 1920x1080 --frames 60 --warmup 20 --shadows on"
for v in 0.25 0.5 1 2; do bench ms-$v $v $M; bench ds-$v $v $S; done
pack
for v in 2 1 0.5 0.25; do bench ms2-$v $v $M; bench cs-$v $v $C; done
bench m-off 0.25 scenes/million.toml --size 1920x1080 --frames 60 --warmup 20 --shadows off
bench d-off 0.25 --objects 1000,10000,100000 --frames 60 --warmup 15 --shadows off
bench c-off 0.25 scenes/city-sun.toml --size 1920x1080 --frames 60 --warmup 20 --shadows off
pack
for v in 0.25 0.5 1 2; do
  MD_EXP_SHADOW_LOD=$v timeout 60 /tmp/slod render scenes/million.toml --size 1280x720 --out /tmp/m-$v.png > /dev/null 2>&1
  MD_EXP_SHADOW_LOD=$v timeout 60 /tmp/slod render scenes/city-sun.toml --size 1280x720 --out /tmp/c-$v.png > /dev/null 2>&1
  MD_EXP_SHADOW_LOD=$v timeout 60 /tmp/slod render --objects 100000 --size 1280x720 --out /tmp/d-$v.png > /dev/null 2>&1
done
for s in m c d; do for v in 0.5 1 2; do python3 .gl/pngdiff.py /tmp/$s-0.25.png /tmp/$s-$v.png >> $D/renders.txt 2>&1; done; done
cp /tmp/d-0.25.png /tmp/d-1.png /tmp/m-0.25.png /tmp/m-1.png $D/ 2>/dev/null
pack
python3 - $D > $D/summary.txt <<'PY'
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + '/*.json')):
    try:
        rows = json.load(open(f))['rows']
    except Exception as e:
        print(os.path.basename(f), 'unreadable', e); continue
    for r in rows:
        p = r['gpu_ms']['passes']
        g = lambda pre: sum(v for k, v in p.items() if k.startswith(pre))
        print(f"{os.path.basename(f):12s} {r['objects']:>8} total {r['gpu_ms']['total']:.3f} shadowdepth {g('shadow '):.3f} rastersh {g('raster shadow'):.3f} casters {r.get('casters')} 2ph {r.get('shadow_two_phase_frames')} sr {r.get('shadow_soft_frames')} wall {r['wall_ms']['median']:.3f}")
PY
pack
