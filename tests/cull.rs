//! GPU culling equals the CPU reference. For several object counts (0, 1, 63, 64, 65, 100,000
//! and one that needs more than 65,535 workgroups) and cameras, with full detail and with LOD
//! and size culling on, the instance counts and object ids the GPU wrote are read back and
//! compared with `cull::cpu` as sets of (object, level batch) — the GPU's LOD choices per level
//! — (atomic append order is not deterministic), and the GPU counters with a CPU recount.
//! Objects within float rounding of a threshold (`cpu::on_boundary`) may differ, and no
//! other. Outputs are poisoned before every run so stale data cannot pass.
//!
//! The same readback checks every indirect command against the mesh table and the batch
//! slices: this is the guarantee that lets the engine run without wgpu's indirect validation.
//! The stress scene's blended objects come from the blend sort's draws, which must list them
//! in the CPU's order (farthest first); in gpu mode its large opaque objects may come from the
//! occluder sort's draws instead of their batch (`passes::build`), each once.

mod common;

use std::collections::{BTreeSet, HashMap};

use glam::Vec3;
use multidraw::gpu::commands::dispatch_size;
use multidraw::gpu::readback::read_buffer;
use multidraw::gpu::target::{OffscreenTarget, COLOR_FORMAT};
use multidraw::gpu_scene::types::{DrawIndexedIndirectArgs, FrameUniforms, DRAW_ARGS_SIZE};
use multidraw::passes::cull::cpu::{self, DrawnObject};
use multidraw::passes::cull::GpuCounters;
use multidraw::scene::camera::frustum_planes;
use multidraw::scene::{Camera, Scene, Variant};
use multidraw::tunables::{
    COUNTER_BLEND, COUNTER_OCCLUDERS, COUNTER_SLOTS, COUNTER_SOFT, COUNTER_SOFT_MASKED, LEVEL_SHIFT, LOD_LEVELS,
    VARIANT_COUNT, VARIANT_MASKED, WORKGROUP_SIZE,
};
use multidraw::{Detail, DrawMode, FrameInput, GpuContext, Renderer};

const POISON: u8 = 0xAB;

fn read_u32s(ctx: &GpuContext, buffer: &wgpu::Buffer, count: u64) -> Vec<u32> {
    if count == 0 {
        return Vec::new();
    }
    bytemuck::cast_slice(&read_buffer(&ctx.device, &ctx.queue, buffer, 0, count * 4)).to_vec()
}

fn read_draws(ctx: &GpuContext, buffer: &wgpu::Buffer, count: u64) -> Vec<DrawIndexedIndirectArgs> {
    if count == 0 {
        return Vec::new();
    }
    bytemuck::cast_slice(&read_buffer(&ctx.device, &ctx.queue, buffer, 0, count * DRAW_ARGS_SIZE)).to_vec()
}

/// The object and level batch a draw of one identity slot draws (`first_instance = identity_base
/// + level × n + id`), checked against the mesh it names.
fn identity_draw(
    d: &DrawIndexedIndirectArgs,
    prepared: &multidraw::gpu_scene::PreparedScene,
    identity_base: u32,
    n: u32,
    label: &str,
) -> DrawnObject {
    let slot = d.first_instance - identity_base;
    let (id, tagged_level) = (slot % n, slot / n);
    let first = prepared.objects[id as usize].batch;
    let level = (first..first + prepared.batches[first as usize].level_count)
        .find(|&b| prepared.batches[b as usize].first_index == d.first_index)
        .unwrap_or_else(|| panic!("{label}: object {id} drawn with another mesh's indices"));
    assert_eq!(prepared.batches[level as usize].level, tagged_level, "{label}: object {id} level slot");
    DrawnObject { id, batch: level }
}

