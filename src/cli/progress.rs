//! Progress of a long run on stderr: a bar on a terminal; in a log (stderr not a terminal) a
//! few plain lines instead, the start, each quarter and the end, since a bar redrawn with `\r`
//! makes a whole log one line.
//!
//! A line left open on stderr (`loading scene X… ` waiting for its result, a bar being drawn)
//! is recorded, so that an error printed meanwhile first ends it ([`end_open_line`]) instead
//! of being glued to its end.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

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

/// Frames done of a run of known length.
pub struct FrameProgress {
    /// What runs ("bench", "soak"), the prefix of the plain lines.
    what: &'static str,
    started: Instant,
    display: Display,
}

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

impl FrameProgress {
    pub fn new(what: &'static str) -> Self {
        Self { what, started: Instant::now(), display: Display::NotStarted }
    }

    /// `done` of `total` frames; `label` says what is being rendered now (may be empty).
    /// Reaching `total` finishes the display; later updates are ignored.
    pub fn update(&mut self, done: u64, total: u64, label: &str) {
        if let Display::NotStarted = self.display {
            self.display = if std::io::stderr().is_terminal() {
                let style = ProgressStyle::with_template("[{bar:30}] {pos}/{len} frames  {msg}")
                    .expect("the template is valid")
                    .progress_chars("## ");
                // indicatif leaves the cursor on the bar's line while it is drawn.
                LINE_OPEN.store(true, Ordering::Relaxed);
                Display::Bar(ProgressBar::new(total).with_style(style))
            } else {
                eprintln!("{}: {total} frames", self.what);
                Display::Lines { quarters: 0 }
            };
        }
        match &mut self.display {
            Display::Bar(bar) => {
                bar.set_length(total);
                bar.set_position(done);
                if bar.message() != label {
                    bar.set_message(label.to_string());
                }
            }
            Display::Lines { quarters } => {
                let reached = (done * 4 / total.max(1)).min(3);
                if reached > *quarters {
                    *quarters = reached;
                    let now = if label.is_empty() { String::new() } else { format!(", now {label}") };
                    eprintln!("{}: {done}/{total} frames ({}%){now}", self.what, reached * 25);
                }
            }
            Display::NotStarted | Display::Finished => return,
        }
        if done >= total {
            self.finish(total);
        }
    }

    fn finish(&mut self, total: u64) {
        let seconds = self.started.elapsed().as_secs_f64();
        match std::mem::replace(&mut self.display, Display::Finished) {
            Display::Bar(bar) => {
                bar.finish_with_message(format!("done in {seconds:.1} s"));
                // A finished bar is padded to the terminal's width, so what follows wraps to
                // the next line by itself.
                LINE_OPEN.store(false, Ordering::Relaxed);
            }
            Display::Lines { .. } => eprintln!("{}: {total} frames done in {seconds:.1} s", self.what),
            Display::NotStarted | Display::Finished => {}
        }
    }
}

impl Drop for FrameProgress {
    /// A run that stops early (an error) leaves its bar where it got to; the line stays open
    /// for [`end_open_line`] to end before the error is printed.
    fn drop(&mut self) {
        if let Display::Bar(bar) = &self.display {
            bar.abandon();
        }
    }
}
