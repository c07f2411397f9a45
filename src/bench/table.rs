//! The benchmark's text: a table within [`TABLE_WIDTH`] columns (or every figure, `--wide`),
//! then the ratios that answer its questions, each naming the side that wins and the measure it
//! used ([`FrameMeasure`]: the timestamps where they hold, the wall clock where they miss work).

use super::report::{BenchReport, GpuMs, Row, Stat, TIMESTAMP_COVERAGE_MIN};
use super::GpuWait;
use crate::frame::DrawMode;

/// The width the default table and its text fit in, in characters.
pub const TABLE_WIDTH: usize = 160;

/// Breaks each line of `text` longer than `width` at spaces; continuations are indented.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let rest = line.trim_start();
        let mut current = line[..line.len() - rest.len()].to_string();
        let mut fresh = true;
        for word in rest.split(' ') {
            if !fresh && current.chars().count() + 1 + word.chars().count() > width {
                out += &current;
                out += "\n";
                current = "    ".into();
                fresh = true;
            }
            if !fresh {
                current.push(' ');
            }
            current += word;
            fresh = false;
        }
        out += &current;
        out += "\n";
    }
    out
}

/// A time in milliseconds at a precision that fits a narrow column: 0.123, 12.34, 123.4, 1234.
pub fn ms(value: f64) -> String {
    match value.abs() {
        v if v < 10.0 => format!("{value:.3}"),
        v if v < 100.0 => format!("{value:.2}"),
        v if v < 1000.0 => format!("{value:.1}"),
        _ => format!("{value:.0}"),
    }
}

/// One column of the table: a title, a unit line, a width and what a row shows in it.
struct Column {
    title: &'static str,
    unit: &'static str,
    width: usize,
    cell: Box<dyn Fn(&Row) -> String>,
}

impl Column {
    fn new(title: &'static str, unit: &'static str, width: usize, cell: impl Fn(&Row) -> String + 'static) -> Self {
        Self { title, unit, width, cell: Box::new(cell) }
    }
}

