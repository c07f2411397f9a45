//! Adapter and device selection, headless or for a window surface.
//!
//! Features: `INDIRECT_FIRST_INSTANCE` is required (a GPU-driven draw finds its batch's slice of
//! `instances[]` through `first_instance`); `MULTI_DRAW_INDIRECT_COUNT`, `TIMESTAMP_QUERY`,
//! `PIPELINE_CACHE` and the compute rasteriser's `SHADER_INT64` and `SHADER_INT64_ATOMIC_MIN_MAX`
//! are used when present.
//!
//! Indirect validation: wgpu's `InstanceFlags::VALIDATION_INDIRECT_CALL` checks every sub-draw
//! of a `multi_draw_indexed_indirect` on the CPU, which makes recording cost grow with the draw
//! count (docs/BENCHMARKS.md § "Indirect validation on the CPU"). The engine itself guarantees
//! what it checks: index ranges come from the mesh table, validated at upload, and instance
//! ranges never leave a batch's slice (the cull shader bounds every write by the batch
//! capacity; `tests/cull.rs` checks every draw the GPU writes). So it is off by default, and
//! `--validate-indirect` turns it back on.

use std::sync::{Arc, Mutex};

use thiserror::Error;

use crate::pipelines::PipelineCache;

/// Install hint printed with every "no adapter" error.
pub const DRIVER_HINT: &str = "install a Vulkan driver: on Debian/Ubuntu the CPU one is \
`apt-get install mesa-vulkan-drivers` (lavapipe); `make test` and `make run` install it when missing";

#[derive(Debug, Error)]
pub enum ContextError {
    #[error("no GPU adapter found (backends: {backends}); {hint}", hint = DRIVER_HINT)]
    NoAdapter { backends: String },
    #[error("adapter \"{adapter}\" lacks the required feature {feature}; multidraw needs a Vulkan 1.1+, DX12 or Metal GPU with it ({hint})", hint = DRIVER_HINT)]
    MissingFeature { adapter: String, feature: &'static str },
    #[error("adapter \"{adapter}\" cannot execute indirect draws (DownlevelFlags::INDIRECT_EXECUTION)")]
    NoIndirectExecution { adapter: String },
    #[error(
        "the device was created without the feature {feature}, which multidraw needs; add it to \
         DeviceDescriptor::required_features (the adapter \"{adapter}\" has it: {available})"
    )]
    FeatureNotEnabled { adapter: String, feature: &'static str, available: bool },
    #[error(
        "the device's limit {limit} is {got}, below the {needed} multidraw needs; request at least \
         wgpu::Limits::default() in DeviceDescriptor::required_limits"
    )]
    LimitTooLow { limit: &'static str, needed: u64, got: u64 },
    /// The message holds wgpu's reason, so it is no `source()` as well (said once in a chain).
    #[error("requesting a device from \"{adapter}\" failed: {error}")]
    RequestDevice { adapter: String, error: wgpu::RequestDeviceError },
}

/// Where the driver's pipeline cache (`Features::PIPELINE_CACHE`, Vulkan) starts from.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum DriverCacheSource {
    /// No driver cache.
    #[default]
    Off,
    /// An empty cache (a cold start that can still be saved).
    Empty,
    /// The file in the platform cache directory for this adapter and driver
    /// (`pipelines::disk`), saved again by [`GpuContext::save_driver_cache`].
    Disk,
    /// Data from an earlier run in this process.
    Data(Arc<Vec<u8>>),
}

/// How to open the GPU.
#[derive(Clone, Debug, Default)]
pub struct ContextOptions {
    /// Keep wgpu's per-sub-draw validation of indirect calls (off by default, see module docs).
    pub validate_indirect: bool,
    pub driver_cache: DriverCacheSource,
}

/// Features the engine uses when the adapter has them.
pub const OPTIONAL_FEATURES: wgpu::Features = wgpu::Features::MULTI_DRAW_INDIRECT_COUNT
    .union(wgpu::Features::TIMESTAMP_QUERY)
    .union(wgpu::Features::PIPELINE_CACHE)
    .union(SOFT_RASTER_FEATURES)
    .union(DEFERRED_FEATURES);

/// The features the compute rasteriser (`passes::raster`) needs: 64-bit integers and their
/// atomic min/max in storage buffers.
pub const SOFT_RASTER_FEATURES: wgpu::Features =
    wgpu::Features::SHADER_INT64.union(wgpu::Features::SHADER_INT64_ATOMIC_MIN_MAX);

/// The feature deferred shading (`passes::deferred`) needs: `primitive_index` in fragment
/// shaders, which names the triangle a deferred fragment belongs to.
pub const DEFERRED_FEATURES: wgpu::Features = wgpu::Features::SHADER_PRIMITIVE_INDEX;

