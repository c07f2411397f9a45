//! Whole models: a scene's node tree walked from its roots, each node's local transform (TRS or
//! matrix) applied after its parent's, and every primitive of every node's mesh returned as a
//! [`ModelPart`] with its world matrix. `EXT_mesh_gpu_instancing` repeats a node's primitives
//! once per instance (the instance's TRS applied before the node's world matrix, as the
//! extension says).
//!
//! The walk is done twice: once counting parts without reading any buffer but the instancing
//! attributes ([`GltfFile::model_part_count`]), so a scene's object budget is checked before a
//! list of parts is built, and once making them ([`GltfFile::model_parts`]). An instance that
//! repeats an earlier instance of its node exactly is left out (it would draw the same pixels
//! again, and a file of a few hundred bytes can repeat one a million times through a sparse
//! accessor); [`GltfFile::model_part_census`] counts them for the scene's notes. Node trees come
//! from the file, so the walk is iterative (no recursion depth to exhaust) and refuses a node
//! reached twice (a cycle, or a node with two parents) instead of looping.

use std::collections::HashMap;

use glam::{DMat4, DQuat, DVec3};
use gltf::accessor::{DataType, Dimensions};
use serde::Deserialize;

use super::{select, GltfFile, ImportError, Selector};

/// One primitive of one node, with the node's world matrix (and the instance's, for
/// `EXT_mesh_gpu_instancing`).
#[derive(Clone, Debug, PartialEq)]
pub struct ModelPart {
    pub node: usize,
    pub mesh: usize,
    pub primitive: usize,
    /// The primitive's material; `None` for the glTF default material.
    pub material: Option<usize>,
    /// Model space from the primitive's own space: parents' transforms, then the node's, then
    /// the instance's.
    pub world: DMat4,
}

/// What [`GltfFile::model_part_census`] counts: the parts, and each node whose
/// `EXT_mesh_gpu_instancing` repeats instances exactly, as (node, instances, distinct ones):
/// what [`GltfFile::model_parts`] leaves out.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PartCensus {
    pub parts: u64,
    pub repeated: Vec<(usize, usize, usize)>,
    /// Nodes that have a mesh, drawable or not (a mesh of points or lines only is not).
    pub nodes_with_meshes: u64,
}

/// `EXT_mesh_gpu_instancing` attribute accessors of one node, read from the file's JSON (the
/// `gltf` crate drops extensions it does not know).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Instancing {
    translation: Option<usize>,
    rotation: Option<usize>,
    scale: Option<usize>,
}

pub(super) const INSTANCING: &str = "EXT_mesh_gpu_instancing";

/// Each node's instancing attributes, from the JSON text of a `.gltf` or a `.glb`'s JSON chunk.
/// Only the keys this needs are read; anything malformed there is refused naming the node.
pub(super) fn instancing_from_json(bytes: &[u8]) -> Result<HashMap<usize, Instancing>, ImportError> {
    #[derive(Deserialize)]
    struct Document {
        #[serde(default)]
        nodes: Vec<Node>,
    }
    #[derive(Deserialize)]
    struct Node {
        extensions: Option<HashMap<String, serde_json::Value>>,
    }
    #[derive(Deserialize)]
    struct Extension {
        attributes: HashMap<String, serde_json::Value>,
    }
    let json = match bytes.strip_prefix(b"glTF") {
        // The GLB header was checked by the parse that came first: 12 bytes, then the JSON
        // chunk's length and type.
        Some(_) => {
            let length = bytes.get(12..16).map_or(0, |b| u32::from_le_bytes(b.try_into().expect("4 bytes")) as usize);
            bytes.get(20..20usize.saturating_add(length)).unwrap_or_default()
        }
        None => bytes,
    };
    let Ok(document) = serde_json::from_slice::<Document>(json) else {
        // Not the shape this reads (the crate's parse accepted it): no instancing to find.
        return Ok(HashMap::new());
    };
    let mut found = HashMap::new();
    for (index, node) in document.nodes.into_iter().enumerate() {
        let Some(value) = node.extensions.and_then(|mut e| e.remove(INSTANCING)) else { continue };
        let what = format!("nodes[{index}] {INSTANCING}");
        let corrupt = |reason: String| ImportError::Corrupt { what: what.clone(), reason };
        let extension: Extension = serde_json::from_value(value)
            .map_err(|error| corrupt(format!("it is not an object of attributes ({error})")))?;
        let mut instancing = Instancing::default();
        for (name, accessor) in extension.attributes {
            let accessor = accessor
                .as_u64()
                .map(|a| a as usize)
                .ok_or_else(|| corrupt(format!("attribute {name} is not an accessor index")))?;
            match name.as_str() {
                "TRANSLATION" => instancing.translation = Some(accessor),
                "ROTATION" => instancing.rotation = Some(accessor),
                "SCALE" => instancing.scale = Some(accessor),
                // Custom per-instance attributes (`_ID`, colours) have no use here.
                _ => {}
            }
        }
        if instancing == Instancing::default() {
            return Err(corrupt("it has none of TRANSLATION, ROTATION and SCALE".into()));
        }
        found.insert(index, instancing);
    }
    Ok(found)
}

