#!/usr/bin/env bash
# Runs the benchmark on the NVIDIA device machine (see docs/BENCHMARKS.md). Expects the
# release binary at target/release/multidraw and writes everything under $OUT.
set -uo pipefail
B=target/release/multidraw
OUT=${OUT:-/tmp/multidraw-out}
mkdir -p "$OUT"
if ! $B info > "$OUT/info.txt" 2>&1; then
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  $B info > "$OUT/info.txt" 2>&1
fi
cat "$OUT/info.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$OUT/info.txt" 2>&1
"$@"
