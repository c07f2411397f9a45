#!/bin/bash
# Issue 26's "never slower": the defaults against full detail in one run per row
# (`bench --compare-detail`), shadows on (the defaults, 4 cascades) and off, the composite in
# compute (this build); two rounds.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
gunzip -c .gl/new.gz > /tmp/new; chmod +x /tmp/new
D=$OUT/detail; mkdir -p $D
/tmp/new info > $D/info.txt 2>&1
pack() { (cd $OUT && tar czf detail.tgz detail); }
run() { local name=$1; shift
  timeout 200 /tmp/new bench --compare-detail --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; pack; }
for round in 1 2; do
  for s in on off; do
    run default-$s-$round --shadows $s --objects 1000,10000,100000 --frames 120 --warmup 20
    run million-$s-$round --shadows $s scenes/million.toml --size 1920x1080 --frames 60 --warmup 20
  done
done
pack; rm -rf $D; echo finished
