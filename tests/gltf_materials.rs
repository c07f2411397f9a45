//! What a glTF material does to a surface, through the whole path (file → scene → GPU): vertex
//! colours, `KHR_texture_transform`, texture-coordinate sets and normal maps with given and
//! generated (MikkTSpace) tangents. Each test draws one quad filling the view head-on, in gpu
//! and cpu modes (which must agree), and reads the pixels.

mod common;

use std::path::{Path, PathBuf};

use glam::Vec3;
use multidraw::scene::file;
use multidraw::scene::gltf_import::encode_base64;
use multidraw::scene::textures::linear_to_srgb;
use multidraw::scene::Scene;
use multidraw::{DrawMode, FrameInput};
use serde_json::{json, Value};

/// The quad's attributes: corners (-1, -1) … (1, 1) at z = 0 facing +Z, counter-clockwise,
/// bottom-left first; `uv` / `uv1` per corner; optional colours and tangents.
#[derive(Clone)]
struct Quad {
    /// Every corner's normal.
    normal: Vec3,
    uv: [[f32; 2]; 4],
    uv1: Option<[[f32; 2]; 4]>,
    colors: Option<[[f32; 4]; 4]>,
    tangents: Option<[[f32; 4]; 4]>,
    /// One morph target moving every corner by this offset, with the mesh's and (optionally)
    /// the node's weights.
    morph: Option<([f32; 3], f32, Option<f32>)>,
}

/// The texture upright on the quad: u to the right, v down.
const UPRIGHT: [[f32; 2]; 4] = [[0.0, 1.0], [1.0, 1.0], [1.0, 0.0], [0.0, 0.0]];
/// Mirrored left to right.
const MIRRORED: [[f32; 2]; 4] = [[1.0, 1.0], [0.0, 1.0], [0.0, 0.0], [1.0, 0.0]];

impl Quad {
    fn upright() -> Quad {
        Quad { normal: Vec3::Z, uv: UPRIGHT, uv1: None, colors: None, tangents: None, morph: None }
    }
}

/// A 64 × 64 PNG: red, green, blue and white quadrants (top left, top right, bottom left,
/// bottom right), or one colour.
fn quadrants_png() -> Vec<u8> {
    png(|x, y| match (x < 32, y < 32) {
        (true, true) => [255, 0, 0, 255],
        (false, true) => [0, 255, 0, 255],
        (true, false) => [0, 0, 255, 255],
        (false, false) => [255, 255, 255, 255],
    })
}

fn png(texel: impl Fn(u32, u32) -> [u8; 4]) -> Vec<u8> {
    let image = image::RgbaImage::from_fn(64, 64, |x, y| image::Rgba(texel(x, y)));
    let mut bytes = Vec::new();
    image.write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png).expect("encode a PNG");
    bytes
}

