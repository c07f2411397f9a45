//! The adaptive frame's controller against made-up costs and counts.

use super::*;

fn auto() -> Detail {
    Detail { auto_occlusion: true, auto_soft: true, ..Detail::default() }
}

/// Runs `frames` frames whose cost is `cost(choice)`, read back two frames late; returns
/// what the last frame ran.
fn run(controller: &mut AutoDetail, frames: u64, cost: impl Fn(Detail) -> f64) -> Vec<Detail> {
    run_with(controller, auto(), 0..frames, |_| Some(10), cost)
}

/// [`run`] of the frames `frames`, asking for `asked`, the cascades' pyramids hiding
/// `hidden(frame)` casters.
fn run_with(
    controller: &mut AutoDetail,
    asked: Detail,
    frames: std::ops::Range<u64>,
    hidden: impl Fn(u64) -> Option<u32>,
    cost: impl Fn(Detail) -> f64,
) -> Vec<Detail> {
    let mut ran = Vec::new();
    let first = frames.start;
    for frame in frames {
        step(controller, asked, frame, first, &mut ran, &hidden, &cost);
    }
    ran
}

/// Frame `frame` of a run that started at `first`: what it runs joins `ran`, and the frame
/// two before it is read back.
fn step(
    controller: &mut AutoDetail,
    asked: Detail,
    frame: u64,
    first: u64,
    ran: &mut Vec<Detail>,
    hidden: impl Fn(u64) -> Option<u32>,
    cost: impl Fn(Detail) -> f64,
) {
    let detail = controller.apply(asked, frame);
    controller.expire(frame);
    ran.push(detail);
    if frame >= first + 2 {
        let back = ran[(frame - 2 - first) as usize];
        let counters = GpuCounters { soft: 10, occluded: 10, ..GpuCounters::default() };
        controller.observe(frame - 2, Some(&counters), hidden(frame - 2), Some(cost(back)));
    }
}

#[test]
fn a_cheaper_configuration_is_found_and_kept() {
    // Occlusion culling costs 0.3 ms here, the compute rasteriser saves 0.5 ms.
    let cost = |d: Detail| 1.0 + if d.occlusion { 0.3 } else { 0.0 } - if d.soft { 0.5 } else { 0.0 };
    let mut controller = AutoDetail::default();
    let ran = run(&mut controller, 200, cost);
    assert_eq!(controller.current(), Choice { occlusion: false, ..Choice::START });
    assert_eq!(controller.reason, Reason::Cheaper);
    // After the search, probes are the only frames of another configuration.
    let other = ran[100..].iter().filter(|d| d.occlusion || !d.soft).count();
    assert!(other <= 2 * PROBE_FRAMES as usize, "{other} probe frames in 100");
}

/// `settled` says when the search is over: not before anything was judged, not while the
/// search after a change runs, and from the frame after which it runs only what it chose
/// (outside the periodic probes); a view with nothing to flip is settled at once.
#[test]
fn the_search_settles() {
    let cost = |d: Detail| 1.0 + if d.occlusion { 0.3 } else { 0.0 } - if d.soft { 0.5 } else { 0.0 };
    let mut controller = AutoDetail::default();
    assert!(!controller.settled(), "nothing judged yet");
    let (mut ran, mut settled_at) = (Vec::new(), None);
    for frame in 0..PROBE_PERIOD {
        step(&mut controller, auto(), frame, 0, &mut ran, |_| Some(10), cost);
        if controller.settled() {
            settled_at = Some(frame + 1);
            break;
        }
    }
    let settled_at = settled_at.expect("settled within a probe period");
    assert_eq!(controller.current(), Choice { occlusion: false, ..Choice::START }, "settled on the cheaper one");
    // From then until the next periodic probe, every frame runs the choice.
    let ran = run_with(&mut controller, auto(), settled_at..settled_at + PROBE_PERIOD / 2, |_| Some(10), cost);
    assert!(ran.iter().all(|d| !d.occlusion && d.soft), "a settled controller runs its choice");
    // Nothing to flip (both auto switches asked off): settled as soon as it is judged.
    let mut idle = AutoDetail::default();
    let asked = Detail { occlusion: false, soft: false, ..auto() };
    let end = SAMPLES as u64 + SETTLE_FRAMES + 3;
    run_with(&mut idle, asked, 0..end, |_| Some(10), cost);
    assert!(idle.settled());
    // Given a switch to flip, it searches at once again.
    let ran = run_with(&mut idle, auto(), end..end + 20, |_| Some(10), cost);
    assert!(ran.iter().any(|d| !d.occlusion), "a switch given later is probed at once");
}

/// The compute rasteriser of the shadow cascades' small casters is decided apart from the
/// view's: where it costs more than it saves (few small casters, a CPU adapter) it goes off
/// while the view keeps its own, and the other way round.
#[test]
fn the_cascades_compute_rasteriser_is_decided_apart() {
    for (view_saves, cascades_save) in [(0.5, -0.3), (-0.3, 0.5)] {
        let cost = move |d: Detail| {
            1.0 - if d.soft { view_saves } else { 0.0 } - if d.shadow_soft { cascades_save } else { 0.0 }
        };
        let mut controller = AutoDetail::default();
        run(&mut controller, 300, cost);
        let current = controller.current();
        assert_eq!(
            (current.soft, current.shadow_soft),
            (view_saves > 0.0, cascades_save > 0.0),
            "view saves {view_saves} ms, cascades {cascades_save}"
        );
    }
}

