//! Experiment: what does it cost to start a shadow cascade's depth layer, and does the way it
//! starts change what drawing into it and reading it cost afterwards?
//!
//! On the H100 a cascade's depth pass that drew nothing still cost a good part of a frame,
//! whether a render-pass clear or a copy of the far plane started its layer (docs/BENCHMARKS.md
//! § "A cascade's layer starts with a copy"; this probe's results: § "What a depth layer costs
//! on the H100"). This probe separates that cost by texture shape (a layer of an array or a plain 2D texture), format, size and
//! usage, and times what follows the start:
//! * `start`: the render pass that starts the layer (a clear, a copy from a buffer before it
//!   and a load, or only a load) and, in the `draw` rows, draws four full-layer triangles
//!   into it (front to back, so three of them fail the depth test, or back to front, so all
//!   four write);
//! * `read`: a compute pass that loads every texel of the layer (as the cascades' pyramid and
//!   merge do).
//!
//! Each case runs `REPS` times in one encoder, spans from timestamps; medians printed.
//! `cargo run --release --example layer_start_probe`.

use wgpu::util::DeviceExt;

const REPS: usize = 12;
const ROUNDS: usize = 3;

const DRAW: &str = r#"
@vertex
fn vs(@builtin(vertex_index) v: u32, @builtin(instance_index) i: u32) -> @builtin(position) vec4<f32> {
    let xy = vec2<f32>(f32((v << 1u) & 2u), f32(v & 2u)) * 2.0 - 1.0;
    // Instances 0..4: depths 0.2, 0.4, 0.6, 0.8, or reversed by the push of `order`.
    let k = select(f32(i), 3.0 - f32(i), order.x == 1u);
    return vec4<f32>(xy, 0.2 + 0.2 * k, 1.0);
}
@group(0) @binding(0) var<uniform> order: vec4<u32>;
"#;

const READ: &str = r#"
@group(0) @binding(0) var layer: texture_depth_2d;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(8, 8)
fn read(@builtin(global_invocation_id) gid: vec3<u32>) {
    let size = textureDimensions(layer);
    if gid.x >= size.x / 2u || gid.y >= size.y / 2u {
        return;
    }
    var sum = 0.0;
    for (var dy = 0u; dy < 2u; dy++) {
        for (var dx = 0u; dx < 2u; dx++) {
            sum += textureLoad(layer, gid.xy * 2u + vec2<u32>(dx, dy), 0);
        }
    }
    // One word a 2x2 block: the sum only matters so the loads are kept.
    if sum < 0.0 {
        out[gid.x + gid.y * size.x] = 1u;
    }
}
"#;

#[derive(Clone, Copy, Debug)]
enum Start {
    Clear,
    Copy,
    Load,
}

#[derive(Clone, Copy, Debug)]
enum Draw {
    None,
    FrontToBack,
    BackToFront,
}

struct Config {
    name: &'static str,
    format: wgpu::TextureFormat,
    size: u32,
    layers: u32,
    usage: wgpu::TextureUsages,
}

