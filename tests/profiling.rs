//! puffin profiles that tell the truth, read back with puffin's own reader:
//!
//! * `bench --puffin`: every measured frame of every mode is one puffin frame, and each GPU
//!   pass on the "GPU queue" lane lies between that frame's `submit` start and its
//!   `wait for gpu` end (the GPU cannot run work before it is submitted, and the wait returns
//!   only after it is done), so its placement comes from the calibrated clock, not a guess.
//! * `view --frames N --puffin` under Xvfb: passes read back frames late lie between their own
//!   frame's submit and the `collect readbacks` that delivered them, and no puffin frame is
//!   longer than its `frame` scope.
//! * The same placement with readbacks made late on purpose (lavapipe presents synchronously,
//!   so the viewer's readbacks arrive in their own frame there), driven through the library.
//! * `bench --puffin-http`: a client receives frames while the benchmark runs; and a server
//!   whose viewer stopped reading still stops (the program exits).
//!
//! All of them run `multidraw` on the real adapter: without one it fails, and so do they.

mod common;

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// One scope as read back.
#[derive(Clone, Debug)]
struct Scope {
    thread: String,
    name: String,
    depth: usize,
    start: i64,
    end: i64,
    data: String,
}

/// One puffin frame: its range and every scope, depth first.
struct Frame {
    range: (i64, i64),
    scopes: Vec<Scope>,
}

impl Frame {
    fn named<'a>(&'a self, thread: &'a str, name: &'a str) -> impl Iterator<Item = &'a Scope> + 'a {
        self.scopes.iter().filter(move |s| s.thread == thread && s.name == name)
    }

    fn one(&self, thread: &str, name: &str) -> &Scope {
        let found: Vec<&Scope> = self.scopes.iter().filter(|s| s.thread == thread && s.name == name).collect();
        assert_eq!(found.len(), 1, "one {thread} / {name} scope per frame: {found:?}");
        found[0]
    }

    fn gpu(&self) -> impl Iterator<Item = &Scope> {
        self.scopes.iter().filter(|s| s.thread == "GPU queue")
    }
}

fn read_capture(path: &Path) -> Vec<Frame> {
    let file = std::fs::File::open(path).expect("capture written");
    let view = puffin::FrameView::read(&mut std::io::BufReader::new(file)).expect("puffin reads its capture");
    let names = view.scope_collection();
    view.all_uniq()
        .map(|frame| {
            let unpacked = frame.unpacked().expect("frame unpacks");
            let mut scopes = Vec::new();
            for (thread, stream) in &unpacked.thread_streams {
                let mut stack = vec![(0, puffin::Reader::from_start(&stream.stream))];
                while let Some((depth, mut reader)) = stack.pop() {
                    for scope in reader.by_ref() {
                        let scope = scope.expect("valid stream");
                        scopes.push(Scope {
                            thread: thread.name.clone(),
                            name: names.fetch_by_id(&scope.id).map_or("?".into(), |d| d.name().to_string()),
                            depth,
                            start: scope.record.start_ns,
                            end: scope.record.stop_ns(),
                            data: scope.record.data.to_string(),
                        });
                        if scope.child_begin_position < scope.child_end_position {
                            let children = puffin::Reader::with_offset(&stream.stream, scope.child_begin_position)
                                .expect("valid child offset");
                            stack.push((depth + 1, children));
                        }
                    }
                }
            }
            Frame { range: frame.range_ns(), scopes }
        })
        .collect()
}

/// The frame number of a scope's data ("frame 12 · gpu · 1000 objects").
fn frame_number(data: &str) -> u64 {
    data.strip_prefix("frame ")
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("scope data {data:?} names no frame"))
}

/// Mode and object count of a scope's data.
fn mode_and_objects(data: &str) -> (String, String) {
    let parts: Vec<&str> = data.split(" · ").collect();
    assert_eq!(parts.len(), 3, "frame tag {data:?}");
    (parts[1].to_string(), parts[2].to_string())
}

const MS: i64 = 1_000_000;
/// A GPU pass may appear to start this much before its submit (half the calibration's
/// uncertainty is far below it on lavapipe).
const START_SLACK: i64 = MS / 20;
/// ... and end this much after the wait (or readback) that saw it finished.
const END_SLACK: i64 = MS / 2;