/// A glTF file of the quad with `material` (its textures index `images` in order, each with a
/// nearest, clamping sampler).
fn model(quad: &Quad, material: Value, images: &[Vec<u8>]) -> Vec<u8> {
    let mut buffer: Vec<u8> = Vec::new();
    let mut views = Vec::new();
    let mut accessors = Vec::new();
    let mut attributes = serde_json::Map::new();
    let mut push = |floats: Vec<f32>, kind: &str, semantic: &str, extra: Value| {
        let offset = buffer.len();
        buffer.extend(floats.iter().flat_map(|f| f.to_le_bytes()));
        views.push(json!({ "buffer": 0, "byteOffset": offset, "byteLength": floats.len() * 4 }));
        let mut accessor = json!({ "bufferView": views.len() - 1, "componentType": 5126, "count": 4, "type": kind });
        if let (Some(accessor), Some(extra)) = (accessor.as_object_mut(), extra.as_object()) {
            accessor.extend(extra.clone());
        }
        accessors.push(accessor);
        attributes.insert(semantic.into(), json!(accessors.len() - 1));
    };
    let corners = [[-1.0f32, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]];
    push(
        corners.iter().flat_map(|&[x, y]| [x, y, 0.0]).collect(),
        "VEC3",
        "POSITION",
        json!({ "min": [-1.0, -1.0, 0.0], "max": [1.0, 1.0, 0.0] }),
    );
    push(quad.normal.normalize().to_array().repeat(4), "VEC3", "NORMAL", json!({}));
    push(quad.uv.concat(), "VEC2", "TEXCOORD_0", json!({}));
    if let Some(uv1) = quad.uv1 {
        push(uv1.concat(), "VEC2", "TEXCOORD_1", json!({}));
    }
    if let Some(colors) = quad.colors {
        push(colors.concat(), "VEC4", "COLOR_0", json!({}));
    }
    if let Some(tangents) = quad.tangents {
        push(tangents.concat(), "VEC4", "TANGENT", json!({}));
    }
    if let Some((offset, _, _)) = quad.morph {
        push(offset.repeat(4), "VEC3", "MORPH_POSITION", json!({ "min": offset, "max": offset }));
    }
    // The target's accessor, pushed as an attribute and moved to the target.
    let targets: Vec<Value> =
        attributes.remove("MORPH_POSITION").map(|accessor| json!({ "POSITION": accessor })).into_iter().collect();
    let index_offset = buffer.len();
    buffer.extend([0u16, 1, 2, 0, 2, 3].iter().flat_map(|i| i.to_le_bytes()));
    views.push(json!({ "buffer": 0, "byteOffset": index_offset, "byteLength": 12 }));
    accessors.push(json!({ "bufferView": views.len() - 1, "componentType": 5123, "count": 6, "type": "SCALAR" }));
    let indices = accessors.len() - 1;
    let images: Vec<Value> =
        images.iter().map(|png| json!({ "uri": format!("data:image/png;base64,{}", encode_base64(png)) })).collect();
    let textures: Vec<Value> = (0..images.len()).map(|i| json!({ "source": i, "sampler": 0 })).collect();
    let mut primitive = json!({ "attributes": attributes, "indices": indices, "material": 0 });
    let mut mesh = json!({});
    let mut node = json!({ "mesh": 0 });
    if let Some((_, mesh_weight, node_weight)) = quad.morph {
        primitive["targets"] = Value::Array(targets);
        mesh["weights"] = json!([mesh_weight]);
        if let Some(weight) = node_weight {
            node["weights"] = json!([weight]);
        }
    }
    mesh["primitives"] = json!([primitive]);
    let document = json!({
        "asset": { "version": "2.0" },
        "extensionsUsed": ["KHR_texture_transform"],
        "scene": 0,
        "scenes": [{ "nodes": [0] }],
        "nodes": [node],
        "meshes": [mesh],
        "materials": [material],
        "images": images,
        "samplers": [{ "magFilter": 9728, "wrapS": 33071, "wrapT": 33071 }],
        "textures": textures,
        "accessors": accessors,
        "bufferViews": views,
        "buffers": [{ "byteLength": buffer.len(),
            "uri": format!("data:application/octet-stream;base64,{}", encode_base64(&buffer)) }],
    });
    serde_json::to_vec(&document).expect("JSON")
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gltf-materials").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch directory");
    dir
}

/// The model in a scene whose camera looks at the quad head-on, filling the view, without
/// tone mapping.
fn load(name: &str, model: &[u8]) -> Scene {
    load_with(name, model, "")
}

/// As [`load`], with `extra` (TOML sections) in the scene file.
fn load_with(name: &str, model: &[u8], extra: &str) -> Scene {
    let dir = scratch(name);
    std::fs::write(dir.join("quad.gltf"), model).expect("write the model");
    let path = dir.join("scene.toml");
    std::fs::write(
        &path,
        format!(
            "[scene]\nname = \"quad\"\n\n[camera]\nposition = [0.0, 0.0, 1.0]\ntarget = [0.0, 0.0, 0.0]\n\
             fov_y_degrees = 90.0\nnear = 0.01\nfar = 10.0\n\n[environment]\ntone_mapping = \"none\"\n{extra}\n\n\
             [[model]]\nname = \"quad\"\ngltf = \"quad.gltf\"\n\n\
             [[objects]]\ntransforms = [{{ model = \"quad\", position = [0.0, 0.0, 0.0] }}]\n"
        ),
    )
    .expect("write the scene");
    let scene = file::load(&path).unwrap_or_else(|e| panic!("{name}: {}", e.chain()));
    assert!(scene.notes.is_empty(), "{name}: nothing left undrawn, got {:?}", scene.notes);
    scene
}

