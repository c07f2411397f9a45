//! Summary of a `.puffin` capture without a GUI: for every scope path (names joined by " / "),
//! how many times it ran and its median and total duration. Used to find where a frame's time
//! goes on machines without a display.

use std::collections::BTreeMap;

use anyhow::Context;

/// (path, count, median ms, total ms), sorted by total time, largest first. Every error names
/// the file.
pub fn summarize(path: &std::path::Path) -> anyhow::Result<Vec<(String, usize, f64, f64)>> {
    summarize_capture(path).with_context(|| format!("{} is not a readable .puffin capture", path.display()))
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

fn summarize_capture(path: &std::path::Path) -> anyhow::Result<Vec<(String, usize, f64, f64)>> {
    // Looked at before opening: opening a FIFO would wait for a writer.
    if !std::fs::metadata(path).context("cannot open it")?.is_file() {
        anyhow::bail!("it is not a regular file");
    }
    let file = std::fs::File::open(path).context("cannot open it")?;
    let view = puffin::FrameView::read(&mut std::io::BufReader::new(file)).map_err(describe_read_error)?;
    let scopes = view.scope_collection();
    let mut durations: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for frame in view.all_uniq() {
        let unpacked = frame.unpacked().map_err(describe_read_error)?;
        for (thread, stream_info) in &unpacked.thread_streams {
            let mut stack = vec![(thread.name.clone(), puffin::Reader::from_start(&stream_info.stream))];
            while let Some((prefix, mut reader)) = stack.pop() {
                for scope in reader.by_ref() {
                    let scope = scope.map_err(|e| anyhow::anyhow!("corrupt stream: {e:?}"))?;
                    let name = scopes.fetch_by_id(&scope.id).map_or("?".into(), |d| d.name().to_string());
                    let path = format!("{prefix} / {name}");
                    durations.entry(path.clone()).or_default().push(scope.record.duration_ns as f64 / 1e6);
                    if scope.child_begin_position < scope.child_end_position {
                        stack.push((
                            path,
                            puffin::Reader::with_offset(&stream_info.stream, scope.child_begin_position)
                                .map_err(|e| anyhow::anyhow!("corrupt stream: {e:?}"))?,
                        ));
                    }
                }
            }
        }
    }
    let mut rows: Vec<(String, usize, f64, f64)> = durations
        .into_iter()
        .map(|(path, mut values)| {
            values.sort_by(f64::total_cmp);
            let total = values.iter().sum();
            (path, values.len(), values[values.len() / 2], total)
        })
        .collect();
    rows.sort_by(|a, b| b.3.total_cmp(&a.3));
    Ok(rows)
}
