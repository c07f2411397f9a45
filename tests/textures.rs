//! Textures as the file has them: sRGB colour round-trips, PNG and JPEG decode to the same
//! texture, mips average a distant high-frequency texture, and the three wrap modes read the
//! expected texels outside [0, 1]. Each GPU test renders one textured quad in the albedo
//! debug view (base colour × texture, unlit) in the GPU-driven and the CPU mode, and holds
//! both to the same pixels.

mod common;

use std::path::Path;

use glam::{Quat, Vec2, Vec3, Vec4};
use multidraw::mesh::{MeshArena, MeshData, Vertex};
use multidraw::scene::budget::Budget;
use multidraw::scene::gltf_import::{self, encode_base64, ImageCache};
use multidraw::scene::sandbox::Sandbox;
use multidraw::scene::textures::{self, Filter};
use multidraw::scene::{Camera, Material, Object, Scene, Texture, TextureEncoding, TextureLayers, Wrap};
use multidraw::{DrawMode, FrameInput};

/// A quad filling the view from `x, y` in [-1, 1], with `u` from `uv_min.x` (left) to
/// `uv_max.x` (right) and `v` from `uv_min.y` (top) to `uv_max.y` (bottom).
fn quad(uv_min: Vec2, uv_max: Vec2) -> MeshData {
    let corner = |x: f32, y: f32| {
        let uv =
            [uv_min.x + (x + 1.0) / 2.0 * (uv_max.x - uv_min.x), uv_min.y + (1.0 - y) / 2.0 * (uv_max.y - uv_min.y)];
        Vertex::new([x, y, 0.0], [0.0, 0.0, 1.0], uv)
    };
    MeshData {
        vertices: vec![corner(-1.0, -1.0), corner(1.0, -1.0), corner(1.0, 1.0), corner(-1.0, 1.0)],
        indices: vec![0, 1, 2, 0, 2, 3],
    }
}

/// One quad with `texture`, seen head-on from `distance` with a 90° field of view: at
/// distance 1 it fills the frame exactly.
fn quad_scene(texture: Texture, uv_min: Vec2, uv_max: Vec2, distance: f32) -> Scene {
    let mut meshes = MeshArena::default();
    meshes.add("quad", quad(uv_min, uv_max)).expect("a valid quad");
    Scene {
        name: "textured quad".into(),
        meshes,
        materials: vec![Material { base_color_layer: Some(0), ..Material::colored("textured", Vec4::ONE) }],
        objects: vec![Object {
            translation: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            scale: 1.0,
            mesh: 0,
            material: 0,
            orbit_class: 0,
            spin_class: 0,
        }],
        camera: Camera {
            position: Vec3::new(0.0, 0.0, distance),
            target: Vec3::ZERO,
            up: Vec3::Y,
            fov_y: 90f32.to_radians(),
            near: 0.01,
            far: 100.0,
        },
        sun: multidraw::scene::Sun::default(),
        environment: multidraw::scene::Environment::default(),
        animated: false,
        base_color_textures: TextureLayers { layers: vec![texture] },
        normal_textures: TextureLayers::default(),
        notes: Vec::new(),
    }
}

/// The albedo view of `scene`, `size` square, from the GPU-driven mode; asserts the CPU
/// baseline renders the same pixels.
fn render_albedo(name: &str, scene: &Scene, size: u32) -> image::RgbaImage {
    let ctx = common::context();
    let mut renderer = common::renderer(&ctx, scene);
    let mut frame = |mode| {
        let input = FrameInput { albedo: true, ..FrameInput::new(scene.camera, mode) };
        common::render_image(&ctx, &mut renderer, &input, size, size)
    };
    let gpu = frame(DrawMode::Gpu);
    let cpu = frame(DrawMode::Cpu);
    let (differing, bounds) = common::differing_pixels(&gpu, &cpu);
    if differing > 0 {
        let (actual, diff) = common::write_mismatch(&format!("textures-{name}"), &gpu, &cpu);
        panic!(
            "{name}: gpu and cpu differ in {differing} pixels within {bounds:?}: {}, {}",
            actual.display(),
            diff.display()
        );
    }
    gpu.save(common::output_dir().join(format!("textures-{name}.png"))).expect("write the rendered image");
    gpu
}

