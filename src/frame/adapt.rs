//! The adaptive frame (`--occlusion auto`, `--soft-raster auto`, `--shadow-occlusion auto`,
//! `--deferred auto`): per view, whether the second culling phase with its depth pyramid, the
//! compute rasteriser (for the view's small objects, and apart for its cascades' small
//! casters), the cascades' second phase and deferred shading pay for themselves on this scene,
//! camera and adapter, decided from what recent frames measured.
//!
//! Each switch the view's [`Detail`] leaves to `auto` starts as [`Choice::start_for`] the adapter
//! and the scene say: on (the fullest frame), except the cascades' second phase (it pays only
//! where casters hide many others) and, on a CPU adapter, the second culling phase, deferred
//! shading and (in a scene of fewer than [`CPU_SOFT_START_RECORDS`] objects it may draw) the
//! compute rasteriser (their work costs more there than it saves; there the first search waits
//! for the first `PROBE_PERIOD`: [`AutoDetail::for_adapter`]). The
//! controller keeps the cost of the frames it has read back (the GPU's pass timestamps summed,
//! or the wall-clock time the caller reports with `Renderer::report_frame_time`, which wins:
//! on adapters whose timestamps miss work that is the truth), tagged with the configuration
//! each frame ran. It tries the configuration with one switch flipped, or both, for a few
//! frames, each kind once as soon as it has costs to compare (a search: at the first frames,
//! and again after each change, which may change what the other switches are worth), then one
//! every `PROBE_PERIOD` frames (`PROBE_FRAMES`; the first `SETTLE_FRAMES` after a change are not
//! judged, since turning occlusion culling on starts from stale visibility bits, as after a
//! camera cut), and keeps it where its median cost is below `1 − HYSTERESIS` of the current
//! configuration's, otherwise goes back. Two counted facts decide without a probe: a frame whose
//! compute rasteriser drew nothing gains nothing from it, and a frame whose pyramid hid no
//! object gains nothing from the second phase; a switch is turned off after `IDLE_FRAMES` such
//! frames in a row.
//!
//! Neither choice can cost a wrong frame: with one phase or two, with the compute rasteriser or
//! without, every visible object is drawn (the first frame after turning occlusion on draws
//! last frame's visible set and then whatever the pyramid cannot hide, as after a camera
//! cut). Without costs (no timestamps, nothing reported) nothing is probed and every switch
//! stays on.

use std::collections::VecDeque;

use super::plan::Detail;
use crate::passes::cull::GpuCounters;

/// Frames between probes of the other configuration (after the first, which comes as soon as
/// the current one has `SAMPLES` judged frames).
const PROBE_PERIOD: u64 = 60;
/// Frames after a change that are not judged.
const SETTLE_FRAMES: u64 = 2;
/// Judged frames a configuration needs before it is compared. Three, so that their median
/// passes over one spike (of two, `median` takes the larger, and one slow frame decided a
/// probe: `a_spike_does_not_decide_a_probe`).
const SAMPLES: usize = 3;
/// Frames a probe runs the other configuration: settling, then its samples. Its verdict comes
/// when their readbacks do, a few frames later, while the current configuration runs again.
const PROBE_FRAMES: u64 = SETTLE_FRAMES + SAMPLES as u64;
/// How much cheaper the other configuration must be to be adopted.
const HYSTERESIS: f64 = 0.05;
/// Frames in a row of a switch doing nothing before it is turned off without a probe.
const IDLE_FRAMES: u32 = 8;
/// Frames of history kept (the readback ring is a few frames deep).
const HISTORY: usize = 16;

/// What one frame of a view ran: occlusion culling (two phases), the compute rasteriser,
/// occlusion culling in its shadow cascades, deferred shading, and the compute rasteriser in
/// its shadow cascades.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
pub struct Choice {
    pub occlusion: bool,
    pub soft: bool,
    pub shadow_occlusion: bool,
    pub deferred: bool,
    pub shadow_soft: bool,
}

