//! The frame uniforms of a view: its camera's projection and culling planes, the detail
//! thresholds scaled to its size, the pyramid's size, and the frame's time and debug views
//! (`FrameUniforms`, written once per view per frame; the CPU culling reference reads the
//! same).

use glam::{Mat4, Vec4};

use super::plan::{Detail, ViewSchedule};
use super::shadows::Cascade;
use super::{FrameInput, Renderer, View};
use crate::gpu::commands::dispatch_size;
use crate::gpu_scene::types::FrameUniforms;
use crate::passes::pyramid;
use crate::scene::animation;
use crate::scene::camera::frustum_planes;
use crate::tunables::{MAX_CASCADES, OCCLUDER_MIN_RADIUS_PX, SHADOW_FILTER_SLOPE, SOFT_MAX_RADIUS_PX};

impl Renderer {
    /// The uniforms a frame with this input uses on a `width` × `height` target; the CPU
    /// culling reference reads the same.
    pub fn frame_uniforms(&self, input: &FrameInput, width: u32, height: u32) -> FrameUniforms {
        let view = View::of_input(input);
        self.view_uniforms(input, &view, &self.schedule(input, &view, false), width, height)
    }

    /// The uniforms of `view` in a frame of `input`, drawn into `width` × `height` pixels.
    pub(super) fn view_uniforms(
        &self,
        input: &FrameInput,
        view: &View,
        schedule: &ViewSchedule,
        width: u32,
        height: u32,
    ) -> FrameUniforms {
        let aspect = width as f32 / height.max(1) as f32;
        let view_proj = view.camera.view_proj(aspect);
        let cull_camera = view.cull_camera.unwrap_or(view.camera);
        let (_, _, dispatch_width) = dispatch_size(self.buffers.object_count, self.cull.workgroup_size());
        // Pixels per unit of size at distance 1: the projection's y scale times half the height.
        let pixels_per_unit = height as f32 * 0.5 / (cull_camera.fov_y * 0.5).tan();
        // The compute rasteriser's list in two parts where its pass draws masked objects apart,
        // else one part with all the room.
        let (soft_masked_base, soft_masked_capacity) = match &self.raster {
            Some(raster) if raster.masked_apart() => (self.buffers.soft_masked_base, self.buffers.soft_masked_capacity),
            _ => (self.buffers.soft_masked_base + self.buffers.soft_masked_capacity, 0),
        };
        let detail = view.detail;
        let (pyramid_size, pyramid_levels) = if schedule.two_phase() {
            let (w, h) = pyramid::base_size(width, height);
            (glam::UVec2::new(w, h), pyramid::level_sizes(width, height).len() as u32)
        } else {
            (glam::UVec2::ZERO, 0)
        };
        let compact = self.plan(input.mode).compact();
        FrameUniforms {
            view_proj,
            cull_planes: frustum_planes(cull_camera.view_proj(aspect)),
            camera_position: view.camera.position.extend(1.0),
            light_direction: self.sun.towards().extend(0.0),
            animation: animation::animation_table(input.time),
            object_count: self.buffers.object_count,
            batch_count: self.buffers.batch_count,
            cull_enabled: input.cull_enabled as u32,
            compact: compact as u32,
            dispatch_width,
            identity_base: self.buffers.identity_base,
            time: input.time,
            lod_origin: cull_camera.position.extend(1.0),
            lod_enabled: detail.lod as u32,
            lod_factor: pixels_per_unit / detail.lod_error_px.max(f32::MIN_POSITIVE),
            small_enabled: (detail.min_pixels > 0.0) as u32,
            // Diameter 2r·pixels_per_unit/d below min_pixels ⇔ r·small_factor < d.
            small_factor: 2.0 * pixels_per_unit / detail.min_pixels.max(f32::MIN_POSITIVE),
            pyramid_size,
            pyramid_levels,
            debug_view: if input.albedo {
                2
            } else if input.cascade_colors {
                3
            } else {
                input.lod_colors as u32
            },
            encode_srgb: self.main.encodes_srgb as u32,
            occlusion_view_proj: view_proj,
            target_size: glam::Vec2::new(width as f32, height as f32),
            soft_enabled: schedule.soft as u32,
            // Radius r·pixels_per_unit/d (on the view axis) at most SOFT_MAX_RADIUS_PX ⇔
            // r·soft_factor ≤ d; the cull pass adds the stretch off the axis.
            soft_factor: pixels_per_unit / SOFT_MAX_RADIUS_PX,
            soft_base: self.buffers.soft_base,
            soft_masked_base,
            soft_masked_capacity,
            orthographic: 0,
            shadow_cascades: 0,
            shadow_splits: Vec4::ZERO,
            shadow_texel: Vec4::ZERO,
            shadow_view_proj: [Mat4::IDENTITY; MAX_CASCADES],
            inverse_view_proj: view_proj.inverse(),
            camera_forward: view.camera.forward().extend(0.0),
            light_color: (self.sun.color * self.sun.illuminance).extend(1.0),
            exposure: self.scene_environment.exposure,
            tone_mapping: self.scene_environment.tone_mapping as u32,
            environment_levels: crate::passes::environment::RADIANCE_LEVELS,
            blend_list: 1,
            blend_capacity: self.buffers.blend_capacity,
            blend_key_base: self.buffers.blend_key_base,
            blend_draw_base: self.buffers.blend_draw_base,
            blend_pulled: self.buffers.pulls_blend(compact) as u32,
            blend_pull_base: self.buffers.blend_pull_base,
            triangle_table_base: self.buffers.triangle_table_base,
            caster_sweep: Vec4::ZERO,
            caster_planes: [Vec4::ZERO; 6],
            cull_order_base: self.buffers.cull_order_base,
            cull_slot_base: self.buffers.cull_slot_base,
            shadow_lod_factor: 0.0,
            soft_depth_test: 0,
            paint_background: 0,
            background: self.main.background_texel(),
            occluder_capacity: if self.lists_occluders(input.mode) { self.buffers.occluder_capacity } else { 0 },
            occluder_key_base: self.buffers.occluder_key_base,
            occluder_draw_base: self.buffers.occluder_draw_base,
            // Radius r·pixels_per_unit/d above OCCLUDER_MIN_RADIUS_PX, as `soft_factor`.
            occluder_factor: pixels_per_unit / OCCLUDER_MIN_RADIUS_PX,
            mark_seen: u32::from(schedule.marks()),
        }
    }
}

