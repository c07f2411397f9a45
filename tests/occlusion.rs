//! Occlusion culling is invisible: along a camera path of 32 animated frames with a jump cut
//! and a resize, a renderer with two-phase occlusion culling draws the same image, frame by
//! frame, as one without, while its counters show objects rejected as occluded.
//!
//! The two renderers draw the same triangles in a different order (what phase 1 drew comes
//! first), so pixels where two surfaces have exactly the same depth (coplanar faces: a roof
//! detail standing on a roof, a building on the ground slab) may resolve differently under the
//! `Less` depth test. The bound, [`MAX_DIFFERING_FRACTION`] of the pixels, is for those ties;
//! one missing object costs far more (printed per frame with `--nocapture`).

mod common;

use std::path::Path;

use glam::{Quat, Vec3};
use multidraw::gpu::target::OffscreenTarget;
use multidraw::passes::cull::GpuCounters;
use multidraw::scene::{file, Camera, Scene};
use multidraw::tunables::{SOFT_TEXTURED_BIT, SOFT_TRIANGLE_BITS};
use multidraw::{Detail, DrawMode, FrameInput, GpuContext, Renderer};

/// Share of the pixels that may differ between occlusion on and off (depth ties only).
const MAX_DIFFERING_FRACTION: f64 = 0.001;
const FRAMES: u32 = 32;
const JUMP_AT: u32 = 12;
const RESIZE_AT: u32 = 22;

/// The camera of frame `i`: a slow orbit about the scene camera's target, a jump cut to the
/// other side at [`JUMP_AT`], and on from there.
fn camera_at(base: Camera, i: u32) -> Camera {
    let jump = if i < JUMP_AT { 0.0 } else { std::f32::consts::PI * 0.8 };
    let turn = Quat::from_rotation_y(jump + i as f32 * 0.01);
    let position = base.target + turn * (base.position - base.target);
    Camera { position, ..base }
}

fn size_at(i: u32) -> (u32, u32) {
    if i < RESIZE_AT {
        (320, 180)
    } else {
        (283, 211)
    }
}

fn render(ctx: &GpuContext, renderer: &mut Renderer, target: &OffscreenTarget, input: &FrameInput) -> image::RgbaImage {
    renderer.render(ctx, &target.frame_target(), input);
    ctx.wait_idle();
    common::assert_no_gpu_errors(ctx);
    target.read_rgba(&ctx.device, &ctx.queue)
}

fn counters(ctx: &GpuContext, renderer: &mut Renderer) -> GpuCounters {
    renderer.collect(&ctx.device).into_iter().filter_map(|r| r.counters).next_back().expect("counters read back")
}

fn check_path(name: &str, scene: &Scene) {
    check_path_with(name, scene, Detail::default());
}

