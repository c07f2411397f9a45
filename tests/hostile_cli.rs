//! Hostile paths, counts and names on the real binary's command line: each is refused with a
//! message that says what is wrong once, on a line of its own, with no control character from
//! a file reaching the terminal; nothing half-written or empty is left behind; and a path that
//! cannot be written is refused before the render, not after it.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Each case's bound on lavapipe (the slow ones render 100 objects at 64×64).
const TIMEOUT: Duration = Duration::from_secs(10);

struct Run {
    success: bool,
    stdout: String,
    stderr: String,
    /// stderr as bytes, to find raw control characters.
    stderr_bytes: Vec<u8>,
    elapsed: Duration,
}

/// Runs the binary in `dir`, killed after [`TIMEOUT`].
fn multidraw(dir: &Path, args: &[&str]) -> Run {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_multidraw"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the multidraw binary");
    // Both pipes are drained on threads, so a chatty child never blocks on a full pipe.
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let out = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stdout.read_to_end(&mut bytes);
        bytes
    });
    let err = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stderr.read_to_end(&mut bytes);
        bytes
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for multidraw") {
            break status;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?} ran over {TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let elapsed = start.elapsed();
    let stderr_bytes = err.join().expect("stderr reader");
    Run {
        success: status.success(),
        stdout: String::from_utf8_lossy(&out.join().expect("stdout reader")).into_owned(),
        stderr: String::from_utf8_lossy(&stderr_bytes).into_owned(),
        stderr_bytes,
        elapsed,
    }
}

/// A fresh directory for one test, removed when the test passes (kept to look at when not).
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("multidraw-hostile-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch directory");
    Scratch(dir)
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("list a directory")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The run failed with one `error:` line (at the start of a line, after any progress line)
/// holding every one of `expected`, each once, and no raw control character but line breaks.
fn assert_refused(run: &Run, args: &[&str], expected: &[&str]) -> String {
    assert!(!run.success, "{args:?} should fail:\n{}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{args:?} panicked:\n{}", run.stderr);
    let errors: Vec<&str> = run.stderr.lines().filter(|l| l.starts_with("error: ")).collect();
    assert_eq!(errors.len(), 1, "{args:?}: one error line, at the start of a line, expected in:\n{}", run.stderr);
    let error = errors[0];
    assert!(error.len() > "error: ".len() + 10, "{args:?}: an empty message: {error:?}");
    for text in expected {
        assert_eq!(error.matches(text).count(), 1, "{args:?}: {text:?} once expected in:\n{error}");
    }
    let raw: Vec<u8> = run.stderr_bytes.iter().copied().filter(|&b| (b < 0x20 && b != b'\n') || b == 0x7f).collect();
    assert!(raw.is_empty(), "{args:?}: raw control bytes {raw:?} in:\n{:?}", run.stderr);
    error.to_string()
}

/// A small, quick render of the default scene to `out`.
fn render_to(out: &str) -> Vec<&str> {
    vec!["render", "--objects", "100", "--size", "64x64", "--out", out]
}

#[test]
fn an_image_name_that_is_not_png_is_refused_up_front() {
    let dir = scratch("jpg");
    for (args, name) in [
        (render_to("x.jpg"), "x.jpg"),
        (vec!["render", "--out", "ok.png", "--pyramid-level", "0", "--pyramid-out", "p.jpeg"], "p.jpeg"),
        (vec!["bench", "--chart", "chart.jpg"], "chart.jpg"),
        (vec!["view", "--frames", "1", "--screenshot", "shot"], "shot"),
        (vec!["view", "--frames", "1", "--window-screenshot", "w.bmp"], "w.bmp"),
    ] {
        let run = multidraw(&dir, &args);
        assert_refused(&run, &args, &["images are written as PNG only", name]);
        assert!(run.elapsed < Duration::from_secs(2), "{args:?} took {:?}: checked after the work?", run.elapsed);
        assert!(run.stdout.is_empty() && !run.stderr.contains("loading scene"), "{args:?} started work");
    }
    assert!(names(&dir).is_empty(), "files left behind: {:?}", names(&dir));
}

