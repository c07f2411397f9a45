//! The scene's textures on the GPU: one `texture_2d_array` with a full mip chain per size
//! class and role (the *slots* of the [`TEXTURES`] group), and one trilinear sampler.
//!
//! Why slots by size class: the pipeline layout is universal (every render pipeline, every
//! mode, one layout), so the set of bindings cannot depend on the scene, and lavapipe has no
//! non-uniform indexing of binding arrays. A fixed table of arrays — base colour in
//! `Rgba8UnormSrgb` and normal maps in `Rgba8Unorm`, each at 64, 128, …, 2048 — holds any
//! scene; a texture goes to the array of its role and size, and a material names (class,
//! layer) per role. A slot no texture uses is bound to a 1×1 placeholder, which costs a
//! binding and nothing else. Twelve sampled textures stay under the default
//! `max_sampled_textures_per_shader_stage` of 16.
//!
//! Sampling (the WGSL [`sampling_wgsl`] generates from the table): a `switch` on the class
//! picks the array; `textureSample` is not allowed in that non-uniform flow, so the draw
//! shader takes the UV derivatives (`dpdx`/`dpdy`) in uniform flow at the top of each
//! fragment entry point, and each case reads with `textureSampleLevel` at the level those
//! derivatives give for its class's size (`mip_level`: the standard isotropic level, log2
//! of the longer footprint axis in texels; trilinear through the sampler). Not
//! `textureSampleGrad`: on llvmpipe it cost much more in the main pass (measured: see
//! docs/BENCHMARKS.md § "Texture sampling on llvmpipe"). A GPU runs only the case a fragment takes;
//! llvmpipe runs every case under a mask, so each case costs every fragment a sample there:
//! one switch per role of one sample per class, not one per (class, sampler), is why there
//! is a single sampler (see `wrapped_uv` in `shaders/shared/surface.wgsl` for the wrap modes it
//! serves).

use std::fmt::Write;

use super::layout::{Layouts, TEXTURES};
use super::limits::UploadError;
use crate::scene::textures::{self as cpu_textures, mip_levels};
use crate::scene::{Scene, TextureEncoding, Wrap};
use crate::tunables::{SMALLEST_TEXTURE_CLASS, TEXTURE_CLASS_COUNT};

/// Texture slots: every size class of base colour (sRGB), then every size class of normal
/// maps (linear).
pub const SLOT_COUNT: u32 = 2 * TEXTURE_CLASS_COUNT;

const _: () = assert!(
    TEXTURES.bindings.len() == SLOT_COUNT as usize + 4,
    "one binding per slot, the material sampler, the environment's two maps and sampler"
);

/// The encoding of each role's textures: base colour (role 0) sRGB, normal maps linear.
pub const ROLE_ENCODINGS: [TextureEncoding; 2] = [TextureEncoding::Srgb, TextureEncoding::Linear];

/// The edge of slot `slot`'s textures and their encoding.
pub fn slot_class(slot: u32) -> (u32, TextureEncoding) {
    let encoding = ROLE_ENCODINGS[(slot / TEXTURE_CLASS_COUNT) as usize];
    (SMALLEST_TEXTURE_CLASS << (slot % TEXTURE_CLASS_COUNT), encoding)
}

/// The slot that holds textures of this edge and encoding, if the edge is a size class.
pub fn slot_of(size: u32, encoding: TextureEncoding) -> Option<u32> {
    (0..SLOT_COUNT).find(|&slot| slot_class(slot) == (size, encoding))
}

/// The wrap modes as the shader reads them: u in bits 0–1, v in bits 2–3; and the layer's
/// copies of the image per axis (`Texture::tiles_log2`), u in bits 4–7, v in bits 8–11.
pub fn wrap_bits(wrap: [Wrap; 2], tiles_log2: [u32; 2]) -> u32 {
    wrap[0] as u32 | (wrap[1] as u32) << 2 | tiles_log2[0].min(15) << 4 | tiles_log2[1].min(15) << 8
}

/// Where each texture of the scene lives: (size class, layer) per base-colour and per normal
/// texture (the class indexes the role's slots), and the textures of each slot in layer order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TexturePlacement {
    pub base_color: Vec<(u32, u32)>,
    pub normal: Vec<(u32, u32)>,
    /// Per slot, its layers as (role, index): role 0 base colour, 1 normal.
    pub slots: Vec<Vec<(usize, usize)>>,
}

/// Places every texture in the slot of its size and encoding, layers in scene order. A
/// texture whose size is no class is placed in slot 0; [`check_textures`] refuses such a scene.
pub fn place(scene: &Scene) -> TexturePlacement {
    let mut placement = TexturePlacement { slots: vec![Vec::new(); SLOT_COUNT as usize], ..Default::default() };
    for (role, textures) in [&scene.base_color_textures, &scene.normal_textures].into_iter().enumerate() {
        for (index, texture) in textures.layers.iter().enumerate() {
            let slot = slot_of(texture.size, ROLE_ENCODINGS[role]).unwrap_or(0);
            let layers = &mut placement.slots[slot as usize];
            let place = (slot % TEXTURE_CLASS_COUNT, layers.len() as u32);
            layers.push((role, index));
            if role == 0 { &mut placement.base_color } else { &mut placement.normal }.push(place);
        }
    }
    placement
}

