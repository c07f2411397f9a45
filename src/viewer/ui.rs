//! The side panel, the frozen-frustum overlay and the profiler window.
//!
//! The panel edits [`PanelState`] and reads everything else; a click on "rebuild" or
//! "reload" is returned to the viewer, which owns the scene rebuild.

use glam::{Vec3, Vec4};

use super::rebuild::SceneRebuild;
use super::stats::{CpuOrGpuCounts, LiveStats};
use crate::frame::{Detail, DrawMode};
use crate::gpu::GpuContext;
use crate::scene::Camera;

/// Modes the panel offers: bundle is left out, as a bundle freezes the visible set, which a
/// moving camera invalidates.
const PANEL_MODES: [DrawMode; 4] = [DrawMode::Gpu, DrawMode::GpuNocount, DrawMode::GpuPerObject, DrawMode::Cpu];

/// What the panel's controls change.
pub(crate) struct PanelState {
    pub mode: DrawMode,
    pub animate: bool,
    /// The camera whose frustum culls while culling is frozen.
    pub frozen: Option<Camera>,
    pub show_profiler: bool,
    /// The object count for the next rebuild of the default scene.
    pub requested_objects: u32,
    /// Level of detail, size and occlusion culling, the compute rasteriser.
    pub detail: Detail,
    /// Colour objects by level of detail.
    pub lod_colors: bool,
    /// The sun's shadow cascades (0: shadows off).
    pub shadows: u32,
    /// Tint surfaces by their shadow cascade.
    pub cascade_colors: bool,
    /// The shadow-map layer (cascade) shown in its window, if any.
    pub shadow_map: Option<u32>,
    /// The depth-pyramid level shown in its window, if any.
    pub pyramid_level: Option<u32>,
}

/// What the panel shows without changing.
pub(crate) struct PanelView<'a> {
    pub gpu: &'a GpuContext,
    pub stats: &'a LiveStats,
    pub rebuild: &'a SceneRebuild,
    /// The moving camera; "freeze" copies it into [`PanelState::frozen`].
    pub camera: &'a Camera,
    pub aspect: f32,
    /// The shown pyramid level as a grey image, read back this frame, and the level count.
    pub pyramid: Option<(egui::ColorImage, u32)>,
    /// The shown shadow-map layer as a grey image, read back this frame, and the cascade count.
    pub shadow_map: Option<(egui::ColorImage, u32)>,
    /// A script's: scroll the panel to its last item (without animation).
    pub scroll_to_end: bool,
}

/// What the panel did this frame: the click on "rebuild", and where its items landed.
pub(crate) struct PanelOutput {
    pub rebuild: bool,
    pub layout: PanelLayout,
}

/// Where the panel's items landed, in points: what a script's `--panel-layout` checks.
#[derive(Clone, Debug)]
pub(crate) struct PanelLayout {
    /// The panel's last item, the key help.
    pub last_item: egui::Rect,
    /// Where the last item's ui may paint (the panel, or its scroll area's view of it).
    pub last_item_clip: egui::Rect,
    /// Each row of the numbers: its name, and the rectangles of its label and its value.
    pub rows: Vec<(String, egui::Rect, egui::Rect)>,
}

/// The panel's width at start, in points: room for the longest numbers row and the plot's
/// legend, so that the panel does not widen as values lengthen (dragging its edge still
/// does).
const PANEL_WIDTH: f32 = 320.0;

/// Draws the panel and the windows.
pub(crate) fn draw(ctx: &egui::Context, panel: &mut PanelState, view: &PanelView<'_>) -> PanelOutput {
    let mut output = PanelOutput {
        rebuild: false,
        layout: PanelLayout { last_item: egui::Rect::NOTHING, last_item_clip: egui::Rect::NOTHING, rows: Vec::new() },
    };
    egui::SidePanel::left("controls").default_width(PANEL_WIDTH).show(ctx, |ui| {
        // The panel is longer than a 720-line window, so it scrolls; with a handle that shows
        // without hovering (egui's default hides it), so one can see there is more below.
        ui.spacing_mut().scroll = egui::style::ScrollStyle::thin();
        egui::ScrollArea::vertical().auto_shrink(false).show(ui, |ui| {
            header(ui, view.gpu);
            ui.separator();
            output.rebuild = scene_controls(ui, panel, view);
            ui.separator();
            detail_controls(ui, panel);
            ui.separator();
            output.layout.rows = numbers(ui, &number_rows(panel, view));
            super::plot::frame_time_plot(ui, &view.stats.frame_ms, &view.stats.gpu_frame_ms);
            ui.separator();
            if ui.button("Profiler (F1)").clicked() {
                panel.show_profiler = !panel.show_profiler;
            }
            let help = ui.small("WASD/QE move, right mouse look, wheel speed, R reset, F12 screenshot");
            if view.scroll_to_end {
                help.scroll_to_me_animation(Some(egui::Align::BOTTOM), egui::style::ScrollAnimation::none());
            }
            output.layout.last_item = help.rect;
            output.layout.last_item_clip = ui.clip_rect();
        });
    });
    if panel.show_profiler {
        panel.show_profiler = puffin_egui::profiler_window(ctx);
    }
    if let Some(level) = panel.pyramid_level.as_mut() {
        pyramid_window(ctx, level, view.pyramid.as_ref());
    }
    if let Some(cascade) = panel.shadow_map.as_mut() {
        shadow_map_window(ctx, cascade, view.shadow_map.as_ref());
    }
    if let Some(frozen) = panel.frozen {
        draw_frustum(ctx, view.camera, &frozen, view.aspect);
    }
    output
}

