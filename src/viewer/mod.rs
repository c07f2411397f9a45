//! The interactive viewer: a winit window drawing the scene through the same [`Renderer`] as
//! the benchmark, with an egui side panel (modes, object count, animation, frozen culling,
//! live numbers) and the puffin profiler window (F1).
//!
//! Frame order: apply a pending resize (a 0×0 window records nothing), pick up a finished
//! scene rebuild, move the camera, acquire the surface texture (lost/outdated → reconfigure and
//! skip), render the scene, copy it out if a screenshot was asked for (before the UI is drawn
//! over it), draw the UI, present, then collect GPU readbacks from earlier frames.

pub mod fly;
mod ui;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{anyhow, Context, Result};
use winit::application::ApplicationHandler;
use winit::event::{DeviceEvent, ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{KeyCode, PhysicalKey};
use winit::window::{Window, WindowId};

use crate::frame::{DrawMode, FrameInput, Renderer};
use crate::gpu::target::{depth_texture, FrameTarget, OffscreenTarget};
use crate::gpu::{ContextOptions, GpuContext};
use crate::scene::{Camera, Scene};
use fly::FlyCamera;

/// How the viewer starts, and what the test flags ask of it.
pub struct ViewerOptions {
    pub scene: Scene,
    pub mode: DrawMode,
    pub width: u32,
    pub height: u32,
    pub context: ContextOptions,
    /// Exit after this many frames; animation time then advances exactly 1/60 s per frame, so
    /// frame K shows what `multidraw render --frame K` shows.
    pub frames: Option<u64>,
    /// Save the last frame's scene (without the UI) here.
    pub screenshot: Option<PathBuf>,
    /// Save the whole window (scene + UI) of the last frame here.
    pub window_screenshot: Option<PathBuf>,
    /// Open the profiler window from the start.
    pub show_profiler: bool,
    /// Test: switch the mode every frame.
    pub cycle_modes: bool,
    /// Test: shrink the window to 0×0 for a few frames, then restore it.
    pub resize_test: bool,
    /// Whether the scene came from a file: the panel then offers "reload" instead of an object count.
    pub scene_from_file: bool,
    /// Builds a scene with a given object count for the panel's "rebuild" (runs on a worker thread).
    pub scene_builder: Arc<dyn Fn(u32) -> Result<Scene, String> + Send + Sync>,
}

/// Live numbers shown in the panel.
#[derive(Default)]
pub struct LiveStats {
    pub visible: Option<u32>,
    pub draw_commands: u32,
    pub bind_group_sets: [u32; 3],
    pub record_ms: f64,
    pub cpu_cull_ms: f64,
    pub gpu: Option<crate::gpu::timer::GpuPassTimes>,
    /// Recent whole-frame times in ms.
    pub frame_ms: std::collections::VecDeque<f32>,
}

/// A scene being built on a worker thread.
pub struct SceneJob {
    pub objects: u32,
    pub started: Instant,
    pub handle: std::thread::JoinHandle<Result<Scene, String>>,
}

pub(crate) struct Viewer {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    ctx: GpuContext,
    renderer: Renderer,
    depth: wgpu::TextureView,
    egui_ctx: egui::Context,
    egui_state: egui_winit::State,
    egui_renderer: egui_wgpu::Renderer,
    pub(crate) camera: FlyCamera,
    pub(crate) mode: DrawMode,
    pub(crate) animate: bool,
    pub(crate) frozen: Option<Camera>,
    pub(crate) show_profiler: bool,
    pub(crate) stats: LiveStats,
    pub(crate) scene_job: Option<SceneJob>,
    pub(crate) requested_objects: u32,
    pub(crate) object_count: u32,
    pub(crate) message: Option<String>,
    time: f32,
    last_frame: Instant,
    frame_index: u64,
    pending_size: Option<winit::dpi::PhysicalSize<u32>>,
    screenshot_requested: Option<PathBuf>,
    copy_src: bool,
}

struct App {
    options: ViewerOptions,
    viewer: Option<Viewer>,
    error: Option<anyhow::Error>,
}

/// Opens the window and runs until it is closed (or `frames` have been drawn).
pub fn run(options: ViewerOptions) -> Result<()> {
    let event_loop = EventLoop::new().map_err(|e| {
        anyhow!("cannot open a window ({e}); is a display available (DISPLAY or WAYLAND_DISPLAY)? `multidraw render` works headless")
    })?;
    event_loop.set_control_flow(ControlFlow::Poll);
    let mut app = App { options, viewer: None, error: None };
    event_loop.run_app(&mut app).context("event loop")?;
    match app.error {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

impl App {
    fn fail(&mut self, event_loop: &ActiveEventLoop, error: anyhow::Error) {
        self.error.get_or_insert(error);
        event_loop.exit();
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.viewer.is_some() {
            return;
        }
        match Viewer::new(event_loop, &self.options) {
            Ok(viewer) => self.viewer = Some(viewer),
            Err(error) => self.fail(event_loop, error),
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(viewer) = self.viewer.as_mut() else { return };
        let consumed = viewer.egui_state.on_window_event(&viewer.window, &event).consumed;
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => viewer.pending_size = Some(size),
            WindowEvent::Focused(false) => viewer.camera.release_all(),
            WindowEvent::KeyboardInput { event, .. } => {
                let PhysicalKey::Code(code) = event.physical_key else { return };
                let pressed = event.state == ElementState::Pressed;
                // Releases always reach the camera, so no key sticks when egui had focus.
                if !pressed || !consumed {
                    viewer.camera.key(code, pressed);
                }
                if pressed && !event.repeat && !consumed {
                    match code {
                        KeyCode::KeyR => viewer.camera.reset(),
                        KeyCode::F1 => viewer.show_profiler = !viewer.show_profiler,
                        KeyCode::F12 => viewer.screenshot_requested = Some(screenshot_path()),
                        KeyCode::Escape => event_loop.exit(),
                        _ => {}
                    }
                }
            }
            WindowEvent::MouseInput { state, button: MouseButton::Right, .. }
                if !consumed || state == ElementState::Released =>
            {
                viewer.camera.looking = state == ElementState::Pressed;
            }
            WindowEvent::MouseWheel { delta, .. } if !consumed => {
                let lines = match delta {
                    MouseScrollDelta::LineDelta(_, y) => y,
                    MouseScrollDelta::PixelDelta(p) => p.y as f32 / 40.0,
                };
                viewer.camera.scroll(lines);
            }
            WindowEvent::RedrawRequested => {
                let done = match viewer.frame(&self.options) {
                    Ok(done) => done,
                    Err(error) => return self.fail(event_loop, error),
                };
                if done {
                    if let Some(path) = &self.options.screenshot {
                        println!("screenshot: {}", path.display());
                    }
                    event_loop.exit();
                }
            }
            _ => {}
        }
    }

    fn device_event(&mut self, _event_loop: &ActiveEventLoop, _id: winit::event::DeviceId, event: DeviceEvent) {
        if let (Some(viewer), DeviceEvent::MouseMotion { delta }) = (self.viewer.as_mut(), event) {
            viewer.camera.look(delta.0 as f32, delta.1 as f32);
        }
    }

    fn about_to_wait(&mut self, _event_loop: &ActiveEventLoop) {
        if let Some(viewer) = &self.viewer {
            viewer.window.request_redraw();
        }
    }

    fn exiting(&mut self, _event_loop: &ActiveEventLoop) {
        if let Some(viewer) = &self.viewer {
            if let Err(error) = viewer.ctx.save_driver_cache() {
                eprintln!("warning: could not save the pipeline cache: {error}");
            }
        }
    }
}

fn screenshot_path() -> PathBuf {
    let seconds = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    PathBuf::from(format!("multidraw-screenshot-{seconds}.png"))
}

const CYCLED_MODES: [DrawMode; 3] = [DrawMode::Gpu, DrawMode::GpuNocount, DrawMode::Cpu];

impl Viewer {
    fn new(event_loop: &ActiveEventLoop, options: &ViewerOptions) -> Result<Self> {
        let attributes = Window::default_attributes()
            .with_title("multidraw")
            .with_inner_size(winit::dpi::PhysicalSize::new(options.width, options.height));
        let window = Arc::new(event_loop.create_window(attributes).context("creating the window")?);
        let instance = GpuContext::create_instance(&options.context);
        let surface = instance.create_surface(window.clone()).context("creating the window surface")?;
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            force_fallback_adapter: false,
            compatible_surface: Some(&surface),
        }))
        .map_err(|_| crate::gpu::ContextError::NoAdapter { backends: "any that can present to this window".into() })?;
        let ctx = GpuContext::from_adapter(instance, adapter, &options.context)?;

        let caps = surface.get_capabilities(&ctx.adapter);
        let format = caps
            .formats
            .iter()
            .copied()
            .find(|f| f.is_srgb())
            .or(caps.formats.first().copied())
            .context("the surface supports no format")?;
        let copy_src = caps.usages.contains(wgpu::TextureUsages::COPY_SRC);
        let size = window.inner_size();
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT
                | if copy_src { wgpu::TextureUsages::COPY_SRC } else { wgpu::TextureUsages::empty() },
            format,
            width: size.width.max(1),
            height: size.height.max(1),
            present_mode: if caps.present_modes.contains(&wgpu::PresentMode::Mailbox) {
                wgpu::PresentMode::Mailbox
            } else {
                wgpu::PresentMode::Fifo
            },
            desired_maximum_frame_latency: 2,
            alpha_mode: caps.alpha_modes[0],
            view_formats: vec![],
        };
        surface.configure(&ctx.device, &config);
        let renderer = Renderer::new(&ctx, &options.scene, format)?;
        let depth = depth_texture(&ctx.device, config.width, config.height).create_view(&Default::default());

        let egui_ctx = egui::Context::default();
        let egui_state = egui_winit::State::new(
            egui_ctx.clone(),
            egui::ViewportId::ROOT,
            &window,
            Some(window.scale_factor() as f32),
            None,
            Some(ctx.limits.max_texture_dimension_2d as usize),
        );
        let egui_renderer = egui_wgpu::Renderer::new(&ctx.device, format, egui_wgpu::RendererOptions::default());
        puffin::set_scopes_on(true);
        let object_count = options.scene.objects.len() as u32;
        Ok(Self {
            window,
            surface,
            config,
            renderer,
            depth,
            egui_ctx,
            egui_state,
            egui_renderer,
            camera: FlyCamera::new(options.scene.camera),
            mode: options.mode,
            animate: options.scene.animated,
            frozen: None,
            show_profiler: options.show_profiler,
            stats: LiveStats::default(),
            scene_job: None,
            requested_objects: object_count.max(1),
            object_count,
            message: None,
            time: 0.0,
            last_frame: Instant::now(),
            frame_index: 0,
            pending_size: None,
            screenshot_requested: None,
            copy_src,
            ctx,
        })
    }

    /// Reconfigures for a new window size; a 0×0 (minimised) window keeps the old
    /// configuration and the frame records nothing.
    fn apply_resize(&mut self) -> bool {
        let size =
            self.pending_size.take().unwrap_or(winit::dpi::PhysicalSize::new(self.config.width, self.config.height));
        if size.width == 0 || size.height == 0 {
            self.pending_size = Some(size);
            return false;
        }
        if size.width != self.config.width || size.height != self.config.height {
            self.config.width = size.width;
            self.config.height = size.height;
            self.surface.configure(&self.ctx.device, &self.config);
            self.depth = depth_texture(&self.ctx.device, size.width, size.height).create_view(&Default::default());
        }
        true
    }

    /// A finished scene rebuild replaces the scene; a failed one leaves the old scene running.
    fn poll_scene_job(&mut self) {
        if !self.scene_job.as_ref().is_some_and(|job| job.handle.is_finished()) {
            return;
        }
        let job = self.scene_job.take().expect("checked above");
        let result = job.handle.join().map_err(|_| "the scene builder panicked".to_string()).and_then(|r| r);
        match result.and_then(|scene| {
            self.renderer.set_scene(&self.ctx, &scene).map_err(|e| e.to_string())?;
            Ok(scene)
        }) {
            Ok(scene) => {
                self.object_count = scene.objects.len() as u32;
                self.camera.set_initial(scene.camera);
                self.frozen = None;
                self.message = Some(format!(
                    "loaded {} objects in {:.1} s",
                    self.object_count,
                    job.started.elapsed().as_secs_f32()
                ));
            }
            Err(error) => self.message = Some(format!("keeping the previous scene: {error}")),
        }
    }

    pub(crate) fn start_rebuild(&mut self, builder: &Arc<dyn Fn(u32) -> Result<Scene, String> + Send + Sync>) {
        if self.scene_job.is_some() {
            return;
        }
        let (objects, builder) = (self.requested_objects, builder.clone());
        let handle = std::thread::spawn(move || builder(objects));
        self.scene_job = Some(SceneJob { objects, started: Instant::now(), handle });
    }

    /// One frame; returns true when the requested number of frames is done.
    fn frame(&mut self, options: &ViewerOptions) -> Result<bool> {
        puffin::profile_function!();
        let now = Instant::now();
        let frame_seconds = now.duration_since(self.last_frame).as_secs_f32();
        self.last_frame = now;
        // Movement and animation step at most 0.1 s, so a long frame does not teleport things.
        let dt = frame_seconds.min(0.1);
        if options.resize_test {
            match self.frame_index {
                10 => self.pending_size = Some(winit::dpi::PhysicalSize::new(0, 0)),
                15 => self.pending_size = Some(winit::dpi::PhysicalSize::new(options.width, options.height)),
                _ => {}
            }
        }
        let frame_index = self.frame_index;
        self.frame_index += 1;
        let last = options.frames.is_some_and(|n| self.frame_index >= n);
        if !self.apply_resize() {
            return Ok(last);
        }
        self.poll_scene_job();
        if options.cycle_modes {
            self.mode = CYCLED_MODES[frame_index as usize % CYCLED_MODES.len()];
        }
        self.camera.update(dt);
        if options.frames.is_some() {
            self.time = frame_index as f32 / 60.0;
        } else if self.animate {
            self.time += dt;
        }

        let surface_texture = match self.surface.get_current_texture() {
            Ok(texture) => texture,
            Err(wgpu::SurfaceError::Lost | wgpu::SurfaceError::Outdated) => {
                self.surface.configure(&self.ctx.device, &self.config);
                return Ok(last);
            }
            Err(wgpu::SurfaceError::Timeout) => return Ok(last),
            Err(error) => return Err(anyhow!("the window surface failed: {error}")),
        };
        let view = surface_texture.texture.create_view(&Default::default());
        let target =
            FrameTarget { color: &view, depth: &self.depth, width: self.config.width, height: self.config.height };
        let input = FrameInput {
            time: if self.animate { self.time } else { 0.0 },
            cull_camera: self.frozen,
            ..FrameInput::new(self.camera.camera, self.mode)
        };
        let submit_ns = puffin::now_ns();
        let stats = self.renderer.render(&self.ctx, &target, &input);
        self.stats.record_ms = stats.record_ms;
        self.stats.cpu_cull_ms = stats.cpu_cull_ms;
        self.stats.draw_commands = stats.commands.draw_commands();
        self.stats.bind_group_sets = stats.commands.bind_group_sets();
        if let Some(visible) = stats.cpu_visible {
            self.stats.visible = Some(visible);
        }

        let screenshot = if last { options.screenshot.clone() } else { None }.or(self.screenshot_requested.take());
        if let Some(path) = &screenshot {
            self.save_screenshot(&surface_texture.texture, &input, path)?;
        }

        self.draw_ui(&view, options)?;
        if let (true, Some(path)) = (last, &options.window_screenshot) {
            if !self.copy_src {
                return Err(anyhow!(
                    "this window surface cannot be copied from, so --window-screenshot is unavailable"
                ));
            }
            let (width, height) = (self.config.width, self.config.height);
            let image = crate::gpu::target::read_texture_rgba(
                &self.ctx.device,
                &self.ctx.queue,
                &surface_texture.texture,
                width,
                height,
            );
            image.save(path).with_context(|| format!("writing {}", path.display()))?;
            println!("saved window screenshot {}", path.display());
        }
        surface_texture.present();

        for readback in self.renderer.collect(&self.ctx.device) {
            if let (Some(visible), true) = (readback.visible, self.mode.gpu_culled()) {
                self.stats.visible = Some(visible);
            }
            if let Some(times) = readback.gpu {
                self.stats.gpu = Some(times);
                crate::profiling::report_gpu_passes(submit_ns, &times);
            }
        }
        let errors = self.ctx.take_errors();
        if let Some(error) = errors.first() {
            return Err(anyhow!("the GPU reported an error: {error}"));
        }
        self.stats.frame_ms.push_back(frame_seconds * 1e3);
        if self.stats.frame_ms.len() > 240 {
            self.stats.frame_ms.pop_front();
        }
        puffin::GlobalProfiler::lock().new_frame();
        Ok(last)
    }

    /// Saves the scene as drawn into the surface, before the UI. Where the surface cannot be
    /// copied from, the same frame is rendered offscreen instead.
    fn save_screenshot(&mut self, texture: &wgpu::Texture, input: &FrameInput, path: &std::path::Path) -> Result<()> {
        let image = if self.copy_src {
            crate::gpu::target::read_texture_rgba(
                &self.ctx.device,
                &self.ctx.queue,
                texture,
                self.config.width,
                self.config.height,
            )
        } else {
            let offscreen = OffscreenTarget::with_format(
                &self.ctx.device,
                self.config.width,
                self.config.height,
                self.config.format,
            );
            self.renderer.render(&self.ctx, &offscreen.frame_target(), input);
            offscreen.read_rgba(&self.ctx.device, &self.ctx.queue)
        };
        image.save(path).with_context(|| format!("writing the screenshot {}", path.display()))?;
        let source = if self.copy_src { "copied from the window surface" } else { "rendered offscreen" };
        println!("saved screenshot {} ({source})", path.display());
        Ok(())
    }

    fn draw_ui(&mut self, view: &wgpu::TextureView, options: &ViewerOptions) -> Result<()> {
        puffin::profile_function!();
        let raw_input = self.egui_state.take_egui_input(&self.window);
        let egui_ctx = self.egui_ctx.clone();
        let output = egui_ctx.run(raw_input, |ctx| ui::draw(self, ctx, options));
        self.egui_state.handle_platform_output(&self.window, output.platform_output);
        let jobs = self.egui_ctx.tessellate(output.shapes, output.pixels_per_point);
        let screen = egui_wgpu::ScreenDescriptor {
            size_in_pixels: [self.config.width, self.config.height],
            pixels_per_point: output.pixels_per_point,
        };
        for (id, delta) in &output.textures_delta.set {
            self.egui_renderer.update_texture(&self.ctx.device, &self.ctx.queue, *id, delta);
        }
        let mut encoder = self.ctx.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("ui") });
        let callbacks =
            self.egui_renderer.update_buffers(&self.ctx.device, &self.ctx.queue, &mut encoder, &jobs, &screen);
        {
            let mut pass = encoder
                .begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("ui"),
                    color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                        view,
                        depth_slice: None,
                        resolve_target: None,
                        ops: wgpu::Operations { load: wgpu::LoadOp::Load, store: wgpu::StoreOp::Store },
                    })],
                    depth_stencil_attachment: None,
                    timestamp_writes: None,
                    occlusion_query_set: None,
                })
                .forget_lifetime();
            self.egui_renderer.render(&mut pass, &jobs, &screen);
        }
        self.ctx.queue.submit(callbacks.into_iter().chain([encoder.finish()]));
        for id in &output.textures_delta.free {
            self.egui_renderer.free_texture(id);
        }
        Ok(())
    }
}
