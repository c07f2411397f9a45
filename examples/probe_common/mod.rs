//! What `pull_probe` and `soft_raster_probe` share: their command line and the objects they
//! draw. (A directory without `main.rs`, so cargo does not take it for an example.)

use glam::{Mat4, Vec3};
use multidraw::mesh::procedural;

/// `[OBJECTS] [FRAMES] [WIDTHxHEIGHT]`.
pub struct Args {
    pub objects: u32,
    pub frames: usize,
    pub width: u32,
    pub height: u32,
}

/// The arguments, or exits with `usage` (the example's name and arguments) on a bad one.
pub fn args_or_exit(name: &str) -> Args {
    match args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("error: {message}\nusage: {name} [OBJECTS] [FRAMES] [WIDTHxHEIGHT]");
            std::process::exit(2);
        }
    }
}

fn args() -> Result<Args, String> {
    let mut args = std::env::args().skip(1);
    let objects = args.next().map(|a| a.parse().map_err(|e| format!("OBJECTS {a:?}: {e}"))).transpose()?;
    let frames = args.next().map(|a| a.parse().map_err(|e| format!("FRAMES {a:?}: {e}"))).transpose()?;
    let (width, height) = match args.next() {
        Some(size) => {
            let (w, h) = size.split_once('x').ok_or(format!("size {size:?}: expected WIDTHxHEIGHT"))?;
            (w.parse().map_err(|e| format!("width {w:?}: {e}"))?, h.parse().map_err(|e| format!("height {h:?}: {e}"))?)
        }
        None => (1920, 1080),
    };
    Ok(Args { objects: objects.unwrap_or(485_000), frames: frames.unwrap_or(30), width, height })
}

/// A hash of `i` in [0, 1).
fn unit(i: u32, salt: u32) -> f32 {
    procedural::hash01(i.wrapping_mul(0x9e37_79b9).wrapping_add(salt))
}

/// `args.objects` objects (xyz: position, w: scale) in a box in front of the camera, sized so
/// that each covers a few pixels (a projected radius of 2–23 px at 1920×1080), as the far field
/// of the stress scenes does, and the camera's view-projection.
pub fn scattered(args: &Args) -> (Vec<[f32; 4]>, Mat4) {
    let objects = (0..args.objects)
        .map(|i| {
            let p = Vec3::new(unit(i, 1) * 2.0 - 1.0, unit(i, 2) * 2.0 - 1.0, -unit(i, 3));
            let depth = 20.0 + p.z.abs() * 80.0;
            [p.x * depth * 0.85, p.y * depth * 0.48, -depth, 0.25 + 0.25 * unit(i, 4)]
        })
        .collect();
    let aspect = args.width as f32 / args.height as f32;
    (objects, glam::camera::rh::proj::directx::perspective(60f32.to_radians(), aspect, 0.5, 200.0))
}
