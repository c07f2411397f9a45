//! Shading a surface point: the metallic-roughness model of the glTF 2.0 specification's
//! Appendix B (GGX distribution, Smith height-correlated visibility, Schlick Fresnel, the mix
//! of a metal and a dielectric by `metallic`) lit by the sun (with its shadow) and by the
//! environment's image-based light (prefiltered once by `shaders/environment.wgsl`: radiance
//! by roughness, irradiance, and the split-sum table, read here with multiple-scattering
//! compensation), then emission, exposure and the tone mapper. Its GGX, Smith and Schlick
//! terms are `shaders/shared/brdf.wgsl`'s, which the prefilter shares. Composed after `surface.wgsl`
//! into every shader that shades: the draw shader's fragments and the compute rasteriser's
//! shade dispatch call the same `lit_or_albedo`, so the two agree.

/// The smallest perceptual roughness the sun's highlight is computed at: at 0 a directional
/// light's GGX lobe is a point of infinite height.
const MIN_SUN_ROUGHNESS: f32 = 0.045;
/// The reflectance at normal incidence of a dielectric (index of refraction 1.5).
const DIELECTRIC_F0: f32 = 0.04;
/// The layers of `environment_tables`: the irradiance (octahedral) and the split sum's
/// BRDF table, one size.
const IRRADIANCE_LAYER: u32 = 0u;
const BRDF_TABLE_LAYER: u32 = 1u;

/// What a surface point reflects and emits, in linear light: the inputs of `shade`.
struct Surface {
    base_color: vec3<f32>,
    metallic: f32,
    /// Perceptual roughness (glTF's `roughnessFactor`); α = roughness².
    roughness: f32,
    /// Ambient occlusion: 1 leaves the environment's light as it is.
    occlusion: f32,
    emissive: vec3<f32>,
    /// `KHR_materials_unlit`: the base colour as given, no light.
    unlit: bool,
}

/// The BRDF f(l, v) of glTF's metallic-roughness material (Appendix B), for unit normal `n`,
/// unit directions to the viewer `v` and to the light `l` (0 where either is below the
/// surface). Multiply by the light's irradiance and n·l for the reflected radiance.
fn brdf(n: vec3<f32>, v: vec3<f32>, l: vec3<f32>, s: Surface) -> vec3<f32> {
    let n_l = dot(n, l);
    let n_v = dot(n, v);
    if n_l <= 0.0 || n_v <= 0.0 {
        return vec3<f32>(0.0);
    }
    let h = normalize(l + v);
    let n_h = max(dot(n, h), 0.0);
    let v_h = max(dot(v, h), 0.0);
    let alpha = s.roughness * s.roughness;
    let specular = visibility_smith(n_l, n_v, alpha) * distribution_ggx(n_h, alpha);
    let metal = fresnel_schlick(s.base_color, v_h) * specular;
    let fresnel = DIELECTRIC_F0 + (1.0 - DIELECTRIC_F0) * pow(1.0 - v_h, 5.0);
    let dielectric = mix(s.base_color / PI, vec3<f32>(specular), fresnel);
    return mix(dielectric, metal, s.metallic);
}

/// Texture coordinates of a unit direction in an octahedral map (+y at the centre, −y at the
/// corners): no trigonometry, which the H200's few fragment units pay for dearly.
fn octahedral_uv(d: vec3<f32>) -> vec2<f32> {
    let p = d / (abs(d.x) + abs(d.y) + abs(d.z));
    var xz = p.xz;
    if p.y < 0.0 {
        xz = (vec2<f32>(1.0) - abs(p.zx)) * select(vec2<f32>(-1.0), vec2<f32>(1.0), p.xz >= vec2<f32>(0.0));
    }
    return xz * 0.5 + 0.5;
}

