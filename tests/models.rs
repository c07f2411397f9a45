//! Whole-model glTF import (`[[model]]`): small glTF documents built here with TRS, matrix,
//! nested, mirrored and non-uniformly scaled nodes are loaded through scene files, and every
//! object's world bounds (and, for baked parts, every vertex and the winding) are compared with
//! CPU-computed expectations; `EXT_mesh_gpu_instancing` expands into objects; per-primitive
//! materials are distinct; every placement kind places models, 10,000+ instances counted as
//! instances × parts; the GPU renders a model scene the same in gpu and cpu modes and records
//! the same commands at 1,000 and 10,000 instances (lavapipe; fails without an adapter).

mod common;

use std::path::{Path, PathBuf};

use glam::{DMat4, DQuat, DVec3, Vec3};
use multidraw::gpu::commands::FrameCommands;
use multidraw::gpu::target::OffscreenTarget;
use multidraw::mesh::procedural;
use multidraw::scene::file::{self, SceneError};
use multidraw::scene::gltf_import;
use multidraw::scene::{Object, Scene};
use multidraw::DrawMode;
use serde_json::json;

/// A fresh directory under Cargo's per-target scratch space.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("models").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch directory");
    dir
}

/// The test mesh's vertices: a cube stretched to 1 × 2 × 3 and moved off its centre, so a
/// wrong rotation, axis or order shows in the bounds.
fn box_positions() -> Vec<[f32; 3]> {
    procedural::cube()
        .vertices
        .iter()
        .map(|v| (Vec3::from(v.position) * Vec3::new(1.0, 2.0, 3.0) + Vec3::X * 0.5).into())
        .collect()
}

fn box_normals() -> Vec<[f32; 3]> {
    procedural::cube().vertices.iter().map(|v| v.normal).collect()
}

/// A glTF document with one mesh of two primitives (the box's first 6 triangles with material
/// 0, the other 6 with no material) and the given nodes, scenes and extra accessors; `extra`
/// floats are appended to the buffer after the mesh (offset returned by [`EXTRA_OFFSET`]).
fn document(nodes: serde_json::Value, roots: &[usize], extra: &[f32], extra_accessors: serde_json::Value) -> Vec<u8> {
    let cube = procedural::cube();
    let mut buffer: Vec<u8> = Vec::new();
    buffer.extend(box_positions().iter().flatten().flat_map(|f| f.to_le_bytes()));
    buffer.extend(box_normals().iter().flatten().flat_map(|f| f.to_le_bytes()));
    buffer.extend(cube.indices.iter().flat_map(|&i| (i as u16).to_le_bytes()));
    assert_eq!(buffer.len(), EXTRA_OFFSET);
    buffer.extend(extra.iter().flat_map(|f| f.to_le_bytes()));
    let (lo, hi) =
        box_positions().iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), &p| (lo.min(p.into()), hi.max(p.into())));
    let mut accessors = vec![
        json!({ "bufferView": 0, "componentType": 5126, "count": 24, "type": "VEC3", "min": lo.to_array(), "max": hi.to_array() }),
        json!({ "bufferView": 1, "componentType": 5126, "count": 24, "type": "VEC3" }),
        json!({ "bufferView": 2, "componentType": 5123, "count": 18, "type": "SCALAR" }),
        json!({ "bufferView": 2, "byteOffset": 36, "componentType": 5123, "count": 18, "type": "SCALAR" }),
    ];
    accessors.extend(extra_accessors.as_array().cloned().unwrap_or_default());
    let document = json!({
        "asset": { "version": "2.0" },
        "extensionsUsed": ["EXT_mesh_gpu_instancing"],
        "scene": 0,
        "scenes": [ { "nodes": roots } ],
        "nodes": nodes,
        "meshes": [ { "name": "box", "primitives": [
            { "attributes": { "POSITION": 0, "NORMAL": 1 }, "indices": 2, "material": 0 },
            { "attributes": { "POSITION": 0, "NORMAL": 1 }, "indices": 3 },
        ] } ],
        "materials": [ { "name": "red", "pbrMetallicRoughness": { "baseColorFactor": [0.9, 0.1, 0.1, 1.0] } } ],
        "accessors": accessors,
        "bufferViews": [
            { "buffer": 0, "byteOffset": 0, "byteLength": 288 },
            { "buffer": 0, "byteOffset": 288, "byteLength": 288 },
            { "buffer": 0, "byteOffset": 576, "byteLength": 72 },
            { "buffer": 0, "byteOffset": EXTRA_OFFSET, "byteLength": (extra.len() * 4).max(4) },
        ],
        "buffers": [ { "byteLength": buffer.len().max(EXTRA_OFFSET + 4),
            "uri": format!("data:application/octet-stream;base64,{}", gltf_import::encode_base64(&padded(buffer))) } ],
    });
    serde_json::to_vec(&document).unwrap()
}

