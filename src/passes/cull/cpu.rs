//! The CPU culling reference and the CPU baseline's culling: the same arithmetic as
//! `shaders/shared/math.wgsl`, in the same order, on the same inputs.

use glam::{Vec3, Vec4, Vec4Swizzles};

use crate::gpu_scene::types::{FrameUniforms, GpuObject};

fn rotate_y(p: Vec3, cs: (f32, f32)) -> Vec3 {
    Vec3::new(cs.0 * p.x + cs.1 * p.z, p.y, cs.0 * p.z - cs.1 * p.x)
}

/// Object space → world space at the frame's time (see `animate_point` in WGSL).
pub fn animate_point(frame: &FrameUniforms, object: &GpuObject, local: Vec3) -> Vec3 {
    let spin = frame.animation[(object.animation >> 16) as usize];
    let orbit = frame.animation[(object.animation & 0xffff) as usize];
    let spun = rotate_y(local, (spin.z, spin.w));
    let placed = (object.model * spun.extend(1.0)).xyz();
    rotate_y(placed, (orbit.x, orbit.y))
}

pub fn sphere_in_frustum(planes: &[Vec4; 6], center: Vec3, radius: f32) -> bool {
    planes.iter().all(|p| p.xyz().dot(center) + p.w >= -radius)
}

pub fn is_visible(frame: &FrameUniforms, object: &GpuObject) -> bool {
    if frame.cull_enabled == 0 {
        return true;
    }
    let center = animate_point(frame, object, object.bounds.xyz());
    sphere_in_frustum(&frame.cull_planes, center, object.bounds.w)
}

/// Ids of the visible objects, in id order, appended to `visible` (cleared first), so a
/// per-frame caller can reuse its allocation.
pub fn cull_into(frame: &FrameUniforms, objects: &[GpuObject], visible: &mut Vec<u32>) {
    puffin::profile_function!();
    visible.clear();
    visible.extend(objects.iter().enumerate().filter(|(_, o)| is_visible(frame, o)).map(|(i, _)| i as u32));
}

pub fn cull(frame: &FrameUniforms, objects: &[GpuObject]) -> Vec<u32> {
    let mut visible = Vec::new();
    cull_into(frame, objects, &mut visible);
    visible
}

/// Relative distance to a plane under which a sphere counts as touching it to float precision:
/// about 16 f32 rounding steps of the largest term of the plane test.
pub const BOUNDARY_TOLERANCE: f32 = 2e-6;

/// Objects whose sphere touches a culling plane to within float rounding. Their visibility can
/// differ by one rounding step between the CPU and a GPU that fuses multiply-adds, so the
/// benchmark accepts GPU/CPU visible counts that differ by at most this many objects.
pub fn boundary_count(frame: &FrameUniforms, objects: &[GpuObject]) -> u32 {
    if frame.cull_enabled == 0 {
        return 0;
    }
    let touching = |object: &GpuObject| {
        let center = animate_point(frame, object, object.bounds.xyz());
        let radius = object.bounds.w;
        frame.cull_planes.iter().any(|p| {
            let margin = p.xyz().dot(center) + p.w + radius;
            let scale = center.abs().dot(p.xyz().abs()) + p.w.abs() + radius;
            margin.abs() <= BOUNDARY_TOLERANCE * scale
        })
    };
    objects.iter().filter(|o| touching(o)).count() as u32
}