/// The scene drawn 32 × 32 (unlit base colour when `albedo`), gpu and cpu modes agreeing.
fn render(name: &str, scene: &Scene, albedo: bool) -> image::RgbaImage {
    let ctx = common::context();
    let mut renderer = common::renderer(&ctx, scene);
    let mut frame = |mode| {
        let input = FrameInput { albedo, ..FrameInput::new(scene.camera, mode) };
        common::render_image(&ctx, &mut renderer, &input, 32, 32)
    };
    let gpu = frame(DrawMode::Gpu);
    let cpu = frame(DrawMode::Cpu);
    let (differing, bounds) = common::differing_pixels(&gpu, &cpu);
    assert_eq!(differing, 0, "{name}: gpu and cpu differ within {bounds:?}");
    gpu.save(common::output_dir().join(format!("gltf-materials-{name}.png"))).expect("write the image");
    gpu
}

fn assert_pixel(image: &image::RgbaImage, x: u32, y: u32, expected: [u8; 3], what: &str) {
    let actual = image.get_pixel(x, y).0;
    let close = (0..3).all(|c| actual[c].abs_diff(expected[c]) <= 2);
    assert!(close, "{what}: pixel ({x}, {y}) is {actual:?}, expected {expected:?}");
}

/// The colour of each screen quadrant's centre pixel (top left, top right, bottom left, bottom
/// right) must be the named texture quadrant's.
fn assert_quadrants(image: &image::RgbaImage, expected: [[u8; 3]; 4], what: &str) {
    for (i, (x, y)) in [(8, 8), (24, 8), (8, 24), (24, 24)].into_iter().enumerate() {
        assert_pixel(image, x, y, expected[i], &format!("{what}, screen quadrant {i}"));
    }
}

const RED: [u8; 3] = [255, 0, 0];
const GREEN: [u8; 3] = [0, 255, 0];
const BLUE: [u8; 3] = [0, 0, 255];
const WHITE: [u8; 3] = [255, 255, 255];

fn textured(texture_info: Value) -> Value {
    json!({ "pbrMetallicRoughness": { "baseColorTexture": texture_info } })
}

#[test]
fn vertex_colours_multiply_the_base_colour() {
    let quad = Quad { colors: Some([[0.5, 0.25, 1.0, 1.0]; 4]), ..Quad::upright() };
    let material = json!({ "pbrMetallicRoughness": { "baseColorFactor": [1.0, 1.0, 0.5, 1.0] } });
    let image = render("color0", &load("color0", &model(&quad, material, &[])), true);
    let expected = [0.5, 0.25, 0.5].map(linear_to_srgb);
    for (x, y) in [(2, 2), (16, 16), (29, 29)] {
        assert_pixel(&image, x, y, expected, "COLOR_0 × baseColorFactor");
    }
}

#[test]
fn texture_transforms_offset_rotate_and_scale_the_coordinates() {
    let quad = Quad::upright();
    let plain =
        render("plain", &load("plain", &model(&quad, textured(json!({ "index": 0 })), &[quadrants_png()])), true);
    assert_quadrants(&plain, [RED, GREEN, BLUE, WHITE], "no transform");

    // Half the texture, moved right by half: the top-right quadrant everywhere.
    let transform =
        json!({ "index": 0, "extensions": { "KHR_texture_transform": { "offset": [0.5, 0.0], "scale": [0.5, 0.5] } } });
    let image = render("offset", &load("offset", &model(&quad, textured(transform), &[quadrants_png()])), true);
    assert_quadrants(&image, [GREEN; 4], "offset and scale");

    // A quarter turn counter-clockwise of the coordinates, then down by one: (u, v) reads
    // (v, 1 − u), so the image shows turned clockwise (the specification's example).
    let transform = json!({ "index": 0, "extensions": { "KHR_texture_transform": {
        "offset": [0.0, 1.0], "rotation": std::f32::consts::FRAC_PI_2 } } });
    let image = render("rotation", &load("rotation", &model(&quad, textured(transform), &[quadrants_png()])), true);
    assert_quadrants(&image, [BLUE, RED, WHITE, GREEN], "rotation");
}

