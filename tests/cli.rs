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
    assert_fails_with(
        &["render", "--mode", "fast", "--out", "x.png"],
        "unknown mode \"fast\"; expected one of: gpu, gpu-nocount",
    );
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
