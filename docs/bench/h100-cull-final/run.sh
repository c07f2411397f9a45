#!/bin/bash
# The final code (a88e030, /tmp/f: the review's fixes, the cell test's rounding slack among
# them) against 3c6a15f (/tmp/k), shadows off, each row its own run, one round each.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in k f; do gunzip -c .gl/$b.gz > /tmp/$b; chmod +x /tmp/$b; done
D=$OUT/final; mkdir -p $D
/tmp/f info > $D/info.txt 2>&1
run() { local name=$1 bin=$2; shift 2
  $bin bench --modes gpu --wide --shadows off "$@" --json $D/$name.json > $D/$name.txt 2>&1
  (cd $OUT && tar czf final.tgz final); }
for b in f k; do
  run 10m-only-$b /tmp/$b --objects 10000000 --size 1920x1080 --occlusion off --soft-raster off --frames 20 --warmup 5
  run 10m-auto-$b /tmp/$b --objects 10000000 --size 1920x1080 --frames 60 --warmup 10
  run million-$b /tmp/$b scenes/million.toml --size 1920x1080 --frames 100 --warmup 20
  run default-$b /tmp/$b --objects 1000,10000,100000 --frames 100 --warmup 20
done
cd $OUT && tar czf final.tgz final && rm -rf final; echo finished
