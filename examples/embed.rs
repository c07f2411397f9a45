//! multidraw inside another wgpu application: this program owns its instance, device, queue
//! and window surface, draws its own background pass, then lets multidraw draw a fountain
//! on top in the same command encoder. Every frame it spawns objects, moves every live one
//! along its arc and removes those older than their lifetime, all through handles.
//!
//! `cargo run --release --example embed` opens a window; `-- --headless --frames N` renders N
//! frames into an offscreen texture instead (the test does this), `-- --puffin-http` serves
//! puffin frames for `puffin_viewer`.

use std::sync::Arc;
use std::time::Instant;

use glam::{Quat, Vec3, Vec4};
use multidraw::embed::{EmbedTarget, EmbeddedRenderer};
use multidraw::live::{LiveObject, LiveScene, MaterialHandle, MeshHandle, ObjectHandle};
use multidraw::mesh::procedural;
use multidraw::scene::{Camera, Material};
use winit::application::ApplicationHandler;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::window::{Window, WindowId};

/// Objects spawned per frame.
const SPAWN_PER_FRAME: usize = 40;
/// Seconds an object lives.
const LIFETIME: f32 = 3.0;
const GRAVITY: f32 = -9.8;
/// Simulated seconds per frame (fixed, so headless runs are repeatable).
const STEP: f32 = 1.0 / 60.0;

/// The application's GPU: everything multidraw is handed, nothing it made.
struct Gpu {
    instance: wgpu::Instance,
    adapter: wgpu::Adapter,
    device: wgpu::Device,
    queue: wgpu::Queue,
}

impl Gpu {
    fn new(instance: wgpu::Instance, surface: Option<&wgpu::Surface<'_>>) -> Gpu {
        let adapter = pollster::block_on(
            instance
                .request_adapter(&wgpu::RequestAdapterOptions { compatible_surface: surface, ..Default::default() }),
        )
        .expect("a GPU adapter (on Linux without a GPU: apt-get install mesa-vulkan-drivers)");
        // What multidraw needs: its required features, and the optional ones it uses when present.
        let features = multidraw::gpu::context::REQUIRED_FEATURES
            | (adapter.features() & multidraw::gpu::context::OPTIONAL_FEATURES);
        let (device, queue) = pollster::block_on(
            adapter.request_device(&wgpu::DeviceDescriptor { required_features: features, ..Default::default() }),
        )
        .expect("a device with INDIRECT_FIRST_INSTANCE");
        Gpu { instance, adapter, device, queue }
    }
}

/// One fountain droplet: its handle, where it started, its velocity and its age.
struct Droplet {
    handle: ObjectHandle,
    origin: Vec3,
    velocity: Vec3,
    age: f32,
}

/// The simulation: a live scene and its drops.
struct Fountain {
    scene: LiveScene,
    meshes: Vec<MeshHandle>,
    materials: Vec<MaterialHandle>,
    drops: Vec<Droplet>,
    /// splitmix64 state.
    random: u64,
}

impl Fountain {
    fn new() -> Fountain {
        let camera = Camera {
            position: Vec3::new(0.0, 6.0, 22.0),
            target: Vec3::new(0.0, 5.0, 0.0),
            up: Vec3::Y,
            fov_y: 55f32.to_radians(),
            near: 0.1,
            far: 200.0,
        };
        let mut scene = LiveScene::new(camera);
        let meshes = vec![
            scene.add_mesh("cube", procedural::cube()).expect("cube"),
            scene.add_mesh("sphere", procedural::uv_sphere(16, 8)).expect("sphere"),
            scene.add_mesh("torus", procedural::torus(24, 12)).expect("torus"),
        ];
        let colors = [Vec4::new(0.95, 0.45, 0.1, 1.0), Vec4::new(0.2, 0.6, 0.95, 1.0), Vec4::new(0.4, 0.9, 0.3, 1.0)];
        let materials = colors.iter().map(|&c| scene.add_material(Material::colored("drop", c))).collect();
        Fountain { scene, meshes, materials, drops: Vec::new(), random: 1 }
    }

    fn random(&mut self) -> f32 {
        self.random = self.random.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.random;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 40) as f32 / (1u64 << 24) as f32
    }

    /// One step: age and move every drop, remove the old ones, spawn new ones.
    fn step(&mut self) {
        puffin::profile_function!();
        let scene = &mut self.scene;
        self.drops.retain_mut(|drop| {
            drop.age += STEP;
            if drop.age > LIFETIME {
                scene.remove_object(drop.handle).expect("a live drop's handle");
                return false;
            }
            let at = drop.origin + drop.velocity * drop.age + Vec3::Y * (0.5 * GRAVITY * drop.age * drop.age);
            let spin = Quat::from_rotation_y(drop.age * 3.0) * Quat::from_rotation_x(drop.age * 2.0);
            scene.set_transform(drop.handle, at, spin, 0.25).expect("a live drop's handle");
            true
        });
        for _ in 0..SPAWN_PER_FRAME {
            let angle = self.random() * std::f32::consts::TAU;
            let spread = 1.0 + 2.5 * self.random();
            let velocity = Vec3::new(angle.cos() * spread, 11.0 + 3.0 * self.random(), angle.sin() * spread);
            let (mesh, material) = ((self.random() * 3.0) as usize % 3, (self.random() * 3.0) as usize % 3);
            let (mesh, material) = (self.meshes[mesh], self.materials[material]);
            let object = LiveObject { scale: 0.25, ..LiveObject::new(mesh, material, Vec3::ZERO) };
            let handle = self.scene.add_object(object).expect("the fountain's own mesh and material");
            self.drops.push(Droplet { handle, origin: Vec3::ZERO, velocity, age: 0.0 });
        }
    }
}

