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

  objects.onchange = () => engine.set_objects(Number(objects.value));
  document.getElementById("mode").onchange = (e) => engine.set_mode(e.target.value);
  document.getElementById("lod").onchange = (e) => engine.set_lod(e.target.checked);
  document.getElementById("occlusion").onchange = (e) => engine.set_occlusion(e.target.checked);
  document.getElementById("shadows").onchange = (e) => engine.set_shadows(e.target.checked ? 4 : 0);
  let drag = null;
  canvas.onpointerdown = (e) => { drag = [e.clientX, e.clientY]; canvas.setPointerCapture(e.pointerId); };
  canvas.onpointerup = () => { drag = null; };
  canvas.onpointermove = (e) => {
    if (!drag) return;
    engine.orbit((drag[0] - e.clientX) * 0.005, (e.clientY - drag[1]) * 0.005, 1);
    drag = [e.clientX, e.clientY];
  };
  canvas.onwheel = (e) => { e.preventDefault(); engine.orbit(0, 0, Math.exp(e.deltaY * 0.001)); };
  canvas.ondblclick = () => engine.reset_camera();

  const start = performance.now();
  const frame = () => {
    const r = JSON.parse(engine.frame((performance.now() - start) / 1000));
    const passes = r.gpu_passes.map(([name, ms]) => `  ${name.padEnd(22)} ${ms.toFixed(3)} ms`).join("\n");
    show(
      `adapter      ${adapter.name}\n` +
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
