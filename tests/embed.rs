//! The embedding API: a renderer on the caller's device, recording into the caller's encoder
//! over the caller's background, gives the frame the engine's own renderer gives, in the same
//! colours on a target without sRGB encoding; a device created without a feature the engine
//! needs is refused with the typed error naming it.

mod common;

use glam::{Vec3, Vec4};
use multidraw::embed::{EmbedError, EmbedTarget, EmbeddedRenderer};
use multidraw::gpu::context::{ContextError, REQUIRED_FEATURES};
use multidraw::gpu::target::{OffscreenTarget, COLOR_FORMAT};
use multidraw::live::{LiveObject, LiveScene};
use multidraw::mesh::procedural;
use multidraw::scene::{Camera, Material};
use multidraw::{ContextOptions, DrawMode, FrameInput, GpuContext};

const WIDTH: u32 = 128;
const HEIGHT: u32 = 96;
const BACKGROUND: wgpu::Color = wgpu::Color { r: 1.0, g: 0.0, b: 1.0, a: 1.0 };

fn camera() -> Camera {
    Camera {
        position: Vec3::new(0.0, 1.0, 8.0),
        target: Vec3::ZERO,
        up: Vec3::Y,
        fov_y: 60f32.to_radians(),
        near: 0.1,
        far: 50.0,
    }
}

fn scene() -> LiveScene {
    let mut scene = LiveScene::new(camera());
    let cube = scene.add_mesh("cube", procedural::cube()).expect("mesh");
    let sphere = scene.add_mesh("sphere", procedural::uv_sphere(16, 8)).expect("mesh");
    let red = scene.add_material(Material::colored("red", Vec4::new(0.9, 0.2, 0.1, 1.0)));
    let blue = scene.add_material(Material::colored("blue", Vec4::new(0.1, 0.3, 0.9, 1.0)));
    for i in 0..9 {
        let (mesh, material) = if i % 2 == 0 { (cube, red) } else { (sphere, blue) };
        let at = Vec3::new((i % 3) as f32 * 2.0 - 2.0, (i / 3) as f32 * 2.0 - 2.0, 0.0);
        scene.add_object(LiveObject { scale: 0.6, ..LiveObject::new(mesh, material, at) }).expect("object");
    }
    scene
}

/// One frame through the embedding API into a fresh target: the caller's background pass
/// (when `keep_color`), then the engine's, in one encoder the test submits.
fn embedded_frame(
    ctx: &GpuContext,
    engine: &mut EmbeddedRenderer,
    scene: &mut LiveScene,
    format: wgpu::TextureFormat,
    keep_color: bool,
) -> image::RgbaImage {
    let target = OffscreenTarget::with_format(&ctx.device, WIDTH, HEIGHT, format);
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    if keep_color {
        encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("caller background"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &target.color_view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations { load: wgpu::LoadOp::Clear(BACKGROUND), store: wgpu::StoreOp::Store },
            })],
            ..Default::default()
        });
    }
    let embed_target = EmbedTarget { color: &target.color_view, depth: None, width: WIDTH, height: HEIGHT, keep_color };
    let frame = engine.render(&mut encoder, scene, &embed_target, &camera()).expect("embedded frame");
    assert!(frame.frame.is_some(), "a scene with meshes and materials is drawn");
    ctx.queue.submit([encoder.finish()]);
    engine.submitted();
    ctx.wait_idle();
    let image = target.read_rgba(&ctx.device, &ctx.queue);
    common::assert_no_gpu_errors(ctx);
    image
}