/// Where extra floats start in the test buffer (after 24 positions, 24 normals, 36 u16 indices).
const EXTRA_OFFSET: usize = 24 * 12 * 2 + 36 * 2;

fn padded(mut buffer: Vec<u8>) -> Vec<u8> {
    while buffer.len() < EXTRA_OFFSET + 4 || !buffer.len().is_multiple_of(4) {
        buffer.push(0);
    }
    buffer
}

/// Writes the model and a scene (its `[[model]] name = "toy"` prepended) and loads it.
fn load(dir: &str, model: &[u8], scene: &str) -> Result<Scene, SceneError> {
    let dir = scratch(dir);
    std::fs::write(dir.join("toy.gltf"), model).unwrap();
    let path = dir.join("scene.toml");
    std::fs::write(&path, format!("[[model]]\nname = \"toy\"\ngltf = \"toy.gltf\"\n\n{scene}")).unwrap();
    file::load(&path)
}

const ONE_TOY: &str = "[[objects]]\ntransforms = [{ model = \"toy\", position = [0, 0, 0] }]\n";

/// Level-0 positions of an object's mesh in world space (orbit and spin at time 0: none).
fn world_positions(scene: &Scene, object: &Object) -> Vec<DVec3> {
    let mesh = &scene.meshes.meshes[object.mesh as usize];
    scene.meshes.vertices[mesh.base_vertex as usize..][..mesh.vertex_count as usize]
        .iter()
        .map(|v| (object.translation + object.rotation * (Vec3::from(v.position) * object.scale)).as_dvec3())
        .collect()
}

fn bounds(points: &[DVec3]) -> (DVec3, DVec3) {
    points.iter().fold((DVec3::MAX, DVec3::MIN), |(lo, hi), &p| (lo.min(p), hi.max(p)))
}

fn expected_positions(world: DMat4) -> Vec<DVec3> {
    box_positions().iter().map(|&p| world.transform_point3(Vec3::from(p).as_dvec3())).collect()
}

fn assert_close(actual: (DVec3, DVec3), expected: (DVec3, DVec3), what: &str) {
    let tolerance = 1e-4 * (1.0 + expected.0.abs().max(expected.1.abs()).max_element());
    assert!(
        actual.0.abs_diff_eq(expected.0, tolerance) && actual.1.abs_diff_eq(expected.1, tolerance),
        "{what}: world bounds {actual:?}, expected {expected:?}"
    );
}

