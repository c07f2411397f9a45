//! The content-keyed pipeline cache.
//!
//! A key is everything that decides what a pipeline compiles to (shader source, entry points,
//! vertex layout, targets, primitive, depth, multisample) plus the *identity* of
//! its pipeline layout: two layouts built from equal descriptors are different objects to
//! wgpu, so they are different keys. Shader modules are keyed by label and a hash of their
//! source.
//!
//! Each key owns a `OnceLock`: the first request compiles, and any request for the same key
//! made meanwhile, from any thread, blocks on that lock until the one compilation is done.
//!
//! Errors: every creation runs inside validation and out-of-memory error scopes. wgpu 27 keeps
//! one scope stack per device, shared by all threads, so with creations running in parallel an
//! error may land in another thread's scope. `ScopedCreation` handles that: every popped
//! error goes into one shared list, and a creation decides its outcome only once no creation
//! is in flight any more, by looking for errors that name its label.

use crate::clock::Instant;
use std::any::{Any, TypeId};
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};

use super::PipelineError;

/// A WGSL shader: its label (used in errors and captures) and source.
#[derive(Clone, Debug)]
pub struct ShaderSpec {
    pub label: String,
    pub source: Arc<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ShaderKey {
    pub label: String,
    pub source_hash: u64,
}

impl ShaderSpec {
    pub fn key(&self) -> ShaderKey {
        let mut hasher = DefaultHasher::new();
        self.source.hash(&mut hasher);
        ShaderKey { label: self.label.clone(), source_hash: hasher.finish() }
    }
}

/// One vertex buffer layout, owned.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct VertexBufferSpec {
    pub array_stride: u64,
    pub step_mode: wgpu::VertexStepMode,
    pub attributes: Vec<wgpu::VertexAttribute>,
}

/// Everything a render pipeline is made from. Its key is derived from these fields alone, so
/// nothing that changes the pipeline can be left out of the key.
#[derive(Clone, Debug)]
pub struct RenderSpec {
    pub label: String,
    /// Values of the shader's `override` constants (a variant's key), part of the cache key.
    pub constants: Constants,
    pub layout: wgpu::PipelineLayout,
    pub shader: ShaderSpec,
    pub vertex_entry: String,
    pub fragment_entry: Option<String>,
    pub vertex_buffers: Vec<VertexBufferSpec>,
    pub targets: Vec<Option<wgpu::ColorTargetState>>,
    pub primitive: wgpu::PrimitiveState,
    pub depth_stencil: Option<wgpu::DepthStencilState>,
    pub multisample: wgpu::MultisampleState,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RenderKey {
    /// Compared by identity (wgpu resources hash and compare by their id).
    layout: wgpu::PipelineLayout,
    constants: Constants,
    shader: ShaderKey,
    vertex_entry: String,
    fragment_entry: Option<String>,
    vertex_buffers: Vec<VertexBufferSpec>,
    targets: Vec<Option<wgpu::ColorTargetState>>,
    primitive: wgpu::PrimitiveState,
    depth_stencil: Option<wgpu::DepthStencilState>,
    multisample: wgpu::MultisampleState,
}

impl RenderSpec {
    pub fn key(&self) -> RenderKey {
        RenderKey {
            layout: self.layout.clone(),
            constants: self.constants.clone(),
            shader: self.shader.key(),
            vertex_entry: self.vertex_entry.clone(),
            fragment_entry: self.fragment_entry.clone(),
            vertex_buffers: self.vertex_buffers.clone(),
            targets: self.targets.clone(),
            primitive: self.primitive,
            depth_stencil: self.depth_stencil.clone(),
            multisample: self.multisample,
        }
    }
}

/// Everything a compute pipeline is made from.
#[derive(Clone, Debug)]
pub struct ComputeSpec {
    pub label: String,
    pub layout: wgpu::PipelineLayout,
    pub shader: ShaderSpec,
    pub entry: String,
    /// Values of the shader's `override` constants (a variant's key), part of the cache key.
    pub constants: Constants,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ComputeKey {
    layout: wgpu::PipelineLayout,
    shader: ShaderKey,
    entry: String,
    constants: Constants,
}

impl ComputeSpec {
    pub fn key(&self) -> ComputeKey {
        ComputeKey {
            layout: self.layout.clone(),
            shader: self.shader.key(),
            entry: self.entry.clone(),
            constants: self.constants.clone(),
        }
    }

