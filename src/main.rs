//! The `multidraw` binary: parses the command line (subcommands in `cli`, one module each) and
//! turns an error into a message and exit code 1.
//!
//! The message is the error and its causes on one line, each cause once
//! (`multidraw::text::error_chain`), with every control character escaped
//! (`multidraw::text::escape_lines`): the last line of defence for a name from a scene file
//! that a message quoted raw. A progress line still open on stderr is ended first.

use std::process::ExitCode;

mod cli;

fn main() -> ExitCode {
    match cli::run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            cli::progress::end_open_line();
            let message = multidraw::text::error_chain(error.as_ref());
            eprintln!("error: {}", multidraw::text::escape_lines(&message));
            ExitCode::from(1)
        }
    }
}
