//! Progress of a long run on stderr: a bar on a terminal; in a log (stderr not a terminal) a
//! few plain lines instead, the start, each quarter and the end, since a bar redrawn with `\r`
//! makes a whole log one line. Both say how long the rest should take.
//!
//! The share shown is a share of the time, not of the frames: the bench says how long it has
//! left from what each row's frames cost (`multidraw::bench`'s `Eta`), a soak's frames all
//! cost the same. Time counts from the first update: set-up before it is not work.
//!
//! A line left open on stderr (`loading scene X… ` waiting for its result, a bar being drawn)
//! is recorded, so that an error printed meanwhile first ends it ([`end_open_line`]) instead
//! of being glued to its end.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// Whether stderr's last line is unfinished.
static LINE_OPEN: AtomicBool = AtomicBool::new(false);

/// Prints `text` on stderr and leaves the line open for its result ([`finish_line`]).
pub fn start_line(text: std::fmt::Arguments<'_>) {
    eprint!("{text}");
    let _ = std::io::stderr().flush();
    LINE_OPEN.store(true, Ordering::Relaxed);
}

/// Ends the line [`start_line`] opened with `text`.
pub fn finish_line(text: std::fmt::Arguments<'_>) {
    eprintln!("{text}");
    LINE_OPEN.store(false, Ordering::Relaxed);
}

/// Ends an unfinished stderr line, if there is one, so that what follows starts a line.
pub fn end_open_line() {
    if LINE_OPEN.swap(false, Ordering::Relaxed) {
        eprintln!();
    }
}

/// "about 4 min", "about 35 s", "about 1 h 5 min": a duration as a person plans with it.
pub fn about(duration: Duration) -> String {
    let seconds = duration.as_secs_f64();
    if seconds < 90.0 {
        format!("about {:.0} s", seconds.max(1.0))
    } else if seconds < 5400.0 {
        format!("about {:.0} min", seconds / 60.0)
    } else {
        format!("about {} h {} min", (seconds / 3600.0) as u64, ((seconds % 3600.0) / 60.0).round() as u64)
    }
}

/// The share of a run's work done, and the time left.
pub struct WorkProgress {
    /// What runs ("bench", "soak"), the prefix of the plain lines.
    what: &'static str,
    /// When the first update came: the work's start.
    started: Option<Instant>,
    display: Display,
}

/// Bar positions per run: a bar of shares, not of frames.
const BAR_STEPS: u64 = 1000;

enum Display {
    /// Nothing shown yet: the first update knows the total.
    NotStarted,
    Bar(ProgressBar),
    /// Plain lines; how many quarters have been reported.
    Lines {
        quarters: u64,
    },
    Finished,
}

impl WorkProgress {
    pub fn new(what: &'static str) -> Self {
        Self { what, started: None, display: Display::NotStarted }
    }

    /// A line of its own (a set-up step, an estimate), above the bar where one is drawn.
    pub fn note(&mut self, text: &str) {
        match &self.display {
            Display::Bar(bar) => bar.println(format!("{}: {text}", self.what)),
            _ => {
                end_open_line();
                eprintln!("{}: {text}", self.what);
            }
        }
    }

    /// `done` of `total` units of work of equal cost (a soak's frames); `label` says what runs
    /// now (may be empty). The time left is the time so far scaled by the work left over the
    /// work done. Reaching `total` finishes the display; later updates are ignored.
    pub fn update(&mut self, done: f64, total: f64, label: &str) {
        let elapsed = self.started.get_or_insert_with(Instant::now).elapsed().as_secs_f64();
        let share = if total > 0.0 { (done / total).clamp(0.0, 1.0) } else { 1.0 };
        let left = (done > 0.0).then(|| Duration::from_secs_f64(elapsed * (total - done).max(0.0) / done));
        self.show(share, left, label);
    }

    /// `share` of the work's time has passed and `left` is to go (unknown: `None`).
    pub fn show(&mut self, share: f64, left: Option<Duration>, label: &str) {
        let started = *self.started.get_or_insert_with(Instant::now);
        let share = share.clamp(0.0, 1.0);
        if let Display::NotStarted = self.display {
            self.display = if std::io::stderr().is_terminal() {
                let style = ProgressStyle::with_template("[{bar:30}] {percent:>3}%  {msg}")
                    .expect("the template is valid")
                    .progress_chars("## ");
                // indicatif leaves the cursor on the bar's line while it is drawn.
                LINE_OPEN.store(true, Ordering::Relaxed);
                Display::Bar(ProgressBar::new(BAR_STEPS).with_style(style))
            } else {
                Display::Lines { quarters: 0 }
            };
        }
        let left = left.map_or(String::new(), |d| format!("{} left", about(d)));
        match &mut self.display {
            Display::Bar(bar) => {
                bar.set_position((share * BAR_STEPS as f64) as u64);
                let message = [left.as_str(), label].iter().filter(|s| !s.is_empty()).copied().collect::<Vec<_>>();
                bar.set_message(message.join(", "));
            }
            Display::Lines { quarters } => {
                let reached = ((share * 4.0) as u64).min(3);
                if reached > *quarters {
                    *quarters = reached;
                    let now = if label.is_empty() { String::new() } else { format!(", now {label}") };
                    eprintln!(
                        "{}: {:.0}% of the work done in {:.1} s, {left}{now}",
                        self.what,
                        share * 100.0,
                        started.elapsed().as_secs_f64()
                    );
                }
            }
            Display::NotStarted | Display::Finished => return,
        }
        if share >= 1.0 {
            self.finish();
        }
    }

    fn finish(&mut self) {
        let seconds = self.started.map_or(0.0, |s| s.elapsed().as_secs_f64());
        match std::mem::replace(&mut self.display, Display::Finished) {
            Display::Bar(bar) => {
                bar.finish_with_message(format!("done in {seconds:.1} s"));
                // A finished bar is padded to the terminal's width, so what follows wraps to
                // the next line by itself.
                LINE_OPEN.store(false, Ordering::Relaxed);
            }
            Display::Lines { .. } => eprintln!("{}: done in {seconds:.1} s", self.what),
            Display::NotStarted | Display::Finished => {}
        }
    }
}

impl multidraw::bench::BenchProgress for WorkProgress {
    fn step(&mut self, what: &str) {
        self.note(what);
    }

    fn estimate(&mut self, seconds: f64, frames: u64) {
        self.note(&format!(
            "{frames} frames to render, {} on this adapter (from one frame of each row)",
            about(Duration::from_secs_f64(seconds))
        ));
    }

    fn work(&mut self, share: f64, seconds_left: f64, label: &str) {
        self.show(share, Some(Duration::from_secs_f64(seconds_left.max(0.0))), label);
    }
}

impl Drop for WorkProgress {
    /// A run that stops early (an error) leaves its bar where it got to; the line stays open
    /// for [`end_open_line`] to end before the error is printed.
    fn drop(&mut self) {
        if let Display::Bar(bar) = &self.display {
            bar.abandon();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_plans() {
        assert_eq!(about(Duration::from_secs(35)), "about 35 s");
        assert_eq!(about(Duration::from_millis(200)), "about 1 s");
        assert_eq!(about(Duration::from_secs(250)), "about 4 min");
        assert_eq!(about(Duration::from_secs(3900)), "about 65 min");
        assert_eq!(about(Duration::from_secs(9000)), "about 2 h 30 min");
    }
}