/// Features the engine cannot work without.
pub const REQUIRED_FEATURES: wgpu::Features = wgpu::Features::INDIRECT_FIRST_INSTANCE;

/// The limits a caller's device must have ([`GpuContext::from_device`]): wgpu's defaults,
/// which hold every binding count the passes' layouts use.
pub const REQUIRED_LIMITS: wgpu::Limits = wgpu::Limits::defaults();

/// The device and what it can do. Cheap to share: every field is reference counted.
pub struct GpuContext {
    pub instance: wgpu::Instance,
    pub adapter: wgpu::Adapter,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub info: wgpu::AdapterInfo,
    /// Features requested from the device (required + the optional ones present).
    pub features: wgpu::Features,
    pub limits: wgpu::Limits,
    /// Whether wgpu validates each indirect sub-draw on the CPU.
    pub indirect_validation: bool,
    /// Every pipeline of this device, by content key, and the layouts they are keyed on.
    pub pipelines: Arc<PipelineCache>,
    /// Bytes of driver-cache data the context started with (0: cold).
    pub driver_cache_loaded: usize,
    /// Where [`GpuContext::save_driver_cache`] writes, with the file's key.
    driver_cache_file: Option<(std::path::PathBuf, String)>,
    /// wgpu errors not caught by an error scope, in order; see [`GpuContext::take_errors`].
    errors: Arc<Mutex<Vec<String>>>,
}

impl GpuContext {
    /// Opens the first suitable adapter without a window (`WGPU_ADAPTER_NAME` and
    /// `WGPU_BACKEND` are honoured).
    pub fn headless(options: &ContextOptions) -> Result<Self, ContextError> {
        let instance = Self::create_instance(options);
        let adapter = pollster::block_on(wgpu::util::initialize_adapter_from_env_or_default(&instance, None))
            .map_err(|_| ContextError::NoAdapter { backends: backend_names() })?;
        Self::from_adapter(instance, adapter, options)
    }

    /// Creates the instance with the indirect-validation choice applied.
    pub fn create_instance(options: &ContextOptions) -> wgpu::Instance {
        // The option, not WGPU_VALIDATION_INDIRECT_CALL, decides: `info` and the bench report it.
        let mut flags = wgpu::InstanceFlags::from_build_config().with_env();
        flags.set(wgpu::InstanceFlags::VALIDATION_INDIRECT_CALL, options.validate_indirect);
        // Vulkan, Metal and DX12 only unless WGPU_BACKEND says otherwise: every one of them has
        // multi-draw indirect, and probing GL on a headless machine only prints EGL noise.
        let backends = wgpu::Backends::from_env().unwrap_or(wgpu::Backends::PRIMARY);
        let descriptor =
            wgpu::InstanceDescriptor { flags, backends, ..wgpu::InstanceDescriptor::from_env_or_default() };
        wgpu::Instance::new(&descriptor)
    }