fn poison(ctx: &GpuContext, renderer: &Renderer) {
    let b = &renderer.buffers;
    let fill = |buffer: &wgpu::Buffer, size: u64| ctx.queue.write_buffer(buffer, 0, &vec![POISON; size as usize]);
    // Only the batch slices of instances[]: the identity range is data, not output.
    fill(&b.instances, (b.identity_base.max(1) as u64) * 4);
    // And the compute rasteriser's list after the identity ranges, and the blend sort's keys.
    let soft = vec![POISON; b.object_count as usize * 4];
    ctx.queue.write_buffer(&b.instances, b.soft_base as u64 * 4, &soft);
    if b.blend_capacity > 0 {
        let keys = vec![POISON; b.blend_capacity.next_power_of_two() as usize * 8];
        ctx.queue.write_buffer(&b.instances, b.blend_key_base as u64 * 4, &keys);
        // The pulled blended pass's objects, four words each.
        let pulled = vec![POISON; b.blend_capacity as usize * 16];
        ctx.queue.write_buffer(&b.instances, b.blend_pull_base as u64 * 4, &pulled);
    }
    if b.occluder_capacity > 0 {
        let keys = vec![POISON; b.occluder_capacity.next_power_of_two() as usize * 8];
        ctx.queue.write_buffer(&b.instances, b.occluder_key_base as u64 * 4, &keys);
    }
    fill(&b.draws, (b.draw_capacity + b.blend_capacity + 1 + b.occluder_capacity) as u64 * DRAW_ARGS_SIZE);
    fill(&b.batch_counts, b.batch_count.max(1) as u64 * 4);
    fill(&b.draw_counts, (VARIANT_COUNT + COUNTER_SLOTS) as u64 * 4);
}

fn cameras(scene: &Scene) -> Vec<Camera> {
    let base = scene.camera;
    let extent = scene.camera.position.length().max(1.0);
    vec![
        base,
        // Narrow view into the middle.
        Camera { fov_y: 15f32.to_radians(), ..base },
        // From inside the volume, looking sideways.
        Camera { position: Vec3::ZERO, target: Vec3::new(1.0, 0.2, 0.3), ..base },
        // From far away: everything is in view.
        Camera {
            position: Vec3::new(0.0, 0.0, 10.0 * extent + 20.0),
            target: Vec3::ZERO,
            far: 40.0 * extent + 80.0,
            ..base
        },
        // Looking away from everything.
        Camera { position: Vec3::new(0.0, 0.0, 3.0 * extent), target: Vec3::new(0.0, 0.0, 6.0 * extent), ..base },
    ]
}

/// Asserts that `got` and `want` differ only in objects of `boundary`.
fn assert_same_but_boundary(
    got: &BTreeSet<DrawnObject>,
    want: &BTreeSet<DrawnObject>,
    boundary: &BTreeSet<u32>,
    what: &str,
) {
    let differing: Vec<_> = got.symmetric_difference(want).filter(|d| !boundary.contains(&d.id)).collect();
    assert!(
        differing.is_empty(),
        "{what} differs from the CPU reference in {} objects, e.g. {:?}",
        differing.len(),
        &differing[..differing.len().min(5)]
    );
}