/// The table's columns: medians within 160 characters, or (`wide`) every figure.
fn columns(wide: bool) -> Vec<Column> {
    let on = |b: bool| if b { "on" } else { "off" };
    // A GPU pass's median, "-" where the row did not run it, "n/a" without timestamps.
    fn gpu(row: &Row, ran: bool, pass: impl Fn(&GpuMs) -> f64) -> String {
        match (&row.gpu_ms, ran) {
            (_, false) => "-".into(),
            (None, true) => "n/a".into(),
            (Some(g), true) => ms(pass(g)),
        }
    }
    let stat = move |s: &Stat| if wide { s.cell() } else { ms(s.median) };
    let stat_width = if wide { 17 } else { 8 };
    let unit = if wide { "ms med / p95" } else { "ms" };
    let mut columns = vec![
        Column::new("mode", "", 14, |r| r.mode.name().to_string()),
        Column::new("objects", "", 8, |r| r.objects.to_string()),
        Column::new("lod/occ/sr", "", 11, move |r| {
            // Auto: a+ (on in most measured frames) or a- (off).
            let auto = |chosen: bool, auto: bool| match (auto, chosen) {
                (true, true) => "a+",
                (true, false) => "a-",
                (false, _) => on(chosen),
            };
            format!("{}/{}/{}", on(r.lod), auto(r.occlusion, r.occlusion_auto), auto(r.soft_raster, r.soft_auto))
        }),
        Column::new("visible", "", 7, |r| r.visible.to_string()),
        Column::new("drawn 1 + 2", "objects", 16, |r| format!("{} + {}", r.drawn[0], r.drawn[1])),
        Column::new("soft", "objects", 7, |r| r.soft_drawn.to_string()),
    ];
    if wide {
        columns.push(Column::new("occluded", "objects", 8, |r| r.occluded.to_string()));
        columns.push(Column::new("occluders", "objects", 9, |r| r.occluders.to_string()));
    }
    columns.extend([
        Column::new("triangles", "", 9, |r| r.triangles.to_string()),
        Column::new("draws", "", 5, |r| r.draw_commands.to_string()),
        Column::new("record", unit, stat_width, move |r| stat(&r.cpu_record_ms)),
        Column::new("cpu cull", unit, stat_width, move |r| stat(&r.cpu_cull_ms)),
    ]);
    if wide {
        columns.push(Column::new("cpu frame", unit, 17, |r| r.cpu_frame_ms.cell()));
    }
    columns.push(Column::new("gpu cull", "ms", 8, |r| gpu(r, r.mode.gpu_culled(), |g| g.cull)));
    if wide {
        columns.push(Column::new("build", "ms", 7, |r| gpu(r, r.mode.gpu_culled(), |g| g.build)));
    }
    columns.extend([
        Column::new("raster", "ms", 7, |r| {
            gpu(r, r.soft_raster, |g| g.raster.unwrap_or(0.0) + g.raster_late.unwrap_or(0.0))
        }),
        Column::new("main", "ms", 7, |r| gpu(r, true, |g| g.main)),
        Column::new("occl", "ms", 7, |r| gpu(r, r.occlusion, GpuMs::occlusion_passes)),
        Column::new("shadow", "ms", 7, |r| gpu(r, r.shadow_cascades > 0, GpuMs::shadow_passes)),
        Column::new("gpu sum", "ms", 8, |r| gpu(r, true, |g| g.total) + if r.timestamps_short { "!" } else { "" }),
    ]);
    if wide {
        columns.extend([
            Column::new("blend", "ms", 7, |r| {
                let ran = r.gpu_ms.as_ref().is_some_and(|g| g.passes.contains_key(crate::passes::blend::NAME));
                gpu(r, ran, GpuMs::blend_passes)
            }),
            Column::new("df", "", 3, move |r| match (r.deferred_auto, r.deferred) {
                (true, true) => "a+".into(),
                (true, false) => "a-".into(),
                (false, chosen) => on(chosen).into(),
            }),
            Column::new("shade", "ms", 7, |r| {
                let ran = r.gpu_ms.as_ref().is_some_and(|g| g.passes.contains_key(crate::passes::deferred::NAME));
                gpu(r, ran, GpuMs::deferred_passes)
            }),
            Column::new("gpu p95", "ms", 7, |r| r.gpu_total_p95_ms.map_or("n/a".into(), ms)),
            Column::new("wall", unit, 17, |r| r.wall_ms.cell()),
            Column::new("coverage", "% of wait", 9, |r| {
                r.timestamp_coverage.map_or("n/a".into(), |c| format!("{:.0}%", c * 100.0))
            }),
            Column::new("bind sets", "per group", 10, |r| format!("{:?}", r.bind_group_sets)),
            Column::new("casters", "per cascade", 24, |r| {
                let casters: Vec<String> = r.casters.iter().map(u32::to_string).collect();
                if casters.is_empty() {
                    "-".into()
                } else {
                    casters.join("/")
                }
            }),
            // The cascades' occlusion culling, as lod/occ/sr shows the view's.
            Column::new("cast occl", "", 9, move |r| {
                let two_phase = 2 * r.shadow_two_phase_frames > r.frames;
                match (r.shadow_cascades > 0, r.shadow_occlusion_auto, two_phase) {
                    (false, ..) => "-",
                    (true, true, true) => "a+",
                    (true, true, false) => "a-",
                    (true, false, chosen) => on(chosen),
                }
                .to_string()
            }),
            // The cascades' compute rasteriser for small casters, likewise.
            Column::new("cast sr", "", 7, move |r| {
                let soft = 2 * r.shadow_soft_frames > r.frames;
                match (r.shadow_cascades > 0, r.shadow_soft_auto, soft) {
                    (false, ..) => "-",
                    (true, true, true) => "a+",
                    (true, true, false) => "a-",
                    (true, false, chosen) => on(chosen),
                }
                .to_string()
            }),
        ]);
    } else {
        columns.push(Column::new("wall", "ms", 7, |r| ms(r.wall_ms.median)));
    }
    columns
}

/// Which frame time a comparison between rows uses: the one that is true on the adapter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameMeasure {
    /// The sum of the passes' timestamps: the GPU's own time, free of the CPU's and the
    /// queue's latency.
    Timestamps,
    /// The wall-clock frame time, where a row has no timestamps or they miss work.
    WallClock,
}

