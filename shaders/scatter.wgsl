//! Pass "scatter": copies the object records changed since the last frame into `objects[]`,
//! one thread per record, before anything reads them.
//!
//! The CPU gathers the changed records into one upload (`updates`): a header of
//! `UPDATE_HEADER_WORDS` words (the record count, then the threads per row of the dispatch),
//! then per record `UPDATE_WORDS` words: the object id it replaces and the record's words.
//! Every id appears once, so no two threads write one record. Records are copied as words and
//! never read as `GpuObject`s, so the pass needs no struct layout and no float goes through
//! an ALU (NaN payloads and signed zeros arrive as written).

// Bindings: group `scatter io` (`updates`, `object_words`) and the upload's layout
// constants, declared from its table in src/gpu_scene/layout.rs ahead of this file.

@compute @workgroup_size(WORKGROUP_SIZE)
fn scatter(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.x + gid.y * updates[1];
    if index >= updates[0] {
        return;
    }
    let entry = UPDATE_HEADER_WORDS + index * UPDATE_WORDS;
    let destination = updates[entry] * OBJECT_WORDS;
    for (var word = 0u; word < OBJECT_WORDS; word++) {
        object_words[destination + word] = updates[entry + 1u + word];
    }
}