#[test]
fn a_directory_or_a_missing_directory_is_refused_before_rendering() {
    let dir = scratch("dirs");
    std::fs::create_dir(dir.join("out")).unwrap();
    std::fs::write(dir.join("plain"), b"").unwrap();
    for (args, expected) in [
        (render_to("out"), vec!["out is a directory"]),
        (render_to("out/"), vec!["out/ is a directory"]),
        (render_to("missing/x.png"), vec!["missing/x.png", "the directory missing does not exist"]),
        (render_to("plain/x.png"), vec!["plain is not a directory"]),
        (vec!["bench", "--json", "out"], vec!["out is a directory"]),
        (vec!["bench", "--puffin", "missing/b.puffin"], vec!["does not exist"]),
        (vec!["soak", "--json", "missing/s.json"], vec!["does not exist"]),
        (vec!["pipelines", "--json", "out"], vec!["out is a directory"]),
    ] {
        let run = multidraw(&dir, &args);
        let error = assert_refused(&run, &args, &expected);
        assert!(!error.contains("image format"), "{args:?}: {error}");
        assert!(run.elapsed < Duration::from_secs(2), "{args:?} took {:?}: refused after the work?", run.elapsed);
        assert!(!run.stderr.contains("loading scene"), "{args:?} loaded the scene first:\n{}", run.stderr);
    }
    assert_eq!(names(&dir), ["out", "plain"], "nothing may be created");
    assert!(names(&dir.join("out")).is_empty());
}

/// Outputs that would overwrite each other or their input, and a pyramid level the frame
/// does not have, are refused before any work, leaving no file (issue 27, class 3).
#[test]
fn colliding_outputs_and_missing_levels_are_refused_up_front() {
    let dir = scratch("collide");
    std::fs::create_dir(dir.join("sub")).unwrap();
    std::fs::write(dir.join("model.gltf"), b"{}").unwrap();
    for (args, expected) in [
        (
            vec!["render", "--out", "f.png", "--pyramid-level", "0", "--pyramid-out", "f.png"],
            vec!["--pyramid-out f.png is the file --out writes"],
        ),
        (
            vec!["render", "--out", "f.png", "--pyramid-level", "0", "--pyramid-out", "sub/../f.png"],
            vec!["is the file --out writes"],
        ),
        (
            vec!["render", "--size", "64x64", "--out", "f.png", "--pyramid-level", "99", "--pyramid-out", "p.png"],
            vec!["--pyramid-level 99", "levels 0 to 5"],
        ),
        (vec!["import", "model.gltf", "--out", "model.gltf"], vec!["is the model itself"]),
        (vec!["import", "model.gltf", "--out", "./sub/../model.gltf"], vec!["is the model itself"]),
    ] {
        let run = multidraw(&dir, &args);
        assert_refused(&run, &args, &expected);
        assert!(run.elapsed < Duration::from_secs(2), "{args:?} took {:?}: refused after the work?", run.elapsed);
        assert!(!run.stderr.contains("loading scene"), "{args:?} loaded the scene first:\n{}", run.stderr);
    }
    assert_eq!(names(&dir), ["model.gltf", "sub"], "nothing may be written");
    assert_eq!(std::fs::read(dir.join("model.gltf")).unwrap(), b"{}", "the model is untouched");
}

/// Negative and out-of-range pixel thresholds reach the flag's own check, which says what is
/// wanted (not the parser's "unexpected argument '-1'"), before any work (issue 27, class 8).
#[test]
fn pixel_flags_say_what_they_want() {
    let dir = scratch("pixels");
    for (flag, value, expected) in [
        ("--lod-error", "-1", "expected a positive number of pixels"),
        ("--lod-error", "0", "expected a positive number of pixels"),
        ("--lod-error", "1e308", "beyond 32-bit floats"),
        ("--min-pixels", "-0.5", "0 or more"),
        ("--min-pixels", "1e39", "beyond 32-bit floats"),
    ] {
        let args = ["render", "--out", "x.png", flag, value];
        let run = multidraw(&dir, &args);
        let quoted = format!("'{value}'");
        let error = assert_refused(&run, &args, &[expected, &quoted]);
        assert!(!error.contains("unexpected argument"), "{args:?}: {error}");
        assert!(run.elapsed < Duration::from_secs(2), "{args:?} took {:?}", run.elapsed);
    }
    assert!(names(&dir).is_empty(), "files left behind: {:?}", names(&dir));
}

