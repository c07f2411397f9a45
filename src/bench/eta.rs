//! How long the rest of a bench run takes, from what its rows have cost so far.

use std::time::Instant;

/// The time left of the measured frames. The row running now goes on at the rate its frames
/// after the first have run (its first, a warm-up frame after the row's set-up, may run slower
/// than the rest), and until there are some, at its estimate, as the rows to come do; the rows
/// to come cost their set-up estimate scaled by how the rows of their own
/// scene (their object count) compared with theirs so far: one timed frame is a rough
/// estimate, and it errs differently at different sizes (a small scene's frames run faster
/// than its set-up frame, a large one's slower), so one scene's error says little of
/// another's. A scene none of whose rows has run yet keeps its estimate.
pub(super) struct Eta {
    started: Instant,
    /// One frame of each row, timed in set-up, in seconds, in the order the rows run.
    pub(super) frame_estimates: Vec<f64>,
    /// The scene (the count's index) of each row.
    scenes: Vec<usize>,
    frames_per_row: u32,
    /// Per scene, seconds its finished rows took and what their estimates said.
    finished: Vec<(f64, f64)>,
    /// The row whose first frame ended, and when (seconds into the row).
    first_frame: Option<(usize, f64)>,
}

impl Eta {
    pub(super) fn new(frame_estimates: Vec<f64>, scenes: Vec<usize>, frames_per_row: u32) -> Self {
        assert_eq!(frame_estimates.len(), scenes.len(), "one scene per row");
        let finished = vec![(0.0, 0.0); scenes.iter().max().map_or(0, |&s| s + 1)];
        Self { started: Instant::now(), frame_estimates, scenes, frames_per_row, finished, first_frame: None }
    }

    /// Row `row`'s first frame ended `seconds` into the row.
    pub(super) fn first_frame_done(&mut self, row: usize, seconds: f64) {
        self.first_frame = Some((row, seconds));
    }

    /// Seconds left with `frames_done` frames of row `row` done in `row_seconds`.
    pub(super) fn left(&self, row: usize, frames_done: u32, row_seconds: f64) -> f64 {
        let Some(&estimate) = self.frame_estimates.get(row) else { return 0.0 };
        // The row's frames so far that tell its pace, and their seconds: those after its first
        // where the first was reported, else all of them.
        let (paced, paced_seconds) = match self.first_frame {
            Some((first_row, first)) if first_row == row && frames_done >= 1 => (frames_done - 1, row_seconds - first),
            _ => (frames_done, row_seconds),
        };
        // How much slower than estimated a scene's frames ran so far (1 before any has), the
        // row now included: it weighs as much as it has cost.
        let correction = |scene: usize| {
            let (mut seconds, mut estimated) = self.finished[scene];
            if scene == self.scenes[row] {
                seconds += paced_seconds;
                estimated += estimate * paced as f64;
            }
            if estimated > 0.0 {
                seconds / estimated
            } else {
                1.0
            }
        };
        let rate = if paced > 0 { paced_seconds / paced as f64 } else { estimate * correction(self.scenes[row]) };
        let later: f64 =
            (row + 1..self.frame_estimates.len()).map(|r| self.frame_estimates[r] * correction(self.scenes[r])).sum();
        (self.frames_per_row.saturating_sub(frames_done)) as f64 * rate + later * self.frames_per_row as f64
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
        let scene = &mut self.finished[self.scenes[row]];
        scene.0 += seconds;
        scene.1 += self.frame_estimates[row] * self.frames_per_row as f64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_to_come_are_scaled_by_how_the_finished_ones_ran() {
        // Two rows of one scene, 4 frames each, estimated at 1 s and 2 s a frame.
        let mut eta = Eta::new(vec![1.0, 2.0], vec![0, 0], 4);
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

    #[test]
    fn a_rows_pace_leaves_its_first_frame_out() {
        // A row of 5 frames whose first took 3 s and the next two 1 s each.
        let mut eta = Eta::new(vec![1.0], vec![0], 5);
        eta.first_frame_done(0, 3.0);
        assert_eq!(eta.left(0, 1, 3.0), 4.0 * 1.0, "the first frame alone: the estimate");
        assert_eq!(eta.left(0, 3, 5.0), 2.0 * 1.0, "then the frames after it");
    }

    #[test]
    fn another_scenes_rows_keep_their_estimate() {
        // A small scene's row ran 4× faster than its set-up frame said; the large scene's
        // rows, none run yet, keep their own estimates.
        let mut eta = Eta::new(vec![1.0, 1.0, 3.0, 3.0], vec![0, 0, 1, 1], 2);
        eta.finished(0, 0.5);
        assert_eq!(eta.left(1, 0, 0.0), 2.0 * 0.25 + (3.0 + 3.0) * 2.0);
        eta.finished(1, 0.5);
        // Half the large scene's first row at twice its estimate: the second row of the same
        // scene is taken to run twice as slow.
        assert_eq!(eta.left(2, 1, 6.0), 6.0 + 3.0 * 2.0 * 2.0);
    }
}
