#!/bin/bash
# The compute rasteriser's work per object, three builds, the defaults, each row its own run:
#   old: 7690bd3, a workgroup of 32 threads per object, each triangle transforming its corners;
#   l8, l4: the level's vertices (up to 64) transformed once per object into workgroup memory,
#           4 or 8 objects per workgroup of 32 threads (8 or 4 threads each).
# First the layer-start probe (examples/layer_start_probe.rs).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
B="old l8 l4"
for b in $B probe; do gunzip -c .gl/$b.gz > /tmp/$b; chmod +x /tmp/$b; done
D=$OUT/corners; mkdir -p $D
pack() { (cd $OUT && tar czf corners.tgz corners); }
timeout 45 /tmp/probe > $D/probe-1.txt 2>&1; pack
/tmp/old info > $D/info.txt 2>&1
run() { local name=$1 bin=$2; shift 2
  timeout 60 $bin bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; pack; }
round=${1:-1}
for b in $B; do
  run million-on-$b-$round /tmp/$b scenes/million.toml --size 1920x1080 --frames 60 --warmup 20
  run million-off-$b-$round /tmp/$b --shadows off scenes/million.toml --size 1920x1080 --frames 60 --warmup 20
  run default-on-$b-$round /tmp/$b --objects 1000,10000,100000 --frames 60 --warmup 15
  run default-off-$b-$round /tmp/$b --shadows off --objects 1000,10000,100000 --frames 60 --warmup 15
done
for f in $D/*-$round.txt; do echo "== $f"; grep -E "^gpu " $f | cut -c1-60,200-260; done
