//! Every shipped scene file loads and renders headless, GPU-driven, with the same picture as
//! the CPU baseline.

mod common;

use multidraw::scene::file;
use multidraw::DrawMode;

#[test]
fn every_shipped_scene_renders() {
    let ctx = common::context();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    let mut rendered = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let scene = file::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut renderer = common::renderer(&ctx, &scene);
        let gpu = common::render_image(&ctx, &mut renderer, &common::input(&scene, DrawMode::Gpu, 1.0), 96, 64);
        let visible = common::gpu_visible(&ctx, &mut renderer);
        assert!(visible > 0, "{}: nothing visible from the scene's camera", path.display());
        let background = *gpu.get_pixel(0, 0);
        assert!(gpu.pixels().any(|p| *p != background), "{}: blank image", path.display());
        // The baseline draws the same picture: 0.2% of the pixels allowed for depth ties and
        // for sub-pixel triangles the compute rasteriser snaps to the other side of a pixel
        // centre (at 96 × 64 most objects are sub-pixel); its normals may round a channel apart.
        let cpu = common::render_image(&ctx, &mut renderer, &common::input(&scene, DrawMode::Cpu, 1.0), 96, 64);
        let differing = common::pixels_beyond(&gpu, &cpu, common::RASTER_TOLERANCE);
        assert!(differing <= 96 * 64 / 500, "{}: {differing} pixels differ between gpu and cpu", path.display());
        eprintln!("{}: {} objects, {visible} visible", path.display(), scene.objects.len());
        rendered += 1;
    }
    assert!(rendered >= 5, "expected the five shipped scenes, rendered {rendered}");
}
