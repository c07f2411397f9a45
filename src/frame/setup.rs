//! Recording a frame: the set-up of each view (its schedule, uniforms, pyramid and compute
//! rasteriser fitted to its size, the CPU's culling for the modes that cull on the CPU), then
//! the view's steps in the order its [`ViewSchedule`] lists them, then, for a view of part of
//! the target, the copy of its pixels into place. [`Renderer::render_views`] records into its
//! own encoder and submits; [`Renderer::render_into`] records into the caller's.

use crate::clock::Instant;

use super::plan::{Detail, MainDraws, Step, ViewSchedule};
use super::shadows;
use super::uniforms::{cascade_uniforms, receive_shadows};
use super::view::{View, ViewShadow, ViewState};
use super::{DrawMode, FrameInput, FrameStats, Renderer};
use crate::gpu::commands::{FrameCommands, FrameEncoder};
use crate::gpu::target::FrameTarget;
use crate::gpu::GpuContext;
use crate::gpu_scene::PreparedScene;
use crate::passes::cull;
use crate::passes::cull::cpu::{first_blended, CpuCounts, DrawnObject};
use crate::passes::deferred::DeferredPass;
use crate::passes::main::indirect::IndirectDraws;
use crate::passes::main::{bundle, BlendDraws, Draws};
use crate::passes::shadow::{LayerStart, ShadowDraws, ShadowMerge};
use crate::passes::Phase;
use crate::tunables::{MAX_CASCADES, MAX_VIEWS};

/// What the set-up of one view decided and did.
struct ViewSetup {
    schedule: ViewSchedule,
    cpu_cull_ms: f64,
    cpu_counts: Option<CpuCounts>,
    /// Shadow cascades the view draws first.
    cascades: usize,
    /// The cascades cull in two phases, against their own pyramids.
    cascade_occlusion: bool,
    /// The cascades' small casters go to the compute rasteriser.
    cascade_soft: bool,
    /// What the CPU's culling of each cascade counted (CPU modes).
    cascade_counts: [Option<CpuCounts>; MAX_CASCADES],
}

/// Whose steps [`Renderer::record_view`] records: a view's, or one of its shadow cascades'.
#[derive(Clone, Copy)]
enum Recorded {
    View(usize),
    Cascade(usize, usize),
}

