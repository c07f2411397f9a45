// The page: one Engine (web/src/lib.rs) on the canvas, the panel's switches, live numbers.
// `?objects=N&width=W&height=H&test=1` sets the start; with `test=1` no frame loop runs and
// `window.multidraw` is left for a test to drive (web/test.mjs).
import init, { Engine } from "./pkg/multidraw_web.js";

const params = new URLSearchParams(location.search);
const canvas = document.getElementById("view");
canvas.width = Number(params.get("width") || canvas.width);
canvas.height = Number(params.get("height") || canvas.height);
const stats = document.getElementById("stats");
const objects = document.getElementById("objects");
objects.value = params.get("objects") || "10000";

function show(text) { stats.textContent = text; }

async function main() {
  await init();
  if (!navigator.gpu) throw new Error("this browser has no WebGPU (navigator.gpu)");
  show("compiling pipelines…");
  const engine = await Engine.create(canvas, Number(objects.value));
  await engine.settle();
  const adapter = JSON.parse(engine.adapter());
  window.multidraw = { engine, adapter };
  console.log("multidraw ready " + JSON.stringify(adapter));
  if (params.get("test")) return;

  // Generating and uploading a large scene takes a while in wasm: say so before it starts.
  let busy = null;
  objects.onchange = () => {
    busy = `generating and uploading ${Number(objects.value).toLocaleString()} objects…`;
    show(busy);
    setTimeout(() => { engine.set_objects(Number(objects.value)); busy = null; }, 30);
  };
  document.getElementById("mode").onchange = (e) => engine.set_mode(e.target.value);
  document.getElementById("lod").onchange = (e) => engine.set_lod(e.target.checked);
  document.getElementById("occlusion").onchange = (e) => engine.set_occlusion(e.target.checked);
  document.getElementById("shadows").onchange = (e) => engine.set_shadows(e.target.checked ? 4 : 0);
  // Left drag orbits; right or shift drag turns the view about the eye; WASD / QE fly.
  let drag = null;
  canvas.oncontextmenu = (e) => e.preventDefault();
  canvas.onpointerdown = (e) => {
    drag = { x: e.clientX, y: e.clientY, look: e.button === 2 || e.shiftKey };
    canvas.setPointerCapture(e.pointerId);
  };
  canvas.onpointerup = () => { drag = null; };
  canvas.onpointermove = (e) => {
    if (!drag) return;
    const [dx, dy] = [(drag.x - e.clientX) * 0.005, (e.clientY - drag.y) * 0.005];
    if (drag.look) engine.look(dx, dy); else engine.orbit(dx, dy, 1);
    [drag.x, drag.y] = [e.clientX, e.clientY];
  };
  const keys = new Set();
  addEventListener("keydown", (e) => { if (e.target.tagName !== "SELECT") keys.add(e.key.toLowerCase()); });
  addEventListener("keyup", (e) => keys.delete(e.key.toLowerCase()));
  addEventListener("blur", () => keys.clear());
  const axis = (plus, minus) => (keys.has(plus) ? 1 : 0) - (keys.has(minus) ? 1 : 0);
  canvas.onwheel = (e) => { e.preventDefault(); engine.orbit(0, 0, Math.exp(e.deltaY * 0.001)); };
  canvas.ondblclick = () => engine.reset_camera();

  const start = performance.now();
  let last = start;
  const frame = () => {
    const now = performance.now();
    const step = Math.min(now - last, 100) / 1000 * 0.5;
    last = now;
    engine.fly(axis("w", "s") * step, axis("d", "a") * step, axis("e", "q") * step);
    const r = JSON.parse(engine.frame((now - start) / 1000));
    if (busy) { requestAnimationFrame(frame); return; }
    const passes = r.gpu_passes.map(([name, ms]) => `  ${name.padEnd(22)} ${ms.toFixed(3)} ms`).join("\n");
    show(
      `adapter      ${adapter.name || "(not named by the browser)"} ${adapter.backend}\n` +
      `frame        ${r.wall_ms?.toFixed(1) ?? "-"} ms (wall)\n` +
      `CPU encode   ${r.encode_ms.toFixed(2)} ms, submit ${r.submit_ms.toFixed(2)} ms\n` +
      `draw calls   ${r.browser_draw_calls} in the browser (${r.draw_commands} recorded, ${r.commands} commands)\n` +
      `visible      ${r.visible ?? r.cpu_visible ?? "-"}\n` +
      `occluded     ${r.occluded ?? "-"}   drawn ${r.drawn ?? "-"}   two phases: ${r.two_phase}\n` +
      `GPU total    ${r.gpu_total_ms?.toFixed(3) ?? "(no timestamps)"} ms\n${passes}`);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

main().catch((e) => {
  show("error: " + (e?.message ?? e));
  console.error("multidraw failed: " + (e?.message ?? e));
});
