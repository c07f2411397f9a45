//! `--shadows on|off` and `--shadow-cascades N`, shared by render, bench, view and soak: the
//! sun's cascaded shadow maps, on by default (every scene has a sun: its file's `[sun]`, or
//! the default one), each cascade culled and drawn as a view of its own.

use clap::{Args, ValueEnum};
use multidraw::tunables::MAX_CASCADES;

/// Whether the sun casts shadows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Switch {
    On,
    Off,
}

#[derive(Args, Clone, Copy, Debug)]
pub struct ShadowArgs {
    /// The sun's shadows (cascaded shadow maps, culled on the GPU per cascade).
    #[arg(long, value_enum, value_name = "ON|OFF", default_value = "on")]
    pub shadows: Switch,
    /// Shadow cascades splitting the camera's depth range (1 to 4).
    #[arg(long, value_name = "N", default_value_t = MAX_CASCADES as u32, value_parser = cascade_count)]
    pub shadow_cascades: u32,
}

impl ShadowArgs {
    /// Cascades per view, 0 with shadows off (`multidraw::FrameInput::shadows`).
    pub fn cascades(&self) -> u32 {
        match self.shadows {
            Switch::On => self.shadow_cascades,
            Switch::Off => 0,
        }
    }
}

fn cascade_count(text: &str) -> Result<u32, String> {
    let count: u32 = text.parse().map_err(|_| format!("\"{text}\" is not a whole number of cascades"))?;
    if !(1..=MAX_CASCADES as u32).contains(&count) {
        return Err(format!("{count} cascades: a view has 1 to {MAX_CASCADES} (--shadows off turns them off)"));
    }
    Ok(count)
}
