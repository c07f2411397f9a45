//! `multidraw puffin-summary`: where the time goes in a `.puffin` capture, by mode and object
//! count, as text or JSON.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use multidraw::profiling::summary;

#[derive(Args)]
pub struct PuffinSummaryArgs {
    /// The capture (from `bench --puffin` or `view --puffin`).
    file: PathBuf,
    /// Scope rows to print per group.
    #[arg(long, default_value_t = 40)]
    rows: usize,
    /// Print JSON instead of tables: `[{mode, objects, frames, cpu_frame: {median_ms, p95_ms},
    /// gpu_frame, scopes: [{path, count, median_ms, total_ms}]}]` (every scope row).
    #[arg(long)]
    json: bool,
}

pub fn run(args: &PuffinSummaryArgs) -> Result<()> {
    // Read first, so that a bad file prints its error and no table header.
    let groups = summary::summarize(&args.file)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&groups)?);
    } else {
        print!("{}", summary::table(&groups, args.rows));
    }
    Ok(())
}
