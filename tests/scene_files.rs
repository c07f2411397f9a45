//! Scene files (`multidraw::scene::file`): every shipped scene loads, the embedded default
//! scene is the built-in stress scene object for object, bad files give their message and
//! never panic (a table of hand-written ones, then property tests over mutated and random
//! files), and glTF import reads the committed model and refuses missing or corrupt ones.
//!
//! No GPU here: rendering the shipped scenes is another test file's job.
//!
//! The property tests run 100,000 cases in all; `MULTIDRAW_FUZZ_CASES=1000000 cargo test --test
//! scene_files` runs more (the count is split between them the same way; `PROPTEST_CASES`
//! works too), each case within a time bound.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use glam::Vec3;
use multidraw::mesh::procedural;
use multidraw::scene::file::{self, SceneError};
use multidraw::scene::generator::{stress_scene, StressParams};
use multidraw::scene::gltf_import;
use multidraw::scene::sandbox::Sandbox;
use multidraw::scene::{Scene, Variant};
use proptest::prelude::*;
use serde_json::json;

fn scenes_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes")
}

/// A fresh directory under Cargo's per-target scratch space.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("scene_files").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch directory");
    dir
}

/// Every reference of every object is in range, every placement finite, and the texture
/// layers have the size their slot says.
fn check_consistent(scene: &Scene) {
    let (meshes, materials) = (scene.meshes.meshes.len() as u32, scene.materials.len() as u32);
    for (i, o) in scene.objects.iter().enumerate() {
        assert!(o.mesh < meshes, "{}: object {i} has mesh {} of {meshes}", scene.name, o.mesh);
        assert!(o.material < materials, "{}: object {i} has material {} of {materials}", scene.name, o.material);
        assert!(o.translation.is_finite() && o.rotation.is_finite() && o.scale > 0.0, "{}: object {i}", scene.name);
        assert!((o.orbit_class as u32) < multidraw::tunables::ANIMATION_CLASSES);
        assert!((o.spin_class as u32) < multidraw::tunables::ANIMATION_CLASSES);
    }
    for m in &scene.materials {
        if let Some(layer) = m.base_color_layer {
            assert!((layer as usize) < scene.base_color_textures.layers.len(), "material {}", m.name);
        }
        if let Some(layer) = m.normal_layer {
            assert!((layer as usize) < scene.normal_textures.layers.len(), "material {}", m.name);
        }
    }
    for textures in [&scene.base_color_textures, &scene.normal_textures] {
        for layer in &textures.layers {
            assert_eq!(layer.rgba.len(), (layer.size * layer.size * 4) as usize);
        }
    }
    assert!(scene.camera.position.is_finite() && scene.camera.near > 0.0 && scene.camera.far > scene.camera.near);
}

/// Everything but the name.
fn assert_same_scene(actual: &Scene, expected: &Scene) {
    assert_eq!(actual.meshes.meshes, expected.meshes.meshes, "mesh ranges");
    assert_eq!(actual.meshes.vertices, expected.meshes.vertices, "vertices");
    assert_eq!(actual.meshes.indices, expected.meshes.indices, "indices");
    assert_eq!(actual.materials, expected.materials, "materials");
    assert_eq!(actual.objects.len(), expected.objects.len(), "object count");
    for (i, (a, e)) in actual.objects.iter().zip(&expected.objects).enumerate() {
        assert_eq!(a, e, "object {i}");
    }
    assert_eq!(actual.camera, expected.camera, "camera");
    assert_eq!(actual.animated, expected.animated, "animated");
    assert_eq!(actual.base_color_textures, expected.base_color_textures, "base colour textures");
    assert_eq!(actual.normal_textures, expected.normal_textures, "normal textures");
}

// ---------------------------------------------------------------------------------------
// Shipped scenes.

