#!/bin/bash
# Second call: the compute rasteriser with 32 threads per object and the level's vertices (up
# to 64) transformed once per object into workgroup memory, one, two or four objects per
# workgroup (c32: 32 threads, w64: 64, w128: 128), against 7690bd3 (old); the defaults, each
# row its own run, two rounds alternating. Each build is experiment.patch with
# RASTER_WORKGROUP_SIZE 32 / 64 / 128 and RASTER_LANES 32 (run.sh's: 32 and 8 or 4).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
B="old c32 w64 w128"
for b in $B; do gunzip -c .gl/$b.gz > /tmp/$b; chmod +x /tmp/$b; done
D=$OUT/second; mkdir -p $D
pack() { (cd $OUT && tar czf second.tgz second); }
run() { local name=$1 bin=$2; shift 2
  timeout 60 $bin bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; pack; }
for round in 1 2; do
  for b in $B; do
    run million-on-$b-$round /tmp/$b scenes/million.toml --size 1920x1080 --frames 60 --warmup 20
    run million-off-$b-$round /tmp/$b --shadows off scenes/million.toml --size 1920x1080 --frames 60 --warmup 20
    run default-on-$b-$round /tmp/$b --objects 1000,10000,100000 --frames 60 --warmup 15
    run default-off-$b-$round /tmp/$b --shadows off --objects 1000,10000,100000 --frames 60 --warmup 15
  done
done
python3 - $D <<'PY'
import json, glob, sys, os
for f in sorted(glob.glob(sys.argv[1] + '/*.json')):
    for r in json.load(open(f))['rows']:
        p = r['gpu_ms']['passes']
        rs = sum(v for k, v in p.items() if k.startswith('raster shadow'))
        print(f"{os.path.basename(f):24s} {r['objects']:8d} sum {r['gpu_ms']['total']:.3f} raster {p.get('raster', 0):.3f} late {p.get('raster late', 0):.3f} shadow-raster {rs:.3f}")
PY
