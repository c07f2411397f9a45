#!/bin/bash
# Occluders first (occ: this change; MULTIDRAW_OCCLUDERS=off gives the same build without them),
# rows alternating on/off; then bounds from an experiment build (exp, the code before this
# change with switches: MD_EXP_TWICE records every multi-draw twice, MD_EXP_LEQUAL makes the
# depth test less-or-equal, so the second copy writes each covered pixel once more).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in exp occ; do python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" .gl/$b.xz /tmp/$b; chmod +x /tmp/$b; done
D=$OUT/h; mkdir -p $D
pack() { (cd $OUT && tar czf h.tgz h); }
nvidia-smi -L > $D/gpu.txt 2>&1
bench() { local name=$1 b=$2; shift 2
  local t0=$(date +%s.%N)
  timeout 100 /tmp/$b bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1
  echo "$name $(echo "$(date +%s.%N) - $t0" | bc) s" >> $D/times.txt; }
M="scenes/million.toml --size 1920x1080 --frames 60 --warmup 20 --shadows off"
S="--objects 1000,10000,100000 --frames 60 --warmup 15"
bench m-on-1 occ $M
MULTIDRAW_OCCLUDERS=off bench m-off-1 occ $M
pack
bench d-on-1 occ $S --shadows off
MULTIDRAW_OCCLUDERS=off bench d-off-1 occ $S --shadows off
pack
bench ds-on occ --objects 1000,100000 --frames 60 --warmup 15 --shadows on
MULTIDRAW_OCCLUDERS=off bench ds-off occ --objects 1000,100000 --frames 60 --warmup 15 --shadows on
pack
for s in million city-sun gltf; do
  for o in on off; do
    MULTIDRAW_OCCLUDERS=$o timeout 60 /tmp/occ render scenes/$s.toml --size 1280x720 --out /tmp/$s-$o.png > $D/render-$s-$o.txt 2>&1
  done
  cmp /tmp/$s-on.png /tmp/$s-off.png && echo "$s: same bytes" >> $D/renders.txt || python3 .gl/pngdiff.py /tmp/$s-on.png /tmp/$s-off.png >> $D/renders.txt 2>&1
done
pack
MULTIDRAW_OCCLUDERS=off bench m-off-2 occ $M
bench m-on-2 occ $M
MD_EXP_TWICE=1 MD_EXP_LEQUAL=1 bench m-twice-leq exp $M
bench m-exp-base exp $M
pack
MULTIDRAW_OCCLUDERS=off bench d-off-2 occ $S --shadows off
bench d-on-2 occ $S --shadows off
bench m-shadows-on occ scenes/million.toml --size 1920x1080 --frames 60 --warmup 20 --shadows on
MULTIDRAW_OCCLUDERS=off bench m-shadows-off occ scenes/million.toml --size 1920x1080 --frames 60 --warmup 20 --shadows on
pack
python3 - $D > $D/summary.txt <<'PY'
import json, sys, glob, os
d = sys.argv[1]
for f in sorted(glob.glob(d + '/*.json')):
    try:
        rows = json.load(open(f))['rows']
    except Exception as e:
        print(os.path.basename(f), 'unreadable', e); continue
    for r in rows:
        p = r['gpu_ms']['passes']
        sh = sum(v for k, v in p.items() if k.startswith('shadow') and 'merge' not in k)
        print(f"{os.path.basename(f):16s} {r['objects']:>8} total {r['gpu_ms']['total']:.3f} main {p.get('main',0):.3f} late {p.get('main late',0):.3f} build {p.get('build',0):.3f} shadowdepth {sh:.3f} raster {p.get('raster',0)+p.get('raster late',0):.3f} drawn {sum(r['drawn'])} soft {r['soft_drawn']} occl {r.get('occluders')} wall {r['wall_ms']['median']:.3f}")
PY
grep -h "EXP occ" $D/*occ*.txt | tail -12 >> $D/summary.txt
pack
