#!/bin/bash
# The cascades' small casters merged into their layers by a compute pass and a copy (/tmp/m),
# against the first version, which resolved them with a full-screen depth draw (b652786, /tmp/n),
# and the build before both (edda7f4, /tmp/b). Shadows on (4 cascades) with the defaults
# (auto), each row its own run; the compute rasteriser forced on; the frame without shadows.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in b n m; do gunzip -c .gl/$b.gz > /tmp/$b; chmod +x /tmp/$b; done
D=$OUT/merge; mkdir -p $D
/tmp/m info > $D/info.txt 2>&1
pack() { (cd $OUT && tar czf merge.tgz merge); }
run() { local name=$1 bin=$2; shift 2
  timeout 150 $bin bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; pack; }
for round in 1 2; do
  for b in m n b; do
    run default-$b-$round /tmp/$b --objects 1000,10000,100000 --frames 100 --warmup 20
    run million-$b-$round /tmp/$b scenes/million.toml --size 1920x1080 --frames 60 --warmup 20
  done
  run default-m-softon-$round /tmp/m --objects 1000,10000,100000 --frames 100 --warmup 20 --soft-raster on
  run million-m-softon-$round /tmp/m scenes/million.toml --size 1920x1080 --frames 60 --warmup 20 --soft-raster on
  run default-m-off-$round /tmp/m --objects 1000,10000,100000 --frames 100 --warmup 20 --shadows off
  run million-m-off-$round /tmp/m scenes/million.toml --size 1920x1080 --frames 60 --warmup 20 --shadows off
  run city-m-$round /tmp/m scenes/city-sun.toml --size 1920x1080 --frames 100 --warmup 20
  run city-m-off-$round /tmp/m scenes/city-sun.toml --size 1920x1080 --frames 100 --warmup 20 --shadows off
  run city-b-$round /tmp/b scenes/city-sun.toml --size 1920x1080 --frames 100 --warmup 20
done
for b in m b; do
  /tmp/$b render scenes/million.toml --size 1280x720 --soft-raster on --out $D/million-$b.png > /dev/null 2>&1
  /tmp/$b render scenes/city-sun.toml --size 1280x720 --soft-raster on --out $D/city-$b.png > /dev/null 2>&1
  /tmp/$b render --objects 100000 --size 1280x720 --soft-raster on --out $D/default-$b.png > /dev/null 2>&1
done
pack; rm -rf $D; echo finished