#[test]
fn each_texture_reads_the_coordinate_set_it_names() {
    // Set 0 points at the red quadrant, set 1 at the green one.
    let quad = Quad { uv: [[0.25, 0.25]; 4], uv1: Some([[0.75, 0.25]; 4]), ..Quad::upright() };
    let image = render(
        "texcoord1",
        &load("texcoord1", &model(&quad, textured(json!({ "index": 0, "texCoord": 1 })), &[quadrants_png()])),
        true,
    );
    assert_quadrants(&image, [GREEN; 4], "texCoord 1");
    // The extension's texCoord overrides the textureInfo's.
    let info = json!({ "index": 0, "texCoord": 1, "extensions": { "KHR_texture_transform": { "texCoord": 0 } } });
    let image = render(
        "texcoord-override",
        &load("texcoord-override", &model(&quad, textured(info), &[quadrants_png()])),
        true,
    );
    assert_quadrants(&image, [RED; 4], "KHR_texture_transform texCoord 0");
}

/// The centre pixel of the quad with `material` (no textures) when every vertex normal is
/// `normal`: what a normal map turning the normal there must show.
fn lit(normal: Vec3, material: Value) -> [u8; 3] {
    let quad = Quad { normal, ..Quad::upright() };
    let name = format!("reference-{}-{}-{}", normal.x, normal.y, normal.z);
    let image = render(&name, &load(&name, &model(&quad, material, &[])), false);
    let [r, g, b, _] = image.get_pixel(16, 16).0;
    [r, g, b]
}

/// A normal map of one tangent-space normal.
fn normal_png(normal: Vec3) -> Vec<u8> {
    let texel = (normal.normalize() * 0.5 + Vec3::splat(0.5)) * 255.0;
    let [r, g, b] = texel.round().to_array().map(|c| c as u8);
    png(move |_, _| [r, g, b, 255])
}

fn normal_mapped(quad: &Quad, map: Vec3, scale: f32) -> Vec<u8> {
    let material = json!({ "normalTexture": { "index": 0, "scale": scale } });
    model(quad, material, &[normal_png(map)])
}

#[test]
fn normal_maps_turn_the_shading_normal_in_tangent_space() {
    let flat = render("flat", &load("flat", &model(&Quad::upright(), json!({}), &[])), false);
    assert_pixel(&flat, 16, 16, lit(Vec3::Z, json!({})), "no normal map");

    // Tangent-space +y is "up" in the image; on the upright quad that is world +Y. Generated
    // (MikkTSpace) and given tangents agree.
    let up = Vec3::new(0.0, 0.6, 0.8);
    let given = Quad { tangents: Some([[1.0, 0.0, 0.0, 1.0]; 4]), ..Quad::upright() };
    for (name, quad) in [("generated", Quad::upright()), ("given", given)] {
        let image = render(&format!("normal-up-{name}"), &load(name, &normal_mapped(&quad, up, 1.0)), false);
        assert_pixel(&image, 16, 16, lit(up, json!({})), &format!("map +y, {name} tangents"));
    }
    // Tangent-space +x follows u: on a quad mirrored left to right it is world −X.
    let right = Vec3::new(0.6, 0.0, 0.8);
    let image = render("normal-right", &load("right", &normal_mapped(&Quad::upright(), right, 1.0)), false);
    assert_pixel(&image, 16, 16, lit(right, json!({})), "map +x on the upright quad");
    let mirrored = Quad { uv: MIRRORED, ..Quad::upright() };
    let image = render("normal-right-mirrored", &load("mirrored", &normal_mapped(&mirrored, right, 1.0)), false);
    assert_pixel(&image, 16, 16, lit(Vec3::new(-0.6, 0.0, 0.8), json!({})), "map +x on the mirrored quad");
    // `scale` multiplies the map's x and y: 0 flattens it.
    let image = render("normal-scale-0", &load("scale0", &normal_mapped(&Quad::upright(), up, 0.0)), false);
    assert_pixel(&image, 16, 16, lit(Vec3::Z, json!({})), "scale 0");
    // And the map's turn is visible: +y differs from the flat normal.
    let [flat_grey, ..] = lit(Vec3::Z, json!({}));
    let [up_grey, ..] = lit(up, json!({}));
    assert!(flat_grey.abs_diff(up_grey) > 8, "a turned normal changes the shading: {flat_grey} vs {up_grey}");
}

