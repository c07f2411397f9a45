//! The metallic-roughness shading (`shaders/shared/lighting.wgsl`): the WGSL BRDF against a
//! CPU reference written from the glTF specification's Appendix B; the white furnace (spheres
//! of every roughness in a uniform white environment reflect all of it, metals and dielectrics
//! alike, and a grey dielectric what an independent quadrature of its BRDF says); emission
//! added after lighting, exactly; unlit surfaces in their base colour. The draws are checked
//! in the GPU-driven and the CPU mode, which must agree to the pixel.

mod common;

use std::f32::consts::PI;

use glam::{Vec2, Vec3, Vec4Swizzles};
use multidraw::gpu::target::OffscreenTarget;
use multidraw::gpu_scene::layout::{FRAME, SCENE, TEXTURES};
use multidraw::gpu_scene::shader::PassShader;
use multidraw::scene::Scene;
use multidraw::{DrawMode, FrameInput, GpuContext};

// ---- The CPU reference: glTF 2.0 Appendix B, written out again. ----

/// f(l, v) of the metallic-roughness material for a unit normal +z.
fn reference_brdf(n_l: f32, n_v: f32, phi: f32, base: Vec3, metallic: f32, roughness: f32) -> Vec3 {
    let n = Vec3::Z;
    let v = Vec3::new((1.0 - n_v * n_v).max(0.0).sqrt(), 0.0, n_v);
    let s = (1.0 - n_l * n_l).max(0.0).sqrt();
    let l = Vec3::new(s * phi.cos(), s * phi.sin(), n_l);
    let h = (l + v).normalize();
    let (n_h, v_h) = (n.dot(h).max(0.0), v.dot(h).max(0.0));
    let alpha = roughness * roughness;
    let a2 = alpha * alpha;
    // D: Trowbridge-Reitz.
    let d = a2 / (PI * (n_h * n_h * (a2 - 1.0) + 1.0).powi(2));
    // V: Smith joint GGX.
    let vis = 0.5 / (n_l * (n_v * n_v * (1.0 - a2) + a2).sqrt() + n_v * (n_l * n_l * (1.0 - a2) + a2).sqrt());
    let specular = vis * d;
    let schlick = (1.0 - v_h).powi(5);
    let conductor = (base + (Vec3::ONE - base) * schlick) * specular;
    let fresnel = 0.04 + 0.96 * schlick;
    let dielectric = base / PI * (1.0 - fresnel) + Vec3::splat(specular * fresnel);
    dielectric * (1.0 - metallic) + conductor * metallic
}

/// The directional albedo of the specular lobe at `n_v`, by midpoint quadrature over the
/// hemisphere of light directions: (with Schlick's Fresnel at f0, with F = 1).
fn specular_albedo(n_v: f32, roughness: f32, f0: f32) -> (f32, f32) {
    let (steps_theta, steps_phi) = (600, 600);
    let (mut with_fresnel, mut without) = (0.0f64, 0.0f64);
    let v = Vec3::new((1.0 - n_v * n_v).sqrt(), 0.0, n_v);
    let alpha = roughness * roughness;
    let a2 = alpha * alpha;
    for i in 0..steps_theta {
        let theta = (i as f32 + 0.5) / steps_theta as f32 * PI / 2.0;
        for j in 0..steps_phi {
            let phi = (j as f32 + 0.5) / steps_phi as f32 * 2.0 * PI;
            let l = Vec3::new(theta.sin() * phi.cos(), theta.sin() * phi.sin(), theta.cos());
            let h = (l + v).normalize();
            let (n_l, n_h, v_h) = (l.z, h.z.max(0.0), v.dot(h).max(0.0));
            let d = a2 / (PI * (n_h * n_h * (a2 - 1.0) + 1.0).powi(2));
            let vis = 0.5 / (n_l * (n_v * n_v * (1.0 - a2) + a2).sqrt() + n_v * (n_l * n_l * (1.0 - a2) + a2).sqrt());
            let d_omega = theta.sin() * (PI / 2.0 / steps_theta as f32) * (2.0 * PI / steps_phi as f32);
            let term = f64::from(vis * d * n_l * d_omega);
            let fresnel = f0 + (1.0 - f0) * (1.0 - v_h).powi(5);
            with_fresnel += term * f64::from(fresnel);
            without += term;
        }
    }
    (with_fresnel as f32, without as f32)
}

