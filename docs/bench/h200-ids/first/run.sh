#!/bin/bash
# 32-bit triangle ids in the deferred main pass, against forward and the Lambert build.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
gunzip -c .gl/m.gz > /tmp/m; gunzip -c .gl/l.gz > /tmp/l; chmod +x /tmp/m /tmp/l
D=$OUT/exp; mkdir -p $D
B="--modes gpu --frames 60 --warmup 10 --wide --shadows off --occlusion on --soft-raster on"
run() { n=$1; shift; env "$@" --objects 1000,10000,100000 --json $D/default-$n.json > $D/default-$n.txt 2>&1; }
runm() { n=$1; shift; env "$@" --size 1920x1080 --json $D/million-$n.json > $D/million-$n.txt 2>&1; }
for r in 1 2; do
run L$r /tmp/l bench $B
run F$r /tmp/m bench $B --deferred off
run D$r /tmp/m bench $B --deferred on
runm L$r /tmp/l bench scenes/million.toml $B
runm F$r /tmp/m bench scenes/million.toml $B --deferred off
runm D$r /tmp/m bench scenes/million.toml $B --deferred on
done
A="--modes gpu --frames 120 --warmup 20 --wide --shadows off"
/tmp/m bench $A --objects 1000,10000,100000 --json $D/default-auto.json > $D/default-auto.txt 2>&1
/tmp/m bench scenes/million.toml $A --size 1920x1080 --json $D/million-auto.json > $D/million-auto.txt 2>&1
/tmp/l bench $A --objects 1000,10000,100000 --json $D/default-Lauto.json > $D/default-Lauto.txt 2>&1
/tmp/l bench scenes/million.toml $A --size 1920x1080 --json $D/million-Lauto.json > $D/million-Lauto.txt 2>&1
for d in on off; do
  /tmp/m render --deferred $d --objects 100000 --size 1280x720 --out $D/default-$d.png > $D/render-default-$d.txt 2>&1
  /tmp/m render scenes/million.toml --deferred $d --size 1920x1080 --out $D/million-$d.png > $D/render-million-$d.txt 2>&1
  /tmp/m render scenes/city-sun.toml --deferred $d --size 1920x1080 --out $D/city-sun-$d.png > $D/render-city-sun-$d.txt 2>&1
  /tmp/m render scenes/gltf.toml --deferred $d --size 1280x720 --out $D/gltf-$d.png > $D/render-gltf-$d.txt 2>&1
done
cd $OUT && tar czf exp.tgz exp && rm -rf exp; echo finished
