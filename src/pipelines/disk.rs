//! The persistent driver cache: `wgpu::PipelineCache` (Vulkan) data loaded from disk at
//! start-up and saved at exit, in the platform cache directory, one file per adapter and
//! driver version. A missing, corrupt or foreign file is ignored with a warning, never a crash.
//!
//! File: `MDPC`, format version (u32 LE), key length (u32 LE), key (UTF-8), data length
//! (u64 LE), FNV-1a 64 of the data (u64 LE), data. The key holds the adapter's
//! `pipeline_cache_key` and driver version, so a driver update starts a fresh file.

use std::path::{Path, PathBuf};

const MAGIC: &[u8; 4] = b"MDPC";
const VERSION: u32 = 1;

/// `$MULTIDRAW_CACHE_DIR`, else the platform cache directory + `multidraw`.
pub fn cache_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("MULTIDRAW_CACHE_DIR") {
        return Some(PathBuf::from(dir));
    }
    let base = if cfg!(target_os = "windows") {
        std::env::var_os("LOCALAPPDATA").map(PathBuf::from)
    } else if cfg!(target_os = "macos") {
        std::env::var_os("HOME").map(|h| PathBuf::from(h).join("Library/Caches"))
    } else {
        std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
    };
    base.map(|b| b.join("multidraw"))
}

/// The cache key of an adapter and driver, or `None` where wgpu has no pipeline cache.
pub fn cache_key(info: &wgpu::AdapterInfo) -> Option<String> {
    let adapter = wgpu::util::pipeline_cache_key(info)?;
    let driver: String = format!("{}_{}", info.driver, info.driver_info)
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '.' { c } else { '_' })
        .collect();
    Some(format!("{adapter}_{driver}"))
}

pub fn cache_file(dir: &Path, key: &str) -> PathBuf {
    dir.join(format!("{key}.bin"))
}

fn fnv1a(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3))
}

/// Reads a cache file. `Ok(None)` when there is none; `Err` (a warning to print) when it is
/// corrupt or belongs to another adapter or driver.
pub fn load(path: &Path, key: &str) -> Result<Option<Vec<u8>>, String> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read pipeline cache {}: {e}", path.display())),
    };
    let corrupt = |why: &str| format!("ignoring pipeline cache {}: {why}", path.display());
    let take = |at: usize, n: usize| bytes.get(at..at + n).ok_or_else(|| corrupt("file is truncated"));
    if take(0, 4)? != MAGIC {
        return Err(corrupt("not a multidraw pipeline cache"));
    }
    let u32_at = |at: usize| take(at, 4).map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")));
    let u64_at = |at: usize| take(at, 8).map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")));
    if u32_at(4)? != VERSION {
        return Err(corrupt("unknown format version"));
    }
    let key_len = u32_at(8)? as usize;
    if take(12, key_len)? != key.as_bytes() {
        return Err(corrupt("written for another adapter or driver"));
    }
    let at = 12 + key_len;
    let data_len = u64_at(at)? as usize;
    let checksum = u64_at(at + 8)?;
    let data = take(at + 16, data_len)?;
    if bytes.len() != at + 16 + data_len {
        return Err(corrupt("trailing bytes"));
    }
    if fnv1a(data) != checksum {
        return Err(corrupt("checksum mismatch"));
    }
    Ok(Some(data.to_vec()))
}

/// Writes a cache file atomically ([`crate::output`]), creating its directory.
pub fn save(path: &Path, key: &str, data: &[u8]) -> Result<(), crate::output::OutputError> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|error| crate::output::OutputError::Io { path: dir.display().to_string(), error })?;
    }
    crate::output::write_with(path, crate::output::Format::Any, |file| {
        file.write_all(MAGIC)?;
        file.write_all(&VERSION.to_le_bytes())?;
        file.write_all(&(key.len() as u32).to_le_bytes())?;
        file.write_all(key.as_bytes())?;
        file.write_all(&(data.len() as u64).to_le_bytes())?;
        file.write_all(&fnv1a(data).to_le_bytes())?;
        file.write_all(data)
    })
}