impl GltfFile {
    pub fn scene_count(&self) -> usize {
        self.document.scenes().len()
    }

    /// How many parts [`GltfFile::model_parts`] would return, reading no buffer but the
    /// instancing attributes: each node's primitives times its distinct instances, summed
    /// (saturating).
    pub fn model_part_count(&self, scene: Option<&Selector>) -> Result<u64, ImportError> {
        self.model_part_census(scene).map(|census| census.parts)
    }

    /// [`GltfFile::model_part_count`], with the nodes whose instances repeat.
    pub fn model_part_census(&self, scene: Option<&Selector>) -> Result<PartCensus, ImportError> {
        let mut census = PartCensus::default();
        self.walk(scene, &mut |node, _| {
            census.nodes_with_meshes += u64::from(node.mesh().is_some());
            let primitives = node.mesh().map_or(0, |mesh| mesh.primitives().filter(has_triangles).count()) as u64;
            let instances = match self.instancing.get(&node.index()) {
                Some(instancing) if primitives > 0 => {
                    let (distinct, count) = self.distinct_instances(node, instancing)?;
                    if distinct.len() < count {
                        census.repeated.push((node.index(), count, distinct.len()));
                    }
                    distinct.len() as u64
                }
                _ => 1,
            };
            census.parts = census.parts.saturating_add(primitives.saturating_mul(instances));
            Ok(())
        })?;
        Ok(census)
    }

    /// Every triangle primitive (points and lines are left out, and named by
    /// [`GltfFile::unsupported`]) of every node of the scene (the file's default scene, else its first;
    /// a file without scenes gives every root node), depth first in the file's child order.
    pub fn model_parts(&self, scene: Option<&Selector>) -> Result<Vec<ModelPart>, ImportError> {
        let mut parts = Vec::new();
        self.walk(scene, &mut |node, world| {
            let Some(mesh) = node.mesh().filter(|mesh| mesh.primitives().any(|p| has_triangles(&p))) else {
                return Ok(());
            };
            let instances = match self.instancing.get(&node.index()) {
                Some(instancing) => self.instance_matrices(node, instancing)?,
                None => vec![DMat4::IDENTITY],
            };
            for instance in instances {
                let world = world * instance;
                if !world.is_finite() {
                    return Err(node_error(node, "an instance's transform times the node's overflows"));
                }
                for primitive in mesh.primitives().filter(has_triangles) {
                    parts.push(ModelPart {
                        node: node.index(),
                        mesh: mesh.index(),
                        primitive: primitive.index(),
                        material: primitive.material().index(),
                        world,
                    });
                }
            }
            Ok(())
        })?;
        Ok(parts)
    }

