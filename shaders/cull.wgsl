//! Pass "cull" (and "cull late"): one thread per slot of the cull order decides whether and at
//! which level of detail the slot's object is drawn.
//!
//! The tests, in order (`classify`): the animated bounding sphere against the culling frustum;
//! the size test (projected bounds below the pixel threshold: culled); the level of detail
//! (`select_level`: the coarsest level whose error, projected at the object's nearest
//! distance, stays below the error threshold); and, in the second phase of occlusion culling,
//! the depth-pyramid test (`is_occluded`). `passes::cull::cpu` does the same arithmetic in the
//! same order on the CPU.
//!
//! Phases: without occlusion culling one pass draws everything that passes (`PHASE_ONLY`).
//! With it, `PHASE_EARLY` draws the objects the previous frame found visible (their bit in
//! `visibility[]`), the main pass draws them and the pyramid pass reduces their depth; then
//! `PHASE_LATE` tests every object against the frustum and the pyramid, draws the visible ones
//! the first phase did not draw, and writes every object's bit for the next frame: set where
//! visible and not hidden, except that in a frame that marks (`frame.mark_seen`) the bits of
//! the objects the compute rasteriser would draw stay clear for the mark dispatch to set from
//! its pixels (`marked_later`, `shaders/mark.wgsl`). Objects
//! crossing the near plane count as visible, so the first frame, a camera jump or a resize
//! costs time, never a missing object.
//!
//! What a thread reads, in the batched output (`reads_record`; the per-object output reads
//! every record, since it writes every object's draw): the cull walks the objects in the order
//! of `gpu_scene::cells` (by batch, orbit class and place), slot `s` holding object
//! `instances[frame.cull_order_base + s]`, and every `CELL_OBJECTS` slots make a cell whose
//! bounding sphere follows the objects' records in `cull_records[]`. A thread reads its cell's
//! record first and stops where the cell fails the frustum (or a cascade's caster test): none
//! of its objects could pass. The first phase reads the slot's visibility bit before anything
//! else and stops where it is clear. Only then does it read the object's `GpuCullRecord` (48
//! bytes: the bounding sphere's centre in three parts that the spin and orbit turn, its radius,
//! batch and animation classes), never its 96-byte `GpuObject`: the cull of a large scene is a
//! stream over these records, so their size is its cost (docs/BENCHMARKS.md § "The cull reads
//! less"). Visibility bits are per slot.
//!
//! Output, batched (`PER_OBJECT` false): a drawn object takes the next slot of batch
//! `object.batch + level` and writes its id there, with the level above `LEVEL_SHIFT`; each
//! group of 32 threads reserves its slots with one atomicAdd per batch it draws into
//! (`append`), so that the batches' few counters do not serialise millions of adds. A batch's
//! slice of `instances[]` has room for every object of its (variant, mesh), so no prefix sum
//! is needed. Per object (`PER_OBJECT` true, mode gpu-per-object): one indirect command per
//! object, whose `first_instance` is the object's slot in the identity range of its level;
//! compacted behind a count when `frame.compact` is 1, otherwise one per object with
//! instance_count 0 or 1.
//!
//! Small objects the compute rasteriser can draw (`is_soft`) are listed in
//! `instances[frame.soft_base..]` instead (reserved the same way), and counted as drawn here
//! (the build pass counts only batches): from slot 0 behind the `COUNTER_SOFT` count, or,
//! where the list has room for masked objects apart (`frame.soft_masked_capacity`, on a CPU
//! adapter: `passes::raster::masked_apart`), those of masked materials from slot
//! `frame.soft_masked_base` behind `COUNTER_SOFT_MASKED`, for a raster pipeline of their own.
//!
//! A view's occluders (`is_occluder`: opaque objects the hardware draws whose sphere projects
//! past `OCCLUDER_MIN_RADIUS_PX`, where `frame.occluder_capacity` gives the list room: gpu
//! mode's first or only phase) are listed with their distance behind `COUNTER_OCCLUDERS`
//! instead (`list_occluder`), for the build pass's occluder sort and the first main pass's
//! first multi-draw; those past the list's room go to their batch.
//!
//! Blended objects (variant `VARIANT_BLEND`) are never batched: the last phase (`PHASE_ONLY` or
//! `PHASE_LATE`, whatever their visibility bit says) lists each visible one with its sort key
//! behind the `COUNTER_BLEND` count, for the blend sort (`shaders/blend.wgsl`), and counts it
//! as drawn here; the first phase draws none, so nothing blended is in the depth pyramid. Views
//! with `frame.blend_list` 0 (shadow cascades) leave blended objects out altogether (`takes`):
//! tested, counted and drawn as if they were not there.
//!
//! Counters (`draw_counts[COUNTER_*]`, read back through a ring) are summed per workgroup
//! first, so each costs one global atomic per workgroup instead of one per object.
//!
//! Dispatches larger than 65,535 workgroups are split over y; `frame.dispatch_width` is the
//! number of threads in one row.

