//! The layers of `src/`, each allowed to use only the layers below it (docs/ARCHITECTURE.md).
//! Read from the source text: every `crate::<module>` path outside comments, including the
//! first names inside `crate::{…}` groups, must name the file's own top-level module or one
//! listed before it in [`LAYERS`]. Every module `src/lib.rs` declares must have a place here.

use std::path::{Path, PathBuf};

/// Bottom to top.
const LAYERS: &[&str] = &[
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
