//! The GPU-driven frame records the same commands at 1,000 and 100,000 objects, with LOD,
//! occlusion culling and the compute rasteriser on (two phases, the pyramid, the raster passes
//! and their resolves) and off, sets each bind group once per pass (the pyramid once per
//! level; the main pass group 0 and 1 once more for the resolve), and calls `set_pipeline`
//! once per variant in use (and once for the resolve); the stress scene's blended set adds the
//! blend sort (one dispatch) and the blended pass (one pipeline, one multi-draw, or without a
//! draw count one pulled draw); without a count the multi-draws' slots, each a draw call on
//! WebGPU, are the same number at both sizes too; deferred shading adds its shade dispatches
//! and its composite, the same at every count; with batches behind a count, the occluder sort
//! (a second dispatch of the build pass) and the occluders' multi-draw first in the first main
//! pass.

mod common;

use multidraw::gpu::commands::FrameCommands;
use multidraw::gpu::target::OffscreenTarget;
use multidraw::passes::{blend, build, cull, deferred, main, pyramid, raster};
use multidraw::{Detail, DrawMode, FrameInput, GpuContext};

const SIZE: u32 = 64;

/// The commands of the second frame (the first phase then has a frame before it), the
/// multi-draws' slots, the variants in use and whether the renderer defers its shading.
fn commands(ctx: &GpuContext, objects: u32, mode: DrawMode, detail: Detail) -> (FrameCommands, u32, usize, bool) {
    let scene = common::scene(objects, true);
    let mut renderer = common::renderer(ctx, &scene);
    let target = OffscreenTarget::new(&ctx.device, SIZE, SIZE);
    let input = FrameInput { detail, ..common::input(&scene, mode, 0.5) };
    renderer.render(ctx, &target.frame_target(), &input);
    let stats = renderer.render(ctx, &target.frame_target(), &input);
    ctx.wait_idle();
    common::assert_no_gpu_errors(ctx);
    let variants_used = renderer.prepared.variants.iter().filter(|v| v.object_count > 0).count();
    (stats.commands, stats.indirect_slots, variants_used, renderer.deferred_shading())
}

