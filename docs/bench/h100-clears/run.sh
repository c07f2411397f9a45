#!/bin/bash
# What the main pass's clears of its colour and `ids` targets cost: 985e1d7 (base) against an
# experiment build of it (exp) whose main pass loads instead of clearing where MD_EXP_LOAD says
# (1: colour, 2: ids, 3: both; the pictures of a still camera stay the same, so the rest of the
# work is the same); and the change (new): a frame whose composite runs in compute clears only
# the depth. The defaults, shadows off, each row its own run, two rounds; then shadows on,
# base and new, one round.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in base exp new; do gunzip -c .gl/$b.gz > /tmp/$b; chmod +x /tmp/$b; done
D=$OUT/clears; mkdir -p $D
pack() { (cd $OUT && tar czf clears.tgz clears); }
run() { local name=$1 bin=$2 load=$3; shift 3
  MD_EXP_LOAD=$load timeout 60 $bin bench --modes gpu --wide --shadows off "$@" --json $D/$name.json > $D/$name.txt 2>&1; pack; }
nvidia-smi -L > $D/gpu.txt 2>&1
for round in 1 2; do
  for v in base:0 exp:1 exp:2 exp:3 new:0; do
    b=${v%%:*}; l=${v##*:}
    run million-$b$l-$round /tmp/$b $l scenes/million.toml --size 1920x1080 --frames 60 --warmup 20
    run default-$b$l-$round /tmp/$b $l --objects 1000,10000,100000 --frames 60 --warmup 15
    run default1080-$b$l-$round /tmp/$b $l --objects 1000,100000 --size 1920x1080 --frames 60 --warmup 15
  done
done
runs() { local name=$1 bin=$2; shift 2
  timeout 60 $bin bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; pack; }
for b in base new; do
  runs shadows-million-$b /tmp/$b scenes/million.toml --size 1920x1080 --frames 60 --warmup 20
  runs shadows-default-$b /tmp/$b --objects 1000,10000,100000 --frames 60 --warmup 15
done
for s in million city-sun gltf; do
  for b in base new; do
    timeout 60 /tmp/$b render scenes/$s.toml --size 1280x720 --deferred on --soft-raster on --occlusion on --out $D/$s-$b.png > $D/render-$s-$b.txt 2>&1
  done
  cmp $D/$s-base.png $D/$s-new.png && echo "$s: same bytes" >> $D/renders.txt || echo "$s: differ" >> $D/renders.txt
done
pack
python3 - $D > $D/summary.txt <<'PY'
import json, glob, sys, os
for f in sorted(glob.glob(sys.argv[1] + '/*.json')):
    for r in json.load(open(f))['rows']:
        p = r['gpu_ms']['passes']
        print(f"{os.path.basename(f):26s} {r['objects']:8d} sum {r['gpu_ms']['total']:.3f} main {p.get('main', 0):.3f} late {p.get('main late', 0):.3f} composite {p.get('composite', 0):.3f} wall {r.get('gpu_wall_ms', {}).get('median', 0):.3f}")
PY
pack
cat $D/summary.txt $D/renders.txt
