//! The ways of drawing ([`DrawMode`]) and what each records on a given adapter ([`FramePlan`]).
//!
//! This is the one place that decides what a frame records. The renderer resolves a plan per
//! mode once, when it is created, from (mode, adapter capabilities); per view of each frame,
//! [`FramePlan::schedule`] turns it and the view's request (detail, frozen culling, whether
//! the compute rasteriser and a current pyramid exist) into a [`ViewSchedule`]: the ordered
//! [`Step`]s that `Renderer::render` walks. Adding a pass means its module, a [`Step`] and its
//! place in [`FramePlan::schedule`], and its arm in the renderer's `record_step`.

use crate::gpu::GpuContext;
use crate::passes::cull::CullOutput;
use crate::passes::main::indirect::IndirectDraws;
use crate::passes::{blend, build, cull, deferred, main, pyramid, raster, shadow, Phase};
use crate::tunables::{DEFAULT_LOD_ERROR_PX, DEFAULT_MIN_PIXELS, MAX_VIEW_PASSES};

/// How much a frame draws, and how: level of detail, the size threshold, occlusion culling
/// and the compute rasteriser for small objects. The default is all four on; [`Detail::FULL`]
/// is all off (every object in the frustum at level 0, the engine before LOD and occlusion
/// culling); [`Detail::auto`] leaves occlusion culling and the compute rasteriser to the
/// renderer, frame by frame.
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
    /// `--occlusion auto`: `occlusion` is allowed, and the renderer turns it off in the frames
    /// where it does not pay (`frame::adapt`).
    pub auto_occlusion: bool,
    /// `--soft-raster auto`: likewise for the compute rasteriser, decided apart for the view's
    /// small objects (`soft`) and its shadow cascades' small casters (`shadow_soft`).
    pub auto_soft: bool,
    /// The shadow cascades' small casters drawn by the compute rasteriser too, where `soft`
    /// allows it (`--soft-raster` sets both).
    pub shadow_soft: bool,
    /// The view's shadow cascades cull in two phases too, each against the depth pyramid of
    /// its own first phase, in the GPU-culled modes (`--shadow-occlusion`). Off in
    /// [`Detail::default`]: it pays only where casters hide many others from the sun.
    pub shadow_occlusion: bool,
    /// `--shadow-occlusion auto`: `shadow_occlusion` is allowed, and the renderer turns it off
    /// where it does not pay.
    pub auto_shadow_occlusion: bool,
    /// The opaque variants' pixels shaded in a compute dispatch after the main pass, where the
    /// renderer can (`passes::deferred`, `--deferred`); off: every fragment in the main pass.
    pub deferred: bool,
    /// `--deferred auto`: `deferred` is allowed, and the renderer shades forward in the frames
    /// where that costs less.
    pub auto_deferred: bool,
}

impl Default for Detail {
    fn default() -> Self {
        Self {
            lod: true,
            lod_error_px: DEFAULT_LOD_ERROR_PX,
            min_pixels: DEFAULT_MIN_PIXELS,
            occlusion: true,
            soft: true,
            auto_occlusion: false,
            auto_soft: false,
            shadow_soft: true,
            // It pays only where casters hide many others, seen from the sun
            // (docs/BENCHMARKS.md, "Occlusion culling in the cascades").
            shadow_occlusion: false,
            auto_shadow_occlusion: false,
            deferred: true,
            auto_deferred: false,
        }
    }
}

impl Detail {
    /// Every object in the frustum at full detail, drawn and shaded by the hardware: LOD, size
    /// culling, occlusion culling (the view's and its cascades'), the compute rasteriser and
    /// deferred shading off.
    pub const FULL: Detail = Detail {
        lod: false,
        lod_error_px: DEFAULT_LOD_ERROR_PX,
        min_pixels: 0.0,
        occlusion: false,
        soft: false,
        auto_occlusion: false,
        auto_soft: false,
        shadow_soft: false,
        shadow_occlusion: false,
        auto_shadow_occlusion: false,
        deferred: false,
        auto_deferred: false,
    };