fn main() {
    let instance = wgpu::Instance::new(&wgpu::InstanceDescriptor::from_env_or_default());
    let adapter = match pollster::block_on(instance.request_adapter(&Default::default())) {
        Ok(adapter) => adapter,
        Err(e) => {
            eprintln!("error: no adapter: {e}");
            std::process::exit(1);
        }
    };
    if !adapter.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
        eprintln!("error: no timestamp queries");
        std::process::exit(1);
    }
    let info = adapter.get_info();
    let (device, queue) = match pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("layer start probe"),
        required_features: wgpu::Features::TIMESTAMP_QUERY,
        required_limits: adapter.limits(),
        ..Default::default()
    })) {
        Ok(pair) => pair,
        Err(e) => {
            eprintln!("error: no device: {e}");
            std::process::exit(1);
        }
    };
    println!("adapter: {} ({:?}, {})", info.name, info.backend, info.driver_info);
    let period = queue.get_timestamp_period() as f64;

    let all = wgpu::TextureUsages::RENDER_ATTACHMENT
        | wgpu::TextureUsages::TEXTURE_BINDING
        | wgpu::TextureUsages::COPY_DST
        | wgpu::TextureUsages::COPY_SRC;
    let d16 = wgpu::TextureFormat::Depth16Unorm;
    let configs = [
        Config { name: "D16 array 2048 (engine)", format: d16, size: 2048, layers: 4, usage: all },
        Config { name: "D16 2D 2048", format: d16, size: 2048, layers: 1, usage: all },
        Config {
            name: "D16 array 2048, no copy usages",
            format: d16,
            size: 2048,
            layers: 4,
            usage: all - wgpu::TextureUsages::COPY_DST - wgpu::TextureUsages::COPY_SRC,
        },
        Config {
            name: "D32F array 2048",
            format: wgpu::TextureFormat::Depth32Float,
            size: 2048,
            layers: 4,
            usage: all,
        },
        Config { name: "D16 array 1024", format: d16, size: 1024, layers: 4, usage: all },
        Config { name: "D16 2D 4096", format: d16, size: 4096, layers: 1, usage: all },
    ];

    let order_buffers: Vec<wgpu::Buffer> = [0u32, 1]
        .iter()
        .map(|&o| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("order"),
                contents: bytemuck::cast_slice(&[o, 0, 0, 0]),
                usage: wgpu::BufferUsages::UNIFORM,
            })
        })
        .collect();
    let draw_module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("draw"),
        source: wgpu::ShaderSource::Wgsl(DRAW.into()),
    });
    let read_module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("read"),
        source: wgpu::ShaderSource::Wgsl(READ.into()),
    });
    let read_pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("read"),
        layout: None,
        module: &read_module,
        entry_point: Some("read"),
        compilation_options: Default::default(),
        cache: None,
    });
    let out = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("out"),
        size: 4096 * 4096 * 4,
        usage: wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    });
    let queries = device.create_query_set(&wgpu::QuerySetDescriptor {
        label: Some("probe timestamps"),
        ty: wgpu::QueryType::Timestamp,
        count: (REPS * 4) as u32,
    });
    let resolve = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("resolve"),
        size: (REPS * 4 * 8) as u64,
        usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size: (REPS * 4 * 8) as u64,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });

    println!(
        "{:<34} {:<6} {:<12} {:>9} {:>9} {:>9}   (ms, median of {} reps x {} rounds)",
        "texture", "start", "draw", "start", "read", "sum", REPS, ROUNDS
    );
    for config in &configs {
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some(config.name),
            size: wgpu::Extent3d { width: config.size, height: config.size, depth_or_array_layers: config.layers },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: config.format,
            usage: config.usage,
            view_formats: &[],
        });
        let layer_view = texture.create_view(&wgpu::TextureViewDescriptor {
            dimension: Some(wgpu::TextureViewDimension::D2),
            base_array_layer: 1.min(config.layers - 1),
            array_layer_count: Some(1),
            ..Default::default()
        });
        let texel_bytes: u32 = if config.format == d16 { 2 } else { 4 };
        let far: Vec<u8> = if config.format == d16 {
            bytemuck::cast_slice(&vec![0xffffu16; (config.size * config.size) as usize]).to_vec()
        } else {
            bytemuck::cast_slice(&vec![1.0f32; (config.size * config.size) as usize]).to_vec()
        };
        let far = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("far"),
            contents: &far,
            usage: wgpu::BufferUsages::COPY_SRC,
        });
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("order"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            }],
        });
        let draw_pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("draw"),
            layout: Some(&device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: None,
                bind_group_layouts: &[&layout],
                push_constant_ranges: &[],
            })),
            vertex: wgpu::VertexState {
                module: &draw_module,
                entry_point: Some("vs"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: Default::default(),
            depth_stencil: Some(wgpu::DepthStencilState {
                format: config.format,
                depth_write_enabled: true,
                depth_compare: wgpu::CompareFunction::Less,
                stencil: Default::default(),
                bias: Default::default(),
            }),
            multisample: Default::default(),
            fragment: None,
            multiview: None,
            cache: None,
        });
        let order_groups: Vec<wgpu::BindGroup> = order_buffers
            .iter()
            .map(|b| {
                device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: None,
                    layout: &layout,
                    entries: &[wgpu::BindGroupEntry { binding: 0, resource: b.as_entire_binding() }],
                })
            })
            .collect();
        let read_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &read_pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: wgpu::BindingResource::TextureView(&layer_view) },
                wgpu::BindGroupEntry { binding: 1, resource: out.as_entire_binding() },
            ],
        });
        // WebGPU copies into no depth format but `Depth16Unorm`.
        let can_copy = config.usage.contains(wgpu::TextureUsages::COPY_DST) && config.format == d16;
        for start in [Start::Clear, Start::Copy, Start::Load] {
            if matches!(start, Start::Copy) && !can_copy {
                continue;
            }
            for draw in [Draw::None, Draw::FrontToBack, Draw::BackToFront] {
                let mut starts = Vec::new();
                let mut reads = Vec::new();
                for _ in 0..ROUNDS {
                    let mut encoder = device.create_command_encoder(&Default::default());
                    for rep in 0..REPS {
                        let q = (rep * 4) as u32;
                        let span = matches!(start, Start::Copy);
                        if span {
                            encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                                label: Some("span"),
                                timestamp_writes: Some(wgpu::ComputePassTimestampWrites {
                                    query_set: &queries,
                                    beginning_of_pass_write_index: Some(q),
                                    end_of_pass_write_index: None,
                                }),
                            });
                            encoder.copy_buffer_to_texture(
                                wgpu::TexelCopyBufferInfo {
                                    buffer: &far,
                                    layout: wgpu::TexelCopyBufferLayout {
                                        offset: 0,
                                        bytes_per_row: Some(config.size * texel_bytes),
                                        rows_per_image: Some(config.size),
                                    },
                                },
                                wgpu::TexelCopyTextureInfo {
                                    texture: &texture,
                                    mip_level: 0,
                                    origin: wgpu::Origin3d { x: 0, y: 0, z: 1.min(config.layers - 1) },
                                    aspect: wgpu::TextureAspect::DepthOnly,
                                },
                                wgpu::Extent3d { width: config.size, height: config.size, depth_or_array_layers: 1 },
                            );
                        }
                        let load = match start {
                            Start::Clear => wgpu::LoadOp::Clear(1.0),
                            Start::Copy | Start::Load => wgpu::LoadOp::Load,
                        };
                        {
                            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                                label: Some("start"),
                                color_attachments: &[],
                                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                                    view: &layer_view,
                                    depth_ops: Some(wgpu::Operations { load, store: wgpu::StoreOp::Store }),
                                    stencil_ops: None,
                                }),
                                timestamp_writes: Some(wgpu::RenderPassTimestampWrites {
                                    query_set: &queries,
                                    beginning_of_pass_write_index: if span { None } else { Some(q) },
                                    end_of_pass_write_index: Some(q + 1),
                                }),
                                occlusion_query_set: None,
                            });
                            match draw {
                                Draw::None => {}
                                Draw::FrontToBack | Draw::BackToFront => {
                                    pass.set_pipeline(&draw_pipeline);
                                    let o = matches!(draw, Draw::BackToFront) as usize;
                                    pass.set_bind_group(0, &order_groups[o], &[]);
                                    pass.draw(0..3, 0..4);
                                }
                            }
                        }
                        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                            label: Some("read"),
                            timestamp_writes: Some(wgpu::ComputePassTimestampWrites {
                                query_set: &queries,
                                beginning_of_pass_write_index: Some(q + 2),
                                end_of_pass_write_index: Some(q + 3),
                            }),
                        });
                        pass.set_pipeline(&read_pipeline);
                        pass.set_bind_group(0, &read_group, &[]);
                        let groups = config.size / 2 / 8;
                        pass.dispatch_workgroups(groups, groups, 1);
                    }
                    encoder.resolve_query_set(&queries, 0..(REPS * 4) as u32, &resolve, 0);
                    encoder.copy_buffer_to_buffer(&resolve, 0, &readback, 0, (REPS * 4 * 8) as u64);
                    queue.submit([encoder.finish()]);
                    readback.slice(..).map_async(wgpu::MapMode::Read, |r| r.expect("map"));
                    device.poll(wgpu::PollType::Wait { submission_index: None, timeout: None }).expect("poll");
                    {
                        let bytes = readback.slice(..).get_mapped_range();
                        let ticks: &[u64] = bytemuck::cast_slice(&bytes);
                        // The first rep of each round pays for the last case's transitions.
                        for rep in 1..REPS {
                            let t = &ticks[rep * 4..rep * 4 + 4];
                            starts.push(t[1].saturating_sub(t[0]) as f64 * period / 1e6);
                            reads.push(t[3].saturating_sub(t[2]) as f64 * period / 1e6);
                        }
                    }
                    readback.unmap();
                }
                let s = median(&mut starts);
                let r = median(&mut reads);
                println!(
                    "{:<34} {:<6} {:<12} {:>9.4} {:>9.4} {:>9.4}",
                    config.name,
                    format!("{start:?}"),
                    format!("{draw:?}"),
                    s,
                    r,
                    s + r
                );
            }
        }
    }
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}