// Bindings: groups `frame`, `cull io` and `hiz`, declared from their tables in
// src/gpu_scene/layout.rs ahead of this file.

const PHASE_ONLY: u32 = 0u;
const PHASE_EARLY: u32 = 1u;
const PHASE_LATE: u32 = 2u;

/// This workgroup's share of `draw_counts[COUNTER_VISIBLE..]`, same order.
var<workgroup> workgroup_counts: array<atomic<u32>, COUNTER_SLOTS>;

fn object_index(gid: vec3<u32>) -> u32 {
    return gid.x + gid.y * frame.dispatch_width;
}

fn count(slot: u32, n: u32) {
    if n > 0u {
        atomicAdd(&workgroup_counts[slot - COUNTER_VISIBLE], n);
    }
}

/// Adds `n` to the workgroup's 64-bit triangle count (two words, low first).
fn count_triangles(n: u32) {
    let low = COUNTER_TRIANGLES - COUNTER_VISIBLE;
    let old = atomicAdd(&workgroup_counts[low], n);
    if old > 0xffffffffu - n {
        atomicAdd(&workgroup_counts[low + 1u], 1u);
    }
}

/// Zeroes the workgroup's counters. Called from uniform control flow by every thread.
fn begin_counts(local_index: u32) {
    for (var i = local_index; i < COUNTER_SLOTS; i += WORKGROUP_SIZE) {
        atomicStore(&workgroup_counts[i], 0u);
    }
    workgroupBarrier();
}

/// Adds the workgroup's counters to the global ones. Called from uniform control flow by
/// every thread.
fn flush_counts(local_index: u32) {
    workgroupBarrier();
    for (var i = local_index; i < COUNTER_SLOTS; i += WORKGROUP_SIZE) {
        let slot = COUNTER_VISIBLE + i;
        let n = atomicLoad(&workgroup_counts[i]);
        if slot == COUNTER_TRIANGLES {
            let high = atomicLoad(&workgroup_counts[i + 1u]);
            let old = atomicAdd(&draw_counts[slot], n);
            let carry = select(0u, 1u, old > 0xffffffffu - n);
            if high + carry > 0u {
                atomicAdd(&draw_counts[slot + 1u], high + carry);
            }
        } else if slot != COUNTER_TRIANGLES + 1u && n > 0u {
            atomicAdd(&draw_counts[slot], n);
        }
    }
}

/// The centre of the object's bounding sphere at the frame's time (`animate_point` of its
/// bounds' centre, from the record's three parts: `GpuCullRecord`).
fn animated_center(object: GpuCullRecord) -> vec3<f32> {
    let spin = spin_of(object.animation);
    let placed = spin.x * object.spin_cos + spin.y * object.spin_sin + object.fixed;
    return rotate_y(placed, orbit_of(object.animation));
}

/// Whether `reach` (a distance beyond the sphere's surface) is at most the sphere's nearest
/// distance from the camera, `sqrt(distance_sq) - radius`, compared in squares (no square
/// root: the CPU reference gets the same answer). False when the camera is inside the sphere.
fn within_nearest(reach: f32, radius: f32, distance_sq: f32) -> bool {
    let far = reach + radius;
    return far * far <= distance_sq;
}

