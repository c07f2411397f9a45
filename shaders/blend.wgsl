//! Pass "blend sort": one workgroup orders the blended objects the last culling phase listed
//! (`list_blended` in `shaders/cull.wgsl`: a key and the object's id tagged with its level, two
//! words each in `instances[frame.blend_key_base..]`, `COUNTER_BLEND` of them) from the
//! farthest to the nearest, then writes one indirect draw per object, in that order, to
//! `draws[frame.blend_draw_base..]`, which the blended pass ("blend") hands to one multi-draw.
//!
//! The sort is a bitonic network over the list padded to a power of two with keys that sort
//! last; every comparison is on (key, tagged id), a total order, so the result is the same
//! whatever the order the cull pass listed them in (its atomics race), and the CPU baseline
//! (`passes::cull::cpu`) sorts to the same order. One workgroup runs every stage, so the
//! commands recorded do not depend on the count. Stages whose pairs lie within a chunk of
//! `LOCAL_KEYS` run in workgroup memory, a chunk at a time; only the wider ones read and write
//! the list in place (log(n / LOCAL_KEYS) of them per merge), so up to `LOCAL_KEYS` objects the
//! list is read once and written once (docs/BENCHMARKS.md § "Blending").
//!
//! Without a count buffer (`frame.compact` 0) every slot up to `frame.blend_capacity` is
//! written, those past the list empty; or, where the blended pass is pulled
//! (`frame.blend_pulled`), no slot: four words per object to `instances[frame.blend_pull_base..]`
//! in the same order and one `DrawIndirectArgs` to slot `frame.blend_capacity` of the blend
//! draws, whose vertex count is the largest index count listed and whose instances are the
//! objects (`vs_pulled` in `shaders/draw.wgsl`), so the pass is one draw call at any count.
//!
//! The same pipeline with `OCCLUDERS` on is the occluder sort (recorded in the build pass,
//! `passes::build`): it orders the large opaque objects the first culling phase listed
//! (`list_occluder` in `shaders/cull.wgsl`, behind `COUNTER_OCCLUDERS`) nearest first and
//! writes their draws to `draws[frame.occluder_draw_base..]`, which the first main pass draws
//! before any batch. Only where the frame has a draw count; never pulled.

// Bindings: groups `frame`, `cull io` and `hiz`, declared from their tables in
// src/gpu_scene/layout.rs ahead of this file (the same declarations as the cull pass).

/// Which list this pipeline sorts: the blended objects (farthest first, their keys say so) or
/// the occluders (nearest first).
override OCCLUDERS: bool = false;

/// The sorted list's counter, first key word, room and first draw slot.
fn list_counter() -> u32 {
    return select(COUNTER_BLEND, COUNTER_OCCLUDERS, OCCLUDERS);
}

fn key_base() -> u32 {
    return select(frame.blend_key_base, frame.occluder_key_base, OCCLUDERS);
}

fn list_capacity() -> u32 {
    return select(frame.blend_capacity, frame.occluder_capacity, OCCLUDERS);
}

fn draw_base() -> u32 {
    return select(frame.blend_draw_base, frame.occluder_draw_base, OCCLUDERS);
}

const SORT_THREADS: u32 = 256u;
/// Keys a chunk holds in workgroup memory (8 KiB, within the default 16 KiB limit).
const LOCAL_KEYS: u32 = 1024u;
/// A padding key: after every real one.
const PAST_THE_END: u32 = 0xffffffffu;

/// The list's length, read once by one thread and handed to all as a uniform value.
var<workgroup> listed: u32;
/// The largest index count of the listed objects: the pulled draw's vertex count.
var<workgroup> most_indices: atomic<u32>;
/// The chunk being sorted in workgroup memory.
var<workgroup> chunk_keys: array<vec2<u32>, LOCAL_KEYS>;

fn key_at(i: u32) -> vec2<u32> {
    let word = key_base() + 2u * i;
    return vec2<u32>(instances[word], instances[word + 1u]);
}

fn set_key(i: u32, key: vec2<u32>) {
    let word = key_base() + 2u * i;
    instances[word] = key.x;
    instances[word + 1u] = key.y;
}

/// Whether `a` sorts before `b`: by key, then by tagged id.
fn precedes(a: vec2<u32>, b: vec2<u32>) -> bool {
    return a.x < b.x || (a.x == b.x && a.y < b.y);
}

/// Whether the pair (a, b) at positions i < i + stride of a merge of `block`-long runs must be
/// swapped: runs whose `block` bit is clear sort ascending, the others descending, so each
/// merge of two runs sees a bitonic sequence.
fn must_swap(a: vec2<u32>, b: vec2<u32>, i: u32, block: u32) -> bool {
    return precedes(b, a) == ((i & block) == 0u);
}

/// The first element of pair `p` of a stage whose pairs are `stride` apart (a power of two).
fn pair_start(p: u32, stride: u32) -> u32 {
    return ((p & ~(stride - 1u)) << 1u) | (p & (stride - 1u));
}

/// One stage on the list in place: `size / 2` pairs.
fn global_stage(size: u32, block: u32, stride: u32, thread: u32) {
    for (var p = thread; p < size / 2u; p += SORT_THREADS) {
        let i = pair_start(p, stride);
        let a = key_at(i);
        let b = key_at(i + stride);
        if must_swap(a, b, i, block) {
            set_key(i, b);
            set_key(i + stride, a);
        }
    }
}

