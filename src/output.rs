//! Every file the program writes (rendered and pyramid PNGs, bench JSON, charts and puffin
//! captures, soak and pipelines JSON, viewer screenshots, the driver cache) goes through here.
//!
//! [`check`] looks at a path before the long work that produces its contents, so a typo costs
//! a second, not a render: the directory must exist and be a directory, the target must not be
//! one, and an image must be named `.png`, the only format the writers here encode (a `.jpg`
//! name is refused, never silently written as PNG or left empty). It also creates and removes
//! a probe file, which finds a read-only directory or file system before the work.
//!
//! [`write_with`] writes to a temporary file in the target's directory, syncs it to disk and
//! renames it over the target: a reader sees the old file or the whole new one, never a part,
//! and a failure at any step (a full disk, an encoder error, a panic) removes the temporary
//! file and leaves the target as it was. A rename cannot replace what is not a regular file, so
//! an existing device or FIFO (`/dev/null`, `/dev/full`, a pipe) is written in place, where a
//! partial write leaves no file behind. A symbolic link is followed, so the file it names is
//! replaced, not the link. Only a process killed outright can leave a temporary file, named
//! `.NAME.tmp-PID-N` beside the target.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// What a file holds, as far as the checks care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// An image the `image` crate encodes as PNG: the name must end in `.png`.
    Png,
    /// Anything else (JSON, a puffin capture, the driver cache): any name.
    Any,
}

#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("{path} is a directory; name a file to write")]
    IsDirectory { path: String },
    #[error("cannot write {path}: the directory {directory} does not exist")]
    NoDirectory { path: String, directory: String },
    #[error("cannot write {path}: {directory} is not a directory")]
    NotADirectory { path: String, directory: String },
    #[error("cannot write {path}: images are written as PNG only; name the file .png")]
    NotPng { path: String },
    /// The file system refused (no space, no permission, read-only, …). The message says why,
    /// so the `io::Error` is not also a `source()`: printed as a chain, it would be said twice.
    #[error("cannot write {path}: {error}")]
    Io { path: String, error: std::io::Error },
}

fn shown(path: &Path) -> String {
    path.display().to_string()
}

/// Where `path` leads: the path a chain of symbolic links ends at (the link's own path when it
/// loops or is too deep, so the rename then fails or replaces the link, as `mv` would).
fn resolve_links(path: &Path) -> PathBuf {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => match std::fs::read_link(&current) {
                Ok(target) => {
                    current = current.parent().unwrap_or(Path::new("")).join(target);
                }
                Err(_) => return current,
            },
            _ => return current,
        }
    }
    path.to_path_buf()
}

/// How a checked path will be written.
enum Plan {
    /// Through a temporary file in `directory`, renamed over `target`.
    Replace { target: PathBuf, directory: PathBuf, file_name: String },
    /// In place: `target` exists and is a device or FIFO.
    InPlace { target: PathBuf },
}

fn plan(path: &Path, format: Format) -> Result<Plan, OutputError> {
    let io = |error| OutputError::Io { path: shown(path), error };
    let target = resolve_links(path);
    match std::fs::metadata(&target) {
        Ok(meta) if meta.is_dir() => return Err(OutputError::IsDirectory { path: shown(path) }),
        Ok(meta) if !meta.is_file() => return Ok(Plan::InPlace { target }),
        Ok(_) => {}
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
        // A path component that is a file ("x.png/out.png") reads as NotADirectory below.
        Err(error) if error.kind() == std::io::ErrorKind::NotADirectory => {}
        Err(error) => return Err(io(error)),
    }
    // "", "/", "..", "dir/..", "new/": a directory's name, not a file's.
    let file_name = match target.file_name() {
        Some(name) if !shown(path).ends_with(std::path::MAIN_SEPARATOR) => name.to_string_lossy().into_owned(),
        _ => return Err(OutputError::IsDirectory { path: shown(path) }),
    };
    if format == Format::Png && !target.extension().is_some_and(|e| e.eq_ignore_ascii_case("png")) {
        return Err(OutputError::NotPng { path: shown(path) });
    }
    let directory = match target.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    match std::fs::metadata(&directory) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => return Err(OutputError::NotADirectory { path: shown(path), directory: shown(&directory) }),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Err(OutputError::NoDirectory { path: shown(path), directory: shown(&directory) })
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotADirectory => {
            return Err(OutputError::NotADirectory { path: shown(path), directory: shown(&directory) })
        }
        Err(error) => return Err(io(error)),
    }
    Ok(Plan::Replace { target, directory, file_name })
}