impl Choice {
    /// Every switch on.
    pub const ALL_ON: Choice =
        Choice { occlusion: true, soft: true, shadow_occlusion: true, deferred: true, shadow_soft: true };
    /// Where the controller starts: the view's switches on (the fullest frame), the cascades in
    /// one phase, which costs least where their casters hide few others (most scenes; a short
    /// run never gets to a verdict). Probes turn the cascades' second phase on where it pays.
    pub const START: Choice =
        Choice { occlusion: true, soft: true, shadow_occlusion: false, deferred: true, shadow_soft: true };
    /// Where the controller starts on a CPU adapter (lavapipe) in a small scene:
    /// [`Choice::START`] without the compute rasteriser and deferred shading, whose compute
    /// work there costs more than the fragments they save (measured on lavapipe by the wall
    /// clock: docs/BENCHMARKS.md § "Small casters through the compute rasteriser"; in a large
    /// scene the compute rasteriser pays since its masked objects are drawn apart:
    /// [`Choice::start_for`]), and without the second culling phase, which the search turned
    /// off at every count `make run` measures (§ "A CPU adapter's search waits for its first
    /// period"): what the search settles on there. Its probes still try each of them, from
    /// the first `PROBE_PERIOD` on ([`AutoDetail::for_adapter`]).
    pub const CPU_START: Choice =
        Choice { occlusion: false, soft: false, shadow_soft: false, deferred: false, ..Choice::START };
}

/// Objects the compute rasteriser may draw from which a CPU adapter's adaptive frame starts
/// with it on ([`Choice::start_for`]). Since its masked objects have a pipeline of their own,
/// it pays on lavapipe in a large scene (the default scene at 100,000 objects) and costs more
/// at 1,000 and 10,000 (docs/BENCHMARKS.md § "Masked objects in a raster pipeline of their
/// own").
pub const CPU_SOFT_START_RECORDS: u32 = 50_000;

impl Choice {
    /// Where the controller starts on an adapter of `device_type`, for a scene with
    /// `soft_records` objects the compute rasteriser may draw: on a CPU adapter,
    /// [`Choice::CPU_START`], with the compute rasteriser on (the view's and the cascades')
    /// from [`CPU_SOFT_START_RECORDS`] such objects.
    pub fn start_for(device_type: wgpu::DeviceType, soft_records: u32) -> Choice {
        if device_type != wgpu::DeviceType::Cpu {
            Choice::START
        } else if soft_records >= CPU_SOFT_START_RECORDS {
            Choice { soft: true, shadow_soft: true, ..Choice::CPU_START }
        } else {
            Choice::CPU_START
        }
    }
}

/// Why the controller last changed its choice, for the viewer and the bench.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// Nothing changed yet: where it started ([`Choice::start_for`] the adapter).
    Start,
    /// A probe measured the other configuration cheaper.
    Cheaper,
    /// A probe measured the other configuration no cheaper: kept.
    Kept,
    /// The compute rasteriser drew no object for a while.
    NoSmallObjects,
    /// The pyramid hid no object for a while.
    NothingOccluded,
    /// The shadow cascades' pyramids hid no caster for a while.
    NoHiddenCasters,
}

/// The controller's state for one view.
#[derive(Clone, Debug)]
pub struct AutoDetail {
    current: Choice,
    /// The configuration being tried, and the frame it started.
    probe: Option<(Choice, u64)>,
    /// Frames before this one ran just after a change of what ran: not judged.
    settled_from: u64,
    /// What the last frame ran.
    last_ran: Option<Choice>,
    /// The last frame a probe ended (or the controller started).
    last_probe: u64,
    /// Probes so far: the next flips occlusion, the compute rasteriser or both, in turn (of
    /// those the view leaves to auto).
    probes: u32,
    /// Probes left in the current search, which tries each kind of flip once without waiting
    /// `PROBE_PERIOD`: `None` until the first search starts (every kind), and again after a
    /// change of configuration, whose own flips were measured from another one (every kind
    /// but the one that flips back).
    search_left: Option<usize>,
    /// Whether the last change was a probe's, whose flip the next search leaves out.
    flipped_back: bool,
    /// Whether the last frame that could start a probe had no switch to flip.
    nothing_to_flip: bool,
    /// (frame, what it ran, whether it is judged) of the frames recorded lately.
    ran: VecDeque<(u64, Choice, bool)>,
    /// Judged costs (ms) of the current configuration and of the probe, newest last.
    current_costs: Vec<f64>,
    probe_costs: Vec<f64>,
    idle_soft: u32,
    idle_occlusion: u32,
    idle_shadow_occlusion: u32,
    /// Why the current configuration was chosen.
    pub reason: Reason,
}

