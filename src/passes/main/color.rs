//! The main pass's colours: the clear colour, how a target of a format stores it, and what
//! the composite in compute writes where a frame's first main pass did not clear.

/// Background colour of every frame, linear.
pub const CLEAR_COLOR: wgpu::Color = wgpu::Color { r: 0.02, g: 0.025, b: 0.035, a: 1.0 };

/// Whether colour for a target of `format` must be sRGB-encoded by the shader: a unorm format
/// without sRGB encoding stores the values it is given, and displays and image files read
/// them as sRGB, so linear colour written there would show too dark. sRGB formats encode on
/// store; float formats hold linear colour by convention (HDR and scRGB surfaces).
pub fn encodes_srgb(format: wgpu::TextureFormat) -> bool {
    use wgpu::TextureFormat as F;
    matches!(
        format,
        F::R8Unorm
            | F::Rg8Unorm
            | F::Rgba8Unorm
            | F::Bgra8Unorm
            | F::Rgb10a2Unorm
            | F::R16Unorm
            | F::Rg16Unorm
            | F::Rgba16Unorm
    )
}

/// The sRGB encoding of a linear channel value (the one `target_encoded` in
/// `shaders/shared/math.wgsl` applies).
pub fn srgb_encode(linear: f64) -> f64 {
    let c = linear.clamp(0.0, 1.0);
    if c <= 0.0031308 {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    }
}

/// [`CLEAR_COLOR`] as a target stores it: encoded by the shader's rule where the target does not
/// encode ([`encodes_srgb`]), linear where it does (the clear is encoded on store).
pub(super) fn stored_clear(encodes_srgb: bool) -> wgpu::Color {
    let c = CLEAR_COLOR;
    if encodes_srgb {
        wgpu::Color { r: srgb_encode(c.r), g: srgb_encode(c.g), b: srgb_encode(c.b), a: c.a }
    } else {
        c
    }
}

/// [`CLEAR_COLOR`] as the first main pass's clear stores it in an 8-bit target, read through a
/// view without sRGB encoding: what the composite in compute writes where nothing was drawn
/// (`FrameUniforms::background`; its storage view is `COMPOSITE_FORMAT`, whichever of it and
/// its sRGB twin the pass draws into). Either way the target holds the colour sRGB-encoded
/// (by the shader's rule or on store, [`stored_clear`]) and alpha as is. Each channel is the
/// clear's byte plus a quarter step, so that a store that rounds and one that truncates
/// (NVIDIA's storage writes: a byte lower than the clear's otherwise, on the H100) both write
/// the clear's byte.
pub(super) fn background_texel() -> glam::Vec4 {
    let stored = |v: f64| (((v * 255.0).round() + 0.25) / 255.0) as f32;
    let c = CLEAR_COLOR;
    glam::Vec4::new(stored(srgb_encode(c.r)), stored(srgb_encode(c.g)), stored(srgb_encode(c.b)), stored(c.a))
}
