//! Experiment behind docs/BENCHMARKS.md, "The per-instance floor": is drawing many tiny meshes
//! cheaper without one instance each?
//!
//! Draws OBJECTS copies of one small mesh scattered through the view two ways, each in its own
//! render pass timed with timestamp queries:
//! * `instanced`: what the engine's main pass does per batch: one indexed indirect draw with
//!   `instance_count` = OBJECTS, the vertex shader finding its object through
//!   `instance_index`;
//! * `pulled`: one non-indexed indirect draw of OBJECTS × `index_count` vertices whose vertex
//!   shader derives object and corner from `vertex_index` and reads the index and the vertex
//!   from storage buffers (vertex pulling), so the vertices of many objects share a batch;
//! * `merged`: one non-instanced indexed draw over an index buffer holding every object's
//!   indices offset by its vertices (index = object × vertex count + vertex), so the vertex
//!   shader runs once per distinct vertex of each object (post-transform reuse stays) and
//!   many objects' vertices share a batch.
//!
//! Both shaders do the same per-vertex work otherwise (two dependent loads for the object,
//! the same transform and outputs), and the fragment shader is shared.
//!
//! `cargo run --release --example pull_probe -- [OBJECTS] [FRAMES] [WIDTHxHEIGHT]`
//! (defaults 485000, 30, 1920x1080). Prints one row per mesh: triangles, median GPU ms of each
//! way, the nanoseconds per object, and the pixels the other ways' images differ from the
//! instanced one in (0 expected: all draw the same triangles in the same order).

mod probe_common;

use multidraw::bench::report::Stat;
use multidraw::gpu::target::{depth_test, OffscreenTarget, COLOR_FORMAT};
use multidraw::gpu::timer::GpuTimer;
use multidraw::mesh::{optimize, procedural, MeshData};
use multidraw::{ContextOptions, GpuContext};
use wgpu::util::DeviceExt;

const WARMUP: usize = 5;
const WAYS: [&str; 3] = ["instanced", "pulled", "merged"];

/// Followed by `probe_common::SCENE_WGSL` (the vertex layout, bindings, and the instanced way).
const SHADER: &str = r#"
struct Uniforms {
    view_proj: mat4x4<f32>,
    index_count: u32,
    vertex_count: u32,
}

@vertex
fn vs_pulled(@builtin(vertex_index) index: u32) -> VertexOut {
    let object = index / uniforms.index_count;
    let corner = index - object * uniforms.index_count;
    let v = vertices[indices[corner]];
    return shade(object, vec3<f32>(v.px, v.py, v.pz), vec3<f32>(v.nx, v.ny, v.nz), vec2<f32>(v.u, v.v));
}

@vertex
fn vs_merged(@builtin(vertex_index) index: u32) -> VertexOut {
    let object = index / uniforms.vertex_count;
    let v = vertices[index - object * uniforms.vertex_count];
    return shade(object, vec3<f32>(v.px, v.py, v.pz), vec3<f32>(v.nx, v.ny, v.nz), vec2<f32>(v.u, v.v));
}
"#;

/// The same triangles in meshoptimizer's vertex-cache order.
fn reorder(mesh: &MeshData) -> MeshData {
    MeshData {
        vertices: mesh.vertices.clone(),
        indices: meshopt::optimize_vertex_cache(&mesh.indices, mesh.vertices.len()),
    }
}