/// Every triangle of the object's mesh winds counter-clockwise about its vertex normals, in
/// world space (where a mirror would show).
fn assert_front_faces_out(scene: &Scene, object: &Object, what: &str) {
    let mesh = &scene.meshes.meshes[object.mesh as usize];
    let vertices = &scene.meshes.vertices[mesh.base_vertex as usize..][..mesh.vertex_count as usize];
    let indices = &scene.meshes.indices[mesh.first_index as usize..][..mesh.index_count as usize];
    let world = world_positions(scene, object);
    for triangle in indices.chunks_exact(3) {
        let [a, b, c] = [0, 1, 2].map(|k| triangle[k] as usize);
        let face = (world[b] - world[a]).cross(world[c] - world[a]);
        let normal: DVec3 =
            [a, b, c].iter().map(|&i| (object.rotation * Vec3::from(vertices[i].normal)).as_dvec3()).sum();
        assert!(face.dot(normal) > 0.0, "{what}: triangle {triangle:?} winds against its normals");
    }
}

fn trs(translation: [f64; 3], rotation: DQuat, scale: [f64; 3]) -> DMat4 {
    DMat4::from_scale_rotation_translation(DVec3::from(scale), rotation, DVec3::from(translation))
}

fn quat_json(q: DQuat) -> serde_json::Value {
    json!([q.x, q.y, q.z, q.w])
}

#[test]
fn node_transforms_give_every_part_its_world_bounds() {
    let root_rotation = DQuat::from_rotation_y(std::f64::consts::FRAC_PI_2);
    let trs_rotation = DQuat::from_rotation_x(0.5);
    let matrix = trs([1.0, -2.0, 0.5], DQuat::from_rotation_z(0.3), [0.5; 3]);
    let nodes = json!([
        { "name": "root", "translation": [10.0, 0.0, 0.0], "rotation": quat_json(root_rotation), "scale": [2.0, 2.0, 2.0], "children": [1, 2, 3, 4] },
        { "name": "trs", "mesh": 0, "translation": [0.0, 1.0, 0.0], "rotation": quat_json(trs_rotation) },
        { "name": "matrix", "mesh": 0, "matrix": matrix.to_cols_array() },
        { "name": "mirrored", "mesh": 0, "scale": [-1.0, 1.0, 1.0] },
        { "name": "stretched", "mesh": 0, "scale": [1.0, 3.0, 1.0], "children": [5] },
        { "name": "nested", "mesh": 0, "translation": [0.0, 0.0, 2.0] },
    ]);
    let scene =
        load("nodes", &document(nodes, &[0], &[], json!([])), ONE_TOY).unwrap_or_else(|e| panic!("{}", e.chain()));

    let root = trs([10.0, 0.0, 0.0], root_rotation, [2.0; 3]);
    let stretched = root * trs([0.0; 3], DQuat::IDENTITY, [1.0, 3.0, 1.0]);
    let worlds = [
        ("trs", root * trs([0.0, 1.0, 0.0], trs_rotation, [1.0; 3]), false),
        ("matrix", root * matrix, false),
        ("mirrored", root * trs([0.0; 3], DQuat::IDENTITY, [-1.0, 1.0, 1.0]), true),
        ("stretched", stretched, true),
        ("nested", stretched * trs([0.0, 0.0, 2.0], DQuat::IDENTITY, [1.0; 3]), true),
    ];
    assert_eq!(scene.objects.len(), 2 * worlds.len(), "one object per primitive of every node");
    for (k, (name, world, baked)) in worlds.iter().enumerate() {
        for primitive in 0..2 {
            let object = &scene.objects[2 * k + primitive];
            let what = format!("node \"{name}\" primitive {primitive}");
            let expected = expected_positions(*world);
            let actual = world_positions(&scene, object);
            assert_close(bounds(&actual), bounds(&expected), &what);
            if *baked {
                // The mesh copy holds the matrix's linear part: every vertex where it belongs.
                for (i, (a, e)) in actual.iter().zip(&expected).enumerate() {
                    assert!(a.abs_diff_eq(*e, 1e-4), "{what}: vertex {i} at {a}, expected {e}");
                }
            }
            assert_front_faces_out(&scene, object, &what);
        }
    }
    // Similarity nodes share the primitive's mesh; a baked matrix is shared by the nodes with
    // the same linear part ("stretched" and "nested"); the mirrored node has its own copy.
    let mesh = |k: usize, p: usize| scene.objects[2 * k + p].mesh;
    assert_eq!(mesh(0, 0), mesh(1, 0));
    assert_eq!(mesh(3, 1), mesh(4, 1));
    assert_ne!(mesh(0, 0), mesh(2, 0));
    assert_ne!(mesh(2, 0), mesh(3, 0));
    assert_eq!(scene.meshes.meshes.len(), 6, "2 primitives × (shared, mirrored, stretched)");
}