/// What a dielectric of grey `base` reflects of a uniform white environment, with the
/// multiple-scattering compensation of Fdez-Agüera (2019): the specular lobe's albedo, the
/// energy it loses to single scattering returned at the average Fresnel, the diffuse part in
/// what is left.
fn furnace_dielectric(base: f32, n_v: f32, roughness: f32) -> f32 {
    let f0 = 0.04;
    let (single, e_single) = specular_albedo(n_v, roughness, f0);
    let e_multi = 1.0 - e_single;
    let f_average = f0 + (1.0 - f0) / 21.0;
    let multi = e_multi * single * f_average / (1.0 - f_average * e_multi);
    single + multi + base * (1.0 - single - multi)
}

// ---- The WGSL function on the GPU. ----

/// The BRDF case `i` of the harness: (n·l, n·v, φ, roughness, metallic, base colour).
fn cases() -> Vec<(f32, f32, f32, f32, f32, Vec3)> {
    let mut cases = Vec::new();
    for &n_l in &[0.05, 0.3, 0.7, 1.0] {
        for &n_v in &[0.1, 0.5, 0.9, 1.0] {
            for &roughness in &[0.05, 0.3, 0.6, 1.0] {
                for &metallic in &[0.0, 0.5, 1.0] {
                    let phi = n_l * 3.0 + n_v;
                    cases.push((n_l, n_v, phi, roughness, metallic, Vec3::new(0.9, 0.5, 0.2)));
                }
            }
        }
    }
    cases
}

const HARNESS: &str = r#"
@group(0) @binding(7) var<storage, read> cases: array<vec4<f32>>;
@group(0) @binding(8) var<storage, read_write> results: array<vec4<f32>>;

@compute @workgroup_size(64)
fn evaluate(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= arrayLength(&results) {
        return;
    }
    let c = cases[2u * id.x];
    let d = cases[2u * id.x + 1u];
    let n = vec3<f32>(0.0, 0.0, 1.0);
    let v = vec3<f32>(sqrt(max(1.0 - c.y * c.y, 0.0)), 0.0, c.y);
    let s = sqrt(max(1.0 - c.x * c.x, 0.0));
    let l = vec3<f32>(s * cos(d.w), s * sin(d.w), c.x);
    let surface = Surface(d.xyz, c.w, c.z, 1.0, vec3<f32>(0.0), false);
    results[id.x] = vec4<f32>(brdf(n, v, l, surface), 0.0);
}
"#;

fn gpu_brdf(ctx: &GpuContext, cases: &[(f32, f32, f32, f32, f32, Vec3)]) -> Vec<Vec3> {
    use wgpu::util::DeviceExt;
    // The shading files as every shading pass composes them, with the harness as the body.
    let shader = PassShader { file: "lighting harness", body: HARNESS, groups: &[&FRAME, &SCENE, &TEXTURES] };
    let module = ctx.device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("lighting harness"),
        source: wgpu::ShaderSource::Wgsl(shader.compose(64).into()),
    });
    let pipeline = ctx.device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("lighting harness"),
        layout: None,
        module: &module,
        entry_point: Some("evaluate"),
        compilation_options: Default::default(),
        cache: None,
    });
    let input: Vec<[f32; 4]> = cases
        .iter()
        .flat_map(|&(n_l, n_v, phi, roughness, metallic, base)| {
            [[n_l, n_v, roughness, metallic], [base.x, base.y, base.z, phi]]
        })
        .collect();
    let cases_buffer = ctx.device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("cases"),
        contents: bytemuck::cast_slice(&input),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let size = (cases.len() * 16) as u64;
    let results = ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("results"),
        size,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let readback = ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let group = ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("harness"),
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[
            wgpu::BindGroupEntry { binding: 7, resource: cases_buffer.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 8, resource: results.as_entire_binding() },
        ],
    });
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &group, &[]);
        pass.dispatch_workgroups((cases.len() as u32).div_ceil(64), 1, 1);
    }
    encoder.copy_buffer_to_buffer(&results, 0, &readback, 0, size);
    ctx.queue.submit([encoder.finish()]);
    readback.slice(..).map_async(wgpu::MapMode::Read, |r| r.expect("map the results"));
    ctx.wait_idle();
    let values: Vec<[f32; 4]> = bytemuck::cast_slice(&readback.slice(..).get_mapped_range()).to_vec();
    common::assert_no_gpu_errors(ctx);
    values.into_iter().map(|v| Vec3::new(v[0], v[1], v[2])).collect()
}

