//! `multidraw view`: the interactive viewer.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Result;
use clap::Args;

use multidraw::scene::generator::{stress_scene, StressParams};
use multidraw::viewer::{self, ViewerOptions};
use multidraw::{ContextOptions, DrawMode};

use super::Size;

#[derive(Args)]
pub struct ViewArgs {
    /// Scene: only the embedded default stress scene for now ("default").
    #[arg(default_value = "default")]
    scene: String,
    /// Objects in the default stress scene.
    #[arg(long, default_value_t = 100_000, allow_negative_numbers = true)]
    objects: u32,
    /// Initial mode: gpu, gpu-nocount, gpu-per-object or cpu.
    #[arg(long, default_value = "gpu")]
    mode: DrawMode,
    /// Window size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x720", allow_hyphen_values = true)]
    size: Option<Size>,
    /// Exit after N frames (animation then advances exactly 1/60 s per frame).
    #[arg(long)]
    frames: Option<u64>,
    /// Save the scene of the last frame (without the UI) as a PNG; use with --frames.
    #[arg(long)]
    screenshot: Option<PathBuf>,
    /// Save the whole window (scene + UI) of the last frame as a PNG; use with --frames.
    #[arg(long)]
    window_screenshot: Option<PathBuf>,
    /// Open the puffin profiler window at start (F1 toggles it).
    #[arg(long)]
    profiler: bool,
    /// Test: switch between gpu, gpu-nocount and cpu every frame.
    #[arg(long, hide = true)]
    cycle_modes: bool,
    /// Test: shrink the window to 0×0 at frame 10 and restore it at frame 15.
    #[arg(long, hide = true)]
    resize_test: bool,
}

pub fn run(options: &ContextOptions, args: &ViewArgs) -> Result<()> {
    if args.scene != "default" {
        anyhow::bail!("unknown scene \"{}\": only the embedded default scene (\"default\") is available", args.scene);
    }
    if args.mode == DrawMode::Bundle {
        anyhow::bail!("the viewer has no bundle mode: a bundle freezes the visible set, which a moving camera invalidates");
    }
    let size = args.size.unwrap_or(Size { width: 1280, height: 720 });
    let scene = stress_scene(&StressParams { objects: args.objects, ..StressParams::default() });
    viewer::run(ViewerOptions {
        scene,
        mode: args.mode,
        width: size.width,
        height: size.height,
        context: options.clone(),
        frames: args.frames,
        screenshot: args.screenshot.clone(),
        window_screenshot: args.window_screenshot.clone(),
        show_profiler: args.profiler,
        cycle_modes: args.cycle_modes,
        resize_test: args.resize_test,
        scene_builder: Arc::new(|objects| Ok(stress_scene(&StressParams { objects, ..StressParams::default() }))),
    })
}

/// Whether a window can be opened: a display server is named in the environment.
pub fn display_available() -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"].iter().any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
}
