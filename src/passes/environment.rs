//! The environment's image-based light (`shaders/environment.wgsl`): the scene's sky
//! prefiltered on the GPU when the scene is uploaded, never in a frame. Three maps, read by
//! `shaders/shared/lighting.wgsl` through the `textures` group:
//!
//! * the radiance map, octahedral (the upper hemisphere inside the diamond), [`RADIANCE_SIZE`]
//!   square at level 0, one mip
//!   level per roughness step ([`RADIANCE_LEVELS`]: level k is the sky through a GGX lobe of
//!   roughness k / (levels − 1));
//! * the irradiance (layer 0 of the tables) and the split sum's BRDF table (layer 1), both
//!   [`TABLE_SIZE`] square.
//!
//! One compute pass of `RADIANCE_LEVELS + 2` dispatches, submitted on its own.

use glam::Vec3;

use crate::gpu_scene::layout::{Layouts, ENVIRONMENT_IO};
use crate::gpu_scene::shader::PassShader;
use crate::gpu_scene::textures::EnvironmentMaps;
use crate::gpu_scene::types::EnvironmentParams;
use crate::pipelines::{compute_all, compute_spec, PipelineCache, PipelineError};
use crate::scene::Environment;
use crate::tunables::WORKGROUP_SIZE;

/// The pass's wgpu label and puffin scope.
pub const NAME: &str = "environment";

pub const SHADER: PassShader = PassShader {
    file: "shaders/environment.wgsl",
    body: include_str!("../../shaders/environment.wgsl"),
    groups: &[&ENVIRONMENT_IO],
};

/// Side of the radiance map's level 0.
pub const RADIANCE_SIZE: u32 = 128;
/// Mip levels of the radiance map, one per roughness step of 1 / (levels − 1).
pub const RADIANCE_LEVELS: u32 = 6;
/// Side of the irradiance map and of the BRDF table.
pub const TABLE_SIZE: u32 = 32;
/// Format of every map: filterable, and writable as storage without a feature.
const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;
/// Samples per texel: of the GGX lobe for the radiance levels and the BRDF table, of the
/// cosine lobe for the irradiance.
const SAMPLES: u32 = 512;

/// The prefilter's three pipelines.
pub struct EnvironmentPass {
    radiance: wgpu::ComputePipeline,
    irradiance: wgpu::ComputePipeline,
    brdf_table: wgpu::ComputePipeline,
}

impl EnvironmentPass {
    pub fn new(cache: &PipelineCache, layouts: &Layouts) -> Result<Self, PipelineError> {
        let shader = SHADER.spec(WORKGROUP_SIZE);
        let specs = ["radiance", "irradiance", "brdf_table"]
            .map(|entry| compute_spec(&format!("{NAME} {entry}"), &layouts.environment, &shader, entry));
        let mut pipelines = compute_all(cache, &specs).into_iter();
        let mut next = || pipelines.next().expect("one pipeline per spec");
        Ok(Self { radiance: next()?, irradiance: next()?, brdf_table: next()? })
    }

    /// Prefilters `environment`'s sky into new maps and submits the work on `queue` (the
    /// maps are ready for any later submission).
    pub fn prefilter(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        layouts: &Layouts,
        environment: &Environment,
    ) -> EnvironmentMaps {
        profile_function!();
        let texture = |label: &str, width: u32, height: u32, layers: u32, levels: u32| {
            device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size: wgpu::Extent3d { width, height, depth_or_array_layers: layers },
                mip_level_count: levels,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: FORMAT,
                usage: wgpu::TextureUsages::TEXTURE_BINDING
                    | wgpu::TextureUsages::STORAGE_BINDING
                    | wgpu::TextureUsages::COPY_SRC,
                view_formats: &[],
            })
        };
        let radiance = texture("environment radiance", RADIANCE_SIZE, RADIANCE_SIZE, 1, RADIANCE_LEVELS);
        let tables = texture("environment tables", TABLE_SIZE, TABLE_SIZE, 2, 1);
        let sky = |color: Vec3| (color * environment.intensity).extend(1.0);
        let params = |roughness: f32| EnvironmentParams {
            zenith: sky(environment.zenith),
            horizon: sky(environment.horizon),
            ground: sky(environment.ground),
            roughness,
            samples: SAMPLES,
            _pad: [0; 2],
        };
        // (pipeline, texture, layer, level, parameters) of each dispatch.
        let mut dispatches: Vec<(&wgpu::ComputePipeline, &wgpu::Texture, u32, u32, EnvironmentParams)> = (0
            ..RADIANCE_LEVELS)
            .map(|level| (&self.radiance, &radiance, 0, level, params(level as f32 / (RADIANCE_LEVELS - 1) as f32)))
            .collect();
        dispatches.push((&self.irradiance, &tables, 0, 0, params(0.0)));
        dispatches.push((&self.brdf_table, &tables, 1, 0, params(0.0)));
        let groups: Vec<(wgpu::BindGroup, u32, u32)> = dispatches
            .iter()
            .map(|&(_, texture, layer, level, ref params)| {
                let buffer = wgpu::util::DeviceExt::create_buffer_init(
                    device,
                    &wgpu::util::BufferInitDescriptor {
                        label: Some("environment params"),
                        contents: bytemuck::bytes_of(params),
                        usage: wgpu::BufferUsages::UNIFORM,
                    },
                );
                let view = texture.create_view(&wgpu::TextureViewDescriptor {
                    dimension: Some(wgpu::TextureViewDimension::D2),
                    base_mip_level: level,
                    mip_level_count: Some(1),
                    base_array_layer: layer,
                    array_layer_count: Some(1),
                    ..Default::default()
                });
                let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some(ENVIRONMENT_IO.label),
                    layout: &layouts.environment_io,
                    entries: &[
                        ENVIRONMENT_IO.buffer("params", &buffer),
                        ENVIRONMENT_IO.entry("level", wgpu::BindingResource::TextureView(&view)),
                    ],
                });
                let size = texture.size();
                (group, (size.width >> level).max(1), (size.height >> level).max(1))
            })
            .collect();
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(NAME) });
        {
            let mut pass =
                encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some(NAME), timestamp_writes: None });
            for ((pipeline, ..), (group, width, height)) in dispatches.iter().zip(&groups) {
                pass.set_pipeline(pipeline);
                pass.set_bind_group(0, group, &[]);
                pass.dispatch_workgroups(width.div_ceil(8), height.div_ceil(8), 1);
            }
        }
        queue.submit([encoder.finish()]);
        let view = |texture: &wgpu::Texture| {
            texture.create_view(&wgpu::TextureViewDescriptor {
                dimension: Some(wgpu::TextureViewDimension::D2Array),
                ..Default::default()
            })
        };
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("environment_sampler"),
            address_mode_u: wgpu::AddressMode::ClampToEdge,
            address_mode_v: wgpu::AddressMode::ClampToEdge,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            mipmap_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        let texel_bytes = 8u64;
        let radiance_texels: u64 =
            (0..RADIANCE_LEVELS).map(|l| u64::from((RADIANCE_SIZE >> l) * (RADIANCE_SIZE >> l))).sum();
        let bytes = (radiance_texels + 2 * u64::from(TABLE_SIZE * TABLE_SIZE)) * texel_bytes;
        EnvironmentMaps { radiance: view(&radiance), tables: view(&tables), sampler, bytes }
    }
}
