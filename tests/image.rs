//! The GPU-driven frame equals the CPU-recorded baseline frame of the same scene and camera.
//!
//! Tolerance: the modes draw the same triangles with the same pipelines in a different order
//! (per batch vs per object, and atomic slot order inside a batch). With a `Less` depth test,
//! order only matters where two objects produce the *same* depth at a pixel, which for
//! randomly placed, interpenetrating objects happens on a handful of pixels along intersection
//! lines; what lavapipe gave is in docs/BENCHMARKS.md § "Depth ties between modes" (each count
//! is printed with `--nocapture`). The bound below, 0.1% of the pixels, leaves room for rasterisers that
//! break such ties differently, and stays far below what any missing or extra object causes (one small
//! object covers tens to thousands of pixels).

mod common;

use multidraw::scene::Camera;
use multidraw::{ContextOptions, DrawMode, FrameInput};

const WIDTH: u32 = 320;
const HEIGHT: u32 = 240;
const MAX_DIFFERING: usize = (WIDTH * HEIGHT / 1000) as usize;

fn assert_same(name: &str, expected: &image::RgbaImage, actual: &image::RgbaImage) {
    let (count, bounds) = common::differing_pixels(expected, actual);
    if count > MAX_DIFFERING {
        let (actual_path, diff_path) = common::write_mismatch(name, expected, actual);
        panic!(
            "{name}: {count} pixels differ (bound {MAX_DIFFERING}), within {bounds:?}; actual: {}, diff: {}",
            actual_path.display(),
            diff_path.display()
        );
    }
    eprintln!("{name}: {count} differing pixels (bound {MAX_DIFFERING})");
}

fn coverage(image: &image::RgbaImage) -> usize {
    let background = image.get_pixel(0, 0);
    image.pixels().filter(|p| *p != background).count()
}

#[test]
fn every_mode_draws_the_baseline_image() {
    let ctx = common::context();
    let scene = common::scene(5_000, true);
    let mut renderer = common::renderer(&ctx, &scene);
    for time in [0.0, 4.5] {
        let baseline =
            common::render_image(&ctx, &mut renderer, &common::input(&scene, DrawMode::Cpu, time), WIDTH, HEIGHT);
        assert!(coverage(&baseline) > (WIDTH * HEIGHT / 4) as usize, "the baseline frame is mostly empty");
        for mode in [DrawMode::Gpu, DrawMode::GpuNocount, DrawMode::GpuPerObject] {
            let image = common::render_image(&ctx, &mut renderer, &common::input(&scene, mode, time), WIDTH, HEIGHT);
            assert_same(&format!("{mode}-t{time}"), &baseline, &image);
        }
    }
}

#[test]
fn bundle_draws_the_baseline_image_of_a_static_scene() {
    let ctx = common::context();
    let scene = common::scene(5_000, false);
    let mut renderer = common::renderer(&ctx, &scene);
    let baseline = common::render_image(&ctx, &mut renderer, &common::input(&scene, DrawMode::Cpu, 0.0), WIDTH, HEIGHT);
    for _ in 0..2 {
        let image =
            common::render_image(&ctx, &mut renderer, &common::input(&scene, DrawMode::Bundle, 0.0), WIDTH, HEIGHT);
        assert_same("bundle", &baseline, &image);
    }
}

#[test]
fn indirect_validation_does_not_change_the_image() {
    // With wgpu's indirect validation on, draws the engine wrote out of range would be
    // dropped: equal images mean it had nothing to drop.
    let scene = common::scene(5_000, true);
    let images: Vec<_> = [false, true]
        .into_iter()
        .map(|validate_indirect| {
            let ctx = common::context_with(&ContextOptions { validate_indirect, ..Default::default() });
            assert_eq!(ctx.indirect_validation, validate_indirect);
            let mut renderer = common::renderer(&ctx, &scene);
            common::render_image(&ctx, &mut renderer, &common::input(&scene, DrawMode::GpuNocount, 2.0), WIDTH, HEIGHT)
        })
        .collect();
    assert_same("validation-on", &images[0], &images[1]);
}

#[test]
fn culling_removes_only_invisible_objects() {
    let ctx = common::context();
    let scene = common::scene(20_000, true);
    let mut renderer = common::renderer(&ctx, &scene);
    let input = common::input(&scene, DrawMode::Gpu, 1.0);
    let culled = common::render_image(&ctx, &mut renderer, &input, WIDTH, HEIGHT);
    let visible = common::gpu_visible(&ctx, &mut renderer);
    let unculled_input = FrameInput { cull_enabled: false, ..input };
    let unculled = common::render_image(&ctx, &mut renderer, &unculled_input, WIDTH, HEIGHT);
    let all = common::gpu_visible(&ctx, &mut renderer);
    assert_eq!(all, 20_000, "with culling off every object is drawn");
    assert!(visible > 0 && visible < all * 3 / 4, "culling kept {visible} of {all}: it must drop a real share");
    // Culled objects were all outside the view: the pictures are the same.
    assert_same("culled-vs-unculled", &unculled, &culled);

    // Freezing culling to a narrower camera drops objects that are in view: the picture
    // changes visibly, which shows the cull pass decides what is drawn.
    let narrow = Camera { fov_y: scene.camera.fov_y * 0.4, ..scene.camera };
    let frozen = FrameInput { cull_camera: Some(narrow), ..input };
    let frozen_image = common::render_image(&ctx, &mut renderer, &frozen, WIDTH, HEIGHT);
    let (differing, _) = common::differing_pixels(&culled, &frozen_image);
    assert!(differing > (WIDTH * HEIGHT / 10) as usize, "a narrower culling frustum changed only {differing} pixels");
    assert!(coverage(&frozen_image) < coverage(&culled), "a narrower culling frustum must draw less");
}
