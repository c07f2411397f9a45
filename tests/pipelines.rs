//! The pipeline cache: one compilation per key (also under concurrent requests), layout
//! identity in the key, typed errors for broken shaders, the persistent cache file's checks,
//! and one bind-group set per group while every variant gets its own `set_pipeline`.

mod common;

use std::sync::{Arc, Barrier};

use multidraw::gpu::target::{OffscreenTarget, COLOR_FORMAT};
use multidraw::gpu::GpuContext;
use multidraw::gpu_scene::Layouts;
use multidraw::passes::main::{variant_spec, SHADER};
use multidraw::pipelines::{disk, PipelineCache, PipelineError, ShaderSpec};
use multidraw::scene::Variant;
use multidraw::tunables::WORKGROUP_SIZE;
use multidraw::DrawMode;

fn draw_shader() -> ShaderSpec {
    SHADER.spec(WORKGROUP_SIZE)
}

/// The universal render layout of the context's device.
fn render_layout(ctx: &GpuContext) -> wgpu::PipelineLayout {
    Layouts::shared(&ctx.device, &ctx.pipelines).render.clone()
}

#[test]
fn same_descriptor_compiles_once() {
    let ctx = common::context();
    let cache = PipelineCache::new(ctx.device.clone(), None);
    let spec = variant_spec(&render_layout(&ctx), &draw_shader(), Variant::Opaque, COLOR_FORMAT);
    let first = cache.render(&spec).expect("compiles");
    let second = cache.render(&spec.clone()).expect("served");
    assert_eq!(first, second, "the same pipeline object comes back");
    assert_eq!(cache.compilations(), 1);
    let records = cache.records();
    let hits: Vec<bool> = records.iter().filter(|r| r.kind == "render").map(|r| r.cache_hit).collect();
    assert_eq!(hits, [false, true]);
}

#[test]
fn concurrent_requests_for_one_key_compile_once() {
    let ctx = common::context();
    let cache = Arc::new(PipelineCache::new(ctx.device.clone(), None));
    let spec = variant_spec(&render_layout(&ctx), &draw_shader(), Variant::Masked, COLOR_FORMAT);
    let barrier = Arc::new(Barrier::new(2));
    let threads: Vec<_> = (0..2)
        .map(|_| {
            let (cache, spec, barrier) = (cache.clone(), spec.clone(), barrier.clone());
            std::thread::spawn(move || {
                barrier.wait();
                cache.render(&spec).expect("compiles")
            })
        })
        .collect();
    let pipelines: Vec<_> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    assert_eq!(pipelines[0], pipelines[1]);
    assert_eq!(cache.compilations(), 1, "the second request waited for the first compilation");
}

#[test]
fn equal_but_distinct_layouts_are_different_keys() {
    let ctx = common::context();
    let cache = PipelineCache::new(ctx.device.clone(), None);
    let (a, b) = (Layouts::new(&ctx.device), Layouts::new(&ctx.device));
    let shader = draw_shader();
    let spec_a = variant_spec(&a.render, &shader, Variant::Opaque, COLOR_FORMAT);
    let spec_b = variant_spec(&b.render, &shader, Variant::Opaque, COLOR_FORMAT);
    assert_ne!(spec_a.key(), spec_b.key());
    let (pa, pb) = (cache.render(&spec_a).unwrap(), cache.render(&spec_b).unwrap());
    assert_ne!(pa, pb);
    assert_eq!(cache.compilations(), 2);
    // Any content change is a different key too.
    let other_format = variant_spec(&a.render, &shader, Variant::Opaque, wgpu::TextureFormat::Bgra8UnormSrgb);
    assert_ne!(spec_a.key(), other_format.key());
}

#[test]
fn broken_shader_is_a_typed_error_naming_the_pipeline() {
    let ctx = common::context();
    let cache = PipelineCache::new(ctx.device.clone(), None);
    let mut shader = draw_shader();
    shader.source = Arc::new(
        shader.source.replace("vertex_out(vertex, index, instances[instance])", "vertex_out(vertex, index, missing)"),
    );
    let spec = variant_spec(&render_layout(&ctx), &shader, Variant::Opaque, COLOR_FORMAT);
    match cache.render(&spec) {
        Err(PipelineError::Compile { label, message }) => {
            assert_eq!(label, "main opaque");
            assert!(message.contains("missing"), "message should name the problem: {message}");
        }
        Ok(_) => panic!("a broken shader compiled"),
    }
    common::assert_no_gpu_errors(&ctx);
}

