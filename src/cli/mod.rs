//! Argument parsing and the subcommands.

mod bench;
mod check;
mod detail;
mod import;
mod load;
mod pipelines;
pub mod progress;
mod puffin_summary;
mod render;
mod soak;
mod view;

use anyhow::Result;
use clap::{Parser, Subcommand};

use multidraw::gpu::DriverCacheSource;
use multidraw::{ContextOptions, GpuContext};

#[derive(Parser)]
#[command(
    name = "multidraw",
    version,
    about = "GPU-driven indirect drawing engine on wgpu: GPU culling + multi-draw-indirect vs a CPU-recorded baseline"
)]
pub struct Cli {
    /// Keep wgpu's per-sub-draw CPU validation of indirect draws (off by default: the engine
    /// bounds every draw it writes, and the validation makes recording cost grow with the draw count).
    #[arg(long, global = true)]
    validate_indirect: bool,
    /// Without a subcommand: `view` when a display is available, otherwise this help.
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Print the adapter, backend, features used, limits and the indirect-validation choice.
    Info,
    /// Render one frame of a scene (default: the embedded one) headless and write it as a PNG.
    Render(render::RenderArgs),
    /// Benchmark the ways of drawing over object counts: table, JSON, chart, puffin capture.
    Bench(bench::BenchArgs),
    /// List every pipeline with key, compile time and cache hits; cold vs warm start-up; first vs steady frames.
    Pipelines(pipelines::PipelinesArgs),
    /// Open the interactive viewer: fly through the scene, switch modes live, profile in puffin (F1).
    View(view::ViewArgs),
    /// Render many GPU-driven frames and check that host and GPU memory stay flat.
    Soak(soak::SoakArgs),
    /// Write the scene file that shows a glTF model (.gltf or .glb), once or on a grid; render,
    /// view and bench also take a model directly in place of a scene file.
    Import(import::ImportArgs),
    /// Load a scene and check it against the budget and the adapter's limits, without rendering.
    #[command(hide = true)]
    Check(check::CheckArgs),
    /// Print where the time goes in a .puffin capture, by mode and object count: CPU and GPU
    /// frame time, then every scope path with count, median and total ms.
    PuffinSummary(puffin_summary::PuffinSummaryArgs),
}

/// A `WxH` size with both sides at least 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    pub width: u32,
    pub height: u32,
}

impl std::str::FromStr for Size {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || {
            format!("invalid size \"{s}\": expected WIDTHxHEIGHT with both at least 1 and at most 16384, e.g. 1280x720")
        };
        let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
        let (width, height) =
            (w.trim().parse::<u32>().map_err(|_| bad())?, h.trim().parse::<u32>().map_err(|_| bad())?);
        if width == 0 || height == 0 || width > 16384 || height > 16384 {
            return Err(bad());
        }
        Ok(Size { width, height })
    }
}

pub fn run() -> Result<()> {
    let cli = Cli::parse();
    let options = ContextOptions { validate_indirect: cli.validate_indirect, driver_cache: DriverCacheSource::Disk };
    let command = match cli.command {
        Some(command) => command,
        None if view::display_available() => {
            Cli::parse_from(["multidraw", "view"]).command.expect("`view` parses to a subcommand")
        }
        None => {
            use clap::CommandFactory;
            Cli::command().print_help()?;
            println!("\n(no display found, so no viewer; try `multidraw render --out frame.png` or `multidraw bench`)");
            return Ok(());
        }
    };
    match command {
        Command::Info => info(&options),
        Command::Render(args) => render::run(&options, &args),
        Command::Bench(args) => bench::run(&options, &args),
        Command::Pipelines(args) => pipelines::run(&options, &args),
        Command::View(args) => view::run(&options, &args),
        Command::Soak(args) => soak::run(&options, &args),
        Command::Check(args) => check::run(&options, &args),
        Command::Import(args) => import::run(&args),
        Command::PuffinSummary(args) => puffin_summary::run(&args),
    }
}

fn info(options: &ContextOptions) -> Result<()> {
    let ctx = GpuContext::headless(options)?;
    let max_objects = multidraw::gpu_scene::max_objects(&ctx.limits);
    for (key, value) in
        ctx.describe().into_iter().chain([("max objects (storage binding limit)".into(), max_objects.to_string())])
    {
        println!("{key:<38} {value}");
    }
    Ok(())
}

/// Saves the driver's pipeline cache for the next run; a failure costs only the next start-up,
/// so it is a warning.
pub fn save_driver_cache(ctx: &GpuContext) {
    if let Err(error) = ctx.save_driver_cache() {
        eprintln!("warning: could not save the pipeline cache: {error}");
    }
}

/// The scene of a command: a scene file, or the embedded default scene, whose object count
/// `objects` may override. Every command loads through here: the file and what it names are
/// read through the sandbox (`load.allow_dirs`), and the scene is checked against the budget
/// (`load.max_memory`, and `limits`, the adapter's, when known) before anything is generated.
pub fn load_scene(
    path: Option<&std::path::Path>,
    objects: Option<u32>,
    limits: Option<&wgpu::Limits>,
    load: &load::LoadArgs,
) -> Result<multidraw::scene::Scene> {
    use multidraw::scene::file;
    let options = load.options(limits);
    let start = std::time::Instant::now();
    progress::start_line(format_args!(
        "loading scene {}… ",
        path.map_or("(embedded default)".into(), |p| p.display().to_string())
    ));
    let scene = match (path, objects) {
        (Some(path), None) => file::load_with(path, &options),
        (Some(_), Some(_)) => {
            progress::end_open_line();
            anyhow::bail!("--objects applies to the embedded default scene only; a scene file sets its own counts")
        }
        (None, objects) => file::default_scene_within(objects.unwrap_or(DEFAULT_OBJECTS), &options.budget),
    };
    if let Ok(scene) = &scene {
        progress::finish_line(format_args!(
            "{} objects in {:.2} s",
            scene.objects.len(),
            start.elapsed().as_secs_f64()
        ));
        for note in &scene.notes {
            eprintln!("warning: {}", multidraw::text::escape_for_terminal(note));
        }
    } else {
        progress::end_open_line();
    }
    Ok(scene?)
}

/// Objects in the embedded default scene (scenes/default.toml).
pub const DEFAULT_OBJECTS: u32 = 100_000;