/// The title and the adapter.
fn header(ui: &mut egui::Ui, gpu: &GpuContext) {
    ui.heading("multidraw");
    ui.label(format!("{} ({:?})", gpu.info.name, gpu.info.backend));
    ui.label(format!("indirect validation: {}", if gpu.indirect_validation { "on" } else { "off" }));
}

/// The mode, the scene's rebuild or reload, animation and frozen culling; returns whether a
/// rebuild was asked for.
fn scene_controls(ui: &mut egui::Ui, panel: &mut PanelState, view: &PanelView<'_>) -> bool {
    ui.label("Mode");
    for mode in PANEL_MODES {
        ui.radio_value(&mut panel.mode, mode, mode.name());
    }
    ui.separator();

    let mut rebuild = false;
    let in_progress = view.rebuild.in_progress();
    let busy = in_progress.is_some();
    if view.rebuild.reloads_a_file() {
        // Edit the file, then reload; a file that fails to load keeps the running scene.
        rebuild |= ui.add_enabled(!busy, egui::Button::new("Reload scene file")).clicked();
    } else {
        ui.horizontal(|ui| {
            ui.label("Objects");
            let max = crate::gpu_scene::max_objects(&view.gpu.limits);
            ui.add(egui::DragValue::new(&mut panel.requested_objects).range(1..=max).speed(1000));
        });
        let changed = panel.requested_objects != view.rebuild.object_count;
        rebuild |= ui.add_enabled(!busy && changed, egui::Button::new("Rebuild scene")).clicked();
    }
    if let Some((objects, elapsed)) = in_progress {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label(format!("building {objects} objects… {:.1} s", elapsed.as_secs_f32()));
        });
    }
    if let Some(message) = &view.rebuild.message {
        ui.label(message);
    }
    ui.checkbox(&mut panel.animate, "Animate");
    let mut freeze = panel.frozen.is_some();
    if ui.checkbox(&mut freeze, "Freeze culling camera").changed() {
        panel.frozen = freeze.then_some(*view.camera);
    }
    rebuild
}

