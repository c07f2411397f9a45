//! Deferred shading (`passes::deferred`): where the main pass only names its opaque pixels and a
//! compute dispatch shades them, the frame shows what the main pass shading every fragment
//! shows, up to the rounding of interpolated values (the shade dispatch's weights are its own,
//! 2D homogeneous ones) and the texture levels its quad derivatives pick, on every kind of
//! surface the scenes have (textured, normal-mapped, masked, double-sided, blended over, lit by
//! the sun through its shadow cascades), for cameras that cut big triangles at the eye plane; a
//! scene the deferred variants cannot shade (vertex colours, a second coordinate set) is drawn
//! right after `set_scene`; and the frame that defers records its shading and composite.

mod common;

use std::path::Path;

use multidraw::passes::deferred;
use multidraw::scene::{file, Camera, Scene};
use multidraw::{Detail, DrawMode, FrameInput, GpuContext, Renderer};

/// A channel apart by more than this (out of 255) counts as a different pixel: the shading's
/// inputs are interpolated with other weights than the hardware's (see the module docs).
const CHANNEL_TOLERANCE: u8 = 8;
/// Share of the pixels that may differ by more than the tolerance: texels whose level the
/// derivatives put the other side of a mip boundary, depth ties.
const MAX_FRACTION: f64 = 0.002;

const WIDTH: u32 = 320;
const HEIGHT: u32 = 180;

fn shipped(path: &str) -> Scene {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join(path);
    file::load(&full).unwrap_or_else(|e| panic!("{path}: {}", e.chain()))
}

/// The second frame of `input` with deferred shading on and off (a renderer each), whether the
/// deferred one deferred, and whether it drew with the compute rasteriser (whose pixels a
/// deferred frame's composite resolves, where a forward frame's resolve does).
fn both(ctx: &GpuContext, scene: &Scene, input: &FrameInput) -> (image::RgbaImage, image::RgbaImage, bool, bool) {
    let mut images = Vec::new();
    let (mut deferred_ran, mut soft_ran) = (false, false);
    for on in [true, false] {
        let mut renderer = common::renderer(ctx, scene);
        assert!(renderer.deferred_shading(), "lavapipe has primitive_index: the renderer can defer");
        let input = FrameInput { detail: Detail { deferred: on, ..input.detail }, ..*input };
        common::render_image(ctx, &mut renderer, &input, WIDTH, HEIGHT);
        let target = multidraw::gpu::target::OffscreenTarget::new(&ctx.device, WIDTH, HEIGHT);
        let stats = renderer.render(ctx, &target.frame_target(), &input);
        ctx.wait_idle();
        images.push(target.read_rgba(&ctx.device, &ctx.queue));
        common::assert_no_gpu_errors(ctx);
        let shaded = stats.commands.iter().any(|(name, _)| *name == deferred::NAME);
        assert_eq!(stats.deferred, on, "the frame reports what it did");
        assert_eq!(shaded, on, "a deferred frame records its shading, a forward one none");
        deferred_ran |= on && stats.deferred;
        soft_ran |= on && stats.soft;
    }
    let forward = images.pop().expect("two images");
    (images.pop().expect("two images"), forward, deferred_ran, soft_ran)
}

fn assert_close(name: &str, deferred: &image::RgbaImage, forward: &image::RgbaImage) {
    let far = common::pixels_beyond(deferred, forward, CHANNEL_TOLERANCE);
    let (exact, _) = common::differing_pixels(deferred, forward);
    let bound = (MAX_FRACTION * f64::from(WIDTH * HEIGHT)) as usize;
    eprintln!("{name}: {exact} pixels differ at all, {far} by more than {CHANNEL_TOLERANCE}/255 (bound {bound})");
    if far > bound {
        let (actual, diff) = common::write_mismatch(&format!("deferred-{name}"), forward, deferred);
        panic!("{name}: {far} pixels differ (bound {bound}); deferred {}, diff {}", actual.display(), diff.display());
    }
}