/// The coarsest level whose projected error is at most the threshold; level 0 when LOD is off
/// or the camera is inside the bounds. In a shadow cascade, the coarser of that and the
/// coarsest level whose error is within the threshold over the filter's slope in the cascade's
/// texels (`shadow_lod_factor`, `SHADOW_FILTER_SLOPE`).
fn select_level(object: GpuCullRecord, radius: f32, distance_sq: f32) -> u32 {
    if frame.lod_enabled == 0u {
        return 0u;
    }
    let first = object.batch;
    for (var level = min(batches[first].level_count, LOD_LEVELS) - 1u; level > 0u; level--) {
        let error = batches[first + level].relative_error * radius;
        if within_nearest(error * frame.lod_factor, radius, distance_sq) {
            return level;
        }
        if frame.orthographic != 0u && error * frame.shadow_lod_factor <= 1.0 {
            return level;
        }
    }
    return 0u;
}

/// Whether the object's projected bounds are below the size threshold: in a perspective view
/// at its nearest distance, in an orthographic one (a shadow cascade) at any distance.
fn is_too_small(radius: f32, distance_sq: f32) -> bool {
    if frame.orthographic != 0u {
        return frame.small_enabled != 0u && radius * frame.small_factor < 1.0;
    }
    let far = radius * frame.small_factor + radius;
    return frame.small_enabled != 0u && far * far < distance_sq;
}

/// Whether the sphere is certainly hidden behind the depth pyramid, seen by the camera the
/// pyramid was drawn from (`frame.occlusion_view_proj`): its nearest depth (the
/// nearest corner of its bounding box) is farther than the farthest depth of every pyramid
/// texel under its screen rectangle, read at the level where the rectangle is at most
/// `OCCLUSION_TEST_TEXELS` texels wide and high (so up to one more under it each way).
/// Anything at or behind the eye plane counts as visible.
fn is_occluded(center: vec3<f32>, radius: f32) -> bool {
    if frame.pyramid_levels == 0u {
        return false;
    }
    var lo = vec2<f32>(1.0);
    var hi = vec2<f32>(-1.0);
    var nearest = 1.0;
    for (var corner = 0u; corner < 8u; corner++) {
        let offset = vec3<f32>(
            select(-radius, radius, (corner & 1u) != 0u),
            select(-radius, radius, (corner & 2u) != 0u),
            select(-radius, radius, (corner & 4u) != 0u),
        );
        let clip = frame.occlusion_view_proj * vec4<f32>(center + offset, 1.0);
        if clip.w <= 0.0 {
            return false;
        }
        let ndc = clip.xyz / clip.w;
        lo = min(lo, ndc.xy);
        hi = max(hi, ndc.xy);
        nearest = min(nearest, ndc.z);
    }
    if nearest <= 0.0 {
        return false;
    }
    // NDC to texture coordinates (y down), clamped to the screen.
    let uv_lo = clamp(vec2<f32>(lo.x * 0.5 + 0.5, 0.5 - hi.y * 0.5), vec2<f32>(0.0), vec2<f32>(1.0));
    let uv_hi = clamp(vec2<f32>(hi.x * 0.5 + 0.5, 0.5 - lo.y * 0.5), vec2<f32>(0.0), vec2<f32>(1.0));
    let extent = (uv_hi - uv_lo) * vec2<f32>(frame.pyramid_size);
    let wanted = u32(ceil(log2(max(max(extent.x, extent.y) / OCCLUSION_TEST_TEXELS, 1.0))));
    let level = min(wanted, frame.pyramid_levels - 1u);
    let size = max(frame.pyramid_size >> vec2<u32>(level), vec2<u32>(1u));
    let first = min(vec2<u32>(uv_lo * vec2<f32>(size)), size - 1u);
    let last = min(vec2<u32>(uv_hi * vec2<f32>(size)), size - 1u);
    var farthest = 0.0;
    for (var y = first.y; y <= last.y; y++) {
        for (var x = first.x; x <= last.x; x++) {
            farthest = max(farthest, textureLoad(pyramid, vec2<u32>(x, y), i32(level)).x);
        }
    }
    return nearest > farthest;
}