/// Runs one single-phase GPU frame and checks the cull outputs of `mode` against the CPU
/// reference. Returns the number of visible objects.
fn check_frame(
    ctx: &GpuContext,
    renderer: &mut Renderer,
    camera: Camera,
    time: f32,
    mode: DrawMode,
    detail: Detail,
    label: &str,
) -> usize {
    let target = OffscreenTarget::new(&ctx.device, 64, 48);
    poison(ctx, renderer);
    let detail = Detail { occlusion: false, ..detail };
    let input = FrameInput { time, detail, ..FrameInput::new(camera, mode) };
    renderer.render(ctx, &target.frame_target(), &input);
    ctx.wait_idle();
    common::assert_no_gpu_errors(ctx);

    let compact = renderer.plan(mode).compact();
    assert_eq!(compact, mode != DrawMode::GpuNocount, "lavapipe has MULTI_DRAW_INDIRECT_COUNT");
    let uniforms = renderer.frame_uniforms(&input, target.width, target.height);
    let prepared = &renderer.prepared;
    let (expected_order, cpu_counts) = cpu::cull(&uniforms, &prepared.objects, &prepared.batches);
    let expected: BTreeSet<DrawnObject> = expected_order.iter().copied().collect();
    let boundary: BTreeSet<u32> = (0..prepared.objects.len() as u32)
        .filter(|&id| cpu::on_boundary(&uniforms, &prepared.batches, &prepared.objects[id as usize]))
        .collect();
    let slack = boundary.len() as i64;
    let n = renderer.buffers.object_count as usize;
    let identity_base = renderer.buffers.identity_base as u64;
    let index_total = renderer.buffers.indices.size() / 4;

    let draw_counts = read_u32s(ctx, &renderer.buffers.draw_counts, (VARIANT_COUNT + COUNTER_SLOTS) as u64);
    let counters = GpuCounters::from_slots(&draw_counts[VARIANT_COUNT as usize..]);
    let near = |gpu: u64, cpu: u64, what: &str| {
        assert!(
            (gpu as i64 - cpu as i64).abs() <= slack,
            "{label}: GPU {what} {gpu}, CPU recount {cpu} ({slack} on a boundary)"
        );
    };
    near(counters.visible as u64, cpu_counts.visible as u64, "visible");
    near(counters.in_frustum as u64, cpu_counts.in_frustum as u64, "in frustum");
    near(counters.too_small as u64, cpu_counts.too_small as u64, "too small");
    near(counters.drawn[0] as u64, cpu_counts.visible as u64, "drawn");
    assert_eq!((counters.drawn[1], counters.occluded), (0, 0), "{label}: one phase draws nothing late");
    for level in 0..counters.levels.len() {
        near(counters.levels[level] as u64, cpu_counts.levels[level] as u64, &format!("level {level} objects"));
    }
    if slack == 0 {
        assert_eq!(counters.triangles, cpu_counts.triangles, "{label}: triangles");
    }

    let all_draws = read_draws(
        ctx,
        &renderer.buffers.draws,
        (renderer.buffers.draw_capacity + renderer.buffers.blend_capacity + 1 + renderer.buffers.occluder_capacity)
            as u64,
    );
    let (draws, blend_draws) = all_draws.split_at(renderer.buffers.draw_capacity as usize);
    let (blend_draws, pulled_draw) = blend_draws.split_at(renderer.buffers.blend_capacity as usize);
    let occluder_draws = &pulled_draw[1..];
    // The occluders drawn first (gpu mode), one identity slot each, opaque: listed where the
    // mode can draw them (batches behind a count), at most the list's room.
    let occluder_count = draw_counts[COUNTER_OCCLUDERS as usize].min(renderer.buffers.occluder_capacity) as usize;
    let room = renderer.lists_occluders(mode) && renderer.buffers.occluder_capacity > 0;
    assert_eq!(uniforms.occluder_capacity > 0, room, "{label}: occluders listed where the mode and the scene allow");
    if uniforms.occluder_capacity == 0 {
        assert_eq!(draw_counts[COUNTER_OCCLUDERS as usize], 0, "{label}: no occluders listed");
    }
    // Every command the main pass may read stays inside the index buffer and instances[].
    let check_bounds = |d: &DrawIndexedIndirectArgs| {
        assert!(
            d.first_index as u64 + d.index_count as u64 <= index_total,
            "{label}: index range out of bounds: {d:?}"
        );
        assert!(
            d.first_instance as u64 + d.instance_count as u64 <= identity_base + LOD_LEVELS as u64 * n as u64,
            "{label}: instance range out of bounds: {d:?}"
        );
        let mesh_ok = prepared.batches.iter().any(|b| {
            b.first_index == d.first_index && b.index_count == d.index_count && b.base_vertex == d.base_vertex
        });
        assert!(mesh_ok, "{label}: draw does not name a mesh of the arena: {d:?}");
    };

    // The blend sort's draws: one per listed blended object, each an identity slot, in the
    // CPU's order (farthest first). Without a count buffer the pulled blended pass's objects
    // instead, four words each (tagged id, first index, base vertex, index count), read back
    // as the draws they stand for, and its one draw: the largest index count × the objects.
    let blend_count = draw_counts[COUNTER_BLEND as usize] as usize;
    assert!(
        blend_count <= blend_draws.len(),
        "{label}: {blend_count} blended objects listed, room for {}",
        blend_draws.len()
    );
    let pulled = renderer.buffers.pulls_blend(compact);
    assert_eq!(pulled, !compact, "lavapipe binds the arenas as storage");
    let listed_draws: Vec<DrawIndexedIndirectArgs> = if pulled {
        let base = renderer.buffers.blend_pull_base as usize;
        let words = read_u32s(ctx, &renderer.buffers.instances, (base + 4 * blend_count) as u64);
        words[base..]
            .chunks(4)
            .map(|w| {
                let (id, level) = (w[0] & ((1 << LEVEL_SHIFT) - 1), w[0] >> LEVEL_SHIFT);
                assert!((id as usize) < n, "{label}: the pulled list holds poison or garbage id {:#x}", w[0]);
                DrawIndexedIndirectArgs {
                    index_count: w[3],
                    instance_count: 1,
                    first_index: w[1],
                    base_vertex: w[2] as i32,
                    first_instance: identity_base as u32 + level * n as u32 + id,
                }
            })
            .collect()
    } else {
        blend_draws[..blend_count].to_vec()
    };
    let mut blended = Vec::new();
    for d in &listed_draws {
        check_bounds(d);
        assert_eq!(d.instance_count, 1, "{label}: a blended object's draw draws one instance");
        blended.push(identity_draw(d, prepared, identity_base as u32, n as u32, label));
    }
    // (A scene without blended objects runs no blend sort.)
    if pulled && renderer.buffers.blend_capacity > 0 {
        let most = listed_draws.iter().map(|d| d.index_count).max().unwrap_or(0);
        let d = pulled_draw[0];
        assert_eq!(
            (d.index_count, d.instance_count, d.first_index, d.base_vertex),
            (most, blend_count as u32, 0, 0),
            "{label}: the pulled blended draw (vertices, instances, first vertex, first instance)"
        );
    } else if !compact {
        assert!(
            blend_draws[blend_count..].iter().all(|d| d.instance_count == 0),
            "{label}: unused blend draws are empty"
        );
    }
    let cpu_blended: Vec<DrawnObject> = expected_order
        .iter()
        .copied()
        .filter(|d| prepared.batches[d.batch as usize].variant == Variant::Blend as u32)
        .collect();
    if slack == 0 {
        assert_eq!(blended, cpu_blended, "{label}: blended objects in the CPU's order");
    }

    match mode {
        DrawMode::Gpu | DrawMode::GpuNocount => {
            let counts = read_u32s(ctx, &renderer.buffers.batch_counts, prepared.batches.len() as u64);
            let instances = read_u32s(ctx, &renderer.buffers.instances, identity_base);
            let mut seen = BTreeSet::new();
            let mut ids = BTreeSet::new();
            for (b, batch) in prepared.batches.iter().enumerate() {
                let count = counts[b];
                assert!(count <= batch.capacity, "{label}: batch {b} count {count} over capacity {}", batch.capacity);
                for &entry in &instances[batch.first_instance as usize..(batch.first_instance + count) as usize] {
                    let id = entry & ((1 << LEVEL_SHIFT) - 1);
                    assert!((id as usize) < n, "{label}: batch {b} holds poison or garbage id {entry:#x}");
                    assert_eq!(entry >> LEVEL_SHIFT, batch.level, "{label}: object {id} tagged with another level");
                    let first = prepared.objects[id as usize].batch;
                    assert!(
                        (first..first + batch.level_count).contains(&(b as u32)),
                        "{label}: object {id} in a batch of another mesh or variant"
                    );
                    assert!(ids.insert(id), "{label}: object {id} written twice");
                    seen.insert(DrawnObject { id, batch: b as u32 });
                }
            }
            // The objects listed for the compute rasteriser instead, each tagged with its level:
            // those of masked materials in the list's second part, the rest in its first.
            let buffers = &renderer.buffers;
            let parts = [
                (0, draw_counts[COUNTER_SOFT as usize], uniforms.soft_masked_base, false),
                (
                    uniforms.soft_masked_base,
                    draw_counts[COUNTER_SOFT_MASKED as usize],
                    uniforms.soft_masked_capacity,
                    true,
                ),
            ];
            assert_eq!(parts.iter().map(|p| p.1).sum::<u32>(), counters.soft, "{label}: the parts' counts");
            // On a CPU adapter a scene with masked objects has a part for them.
            let masked_objects = prepared.variants[multidraw::scene::Variant::Masked as usize].object_count;
            if multidraw::passes::raster::masked_apart(ctx.info.device_type) && counters.soft > 0 {
                assert_eq!(uniforms.soft_masked_capacity > 0, masked_objects > 0, "{label}: the masked part's room");
            }
            let soft_base = buffers.soft_base as usize;
            let listed = read_u32s(ctx, &buffers.instances, (soft_base + n) as u64);
            for (first_slot, count, room, masked) in parts {
                assert!(count <= room, "{label}: {count} listed in a part of room {room}");
                let start = soft_base + first_slot as usize;
                for &entry in &listed[start..start + count as usize] {
                    let id = entry & ((1 << LEVEL_SHIFT) - 1);
                    assert!((id as usize) < n, "{label}: the soft list holds poison or garbage id {entry:#x}");
                    let first = prepared.objects[id as usize].batch;
                    let level = entry >> LEVEL_SHIFT;
                    assert!(level < prepared.batches[first as usize].level_count, "{label}: object {id} at no level");
                    // With masked objects apart each kind is in its own part; else all in the first.
                    let masked_object = prepared.batches[first as usize].variant == VARIANT_MASKED;
                    if uniforms.soft_masked_capacity > 0 {
                        assert_eq!(masked_object, masked, "{label}: object {id} in the soft list's other part");
                    }
                    assert!(ids.insert(id), "{label}: object {id} written twice");
                    seen.insert(DrawnObject { id, batch: first + level });
                }
            }
            for &d in &blended {
                assert!(ids.insert(d.id), "{label}: object {} written twice", d.id);
                seen.insert(d);
            }
            for d in &occluder_draws[..occluder_count] {
                check_bounds(d);
                assert_eq!(d.instance_count, 1, "{label}: an occluder's draw draws one instance");
                let drawn = identity_draw(d, prepared, identity_base as u32, n as u32, label);
                let variant = prepared.batches[drawn.batch as usize].variant;
                assert_eq!(variant, Variant::Opaque as u32, "{label}: occluder {} is opaque", drawn.id);
                assert!(ids.insert(drawn.id), "{label}: object {} written twice", drawn.id);
                seen.insert(drawn);
            }
            assert_same_but_boundary(&seen, &expected, &boundary, &format!("{label}: GPU (object, level) set"));

            // The build pass's draws: per variant, exactly the non-empty batches (compacted) or
            // every batch (not compacted), each with its batch's count.
            for (v, range) in prepared.variants.iter().enumerate() {
                let slice = &draws[range.first_batch as usize..(range.first_batch + range.batch_count) as usize];
                let batches =
                    &prepared.batches[range.first_batch as usize..(range.first_batch + range.batch_count) as usize];
                let want: HashMap<u32, u32> = batches
                    .iter()
                    .enumerate()
                    .map(|(i, b)| (b.first_instance, counts[range.first_batch as usize + i]))
                    .filter(|&(_, c)| !compact || c > 0)
                    .collect();
                let used = if compact { draw_counts[v] as usize } else { slice.len() };
                assert_eq!(used, want.len(), "{label}: variant {v} draw count");
                let got: HashMap<u32, u32> =
                    slice[..used].iter().map(|d| (d.first_instance, d.instance_count)).collect();
                assert_eq!(got.len(), used, "{label}: variant {v} has a batch drawn twice");
                assert_eq!(got, want, "{label}: variant {v} draws differ from the batch counts");
                slice[..used].iter().for_each(check_bounds);
            }
        }
        DrawMode::GpuPerObject => {
            let mut seen = BTreeSet::new();
            for (v, range) in prepared.variants.iter().enumerate() {
                let count = draw_counts[v] as usize;
                assert!(count <= range.object_count as usize, "{label}: variant {v} count over its objects");
                for d in &draws[range.first_object as usize..range.first_object as usize + count] {
                    check_bounds(d);
                    assert_eq!(d.instance_count, 1, "{label}: per-object draw must draw one instance");
                    let drawn = identity_draw(d, prepared, identity_base as u32, n as u32, label);
                    assert_eq!(prepared.batches[drawn.batch as usize].variant, v as u32);
                    assert!(seen.insert(drawn), "{label}: object {} drawn twice", drawn.id);
                }
            }
            for &d in &blended {
                assert!(seen.insert(d), "{label}: object {} drawn twice", d.id);
            }
            assert_same_but_boundary(&seen, &expected, &boundary, &format!("{label}: per-object (object, level) set"));
        }
        DrawMode::Cpu | DrawMode::Bundle => unreachable!("not a GPU-culled mode"),
    }
    expected.len()
}

