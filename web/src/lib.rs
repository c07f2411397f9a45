//! multidraw in the browser: the engine on WebGPU, drawing the default scene (generated here,
//! no file read) into a canvas, driven by the page (`web/index.html`, `web/main.js`).
//!
//! What differs from the native engine, and why (README § "In the browser"):
//!
//! * No `multi_draw_indexed_indirect_count`: the browser offers no multi-draw, so the GPU mode
//!   draws through one slot per batch (`gpu-nocount`'s draws), which wgpu loops over on the CPU,
//!   one `drawIndexedIndirect` per slot: the calls depend on the batch count, never on the
//!   object count ([`FrameStats::indirect_slots`]).
//! * No 64-bit atomics: the compute rasteriser is off; every object is drawn by the hardware.
//! * No threads: the pipelines compile one after another at start-up, before the first frame
//!   (the page shows a loading state); nothing is awaited inside a frame.
//! * No meshoptimizer (C++): the procedural meshes tessellate their own levels of detail, as
//!   natively; only the vertex-cache order of their triangles differs.

use glam::Vec3;
use multidraw::gpu::context::{OPTIONAL_FEATURES, REQUIRED_FEATURES};
use multidraw::scene::file::default_scene_with_objects;
use multidraw::scene::Camera;
use multidraw::{
    Detail, DrawMode, FrameInput, FrameReadback, FrameStats, FrameTarget, GpuContext, Renderer, RendererOptions, View,
};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// Panics and wgpu's uncaptured errors go to the console, where the page and its test read them.
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| web_sys::console::error_1(&format!("panic: {info}").into())));
}

fn js_error(message: impl std::fmt::Display) -> JsValue {
    js_sys::Error::new(&message.to_string()).into()
}

/// The camera around the scene: yaw and pitch about its target, at a distance.
#[derive(Clone, Copy, Debug)]
struct Orbit {
    target: Vec3,
    yaw: f32,
    pitch: f32,
    distance: f32,
}

impl Orbit {
    /// The orbit that puts the eye where `camera`'s is.
    fn of(camera: &Camera) -> Self {
        let offset = camera.position - camera.target;
        let distance = offset.length().max(1e-3);
        Self {
            target: camera.target,
            yaw: offset.x.atan2(offset.z),
            pitch: (offset.y / distance).clamp(-1.0, 1.0).asin(),
            distance,
        }
    }

    /// From the orbit point to the eye.
    fn offset(&self) -> Vec3 {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        Vec3::new(sy * cp, sp, cy * cp) * self.distance
    }

    fn eye(&self) -> Vec3 {
        self.target + self.offset()
    }

    fn camera(&self, base: &Camera) -> Camera {
        Camera { position: self.eye(), target: self.target, ..*base }
    }
}

/// What [`Engine::frame`] reports: this frame's CPU side and the latest GPU results, which
/// arrive a frame or two late.
#[derive(Serialize)]
struct Report {
    frame: u64,
    objects: u32,
    mode: &'static str,
    lod: bool,
    occlusion: bool,
    shadows: u32,
    /// `render_into` to `finish`: the CPU encode time of the frame, ms.
    encode_ms: f64,
    /// The `submit` call, ms.
    submit_ms: f64,
    /// Since the previous frame began (the page's frame time), ms.
    wall_ms: Option<f64>,
    /// Commands the engine recorded (every pass, state changes included).
    commands: u32,
    /// Draw-type commands as the engine recorded them (a multi-draw is one).
    draw_commands: u32,
    /// Draw calls the browser receives: a multi-draw's slots each count, as wgpu loops over them.
    browser_draw_calls: u32,
    two_phase: bool,
    /// From the latest frame read back: its number and counters.
    gpu_frame: Option<u64>,
    visible: Option<u32>,
    occluded: Option<u32>,
    drawn: Option<u32>,
    triangles: Option<u64>,
    /// The CPU baseline's visible objects (cpu mode).
    cpu_visible: Option<u32>,
    /// GPU time per pass, ms, of the latest timed frame.
    gpu_passes: Vec<(String, f64)>,
    gpu_total_ms: Option<f64>,
}

/// The engine on the page's canvas.
#[wasm_bindgen]
pub struct Engine {
    ctx: GpuContext,
    renderer: Renderer,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    view_format: wgpu::TextureFormat,
    depth: wgpu::TextureView,
    objects: u32,
    base_camera: Camera,
    orbit: Orbit,
    mode: DrawMode,
    detail: Detail,
    shadows: u32,
    latest: Option<FrameReadback>,
    latest_timed: Option<FrameReadback>,
    last_frame_start: Option<f64>,
}

fn perf_ms() -> f64 {
    thread_local! {
        static START: multidraw::clock::Instant = multidraw::clock::Instant::now();
    }
    START.with(|start| start.elapsed().as_secs_f64() * 1e3)
}

