//! Views: a [`View`] is what one cull-and-draw of the frame produces, from one camera into one
//! target (the frame's whole target, or a [`Viewport`] of it). A frame renders an ordered list
//! of views; each culls, picks levels, tests occlusion against its own depth pyramid and draws
//! on its own, with the passes its [`ViewSchedule`](super::plan::ViewSchedule) names.
//!
//! Per view the renderer keeps a `ViewState`: the view's uniforms and visibility bits
//! ([`ViewBuffers`]), its depth pyramid, its compute rasteriser's visibility buffer, its counter
//! readbacks, the CPU modes' drawn lists and bundle, and, for a view of part of the target, a
//! target of the view's own size that is copied into its rectangle when the view is done. So a
//! view's pixels are exactly those of a frame of that camera at the view's size. The scene's
//! buffers are shared: views are recorded one after another.

use glam::{Mat4, Quat, Vec3};

use super::plan::Detail;
use super::FrameInput;
use crate::gpu::target::OffscreenTarget;
use crate::gpu_scene::{Layouts, SceneBuffers, ViewBuffers};
use crate::passes::cull::cpu::{CpuCounts, DrawnObject};
use crate::passes::cull::CounterReadback;
use crate::passes::deferred::DeferredPass;
use crate::passes::main::bundle::RecordedBundle;
use crate::passes::pyramid::PyramidPass;
use crate::passes::raster::RasterPass;
use crate::passes::shadow::ShadowMerge;
use crate::scene::Camera;

/// A rectangle of the frame's target, in pixels from its top-left corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Viewport {
    /// Left edge.
    pub x: u32,
    /// Top edge.
    pub y: u32,
    /// Width in pixels (at least 1).
    pub width: u32,
    /// Height in pixels (at least 1).
    pub height: u32,
}

/// One cull-and-draw of a frame: the camera it draws from, the camera it culls with, how much
/// it draws, and where.
#[derive(Clone, Copy, Debug)]
pub struct View {
    /// The camera the view draws from.
    pub camera: Camera,
    /// Camera whose frustum culls; `None` culls with `camera` (set it to freeze culling).
    pub cull_camera: Option<Camera>,
    /// Level of detail, size culling, occlusion culling and the compute rasteriser.
    pub detail: Detail,
    /// The part of the frame's target the view fills; `None`: all of it.
    pub viewport: Option<Viewport>,
}

impl View {
    /// A view of the whole target from `camera`, with the default detail.
    pub fn new(camera: Camera) -> Self {
        Self { camera, cull_camera: None, detail: Detail::default(), viewport: None }
    }

    /// The one view a [`FrameInput`] describes: its camera, culling camera and detail.
    pub fn of_input(input: &FrameInput) -> Self {
        Self { camera: input.camera, cull_camera: input.cull_camera, detail: input.detail, viewport: None }
    }

    /// `count` views side by side across a `width` × `height` target (columns of equal width,
    /// the last one taking the remainder): view k sees from `input`'s camera turned by
    /// k × `turn_degrees` about the vertical axis through its position. One view fills the
    /// whole target and draws into it directly, as [`View::of_input`]'s does.
    pub fn side_by_side(input: &FrameInput, count: u32, turn_degrees: f32, width: u32, height: u32) -> Vec<View> {
        let count = count.clamp(1, width.max(1));
        let column = width / count;
        (0..count)
            .map(|k| {
                let x = k * column;
                let view_width = if k + 1 == count { width - x } else { column };
                let turn = Quat::from_axis_angle(Vec3::Y, (k as f32 * turn_degrees).to_radians());
                let turned = |camera: Camera| {
                    if k == 0 {
                        return camera;
                    }
                    Camera { target: camera.position + turn * (camera.target - camera.position), ..camera }
                };
                View {
                    camera: turned(input.camera),
                    cull_camera: input.cull_camera.map(turned),
                    detail: input.detail,
                    viewport: Some(Viewport { x, y: 0, width: view_width, height }),
                }
            })
            .collect()
    }
}

