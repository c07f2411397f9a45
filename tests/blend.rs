//! Blended objects (`variant = "blend"`, `passes::blend`): drawn after everything opaque,
//! farthest first, depth-tested without writing depth. A red quad at alpha 0.5 in front of a
//! green one gives their mix; a blended quad behind an opaque one is hidden; overlapping
//! blended quads compose in depth order from either side (the sort, and one- and double-sided
//! blended materials); thousands of overlapping blended objects sort on the GPU exactly as the CPU
//! baseline sorts them. Every frame is drawn in every mode, with and without occlusion
//! culling, and all of them agree to the pixel.

mod common;

use glam::{Vec2, Vec3, Vec4, Vec4Swizzles};
use multidraw::frame::Detail;
use multidraw::gpu::target::OffscreenTarget;
use multidraw::mesh::{MeshData, Vertex};
use multidraw::passes::main::CLEAR_COLOR;
use multidraw::scene::{Material, Scene, Variant};
use multidraw::{DrawMode, FrameInput, GpuContext};

const SIZE: (u32, u32) = (160, 120);

/// A scene of `body` seen from `camera_z` on the z axis, looking at the origin, with no light
/// that could tint an unlit surface (no tone mapping either).
fn scene_of(body: &str, camera_z: f32) -> Scene {
    let text = format!(
        r#"
[scene]
name = "blend"

[camera]
position = [0.0, 0.0, {camera_z}]
target = [0.0, 0.0, 0.0]
fov_y_degrees = 40.0
near = 0.5
far = 50.0

[environment]
tone_mapping = "none"

[[mesh]]
name = "panel"
procedural = "cube"
scale = [4.0, 4.0, 0.05]

{body}
"#
    );
    multidraw::scene::file::parse(&text, "blend.toml", None).expect("the blend scene parses")
}

/// The modes and details every frame is drawn in.
fn configurations(base: Detail) -> Vec<(DrawMode, Detail)> {
    let mut all = Vec::new();
    for mode in DrawMode::ALL {
        all.push((mode, base));
        if mode.gpu_culled() {
            all.push((mode, Detail { occlusion: !base.occlusion, ..base }));
        }
    }
    all
}

/// The frame (its second, so occlusion culling's first phase has a frame before it) in every
/// configuration, all equal to the pixel; returns the cpu one.
fn draw(ctx: &GpuContext, scene: &Scene, name: &str) -> image::RgbaImage {
    draw_with(ctx, scene, name, Detail::default())
}

/// [`draw`] from `base`'s detail (occlusion culling on and off).
fn draw_with(ctx: &GpuContext, scene: &Scene, name: &str, base: Detail) -> image::RgbaImage {
    let mut reference: Option<image::RgbaImage> = None;
    for (mode, detail) in configurations(base) {
        let mut renderer = common::renderer(ctx, scene);
        let input = FrameInput { detail, ..FrameInput::new(scene.camera, mode) };
        let target = OffscreenTarget::new(&ctx.device, SIZE.0, SIZE.1);
        renderer.render(ctx, &target.frame_target(), &input);
        renderer.render(ctx, &target.frame_target(), &input);
        ctx.wait_idle();
        let image = target.read_rgba(&ctx.device, &ctx.queue);
        common::assert_no_gpu_errors(ctx);
        match &reference {
            None => reference = Some(image),
            Some(want) => common::assert_same_pixels(
                name,
                &format!("{mode} (occlusion {}) against {}", detail.occlusion, DrawMode::ALL[0]),
                want,
                &image,
            ),
        }
    }
    reference.expect("at least one configuration")
}

fn encode(linear: f32) -> i32 {
    (multidraw::passes::main::srgb_encode(f64::from(linear)) * 255.0).round() as i32
}

