//! multidraw: a GPU-driven indirect drawing engine on wgpu.
//!
//! A compute pass culls every object against the camera frustum and writes
//! `DrawIndexedIndirect` arguments; one render pass issues a constant number of
//! `multi_draw_indexed_indirect(_count)` calls under one universal pipeline layout. A
//! CPU-recorded baseline and render bundles draw the same frame for comparison.
//! See `docs/` and the repository's DESIGN notes for the data flow.

pub mod bench;
pub mod cull;
pub mod draw;
pub mod gpu;
pub mod mesh;
pub mod pipelines;
pub mod profiling;
pub mod scene;
pub mod shaders;
pub mod tunables;
pub mod viewer;

pub use draw::{DrawMode, FrameInput, Renderer};
pub use gpu::{ContextOptions, GpuContext};
