//! Offscreen render targets (colour + depth) for headless rendering, tests and prewarming,
//! and reading a colour target back as an image, a depth or R32Float texture as floats.

pub const COLOR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
/// The format an 8-bit RGBA offscreen target's texture is made in: writable as storage, which
/// its sRGB twin is not (a deferred frame's composite in compute writes it).
pub const STORAGE_COLOR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

/// What a frame is drawn into. Where `color`'s texture is [`STORAGE_COLOR_FORMAT`] with
/// `STORAGE_BINDING` (viewed as its sRGB twin or as itself, one mip level, as
/// [`OffscreenTarget`] makes 8-bit RGBA targets) and `complete_depth` is off, a deferred frame
/// writes its shaded pixels in a dispatch instead of a full-screen pass; the depth buffer then
/// lacks the depth of the compute rasteriser's pixels (`passes::deferred`).
pub struct FrameTarget<'a> {
    pub color: &'a wgpu::TextureView,
    pub depth: &'a wgpu::TextureView,
    pub width: u32,
    pub height: u32,
    /// Draw over what `color` holds (an embedding application's own passes) instead of
    /// clearing it first; depth is cleared either way.
    pub keep_color: bool,
    /// The caller reads `depth` after the frame (draws its own depth-tested geometry over it):
    /// it must hold every opaque pixel's depth, so a deferred frame composites with the
    /// full-screen pass, never in a dispatch.
    pub complete_depth: bool,
}

impl FrameTarget<'_> {
    pub fn aspect(&self) -> f32 {
        self.width as f32 / self.height.max(1) as f32
    }
}

pub struct OffscreenTarget {
    pub color: wgpu::Texture,
    pub color_view: wgpu::TextureView,
    pub depth: wgpu::Texture,
    pub depth_view: wgpu::TextureView,
    pub width: u32,
    pub height: u32,
}

/// The main pass's depth test: nearer fragments win and are written ([`DEPTH_FORMAT`]).
pub fn depth_test() -> wgpu::DepthStencilState {
    wgpu::DepthStencilState {
        format: DEPTH_FORMAT,
        depth_write_enabled: true,
        depth_compare: wgpu::CompareFunction::Less,
        stencil: Default::default(),
        bias: Default::default(),
    }
}

/// A depth buffer: rendered into by the main pass, then read (sampled, with `textureLoad`) by
/// the pyramid pass.
pub fn depth_texture(device: &wgpu::Device, width: u32, height: u32) -> wgpu::Texture {
    depth_texture_with(device, width, height, wgpu::TextureUsages::empty())
}

fn depth_texture_with(device: &wgpu::Device, width: u32, height: u32, extra: wgpu::TextureUsages) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some("depth"),
        size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: DEPTH_FORMAT,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING | extra,
        view_formats: &[],
    })
}

impl OffscreenTarget {
    pub fn new(device: &wgpu::Device, width: u32, height: u32) -> Self {
        Self::with_format(device, width, height, COLOR_FORMAT)
    }

    /// A target of `format`. An 8-bit RGBA one (sRGB or not) is made as `Rgba8Unorm` with
    /// `STORAGE_BINDING`, viewed as `format`, so a deferred frame's composite can write it in
    /// compute (`passes::deferred::storage_view`).
    pub fn with_format(device: &wgpu::Device, width: u32, height: u32, format: wgpu::TextureFormat) -> Self {
        // COPY_DST: views of part of the target are copied into it.
        let usage =
            wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC | wgpu::TextureUsages::COPY_DST;
        let storable = format.remove_srgb_suffix() == STORAGE_COLOR_FORMAT;
        let color = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("offscreen colour"),
            size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: if storable { STORAGE_COLOR_FORMAT } else { format },
            usage: if storable { usage | wgpu::TextureUsages::STORAGE_BINDING } else { usage },
            view_formats: if storable { &[COLOR_FORMAT] } else { &[] },
        });
        // Offscreen frames are read back by tests, depth included.
        let depth = depth_texture_with(device, width, height, wgpu::TextureUsages::COPY_SRC);
        // The view drawn into: its format cannot be written as storage, so neither can it.
        let color_view = color.create_view(&wgpu::TextureViewDescriptor {
            format: Some(format),
            usage: Some(usage),
            ..Default::default()
        });
        let depth_view = depth.create_view(&Default::default());
        Self { color, color_view, depth, depth_view, width, height }
    }

    pub fn frame_target(&self) -> FrameTarget<'_> {
        FrameTarget {
            color: &self.color_view,
            depth: &self.depth_view,
            width: self.width,
            height: self.height,
            keep_color: false,
            complete_depth: false,
        }
    }

    /// Reads the colour target back as tightly packed RGBA8 rows.
    pub fn read_rgba(&self, device: &wgpu::Device, queue: &wgpu::Queue) -> image::RgbaImage {
        read_texture_rgba(device, queue, &self.color, self.width, self.height)
    }

    /// Reads the depth buffer back, row by row (as the main pass left it: a frame stores it).
    pub fn read_depth(&self, device: &wgpu::Device, queue: &wgpu::Queue) -> Vec<f32> {
        read_texture_f32(device, queue, &self.depth, 0)
    }
}

