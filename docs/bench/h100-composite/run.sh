#!/bin/bash
# The deferred composite in compute (/tmp/new) against the full-screen composite (960128a,
# /tmp/old) and the Lambert build before PBR (659c405, /tmp/lam), shadows off as in issue 25's
# earlier runs; each row its own run, two rounds. "forced": deferred shading, occlusion culling
# and the compute rasteriser on; "auto": the defaults. Pictures of old and new.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in new old lam; do gunzip -c .gl/$b.gz > /tmp/$b; chmod +x /tmp/$b; done
D=$OUT/composite; mkdir -p $D
/tmp/new info > $D/info.txt 2>&1
pack() { (cd $OUT && tar czf composite.tgz composite); }
run() { local name=$1 bin=$2; shift 2
  timeout 120 $bin bench --modes gpu --wide --shadows off "$@" --json $D/$name.json > $D/$name.txt 2>&1; pack; }
F="--deferred on --occlusion on --soft-raster on"
for round in 1 2; do
  for b in new old; do
    run default-forced-$b-$round /tmp/$b $F --objects 1000,10000,100000 --frames 60 --warmup 10
    run million-forced-$b-$round /tmp/$b $F scenes/million.toml --size 1920x1080 --frames 60 --warmup 10
  done
  for b in new old lam; do
    run default-auto-$b-$round /tmp/$b --objects 1000,10000,100000 --frames 120 --warmup 20
    run million-auto-$b-$round /tmp/$b scenes/million.toml --size 1920x1080 --frames 120 --warmup 20
  done
done
for b in new old; do
  /tmp/$b render $F --objects 100000 --size 1280x720 --out $D/default-$b.png > /dev/null 2>&1
  /tmp/$b render $F scenes/million.toml --size 1920x1080 --out $D/million-$b.png > /dev/null 2>&1
  /tmp/$b render $F scenes/city-sun.toml --size 1920x1080 --out $D/city-$b.png > /dev/null 2>&1
  /tmp/$b render $F scenes/models.toml --size 1280x720 --out $D/models-$b.png > /dev/null 2>&1
done
python3 - "$D" > $D/pixels.txt 2>&1 <<'PY' || echo "no python: PNGs kept" >> $D/pixels.txt
import sys, zlib, struct
def load(path):
    data = open(path, 'rb').read(); pos = 8; chunks = b''; w = h = 0
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8]); body = data[pos + 8:pos + 8 + n]; pos += 12 + n
        if kind == b'IHDR': w, h = struct.unpack('>II', body[:8]); depth, ctype = body[8], body[9]
        elif kind == b'IDAT': chunks += body
    raw = zlib.decompress(chunks); bpp = 4 if ctype == 6 else 3; stride = w * bpp; rows = []; prev = bytearray(stride); i = 0
    for _ in range(h):
        f = raw[i]; line = bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0; b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line)); prev = line
    return w, h, bpp, rows
for name in ['default', 'million', 'city', 'models']:
    try:
        w, h, bpp, a = load(f'{sys.argv[1]}/{name}-old.png'); _, _, _, b = load(f'{sys.argv[1]}/{name}-new.png')
    except Exception as e:
        print(name, 'missing', e); continue
    far = differ = 0; worst = 0
    for ra, rb in zip(a, b):
        for x in range(w):
            d = max(abs(ra[x * bpp + c] - rb[x * bpp + c]) for c in range(3)); worst = max(worst, d)
            differ += d > 0; far += d > 8
    print(f'{name}: {differ} of {w * h} pixels differ, {far} by more than 8/255, at most {worst}')
PY
[ -s $D/pixels.txt ] && grep -q pixels $D/pixels.txt && rm -f $D/*.png
pack; rm -rf $D; echo finished