#[test]
fn a_normal_map_on_the_other_coordinate_set_reads_it() {
    // Base colour on set 0 (the red quadrant everywhere), the normal map on set 1, which spans
    // the map's right half (+x normals; its left half holds +y ones): tangents from set 1.
    let uv1 = UPRIGHT.map(|[u, v]| [0.55 + 0.4 * u, v]);
    let quad = Quad { uv: [[0.25, 0.25]; 4], uv1: Some(uv1), ..Quad::upright() };
    let (up, right) = (Vec3::new(0.0, 0.6, 0.8), Vec3::new(0.6, 0.0, 0.8));
    let encode = |n: Vec3| ((n.normalize() * 0.5 + Vec3::splat(0.5)) * 255.0).round().to_array().map(|c| c as u8);
    let (up_texel, right_texel) = (encode(up), encode(right));
    let map = png(move |x, _| {
        let [r, g, b] = if x < 32 { up_texel } else { right_texel };
        [r, g, b, 255]
    });
    let material = json!({
        "pbrMetallicRoughness": { "baseColorTexture": { "index": 0 } },
        "normalTexture": { "index": 1, "texCoord": 1 },
    });
    let scene = load("normal-set1", &model(&quad, material, &[quadrants_png(), map]));
    let image = render("normal-set1", &scene, false);
    let red = json!({ "pbrMetallicRoughness": { "baseColorFactor": [1.0, 0.0, 0.0, 1.0] } });
    assert_pixel(&image, 16, 16, lit(right, red), "red lit by the +x half of the map, read through set 1");
}

#[test]
fn vertex_colours_and_tangents_survive_import_of_quantised_and_byte_colours() {
    // COLOR_0 as normalised unsigned bytes (VEC3): read as linear [0, 1].
    let mut document: Value = serde_json::from_slice(&model(&Quad::upright(), json!({}), &[])).unwrap();
    let colours: Vec<u8> = [[255u8, 128, 0, 0]; 4].concat();
    let buffer_uri = document["buffers"][0]["uri"].as_str().unwrap().to_string();
    let mut buffer = decode_data(&buffer_uri);
    let offset = buffer.len();
    buffer.extend(&colours);
    document["buffers"][0]["uri"] = json!(format!("data:application/octet-stream;base64,{}", encode_base64(&buffer)));
    document["buffers"][0]["byteLength"] = json!(buffer.len());
    let views = document["bufferViews"].as_array_mut().unwrap();
    views.push(json!({ "buffer": 0, "byteOffset": offset, "byteLength": 16, "byteStride": 4 }));
    let view = views.len() - 1;
    let accessors = document["accessors"].as_array_mut().unwrap();
    accessors
        .push(json!({ "bufferView": view, "componentType": 5121, "normalized": true, "count": 4, "type": "VEC3" }));
    let accessor = accessors.len() - 1;
    document["meshes"][0]["primitives"][0]["attributes"]["COLOR_0"] = json!(accessor);
    let scene = load("color-bytes", &serde_json::to_vec(&document).unwrap());
    let image = render("color-bytes", &scene, true);
    let expected = [1.0, 128.0 / 255.0, 0.0].map(linear_to_srgb);
    assert_pixel(&image, 16, 16, expected, "unsigned-byte COLOR_0");
    let vertex = scene.meshes.vertices[0];
    assert_eq!(vertex.color()[3], 1.0, "a VEC3 colour is opaque");
    assert!(vertex.tangent().truncate().distance(Vec3::X) < 1e-3, "generated tangent along u");
}

fn decode_data(uri: &str) -> Vec<u8> {
    let (_, data) = uri.split_once("base64,").expect("a base64 data URI");
    multidraw::scene::gltf_import::decode_base64(data).expect("valid base64")
}

/// A 64 × 64 PNG whose left half is `left` and right half `right`.
fn halves_png(left: [u8; 4], right: [u8; 4]) -> Vec<u8> {
    png(move |x, _| if x < 32 { left } else { right })
}

/// The pixels at the centres of the screen's left and right halves.
fn halves(image: &image::RgbaImage) -> [[u8; 3]; 2] {
    [(8, 16), (24, 16)].map(|(x, y)| {
        let [r, g, b, _] = image.get_pixel(x, y).0;
        [r, g, b]
    })
}

/// The quad drawn with `material` (no textures) in a scene with `extra` environment keys.
fn reference(name: &str, material: Value, extra: &str) -> [[u8; 3]; 2] {
    halves(&render(name, &load_with(name, &model(&Quad::upright(), material, &[]), extra), false))
}

