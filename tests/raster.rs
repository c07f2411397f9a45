//! The compute rasteriser (`passes::raster`) draws what the hardware draws: the default scene
//! with small objects drawn by it (its masked, textured, normal-mapped lattice material among
//! them: alpha test, texture levels and normal maps as the draw shader has them) equals the same
//! frame drawn by the hardware alone, up to the rounding of interpolated normals (a channel 1 or
//! 2 out of 255 apart where a value sits on a rounding edge) and depth ties, at odd sizes and
//! across resizes, while the counters show it drew most of the objects. Where it cannot judge sizes (frozen culling) or has nothing to
//! draw from (per-object draws, the CPU modes), it is off.

mod common;

use multidraw::frame::RendererOptions;
use multidraw::gpu::target::COLOR_FORMAT;
use multidraw::passes::cull::GpuCounters;
use multidraw::passes::raster;
use multidraw::scene::{file, Camera};
use multidraw::{Detail, DrawMode, FrameInput, GpuContext, Renderer};

/// A channel apart by more than this (out of 255) counts as a different pixel.
const CHANNEL_TOLERANCE: u8 = 2;
/// Share of the pixels that may differ by more than the tolerance (depth ties, and the edge
/// samples that 1/256-pixel snapping of a slightly different float puts on the other side).
const MAX_FRACTION: f64 = 0.001;

fn beyond(a: &image::RgbaImage, b: &image::RgbaImage, tolerance: u8) -> usize {
    a.pixels().zip(b.pixels()).filter(|(p, q)| p.0.iter().zip(q.0).any(|(x, y)| x.abs_diff(y) > tolerance)).count()
}

fn latest_counters(ctx: &GpuContext, renderer: &mut Renderer) -> GpuCounters {
    renderer.collect(&ctx.device).into_iter().filter_map(|r| r.counters).next_back().expect("counters read back")
}

/// The frame at `size` drawn with and without the compute rasteriser, by one renderer each (so
/// occlusion culling's first phase starts from the same kind of frame), twice so the second
/// frame has a first phase.
fn compare(
    ctx: &GpuContext,
    (soft, hardware): (&mut Renderer, &mut Renderer),
    input: &FrameInput,
    (width, height): (u32, u32),
    name: &str,
) -> (GpuCounters, GpuCounters) {
    let with = FrameInput { detail: Detail { soft: true, ..input.detail }, ..*input };
    let without = FrameInput { detail: Detail { soft: false, ..input.detail }, ..*input };
    let mut images = Vec::new();
    let mut counters = Vec::new();
    for (renderer, input) in [(soft, &with), (hardware, &without)] {
        common::render_image(ctx, renderer, input, width, height);
        images.push(common::render_image(ctx, renderer, input, width, height));
        counters.push(latest_counters(ctx, renderer));
    }
    let (exact, _) = common::differing_pixels(&images[0], &images[1]);
    let far = beyond(&images[0], &images[1], CHANNEL_TOLERANCE);
    let bound = (MAX_FRACTION * f64::from(width * height)) as usize;
    eprintln!(
        "{name} {width}x{height}: {exact} pixels differ at all, {far} by more than {CHANNEL_TOLERANCE}/255 (bound \
         {bound}); {} of {} drawn objects by the compute rasteriser",
        counters[0].soft,
        counters[0].drawn_total()
    );
    if far > bound {
        let (actual, diff) = common::write_mismatch(&format!("raster-{name}-{width}x{height}"), &images[1], &images[0]);
        panic!(
            "{name} {width}x{height}: {far} pixels differ (bound {bound}); actual {}, diff {}",
            actual.display(),
            diff.display()
        );
    }
    (counters[0], counters[1])
}

fn renderers(ctx: &GpuContext, scene: &multidraw::scene::Scene) -> (Renderer, Renderer) {
    assert!(
        ctx.device.features().contains(raster::FEATURES),
        "this adapter lacks {:?}: the compute rasteriser cannot be tested on it",
        raster::FEATURES - ctx.device.features()
    );
    let (soft, hardware) = (common::renderer(ctx, scene), common::renderer(ctx, scene));
    assert!(soft.raster.is_some(), "a renderer on an adapter with 64-bit atomics has a compute rasteriser");
    (soft, hardware)
}

#[test]
fn compute_raster_draws_what_the_hardware_draws() {
    let ctx = common::context();
    let scene = file::default_scene();
    let (mut soft, mut hardware) = renderers(&ctx, &scene);
    for time in [0.0, 2.5] {
        let input = FrameInput { time, ..FrameInput::new(scene.camera, DrawMode::Gpu) };
        // Occlusion culling on: the images. Off: the same objects are drawn both ways, so the
        // counters agree exactly (with it on, the pyramid sees the same depth up to rounding).
        compare(&ctx, (&mut soft, &mut hardware), &input, (640, 360), &format!("t{time}"));
        let no_occlusion = FrameInput { detail: Detail { occlusion: false, ..input.detail }, ..input };
        let (with, without) =
            compare(&ctx, (&mut soft, &mut hardware), &no_occlusion, (640, 360), &format!("t{time}-single"));
        assert_eq!(without.soft, 0, "soft off draws nothing by the compute rasteriser");
        assert!(
            with.soft * 2 > with.drawn_total(),
            "t={time}: the compute rasteriser drew {} of {} objects, expected most of the default scene's",
            with.soft,
            with.drawn_total()
        );
        assert_eq!(
            GpuCounters { soft: 0, soft_early: 0, ..with },
            without,
            "t={time}: the same objects, levels and triangles"
        );
    }
}