/// The WGSL `brdf` equals the CPU reference at 192 sampled (n·l, n·v, roughness, metallic).
#[test]
fn the_wgsl_brdf_matches_the_reference() {
    let ctx = common::context();
    let cases = cases();
    let gpu = gpu_brdf(&ctx, &cases);
    for (&(n_l, n_v, phi, roughness, metallic, base), got) in cases.iter().zip(gpu) {
        let want = reference_brdf(n_l, n_v, phi, base, metallic, roughness);
        // 1%: at the sharpest lobe (roughness 0.05, n·h = 1) D's denominator is α⁴ ≈ 4e-5
        // plus the f32 rounding of n·h², which moves it by about 0.3%.
        let error = (got - want).abs().max_element() / want.max_element().max(1e-3);
        assert!(
            error < 1e-2,
            "n·l {n_l}, n·v {n_v}, φ {phi}, roughness {roughness}, metallic {metallic}: GPU {got}, reference {want}"
        );
    }
}

// ---- Drawn frames. ----

const SIZE: (u32, u32) = (320, 160);

fn scene_of(body: &str) -> Scene {
    let text = format!(
        r#"
[scene]
name = "lighting"

[camera]
position = [0.0, 0.0, 14.0]
target = [0.0, 0.0, 0.0]
fov_y_degrees = 30.0
near = 1.0
far = 40.0

{body}
"#
    );
    multidraw::scene::file::parse(&text, "lighting.toml", None).expect("the lighting scene parses")
}

/// The frame in `mode`, gpu and cpu agreeing to the pixel.
fn draw(ctx: &GpuContext, scene: &Scene) -> image::RgbaImage {
    let mut images = Vec::new();
    for mode in [DrawMode::Cpu, DrawMode::Gpu] {
        let mut renderer = common::renderer(ctx, scene);
        let input = FrameInput::new(scene.camera, mode);
        let target = OffscreenTarget::new(&ctx.device, SIZE.0, SIZE.1);
        renderer.render(ctx, &target.frame_target(), &input);
        ctx.wait_idle();
        images.push(target.read_rgba(&ctx.device, &ctx.queue));
        common::assert_no_gpu_errors(ctx);
    }
    common::assert_same_pixels("lighting", "gpu against cpu", &images[0], &images[1]);
    images.pop().expect("two images")
}