#[test]
fn wgpu_validation_error_is_caught_by_the_scope() {
    // Valid WGSL, invalid pipeline: the fragment entry point does not exist. Only wgpu's
    // validation (in the error scope) can catch this one.
    let ctx = common::context();
    let cache = PipelineCache::new(ctx.device.clone(), None);
    let mut spec = variant_spec(&render_layout(&ctx), &draw_shader(), Variant::Opaque, COLOR_FORMAT);
    spec.label = "no such entry".into();
    spec.fragment_entry = Some("fs_does_not_exist".into());
    let error = cache.render(&spec).expect_err("an unknown entry point must fail");
    assert_eq!(error.label(), "no such entry");
    assert!(error.to_string().contains("fs_does_not_exist"), "{error}");
    common::assert_no_gpu_errors(&ctx);
}

#[test]
fn every_variant_shares_the_bind_groups() {
    let ctx = common::context();
    let mut scene = common::scene(4_000, true);
    // One material per variant: the scene then uses all five.
    for (material, variant) in scene.materials.iter_mut().zip(Variant::ALL) {
        material.variant = variant;
    }
    let mut renderer = common::renderer(&ctx, &scene);
    assert!(renderer.prepared.variants.iter().all(|v| v.object_count > 0), "every variant is used");
    let target = OffscreenTarget::new(&ctx.device, 64, 64);
    for mode in [DrawMode::Gpu, DrawMode::GpuNocount, DrawMode::Cpu] {
        let stats = renderer.render(&ctx, &target.frame_target(), &common::input(&scene, mode, 0.3));
        ctx.wait_idle();
        // gpu and gpu-nocount start the frame's last main pass with the compute rasteriser's
        // resolve, which sets its own pipeline and groups 0 and 1 once more, unless the frame
        // is deferred (its composite resolves those pixels).
        let last = if stats.two_phase { multidraw::passes::main::LATE_NAME } else { multidraw::passes::main::NAME };
        let main_pass = stats.commands.pass(last);
        assert_eq!(stats.soft, mode != DrawMode::Cpu, "{mode}: the compute rasteriser runs on lavapipe");
        let resolve = (stats.soft && !stats.deferred) as u32;
        assert_eq!(main_pass.set_bind_group, [1 + resolve, 1 + resolve, 1], "{mode}: each group set once");
        // The GPU-driven modes draw the blend variant in a pass of its own, the CPU modes last in
        // their main pass, or in a pass of their own after a deferred renderer's composite
        // (lavapipe's).
        let deferred = renderer.deferred_shading();
        let in_main = if mode == DrawMode::Cpu && !deferred { 5 } else { 4 };
        assert_eq!(main_pass.set_pipeline, in_main + resolve, "{mode}: one set_pipeline per variant (and the resolve)");
        if mode != DrawMode::Cpu || deferred {
            let blended = stats.commands.pass(multidraw::passes::blend::NAME);
            assert_eq!((blended.set_pipeline, blended.set_bind_group), (1, [1, 1, 1]), "{mode}: the blended pass");
        }
    }
    common::assert_no_gpu_errors(&ctx);
}

#[test]
fn renderer_start_up_compiles_each_pipeline_once_and_prewarms() {
    let ctx = common::context();
    let scene = common::scene(1_000, true);
    let first = common::renderer(&ctx, &scene);
    let compiled = ctx.pipelines.compilations();
    // Per phase, one raster pipeline, or one per part of its list with masked objects apart.
    let raster = 2 * if multidraw::passes::raster::masked_apart(ctx.info.device_type) { 2 } else { 1 };
    assert_eq!(
        compiled,
        44 + raster,
        "6 cull (batched and per object, one per phase) + 2 build + 1 occluder sort + 1 blend sort + 3 pyramid + 1 scatter + {raster} \
         raster + 2 shade list + 2 shade compute + 1 mark + 5 render + 1 pulled blend (frames without a draw count) + 1 \
         resolve + 3 shadow depth (opaque and debug draw the same depth: one pipeline; blended objects cast \
         none) + 1 shadow merge + 3 environment prefilter pipelines; deferred shading (lavapipe has primitive_index): the 5 \
         render variants and the pulled blend again, drawing into the ids target, the list, the plain and \
         textured shading and the composite, which also resolves the compute rasteriser's pixels in a deferred \
         frame (its list arguments are the compute rasteriser's), as a full-screen draw and as a dispatch (a \
         target that can be written as storage) = 33 + {raster} + 11"
    );
    assert!(first.startup.prewarm_ms > 0.0);
    let _second = common::renderer(&ctx, &scene);
    assert_eq!(ctx.pipelines.compilations(), compiled, "a second renderer on the same device reuses every pipeline");
}