fn check_count(ctx: &GpuContext, objects: u32, workgroup_size: u32) {
    let scene = common::scene(objects, true);
    let mut renderer = Renderer::with_workgroup_size(ctx, &scene, COLOR_FORMAT, workgroup_size).expect("renderer");
    let mut visible_somewhere = objects == 0;
    let mut coarse_somewhere = objects < 100;
    for (c, camera) in cameras(&scene).into_iter().enumerate() {
        for (mode, time, detail) in [
            (DrawMode::Gpu, 0.0, Detail::FULL),
            (DrawMode::Gpu, 3.7, Detail::default()),
            (DrawMode::GpuNocount, 1.3, Detail::FULL),
            (DrawMode::GpuNocount, 1.3, Detail::default()),
            (DrawMode::GpuPerObject, 2.1, Detail::FULL),
            (DrawMode::GpuPerObject, 2.1, Detail::default()),
        ] {
            let label = format!("{objects} objects, camera {c}, {mode}, t={time}, lod {}", detail.lod);
            let visible = check_frame(ctx, &mut renderer, camera, time, mode, detail, &label);
            visible_somewhere |= visible > 0;
            if detail.lod {
                let uniforms =
                    renderer.frame_uniforms(&FrameInput { time, detail, ..FrameInput::new(camera, mode) }, 64, 48);
                let prepared = &renderer.prepared;
                coarse_somewhere |=
                    cpu::cull(&uniforms, &prepared.objects, &prepared.batches).1.levels[1..].iter().any(|&n| n > 0);
                continue;
            }
            if c == 3 {
                assert_eq!(visible, objects as usize, "{label}: a camera far away sees everything");
            }
            if c == 4 {
                assert_eq!(visible, 0, "{label}: a camera looking away sees nothing");
            }
        }
    }
    assert!(visible_somewhere, "{objects} objects: no camera saw anything; the test would prove nothing");
    assert!(coarse_somewhere, "{objects} objects: no object was ever drawn at a coarser level; LOD went untested");
}

