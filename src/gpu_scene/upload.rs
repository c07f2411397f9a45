//! How the scatter pass's upload is laid out (`passes::scatter`, `shaders/scatter.wgsl`): a
//! header, then records of words, each naming where its words go in `objects[]` and
//! `cull_records[]`. The same numbers reach the shader as constants of group `scatter io`.

/// Words of one `GpuObject` record.
pub const OBJECT_WORDS: u32 = (std::mem::size_of::<super::types::GpuObject>() / 4) as u32;
/// Words of one `GpuCullRecord`.
pub const CULL_WORDS: u32 = (std::mem::size_of::<super::types::GpuCullRecord>() / 4) as u32;
/// Words of the scatter upload's header: the number of records, the threads per row of the
/// dispatch, two unused (16 bytes).
pub const UPDATE_HEADER_WORDS: u32 = 4;
/// Words of one record of the scatter upload: the object id it replaces, its slot in
/// `cull_records[]`, then its `GpuObject`, then its `GpuCullRecord`.
pub const UPDATE_WORDS: u32 = 2 + OBJECT_WORDS + CULL_WORDS;
/// The id of a scatter record that updates only `cull_records[]` (a cell's bounds).
pub const NO_OBJECT: u32 = u32::MAX;

/// The scatter upload's layout as WGSL constants.
pub(super) fn wgsl_constants() -> String {
    format!(
        "const OBJECT_WORDS: u32 = {OBJECT_WORDS}u;\n\
         const CULL_WORDS: u32 = {CULL_WORDS}u;\n\
         const NO_OBJECT: u32 = {NO_OBJECT}u;\n\
         const UPDATE_HEADER_WORDS: u32 = {UPDATE_HEADER_WORDS}u;\n\
         const UPDATE_WORDS: u32 = {UPDATE_WORDS}u;\n"
    )
}
