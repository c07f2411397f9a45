//! Pass "pyramid" (`shaders/pyramid.wgsl`): the depth buffer the first phase drew reduced to a
//! hierarchical-Z pyramid, which the second culling phase ("cull late") tests objects against.
//!
//! **Sizing.** Level 0 is the largest power of two below the screen in each dimension (1000×563
//! → 512×512, 1920×1080 → 1024×1024, a 2048² shadow layer → 1024²); the chain goes down to
//! 1×1, a dimension that reaches 1 first staying 1. Strictly below: a power-of-two depth
//! buffer (a shadow cascade's layer) would otherwise get a level 0 of its own size, 32-bit
//! texels written for every 16-bit one read, where one of half the side costs a quarter of the
//! writes and tests a small caster one level coarser (docs/BENCHMARKS.md § "Cascade pyramids
//! of half the side"). Every level after 0 is then an exact 2 × 2 reduction of the
//! one before, with no odd edge to special-case, and an object's screen rectangle maps to one
//! level's texels with a shift.
//!
//! **Conservative.** Each texel holds the farthest (largest) depth of the whole depth-buffer
//! area it covers: depth compares Less and clears to 1.0, so an object nearer than a texel's
//! value may be visible there and one farther is hidden behind everything drawn there. Level 0
//! shrinks by a ratio r = screen / level in (1, 2] per axis (1 for a dimension of 1); its
//! texel x takes the max over depth texels floor(x·r) ..= ceil((x + 1)·r) − 1, up to three per
//! axis, so no depth texel is left out of any level. An occlusion test against it can keep a hidden object, never drop a
//! visible one.
//!
//! **Commands.** One dispatch per level in one compute pass, each with a bind group made at
//! [`PyramidPass::resize`] (the depth, the level read, the level written): what is recorded
//! depends on the resolution only. wgpu 27 has no min/max reduction sampler, so the shader
//! reads texels with `textureLoad`; each dispatch binds one storage texture, inside the default
//! `max_storage_textures_per_shader_stage` of 4.

use crate::gpu::commands::FrameEncoder;
use crate::gpu_scene::buffers::r32_placeholder;
use crate::gpu_scene::layout::{Layouts, HIZ, PYRAMID_IO, PYRAMID_SOFT};
use crate::gpu_scene::shader::PassShader;
use crate::pipelines::{compute_all, compute_spec, PipelineCache, PipelineError};
use crate::tunables::{TILE_WORKGROUP_SIDE, WORKGROUP_SIZE};

/// The pass's wgpu label, puffin scope and GPU timestamp name.
pub const NAME: &str = "pyramid";

pub const SHADER: PassShader = PassShader {
    file: "shaders/pyramid.wgsl",
    body: include_str!("../../shaders/pyramid.wgsl"),
    groups: &[&PYRAMID_IO, &PYRAMID_SOFT],
};

/// Format of every level: one 32-bit depth, the same precision as the Depth32Float buffer, so
/// the reduction loses nothing. It supports storage writes without any feature.
pub const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::R32Float;

/// Usages of the pyramid: written as storage, read sampled (by the next level and the occlusion
/// test). The copy usages let tests and tools poison and read back any level; the reduction
/// itself does not need them.
const USAGE: wgpu::TextureUsages = wgpu::TextureUsages::STORAGE_BINDING
    .union(wgpu::TextureUsages::TEXTURE_BINDING)
    .union(wgpu::TextureUsages::COPY_SRC)
    .union(wgpu::TextureUsages::COPY_DST);

/// Size of level 0 for a `width` × `height` screen: the largest power of two below each
/// dimension (1 for a dimension of 0 or 1), so along an axis of 2 or more a texel spans more
/// than one depth texel and at most two.
pub fn base_size(width: u32, height: u32) -> (u32, u32) {
    let below_pow2 = |n: u32| 1 << (u32::BITS - 1 - n.saturating_sub(1).max(1).leading_zeros());
    (below_pow2(width), below_pow2(height))
}

/// Size of every level, from level 0 down to 1×1.
pub fn level_sizes(width: u32, height: u32) -> Vec<(u32, u32)> {
    let (base_width, base_height) = base_size(width, height);
    let count = u32::BITS - base_width.max(base_height).leading_zeros();
    (0..count).map(|level| ((base_width >> level).max(1), (base_height >> level).max(1))).collect()
}