impl FrameMeasure {
    /// Timestamps where both rows have them and neither is flagged; the wall clock otherwise.
    pub fn for_rows(a: &Row, b: &Row) -> Self {
        let trusted = |r: &Row| r.gpu_ms.is_some() && !r.timestamps_short;
        if trusted(a) && trusted(b) {
            Self::Timestamps
        } else {
            Self::WallClock
        }
    }

    /// The row's median frame time by this measure, in ms.
    pub fn of(self, row: &Row) -> f64 {
        match self {
            Self::Timestamps => row.gpu_ms.as_ref().map_or(0.0, |g| g.total),
            Self::WallClock => row.wall_ms.median,
        }
    }

    /// What the numbers are, for the summary lines comparing `a` and `b`.
    fn describe(self, a: &Row, b: &Row) -> &'static str {
        match self {
            Self::Timestamps => "GPU time from timestamps",
            Self::WallClock if a.gpu_ms.is_none() || b.gpu_ms.is_none() => "wall-clock frame time: no timestamps",
            Self::WallClock => "wall-clock frame time: the timestamps miss work on this adapter",
        }
    }
}

/// "defaults 3.0x faster than full detail": `subject` at `time` ms against `other` at
/// `other_time` ms, the factor always at least 1.
pub fn faster_or_slower(subject: &str, time: f64, other: &str, other_time: f64) -> String {
    if time <= other_time {
        format!("{subject} {:.1}x faster than {other}", other_time / time.max(1e-9))
    } else {
        format!("{subject} {:.1}x slower than {other}", time / other_time.max(1e-9))
    }
}

impl BenchReport {
    /// The human-readable table: medians of the columns that answer the benchmark's questions,
    /// within 160 columns; `wide` adds every p95, the build pass, the occluded count, the
    /// timestamps' coverage and the bind-group sets.
    pub fn table(&self, wide: bool) -> String {
        let mut out = String::new();
        out += &format!(
            "adapter: {} ({}, {}, {})\nscene: {}   size: {}x{}   indirect validation: {}   timestamps: {}   wait: {}\n\n",
            self.adapter.name,
            self.adapter.backend,
            self.adapter.device_type,
            self.adapter.driver,
            // The scene's name comes from its file: shown escaped (the JSON keeps it as it is).
            crate::text::display_name(&self.scene),
            self.size[0],
            self.size[1],
            if self.indirect_validation { "on" } else { "off" },
            if self.timestamps { "yes" } else { "no (GPU times not available on this adapter)" },
            match self.gpu_wait {
                GpuWait::Spin => "spin",
                GpuWait::Block => "block",
            },
        );
        let columns = columns(wide);
        let line = |cells: &mut dyn Iterator<Item = (String, &Column)>| {
            let mut text = String::new();
            for (i, (cell, column)) in cells.enumerate() {
                if i == 0 {
                    text += &format!("{cell:<width$}", width = column.width);
                } else {
                    text += &format!(" {cell:>width$}", width = column.width);
                }
            }
            text.trim_end().to_string() + "\n"
        };
        out += &line(&mut columns.iter().map(|c| (c.title.to_string(), c)));
        out += &line(&mut columns.iter().map(|c| (c.unit.to_string(), c)));
        for row in &self.rows {
            out += &line(&mut columns.iter().map(|c| ((c.cell)(row), c)));
        }
        if self.rows.iter().any(|r| r.churn > 0) {
            out += &format!(
                "\n{:<15} {:>9} {:>8} {:>14} {:>17} {:>17} {:>17} {:>17}\n",
                "churn", "objects", "changes", "upload B", "apply ms", "(edit ms", "+ sync ms)", "record ms"
            );
            for r in self.rows.iter().filter(|r| r.churn > 0) {
                out += &format!(
                    "{:<15} {:>9} {:>8} {:>14} {:>17} {:>17} {:>17} {:>17}\n",
                    r.mode.name(),
                    r.objects,
                    r.churn,
                    r.upload_bytes,
                    r.cpu_apply_ms.cell(),
                    r.cpu_edit_ms.cell(),
                    r.cpu_sync_ms.cell(),
                    r.cpu_record_ms.cell()
                );
            }
        }
        out += "\n";
        let mut prose = String::new();
        prose += "lod/occ/sr: levels of detail / occlusion culling / compute rasteriser for small objects (a+ / a-: auto, the \
                  adaptive frame's choice, on / off in most measured frames); drawn: objects \
                  drawn by phase 1 + phase 2, of which soft: by the compute rasteriser; raster: its GPU ms (both phases; \
                  its resolve is part of main); df, shade (--wide): deferred shading of the opaque pixels (as lod/occ/sr) and its shade and composite passes' GPU ms; occl: GPU ms of the pyramid and the second phase (and the mark that sets the compute rasteriser's objects' visibility bits); shadow: every shadow cascade's cull, build and depth passes (--shadows); blend (--wide): the blend sort and the blended pass; gpu sum: every pass's \
                  timestamps; wall: the frame by the wall clock, from recording until the CPU sees the GPU done\n";
        if self.rows.iter().any(|r| r.timestamps_short) {
            prose += &format!(
                "!: the timestamps cover under {:.0}% of the time the CPU waited for the GPU: they miss work on \
                 this adapter, so judge that row by its wall-clock time (docs/BENCHMARKS.md, \"Timestamps and the \
                 wall clock\")\n",
                TIMESTAMP_COVERAGE_MIN * 100.0
            );
        }
        if !wide {
            prose +=
                "(--wide: p95 of every time, the build pass, occluded objects, the blend sort and blended pass, timestamp \
                 coverage, bind-group sets, casters per cascade, the cascades' occlusion culling and compute rasteriser)\n";
        }
        prose += &self.summary();
        for note in &self.notes {
            prose += &format!("note: {note}\n");
        }
        out + &wrap(&prose, TABLE_WIDTH)
    }