#[test]
fn each_primitive_has_its_own_material_shared_across_nodes() {
    let nodes = json!([{ "mesh": 0 }, { "mesh": 0, "translation": [3.0, 0.0, 0.0] }]);
    let scene = load("materials", &document(nodes, &[0, 1], &[], json!([])), ONE_TOY).unwrap();
    assert_eq!(scene.objects.len(), 4);
    let materials: Vec<u32> = scene.objects.iter().map(|o| o.material).collect();
    assert_ne!(materials[0], materials[1], "primitive 0 has material 0, primitive 1 the default");
    assert_eq!(materials[0], materials[2]);
    assert_eq!(materials[1], materials[3]);
    assert_eq!(scene.materials.len(), 2);
    let red = &scene.materials[materials[0] as usize];
    assert_eq!(red.base_color.to_array(), [0.9, 0.1, 0.1, 1.0]);
    let default = &scene.materials[materials[1] as usize];
    assert_eq!(default.base_color.to_array(), [1.0; 4], "the glTF default material is white");
}

#[test]
fn gpu_instancing_expands_into_objects() {
    let translations: Vec<f32> = (0..5).flat_map(|i| [i as f32 * 4.0, 0.0, 1.0]).collect();
    let scales: Vec<f32> = (0..5).flat_map(|i| [1.0 + i as f32, 1.0 + i as f32, 1.0 + i as f32]).collect();
    let extra: Vec<f32> = translations.iter().chain(&scales).copied().collect();
    let accessors = json!([
        { "bufferView": 3, "componentType": 5126, "count": 5, "type": "VEC3" },
        { "bufferView": 3, "byteOffset": 60, "componentType": 5126, "count": 5, "type": "VEC3" },
    ]);
    let nodes = json!([{ "name": "many", "mesh": 0, "translation": [0.0, 5.0, 0.0],
        "extensions": { "EXT_mesh_gpu_instancing": { "attributes": { "TRANSLATION": 4, "SCALE": 5 } } } }]);
    let scene = load("instancing", &document(nodes, &[0], &extra, accessors), ONE_TOY)
        .unwrap_or_else(|e| panic!("{}", e.chain()));
    assert_eq!(scene.objects.len(), 5 * 2, "5 instances × 2 primitives");
    for i in 0..5 {
        let s = 1.0 + i as f64;
        let world =
            trs([0.0, 5.0, 0.0], DQuat::IDENTITY, [1.0; 3]) * trs([i as f64 * 4.0, 0.0, 1.0], DQuat::IDENTITY, [s; 3]);
        for primitive in 0..2 {
            let object = &scene.objects[2 * i + primitive];
            assert_close(
                bounds(&world_positions(&scene, object)),
                bounds(&expected_positions(world)),
                &format!("instance {i}"),
            );
        }
    }
    assert_eq!(scene.meshes.meshes.len(), 2, "uniform instance scales share the meshes");
}

