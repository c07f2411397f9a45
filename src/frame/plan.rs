//! The ways of drawing ([`DrawMode`]) and what each records on a given adapter ([`FramePlan`]).
//!
//! This is the one place that maps (mode, adapter capabilities) to passes and calls: the
//! renderer resolves a plan per mode once, when it is created, and every frame only reads it.
//! Adding a pass means a field here and a line in `Renderer::render`.

use crate::gpu::GpuContext;
use crate::passes::cull::CullOutput;
use crate::passes::main::indirect::IndirectDraws;
use crate::passes::{build, cull, main, pyramid, raster, Phase};
use crate::tunables::{DEFAULT_LOD_ERROR_PX, DEFAULT_MIN_PIXELS};

/// How much a frame draws, and how: level of detail, the size threshold, occlusion culling
/// and the compute rasteriser for small objects. The default is all four on; [`Detail::FULL`] is all off (every object in the frustum at
/// level 0, the engine before LOD and occlusion culling).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Detail {
    /// Pick a level of detail per object (`--lod`); off: level 0 always.
    pub lod: bool,
    /// Largest projected error of a picked level, in pixels (`--lod-error`).
    pub lod_error_px: f32,
    /// Cull objects whose projected bounding sphere is narrower than this many pixels
    /// (`--min-pixels`); 0 culls none.
    pub min_pixels: f32,
    /// Two-phase occlusion culling in the GPU-culled modes (`--occlusion`).
    pub occlusion: bool,
    /// Small objects drawn by the compute rasteriser in the GPU-culled modes that cull into
    /// batches, where the adapter has 64-bit atomics (`--soft-raster`).
    pub soft: bool,
}

impl Default for Detail {
    fn default() -> Self {
        Self {
            lod: true,
            lod_error_px: DEFAULT_LOD_ERROR_PX,
            min_pixels: DEFAULT_MIN_PIXELS,
            occlusion: true,
            soft: true,
        }
    }
}

impl Detail {
    /// Every object in the frustum at full detail, drawn by the hardware: LOD, size culling,
    /// occlusion culling and the compute rasteriser off.
    pub const FULL: Detail =
        Detail { lod: false, lod_error_px: DEFAULT_LOD_ERROR_PX, min_pixels: 0.0, occlusion: false, soft: false };
}

/// The ways of drawing. Each has one kebab-case name (`gpu-nocount`), the same on the command
/// line (clap), in JSON (serde) and in labels ([`DrawMode::name`]); `tests/cli.rs` checks that
/// they agree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
#[value(rename_all = "kebab-case")]
pub enum DrawMode {
    /// GPU culling, per-batch draws compacted, `multi_draw_indexed_indirect_count`.
    Gpu,
    /// GPU culling, one draw slot per batch (empty ones too), `multi_draw_indexed_indirect`.
    GpuNocount,
    /// GPU culling, one indirect command per object, count variant where available.
    GpuPerObject,
    /// CPU culling, one `draw_indexed` per visible object.
    Cpu,
    /// The CPU baseline recorded once into a render bundle and replayed (static scenes only).
    Bundle,
}

impl DrawMode {
    pub const ALL: [DrawMode; 5] =
        [DrawMode::Gpu, DrawMode::GpuNocount, DrawMode::GpuPerObject, DrawMode::Cpu, DrawMode::Bundle];

    pub fn name(self) -> &'static str {
        match self {
            DrawMode::Gpu => "gpu",
            DrawMode::GpuNocount => "gpu-nocount",
            DrawMode::GpuPerObject => "gpu-per-object",
            DrawMode::Cpu => "cpu",
            DrawMode::Bundle => "bundle",
        }
    }

    /// Whether the GPU culls (and the visible count comes from a GPU readback).
    pub fn gpu_culled(self) -> bool {
        matches!(self, DrawMode::Gpu | DrawMode::GpuNocount | DrawMode::GpuPerObject)
    }
}

impl std::fmt::Display for DrawMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // `pad`, so that `{:<15}` in tables pads the name.
        f.pad(self.name())
    }
}

