//! Live scenes: a scene built change by change through handles (adds, moves, removes, adds
//! into freed slots, growth past every capacity) renders, after each step, the same image as
//! the same scene built at once from scratch, in the gpu and the cpu mode, with every feature
//! on (the compute rasteriser draws the small objects of both), and the GPU counts
//! the objects the CPU reference counts. Handles that were removed or belong to another scene
//! are refused. Changed records reach the GPU through the scatter pass: every change made
//! before a frame arrives, however many uploads it took, and the pass records the same
//! commands for 5 changes as for 100.

mod common;

use std::collections::BTreeMap;

use glam::{Quat, Vec3, Vec4};
use multidraw::frame::FrameStats;
use multidraw::gpu::target::OffscreenTarget;
use multidraw::live::{LiveError, LiveObject, LiveScene, LiveSync, MaterialHandle, MeshHandle, ObjectHandle};
use multidraw::mesh::{procedural, MeshArena};
use multidraw::passes::scatter;
use multidraw::scene::{Camera, Material, Object, Scene, TextureLayers, Variant};
use multidraw::{DrawMode, FrameInput, GpuContext, Renderer};

const WIDTH: u32 = 160;
const HEIGHT: u32 = 120;

fn camera() -> Camera {
    Camera {
        position: Vec3::new(0.0, 2.0, 16.0),
        target: Vec3::ZERO,
        up: Vec3::Y,
        fov_y: 60f32.to_radians(),
        near: 0.1,
        far: 100.0,
    }
}

fn materials() -> Vec<Material> {
    vec![
        Material::colored("red", Vec4::new(0.8, 0.2, 0.2, 1.0)),
        Material::colored("blue", Vec4::new(0.2, 0.3, 0.9, 1.0)),
        Material { variant: Variant::DoubleSided, ..Material::colored("green", Vec4::new(0.2, 0.8, 0.3, 1.0)) },
    ]
}

/// Grid cell `i` (20 columns × 8 rows, some out of view to the sides), so objects never
/// overlap and their order cannot change the image.
fn cell(i: u32) -> Vec3 {
    Vec3::new((i % 20) as f32 * 1.5 - 14.25, (i / 20 % 8) as f32 * 1.5 - 5.0, -((i / 160) as f32) * 3.0)
}

/// The scene the test expects, kept apart from the live scene's own bookkeeping: objects by
/// a key the test chooses, meshes and materials in the order they were added.
struct Expected {
    meshes: MeshArena,
    materials: Vec<Material>,
    objects: BTreeMap<u32, Object>,
}

impl Expected {
    fn scene(&self) -> Scene {
        Scene {
            name: "expected".into(),
            meshes: self.meshes.clone(),
            materials: self.materials.clone(),
            objects: self.objects.values().copied().collect(),
            camera: camera(),
            sun: multidraw::scene::Sun::default(),
            environment: multidraw::scene::Environment::default(),
            animated: false,
            base_color_textures: TextureLayers::default(),
            normal_textures: TextureLayers::default(),
            notes: Vec::new(),
        }
    }
}

/// The live scene and the expected one, changed together.
struct Both {
    live: LiveScene,
    expected: Expected,
    meshes: Vec<MeshHandle>,
    materials: Vec<MaterialHandle>,
    objects: BTreeMap<u32, ObjectHandle>,
}

impl Both {
    fn new() -> Self {
        let mut live = LiveScene::new(camera());
        let mut expected = Expected { meshes: MeshArena::default(), materials: Vec::new(), objects: BTreeMap::new() };
        let shapes = [("cube", procedural::cube()), ("sphere", procedural::uv_sphere(16, 8))];
        let meshes = shapes
            .into_iter()
            .map(|(name, data)| {
                expected.meshes.add(name, data.clone()).expect("valid mesh");
                live.add_mesh(name, data).expect("valid mesh")
            })
            .collect();
        let materials = materials()
            .into_iter()
            .map(|m| {
                expected.materials.push(m.clone());
                live.add_material(m)
            })
            .collect();
        Self { live, expected, meshes, materials, objects: BTreeMap::new() }
    }

