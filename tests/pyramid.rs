//! The pyramid pass on a real frame's depth equals a CPU reduction of that depth, exactly (it
//! is a max of floats), at screen sizes that are not powers of two; every depth texel is at
//! most the value of every pyramid texel covering it, at every level; and the levels have the
//! power-of-two-floor sizes. The pyramid is poisoned before every run, so a texel the GPU did
//! not write fails.

mod common;

use std::ops::RangeInclusive;

use multidraw::gpu::commands::FrameEncoder;
use multidraw::gpu::readback::read_buffer;
use multidraw::gpu::target::{read_texture_f32, OffscreenTarget};
use multidraw::gpu_scene::layout::PYRAMID_IO;
use multidraw::passes::pyramid::{self, PyramidPass};
use multidraw::scene::Scene;
use multidraw::{DrawMode, GpuContext, Renderer};

/// No depth is negative, so a poisoned texel can never equal the reference nor bound a depth.
const POISON: f32 = -1.0;

/// One level (or the depth buffer) on the CPU, row by row.
struct Level {
    width: u32,
    height: u32,
    texels: Vec<f32>,
}

impl Level {
    fn at(&self, x: u32, y: u32) -> f32 {
        self.texels[(y * self.width + x) as usize]
    }
}

/// The source texels destination texel `texel` covers along one axis: floor(t·r) ..=
/// ceil((t + 1)·r) − 1 with r = source / destination, in integers.
fn covered(texel: u32, destination: u32, source: u32) -> RangeInclusive<u32> {
    let first = texel * source / destination;
    let end = ((texel + 1) * source).div_ceil(destination);
    first..=end - 1
}

/// The largest power of two below `n` (1 for `n` ≤ 1), counted up rather than taken from the
/// engine.
fn pow2_floor(n: u32) -> u32 {
    let mut p = 1;
    while p * 2 < n {
        p *= 2;
    }
    p
}

/// `source` reduced to `width` × `height`, each texel the max of the source texels it covers.
fn reduce(source: &Level, width: u32, height: u32) -> Level {
    let mut texels = Vec::with_capacity((width * height) as usize);
    for y in 0..height {
        for x in 0..width {
            let mut farthest = f32::NEG_INFINITY;
            for sy in covered(y, height, source.height) {
                for sx in covered(x, width, source.width) {
                    farthest = farthest.max(source.at(sx, sy));
                }
            }
            texels.push(farthest);
        }
    }
    Level { width, height, texels }
}

/// The whole pyramid of `depth` on the CPU: level 0 by the covering rule, then halving (the
/// same rule, at a ratio of exactly 2, or 1 where a dimension is already 1).
fn cpu_pyramid(depth: &Level) -> Vec<Level> {
    let mut levels = vec![reduce(depth, pow2_floor(depth.width), pow2_floor(depth.height))];
    loop {
        let last = levels.last().expect("level 0");
        if last.width == 1 && last.height == 1 {
            return levels;
        }
        let next = reduce(last, (last.width / 2).max(1), (last.height / 2).max(1));
        levels.push(next);
    }
}

/// Renders one GPU-driven frame of `scene` into a fresh `width` × `height` target.
fn render_frame(ctx: &GpuContext, renderer: &mut Renderer, scene: &Scene, width: u32, height: u32) -> OffscreenTarget {
    let target = OffscreenTarget::new(&ctx.device, width, height);
    renderer.render(ctx, &target.frame_target(), &common::input(scene, DrawMode::Gpu, 0.5));
    ctx.wait_idle();
    common::assert_no_gpu_errors(ctx);
    target
}

fn read_levels(ctx: &GpuContext, pass: &PyramidPass) -> Vec<Level> {
    (0..pass.level_count())
        .map(|level| {
            let (width, height) = pass.level_size(level);
            let texels = read_texture_f32(&ctx.device, &ctx.queue, pass.texture(), level);
            Level { width, height, texels }
        })
        .collect()
}

fn poison(ctx: &GpuContext, pass: &PyramidPass) {
    for level in 0..pass.level_count() {
        let (width, height) = pass.level_size(level);
        let texels = vec![POISON; (width * height) as usize];
        ctx.queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: pass.texture(),
                mip_level: level,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            bytemuck::cast_slice(&texels),
            wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(width * 4), rows_per_image: Some(height) },
            wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
        );
    }
    let poisoned = read_levels(ctx, pass);
    assert!(poisoned.iter().all(|l| l.texels.iter().all(|&t| t == POISON)), "poisoning the pyramid failed");
}