/// The environment's light reflected towards `v` at normal `n`: the split-sum approximation
/// (prefiltered radiance × the BRDF table's scale and bias) with Fdez-Agüera's
/// multiple-scattering term, so a white metal of any roughness in a white environment reflects
/// all of it, and the diffuse part by the irradiance, both × the surface's occlusion.
fn environment_light(n: vec3<f32>, v: vec3<f32>, s: Surface) -> vec3<f32> {
    let n_v = clamp(dot(n, v), 1e-4, 1.0);
    let levels = f32(frame.environment_levels);
    let table_size = vec2<f32>(textureDimensions(environment_tables));
    let table_uv = (vec2<f32>(n_v, s.roughness) * (table_size - 1.0) + 0.5) / table_size;
    let scale_bias = textureSampleLevel(environment_tables, environment_sampler, table_uv, BRDF_TABLE_LAYER, 0.0).xy;
    let r = reflect(-v, n);
    let radiance = textureSampleLevel(
        environment_radiance,
        environment_sampler,
        octahedral_uv(r),
        0,
        s.roughness * (levels - 1.0),
    ).rgb;
    let irradiance =
        textureSampleLevel(environment_tables, environment_sampler, octahedral_uv(n), IRRADIANCE_LAYER, 0.0).rgb;
    let f0 = mix(vec3<f32>(DIELECTRIC_F0), s.base_color, s.metallic);
    let single = f0 * scale_bias.x + scale_bias.y;
    let e_single = scale_bias.x + scale_bias.y;
    let e_multi = 1.0 - e_single;
    let f_average = f0 + (vec3<f32>(1.0) - f0) / 21.0;
    let multi = e_multi * single * f_average / (vec3<f32>(1.0) - f_average * e_multi);
    let diffuse = s.base_color * (1.0 - s.metallic) * (vec3<f32>(1.0) - single - multi);
    return (single * radiance + (multi + diffuse) * irradiance) * s.occlusion;
}

/// Khronos PBR Neutral: colours below about 0.76 pass almost unchanged (a small offset is
/// taken off the darkest channel near black), brighter ones are compressed towards 1 and
/// desaturated as they go.
fn tone_map_neutral(color: vec3<f32>) -> vec3<f32> {
    let start_compression = 0.8 - 0.04;
    let desaturation = 0.15;
    let x = min(color.r, min(color.g, color.b));
    let offset = select(0.04, x - 6.25 * x * x, x < 0.08);
    var c = color - offset;
    let peak = max(c.r, max(c.g, c.b));
    if peak < start_compression {
        return c;
    }
    let d = 1.0 - start_compression;
    let new_peak = 1.0 - d * d / (peak + d - start_compression);
    c *= new_peak / peak;
    let g = 1.0 - 1.0 / (desaturation * (peak - new_peak) + 1.0);
    return mix(c, vec3<f32>(new_peak), g);
}

/// Scene light to display light: × the exposure, then the tone mapper (`frame.tone_mapping`:
/// 1 PBR Neutral, 0 none, values above 1 clipped by the target).
fn display_light(color: vec3<f32>) -> vec3<f32> {
    let exposed = max(color * frame.exposure, vec3<f32>(0.0));
    return select(exposed, tone_map_neutral(exposed), frame.tone_mapping == 1u);
}

/// The radiance surface `s` sends towards the camera from `world`, where its unit normal is
/// `normal`: the sun's light through the BRDF (× its shadow), the environment's, emission.
fn shade(s: Surface, normal: vec3<f32>, world: vec3<f32>) -> vec3<f32> {
    if s.unlit {
        return s.base_color + s.emissive;
    }
    let v = normalize(frame.camera_position.xyz - world);
    let l = frame.light_direction.xyz;
    // Seen from behind (a vertex normal turned away at a silhouette): lit as if face-on to the
    // viewer, so the edge does not go black.
    let n = normalize(select(normal, normal - v * (dot(normal, v) - 1e-3), dot(normal, v) <= 0.0));
    var sun_surface = s;
    sun_surface.roughness = max(s.roughness, MIN_SUN_ROUGHNESS);
    let n_l = dot(n, l);
    var sun = vec3<f32>(0.0);
    if n_l > 0.0 {
        // The sun's illuminance 1 lights a white matte surface facing it to radiance 1.
        sun = brdf(n, v, l, sun_surface) * frame.light_color.rgb * (PI * n_l) * sunlight(world, normal);
    }
    return sun + environment_light(n, v, s) + s.emissive;
}

/// The colour a pixel of surface `s` at `world` is stored with: shaded and brought to the
/// display (`display_light`), encoded for the target; in the albedo debug view
/// (`frame.debug_view == 2`) the base colour unlit, so a texel comes out as it went in; in
/// the cascade debug view (3) tinted by its shadow cascade.
fn lit_or_albedo(s: Surface, normal: vec3<f32>, world: vec3<f32>) -> vec4<f32> {
    if frame.debug_view == 2u {
        return vec4<f32>(target_encoded(s.base_color), 1.0);
    }
    var lit = display_light(shade(s, normal, world));
    if frame.debug_view == 3u && frame.shadow_cascades > 0u {
        lit *= cascade_color(cascade_at(world));
    }
    return vec4<f32>(target_encoded(lit), 1.0);
}
