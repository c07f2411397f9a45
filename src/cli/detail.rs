//! `--lod`, `--lod-error`, `--min-pixels`, `--occlusion`, `--soft-raster`,
//! `--shadow-occlusion` and `--deferred`: how much each
//! frame draws, and how, the same flags on `render`, `bench`, `view` and `soak`.

use clap::{Args, ValueEnum};

use multidraw::tunables::{DEFAULT_LOD_ERROR_PX, DEFAULT_MIN_PIXELS};
use multidraw::Detail;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Switch {
    On,
    Off,
}

/// A switch the renderer may also decide frame by frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AutoSwitch {
    /// Used where it pays, judged from recent frames' counters and times (docs/ARCHITECTURE.md
    /// § "The adaptive frame").
    Auto,
    On,
    Off,
}

#[derive(Args, Clone, Copy, Debug)]
pub struct DetailArgs {
    /// Level of detail per object, picked on the GPU (and by the same function for cpu mode).
    #[arg(long, value_enum, default_value_t = Switch::On)]
    lod: Switch,
    /// Largest error of a picked level, projected to the screen, in pixels.
    #[arg(long, value_name = "PX", default_value_t = DEFAULT_LOD_ERROR_PX, value_parser = positive_pixels,
          allow_negative_numbers = true)]
    lod_error: f32,
    /// Cull objects whose bounding sphere projects narrower than this many pixels; 0 culls none.
    #[arg(long, value_name = "PX", default_value_t = DEFAULT_MIN_PIXELS, value_parser = pixels,
          allow_negative_numbers = true)]
    min_pixels: f32,
    /// Two-phase occlusion culling against a depth pyramid, in the GPU-culled modes; auto: in
    /// the frames where it pays.
    #[arg(long, value_enum, default_value_t = AutoSwitch::Auto)]
    occlusion: AutoSwitch,
    /// Small objects drawn by the compute rasteriser (GPU modes that cull into batches, on
    /// adapters with 64-bit atomics); off: every object by the hardware; auto: in the frames
    /// where it pays.
    #[arg(long, value_enum, default_value_t = AutoSwitch::Auto)]
    soft_raster: AutoSwitch,
    /// Two-phase occlusion culling of the shadow cascades' casters, each cascade against the
    /// depth pyramid of its own first phase (GPU-culled modes; independent of --occlusion);
    /// auto: in the frames where it pays.
    #[arg(long, value_enum, default_value_t = AutoSwitch::Auto)]
    shadow_occlusion: AutoSwitch,
    /// The opaque surfaces' pixels shaded once each in a compute dispatch after the main pass,
    /// which only names them (adapters with primitive_index); off: every fragment shaded in
    /// the main pass; auto: in the frames where it pays.
    #[arg(long, value_enum, default_value_t = AutoSwitch::Auto)]
    deferred: AutoSwitch,
}

impl DetailArgs {
    pub fn detail(&self) -> Detail {
        Detail {
            lod: self.lod == Switch::On,
            lod_error_px: self.lod_error,
            min_pixels: self.min_pixels,
            occlusion: self.occlusion != AutoSwitch::Off,
            soft: self.soft_raster != AutoSwitch::Off,
            auto_occlusion: self.occlusion == AutoSwitch::Auto,
            auto_soft: self.soft_raster == AutoSwitch::Auto,
            shadow_soft: self.soft_raster != AutoSwitch::Off,
            shadow_occlusion: self.shadow_occlusion != AutoSwitch::Off,
            auto_shadow_occlusion: self.shadow_occlusion == AutoSwitch::Auto,
            deferred: self.deferred != AutoSwitch::Off,
            auto_deferred: self.deferred == AutoSwitch::Auto,
        }
    }
}

/// The number of pixels `text` gives, `None` where it is no number; refused outright only when
/// it is beyond 32-bit floats (the two flags' checks below say what else they want).
fn pixel_number(text: &str) -> Result<Option<f32>, String> {
    let Some(value) = text.trim().parse::<f64>().ok().filter(|v| !v.is_nan()) else { return Ok(None) };
    if value > f64::from(f32::MAX) {
        return Err("beyond 32-bit floats: a frame is at most 16384 pixels wide".into());
    }
    Ok(Some(value as f32))
}

/// A finite, non-negative number of pixels.
fn pixels(text: &str) -> Result<f32, String> {
    match pixel_number(text)? {
        Some(v) if v >= 0.0 => Ok(v),
        _ => Err("expected a number of pixels, 0 or more, e.g. 1 or 0.5".into()),
    }
}

/// A finite, positive number of pixels.
fn positive_pixels(text: &str) -> Result<f32, String> {
    match pixel_number(text)? {
        Some(v) if v > 0.0 => Ok(v),
        _ => Err("expected a positive number of pixels, e.g. 1 or 0.5".into()),
    }
}
