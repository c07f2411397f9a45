//! No GPU needed: every WGSL file, as the pipelines compose it, passes naga validation; every
//! host struct matches its WGSL twin in size and member offsets (naga's layouter; the uniform
//! block as encase writes it); and every resource a shader declares is the binding the Rust
//! layout table gives it (textures down to their image class), with no binding number written in
//! a shader file.

use std::mem::{offset_of, size_of};

use multidraw::gpu_scene::layout::{BindingKind, ALL_GROUPS, PIPELINE_LAYOUTS};
use multidraw::gpu_scene::types::{
    DrawIndexedIndirectArgs, EnvironmentParams, FrameUniforms, GpuBatch, GpuCullRecord, GpuMaterial, GpuObject,
    GpuTextureRef, RasterArgs,
};
use multidraw::passes::{cull, SHADERS};
use multidraw::pipelines::validate_wgsl as validate;
use multidraw::tunables::WORKGROUP_SIZE;

#[test]
fn every_shader_validates() {
    for shader in SHADERS {
        for workgroup_size in [1, WORKGROUP_SIZE, 256] {
            if let Err(message) = validate(&shader.compose(workgroup_size)) {
                panic!("{} (workgroup size {workgroup_size}) failed naga validation:\n{message}", shader.file);
            }
        }
    }
}

/// Pipeline variants are keys, not text: every combination of the draw shader's surface
/// inputs and every cull variant sets override constants that its shader declares, each
/// combination its own set (so its pipeline has its own cache key), over one shader source.
#[test]
fn variants_are_override_constants_the_shaders_declare() {
    use multidraw::passes::cull::CullVariant;
    use multidraw::passes::main::SurfaceInputs;
    let draw = multidraw::passes::main::SHADER.compose(WORKGROUP_SIZE);
    let cull_source = cull::SHADER.compose(WORKGROUP_SIZE);
    let declared = |source: &str, name: &str| source.contains(&format!("override {name}:"));
    let mut sets = std::collections::HashSet::new();
    for bits in 0..8u32 {
        let inputs = SurfaceInputs { optional: bits & 1 != 0, textures: bits & 2 != 0, normal_maps: bits & 4 != 0 };
        let constants = inputs.constants();
        for (name, _) in &constants.0 {
            assert!(declared(&draw, name), "shaders/draw.wgsl declares no `override {name}`");
        }
        sets.insert(format!("{:?}", constants.0));
    }
    assert_eq!(sets.len(), 8, "each combination of surface inputs is its own key");
    let mut cull_sets = std::collections::HashSet::new();
    for variant in CullVariant::ALL {
        for (name, _) in &variant.constants().0 {
            assert!(declared(&cull_source, name), "shaders/cull.wgsl declares no `override {name}`");
        }
        cull_sets.insert(format!("{:?}", variant.constants().0));
    }
    assert_eq!(cull_sets.len(), CullVariant::ALL.len(), "each cull variant is its own key");
    assert!(!cull_source.contains("fn cull_early") && !cull_source.contains("fn cull_per_object_"));
    for shader in [&multidraw::passes::build::SHADER, &multidraw::passes::raster::SHADER] {
        let source = shader.compose(WORKGROUP_SIZE);
        assert!(declared(&source, "LATE"), "{} declares no `override LATE`", shader.file);
        assert!(!source.contains("_late("), "{} has no second-phase entry point of its own", shader.file);
    }
}

#[test]
fn every_shader_file_is_composed() {
    // A new .wgsl file under shaders/ must be reachable from a pass (or shared/).
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "wgsl") {
            let name = format!("shaders/{}", path.file_name().unwrap().to_string_lossy());
            assert!(SHADERS.iter().any(|s| s.file == name), "{name} is not compiled by any pass");
        }
    }
}

