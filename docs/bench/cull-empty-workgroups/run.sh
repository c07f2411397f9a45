#!/bin/bash
# The cull's workgroups that read no record return before appending and counting (early: the
# working tree on 0a4c2b0-ish HEAD) against HEAD (base2); each row its own run, alternating.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in base2 early; do python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" .gl/$b.xz /tmp/$b; chmod +x /tmp/$b; done
D=$OUT/e; mkdir -p $D
pack() { (cd $OUT && tar czf e.tgz e); }
nvidia-smi -L > $D/gpu.txt 2>&1
bench() { local name=$1 b=$2; shift 2
  timeout 200 /tmp/$b bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; }
M="scenes/million.toml --size 1920x1080 --frames 60 --warmup 20"
S="--objects 1000,10000,100000 --frames 60 --warmup 15"
T="--objects 10000000 --size 1920x1080 --frames 60 --warmup 30 --shadows off"
for r in 1 2; do for b in base2 early; do bench m-$b-$r $b $M --shadows off; bench ms-$b-$r $b $M --shadows on; bench d-$b-$r $b $S --shadows off; done; pack; done
for b in base2 early; do bench t-$b $b $T; pack; done
bench ds-early early $S --shadows on
for b in base2 early; do timeout 60 /tmp/$b render scenes/million.toml --size 1280x720 --out /tmp/m-$b.png > /dev/null 2>&1; done
python3 .gl/pngdiff.py /tmp/m-base2.png /tmp/m-early.png >> $D/renders.txt 2>&1
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
        print(f"{os.path.basename(f):14s} {r['objects']:>8} total {r['gpu_ms']['total']:.3f} cull {p.get('cull',0):.3f} + {p.get('cull late',0):.3f} cullsh {g('cull shadow'):.3f} raster {p.get('raster',0):.3f} + {p.get('raster late',0):.3f} main {p.get('main',0):.3f} visible {r['visible']} 2ph {r['two_phase_frames']} wall {r['wall_ms']['median']:.3f}")
PY
pack
