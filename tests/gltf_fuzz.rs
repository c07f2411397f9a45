//! A fuzz target for the glTF importer: the committed model (`scenes/models/crate.gltf`), as
//! `.gltf` text, as a `.glb` (its buffer moved to the BIN chunk and its image to a buffer view),
//! and as `.gltf` with external files, mutated by a seeded generator (bytes and tokens, JSON
//! nodes replaced, removed or multiplied, GLB chunk headers and lengths) and fed to the
//! importer in-process: open, every mesh's size and data, every material, every image. The
//! model is given a normal map on `TEXCOORD_1` (MikkTSpace tangents), texture transforms and
//! vertex colours first, so those readers are fuzzed too.
//! No case may panic, and each must finish within [`CASE_LIMIT`].
//!
//! `MULTIDRAW_FUZZ_CASES` sets the number of cases (default 50,000, a few seconds in `make test`:
//! docs/BENCHMARKS.md § "glTF fuzz run time");
//! `MULTIDRAW_FUZZ_SEED` the first seed. For a long run:
//! `MULTIDRAW_FUZZ_CASES=100000 cargo test --release --test gltf_fuzz -- --nocapture`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use multidraw::scene::budget::Budget;
use multidraw::scene::gltf_import::{self, ImageCache, Selector};
use multidraw::scene::sandbox::Sandbox;
use multidraw::scene::textures::Filter;
use serde_json::{json, Value};

/// Longest a case may take: two orders of magnitude over the slowest case seen, so a hang or
/// a runaway loop shows, not a slow machine.
const CASE_LIMIT: Duration = Duration::from_secs(2);

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.replace('_', "").parse().ok()).unwrap_or(default)
}

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The three forms of the model: its JSON (buffer and image as data URIs), the JSON of the
/// GLB form with its BIN chunk, and the JSON of the external-file form.
struct Models {
    text: Value,
    glb: (Value, Vec<u8>),
    external: Value,
}

fn models(dir: &Path) -> Models {
    let mut text: Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/models/crate.gltf")).unwrap(),
    )
    .unwrap();
    // A node tree for whole-model import to walk: a matrix child under the crate and an
    // instanced shard (EXT_mesh_gpu_instancing, the marker's 4 positions as translations)
    // under the marker.
    text["nodes"][0]["children"] = json!([3]);
    text["nodes"][1]["children"] = json!([4]);
    let nodes = text["nodes"].as_array_mut().unwrap();
    nodes.push(json!({ "name": "child", "mesh": 1,
        "matrix": [0.0, 0.0, -2.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 1.0] }));
    nodes.push(json!({ "name": "instanced", "mesh": 2, "scale": [1.0, -1.0, 1.0],
        "extensions": { "EXT_mesh_gpu_instancing": { "attributes": { "TRANSLATION": 8 } } } }));
    text["extensionsUsed"] = json!(["EXT_mesh_gpu_instancing", "KHR_texture_transform"]);
    // Material inputs: the crate's texture also as a normal map on the second coordinate set,
    // both through KHR_texture_transform (so its primitives get MikkTSpace tangents), and
    // vertex colours (the normals' accessor, as VEC3 floats).
    let transform = json!({ "offset": [0.25, 0.5], "rotation": 0.3, "scale": [2.0, 0.5] });
    text["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["extensions"] =
        json!({ "KHR_texture_transform": transform });
    text["materials"][0]["normalTexture"] =
        json!({ "index": 0, "scale": 0.8, "texCoord": 1, "extensions": { "KHR_texture_transform": transform } });
    text["meshes"][0]["primitives"][0]["attributes"]["TEXCOORD_1"] = json!(2);
    text["meshes"][0]["primitives"][0]["attributes"]["COLOR_0"] = json!(1);
    // The marker's positions through a sparse accessor: two of them replaced by the shard's
    // (its min and max stay: the crate's validator needs them, not that they hold).
    text["accessors"][8]["sparse"] =
        json!({ "count": 2, "indices": { "bufferView": 6, "componentType": 5121 }, "values": { "bufferView": 5 } });
    let data = |uri: &Value| {
        let uri = uri.as_str().unwrap();
        gltf_import::decode_base64(&uri[uri.find(',').unwrap() + 1..]).unwrap()
    };
    let (buffer, png) = (data(&text["buffers"][0]["uri"]), data(&text["images"][0]["uri"]));
    // GLB: the buffer, then the PNG in a view of its own.
    let mut bin = buffer.clone();
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let png_offset = bin.len();
    bin.extend_from_slice(&png);
    let mut glb = text.clone();
    glb["buffers"] = json!([{ "byteLength": bin.len() }]);
    glb["bufferViews"]
        .as_array_mut()
        .unwrap()
        .push(json!({ "buffer": 0, "byteOffset": png_offset, "byteLength": png.len() }));
    let png_view = glb["bufferViews"].as_array().unwrap().len() - 1;
    glb["images"] = json!([{ "bufferView": png_view, "mimeType": "image/png" }]);
    // External files, and the file-system oddities a mutation may point at.
    std::fs::write(dir.join("crate.bin"), &buffer).unwrap();
    std::fs::write(dir.join("crate.png"), &png).unwrap();
    let _ = std::os::unix::fs::symlink("/dev/zero", dir.join("zero.bin"));
    let _ = std::os::unix::fs::symlink("/etc/passwd", dir.join("passwd.bin"));
    std::fs::create_dir_all(dir.join("folder.bin")).unwrap();
    let fifo = std::ffi::CString::new(dir.join("pipe.bin").as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path; failure (it exists) is fine.
    unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) };
    let mut external = text.clone();
    external["buffers"][0]["uri"] = json!("crate.bin");
    external["images"][0]["uri"] = json!("crate.png");
    Models { text, glb: (glb, bin), external }
}

