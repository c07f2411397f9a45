//! Helpers of the hostile-input tests: files made at test time (PNG images of any size whose
//! pixels are all zero, written with a hand-made deflate stream so a 16384 × 16384 image is a
//! 1.7 MB file made in milliseconds; glTF models with external buffers and images) and a
//! runner that starts the real binary with a time limit and measures its peak memory.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

// ---------------------------------------------------------------------------------------
// PNG

/// Bits packed least significant first, as deflate writes them.
#[derive(Default)]
struct Bits {
    out: Vec<u8>,
    accumulator: u64,
    count: u32,
}

impl Bits {
    fn put(&mut self, value: u32, count: u32) {
        self.accumulator |= (value as u64) << self.count;
        self.count += count;
        while self.count >= 8 {
            self.out.push(self.accumulator as u8);
            self.accumulator >>= 8;
            self.count -= 8;
        }
    }

    /// A Huffman code, most significant bit first.
    fn put_code(&mut self, code: u32, length: u32) {
        let reversed = code.reverse_bits() >> (32 - length);
        self.put(reversed, length);
    }

    fn finish(mut self) -> Vec<u8> {
        if self.count > 0 {
            self.out.push(self.accumulator as u8);
        }
        self.out
    }
}

/// A zlib stream of `n` zero bytes: one fixed-Huffman block of a literal 0 and then matches
/// of length 258 at distance 1 (13 bits per 258 bytes).
fn zlib_zeros(n: u64) -> Vec<u8> {
    let mut bits = Bits::default();
    bits.put(1, 1); // final block
    bits.put(1, 2); // fixed Huffman codes
    let literal_zero = |bits: &mut Bits| bits.put_code(0x30, 8);
    let mut left = n;
    if left > 0 {
        literal_zero(&mut bits);
        left -= 1;
    }
    while left >= 258 {
        bits.put_code(0xC5, 8); // length symbol 285 = 258
        bits.put_code(0, 5); // distance symbol 0 = 1
        left -= 258;
    }
    for _ in 0..left {
        literal_zero(&mut bits);
    }
    bits.put_code(0, 7); // end of block
    let mut out = vec![0x78, 0x01];
    out.extend(bits.finish());
    // Adler-32 of n zeros: a = 1, b = n mod 65521.
    let adler = ((n % 65521) << 16 | 1) as u32;
    out.extend(adler.to_be_bytes());
    out
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= byte as u32;
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// An 8-bit greyscale PNG of `width` × `height` black pixels.
pub fn black_png(width: u32, height: u32) -> Vec<u8> {
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut chunk = |kind: &[u8], data: &[u8]| {
        png.extend((data.len() as u32).to_be_bytes());
        let mut body = kind.to_vec();
        body.extend_from_slice(data);
        png.extend_from_slice(&body);
        png.extend(crc32(&body).to_be_bytes());
    };
    let mut header = Vec::new();
    header.extend(width.to_be_bytes());
    header.extend(height.to_be_bytes());
    header.extend([8, 0, 0, 0, 0]); // 8 bits, greyscale, deflate, no filter, no interlace
    chunk(b"IHDR", &header);
    // Each row: filter type 0, then `width` zero bytes.
    chunk(b"IDAT", &zlib_zeros(height as u64 * (width as u64 + 1)));
    chunk(b"IEND", &[]);
    png
}

// ---------------------------------------------------------------------------------------
// glTF

/// A buffer of `vertices` positions (a strip of small triangles, non-indexed).
pub fn triangles_buffer(vertices: usize) -> Vec<u8> {
    (0..vertices)
        .flat_map(|i| {
            let (t, corner) = ((i / 3) as f32, i % 3);
            let p = [t * 0.01 + (corner == 1) as u8 as f32, (corner == 2) as u8 as f32, 0.0f32];
            p.into_iter().flat_map(f32::to_le_bytes)
        })
        .collect()
}

/// A glTF document: one mesh of `primitives` primitives that all read the same
/// `vertices`-position accessor of buffer `buffer_uri`, and `materials` materials whose
/// base-colour texture is image 0 at `image_uri`, if any.
pub fn gltf(buffer_uri: &str, vertices: usize, primitives: usize, image_uri: Option<&str>, materials: usize) -> String {
    let primitive = json!({ "attributes": { "POSITION": 0 }, "material": 0 });
    let mut document = json!({
        "asset": { "version": "2.0" },
        "buffers": [ { "uri": buffer_uri, "byteLength": vertices * 12 } ],
        "bufferViews": [ { "buffer": 0, "byteLength": vertices * 12 } ],
        "accessors": [ {
            "bufferView": 0, "componentType": 5126, "count": vertices, "type": "VEC3",
            "min": [0.0, 0.0, 0.0], "max": [vertices as f32 * 0.01 + 1.0, 1.0, 0.0]
        } ],
        "meshes": [ { "name": "strip", "primitives": vec![primitive; primitives] } ],
        "materials": (0..materials.max(1)).map(|i| json!({ "name": format!("m{i}") })).collect::<Vec<_>>(),
    });
    if let Some(uri) = image_uri {
        document["images"] = json!([{ "uri": uri }]);
        document["textures"] = json!([{ "source": 0 }]);
        for material in document["materials"].as_array_mut().unwrap() {
            material["pbrMetallicRoughness"] = json!({ "baseColorTexture": { "index": 0 } });
        }
    }
    serde_json::to_string(&document).unwrap()
}

/// A scene of `meshes` meshes and `materials` materials of one glTF file, and one object.
pub fn gltf_scene(model: &str, meshes: usize, materials: usize) -> String {
    let mut text = String::new();
    for i in 0..meshes {
        text += &format!("[[mesh]]\nname = \"mesh{i}\"\ngltf = \"{model}\"\nmesh = 0\n");
    }
    for i in 0..materials {
        text += &format!("[[material]]\nname = \"material{i}\"\ngltf = \"{model}\"\nmaterial = {i}\n");
    }
    if materials == 0 {
        text += "[[material]]\nname = \"material0\"\n";
    }
    text + "[[objects]]\ntransforms = [{ mesh = \"mesh0\", material = \"material0\", position = [0, 0, 0] }]\n"
}

// ---------------------------------------------------------------------------------------
// Files

/// A fresh directory `group/test` under the target's scratch space (tests run in parallel).
pub fn scratch(group: &str, test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(group).join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `bytes` to `path`, making its directories.
pub fn write(path: &Path, bytes: impl AsRef<[u8]>) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// A glTF model `model.gltf` (12 triangles of [`triangles_buffer`] in `buffer.bin`, read
/// through `buffer_uri`, `materials` materials whose base colour is `image_uri`, if any) in
/// `root/name`, and a scene `scene.toml` using its mesh and materials.
pub fn model_dir(root: &Path, name: &str, buffer_uri: &str, image_uri: Option<&str>, materials: usize) -> PathBuf {
    let dir = root.join(name);
    write(&dir.join("buffer.bin"), triangles_buffer(36));
    write(&dir.join("model.gltf"), gltf(buffer_uri, 36, 1, image_uri, materials));
    write(&dir.join("scene.toml"), gltf_scene("model.gltf", 1, materials));
    dir
}

// ---------------------------------------------------------------------------------------
// Running the binary

/// How a run of the binary went.
pub struct Run {
    /// Exit code; `None` when killed (by the time limit or a signal).
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub seconds: f64,
    /// The largest of VmHWM read from /proc while it ran and `ru_maxrss` from `wait4`.
    pub peak_rss_kib: u64,
    pub timed_out: bool,
}

/// Runs the binary with `args` in `cwd`, without a display, killed after `limit`. Output
/// goes to files (a pipe could fill and block the child).
// The child is reaped by `wait4` (for its rusage), not by `Child::wait`.
#[allow(clippy::zombie_processes)]
pub fn run(args: &[String], cwd: &Path, scratch: &Path, limit: Duration) -> Run {
    let (out_path, err_path) = (scratch.join("run.stdout"), scratch.join("run.stderr"));
    let child = Command::new(env!("CARGO_BIN_EXE_multidraw"))
        .args(args)
        .current_dir(cwd)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .expect("start the multidraw binary");
    let pid = child.id() as libc::pid_t;
    let start = Instant::now();
    let (mut peak, mut timed_out, mut status) = (0u64, false, 0i32);
    // SAFETY: zeroed rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        peak = peak.max(vm_hwm_kib(pid).unwrap_or(0));
        // SAFETY: `pid` is our child, not yet reaped (std's Child is never waited on).
        let reaped = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if reaped == pid {
            break;
        }
        if start.elapsed() > limit && !timed_out {
            timed_out = true;
            // SAFETY: sends SIGKILL to our own, unreaped child.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let seconds = start.elapsed().as_secs_f64();
    peak = peak.max(usage.ru_maxrss as u64);
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    Run {
        code,
        stdout: std::fs::read_to_string(out_path).unwrap_or_default(),
        stderr: std::fs::read_to_string(err_path).unwrap_or_default(),
        seconds,
        peak_rss_kib: peak,
        timed_out,
    }
}

fn vm_hwm_kib(pid: libc::pid_t) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.trim_start_matches("VmHWM:").trim().trim_end_matches("kB").trim().parse().ok()
}
