//! The sun's cascaded shadows (`multidraw::frame::shadows`, `passes::shadow`): every way of
//! drawing casts the same shadows (each cascade culled by the GPU, or by the CPU with one draw
//! per caster); a pole's shadow ends where a ray from its top along the sunlight meets the
//! ground; the recorded commands do not grow with the object count; and a camera moving over a
//! still scene moves the shadow maps by whole texels without redrawing any caster whose level
//! of detail did not change in the main view (no popping).

mod common;

use glam::{Vec3, Vec4Swizzles};
use multidraw::frame::shadows::Cascade;
use multidraw::gpu::target::OffscreenTarget;
use multidraw::passes::cull::{cpu, GpuCounters};
use multidraw::scene::Scene;
use multidraw::tunables::MAX_CASCADES;
use multidraw::{DrawMode, FrameInput, GpuContext, Renderer};

fn render_frames(
    ctx: &GpuContext,
    renderer: &mut Renderer,
    input: &FrameInput,
    (width, height): (u32, u32),
    frames: u32,
) -> (image::RgbaImage, multidraw::FrameStats) {
    let target = OffscreenTarget::new(&ctx.device, width, height);
    let mut stats = None;
    for _ in 0..frames {
        stats = Some(renderer.render(ctx, &target.frame_target(), input));
        ctx.wait_idle();
    }
    let image = target.read_rgba(&ctx.device, &ctx.queue);
    common::assert_no_gpu_errors(ctx);
    (image, stats.expect("at least one frame"))
}

/// Each cascade's counters of the last frame read back with all four (the renderer's view 0).
fn cascade_counters(ctx: &GpuContext, renderer: &mut Renderer) -> Vec<GpuCounters> {
    let readback = renderer
        .collect(&ctx.device)
        .into_iter()
        .rfind(|r| r.cascade_counters[0][3].is_some())
        .expect("cascade counters");
    (0..4).map(|k| readback.cascade_counters[0][k].expect("each cascade's counters")).collect()
}

/// Each of the four layers of view 0's shadow map: its side and its depths.
fn shadow_layers(ctx: &GpuContext, renderer: &Renderer) -> Vec<(u32, Vec<f32>)> {
    (0..4).map(|k| renderer.read_shadow_map(ctx, 0, k).expect("each layer")).collect()
}