/// Poisons the pyramid, runs the pass on `target`'s depth and checks it against the CPU.
fn check_pyramid(ctx: &GpuContext, pass: &PyramidPass, target: &OffscreenTarget) {
    let screen = format!("{}×{}", target.width, target.height);
    poison(ctx, pass);

    let mut frame = FrameEncoder::new(&ctx.device, "pyramid test", None);
    pass.record(&mut frame, false);
    // The recorded commands depend on the resolution only: one bind group and one dispatch
    // per level, the two pipelines set once each.
    let commands = frame.commands.pass(pyramid::NAME);
    assert_eq!(commands.dispatch, pass.level_count(), "{screen}: dispatches");
    assert_eq!(commands.set_bind_group[PYRAMID_IO.index as usize], pass.level_count(), "{screen}: bind groups");
    assert_eq!(commands.set_pipeline, pass.level_count().min(2), "{screen}: pipelines");
    ctx.queue.submit([frame.encoder.finish()]);
    ctx.wait_idle();
    common::assert_no_gpu_errors(ctx);

    let depth =
        Level { width: target.width, height: target.height, texels: target.read_depth(&ctx.device, &ctx.queue) };
    let drawn = depth.texels.iter().filter(|&&d| d < 1.0).count();
    assert!(
        drawn > depth.texels.len() / 20 && drawn < depth.texels.len(),
        "{screen}: the frame must show geometry and background ({drawn} of {} texels drawn)",
        depth.texels.len()
    );
    assert!(depth.texels.iter().all(|d| (0.0..=1.0).contains(d)), "{screen}: depth outside [0, 1]");

    // Sizes: power-of-two floor at level 0, halved down to 1×1, each dimension stopping at 1.
    let (base_width, base_height) = (pow2_floor(target.width), pow2_floor(target.height));
    let expected_count = base_width.max(base_height).ilog2() + 1;
    assert_eq!(pass.level_count(), expected_count, "{screen}: level count");
    assert_eq!(pass.texture().mip_level_count(), expected_count, "{screen}: texture mips");
    assert_eq!(pass.texture().format(), wgpu::TextureFormat::R32Float);
    for level in 0..expected_count {
        let expected = ((base_width >> level).max(1), (base_height >> level).max(1));
        assert_eq!(pass.level_size(level), expected, "{screen}: level {level} size");
        let size = pass.texture().size().mip_level_size(level, wgpu::TextureDimension::D2);
        assert_eq!((size.width, size.height), expected, "{screen}: level {level} texture size");
    }

    // Exactly the CPU reduction.
    let gpu = read_levels(ctx, pass);
    let cpu = cpu_pyramid(&depth);
    assert_eq!(gpu.len(), cpu.len(), "{screen}: levels");
    for (level, (gpu, cpu)) in gpu.iter().zip(&cpu).enumerate() {
        assert_eq!((gpu.width, gpu.height), (cpu.width, cpu.height), "{screen}: level {level} size");
        let wrong: Vec<_> = (0..gpu.height)
            .flat_map(|y| (0..gpu.width).map(move |x| (x, y)))
            .filter(|&(x, y)| gpu.at(x, y).to_bits() != cpu.at(x, y).to_bits())
            .collect();
        if let Some(&(x, y)) = wrong.first() {
            panic!(
                "{screen}: level {level} ({}×{}) differs from the CPU reduction at {} texels; first ({x}, {y}): \
                 GPU {} (poison is {POISON}), CPU {}",
                gpu.width,
                gpu.height,
                wrong.len(),
                gpu.at(x, y),
                cpu.at(x, y)
            );
        }
    }

    // Conservative, stated directly: a depth texel at (x, y) lies under level-0 texel (cx, cy)
    // when the covering rule includes it (one or two texels per axis), and under texel
    // (cx >> level, cy >> level) of every later level; each of those holds at least its depth.
    let covering = |source: u32, destination: u32| -> Vec<Vec<u32>> {
        (0..source)
            .map(|s| {
                let nearest = s * destination / source;
                (nearest.saturating_sub(1)..=(nearest + 1).min(destination - 1))
                    .filter(|&texel| covered(texel, destination, source).contains(&s))
                    .collect()
            })
            .collect()
    };
    let (columns, rows) = (covering(depth.width, base_width), covering(depth.height, base_height));
    let mut checks = 0u64;
    for y in 0..depth.height {
        for x in 0..depth.width {
            let d = depth.at(x, y);
            assert!(!columns[x as usize].is_empty() && !rows[y as usize].is_empty(), "({x}, {y}) uncovered");
            for &cy in &rows[y as usize] {
                for &cx in &columns[x as usize] {
                    for (level, texels) in gpu.iter().enumerate() {
                        let bound = texels.at(cx >> level, cy >> level);
                        assert!(
                            d <= bound,
                            "{screen}: depth {d} at ({x}, {y}) is farther than level {level} texel ({}, {}) = {bound}",
                            cx >> level,
                            cy >> level
                        );
                        checks += 1;
                    }
                }
            }
        }
    }
    assert!(checks >= (depth.texels.len() as u64) * expected_count as u64);
}

