//! egui over the window: winit events in, the panel's shapes drawn with egui-wgpu over the
//! finished scene (the pass loads the scene's colour, so the scene is never drawn twice).

use winit::window::Window;

use crate::gpu::GpuContext;

pub(crate) struct EguiLayer {
    ctx: egui::Context,
    state: egui_winit::State,
    renderer: egui_wgpu::Renderer,
}

impl EguiLayer {
    pub fn new(window: &Window, gpu: &GpuContext, format: wgpu::TextureFormat) -> Self {
        let ctx = egui::Context::default();
        let state = egui_winit::State::new(
            ctx.clone(),
            egui::ViewportId::ROOT,
            window,
            Some(window.scale_factor() as f32),
            None,
            Some(gpu.limits.max_texture_dimension_2d as usize),
        );
        let renderer = egui_wgpu::Renderer::new(&gpu.device, format, egui_wgpu::RendererOptions::default());
        Self { ctx, state, renderer }
    }

    /// Passes a window event to egui; true when egui used it (a click on the panel, typing
    /// into a field), so the camera should not.
    pub fn on_window_event(&mut self, window: &Window, event: &winit::event::WindowEvent) -> bool {
        self.state.on_window_event(window, event).consumed
    }

    /// Runs `build_ui` and draws its output over `view`, which is `size` pixels.
    pub fn draw(
        &mut self,
        window: &Window,
        gpu: &GpuContext,
        view: &wgpu::TextureView,
        size: [u32; 2],
        build_ui: impl FnMut(&egui::Context),
    ) {
        let raw_input = self.state.take_egui_input(window);
        let output = {
            puffin::profile_scope!("build ui");
            self.ctx.run(raw_input, build_ui)
        };
        self.state.handle_platform_output(window, output.platform_output);
        let jobs = {
            puffin::profile_scope!("tessellate");
            self.ctx.tessellate(output.shapes, output.pixels_per_point)
        };
        let screen = egui_wgpu::ScreenDescriptor { size_in_pixels: size, pixels_per_point: output.pixels_per_point };
        {
            puffin::profile_scope!("upload ui textures");
            for (id, delta) in &output.textures_delta.set {
                self.renderer.update_texture(&gpu.device, &gpu.queue, *id, delta);
            }
        }
        let mut encoder = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("ui") });
        let callbacks = {
            puffin::profile_scope!("upload ui buffers");
            self.renderer.update_buffers(&gpu.device, &gpu.queue, &mut encoder, &jobs, &screen)
        };
        {
            puffin::profile_scope!("encode ui");
            let mut pass = encoder
                .begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("ui"),
                    color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                        view,
                        depth_slice: None,
                        resolve_target: None,
                        ops: wgpu::Operations { load: wgpu::LoadOp::Load, store: wgpu::StoreOp::Store },
                    })],
                    depth_stencil_attachment: None,
                    timestamp_writes: None,
                    occlusion_query_set: None,
                })
                .forget_lifetime();
            self.renderer.render(&mut pass, &jobs, &screen);
        }
        let command_buffer = {
            puffin::profile_scope!("finish");
            encoder.finish()
        };
        {
            puffin::profile_scope!("submit ui");
            gpu.queue.submit(callbacks.into_iter().chain([command_buffer]));
        }
        for id in &output.textures_delta.free {
            self.renderer.free_texture(id);
        }
    }
}
