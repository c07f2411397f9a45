#!/bin/bash
# The committed code (flat: the GPU keeps the loop over rows, now through cover_pixel; a CPU
# adapter walks the box in one loop) against
# 1f441d6 (head), each row its own run, alternating.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in head flat; do python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" .gl/$b.xz /tmp/$b; chmod +x /tmp/$b; done
D=$OUT/g; mkdir -p $D
pack() { (cd $OUT && tar czf g.tgz g); }
nvidia-smi -L > $D/gpu.txt 2>&1
bench() { local name=$1 b=$2; shift 2
  timeout 200 /tmp/$b bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; }
M="scenes/million.toml --size 1920x1080 --frames 60 --warmup 20"
S="--objects 1000,10000,100000 --frames 60 --warmup 15"
T="--objects 10000000 --size 1920x1080 --frames 60 --warmup 30 --shadows off"
for r in 1 2; do for b in head flat; do bench m-$b-$r $b $M --shadows off; done; pack; done
for b in flat head; do bench ms-$b $b $M --shadows on; done; pack
for b in flat head; do bench d-$b $b $S --shadows off; bench ds-$b $b $S --shadows on; done; pack
for b in head flat; do bench t-$b $b $T; pack; done
for b in head flat; do
  timeout 60 /tmp/$b render scenes/million.toml --size 1280x720 --out /tmp/m-$b.png > /dev/null 2>&1
  timeout 60 /tmp/$b render scenes/city-sun.toml --size 1280x720 --out /tmp/c-$b.png > /dev/null 2>&1
  timeout 60 /tmp/$b render --objects 100000 --size 1280x720 --soft-raster on --out /tmp/d-$b.png > /dev/null 2>&1
done
for s in m c d; do python3 .gl/pngdiff.py /tmp/$s-head.png /tmp/$s-flat.png >> $D/renders.txt 2>&1; cmp /tmp/$s-head.png /tmp/$s-flat.png >> $D/renders.txt 2>&1 && echo "$s same bytes" >> $D/renders.txt; done
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