#[test]
fn cache_file_round_trips_and_rejects_bad_files() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("pcache-{}", std::process::id()));
    let path = disk::cache_file(&dir, "key-a");
    assert_eq!(disk::load(&path, "key-a"), Ok(None), "no file is not an error");
    let data: Vec<u8> = (0..=255).collect();
    disk::save(&path, "key-a", &data).unwrap();
    assert_eq!(disk::load(&path, "key-a"), Ok(Some(data.clone())));

    let foreign = disk::load(&path, "key-b").expect_err("another adapter's file");
    assert!(foreign.contains("another adapter or driver"), "{foreign}");

    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xFF;
    std::fs::write(&path, &bytes).unwrap();
    assert!(disk::load(&path, "key-a").unwrap_err().contains("checksum"));

    std::fs::write(&path, &bytes[..10]).unwrap();
    assert!(disk::load(&path, "key-a").unwrap_err().contains("truncated"));
    std::fs::write(&path, b"garbage!garbage!").unwrap();
    assert!(disk::load(&path, "key-a").unwrap_err().contains("not a multidraw pipeline cache"));
}

#[test]
fn corrupt_cache_file_starts_cold_with_a_warning() {
    use multidraw::gpu::DriverCacheSource;
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("pcache-env-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // SAFETY: no other thread of this test binary reads the environment concurrently with this
    // test's device creation (tests run with --test-threads=1, see the Makefile).
    unsafe { std::env::set_var("MULTIDRAW_CACHE_DIR", &dir) };
    let probe = common::context();
    let (Some(key), true) = (disk::cache_key(&probe.info), probe.features.contains(wgpu::Features::PIPELINE_CACHE))
    else {
        eprintln!("skipped: {} has no pipeline cache (PIPELINE_CACHE is Vulkan-only)", probe.info.name);
        return;
    };
    std::fs::write(disk::cache_file(&dir, &key), b"MDPC\x01\0\0\0corrupt").unwrap();
    let options = multidraw::ContextOptions { driver_cache: DriverCacheSource::Disk, ..Default::default() };
    let ctx = common::context_with(&options);
    assert_eq!(ctx.driver_cache_loaded, 0, "a corrupt file is ignored");
    let scene = common::scene(100, true);
    let _renderer = common::renderer(&ctx, &scene);
    let saved = ctx.save_driver_cache().expect("save").expect("a path");
    assert!(disk::load(&saved, &key).expect("now valid").is_some());
    let warm = common::context_with(&options);
    assert!(warm.driver_cache_loaded > 0, "the saved cache loads next time");
}

/// `multidraw pipelines`' table: every column starts at one place however long the labels and
/// keys, a request served from the in-memory cache reads "cached" (not the time of the
/// compilation it was served from), and a driver cache with no pipeline in it (lavapipe's)
/// comes with the note that says why warm is not faster than cold.
#[test]
fn the_pipelines_report_is_aligned_and_shows_hits_as_cached() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_multidraw"))
        .args(["pipelines", "--objects", "200", "--frames", "2"])
        .output()
        .expect("run multidraw");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let table: Vec<&str> =
        stdout.lines().skip_while(|l| !l.starts_with("pipeline ")).take_while(|l| !l.is_empty()).collect();
    assert!(table.len() > 10, "{stdout}");
    let header = table[0];
    let column = |name: &str| header.find(name).unwrap_or_else(|| panic!("{name} in {header}"));
    let (kind, key) = (column("kind"), column("key"));
    let mut hits = 0;
    for row in &table[1..] {
        // A label may hold spaces ("main opaque"); kind, key and the two times do not.
        let mut cells: Vec<&str> = row.split_whitespace().rev().take(4).collect();
        cells.push("label");
        cells.reverse();
        assert_eq!(cells.len(), 5, "{row}");
        let starts_at =
            |at: usize, cell: &str| row.get(at..).is_some_and(|r| r.starts_with(cell)) && row[..at].ends_with(' ');
        assert!(starts_at(kind, cells[1]), "kind column out of line: {row}\n{header}");
        assert!(starts_at(key, cells[2]), "key column out of line: {row}\n{header}");
        assert_eq!(row.len(), header.len(), "right-aligned columns end together: {row}\n{header}");
        match (cells[3], cells[4]) {
            ("cached", "cached") => hits += 1,
            (cold, warm) => {
                assert!(cold.parse::<f64>().is_ok() && (warm == "-" || warm.parse::<f64>().is_ok()), "{row}");
            }
        }
    }
    assert!(hits > 0, "a shader module used by two pipelines is a hit:\n{stdout}");
    let info = common::context().info.clone();
    if info.device_type == wgpu::DeviceType::Cpu {
        assert!(stdout.contains("a header without pipelines"), "lavapipe's cache holds none:\n{stdout}");
    }
}
