//! Experiment: is rasterising tiny triangles in a compute shader cheaper than the hardware
//! path on a GPU with little raster hardware (the H200), and does it cover the same pixels?
//!
//! Draws OBJECTS copies of one small mesh scattered through the view (as `pull_probe` does:
//! each a few to a few tens of pixels wide) two ways:
//! * `hardware`: one instanced indexed draw, the engine's way;
//! * `soft`: a compute pass with one thread per (object, triangle) that transforms the
//!   triangle, snaps its corners to 1/256 pixel, tests the pixel centres of its bounding box
//!   with integer edge functions under the top-left rule (Vulkan's rasterisation rules) and
//!   keeps the nearest (depth, object, triangle) per pixel with a 64-bit `atomicMin` into a
//!   visibility buffer; then a full-screen pass that, per covered pixel, fetches the triangle
//!   again, interpolates its attributes with perspective-correct barycentrics and shades it with
//!   the same fragment code, writing colour and depth.
//!
//! Each is timed with timestamp queries (soft: clear + raster + resolve). The images are
//! compared: pixels that differ at all, and by more than 2/255 in a channel.
//!
//! `cargo run --release --example soft_raster_probe -- [OBJECTS] [FRAMES] [WIDTHxHEIGHT]`
//! (defaults 485000, 30, 1920x1080). Needs SHADER_INT64 and SHADER_INT64_ATOMIC_MIN_MAX.

mod probe_common;

use multidraw::bench::report::Stat;
use multidraw::gpu::target::{depth_test, OffscreenTarget, COLOR_FORMAT};
use multidraw::gpu::timer::GpuTimer;
use multidraw::mesh::{optimize, procedural, MeshData};
use wgpu::util::DeviceExt;

const WARMUP: usize = 5;
/// Threads per workgroup of the raster pass.
const RASTER_GROUP: u32 = 64;

const COMMON: &str = r#"
struct Uniforms {
    view_proj: mat4x4<f32>,
    size: vec2<f32>,
    index_count: u32,
    objects: u32,
}

fn position_of(index: u32) -> vec3<f32> {
    let v = vertices[index];
    return vec3<f32>(v.px, v.py, v.pz);
}

/// Screen position in pixels (x right, y down).
fn screen_of(clip: vec4<f32>) -> vec2<f32> {
    let ndc = clip.xy / clip.w;
    return vec2<f32>((ndc.x * 0.5 + 0.5) * uniforms.size.x, (0.5 - ndc.y * 0.5) * uniforms.size.y);
}
"#;

const CLEAR: &str = r#"
@group(1) @binding(0) var<storage, read_write> visibility: array<vec2<u32>>;

/// All ones: no depth, no triangle.
@compute @workgroup_size(RASTER_GROUP)
fn clear(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.x + gid.y * groups.x * RASTER_GROUP;
    if i < arrayLength(&visibility) {
        visibility[i] = vec2<u32>(0xffffffffu);
    }
}
"#;

const RASTER: &str = r#"
@group(1) @binding(0) var<storage, read_write> visibility: array<atomic<u64>>;

/// Edge function of (a, b) at p, in 1/256² pixel units: positive on the inner side of a
/// clockwise (on screen) triangle.
fn edge(a: vec2<i32>, b: vec2<i32>, p: vec2<i32>) -> i32 {
    return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
}

/// Top-left rule for a clockwise-on-screen triangle (y down): a top edge goes right
/// (dy == 0, dx > 0), a left edge goes up (dy < 0).
fn is_top_left(a: vec2<i32>, b: vec2<i32>) -> bool {
    let d = b - a;
    return (d.y == 0 && d.x > 0) || d.y < 0;
}

