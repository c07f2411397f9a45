//! The viewer under Xvfb with lavapipe: its screenshot is the scene (not blank, equal to the
//! headless render of the same camera and frame), resizing to 0×0 and back plus switching
//! modes every frame for 200 frames run without error, and at the default window size the side
//! panel's last item can be scrolled onto the screen and no label runs into its value.
//!
//! Needs `Xvfb` (installed by `make test`); the test fails, with that hint, when it is missing.

use std::path::{Path, PathBuf};
use std::process::{Child, Command};

struct Xvfb {
    child: Child,
    display: String,
}

impl Xvfb {
    fn start() -> Self {
        Self::with_screen("1024x768x24")
    }

    /// A server whose screen is `screen` (WIDTHxHEIGHTxDEPTH).
    fn with_screen(screen: &str) -> Self {
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let number = 100 + (std::process::id() % 500) * 4 + NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let display = format!(":{number}");
        let mut child =
            Command::new("Xvfb").args([&display, "-screen", "0", screen, "-nolisten", "tcp"]).spawn().unwrap_or_else(
                |e| panic!("cannot start Xvfb ({e}); install it with `apt-get install xvfb` or run `make test`"),
            );
        // Wait for the server's socket.
        let socket = format!("/tmp/.X11-unix/X{number}");
        for _ in 0..100 {
            if Path::new(&socket).exists() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        assert!(Path::new(&socket).exists(), "Xvfb did not come up on {display}");
        assert!(child.try_wait().expect("Xvfb status").is_none(), "Xvfb exited: is {display} taken?");
        Self { child, display }
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn out_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("viewer");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn multidraw(display: Option<&str>, args: &[&str]) -> std::process::Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_multidraw"));
    command.args(args).env_remove("WAYLAND_DISPLAY");
    match display {
        Some(display) => command.env("DISPLAY", display),
        None => command.env_remove("DISPLAY"),
    };
    let output = command.output().expect("run multidraw");
    assert!(
        output.status.success(),
        "multidraw {args:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

#[test]
fn viewer_screenshot_matches_headless_render() {
    let xvfb = Xvfb::start();
    let dir = out_dir();
    let (shot, headless) = (dir.join("viewer.png"), dir.join("headless.png"));
    let frames = 12;
    let output = multidraw(
        Some(&xvfb.display),
        &[
            "view",
            "--objects",
            "4000",
            "--size",
            "320x240",
            "--frames",
            &frames.to_string(),
            // Both runs draw with everything on: the adaptive frame would choose from each
            // run's own history (12 viewer frames against one headless frame).
            "--soft-raster",
            "on",
            "--occlusion",
            "on",
            "--deferred",
            "on",
            "--screenshot",
            shot.to_str().unwrap(),
        ],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("saved screenshot"), "{stdout}");
    // The viewer's last frame is frame `frames - 1`, at time (frames - 1) / 60 s.
    multidraw(
        None,
        &[
            "render",
            "--objects",
            "4000",
            "--size",
            "320x240",
            "--frame",
            &(frames - 1).to_string(),
            "--soft-raster",
            "on",
            "--occlusion",
            "on",
            "--deferred",
            "on",
            "--out",
            headless.to_str().unwrap(),
        ],
    );
    let a = image::open(&shot).expect("viewer screenshot").to_rgba8();
    let b = image::open(&headless).expect("headless render").to_rgba8();
    assert_eq!(a.dimensions(), b.dimensions(), "the window has the requested size");
    let background = *b.get_pixel(0, 0);
    let covered = a.pixels().filter(|p| **p != background).count();
    assert!(covered > (320 * 240) / 4, "the screenshot is mostly blank ({covered} scene pixels)");
    // Same renderer, same camera, same frame: identical up to the 0.1% bound the image tests
    // use for depth ties, and a rounding step: the window's surface is composited by the
    // full-screen pass (the hardware's sRGB encoder), the headless target in a dispatch (the
    // shader's formula; `passes::deferred`).
    let rounding = |x: &image::Rgba<u8>, y: &image::Rgba<u8>| x.0.iter().zip(y.0).all(|(p, q)| p.abs_diff(q) <= 1);
    let differing = a.pixels().zip(b.pixels()).filter(|(x, y)| !rounding(x, y)).count();
    assert!(differing <= 320 * 240 / 1000, "{differing} pixels differ between viewer and headless render");
    eprintln!("viewer vs headless: {differing} differing pixels ({stdout})");
}

#[test]
fn viewer_survives_zero_size_and_mode_switching() {
    let xvfb = Xvfb::start();
    let output = multidraw(
        Some(&xvfb.display),
        &["view", "--objects", "2000", "--size", "256x192", "--frames", "200", "--cycle-modes", "--resize-test"],
    );
    assert!(String::from_utf8_lossy(&output.stderr).lines().all(|l| !l.contains("wgpu error")));
}

/// Two views side by side in the window (`--views 2`), through mode switches and resizes (a
/// zero-size window included): every frame draws both, and wgpu reports no error.
#[test]
fn viewer_draws_two_views_through_resizes() {
    let xvfb = Xvfb::start();
    let args = ["view", "--objects", "2000", "--size", "256x192", "--views", "2", "--frames", "120", "--cycle-modes"];
    let output = multidraw(Some(&xvfb.display), &[&args[..], &["--resize-test"]].concat());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "view --views 2 failed: {stderr}");
    assert!(stderr.lines().all(|l| !l.contains("wgpu error")), "{stderr}");
}

/// The `--panel-layout` file's fields this test reads (rectangles `[left, top, right, bottom]`
/// in points).
#[derive(serde::Deserialize)]
struct PanelLayout {
    frames: u64,
    screen: [f32; 4],
    last_item: [f32; 4],
    last_item_clip: [f32; 4],
    rows: Vec<String>,
    overlapping_rows: Vec<serde_json::Value>,
}

fn inside(inner: [f32; 4], outer: [f32; 4]) -> bool {
    inner[0] >= outer[0] && inner[1] >= outer[1] && inner[2] <= outer[2] && inner[3] <= outer[3]
}

/// At the default 1280×720 the panel holds more than fits: scrolled to its end (which the run
/// does every frame), its last item lies inside the window and inside the part of the panel
/// that shows it; and from the first frame on, no row of the numbers has its label running
/// into its value (a column width learned over frames does that while rows arrive).
#[test]
fn panel_reaches_its_last_item_at_the_default_size() {
    // A screen larger than the window, so the X server does not cut the window down.
    let xvfb = Xvfb::with_screen("1600x900x24");
    let layout_path = out_dir().join("panel-layout.json");
    let _ = std::fs::remove_file(&layout_path);
    let frames = 8;
    multidraw(
        Some(&xvfb.display),
        &[
            "view",
            "--objects",
            "2000",
            "--frames",
            &frames.to_string(),
            "--panel-layout",
            layout_path.to_str().unwrap(),
        ],
    );
    let text = std::fs::read_to_string(&layout_path).expect("the viewer wrote the panel layout");
    let layout: PanelLayout = serde_json::from_str(&text).expect("panel layout JSON");
    assert_eq!(layout.frames, frames, "every frame was recorded:\n{text}");
    assert_eq!(layout.screen, [0.0, 0.0, 1280.0, 720.0], "the default window is 1280×720 points:\n{text}");
    // The pass times arrive a frame or two late; by the last frame they are there, so the
    // panel is at its full length.
    assert!(layout.rows.iter().any(|r| r.trim() == "main"), "no pass times in the panel:\n{text}");
    assert!(inside(layout.last_item, layout.screen), "the panel's last item is off the window:\n{text}");
    assert!(inside(layout.last_item, layout.last_item_clip), "the panel's last item is clipped:\n{text}");
    assert!(layout.overlapping_rows.is_empty(), "labels overlap their values:\n{text}");
}

#[test]
fn no_subcommand_without_display_prints_help() {
    let output = multidraw(None, &[]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("Usage:") && stdout.contains("no display found"), "{stdout}");
}
