//! The interactive viewer: a winit window drawing the scene through the same [`Renderer`] as
//! the benchmark, with an egui side panel (modes, object count, animation, frozen culling,
//! live numbers) and the puffin profiler window (F1).
//!
//! Small parts of one purpose each, as in wgpu's example framework: `SurfaceState` (surface,
//! configuration, depth, resize), `EguiLayer`, `PanelState` (what the panel edits),
//! `LiveStats` (the numbers it shows), `SceneRebuild` (a new scene built on a worker thread) and
//! `Screenshots`. [`ViewerScript`] holds what a scripted run (a test, a screenshot) does beyond
//! an interactive session.
//!
//! Frame order: apply a pending resize (a 0×0 window records nothing), pick up a finished
//! scene rebuild, move the camera, acquire the surface texture (lost/outdated → reconfigure and
//! skip), render the scene, copy it out if a screenshot was asked for (before the UI is drawn
//! over it), draw the UI, present, then collect GPU readbacks from earlier frames.
//!
//! Profiling: each of those steps is a puffin scope inside one `frame` scope tagged with the
//! frame, mode and object count; `new_frame` is called after that scope closes, so a puffin
//! frame is exactly one CPU frame. Pass times read back frames later go onto the GPU queue lane
//! of the frame that collects them, at their true times (`crate::profiling`). Start-up is a
//! puffin frame of its own, before the first `frame`.