#[test]
fn every_placement_kind_places_models_as_instances_times_parts() {
    let nodes = json!([{ "mesh": 0 }, { "mesh": 0, "translation": [0.0, 4.0, 0.0], "scale": [1.0, 0.5, 1.0] }]);
    let model = document(nodes, &[0, 1], &[], json!([]));
    let parts = 4;
    let sets = [
        ("grid", "grid = { counts = [100, 1, 101], spacing = [6, 0, 6], model = \"toy\" }", 10_100),
        ("random", "random = { count = 10000, seed = 3, models = [\"toy\"], scale = [0.5, 1.5] }", 10_000),
        ("rings", "rings = { count = 2000, radius = [50, 80], models = [\"toy\"] }", 2_000),
        ("transforms", "transforms = [{ model = \"toy\", position = [1, 2, 3], scale = 2 }, { model = \"toy\", position = [-5, 0, 0] }]", 2),
    ];
    for (kind, set, instances) in sets {
        let scene = load(&format!("place-{kind}"), &model, &format!("[[objects]]\n{set}\n"))
            .unwrap_or_else(|e| panic!("{kind}: {}", e.chain()));
        assert_eq!(scene.objects.len(), instances * parts, "{kind}: instances × parts");
        // Every instance's parts keep the model's shape: the second node sits 4 units above
        // the first along the instance's own up axis, times its scale.
        for instance in scene.objects.chunks_exact(parts) {
            let (first, second) = (&instance[0], &instance[2]);
            let offset = first.rotation.inverse() * (second.translation - first.translation) / first.scale;
            assert!(offset.abs_diff_eq(Vec3::Y * 4.0, 1e-3), "{kind}: part offset {offset}");
        }
    }
    // The automatic camera stands outside a large model placed once.
    let big = json!([{ "mesh": 0, "scale": [100.0, 100.0, 100.0] }]);
    let scene = load("camera", &document(big, &[0], &[], json!([])), ONE_TOY).unwrap();
    let reach = bounds(&world_positions(&scene, &scene.objects[0])).1.length();
    // Outside the model with room to spare: the stress camera alone would stand at 0.94 of its
    // reach, inside its bounding sphere.
    let distance = scene.camera.position.as_dvec3().length();
    assert!(distance > 1.5 * reach, "camera {distance} from a model reaching {reach}");
}

#[test]
fn object_budget_counts_parts_before_generating() {
    let nodes = json!([{ "mesh": 0 }, { "mesh": 0, "translation": [0.0, 4.0, 0.0] }]);
    let dir = scratch("budget");
    std::fs::write(dir.join("toy.gltf"), document(nodes, &[0, 1], &[], json!([]))).unwrap();
    let text =
        "[[model]]\nname = \"toy\"\ngltf = \"toy.gltf\"\n[[objects]]\nrandom = { count = 600, model = \"toy\" }\n";
    let error = file::parse_with_limit(text, "budget.toml", Some(&dir), 2000).unwrap_err();
    assert!(error.to_string().contains("2,400"), "600 instances × 4 parts over 2,000: {error}");
}

