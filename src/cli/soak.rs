//! `multidraw soak`: many GPU-driven frames of the animated scene, with host and GPU memory
//! sampled; fails when anything grows after warm-up.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use multidraw::bench::soak;
use multidraw::output::{self, Format};
use multidraw::{ContextOptions, GpuContext};

use super::detail::DetailArgs;
use super::progress::WorkProgress;
use super::Size;

#[derive(Args)]
pub struct SoakArgs {
    /// Scene file (TOML, see docs/SCENES.md) or a glTF model (.gltf, .glb); without one, the
    /// embedded default scene.
    scene: Option<PathBuf>,
    /// Override the object count of the default scene.
    #[arg(long)]
    objects: Option<u32>,
    /// Frames to render in all, warm-up included; more than --warmup, with at least two memory
    /// samples after it [default: 10,000 on a GPU, 600 on a CPU adapter such as lavapipe].
    #[arg(long)]
    frames: Option<u64>,
    /// Frames before growth is measured [default: 500 on a GPU, 100 on a CPU adapter].
    #[arg(long)]
    warmup: Option<u64>,
    /// Sample memory every this many frames [default: 250 on a GPU, 50 on a CPU adapter].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    every: Option<u64>,
    /// Render target size, WIDTHxHEIGHT (small: the soak measures memory, not pixels).
    #[arg(long, default_value = "160x90", allow_hyphen_values = true)]
    size: Size,
    /// Host memory growth after warm-up tolerated as allocator noise, in KiB.
    #[arg(long, default_value_t = 1024)]
    host_slack_kib: u64,
    /// Replace this many objects per frame (remove N, add N elsewhere, move N more) in a live
    /// copy of the scene.
    #[arg(long, default_value_t = 0)]
    churn: usize,
    /// Write the memory samples and growth as JSON.
    #[arg(long)]
    json: Option<PathBuf>,
    #[command(flatten)]
    puffin_http: super::bench::PuffinHttpArgs,
    #[command(flatten)]
    detail: DetailArgs,
    #[command(flatten)]
    shadows: super::shadows::ShadowArgs,
    #[command(flatten)]
    load: super::load::LoadArgs,
}

pub fn run(options: &ContextOptions, args: &SoakArgs) -> Result<()> {
    // Before the device: a run that would measure nothing, or write nowhere, costs nothing
    // (checked again with the adapter's defaults once it is open).
    let given = |value: Option<u64>, default: u64| value.unwrap_or(default);
    let (frames, warmup, every) = soak::default_plan(wgpu::DeviceType::DiscreteGpu);
    soak::check_plan(given(args.frames, frames), given(args.warmup, warmup), given(args.every, every))?;
    if let Some(path) = &args.json {
        output::check(path, Format::Any)?;
    }
    let ctx = GpuContext::headless(options)?;
    let (frames, warmup, every) = soak::default_plan(ctx.info.device_type);
    let (frames, warmup, every) = (given(args.frames, frames), given(args.warmup, warmup), given(args.every, every));
    soak::check_plan(frames, warmup, every)?;
    let scene = super::load_scene(args.scene.as_deref(), args.objects, Some(&ctx.limits), &args.load)?;
    let _server = args.puffin_http.serve()?;
    let mut progress = WorkProgress::new("soak");
    let report = soak::run(
        &ctx,
        &scene,
        frames,
        warmup,
        every,
        args.size.width,
        args.size.height,
        args.detail.detail(),
        args.shadows.cascades(),
        args.churn,
        &mut |done, total| progress.update(done as f64, total as f64, ""),
    )?;
    println!("adapter: {} ({:?})", ctx.info.name, ctx.info.backend);
    println!(
        "{} frames of {} objects in {:.1} s, {}x{}",
        report.frames, report.objects, report.seconds, args.size.width, args.size.height
    );
    println!(
        "{:>8} {:>14} {:>14} {:>14} {:>8} {:>12} {:>17}",
        "frame", "host RSS", "GPU buffers B", "GPU textures B", "buffers", "allocations", "wall ms med / p95"
    );
    for s in &report.samples {
        println!(
            "{:>8} {:>14} {:>14} {:>14} {:>8} {:>12} {:>17}",
            s.frame,
            s.host_rss,
            s.gpu_buffer_bytes,
            s.gpu_texture_bytes,
            s.live_buffers,
            s.memory_allocations,
            format!(
                "{} / {}",
                multidraw::bench::table::ms(s.wall_ms.median),
                multidraw::bench::table::ms(s.wall_ms.p95)
            )
        );
    }
    println!("{}", report.growth_line());
    if let Some(path) = &args.json {
        output::write(path, Format::Any, serde_json::to_string_pretty(&report)?.as_bytes())?;
    }
    if !report.flat(args.host_slack_kib * 1024) {
        anyhow::bail!("memory grew after warm-up (see the growth line above)");
    }
    println!("flat: no growth after warm-up");
    Ok(())
}
