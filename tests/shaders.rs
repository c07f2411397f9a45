//! No GPU needed: every WGSL file, as the pipelines compose it, passes naga validation, and
//! every host struct matches its WGSL twin in size and member offsets (naga's layouter).

use std::mem::{offset_of, size_of};

use multidraw::gpu::types::{DrawIndexedIndirectArgs, FrameUniforms, GpuBatch, GpuMaterial, GpuObject};
use multidraw::shaders::{validate, ShaderSource};
use multidraw::tunables::WORKGROUP_SIZE;

#[test]
fn every_shader_validates() {
    for source in ShaderSource::ALL {
        for workgroup_size in [1, WORKGROUP_SIZE, 256] {
            if let Err(message) = validate(&source.compose(workgroup_size)) {
                panic!("{} (workgroup size {workgroup_size}) failed naga validation:\n{message}", source.file_name());
            }
        }
    }
}

#[test]
fn every_shader_file_is_composed() {
    // A new .wgsl file under shaders/ must be reachable from ShaderSource (or shared/).
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "wgsl") {
            let name = format!("shaders/{}", path.file_name().unwrap().to_string_lossy());
            assert!(ShaderSource::ALL.iter().any(|s| s.file_name() == name), "{name} is not compiled by any pass");
        }
    }
}

#[test]
fn broken_shader_is_reported_with_location() {
    let broken =
        ShaderSource::Cull.compose(WORKGROUP_SIZE).replace("atomicAdd(&batch_counts", "atomicAdd(&no_such_buffer");
    let message = validate(&broken).expect_err("an unknown identifier must not validate");
    assert!(message.contains("no_such_buffer"), "{message}");
}

/// (member name, offset) of a Rust struct, in declaration order.
macro_rules! host_layout {
    ($ty:ty { $($field:ident),* $(,)? }) => {
        (size_of::<$ty>(), vec![$((stringify!($field), offset_of!($ty, $field))),*])
    };
}

fn wgsl_layout(module: &naga::Module, name: &str) -> (usize, Vec<(String, usize)>) {
    let mut layouter = naga::proc::Layouter::default();
    layouter.update(module.to_ctx()).expect("layout of a validated module");
    let (handle, ty) = module
        .types
        .iter()
        .find(|(_, t)| t.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("struct {name} not found in WGSL"));
    let naga::TypeInner::Struct { members, .. } = &ty.inner else { panic!("{name} is not a struct") };
    let members = members.iter().map(|m| (m.name.clone().unwrap_or_default(), m.offset as usize)).collect();
    (layouter[handle].size as usize, members)
}

#[test]
fn host_structs_match_wgsl() {
    let module = validate(&ShaderSource::Cull.compose(WORKGROUP_SIZE)).expect("cull shader validates");
    let host = [
        (
            "FrameUniforms",
            host_layout!(FrameUniforms {
                view_proj,
                cull_planes,
                camera_position,
                light_direction,
                animation,
                object_count,
                batch_count,
                cull_enabled,
                compact,
                dispatch_width,
                identity_base,
                time,
                _pad
            }),
        ),
        ("GpuObject", host_layout!(GpuObject { model, bounds, mesh, material, batch, animation })),
        (
            "GpuBatch",
            host_layout!(GpuBatch {
                first_index,
                index_count,
                base_vertex,
                first_instance,
                capacity,
                variant,
                variant_first_batch,
                variant_first_object
            }),
        ),
        (
            "GpuMaterial",
            host_layout!(GpuMaterial { base_color, base_color_layer, normal_layer, variant, alpha_cutoff }),
        ),
        (
            "DrawIndexedIndirectArgs",
            host_layout!(DrawIndexedIndirectArgs {
                index_count,
                instance_count,
                first_index,
                base_vertex,
                first_instance
            }),
        ),
    ];
    for (name, (host_size, host_members)) in host {
        let (wgsl_size, wgsl_members) = wgsl_layout(&module, name);
        assert_eq!(host_size, wgsl_size, "{name}: Rust size {host_size} != WGSL size {wgsl_size}");
        let host_members: Vec<(String, usize)> = host_members.into_iter().map(|(n, o)| (n.to_string(), o)).collect();
        assert_eq!(host_members, wgsl_members, "{name}: member offsets differ (Rust left, WGSL right)");
    }
}
