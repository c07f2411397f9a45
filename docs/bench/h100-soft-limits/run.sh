#!/bin/bash
# The compute rasteriser's size limit, for the shadow cascades' casters (EXP_SHADOW_SOFT, in
# texels) and for the view's objects (EXP_VIEW_SOFT, in pixels), read by an experiment build
# of 24090ae, not committed (the code's limit is 16 for both). Defaults otherwise; each row its own run, two rounds.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
gunzip -c .gl/lim.gz > /tmp/lim; chmod +x /tmp/lim
D=$OUT/limits; mkdir -p $D
/tmp/lim info > $D/info.txt 2>&1
pack() { (cd $OUT && tar czf limits.tgz limits); }
run() { local name=$1; shift
  timeout 150 /tmp/lim bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; pack; }
for round in 1 2; do
  for s in 16 24 32 44; do
    export EXP_SHADOW_SOFT=$s EXP_VIEW_SOFT=16
    run default-s$s-$round --shadow-cascades 4 --objects 1000,10000,100000 --frames 100 --warmup 20
    run million-s$s-$round --shadow-cascades 4 scenes/million.toml --size 1920x1080 --frames 60 --warmup 20
    run city-s$s-$round --shadow-cascades 4 scenes/city-sun.toml --size 1920x1080 --frames 100 --warmup 20
  done
  for v in 16 20 24; do
    export EXP_SHADOW_SOFT=16 EXP_VIEW_SOFT=$v
    run default-off-v$v-$round --shadows off --objects 1000,10000,100000 --frames 100 --warmup 20
    run million-off-v$v-$round --shadows off scenes/million.toml --size 1920x1080 --frames 60 --warmup 20
  done
done
pack; rm -rf $D; echo finished
