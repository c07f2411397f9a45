//! `[[mesh]]` sections: procedural meshes with their parameters checked, or glTF meshes, with
//! a per-axis scale and offset baked into the vertices. Every mesh gets its levels of detail
//! here: procedural ones tessellate more coarsely ([`Shape::lods`]), glTF ones are simplified
//! ([`simplify::lods`]); the scale and offset apply to every level.

use glam::{DVec3, Vec3};

use super::{invalid, quoted_list, short, Builder};
use crate::mesh::procedural::{self, Shape};
use crate::mesh::{simplify, LodChain, MeshData};
use crate::scene::file::spec::{MeshSpec, Procedural};
use crate::scene::file::SceneError;

/// Largest `segments`, `rings` or `sides` of a procedural mesh: 256 × 256 is 66k vertices,
/// past which a "low-poly instancing" mesh is almost certainly a typo.
const MAX_TESSELLATION: i64 = 256;
/// Largest icosphere subdivision: 5 rounds make 20,480 triangles.
const MAX_SUBDIVISIONS: i64 = 5;

impl Builder<'_> {
    pub(super) fn add_mesh(&mut self, index: usize, spec: &MeshSpec) -> Result<(), SceneError> {
        let at = self.at(&spec.name);
        let name = spec.name.get_ref();
        let shown = short(name);
        let fail = |message: String| invalid(at.clone(), format!("mesh \"{shown}\": {message}"));
        if name.trim().is_empty() {
            return Err(invalid(at, format!("mesh[{index}] has an empty name")));
        }
        if self.mesh_ids.contains_key(name) {
            return Err(invalid(at, format!("mesh \"{shown}\" is declared twice")));
        }
        let mut chain = match (&spec.procedural, &spec.gltf) {
            (Some(kind), None) => procedural_shape(*kind, spec).map_err(fail)?.lods(),
            (None, Some(path)) => {
                for (key, present) in [
                    ("segments", spec.segments.is_some()),
                    ("rings", spec.rings.is_some()),
                    ("sides", spec.sides.is_some()),
                    ("subdivisions", spec.subdivisions.is_some()),
                    ("seed", spec.seed.is_some()),
                ] {
                    if present {
                        return Err(fail(format!("`{key}` applies to procedural meshes, not glTF ones")));
                    }
                }
                let file = self.gltf_file(path)?;
                let selector = spec.mesh.as_ref().map(|s| &s.0);
                let data = file.mesh(selector).map_err(|source| SceneError::Gltf {
                    at: at.clone(),
                    path: path.get_ref().clone(),
                    source: Box::new(source),
                })?;
                self.simplified(name, path.get_ref(), data)
            }
            (Some(_), Some(_)) => return Err(fail("give either procedural or gltf, not both".into())),
            (None, None) => {
                return Err(fail(format!(
                    "needs procedural = one of {} or gltf = \"path/to/model.gltf\"",
                    quoted_list(&procedural::BUILTIN_NAMES)
                )))
            }
        };
        if spec.procedural.is_some() && spec.mesh.is_some() {
            return Err(fail("`mesh` selects a mesh of a glTF file; this mesh is procedural".into()));
        }
        bake_chain(&mut chain, spec.scale.map(|s| s.0), spec.offset.map(|o| o.0)).map_err(fail)?;
        let id = self.meshes.add_lods(name, chain).map_err(|source| SceneError::Mesh { at: at.clone(), source })?;
        self.mesh_ids.insert(name.clone(), id);
        Ok(())
    }
}

impl Builder<'_> {
    /// The levels of detail of imported mesh `label` from glTF file `path`; a mesh too crowded
    /// to simplify in reasonable time keeps its one level, and the scene's notes say so and why.
    pub(super) fn simplified(&mut self, label: &str, path: &str, data: MeshData) -> LodChain {
        let (chain, hubs) = simplify::lods(data);
        if let Some(hubs) = hubs {
            let [x, y, z] = chain.levels[0].0.vertices[hubs.vertex as usize].position;
            self.notes.push(format!(
                "mesh \"{}\" of glTF file \"{}\": the vertex at ({x}, {y}, {z}) holds {} triangle corners, too many to simplify \
                 quickly (the time grows with the square of that count): it has no coarser levels of detail \
                 and draws at full detail",
                short(label),
                short(path),
                crate::text::count(u64::from(hubs.largest))
            ));
        }
        chain
    }
}

