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
//! plan; and the users of the renderer: [`profiling`], [`bench`], [`viewer`].

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

pub mod bench;
pub mod profiling;
pub mod viewer;

pub use frame::{Detail, DrawMode, FrameInput, Renderer};
pub use gpu::{ContextOptions, GpuContext};