#[test]
fn odd_sizes_and_resizes_keep_the_compute_raster_exact() {
    let ctx = common::context();
    let scene = file::default_scene();
    let (mut soft, mut hardware) = renderers(&ctx, &scene);
    let input = FrameInput { time: 1.0, ..FrameInput::new(scene.camera, DrawMode::Gpu) };
    // An odd size, a smaller one (the visibility buffer is made again), and back.
    for size in [(1000, 563), (283, 211), (1000, 563)] {
        let (with, _) = compare(&ctx, (&mut soft, &mut hardware), &input, size, "resize");
        assert!(with.soft > 0, "{size:?}: nothing went to the compute rasteriser");
    }
    // The no-count mode culls into batches too.
    let nocount = FrameInput { mode: DrawMode::GpuNocount, ..input };
    compare(&ctx, (&mut soft, &mut hardware), &nocount, (640, 360), "gpu-nocount");
}

/// A 150° view from inside the objects: off the view axis a sphere's image stretches (by
/// 1 / cos² of the angle), so the objects the cull pass lists must be judged by where they are
/// on screen, or their triangles overflow the raster pass's window and go missing.
#[test]
fn a_wide_view_keeps_the_compute_raster_exact() {
    let ctx = common::context();
    let mut scene = common::scene(20_000, false);
    scene.camera = Camera {
        position: glam::Vec3::ZERO,
        target: glam::Vec3::new(1.0, 0.2, 0.3),
        fov_y: 150f32.to_radians(),
        ..scene.camera
    };
    let (mut soft, mut hardware) = renderers(&ctx, &scene);
    let input = FrameInput::new(scene.camera, DrawMode::Gpu);
    let (with, _) = compare(&ctx, (&mut soft, &mut hardware), &input, (640, 360), "wide");
    assert!(with.soft > 0, "nothing went to the compute rasteriser");
}

#[test]
fn the_compute_raster_is_off_where_it_cannot_judge_or_draw() {
    let ctx = common::context();
    let scene = common::scene(2_000, true);
    let renderer = common::renderer(&ctx, &scene);
    let input = FrameInput::new(scene.camera, DrawMode::Gpu);
    assert!(renderer.soft_raster(&input));
    assert!(renderer.soft_raster(&FrameInput { mode: DrawMode::GpuNocount, ..input }));
    for mode in [DrawMode::GpuPerObject, DrawMode::Cpu, DrawMode::Bundle] {
        assert!(!renderer.soft_raster(&FrameInput { mode, ..input }), "{mode}: no batches to list small objects from");
    }
    let frozen = Camera { fov_y: scene.camera.fov_y * 0.5, ..scene.camera };
    assert!(!renderer.soft_raster(&FrameInput { cull_camera: Some(frozen), ..input }), "frozen culling");
    assert!(!renderer.soft_raster(&FrameInput { detail: Detail::FULL, ..input }), "full detail is the hardware alone");
    let options = RendererOptions { soft_raster: false, ..RendererOptions::new(COLOR_FORMAT) };
    let without = Renderer::with_options(&ctx, &scene, &options).expect("renderer");
    assert!(without.raster.is_none() && !without.soft_raster(&input));
}

/// A CPU adapter's raster pipelines walk a triangle's box in one loop over its pixels, a GPU's
/// in a loop over rows (`raster::flat_box`). Both cover the same pixels in the same order:
/// forced each way here, the frame, its shadow cascades' small casters included, is the same
/// to the bit, and (`compare`, above) what the hardware draws.
#[test]
fn both_walks_of_a_triangles_box_draw_the_same_pixels() {
    let ctx = common::context();
    let scene = file::default_scene();
    let detail = Detail { soft: true, auto_soft: false, occlusion: true, auto_occlusion: false, ..Detail::default() };
    let input = FrameInput { time: 1.5, detail, ..FrameInput::new(scene.camera, DrawMode::Gpu) }.with_shadows(4);
    let mut images = Vec::new();
    for walk in ["on", "off"] {
        std::env::set_var("MULTIDRAW_FLAT_BOX", walk);
        assert_eq!(raster::flat_box(wgpu::DeviceType::Cpu), walk == "on", "the switch reaches the pipelines");
        let (mut soft, mut hardware) = renderers(&ctx, &scene);
        compare(&ctx, (&mut soft, &mut hardware), &input, (640, 360), &format!("flat-box-{walk}"));
        images.push(common::render_image(&ctx, &mut soft, &input, 640, 360));
    }
    std::env::remove_var("MULTIDRAW_FLAT_BOX");
    let (exact, _) = common::differing_pixels(&images[0], &images[1]);
    if exact > 0 {
        let (actual, diff) = common::write_mismatch("raster-box-walks", &images[1], &images[0]);
        panic!("{exact} pixels differ between the walks; actual {}, diff {}", actual.display(), diff.display());
    }
}