#[test]
fn bad_models_are_refused_naming_the_node() {
    let cases = [
        (json!([{ "name": "wheel", "mesh": 0, "translation": [1e39, 0.0, 0.0] }]), "nodes[0] \"wheel\""),
        (json!([{ "name": "a", "children": [1] }, { "name": "b", "mesh": 0, "children": [0] }]), "reached twice"),
        (
            json!([{ "name": "skew", "mesh": 0, "matrix": [1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0] }]),
            "not affine",
        ),
        (json!([{ "name": "zero", "mesh": 0, "rotation": [0.0, 0.0, 0.0, 0.0] }]), "quaternion is zero"),
        (
            json!([{ "mesh": 0, "extensions": { "EXT_mesh_gpu_instancing": { "attributes": { "TRANSLATION": 99 } } } }]),
            "accessor 99 does not exist",
        ),
        (json!([{ "name": "empty" }]), "has no node with a mesh"),
    ];
    for (i, (nodes, expected)) in cases.into_iter().enumerate() {
        let result = load(&format!("bad-{i}"), &document(nodes, &[0], &[], json!([])), ONE_TOY);
        let message = match result {
            Ok(_) => panic!("case {i} loaded; expected {expected}"),
            Err(error) => error.chain(),
        };
        assert!(message.contains(expected), "case {i}: {message}");
        assert!(message.contains("toy.gltf"), "case {i} names the file: {message}");
        assert!(!message.contains('\n'), "case {i}: one line: {message}");
    }
    let unknown = load(
        "unknown",
        &document(json!([{ "mesh": 0 }]), &[0], &[], json!([])),
        "[[objects]]\ntransforms = [{ model = \"tyo\", position = [0, 0, 0] }]\n",
    );
    let message = unknown.expect_err("unknown model").to_string();
    assert!(message.contains("unknown model \"tyo\"") && message.contains("did you mean \"toy\"?"), "{message}");
    let mixed = load(
        "mixed",
        &document(json!([{ "mesh": 0 }]), &[0], &[], json!([])),
        "[[objects]]\ngrid = { counts = [1, 1, 1], spacing = [1, 1, 1], model = \"toy\", meshes = [\"x\"] }\n",
    );
    assert!(mixed.expect_err("mixed").to_string().contains("not both"));
    let spinning = load(
        "spin",
        &document(json!([{ "mesh": 0 }]), &[0], &[], json!([])),
        "[[objects]]\nanimation = { spin = true }\nrandom = { count = 3, model = \"toy\" }\n",
    );
    assert!(spinning.expect_err("spin").to_string().contains("spin"));
}

/// The shipped model scene loads, and places a multi-part model.
#[test]
fn shipped_model_scene_loads() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/models.toml");
    let scene = file::load(&path).unwrap_or_else(|e| panic!("{}", e.chain()));
    assert!(scene.objects.len() >= 10_000);
    let materials: std::collections::HashSet<u32> = scene.objects.iter().map(|o| o.material).collect();
    assert!(materials.len() >= 3, "several materials from one model: {materials:?}");
}

/// The model scene with its random set's instance count replaced.
fn model_scene(instances: u32) -> Scene {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/models.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("count = 12000"), "scenes/models.toml places its model with `count = 12000`");
    let text = text.replace("count = 12000", &format!("count = {instances}"));
    file::parse(&text, "models.toml", path.parent()).unwrap_or_else(|e| panic!("{}", e.chain()))
}

fn frame_commands(ctx: &multidraw::GpuContext, scene: &Scene, mode: DrawMode) -> FrameCommands {
    let mut renderer = common::renderer(ctx, scene);
    let target = OffscreenTarget::new(&ctx.device, 64, 64);
    let input = common::input(scene, mode, 0.5);
    renderer.render(ctx, &target.frame_target(), &input);
    let stats = renderer.render(ctx, &target.frame_target(), &input);
    ctx.wait_idle();
    common::assert_no_gpu_errors(ctx);
    stats.commands
}

#[test]
fn model_scene_renders_the_same_in_gpu_and_cpu_modes_with_constant_recording() {
    let ctx = common::context();
    let scene = model_scene(12_000);
    let mut renderer = common::renderer(&ctx, &scene);
    let gpu = common::render_image(&ctx, &mut renderer, &common::input(&scene, DrawMode::Gpu, 0.0), 96, 64);
    let cpu = common::render_image(&ctx, &mut renderer, &common::input(&scene, DrawMode::Cpu, 0.0), 96, 64);
    // The compute rasteriser draws the small parts in gpu mode: normals may round apart, and
    // a sub-pixel triangle's corner may snap to the other side of a pixel centre (the vertex
    // and compute shaders' float arithmetic need not round alike): 0.2% of the pixels, where
    // at 96 × 64 nearly every model is sub-pixel.
    let (_, bound) = common::differing_pixels(&gpu, &cpu);
    let differing = common::pixels_beyond(&gpu, &cpu, common::RASTER_TOLERANCE);
    if differing > 96 * 64 / 500 {
        let (actual, diff) = common::write_mismatch("models-gpu-vs-cpu", &cpu, &gpu);
        panic!(
            "{differing} pixels differ between gpu and cpu within {bound:?}: {} {}",
            actual.display(),
            diff.display()
        );
    }
    let drawn = gpu.pixels().filter(|p| p.0 != gpu.get_pixel(0, 0).0).count();
    assert!(drawn > 96 * 64 / 10, "the model scene covers the frame ({drawn} pixels differ from the corner)");

    let (small, large) = (model_scene(1_000), model_scene(100_000));
    assert!(large.objects.len() > 400_000, "100,000 crate sets of four parts: {}", large.objects.len());
    for mode in [DrawMode::Gpu, DrawMode::GpuNocount] {
        assert_eq!(
            frame_commands(&ctx, &small, mode),
            frame_commands(&ctx, &large, mode),
            "{mode}: 1,000 vs 100,000 instances"
        );
    }
}

