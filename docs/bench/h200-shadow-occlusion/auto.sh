#!/bin/bash
# The adaptive frame as committed after run.sh (cascades start in one phase, probes turn the
# second on where it pays): --shadow-occlusion auto rows, 120 frames, the main view fixed.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
gunzip -c .gl/m.gz > /tmp/m; chmod +x /tmp/m; B=/tmp/m
D=$OUT/h200-shadow-auto; mkdir -p $D
for scene in default-1000:--objects=1000 default-100000:--objects=100000 million:scenes/million.toml \
             city-sun:scenes/city-sun.toml; do
  name=${scene%%:*}; arg=${scene#*:}
  size=1920x1080; case $name in default-*) size=1280x720;; esac
  $B bench --modes gpu --frames 120 --warmup 10 --occlusion on --soft-raster on $arg --size $size \
    --shadows on --shadow-occlusion auto --wide --json $D/$name-auto.json > $D/$name-auto.txt 2>&1
done
cd $OUT && tar czf h200-shadow-auto.tgz h200-shadow-auto && rm -rf h200-shadow-auto; echo finished