/// What the tests decided for one object in one phase.
struct Decision {
    draw: bool,
    level: u32,
    /// Drawn by the compute rasteriser (`shaders/raster.wgsl`) rather than the hardware.
    soft: bool,
    /// Listed as an occluder: drawn first in the first main pass, nearest first.
    occluder: bool,
}

/// Whether the compute rasteriser may draw the object at `level`: it is marked for it
/// (`SOFT_BIT`), the level has few enough triangles to number them in a payload, and its
/// bounding sphere projects within `SOFT_MAX_RADIUS_PX` wherever it is on screen, so every
/// triangle fits the raster pass's window and the sphere lies well in front of the camera.
/// Off the view axis by θ a sphere's image stretches radially by 1 / cos²θ (2.4× at the
/// corners of a 60°, 16:9 view; far more in a wide one), so the test is
/// `r · f / (d − r) ≤ SOFT_MAX_RADIUS_PX · cos²θ` with `cos θ = w / d` (`w` the centre's
/// depth along the view axis, `d` its distance, `f` the focal length in pixels).
fn is_soft(object: GpuCullRecord, level: u32, center: vec3<f32>, radius: f32, distance_sq: f32) -> bool {
    if frame.soft_enabled == 0u || (object.animation & SOFT_BIT) == 0u
        || batches[object.batch + level].index_count > 3u * SOFT_MAX_TRIANGLES {
        return false;
    }
    // A shadow cascade's texels are the same size everywhere: `soft_factor` is one over the
    // largest radius in world units.
    if frame.orthographic != 0u {
        return radius * frame.soft_factor <= 1.0;
    }
    let w = (frame.view_proj * vec4<f32>(center, 1.0)).w;
    let distance = sqrt(distance_sq);
    if w <= radius || distance <= radius {
        return false;
    }
    return radius * frame.soft_factor * distance_sq <= (distance - radius) * w * w;
}

/// In a shadow cascade (`caster_sweep.w` > 0), whether the object's shadow can reach the part
/// of the view that reads the cascade: whether its sphere, swept along the sunlight for at
/// most `caster_sweep.w`, meets the widened volume `caster_planes` (some t in that range puts
/// `center + t · sweep` inside every plane moved out by `radius`). `passes::cull::cpu::casts_into`
/// is the same test on the CPU.
fn casts_into_view(center: vec3<f32>, radius: f32) -> bool {
    if frame.caster_sweep.w == 0.0 {
        return true;
    }
    var earliest = 0.0;
    var latest = frame.caster_sweep.w;
    for (var i = 0u; i < 6u; i++) {
        let plane = frame.caster_planes[i];
        let height = dot(plane.xyz, center) + plane.w + radius;
        let rate = dot(plane.xyz, frame.caster_sweep.xyz);
        if rate > 0.0 {
            earliest = max(earliest, -height / rate);
        } else if rate < 0.0 {
            latest = min(latest, height / -rate);
        } else if height < 0.0 {
            return false;
        }
    }
    return earliest <= latest;
}

/// Whether a visible object's bit is left to the frame's mark dispatch (`frame.mark_seen`,
/// `shaders/mark.wgsl`): the compute rasteriser would draw it, so the bit is set only if one
/// of its pixels is in the frame's visibility buffer at the end. The pyramid test passes
/// many objects behind the nearest ones (a texel keeps the farthest depth of the pixels it
/// covers, so one gap lets through what lies behind it), and with moving objects those
/// differ from frame to frame: as bits, they were drawn in the next frame's first phase
/// while others newly let through went to its second, frame after frame
/// (docs/BENCHMARKS.md § "Visibility from the pixels").
fn marked_later(object: GpuCullRecord, level: u32, center: vec3<f32>, radius: f32, distance_sq: f32, blended: bool) -> bool {
    if frame.mark_seen == 0u || blended {
        return false;
    }
    return is_soft(object, level, center, radius, distance_sq);
}