impl std::str::FromStr for DrawMode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        DrawMode::ALL.into_iter().find(|m| m.name() == s).ok_or_else(|| {
            let names: Vec<_> = DrawMode::ALL.iter().map(|m| m.name()).collect();
            format!("unknown mode \"{s}\"; expected one of: {}", names.join(", "))
        })
    }
}

/// What the adapter can do that changes what a mode records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// `MULTI_DRAW_INDIRECT_COUNT`: GPU-written draw counts.
    pub count_draws: bool,
}

impl Capabilities {
    pub fn of(ctx: &GpuContext) -> Self {
        Self { count_draws: ctx.has_count_draws() }
    }
}

/// What the main pass draws from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MainDraws {
    /// The GPU-written draws.
    Indirect(IndirectDraws),
    /// CPU culling, then one draw per visible object.
    CpuBaseline,
    /// The CPU baseline recorded once into a bundle, replayed.
    Bundle,
}

/// The passes a frame of one mode records, in order, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FramePlan {
    pub mode: DrawMode,
    /// The cull pass and what it writes; `None` where the CPU culls.
    pub cull: Option<CullOutput>,
    /// Whether the build pass turns batch counts into draws.
    pub build: bool,
    /// Whether the mode's small objects may go to the compute rasteriser (`passes::raster`):
    /// it culls into batches. (Whether the renderer has one is `Renderer::soft_raster`'s part.)
    pub soft_raster: bool,
    pub main: MainDraws,
}

impl FramePlan {
    /// The plan of `mode` on an adapter with `caps`. Without GPU-written counts, gpu falls back
    /// to gpu-nocount's draws and gpu-per-object to one draw per object, empty ones included.
    pub fn resolve(mode: DrawMode, caps: Capabilities) -> Self {
        let gpu = |output, counted| FramePlan {
            mode,
            cull: Some(output),
            build: output == CullOutput::Batches,
            soft_raster: output == CullOutput::Batches,
            main: MainDraws::Indirect(IndirectDraws { output, counted }),
        };
        match mode {
            DrawMode::Gpu => gpu(CullOutput::Batches, caps.count_draws),
            DrawMode::GpuNocount => gpu(CullOutput::Batches, false),
            DrawMode::GpuPerObject => gpu(CullOutput::PerObject, caps.count_draws),
            DrawMode::Cpu => {
                FramePlan { mode, cull: None, build: false, soft_raster: false, main: MainDraws::CpuBaseline }
            }
            DrawMode::Bundle => {
                FramePlan { mode, cull: None, build: false, soft_raster: false, main: MainDraws::Bundle }
            }
        }
    }

    /// The GPU-written draws, where the mode has them.
    pub fn indirect(&self) -> Option<IndirectDraws> {
        match self.main {
            MainDraws::Indirect(draws) => Some(draws),
            MainDraws::CpuBaseline | MainDraws::Bundle => None,
        }
    }

    /// Whether the GPU compacts its draws behind a count (`FrameUniforms::compact`).
    pub fn compact(&self) -> bool {
        self.indirect().is_some_and(|d| d.counted)
    }

    /// The culling phases a frame records: two with occlusion culling where the GPU culls,
    /// one otherwise (the CPU has no depth buffer to test against).
    pub fn phases(&self, occlusion: bool) -> &'static [Phase] {
        if occlusion && self.cull.is_some() {
            &[Phase::Early, Phase::Late]
        } else {
            &[Phase::Only]
        }
    }

    /// The names of the passes recorded, in order: wgpu labels, puffin scopes and timestamps
    /// (`soft`: the frame uses the compute rasteriser).
    pub fn pass_names(&self, occlusion: bool, soft: bool) -> Vec<&'static str> {
        let mut names = Vec::new();
        for &phase in self.phases(occlusion) {
            if phase == Phase::Late {
                names.push(pyramid::NAME);
            }
            if self.cull.is_some() {
                names.push(phase.pass_name(cull::NAME, cull::LATE_NAME));
            }
            if self.build {
                names.push(phase.pass_name(build::NAME, build::LATE_NAME));
            }
            if soft && self.soft_raster {
                names.push(phase.pass_name(raster::NAME, raster::LATE_NAME));
            }
            names.push(phase.pass_name(main::NAME, main::LATE_NAME));
        }
        names
    }
}
