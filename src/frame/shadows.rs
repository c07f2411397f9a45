//! Cascaded shadow maps for the sun: the drawing camera's depth range, up to where the scene
//! ends, is split into cascades (the practical scheme: half logarithmic, half uniform), and each
//! slice gets an orthographic view along the sunlight that covers it.
//!
//! Stable under camera motion: a slice's bounding sphere is computed from the frustum's shape
//! alone (its radius does not change when the camera turns), rounded up, and its centre is
//! snapped to whole texels in a light space fixed to the world (the sun's direction only), so a
//! camera that moves or turns moves the map by whole texels and a shadow's edge does not
//! shimmer. Toward the sun each cascade reaches back to the scene's bounds, so a caster outside
//! the slice, even outside the camera's view, still casts into it.
//!
//! Each cascade is a view of its own: it culls with its own frustum (sizes judged in its
//! texels), and picks every object's level of detail from the *drawing camera's* position and
//! detail, so a shadow has the shape of the object that casts it, whichever cascade draws it
//! (`Renderer::cascade_uniforms`).

use glam::{Mat4, Vec3, Vec4};

use crate::gpu_scene::types::GpuObject;
use crate::scene::Camera;
use crate::tunables::{MAX_CASCADES, SHADOW_BLEND, SHADOW_MAP_MAX_SIZE, SHADOW_MAP_MIN_SIZE};

/// How the practical split scheme mixes logarithmic splits (1) with uniform ones (0).
pub const SPLIT_LAMBDA: f32 = 0.5;

/// One cascade of a view's shadow, fitted to its slice.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cascade {
    /// World space to the cascade's clip space (orthographic, depth 0 toward the sun).
    pub view_proj: Mat4,
    /// The view depth (along the camera's forward axis) where the cascade's slice ends.
    pub split_far: f32,
    /// World size of one texel of the cascade's map.
    pub texel_size: f32,
    /// The planes (xyz · p + w ≥ 0 inside) of the part of the camera's frustum whose surfaces
    /// read this cascade (its slice, and the previous cascade's blend band, which fades into
    /// it), each moved out by [`CASTER_REACH_TEXELS`] texels: a caster whose shadow reaches
    /// none of it changes no pixel, and the cull leaves it out
    /// ([`casts_into`](crate::passes::cull::cpu::casts_into) on the CPU, `casts_into_view` in
    /// `shaders/cull.wgsl` on the GPU).
    pub caster_planes: [Vec4; 6],
    /// xyz: the unit direction sunlight travels; w: how far a shadow can run, the scene's
    /// extent along it (no receiver lies farther from a caster).
    pub caster_sweep: Vec4,
}

/// How far beyond a receiver, in the cascade's texels, a caster may still change its light:
/// the filter's taps reach 1.5 texels and the normal offset one more.
pub const CASTER_REACH_TEXELS: f32 = 3.0;

/// The planes of the part of `camera`'s frustum between view depths `near` and `far` (`sides`:
/// its frustum's planes, the first four of them its sides), moved out by `reach`.
fn slice_planes(camera: &Camera, sides: &[Vec4; 6], near: f32, far: f32, reach: f32) -> [Vec4; 6] {
    let forward = camera.forward();
    let at = forward.dot(camera.position);
    let planes = [sides[0], sides[1], sides[2], sides[3], forward.extend(-(at + near)), (-forward).extend(at + far)];
    planes.map(|p| Vec4::new(p.x, p.y, p.z, p.w + reach))
}

/// An axis-aligned box that holds every object wherever its animation takes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SceneBounds {
    pub min: Vec3,
    pub max: Vec3,
}

impl SceneBounds {
    /// The bounds of `objects`' bounding spheres at time 0, widened for the animated ones to
    /// the whole circle an orbit about the world's Y axis sweeps (and the spin of their centre
    /// about their own Y axis); `None` for no objects, or none with finite bounds.
    pub fn of_objects(objects: &[GpuObject]) -> Option<Self> {
        let mut bounds: Option<Self> = None;
        for object in objects {
            bounds = Self::grown(bounds, object);
        }
        bounds
    }

