//! Occluders first (`passes::build`, `is_occluder` in shaders/cull.wgsl): a view's first main
//! pass draws its large opaque objects before any batch, nearest first, so that what they hide
//! fails the depth test instead of being written and written over. The order decides only
//! which fragments are rejected: the frame is the CPU baseline's to the pixel, with and without
//! occlusion culling; every object is drawn once (without occlusion culling the drawn objects
//! are the visible ones); the listed draws are opaque objects, one instance each, in the order
//! of their distance from the camera.

mod common;

use glam::Vec3;
use multidraw::frame::Detail;
use multidraw::gpu::readback::read_buffer;
use multidraw::gpu_scene::types::{DrawIndexedIndirectArgs, DRAW_ARGS_SIZE};
use multidraw::passes::cull::cpu::animated_center;
use multidraw::passes::cull::GpuCounters;
use multidraw::scene::{Scene, Variant};
use multidraw::tunables::COUNTER_OCCLUDERS;
use multidraw::{DrawMode, FrameInput, GpuContext, Renderer};

const SIZE: (u32, u32) = (640, 360);

/// The hardware draws every object (so the frames agree to the pixel, tests/raster.rs) and the
/// adaptive frame decides nothing: occlusion culling as asked.
fn detail(occlusion: bool) -> Detail {
    Detail { soft: false, occlusion, auto_occlusion: false, auto_soft: false, ..Detail::default() }
}

/// The second frame of `scene` (occlusion culling's first phase has a frame before it) and its
/// GPU counters, if the mode has them.
fn frame(
    ctx: &GpuContext,
    renderer: &mut Renderer,
    scene: &Scene,
    mode: DrawMode,
    detail: Detail,
) -> (image::RgbaImage, Option<GpuCounters>) {
    let input = FrameInput { detail, ..common::input(scene, mode, 0.5) };
    common::render_image(ctx, renderer, &input, SIZE.0, SIZE.1);
    let image = common::render_image(ctx, renderer, &input, SIZE.0, SIZE.1);
    let counters = renderer.collect(&ctx.device).into_iter().filter_map(|r| r.counters).next_back();
    (image, counters)
}

#[test]
fn occluders_first_change_no_pixel_and_draw_each_object_once() {
    let ctx = common::context();
    let scene = common::scene(10_000, true);
    let mut renderer = common::hardware_renderer(&ctx, &scene);
    for occlusion in [false, true] {
        let (gpu, counters) = frame(&ctx, &mut renderer, &scene, DrawMode::Gpu, detail(occlusion));
        let counters = counters.expect("the gpu mode reads its counters back");
        assert!(counters.occluders >= 10, "occlusion {occlusion}: {} occluders listed", counters.occluders);
        if !occlusion {
            assert_eq!(counters.drawn_total(), counters.visible, "each visible object drawn once");
        }
        let (cpu, _) = frame(&ctx, &mut renderer, &scene, DrawMode::Cpu, detail(occlusion));
        common::assert_same_pixels(
            "occluders",
            &format!("gpu with occluders vs cpu, occlusion {occlusion}"),
            &cpu,
            &gpu,
        );
    }
}

#[test]
fn occluders_are_opaque_and_drawn_nearest_first() {
    let ctx = common::context();
    let scene = common::scene(10_000, false);
    let mut renderer = common::hardware_renderer(&ctx, &scene);
    let detail = detail(false);
    frame(&ctx, &mut renderer, &scene, DrawMode::Gpu, detail);
    let buffers = &renderer.buffers;
    let count = read_buffer(&ctx.device, &ctx.queue, &buffers.draw_counts, u64::from(COUNTER_OCCLUDERS) * 4, 4);
    let listed = u32::from_le_bytes(count.try_into().expect("one word")).min(buffers.occluder_capacity);
    assert!(listed >= 10, "{listed} occluders listed");
    let bytes = read_buffer(
        &ctx.device,
        &ctx.queue,
        &buffers.draws,
        u64::from(buffers.occluder_draw_base) * DRAW_ARGS_SIZE,
        u64::from(listed) * DRAW_ARGS_SIZE,
    );
    let uniforms =
        renderer.frame_uniforms(&FrameInput { detail, ..common::input(&scene, DrawMode::Gpu, 0.5) }, SIZE.0, SIZE.1);
    let camera = uniforms.camera_position.truncate();
    let mut last = 0.0f32;
    for (k, args) in bytes.chunks_exact(DRAW_ARGS_SIZE as usize).enumerate() {
        let words: Vec<u32> = args.chunks_exact(4).map(|w| u32::from_le_bytes(w.try_into().unwrap())).collect();
        let args = DrawIndexedIndirectArgs {
            index_count: words[0],
            instance_count: words[1],
            first_index: words[2],
            base_vertex: words[3] as i32,
            first_instance: words[4],
        };
        assert_eq!(args.instance_count, 1, "draw {k}: one object");
        // Per-object draws name the object's entry in the identity range of its level.
        let entry = args.first_instance - buffers.identity_base;
        let (level, id) = (entry / buffers.object_count, entry % buffers.object_count);
        let object = &renderer.prepared.objects[id as usize];
        let batch = &renderer.prepared.batches[(object.batch + level) as usize];
        assert_eq!(batch.variant, Variant::Opaque as u32, "draw {k}: object {id} is opaque");
        assert_eq!(
            (args.index_count, args.first_index),
            (batch.index_count, batch.first_index),
            "draw {k}: its level's indices"
        );
        let nearest = ((animated_center(&uniforms, object) - camera).length() - object.bounds.w).max(0.0);
        assert!(nearest >= last, "draw {k}: object {id} at {nearest} after one at {last}");
        last = nearest;
    }
    assert!(last > 0.0 && camera != Vec3::ZERO);
}