#[test]
fn gpu_driven_commands_do_not_depend_on_object_count() {
    let ctx = common::context();
    let pyramid_levels = pyramid::level_sizes(SIZE, SIZE).len() as u32;
    for detail in [Detail::default(), Detail::FULL] {
        for mode in [DrawMode::Gpu, DrawMode::GpuNocount, DrawMode::GpuPerObject] {
            let label = format!("{mode}, occlusion {}", detail.occlusion);
            let (small, slots_small, variants_small, deferred) = commands(&ctx, 1_000, mode, detail);
            let (large, slots_large, variants_large, _) = commands(&ctx, 100_000, mode, detail);
            assert_eq!(variants_small, variants_large, "both scenes use the same variants");
            assert_eq!(small, large, "{label}: commands recorded at 1,000 vs 100,000 objects");
            // Without a draw count a multi-draw is a draw call per slot on WebGPU: one per
            // batch, and the blended pass one pulled draw whatever the blended objects.
            assert_eq!(slots_small, slots_large, "{label}: multi-draw slots at 1,000 vs 100,000 objects");

            let passes: Vec<_> = small.iter().map(|(name, _)| *name).collect();
            // The compute rasteriser runs in the modes that cull into batches (lavapipe has
            // 64-bit atomics), after build: its raster and shade dispatches, then its resolve at
            // the start of the main pass.
            let soft = detail.soft && mode != DrawMode::GpuPerObject;
            let mut expected = vec![cull::NAME, build::NAME, raster::NAME, main::NAME];
            if detail.occlusion {
                // After the last raster pass, the mark dispatch sets the bits of the objects that
                // hold its pixels.
                expected.extend([pyramid::NAME, cull::LATE_NAME, build::LATE_NAME, raster::LATE_NAME]);
                expected.extend([raster::MARK_NAME, main::LATE_NAME]);
            }
            if mode == DrawMode::GpuPerObject {
                expected.retain(|&name| name != build::NAME && name != build::LATE_NAME);
            }
            if !soft {
                expected.retain(|&name| ![raster::NAME, raster::LATE_NAME, raster::MARK_NAME].contains(&name));
            }
            // lavapipe has primitive_index: with the default detail the hardware's opaque
            // pixels are shaded in a dispatch after the last main pass and composited (full
            // detail shades them in the main pass).
            assert!(deferred, "lavapipe can defer the main pass's shading");
            if detail.deferred {
                expected.extend([deferred::NAME, deferred::COMPOSITE_NAME]);
            }
            // The stress scene has a blended set: sorted, then drawn over everything.
            expected.extend([blend::SORT_NAME, blend::NAME]);
            assert_eq!(passes, expected, "{label}: passes recorded");
            if detail.deferred {
                let shade = small.pass(deferred::NAME);
                assert_eq!(
                    (shade.set_pipeline, shade.dispatch, shade.dispatch_indirect),
                    (4, 2, 2),
                    "{label}: the deferred list, its arguments and the plain and textured shading"
                );
                // The offscreen target's texture can be written as storage: the composite is a
                // dispatch, not a full-screen draw.
                let composite = small.pass(deferred::COMPOSITE_NAME);
                assert_eq!(
                    (composite.set_pipeline, composite.dispatch, composite.draw),
                    (1, 1, 0),
                    "{label}: one dispatch over the target"
                );
            }
            // The compute rasteriser shades and resolves once, in the frame's last phase (its
            // last raster pass lists the drawn pixels and shades them; the last main pass
            // resolves); the pyramid reads its visibility buffer.
            let last = |name: &str| !detail.occlusion || name == raster::LATE_NAME || name == main::LATE_NAME;
            let soft_in = |name: &str| (soft && last(name)) as u32;
            // A deferred frame's composite resolves the compute rasteriser's pixels: its last
            // main pass has no resolve.
            let resolve_in = |name: &str| (soft && last(name) && !detail.deferred) as u32;
            for &(name, pass) in small.iter() {
                let want = match name {
                    pyramid::NAME => [pyramid_levels, soft as u32, 0],
                    raster::NAME | raster::LATE_NAME => [1, 1 + 2 * soft_in(name), 1],
                    raster::MARK_NAME => [1, 1, 0],
                    main::NAME | main::LATE_NAME => [1 + resolve_in(name), 1 + resolve_in(name), 1],
                    deferred::NAME => [1, 2, 1],
                    deferred::COMPOSITE_NAME => [1, 0, 0],
                    _ => [1, 1, 1],
                };
                assert_eq!(pass.set_bind_group, want, "{label}: {name} pass bind group sets per group");
            }
            for name in [raster::NAME, raster::LATE_NAME].into_iter().filter(|n| passes.contains(n)) {
                let raster_pass = small.pass(name);
                let shading = soft_in(name);
                // One dispatch per part of the soft list: masked objects apart on a CPU adapter.
                let parts = if raster::masked_apart(ctx.info.device_type) { 2 } else { 1 };
                assert_eq!(
                    (raster_pass.set_pipeline, raster_pass.dispatch_indirect, raster_pass.dispatch),
                    (parts + 4 * shading, parts + 2 * shading, 2 * shading),
                    "{label}: {name}: raster (a dispatch per part of its list), and in the last phase the list, its arguments and the plain and textured shading"
                );
            }
            // With batches behind a count the first main pass draws the view's occluders first:
            // the opaque pipeline and one multi-draw more; the build pass sorts them.
            let occluders = |name: &str| (mode == DrawMode::Gpu && name == main::NAME) as u32;
            for name in [main::NAME, main::LATE_NAME].into_iter().filter(|n| passes.contains(n)) {
                let main_pass = small.pass(name);
                let resolve = resolve_in(name);
                // The blend variant draws in its own pass.
                let variants = variants_small as u32 - 1 + resolve + occluders(name);
                assert_eq!(main_pass.set_pipeline, variants, "{label}: one set_pipeline per variant (and resolve)");
                assert_eq!(main_pass.draw_commands(), variants, "{label}: one multi-draw per variant (and resolve)");
                assert_eq!(main_pass.draw, resolve, "{label}: the resolve's one indirect full-screen draw");
                assert_eq!(main_pass.draw_indexed, 0, "{label}: no direct draws");
                assert_eq!(main_pass.set_vertex_buffer + main_pass.set_index_buffer, 2);
            }
            let blended = small.pass(blend::NAME);
            assert_eq!(
                (blended.set_pipeline, blended.draw_commands(), blended.draw_indexed),
                (1, 1, 0),
                "{label}: the blended pass: one pipeline, one multi-draw (without a count, one pulled draw)"
            );
            assert_eq!(blended.draw, (mode == DrawMode::GpuNocount) as u32, "{label}: the pulled blended draw");
            assert_eq!(small.pass(blend::SORT_NAME).dispatch, 1, "{label}: the blend sort: one workgroup");
            if passes.contains(&build::NAME) {
                let build_pass = small.pass(build::NAME);
                assert_eq!(
                    (build_pass.set_pipeline, build_pass.dispatch),
                    (1 + occluders(main::NAME), 1 + occluders(main::NAME)),
                    "{label}: the build, and with a count the occluder sort (one workgroup)"
                );
            }
        }
    }
}

#[test]
fn cpu_baseline_draws_once_per_visible_object_without_rebinding() {
    let ctx = common::context();
    let scene = common::scene(10_000, true);
    let mut renderer = common::renderer(&ctx, &scene);
    let target = OffscreenTarget::new(&ctx.device, 64, 64);
    let stats = renderer.render(&ctx, &target.frame_target(), &common::input(&scene, DrawMode::Cpu, 0.5));
    assert!(!stats.two_phase, "the CPU has no depth to cull against: one phase");
    ctx.wait_idle();
    let visible = stats.cpu_visible.expect("cpu mode knows its visible count");
    assert!(visible > 1000);
    let main_pass = stats.commands.pass(main::NAME);
    // lavapipe defers the opaque variants' shading: the baseline's main pass, the shading and
    // the composite, then its blended objects in a pass of their own.
    let passes: Vec<&str> = stats.commands.iter().map(|(name, _)| *name).collect();
    assert_eq!(passes, [main::NAME, deferred::NAME, deferred::COMPOSITE_NAME, blend::NAME], "the baseline's passes");
    let blended = stats.commands.pass(blend::NAME);
    assert!(blended.draw_indexed > 0, "the stress scene's blended set is drawn");
    assert_eq!(main_pass.draw_indexed + blended.draw_indexed, visible, "one draw per visible object");
    assert_eq!(blended.set_pipeline, 1, "the blended objects: one pipeline");
    assert_eq!(main_pass.set_bind_group, [1, 1, 1], "baseline sets each bind group once");
    assert!(main_pass.set_pipeline <= 5, "baseline sets pipelines once per variant");
}