mod egui_layer;
pub mod fly;
mod panel_layout;
mod plot;
mod rebuild;
mod screenshot;
mod stats;
mod surface;
mod ui;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{anyhow, Context, Result};
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{DeviceEvent, ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{KeyCode, PhysicalKey};
use winit::window::{Window, WindowId};

use crate::frame::{Detail, DrawMode, FrameInput, Renderer, View};
use crate::gpu::{ContextOptions, GpuContext};
use crate::profiling::{GpuLane, FRAME_SCOPE};
use crate::scene::Scene;
use egui_layer::EguiLayer;
use fly::FlyCamera;
use panel_layout::PanelLayoutLog;
use rebuild::SceneRebuild;
pub use rebuild::SceneSource;
use screenshot::Screenshots;
use stats::LiveStats;
use surface::SurfaceState;
use ui::PanelState;

/// How the viewer starts.
pub struct ViewerOptions {
    pub scene: Scene,
    /// Where the panel's rebuild gets a new scene.
    pub scene_source: SceneSource,
    /// What a rebuilt scene may read and cost (`--allow-dir`, `--max-memory`, the adapter).
    pub load: crate::scene::file::LoadOptions,
    pub mode: DrawMode,
    pub width: u32,
    pub height: u32,
    pub context: ContextOptions,
    /// Open the profiler window from the start.
    pub show_profiler: bool,
    /// Level of detail, size and occlusion culling at start (the panel changes them).
    pub detail: Detail,
    /// Start with objects coloured by level of detail.
    pub lod_colors: bool,
    /// The sun's shadow cascades at start (0: off; the panel changes them).
    pub shadows: u32,
    /// Start with the depth-pyramid window open at this level.
    pub pyramid_level: Option<u32>,
    /// A scripted run; `ViewerScript::default()` for an interactive session.
    pub script: ViewerScript,
    /// Views side by side (`--views`), each culled and drawn on its own, and the degrees each
    /// further one is turned about the vertical axis.
    pub views: (u32, f32),
}

/// What a scripted run does: stop after a number of frames, save its last frame, and the
/// stress tests of `tests/viewer.rs`. Every field off is an interactive session.
#[derive(Clone, Debug, Default)]
pub struct ViewerScript {
    /// Exit after this many frames; animation time then advances exactly 1/60 s per frame, so
    /// frame K shows what `multidraw render --frame K` shows.
    pub frames: Option<u64>,
    /// Save the last frame's scene (without the UI) here.
    pub screenshot: Option<PathBuf>,
    /// Save the whole window (scene + UI) of the last frame here.
    pub window_screenshot: Option<PathBuf>,
    /// Switch between gpu, gpu-nocount and cpu every frame.
    pub cycle_modes: bool,
    /// Shrink the window to 0×0 at frame 10 and restore it at frame 15.
    pub resize_test: bool,
    /// Scroll the side panel to its end every frame and write where its items landed here
    /// (JSON, see `panel_layout`) when the run ends.
    pub panel_layout: Option<PathBuf>,
}

impl ViewerScript {
    const CYCLED_MODES: [DrawMode; 3] = [DrawMode::Gpu, DrawMode::GpuNocount, DrawMode::Cpu];

    /// Whether `frame` (counted from 0) is the script's last.
    fn is_last(&self, frame: u64) -> bool {
        self.frames.is_some_and(|n| frame + 1 >= n)
    }

    /// The mode the script sets at `frame`.
    fn mode(&self, frame: u64) -> Option<DrawMode> {
        self.cycle_modes.then(|| Self::CYCLED_MODES[frame as usize % Self::CYCLED_MODES.len()])
    }

    /// The window size the script sets at `frame`; `normal` is the size it restores.
    fn window_size(&self, frame: u64, normal: PhysicalSize<u32>) -> Option<PhysicalSize<u32>> {
        match (self.resize_test, frame) {
            (true, 10) => Some(PhysicalSize::new(0, 0)),
            (true, 15) => Some(normal),
            _ => None,
        }
    }
}

/// Frame numbers, frame times and animation time.
struct FrameClock {
    /// Frames started so far.
    frames: u64,
    last_frame: Instant,
    /// Animation time in seconds.
    time: f32,
}

impl FrameClock {
    /// Starts a frame: its number and the seconds since the previous one.
    fn tick(&mut self) -> (u64, f32) {
        let now = Instant::now();
        let seconds = now.duration_since(self.last_frame).as_secs_f32();
        self.last_frame = now;
        self.frames += 1;
        (self.frames - 1, seconds)
    }

    /// Advances animation time: by `dt` when animating, or to exactly `frame / 60` s with a
    /// fixed step (a scripted run, comparable with `multidraw render --frame`).
    fn advance(&mut self, frame: u64, dt: f32, fixed_step: bool, animate: bool) {
        if fixed_step {
            self.time = frame as f32 / 60.0;
        } else if animate {
            self.time += dt;
        }
    }
}

pub(crate) struct Viewer {
    window: Arc<Window>,
    ctx: GpuContext,
    surface: SurfaceState,
    renderer: Renderer,
    /// The GPU queue lane of the puffin profile (calibrated clock, frames in flight).
    lane: GpuLane,
    egui: EguiLayer,
    camera: FlyCamera,
    panel: PanelState,
    stats: LiveStats,
    rebuild: SceneRebuild,
    screenshots: Screenshots,
    clock: FrameClock,
    script: ViewerScript,
    /// The window size asked for at start (the resize test restores it).
    requested_size: PhysicalSize<u32>,
    /// The panel's layout over the frames, kept when the script asks for it.
    panel_layout: Option<PanelLayoutLog>,
    /// Views side by side and the turn between them (`ViewerOptions::views`).
    views: (u32, f32),
}

struct App {
    options: ViewerOptions,
    viewer: Option<Viewer>,
    error: Option<anyhow::Error>,
}

/// Opens the window and runs until it is closed (or the script's frames have been drawn).
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
        let consumed = viewer.egui.on_window_event(&viewer.window, &event);
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => viewer.surface.request_resize(size),
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
                        KeyCode::F1 => viewer.panel.show_profiler = !viewer.panel.show_profiler,
                        KeyCode::F12 => viewer.screenshots.request(),
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
                let done = match viewer.frame() {
                    Ok(done) => done,
                    Err(error) => return self.fail(event_loop, error),
                };
                if done {
                    if let Some(path) = &self.options.script.screenshot {
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

impl Viewer {
    fn new(event_loop: &ActiveEventLoop, options: &ViewerOptions) -> Result<Self> {
        let requested_size = PhysicalSize::new(options.width, options.height);
        let attributes = Window::default_attributes().with_title("multidraw").with_inner_size(requested_size);
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
        let surface = SurfaceState::new(surface, &ctx, window.inner_size())?;
        if options.views.0 > 1 && !surface.takes_copies() {
            anyhow::bail!("--views {}: this window's surface cannot be copied into (no COPY_DST)", options.views.0);
        }
        let renderer = Renderer::new(&ctx, &options.scene, surface.format())?;
        let egui = EguiLayer::new(&window, &ctx, surface.format());
        let lane = GpuLane::new(&ctx);
        if let Some(note) = lane.note() {
            eprintln!("note: {note}");
        }
        puffin::set_scopes_on(true);
        // Start-up is a puffin frame of its own, not part of the first frame.
        puffin::GlobalProfiler::lock().new_frame();
        let object_count = options.scene.objects.len() as u32;
        Ok(Self {
            lane,
            window,
            surface,
            renderer,
            egui,
            camera: FlyCamera::new(options.scene.camera),
            panel: PanelState {
                mode: options.mode,
                animate: options.scene.animated,
                frozen: None,
                show_profiler: options.show_profiler,
                requested_objects: object_count.max(1),
                detail: options.detail,
                lod_colors: options.lod_colors,
                shadows: options.shadows,
                cascade_colors: false,
                shadow_map: None,
                pyramid_level: options.pyramid_level,
            },
            stats: LiveStats::default(),
            rebuild: SceneRebuild::new(options.scene_source.clone(), object_count, options.load.clone()),
            screenshots: Screenshots::new(&options.script),
            clock: FrameClock { frames: 0, last_frame: Instant::now(), time: 0.0 },
            script: options.script.clone(),
            requested_size,
            panel_layout: options.script.panel_layout.as_ref().map(|_| PanelLayoutLog::default()),
            views: options.views,
            ctx,
        })
    }

    /// Installs a finished scene rebuild; a failed one leaves the old scene running.
    fn poll_scene_rebuild(&mut self) {
        let Some(built) = self.rebuild.take_finished() else { return };
        puffin::profile_scope!("install rebuilt scene");
        let installed = built.scene.and_then(|scene| {
            self.renderer.set_scene(&self.ctx, &scene).map_err(|e| e.to_string())?;
            self.camera.set_initial(scene.camera);
            self.panel.frozen = None;
            Ok(scene.objects.len() as u32)
        });
        self.rebuild.finish(installed, built.started);
    }

    /// One frame, as one puffin frame; returns true when the script's frames are done.
    fn frame(&mut self) -> Result<bool> {
        let (frame, frame_seconds) = self.clock.tick();
        if let Some(mode) = self.script.mode(frame) {
            self.panel.mode = mode;
        }
        let result = {
            puffin::profile_scope!(FRAME_SCOPE, self.renderer.next_tag(self.panel.mode).to_string());
            let start = Instant::now();
            let result = self.frame_body(frame, frame_seconds, puffin::now_ns());
            self.stats.push_frame_time(start.elapsed().as_secs_f32() * 1e3);
            result
        };
        // Outside the frame scope: the frame ends when its scope does.
        puffin::GlobalProfiler::lock().new_frame();
        result
    }

    fn frame_body(&mut self, frame: u64, frame_seconds: f32, frame_start_ns: i64) -> Result<bool> {
        // Movement and animation step at most 0.1 s, so a long frame does not teleport things.
        let dt = frame_seconds.min(0.1);
        if let Some(size) = self.script.window_size(frame, self.requested_size) {
            self.surface.request_resize(size);
        }
        let last = self.script.is_last(frame);
        let resized = {
            puffin::profile_scope!("resize");
            self.surface.apply_resize(&self.ctx.device)
        };
        if !resized {
            return Ok(last);
        }
        self.poll_scene_rebuild();
        self.lane.recalibrate_if_stale(&self.ctx);
        self.camera.update(dt);
        self.clock.advance(frame, dt, self.script.frames.is_some(), self.panel.animate);

        let acquired = {
            puffin::profile_scope!("acquire");
            self.surface.acquire(&self.ctx.device)?
        };
        let Some(surface_texture) = acquired else { return Ok(last) };
        let view = surface_texture.texture.create_view(&Default::default());
        let input = FrameInput {
            time: if self.panel.animate { self.clock.time } else { 0.0 },
            cull_camera: self.panel.frozen,
            detail: self.panel.detail,
            lod_colors: self.panel.lod_colors,
            cascade_colors: self.panel.cascade_colors,
            ..FrameInput::new(self.camera.camera, self.panel.mode)
        }
        .with_shadows(self.panel.shadows);
        self.lane.submitted(self.renderer.next_tag(input.mode));
        let frame_target = self.surface.frame_target(&view);
        let views = View::side_by_side(&input, self.views.0, self.views.1, frame_target.width, frame_target.height);
        let stats = self.renderer.render_views(&self.ctx, &frame_target, &input, &views);
        self.stats.record_frame(&stats);
        // What the frame ran (the adaptive frame may have turned the second phase off).
        let two_phase = stats.two_phase;
        if let Some(path) = self.screenshots.scene_path(last) {
            puffin::profile_scope!("screenshot");
            screenshot::save_scene(
                &self.ctx,
                &mut self.renderer,
                &self.surface,
                &surface_texture.texture,
                &input,
                &path,
            )?;
        }
        let pyramid = self.pyramid_image(two_phase);
        let shadow_map = self.shadow_map_image();
        self.draw_ui(frame, &view, pyramid, shadow_map);
        if let (true, Some(log), Some(path)) = (last, &self.panel_layout, &self.script.panel_layout) {
            log.write(path)?;
        }
        if let Some(path) = self.screenshots.window_path(last) {
            puffin::profile_scope!("screenshot");
            screenshot::save_window(&self.ctx, &self.surface, &surface_texture.texture, path)?;
        }
        {
            puffin::profile_scope!("present");
            surface_texture.present();
        }

        for readback in self.renderer.collect(&self.ctx.device) {
            self.stats.record_readback(&readback, self.panel.mode);
            if let Some(times) = readback.gpu {
                self.lane.report(readback.frame, &times, frame_start_ns);
            }
        }
        if let Some(error) = self.ctx.take_errors().first() {
            return Err(anyhow!("the GPU reported an error: {error}"));
        }
        Ok(last)
    }

    /// The pyramid level the panel shows, read back, with the level count; `None` when the
    /// window is closed or this frame built no pyramid.
    fn pyramid_image(&mut self, two_phase: bool) -> Option<(egui::ColorImage, u32)> {
        let level = self.panel.pyramid_level.as_mut()?;
        if !two_phase {
            return None;
        }
        puffin::profile_scope!("pyramid readback");
        let pyramid = self.renderer.pyramid(0);
        let levels = pyramid.level_count();
        *level = (*level).min(levels - 1);
        let (width, height, gray) = pyramid.level_image(&self.ctx.device, &self.ctx.queue, *level);
        Some((egui::ColorImage::from_gray([width as usize, height as usize], &gray), levels))
    }

    /// The shadow-map layer the panel shows, read back, with the cascade count; `None` when the
    /// window is closed or the frame drew no shadow.
    fn shadow_map_image(&mut self) -> Option<(egui::ColorImage, u32)> {
        let cascade = self.panel.shadow_map.as_mut()?;
        let cascades = self.renderer.cascades(0).len() as u32;
        if cascades == 0 {
            return None;
        }
        puffin::profile_scope!("shadow map readback");
        *cascade = (*cascade).min(cascades - 1);
        let (size, depths) = self.renderer.read_shadow_map(&self.ctx, 0, *cascade as usize)?;
        let gray = crate::passes::pyramid::level_to_gray(&depths);
        Some((egui::ColorImage::from_gray([size as usize, size as usize], &gray), cascades))
    }

    /// The panel and windows over the frame; starts a rebuild when the panel asks for one.
    fn draw_ui(
        &mut self,
        frame: u64,
        view: &wgpu::TextureView,
        pyramid: Option<(egui::ColorImage, u32)>,
        shadow_map: Option<(egui::ColorImage, u32)>,
    ) {
        puffin::profile_scope!("egui");
        let panel_view = ui::PanelView {
            gpu: &self.ctx,
            stats: &self.stats,
            rebuild: &self.rebuild,
            camera: &self.camera.camera,
            aspect: self.surface.aspect(),
            pyramid,
            shadow_map,
            scroll_to_end: self.panel_layout.is_some(),
        };
        let panel = &mut self.panel;
        let mut rebuild_asked = false;
        let mut layout = None;
        self.egui.draw(&self.window, &self.ctx, view, self.surface.size(), |ctx| {
            let output = ui::draw(ctx, panel, &panel_view);
            rebuild_asked |= output.rebuild;
            // A pass egui discards (a new grid's sizing pass) is followed by the one it shows.
            layout = Some((ctx.content_rect(), output.layout));
        });
        if let (Some(log), Some((screen, layout))) = (self.panel_layout.as_mut(), layout) {
            log.record(frame, screen, &layout);
        }
        if rebuild_asked {
            self.rebuild.start(self.panel.requested_objects);
        }
    }
}
