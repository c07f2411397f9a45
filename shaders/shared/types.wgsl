//! Structs shared by every pass. Each has exactly one Rust twin in `gpu_scene::types`; the
//! `host_structs_match_wgsl` test parses this file with naga and checks sizes and member
//! offsets against it.

/// Per-frame data, written by the CPU once per frame (bind group `frame`).
struct FrameUniforms {
    /// Projection * view of the camera that draws.
    view_proj: mat4x4<f32>,
    /// Frustum planes (xyz = inward normal, w = distance) of the camera that culls. It differs
    /// from the drawing camera only when culling is frozen.
    cull_planes: array<vec4<f32>, 6>,
    camera_position: vec4<f32>,
    /// xyz = unit direction towards the sun, w unused.
    light_direction: vec4<f32>,
    /// Per animation class: (cos orbit, sin orbit, cos spin, sin spin).
    animation: array<vec4<f32>, ANIMATION_CLASSES>,
    object_count: u32,
    batch_count: u32,
    /// 0 draws every object (culling disabled), 1 culls against `cull_planes`.
    cull_enabled: u32,
    /// 1: the build pass compacts non-empty batches and counts them; 0: one draw per batch,
    /// empty ones included (for `multi_draw_indexed_indirect` without a count buffer).
    compact: u32,
    /// Threads per row of a dispatch split over two dimensions.
    dispatch_width: u32,
    /// First slot of the identity ranges of `instances[]`: one per level of detail, each with
    /// one entry per object.
    identity_base: u32,
    time: f32,
    /// xyz: the culling camera's position, from which LOD and object sizes are judged.
    lod_origin: vec4<f32>,
    /// 1: pick a level of detail per object (`select_level`); 0: level 0 always.
    lod_enabled: u32,
    /// A level of relative error `e` is fine enough for an object of radius `r` at nearest
    /// distance `d` when `e * r * lod_factor <= d`.
    lod_factor: f32,
    /// 1: cull objects whose projected bounds are below the size threshold (`is_too_small`).
    small_enabled: u32,
    /// Too small when `r * small_factor < d`.
    small_factor: f32,
    /// Size of the depth pyramid's level 0 (0 x 0 without occlusion culling).
    pyramid_size: vec2<u32>,
    pyramid_levels: u32,
    /// 0: shaded normally; 1: objects coloured by their level of detail.
    debug_view: u32,
    /// 1: fragment colour is sRGB-encoded in the shader (`target_encoded`), for a target
    /// without sRGB encoding; 0: written linear.
    encode_srgb: u32,
    /// Projection * view of the camera whose depth the pyramid holds: the drawing camera's,
    /// or, while culling is frozen, the camera the pyramid was last built from.
    occlusion_view_proj: mat4x4<f32>,
    /// Width and height of the colour target, in pixels.
    target_size: vec2<f32>,
    /// 1: small objects with `SOFT_BIT` go to the compute rasteriser (`soft_objects`); 0: none.
    soft_enabled: u32,
    /// An object of bounding radius `r` at nearest distance `d` is small enough for it when
    /// `r · soft_factor ≤ d` (in an orthographic view, when `r · soft_factor ≤ 1`).
    soft_factor: f32,
    /// First slot of the frame's list of compute-rasterised objects in `instances[]`.
    soft_base: u32,
    /// Slot of that list where its second part, the objects of masked materials, starts: also
    /// the room of the first part (`cull.wgsl`'s `list_soft`).
    soft_masked_base: u32,
    /// The room of the list's second part.
    soft_masked_capacity: u32,
    /// 1: an orthographic view (a shadow cascade): an object's size is judged in its texels,
    /// `2r · small_factor`, whatever its distance (LOD is still judged from `lod_origin`).
    orthographic: u32,
    /// Cascades of the sun's shadow map the view's surfaces read (`shadow_of`); 0: unshadowed.
    shadow_cascades: u32,
    /// Per cascade: the view depth (along `camera_forward`) where it ends.
    shadow_splits: vec4<f32>,
    /// Per cascade: the world size of one of its texels (the normal offset's unit).
    shadow_texel: vec4<f32>,
    /// Per cascade: world space to the cascade's clip space.
    shadow_view_proj: array<mat4x4<f32>, MAX_CASCADES>,
    /// The inverse of `view_proj`: a fragment's window position and depth back to world space.
    inverse_view_proj: mat4x4<f32>,
    /// xyz: the drawing camera's unit forward vector (view depth = `dot(p − camera, forward)`).
    camera_forward: vec4<f32>,
    /// rgb: the sun's colour × illuminance.
    light_color: vec4<f32>,
    /// Multiplies the frame's light before tone mapping.
    exposure: f32,
    /// 1: Khronos PBR Neutral (`tone_map_neutral`); 0: none.
    tone_mapping: u32,
    /// Mip levels of the environment's radiance map: level k is prefiltered for roughness
    /// k / (levels − 1).
    environment_levels: u32,
    /// 1: the last culling phase lists blended objects for the blend sort
    /// (`shaders/blend.wgsl`); 0 (shadow cascades): blended objects are not drawn.
    blend_list: u32,
    /// Blended objects of the scene: the room of the blend sort's draws.
    blend_capacity: u32,
    /// First word of the blend sort's keys in `instances[]`, two words per key: the sort key
    /// (farther first), then the object id tagged with its level.
    blend_key_base: u32,
    /// First slot of the blend sort's draws in `draws[]`.
    blend_draw_base: u32,
    /// 1: the blended pass is one instanced draw of `vs_pulled` (no draw count, arenas bound
    /// as storage): the blend sort writes, farthest first, four words per object to
    /// `instances[blend_pull_base..]` (the object id tagged with its level, its first index,
    /// base vertex and index count) and the draw's arguments (`DrawIndirectArgs`: the
    /// largest index count, the objects) to `draws[blend_draw_base + blend_capacity]`;
    /// 0: one draw per blended object in `draws[blend_draw_base..]`.
    blend_pulled: u32,
    /// First word of the pulled blended pass's objects in `instances[]`.
    blend_pull_base: u32,
    /// First word of the triangle ids' table in `instances[]`, four words per batch
    /// (`shaders/shared/visibility.wgsl`).
    triangle_table_base: u32,
    /// A shadow cascade's caster test (`casts_into_view` in `shaders/cull.wgsl`): xyz the
    /// direction sunlight travels, w how far a shadow can run (> 0: only casters whose shadow
    /// can reach the view's slice are kept), 0 in a view's own uniforms.
    caster_sweep: vec4<f32>,
    /// The planes (xyz · p + w ≥ 0 inside, unit xyz) of the part of the view's frustum whose
    /// surfaces read the cascade, widened by the cascade's filter reach.
    caster_planes: array<vec4<f32>, 6>,
    /// First word in `instances[]` of the object id of each of the cull's slots
    /// (`gpu_scene::cells`).
    cull_order_base: u32,
    /// First word in `instances[]` of each object's slot in the cull order.
    cull_slot_base: u32,
    /// A shadow cascade's own level-of-detail test (`e · r · shadow_lod_factor ≤ 1`); 0: none.
    shadow_lod_factor: f32,
    /// 1: the blended pass also tests against `soft_depth`, the compute rasteriser's pixels
    /// that a composite in compute left out of the depth buffer; 0: not.
    soft_depth_test: u32,
    /// 1: the first main pass left the colour target as it was, and the composite in compute
    /// writes `background` where no surface was drawn; 0: the clear did, or the caller keeps
    /// its colour there.
    paint_background: u32,
    /// The clear colour as the clear would have stored it, read without sRGB encoding.
    background: vec4<f32>,
    /// Room of the view's occluder list (`is_occluder` in shaders/cull.wgsl); 0: none, every
    /// object is drawn from its batch.
    occluder_capacity: u32,
    /// First word of the occluder sort's keys in `instances[]` (two words per key).
    occluder_key_base: u32,
    /// First slot of the occluders' sorted draws in `draws[]`.
    occluder_draw_base: u32,
    /// An object of bounding radius `r` at distance `d` is an occluder when `r · occluder_factor
    /// > d` (measured as `is_soft` measures, with the stretch off the view axis).
    occluder_factor: f32,
    /// 1: the frame's mark dispatch (`shaders/mark.wgsl`) sets the visibility bit of every
    /// object that holds a pixel of the compute rasteriser's visibility buffer, so the second
    /// phase leaves the bits of the objects the compute rasteriser would draw clear; 0: it
    /// sets the bit of every object it finds visible and not hidden.
    mark_seen: u32,
}

