//! Texturing a surface, shared by the draw shader's fragments and the compute rasteriser
//! (`shaders/raster.wgsl` for the alpha test, `shaders/shade.wgsl` for shading): composed
//! after `math.wgsl` into every shader that declares the `textures` group, ahead of a
//! `materials` array its other groups declare. The callers differ only in where the
//! coordinates and their screen-space derivatives come from: interpolated by the hardware with
//! `dpdx`/`dpdy` in a fragment shader, computed from the triangle (`interpolation` in
//! `math.wgsl`) in a compute one.

/// The main texture-coordinate set with its screen-space derivatives; the other set is read
/// only where a normal map on it needs it. The draw shader takes one set's derivatives, not
/// two: on the H200 the second pair (and interpolating what it reads) slowed the main pass
/// (docs/BENCHMARKS.md § "Vertex inputs and the main pass").
struct SurfaceUv {
    uv: vec2<f32>,
    ddx: vec2<f32>,
    ddy: vec2<f32>,
    /// 0 or 1: which set `uv` is.
    uv_set: u32,
}

/// Where one texture reads: its coordinate set through its transform, the derivatives through
/// the transform's linear part (the transform is affine, so that is exact).
struct TexCoord {
    uv: vec2<f32>,
    ddx: vec2<f32>,
    ddy: vec2<f32>,
}

/// `texture`'s coordinates: the main set, or `other` (the other set, for a normal map on it:
/// sampled at the level of the main set's derivatives, an approximation where the two sets
/// are scaled differently).
fn texture_coordinates(texture: GpuTextureRef, at: SurfaceUv, other: vec2<f32>) -> TexCoord {
    let uv = select(at.uv, other, texture.uv_set != at.uv_set);
    let m = mat2x2<f32>(texture.transform.xy, texture.transform.zw);
    return TexCoord(m * uv + texture.offset, m * at.ddx, m * at.ddy);
}

/// One coordinate by its wrap mode, for the repeating sampler: a repeating axis as it is (the
/// sampler wraps it, filtering across the edge); clamp and mirror folded into [0, 1] and kept
/// `inset` from the edges, so the sampler's bilinear footprint never reaches across the edge
/// to the far side. That reads what a clamping or mirroring sampler would, to within one texel
/// of the finer mip level at the edge.
fn wrap_coordinate(t: f32, mode: u32, inset: f32) -> f32 {
    var folded = t;
    if mode == WRAP_CLAMP_TO_EDGE {
        folded = clamp(t, inset, 1.0 - inset);
    } else if mode == WRAP_MIRRORED_REPEAT {
        folded = clamp(1.0 - abs(t - 2.0 * floor(t * 0.5) - 1.0), inset, 1.0 - inset);
    }
    return folded;
}

/// The coordinates (and their derivatives) to sample a texture of size class `size_class` with,
/// in its layer, given its wrap bits (u in bits 0-1, v in bits 2-3) and its copies of the image
/// per axis (log2 in bits 4-7 and 8-11: a non-square image tiles its shorter axis, so the
/// image's coordinates scale by 2^-k there). Wrapping folds the image's coordinates first; a
/// repeating axis needs nothing (the copies and the sampler's repeat continue the image). The
/// inset is half a texel of the coarser of the two mip levels trilinear filtering reads (the
/// level from the same derivatives the sampler uses), in the image's texels along each axis.
fn wrapped_uv(size_class: u32, wrap: u32, at: TexCoord) -> TexCoord {
    let copies = vec2<f32>(exp2(-f32((wrap >> 4u) & 15u)), exp2(-f32((wrap >> 8u) & 15u)));
    let ddx = at.ddx * copies;
    let ddy = at.ddy * copies;
    if (wrap & 15u) == WRAP_REPEAT {
        return TexCoord(at.uv * copies, ddx, ddy);
    }
    let size = f32(SMALLEST_TEXTURE_CLASS << size_class);
    let level = ceil(max(log2(max(length(ddx), length(ddy)) * size), 0.0));
    let inset = min(vec2<f32>(0.5), 0.5 * exp2(level) / (size * copies));
    let folded = vec2<f32>(wrap_coordinate(at.uv.x, wrap & 3u, inset.x), wrap_coordinate(at.uv.y, (wrap >> 2u) & 3u, inset.y));
    return TexCoord(folded * copies, ddx, ddy);
}