#[test]
fn deferred_frames_show_what_forward_frames_show() {
    let ctx = common::context();
    // The stress scene: textured, normal-mapped, masked, double-sided and blended materials,
    // the compute rasteriser's small objects; shadows on in the gpu mode, the CPU baseline too.
    let stress = common::scene(5_000, true);
    for (mode, shadows) in [(DrawMode::Gpu, 4), (DrawMode::Cpu, 0), (DrawMode::GpuNocount, 2)] {
        let input = FrameInput { shadows, ..common::input(&stress, mode, 0.5) };
        let (deferred, forward, _, soft) = both(&ctx, &stress, &input);
        if mode == DrawMode::Gpu {
            assert!(soft, "stress-{mode}: the compute rasteriser drew, so the composite resolved its pixels");
        }
        assert_close(&format!("stress-{mode}-{shadows}"), &deferred, &forward);
    }
    // A floor reaching behind the camera (its triangles cut at the eye plane), a textured
    // glTF crate, in daylight with shadows; then from low over the floor, looking along it.
    let gltf = shipped("gltf.toml");
    let low =
        Camera { position: glam::Vec3::new(3.0, 0.6, 9.0), target: glam::Vec3::new(-4.0, 0.3, -6.0), ..gltf.camera };
    for (name, camera) in [("gltf", gltf.camera), ("gltf-low", low)] {
        let input = FrameInput { shadows: 4, ..FrameInput::new(camera, DrawMode::Gpu) };
        let (deferred, forward, ran, _) = both(&ctx, &gltf, &input);
        assert!(ran, "{name}: the deferred frame deferred");
        assert_close(name, &deferred, &forward);
    }
    // PBR spheres of every roughness and metalness, an emissive and a blended set.
    let materials = shipped("materials.toml");
    let input = FrameInput { shadows: 4, ..FrameInput::new(materials.camera, DrawMode::Gpu) };
    let (deferred, forward, _, _) = both(&ctx, &materials, &input);
    assert_close("materials", &deferred, &forward);
}

/// A renderer made for a scene it can defer, given one whose meshes have vertex colours (which
/// the shade dispatch does not read), draws it as a renderer made for it does.
#[test]
fn a_new_scene_the_deferred_variants_cannot_shade_is_drawn_right() {
    let ctx = common::context();
    let first = common::scene(1_000, false);
    let colors = shipped("models/BoxVertexColors/BoxVertexColors.gltf");
    let input = FrameInput::new(colors.camera, DrawMode::Gpu);
    let mut reused = common::renderer(&ctx, &first);
    common::render_image(&ctx, &mut reused, &common::input(&first, DrawMode::Gpu, 0.0), WIDTH, HEIGHT);
    reused.set_scene(&ctx, &colors).expect("the new scene uploads");
    let mut fresh: Renderer = common::renderer(&ctx, &colors);
    let want = {
        common::render_image(&ctx, &mut fresh, &input, WIDTH, HEIGHT);
        common::render_image(&ctx, &mut fresh, &input, WIDTH, HEIGHT)
    };
    common::render_image(&ctx, &mut reused, &input, WIDTH, HEIGHT);
    let got = common::render_image(&ctx, &mut reused, &input, WIDTH, HEIGHT);
    common::assert_same_pixels("deferred-set-scene", "the reused renderer's frame", &want, &got);
}

/// Where the composite runs in compute, the main pass clears only the depth buffer: the
/// composite writes every pixel's colour (the clear colour where nothing was drawn), and a
/// pixel's `ids` count only where the depth buffer holds a surface. So a frame drawn over a
/// target whose colour and `ids` still hold another camera's surfaces shows what a fresh
/// target shows: no stale surface, no stale deferred pixel. For each mode, the camera turns
/// from the scene to the sky (most pixels the first frame drew are empty in the second); a
/// fresh renderer and target draw the second camera alone.
#[test]
fn a_frame_over_another_cameras_pixels_shows_what_a_fresh_target_shows() {
    let ctx = common::context();
    let gltf = shipped("gltf.toml");
    let towards_sky = glam::Vec3::new(0.3, 1.2, -1.0);
    let sky = Camera { target: gltf.camera.position + 10.0 * towards_sky, ..gltf.camera };
    for mode in [DrawMode::Gpu, DrawMode::Cpu] {
        let input = |camera| FrameInput { shadows: 4, ..FrameInput::new(camera, mode) };
        let mut fresh = common::renderer(&ctx, &gltf);
        common::render_image(&ctx, &mut fresh, &input(sky), WIDTH, HEIGHT);
        let want = common::render_image(&ctx, &mut fresh, &input(sky), WIDTH, HEIGHT);

        let mut reused = common::renderer(&ctx, &gltf);
        let target = multidraw::gpu::target::OffscreenTarget::new(&ctx.device, WIDTH, HEIGHT);
        let mut frame = |camera| {
            let stats = reused.render(&ctx, &target.frame_target(), &input(camera));
            ctx.wait_idle();
            common::assert_no_gpu_errors(&ctx);
            assert!(stats.deferred, "{mode}: the frame deferred, so it composited (in compute: the target allows it)");
            target.read_rgba(&ctx.device, &ctx.queue)
        };
        let scene = frame(gltf.camera);
        frame(sky);
        let got = frame(sky);
        // The test can fail: the first camera drew where the second sees nothing.
        let (changed, _) = common::differing_pixels(&scene, &want);
        assert!(changed > (WIDTH * HEIGHT / 4) as usize, "{mode}: the two cameras see different pixels ({changed})");
        common::assert_same_pixels(&format!("deferred-reused-{mode}"), "the reused target's frame", &want, &got);
    }
}