/// The GPU-driven modes, the CPU baseline and its render bundles draw the same shadowed frame,
/// each cascade culled on its own; the shadows are really there (the frame differs from the
/// unshadowed one), and each cascade's GPU counters equal what the CPU's cull of that cascade
/// counts.
#[test]
fn every_mode_casts_the_same_shadows() {
    let ctx = common::context();
    let scene = common::scene(3000, true);
    let size = (256, 144);
    // The cascades cull in two phases where the GPU culls (the CPU modes in one).
    let detail = multidraw::Detail { shadow_occlusion: true, ..multidraw::Detail::default() };
    let frame = |mode: DrawMode, shadows: u32| {
        FrameInput { time: 1.5, detail, ..FrameInput::new(scene.camera, mode) }.with_shadows(shadows)
    };
    let mut cpu_renderer = common::hardware_renderer(&ctx, &scene);
    let (want, cpu_stats) = render_frames(&ctx, &mut cpu_renderer, &frame(DrawMode::Cpu, 4), size, 1);
    assert_eq!(cpu_stats.shadow_cascades, 4);
    let (unshadowed, _) = render_frames(&ctx, &mut cpu_renderer, &frame(DrawMode::Cpu, 0), size, 1);
    let shadowed = common::pixels_beyond(&want, &unshadowed, 8);
    assert!(shadowed > 500, "shadows darken the frame: {shadowed} pixels changed");
    for mode in [DrawMode::Gpu, DrawMode::GpuNocount, DrawMode::GpuPerObject] {
        let mut renderer = common::hardware_renderer(&ctx, &scene);
        let (got, stats) = render_frames(&ctx, &mut renderer, &frame(mode, 4), size, 3);
        assert_eq!(stats.shadow_cascades, 4);
        common::assert_same_pixels(&format!("shadows-{mode}"), &format!("{mode} against cpu, 4 cascades"), &want, &got);
        let counters = cascade_counters(&ctx, &mut renderer);
        for (k, &gpu) in counters.iter().enumerate() {
            let cpu = cpu_stats.cascade_counts[k].expect("the cpu's count of each cascade");
            assert_eq!(
                (gpu.in_frustum, gpu.too_small, gpu.visible),
                (cpu.in_frustum, cpu.too_small, cpu.visible),
                "{mode}, cascade {k}"
            );
            // The GPU-driven cascades cull in two phases: what their pyramids hide is not drawn.
            let drawn = gpu.drawn[0] + gpu.drawn[1];
            assert_eq!(drawn + gpu.occluded, cpu.visible, "{mode}, cascade {k}: every caster drawn or hidden");
            assert_eq!(gpu.levels.iter().sum::<u32>(), drawn, "{mode}, cascade {k}: a level for each drawn");
            if gpu.occluded == 0 {
                assert_eq!(gpu.levels, cpu.levels, "{mode}, cascade {k}: the same levels");
            }
        }
    }
    // Render bundles replay the CPU's casters of each cascade into its layer.
    let mut renderer = common::hardware_renderer(&ctx, &scene);
    let (bundled, stats) = render_frames(&ctx, &mut renderer, &frame(DrawMode::Bundle, 4), size, 2);
    assert_eq!(stats.shadow_cascades, 4);
    common::assert_same_pixels("shadows-bundle", "bundle against cpu, 4 cascades", &want, &bundled);
    // With the compute rasteriser the frame's small objects are shaded by a compute dispatch,
    // which reads the same cascades.
    let mut renderer = common::renderer(&ctx, &scene);
    let (soft, stats) = render_frames(&ctx, &mut renderer, &frame(DrawMode::Gpu, 4), size, 3);
    assert!(stats.soft, "the compute rasteriser draws");
    let beyond = common::pixels_beyond(&want, &soft, common::RASTER_TOLERANCE);
    let pixels = (size.0 * size.1) as usize;
    if beyond * 100 > pixels {
        common::write_mismatch("shadows-soft", &want, &soft);
        panic!("compute rasteriser with shadows: {beyond} of {pixels} pixels beyond {}", common::RASTER_TOLERANCE);
    }
}

/// The compute rasteriser draws a cascade's small casters (`passes::raster` in a cascade,
/// merged into the layer by `shaders/shadow_merge.wgsl`), in one culling phase and in two: each layer of the shadow map holds
/// what the hardware depth pass draws, texel for texel within the rasterisers' rounding (a
/// depth may differ by the 16-bit steps of the two depth-bias computations; a texel on a
/// caster's edge by coverage), and the frame is the same within the compute rasteriser's
/// bound.
#[test]
fn small_casters_drawn_by_the_compute_rasteriser_cast_the_same_shadows() {
    let ctx = common::context();
    let size = (320, 180);
    // Still, and moving: the casters' depths of one frame must not stay in the next's layer
    // (the first phase's merge takes the far plane, not last frame's layer).
    for (animated, shadow_occlusion) in [(false, false), (false, true), (true, false)] {
        let scene = common::scene(3000, animated);
        let detail = multidraw::Detail { shadow_occlusion, ..multidraw::Detail::default() };
        let input = FrameInput { detail, ..FrameInput::new(scene.camera, DrawMode::Gpu) }.with_shadows(4);
        let mut runs = Vec::new();
        for soft in [false, true] {
            let mut renderer =
                if soft { common::renderer(&ctx, &scene) } else { common::hardware_renderer(&ctx, &scene) };
            let (image, stats) = render_frames(&ctx, &mut renderer, &input, size, 4);
            assert_eq!(stats.soft, soft, "the compute rasteriser draws where it exists");
            let maps = shadow_layers(&ctx, &renderer);
            let soft_casters: Vec<_> = cascade_counters(&ctx, &mut renderer).iter().map(|c| c.soft).collect();
            runs.push((image, maps, soft_casters));
        }
        let (hardware, soft) = (&runs[0], &runs[1]);
        let label = format!("{} phase(s), animated {animated}", if shadow_occlusion { 2 } else { 1 });
        assert_eq!(hardware.2, [0; 4], "{label}: no compute rasteriser, no small casters listed");
        assert!(soft.2.iter().all(|&n| n > 0), "{label}: every cascade has small casters: {:?}", soft.2);
        for k in 0..4 {
            let ((side, want), (_, got)) = (&hardware.1[k], &soft.1[k]);
            // Vulkan leaves the depth bias's units (the constant part's step) and slope (the
            // largest or the length of the depth's gradient) to the implementation: lavapipe's
            // bias is 2 to 4 steps of the 16-bit layer larger than the compute rasteriser's.
            let far_apart = want.iter().zip(got).filter(|(a, b)| (*a - *b).abs() > 6.5 / 65536.0).count();
            let texels = (side * side) as usize;
            eprintln!("{label}, cascade {k}: {far_apart} of {texels} texels apart, {} small casters", soft.2[k]);
            assert!(far_apart * 2000 <= texels, "{label}, cascade {k}: {far_apart} of {texels} texels differ");
        }
        let beyond = common::pixels_beyond(&hardware.0, &soft.0, common::RASTER_TOLERANCE);
        let pixels = (size.0 * size.1) as usize;
        if beyond * 100 > pixels {
            common::write_mismatch("shadows-soft-casters", &hardware.0, &soft.0);
            panic!("{label}: {beyond} of {pixels} pixels beyond {}", common::RASTER_TOLERANCE);
        }
    }
}