    /// The default detail with occlusion culling (the view's and its shadow cascades'), the
    /// compute rasteriser and deferred shading left to the renderer (`--occlusion auto
    /// --soft-raster auto --shadow-occlusion auto --deferred auto`, the command line's
    /// default): each is used in the frames where it pays (`frame::adapt`).
    pub fn auto() -> Self {
        Self {
            auto_occlusion: true,
            auto_soft: true,
            shadow_occlusion: true,
            auto_shadow_occlusion: true,
            auto_deferred: true,
            ..Self::default()
        }
    }

    /// Whether anything is left to the adaptive frame.
    pub fn any_auto(&self) -> bool {
        self.auto_occlusion || self.auto_soft || self.auto_shadow_occlusion || self.auto_deferred
    }
}

/// The ways of drawing. Each has one kebab-case name (`gpu-nocount`), the same on the command
/// line (clap), in JSON (serde) and in labels ([`DrawMode::name`]); `tests/cli.rs` checks that
/// they agree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "app", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "app", value(rename_all = "kebab-case"))]
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
            main: MainDraws::Indirect(IndirectDraws { output, counted, occluders: false }),
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

    /// Everything one view of a frame records, decided from this plan and what the frame asks
    /// for: the phases, whether the compute rasteriser draws, whether a frozen view's pyramid
    /// is kept, and the steps in order. The renderer only walks the result.
    pub fn schedule(&self, request: &ViewRequest) -> ViewSchedule {
        let phases = self.phases(request.detail.occlusion);
        // The compute rasteriser needs batches to list small objects from, a renderer that has
        // one and objects it may draw, and sizes judged from the drawing camera (frozen culling
        // judges them from another); the view's small objects and its cascades' small casters
        // each where their switch asks.
        let can_raster = self.soft_raster && request.raster_available && request.cull_enabled && !request.frozen;
        let soft = can_raster && request.detail.soft;
        // While culling is frozen, the second phase tests against the pyramid of the frozen
        // view (built before the freeze, kept since), until a new depth buffer ends that.
        let keep_pyramid = phases.len() == 2 && request.frozen && request.pyramid_current;
        let mut schedule = ViewSchedule {
            phases,
            soft,
            shadow_soft: can_raster && request.detail.shadow_soft,
            keep_pyramid,
            deferred: request.deferred,
            steps: [Step::CopyCounters; MAX_STEPS],
            len: 0,
        };
        for (index, &phase) in phases.iter().enumerate() {
            // The compute rasteriser shades and resolves once a frame, in its last phase.
            let last = index + 1 == phases.len();
            if phase == Phase::Late && !keep_pyramid {
                schedule.push(Step::Pyramid { soft });
            }
            if self.cull.is_some() {
                schedule.push(Step::Cull(phase));
            }
            if self.build {
                schedule.push(Step::Build(phase));
            }
            if soft {
                schedule.push(Step::Raster { phase, shade: last });
                // The second phase left the compute rasteriser's objects' bits to its pixels.
                if phase == Phase::Late && *MARKS {
                    schedule.push(Step::Mark);
                }
            }
            // A deferred frame's composite resolves the compute rasteriser's pixels with its own.
            schedule.push(Step::Main { phase, resolve: soft && last && !request.deferred });
        }
        // The deferred variants' pixels shaded and written over the last main pass's colour.
        if request.deferred {
            schedule.push(Step::Shade);
            schedule.push(Step::Composite);
        }
        // Blended objects over everything, farthest first, sorted on the GPU where it culls
        // (the CPU modes sort them and draw them last: in their main pass, or in a blended
        // pass of their own after a deferred renderer's composite).
        if request.blend && self.indirect().is_some() {
            schedule.push(Step::BlendSort);
        }
        if request.blend && (self.indirect().is_some() || request.deferred) {
            schedule.push(Step::Blend);
        }
        if self.cull.is_some() {
            schedule.push(Step::CopyCounters);
        }
        schedule
    }

    /// What shadow cascade `cascade` of a view records: its cull, build and depth pass, with
    /// the compute rasteriser for its small casters and their merge with the layer between them
    /// where `soft` (the view's frame uses it), and where `occlusion` asks for it and the GPU
    /// culls, a second phase as a view's: the pyramid of the first phase's depth (last frame's
    /// visible casters), then every caster it cannot hide. Each phase's depth pass starts from
    /// a copy into its layer (`passes::shadow::LayerStart`), never a clear, and where the
    /// compute rasteriser drew that copy is the merge's, so the layer holds every caster
    /// drawn so far whenever a pass reads it.
    pub fn cascade_schedule(&self, cascade: usize, occlusion: bool, soft: bool) -> ViewSchedule {
        let phases = self.phases(occlusion);
        let soft = soft && self.soft_raster;
        let mut schedule = ViewSchedule {
            phases,
            soft,
            shadow_soft: false,
            keep_pyramid: false,
            deferred: false,
            steps: [Step::CopyCounters; MAX_STEPS],
            len: 0,
        };
        for &phase in phases {
            if phase == Phase::Late {
                // The layer holds the compute rasteriser's casters too (merged before the
                // depth pass): no need to read its visibility buffer.
                schedule.push(Step::ShadowPyramid(cascade));
            }
            if self.cull.is_some() {
                schedule.push(Step::ShadowCull(cascade, phase));
            }
            if self.build {
                schedule.push(Step::ShadowBuild(cascade, phase));
            }
            if soft {
                schedule.push(Step::ShadowRaster(cascade, phase));
                schedule.push(Step::ShadowMerge(cascade, phase));
            }
            schedule.push(Step::Shadow(cascade, phase));
        }
        if self.cull.is_some() {
            schedule.push(Step::CopyCounters);
        }
        schedule
    }
}

