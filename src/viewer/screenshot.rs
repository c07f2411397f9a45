//! Screenshots: F12 saves the scene of the next frame; a script saves its last frame's scene
//! and/or the whole window (scene + UI).
//!
//! The scene is saved before the UI is drawn over it. Where the surface cannot be copied from,
//! the same frame input is rendered into an offscreen target of the surface's size and format
//! instead; the window with its UI has no such fallback.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, Result};

use super::surface::SurfaceState;
use super::ViewerScript;
use crate::frame::{FrameInput, Renderer};
use crate::gpu::target::{read_texture_rgba, OffscreenTarget};
use crate::gpu::GpuContext;

/// The screenshots asked for and not yet taken.
pub(crate) struct Screenshots {
    /// F12: the scene of the next frame.
    requested: Option<PathBuf>,
    /// The script's scene of its last frame.
    last_scene: Option<PathBuf>,
    /// The script's window of its last frame.
    last_window: Option<PathBuf>,
}

impl Screenshots {
    pub fn new(script: &ViewerScript) -> Self {
        Self { requested: None, last_scene: script.screenshot.clone(), last_window: script.window_screenshot.clone() }
    }

    /// F12: the next frame's scene, named by the time, in the working directory.
    pub fn request(&mut self) {
        let seconds = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        self.requested = Some(PathBuf::from(format!("multidraw-screenshot-{seconds}.png")));
    }

    /// Where to save this frame's scene, if anywhere; `last` is the script's last frame.
    pub fn scene_path(&mut self, last: bool) -> Option<PathBuf> {
        let requested = self.requested.take();
        if last {
            self.last_scene.clone().or(requested)
        } else {
            requested
        }
    }

    /// Where to save this frame's whole window, if anywhere.
    pub fn window_path(&self, last: bool) -> Option<&Path> {
        self.last_window.as_deref().filter(|_| last)
    }
}

/// Saves the scene as drawn into `texture` (the surface's, before the UI).
pub(crate) fn save_scene(
    gpu: &GpuContext,
    renderer: &mut Renderer,
    surface: &SurfaceState,
    texture: &wgpu::Texture,
    input: &FrameInput,
    path: &Path,
) -> Result<()> {
    let [width, height] = surface.size();
    let image = if surface.copy_src {
        read_texture_rgba(&gpu.device, &gpu.queue, texture, width, height)
    } else {
        let offscreen = OffscreenTarget::with_format(&gpu.device, width, height, surface.format());
        renderer.render(gpu, &offscreen.frame_target(), input);
        offscreen.read_rgba(&gpu.device, &gpu.queue)
    };
    crate::output::write_png(path, &image)?;
    let source = if surface.copy_src { "copied from the window surface" } else { "rendered offscreen" };
    println!("saved screenshot {} ({source})", path.display());
    Ok(())
}

/// Saves the whole window (scene + UI) as drawn into `texture`.
pub(crate) fn save_window(
    gpu: &GpuContext,
    surface: &SurfaceState,
    texture: &wgpu::Texture,
    path: &Path,
) -> Result<()> {
    if !surface.copy_src {
        return Err(anyhow!("this window surface cannot be copied from, so --window-screenshot is unavailable"));
    }
    let [width, height] = surface.size();
    let image = read_texture_rgba(&gpu.device, &gpu.queue, texture, width, height);
    crate::output::write_png(path, &image)?;
    println!("saved window screenshot {}", path.display());
    Ok(())
}
