#!/bin/bash
# The code as committed (apart: masked objects apart only on a CPU adapter, so this card runs
# one raster pipeline over one list, as base does) against base (d95ae2a's code). One round,
# alternating builds; then renders of three scenes.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in base apart; do python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" .gl/$b.xz /tmp/$b; chmod +x /tmp/$b; done
D=$OUT/c; mkdir -p $D
pack() { (cd $OUT && tar czf c.tgz c); }
nvidia-smi -L > $D/gpu.txt 2>&1
bench() { local name=$1 b=$2; shift 2
  timeout 90 /tmp/$b bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; }
for b in base apart apart base; do
  n=$b-1; [ -e $D/million-$n.json ] && n=$b-2
  bench million-$n $b scenes/million.toml --size 1920x1080 --frames 60 --warmup 20 --shadows off
  bench default-$n $b --objects 1000,10000,100000 --frames 60 --warmup 15 --shadows off
  bench shadows-$n $b scenes/million.toml --size 1920x1080 --frames 60 --warmup 20
  bench shadows-default-$n $b --objects 1000,100000 --frames 60 --warmup 15
  pack
done
for b in base apart; do
  bench 10m-$b-1 $b --objects 10000000 --size 1920x1080 --frames 30 --warmup 10 --shadows off
done
for s in million city-sun gltf; do
  for b in base apart; do
    timeout 60 /tmp/$b render scenes/$s.toml --size 1280x720 --deferred on --soft-raster on --occlusion on --out /tmp/$s-$b.png > $D/render-$s-$b.txt 2>&1
  done
  cmp /tmp/$s-base.png /tmp/$s-apart.png && echo "$s: same bytes" >> $D/renders.txt || python3 .gl/pngdiff.py /tmp/$s-base.png /tmp/$s-apart.png >> $D/renders.txt 2>&1
done
python3 - $D > $D/summary.txt <<'PY'
import json, glob, sys, os
for f in sorted(glob.glob(sys.argv[1] + '/*.json')):
    for r in json.load(open(f))['rows']:
        p = r['gpu_ms']['passes']
        ra = sum(v for k, v in p.items() if 'raster' in k)
        print(f"{os.path.basename(f):28s} {r['objects']:8d} sum {r['gpu_ms']['total']:.3f} raster {p.get('raster', 0):.3f}+{p.get('raster late', 0):.3f} all-raster {ra:.3f} main {p.get('main', 0):.3f}+{p.get('main late', 0):.3f} wall {r.get('gpu_wall_ms', {}).get('median', 0):.3f} soft {r.get('soft_drawn')} sr {r.get('soft_frames')}/{r.get('frames')}")
PY
pack
cat $D/summary.txt $D/renders.txt