fn tempdir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("profiling-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(command: &mut Command) -> String {
    let output = command.output().expect("run multidraw");
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(output.status.success(), "multidraw failed:\n{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    stdout
}

#[test]
fn bench_capture_places_gpu_passes_inside_their_frame() {
    let capture = tempdir("bench").join("bench.puffin");
    let (frames, warmup) = (5, 2);
    run(Command::new(env!("CARGO_BIN_EXE_multidraw")).args([
        "bench",
        "--objects",
        "300,3000",
        "--modes",
        "gpu,cpu,bundle",
        "--frames",
        &frames.to_string(),
        "--warmup",
        &warmup.to_string(),
        "--size",
        "96x64",
        "--puffin",
        capture.to_str().unwrap(),
    ]));
    let captured = read_capture(&capture);
    let mut per_group = std::collections::BTreeMap::<(String, String), usize>::new();
    for (index, frame) in captured.iter().enumerate() {
        let scope = frame.one("main", "frame");
        assert_eq!(scope.depth, 0, "the frame scope is outermost");
        *per_group.entry(mode_and_objects(&scope.data)).or_default() += 1;
        let submit = frame.one("main", "submit");
        let wait = frame.one("main", "wait for gpu");
        assert_eq!(submit.data, scope.data, "submit carries its frame's tag");
        let gpu: Vec<&Scope> = frame.gpu().collect();
        assert!(!gpu.is_empty(), "frame {index} ({}) has its passes on the GPU queue lane: {gpu:?}", scope.data);
        for pass in gpu {
            assert_eq!(pass.data, scope.data, "a pass carries the tag of the frame that submitted it");
            assert!(
                pass.start >= submit.start - START_SLACK,
                "{}: GPU {} starts {:.3} ms before the frame's submit",
                scope.data,
                pass.name,
                (submit.start - pass.start) as f64 / 1e6
            );
            assert!(
                pass.end <= wait.end + END_SLACK,
                "{}: GPU {} ends {:.3} ms after the frame's wait for the GPU",
                scope.data,
                pass.name,
                (pass.end - wait.end) as f64 / 1e6
            );
            assert!(pass.end >= pass.start);
        }
        // Named as the passes are named everywhere else: the fullest view's schedule and its
        // cascades'.
        let names = fullest_view_pass_names();
        for pass in frame.gpu() {
            assert!(names.contains(&pass.name.as_str()), "unexpected GPU scope {:?}", pass.name);
        }
    }
    // Warm-up and set-up are left out: exactly the measured frames, each mode at each count.
    assert_eq!(per_group.len(), 6, "3 modes × 2 counts: {per_group:?}");
    assert!(per_group.values().all(|&n| n == frames), "{frames} measured frames per row: {per_group:?}");
}

struct Xvfb {
    child: Child,
    display: String,
}

impl Xvfb {
    fn start() -> Self {
        let number = 600 + std::process::id() % 300;
        let display = format!(":{number}");
        let child = Command::new("Xvfb")
            .args([&display, "-screen", "0", "1024x768x24", "-nolisten", "tcp"])
            .spawn()
            .unwrap_or_else(|e| {
                panic!("cannot start Xvfb ({e}); install it with `apt-get install xvfb` or run `make test`")
            });
        let socket = format!("/tmp/.X11-unix/X{number}");
        let start = Instant::now();
        while !Path::new(&socket).exists() && start.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(Path::new(&socket).exists(), "Xvfb did not come up on {display}");
        Self { child, display }
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn viewer_capture_places_late_readbacks_and_keeps_frames_their_own_length() {
    let xvfb = Xvfb::start();
    let capture = tempdir("view").join("view.puffin");
    run(Command::new(env!("CARGO_BIN_EXE_multidraw"))
        .args([
            "view",
            "--objects",
            "2000",
            "--size",
            "256x192",
            "--frames",
            "40",
            "--cycle-modes",
            "--puffin",
            capture.to_str().unwrap(),
        ])
        .env("DISPLAY", &xvfb.display)
        .env_remove("WAYLAND_DISPLAY"));
    let captured = read_capture(&capture);
    // Every frame's submit, by frame number.
    let submits: std::collections::HashMap<u64, &Scope> =
        captured.iter().flat_map(|f| f.named("main", "submit")).map(|s| (frame_number(&s.data), s)).collect();
    let (mut frames, mut passes, mut late) = (0, 0, 0);
    for frame in &captured {
        let Some(scope) = frame.named("main", "frame").next() else {
            // Start-up: its own frame, before the first `frame`, with no GPU passes.
            assert_eq!(frame.gpu().count(), 0, "GPU passes outside a frame");
            continue;
        };
        frames += 1;
        assert_eq!(scope.depth, 0);
        assert!(
            frame.range.1 - frame.range.0 <= scope.end - scope.start + 1_000,
            "puffin frame {} is {:.3} ms, its frame scope {:.3} ms",
            scope.data,
            (frame.range.1 - frame.range.0) as f64 / 1e6,
            (scope.end - scope.start) as f64 / 1e6
        );
        let gpu: Vec<&Scope> = frame.gpu().collect();
        if gpu.is_empty() {
            continue;
        }
        let collect = frame.one("main", "collect readbacks");
        let this_frame = frame.named("main", "submit").next().map(|s| frame_number(&s.data));
        for pass in gpu {
            passes += 1;
            let number = frame_number(&pass.data);
            late += (Some(number) != this_frame) as usize;
            let submit = submits.get(&number).unwrap_or_else(|| panic!("no submit for {}", pass.data));
            assert_eq!(mode_and_objects(&pass.data), mode_and_objects(&submit.data));
            assert!(
                pass.start >= submit.start - START_SLACK,
                "{}: GPU {} starts {:.3} ms before its submit",
                pass.data,
                pass.name,
                (submit.start - pass.start) as f64 / 1e6
            );
            assert!(
                pass.end <= collect.end + END_SLACK,
                "{}: GPU {} ends {:.3} ms after the readback that delivered it",
                pass.data,
                pass.name,
                (pass.end - collect.end) as f64 / 1e6
            );
        }
    }
    assert!(frames >= 39, "one puffin frame per viewer frame ({frames})");
    assert!(passes >= 60, "most frames' passes were read back ({passes})");
    eprintln!("{frames} frames, {passes} GPU scopes, {late} reported in a later frame than their own");
}

#[test]
fn puffin_http_streams_frames_while_bench_runs() {
    // Port 0: the program takes a free port and prints which.
    let mut child = Command::new(env!("CARGO_BIN_EXE_multidraw"))
        .args([
            "bench",
            "--objects",
            "500",
            "--modes",
            "gpu",
            "--frames",
            "300",
            "--warmup",
            "1",
            "--size",
            "64x64",
            "--puffin-http",
            "127.0.0.1:0",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run multidraw");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while !line.contains("serving puffin frames on") {
        line.clear();
        if stdout.read_line(&mut line).unwrap() == 0 {
            let mut stderr = String::new();
            child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
            panic!("bench exited without serving puffin frames ({:?}):\n{stderr}", child.wait());
        }
    }
    let address = line
        .split("serving puffin frames on ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .expect("the address served")
        .to_string();
    let port: u16 = address.rsplit(':').next().and_then(|p| p.parse().ok()).expect("a port in the address");
    assert!(address.starts_with("127.0.0.1:") && port != 0, "the port it got, not 0: {line}");
    let mut stream = std::net::TcpStream::connect(&address).expect("connect to --puffin-http");
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut received = 0;
    while received < 3 {
        // puffin_http: a protocol version (u16, little-endian), then one frame.
        let mut version = [0u8; 2];
        stream.read_exact(&mut version).expect("a frame arrives while the benchmark runs");
        assert_eq!(u16::from_le_bytes(version), 2, "puffin_http protocol version");
        let frame = puffin::FrameData::read_next(&mut stream).expect("a puffin frame").expect("not the end");
        assert!(frame.meta().num_scopes > 0, "the frame has scopes");
        received += 1;
    }
    drop(stream);
    // Drain both pipes so the benchmark never blocks on a full one, then it must succeed.
    let mut stderr_pipe = child.stderr.take().unwrap();
    let drain = std::thread::spawn(move || {
        let mut stderr = String::new();
        stderr_pipe.read_to_string(&mut stderr).unwrap();
        stderr
    });
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    let stderr = drain.join().unwrap();
    assert!(child.wait().unwrap().success(), "bench failed:\n{rest}\n{stderr}");
}

/// A viewer that connects and then reads nothing: once the socket's buffers are full the
/// server's thread for it blocks in a write for good, and puffin_http's own drop joins that
/// thread, so `bench`/`soak --puffin-http` never exited. The server must stop within its
/// shutdown wait anyway. (No adapter needed: the frames are made here.)
#[test]
fn puffin_http_stops_when_a_viewer_stops_reading() {
    let server = multidraw::profiling::serve("127.0.0.1:0").expect("serve on a free port");
    let stalled = std::net::TcpStream::connect(server.address()).expect("connect");
    // Frames of 20,000 scopes (hundreds of kB each): far more than the sockets buffer.
    let start = Instant::now();
    for _ in 0..200 {
        for _ in 0..20_000 {
            puffin::profile_scope!("filler");
        }
        puffin::GlobalProfiler::lock().new_frame();
    }
    assert_eq!(server.num_clients(), 1, "the stalled viewer is connected");
    eprintln!("200 frames sent in {:.2} s", start.elapsed().as_secs_f64());
    let stopping = Instant::now();
    drop(server);
    let took = stopping.elapsed();
    assert!(
        took < multidraw::profiling::PuffinServer::SHUTDOWN + Duration::from_secs(3),
        "the server took {took:?} to stop"
    );
    drop(stalled);
}

/// Frames that are not waited for have their passes read back in the next frame: there they
/// must still lie after their own submit and before the collect that delivered them, carry
/// their own frame's tag, and leave the delivering frame exactly as long as its frame scope.
#[test]
fn late_readbacks_go_to_their_frame_without_stretching_the_current_one() {
    // puffin names a lane after its thread: run as "main", as the viewer does.
    std::thread::Builder::new()
        .name("main".into())
        .spawn(late_readbacks)
        .expect("spawn")
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
}

fn late_readbacks() {
    use multidraw::gpu::target::OffscreenTarget;
    use multidraw::profiling::{Capture, GpuLane, FRAME_SCOPE};
    let ctx = common::context();
    let scene = common::scene(2000, true);
    let mut renderer = common::renderer(&ctx, &scene);
    let target = OffscreenTarget::new(&ctx.device, 160, 90);
    let capture = Capture::start(1000);
    let mut lane = GpuLane::new(&ctx);
    assert!(lane.note().is_none(), "lavapipe has timestamp queries");
    puffin::GlobalProfiler::lock().new_frame();
    for i in 0..8u32 {
        let mode = if i % 4 < 2 { multidraw::DrawMode::Gpu } else { multidraw::DrawMode::Cpu };
        {
            let tag = renderer.next_tag(mode);
            puffin::profile_scope!(FRAME_SCOPE, tag.to_string());
            let frame_start_ns = puffin::now_ns();
            lane.submitted(tag);
            renderer.render(&ctx, &target.frame_target(), &common::input(&scene, mode, i as f32 / 60.0));
            // Even frames neither wait nor collect: their passes arrive in the next frame.
            if i % 2 == 1 {
                {
                    puffin::profile_scope!("wait for gpu");
                    ctx.wait_idle();
                }
                for readback in renderer.collect(&ctx.device) {
                    lane.report(readback.frame, &readback.gpu.expect("timestamps"), frame_start_ns);
                }
            }
        }
        puffin::GlobalProfiler::lock().new_frame();
    }
    let path = tempdir("late").join("late.puffin");
    capture.save(&path).expect("capture saved");
    let captured = read_capture(&path);
    let submits: std::collections::HashMap<u64, Scope> =
        captured.iter().flat_map(|f| f.named("main", "submit")).map(|s| (frame_number(&s.data), s.clone())).collect();
    let mut late = 0;
    let mut spans = std::collections::BTreeMap::<u64, (i64, i64)>::new();
    for frame in captured.iter().filter(|f| f.named("main", "frame").next().is_some()) {
        let scope = frame.one("main", "frame");
        assert!(frame.range.1 - frame.range.0 <= scope.end - scope.start, "{}: stretched", scope.data);
        let own = frame_number(&scope.data);
        for pass in frame.gpu() {
            let number = frame_number(&pass.data);
            late += (number != own) as usize;
            assert!(number == own || number + 1 == own, "{} in {}", pass.data, scope.data);
            let submit = &submits[&number];
            assert_eq!(pass.data, submit.data, "the pass carries its own frame's tag");
            let collect = frame.one("main", "collect readbacks");
            assert!(pass.start >= submit.start - START_SLACK, "{} {} starts before its submit", pass.data, pass.name);
            assert!(pass.end <= collect.end + END_SLACK, "{} {} ends after its readback", pass.data, pass.name);
            let span = spans.entry(number).or_insert((i64::MAX, i64::MIN));
            *span = (span.0.min(pass.start), span.1.max(pass.end));
        }
    }
    assert!(late >= 4, "four frames' passes arrived a frame late ({late} scopes)");
    // The queue runs frames in order: each frame's passes after the previous frame's.
    let spans: Vec<(u64, (i64, i64))> = spans.into_iter().collect();
    for pair in spans.windows(2) {
        let ((a, (_, a_end)), (b, (b_start, _))) = (pair[0], pair[1]);
        assert!(a_end <= b_start + START_SLACK, "frame {a}'s passes overlap frame {b}'s");
    }
}

/// The pass names of the fullest view the frame plan schedules (gpu mode, two phases, the
/// compute rasteriser): where a GPU scope's name must come from.
fn fullest_view_pass_names() -> Vec<&'static str> {
    use multidraw::frame::{Capabilities, FramePlan, ViewRequest};
    let plan = FramePlan::resolve(multidraw::DrawMode::Gpu, Capabilities { count_draws: true });
    let request = ViewRequest {
        detail: multidraw::Detail::default(),
        cull_enabled: true,
        frozen: false,
        raster_available: true,
        pyramid_current: false,
        blend: true,
        deferred: true,
    };
    let mut names: Vec<_> = plan.schedule(&request).pass_names().collect();
    assert_eq!(names.len(), multidraw::tunables::MAX_VIEW_PASSES, "{names:?}");
    // And the shadow cascades' passes, which run before the view's own (bench draws shadows
    // by default).
    for k in 0..multidraw::tunables::MAX_CASCADES {
        names.extend(plan.cascade_schedule(k, true, true).pass_names());
    }
    names
}