#[test]
fn broken_shader_is_reported_with_location() {
    let broken = cull::SHADER.compose(WORKGROUP_SIZE).replace("atomicAdd(&batch_counts", "atomicAdd(&no_such_buffer");
    let message = validate(&broken).expect_err("an unknown identifier must not validate");
    assert!(message.contains("no_such_buffer"), "{message}");
}

#[test]
fn shader_files_write_no_binding_numbers() {
    for shader in SHADERS {
        assert!(
            !shader.body.contains("@binding") && !shader.body.contains("@group"),
            "{} declares a binding by number; add it to its group's table in gpu_scene::layout instead",
            shader.file
        );
    }
}

#[test]
fn every_shader_resource_is_its_layout_binding() {
    for shader in SHADERS {
        let module = validate(&shader.compose(WORKGROUP_SIZE)).expect("validates");
        for (_, global) in module.global_variables.iter() {
            let Some(binding) = &global.binding else { continue };
            let name = global.name.as_deref().unwrap_or_default();
            let group = shader.groups.iter().find(|g| g.index == binding.group).unwrap_or_else(|| {
                panic!("{}: `{name}` is in group {}, which the pass does not use", shader.file, binding.group)
            });
            let entry = group.bindings.get(binding.binding as usize).unwrap_or_else(|| {
                panic!("{}: `{name}` has binding {} beyond group `{}`", shader.file, binding.binding, group.label)
            });
            assert_eq!(entry.name, name, "{}: group `{}` binding {}", shader.file, group.label, binding.binding);
            let space_ok = match (entry.kind, global.space) {
                (BindingKind::Uniform(_), naga::AddressSpace::Uniform) => true,
                (BindingKind::StorageRead(_), naga::AddressSpace::Storage { access }) => {
                    access == naga::StorageAccess::LOAD
                }
                (BindingKind::StorageReadWrite(_), naga::AddressSpace::Storage { access }) => {
                    access == naga::StorageAccess::LOAD | naga::StorageAccess::STORE
                }
                (
                    BindingKind::TextureArray
                    | BindingKind::Sampler
                    | BindingKind::DepthTextureArray
                    | BindingKind::ComparisonSampler,
                    naga::AddressSpace::Handle,
                ) => true,
                (
                    BindingKind::DepthTexture
                    | BindingKind::UnfilterableTexture
                    | BindingKind::UintTexture
                    | BindingKind::StorageTextureWrite(_),
                    naga::AddressSpace::Handle,
                ) => true,
                _ => false,
            };
            // Texture kinds that share an address space differ in their image class.
            let image_class = match module.types[global.ty].inner {
                naga::TypeInner::Image { dim: naga::ImageDimension::D2, arrayed, class } => Some((arrayed, class)),
                _ => None,
            };
            let class_ok = match entry.kind {
                BindingKind::TextureArray => {
                    image_class
                        == Some((true, naga::ImageClass::Sampled { kind: naga::ScalarKind::Float, multi: false }))
                }
                BindingKind::DepthTexture => image_class == Some((false, naga::ImageClass::Depth { multi: false })),
                BindingKind::DepthTextureArray => image_class == Some((true, naga::ImageClass::Depth { multi: false })),
                BindingKind::ComparisonSampler => {
                    matches!(module.types[global.ty].inner, naga::TypeInner::Sampler { comparison: true })
                }
                BindingKind::UnfilterableTexture => {
                    image_class
                        == Some((false, naga::ImageClass::Sampled { kind: naga::ScalarKind::Float, multi: false }))
                }
                BindingKind::UintTexture => {
                    image_class
                        == Some((false, naga::ImageClass::Sampled { kind: naga::ScalarKind::Uint, multi: false }))
                }
                BindingKind::StorageTextureWrite(format) => {
                    let wgsl_format = match format {
                        wgpu::TextureFormat::R32Float => naga::StorageFormat::R32Float,
                        wgpu::TextureFormat::Rgba32Float => naga::StorageFormat::Rgba32Float,
                        wgpu::TextureFormat::Rgba16Float => naga::StorageFormat::Rgba16Float,
                        wgpu::TextureFormat::Rgba8Unorm => naga::StorageFormat::Rgba8Unorm,
                        other => panic!("{}: `{name}`: no naga storage format for {other:?}", shader.file),
                    };
                    image_class
                        == Some((
                            false,
                            naga::ImageClass::Storage { format: wgsl_format, access: naga::StorageAccess::STORE },
                        ))
                }
                _ => true,
            };
            assert!(
                class_ok,
                "{}: `{name}` is {:?} in WGSL but {:?} in the layout",
                shader.file, image_class, entry.kind
            );
            assert!(
                space_ok,
                "{}: `{name}` is {:?} in WGSL but {:?} in the layout",
                shader.file, global.space, entry.kind
            );
        }
    }
    // Every table entry has a distinct name, so bind groups built by name cannot alias.
    for group in ALL_GROUPS {
        for (i, b) in group.bindings.iter().enumerate() {
            assert_eq!(group.binding(b.name) as usize, i, "group `{}` names `{}` twice", group.label, b.name);
        }
    }
}

