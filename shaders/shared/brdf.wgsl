//! The microfacet terms of glTF's metallic-roughness BRDF (its Appendix B), shared by the
//! shading (`shaders/shared/lighting.wgsl`) and the environment's prefilter
//! (`shaders/environment.wgsl`), so that the split-sum table integrates the lobe that is shaded.
//! Pure functions: composed into every shader (`gpu_scene::shader`), with the sRGB encoding at
//! the end, which every colour written without the hardware's encoder goes through.

const PI: f32 = 3.14159265358979;

/// The GGX (Trowbridge-Reitz) normal distribution D(h) for `n_h` = n·h and α = `alpha`.
fn distribution_ggx(n_h: f32, alpha: f32) -> f32 {
    let a2 = alpha * alpha;
    let d = n_h * n_h * (a2 - 1.0) + 1.0;
    return a2 / (PI * d * d);
}

/// Smith's height-correlated visibility V = G / (4 n·l n·v).
fn visibility_smith(n_l: f32, n_v: f32, alpha: f32) -> f32 {
    let a2 = alpha * alpha;
    let view = n_l * sqrt(n_v * n_v * (1.0 - a2) + a2);
    let light = n_v * sqrt(n_l * n_l * (1.0 - a2) + a2);
    let sum = view + light;
    return select(0.0, 0.5 / sum, sum > 0.0);
}

/// Schlick's Fresnel term for reflectance `f0` at normal incidence and `v_h` = v·h.
fn fresnel_schlick(f0: vec3<f32>, v_h: f32) -> vec3<f32> {
    return f0 + (vec3<f32>(1.0) - f0) * pow(1.0 - v_h, 5.0);
}

/// Linear colour (clamped to [0, 1]) sRGB-encoded, as an sRGB target's hardware encoder stores
/// it.
fn srgb_encoded(linear: vec3<f32>) -> vec3<f32> {
    let c = clamp(linear, vec3<f32>(0.0), vec3<f32>(1.0));
    let low = c * 12.92;
    let high = 1.055 * pow(c, vec3<f32>(1.0 / 2.4)) - 0.055;
    return select(high, low, c <= vec3<f32>(0.0031308));
}