    /// With `--compare-detail`: per count and mode, the GPU time and what was drawn at full
    /// detail against with LOD, size and occlusion culling, from rows of this run.
    pub fn detail_summary(&self) -> String {
        let mut out = String::new();
        for full in self.rows.iter().filter(|r| r.full_detail()) {
            let Some(culled) = self.rows.iter().find(|r| {
                r.mode == full.mode && r.objects == full.objects && r.animated == full.animated && !r.full_detail()
            }) else {
                continue;
            };
            let share = |part: u64, whole: u64| 100.0 * part as f64 / whole.max(1) as f64;
            let drawn = |r: &Row| (r.drawn[0] + r.drawn[1]) as u64;
            out += &format!(
                "{:>9} objects, {}: triangles {} -> {} ({:.1}% removed), instances drawn {} -> {} ({:.1}% removed: \
                 {:.1}% too small, {:.1}% occluded of {} in the frustum)",
                full.objects,
                full.mode,
                full.triangles,
                culled.triangles,
                100.0 - share(culled.triangles, full.triangles),
                drawn(full),
                drawn(culled),
                100.0 - share(drawn(culled), drawn(full)),
                share((culled.in_frustum - culled.visible) as u64, culled.in_frustum as u64),
                share(culled.occluded as u64, culled.in_frustum as u64),
                culled.in_frustum,
            );
            let measure = FrameMeasure::for_rows(full, culled);
            let (a, b) = (measure.of(full), measure.of(culled));
            out += &format!(
                "; {} ({}: {} vs {} ms)",
                faster_or_slower(&culled.detail_name(), b, "full detail", a),
                measure.describe(full, culled),
                ms(b),
                ms(a),
            );
            out += "\n";
        }
        out
    }

