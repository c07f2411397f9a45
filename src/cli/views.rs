//! `--views N` and `--view-turn DEG`, shared by render, bench and view: the frame split into N
//! views side by side, view k seeing from the scene's camera turned by k × DEG about the
//! vertical axis, each culled and drawn on its own (`multidraw::View::side_by_side`).

use clap::Args;
use multidraw::tunables::MAX_VIEWS;
use multidraw::{FrameInput, View};

#[derive(Args, Clone, Copy, Debug)]
pub struct ViewsArgs {
    /// Views side by side in the frame, each culled and drawn on its own (1 to 8).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = view_count)]
    pub views: u32,
    /// Degrees each further view is turned about the vertical axis from the one before.
    #[arg(long, value_name = "DEG", default_value_t = 90.0, allow_negative_numbers = true, value_parser = finite_degrees)]
    pub view_turn: f32,
}

impl ViewsArgs {
    /// The frame's views on a `width` × `height` target (one: `input`'s view of all of it).
    pub fn views(&self, input: &FrameInput, width: u32, height: u32) -> Vec<View> {
        View::side_by_side(input, self.views, self.view_turn, width, height)
    }

    /// Refuses more views than pixel columns before any work.
    pub fn check(&self, width: u32) -> anyhow::Result<()> {
        if self.views > width {
            anyhow::bail!("--views {}: the frame is only {width} pixels wide", self.views);
        }
        Ok(())
    }
}

fn view_count(text: &str) -> Result<u32, String> {
    let count: u32 = text.parse().map_err(|_| format!("\"{text}\" is not a whole number of views"))?;
    if !(1..=MAX_VIEWS as u32).contains(&count) {
        return Err(format!("{count} views: a frame renders 1 to {MAX_VIEWS}"));
    }
    Ok(count)
}

fn finite_degrees(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(degrees) if degrees.is_finite() => Ok(degrees),
        _ => Err(format!("\"{text}\" is not a finite number of degrees")),
    }
}
