//! Helpers shared by the GPU tests. A test that finds no adapter fails with a message on how
//! to install one; it never passes without a GPU.

#![allow(dead_code)]

use std::path::PathBuf;

use multidraw::gpu::target::{OffscreenTarget, COLOR_FORMAT};
use multidraw::scene::generator::{stress_scene, StressParams};
use multidraw::scene::Scene;
use multidraw::{ContextOptions, DrawMode, FrameInput, GpuContext, Renderer};

pub fn context() -> GpuContext {
    context_with(&ContextOptions::default())
}

pub fn context_with(options: &ContextOptions) -> GpuContext {
    match GpuContext::headless(options) {
        Ok(ctx) => ctx,
        Err(error) => {
            panic!("GPU tests need a Vulkan adapter: {error}\n(run `make test`, which installs mesa-vulkan-drivers)")
        }
    }
}

pub fn scene(objects: u32, animated: bool) -> Scene {
    stress_scene(&StressParams { objects, seed: 7, animated })
}

/// Asserts the GPU reported no error since the last call.
pub fn assert_no_gpu_errors(ctx: &GpuContext) {
    let errors = ctx.take_errors();
    assert!(errors.is_empty(), "wgpu reported errors: {errors:#?}");
}

/// Renders one frame and reads it back.
pub fn render_image(
    ctx: &GpuContext,
    renderer: &mut Renderer,
    input: &FrameInput,
    width: u32,
    height: u32,
) -> image::RgbaImage {
    let target = OffscreenTarget::new(&ctx.device, width, height);
    renderer.render(ctx, &target.frame_target(), input);
    ctx.wait_idle();
    let image = target.read_rgba(&ctx.device, &ctx.queue);
    assert_no_gpu_errors(ctx);
    image
}

/// The GPU-counted visible objects of the newest frame whose readback has arrived (call after
/// `render_image`, which waits for the GPU).
pub fn gpu_visible(ctx: &GpuContext, renderer: &mut Renderer) -> u32 {
    renderer.collect(&ctx.device).into_iter().filter_map(|r| r.visible).next_back().expect("visible count read back")
}

pub fn renderer(ctx: &GpuContext, scene: &Scene) -> Renderer {
    Renderer::new(ctx, scene, COLOR_FORMAT).expect("renderer for a valid scene")
}

/// A renderer that draws every object with the hardware (no compute rasteriser), as live
/// scenes are drawn: the reference a live renderer's frames are compared with pixel for pixel.
pub fn hardware_renderer(ctx: &GpuContext, scene: &Scene) -> Renderer {
    let options = multidraw::frame::RendererOptions {
        soft_raster: false,
        ..multidraw::frame::RendererOptions::new(COLOR_FORMAT)
    };
    Renderer::with_options(ctx, scene, &options).expect("renderer for a valid scene")
}

/// The compute rasteriser interpolates a triangle's normal with its own barycentrics, equal to
/// the hardware's within float rounding: a channel may round the other way, 1 or 2 out of 255.
pub const RASTER_TOLERANCE: u8 = 2;

/// Pixels with a channel more than `tolerance` apart.
pub fn pixels_beyond(a: &image::RgbaImage, b: &image::RgbaImage, tolerance: u8) -> usize {
    assert_eq!(a.dimensions(), b.dimensions());
    a.pixels().zip(b.pixels()).filter(|(p, q)| p.0.iter().zip(q.0).any(|(x, y)| x.abs_diff(y) > tolerance)).count()
}

pub fn input(scene: &Scene, mode: DrawMode, time: f32) -> FrameInput {
    FrameInput { time, ..FrameInput::new(scene.camera, mode) }
}

/// Where tests write images they want a human to look at.
pub fn output_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("test-output");
    std::fs::create_dir_all(&dir).expect("create test output dir");
    dir
}

/// Pixels that differ between two images of equal size, and their bounding box.
pub fn differing_pixels(a: &image::RgbaImage, b: &image::RgbaImage) -> (usize, Option<(u32, u32, u32, u32)>) {
    assert_eq!(a.dimensions(), b.dimensions());
    let mut count = 0;
    let mut bounds: Option<(u32, u32, u32, u32)> = None;
    for (x, y, pa) in a.enumerate_pixels() {
        if pa != b.get_pixel(x, y) {
            count += 1;
            bounds = Some(match bounds {
                None => (x, y, x, y),
                Some((x0, y0, x1, y1)) => (x0.min(x), y0.min(y), x1.max(x), y1.max(y)),
            });
        }
    }
    (count, bounds)
}

/// Panics, naming `what`, the count and bounds of the differing pixels and the images written
/// (`write_mismatch` under `name`), unless `got` equals `want` to the pixel.
pub fn assert_same_pixels(name: &str, what: &str, want: &image::RgbaImage, got: &image::RgbaImage) {
    let (count, bounds) = differing_pixels(want, got);
    if count > 0 {
        let (actual, diff) = write_mismatch(name, want, got);
        panic!("{what}: {count} pixels differ (bounds {bounds:?}): {} {}", actual.display(), diff.display());
    }
}

/// Writes `actual` and a difference image next to the test output; returns their paths.
pub fn write_mismatch(name: &str, expected: &image::RgbaImage, actual: &image::RgbaImage) -> (PathBuf, PathBuf) {
    let dir = output_dir();
    let actual_path = dir.join(format!("{name}-actual.png"));
    let diff_path = dir.join(format!("{name}-diff.png"));
    actual.save(&actual_path).expect("write actual image");
    let diff = image::RgbaImage::from_fn(actual.width(), actual.height(), |x, y| {
        if actual.get_pixel(x, y) == expected.get_pixel(x, y) {
            image::Rgba([0, 0, 0, 255])
        } else {
            image::Rgba([255, 0, 255, 255])
        }
    });
    diff.save(&diff_path).expect("write diff image");
    expected.save(dir.join(format!("{name}-expected.png"))).expect("write expected image");
    (actual_path, diff_path)
}
