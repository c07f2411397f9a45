//! `[[model]]` sections: a glTF scene imported whole as a [`Prefab`], one part per primitive of
//! every node, each with its own material.
//!
//! Objects carry a translation, a rotation and a uniform scale. A part whose world matrix is a
//! similarity with a positive determinant keeps it as the part's transform and shares the
//! primitive's mesh; any other matrix (non-uniform or mirrored scale, shear) has its linear part
//! baked into a copy of the mesh (positions by the matrix, normals by its inverse transpose,
//! the winding flipped where the determinant is negative) and keeps only its translation.
//! Meshes are shared per (file, mesh, primitive, baked matrix) and materials per (file,
//! material) within a load, however many nodes or models use them.
//!
//! Stages: [`Builder::open_models`] opens every model's file and counts its parts without
//! reading buffers (the object budget needs instances × parts), [`Builder::plan_models`] lists
//! the used models' parts and plans the sizes of their distinct meshes, and
//! [`Builder::add_models`] builds the meshes and materials and makes the prefabs.

use std::collections::HashSet;
use std::rc::Rc;

use glam::{DMat3, DQuat, Vec3};

use super::{invalid, short, Builder};
use crate::mesh::size::MeshSize;
use crate::mesh::MeshData;
use crate::scene::file::spec::SceneSpec;
use crate::scene::file::SceneError;
use crate::scene::gltf_import::{GltfFile, ImportError, ModelPart, Selector};
use crate::scene::placement::prefab::{Part, Prefab};
use crate::text;
use crate::tunables::{HOST_BYTES_PER_IMPORTED_INDEX, HOST_BYTES_PER_IMPORTED_VERTEX};

/// One `[[model]]` as it goes through the stages.
pub(super) struct ModelPlan {
    name: String,
    /// `file:line:column` of its name.
    at: String,
    path: String,
    file: Rc<GltfFile>,
    scene: Option<Selector>,
    /// Parts per instance, counted before any part is made.
    pub(super) part_count: u64,
    /// Whether an object set places it: only those are listed and built.
    used: bool,
    parts: Vec<ModelPart>,
    pub(super) prefab: Option<Rc<Prefab>>,
}

/// A shared mesh: (file, glTF mesh, primitive, baked linear matrix as f32 bits).
pub(super) type MeshKey = (usize, String, Option<[u32; 9]>);

/// A part's world matrix split into what an object carries and what must be baked.
struct Split {
    translation: Vec3,
    rotation: glam::Quat,
    scale: f32,
    /// The linear part, when it is not a similarity with a positive determinant.
    bake: Option<DMat3>,
}

/// Relative tolerance for a matrix to count as a similarity: exporters write rotations and
/// uniform scales in f32, whose column lengths and dot products then differ by a few ulps.
const SIMILARITY_TOLERANCE: f64 = 1e-5;

fn split(world: &glam::DMat4) -> Option<Split> {
    let linear = DMat3::from_mat4(*world);
    let translation = world.w_axis.truncate().as_vec3();
    let columns = [linear.x_axis, linear.y_axis, linear.z_axis];
    let lengths = columns.map(|c| c.length());
    let scale = (lengths[0] + lengths[1] + lengths[2]) / 3.0;
    let determinant = linear.determinant();
    // A matrix that flattens the part leaves nothing to draw.
    if scale <= 0.0 || determinant.abs() <= 1e-12 * scale.powi(3) {
        return None;
    }
    let tolerance = SIMILARITY_TOLERANCE * scale;
    let similar = determinant > 0.0
        && lengths.iter().all(|l| (l - scale).abs() <= tolerance)
        && [(0, 1), (0, 2), (1, 2)].iter().all(|&(a, b)| columns[a].dot(columns[b]).abs() <= tolerance * scale)
        && (scale as f32).is_normal();
    Some(if similar {
        let rotation = DQuat::from_mat3(&(linear / scale)).normalize().as_quat();
        Split { translation, rotation, scale: scale as f32, bake: None }
    } else {
        Split { translation, rotation: glam::Quat::IDENTITY, scale: 1.0, bake: Some(linear) }
    })
}

