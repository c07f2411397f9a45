#![warn(missing_docs)]
//! multidraw: a GPU-driven indirect drawing engine on wgpu.
//!
//! Compute passes cull every object (frustum, size, level of detail, and with occlusion
//! culling a second phase against a depth pyramid) and write `DrawIndexedIndirect` arguments;
//! the render passes issue a constant number of `multi_draw_indexed_indirect(_count)` calls
//! under one universal pipeline layout, and a compute rasteriser draws the small objects. A
//! CPU-recorded baseline and render bundles draw the same frame for comparison. A frame is
//! an ordered list of [`View`]s, each culled and drawn on its own.
//!
//! # The public surface
//!
//! * [`Renderer`]: a scene on the GPU; [`Renderer::render`] (one view) and
//!   [`Renderer::render_views`] draw frames of [`FrameInput`] and [`View`]s in a
//!   [`DrawMode`] at a [`Detail`]; [`Renderer::collect`] returns each frame's
//!   [`FrameReadback`] (GPU counters, pass times) a frame or two later, never stalling.
//! * [`GpuContext`]: a headless device ([`GpuContext::headless`]) or the caller's.
//! * [`scene`]: scenes and cameras, scene files and glTF models; [`mesh`]: meshes and their
//!   levels of detail.
//! * [`live`]: scenes edited through handles between frames; [`embed`]: the engine on a
//!   caller's device, queue and encoder.
//!
//! The modules not shown here (passes, pipelines, GPU plumbing, the benchmark and the viewer)
//! are public for the crate's own binary, tests and benchmarks, and carry no stability promise.
//! Their layers are drawn in docs/ARCHITECTURE.md, and `tests/architecture.rs` keeps each
//! from importing the ones above it.
//!
//! # Features
//!
//! The default features build the `multidraw` binary (benchmark, viewer, puffin UI). With
//! `default-features = false` the crate is the engine alone, without winit, egui, puffin_http,
//! plotters, clap or indicatif; `profiling` adds the puffin scopes.
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

#[doc(hidden)]
pub mod clock;

#[doc(hidden)]
pub mod text;

#[doc(hidden)]
pub mod threads;

#[doc(hidden)]
pub mod output;

#[doc(hidden)]
pub mod tunables;

pub mod mesh;
pub mod scene;

#[doc(hidden)]
pub mod pipelines;

#[doc(hidden)]
pub mod gpu;

#[doc(hidden)]
pub mod gpu_scene;

#[doc(hidden)]
pub mod passes;

#[doc(hidden)]
pub mod frame;

pub mod live;

pub mod embed;

#[cfg(feature = "bench")]
#[doc(hidden)]
pub mod bench;
#[cfg(feature = "profiling")]
#[doc(hidden)]
pub mod profiling;
#[cfg(feature = "viewer")]
#[doc(hidden)]
pub mod viewer;

pub use frame::{
    Detail, DrawMode, FrameInput, FrameReadback, FrameStats, Renderer, RendererError, RendererOptions, StartupTimes,
    View, Viewport,
};
pub use gpu::commands::{FrameCommands, PassCommands};
pub use gpu::context::ContextError;
pub use gpu::target::{FrameTarget, OffscreenTarget, COLOR_FORMAT, DEPTH_FORMAT};
pub use gpu::timer::GpuPassTimes;
pub use gpu::{ContextOptions, GpuContext};
pub use gpu_scene::UploadError;
pub use passes::cull::cpu::CpuCounts;
pub use passes::cull::GpuCounters;
pub use passes::main::indirect::IndirectCall;