    /// The same pipeline with these `override` constants.
    pub fn with_constants(self, constants: Constants) -> Self {
        Self { constants, ..self }
    }
}

/// Values of a shader's WGSL `override` constants, by name, as
/// `PipelineCompilationOptions::constants` takes them: how a pipeline variant is chosen from
/// a typed key (a phase, an output, the inputs a material reads) rather than by entry point
/// name or by editing shader text. Compared and hashed by the values' bits.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Constants(pub Vec<(&'static str, f64)>);

impl Eq for Constants {}

impl Hash for Constants {
    fn hash<H: Hasher>(&self, state: &mut H) {
        for (name, value) in &self.0 {
            name.hash(state);
            value.to_bits().hash(state);
        }
    }
}

impl Constants {
    /// A boolean `override`'s value.
    pub fn flag(on: bool) -> f64 {
        if on {
            1.0
        } else {
            0.0
        }
    }
}

/// A short, stable-within-a-process hash of a key, for printing.
pub fn key_hash(key: &impl Hash) -> u64 {
    let mut hasher = DefaultHasher::new();
    key.hash(&mut hasher);
    hasher.finish()
}

/// One request to the cache, as `multidraw pipelines` reports it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CompileRecord {
    pub label: String,
    pub key: String,
    /// Time this request took: the compilation, or the wait for another thread's.
    pub compile_ms: f64,
    /// Served from the in-memory cache (no compilation by this request).
    pub cache_hit: bool,
    pub kind: &'static str,
}

type Slot<T> = Arc<OnceLock<Result<T, PipelineError>>>;

/// Error scopes that stay correct while several threads create objects at once.
#[derive(Default)]
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
struct ScopedCreation {
    state: Mutex<ScopeState>,
    idle: Condvar,
}

#[derive(Default)]
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
struct ScopeState {
    in_flight: usize,
    errors: Vec<String>,
}

impl ScopedCreation {
    /// In the browser (wasm32) no scope is pushed: popping one is a promise that cannot be
    /// waited for inside the call, so an error there reaches the device's uncaptured-error
    /// handler instead (the page shows it).
    #[cfg(target_arch = "wasm32")]
    fn run<T>(&self, _device: &wgpu::Device, _label: &str, create: impl FnOnce() -> T) -> Result<T, PipelineError> {
        Ok(create())
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn run<T>(&self, device: &wgpu::Device, label: &str, create: impl FnOnce() -> T) -> Result<T, PipelineError> {
        self.state.lock().expect("scope state").in_flight += 1;
        device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        device.push_error_scope(wgpu::ErrorFilter::Validation);
        let value = create();
        let popped = [pollster::block_on(device.pop_error_scope()), pollster::block_on(device.pop_error_scope())];
        let mut state = self.state.lock().expect("scope state");
        state.errors.extend(popped.into_iter().flatten().map(|e| e.to_string()));
        state.in_flight -= 1;
        if state.in_flight == 0 {
            self.idle.notify_all();
        }
        // Every scope that could hold this creation's error has been popped once no creation is
        // in flight: errors go to the innermost scope open when they happen.
        let mut state = self.idle.wait_while(state, |s| s.in_flight > 0).expect("scope state");
        let quoted = format!("'{label}'");
        if let Some(i) = state.errors.iter().position(|e| e.contains(&quoted)) {
            let message = state.errors.remove(i);
            return Err(PipelineError::Compile { label: label.to_string(), message });
        }
        Ok(value)
    }
}

/// The engine's pipelines, by content key. Cheap to share across threads (`Arc`).
pub struct PipelineCache {
    device: wgpu::Device,
    /// The driver's cache (Vulkan), passed to every creation; see `super::disk`.
    driver_cache: Option<wgpu::PipelineCache>,
    modules: Mutex<HashMap<ShaderKey, Slot<wgpu::ShaderModule>>>,
    render: Mutex<HashMap<RenderKey, Slot<wgpu::RenderPipeline>>>,
    compute: Mutex<HashMap<ComputeKey, Slot<wgpu::ComputePipeline>>>,
    scopes: ScopedCreation,
    compilations: AtomicU32,
    records: Mutex<Vec<CompileRecord>>,
    /// Per-device objects that pipeline keys depend on by identity, one per type (see
    /// [`PipelineCache::shared`]).
    shared: Mutex<HashMap<TypeId, Arc<dyn Any + Send + Sync>>>,
}

impl PipelineCache {
    pub fn new(device: wgpu::Device, driver_cache: Option<wgpu::PipelineCache>) -> Self {
        Self {
            device,
            driver_cache,
            modules: Default::default(),
            render: Default::default(),
            compute: Default::default(),
            scopes: Default::default(),
            compilations: AtomicU32::new(0),
            records: Default::default(),
            shared: Default::default(),
        }
    }

    /// The one `T` of this device, made by `make` on first use. A key holds its pipeline
    /// layout by identity, so two layouts built from equal descriptors would compile every
    /// pipeline twice; whatever builds layouts keeps them here, and every renderer on the
    /// device shares them (and so every pipeline).
    pub fn shared<T: Any + Send + Sync>(&self, make: impl FnOnce() -> T) -> Arc<T> {
        let mut shared = self.shared.lock().expect("shared objects");
        let object = shared.entry(TypeId::of::<T>()).or_insert_with(|| Arc::new(make()));
        object.clone().downcast::<T>().expect("stored under its own TypeId")
    }