#[test]
fn level_sizes_are_the_power_of_two_floor_halved_to_one() {
    assert_eq!(pyramid::base_size(1000, 563), (512, 512));
    assert_eq!(pyramid::base_size(1920, 1080), (1024, 1024));
    assert_eq!(pyramid::base_size(1024, 768), (512, 512));
    assert_eq!(pyramid::base_size(2048, 2048), (1024, 1024));
    assert_eq!(pyramid::base_size(2, 3), (1, 2));
    assert_eq!(pyramid::base_size(1, 1), (1, 1));
    assert_eq!(pyramid::level_sizes(1, 1), [(1, 1)]);
    assert_eq!(
        pyramid::level_sizes(333, 200),
        [(256, 128), (128, 64), (64, 32), (32, 16), (16, 8), (8, 4), (4, 2), (2, 1), (1, 1)]
    );
    assert_eq!(pyramid::level_sizes(200, 5), [(128, 4), (64, 2), (32, 1), (16, 1), (8, 1), (4, 1), (2, 1), (1, 1)]);
    assert_eq!(pyramid::level_sizes(1920, 1080).len(), 11);
    for (width, height) in [(1, 1), (2, 3), (333, 200), (1000, 563), (4096, 17), (16384, 16384)] {
        let (base_width, base_height) = pyramid::base_size(width, height);
        assert_eq!((base_width, base_height), (pow2_floor(width), pow2_floor(height)), "{width}×{height}");
        assert!(width <= 1 || (base_width < width && width <= 2 * base_width), "{width}: the ratio is in (1, 2]");
    }
}

#[test]
fn covering_rule_covers_every_source_texel_with_at_most_three_per_axis() {
    for source in 1..300 {
        let destination = pow2_floor(source);
        let mut next = 0;
        for texel in 0..destination {
            let range = covered(texel, destination, source);
            assert!(*range.start() <= next, "{source} → {destination}: texel {texel} leaves a gap");
            assert!(range.clone().count() <= 3, "{source} → {destination}: texel {texel} covers {range:?}");
            next = range.end() + 1;
        }
        assert_eq!(next, source, "{source} → {destination}: the last texel ends at the edge");
    }
}

#[test]
fn pyramid_of_a_1000x563_frame_equals_the_cpu_reduction() {
    let ctx = common::context();
    let scene = common::scene(3_000, false);
    let mut renderer = common::renderer(&ctx, &scene);
    let target = render_frame(&ctx, &mut renderer, &scene, 1000, 563);
    let mut pass = PyramidPass::new(&ctx.device, &ctx.pipelines, &renderer.layouts).expect("pyramid pipelines");
    pass.resize(&ctx.device, &target.depth_view, target.width, target.height);
    check_pyramid(&ctx, &pass, &target);
}