/// The prefilter's parameters (`shaders/environment.wgsl`, `passes::environment`): the sky,
/// and the level being written.
struct EnvironmentParams {
    /// rgb: radiance straight up (× the intensity).
    zenith: vec4<f32>,
    /// rgb: radiance at the horizon.
    horizon: vec4<f32>,
    /// rgb: radiance from below the horizon.
    ground: vec4<f32>,
    /// The radiance level's roughness.
    roughness: f32,
    /// Samples per texel.
    samples: u32,
    _pad: vec2<u32>,
}

/// One object (group 1 `objects[]`), uploaded once. Objects are sorted by batch.
struct GpuObject {
    /// Model matrix at time 0.
    model: mat4x4<f32>,
    /// xyz = centre of the mesh's bounding sphere in object space, w = world-space radius.
    bounds: vec4<f32>,
    mesh: u32,
    material: u32,
    batch: u32,
    /// Low 16 bits: orbit class, high 16 bits: spin class (class 0 does not move).
    animation: u32,
}

/// The words of an object the cull passes read (group 1 `cull_records[]` of the cull, build
/// and blend passes), made on the CPU from its `GpuObject` (`GpuCullRecord::of` in
/// src/gpu_scene/types.rs): its bounding sphere's centre, spun by (cos s, sin s) and placed,
/// is `cos s · spin_cos + sin s · spin_sin + fixed`, before the orbit.
struct GpuCullRecord {
    spin_cos: vec3<f32>,
    /// World-space radius of the bounding sphere.
    radius: f32,
    spin_sin: vec3<f32>,
    batch: u32,
    fixed: vec3<f32>,
    animation: u32,
}