/// [`check_path`] with `on` the detail of the renderer that culls in two phases.
fn check_path_with(name: &str, scene: &Scene, on: Detail) {
    let ctx = common::context();
    let mut with = common::renderer(&ctx, scene);
    let mut without = common::renderer(&ctx, scene);
    let off = Detail { occlusion: false, ..on };
    let mut target = OffscreenTarget::new(&ctx.device, 1, 1);
    let mut occluded_total = 0u64;
    for i in 0..FRAMES {
        let (width, height) = size_at(i);
        if (target.width, target.height) != (width, height) {
            target = OffscreenTarget::new(&ctx.device, width, height);
        }
        let input = FrameInput { time: i as f32 / 60.0, ..FrameInput::new(camera_at(scene.camera, i), DrawMode::Gpu) };
        let culled = render(&ctx, &mut with, &target, &FrameInput { detail: on, ..input });
        let culled_counts = counters(&ctx, &mut with);
        let reference = render(&ctx, &mut without, &target, &FrameInput { detail: off, ..input });
        let reference_counts = counters(&ctx, &mut without);

        let (differing, bounds) = common::differing_pixels(&reference, &culled);
        let bound = ((width * height) as f64 * MAX_DIFFERING_FRACTION) as usize;
        eprintln!(
            "{name} frame {i} ({width}x{height}): {differing} pixels differ (bound {bound}); visible {}, drawn {:?}, \
             occluded {}",
            culled_counts.visible, culled_counts.drawn, culled_counts.occluded
        );
        if differing > bound {
            let (actual, diff) = common::write_mismatch(&format!("occlusion-{name}-{i}"), &reference, &culled);
            panic!(
                "{name} frame {i}: {differing} pixels differ with occlusion culling (bound {bound}) within {bounds:?}; \
                 actual {}, diff {}",
                actual.display(),
                diff.display()
            );
        }
        // Both renderers test the same objects. Phase 2 draws only objects it finds unhidden
        // and phase 1 did not draw; between them, every unhidden visible object is drawn.
        let [early, late] = culled_counts.drawn;
        let (visible, occluded) = (culled_counts.visible, culled_counts.occluded);
        assert_eq!(visible, reference_counts.visible, "{name} frame {i}: visible objects");
        assert!(late + occluded <= visible, "{name} frame {i}: phase 2 drew an occluded or invisible object");
        assert!(early + late + occluded >= visible, "{name} frame {i}: an unhidden visible object was not drawn");
        if i == 0 {
            assert_eq!(culled_counts.drawn[0], 0, "{name}: the first frame has no history to draw early");
        }
        if i == JUMP_AT {
            assert!(culled_counts.drawn[1] > 0, "{name}: after a jump cut, phase 2 must draw what phase 1 missed");
        }
        occluded_total += culled_counts.occluded as u64;
    }
    assert!(occluded_total > 0, "{name}: occlusion culling rejected nothing along the path; the test proves nothing");
}

#[test]
fn occlusion_culling_is_invisible_on_the_default_scene() {
    check_path("default", &file::default_scene());
}

/// The same with the compute rasteriser and two phases in every frame (a CPU adapter's adaptive
/// frame starts without either): its objects' visibility bits come from the pixels they hold
/// (`shaders/mark.wgsl`), and no frame may lose an object for it.
#[test]
fn occlusion_culling_is_invisible_with_the_compute_rasteriser() {
    let forced = Detail { occlusion: true, auto_occlusion: false, soft: true, auto_soft: false, ..Detail::default() };
    check_path_with("default-soft", &file::default_scene(), forced);
}

/// With the compute rasteriser, the first phase draws of its objects exactly those that held a
/// pixel of its visibility buffer in the frame before (the second phase leaves their bits to
/// the mark dispatch, `shaders/mark.wgsl`): in a still scene, as many as the distinct objects
/// the buffer names, counted here from it. The bits of every visible object, the second phase's
/// own, would draw the objects the pyramid fails to hide as well.
#[test]
fn the_first_phase_draws_the_compute_rasterisers_objects_that_held_a_pixel() {
    let ctx = common::context();
    let mut scene = file::default_scene();
    scene.set_animated(false);
    let mut renderer = common::renderer(&ctx, &scene);
    let target = OffscreenTarget::new(&ctx.device, 320, 180);
    let detail = Detail { occlusion: true, auto_occlusion: false, soft: true, auto_soft: false, ..Detail::default() };
    let input = FrameInput { detail, ..FrameInput::new(scene.camera, DrawMode::Gpu) };
    let mut held = None;
    for frame in 0..4 {
        render(&ctx, &mut renderer, &target, &input);
        let counts = counters(&ctx, &mut renderer);
        if let Some(held) = held {
            assert_eq!(counts.soft_early, held, "frame {frame}: the compute rasteriser's first phase");
            assert!(counts.occluded > 0, "frame {frame}: the pyramid hides nothing; the test proves nothing");
            assert!(
                counts.soft > held,
                "frame {frame}: the second phase drew none of the objects the pyramid fails to hide"
            );
        }
        held = Some(objects_holding_pixels(&ctx, &renderer));
    }
}