    /// `bounds` grown to hold `object` (see [`SceneBounds::of_objects`]).
    pub fn grown(bounds: Option<Self>, object: &GpuObject) -> Option<Self> {
        let center = object.model.transform_point3(object.bounds.truncate());
        let mut radius = object.bounds.w;
        if !center.is_finite() || !radius.is_finite() || radius < 0.0 {
            return bounds;
        }
        let moving = object.animation & 0xffff != 0 || (object.animation >> 16) & crate::tunables::SPIN_MASK != 0;
        let (lo, hi) = if moving {
            // Spinning moves the centre about the object's own axis by at most its distance
            // from it; orbiting sweeps the circle of the centre's distance from the world's axis.
            let local = object.bounds.truncate();
            let scale = object.model.x_axis.truncate().length().max(object.model.z_axis.truncate().length());
            radius += Vec3::new(local.x, 0.0, local.z).length() * scale;
            let reach = Vec3::new(center.x, 0.0, center.z).length() + radius;
            (Vec3::new(-reach, center.y - radius, -reach), Vec3::new(reach, center.y + radius, reach))
        } else {
            (center - Vec3::splat(radius), center + Vec3::splat(radius))
        };
        if !lo.is_finite() || !hi.is_finite() {
            return bounds;
        }
        Some(match bounds {
            None => Self { min: lo, max: hi },
            Some(b) => Self { min: b.min.min(lo), max: b.max.max(hi) },
        })
    }

    fn corners(&self) -> [Vec3; 8] {
        std::array::from_fn(|i| {
            Vec3::new(
                if i & 1 == 0 { self.min.x } else { self.max.x },
                if i & 2 == 0 { self.min.y } else { self.max.y },
                if i & 4 == 0 { self.min.z } else { self.max.z },
            )
        })
    }
}

/// The side of each cascade's map for a view of `width` × `height`: its larger side rounded up
/// to a power of two, within `SHADOW_MAP_MIN_SIZE`..=`SHADOW_MAP_MAX_SIZE` (2048 for 1920 ×
/// 1080; half that halves the shadow passes' cost on the H200 and doubles a shadow edge's
/// error: docs/BENCHMARKS.md § "Shadows (issue 24)").
pub fn map_size(width: u32, height: u32) -> u32 {
    width.max(height).max(1).next_power_of_two().clamp(SHADOW_MAP_MIN_SIZE, SHADOW_MAP_MAX_SIZE)
}

/// The view depths where each of `count` cascades ends, between `near` and `far` (practical
/// split scheme, [`SPLIT_LAMBDA`]).
pub fn split_depths(near: f32, far: f32, count: usize) -> [f32; MAX_CASCADES] {
    let mut splits = [far; MAX_CASCADES];
    let near = near.max(1e-4);
    for (i, split) in splits.iter_mut().enumerate().take(count) {
        let t = (i + 1) as f32 / count as f32;
        let log = near * (far / near).powf(t);
        let uniform = near + (far - near) * t;
        *split = SPLIT_LAMBDA * log + (1.0 - SPLIT_LAMBDA) * uniform;
    }
    splits[count.max(1) - 1] = far;
    splits
}

/// The smallest sphere around the slice of a perspective frustum between view depths `near`
/// and `far` whose cross-section at depth `z` has half-diagonal `z · k`: its centre's depth on
/// the view axis and its radius. Depends on the frustum's shape only, not on where it points.
fn slice_sphere(near: f32, far: f32, k: f32) -> (f32, f32) {
    let k2 = k * k;
    // Equidistant from the near and the far rim, unless the far rim's own centre holds both.
    let z = 0.5 * (far + near) * (1.0 + k2);
    if z >= far {
        return (far, far * k);
    }
    (z, ((far - z) * (far - z) + far * far * k2).sqrt())
}

/// The world-fixed light space of a sun shining along `direction`: looking along it from the
/// origin.
fn light_view(direction: Vec3) -> Mat4 {
    let up = if direction.y.abs() > 0.99 { Vec3::X } else { Vec3::Y };
    glam::camera::rh::view::look_to_mat4(Vec3::ZERO, direction, up)
}