/// Whether a sphere is in the view: the frustum, and in a shadow cascade the caster test. What
/// an object must pass, and a cell that holds it (`cell_may_hold_visible`).
fn in_view(center: vec3<f32>, radius: f32) -> bool {
    return sphere_in_frustum(center, radius) && casts_into_view(center, radius);
}

/// The decision for the object in the cull's slot `slot` (its visibility bit's index), whose
/// record is `object`.
fn classify(slot: u32, object: GpuCullRecord, phase: u32, blended: bool) -> Decision {
    var decision = Decision(false, 0u, false, false);
    let counting = phase != PHASE_EARLY;
    let center = animated_center(object);
    let radius = object.radius;
    let to_camera = center - frame.lod_origin.xyz;
    let distance_sq = dot(to_camera, to_camera);
    let culling = frame.cull_enabled != 0u;
    var visible = !culling || in_view(center, radius);
    if visible && counting {
        count(COUNTER_IN_FRUSTUM, 1u);
    }
    if visible && culling && is_too_small(radius, distance_sq) {
        visible = false;
        if counting {
            count(COUNTER_TOO_SMALL, 1u);
        }
    }
    if visible && counting {
        count(COUNTER_VISIBLE, 1u);
    }
    if visible {
        decision.level = select_level(object, radius, distance_sq);
    }
    switch phase {
        case PHASE_EARLY: {
            decision.draw = visible && visibility[slot] != 0u && !blended;
        }
        case PHASE_LATE: {
            if visible && culling && is_occluded(center, radius) {
                visible = false;
                count(COUNTER_OCCLUDED, 1u);
            }
            decision.draw = visible && (visibility[slot] == 0u || blended);
            // Nested, not `&&`: naga evaluates both sides of `&&` when the right one calls.
            var seen = visible;
            if seen {
                seen = !marked_later(object, decision.level, center, radius, distance_sq, blended);
            }
            visibility[slot] = select(0u, 1u, seen);
        }
        default: {
            decision.draw = visible;
        }
    }
    decision.soft = decision.draw && !blended && is_soft(object, decision.level, center, radius, distance_sq);
    // Nested, not `&&`: naga evaluates both sides of `&&` when the right one calls, and only a
    // first phase's hardware objects need the batch and the projection.
    if decision.draw && !decision.soft && phase != PHASE_LATE && frame.occluder_capacity > 0u {
        if batches[object.batch].variant == VARIANT_OPAQUE {
            decision.occluder = is_occluder(center, radius, distance_sq);
        }
    }
    return decision;
}

/// Whether an object the hardware draws is one of the view's occluders: its bounding sphere
/// projects to more than `OCCLUDER_MIN_RADIUS_PX` (the compute rasteriser's test, `is_soft`,
/// at that radius), or crosses the camera's plane. Its first main pass draws those first, nearest
/// first, so the fragments of what they hide fail the depth test rather than being written and
/// written over (docs/BENCHMARKS.md § "Occluders first").
fn is_occluder(center: vec3<f32>, radius: f32, distance_sq: f32) -> bool {
    let w = (frame.view_proj * vec4<f32>(center, 1.0)).w;
    let distance = sqrt(distance_sq);
    if w <= radius || distance <= radius {
        return true;
    }
    return radius * frame.occluder_factor * distance_sq > (distance - radius) * w * w;
}

/// Whether the object is blended: drawn by the blend sort's draws, not from a batch.
fn is_blended(object: GpuCullRecord) -> bool {
    return batches[object.batch].variant == VARIANT_BLEND;
}

/// Whether the object's material is masked: its pixels pass an alpha test.
fn is_masked(object: GpuCullRecord) -> bool {
    return batches[object.batch].variant == VARIANT_MASKED;
}

/// The blend sort's key of an object whose bounding sphere is centred at `center`: the bits of
/// its squared distance from the drawing camera, complemented so that an ascending sort puts
/// the farthest first (non-negative floats order as their bits).
fn blend_key(center: vec3<f32>) -> u32 {
    let to_camera = center - frame.camera_position.xyz;
    return ~bitcast<u32>(dot(to_camera, to_camera));
}

/// Whether the view has the object at all: a shadow cascade (`frame.blend_list` 0) has no
/// blended objects, which cast no shadow.
fn takes(blended: bool) -> bool {
    return !blended || frame.blend_list != 0u;
}