    fn add(&mut self, key: u32, mesh: u32, material: u32) {
        let translation = cell(key);
        let object = LiveObject {
            scale: 0.5,
            ..LiveObject::new(self.meshes[mesh as usize], self.materials[material as usize], translation)
        };
        let handle = self.live.add_object(object).expect("add");
        self.objects.insert(key, handle);
        self.expected.objects.insert(
            key,
            Object { translation, rotation: Quat::IDENTITY, scale: 0.5, mesh, material, orbit_class: 0, spin_class: 0 },
        );
    }

    fn remove(&mut self, key: u32) {
        let handle = self.objects.remove(&key).expect("known key");
        self.live.remove_object(handle).expect("remove");
        self.expected.objects.remove(&key);
    }

    fn move_to(&mut self, key: u32, translation: Vec3, rotation: Quat) {
        self.live.set_transform(self.objects[&key], translation, rotation, 0.5).expect("move");
        let object = self.expected.objects.get_mut(&key).expect("known key");
        object.translation = translation;
        object.rotation = rotation;
    }
}

fn render(ctx: &GpuContext, renderer: &mut Renderer, mode: DrawMode) -> (image::RgbaImage, FrameStats) {
    let target = OffscreenTarget::new(&ctx.device, WIDTH, HEIGHT);
    let stats = renderer.render(ctx, &target.frame_target(), &FrameInput::new(camera(), mode));
    ctx.wait_idle();
    let image = target.read_rgba(&ctx.device, &ctx.queue);
    common::assert_no_gpu_errors(ctx);
    (image, stats)
}

/// The live renderer's frames against a fresh renderer of the expected scene, in both modes,
/// and the GPU's visible count against the CPU reference's.
fn check_step(ctx: &GpuContext, name: &str, live: &mut Renderer, expected: &Scene) {
    // The reference draws with every feature, the compute rasteriser included, as the live one does.
    let mut reference = common::renderer(ctx, expected);
    for mode in [DrawMode::Gpu, DrawMode::Cpu] {
        let (got, stats) = render(ctx, live, mode);
        let (want, _) = render(ctx, &mut reference, mode);
        let what = format!("step {name}, {mode}, against the scene built at once");
        common::assert_same_pixels(&format!("live-{name}-{mode}"), &what, &want, &got);
        match mode {
            DrawMode::Gpu => {
                assert!(stats.soft, "step {name}: the live scene's small objects go to the compute rasteriser");
                ctx.wait_idle();
                let counters = live.collect(&ctx.device).into_iter().filter_map(|r| r.counters).next_back();
                let counters = counters.expect("the live frame's counters read back");
                assert!(counters.soft > 0, "step {name}: the compute rasteriser drew: {counters:?}");
                let gpu = counters.visible;
                let (_, cpu_stats) = render(ctx, &mut reference, DrawMode::Cpu);
                assert_eq!(Some(gpu), cpu_stats.cpu_visible, "step {name}: GPU visible count vs the CPU reference");
            }
            _ => assert!(stats.cpu_visible.is_some()),
        }
    }
}

