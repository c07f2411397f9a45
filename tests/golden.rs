//! Golden images: three scenes, each drawn from its own camera at a fixed animation time, are
//! compared with reference PNGs under `tests/golden/`, rendered on lavapipe and reviewed by
//! eye. The mode-versus-mode tests (`tests/image.rs`) cannot see a fault every mode shares (a
//! wrong light, a flipped winding, a lost texture); a reference image can. The gpu and the cpu
//! mode are both held to the same reference.
//!
//! `UPDATE_GOLDEN=1 cargo test --test golden` rewrites the references from the gpu mode, on
//! lavapipe only (`WGPU_ADAPTER_NAME=llvmpipe` picks it on a machine with a GPU). A missing
//! reference fails. On a mismatch the test writes the actual image and a difference image
//! into `CARGO_TARGET_TMPDIR` and names them.
//!
//! Tolerance: a pixel differs when any channel differs by more than [`CHANNEL_TOLERANCE`]
//! (4/255), and a comparison fails when more than [`MAX_DIFFERING_FRACTION`] (0.2%, 115 of the
//! 57,600 pixels) differ. Lavapipe repeats itself exactly on one machine, with one llvmpipe
//! thread or the default. CI runs a fresh machine with the same Debian Mesa, where what can
//! change is LLVM's code for another CPU: rounding in the shaded colour, and pixels on the edge
//! of a decision (a masked texel at the alpha cutoff, a depth tie) flipping. Forcing llvmpipe
//! onto another texture sampling path (`GALLIVM_PERF=no_aos_sampling`) shows the size of that.
//! Both bounds sit well above what it showed and well below the faults the test is for: a
//! diffuse light 10% too weak already fails by far (a looser channel tolerance would soon let
//! it pass), and a negated light, a flipped winding or a lost base colour texture moves far
//! more (measured: docs/BENCHMARKS.md § "Golden-image tolerance").

mod common;

use std::path::{Path, PathBuf};

use multidraw::scene::{file, Scene};
use multidraw::{DrawMode, GpuContext};

const WIDTH: u32 = 320;
const HEIGHT: u32 = 180;
/// Animation time of every golden frame, in seconds.
const TIME: f32 = 2.0;
/// A pixel differs when any of its channels differs by more than this, out of 255.
const CHANNEL_TOLERANCE: u8 = 4;
/// A comparison fails when more than this share of the pixels differ.
const MAX_DIFFERING_FRACTION: f64 = 0.002;
/// The first mode writes the reference under `UPDATE_GOLDEN=1`; all are compared with it.
const MODES: [DrawMode; 2] = [DrawMode::Gpu, DrawMode::Cpu];
const UPDATE_COMMAND: &str = "UPDATE_GOLDEN=1 cargo test --test golden";
/// Picks lavapipe on a machine with a GPU too.
const LAVAPIPE: &str = "WGPU_ADAPTER_NAME=llvmpipe";

#[test]
fn default_scene_matches_its_golden_image() {
    check_scene("default", &file::default_scene());
}

/// The sun's shadows (4 cascades, `FrameInput::with_shadows`) on the default scene, the city
/// and the glTF scene.
#[test]
fn scenes_with_shadows_match_their_golden_images() {
    check_scene_with("default-shadows", &file::default_scene(), 4);
    check_scene_with("city-shadows", &shipped_scene("city.toml"), 4);
    check_scene_with("gltf-shadows", &shipped_scene("gltf.toml"), 4);
}

#[test]
fn city_matches_its_golden_image() {
    check_scene("city", &shipped_scene("city.toml"));
}

#[test]
fn gltf_matches_its_golden_image() {
    check_scene("gltf", &shipped_scene("gltf.toml"));
}

