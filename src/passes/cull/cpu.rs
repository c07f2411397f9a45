//! The CPU culling reference and the CPU baseline's culling: the same arithmetic as
//! `shaders/shared/math.wgsl` and `shaders/cull.wgsl` (frustum, size and LOD tests), in the
//! same order, on the same inputs. The CPU has no depth buffer, so there is no occlusion test:
//! the baseline draws a superset of what occlusion culling draws, with the same pixels.

use glam::{Vec3, Vec4, Vec4Swizzles};

use crate::gpu_scene::cells::CullOrder;
use crate::gpu_scene::types::{FrameUniforms, GpuBatch, GpuCullRecord, GpuObject};
use crate::tunables::{CELL_OBJECTS, CELL_SLACK, LEVEL_SHIFT, LOD_LEVELS, SPIN_MASK, VARIANT_BLEND};

/// One object to draw: its id and the batch of the level it is drawn at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DrawnObject {
    pub id: u32,
    pub batch: u32,
}

/// What the CPU's culling counted in one frame: the CPU modes' share of the GPU counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct CpuCounts {
    pub in_frustum: u32,
    pub too_small: u32,
    /// Objects drawn: they pass the frustum and size tests.
    pub visible: u32,
    pub triangles: u64,
    pub levels: [u32; LOD_LEVELS as usize],
}

fn rotate_y(p: Vec3, cs: (f32, f32)) -> Vec3 {
    Vec3::new(cs.0 * p.x + cs.1 * p.z, p.y, cs.0 * p.z - cs.1 * p.x)
}

/// Object space → world space at the frame's time (see `animate_point` in WGSL).
pub fn animate_point(frame: &FrameUniforms, object: &GpuObject, local: Vec3) -> Vec3 {
    let spin = frame.animation[((object.animation >> 16) & SPIN_MASK) as usize];
    let orbit = frame.animation[(object.animation & 0xffff) as usize];
    let spun = rotate_y(local, (spin.z, spin.w));
    let placed = (object.model * spun.extend(1.0)).xyz();
    rotate_y(placed, (orbit.x, orbit.y))
}

/// The centre of `object`'s bounding sphere at the frame's time, as the cull pass computes it
/// from the object's [`GpuCullRecord`] (`animated_center` in `shaders/cull.wgsl`): the same
/// point as [`animate_point`] of the bounds' centre, summed in another order.
pub fn animated_center(frame: &FrameUniforms, object: &GpuObject) -> Vec3 {
    record_center(frame, &GpuCullRecord::of(object))
}

/// The centre of `record`'s sphere (an object's or a cell's) at the frame's time.
pub fn record_center(frame: &FrameUniforms, record: &GpuCullRecord) -> Vec3 {
    let spin = frame.animation[((record.animation >> 16) & SPIN_MASK) as usize];
    let orbit = frame.animation[(record.animation & 0xffff) as usize];
    let placed = spin.z * record.spin_cos + spin.w * record.spin_sin + record.fixed;
    rotate_y(placed, (orbit.x, orbit.y))
}

/// Whether a caster bounded by the sphere at `center` with `radius` can shadow a point inside
/// `planes` (a convex volume, unit normals pointing in) under sunlight travelling along
/// `sweep.xyz` for at most `sweep.w`: whether the sphere swept that far meets the volume, i.e.
/// whether some t in 0..=`sweep.w` puts `center + t · sweep.xyz` within `radius` of every
/// plane. Conservative at the volume's edges (the planes are widened, not the corners
/// rounded), exact along a face. The cull pass's `casts_into_view` (`shaders/cull.wgsl`) is
/// the same test; `frame::shadows::Cascade` holds a cascade's planes and sweep.
pub fn casts_into(planes: &[Vec4; 6], sweep: Vec4, center: Vec3, radius: f32) -> bool {
    let (mut from, mut to) = (0.0f32, sweep.w);
    let sweep = sweep.truncate();
    for plane in planes {
        // Inside the widened plane at t: height + t · rate ≥ 0.
        let height = plane.truncate().dot(center) + plane.w + radius;
        let rate = plane.truncate().dot(sweep);
        if rate > 0.0 {
            from = from.max(-height / rate);
        } else if rate < 0.0 {
            to = to.min(height / -rate);
        } else if height < 0.0 {
            return false;
        }
    }
    from <= to
}

