//! Bad input gets a clear error and a non-zero exit, never a panic; every subcommand has --help.

use std::process::{Command, Output};

fn multidraw(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_multidraw")).args(args).output().expect("run the multidraw binary")
}

fn assert_fails_with(args: &[&str], expected: &str) {
    let output = multidraw(args);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{args:?} should fail");
    assert!(!stderr.contains("panicked"), "{args:?} panicked:\n{stderr}");
    assert!(stderr.contains(expected), "{args:?}: expected {expected:?} in:\n{stderr}");
}

#[test]
fn unknown_mode_is_an_error() {
    for expected in ["invalid value 'fast' for '--mode <MODE>'", "[possible values: gpu, gpu-nocount"] {
        assert_fails_with(&["render", "--mode", "fast", "--out", "x.png"], expected);
    }
    assert_fails_with(&["view", "--mode", "bundle"], "the viewer has no bundle mode");
}

#[test]
fn unknown_wait_is_an_error() {
    assert_fails_with(&["bench", "--wait", "sometimes"], "[possible values: spin, block]");
}

/// A mode's one name is the same on the command line, in JSON and in labels.
#[test]
fn mode_names_agree() {
    use clap::ValueEnum;
    use multidraw::bench::GpuWait;
    use multidraw::DrawMode;
    assert_eq!(DrawMode::ALL.as_slice(), DrawMode::value_variants());
    for mode in DrawMode::ALL {
        let cli = mode.to_possible_value().expect("no mode is hidden");
        assert_eq!(cli.get_name(), mode.name());
        assert_eq!(serde_json::to_value(mode).unwrap(), mode.name());
        assert_eq!(mode.to_string(), mode.name());
        assert_eq!(mode.name().parse::<DrawMode>(), Ok(mode));
    }
    for wait in GpuWait::value_variants() {
        let cli = wait.to_possible_value().expect("no choice is hidden");
        assert_eq!(serde_json::to_value(wait).unwrap(), cli.get_name());
    }
}

/// `bench --help` states the defaults the library uses.
#[test]
fn bench_help_states_the_defaults() {
    use multidraw::bench::{DEFAULT_MODES, DEFAULT_OBJECT_COUNTS};
    let output = multidraw(&["bench", "--help"]);
    let help = String::from_utf8_lossy(&output.stdout);
    let modes: Vec<&str> = DEFAULT_MODES.iter().map(|m| m.name()).collect();
    let counts: Vec<String> = DEFAULT_OBJECT_COUNTS.iter().map(u32::to_string).collect();
    for default in [modes.join(","), counts.join(",")] {
        assert!(help.contains(&format!("[default: {default}]")), "{default} not in:\n{help}");
    }
}

#[test]
fn zero_or_negative_size_is_an_error() {
    for size in ["0x100", "100x0", "-5x100", "100", "axb"] {
        assert_fails_with(&["render", "--size", size, "--out", "x.png"], "invalid size");
    }
}

#[test]
fn negative_object_count_is_an_error() {
    assert_fails_with(&["render", "--objects", "-3", "--out", "x.png"], "--objects");
}

#[test]
fn too_many_objects_names_the_limit() {
    let out = std::env::temp_dir().join("multidraw-too-many.png");
    assert_fails_with(
        &["render", "--objects", "50000000", "--out", out.to_str().unwrap()],
        "over this adapter's max_storage_buffer_binding_size",
    );
    let output = multidraw(&["render", "--objects", "50000000", "--out", out.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("objects fit"));
}

#[test]
fn every_subcommand_has_help() {
    let top = multidraw(&["--help"]);
    assert!(top.status.success());
    let text = String::from_utf8_lossy(&top.stdout).to_string();
    let subcommands: Vec<String> = text
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|name| name != "help")
        .collect();
    assert!(subcommands.len() >= 2, "subcommands found: {subcommands:?}");
    for name in subcommands {
        let output = multidraw(&[&name, "--help"]);
        assert!(output.status.success(), "{name} --help failed");
        assert!(String::from_utf8_lossy(&output.stdout).contains("Usage:"), "{name} --help has no usage");
    }
}

// ---------------------------------------------------------------------------------------
// A new user's first hour: each of these once surprised one.

/// Runs the binary in `dir`.
fn multidraw_in(dir: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_multidraw"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run the multidraw binary")
}