fn solid(size: u32, encoding: TextureEncoding, rgba: [u8; 4]) -> Texture {
    Texture {
        size,
        encoding,
        wrap: [Wrap::Repeat; 2],
        tiles_log2: [0; 2],
        rgba: rgba.repeat((size * size) as usize).into(),
    }
}

#[test]
fn an_srgb_texel_renders_as_itself() {
    let scene = quad_scene(solid(64, TextureEncoding::Srgb, [128, 64, 200, 255]), Vec2::ZERO, Vec2::ONE, 1.0);
    let image = render_albedo("srgb-128", &scene, 32);
    for pixel in image.pixels() {
        assert_eq!(pixel.0, [128, 64, 200, 255], "an sRGB texel decoded by the sampler and encoded by the target");
    }
    // A generated colour texture's values are linear: 128 (0.502) is stored as 188 and shows
    // as 188, as it did when textures were linear.
    let generated = textures::colour_texture(64, [128, 128, 128, 255].repeat(64 * 64));
    assert_eq!(&generated.rgba[..4], &[188, 188, 188, 255]);
    let image = render_albedo("generated-128", &quad_scene(generated, Vec2::ZERO, Vec2::ONE, 1.0), 32);
    assert!(image.pixels().all(|p| p.0 == [188, 188, 188, 255]), "linear 0.502: {:?}", image.get_pixel(16, 16));
}

/// A smooth colour image with some detail, `width`×`height`.
fn photo(width: u32, height: u32) -> image::RgbImage {
    image::RgbImage::from_fn(width, height, |x, y| {
        let (fx, fy) = (x as f32 / width as f32, y as f32 / height as f32);
        let ripple = ((fx * 9.0).sin() * (fy * 7.0).cos() * 0.5 + 0.5) * 120.0;
        image::Rgb([(40.0 + 200.0 * fx) as u8, (30.0 + ripple) as u8, (220.0 - 180.0 * fy) as u8])
    })
}

/// A glTF file whose one material's base-colour texture is `image` (a data: URI of `mime`),
/// with a sampler of the given wrap modes and magnification filter.
fn model_with_image(image: &[u8], mime: &str, wrap: [u32; 2], mag_filter: u32) -> serde_json::Value {
    serde_json::json!({
        "asset": { "version": "2.0" },
        "images": [{ "uri": format!("data:{mime};base64,{}", encode_base64(image)) }],
        "samplers": [{ "wrapS": wrap[0], "wrapT": wrap[1], "magFilter": mag_filter }],
        "textures": [{ "source": 0, "sampler": 0 }],
        "materials": [{ "pbrMetallicRoughness": { "baseColorTexture": { "index": 0 } } }],
    })
}

fn import(model: &serde_json::Value) -> Result<(multidraw::scene::gltf_import::GltfMaterial, Texture), String> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let sandbox = Sandbox::new(dir, &[]).expect("the test directory exists");
    let bytes = serde_json::to_vec(model).expect("JSON");
    let file = gltf_import::from_bytes(&bytes, dir, &sandbox).map_err(|e| e.to_string())?;
    let material = file.material(None).map_err(|e| e.to_string())?;
    let texture = file
        .image_layer(0, 2048, material.base_color_sampling.filter, &mut ImageCache::default(), &Budget::unlimited())
        .map_err(|e| e.to_string())?;
    Ok((material, texture))
}