/// One batch = (mesh, level of detail, pipeline variant); owns a fixed slice of `instances[]`.
struct GpuBatch {
    first_index: u32,
    index_count: u32,
    base_vertex: i32,
    /// Start of this batch's slice of `instances[]` (= its first object).
    first_instance: u32,
    /// Objects in this batch = length of its slice.
    capacity: u32,
    variant: u32,
    /// First batch of this batch's variant: where the variant's draws start in `draws[]`.
    variant_first_batch: u32,
    /// First object of this batch's variant: where per-object draws of the variant start.
    variant_first_object: u32,
    /// Level of detail this batch draws.
    level: u32,
    /// Levels of this batch's mesh. The batches of one (variant, mesh) are consecutive, level
    /// 0 first; an object's `batch` is its level-0 batch, `batch + level` the one it joins.
    level_count: u32,
    /// This level's object-space error divided by the mesh's bounding radius.
    relative_error: f32,
}

/// One material (group 1 `materials[]`).
/// How a material reads one texture.
struct GpuTextureRef {
    /// The texture coordinates' transform (KHR_texture_transform): linear part as columns
    /// (xy, zw), then `offset`.
    transform: vec4<f32>,
    offset: vec2<f32>,
    /// Layer in its size class's array, or -1 for none.
    layer: i32,
    /// Size class (0: the smallest), which picks the array of its role.
    size_class: u32,
    /// Wrap modes: u in bits 0-1, v in bits 2-3 (WRAP_REPEAT, WRAP_CLAMP_TO_EDGE,
    /// WRAP_MIRRORED_REPEAT); then log2 of the copies of the image the layer holds along u
    /// (bits 4-7) and v (bits 8-11): a non-square image, kept at its aspect (`wrapped_uv`).
    wrap: u32,
    /// Texture-coordinate set: 0 (TEXCOORD_0) or 1 (TEXCOORD_1).
    uv_set: u32,
    /// Normal maps: the scale of the tangent-space normal's x and y.
    scale: f32,
    _pad: u32,
}

struct GpuMaterial {
    base_color: vec4<f32>,
    base_color_texture: GpuTextureRef,
    normal_texture: GpuTextureRef,
    variant: u32,
    alpha_cutoff: f32,
    /// READS_TANGENT | READS_UV1: the optional vertex inputs the vertex shader fetches.
    vertex_inputs: u32,
    /// 1: `KHR_materials_unlit`, drawn without light.
    unlit: u32,
    /// rgb: the light emitted (`Material::emissive`).
    emissive: vec4<f32>,
    metallic: f32,
    /// Perceptual roughness.
    roughness: f32,
    /// 1: a blended material whose back faces are drawn too.
    double_sided: u32,
    _pad: u32,
    /// B: metalness, G: roughness, multiplying the factors (a linear layer).
    metallic_roughness_texture: GpuTextureRef,
    /// R: ambient occlusion; `scale` its strength (a linear layer).
    occlusion_texture: GpuTextureRef,
    /// Multiplies `emissive` (an sRGB layer).
    emissive_texture: GpuTextureRef,
}

/// The compute rasteriser's indirect arguments of a phase (`RasterArgs` in Rust), written by
/// the build pass: the dispatch of its objects without an alpha test
/// (`wgpu::util::DispatchIndirectArgs`: workgroups per axis), its resolve's draw
/// (`wgpu::util::DrawIndirectArgs`), then the dispatch of its masked objects.
struct RasterArgs {
    workgroups_x: u32,
    workgroups_y: u32,
    workgroups_z: u32,
    vertex_count: u32,
    instance_count: u32,
    first_vertex: u32,
    first_instance: u32,
    masked_workgroups_x: u32,
    masked_workgroups_y: u32,
    masked_workgroups_z: u32,
}

/// `wgpu::util::DrawIndexedIndirectArgs`, as the GPU writes it.
struct DrawIndexedIndirectArgs {
    index_count: u32,
    instance_count: u32,
    first_index: u32,
    base_vertex: i32,
    first_instance: u32,
}
