//! `multidraw import MODEL.gltf [--instances N] [--out SCENE.toml]`: the scene file that shows
//! a glTF model, so trying a model is one command. `render`, `view`, `bench` and `soak` also
//! take a `.gltf` or `.glb` in place of a scene file (one instance, automatic camera).

use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;

use multidraw::output::{self, Format};
use multidraw::scene::file;
use multidraw::scene::Scene;

use super::load::LoadArgs;

#[derive(Args)]
pub struct ImportArgs {
    /// The glTF model (.gltf or .glb).
    model: PathBuf,
    /// Copies of the model, on a square grid spaced by its size (exactly this many: a count
    /// that is not a rectangle ends with a shorter row).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=50_000_000))]
    instances: u32,
    /// Write the scene file here (a .toml in the model's directory or above it reads it
    /// without --allow-dir); without it, the scene is printed, its model path relative to the
    /// current directory (for `import MODEL > SCENE.toml` with the scene saved there).
    #[arg(long, value_name = "SCENE.toml")]
    out: Option<PathBuf>,
    #[command(flatten)]
    load: LoadArgs,
}

pub fn run(args: &ImportArgs) -> Result<()> {
    if !file::is_model_file(&args.model) {
        anyhow::bail!("{} is not a glTF model: name a .gltf or .glb file", args.model.display());
    }
    if let Some(out) = &args.out {
        if output::same_file(out, &args.model) {
            anyhow::bail!(
                "--out {} is the model itself: name a new .toml for the scene, e.g. --out {}",
                out.display(),
                args.model.with_extension("toml").display()
            );
        }
        output::check(out, Format::Any)?;
    }
    // Loading the model checks it, and measures it for the grid's spacing.
    let scene = super::load_scene(Some(&args.model), None, None, &args.load)?;
    // The scene file must load: as many objects as a scene file may hold, at most.
    let parts = scene.objects.len().max(1) as u64;
    let total = u64::from(args.instances) * parts;
    if total > file::MAX_OBJECTS {
        anyhow::bail!(
            "--instances {} of {} ({parts} objects each) makes {} objects, over the {} a scene file may hold: at \
             most {} instances of this model",
            args.instances,
            args.model.display(),
            multidraw::text::count(total),
            multidraw::text::count(file::MAX_OBJECTS),
            multidraw::text::count(file::MAX_OBJECTS / parts)
        );
    }
    let spacing = round_up(2.5 * f64::from(reach(&scene).max(1e-3)));
    // A scene names its model relative to its own directory (an absolute path is refused):
    // the directory of --out, or the current one, where `import MODEL > SCENE.toml` saves it.
    let scene_dir = args.out.as_deref().map_or(Path::new(""), |out| out.parent().unwrap_or(Path::new("")));
    let (gltf, leaves) = relative_to(&args.model, scene_dir)?;
    let text = file::model_scene_text(&gltf, args.instances, spacing);
    let model_dir = std::fs::canonicalize(args.model.parent().unwrap_or(Path::new("")).join("."))
        .unwrap_or_else(|_| args.model.parent().unwrap_or(Path::new(".")).to_path_buf());
    match &args.out {
        Some(out) => {
            output::write(out, Format::Any, text.as_bytes())?;
            let parts = scene.objects.len() as u64;
            println!(
                "wrote {} ({} × {} objects = {})",
                out.display(),
                args.instances,
                parts,
                multidraw::text::count(u64::from(args.instances) * parts)
            );
            if leaves {
                println!(
                    "note: the model lies outside the scene file's directory; load the scene with --allow-dir {}",
                    model_dir.display()
                );
            }
        }
        None => {
            print!("{text}");
            if leaves {
                eprintln!(
                    "note: the model lies outside the current directory, so a scene saved here reads it only with \
                     --allow-dir {} (or write the scene next to the model with --out DIR/SCENE.toml)",
                    model_dir.display()
                );
            }
        }
    }
    Ok(())
}

/// How far the model reaches from its origin: the farthest part's bounding sphere.
fn reach(scene: &Scene) -> f32 {
    scene
        .objects
        .iter()
        .map(|object| {
            let bounds = scene.meshes.meshes[object.mesh as usize].bounds;
            let centre = object.translation + object.rotation * (bounds.truncate() * object.scale);
            centre.length() + bounds.w * object.scale
        })
        .fold(0.0, f32::max)
}

/// `x` rounded up to two significant digits, so the written spacing reads well.
fn round_up(x: f64) -> f64 {
    let digits = 1 - x.log10().floor() as i32;
    let scale = 10f64.powi(digits);
    (x * scale).ceil() / scale
}

/// `model`'s path relative to `dir` (both made absolute), with `/` separators, and whether
/// it leaves `dir`.
fn relative_to(model: &Path, dir: &Path) -> Result<(String, bool)> {
    let absolute = |path: &Path| -> Result<PathBuf> {
        let path = if path.as_os_str().is_empty() { Path::new(".") } else { path };
        std::fs::canonicalize(path).with_context(|| format!("cannot resolve {}", path.display()))
    };
    let (model, dir) = (absolute(model)?, absolute(dir)?);
    let shared = model.components().zip(dir.components()).take_while(|(a, b)| a == b).count();
    let ups = dir.components().count() - shared;
    let mut parts: Vec<String> = vec!["..".into(); ups];
    parts.extend(model.components().skip(shared).filter_map(|c| match c {
        Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
        _ => None,
    }));
    Ok((parts.join("/"), ups > 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spacing_rounds_up_to_two_digits() {
        assert_eq!(round_up(12.34), 13.0);
        assert_eq!(round_up(0.0123), 0.013);
        assert_eq!(round_up(250.0), 250.0);
        assert_eq!(round_up(4.61), 4.7);
    }
}