#[test]
fn the_embedded_frame_is_the_renderers_frame_over_the_callers_background() {
    let ctx = common::context();
    let mut scene = scene();
    // What `multidraw render` draws: `Renderer::new`, prewarmed, the compute rasteriser on.
    let mut reference = common::renderer(&ctx, &scene.to_scene());
    let want = common::render_image(&ctx, &mut reference, &FrameInput::new(camera(), DrawMode::Gpu), WIDTH, HEIGHT);

    let mut engine = EmbeddedRenderer::new(&ctx.instance, &ctx.adapter, &ctx.device, &ctx.queue, COLOR_FORMAT)
        .expect("the context's device has everything");
    for mode in [DrawMode::Gpu, DrawMode::Cpu, DrawMode::Bundle] {
        engine.mode = mode;
        let got = embedded_frame(&ctx, &mut engine, &mut scene, COLOR_FORMAT, false);
        if mode == DrawMode::Gpu {
            common::assert_same_pixels(&format!("embed-{mode}"), &mode.to_string(), &want, &got);
        } else {
            // The reference's small objects are the compute rasteriser's, whose colours differ
            // from the hardware's by rounding; its composite, a dispatch into this target,
            // encodes sRGB with the exact formula, so a channel may round the other way.
            let beyond = common::pixels_beyond(&want, &got, common::RASTER_TOLERANCE);
            assert_eq!(beyond, 0, "{mode}: {beyond} pixels beyond {} of the gpu frame", common::RASTER_TOLERANCE);
        }
    }

    // Over the caller's background: the objects as before, the background where none is.
    engine.mode = DrawMode::Gpu;
    let over = embedded_frame(&ctx, &mut engine, &mut scene, COLOR_FORMAT, true);
    let mut background = 0;
    for (x, y, pixel) in over.enumerate_pixels() {
        if pixel.0 == [255, 0, 255, 255] {
            background += 1;
        } else {
            assert_eq!(pixel, want.get_pixel(x, y), "pixel ({x}, {y}) is neither the background nor the object");
        }
    }
    assert!(background > 0 && background < (WIDTH * HEIGHT) as usize, "{background} background pixels");
}

/// The embedded renderer has every feature of the engine's own: it prewarms on the caller's
/// queue when asked, its small objects go to the compute rasteriser, and the frames' counters
/// and GPU pass times come back once the caller says it submitted.
#[test]
fn the_embedded_renderer_prewarms_and_reads_back_its_counters_and_pass_times() {
    let ctx = common::context();
    let mut scene = scene();
    let mut engine = EmbeddedRenderer::new(&ctx.instance, &ctx.adapter, &ctx.device, &ctx.queue, COLOR_FORMAT)
        .expect("the context's device has everything");
    assert!(engine.prewarm() > 0.0, "prewarming ran every pipeline and waited");
    for _ in 0..3 {
        embedded_frame(&ctx, &mut engine, &mut scene, COLOR_FORMAT, false);
    }
    let readbacks = engine.collect();
    let last = readbacks.iter().rfind(|r| r.counters.is_some()).expect("the frames' counters came back");
    let counters = last.counters.expect("found above");
    assert_eq!(counters.visible, 9, "every object is in view: {counters:?}");
    assert!(counters.soft > 0, "the compute rasteriser drew the small objects: {counters:?}");
    let times = last.gpu.expect("lavapipe has timestamps: the pass times came back");
    for pass in ["cull", "build", "raster", "main"] {
        assert!(times.get(pass).is_some(), "{pass} was timed: {times:?}");
    }
}

/// A depth buffer the caller gives is theirs to draw over after the frame: it holds the compute
/// rasteriser's pixels too, so the composite is the full-screen pass even into a colour texture
/// a dispatch could write; with the renderer's own depth, the composite is the dispatch.
#[test]
fn a_depth_buffer_the_caller_gives_holds_every_pixel() {
    let ctx = common::context();
    let mut scene = scene();
    let mut engine = EmbeddedRenderer::new(&ctx.instance, &ctx.adapter, &ctx.device, &ctx.queue, COLOR_FORMAT)
        .expect("the context's device has everything");
    let target = OffscreenTarget::new(&ctx.device, WIDTH, HEIGHT);
    assert!(multidraw::passes::deferred::storage_view(&target.color_view).is_some(), "a dispatch could write it");
    for given in [false, true] {
        let depth = given.then_some(&target.depth_view);
        let embed_target =
            EmbedTarget { color: &target.color_view, depth, width: WIDTH, height: HEIGHT, keep_color: false };
        let mut stats = None;
        for _ in 0..2 {
            let mut encoder = ctx.device.create_command_encoder(&Default::default());
            stats = engine.render(&mut encoder, &mut scene, &embed_target, &camera()).expect("embedded frame").frame;
            ctx.queue.submit([encoder.finish()]);
            engine.submitted();
        }
        ctx.wait_idle();
        common::assert_no_gpu_errors(&ctx);
        let stats = stats.expect("a scene with meshes and materials is drawn");
        assert!(stats.deferred && stats.soft, "the frame deferred and ran the compute rasteriser");
        let composite = stats.commands.pass(multidraw::passes::deferred::COMPOSITE_NAME);
        assert_eq!((composite.draw, composite.dispatch), if given { (1, 0) } else { (0, 1) }, "depth given: {given}");
    }
    // The middle object (a small cube the compute rasteriser draws) is in the caller's depth.
    let depth = target.read_depth(&ctx.device, &ctx.queue);
    let readbacks = engine.collect();
    let counters = readbacks.iter().rev().find_map(|r| r.counters).expect("the frames' counters came back");
    assert!(counters.soft > 0, "the compute rasteriser drew the small objects: {counters:?}");
    let clip = camera().view_proj(WIDTH as f32 / HEIGHT as f32) * Vec3::ZERO.extend(1.0);
    let (x, y) = ((clip.x / clip.w * 0.5 + 0.5) * WIDTH as f32, (0.5 - clip.y / clip.w * 0.5) * HEIGHT as f32);
    let at = depth[y as usize * WIDTH as usize + x as usize];
    assert!(at < 1.0, "the depth buffer holds the middle object's depth ({at})");
}

