//! Animation and culling math shared by the cull and draw passes, and the lighting and output
//! encoding shared by the draw shader and the compute rasteriser's resolve. The CPU reference
//! (`passes::cull::cpu`, `animate_point` and `sphere_in_frustum`) does the same arithmetic in the same order on the same inputs.

/// Rotates `p` about the Y axis by the angle whose cosine and sine are `cs`.
fn rotate_y(p: vec3<f32>, cs: vec2<f32>) -> vec3<f32> {
    return vec3<f32>(cs.x * p.x + cs.y * p.z, p.y, cs.x * p.z - cs.y * p.x);
}

fn orbit_of(animation: u32) -> vec2<f32> {
    return frame.animation[animation & 0xffffu].xy;
}

fn spin_of(animation: u32) -> vec2<f32> {
    return frame.animation[(animation >> 16u) & SPIN_MASK].zw;
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

/// Clip space → pixels of the colour target (x right, y down), as the viewport transform maps
/// it: where the compute rasteriser (`shaders/raster.wgsl`) covers pixels and its resolve
/// interpolates.
fn screen_of(clip: vec4<f32>) -> vec2<f32> {
    let ndc = clip.xy / clip.w;
    return vec2<f32>((ndc.x * 0.5 + 0.5) * frame.target_size.x, (0.5 - ndc.y * 0.5) * frame.target_size.y);
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

/// Directional light + ambient.
fn shade(color: vec3<f32>, normal: vec3<f32>) -> vec3<f32> {
    let diffuse = max(dot(normal, frame.light_direction.xyz), 0.0);
    return color * (frame.light_direction.w + (1.0 - frame.light_direction.w) * diffuse);
}

/// The LOD debug view's colour of a level: level 0 white, then ever warmer.
fn level_color(level: u32) -> vec3<f32> {
    let colors = array<vec3<f32>, 6>(
        vec3<f32>(0.9, 0.9, 0.9),
        vec3<f32>(0.2, 0.5, 1.0),
        vec3<f32>(0.2, 0.85, 0.3),
        vec3<f32>(1.0, 0.85, 0.1),
        vec3<f32>(1.0, 0.45, 0.1),
        vec3<f32>(0.9, 0.1, 0.2),
    );
    return colors[min(level, 5u)];
}

/// The base colour, or the level's colour in the LOD debug view (`frame.debug_view == 1`).
fn debug_color(color: vec4<f32>, level: u32) -> vec4<f32> {
    return select(color, vec4<f32>(level_color(level), color.a), frame.debug_view == 1u);
}

/// The lit colour, or in the albedo debug view (`frame.debug_view == 2`) the base colour ×
/// texture unlit, so a texel comes out as it went in.
fn lit_or_albedo(color: vec4<f32>, normal: vec3<f32>) -> vec4<f32> {
    if frame.debug_view == 2u {
        return vec4<f32>(target_encoded(color.rgb), 1.0);
    }
    return vec4<f32>(target_encoded(shade(color.rgb, normal)), 1.0);
}

/// The perspective-correct weights of a triangle's corners on screen, as planes: their
/// numerators `q = λ / w` (λ the screen-space barycentrics, `w` the corners' clip-space w) at
/// screen point `origin` and their steps along x and y (affine on screen), so the weights at
/// `p` are `q(p) / Σq(p)` (`weights_at`). What the hardware's interpolation gives a fragment,
/// computed from the corners' screen positions `s0`-`s2`: for the compute rasteriser's alpha
/// test and shading (`shaders/raster.wgsl`, `shaders/shade.wgsl`).
struct WeightPlanes {
    origin: vec2<f32>,
    q: vec3<f32>,
    qx: vec3<f32>,
    qy: vec3<f32>,
}

fn weight_planes(s0: vec2<f32>, s1: vec2<f32>, s2: vec2<f32>, w: vec3<f32>, origin: vec2<f32>) -> WeightPlanes {
    let d1 = s1 - s0;
    let d2 = s2 - s0;
    let dp = origin - s0;
    let area = d1.x * d2.y - d1.y * d2.x;
    let l1 = (dp.x * d2.y - dp.y * d2.x) / area;
    let l2 = (d1.x * dp.y - d1.y * dp.x) / area;
    let lx = vec3<f32>(d1.y - d2.y, d2.y, -d1.y) / area;
    let ly = vec3<f32>(d2.x - d1.x, -d2.x, d1.x) / area;
    return WeightPlanes(origin, vec3<f32>(1.0 - l1 - l2, l1, l2) / w, lx / w, ly / w);
}

fn weights_at(planes: WeightPlanes, p: vec2<f32>) -> vec3<f32> {
    let d = p - planes.origin;
    let q = planes.q + planes.qx * d.x + planes.qy * d.y;
    return q / (q.x + q.y + q.z);
}

/// The weights at pixel `pixel`'s centre, and their screen-space derivatives as the hardware's
/// fine `dpdx`/`dpdy` take them: differences across the pixel's 2 × 2 quad, along its row and
/// its column. An attribute's value is `dot(weights, values)`, its derivative
/// `dot(ddx, values)`; the texture level follows the derivatives, so taking them the
/// hardware's way keeps the compute rasteriser's textures at the hardware's level.
struct Interpolation {
    weights: vec3<f32>,
    ddx: vec3<f32>,
    ddy: vec3<f32>,
}

fn interpolation(planes: WeightPlanes, pixel: vec2<i32>) -> Interpolation {
    let centre = vec2<f32>(pixel) + 0.5;
    let quad = vec2<f32>(pixel & vec2<i32>(~1)) + 0.5;
    let weights = weights_at(planes, centre);
    let ddx = weights_at(planes, vec2<f32>(quad.x + 1.0, centre.y)) - weights_at(planes, vec2<f32>(quad.x, centre.y));
    let ddy = weights_at(planes, vec2<f32>(centre.x, quad.y + 1.0)) - weights_at(planes, vec2<f32>(centre.x, quad.y));
    return Interpolation(weights, ddx, ddy);
}
