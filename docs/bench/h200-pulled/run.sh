#!/bin/bash
# The blended pass without a draw count (gpu-nocount: one pulled draw, vs_pulled) against the
# counted multi-draw (gpu) on the H200: the same pixels, and what the pulled draw costs.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
gunzip -c .gl/m.gz > /tmp/m; chmod +x /tmp/m; B=/tmp/m
D=$OUT/h200-pulled; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
for mode in gpu gpu-nocount; do
  $B render --mode $mode --objects 100000 --size 1280x720 --out $D/default-$mode.png > $D/render-default-$mode.txt 2>&1
  $B render scenes/glass.toml --mode $mode --size 1920x1080 --out $D/glass-$mode.png > $D/render-glass-$mode.txt 2>&1
done
run() { local name=$1; shift
  $B bench --modes gpu,gpu-nocount --frames 60 --warmup 10 --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; }
run default-100k --shadows off
run glass scenes/glass.toml --size 1920x1080 --shadows off
cd $OUT && tar czf h200-pulled.tgz h200-pulled && rm -rf h200-pulled; echo finished