#[test]
fn triangle_strips_and_fans_import_as_lists_facing_the_same_way() {
    // A unit quad in the XY plane, counter-clockwise seen from +Z, as a strip (0 1 2 3) and as
    // a fan (0 1 3 2).
    let quad: [[f32; 3]; 4] = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]];
    let mut buffer: Vec<u8> = quad.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
    buffer.extend([0u8, 1, 3, 2]);
    let document = json!({
        "asset": { "version": "2.0" },
        "scenes": [ { "nodes": [0] } ],
        "nodes": [ { "mesh": 0 } ],
        "meshes": [ { "primitives": [
            { "attributes": { "POSITION": 0 }, "mode": 5 },
            { "attributes": { "POSITION": 0 }, "indices": 1, "mode": 6 },
        ] } ],
        "accessors": [
            { "bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0] },
            { "bufferView": 1, "componentType": 5121, "count": 4, "type": "SCALAR" },
        ],
        "bufferViews": [ { "buffer": 0, "byteLength": 48 }, { "buffer": 0, "byteOffset": 48, "byteLength": 4 } ],
        "buffers": [ { "byteLength": 52, "uri": format!("data:application/octet-stream;base64,{}", gltf_import::encode_base64(&buffer)) } ],
    });
    let scene =
        load("strips", &serde_json::to_vec(&document).unwrap(), ONE_TOY).unwrap_or_else(|e| panic!("{}", e.chain()));
    assert_eq!(scene.objects.len(), 2);
    for object in &scene.objects {
        let mesh = &scene.meshes.meshes[object.mesh as usize];
        assert_eq!(mesh.index_count, 6, "two triangles");
        let world = world_positions(&scene, object);
        let indices = &scene.meshes.indices[mesh.first_index as usize..][..6];
        for triangle in indices.chunks_exact(3) {
            let [a, b, c] = [0, 1, 2].map(|k| world[triangle[k] as usize]);
            assert!((b - a).cross(c - a).z > 0.0, "triangle {triangle:?} faces +Z");
        }
    }
}

#[test]
fn sparse_accessors_replace_their_elements() {
    // The quad's positions, with vertex 3 replaced through a sparse accessor by (2, 2, 0).
    let quad: [[f32; 3]; 4] = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]];
    let mut buffer: Vec<u8> = quad.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
    buffer.extend([3u8, 0, 0, 0]);
    buffer.extend([2.0f32, 2.0, 0.0].iter().flat_map(|f| f.to_le_bytes()));
    let document = json!({
        "asset": { "version": "2.0" },
        "scenes": [ { "nodes": [0] } ],
        "nodes": [ { "mesh": 0 } ],
        "meshes": [ { "primitives": [ { "attributes": { "POSITION": 0 }, "mode": 5 } ] } ],
        "accessors": [ { "bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3",
            "min": [0.0, 0.0, 0.0], "max": [2.0, 2.0, 0.0],
            "sparse": { "count": 1, "indices": { "bufferView": 1, "componentType": 5121 }, "values": { "bufferView": 2 } } } ],
        "bufferViews": [
            { "buffer": 0, "byteLength": 48 },
            { "buffer": 0, "byteOffset": 48, "byteLength": 1 },
            { "buffer": 0, "byteOffset": 52, "byteLength": 12 },
        ],
        "buffers": [ { "byteLength": 64, "uri": format!("data:application/octet-stream;base64,{}", gltf_import::encode_base64(&buffer)) } ],
    });
    let scene =
        load("sparse", &serde_json::to_vec(&document).unwrap(), ONE_TOY).unwrap_or_else(|e| panic!("{}", e.chain()));
    let mesh = &scene.meshes.meshes[scene.objects[0].mesh as usize];
    let positions: Vec<[f32; 3]> =
        scene.meshes.vertices[mesh.base_vertex as usize..][..4].iter().map(|v| v.position).collect();
    assert_eq!(positions, [quad[0], quad[1], quad[2], [2.0, 2.0, 0.0]]);
}