pub fn sphere_in_frustum(planes: &[Vec4; 6], center: Vec3, radius: f32) -> bool {
    planes.iter().all(|p| p.xyz().dot(center) + p.w >= -radius)
}

/// `within_nearest` in WGSL: whether `reach` is at most the sphere's nearest distance from
/// the camera, compared in squares.
fn within_nearest(reach: f32, radius: f32, distance_sq: f32) -> bool {
    let far = reach + radius;
    far * far <= distance_sq
}

/// `select_level` in WGSL: the coarsest level whose projected error is at most the threshold
/// (in a shadow cascade, the coarser of the view's level and the cascade's own).
pub fn select_level(frame: &FrameUniforms, batches: &[GpuBatch], object: &GpuObject, distance_sq: f32) -> u32 {
    if frame.lod_enabled == 0 {
        return 0;
    }
    let radius = object.bounds.w;
    let first = object.batch as usize;
    let count = batches[first].level_count.min(LOD_LEVELS);
    (1..count)
        .rev()
        .find(|&level| {
            let error = batches[first + level as usize].relative_error * radius;
            within_nearest(error * frame.lod_factor, radius, distance_sq)
                || (frame.orthographic != 0 && error * frame.shadow_lod_factor <= 1.0)
        })
        .unwrap_or(0)
}

/// `is_too_small` in WGSL.
pub fn is_too_small(frame: &FrameUniforms, radius: f32, distance_sq: f32) -> bool {
    if frame.orthographic != 0 {
        return frame.small_enabled != 0 && radius * frame.small_factor < 1.0;
    }
    let far = radius * frame.small_factor + radius;
    frame.small_enabled != 0 && far * far < distance_sq
}

/// The culling decision for one object, as the shader's single phase makes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    OutsideFrustum,
    TooSmall,
    Drawn { level: u32 },
}

/// Whether a sphere is in the view (`in_view` in WGSL): the frustum and, in a shadow cascade
/// (`caster_sweep.w` > 0), the caster test: only casters whose shadow can reach the view.
fn in_view(frame: &FrameUniforms, center: Vec3, radius: f32) -> bool {
    sphere_in_frustum(&frame.cull_planes, center, radius)
        && (frame.caster_sweep.w == 0.0 || casts_into(&frame.caster_planes, frame.caster_sweep, center, radius))
}

pub fn classify(frame: &FrameUniforms, batches: &[GpuBatch], object: &GpuObject) -> Decision {
    let center = animated_center(frame, object);
    let radius = object.bounds.w;
    let to_camera = center - frame.lod_origin.xyz();
    let distance_sq = to_camera.x * to_camera.x + to_camera.y * to_camera.y + to_camera.z * to_camera.z;
    let culling = frame.cull_enabled != 0;
    if culling && !in_view(frame, center, radius) {
        return Decision::OutsideFrustum;
    }
    if culling && is_too_small(frame, radius, distance_sq) {
        return Decision::TooSmall;
    }
    Decision::Drawn { level: select_level(frame, batches, object, distance_sq) }
}

pub fn is_visible(frame: &FrameUniforms, batches: &[GpuBatch], object: &GpuObject) -> bool {
    matches!(classify(frame, batches, object), Decision::Drawn { .. })
}

/// The blend sort's key of `object` (`blend_key` in `shaders/cull.wgsl`): the complemented
/// bits of its squared distance from the drawing camera, so that ascending keys run from the
/// farthest to the nearest.
pub fn blend_key(frame: &FrameUniforms, object: &GpuObject) -> u32 {
    let to_camera = animated_center(frame, object) - frame.camera_position.xyz();
    !(to_camera.x * to_camera.x + to_camera.y * to_camera.y + to_camera.z * to_camera.z).to_bits()
}