/// Writes a drawn blended object into slot `at` of the blend sort's list and counts it as
/// drawn (`phase` is the last one).
fn list_blended(at: u32, id: u32, object: GpuCullRecord, level: u32, phase: u32) {
    // Cannot fail: each blended object is listed once per view; kept so a corrupt table can
    // never write past the keys.
    if at >= frame.blend_capacity {
        return;
    }
    let center = animated_center(object);
    instances[frame.blend_key_base + 2u * at] = blend_key(center);
    instances[frame.blend_key_base + 2u * at + 1u] = id | (level << LEVEL_SHIFT);
    count(select(COUNTER_DRAWN_EARLY, COUNTER_DRAWN_LATE, phase == PHASE_LATE), 1u);
    count(COUNTER_LEVELS + level, 1u);
    count_triangles(batches[object.batch + level].index_count / 3u);
}

/// Writes an occluder into slot `at` of the occluder sort's list, keyed by the distance from
/// the camera to its bounding sphere (non-negative floats order as their bits, so the sort
/// puts the nearest first), and counts it as drawn; false when the list is full (its batch
/// draws it then).
fn list_occluder(at: u32, id: u32, object: GpuCullRecord, level: u32, phase: u32) -> bool {
    if at >= frame.occluder_capacity {
        return false;
    }
    let to_camera = animated_center(object) - frame.camera_position.xyz;
    let nearest = max(length(to_camera) - object.radius, 0.0);
    instances[frame.occluder_key_base + 2u * at] = bitcast<u32>(nearest);
    instances[frame.occluder_key_base + 2u * at + 1u] = id | (level << LEVEL_SHIFT);
    count(select(COUNTER_DRAWN_EARLY, COUNTER_DRAWN_LATE, phase == PHASE_LATE), 1u);
    count(COUNTER_LEVELS + level, 1u);
    count_triangles(batches[object.batch + level].index_count / 3u);
    return true;
}

/// Writes a drawn object into slot `at` of its part of the compute rasteriser's list (the
/// masked objects' or the rest's) and counts it as drawn; false when that part is full (the
/// hardware draws it then).
fn list_soft(at: u32, masked: bool, id: u32, object: GpuCullRecord, level: u32, phase: u32) -> bool {
    let room = select(frame.soft_masked_base, frame.soft_masked_capacity, masked);
    if at >= room {
        return false;
    }
    let first = select(0u, frame.soft_masked_base, masked);
    instances[frame.soft_base + first + at] = id | (level << LEVEL_SHIFT);
    count(select(COUNTER_DRAWN_EARLY, COUNTER_DRAWN_LATE, phase == PHASE_LATE), 1u);
    count(COUNTER_LEVELS + level, 1u);
    count_triangles(batches[object.batch + level].index_count / 3u);
    return true;
}

/// Writes a drawn object into slot `at` of its batch's slice of `instances[]`.
fn list_batched(at: u32, id: u32, batch: u32, level: u32) {
    // Cannot fail while every object belongs to exactly one (variant, mesh); kept so a
    // corrupt batch table can never write outside its slice.
    if at < batches[batch].capacity {
        instances[batches[batch].first_instance + at] = id | (level << LEVEL_SHIFT);
    }
}

/// Whether cell `slot / CELL_OBJECTS` of the cull's hierarchy may hold an object this view
/// draws: its bounding sphere (`gpu_scene::cells`), turned by its orbit, passes the frustum
/// and, in a shadow cascade, the caster test. The sphere holds its members', so a rejected
/// cell holds no object the tests would pass; with culling off every cell passes.
fn cell_may_hold_visible(slot: u32) -> bool {
    if frame.cull_enabled == 0u {
        return true;
    }
    let cell = cull_records[frame.object_count + slot / CELL_OBJECTS];
    let center = animated_center(cell);
    let radius = cell.radius + cell_slack(center);
    return in_view(center, radius);
}