/// What depends on the screen size, made at resize.
struct Levels {
    /// The depth view the bind groups read, kept to notice a new depth buffer.
    depth: wgpu::TextureView,
    /// The pyramid: written by this pass level by level; read by the next level's dispatch and
    /// by the occlusion test.
    texture: wgpu::Texture,
    /// Every level, for the occlusion test's `textureLoad` at any level.
    view: wgpu::TextureView,
    /// One single-level view per level: written as storage by its own dispatch, read sampled by
    /// the next one, and shown by debug views.
    level_views: Vec<wgpu::TextureView>,
    /// Size of each level.
    sizes: Vec<(u32, u32)>,
    /// One per level: the depth, the level read (the placeholder for level 0) and the level
    /// written.
    bind_groups: Vec<wgpu::BindGroup>,
    /// Group `hiz` of the cull pipelines: every level, for the second phase's occlusion test.
    hiz: wgpu::BindGroup,
}

pub struct PyramidPass {
    /// Entry `reduce_depth`: the depth buffer → level 0.
    reduce_depth: wgpu::ComputePipeline,
    /// Entry `reduce_depth_soft`: the depth buffer and the compute rasteriser's visibility
    /// buffer (nearer of the two per pixel) → level 0.
    reduce_depth_soft: wgpu::ComputePipeline,
    /// Entry `reduce_level`: level i − 1 → level i.
    reduce_level: wgpu::ComputePipeline,
    /// `Layouts::pyramid_io` and `Layouts::hiz`, kept to make the bind groups at every resize.
    bind_group_layout: wgpu::BindGroupLayout,
    hiz_layout: wgpu::BindGroupLayout,
    /// A 1×1 texture bound as `source_level` by level 0, which reads `depth` instead; never
    /// written.
    placeholder: wgpu::TextureView,
    /// The texture, its views and bind groups of the current size; `None` until the first
    /// [`PyramidPass::resize`].
    levels: Option<Levels>,
    /// `Layouts::pyramid_soft_io`.
    soft_layout: wgpu::BindGroupLayout,
    /// Group `pyramid soft` over the compute rasteriser's visibility buffer, for level 0 in
    /// the frames it draws ([`PyramidPass::fit_soft`]), with the buffer it was made over.
    soft: Option<(wgpu::Buffer, wgpu::BindGroup)>,
}

impl PyramidPass {
    /// Gets both pipelines from the cache. The pyramid itself is made by
    /// [`PyramidPass::resize`], once the depth buffer is known.
    pub fn new(device: &wgpu::Device, cache: &PipelineCache, layouts: &Layouts) -> Result<Self, PipelineError> {
        // The pyramid does not use WORKGROUP_SIZE; the shared preamble does.
        let shader = SHADER.spec(WORKGROUP_SIZE);
        let specs = [
            compute_spec("pyramid reduce_depth", &layouts.pyramid, &shader, "reduce_depth"),
            compute_spec("pyramid reduce_depth_soft", &layouts.pyramid_soft, &shader, "reduce_depth_soft"),
            compute_spec("pyramid reduce_level", &layouts.pyramid, &shader, "reduce_level"),
        ];
        let mut pipelines = compute_all(cache, &specs).into_iter();
        let mut next = || pipelines.next().expect("one result per spec");
        let (reduce_depth, reduce_depth_soft, reduce_level) = (next()?, next()?, next()?);
        // R32Float, the pyramid's FORMAT.
        let placeholder = r32_placeholder(device, "pyramid placeholder");
        Ok(Self {
            reduce_depth,
            reduce_depth_soft,
            reduce_level,
            bind_group_layout: layouts.pyramid_io.clone(),
            hiz_layout: layouts.hiz.clone(),
            placeholder,
            levels: None,
            soft_layout: layouts.pyramid_soft_io.clone(),
            soft: None,
        })
    }

    /// (Re)creates the pyramid and its bind groups for a `width` × `height` `depth` buffer (a
    /// single-sampled depth view with `TEXTURE_BINDING` usage: the view's `Depth32Float`, or a
    /// shadow layer).
    /// The same pipelines and no pyramid yet: what a view starts with (each view reduces its
    /// own depth buffer).
    pub fn for_view(&self) -> Self {
        Self {
            reduce_depth: self.reduce_depth.clone(),
            reduce_depth_soft: self.reduce_depth_soft.clone(),
            reduce_level: self.reduce_level.clone(),
            bind_group_layout: self.bind_group_layout.clone(),
            hiz_layout: self.hiz_layout.clone(),
            placeholder: self.placeholder.clone(),
            levels: None,
            soft_layout: self.soft_layout.clone(),
            soft: None,
        }
    }