#[cfg(unix)]
#[test]
fn a_full_device_says_so_and_stays_a_device() {
    use std::os::unix::fs::FileTypeExt as _;
    if std::fs::OpenOptions::new().write(true).open("/dev/full").is_err() {
        eprintln!("no writable /dev/full here: skipped");
        return;
    }
    let dir = scratch("full");
    let args = render_to("/dev/full");
    let run = multidraw(&dir, &args);
    let error = assert_refused(&run, &args, &["cannot write /dev/full", "No space left on device"]);
    assert!(!error.contains("image format"), "{error}");
    let meta = std::fs::metadata("/dev/full").expect("/dev/full");
    assert!(meta.file_type().is_char_device(), "/dev/full was replaced by a file");
    assert!(!names(Path::new("/dev")).iter().any(|n| n.starts_with(".full.tmp")), "a temporary file was left in /dev");
    // A JSON report after a whole run fails the same way, having measured everything first.
    let args = ["soak", "--objects", "100", "--frames", "4", "--warmup", "1", "--every", "1", "--json", "/dev/full"];
    let run = multidraw(&dir, &args);
    assert_refused(&run, &args, &["cannot write /dev/full", "No space left on device"]);
    assert!(run.stdout.contains("growth after frame 1"), "the soak ran before writing:\n{}", run.stdout);
    // /dev/null takes any name, in place.
    let run = multidraw(&dir, &render_to("/dev/null"));
    assert!(run.success, "{}", run.stderr);
    assert!(names(&dir).is_empty());
}

#[test]
fn a_good_path_is_written_whole_with_no_temporary_left() {
    let dir = scratch("good");
    std::fs::write(dir.join("frame.png"), b"an older frame").unwrap();
    let run = multidraw(&dir, &render_to("frame.png"));
    assert!(run.success, "{}", run.stderr);
    let image = image::open(dir.join("frame.png")).expect("a whole PNG replaced the old file");
    assert_eq!((image.width(), image.height()), (64, 64));
    assert_eq!(names(&dir), ["frame.png"], "temporary files left");
}

#[test]
fn soak_refuses_to_measure_nothing_before_opening_the_device() {
    let dir = scratch("soak");
    for (args, expected) in [
        (vec!["soak", "--frames", "0"], "a soak of 0 frames measures nothing"),
        (vec!["soak", "--frames", "100", "--warmup", "100"], "--warmup 100 is not below --frames 100"),
        (vec!["soak", "--frames", "10", "--warmup", "500"], "--warmup 500 is not below --frames 10"),
        (vec!["soak", "--frames", "101", "--warmup", "100", "--every", "1"], "samples memory only once"),
    ] {
        let run = multidraw(&dir, &args);
        assert_refused(&run, &args, &[expected]);
        assert!(run.stdout.is_empty(), "{args:?} printed a report:\n{}", run.stdout);
        assert!(!run.stderr.contains("loading scene"), "{args:?} loaded the scene first");
        assert!(run.elapsed < Duration::from_secs(2), "{args:?} took {:?}", run.elapsed);
    }
    let args = ["soak", "--every", "0"];
    let run = multidraw(&dir, &args);
    assert!(!run.success && run.stderr.contains("--every"), "{}", run.stderr);
}

#[test]
fn puffin_summary_of_a_bad_file_names_it() {
    let dir = scratch("puffin");
    std::fs::write(dir.join("garbage.puffin"), b"garbage, not a capture").unwrap();
    std::fs::write(dir.join("cut.puffin"), b"PUF0PFD4\x10\x00\x00\x00abc").unwrap();
    std::fs::create_dir(dir.join("folder.puffin")).unwrap();
    for (file, cause) in [
        ("garbage.puffin", "magic header"),
        ("cut.puffin", "ends in the middle of a frame"),
        ("folder.puffin", "not a regular file"),
        ("absent.puffin", "No such file or directory"),
    ] {
        let args = ["puffin-summary", file];
        let run = multidraw(&dir, &args);
        assert_refused(&run, &args, &[&format!("{file} is not a readable .puffin capture"), cause]);
        assert!(run.stdout.is_empty(), "{args:?}: a table header before the error:\n{}", run.stdout);
    }
    // A valid capture of no frame: said so, not an empty table and success (issue 27, class 5).
    std::fs::write(dir.join("empty.puffin"), b"PUF0").unwrap();
    let args = ["puffin-summary", "empty.puffin"];
    let run = multidraw(&dir, &args);
    assert_refused(&run, &args, &["empty.puffin holds no frames to summarize"]);
    assert!(run.stdout.is_empty(), "{args:?}: output before the error:\n{}", run.stdout);
}