/// A cascade's depth pass starts with a copy into its layer (the far plane, or the merge of the
/// compute rasteriser's casters: `passes::shadow::LayerStart`), which no pass's own timestamps
/// cover; the pass's time runs from before that copy (`FrameEncoder::before_pass`). With and
/// without the compute rasteriser, in one phase and in two, every cascade's passes are timed,
/// each span lies within the frame's, and a depth pass's span starts after its merge ends
/// (lavapipe runs a command buffer in order).
#[test]
fn a_cascades_depth_pass_is_timed_from_the_copy_that_starts_it() {
    let ctx = common::context();
    let scene = common::scene(3000, false);
    for shadow_occlusion in [false, true] {
        for soft in [false, true] {
            let detail = multidraw::Detail { shadow_occlusion, ..multidraw::Detail::default() };
            let input = FrameInput { detail, ..FrameInput::new(scene.camera, DrawMode::Gpu) }.with_shadows(4);
            let mut renderer =
                if soft { common::renderer(&ctx, &scene) } else { common::hardware_renderer(&ctx, &scene) };
            let (_, stats) = render_frames(&ctx, &mut renderer, &input, (160, 90), 4);
            assert_eq!(stats.soft, soft, "the compute rasteriser draws where it exists");
            let label = format!("{} phase(s), compute rasteriser {soft}", if shadow_occlusion { 2 } else { 1 });
            let readbacks = renderer.collect(&ctx.device);
            let times = readbacks.iter().rev().find_map(|r| r.gpu.as_ref()).expect("lavapipe has timestamps");
            let spans: Vec<_> = times.spans().collect();
            let first = spans.iter().map(|s| s.1).min().expect("passes were timed");
            let last = spans.iter().map(|s| s.2).max().expect("passes were timed");
            for &(name, begin, end) in &spans {
                assert!(
                    first <= begin && begin <= end && end <= last,
                    "{label}: {name} spans {begin}..{end}: {spans:?}"
                );
            }
            let span = |name: &str| spans.iter().find(|s| s.0 == name).copied();
            for k in 0..MAX_CASCADES {
                let depth = span(&format!("shadow {k}")).unwrap_or_else(|| panic!("{label}: shadow {k} timed"));
                let merge = span(&format!("merge shadow {k}"));
                assert_eq!(merge.is_some(), soft, "{label}: cascade {k} merges only where it rasterises: {spans:?}");
                if let Some(merge) = merge {
                    assert!(merge.2 <= depth.1, "{label}: cascade {k}'s depth pass starts after its merge: {spans:?}");
                }
                if shadow_occlusion {
                    let late = span(&format!("shadow {k} late"))
                        .unwrap_or_else(|| panic!("{label}: shadow {k} late timed: {spans:?}"));
                    let merge = span(&format!("merge shadow {k} late"));
                    assert_eq!(merge.is_some(), soft, "{label}: cascade {k}'s second phase merges: {spans:?}");
                    if let Some(merge) = merge {
                        assert!(
                            merge.2 <= late.1,
                            "{label}: cascade {k}'s late depth pass starts after its merge: {spans:?}"
                        );
                    }
                }
            }
        }
    }
}

