//! WGSL sources and how they are put together.
//!
//! Every pass's source is: constants generated from `crate::tunables`, then
//! `shaders/shared/types.wgsl` and `shaders/shared/math.wgsl`, then the pass's own file. WGSL
//! has no includes, so this concatenation is the include mechanism; it happens in one place so
//! the validation test composes exactly what the pipelines compile.

use crate::tunables;

const TYPES: &str = include_str!("../shaders/shared/types.wgsl");
const MATH: &str = include_str!("../shaders/shared/math.wgsl");

/// The shader of one pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShaderSource {
    /// `shaders/cull.wgsl`
    Cull,
    /// `shaders/build.wgsl`
    Build,
    /// `shaders/draw.wgsl`
    Draw,
}

impl ShaderSource {
    pub const ALL: [ShaderSource; 3] = [ShaderSource::Cull, ShaderSource::Build, ShaderSource::Draw];

    /// The pass's name: its wgpu label, puffin scope and timestamp name.
    pub fn pass_name(self) -> &'static str {
        match self {
            ShaderSource::Cull => "cull",
            ShaderSource::Build => "build",
            ShaderSource::Draw => "main",
        }
    }

    pub fn file_name(self) -> &'static str {
        match self {
            ShaderSource::Cull => "shaders/cull.wgsl",
            ShaderSource::Build => "shaders/build.wgsl",
            ShaderSource::Draw => "shaders/draw.wgsl",
        }
    }

    fn body(self) -> &'static str {
        match self {
            ShaderSource::Cull => include_str!("../shaders/cull.wgsl"),
            ShaderSource::Build => include_str!("../shaders/build.wgsl"),
            ShaderSource::Draw => include_str!("../shaders/draw.wgsl"),
        }
    }

    /// The complete WGSL compiled for this pass.
    pub fn compose(self, workgroup_size: u32) -> String {
        let body = self.body();
        // The draw shader does not use workgroup sizes, but shares the preamble so the shared
        // files see the same constants everywhere.
        let mut source = tunables::wgsl_constants(workgroup_size);
        source.reserve(TYPES.len() + MATH.len() + body.len() + 2);
        source.push_str(TYPES);
        // math.wgsl reads `frame`, which each pass declares; WGSL resolves module-scope names
        // in any order, so appending the pass after it is fine.
        source.push_str(MATH);
        source.push_str(body);
        source
    }
}

/// Parses and validates a composed shader with naga, as wgpu will.
pub fn validate(source: &str) -> Result<naga::Module, String> {
    let module = naga::front::wgsl::parse_str(source).map_err(|e| e.emit_to_string(source))?;
    naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
        .validate(&module)
        .map_err(|e| e.emit_to_string(source))?;
    Ok(module)
}