fn main() {
    let args = probe_common::args_or_exit("pull_probe");
    let ctx = match GpuContext::headless(&ContextOptions::default()) {
        Ok(ctx) => ctx,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let Some(mut timer) = GpuTimer::new(&ctx.device, &ctx.queue) else {
        eprintln!("error: the adapter has no TIMESTAMP_QUERY: nothing to measure");
        std::process::exit(1);
    };
    let device = &ctx.device;
    println!("adapter: {} ({:?})", ctx.info.name, ctx.info.backend);
    println!("{} objects, {}x{}, median of {} frames", args.objects, args.width, args.height, args.frames);

    let scene = probe_common::Scene::new(device, &args, wgpu::ShaderStages::VERTEX);
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("probe"),
        bind_group_layouts: &[&scene.layout],
        push_constant_ranges: &[],
    });
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("pull probe"),
        // WGSL resolves module-scope names in any order: the shared declarations can follow.
        source: wgpu::ShaderSource::Wgsl(format!("{SHADER}{}", probe_common::SCENE_WGSL).into()),
    });
    let attributes = wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3, 2 => Float32x2];
    let vertex_layout =
        wgpu::VertexBufferLayout { array_stride: 32, step_mode: wgpu::VertexStepMode::Vertex, attributes: &attributes };
    let pipeline = |entry: &str, buffers: &[wgpu::VertexBufferLayout]| {
        device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(entry),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                buffers,
            },
            primitive: wgpu::PrimitiveState { cull_mode: Some(wgpu::Face::Back), ..Default::default() },
            depth_stencil: Some(depth_test()),
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs"),
                compilation_options: Default::default(),
                targets: &[Some(COLOR_FORMAT.into())],
            }),
            multiview: None,
            cache: None,
        })
    };
    let instanced = pipeline("vs_instanced", &[vertex_layout]);
    let pulled = pipeline("vs_pulled", &[]);
    let merged = pipeline("vs_merged", &[]);
    let target = OffscreenTarget::new(device, args.width, args.height);

    let meshes: Vec<(String, MeshData)> = [
        ("cone, 3 segments", procedural::cone(3)),
        ("cube", procedural::cube()),
        ("icosahedron", procedural::icosphere(0)),
        ("uv sphere 8x4", procedural::uv_sphere(8, 4)),
        ("uv sphere 16x8", procedural::uv_sphere(16, 8)),
        ("cylinder 12", procedural::cylinder(12)),
        ("cone 12", procedural::cone(12)),
        ("torus 16x8", procedural::torus(16, 8)),
        ("rock", procedural::rock(7)),
    ]
    .into_iter()
    .flat_map(|(name, mesh)| {
        let welded = optimize::weld(mesh.clone());
        let reordered = reorder(&welded);
        let variants = [
            (format!("{name} ({} vertices)", mesh.vertices.len()), mesh),
            (format!("{name}, welded ({} vertices)", welded.vertices.len()), welded),
            (format!("{name}, welded + vertex-cache order"), reordered),
        ];
        variants.into_iter()
    })
    .collect();
    println!(
        "| mesh | triangles | instanced ms | pulled ms | instanced ns/object | pulled ns/object | pulled / instanced \
         | merged ms | merged ns/object | merged / instanced | pixels covered | pixels differing (pulled / merged) |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (name, mesh) in &meshes {
        let vertex_count = mesh.vertices.len() as u32;
        // Uniforms: index_count, vertex_count, then padding to the struct's 80 bytes.
        let probe_common::MeshBinding {
            vertices: vertex_buffer,
            indices: index_buffer,
            index_count,
            group: bind_group,
        } = scene.mesh(device, mesh, &[mesh.indices.len() as u32, vertex_count, 0, 0]);
        // The merged way's index buffer: every object's indices, offset by its vertices, so that
        // one non-instanced indexed draw covers all objects and the vertex shader finds the
        // object and its vertex from the index value. Built here once; an engine would write
        // the visible objects' indices in a compute pass. Left out where it would not fit in
        // one buffer.
        let merged_bytes = u64::from(index_count) * u64::from(args.objects) * 4;
        let merged_indices = (merged_bytes <= device.limits().max_buffer_size.min(1 << 30)).then(|| {
            let indices: Vec<u32> = (0..args.objects)
                .flat_map(|object| mesh.indices.iter().map(move |&i| object * vertex_count + i))
                .collect();
            probe_common::storage(device, "merged indices", bytemuck::cast_slice(&indices))
        });
        // DrawIndexedIndirectArgs (5 words), DrawIndirectArgs (4 words), DrawIndexedIndirectArgs.
        let total = index_count * args.objects;
        let indirect: [u32; 14] = [index_count, args.objects, 0, 0, 0, total, 1, 0, 0, total, 1, 0, 0, 0];
        let indirect_buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("indirect"),
            contents: bytemuck::cast_slice(&indirect),
            usage: wgpu::BufferUsages::INDIRECT,
        });

        let draw = |encoder: &mut wgpu::CommandEncoder,
                    way: usize,
                    timestamps: Option<wgpu::RenderPassTimestampWrites>| {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some(WAYS[way]),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &target.color_view,
                    resolve_target: None,
                    depth_slice: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &target.depth_view,
                    depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(1.0), store: wgpu::StoreOp::Store }),
                    stencil_ops: None,
                }),
                timestamp_writes: timestamps,
                occlusion_query_set: None,
            });
            pass.set_bind_group(0, &bind_group, &[]);
            match way {
                0 => {
                    pass.set_pipeline(&instanced);
                    pass.set_vertex_buffer(0, vertex_buffer.slice(..));
                    pass.set_index_buffer(index_buffer.slice(..), wgpu::IndexFormat::Uint32);
                    pass.draw_indexed_indirect(&indirect_buffer, 0);
                }
                1 => {
                    pass.set_pipeline(&pulled);
                    pass.draw_indirect(&indirect_buffer, 20);
                }
                _ => {
                    if let Some(indices) = &merged_indices {
                        pass.set_pipeline(&merged);
                        pass.set_index_buffer(indices.slice(..), wgpu::IndexFormat::Uint32);
                        pass.draw_indexed_indirect(&indirect_buffer, 36);
                    }
                }
            }
        };

        // Both ways must draw the same image, or the times compare different work.
        let images: Vec<image::RgbaImage> = (0..WAYS.len())
            .map(|way| {
                let mut encoder = device.create_command_encoder(&Default::default());
                draw(&mut encoder, way, None);
                ctx.queue.submit([encoder.finish()]);
                target.read_rgba(device, &ctx.queue)
            })
            .collect();
        let differ = |other: &image::RgbaImage| images[0].pixels().zip(other.pixels()).filter(|(a, b)| a != b).count();
        let differing = format!(
            "{} / {}",
            differ(&images[1]),
            if merged_indices.is_some() { differ(&images[2]).to_string() } else { "-".into() }
        );
        let covered = images[0].pixels().filter(|p| p.0[..3] != [0, 0, 0]).count();

        let mut times: [Vec<f64>; 3] = Default::default();
        for frame in 0..WARMUP + args.frames {
            let mut encoder = device.create_command_encoder(&Default::default());
            for (way, name) in WAYS.iter().enumerate() {
                draw(&mut encoder, way, timer.render_writes(name));
            }
            timer.resolve(&mut encoder, frame as u64);
            ctx.queue.submit([encoder.finish()]);
            timer.submitted();
            ctx.wait_idle();
            for (done, passes) in timer.collect(device) {
                if done as usize >= WARMUP {
                    for (way, name) in WAYS.iter().enumerate() {
                        if let Some(ms) = passes.get(name) {
                            times[way].push(ms);
                        }
                    }
                }
            }
        }
        let [a, b, c] = times.map(|ms| Stat::of(&ms).median);
        let merged_cells = if merged_indices.is_some() {
            format!("{c:.3} | {:.1} | {:.2}", c * 1e6 / args.objects as f64, c / a)
        } else {
            "- | - | -".into()
        };
        let per_object = |ms: f64| ms * 1e6 / args.objects as f64;
        println!(
            "| {name} | {} | {a:.3} | {b:.3} | {:.1} | {:.1} | {:.2} | {merged_cells} | {covered} | {differing} |",
            index_count / 3,
            per_object(a),
            per_object(b),
            b / a
        );
    }
    let errors = ctx.take_errors();
    if !errors.is_empty() {
        eprintln!("error: the device reported {errors:?}");
        std::process::exit(1);
    }
}