/// A scene of a ground plate and a pole (wider than the shadow filter, so its shadow's
/// centre line is dark) under the sun, seen from above.
fn pole_scene(sun_direction: [f32; 3]) -> Scene {
    let text = format!(
        r#"
[scene]
name = "pole"

[camera]
position = [-2.0, 12.0, -1.0]
target = [-2.0, 0.0, -1.0]
up = [0.0, 0.0, -1.0]
fov_y_degrees = 50.0
near = 0.5
far = 100.0

[sun]
direction = [{}, {}, {}]

[[mesh]]
name = "ground"
procedural = "cube"
scale = [16.0, 1.0, 16.0]
offset = [0.0, -0.5, 0.0]

[[mesh]]
name = "pole"
procedural = "cube"
scale = [0.6, 4.0, 0.6]
offset = [0.0, 2.0, 0.0]

[[material]]
name = "grey"
base_color = [0.8, 0.8, 0.8, 1.0]

[[objects]]
transforms = [
    {{ mesh = "ground", material = "grey", position = [0.0, 0.0, 0.0] }},
    {{ mesh = "pole", material = "grey", position = [0.0, 0.0, 0.0] }},
]
"#,
        sun_direction[0], sun_direction[1], sun_direction[2]
    );
    multidraw::scene::file::parse(&text, "pole.toml", None).expect("the pole scene parses")
}

/// The shadow of the pole's top falls where a ray from it along the sunlight meets the ground:
/// along the shadow's axis on screen, the lit-to-shadow midpoint is within 2 px of the tip's
/// projection with 2 to 4 cascades, in the GPU-driven and the CPU modes. One cascade spreads
/// its texels over the whole view (here about two pixels each): within 3 px.
#[test]
fn a_pole_casts_its_shadow_where_a_ray_says() {
    let ctx = common::context();
    let (width, height) = (320, 320);
    for (direction, axis) in [([-1.0, -1.0, 0.0], Vec3::NEG_X), ([0.0, -1.0, -0.7], Vec3::NEG_Z)] {
        let scene = pole_scene(direction);
        let sun = scene.sun.direction;
        // The shadow runs along `axis` on the ground; the top face's edge farthest along it
        // casts its tip.
        let along = Vec3::new(sun.x, 0.0, sun.z).normalize();
        assert!(along.dot(axis) > 0.999, "the shadow runs along {axis}");
        let corner = Vec3::new(0.0, 4.0, 0.0) + axis * 0.3;
        let tip = corner + sun * (corner.y / -sun.y);
        let view_proj = scene.camera.view_proj(width as f32 / height as f32);
        let to_screen = |p: Vec3| {
            let ndc = view_proj.project_point3(p);
            glam::Vec2::new((ndc.x * 0.5 + 0.5) * width as f32, (0.5 - ndc.y * 0.5) * height as f32)
        };
        for mode in [DrawMode::Gpu, DrawMode::Cpu] {
            for cascades in 1..=MAX_CASCADES as u32 {
                let mut renderer = common::hardware_renderer(&ctx, &scene);
                let input = FrameInput::new(scene.camera, mode).with_shadows(cascades);
                let (image, _) = render_frames(&ctx, &mut renderer, &input, (width, height), 2);
                // Walk from the pole's foot along the shadow's direction on the ground, in small
                // steps; sample the image's brightness at each step.
                let foot = Vec3::new(0.0, 0.0, 0.0) + along * 0.5;
                let sample = |p: Vec3| {
                    let s = to_screen(p);
                    let pixel = image.get_pixel(s.x as u32, s.y as u32);
                    pixel.0[0] as f32
                };
                let lit = sample(tip + along * 2.0);
                let dark = sample(foot + along * 0.5);
                assert!(
                    lit - dark > 40.0,
                    "{mode}, {cascades} cascades: the shadow is visible (lit {lit}, shadow {dark})"
                );
                let middle = 0.5 * (lit + dark);
                let mut edge = None;
                let steps = 2000;
                let length = (tip - foot).length() + 2.0;
                for i in 0..steps {
                    let p = foot + along * (length * i as f32 / steps as f32);
                    if sample(p) > middle {
                        edge = Some(p);
                        break;
                    }
                }
                let edge = edge.unwrap_or_else(|| panic!("{mode}, {cascades} cascades: the shadow never ends"));
                let miss = (to_screen(edge) - to_screen(tip)).length();
                eprintln!(
                    "{mode}, {cascades} cascades, sun {sun}: the shadow ends {miss:.2} px from the ray's tip ({:+.3} units along); lit {lit} dark {dark}",
                    (edge - tip).dot(along)
                );
                let bound = if cascades == 1 { 3.0 } else { 2.0 };
                if miss > bound {
                    let path = common::output_dir().join(format!("pole-{mode}-{cascades}.png"));
                    image.save(&path).expect("write the pole image");
                    panic!(
                        "{mode}, {cascades} cascades, sun {sun}: the shadow ends {miss:.2} px from the ray's tip ({})",
                        path.display()
                    );
                }
            }
        }
    }
}

