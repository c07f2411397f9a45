#!/bin/bash
# (1) The compute rasteriser's pixel loop stepped (new) against 69305ba (base); (2) where the
# 10,000,000-object frame's main pass went from 1.14 ms (a88e030, docs/bench/h100-cull-final) to
# 2.36 ms: a88e030, f7f3b69, d3754c2 (the composite as a dispatch), base. new is an experiment
# build of the change whose PassShader::compose takes a pass's file from MD_SHADER_DIR where set:
# new+nomask (no alpha test: what the masked path's registers cost) and new+rowexit (a row stops
# at the first pixel outside after one inside).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in a88e030 f7f3b69 d3754c2 base new; do python3 -c "import lzma,sys; open(sys.argv[2],\"wb\").write(lzma.open(sys.argv[1]).read())" .gl/$b.xz /tmp/$b; chmod +x /tmp/$b; done
D=$OUT/r2; mkdir -p $D
pack() { (cd $OUT && tar czf r2.tgz r2); }
nvidia-smi -L > $D/gpu.txt 2>&1
bench() { local name=${1//+/-} b=${2%%+*} v=${2#*+}; shift 2
  if [ "$v" != "$b" ]; then export MD_SHADER_DIR=$PWD/.gl/v/$v; fi
  timeout 90 /tmp/$b bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; unset MD_SHADER_DIR; }
for round in 1 2; do
  for b in base new new+nomask new+rowexit; do
    bench million-$b-$round $b scenes/million.toml --size 1920x1080 --frames 60 --warmup 20 --shadows off
    bench default-$b-$round $b --objects 1000,10000,100000 --frames 60 --warmup 15 --shadows off
    bench default1080-$b-$round $b --objects 100000 --size 1920x1080 --frames 60 --warmup 15 --shadows off
    bench shadows-$b-$round $b scenes/million.toml --size 1920x1080 --frames 60 --warmup 20
    [ $b = base ] || [ $b = new ] && bench shadows-default-$b-$round $b --objects 1000,100000 --frames 60 --warmup 15
  done
  pack
done
for round in 1 2; do
  for b in a88e030 f7f3b69 d3754c2 base new; do
    [ $SECONDS -gt 470 ] && break
    bench 10m-$b-$round $b --objects 10000000 --size 1920x1080 --frames 30 --warmup 10 --shadows off
    pack
  done
done
for s in million city-sun gltf; do
  [ $SECONDS -gt 520 ] && break
  for b in base new new+rowexit; do
    if [ $b = new+rowexit ]; then export MD_SHADER_DIR=$PWD/.gl/v/rowexit; b=new; n=rowexit; else n=$b; fi
    timeout 60 /tmp/$b render scenes/$s.toml --size 1280x720 --deferred on --soft-raster on --occlusion on --out /tmp/$s-$n.png > $D/render-$s-$n.txt 2>&1
    unset MD_SHADER_DIR
  done
  python3 .gl/pngdiff.py /tmp/$s-base.png /tmp/$s-new.png >> $D/renders.txt 2>&1
  python3 .gl/pngdiff.py /tmp/$s-new.png /tmp/$s-rowexit.png >> $D/renders.txt 2>&1
done
pack
python3 - $D > $D/summary.txt <<'PY'
import json, glob, sys, os
for f in sorted(glob.glob(sys.argv[1] + '/*.json')):
    for r in json.load(open(f))['rows']:
        p = r['gpu_ms']['passes']
        ra = sum(v for k, v in p.items() if 'raster' in k)
        print(f"{os.path.basename(f):28s} {r['objects']:8d} sum {r['gpu_ms']['total']:.3f} raster {p.get('raster', 0):.3f}+{p.get('raster late', 0):.3f} all-raster {ra:.3f} main {p.get('main', 0):.3f}+{p.get('main late', 0):.3f} comp {p.get('composite', 0):.3f} wall {r.get('gpu_wall_ms', {}).get('median', 0):.3f} sr {r.get('soft', '')}")
PY
pack
cat $D/summary.txt $D/renders.txt
