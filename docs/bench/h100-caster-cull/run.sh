#!/bin/bash
# Casters culled to those whose shadow can reach the view's part of each cascade
# (frame::shadows::casts_into, /tmp/m) against the build before it (cfe7d1b, /tmp/b): shadows
# on against off with the defaults, each row its own run, 100 frames after 20 so that the
# adaptive frame reaches its verdicts; the new build twice.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
gunzip -c .gl/m.gz > /tmp/m; gunzip -c .gl/b.gz > /tmp/b; chmod +x /tmp/m /tmp/b
D=$OUT/h100-caster-cull; mkdir -p $D
/tmp/m info > $D/info.txt 2>&1
run() { local name=$1 bin=$2; shift 2
  $bin bench --modes gpu --frames 100 --warmup 20 --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1
  (cd $OUT && tar czf h100-caster-cull.tgz h100-caster-cull); }
for round in 1 2; do
  for scene in default-1000:--objects=1000 default-10000:--objects=10000 default-100000:--objects=100000 \
               city-sun:scenes/city-sun.toml million:scenes/million.toml; do
    name=${scene%%:*}; arg=${scene#*:}
    size=1920x1080; case $name in default-*) size=1280x720;; esac
    run $name-off-$round /tmp/m $arg --size $size --shadows off
    run $name-on-$round /tmp/m $arg --size $size --shadows on
    [ $round = 1 ] && run $name-before-$round /tmp/b $arg --size $size --shadows on
  done
done
for s in city-sun million; do
  /tmp/m render scenes/$s.toml --size 1280x720 --out $D/$s.png > $D/render-$s.txt 2>&1
  /tmp/b render scenes/$s.toml --size 1280x720 --out $D/$s-before.png > $D/render-$s-before.txt 2>&1
done
cd $OUT && tar czf h100-caster-cull.tgz h100-caster-cull && rm -rf h100-caster-cull; echo finished
