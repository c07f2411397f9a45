//! The command line with real glTF models (the Khronos samples in scenes/models/): a model
//! given in place of a scene file, `multidraw import`, and messages said once: what a file
//! uses that is not drawn is one warning per file, and a refusal names its cause once.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn multidraw(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_multidraw"))
        .args(args)
        .current_dir(dir)
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        .output()
        .expect("run multidraw")
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("model_files").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn unsupported_features_are_one_warning_per_file() {
    let cases = [
        ("scenes/models/Fox/Fox.glb", "Fox.glb", &["skins (drawn in the bind pose)", "animations (drawn at rest)"][..]),
        (
            "scenes/models/MeshPrimitiveModes/MeshPrimitiveModes.gltf",
            "MeshPrimitiveModes.gltf",
            &["points and lines (left out)"],
        ),
    ];
    for (path, file_name, features) in cases {
        let output = multidraw(&["check", path], &root());
        let text = stderr(&output);
        assert!(output.status.success(), "{path}: {text}");
        let warnings: Vec<&str> = text.lines().filter(|line| line.starts_with("warning:")).collect();
        assert_eq!(warnings.len(), 1, "{path}: one warning line for the file: {text}");
        assert_eq!(warnings[0].matches(file_name).count(), 1, "{path}: names the file once: {text}");
        for feature in features {
            assert_eq!(warnings[0].matches(feature).count(), 1, "{path}: names {feature} once: {text}");
        }
    }
    // Files whose every feature is drawn (vertex colours, texture transforms) get no warning.
    for path in [
        "scenes/models/BoxTextured/BoxTextured.gltf",
        "scenes/models/BoxVertexColors/BoxVertexColors.gltf",
        "scenes/models/TextureTransformTest/TextureTransformTest.gltf",
    ] {
        let output = multidraw(&["check", path], &root());
        assert!(output.status.success() && !stderr(&output).contains("warning"), "{path}: {}", stderr(&output));
    }
}

#[test]
fn refusals_say_each_cause_once() {
    let dir = scratch("refusals");
    let draco = r#"{"asset":{"version":"2.0"},"extensionsUsed":["KHR_draco_mesh_compression"],
        "extensionsRequired":["KHR_draco_mesh_compression"],
        "meshes":[{"primitives":[{"attributes":{"POSITION":0},
            "extensions":{"KHR_draco_mesh_compression":{"bufferView":0,"attributes":{"POSITION":0}}}}]}],
        "accessors":[{"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,1]}],
        "bufferViews":[{"buffer":0,"byteLength":12}],
        "buffers":[{"byteLength":12,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAA"}]}"#;
    std::fs::write(dir.join("draco.gltf"), draco).unwrap();
    let missing_image = r#"{"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],
        "meshes":[{"primitives":[{"attributes":{"POSITION":0},"material":0}]}],
        "materials":[{"pbrMetallicRoughness":{"baseColorTexture":{"index":0}}}],
        "textures":[{"source":0}],"images":[{"uri":"wall.png"}],
        "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}],
        "bufferViews":[{"buffer":0,"byteLength":36}],
        "buffers":[{"byteLength":36,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"}]}"#;
    std::fs::write(dir.join("image.gltf"), missing_image).unwrap();
    for (file, cause) in [("draco.gltf", "KHR_draco_mesh_compression"), ("image.gltf", "wall.png")] {
        let output = multidraw(&["check", file], &dir);
        let text = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{file}: {text}");
        let errors: Vec<&str> = text.lines().filter(|line| line.starts_with("error:")).collect();
        assert_eq!(errors.len(), 1, "{file}: one error line: {text}");
        assert_eq!(errors[0].matches(cause).count(), 1, "{file}: {cause} said once: {text}");
        assert_eq!(errors[0].matches(file).count(), 1, "{file}: the file named once: {text}");
    }
}

#[test]
fn import_writes_a_scene_that_loads() {
    let dir = scratch("import");
    let models = dir.join("models");
    std::fs::create_dir_all(&models).unwrap();
    std::fs::copy(root().join("scenes/models/Duck/Duck.glb"), models.join("Duck.glb")).unwrap();
    let output = multidraw(&["import", "models/Duck.glb", "--instances", "12", "--out", "ducks.toml"], &dir);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = std::fs::read_to_string(dir.join("ducks.toml")).unwrap();
    assert!(text.contains("gltf = \"models/Duck.glb\"") && text.contains("counts = [4, 1, 3]"), "{text}");
    let output = multidraw(&["check", "ducks.toml"], &dir);
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success() && out.contains("ok: 12 objects"), "{out} {}", stderr(&output));
    // Not a model: refused before anything is read.
    let output = multidraw(&["import", "ducks.toml"], &dir);
    assert!(!output.status.success() && stderr(&output).contains("not a glTF model"), "{}", stderr(&output));
}
