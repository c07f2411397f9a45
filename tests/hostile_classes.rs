//! Hostile input, third round (issue 27): one test per class of the outside tester's findings,
//! each input made here and run through the real binary as a child process, and each run held
//! to the same five checks: the exit status; on a refusal exactly one `error:` line, naming the
//! file and the field or the flag (every expected fragment must be in it); wall time under 10 s
//! (5 s for the high-valence meshes); peak memory under 1 GiB, or under the `--max-memory`
//! the case gives; and no file left behind (a refused command leaves its directory as it was,
//! byte for byte and by modification time; a successful one adds exactly the files it names).
//!
//! Classes 4 and 5 have their own files: tests/profiling.rs (`--puffin-http` on port 0 prints
//! the port it got; a viewer that stops reading no longer keeps the program from exiting) and
//! tests/puffin_fuzz.rs (crafted captures for `puffin-summary`). Class 3 is also in
//! tests/hostile_cli.rs and tests/cli.rs, which check what the written files hold.

mod hostile;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use hostile::{black_png, gltf, gltf_scene, model_dir, run, scratch, triangles_buffer, write};
use serde_json::{json, Value};

const TIME_LIMIT: Duration = Duration::from_secs(10);
/// The bound for the fan and the weld.
const VALENCE_TIME_LIMIT: Duration = Duration::from_secs(5);
const RSS_LIMIT_KIB: u64 = 1024 * 1024;

enum Expect {
    /// Exit 1 (2 for a flag clap refuses), one error line holding every fragment.
    Refused(&'static [&'static str]),
    /// Exit 0, exactly these new files (non-empty), and every fragment somewhere in stderr.
    Succeeds { writes: &'static [&'static str], warns: &'static [&'static str] },
}
use Expect::Refused;

const LOADS: Expect = Expect::Succeeds { writes: &[], warns: &[] };

struct Case {
    name: String,
    dir: PathBuf,
    args: Vec<String>,
    expect: Expect,
    limit: Duration,
}

fn case(name: &str, dir: &Path, args: &[&str], expect: Expect) -> Case {
    let args = args.iter().map(|a| a.to_string()).collect();
    Case { name: name.to_string(), dir: dir.to_path_buf(), args, expect, limit: TIME_LIMIT }
}

fn write_json(path: &Path, value: &Value) {
    write(path, serde_json::to_vec(value).unwrap());
}

/// Every file under `dir`: its size and modification time.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, (u64, SystemTime)> {
    let mut files = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap();
            let meta = entry.metadata().unwrap();
            if meta.is_dir() {
                stack.push(entry.path());
            } else {
                files.insert(entry.path(), (meta.len(), meta.modified().unwrap()));
            }
        }
    }
    files
}

/// The peak-memory bound in KiB: `--max-memory`'s value where a case gives one of at most
/// 4 GiB (decimal units or bytes, as the tests write them), else 1 GiB.
fn memory_limit_kib(args: &[String]) -> u64 {
    let Some(at) = args.iter().position(|a| a == "--max-memory") else { return RSS_LIMIT_KIB };
    let value = &args[at + 1];
    let (number, unit) = value.split_at(value.find(|c: char| !c.is_ascii_digit()).unwrap_or(value.len()));
    let scale: u128 = match unit {
        "GB" => 1_000_000_000,
        "MB" => 1_000_000,
        "" => 1,
        other => panic!("unit {other:?} in the test's --max-memory"),
    };
    let kib = number.parse::<u128>().unwrap().saturating_mul(scale) / 1024;
    u64::try_from(kib).ok().filter(|&kib| kib <= 4 * RSS_LIMIT_KIB).unwrap_or(RSS_LIMIT_KIB)
}