#[test]
fn every_shipped_scene_loads() {
    let expected = [
        ("default.toml", 100_000),
        ("million.toml", 1_000_000),
        ("city.toml", 40_001),
        ("city-street.toml", 40_001),
        ("city-sun.toml", 40_001),
        ("tiny-million.toml", 1_000_000),
        ("asteroids.toml", 200_004),
        ("gltf.toml", 1_082),
        ("models.toml", 49_009),
        ("materials.toml", 37),
        ("glass.toml", 100_000),
    ];
    let mut found: Vec<String> = std::fs::read_dir(scenes_dir())
        .expect("scenes/ exists")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    found.sort();
    let mut listed: Vec<String> = expected.iter().map(|(n, _)| n.to_string()).collect();
    listed.sort();
    assert_eq!(found, listed, "every scene in scenes/ is listed here with its object count");
    for (name, objects) in expected {
        let scene = file::load(&scenes_dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(scene.objects.len(), objects, "{name}");
        assert_eq!(scene.name, name.trim_end_matches(".toml"));
        check_consistent(&scene);
    }
}

#[test]
fn default_scene_is_the_stress_scene() {
    let scene = file::default_scene();
    assert_eq!(scene.name, "default");
    assert_same_scene(&scene, &stress_scene(&StressParams { objects: 100_000, seed: 1, animated: true }));
    // The embedded text is the file on disk.
    let on_disk = std::fs::read_to_string(scenes_dir().join("default.toml")).unwrap();
    assert_eq!(file::DEFAULT_SCENE_TOML, on_disk);
}

#[test]
fn default_scene_with_objects_overrides_the_count() {
    for objects in [0, 1, 20_000] {
        let scene = file::default_scene_with_objects(objects);
        assert_same_scene(&scene, &stress_scene(&StressParams { objects, seed: 1, animated: true }));
    }
}

#[test]
fn city_scene_puts_roof_details_on_roofs() {
    let scene = file::load(&scenes_dir().join("city.toml")).unwrap();
    let mesh = |name: &str| scene.meshes.find(name).unwrap();
    let tall = scene.objects.iter().filter(|o| o.mesh == mesh("tall-block")).count();
    let spires = scene.objects.iter().filter(|o| o.mesh == mesh("spire")).count();
    assert_eq!((tall, spires), (2500, 2500));
    // A spire stands where a tall block's top is.
    let top = scene.meshes.meshes[mesh("tall-block") as usize].bounds;
    assert!((top.y - 15.0).abs() < 1e-4, "the block's base is at y = 0: centre {top}");
    let block = scene.objects.iter().find(|o| o.mesh == mesh("tall-block")).unwrap();
    let spire_at = block.translation + Vec3::Y * 30.0;
    assert!(scene.objects.iter().any(|o| o.mesh == mesh("spire") && o.translation.distance(spire_at) < 1e-3));
    assert!(!scene.animated);
}

#[test]
fn asteroid_belts_orbit_together() {
    let scene = file::load(&scenes_dir().join("asteroids.toml")).unwrap();
    assert!(scene.animated);
    let planet = &scene.objects[0];
    assert_eq!((planet.translation, planet.orbit_class), (Vec3::ZERO, 0));
    let belt = &scene.objects[1..60_001];
    assert!(belt.iter().all(|o| o.orbit_class == 5 && o.spin_class >= 1));
    for o in belt {
        let radius = Vec3::new(o.translation.x, 0.0, o.translation.z).length();
        assert!((58.0 - 1e-3..=80.0 + 1e-3).contains(&radius) && o.translation.y.abs() <= 1.0 + 1e-6, "{o:?}");
    }
}

// ---------------------------------------------------------------------------------------
// The committed glTF model.

#[test]
fn gltf_model_imports_with_its_counts() {
    let scene = file::load(&scenes_dir().join("gltf.toml")).unwrap();
    let range = |name: &str| scene.meshes.meshes[scene.meshes.find(name).unwrap() as usize].clone();
    // Two primitives with their own vertices, merged.
    let crate_mesh = range("crate");
    assert_eq!((crate_mesh.vertex_count, crate_mesh.index_count), (24, 36));
    // u8 indices, normals generated smooth over shared vertices.
    let marker = range("marker");
    assert_eq!((marker.vertex_count, marker.index_count), (4, 12));
    // Not indexed: 0..n, flat normals. The two triangles' shared corners are equal in every
    // attribute, so the arena keeps one of each (`mesh::optimize`): 6 vertices written, 4 packed.
    let shard = range("shard");
    assert_eq!((shard.vertex_count, shard.index_count), (4, 6));
    let shard_vertices = &scene.meshes.vertices[shard.base_vertex as usize..][..4];
    assert!(shard_vertices.iter().all(|v| v.normal == [0.0, 0.0, 1.0] && v.uv == [0.0, 0.0]));
    let marker_vertices = &scene.meshes.vertices[marker.base_vertex as usize..][..4];
    assert!(marker_vertices.iter().all(|v| (Vec3::from(v.normal).length() - 1.0).abs() < 1e-5));

    // Same geometry as the procedural cube it was made from.
    let cube = procedural::cube();
    let imported = &scene.meshes.vertices[crate_mesh.base_vertex as usize..][..24];
    assert_eq!(imported, cube.vertices.as_slice());
    let indices = &scene.meshes.indices[crate_mesh.first_index as usize..][..36];
    assert_eq!(indices, cube.indices.as_slice());

    let material = |name: &str| scene.materials.iter().find(|m| m.name == name).unwrap().clone();
    let wood = material("wood");
    assert_eq!(wood.base_color.to_array(), [1.0, 0.9, 0.8, 1.0]);
    assert_eq!(wood.variant, Variant::Opaque);
    let layer = &scene.base_color_textures.layers[wood.base_color_layer.unwrap() as usize];
    assert_eq!(layer.size, file::TEXTURE_SIZE);
    assert_eq!(layer.encoding, multidraw::scene::TextureEncoding::Srgb);
    // 16×16 texels scaled up to the smallest size class, 64×64, nearest (the model's
    // magFilter): each source texel covers 4×4.
    let texels = crate_texture();
    for (y, x) in [(0, 0), (5, 9), (17, 33), (63, 63), (40, 2)] {
        let source = ((y / 4) * 16 + x / 4) * 4;
        assert_eq!(&layer.rgba[(y * 64 + x) * 4..][..4], &texels[source..source + 4], "texel {x},{y}");
    }
    let paint = material("paint");
    assert_eq!((paint.variant, paint.base_color_layer), (Variant::DoubleSided, None));
    let leaf = material("leaf");
    assert_eq!((leaf.variant, leaf.alpha_cutoff), (Variant::Masked, 0.4));
}

/// The committed model is exactly what [`crate_gltf`] writes (regenerate with
/// `cargo test --test scene_files -- --ignored write_crate_model`).
#[test]
fn committed_gltf_model_is_reproducible() {
    let committed = std::fs::read_to_string(scenes_dir().join("models/crate.gltf")).unwrap();
    let committed: serde_json::Value = serde_json::from_str(&committed).unwrap();
    let generated = crate_gltf();
    // The PNG bytes depend on the encoder's version; compare the decoded image instead.
    let image_uri = |v: &serde_json::Value| v["images"][0]["uri"].as_str().unwrap().to_string();
    let decode = |uri: String| {
        let bytes = gltf_import::decode_base64(uri.strip_prefix("data:image/png;base64,").unwrap()).unwrap();
        image::load_from_memory(&bytes).unwrap().to_rgba8().into_raw()
    };
    assert_eq!(decode(image_uri(&committed)), decode(image_uri(&generated)));
    let strip = |mut v: serde_json::Value| {
        v["images"][0]["uri"] = json!("");
        v
    };
    assert_eq!(strip(committed), strip(generated));
}

#[test]
#[ignore = "writes scenes/models/crate.gltf"]
fn write_crate_model() {
    let text = serde_json::to_string_pretty(&crate_gltf()).unwrap() + "\n";
    std::fs::write(scenes_dir().join("models/crate.gltf"), text).unwrap();
}

/// The 16×16 crate texture: planks with a dark frame and a diagonal brace.
fn crate_texture() -> Vec<u8> {
    let mut rgba = Vec::with_capacity(16 * 16 * 4);
    for y in 0..16u32 {
        for x in 0..16u32 {
            let frame = x == 0 || y == 0 || x == 15 || y == 15 || x == y || x + 1 == y;
            let texel = if frame {
                [92, 58, 30, 255]
            } else if (y / 3) % 2 == 0 {
                [186, 134, 80, 255]
            } else {
                [164, 114, 64, 255]
            };
            rgba.extend(texel);
        }
    }
    rgba
}

fn png(rgba: &[u8], size: u32) -> Vec<u8> {
    let image = image::RgbaImage::from_raw(size, size, rgba.to_vec()).unwrap();
    let mut bytes = std::io::Cursor::new(Vec::new());
    image.write_to(&mut bytes, image::ImageFormat::Png).unwrap();
    bytes.into_inner()
}

/// Geometry of the crate model: (buffer bytes, buffer views, accessors, meshes).
fn crate_parts() -> (Vec<u8>, serde_json::Value, serde_json::Value, serde_json::Value) {
    let cube = procedural::cube();
    let mut buffer: Vec<u8> = Vec::new();
    let mut views = Vec::new();
    let mut push_view = |buffer: &mut Vec<u8>, bytes: &[u8], target: u32| {
        let offset = buffer.len();
        buffer.extend_from_slice(bytes);
        while !buffer.len().is_multiple_of(4) {
            buffer.push(0);
        }
        views.push(json!({ "buffer": 0, "byteOffset": offset, "byteLength": bytes.len(), "target": target }));
        views.len() - 1
    };
    let floats = |values: &mut dyn Iterator<Item = f32>| values.flat_map(f32::to_le_bytes).collect::<Vec<u8>>();
    const ARRAY: u32 = 34962;
    const ELEMENTS: u32 = 34963;
    let positions = push_view(&mut buffer, &floats(&mut cube.vertices.iter().flat_map(|v| v.position)), ARRAY);
    let normals = push_view(&mut buffer, &floats(&mut cube.vertices.iter().flat_map(|v| v.normal)), ARRAY);
    let uvs = push_view(&mut buffer, &floats(&mut cube.vertices.iter().flat_map(|v| v.uv)), ARRAY);
    // Faces ±X and ±Y (vertices 0..16) are primitive 0; faces ±Z (16..24) primitive 1.
    let crate_indices: Vec<u8> = cube.indices[..24]
        .iter()
        .copied()
        .chain(cube.indices[24..].iter().map(|i| i - 16))
        .flat_map(|i| (i as u16).to_le_bytes())
        .collect();
    let indices = push_view(&mut buffer, &crate_indices, ELEMENTS);
    let tetra = [[0.0, 0.6, 0.0], [-0.5, -0.3, -0.3], [0.5, -0.3, -0.3], [0.0, -0.3, 0.5f32]];
    let marker_positions = push_view(&mut buffer, &floats(&mut tetra.iter().flatten().copied()), ARRAY);
    let shard =
        [[0.0, 0.5, 0.0], [-0.2, 0.0, 0.0], [0.2, 0.0, 0.0], [0.0, -0.5, 0.0], [0.2, 0.0, 0.0], [-0.2, 0.0, 0.0f32]];
    let shard_positions = push_view(&mut buffer, &floats(&mut shard.iter().flatten().copied()), ARRAY);
    // Counter-clockwise seen from outside: each face's winding faces away from the centroid.
    let centroid = tetra.iter().map(|&p| Vec3::from(p)).sum::<Vec3>() / 4.0;
    let marker_indices: Vec<u8> = [[0u8, 1, 2], [0, 2, 3], [0, 3, 1], [1, 3, 2]]
        .iter()
        .flat_map(|&[a, b, c]| {
            let [pa, pb, pc] = [a, b, c].map(|i| Vec3::from(tetra[i as usize]));
            if (pb - pa).cross(pc - pa).dot(pa - centroid) < 0.0 {
                [a, c, b]
            } else {
                [a, b, c]
            }
        })
        .collect();
    let marker_index_view = push_view(&mut buffer, &marker_indices, ELEMENTS);

    let bounds = |points: &[[f32; 3]]| {
        let (lo, hi) = points.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), &p| (lo.min(p.into()), hi.max(p.into())));
        (lo.to_array(), hi.to_array())
    };
    let cube_positions: Vec<[f32; 3]> = cube.vertices.iter().map(|v| v.position).collect();
    let (lo0, hi0) = bounds(&cube_positions[..16]);
    let (lo1, hi1) = bounds(&cube_positions[16..]);
    let (lo_t, hi_t) = bounds(&tetra);
    let (lo_s, hi_s) = bounds(&shard);
    let accessors = json!([
        { "bufferView": positions, "byteOffset": 0, "componentType": 5126, "count": 16, "type": "VEC3", "min": lo0, "max": hi0 },
        { "bufferView": normals, "byteOffset": 0, "componentType": 5126, "count": 16, "type": "VEC3" },
        { "bufferView": uvs, "byteOffset": 0, "componentType": 5126, "count": 16, "type": "VEC2" },
        { "bufferView": positions, "byteOffset": 192, "componentType": 5126, "count": 8, "type": "VEC3", "min": lo1, "max": hi1 },
        { "bufferView": normals, "byteOffset": 192, "componentType": 5126, "count": 8, "type": "VEC3" },
        { "bufferView": uvs, "byteOffset": 128, "componentType": 5126, "count": 8, "type": "VEC2" },
        { "bufferView": indices, "byteOffset": 0, "componentType": 5123, "count": 24, "type": "SCALAR" },
        { "bufferView": indices, "byteOffset": 48, "componentType": 5123, "count": 12, "type": "SCALAR" },
        { "bufferView": marker_positions, "componentType": 5126, "count": 4, "type": "VEC3", "min": lo_t, "max": hi_t },
        { "bufferView": marker_index_view, "componentType": 5121, "count": 12, "type": "SCALAR" },
        { "bufferView": shard_positions, "componentType": 5126, "count": 6, "type": "VEC3", "min": lo_s, "max": hi_s },
    ]);
    let meshes = json!([
        { "name": "crate", "primitives": [
            { "attributes": { "POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2 }, "indices": 6, "material": 0 },
            { "attributes": { "POSITION": 3, "NORMAL": 4, "TEXCOORD_0": 5 }, "indices": 7, "material": 0 },
        ] },
        { "name": "marker", "primitives": [ { "attributes": { "POSITION": 8 }, "indices": 9, "material": 1 } ] },
        { "name": "shard", "primitives": [ { "attributes": { "POSITION": 10 }, "material": 2 } ] },
    ]);
    (buffer, json!(views), accessors, meshes)
}

fn crate_materials() -> serde_json::Value {
    json!([
        { "name": "crate-wood", "pbrMetallicRoughness": {
            "baseColorFactor": [1.0, 0.9, 0.8, 1.0], "baseColorTexture": { "index": 0 }, "metallicFactor": 0.0 } },
        { "name": "marker-paint", "pbrMetallicRoughness": { "baseColorFactor": [0.9, 0.2, 0.1, 1.0] }, "doubleSided": true },
        { "name": "leaf", "pbrMetallicRoughness": { "baseColorFactor": [0.3, 0.7, 0.25, 1.0] },
          "alphaMode": "MASK", "alphaCutoff": 0.4 },
    ])
}

/// scenes/models/crate.gltf: one embedded buffer and one embedded PNG, as data URIs.
fn crate_gltf() -> serde_json::Value {
    let (buffer, views, accessors, meshes) = crate_parts();
    json!({
        "asset": { "version": "2.0", "generator": "multidraw tests/scene_files.rs (write_crate_model)", "copyright": "CC0-1.0" },
        "scene": 0,
        "scenes": [ { "nodes": [0, 1, 2] } ],
        "nodes": [
            { "name": "crate", "mesh": 0 },
            { "name": "marker", "mesh": 1, "translation": [2.0, 0.0, 0.0] },
            { "name": "shard", "mesh": 2, "translation": [-2.0, 0.0, 0.0] },
        ],
        "meshes": meshes,
        "materials": crate_materials(),
        "textures": [ { "source": 0, "sampler": 0 } ],
        "samplers": [ { "magFilter": 9728, "minFilter": 9728 } ],
        "images": [ { "uri": format!("data:image/png;base64,{}", gltf_import::encode_base64(&png(&crate_texture(), 16))) } ],
        "accessors": accessors,
        "bufferViews": views,
        "buffers": [ { "byteLength": buffer.len(), "uri": format!("data:application/octet-stream;base64,{}", gltf_import::encode_base64(&buffer)) } ],
    })
}

/// The same model as a `.glb`: the buffer in the BIN chunk and the PNG in a buffer view.
fn crate_glb() -> Vec<u8> {
    let (document, buffer) = crate_glb_parts();
    pack_glb(&document, &buffer)
}

/// The `.glb` model's JSON document and BIN chunk.
fn crate_glb_parts() -> (serde_json::Value, Vec<u8>) {
    let (mut buffer, views, accessors, meshes) = crate_parts();
    let image = png(&crate_texture(), 16);
    let mut views = views.as_array().unwrap().clone();
    views.push(json!({ "buffer": 0, "byteOffset": buffer.len(), "byteLength": image.len() }));
    buffer.extend_from_slice(&image);
    while !buffer.len().is_multiple_of(4) {
        buffer.push(0);
    }
    let document = json!({
        "asset": { "version": "2.0" },
        "meshes": meshes,
        "materials": crate_materials(),
        // The same sampler as the .gltf's (nearest), so both scale the image up alike.
        "samplers": [ { "magFilter": 9728, "minFilter": 9728 } ],
        "textures": [ { "source": 0, "sampler": 0 } ],
        "images": [ { "bufferView": views.len() - 1, "mimeType": "image/png" } ],
        "accessors": accessors,
        "bufferViews": views,
        "buffers": [ { "byteLength": buffer.len() } ],
    });
    (document, buffer)
}

fn pack_glb(document: &serde_json::Value, buffer: &[u8]) -> Vec<u8> {
    let mut text = serde_json::to_vec(document).unwrap();
    while !text.len().is_multiple_of(4) {
        text.push(b' ');
    }
    let total = 12 + 8 + text.len() + 8 + buffer.len();
    let mut glb = Vec::with_capacity(total);
    glb.extend_from_slice(b"glTF");
    glb.extend_from_slice(&2u32.to_le_bytes());
    glb.extend_from_slice(&(total as u32).to_le_bytes());
    glb.extend_from_slice(&(text.len() as u32).to_le_bytes());
    glb.extend_from_slice(b"JSON");
    glb.extend_from_slice(&text);
    glb.extend_from_slice(&(buffer.len() as u32).to_le_bytes());
    glb.extend_from_slice(b"BIN\0");
    glb.extend_from_slice(buffer);
    glb
}

const GLTF_SCENE: &str = r#"
[[mesh]]
name = "crate"
gltf = "MODEL"

[[material]]
name = "wood"
gltf = "MODEL"

[[objects]]
transforms = [{ mesh = "crate", material = "wood", position = [0, 0, 0] }]
"#;

/// Writes `model` (and `extra` files) into a scratch directory with a scene that uses it.
fn load_with_model(
    dir_name: &str,
    model_name: &str,
    model: &[u8],
    extra: &[(&str, &[u8])],
) -> Result<Scene, SceneError> {
    let dir = scratch(dir_name);
    std::fs::write(dir.join(model_name), model).unwrap();
    for (name, bytes) in extra {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    let scene = dir.join("scene.toml");
    std::fs::write(&scene, GLTF_SCENE.replace("MODEL", model_name)).unwrap();
    file::load(&scene)
}

#[test]
fn glb_with_image_in_a_buffer_view_matches_the_gltf() {
    let scene = load_with_model("glb", "crate.glb", &crate_glb(), &[]).unwrap_or_else(|e| panic!("{e}"));
    let reference = file::load(&scenes_dir().join("gltf.toml")).unwrap();
    let crate_range = |s: &Scene| s.meshes.meshes[s.meshes.find("crate").unwrap() as usize].clone();
    let (a, b) = (crate_range(&scene), crate_range(&reference));
    assert_eq!(
        &scene.meshes.vertices[a.base_vertex as usize..][..24],
        &reference.meshes.vertices[b.base_vertex as usize..][..24]
    );
    let layer = |s: &Scene, name: &str| {
        let m = s.materials.iter().find(|m| m.name == name).unwrap();
        s.base_color_textures.layers[m.base_color_layer.unwrap() as usize].clone()
    };
    assert_eq!(layer(&scene, "wood"), layer(&reference, "wood"));
}

#[test]
fn gltf_with_external_buffer_and_image_files() {
    let mut document = crate_gltf();
    let (buffer, ..) = crate_parts();
    document["buffers"][0]["uri"] = json!("data/crate%20buffer.bin");
    document["images"][0]["uri"] = json!("../textures/crate.png");
    let model = serde_json::to_vec(&document).unwrap();
    let png = png(&crate_texture(), 16);
    let extra: [(&str, &[u8]); 2] = [("models/data/crate buffer.bin", &buffer), ("textures/crate.png", &png)];
    let dir = scratch("external");
    for (name, bytes) in extra {
        std::fs::create_dir_all(dir.join(name).parent().unwrap()).unwrap();
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    std::fs::write(dir.join("models/crate.gltf"), &model).unwrap();
    std::fs::write(dir.join("scene.toml"), GLTF_SCENE.replace("MODEL", "models/crate.gltf")).unwrap();
    let scene = file::load(&dir.join("scene.toml")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(scene.meshes.meshes[0].vertex_count, 24);
    assert!(scene.materials[0].base_color_layer.is_some());

    // A buffer outside the scene's directory is refused even though it exists.
    std::fs::write(dir.parent().unwrap().join("outside.bin"), &buffer).unwrap();
    document["buffers"][0]["uri"] = json!("../../outside.bin");
    std::fs::write(dir.join("models/crate.gltf"), serde_json::to_vec(&document).unwrap()).unwrap();
    let error = file::load(&dir.join("scene.toml")).unwrap_err().chain();
    assert!(error.contains("buffer 0 \"") && error.contains("outside.bin\" resolves to"), "{error}");
    assert!(error.contains("outside the scene's directory"), "{error}");
}

#[test]
fn missing_and_corrupt_gltf_files_are_errors() {
    let dir = scratch("missing");
    std::fs::write(dir.join("scene.toml"), GLTF_SCENE.replace("MODEL", "models/missing.gltf")).unwrap();
    let error = file::load(&dir.join("scene.toml")).unwrap_err().chain();
    assert!(error.contains("glTF file \"models/missing.gltf\": cannot read glTF file"), "{error}");
    assert!(error.contains("scene.toml:4:8"), "{error}");

    let valid = serde_json::to_vec(&crate_gltf()).unwrap();
    let truncated = &valid[..valid.len() / 2];
    let mut short_buffer = crate_gltf();
    short_buffer["buffers"][0]["byteLength"] = json!(100_000);
    let mut bad_accessor = crate_gltf();
    bad_accessor["accessors"][0]["count"] = json!(1_000_000);
    let mut bad_index = crate_gltf();
    bad_index["accessors"][7]["count"] = json!(13);
    let mut index_range = crate_gltf();
    index_range["accessors"][6]["componentType"] = json!(5125);
    index_range["accessors"][6]["count"] = json!(12);
    let mut jpeg = crate_gltf();
    jpeg["images"][0]["uri"] = json!("data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ==");
    let mut lines = crate_gltf();
    lines["meshes"][0]["primitives"][0]["mode"] = json!(1);
    let mut wrong_type = crate_gltf();
    wrong_type["accessors"][0]["type"] = json!("VEC2");
    let mut bad_base64 = crate_gltf();
    bad_base64["buffers"][0]["uri"] = json!("data:application/octet-stream;base64,@@@@");
    let mut web = crate_gltf();
    web["buffers"][0]["uri"] = json!("https://example.com/crate.bin");
    let mut zero_count = crate_gltf();
    zero_count["accessors"][0]["count"] = json!(0);
    let mut huge_stride = crate_gltf();
    huge_stride["bufferViews"][0]["byteStride"] = json!(252);
    let mut no_meshes = crate_gltf();
    no_meshes["meshes"] = json!([]);
    no_meshes["nodes"] = json!([]);
    no_meshes["scenes"] = json!([{ "nodes": [] }]);
    let mut glb_truncated = crate_glb();
    glb_truncated.truncate(glb_truncated.len() - 100);
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("empty", Vec::new(), "not a valid glTF 2.0 file"),
        ("text", b"hello, world".to_vec(), "not a valid glTF 2.0 file"),
        ("truncated", truncated.to_vec(), "not a valid glTF 2.0 file"),
        ("glb-truncated", glb_truncated, "not a valid glTF 2.0 file"),
        (
            "short-buffer",
            serde_json::to_vec(&short_buffer).unwrap(),
            "buffer 0: it has 972 bytes but the file declares 100000",
        ),
        ("accessor", serde_json::to_vec(&bad_accessor).unwrap(), "elements run past the end of buffer view 0"),
        (
            "index",
            serde_json::to_vec(&bad_index).unwrap(),
            "mesh #0 \"crate\" primitive 1 indices: 13 elements run past the end of buffer view 3",
        ),
        (
            "index-range",
            serde_json::to_vec(&index_range).unwrap(),
            "primitive 0: index 131072 is out of range for 16 vertices",
        ),
        ("jpeg", serde_json::to_vec(&jpeg).unwrap(), "images[0] (a data: URI): it is not a readable JPEG"),
        ("lines", serde_json::to_vec(&lines).unwrap(), "only triangles (lists, strips and fans) (not supported)"),
        ("wrong-type", serde_json::to_vec(&wrong_type).unwrap(), "POSITION: Vec2 of F32 (not supported)"),
        ("base64", serde_json::to_vec(&bad_base64).unwrap(), "has invalid base64 data"),
        ("web", serde_json::to_vec(&web).unwrap(), "is not a relative file path or a data: URI"),
        ("zero-count", serde_json::to_vec(&zero_count).unwrap(), "it has no elements"),
        ("stride", serde_json::to_vec(&huge_stride).unwrap(), "run past the end"),
        ("no-meshes", serde_json::to_vec(&no_meshes).unwrap(), "it has no mesh at all; it has none"),
    ];
    for (name, bytes, expected) in cases {
        let result =
            catch_unwind(AssertUnwindSafe(|| load_with_model(&format!("corrupt-{name}"), "model.gltf", &bytes, &[])));
        let error = match result {
            Ok(Ok(_)) => panic!("{name}: loaded"),
            Ok(Err(error)) => error.chain(),
            Err(_) => panic!("{name}: panicked"),
        };
        assert!(error.contains("glTF file \"model.gltf\""), "{name}: {error}");
        assert!(error.contains(expected), "{name}: expected \"{expected}\" in: {error}");
    }

    let mut second = crate_gltf();
    second["meshes"][0]["name"] = json!("box");
    let dir = scratch("selector");
    std::fs::write(dir.join("m.gltf"), serde_json::to_vec(&second).unwrap()).unwrap();
    let text = "[[mesh]]\nname = \"c\"\ngltf = \"m.gltf\"\nmesh = \"crate\"\n[scene]\nempty = true\n";
    let error = file::parse(text, "s.toml", Some(&dir)).unwrap_err().chain();
    assert!(error.contains("it has no mesh \"crate\"; it has #0 \"box\", #1 \"marker\", #2 \"shard\""), "{error}");
}

// ---------------------------------------------------------------------------------------
// Bad files.

const OK_MESH: &str = "[[mesh]]\nname = \"cube\"\nprocedural = \"cube\"\n";
const OK_MATERIAL: &str = "[[material]]\nname = \"red\"\nbase_color = [1, 0, 0, 1]\n";

/// A valid prefix plus a body, so each case isolates one mistake.
fn with_prelude(body: &str) -> String {
    format!("{OK_MESH}{OK_MATERIAL}{body}")
}

fn one_object(extra: &str) -> String {
    with_prelude(&format!(
        "[[objects]]\ntransforms = [{{ mesh = \"cube\", material = \"red\", position = [0, 0, 0]{extra} }}]\n"
    ))
}

#[test]
fn bad_scene_files_give_their_errors() {
    let random = |fields: &str| {
        with_prelude(&format!(
            "[[objects]]\nrandom = {{ count = 10, meshes = [\"cube\"], materials = [\"red\"]{fields} }}\n"
        ))
    };
    let rings = |fields: &str| {
        with_prelude(&format!(
            "[[objects]]\nrings = {{ count = 10, meshes = [\"cube\"], materials = [\"red\"]{fields} }}\n"
        ))
    };
    let grid = |counts: &str| {
        with_prelude(&format!(
            "[[objects]]\ngrid = {{ counts = {counts}, spacing = [1, 1, 1], meshes = [\"cube\"], materials = [\"red\"] }}\n"
        ))
    };
    let camera = |fields: &str| format!("{}[camera]\n{fields}\n", one_object(""));
    let mesh = |fields: &str| format!("[[mesh]]\nname = \"m\"\n{fields}\n[scene]\nempty = true\n");
    let material = |fields: &str| format!("[[material]]\nname = \"m\"\n{fields}\n[scene]\nempty = true\n");
    let gltf_mesh = |path: &str| format!("[[mesh]]\nname = \"m\"\ngltf = \"{path}\"\n[scene]\nempty = true\n");
    let base_dir = scenes_dir();

    let cases: Vec<(&str, String, Option<&Path>, &str)> = vec![
        ("syntax", "[scene\nname = \"x\"\n".into(), None, "bad.toml:1:7: "),
        ("unterminated string", "[scene]\nname = \"x\n".into(), None, "bad.toml:2:"),
        ("wrong type", "[scene]\nanimated = \"yes\"\n".into(), None, "bad.toml:2:12: invalid type: string \"yes\", expected a boolean"),
        ("unknown key", "[scene]\nnmae = \"x\"\n".into(), None, "bad.toml:2:1: unknown field `nmae`, expected one of `name`, `animated`, `empty`"),
        ("unknown section", "[lights]\nsun = 1\n".into(), None, "unknown field `lights`"),
        ("duplicate key", "[scene]\nname = \"a\"\nname = \"b\"\n".into(), None, "bad.toml:3:1: duplicate key `name`"),
        ("unknown procedural", mesh("procedural = \"cub\""), None, "unknown variant `cub`, expected one of `cube`"),
        ("mesh without kind", mesh(""), None, "mesh \"m\": needs procedural = one of \"cube\""),
        ("mesh with both kinds", mesh("procedural = \"cube\"\ngltf = \"x.gltf\""), None, "give either procedural or gltf, not both"),
        ("parameter of another kind", mesh("procedural = \"cube\"\nsegments = 8"), None, "`segments` does not apply to procedural = \"cube\" (it takes no parameters)"),
        ("too few segments", mesh("procedural = \"sphere\"\nsegments = 2"), None, "segments must be between 3 and 256, got 2"),
        ("too many subdivisions", mesh("procedural = \"icosphere\"\nsubdivisions = 9"), None, "subdivisions must be between 0 and 5, got 9"),
        ("flat mesh scale", mesh("procedural = \"cube\"\nscale = [1, 0, 1]"), None, "scale [1.0, 0.0, 1.0] has a zero component"),
        ("duplicate mesh", format!("{OK_MESH}{OK_MESH}[scene]\nempty = true\n"), None, "bad.toml:5:8: mesh \"cube\" is declared twice"),
        ("empty mesh name", "[[mesh]]\nname = \"\"\nprocedural = \"cube\"\n[scene]\nempty = true\n".into(), None, "mesh[0] has an empty name"),
        ("misspelt mesh", with_prelude("[[objects]]\ngrid = { counts = [1, 1, 1], spacing = [1, 1, 1], meshes = [\"cub\"], materials = [\"red\"] }\n"), None, "unknown mesh \"cub\" in objects[0].grid; did you mean \"cube\"?"),
        ("unknown material", one_object("").replace("material = \"red\"", "material = \"blue\""), None, "unknown material \"blue\" in objects[0].transforms[0]; the scene declares \"red\""),
        ("no materials", format!("{OK_MESH}[[objects]]\ntransforms = [{{ mesh = \"cube\", material = \"red\", position = [0, 0, 0] }}]\n"), None, "the scene declares no materials; add a [[material]] section"),
        ("zero count", random(", count = 0").replace("count = 10, ", ""), None, "objects[0].random.count must be at least 1, got 0"),
        ("negative count", rings(", radius = [1, 2]").replace("count = 10", "count = -5"), None, "objects[0].rings.count must be at least 1, got -5"),
        ("zero grid axis", grid("[10, 0, 10]"), None, "objects[0].grid.counts[1] must be at least 1, got 0"),
        ("too many objects", "[[objects]]\nstress = { count = 60000000 }\n".into(), None, "the scene has 60,000,000 objects; the maximum per scene file is 50,000,000"),
        ("too many in a grid", grid("[1000, 1000, 1000]"), None, "the scene has 1,000,000,000 objects"),
        ("nan", one_object("").replace("position = [0, 0, 0]", "position = [nan, 0, 0]"), None, "bad.toml:8:62: objects[0].transforms[0].position[0] = nan is not a finite 32-bit number"),
        ("inf", camera("position = [0, 0, 5]\ntarget = [0, 0, 0]\nfar = inf"), None, "bad.toml:12:7: camera.far = inf is not a finite"),
        ("beyond f32", one_object(", scale = 1e39"), None, "bad.toml:8:80: objects[0].transforms[0].scale = 1e39 is not a finite 32-bit number"),
        ("non-finite in a scale range", random(", scale = [0.5, -inf]"), None, "bad.toml:8:78: objects[0].random.scale[1] = -inf is not a finite 32-bit number"),
        ("non-finite extent", random(", half_extent = nan"), None, "bad.toml:8:78: objects[0].random.half_extent = nan is not a finite 32-bit number"),
        ("non-finite colour", material("base_color = [1, 1e300, 1]"), None, "bad.toml:3:18: material[0].base_color[1] = 1e300 is not a finite 32-bit number"),
        ("non-finite mesh scale", mesh("procedural = \"cube\"\nscale = [1, 1, -3.5e38]"), None, "bad.toml:4:16: mesh[0].scale[2] = -3.5e38 is not a finite 32-bit number"),
        ("non-finite spacing", grid("[2, 2, 2]").replace("spacing = [1, 1, 1]", "spacing = [1, +inf, 1]"), None, "bad.toml:8:44: objects[0].grid.spacing[1] = +inf is not a finite 32-bit number"),
        ("no objects", with_prelude(""), None, "the scene has no objects: add an [[objects]] set, or set empty = true under [scene]"),
        ("empty but not", format!("{}[scene]\nempty = true\n", one_object("")), None, "[scene] says empty = true, but the scene has 1 objects"),
        ("two kinds in a set", with_prelude("[[objects]]\nstress = { count = 1 }\nrandom = { count = 1, meshes = [\"cube\"], materials = [\"red\"] }\n"), None, "objects[0] needs exactly one of transforms, grid, random, rings or stress (found random and stress)"),
        ("no kind in a set", with_prelude("[[objects]]\nanimation = { spin = true }\n"), None, "(found none)"),
        ("empty transforms", with_prelude("[[objects]]\ntransforms = []\n"), None, "objects[0].transforms is empty"),
        ("empty mesh list", random("").replace("meshes = [\"cube\"]", "meshes = []"), None, "objects[0].random.meshes is empty; name at least one mesh"),
        ("glTF without a file", gltf_mesh("models/crate.gltf"), None, "glTF path \"models/crate.gltf\" needs a scene file on disk"),
        ("absolute glTF path", gltf_mesh("/etc/crate.gltf"), Some(&base_dir), "glTF path \"/etc/crate.gltf\" is absolute"),
        ("escaping glTF path", gltf_mesh("models/../../secret.gltf"), Some(&base_dir), "secret.gltf\" resolves to"),
        ("missing glTF file", gltf_mesh("models/nope.gltf"), Some(&base_dir), "glTF file \"models/nope.gltf\": cannot read glTF file"),
        ("not a glTF file", gltf_mesh("models/LICENSE"), Some(&base_dir), "glTF file \"models/LICENSE\": not a valid glTF 2.0 file"),
        ("unknown glTF mesh", gltf_mesh("models/crate.gltf").replace(".gltf\"\n", ".gltf\"\nmesh = 7\n"), Some(&base_dir), "it has no mesh #7; it has #0 \"crate\""),
        ("procedural with selector", mesh("procedural = \"cube\"\nmesh = 1"), None, "`mesh` selects a mesh of a glTF file"),
        ("camera auto and position", camera("auto = true\nposition = [0, 0, 1]"), None, "[camera] auto = true places the camera itself; remove position"),
        ("camera without target", camera("position = [0, 0, 1]"), None, "[camera] needs position and target, or auto = true"),
        ("camera near and far", camera("position = [0, 0, 5]\ntarget = [0, 0, 0]\nnear = 10\nfar = 1"), None, "needs 0 < near < far, got near 10 and far 1"),
        ("camera at its target", camera("position = [1, 2, 3]\ntarget = [1, 2, 3]"), None, "position and target are the same point"),
        ("camera up along view", camera("position = [0, 5, 0]\ntarget = [0, 0, 0]"), None, "is parallel to the view direction"),
        ("camera fov", camera("position = [0, 0, 5]\ntarget = [0, 0, 0]\nfov_y_degrees = 200"), None, "fov_y_degrees must be at least 0.001"),
        // Issue 27, class 7: extremes refused before any work, with the reason.
        ("camera fov too narrow", camera("position = [0, 0, 5]\ntarget = [0, 0, 0]\nfov_y_degrees = 1e-35"), None, "fov_y_degrees must be at least 0.001 (narrower, the projection's terms pass what 32-bit depth resolves) and below 180, got 0.00000000000000000000000000000000001"),
        ("object too small", one_object(", scale = 1e-30"), None, "is below 1e-15, where squared sizes underflow 32-bit floats and culling sees nothing; scale the scene up"),
        ("object too large", one_object(", scale = 1e25"), None, "beyond 1e18, where squared distances overflow 32-bit floats; scale the scene down"),
        ("animation class", one_object("").replace("[[objects]]\n", "[[objects]]\nanimation = { orbit = 16 }\n"), None, "objects[0].animation.orbit: classes run from 0 (still) to 15, got 16..=16"),
        ("animation type", one_object("").replace("[[objects]]\n", "[[objects]]\nanimation = { spin = \"fast\" }\n"), None, "expected true, false, a class number or a [lo, hi] range of classes, found \"fast\""),
        ("stress animation", "[[objects]]\nstress = { count = 5 }\nanimation = { spin = true }\n".into(), None, "a stress set picks its own animation classes"),
        ("ring radii", rings(", radius = [5, 2]"), None, "objects[0].rings.radius must be [inner, outer] with 0 <= inner <= outer"),
        ("off-axis animated ring", rings(", radius = [1, 2], center = [3, 0, 0]").replace("[[objects]]\n", "[[objects]]\nanimation = { orbit = true }\n"), None, "an animated ring needs center x and z of 0"),
        ("random extent", random(", half_extent = \"big\""), None, "expected a number or \"auto\", found \"big\""),
        ("scale range", random(", scale = [2, 1]"), None, "objects[0].random.scale must be positive (a range needs 0 < min <= max), got 2..1"),
        ("object scale", one_object(", scale = -1"), None, "objects[0].transforms[0]: scale must be positive, got -1"),
        ("zero quaternion", one_object(", quaternion = [0, 0, 0, 0]"), None, "quaternion has zero length"),
        ("two rotations", one_object(", quaternion = [0, 0, 0, 1], rotation_degrees = [0, 0, 0]"), None, "give rotation_degrees or quaternion, not both"),
        ("short position", one_object("").replace("[0, 0, 0]", "[0, 0]"), None, "invalid length 2, expected an array of length 3"),
        ("objects not a list", "objects = 5\n".into(), None, "invalid type: integer `5`, expected a sequence"),
        ("base colour length", material("base_color = [1, 1]"), None, "material \"m\": base_color needs 3 or 4 numbers (r, g, b[, a]), got 2"),
        ("negative colour", material("base_color = [1, -1, 1]"), None, "must be non-negative with alpha at most 1"),
        ("alpha cutoff range", material("variant = \"masked\"\nalpha_cutoff = 2"), None, "alpha_cutoff must be between 0 and 1, got 2"),
        ("alpha cutoff unused", material("alpha_cutoff = 0.3"), None, "alpha_cutoff only matters for variant = \"masked\""),
        ("unknown variant", material("variant = \"glass\""), None, "unknown variant `glass`, expected one of `opaque`, `masked`, `double-sided`, `debug`"),
        ("unknown texture", material("texture = \"wood\""), None, "unknown variant `wood`, expected one of `lattice`, `checker`, `noise`"),
        ("selector without glTF", material("material = 0"), None, "`material` selects a material of a glTF file, but no gltf is given"),
        ("empty scene name", "[scene]\nname = \"  \"\nempty = true\n".into(), None, "[scene] name is empty"),
        ("huge count type", "[[objects]]\nstress = { count = 1e3 }\n".into(), None, "objects[0].stress.count = 1e3 is not an integer"),
    ];
    assert!(cases.len() >= 25);
    let mut failures = Vec::new();
    for (what, text, base_dir, expected) in &cases {
        let result = catch_unwind(AssertUnwindSafe(|| file::parse(text, "bad.toml", *base_dir)));
        match result {
            Err(_) => failures.push(format!("{what}: panicked")),
            Ok(Ok(scene)) => failures.push(format!("{what}: loaded {} objects", scene.objects.len())),
            Ok(Err(error)) => {
                let message = error.chain();
                if !message.contains(expected) {
                    failures.push(format!("{what}: expected \"{expected}\" in:\n    {message}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

#[test]
fn reading_a_missing_scene_file_is_an_error() {
    let error = file::load(Path::new("scenes/no-such-scene.toml")).unwrap_err().chain();
    assert!(error.starts_with("cannot read scene file \"scenes/no-such-scene.toml\": "), "{error}");
}

#[test]
fn explicitly_empty_scene_loads() {
    let scene = file::parse("[scene]\nname = \"nothing\"\nempty = true\n", "e.toml", None).unwrap();
    assert_eq!((scene.name.as_str(), scene.objects.len()), ("nothing", 0));
}

// ---------------------------------------------------------------------------------------
// Every feature at small counts: loads, and seeds the mutation tests with deep paths.

const KITCHEN_SINK: &str = r#"
[scene]
name = "sink"
animated = true

[camera]
position = [0.0, 10.0, 30.0]
target = [0.0, 0.0, 0.0]
up = [0.0, 1.0, 0.0]
fov_y_degrees = 70.0
near = 0.05
far = 300.0

[[mesh]]
name = "box"
procedural = "cube"
scale = [2.0, 0.5, 1.0]
offset = [0.0, 0.25, 0.0]

[[mesh]]
name = "ball"
procedural = "sphere"
segments = 12
rings = 6

[[mesh]]
name = "geo"
procedural = "icosphere"
subdivisions = 2

[[mesh]]
name = "donut"
procedural = "torus"
segments = 10
sides = 5

[[mesh]]
name = "can"
procedural = "cylinder"
segments = 7

[[mesh]]
name = "hat"
procedural = "cone"
segments = 5

[[mesh]]
name = "stone"
procedural = "rock"
seed = 11

[[mesh]]
name = "mirror"
procedural = "cone"
scale = [1.0, -1.0, 1.0]

[[material]]
name = "plain"

[[material]]
name = "grid"
base_color = [0.2, 0.8, 0.3]
texture = "lattice"
variant = "masked"
alpha_cutoff = 0.25

[[material]]
name = "check"
base_color = [1.0, 1.0, 1.0, 1.0]
texture = "checker"
normal_texture = "bumps"
variant = "double-sided"

[[material]]
name = "grain"
texture = "noise"
variant = "debug"

[[objects]]
animation = { orbit = [1, 3], spin = 2 }
transforms = [
    { mesh = "box", material = "plain", position = [1.0, 2.0, 3.0], rotation_degrees = [10.0, 20.0, 30.0], scale = 2.0 },
    { mesh = "mirror", material = "check", position = [-1.0, 0.0, 0.0], quaternion = [0.0, 0.7071, 0.0, 0.7071] },
]

[[objects]]
grid = { counts = [3, 2, 4], spacing = [2.0, 3.0, 2.0], center = [5.0, 0.0, 0.0], meshes = ["ball", "geo"], materials = ["grid", "check"], seed = 3, scale = [0.5, 1.0], rotation_degrees = [0.0, 45.0, 0.0] }

[[objects]]
animation = { orbit = true, spin = true }
random = { count = 20, seed = 9, half_extent = 6.0, center = [0.0, 5.0, 0.0], meshes = ["donut", "can", "hat"], materials = ["grain", "plain"], scale = 0.7 }

[[objects]]
animation = { orbit = 1, spin = false }
rings = { count = 25, seed = 4, center = [0.0, 1.0, 0.0], radius = [8.0, 12.0], thickness = 1.0, meshes = ["stone"], materials = ["plain", "check"] }

[[objects]]
random = { count = 5, half_extent = "auto", meshes = ["stone"], materials = ["grid"] }

[[objects]]
stress = { count = 30, seed = 2 }
"#;

#[test]
fn every_feature_loads() {
    let scene = file::parse(KITCHEN_SINK, "sink.toml", None).unwrap_or_else(|e| panic!("{e}"));
    check_consistent(&scene);
    assert_eq!(scene.objects.len(), 2 + 24 + 20 + 25 + 5 + 30);
    // Declared meshes and materials first, then the stress generator's own.
    assert_eq!(scene.meshes.meshes.len(), 8 + procedural::BUILTIN_NAMES.len());
    assert_eq!(scene.materials.len(), 4 + 11);
    // lattice, checker, noise; the stress set's lattice is the same layer as "grid"'s.
    assert_eq!(scene.base_color_textures.layers.len(), 3);
    assert_eq!(scene.normal_textures.layers.len(), 1);
    let stress_lattice = scene.materials.iter().find(|m| m.name == "lattice").unwrap();
    assert_eq!(stress_lattice.base_color_layer, scene.materials[1].base_color_layer);
    assert_eq!(scene.materials[1].variant, Variant::Masked);
    // The mirrored cone still winds counter-clockwise around its (flipped) normals.
    let mirror = &scene.meshes.meshes[7];
    let vertices = &scene.meshes.vertices[mirror.base_vertex as usize..][..mirror.vertex_count as usize];
    for tri in scene.meshes.indices[mirror.first_index as usize..][..mirror.index_count as usize].chunks(3) {
        let [a, b, c] = [tri[0], tri[1], tri[2]].map(|i| vertices[i as usize]);
        let face =
            (Vec3::from(b.position) - Vec3::from(a.position)).cross(Vec3::from(c.position) - Vec3::from(a.position));
        let normal = Vec3::from(a.normal) + Vec3::from(b.normal) + Vec3::from(c.normal);
        assert!(face.dot(normal) >= -1e-6, "triangle {tri:?} winds against its normals");
    }
    let first = &scene.objects[0];
    assert!((1..=3).contains(&first.orbit_class) && first.spin_class == 2);
    let ring = &scene.objects[2 + 24 + 20];
    assert_eq!((ring.orbit_class, ring.spin_class), (1, 0));
}

// ---------------------------------------------------------------------------------------
// Property tests: no input panics.

/// Total property-test cases: 100,000 unless `MULTIDRAW_FUZZ_CASES` (as for the glTF fuzz
/// target, tests/gltf_fuzz.rs) or `PROPTEST_CASES` says otherwise.
fn cases(share: f64) -> u32 {
    let total: f64 = ["MULTIDRAW_FUZZ_CASES", "PROPTEST_CASES"]
        .iter()
        .find_map(|name| std::env::var(name).ok().and_then(|v| v.replace('_', "").parse().ok()))
        .unwrap_or(100_000.0);
    (total * share).ceil() as u32
}

/// Longest one fuzzed file may take to parse and build (the slowest seen is tens of
/// milliseconds): a hang or a runaway generator fails the property.
const CASE_LIMIT: std::time::Duration = std::time::Duration::from_secs(2);

/// Objects a fuzzed file may ask for before it is refused: keeps 100,000 cases quick.
const FUZZ_OBJECT_LIMIT: u64 = 2_000;

/// The shipped scenes with their counts cut down to fit [`FUZZ_OBJECT_LIMIT`] (so that most
/// mutations reach generation rather than the size check), and the every-feature scene.
fn fuzz_sources() -> Vec<String> {
    const SHRINK: &[(&str, &str)] = &[
        ("count = 1000000", "count = 900"),
        ("count = 100000", "count = 500"),
        ("count = 80000", "count = 80"),
        ("count = 60000", "count = 60"),
        ("count = 400", "count = 40"),
        ("count = 360", "count = 36"),
        ("[100, 1, 100]", "[6, 1, 6]"),
        ("[50, 1, 50]", "[4, 1, 4]"),
        ("[16, 1, 16]", "[5, 1, 5]"),
        ("segments = 96", "segments = 9"),
        ("count = 12000", "count = 400"),
        ("count = 120, seed = 5", "count = 12, seed = 5"),
        ("count = 60, seed = 6", "count = 6, seed = 6"),
        // The Duck's levels of detail and the truck's JPEG cost milliseconds per case; the crate
        // model is enough here.
        ("models/Duck/Duck.glb", "models/crate.gltf"),
        ("count = 200,", "count = 20,"),
        ("models/CesiumMilkTruck/CesiumMilkTruck.gltf", "models/crate.gltf"),
        ("[10, 1, 10]", "[3, 1, 3]"),
    ];
    let mut sources: Vec<String> = ["default", "million", "city", "asteroids", "gltf", "models"]
        .iter()
        .map(|name| {
            let text = std::fs::read_to_string(scenes_dir().join(format!("{name}.toml"))).unwrap();
            SHRINK.iter().fold(text, |text, (from, to)| text.replace(from, to))
        })
        .collect();
    sources.push(KITCHEN_SINK.to_string());
    sources
}

#[test]
fn fuzz_sources_load_unmutated() {
    for source in fuzz_sources() {
        let scene = file::parse_with_limit(&source, "fuzz.toml", Some(&scenes_dir()), FUZZ_OBJECT_LIMIT)
            .unwrap_or_else(|e| panic!("{e}\n{source}"));
        check_consistent(&scene);
    }
}

const TOKENS: &[&str] = &[
    "=",
    "[",
    "]",
    "[[",
    "]]",
    "{",
    "}",
    ",",
    "\"",
    "#",
    "\n",
    " ",
    ".",
    "-",
    "0",
    "1",
    "-1",
    "7",
    "255",
    "256",
    "1e40",
    "nan",
    "inf",
    "-inf",
    "0.0",
    "1.5",
    "true",
    "false",
    "\"auto\"",
    "\"cube\"",
    "\"x\"",
    "count",
    "counts",
    "meshes",
    "materials",
    "name",
    "mesh",
    "gltf",
    "\"models/crate.gltf\"",
    "\"../x.gltf\"",
    "\"/abs.gltf\"",
    "procedural",
    "segments",
    "subdivisions",
    "scale",
    "offset",
    "radius",
    "animation",
    "orbit",
    "spin",
    "[[mesh]]",
    "[[material]]",
    "[[model]]",
    "[[objects]]",
    "[scene]",
    "[camera]",
    "[objects.grid]",
    "[[objects.transforms]]",
    "stress = { count = 3 }",
    "random = { count = 4, meshes = [\"box\"], materials = [\"plain\"] }",
    "empty = true",
    "auto = true",
    "variant = \"masked\"",
    "texture = \"noise\"",
    "99999999999999999999",
    "\u{e9}",
    "\u{1F600}",
    "\0",
    "\t",
    "'''",
    "\"\"\"",
];

#[derive(Clone, Debug)]
enum Edit {
    Delete {
        at: u32,
        len: u8,
    },
    Insert {
        at: u32,
        token: usize,
    },
    Byte {
        at: u32,
        byte: u8,
    },
    DuplicateLine {
        line: u32,
    },
    SwapLines {
        a: u32,
        b: u32,
    },
    Truncate {
        at: u32,
    },
    /// Replaces the n-th number of the text with a value of any type.
    Number {
        nth: u32,
        value: usize,
    },
    DeleteLine {
        line: u32,
    },
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        3 => (any::<u32>(), 1u8..40).prop_map(|(at, len)| Edit::Delete { at, len }),
        4 => (any::<u32>(), 0..TOKENS.len()).prop_map(|(at, token)| Edit::Insert { at, token }),
        2 => (any::<u32>(), any::<u8>()).prop_map(|(at, byte)| Edit::Byte { at, byte }),
        1 => any::<u32>().prop_map(|line| Edit::DuplicateLine { line }),
        1 => (any::<u32>(), any::<u32>()).prop_map(|(a, b)| Edit::SwapLines { a, b }),
        1 => any::<u32>().prop_map(|at| Edit::Truncate { at }),
        4 => (any::<u32>(), 0..VALUES.len()).prop_map(|(nth, value)| Edit::Number { nth, value }),
        2 => any::<u32>().prop_map(|line| Edit::DeleteLine { line }),
    ]
}

fn apply(source: &str, edits: &[Edit]) -> String {
    String::from_utf8_lossy(&apply_bytes(source.as_bytes(), edits)).into_owned()
}

fn apply_bytes(source: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut bytes = source.to_vec();
    for edit in edits {
        let position = |at: u32, len: usize| if len == 0 { 0 } else { at as usize % (len + 1) };
        match *edit {
            Edit::Delete { at, len } => {
                let start = position(at, bytes.len());
                let end = (start + len as usize).min(bytes.len());
                bytes.drain(start..end);
            }
            Edit::Insert { at, token } => {
                let at = position(at, bytes.len());
                bytes.splice(at..at, TOKENS[token].bytes());
            }
            Edit::Byte { at, byte } => {
                if !bytes.is_empty() {
                    let at = at as usize % bytes.len();
                    bytes[at] = byte;
                }
            }
            Edit::DuplicateLine { line } => {
                let mut lines: Vec<Vec<u8>> = bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
                let line = line as usize % lines.len();
                lines.insert(line, lines[line].clone());
                bytes = lines.join(&b'\n');
            }
            Edit::SwapLines { a, b } => {
                let mut lines: Vec<Vec<u8>> = bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
                let n = lines.len();
                lines.swap(a as usize % n, b as usize % n);
                bytes = lines.join(&b'\n');
            }
            Edit::Truncate { at } => {
                let at = position(at, bytes.len());
                bytes.truncate(at);
            }
            Edit::Number { nth, value } => {
                let numbers: Vec<(usize, usize)> = number_spans(&bytes);
                if !numbers.is_empty() {
                    let (start, end) = numbers[nth as usize % numbers.len()];
                    bytes.splice(start..end, VALUES[value].bytes());
                }
            }
            Edit::DeleteLine { line } => {
                let mut lines: Vec<Vec<u8>> = bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
                let n = lines.len();
                lines.remove(line as usize % n);
                bytes = lines.join(&b'\n');
            }
        }
    }
    bytes
}

/// Byte ranges of the numbers (digits with an optional sign, point and exponent) in a text.
fn number_spans(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let starts =
            bytes[i].is_ascii_digit() && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_'));
        if starts {
            let start = if i > 0 && bytes[i - 1] == b'-' { i - 1 } else { i };
            while i < bytes.len() && (bytes[i].is_ascii_digit() || matches!(bytes[i], b'.' | b'e' | b'E' | b'_')) {
                i += 1;
            }
            spans.push((start, i));
        } else {
            i += 1;
        }
    }
    spans
}

/// Parses with the scenes directory as base (so glTF references really load) and the small
/// object limit; any panic fails the property.
fn parse_never_panics(text: &str) -> Result<(), TestCaseError> {
    let dir = scenes_dir();
    let start = std::time::Instant::now();
    let result =
        catch_unwind(AssertUnwindSafe(|| file::parse_with_limit(text, "fuzz.toml", Some(&dir), FUZZ_OBJECT_LIMIT)));
    prop_assert!(start.elapsed() < CASE_LIMIT, "took {:?} on:\n{text}", start.elapsed());
    match result {
        Err(_) => Err(TestCaseError::fail(format!("parse panicked on:\n{text}"))),
        Ok(Ok(scene)) => {
            check_consistent(&scene);
            prop_assert!(scene.objects.len() as u64 <= FUZZ_OBJECT_LIMIT);
            Ok(())
        }
        Ok(Err(error)) => {
            prop_assert!(!error.to_string().is_empty());
            Ok(())
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(0.6), failure_persistence: None, ..ProptestConfig::default() })]

    /// 60% of the cases: the shipped scenes (counts cut down) and the every-feature scene, mutated.
    #[test]
    fn mutated_scene_files_never_panic(source in 0usize..7, edits in prop::collection::vec(edit(), 1..4)) {
        let text = SOURCES.with(|sources| apply(&sources[source], &edits));
        parse_never_panics(&text)?;
    }
}

thread_local! {
    static SOURCES: Vec<String> = fuzz_sources();
}

/// Values of every type a key may meet, valid or not.
const VALUES: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "-1",
    "17",
    "300",
    "4000000000",
    "0.5",
    "-2.5",
    "1e39",
    "nan",
    "inf",
    "true",
    "false",
    "\"auto\"",
    "\"cube\"",
    "\"sphere\"",
    "\"rock\"",
    "\"lattice\"",
    "\"masked\"",
    "\"double-sided\"",
    "\"\"",
    "[]",
    "[1, 2]",
    "[1, 2, 3]",
    "[0.5, 1.5]",
    "[1, 2, 3, 4]",
    "[\"a\"]",
    "[\"b\", \"a\"]",
    "[0, 0, 0]",
    "[nan, 1, 1]",
    "[2, 1, 2]",
    "[-1, 1, 1]",
    "{}",
    "{ orbit = true }",
    "\"models/crate.gltf\"",
    "\"../up.gltf\"",
];
const KEYS: &[&str] = &[
    "name",
    "model",
    "models",
    "animated",
    "empty",
    "auto",
    "position",
    "target",
    "up",
    "fov_y_degrees",
    "near",
    "far",
    "procedural",
    "gltf",
    "mesh",
    "segments",
    "rings",
    "sides",
    "subdivisions",
    "seed",
    "scale",
    "offset",
    "base_color",
    "texture",
    "normal_texture",
    "variant",
    "alpha_cutoff",
    "material",
    "count",
    "counts",
    "spacing",
    "center",
    "meshes",
    "materials",
    "half_extent",
    "radius",
    "thickness",
    "rotation_degrees",
    "quaternion",
    "orbit",
    "spin",
    "bogus",
];
const HEADERS: &[&str] = &[
    "[scene]",
    "[camera]",
    "[[mesh]]",
    "[[material]]",
    "[[objects]]",
    "[objects.grid]",
    "[objects.random]",
    "[objects.rings]",
    "[objects.stress]",
    "[objects.animation]",
    "[[objects.transforms]]",
    "[nothing]",
];

/// A random file made of real headers, real keys and values of every type; names come
/// from a tiny pool so references resolve often enough to reach generation.
fn structured_file() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        1 => (0..HEADERS.len()).prop_map(|h| HEADERS[h].to_string()),
        4 => (0..KEYS.len(), 0..VALUES.len()).prop_map(|(k, v)| format!("{} = {}", KEYS[k], VALUES[v])),
    ];
    prop::collection::vec(line, 0..24).prop_map(|lines| lines.join("\n").replace("\"b\"", "\"a\""))
}

/// Mostly one of the field's valid values, sometimes a value of any type.
fn field(valid: &'static [&'static str]) -> impl Strategy<Value = &'static str> {
    prop_oneof![
        19 => prop::sample::select(valid),
        1 => prop::sample::select(VALUES),
    ]
}

/// A random file whose sections are well-formed and whose values are mostly valid, so that
/// most cases reach generation and the checks after it.
fn shaped_file() -> impl Strategy<Value = String> {
    const KIND_AND_PARAMETER: &[(&str, &str)] = &[
        ("\"cube\"", ""),
        ("\"sphere\"", "segments"),
        ("\"sphere\"", "rings"),
        ("\"icosphere\"", "subdivisions"),
        ("\"torus\"", "sides"),
        ("\"cylinder\"", ""),
        ("\"cone\"", "segments"),
        ("\"rock\"", "seed"),
    ];
    let kind_and_parameter = prop_oneof![
        9 => prop::sample::select(KIND_AND_PARAMETER),
        1 => (prop::sample::select(VALUES), prop::sample::select(&["", "segments", "rings", "sides", "subdivisions", "seed"][..])),
    ];
    let mesh = (kind_and_parameter, field(&["3", "5", "8", "12"]), field(&["", "[1, 2, 1]", "[-1, 1, 0.5]"])).prop_map(
        |((kind, param), value, scale)| {
            let param = if param.is_empty() { String::new() } else { format!("{param} = {value}\n") };
            let scale = if scale.is_empty() { String::new() } else { format!("scale = {scale}\n") };
            format!("[[mesh]]\nname = \"a\"\nprocedural = {kind}\n{param}{scale}")
        },
    );
    let material = (
        field(&["[1, 0, 0]", "[0.2, 0.4, 0.6, 1]", "[1, 1, 1, 0.5]"]),
        field(&["\"\"", "\"lattice\"", "\"checker\"", "\"noise\""]),
        field(&["\"opaque\"", "\"masked\"", "\"double-sided\"", "\"debug\""]),
    )
        .prop_map(|(color, texture, variant)| {
            let texture = if texture == "\"\"" { String::new() } else { format!("texture = {texture}\n") };
            format!("[[material]]\nname = \"a\"\nbase_color = {color}\n{texture}variant = {variant}\n")
        });
    let count = || field(&["1", "2", "3", "17", "300"]);
    let vec3 = || field(&["[0, 0, 0]", "[1, 2, 3]", "[2, 1, 2]", "[-1, 1, 1]"]);
    let scale = || field(&["1", "0.5", "[0.5, 1.5]", "2"]);
    let set = prop_oneof![
        (count(), vec3(), vec3(), scale()).prop_map(|(n, spacing, center, scale)| format!(
            "grid = {{ counts = [{n}, 1, 2], spacing = {spacing}, center = {center}, meshes = [\"a\"], materials = [\"a\"], scale = {scale} }}"
        )),
        (count(), field(&["\"auto\"", "3", "0.5"]), vec3(), scale()).prop_map(|(n, half, center, scale)| format!(
            "random = {{ count = {n}, half_extent = {half}, center = {center}, meshes = [\"a\"], materials = [\"a\"], scale = {scale} }}"
        )),
        (count(), field(&["[1, 2]", "[0, 5]", "[3, 3]"]), field(&["0", "1.5"]), field(&["[0, 0, 0]", "[0, 2, 0]"])).prop_map(
            |(n, radius, thickness, center)| format!(
                "rings = {{ count = {n}, radius = {radius}, thickness = {thickness}, center = {center}, meshes = [\"a\"], materials = [\"a\"] }}"
            )
        ),
        (vec3(), scale(), field(&["[0, 90, 0]", "[10, 20, 30]"])).prop_map(|(position, scale, rotation)| format!(
            "transforms = [{{ mesh = \"a\", material = \"a\", position = {position}, scale = {scale}, rotation_degrees = {rotation} }}]"
        )),
        count().prop_map(|n| format!("stress = {{ count = {n} }}")),
    ];
    let animation = prop::sample::select(
        &["", "{ orbit = true }", "{ spin = 3 }", "{ orbit = [1, 2], spin = true }", "{ orbit = 0 }"][..],
    );
    let camera = prop::sample::select(
        &[
            "",
            "[camera]\nauto = true\n",
            "[camera]\nposition = [0, 1, 5]\ntarget = [0, 0, 0]\n",
            "[camera]\nposition = [0, 1, 5]\ntarget = [0, 0, 0]\nfov_y_degrees = 30\nnear = 1\nfar = 9\n",
        ][..],
    );
    (mesh, material, prop::collection::vec((animation, set), 1..3), camera, any::<bool>()).prop_map(
        |(mesh, material, sets, camera, animated)| {
            let sets: String = sets
                .iter()
                .map(|(animation, set)| {
                    let animation =
                        if animation.is_empty() { String::new() } else { format!("animation = {animation}\n") };
                    format!("[[objects]]\n{animation}{set}\n")
                })
                .collect();
            format!("[scene]\nanimated = {animated}\n{camera}{mesh}{material}{sets}")
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(0.1), failure_persistence: None, ..ProptestConfig::default() })]

    /// 10%: random lines of real headers, keys and values.
    #[test]
    fn structured_random_files_never_panic(text in structured_file()) {
        parse_never_panics(&text)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(0.3), failure_persistence: None, ..ProptestConfig::default() })]

    /// 30%: well-shaped files with random values, so most cases reach generation.
    #[test]
    fn shaped_random_files_never_panic(text in shaped_file()) {
        parse_never_panics(&text)?;
    }
}

