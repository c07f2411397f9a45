//! `multidraw render`: one headless frame of a scene to a PNG.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use clap::Args;

use multidraw::gpu::target::{OffscreenTarget, COLOR_FORMAT};
use multidraw::output::{self, Format};
use multidraw::{ContextOptions, DrawMode, FrameInput, GpuContext, Renderer};

use super::detail::DetailArgs;
use super::Size;

#[derive(Args)]
pub struct RenderArgs {
    /// Scene file (TOML, see docs/SCENES.md) or a glTF model (.gltf, .glb); without one, the
    /// embedded default scene.
    scene: Option<PathBuf>,
    /// Way of drawing.
    #[arg(long, value_enum, default_value_t = DrawMode::Gpu)]
    mode: DrawMode,
    /// Objects in the default scene (default 100,000); not for scene files.
    #[arg(long, allow_negative_numbers = true)]
    objects: Option<u32>,
    /// Image size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x720", allow_hyphen_values = true)]
    size: Size,
    /// Frame number to render (animation time = frame / 60 s).
    #[arg(long, default_value_t = 0)]
    frame: u32,
    /// Draw every object (no culling), to compare.
    #[arg(long)]
    no_cull: bool,
    /// Output PNG.
    #[arg(long)]
    out: PathBuf,
    #[command(flatten)]
    detail: DetailArgs,
    #[command(flatten)]
    load: super::load::LoadArgs,
    #[command(flatten)]
    views: super::views::ViewsArgs,
    #[command(flatten)]
    shadows: super::shadows::ShadowArgs,
    /// Tint every surface by the shadow cascade that covers it (red, green, blue, yellow;
    /// beyond the shadows untinted).
    #[arg(long)]
    cascade_colors: bool,
    /// Colour objects by their level of detail (white: level 0, then blue, green, yellow,
    /// orange, red).
    #[arg(long)]
    lod_colors: bool,
    /// Also write this depth-pyramid level as a grey PNG (needs occlusion culling on or auto,
    /// which it then keeps on, and a GPU-culled mode); see --pyramid-out.
    #[arg(long, value_name = "LEVEL", requires = "pyramid_out")]
    pyramid_level: Option<u32>,
    /// Where --pyramid-level writes its image.
    #[arg(long, value_name = "PNG", requires = "pyramid_level")]
    pyramid_out: Option<PathBuf>,
}

