#!/bin/bash
# Counters spread over 32 copies (s64: the cull's workgroup of 64; s128, s256: experiment
# builds with 128 and 256) against the committed cells build (k, 3c6a15f): shadows off, each
# row its own run; k and s64 two rounds.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in k s64 s128 s256; do gunzip -c .gl/$b.gz > /tmp/$b; chmod +x /tmp/$b; done
D=$OUT/spread; mkdir -p $D
/tmp/s64 info > $D/info.txt 2>&1
run() { local name=$1 bin=$2; shift 2
  $bin bench --modes gpu --wide --shadows off "$@" --json $D/$name.json > $D/$name.txt 2>&1
  (cd $OUT && tar czf spread.tgz spread); }
for round in 1 2; do
  for b in k s64 s128 s256; do
    if [ $round = 2 ] && [ $b != k ] && [ $b != s64 ]; then continue; fi
    run 10m-only-$b-$round /tmp/$b --objects 10000000 --size 1920x1080 --occlusion off --soft-raster off --frames 20 --warmup 5
    run 10m-auto-$b-$round /tmp/$b --objects 10000000 --size 1920x1080 --frames 60 --warmup 10
    run million-$b-$round /tmp/$b scenes/million.toml --size 1920x1080 --frames 100 --warmup 20
    run default-$b-$round /tmp/$b --objects 1000,10000,100000 --frames 100 --warmup 20
  done
done
cd $OUT && tar czf spread.tgz spread && rm -rf spread; echo finished
