#!/bin/bash
# Where a cascade's fixed ~0.4 ms goes: an experiment build (not kept) with two switches,
# MD_SHADOW_NOCLEAR (the layer is loaded, not cleared: wrong shadows, cost only) and
# MD_SHADOW_D16 (Depth16Unorm layers), against itself without them; default scene, shadows on.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
gunzip -c .gl/x.gz > /tmp/x; chmod +x /tmp/x
D=$OUT/h100-shadow-fixed; mkdir -p $D
/tmp/x info > $D/info.txt 2>&1
run() { local name=$1 vars=$2; shift 2
  env $vars /tmp/x bench "$@" --modes gpu --frames 60 --warmup 20 --wide --objects 1000,10000 --size 1280x720 --json $D/$name.json > $D/$name.txt 2>&1
  (cd $OUT && tar czf h100-shadow-fixed.tgz h100-shadow-fixed); }
for round in 1 2; do
  run base-$round MD_NONE=1
  run noclear-$round MD_SHADOW_NOCLEAR=1
  run d16-$round MD_SHADOW_D16=1
  run d16-noclear-$round "MD_SHADOW_D16=1 MD_SHADOW_NOCLEAR=1"
  run off-$round MD_NONE=1 --shadows off
done
/tmp/x bench --modes gpu --frames 60 --warmup 20 --wide scenes/city-sun.toml --size 1920x1080 --json $D/city-base.json > $D/city-base.txt 2>&1
MD_SHADOW_D16=1 /tmp/x bench --modes gpu --frames 60 --warmup 20 --wide scenes/city-sun.toml --size 1920x1080 --json $D/city-d16.json > $D/city-d16.txt 2>&1
cd $OUT && tar czf h100-shadow-fixed.tgz h100-shadow-fixed && rm -rf h100-shadow-fixed; echo finished