#[wasm_bindgen]
impl Engine {
    /// Opens WebGPU on `canvas` and builds the renderer for the default scene of `objects`
    /// objects: every pipeline is compiled here, then prewarmed (submitted; await
    /// [`Engine::settle`] before the first frame).
    pub async fn create(canvas: web_sys::HtmlCanvasElement, objects: u32) -> Result<Engine, JsValue> {
        let (width, height) = (canvas.width().max(1), canvas.height().max(1));
        let instance = wgpu::Instance::new(&wgpu::InstanceDescriptor {
            backends: wgpu::Backends::BROWSER_WEBGPU,
            ..Default::default()
        });
        let surface = instance
            .create_surface(wgpu::SurfaceTarget::Canvas(canvas))
            .map_err(|e| js_error(format!("canvas: {e}")))?;
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                compatible_surface: Some(&surface),
                force_fallback_adapter: false,
            })
            .await
            .map_err(|e| js_error(format!("no WebGPU adapter: {e}")))?;
        let features = adapter.features() & (REQUIRED_FEATURES | OPTIONAL_FEATURES);
        if !features.contains(REQUIRED_FEATURES) {
            return Err(js_error("the WebGPU adapter lacks indirect-first-instance, which multidraw needs"));
        }
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("multidraw"),
                required_features: features,
                required_limits: adapter.limits(),
                experimental_features: wgpu::ExperimentalFeatures::disabled(),
                memory_hints: wgpu::MemoryHints::Performance,
                trace: wgpu::Trace::Off,
            })
            .await
            .map_err(|e| js_error(format!("requesting a WebGPU device: {e}")))?;
        device.on_uncaptured_error(std::sync::Arc::new(|error: wgpu::Error| {
            web_sys::console::error_1(&format!("wgpu error: {error}").into());
        }));
        let caps = surface.get_capabilities(&adapter);
        let format = caps
            .formats
            .iter()
            .copied()
            .find(|f| matches!(f, wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Rgba8Unorm))
            .ok_or_else(|| js_error(format!("the canvas offers no 8-bit colour format: {:?}", caps.formats)))?;
        let view_format = format.add_srgb_suffix();
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            format,
            width,
            height,
            present_mode: wgpu::PresentMode::Fifo,
            desired_maximum_frame_latency: 2,
            alpha_mode: wgpu::CompositeAlphaMode::Opaque,
            view_formats: vec![view_format],
        };
        surface.configure(&device, &config);
        let ctx = GpuContext::from_device(&instance, &adapter, &device, &queue).map_err(js_error)?;
        let scene = default_scene_with_objects(objects);
        let options = RendererOptions { soft_raster: false, ..RendererOptions::new(view_format) };
        let renderer = Renderer::with_options(&ctx, &scene, &options).map_err(js_error)?;
        let depth = depth_view(&device, width, height);
        Ok(Engine {
            ctx,
            renderer,
            surface,
            config,
            view_format,
            depth,
            objects,
            base_camera: scene.camera,
            orbit: Orbit::of(&scene.camera),
            mode: DrawMode::Gpu,
            detail: Detail { soft: false, ..Detail::default() },
            shadows: multidraw::tunables::MAX_CASCADES as u32,
            latest: None,
            latest_timed: None,
            last_frame_start: None,
        })
    }

    /// Resolves once the GPU has finished everything submitted so far (start-up's prewarm, a
    /// frame).
    pub fn settle(&self) -> js_sys::Promise {
        let queue = self.ctx.queue.clone();
        js_sys::Promise::new(&mut |resolve, _reject| {
            queue.on_submitted_work_done(move || {
                let _ = resolve.call0(&JsValue::NULL);
            });
            // The callback fires once a later submit reaches the GPU; an empty one is enough.
            queue.submit([]);
        })
    }

    /// The adapter and what it offers, as JSON.
    pub fn adapter(&self) -> String {
        let info = &self.ctx.info;
        serde_json::json!({
            "name": info.name,
            "backend": format!("{:?}", info.backend),
            "device_type": format!("{:?}", info.device_type),
            "timestamps": self.renderer.has_timestamps(),
            "multi_draw_indirect_count": self.ctx.features.contains(wgpu::Features::MULTI_DRAW_INDIRECT_COUNT),
            "compute_rasteriser": self.ctx.features.contains(multidraw::gpu::context::SOFT_RASTER_FEATURES),
            "startup": {
                "pipelines_ms": self.renderer.startup.pipelines_ms,
                "upload_ms": self.renderer.startup.upload_ms,
                "prewarm_ms": self.renderer.startup.prewarm_ms,
                "total_ms": self.renderer.startup.total_ms,
            },
        })
        .to_string()
    }

    /// Replaces the scene by the default scene of `objects` objects (the camera goes back to
    /// that scene's own).
    pub fn set_objects(&mut self, objects: u32) -> Result<(), JsValue> {
        let scene = default_scene_with_objects(objects);
        self.renderer.set_scene(&self.ctx, &scene).map_err(js_error)?;
        self.objects = objects;
        self.base_camera = scene.camera;
        self.orbit = Orbit::of(&scene.camera);
        self.latest = None;
        self.latest_timed = None;
        Ok(())
    }

    /// `gpu` (GPU-driven) or `cpu` (the CPU-recorded baseline: one draw per visible object).
    pub fn set_mode(&mut self, mode: &str) -> Result<(), JsValue> {
        self.mode = match mode {
            "gpu" => DrawMode::Gpu,
            "gpu-per-object" => DrawMode::GpuPerObject,
            "cpu" => DrawMode::Cpu,
            other => return Err(js_error(format!("unknown mode {other:?}: gpu, gpu-per-object or cpu"))),
        };
        Ok(())
    }

    pub fn set_lod(&mut self, on: bool) {
        self.detail.lod = on;
    }

    pub fn set_occlusion(&mut self, on: bool) {
        self.detail.occlusion = on;
    }

    /// Shadow cascades of the sun (0: no shadows).
    pub fn set_shadows(&mut self, cascades: u32) {
        self.shadows = cascades.min(multidraw::tunables::MAX_CASCADES as u32);
    }

    /// Turns the camera about the scene's target (radians) and moves it nearer (`zoom` < 1) or
    /// farther.
    pub fn orbit(&mut self, yaw: f32, pitch: f32, zoom: f32) {
        self.orbit.yaw += yaw;
        self.orbit.pitch = (self.orbit.pitch + pitch).clamp(-1.5, 1.5);
        self.orbit.distance = (self.orbit.distance * zoom.clamp(0.1, 10.0)).max(1e-2);
    }

    /// Turns the view about the eye (yaw and pitch in radians): the eye stays, the point it
    /// orbits moves.
    pub fn look(&mut self, yaw: f32, pitch: f32) {
        let eye = self.orbit.eye();
        self.orbit.yaw += yaw;
        self.orbit.pitch = (self.orbit.pitch + pitch).clamp(-1.5, 1.5);
        self.orbit.target = eye - self.orbit.offset();
    }

    /// Flies eye and orbit point together along the view: `forward` along the view direction
    /// levelled, `right` across it, `up` along world up, each in units of the distance to the
    /// orbit point (so the speed suits any scene's size).
    pub fn fly(&mut self, forward: f32, right: f32, up: f32) {
        let (sy, cy) = self.orbit.yaw.sin_cos();
        let ahead = -Vec3::new(sy, 0.0, cy);
        let across = Vec3::new(cy, 0.0, -sy);
        self.orbit.target += (ahead * forward + across * right + Vec3::Y * up) * self.orbit.distance;
    }

    /// The scene's own camera again.
    pub fn reset_camera(&mut self) {
        self.orbit = Orbit::of(&self.base_camera);
    }

    /// Draws one frame at animation time `time` (s) into the canvas and returns the report
    /// (JSON).
    pub fn frame(&mut self, time: f32) -> Result<String, JsValue> {
        let (report, _) = self.draw(time, false)?;
        Ok(report)
    }

    /// Draws one frame as [`Engine::frame`] does and resolves with the canvas's pixels, RGBA,
    /// row after row, once the GPU has finished it. The scene's own camera unless moved.
    pub fn capture(&mut self, time: f32) -> Result<js_sys::Promise, JsValue> {
        let (_, copy) = self.draw(time, true)?;
        let (buffer, padded_row) = copy.expect("asked for a copy");
        let (width, height) = (self.config.width, self.config.height);
        let bgra = matches!(self.config.format, wgpu::TextureFormat::Bgra8Unorm);
        let mapped = js_sys::Promise::new(&mut |resolve, reject| {
            buffer.slice(..).map_async(wgpu::MapMode::Read, move |result| {
                let _ = match result {
                    Ok(()) => resolve.call0(&JsValue::NULL),
                    Err(e) => reject.call1(&JsValue::NULL, &js_error(format!("mapping the capture: {e}"))),
                };
            });
        });
        Ok(wasm_bindgen_futures::future_to_promise(async move {
            wasm_bindgen_futures::JsFuture::from(mapped).await?;
            let data = buffer.slice(..).get_mapped_range();
            let mut pixels = Vec::with_capacity((width * height * 4) as usize);
            for row in data.chunks(padded_row as usize).take(height as usize) {
                for texel in row[..(width * 4) as usize].chunks_exact(4) {
                    let rgba = if bgra {
                        [texel[2], texel[1], texel[0], texel[3]]
                    } else {
                        [texel[0], texel[1], texel[2], texel[3]]
                    };
                    pixels.extend_from_slice(&rgba);
                }
            }
            drop(data);
            buffer.unmap();
            Ok(js_sys::Uint8Array::from(&pixels[..]).into())
        }))
    }

    fn draw(&mut self, time: f32, copy: bool) -> Result<(String, Option<(wgpu::Buffer, u32)>), JsValue> {
        let start = perf_ms();
        let wall_ms = self.last_frame_start.map(|previous| start - previous);
        self.last_frame_start = Some(start);
        let frame = match self.surface.get_current_texture() {
            Ok(frame) => frame,
            Err(wgpu::SurfaceError::Lost | wgpu::SurfaceError::Outdated) => {
                self.surface.configure(&self.ctx.device, &self.config);
                self.surface.get_current_texture().map_err(|e| js_error(format!("canvas texture: {e}")))?
            }
            Err(e) => return Err(js_error(format!("canvas texture: {e}"))),
        };
        let color = frame
            .texture
            .create_view(&wgpu::TextureViewDescriptor { format: Some(self.view_format), ..Default::default() });
        let camera = self.orbit.camera(&self.base_camera);
        let input =
            FrameInput { time, detail: self.detail, ..FrameInput::new(camera, self.mode).with_shadows(self.shadows) };
        let target = FrameTarget {
            color: &color,
            depth: &self.depth,
            width: self.config.width,
            height: self.config.height,
            keep_color: false,
            complete_depth: false,
        };
        let encode_start = perf_ms();
        let mut encoder =
            self.ctx.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("frame") });
        let stats = self.renderer.render_into(&self.ctx, &mut encoder, &target, &input, &[View::of_input(&input)]);
        let copy = copy.then(|| self.copy_out(&mut encoder, &frame.texture));
        let commands = encoder.finish();
        let encode_ms = perf_ms() - encode_start;
        let submit_start = perf_ms();
        self.ctx.queue.submit([commands]);
        let submit_ms = perf_ms() - submit_start;
        self.renderer.submitted();
        frame.present();
        for readback in self.renderer.collect(&self.ctx.device) {
            if readback.gpu.is_some() {
                self.latest_timed = Some(readback);
            }
            self.latest = Some(readback);
        }
        Ok((self.report(&stats, encode_ms, submit_ms, wall_ms), copy))
    }

    /// Copies the canvas texture into a mappable buffer (rows padded to 256 bytes).
    fn copy_out(&self, encoder: &mut wgpu::CommandEncoder, texture: &wgpu::Texture) -> (wgpu::Buffer, u32) {
        let (width, height) = (self.config.width, self.config.height);
        let padded_row = (width * 4).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
        let buffer = self.ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("canvas capture"),
            size: padded_row as u64 * height as u64,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        encoder.copy_texture_to_buffer(
            texture.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(padded_row),
                    rows_per_image: None,
                },
            },
            wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
        );
        (buffer, padded_row)
    }

    fn report(&self, stats: &FrameStats, encode_ms: f64, submit_ms: f64, wall_ms: Option<f64>) -> String {
        let counters = self.latest.and_then(|r| r.counters);
        let passes: Vec<_> = stats.commands.iter().map(|(_, c)| *c).collect();
        let direct: u32 = passes
            .iter()
            .map(|c| c.draw_indexed + c.draw + c.multi_draw_indexed_indirect_count + c.execute_bundles)
            .sum();
        let gpu = self.latest_timed.and_then(|r| r.gpu);
        let report = Report {
            frame: stats.frame,
            objects: self.objects,
            mode: self.mode.name(),
            lod: self.detail.lod,
            occlusion: self.detail.occlusion,
            shadows: self.shadows,
            encode_ms,
            submit_ms,
            wall_ms,
            commands: stats.commands.total(),
            draw_commands: stats.commands.draw_commands(),
            browser_draw_calls: direct + stats.indirect_slots,
            two_phase: stats.two_phase,
            gpu_frame: self.latest.map(|r| r.frame),
            visible: counters.map(|c| c.visible),
            occluded: counters.map(|c| c.occluded),
            drawn: counters.map(|c| c.drawn[0] + c.drawn[1]),
            triangles: counters.map(|c| c.triangles),
            cpu_visible: stats.cpu_visible,
            gpu_passes: gpu.map(|g| g.iter().map(|&(name, ms)| (name.to_string(), ms)).collect()).unwrap_or_default(),
            gpu_total_ms: gpu.map(|g| g.total()),
        };
        serde_json::to_string(&report).expect("a report serialises")
    }
}

fn depth_view(device: &wgpu::Device, width: u32, height: u32) -> wgpu::TextureView {
    multidraw::gpu::target::depth_texture(device, width, height).create_view(&Default::default())
}