/// The pixel where `point` projects.
fn pixel_of(scene: &Scene, point: Vec3) -> (u32, u32) {
    let clip = scene.camera.view_proj(SIZE.0 as f32 / SIZE.1 as f32) * point.extend(1.0);
    let ndc = clip.xy() / clip.w;
    let pixel = (ndc * Vec2::new(0.5, -0.5) + 0.5) * Vec2::new(SIZE.0 as f32, SIZE.1 as f32);
    (pixel.x as u32, pixel.y as u32)
}

fn assert_pixel(image: &image::RgbaImage, (x, y): (u32, u32), linear: Vec3, what: &str) {
    let p = image.get_pixel(x, y);
    for c in 0..3 {
        let want = encode(linear[c]);
        assert!(
            (i32::from(p[c]) - want).abs() <= 1,
            "{what}: pixel ({x}, {y}) channel {c} is {}, want {want} (linear {linear})",
            p[c]
        );
    }
}

/// `over` composed over `under` at alpha `alpha`, in linear light (the target is sRGB, so the
/// hardware blends what the shader wrote in linear).
fn over(color: Vec3, alpha: f32, under: Vec3) -> Vec3 {
    color * alpha + under * (1.0 - alpha)
}

const TWO_PANELS: &str = r#"
[[material]]
name = "green"
base_color = [0.0, 1.0, 0.0, 1.0]
unlit = true

[[material]]
name = "red glass"
base_color = [1.0, 0.0, 0.0, 0.5]
variant = "blend"
unlit = true

[[objects]]
transforms = [
    { mesh = "panel", material = "red glass", position = [RED_X, 0.0, RED_Z] },
    { mesh = "panel", material = "green", position = [0.0, 0.0, 0.0] },
]
"#;

#[test]
fn a_blended_quad_in_front_mixes_with_what_is_behind_it() {
    let ctx = common::context();
    let body = TWO_PANELS.replace("RED_X", "1.5").replace("RED_Z", "1.0");
    let scene = scene_of(&body, 12.0);
    let image = draw(&ctx, &scene, "blend-in-front");
    let background = Vec4::new(CLEAR_COLOR.r as f32, CLEAR_COLOR.g as f32, CLEAR_COLOR.b as f32, 1.0).xyz();
    let red = Vec3::X;
    // Where both panels are: half red, half green.
    assert_pixel(&image, pixel_of(&scene, Vec3::new(1.0, 0.0, 1.0)), over(red, 0.5, Vec3::Y), "red over green");
    // Where only the glass is: half red over the background.
    assert_pixel(&image, pixel_of(&scene, Vec3::new(3.2, 0.0, 1.0)), over(red, 0.5, background), "red over the sky");
    // Where only the green panel is: green.
    assert_pixel(&image, pixel_of(&scene, Vec3::new(-1.5, 0.0, 0.0)), Vec3::Y, "green alone");
}

#[test]
fn a_blended_quad_behind_an_opaque_one_is_hidden() {
    let ctx = common::context();
    let body = TWO_PANELS.replace("RED_X", "0.0").replace("RED_Z", "-1.0");
    let scene = scene_of(&body, 12.0);
    let image = draw(&ctx, &scene, "blend-behind");
    assert_pixel(&image, pixel_of(&scene, Vec3::ZERO), Vec3::Y, "green in front of the glass");
}

/// Three one-sided quads (a single face each, towards +z), listed in no depth order.
fn three_panes(camera_z: f32) -> Scene {
    let body = r#"
[[material]]
name = "red glass"
base_color = [1.0, 0.0, 0.0, 0.5]
variant = "blend"
double_sided = true
unlit = true

[[material]]
name = "green glass"
base_color = [0.0, 1.0, 0.0, 0.6]
variant = "blend"
double_sided = true
unlit = true

[[material]]
name = "blue glass"
base_color = [0.0, 0.0, 1.0, 0.4]
variant = "blend"
unlit = true

[[objects]]
transforms = [
    { mesh = "panel", material = "green glass", position = [0.0, 0.0, 0.0] },
    { mesh = "panel", material = "blue glass", position = [0.0, 0.0, -1.5] },
    { mesh = "panel", material = "red glass", position = [0.0, 0.0, 1.5] },
]
"#;
    let mut scene = scene_of(body, camera_z);
    let corner = |x: f32, y: f32| Vertex::new([x, y, 0.0], [0.0, 0.0, 1.0], [x * 0.5 + 0.5, 0.5 - y * 0.5]);
    let quad = MeshData {
        vertices: vec![corner(-2.0, -2.0), corner(2.0, -2.0), corner(2.0, 2.0), corner(-2.0, 2.0)],
        indices: vec![0, 1, 2, 0, 2, 3],
    };
    let mesh = scene.meshes.add("quad", quad).expect("a quad is a mesh");
    for object in &mut scene.objects {
        object.mesh = mesh;
    }
    scene
}

