//! Soak: GPU-driven frames of the animated default scene with host and GPU memory sampled.
//! CI runs 1,500 frames of a 2,000-object version (lavapipe is slow); the 10,000-frame run of
//! the full default scene is `multidraw soak` (numbers in docs/BENCHMARKS.md). The churn soak
//! replaces half the objects every frame (`multidraw soak --churn`).

mod common;

use multidraw::bench::soak;
use multidraw::scene::file::default_scene_with_objects;

#[test]
fn memory_stays_flat_over_many_frames() {
    let ctx = common::context();
    let scene = default_scene_with_objects(2_000);
    let report = soak::run(&ctx, &scene, 1_500, 150, 75, 64, 48, multidraw::Detail::default(), 0, 0, &mut |_, _| {})
        .expect("soak run");
    let last = report.samples.last().expect("samples");
    // The counters must be live, or "flat" would prove nothing.
    assert!(last.live_buffers > 5 && last.gpu_buffer_bytes > 0, "wgpu counters are not enabled: {last:?}");
    assert!(last.engine_buffers_created >= 10, "the engine's buffer counter is not counting: {last:?}");
    eprintln!("soak: {} frames in {:.1} s; {}", report.frames, report.seconds, report.growth_line());
    // lavapipe's resident size swings by megabytes with its own pools (docs/BENCHMARKS.md § "Soak memory bound"),
    // so the bound is on the trend: here the peak of the samples at frames 825-1,499 over that of
    // 150-750, which a steady leak takes past 4 MiB from about 5.6 KB a frame (749 frames lie
    // between the two peaks).
    assert!(report.flat(4 * 1024 * 1024), "memory grew after warm-up: {report:#?}");
}

/// `soak --churn 10000` on a small scene: 10,000 of the 20,000 objects replaced every frame (and
/// 10,000 more moved) for 2,000 frames; memory is flat after warm-up and no engine buffer is
/// made once the batches' capacities settle (the longest test of `make test`: docs/BENCHMARKS.md,
/// "Soak", gives its time).
#[test]
fn memory_stays_flat_while_the_scene_churns() {
    let ctx = common::context();
    let scene = default_scene_with_objects(20_000);
    let detail = multidraw::Detail::default();
    let report = soak::run(&ctx, &scene, 2_000, 500, 250, 64, 48, detail, 0, 10_000, &mut |_, _| {})
        .expect("soak run with churn");
    assert_eq!(report.frames, 2_000);
    eprintln!("churn soak: {} frames in {:.1} s; {}", report.frames, report.seconds, report.growth_line());
    assert!(report.flat(4 * 1024 * 1024), "memory grew after warm-up: {report:#?}");
}
