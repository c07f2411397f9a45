//! puffin integration: GPU pass times (from timestamp queries) drawn on a "GPU queue" lane where
//! and when the GPU ran them, captures that `puffin_viewer` opens, and a live TCP stream.
//!
//! **Placement.** Each pass keeps its absolute begin and end ticks; a [`clock::GpuClock`],
//! calibrated at start-up and every few seconds, turns them into `puffin::now_ns()` time. So
//! the lane shows idle gaps, waits and CPU/GPU overlap as they happened, not passes laid back to
//! back from a guessed start.
//!
//! **Late readbacks.** Pass times arrive a frame or more after their frame was submitted, when
//! puffin has already closed that frame and cannot take scopes for it. They go onto the
//! "GPU queue" lane of the frame being recorded when they arrive, at their true times, each
//! scope's data naming the frame that submitted it ([`crate::frame::FrameTag`]: frame number,
//! mode, object count). The lane's declared range is clamped to the part of the current frame
//! that has already happened (its start to now), so a late readback never stretches the
//! current frame back into an older one nor forward past now: frame times and "slowest frames"
//! stay the CPU's. A scope lying before its frame is drawn where it ran; select a few frames in
//! the viewer to see it under the CPU frame it overlapped. The benchmark waits for every frame,
//! so there each frame's passes land in the frame itself.
//!
//! **Frames.** Callers wrap everything a frame does in one [`FRAME_SCOPE`] scope whose data is
//! the frame's tag, and call `new_frame` outside it.

pub mod clock;
pub mod summary;

use std::collections::HashMap;
use std::collections::VecDeque;
use std::sync::{Mutex, OnceLock};

use crate::frame::FrameTag;
use crate::gpu::timer::GpuPassTimes;
use crate::gpu::GpuContext;
use clock::{Calibrator, GpuClock};

/// The name of the scope that spans one whole CPU frame, in the viewer, the benchmark and the
/// soak test.
pub const FRAME_SCOPE: &str = "frame";
/// The puffin thread name of the GPU lane.
pub const GPU_LANE: &str = "GPU queue";
/// `--puffin-http`'s address when none is given.
#[cfg(feature = "puffin-http")]
pub const DEFAULT_HTTP_ADDRESS: &str = "127.0.0.1:8585";

/// The puffin scope of GPU pass `name`, registered on first use.
fn scope_id(name: &'static str) -> puffin::ScopeId {
    static IDS: OnceLock<Mutex<HashMap<&'static str, puffin::ScopeId>>> = OnceLock::new();
    let mut ids = IDS.get_or_init(Default::default).lock().expect("GPU scope ids");
    *ids.entry(name).or_insert_with(|| {
        puffin::GlobalProfiler::lock().register_user_scopes(&[puffin::ScopeDetails::from_scope_name(name)])[0]
    })
}

/// The "GPU queue" lane: the calibrated clock and the tags of frames in flight.
pub struct GpuLane {
    /// `None` without timestamp queries (the lane stays empty), or for a lane that is off.
    calibrator: Option<Calibrator>,
    clock: Option<GpuClock>,
    /// Tags of submitted frames whose pass times have not arrived, oldest first.
    in_flight: VecDeque<FrameTag>,
}

/// Frames whose readback is given up on (the readback ring is never this deep).
const MAX_IN_FLIGHT: usize = 16;

impl GpuLane {
    /// Calibrates the GPU clock (waits for the queue to be idle).
    pub fn new(ctx: &GpuContext) -> Self {
        let calibrator = Calibrator::new(ctx);
        let clock = calibrator.as_ref().map(|c| c.calibrate(ctx));
        Self { calibrator, clock, in_flight: VecDeque::new() }
    }

    /// A lane that reports nothing and never waits (profiling off).
    pub fn off() -> Self {
        Self { calibrator: None, clock: None, in_flight: VecDeque::new() }
    }

