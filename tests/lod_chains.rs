//! Levels of detail of every mesh a scene can hold: each shipped scene's meshes, the stress
//! scene's, and a dense glTF model written here. Every chain keeps level 0 exactly as the mesh
//! was before levels of detail existed (as the arena packs every level: welded and in
//! vertex-cache order, `mesh::optimize::for_drawing`), saves at least
//! `LOD_MIN_TRIANGLE_SAVING` of the triangles per level, and has finite errors that never
//! decrease and stay below the mesh's bounding radius.
//!
//! No GPU here. `cargo test --test lod_chains -- --nocapture` prints each scene's chains.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use glam::Vec3;
use multidraw::mesh::lod::{self, saves_enough};
use multidraw::mesh::optimize::for_drawing;
use multidraw::mesh::procedural::{self, Shape};
use multidraw::mesh::{MeshArena, MeshData, Vertex, MAX_LODS};
use multidraw::scene::file;
use multidraw::scene::generator::{stress_scene, StressParams};
use multidraw::scene::gltf_import::{self, Selector};
use multidraw::scene::sandbox::Sandbox;
use multidraw::scene::Scene;
use serde_json::json;

fn scenes_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes")
}

fn shipped_scenes() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(scenes_dir())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "toml"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 5, "scenes/ lost its scene files: {paths:?}");
    paths
}

/// The chain rules every mesh of `arena` obeys.
fn check_chains(what: &str, arena: &MeshArena) {
    for (id, mesh) in arena.meshes.iter().enumerate() {
        let name = format!("{what}: mesh \"{}\"", mesh.name);
        assert!((1..=MAX_LODS).contains(&mesh.lods.len()), "{name}: {} levels", mesh.lods.len());
        let base = mesh.lods[0];
        assert_eq!(
            (base.first_index, base.index_count, base.base_vertex, base.vertex_count),
            (mesh.first_index, mesh.index_count, mesh.base_vertex, mesh.vertex_count),
            "{name}: level 0 is the mesh's own range"
        );
        assert_eq!(base.error, 0.0, "{name}");
        let chain = arena.chain(id as u32);
        let (triangles, errors) = (chain.triangle_counts(), chain.errors());
        for k in 1..triangles.len() {
            assert!(saves_enough(triangles[k - 1], triangles[k]), "{name}: triangles {triangles:?}");
            assert!(errors[k].is_finite() && errors[k] >= errors[k - 1], "{name}: errors {errors:?}");
            assert!(
                errors[k] < mesh.bounds.w,
                "{name}: error {} past the bounding radius {}",
                errors[k],
                mesh.bounds.w
            );
            let level = &chain.levels[k].0;
            let mut used = vec![false; level.vertices.len()];
            level.indices.iter().for_each(|&i| used[i as usize] = true);
            assert!(used.iter().all(|&u| u), "{name}: level {k} holds vertices it does not use");
        }
    }
}

/// Prints a mesh's chain as one table row.
fn print_chain(scene: &str, arena: &MeshArena, id: usize) {
    let chain = arena.chain(id as u32);
    let errors: Vec<String> = chain.errors().iter().map(|e| format!("{e:.4}")).collect();
    eprintln!(
        "| {scene} | {} | {} | {:?} | {} |",
        arena.meshes[id].name,
        chain.levels.len(),
        chain.triangle_counts(),
        errors.join(", ")
    );
}

/// Bakes a `[[mesh]]` section's scale and offset as scene files did before levels of detail
/// (the reference level 0 is compared against).
fn bake(mut data: MeshData, mesh: &toml::Table) -> MeshData {
    let vec3 = |key: &str, default: f32| {
        mesh.get(key).map_or(Vec3::splat(default), |v| {
            let a = v.as_array().unwrap();
            Vec3::from_array([0, 1, 2].map(|i| a[i].as_float().or(a[i].as_integer().map(|x| x as f64)).unwrap() as f32))
        })
    };
    let (scale, offset) = (vec3("scale", 1.0), vec3("offset", 0.0));
    if scale == Vec3::ONE && offset == Vec3::ZERO {
        return data;
    }
    for vertex in &mut data.vertices {
        vertex.position = (Vec3::from(vertex.position) * scale + offset).into();
        vertex.normal = (Vec3::from(vertex.normal) / scale).normalize_or_zero().into();
    }
    if scale.x * scale.y * scale.z < 0.0 {
        data.indices.chunks_exact_mut(3).for_each(|t| t.swap(1, 2));
    }
    data
}

