//! WGSL sources and how they are put together.
//!
//! Every pass's source is: constants generated from `crate::tunables`, the declarations of
//! the bind groups the pass uses, generated from their tables in `gpu_scene::layout`, then
//! `shaders/shared/types.wgsl`, `shaders/shared/brdf.wgsl` (pure functions),
//! `shaders/shared/math.wgsl` (only for passes that use the
//! frame group, which it reads), `shaders/shared/surface.wgsl` and
//! `shaders/shared/lighting.wgsl` (only for passes that use the textures group, which they
//! sample), then the pass's own file. WGSL
//! has no includes, so this concatenation is the include mechanism; it happens in one place so
//! the validation test composes exactly what the pipelines compile.

use super::layout::{Group, FRAME, TEXTURES};
use crate::pipelines::{shader_spec, ShaderSpec};
use crate::tunables;

const TYPES: &str = include_str!("../../shaders/shared/types.wgsl");
const BRDF: &str = include_str!("../../shaders/shared/brdf.wgsl");
const MATH: &str = include_str!("../../shaders/shared/math.wgsl");
const SURFACE: &str = include_str!("../../shaders/shared/surface.wgsl");
const LIGHTING: &str = include_str!("../../shaders/shared/lighting.wgsl");

/// The shader file of one pass and the bind groups it declares.
#[derive(Debug)]
pub struct PassShader {
    /// Path from the repository root, e.g. `shaders/cull.wgsl`; the shader's label.
    pub file: &'static str,
    /// The file's text (`include_str!`).
    pub body: &'static str,
    /// Bind groups the pass uses, declared ahead of its body.
    pub groups: &'static [&'static Group],
}

impl PassShader {
    /// The complete WGSL compiled for this pass.
    pub fn compose(&self, workgroup_size: u32) -> String {
        // The draw shader does not use workgroup sizes, but shares the preamble so the shared
        // files see the same constants everywhere.
        let mut source = tunables::wgsl_constants(workgroup_size);
        for group in self.groups {
            source.push_str(&group.wgsl());
        }
        source.reserve(TYPES.len() + BRDF.len() + MATH.len() + SURFACE.len() + LIGHTING.len() + self.body.len());
        source.push_str(TYPES);
        source.push_str(BRDF);
        // math.wgsl reads `frame`, which the generated frame group declares (WGSL resolves
        // module-scope names in any order); a pass without that group, such as the pyramid,
        // uses none of its functions and could not compile them. Likewise surface.wgsl and the
        // textures group, and lighting.wgsl, which samples the environment's maps there.
        let uses = |table: &Group| self.groups.iter().any(|group| group.label == table.label);
        if uses(&FRAME) {
            source.push_str(MATH);
        }
        if uses(&TEXTURES) {
            source.push_str(SURFACE);
            source.push_str(LIGHTING);
        }
        source.push_str(self.body);
        source
    }

    /// The composed shader as the pipeline cache takes it.
    pub fn spec(&self, workgroup_size: u32) -> ShaderSpec {
        shader_spec(self.file, self.compose(workgroup_size))
    }
}