fn pack_glb(document: &Value, bin: &[u8]) -> Vec<u8> {
    let mut json = serde_json::to_vec(document).unwrap();
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    let total = 12 + 8 + json.len() + 8 + bin.len();
    let mut glb = b"glTF".to_vec();
    glb.extend(2u32.to_le_bytes());
    glb.extend((total as u32).to_le_bytes());
    glb.extend((json.len() as u32).to_le_bytes());
    glb.extend(b"JSON");
    glb.extend(json);
    glb.extend((bin.len() as u32).to_le_bytes());
    glb.extend(b"BIN\0");
    glb.extend(bin);
    glb
}

/// Replacements for a JSON node: wrong types, out-of-range indices, counts and lengths, and
/// URIs that lead out of the directory or at files that are not files.
fn values() -> Vec<Value> {
    let mut values = vec![
        json!(null),
        json!(0),
        json!(1),
        json!(2),
        json!(3),
        json!(-1),
        json!(7),
        json!(255),
        json!(65535),
        json!(4_294_967_295u64),
        json!(18_446_744_073_709_551_615u64),
        json!(0.5),
        json!(1e300),
        json!(-1e300),
        json!(3.5e38),
        json!(1e-45),
        json!("x"),
        json!("VEC2"),
        json!("VEC3"),
        json!("SCALAR"),
        json!("MAT4"),
        json!(5120),
        json!(5121),
        json!(5123),
        json!(5125),
        json!(5126),
        json!([]),
        json!({}),
        json!([0, 1]),
        json!(true),
        json!("MASK"),
        json!("BLEND"),
        json!(4),
        json!(5),
        json!(6),
        json!("data:,"),
        json!("data:application/octet-stream;base64,AAAA"),
        json!("crate.bin"),
        json!("crate.png"),
        json!("zero.bin"),
        json!("passwd.bin"),
        json!("pipe.bin"),
        json!("folder.bin"),
        json!("/etc/passwd"),
        json!("../../../../etc/passwd"),
        json!("missing.bin"),
        json!("a%zz"),
        json!("http://example.com/x"),
        json!("KHR_draco_mesh_compression"),
        json!("EXT_mesh_gpu_instancing"),
        json!({ "EXT_mesh_gpu_instancing": { "attributes": { "TRANSLATION": 8, "ROTATION": 0, "SCALE": 3 } } }),
        json!({ "attributes": { "SCALE": 1 } }),
        json!([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]),
        json!([1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]),
        json!([0, 0]),
        json!([3, 0]),
    ];
    values.push(json!([1e300, 1e300, 1e300]));
    values
}

const TOKENS: &[&str] = &[
    "0",
    "-1",
    "1e400",
    "4294967296",
    "\"",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "null",
    "\"POSITION\"",
    "\"NORMAL\"",
    "\"TEXCOORD_0\"",
    "\"indices\"",
    "\"byteStride\": 252,",
    "\"sparse\": {},",
    "\u{0}",
    "\u{1F600}",
    "\\u0000",
];

