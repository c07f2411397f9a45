//! Levels of detail and size culling are near-invisible, and the CPU baseline draws what the
//! GPU draws with them on.
//!
//! * At the default thresholds (LOD error 0.25 px, minimum size 0.5 px), the default scene drawn
//!   with LOD, size and occlusion culling differs from the full-detail image in at most
//!   [`MAX_LOD_FRACTION`] of the pixels by more than [`LOD_CHANNEL_TOLERANCE`] in any channel
//!   (the figure is printed with `--nocapture`), while far fewer triangles are drawn.
//! * With LOD on, gpu and cpu modes draw the same image (up to depth ties, as in
//!   `tests/image.rs`): the CPU picks each object's level with the same function on the same
//!   inputs.

mod common;

use multidraw::scene::file;
use multidraw::{Detail, DrawMode, FrameInput, GpuContext, Renderer};

const WIDTH: u32 = 640;
const HEIGHT: u32 = 360;
/// A pixel counts as changed by LOD when a channel moves by more than this, out of 255.
const LOD_CHANNEL_TOLERANCE: u8 = 16;
/// Share of the pixels LOD may change by more than the tolerance.
const MAX_LOD_FRACTION: f64 = 0.01;
/// Share of the pixels gpu and cpu may differ in (depth ties), as in `tests/image.rs`.
const MAX_MODE_FRACTION: f64 = 0.001;

fn changed_pixels(a: &image::RgbaImage, b: &image::RgbaImage, tolerance: u8) -> usize {
    a.pixels().zip(b.pixels()).filter(|(p, q)| p.0.iter().zip(q.0).any(|(x, y)| x.abs_diff(y) > tolerance)).count()
}

fn frame(
    ctx: &GpuContext,
    renderer: &mut Renderer,
    input: &FrameInput,
) -> (image::RgbaImage, multidraw::passes::cull::GpuCounters) {
    // Twice, so occlusion culling's first phase has the frame before to start from.
    common::render_image(ctx, renderer, input, WIDTH, HEIGHT);
    let image = common::render_image(ctx, renderer, input, WIDTH, HEIGHT);
    let counters = renderer.collect(&ctx.device).into_iter().filter_map(|r| r.counters).next_back();
    (image, counters.unwrap_or_default())
}

#[test]
fn lod_changes_at_most_one_percent_of_the_default_scene() {
    let ctx = common::context();
    let scene = file::default_scene();
    let mut renderer = common::renderer(&ctx, &scene);
    for time in [0.0, 2.5] {
        let input = FrameInput { time, ..FrameInput::new(scene.camera, DrawMode::Gpu) };
        let (full, full_counts) = frame(&ctx, &mut renderer, &FrameInput { detail: Detail::FULL, ..input });
        let (culled, counts) = frame(&ctx, &mut renderer, &FrameInput { detail: Detail::default(), ..input });
        let changed = changed_pixels(&full, &culled, LOD_CHANNEL_TOLERANCE);
        let fraction = changed as f64 / (WIDTH * HEIGHT) as f64;
        eprintln!(
            "t={time}: {changed} of {} pixels ({:.3}%) differ by more than {LOD_CHANNEL_TOLERANCE}/255; triangles {} -> {}, \
             drawn {} -> {:?}, per level {:?}",
            WIDTH * HEIGHT,
            100.0 * fraction,
            full_counts.triangles,
            counts.triangles,
            full_counts.drawn_total(),
            counts.drawn,
            counts.levels
        );
        if fraction > MAX_LOD_FRACTION {
            let (actual, diff) = common::write_mismatch(&format!("lod-t{time}"), &full, &culled);
            panic!(
                "t={time}: LOD changed {:.3}% of the pixels (bound {:.1}%); actual {}, diff {}",
                100.0 * fraction,
                100.0 * MAX_LOD_FRACTION,
                actual.display(),
                diff.display()
            );
        }
        assert!(counts.levels[1..].iter().any(|&n| n > 0), "t={time}: no object was drawn at a coarser level");
        assert!(
            counts.triangles * 4 < full_counts.triangles * 3,
            "t={time}: LOD should take at least a quarter of the triangles off ({} -> {})",
            full_counts.triangles,
            counts.triangles
        );
    }
}

#[test]
fn cpu_draws_the_gpu_image_with_lod_on() {
    let ctx = common::context();
    let scene = file::default_scene();
    let mut renderer = common::renderer(&ctx, &scene);
    for time in [0.0, 3.0] {
        let gpu = frame(&ctx, &mut renderer, &common::input(&scene, DrawMode::Gpu, time)).0;
        let cpu = frame(&ctx, &mut renderer, &common::input(&scene, DrawMode::Cpu, time)).0;
        let differing = changed_pixels(&gpu, &cpu, 0);
        let bound = ((WIDTH * HEIGHT) as f64 * MAX_MODE_FRACTION) as usize;
        eprintln!("t={time}: gpu and cpu differ in {differing} pixels (bound {bound})");
        if differing > bound {
            let (actual, diff) = common::write_mismatch(&format!("lod-cpu-t{time}"), &gpu, &cpu);
            panic!(
                "t={time}: cpu differs from gpu in {differing} pixels; actual {}, diff {}",
                actual.display(),
                diff.display()
            );
        }
    }
}