#[test]
fn metallic_roughness_textures_scale_the_factors() {
    // B is metalness, G roughness, each multiplying its factor: the left half (B 0, G 255)
    // shades as metallic 0, roughness 1; the right half (B 255, G 64) as metallic 1,
    // roughness 64/255.
    let base = [0.9, 0.6, 0.3, 1.0];
    let factors = |metallic: f32, roughness: f32| json!({ "pbrMetallicRoughness": { "baseColorFactor": base, "metallicFactor": metallic, "roughnessFactor": roughness } });
    let mut material = factors(1.0, 1.0);
    material["pbrMetallicRoughness"]["metallicRoughnessTexture"] = json!({ "index": 0 });
    let texture = halves_png([0, 255, 0, 255], [0, 64, 255, 255]);
    let image = render("metal-rough", &load("metal-rough", &model(&Quad::upright(), material, &[texture])), false);
    let [left, right] = halves(&image);
    let dielectric = reference("dielectric-rough", factors(0.0, 1.0), "")[0];
    let metal = reference("metal-smooth", factors(1.0, 64.0 / 255.0), "")[1];
    assert_pixel(&image, 8, 16, dielectric, "B 0, G 255: a rough dielectric");
    assert_pixel(&image, 24, 16, metal, "B 255, G 64: a smoother metal");
    assert!(left != right, "the two halves shade differently: {left:?} {right:?}");
}

#[test]
fn occlusion_textures_darken_only_the_environment_light() {
    // R 0 on the left, 255 on the right, strength 1: the left half gets the sun alone, the
    // right half everything.
    let material = json!({ "occlusionTexture": { "index": 0 } });
    let texture = halves_png([0, 0, 0, 255], [255, 255, 255, 255]);
    let image = render("occlusion", &load("occlusion", &model(&Quad::upright(), material, &[texture])), false);
    let sun_only = reference("occlusion-sun-only", json!({}), "intensity = 0.0")[0];
    let everything = reference("occlusion-none", json!({}), "")[1];
    assert_pixel(&image, 8, 16, sun_only, "occlusion 0: no environment light");
    assert_pixel(&image, 24, 16, everything, "occlusion 1: all of it");
    assert!(sun_only != everything, "the environment lights the quad: {sun_only:?} {everything:?}");
}

#[test]
fn emissive_textures_and_strength_add_light() {
    // A black metal reflects nothing: what shows is the emission, emissiveFactor 0.25 ×
    // strength 2 × the texture (white left, red right), exactly.
    let material = json!({
        "pbrMetallicRoughness": { "baseColorFactor": [0.0, 0.0, 0.0, 1.0], "metallicFactor": 1.0 },
        "emissiveFactor": [0.25, 0.25, 0.25],
        "emissiveTexture": { "index": 0 },
        "extensions": { "KHR_materials_emissive_strength": { "emissiveStrength": 2.0 } },
    });
    let texture = halves_png([255, 255, 255, 255], [255, 0, 0, 255]);
    let scene = load_with("emissive", &model(&Quad::upright(), material, &[texture]), "intensity = 0.0");
    let image = render("emissive", &scene, false);
    let half = linear_to_srgb(0.5);
    assert_pixel(&image, 8, 16, [half; 3], "0.25 × 2 × white");
    assert_pixel(&image, 24, 16, [half, 0, 0], "0.25 × 2 × red");
}

#[test]
fn unlit_materials_show_their_base_colour() {
    let material = json!({
        "pbrMetallicRoughness": { "baseColorFactor": [0.5, 0.25, 0.125, 1.0] },
        "extensions": { "KHR_materials_unlit": {} },
    });
    let image = render("unlit", &load("unlit", &model(&Quad::upright(), material, &[])), false);
    let expected = [0.5, 0.25, 0.125].map(linear_to_srgb);
    for (x, y) in [(2, 2), (16, 16), (29, 29)] {
        assert_pixel(&image, x, y, expected, "KHR_materials_unlit");
    }
}

