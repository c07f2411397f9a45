//! Animation and culling math shared by the cull and draw passes, and the draw pass's output
//! encoding. The CPU reference
//! (`passes::cull::cpu`, `animate_point` and `sphere_in_frustum`) does the same arithmetic in the same order on the same inputs.

/// Rotates `p` about the Y axis by the angle whose cosine and sine are `cs`.
fn rotate_y(p: vec3<f32>, cs: vec2<f32>) -> vec3<f32> {
    return vec3<f32>(cs.x * p.x + cs.y * p.z, p.y, cs.x * p.z - cs.y * p.x);
}

fn orbit_of(animation: u32) -> vec2<f32> {
    return frame.animation[animation & 0xffffu].xy;
}

fn spin_of(animation: u32) -> vec2<f32> {
    return frame.animation[(animation >> 16u) & 0x7fffu].zw;
}

/// Object space → world space at the current frame: spin about the object's own Y axis, the
/// static model matrix, then orbit about the world Y axis.
fn animate_point(object: GpuObject, local: vec3<f32>) -> vec3<f32> {
    let spun = rotate_y(local, spin_of(object.animation));
    let placed = (object.model * vec4<f32>(spun, 1.0)).xyz;
    return rotate_y(placed, orbit_of(object.animation));
}

fn animate_direction(object: GpuObject, local: vec3<f32>) -> vec3<f32> {
    let spun = rotate_y(local, spin_of(object.animation));
    let placed = (object.model * vec4<f32>(spun, 0.0)).xyz;
    return rotate_y(placed, orbit_of(object.animation));
}

/// True when the sphere is at least partly inside all six planes.
fn sphere_in_frustum(center: vec3<f32>, radius: f32) -> bool {
    var inside = true;
    for (var plane = 0u; plane < 6u; plane++) {
        let p = frame.cull_planes[plane];
        if dot(p.xyz, center) + p.w < -radius {
            inside = false;
        }
    }
    return inside;
}

/// Linear colour as the colour target wants it: as is for an sRGB target (the hardware encodes
/// on store) or a float one, sRGB-encoded for a target that stores what it is given, so both
/// show the same colours (`frame.encode_srgb`).
fn target_encoded(linear: vec3<f32>) -> vec3<f32> {
    if frame.encode_srgb == 0u {
        return linear;
    }
    let c = clamp(linear, vec3<f32>(0.0), vec3<f32>(1.0));
    let low = c * 12.92;
    let high = 1.055 * pow(c, vec3<f32>(1.0 / 2.4)) - 0.055;
    return select(high, low, c <= vec3<f32>(0.0031308));
}