/// A `[[mesh]]` section's procedural shape, with the scene format's defaults.
fn shape(mesh: &toml::Table) -> Option<Shape> {
    let int = |key: &str, default: i64| mesh.get(key).map_or(default, |v| v.as_integer().unwrap()) as u32;
    Some(match mesh.get("procedural")?.as_str().unwrap() {
        "cube" => Shape::Cube,
        "sphere" => Shape::UvSphere { segments: int("segments", 16), rings: int("rings", 8) },
        "icosphere" => Shape::Icosphere { subdivisions: int("subdivisions", 1) },
        "torus" => Shape::Torus { segments: int("segments", 16), sides: int("sides", 8) },
        "cylinder" => Shape::Cylinder { segments: int("segments", 12) },
        "cone" => Shape::Cone { segments: int("segments", 12) },
        "rock" => Shape::rock(int("seed", 7)),
        other => panic!("unknown procedural kind {other}"),
    })
}

/// Level 0 as the mesh was built before levels of detail: the generator functions (not
/// [`Shape`]) or the glTF importer, then the bake.
fn reference_mesh(mesh: &toml::Table, scene_dir: &Path) -> MeshData {
    let int = |key: &str, default: i64| mesh.get(key).map_or(default, |v| v.as_integer().unwrap()) as u32;
    let data = if let Some(kind) = mesh.get("procedural") {
        match kind.as_str().unwrap() {
            "cube" => procedural::cube(),
            "sphere" => procedural::uv_sphere(int("segments", 16), int("rings", 8)),
            "icosphere" => procedural::icosphere(int("subdivisions", 1)),
            "torus" => procedural::torus(int("segments", 16), int("sides", 8)),
            "cylinder" => procedural::cylinder(int("segments", 12)),
            "cone" => procedural::cone(int("segments", 12)),
            "rock" => procedural::rock(int("seed", 7)),
            other => panic!("unknown procedural kind {other}"),
        }
    } else {
        let path = scene_dir.join(mesh["gltf"].as_str().unwrap());
        let sandbox = Sandbox::new(scene_dir, &[]).unwrap();
        let model = gltf_import::open(&path, &sandbox).unwrap();
        let selector = mesh.get("mesh").map(|s| match s {
            toml::Value::String(name) => Selector::Name(name.clone()),
            toml::Value::Integer(index) => Selector::Index(*index as usize),
            other => panic!("mesh selector {other}"),
        });
        model.mesh(selector.as_ref()).unwrap()
    };
    bake(data, mesh)
}

fn level_zero(arena: &MeshArena, id: u32) -> MeshData {
    arena.chain(id).levels.swap_remove(0).0
}

#[test]
fn every_scene_mesh_has_a_valid_chain() {
    eprintln!("| scene | mesh | levels | triangles | errors |\n|---|---|---|---|---|");
    for path in shipped_scenes() {
        let scene = file::load(&path).unwrap();
        check_chains(&scene.name, &scene.meshes);
        let text = std::fs::read_to_string(&path).unwrap();
        let table: toml::Table = text.parse().unwrap();
        let sections = table.get("mesh").and_then(|m| m.as_array()).cloned().unwrap_or_default();
        for section in &sections {
            let section = section.as_table().unwrap();
            let name = section["name"].as_str().unwrap();
            let id = scene.meshes.find(name).unwrap();
            let reference = for_drawing(reference_mesh(section, &scenes_dir()));
            let full = level_zero(&scene.meshes, id);
            assert_eq!(full.vertices, reference.vertices, "{}: {name}: level 0 vertices changed", scene.name);
            assert_eq!(full.indices, reference.indices, "{}: {name}: level 0 indices changed", scene.name);
            let levels = scene.meshes.meshes[id as usize].lods.len();
            if let Some(shape) = shape(section) {
                if shape.coarser().is_some() {
                    assert!(levels >= 2, "{}: {name} ({shape:?}) has {levels} level", scene.name);
                }
            }
        }
        for id in 0..scene.meshes.meshes.len() {
            print_chain(&scene.name, &scene.meshes, id);
        }
    }
}

/// The built-in stress scene, and a scene file's stress set, which must copy every level.
#[test]
fn stress_scene_meshes_have_chains() {
    let generated = stress_scene(&StressParams { objects: 10, seed: 1, animated: false });
    check_chains("stress", &generated.meshes);
    for (id, name) in procedural::BUILTIN_NAMES.iter().enumerate() {
        let full = level_zero(&generated.meshes, id as u32);
        let reference = for_drawing(procedural::builtin(name).unwrap());
        assert_eq!((full.vertices, full.indices), (reference.vertices, reference.indices), "{name}");
        let levels = generated.meshes.meshes[id].lods.len();
        assert!(levels >= 2 || *name == "cube", "{name}: {levels} levels");
    }

    let scene: Scene = file::parse(
        "[scene]\nname = \"s\"\n[[mesh]]\nname = \"own\"\nprocedural = \"torus\"\n\
         [[objects]]\nstress = { count = 10 }\n",
        "stress.toml",
        None,
    )
    .unwrap();
    check_chains("stress set", &scene.meshes);
    assert_eq!(scene.meshes.meshes.len(), 1 + procedural::BUILTIN_NAMES.len());
    for id in 0..procedural::BUILTIN_NAMES.len() {
        let (copied, original) = (scene.meshes.chain(id as u32 + 1), generated.meshes.chain(id as u32));
        assert_eq!(copied.errors(), original.errors());
        for ((a, _), (b, _)) in copied.levels.iter().zip(&original.levels) {
            assert_eq!((&a.vertices, &a.indices), (&b.vertices, &b.indices));
        }
    }
}