#[test]
fn a_scene_built_change_by_change_renders_as_one_built_at_once() {
    let ctx = common::context();
    let mut both = Both::new();
    for key in 0..6 {
        both.add(key, key % 2, key % 3);
    }
    let mut renderer = common::renderer(&ctx, &both.live.to_scene());
    let mut sync = LiveSync::new();
    sync.apply(&ctx, &mut renderer, &mut both.live).expect("first upload");
    check_step(&ctx, "initial", &mut renderer, &both.expected.scene());

    // Moves only: rewritten in place, nothing re-made.
    both.move_to(1, Vec3::new(-3.0, -7.0, 0.0), Quat::from_rotation_y(0.7));
    both.move_to(4, Vec3::new(3.0, -7.0, 0.5), Quat::from_rotation_x(0.4));
    let stats = sync.apply(&ctx, &mut renderer, &mut both.live).expect("moves");
    assert!(!stats.relaid, "moves are written in place: {stats:?}");
    assert_eq!(stats.objects_written, 2);
    assert!((1..=2).contains(&stats.cells_written), "the bounds of their cells go up with them: {stats:?}");
    let gathered = (scatter::HEADER_BYTES + (2 + stats.cells_written as usize) * scatter::UPDATE_BYTES) as u64;
    assert_eq!(stats.upload_bytes, gathered, "the two records, their ids and their cells go up, behind the header");
    check_step(&ctx, "moved", &mut renderer, &both.expected.scene());

    // Removes, then adds into the freed slots.
    let capacity = both.live.object_capacity();
    both.remove(0);
    both.remove(3);
    let stats = sync.apply(&ctx, &mut renderer, &mut both.live).expect("removes");
    assert!(!stats.relaid && stats.objects_written == 2, "removes are written in place: {stats:?}");
    check_step(&ctx, "removed", &mut renderer, &both.expected.scene());
    both.add(20, 1, 2);
    both.add(21, 0, 1);
    assert_eq!(both.live.object_capacity(), capacity, "adds reuse the freed slots");
    let stats = sync.apply(&ctx, &mut renderer, &mut both.live).expect("adds into freed slots");
    assert!(!stats.relaid, "adds into spare slots are written in place: {stats:?}");
    check_step(&ctx, "refilled", &mut renderer, &both.expected.scene());

    // Growth past every batch's capacity (each has at least 64 spare slots), with moves and
    // removes in the same frame.
    for key in 40..400 {
        both.add(key, key % 2, key % 3);
    }
    both.move_to(20, Vec3::new(0.0, -7.0, 0.0), Quat::from_rotation_z(0.3));
    both.remove(41);
    let stats = sync.apply(&ctx, &mut renderer, &mut both.live).expect("growth");
    assert!(stats.relaid, "growth past the capacities lays the scene out again: {stats:?}");
    check_step(&ctx, "grown", &mut renderer, &both.expected.scene());

    // Hidden objects are not drawn; shown again, they are.
    both.live.set_visible(both.objects[&42], false).expect("hide");
    let hidden = both.expected.objects.remove(&42).expect("known key");
    sync.apply(&ctx, &mut renderer, &mut both.live).expect("hide");
    check_step(&ctx, "hidden", &mut renderer, &both.expected.scene());
    both.live.set_visible(both.objects[&42], true).expect("show");
    both.expected.objects.insert(42, hidden);
    sync.apply(&ctx, &mut renderer, &mut both.live).expect("show");
    check_step(&ctx, "shown", &mut renderer, &both.expected.scene());
}

#[test]
fn removed_and_foreign_handles_are_refused() {
    let mut both = Both::new();
    both.add(0, 0, 0);
    let handle = both.objects[&0];
    both.remove(0);
    let removed = || LiveError::Removed { kind: "object", slot: handle.slot() };
    assert_eq!(both.live.remove_object(handle), Err(removed()));
    assert_eq!(both.live.set_transform(handle, Vec3::ZERO, Quat::IDENTITY, 1.0), Err(removed()));
    assert_eq!(both.live.set_visible(handle, false), Err(removed()));
    // Its slot's next object is not reachable through the old handle.
    both.add(1, 0, 0);
    assert_eq!(both.objects[&1].slot(), handle.slot());
    assert_eq!(both.live.object(handle).err(), Some(removed()));
    assert!(both.live.object(both.objects[&1]).is_ok());

    let mut other = Both::new();
    other.add(0, 0, 0);
    let foreign = || LiveError::Foreign { kind: "object" };
    assert_eq!(both.live.remove_object(other.objects[&0]), Err(foreign()));
    assert_eq!(both.live.object(other.objects[&0]).err(), Some(foreign()));
    let object = LiveObject::new(other.meshes[0], both.materials[0], Vec3::ZERO);
    assert_eq!(both.live.add_object(object), Err(LiveError::Foreign { kind: "mesh" }));

    // A mesh or material in use is not removed; unused, it is, and its handle is then refused.
    assert!(matches!(both.live.remove_mesh(both.meshes[0]), Err(LiveError::InUse { .. })));
    both.live.remove_mesh(both.meshes[1]).expect("unused mesh");
    let object = LiveObject::new(both.meshes[1], both.materials[0], Vec3::ZERO);
    assert_eq!(both.live.add_object(object), Err(LiveError::Removed { kind: "mesh", slot: 1 }));
    both.live.remove_material(both.materials[2]).expect("unused material");
    assert!(both.live.set_material(both.objects[&1], both.materials[2]).is_err());
}

