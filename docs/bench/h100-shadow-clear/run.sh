#!/bin/bash
# A cascade's layer started by a copy instead of the depth pass's clear (/tmp/new) against the
# clear (24090ae, /tmp/old): the defaults, 4 cascades, each row its own run, two rounds; the
# new build without shadows for issue 24's ratio; then pictures of both builds compared.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in new old; do gunzip -c .gl/$b.gz > /tmp/$b; chmod +x /tmp/$b; done
D=$OUT/clear; mkdir -p $D
/tmp/new info > $D/info.txt 2>&1
pack() { (cd $OUT && tar czf clear.tgz clear); }
run() { local name=$1 bin=$2; shift 2
  timeout 150 $bin bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; pack; }
for round in 1 2; do
  for b in new old; do
    run default-on-$b-$round /tmp/$b --shadow-cascades 4 --objects 1000,10000,100000 --frames 100 --warmup 20
    run million-on-$b-$round /tmp/$b --shadow-cascades 4 scenes/million.toml --size 1920x1080 --frames 60 --warmup 20
    run city-on-$b-$round /tmp/$b --shadow-cascades 4 scenes/city-sun.toml --size 1920x1080 --frames 100 --warmup 20
  done
  run default-off-new-$round /tmp/new --shadows off --objects 1000,10000,100000 --frames 100 --warmup 20
  run million-off-new-$round /tmp/new --shadows off scenes/million.toml --size 1920x1080 --frames 60 --warmup 20
  run city-off-new-$round /tmp/new --shadows off scenes/city-sun.toml --size 1920x1080 --frames 100 --warmup 20
done
for b in new old; do
  for F in "--soft-raster on --occlusion on" "--soft-raster off --occlusion off"; do
    t=$(echo $F | tr -d ' -')
    /tmp/$b render $F scenes/city-sun.toml --size 1280x720 --out $D/city-$t-$b.png > /dev/null 2>&1
    /tmp/$b render $F scenes/million.toml --size 1280x720 --out $D/million-$t-$b.png > /dev/null 2>&1
    /tmp/$b render $F --objects 100000 --size 1280x720 --out $D/default-$t-$b.png > /dev/null 2>&1
    /tmp/$b render $F scenes/gltf.toml --size 1280x720 --out $D/gltf-$t-$b.png > /dev/null 2>&1
  done
done
python3 - "$D" > $D/pixels.txt 2>&1 <<'PY'
import sys, zlib, struct, glob, os
def load(path):
    data = open(path, 'rb').read(); pos = 8; chunks = b''
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8]); body = data[pos + 8:pos + 8 + n]; pos += 12 + n
        if kind == b'IHDR': w, h = struct.unpack('>II', body[:8]); ctype = body[9]
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
for new in sorted(glob.glob(sys.argv[1] + '/*-new.png')):
    old = new[:-8] + '-old.png'
    w, h, bpp, a = load(new); _, _, _, b = load(old)
    far = differ = worst = 0
    for ra, rb in zip(a, b):
        for i in range(w):
            d = max(abs(ra[i * bpp + c] - rb[i * bpp + c]) for c in range(3)); worst = max(worst, d)
            differ += d > 0; far += d > 8
    print(f'{os.path.basename(new)[:-8]}: {differ} of {w * h} pixels differ, {far} by more than 8/255, at most {worst}')
PY
grep -q differ $D/pixels.txt && rm -f $D/*.png
pack; rm -rf $D; echo finished