/// Deferred shading is probed like the other switches: where forward shading costs less
/// (a small scene, whose shade and composite passes cost more than the fragments they
/// save) it is turned off and stays off; where it saves, it stays on.
#[test]
fn deferred_shading_is_kept_where_it_pays() {
    let asked = Detail { auto_deferred: true, ..auto() };
    for (saving, keeps) in [(-0.2, false), (0.3, true)] {
        let cost = move |d: Detail| 1.0 - if d.deferred { saving } else { 0.0 };
        let mut controller = AutoDetail::default();
        let ran = run_with(&mut controller, asked, 0..300, |_| Some(10), cost);
        assert_eq!(controller.current().deferred, keeps, "saving {saving} ms");
        let other = ran[150..].iter().filter(|d| d.deferred != keeps).count();
        assert!(other <= 2 * PROBE_FRAMES as usize, "saving {saving} ms: {other} probe frames in 150");
    }
}

/// Runs frames `frames` asking for `asked`, frame `f` counting `counters(f)` and costing
/// `cost(f, what it ran)`, read back two frames late; returns what each frame ran.
fn run_frames(
    controller: &mut AutoDetail,
    asked: Detail,
    frames: std::ops::Range<u64>,
    counters: impl Fn(u64) -> GpuCounters,
    cost: impl Fn(u64, Detail) -> f64,
) -> Vec<Detail> {
    let mut ran = Vec::new();
    for frame in frames.clone() {
        ran.push(controller.apply(asked, frame));
        controller.expire(frame);
        if let Some(back) = frame.checked_sub(2).filter(|&back| back >= frames.start) {
            let d = ran[(back - frames.start) as usize];
            controller.observe(back, Some(&counters(back)), None, Some(cost(back, d)));
        }
    }
    ran
}

fn busy(_frame: u64) -> GpuCounters {
    GpuCounters { soft: 10, occluded: 10, ..GpuCounters::default() }
}

/// One frame in seven costs three times as much (other work on the GPU, a hiccup of the
/// driver): a probe is judged by the median of its samples, which a spike does not move,
/// so the cheaper configuration is found, whichever frames the spikes hit, and kept.
#[test]
fn a_spike_does_not_decide_a_probe() {
    let asked = Detail { auto_deferred: true, ..auto() };
    for phase in 0..7u64 {
        let mut controller = AutoDetail::default();
        let cost = |frame: u64, d: Detail| {
            let spike = if (frame + phase).is_multiple_of(7) { 3.0 } else { 1.0 };
            spike * (1.0 + if d.soft { 0.25 } else { 0.0 })
        };
        let ran = run_frames(&mut controller, asked, 0..300, busy, cost);
        let current = controller.current();
        assert!(!current.soft, "spikes at frames {phase} mod 7: {current:?}");
        let other = ran[150..].iter().filter(|d| d.soft).count();
        assert!(other <= 2 * PROBE_FRAMES as usize, "spikes at frames {phase} mod 7: {other} probe frames in 150");
    }
}

/// Deferred shading costs more while the compute rasteriser runs and saves once it is off
/// (a small scene: the composite resolves the rasteriser's pixels). The first search turns
/// deferred shading off; at frame 60 the small objects are gone, the rasteriser is turned
/// off for drawing nothing, and the search that follows that change turns deferred shading
/// back on, well before the periodic probe of its kind would come round.
#[test]
fn a_change_is_followed_by_a_new_search() {
    let asked = Detail { auto_deferred: true, ..auto() };
    let counters = |frame: u64| GpuCounters { soft: if frame < 60 { 10 } else { 0 }, ..busy(frame) };
    let cost = |frame: u64, d: Detail| {
        // While there are small objects, drawing them without the rasteriser costs 0.3 ms.
        let small = if frame < 60 && !d.soft { 0.3 } else { 0.0 };
        1.0 + small
            + if d.deferred {
                if d.soft {
                    0.1
                } else {
                    -0.1
                }
            } else {
                0.0
            }
    };
    let mut controller = AutoDetail::default();
    run_frames(&mut controller, asked, 0..60, counters, cost);
    let first = controller.current();
    assert!(first.soft && !first.deferred, "after 60 frames with small objects: {first:?}");
    run_frames(&mut controller, asked, 60..120, counters, cost);
    let current = controller.current();
    assert!(!current.soft && current.deferred, "{current:?} after 60 frames without small objects");
}

#[test]
fn equal_costs_change_nothing() {
    let mut controller = AutoDetail::default();
    run(&mut controller, 200, |_| 1.0);
    assert_eq!(controller.current(), Choice::START);
}

