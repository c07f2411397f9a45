//! Pass "main": every way of drawing (GPU-driven, CPU baseline, bundles) goes through these
//! entry points under one pipeline layout, so the modes differ only in who writes the draws.
//!
//! The vertex shader finds its object through `instances[instance_index]`:
//! `instance_index` includes `first_instance` (INDIRECT_FIRST_INSTANCE), which is the start of
//! a batch's slice for GPU-driven draws and the object's slot in its level's identity range
//! (`identity_base + level × objects + object`) for per-object draws. Each entry carries the
//! level of detail above `LEVEL_SHIFT`, for the LOD debug view.
//!
//! Variants (one pipeline each, same layout): opaque (`fs_opaque`, back faces culled),
//! masked (`fs_masked`, discards below the material's alpha cutoff), double-sided
//! (`fs_opaque` without back-face culling; lighting uses the facing normal) and debug
//! (`fs_debug`, one colour per mesh).
//!
//! Textures: a material names per role (base colour, normal map) a size class (one texture
//! array per class and role), a layer, a texture-coordinate set and its transform
//! (`GpuTextureRef`). Picking the array is a `switch` (`sample_base_color_class`,
//! `sample_normal_class`, generated from the `textures` table), non-uniform control flow
//! where `textureSample` is not allowed, so each fragment entry point takes the UV
//! derivatives of both coordinate sets first, in uniform flow (`surface_uv`), and every texture read is a
//! `textureSampleLevel` at the level they give (`mip_level`): trilinear, mip level from the
//! unwrapped coordinates, so folding them for clamp and mirror modes makes no seam.

// Bindings: groups `frame`, `scene` and `textures`, declared from their tables in
// src/gpu_scene/layout.rs ahead of this file.

/// What this pipeline's fragments read beyond position, normal, material and level: the
/// renderer sets each from the materials of the pipeline's variant (`passes::main::SurfaceInputs`).
/// Off, the values it needs are constants the fragment shader does not read and the driver drops
/// them: on the H200 the main pass of small triangles is bound by what the vertex shader hands
/// the rasteriser (docs/BENCHMARKS.md § "Vertex inputs and the main pass").
///
/// Vertex colours and a normal map's second coordinate set.
override OPTIONAL_SURFACE_INPUTS: bool = true;
/// Texture coordinates: a material of the variant has a texture.
override SURFACE_TEXTURES: bool = true;
/// Tangents: a material of the variant has a normal map.
override NORMAL_MAPS: bool = true;

/// The vertex buffer's attributes (`GpuVertex`); the optional inputs (tangent, colour,
/// TEXCOORD_1) are read from the scene group's arrays by vertex index, only for the objects that
/// use them (`vertex_extras`).
struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
}

/// The optional vertex inputs: what `vertex_extras` fetches, or their defaults.
struct VertexExtras {
    /// xyz: unit tangent; w: the bitangent's sign. Zero when the mesh has none.
    tangent: vec4<f32>,
    /// Linear RGBA (glTF COLOR_0), white when the mesh has none.
    color: vec4<f32>,
    uv1: vec2<f32>,
}

/// The optional inputs of vertex `index` that the object's material (its `vertex_inputs`) and
/// mesh (VERTEX_COLORS_BIT) use; defaults for the rest, without reading them.
fn vertex_extras(index: u32, object: GpuObject, inputs: u32) -> VertexExtras {
    var extras = VertexExtras(vec4<f32>(0.0), vec4<f32>(1.0), vec2<f32>(0.0));
    if NORMAL_MAPS && (inputs & READS_TANGENT) != 0u {
        let packed = vertex_tangents[index];
        extras.tangent = vec4<f32>(unpack2x16snorm(packed.x), unpack2x16snorm(packed.y));
    }
    if (inputs & READS_UV1) != 0u {
        extras.uv1 = vertex_uv1[index];
    }
    if (object.animation & VERTEX_COLORS_BIT) != 0u {
        let packed = vertex_colors[index];
        extras.color = vec4<f32>(unpack2x16unorm(packed.x), unpack2x16unorm(packed.y));
    }
    return extras;
}