/// What the renderer keeps for one view between frames.
pub(crate) struct ViewState {
    /// The view's uniforms and visibility bits.
    pub gpu: ViewBuffers,
    /// The view's depth pyramid (two-phase frames).
    pub pyramid: PyramidPass,
    /// The view-projection the pyramid was last built with, while it holds a frame's depth.
    pub pyramid_view_proj: Option<Mat4>,
    /// The view's compute rasteriser (its visibility buffer fitted to the view's size).
    pub raster: Option<RasterPass>,
    /// The view's deferred shading (its `ids` target fitted to the view's size).
    pub deferred: Option<DeferredPass>,
    /// The view's counters, read back a frame or two late.
    pub counters: CounterReadback,
    /// The bundle mode's recording and what its culling counted, made on the view's first
    /// bundle frame and replayed after.
    pub bundle: Option<(RecordedBundle, CpuCounts)>,
    /// A deferred renderer's bundle of the blended objects, recorded with `bundle` and drawn
    /// after the composite.
    pub blend_bundle: Option<RecordedBundle>,
    /// Whether `bundle` was recorded for a deferred frame (with the deferred pipelines).
    pub bundle_deferred: bool,
    /// The cpu mode's drawn objects, reused every frame.
    pub visible: Vec<DrawnObject>,
    /// The frame uniforms' bytes, reused every frame.
    pub uniform_bytes: Vec<u8>,
    /// Where a view of part of the target draws before its pixels are copied into place.
    pub own_target: Option<OffscreenTarget>,
    /// The view's shadow map and cascades, once a frame with shadows has drawn it.
    pub shadow: Option<ViewShadow>,
    /// What the adaptive frame chose for this view (`frame::adapt`).
    pub auto: super::adapt::AutoDetail,
}

/// A view's shadow: its map (one depth layer per cascade) and one view state per cascade (each
/// cascade culls and draws as a view of its own).
pub(crate) struct ViewShadow {
    pub map: ShadowMap,
    pub cascades: Vec<ViewState>,
    /// The compute rasteriser of the cascades' small casters: one visibility buffer of a
    /// layer's size, which each cascade clears, fills and merges into its layer in turn.
    pub raster: Option<RasterPass>,
    /// The merge's buffer and bindings, made in the first frame whose cascades rasterise.
    pub merge: Option<ShadowMerge>,
    /// The cascades as the view's last frame fitted them.
    pub fitted: Vec<super::shadows::Cascade>,
}

/// A depth array of one square layer per cascade: the cascades draw into their layers, the
/// view's surfaces sample the whole array.
pub(crate) struct ShadowMap {
    pub texture: wgpu::Texture,
    /// All layers, as the frame group binds them.
    pub array_view: wgpu::TextureView,
    /// Layer k, the depth attachment of cascade k's pass.
    pub layer_views: Vec<wgpu::TextureView>,
    /// Side of each layer, in texels.
    pub size: u32,
    /// One layer's worth of the far plane, 16-bit depths row after row: copied into a layer
    /// to start a cascade's first depth pass (`passes::shadow::LayerStart::Far`).
    pub far: wgpu::Buffer,
}

impl ShadowMap {
    fn new(device: &wgpu::Device, size: u32, layers: u32) -> Self {
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("shadow map"),
            size: wgpu::Extent3d { width: size, height: size, depth_or_array_layers: layers },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: crate::passes::shadow::SHADOW_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::TEXTURE_BINDING
                // A depth pass starts with a copy into its layer (`passes::shadow::LayerStart`).
                | wgpu::TextureUsages::COPY_DST
                | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let array_view = texture.create_view(&wgpu::TextureViewDescriptor {
            label: Some("shadow map layers"),
            dimension: Some(wgpu::TextureViewDimension::D2Array),
            ..Default::default()
        });
        let layer_views = (0..layers)
            .map(|layer| {
                texture.create_view(&wgpu::TextureViewDescriptor {
                    label: Some("shadow map layer"),
                    dimension: Some(wgpu::TextureViewDimension::D2),
                    base_array_layer: layer,
                    array_layer_count: Some(1),
                    ..Default::default()
                })
            })
            .collect();
        let far = crate::gpu::counted::buffer_init(
            device,
            &wgpu::util::BufferInitDescriptor {
                label: Some("shadow far plane"),
                contents: &crate::passes::shadow::far_plane_depths(size),
                usage: wgpu::BufferUsages::COPY_SRC,
            },
        );
        Self { texture, array_view, layer_views, size, far }
    }