#[test]
fn jpeg_and_png_of_one_image_render_alike() {
    let source = photo(128, 96);
    let mut png = Vec::new();
    source.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png).expect("PNG");
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 92).encode_image(&source).expect("JPEG");
    let mut rendered = Vec::new();
    for (name, bytes, mime) in [("png", &png, "image/png"), ("jpeg", &jpeg, "image/jpeg")] {
        let (_, texture) =
            import(&model_with_image(bytes, mime, [10497, 10497], 9729)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((texture.size, texture.encoding), (128, TextureEncoding::Srgb), "{name}: kept at its size class");
        rendered.push(render_albedo(name, &quad_scene(texture, Vec2::ZERO, Vec2::ONE, 1.0), 64));
    }
    let channels = rendered[0].as_raw().iter().zip(rendered[1].as_raw());
    let differences: Vec<u32> = channels.map(|(a, b)| a.abs_diff(*b) as u32).collect();
    let mean = differences.iter().sum::<u32>() as f64 / differences.len() as f64;
    let largest = differences.iter().max().copied().unwrap_or(0);
    // JPEG at quality 92 of a smooth image: about 1/255 on average, a few at most.
    assert!(mean < 2.0 && largest <= 16, "PNG and JPEG differ by {mean:.2}/255 on average, {largest}/255 at most");
    // And the PNG's pixels are the image's own (the quad shows it 2:1, so compare loosely).
    let expected = source.get_pixel(64, 48).0;
    let actual = rendered[0].get_pixel(32, 32).0;
    for channel in 0..3 {
        assert!(expected[channel].abs_diff(actual[channel]) <= 6, "centre: {actual:?}, image {expected:?}");
    }
}

#[test]
fn a_refused_image_names_itself_and_says_what_to_do() {
    let gif = b"GIF89a\x01\x00\x01\x00\x00\x00\x00;".to_vec();
    let error = import(&model_with_image(&gif, "image/gif", [10497, 10497], 9729)).unwrap_err();
    assert!(error.contains("images[0] (a data: URI): it is a GIF image"), "{error}");
    assert!(error.contains("only PNG and JPEG are supported: convert it to PNG"), "{error}");
    let truncated = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00".to_vec();
    let error = import(&model_with_image(&truncated, "image/jpeg", [10497, 10497], 9729)).unwrap_err();
    assert!(error.contains("images[0] (a data: URI): it is not a readable JPEG"), "{error}");
    assert!(error.contains("re-export the image"), "{error}");
}

#[test]
fn gltf_samplers_give_wrap_modes_and_filter() {
    let mut png = Vec::new();
    photo(16, 16).write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png).expect("PNG");
    let (material, texture) = import(&model_with_image(&png, "image/png", [33071, 33648], 9728)).unwrap();
    assert_eq!(material.base_color_sampling.wrap, [Wrap::ClampToEdge, Wrap::MirroredRepeat]);
    assert_eq!(material.base_color_sampling.filter, Filter::Nearest);
    // 16×16 scaled up to the smallest class by repeating texels (magFilter NEAREST).
    assert_eq!(texture.size, 64);
    assert_eq!(&texture.rgba[(5 * 64 + 9) * 4..][..3], &photo(16, 16).get_pixel(2, 1).0);
}

#[test]
fn mips_average_a_distant_checker() {
    let size = 1024;
    let rgba: Vec<u8> = (0..size * size)
        .flat_map(|i| if (i % size + i / size) % 2 == 0 { [255, 255, 255, 255] } else { [0, 0, 0, 255] })
        .collect();
    let texture = Texture {
        size,
        encoding: TextureEncoding::Srgb,
        wrap: [Wrap::Repeat; 2],
        tiles_log2: [0; 2],
        rgba: rgba.into(),
    };
    // At distance 8 the quad is 8 × 8 pixels of 64 × 64: 128 texels per pixel, mip level 7.
    let image = render_albedo("distant-checker", &quad_scene(texture, Vec2::ZERO, Vec2::ONE, 8.0), 64);
    for y in 29..35 {
        for x in 29..35 {
            let pixel = image.get_pixel(x, y).0;
            // Half white in linear light is 188 in sRGB; without mips single texels alias to
            // black or white.
            assert!(pixel[..3].iter().all(|&c| c.abs_diff(188) <= 4), "pixel {x},{y}: {pixel:?}");
        }
    }
}