/// Every texture's size (a size class, at most `max_texture_dimension_2d`), encoding (its
/// role's) and byte count, and every slot's layers against `max_texture_array_layers`.
pub fn check_textures(scene: &Scene, limits: &wgpu::Limits) -> Result<(), UploadError> {
    let roles = [("base colour", &scene.base_color_textures), ("normal", &scene.normal_textures)];
    for ((role, textures), encoding) in roles.into_iter().zip(ROLE_ENCODINGS) {
        for (layer, texture) in textures.layers.iter().enumerate() {
            if texture.encoding != encoding {
                return Err(UploadError::WrongEncoding { slot: role, layer, expected: encoding });
            }
            if texture.size > limits.max_texture_dimension_2d || slot_of(texture.size, texture.encoding).is_none() {
                return Err(UploadError::TextureTooLarge {
                    slot: role,
                    size: texture.size,
                    limit: limits.max_texture_dimension_2d,
                });
            }
            let expected = (texture.size as usize).pow(2) * 4;
            if texture.rgba.len() != expected {
                let (got, size) = (texture.rgba.len(), texture.size);
                return Err(UploadError::BadTexture { slot: role, layer, got, expected, size });
            }
        }
    }
    let placement = place(scene);
    if let Some((slot, layers)) = placement.slots.iter().enumerate().max_by_key(|(_, layers)| layers.len()) {
        if layers.len() > limits.max_texture_array_layers as usize {
            return Err(UploadError::TooManyLayers {
                slot: TEXTURES.bindings[slot].name,
                layers: layers.len(),
                limit: limits.max_texture_array_layers,
            });
        }
    }
    Ok(())
}

/// The environment's prefiltered light (made by `passes::environment`), as the `textures`
/// group binds it beside the material slots.
pub struct EnvironmentMaps {
    /// Every level of the radiance map, as a one-layer array.
    pub radiance: wgpu::TextureView,
    /// Irradiance (layer 0) and BRDF table (layer 1).
    pub tables: wgpu::TextureView,
    /// Linear, mipmapped, clamped (the maps are octahedral: their edges fold onto themselves).
    pub sampler: wgpu::Sampler,
    /// Bytes of both textures.
    pub bytes: u64,
}

/// The uploaded slots and their sampler.
pub struct SceneTextures {
    /// One view per slot, in binding order. Written at upload; read by the main pass.
    pub views: Vec<wgpu::TextureView>,
    /// Repeating, trilinear; clamp and mirror are folded in the shader.
    pub sampler: wgpu::Sampler,
    /// Bytes of every slot with its mips (placeholders included).
    pub bytes: u64,
}

impl SceneTextures {
    /// Uploads every slot: its textures' level 0 and the mip chain made here
    /// ([`cpu_textures::mip_chain`]), or a white 1×1 placeholder.
    pub fn upload(device: &wgpu::Device, queue: &wgpu::Queue, scene: &Scene, placement: &TexturePlacement) -> Self {
        profile_function!();
        let roles = [&scene.base_color_textures, &scene.normal_textures];
        let mut bytes = 0;
        let views = placement
            .slots
            .iter()
            .enumerate()
            .map(|(slot, layers)| {
                let (class, encoding) = slot_class(slot as u32);
                let size = if layers.is_empty() { 1 } else { class };
                let levels = mip_levels(size);
                let label = TEXTURES.bindings[slot].name;
                let texture = device.create_texture(&wgpu::TextureDescriptor {
                    label: Some(label),
                    size: wgpu::Extent3d {
                        width: size,
                        height: size,
                        depth_or_array_layers: layers.len().max(1) as u32,
                    },
                    mip_level_count: levels,
                    sample_count: 1,
                    dimension: wgpu::TextureDimension::D2,
                    format: match encoding {
                        TextureEncoding::Srgb => wgpu::TextureFormat::Rgba8UnormSrgb,
                        TextureEncoding::Linear => wgpu::TextureFormat::Rgba8Unorm,
                    },
                    usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
                    view_formats: &[],
                });
                bytes += cpu_textures::bytes_with_mips(size) * layers.len().max(1) as u64;
                if layers.is_empty() {
                    write_level(queue, &texture, 0, 0, 1, &[255; 4]);
                }
                for (layer, &(role, index)) in layers.iter().enumerate() {
                    let source = &roles[role].layers[index];
                    write_level(queue, &texture, layer as u32, 0, size, &source.rgba);
                    for (level, data) in cpu_textures::mip_chain(source).iter().enumerate() {
                        write_level(queue, &texture, layer as u32, level as u32 + 1, size >> (level + 1), data);
                    }
                }
                texture.create_view(&wgpu::TextureViewDescriptor {
                    label: Some(label),
                    dimension: Some(wgpu::TextureViewDimension::D2Array),
                    ..Default::default()
                })
            })
            .collect();
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("material_sampler"),
            address_mode_u: wgpu::AddressMode::Repeat,
            address_mode_v: wgpu::AddressMode::Repeat,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            mipmap_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        Self { views, sampler, bytes }
    }