/// Packed into as few locations as the values allow: on NVIDIA the main pass of small
/// triangles is bound by the vertex outputs, and every location costs a four-component slot.
struct VertexOut {
    @builtin(position) clip_position: vec4<f32>,
    /// xyz: world normal; w: the vertex colour's alpha.
    @location(0) normal_alpha: vec4<f32>,
    /// xyz: world tangent; w: the bitangent's sign.
    @location(1) world_tangent: vec4<f32>,
    /// xy: the material's main coordinate set (MAIN_SET_1); zw: the other one.
    @location(2) uvs: vec4<f32>,
    /// The vertex colour's rgb.
    @location(3) color: vec3<f32>,
    /// Material, mesh, and the level of detail with VERTEX_COLORS_BIT and MAIN_SET_BIT (the
    /// fragment shader reads no material field to know them).
    @location(4) @interpolate(flat) ids: vec3<u32>,
}

@vertex
fn vs_main(
    vertex: VertexIn,
    @builtin(vertex_index) index: u32,
    @builtin(instance_index) instance: u32,
) -> VertexOut {
    return vertex_out(vertex, index, instances[instance]);
}

/// The blended pass where it is one draw (`frame.blend_pulled`, `shaders/blend.wgsl`):
/// instance `slot` draws the blend sort's `slot`-th object (farthest first; instances are
/// drawn in order), its vertex `corner` the object's `corner`-th index, read with the vertex
/// from the arenas. The draw's vertex count is the largest index count of its objects: the
/// corners past an object's own count (whole triangles, as counts are multiples of three) are
/// placed outside the clip volume, so they draw nothing.
@vertex
fn vs_pulled(@builtin(vertex_index) corner: u32, @builtin(instance_index) slot: u32) -> VertexOut {
    let word = frame.blend_pull_base + 4u * slot;
    if corner >= instances[word + 3u] {
        var outside: VertexOut;
        outside.clip_position = vec4<f32>(2.0, 2.0, 0.5, 1.0);
        return outside;
    }
    let index = u32(bitcast<i32>(instances[word + 2u]) + i32(indices[instances[word + 1u] + corner]));
    let v = 8u * index;
    let vertex = VertexIn(
        vec3<f32>(vertex_words[v], vertex_words[v + 1u], vertex_words[v + 2u]),
        vec3<f32>(vertex_words[v + 3u], vertex_words[v + 4u], vertex_words[v + 5u]),
        vec2<f32>(vertex_words[v + 6u], vertex_words[v + 7u]),
    );
    return vertex_out(vertex, index, instances[word]);
}

/// Vertex `vertex` (number `index` in the arena, for the optional inputs) of the object
/// `entry` names (its id tagged with its level).
fn vertex_out(vertex: VertexIn, index: u32, entry: u32) -> VertexOut {
    let object = objects[entry & ((1u << LEVEL_SHIFT) - 1u)];
    let world = animate_point(object, vertex.position);
    var out: VertexOut;
    out.clip_position = frame.view_proj * vec4<f32>(world, 1.0);
    out.normal_alpha = vec4<f32>(animate_direction(object, vertex.normal), 1.0);
    out.world_tangent = vec4<f32>(0.0);
    out.uvs = vec4<f32>(0.0);
    out.color = vec3<f32>(1.0);
    var flags = 0u;
    if SURFACE_TEXTURES || OPTIONAL_SURFACE_INPUTS {
        let inputs = materials[object.material].vertex_inputs;
        let extras = vertex_extras(index, object, inputs);
        out.normal_alpha.w = extras.color.a;
        if any(extras.tangent != vec4<f32>(0.0)) {
            out.world_tangent = vec4<f32>(animate_direction(object, extras.tangent.xyz), extras.tangent.w);
        }
        let main_is_1 = (inputs & MAIN_SET_1) != 0u;
        out.uvs = select(vec4<f32>(vertex.uv, extras.uv1), vec4<f32>(extras.uv1, vertex.uv), main_is_1);
        out.color = extras.color.rgb;
        flags = (object.animation & VERTEX_COLORS_BIT) | select(0u, MAIN_SET_BIT, main_is_1);
    }
    out.ids = vec3<u32>(object.material, object.mesh, (entry >> LEVEL_SHIFT) | flags);
    return out;
}

