#!/bin/bash
# Procedural shapes' chains in steps of half the triangles (chain: the working tree on
# 16b7417) against 16b7417 (head); each row its own run, alternating.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in head chain; do python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" .gl/$b.xz /tmp/$b; chmod +x /tmp/$b; done
D=$OUT/c; mkdir -p $D
pack() { (cd $OUT && tar czf c.tgz c); }
nvidia-smi -L > $D/gpu.txt 2>&1
bench() { local name=$1 b=$2; shift 2
  timeout 150 /tmp/$b bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; }
M="scenes/million.toml --size 1920x1080 --frames 60 --warmup 20"
S="--objects 1000,10000,100000 --frames 60 --warmup 15"
for b in head chain; do bench m-$b-1 $b $M --shadows off; bench ms-$b-1 $b $M --shadows on; bench d-$b-1 $b $S --shadows off; bench ds-$b-1 $b $S --shadows on; done
pack
for b in chain head; do bench m-$b-2 $b $M --shadows off; bench ms-$b-2 $b $M --shadows on; bench d-$b-2 $b $S --shadows off; bench ds-$b-2 $b $S --shadows on; done
pack
for b in head chain; do bench cs-$b $b scenes/city-sun.toml --size 1920x1080 --frames 60 --warmup 20 --shadows on; done
for b in head chain; do bench t-$b $b --objects 10000000 --size 1920x1080 --frames 60 --warmup 30 --shadows off; done
pack
for b in head chain; do
  timeout 60 /tmp/$b render scenes/million.toml --size 1280x720 --out /tmp/m-$b.png > /dev/null 2>&1
  timeout 60 /tmp/$b render --objects 100000 --size 1280x720 --out /tmp/d-$b.png > /dev/null 2>&1
done
python3 .gl/pngdiff.py /tmp/m-head.png /tmp/m-chain.png >> $D/renders.txt 2>&1
python3 .gl/pngdiff.py /tmp/d-head.png /tmp/d-chain.png >> $D/renders.txt 2>&1
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
        print(f"{os.path.basename(f):12s} {r['objects']:>8} total {r['gpu_ms']['total']:.3f} raster {p.get('raster',0):.3f} + {p.get('raster late',0):.3f} rastersh {g('raster shadow'):.3f} main {p.get('main',0):.3f} tris {r['triangles']} soft {r['soft_drawn']} 2ph {r['two_phase_frames']} sr {r['soft_frames']} df {r['deferred_frames']} wall {r['wall_ms']['median']:.3f}")
PY
pack
