#!/bin/bash
# The cull's append with subgroup operations (sg; MULTIDRAW_SUBGROUPS=off: the workgroup scan)
# against a13b749 (base); and defaults against full detail at 1,000 and 10,000 objects.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in base sg; do python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" .gl/$b.xz /tmp/$b; chmod +x /tmp/$b; done
D=$OUT/g; mkdir -p $D
pack() { (cd $OUT && tar czf g.tgz g); }
nvidia-smi -L > $D/gpu.txt 2>&1
/tmp/sg info > $D/info.txt 2>&1
bench() { local name=$1 b=$2 e=$3; shift 3
  MULTIDRAW_SUBGROUPS=$e timeout 200 /tmp/$b bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; }
M="scenes/million.toml --size 1920x1080 --frames 60 --warmup 20"
S="--objects 1000,10000,100000 --frames 60 --warmup 15"
T="--objects 10000000 --size 1920x1080 --frames 60 --warmup 30 --shadows off"
T1="--objects 10000000 --size 1920x1080 --frames 30 --warmup 10 --shadows off --occlusion off --soft-raster off"
for r in 1 2; do bench t1-base-$r base on $T1; bench t1-sg-$r sg on $T1; bench t1-off-$r sg off $T1; done; pack
bench t-base base on $T; bench t-sg sg on $T; bench t-off sg off $T; pack
for r in 1 2; do bench m-base-$r base on $M --shadows off; bench m-sg-$r sg on $M --shadows off; done
bench m-off sg off $M --shadows off; pack
bench ms-base base on $M --shadows on; bench ms-sg sg on $M --shadows on; bench ms-off sg off $M --shadows on; pack
bench d-base base on $S --shadows off; bench d-sg sg on $S --shadows off
bench ds-base base on $S --shadows on; bench ds-sg sg on $S --shadows on; pack
C="--compare-detail --objects 1000,10000 --frames 60 --warmup 15"
bench cd-base base on $C --shadows off; bench cd-sg sg on $C --shadows off
bench cds-sg sg on $C --shadows on; pack
for b in base sg; do
  timeout 60 /tmp/$b render scenes/million.toml --size 1280x720 --out /tmp/m-$b.png > /dev/null 2>&1
  timeout 60 /tmp/$b render scenes/city-sun.toml --size 1280x720 --out /tmp/c-$b.png > /dev/null 2>&1
  timeout 60 /tmp/$b render --objects 100000 --size 1280x720 --soft-raster on --occlusion on --out /tmp/d-$b.png > /dev/null 2>&1
done
for s in m c d; do python3 .gl/pngdiff.py /tmp/$s-base.png /tmp/$s-sg.png >> $D/renders.txt 2>&1; cmp /tmp/$s-base.png /tmp/$s-sg.png >> $D/renders.txt 2>&1 && echo "$s same bytes" >> $D/renders.txt; done
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
        print(f"{os.path.basename(f):12s} {r['objects']:>8} lod {r['lod']} occ {r['occlusion']} total {r['gpu_ms']['total']:.3f} cull {p.get('cull',0):.3f} + {p.get('cull late',0):.3f} cullsh {g('cull shadow'):.3f} raster {p.get('raster',0):.3f}+{p.get('raster late',0):.3f} main {p.get('main',0):.3f} drawn {r['drawn']} 2ph {r['two_phase_frames']} wall {r['wall_ms']['median']:.3f}")
PY
pack
