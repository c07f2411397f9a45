//! Summary of a `.puffin` capture without a GUI, grouped by mode and object count: per group,
//! the CPU frame time (the `frame` scope) and the GPU frame time (every GPU queue scope of the
//! frame) side by side, then every scope path (names joined by " / ") with its count, median
//! and total duration. Used to find where a frame's time goes on machines without a display.
//!
//! A puffin frame belongs to the group its `frame` scope's tag names; a GPU scope to the group
//! its own tag names (in the viewer it arrives in a later puffin frame). Frames without a
//! tagged `frame` scope (start-up, captures from before tags) form the group "untagged".

use std::collections::BTreeMap;

use anyhow::Context;
use serde::Serialize;

use super::{FRAME_SCOPE, GPU_LANE};
use crate::frame::FrameTag;

/// One scope path of a group.
#[derive(Clone, Debug, Serialize)]
pub struct ScopeRow {
    pub path: String,
    pub count: usize,
    pub median_ms: f64,
    pub total_ms: f64,
}

/// Median and 95th percentile.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Times {
    pub median_ms: f64,
    pub p95_ms: f64,
}

impl Times {
    fn of(values: &mut [f64]) -> Option<Self> {
        if values.is_empty() {
            return None;
        }
        values.sort_by(f64::total_cmp);
        let at = |q: f64| values[((values.len() - 1) as f64 * q).round() as usize];
        Some(Self { median_ms: at(0.5), p95_ms: at(0.95) })
    }
}

/// The frames of one mode at one object count.
#[derive(Clone, Debug, Serialize)]
pub struct Group {
    /// `None` for the untagged group.
    pub mode: Option<String>,
    pub objects: Option<u32>,
    /// Puffin frames with this group's `frame` scope.
    pub frames: usize,
    /// The `frame` scope's duration.
    pub cpu_frame: Option<Times>,
    /// Per frame, the sum of its GPU queue scopes (frames whose passes were read back).
    pub gpu_frame: Option<Times>,
    /// Sorted by total time, largest first.
    pub scopes: Vec<ScopeRow>,
}

impl Group {
    pub fn title(&self) -> String {
        match (&self.mode, self.objects) {
            (Some(mode), Some(objects)) => format!("{mode} · {} objects", crate::text::count(objects as u64)),
            _ => "untagged (start-up, or no frame scope)".into(),
        }
    }
}

/// The summary of `path`, groups in the order of their first frame. Every error names the file.
pub fn summarize(path: &std::path::Path) -> anyhow::Result<Vec<Group>> {
    let groups = without_panics(|| summarize_capture(path))
        .with_context(|| format!("{} is not a readable .puffin capture", path.display()))?;
    if groups.is_empty() {
        anyhow::bail!(
            "{} holds no frames to summarize: capture some with `bench --puffin FILE` or `view --puffin FILE`",
            path.display()
        );
    }
    Ok(groups)
}

/// Runs `read`, turning a panic inside puffin (it asserts on some crafted frames, e.g. a
/// scope description without an id) into an error, with the default panic message kept off
/// the terminal while it runs.
fn without_panics<T>(read: impl FnOnce() -> anyhow::Result<T>) -> anyhow::Result<T> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(read));
    std::panic::set_hook(hook);
    result.unwrap_or_else(|payload| {
        let reason = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "an internal check failed".into());
        Err(anyhow::anyhow!("corrupt stream: puffin could not read it ({})", crate::text::display_name(&reason)))
    })
}

/// What went wrong reading a capture, in words: puffin says "failed to fill whole buffer" for a
/// file that ends early.
fn describe_read_error(error: anyhow::Error) -> anyhow::Error {
    match error.downcast_ref::<std::io::Error>() {
        Some(io) if io.kind() == std::io::ErrorKind::UnexpectedEof => {
            anyhow::anyhow!("the file ends in the middle of a frame (truncated?)")
        }
        // puffin's words name a build feature; say what it means for the file.
        _ if format!("{error:#}").contains("zstd") => anyhow::anyhow!(
            "its frames are compressed with zstd, which this build does not read: capture it again with this \
             multidraw (`bench --puffin FILE`), which writes lz4"
        ),
        _ => error,
    }
}

/// One scope as read: its path (thread first), duration and data.
struct Scope {
    path: String,
    top_level_name: Option<String>,
    thread: String,
    ms: f64,
    data: String,
}