/// A bumpy sphere of radius about 1, as an exporter would write it: a UV sphere with a
/// smooth radial ripple (curvature for the simplifier to keep), a UV seam where the first and
/// last column share their positions bit for bit but not their UVs, and one vertex per
/// segment at each pole, all at the pole.
fn bumpy_sphere(segments: u32, rings: u32) -> MeshData {
    use std::f32::consts::{PI, TAU};
    let mut mesh = MeshData::default();
    for ring in 0..=rings {
        for segment in 0..=segments {
            let (theta, phi) = ((segment % segments) as f32 / segments as f32 * TAU, ring as f32 / rings as f32 * PI);
            let direction = match ring {
                0 => Vec3::Y,
                r if r == rings => -Vec3::Y,
                _ => Vec3::new(phi.sin() * theta.cos(), phi.cos(), phi.sin() * theta.sin()),
            };
            let ripple = 1.0 + 0.08 * (direction.x * 9.0).sin() * (direction.y * 7.0).cos();
            let uv = [segment as f32 / segments as f32, ring as f32 / rings as f32];
            mesh.vertices.push(Vertex::new((direction * ripple).into(), direction.into(), uv));
        }
    }
    let row = segments + 1;
    for ring in 0..rings {
        for segment in 0..segments {
            let a = ring * row + segment;
            let (b, c, d) = (a + 1, a + row, a + row + 1);
            for triangle in [[a, c, b], [b, c, d]] {
                let [p, q, r] = triangle.map(|i| mesh.vertices[i as usize].position);
                if p != q && q != r && r != p {
                    mesh.indices.extend(triangle);
                }
            }
        }
    }
    mesh.orient_to_normals();
    mesh
}

/// A `.gltf` with one mesh of one primitive and its buffer as a data URI.
fn gltf_document(mesh: &MeshData) -> String {
    let mut buffer: Vec<u8> = Vec::new();
    let floats = |f: &dyn Fn(&Vertex) -> Vec<f32>| -> Vec<u8> {
        mesh.vertices.iter().flat_map(f).flat_map(f32::to_le_bytes).collect()
    };
    let views = [
        floats(&|v| v.position.to_vec()),
        floats(&|v| v.normal.to_vec()),
        floats(&|v| v.uv.to_vec()),
        mesh.indices.iter().flat_map(|i| i.to_le_bytes()).collect(),
    ];
    let mut buffer_views = Vec::new();
    for view in &views {
        buffer_views.push(json!({ "buffer": 0, "byteOffset": buffer.len(), "byteLength": view.len() }));
        buffer.extend_from_slice(view);
    }
    let (lo, hi) = mesh
        .vertices
        .iter()
        .fold((Vec3::MAX, Vec3::MIN), |(lo, hi), v| (lo.min(v.position.into()), hi.max(v.position.into())));
    let count = mesh.vertices.len();
    json!({
        "asset": { "version": "2.0" },
        "buffers": [{
            "byteLength": buffer.len(),
            "uri": format!("data:application/octet-stream;base64,{}", gltf_import::encode_base64(&buffer)),
        }],
        "bufferViews": buffer_views,
        "accessors": [
            { "bufferView": 0, "componentType": 5126, "count": count, "type": "VEC3",
              "min": lo.to_array(), "max": hi.to_array() },
            { "bufferView": 1, "componentType": 5126, "count": count, "type": "VEC3" },
            { "bufferView": 2, "componentType": 5126, "count": count, "type": "VEC2" },
            { "bufferView": 3, "componentType": 5125, "count": mesh.indices.len(), "type": "SCALAR" },
        ],
        "meshes": [{ "name": "blob", "primitives": [{
            "attributes": { "POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2 }, "indices": 3,
        }]}],
    })
    .to_string()
}

/// Edges that only one triangle uses, with vertices welded by position: a closed mesh has
/// none, and a simplification that tore a seam open would.
fn open_edges(mesh: &MeshData) -> usize {
    let key = |i: u32| mesh.vertices[i as usize].position.map(f32::to_bits);
    let mut edges: HashMap<([u32; 3], [u32; 3]), i32> = HashMap::new();
    for t in mesh.indices.chunks_exact(3) {
        for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
            let (a, b) = (key(a), key(b));
            *edges.entry((a.min(b), a.max(b))).or_default() += 1;
        }
    }
    edges.values().filter(|&&n| n == 1).count()
}