/// Where the blended objects of `drawn` (ordered as [`cull_into`] orders them) begin.
pub fn first_blended(drawn: &[DrawnObject], batches: &[GpuBatch]) -> usize {
    drawn.partition_point(|d| batches[d.batch as usize].variant != VARIANT_BLEND)
}

/// Whether `object` is blended: its batches are the blend variant's.
pub fn is_blended(batches: &[GpuBatch], object: &GpuObject) -> bool {
    batches[object.batch as usize].variant == VARIANT_BLEND
}

/// The objects to draw appended to `drawn` (cleared first, so a per-frame caller can reuse its
/// allocation), and what was counted. Opaque, masked and debug objects come in id order (hence
/// grouped by variant); blended ones after them (their variant is last), ordered as the GPU's
/// blend sort orders them: by [`blend_key`], then by id tagged with the level. A view with
/// `frame.blend_list` 0 (a shadow cascade) leaves blended objects out (neither counted nor
/// drawn), as the GPU does.
pub fn cull_into(
    frame: &FrameUniforms,
    objects: &[GpuObject],
    batches: &[GpuBatch],
    drawn: &mut Vec<DrawnObject>,
) -> CpuCounts {
    profile_function!();
    drawn.clear();
    let mut counts = CpuCounts::default();
    for (id, object) in objects.iter().enumerate() {
        cull_one(frame, batches, id as u32, object, drawn, &mut counts);
    }
    let first_blended = first_blended(drawn, batches);
    drawn[first_blended..].sort_by_cached_key(|d| {
        let object = &objects[d.id as usize];
        (blend_key(frame, object), d.id | (d.batch - object.batch) << LEVEL_SHIFT)
    });
    counts
}

/// Classifies object `id`, counts it and appends it to `drawn` when it is drawn; a view with
/// `frame.blend_list` 0 (a shadow cascade) leaves a blended object out, neither counted nor
/// drawn, as the GPU does.
fn cull_one(
    frame: &FrameUniforms,
    batches: &[GpuBatch],
    id: u32,
    object: &GpuObject,
    drawn: &mut Vec<DrawnObject>,
    counts: &mut CpuCounts,
) {
    if frame.blend_list == 0 && is_blended(batches, object) {
        return;
    }
    match classify(frame, batches, object) {
        Decision::OutsideFrustum => {}
        Decision::TooSmall => {
            counts.in_frustum += 1;
            counts.too_small += 1;
        }
        Decision::Drawn { level } => {
            counts.in_frustum += 1;
            counts.visible += 1;
            counts.levels[level as usize] += 1;
            let batch = object.batch + level;
            counts.triangles += (batches[batch as usize].index_count / 3) as u64;
            drawn.push(DrawnObject { id, batch });
        }
    }
}

pub fn cull(frame: &FrameUniforms, objects: &[GpuObject], batches: &[GpuBatch]) -> (Vec<DrawnObject>, CpuCounts) {
    let mut drawn = Vec::new();
    let counts = cull_into(frame, objects, batches, &mut drawn);
    (drawn, counts)
}

/// Whether the cull's hierarchy skips `cell` (a cell's record, `gpu_scene::cells`) in this
/// view: its sphere fails the frustum or, in a shadow cascade, the caster test
/// (`cell_may_hold_visible` in `shaders/cull.wgsl`). Never with culling off.
pub fn cell_rejected(frame: &FrameUniforms, cell: &GpuCullRecord) -> bool {
    if frame.cull_enabled == 0 {
        return false;
    }
    let center = record_center(frame, cell);
    let largest = (frame.cull_planes.iter().chain(&frame.caster_planes))
        .fold(frame.caster_sweep.w, |largest, p| largest.max(p.w.abs()));
    let slack = CELL_SLACK * (largest + center.abs().element_sum());
    !in_view(frame, center, cell.radius + slack)
}