/// The distinct places in the compute rasteriser's list that its visibility buffer names: the
/// objects that hold at least one of its pixels.
fn objects_holding_pixels(ctx: &GpuContext, renderer: &Renderer) -> u32 {
    let buffer = renderer.raster(0).expect("a compute rasteriser").visibility_buffer();
    let bytes = multidraw::gpu::readback::read_buffer(&ctx.device, &ctx.queue, buffer, 0, buffer.size());
    let words: Vec<u32> = bytes.chunks_exact(4).map(|w| u32::from_le_bytes(w.try_into().unwrap())).collect();
    let places: std::collections::BTreeSet<u32> = words
        .chunks_exact(2)
        .filter(|word| word != &[0, 0])
        .map(|word| ((u32::MAX - word[0]) & !SOFT_TEXTURED_BIT) >> SOFT_TRIANGLE_BITS)
        .collect();
    places.len() as u32
}

#[test]
fn occlusion_culling_is_invisible_on_the_city() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join("city.toml");
    let scene = file::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    check_path("city", &scene);
}

/// The camera of the city path seen from street level, where buildings hide most of the city.
#[test]
fn occlusion_culling_is_invisible_at_street_level() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join("city.toml");
    let mut scene = file::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    scene.camera.position = Vec3::new(10.0, 2.0, 240.0);
    scene.camera.target = Vec3::new(10.0, 4.0, 0.0);
    check_path("street", &scene);
}

/// With culling frozen, the second phase keeps testing against the frozen view's pyramid: a
/// still scene seen from the frozen camera and then from elsewhere culls the same objects as
/// occluded, so what the frozen camera cannot see disappears from the moving camera's view.
#[test]
fn frozen_culling_keeps_the_frozen_views_occlusion() {
    let ctx = common::context();
    let mut scene = file::default_scene();
    scene.set_animated(false);
    let mut renderer = common::renderer(&ctx, &scene);
    let target = OffscreenTarget::new(&ctx.device, 320, 180);
    let frozen = scene.camera;
    let input = FrameInput::new(frozen, DrawMode::Gpu);
    // Three frames reach the steady state (empty pyramid, then everything drawn early, then
    // only what is visible).
    for _ in 0..3 {
        render(&ctx, &mut renderer, &target, &input);
    }
    let at_frozen = counters(&ctx, &mut renderer);
    assert!(at_frozen.occluded > 0, "the frozen view hides something");
    let moved = Camera { position: frozen.position + Vec3::new(30.0, 10.0, 0.0), ..frozen };
    for i in 0..3 {
        render(
            &ctx,
            &mut renderer,
            &target,
            &FrameInput { cull_camera: Some(frozen), ..FrameInput::new(moved, DrawMode::Gpu) },
        );
        let seen = counters(&ctx, &mut renderer);
        assert_eq!(
            (seen.visible, seen.occluded),
            (at_frozen.visible, at_frozen.occluded),
            "frame {i} from the moved camera: the frozen view's culling"
        );
        // Everything the pyramid cannot hide is drawn, in one phase or the other. (How many in
        // each, and so the total, follows the bits the frame before left: the compute
        // rasteriser's objects' from its pixels, `shaders/mark.wgsl`, but it does not draw
        // while culling is frozen.)
        assert!(
            seen.drawn_total() >= seen.visible - seen.occluded,
            "frame {i} from the moved camera: {} drawn, {} visible, {} occluded",
            seen.drawn_total(),
            seen.visible,
            seen.occluded
        );
    }
    // Unfrozen, the moved camera's own view decides.
    for _ in 0..3 {
        render(&ctx, &mut renderer, &target, &FrameInput::new(moved, DrawMode::Gpu));
    }
    let own = counters(&ctx, &mut renderer);
    assert_ne!((own.visible, own.occluded), (at_frozen.visible, at_frozen.occluded), "the moved view sees otherwise");
}
