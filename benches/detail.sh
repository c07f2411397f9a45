#!/usr/bin/env bash
# The level-of-detail and occlusion-culling runs of docs/BENCHMARKS.md ("Levels of detail and
# occlusion culling") on the NVIDIA device machine: each scene at full detail and with LOD, size
# and occlusion culling (--compare-detail), the 1 px LOD operating point, and the record time at
# 1,000 vs 1,000,000 objects with everything on. Expects the release binary at
# target/release/multidraw; writes tables and JSON under $OUT.
set -uo pipefail
B=target/release/multidraw
OUT=${OUT:-/tmp/multidraw-out}
mkdir -p "$OUT"
run() { # name, args...
  local name=$1
  shift
  $B bench "$@" --json "$OUT/$name.json" > "$OUT/$name.txt" 2> "$OUT/$name.log"
  grep -E "^(gpu|cpu) |objects, " "$OUT/$name.txt"
}
$B info > "$OUT/info.txt" 2>&1
run million scenes/million.toml --modes gpu --compare-detail --size 1920x1080 --frames 60 --warmup 10
run million-lod1 scenes/million.toml --modes gpu --lod-error 1 --size 1920x1080 --frames 60 --warmup 10
run million-lod1-static scenes/million.toml --modes gpu --lod-error 1 --static --size 1920x1080 --frames 60 --warmup 10
run default --objects 100000 --modes gpu,cpu --compare-detail --frames 60 --warmup 10
run street scenes/city-street.toml --modes gpu --compare-detail --size 1920x1080 --frames 60 --warmup 10
run tiny scenes/tiny-million.toml --modes gpu --compare-detail --size 1920x1080 --frames 60 --warmup 10
run record --objects 1000,1000000 --modes gpu --size 1920x1080 --frames 60 --warmup 10