#[test]
fn explicit_switches_are_left_alone() {
    let mut controller = AutoDetail::default();
    for frame in 0..100 {
        let detail = controller.apply(Detail::default(), frame);
        assert_eq!((detail.occlusion, detail.soft), (true, true));
        controller.observe(frame, None, None, Some(if frame % 2 == 0 { 1.0 } else { 9.0 }));
    }
}

#[test]
fn idle_switches_turn_off_without_a_probe() {
    let mut controller = AutoDetail::default();
    for frame in 0..20 {
        controller.apply(auto(), frame);
        let counters = GpuCounters { soft: 0, occluded: 0, ..GpuCounters::default() };
        controller.observe(frame, Some(&counters), None, None);
    }
    assert_eq!(controller.current(), Choice { occlusion: false, soft: false, ..Choice::START });
}

/// The cascades start in one phase; where their second phase saves time (casters that
/// hide many others) a probe turns it on, where it costs (a CPU driver building four large
/// pyramids) it stays off; the view's switches are left as they are.
#[test]
fn cascade_occlusion_is_turned_on_where_it_pays() {
    // (what two phases add to a frame's cost, where the controller ends)
    for (extra, end) in [(-0.4, Choice::ALL_ON), (0.4, Choice::START)] {
        let mut controller = AutoDetail::default();
        let cost = |d: Detail| 1.0 + if d.shadow_occlusion { extra } else { 0.0 };
        let ran = run_with(&mut controller, Detail::auto(), 0..200, |_| Some(10), cost);
        assert_eq!(controller.current(), end, "two phases adding {extra} ms");
        let reasons: &[Reason] = if end == Choice::START { &[Reason::Start, Reason::Kept] } else { &[Reason::Cheaper] };
        assert!(reasons.contains(&controller.reason), "{:?}", controller.reason);
        let other = ran[150..].iter().filter(|d| d.shadow_occlusion != end.shadow_occlusion).count();
        assert!(other <= 2 * PROBE_FRAMES as usize, "{other} probe frames in 50");
    }
}

/// On, and then its pyramids hide nothing for a while: back to one phase without a probe.
#[test]
fn cascades_that_hide_nothing_stop_culling_in_two_phases() {
    let mut controller = AutoDetail::default();
    let cost = |d: Detail| 1.0 - if d.shadow_occlusion { 0.4 } else { 0.0 };
    run_with(&mut controller, Detail::auto(), 0..100, |_| Some(10), cost);
    assert_eq!(controller.current(), Choice::ALL_ON);
    run_with(&mut controller, Detail::auto(), 100..120, |_| Some(0), cost);
    assert_eq!(controller.current(), Choice::START);
    assert_eq!(controller.reason, Reason::NoHiddenCasters);
}

#[test]
fn a_cpu_adapter_starts_with_the_compute_rasteriser_in_a_large_scene() {
    use wgpu::DeviceType::{Cpu, DiscreteGpu, IntegratedGpu};
    assert_eq!(Choice::start_for(Cpu, 0), Choice::CPU_START);
    assert_eq!(Choice::start_for(Cpu, CPU_SOFT_START_RECORDS - 1), Choice::CPU_START);
    let large = Choice::start_for(Cpu, CPU_SOFT_START_RECORDS);
    assert_eq!(large, Choice { soft: true, shadow_soft: true, ..Choice::CPU_START });
    assert!(!large.deferred, "deferred shading still starts off on a CPU adapter");
    for gpu in [DiscreteGpu, IntegratedGpu] {
        assert_eq!(Choice::start_for(gpu, 0), Choice::START);
        assert_eq!(Choice::start_for(gpu, 10 * CPU_SOFT_START_RECORDS), Choice::START);
    }
}

/// A CPU adapter's controller runs its start until the first `PROBE_PERIOD`, then probes as
/// any does and still finds a cheaper configuration; a GPU's searches from its first frames.
#[test]
fn a_cpu_adapters_search_waits_for_its_first_period() {
    use wgpu::DeviceType::{Cpu, DiscreteGpu};
    const { assert!(!Choice::CPU_START.occlusion, "one culling phase to start on a CPU adapter") };
    // Two phases cost 0.3 ms less here.
    let cost = |d: Detail| 1.0 - if d.occlusion { 0.3 } else { 0.0 };
    let mut cpu = AutoDetail::for_adapter(Cpu, 0);
    let ran = run(&mut cpu, 3 * PROBE_PERIOD, cost);
    let start = Choice::CPU_START;
    assert!(
        ran[..PROBE_PERIOD as usize].iter().all(|d| d.occlusion == start.occlusion && d.soft == start.soft),
        "no probe before frame {PROBE_PERIOD}"
    );
    assert!(cpu.current().occlusion && cpu.reason == Reason::Cheaper, "then a probe finds two phases cheaper");
    let mut gpu = AutoDetail::for_adapter(DiscreteGpu, 0);
    let ran = run(&mut gpu, PROBE_PERIOD, |d: Detail| 1.0 + if d.occlusion { 0.3 } else { 0.0 });
    assert!(ran.iter().any(|d| !d.occlusion), "a GPU's search probes within its first period");
}