/// Bakes a linear matrix into a mesh: positions and tangents by it, normals by its inverse
/// transpose (renormalised in f64), and where it mirrors the winding flipped and the
/// bitangent sign negated (so `cross(normal, tangent) × w` still follows the texture's v axis).
fn bake(data: &mut MeshData, linear: DMat3) {
    let normal_matrix = linear.inverse().transpose();
    let mirrors = linear.determinant() < 0.0;
    for vertex in &mut data.vertices {
        vertex.position = (linear * Vec3::from(vertex.position).as_dvec3()).as_vec3().into();
        let normal = normal_matrix * Vec3::from(vertex.normal).as_dvec3();
        vertex.normal = normal.try_normalize().map_or(vertex.normal, |n| n.as_vec3().into());
        let tangent = vertex.tangent();
        if let Some(turned) = (linear * tangent.truncate().as_dvec3()).try_normalize() {
            vertex.set_tangent(turned.as_vec3().extend(if mirrors { -tangent.w } else { tangent.w }));
        }
    }
    if mirrors {
        for triangle in data.indices.chunks_exact_mut(3) {
            triangle.swap(1, 2);
        }
    }
}

fn mesh_key(file: &Rc<GltfFile>, part: &ModelPart, bake: Option<DMat3>) -> MeshKey {
    let bits = bake.map(|m| m.to_cols_array().map(|x| (x as f32).to_bits()));
    // What the primitive reads, so that meshes sharing accessors share one import; a primitive
    // that cannot be found keeps its own key (and fails where it is read).
    let identity = file
        .primitive_identity(part.mesh, part.primitive, Some(part.node))
        .unwrap_or_else(|_| format!("#{} primitive {}", part.mesh, part.primitive));
    (Rc::as_ptr(file) as usize, identity, bits)
}