    /// Binds the compute rasteriser's visibility buffer `pixels` for level 0 (made again only
    /// when the buffer is another): the frames it draws take the nearer of it and the depth
    /// buffer, since its pixels reach the depth buffer only at the resolve.
    pub fn fit_soft(&mut self, device: &wgpu::Device, pixels: &wgpu::Buffer) {
        if self.soft.as_ref().is_some_and(|(buffer, _)| buffer == pixels) {
            return;
        }
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(PYRAMID_SOFT.label),
            layout: &self.soft_layout,
            entries: &[PYRAMID_SOFT.buffer("pixels", pixels)],
        });
        self.soft = Some((pixels.clone(), group));
    }

    /// The group of [`PyramidPass::fit_soft`] where `soft` asks for it.
    fn soft_group(&self, soft: bool) -> Option<&wgpu::BindGroup> {
        soft.then(|| &self.soft.as_ref().expect("fit_soft before a frame the compute rasteriser draws").1)
    }

    pub fn resize(&mut self, device: &wgpu::Device, depth: &wgpu::TextureView, width: u32, height: u32) {
        self.levels = Some(Levels::new(self, device, depth, width, height));
    }

    /// Resizes unless the pyramid was made for this very depth view at this size; returns
    /// whether it did. The renderer calls it every two-phase frame, so a new or resized depth
    /// buffer is picked up before its first use.
    pub fn fit(&mut self, device: &wgpu::Device, depth: &wgpu::TextureView, width: u32, height: u32) -> bool {
        let current = self.fits(depth, width, height);
        if !current {
            self.resize(device, depth, width, height);
        }
        !current
    }

    /// Whether the pyramid was made for this depth view at this size.
    pub fn fits(&self, depth: &wgpu::TextureView, width: u32, height: u32) -> bool {
        let base = base_size(width, height);
        self.levels.as_ref().is_some_and(|l| l.depth == *depth && l.sizes[0] == base)
    }

    fn levels(&self) -> &Levels {
        self.levels.as_ref().expect("PyramidPass::resize is called before the pyramid is used")
    }

    pub fn level_count(&self) -> u32 {
        self.levels().sizes.len() as u32
    }

    /// Width and height of `level`.
    pub fn level_size(&self, level: u32) -> (u32, u32) {
        self.levels().sizes[level as usize]
    }

    pub fn texture(&self) -> &wgpu::Texture {
        &self.levels().texture
    }

    /// All levels, as the occlusion test reads them.
    pub fn view(&self) -> &wgpu::TextureView {
        &self.levels().view
    }

    /// One level alone (for debug views).
    pub fn level_view(&self, level: u32) -> &wgpu::TextureView {
        &self.levels().level_views[level as usize]
    }

    /// Group `hiz` of the cull pipelines, bound to this pyramid.
    pub fn hiz_bind_group(&self) -> &wgpu::BindGroup {
        &self.levels().hiz
    }

    /// Runs each pipeline once on level 0's bind group (for prewarming, as `frame::prewarm`
    /// does for the other passes), the soft one where `soft` (group `pyramid soft`) is given.
    /// `reduce_level` then reads the placeholder and leaves junk in level 0, which the next
    /// `record` overwrites.
    pub fn prewarm(&self, frame: &mut FrameEncoder<'_>, soft: bool) {
        let soft = self.soft_group(soft);
        let mut pass = frame.compute_pass(NAME);
        pass.set_bind_group(PYRAMID_IO.index, &self.levels().bind_groups[0]);
        if let Some(soft) = soft {
            pass.set_bind_group(PYRAMID_SOFT.index, soft);
            pass.set_pipeline(&self.reduce_depth_soft);
            pass.dispatch(1, 1);
        }
        for pipeline in [&self.reduce_depth, &self.reduce_level] {
            pass.set_pipeline(pipeline);
            pass.dispatch(1, 1);
        }
    }

    /// Reduces the depth buffer into every level: one dispatch per level, in order (wgpu
    /// places the barrier between a level's storage write and the next level's read). `soft`:
    /// group `pyramid soft` of a frame the compute rasteriser draws (`RasterPass`), whose
    /// depths level 0 takes too.
    pub fn record(&self, frame: &mut FrameEncoder<'_>, soft: bool) {
        self.record_named(frame, soft, NAME);
    }

    /// [`PyramidPass::record`] under another pass name (a shadow cascade's pyramid).
    pub fn record_named(&self, frame: &mut FrameEncoder<'_>, soft: bool, name: &'static str) {
        let soft = self.soft_group(soft);
        profile_scope!(name);
        let mut pass = frame.compute_pass(name);
        for (level, (bind_group, &(width, height))) in
            self.levels().bind_groups.iter().zip(&self.levels().sizes).enumerate()
        {
            match (level, soft) {
                (0, Some(soft)) => {
                    pass.set_pipeline(&self.reduce_depth_soft);
                    pass.set_bind_group(PYRAMID_SOFT.index, soft);
                }
                (0, None) => pass.set_pipeline(&self.reduce_depth),
                (1, _) => pass.set_pipeline(&self.reduce_level),
                _ => {}
            }
            pass.set_bind_group(PYRAMID_IO.index, bind_group);
            pass.dispatch(width.div_ceil(TILE_WORKGROUP_SIDE), height.div_ceil(TILE_WORKGROUP_SIDE));
        }
    }
}

