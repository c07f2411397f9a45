#!/bin/bash
# The compute rasteriser's masked objects in a pipeline of their own (split: two dispatches a
# phase, each over the whole list; the plain pipeline has no alpha test's code) against the
# stepped pixel loop alone (new: d95ae2a's code). Each row its own run, two rounds alternating.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in new split; do python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" .gl/$b.xz /tmp/$b; chmod +x /tmp/$b; done
D=$OUT/r3; mkdir -p $D
pack() { (cd $OUT && tar czf r3.tgz r3); }
nvidia-smi -L > $D/gpu.txt 2>&1
bench() { local name=$1 b=$2; shift 2
  timeout 90 /tmp/$b bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; }
for round in 1 2; do
  for b in new split; do
    bench million-$b-$round $b scenes/million.toml --size 1920x1080 --frames 60 --warmup 20 --shadows off
    bench default-$b-$round $b --objects 1000,10000,100000 --frames 60 --warmup 15 --shadows off
    bench default1080-$b-$round $b --objects 100000 --size 1920x1080 --frames 60 --warmup 15 --shadows off
    bench shadows-$b-$round $b scenes/million.toml --size 1920x1080 --frames 60 --warmup 20
    bench shadows-default-$b-$round $b --objects 1000,100000 --frames 60 --warmup 15
    bench city-$b-$round $b scenes/city-sun.toml --size 1920x1080 --frames 60 --warmup 15
    pack
  done
done
for b in new split; do
  bench 10m-$b-1 $b --objects 10000000 --size 1920x1080 --frames 30 --warmup 10 --shadows off
  pack
done
for s in million city-sun gltf; do
  [ $SECONDS -gt 520 ] && break
  for b in new split; do
    timeout 60 /tmp/$b render scenes/$s.toml --size 1280x720 --deferred on --soft-raster on --occlusion on --out /tmp/$s-$b.png > $D/render-$s-$b.txt 2>&1
  done
  cmp /tmp/$s-new.png /tmp/$s-split.png && echo "$s: same bytes" >> $D/renders.txt || python3 .gl/pngdiff.py /tmp/$s-new.png /tmp/$s-split.png >> $D/renders.txt 2>&1
done
pack
python3 - $D > $D/summary.txt <<'PY'
import json, glob, sys, os
for f in sorted(glob.glob(sys.argv[1] + '/*.json')):
    for r in json.load(open(f))['rows']:
        p = r['gpu_ms']['passes']
        ra = sum(v for k, v in p.items() if 'raster' in k)
        print(f"{os.path.basename(f):28s} {r['objects']:8d} sum {r['gpu_ms']['total']:.3f} raster {p.get('raster', 0):.3f}+{p.get('raster late', 0):.3f} all-raster {ra:.3f} main {p.get('main', 0):.3f}+{p.get('main late', 0):.3f} wall {r.get('gpu_wall_ms', {}).get('median', 0):.3f}")
PY
pack
cat $D/summary.txt $D/renders.txt
