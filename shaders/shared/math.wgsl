//! Animation and culling math shared by the cull and draw passes, the lighting and output
//! encoding shared by the draw shader and the compute rasteriser's resolve, and the row
//! segments of the dispatches over the compute rasteriser's pixels. The CPU reference
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
    return srgb_encoded(linear);
}

/// The world position of a point of the colour target: window position `window` (pixels,
/// y down, as the fragment's `position` builtin gives it) at depth `depth`.
fn world_of(window: vec2<f32>, depth: f32) -> vec3<f32> {
    let ndc = vec2<f32>(window.x / frame.target_size.x * 2.0 - 1.0, 1.0 - window.y / frame.target_size.y * 2.0);
    let h = frame.inverse_view_proj * vec4<f32>(ndc, depth, 1.0);
    return h.xyz / h.w;
}

// SHADOW_BLEND (src/tunables.rs): the fraction of a cascade, at its far end, over which its
// shadow fades into the next one's.
/// How far a receiver's point is moved along its normal before its shadow map lookup, in the
/// cascade's texels, for a surface the sun grazes; a surface facing the sun is not moved (the
/// offset is scaled by 1 − N·L, so a shadow's outline stays where it is on surfaces the sun
/// lights well). The slope-scaled depth bias of the casters (`passes::shadow`) takes the rest of
/// the acne.
const SHADOW_NORMAL_OFFSET: f32 = 1.0;

/// The view depth of `world` (along the drawing camera's forward axis).
fn view_depth(world: vec3<f32>) -> f32 {
    return dot(world - frame.camera_position.xyz, frame.camera_forward.xyz);
}

/// The cascade that covers `world`: the first whose split lies beyond it;
/// `frame.shadow_cascades` where none does (beyond the shadows' reach).
fn cascade_at(world: vec3<f32>) -> u32 {
    let depth = view_depth(world);
    var cascade = 0u;
    while cascade < frame.shadow_cascades && depth > frame.shadow_splits[cascade] {
        cascade++;
    }
    return cascade;
}

/// Sunlight reaching `world` in cascade `cascade`'s map, 0 (shadow) to 1 (lit): four
/// comparison taps half a texel either side of the point, each of which compares four texels
/// and weighs them bilinearly (percentage-closer filtering over a 3 × 3-texel tent). Four taps,
/// not nine: on the H200 the receiving is fragment work on its few graphics units
/// (docs/BENCHMARKS.md § "Shadows (issue 24)"). Outside the map it is lit.
fn cascade_light(cascade: u32, world: vec3<f32>, normal: vec3<f32>) -> f32 {
    let grazing = 1.0 - clamp(dot(normal, frame.light_direction.xyz), 0.0, 1.0);
    let offset = normal * (frame.shadow_texel[cascade] * SHADOW_NORMAL_OFFSET * grazing);
    let clip = frame.shadow_view_proj[cascade] * vec4<f32>(world + offset, 1.0);
    let uv = vec2<f32>(clip.x * 0.5 + 0.5, 0.5 - clip.y * 0.5);
    if any(uv < vec2<f32>(0.0)) || any(uv > vec2<f32>(1.0)) || clip.z > 1.0 {
        return 1.0;
    }
    let texel = 1.0 / vec2<f32>(textureDimensions(shadow_map));
    var light = 0.0;
    for (var tap = 0u; tap < 4u; tap++) {
        let offset = vec2<f32>(select(-0.5, 0.5, (tap & 1u) != 0u), select(-0.5, 0.5, (tap & 2u) != 0u));
        light += textureSampleCompareLevel(shadow_map, shadow_sampler, uv + offset * texel, i32(cascade), clip.z);
    }
    return light * 0.25;
}