#[test]
fn pyramid_after_resize_from_640x480_to_333x200_equals_the_cpu_reduction() {
    let ctx = common::context();
    let scene = common::scene(3_000, false);
    let mut renderer = common::renderer(&ctx, &scene);
    let target = render_frame(&ctx, &mut renderer, &scene, 640, 480);
    let mut pass = PyramidPass::new(&ctx.device, &ctx.pipelines, &renderer.layouts).expect("pyramid pipelines");
    pass.resize(&ctx.device, &target.depth_view, target.width, target.height);
    // Prewarming leaves junk in level 0; the poisoned run after it must not care.
    let mut frame = FrameEncoder::new(&ctx.device, "pyramid prewarm", None);
    pass.prewarm(&mut frame, false);
    ctx.queue.submit([frame.encoder.finish()]);
    check_pyramid(&ctx, &pass, &target);

    let target = render_frame(&ctx, &mut renderer, &scene, 333, 200);
    pass.resize(&ctx.device, &target.depth_view, target.width, target.height);
    check_pyramid(&ctx, &pass, &target);
}

/// With the compute rasteriser, level 0 takes per pixel the nearer of the depth buffer and the
/// raster passes' visibility buffer: the first phase's small objects reach the depth buffer
/// only with the resolve, in the second phase's main pass. Here a frame's visibility buffer
/// over a depth buffer cleared to the median of its depths: its nearer pixels must pull texels
/// below that, its farther ones must leave them there, exactly as a CPU reduction of the
/// per-pixel minimum.
#[test]
fn pyramid_takes_the_nearer_of_depth_and_the_compute_rasterisers_pixels() {
    let ctx = common::context();
    let scene = common::scene(3_000, false);
    let mut renderer = common::renderer(&ctx, &scene);
    let (width, height) = (1000, 563);
    let target = render_frame(&ctx, &mut renderer, &scene, width, height);
    let raster = renderer.raster(0).expect("lavapipe has 64-bit atomics: the compute rasteriser runs");
    let bytes = read_buffer(&ctx.device, &ctx.queue, raster.visibility_buffer(), 0, u64::from(width * height) * 8);
    let words: &[[u32; 2]] = bytemuck::cast_slice(&bytes);
    let soft: Vec<Option<f32>> =
        words.iter().map(|w| (*w != [0, 0]).then(|| f32::from_bits(u32::MAX - w[1]))).collect();
    let mut depths: Vec<f32> = soft.iter().flatten().copied().collect();
    depths.sort_by(f32::total_cmp);
    let middle = depths[depths.len() / 2];
    let near = depths.iter().filter(|&&d| d < middle).count();
    let far = depths.iter().filter(|&&d| d > middle).count();
    assert!(
        near > 1000 && far > 1000,
        "compute-rasterised pixels either side of {middle}: {near} nearer, {far} farther"
    );

    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    drop(encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("depth to the median"),
        color_attachments: &[],
        depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
            view: &target.depth_view,
            depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(middle), store: wgpu::StoreOp::Store }),
            stencil_ops: None,
        }),
        timestamp_writes: None,
        occlusion_query_set: None,
    }));
    ctx.queue.submit([encoder.finish()]);

    let mut pass = PyramidPass::new(&ctx.device, &ctx.pipelines, &renderer.layouts).expect("pyramid pipelines");
    pass.resize(&ctx.device, &target.depth_view, width, height);
    poison(&ctx, &pass);
    pass.fit_soft(&ctx.device, raster.visibility_buffer());
    let mut frame = FrameEncoder::new(&ctx.device, "pyramid soft", None);
    pass.record(&mut frame, true);
    let commands = frame.commands.pass(pyramid::NAME);
    assert_eq!(commands.set_bind_group, [pass.level_count(), 1, 0], "level 0 binds the visibility buffer");
    ctx.queue.submit([frame.encoder.finish()]);
    ctx.wait_idle();
    common::assert_no_gpu_errors(&ctx);

    let nearest = Level { width, height, texels: soft.iter().map(|d| d.map_or(middle, |d| d.min(middle))).collect() };
    let cpu = cpu_pyramid(&nearest);
    let gpu = read_levels(&ctx, &pass);
    for (level, (gpu, cpu)) in gpu.iter().zip(&cpu).enumerate() {
        let wrong = gpu.texels.iter().zip(&cpu.texels).filter(|(g, c)| g.to_bits() != c.to_bits()).count();
        assert_eq!(wrong, 0, "level {level}: texels unlike the CPU reduction of min(depth, visibility buffer)");
    }
    assert!(cpu[0].texels.iter().any(|&t| t < middle), "some level-0 texel is pulled nearer");
}
