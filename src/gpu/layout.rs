//! The universal layout: every bind group layout is created here, once, and every render
//! pipeline is built on the one [`Layouts::render`] pipeline layout. Materials differ by
//! pipeline variant, never by layout, so the main pass sets its bind groups once and they
//! survive every `set_pipeline`.
//!
//! | group | render pipelines                          | cull pipelines                  |
//! |-------|-------------------------------------------|---------------------------------|
//! | 0     | frame uniforms                            | frame uniforms                  |
//! | 1     | scene: objects, instances, materials (ro) | cull io: objects, batches (ro), |
//! |       |                                           | instances, counts, draws (rw)   |
//! | 2     | textures: base colour, normal, sampler    | –                               |

/// Bind group indices, named once.
pub mod group {
    pub const FRAME: u32 = 0;
    pub const SCENE: u32 = 1;
    pub const TEXTURES: u32 = 2;
    /// The cull pipelines' writable group takes the scene group's index in their own layout.
    pub const CULL_IO: u32 = 1;
    /// Number of group indices any pipeline uses.
    pub const COUNT: usize = 3;
}

/// Binding numbers inside each group, named once; the WGSL declarations use the same numbers.
pub mod binding {
    pub const FRAME_UNIFORMS: u32 = 0;

    pub const SCENE_OBJECTS: u32 = 0;
    pub const SCENE_INSTANCES: u32 = 1;
    pub const SCENE_MATERIALS: u32 = 2;

    pub const TEXTURE_BASE_COLOR: u32 = 0;
    pub const TEXTURE_NORMAL: u32 = 1;
    pub const TEXTURE_SAMPLER: u32 = 2;

    pub const CULL_OBJECTS: u32 = 0;
    pub const CULL_BATCHES: u32 = 1;
    pub const CULL_INSTANCES: u32 = 2;
    pub const CULL_BATCH_COUNTS: u32 = 3;
    pub const CULL_DRAWS: u32 = 4;
    pub const CULL_DRAW_COUNTS: u32 = 5;
}

/// Every layout of the engine.
pub struct Layouts {
    pub frame: wgpu::BindGroupLayout,
    pub scene: wgpu::BindGroupLayout,
    pub textures: wgpu::BindGroupLayout,
    pub cull_io: wgpu::BindGroupLayout,
    /// The one pipeline layout of every render pipeline (frame, scene, textures).
    pub render: wgpu::PipelineLayout,
    /// The pipeline layout of the cull and build compute pipelines (frame, cull io).
    pub cull: wgpu::PipelineLayout,
}

fn storage(binding: u32, visibility: wgpu::ShaderStages, read_only: bool) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

fn texture_array(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable: true },
            view_dimension: wgpu::TextureViewDimension::D2Array,
            multisampled: false,
        },
        count: None,
    }
}

impl Layouts {
    pub fn new(device: &wgpu::Device) -> Self {
        use binding::*;
        let all_stages = wgpu::ShaderStages::COMPUTE | wgpu::ShaderStages::VERTEX | wgpu::ShaderStages::FRAGMENT;
        let drawing = wgpu::ShaderStages::VERTEX | wgpu::ShaderStages::FRAGMENT;
        let compute = wgpu::ShaderStages::COMPUTE;
        let frame = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("frame"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: FRAME_UNIFORMS,
                visibility: all_stages,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: wgpu::BufferSize::new(std::mem::size_of::<super::types::FrameUniforms>() as u64),
                },
                count: None,
            }],
        });
        let scene = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("scene"),
            entries: &[
                storage(SCENE_OBJECTS, drawing, true),
                storage(SCENE_INSTANCES, drawing, true),
                storage(SCENE_MATERIALS, drawing, true),
            ],
        });
        let textures = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("textures"),
            entries: &[
                texture_array(TEXTURE_BASE_COLOR),
                texture_array(TEXTURE_NORMAL),
                wgpu::BindGroupLayoutEntry {
                    binding: TEXTURE_SAMPLER,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
            ],
        });
        let cull_io = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("cull io"),
            entries: &[
                storage(CULL_OBJECTS, compute, true),
                storage(CULL_BATCHES, compute, true),
                storage(CULL_INSTANCES, compute, false),
                storage(CULL_BATCH_COUNTS, compute, false),
                storage(CULL_DRAWS, compute, false),
                storage(CULL_DRAW_COUNTS, compute, false),
            ],
        });
        let render = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("universal render layout"),
            bind_group_layouts: &[&frame, &scene, &textures],
            push_constant_ranges: &[],
        });
        let cull = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("cull layout"),
            bind_group_layouts: &[&frame, &cull_io],
            push_constant_ranges: &[],
        });
        Self { frame, scene, textures, cull_io, render, cull }
    }
}