/// Third-party models (the Khronos samples in scenes/models/), loaded as `render MODEL`
/// loads them, framed by their bounds: the truck's four-level node tree, three materials in
/// one mesh and its 2048² JPEG; the Duck's 0.01 node scale and embedded PNG; BoxVertexColors'
/// COLOR_0; TextureTransformTest's offsets, rotations and scales (every arrow on its green
/// mark, every check mark shown).
#[test]
fn real_models_match_their_golden_images() {
    for (name, path) in [
        ("truck", "models/CesiumMilkTruck/CesiumMilkTruck.gltf"),
        ("duck", "models/Duck/Duck.glb"),
        ("vertex-colors", "models/BoxVertexColors/BoxVertexColors.gltf"),
        ("texture-transform", "models/TextureTransformTest/TextureTransformTest.gltf"),
    ] {
        let full = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join(path);
        let scene = multidraw::scene::file::load(&full).unwrap_or_else(|e| panic!("{path}: {}", e.chain()));
        check_scene(name, &scene);
    }
}

fn shipped_scene(file_name: &str) -> Scene {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join(file_name);
    file::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn golden_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("golden").join(format!("{name}.png"))
}

fn updating() -> bool {
    std::env::var_os("UPDATE_GOLDEN").is_some_and(|value| value == "1")
}

/// Renders `scene` in every mode of [`MODES`] and compares each frame with the reference
/// `tests/golden/{name}.png`; reports every failing mode at once.
fn check_scene(name: &str, scene: &Scene) {
    check_scene_with(name, scene, 0);
}

