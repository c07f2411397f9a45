//! The budget, checked before the work: the object total before anything is opened or
//! generated ([`check_objects`]), then every mesh's size from its parameters (procedural: the
//! exact size of its whole chain of levels, [`crate::mesh::size`]) or its glTF accessors
//! (level 0, without reading the data) before any mesh is built ([`Builder::plan`]), then the
//! exact sizes as meshes are built (a glTF mesh's levels of detail are known only once it is
//! simplified), the texture layers once materials are made, and finally the finished scene's
//! bounds ([`Builder::check_bounds`]).

use glam::Vec3;

use super::meshes::procedural_shape;
use super::{invalid, Builder, SetCount};
use crate::mesh::procedural::{self, Shape};
use crate::mesh::size::MeshSize;
use crate::scene::budget::{Budget, Needs, Quantity};
use crate::scene::file::spec::SceneSpec;
use crate::scene::file::SceneError;
use crate::text;
use crate::tunables::{HOST_BYTES_PER_IMPORTED_INDEX, HOST_BYTES_PER_IMPORTED_VERTEX};

/// Refuses an object total over the budget, naming the largest set.
/// `from_command_line`: the count is `--objects`', not the file's.
pub(super) fn check_objects(
    file: &str,
    budget: &Budget,
    total: u64,
    sets: &[SetCount],
    from_command_line: bool,
) -> Result<(), SceneError> {
    let needs = Needs { objects: total, ..Needs::default() };
    let cause = |_| {
        if from_command_line {
            return format!("--objects asks for {}", text::count(total));
        }
        match sets.iter().max_by_key(|set| set.count) {
            Some(set) if sets.len() == 1 => set.asks(),
            Some(set) => format!("the largest of its {} object sets: {}", sets.len(), set.asks()),
            None => "its object sets".into(),
        }
    };
    budget.check(&needs, &cause).map_err(|detail| SceneError::Budget { file: file.to_string(), detail })
}