/// A temporary file beside the target, removed when dropped unless renamed into place.
struct Temporary {
    path: PathBuf,
    file: File,
    renamed: bool,
}

impl Temporary {
    fn create(directory: &Path, file_name: &str) -> std::io::Result<Self> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        loop {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let path = directory.join(format!(".{file_name}.tmp-{}-{n}", std::process::id()));
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(file) => return Ok(Self { path, file, renamed: false }),
                // Left by a killed process that had this process id: take the next number.
                Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(error) => return Err(error),
            }
        }
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if !self.renamed {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Whether `a` and `b` name one file (the same path once symbolic links and the directory are
/// resolved, whether or not the file exists yet): two outputs of one command, or an output and
/// an input, that would overwrite each other.
pub fn same_file(a: &Path, b: &Path) -> bool {
    let absolute = |path: &Path| {
        let path = resolve_links(path);
        let directory = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let directory = std::fs::canonicalize(directory).unwrap_or_else(|_| directory.to_path_buf());
        path.file_name().map(|name| directory.join(name))
    };
    match (absolute(a), absolute(b)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// Checks, before the work, that `path` can be written as `format` (see the module docs).
pub fn check(path: &Path, format: Format) -> Result<(), OutputError> {
    if let Plan::Replace { directory, file_name, .. } = plan(path, format)? {
        Temporary::create(&directory, &file_name).map_err(|error| OutputError::Io { path: shown(path), error })?;
    }
    Ok(())
}

/// Writes `path` atomically with what `body` writes (see the module docs). `body` gets a
/// buffered writer; its error, or any later one, leaves no partial file.
pub fn write_with(
    path: &Path,
    format: Format,
    body: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), OutputError> {
    let io = |error| OutputError::Io { path: shown(path), error };
    match plan(path, format)? {
        Plan::InPlace { target } => {
            let file = OpenOptions::new().write(true).open(&target).map_err(io)?;
            let mut writer = BufWriter::new(file);
            body(&mut writer).and_then(|()| writer.flush()).map_err(io)
        }
        Plan::Replace { target, directory, file_name } => {
            let mut temporary = Temporary::create(&directory, &file_name).map_err(io)?;
            {
                let mut writer = BufWriter::new(&temporary.file);
                body(&mut writer).and_then(|()| writer.flush()).map_err(io)?;
            }
            temporary.file.sync_all().map_err(io)?;
            // Replacing a file keeps its permissions, as writing into it would.
            if let Ok(meta) = std::fs::metadata(&target) {
                temporary.file.set_permissions(meta.permissions()).map_err(io)?;
            }
            std::fs::rename(&temporary.path, &target).map_err(io)?;
            temporary.renamed = true;
            // The rename itself reaches the disk with the directory; where a directory cannot
            // be synced, the file is still whole, only perhaps not yet durable.
            if let Ok(directory) = File::open(&directory) {
                let _ = directory.sync_all();
            }
            Ok(())
        }
    }
}

/// Writes `bytes` to `path` atomically.
pub fn write(path: &Path, format: Format, bytes: &[u8]) -> Result<(), OutputError> {
    write_with(path, format, |writer| writer.write_all(bytes))
}

/// Encodes `image` as PNG into `path`, atomically; the name must end in `.png`.
pub fn write_png<P>(path: &Path, image: &image::ImageBuffer<P, Vec<u8>>) -> Result<(), OutputError>
where
    P: image::PixelWithColorType<Subpixel = u8>,
{
    write_with(path, Format::Png, |writer| {
        image.write_with_encoder(image::codecs::png::PngEncoder::new(writer)).map_err(|error| match error {
            image::ImageError::IoError(error) => error,
            other => std::io::Error::other(other),
        })
    })
}

#[cfg(test)]
mod tests;