/// Runs every case and fails with all that broke a check, after printing a table of them.
fn check(test: &str, root: &Path, cases: Vec<Case>) {
    let runs = root.join("runs");
    std::fs::create_dir_all(&runs).unwrap();
    let mut failures = Vec::new();
    eprintln!("{test}\n| case | exit | seconds | peak RSS MiB |\n|---|---|---:|---:|");
    for case in &cases {
        let before = snapshot(&case.dir);
        let run = run(&case.args, &case.dir, &runs, case.limit);
        let after = snapshot(&case.dir);
        eprintln!("| {} | {:?} | {:.2} | {} |", case.name, run.code, run.seconds, run.peak_rss_kib / 1024);
        let errors: Vec<&str> = run.stderr.lines().filter(|line| line.starts_with("error")).collect();
        let mut wrong = Vec::new();
        let mut fail = |why: String| wrong.push(why);
        if run.timed_out {
            fail(format!("ran past {:?}", case.limit));
        }
        let limit = memory_limit_kib(&case.args);
        if run.peak_rss_kib > limit {
            fail(format!("peak RSS {} MiB over {} MiB", run.peak_rss_kib / 1024, limit / 1024));
        }
        if run.stderr.contains("panicked") {
            fail("panicked".into());
        }
        match &case.expect {
            Refused(fragments) => {
                if !matches!(run.code, Some(1 | 2)) {
                    fail(format!("expected a refusal (exit 1 or 2), got {:?}", run.code));
                } else if errors.len() != 1 {
                    fail(format!("{} error lines", errors.len()));
                } else if let Some(missing) = fragments.iter().find(|f| !errors[0].contains(*f)) {
                    fail(format!("{missing:?} is not in the error line"));
                }
                if after != before {
                    let changed: Vec<_> = after.keys().filter(|f| after.get(*f) != before.get(*f)).collect();
                    fail(format!("the refusal left its directory changed: {changed:?}"));
                }
            }
            Expect::Succeeds { writes, warns } => {
                if run.code != Some(0) {
                    fail(format!("expected success, got {:?}", run.code));
                }
                if let Some(missing) = warns.iter().find(|w| !run.stderr.contains(*w)) {
                    fail(format!("no word of {missing:?}"));
                }
                let mut new: Vec<String> = after
                    .iter()
                    .filter(|(file, state)| before.get(*file) != Some(state))
                    .map(|(file, _)| file.strip_prefix(&case.dir).unwrap().display().to_string())
                    .collect();
                new.sort();
                let mut wanted: Vec<String> = writes.iter().map(|w| w.to_string()).collect();
                wanted.sort();
                if new != wanted {
                    fail(format!("wrote {new:?}, expected {wanted:?}"));
                }
                if let Some(empty) = writes.iter().find(|w| after.get(&case.dir.join(w)).is_none_or(|s| s.0 == 0)) {
                    fail(format!("{empty} is missing or empty"));
                }
            }
        }
        if !wrong.is_empty() {
            failures.push(format!("{}: {}\n    stderr: {}", case.name, wrong.join("; "), run.stderr.trim()));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

/// One mesh of positions (float VEC3, `count` of them) in `buffer.bin`, read as a
/// non-indexed triangle list: from `positions`, or as `count` zeros through a sparse accessor
/// whose one stored value is zero too (a file of a few hundred bytes).
fn positions_model(count: usize, positions: Option<&[u8]>) -> (Value, Vec<u8>) {
    let mut accessor = json!({
        "componentType": 5126, "count": count, "type": "VEC3", "min": [-1.0, -1.0, 0.0], "max": [1.0, 1.0, 0.0]
    });
    let (views, buffer) = match positions {
        Some(bytes) => {
            accessor["bufferView"] = json!(0);
            (json!([{ "buffer": 0, "byteLength": bytes.len() }]), bytes.to_vec())
        }
        None => {
            accessor["sparse"] = json!({
                "count": 1, "indices": { "bufferView": 0, "componentType": 5125 }, "values": { "bufferView": 1 }
            });
            let bytes: Vec<u8> = 5u32.to_le_bytes().into_iter().chain([0u8; 12]).collect();
            (json!([{ "buffer": 0, "byteLength": 4 }, { "buffer": 0, "byteOffset": 4, "byteLength": 12 }]), bytes)
        }
    };
    let model = json!({
        "asset": { "version": "2.0" },
        "buffers": [{ "uri": "buffer.bin", "byteLength": buffer.len() }],
        "bufferViews": views,
        "accessors": [accessor],
        "meshes": [{ "name": "hub", "primitives": [{ "attributes": { "POSITION": 0 } }] }],
    });
    (model, buffer)
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// A glTF whose nodes place its one mesh, as a whole model scene would.
fn with_node(mut model: Value, node: Value) -> Value {
    model["nodes"] = json!([node]);
    model["scenes"] = json!([{ "nodes": [0] }]);
    model["scene"] = json!(0);
    model
}

/// Class 1: work the budget did not see (valence, instance bombs, decode work).
#[test]
fn class_1_work_is_bounded_before_it_is_done() {
    let root = scratch("hostile_classes", "class1");
    let mut cases = Vec::new();
    let n = 150_000usize;
    let fan: Vec<u8> = (0..n)
        .flat_map(|i| {
            let corner = |k: usize| {
                let a = (k % n) as f32 / n as f32 * std::f32::consts::TAU;
                [a.cos(), a.sin(), 0.0f32]
            };
            [[0.0f32; 3], corner(i), corner(i + 1)].into_iter().flatten().flat_map(f32::to_le_bytes)
        })
        .collect();
    for (name, count, positions) in
        [("150,000-triangle fan", 3 * n, Some(&fan[..])), ("999,999 corners on one vertex", 999_999, None)]
    {
        let dir = root.join(&name[..3]);
        let (model, buffer) = positions_model(count, positions);
        write_json(&dir.join("model.gltf"), &model);
        write(&dir.join("buffer.bin"), buffer);
        write(&dir.join("scene.toml"), gltf_scene("model.gltf", 1, 0));
        let warns = &["mesh \"mesh0\" of glTF file \"model.gltf\"", "triangle corners"];
        let mut fan = case(name, &dir, &["check", "scene.toml"], Expect::Succeeds { writes: &[], warns });
        fan.limit = VALENCE_TIME_LIMIT;
        cases.push(fan);
    }

    // 1,000,000 EXT_mesh_gpu_instancing instances, all zero through sparse accessors: drawn once.
    let dir = root.join("instances");
    write(&dir.join("buffer.bin"), triangles_buffer(36));
    let mut model: Value = serde_json::from_str(&gltf("buffer.bin", 36, 1, None, 1)).unwrap();
    let zeros =
        json!({ "count": 1, "indices": { "bufferView": 1, "componentType": 5125 }, "values": { "bufferView": 2 } });
    model["buffers"][0]["byteLength"] = json!(36 * 12 + 16);
    model["bufferViews"].as_array_mut().unwrap().extend([
        json!({ "buffer": 0, "byteOffset": 36 * 12, "byteLength": 4 }),
        json!({ "buffer": 0, "byteOffset": 36 * 12 + 4, "byteLength": 12 }),
    ]);
    model["accessors"].as_array_mut().unwrap().push(json!({
        "componentType": 5126, "count": 1_000_000, "type": "VEC3", "sparse": zeros
    }));
    let node =
        json!({ "mesh": 0, "extensions": { "EXT_mesh_gpu_instancing": { "attributes": { "TRANSLATION": 1 } } } });
    let mut model = with_node(model, node);
    model["extensionsUsed"] = json!(["EXT_mesh_gpu_instancing"]);
    let mut buffer = triangles_buffer(36);
    buffer.extend(1u32.to_le_bytes().into_iter().chain([0u8; 12]));
    write(&dir.join("buffer.bin"), buffer);
    write_json(&dir.join("model.gltf"), &model);
    let args = ["render", "model.gltf", "--size", "64x64", "--out", "frame.png"];
    let warns = &["1,000,000 EXT_mesh_gpu_instancing instances, of which only 1 differ"];
    cases.push(case("1,000,000 repeated instances", &dir, &args, Expect::Succeeds { writes: &["frame.png"], warns }));

    // Twelve distinct 11500² PNGs (262 KB of files): refused by their texels, from headers.
    let dir = model_dir(&root, "pngs", "buffer.bin", Some("i0.png"), 12);
    let mut model = read_json(&dir.join("model.gltf"));
    model["images"] = (0..12).map(|i| json!({ "uri": format!("i{i}.png") })).collect();
    model["textures"] = (0..12).map(|i| json!({ "source": i })).collect();
    for (i, material) in model["materials"].as_array_mut().unwrap().iter_mut().enumerate() {
        material["pbrMetallicRoughness"] = json!({ "baseColorTexture": { "index": i } });
    }
    write_json(&dir.join("model.gltf"), &model);
    (0..12).for_each(|i| write(&dir.join(format!("i{i}.png")), black_png(11_500, 11_500 - i)));
    let refused = Refused(&["scene.toml", "model.gltf", "images[", "a load may decode"]);
    cases.push(case("twelve 11500² PNGs", &dir, &["check", "scene.toml"], refused));
    check("class 1", &root, cases);
}

/// Class 2: memory checked from headers and flags before it is spent.
#[test]
fn class_2_memory_is_checked_before_it_is_spent() {
    let root = scratch("hostile_classes", "class2");
    let mut cases = Vec::new();
    // 150 distinct 2048×1 PNGs, each resampled to a 2048² layer: over 2 GB of layers.
    let dir = model_dir(&root, "pngs", "buffer.bin", Some("i0.png"), 150);
    let mut model = read_json(&dir.join("model.gltf"));
    model["images"] = (0..150).map(|i| json!({ "uri": format!("i{i}.png") })).collect();
    model["textures"] = (0..150).map(|i| json!({ "source": i })).collect();
    for (i, material) in model["materials"].as_array_mut().unwrap().iter_mut().enumerate() {
        material["pbrMetallicRoughness"] = json!({ "baseColorTexture": { "index": i } });
    }
    write_json(&dir.join("model.gltf"), &model);
    (0..150).for_each(|i| write(&dir.join(format!("i{i}.png")), black_png(2048 - i, 1)));
    let args = ["check", "scene.toml", "--max-memory", "2GB"];
    let refused = Refused(&["scene.toml", "model.gltf", "images[", "--max-memory"]);
    cases.push(case("150 distinct 2048×1 PNGs, --max-memory 2GB", &dir, &args, refused));

    let dir = root.join("churn");
    std::fs::create_dir_all(&dir).unwrap();
    for (command, churn) in [("bench", "18446744073709551615"), ("soak", "5000000")] {
        let frames: &[&str] = match command {
            "bench" => &["--frames", "3", "--warmup", "1"],
            _ => &["--frames", "40", "--warmup", "20", "--every", "5"],
        };
        let args = [&[command, "--objects", "100", "--size", "32x32", "--churn", churn][..], frames].concat();
        cases.push(case(&format!("{command} --churn {churn}"), &dir, &args, Refused(&["--churn", "100 objects"])));
    }
    check("class 2", &root, cases);
}

/// Class 3: outputs that would collide or be left half made are refused before any work.
#[test]
fn class_3_outputs_never_collide_or_stay_behind() {
    let root = scratch("hostile_classes", "class3");
    let mut cases = Vec::new();
    let dir = root.join("render");
    std::fs::create_dir_all(&dir).unwrap();
    let size = ["--objects", "100", "--size", "64x64"];
    let same = [&size[..], &["--out", "f.png", "--pyramid-level", "0", "--pyramid-out", "f.png"]].concat();
    cases.push(case("--pyramid-out F --out F", &dir, &[&["render"][..], &same].concat(), Refused(&["--pyramid-out"])));
    let deep = [&size[..], &["--out", "f.png", "--pyramid-level", "99", "--pyramid-out", "p.png"]].concat();
    cases.push(case("--pyramid-level 99", &dir, &[&["render"][..], &deep].concat(), Refused(&["--pyramid-level 99"])));
    let both = [&size[..], &["--out", "f.png", "--pyramid-level", "1", "--pyramid-out", "p.png"]].concat();
    let writes = Expect::Succeeds { writes: &["f.png", "p.png"], warns: &[] };
    cases.push(case("frame and pyramid level 1", &dir, &[&["render"][..], &both].concat(), writes));

    let dir = model_dir(&root, "import", "buffer.bin", None, 1);
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/models");
    write(&dir.join("crate.gltf"), std::fs::read(models.join("crate.gltf")).unwrap());
    let args = ["import", "model.gltf", "--out", "model.gltf"];
    cases.push(case("import M --out M", &dir, &args, Refused(&["--out model.gltf", "the model itself"])));
    let args = ["import", "crate.gltf", "--instances", "50000000", "--out", "big.toml"];
    cases.push(case("import --instances 50000000", &dir, &args, Refused(&["--instances", "crate.gltf"])));
    let args = ["import", "crate.gltf", "--instances", "3", "--out", "three.toml"];
    cases.push(case("import --instances 3", &dir, &args, Expect::Succeeds { writes: &["three.toml"], warns: &[] }));
    check("class 3", &root, cases);
}

/// Class 6: invalid glTF and TOML values are refused or warned about by their path.
#[test]
fn class_6_invalid_values_are_named() {
    let root = scratch("hostile_classes", "class6");
    let mut cases = Vec::new();
    let edit = |name: &str, change: &dyn Fn(&mut Value)| {
        let dir = model_dir(&root, name, "buffer.bin", Some("t.png"), 1);
        write(&dir.join("t.png"), black_png(4, 4));
        let mut model = read_json(&dir.join("model.gltf"));
        change(&mut model);
        write_json(&dir.join("model.gltf"), &model);
        dir
    };
    let dir = edit("factor", &|m| {
        m["materials"][0]["pbrMetallicRoughness"]["baseColorFactor"] = json!([-1.0, 2.5, 1e30, 7.0]);
    });
    let refused = Refused(&["model.gltf", "material #0", "baseColorFactor"]);
    cases.push(case("baseColorFactor [-1, 2.5, 1e30, 7]", &dir, &["check", "scene.toml"], refused));
    let transform = |t: Value| {
        move |m: &mut Value| {
            m["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["extensions"] =
                json!({ "KHR_texture_transform": t });
            m["extensionsUsed"] = json!(["KHR_texture_transform"]);
        }
    };
    let dir = edit("texcoord", &transform(json!({ "texCoord": 5 })));
    let warns =
        &["model.gltf", "materials[0].pbrMetallicRoughness.baseColorTexture (its KHR_texture_transform texCoord 5)"];
    cases.push(case("transform texCoord 5", &dir, &["check", "scene.toml"], Expect::Succeeds { writes: &[], warns }));
    let dir = edit("offset", &transform(json!({ "offset": [3e38, 0.0] })));
    let refused = Refused(&["model.gltf", "KHR_texture_transform", "offset"]);
    cases.push(case("transform offset 3e38", &dir, &["check", "scene.toml"], refused));
    let dir = edit("misaligned", &|m| {
        m["buffers"][0]["byteLength"] = json!(36 * 12 + 2);
        m["bufferViews"][0]["byteOffset"] = json!(2);
    });
    write(&dir.join("buffer.bin"), [&[0u8; 2][..], &triangles_buffer(36)].concat());
    let warns = &["model.gltf", "bufferViews[0]", "breaks rules of the glTF 2.0 specification"];
    cases.push(case("misaligned view offset", &dir, &["check", "scene.toml"], Expect::Succeeds { writes: &[], warns }));
    let dir = edit("integers", &|m| {
        m["accessors"][0]["componentType"] = json!(5123); // unsigned short
        m["buffers"][0]["byteLength"] = json!(36 * 6);
        m["bufferViews"][0]["byteLength"] = json!(36 * 6);
        m["accessors"][0]["min"] = json!([0, 0, 0]);
        m["accessors"][0]["max"] = json!([36, 1, 0]);
    });
    let shorts: Vec<u8> =
        (0..36u16).flat_map(|i| [i / 3 + i % 3, u16::from(i % 3 == 1), 0]).flat_map(u16::to_le_bytes).collect();
    write(&dir.join("buffer.bin"), shorts);
    let warns = &["model.gltf", "accessors[0]", "KHR_mesh_quantization"];
    cases.push(case("integer positions", &dir, &["check", "scene.toml"], Expect::Succeeds { writes: &[], warns }));

    let dir = root.join("toml");
    let big = "[[mesh]]\nname = \"ball\"\nprocedural = \"sphere\"\nsegments = 9223372036854775808\n\
               [[material]]\nname = \"paint\"\n[[objects]]\nstress = { count = 1 }\n";
    write(&dir.join("scene.toml"), big);
    let refused = Refused(&["scene.toml:4:", "mesh[0].segments", "beyond TOML's integers"]);
    cases.push(case("TOML integer 2^63", &dir, &["check", "scene.toml"], refused));
    check("class 6", &root, cases);
}

/// A unit sphere mesh scaled by `mesh_scale` on every axis, placed once at the origin with
/// scale `scale`, with the given `[camera]` lines (none: the automatic camera).
fn sphere_scene(mesh_scale: &str, scale: &str, camera: &str) -> String {
    format!(
        "[[mesh]]\nname = \"ball\"\nprocedural = \"sphere\"\nscale = [{mesh_scale}, {mesh_scale}, {mesh_scale}]\n\
         [[material]]\nname = \"paint\"\n[[objects]]\n\
         transforms = [{{ mesh = \"ball\", material = \"paint\", position = [0, 0, 0], scale = {scale} }}]\n{camera}"
    )
}

/// Class 7: extremes are drawn, or refused up front with the reason.
#[test]
fn class_7_extremes_draw_or_are_refused_with_the_reason() {
    let root = scratch("hostile_classes", "class7");
    let mut cases = Vec::new();
    let render = |size: &str| -> Vec<String> {
        ["render", "scene.toml", "--size", size, "--out", "f.png"].iter().map(|a| a.to_string()).collect()
    };
    let frame = || Expect::Succeeds { writes: &["f.png"], warns: &[] };
    for (name, mesh_scale, scale, expect) in [
        ("radius 1e-6", "1", "1e-6", frame()),
        ("radius 1e-30", "1", "1e-30", Refused(&["scene.toml", "object 0", "is below 1e-15"])),
        ("radius 1e25", "1", "1e25", Refused(&["scene.toml", "object 0", "1e18"])),
        ("mesh scale 1e-30", "1e-30", "1", Refused(&["scene.toml", "mesh \"ball\"", "below 1e-6"])),
    ] {
        let dir = root.join(name.replace(' ', "-"));
        write(&dir.join("scene.toml"), sphere_scene(mesh_scale, scale, ""));
        let args = render("64x64");
        cases.push(Case { name: name.into(), dir, args, expect, limit: TIME_LIMIT });
    }
    let narrow = "[camera]\nposition = [0, 0, 5]\ntarget = [0, 0, 0]\nfov_y_degrees = 1e-35\n";
    let dir = root.join("fov");
    write(&dir.join("scene.toml"), sphere_scene("1", "1", narrow));
    for size in ["1x16384", "160x90"] {
        let args = render(size);
        let expect = Refused(&["scene.toml", "fov_y_degrees must be at least"]);
        cases.push(Case { name: format!("fov 1e-35 at {size}"), dir: dir.clone(), args, expect, limit: TIME_LIMIT });
    }
    check("class 7", &root, cases);
}

/// Class 8: the documented empty scene runs, and messages name the file and what in it.
#[test]
fn class_8_messages_name_the_cause() {
    let root = scratch("hostile_classes", "class8");
    let mut cases = Vec::new();
    let dir = root.join("empty");
    write(&dir.join("scene.toml"), "[scene]\nempty = true\n");
    cases.push(case("empty = true, check", &dir, &["check", "scene.toml"], LOADS));
    let args = ["render", "scene.toml", "--size", "32x32", "--out", "f.png"];
    cases.push(case("empty = true, render", &dir, &args, Expect::Succeeds { writes: &["f.png"], warns: &[] }));

    let scene = |name: &str, text: &str, expect: Expect| {
        let dir = root.join(name);
        write(&dir.join("scene.toml"), text);
        case(name, &dir, &["check", "scene.toml"], expect)
    };
    let ball = "[[mesh]]\nname = \"ball\"\nprocedural = \"sphere\"\n[[material]]\nname = \"paint\"\n";
    let text = format!("{ball}[[objects]]\nrandom = {{ count = 10, half_extent = 5, models = [] }}\n");
    cases.push(scene("models = []", &text, Refused(&["scene.toml", "objects[0].random.models is empty"])));
    let text = format!(
        "{ball}[[objects]]\ntransforms = [{{ mesh = \"ball\", material = \"paint\", position = 1979-05-27 }}]\n"
    );
    let refused = Refused(&["scene.toml:7:", "objects[0].transforms[0].position", "a TOML date"]);
    cases.push(scene("a date as a position", &text, refused));

    // A model of four parts placed 400,000 times: 1,600,000 objects, more than fit.
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/models");
    let dir = root.join("parts");
    write(&dir.join("crate.gltf"), std::fs::read(models.join("crate.gltf")).unwrap());
    let text = "[[model]]\nname = \"crate\"\ngltf = \"crate.gltf\"\n[[objects]]\n\
                random = { count = 2000000, half_extent = 50, model = \"crate\" }\n";
    write(&dir.join("scene.toml"), text);
    let refused =
        Refused(&["scene.toml", "objects[0].random asks for 8,000,000 objects (2,000,000 instances × 4 parts"]);
    cases.push(case("random × parts", &dir, &["check", "scene.toml"], refused));

    // Models with nothing to draw: flattened by a node's scale, or points only.
    for (name, node, mode, expect) in [
        ("flattened model", json!({ "mesh": 0, "scale": [1.0, 0.0, 1.0] }), 4, &["scene.toml", "flattened"][..]),
        ("points only", json!({ "mesh": 0 }), 0, &["scene.toml", "model.gltf", "points or lines"][..]),
    ] {
        let dir = model_dir(&root, name, "buffer.bin", None, 1);
        let mut model = with_node(read_json(&dir.join("model.gltf")), node);
        model["meshes"][0]["primitives"][0]["mode"] = json!(mode);
        write_json(&dir.join("model.gltf"), &model);
        let placing = "[[model]]\nname = \"m\"\ngltf = \"model.gltf\"\n[[objects]]\n\
                       transforms = [{ model = \"m\", position = [0, 0, 0] }]\n";
        write(&dir.join("scene.toml"), placing);
        let expect = Refused(Box::leak(expect.to_vec().into_boxed_slice()));
        cases.push(case(name, &dir, &["check", "scene.toml"], expect));
    }
    // A glTF called `.gltf` (no stem), and one called `model.txt`: models, not TOML.
    let dir = model_dir(&root, "names", "buffer.bin", None, 1);
    let model = with_node(read_json(&dir.join("model.gltf")), json!({ "mesh": 0 }));
    write_json(&dir.join(".gltf"), &model);
    write_json(&dir.join("model.txt"), &model);
    cases.push(case("a glTF named .gltf", &dir, &["check", ".gltf"], LOADS));
    cases.push(case("a glTF named model.txt", &dir, &["check", "model.txt"], LOADS));

    let dir = root.join("flags");
    std::fs::create_dir_all(&dir).unwrap();
    let render = ["render", "--objects", "10", "--size", "32x32", "--out", "f.png", "--lod-error"];
    cases.push(case("--lod-error -1", &dir, &[&render[..], &["-1"]].concat(), Refused(&["--lod-error", "positive"])));
    let refused = Refused(&["--lod-error", "beyond 32-bit floats"]);
    cases.push(case("--lod-error 1e308", &dir, &[&render[..], &["1e308"]].concat(), refused));
    let args = ["check", "--objects", "10", "--max-memory", "18446744073709551615"];
    cases.push(case("--max-memory 2^64-1", &dir, &args, LOADS));
    let args = ["check", "--objects", "10", "--max-memory", "18446744073709551616"];
    cases.push(case("--max-memory 2^64", &dir, &args, Refused(&["--max-memory", "more than 2^64 bytes"])));
    check("class 8", &root, cases);
}
