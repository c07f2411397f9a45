//! multidraw: a GPU-driven indirect drawing engine on wgpu.
//!
//! A compute pass culls every object against the camera frustum and writes
//! `DrawIndexedIndirect` arguments; one render pass issues a constant number of
//! `multi_draw_indexed_indirect(_count)` calls under one universal pipeline layout. A
//! CPU-recorded baseline and render bundles draw the same frame for comparison.
//!
//! Layers, each using only those listed before it (`tests/architecture.rs` enforces the order;
//! docs/ARCHITECTURE.md draws it): [`text`] (user strings made safe to print) and [`output`]
//! (every file written, checked first and written atomically); [`tunables`]; CPU data:
//! [`mesh`], [`scene`]; GPU plumbing: [`pipelines`], [`gpu`]; [`gpu_scene`], the only layer
//! that knows both; [`passes`], one module per pass; [`frame`], the renderer and its frame
//! plan; [`live`], scenes edited through handles between frames; [`embed`], the engine on a
//! caller's device and encoder; and the users of the
//! renderer: [`profiling`], [`bench`](mod@bench), [`viewer`].
//!
//! # Use it as a library
//!
//! Build a [`live::LiveScene`] through handles, make an [`embed::EmbeddedRenderer`] on your
//! device, and let it record into your encoder each frame; you submit. Changes between
//! frames (adds, moves, removes) are applied at the next `render`.
//!
//! ```no_run
//! use glam::{Quat, Vec3, Vec4};
//! use multidraw::embed::{EmbedTarget, EmbeddedRenderer};
//! use multidraw::live::{LiveObject, LiveScene};
//! use multidraw::mesh::procedural;
//! use multidraw::scene::{Camera, Material};
//!
//! fn draw(
//!     (instance, adapter, device, queue): (&wgpu::Instance, &wgpu::Adapter, &wgpu::Device, &wgpu::Queue),
//!     view: &wgpu::TextureView,
//!     camera: &Camera,
//! ) -> Result<(), Box<dyn std::error::Error>> {
//!     let format = wgpu::TextureFormat::Bgra8UnormSrgb;
//!     let mut engine = EmbeddedRenderer::new(instance, adapter, device, queue, format)?;
//!     let mut scene = LiveScene::new(*camera);
//!     let cube = scene.add_mesh("cube", procedural::cube())?;
//!     let red = scene.add_material(Material::colored("red", Vec4::new(0.9, 0.2, 0.1, 1.0)));
//!     let object = scene.add_object(LiveObject::new(cube, red, Vec3::ZERO))?;
//!     scene.set_transform(object, Vec3::new(0.0, 1.0, 0.0), Quat::IDENTITY, 2.0)?;
//!
//!     let mut encoder = device.create_command_encoder(&Default::default());
//!     // ... your own passes into `view` ...
//!     let target = EmbedTarget { color: view, depth: None, width: 1280, height: 720, keep_color: true };
//!     engine.render(&mut encoder, &mut scene, &target, camera)?;
//!     queue.submit([encoder.finish()]);
//!     scene.remove_object(object)?;
//!     Ok(())
//! }
//! ```

/// A puffin scope for the rest of the enclosing block where the `profiling` feature is on
/// (arguments as `puffin::profile_scope!`'s); nothing otherwise.
macro_rules! profile_scope {
    ($($arg:tt)*) => {
        #[cfg(feature = "profiling")]
        puffin::profile_scope!($($arg)*);
    };
}

/// A puffin scope named after the enclosing function where the `profiling` feature is on.
macro_rules! profile_function {
    ($($arg:tt)*) => {
        #[cfg(feature = "profiling")]
        puffin::profile_function!($($arg)*);
    };
}

pub mod text;

pub mod output;

pub mod tunables;

pub mod mesh;
pub mod scene;

pub mod pipelines;

pub mod gpu;

pub mod gpu_scene;

pub mod passes;

pub mod frame;

pub mod live;

pub mod embed;

#[cfg(feature = "bench")]
pub mod bench;
#[cfg(feature = "profiling")]
pub mod profiling;
#[cfg(feature = "viewer")]
pub mod viewer;

pub use frame::{
    Detail, DrawMode, FrameInput, FrameReadback, FrameStats, Renderer, RendererError, RendererOptions, View, Viewport,
};
pub use gpu::{ContextOptions, GpuContext};