    /// Calls `visit` with each node of the scene and its world matrix, parents first.
    fn walk(
        &self,
        scene: Option<&Selector>,
        visit: &mut dyn FnMut(&gltf::Node, DMat4) -> Result<(), ImportError>,
    ) -> Result<(), ImportError> {
        let roots: Vec<gltf::Node> = if self.document.scenes().len() == 0 {
            if scene.is_some() {
                return Err(ImportError::NotFound {
                    what: "scene",
                    selector: scene.map_or_else(String::new, Selector::to_string),
                    available: "none".into(),
                });
            }
            let mut has_parent = vec![false; self.document.nodes().len()];
            for node in self.document.nodes() {
                for child in node.children() {
                    has_parent[child.index()] = true;
                }
            }
            self.document.nodes().filter(|node| !has_parent[node.index()]).collect()
        } else {
            let names: Vec<Option<&str>> = self.document.scenes().map(|s| s.name()).collect();
            let default = self.document.default_scene().map(|s| Selector::Index(s.index()));
            let index = select("scene", scene.or(default.as_ref()), &names)?;
            self.document.scenes().nth(index).expect("select returns an index in range").nodes().collect()
        };
        let mut seen = vec![false; self.document.nodes().len()];
        let mut stack: Vec<(gltf::Node, DMat4)> = roots.into_iter().rev().map(|node| (node, DMat4::IDENTITY)).collect();
        while let Some((node, parent)) = stack.pop() {
            if std::mem::replace(&mut seen[node.index()], true) {
                return Err(node_error(&node, "it is reached twice (a node may have one parent, and no cycles)"));
            }
            let world = parent * local_matrix(&node)?;
            if !world.is_finite() {
                return Err(node_error(&node, "its transform times its parents' overflows"));
            }
            visit(&node, world)?;
            let children: Vec<gltf::Node> = node.children().collect();
            stack.extend(children.into_iter().rev().map(|child| (child, world)));
        }
        Ok(())
    }

    /// The instance count of a node's `EXT_mesh_gpu_instancing`: every attribute checked
    /// (type, bounds) and of one count.
    fn instance_count(&self, node: &gltf::Node, instancing: &Instancing) -> Result<usize, ImportError> {
        let mut count = None;
        for (name, accessor, dimensions) in attributes(instancing) {
            let accessor =
                self.document.accessors().nth(accessor).ok_or_else(|| {
                    node_error(node, &format!("{INSTANCING} {name}: accessor {accessor} does not exist"))
                })?;
            let what = format!("{} {INSTANCING} {name}", node_name(node));
            // Rotations may be normalised bytes or shorts (KHR_mesh_quantization's types).
            let types: &[DataType] =
                if name == "ROTATION" { &[DataType::F32, DataType::I8, DataType::I16] } else { &[DataType::F32] };
            let n = self.check_accessor(&accessor, &what, &[(dimensions, types)])?;
            if count.is_some_and(|count| count != n) {
                return Err(node_error(
                    node,
                    &format!("{INSTANCING} {name} has {n} elements, other attributes {}", count.unwrap_or(0)),
                ));
            }
            count = Some(n);
        }
        Ok(count.unwrap_or(1))
    }

    /// Each distinct instance's TRS as a matrix, every number finite.
    fn instance_matrices(&self, node: &gltf::Node, instancing: &Instancing) -> Result<Vec<DMat4>, ImportError> {
        let (instances, _) = self.distinct_instances(node, instancing)?;
        instances.iter().map(|instance| instance_matrix(node, instance)).collect()
    }

    /// A node's instances as (index, translation, rotation, scale), each the first with its
    /// values (an instance equal to an earlier one in every number is left out), and how many
    /// the node has in all.
    fn distinct_instances(
        &self,
        node: &gltf::Node,
        instancing: &Instancing,
    ) -> Result<(Vec<Instance>, usize), ImportError> {
        let count = self.instance_count(node, instancing)?;
        let read = |accessor: Option<usize>| -> Option<Vec<f32>> {
            let accessor = self.document.accessors().nth(accessor?)?;
            let width = if accessor.dimensions() == Dimensions::Vec4 { 4 } else { 3 };
            self.read_floats(accessor, width)
        };
        let unreadable = |name: &str| node_error(node, &format!("{INSTANCING} {name}: its data could not be read"));
        let translations =
            instancing.translation.map(|a| read(Some(a)).ok_or_else(|| unreadable("TRANSLATION"))).transpose()?;
        let rotations = instancing.rotation.map(|a| read(Some(a)).ok_or_else(|| unreadable("ROTATION"))).transpose()?;
        let scales = instancing.scale.map(|a| read(Some(a)).ok_or_else(|| unreadable("SCALE"))).transpose()?;
        fn element<const N: usize>(values: &Option<Vec<f32>>, i: usize, default: [f32; N]) -> [f32; N] {
            values.as_ref().and_then(|v| v.get(i * N..i * N + N)).map_or(default, |v| std::array::from_fn(|k| v[k]))
        }
        let mut seen = std::collections::HashSet::new();
        let mut instances = Vec::new();
        for i in 0..count {
            let instance: Instance = (
                i,
                element(&translations, i, [0.0; 3]),
                element(&rotations, i, [0.0, 0.0, 0.0, 1.0]),
                element(&scales, i, [1.0; 3]),
            );
            let (_, translation, rotation, scale) = instance;
            let mut bits = [0u32; 10];
            for (bit, value) in bits.iter_mut().zip(translation.iter().chain(&rotation).chain(&scale)) {
                *bit = value.to_bits();
            }
            if seen.insert(bits) {
                // Checked here, so that a count the caller trusts never meets a refusal later.
                instance_matrix(node, &instance)?;
                instances.push(instance);
            }
        }
        Ok((instances, count))
    }
}