/// Three panes seen from the front (red nearest) and from behind (blue nearest): the frame
/// composes them farthest first; from behind, the double-sided red and green ones show their
/// back faces and the one-sided blue one is not drawn.
#[test]
fn overlapping_blended_panes_compose_farthest_first_from_either_side() {
    let ctx = common::context();
    let background = Vec3::new(CLEAR_COLOR.r as f32, CLEAR_COLOR.g as f32, CLEAR_COLOR.b as f32);
    // (colour, alpha, z, double-sided)
    let panes = [(Vec3::X, 0.5, 1.5, true), (Vec3::Y, 0.6, 0.0, true), (Vec3::Z, 0.4, -1.5, false)];
    for camera_z in [12.0f32, -12.0] {
        let scene = three_panes(camera_z);
        let image = draw(&ctx, &scene, &format!("blend-panes-{camera_z}"));
        let mut order: Vec<_> = panes.iter().filter(|p| camera_z > 0.0 || p.3).collect();
        // Farthest from the camera first.
        order.sort_by(|a, b| (b.2 - camera_z).abs().total_cmp(&(a.2 - camera_z).abs()));
        let want = order.iter().fold(background, |under, &&(color, alpha, ..)| over(color, alpha, under));
        assert_pixel(&image, pixel_of(&scene, Vec3::ZERO), want, &format!("three panes seen from z = {camera_z}"));
    }
}

/// Thousands of blended objects, overlapping in depth everywhere: more than the sort's
/// workgroup-memory chunk, so its wide stages run too. The GPU's order must be the CPU's to
/// the pixel (any two overlapping objects drawn the other way round change a pixel).
#[test]
fn thousands_of_blended_objects_sort_as_the_cpu_sorts_them() {
    let ctx = common::context();
    let mut scene = common::scene(6_000, false);
    let glass: Vec<u32> = (0..4u32).map(|k| scene.materials.len() as u32 + k).collect();
    for (k, color) in [Vec4::new(1.0, 0.2, 0.2, 0.35), Vec4::new(0.2, 1.0, 0.3, 0.5), Vec4::new(0.3, 0.4, 1.0, 0.25)]
        .into_iter()
        .chain([Vec4::new(1.0, 1.0, 0.6, 0.6)])
        .enumerate()
    {
        scene.materials.push(Material {
            variant: Variant::Blend,
            double_sided: k % 2 == 0,
            ..Material::colored(&format!("glass{k}"), color)
        });
    }
    for (i, object) in scene.objects.iter_mut().enumerate() {
        if i % 4 != 3 {
            object.material = glass[i % glass.len()];
        }
    }
    let blended = scene.objects.iter().filter(|o| glass.contains(&o.material)).count();
    assert!(blended > 4_000, "{blended} blended objects");
    // The hardware draws every opaque object, so that the frames of all modes can agree to the
    // pixel (the compute rasteriser's pixels may round differently, tests/raster.rs).
    draw_with(&ctx, &scene, "blend-crowd", Detail { soft: false, ..Detail::default() });
}

/// Small cubes the compute rasteriser draws in front of a blended pane, an opaque panel behind.
const CUBES_BEFORE_GLASS: &str = r#"
[[mesh]]
name = "dot"
procedural = "cube"
scale = [0.25, 0.25, 0.25]