    /// Layers in the map.
    pub fn layers(&self) -> usize {
        self.layer_views.len()
    }
}

impl ViewState {
    /// A fresh view's state: nothing visible yet, no pyramid, no bundle.
    pub fn new(
        device: &wgpu::Device,
        layouts: &Layouts,
        buffers: &SceneBuffers,
        pyramid: &PyramidPass,
        raster: Option<&RasterPass>,
        deferred: Option<&DeferredPass>,
    ) -> Self {
        Self {
            gpu: ViewBuffers::new(device, layouts, buffers),
            pyramid: pyramid.for_view(),
            pyramid_view_proj: None,
            raster: raster.map(RasterPass::for_view),
            deferred: deferred.map(DeferredPass::for_view),
            counters: CounterReadback::new(device),
            bundle: None,
            blend_bundle: None,
            bundle_deferred: false,
            visible: Vec::new(),
            uniform_bytes: Vec::new(),
            own_target: None,
            shadow: None,
            auto: Default::default(),
        }
    }

    /// Fits the view's shadow to `cascades` cascades of `size` texels: a new map (bound into
    /// the view's frame group) when either changed, a state per cascade. `None` for no shadow.
    pub fn fit_shadow(
        &mut self,
        device: &wgpu::Device,
        layouts: &Layouts,
        buffers: &SceneBuffers,
        pyramid: &PyramidPass,
        cascades: usize,
        size: u32,
    ) {
        // A bundle holds the frame group it was recorded with: a new map needs a new bundle.
        if cascades == 0 {
            if self.shadow.take().is_some() {
                self.gpu.bind_shadow_map(device, layouts, None);
                self.bundle = None;
            }
            return;
        }
        let fits = self.shadow.as_ref().is_some_and(|s| s.map.size == size && s.map.layers() == cascades);
        if !fits {
            let map = ShadowMap::new(device, size, cascades as u32);
            self.gpu.bind_shadow_map(device, layouts, Some(&map.array_view));
            self.bundle = None;
            let mut states = self.shadow.take().map(|s| s.cascades).unwrap_or_default();
            states.truncate(cascades);
            while states.len() < cascades {
                states.push(ViewState::new(device, layouts, buffers, pyramid, None, None));
            }
            let raster = self.raster.as_ref().map(RasterPass::for_view);
            self.shadow = Some(ViewShadow { map, cascades: states, raster, merge: None, fitted: Vec::new() });
        }
    }

    /// After the scene's buffers changed: new uniforms and visibility bits over them, and
    /// everything made over the old ones forgotten.
    pub fn rebind(&mut self, device: &wgpu::Device, layouts: &Layouts, buffers: &SceneBuffers) {
        self.gpu = ViewBuffers::new(device, layouts, buffers);
        if let Some(raster) = self.raster.as_mut() {
            raster.invalidate();
        }
        if let Some(deferred) = self.deferred.as_mut() {
            deferred.invalidate();
        }
        self.bundle = None;
        if let Some(shadow) = self.shadow.as_mut() {
            self.gpu.bind_shadow_map(device, layouts, Some(&shadow.map.array_view));
            for cascade in &mut shadow.cascades {
                cascade.rebind(device, layouts, buffers);
            }
            if let Some(raster) = shadow.raster.as_mut() {
                raster.invalidate();
            }
            shadow.merge = None;
        }
    }

    /// A target of `width` × `height` in `format` for a view of part of the frame's target,
    /// made again when the size changes.
    pub fn fit_own_target(
        &mut self,
        device: &wgpu::Device,
        format: wgpu::TextureFormat,
        width: u32,
        height: u32,
    ) -> &OffscreenTarget {
        if !self.own_target.as_ref().is_some_and(|t| t.width == width && t.height == height) {
            self.own_target = Some(OffscreenTarget::with_format(device, width, height, format));
        }
        self.own_target.as_ref().expect("made above")
    }
}