/// Writes a scene file whose mesh is named `name` (TOML basic-string escapes allowed) and whose
/// object asks for another mesh, so the error quotes both names.
fn scene_with_names(dir: &Path, file: &str, name: &str, wanted: &str) -> String {
    let text = format!(
        "[[mesh]]\nname = \"{name}\"\nprocedural = \"cube\"\n\n[[material]]\nname = \"m\"\n\n[[objects]]\n\
         transforms = [{{ mesh = \"{wanted}\", material = \"m\", position = [0.0, 0.0, 0.0] }}]\n"
    );
    std::fs::write(dir.join(file), text).unwrap();
    file.to_string()
}

#[test]
fn names_from_a_scene_are_escaped_and_never_empty() {
    let dir = scratch("names");
    // A NUL in a name, as TOML writes it, then as a raw byte in the file.
    let nul = scene_with_names(&dir, "nul.toml", "a\\u0000b", "\\u0000");
    let raw_nul = "raw-nul.toml";
    std::fs::write(dir.join(raw_nul), b"[scene]\nname = \"x\0y\"\n").unwrap();
    // An escape sequence that would clear the screen and turn the rest red.
    let esc = scene_with_names(&dir, "esc.toml", "\\u001b[2J\\u001b[31mRED", "\\u001b]0;title\\u0007");
    // A glTF path with a NUL: the cause is nested three deep.
    let gltf = "[[mesh]]\nname = \"g\"\ngltf = \"x\\u0000.gltf\"\n\n[[material]]\nname = \"m\"\n\n[[objects]]\n\
                transforms = [{ mesh = \"g\", material = \"m\", position = [0.0, 0.0, 0.0] }]\n";
    std::fs::write(dir.join("gltf-nul.toml"), gltf).unwrap();
    for (file, expected) in [
        (nul.as_str(), vec!["unknown mesh \"\\0\"", "did you mean \"a\\0b\"?"]),
        (raw_nul, vec!["raw-nul.toml:2:"]),
        (esc.as_str(), vec!["\\u{1b}]0;title\\u{7}", "\\u{1b}[2J\\u{1b}[31mRED"]),
        ("gltf-nul.toml", vec!["glTF file \"x\\0.gltf\"", "file name contained an unexpected NUL byte"]),
    ] {
        let args = ["render", file, "--out", "x.png"];
        let run = multidraw(&dir, &args);
        assert_refused(&run, &args, &expected);
        assert!(run.stderr.contains(&format!("loading scene {file}… \n")), "progress line not ended:\n{}", run.stderr);
    }
    assert_eq!(names(&dir), ["esc.toml", "gltf-nul.toml", "nul.toml", "raw-nul.toml"], "no output expected");
}

#[test]
fn a_name_shown_on_success_is_escaped() {
    let dir = scratch("shown");
    let text = "[scene]\nname = \"\\u001b[31mred\"\n\n[[mesh]]\nname = \"c\"\nprocedural = \"cube\"\n\n\
                [[material]]\nname = \"m\"\n\n[[objects]]\n\
                transforms = [{ mesh = \"c\", material = \"m\", position = [0.0, 0.0, 0.0] }]\n";
    std::fs::write(dir.join("red.toml"), text).unwrap();
    let run = multidraw(&dir, &["render", "red.toml", "--size", "32x32", "--out", "red.png"]);
    assert!(run.success, "{}", run.stderr);
    assert!(run.stdout.contains("scene              \\u{1b}[31mred"), "{}", run.stdout);
    assert!(!run.stdout.contains('\u{1b}'), "a raw escape reached the terminal:\n{:?}", run.stdout);
}

