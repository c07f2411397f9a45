//! What `pull_probe` and `soft_raster_probe` share: their command line and the objects they
//! draw. (A directory without `main.rs`, so cargo does not take it for an example.)

use glam::{Mat4, Vec3};
use multidraw::mesh::{procedural, MeshData};
use wgpu::util::DeviceExt;

/// `[OBJECTS] [FRAMES] [WIDTHxHEIGHT]`.
pub struct Args {
    pub objects: u32,
    pub frames: usize,
    pub width: u32,
    pub height: u32,
}

/// The arguments, or exits with `usage` (the example's name and arguments) on a bad one.
pub fn args_or_exit(name: &str) -> Args {
    match args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("error: {message}\nusage: {name} [OBJECTS] [FRAMES] [WIDTHxHEIGHT]");
            std::process::exit(2);
        }
    }
}

fn args() -> Result<Args, String> {
    let mut args = std::env::args().skip(1);
    let objects = args.next().map(|a| a.parse().map_err(|e| format!("OBJECTS {a:?}: {e}"))).transpose()?;
    let frames = args.next().map(|a| a.parse().map_err(|e| format!("FRAMES {a:?}: {e}"))).transpose()?;
    let (width, height) = match args.next() {
        Some(size) => {
            let (w, h) = size.split_once('x').ok_or(format!("size {size:?}: expected WIDTHxHEIGHT"))?;
            (w.parse().map_err(|e| format!("width {w:?}: {e}"))?, h.parse().map_err(|e| format!("height {h:?}: {e}"))?)
        }
        None => (1920, 1080),
    };
    Ok(Args { objects: objects.unwrap_or(485_000), frames: frames.unwrap_or(30), width, height })
}

/// A hash of `i` in [0, 1).
fn unit(i: u32, salt: u32) -> f32 {
    procedural::hash01(i.wrapping_mul(0x9e37_79b9).wrapping_add(salt))
}

/// `args.objects` objects (xyz: position, w: scale) in a box in front of the camera, sized so
/// that each covers a few pixels (a projected radius of 2–23 px at 1920×1080), as the far field
/// of the stress scenes does, and the camera's view-projection.
pub fn scattered(args: &Args) -> (Vec<[f32; 4]>, Mat4) {
    let objects = (0..args.objects)
        .map(|i| {
            let p = Vec3::new(unit(i, 1) * 2.0 - 1.0, unit(i, 2) * 2.0 - 1.0, -unit(i, 3));
            let depth = 20.0 + p.z.abs() * 80.0;
            [p.x * depth * 0.85, p.y * depth * 0.48, -depth, 0.25 + 0.25 * unit(i, 4)]
        })
        .collect();
    let aspect = args.width as f32 / args.height as f32;
    (objects, glam::camera::rh::proj::directx::perspective(60f32.to_radians(), aspect, 0.5, 200.0))
}

/// The WGSL both probes put after their own `Uniforms` struct (which starts with `view_proj`):
/// the vertex layout, the scene's bindings (group 0: the uniforms, then objects, the identity
/// list the engine's instance lists stand for, vertices and indices), and the instanced
/// hardware draw both compare against (`vs_instanced`, `fs`; `shade` is its per-vertex work,
/// `clip_of` and `color_of` the transform and colour any other way must match).
pub const SCENE_WGSL: &str = r#"
struct GpuVertex {
    px: f32, py: f32, pz: f32,
    nx: f32, ny: f32, nz: f32,
    u: f32, v: f32,
}

@group(0) @binding(0) var<uniform> uniforms: Uniforms;
/// xyz: position, w: scale.
@group(0) @binding(1) var<storage, read> objects: array<vec4<f32>>;
/// The identity list the engine's instance lists stand for (one more dependent load).
@group(0) @binding(2) var<storage, read> instances: array<u32>;
@group(0) @binding(3) var<storage, read> vertices: array<GpuVertex>;
@group(0) @binding(4) var<storage, read> indices: array<u32>;

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) normal: vec3<f32>,
    @location(1) uv: vec2<f32>,
    @location(2) @interpolate(flat) id: u32,
}

/// Object `id`'s vertex at `position`, in clip space.
fn clip_of(id: u32, position: vec3<f32>) -> vec4<f32> {
    let object = objects[instances[id]];
    return uniforms.view_proj * vec4<f32>(object.xyz + position * object.w, 1.0);
}

