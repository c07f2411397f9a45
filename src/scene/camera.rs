//! Perspective camera and frustum planes, in wgpu's clip space (z in [0, 1], y up).

use glam::{Mat4, Vec3, Vec4};

/// A perspective camera looking from `position` at `target`, right-handed, in world units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// Where the eye is.
    pub position: Vec3,
    /// The point it looks at (must differ from `position`).
    pub target: Vec3,
    /// The world direction that appears up (need not be unit length, nor exactly
    /// perpendicular to the view direction).
    pub up: Vec3,
    /// Vertical field of view in radians.
    pub fov_y: f32,
    /// Distance to the near clipping plane (positive).
    pub near: f32,
    /// Distance to the far clipping plane (beyond `near`).
    pub far: f32,
}

impl Camera {
    /// The view matrix. In `f32` where that is exact; otherwise in `f64` and narrowed, so
    /// that a camera far from the origin (1e20 units) or a long `up` (whose squared length
    /// overflows `f32`, making the `f32` basis zero) still gives its true view.
    pub fn view(&self) -> Mat4 {
        let in_range = |v: Vec3| (1e-30..1e30).contains(&v.length_squared());
        if in_range(self.target - self.position) && in_range(self.up) {
            return glam::camera::rh::view::look_at_mat4(self.position, self.target, self.up);
        }
        glam::dcamera::rh::view::look_at_mat4(
            self.position.as_dvec3(),
            self.target.as_dvec3(),
            self.up.as_dvec3().normalize_or_zero(),
        )
        .as_mat4()
    }

    /// The perspective projection for a width / height `aspect`, into wgpu's clip space
    /// (depth 0 at `near`, 1 at `far`).
    pub fn projection(&self, aspect: f32) -> Mat4 {
        glam::camera::rh::proj::directx::perspective(self.fov_y, aspect, self.near, self.far)
    }

    /// [`Camera::projection`] times [`Camera::view`]: world space to clip space.
    pub fn view_proj(&self, aspect: f32) -> Mat4 {
        self.projection(aspect) * self.view()
    }

    /// The camera's forward unit vector (normalised in `f64`: the difference of two far
    /// points overflows `f32`'s squared length).
    pub fn forward(&self) -> Vec3 {
        (self.target.as_dvec3() - self.position.as_dvec3()).normalize_or(glam::DVec3::NEG_Z).as_vec3()
    }
}

/// The six planes of a view-projection's frustum (left, right, bottom, top, near, far), each
/// `xyz·p + w >= 0` inside, normalised so `w` is a distance. Gribb & Hartmann, adapted to a
/// [0, 1] depth range (the near plane is row 2 alone).
pub fn frustum_planes(view_proj: Mat4) -> [Vec4; 6] {
    let [r0, r1, r2, r3] = [0, 1, 2, 3].map(|i| view_proj.row(i));
    [r3 + r0, r3 - r0, r3 + r1, r3 - r1, r2, r3 - r2].map(|p| p / p.truncate().length())
}