/// A view's uniforms with its surfaces reading `cascades`' shadow.
pub(super) fn receive_shadows(uniforms: &mut FrameUniforms, cascades: &[Cascade]) {
    uniforms.shadow_cascades = cascades.len() as u32;
    for (k, cascade) in cascades.iter().enumerate() {
        uniforms.shadow_splits[k] = cascade.split_far;
        uniforms.shadow_texel[k] = cascade.texel_size;
        uniforms.shadow_view_proj[k] = cascade.view_proj;
    }
}

/// The uniforms of shadow cascade `cascade` of the view whose uniforms are `view`, drawn into
/// a `map_size`² layer: its orthographic projection and frustum, sizes judged in its texels,
/// and everything else the view's, the level of detail above all (its origin and threshold),
/// so every caster is drawn at the level the view draws it, or the coarser level its texels
/// allow (`shadow_lod_factor`). No shadow read; the pyramid of
/// the layer where the cascade culls in two phases (`occlusion`); the compute rasteriser for
/// its small casters where `soft`.
pub(super) fn cascade_uniforms(
    view: &FrameUniforms,
    cascade: &Cascade,
    detail: &Detail,
    map_size: u32,
    occlusion: bool,
    soft: bool,
) -> FrameUniforms {
    let mut uniforms = *view;
    uniforms.view_proj = cascade.view_proj;
    uniforms.cull_planes = frustum_planes(cascade.view_proj);
    uniforms.occlusion_view_proj = cascade.view_proj;
    uniforms.inverse_view_proj = cascade.view_proj.inverse();
    (uniforms.pyramid_size, uniforms.pyramid_levels) = if occlusion {
        let (w, h) = pyramid::base_size(map_size, map_size);
        (glam::UVec2::new(w, h), pyramid::level_sizes(map_size, map_size).len() as u32)
    } else {
        (glam::UVec2::ZERO, 0)
    };
    // A level whose error stays within the threshold in the cascade's texels, over the slope of
    // the shadow filter's response, is fine enough for it: the coarser of that and the view's
    // level.
    let threshold_texels = detail.lod_error_px / SHADOW_FILTER_SLOPE;
    uniforms.shadow_lod_factor = 1.0 / (cascade.texel_size * threshold_texels.max(f32::MIN_POSITIVE));
    // Small casters go to the compute rasteriser where the view's frame uses it: those whose
    // radius spans at most SOFT_MAX_RADIUS_PX texels.
    uniforms.soft_enabled = u32::from(soft);
    uniforms.soft_factor = 1.0 / (cascade.texel_size * SOFT_MAX_RADIUS_PX);
    uniforms.orthographic = 1;
    // Diameter 2r / texel_size texels below min_pixels ⇔ r · small_factor < 1.
    uniforms.small_factor = 2.0 / (cascade.texel_size * detail.min_pixels.max(f32::MIN_POSITIVE));
    uniforms.target_size = glam::Vec2::splat(map_size as f32);
    uniforms.shadow_cascades = 0;
    uniforms.soft_depth_test = 0;
    uniforms.paint_background = 0;
    // Blended objects receive shadows but cast none; the depth pass draws no occluders first.
    uniforms.blend_list = 0;
    uniforms.occluder_capacity = 0;
    // A cascade has no pixels to mark: its second phase sets every visible caster's bit.
    uniforms.mark_seen = 0;
    // Only casters whose shadow can reach the view's pixels of this cascade.
    uniforms.caster_sweep = cascade.caster_sweep;
    uniforms.caster_planes = cascade.caster_planes;
    uniforms
}