/// What a view of a frame asks of its plan ([`FramePlan::schedule`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewRequest {
    /// The view's detail (occlusion culling, the compute rasteriser, LOD, size culling).
    pub detail: Detail,
    /// `false` draws every object: no frustum, size or occlusion test.
    pub cull_enabled: bool,
    /// Culling is frozen: another camera culls than the one that draws.
    pub frozen: bool,
    /// The renderer has a compute rasteriser and the scene has objects it may draw.
    pub raster_available: bool,
    /// The view's pyramid was built with this view's depth buffer and is still valid (a frozen
    /// view keeps testing against it).
    pub pyramid_current: bool,
    /// The scene has blended objects.
    pub blend: bool,
    /// The frame defers the shading of its opaque variants (`passes::deferred`): the renderer
    /// can and the view's detail asks for it.
    pub deferred: bool,
}

/// One step of a view's frame, in recording order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The depth pyramid from the first phase's depth (and the compute rasteriser's pixels
    /// where `soft`).
    Pyramid {
        /// The compute rasteriser drew: level 0 also reads its visibility buffer.
        soft: bool,
    },
    /// The cull pass of a phase.
    Cull(Phase),
    /// The build pass of a phase.
    Build(Phase),
    /// The compute rasteriser's pass of a phase.
    Raster {
        /// The phase.
        phase: Phase,
        /// The frame's last raster pass: it also shades every pixel the frame rasterised.
        shade: bool,
    },
    /// The visibility bits of the objects that hold the compute rasteriser's pixels, set after
    /// the second phase's raster pass (`passes::raster::RasterPass::mark`).
    Mark,
    /// The main (render) pass of a phase.
    Main {
        /// The phase.
        phase: Phase,
        /// The compute rasteriser's resolve first.
        resolve: bool,
    },
    /// The deferred variants' pixels listed and shaded (`passes::deferred`).
    Shade,
    /// Their colours written over the last main pass's.
    Composite,
    /// The blended objects the last phase listed, sorted farthest first into draws.
    BlendSort,
    /// The blended pass: those draws over the last main pass's colour and depth.
    Blend,
    /// The view's counters copied into its readback ring (not a pass).
    CopyCounters,
    /// The cull pass of a phase of shadow cascade k (a view of its own).
    ShadowCull(usize, Phase),
    /// The build pass of a phase of shadow cascade k.
    ShadowBuild(usize, Phase),
    /// The compute rasteriser's pass of a phase of shadow cascade k: its small casters' depth.
    ShadowRaster(usize, Phase),
    /// The depth pass of a phase of shadow cascade k, into its layer of the view's shadow map,
    /// which a copy starts (the far plane, or the merge's depths).
    Shadow(usize, Phase),
    /// Shadow cascade k's small casters of a phase, which the compute rasteriser drew, merged
    /// with its layer (the far plane in a first phase) into the depths its depth pass copies.
    ShadowMerge(usize, Phase),
    /// The depth pyramid of shadow cascade k's first phase (its layer holds the compute
    /// rasteriser's casters too).
    ShadowPyramid(usize),
}