#[test]
fn wrap_modes_read_the_expected_texels_outside_the_unit_square() {
    // Red where u < 0.5, green where v < 0.5: each axis shows which texel it read.
    let size = 64;
    let rgba: Vec<u8> = (0..size * size)
        .flat_map(|i| {
            let (x, y) = (i % size, i / size);
            [if x < size / 2 { 255 } else { 0 }, if y < size / 2 { 255 } else { 0 }, 0, 255]
        })
        .collect();
    // The quad shows u and v from -1 to 2: three tiles per axis, 32 pixels each; probes at
    // -0.75, -0.25, 0.25, 0.75, 1.25, 1.75.
    let repeat = [true, false, true, false, true, false];
    let clamp = [true, true, true, false, false, false];
    let mirror = [false, true, true, false, false, true];
    for (wrap, expected) in [
        ([Wrap::Repeat, Wrap::Repeat], [repeat, repeat]),
        ([Wrap::ClampToEdge, Wrap::ClampToEdge], [clamp, clamp]),
        ([Wrap::MirroredRepeat, Wrap::MirroredRepeat], [mirror, mirror]),
        ([Wrap::ClampToEdge, Wrap::MirroredRepeat], [clamp, mirror]),
        ([Wrap::MirroredRepeat, Wrap::Repeat], [mirror, repeat]),
    ] {
        let texture =
            Texture { size, encoding: TextureEncoding::Srgb, wrap, tiles_log2: [0; 2], rgba: rgba.clone().into() };
        assert_wrapped(&format!("wrap-{:?}-{:?}", wrap[0], wrap[1]), texture, expected);
    }
}

/// Renders `texture` (red where u < 0.5, green where v < 0.5) on a quad showing u and v from
/// -1 to 2, and checks at six probes per axis which half each read: `expected` per axis (u,
/// v), true where the probe reads the half with the colour.
fn assert_wrapped(name: &str, texture: Texture, expected: [[bool; 6]; 2]) {
    let probes = [-0.75, -0.25, 0.25, 0.75, 1.25, 1.75];
    let image = render_albedo(name, &quad_scene(texture, Vec2::splat(-1.0), Vec2::splat(2.0), 1.0), 96);
    let pixel = |t: f32| ((t + 1.0) / 3.0 * 96.0) as u32;
    for (i, &u) in probes.iter().enumerate() {
        for (j, &v) in probes.iter().enumerate() {
            let texel = image.get_pixel(pixel(u), pixel(v)).0;
            let seen = [texel[0] > 128, texel[1] > 128];
            assert_eq!(seen, [expected[0][i], expected[1][j]], "{name}: (u, v) = ({u}, {v}) read {texel:?}");
        }
    }
}

fn png(image: &image::RgbImage) -> Vec<u8> {
    let mut bytes = Vec::new();
    image.write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png).expect("encode a PNG");
    bytes
}

/// A 4:1 image keeps its aspect: its layer holds four copies of it down the shorter axis, and
/// the shaders scale that coordinate, so where the image is drawn at one of its texels per
/// pixel on both axes the sampler stays at mip level 0 and 2-texel stripes along its long axis
/// stay black and white. Stretched to the square, the same view reads level 2 (four layer
/// texels per pixel down v) and the stripes average to grey: the blur of stretched labels.
#[test]
fn a_wide_image_keeps_its_aspect_and_its_sharpness() {
    let (width, height) = (256, 64);
    let stripes = image::RgbImage::from_fn(width, height, |x, _| {
        if (x / 2) % 2 == 0 {
            image::Rgb([255, 255, 255])
        } else {
            image::Rgb([0, 0, 0])
        }
    });
    let (_, texture) = import(&model_with_image(&png(&stripes), "image/png", [10497, 10497], 9729)).expect("imports");
    assert_eq!((texture.size, texture.tiles_log2), (256, [0, 2]), "four copies down v");
    // v from 0 to 4 over the 256-pixel quad: 256 of the image's texels per axis.
    let image = render_albedo("wide-stripes", &quad_scene(texture, Vec2::ZERO, Vec2::new(1.0, 4.0), 1.0), 256);
    for y in [40, 128, 200] {
        for x in 100..108 {
            let (value, want_white) = (image.get_pixel(x, y).0[0], (x / 2) % 2 == 0);
            assert!(
                if want_white { value >= 250 } else { value <= 5 },
                "pixel ({x}, {y}): {value}, want {} (a stretched image blurs here)",
                if want_white { "white" } else { "black" }
            );
        }
    }
}

