#!/bin/bash
# Depth16Unorm shadow layers (passes::shadow::SHADOW_FORMAT, /tmp/m)
# against the build before them (2b8f203, Depth32Float layers, the
# casters' cull, /tmp/c): shadows on against off with the defaults, each row its own run,
# 100 frames after 20, two rounds.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
gunzip -c .gl/m.gz > /tmp/m; gunzip -c .gl/c.gz > /tmp/c; chmod +x /tmp/m /tmp/c
D=$OUT/h100-shadow-d16; mkdir -p $D
/tmp/m info > $D/info.txt 2>&1
run() { local name=$1 bin=$2; shift 2
  $bin bench --modes gpu --frames 100 --warmup 20 --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1
  (cd $OUT && tar czf h100-shadow-d16.tgz h100-shadow-d16); }
for round in 1 2; do
  for scene in default-1000:--objects=1000 default-10000:--objects=10000 default-100000:--objects=100000 \
               city-sun:scenes/city-sun.toml million:scenes/million.toml; do
    name=${scene%%:*}; arg=${scene#*:}
    size=1920x1080; case $name in default-*) size=1280x720;; esac
    run $name-off-$round /tmp/m $arg --size $size --shadows off
    run $name-on-$round /tmp/m $arg --size $size --shadows on
    run $name-before-$round /tmp/c $arg --size $size --shadows on
  done
done
for s in city-sun million gltf; do
  /tmp/m render scenes/$s.toml --size 1280x720 --out $D/$s.png > $D/render-$s.txt 2>&1
  /tmp/c render scenes/$s.toml --size 1280x720 --out $D/$s-before.png > $D/render-$s-before.txt 2>&1
done
cd $OUT && tar czf h100-shadow-d16.tgz h100-shadow-d16 && rm -rf h100-shadow-d16; echo finished