impl Builder<'_> {
    fn model_error(&self, plan_at: &str, path: &str, source: ImportError) -> SceneError {
        SceneError::Gltf { at: plan_at.to_string(), path: short(path), source: Box::new(source) }
    }

    /// Opens every `[[model]]`'s file and counts its parts (no buffer read), so that the
    /// object total can be checked before anything is made.
    pub(super) fn open_models(&mut self, spec: &SceneSpec) -> Result<(), SceneError> {
        let mut used = HashSet::new();
        for set in &spec.objects {
            let names = set.transforms.iter().flatten().filter_map(|t| t.model.as_ref());
            let generated = [
                set.grid.as_ref().map(|g| (&g.model, &g.models)),
                set.random.as_ref().map(|r| (&r.model, &r.models)),
                set.rings.as_ref().map(|r| (&r.model, &r.models)),
            ];
            let generated =
                generated.into_iter().flatten().flat_map(|(one, many)| one.iter().chain(many.iter().flatten()));
            used.extend(names.chain(generated).map(|name| name.get_ref().clone()));
        }
        for (index, model) in spec.model.iter().enumerate() {
            let at = self.at(&model.name);
            let name = model.name.get_ref();
            if name.trim().is_empty() {
                return Err(invalid(at, format!("model[{index}] has an empty name")));
            }
            if self.model_ids.contains_key(name) {
                return Err(invalid(at, format!("model \"{}\" is declared twice", short(name))));
            }
            let file = self.gltf_file(&model.gltf)?;
            let scene = model.scene.as_ref().map(|s| &s.0);
            let path = model.gltf.get_ref().clone();
            let census = file.model_part_census(scene).map_err(|e| self.model_error(&at, &path, e))?;
            let part_count = census.parts;
            for (node, count, distinct) in census.repeated {
                self.notes.push(format!(
                    "model \"{}\": nodes[{node}] of \"{}\" has {} EXT_mesh_gpu_instancing instances, of which only {} \
                     differ: an instance equal to an earlier one in every number would draw the same pixels again, \
                     so each is drawn once",
                    short(name),
                    short(&path),
                    text::count(count as u64),
                    text::count(distinct as u64)
                ));
            }
            if part_count == 0 {
                let which = scene.map_or_else(|| "its default scene".to_string(), |s| format!("scene {s}"));
                let (name, path) = (short(name), short(&path));
                let message = match census.nodes_with_meshes {
                    0 => format!("model \"{name}\": {which} of \"{path}\" has no node with a mesh"),
                    nodes => format!(
                        "model \"{name}\": {which} of \"{path}\" has nothing to draw: the meshes of its nodes ({} {}) \
                         hold only points or lines (primitive modes 0 to 3), and the engine draws triangles",
                        text::count(nodes),
                        if nodes == 1 { "node" } else { "nodes" }
                    ),
                };
                return Err(invalid(at, message));
            }
            self.model_ids.insert(name.clone(), self.models.len());
            self.models.push(ModelPlan {
                name: name.clone(),
                at,
                path,
                file,
                scene: scene.cloned(),
                part_count,
                used: used.contains(name),
                parts: Vec::new(),
                prefab: None,
            });
        }
        Ok(())
    }

    /// Parts per instance of the model named `name`, if it is declared.
    pub(super) fn model_part_count(&self, name: &str) -> Option<u64> {
        self.model_ids.get(name).map(|&index| self.models[index].part_count)
    }

    /// Lists the parts of every placed model and plans the sizes of their distinct meshes
    /// (one entry per model after the `[[mesh]]` entries, for [`Builder::check_model_built`]);
    /// returns a label per entry for messages.
    pub(super) fn plan_models(&mut self) -> Result<Vec<(MeshSize, u64, String)>, SceneError> {
        let mut seen: HashSet<MeshKey> = HashSet::new();
        let mut planned = Vec::new();
        for index in 0..self.models.len() {
            if !self.models[index].used {
                continue;
            }
            let plan = &self.models[index];
            let fail = |e| self.model_error(&plan.at, &plan.path, e);
            let parts = plan.file.model_parts(plan.scene.as_ref()).map_err(fail)?;
            let (mut size, mut transient) = (MeshSize::default(), 0u64);
            for part in &parts {
                let Some(split) = split(&part.world) else { continue };
                if seen.insert(mesh_key(&plan.file, part, split.bake)) {
                    let primitive = plan.file.primitive_size(part.mesh, part.primitive).map_err(fail)?;
                    size = size.plus(primitive);
                    let import = primitive.vertices.saturating_mul(HOST_BYTES_PER_IMPORTED_VERTEX);
                    transient = transient
                        .max(import.saturating_add(primitive.indices.saturating_mul(HOST_BYTES_PER_IMPORTED_INDEX)));
                }
            }
            let label = format!(
                "[[model]] \"{}\" (model[{index}], {} parts)",
                short(&plan.name),
                text::count(parts.len() as u64)
            );
            planned.push((size, transient, label));
            self.models[index].parts = parts;
        }
        Ok(planned)
    }

    /// Builds the meshes and materials of every placed model and makes its prefab; the arena
    /// is checked against the budget after each model.
    pub(super) fn add_models(&mut self, first_plan: usize) -> Result<(), SceneError> {
        let mut plan_index = first_plan;
        for index in 0..self.models.len() {
            if !self.models[index].used {
                continue;
            }
            let parts = std::mem::take(&mut self.models[index].parts);
            let (file, at, path, name) = {
                let plan = &self.models[index];
                (plan.file.clone(), plan.at.clone(), plan.path.clone(), plan.name.clone())
            };
            let mut prefab = Prefab::default();
            for part in &parts {
                let Some(split) = split(&part.world) else { continue };
                let mesh = self.model_mesh(&file, &name, part, split.bake, &at, &path)?;
                let material = match self.gltf_material_ids.get(&(Rc::as_ptr(&file) as usize, part.material)) {
                    Some(&id) => id,
                    None => {
                        let label = format!("{name}/{}", material_label(&file, part.material));
                        let id = self.gltf_material(&file, part.material, &label, &at, &path)?;
                        self.gltf_material_ids.insert((Rc::as_ptr(&file) as usize, part.material), id);
                        id
                    }
                };
                let bounds = self.meshes.meshes[mesh as usize].bounds;
                let centre = split.translation + split.rotation * (bounds.truncate() * split.scale);
                prefab.reach = prefab.reach.max(centre.length() + bounds.w * split.scale);
                prefab.parts.push(Part {
                    translation: split.translation,
                    rotation: split.rotation,
                    scale: split.scale,
                    mesh,
                    material,
                });
            }
            if !prefab.reach.is_finite() {
                return Err(invalid(
                    at,
                    format!("model \"{}\" reaches beyond 32-bit floats from its origin", short(&name)),
                ));
            }
            self.models[index].prefab = Some(Rc::new(prefab));
            self.check_model_built(plan_index, &name)?;
            plan_index += 1;
        }
        Ok(())
    }

    /// The arena id of a part's mesh, imported (and baked) the first time it is needed.
    fn model_mesh(
        &mut self,
        file: &Rc<GltfFile>,
        model: &str,
        part: &ModelPart,
        bake_matrix: Option<DMat3>,
        at: &str,
        path: &str,
    ) -> Result<u32, SceneError> {
        let key = mesh_key(file, part, bake_matrix);
        if let Some(&id) = self.gltf_mesh_ids.get(&key) {
            return Ok(id);
        }
        let mut data =
            file.primitive(part.mesh, part.primitive, Some(part.node)).map_err(|e| self.model_error(at, path, e))?;
        let mut label = format!("{model}/{}/{}", mesh_label(file, part.mesh), part.primitive);
        if let Some(linear) = bake_matrix {
            bake(&mut data, linear);
            label.push_str(&format!(" (baked for nodes[{}])", part.node));
            if let Some(bad) = data.vertices.iter().position(|v| !Vec3::from(v.position).is_finite()) {
                return Err(invalid(
                    at,
                    format!(
                        "model \"{}\": nodes[{}]'s transform moves vertex {bad} of {} beyond 32-bit floats",
                        short(model),
                        part.node,
                        short(&label)
                    ),
                ));
            }
        }
        let chain = self.simplified(&label, path, data);
        let id =
            self.meshes.add_lods(&label, chain).map_err(|source| SceneError::Mesh { at: at.to_string(), source })?;
        self.gltf_mesh_ids.insert(key, id);
        Ok(id)
    }
}