impl Renderer {
    /// Records every view of the frame into `encoder` (after the scatter of changed object
    /// records); the caller resolves the timestamps and submits. `record_ms`, `finish_ms`,
    /// `submit_ms` and `commands` are the caller's to fill.
    pub(super) fn record_frame(
        &mut self,
        ctx: &GpuContext,
        encoder: &mut FrameEncoder<'_>,
        target: &FrameTarget<'_>,
        input: &FrameInput,
        views: &[View],
    ) -> FrameStats {
        assert!(
            (1..=MAX_VIEWS).contains(&views.len()),
            "a frame renders 1 to MAX_VIEWS ({MAX_VIEWS}) views, not {}",
            views.len()
        );
        let frame = self.frame_number;
        self.frame_number += 1;
        self.flush_object_updates(ctx);
        while self.views.len() < views.len() {
            let state = ViewState::new(
                &ctx.device,
                &self.layouts,
                &self.buffers,
                &self.pyramid,
                self.raster.as_ref(),
                self.deferred.as_ref(),
            );
            self.views.push(ViewState { auto: self.auto_start(), ..state });
        }
        self.scatter.record(encoder, &mut self.updates);
        let mut stats = FrameStats {
            frame,
            mode: input.mode,
            views: views.len() as u32,
            commands: FrameCommands::default(),
            record_ms: 0.0,
            finish_ms: 0.0,
            cpu_cull_ms: 0.0,
            submit_ms: 0.0,
            cpu_visible: None,
            cpu_counts: None,
            two_phase: false,
            soft: false,
            deferred: false,
            shadow_cascades: 0,
            shadow_two_phase: false,
            shadow_soft: false,
            cascade_counts: [None; MAX_CASCADES],
            indirect: self.plan(input.mode).indirect().map(|d| d.call()),
            indirect_slots: 0,
        };
        for (index, view) in views.iter().enumerate() {
            // A view of part of the target draws into one of its own size first.
            let viewport =
                view.viewport.filter(|v| (v.x, v.y, v.width, v.height) != (0, 0, target.width, target.height));
            let own = viewport.map(|v| {
                let format = self.main.color_format;
                let own = self.views[index].fit_own_target(&ctx.device, format, v.width.max(1), v.height.max(1));
                (own.color.clone(), own.color_view.clone(), own.depth_view.clone())
            });
            let view_target = match &own {
                Some((_, color, depth)) => {
                    let v = viewport.expect("own targets are for viewports");
                    let (width, height) = (v.width.max(1), v.height.max(1));
                    FrameTarget { color, depth, width, height, keep_color: false, complete_depth: false }
                }
                None => FrameTarget { ..*target },
            };
            let setup = self.setup_view(ctx, &view_target, input, view, index);
            // The cascades first: the view's surfaces read what they draw.
            for cascade in 0..setup.cascades {
                let plan = &self.plans[input.mode as usize];
                let schedule = plan.cascade_schedule(cascade, setup.cascade_occlusion, setup.cascade_soft);
                self.record_view(
                    encoder,
                    &view_target,
                    input.mode,
                    &schedule,
                    Recorded::Cascade(index, cascade),
                    frame,
                );
            }
            self.record_view(encoder, &view_target, input.mode, &setup.schedule, Recorded::View(index), frame);
            if let (Some((texture, _, _)), Some(v)) = (&own, viewport) {
                encoder.encoder.copy_texture_to_texture(
                    texture.as_image_copy(),
                    wgpu::TexelCopyTextureInfo {
                        texture: target.color.texture(),
                        mip_level: 0,
                        origin: wgpu::Origin3d { x: v.x, y: v.y, z: 0 },
                        aspect: wgpu::TextureAspect::All,
                    },
                    wgpu::Extent3d { width: v.width, height: v.height, depth_or_array_layers: 1 },
                );
            }
            stats.cpu_cull_ms += setup.cpu_cull_ms;
            if index == 0 {
                stats.cpu_counts = setup.cpu_counts;
                stats.cpu_visible = setup.cpu_counts.map(|c| c.visible);
                stats.two_phase = setup.schedule.two_phase();
                stats.soft = setup.schedule.soft;
                stats.deferred = setup.schedule.deferred;
                stats.shadow_cascades = setup.cascades as u32;
                stats.shadow_two_phase = setup.cascades > 0 && setup.cascade_occlusion;
                stats.shadow_soft = setup.cascades > 0 && setup.cascade_soft;
                stats.cascade_counts = setup.cascade_counts;
            }
        }
        stats
    }