impl Step {
    /// The pass's name (wgpu label, puffin scope, GPU timestamp), or `None` for a step that
    /// opens no pass.
    pub fn pass_name(self) -> Option<&'static str> {
        match self {
            Step::Pyramid { .. } => Some(pyramid::NAME),
            Step::Cull(phase) => Some(phase.pass_name(cull::NAME, cull::LATE_NAME)),
            Step::Build(phase) => Some(phase.pass_name(build::NAME, build::LATE_NAME)),
            Step::Raster { phase, .. } => Some(phase.pass_name(raster::NAME, raster::LATE_NAME)),
            Step::Main { phase, .. } => Some(phase.pass_name(main::NAME, main::LATE_NAME)),
            Step::Mark => Some(raster::MARK_NAME),
            Step::Shade => Some(deferred::NAME),
            Step::Composite => Some(deferred::COMPOSITE_NAME),
            Step::BlendSort => Some(blend::SORT_NAME),
            Step::Blend => Some(blend::NAME),
            Step::CopyCounters => None,
            Step::ShadowCull(k, phase) => Some(phase.pass_name(shadow::CULL_NAMES[k], shadow::LATE_CULL_NAMES[k])),
            Step::ShadowBuild(k, phase) => Some(phase.pass_name(shadow::BUILD_NAMES[k], shadow::LATE_BUILD_NAMES[k])),
            Step::Shadow(k, phase) => Some(phase.pass_name(shadow::NAMES[k], shadow::LATE_NAMES[k])),
            Step::ShadowRaster(k, phase) => {
                Some(phase.pass_name(shadow::RASTER_NAMES[k], shadow::LATE_RASTER_NAMES[k]))
            }
            Step::ShadowPyramid(cascade) => Some(shadow::PYRAMID_NAMES[cascade]),
            Step::ShadowMerge(k, phase) => Some(phase.pass_name(shadow::MERGE_NAMES[k], shadow::LATE_MERGE_NAMES[k])),
        }
    }
}

/// Whether a view's second phase leaves the compute rasteriser's objects' visibility bits to
/// the mark dispatch ([`Step::Mark`]): unless `MULTIDRAW_MARK=off`, which measurements compare
/// against (docs/BENCHMARKS.md § "Visibility from the pixels").
static MARKS: std::sync::LazyLock<bool> =
    std::sync::LazyLock::new(|| crate::passes::env_switch("MULTIDRAW_MARK") != Some(false));

/// Steps of the fullest view: two phases of cull, build, raster and main, the pyramid, the
/// blend sort and the blended pass, the counter copy.
const MAX_STEPS: usize = MAX_VIEW_PASSES + 1;

/// What one view of a frame records: the decisions and the steps that follow from them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ViewSchedule {
    /// The culling phases (one, or two with occlusion culling).
    pub phases: &'static [Phase],
    /// Small objects go to the compute rasteriser.
    pub soft: bool,
    /// The view's shadow cascades' small casters go to the compute rasteriser
    /// ([`FramePlan::cascade_schedule`]'s `soft`).
    pub shadow_soft: bool,
    /// The second phase tests against the kept pyramid of a frozen culling view.
    pub keep_pyramid: bool,
    /// The opaque variants' pixels are shaded after the main pass (`passes::deferred`).
    pub deferred: bool,
    steps: [Step; MAX_STEPS],
    len: usize,
}

impl ViewSchedule {
    fn push(&mut self, step: Step) {
        self.steps[self.len] = step;
        self.len += 1;
    }

    /// The steps in recording order.
    pub fn steps(&self) -> &[Step] {
        &self.steps[..self.len]
    }

