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
