#!/bin/bash
# Visibility from the pixels (MULTIDRAW_MARK) and a finer pyramid level in the occlusion test
# (MULTIDRAW_HIZ_FINER levels below the one where the sphere's rectangle spans 2 x 2 texels),
# one binary; each row its own run.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" .gl/mark.xz /tmp/md; chmod +x /tmp/md
D=$OUT/k; mkdir -p $D
pack() { (cd $OUT && tar czf k.tgz k); }
nvidia-smi -L > $D/gpu.txt 2>&1
# bench NAME FINER MARK args...
bench() { local name=$1 f=$2 m=$3; shift 3
  MULTIDRAW_HIZ_FINER=$f MULTIDRAW_MARK=$m MD_DEBUG_DRAWN=1 timeout 200 /tmp/md bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; }
M="scenes/million.toml --size 1920x1080 --frames 60 --warmup 20"
S="--objects 1000,10000,100000 --frames 60 --warmup 15"
T="--objects 10000000 --size 1920x1080 --frames 60 --warmup 30 --shadows off"
for c in "0 off" "2 on" "0 on" "2 off" "1 on"; do set -- $c; bench m-f$1-$2-1 $1 $2 $M --shadows off; done; pack
for c in "0 off" "2 on"; do set -- $c; bench t-f$1-$2 $1 $2 $T; pack; done
for c in "0 off" "2 on"; do set -- $c; bench m-f$1-$2-2 $1 $2 $M --shadows off; done; pack
for c in "0 off" "2 on"; do set -- $c; bench d-f$1-$2 $1 $2 $S --shadows off; bench ms-f$1-$2 $1 $2 $M --shadows on; done; pack
bench t-f2-off 2 off $T; pack
for c in "0 off" "2 on"; do set -- $c; MULTIDRAW_HIZ_FINER=$1 MULTIDRAW_MARK=$2 timeout 60 /tmp/md render scenes/million.toml --size 1280x720 --out /tmp/m-$1-$2.png > /dev/null 2>&1; done
python3 .gl/pngdiff.py /tmp/m-0-off.png /tmp/m-2-on.png >> $D/renders.txt 2>&1
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
        print(f"{os.path.basename(f):14s} {r['objects']:>8} total {r['gpu_ms']['total']:.3f} cull {p.get('cull',0):.3f} + {p.get('cull late',0):.3f} raster {p.get('raster',0):.3f} + {p.get('raster late',0):.3f} mark {p.get('mark',0):.3f} main {p.get('main',0):.3f} + {p.get('main late',0):.3f} pyr {p.get('pyramid',0):.3f} shade {p.get('shade',0):.3f} cullsh {g('cull shadow'):.3f} drawn {r['drawn']} soft {r['soft_drawn']} 2ph {r['two_phase_frames']} wall {r['wall_ms']['median']:.3f}")
PY
pack