[[material]]
name = "green"
base_color = [0.0, 1.0, 0.0, 1.0]
unlit = true

[[material]]
name = "blue"
base_color = [0.0, 0.0, 1.0, 1.0]
unlit = true

[[material]]
name = "red glass"
base_color = [1.0, 0.0, 0.0, 0.5]
variant = "blend"
unlit = true

[[objects]]
transforms = [
    { mesh = "panel", material = "red glass", position = [0.0, 0.0, 0.0] },
    { mesh = "panel", material = "blue", position = [0.0, 0.0, -2.0] },
]

[[objects]]
grid = { counts = [5, 5, 1], spacing = [0.7, 0.7, 0.0], center = [0.0, 0.0, 1.0], meshes = ["dot"], materials = ["green"] }
"#;

/// The deferred composite writes the frame in compute where the target's texture allows it
/// (`passes::deferred::storage_view`): the compute rasteriser's pixels then stay out of the
/// depth buffer, and the blended pass must still hide what is behind them. The same frame
/// composited by the full-screen pass (a target without storage) is the reference.
#[test]
fn a_blended_pane_behind_compute_rasterised_objects_is_hidden_however_the_frame_composites() {
    let ctx = common::context();
    let scene = scene_of(CUBES_BEFORE_GLASS, 12.0);
    let detail = Detail { occlusion: false, soft: true, deferred: true, ..Detail::default() };
    let input = FrameInput { detail, ..FrameInput::new(scene.camera, DrawMode::Gpu) };
    let (width, height) = SIZE;
    let mut images = Vec::new();
    for storage in [true, false] {
        let mut renderer = common::renderer(&ctx, &scene);
        let offscreen = OffscreenTarget::new(&ctx.device, width, height);
        let plain = ctx.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("colour without storage"),
            size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: multidraw::COLOR_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let plain_view = plain.create_view(&Default::default());
        let mut target = offscreen.frame_target();
        if !storage {
            target.color = &plain_view;
        }
        assert_eq!(multidraw::passes::deferred::storage_view(target.color).is_some(), storage);
        // A frame at another size first: the targets, `soft_depth` and the frame group are
        // made again for the second.
        let smaller = OffscreenTarget::new(&ctx.device, width / 2, height / 2);
        renderer.render(&ctx, &smaller.frame_target(), &input);
        renderer.render(&ctx, &target, &input);
        let stats = renderer.render(&ctx, &target, &input);
        ctx.wait_idle();
        common::assert_no_gpu_errors(&ctx);
        assert!(stats.deferred && stats.soft, "the frame deferred and ran the compute rasteriser");
        let soft = renderer.collect(&ctx.device).into_iter().filter_map(|r| r.counters).next_back();
        assert!(soft.expect("counters read back").soft >= 25, "the compute rasteriser drew the cubes");
        let color = if storage { &offscreen.color } else { &plain };
        images.push(multidraw::gpu::target::read_texture_rgba(&ctx.device, &ctx.queue, color, width, height));
    }
    for (image, how) in images.iter().zip(["in compute", "by the full-screen pass"]) {
        // A cube's centre: its green alone, the glass behind it hidden; between cubes, the
        // glass over the blue panel.
        let what = format!("composited {how}");
        assert_pixel(image, pixel_of(&scene, Vec3::new(0.0, 0.0, 1.125)), Vec3::Y, &format!("{what}: cube"));
        let between = pixel_of(&scene, Vec3::new(0.35, 0.35, 0.0));
        assert_pixel(image, between, over(Vec3::X, 0.5, Vec3::Z), &format!("{what}: glass over blue"));
    }
    // The two composites encode sRGB apart (the shader's formula, the hardware's encoder).
    let far = common::pixels_beyond(&images[0], &images[1], 1);
    assert_eq!(far, 0, "the two composites differ by more than a rounding step in {far} pixels");
}