/// A live renderer over `count` objects of the test's grid, laid out.
fn live_grid(ctx: &GpuContext, count: u32) -> (Both, Renderer, LiveSync) {
    let mut both = Both::new();
    for key in 0..count {
        both.add(key, key % 2, key % 3);
    }
    let mut renderer = common::renderer(ctx, &both.live.to_scene());
    let mut sync = LiveSync::new();
    assert!(sync.apply(ctx, &mut renderer, &mut both.live).expect("layout").relaid);
    (both, renderer, sync)
}

/// Moves the objects of `keys` (those still there) a little, each to its own spot.
fn nudge(both: &mut Both, keys: std::ops::Range<u32>, by: f32) {
    let present: Vec<u32> = keys.filter(|key| both.objects.contains_key(key)).collect();
    for key in present {
        both.move_to(key, cell(key) + Vec3::new(by, by * 0.5, 0.0), Quat::from_rotation_y(by));
    }
}

/// Changes applied twice before a frame all reach it (the second upload holds the first's
/// records too), and a frame moving most of the scene writes `objects[]` (and `cull_records[]`)
/// whole.
#[test]
fn every_change_before_a_frame_reaches_it() {
    let ctx = common::context();
    let (mut both, mut renderer, mut sync) = live_grid(&ctx, 300);

    nudge(&mut both, 0..10, 0.2);
    let first = sync.apply(&ctx, &mut renderer, &mut both.live).expect("first changes");
    nudge(&mut both, 5..20, 0.3);
    both.remove(100);
    let second = sync.apply(&ctx, &mut renderer, &mut both.live).expect("second changes");
    assert_eq!((first.objects_written, second.objects_written), (10, 21), "the second upload holds both");
    check_step(&ctx, "applied twice", &mut renderer, &both.expected.scene());

    nudge(&mut both, 0..300, 0.1);
    let most = sync.apply(&ctx, &mut renderer, &mut both.live).expect("most of the scene");
    assert!(!most.relaid);
    assert_eq!(
        most.upload_bytes,
        renderer.buffers.objects.size() + renderer.buffers.cull_records.size(),
        "over half the records: the whole array (and the cull's records of it)"
    );
    check_step(&ctx, "most moved", &mut renderer, &both.expected.scene());
}

/// An object moved into the view from far away is drawn: the scatter pass also moves the
/// bounds of its cell of the cull's hierarchy (`gpu_scene::cells`), which the cull tests before
/// the object. Every object first goes far out of view (the whole array written, every cell
/// with it), then 40 come back (a gathered update: their records and their cells').
#[test]
fn an_object_moved_back_into_view_is_drawn() {
    let ctx = common::context();
    let (mut both, mut renderer, mut sync) = live_grid(&ctx, 300);
    for key in 0..300 {
        both.move_to(key, cell(key) + Vec3::new(0.0, 0.0, 5000.0), Quat::IDENTITY);
    }
    let away = sync.apply(&ctx, &mut renderer, &mut both.live).expect("all away");
    assert!(!away.relaid);
    assert_eq!(away.upload_bytes, renderer.buffers.objects.size() + renderer.buffers.cull_records.size());
    let (_, stats) = render(&ctx, &mut renderer, DrawMode::Gpu);
    ctx.wait_idle();
    let counters = renderer.collect(&ctx.device).into_iter().filter_map(|r| r.counters).next_back();
    assert_eq!(counters.expect("counters read back").visible, 0, "all away: nothing in view ({stats:?})");
    for key in 60..100 {
        both.move_to(key, cell(key), Quat::IDENTITY);
    }
    let back = sync.apply(&ctx, &mut renderer, &mut both.live).expect("some back");
    assert_eq!(back.objects_written, 40);
    check_step(&ctx, "some back", &mut renderer, &both.expected.scene());
}