/// A roof over a field of crates, under a high sun: every cascade's second phase finds the
/// crates hidden behind the roof in its own pyramid (built from its first phase's depth, the
/// casters drawn last frame) and does not draw them, and every texel of every layer is what
/// the cascades draw without occlusion culling, as is the frame.
#[test]
fn cascades_cull_hidden_casters_and_keep_every_texel() {
    let crates: String = (0..400)
        .map(|i| {
            format!(
                "{{ mesh = \"crate\", material = \"grey\", position = [{}, 0.5, {}] }},\n",
                i % 20 - 10,
                i / 20 - 10
            )
        })
        .collect();
    let text = format!(
        "[camera]\nposition = [0.0, 2.0, 16.0]\ntarget = [0.0, 1.0, 0.0]\nnear = 0.1\nfar = 60.0\n\
         [sun]\ndirection = [0.2, -1.0, 0.1]\n\
         [[mesh]]\nname = \"crate\"\nprocedural = \"cube\"\nscale = [0.8, 0.8, 0.8]\n\
         [[mesh]]\nname = \"roof\"\nprocedural = \"cube\"\nscale = [40.0, 0.5, 40.0]\n\
         [[material]]\nname = \"grey\"\nbase_color = [0.8, 0.8, 0.8, 1.0]\n\
         [[objects]]\ntransforms = [\n{crates}{{ mesh = \"roof\", material = \"grey\", position = [0.0, 8.0, 0.0] }},\n]\n"
    );
    let scene = multidraw::scene::file::parse(&text, "roof.toml", None).expect("the roof scene parses");
    let ctx = common::context();
    let size = (160, 90);
    let mut runs = Vec::new();
    for occlusion in [false, true] {
        let mut renderer = common::hardware_renderer(&ctx, &scene);
        let detail = multidraw::Detail { shadow_occlusion: occlusion, ..multidraw::Detail::default() };
        let input = FrameInput { detail, ..FrameInput::new(scene.camera, DrawMode::Gpu) }.with_shadows(4);
        // Frames to settle the cascades' visibility bits (the first frame's first phase draws nothing).
        let (image, stats) = render_frames(&ctx, &mut renderer, &input, size, 4);
        assert_eq!(stats.shadow_cascades, 4);
        let maps = shadow_layers(&ctx, &renderer);
        let counters = cascade_counters(&ctx, &mut renderer);
        runs.push((image, maps, counters));
    }
    let (off, on) = (&runs[0], &runs[1]);
    common::assert_same_pixels("cascade-occlusion", "cascades culled in two phases against one phase", &off.0, &on.0);
    let mut casters = 0;
    for k in 0..4 {
        assert!(off.1[k] == on.1[k], "cascade {k}: a texel differs with occlusion culling");
        let (without, with) = (&off.2[k], &on.2[k]);
        assert_eq!(without.occluded, 0, "cascade {k}: one phase hides nothing");
        assert_eq!(with.visible, without.visible, "cascade {k}: the same casters in its frustum");
        // Every caster in the cascade but the roof is a crate under it. (The first cascade's
        // slice is short: only the crates whose shadow can reach it are its casters.)
        eprintln!("cascade {k}: {} casters, {} occluded", with.visible, with.occluded);
        casters += with.visible;
        assert!(
            with.visible > 20 && with.occluded * 10 >= (with.visible - 1) * 9,
            "cascade {k}: the roof hides the crates under it ({} occluded of {} casters)",
            with.occluded,
            with.visible
        );
    }
    assert!(casters > 400, "the cascades hold the field's crates: {casters} casters in all");
}

