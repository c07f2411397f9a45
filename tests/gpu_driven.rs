//! The GPU-driven frame records the same commands at 1,000 and 100,000 objects, sets each
//! bind group once per pass, and calls `set_pipeline` once per variant in use.

mod common;

use multidraw::gpu::commands::FrameCommands;
use multidraw::gpu::target::OffscreenTarget;
use multidraw::passes::{build, cull, main};
use multidraw::{DrawMode, GpuContext};

fn commands(ctx: &GpuContext, objects: u32, mode: DrawMode) -> (FrameCommands, usize) {
    let scene = common::scene(objects, true);
    let mut renderer = common::renderer(ctx, &scene);
    let target = OffscreenTarget::new(&ctx.device, 64, 64);
    let stats = renderer.render(ctx, &target.frame_target(), &common::input(&scene, mode, 0.5));
    ctx.wait_idle();
    common::assert_no_gpu_errors(ctx);
    let variants_used = renderer.prepared.variants.iter().filter(|v| v.object_count > 0).count();
    (stats.commands, variants_used)
}

#[test]
fn gpu_driven_commands_do_not_depend_on_object_count() {
    let ctx = common::context();
    for mode in [DrawMode::Gpu, DrawMode::GpuNocount, DrawMode::GpuPerObject] {
        let (small, variants_small) = commands(&ctx, 1_000, mode);
        let (large, variants_large) = commands(&ctx, 100_000, mode);
        assert_eq!(variants_small, variants_large, "both scenes use the same variants");
        assert_eq!(small, large, "{mode}: commands recorded at 1,000 vs 100,000 objects");

        let passes: Vec<_> = small.iter().map(|(name, _)| *name).collect();
        let expected = if mode == DrawMode::GpuPerObject {
            vec![cull::NAME, main::NAME]
        } else {
            vec![cull::NAME, build::NAME, main::NAME]
        };
        assert_eq!(passes, expected, "{mode}: passes recorded");
        for &(name, pass) in small.iter() {
            for (group, &sets) in pass.set_bind_group.iter().enumerate() {
                if name != main::NAME && group == 2 {
                    assert_eq!(sets, 0, "the {name} pass has no group 2");
                } else {
                    assert_eq!(sets, 1, "{mode}: {name} pass sets group {group} {sets} times");
                }
            }
        }
        let main_pass = small.pass(main::NAME);
        assert_eq!(main_pass.set_pipeline as usize, variants_small, "{mode}: one set_pipeline per variant");
        assert_eq!(main_pass.draw_commands() as usize, variants_small, "{mode}: one multi-draw per variant");
        assert_eq!(main_pass.draw_indexed, 0, "{mode}: no direct draws");
        assert_eq!(main_pass.set_vertex_buffer + main_pass.set_index_buffer, 2);
    }
}

#[test]
fn cpu_baseline_draws_once_per_visible_object_without_rebinding() {
    let ctx = common::context();
    let scene = common::scene(10_000, true);
    let mut renderer = common::renderer(&ctx, &scene);
    let target = OffscreenTarget::new(&ctx.device, 64, 64);
    let stats = renderer.render(&ctx, &target.frame_target(), &common::input(&scene, DrawMode::Cpu, 0.5));
    ctx.wait_idle();
    let visible = stats.cpu_visible.expect("cpu mode knows its visible count");
    assert!(visible > 1000);
    let main_pass = stats.commands.pass(main::NAME);
    assert_eq!(stats.commands.iter().count(), 1, "the baseline records the main pass alone");
    assert_eq!(main_pass.draw_indexed, visible);
    assert_eq!(main_pass.set_bind_group, [1, 1, 1], "baseline sets each bind group once");
    assert!(main_pass.set_pipeline <= 4, "baseline sets pipelines once per variant");
}
