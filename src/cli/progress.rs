//! Progress of a long run on stderr: a bar on a terminal; in a log (stderr not a terminal) a
//! few plain lines instead, the start, each quarter and the end, since a bar redrawn with `\r`
//! makes a whole log one line.

use std::io::IsTerminal;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};

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
            Display::Bar(bar) => bar.finish_with_message(format!("done in {seconds:.1} s")),
            Display::Lines { .. } => eprintln!("{}: {total} frames done in {seconds:.1} s", self.what),
            Display::NotStarted | Display::Finished => {}
        }
    }
}