@compute @workgroup_size(RASTER_GROUP)
fn raster(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let thread = gid.x + gid.y * groups.x * RASTER_GROUP;
    let triangles = uniforms.index_count / 3u;
    let id = thread / triangles;
    if id >= uniforms.objects {
        return;
    }
    let triangle = thread - id * triangles;
    let c0 = clip_of(id, position_of(indices[triangle * 3u]));
    let c1 = clip_of(id, position_of(indices[triangle * 3u + 1u]));
    let c2 = clip_of(id, position_of(indices[triangle * 3u + 2u]));
    if min(c0.w, min(c1.w, c2.w)) <= 0.0 {
        return;
    }
    // Beyond 64 pixels (or far off screen) the hardware is the better rasteriser; the probe
    // has no such triangle, an engine would route them there.
    let s0 = screen_of(c0);
    let s1 = screen_of(c1);
    let s2 = screen_of(c2);
    let extent = max(s0, max(s1, s2)) - min(s0, min(s1, s2));
    if any(extent > vec2<f32>(63.0)) || any(abs(s0) > vec2<f32>(1e6)) {
        return;
    }
    var p0 = vec2<i32>(round(s0 * 256.0));
    var p1 = vec2<i32>(round(s1 * 256.0));
    var p2 = vec2<i32>(round(s2 * 256.0));
    // Counter-clockwise in NDC (y up) is clockwise on screen (y down): front faces have a
    // negative screen-space area under `edge`; back faces are culled.
    let area = edge(p0, p1, p2);
    if area >= 0 {
        return;
    }
    // Make it clockwise on screen (positive area) by swapping two corners.
    let t = p1;
    p1 = p2;
    p2 = t;
    let z = vec3<f32>(c0.z / c0.w, c2.z / c2.w, c1.z / c1.w);
    let lo = max((min(p0, min(p1, p2)) - 128 + 255) / 256, vec2<i32>(0));
    let hi = min((max(p0, max(p1, p2)) - 128) / 256, vec2<i32>(uniforms.size) - 1);
    let bias = vec3<i32>(
        select(-1, 0, is_top_left(p1, p2)),
        select(-1, 0, is_top_left(p2, p0)),
        select(-1, 0, is_top_left(p0, p1)),
    );
    let total = f32(-area);
    for (var y = lo.y; y <= hi.y; y++) {
        for (var x = lo.x; x <= hi.x; x++) {
            let p = vec2<i32>(x * 256 + 128, y * 256 + 128);
            let w = vec3<i32>(edge(p1, p2, p), edge(p2, p0, p), edge(p0, p1, p)) + bias;
            if all(w >= vec3<i32>(0)) {
                let b = vec3<f32>(w - bias) / total;
                let depth = b.x * z.x + b.y * z.y + b.z * z.z;
                let key = (u64(bitcast<u32>(depth)) << 32u) | u64(id * 4096u + triangle);
                atomicMin(&visibility[u32(y) * u32(uniforms.size.x) + u32(x)], key);
            }
        }
    }
}
"#;

const RESOLVE: &str = r#"
@group(1) @binding(0) var<storage, read> visibility: array<vec2<u32>>;

@vertex
fn vs_fullscreen(@builtin(vertex_index) index: u32) -> @builtin(position) vec4<f32> {
    let uv = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u));
    return vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
}

struct Resolved {
    @location(0) color: vec4<f32>,
    @builtin(frag_depth) depth: f32,
}

@fragment
fn fs_resolve(@builtin(position) at: vec4<f32>) -> Resolved {
    let pixel = vec2<u32>(at.xy);
    let key = visibility[pixel.y * u32(uniforms.size.x) + pixel.x];
    if key.y == 0xffffffffu {
        discard;
    }
    let id = key.x / 4096u;
    let triangle = key.x % 4096u;
    let i = vec3<u32>(indices[triangle * 3u], indices[triangle * 3u + 1u], indices[triangle * 3u + 2u]);
    let c0 = clip_of(id, position_of(i.x));
    let c1 = clip_of(id, position_of(i.y));
    let c2 = clip_of(id, position_of(i.z));
    // Screen-space barycentrics at the pixel centre, then perspective-corrected.
    let s0 = (c0.xy / c0.w * vec2<f32>(0.5, -0.5) + 0.5) * uniforms.size;
    let s1 = (c1.xy / c1.w * vec2<f32>(0.5, -0.5) + 0.5) * uniforms.size;
    let s2 = (c2.xy / c2.w * vec2<f32>(0.5, -0.5) + 0.5) * uniforms.size;
    let p = at.xy;
    let area = (s1.x - s0.x) * (s2.y - s0.y) - (s1.y - s0.y) * (s2.x - s0.x);
    let l1 = ((p.x - s0.x) * (s2.y - s0.y) - (p.y - s0.y) * (s2.x - s0.x)) / area;
    let l2 = ((s1.x - s0.x) * (p.y - s0.y) - (s1.y - s0.y) * (p.x - s0.x)) / area;
    let l = vec3<f32>(1.0 - l1 - l2, l1, l2) / vec3<f32>(c0.w, c1.w, c2.w);
    let b = l / (l.x + l.y + l.z);
    let v0 = vertices[i.x];
    let v1 = vertices[i.y];
    let v2 = vertices[i.z];
    let normal = b.x * vec3<f32>(v0.nx, v0.ny, v0.nz) + b.y * vec3<f32>(v1.nx, v1.ny, v1.nz)
        + b.z * vec3<f32>(v2.nx, v2.ny, v2.nz);
    let uv = b.x * vec2<f32>(v0.u, v0.v) + b.y * vec2<f32>(v1.u, v1.v) + b.z * vec2<f32>(v2.u, v2.v);
    return Resolved(color_of(id, normal, uv), bitcast<f32>(key.y));
}
"#;

