#!/bin/bash
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
gunzip -c .gl/m.gz > /tmp/m; chmod +x /tmp/m; B=/tmp/m
D=$OUT/h200-soak; mkdir -p $D
$B soak --objects 10 --frames 3000 --warmup 500 --shadows off --occlusion off > $D/small-occ-off.txt 2>&1
$B soak --objects 10 --frames 3000 --warmup 500 --shadows on --occlusion on > $D/small-shadows.txt 2>&1
$B soak --objects 10 --frames 3000 --warmup 500 --shadows off --occlusion on > $D/small-occ-on.txt 2>&1
cd $OUT && tar czf h200-soak.tgz h200-soak && rm -rf h200-soak; echo finished