    /// Opens a device on `adapter` (for a window, pick the adapter with the surface first).
    pub fn from_adapter(
        instance: wgpu::Instance,
        adapter: wgpu::Adapter,
        options: &ContextOptions,
    ) -> Result<Self, ContextError> {
        let info = adapter.get_info();
        let available = adapter.features();
        if !available.contains(REQUIRED_FEATURES) {
            return Err(ContextError::MissingFeature {
                adapter: info.name.clone(),
                feature: "INDIRECT_FIRST_INSTANCE",
            });
        }
        if !adapter.get_downlevel_capabilities().flags.contains(wgpu::DownlevelFlags::INDIRECT_EXECUTION) {
            return Err(ContextError::NoIndirectExecution { adapter: info.name.clone() });
        }
        let features = REQUIRED_FEATURES | (available & OPTIONAL_FEATURES);
        // The adapter's own limits: wgpu's defaults would cap storage bindings and buffers below
        // what large scenes need on GPUs that allow more.
        let limits = adapter.limits();
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("multidraw"),
            required_features: features,
            required_limits: limits.clone(),
            experimental_features: wgpu::ExperimentalFeatures::disabled(),
            memory_hints: wgpu::MemoryHints::Performance,
            trace: wgpu::Trace::Off,
        }))
        .map_err(|error| ContextError::RequestDevice { adapter: info.name.clone(), error })?;

        let errors = Arc::new(Mutex::new(Vec::new()));
        let sink = errors.clone();
        device.on_uncaptured_error(Arc::new(move |error: wgpu::Error| {
            let text = error.to_string();
            eprintln!("wgpu error: {text}");
            sink.lock().expect("error sink poisoned").push(text);
        }));
        let (driver_cache, driver_cache_loaded, driver_cache_file) =
            open_driver_cache(&device, &info, features, &options.driver_cache);
        let pipelines = Arc::new(PipelineCache::new(device.clone(), driver_cache));
        Ok(Self {
            instance,
            adapter,
            device,
            queue,
            info,
            features,
            limits,
            indirect_validation: options.validate_indirect,
            pipelines,
            driver_cache_loaded,
            driver_cache_file,
            errors,
        })
    }

    /// Wraps a device the caller opened (an application embedding the engine). Checks what
    /// [`GpuContext::from_adapter`] requests: [`REQUIRED_FEATURES`] must have been enabled on
    /// `device`, and the adapter must execute indirect draws. The optional features are used
    /// where the device has them; its limits are what it was created with. No error handler
    /// is installed (the device's errors stay the caller's) and nothing is printed.
    pub fn from_device(
        instance: &wgpu::Instance,
        adapter: &wgpu::Adapter,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<Self, ContextError> {
        let info = adapter.get_info();
        let enabled = device.features();
        if !enabled.contains(REQUIRED_FEATURES) {
            return Err(ContextError::FeatureNotEnabled {
                adapter: info.name.clone(),
                feature: "INDIRECT_FIRST_INSTANCE",
                available: adapter.features().contains(REQUIRED_FEATURES),
            });
        }
        let mut too_low = None;
        REQUIRED_LIMITS.check_limits_with_fail_fn(&device.limits(), true, |limit, needed, got| {
            too_low = Some(ContextError::LimitTooLow { limit, needed, got });
        });
        if let Some(error) = too_low {
            return Err(error);
        }
        if !adapter.get_downlevel_capabilities().flags.contains(wgpu::DownlevelFlags::INDIRECT_EXECUTION) {
            return Err(ContextError::NoIndirectExecution { adapter: info.name.clone() });
        }
        let features = enabled & (REQUIRED_FEATURES | OPTIONAL_FEATURES);
        let driver_cache = None;
        Ok(Self {
            instance: instance.clone(),
            adapter: adapter.clone(),
            device: device.clone(),
            queue: queue.clone(),
            info,
            features,
            limits: device.limits(),
            // Whatever the caller's instance does; the engine's draws are bounded either way.
            indirect_validation: false,
            pipelines: Arc::new(PipelineCache::new(device.clone(), driver_cache)),
            driver_cache_loaded: 0,
            driver_cache_file: None,
            errors: Arc::new(Mutex::new(Vec::new())),
        })
    }

    /// The driver cache's current data, if the device has one.
    pub fn driver_cache_data(&self) -> Option<Vec<u8>> {
        self.pipelines.driver_cache().and_then(|c| c.get_data())
    }

    /// Saves the driver cache where it was loaded from ([`DriverCacheSource::Disk`]); returns
    /// the file written, if any.
    pub fn save_driver_cache(&self) -> Result<Option<std::path::PathBuf>, crate::output::OutputError> {
        let (Some((path, key)), Some(data)) = (&self.driver_cache_file, self.driver_cache_data()) else {
            return Ok(None);
        };
        crate::pipelines::disk::save(path, key, &data)?;
        Ok(Some(path.clone()))
    }

    pub fn has_count_draws(&self) -> bool {
        self.features.contains(wgpu::Features::MULTI_DRAW_INDIRECT_COUNT)
    }

    pub fn has_timestamps(&self) -> bool {
        self.features.contains(wgpu::Features::TIMESTAMP_QUERY)
    }

    /// wgpu errors reported since the last call (validation errors, out of memory).
    pub fn take_errors(&self) -> Vec<String> {
        std::mem::take(&mut *self.errors.lock().expect("error sink poisoned"))
    }

    /// Blocks until the GPU has finished everything submitted so far.
    pub fn wait_idle(&self) {
        // Only fails on a timeout, and `wait_indefinitely` sets none.
        let _ = self.device.poll(wgpu::PollType::wait_indefinitely());
    }

    /// Waits for the GPU with the thread kept busy: poll, then spin for `POLL_INTERVAL`
    /// without touching wgpu, until the queue is empty. Used by the benchmark on GPUs so the
    /// measuring thread neither sleeps through a long GPU frame nor polls back to back, which
    /// floods wgpu with `Device::maintain` calls (docs/BENCHMARKS.md § "GPU wait: spinning between polls").
    /// Neither way removes the slower recording seen after long GPU frames (docs/BENCHMARKS.md).
    /// Not for CPU adapters: there the spinning thread would steal a core from the rasteriser.
    pub fn wait_idle_spinning(&self) {
        const POLL_INTERVAL: std::time::Duration = std::time::Duration::from_micros(50);
        while let Ok(status) = self.device.poll(wgpu::PollType::Poll) {
            if status.is_queue_empty() {
                return;
            }
            let start = crate::clock::Instant::now();
            while start.elapsed() < POLL_INTERVAL {
                std::hint::spin_loop();
            }
        }
    }

    /// One line per fact `multidraw info` prints.
    pub fn describe(&self) -> Vec<(String, String)> {
        let yes_no = |b: bool| if b { "yes" } else { "no" }.to_string();
        vec![
            ("adapter".into(), self.info.name.clone()),
            ("backend".into(), format!("{:?}", self.info.backend)),
            ("device type".into(), format!("{:?}", self.info.device_type)),
            ("driver".into(), format!("{} {}", self.info.driver, self.info.driver_info)),
            ("INDIRECT_FIRST_INSTANCE".into(), "yes (required)".into()),
            ("MULTI_DRAW_INDIRECT_COUNT".into(), yes_no(self.has_count_draws())),
            ("TIMESTAMP_QUERY".into(), yes_no(self.has_timestamps())),
            ("PIPELINE_CACHE".into(), yes_no(self.features.contains(wgpu::Features::PIPELINE_CACHE))),
            ("SHADER_INT64".into(), yes_no(self.features.contains(wgpu::Features::SHADER_INT64))),
            (
                "SHADER_INT64_ATOMIC_MIN_MAX".into(),
                yes_no(self.features.contains(wgpu::Features::SHADER_INT64_ATOMIC_MIN_MAX)),
            ),
            ("SHADER_PRIMITIVE_INDEX".into(), yes_no(self.features.contains(wgpu::Features::SHADER_PRIMITIVE_INDEX))),
            (
                "compute rasteriser".into(),
                if self.features.contains(SOFT_RASTER_FEATURES) {
                    "available (small objects of the gpu modes; --soft-raster off turns it off)".into()
                } else {
                    "unavailable (needs SHADER_INT64 and SHADER_INT64_ATOMIC_MIN_MAX); small objects go to the hardware"
                        .into()
                },
            ),
            (
                "indirect validation".into(),
                if self.indirect_validation {
                    "on (wgpu checks every indirect sub-draw on the CPU)".into()
                } else {
                    "off (the engine bounds every draw it writes; --validate-indirect turns it on)".into()
                },
            ),
            ("max_storage_buffer_binding_size".into(), self.limits.max_storage_buffer_binding_size.to_string()),
            ("max_buffer_size".into(), self.limits.max_buffer_size.to_string()),
            (
                "max_compute_workgroups_per_dimension".into(),
                self.limits.max_compute_workgroups_per_dimension.to_string(),
            ),
        ]
    }
}

