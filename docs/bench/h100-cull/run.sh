#!/bin/bash
# The cull's hierarchy and aggregated appends (/tmp/k) against slim records alone (/tmp/m)
# and the build before both (d476470, /tmp/c): shadows off unless said, each row its own run,
# two rounds. 10m-only: one cull phase, no compute rasteriser (the roofline run).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in m c k; do gunzip -c .gl/$b.gz > /tmp/$b; chmod +x /tmp/$b; done
D=$OUT/cells; mkdir -p $D
/tmp/k info > $D/info.txt 2>&1
nvidia-smi > $D/smi.txt 2>&1
run() { local name=$1 bin=$2; shift 2
  $bin bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1
  (cd $OUT && tar czf cells.tgz cells); }
for round in 1 2; do
  for b in k m c; do
    run 10m-only-$b-$round /tmp/$b --shadows off --objects 10000000 --size 1920x1080 --occlusion off --soft-raster off --frames 20 --warmup 5
    run 10m-auto-$b-$round /tmp/$b --shadows off --objects 10000000 --size 1920x1080 --frames 60 --warmup 10
    run million-$b-$round /tmp/$b --shadows off scenes/million.toml --size 1920x1080 --frames 100 --warmup 20
    run default-100000-$b-$round /tmp/$b --shadows off --objects 100000 --frames 100 --warmup 20
  done
done
for b in k c; do
  run million-shadows-$b /tmp/$b scenes/million.toml --size 1920x1080 --frames 30 --warmup 10
  run default-10000-shadows-$b /tmp/$b --objects 10000 --frames 100 --warmup 20
  /tmp/$b render scenes/million.toml --size 1920x1080 --out $D/million-$b.png > $D/render-million-$b.txt 2>&1
  /tmp/$b render --objects 100000 --size 1280x720 --out $D/default-$b.png > $D/render-default-$b.txt 2>&1
  /tmp/$b render scenes/city-sun.toml --size 1280x720 --out $D/city-sun-$b.png > $D/render-city-sun-$b.txt 2>&1
done
cd $OUT && tar czf cells.tgz cells && rm -rf cells; echo finished