/// The cull's hierarchy (cells tested before their objects, `gpu_scene::cells`) draws the
/// same objects as the flat cull, counted the same, on the CPU reference: from every test
/// camera, over the animation, with and without levels of detail, and as a shadow cascade
/// (its own frustum and caster test). It must also have rejected cells, or it proves nothing.
#[test]
fn the_hierarchy_culls_what_the_flat_cull_culls() {
    let ctx = common::context();
    let scene = common::scene(20_000, true);
    let mut renderer = Renderer::new(&ctx, &scene, COLOR_FORMAT).expect("renderer");
    let order = renderer.buffers.cull_order.clone();
    let prepared = renderer.prepared.clone();
    let (mut skipped, mut compared) = (0usize, 0usize);
    let mut check = |uniforms: &FrameUniforms, label: &str| {
        let (flat, flat_counts) = cpu::cull(uniforms, &prepared.objects, &prepared.batches);
        let (walked, counts) = cpu::cull_hierarchy(uniforms, &prepared.objects, &prepared.batches, &order);
        let (flat, walked): (BTreeSet<_>, BTreeSet<_>) = (flat.into_iter().collect(), walked.into_iter().collect());
        assert_eq!(walked, flat, "{label}: the hierarchy's objects");
        assert_eq!(counts, flat_counts, "{label}: the hierarchy's counts");
        let records = order.records(&prepared.objects);
        skipped += (0..order.cell_count())
            .filter(|&cell| cpu::cell_rejected(uniforms, &records[order.ids.len() + cell]))
            .count();
        compared += 1;
    };
    for (c, camera) in cameras(&scene).into_iter().enumerate() {
        for time in [0.0, 2.5, 41.0] {
            for detail in [Detail::FULL, Detail::default()] {
                let input = FrameInput { time, detail, ..FrameInput::new(camera, DrawMode::Gpu) };
                let uniforms = renderer.frame_uniforms(&input, 320, 180);
                check(&uniforms, &format!("camera {c}, t={time}, lod {}", detail.lod));
            }
        }
    }
    // A shadow cascade's view of the same frame: its orthographic frustum and caster test.
    let input = FrameInput::new(scene.camera, DrawMode::Gpu).with_shadows(4);
    let target = OffscreenTarget::new(&ctx.device, 320, 180);
    renderer.render(&ctx, &target.frame_target(), &input);
    ctx.wait_idle();
    let view = renderer.frame_uniforms(&input, 320, 180);
    for (k, cascade) in renderer.cascades(0).iter().enumerate() {
        let uniforms = FrameUniforms {
            view_proj: cascade.view_proj,
            cull_planes: frustum_planes(cascade.view_proj),
            orthographic: 1,
            small_factor: 2.0 / cascade.texel_size,
            blend_list: 0,
            caster_sweep: cascade.caster_sweep,
            caster_planes: cascade.caster_planes,
            ..view
        };
        check(&uniforms, &format!("cascade {k}"));
    }
    assert!(compared > 30 && skipped > 0, "{compared} views, {skipped} cells rejected: the test proves nothing");
}

