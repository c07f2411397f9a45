#!/bin/bash
# The change as committed (d: the raster shader's list part chosen by override constants whose
# defaults are the one-list path, so this card's kernel differs from base's only by constants)
# against base (d95ae2a's code), after gpu-path.sh found the kernel's entry cost 0.007-0.012 ms
# per raster pass. Builds alternating, then reversed.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in base d; do python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" .gl/$b.xz /tmp/$b; chmod +x /tmp/$b; done
D=$OUT/h; mkdir -p $D
pack() { (cd $OUT && tar czf h.tgz h); }
nvidia-smi -L > $D/gpu.txt 2>&1
bench() { local name=$1 b=$2; shift 2
  timeout 90 /tmp/$b bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; }
for b in base d d base; do
  n=$b-1; [ -e $D/million-$n.json ] && n=$b-2
  bench million-$n $b scenes/million.toml --size 1920x1080 --frames 60 --warmup 20 --shadows off
  bench default-$n $b --objects 1000,10000,100000 --frames 60 --warmup 15 --shadows off
  pack
done
for b in base d; do
  bench shadows-$b-1 $b scenes/million.toml --size 1920x1080 --frames 60 --warmup 20
  bench shadows-default-$b-1 $b --objects 1000,100000 --frames 60 --warmup 15
  bench 10m-$b-1 $b --objects 10000000 --size 1920x1080 --frames 30 --warmup 10 --shadows off
  pack
done
for s in million city-sun gltf; do
  for b in base d; do
    timeout 60 /tmp/$b render scenes/$s.toml --size 1280x720 --deferred on --soft-raster on --occlusion on --out /tmp/$s-$b.png > $D/render-$s-$b.txt 2>&1
  done
  cmp /tmp/$s-base.png /tmp/$s-d.png && echo "$s: same bytes" >> $D/renders.txt || python3 .gl/pngdiff.py /tmp/$s-base.png /tmp/$s-d.png >> $D/renders.txt 2>&1
done
python3 - $D > $D/summary.txt <<'PY'
import json, glob, sys, os
for f in sorted(glob.glob(sys.argv[1] + '/*.json')):
    for r in json.load(open(f))['rows']:
        p = r['gpu_ms']['passes']
        print(f"{os.path.basename(f):24s} {r['objects']:8d} sum {r['gpu_ms']['total']:.3f} raster {p.get('raster', 0):.3f}+{p.get('raster late', 0):.3f} cull {p.get('cull', 0):.3f}+{p.get('cull late', 0):.3f} main {p.get('main', 0):.3f}")
PY
pack
cat $D/summary.txt $D/renders.txt