/// The documented empty scene (`[scene] empty = true`) is valid input: every command runs it,
/// and the frame is the background (issue 27, class 8). The soak keeps occlusion culling on:
/// lavapipe's own memory grows in one-phase frames (docs/BENCHMARKS.md § "The adaptive frame").
#[test]
fn an_empty_scene_runs_through_every_command_and_draws_the_background() {
    let dir = scratch("empty");
    std::fs::write(dir.join("empty.toml"), "[scene]\nname = \"nothing\"\nempty = true\n").unwrap();
    let commands: [&[&str]; 5] = [
        &["check", "empty.toml"],
        &["render", "empty.toml", "--size", "48x32", "--out", "empty.png"],
        &["render", "empty.toml", "--size", "48x32", "--mode", "cpu", "--out", "empty-cpu.png"],
        &["bench", "empty.toml", "--size", "48x32", "--frames", "3", "--warmup", "1", "--modes", "gpu,cpu"],
        &[
            "soak",
            "empty.toml",
            "--size",
            "48x32",
            "--frames",
            "40",
            "--warmup",
            "20",
            "--every",
            "5",
            "--occlusion",
            "on",
        ],
    ];
    for args in commands {
        let run = multidraw(&dir, args);
        assert!(run.success, "{args:?} failed:\n{}", run.stderr);
        assert!(!run.stderr.contains("warning"), "{args:?} warned:\n{}", run.stderr);
        assert!(run.elapsed < TIMEOUT, "{args:?} took {:?}", run.elapsed);
    }
    let gpu = image::open(dir.join("empty.png")).expect("a PNG").to_rgba8();
    let cpu = image::open(dir.join("empty-cpu.png")).expect("a PNG").to_rgba8();
    assert_eq!(gpu, cpu, "gpu and cpu draw the same nothing");
    let clear = multidraw::passes::main::CLEAR_COLOR;
    let want: Vec<u8> = [clear.r, clear.g, clear.b]
        .iter()
        .map(|&c| (multidraw::passes::main::srgb_encode(c) * 255.0).round() as u8)
        .collect();
    assert!(
        gpu.pixels().all(|p| p.0[..3] == want[..]),
        "every pixel the background {want:?}: {:?}",
        gpu.get_pixel(0, 0)
    );
}

/// A scene a millionth of a unit across is framed and drawn by the automatic camera as a
/// large one is (its near plane shrinks with it), not culled as too small (issue 27, class 7).
#[test]
fn a_tiny_scene_is_framed_and_drawn() {
    let dir = scratch("tiny");
    let body = "[scene]\nname = \"tiny\"\n[camera]\nauto = true\n[[mesh]]\nname = \"ball\"\nprocedural = \"sphere\"\n\
                [[material]]\nname = \"m\"\n[[objects]]\n\
                transforms = [{ mesh = \"ball\", material = \"m\", position = [0.0, 0.0, 0.0], scale = 1e-6 }]\n";
    let mut images = Vec::new();
    for (scale, out) in [("1e-6", "tiny.png"), ("1.0", "unit.png")] {
        std::fs::write(dir.join("tiny.toml"), body.replace("1e-6", scale)).unwrap();
        let args = ["render", "tiny.toml", "--size", "48x48", "--out", out];
        let run = multidraw(&dir, &args);
        assert!(run.success, "{args:?}: {}", run.stderr);
        images.push(image::open(dir.join(out)).expect("a PNG").to_rgba8());
    }
    let background = *images[1].get_pixel(0, 0);
    let covered = images[0].pixels().filter(|p| **p != background).count();
    assert!(covered > 48 * 48 / 4, "the tiny sphere covers {covered} pixels");
    let differing = common_pixels_beyond(&images[0], &images[1], 2);
    assert!(differing < 48 * 48 / 50, "the tiny scene looks like the unit one: {differing} pixels differ");
}

fn common_pixels_beyond(a: &image::RgbaImage, b: &image::RgbaImage, tolerance: u8) -> usize {
    a.pixels().zip(b.pixels()).filter(|(p, q)| p.0.iter().zip(q.0).any(|(x, y)| x.abs_diff(y) > tolerance)).count()
}