/// One mutated model, its form chosen by the generator.
fn mutate(rng: &mut Rng, models: &Models, values: &[Value]) -> Vec<u8> {
    let form = rng.below(3);
    let (mut document, bin) = match form {
        0 => (models.text.clone(), Vec::new()),
        1 => models.glb.clone(),
        _ => (models.external.clone(), Vec::new()),
    };
    let edits = [1, 1, 1, 2, 3][rng.below(5)];
    for _ in 0..edits {
        edit_json(rng, &mut document, values);
    }
    let mut bytes = if form == 1 { pack_glb(&document, &bin) } else { serde_json::to_vec(&document).unwrap() };
    if rng.below(6) == 0 {
        edit_bytes(rng, &mut bytes, form == 1);
    }
    bytes
}

/// Replaces, removes or multiplies a random node.
fn edit_json(rng: &mut Rng, document: &mut Value, values: &[Value]) {
    let mut pointers = Vec::new();
    pointers_of(document, String::new(), &mut pointers);
    if pointers.is_empty() {
        return;
    }
    let pointer = pointers[rng.below(pointers.len())].clone();
    let Some((parent, key)) = pointer.rsplit_once('/') else { return };
    match rng.below(4) {
        0 => match document.pointer_mut(parent) {
            Some(Value::Object(map)) => {
                map.remove(key);
            }
            Some(Value::Array(items)) => {
                items.remove(key.parse::<usize>().unwrap());
            }
            _ => {}
        },
        1 => {
            // Multiply an array (primitives, accessors, materials): sizes grow, work must not
            // grow past what the data holds.
            if let Some(Value::Array(items)) = document.pointer_mut(parent) {
                if let Some(item) = items.first().cloned() {
                    let copies = [2, 10, 1000][rng.below(3)];
                    items.extend(std::iter::repeat_n(item, copies));
                }
            }
        }
        _ => {
            if let Some(node) = document.pointer_mut(&pointer) {
                *node = values[rng.below(values.len())].clone();
            }
        }
    }
}

fn pointers_of(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => map.iter().for_each(|(key, item)| pointers_of(item, format!("{at}/{key}"), out)),
        Value::Array(items) => {
            items.iter().enumerate().for_each(|(i, item)| pointers_of(item, format!("{at}/{i}"), out))
        }
        _ => {}
    }
    if !at.is_empty() {
        out.push(at);
    }
}

/// Byte-level edits; for a GLB, also its header and chunk lengths and types.
fn edit_bytes(rng: &mut Rng, bytes: &mut Vec<u8>, glb: bool) {
    let at = |rng: &mut Rng, bytes: &Vec<u8>| rng.below(bytes.len() + 1);
    match rng.below(if glb { 6 } else { 4 }) {
        0 => {
            let start = at(rng, bytes);
            let end = (start + 1 + rng.below(64)).min(bytes.len());
            bytes.drain(start..end);
        }
        1 => {
            let position = at(rng, bytes);
            bytes.splice(position..position, TOKENS[rng.below(TOKENS.len())].bytes());
        }
        2 => {
            if !bytes.is_empty() {
                let i = rng.below(bytes.len());
                bytes[i] = rng.next() as u8;
            }
        }
        3 => {
            let end = at(rng, bytes);
            bytes.truncate(end);
        }
        _ => {
            // A GLB length or type field: the total (8), the JSON chunk's length (12) and type
            // (16), or the BIN chunk's length and type (found after the JSON chunk).
            let json_length = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
            let fields = [8, 12, 16, 20 + json_length, 24 + json_length];
            let field = fields[rng.below(fields.len())];
            let value = [0u32, 1, 3, 12, 0xFFFF_FFFF, 0x7FFF_FFFF, rng.next() as u32, 0x004E_4942][rng.below(8)];
            if field + 4 <= bytes.len() {
                bytes[field..field + 4].copy_from_slice(&value.to_le_bytes());
            }
        }
    }
}

/// What a case reached: the file opened, meshes imported, image layers decoded.
#[derive(Clone, Copy, Default)]
struct Reached {
    opened: u64,
    meshes: u64,
    /// Whole-model parts made (nodes walked, instancing read).
    parts: u64,
    images: u64,
}

