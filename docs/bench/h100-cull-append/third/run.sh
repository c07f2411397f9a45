#!/bin/bash
# The cull's append in groups of 32, 16 and 8 threads (wgN) against base (a13b749, groups of 64)
# sg (one reservation per list per subgroup), sgwg (subgroups fill a workgroup table, one
# reservation per list per workgroup), wg32 (the workgroup scan in groups of 32), none (as base).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in base sg3; do python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" .gl/$b.xz /tmp/$b; chmod +x /tmp/$b; done
D=$OUT/g; mkdir -p $D
pack() { (cd $OUT && tar czf g.tgz g); }
nvidia-smi -L > $D/gpu.txt 2>&1
bench() { local name=$1 v=$2; shift 2; local b=sg3; [ $v = base ] && b=base
  MULTIDRAW_APPEND=$v timeout 200 /tmp/$b bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; }
M="scenes/million.toml --size 1920x1080 --frames 60 --warmup 20"
S="--objects 1000,10000,100000 --frames 60 --warmup 15"
T="--objects 10000000 --size 1920x1080 --frames 60 --warmup 30 --shadows off"
T1="--objects 10000000 --size 1920x1080 --frames 30 --warmup 10 --shadows off --occlusion off --soft-raster off"
for v in base wg32 wg16 wg8 sgwg; do bench t1-$v $v $T1; done; pack
for v in base wg32 wg16 wg8; do bench t-$v $v $T; done; pack
for r in 1 2; do for v in base wg32 wg16 wg8; do bench m-$v-$r $v $M --shadows off; done; done; pack
for v in base wg16 wg8; do bench ms-$v $v $M --shadows on; done; pack
for v in base wg32 wg16 wg8; do bench d-$v $v $S --shadows off; done; pack
for v in base wg16 wg8; do bench ds-$v $v $S --shadows on; done; pack
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
        print(f"{os.path.basename(f):12s} {r['objects']:>8} total {r['gpu_ms']['total']:.3f} cull {p.get('cull',0):.3f} + {p.get('cull late',0):.3f} cullsh {g('cull shadow'):.3f} raster {p.get('raster',0):.3f}+{p.get('raster late',0):.3f} rsh {g('raster shadow'):.3f} main {p.get('main',0):.3f} 2ph {r['two_phase_frames']}")
PY
pack
