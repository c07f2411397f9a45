#!/bin/bash
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
gunzip -c .gl/m.gz > /tmp/m; chmod +x /tmp/m; B=/tmp/m
D=$OUT/h200-blend; mkdir -p $D
run() { local name=$1; shift
  $B bench --modes gpu --frames 60 --warmup 10 "$@" --json $D/$name.json > $D/$name.txt 2>&1
  (cd $OUT && tar czf h200-blend.tgz h200-blend); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
for round in 1 2; do
  run default-1k-$round --objects 1000 --shadows off
  run default-100k-$round --shadows off
  run million-$round scenes/million.toml --size 1920x1080 --shadows off
  run glass-$round scenes/glass.toml --size 1920x1080 --shadows off
done
$B bench --modes gpu,cpu --frames 60 --warmup 10 --shadows off --json $D/default-100k-cpu.json > $D/default-100k-cpu.txt 2>&1
cd $OUT && tar czf h200-blend.tgz h200-blend && rm -rf h200-blend; echo finished