/// Copies one mip level of a Depth32Float or R32Float texture into floats, row by row.
pub fn read_texture_f32(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    texture: &wgpu::Texture,
    mip_level: u32,
) -> Vec<f32> {
    let aspect =
        if texture.format().has_depth_aspect() { wgpu::TextureAspect::DepthOnly } else { wgpu::TextureAspect::All };
    let copy = wgpu::TexelCopyTextureInfo { texture, mip_level, origin: wgpu::Origin3d::ZERO, aspect };
    let size = texture.size().mip_level_size(mip_level, texture.dimension());
    let bytes = read_texels(device, queue, copy, size.width, size.height, 4);
    bytes.chunks_exact(4).map(|texel| f32::from_ne_bytes(texel.try_into().expect("chunks of 4 bytes"))).collect()
}

/// Copies layer `layer` of a `Depth32Float` or `Depth16Unorm` array texture (mip 0) to the CPU
/// as floats, row by row.
/// Waits for the GPU.
pub fn read_depth_layer(device: &wgpu::Device, queue: &wgpu::Queue, texture: &wgpu::Texture, layer: u32) -> Vec<f32> {
    let copy = wgpu::TexelCopyTextureInfo {
        texture,
        mip_level: 0,
        origin: wgpu::Origin3d { x: 0, y: 0, z: layer },
        aspect: wgpu::TextureAspect::DepthOnly,
    };
    let size = texture.size();
    if texture.format() == wgpu::TextureFormat::Depth16Unorm {
        let bytes = read_texels(device, queue, copy, size.width, size.height, 2);
        let unorm = |texel: &[u8]| u16::from_ne_bytes(texel.try_into().expect("chunks of 2 bytes"));
        return bytes.chunks_exact(2).map(|texel| f32::from(unorm(texel)) / f32::from(u16::MAX)).collect();
    }
    let bytes = read_texels(device, queue, copy, size.width, size.height, 4);
    bytes.chunks_exact(4).map(|texel| f32::from_ne_bytes(texel.try_into().expect("chunks of 4 bytes"))).collect()
}

/// Copies a 4-byte-per-pixel texture into an image (rows re-packed from wgpu's 256-byte
/// alignment). BGRA surfaces are swizzled to RGBA.
pub fn read_texture_rgba(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    texture: &wgpu::Texture,
    width: u32,
    height: u32,
) -> image::RgbaImage {
    let mut pixels = read_texels(device, queue, texture.as_image_copy(), width, height, 4);
    let bgra = matches!(texture.format(), wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb);
    if bgra {
        pixels.chunks_exact_mut(4).for_each(|p| p.swap(0, 2));
    }
    image::RgbaImage::from_raw(width, height, pixels).expect("buffer holds exactly width × height pixels")
}

/// Copies `width` × `height` texels of `bytes_per_texel` bytes out of `copy` and returns them
/// tightly packed (rows re-packed from wgpu's 256-byte alignment). Waits for the GPU.
fn read_texels(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    copy: wgpu::TexelCopyTextureInfo<'_>,
    width: u32,
    height: u32,
    bytes_per_texel: u32,
) -> Vec<u8> {
    let unpadded = width * bytes_per_texel;
    let padded = unpadded.div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    let staging = super::readback::staging_buffer(device, "texture readback", padded as u64 * height as u64);
    let mut encoder =
        device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("texture readback") });
    encoder.copy_texture_to_buffer(
        copy,
        wgpu::TexelCopyBufferInfo {
            buffer: &staging,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded),
                rows_per_image: Some(height),
            },
        },
        wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
    );
    let index = queue.submit([encoder.finish()]);
    let mapped = super::readback::map_and_read(device, &staging, Some(index));
    let mut texels = Vec::with_capacity((unpadded * height) as usize);
    for row in mapped.chunks_exact(padded as usize) {
        texels.extend_from_slice(&row[..unpadded as usize]);
    }
    texels
}