/// Level of detail, size and occlusion culling, the compute rasteriser and the debug views.
fn detail_controls(ui: &mut egui::Ui, panel: &mut PanelState) {
    ui.checkbox(&mut panel.detail.lod, "Levels of detail");
    ui.add_enabled(
        panel.detail.lod,
        egui::Slider::new(&mut panel.detail.lod_error_px, 0.25..=16.0).logarithmic(true).text("LOD error px"),
    );
    ui.add(egui::Slider::new(&mut panel.detail.min_pixels, 0.0..=8.0).text("min size px"));
    // While frozen, the pyramid of the frozen view is kept: what it hides disappears too.
    // "auto": used in the frames where it pays (`frame::adapt`).
    ui.horizontal(|ui| {
        ui.checkbox(&mut panel.detail.occlusion, "Occlusion culling");
        ui.add_enabled(panel.detail.occlusion, egui::Checkbox::new(&mut panel.detail.auto_occlusion, "auto"));
    });
    // Off while culling is frozen and in the modes that do not cull into batches.
    ui.horizontal(|ui| {
        ui.checkbox(&mut panel.detail.soft, "Compute rasteriser for small objects");
        ui.add_enabled(panel.detail.soft, egui::Checkbox::new(&mut panel.detail.auto_soft, "auto"));
    });
    // Off where the adapter lacks primitive_index (the renderer then shades forward anyway).
    ui.horizontal(|ui| {
        ui.checkbox(&mut panel.detail.deferred, "Deferred shading of opaque pixels");
        ui.add_enabled(panel.detail.deferred, egui::Checkbox::new(&mut panel.detail.auto_deferred, "auto"));
    });
    ui.checkbox(&mut panel.lod_colors, "Colour by LOD level");
    let mut shadows = panel.shadows > 0;
    if ui.checkbox(&mut shadows, "Sun shadows").changed() {
        panel.shadows = if shadows { crate::tunables::MAX_CASCADES as u32 } else { 0 };
    }
    if panel.shadows > 0 {
        ui.add(egui::Slider::new(&mut panel.shadows, 1..=crate::tunables::MAX_CASCADES as u32).text("cascades"));
        ui.horizontal(|ui| {
            ui.checkbox(&mut panel.detail.shadow_occlusion, "Occlusion culling of casters");
            let enabled = panel.detail.shadow_occlusion;
            ui.add_enabled(enabled, egui::Checkbox::new(&mut panel.detail.auto_shadow_occlusion, "auto"));
        });
    }
    ui.checkbox(&mut panel.cascade_colors, "Colour by shadow cascade");
    let mut show_shadow_map = panel.shadow_map.is_some();
    if ui.checkbox(&mut show_shadow_map, "Show a shadow map").changed() {
        panel.shadow_map = show_shadow_map.then_some(0);
    }
    let mut show_pyramid = panel.pyramid_level.is_some();
    if ui.checkbox(&mut show_pyramid, "Show a depth-pyramid level").changed() {
        panel.pyramid_level = show_pyramid.then_some(0);
    }
}

/// The live numbers as (name, value) rows. The counts have rows from the first frame, "…"
/// until the GPU's first readback, so the panel does not lengthen when they arrive.
fn number_rows(panel: &PanelState, view: &PanelView<'_>) -> Vec<(String, String)> {
    let stats = view.stats;
    let mut rows: Vec<(String, String)> = Vec::new();
    let mut row = |name: &str, value: String| rows.push((name.to_string(), value));
    let pending = || "…".to_string();
    row("objects", view.rebuild.object_count.to_string());
    let ran = |on: bool| if on { "on" } else { "off" };
    let ran_what = format!(
        "occlusion {}, compute raster {} (shadows {}), deferred {}",
        ran(stats.two_phase),
        ran(stats.soft),
        ran(stats.shadow_soft),
        ran(stats.deferred)
    );
    row("frame ran", ran_what);
    row("visible", stats.visible.map_or_else(pending, |v| v.to_string()));
    let counts = stats.counters.as_ref();
    let count = |value: fn(&CpuOrGpuCounts) -> String| counts.map_or_else(pending, value);
    row("in frustum", count(|c| c.in_frustum.to_string()));
    row("too small", count(|c| c.too_small.to_string()));
    row("occluded", count(|c| c.occluded.to_string()));
    row("drawn (phase 1 + 2)", count(|c| format!("{} + {}", c.drawn[0], c.drawn[1])));
    row("  by compute raster", count(|c| c.soft.to_string()));
    row("  occluders first", count(|c| c.occluders.to_string()));
    row("triangles", count(|c| c.triangles.to_string()));
    row("per level", count(|c| format!("{:?}", c.levels)));
    row("draw commands", stats.draw_commands.to_string());
    row("bind group sets", format!("{:?}", stats.bind_group_sets));
    row("CPU record", format!("{:.3} ms", stats.record_ms));
    if panel.mode == DrawMode::Cpu {
        row("CPU cull", format!("{:.3} ms", stats.cpu_cull_ms));
    }
    // The pass names of the puffin GPU queue lane, the wgpu labels and the timestamps.
    match &stats.gpu {
        Some(gpu) => {
            row(crate::profiling::GPU_LANE, format!("{:.3} ms", gpu.total()));
            for &(name, ms) in gpu.iter() {
                row(&format!("  {name}"), format!("{ms:.3} ms"));
            }
        }
        None => row(crate::profiling::GPU_LANE, "no timestamps".into()),
    }
    rows
}