/// One instance: its index, translation, rotation (xyzw) and scale as the file gives them.
type Instance = (usize, [f32; 3], [f32; 4], [f32; 3]);

fn instance_matrix(node: &gltf::Node, &(i, translation, rotation, scale): &Instance) -> Result<DMat4, ImportError> {
    let vec3 = |v: [f32; 3]| DVec3::new(v[0].into(), v[1].into(), v[2].into());
    trs(vec3(translation), rotation, vec3(scale))
        .map_err(|reason| node_error(node, &format!("{INSTANCING} instance {i}: {reason}")))
}

fn attributes(instancing: &Instancing) -> impl Iterator<Item = (&'static str, usize, Dimensions)> {
    [
        ("TRANSLATION", instancing.translation, Dimensions::Vec3),
        ("ROTATION", instancing.rotation, Dimensions::Vec4),
        ("SCALE", instancing.scale, Dimensions::Vec3),
    ]
    .into_iter()
    .filter_map(|(name, accessor, dimensions)| accessor.map(|a| (name, a, dimensions)))
}

/// A node's own transform in f64, refusing non-finite numbers and a zero quaternion.
fn local_matrix(node: &gltf::Node) -> Result<DMat4, ImportError> {
    match node.transform() {
        gltf::scene::Transform::Matrix { matrix } => {
            let matrix = DMat4::from_cols_array_2d(&matrix.map(|column| column.map(f64::from)));
            if !matrix.is_finite() {
                return Err(node_error(node, "its matrix has a non-finite number"));
            }
            if matrix.row(3) != glam::DVec4::W {
                return Err(node_error(
                    node,
                    &format!("its matrix is not affine (last row {:?}, not [0, 0, 0, 1])", matrix.row(3).to_array()),
                ));
            }
            Ok(matrix)
        }
        gltf::scene::Transform::Decomposed { translation, rotation, scale } => {
            trs(DVec3::from(translation.map(f64::from)), rotation, DVec3::from(scale.map(f64::from)))
                .map_err(|reason| node_error(node, &reason))
        }
    }
}

/// Translation × rotation × scale; the quaternion (x, y, z, w) is normalised in f64.
fn trs(translation: DVec3, rotation: [f32; 4], scale: DVec3) -> Result<DMat4, String> {
    let rotation = DQuat::from_array(rotation.map(f64::from));
    if !(translation.is_finite() && rotation.is_finite() && scale.is_finite()) {
        return Err("its translation, rotation or scale has a non-finite number".into());
    }
    if rotation.length() == 0.0 {
        return Err("its rotation quaternion is zero".into());
    }
    Ok(DMat4::from_scale_rotation_translation(scale, rotation.normalize(), translation))
}

/// `nodes[3] "wheel"`, as messages name a node.
fn node_name(node: &gltf::Node) -> String {
    match node.name() {
        Some(name) => format!("nodes[{}] \"{}\"", node.index(), crate::text::display_name(name)),
        None => format!("nodes[{}]", node.index()),
    }
}

fn node_error(node: &gltf::Node, reason: &str) -> ImportError {
    ImportError::Corrupt { what: node_name(node), reason: reason.to_string() }
}

/// Whether a primitive is drawn as triangles (lists, strips or fans): a model's parts are
/// these; points and lines are left out.
pub(super) fn has_triangles(primitive: &gltf::Primitive) -> bool {
    use gltf::mesh::Mode;
    matches!(primitive.mode(), Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan)
}
