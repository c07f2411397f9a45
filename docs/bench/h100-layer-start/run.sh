#!/bin/bash
# What starting a cascade's depth layer costs, by texture shape, format, size and usage, and
# what drawing into it and reading it cost after each start (examples/layer_start_probe.rs).
# This script never got a machine; the probe ran first in ../raster-corners/run.sh's call, whose
# output is probe.txt here.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
gunzip -c .gl/probe.gz > /tmp/probe; chmod +x /tmp/probe
for round in 1 2; do timeout 200 /tmp/probe > $OUT/probe-$round.txt 2>&1; done
cat $OUT/probe-1.txt