/// A pyramid level as an 8-bit grey image for debug views: the nearest depth of the level
/// black, the farthest white (the background, depth 1.0, stays white), so the occluders stand
/// out whatever the depth range.
pub fn level_to_gray(texels: &[f32]) -> Vec<u8> {
    let (lo, hi) =
        texels.iter().filter(|d| **d < 1.0).fold((f32::MAX, f32::MIN), |(lo, hi), &d| (lo.min(d), hi.max(d)));
    let span = (hi - lo).max(f32::EPSILON);
    texels
        .iter()
        .map(|&d| if d >= 1.0 || lo > hi { 255 } else { (((d - lo) / span).clamp(0.0, 1.0) * 230.0) as u8 })
        .collect()
}

impl PyramidPass {
    /// Reads `level` back (blocking) as a grey image (see [`level_to_gray`]); for debug views.
    pub fn level_image(&self, device: &wgpu::Device, queue: &wgpu::Queue, level: u32) -> (u32, u32, Vec<u8>) {
        let (width, height) = self.level_size(level);
        let texels = crate::gpu::target::read_texture_f32(device, queue, self.texture(), level);
        (width, height, level_to_gray(&texels))
    }
}

impl Levels {
    /// The pyramid texture of a `width` × `height` screen, its views and one bind group per
    /// level.
    fn new(pass: &PyramidPass, device: &wgpu::Device, depth: &wgpu::TextureView, width: u32, height: u32) -> Self {
        let sizes = level_sizes(width, height);
        let (base_width, base_height) = sizes[0];
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some(NAME),
            size: wgpu::Extent3d { width: base_width, height: base_height, depth_or_array_layers: 1 },
            mip_level_count: sizes.len() as u32,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: FORMAT,
            usage: USAGE,
            view_formats: &[],
        });
        let view = texture.create_view(&Default::default());
        let level_views: Vec<_> = (0..sizes.len() as u32)
            .map(|level| {
                texture.create_view(&wgpu::TextureViewDescriptor {
                    label: Some(&format!("{NAME} level {level}")),
                    base_mip_level: level,
                    mip_level_count: Some(1),
                    ..Default::default()
                })
            })
            .collect();
        let bind_groups = level_views
            .iter()
            .enumerate()
            .map(|(level, destination)| {
                let source = if level == 0 { &pass.placeholder } else { &level_views[level - 1] };
                device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some(&format!("{NAME} level {level}")),
                    layout: &pass.bind_group_layout,
                    entries: &[
                        PYRAMID_IO.entry("depth", wgpu::BindingResource::TextureView(depth)),
                        PYRAMID_IO.entry("source_level", wgpu::BindingResource::TextureView(source)),
                        PYRAMID_IO.entry("destination_level", wgpu::BindingResource::TextureView(destination)),
                    ],
                })
            })
            .collect();
        let hiz = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(HIZ.label),
            layout: &pass.hiz_layout,
            entries: &[HIZ.entry("pyramid", wgpu::BindingResource::TextureView(&view))],
        });
        Self { depth: depth.clone(), texture, view, level_views, sizes, bind_groups, hiz }
    }
}
