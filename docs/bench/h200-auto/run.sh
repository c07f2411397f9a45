#!/bin/bash
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
gunzip -c .gl/m.gz > /tmp/m; chmod +x /tmp/m; B=/tmp/m
D=$OUT/h200-auto; mkdir -p $D
run() { local name=$1; shift
  $B bench --modes gpu --frames 120 --warmup 20 --shadows off "$@" --json $D/$name.json > $D/$name.txt 2>&1
  (cd $OUT && tar czf h200-auto.tgz h200-auto); }
for round in 1 2; do
  run default-auto-$round --compare-detail
  run default-on-$round --occlusion on --soft-raster on
  run million-auto-$round scenes/million.toml --size 1920x1080 --compare-detail
  run million-on-$round scenes/million.toml --size 1920x1080 --occlusion on --soft-raster on
  run street-auto-$round scenes/city-street.toml --size 1920x1080 --compare-detail
  run street-on-$round scenes/city-street.toml --size 1920x1080 --occlusion on --soft-raster on
done
cd $OUT && tar czf h200-auto.tgz h200-auto && rm -rf h200-auto; echo finished