/// [`check_scene`] with `shadows` cascades.
fn check_scene_with(name: &str, scene: &Scene, shadows: u32) {
    let ctx = common::context();
    let mut renderer = common::renderer(&ctx, scene);
    let golden = golden_path(name);
    let mut failures = Vec::new();
    for mode in MODES {
        let input = common::input(scene, mode, TIME).with_shadows(shadows);
        let actual = common::render_image(&ctx, &mut renderer, &input, WIDTH, HEIGHT);
        if updating() && mode == MODES[0] {
            write_golden(&ctx, name, &golden, &actual);
        }
        if let Err(message) = compare_with_golden(&ctx, &format!("{name}-{mode}"), &golden, &actual) {
            failures.push(message);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

fn write_golden(ctx: &GpuContext, name: &str, golden: &Path, image: &image::RgbaImage) {
    assert_eq!(
        ctx.info.device_type,
        wgpu::DeviceType::Cpu,
        "golden images are lavapipe renders (CI compares against lavapipe); refusing to write {} from {}: \
         run with {LAVAPIPE}",
        golden.display(),
        ctx.info.name
    );
    let background = image.get_pixel(0, 0);
    assert!(image.pixels().any(|p| p != background), "{name}: refusing to write a blank golden image");
    std::fs::create_dir_all(golden.parent().expect("golden images live in a directory")).expect("create tests/golden");
    save_png(image, golden);
    eprintln!("{name}: wrote {}; look at it before committing", golden.display());
}

/// Writes `image` as an 8-bit RGB PNG at the best compression: the frames are opaque, and
/// dropping alpha keeps the committed references small.
fn save_png(image: &image::RgbaImage, path: &Path) {
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};
    let rgb = image::DynamicImage::ImageRgba8(image.clone()).into_rgb8();
    let file = std::fs::File::create(path).unwrap_or_else(|e| panic!("create {}: {e}", path.display()));
    let encoder =
        PngEncoder::new_with_quality(std::io::BufWriter::new(file), CompressionType::Best, FilterType::Adaptive);
    rgb.write_with_encoder(encoder).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
}

/// How far `actual` is from `expected`, pixel by pixel.
struct Difference {
    /// Pixels with a channel differing by more than [`CHANNEL_TOLERANCE`].
    differing: usize,
    /// The largest difference of any channel of any pixel, out of 255.
    largest_channel_difference: u8,
    /// (x0, y0, x1, y1) around the differing pixels.
    bounds: Option<(u32, u32, u32, u32)>,
}

fn channel_difference(a: &image::Rgba<u8>, b: &image::Rgba<u8>) -> u8 {
    a.0.iter().zip(b.0).map(|(x, y)| x.abs_diff(y)).max().expect("four channels")
}

fn difference(expected: &image::RgbaImage, actual: &image::RgbaImage) -> Difference {
    let mut result = Difference { differing: 0, largest_channel_difference: 0, bounds: None };
    for (x, y, pixel) in actual.enumerate_pixels() {
        let channel = channel_difference(expected.get_pixel(x, y), pixel);
        result.largest_channel_difference = result.largest_channel_difference.max(channel);
        if channel > CHANNEL_TOLERANCE {
            result.differing += 1;
            result.bounds = Some(match result.bounds {
                None => (x, y, x, y),
                Some((x0, y0, x1, y1)) => (x0.min(x), y0.min(y), x1.max(x), y1.max(y)),
            });
        }
    }
    result
}

/// Magenta where a pixel is beyond tolerance, grey where it differs within tolerance, and the
/// expected image darkened to a quarter elsewhere, so the failing pixels can be placed.
fn difference_image(expected: &image::RgbaImage, actual: &image::RgbaImage) -> image::RgbaImage {
    image::RgbaImage::from_fn(actual.width(), actual.height(), |x, y| {
        let wanted = expected.get_pixel(x, y);
        match channel_difference(wanted, actual.get_pixel(x, y)) {
            0 => image::Rgba([wanted[0] / 4, wanted[1] / 4, wanted[2] / 4, 255]),
            channel if channel <= CHANNEL_TOLERANCE => image::Rgba([128, 128, 128, 255]),
            _ => image::Rgba([255, 0, 255, 255]),
        }
    })
}

/// `Err` with a message naming the images, the differing pixels and the bound.
fn compare_with_golden(ctx: &GpuContext, label: &str, golden: &Path, actual: &image::RgbaImage) -> Result<(), String> {
    let dir = common::output_dir();
    let actual_path = dir.join(format!("golden-{label}-actual.png"));
    let diff_path = dir.join(format!("golden-{label}-diff.png"));
    let mut adapter = format!("adapter: {} ({})", ctx.info.name, ctx.info.driver_info);
    if ctx.info.device_type != wgpu::DeviceType::Cpu {
        adapter += &format!(", not lavapipe, which renders the references: run with {LAVAPIPE}");
    }
    if !golden.exists() {
        save_png(actual, &actual_path);
        return Err(format!(
            "{label}: no golden image at {}.\n  \
             Create it with `{UPDATE_COMMAND}` on lavapipe, look at it and commit it.\n  actual: {}",
            golden.display(),
            actual_path.display()
        ));
    }
    let expected = image::open(golden).unwrap_or_else(|e| panic!("read {}: {e}", golden.display())).into_rgba8();
    if expected.dimensions() != actual.dimensions() {
        save_png(actual, &actual_path);
        return Err(format!(
            "{label}: golden image {} is {:?}, the test renders {:?}; rewrite it with `{UPDATE_COMMAND}`.\n  \
             actual: {}",
            golden.display(),
            expected.dimensions(),
            actual.dimensions(),
            actual_path.display()
        ));
    }
    let pixels = actual.width() as usize * actual.height() as usize;
    let bound = (pixels as f64 * MAX_DIFFERING_FRACTION) as usize;
    let found = difference(&expected, actual);
    let summary = format!(
        "{label}: {} of {pixels} pixels ({:.2}%) differ by more than {CHANNEL_TOLERANCE}/255 (bound {bound}, {:.1}%), \
         largest channel difference {}/255",
        found.differing,
        100.0 * found.differing as f64 / pixels as f64,
        100.0 * MAX_DIFFERING_FRACTION,
        found.largest_channel_difference
    );
    if found.differing <= bound {
        eprintln!("{summary}");
        return Ok(());
    }
    save_png(actual, &actual_path);
    difference_image(&expected, actual).save(&diff_path).expect("write difference image");
    let (x0, y0, x1, y1) = found.bounds.expect("pixels beyond the bound have bounds");
    Err(format!(
        "{summary}, in x {x0}..={x1}, y {y0}..={y1}; {adapter}\n  golden: {}\n  actual: {}\n  \
         difference (magenta: beyond tolerance, grey: within): {}\n  \
         if the change is intended, look at the actual image and rewrite the references with `{UPDATE_COMMAND}`",
        golden.display(),
        actual_path.display(),
        diff_path.display()
    ))
}
