//! Pass "cull" (`shaders/cull.wgsl`): one thread per object runs the frustum, size, LOD and
//! (second phase) occlusion tests, and writes either object ids into batch slices (for the
//! build pass) or one indirect draw per object. The threads walk the objects in the order of
//! the cull's hierarchy (`gpu_scene::cells`): in the batched output a thread whose cell the
//! view cannot see reads nothing of its object. It clears the counters it increments and, at
//! the end of the frame, copies the GPU's counters into a readback ring, read a frame or two
//! late. [`cpu`] is the same decision on the CPU: the baseline's culling and the tests'
//! reference.

pub mod cpu;

use crate::gpu::commands::{dispatch_size, FrameEncoder};
use crate::gpu::readback::ReadbackRing;
use crate::gpu_scene::layout::{Layouts, CULL_IO, FRAME, HIZ};
use crate::gpu_scene::shader::PassShader;
use crate::gpu_scene::{SceneBuffers, ViewBuffers};
use crate::passes::Phase;
use crate::pipelines::{compute_all, compute_spec, Constants, PipelineCache, PipelineError};
use crate::tunables::{
    COUNTER_DRAWN_EARLY, COUNTER_DRAWN_LATE, COUNTER_IN_FRUSTUM, COUNTER_LEVELS, COUNTER_OCCLUDED, COUNTER_OCCLUDERS,
    COUNTER_SLOTS, COUNTER_SOFT, COUNTER_SOFT_EARLY, COUNTER_SOFT_MASKED, COUNTER_SOFT_MASKED_EARLY, COUNTER_TOO_SMALL,
    COUNTER_TRIANGLES, COUNTER_VISIBLE, LOD_LEVELS, OCCLUDER_CAPACITY, VARIANT_COUNT,
};

/// The pass's wgpu label, puffin scope and GPU timestamp name.
pub const NAME: &str = "cull";
/// The second phase's name.
pub const LATE_NAME: &str = "cull late";

pub const SHADER: PassShader = PassShader {
    file: "shaders/cull.wgsl",
    body: include_str!("../../../shaders/cull.wgsl"),
    groups: &[&FRAME, &CULL_IO, &HIZ],
};

/// What the cull pass writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CullOutput {
    /// Object ids into batch slices; the build pass then turns batches into draws.
    Batches,
    /// One draw per object, written by the cull pass itself; no build pass.
    PerObject,
}

/// The GPU's counters of one frame (`tunables::COUNTER_*`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct GpuCounters {
    /// Objects that pass the frustum and size tests: what the CPU baseline draws.
    pub visible: u32,
    pub in_frustum: u32,
    pub too_small: u32,
    /// Visible objects the second phase found hidden.
    pub occluded: u32,
    /// Objects drawn by the first (or only) phase and by the second.
    pub drawn: [u32; 2],
    pub triangles: u64,
    /// Objects drawn at each level of detail.
    pub levels: [u32; LOD_LEVELS as usize],
    /// Of the drawn objects, those the compute rasteriser drew (`passes::raster`).
    pub soft: u32,
    /// Of those, the ones the first phase drew (all of them in a frame of one phase).
    pub soft_early: u32,
    /// Of the drawn objects, the occluders the first main pass drew first, nearest first
    /// (`passes::build`).
    pub occluders: u32,
}

impl GpuCounters {
    /// Decodes the counter slots as the shaders wrote them.
    pub fn from_slots(slots: &[u32]) -> Self {
        let at = |slot: u32| slots[(slot - COUNTER_VISIBLE) as usize];
        Self {
            visible: at(COUNTER_VISIBLE),
            in_frustum: at(COUNTER_IN_FRUSTUM),
            too_small: at(COUNTER_TOO_SMALL),
            occluded: at(COUNTER_OCCLUDED),
            drawn: [at(COUNTER_DRAWN_EARLY), at(COUNTER_DRAWN_LATE)],
            triangles: at(COUNTER_TRIANGLES) as u64 | (at(COUNTER_TRIANGLES + 1) as u64) << 32,
            levels: std::array::from_fn(|level| at(COUNTER_LEVELS + level as u32)),
            // What the build pass left: each part of the list as it holds.
            soft: at(COUNTER_SOFT) + at(COUNTER_SOFT_MASKED),
            soft_early: at(COUNTER_SOFT_EARLY) + at(COUNTER_SOFT_MASKED_EARLY),
            // The large objects the first phase found; those past the list's room were drawn
            // from their batches.
            occluders: at(COUNTER_OCCLUDERS).min(OCCLUDER_CAPACITY),
        }
    }

    /// Objects drawn by both phases.
    pub fn drawn_total(&self) -> u32 {
        self.drawn[0] + self.drawn[1]
    }
}

/// A cull pipeline's variant: what it writes and for which phase. Its shader is the one
/// `cull` entry point; the key reaches it as the `PER_OBJECT` and `PHASE` override constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CullVariant {
    /// Batch slices or one draw per object.
    pub output: CullOutput,
    /// The culling phase.
    pub phase: Phase,
}

impl CullVariant {
    /// Every variant, in the order [`CullPass`] keeps their pipelines.
    pub const ALL: [CullVariant; 6] = [
        CullVariant { output: CullOutput::Batches, phase: Phase::Only },
        CullVariant { output: CullOutput::Batches, phase: Phase::Early },
        CullVariant { output: CullOutput::Batches, phase: Phase::Late },
        CullVariant { output: CullOutput::PerObject, phase: Phase::Only },
        CullVariant { output: CullOutput::PerObject, phase: Phase::Early },
        CullVariant { output: CullOutput::PerObject, phase: Phase::Late },
    ];