/// Creates the driver cache the options ask for. A cache file that cannot be used is reported
/// as a warning and the context starts cold.
fn open_driver_cache(
    device: &wgpu::Device,
    info: &wgpu::AdapterInfo,
    features: wgpu::Features,
    source: &DriverCacheSource,
) -> (Option<wgpu::PipelineCache>, usize, Option<(std::path::PathBuf, String)>) {
    use crate::pipelines::disk;
    if *source == DriverCacheSource::Off || !features.contains(wgpu::Features::PIPELINE_CACHE) {
        return (None, 0, None);
    }
    let mut file = None;
    let data: Option<Vec<u8>> = match source {
        DriverCacheSource::Off | DriverCacheSource::Empty => None,
        DriverCacheSource::Data(data) => Some(data.to_vec()),
        DriverCacheSource::Disk => match (disk::cache_dir(), disk::cache_key(info)) {
            (Some(dir), Some(key)) => {
                let path = disk::cache_file(&dir, &key);
                let data = disk::load(&path, &key).unwrap_or_else(|warning| {
                    eprintln!("warning: {warning}");
                    None
                });
                file = Some((path, key));
                data
            }
            _ => None,
        },
    };
    let loaded = data.as_ref().map_or(0, Vec::len);
    // SAFETY: the data is either None, bytes wgpu's own `get_data` produced in this process,
    // or a file whose key (adapter + driver) and checksum were verified by `disk::load`;
    // `fallback: true` makes wgpu start empty if it still rejects the data.
    let cache = unsafe {
        device.create_pipeline_cache(&wgpu::PipelineCacheDescriptor {
            label: Some("driver pipeline cache"),
            data: data.as_deref(),
            fallback: true,
        })
    };
    (Some(cache), loaded, file)
}

/// The backends searched: `WGPU_BACKEND` or the primary ones.
fn backend_names() -> String {
    let backends = wgpu::Backends::from_env().unwrap_or(wgpu::Backends::PRIMARY);
    format!("{backends:?}")
}
