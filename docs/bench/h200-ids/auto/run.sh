#!/bin/bash
# The defaults (auto) with 32-bit triangle ids, against the Lambert build's defaults, same run.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
gunzip -c .gl/m.gz > /tmp/m; gunzip -c .gl/l.gz > /tmp/l; chmod +x /tmp/m /tmp/l
D=$OUT/exp; mkdir -p $D
A="--modes gpu --frames 120 --warmup 20 --wide --shadows off"
for r in 1 2; do
/tmp/m bench $A --objects 1000,10000,100000 --json $D/default-auto$r.json > $D/default-auto$r.txt 2>&1
/tmp/l bench $A --objects 1000,10000,100000 --json $D/default-Lauto$r.json > $D/default-Lauto$r.txt 2>&1
/tmp/m bench scenes/million.toml $A --size 1920x1080 --json $D/million-auto$r.json > $D/million-auto$r.txt 2>&1
/tmp/l bench scenes/million.toml $A --size 1920x1080 --json $D/million-Lauto$r.json > $D/million-Lauto$r.txt 2>&1
done
for d in on off; do
  /tmp/m render --deferred $d --objects 100000 --size 1280x720 --out $D/default-$d.png > $D/render-default-$d.txt 2>&1
  /tmp/m render scenes/million.toml --deferred $d --size 1920x1080 --out $D/million-$d.png > $D/render-million-$d.txt 2>&1
  /tmp/m render scenes/city-sun.toml --deferred $d --size 1920x1080 --out $D/city-sun-$d.png > $D/render-city-sun-$d.txt 2>&1
  /tmp/m render scenes/gltf.toml --deferred $d --size 1280x720 --out $D/gltf-$d.png > $D/render-gltf-$d.txt 2>&1
done
cd $OUT && tar czf exp.tgz exp && rm -rf exp; echo finished
