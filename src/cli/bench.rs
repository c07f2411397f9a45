//! `multidraw bench`: the benchmark table, JSON, chart and puffin capture.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use multidraw::bench::{self, BenchConfig, GpuWait};
use multidraw::frame::DrawMode;
use multidraw::output::{self, Format};
use multidraw::profiling::Capture;
use multidraw::{ContextOptions, GpuContext};

use super::detail::DetailArgs;
use super::progress::WorkProgress;
use super::Size;

#[derive(Args)]
pub struct BenchArgs {
    /// Scene file (TOML, see docs/SCENES.md) or a glTF model (.gltf, .glb), run at its own
    /// object count; without one, the embedded default scene swept over --objects.
    scene: Option<PathBuf>,
    /// Object counts of the default scene to sweep, comma-separated [default: 1000,10000,100000].
    #[arg(long, value_delimiter = ',', value_parser = parse_object_count)]
    objects: Option<Vec<u32>>,
    /// Ways of drawing to run, comma-separated, in this order.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "gpu,cpu,bundle")]
    modes: Vec<DrawMode>,
    /// Measured frames per mode and object count [default: 30 on a GPU, 8 on a CPU adapter
    /// such as lavapipe].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    frames: Option<u32>,
    /// Frames rendered before measuring [default: 5 on a GPU, 2 on a CPU adapter].
    #[arg(long)]
    warmup: Option<u32>,
    /// Render target size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x720", allow_hyphen_values = true)]
    size: Size,
    /// Keep objects still (bundle rows are always still).
    #[arg(long)]
    r#static: bool,
    /// How to wait for each frame's GPU work. Default: spin on GPUs, block on CPU adapters such
    /// as lavapipe, where spinning would steal a core from the rasteriser.
    #[arg(long, value_enum)]
    wait: Option<GpuWait>,
    /// Write the results as JSON (shape in the README).
    #[arg(long)]
    json: Option<PathBuf>,
    /// Write a PNG chart of CPU record time and GPU time against object count.
    #[arg(long)]
    chart: Option<PathBuf>,
    /// Save the run's measured frames (CPU scopes + the GPU queue lane) for puffin_viewer.
    #[arg(long)]
    puffin: Option<PathBuf>,
    #[command(flatten)]
    puffin_http: PuffinHttpArgs,
    #[command(flatten)]
    detail: DetailArgs,
    #[command(flatten)]
    load: super::load::LoadArgs,
    /// Run every count twice, with LOD, size and occlusion culling all off and as the flags
    /// say, and print the GPU-time ratio.
    #[arg(long)]
    compare_detail: bool,
    /// Replace this many objects per frame (remove N, add N elsewhere, move N more) in a live
    /// copy of the scene; the table adds the upload bytes and CPU time of applying them.
    #[arg(long, default_value_t = 0)]
    churn: usize,
    #[command(flatten)]
    views: super::views::ViewsArgs,
    #[command(flatten)]
    shadows: super::shadows::ShadowArgs,
    /// Print every column (p95 of every time, the build pass, occluded objects, the timestamps'
    /// coverage, bind-group sets): about 260 characters wide; the default table fits 160.
    #[arg(long)]
    wide: bool,
}

/// `--puffin-http [ADDR]`, shared by `bench`, `view` and `soak`.
#[derive(Args)]
pub struct PuffinHttpArgs {
    /// Serve puffin frames over TCP while running; watch live with `puffin_viewer --url ADDR`.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = multidraw::profiling::DEFAULT_HTTP_ADDRESS)]
    puffin_http: Option<String>,
}

impl PuffinHttpArgs {
    /// Starts the server if asked for; keep it alive for the run.
    pub fn serve(&self) -> Result<Option<multidraw::profiling::PuffinServer>> {
        self.puffin_http.as_deref().map(multidraw::profiling::serve).transpose()
    }
}

/// One `--objects` count: a positive integer, `_` separators allowed (`100_000`).
fn parse_object_count(text: &str) -> Result<u32, String> {
    text.trim()
        .replace('_', "")
        .parse::<u32>()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| "expected positive integers, comma-separated, e.g. 1000,10000,100000".to_string())
}

pub fn run(options: &ContextOptions, args: &BenchArgs) -> Result<()> {
    args.views.check(args.size.width)?;
    if args.scene.is_some() && args.objects.is_some() {
        anyhow::bail!("--objects sweeps the embedded default scene; a scene file sets its own counts");
    }
    let ctx = GpuContext::headless(options)?;
    for (path, format) in [(&args.json, Format::Any), (&args.chart, Format::Png), (&args.puffin, Format::Any)] {
        if let Some(path) = path {
            output::check(path, format)?;
        }
    }
    let scene = match &args.scene {
        Some(path) => Some(super::load_scene(Some(path), None, Some(&ctx.limits), &args.load)?),
        None => None,
    };
    for &count in args.objects.iter().flatten() {
        args.load.check_default_objects(count, &ctx.limits)?;
    }
    let (frames, warmup) = bench::default_frames(ctx.info.device_type);
    let config = BenchConfig {
        objects: args.objects.clone().unwrap_or_else(|| bench::DEFAULT_OBJECT_COUNTS.to_vec()),
        scene,
        modes: args.modes.clone(),
        frames: args.frames.unwrap_or(frames),
        warmup: args.warmup.unwrap_or(warmup),
        width: args.size.width,
        height: args.size.height,
        animated: !args.r#static,
        gpu_wait: args.wait.unwrap_or_else(|| GpuWait::for_adapter(ctx.info.device_type)),
        detail: args.detail.detail(),
        compare_detail: args.compare_detail,
        churn: args.churn,
        views: args.views.views,
        view_turn: args.views.view_turn,
        shadows: args.shadows.cascades(),
    };
    let capture = args.puffin.as_ref().map(|_| Capture::start(100_000));
    let _server = args.puffin_http.serve()?;
    let mut progress = WorkProgress::new("bench");
    let report = bench::run(&ctx, &config, &mut progress)?;
    drop(progress);
    print!("{}", report.table(args.wide));
    super::save_driver_cache(&ctx);
    if let Some(path) = &args.json {
        output::write(path, Format::Any, serde_json::to_string_pretty(&report)?.as_bytes())?;
        println!("wrote {}", path.display());
    }
    if let Some(path) = &args.chart {
        bench::chart::write_chart(&report, path)?;
        println!("wrote {}", path.display());
    }
    if let (Some(path), Some(capture)) = (&args.puffin, &capture) {
        let frames = capture.save(path)?;
        println!("wrote {} ({frames} puffin frames; open with puffin_viewer)", path.display());
    }
    Ok(())
}