#[test]
fn quantized_attributes_are_read_as_floats() {
    // KHR_mesh_quantization: positions as plain u16 (stride 8), normals as normalised i8
    // (stride 4), UVs as normalised u8; a node scale dequantises the positions.
    let quad: [[u16; 3]; 4] = [[0, 0, 0], [2, 0, 0], [0, 2, 0], [2, 2, 0]];
    let mut buffer: Vec<u8> = quad.iter().flat_map(|p| p.iter().flat_map(|c| c.to_le_bytes()).chain([0, 0])).collect();
    buffer.extend([0u8, 0, 127, 0].repeat(4));
    buffer.extend([0u8, 0, 255, 0, 0, 255, 255, 255]);
    let document = json!({
        "asset": { "version": "2.0" },
        "extensionsUsed": ["KHR_mesh_quantization"],
        "extensionsRequired": ["KHR_mesh_quantization"],
        "scenes": [ { "nodes": [0] } ],
        "nodes": [ { "mesh": 0, "scale": [0.5, 0.5, 0.5] } ],
        "meshes": [ { "primitives": [ { "attributes": { "POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2 }, "mode": 5 } ] } ],
        "accessors": [
            { "bufferView": 0, "componentType": 5123, "count": 4, "type": "VEC3", "min": [0, 0, 0], "max": [2, 2, 0] },
            { "bufferView": 1, "componentType": 5120, "normalized": true, "count": 4, "type": "VEC3" },
            { "bufferView": 2, "componentType": 5121, "normalized": true, "count": 4, "type": "VEC2" },
        ],
        "bufferViews": [
            { "buffer": 0, "byteLength": 32, "byteStride": 8 },
            { "buffer": 0, "byteOffset": 32, "byteLength": 16, "byteStride": 4 },
            { "buffer": 0, "byteOffset": 48, "byteLength": 8 },
        ],
        "buffers": [ { "byteLength": 56, "uri": format!("data:application/octet-stream;base64,{}", gltf_import::encode_base64(&buffer)) } ],
    });
    let scene =
        load("quantized", &serde_json::to_vec(&document).unwrap(), ONE_TOY).unwrap_or_else(|e| panic!("{}", e.chain()));
    let object = &scene.objects[0];
    assert_eq!(object.scale, 0.5, "the dequantising node scale is the part's");
    let mesh = &scene.meshes.meshes[object.mesh as usize];
    let vertices = &scene.meshes.vertices[mesh.base_vertex as usize..][..4];
    let positions: Vec<[f32; 3]> = vertices.iter().map(|v| v.position).collect();
    assert_eq!(positions, [[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [2.0, 2.0, 0.0]]);
    assert!(vertices.iter().all(|v| v.normal == [0.0, 0.0, 1.0]), "normalised i8 normals");
    let uvs: Vec<[f32; 2]> = vertices.iter().map(|v| v.uv).collect();
    assert_eq!(uvs, [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]);
}