/// `ids.z`: the main coordinate set is TEXCOORD_1 (the level sits in the low bits).
const MAIN_SET_BIT: u32 = 0x40000000u;

/// The fragment's main coordinate set (`SurfaceUv`, `shaders/shared/surface.wgsl`) with its
/// derivatives, taken in uniform control flow.
fn surface_uv(in: VertexOut) -> SurfaceUv {
    var uv = vec2<f32>(0.0);
    if SURFACE_TEXTURES {
        uv = in.uvs.xy;
    }
    let uv_set = select(0u, 1u, (in.ids.z & MAIN_SET_BIT) != 0u);
    return SurfaceUv(uv, dpdx(uv), dpdy(uv), uv_set);
}

// The fragment functions take the material's index and read only the fields they use: copying
// the whole `GpuMaterial` per fragment costs time on the H200 (docs/BENCHMARKS.md § "Vertex
// inputs and the main pass").

/// Base colour × its texture, if material `m` has one, × the vertex colour.
fn surface_color(m: u32, vertex_color: vec4<f32>, at: SurfaceUv) -> vec4<f32> {
    var texel = vec4<f32>(1.0);
    if SURFACE_TEXTURES && materials[m].base_color_texture.layer >= 0 {
        texel = base_color_texel(m, at);
    }
    return materials[m].base_color * texel * vertex_color;
}

/// The shading normal of a front face: the vertex normal, turned by the normal map where
/// material `m` has one and the vertex a tangent (`mapped_normal`). A back face's is its
/// negation, taken by the caller.
fn surface_normal(m: u32, vertex_normal: vec3<f32>, tangent: vec4<f32>, at: SurfaceUv, in: VertexOut) -> vec3<f32> {
    let n = normalize(vertex_normal);
    if !NORMAL_MAPS || materials[m].normal_texture.layer < 0 {
        return n;
    }
    var other = at.uv;
    if OPTIONAL_SURFACE_INPUTS && materials[m].normal_texture.uv_set != at.uv_set {
        other = in.uvs.zw;
    }
    return mapped_normal(m, n, tangent, at, other);
}

/// The fragment's surface for the lighting: material `m`'s factors, × its textures in
/// pipelines that sample textures.
fn fragment_surface(in: VertexOut, color: vec4<f32>, at: SurfaceUv) -> Surface {
    if !SURFACE_TEXTURES {
        return material_surface(in.ids.x, color);
    }
    var other = at.uv;
    if OPTIONAL_SURFACE_INPUTS {
        other = in.uvs.zw;
    }
    return textured_surface(in.ids.x, color, at, other);
}

/// The shading normal of this fragment, facing the viewer on either side.
fn facing_normal(in: VertexOut, front: bool, at: SurfaceUv) -> vec3<f32> {
    let normal = surface_normal(in.ids.x, in.normal_alpha.xyz, in.world_tangent, at, in);
    return select(-normal, normal, front);
}

/// The fragment's world position (the direction to the viewer, the shadow map's lookup),
/// from its window position and depth.
fn surface_world(in: VertexOut) -> vec3<f32> {
    return world_of(in.clip_position.xy, in.clip_position.z);
}

/// The vertex colour: interpolated only for objects whose mesh has colours (white otherwise).
fn vertex_color(in: VertexOut) -> vec4<f32> {
    var color = vec4<f32>(1.0);
    if OPTIONAL_SURFACE_INPUTS && (in.ids.z & VERTEX_COLORS_BIT) != 0u {
        color = vec4<f32>(in.color, in.normal_alpha.w);
    }
    return color;
}