/// One stage on the chunk in workgroup memory that starts at `base` of the list.
fn chunk_stage(base: u32, chunk: u32, block: u32, stride: u32, thread: u32) {
    for (var p = thread; p < chunk / 2u; p += SORT_THREADS) {
        let i = pair_start(p, stride);
        let a = chunk_keys[i];
        let b = chunk_keys[i + stride];
        if must_swap(a, b, base + i, block) {
            chunk_keys[i] = b;
            chunk_keys[i + stride] = a;
        }
    }
}

fn load_chunk(base: u32, chunk: u32, thread: u32) {
    for (var j = thread; j < chunk; j += SORT_THREADS) {
        chunk_keys[j] = key_at(base + j);
    }
    workgroupBarrier();
}

fn store_chunk(base: u32, chunk: u32, thread: u32) {
    workgroupBarrier();
    for (var j = thread; j < chunk; j += SORT_THREADS) {
        set_key(base + j, chunk_keys[j]);
    }
    workgroupBarrier();
}

/// The bitonic sort of the first `size` (a power of two, at least 2) keys.
fn sort_keys(size: u32, thread: u32) {
    let chunk = min(size, LOCAL_KEYS);
    // Each chunk sorted on its own: every merge up to runs of the chunk's length.
    for (var base = 0u; base < size; base += chunk) {
        load_chunk(base, chunk, thread);
        for (var block = 2u; block <= chunk; block = block << 1u) {
            for (var stride = block >> 1u; stride > 0u; stride = stride >> 1u) {
                chunk_stage(base, chunk, block, stride, thread);
                workgroupBarrier();
            }
        }
        store_chunk(base, chunk, thread);
    }
    storageBarrier();
    // Longer merges: their wide stages in place, then the narrow ones chunk by chunk.
    for (var block = chunk << 1u; block <= size; block = block << 1u) {
        for (var stride = block >> 1u; stride >= chunk; stride = stride >> 1u) {
            global_stage(size, block, stride, thread);
            storageBarrier();
        }
        for (var base = 0u; base < size; base += chunk) {
            load_chunk(base, chunk, thread);
            for (var stride = chunk >> 1u; stride > 0u; stride = stride >> 1u) {
                chunk_stage(base, chunk, block, stride, thread);
                workgroupBarrier();
            }
            store_chunk(base, chunk, thread);
        }
        storageBarrier();
    }
}

/// The batch (mesh and level) that draws a listed object, its id tagged with its level.
fn batch_of(tagged: u32) -> GpuBatch {
    let slot = instances[frame.cull_slot_base + (tagged & ((1u << LEVEL_SHIFT) - 1u))];
    return batches[cull_records[slot].batch + (tagged >> LEVEL_SHIFT)];
}

@compute @workgroup_size(SORT_THREADS)
fn sort(@builtin(local_invocation_index) thread: u32) {
    if thread == 0u {
        listed = min(atomicLoad(&draw_counts[list_counter()]), list_capacity());
        atomicStore(&most_indices, 0u);
    }
    let n = workgroupUniformLoad(&listed);
    // The list's length rounded up to a power of two (0 for an empty list).
    var size = min(n, 1u);
    while size < n {
        size = size << 1u;
    }
    for (var i = n + thread; i < size; i += SORT_THREADS) {
        set_key(i, vec2<u32>(PAST_THE_END));
    }
    storageBarrier();
    // (A list of 0 or 1 is sorted; the loops below assume at least 2.)
    if size > 1u {
        sort_keys(size, thread);
    }
    let id_mask = (1u << LEVEL_SHIFT) - 1u;
    if frame.blend_pulled != 0u && !OCCLUDERS {
        for (var i = thread; i < n; i += SORT_THREADS) {
            let tagged = key_at(i).y;
            let batch = batch_of(tagged);
            let word = frame.blend_pull_base + 4u * i;
            instances[word] = tagged;
            instances[word + 1u] = batch.first_index;
            instances[word + 2u] = bitcast<u32>(batch.base_vertex);
            instances[word + 3u] = batch.index_count;
            atomicMax(&most_indices, batch.index_count);
        }
        workgroupBarrier();
        if thread == 0u {
            // `DrawIndirectArgs` in the first four words: vertex count, instance count,
            // first vertex, first instance.
            let vertices = atomicLoad(&most_indices);
            draws[frame.blend_draw_base + frame.blend_capacity] = DrawIndexedIndirectArgs(vertices, n, 0u, 0, 0u);
        }
        return;
    }
    for (var i = thread; i < list_capacity(); i += SORT_THREADS) {
        var args = DrawIndexedIndirectArgs(0u, 0u, 0u, 0, 0u);
        if i < n {
            let tagged = key_at(i).y;
            let id = tagged & id_mask;
            let level = tagged >> LEVEL_SHIFT;
            let batch = batch_of(tagged);
            args.index_count = batch.index_count;
            args.instance_count = 1u;
            args.first_index = batch.first_index;
            args.base_vertex = batch.base_vertex;
            args.first_instance = frame.identity_base + level * frame.object_count + id;
        }
        if i < n || frame.compact == 0u {
            draws[draw_base() + i] = args;
        }
    }
}
