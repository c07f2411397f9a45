//! How long the rest of a bench run takes, from what its rows have cost so far.

use std::time::Instant;

/// The time left of the measured frames. The row running now goes on at the rate it has run
/// so far; the rows to come cost their set-up estimate scaled by how the finished rows
/// compared with theirs (one timed frame is a rough estimate, and a machine's load changes).
pub(super) struct Eta {
    started: Instant,
    /// One frame of each row, timed in set-up, in seconds, in the order the rows run.
    pub(super) frame_estimates: Vec<f64>,
    frames_per_row: u32,
    /// Seconds the finished rows took, and what their estimates said.
    finished_seconds: f64,
    finished_estimate: f64,
}

impl Eta {
    pub(super) fn new(frame_estimates: Vec<f64>, frames_per_row: u32) -> Self {
        Self { started: Instant::now(), frame_estimates, frames_per_row, finished_seconds: 0.0, finished_estimate: 0.0 }
    }

    /// Seconds left with `frames_done` frames of row `row` done in `row_seconds`.
    pub(super) fn left(&self, row: usize, frames_done: u32, row_seconds: f64) -> f64 {
        let Some(&estimate) = self.frame_estimates.get(row) else { return 0.0 };
        // How much slower than estimated the frames so far ran (1 before any has), the row
        // now included: it weighs as much as it has cost.
        let estimated = self.finished_estimate + estimate * frames_done as f64;
        let correction = if estimated > 0.0 { (self.finished_seconds + row_seconds) / estimated } else { 1.0 };
        let rate = if frames_done > 0 { row_seconds / frames_done as f64 } else { estimate * correction };
        let later: f64 = self.frame_estimates[row + 1..].iter().sum();
        (self.frames_per_row.saturating_sub(frames_done)) as f64 * rate
            + later * self.frames_per_row as f64 * correction
    }

    /// The share of the time passed, with `left` seconds to go.
    pub(super) fn share(&self, left: f64) -> f64 {
        let elapsed = self.started.elapsed().as_secs_f64();
        if elapsed + left > 0.0 {
            elapsed / (elapsed + left)
        } else {
            1.0
        }
    }

    /// Row `row` took `seconds`.
    pub(super) fn finished(&mut self, row: usize, seconds: f64) {
        self.finished_seconds += seconds;
        self.finished_estimate += self.frame_estimates[row] * self.frames_per_row as f64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_to_come_are_scaled_by_how_the_finished_ones_ran() {
        // Two rows of 4 frames, estimated at 1 s and 2 s a frame.
        let mut eta = Eta::new(vec![1.0, 2.0], 4);
        assert_eq!(eta.left(0, 0, 0.0), 4.0 + 8.0, "before any frame: the estimates");
        // Two frames of the first row in 4 s: it goes on at 2 s a frame, and the second row
        // is taken to run twice as slow as estimated too.
        assert_eq!(eta.left(0, 2, 4.0), 2.0 * 2.0 + 8.0 * 2.0);
        eta.finished(0, 8.0);
        assert_eq!(eta.left(1, 0, 0.0), 16.0);
        // The second row's own frames take over once it has run some.
        assert_eq!(eta.left(1, 2, 3.0), 2.0 * 1.5);
        assert_eq!(eta.left(2, 0, 0.0), 0.0, "no row left");
    }
}