/// With 4 cascades the GPU-driven frame records the same commands at 1,000 and 100,000
/// objects: each cascade one multi-draw per variant, like the main pass.
#[test]
fn shadow_commands_do_not_grow_with_objects() {
    let ctx = common::context();
    let mut commands = Vec::new();
    for objects in [1_000, 100_000] {
        let scene = common::scene(objects, false);
        let mut renderer = common::renderer(&ctx, &scene);
        let input = FrameInput::new(scene.camera, DrawMode::Gpu).with_shadows(4);
        let (_, stats) = render_frames(&ctx, &mut renderer, &input, (64, 64), 2);
        assert_eq!(stats.shadow_cascades, 4);
        for k in 0..4 {
            let pass = stats.commands.pass(multidraw::passes::shadow::NAMES[k]);
            assert!(pass.draw_commands() >= 1, "cascade {k} draws: {pass:?}");
            assert!(pass.draw_commands() <= multidraw::scene::Variant::ALL.len() as u32, "cascade {k}: {pass:?}");
        }
        commands.push(stats.commands);
    }
    assert_eq!(commands[0], commands[1], "commands at 1,000 and 100,000 objects");
}

/// How far a texel's depth may move by float rounding when its map shifts by whole texels (the
/// scene spans the depth range 0 to 1; a caster that appears, leaves or changes level moves
/// its texels far more).
const DEPTH_ROUNDING: f32 = 2e-5;