#[test]
fn gpu_culling_matches_cpu_for_small_counts() {
    let ctx = common::context();
    for objects in [0, 1, 63, 64, 65] {
        check_count(&ctx, objects, WORKGROUP_SIZE);
    }
}

#[test]
fn gpu_culling_matches_cpu_for_100k_objects() {
    let ctx = common::context();
    check_count(&ctx, 100_000, WORKGROUP_SIZE);
}

#[test]
fn gpu_culling_matches_cpu_past_65535_workgroups() {
    // 300,000 objects at 4 threads per workgroup need 75,000 workgroups: more than one
    // dispatch dimension holds, so the dispatch is split over y. (At the default 64 threads,
    // that would take 4.2M objects, more than lavapipe's 128 MiB storage binding holds.)
    let (objects, workgroup_size) = (300_000, 4);
    let (x, y, _) = dispatch_size(objects, workgroup_size);
    assert!(y > 1 && x <= 65_535, "the test must need a 2D dispatch, got {x}×{y}");
    let ctx = common::context();
    check_count(&ctx, objects, workgroup_size);
}

#[test]
fn dispatch_covers_every_object_exactly() {
    for (threads, wg) in
        [(0, 64), (1, 64), (64, 64), (65, 64), (4_194_240, 64), (4_194_241, 64), (300_000, 4), (10_000_000, 64)]
    {
        let (x, y, width) = dispatch_size(threads, wg);
        assert!(x <= 65_535 && y <= 65_535, "{threads}/{wg}: {x}×{y}");
        assert_eq!(width, x * wg);
        assert!(x as u64 * y as u64 * wg as u64 >= threads as u64, "{threads}/{wg}: {x}×{y} too small");
    }
}
