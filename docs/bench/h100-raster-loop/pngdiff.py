"""pngdiff A.png B.png: pixels that differ at all and by more than 2/255 (8-bit RGB/RGBA PNGs)."""
import sys, zlib, struct

def load(path):
    data = open(path, 'rb').read()
    pos, idat, w = 8, b'', 0
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', chunk[:10])
            bpp = {2: 3, 6: 4}[ctype]
        elif kind == b'IDAT':
            idat += chunk
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    out, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out.append(bytes(line)); prev = line
    return w, h, bpp, out

wa, ha, ba, A = load(sys.argv[1]); wb, hb, bb, B = load(sys.argv[2])
assert (wa, ha, ba) == (wb, hb, bb)
any_diff = big = 0
for ra, rb in zip(A, B):
    if ra == rb: continue
    for x in range(wa):
        d = max(abs(ra[x * ba + k] - rb[x * ba + k]) for k in range(3))
        if d: any_diff += 1
        if d > 2: big += 1
print(f"{sys.argv[2]}: {any_diff} of {wa*ha} pixels differ, {big} by more than 2/255")
