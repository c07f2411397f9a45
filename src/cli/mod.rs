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
mod shadows;
mod soak;
mod view;
mod views;

use anyhow::Result;
use clap::{Args, Parser, Subcommand};

use multidraw::gpu::DriverCacheSource;
use multidraw::{ContextOptions, GpuContext};

#[derive(Parser)]
#[command(
    name = "multidraw",
    version,
    about = "GPU-driven indirect drawing engine on wgpu: GPU culling + multi-draw-indirect vs a CPU-recorded baseline"
)]
pub struct Cli {
    /// `multidraw --validate-indirect bench`, the flag's place before it moved to the commands
    /// that open a device; hidden, and refused before a command that opens none.
    #[arg(long = "validate-indirect", hide = true)]
    validate_indirect_before: bool,
    /// Without a subcommand: `view` when a display is available, otherwise this help.
    #[command(subcommand)]
    command: Option<Command>,
}

/// Options of the commands that open a device.
#[derive(Args, Clone, Copy, Debug, Default)]
pub struct DeviceArgs {
    /// Keep wgpu's per-sub-draw CPU validation of indirect draws (off by default: the engine
    /// bounds every draw it writes, and the validation makes recording cost grow with the draw count).
    #[arg(long)]
    validate_indirect: bool,
}

/// Each command that opens a device takes [`DeviceArgs`]; `import` and `puffin-summary` open
/// none, so they do not offer them.
#[derive(Subcommand)]
enum Command {
    /// Print the adapter, backend, features used, limits and the indirect-validation choice.
    Info {
        #[command(flatten)]
        device: DeviceArgs,
    },
    /// Render one frame of a scene (default: the embedded one) headless and write it as a PNG.
    Render {
        #[command(flatten)]
        args: render::RenderArgs,
        #[command(flatten)]
        device: DeviceArgs,
    },
    /// Benchmark the ways of drawing over object counts: table, JSON, chart, puffin capture.
    Bench {
        #[command(flatten)]
        args: bench::BenchArgs,
        #[command(flatten)]
        device: DeviceArgs,
    },
    /// List every pipeline with key, compile time and cache hits; cold vs warm start-up; first vs steady frames.
    Pipelines {
        #[command(flatten)]
        args: pipelines::PipelinesArgs,
        #[command(flatten)]
        device: DeviceArgs,
    },
    /// Open the interactive viewer: fly through the scene, switch modes live, profile in puffin (F1).
    View {
        #[command(flatten)]
        args: view::ViewArgs,
        #[command(flatten)]
        device: DeviceArgs,
    },
    /// Render many GPU-driven frames and check that host and GPU memory stay flat.
    Soak {
        #[command(flatten)]
        args: soak::SoakArgs,
        #[command(flatten)]
        device: DeviceArgs,
    },
    /// Write the scene file that shows a glTF model (.gltf or .glb), once or on a grid; render,
    /// view and bench also take a model directly in place of a scene file.
    Import(import::ImportArgs),
    /// Load a scene and check it against the budget and the adapter's limits, without rendering.
    #[command(hide = true)]
    Check {
        #[command(flatten)]
        args: check::CheckArgs,
        #[command(flatten)]
        device: DeviceArgs,
    },
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
    let options = |device: DeviceArgs| ContextOptions {
        validate_indirect: device.validate_indirect || cli.validate_indirect_before,
        driver_cache: DriverCacheSource::Disk,
    };
    if cli.validate_indirect_before && matches!(command, Command::Import(_) | Command::PuffinSummary(_)) {
        anyhow::bail!(
            "--validate-indirect applies to the commands that draw (render, bench, pipelines, view, soak, info); \
             this one opens no device"
        );
    }
    match command {
        Command::Info { device } => info(&options(device)),
        Command::Render { args, device } => render::run(&options(device), &args),
        Command::Bench { args, device } => bench::run(&options(device), &args),
        Command::Pipelines { args, device } => pipelines::run(&options(device), &args),
        Command::View { args, device } => view::run(&options(device), &args),
        Command::Soak { args, device } => soak::run(&options(device), &args),
        Command::Check { args, device } => check::run(&options(device), &args),
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