    fn index(self) -> usize {
        let output = match self.output {
            CullOutput::Batches => 0,
            CullOutput::PerObject => 3,
        };
        output + self.phase.index()
    }

    /// The override constants that select this variant in `shaders/cull.wgsl`.
    pub fn constants(self) -> Constants {
        Constants(vec![
            ("PER_OBJECT", Constants::flag(self.output == CullOutput::PerObject)),
            ("PHASE", self.phase.index() as f64),
        ])
    }

    /// The pipeline's label: the pass name of its phase, with " per object" for that output.
    fn label(self) -> String {
        let name = self.phase.pass_name(NAME, LATE_NAME);
        match self.output {
            CullOutput::Batches => name.to_string(),
            CullOutput::PerObject => format!("{name} per object"),
        }
    }
}

pub struct CullPass {
    /// One pipeline per [`CullVariant`], in [`CullVariant::ALL`]'s order.
    pipelines: Vec<wgpu::ComputePipeline>,
    workgroup_size: u32,
}

/// One view's copies of the counters (`draw_counts[COUNTER_VISIBLE..]`), by frame, read a
/// frame or two late.
pub struct CounterReadback {
    ring: ReadbackRing,
}

const COUNTER_BYTES: u64 = COUNTER_SLOTS as u64 * 4;

impl CullPass {
    /// Gets every pipeline from the cache, compiling them in parallel.
    pub fn new(cache: &PipelineCache, layouts: &Layouts, workgroup_size: u32) -> Result<Self, PipelineError> {
        let shader = SHADER.spec(workgroup_size);
        let specs = CullVariant::ALL.map(|variant| {
            compute_spec(&variant.label(), &layouts.cull, &shader, "cull").with_constants(variant.constants())
        });
        let pipelines = compute_all(cache, &specs).into_iter().collect::<Result<Vec<_>, _>>()?;
        Ok(Self { pipelines, workgroup_size })
    }

    pub fn workgroup_size(&self) -> u32 {
        self.workgroup_size
    }

    /// Runs each pipeline once (see `frame::prewarm`).
    pub fn prewarm(&self, frame: &mut FrameEncoder<'_>, buffers: &SceneBuffers, view: &ViewBuffers) {
        let mut pass = frame.compute_pass(NAME);
        pass.set_bind_group(FRAME.index, &view.frame_bind_group);
        pass.set_bind_group(CULL_IO.index, &view.cull_bind_group);
        pass.set_bind_group(HIZ.index, &buffers.hiz_placeholder);
        for pipeline in &self.pipelines {
            pass.set_pipeline(pipeline);
            pass.dispatch(1, 1);
        }
    }

    /// Records the counter reset and the pass of `phase`. The first (or only) phase clears
    /// every counter; the second clears the batch and draw counts only, keeping the frame's
    /// totals. `hiz` is the pyramid's bind group for the second phase, the placeholder
    /// otherwise. `name` is the pass's (the phase's, or a shadow cascade's).
    #[allow(clippy::too_many_arguments)] // the view's and the scene's bindings, the output, the phase, its pyramid, its name
    pub fn record(
        &self,
        frame: &mut FrameEncoder<'_>,
        buffers: &SceneBuffers,
        view: &ViewBuffers,
        output: CullOutput,
        phase: Phase,
        hiz: &wgpu::BindGroup,
        name: &'static str,
    ) {
        profile_scope!(name);
        // O(batches) and O(variants) bytes; no CPU loop over objects.
        frame.encoder.clear_buffer(&buffers.batch_counts, 0, None);
        let draw_counts = match phase {
            Phase::Only | Phase::Early => None,
            Phase::Late => Some(VARIANT_COUNT as u64 * 4),
        };
        frame.encoder.clear_buffer(&buffers.draw_counts, 0, draw_counts);
        let mut pass = frame.compute_pass(name);
        pass.set_pipeline(&self.pipelines[CullVariant { output, phase }.index()]);
        pass.set_bind_group(FRAME.index, &view.frame_bind_group);
        pass.set_bind_group(CULL_IO.index, &view.cull_bind_group);
        pass.set_bind_group(HIZ.index, hiz);
        let (x, y, _) = dispatch_size(buffers.object_count, self.workgroup_size);
        pass.dispatch(x, y);
    }
}

impl CounterReadback {
    /// An empty ring of counter copies.
    pub fn new(device: &wgpu::Device) -> Self {
        Self { ring: ReadbackRing::new(device, "counter readback", COUNTER_BYTES) }
    }

    /// Copies the view's counters into the readback ring for `frame_number`; record it after
    /// the view's last cull and build passes, before the next view's cull clears them.
    pub fn copy(&mut self, frame: &mut FrameEncoder<'_>, buffers: &SceneBuffers, frame_number: u64) {
        if let Some(staging) = self.ring.begin(frame_number) {
            let offset = COUNTER_VISIBLE as u64 * 4;
            frame.encoder.copy_buffer_to_buffer(&buffers.draw_counts, offset, staging, 0, COUNTER_BYTES);
        }
    }

    /// Call after the submit that contains [`CounterReadback::copy`].
    pub fn submitted(&mut self) {
        self.ring.submitted();
    }

    /// GPU counters of finished frames as (frame, counters), oldest first.
    pub fn collect(&mut self, device: &wgpu::Device) -> Vec<(u64, GpuCounters)> {
        self.ring
            .collect(device)
            .into_iter()
            .map(|(frame, bytes)| {
                let slots: Vec<u32> =
                    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
                (frame, GpuCounters::from_slots(&slots))
            })
            .collect()
    }
}
