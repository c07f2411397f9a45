#!/bin/bash
# The compute rasteriser's inner work: 69305ba (base) against variants of shaders/raster.wgsl.
# One binary: an experiment build of 69305ba whose PassShader::compose takes a pass's file from
# the folder MD_SHADER_DIR names, where set. The variants (patches beside this script):
#   chain   the list entry, its object and batch read before the list's count (chain.patch)
#   incr    edge functions stepped a pixel at a time, depth from a plane (incr.patch)
#   coop    chain + incr, and an object of at most 32 triangles whose boxes the workgroup
#           covers in fewer rounds together has every thread on each triangle in turn (coop.patch)
#   w64, w128        64 or 128 threads an object (threads.patch, with 64 or 128)
#   coop64, coop128  coop.patch with RASTER_WORKGROUP_SIZE replaced the same way
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
gunzip -c .gl/md.gz > /tmp/md; chmod +x /tmp/md
D=$OUT/raster; mkdir -p $D
pack() { (cd $OUT && tar czf raster.tgz raster); }
nvidia-smi -L > $D/gpu.txt 2>&1
bench() { local name=$1 v=$2; shift 2
  if [ $v = base ]; then unset MD_SHADER_DIR; else export MD_SHADER_DIR=$PWD/.gl/variants/$v; fi
  timeout 90 /tmp/md bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; unset MD_SHADER_DIR; }
for round in 1 2; do
  [ $round = 2 ] && [ $SECONDS -gt 300 ] && { echo "round 2 skipped at $SECONDS s" > $D/skipped.txt; break; }
  for v in base chain incr coop w64 w128 coop64 coop128; do
    bench million-$v-$round $v scenes/million.toml --size 1920x1080 --frames 60 --warmup 20 --shadows off
    bench default-$v-$round $v --objects 1000,10000,100000 --frames 60 --warmup 15 --shadows off
    bench shadows-$v-$round $v scenes/million.toml --size 1920x1080 --frames 60 --warmup 20
    pack
  done
done
for v in base coop w128 coop128; do
  [ $SECONDS -gt 430 ] && break
  bench 10m-$v $v --objects 10000000 --size 1920x1080 --frames 30 --warmup 10 --shadows off; pack
done
for s in million city-sun gltf; do
  [ $SECONDS -gt 500 ] && break
  for v in base incr coop w128 coop128; do
    if [ $v = base ]; then unset MD_SHADER_DIR; else export MD_SHADER_DIR=$PWD/.gl/variants/$v; fi
    timeout 60 /tmp/md render scenes/$s.toml --size 1280x720 --deferred on --soft-raster on --occlusion on --out /tmp/$s-$v.png > $D/render-$s-$v.txt 2>&1
    unset MD_SHADER_DIR
  done
  for v in incr coop w128 coop128; do python3 .gl/pngdiff.py /tmp/$s-base.png /tmp/$s-$v.png >> $D/renders.txt 2>&1; done
done
pack
python3 - $D > $D/summary.txt <<'PY'
import json, glob, sys, os
for f in sorted(glob.glob(sys.argv[1] + '/*.json')):
    for r in json.load(open(f))['rows']:
        p = r['gpu_ms']['passes']
        sr = sum(v for k, v in p.items() if k.startswith('raster') or 'raster' in k)
        print(f"{os.path.basename(f):24s} {r['objects']:8d} sum {r['gpu_ms']['total']:.3f} raster {p.get('raster', 0):.3f} late {p.get('raster late', 0):.3f} all-raster {sr:.3f} main {p.get('main', 0):.3f} wall {r.get('gpu_wall_ms', {}).get('median', 0):.3f}")
PY
pack
cat $D/summary.txt $D/renders.txt