/// A fresh directory for one test (left behind on failure, to look at).
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch directory");
    dir
}

/// The Duck (one part) copied to `dir/models/Duck.glb`; its absolute path.
fn duck_in(dir: &std::path::Path) -> std::path::PathBuf {
    let models = dir.join("models");
    std::fs::create_dir_all(&models).unwrap();
    let duck = models.join("Duck.glb");
    std::fs::copy(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/models/Duck/Duck.glb"), &duck).unwrap();
    std::fs::canonicalize(duck).unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `import /abs/Model.glb > x.toml; check x.toml`: the printed scene names the model relative
/// to the current directory, where the scene is saved; a model outside it is said, with the
/// --allow-dir that reads it.
#[test]
fn an_imported_scene_printed_to_a_file_loads() {
    let dir = scratch("import-stdout");
    let duck = duck_in(&dir);
    let output = multidraw_in(&dir, &["import", duck.to_str().unwrap()]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let scene = text(&output.stdout);
    assert!(scene.contains("gltf = \"models/Duck.glb\""), "{scene}");
    std::fs::write(dir.join("x.toml"), &scene).unwrap();
    let check = multidraw_in(&dir, &["check", "x.toml"]);
    assert!(check.status.success() && text(&check.stdout).contains("ok: 1 objects"), "{}", text(&check.stderr));

    // From another directory: the note says what reads it.
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let output = multidraw_in(&elsewhere, &["import", duck.to_str().unwrap()]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let models = duck.parent().unwrap().to_str().unwrap().to_string();
    assert!(text(&output.stderr).contains(&format!("--allow-dir {models}")), "{}", text(&output.stderr));
    std::fs::write(elsewhere.join("x.toml"), &output.stdout).unwrap();
    let refused = multidraw_in(&elsewhere, &["check", "x.toml"]);
    assert!(!refused.status.success());
    let allowed = multidraw_in(&elsewhere, &["check", "x.toml", "--allow-dir", &models]);
    assert!(allowed.status.success(), "{}", text(&allowed.stderr));
}

/// `--instances N` writes N objects, and says so, for counts that are no square.
#[test]
fn import_writes_exactly_the_instances_asked_for() {
    let dir = scratch("import-count");
    duck_in(&dir);
    for (instances, total) in [("1000", "1,000"), ("7", "7"), ("2", "2"), ("16", "16")] {
        let output = multidraw_in(&dir, &["import", "models/Duck.glb", "--instances", instances, "--out", "d.toml"]);
        let said = text(&output.stdout);
        assert!(said.contains(&format!("({instances} × 1 objects = {total})")), "{said} {}", text(&output.stderr));
        let check = multidraw_in(&dir, &["check", "d.toml"]);
        let out = text(&check.stdout);
        assert!(out.contains(&format!("ok: {instances} objects")), "{instances}: {out} {}", text(&check.stderr));
    }
}

/// More instances than a scene file may hold objects (× the model's parts) are refused before
/// anything is written, with the most that fit (issue 27, class 3).
#[test]
fn import_refuses_more_objects_than_a_scene_file_holds() {
    let dir = scratch("import-too-many");
    let crate_model = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/models/crate.gltf");
    let output =
        multidraw_in(&dir, &["import", crate_model.to_str().unwrap(), "--instances", "50000000", "--out", "big.toml"]);
    assert!(!output.status.success(), "{}", text(&output.stdout));
    let said = text(&output.stderr);
    assert!(said.contains("200,000,000 objects") && said.contains("at most 12,500,000 instances"), "{said}");
    assert!(!dir.join("big.toml").exists(), "nothing written");
}

/// A float where a scene file wants an integer names the key, the file, its line and column,
/// and says "integer", for every integer field (i64 counts and u32 seeds alike).
#[test]
fn a_float_for_an_integer_says_integer_where() {
    let dir = scratch("integer");
    for (body, expected) in [
        (
            "[[mesh]]\nname = \"ball\"\nprocedural = \"sphere\"\nsegments = 24.5\n",
            "bad.toml:4:12: mesh[0].segments = 24.5 is not an integer",
        ),
        ("[[objects]]\nstress = { count = 10.0 }\n", "bad.toml:2:20: objects[0].stress.count = 10.0 is not an integer"),
        (
            "[[mesh]]\nname = \"r\"\nprocedural = \"rock\"\nseed = 1.5\n",
            "bad.toml:4:8: mesh[0].seed = 1.5 is not an integer from 0 to 4294967295",
        ),
        (
            "[[mesh]]\nname = \"r\"\nprocedural = \"rock\"\nseed = -1\n",
            "bad.toml:4:8: mesh[0].seed = -1 is not an integer from 0 to 4294967295",
        ),
    ] {
        std::fs::write(dir.join("bad.toml"), body).unwrap();
        let output = multidraw_in(&dir, &["check", "bad.toml"]);
        let stderr = text(&output.stderr);
        assert!(!output.status.success() && stderr.contains(expected), "expected {expected:?} in:\n{stderr}");
        assert!(!stderr.contains("i64") && !stderr.contains("u32"), "{stderr}");
    }
}

/// --validate-indirect is offered by the commands that open a device, and by no other; the
/// old place before the command still works for those.
#[test]
fn validate_indirect_is_offered_where_a_device_opens() {
    for command in ["render", "bench", "pipelines", "view", "soak", "info"] {
        let help = text(&multidraw(&[command, "--help"]).stdout);
        assert!(help.contains("--validate-indirect"), "{command} --help:\n{help}");
    }
    for command in ["import", "puffin-summary"] {
        let help = text(&multidraw(&[command, "--help"]).stdout);
        assert!(!help.contains("--validate-indirect"), "{command} --help:\n{help}");
        assert_fails_with(&[command, "--validate-indirect", "x"], "unexpected argument '--validate-indirect'");
    }
    assert_fails_with(
        &["--validate-indirect", "import", "x.glb"],
        "--validate-indirect applies to the commands that draw",
    );
    let top = text(&multidraw(&["--help"]).stdout);
    assert!(!top.contains("--validate-indirect"), "{top}");
    for args in [["info", "--validate-indirect"], ["--validate-indirect", "info"]] {
        let output = multidraw(&args);
        let out = text(&output.stdout);
        assert!(output.status.success(), "{args:?}: {}", text(&output.stderr));
        assert!(out.contains("indirect validation") && out.contains("on (wgpu checks"), "{args:?}: {out}");
    }
}

/// A bad mode in a list names the valid ones.
#[test]
fn a_bad_mode_in_a_list_lists_the_modes() {
    for args in [["bench", "--modes", "gpu,foo"], ["bench", "--modes", "foo,gpu"], ["bench", "--modes", "gpux"]] {
        assert_fails_with(&args, "[possible values: gpu, gpu-nocount, gpu-per-object, cpu, bundle]");
    }
}

/// `render --pyramid-out` lists its image with the frame's.
#[test]
fn render_lists_the_pyramid_image_it_wrote() {
    let dir = scratch("pyramid-out");
    let args = ["render", "--objects", "100", "--size", "64x64", "--out", "f.png", "--pyramid-level", "1"];
    let output = multidraw_in(&dir, &[&args[..], &["--pyramid-out", "p.png"]].concat());
    let out = text(&output.stdout);
    assert!(output.status.success(), "{out}{}", text(&output.stderr));
    let wrote: Vec<&str> =
        out.lines().filter(|l| l.starts_with("wrote")).map(|l| l.split_whitespace().nth(1).unwrap()).collect();
    assert_eq!(wrote, ["f.png", "p.png"], "{out}");
    assert!(dir.join("p.png").is_file());
}

/// `info` states what the compute rasteriser needs and whether it is there.
#[test]
fn info_states_the_compute_rasteriser() {
    let output = multidraw(&["info"]);
    let out = text(&output.stdout);
    assert!(output.status.success(), "{}", text(&output.stderr));
    for key in ["SHADER_INT64 ", "SHADER_INT64_ATOMIC_MIN_MAX ", "compute rasteriser "] {
        assert!(out.lines().any(|l| l.starts_with(key)), "{key:?} in:\n{out}");
    }
    let int64 = out.lines().filter(|l| l.starts_with("SHADER_INT64")).all(|l| l.ends_with("yes"));
    let available = out.lines().any(|l| l.starts_with("compute rasteriser") && l.contains(" available"));
    assert_eq!(int64, available, "available exactly when both features are:\n{out}");
}