/// The cull as the GPU walks it (`cull_batched` in `shaders/cull.wgsl`): cell by cell of
/// `order`, each object of a cell [`cell_rejected`] left out unread, the others classified
/// as [`cull_into`] does. The objects drawn, in cull order, and what was counted; as sets they
/// equal [`cull`]'s (tests/cull.rs checks it).
pub fn cull_hierarchy(
    frame: &FrameUniforms,
    objects: &[GpuObject],
    batches: &[GpuBatch],
    order: &CullOrder,
) -> (Vec<DrawnObject>, CpuCounts) {
    let (mut drawn, mut counts) = (Vec::new(), CpuCounts::default());
    for (cell, slots) in order.ids.chunks(CELL_OBJECTS as usize).enumerate() {
        if cell_rejected(frame, &order.cell(objects, cell)) {
            continue;
        }
        for &id in slots {
            cull_one(frame, batches, id, &objects[id as usize], &mut drawn, &mut counts);
        }
    }
    (drawn, counts)
}

/// Relative distance to a plane under which a sphere counts as touching it to float precision:
/// about 16 f32 rounding steps of the largest term of the plane test.
pub const BOUNDARY_TOLERANCE: f32 = 2e-6;

/// Whether a squared-distance comparison `far² ≤ distance²` is within float rounding of
/// flipping (about 16 rounding steps of the larger side).
fn near_tie(far: f32, distance_sq: f32) -> bool {
    let far_sq = far * far;
    (far_sq - distance_sq).abs() <= 4.0 * BOUNDARY_TOLERANCE * far_sq.max(distance_sq)
}

/// Whether rounding could flip one of `object`'s tests: its sphere touches a culling plane, or
/// sits on the size threshold or on a level-of-detail switch distance.
pub fn on_boundary(frame: &FrameUniforms, batches: &[GpuBatch], object: &GpuObject) -> bool {
    if frame.cull_enabled == 0 && frame.lod_enabled == 0 {
        return false;
    }
    // A live scene's spare slot (`live::sync`) has a huge negative radius, which every frustum
    // test rejects whatever the rounding; its squares overflow to infinity, and infinity is
    // "within tolerance" of anything, so without this the spares would all count as ties.
    if !is_drawable_slot(object) {
        return false;
    }
    let center = animated_center(frame, object);
    let radius = object.bounds.w;
    let to_camera = center - frame.lod_origin.xyz();
    let distance_sq = to_camera.dot(to_camera);
    let touches_plane = frame.cull_enabled != 0
        && frame.cull_planes.iter().any(|p| {
            let margin = p.xyz().dot(center) + p.w + radius;
            let scale = center.abs().dot(p.xyz().abs()) + p.w.abs() + radius;
            margin.abs() <= BOUNDARY_TOLERANCE * scale
        });
    let at_size = frame.cull_enabled != 0
        && frame.small_enabled != 0
        && near_tie(radius * frame.small_factor + radius, distance_sq);
    let first = object.batch as usize;
    let at_level = frame.lod_enabled != 0
        && (1..batches[first].level_count.min(LOD_LEVELS) as usize).any(|level| {
            let error = batches[first + level].relative_error * radius * frame.lod_factor;
            near_tie(error + radius, distance_sq)
        });
    touches_plane || at_size || at_level
}

/// Whether `object` is a real object rather than a slot kept spare, which no test draws (its
/// bounding radius is negative: `live::sync`'s spares).
pub fn is_drawable_slot(object: &GpuObject) -> bool {
    object.bounds.w >= 0.0
}

/// Objects whose culling or level could differ by one rounding step between the CPU and a GPU
/// that fuses multiply-adds ([`on_boundary`]); the benchmark accepts GPU/CPU visible counts
/// that differ by at most this many objects.
pub fn boundary_count(frame: &FrameUniforms, objects: &[GpuObject], batches: &[GpuBatch]) -> u32 {
    objects.iter().filter(|o| on_boundary(frame, batches, o)).count() as u32
}

#[cfg(test)]
mod tests {
    use glam::{Mat4, Vec4};

    use super::*;
    use crate::tunables::ANIMATION_CLASSES;

