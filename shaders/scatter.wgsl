//! Pass "scatter": copies the object records changed since the last frame into `objects[]`,
//! and their cull records into `cull_records[]`, one thread per record, before anything reads
//! them.
//!
//! The CPU gathers the changed records into one upload (`updates`): a header of
//! `UPDATE_HEADER_WORDS` words (the record count, then the threads per row of the dispatch),
//! then per record `UPDATE_WORDS` words: the object id it replaces, its slot in the cull's
//! order, the `GpuObject`'s words, then the `GpuCullRecord`'s (made on the CPU from the same
//! record). A cell of the cull's hierarchy whose bounds changed goes up the same way, with id
//! `NO_OBJECT` and the cell's slot in `cull_records[]` (after the objects').
//! Every id and every slot appears once (a cell's records carry `NO_OBJECT`, which writes no
//! object), so no two threads write one record. Records are copied as words and
//! never read as `GpuObject`s, so the pass needs no struct layout and no float goes through
//! an ALU (NaN payloads and signed zeros arrive as written).

// Bindings: group `scatter io` (`updates`, `object_words`, `cull_words`) and the upload's layout
// constants (src/gpu_scene/upload.rs), declared from its table in src/gpu_scene/layout.rs ahead
// of this file.

@compute @workgroup_size(WORKGROUP_SIZE)
fn scatter(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.x + gid.y * updates[1];
    if index >= updates[0] {
        return;
    }
    let entry = UPDATE_HEADER_WORDS + index * UPDATE_WORDS;
    let id = updates[entry];
    let slot = updates[entry + 1u];
    if id != NO_OBJECT {
        for (var word = 0u; word < OBJECT_WORDS; word++) {
            object_words[id * OBJECT_WORDS + word] = updates[entry + 2u + word];
        }
    }
    for (var word = 0u; word < CULL_WORDS; word++) {
        cull_words[slot * CULL_WORDS + word] = updates[entry + 2u + OBJECT_WORDS + word];
    }
}
