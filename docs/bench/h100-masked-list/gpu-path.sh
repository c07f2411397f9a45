#!/bin/bash
# Where the committed code's GPU path (apart: one pipeline over one list on this card) lost
# 0.007-0.012 ms per raster pass against base (d95ae2a's code; confirm.sh): b is apart with the
# raster entry point as base's (the count clamped by a constant, no uniform read) and `masked`
# taken from the batch unless the list is in parts; c is apart with base's shaders/raster.wgsl
# (GPU path only), to tell the kernel from everything around it. Builds alternating, then
# reversed.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in base apart b c; do python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" .gl/$b.xz /tmp/$b; chmod +x /tmp/$b; done
D=$OUT/g; mkdir -p $D
pack() { (cd $OUT && tar czf g.tgz g); }
nvidia-smi -L > $D/gpu.txt 2>&1
bench() { local name=$1 b=$2; shift 2
  timeout 90 /tmp/$b bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; }
for b in base apart b c c b apart base; do
  n=$b-1; [ -e $D/million-$n.json ] && n=$b-2
  bench million-$n $b scenes/million.toml --size 1920x1080 --frames 60 --warmup 20 --shadows off
  bench default-$n $b --objects 1000,10000,100000 --frames 60 --warmup 15 --shadows off
  pack
done
python3 - $D > $D/summary.txt <<'PY'
import json, glob, sys, os
for f in sorted(glob.glob(sys.argv[1] + '/*.json')):
    for r in json.load(open(f))['rows']:
        p = r['gpu_ms']['passes']
        print(f"{os.path.basename(f):24s} {r['objects']:8d} sum {r['gpu_ms']['total']:.3f} raster {p.get('raster', 0):.3f}+{p.get('raster late', 0):.3f} cull {p.get('cull', 0):.3f}+{p.get('cull late', 0):.3f} main {p.get('main', 0):.3f}")
PY
pack
cat $D/summary.txt
