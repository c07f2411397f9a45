//! What names a pixel of the deferred variants' `ids` target (`passes::deferred`,
//! `shaders/draw_vis.wgsl`): one 32-bit triangle id. The ids are numbered batch after batch
//! (`PreparedScene::triangle_table`, uploaded to `instances[frame.triangle_table_base..]`, four
//! words per batch: its first id, its first object, its level's triangles, its level), each
//! object of a batch's slice taking its level's triangles in turn, so an id needs neither the
//! frame's instance slots nor a second word. Ids stay below `DRAWN_TEXTURED_BIT`, which the
//! target's words carry beside them; `NO_IDS` names none. Appended to the groups that
//! bind `instances` and `materials` beside `frame` (`gpu_scene::layout`).

/// The id of triangle 0 of object `id` drawn by batch `batch`.
fn first_triangle_id(batch: u32, id: u32) -> u32 {
    let row = frame.triangle_table_base + 4u * batch;
    return instances[row] + (id - instances[row + 1u]) * instances[row + 2u];
}

/// The entry (the object id tagged with its level, as `instances[]` holds it) and the triangle
/// within its level's index range that triangle id `triangle_id` (untagged) names: its batch is the last
/// whose first id is not above it (a binary search of the table; batches of no triangles share
/// their successor's first id and come before it).
fn named_triangle(triangle_id: u32) -> vec2<u32> {
    var low = 0u;
    var high = max(frame.batch_count, 1u);
    while high - low > 1u {
        let middle = (low + high) / 2u;
        if instances[frame.triangle_table_base + 4u * middle] <= triangle_id {
            low = middle;
        } else {
            high = middle;
        }
    }
    let row = frame.triangle_table_base + 4u * low;
    let within = triangle_id - instances[row];
    let triangles = max(instances[row + 2u], 1u);
    let id = instances[row + 1u] + within / triangles;
    return vec2<u32>(id | (instances[row + 3u] << LEVEL_SHIFT), within % triangles);
}

/// Whether material `m` reads a texture: the compute rasteriser's and the deferred pixels'
/// lists put its pixels in the textured one (`shaders/shade_list.wgsl`).
fn material_textured(m: u32) -> bool {
    return materials[m].base_color_texture.layer >= 0 || materials[m].normal_texture.layer >= 0
        || materials[m].metallic_roughness_texture.layer >= 0 || materials[m].occlusion_texture.layer >= 0
        || materials[m].emissive_texture.layer >= 0;
}
