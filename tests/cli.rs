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