    /// Decides view `index`'s schedule, writes its uniforms, fits its pyramid and compute
    /// rasteriser to `target`, and does the CPU's culling for the modes that cull on the CPU.
    fn setup_view(
        &mut self,
        ctx: &GpuContext,
        target: &FrameTarget<'_>,
        input: &FrameInput,
        view: &View,
        index: usize,
    ) -> ViewSetup {
        let frame = self.frame_number - 1;
        let state = &mut self.views[index];
        // A frame without shadows has no cascades to judge: their switches are not probed. The
        // cascades' compute rasteriser is allowed where the view's is asked for (`soft`, which
        // the adaptive frame then turns on or off for the view alone).
        let asked = Detail {
            auto_shadow_occlusion: view.detail.auto_shadow_occlusion && input.shadows > 0,
            shadow_soft: view.detail.soft && view.detail.shadow_soft && input.shadows > 0,
            ..view.detail
        };
        let detail = state.auto.apply(asked, frame);
        state.auto.expire(frame);
        let view = &View { detail, ..*view };
        let pyramid_current =
            state.pyramid_view_proj.is_some() && state.pyramid.fits(target.depth, target.width, target.height);
        let schedule = self.schedule(input, view, pyramid_current);
        let mut uniforms = self.view_uniforms(input, view, &schedule, target.width, target.height);
        let state = &mut self.views[index];
        // A deferred view's composite binds the compute rasteriser's pixels in every frame, so
        // the rasteriser fits the target whether or not this frame uses it.
        if schedule.soft || state.deferred.is_some() {
            if let Some(raster) = state.raster.as_mut() {
                let size = (target.width, target.height);
                raster.fit(&ctx.device, &self.layouts, &self.buffers, &state.gpu.visibility, size);
            }
        }
        if let Some(deferred) = state.deferred.as_mut() {
            let fitted = (target.depth, target.width, target.height);
            deferred.fit(&ctx.device, &self.layouts, &self.buffers, fitted, state.raster.as_ref());
            // Where the target's colour can be written in compute and the caller does not read
            // the depth buffer, so is the composite; the compute rasteriser's pixels it keeps
            // then reach the blended pass through `soft_depth`, not the depth buffer. A bundle
            // holds the frame group it was recorded with.
            let color = (!target.complete_depth).then_some(target.color);
            let in_compute = deferred.fit_output(&ctx.device, &self.layouts, color, &state.gpu.frame);
            uniforms.soft_depth_test = u32::from(schedule.deferred && schedule.soft && in_compute);
            // Its first main pass then clears only the depth (`MainPass::record`).
            uniforms.paint_background = u32::from(schedule.deferred && in_compute && !target.keep_color);
            if state.gpu.bind_soft_depth(&ctx.device, &self.layouts, Some(deferred.soft_depth())) {
                state.bundle = None;
                state.blend_bundle = None;
            }
        }
        if schedule.keep_pyramid {
            // A frozen view tests against the pyramid of the view it froze (and what that
            // camera cannot see disappears too).
            uniforms.occlusion_view_proj = state.pyramid_view_proj.expect("kept only while current");
        } else if schedule.two_phase() {
            // A new depth buffer (first frame, resize) gets a new pyramid before its first use.
            state.pyramid.fit(&ctx.device, target.depth, target.width, target.height);
            state.pyramid_view_proj = Some(uniforms.view_proj);
            if let Some(raster) = state.raster.as_ref().filter(|_| schedule.soft) {
                state.pyramid.fit_soft(&ctx.device, raster.visibility_buffer());
            }
        }
        // The sun's cascades, fitted to this view's camera; its surfaces read them.
        let size = shadows::map_size(target.width, target.height);
        let fitted = match self.scene_bounds {
            Some(bounds) if input.shadows > 0 => {
                let aspect = target.width as f32 / target.height.max(1) as f32;
                shadows::fit(&view.camera, aspect, self.sun.direction, &bounds, input.shadows as usize, size)
            }
            _ => Vec::new(),
        };
        state.fit_shadow(&ctx.device, &self.layouts, &self.buffers, &self.pyramid, fitted.len(), size);
        receive_shadows(&mut uniforms, &fitted);
        if let Some(shadow) = state.shadow.as_mut() {
            shadow.fitted.clone_from(&fitted);
        }
        {
            profile_scope!("write uniforms");
            uniforms.write_to(&mut state.uniform_bytes);
            ctx.queue.write_buffer(&state.gpu.frame, 0, &state.uniform_bytes);
        }
        let mut cascade_counts = [None; MAX_CASCADES];
        let mut cpu_cull_ms = 0.0;
        // The cascades cull in two phases, against their own pyramids, where the GPU culls.
        let cascade_occlusion = self.plans[input.mode as usize].phases(view.detail.shadow_occlusion).len() == 2;
        let mut cascade_soft = false;
        if let Some(ViewShadow { cascades, map, raster, merge, .. }) = state.shadow.as_mut() {
            let raster = raster.as_mut().filter(|_| schedule.shadow_soft);
            cascade_soft = raster.is_some();
            let raster = raster.map(|raster| {
                raster.fit_depth(&ctx.device, &self.layouts, &self.buffers, size);
                &*raster
            });
            if let Some(raster) = raster {
                if !merge.as_ref().is_some_and(|m| m.fits(map.layer_views.len(), size, raster)) {
                    let far = ShadowMerge::far_plane(&ctx.device, &ctx.queue, size);
                    *merge = Some(ShadowMerge::new(&ctx.device, &self.layouts, &map.layer_views, &far, raster, size));
                }
            }
            let main = self.plans[input.mode as usize].main;
            for (k, (cascade, cascade_state)) in fitted.iter().zip(cascades.iter_mut()).enumerate() {
                if cascade_occlusion {
                    cascade_state.pyramid.fit(&ctx.device, &map.layer_views[k], size, size);
                }
                let cascade_uniforms =
                    cascade_uniforms(&uniforms, cascade, &view.detail, size, cascade_occlusion, cascade_soft);
                cascade_uniforms.write_to(&mut cascade_state.uniform_bytes);
                ctx.queue.write_buffer(&cascade_state.gpu.frame, 0, &cascade_state.uniform_bytes);
                let prepared = &self.prepared;
                match main {
                    MainDraws::CpuBaseline => {
                        profile_scope!("cpu cull shadow");
                        let start = Instant::now();
                        let visible = &mut cascade_state.visible;
                        let counts =
                            cull::cpu::cull_into(&cascade_uniforms, &prepared.objects, &prepared.batches, visible);
                        cpu_cull_ms += start.elapsed().as_secs_f64() * 1e3;
                        cascade_counts[k] = Some(counts);
                    }
                    MainDraws::Bundle => {
                        if cascade_state.bundle.is_none() {
                            profile_scope!("record shadow bundle");
                            let (drawn, counts) =
                                cull::cpu::cull(&cascade_uniforms, &prepared.objects, &prepared.batches);
                            let gpu = &cascade_state.gpu;
                            let recorded =
                                bundle::record(&ctx.device, &self.shadow, &self.buffers, gpu, prepared, &drawn);
                            cascade_state.bundle = Some((recorded, counts));
                        }
                        cascade_counts[k] = cascade_state.bundle.as_ref().map(|(_, counts)| *counts);
                    }
                    MainDraws::Indirect(_) => {}
                }
            }
        }

        // The CPU's share of the modes it culls for: done before recording, as an application
        // would, and timed apart from it.
        let mut cpu_counts = None;
        let prepared = &self.prepared;
        match self.plans[input.mode as usize].main {
            MainDraws::CpuBaseline => {
                profile_scope!("cpu cull");
                let start = Instant::now();
                let counts = cull::cpu::cull_into(&uniforms, &prepared.objects, &prepared.batches, &mut state.visible);
                cpu_cull_ms += start.elapsed().as_secs_f64() * 1e3;
                cpu_counts = Some(counts);
            }
            MainDraws::Bundle => {
                // A bundle holds the pipelines of the frame it was recorded in: deferred or forward.
                if state.bundle_deferred != schedule.deferred {
                    state.bundle = None;
                }
                if state.bundle.is_none() {
                    profile_scope!("record bundle");
                    let (drawn, counts) = cull::cpu::cull(&uniforms, &prepared.objects, &prepared.batches);
                    // A deferred renderer draws the blended objects after the composite: a
                    // bundle of their own.
                    let deferred = schedule.deferred;
                    let (opaque, blended) = split_blended(&drawn, prepared, deferred);
                    let (set, buffers, gpu) = (self.main.set(deferred), &self.buffers, &state.gpu);
                    state.bundle = Some((bundle::record(&ctx.device, set, buffers, gpu, prepared, opaque), counts));
                    state.blend_bundle =
                        deferred.then(|| bundle::record(&ctx.device, set, buffers, gpu, prepared, blended));
                    state.bundle_deferred = deferred;
                }
                cpu_counts = state.bundle.as_ref().map(|(_, counts)| *counts);
            }
            MainDraws::Indirect(_) => {}
        }
        ViewSetup {
            schedule,
            cpu_cull_ms,
            cpu_counts,
            cascades: fitted.len(),
            cascade_occlusion,
            cascade_soft,
            cascade_counts,
        }
    }

