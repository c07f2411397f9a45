//! Fly camera: WASD (+ Q/E down/up, Shift faster) to move, mouse look while the right button is
//! held, scroll to change speed, R to reset. It edits a [`Camera`] in place, so an untouched
//! fly camera is bit-for-bit the scene's camera (the screenshot test relies on that).

use glam::{Quat, Vec3};
use winit::keyboard::KeyCode;

use crate::scene::Camera;

pub struct FlyCamera {
    pub camera: Camera,
    initial: Camera,
    /// Units per second.
    pub speed: f32,
    initial_speed: f32,
    held: std::collections::HashSet<KeyCode>,
    pub looking: bool,
}

impl FlyCamera {
    pub fn new(camera: Camera) -> Self {
        let speed = (camera.target - camera.position).length().max(1.0) * 0.25;
        Self { camera, initial: camera, speed, initial_speed: speed, held: Default::default(), looking: false }
    }

    pub fn reset(&mut self) {
        self.camera = self.initial;
        self.speed = self.initial_speed;
    }

    /// Resets to a new scene's camera.
    pub fn set_initial(&mut self, camera: Camera) {
        *self = Self { held: std::mem::take(&mut self.held), ..Self::new(camera) };
    }

    pub fn key(&mut self, code: KeyCode, pressed: bool) {
        if pressed {
            self.held.insert(code);
        } else {
            self.held.remove(&code);
        }
    }

    pub fn release_all(&mut self) {
        self.held.clear();
        self.looking = false;
    }

    pub fn scroll(&mut self, lines: f32) {
        self.speed = (self.speed * 1.2f32.powf(lines)).clamp(0.01, 1e5);
    }

    /// Mouse-look by a pixel delta.
    pub fn look(&mut self, dx: f32, dy: f32) {
        if !self.looking {
            return;
        }
        let forward = self.camera.forward();
        let yaw = Quat::from_axis_angle(Vec3::Y, -dx * 0.003);
        let right = forward.cross(Vec3::Y).normalize_or(Vec3::X);
        let pitched = Quat::from_axis_angle(right, -dy * 0.003) * forward;
        // Keep away from straight up or down, where look_at degenerates.
        let forward = if pitched.y.abs() < 0.99 { pitched } else { forward };
        let forward = (yaw * forward).normalize();
        let distance = (self.camera.target - self.camera.position).length().max(1.0);
        self.camera.target = self.camera.position + forward * distance;
    }

    /// Moves by the held keys over `dt` seconds; returns whether the camera moved.
    pub fn update(&mut self, dt: f32) -> bool {
        let forward = self.camera.forward();
        let right = forward.cross(Vec3::Y).normalize_or(Vec3::X);
        let mut direction = Vec3::ZERO;
        for (key, d) in [
            (KeyCode::KeyW, forward),
            (KeyCode::KeyS, -forward),
            (KeyCode::KeyD, right),
            (KeyCode::KeyA, -right),
            (KeyCode::KeyE, Vec3::Y),
            (KeyCode::KeyQ, -Vec3::Y),
        ] {
            if self.held.contains(&key) {
                direction += d;
            }
        }
        if direction == Vec3::ZERO {
            return false;
        }
        let shift = self.held.contains(&KeyCode::ShiftLeft) || self.held.contains(&KeyCode::ShiftRight);
        let boost = if shift { 4.0 } else { 1.0 };
        let step = direction.normalize() * self.speed * boost * dt;
        self.camera.position += step;
        self.camera.target += step;
        true
    }
}
