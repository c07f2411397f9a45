#!/bin/bash
# The cascades' small casters through the compute rasteriser (b652786, /tmp/n) against the build
# before it (edda7f4, /tmp/b): shadows on (4 cascades) with the defaults (auto), each row its own
# run; the new build also with the compute rasteriser forced on and off, and without shadows;
# pictures of both builds.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in b n; do gunzip -c .gl/$b.gz > /tmp/$b; chmod +x /tmp/$b; done
D=$OUT/soft; mkdir -p $D
/tmp/n info > $D/info.txt 2>&1
pack() { (cd $OUT && tar czf soft.tgz soft); }
run() { local name=$1 bin=$2; shift 2
  timeout 150 $bin bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; pack; }
for b in n b; do
  run default-$b /tmp/$b --objects 1000,10000,100000 --frames 100 --warmup 20
  run million-$b /tmp/$b scenes/million.toml --size 1920x1080 --frames 60 --warmup 20
  run city-$b /tmp/$b scenes/city-sun.toml --size 1920x1080 --frames 100 --warmup 20
done
run default-n-off /tmp/n --objects 1000,10000,100000 --frames 100 --warmup 20 --shadows off
run million-n-off /tmp/n scenes/million.toml --size 1920x1080 --frames 60 --warmup 20 --shadows off
run city-n-off /tmp/n scenes/city-sun.toml --size 1920x1080 --frames 100 --warmup 20 --shadows off
for s in on off; do
  run default-n-soft$s /tmp/n --objects 1000,10000,100000 --frames 100 --warmup 20 --soft-raster $s
  run million-n-soft$s /tmp/n scenes/million.toml --size 1920x1080 --frames 60 --warmup 20 --soft-raster $s
done
for b in n b; do

  /tmp/$b render scenes/million.toml --size 1280x720 --out $D/million-$b.png > /dev/null 2>&1
  /tmp/$b render scenes/city-sun.toml --size 1280x720 --out $D/city-$b.png > /dev/null 2>&1
  /tmp/$b render --objects 100000 --size 1280x720 --out $D/default-$b.png > /dev/null 2>&1
done
pack; rm -rf $D; echo finished