    /// Whether the views of frames in `mode` list their occluders (the first main pass draws
    /// them first, nearest first: `passes::build`): where the mode's draws can and the build
    /// pass has the sort (`MULTIDRAW_OCCLUDERS` is not `off`).
    pub fn lists_occluders(&self, mode: DrawMode) -> bool {
        self.plans[mode as usize].indirect().is_some_and(|d| d.can_list_occluders()) && self.build.sorts_occluders()
    }

    /// Records the steps of a view (or of one of its shadow cascades) in its schedule's order.
    fn record_view(
        &mut self,
        encoder: &mut FrameEncoder<'_>,
        target: &FrameTarget<'_>,
        mode: DrawMode,
        schedule: &ViewSchedule,
        recorded: Recorded,
        frame: u64,
    ) {
        let plan = self.plans[mode as usize];
        let occluders = self.lists_occluders(mode);
        let (state, map, cascade_raster, merge) = match recorded {
            Recorded::View(index) => (&mut self.views[index], None, None, None),
            Recorded::Cascade(index, cascade) => {
                let ViewShadow { map, cascades, raster, merge, .. } =
                    self.views[index].shadow.as_mut().expect("fitted in set-up");
                (&mut cascades[cascade], Some(&*map), raster.as_ref(), merge.as_ref())
            }
        };
        let layer = match recorded {
            Recorded::Cascade(_, cascade) => map.map(|map| &map.layer_views[cascade]),
            Recorded::View(_) => None,
        };
        // A cascade rasterises into its view's shadow rasteriser.
        let raster = if layer.is_some() { cascade_raster } else { state.raster.as_ref() };
        let raster = raster.filter(|_| schedule.soft);
        // A cascade's depth pass has no `ids`; a view's main passes draw into them in a deferred
        // frame.
        let deferred = state.deferred.as_ref().filter(|_| layer.is_none() && schedule.deferred);
        let ids = deferred.map(DeferredPass::ids);
        let deferred_main = ids.is_some();
        // Its first main pass then leaves colour and `ids` uncleared (`MainPass::record`).
        let composited = deferred.is_some_and(|deferred| deferred.composites_in_compute(target.color));
        for &step in schedule.steps() {
            let name = step.pass_name().unwrap_or_default();
            match step {
                Step::Pyramid { soft } => state.pyramid.record_named(encoder, soft, name),
                Step::ShadowPyramid(_) => state.pyramid.record_named(encoder, false, name),
                // A cascade culls and builds as a view does, under its own pass names.
                Step::Cull(phase) | Step::ShadowCull(_, phase) => {
                    let hiz = if phase == Phase::Late {
                        state.pyramid.hiz_bind_group()
                    } else {
                        &self.buffers.hiz_placeholder
                    };
                    let output = plan.cull.expect("the schedule culls only where the plan does");
                    self.cull.record(encoder, &self.buffers, &state.gpu, output, phase, hiz, name);
                }
                // A view's first (or only) phase sorts its occluders in its build pass; a cascade
                // lists none.
                Step::Build(phase) => {
                    let occluders = occluders && phase != Phase::Late;
                    self.build.record(encoder, &self.buffers, &state.gpu, phase, name, occluders)
                }
                Step::ShadowBuild(_, phase) => {
                    self.build.record(encoder, &self.buffers, &state.gpu, phase, name, false)
                }
                Step::Shadow(cascade, phase) => {
                    let draws = match plan.main {
                        MainDraws::Indirect(indirect) => ShadowDraws::Indirect(indirect),
                        MainDraws::CpuBaseline => ShadowDraws::Baseline(&state.visible),
                        MainDraws::Bundle => {
                            ShadowDraws::Bundle(&state.bundle.as_ref().expect("the bundle was recorded in set-up").0)
                        }
                    };
                    let map = map.expect("cascade steps are recorded for cascades");
                    // The compute rasteriser's casters, merged with what came before; else the
                    // far plane in a first phase.
                    let start = match (merge.filter(|_| schedule.soft), phase) {
                        (Some(merge), _) => LayerStart::Merged(merge),
                        (None, Phase::Late) => LayerStart::Kept,
                        (None, Phase::Early | Phase::Only) => LayerStart::Far(&map.far),
                    };
                    self.shadow.record(
                        encoder,
                        cascade,
                        phase,
                        (&map.texture, &map.layer_views[cascade]),
                        start,
                        &self.buffers,
                        &state.gpu,
                        &self.prepared,
                        draws,
                    );
                }
                Step::ShadowMerge(cascade, phase) => {
                    let merge = merge.expect("the schedule merges only where the cascades rasterise");
                    self.shadow.merge(encoder, cascade, phase, merge);
                }
                Step::ShadowRaster(_, phase) => {
                    let raster = raster.expect("the schedule rasterises only where there is a rasteriser");
                    raster.record_named(encoder, &self.buffers, &state.gpu, phase, false, name);
                }
                Step::Raster { phase, shade } => {
                    let raster = raster.expect("the schedule rasterises only where there is a rasteriser");
                    raster.record(encoder, &self.buffers, &state.gpu, phase, shade);
                }
                Step::Mark => {
                    let raster = raster.expect("the schedule marks only where there is a rasteriser");
                    raster.mark(encoder, &state.gpu);
                }
                Step::Main { phase, resolve } => {
                    let draws = match plan.main {
                        MainDraws::Indirect(indirect) => {
                            let occluders = occluders && phase != Phase::Late;
                            Draws::Indirect(IndirectDraws { occluders, ..indirect }, raster.filter(|_| resolve))
                        }
                        MainDraws::CpuBaseline => {
                            Draws::Baseline(split_blended(&state.visible, &self.prepared, deferred_main).0)
                        }
                        MainDraws::Bundle => {
                            Draws::Bundle(&state.bundle.as_ref().expect("the bundle was recorded in set-up").0)
                        }
                    };
                    let (buffers, prepared) = (&self.buffers, &self.prepared);
                    self.main.record(encoder, target, ids, buffers, &state.gpu, prepared, draws, phase, composited);
                }
                Step::Shade => {
                    let deferred = deferred.expect("the schedule defers only where the renderer does");
                    deferred.record_shade(encoder, &self.buffers, &state.gpu);
                }
                Step::Composite => {
                    let deferred = deferred.expect("the schedule defers only where the renderer does");
                    deferred.record_composite(encoder, target, &state.gpu);
                }
                Step::BlendSort => self.blend.record(encoder, &self.buffers, &state.gpu),
                Step::Blend => {
                    let draws = match plan.main {
                        MainDraws::Indirect(_) => BlendDraws::Sorted { counted: plan.compact() },
                        MainDraws::CpuBaseline => {
                            BlendDraws::Baseline(split_blended(&state.visible, &self.prepared, deferred_main).1)
                        }
                        MainDraws::Bundle => BlendDraws::Bundle(
                            state.blend_bundle.as_ref().expect("a deferred renderer's bundle frames record one"),
                        ),
                    };
                    let (buffers, prepared) = (&self.buffers, &self.prepared);
                    self.main.record_blend(encoder, target, ids, buffers, &state.gpu, prepared, draws);
                }
                Step::CopyCounters => state.counters.copy(encoder, &self.buffers, frame),
            }
        }
    }
}

/// `visible` (ordered as the CPU cull orders it) as what the main pass draws and what the
/// blended pass draws: a deferred renderer draws its blended objects after the composite, a
/// forward one last in its main pass.
fn split_blended<'v>(
    visible: &'v [DrawnObject],
    prepared: &PreparedScene,
    deferred: bool,
) -> (&'v [DrawnObject], &'v [DrawnObject]) {
    let first = if deferred { first_blended(visible, &prepared.batches) } else { visible.len() };
    visible.split_at(first)
}