/// Sunlight reaching `world`, a surface point whose normal is `normal`: 1 without shadows, else
/// its cascade's, faded into the next cascade's over the last `SHADOW_BLEND` of its range.
fn sunlight(world: vec3<f32>, normal: vec3<f32>) -> f32 {
    let cascade = cascade_at(world);
    if cascade >= frame.shadow_cascades {
        return 1.0;
    }
    let light = cascade_light(cascade, world, normal);
    let end = frame.shadow_splits[cascade];
    var start = 0.0;
    if cascade > 0u {
        start = frame.shadow_splits[cascade - 1u];
    }
    let fade_from = end - (end - start) * SHADOW_BLEND;
    let depth = view_depth(world);
    if depth <= fade_from {
        return light;
    }
    var next = 1.0;
    if cascade + 1u < frame.shadow_cascades {
        next = cascade_light(cascade + 1u, world, normal);
    }
    return mix(light, next, (depth - fade_from) / max(end - fade_from, 1e-6));
}

/// The cascade debug view's tint of cascade `cascade` (beyond the last: white, none).
fn cascade_color(cascade: u32) -> vec3<f32> {
    let colors = array<vec3<f32>, 5>(
        vec3<f32>(1.0, 0.3, 0.3),
        vec3<f32>(0.3, 1.0, 0.3),
        vec3<f32>(0.3, 0.4, 1.0),
        vec3<f32>(1.0, 0.9, 0.2),
        vec3<f32>(1.0, 1.0, 1.0),
    );
    return colors[min(cascade, 4u)];
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

/// A triangle by its corners' clip positions, for 2D homogeneous interpolation (Olano and
/// Greer): the weights at a pixel without dividing by w, so they hold for a triangle that
/// crosses the eye plane (a large one the hardware drew and clipped), where the screen
/// positions `weight_planes` starts from do not exist. `edges[i] · (ndc, 1)` is corner i's
/// unnormalised weight; `det` is positive for a front face (counter-clockwise in NDC).
struct ClipTriangle {
    edges: mat3x3<f32>,
    det: f32,
}

fn clip_triangle(c0: vec4<f32>, c1: vec4<f32>, c2: vec4<f32>) -> ClipTriangle {
    let a = c0.xyw;
    let b = c1.xyw;
    let c = c2.xyw;
    let e0 = cross(b, c);
    return ClipTriangle(mat3x3<f32>(e0, cross(c, a), cross(a, b)), dot(a, e0));
}

/// The perspective-correct weights of `t` at window position `p` (pixels, y down).
fn clip_weights_at(t: ClipTriangle, p: vec2<f32>) -> vec3<f32> {
    let ndc = vec3<f32>(p.x / frame.target_size.x * 2.0 - 1.0, 1.0 - p.y / frame.target_size.y * 2.0, 1.0);
    let w = ndc * t.edges;
    return w / (w.x + w.y + w.z);
}

/// As `interpolation`, for `t`: the weights at pixel `pixel`'s centre and their differences
/// across its 2 × 2 quad.
fn clip_interpolation(t: ClipTriangle, pixel: vec2<i32>) -> Interpolation {
    let centre = vec2<f32>(pixel) + 0.5;
    let quad = vec2<f32>(pixel & vec2<i32>(~1)) + 0.5;
    let weights = clip_weights_at(t, centre);
    let ddx = clip_weights_at(t, vec2<f32>(quad.x + 1.0, centre.y)) - clip_weights_at(t, vec2<f32>(quad.x, centre.y));
    let ddy = clip_weights_at(t, vec2<f32>(centre.x, quad.y + 1.0)) - clip_weights_at(t, vec2<f32>(centre.x, quad.y));
    return Interpolation(weights, ddx, ddy);
}

/// The pixels `x ..< y` (row by row) of the target that thread `segment` of a dispatch over its
/// rows' segments looks through (the shade list's and the mark's,
/// `passes::raster::list_workgroups`): `SHADE_LIST_SEGMENT` pixels of one row, fewer at the
/// row's end; none (x = y) past the last segment.
fn row_segment(segment: u32) -> vec2<u32> {
    let size = vec2<u32>(frame.target_size);
    let per_row = (size.x + SHADE_LIST_SEGMENT - 1u) / SHADE_LIST_SEGMENT;
    if segment >= per_row * size.y {
        return vec2<u32>(0u);
    }
    let row = segment / per_row;
    let first = row * size.x + (segment % per_row) * SHADE_LIST_SEGMENT;
    return vec2<u32>(first, min(first + SHADE_LIST_SEGMENT, (row + 1u) * size.x));
}
