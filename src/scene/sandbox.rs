//! The one way a scene reads files: the scene file, its glTF files and their external buffers
//! and images all come through [`Sandbox::read`].
//!
//! Scene files and models are documents people download, so a path written in one is
//! untrusted. Before a byte is read, the path is
//! 1. made canonical (`std::fs::canonicalize`: absolute, every symlink resolved), and refused
//!    unless it lies under one of the sandbox's roots (the scene file's directory, and any
//!    directory the user allowed with `--allow-dir`), so no link can lead to `/etc` or `/dev`;
//! 2. checked by its metadata, without opening it: only a regular file is read (a FIFO would
//!    block the open forever, `/dev/zero` never ends, a directory is not a file), and only up
//!    to [`MAX_INPUT_FILE_BYTES`];
//! 3. opened non-blocking, checked again on the open handle (the file may have been replaced
//!    between the two looks), and read through a reader that stops at the size limit;
//! 4. counted against a total for the whole load (a model may name one big file from a
//!    thousand buffers), which the caller sets to the memory budget.
//!
//! Lexical checks (`..` counting) are not enough and are not used: `a/../../x` is wrong only
//! where `a` is not a link, and a scene reached through `../scenes/x.toml` is not escaping.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::text;
use crate::tunables::MAX_INPUT_FILE_BYTES;

/// Why a file was not read. Each message names the file as it was written (`what` says which
/// kind of reference it is) and the reason, once.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// The path, made canonical (symlinks resolved), lies under none of the sandbox's roots.
    #[error("{what} \"{path}\" resolves to {resolved}, outside {roots}; a scene may read only files under its own directory (or a directory given with --allow-dir)")]
    Escapes {
        /// What kind of reference it is (`scene file`, `glTF file`, `buffer 0`).
        what: String,
        /// The path as written.
        path: String,
        /// Where it leads.
        resolved: String,
        /// The directories it may read, for the message.
        roots: String,
    },
    /// The path is a directory, a FIFO, a device or anything else but a regular file.
    #[error("{what} \"{path}\" is {kind}, not a regular file")]
    NotRegular {
        /// What kind of reference it is.
        what: String,
        /// The path as written.
        path: String,
        /// What it is instead (`a directory`…).
        kind: &'static str,
    },
    /// The file is larger than one input file may be.
    #[error("{what} \"{path}\" is {} bytes, over the limit of {} bytes for one input file", text::count(*.bytes), text::count(*.limit))]
    TooLarge {
        /// What kind of reference it is.
        what: String,
        /// The path as written.
        path: String,
        /// Its size in bytes.
        bytes: u64,
        /// The most one file may have, in bytes.
        limit: u64,
    },
    /// The operating system refused or failed the read (a missing file among others).
    #[error("cannot read {what} \"{path}\"")]
    Io {
        /// What kind of reference it is.
        what: String,
        /// The path as written.
        path: String,
        /// The error reading it.
        #[source]
        source: std::io::Error,
    },
    /// Reading the file would take the bytes read for this load past its memory budget.
    #[error("{what} \"{path}\" would bring the memory this scene's files take once read to {} bytes, over the budget of {} bytes", text::count(*.total), text::count(*.limit))]
    TooMuchRead {
        /// What kind of reference it is.
        what: String,
        /// The path as written.
        path: String,
        /// Bytes read for the load with this file, as counted against the budget.
        total: u64,
        /// The budget, in bytes.
        limit: u64,
    },
    /// A directory given to read from (the scene's own, or one of
    /// `LoadOptions::allow_dirs`) is not a readable directory.
    #[error("--allow-dir \"{path}\" is not a directory that can be read")]
    BadRoot {
        /// The directory as given.
        path: String,
        /// Why it cannot be used.
        #[source]
        source: std::io::Error,
    },
}

/// The directories a scene may read from, canonical.
#[derive(Clone, Debug)]
pub struct Sandbox {
    roots: Vec<PathBuf>,
    max_file_bytes: u64,
    /// Bytes read so far by this sandbox and its clones, and the most they may read.
    read: Arc<AtomicU64>,
    max_total_bytes: u64,
}

impl Sandbox {
    /// A sandbox rooted at `dir` (the scene file's directory) and the `allowed` directories.
    pub fn new(dir: &Path, allowed: &[PathBuf]) -> Result<Self, SandboxError> {
        let mut roots = Vec::with_capacity(1 + allowed.len());
        let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
        for root in std::iter::once(dir).chain(allowed.iter().map(PathBuf::as_path)) {
            let canonical = std::fs::canonicalize(root)
                .and_then(|path| {
                    if path.is_dir() {
                        Ok(path)
                    } else {
                        Err(std::io::Error::new(std::io::ErrorKind::NotADirectory, "not a directory"))
                    }
                })
                .map_err(|source| SandboxError::BadRoot { path: root.display().to_string(), source })?;
            roots.push(canonical);
        }
        Ok(Self { roots, max_file_bytes: MAX_INPUT_FILE_BYTES, read: Arc::default(), max_total_bytes: u64::MAX })
    }

