#!/bin/bash
# Objects per raster workgroup (PACK, MULTIDRAW_RASTER_PACK) against a13b749 (base).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in base pack; do python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" .gl/$b.xz /tmp/$b; chmod +x /tmp/$b; done
D=$OUT/g; mkdir -p $D
pack() { (cd $OUT && tar czf g.tgz g); }
nvidia-smi -L > $D/gpu.txt 2>&1
bench() { local name=$1 b=$2 p=$3; shift 3
  MULTIDRAW_RASTER_PACK=$p timeout 200 /tmp/$b bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; }
M="scenes/million.toml --size 1920x1080 --frames 60 --warmup 20"
S="--objects 1000,10000,100000 --frames 60 --warmup 15"
T="--objects 10000000 --size 1920x1080 --frames 60 --warmup 30 --shadows off"
for r in 1 2; do
  bench m-base-$r base 1 $M --shadows off
  for p in 1 2 4 8; do bench m-p$p-$r pack $p $M --shadows off; done
  pack
done
bench ms-base base 1 $M --shadows on
for p in 1 2 4 8; do bench ms-p$p pack $p $M --shadows on; done; pack
bench ms-base-2 base 1 $M --shadows on
bench ms-p4-2 pack 4 $M --shadows on; pack
bench d-base base 1 $S --shadows off; bench ds-base base 1 $S --shadows on
for p in 2 4; do bench d-p$p pack $p $S --shadows off; bench ds-p$p pack $p $S --shadows on; done; pack
bench t-base base 1 $T; bench t-p4 pack 4 $T; bench t-p2 pack 2 $T; pack
for v in base:1 pack:4; do b=${v%:*}; p=${v#*:}
  MULTIDRAW_RASTER_PACK=$p timeout 60 /tmp/$b render scenes/million.toml --size 1280x720 --out /tmp/m-$b.png > /dev/null 2>&1
  MULTIDRAW_RASTER_PACK=$p timeout 60 /tmp/$b render scenes/city-sun.toml --size 1280x720 --out /tmp/c-$b.png > /dev/null 2>&1
  MULTIDRAW_RASTER_PACK=$p timeout 60 /tmp/$b render --objects 100000 --size 1280x720 --soft-raster on --out /tmp/d-$b.png > /dev/null 2>&1
done
for s in m c d; do python3 .gl/pngdiff.py /tmp/$s-base.png /tmp/$s-pack.png >> $D/renders.txt 2>&1; cmp /tmp/$s-base.png /tmp/$s-pack.png >> $D/renders.txt 2>&1 && echo "$s same bytes" >> $D/renders.txt; done
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
        print(f"{os.path.basename(f):12s} {r['objects']:>8} total {r['gpu_ms']['total']:.3f} raster {p.get('raster',0):.3f} + {p.get('raster late',0):.3f} rastersh {g('raster shadow'):.3f} main {p.get('main',0):.3f} shadow-all {sum(v for k,v in p.items() if 'shadow' in k):.3f} drawn {r['drawn']} soft {r['soft_drawn']} casters {r.get('casters')} 2ph {r['two_phase_frames']} sr {r['soft_frames']} shsr {r.get('shadow_soft_frames')} wall {r['wall_ms']['median']:.3f}")
PY
pack