#[test]
fn gltf_meshes_are_simplified() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("lod_chains");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let blob = bumpy_sphere(96, 48);
    assert_eq!(open_edges(&blob), 0, "the test model is closed");
    std::fs::write(dir.join("blob.gltf"), gltf_document(&blob)).unwrap();
    let scene_text = |scale: &str| {
        format!(
            "[scene]\nname = \"blob\"\n[[mesh]]\nname = \"blob\"\ngltf = \"blob.gltf\"\nscale = {scale}\n\
             [[material]]\nname = \"m\"\nbase_color = [1, 1, 1]\n\
             [[objects]]\ntransforms = [{{ mesh = \"blob\", material = \"m\", position = [0, 0, 0] }}]\n"
        )
    };
    let load = |scale: &str| file::parse(&scene_text(scale), "blob.toml", Some(&dir)).unwrap();

    let started = Instant::now();
    let scene = load("[1, 1, 1]");
    eprintln!("blob ({} triangles): loaded with its chain in {:?}", blob.indices.len() / 3, started.elapsed());
    check_chains("blob", &scene.meshes);
    print_chain("blob", &scene.meshes, 0);
    let chain = scene.meshes.chain(0);
    // Imported as written, plus the tangents the importer generates.
    let mut with_tangents = blob.clone();
    multidraw::mesh::tangents::accumulate(&mut with_tangents);
    let expected = for_drawing(with_tangents);
    assert_eq!(chain.levels[0].0.vertices, expected.vertices);
    assert_eq!(chain.levels[0].0.indices, expected.indices);
    assert!(chain.levels.len() >= 4, "{:?}", chain.triangle_counts());
    for (k, (level, _)) in chain.levels.iter().enumerate() {
        assert_eq!(open_edges(level), 0, "level {k} tore the mesh open (a seam or a hole)");
    }
    // Level 1 halves the triangles of a smooth mesh at a small fraction of its size.
    assert!(chain.errors()[1] < 0.05 * scene.meshes.meshes[0].bounds.w, "{:?}", chain.errors());

    // Scale multiplies errors by the largest axis factor; the levels are the same.
    let errors = chain.errors();
    for (scale, factor) in [("[2, 2, 2]", 2.0), ("[1, -3, 0.5]", 3.0)] {
        let scaled = load(scale).meshes.chain(0);
        assert_eq!(scaled.triangle_counts(), chain.triangle_counts(), "{scale}");
        for (e, s) in errors.iter().zip(scaled.errors()) {
            assert!((s - e * factor).abs() <= 1e-6 * s.max(1.0), "{scale}: {s} != {e} × {factor}");
        }
    }
}

/// The committed model's meshes are a box, a tetrahedron and two triangles: nothing to
/// simplify without collapsing them, so each keeps its one level.
#[test]
fn committed_gltf_model_keeps_one_level() {
    let scene = file::load(&scenes_dir().join("gltf.toml")).unwrap();
    for name in ["crate", "marker", "shard"] {
        let mesh = &scene.meshes.meshes[scene.meshes.find(name).unwrap() as usize];
        assert_eq!(mesh.lods.len(), 1, "{name}");
    }
}

/// How long the biggest mesh of the shipped scenes takes to get its chain (measured errors
/// included), built afresh rather than from the chain cache.
#[test]
fn biggest_scene_mesh_chain_time() {
    let mut biggest: Option<(usize, String, Shape)> = None;
    for path in shipped_scenes() {
        let table: toml::Table = std::fs::read_to_string(&path).unwrap().parse().unwrap();
        for section in table.get("mesh").and_then(|m| m.as_array()).cloned().unwrap_or_default() {
            let section = section.as_table().unwrap();
            if let Some(shape) = shape(section) {
                let triangles = shape.mesh().indices.len() / 3;
                if biggest.as_ref().is_none_or(|(t, _, _)| triangles > *t) {
                    biggest = Some((triangles, section["name"].as_str().unwrap().to_string(), shape));
                }
            }
        }
    }
    let (triangles, name, shape) = biggest.unwrap();
    let started = Instant::now();
    let chain = lod::chain(shape.chain_shapes().map(|s| s.mesh()));
    let elapsed = started.elapsed();
    eprintln!(
        "biggest scene mesh \"{name}\" ({shape:?}, {triangles} triangles): chain of {} levels in {elapsed:?}",
        chain.levels.len()
    );
    assert_eq!(chain.triangle_counts(), shape.lods().triangle_counts());
}