impl Builder<'_> {
    /// Plans every mesh's size and checks the scene's needs before any mesh is built. A mesh
    /// whose spec is wrong ends the plan: building reports its error in the file's order.
    pub(super) fn plan(&mut self, spec: &SceneSpec) -> Result<(), SceneError> {
        let mut planned = Vec::with_capacity(spec.mesh.len());
        let mut imports = Vec::with_capacity(spec.mesh.len());
        for mesh in &spec.mesh {
            let size = match (&mesh.procedural, &mesh.gltf) {
                (Some(kind), None) => procedural_shape(*kind, mesh).ok().map(|shape| (shape.chain_size(), 0)),
                (None, Some(path)) => match self.gltf_file(path) {
                    Ok(file) => file.mesh_size(mesh.mesh.as_ref().map(|s| &s.0)).ok().map(|size| {
                        let transient = size.vertices.saturating_mul(HOST_BYTES_PER_IMPORTED_VERTEX);
                        (size, transient.saturating_add(size.indices.saturating_mul(HOST_BYTES_PER_IMPORTED_INDEX)))
                    }),
                    Err(_) => None,
                },
                _ => None,
            };
            let Some((size, import)) = size else { break };
            planned.push(size);
            imports.push(import);
        }
        // A mesh that could not be planned will fail to build first; the models' entries follow
        // the meshes' places.
        planned.resize(spec.mesh.len(), MeshSize::default());
        imports.resize(spec.mesh.len(), 0);
        let mut labels: Vec<String> = spec
            .mesh
            .iter()
            .enumerate()
            .map(|(index, m)| format!("[[mesh]] \"{}\" (mesh[{index}])", super::short(m.name.get_ref())))
            .collect();
        for (size, import, label) in self.plan_models()? {
            planned.push(size);
            imports.push(import);
            labels.push(label);
        }
        self.planned_imports = imports;
        if spec.objects.iter().any(|set| set.stress.is_some()) {
            self.planned_stress = procedural::BUILTIN_NAMES
                .iter()
                .filter_map(|name| Shape::builtin(name))
                .fold(MeshSize::default(), |sum, shape| sum.plus(shape.chain_size()));
        }
        self.planned_meshes = planned;
        let planned = self.planned_meshes.clone();
        self.check_needs(MeshSize::default(), &|quantity| describe_meshes(&labels, &planned, quantity))
    }

    /// After `[[mesh]]` `index` is built: the arena so far and the plan for the rest.
    pub(super) fn check_built(&mut self, index: usize) -> Result<(), SceneError> {
        let arena = self.settle_plan(index);
        let mesh = &self.meshes.meshes[self.meshes.meshes.len() - 1];
        let cause = format!(
            "the meshes up to [[mesh]] \"{}\" (mesh[{index}], {} vertices with its levels of detail) have {} vertices \
             and {} indices",
            super::short(&mesh.name),
            text::count(mesh.lods.iter().map(|l| l.vertex_count as u64).sum()),
            text::count(arena.vertices),
            text::count(arena.indices)
        );
        self.check_needs(arena, &|_| cause.clone())
    }

    /// After the model planned at `index` (after the `[[mesh]]` entries) is built: the arena so
    /// far and the plan for the rest.
    pub(super) fn check_model_built(&mut self, index: usize, name: &str) -> Result<(), SceneError> {
        let arena = self.settle_plan(index);
        let cause = format!(
            "the meshes up to [[model]] \"{}\" have {} vertices and {} indices with their levels of detail",
            super::short(name),
            text::count(arena.vertices),
            text::count(arena.indices)
        );
        self.check_needs(arena, &|_| cause.clone())
    }

    /// Drops plan entry `index` (now built) and returns the arena's size so far.
    fn settle_plan(&mut self, index: usize) -> MeshSize {
        if let Some(size) = self.planned_meshes.get_mut(index) {
            *size = MeshSize::default();
        }
        if let Some(import) = self.planned_imports.get_mut(index) {
            *import = 0;
        }
        MeshSize { vertices: self.meshes.vertices.len() as u64, indices: self.meshes.indices.len() as u64, levels: 0 }
    }

    /// The layers of the fullest texture array against the adapter's array limit, and the
    /// textures' bytes with their mips against memory.
    pub(super) fn check_layers(&self) -> Result<(), SceneError> {
        let (layers, texture_bytes) =
            super::materials::LayerSet::gpu_needs(&[&self.base_color_layers, &self.normal_layers]);
        let needs = Needs { objects: self.total_objects, texture_layers: layers, texture_bytes, ..Needs::default() };
        let cause =
            |_| format!("{} materials give {} distinct texture layers", self.materials.len(), text::count(layers));
        self.options
            .budget
            .check(&needs, &cause)
            .map_err(|detail| SceneError::Budget { file: self.file.into(), detail })
    }

    fn check_needs(&self, built: MeshSize, cause: &dyn Fn(Quantity) -> String) -> Result<(), SceneError> {
        let meshes = self.planned_meshes.iter().fold(built, |sum, size| sum.plus(*size)).plus(self.planned_stress);
        let needs = Needs {
            objects: self.total_objects,
            vertices: meshes.vertices,
            indices: meshes.indices,
            texture_layers: 0,
            texture_bytes: 0,
            transient_bytes: self.planned_imports.iter().copied().max().unwrap_or(0),
        };
        self.options.budget.check(&needs, cause).map_err(|detail| SceneError::Budget { file: self.file.into(), detail })
    }

    /// Every object's world bounding sphere, and the automatic camera's inputs, finite: the
    /// placement was checked per set, but the mesh radius times the object's scale, or the
    /// centre moved by the translation, can still overflow.
    pub(super) fn check_bounds(&self) -> Result<(), SceneError> {
        self.check_bounds_from(0)
    }

    /// [`Builder::check_bounds`] for the objects from `first` on (one set's, as it is added).
    pub(super) fn check_bounds_from(&self, first: usize) -> Result<(), SceneError> {
        for (i, object) in self.objects.iter().enumerate().skip(first) {
            let bounds = self.meshes.meshes[object.mesh as usize].bounds;
            let radius = bounds.w * object.scale;
            let centre = object.translation + object.rotation * (bounds.truncate() * object.scale);
            let reach = centre.abs() + Vec3::splat(radius);
            let name = || super::short(&self.meshes.meshes[object.mesh as usize].name);
            if radius > 0.0 && radius < crate::mesh::MIN_OBJECT_RADIUS {
                return Err(invalid(
                    self.file,
                    format!(
                        "object {i} (mesh \"{}\", scale {:e}): its bounding radius {radius:e} is below {:e}, where squared \
                         sizes underflow 32-bit floats and culling sees nothing; scale the scene up",
                        name(),
                        object.scale,
                        crate::mesh::MIN_OBJECT_RADIUS
                    ),
                ));
            }
            if reach.max_element() > crate::mesh::MAX_MESH_RADIUS && reach.is_finite() {
                return Err(invalid(
                    self.file,
                    format!(
                        "object {i} (mesh \"{}\", scale {:e}, position {:?}): it reaches {:e} units from the origin, beyond \
                         {:e}, where squared distances overflow 32-bit floats; scale the scene down",
                        name(),
                        object.scale,
                        object.translation.to_array(),
                        reach.max_element(),
                        crate::mesh::MAX_MESH_RADIUS
                    ),
                ));
            }
            if !(radius.is_finite() && reach.is_finite()) {
                return Err(invalid(
                    self.file,
                    format!(
                        "object {i} (mesh \"{}\", scale {}, position {:?}): its bounding sphere is not finite (the \
                         mesh's radius {:e} times the scale, plus the position, reaches beyond 32-bit floats)",
                        super::short(&self.meshes.meshes[object.mesh as usize].name),
                        object.scale,
                        object.translation.to_array(),
                        bounds.w
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// What in the file asks for the vertices or indices: the largest planned mesh.
fn describe_meshes(labels: &[String], planned: &[MeshSize], quantity: Quantity) -> String {
    let key = |size: &MeshSize| {
        if matches!(quantity, Quantity::Indices | Quantity::Triangles) {
            size.indices
        } else {
            size.vertices
        }
    };
    // The first of the largest: `max_by_key` would name the last.
    match planned.iter().enumerate().rev().max_by_key(|(_, size)| key(size)) {
        Some((index, size)) => format!(
            "{} {} with {} vertices and {} indices over its levels of detail",
            if planned.len() == 1 {
                "it is".to_string()
            } else {
                format!("the largest of {} meshes is", planned.len())
            },
            labels[index],
            text::count(size.vertices),
            text::count(size.indices),
        ),
        None => "the scene's meshes".into(),
    }
}
