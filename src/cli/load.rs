//! `--allow-dir`, `--max-memory` and `--max-triangles`: what a scene may read and what it
//! may cost, the same flags on every command that loads a scene (`render`, `bench`, `view`,
//! `soak`, `pipelines`, `check`), all of which load through `super::load_scene`.

use std::path::PathBuf;

use clap::Args;

use multidraw::scene::budget::{Budget, Needs};
use multidraw::scene::file::LoadOptions;
use multidraw::{ContextOptions, GpuContext};

#[derive(Args, Clone, Debug, Default)]
pub struct LoadArgs {
    /// Let the scene's glTF files, buffers and images come from DIR too (repeatable); by
    /// default a scene reads only files under its own directory, symlinks resolved.
    #[arg(long = "allow-dir", value_name = "DIR")]
    pub allow_dirs: Vec<PathBuf>,
    /// Host memory a scene may need, checked before it is built: bytes, or a number with a
    /// unit (500MB, 4GB, 2GiB) [default: half of physical memory].
    #[arg(long, value_name = "BYTES", value_parser = parse_bytes)]
    pub max_memory: Option<u64>,
    /// Triangles the scene's distinct meshes may have over all their levels of detail,
    /// checked before they are built: this bounds how long a load takes (see
    /// docs/BENCHMARKS.md, "Build time per triangle") [default: 32000000].
    #[arg(long, value_name = "N")]
    pub max_triangles: Option<u64>,
}

impl LoadArgs {
    /// The load options with the adapter's limits, when a device (or its adapter) is known.
    pub fn options(&self, limits: Option<&wgpu::Limits>) -> LoadOptions {
        let mut budget = Budget::host_default();
        if let Some(bytes) = self.max_memory {
            budget = budget.with_host_bytes(bytes, "--max-memory");
        }
        if let Some(triangles) = self.max_triangles {
            budget = budget.with_triangles(triangles, "--max-triangles");
        }
        if let Some(limits) = limits {
            budget = budget.with_device(multidraw::gpu_scene::device_budget(limits));
        }
        LoadOptions { allow_dirs: self.allow_dirs.clone(), budget }
    }
}

impl LoadArgs {
    /// Checks a count of the default scene against the budget without generating it (the
    /// benchmark's sweep generates each count itself).
    pub fn check_default_objects(&self, objects: u32, limits: &wgpu::Limits) -> anyhow::Result<()> {
        let budget = self.options(Some(limits)).budget;
        let needs = Needs { objects: objects as u64, ..Needs::default() };
        budget
            .check(&needs, &|_| format!("--objects asks for {objects}"))
            .map_err(|detail| anyhow::anyhow!("the default scene with --objects {objects}: {detail}"))
    }
}

/// The limits of the adapter a headless context would open, without opening a device: for
/// commands that check a scene before they have a device (`view`, `pipelines`, `check`).
/// `None` where no adapter is found (the command's own device request then says why).
pub fn adapter_limits(options: &ContextOptions) -> Option<wgpu::Limits> {
    let instance = GpuContext::create_instance(options);
    let adapter = pollster::block_on(wgpu::util::initialize_adapter_from_env_or_default(&instance, None)).ok()?;
    Some(adapter.limits())
}

/// `1073741824`, `1_000_000`, `500MB`, `4GB`, `1.5GB`, `2GiB`, `512MiB`, `64k`: decimal units
/// (kB, MB, GB, TB; K, M, G, T alone too) are powers of 1000, binary ones (KiB…TiB) of 1024.
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let bad = || format!("invalid size \"{text}\": expected bytes or a number with a unit, e.g. 500MB, 4GB, 2GiB");
    let cleaned = text.trim().replace('_', "");
    let split = cleaned.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(cleaned.len());
    let (number, unit) = cleaned.split_at(split);
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" => 1_000,
        "m" | "mb" => 1_000_000,
        "g" | "gb" => 1_000_000_000,
        "t" | "tb" => 1_000_000_000_000,
        "kib" => 1 << 10,
        "mib" => 1 << 20,
        "gib" => 1 << 30,
        "tib" => 1 << 40,
        _ => return Err(bad()),
    };
    // A whole number is taken exactly (u64::MAX included: no limit worth the name).
    if let Ok(whole) = number.parse::<u128>() {
        let bytes = whole.saturating_mul(u128::from(scale));
        return match u64::try_from(bytes) {
            Ok(0) => Err(bad()),
            Ok(bytes) => Ok(bytes),
            Err(_) => Err(format!("invalid size \"{text}\": more than 2^64 bytes")),
        };
    }
    let value: f64 = number.parse().map_err(|_| bad())?;
    let bytes = value * scale as f64;
    if !(bytes.is_finite() && bytes >= 1.0 && bytes < u64::MAX as f64) {
        return Err(bad());
    }
    Ok(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::parse_bytes;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_bytes("1073741824"), Ok(1 << 30));
        assert_eq!(parse_bytes("1_000"), Ok(1000));
        assert_eq!(parse_bytes("500MB"), Ok(500_000_000));
        assert_eq!(parse_bytes("1.5GB"), Ok(1_500_000_000));
        assert_eq!(parse_bytes("2GiB"), Ok(2 << 30));
        assert_eq!(parse_bytes("64k"), Ok(64_000));
        assert_eq!(parse_bytes("18446744073709551615"), Ok(u64::MAX));
        assert!(parse_bytes("18446744073709551616").unwrap_err().contains("more than 2^64"));
        assert!(parse_bytes("20000000000TB").unwrap_err().contains("more than 2^64"));
        for bad in ["", "GB", "-1GB", "1XB", "0", "1e400", "nan"] {
            assert!(parse_bytes(bad).is_err(), "{bad}");
        }
    }
}
