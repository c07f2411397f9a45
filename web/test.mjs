// The browser test (`make test-web`): the page in headless Chromium (WebGPU on SwiftShader),
// driven through `window.multidraw`. Checks, and exits non-zero on any failure:
//  1. the canvas (read back from the page) equals the native lavapipe render of the same
//     scene, camera and size (`multidraw render`, NATIVE_PNG) within the stated tolerance;
//  2. the GPU-driven mode makes the same number of draw calls at 1,000 and 50,000 objects,
//     while the CPU baseline's grows with the visible count;
//  3. timestamps read back (where the adapter offers timestamp-query).
// Also measures the CPU encode time per frame at 1k / 10k / 50k objects in both modes (median)
// and writes everything to OUT_DIR/web-report.json, with a screenshot of the page.
import { createServer } from "node:http";
import { readFileSync, writeFileSync, mkdirSync, existsSync } from "node:fs";
import { extname, join, resolve } from "node:path";
import { inflateSync, deflateSync } from "node:zlib";
import { createRequire } from "node:module";

// playwright-core from `make web-tools`' folder (WEB_TOOLS), or from web/node_modules.
const { chromium } = createRequire(join(process.env.WEB_TOOLS || resolve("web"), "package.json"))("playwright-core");

const root = resolve(new URL(".", import.meta.url).pathname);
const nativePng = process.env.NATIVE_PNG;
const outDir = process.env.OUT_DIR || join(root, "out");
const width = 640, height = 360, testObjects = 1000;
// A pixel "differs" when a channel is off by more than CHANNEL_TOLERANCE of 255; at most
// MAX_DIFFERING of the pixels may (SwiftShader and lavapipe round, filter and order ties
// differently; the vertex-cache order of the meshes differs without meshoptimizer).
const CHANNEL_TOLERANCE = 8, MAX_DIFFERING = 0.01;
mkdirSync(outDir, { recursive: true });

const failures = [];
const check = (ok, what) => { console.log(`${ok ? "ok  " : "FAIL"} ${what}`); if (!ok) failures.push(what); };

