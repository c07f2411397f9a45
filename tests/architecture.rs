//! The layers of `src/`, each allowed to use only the layers below it (docs/ARCHITECTURE.md).
//! Read from the source text: every `crate::<module>` path outside comments, including the
//! first names inside `crate::{…}` groups, must name the file's own top-level module or one
//! listed before it in [`LAYERS`]. Every module `src/lib.rs` declares must have a place here.

use std::path::{Path, PathBuf};

/// Bottom to top.
const LAYERS: &[&str] = &[
    // What the platform gives (a clock, worker threads), the same calls natively and in the
    // browser.
    "clock",
    "threads",
    "text",
    "output",
    "tunables",
    "mesh",
    "scene",
    "pipelines",
    "gpu",
    "gpu_scene",
    "passes",
    "frame",
    "live",
    "embed",
    "profiling",
    "bench",
    "viewer",
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src/") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a line with any `//` comment removed (string literals holding `//` are rare
/// enough in this crate to not matter; a false cut only hides a path, never invents one).
fn code(line: &str) -> &str {
    line.find("//").map_or(line, |i| &line[..i])
}

/// Top-level modules named by `crate::` paths in `text`.
fn crate_references(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("crate::") {
        let before = rest[..i].chars().next_back();
        rest = &rest[i + "crate::".len()..];
        // `$crate::` in macros and `multidraw_crate::` style names are not this crate's root.
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            // `crate::{a::x, b, c::{y, z}}`: the first name of each top-level item.
            let mut depth = 0;
            let mut item_start = true;
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item_start = true,
                    c if item_start && (c.is_alphanumeric() || c == '_') => {
                        let end = group[j..]
                            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                            .map_or(group.len(), |e| j + e);
                        names.push(group[j..end].to_string());
                        item_start = false;
                    }
                    _ => {}
                }
            }
        } else {
            let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
            names.push(rest[..end].to_string());
        }
    }
    names
}

#[test]
fn the_reference_parser_reads_paths_and_groups() {
    assert_eq!(crate_references("use crate::gpu::target::X;"), ["gpu"]);
    assert_eq!(crate_references("use crate::{scene::{a, b}, tunables, gpu::x};"), ["scene", "tunables", "gpu"]);
    assert_eq!(crate_references("let x = crate::frame::Renderer::new(); $crate::foo"), ["frame"]);
}

#[test]
fn every_module_has_a_layer() {
    let lib = std::fs::read_to_string(src().join("lib.rs")).expect("read src/lib.rs");
    for line in lib.lines() {
        if let Some(name) = line.trim().strip_prefix("pub mod ").and_then(|l| l.strip_suffix(';')) {
            assert!(
                LAYERS.contains(&name),
                "src/lib.rs declares `{name}`, which tests/architecture.rs places in no layer"
            );
        }
    }
}

#[test]
fn no_module_uses_a_layer_above_it() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut violations = Vec::new();
    let mut checked = 0;
    for file in &files {
        let relative = file.strip_prefix(src()).expect("under src/");
        let top = relative.components().next().expect("a path").as_os_str().to_string_lossy();
        let top = top.trim_end_matches(".rs");
        // The binary (`main.rs`, `cli/`) and `lib.rs` sit above every layer.
        let Some(level) = LAYERS.iter().position(|l| *l == top) else {
            assert!(matches!(top, "lib" | "main" | "cli"), "{} is in no layer", relative.display());
            continue;
        };
        let text = std::fs::read_to_string(file).expect("read a source file");
        for (number, line) in text.lines().enumerate() {
            for name in crate_references(code(line)) {
                checked += 1;
                match LAYERS.iter().position(|l| *l == name) {
                    Some(used) if used < level || name == top => {}
                    Some(_) => violations.push(format!(
                        "src/{}:{}: `{top}` uses `crate::{name}`, a layer above it",
                        relative.display(),
                        number + 1
                    )),
                    None => violations.push(format!(
                        "src/{}:{}: `crate::{name}` is no layer",
                        relative.display(),
                        number + 1
                    )),
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} crate paths found: is the parser reading the files?");
    assert!(
        violations.is_empty(),
        "layer order broken (bottom to top: {}):\n{}",
        LAYERS.join(" < "),
        violations.join("\n")
    );
}

/// The crates that only the binary, the benchmark, the viewer and puffin profiling use: an
/// embedder building with `default-features = false` must compile none of them.
const APP_CRATES: &[&str] = &[
    "winit",
    "egui",
    "egui-wgpu",
    "egui-winit",
    "puffin",
    "puffin_egui",
    "puffin_http",
    "plotters",
    "clap",
    "indicatif",
];

/// The names of the packages in the library's normal (not dev, not build) dependency tree,
/// on every target platform, with `features` (`None`: the default features). `cargo tree`
/// resolves without compiling anything, from the lock file; not `--offline`: a fresh machine's
/// builds download only its own platform's crates, and the tree of every platform needs the
/// manifests of the others (Android's, Windows'), which it fetches once.
fn dependency_tree(features: Option<&str>) -> Vec<String> {
    let mut command = std::process::Command::new(env!("CARGO"));
    command
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["tree", "--target", "all", "-e", "normal", "--prefix", "none", "--format", "{p}"]);
    if let Some(features) = features {
        command.args(["--no-default-features", "--features", features]);
    }
    let output = command.output().expect("run cargo tree");
    assert!(
        output.status.success(),
        "cargo tree (features {features:?}) failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut names: Vec<String> = String::from_utf8(output.stdout)
        .expect("cargo tree prints UTF-8")
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_owned)
        .collect();
    names.sort();
    names.dedup();
    // The root and wgpu are in every tree: an empty or garbled listing fails here, not silently.
    for expected in ["multidraw", "wgpu"] {
        assert!(names.iter().any(|n| n == expected), "cargo tree (features {features:?}) lists no {expected}");
    }
    names
}

/// Which of [`APP_CRATES`] a tree holds.
fn app_crates_in(tree: &[String]) -> Vec<&'static str> {
    APP_CRATES.iter().copied().filter(|name| tree.iter().any(|n| n == name)).collect()
}

#[test]
fn the_library_alone_depends_on_no_app_crate() {
    // Each feature brings exactly its own crates (`""`: `default-features = false`), and the
    // default features (the binary) bring them all, so the check would notice a listing that
    // stopped naming them.
    let cases: &[(Option<&str>, &[&str])] = &[
        (Some(""), &[]),
        (Some("profiling"), &["puffin"]),
        (Some("puffin-http"), &["puffin", "puffin_http"]),
        (Some("bench"), &["puffin", "plotters"]),
        (Some("viewer"), &["winit", "egui", "egui-wgpu", "egui-winit", "puffin", "puffin_egui"]),
        (None, APP_CRATES),
    ];
    let mut wrong = Vec::new();
    for &(features, expected) in cases {
        let found = app_crates_in(&dependency_tree(features));
        let mut expected = expected.to_vec();
        expected.sort_by_key(|name| APP_CRATES.iter().position(|n| n == name));
        if found != expected {
            let features = features.map_or("the default features".to_owned(), |f| format!("features [{f}]"));
            wrong.push(format!("with {features} the library depends on {found:?}, not {expected:?}"));
        }
    }
    assert!(wrong.is_empty(), "Cargo.toml's features pull the wrong crates:\n{}", wrong.join("\n"));
}
