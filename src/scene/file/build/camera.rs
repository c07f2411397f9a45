//! The `[camera]` section: placed by hand, or `auto = true` (the default) for the stress
//! scene's camera fitted to the box that holds every object set.

use glam::Vec3;

use super::{invalid, Builder};
use crate::scene::file::finite::Finite;
use crate::scene::file::spec::CameraSpec;
use crate::scene::file::SceneError;
use crate::scene::{generator, Camera};

impl Builder<'_> {
    pub(super) fn camera(&self, spec: Option<&CameraSpec>) -> Result<Camera, SceneError> {
        let automatic = generator::default_camera(self.extent.max(1.0));
        let Some(spec) = spec else { return Ok(automatic) };
        let at = |message: String| invalid(self.file, format!("[camera] {message}"));
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
            return Ok(automatic);
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
        if !(fov > 0.0 && fov < 180.0) {
            return Err(at(format!("fov_y_degrees must be between 0 and 180 (exclusive), got {fov}")));
        }
        if !(camera.near > 0.0 && camera.far > camera.near) {
            return Err(at(format!("needs 0 < near < far, got near {} and far {}", camera.near, camera.far)));
        }
        let forward = camera.target - camera.position;
        if forward.length() < 1e-6 {
            return Err(at("position and target are the same point".into()));
        }
        if forward.normalize().cross(camera.up.normalize_or_zero()).length() < 1e-4 {
            return Err(at("up is zero or parallel to the view direction".into()));
        }
        Ok(camera)
    }
}