fn mesh_label(file: &GltfFile, mesh: usize) -> String {
    file.mesh_name(mesh).map_or_else(|| format!("#{mesh}"), str::to_string)
}

fn material_label(file: &GltfFile, material: Option<usize>) -> String {
    match material {
        Some(index) => file.material_name(index).map_or_else(|| format!("#{index}"), str::to_string),
        None => "default".into(),
    }
}

#[cfg(test)]
mod tests {
    use glam::{DMat4, DQuat, DVec3};

    use super::*;

    #[test]
    fn similarities_are_kept_and_the_rest_baked() {
        let rotation = DQuat::from_rotation_y(0.7);
        let similar = DMat4::from_scale_rotation_translation(DVec3::splat(2.5), rotation, DVec3::new(1.0, 2.0, 3.0));
        let kept = split(&similar).unwrap();
        assert!(kept.bake.is_none());
        assert!((kept.scale - 2.5).abs() < 1e-6);
        assert!(kept.rotation.angle_between(rotation.as_quat()) < 1e-5);
        assert_eq!(kept.translation, Vec3::new(1.0, 2.0, 3.0));
        for scale in [DVec3::new(1.0, 2.0, 1.0), DVec3::new(-1.0, 1.0, 1.0)] {
            let baked = split(&DMat4::from_scale_rotation_translation(scale, rotation, DVec3::X)).unwrap();
            assert!(baked.bake.is_some(), "{scale}");
            assert_eq!(baked.translation, Vec3::X);
        }
        assert!(split(&DMat4::from_scale(DVec3::new(1.0, 0.0, 1.0))).is_none(), "flattened: nothing to draw");
    }
}