    /// Ratios that answer the benchmark's questions, computed from rows of this run.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        let cpu_work = |r: &Row| r.cpu_record_ms.median + r.cpu_cull_ms.median;
        let mut counts: Vec<u32> = self.rows.iter().map(|r| r.objects).collect();
        counts.sort_unstable();
        counts.dedup();
        for &n in &counts {
            if let (Some(gpu), Some(cpu)) = (self.row(DrawMode::Gpu, n), self.row(DrawMode::Cpu, n)) {
                let (g, c) = (cpu_work(gpu), cpu_work(cpu));
                let work = if g <= c {
                    format!("gpu {:.1}x less than cpu", c / g.max(1e-9))
                } else {
                    format!("gpu {:.1}x more than cpu", g / c.max(1e-9))
                };
                let measure = FrameMeasure::for_rows(gpu, cpu);
                let (gt, ct) = (measure.of(gpu), measure.of(cpu));
                out += &format!(
                    "{n:>9} objects: CPU work per frame (record + cull) {work} ({} vs {} ms); frame {} ({}: {} vs {} ms)\n",
                    ms(g),
                    ms(c),
                    faster_or_slower("gpu", gt, "cpu", ct),
                    measure.describe(gpu, cpu),
                    ms(gt),
                    ms(ct),
                );
            }
        }
        if let (Some(&lo), Some(&hi)) = (counts.first(), counts.last()) {
            if let (Some(a), Some(b)) = (self.row(DrawMode::Gpu, lo), self.row(DrawMode::Gpu, hi)) {
                if lo != hi {
                    out += &format!(
                        "gpu record time {hi} vs {lo} objects: {:.3} ms vs {:.3} ms ({:.2}x)\n",
                        b.cpu_record_ms.median,
                        a.cpu_record_ms.median,
                        b.cpu_record_ms.median / a.cpu_record_ms.median.max(1e-9)
                    );
                }
            }
        }
        out += &self.detail_summary();
        let (problems, tolerated) = self.visible_disagreements();
        if problems.is_empty() && tolerated.is_empty() {
            out += "visible counts agree between the GPU-culled and CPU-culled modes on every frame\n";
        } else if problems.is_empty() {
            out += "visible counts agree between the GPU-culled and CPU-culled modes on every frame, \
                    up to objects within float rounding of a culling or level threshold:\n";
        }
        for t in tolerated {
            out += &format!("  {t}\n");
        }
        for p in problems {
            out += &format!("WARNING: visible counts disagree: {p}\n");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::report::{timestamps_short, AdapterJson};

    /// A row of `mode` at `objects` with the given timestamp sum and wall-clock times.
    fn row(mode: DrawMode, objects: u32, gpu_total: Option<f64>, wall: f64, cpu_frame: f64) -> Row {
        let stat = |median: f64| Stat { median, p95: median * 1.1 };
        let gpu_wall = wall - cpu_frame;
        Row {
            mode,
            objects,
            visible: objects / 2,
            frames: 8,
            draw_commands: 3,
            bind_group_sets: vec![1, 1, 1],
            cpu_record_ms: stat(0.25),
            cpu_cull_ms: stat(if mode == DrawMode::Cpu { 4.0 } else { 0.0 }),
            cpu_frame_ms: stat(cpu_frame),
            gpu_ms: gpu_total.map(|total| GpuMs {
                passes: Default::default(),
                cull: 0.1,
                build: 0.1,
                main: total - 0.2,
                total,
                ..Default::default()
            }),
            cpu_finish_ms: stat(0.01),
            submit_ms: stat(0.02),
            gpu_total_p95_ms: gpu_total,
            animated: true,
            indirect_call: None,
            visible_per_frame: vec![objects / 2; 8],
            record_ms_per_frame: vec![0.25; 8],
            boundary_per_frame: Vec::new(),
            lod: true,
            lod_error_px: crate::frame::Detail::default().lod_error_px,
            min_pixels: crate::frame::Detail::default().min_pixels,
            occlusion: mode.gpu_culled(),
            soft_raster: mode.gpu_culled(),
            occlusion_auto: false,
            soft_auto: false,
            two_phase_frames: 0,
            soft_frames: 0,
            deferred: true,
            deferred_auto: false,
            deferred_frames: 0,
            soft_drawn: 1_234_567,
            occluders: 1_024,
            triangles: 123_456_789,
            in_frustum: objects,
            occluded: 12_345,
            drawn: [1_234_567, 123_456],
            levels: Default::default(),
            churn: 0,
            views: 1,
            shadow_cascades: 0,
            casters: Vec::new(),
            shadow_two_phase_frames: 0,
            shadow_occlusion_auto: false,
            shadow_soft_frames: 0,
            shadow_soft_auto: false,
            upload_bytes: 0,
            cpu_apply_ms: Stat::default(),
            cpu_edit_ms: Stat::default(),
            cpu_sync_ms: Stat::default(),
            wall_ms: stat(wall),
            gpu_wall_ms: stat(gpu_wall),
            timestamp_coverage: gpu_total.map(|t| t / gpu_wall),
            timestamps_short: gpu_total.is_some_and(|t| timestamps_short(t, gpu_wall)),
        }
    }

    fn report(rows: Vec<Row>) -> BenchReport {
        BenchReport {
            adapter: AdapterJson {
                name: "test adapter".into(),
                backend: "Vulkan".into(),
                device_type: "Cpu".into(),
                driver: "test".into(),
            },
            indirect_validation: false,
            size: [1280, 720],
            scene: "default scene (animated)".into(),
            rows,
            timestamps: true,
            multi_draw_indirect_count: true,
            warmup_frames: 2,
            gpu_wait: GpuWait::Block,
            notes: Vec::new(),
        }
    }

    #[test]
    fn rows_whose_timestamps_miss_work_are_flagged() {
        // A row like lavapipe's compute rasteriser's (docs/BENCHMARKS.md § "Timestamps that
        // miss work: test data").
        assert!(timestamps_short(416.0, 1600.0));
        // Timestamps that account for the wait, or nearly.
        assert!(!timestamps_short(700.0, 720.0));
        assert!(!timestamps_short(0.81, 1.0));
        // A short GPU frame whose wait is mostly a fence's latency: under the share, but not
        // a millisecond of missing work.
        assert!(!timestamps_short(0.05, 0.3));
        assert!(timestamps_short(1.0, 2.5));
    }

    #[test]
    fn ratios_use_the_wall_clock_where_timestamps_miss_work() {
        let gpu = row(DrawMode::Gpu, 100_000, Some(648.0), 2817.0, 1.0);
        let cpu = row(DrawMode::Cpu, 100_000, Some(2000.0), 2019.0, 30.0);
        assert!(gpu.timestamps_short && !cpu.timestamps_short);
        assert_eq!(FrameMeasure::for_rows(&gpu, &cpu), FrameMeasure::WallClock);
        let summary = report(vec![gpu.clone(), cpu.clone()]).summary();
        assert!(summary.contains("frame gpu 1.4x slower than cpu (wall-clock frame time"), "{summary}");
        assert!(summary.contains("timestamps miss work"), "{summary}");

        // Timestamps that hold on both rows are the GPU's own time.
        let gpu = row(DrawMode::Gpu, 100_000, Some(0.98), 1.3, 0.2);
        let cpu = row(DrawMode::Cpu, 100_000, Some(5.9), 12.0, 6.0);
        assert_eq!(FrameMeasure::for_rows(&gpu, &cpu), FrameMeasure::Timestamps);
        let summary = report(vec![gpu, cpu]).summary();
        assert!(
            summary.contains("frame gpu 6.0x faster than cpu (GPU time from timestamps: 0.980 vs 5.900 ms)"),
            "{summary}"
        );
        assert!(summary.contains("gpu 17.0x less than cpu"), "{summary}");
    }

    #[test]
    fn the_detail_ratio_names_its_sides() {
        let mut full = row(DrawMode::Gpu, 1_000, Some(0.307), 0.5, 0.1);
        (full.lod, full.min_pixels, full.occlusion, full.soft_raster) = (false, 0.0, false, false);
        let defaults = row(DrawMode::Gpu, 1_000, Some(0.558), 0.8, 0.1);
        let summary = report(vec![full, defaults]).detail_summary();
        assert!(summary.contains("defaults 1.8x slower than full detail (GPU time from timestamps"), "{summary}");
    }

    #[test]
    fn the_table_fits_160_columns_and_marks_flagged_rows() {
        let rows = vec![
            row(DrawMode::GpuPerObject, 10_000_000, Some(1234.5), 98765.4, 12.3),
            row(DrawMode::Cpu, 10_000_000, Some(98000.0), 98765.4, 2345.6),
            row(DrawMode::GpuNocount, 1_000, None, 0.4, 0.1),
        ];
        let table = report(rows).table(false);
        let widest = table.lines().map(|line| line.chars().count()).max();
        assert!(widest <= Some(TABLE_WIDTH), "{widest:?} columns:\n{table}");
        assert!(table.contains("1234!"), "the flagged row's sum is marked:\n{table}");
        assert!(table.contains("!: the timestamps cover under 80%"), "{table}");
        assert!(report(vec![row(DrawMode::Gpu, 1_000, Some(0.3), 0.5, 0.1)]).table(true).contains("75%"));
    }
}