/// Lays the rows out in two columns; returns each row's name and the rectangles of its name
/// and its value.
///
/// The name column is as wide as this frame's widest name. An `egui::Grid` sizes its columns
/// from the frame before, so a row arriving with a longer name (the pass times come with the
/// first GPU readback) ran into its value for a frame, and on lavapipe an early frame stays on
/// screen for seconds.
fn numbers(ui: &mut egui::Ui, rows: &[(String, String)]) -> Vec<(String, egui::Rect, egui::Rect)> {
    // Laid out as a label lays its text out: the ui's font, on one line.
    let names: Vec<_> = rows
        .iter()
        .map(|(name, _)| {
            egui::WidgetText::from(name.as_str()).into_galley(
                ui,
                Some(egui::TextWrapMode::Extend),
                f32::INFINITY,
                egui::FontSelection::Default,
            )
        })
        .collect();
    let name_width = names.iter().map(|galley| galley.size().x).fold(0.0, f32::max);
    names
        .into_iter()
        .zip(rows)
        .map(|(galley, (name, value))| {
            ui.horizontal(|ui| {
                let name_rect = ui.label(galley).rect;
                ui.add_space((name_width - name_rect.width()).max(0.0));
                let value_rect = ui.label(value).rect;
                (name.clone(), name_rect, value_rect)
            })
            .inner
        })
        .collect()
}

/// The depth pyramid's window: a level slider and the level, nearest depth black, background
/// white. The level is read back from the GPU every frame while the window is open (a debug
/// view: the read waits for the frame).
fn pyramid_window(ctx: &egui::Context, level: &mut u32, pyramid: Option<&(egui::ColorImage, u32)>) {
    egui::Window::new("Depth pyramid").default_width(300.0).show(ctx, |ui| {
        let Some((image, levels)) = pyramid else {
            ui.label("no pyramid: turn occlusion culling on in a GPU-culled mode (and unfreeze culling)");
            return;
        };
        ui.add(egui::Slider::new(level, 0..=levels.saturating_sub(1)).text("level"));
        ui.label(format!("{}×{} texels", image.size[0], image.size[1]));
        let texture = ctx.load_texture("depth pyramid level", image.clone(), egui::TextureOptions::NEAREST);
        let width = ui.available_width().min(512.0);
        let height = width * image.size[1] as f32 / image.size[0].max(1) as f32;
        ui.image((texture.id(), egui::vec2(width, height)));
    });
}

/// The shadow map's window: a cascade slider and that cascade's layer, nearest caster black,
/// nothing white (read back every frame while open, as the pyramid's window is).
fn shadow_map_window(ctx: &egui::Context, cascade: &mut u32, map: Option<&(egui::ColorImage, u32)>) {
    egui::Window::new("Shadow map").default_width(300.0).show(ctx, |ui| {
        let Some((image, cascades)) = map else {
            ui.label("no shadow map: turn the sun's shadows on");
            return;
        };
        ui.add(egui::Slider::new(cascade, 0..=cascades.saturating_sub(1)).text("cascade"));
        ui.label(format!("{}×{} texels", image.size[0], image.size[1]));
        let texture = ctx.load_texture("shadow map layer", image.clone(), egui::TextureOptions::NEAREST);
        let width = ui.available_width().min(512.0);
        ui.image((texture.id(), egui::vec2(width, width)));
    });
}

/// Draws the frozen culling frustum's edges as seen by the moving camera.
fn draw_frustum(ctx: &egui::Context, view: &Camera, frozen: &Camera, aspect: f32) {
    let frozen_inverse = frozen.view_proj(aspect).inverse();
    // Near and far corners, far pulled in so the box stays readable.
    let corners: Vec<Vec3> = [0.0, 0.98]
        .iter()
        .flat_map(|&z| [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].map(|(x, y)| (x, y, z)))
        .map(|(x, y, z)| {
            let p = frozen_inverse * Vec4::new(x, y, z, 1.0);
            p.truncate() / p.w
        })
        .collect();
    let view_proj = view.view_proj(aspect);
    let screen = ctx.viewport_rect();
    let project = |p: Vec3| {
        let clip = view_proj * p.extend(1.0);
        (clip.w > 0.01).then(|| {
            let ndc = clip.truncate() / clip.w;
            egui::pos2(
                screen.left() + (ndc.x * 0.5 + 0.5) * screen.width(),
                screen.top() + (0.5 - ndc.y * 0.5) * screen.height(),
            )
        })
    };
    let painter = ctx.layer_painter(egui::LayerId::background());
    let stroke = egui::Stroke::new(1.5, egui::Color32::YELLOW);
    for (a, b) in [(0, 1), (1, 2), (2, 3), (3, 0), (4, 5), (5, 6), (6, 7), (7, 4), (0, 4), (1, 5), (2, 6), (3, 7)] {
        if let (Some(pa), Some(pb)) = (project(corners[a]), project(corners[b])) {
            painter.line_segment([pa, pb], stroke);
        }
    }
}
