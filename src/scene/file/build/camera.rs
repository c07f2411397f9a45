//! The `[camera]` section: placed by hand, or `auto = true` (the default) for the stress
//! scene's camera fitted to the box that holds every object set.

use glam::{DVec3, Vec3};

use super::{invalid, Builder};
use crate::scene::file::finite::Finite;
use crate::scene::file::spec::CameraSpec;
use crate::scene::file::SceneError;
use crate::scene::{generator, Camera};

/// The automatic camera's extent is at least this many times the largest object's reach: the
/// stress camera stands at 0.94 × its extent from the origin, looking at a point 0.6 × the
/// extent behind it, so at 2.2 a model placed at the origin fills most of the view from outside.
const OUTSIDE_LARGEST: f32 = 2.2;

/// The narrowest vertical field of view a scene file may ask for, in degrees.
const MIN_FOV_DEGREES: f32 = 0.001;

impl Builder<'_> {
    pub(super) fn camera(&self, spec: Option<&CameraSpec>) -> Result<Camera, SceneError> {
        // The stress camera stands inside its box looking in; a scene of a few large objects
        // (one model placed once) needs it outside the largest of them.
        // (A scene smaller than 1 unit gets a camera scaled to it, near plane included.)
        let extent = self.extent.max(OUTSIDE_LARGEST * self.largest_item).max(crate::mesh::MIN_OBJECT_RADIUS);
        let automatic = generator::default_camera(extent);
        let at = |message: String| invalid(self.file, format!("[camera] {message}"));
        let automatic_fits =
            automatic.position.is_finite() && automatic.target.is_finite() && automatic.far.is_finite();
        let refuse_automatic = |what: &str| {
            at(format!(
                "the automatic camera's {what} is not finite: the objects reach {:.3e} units from the origin, and its far \
                 plane (4 × that + 10) overflows 32-bit floats; place the camera by hand (position, target, far)",
                extent
            ))
        };
        let Some(spec) = spec else {
            return if automatic_fits { Ok(automatic) } else { Err(refuse_automatic("placement")) };
        };
        if spec.auto {
            let given: Vec<&str> = [
                ("position", spec.position.is_some()),
                ("target", spec.target.is_some()),
                ("up", spec.up.is_some()),
                ("fov_y_degrees", spec.fov_y_degrees.is_some()),
                ("near", spec.near.is_some()),
                ("far", spec.far.is_some()),
            ]
            .iter()
            .filter(|(_, given)| *given)
            .map(|(key, _)| *key)
            .collect();
            if !given.is_empty() {
                return Err(at(format!("auto = true places the camera itself; remove {}", given.join(", "))));
            }
            return if automatic_fits { Ok(automatic) } else { Err(refuse_automatic("placement")) };
        }
        let (Some(Finite(position)), Some(Finite(target))) = (spec.position, spec.target) else {
            return Err(at("needs position and target, or auto = true".into()));
        };
        let fov = spec.fov_y_degrees.map_or(60.0, |fov| fov.0);
        let camera = Camera {
            position: position.into(),
            target: target.into(),
            up: spec.up.map_or(Vec3::Y, |up| Vec3::from(up.0)),
            fov_y: fov.to_radians(),
            near: spec.near.map_or(automatic.near, |near| near.0),
            far: spec.far.map_or(automatic.far, |far| far.0),
        };
        if !(MIN_FOV_DEGREES..180.0).contains(&fov) {
            return Err(at(format!(
                "fov_y_degrees must be at least {MIN_FOV_DEGREES} (narrower, the projection's terms pass what 32-bit \
                 depth resolves) and below 180, got {fov}"
            )));
        }
        if spec.far.is_none() && !automatic.far.is_finite() {
            return Err(refuse_automatic("far plane (the default for far)"));
        }
        if !(camera.near > 0.0 && camera.far > camera.near) {
            return Err(at(format!("needs 0 < near < far, got near {} and far {}", camera.near, camera.far)));
        }
        // In f64: the difference of two far points, or the squared length of a long `up`,
        // overflows f32 (a camera 1e20 units away is valid and must not read as degenerate).
        let forward = camera.target.as_dvec3() - camera.position.as_dvec3();
        if forward == DVec3::ZERO {
            return Err(at("position and target are the same point".into()));
        }
        let up = camera.up.as_dvec3();
        if up == DVec3::ZERO {
            return Err(at("up is zero".into()));
        }
        if forward.normalize().cross(up.normalize()).length() < 1e-4 {
            return Err(at(format!("up {:?} is parallel to the view direction", camera.up.to_array())));
        }
        // Whatever the numbers, what reaches the GPU must be finite.
        // At the widest and tallest frames a render may ask for, not only at 16:9.
        let aspects = [16.0 / 9.0, 16_384.0, 1.0 / 16_384.0];
        for (what, finite) in [
            ("view matrix", camera.view().is_finite()),
            ("projection", aspects.iter().all(|&a| camera.projection(a).is_finite())),
            ("view-projection", aspects.iter().all(|&a| camera.view_proj(a).is_finite())),
        ] {
            if !finite {
                return Err(at(format!(
                    "its {what} is not finite (position {:?}, target {:?}, near {}, far {}, fov_y_degrees {fov})",
                    camera.position.to_array(),
                    camera.target.to_array(),
                    camera.near,
                    camera.far
                )));
            }
        }
        Ok(camera)
    }
}