    /// A box of half-size 5 around the origin seen from z = 10, every test on, nothing moving.
    fn frame() -> FrameUniforms {
        let mut animation = [Vec4::ZERO; ANIMATION_CLASSES as usize];
        // Animation class 0 stands still: cos 1, sin 0 for the orbit (xy) and the spin (zw).
        animation[0] = Vec4::new(1.0, 0.0, 1.0, 0.0);
        FrameUniforms {
            view_proj: Mat4::IDENTITY,
            cull_planes: [
                Vec4::new(1.0, 0.0, 0.0, 5.0),
                Vec4::new(-1.0, 0.0, 0.0, 5.0),
                Vec4::new(0.0, 1.0, 0.0, 5.0),
                Vec4::new(0.0, -1.0, 0.0, 5.0),
                Vec4::new(0.0, 0.0, 1.0, 5.0),
                Vec4::new(0.0, 0.0, -1.0, 5.0),
            ],
            camera_position: Vec4::new(0.0, 0.0, 10.0, 1.0),
            light_direction: Vec4::Y,
            animation,
            object_count: 0,
            batch_count: 0,
            cull_enabled: 1,
            compact: 0,
            dispatch_width: 0,
            identity_base: 0,
            time: 0.0,
            lod_origin: Vec4::new(0.0, 0.0, 10.0, 1.0),
            lod_enabled: 1,
            lod_factor: 10.0,
            small_enabled: 1,
            small_factor: 100.0,
            pyramid_size: glam::UVec2::ZERO,
            pyramid_levels: 0,
            debug_view: 0,
            encode_srgb: 0,
            occlusion_view_proj: Mat4::IDENTITY,
            target_size: glam::Vec2::ONE,
            soft_enabled: 0,
            soft_factor: 0.0,
            soft_base: 0,
            soft_masked_base: 0,
            soft_masked_capacity: 0,
            orthographic: 0,
            shadow_cascades: 0,
            shadow_splits: Vec4::ZERO,
            shadow_texel: Vec4::ZERO,
            shadow_view_proj: [Mat4::IDENTITY; crate::tunables::MAX_CASCADES],
            inverse_view_proj: Mat4::IDENTITY,
            camera_forward: Vec4::NEG_Z,
            light_color: Vec4::ONE,
            exposure: 1.0,
            tone_mapping: 0,
            environment_levels: 1,
            blend_list: 1,
            blend_capacity: 0,
            blend_key_base: 0,
            blend_draw_base: 0,
            blend_pulled: 0,
            blend_pull_base: 0,
            triangle_table_base: 0,
            caster_sweep: Vec4::ZERO,
            caster_planes: [Vec4::ZERO; 6],
            cull_order_base: 0,
            cull_slot_base: 0,
            shadow_lod_factor: 0.0,
            soft_depth_test: 0,
            paint_background: 0,
            background: Vec4::ZERO,
            occluder_capacity: 0,
            occluder_key_base: 0,
            occluder_draw_base: 0,
            occluder_factor: 0.0,
            mark_seen: 0,
        }
    }

    fn batches() -> Vec<GpuBatch> {
        let mut batch: GpuBatch = bytemuck::Zeroable::zeroed();
        batch.level_count = 2;
        batch.index_count = 36;
        batch.relative_error = 0.01;
        vec![batch; 2]
    }

    fn object(center_x: f32, radius: f32) -> GpuObject {
        let mut object: GpuObject = bytemuck::Zeroable::zeroed();
        object.model = Mat4::from_translation(glam::Vec3::new(center_x, 0.0, 0.0));
        object.bounds = Vec4::new(0.0, 0.0, 0.0, radius);
        object
    }