fn color_of(id: u32, normal: vec3<f32>, uv: vec2<f32>) -> vec4<f32> {
    let light = max(dot(normalize(normal), normalize(vec3<f32>(0.4, 0.8, 0.45))), 0.0) * 0.8 + 0.2;
    let hue = vec3<f32>(f32(id & 7u), f32((id >> 3u) & 7u), f32((id >> 6u) & 7u)) / 7.0;
    return vec4<f32>((hue * 0.6 + 0.4) * light * (0.9 + 0.1 * uv.x), 1.0);
}

fn shade(id: u32, position: vec3<f32>, normal: vec3<f32>, uv: vec2<f32>) -> VertexOut {
    var out: VertexOut;
    out.clip = clip_of(id, position);
    out.normal = normal;
    out.uv = uv;
    out.id = id;
    return out;
}

@vertex
fn vs_instanced(
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    @builtin(instance_index) instance: u32,
) -> VertexOut {
    return shade(instance, position, normal, uv);
}

@fragment
fn fs(in: VertexOut) -> @location(0) vec4<f32> {
    return color_of(in.id, in.normal, in.uv);
}
"#;

/// A buffer of `contents` usable as storage, vertices and indices.
pub fn storage(device: &wgpu::Device, label: &str, contents: &[u8]) -> wgpu::Buffer {
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some(label),
        contents,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::INDEX,
    })
}

/// The objects of [`scattered`] on the GPU, and the layout of group 0 ([`SCENE_WGSL`]).
pub struct Scene {
    pub objects: wgpu::Buffer,
    pub instances: wgpu::Buffer,
    pub layout: wgpu::BindGroupLayout,
    pub view_proj: Mat4,
}

/// One mesh's buffers and its group 0.
pub struct MeshBinding {
    pub vertices: wgpu::Buffer,
    pub indices: wgpu::Buffer,
    pub index_count: u32,
    pub group: wgpu::BindGroup,
}

impl Scene {
    /// Uploads [`scattered`]'s objects; group 0 is visible to `stages`.
    pub fn new(device: &wgpu::Device, args: &Args, stages: wgpu::ShaderStages) -> Self {
        let (objects, view_proj) = scattered(args);
        let identity: Vec<u32> = (0..args.objects).collect();
        let entry = |binding: u32, ty: wgpu::BufferBindingType| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: stages,
            ty: wgpu::BindingType::Buffer { ty, has_dynamic_offset: false, min_binding_size: None },
            count: None,
        };
        let read_only = wgpu::BufferBindingType::Storage { read_only: true };
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("probe scene"),
            entries: &[
                entry(0, wgpu::BufferBindingType::Uniform),
                entry(1, read_only),
                entry(2, read_only),
                entry(3, read_only),
                entry(4, read_only),
            ],
        });
        Self {
            objects: storage(device, "objects", bytemuck::cast_slice(&objects)),
            instances: storage(device, "instances", bytemuck::cast_slice(&identity)),
            layout,
            view_proj,
        }
    }

    /// `mesh`'s vertices (position, normal, uv: 8 floats) and indices, and group 0 with
    /// `uniforms` (the view-projection, then the probe's own words).
    pub fn mesh(&self, device: &wgpu::Device, mesh: &MeshData, words: &[u32]) -> MeshBinding {
        let vertices: Vec<[f32; 8]> = mesh
            .vertices
            .iter()
            .map(|v| {
                [v.position[0], v.position[1], v.position[2], v.normal[0], v.normal[1], v.normal[2], v.uv[0], v.uv[1]]
            })
            .collect();
        let vertex_buffer = storage(device, "vertices", bytemuck::cast_slice(&vertices));
        let index_buffer = storage(device, "indices", bytemuck::cast_slice(&mesh.indices));
        let mut uniforms: Vec<u32> = bytemuck::cast_slice(&self.view_proj.to_cols_array()).to_vec();
        uniforms.extend_from_slice(words);
        let uniform_buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("uniforms"),
            contents: bytemuck::cast_slice(&uniforms),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("probe scene"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: uniform_buffer.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 1, resource: self.objects.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 2, resource: self.instances.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 3, resource: vertex_buffer.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 4, resource: index_buffer.as_entire_binding() },
            ],
        });
        MeshBinding { vertices: vertex_buffer, indices: index_buffer, index_count: mesh.indices.len() as u32, group }
    }
}
