use std::path::{Path, PathBuf};

use super::*;

/// A fresh empty directory for one test, removed at the end.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("multidraw-output-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create a scratch directory");
        Self(dir)
    }

    /// The names in the directory, sorted.
    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.0)
            .expect("list the scratch directory")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn message(error: OutputError) -> String {
    crate::text::error_chain(&error)
}

#[test]
fn writes_the_whole_file_and_nothing_else() {
    let dir = Scratch::new("whole");
    let path = dir.0.join("report.json");
    write(&path, Format::Any, b"{\"a\": 1}").expect("write");
    assert_eq!(std::fs::read(&path).unwrap(), b"{\"a\": 1}");
    write(&path, Format::Any, b"[]").expect("replace");
    assert_eq!(std::fs::read(&path).unwrap(), b"[]");
    assert_eq!(dir.names(), ["report.json"], "no temporary file may stay");
}

#[test]
fn a_failure_midway_leaves_the_old_file_and_no_temporary() {
    let dir = Scratch::new("midway");
    let path = dir.0.join("frame.png");
    let error = write_with(&path, Format::Png, |w| {
        w.write_all(&[0u8; 100_000])?;
        Err(std::io::Error::other("the encoder gave up"))
    })
    .expect_err("the body failed");
    assert_eq!(message(error), format!("cannot write {}: the encoder gave up", path.display()));
    assert!(dir.names().is_empty(), "nothing may be left: {:?}", dir.names());

    std::fs::write(&path, b"old").unwrap();
    write_with(&path, Format::Png, |w| {
        w.write_all(b"new, half")?;
        Err(std::io::Error::other("no"))
    })
    .expect_err("the body failed");
    assert_eq!(std::fs::read(&path).unwrap(), b"old", "the old file stays whole");
    assert_eq!(dir.names(), ["frame.png"]);
}

#[test]
fn a_panic_midway_leaves_no_temporary() {
    let dir = Scratch::new("panic");
    let path = dir.0.join("x.json");
    let result = std::panic::catch_unwind(|| {
        let _ = write_with(&path, Format::Any, |w| {
            w.write_all(b"part")?;
            panic!("the writer panicked");
        });
    });
    assert!(result.is_err());
    assert!(dir.names().is_empty(), "{:?}", dir.names());
}

#[test]
fn checks_refuse_before_any_work() {
    let dir = Scratch::new("checks");
    let jpg = dir.0.join("x.jpg");
    let error = message(check(&jpg, Format::Png).expect_err("jpg"));
    assert!(error.contains("PNG only") && error.contains("x.jpg"), "{error}");
    assert!(check(&dir.0.join("x.PNG"), Format::Png).is_ok());
    assert!(check(&dir.0.join("x"), Format::Png).is_err(), "no extension is no PNG");
    assert!(check(&dir.0.join("x.jpg"), Format::Any).is_ok(), "JSON and captures take any name");

    let error = message(check(&dir.0, Format::Png).expect_err("a directory"));
    assert!(error.contains("is a directory"), "{error}");
    let error = message(check(&dir.0.join("new/"), Format::Any).expect_err("a trailing slash"));
    assert!(error.contains("is a directory"), "{error}");
    let error = message(check(&dir.0.join("missing/x.png"), Format::Png).expect_err("missing directory"));
    assert!(error.contains("missing") && error.contains("does not exist"), "{error}");
    std::fs::write(dir.0.join("file"), b"").unwrap();
    let error = message(check(&dir.0.join("file/x.png"), Format::Png).expect_err("a file as directory"));
    assert!(error.contains("is not a directory"), "{error}");
    assert!(check(Path::new(""), Format::Any).is_err());

    // Refusals write nothing, and the probe of a good path leaves nothing.
    assert!(write(&jpg, Format::Png, b"x").is_err());
    assert!(check(&dir.0.join("ok.png"), Format::Png).is_ok());
    assert_eq!(dir.names(), ["file"]);
}

#[cfg(unix)]
#[test]
fn devices_are_written_in_place() {
    write(Path::new("/dev/null"), Format::Png, b"anything").expect("/dev/null takes anything, any name");
    if std::fs::OpenOptions::new().write(true).open("/dev/full").is_ok() {
        let error = message(write(Path::new("/dev/full"), Format::Png, &[0u8; 70_000]).expect_err("full"));
        assert!(error.to_lowercase().contains("no space left on device"), "{error}");
        assert!(error.starts_with("cannot write /dev/full"), "{error}");
    }
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_is_followed_not_replaced() {
    let dir = Scratch::new("link");
    std::fs::create_dir(dir.0.join("real")).unwrap();
    std::fs::write(dir.0.join("real/target.json"), b"old").unwrap();
    std::os::unix::fs::symlink("real/target.json", dir.0.join("link.json")).unwrap();
    write(&dir.0.join("link.json"), Format::Any, b"new").expect("write through the link");
    assert!(std::fs::symlink_metadata(dir.0.join("link.json")).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read(dir.0.join("real/target.json")).unwrap(), b"new");
    assert_eq!(dir.names(), ["link.json", "real"]);
}

#[test]
fn png_images_round_trip() {
    let dir = Scratch::new("png");
    let path = dir.0.join("gray.png");
    let image = image::GrayImage::from_fn(7, 5, |x, y| image::Luma([(x * 30 + y) as u8]));
    write_png(&path, &image).expect("write the PNG");
    let read = image::open(&path).expect("read it back").into_luma8();
    assert_eq!(read, image);
}
