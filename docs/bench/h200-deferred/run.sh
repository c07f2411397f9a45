#!/bin/bash
# Deferred shading of the hardware's pixels (passes::deferred) on the H200: the Lambert build
# (659c405, forward), this build forward (--deferred off) and deferred (the default), each
# row in turn, two rounds; and the pixels of forward against deferred.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
gunzip -c .gl/m.gz > /tmp/m; gunzip -c .gl/l.gz > /tmp/l; chmod +x /tmp/m /tmp/l
D=$OUT/h200-deferred; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
/tmp/m info > $D/info.txt 2>&1
for d in on off; do
  /tmp/m render --deferred $d --objects 100000 --size 1280x720 --out $D/default-$d.png > $D/render-default-$d.txt 2>&1
  /tmp/m render scenes/million.toml --deferred $d --size 1920x1080 --out $D/million-$d.png > $D/render-million-$d.txt 2>&1
  /tmp/m render scenes/city-sun.toml --deferred $d --size 1920x1080 --out $D/city-sun-$d.png > $D/render-city-sun-$d.txt 2>&1
  /tmp/m render scenes/gltf.toml --deferred $d --size 1280x720 --out $D/gltf-$d.png > $D/render-gltf-$d.txt 2>&1
done
B="--modes gpu --frames 60 --warmup 10 --wide --shadows off"
for round in 1 2; do
  /tmp/l bench $B --objects 1000,10000,100000 --json $D/default-L-$round.json > $D/default-L-$round.txt 2>&1
  /tmp/m bench $B --objects 1000,10000,100000 --occlusion on --soft-raster on --deferred off --json $D/default-F-$round.json > $D/default-F-$round.txt 2>&1
  /tmp/m bench $B --objects 1000,10000,100000 --occlusion on --soft-raster on --json $D/default-D-$round.json > $D/default-D-$round.txt 2>&1
  /tmp/m bench $B --objects 1000,10000,100000 --json $D/default-Dauto-$round.json > $D/default-Dauto-$round.txt 2>&1
  /tmp/l bench scenes/million.toml $B --size 1920x1080 --json $D/million-L-$round.json > $D/million-L-$round.txt 2>&1
  /tmp/m bench scenes/million.toml $B --size 1920x1080 --occlusion on --soft-raster on --deferred off --json $D/million-F-$round.json > $D/million-F-$round.txt 2>&1
  /tmp/m bench scenes/million.toml $B --size 1920x1080 --occlusion on --soft-raster on --json $D/million-D-$round.json > $D/million-D-$round.txt 2>&1
  /tmp/m bench scenes/million.toml $B --size 1920x1080 --json $D/million-Dauto-$round.json > $D/million-Dauto-$round.txt 2>&1
done
S="--modes gpu --frames 60 --warmup 10 --wide --size 1920x1080"
/tmp/l bench scenes/city-sun.toml $S --json $D/city-sun-L.json > $D/city-sun-L.txt 2>&1
/tmp/m bench scenes/city-sun.toml $S --deferred off --json $D/city-sun-F.json > $D/city-sun-F.txt 2>&1
/tmp/m bench scenes/city-sun.toml $S --json $D/city-sun-D.json > $D/city-sun-D.txt 2>&1
/tmp/m bench scenes/city-sun.toml $S --deferred off --shadows off --json $D/city-sun-F-noshadow.json > $D/city-sun-F-noshadow.txt 2>&1
/tmp/m bench scenes/city-sun.toml $S --shadows off --json $D/city-sun-D-noshadow.json > $D/city-sun-D-noshadow.txt 2>&1
cd $OUT && tar czf h200-deferred.tgz h200-deferred && rm -rf h200-deferred; echo finished
