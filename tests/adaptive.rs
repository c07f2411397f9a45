//! The adaptive frame (`Detail::auto`, `--occlusion auto`): the renderer turns occlusion
//! culling off where the frames it measured say the second phase costs more than it saves, and
//! on again where it pays, and no frame is ever wrong for it: every frame of an auto renderer
//! equals, to the pixel, the same frame drawn with occlusion culling fixed on, through a switch
//! that lands on a camera cut.
//!
//! The costs are reported to the renderer (`Renderer::report_frame_time`), made up by the test
//! so that the verdicts are known: first the one-phase frames are cheaper, then the two-phase
//! ones.

mod common;

use glam::Vec3;
use multidraw::frame::adapt::{Choice, Reason};
use multidraw::gpu::target::OffscreenTarget;
use multidraw::{Detail, DrawMode, FrameInput};

const SIZE: (u32, u32) = (128, 96);

#[test]
fn the_adaptive_frame_switches_by_cost_and_never_draws_a_wrong_frame() {
    let ctx = common::context();
    let scene = common::scene(4_000, true);
    // The hardware draws everything in both renderers, and both shade deferred, so the frames
    // can agree to the pixel (forward and deferred shading differ in a few pixels' rounding:
    // tests/deferred.rs), while occlusion culling is left to the adaptive frame.
    let detail = Detail { soft: false, auto_deferred: false, ..Detail::auto() };
    let fixed = Detail { soft: false, ..Detail::default() };
    let mut auto = common::hardware_renderer(&ctx, &scene);
    let mut reference = common::hardware_renderer(&ctx, &scene);
    let target = OffscreenTarget::new(&ctx.device, SIZE.0, SIZE.1);
    let reference_target = OffscreenTarget::new(&ctx.device, SIZE.0, SIZE.1);
    let far = scene.camera;
    // A cut to a camera inside the cloud, looking another way.
    let near = multidraw::scene::Camera {
        position: Vec3::new(5.0, 2.0, 5.0),
        target: Vec3::new(-20.0, 0.0, 3.0),
        ..scene.camera
    };
    let frames = 400u64;
    let mut phases = Vec::new();
    let mut switched_off = None;
    let mut switched_on = None;
    for i in 0..frames {
        // Until frame 200 one phase is cheap; from then on two phases are.
        let one_phase_cheap = i < 200;
        // The camera cuts when the costs turn, and again later.
        let camera = if (200..300).contains(&i) { near } else { far };
        let input = FrameInput { time: i as f32 / 60.0, detail, ..FrameInput::new(camera, DrawMode::Gpu) };
        let stats = auto.render(&ctx, &target.frame_target(), &input);
        let cost = if stats.two_phase == one_phase_cheap { 2.0 } else { 1.0 };
        auto.report_frame_time(stats.frame, cost);
        ctx.wait_idle();
        let _ = auto.collect(&ctx.device);
        phases.push(stats.two_phase);
        if !stats.two_phase && switched_off.is_none() && auto.auto_choice(0).is_some_and(|(c, _)| !c.occlusion) {
            switched_off = Some(i);
        }
        if switched_off.is_some() && switched_on.is_none() && auto.auto_choice(0).is_some_and(|(c, _)| c.occlusion) {
            switched_on = Some(i);
        }
        // Every frame near a switch, and every 25th, against the fixed renderer's.
        let near_switch = [switched_off, switched_on].iter().flatten().any(|&s| i.abs_diff(s) <= 6);
        if near_switch || i % 25 == 0 || (198..=206).contains(&i) {
            let got = target.read_rgba(&ctx.device, &ctx.queue);
            let fixed_input = FrameInput { detail: fixed, ..input };
            // The reference draws the same frames in order (its first phase needs the last
            // frame's visibility), so render it up to this one.
            let want = common::render_image(&ctx, &mut reference, &fixed_input, SIZE.0, SIZE.1);
            common::assert_same_pixels(
                "adaptive",
                &format!("frame {i} (two phases: {}) against occlusion culling on", stats.two_phase),
                &want,
                &got,
            );
        } else {
            reference.render(&ctx, &reference_target.frame_target(), &FrameInput { detail: fixed, ..input });
        }
        common::assert_no_gpu_errors(&ctx);
    }
    let off = switched_off.expect("occlusion culling turned off while one phase was cheaper");
    let on = switched_on.expect("and on again once two phases were cheaper");
    assert!(off < 200, "switched off at frame {off}");
    assert!(on > 200, "switched on at frame {on}");
    // The scene's 1,000 objects are at most 1,000 the compute rasteriser may draw.
    let start = Choice::start_for(ctx.info.device_type, 1_000);
    assert_eq!(auto.auto_choice(0), Some((Choice { occlusion: true, soft: false, ..start }, Reason::Cheaper)));
    // Past the search, most frames run the cheaper configuration.
    let settled_off = phases[100..200].iter().filter(|&&two| !two).count();
    let settled_on = phases[300..400].iter().filter(|&&two| two).count();
    assert!(settled_off >= 90 && settled_on >= 90, "one phase in {settled_off} of 100, two in {settled_on} of 100");
}

/// Explicit switches are never second-guessed, whatever the costs say.
#[test]
fn explicit_detail_is_left_alone() {
    let ctx = common::context();
    let scene = common::scene(1_000, true);
    let mut renderer = common::renderer(&ctx, &scene);
    let target = OffscreenTarget::new(&ctx.device, 64, 48);
    for i in 0..80u64 {
        let input = FrameInput { time: i as f32 / 60.0, ..FrameInput::new(scene.camera, DrawMode::Gpu) };
        let stats = renderer.render(&ctx, &target.frame_target(), &input);
        renderer.report_frame_time(stats.frame, if stats.two_phase { 9.0 } else { 1.0 });
        ctx.wait_idle();
        let _ = renderer.collect(&ctx.device);
        assert!(stats.two_phase && stats.soft, "frame {i}: --occlusion on and --soft-raster on hold");
    }
}