impl Default for AutoDetail {
    fn default() -> Self {
        Self {
            current: Choice::START,
            probe: None,
            settled_from: 0,
            last_ran: None,
            last_probe: 0,
            probes: 0,
            search_left: None,
            flipped_back: false,
            nothing_to_flip: false,
            ran: VecDeque::new(),
            current_costs: Vec::new(),
            probe_costs: Vec::new(),
            idle_soft: 0,
            idle_occlusion: 0,
            idle_shadow_occlusion: 0,
            reason: Reason::Start,
        }
    }
}

impl AutoDetail {
    /// A controller that starts from `start` ([`Choice::start_for`] the adapter).
    pub fn starting_from(start: Choice) -> Self {
        Self { current: start, ..Self::default() }
    }

    /// The controller of a view on an adapter of `device_type`, for a scene with
    /// `soft_records` objects the compute rasteriser may draw: from [`Choice::start_for`]
    /// them. On a CPU adapter its first search waits for the first `PROBE_PERIOD`, as later
    /// probes do: there a probe's frames cost tens to hundreds of milliseconds each, the start
    /// is what the search settled on at every count measured (`Choice::CPU_START`), and a
    /// search at the first frames would spend much of a short run on configurations it then
    /// drops (docs/BENCHMARKS.md § "A CPU adapter's search waits for its first period").
    pub fn for_adapter(device_type: wgpu::DeviceType, soft_records: u32) -> Self {
        let controller = Self::starting_from(Choice::start_for(device_type, soft_records));
        if device_type == wgpu::DeviceType::Cpu {
            Self { search_left: Some(0), ..controller }
        } else {
            controller
        }
    }

    /// What frame `frame` of a view asking for `detail` runs: `detail` itself where it leaves
    /// nothing to auto, else with the auto switches as the controller chose (or probes).
    pub fn apply(&mut self, detail: Detail, frame: u64) -> Detail {
        if !detail.any_auto() {
            return detail;
        }
        let choice = match self.probe {
            Some((probe, start)) if frame < start + PROBE_FRAMES => probe,
            _ => self.current,
        };
        let occlusion = if detail.auto_occlusion { detail.occlusion && choice.occlusion } else { detail.occlusion };
        let soft = if detail.auto_soft { detail.soft && choice.soft } else { detail.soft };
        let shadow_occlusion = if detail.auto_shadow_occlusion {
            detail.shadow_occlusion && choice.shadow_occlusion
        } else {
            detail.shadow_occlusion
        };
        let deferred = if detail.auto_deferred { detail.deferred && choice.deferred } else { detail.deferred };
        let shadow_soft = if detail.auto_soft { detail.shadow_soft && choice.shadow_soft } else { detail.shadow_soft };
        if self.last_ran != Some(choice) {
            self.settled_from = frame + SETTLE_FRAMES;
            self.last_ran = Some(choice);
        }
        self.ran.push_back((frame, choice, frame >= self.settled_from));
        while self.ran.len() > HISTORY {
            self.ran.pop_front();
        }
        self.maybe_start_probe(detail, frame);
        Detail { occlusion, soft, shadow_occlusion, deferred, shadow_soft, ..detail }
    }

    /// The configuration the view runs when not probing.
    pub fn current(&self) -> Choice {
        self.current
    }

    /// Whether a probe of the other configuration is running.
    pub fn probing(&self) -> bool {
        self.probe.is_some()
    }

    /// Whether the controller has tried every kind of flip from its current configuration and
    /// kept it: its search is over, no probe runs, and until the next `PROBE_PERIOD` probe
    /// (or a change of scene or view) it runs what it runs now. False before it has judged
    /// anything, and for a view that leaves nothing to auto (it has nothing to search).
    pub fn settled(&self) -> bool {
        self.probe.is_none() && (self.search_left == Some(0) || self.nothing_to_flip)
    }

