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
    let groups =
        summarize_capture(path).with_context(|| format!("{} is not a readable .puffin capture", path.display()))?;
    if groups.is_empty() {
        anyhow::bail!(
            "{} holds no frames to summarize: capture some with `bench --puffin FILE` or `view --puffin FILE`",
            path.display()
        );
    }
    Ok(groups)
}

/// What went wrong reading a capture, in words: puffin says "failed to fill whole buffer" for a
/// file that ends early.
fn describe_read_error(error: anyhow::Error) -> anyhow::Error {
    match error.downcast_ref::<std::io::Error>() {
        Some(io) if io.kind() == std::io::ErrorKind::UnexpectedEof => {
            anyhow::anyhow!("the file ends in the middle of a frame (truncated?)")
        }
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

/// Every scope of one frame, depth first.
fn frame_scopes(frame: &puffin::FrameData, scopes: &puffin::ScopeCollection) -> anyhow::Result<Vec<Scope>> {
    let unpacked = frame.unpacked().map_err(describe_read_error)?;
    let mut out = Vec::new();
    for (thread, stream_info) in &unpacked.thread_streams {
        let mut stack = vec![(thread.name.clone(), true, puffin::Reader::from_start(&stream_info.stream))];
        while let Some((prefix, top, mut reader)) = stack.pop() {
            for scope in reader.by_ref() {
                let scope = scope.map_err(corrupt)?;
                let name = scopes.fetch_by_id(&scope.id).map_or("?".into(), |d| d.name().to_string());
                let path = format!("{prefix} / {name}");
                if scope.child_begin_position < scope.child_end_position {
                    let children = puffin::Reader::with_offset(&stream_info.stream, scope.child_begin_position)
                        .map_err(corrupt)?;
                    stack.push((path.clone(), false, children));
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

fn summarize_capture(path: &std::path::Path) -> anyhow::Result<Vec<Group>> {
    // Looked at before opening: opening a FIFO would wait for a writer.
    if !std::fs::metadata(path).context("cannot open it")?.is_file() {
        anyhow::bail!("it is not a regular file");
    }
    let file = std::fs::File::open(path).context("cannot open it")?;
    let view = puffin::FrameView::read(&mut std::io::BufReader::new(file)).map_err(describe_read_error)?;
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