/// An orthographic projection of the light-space box x in `[left, right]`, y in `[bottom,
/// top]`, at distances `near` to `far` along −z, into wgpu's clip space (depth 0 at `near`).
fn orthographic(left: f32, right: f32, bottom: f32, top: f32, near: f32, far: f32) -> Mat4 {
    let (w, h, d) = (right - left, top - bottom, far - near);
    Mat4::from_cols(
        Vec4::new(2.0 / w, 0.0, 0.0, 0.0),
        Vec4::new(0.0, 2.0 / h, 0.0, 0.0),
        Vec4::new(0.0, 0.0, -1.0 / d, 0.0),
        Vec4::new(-(right + left) / w, -(top + bottom) / h, -near / d, 1.0),
    )
}

/// How deep into the view shadows reach: as far as the scene's bounds' farthest corner is from
/// the camera (a distance, not a depth, so turning the camera in place keeps it), within the
/// camera's far plane, rounded up to a sixteenth of its power of two, so that a camera moving
/// inside the scene keeps its splits (and its cascades' texel sizes) over long stretches.
pub fn shadow_reach(camera: &Camera, bounds: &SceneBounds) -> f32 {
    let farthest = bounds.corners().iter().map(|c| c.distance(camera.position)).fold(0.0, f32::max);
    // Also where it is NaN (bounds beyond f32's range): no shadows then.
    if farthest.is_nan() || farthest <= 0.0 {
        return 0.0;
    }
    let step = (farthest.log2().ceil() - 4.0).exp2();
    ((farthest / step).ceil() * step).min(camera.far)
}