    fn maybe_start_probe(&mut self, detail: Detail, frame: u64) {
        if self.probe.is_some() || self.current_costs.len() < SAMPLES {
            return;
        }
        // What may be flipped: occlusion alone, the compute rasteriser alone, both (two small
        // gains that each stay under the hysteresis can add up past it), the cascades'
        // occlusion culling alone, deferred shading alone, the cascades' compute rasteriser
        // alone.
        let auto = [
            detail.auto_occlusion && detail.occlusion,
            detail.auto_soft && detail.soft,
            detail.auto_shadow_occlusion && detail.shadow_occlusion,
            detail.auto_deferred && detail.deferred,
            detail.auto_soft && detail.soft && detail.shadow_soft,
        ];
        let flips: Vec<[bool; 5]> = [
            [true, false, false, false, false],
            [false, true, false, false, false],
            [true, true, false, false, false],
            [false, false, true, false, false],
            [false, false, false, true, false],
            [false, false, false, false, true],
        ]
        .into_iter()
        .filter(|flip| flip.iter().zip(auto).all(|(&f, a)| !f || a))
        .collect();
        // Nothing to try: settled (until the view's detail gives the controller a switch).
        self.nothing_to_flip = flips.is_empty();
        if flips.is_empty() {
            return;
        }
        // The first probe of each kind comes as soon as there is something to compare with,
        // and again after each change; then one every PROBE_PERIOD frames.
        let flipped_back = usize::from(self.flipped_back);
        let left = *self.search_left.get_or_insert(flips.len().saturating_sub(flipped_back));
        if left == 0 && frame < self.last_probe + PROBE_PERIOD {
            return;
        }
        self.search_left = Some(left.saturating_sub(1));
        let flip = flips[self.probes as usize % flips.len()];
        let other = Choice {
            occlusion: self.current.occlusion ^ flip[0],
            soft: self.current.soft ^ flip[1],
            shadow_occlusion: self.current.shadow_occlusion ^ flip[2],
            deferred: self.current.deferred ^ flip[3],
            shadow_soft: self.current.shadow_soft ^ flip[4],
        };
        self.probes += 1;
        self.probe = Some((other, frame + 1));
        self.probe_costs.clear();
    }

    /// Takes in one read-back frame: its number, its view's counters (GPU modes), the casters
    /// its shadow cascades' pyramids hid (`None` without shadows) and its cost in ms (`None`
    /// where nothing measured it).
    pub fn observe(
        &mut self,
        frame: u64,
        counters: Option<&GpuCounters>,
        hidden_casters: Option<u32>,
        cost_ms: Option<f64>,
    ) {
        let Some(&(_, ran, judged)) = self.ran.iter().find(|(f, ..)| *f == frame) else { return };
        if let Some(counters) = counters {
            self.count_idle(ran, counters);
        }
        if let Some(hidden) = hidden_casters.filter(|_| ran.shadow_occlusion) {
            self.idle_shadow_occlusion = if hidden == 0 { self.idle_shadow_occlusion + 1 } else { 0 };
            if self.current.shadow_occlusion && self.idle_shadow_occlusion >= IDLE_FRAMES {
                self.idle_shadow_occlusion = 0;
                self.probe = None;
                self.adopt(Choice { shadow_occlusion: false, ..self.current }, Reason::NoHiddenCasters);
                self.current_costs.clear();
            }
        }
        let Some(cost) = cost_ms.filter(|c| c.is_finite() && *c > 0.0) else { return };
        if !judged {
            return;
        }
        match self.probe {
            Some((probe, _)) if ran == probe => self.probe_costs.push(cost),
            _ if ran == self.current => {
                self.current_costs.push(cost);
                if self.current_costs.len() > 2 * SAMPLES {
                    self.current_costs.remove(0);
                }
            }
            _ => {}
        }
        if let Some((probe, _)) = self.probe {
            if self.probe_costs.len() >= SAMPLES {
                let cheaper = median(&self.probe_costs) < median(&self.current_costs) * (1.0 - HYSTERESIS);
                if cheaper {
                    self.adopt(probe, Reason::Cheaper);
                } else {
                    self.reason = if self.reason == Reason::Start { Reason::Kept } else { self.reason };
                }
                self.end_probe(frame);
            }
        }
    }