pub(super) fn procedural_shape(kind: Procedural, spec: &MeshSpec) -> Result<Shape, String> {
    let given = [
        ("segments", spec.segments),
        ("rings", spec.rings),
        ("sides", spec.sides),
        ("subdivisions", spec.subdivisions),
        ("seed", spec.seed.map(i64::from)),
    ];
    let takes: &[&str] = match kind {
        Procedural::Cube => &[],
        Procedural::Sphere => &["segments", "rings"],
        Procedural::Icosphere => &["subdivisions"],
        Procedural::Torus => &["segments", "sides"],
        Procedural::Cylinder | Procedural::Cone => &["segments"],
        Procedural::Rock => &["seed"],
    };
    let kind_name = format!("{kind:?}").to_lowercase();
    if let Some((key, _)) = given.iter().find(|(key, value)| value.is_some() && !takes.contains(key)) {
        let takes = if takes.is_empty() { "no parameters".to_string() } else { takes.join(", ") };
        return Err(format!("`{key}` does not apply to procedural = \"{kind_name}\" (it takes {takes})"));
    }
    let bounded = |key: &str, value: Option<i64>, default: i64, min: i64, max: i64| -> Result<u32, String> {
        let value = value.unwrap_or(default);
        if !(min..=max).contains(&value) {
            return Err(format!("{key} must be between {min} and {max}, got {value}"));
        }
        Ok(value as u32)
    };
    let t = MAX_TESSELLATION;
    let (min_segments, min_rings) = (i64::from(procedural::MIN_SEGMENTS), i64::from(procedural::MIN_RINGS));
    Ok(match kind {
        Procedural::Cube => Shape::Cube,
        Procedural::Sphere => Shape::UvSphere {
            segments: bounded("segments", spec.segments, 16, min_segments, t)?,
            rings: bounded("rings", spec.rings, 8, min_rings, t)?,
        },
        Procedural::Icosphere => {
            Shape::Icosphere { subdivisions: bounded("subdivisions", spec.subdivisions, 1, 0, MAX_SUBDIVISIONS)? }
        }
        Procedural::Torus => Shape::Torus {
            segments: bounded("segments", spec.segments, 16, min_segments, t)?,
            sides: bounded("sides", spec.sides, 8, min_segments, t)?,
        },
        Procedural::Cylinder => Shape::Cylinder { segments: bounded("segments", spec.segments, 12, min_segments, t)? },
        Procedural::Cone => Shape::Cone { segments: bounded("segments", spec.segments, 12, min_segments, t)? },
        Procedural::Rock => Shape::rock(spec.seed.unwrap_or(7)),
    })
}

/// Bakes a per-axis scale and an offset into every level of a chain. Errors are distances, so
/// they scale too: by the largest axis factor, which bounds how far any scaled distance can
/// stretch (a non-uniform scale stretches some directions less, never more).
fn bake_chain(chain: &mut LodChain, scale: Option<[f32; 3]>, offset: Option<[f32; 3]>) -> Result<(), String> {
    let stretch = Vec3::from(scale.unwrap_or([1.0; 3])).abs().max_element();
    for (data, error) in &mut chain.levels {
        bake_transform(data, scale, offset)?;
        *error *= stretch;
    }
    Ok(())
}

/// Bakes a per-axis scale and an offset into a mesh. Normals follow the inverse transpose
/// (1 / scale per axis); a mirroring scale flips the winding to keep front faces in front.
fn bake_transform(data: &mut MeshData, scale: Option<[f32; 3]>, offset: Option<[f32; 3]>) -> Result<(), String> {
    let scale = Vec3::from(scale.unwrap_or([1.0; 3]));
    let offset = Vec3::from(offset.unwrap_or([0.0; 3]));
    if scale.abs().min_element() < 1e-6 {
        let what = if scale.abs().min_element() == 0.0 { "a zero component" } else { "a component below 1e-6" };
        return Err(format!(
            "scale {:?} has {what}: a mesh's scale is at least 1e-6 on every axis (scale the objects that \
             place it to make it smaller)",
            scale.to_array()
        ));
    }
    if scale == Vec3::ONE && offset == Vec3::ZERO {
        return Ok(());
    }
    let inverse = DVec3::ONE / scale.as_dvec3();
    for vertex in &mut data.vertices {
        vertex.position = (Vec3::from(vertex.position) * scale + offset).into();
        let normal = Vec3::from(vertex.normal) / scale;
        vertex.normal = if well_scaled(normal) {
            normal.normalize_or_zero()
        } else {
            // Dividing by a large scale underflows f32 (and normalising then gives a zero
            // normal), by a tiny one overflows: the same direction in f64.
            (Vec3::from(vertex.normal).as_dvec3() * inverse).normalize_or_zero().as_vec3()
        }
        .into();
    }
    if scale.x * scale.y * scale.z < 0.0 {
        for tri in data.indices.chunks_exact_mut(3) {
            tri.swap(1, 2);
        }
    }
    Ok(())
}

/// Whether `f32` normalises `v` accurately: its squared length is finite and far above the
/// subnormal range.
pub(crate) fn well_scaled(v: Vec3) -> bool {
    let length_squared = v.length_squared();
    length_squared.is_finite() && length_squared > 1e-30
}
