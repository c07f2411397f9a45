//! Animation speed classes. An object names an orbit class and a spin class; per frame the CPU
//! computes cos/sin once per class and both the GPU shaders and the CPU culling reference read
//! the same table, so animated visibility agrees bit for bit on inputs.

use glam::Vec4;

use crate::tunables::ANIMATION_CLASSES;

/// Angular speed (rad/s) of orbit class `class` about the world Y axis; class 0 is still,
/// odd classes turn one way and even classes the other.
pub fn orbit_speed(class: u32) -> f32 {
    let sign = if class.is_multiple_of(2) { -1.0 } else { 1.0 };
    sign * 0.03 * class.div_ceil(2) as f32
}

/// Angular speed (rad/s) of spin class `class` about the object's own Y axis.
pub fn spin_speed(class: u32) -> f32 {
    0.4 * class as f32
}

/// Per class: (cos orbit, sin orbit, cos spin, sin spin) at `time` seconds.
pub fn animation_table(time: f32) -> [Vec4; ANIMATION_CLASSES as usize] {
    std::array::from_fn(|class| {
        let (orbit_sin, orbit_cos) = (orbit_speed(class as u32) * time).sin_cos();
        let (spin_sin, spin_cos) = (spin_speed(class as u32) * time).sin_cos();
        Vec4::new(orbit_cos, orbit_sin, spin_cos, spin_sin)
    })
}