    /// The note to print when the lane will stay empty.
    pub fn note(&self) -> Option<&'static str> {
        self.clock.is_none().then_some("no timestamp queries on this adapter: the puffin GPU queue lane stays empty")
    }

    /// How far off the calibrated clock may be (half the CPU interval the calibration tick
    /// was known to lie in), in ms; `None` without timestamps.
    pub fn uncertainty_ms(&self) -> Option<f64> {
        self.clock.map(|c| c.uncertainty_ns as f64 / 1e6)
    }

    /// Recalibrates when the last calibration is older than [`GpuClock::RECALIBRATE_AFTER`].
    /// Waits for the queue to be idle: call at the start of a frame.
    pub fn recalibrate_if_stale(&mut self, ctx: &GpuContext) {
        if let (Some(calibrator), true) = (&self.calibrator, self.clock.is_some_and(|c| c.stale())) {
            puffin::profile_scope!("calibrate gpu clock");
            self.clock = Some(calibrator.calibrate(ctx));
        }
    }

    /// Recalibrates now (between benchmark rows, where waiting costs nothing measured).
    pub fn recalibrate(&mut self, ctx: &GpuContext) {
        if let Some(calibrator) = &self.calibrator {
            self.clock = Some(calibrator.calibrate(ctx));
        }
    }

    /// Remembers the tag of a frame just submitted.
    pub fn submitted(&mut self, tag: FrameTag) {
        if self.in_flight.len() >= MAX_IN_FLIGHT {
            self.in_flight.pop_front();
        }
        self.in_flight.push_back(tag);
    }

    /// Reports the passes of frame `frame` on the GPU lane of the current puffin frame, at their
    /// calibrated times, with the lane's range clamped to `[frame_start_ns, now]` (see the
    /// module documentation). Does nothing while puffin is off or without a clock.
    pub fn report(&mut self, frame: u64, times: &GpuPassTimes, frame_start_ns: puffin::NanoSecond) {
        let Some(position) = self.in_flight.iter().position(|t| t.frame == frame) else { return };
        let tag = self.in_flight.remove(position).expect("position found above");
        // Older frames never get theirs (a readback the ring gave up on).
        self.in_flight.retain(|t| t.frame > frame);
        let (Some(clock), true) = (self.clock, puffin::are_scopes_on()) else { return };
        let data = tag.to_string();
        let spans: Vec<(&'static str, i64, i64)> = times
            .spans()
            .filter(|&(_, begin, end)| end >= begin && begin > 0)
            .map(|(name, begin, end)| (name, clock.to_cpu_ns(begin), clock.to_cpu_ns(end)))
            .collect();
        let Some(info) = lane_stream(&spans, &data, frame_start_ns, puffin::now_ns()) else { return };
        puffin::GlobalProfiler::lock().report_user_scopes(
            puffin::ThreadInfo { start_time_ns: None, name: GPU_LANE.into() },
            &info.as_stream_into_ref(),
        );
    }
}

