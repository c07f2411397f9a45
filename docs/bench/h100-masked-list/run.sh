#!/bin/bash
# The compute rasteriser's list in two parts, masked objects apart (parts: this change, each
# part its own pipeline and dispatch, the plain one without the alpha test's code) against the
# stepped pixel loop alone (base: d95ae2a's code, the build measured in ../h100-raster-loop/)
# and the reverted split (split: bf96325, both pipelines dispatched over the whole list). Each
# row its own run; two rounds, alternating builds.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in base parts split; do python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" .gl/$b.xz /tmp/$b; chmod +x /tmp/$b; done
D=$OUT/m; mkdir -p $D
pack() { (cd $OUT && tar czf m.tgz m); }
nvidia-smi -L > $D/gpu.txt 2>&1
bench() { local name=$1 b=$2; shift 2
  timeout 90 /tmp/$b bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; }
for round in 1 2; do
  for b in base parts split; do
    [ $round = 2 ] && [ $b = split ] && continue
    bench million-$b-$round $b scenes/million.toml --size 1920x1080 --frames 60 --warmup 20 --shadows off
    bench default-$b-$round $b --objects 1000,10000,100000 --frames 60 --warmup 15 --shadows off
    bench shadows-$b-$round $b scenes/million.toml --size 1920x1080 --frames 60 --warmup 20
    bench shadows-default-$b-$round $b --objects 1000,100000 --frames 60 --warmup 15
    pack
  done
done
for b in base parts; do
  bench 10m-$b-1 $b --objects 10000000 --size 1920x1080 --frames 30 --warmup 10 --shadows off
  pack
done
for s in million city-sun gltf; do
  [ $SECONDS -gt 500 ] && break
  for b in base parts; do
    timeout 60 /tmp/$b render scenes/$s.toml --size 1280x720 --deferred on --soft-raster on --occlusion on --out /tmp/$s-$b.png > $D/render-$s-$b.txt 2>&1
  done
  cmp /tmp/$s-base.png /tmp/$s-parts.png && echo "$s: same bytes" >> $D/renders.txt || python3 .gl/pngdiff.py /tmp/$s-base.png /tmp/$s-parts.png >> $D/renders.txt 2>&1
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