#[test]
fn static_morph_weights_pose_the_mesh() {
    // One target moving the quad (x from -1 to 1) right by 2: at the mesh's weight 0.5 it
    // covers the right half of the view; a node weight of 0 overrides it, 1 moves it out.
    let white = json!({ "pbrMetallicRoughness": { "baseColorFactor": [1.0, 1.0, 1.0, 1.0] } });
    let posed = |name: &str, node: Option<f32>| {
        let quad = Quad { morph: Some(([2.0, 0.0, 0.0], 0.5, node)), ..Quad::upright() };
        halves(&render(name, &load(name, &model(&quad, white.clone(), &[])), true))
    };
    let background =
        halves(&render("morph-none", &load("morph-none", &model(&Quad::upright(), white.clone(), &[])), true));
    assert_eq!(background, [[255; 3]; 2], "the plain quad fills the view");
    let [left, right] = posed("morph-mesh", None);
    assert_eq!(right, [255; 3], "mesh weight 0.5: the right half is covered");
    assert_ne!(left, [255; 3], "mesh weight 0.5: the left half is empty");
    assert_eq!(posed("morph-node-0", Some(0.0)), [[255; 3]; 2], "node weight 0: as stored");
    let [left, right] = posed("morph-node-1", Some(1.0));
    assert!(left != [255; 3] && right != [255; 3], "node weight 1: moved out of view");
}

/// Values a glTF file may not hold are refused with the file's JSON path and the value, as a
/// scene file's are (issue 27, class 6): a base colour factor outside [0, 1], a texture
/// transform far past what 32-bit coordinates resolve; and a transform's `texCoord` past
/// `TEXCOORD_1` is named in the warning instead of being read from set 0 without a word.
#[test]
fn invalid_material_values_are_refused_by_name() {
    let quad = Quad::upright();
    let load_error = |name: &str, material: Value| {
        let dir = scratch(name);
        std::fs::write(dir.join("quad.gltf"), model(&quad, material, &[quadrants_png()])).unwrap();
        let path = dir.join("scene.toml");
        std::fs::write(
            &path,
            "[scene]\nname = \"quad\"\n\n[[model]]\nname = \"quad\"\ngltf = \"quad.gltf\"\n\n\
             [[objects]]\ntransforms = [{ model = \"quad\", position = [0.0, 0.0, 0.0] }]\n",
        )
        .unwrap();
        file::load(&path).map(|scene| scene.notes).map_err(|e| e.chain())
    };
    let error =
        load_error("bad-factor", json!({ "pbrMetallicRoughness": { "baseColorFactor": [-1.0, 2.5, 1e30, 7.0] } }))
            .expect_err("a base colour factor outside [0, 1] is refused");
    assert!(error.contains("baseColorFactor") && error.contains("between 0 and 1"), "{error}");
    assert!(error.contains("quad.gltf"), "the file is named: {error}");
    let far = textured(json!({ "index": 0, "extensions": { "KHR_texture_transform": { "offset": [3e38, 0.0] } } }));
    let error = load_error("far-offset", far).expect_err("an offset of 3e38 is refused");
    assert!(error.contains("offset") && error.contains("KHR_texture_transform"), "{error}");
    let set_5 = textured(json!({ "index": 0, "extensions": { "KHR_texture_transform": { "texCoord": 5 } } }));
    let notes = load_error("texcoord-5", set_5).expect("a texCoord of 5 loads");
    assert!(notes.iter().any(|n| n.contains("TEXCOORD_2 or later")), "named in the warning: {notes:?}");
}

/// A model whose every part is flattened (a node scale of 0) places nothing: the scene is
/// refused with the reason, instead of "the scene has no meshes" or an empty frame (issue 27,
/// class 8).
#[test]
fn a_model_of_only_flattened_parts_is_refused_with_the_reason() {
    let mut gltf: Value = serde_json::from_slice(&model(&Quad::upright(), json!({}), &[])).unwrap();
    for node in gltf["nodes"].as_array_mut().expect("nodes") {
        node["scale"] = json!([0.0, 0.0, 0.0]);
    }
    let dir = scratch("flattened");
    std::fs::write(dir.join("quad.gltf"), serde_json::to_vec(&gltf).unwrap()).unwrap();
    let path = dir.join("scene.toml");
    std::fs::write(
        &path,
        "[scene]\nname = \"flat\"\n\n[[model]]\nname = \"quad\"\ngltf = \"quad.gltf\"\n\n\
         [[objects]]\ntransforms = [{ model = \"quad\", position = [0.0, 0.0, 0.0] }]\n",
    )
    .unwrap();
    let error = file::load(&path).map(|_| ()).expect_err("nothing to draw").chain();
    assert!(error.contains("place nothing that can be drawn") && error.contains("flattened"), "{error}");
}