/// The frame after changes records the scatter pass, the same commands for 5 changes as for
/// 100; a frame without changes records none of it.
#[test]
fn changes_add_the_same_commands_however_many() {
    let ctx = common::context();
    let (mut both, mut renderer, mut sync) = live_grid(&ctx, 300);
    let target = OffscreenTarget::new(&ctx.device, WIDTH, HEIGHT);
    let mut frame_after = |both: &mut Both, renderer: &mut Renderer, keys: std::ops::Range<u32>| {
        nudge(both, keys, 0.25);
        sync.apply(&ctx, renderer, &mut both.live).expect("changes");
        let stats = renderer.render(&ctx, &target.frame_target(), &FrameInput::new(camera(), DrawMode::Gpu));
        ctx.wait_idle();
        stats.commands
    };
    let few = frame_after(&mut both, &mut renderer, 0..5);
    let many = frame_after(&mut both, &mut renderer, 0..100);
    let none = frame_after(&mut both, &mut renderer, 0..0);
    common::assert_no_gpu_errors(&ctx);
    assert_eq!(few, many, "commands recorded after 5 and after 100 changes");
    let scatter = few.pass(scatter::NAME);
    assert_eq!((scatter.set_pipeline, scatter.set_bind_group[0], scatter.dispatch), (1, 1, 1), "{scatter:?}");
    assert_eq!(none.pass(scatter::NAME).total(), 0, "no changes, no scatter pass");
    assert_eq!(none.total() + scatter.total(), few.total(), "the scatter pass is all that changes add");
}

/// A churning bench (objects removed, added and moved every frame): the gpu and cpu rows cull
/// the same frames, so their visible counts agree frame by frame up to the objects that truly
/// sit on a boundary (a handful, not the spare slots), and a row says the compute rasteriser
/// ran only if it drew something (a live scene's objects all go to the hardware).
#[test]
fn a_churning_bench_counts_the_same_objects_in_gpu_and_cpu_rows() {
    use multidraw::bench::{self, BenchConfig};
    let ctx = common::context();
    let config = BenchConfig {
        objects: vec![3000],
        modes: vec![DrawMode::Gpu, DrawMode::Cpu],
        frames: 3,
        warmup: 1,
        width: 96,
        height: 64,
        churn: 200,
        ..BenchConfig::default()
    };
    let report = bench::run(&ctx, &config, &mut bench::NoProgress).expect("churning bench");
    let (gpu, cpu) = (&report.rows[0], &report.rows[1]);
    assert_eq!((gpu.mode, cpu.mode), (DrawMode::Gpu, DrawMode::Cpu));
    assert_eq!(gpu.visible_per_frame.len(), 3);
    for (frame, ((g, c), boundary)) in
        gpu.visible_per_frame.iter().zip(&cpu.visible_per_frame).zip(&cpu.boundary_per_frame).enumerate()
    {
        assert!(*boundary <= 3000 / 100, "frame {frame}: {boundary} objects on a boundary, a spare slot is none");
        assert!(g.abs_diff(*c) <= *boundary, "frame {frame}: gpu saw {g}, cpu saw {c}, {boundary} on a boundary");
    }
    let (problems, _) = report.visible_disagreements();
    assert!(problems.is_empty(), "{problems:#?}");
    for row in &report.rows {
        assert_eq!(row.soft_raster, row.soft_drawn > 0, "{} row: soft flag vs {} drawn", row.mode, row.soft_drawn);
    }
}

/// A restarted churn scene takes the same steps again from the same start.
#[test]
fn a_restarted_churn_repeats_its_steps() {
    use multidraw::live::churn::ChurnScene;
    let scene = common::scene(500, false);
    let mut churn = ChurnScene::from_scene(&scene, 7).expect("churn scene");
    let positions =
        |churn: &ChurnScene| churn.live.to_scene().objects.iter().map(|o| o.translation).collect::<Vec<_>>();
    let start = positions(&churn);
    churn.step(50).expect("step");
    let after_one = positions(&churn);
    assert_ne!(start, after_one);
    churn.restart();
    assert_eq!(positions(&churn), start);
    churn.step(50).expect("step");
    assert_eq!(positions(&churn), after_one);
}