/// A camera moving over a still scene, LOD on, 30 frames: every cascade keeps its texel size
/// and moves by whole texels, and each texel of its map keeps its depth unless a caster whose
/// level of detail changed in the main view covers it, or one that began or stopped casting
/// into the view (its shadow reaches the cascade's part of the view, or no longer does:
/// `cpu::casts_into`; their footprints are left out). So a shadow changes shape only where
/// the object casting it does, or where the view cannot see it.
#[test]
fn a_moving_camera_does_not_redraw_unchanged_shadows() {
    let ctx = common::context();
    let scene = common::scene(2000, false);
    let (width, height) = (160, 90);
    let mut renderer = common::hardware_renderer(&ctx, &scene);
    let target = OffscreenTarget::new(&ctx.device, width, height);
    let prepared = (renderer.prepared.objects.clone(), renderer.prepared.batches.clone());
    // The previous frame's cascades, shadow-map layers (side, depths) and main-view levels.
    type Frame = (Vec<Cascade>, Vec<(u32, Vec<f32>)>, Vec<u32>);
    let mut previous: Option<Frame> = None;
    let mut compared = 0usize;
    let mut level_changes = 0usize;
    let mut cast_changes = 0usize;
    for frame in 0..30 {
        let mut camera = scene.camera;
        let step = Vec3::new(0.021, 0.0, 0.013) * frame as f32;
        camera.position += step;
        camera.target += step;
        let input = FrameInput::new(camera, DrawMode::Gpu).with_shadows(4);
        renderer.render(&ctx, &target.frame_target(), &input);
        ctx.wait_idle();
        let cascades = renderer.cascades(0).to_vec();
        assert_eq!(cascades.len(), 4);
        let maps: Vec<_> = (0..4).map(|k| renderer.read_shadow_map(&ctx, 0, k).expect("each layer")).collect();
        let uniforms = renderer.frame_uniforms(&input, width, height);
        let levels: Vec<u32> = prepared
            .0
            .iter()
            .map(|object| {
                let center = cpu::animated_center(&uniforms, object);
                let d = center - uniforms.lod_origin.xyz();
                cpu::select_level(&uniforms, &prepared.1, object, d.dot(d))
            })
            .collect();
        if let Some((old_cascades, old_maps, old_levels)) = &previous {
            let changed: Vec<usize> = (0..levels.len()).filter(|&i| levels[i] != old_levels[i]).collect();
            level_changes += changed.len();
            for k in 0..4 {
                let (a, b) = (&old_cascades[k], &cascades[k]);
                assert_eq!(a.texel_size, b.texel_size, "frame {frame}, cascade {k}: the texel size changed");
                let (size, old) = (&old_maps[k].0, &old_maps[k].1);
                let new = &maps[k].1;
                let size = *size as i64;
                // The same world point's texel in either map.
                let texel_of = |cascade: &Cascade, p: Vec3| {
                    let ndc = cascade.view_proj.project_point3(p);
                    glam::Vec2::new((ndc.x * 0.5 + 0.5) * size as f32, (0.5 - ndc.y * 0.5) * size as f32)
                };
                let shift = texel_of(b, Vec3::ZERO) - texel_of(a, Vec3::ZERO);
                let whole = shift.round();
                assert!(
                    (shift - whole).abs().max_element() < 0.02,
                    "frame {frame}, cascade {k}: moved by {shift} texels"
                );
                let (dx, dy) = (whole.x as i64, whole.y as i64);
                // Footprints of the objects whose level changed, in the new map's texels.
                let mut masked = vec![false; (size * size) as usize];
                let casts = |cascade: &Cascade, object: &multidraw::gpu_scene::types::GpuObject| {
                    let center = object.model.transform_point3(object.bounds.xyz());
                    cpu::casts_into(&cascade.caster_planes, cascade.caster_sweep, center, object.bounds.w)
                };
                let entered_or_left =
                    (0..levels.len()).filter(|&i| casts(a, &prepared.0[i]) != casts(b, &prepared.0[i]));
                cast_changes += entered_or_left.clone().count();
                for i in changed.iter().copied().chain(entered_or_left) {
                    let object = &prepared.0[i];
                    let center = object.model.transform_point3(object.bounds.xyz());
                    let c = texel_of(b, center);
                    let r = object.bounds.w / b.texel_size + 3.0;
                    let (x0, x1) = ((c.x - r).floor() as i64, (c.x + r).ceil() as i64);
                    let (y0, y1) = ((c.y - r).floor() as i64, (c.y + r).ceil() as i64);
                    for y in y0.max(0)..y1.min(size) {
                        for x in x0.max(0)..x1.min(size) {
                            masked[(y * size + x) as usize] = true;
                        }
                    }
                }
                let mut differing = 0usize;
                let mut both = 0usize;
                for y in 0..size {
                    for x in 0..size {
                        let (ox, oy) = (x - dx, y - dy);
                        if ox < 0 || oy < 0 || ox >= size || oy >= size || masked[(y * size + x) as usize] {
                            continue;
                        }
                        both += 1;
                        let (now, before) = (new[(y * size + x) as usize], old[(oy * size + ox) as usize]);
                        if (now - before).abs() > DEPTH_ROUNDING {
                            differing += 1;
                        }
                    }
                }
                compared += both;
                // Float rounding of the shifted projection may move a triangle's edge across a
                // texel centre: a handful of texels, never a caster. (Depths themselves differ by
                // rounding: a surface is interpolated from vertices shifted by a texel.)
                if differing * 2000 > both {
                    let picture = image::GrayImage::from_fn(size as u32, size as u32, |x, y| {
                        let (x, y) = (x as i64, y as i64);
                        let (ox, oy) = (x - dx, y - dy);
                        let i = (y * size + x) as usize;
                        let same =
                            ox < 0 || oy < 0 || ox >= size || oy >= size || new[i] == old[(oy * size + ox) as usize];
                        image::Luma([if masked[i] {
                            128
                        } else if same {
                            0
                        } else {
                            255
                        }])
                    });
                    let path = common::output_dir().join(format!("shadow-moved-{frame}-{k}.png"));
                    picture.save(&path).expect("write the difference");
                    panic!(
                        "frame {frame}, cascade {k}: {differing} of {both} texels redrawn without a level change \
                         (shift {dx}, {dy}; {} objects changed level): {}",
                        changed.len(),
                        path.display()
                    );
                }
            }
        }
        previous = Some((cascades, maps, levels));
    }
    assert!(compared > 100_000, "texels compared: {compared}");
    assert!(level_changes > 0, "the camera's motion changes some levels (else the test shows nothing)");
    println!("{level_changes} level changes, {cast_changes} casters that began or stopped casting into the view");
}