/// Opens a model and reads everything in it, as a scene would.
fn import(bytes: &[u8], dir: &Path, sandbox: &Sandbox, budget: &Budget) -> Reached {
    let mut reached = Reached::default();
    let Ok(model) = gltf_import::from_bytes(bytes, dir, sandbox) else { return reached };
    reached.opened = 1;
    let mut images = ImageCache::default();
    for i in 0..model.mesh_count() {
        let selector = Selector::Index(i);
        let planned = model.mesh_size(Some(&selector));
        if let Ok(mesh) = model.mesh(Some(&selector)) {
            assert!(mesh.indices.iter().all(|&v| (v as usize) < mesh.vertices.len()), "index out of range");
            let size = planned.expect("a mesh that imports has a size");
            // Vertices: an upper bound where MikkTSpace may split them (a normal-mapped
            // primitive without tangents), exact otherwise.
            assert!(size.vertices >= mesh.vertices.len() as u64, "mesh_size under mesh");
            assert_eq!(size.indices, mesh.indices.len() as u64, "mesh_size disagrees with mesh");
            reached.meshes += 1;
        }
    }
    // The whole model, as a [[model]] reads it: the parts counted, then made (when few enough
    // for a case to stay cheap), and each part's primitive sized and imported, which must agree.
    if let Ok(count) = model.model_part_count(None) {
        if count <= 10_000 {
            let parts = model.model_parts(None).expect("a model whose parts count has parts");
            assert_eq!(parts.len() as u64, count, "model_part_count disagrees with model_parts");
            reached.parts += count;
            let mut seen = std::collections::HashSet::new();
            for part in parts.iter().filter(|part| seen.insert((part.mesh, part.primitive))) {
                assert!(part.world.is_finite(), "a part's world matrix is finite");
                let planned = model.primitive_size(part.mesh, part.primitive);
                if let Ok(primitive) = model.primitive(part.mesh, part.primitive, Some(part.node)) {
                    let size = planned.expect("a primitive that imports has a size");
                    assert!(size.vertices >= primitive.vertices.len() as u64, "primitive_size under primitive");
                    assert_eq!(size.indices, primitive.indices.len() as u64, "primitive_size disagrees");
                }
            }
        }
    }
    for i in 0..model.material_count() {
        let _ = model.material(Some(&Selector::Index(i)));
    }
    for i in 0..model.image_count() {
        if let Ok(layer) = model.image_layer(i, 8, Filter::Linear, &mut images, budget) {
            assert_eq!(layer.rgba.len(), 8 * 8 * 4);
            reached.images += 1;
        }
    }
    reached
}

#[test]
fn mutated_gltf_models_never_panic_or_hang() {
    let cases = env_number("MULTIDRAW_FUZZ_CASES", 50_000);
    let seed = env_number("MULTIDRAW_FUZZ_SEED", 1);
    let dir: PathBuf = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gltf_fuzz");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let models = models(&dir);
    let values = values();
    let sandbox = Sandbox::new(&dir, &[]).unwrap();
    let budget = Budget::unlimited().with_host_bytes(256 << 20, "the fuzz test");
    let start = Instant::now();
    let (mut panics, mut slowest, mut reached) = (Vec::new(), (Duration::ZERO, 0u64), Reached::default());
    for case in 0..cases {
        let mut rng = Rng(seed.wrapping_mul(0x1_0000_0001).wrapping_add(case));
        let bytes = mutate(&mut rng, &models, &values);
        let case_start = Instant::now();
        match catch_unwind(AssertUnwindSafe(|| import(&bytes, &dir, &sandbox, &budget))) {
            Ok(case) => {
                reached.opened += case.opened;
                reached.meshes += case.meshes;
                reached.parts += case.parts;
                reached.images += case.images;
            }
            Err(_) => {
                let path = dir.join(format!("panic-{case}.bin"));
                std::fs::write(&path, &bytes).unwrap();
                panics.push(path);
            }
        }
        let took = case_start.elapsed();
        if took > slowest.0 {
            slowest = (took, case);
        }
    }
    eprintln!(
        "glTF fuzz: {cases} cases (seed {seed}) in {:.1} s, {} panics, slowest case {} took {:.1} ms; \
         {} opened, {} meshes imported, {} model parts made, {} image layers decoded",
        start.elapsed().as_secs_f64(),
        panics.len(),
        slowest.1,
        slowest.0.as_secs_f64() * 1e3,
        reached.opened,
        reached.meshes,
        reached.parts,
        reached.images
    );
    // Most edits leave the model readable: a model that no longer opens unmutated would make
    // every case a parse error and test nothing.
    assert!(reached.opened > cases / 10 && reached.parts > cases, "too few cases reached the importer");
    assert!(panics.is_empty(), "{} cases panicked; inputs kept: {panics:?}", panics.len());
    assert!(slowest.0 < CASE_LIMIT, "case {} took {:?}", slowest.1, slowest.0);
}
