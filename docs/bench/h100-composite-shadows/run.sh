#!/bin/bash
# The composite in compute (/tmp/new) against the full-screen composite (960128a, /tmp/old)
# with the defaults and shadows on (4 cascades), and the same frames without shadows (issue
# 24's ratio); each row its own run, two rounds. Then models.toml rendered twice by each build,
# to tell the builds' differences from a build's own run-to-run ones.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in new old; do gunzip -c .gl/$b.gz > /tmp/$b; chmod +x /tmp/$b; done
D=$OUT/shadows; mkdir -p $D
/tmp/new info > $D/info.txt 2>&1
pack() { (cd $OUT && tar czf shadows.tgz shadows); }
run() { local name=$1 bin=$2; shift 2
  timeout 150 $bin bench --modes gpu --wide "$@" --json $D/$name.json > $D/$name.txt 2>&1; pack; }
for round in 1 2; do
  for b in new old; do
    for s in on off; do
      S="--shadows $s"; [ $s = on ] && S="--shadow-cascades 4"
      run default-$s-$b-$round /tmp/$b $S --objects 1000,10000,100000 --frames 100 --warmup 20
      run million-$s-$b-$round /tmp/$b $S scenes/million.toml --size 1920x1080 --frames 60 --warmup 20
      run city-$s-$b-$round /tmp/$b $S scenes/city-sun.toml --size 1920x1080 --frames 100 --warmup 20
    done
  done
done
F="--deferred on --occlusion on --soft-raster on"
for b in new old; do for k in 1 2; do
  /tmp/$b render $F scenes/models.toml --size 1280x720 --out $D/models-$b$k.png > /dev/null 2>&1
done; done
python3 - "$D" > $D/pixels.txt 2>&1 <<'PY'
import sys, zlib, struct
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
for x, y in [('old1', 'old2'), ('new1', 'new2'), ('old1', 'new1')]:
    w, h, bpp, a = load(f'{sys.argv[1]}/models-{x}.png'); _, _, _, b = load(f'{sys.argv[1]}/models-{y}.png')
    far = differ = worst = 0
    for ra, rb in zip(a, b):
        for i in range(w):
            d = max(abs(ra[i * bpp + c] - rb[i * bpp + c]) for c in range(3)); worst = max(worst, d)
            differ += d > 0; far += d > 8
    print(f'models {x} against {y}: {differ} of {w * h} pixels differ, {far} by more than 8/255, at most {worst}')
PY
grep -q against $D/pixels.txt && rm -f $D/*.png
pack; rm -rf $D; echo finished