    /// Gives up a probe whose frames never came back (call once per recorded frame).
    pub fn expire(&mut self, frame: u64) {
        if let Some((_, start)) = self.probe {
            if frame > start + PROBE_FRAMES + HISTORY as u64 {
                self.end_probe(frame);
            }
        }
    }

    fn end_probe(&mut self, frame: u64) {
        self.probe = None;
        self.probe_costs.clear();
        self.last_probe = frame;
    }

    /// Runs `choice` from now on. The verdicts of the other switches were taken beside the old
    /// configuration (deferred shading may pay only once the compute rasteriser is off), so
    /// a new search tries each again: every kind of flip, but for the one just adopted, which
    /// would flip back.
    fn adopt(&mut self, choice: Choice, reason: Reason) {
        if choice != self.current {
            self.current = choice;
            self.current_costs = std::mem::take(&mut self.probe_costs);
            self.reason = reason;
            self.search_left = None;
            self.flipped_back = reason == Reason::Cheaper;
        }
    }

    /// Counts frames in which a switch that was on did nothing; turns it off after
    /// `IDLE_FRAMES` in a row.
    fn count_idle(&mut self, ran: Choice, counters: &GpuCounters) {
        if ran.soft {
            self.idle_soft = if counters.soft == 0 { self.idle_soft + 1 } else { 0 };
        }
        if ran.occlusion {
            self.idle_occlusion = if counters.occluded == 0 { self.idle_occlusion + 1 } else { 0 };
        }
        if self.current.soft && self.idle_soft >= IDLE_FRAMES {
            self.idle_soft = 0;
            self.probe = None;
            self.adopt(Choice { soft: false, ..self.current }, Reason::NoSmallObjects);
            self.current_costs.clear();
        }
        if self.current.occlusion && self.idle_occlusion >= IDLE_FRAMES {
            self.idle_occlusion = 0;
            self.probe = None;
            self.adopt(Choice { occlusion: false, ..self.current }, Reason::NothingOccluded);
            self.current_costs.clear();
        }
    }
}

/// The renderer's side of the adaptive frame.
impl super::Renderer {
    /// A view's adaptive frame as it starts: [`AutoDetail::for_adapter`] the adapter and the
    /// scene as it is now.
    pub(super) fn auto_start(&self) -> AutoDetail {
        AutoDetail::for_adapter(self.device_type, self.soft_records)
    }

    /// Forgets what the adaptive frame learned: every view starts again from
    /// `Renderer::auto_start` (the bench does so at each row).
    pub fn reset_adaptive(&mut self) {
        let start = self.auto_start();
        for view in &mut self.views {
            view.auto = start.clone();
        }
        self.reported_times.clear();
    }

    /// Tells the renderer how long frame `frame` took by the wall clock (from recording until
    /// the CPU saw its GPU work done), in ms. From the first report on, the adaptive frame
    /// (`frame::adapt`, `Detail::auto`) judges by these times rather than by the GPU's
    /// timestamps, which may miss work (lavapipe's compute passes without the opening flush of
    /// `GpuTimer::with_opening_flush`). Report
    /// before the [`super::Renderer::collect`] that returns the frame.
    pub fn report_frame_time(&mut self, frame: u64, ms: f64) {
        self.reported_times.push_back((frame, ms));
        while self.reported_times.len() > 4 * crate::tunables::READBACK_RING {
            self.reported_times.pop_front();
        }
    }

    /// Whether view `index`'s adaptive frame has finished its search (`AutoDetail::settled`):
    /// what it runs from now on is what it chose, not a probe or its start. True for a view
    /// whose detail leaves nothing to auto; false for a view not drawn yet.
    pub fn adaptive_settled(&self, index: usize, detail: &Detail) -> bool {
        !detail.any_auto() || self.views.get(index).is_some_and(|v| v.auto.settled())
    }

    /// What the adaptive frame runs for view `index` now (outside its probes), and why; `None`
    /// for a view not drawn yet.
    pub fn auto_choice(&self, index: usize) -> Option<(Choice, Reason)> {
        self.views.get(index).map(|v| (v.auto.current(), v.auto.reason))
    }
}

fn median(values: &[f64]) -> f64 {
    if values.is_empty() {
        return f64::INFINITY;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[sorted.len() / 2]
}

#[cfg(test)]
mod tests;
