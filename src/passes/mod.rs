//! One module per pass. Each owns its shader file ([`PassShader`]), its pipelines, what it
//! clears and reads back, and its `record`, and has one name (`NAME`) that is its wgpu label,
//! its puffin scope and its GPU timestamp. Which passes run in a frame, and how, is decided by
//! `frame::FramePlan`; a pass knows nothing of the others' order.
//!
//! Passes, in frame order: [`cull`] (GPU frustum culling into batch slices or per-object
//! draws), [`build`] (batch counts → compacted indirect draws), [`main`] (the render pass every
//! way of drawing records into: GPU-driven multi-draws, the CPU baseline, or a bundle).
//! [`pyramid`] (the depth buffer → a Hi-Z mip chain) is built and tested, and waits for
//! occlusion culling (issue 11) to join a frame plan.

pub mod build;
pub mod cull;
pub mod main;
pub mod pyramid;

use crate::gpu_scene::shader::PassShader;

/// Every pass's shader, for validation and tools.
pub const SHADERS: [&PassShader; 4] = [&cull::SHADER, &build::SHADER, &main::SHADER, &pyramid::SHADER];
