//! `puffin-summary` over crafted captures (issue 27, class 5): a valid capture of nested
//! scopes, mutated byte by byte (flips, extreme length fields, cuts, repeats), each summarized
//! in-process under a watchdog. No case may panic, hang (10 s), or take the process past 1 GiB;
//! each either summarizes or fails with a message that names the file. `make test` runs 3,000
//! cases; `MULTIDRAW_PUFFIN_FUZZ_CASES=100000 cargo test --release --test puffin_fuzz` the long
//! run.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

/// A capture of four frames, each with scopes three deep.
fn base_capture(dir: &Path) -> Vec<u8> {
    let capture = multidraw::profiling::Capture::start(16);
    for frame in 0..4 {
        puffin::GlobalProfiler::lock().new_frame();
        puffin::profile_scope!("frame", format!("frame {frame}"));
        for pass in ["cull", "main", "pyramid"] {
            puffin::profile_scope!("pass", pass);
            puffin::profile_scope!("inner");
            std::hint::black_box(frame);
        }
    }
    let path = dir.join("base.puffin");
    capture.save(&path).expect("save the base capture");
    std::fs::read(&path).expect("read it back")
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn mutate(base: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut bytes = base.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(bytes.len());
        match rng.below(5) {
            0 => bytes[at] ^= 1 << rng.below(8),
            1 => {
                let value: u32 = [0, 1, 0x7fff_ffff, 0xffff_ffff, 1 << 20][rng.below(5)];
                for (k, b) in value.to_le_bytes().iter().enumerate() {
                    if let Some(slot) = bytes.get_mut(at + k) {
                        *slot = *b;
                    }
                }
            }
            2 => bytes.truncate(at.max(4)),
            3 => {
                let len = rng.below(64).min(bytes.len() - at);
                let piece = bytes[at..at + len].to_vec();
                bytes.splice(at..at, piece);
            }
            _ => bytes[at] = rng.next() as u8,
        }
    }
    bytes
}

fn peak_rss_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kib = status.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| l.split_whitespace().nth(1));
    kib.and_then(|k| k.parse::<u64>().ok()).unwrap_or(0) * 1024
}

#[test]
fn crafted_captures_never_panic_hang_or_explode() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("puffin-fuzz");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let base = base_capture(&dir);
    let groups = multidraw::profiling::summary::summarize(&dir.join("base.puffin")).expect("the base capture reads");
    assert!(groups.iter().any(|g| g.scopes.len() >= 3), "the base capture has nested scopes: {groups:?}");
    let cases: usize = std::env::var("MULTIDRAW_PUFFIN_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(3_000);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut read, mut refused) = (0usize, 0usize);
    for case in 0..cases {
        let bytes = mutate(&base, &mut rng);
        let path = dir.join("case.puffin");
        std::fs::write(&path, &bytes).unwrap();
        let (send, receive) = mpsc::channel();
        let worker_path = path.clone();
        std::thread::spawn(move || {
            let result = std::panic::catch_unwind(|| multidraw::profiling::summary::summarize(&worker_path));
            let _ = send.send(result.map(|r| r.map(|_| ()).map_err(|e| format!("{e:#}"))));
        });
        match receive.recv_timeout(Duration::from_secs(10)) {
            Err(_) => {
                std::fs::write(dir.join(format!("hang-{case}.puffin")), &bytes).unwrap();
                panic!("case {case} hung (kept as hang-{case}.puffin)");
            }
            Ok(Err(_)) => {
                std::fs::write(dir.join(format!("panic-{case}.puffin")), &bytes).unwrap();
                panic!("case {case} panicked (kept as panic-{case}.puffin)");
            }
            Ok(Ok(Ok(()))) => read += 1,
            Ok(Ok(Err(message))) => {
                assert!(message.contains("case.puffin"), "case {case}: the message names the file: {message}");
                refused += 1;
            }
        }
    }
    let peak = peak_rss_bytes();
    eprintln!("puffin fuzz: {cases} cases, {read} summarized, {refused} refused, peak RSS {peak} bytes");
    assert!(peak < 1 << 30, "peak resident memory {peak} bytes");
}