/// The application's own pass: a plain background, cleared.
fn background_pass(encoder: &mut wgpu::CommandEncoder, view: &wgpu::TextureView) {
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("application background"),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(wgpu::Color { r: 0.05, g: 0.07, b: 0.12, a: 1.0 }),
                store: wgpu::StoreOp::Store,
            },
        })],
        ..Default::default()
    });
}

/// One frame: simulate, the application's pass, multidraw's, submit.
fn frame(
    gpu: &Gpu,
    engine: &mut EmbeddedRenderer,
    fountain: &mut Fountain,
    view: &wgpu::TextureView,
    size: (u32, u32),
) {
    puffin::profile_function!();
    fountain.step();
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    background_pass(&mut encoder, view);
    let target = EmbedTarget { color: view, depth: None, width: size.0, height: size.1, keep_color: true };
    let camera = fountain.scene.camera;
    engine.render(&mut encoder, &mut fountain.scene, &target, &camera).expect("the fountain fits the device");
    gpu.queue.submit([encoder.finish()]);
}

fn headless(frames: u64) {
    let instance = wgpu::Instance::new(&wgpu::InstanceDescriptor::from_env_or_default());
    let gpu = Gpu::new(instance, None);
    let format = wgpu::TextureFormat::Rgba8UnormSrgb;
    let (width, height) = (320, 240);
    let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("offscreen"),
        size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
        view_formats: &[],
    });
    let view = texture.create_view(&Default::default());
    let mut engine = EmbeddedRenderer::new(&gpu.instance, &gpu.adapter, &gpu.device, &gpu.queue, format)
        .expect("multidraw on this device");
    let mut fountain = Fountain::new();
    let start = Instant::now();
    for _ in 0..frames {
        frame(&gpu, &mut engine, &mut fountain, &view, (width, height));
        let _ = gpu.device.poll(wgpu::PollType::wait_indefinitely());
        puffin::GlobalProfiler::lock().new_frame();
    }
    println!(
        "{frames} frames in {:.2} s; {} drops alive in {} slots",
        start.elapsed().as_secs_f64(),
        fountain.drops.len(),
        fountain.scene.object_capacity()
    );
}

/// The windowed application: created on `resumed`, as winit 0.30 wants.
#[derive(Default)]
struct App {
    state: Option<WindowState>,
}

struct WindowState {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    gpu: Gpu,
    engine: EmbeddedRenderer,
    fountain: Fountain,
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.state.is_some() {
            return;
        }
        let attributes = Window::default_attributes().with_title("multidraw embedded: fountain");
        let window = Arc::new(event_loop.create_window(attributes).expect("a window"));
        let instance = wgpu::Instance::new(&wgpu::InstanceDescriptor::from_env_or_default());
        let surface = instance.create_surface(window.clone()).expect("a surface for the window");
        let gpu = Gpu::new(instance, Some(&surface));
        let size = window.inner_size();
        let config = surface
            .get_default_config(&gpu.adapter, size.width.max(1), size.height.max(1))
            .expect("the adapter can present to the window");
        surface.configure(&gpu.device, &config);
        let engine = EmbeddedRenderer::new(&gpu.instance, &gpu.adapter, &gpu.device, &gpu.queue, config.format)
            .expect("multidraw on this device");
        self.state = Some(WindowState { window, surface, config, gpu, engine, fountain: Fountain::new() });
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(state) = self.state.as_mut() else { return };
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) if size.width > 0 && size.height > 0 => {
                state.config.width = size.width;
                state.config.height = size.height;
                state.surface.configure(&state.gpu.device, &state.config);
            }
            WindowEvent::RedrawRequested => {
                let Ok(texture) = state.surface.get_current_texture() else {
                    state.surface.configure(&state.gpu.device, &state.config);
                    return;
                };
                let view = texture.texture.create_view(&Default::default());
                let size = (state.config.width, state.config.height);
                frame(&state.gpu, &mut state.engine, &mut state.fountain, &view, size);
                texture.present();
                puffin::GlobalProfiler::lock().new_frame();
                state.window.request_redraw();
            }
            _ => {}
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    puffin::set_scopes_on(true);
    let _server = args
        .iter()
        .any(|a| a == "--puffin-http")
        .then(|| multidraw::profiling::serve(multidraw::profiling::DEFAULT_HTTP_ADDRESS).expect("serve puffin frames"));
    if args.iter().any(|a| a == "--headless") {
        let frames = args
            .iter()
            .position(|a| a == "--frames")
            .and_then(|i| args.get(i + 1))
            .map_or(120, |n| n.parse().expect("--frames takes a number"));
        headless(frames);
        return;
    }
    let event_loop = EventLoop::new().expect("an event loop (a display)");
    event_loop.run_app(&mut App::default()).expect("the event loop");
}
