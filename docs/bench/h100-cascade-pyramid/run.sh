#!/bin/bash
# Cascade pyramids of half the side (half = f21d503) and the cascades' occluders first
# (cocc = 2b5860a) against the session's start (base = debcb61); each row its own run.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in base half cocc; do python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" .gl/$b.xz /tmp/$b; chmod +x /tmp/$b; done
D=$OUT/s; mkdir -p $D
pack() { (cd $OUT && tar czf s.tgz s); }
nvidia-smi -L > $D/gpu.txt 2>&1
bench() { local name=$1 b=$2; shift 2
  timeout 120 /tmp/$b bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; }
M="scenes/million.toml --size 1920x1080 --frames 60 --warmup 20"
S="--objects 1000,10000,100000 --frames 60 --warmup 15"
for b in base cocc half; do bench ms-$b-1 $b $M --shadows on; done
pack
for b in base cocc half; do bench ds-$b-1 $b $S --shadows on; done
pack
for b in cocc base; do bench m-$b $b $M --shadows off; bench d-$b $b $S --shadows off; done
pack
for b in half cocc base; do bench ms-$b-2 $b $M --shadows on; bench ds-$b-2 $b $S --shadows on; done
pack
for b in base cocc; do bench cs-$b $b scenes/city-sun.toml --size 1920x1080 --frames 60 --warmup 20 --shadows on; done
bench c-cocc cocc scenes/city-sun.toml --size 1920x1080 --frames 60 --warmup 20 --shadows off
pack
for s in million city-sun gltf; do
  for b in base cocc; do
    timeout 60 /tmp/$b render scenes/$s.toml --size 1280x720 --out /tmp/$s-$b.png > $D/render-$s-$b.txt 2>&1
  done
  cmp /tmp/$s-base.png /tmp/$s-cocc.png && echo "$s: same bytes" >> $D/renders.txt || python3 .gl/pngdiff.py /tmp/$s-base.png /tmp/$s-cocc.png >> $D/renders.txt 2>&1
done
pack
timeout 150 /tmp/cocc bench --modes gpu --wide --objects 10000000 --size 1920x1080 --frames 30 --warmup 10 --shadows off --json $D/ten-m.json > $D/ten-m.txt 2>&1
pack
python3 - $D > $D/summary.txt <<'PY'
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + '/*.json')):
    try:
        rows = json.load(open(f))['rows']
    except Exception as e:
        print(os.path.basename(f), 'unreadable', e); continue
    for r in rows:
        p = r['gpu_ms']['passes']
        g = lambda pre: sum(v for k, v in p.items() if k.startswith(pre))
        print(f"{os.path.basename(f):14s} {r['objects']:>8} total {r['gpu_ms']['total']:.3f} main {p.get('main',0):.3f} shadowdepth {g('shadow '):.3f} pyrsh {g('pyramid shadow'):.3f} rastersh {g('raster shadow'):.3f} buildsh {g('build shadow'):.3f} casters {r.get('casters')} 2ph {r.get('shadow_two_phase_frames')} sr {r.get('shadow_soft_frames')} wall {r['wall_ms']['median']:.3f} gpuwall {r['gpu_wall_ms']['median']:.3f}")
PY
pack
