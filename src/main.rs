//! The `multidraw` binary: parses the command line (subcommands in `cli`, one module each) and
//! turns an error into a message and exit code 1.

use std::process::ExitCode;

mod cli;

fn main() -> ExitCode {
    match cli::run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(1)
        }
    }
}
