//! puffin integration: GPU pass times (from timestamp queries) reported as scopes of their own
//! "GPU" thread, and saving a capture that `puffin_viewer` opens.
//!
//! GPU timestamps have their own clock, so the passes are placed on the CPU timeline starting at
//! the frame's submit time, one after the other in the order the GPU runs them, each as long as
//! its timestamps say.

pub mod summary;

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use crate::gpu::timer::GpuPassTimes;

/// The puffin scope of GPU pass `name`, registered on first use.
fn scope_id(name: &'static str) -> puffin::ScopeId {
    static IDS: OnceLock<Mutex<HashMap<&'static str, puffin::ScopeId>>> = OnceLock::new();
    let mut ids = IDS.get_or_init(Default::default).lock().expect("GPU scope ids");
    *ids.entry(name).or_insert_with(|| {
        puffin::GlobalProfiler::lock().register_user_scopes(&[puffin::ScopeDetails::from_scope_name(name)])[0]
    })
}

/// Reports one frame's GPU pass times to puffin's current frame, starting at `start_ns`
/// (`puffin::now_ns()` taken when the frame was submitted). Does nothing while puffin is off.
/// Must not be called while a puffin scope is open on this thread's outermost level.
pub fn report_gpu_passes(start_ns: puffin::NanoSecond, times: &GpuPassTimes) {
    if !puffin::are_scopes_on() {
        return;
    }
    let mut info = puffin::StreamInfo::default();
    let mut now = start_ns;
    for &(name, ms) in times.iter() {
        let end = now + (ms * 1e6) as i64;
        let (offset, _) = info.stream.begin_scope(|| now, scope_id(name), "");
        info.stream.end_scope(offset, end);
        info.num_scopes += 1;
        info.depth = 1;
        info.range_ns =
            if info.num_scopes == 1 { (now, end) } else { (info.range_ns.0.min(now), info.range_ns.1.max(end)) };
        now = end;
    }
    if info.num_scopes > 0 {
        puffin::GlobalProfiler::lock().report_user_scopes(
            puffin::ThreadInfo { start_time_ns: None, name: "GPU".into() },
            &info.as_stream_into_ref(),
        );
    }
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
