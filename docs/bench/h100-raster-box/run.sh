#!/bin/bash
# The compute rasteriser's pixel loop as one loop over the box (MULTIDRAW_FLAT_BOX on) or a
# loop of rows (off, the code before), and each corner projected once into workgroup memory
# (MULTIDRAW_SHARE_CORNERS on), only for levels with at most 1.5 corners a triangle (dense),
# or by each triangle itself (off, the code before). One binary, each row its own run.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" .gl/sc.xz /tmp/md; chmod +x /tmp/md
D=$OUT/s; mkdir -p $D
pack() { (cd $OUT && tar czf s.tgz s); }
nvidia-smi -L > $D/gpu.txt 2>&1
# variant: base = flat off, share off; flat = flat on, share off; on; dense
cfg() { case $1 in base) echo "off off";; flat) echo "on off";; on) echo "on on";; dense) echo "on dense";; esac; }
bench() { local name=$1 v=$2; shift 2; set -- $(cfg $v) "$@"; local f=$1 s=$2; shift 2
  MULTIDRAW_FLAT_BOX=$f MULTIDRAW_SHARE_CORNERS=$s timeout 200 /tmp/md bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; }
M="scenes/million.toml --size 1920x1080 --frames 60 --warmup 20"
S="--objects 1000,10000,100000 --frames 60 --warmup 15"
T="--objects 10000000 --size 1920x1080 --frames 60 --warmup 30 --shadows off"
C="scenes/city-sun.toml --size 1920x1080 --frames 60 --warmup 15"
for v in base flat on dense; do bench m-$v-1 $v $M --shadows off; done; pack
for v in dense on flat base; do bench ms-$v $v $M --shadows on; done; pack
for v in dense on flat base; do bench m-$v-2 $v $M --shadows off; done; pack
for v in base flat on dense; do bench d-$v $v $S --shadows off; bench ds-$v $v $S --shadows on; done; pack
for v in base flat on; do bench t-$v $v $T; pack; done
for v in base flat on dense; do bench cs-$v $v $C --shadows on; done; pack
for v in base flat on; do set -- $(cfg $v)
  MULTIDRAW_FLAT_BOX=$1 MULTIDRAW_SHARE_CORNERS=$2 timeout 60 /tmp/md render scenes/million.toml --size 1280x720 --out /tmp/m-$v.png > /dev/null 2>&1
  MULTIDRAW_FLAT_BOX=$1 MULTIDRAW_SHARE_CORNERS=$2 timeout 60 /tmp/md render scenes/city-sun.toml --size 1280x720 --out /tmp/c-$v.png > /dev/null 2>&1
  MULTIDRAW_FLAT_BOX=$1 MULTIDRAW_SHARE_CORNERS=$2 timeout 60 /tmp/md render --objects 100000 --size 1280x720 --soft-raster on --out /tmp/d-$v.png > /dev/null 2>&1
done
for s in m c d; do for v in flat on; do echo "$s base vs $v:" >> $D/renders.txt; python3 .gl/pngdiff.py /tmp/$s-base.png /tmp/$s-$v.png >> $D/renders.txt 2>&1; cmp /tmp/$s-base.png /tmp/$s-$v.png >> $D/renders.txt 2>&1 && echo "same bytes" >> $D/renders.txt; done; done
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
        print(f"{os.path.basename(f):12s} {r['objects']:>8} total {r['gpu_ms']['total']:.3f} raster {p.get('raster',0):.3f} + {p.get('raster late',0):.3f} rastersh {g('raster shadow'):.3f} main {p.get('main',0):.3f} shade {p.get('shade',0):.3f} shadow-all {sum(v for k,v in p.items() if 'shadow' in k):.3f} drawn {r['drawn']} soft {r['soft_drawn']} casters {r.get('casters')} 2ph {r['two_phase_frames']} sh2ph {r.get('shadow_two_phase_frames')} wall {r['wall_ms']['median']:.3f}")
PY
pack