/// The same triangles in meshoptimizer's vertex-cache order, as the engine's arena holds them.
fn packed(mesh: MeshData) -> MeshData {
    optimize::for_drawing(mesh)
}

fn device() -> Result<(wgpu::Device, wgpu::Queue, String), String> {
    let instance = wgpu::Instance::new(&wgpu::InstanceDescriptor::from_env_or_default());
    let adapter = pollster::block_on(instance.request_adapter(&Default::default())).map_err(|e| e.to_string())?;
    let needed = wgpu::Features::SHADER_INT64
        | wgpu::Features::SHADER_INT64_ATOMIC_MIN_MAX
        | wgpu::Features::TIMESTAMP_QUERY
        | wgpu::Features::INDIRECT_FIRST_INSTANCE;
    let missing = needed - adapter.features();
    if !missing.is_empty() {
        return Err(format!("the adapter lacks {missing:?}"));
    }
    let info = adapter.get_info();
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("soft raster probe"),
        required_features: needed,
        required_limits: adapter.limits(),
        ..Default::default()
    }))
    .map_err(|e| e.to_string())?;
    Ok((device, queue, format!("{} ({:?}, {})", info.name, info.backend, info.driver_info)))
}

fn main() {
    let args = probe_common::args_or_exit("soft_raster_probe");
    let (device, queue, adapter) = match device() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let device = &device;
    let Some(mut timer) = GpuTimer::new(device, &queue) else {
        eprintln!("error: no timestamp queries");
        std::process::exit(1);
    };
    println!("adapter: {adapter}");
    println!("{} objects, {}x{}, median of {} frames", args.objects, args.width, args.height, args.frames);

    let stages = wgpu::ShaderStages::VERTEX_FRAGMENT | wgpu::ShaderStages::COMPUTE;
    let scene = probe_common::Scene::new(device, &args, stages);
    let pixels = u64::from(args.width) * u64::from(args.height);
    let visibility = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("visibility"),
        size: pixels * 8,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });

    let entry = |binding: u32, ty: wgpu::BufferBindingType| wgpu::BindGroupLayoutEntry {
        binding,
        visibility: stages,
        ty: wgpu::BindingType::Buffer { ty, has_dynamic_offset: false, min_binding_size: None },
        count: None,
    };
    let vis_layout = |read_only: bool| {
        let visibility = if read_only { wgpu::ShaderStages::FRAGMENT } else { wgpu::ShaderStages::COMPUTE };
        device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("visibility"),
            entries: &[wgpu::BindGroupLayoutEntry {
                visibility,
                ..entry(0, wgpu::BufferBindingType::Storage { read_only })
            }],
        })
    };
    let (write_layout, read_layout) = (vis_layout(false), vis_layout(true));
    let layout = |groups: &[&wgpu::BindGroupLayout]| {
        device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: None,
            bind_group_layouts: groups,
            push_constant_ranges: &[],
        })
    };
    let module = |label: &str, body: &str| {
        device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(label),
            source: wgpu::ShaderSource::Wgsl(
                // WGSL resolves module-scope names in any order: the shared declarations can follow.
                format!("{COMMON}{body}{}", probe_common::SCENE_WGSL)
                    .replace("RASTER_GROUP", &RASTER_GROUP.to_string())
                    .into(),
            ),
        })
    };
    // The instanced draw is probe_common's, in every module.
    let hardware_module = module("hardware", "");
    let raster_module = module("raster", RASTER);
    let resolve_module = module("resolve", RESOLVE);
    let clear_module = module("clear", CLEAR);
    let attributes = wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3, 2 => Float32x2];
    let vertex_layout =
        wgpu::VertexBufferLayout { array_stride: 32, step_mode: wgpu::VertexStepMode::Vertex, attributes: &attributes };
    let render = |label: &str,
                  pipeline_layout: &wgpu::PipelineLayout,
                  module: &wgpu::ShaderModule,
                  (vs, fs): (&str, &str),
                  buffers: &[wgpu::VertexBufferLayout],
                  cull: Option<wgpu::Face>| {
        device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(label),
            layout: Some(pipeline_layout),
            vertex: wgpu::VertexState {
                module,
                entry_point: Some(vs),
                compilation_options: Default::default(),
                buffers,
            },
            primitive: wgpu::PrimitiveState { cull_mode: cull, ..Default::default() },
            depth_stencil: Some(depth_test()),
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module,
                entry_point: Some(fs),
                compilation_options: Default::default(),
                targets: &[Some(COLOR_FORMAT.into())],
            }),
            multiview: None,
            cache: None,
        })
    };
    let hardware = render(
        "hardware",
        &layout(&[&scene.layout]),
        &hardware_module,
        ("vs_instanced", "fs"),
        &[vertex_layout],
        Some(wgpu::Face::Back),
    );
    let resolve = render(
        "resolve",
        &layout(&[&scene.layout, &read_layout]),
        &resolve_module,
        ("vs_fullscreen", "fs_resolve"),
        &[],
        None,
    );
    let raster = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("raster"),
        layout: Some(&layout(&[&scene.layout, &write_layout])),
        module: &raster_module,
        entry_point: Some("raster"),
        compilation_options: Default::default(),
        cache: None,
    });
    let clear = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("clear"),
        layout: Some(&layout(&[&scene.layout, &write_layout])),
        module: &clear_module,
        entry_point: Some("clear"),
        compilation_options: Default::default(),
        cache: None,
    });
    let split = |groups: u32| if groups <= 65535 { (groups, 1) } else { (65535, groups.div_ceil(65535)) };
    let clear_groups = split((pixels as u32).div_ceil(RASTER_GROUP));
    let vis_group = |layout: &wgpu::BindGroupLayout| {
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("visibility"),
            layout,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: visibility.as_entire_binding() }],
        })
    };
    let (write_group, read_group) = (vis_group(&write_layout), vis_group(&read_layout));
    let target = OffscreenTarget::new(device, args.width, args.height);

    let meshes: Vec<(&str, MeshData)> = vec![
        ("cube", procedural::cube()),
        ("icosahedron", procedural::icosphere(0)),
        ("uv sphere 8x4", procedural::uv_sphere(8, 4)),
        ("uv sphere 16x8", procedural::uv_sphere(16, 8)),
        ("cylinder 12", procedural::cylinder(12)),
        ("torus 16x8", procedural::torus(16, 8)),
        ("rock", procedural::rock(7)),
    ];
    println!(
        "| mesh | triangles | hardware ms | soft ms (clear + raster + resolve) | hardware ns/object | soft ns/object \
         | soft / hardware | pixels covered | pixels differing | by more than 2/255 |"
    );
    println!("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|");
    for (name, mesh) in meshes {
        let mesh = packed(mesh);
        // Uniforms: the target's size, index_count, the object count.
        let words =
            [(args.width as f32).to_bits(), (args.height as f32).to_bits(), mesh.indices.len() as u32, args.objects];
        let probe_common::MeshBinding {
            vertices: vertex_buffer,
            indices: index_buffer,
            index_count,
            group: scene_group,
        } = scene.mesh(device, &mesh, &words);
        let threads = args.objects * (index_count / 3);
        let groups = threads.div_ceil(RASTER_GROUP);
        let (gx, gy) = split(groups);
        let indirect = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("indirect"),
            contents: bytemuck::cast_slice(&[index_count, args.objects, 0, 0, 0]),
            usage: wgpu::BufferUsages::INDIRECT,
        });

        let pass = |encoder: &mut wgpu::CommandEncoder,
                    name: &str,
                    clear: bool,
                    timestamps: Option<wgpu::RenderPassTimestampWrites>| {
            let load = if clear { wgpu::LoadOp::Clear(wgpu::Color::BLACK) } else { wgpu::LoadOp::Load };
            let depth = if clear { wgpu::LoadOp::Clear(1.0) } else { wgpu::LoadOp::Load };
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some(name),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &target.color_view,
                    resolve_target: None,
                    depth_slice: None,
                    ops: wgpu::Operations { load, store: wgpu::StoreOp::Store },
                })],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &target.depth_view,
                    depth_ops: Some(wgpu::Operations { load: depth, store: wgpu::StoreOp::Store }),
                    stencil_ops: None,
                }),
                timestamp_writes: timestamps,
                occlusion_query_set: None,
            });
            pass.set_bind_group(0, &scene_group, &[]);
            if name == "hardware" {
                pass.set_pipeline(&hardware);
                pass.set_vertex_buffer(0, vertex_buffer.slice(..));
                pass.set_index_buffer(index_buffer.slice(..), wgpu::IndexFormat::Uint32);
                pass.draw_indexed_indirect(&indirect, 0);
            } else if name == "resolve" {
                pass.set_pipeline(&resolve);
                pass.set_bind_group(1, &read_group, &[]);
                pass.draw(0..3, 0..1);
            }
        };
        let draw = |encoder: &mut wgpu::CommandEncoder, soft: bool, timer: &mut GpuTimer| {
            if !soft {
                pass(encoder, "hardware", true, timer.render_writes("hardware"));
                return;
            }
            // An empty pass clears colour and depth for the resolve (untimed: the engine's main
            // pass clears them anyway); the visibility buffer's clear is timed.
            pass(encoder, "clear", true, None);
            let mut cpass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("clear visibility"),
                timestamp_writes: timer.compute_writes("clear"),
            });
            cpass.set_pipeline(&clear);
            cpass.set_bind_group(0, &scene_group, &[]);
            cpass.set_bind_group(1, &write_group, &[]);
            cpass.dispatch_workgroups(clear_groups.0, clear_groups.1, 1);
            drop(cpass);
            let mut cpass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("raster"),
                timestamp_writes: timer.compute_writes("raster"),
            });
            cpass.set_pipeline(&raster);
            cpass.set_bind_group(0, &scene_group, &[]);
            cpass.set_bind_group(1, &write_group, &[]);
            cpass.dispatch_workgroups(gx, gy, 1);
            drop(cpass);
            pass(encoder, "resolve", false, timer.render_writes("resolve"));
        };
        let mut images = Vec::new();
        for soft in [false, true] {
            let mut encoder = device.create_command_encoder(&Default::default());
            draw(&mut encoder, soft, &mut timer);
            timer.resolve(&mut encoder, 0);
            queue.submit([encoder.finish()]);
            timer.submitted();
            device.poll(wgpu::PollType::wait_indefinitely()).expect("poll");
            let _ = timer.collect(device);
            images.push(target.read_rgba(device, &queue));
        }
        let (hw, sw) = (&images[0], &images[1]);
        let covered = hw.pixels().filter(|p| p.0[..3] != [0, 0, 0]).count();
        let differing = hw.pixels().zip(sw.pixels()).filter(|(a, b)| a != b).count();
        let far =
            hw.pixels().zip(sw.pixels()).filter(|(a, b)| a.0.iter().zip(b.0).any(|(x, y)| x.abs_diff(y) > 2)).count();
        if std::env::var_os("PROBE_IMAGES").is_some() {
            hw.save(format!("/tmp/probe-{}-hw.png", name.replace(' ', "_"))).ok();
            sw.save(format!("/tmp/probe-{}-sw.png", name.replace(' ', "_"))).ok();
        }

        let mut hw_ms = Vec::new();
        let mut sw_ms: [Vec<f64>; 3] = Default::default();
        for frame in 0..WARMUP + args.frames {
            let mut encoder = device.create_command_encoder(&Default::default());
            draw(&mut encoder, false, &mut timer);
            draw(&mut encoder, true, &mut timer);
            timer.resolve(&mut encoder, frame as u64);
            queue.submit([encoder.finish()]);
            timer.submitted();
            device.poll(wgpu::PollType::wait_indefinitely()).expect("poll");
            for (done, passes) in timer.collect(device) {
                if done as usize >= WARMUP {
                    hw_ms.extend(passes.get("hardware"));
                    for (i, name) in ["clear", "raster", "resolve"].iter().enumerate() {
                        sw_ms[i].extend(passes.get(name));
                    }
                }
            }
        }
        let h = Stat::of(&hw_ms).median;
        let [c, r, v] = sw_ms.map(|ms| Stat::of(&ms).median);
        let s = c + r + v;
        let per_object = |ms: f64| ms * 1e6 / args.objects as f64;
        println!(
            "| {name} | {} | {h:.3} | {s:.3} ({c:.3} + {r:.3} + {v:.3}) | {:.1} | {:.1} | {:.2} | {covered} | {differing} | {far} |",
            index_count / 3,
            per_object(h),
            per_object(s),
            s / h
        );
    }
}
