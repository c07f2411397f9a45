//! GPU plumbing shared by every pass: the device context, the universal layout, the scene's
//! buffers, render targets and timestamp queries.

pub mod buffers;
pub mod context;
pub mod counted;
pub mod layout;
pub mod readback;
pub mod target;
pub mod timer;
pub mod types;

pub use context::{ContextError, ContextOptions, DriverCacheSource, GpuContext};
