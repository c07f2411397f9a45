//! Views: a frame of several views draws each one as a frame of its camera alone at the view's
//! size would, to the pixel (each view culls, picks levels, tests occlusion against its own
//! pyramid and runs the compute rasteriser on its own), in the GPU-driven and the CPU modes;
//! the GPU-driven frame records the same commands per view at any object count; each view's
//! counters come back on their own.

mod common;

use multidraw::gpu::target::OffscreenTarget;
use multidraw::{DrawMode, FrameInput, GpuContext, Renderer, View};

const WIDTH: u32 = 192;
const HEIGHT: u32 = 108;

/// Renders `frames` frames of `views` into a `width` × `height` target; returns the last image
/// and its stats.
fn render_views(
    ctx: &GpuContext,
    renderer: &mut Renderer,
    input: &FrameInput,
    views: &[View],
    (width, height): (u32, u32),
    frames: u32,
) -> (image::RgbaImage, multidraw::FrameStats) {
    let target = OffscreenTarget::new(&ctx.device, width, height);
    let mut stats = None;
    for _ in 0..frames {
        stats = Some(renderer.render_views(ctx, &target.frame_target(), input, views));
        ctx.wait_idle();
    }
    let image = target.read_rgba(&ctx.device, &ctx.queue);
    common::assert_no_gpu_errors(ctx);
    (image, stats.expect("at least one frame"))
}

fn crop(image: &image::RgbaImage, x: u32, width: u32) -> image::RgbaImage {
    image::imageops::crop_imm(image, x, 0, width, image.height()).to_image()
}

#[test]
fn two_views_in_one_frame_are_the_frames_of_their_cameras() {
    let ctx = common::context();
    let scene = common::scene(3000, true);
    for mode in [DrawMode::Gpu, DrawMode::Cpu] {
        let input = FrameInput { time: 1.5, ..FrameInput::new(scene.camera, mode) };
        let views = View::side_by_side(&input, 2, 90.0, WIDTH, HEIGHT);
        assert_eq!(views.len(), 2);
        let mut renderer = common::renderer(&ctx, &scene);
        // Two frames: the second's first phase draws what each view's own last frame saw.
        let (both, stats) = render_views(&ctx, &mut renderer, &input, &views, (WIDTH, HEIGHT), 2);
        assert_eq!(stats.views, 2);
        if mode == DrawMode::Gpu {
            assert!(stats.two_phase && stats.soft, "{mode}: occlusion culling and the compute rasteriser on");
        }
        for (k, view) in views.iter().enumerate() {
            let viewport = view.viewport.expect("side-by-side views have viewports");
            let alone = View { viewport: None, ..*view };
            let mut single = common::renderer(&ctx, &scene);
            let size = (viewport.width, viewport.height);
            let (want, _) = render_views(&ctx, &mut single, &input, &[alone], size, 2);
            let got = crop(&both, viewport.x, viewport.width);
            let what = format!("{mode}, view {k} against its camera's own frame");
            common::assert_same_pixels(&format!("views-{mode}-{k}"), &what, &want, &got);
            let drawn = want.pixels().filter(|p| p.0 != want.get_pixel(0, 0).0).count();
            assert!(drawn > 100, "{mode}, view {k}: the view sees objects ({drawn} pixels differ from the corner)");
        }
    }
}

#[test]
fn each_view_counts_its_own_objects() {
    let ctx = common::context();
    let scene = common::scene(3000, false);
    let mut renderer = common::renderer(&ctx, &scene);
    let input = FrameInput::new(scene.camera, DrawMode::Gpu);
    let views = View::side_by_side(&input, 2, 90.0, WIDTH, HEIGHT);
    render_views(&ctx, &mut renderer, &input, &views, (WIDTH, HEIGHT), 3);
    let readback = renderer.collect(&ctx.device).into_iter().rfind(|r| r.view_counters[1].is_some());
    let readback = readback.expect("both views' counters read back");
    let [first, second] = [0, 1].map(|k| readback.view_counters[k].expect("counters of each view"));
    assert_eq!(readback.counters, Some(first), "the frame's counters are its first view's");
    for (k, view) in views.iter().enumerate() {
        let viewport = view.viewport.expect("viewport");
        let mut single = common::renderer(&ctx, &scene);
        let alone = View { viewport: None, ..*view };
        render_views(&ctx, &mut single, &input, &[alone], (viewport.width, viewport.height), 3);
        let counters = single.collect(&ctx.device).into_iter().filter_map(|r| r.counters).next_back();
        let want = counters.expect("counters read back");
        let got = [first, second][k];
        assert_eq!(got.visible, want.visible, "view {k}: visible objects as its camera alone");
        assert_eq!(got.in_frustum, want.in_frustum, "view {k}: in the frustum as its camera alone");
    }
    assert_ne!(first.in_frustum, second.in_frustum, "the turned camera sees other objects");
}

#[test]
fn views_record_the_same_commands_at_any_object_count() {
    let ctx = common::context();
    let mut commands = Vec::new();
    for objects in [1000, 8000] {
        let scene = common::scene(objects, true);
        let mut renderer = common::renderer(&ctx, &scene);
        let input = FrameInput::new(scene.camera, DrawMode::Gpu);
        let views = View::side_by_side(&input, 2, 90.0, WIDTH, HEIGHT);
        let (_, stats) = render_views(&ctx, &mut renderer, &input, &views, (WIDTH, HEIGHT), 2);
        let (_, single) = render_views(&ctx, &mut renderer, &input, &views[..1], (WIDTH, HEIGHT), 1);
        assert!(stats.commands.total() > single.commands.total(), "a second view records its own passes");
        commands.push(stats.commands);
    }
    assert_eq!(commands[0], commands[1], "two views at 1,000 and 8,000 objects record the same commands");
}

/// `multidraw render --views 2` draws the two views side by side and says what each saw; a
/// view count the engine does not render is refused before any work, by name.
#[test]
fn render_takes_views_and_refuses_too_many() {
    let out = common::output_dir().join("views-render-2.png");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_multidraw")).args(args).output().expect("run multidraw")
    };
    let path = out.to_str().expect("utf-8 path");
    let output = run(&["render", "--objects", "2000", "--size", "192x108", "--views", "2", "--out", path]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "render --views 2 failed: {}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("views              2 side by side, visible "), "{stdout}");
    let image = image::open(&out).expect("the frame was written").to_rgba8();
    assert_eq!(image.dimensions(), (192, 108));
    for (args, expected) in [(["--views", "9"], "1 to 8"), (["--views", "0"], "1 to 8")] {
        let mut all = vec!["render", "--objects", "100", "--out", path];
        all.extend(args);
        let output = run(&all);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success() && stderr.contains(expected), "{args:?}: {stderr}");
    }
}
