//! The parts of a frame every way of submitting it shares: the set-up before recording
//! (uniforms, depth pyramid, the CPU's culling) and the recording of the plan's phases;
//! [`Renderer::render`] records into its own encoder and submits, [`Renderer::render_into`]
//! records into the caller's.

use std::time::Instant;

use super::{plan::MainDraws, FrameInput, FramePlan, FrameStats, Renderer};
use crate::gpu::commands::FrameEncoder;
use crate::gpu::target::FrameTarget;
use crate::gpu::GpuContext;
use crate::passes::cull;
use crate::passes::cull::cpu::CpuCounts;
use crate::passes::main::{bundle, Draws};
use crate::passes::raster::RasterPass;
use crate::passes::Phase;

/// What [`Renderer::setup`] decided for one frame.
pub(super) struct FrameSetup {
    pub plan: FramePlan,
    pub phases: &'static [Phase],
    /// The second phase tests against the kept pyramid of a frozen culling view.
    pub keep_pyramid: bool,
    pub cpu_cull_ms: f64,
    pub cpu_counts: Option<CpuCounts>,
    /// Small objects go to the compute rasteriser (`Renderer::soft_raster`).
    pub soft: bool,
}

impl Renderer {
    /// Writes the frame's uniforms, fits the pyramid and does the CPU's culling for the modes
    /// that cull on the CPU.
    pub(super) fn setup(&mut self, ctx: &GpuContext, target: &FrameTarget<'_>, input: &FrameInput) -> FrameSetup {
        self.flush_object_updates(ctx);
        let plan = *self.plan(input.mode);
        let phases = plan.phases(input.detail.occlusion);
        let soft = self.soft_raster(input);
        if soft {
            let raster = self.raster.as_mut().expect("soft_raster checks it");
            raster.fit(&ctx.device, &self.layouts, &self.buffers, target.width, target.height);
        }
        let mut uniforms = self.frame_uniforms(input, target.width, target.height);
        // While culling is frozen, the second phase tests against the pyramid of the frozen
        // view (built before the freeze, kept since), so what the frozen camera cannot see
        // disappears too; a new depth buffer (first frame, resize) ends that.
        let keep_pyramid = phases.len() == 2
            && input.cull_camera.is_some()
            && self.pyramid_view_proj.is_some()
            && self.pyramid.fits(target.depth, target.width, target.height);
        if keep_pyramid {
            uniforms.occlusion_view_proj = self.pyramid_view_proj.expect("checked above");
        } else if phases.len() == 2 {
            // A new depth buffer (first frame, resize) gets a new pyramid before its first use.
            self.pyramid.fit(&ctx.device, target.depth, target.width, target.height);
            self.pyramid_view_proj = Some(uniforms.view_proj);
        }
        {
            profile_scope!("write uniforms");
            uniforms.write_to(&mut self.uniform_bytes);
            ctx.queue.write_buffer(&self.buffers.frame, 0, &self.uniform_bytes);
        }

        // The CPU's share of the modes it culls for: done before recording, as an application
        // would, and timed apart from it.
        let mut cpu_cull_ms = 0.0;
        let mut cpu_counts = None;
        match plan.main {
            MainDraws::CpuBaseline => {
                profile_scope!("cpu cull");
                let start = Instant::now();
                let prepared = &self.prepared;
                let counts =
                    cull::cpu::cull_into(&uniforms, &prepared.objects, &prepared.batches, &mut self.visible_scratch);
                cpu_cull_ms = start.elapsed().as_secs_f64() * 1e3;
                cpu_counts = Some(counts);
            }
            MainDraws::Bundle => {
                if self.bundle.is_none() {
                    profile_scope!("record bundle");
                    let (drawn, counts) = cull::cpu::cull(&uniforms, &self.prepared.objects, &self.prepared.batches);
                    let recorded = bundle::record(&ctx.device, &self.main, &self.buffers, &self.prepared, &drawn);
                    self.bundle = Some((recorded, counts));
                }
                cpu_counts = self.bundle.as_ref().map(|(_, counts)| *counts);
            }
            MainDraws::Indirect(_) => {}
        }

        FrameSetup { plan, phases, keep_pyramid, cpu_cull_ms, cpu_counts, soft }
    }