/// Every layout is made on every device, whether or not its pass runs there, so each pipeline
/// layout fits wgpu's default limits (WebGPU's) in every stage its groups are visible to: a
/// device an embedding application or a browser made with `Limits::default()` must be able to
/// make them. The limits count per stage over the whole pipeline layout (the shade layout's
/// compute stage sees the frame's shadow map, its own targets and every material texture),
/// which only the browser test caught before this test summed them.
#[test]
fn every_pipeline_layout_fits_the_default_limits_per_stage() {
    let limits = wgpu::Limits::default();
    let stages = [
        ("vertex", wgpu::ShaderStages::VERTEX),
        ("fragment", wgpu::ShaderStages::FRAGMENT),
        ("compute", wgpu::ShaderStages::COMPUTE),
    ];
    for group in ALL_GROUPS {
        assert!(
            PIPELINE_LAYOUTS.iter().any(|(_, groups)| groups.iter().any(|g| g.label == group.label)),
            "group `{}` is in no pipeline layout",
            group.label
        );
    }
    for (layout, groups) in PIPELINE_LAYOUTS {
        for (index, group) in groups.iter().enumerate() {
            assert_eq!(group.index as usize, index, "`{layout}`: group `{}` at index {index}", group.label);
        }
        for (stage_name, stage) in stages {
            let count = |kind: fn(&BindingKind) -> bool| {
                groups
                    .iter()
                    .flat_map(|g| g.bindings.iter().filter(move |b| g.stages_of(b).contains(stage)))
                    .filter(|b| kind(&b.kind))
                    .count() as u32
            };
            let counts = [
                (
                    "uniform buffers",
                    count(|k| matches!(k, BindingKind::Uniform(_))),
                    limits.max_uniform_buffers_per_shader_stage,
                ),
                (
                    "storage buffers",
                    count(|k| matches!(k, BindingKind::StorageRead(_) | BindingKind::StorageReadWrite(_))),
                    limits.max_storage_buffers_per_shader_stage,
                ),
                (
                    "sampled textures",
                    count(|k| {
                        matches!(
                            k,
                            BindingKind::TextureArray
                                | BindingKind::DepthTexture
                                | BindingKind::DepthTextureArray
                                | BindingKind::UnfilterableTexture
                                | BindingKind::UintTexture
                        )
                    }),
                    limits.max_sampled_textures_per_shader_stage,
                ),
                (
                    "samplers",
                    count(|k| matches!(k, BindingKind::Sampler | BindingKind::ComparisonSampler)),
                    limits.max_samplers_per_shader_stage,
                ),
                (
                    "storage textures",
                    count(|k| matches!(k, BindingKind::StorageTextureWrite(_))),
                    limits.max_storage_textures_per_shader_stage,
                ),
            ];
            for (what, used, limit) in counts {
                assert!(used <= limit, "`{layout}`, {stage_name} stage: {used} {what}, the default limit is {limit}");
            }
        }
    }
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
    let module = validate(&cull::SHADER.compose(WORKGROUP_SIZE)).expect("cull shader validates");
    let host = [
        ("GpuObject", host_layout!(GpuObject { model, bounds, mesh, material, batch, animation })),
        ("GpuCullRecord", host_layout!(GpuCullRecord { spin_cos, radius, spin_sin, batch, fixed, animation })),
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
                variant_first_object,
                level,
                level_count,
                relative_error
            }),
        ),
        (
            "GpuMaterial",
            host_layout!(GpuMaterial {
                base_color,
                base_color_texture,
                normal_texture,
                variant,
                alpha_cutoff,
                vertex_inputs,
                unlit,
                emissive,
                metallic,
                roughness,
                double_sided,
                _pad,
                metallic_roughness_texture,
                occlusion_texture,
                emissive_texture
            }),
        ),
        ("EnvironmentParams", host_layout!(EnvironmentParams { zenith, horizon, ground, roughness, samples, _pad })),
        (
            "GpuTextureRef",
            host_layout!(GpuTextureRef { transform, offset, layer, size_class, wrap, uv_set, scale, _pad }),
        ),
        (
            "RasterArgs",
            host_layout!(RasterArgs {
                workgroups_x,
                workgroups_y,
                workgroups_z,
                vertex_count,
                instance_count,
                first_vertex,
                first_instance,
                masked_workgroups_x,
                masked_workgroups_y,
                masked_workgroups_z
            }),
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

/// The uniform block as encase writes it: each member's first value sits at naga's offset for
/// that member, and the block is naga's size.
#[test]
fn frame_uniforms_encode_at_wgsl_offsets() {
    use glam::{Mat4, Vec4};
    let module = validate(&cull::SHADER.compose(WORKGROUP_SIZE)).expect("cull shader validates");
    let (wgsl_size, members) = wgsl_layout(&module, "FrameUniforms");
    fn vec4s<const N: usize>(base: f32) -> [Vec4; N] {
        std::array::from_fn(|i| Vec4::splat(base + i as f32))
    }
    let uniforms = FrameUniforms {
        view_proj: Mat4::from_cols_array(&std::array::from_fn(|i| 1.0 + i as f32)),
        cull_planes: vec4s(100.0),
        camera_position: Vec4::splat(200.0),
        light_direction: Vec4::splat(300.0),
        animation: vec4s(400.0),
        object_count: 501,
        batch_count: 502,
        cull_enabled: 503,
        compact: 504,
        dispatch_width: 505,
        identity_base: 506,
        time: 507.0,
        lod_origin: Vec4::splat(600.0),
        lod_enabled: 601,
        lod_factor: 602.0,
        small_enabled: 603,
        small_factor: 604.0,
        pyramid_size: glam::UVec2::new(605, 606),
        pyramid_levels: 607,
        debug_view: 608,
        encode_srgb: 609,
        occlusion_view_proj: Mat4::from_cols_array(&std::array::from_fn(|i| 700.0 + i as f32)),
        target_size: glam::Vec2::new(800.0, 801.0),
        soft_enabled: 802,
        soft_factor: 803.0,
        soft_base: 804,
        soft_masked_base: 807,
        soft_masked_capacity: 808,
        orthographic: 805,
        shadow_cascades: 806,
        shadow_splits: Vec4::splat(900.0),
        shadow_texel: Vec4::splat(901.0),
        shadow_view_proj: std::array::from_fn(|k| Mat4::from_cols_array(&[1000.0 + 100.0 * k as f32; 16])),
        inverse_view_proj: Mat4::from_cols_array(&[1500.0; 16]),
        camera_forward: Vec4::splat(1600.0),
        light_color: Vec4::splat(1700.0),
        exposure: 1800.0,
        tone_mapping: 1801,
        environment_levels: 1802,
        blend_list: 1803,
        blend_capacity: 1804,
        blend_key_base: 1805,
        blend_draw_base: 1806,
        blend_pulled: 1807,
        blend_pull_base: 1808,
        triangle_table_base: 1809,
        caster_sweep: Vec4::splat(1810.0),
        caster_planes: vec4s(1900.0),
        cull_order_base: 2000,
        cull_slot_base: 2001,
        shadow_lod_factor: 2002.0,
        soft_depth_test: 2003,
        paint_background: 2004,
        background: Vec4::splat(2005.0),
        occluder_capacity: 2006,
        occluder_key_base: 2007,
        occluder_draw_base: 2008,
        occluder_factor: 2009.0,
        mark_seen: 2010,
    };
    let bytes = uniforms.to_bytes();
    assert_eq!(bytes.len(), wgsl_size, "FrameUniforms: encase size vs WGSL size");
    let word = |offset: usize| <[u8; 4]>::try_from(&bytes[offset..offset + 4]).unwrap();
    let expected_first: [(&str, [u8; 4]); 59] = [
        ("view_proj", 1f32.to_le_bytes()),
        ("cull_planes", 100f32.to_le_bytes()),
        ("camera_position", 200f32.to_le_bytes()),
        ("light_direction", 300f32.to_le_bytes()),
        ("animation", 400f32.to_le_bytes()),
        ("object_count", 501u32.to_le_bytes()),
        ("batch_count", 502u32.to_le_bytes()),
        ("cull_enabled", 503u32.to_le_bytes()),
        ("compact", 504u32.to_le_bytes()),
        ("dispatch_width", 505u32.to_le_bytes()),
        ("identity_base", 506u32.to_le_bytes()),
        ("time", 507f32.to_le_bytes()),
        ("lod_origin", 600f32.to_le_bytes()),
        ("lod_enabled", 601u32.to_le_bytes()),
        ("lod_factor", 602f32.to_le_bytes()),
        ("small_enabled", 603u32.to_le_bytes()),
        ("small_factor", 604f32.to_le_bytes()),
        ("pyramid_size", 605u32.to_le_bytes()),
        ("pyramid_levels", 607u32.to_le_bytes()),
        ("debug_view", 608u32.to_le_bytes()),
        ("encode_srgb", 609u32.to_le_bytes()),
        ("occlusion_view_proj", 700f32.to_le_bytes()),
        ("target_size", 800f32.to_le_bytes()),
        ("soft_enabled", 802u32.to_le_bytes()),
        ("soft_factor", 803f32.to_le_bytes()),
        ("soft_base", 804u32.to_le_bytes()),
        ("soft_masked_base", 807u32.to_le_bytes()),
        ("soft_masked_capacity", 808u32.to_le_bytes()),
        ("orthographic", 805u32.to_le_bytes()),
        ("shadow_cascades", 806u32.to_le_bytes()),
        ("shadow_splits", 900f32.to_le_bytes()),
        ("shadow_texel", 901f32.to_le_bytes()),
        ("shadow_view_proj", 1000f32.to_le_bytes()),
        ("inverse_view_proj", 1500f32.to_le_bytes()),
        ("camera_forward", 1600f32.to_le_bytes()),
        ("light_color", 1700f32.to_le_bytes()),
        ("exposure", 1800f32.to_le_bytes()),
        ("tone_mapping", 1801u32.to_le_bytes()),
        ("environment_levels", 1802u32.to_le_bytes()),
        ("blend_list", 1803u32.to_le_bytes()),
        ("blend_capacity", 1804u32.to_le_bytes()),
        ("blend_key_base", 1805u32.to_le_bytes()),
        ("blend_draw_base", 1806u32.to_le_bytes()),
        ("blend_pulled", 1807u32.to_le_bytes()),
        ("blend_pull_base", 1808u32.to_le_bytes()),
        ("triangle_table_base", 1809u32.to_le_bytes()),
        ("caster_sweep", 1810f32.to_le_bytes()),
        ("caster_planes", 1900f32.to_le_bytes()),
        ("cull_order_base", 2000u32.to_le_bytes()),
        ("cull_slot_base", 2001u32.to_le_bytes()),
        ("shadow_lod_factor", 2002f32.to_le_bytes()),
        ("soft_depth_test", 2003u32.to_le_bytes()),
        ("paint_background", 2004u32.to_le_bytes()),
        ("background", 2005f32.to_le_bytes()),
        ("occluder_capacity", 2006u32.to_le_bytes()),
        ("occluder_key_base", 2007u32.to_le_bytes()),
        ("occluder_draw_base", 2008u32.to_le_bytes()),
        ("occluder_factor", 2009f32.to_le_bytes()),
        ("mark_seen", 2010u32.to_le_bytes()),
    ];
    let names: Vec<&str> = members.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, expected_first.map(|(n, _)| n).to_vec(), "FrameUniforms members (WGSL) vs the Rust struct");
    for ((name, offset), (_, value)) in members.iter().zip(expected_first) {
        assert_eq!(word(*offset), value, "FrameUniforms.{name} is not at WGSL offset {offset}");
    }
    // The last element of each array lands where WGSL's 16-byte array stride puts it.
    let offset_of = |name: &str| members.iter().find(|(n, _)| n == name).expect("a member of FrameUniforms").1;
    let planes = offset_of("cull_planes");
    assert_eq!(word(planes + 5 * 16), 105f32.to_le_bytes(), "cull_planes[5]");
    let animation = offset_of("animation");
    assert_eq!(word(animation + 15 * 16), 415f32.to_le_bytes(), "animation[15]");
    let cascades = offset_of("shadow_view_proj");
    assert_eq!(word(cascades + 3 * 64), 1300f32.to_le_bytes(), "shadow_view_proj[3]");
    let caster_planes = offset_of("caster_planes");
    assert_eq!(word(caster_planes + 5 * 16), 1905f32.to_le_bytes(), "caster_planes[5]");
}