/// The level of detail, for the LOD debug view.
fn level_of(in: VertexOut) -> u32 {
    return in.ids.z & ~(VERTEX_COLORS_BIT | MAIN_SET_BIT);
}

fn opaque_color(in: VertexOut, front: bool) -> vec4<f32> {
    let at = surface_uv(in);
    let color = debug_color(surface_color(in.ids.x, vertex_color(in), at), level_of(in));
    return lit_or_albedo(fragment_surface(in, color, at), facing_normal(in, front, at), surface_world(in));
}

fn masked_color(in: VertexOut, front: bool) -> vec4<f32> {
    let at = surface_uv(in);
    let color = surface_color(in.ids.x, vertex_color(in), at);
    if color.a < materials[in.ids.x].alpha_cutoff {
        discard;
    }
    let shown = debug_color(color, level_of(in));
    return lit_or_albedo(fragment_surface(in, shown, at), facing_normal(in, front, at), surface_world(in));
}

@fragment
fn fs_opaque(in: VertexOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    return opaque_color(in, front);
}

@fragment
fn fs_masked(in: VertexOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    return masked_color(in, front);
}

/// A forward-shaded fragment of a deferred renderer (`passes::deferred`): its colour, and
/// `NO_IDS` in the `ids` target, so the composite leaves it as it is.
struct ForwardOut {
    @location(0) color: vec4<f32>,
    @location(1) ids: u32,
}

@fragment
fn fs_opaque_ids(in: VertexOut, @builtin(front_facing) front: bool) -> ForwardOut {
    return ForwardOut(opaque_color(in, front), NO_IDS);
}

@fragment
fn fs_masked_ids(in: VertexOut, @builtin(front_facing) front: bool) -> ForwardOut {
    return ForwardOut(masked_color(in, front), NO_IDS);
}

/// Blended: lit like the others, its alpha (base colour × texture × vertex) kept for the
/// blend state, which draws it over what is behind; back faces only where the material is
/// double-sided (the pipeline culls none, so one pipeline draws both kinds in sorted order).
@fragment
fn fs_blend(in: VertexOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    if !front && materials[in.ids.x].double_sided == 0u {
        discard;
    }
    // Behind a compute rasteriser's pixel that a composite in compute kept out of the depth
    // buffer: hidden, as the depth test (less) would hide it.
    if frame.soft_depth_test != 0u {
        let soft = textureLoad(soft_depth, vec2<u32>(in.clip_position.xy), 0).x;
        if in.clip_position.z >= soft {
            discard;
        }
    }
    let at = surface_uv(in);
    let color = surface_color(in.ids.x, vertex_color(in), at);
    let shown = debug_color(color, level_of(in));
    let lit = lit_or_albedo(fragment_surface(in, shown, at), facing_normal(in, front, at), surface_world(in));
    return vec4<f32>(lit.rgb, clamp(color.a, 0.0, 1.0));
}

@fragment
fn fs_debug(in: VertexOut) -> @location(0) vec4<f32> {
    return debug_mesh_color(in);
}

@fragment
fn fs_debug_ids(in: VertexOut) -> ForwardOut {
    return ForwardOut(debug_mesh_color(in), NO_IDS);
}

/// One colour per mesh, from a hash, lit so shapes stay readable.
fn debug_mesh_color(in: VertexOut) -> vec4<f32> {
    var h = in.ids.y * 747796405u + 2891336453u;
    h = ((h >> ((h >> 28u) + 4u)) ^ h) * 277803737u;
    h = (h >> 22u) ^ h;
    let color = vec3<f32>(f32(h & 255u), f32((h >> 8u) & 255u), f32((h >> 16u) & 255u)) / 255.0;
    let diffuse = max(dot(normalize(in.normal_alpha.xyz), frame.light_direction.xyz), 0.0);
    return vec4<f32>(target_encoded(color * (0.3 + 0.7 * diffuse)), 1.0);
}