/// A target without sRGB encoding (as many swapchains are) shows the colours an sRGB target
/// shows: the shaders encode what the hardware would, background included. Bytes within 1:
/// the hardware's encoding on store and the shader's formula may round apart.
#[test]
fn a_target_without_srgb_encoding_shows_the_same_colours() {
    let ctx = common::context();
    let mut scene = scene();
    let mut srgb_engine = EmbeddedRenderer::new(&ctx.instance, &ctx.adapter, &ctx.device, &ctx.queue, COLOR_FORMAT)
        .expect("the context's device has everything");
    let want = embedded_frame(&ctx, &mut srgb_engine, &mut scene, COLOR_FORMAT, false);
    for format in [wgpu::TextureFormat::Rgba8Unorm, wgpu::TextureFormat::Bgra8Unorm] {
        let mut engine = EmbeddedRenderer::new(&ctx.instance, &ctx.adapter, &ctx.device, &ctx.queue, format)
            .expect("the context's device has everything");
        for mode in [DrawMode::Gpu, DrawMode::Cpu] {
            engine.mode = mode;
            let got = embedded_frame(&ctx, &mut engine, &mut scene, format, false);
            let mut worst = 0;
            let mut differing = 0;
            for (a, b) in want.pixels().zip(got.pixels()) {
                let most = a.0.iter().zip(b.0).map(|(&x, y)| x.abs_diff(y)).max().unwrap_or(0);
                worst = worst.max(most);
                differing += (most > 1) as u32;
            }
            if worst > 1 {
                let (actual, diff) = common::write_mismatch(&format!("embed-{format:?}-{mode}"), &want, &got);
                panic!(
                    "{format:?}, {mode}: {differing} pixels differ by more than 1 (at most {worst}) from the sRGB \
                     target's: {} {}",
                    actual.display(),
                    diff.display()
                );
            }
        }
    }
}

#[test]
fn a_device_without_a_needed_feature_is_refused_by_name() {
    let instance = GpuContext::create_instance(&ContextOptions::default());
    let adapter = pollster::block_on(wgpu::util::initialize_adapter_from_env_or_default(&instance, None))
        .unwrap_or_else(|e| panic!("GPU tests need a Vulkan adapter: {e}\n(run `make test`)"));
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor::default()))
        .expect("a device with no features");
    assert!(!device.features().contains(REQUIRED_FEATURES));
    match EmbeddedRenderer::new(&instance, &adapter, &device, &queue, COLOR_FORMAT) {
        Err(EmbedError::Device(ContextError::FeatureNotEnabled { feature, .. })) => {
            assert_eq!(feature, "INDIRECT_FIRST_INSTANCE")
        }
        Err(other) => panic!("expected the missing feature, got {other}"),
        Ok(_) => panic!("a device without INDIRECT_FIRST_INSTANCE was accepted"),
    }
}

/// `examples/embed.rs` runs headless: its own device, its own background pass, multidraw's
/// fountain on top, objects spawned, moved and removed every frame.
#[test]
fn the_embed_example_runs_headless() {
    // Examples are built next to the test binaries' `deps` folder (`cargo test --all-targets`,
    // as `make test` runs it, builds them first).
    let exe = std::env::current_exe().expect("test binary path");
    let example = exe.parent().and_then(|deps| deps.parent()).expect("target profile folder").join("examples/embed");
    assert!(
        example.exists(),
        "{} is missing: build it with `cargo build --examples` (or run `make test`)",
        example.display()
    );
    let output = std::process::Command::new(&example)
        .args(["--headless", "--frames", "150"])
        .output()
        .expect("run the embed example");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "embed example failed: {stdout}\n{stderr}");
    // 150 frames of 40 spawns, 3 s (180 frames) of life: every spawned drop is still alive.
    assert!(stdout.contains("150 frames") && stdout.contains("6000 drops alive"), "{stdout}\n{stderr}");
}