    /// Whether the view runs two culling phases.
    pub fn two_phase(&self) -> bool {
        self.phases.len() == 2
    }

    /// Whether the mark dispatch sets the compute rasteriser's objects' visibility bits
    /// ([`Step::Mark`]), which the second phase then leaves clear (`FrameUniforms::mark_seen`).
    pub fn marks(&self) -> bool {
        self.steps().contains(&Step::Mark)
    }

    /// The names of the passes recorded, in order: wgpu labels, puffin scopes and timestamps.
    pub fn pass_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.steps().iter().filter_map(|step| step.pass_name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The view's compute rasteriser and its cascades' are separate switches: either may run
    /// without the other (the adaptive frame decides them apart), under the same conditions.
    #[test]
    fn the_cascades_compute_rasteriser_follows_its_own_switch() {
        let plan = FramePlan::resolve(DrawMode::Gpu, Capabilities { count_draws: true });
        let request = |soft, shadow_soft, frozen| ViewRequest {
            detail: Detail { soft, shadow_soft, ..Detail::default() },
            cull_enabled: true,
            frozen,
            raster_available: true,
            pyramid_current: false,
            blend: false,
            deferred: false,
        };
        for (soft, shadow_soft) in [(false, true), (true, false), (true, true), (false, false)] {
            let schedule = plan.schedule(&request(soft, shadow_soft, false));
            assert_eq!((schedule.soft, schedule.shadow_soft), (soft, shadow_soft));
        }
        let frozen = plan.schedule(&request(true, true, true));
        assert_eq!((frozen.soft, frozen.shadow_soft), (false, false), "frozen culling rasterises neither");
        let cpu =
            FramePlan::resolve(DrawMode::Cpu, Capabilities { count_draws: true }).schedule(&request(true, true, false));
        assert!(!cpu.shadow_soft, "the CPU baseline has no compute rasteriser");
    }

    /// Every plan's fullest view fits the per-view pass budget the timestamps are sized for.
    #[test]
    fn fullest_schedule_fits_the_pass_budget() {
        for count_draws in [false, true] {
            for mode in DrawMode::ALL {
                let plan = FramePlan::resolve(mode, Capabilities { count_draws });
                let request = ViewRequest {
                    detail: Detail::default(),
                    cull_enabled: true,
                    frozen: false,
                    raster_available: true,
                    pyramid_current: false,
                    blend: true,
                    deferred: true,
                };
                let schedule = plan.schedule(&request);
                assert!(schedule.pass_names().count() <= MAX_VIEW_PASSES, "{mode}: {schedule:?}");
                if mode == DrawMode::Gpu {
                    let names: Vec<_> = schedule.pass_names().collect();
                    assert_eq!(
                        names,
                        [
                            "cull",
                            "build",
                            "raster",
                            "main",
                            "pyramid",
                            "cull late",
                            "build late",
                            "raster late",
                            "mark",
                            "main late",
                            "shade",
                            "composite",
                            "blend sort",
                            "blend"
                        ]
                    );
                    assert_eq!(names.len(), MAX_VIEW_PASSES, "MAX_VIEW_PASSES is the fullest view");
                }
                for k in 0..crate::tunables::MAX_CASCADES {
                    let cascade = plan.cascade_schedule(k, true, true);
                    assert!(cascade.pass_names().count() <= crate::tunables::CASCADE_PASSES, "{mode}: {cascade:?}");
                    if mode == DrawMode::Gpu && k == 1 {
                        let names: Vec<_> = cascade.pass_names().collect();
                        let expected = [
                            "cull shadow 1",
                            "build shadow 1",
                            "raster shadow 1",
                            "merge shadow 1",
                            "shadow 1",
                            "pyramid shadow 1",
                            "cull shadow 1 late",
                            "build shadow 1 late",
                            "raster shadow 1 late",
                            "merge shadow 1 late",
                            "shadow 1 late",
                        ];
                        assert_eq!(names, expected);
                        assert_eq!(names.len(), crate::tunables::CASCADE_PASSES, "CASCADE_PASSES is the fullest");
                    }
                }
            }
        }
    }
}
