//! The window's surface with its configuration and a depth buffer of the same size.
//!
//! A resize from the window system is kept until the next frame applies it, so several
//! resize events between two frames reconfigure once. A 0×0 (minimised) window keeps the old
//! configuration: a surface cannot be configured to zero size, and the frame records nothing.

use anyhow::{anyhow, Context, Result};
use winit::dpi::PhysicalSize;

use crate::gpu::target::{depth_texture, FrameTarget};
use crate::gpu::GpuContext;

pub(crate) struct SurfaceState {
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    /// Depth buffer of the scene pass, recreated with the surface's size.
    depth: wgpu::TextureView,
    /// Whether the surface's textures can be copied from (screenshots read them directly).
    pub copy_src: bool,
    /// A size from the window system (or the resize test) that no frame has applied yet.
    pending_size: Option<PhysicalSize<u32>>,
}

impl SurfaceState {
    /// Configures `surface` for `size`: an sRGB format where offered, mailbox where offered
    /// (no tearing, no waiting), copyable where possible.
    pub fn new(surface: wgpu::Surface<'static>, ctx: &GpuContext, size: PhysicalSize<u32>) -> Result<Self> {
        let caps = surface.get_capabilities(&ctx.adapter);
        let format = caps
            .formats
            .iter()
            .copied()
            .find(|f| f.is_srgb())
            .or(caps.formats.first().copied())
            .context("the surface supports no format")?;
        // COPY_SRC for window screenshots, COPY_DST for views of part of the window
        // (`--views`), where the surface allows them.
        let copies = caps.usages & (wgpu::TextureUsages::COPY_SRC | wgpu::TextureUsages::COPY_DST);
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | copies,
            format,
            width: size.width.max(1),
            height: size.height.max(1),
            present_mode: if caps.present_modes.contains(&wgpu::PresentMode::Mailbox) {
                wgpu::PresentMode::Mailbox
            } else {
                wgpu::PresentMode::Fifo
            },
            desired_maximum_frame_latency: 2,
            alpha_mode: caps.alpha_modes[0],
            view_formats: vec![],
        };
        surface.configure(&ctx.device, &config);
        let depth = depth_texture(&ctx.device, config.width, config.height).create_view(&Default::default());
        let copy_src = copies.contains(wgpu::TextureUsages::COPY_SRC);
        Ok(Self { surface, config, depth, copy_src, pending_size: None })
    }

    pub fn format(&self) -> wgpu::TextureFormat {
        self.config.format
    }

    /// Width and height in pixels.
    pub fn size(&self) -> [u32; 2] {
        [self.config.width, self.config.height]
    }

    pub fn aspect(&self) -> f32 {
        self.config.width as f32 / self.config.height.max(1) as f32
    }

    /// Asks for a new size; the next [`SurfaceState::apply_resize`] applies it.
    pub fn request_resize(&mut self, size: PhysicalSize<u32>) {
        self.pending_size = Some(size);
    }

    /// Applies a requested size; false while the window is 0×0, when the frame must record
    /// nothing.
    pub fn apply_resize(&mut self, device: &wgpu::Device) -> bool {
        let size = self.pending_size.take().unwrap_or(PhysicalSize::new(self.config.width, self.config.height));
        if size.width == 0 || size.height == 0 {
            self.pending_size = Some(size);
            return false;
        }
        if size.width != self.config.width || size.height != self.config.height {
            self.config.width = size.width;
            self.config.height = size.height;
            self.surface.configure(device, &self.config);
            self.depth = depth_texture(device, size.width, size.height).create_view(&Default::default());
        }
        true
    }

    /// The texture to draw this frame into; `None` when the frame is to be skipped (the
    /// surface was lost or outdated and is reconfigured, or acquiring timed out).
    pub fn acquire(&mut self, device: &wgpu::Device) -> Result<Option<wgpu::SurfaceTexture>> {
        match self.surface.get_current_texture() {
            Ok(texture) => Ok(Some(texture)),
            Err(wgpu::SurfaceError::Lost | wgpu::SurfaceError::Outdated) => {
                self.surface.configure(device, &self.config);
                Ok(None)
            }
            Err(wgpu::SurfaceError::Timeout) => Ok(None),
            Err(error) => Err(anyhow!("the window surface failed: {error}")),
        }
    }

    /// The scene's target: `color` (a view of the acquired texture) with this surface's depth.
    /// Whether views can be copied into the surface's textures (`--views`).
    pub fn takes_copies(&self) -> bool {
        self.config.usage.contains(wgpu::TextureUsages::COPY_DST)
    }

    pub fn frame_target<'a>(&'a self, color: &'a wgpu::TextureView) -> FrameTarget<'a> {
        FrameTarget {
            color,
            depth: &self.depth,
            width: self.config.width,
            height: self.config.height,
            keep_color: false,
            complete_depth: false,
        }
    }
}