fn linear(encoded: u8) -> f32 {
    let c = f32::from(encoded) / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// The pixel where `point` projects, and the direction from it to the camera.
fn pixel_of(scene: &Scene, point: Vec3) -> (u32, u32) {
    let clip = scene.camera.view_proj(SIZE.0 as f32 / SIZE.1 as f32) * point.extend(1.0);
    let ndc = clip.xy() / clip.w;
    let pixel = (ndc * Vec2::new(0.5, -0.5) + 0.5) * Vec2::new(SIZE.0 as f32, SIZE.1 as f32);
    (pixel.x as u32, pixel.y as u32)
}

/// The linear value of the pixel's three channels, and the unit normal and n·v of a sphere of
/// radius 1 at `center` where that pixel's ray meets it.
fn sphere_sample(scene: &Scene, image: &image::RgbaImage, center: Vec3) -> (Vec3, f32) {
    // The point nearest the camera on the sphere projects inside it.
    let toward = (scene.camera.position - center).normalize();
    let (x, y) = pixel_of(scene, center + toward * 0.5);
    let p = image.get_pixel(x, y);
    let value = Vec3::new(linear(p[0]), linear(p[1]), linear(p[2]));
    // The pixel centre's ray, intersected with the sphere.
    let ndc = Vec2::new((x as f32 + 0.5) / SIZE.0 as f32 * 2.0 - 1.0, 1.0 - (y as f32 + 0.5) / SIZE.1 as f32 * 2.0);
    let inverse = scene.camera.view_proj(SIZE.0 as f32 / SIZE.1 as f32).inverse();
    let far = inverse.project_point3(ndc.extend(1.0));
    let origin = scene.camera.position;
    let ray = (far - origin).normalize();
    let b = ray.dot(origin - center);
    let c = (origin - center).length_squared() - 1.0;
    let t = -b - (b * b - c).max(0.0).sqrt();
    let normal = (origin + ray * t - center).normalize();
    (value, normal.dot(-ray))
}

/// Spheres of roughness 0.2 to 1 in a uniform white environment (no sun, exposure ½, no tone
/// mapping): white metals and white dielectrics reflect all of it (within 3%); grey
/// dielectrics what the quadrature of their BRDF says.
#[test]
fn the_white_furnace_reflects_what_it_receives() {
    let ctx = common::context();
    let roughness = [0.2, 0.4, 0.6, 0.8, 1.0];
    let rows = [("metal", 1.0, 1.0, 3.0), ("white", 0.0, 1.0, 0.0), ("grey", 0.0, 0.5, -3.0)];
    let mut body = String::from(
        "[sun]\nilluminance = 0.0\n\n[environment]\nzenith = [1.0, 1.0, 1.0]\nhorizon = [1.0, 1.0, 1.0]\n\
         ground = [1.0, 1.0, 1.0]\nexposure = 0.5\ntone_mapping = \"none\"\n\n\
         [[mesh]]\nname = \"ball\"\nprocedural = \"sphere\"\nsegments = 64\nrings = 32\n\n",
    );
    let mut transforms = Vec::new();
    let mut centers = Vec::new();
    for (name, metallic, base, y) in rows {
        for (i, r) in roughness.iter().enumerate() {
            body += &format!(
                "[[material]]\nname = \"{name}{i}\"\nbase_color = [{base}, {base}, {base}, 1.0]\nmetallic = {metallic}\n\
                 roughness = {r}\n\n"
            );
            let x = (i as f32 - 2.0) * 2.6;
            transforms.push(format!("{{ mesh = \"ball\", material = \"{name}{i}\", position = [{x}, {y}, 0.0] }}"));
            centers.push((name, base, *r, Vec3::new(x, y, 0.0)));
        }
    }
    body += &format!("[[objects]]\ntransforms = [\n{}\n]\n", transforms.join(",\n"));
    let scene = scene_of(&body);
    let image = draw(&ctx, &scene);
    for (name, base, r, center) in centers {
        let (value, n_v) = sphere_sample(&scene, &image, center);
        let reflected = value / 0.5;
        let want = if base == 1.0 { 1.0 } else { furnace_dielectric(base, n_v, r) };
        let error = (reflected - Vec3::splat(want)).abs().max_element() / want;
        assert!(error < 0.03, "{name}, roughness {r}, n·v {n_v:.3}: reflects {reflected}, expected {want:.4}");
    }
}

/// A black metal that emits shows its emission exactly (nothing to reflect with a black base
/// of metal, no environment, no tone mapping, whatever the sun); an unlit surface its base
/// colour whatever the light.
#[test]
fn emission_and_unlit_surfaces_show_their_colours() {
    let ctx = common::context();
    let body = r#"
[sun]
illuminance = 3.0

[environment]
intensity = 0.0
tone_mapping = "none"

[[mesh]]
name = "box"
procedural = "cube"
scale = [2.0, 2.0, 2.0]

[[material]]
name = "lamp"
base_color = [0.0, 0.0, 0.0, 1.0]
metallic = 1.0
emissive = [0.1, 0.2, 0.4]
emissive_strength = 2.0

[[material]]
name = "flat"
base_color = [0.6, 0.3, 0.1, 1.0]
unlit = true

[[objects]]
transforms = [
    { mesh = "box", material = "lamp", position = [-2.5, 0.0, 0.0] },
    { mesh = "box", material = "flat", position = [2.5, 0.0, 0.0] },
]
"#;
    let scene = scene_of(body);
    let image = draw(&ctx, &scene);
    let encode = |c: f32| {
        let s = if c <= 0.0031308 { c * 12.92 } else { 1.055 * c.powf(1.0 / 2.4) - 0.055 };
        (s * 255.0).round() as i32
    };
    for (center, want) in
        [(Vec3::new(-2.5, 0.0, 1.0), Vec3::new(0.2, 0.4, 0.8)), (Vec3::new(2.5, 0.0, 1.0), Vec3::new(0.6, 0.3, 0.1))]
    {
        // The box's face toward the camera, seen where the sun (from the upper left behind
        // the viewer) lights it: the lamp must not show that light, the unlit box neither.
        let (x, y) = pixel_of(&scene, center);
        let p = image.get_pixel(x, y);
        for c in 0..3 {
            let expected = encode(want[c]);
            assert!(
                (i32::from(p[c]) - expected).abs() <= 1,
                "pixel ({x}, {y}) channel {c}: {} against {expected} (linear {want})",
                p[c]
            );
        }
    }
}

/// A scene change with another sky prefilters it again: the frame after `set_scene` equals a
/// new renderer's, and differs from the old sky's.
#[test]
fn a_new_scene_brings_its_own_sky() {
    let ctx = common::context();
    let body = |sky: &str| {
        format!(
            "[environment]\n{sky}\n\n[[mesh]]\nname = \"ball\"\nprocedural = \"sphere\"\n\n[[material]]\n\
             name = \"steel\"\nbase_color = [0.9, 0.9, 0.9, 1.0]\nmetallic = 1.0\nroughness = 0.3\n\n\
             [[objects]]\ntransforms = [{{ mesh = \"ball\", material = \"steel\", position = [0.0, 0.0, 0.0] }}]\n"
        )
    };
    let blue = scene_of(&body("zenith = [0.1, 0.2, 0.9]\nhorizon = [0.1, 0.2, 0.9]\nground = [0.1, 0.2, 0.9]"));
    let red = scene_of(&body("zenith = [0.9, 0.2, 0.1]\nhorizon = [0.9, 0.2, 0.1]\nground = [0.9, 0.2, 0.1]"));
    let frame = |renderer: &mut multidraw::Renderer, scene: &Scene| {
        common::render_image(&ctx, renderer, &FrameInput::new(scene.camera, DrawMode::Gpu), SIZE.0, SIZE.1)
    };
    let mut renderer = common::renderer(&ctx, &blue);
    let under_blue = frame(&mut renderer, &blue);
    renderer.set_scene(&ctx, &red).expect("the red scene uploads");
    let switched = frame(&mut renderer, &red);
    let fresh = frame(&mut common::renderer(&ctx, &red), &red);
    common::assert_same_pixels("sky-switch", "set_scene against a new renderer", &fresh, &switched);
    let changed = common::pixels_beyond(&under_blue, &switched, 8);
    assert!(changed > 300, "the red sky is reflected, not the blue one: {changed} pixels changed");
}
