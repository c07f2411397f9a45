//! `multidraw check` (hidden): loads a scene the way every command does (sandbox, budget with
//! the adapter's limits) and checks it as an upload would, without opening a device or
//! rendering. The hostile-input tests run it on each case.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use multidraw::ContextOptions;

use super::load::{adapter_limits, LoadArgs};

#[derive(Args)]
pub struct CheckArgs {
    /// Scene file (TOML) or a glTF model (.gltf, .glb); without one, the embedded default scene.
    scene: Option<PathBuf>,
    /// Objects in the default scene; not for scene files.
    #[arg(long)]
    objects: Option<u32>,
    #[command(flatten)]
    load: LoadArgs,
}

pub fn run(options: &ContextOptions, args: &CheckArgs) -> Result<()> {
    let limits = adapter_limits(options);
    let scene = super::load_scene(args.scene.as_deref(), args.objects, limits.as_ref(), &args.load)?;
    if let Some(limits) = &limits {
        multidraw::gpu_scene::check_scene(&scene, limits)?;
    }
    println!(
        "ok: {} objects, {} meshes ({} vertices, {} indices), {} materials, {} + {} texture layers{}",
        scene.objects.len(),
        scene.meshes.meshes.len(),
        scene.meshes.vertices.len(),
        scene.meshes.indices.len(),
        scene.materials.len(),
        scene.base_color_textures.layers.len(),
        scene.normal_textures.layers.len(),
        if limits.is_some() { "; fits the adapter" } else { "; no adapter found, host budget only" }
    );
    Ok(())
}