    pub fn driver_cache(&self) -> Option<&wgpu::PipelineCache> {
        self.driver_cache.as_ref()
    }

    /// Pipelines actually compiled (not served from memory) so far.
    pub fn compilations(&self) -> u32 {
        self.compilations.load(Ordering::SeqCst)
    }

    /// Every request so far, in completion order.
    pub fn records(&self) -> Vec<CompileRecord> {
        self.records.lock().expect("records").clone()
    }

    fn slot<K: Hash + Eq + Clone, T>(map: &Mutex<HashMap<K, Slot<T>>>, key: &K) -> Slot<T> {
        map.lock().expect("cache map").entry(key.clone()).or_default().clone()
    }

    fn request<T: Clone>(
        &self,
        slot: Slot<T>,
        label: &str,
        key: String,
        kind: &'static str,
        compile: impl FnOnce() -> Result<T, PipelineError>,
    ) -> Result<T, PipelineError> {
        let start = Instant::now();
        let mut compiled = false;
        let result = slot
            .get_or_init(|| {
                compiled = true;
                compile()
            })
            .clone();
        if compiled && kind != "shader" {
            self.compilations.fetch_add(1, Ordering::SeqCst);
        }
        self.records.lock().expect("records").push(CompileRecord {
            label: label.to_string(),
            key,
            compile_ms: start.elapsed().as_secs_f64() * 1e3,
            cache_hit: !compiled,
            kind,
        });
        result
    }

    pub fn shader(&self, spec: &ShaderSpec) -> Result<wgpu::ShaderModule, PipelineError> {
        let key = spec.key();
        let slot = Self::slot(&self.modules, &key);
        self.request(slot, &spec.label, format!("{:016x}", key_hash(&key)), "shader", || {
            // naga first: its message names the line; wgpu's would too, but only via the scope.
            super::validate_wgsl(&spec.source)
                .map_err(|message| PipelineError::Compile { label: spec.label.clone(), message })?;
            self.scopes.run(&self.device, &spec.label, || {
                self.device.create_shader_module(wgpu::ShaderModuleDescriptor {
                    label: Some(&spec.label),
                    source: wgpu::ShaderSource::Wgsl(spec.source.as_str().into()),
                })
            })
        })
    }

    pub fn render(&self, spec: &RenderSpec) -> Result<wgpu::RenderPipeline, PipelineError> {
        let key = spec.key();
        let slot = Self::slot(&self.render, &key);
        self.request(slot, &spec.label, format!("{:016x}", key_hash(&key)), "render", || {
            let module = self.shader(&spec.shader).map_err(|e| e.for_pipeline(&spec.label))?;
            let options = wgpu::PipelineCompilationOptions { constants: &spec.constants.0, ..Default::default() };
            let buffers: Vec<wgpu::VertexBufferLayout<'_>> = spec
                .vertex_buffers
                .iter()
                .map(|b| wgpu::VertexBufferLayout {
                    array_stride: b.array_stride,
                    step_mode: b.step_mode,
                    attributes: &b.attributes,
                })
                .collect();
            self.scopes.run(&self.device, &spec.label, || {
                self.device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                    label: Some(&spec.label),
                    layout: Some(&spec.layout),
                    vertex: wgpu::VertexState {
                        module: &module,
                        entry_point: Some(&spec.vertex_entry),
                        compilation_options: options.clone(),
                        buffers: &buffers,
                    },
                    primitive: spec.primitive,
                    depth_stencil: spec.depth_stencil.clone(),
                    multisample: spec.multisample,
                    fragment: spec.fragment_entry.as_ref().map(|entry| wgpu::FragmentState {
                        module: &module,
                        entry_point: Some(entry),
                        compilation_options: options.clone(),
                        targets: &spec.targets,
                    }),
                    multiview: None,
                    cache: self.driver_cache.as_ref(),
                })
            })
        })
    }

    pub fn compute(&self, spec: &ComputeSpec) -> Result<wgpu::ComputePipeline, PipelineError> {
        let key = spec.key();
        let slot = Self::slot(&self.compute, &key);
        self.request(slot, &spec.label, format!("{:016x}", key_hash(&key)), "compute", || {
            let module = self.shader(&spec.shader).map_err(|e| e.for_pipeline(&spec.label))?;
            self.scopes.run(&self.device, &spec.label, || {
                self.device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(&spec.label),
                    layout: Some(&spec.layout),
                    module: &module,
                    entry_point: Some(&spec.entry),
                    compilation_options: wgpu::PipelineCompilationOptions {
                        constants: &spec.constants.0,
                        ..Default::default()
                    },
                    cache: self.driver_cache.as_ref(),
                })
            })
        })
    }
}
