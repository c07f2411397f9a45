//! The monotonic clock the engine's CPU timings read: `std::time::Instant`, except in the
//! browser (wasm32), where `std`'s panics and web-time's reads `performance.now()`.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;
#[cfg(target_arch = "wasm32")]
pub use web_time::Instant;
