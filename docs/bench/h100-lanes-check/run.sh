#!/bin/bash
# This session's code (new: on CPU adapters the opening timestamp flush and 8 raster lanes;
# on GPUs the raster shader's workgroup size now comes through the LANES override, default 32)
# against d (the previous session's committed kernel): the GPU path should cost the same.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in d new; do python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" .gl/$b.xz /tmp/$b; chmod +x /tmp/$b; done
D=$OUT/h; mkdir -p $D
pack() { (cd $OUT && tar czf h.tgz h); }
nvidia-smi -L > $D/gpu.txt 2>&1
/tmp/new info > $D/info.txt 2>&1
bench() { local name=$1 b=$2; shift 2
  timeout 90 /tmp/$b bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; }
for b in d new new d; do
  n=$b-1; [ -e $D/million-$n.json ] && n=$b-2
  bench million-$n $b scenes/million.toml --size 1920x1080 --frames 60 --warmup 20 --shadows off
  bench shadows-$n $b scenes/million.toml --size 1920x1080 --frames 60 --warmup 20
  bench default-$n $b --objects 1000,10000,100000 --frames 60 --warmup 15 --shadows off
  bench shadows-default-$n $b --objects 1000,100000 --frames 60 --warmup 15
  pack
done
timeout 120 /tmp/new bench --compare-detail --modes gpu --frames 60 --warmup 15 --json $D/compare-detail.json > $D/compare-detail.txt 2>&1
for s in million city-sun gltf; do
  for b in d new; do
    timeout 60 /tmp/$b render scenes/$s.toml --size 1280x720 --deferred on --soft-raster on --occlusion on --out /tmp/$s-$b.png > $D/render-$s-$b.txt 2>&1
  done
  cmp /tmp/$s-d.png /tmp/$s-new.png && echo "$s: same bytes" >> $D/renders.txt || python3 .gl/pngdiff.py /tmp/$s-d.png /tmp/$s-new.png >> $D/renders.txt 2>&1
done
python3 - $D > $D/summary.txt <<'PY'
import json, glob, sys, os
for f in sorted(glob.glob(sys.argv[1] + '/*.json')):
    for r in json.load(open(f))['rows']:
        p = r['gpu_ms']['passes']
        print(f"{os.path.basename(f):26s} {r['objects']:8d} {r.get('lod')} sum {r['gpu_ms']['total']:.3f} raster {p.get('raster', 0):.3f}+{p.get('raster late', 0):.3f} main {p.get('main', 0):.3f} cov {r.get('timestamp_coverage') or 0:.2f}")
PY
pack
cat $D/summary.txt $D/renders.txt