/// How much a cell's sphere is widened for the rounding of the tests' sums (`CELL_SLACK`).
fn cell_slack(center: vec3<f32>) -> f32 {
    var largest = frame.caster_sweep.w;
    for (var i = 0u; i < 6u; i++) {
        largest = max(largest, max(abs(frame.cull_planes[i].w), abs(frame.caster_planes[i].w)));
    }
    let c = abs(center);
    return CELL_SLACK * (largest + c.x + c.y + c.z);
}

/// What a thread appends to: nothing, a part of the compute rasteriser's list, the blend
/// sort's, or (any other value) the slice of the batch of that index.
const APPEND_NOTHING: u32 = 0xffffffffu;
const APPEND_SOFT: u32 = 0xfffffffeu;
const APPEND_BLEND: u32 = 0xfffffffdu;
const APPEND_SOFT_MASKED: u32 = 0xfffffffcu;
const APPEND_OCCLUDER: u32 = 0xfffffffbu;

/// Threads that share one atomicAdd per list (`append`): 32, or the workgroup where smaller.
/// Each thread that names a list scans its group's keys, so a larger group makes a longer scan
/// and a smaller one more atomics; 32 cost least of 64, 32, 16 and 8 (docs/BENCHMARKS.md §
/// "The cull's append in groups of 32").
const APPEND_GROUP: u32 = min(WORKGROUP_SIZE, 32u);

/// Each thread's list (`APPEND_*` or a batch), then the first slot its group got in it.
var<workgroup> append_keys: array<u32, WORKGROUP_SIZE>;
var<workgroup> append_bases: array<u32, WORKGROUP_SIZE>;

/// Reserves one slot in list `key` for every thread of the workgroup that names one, with one
/// atomicAdd per list named in each group of `APPEND_GROUP` threads rather than one per
/// thread (the lists' counters are few, and thousands of workgroups adding to them one object
/// at a time wait on each other), and returns this thread's slot: the group's first slot in
/// the list plus the threads before this one in the group that named it. Called from uniform
/// control flow by every thread.
fn append(local_index: u32, key: u32) -> u32 {
    append_keys[local_index] = key;
    workgroupBarrier();
    var rank = 0u;
    var leader = local_index;
    if key != APPEND_NOTHING {
        var total = 0u;
        // Within the thread's group of `APPEND_GROUP` threads, so the scan stays short in a
        // large workgroup.
        let group = local_index - local_index % APPEND_GROUP;
        for (var other = group; other < min(group + APPEND_GROUP, WORKGROUP_SIZE); other++) {
            if append_keys[other] == key {
                if other < local_index {
                    rank++;
                    leader = min(leader, other);
                }
                total++;
            }
        }
        if leader == local_index {
            var first = 0u;
            if key == APPEND_SOFT {
                first = atomicAdd(&draw_counts[COUNTER_SOFT], total);
            } else if key == APPEND_SOFT_MASKED {
                first = atomicAdd(&draw_counts[COUNTER_SOFT_MASKED], total);
            } else if key == APPEND_BLEND {
                first = atomicAdd(&draw_counts[COUNTER_BLEND], total);
            } else if key == APPEND_OCCLUDER {
                first = atomicAdd(&draw_counts[COUNTER_OCCLUDERS], total);
            } else {
                first = atomicAdd(&batch_counts[key], total);
            }
            append_bases[local_index] = first;
        }
    }
    workgroupBarrier();
    return append_bases[leader] + rank;
}

/// Whether the thread of cull slot `slot` needs its object's record: the first phase draws
/// only what the previous frame saw (its visibility bit, read before the record), and no phase
/// reads the objects of a cell the view cannot see. The second phase clears the bits of the
/// objects it does not read (outside the frustum: not visible).
fn reads_record(slot: u32, phase: u32) -> bool {
    if phase == PHASE_EARLY && visibility[slot] == 0u {
        return false;
    }
    if cell_may_hold_visible(slot) {
        return true;
    }
    if phase == PHASE_LATE {
        visibility[slot] = 0u;
    }
    return false;
}