    /// The `textures` bind group, with the environment's maps.
    pub fn bind_group(
        &self,
        device: &wgpu::Device,
        layouts: &Layouts,
        environment: &EnvironmentMaps,
    ) -> wgpu::BindGroup {
        let mut entries: Vec<_> = self
            .views
            .iter()
            .enumerate()
            .map(|(slot, view)| TEXTURES.entry(TEXTURES.bindings[slot].name, wgpu::BindingResource::TextureView(view)))
            .collect();
        entries.push(TEXTURES.entry("material_sampler", wgpu::BindingResource::Sampler(&self.sampler)));
        entries.push(TEXTURES.entry("environment_radiance", wgpu::BindingResource::TextureView(&environment.radiance)));
        entries.push(TEXTURES.entry("environment_tables", wgpu::BindingResource::TextureView(&environment.tables)));
        entries.push(TEXTURES.entry("environment_sampler", wgpu::BindingResource::Sampler(&environment.sampler)));
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(TEXTURES.label),
            layout: &layouts.textures,
            entries: &entries,
        })
    }
}

fn write_level(queue: &wgpu::Queue, texture: &wgpu::Texture, layer: u32, level: u32, size: u32, data: &[u8]) {
    queue.write_texture(
        wgpu::TexelCopyTextureInfo {
            texture,
            mip_level: level,
            origin: wgpu::Origin3d { x: 0, y: 0, z: layer },
            aspect: wgpu::TextureAspect::All,
        },
        data,
        wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(size * 4), rows_per_image: Some(size) },
        wgpu::Extent3d { width: size, height: size, depth_or_array_layers: 1 },
    );
}

/// WGSL generated from the slot table, appended to the `textures` group's declarations: the
/// wrap-mode constants, the smallest class, and per role a function that samples layer
/// `layer` of size class `class` (a `switch` with one `textureSampleLevel` per class, at the
/// level `mip_level` computes from the derivatives for that class's size).
pub fn sampling_wgsl() -> String {
    let mut text = format!(
        "const WRAP_REPEAT: u32 = {}u;\nconst WRAP_CLAMP_TO_EDGE: u32 = {}u;\nconst WRAP_MIRRORED_REPEAT: u32 = {}u;\n\
         const SMALLEST_TEXTURE_CLASS: u32 = {SMALLEST_TEXTURE_CLASS}u;\n",
        Wrap::Repeat as u32,
        Wrap::ClampToEdge as u32,
        Wrap::MirroredRepeat as u32
    );
    text.push_str(
        "fn mip_level(ddx: vec2<f32>, ddy: vec2<f32>, size: f32) -> f32 {\n    \
         let x = ddx * size;\n    let y = ddy * size;\n    \
         return 0.5 * log2(max(max(dot(x, x), dot(y, y)), 1e-12));\n}\n",
    );
    for (role, function) in ["sample_base_color_class", "sample_normal_class"].into_iter().enumerate() {
        let _ = writeln!(
            text,
            "fn {function}(size_class: u32, layer: i32, uv: vec2<f32>, ddx: vec2<f32>, ddy: vec2<f32>) -> vec4<f32> {{\n    \
             var texel = vec4<f32>(1.0);\n    switch size_class {{"
        );
        for class in 0..TEXTURE_CLASS_COUNT {
            let name = TEXTURES.bindings[(role as u32 * TEXTURE_CLASS_COUNT + class) as usize].name;
            let _ = writeln!(
                text,
                "        case {class}u: {{ texel = textureSampleLevel({name}, material_sampler, uv, layer, mip_level(ddx, ddy, {size}.0)); }}",
                size = slot_class(role as u32 * TEXTURE_CLASS_COUNT + class).0
            );
        }
        text.push_str("        default: {}\n    }\n    return texel;\n}\n");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slot_names_follow_the_size_classes() {
        for slot in 0..SLOT_COUNT {
            let (size, encoding) = slot_class(slot);
            let prefix = if encoding == TextureEncoding::Srgb { "srgb" } else { "linear" };
            assert_eq!(TEXTURES.bindings[slot as usize].name, format!("{prefix}_{size}"));
            assert_eq!(slot_of(size, encoding), Some(slot));
        }
        assert_eq!(slot_of(100, TextureEncoding::Srgb), None);
    }
}
