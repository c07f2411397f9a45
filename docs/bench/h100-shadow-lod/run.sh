#!/bin/bash
# A cascade's own level of detail (the coarser of the view's level and the coarsest that fits
# its texels; 960128a, /tmp/l) against f722b99 (/tmp/m, the view's level), shadows on (4
# cascades), the defaults (auto), each row its own run, two rounds; pictures of both builds.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in m l; do gunzip -c .gl/$b.gz > /tmp/$b; chmod +x /tmp/$b; done
D=$OUT/lod; mkdir -p $D
/tmp/l info > $D/info.txt 2>&1
pack() { (cd $OUT && tar czf lod.tgz lod); }
run() { local name=$1 bin=$2; shift 2
  timeout 150 $bin bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; pack; }
for round in 1 2; do
  for b in l m; do
    run default-$b-$round /tmp/$b --objects 1000,10000,100000 --frames 100 --warmup 20
    run million-$b-$round /tmp/$b scenes/million.toml --size 1920x1080 --frames 60 --warmup 20
    run city-$b-$round /tmp/$b scenes/city-sun.toml --size 1920x1080 --frames 100 --warmup 20
  done
done
for b in l m; do
  /tmp/$b render scenes/million.toml --size 1280x720 --soft-raster on --out $D/million-$b.png > /dev/null 2>&1
  /tmp/$b render scenes/city-sun.toml --size 1280x720 --soft-raster on --out $D/city-$b.png > /dev/null 2>&1
  /tmp/$b render --objects 100000 --size 1280x720 --soft-raster on --out $D/default-$b.png > /dev/null 2>&1
done
pack; rm -rf $D; echo finished
