//! The environment's image-based light, prefiltered once when a scene is uploaded
//! (`passes::environment`): three compute entry points, each writing one texture level that
//! `shaders/shared/lighting.wgsl` reads while shading.
//!
//! * `radiance`: one level of the octahedral radiance map, the sky seen through a GGX lobe
//!   of the level's roughness (`params.roughness`; level 0 is the sky itself), by importance
//!   sampling around the texel's direction (the split sum's first factor, with n = v = r).
//! * `irradiance`: the cosine-weighted mean of the sky's radiance over the hemisphere around
//!   the texel's direction (a white matte surface facing that way reflects this radiance).
//! * `brdf_table`: the split sum's second factor: per (n·v, roughness), the scale and bias of
//!   f0 in the directional albedo of the specular lobe.
//!
//! The sky is a function, not an image, so sampling it needs no mip chain of its own: a zenith
//! colour blending into a horizon colour, and below the horizon into a ground colour.

// Bindings: group `environment io`, declared from its table in src/gpu_scene/layout.rs ahead
// of this file.

/// The sky's radiance in direction `d` (unit).
fn sky(d: vec3<f32>) -> vec3<f32> {
    if d.y >= 0.0 {
        return mix(params.horizon.rgb, params.zenith.rgb, sqrt(d.y));
    }
    return mix(params.horizon.rgb, params.ground.rgb, sqrt(min(-d.y * 4.0, 1.0)));
}

/// Point `i` of an `n`-point Hammersley set in the unit square.
fn hammersley(i: u32, n: u32) -> vec2<f32> {
    return vec2<f32>(f32(i) / f32(n), f32(reverseBits(i)) * 2.3283064365386963e-10);
}

/// Two unit vectors completing unit `n` to an orthonormal basis.
fn basis(n: vec3<f32>) -> mat3x3<f32> {
    let up = select(vec3<f32>(0.0, 1.0, 0.0), vec3<f32>(1.0, 0.0, 0.0), abs(n.y) > 0.999);
    let t = normalize(cross(up, n));
    return mat3x3<f32>(t, cross(n, t), n);
}

/// A half vector around `n` distributed as GGX's D(h)·(n·h) for α = `alpha`.
fn sample_ggx(xi: vec2<f32>, n: vec3<f32>, alpha: f32) -> vec3<f32> {
    let a2 = alpha * alpha;
    let phi = 2.0 * PI * xi.x;
    let cos_theta = sqrt((1.0 - xi.y) / (1.0 + (a2 - 1.0) * xi.y));
    let sin_theta = sqrt(max(1.0 - cos_theta * cos_theta, 0.0));
    return basis(n) * vec3<f32>(sin_theta * cos(phi), sin_theta * sin(phi), cos_theta);
}

/// The unit direction of octahedral coordinates `uv` (the inverse of `octahedral_uv` in
/// `shaders/shared/lighting.wgsl`).
fn direction_of(uv: vec2<f32>) -> vec3<f32> {
    var f = uv * 2.0 - 1.0;
    let y = 1.0 - abs(f.x) - abs(f.y);
    if y < 0.0 {
        f = (vec2<f32>(1.0) - abs(f.yx)) * select(vec2<f32>(-1.0), vec2<f32>(1.0), f >= vec2<f32>(0.0));
    }
    return normalize(vec3<f32>(f.x, y, f.y));
}

/// The unit direction through the centre of texel `texel` of the level being written.
fn texel_direction(texel: vec2<u32>) -> vec3<f32> {
    let size = vec2<f32>(textureDimensions(level));
    return direction_of((vec2<f32>(texel) + 0.5) / size);
}

fn in_level(texel: vec2<u32>) -> bool {
    return all(texel < textureDimensions(level));
}

@compute @workgroup_size(8, 8)
fn radiance(@builtin(global_invocation_id) id: vec3<u32>) {
    if !in_level(id.xy) {
        return;
    }
    let n = texel_direction(id.xy);
    let alpha = params.roughness * params.roughness;
    var color = sky(n);
    if alpha > 0.0 {
        var sum = vec3<f32>(0.0);
        var weight = 0.0;
        for (var i = 0u; i < params.samples; i++) {
            let h = sample_ggx(hammersley(i, params.samples), n, alpha);
            let l = 2.0 * dot(n, h) * h - n;
            let n_l = dot(n, l);
            if n_l > 0.0 {
                sum += sky(l) * n_l;
                weight += n_l;
            }
        }
        color = sum / max(weight, 1e-6);
    }
    textureStore(level, id.xy, vec4<f32>(color, 1.0));
}

@compute @workgroup_size(8, 8)
fn irradiance(@builtin(global_invocation_id) id: vec3<u32>) {
    if !in_level(id.xy) {
        return;
    }
    let frame = basis(texel_direction(id.xy));
    var sum = vec3<f32>(0.0);
    for (var i = 0u; i < params.samples; i++) {
        // Cosine-weighted: a point of the unit disc lifted onto the hemisphere.
        let xi = hammersley(i, params.samples);
        let r = sqrt(xi.y);
        let phi = 2.0 * PI * xi.x;
        let l = frame * vec3<f32>(r * cos(phi), r * sin(phi), sqrt(max(1.0 - xi.y, 0.0)));
        sum += sky(l);
    }
    textureStore(level, id.xy, vec4<f32>(sum / f32(params.samples), 1.0));
}

@compute @workgroup_size(8, 8)
fn brdf_table(@builtin(global_invocation_id) id: vec3<u32>) {
    if !in_level(id.xy) {
        return;
    }
    // Texel i of n side holds n·v (x) or roughness (y) = i / (n − 1): its ends are 0 and 1.
    let last = vec2<f32>(textureDimensions(level)) - 1.0;
    let n_v = max(f32(id.x) / last.x, 1e-3);
    let roughness = f32(id.y) / last.y;
    let alpha = roughness * roughness;
    let v = vec3<f32>(sqrt(1.0 - n_v * n_v), 0.0, n_v);
    let n = vec3<f32>(0.0, 0.0, 1.0);
    var scale = 0.0;
    var bias = 0.0;
    for (var i = 0u; i < params.samples; i++) {
        let h = sample_ggx(hammersley(i, params.samples), n, alpha);
        let v_h = dot(v, h);
        let l = 2.0 * v_h * h - v;
        let n_l = l.z;
        let n_h = h.z;
        if n_l > 0.0 && n_h > 0.0 && v_h > 0.0 {
            // f·(n·l)/pdf for a half vector of pdf D·(n·h)/(4 v·h): V·4·(n·l)(v·h)/(n·h).
            let weight = visibility_smith(n_l, n_v, alpha) * 4.0 * n_l * v_h / n_h;
            let fresnel = pow(1.0 - v_h, 5.0);
            scale += (1.0 - fresnel) * weight;
            bias += fresnel * weight;
        }
    }
    let count = f32(params.samples);
    textureStore(level, id.xy, vec4<f32>(scale / count, bias / count, 0.0, 1.0));
}
