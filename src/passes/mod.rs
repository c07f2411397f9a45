//! One module per pass. Each owns its shader file ([`PassShader`]), its pipelines, what it
//! clears and reads back, and its `record`, and has one name (`NAME`) that is its wgpu label,
//! its puffin scope and its GPU timestamp. Which passes run in a frame, and how, is decided by
//! `frame::FramePlan`; a pass knows nothing of the others' order.
//!
//! Passes, in frame order: [`scatter`] (object records changed since the last frame copied
//! into place; only in frames after a change), [`cull`] (GPU frustum, size and LOD tests into batch slices or
//! per-object draws, and the list of small objects for the compute rasteriser), [`build`]
//! (batch counts → compacted indirect draws), [`raster`] (the compute rasteriser: small objects
//! into a visibility buffer; where the adapter has 64-bit atomics), [`main`] (the render
//! pass every way of drawing records into: GPU-driven multi-draws, the CPU baseline, or a
//! bundle; with the compute rasteriser, its resolve first), [`deferred`] (where the adapter has
//! `primitive_index`: the opaque variants' pixels, which the main pass only named, shaded in a
//! compute dispatch and composited over its colour), and before a view's passes, per
//! shadow cascade of the view, cull, build and [`shadow`] (the casters' depth into the cascade's
//! layer of the view's shadow map). With occlusion culling these are the first phase, followed by [`pyramid`] (the
//! depth buffer → a Hi-Z mip chain) and the second phase: cull, build and main again, as
//! "cull late", "build late" and "main late" ([`Phase`]). Last, where the scene has blended
//! objects, [`blend`]'s sort and the blended pass draw them farthest first over everything.

pub mod blend;
pub mod build;
pub mod cull;
pub mod deferred;
pub mod environment;
pub mod main;
pub mod pyramid;
pub mod raster;
pub mod scatter;
pub mod shadow;

use crate::gpu_scene::shader::PassShader;
use crate::pipelines::Constants;

/// A switch that measurements set from the environment to compare a pass with and without
/// what it does: `Some(true)` where variable `name` is `on`, `Some(false)` where it is `off`,
/// `None` where it is unset or anything else (the code's own choice stands).
pub fn env_switch(name: &str) -> Option<bool> {
    let value = std::env::var_os(name)?;
    if value == "on" {
        Some(true)
    } else if value == "off" {
        Some(false)
    } else {
        None
    }
}

/// Which culling phase a cull, build or main pass serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The only phase of a frame without occlusion culling.
    Only,
    /// Occlusion culling's first phase: the objects visible last frame.
    Early,
    /// Occlusion culling's second phase: everything else that the depth pyramid cannot hide.
    Late,
}

impl Phase {
    /// The `LATE` override constant of the build and raster shaders, on in the second phase:
    /// how their pipelines of each phase are told apart.
    pub fn late_constant(self) -> Constants {
        Constants(vec![("LATE", Constants::flag(self == Phase::Late))])
    }

    /// The phase's number in the shaders (`PHASE_ONLY`, `PHASE_EARLY`, `PHASE_LATE` in
    /// `shaders/cull.wgsl`), the value of their `PHASE` override constants.
    pub fn index(self) -> usize {
        match self {
            Phase::Only => 0,
            Phase::Early => 1,
            Phase::Late => 2,
        }
    }

    /// The pass name in this phase: `name` itself, or `late` for the second phase (the first
    /// phase keeps the single-phase name, so timings and scopes stay comparable).
    pub fn pass_name(self, name: &'static str, late: &'static str) -> &'static str {
        match self {
            Phase::Only | Phase::Early => name,
            Phase::Late => late,
        }
    }
}

/// Every pass's shader, for validation and tools.
pub const SHADERS: [&PassShader; 16] = [
    &cull::SHADER,
    &build::SHADER,
    &raster::SHADER,
    &raster::SHADE_LIST_SHADER,
    &raster::MARK_SHADER,
    &raster::SHADE_SHADER,
    &main::SHADER,
    &main::VIS_SHADER,
    &raster::RESOLVE_SHADER,
    &deferred::COMPOSITE_SHADER,
    &pyramid::SHADER,
    &scatter::SHADER,
    &shadow::SHADER,
    &shadow::MERGE_SHADER,
    &environment::SHADER,
    &blend::SHADER,
];

#[cfg(test)]
mod tests {
    use super::Phase;

    /// The phase numbers the override constants carry are the ones the cull shader names.
    #[test]
    fn phase_numbers_match_the_cull_shader() {
        for (phase, name) in [(Phase::Only, "PHASE_ONLY"), (Phase::Early, "PHASE_EARLY"), (Phase::Late, "PHASE_LATE")] {
            let line = format!("const {name}: u32 = {}u;", phase.index());
            assert!(super::cull::SHADER.body.contains(&line), "shaders/cull.wgsl declares `{line}`");
        }
    }
}