/// Bind groups are assembled from their tables by binding name (`CULL_IO.buffer("objects", …)`):
/// every name the sources give a table is one of its bindings, and every binding of a table
/// the sources assemble by name is given, so a typo or a forgotten binding fails here, without
/// a GPU, not when the group is made at run time.
#[test]
fn every_bind_group_entry_names_a_binding_of_its_table() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut sources = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                sources.push((path.clone(), std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    // A table's Rust name is its label upper-cased, spaces as underscores ("cull io" → CULL_IO).
    let mut given: std::collections::HashMap<&str, std::collections::HashSet<String>> = Default::default();
    let mut checked = 0;
    for group in ALL_GROUPS {
        let ident = group.label.to_uppercase().replace(' ', "_");
        for (path, source) in &sources {
            for method in ["buffer", "entry"] {
                let pattern = format!("{ident}.{method}(\"");
                for (at, _) in source.match_indices(&pattern) {
                    let rest = &source[at + pattern.len()..];
                    let name = &rest[..rest.find('"').expect("a closed string")];
                    assert!(
                        group.bindings.iter().any(|b| b.name == name),
                        "{}: {ident}.{method}(\"{name}\", …): table `{}` has no binding `{name}`",
                        path.display(),
                        group.label
                    );
                    given.entry(group.label).or_default().insert(name.to_string());
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 20, "found only {checked} named entries: has the pattern changed?");
    // Tables assembled entry by entry in one place give every binding there.
    for label in ["frame", "cull io", "scene", "pyramid io", "scatter io", "pyramid soft"] {
        let group = ALL_GROUPS.iter().find(|g| g.label == label).expect("a table of that label");
        let names = &given[label];
        for binding in group.bindings {
            assert!(names.contains(binding.name), "table `{label}`: binding `{}` is never given", binding.name);
        }
    }
}