pub fn run(options: &ContextOptions, args: &RenderArgs) -> Result<()> {
    args.views.check(args.size.width)?;
    // Before the device and the scene: a bad path costs nothing to find.
    output::check(&args.out, Format::Png)?;
    if let Some(path) = &args.pyramid_out {
        if output::same_file(path, &args.out) {
            anyhow::bail!(
                "--pyramid-out {} is the file --out writes: name another file for the pyramid",
                path.display()
            );
        }
        output::check(path, Format::Png)?;
    }
    if let Some(level) = args.pyramid_level {
        // The first view's pyramid, which is the one written: its size is the view's.
        let width = args.size.width / args.views.views.max(1);
        let levels = multidraw::passes::pyramid::level_sizes(width, args.size.height).len() as u32;
        if level >= levels {
            anyhow::bail!(
                "--pyramid-level {level}: the pyramid of a {width}x{} view has levels 0 to {}",
                args.size.height,
                levels - 1
            );
        }
    }
    // Where the time goes, printed last: a render of a large scene spends seconds before and
    // after its frame, and the frame's own timings are a small part.
    let mut times = StepTimes::default();
    let ctx = GpuContext::headless(options)?;
    times.lap("device");
    let mut scene = super::load_scene(args.scene.as_deref(), args.objects, Some(&ctx.limits), &args.load)?;
    times.lap("load");
    // Bundles freeze the visible set, so they are rendered static, as the bench does.
    if args.mode == DrawMode::Bundle {
        scene.set_animated(false);
    }
    let mut renderer = Renderer::new(&ctx, &scene, COLOR_FORMAT)?;
    times.lap("build");
    let startup = renderer.startup;
    eprintln!(
        "uploaded and compiled in {:.2} s (upload {:.0} ms in parallel with pipelines {:.0} ms, prewarm {:.0} ms)",
        startup.total_ms / 1e3,
        startup.upload_ms,
        startup.pipelines_ms,
        startup.prewarm_ms
    );
    let target = OffscreenTarget::new(&ctx.device, args.size.width, args.size.height);
    let mut detail = args.detail.detail();
    if args.pyramid_level.is_some() {
        // The pyramid is what was asked for: occlusion culling left to auto runs in every frame
        // (the adaptive frame may start without it, as on a CPU adapter).
        detail.auto_occlusion = false;
    }
    let input = FrameInput {
        time: args.frame as f32 / 60.0,
        cull_enabled: !args.no_cull,
        detail,
        lod_colors: args.lod_colors,
        cascade_colors: args.cascade_colors,
        shadows: args.shadows.cascades(),
        ..FrameInput::new(scene.camera, args.mode)
    };
    if args.pyramid_level.is_some() && !renderer.two_phase(&input) {
        anyhow::bail!(
            "--pyramid-level needs the depth pyramid: occlusion culling on (the default) and a GPU-culled mode"
        );
    }
    let views = args.views.views(&input, args.size.width, args.size.height);
    if renderer.two_phase(&input) {
        // Occlusion culling's first phase draws what the previous frame saw: render the frame
        // twice before (the first finds everything visible against an empty pyramid, the
        // second sorts out what is hidden), so the printed frame is a steady one, as in an
        // animation.
        for _ in 0..2 {
            renderer.render_views(&ctx, &target.frame_target(), &input, &views);
            ctx.wait_idle();
        }
    }
    let stats = renderer.render_views(&ctx, &target.frame_target(), &input, &views);
    ctx.wait_idle();
    let readbacks = renderer.collect(&ctx.device);
    let readback = readbacks.iter().find(|r| r.frame == stats.frame);
    let visible = stats.cpu_visible.or_else(|| readback.and_then(|r| r.visible));
    times.lap("frames");
    let image = target.read_rgba(&ctx.device, &ctx.queue);
    times.lap("read back");
    let errors = ctx.take_errors();
    if !errors.is_empty() {
        anyhow::bail!("the GPU reported {} error(s); first: {}", errors.len(), errors[0]);
    }
    output::write_png(&args.out, &image)?;
    times.lap("write");
    if let (Some(level), Some(path)) = (args.pyramid_level, &args.pyramid_out) {
        // The level was checked against the view's size before any work.
        let (width, height, gray) = renderer.pyramid(0).level_image(&ctx.device, &ctx.queue, level);
        let image = image::GrayImage::from_raw(width, height, gray).expect("one byte per texel");
        output::write_png(path, &image)?;
        times.lap("pyramid");
        println!("pyramid level {level}   {width}x{height} -> {}", path.display());
    }
    println!("adapter            {} ({:?})", ctx.info.name, ctx.info.backend);
    println!("scene              {}", multidraw::text::display_name(&scene.name));
    println!("mode               {}", args.mode);
    println!("objects            {}", renderer.buffers.object_count);
    println!("visible objects    {}", visible.map_or("unknown".into(), |v| v.to_string()));
    if views.len() > 1 {
        let per_view: Vec<String> = (0..views.len())
            .map(|k| match readback.and_then(|r| r.view_counters[k]) {
                Some(c) => c.visible.to_string(),
                None => "unknown".into(),
            })
            .collect();
        println!("views              {} side by side, visible {}", views.len(), per_view.join(" / "));
    }
    let detail = input.detail;
    println!(
        "detail             lod {} (error {} px), min size {} px, occlusion {}, soft raster {}",
        if detail.lod { "on" } else { "off" },
        detail.lod_error_px,
        detail.min_pixels,
        if stats.two_phase { "on" } else { "off" },
        if renderer.soft_raster(&input) { "on" } else { "off" }
    );
    if let Some(c) = stats.cpu_counts {
        println!("in frustum         {}", c.in_frustum);
        println!("too small          {}", c.too_small);
        println!("drawn              {}", c.visible);
        println!("triangles          {}", c.triangles);
        println!("objects per level  {:?}", c.levels);
    } else if let Some(c) = readback.and_then(|r| r.counters) {
        println!("in frustum         {}", c.in_frustum);
        println!("too small          {}", c.too_small);
        println!("occluded           {}", c.occluded);
        println!("drawn (phase 1+2)  {} + {}", c.drawn[0], c.drawn[1]);
        println!("  compute raster   {}", c.soft);
        println!("triangles          {}", c.triangles);
        println!("objects per level  {:?}", c.levels);
    }
    if stats.shadow_cascades > 0 {
        let casters: Vec<String> = (0..stats.shadow_cascades as usize)
            .map(|k| {
                let cpu = stats.cascade_counts[k].map(|c| c.visible);
                let gpu = readback.and_then(|r| r.cascade_counters[0][k]).map(|c| c.drawn[0] + c.drawn[1]);
                cpu.or(gpu).map_or("unknown".into(), |n| n.to_string())
            })
            .collect();
        println!("shadows            {} cascades, casters drawn {}", stats.shadow_cascades, casters.join(" / "));
    } else {
        println!("shadows            off");
    }
    println!("draw commands      {}", stats.commands.draw_commands());
    println!("bind group sets    {:?} (per group, whole frame)", stats.commands.bind_group_sets());
    println!("cpu record time    {:.3} ms", stats.record_ms);
    if stats.mode == DrawMode::Cpu {
        println!("cpu cull time      {:.3} ms", stats.cpu_cull_ms);
    }
    super::save_driver_cache(&ctx);
    times.lap("driver cache");
    println!("time               {}", times.line(&startup));
    println!("wrote              {}", args.out.display());
    if let Some(path) = &args.pyramid_out {
        println!("wrote              {}", path.display());
    }
    Ok(())
}

/// Wall-clock time of each step of a render, in order.
struct StepTimes {
    last: Instant,
    steps: Vec<(&'static str, f64)>,
}

impl Default for StepTimes {
    fn default() -> Self {
        Self { last: Instant::now(), steps: Vec::new() }
    }
}

impl StepTimes {
    /// The step `name` ends now.
    fn lap(&mut self, name: &'static str) {
        let now = Instant::now();
        self.steps.push((name, (now - self.last).as_secs_f64()));
        self.last = now;
    }

    /// "12.41 s: device 0.21, load 1.02, build 9.80 (upload 0.61 in parallel with pipelines
    /// 8.95, prewarm 0.70), frames 0.91, …", the build step split as the renderer timed it.
    fn line(&self, startup: &multidraw::frame::StartupTimes) -> String {
        let total: f64 = self.steps.iter().map(|(_, s)| s).sum();
        let steps: Vec<String> = self
            .steps
            .iter()
            .map(|&(name, seconds)| match name {
                "build" => format!(
                    "build {seconds:.2} (upload {:.2} in parallel with pipelines {:.2}, prewarm {:.2})",
                    startup.upload_ms / 1e3,
                    startup.pipelines_ms / 1e3,
                    startup.prewarm_ms / 1e3
                ),
                _ => format!("{name} {seconds:.2}"),
            })
            .collect();
        format!("{total:.2} s: {}", steps.join(", "))
    }
}