    /// The same roots with a memory budget: no file over it (nor over
    /// [`MAX_INPUT_FILE_BYTES`]), and no more than it read in all.
    pub fn with_budget(mut self, bytes: u64) -> Self {
        self.max_file_bytes = bytes.min(MAX_INPUT_FILE_BYTES);
        self.max_total_bytes = bytes;
        self
    }

    /// The sandbox's first root: the scene file's directory, canonical.
    pub fn scene_dir(&self) -> &Path {
        &self.roots[0]
    }

    /// The canonical path of `path` if it is a regular file under a root, of at most the size
    /// limit. `what` names the reference in messages ("buffer 0", "glTF file").
    pub fn check(&self, path: &Path, what: &str) -> Result<(PathBuf, u64), SandboxError> {
        let shown = || path.display().to_string();
        let io = |source| SandboxError::Io { what: what.to_string(), path: shown(), source };
        let canonical = match std::fs::canonicalize(path) {
            Ok(canonical) => canonical,
            // A missing file outside the roots is refused as outside, not as missing: a scene
            // may not probe which files exist elsewhere.
            Err(error) => match self.existing_ancestor_outside(path) {
                Some(resolved) => {
                    return Err(SandboxError::Escapes {
                        what: what.to_string(),
                        path: shown(),
                        resolved: resolved.display().to_string(),
                        roots: self.describe_roots(),
                    })
                }
                None => return Err(io(error)),
            },
        };
        if !self.roots.iter().any(|root| canonical.starts_with(root)) {
            return Err(SandboxError::Escapes {
                what: what.to_string(),
                path: shown(),
                resolved: canonical.display().to_string(),
                roots: self.describe_roots(),
            });
        }
        // `metadata` stats the file without opening it: a FIFO is refused here, not waited on.
        let metadata = std::fs::metadata(&canonical).map_err(io)?;
        self.check_metadata(&metadata, path, what)?;
        Ok((canonical, metadata.len()))
    }

    /// Reads a file after [`Sandbox::check`]; returns its canonical path and bytes.
    pub fn read(&self, path: &Path, what: &str) -> Result<(PathBuf, Vec<u8>), SandboxError> {
        self.read_costing(path, what, 1)
    }

    /// [`Sandbox::read`] of a file that costs `per_byte` bytes of memory per byte once read
    /// (a glTF file's JSON, parsed), counted so against the load's total.
    pub fn read_costing(&self, path: &Path, what: &str, per_byte: u64) -> Result<(PathBuf, Vec<u8>), SandboxError> {
        let (canonical, length) = self.check(path, what)?;
        let cost = length.saturating_mul(per_byte);
        let before = self.read.fetch_add(cost, Ordering::Relaxed);
        if before.saturating_add(cost) > self.max_total_bytes {
            // A refused read costs nothing.
            self.read.fetch_sub(cost, Ordering::Relaxed);
            return Err(SandboxError::TooMuchRead {
                what: what.to_string(),
                path: path.display().to_string(),
                total: before.saturating_add(cost),
                limit: self.max_total_bytes,
            });
        }
        let io = |source| SandboxError::Io { what: what.to_string(), path: path.display().to_string(), source };
        let file = open_nonblocking(&canonical).map_err(io)?;
        // Checked again on the open file: it may have been swapped since the first look.
        let metadata = file.metadata().map_err(io)?;
        self.check_metadata(&metadata, path, what)?;
        let mut bytes = Vec::with_capacity(metadata.len() as usize);
        // One byte past the limit tells a file that grew while being read.
        file.take(self.max_file_bytes + 1).read_to_end(&mut bytes).map_err(io)?;
        if bytes.len() as u64 > self.max_file_bytes {
            return Err(SandboxError::TooLarge {
                what: what.to_string(),
                path: path.display().to_string(),
                bytes: bytes.len() as u64,
                limit: self.max_file_bytes,
            });
        }
        Ok((canonical, bytes))
    }