fn cull_batched(gid: vec3<u32>, local_index: u32, phase: u32) {
    begin_counts(local_index);
    let slot = object_index(gid);
    var key = APPEND_NOTHING;
    var id = 0u;
    var level = 0u;
    var object: GpuCullRecord;
    // Two `if`s, not `&&`: `reads_record` may write a visibility bit, and only a slot in range
    // may get there whatever the compiler does with `&&`.
    var reads = false;
    if slot < frame.object_count {
        reads = reads_record(slot, phase);
    }
    if reads {
        object = cull_records[slot];
        let blended = is_blended(object);
        var decision = Decision(false, 0u, false, false);
        if takes(blended) {
            decision = classify(slot, object, phase, blended);
        }
        id = instances[frame.cull_order_base + slot];
        level = decision.level;
        if decision.soft {
            key = APPEND_SOFT;
            // Nested, not `&&`: naga evaluates both sides of `&&` when the right one calls,
            // and a list of one part need not read the batch.
            if frame.soft_masked_capacity > 0u {
                if is_masked(object) {
                    key = APPEND_SOFT_MASKED;
                }
            }
        } else if decision.draw && blended {
            key = APPEND_BLEND;
        } else if decision.occluder {
            key = APPEND_OCCLUDER;
        } else if decision.draw {
            key = object.batch + level;
        }
    }
    let at = append(local_index, key);
    if key == APPEND_SOFT || key == APPEND_SOFT_MASKED {
        if !list_soft(at, key == APPEND_SOFT_MASKED, id, object, level, phase) {
            // The list is full: the hardware draws it.
            let batch = object.batch + level;
            list_batched(atomicAdd(&batch_counts[batch], 1u), id, batch, level);
        }
    } else if key == APPEND_BLEND {
        list_blended(at, id, object, level, phase);
    } else if key == APPEND_OCCLUDER {
        if !list_occluder(at, id, object, level, phase) {
            // The list is full: drawn from its batch, after the listed ones.
            let batch = object.batch + level;
            list_batched(atomicAdd(&batch_counts[batch], 1u), id, batch, level);
        }
    } else if key != APPEND_NOTHING {
        list_batched(at, id, key, level);
    }
    flush_counts(local_index);
}

fn cull_per_object(gid: vec3<u32>, local_index: u32, phase: u32) {
    begin_counts(local_index);
    let slot = object_index(gid);
    if slot < frame.object_count {
        let object = cull_records[slot];
        let id = instances[frame.cull_order_base + slot];
        let blended = is_blended(object);
        var decision = Decision(false, 0u, false, false);
        if takes(blended) {
            decision = classify(slot, object, phase, blended);
        }
        let drawn_here = decision.draw && !blended;
        if decision.draw && blended {
            list_blended(atomicAdd(&draw_counts[COUNTER_BLEND], 1u), id, object, decision.level, phase);
        }
        let batch = batches[object.batch + decision.level];
        var args: DrawIndexedIndirectArgs;
        args.index_count = batch.index_count;
        args.instance_count = select(0u, 1u, drawn_here);
        args.first_index = batch.first_index;
        args.base_vertex = batch.base_vertex;
        args.first_instance = frame.identity_base + decision.level * frame.object_count + id;
        if drawn_here {
            count(select(COUNTER_DRAWN_EARLY, COUNTER_DRAWN_LATE, phase == PHASE_LATE), 1u);
            count(COUNTER_LEVELS + decision.level, 1u);
            count_triangles(batch.index_count / 3u);
        }
        if frame.compact != 0u {
            if drawn_here {
                let at = atomicAdd(&draw_counts[batch.variant], 1u);
                draws[batch.variant_first_object + at] = args;
            }
        } else {
            draws[id] = args;
        }
    }
    flush_counts(local_index);
}

/// The pipeline's variant, set by `passes::cull::CullVariant` through override constants: the
/// phase, and whether the output is one draw per object.
override PHASE: u32 = PHASE_ONLY;
override PER_OBJECT: bool = false;

@compute @workgroup_size(WORKGROUP_SIZE)
fn cull(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) local_index: u32) {
    if PER_OBJECT {
        cull_per_object(gid, local_index, PHASE);
    } else {
        cull_batched(gid, local_index, PHASE);
    }
}