/// Clamped and mirrored, a tall image (1:2) reads its own edge texels outside [0, 1], not the
/// next copy's: red in its left half, green in its top half.
#[test]
fn a_tall_image_wraps_as_itself() {
    let (width, height) = (32, 64);
    let quadrants = image::RgbImage::from_fn(width, height, |x, y| {
        image::Rgb([if x < width / 2 { 255 } else { 0 }, if y < height / 2 { 255 } else { 0 }, 0])
    });
    let clamp = [true, true, true, false, false, false];
    let mirror = [false, true, true, false, false, true];
    for (gl_wrap, expected) in [(33071, clamp), (33648, mirror)] {
        let (material, mut texture) =
            import(&model_with_image(&png(&quadrants), "image/png", [gl_wrap, gl_wrap], 9729)).expect("imports");
        texture.wrap = material.base_color_sampling.wrap;
        assert_eq!((texture.size, texture.tiles_log2), (64, [1, 0]), "two copies across u");
        assert_wrapped(&format!("tall-wrap-{gl_wrap}"), texture, [expected, expected]);
    }
}

/// A scene of one cube whose material is a glTF material with `wall.png` (`width`×`height`,
/// an external file) as its base-colour texture, written into a scratch directory.
fn scene_with_external_image(name: &str, width: u32, height: u32) -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("textures").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    image::RgbImage::from_pixel(width, height, image::Rgb([90, 120, 150])).save(dir.join("wall.png")).expect("PNG");
    let mut model = model_with_image(&[], "image/png", [10497, 10497], 9729);
    model["images"][0]["uri"] = serde_json::json!("wall.png");
    std::fs::write(dir.join("model.gltf"), serde_json::to_vec(&model).expect("JSON")).expect("write the model");
    let scene =
        "[[mesh]]\nname = \"box\"\nprocedural = \"cube\"\n\n[[material]]\nname = \"wall\"\ngltf = \"model.gltf\"\n\n\
                 [[objects]]\ntransforms = [{ mesh = \"box\", material = \"wall\", position = [0, 0, 0] }]\n";
    std::fs::write(dir.join("scene.toml"), scene).expect("write the scene");
    dir.join("scene.toml")
}

#[test]
fn textures_keep_their_size_up_to_the_adapter_and_count_against_the_budget() {
    use multidraw::scene::budget::DeviceBudget;
    use multidraw::scene::file::{self, LoadOptions};
    let path = scene_with_external_image("budget", 1500, 1000);
    let load = |budget: Budget| file::load_with(&path, &LoadOptions { allow_dirs: Vec::new(), budget });
    let size = |budget: Budget| load(budget).map(|scene| scene.base_color_textures.layers[0].size);
    assert_eq!(size(Budget::unlimited()).unwrap(), 2048, "1500 × 1000 goes to the 2048 class");
    let adapter = |max_texture_size| DeviceBudget {
        max_objects: 1 << 20,
        objects_limit: "test".into(),
        max_buffer_bytes: 1 << 30,
        max_binding_bytes: 1 << 27,
        max_texture_layers: 256,
        max_texture_size,
    };
    assert_eq!(size(Budget::unlimited().with_device(adapter(1024))).unwrap(), 1024, "the adapter's largest texture");
    assert_eq!(size(Budget::unlimited().with_device(adapter(1500))).unwrap(), 1024, "a power of two within it");
    // 2048² with mips is 22.4 MB, counted twice: refused under 40 MB before the image is
    // decoded, naming it.
    let error = load(Budget::unlimited().with_host_bytes(40_000_000, "test")).unwrap_err();
    let mut chain = error.to_string();
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        chain += &format!(": {cause}");
        source = cause.source();
    }
    assert!(chain.contains("images[0] \"wall.png\": too many"), "{chain}");
    assert!(chain.contains("22,369,620 bytes with their mips"), "{chain}");
    // A layer limit of 0 refuses the one layer.
    let error = load(Budget::unlimited().with_device(DeviceBudget { max_texture_layers: 0, ..adapter(4096) }))
        .unwrap_err()
        .to_string();
    assert!(error.contains("1 texture layers in one texture array"), "{error}");
}