// A minimal PNG reader: 8-bit RGB/RGBA, not interlaced (what `multidraw render` writes).
function readPng(path) {
  const buf = readFileSync(path);
  let pos = 8, w = 0, h = 0, type = 0; const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos), kind = buf.toString("ascii", pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (kind === "IHDR") { w = data.readUInt32BE(0); h = data.readUInt32BE(4); type = data[9];
      if (data[8] !== 8 || data[12] !== 0) throw new Error(`${path}: only 8-bit, non-interlaced PNGs`); }
    if (kind === "IDAT") idat.push(data);
    pos += 12 + len;
  }
  const bpp = { 2: 3, 6: 4 }[type]; if (!bpp) throw new Error(`${path}: colour type ${type}`);
  const raw = inflateSync(Buffer.concat(idat)), stride = w * bpp, out = Buffer.alloc(w * h * 4);
  let prev = Buffer.alloc(stride);
  for (let y = 0; y < h; y++) {
    const f = raw[y * (stride + 1)], line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? line[i - bpp] : 0, b = prev[i], c = i >= bpp ? prev[i - bpp] : 0;
      const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
      const pred = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][f];
      line[i] = (line[i] + pred) & 255;
    }
    for (let x = 0; x < w; x++) for (let k = 0; k < 4; k++) out[(y * w + x) * 4 + k] = k < bpp ? line[x * bpp + k] : 255;
    prev = line;
  }
  return { width: w, height: h, data: out };
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };
const server = createServer((req, res) => {
  const path = join(root, decodeURIComponent(new URL(req.url, "http://x").pathname));
  if (!path.startsWith(root) || !existsSync(path)) { res.writeHead(404); res.end(); return; }
  res.writeHead(200, { "content-type": types[extname(path)] || "application/octet-stream" });
  res.end(readFileSync(path));
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const base = `http://127.0.0.1:${server.address().port}`;
console.log(`serving ${root} on ${base}`);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run", "--disable-quic", "--enable-unsafe-webgpu", "--enable-features=Vulkan",
    "--use-vulkan=swiftshader", "--use-angle=swiftshader", "--use-webgpu-adapter=swiftshader"],
});
const report = {};
try {
  const page = await browser.newPage({ viewport: { width: 1000, height: 420 } });
  const errors = [];
  const ready = new Promise((ok, fail) => page.on("console", (m) => {
    const text = m.text();
    if (m.type() === "error") { errors.push(text); console.log("page: " + text); }
    if (text.startsWith("multidraw ready")) ok(JSON.parse(text.slice("multidraw ready ".length)));
    if (text.startsWith("multidraw failed") || text.startsWith("panic")) fail(new Error(text));
  }));
  page.on("pageerror", (e) => errors.push(String(e)));
  const t0 = Date.now();
  await page.goto(`${base}/index.html?test=1&objects=${testObjects}&width=${width}&height=${height}`);
  const adapter = await Promise.race([ready, new Promise((_, fail) => setTimeout(() => fail(new Error("no 'multidraw ready' within 300 s")), 300_000))]);
  report.adapter = adapter; report.load_s = (Date.now() - t0) / 1000;
  console.log(`adapter: ${adapter.name} (${adapter.backend}); timestamps: ${adapter.timestamps}; ready in ${report.load_s} s`);

  // 1. Pixels: frame 0 of the default scene from its own camera, after two frames that give
  // the occlusion culling its history (it never changes a pixel).
  const rgba = await page.evaluate(async () => {
    const { engine } = window.multidraw;
    engine.frame(0); engine.frame(0); await engine.settle();
    return Array.from(await engine.capture(0));
  });
  const web = Buffer.from(rgba);
  writePng(join(outDir, "web-canvas.png"), width, height, web);
  if (nativePng) {
    const native = readPng(nativePng);
    check(native.width === width && native.height === height, `native render is ${width}x${height}`);
    let differing = 0, sum = 0;
    for (let i = 0; i < width * height; i++) {
      let worst = 0;
      for (let k = 0; k < 3; k++) { const d = Math.abs(web[i * 4 + k] - native.data[i * 4 + k]); worst = Math.max(worst, d); sum += d; }
      if (worst > CHANNEL_TOLERANCE) differing++;
    }
    report.pixels = { differing, share: differing / (width * height), mean_abs: sum / (width * height * 3), channel_tolerance: CHANNEL_TOLERANCE };
    check(differing / (width * height) <= MAX_DIFFERING,
      `canvas = native render: ${(100 * differing / (width * height)).toFixed(3)}% of pixels off by more than ${CHANNEL_TOLERANCE}/255 (limit ${100 * MAX_DIFFERING}%), mean |diff| ${report.pixels.mean_abs.toFixed(3)}`);
  } else {
    check(false, "NATIVE_PNG names the native render to compare with");
  }
  // The camera controls: flying and turning change the picture, the reset gives the scene's
  // own camera (and the pixels above) back.
  const moved = await page.evaluate(async () => {
    const { engine } = window.multidraw;
    const shot = async () => { engine.frame(0); engine.frame(0); await engine.settle(); return Array.from(await engine.capture(0)); };
    engine.fly(0.3, 0.1, 0.05); engine.look(0.2, -0.1);
    const flown = await shot();
    engine.reset_camera();
    const reset = await shot();
    return { flown, reset };
  });
  const differs = (a) => a.reduce((n, v, i) => n + (Math.abs(v - web[i]) > CHANNEL_TOLERANCE ? 1 : 0), 0) / a.length;
  check(differs(moved.flown) > 0.05, `fly and look move the view (${(100 * differs(moved.flown)).toFixed(1)}% of channels change)`);
  check(differs(moved.reset) === 0, "reset_camera gives the scene's camera back (the same pixels)");

  // 2 and the encode times: frames per object count and mode.
  report.runs = await page.evaluate(async (counts) => {
    const { engine } = window.multidraw;
    const runs = [];
    for (const objects of counts) {
      engine.set_objects(objects);
      for (const mode of ["gpu", "cpu"]) {
        engine.set_mode(mode);
        const frames = [];
        for (let i = 0; i < 7; i++) { frames.push(JSON.parse(engine.frame(0))); await engine.settle(); }
        frames.push(JSON.parse(engine.frame(0))); // the counters and times of the frames above
        runs.push({ objects, mode, frames });
      }
    }
    engine.set_mode("gpu");
    return runs;
  }, [1000, 10000, 50000]);
  report.table = report.runs.map(({ objects, mode, frames }) => {
    const measured = frames.slice(2, -1);
    const last = frames[frames.length - 1];
    return { objects, mode, encode_ms: median(measured.map((f) => f.encode_ms)), encode_mean_ms: measured.reduce((a, f) => a + f.encode_ms, 0) / measured.length, wall_ms: median(measured.map((f) => f.wall_ms)),
      draw_calls: median(measured.map((f) => f.browser_draw_calls)), recorded_draws: median(measured.map((f) => f.draw_commands)),
      visible: last.visible ?? last.cpu_visible, gpu_total_ms: last.gpu_total_ms };
  });
  console.table(report.table);
  const row = (objects, mode) => report.table.find((r) => r.objects === objects && r.mode === mode);
  // The draw calls the browser gets: the multi-draws' slots (one per batch) and the direct
  // draws (the blended pass is one pulled draw), never one per object.
  check(row(1000, "gpu").draw_calls === row(50000, "gpu").draw_calls,
    `GPU-driven draw calls equal at 1,000 and 50,000 objects (${row(1000, "gpu").draw_calls}, ${row(50000, "gpu").draw_calls})`);
  check(report.table.filter((r) => r.mode === "gpu").every((r) => r.recorded_draws === row(1000, "gpu").recorded_draws),
    `GPU-driven draw commands recorded equal at every count (${row(1000, "gpu").recorded_draws})`);
  check(row(50000, "cpu").draw_calls > row(1000, "cpu").draw_calls && row(1000, "cpu").draw_calls >= row(1000, "cpu").visible,
    `CPU baseline's draw calls grow with the visible count (${row(1000, "cpu").draw_calls} at ${row(1000, "cpu").visible} visible, ${row(50000, "cpu").draw_calls} at ${row(50000, "cpu").visible})`);
  // 3. Timestamps.
  if (adapter.timestamps) {
    check(report.table.filter((r) => r.mode === "gpu").every((r) => r.gpu_total_ms > 0), "GPU pass times read back from timestamps");
  } else {
    console.log("(the adapter offers no timestamp-query: no GPU times)");
  }
  check(errors.length === 0, `no error on the page's console (${errors.length})`);

  // The screenshot for the README: the page as a user sees it, a few frames in.
  const shot = await browser.newPage({ viewport: { width: 1300, height: 560 } });
  await shot.goto(`${base}/index.html?objects=10000`);
  await shot.waitForFunction(() => document.getElementById("stats").textContent.includes("GPU total"), null, { timeout: 300_000 });
  await shot.waitForTimeout(3000);
  await shot.screenshot({ path: join(outDir, "web-page.png") });
} catch (e) {
  check(false, `the page ran: ${e.message}`);
} finally {
  writeFileSync(join(outDir, "web-report.json"), JSON.stringify(report, null, 1));
  await browser.close();
  server.close();
}
console.log(failures.length ? `browser test: ${failures.length} failed` : "browser test: all passed");
process.exit(failures.length ? 1 : 0);

function writePng(path, w, h, rgba) {
  // Stored (filter 0) rows, deflated: enough to look at the capture.
  const rows = Buffer.alloc((w * 4 + 1) * h);
  for (let y = 0; y < h; y++) rgba.copy(rows, y * (w * 4 + 1) + 1, y * w * 4, (y + 1) * w * 4);
  const chunk = (kind, data) => {
    const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(kind, "ascii"), data]);
    const crc = Buffer.alloc(4); crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13); ihdr.writeUInt32BE(w, 0); ihdr.writeUInt32BE(h, 4); ihdr[8] = 8; ihdr[9] = 6;
  writeFileSync(path, Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(rows)), chunk("IEND", Buffer.alloc(0))]));
}
function crc32(buf) {
  let c = ~0;
  for (const b of buf) { c ^= b; for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1)); }
  return ~c;
}