    /// The canonical form of the nearest existing ancestor of `path`, if it lies outside
    /// every root.
    /// Returns the ancestor with the rest of `path` after it.
    fn existing_ancestor_outside(&self, path: &Path) -> Option<PathBuf> {
        let (ancestor, canonical) = path.ancestors().skip(1).find_map(|ancestor| {
            let existing = if ancestor.as_os_str().is_empty() { Path::new(".") } else { ancestor };
            std::fs::canonicalize(existing).ok().map(|canonical| (ancestor, canonical))
        })?;
        let outside = !self.roots.iter().any(|root| canonical.starts_with(root));
        outside.then(|| canonical.join(path.strip_prefix(ancestor).unwrap_or(path)))
    }

    fn check_metadata(&self, metadata: &std::fs::Metadata, path: &Path, what: &str) -> Result<(), SandboxError> {
        let shown = || path.display().to_string();
        if !metadata.is_file() {
            return Err(SandboxError::NotRegular { what: what.to_string(), path: shown(), kind: kind_of(metadata) });
        }
        if metadata.len() > self.max_file_bytes {
            return Err(SandboxError::TooLarge {
                what: what.to_string(),
                path: shown(),
                bytes: metadata.len(),
                limit: self.max_file_bytes,
            });
        }
        Ok(())
    }

    fn describe_roots(&self) -> String {
        let quoted: Vec<String> = self.roots.iter().map(|r| format!("\"{}\"", r.display())).collect();
        match quoted.as_slice() {
            [one] => format!("the scene's directory {one}"),
            [first, rest @ ..] => format!("the scene's directory {first} and {}", rest.join(", ")),
            [] => "every allowed directory".into(),
        }
    }
}

/// Opens for reading without blocking on a FIFO or a device that waits for a writer.
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// What a file that is not a regular file is, for a message.
fn kind_of(metadata: &std::fs::Metadata) -> &'static str {
    if metadata.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = metadata.file_type();
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("multidraw-sandbox-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("scene")).unwrap();
        dir
    }

    #[test]
    fn reads_inside_and_refuses_links_out() {
        let dir = scratch("links");
        std::fs::write(dir.join("scene/a.bin"), b"abc").unwrap();
        std::fs::write(dir.join("outside.bin"), b"secret").unwrap();
        std::os::unix::fs::symlink(dir.join("outside.bin"), dir.join("scene/link.bin")).unwrap();
        std::os::unix::fs::symlink("/dev", dir.join("scene/dev")).unwrap();
        let sandbox = Sandbox::new(&dir.join("scene"), &[]).unwrap();
        assert_eq!(sandbox.read(&dir.join("scene/a.bin"), "buffer").unwrap().1, b"abc");
        let error = sandbox.read(&dir.join("scene/link.bin"), "buffer").unwrap_err();
        assert!(matches!(error, SandboxError::Escapes { .. }), "{error}");
        let error = sandbox.read(&dir.join("scene/dev/zero"), "buffer").unwrap_err();
        assert!(matches!(error, SandboxError::Escapes { .. }), "{error}");
        // Allowed explicitly, the link's target reads.
        let allowed = Sandbox::new(&dir.join("scene"), std::slice::from_ref(&dir)).unwrap();
        assert_eq!(allowed.read(&dir.join("scene/link.bin"), "buffer").unwrap().1, b"secret");
        // A path that climbs out and back in is inside.
        let back_in = dir.join("scene/../scene/a.bin");
        assert_eq!(sandbox.read(&back_in, "buffer").unwrap().1, b"abc");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn refuses_what_is_not_a_regular_file_or_too_big() {
        let dir = scratch("kinds");
        let sandbox = Sandbox::new(&dir, &[]).unwrap();
        let error = sandbox.read(&dir.join("scene"), "glTF file").unwrap_err();
        assert!(error.to_string().contains("is a directory"), "{error}");
        std::fs::write(dir.join("big.bin"), vec![0u8; 100]).unwrap();
        let error = sandbox.clone().with_budget(99).read(&dir.join("big.bin"), "buffer").unwrap_err();
        assert!(matches!(error, SandboxError::TooLarge { bytes: 100, limit: 99, .. }), "{error}");
        // A total over several reads, shared by clones.
        std::fs::write(dir.join("small.bin"), vec![0u8; 60]).unwrap();
        let budget = sandbox.clone().with_budget(100);
        budget.read(&dir.join("small.bin"), "buffer 0").unwrap();
        let error = budget.clone().read(&dir.join("small.bin"), "buffer 1").unwrap_err();
        assert!(matches!(error, SandboxError::TooMuchRead { total: 120, limit: 100, .. }), "{error}");
        let devices = Sandbox::new(Path::new("/dev"), &[]).unwrap();
        let error = devices.read(Path::new("/dev/zero"), "scene file").unwrap_err();
        assert!(error.to_string().contains("a character device"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
