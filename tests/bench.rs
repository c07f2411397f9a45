//! The benchmark: a short run in CI produces every documented JSON field, the JSON round-trips
//! through the report type, and bad `--objects` / `--modes` values are clear errors.

use std::process::Command;

use multidraw::bench::report::BenchReport;
use serde_json::Value;

fn multidraw(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_multidraw")).args(args).output().expect("run multidraw")
}

fn short_run(json: &std::path::Path, extra: &[&str]) -> (String, Value) {
    let mut args = vec!["bench", "--objects", "100,2000", "--frames", "4", "--warmup", "1", "--size", "96x64"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--json", json.to_str().unwrap()]);
    let output = multidraw(&args);
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(output.status.success(), "bench failed:\n{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let value: Value = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).expect("valid JSON");
    (stdout, value)
}

#[test]
fn short_bench_run_produces_every_field() {
    let dir = tempdir();
    let json = dir.join("bench.json");
    let chart = dir.join("bench.png");
    let puffin = dir.join("bench.puffin");
    let (stdout, value) = short_run(
        &json,
        &[
            "--modes",
            "gpu,gpu-nocount,gpu-per-object,cpu,bundle",
            "--chart",
            chart.to_str().unwrap(),
            "--puffin",
            puffin.to_str().unwrap(),
        ],
    );
    assert!(stdout.contains("visible counts agree"), "{stdout}");

    for key in ["name", "backend", "device_type", "driver"] {
        assert!(value["adapter"][key].is_string(), "adapter.{key}");
    }
    assert!(value["indirect_validation"].is_boolean());
    assert_eq!(value["size"], serde_json::json!([96, 64]));
    assert!(value["scene"].is_string());
    let rows = value["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 10, "5 modes × 2 counts");
    for row in rows {
        assert!(row["mode"].is_string());
        for key in ["objects", "visible", "frames", "draw_commands"] {
            assert!(row[key].is_u64(), "{key} in {row}");
        }
        assert_eq!(row["frames"], 4);
        assert_eq!(row["bind_group_sets"].as_array().map(|a| a.len()), Some(3));
        for key in ["cpu_record_ms", "cpu_cull_ms", "cpu_frame_ms"] {
            assert!(row[key]["median"].is_f64() && row[key]["p95"].is_f64(), "{key} in {row}");
        }
        // lavapipe has timestamps, so every row has GPU times here.
        for key in ["cull", "build", "main", "total"] {
            assert!(row["gpu_ms"][key].is_f64(), "gpu_ms.{key} in {row}");
        }
        assert!(row["gpu_ms"]["main"].as_f64().unwrap() > 0.0);
        if row["mode"] == "cpu" {
            assert!(row["cpu_cull_ms"]["median"].as_f64().unwrap() > 0.0, "cpu mode times its culling");
        } else {
            assert_eq!(row["cpu_cull_ms"]["median"].as_f64(), Some(0.0), "the GPU culls in {}", row["mode"]);
        }
    }
    // Same frames, same camera: GPU- and CPU-culled modes see the same objects.
    for objects in [100, 2000] {
        let visible: Vec<&Value> =
            rows.iter().filter(|r| r["objects"] == objects && r["mode"] != "bundle").map(|r| &r["visible"]).collect();
        assert!(visible.windows(2).all(|w| w[0] == w[1]), "{objects}: {visible:?}");
    }
    let png = std::fs::read(&chart).expect("chart written");
    assert_eq!(&png[1..4], b"PNG");
    let capture = std::fs::read(&puffin).expect("puffin capture written");
    assert_eq!(&capture[..4], b"PUF0");
}

#[test]
fn json_round_trips_through_the_report_type() {
    let dir = tempdir();
    let json = dir.join("round.json");
    let (_, value) = short_run(&json, &["--modes", "gpu,cpu"]);
    let report: BenchReport = serde_json::from_value(value.clone()).expect("JSON matches BenchReport");
    assert_eq!(serde_json::to_value(&report).unwrap(), value);
    assert_eq!(report.rows.len(), 4);
}

#[test]
fn bad_lists_are_clear_errors() {
    for (flag, value, expected) in [
        ("--objects", "10,abc", "invalid value 'abc' for '--objects <OBJECTS>': expected positive integers"),
        ("--objects", "0", "invalid value '0' for '--objects <OBJECTS>'"),
        ("--objects", "-5", "invalid value '-5' for '--objects <OBJECTS>'"),
        ("--objects", "", "invalid value '' for '--objects <OBJECTS>'"),
        ("--modes", "gpu,fastest", "invalid value 'fastest' for '--modes <MODES>'"),
        ("--modes", "gpu,fastest", "[possible values: gpu, gpu-nocount, gpu-per-object, cpu, bundle]"),
        ("--modes", "", "a value is required for '--modes <MODES>'"),
    ] {
        let output = multidraw(&["bench", &format!("{flag}={value}")]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{flag}={value} should fail");
        assert!(stderr.contains(expected), "{flag}={value}: expected {expected:?} in {stderr}");
        assert!(!stderr.contains("panicked"));
    }
}

fn tempdir() -> std::path::PathBuf {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The JSON rows of a bench run with `args` (and a fresh driver-cache directory of the test's
/// own, so that runs compare like with like), and the process's own elapsed seconds.
fn timed_run(name: &str, cache: &std::path::Path, args: &[&str], env: &[(&str, &str)]) -> (Vec<Value>, f64) {
    let json = tempdir().join(format!("{name}.json"));
    let start = std::time::Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_multidraw"))
        .args(args)
        .args(["--json", json.to_str().unwrap()])
        .env("MULTIDRAW_CACHE_DIR", cache)
        .envs(env.iter().copied())
        .output()
        .expect("run multidraw");
    let seconds = start.elapsed().as_secs_f64();
    assert!(
        output.status.success(),
        "bench failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let value: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).expect("valid JSON");
    (value["rows"].as_array().expect("rows").clone(), seconds)
}

fn median(row: &Value, key: &str) -> f64 {
    row[key]["median"].as_f64().unwrap_or_else(|| panic!("{key} in {row}"))
}

/// The wall-clock frame time the bench reports is the time the frames take: the process's own
/// elapsed time grows by that much per frame. Two runs differ only in their measured frames
/// (2 and 10), so set-up, start-up and the rest cancel; the 8 frames between them must take
/// the rows' median wall time each, within 25% (these machines are noisy: a frame's time
/// varies between runs, docs/BENCHMARKS.md § "Wall-clock test tolerance").
#[test]
fn wall_clock_frame_time_is_the_process_elapsed_time() {
    let cache = tempdir().join("wall-cache");
    let args = |frames: &'static str| {
        ["bench", "--objects", "10000", "--modes", "gpu", "--compare-detail", "--size", "640x360", "--warmup", "1"]
            .into_iter()
            .chain(["--frames", frames])
            .collect::<Vec<_>>()
    };
    // A first run fills the driver cache, so that both measured runs start warm.
    timed_run("wall-warm", &cache, &args("1"), &[]);
    let (_, short) = timed_run("wall-short", &cache, &args("2"), &[]);
    let (rows, long) = timed_run("wall-long", &cache, &args("10"), &[]);
    let per_frame_ms = (long - short) * 1e3 / 8.0;
    let wall_ms: f64 = rows.iter().map(|r| median(r, "wall_ms")).sum();
    eprintln!("8 frames: {per_frame_ms:.1} ms per frame by the process, {wall_ms:.1} ms by the rows' wall times");
    assert!(
        (per_frame_ms - wall_ms).abs() <= 0.25 * wall_ms,
        "the process took {per_frame_ms:.1} ms per frame of both rows, the rows say {wall_ms:.1} ms"
    );
    for row in &rows {
        let (wall, gpu_wall, cpu_frame) =
            (median(row, "wall_ms"), median(row, "gpu_wall_ms"), median(row, "cpu_frame_ms"));
        assert!(wall >= gpu_wall && gpu_wall > 0.0 && wall >= cpu_frame, "{row}");
        let total = row["gpu_ms"]["total"].as_f64().expect("timestamps on this adapter");
        let coverage = row["timestamp_coverage"].as_f64().expect("coverage");
        assert!((coverage - total / gpu_wall).abs() < 0.05, "coverage {coverage} of {total} in {gpu_wall}: {row}");
    }
}

/// `make run`'s comparison at 20,000 objects (640×360, shadows off, the compute rasteriser
/// on: `auto` starts without it on a CPU adapter, and the shadow passes, timed in full, would
/// dilute what the timestamps miss), with lavapipe's rasteriser threads off
/// (`LP_NUM_THREADS=0`: a timestamp the driver files for its rasteriser is read only when the
/// queue's thread plays it back, so a late one is certainly late) and the environment `env`:
/// the JSON and the table's output. Checks what holds on every adapter: the flag agrees with
/// the row's own figures, the table marks flagged rows, and the ratio names the wall clock
/// where a row is flagged.
fn flag_bench(name: &str, env: &[(&str, &str)]) -> (Vec<Value>, Value) {
    let cache = tempdir().join(format!("{name}-cache"));
    let json = tempdir().join(format!("{name}.json"));
    let output = Command::new(env!("CARGO_BIN_EXE_multidraw"))
        .args(["bench", "--objects", "20000", "--modes", "gpu", "--compare-detail", "--size", "640x360"])
        .args(["--frames", "3", "--warmup", "1", "--json", json.to_str().unwrap()])
        .args(["--shadows", "off", "--soft-raster", "on"])
        .env("MULTIDRAW_CACHE_DIR", &cache)
        .env("LP_NUM_THREADS", "0")
        .envs(env.iter().copied())
        .output()
        .expect("run multidraw");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "bench failed:\n{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let value: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).expect("valid JSON");
    let rows = value["rows"].as_array().expect("rows").clone();
    for row in &rows {
        let total = row["gpu_ms"]["total"].as_f64().expect("timestamps on this adapter");
        let gpu_wall = median(row, "gpu_wall_ms");
        assert_eq!(flagged(row), multidraw::bench::report::timestamps_short(total, gpu_wall), "{row}");
    }
    let lines: Vec<&str> = stdout.lines().filter(|l| l.starts_with("gpu ")).collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    for (row, line) in rows.iter().zip(&lines) {
        assert_eq!(flagged(row), line.contains('!'), "the table marks flagged rows:\n{stdout}");
    }
    assert_eq!(
        rows.iter().any(flagged),
        stdout.contains("wall-clock frame time: the timestamps miss work on this adapter"),
        "the ratio uses the wall clock where a row is flagged:\n{stdout}"
    );
    assert!(rows[1]["soft_drawn"].as_u64() > Some(0), "the compute rasteriser drew: {}", rows[1]);
    (rows, value["adapter"].clone())
}

fn flagged(row: &Value) -> bool {
    row["timestamps_short"].as_bool().expect("timestamps_short")
}

/// A row whose timestamps miss work is flagged, in the JSON and in the table, and the ratio
/// that compares it says it used the wall clock. Shown on lavapipe without the flush of each
/// compute pass's opening timestamp (`MULTIDRAW_TIMESTAMP_FLUSH=off`): that timestamp is then
/// read after the pass's first dispatch (docs/BENCHMARKS.md, "Timestamps and the wall clock"),
/// so the row with the compute rasteriser must show part of its work missed (its coverage;
/// whether the share crosses the flag line depends on how the work falls between the pass's
/// dispatches), and the full-detail row (hardware only) must not be flagged.
#[test]
fn rows_whose_timestamps_miss_work_are_flagged() {
    let (rows, adapter) = flag_bench("flag-off", &[("MULTIDRAW_TIMESTAMP_FLUSH", "off")]);
    if adapter["name"].as_str().unwrap().contains("llvmpipe") {
        assert!(!flagged(&rows[0]), "full detail draws with the hardware only: {}", rows[0]);
        let coverage = rows[1]["timestamp_coverage"].as_f64().expect("coverage");
        assert!(coverage < 0.95, "lavapipe's timestamps miss part of the compute rasteriser's work: {}", rows[1]);
    }
}

/// With the flush of each compute pass's opening timestamp (`GpuTimer::with_opening_flush`,
/// the default on CPU adapters), lavapipe's timestamps hold the compute rasteriser's work: no
/// row is flagged and every row's timestamps cover at least 95% of the time the CPU waited.
#[test]
fn lavapipe_timestamps_hold_the_compute_passes_work() {
    let (rows, adapter) = flag_bench("flag-on", &[]);
    if adapter["name"].as_str().unwrap().contains("llvmpipe") {
        for row in &rows {
            let coverage = row["timestamp_coverage"].as_f64().expect("coverage");
            assert!(!flagged(row) && coverage >= 0.95, "the timestamps hold the frame's work: {row}");
        }
    }
}

/// Seconds in "about 35 s", "about 4 min" or "about 1 h 5 min".
fn about_seconds(text: &str) -> f64 {
    let words: Vec<&str> = text.trim().trim_start_matches("about ").split(' ').collect();
    let mut seconds = 0.0;
    for pair in words.chunks(2) {
        let value: f64 = pair[0].parse().unwrap_or_else(|_| panic!("a number in {text:?}"));
        seconds += value
            * match pair.get(1) {
                Some(&"s") => 1.0,
                Some(&"min") => 60.0,
                Some(&"h") => 3600.0,
                other => panic!("a unit after {value} in {text:?}: {other:?}"),
            };
    }
    seconds
}

/// The progress says how long the rest takes, and is right: a bench over 1,000 and 100,000
/// objects (a 100,000-object frame costs tens of 1,000-object ones), whose first progress line
/// at or past a quarter of the work gives the time left within a factor of two of the time the
/// rest took: no less than half of it, no more than twice. Both times come from the process's
/// lines ("N% of the work done in T s, about L left", then "done in E s"), so the check is
/// E - T against L. Not tighter: the same remaining frames vary that much between runs on a
/// 2-core machine running lavapipe (docs/BENCHMARKS.md § "Time-left test tolerance").
#[test]
fn the_time_left_at_a_quarter_of_the_work_is_right() {
    let output = multidraw(&[
        "bench",
        "--objects",
        "1000,100000",
        "--modes",
        "gpu,cpu",
        "--frames",
        "4",
        "--warmup",
        "1",
        "--size",
        "320x180",
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "bench failed:\n{stderr}");
    assert!(stderr.contains("frames to render, about "), "an estimate before the measured frames:\n{stderr}");
    let quarter = stderr
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("bench: ")?;
            let (share, rest) = rest.split_once("% of the work done in ")?;
            let (at, rest) = rest.split_once(" s, ")?;
            let (left, _) = rest.split_once(" left")?;
            Some((share.parse::<f64>().ok()?, at.parse::<f64>().ok()?, about_seconds(left)))
        })
        .find(|&(share, _, _)| share >= 25.0);
    let (share, at, left) = quarter.unwrap_or_else(|| panic!("no progress line past a quarter:\n{stderr}"));
    let end: f64 = stderr
        .lines()
        .find_map(|line| line.strip_prefix("bench: done in ")?.strip_suffix(" s")?.parse().ok())
        .unwrap_or_else(|| panic!("no closing line:\n{stderr}"));
    let real = end - at;
    eprintln!("at {share}% ({at} s): {left} s left said, {real:.1} s taken");
    assert!(
        (0.5 * real..=2.0 * real).contains(&left),
        "at {share}% the progress said {left} s left, the rest took {real:.1} s:\n{stderr}"
    );
}