thread_local! {
    static MODELS: [Vec<u8>; 2] = [serde_json::to_vec_pretty(&crate_gltf()).unwrap(), crate_glb()];
}

/// Opens a glTF file from memory and reads every mesh, material and image of it; any panic
/// fails the property.
fn import_never_panics(bytes: &[u8]) -> Result<(), TestCaseError> {
    let dir = scenes_dir().join("models");
    let sandbox = Sandbox::new(&scenes_dir(), &[]).expect("the scenes directory exists");
    let start = std::time::Instant::now();
    let result = catch_unwind(AssertUnwindSafe(|| {
        let Ok(model) = gltf_import::from_bytes(bytes, &dir, &sandbox) else { return };
        for i in 0..model.mesh_count() {
            if let Ok(mesh) = model.mesh(Some(&gltf_import::Selector::Index(i))) {
                assert!(mesh.indices.iter().all(|&v| (v as usize) < mesh.vertices.len()));
            }
        }
        for i in 0..model.material_count() {
            let _ = model.material(Some(&gltf_import::Selector::Index(i)));
        }
        for i in 0..model.image_count() {
            if let Ok(rgba) = model.image_rgba(i, 8) {
                assert_eq!(rgba.len(), 8 * 8 * 4);
            }
        }
    }));
    prop_assert!(result.is_ok(), "import panicked");
    prop_assert!(start.elapsed() < CASE_LIMIT, "import took {:?}", start.elapsed());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(0.05), failure_persistence: None, ..ProptestConfig::default() })]

    /// On top of the parser's cases: the crate model as .gltf text and as .glb, mutated.
    #[test]
    fn mutated_gltf_files_never_panic(binary in any::<bool>(), edits in prop::collection::vec(edit(), 1..4)) {
        let bytes = MODELS.with(|models| apply_bytes(&models[usize::from(binary)], &edits));
        import_never_panics(&bytes)?;
    }
}