    /// Records the frame's passes: the scatter of changed object records, then every phase
    /// of the plan (pyramid, cull, build and main passes).
    pub(super) fn record_phases(
        &mut self,
        encoder: &mut FrameEncoder<'_>,
        target: &FrameTarget<'_>,
        plan: &FramePlan,
        phases: &'static [Phase],
        keep_pyramid: bool,
        soft: bool,
    ) {
        self.scatter.record(encoder, &mut self.updates);
        let raster = if soft { self.raster.as_ref() } else { None };
        for (index, &phase) in phases.iter().enumerate() {
            // The compute rasteriser shades and resolves once a frame, in its last phase.
            let last = index + 1 == phases.len();
            let hiz = if phase == Phase::Late {
                if !keep_pyramid {
                    self.pyramid.record(encoder, raster.map(RasterPass::pyramid_group));
                }
                self.pyramid.hiz_bind_group()
            } else {
                &self.buffers.hiz_placeholder
            };
            if let Some(output) = plan.cull {
                self.cull.record(encoder, &self.buffers, output, phase, hiz);
            }
            if plan.build {
                self.build.record(encoder, &self.buffers, phase);
            }
            if let Some(raster) = raster {
                raster.record(encoder, &self.buffers, phase, last);
            }
            let draws = match plan.main {
                MainDraws::Indirect(indirect) => Draws::Indirect(indirect, raster.filter(|_| last)),
                MainDraws::CpuBaseline => Draws::Baseline(&self.visible_scratch),
                MainDraws::Bundle => Draws::Bundle(&self.bundle.as_ref().expect("the bundle was recorded above").0),
            };
            self.main.record(encoder, target, &self.buffers, &self.prepared, draws, phase);
        }
    }

    /// Records one frame into the caller's `encoder`; the caller submits it. The same passes
    /// and commands as [`Renderer::render`], without GPU timestamps or the counters' readback
    /// (their buffers are mapped after a submit this renderer does not see), so
    /// [`Renderer::collect`] reports nothing for these frames.
    pub fn render_into(
        &mut self,
        ctx: &GpuContext,
        encoder: &mut wgpu::CommandEncoder,
        target: &FrameTarget<'_>,
        input: &FrameInput,
    ) -> FrameStats {
        profile_scope!("render into");
        let frame = self.frame_number;
        self.frame_number += 1;
        let FrameSetup { plan, phases, keep_pyramid, cpu_cull_ms, cpu_counts, soft } = self.setup(ctx, target, input);
        let record_start = Instant::now();
        // The passes record through a FrameEncoder, which owns its encoder: the caller's is
        // lent to it and given back, an unused one standing in meanwhile.
        let stand_in = ctx.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("stand-in") });
        let mut frame_encoder =
            FrameEncoder { encoder: std::mem::replace(encoder, stand_in), timer: None, commands: Default::default() };
        self.record_phases(&mut frame_encoder, target, &plan, phases, keep_pyramid, soft);
        let FrameEncoder { encoder: recorded, commands, .. } = frame_encoder;
        *encoder = recorded;
        FrameStats {
            frame,
            mode: input.mode,
            commands,
            record_ms: record_start.elapsed().as_secs_f64() * 1e3,
            finish_ms: 0.0,
            cpu_cull_ms,
            submit_ms: 0.0,
            cpu_visible: cpu_counts.map(|c| c.visible),
            cpu_counts,
            two_phase: phases.len() == 2,
            soft,
            indirect: plan.indirect().map(|d| d.call()),
        }
    }
}