fn corrupt(error: puffin::Error) -> anyhow::Error {
    anyhow::anyhow!("corrupt stream: {error:?}")
}

/// Most levels of nesting read: deeper, a path would be longer than any capture of this
/// engine makes (and paths of every level cost the square of the depth in memory).
const MAX_DEPTH: usize = 256;

/// Every scope of one frame, depth first. A crafted stream is held to what a written one is:
/// every child lies within its parent's range (puffin's reader would read on past it, into
/// the parent's siblings, visiting scopes again and again), nesting at most `MAX_DEPTH` deep,
/// durations non-negative; names reach the summary escaped.
fn frame_scopes(frame: &puffin::FrameData, scopes: &puffin::ScopeCollection) -> anyhow::Result<Vec<Scope>> {
    let unpacked = frame.unpacked().map_err(describe_read_error)?;
    let mut out = Vec::new();
    for (thread, stream_info) in &unpacked.thread_streams {
        let thread_name = crate::text::display_name(&thread.name);
        let end = stream_info.stream.len() as u64;
        // (path, top level, reader, end of the range its scopes must lie in, depth)
        let mut stack = vec![(thread_name.clone(), true, puffin::Reader::from_start(&stream_info.stream), end, 0)];
        while let Some((prefix, top, mut reader, limit, depth)) = stack.pop() {
            for scope in reader.by_ref() {
                let scope = scope.map_err(corrupt)?;
                if scope.next_sibling_position > limit {
                    anyhow::bail!("corrupt stream: a scope runs past the end of its parent");
                }
                if scope.record.duration_ns < 0 {
                    anyhow::bail!("corrupt stream: a scope's duration is negative (its times wrapped)");
                }
                let name = scopes.fetch_by_id(&scope.id).map_or("?".into(), |d| crate::text::display_name(d.name()));
                let path = format!("{prefix} / {name}");
                if scope.child_begin_position < scope.child_end_position {
                    if depth + 1 >= MAX_DEPTH {
                        anyhow::bail!("corrupt stream: scopes nest more than {MAX_DEPTH} deep");
                    }
                    let children = puffin::Reader::with_offset(&stream_info.stream, scope.child_begin_position)
                        .map_err(corrupt)?;
                    stack.push((path.clone(), false, children, scope.child_end_position, depth + 1));
                }
                out.push(Scope {
                    path,
                    top_level_name: top.then_some(name),
                    thread: thread.name.clone(),
                    ms: scope.record.duration_ns as f64 / 1e6,
                    data: scope.record.data.to_string(),
                });
            }
        }
    }
    Ok(out)
}

#[derive(Default)]
struct Accumulator {
    frames: usize,
    cpu_frame: Vec<f64>,
    gpu_by_frame: BTreeMap<u64, f64>,
    durations: BTreeMap<String, Vec<f64>>,
}

/// (mode, objects), `None` for untagged frames.
type Key = Option<(String, u32)>;

/// Accumulators by group, and the order groups were first seen in.
#[derive(Default)]
struct Groups {
    order: Vec<Key>,
    by_key: BTreeMap<Key, Accumulator>,
}

impl Groups {
    fn get(&mut self, key: Key) -> &mut Accumulator {
        if !self.order.contains(&key) {
            self.order.push(key.clone());
        }
        self.by_key.entry(key).or_default()
    }
}

/// Walks the frames of a capture (`PUF0`, then per frame a `PFD2`/`PFD3`/`PFD4` header and
/// its length-prefixed sections) and decodes each `PFD4` frame's scope descriptions from the
/// bytes they occupy. puffin decodes them from a reader, which allocates whatever a string's
/// length prefix says before finding the bytes missing: a crafted 100-byte capture asks for
/// exabytes and aborts the process. Decoded from a slice, a length past the section's end is
/// an error. Anything this walk does not recognise is left to puffin, which says what is wrong.
fn check_scope_descriptions(bytes: &[u8]) -> anyhow::Result<()> {
    use bincode::Options as _;
    let u32_at = |at: usize| bytes.get(at..at + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize);
    let mut at = 4;
    let mut frame = 0;
    while let Some(header) = bytes.get(at..at + 4) {
        let compression = match header {
            b"PFD2" => 0,
            b"PFD3" | b"PFD4" => 1,
            _ => return Ok(()),
        };
        at += 4;
        let Some(meta) = u32_at(at) else { return Ok(()) };
        at += 4 + meta;
        let Some(streams) = u32_at(at) else { return Ok(()) };
        at += 4 + compression + streams;
        if header == b"PFD4" {
            let Some(length) = u32_at(at) else { return Ok(()) };
            at += 4;
            let Some(section) = bytes.get(at..at + length) else { return Ok(()) };
            bincode::options().deserialize::<Vec<puffin::ScopeDetails>>(section).map_err(|e| {
                anyhow::anyhow!("corrupt stream: frame {frame}'s scope descriptions do not decode ({e})")
            })?;
            at += length;
        }
        frame += 1;
    }
    Ok(())
}