    /// A shadow cascade draws the coarser of the view's level and the coarsest level whose
    /// error fits its texels; a view draws its own. The batches' level 1 has a relative error
    /// of 0.01: for a radius-2 object, 0.02 in world units.
    #[test]
    fn a_cascade_draws_the_coarser_of_the_views_level_and_its_own() {
        let batches = batches();
        let near = object(0.0, 2.0);
        // At distance 10 the view wants level 0: its error projects to 0.02 · 1000 = 20 > 10 − 2.
        let view = FrameUniforms { lod_factor: 1000.0, ..frame() };
        let distance_sq = 100.0;
        assert_eq!(select_level(&view, &batches, &near, distance_sq), 0);
        // Texels of 0.1 at an error threshold of 0.25 texel: 0.02 · (1 / 0.025) ≤ 1.
        let coarse = FrameUniforms { orthographic: 1, shadow_lod_factor: 40.0, ..view };
        assert_eq!(select_level(&coarse, &batches, &near, distance_sq), 1, "the cascade's texels allow level 1");
        // Texels of 0.01: level 1's error is two texels; the view's level 0 it is.
        let fine = FrameUniforms { shadow_lod_factor: 400.0, ..coarse };
        assert_eq!(select_level(&fine, &batches, &near, distance_sq), 0);
        // The factor counts only in a cascade.
        let not_a_cascade = FrameUniforms { orthographic: 0, ..coarse };
        assert_eq!(select_level(&not_a_cascade, &batches, &near, distance_sq), 0);
        // Where the view picks the coarser level, the cascade draws it too.
        let far_view = FrameUniforms { lod_factor: 10.0, ..fine };
        assert_eq!(select_level(&far_view, &batches, &near, distance_sq), 1);
    }

    #[test]
    fn spare_slots_are_never_on_a_boundary() {
        let (frame, batches) = (frame(), batches());
        // What `live::sync` writes into a spare slot: zero model matrix, radius -1e30.
        let spare = GpuObject { model: Mat4::ZERO, bounds: Vec4::new(0.0, 0.0, 0.0, -1.0e30), ..object(0.0, 1.0) };
        assert_eq!(classify(&frame, &batches, &spare), Decision::OutsideFrustum);
        assert!(!on_boundary(&frame, &batches, &spare), "a spare slot is culled whatever the rounding");
        let scene = [spare, object(0.0, 1.0), spare, object(-6.0, 1.0), spare];
        // The sphere at x = -6 of radius 1 touches the plane x = -5 exactly.
        assert_eq!(boundary_count(&frame, &scene, &batches), 1);
    }

    /// The cull's centre from the three parts of a `GpuCullRecord` is the bounds' centre
    /// spun, placed and orbited as `animate_point` does it, to float rounding, for rotated,
    /// scaled (also unevenly and mirrored) objects whose bounds are off their spin axis.
    #[test]
    fn record_centre_is_the_animated_bounds_centre() {
        let mut frame = frame();
        for class in 0..ANIMATION_CLASSES as usize {
            let (orbit, spin) = (0.37 * class as f32 + 0.1, -1.3 * class as f32 + 0.2);
            frame.animation[class] = Vec4::new(orbit.cos(), orbit.sin(), spin.cos(), spin.sin());
        }
        for i in 0..200u32 {
            let f = i as f32;
            let scale =
                glam::Vec3::new(0.5 + (f * 0.7).sin().abs(), if i % 5 == 0 { -1.5 } else { 2.0 }, 1.0 + f * 0.01);
            let rotation = glam::Quat::from_euler(glam::EulerRot::XYZ, f * 0.3, f * 0.11, -f * 0.07);
            let translation = glam::Vec3::new(f - 100.0, (f * 1.3).cos() * 40.0, 250.0 - 2.0 * f);
            let object = GpuObject {
                model: Mat4::from_scale_rotation_translation(scale, rotation, translation),
                bounds: Vec4::new((f * 0.9).sin() * 3.0, (f * 0.4).cos(), -(f * 0.2).sin() * 2.0, 1.5),
                animation: (i % ANIMATION_CLASSES) | (((i * 7) % ANIMATION_CLASSES) << 16),
                ..object(0.0, 1.0)
            };
            let expected = animate_point(&frame, &object, object.bounds.xyz());
            let got = animated_center(&frame, &object);
            let size = translation.abs().max_element() + 10.0;
            assert!((got - expected).abs().max_element() <= 1e-5 * size, "object {i}: {got} vs {expected}");
        }
    }
}