thread_local! {
    static DOCUMENTS: [(serde_json::Value, Vec<u8>); 2] = [(crate_gltf(), Vec::new()), crate_glb_parts()];
}

/// JSON pointers of every node of a document.
fn json_pointers(value: &serde_json::Value, at: String, out: &mut Vec<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, item) in map {
                json_pointers(item, format!("{at}/{key}"), out);
            }
        }
        serde_json::Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                json_pointers(item, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

/// Replacements for a JSON node: wrong types, out-of-range indices and lengths.
fn json_values() -> Vec<serde_json::Value> {
    vec![
        json!(null),
        json!(0),
        json!(1),
        json!(2),
        json!(3),
        json!(-1),
        json!(7),
        json!(12),
        json!(255),
        json!(4_294_967_295u64),
        json!(18_446_744_073_709_551_615u64),
        json!(0.5),
        json!(1e300),
        json!("x"),
        json!("VEC2"),
        json!("SCALAR"),
        json!(5121),
        json!(5123),
        json!(5125),
        json!(5126),
        json!(5120),
        json!([]),
        json!({}),
        json!([0, 1]),
        json!(true),
        json!("MASK"),
        json!("data:,"),
        json!("missing.bin"),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(0.05), failure_persistence: None, ..ProptestConfig::default() })]

    /// On top of the parser's cases: the crate model's JSON (as .gltf, and as the JSON chunk
    /// of a .glb) with nodes replaced or removed.
    #[test]
    fn edited_gltf_documents_never_panic(
        binary in any::<bool>(),
        edits in prop::collection::vec((any::<u32>(), any::<bool>(), any::<u32>()), 1..4),
    ) {
        let (mut document, buffer) = DOCUMENTS.with(|documents| documents[usize::from(binary)].clone());
        let values = json_values();
        for (node, remove, value) in edits {
            let mut pointers = Vec::new();
            json_pointers(&document, String::new(), &mut pointers);
            pointers.pop(); // the root
            if pointers.is_empty() {
                break;
            }
            let pointer = &pointers[node as usize % pointers.len()];
            let (parent, key) = pointer.rsplit_once('/').expect("pointers start with /");
            match document.pointer_mut(parent) {
                Some(serde_json::Value::Object(map)) if remove => {
                    map.remove(key);
                }
                Some(serde_json::Value::Array(items)) if remove => {
                    items.remove(key.parse::<usize>().expect("array keys are indices"));
                }
                _ => {
                    if let Some(node) = document.pointer_mut(pointer) {
                        *node = values[value as usize % values.len()].clone();
                    }
                }
            }
        }
        let bytes = if binary { pack_glb(&document, &buffer) } else { serde_json::to_vec(&document).unwrap() };
        import_never_panics(&bytes)?;
    }
}

#[test]
fn edit_distance_suggestions() {
    assert_eq!(file::edit_distance("cub", "cube"), 1);
    assert_eq!(file::edit_distance("", "abc"), 3);
    assert_eq!(file::edit_distance("kitten", "sitting"), 3);
}
