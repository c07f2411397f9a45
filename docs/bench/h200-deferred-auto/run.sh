#!/bin/bash
# Deferred shading left to the adaptive frame (--deferred auto, the default) against deferred
# forced on and off, and the Lambert build (659c405), on the H200; two rounds.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
gunzip -c .gl/m.gz > /tmp/m; gunzip -c .gl/l.gz > /tmp/l; chmod +x /tmp/m /tmp/l
D=$OUT/h200-deferred-auto; mkdir -p $D
B="--modes gpu --frames 120 --warmup 20 --wide --shadows off"
for round in 1 2; do
  /tmp/l bench $B --objects 1000,10000,100000 --json $D/default-L-$round.json > $D/default-L-$round.txt 2>&1
  for d in auto on off; do
    /tmp/m bench $B --objects 1000,10000,100000 --deferred $d --json $D/default-$d-$round.json > $D/default-$d-$round.txt 2>&1
    /tmp/m bench scenes/million.toml $B --size 1920x1080 --deferred $d --json $D/million-$d-$round.json > $D/million-$d-$round.txt 2>&1
  done
  /tmp/l bench scenes/million.toml $B --size 1920x1080 --json $D/million-L-$round.json > $D/million-L-$round.txt 2>&1
done
/tmp/m bench --compare-detail --modes gpu --frames 120 --warmup 20 --wide --objects 1000,10000,100000 --json $D/compare-detail.json > $D/compare-detail.txt 2>&1
S="--modes gpu --frames 120 --warmup 20 --wide --size 1920x1080"
for d in auto off; do
  /tmp/m bench scenes/city-sun.toml $S --deferred $d --json $D/city-sun-$d.json > $D/city-sun-$d.txt 2>&1
  /tmp/m bench scenes/city-sun.toml $S --deferred $d --shadows off --json $D/city-sun-noshadow-$d.json > $D/city-sun-noshadow-$d.txt 2>&1
done
cd $OUT && tar czf h200-deferred-auto.tgz h200-deferred-auto && rm -rf h200-deferred-auto; echo finished