/// `count` cascades (1 to `MAX_CASCADES`) of `camera`'s view at `aspect`, for a sun along
/// `direction` over a scene within `bounds`, each `map_size` texels square. Empty where the
/// scene lies wholly behind the camera.
pub fn fit(
    camera: &Camera,
    aspect: f32,
    direction: Vec3,
    bounds: &SceneBounds,
    count: usize,
    map_size: u32,
) -> Vec<Cascade> {
    let count = count.clamp(1, MAX_CASCADES);
    let reach = shadow_reach(camera, bounds);
    if reach.is_nan() || reach <= camera.near {
        return Vec::new();
    }
    let splits = split_depths(camera.near, reach, count);
    let tan_y = (camera.fov_y * 0.5).tan();
    let k = tan_y * (1.0 + aspect * aspect).sqrt();
    let light = light_view(direction);
    // Every cascade's depth range is the scene's extent along the sunlight: every caster lies
    // in it, so casters outside a slice still cast into it, and a point's depth in a cascade
    // does not depend on the camera (a moving camera shifts the maps, it does not redraw them).
    let distances = bounds.corners().map(|c| -light.transform_point3(c).z);
    let nearest = distances.iter().copied().fold(f32::MAX, f32::min);
    let farthest = distances.iter().copied().fold(f32::MIN, f32::max);
    let margin = (farthest - nearest).max(1.0) * 1e-3;
    let (near, far) = (nearest - margin, farthest + margin);
    let forward = camera.forward();
    let sides = crate::scene::camera::frustum_planes(camera.view_proj(aspect));
    let mut start = camera.near;
    (0..count)
        .map(|i| {
            let end = splits[i];
            let (depth, radius) = slice_sphere(start, end, k);
            // Receivers of this cascade: its slice, and the previous one's last SHADOW_BLEND,
            // which fades into it (`sunlight` in shaders/shared/math.wgsl; the first slice
            // fades from view depth 0).
            let previous = if i >= 2 { splits[i - 2] } else { 0.0 };
            let receivers_from = if i == 0 { camera.near } else { start - (start - previous) * SHADOW_BLEND };
            let slice = (receivers_from, end);
            start = end;
            // Rounded up to 1/64 of itself in steps of powers of two, so small changes of the
            // camera's near/far or aspect do not rescale the map every frame.
            let step = (radius / 64.0).log2().ceil().exp2();
            let radius = (radius / step).ceil() * step;
            let texel_size = 2.0 * radius / map_size as f32;
            let center = light.transform_point3(camera.position + forward * depth);
            let snapped = (center.truncate() / texel_size).floor() * texel_size;
            let projection =
                orthographic(snapped.x - radius, snapped.x + radius, snapped.y - radius, snapped.y + radius, near, far);
            let caster_planes = slice_planes(camera, &sides, slice.0, slice.1, CASTER_REACH_TEXELS * texel_size);
            let caster_sweep = direction.normalize().extend(far - near);
            Cascade { view_proj: projection * light, split_far: end, texel_size, caster_planes, caster_sweep }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::cull::cpu::casts_into;

    fn camera(position: Vec3, target: Vec3) -> Camera {
        Camera { position, target, up: Vec3::Y, fov_y: 60f32.to_radians(), near: 0.1, far: 500.0 }
    }

    fn bounds() -> SceneBounds {
        SceneBounds { min: Vec3::splat(-100.0), max: Vec3::splat(100.0) }
    }

    /// The casters' cull keeps every caster whose shadow falls on a point the view shows in a
    /// cascade's slice (or the blend band before it): points sampled in the frustum, casters
    /// placed on the ray from each point toward the sun (their shadow's path crosses it), and
    /// off it by less than their radius. And it leaves out casters whose shadow misses the
    /// view: beside it, under the sun.
    #[test]
    fn the_caster_cull_keeps_every_shadow_the_view_shows() {
        let cam = camera(Vec3::new(3.0, 20.0, 40.0), Vec3::new(-10.0, 0.0, 0.0));
        let aspect = 16.0 / 9.0;
        let inverse = cam.view_proj(aspect).inverse();
        let forward = cam.forward();
        let mut seed = 12345u32;
        let mut random = move || {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            (seed >> 8) as f32 / (1u32 << 24) as f32
        };
        let mut kept = 0;
        // Sunlight along the view (a shadow runs deeper into it) and toward the camera (out
        // through the near side of each slice).
        for sun in [Vec3::new(-0.4, -0.8, -0.45), Vec3::new(0.4, -0.6, 0.7)].map(Vec3::normalize) {
            let cascades = fit(&cam, aspect, sun, &bounds(), 4, 2048);
            for (k, cascade) in cascades.iter().enumerate() {
                let previous = if k >= 2 { cascades[k - 2].split_far } else { 0.0 };
                let from = if k == 0 {
                    cam.near
                } else {
                    cascades[k - 1].split_far * (1.0 - SHADOW_BLEND) + previous * SHADOW_BLEND
                };
                for _ in 0..2000 {
                    // A point the view shows at a depth this cascade is read at.
                    let depth = from + (cascade.split_far - from) * random();
                    let ndc = Vec3::new(random() * 2.0 - 1.0, random() * 2.0 - 1.0, 0.5);
                    let along = inverse.project_point3(ndc) - cam.position;
                    let point = cam.position + along * (depth / along.dot(forward));
                    // A caster toward the sun from it, off the ray by less than its radius.
                    let radius = 0.05 + 3.0 * random();
                    let side = Vec3::new(random() - 0.5, random() - 0.5, random() - 0.5);
                    let off = (side - sun * side.dot(sun)).normalize_or_zero() * radius * 0.99 * random();
                    let center = point - sun * (60.0 * random()) + off;
                    assert!(
                        casts_into(&cascade.caster_planes, cascade.caster_sweep, center, radius),
                        "cascade {k}: the caster at {center} (radius {radius}) shadows {point} at depth {depth}"
                    );
                    kept += 1;
                }
            }
        }
        assert_eq!(kept, 16000);
        let cascades = fit(&cam, aspect, Vec3::new(-0.4, -0.8, -0.45).normalize(), &bounds(), 4, 2048);
        // Beside the view, under the sun: its shadow falls beside the view too.
        let right = forward.cross(Vec3::Y).normalize();
        let last = &cascades[3];
        let reach = last.caster_sweep.w;
        let beside = cam.position + forward * 20.0 + right * 400.0;
        assert!(!casts_into(&last.caster_planes, Vec4::new(0.0, -1.0, 0.0, reach), beside, 1.0), "beside the view");
        // Behind the camera: sunlight travelling toward the camera takes its shadow away from the
        // view, sunlight travelling along the view into it.
        let behind = cam.position - forward * 30.0;
        assert!(!casts_into(&last.caster_planes, (-forward).extend(reach), behind, 1.0), "behind, the sun ahead");
        assert!(casts_into(&last.caster_planes, forward.extend(reach), behind, 1.0), "behind, the sun behind");
    }

    /// Every point of each slice of the camera's frustum lands inside its cascade's map.
    #[test]
    fn each_cascade_covers_its_slice() {
        let cam = camera(Vec3::new(3.0, 20.0, 40.0), Vec3::new(-10.0, 0.0, 0.0));
        let aspect = 16.0 / 9.0;
        let cascades = fit(&cam, aspect, Vec3::new(-0.4, -0.8, -0.45).normalize(), &bounds(), 4, 2048);
        assert_eq!(cascades.len(), 4);
        let inverse = cam.view_proj(aspect).inverse();
        let mut start = cam.near;
        for cascade in &cascades {
            for &depth in &[start, cascade.split_far] {
                for corner in 0..4 {
                    let ndc_x = if corner & 1 == 0 { -1.0 } else { 1.0 };
                    let ndc_y = if corner & 2 == 0 { -1.0 } else { 1.0 };
                    // A point on the frustum's edge at this view depth.
                    let far_point = inverse.project_point3(Vec3::new(ndc_x, ndc_y, 1.0));
                    let ray = far_point - cam.position;
                    let point = cam.position + ray * (depth / ray.dot(cam.forward()));
                    let clip = cascade.view_proj.project_point3(point);
                    assert!(
                        clip.x.abs() <= 1.0 && clip.y.abs() <= 1.0,
                        "{clip} outside cascade ending at {}",
                        cascade.split_far
                    );
                    // Depths cover the scene (a point of the slice beyond it receives nothing).
                    let b = bounds();
                    if point.cmpge(b.min).all() && point.cmple(b.max).all() {
                        assert!((0.0..=1.0).contains(&clip.z), "depth {}", clip.z);
                    }
                }
            }
            start = cascade.split_far;
        }
        // Toward the sun every cascade reaches back to the scene's bounds: no caster is in
        // front of its near plane.
        for cascade in &cascades {
            for corner in bounds().corners() {
                assert!(cascade.view_proj.project_point3(corner).z >= -1e-5, "{corner} before the near plane");
            }
        }
    }

    /// Turning the camera in place keeps every cascade's texel size, and moving it moves the
    /// maps by whole texels: a world point's position in the map changes by whole texels.
    #[test]
    fn cascades_are_stable_as_the_camera_moves_and_turns() {
        let sun = Vec3::new(-0.4, -0.8, -0.45).normalize();
        let a = fit(&camera(Vec3::new(0.0, 10.0, 30.0), Vec3::ZERO), 1.5, sun, &bounds(), 4, 1024);
        let b = fit(&camera(Vec3::new(0.0, 10.0, 30.0), Vec3::new(20.0, 3.0, 0.0)), 1.5, sun, &bounds(), 4, 1024);
        let c = fit(&camera(Vec3::new(0.37, 10.11, 29.5), Vec3::new(0.37, 0.11, -0.5)), 1.5, sun, &bounds(), 4, 1024);
        for k in 0..4 {
            assert_eq!(a[k].texel_size, b[k].texel_size, "cascade {k} rescaled by a turn");
            assert_eq!(a[k].texel_size, c[k].texel_size, "cascade {k} rescaled by a move");
            let point = Vec3::new(1.0, 0.5, -2.0);
            let texels = |cascade: &Cascade| cascade.view_proj.project_point3(point).truncate() * 512.0;
            let shift = texels(&a[k]) - texels(&c[k]);
            let off_grid = (shift - shift.round()).abs().max_element();
            assert!(off_grid < 1e-2, "cascade {k}: moved by {shift} texels");
        }
    }

    #[test]
    fn splits_grow_and_end_at_the_reach() {
        let splits = split_depths(0.1, 100.0, 4);
        assert!(splits.windows(2).all(|w| w[0] < w[1]), "{splits:?}");
        assert_eq!(splits[3], 100.0);
        assert_eq!(split_depths(0.1, 100.0, 1)[0], 100.0);
        assert_eq!(map_size(1920, 1080), 2048);
        assert_eq!(map_size(64, 64), SHADOW_MAP_MIN_SIZE);
    }
}
