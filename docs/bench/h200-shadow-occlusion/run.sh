#!/bin/bash
# Shadow cascades culled in two phases (--shadow-occlusion on) against one phase (off) and no
# shadows, and auto (the default), the main view fixed (--occlusion on --soft-raster on), two rounds, each row its own run.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
gunzip -c .gl/m.gz > /tmp/m; chmod +x /tmp/m; B=/tmp/m
D=$OUT/h200-shadow-occlusion; mkdir -p $D
$B info > $D/info.txt 2>&1
run() { local name=$1; shift
  $B bench --modes gpu --frames 60 --warmup 10 --occlusion on --soft-raster on "$@" --json $D/$name.json > $D/$name.txt 2>&1
  (cd $OUT && tar czf h200-shadow-occlusion.tgz h200-shadow-occlusion); }
for round in 1 2; do
  for scene in default-1000:--objects=1000 default-100000:--objects=100000 million:scenes/million.toml \
               city-sun:scenes/city-sun.toml; do
    name=${scene%%:*}; arg=${scene#*:}
    size=1920x1080; case $name in default-*) size=1280x720;; esac
    run $name-off-$round $arg --size $size --shadows off
    run $name-one-phase-$round $arg --size $size --shadows on --shadow-occlusion off
    run $name-two-phase-$round $arg --size $size --shadows on --shadow-occlusion on
    run $name-auto-$round $arg --size $size --shadows on --shadow-occlusion auto --wide
  done
done
cd $OUT && tar czf h200-shadow-occlusion.tgz h200-shadow-occlusion && rm -rf h200-shadow-occlusion; echo finished