/// The lane's stream for `spans` (pass name, start ns, end ns), each scope carrying `data`,
/// with its range clamped to `[floor_ns, now_ns]`; `None` for no spans.
pub fn lane_stream(
    spans: &[(&'static str, i64, i64)],
    data: &str,
    floor_ns: i64,
    now_ns: i64,
) -> Option<puffin::StreamInfo> {
    let mut info = puffin::StreamInfo::default();
    let (mut first, mut last) = (i64::MAX, i64::MIN);
    for &(name, start, end) in spans {
        let (offset, _) = info.stream.begin_scope(|| start, scope_id(name), data);
        info.stream.end_scope(offset, end);
        info.num_scopes += 1;
        info.depth = 1;
        first = first.min(start);
        last = last.max(end);
    }
    if info.num_scopes == 0 {
        return None;
    }
    let clamp = |t: i64| t.clamp(floor_ns, now_ns.max(floor_ns));
    info.range_ns = (clamp(first), clamp(last));
    Some(info)
}

/// Records every puffin frame from creation on, to save as a `.puffin` file.
pub struct Capture {
    view: puffin::GlobalFrameView,
}

impl Capture {
    /// Turns puffin scopes on and starts keeping frames (up to `max_frames`).
    pub fn start(max_frames: usize) -> Self {
        puffin::set_scopes_on(true);
        let view = puffin::GlobalFrameView::default();
        view.lock().set_max_recent(max_frames);
        Self { view }
    }

    /// Writes the frames captured so far, atomically ([`crate::output`]); `puffin_viewer FILE`
    /// opens it.
    pub fn save(&self, path: &std::path::Path) -> Result<usize, crate::output::OutputError> {
        puffin::GlobalProfiler::lock().new_frame();
        let view = self.view.lock();
        let frames = view.recent_frames().count();
        crate::output::write_with(path, crate::output::Format::Any, |writer| {
            // puffin reports a failed write as an `anyhow` wrapping the `io::Error`: unwrap it,
            // so the file system's reason (a full disk) is what the message says.
            view.write(&mut &mut *writer).map_err(|error| match error.downcast::<std::io::Error>() {
                Ok(error) => error,
                Err(other) => std::io::Error::other(format!("{other:#}")),
            })
        })?;
        Ok(frames)
    }
}

/// Serves puffin frames on `address` until dropped (`puffin_viewer --url ADDRESS` shows them
/// live) and turns scopes on. Prints where, so a script or a test knows when to connect.
/// (Feature `puffin-http`.)
#[cfg(feature = "puffin-http")]
pub fn serve(address: &str) -> anyhow::Result<PuffinServer> {
    let cannot = |error: &dyn std::fmt::Display| anyhow::anyhow!("cannot serve puffin frames on {address}: {error:#}");
    // Port 0 asks the system for a free port; the server does not say which it got, so the
    // port is found first (bound, read, released) and the server bound to it, and the address
    // printed is one a viewer can connect to.
    let bound = std::net::TcpListener::bind(address).map_err(|e| cannot(&e))?;
    let address = bound.local_addr().map_err(|e| cannot(&e))?.to_string();
    drop(bound);
    let server = puffin_http::Server::new(&address).map_err(|e| cannot(&e))?;
    puffin::set_scopes_on(true);
    println!("serving puffin frames on {address} (watch live: puffin_viewer --url {address})");
    Ok(PuffinServer { server: Some(server), address })
}

/// A puffin TCP server ([`serve`]) that stops without waiting on a viewer that stopped
/// reading. `puffin_http::Server`'s own drop joins a thread per viewer, and one blocked writing
/// to a viewer that reads no more never returns: the program would not exit. This drop waits
/// [`PuffinServer::SHUTDOWN`] for the frames still queued to go out, then leaves the stalled
/// threads behind (they end with the process) and says so. (Feature `puffin-http`.)
#[cfg(feature = "puffin-http")]
pub struct PuffinServer {
    server: Option<puffin_http::Server>,
    address: String,
}

#[cfg(feature = "puffin-http")]
impl PuffinServer {
    /// How long a drop waits for the server's threads.
    pub const SHUTDOWN: std::time::Duration = std::time::Duration::from_secs(2);

    /// The address served, with the port the system gave.
    pub fn address(&self) -> &str {
        &self.address
    }

    /// Viewers connected now.
    pub fn num_clients(&self) -> usize {
        self.server.as_ref().map_or(0, puffin_http::Server::num_clients)
    }
}

#[cfg(feature = "puffin-http")]
impl Drop for PuffinServer {
    fn drop(&mut self) {
        let Some(server) = self.server.take() else { return };
        let (done, finished) = std::sync::mpsc::channel();
        let spawned = std::thread::Builder::new().name("puffin-server-shutdown".into()).spawn(move || {
            drop(server);
            done.send(()).ok();
        });
        if spawned.is_ok() && finished.recv_timeout(Self::SHUTDOWN).is_err() {
            eprintln!(
                "warning: a puffin viewer connected to {} stopped reading; the server stopped without sending it \
                 the last frames",
                self.address
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lane_never_extends_the_frame() {
        // A late readback: passes that ran before this frame began, and one still "running".
        let spans = [("cull", 100, 200), ("main", 250, 900)];
        let info = lane_stream(&spans, "frame 3 · gpu · 10 objects", 500, 800).expect("two scopes");
        assert_eq!(info.range_ns, (500, 800));
        assert_eq!(info.num_scopes, 2);
        // The scopes themselves keep their true times.
        let scopes = puffin::Reader::from_start(&info.stream).read_top_scopes().expect("valid stream");
        assert_eq!(
            scopes.iter().map(|s| (s.record.start_ns, s.record.stop_ns())).collect::<Vec<_>>(),
            [(100, 200), (250, 900)]
        );
        assert_eq!(scopes[0].record.data, "frame 3 · gpu · 10 objects");
        // Inside the frame: unchanged.
        assert_eq!(lane_stream(&spans, "", 0, 1000).expect("two scopes").range_ns, (100, 900));
        assert!(lane_stream(&[], "", 0, 1000).is_none());
    }
}
