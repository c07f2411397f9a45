#!/bin/bash
# The first experiment (an experiment build of 24090ae, not committed): with EXP_COPY_CLEAR set,
# each cascade's first depth pass loads its layer after a copy of the far plane from a buffer
# (outside every pass, so no timestamp covers it) instead of clearing it; the merge still came
# after the last depth pass, with its own copy. Judge it by gpu_wall_ms, not by the GPU sum.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
gunzip -c .gl/lim.gz > /tmp/lim; chmod +x /tmp/lim
D=$OUT/clear; mkdir -p $D
pack() { (cd $OUT && tar czf clear.tgz clear); }
run() { local name=$1; shift
  timeout 150 /tmp/lim bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; pack; }
for round in 1 2; do
  for c in load clear; do
    if [ $c = load ]; then export EXP_COPY_CLEAR=1; else unset EXP_COPY_CLEAR; fi
    run default-$c-$round --shadow-cascades 4 --objects 1000,10000,100000 --frames 100 --warmup 20
    run million-$c-$round --shadow-cascades 4 scenes/million.toml --size 1920x1080 --frames 60 --warmup 20
    run city-$c-$round --shadow-cascades 4 scenes/city-sun.toml --size 1920x1080 --frames 100 --warmup 20
  done
done
export EXP_COPY_CLEAR=1
/tmp/lim render scenes/city-sun.toml --size 1280x720 --out $D/city-load.png > $D/render.txt 2>&1
unset EXP_COPY_CLEAR
/tmp/lim render scenes/city-sun.toml --size 1280x720 --out $D/city-clear.png >> $D/render.txt 2>&1
cmp $D/city-load.png $D/city-clear.png && echo same-png >> $D/render.txt
pack; echo finished
