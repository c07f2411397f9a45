//! `multidraw view`: the interactive viewer.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use multidraw::output::{self, Format};
use multidraw::profiling::Capture;
use multidraw::viewer::{self, SceneSource, ViewerOptions, ViewerScript};
use multidraw::{ContextOptions, DrawMode};

use super::detail::DetailArgs;
use super::Size;

#[derive(Args)]
pub struct ViewArgs {
    /// Scene file (TOML, see docs/SCENES.md) or a glTF model (.gltf, .glb); without one, the
    /// embedded default scene.
    scene: Option<PathBuf>,
    /// Objects in the default scene (default 100,000); not for scene files.
    #[arg(long, allow_negative_numbers = true)]
    objects: Option<u32>,
    /// Initial way of drawing (not bundle: a bundle freezes the visible set, which a moving
    /// camera invalidates).
    #[arg(long, value_enum, default_value_t = DrawMode::Gpu)]
    mode: DrawMode,
    /// Window size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x720", allow_hyphen_values = true)]
    size: Size,
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
    /// Save the run's puffin frames (start-up, then one per frame, with the GPU queue lane)
    /// for puffin_viewer when the viewer closes.
    #[arg(long)]
    puffin: Option<PathBuf>,
    #[command(flatten)]
    puffin_http: super::bench::PuffinHttpArgs,
    /// Test: switch between gpu, gpu-nocount and cpu every frame.
    #[arg(long, hide = true)]
    cycle_modes: bool,
    /// Test: shrink the window to 0×0 at frame 10 and restore it at frame 15.
    #[arg(long, hide = true)]
    resize_test: bool,
    /// Test: scroll the side panel to its end every frame and write where its items landed
    /// (JSON) when the run ends; use with --frames.
    #[arg(long, hide = true, value_name = "FILE")]
    panel_layout: Option<PathBuf>,
    #[command(flatten)]
    detail: DetailArgs,
    #[command(flatten)]
    load: super::load::LoadArgs,
    #[command(flatten)]
    views: super::views::ViewsArgs,
    #[command(flatten)]
    shadows: super::shadows::ShadowArgs,
    /// Start with objects coloured by level of detail (the panel toggles it).
    #[arg(long)]
    lod_colors: bool,
    /// Start with the depth-pyramid window open at this level.
    #[arg(long, value_name = "LEVEL")]
    pyramid_level: Option<u32>,
}

pub fn run(options: &ContextOptions, args: &ViewArgs) -> Result<()> {
    args.views.check(args.size.width)?;
    if args.mode == DrawMode::Bundle {
        anyhow::bail!(
            "the viewer has no bundle mode: a bundle freezes the visible set, which a moving camera invalidates"
        );
    }
    // Before the scene and the window: a bad screenshot path costs nothing to find.
    for path in [&args.screenshot, &args.window_screenshot].into_iter().flatten() {
        output::check(path, Format::Png)?;
    }
    for path in [&args.puffin, &args.panel_layout].into_iter().flatten() {
        output::check(path, Format::Any)?;
    }
    let capture = args.puffin.as_ref().map(|_| Capture::start(100_000));
    let _server = args.puffin_http.serve()?;
    let limits = super::load::adapter_limits(options);
    let scene = super::load_scene(args.scene.as_deref(), args.objects, limits.as_ref(), &args.load)?;
    let result = viewer::run(ViewerOptions {
        scene,
        load: args.load.options(limits.as_ref()),
        scene_source: args.scene.clone().map_or(SceneSource::Default, SceneSource::File),
        mode: args.mode,
        width: args.size.width,
        height: args.size.height,
        context: options.clone(),
        show_profiler: args.profiler,
        detail: args.detail.detail(),
        lod_colors: args.lod_colors,
        shadows: args.shadows.cascades(),
        pyramid_level: args.pyramid_level,
        script: ViewerScript {
            frames: args.frames,
            screenshot: args.screenshot.clone(),
            window_screenshot: args.window_screenshot.clone(),
            cycle_modes: args.cycle_modes,
            resize_test: args.resize_test,
            panel_layout: args.panel_layout.clone(),
        },
        views: (args.views.views, args.views.view_turn),
    });
    // Saved even when the viewer failed: the profile of a failing run is worth keeping.
    if let (Some(path), Some(capture)) = (&args.puffin, &capture) {
        let frames = capture.save(path)?;
        println!("wrote {} ({frames} puffin frames; open with puffin_viewer)", path.display());
    }
    result
}

/// Whether a window can be opened: a display server is named in the environment.
pub fn display_available() -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"].iter().any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
}