/// The texel of material `m`'s base-colour texture at `at` (which must be the texture's set);
/// white where it has none.
fn base_color_texel(m: u32, at: SurfaceUv) -> vec4<f32> {
    let texture = materials[m].base_color_texture;
    if texture.layer < 0 {
        return vec4<f32>(1.0);
    }
    // The base-colour texture reads the main set by construction.
    return material_texel(texture, at, at.uv, true);
}

/// Unit normal `n` turned by material `m`'s normal map, which it must have, where `tangent`
/// is one (tangent space: x along the tangent, y along `cross(n, tangent) × w`, z along `n`;
/// the map's x and y scaled by its `scale`). `other`: the other coordinate set, for a map on
/// it.
fn mapped_normal(m: u32, n: vec3<f32>, tangent: vec4<f32>, at: SurfaceUv, other: vec2<f32>) -> vec3<f32> {
    let along = tangent.xyz - n * dot(n, tangent.xyz);
    if dot(along, along) < 1e-12 {
        return n;
    }
    let texture = materials[m].normal_texture;
    let t = normalize(along);
    let b = cross(n, t) * select(1.0, -1.0, tangent.w < 0.0);
    let mapped = material_texel(texture, at, other, false).xyz * 2.0 - 1.0;
    let scaled = vec3<f32>(mapped.xy * texture.scale, mapped.z);
    let turned = t * scaled.x + b * scaled.y + n * scaled.z;
    return select(n, normalize(turned), dot(turned, turned) > 1e-12);
}

/// Material `m`'s surface (`Surface`, `shaders/shared/lighting.wgsl`) at a point whose base
/// colour, texture and vertex colour included, is `color`: its factors alone.
fn material_surface(m: u32, color: vec4<f32>) -> Surface {
    let material = &materials[m];
    return Surface(
        color.rgb,
        (*material).metallic,
        (*material).roughness,
        1.0,
        (*material).emissive.rgb,
        (*material).unlit != 0u,
    );
}

/// The texel of `texture` at `at` (or at `other`, the other coordinate set, where the texture
/// reads it) from the arrays of `srgb` or linear layers.
fn material_texel(texture: GpuTextureRef, at: SurfaceUv, other: vec2<f32>, srgb: bool) -> vec4<f32> {
    let c = wrapped_uv(texture.size_class, texture.wrap, texture_coordinates(texture, at, other));
    if srgb {
        return sample_base_color_class(texture.size_class, texture.layer, c.uv, c.ddx, c.ddy);
    }
    return sample_normal_class(texture.size_class, texture.layer, c.uv, c.ddx, c.ddy);
}

/// As `material_surface`, with the material's metallic-roughness (B metal, G roughness),
/// occlusion (R, by its strength) and emissive textures where it has them.
fn textured_surface(m: u32, color: vec4<f32>, at: SurfaceUv, other: vec2<f32>) -> Surface {
    var s = material_surface(m, color);
    let metallic_roughness = materials[m].metallic_roughness_texture;
    if metallic_roughness.layer >= 0 {
        let texel = material_texel(metallic_roughness, at, other, false);
        s.metallic *= texel.b;
        s.roughness *= texel.g;
    }
    let occlusion = materials[m].occlusion_texture;
    if occlusion.layer >= 0 {
        s.occlusion = 1.0 + occlusion.scale * (material_texel(occlusion, at, other, false).r - 1.0);
    }
    let emissive = materials[m].emissive_texture;
    if emissive.layer >= 0 {
        s.emissive *= material_texel(emissive, at, other, true).rgb;
    }
    return s;
}
