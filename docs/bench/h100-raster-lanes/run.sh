#!/bin/bash
# As run (from .gl/run10.sh): threads per object in the compute rasteriser, an experiment build
# of 16b7417 (experiment.diff) whose raster pipelines take MD_EXP_LANES threads a workgroup.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" .gl/lanes.xz /tmp/lanes; chmod +x /tmp/lanes
D=$OUT/n; mkdir -p $D
bench() { local name=$1 v=$2; shift 2
  MD_EXP_LANES=$v timeout 120 /tmp/lanes bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; }
M="scenes/million.toml --size 1920x1080 --frames 60 --warmup 20"
S="--objects 1000,10000,100000 --frames 60 --warmup 15"
for v in 32 64 128 256; do bench ms-$v $v $M --shadows on; bench m-$v $v $M --shadows off; bench d-$v $v $S --shadows off; done
for v in 256 128 64 32; do bench ms2-$v $v $M --shadows on; bench m2-$v $v $M --shadows off; bench ds-$v $v $S --shadows on; done