fn summarize_capture(path: &std::path::Path) -> anyhow::Result<Vec<Group>> {
    // Looked at before opening: opening a FIFO would wait for a writer.
    if !std::fs::metadata(path).context("cannot open it")?.is_file() {
        anyhow::bail!("it is not a regular file");
    }
    let bytes = std::fs::read(path).context("cannot open it")?;
    check_scope_descriptions(&bytes)?;
    let view = puffin::FrameView::read(&mut bytes.as_slice()).map_err(describe_read_error)?;
    let collection = view.scope_collection();
    let mut groups = Groups::default();
    for frame in view.all_uniq() {
        let scopes = frame_scopes(frame, collection)?;
        let frame_scope =
            scopes.iter().find(|s| s.top_level_name.as_deref() == Some(FRAME_SCOPE) && s.thread != GPU_LANE);
        let key = frame_scope.and_then(|s| FrameTag::parse(&s.data)).map(|t| (t.mode, t.objects));
        let accumulator = groups.get(key.clone());
        accumulator.frames += frame_scope.is_some() as usize;
        accumulator.cpu_frame.extend(frame_scope.map(|s| s.ms));
        for scope in scopes {
            if scope.thread == GPU_LANE {
                let tag = FrameTag::parse(&scope.data);
                let gpu_key = tag.as_ref().map(|t| (t.mode.clone(), t.objects));
                let accumulator = groups.get(gpu_key);
                if let Some(tag) = tag {
                    *accumulator.gpu_by_frame.entry(tag.frame).or_default() += scope.ms;
                }
                accumulator.durations.entry(scope.path).or_default().push(scope.ms);
            } else {
                groups.get(key.clone()).durations.entry(scope.path).or_default().push(scope.ms);
            }
        }
    }
    let Groups { order, mut by_key } = groups;
    Ok(order
        .into_iter()
        .map(|key| {
            let mut accumulator = by_key.remove(&key).expect("every ordered key has a group");
            let mut scopes: Vec<ScopeRow> = accumulator
                .durations
                .into_iter()
                .map(|(path, mut values)| {
                    values.sort_by(f64::total_cmp);
                    ScopeRow {
                        path,
                        count: values.len(),
                        median_ms: values[values.len() / 2],
                        total_ms: values.iter().sum(),
                    }
                })
                .collect();
            scopes.sort_by(|a, b| b.total_ms.total_cmp(&a.total_ms));
            let mut gpu: Vec<f64> = accumulator.gpu_by_frame.into_values().collect();
            let (mode, objects) = key.map_or((None, None), |(mode, objects)| (Some(mode), Some(objects)));
            Group {
                mode,
                objects,
                frames: accumulator.frames,
                cpu_frame: Times::of(&mut accumulator.cpu_frame),
                gpu_frame: Times::of(&mut gpu),
                scopes,
            }
        })
        .collect())
}

/// The summary as text: per group a heading with CPU and GPU frame times, then `rows` scopes.
pub fn table(groups: &[Group], rows: usize) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let times = |t: &Option<Times>| t.map_or("-".into(), |t| format!("{:.3} ms (p95 {:.3})", t.median_ms, t.p95_ms));
    for group in groups {
        let _ = writeln!(out, "{}: {} frames", group.title(), group.frames);
        let _ = writeln!(out, "  per frame, median: CPU {}   GPU {}", times(&group.cpu_frame), times(&group.gpu_frame));
        let _ = writeln!(out, "  {:>8} {:>12} {:>12}  scope", "count", "median ms", "total ms");
        for row in group.scopes.iter().take(rows) {
            let _ = writeln!(out, "  {:>8} {:>12.4} {:>12.3}  {}", row.count, row.median_ms, row.total_ms, row.path);
        }
        out.push('\n');
    }
    out
}
