//! GPU plumbing that knows no scene and no pass: the device context, render targets, readback,
//! timestamp queries, counted buffer creation and the counting frame encoder every pass records
//! through.

pub mod commands;
pub mod context;
pub mod counted;
pub mod readback;
pub mod target;
pub mod timer;

pub use context::{ContextError, ContextOptions, DriverCacheSource, GpuContext};
