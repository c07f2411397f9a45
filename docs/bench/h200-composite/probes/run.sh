#!/bin/bash
# Probes, with a build that had environment hooks (not kept in the code): MD_EXP_VIEW=2 forces the
# albedo debug view (a near-free fragment shader), MD_EXP_NOCOLOR drops the colour attachment from
# the deferred main passes, MD_EXP_NORESOLVE skips the compute rasteriser's resolve (timing only).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
gunzip -c .gl/m.gz > /tmp/m; gunzip -c .gl/l.gz > /tmp/l; chmod +x /tmp/m /tmp/l
D=$OUT/exp; mkdir -p $D
B="--modes gpu --frames 60 --warmup 10 --wide --shadows off --occlusion on --soft-raster on"
run() { n=$1; shift; env "$@" --objects 1000,100000 --json $D/default-$n.json > $D/default-$n.txt 2>&1; }
runm() { n=$1; shift; env "$@" --size 1920x1080 --json $D/million-$n.json > $D/million-$n.txt 2>&1; }
for r in 1 2; do
run L$r /tmp/l bench $B
run F$r /tmp/m bench $B --deferred off
run F2$r MD_EXP_VIEW=2 /tmp/m bench $B --deferred off
run FR$r MD_EXP_NORESOLVE=1 /tmp/m bench $B --deferred off
run D$r /tmp/m bench $B --deferred on
run DN$r MD_EXP_NOCOLOR=1 /tmp/m bench $B --deferred on
run DR$r MD_EXP_NORESOLVE=1 /tmp/m bench $B --deferred on
run DNR$r MD_EXP_NORESOLVE=1 MD_EXP_NOCOLOR=1 /tmp/m bench $B --deferred on
done
runm L /tmp/l bench scenes/million.toml $B
runm F /tmp/m bench scenes/million.toml $B --deferred off
runm F2 MD_EXP_VIEW=2 /tmp/m bench scenes/million.toml $B --deferred off
runm D /tmp/m bench scenes/million.toml $B --deferred on
runm DN MD_EXP_NOCOLOR=1 /tmp/m bench scenes/million.toml $B --deferred on
runm DR MD_EXP_NORESOLVE=1 /tmp/m bench scenes/million.toml $B --deferred on
cd $OUT && tar czf exp.tgz exp && rm -rf exp; echo finished
