//! Meshes: every triangle primitive of one glTF mesh merged into one [`MeshData`] (a `[[mesh]]`),
//! or one primitive on its own (a part of a `[[model]]`), each accessor checked against its
//! buffer view before the `gltf` crate's readers walk it.

use glam::{DVec3, Vec3, Vec4};
use gltf::accessor::{DataType, Dimensions};
use gltf::mesh::Mode;

use super::material::{uv_transform, TEXTURE_TRANSFORM};
use super::{describe, select, GltfFile, ImportError, Selector};
use crate::mesh::size::MeshSize;
use crate::mesh::{tangents, MeshData, Vertex};

/// Component types of positions and texture coordinates: floats, and the integers
/// `KHR_mesh_quantization` allows (normalised or not).
const POSITION_TYPES: &[DataType] = &[DataType::F32, DataType::I8, DataType::U8, DataType::I16, DataType::U16];
const UV_TYPES: &[DataType] = POSITION_TYPES;
/// Normals and tangents: floats, or normalised signed bytes and shorts.
const NORMAL_TYPES: &[DataType] = &[DataType::F32, DataType::I8, DataType::I16];
/// Vertex colours: floats, or normalised unsigned bytes and shorts.
const COLOR_TYPES: &[DataType] = &[DataType::F32, DataType::U8, DataType::U16];

impl GltfFile {
    /// One mesh with all its triangle primitives merged. Missing normals are generated from
    /// the faces (smooth where vertices are shared, flat where they are not); missing UVs are 0.
    pub fn mesh(&self, selector: Option<&Selector>) -> Result<MeshData, ImportError> {
        let names: Vec<Option<&str>> = self.document.meshes().map(|m| m.name()).collect();
        let index = select("mesh", selector, &names)?;
        let mesh = self.document.meshes().nth(index).expect("select returns an index in range");
        // Sized once: growing by doubling would hold up to three times the mesh while copying.
        let size = self.mesh_size(selector)?;
        let mut data = MeshData {
            vertices: Vec::with_capacity(size.vertices as usize),
            indices: Vec::with_capacity(size.indices as usize),
        };
        let weights = self.morph_weights(index, None)?;
        for primitive in mesh.primitives() {
            let label = primitive_label(index, names[index], primitive.index());
            let part = self.read_primitive(&primitive, &label, &weights)?;
            let base = data.vertices.len() as u32;
            data.vertices.extend(part.vertices);
            data.indices.extend(part.indices.iter().map(|i| i + base));
        }
        if data.indices.is_empty() {
            return Err(ImportError::Corrupt {
                what: format!("mesh {}", describe(index, names[index])),
                reason: "it has no triangles".into(),
            });
        }
        Ok(data)
    }

    /// One primitive of one mesh on its own, as a whole-model import needs it (each primitive
    /// has its own material), posed at the morph weights of `node` (or of the mesh). `mesh`
    /// and `primitive` are indices the caller got from the file.
    pub fn primitive(&self, mesh: usize, primitive: usize, node: Option<usize>) -> Result<MeshData, ImportError> {
        let (found, what) = self.find_primitive(mesh, primitive)?;
        let weights = self.morph_weights(mesh, node)?;
        let data = self.read_primitive(&found, &what, &weights)?;
        if data.indices.is_empty() {
            return Err(ImportError::Corrupt { what, reason: "it has no triangles".into() });
        }
        Ok(data)
    }

    /// What [`GltfFile::primitive`] reads for this primitive, as a key: its mode, its index
    /// and attribute accessors, and the coordinate set its tangents are generated from. Two
    /// primitives with one key (of several meshes sharing accessors, as glTF exporters write
    /// one sphere under many materials) import the same geometry, so it is imported once.
    pub fn primitive_identity(
        &self,
        mesh: usize,
        primitive: usize,
        node: Option<usize>,
    ) -> Result<String, ImportError> {
        let (found, _) = self.find_primitive(mesh, primitive)?;
        let weights: Vec<u32> = if found.morph_targets().len() > 0 {
            self.morph_weights(mesh, node)?.iter().map(|w| w.to_bits()).collect()
        } else {
            Vec::new()
        };
        let mut attributes: Vec<(String, usize)> =
            found.attributes().map(|(semantic, accessor)| (semantic.to_string(), accessor.index())).collect();
        attributes.sort();
        let targets: Vec<Vec<(String, usize)>> = found
            .morph_targets()
            .map(|t| {
                [("POSITION", t.positions()), ("NORMAL", t.normals()), ("TANGENT", t.tangents())]
                    .into_iter()
                    .filter_map(|(name, a)| Some((name.to_string(), a?.index())))
                    .collect()
            })
            .collect();
        Ok(format!(
            "{:?}|{:?}|{:?}|{:?}|{targets:?}|{weights:?}",
            found.mode(),
            found.indices().map(|a| a.index()),
            attributes,
            mikktspace_set(&found)
        ))
    }

    /// The static morph weights a primitive of `mesh` is posed at: `node`'s `weights` where
    /// the node has them, else the mesh's, else none (every target at 0). Each must be finite.
    fn morph_weights(&self, mesh: usize, node: Option<usize>) -> Result<Vec<f32>, ImportError> {
        let node_weights = node.and_then(|n| self.document.nodes().nth(n)).and_then(|n| n.weights());
        let mesh_weights = self.document.meshes().nth(mesh).and_then(|m| m.weights());
        let weights = node_weights.or(mesh_weights).unwrap_or(&[]).to_vec();
        if let Some(bad) = weights.iter().position(|w| !w.is_finite()) {
            let owner = match (node_weights, node) {
                (Some(_), Some(n)) => format!("nodes[{n}]"),
                _ => format!("meshes[{mesh}]"),
            };
            return Err(ImportError::Corrupt {
                what: format!("{owner} weights"),
                reason: format!("weight {bad} is not finite"),
            });
        }
        Ok(weights)
    }

    /// The vertex and index counts [`GltfFile::primitive`] would import, from the accessors.
    pub fn primitive_size(&self, mesh: usize, primitive: usize) -> Result<MeshSize, ImportError> {
        let (found, what) = self.find_primitive(mesh, primitive)?;
        self.size_of_primitive(&found, &what)
    }

    fn find_primitive(&self, mesh: usize, primitive: usize) -> Result<(gltf::Primitive<'_>, String), ImportError> {
        let not_found = || ImportError::NotFound {
            what: "mesh primitive",
            selector: format!("#{mesh} primitive {primitive}"),
            available: format!("{} meshes", self.mesh_count()),
        };
        let found = self.document.meshes().nth(mesh).ok_or_else(not_found)?;
        let what = primitive_label(mesh, found.name(), primitive);
        Ok((found.primitives().nth(primitive).ok_or_else(not_found)?, what))
    }

    /// One triangle primitive read and checked: indices in range, normals generated or
    /// repaired, every component finite. `what` names it in messages.
    fn read_primitive(
        &self,
        primitive: &gltf::Primitive,
        what: &str,
        weights: &[f32],
    ) -> Result<MeshData, ImportError> {
        let what = what.to_string();
        let count = self.triangle_vertex_count(primitive, &what)?;
        let reader = primitive.reader(|buffer| self.buffers.get(buffer.index()).map(Vec::as_slice));
        let read_failed = |attribute: &str| ImportError::Corrupt {
            what: format!("{what} {attribute}"),
            reason: "its data could not be read".into(),
        };
        // Counted and typed by triangle_vertex_count.
        let positions = primitive.get(&gltf::Semantic::Positions).ok_or_else(|| read_failed("POSITION"))?;
        let positions = self.read_floats(positions, 3).ok_or_else(|| read_failed("POSITION"))?;
        let mut vertices: Vec<Vertex> =
            positions.chunks_exact(3).map(|p| Vertex::new([p[0], p[1], p[2]], [0.0; 3], [0.0; 2])).collect();
        if vertices.len() != count {
            return Err(read_failed("POSITION"));
        }
        if let Some(normals) = primitive.get(&gltf::Semantic::Normals) {
            self.check_vertex_attribute(
                &normals,
                &format!("{what} NORMAL"),
                count,
                &[(Dimensions::Vec3, NORMAL_TYPES)],
            )?;
            let normals = self.read_floats(normals, 3).ok_or_else(|| read_failed("NORMAL"))?;
            for (vertex, normal) in vertices.iter_mut().zip(normals.chunks_exact(3)) {
                vertex.normal = [normal[0], normal[1], normal[2]];
            }
        }
        // Static morph weights: each target's position and normal offsets, weighted, added
        // (a weight past the targets, or a target past the weights, counts as 0).
        for (target_index, (target, &weight)) in primitive.morph_targets().zip(weights).enumerate() {
            if weight == 0.0 {
                continue;
            }
            for (name, accessor, is_normal) in
                [("POSITION", target.positions(), false), ("NORMAL", target.normals(), true)]
            {
                let Some(accessor) = accessor else { continue };
                let label = format!("{what} morph target {target_index} {name}");
                self.check_vertex_attribute(&accessor, &label, count, &[(Dimensions::Vec3, NORMAL_TYPES)])?;
                let offsets = self.read_floats(accessor, 3).ok_or_else(|| read_failed(&label))?;
                for (vertex, d) in vertices.iter_mut().zip(offsets.chunks_exact(3)) {
                    let value = if is_normal { &mut vertex.normal } else { &mut vertex.position };
                    for (v, offset) in value.iter_mut().zip(d) {
                        *v += weight * offset;
                    }
                }
            }
        }
        for set in 0..2 {
            let Some(uvs) = primitive.get(&gltf::Semantic::TexCoords(set)) else { continue };
            let name = format!("TEXCOORD_{set}");
            self.check_vertex_attribute(&uvs, &format!("{what} {name}"), count, &[(Dimensions::Vec2, UV_TYPES)])?;
            let uvs = self.read_floats(uvs, 2).ok_or_else(|| read_failed(&name))?;
            for (vertex, uv) in vertices.iter_mut().zip(uvs.chunks_exact(2)) {
                *(if set == 0 { &mut vertex.uv } else { &mut vertex.uv1 }) = [uv[0], uv[1]];
            }
        }
        if let Some(colors) = primitive.get(&gltf::Semantic::Colors(0)) {
            let allowed = [(Dimensions::Vec3, COLOR_TYPES), (Dimensions::Vec4, COLOR_TYPES)];
            self.check_vertex_attribute(&colors, &format!("{what} COLOR_0"), count, &allowed)?;
            let width = if colors.dimensions() == Dimensions::Vec3 { 3 } else { 4 };
            let colors = self.read_floats(colors, width).ok_or_else(|| read_failed("COLOR_0"))?;
            for (vertex, c) in vertices.iter_mut().zip(colors.chunks_exact(width)) {
                let alpha = if width == 4 { c[3] } else { 1.0 };
                let color = Vec4::new(c[0], c[1], c[2], alpha);
                if !color.is_finite() {
                    return Err(ImportError::Corrupt {
                        what: format!("{what} COLOR_0"),
                        reason: "a colour is not finite".into(),
                    });
                }
                vertex.set_color(color);
            }
        }
        let tangents = primitive.get(&gltf::Semantic::Tangents);
        if let Some(tangents) = &tangents {
            self.check_vertex_attribute(
                tangents,
                &format!("{what} TANGENT"),
                count,
                &[(Dimensions::Vec4, NORMAL_TYPES)],
            )?;
            let tangents = self.read_floats(tangents.clone(), 4).ok_or_else(|| read_failed("TANGENT"))?;
            for (vertex, t) in vertices.iter_mut().zip(tangents.chunks_exact(4)) {
                // Unit xyz and w = ±1 as glTF asks; what has no direction is left without.
                let direction = Vec3::new(t[0], t[1], t[2]).try_normalize();
                let w = if t[3] < 0.0 { -1.0 } else { 1.0 };
                vertex.set_tangent(direction.map_or(Vec4::ZERO, |d| d.extend(w)));
            }
        }
        let indices: Vec<u32> = match primitive.indices() {
            Some(accessor) => {
                let types: &[DataType] = &[DataType::U8, DataType::U16, DataType::U32];
                self.check_accessor(&accessor, &format!("{what} indices"), &[(Dimensions::Scalar, types)])?;
                reader.read_indices().ok_or_else(|| read_failed("indices"))?.into_u32().collect()
            }
            None => (0..count as u32).collect(),
        };
        let indices = triangle_list(primitive.mode(), indices);
        if !indices.len().is_multiple_of(3) {
            return Err(ImportError::Corrupt {
                what,
                reason: format!("{} indices do not make whole triangles", indices.len()),
            });
        }
        if let Some(&bad) = indices.iter().find(|&&i| i as usize >= count) {
            return Err(ImportError::Corrupt {
                what,
                reason: format!("index {bad} is out of range for {count} vertices"),
            });
        }
        if primitive.get(&gltf::Semantic::Normals).is_none() {
            generate_normals(&mut vertices, &indices);
        } else {
            repair_normals(&mut vertices, &indices);
        }
        if let Some(bad) = vertices.iter().position(|v| !v.is_finite()) {
            return Err(ImportError::Corrupt { what, reason: format!("vertex {bad} has a non-finite component") });
        }
        let mut data = MeshData { vertices, indices };
        if tangents.is_none() {
            match mikktspace_set(primitive) {
                Some(set) => tangents::mikktspace(&mut data, set),
                None => tangents::accumulate(&mut data),
            }
        }
        Ok(data)
    }

    /// The vertex and index counts [`GltfFile::mesh`] would import (level 0), from the
    /// accessors alone: the same checks, none of the reading. A scene's budget is checked with
    /// this before any mesh data is touched.
    pub fn mesh_size(&self, selector: Option<&Selector>) -> Result<MeshSize, ImportError> {
        let names: Vec<Option<&str>> = self.document.meshes().map(|m| m.name()).collect();
        let index = select("mesh", selector, &names)?;
        let mesh = self.document.meshes().nth(index).expect("select returns an index in range");
        let mut size = MeshSize { vertices: 0, indices: 0, levels: 1 };
        for primitive in mesh.primitives() {
            size = size
                .plus(self.size_of_primitive(&primitive, &primitive_label(index, names[index], primitive.index()))?);
        }
        size.levels = 1;
        Ok(size)
    }

    fn size_of_primitive(&self, primitive: &gltf::Primitive, what: &str) -> Result<MeshSize, ImportError> {
        let count = self.triangle_vertex_count(primitive, what)?;
        let indices = match primitive.indices() {
            Some(accessor) => {
                let types: &[DataType] = &[DataType::U8, DataType::U16, DataType::U32];
                self.check_accessor(&accessor, &format!("{what} indices"), &[(Dimensions::Scalar, types)])?
            }
            None => count,
        };
        let indices = match primitive.mode() {
            Mode::TriangleStrip | Mode::TriangleFan => indices.saturating_sub(2).saturating_mul(3),
            _ => indices,
        };
        // MikkTSpace may split vertices, up to one per triangle corner.
        let vertices = match mikktspace_set(primitive) {
            Some(_) if primitive.get(&gltf::Semantic::Tangents).is_none() => count.max(indices),
            _ => count,
        };
        Ok(MeshSize { vertices: vertices as u64, indices: indices as u64, levels: 1 })
    }

    /// Checks that a primitive is made of triangles (a list, a strip or a fan) with a valid
    /// POSITION accessor; returns its vertex count. [`GltfFile::mesh`] and [`GltfFile::mesh_size`] refuse the same primitives.
    fn triangle_vertex_count(&self, primitive: &gltf::Primitive, what: &str) -> Result<usize, ImportError> {
        if !matches!(primitive.mode(), Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan) {
            return Err(ImportError::Unsupported(format!(
                "{what}: mode {:?}, only triangles (lists, strips and fans)",
                primitive.mode()
            )));
        }
        let positions = primitive.get(&gltf::Semantic::Positions).ok_or_else(|| ImportError::Corrupt {
            what: what.to_string(),
            reason: "it has no POSITION attribute".into(),
        })?;
        self.check_accessor(&positions, &format!("{what} POSITION"), &[(Dimensions::Vec3, POSITION_TYPES)])
    }

    /// Checks an accessor that the crate's readers will walk: an allowed type, and every element
    /// inside its view and its buffer (for a sparse accessor, its indices and values too; the
    /// base view may be absent, meaning zeros). Returns the element count.
    pub(super) fn check_accessor(
        &self,
        accessor: &gltf::Accessor,
        what: &str,
        allowed: &[(Dimensions, &[DataType])],
    ) -> Result<usize, ImportError> {
        let corrupt = |reason: String| ImportError::Corrupt { what: what.to_string(), reason };
        let (dimensions, data_type) = (accessor.dimensions(), accessor.data_type());
        if !allowed.iter().any(|(d, types)| *d == dimensions && types.contains(&data_type)) {
            return Err(ImportError::Unsupported(format!("{what}: {dimensions:?} of {data_type:?}")));
        }
        let count = accessor.count();
        if count == 0 {
            return Err(corrupt("it has no elements".into()));
        }
        let element = accessor.size();
        if let Some(sparse) = accessor.sparse() {
            let replaced = sparse.count();
            if replaced == 0 || replaced > count {
                return Err(corrupt(format!("sparse count {replaced} is not between 1 and its {count} elements")));
            }
            let indices = sparse.indices();
            let index_size = indices.index_type().size();
            self.check_range(
                &indices.view(),
                indices.offset(),
                replaced,
                index_size,
                &format!("{what} sparse indices"),
            )?;
            self.check_range(
                &sparse.values().view(),
                sparse.values().offset(),
                replaced,
                element,
                &format!("{what} sparse values"),
            )?;
            if accessor.view().is_none() {
                // Zeros, then the sparse values: the budget has counted its elements.
                return Ok(count);
            }
        }
        let view = accessor.view().ok_or_else(|| corrupt("it has no buffer view".into()))?;
        self.check_range(&view, accessor.offset(), count, element, what)?;
        Ok(count)
    }

    /// Checks that `count` elements of `element` bytes from `offset` of a view (at its stride)
    /// lie inside the view and its buffer, with the arithmetic the `gltf` crate's readers do.
    fn check_range(
        &self,
        view: &gltf::buffer::View,
        offset: usize,
        count: usize,
        element: usize,
        what: &str,
    ) -> Result<(), ImportError> {
        let corrupt = |reason: String| ImportError::Corrupt { what: what.to_string(), reason };
        let stride = view.stride().unwrap_or(element);
        if stride < element {
            return Err(corrupt(format!("stride {stride} is smaller than its {element}-byte elements")));
        }
        let view_bytes = self.view_bytes(view, what)?;
        let end = count
            .checked_sub(1)
            .and_then(|n| n.checked_mul(stride))
            .and_then(|n| n.checked_add(element))
            .and_then(|n| n.checked_add(offset));
        match end {
            Some(end) if end <= view_bytes.len() => Ok(()),
            _ => Err(corrupt(format!("{count} elements run past the end of buffer view {}", view.index()))),
        }
    }

    fn check_vertex_attribute(
        &self,
        accessor: &gltf::Accessor,
        what: &str,
        vertices: usize,
        allowed: &[(Dimensions, &[DataType])],
    ) -> Result<(), ImportError> {
        let count = self.check_accessor(accessor, what, allowed)?;
        if count != vertices {
            return Err(ImportError::Corrupt {
                what: what.to_string(),
                reason: format!("it has {count} elements for {vertices} positions"),
            });
        }
        Ok(())
    }
}

/// A strip's or a fan's indices as a triangle list, in the glTF specification's vertex order
/// (a strip's odd triangles swap their first two vertices, so every triangle keeps the strip's
/// winding); a list is returned as it is.
fn triangle_list(mode: Mode, indices: Vec<u32>) -> Vec<u32> {
    let triangles = indices.len().saturating_sub(2);
    match mode {
        Mode::TriangleStrip => (0..triangles)
            .flat_map(|i| {
                let [a, b, c] = [indices[i], indices[i + 1], indices[i + 2]];
                if i % 2 == 0 {
                    [a, b, c]
                } else {
                    [b, a, c]
                }
            })
            .collect(),
        Mode::TriangleFan => (0..triangles).flat_map(|i| [indices[i + 1], indices[i + 2], indices[0]]).collect(),
        _ => indices,
    }
}

/// The texture-coordinate set of a primitive's normal map, when its material has one: the
/// set MikkTSpace tangents are generated from where the file gives none.
fn mikktspace_set(primitive: &gltf::Primitive) -> Option<u32> {
    let normal = primitive.material().normal_texture()?;
    let extension = normal.extension_value(TEXTURE_TRANSFORM);
    // A malformed transform is refused when the material is read; its set is the plain one here.
    let set = uv_transform(normal.tex_coord(), extension, &String::new, "").map_or(normal.tex_coord(), |t| t.set);
    Some(if set > 1 { 0 } else { set })
}

/// `mesh #0 "crate" primitive 1`, as messages name a primitive.
fn primitive_label(mesh: usize, name: Option<&str>, primitive: usize) -> String {
    format!("mesh {} primitive {primitive}", describe(mesh, name))
}

/// The file's normals made unit length where they are not (glTF asks for unit normals;
/// exporters do not always write them). A normal with no direction (zero, or too small or too large for f32 and f64
/// alike) is replaced by the generated one at that vertex, rather than lighting it black.
/// Non-finite normals stay as read: the mesh's finiteness check refuses them, naming the vertex.
fn repair_normals(vertices: &mut [Vertex], indices: &[u32]) {
    let mut without = Vec::new();
    for (i, vertex) in vertices.iter_mut().enumerate() {
        let normal = Vec3::from(vertex.normal);
        // Unit up to the rounding of the file's writer: kept bit for bit.
        if !normal.is_finite() || (normal.length_squared() - 1.0).abs() <= 1e-4 {
            continue;
        }
        let unit = normal.try_normalize().or_else(|| normal.as_dvec3().try_normalize().map(DVec3::as_vec3));
        match unit {
            Some(unit) => vertex.normal = unit.into(),
            None => without.push(i),
        }
    }
    if without.is_empty() {
        return;
    }
    let mut generated = vertices.to_vec();
    generate_normals(&mut generated, indices);
    for i in without {
        vertices[i].normal = generated[i].normal;
    }
}

/// Area-weighted face normals summed per vertex: smooth across shared vertices, flat for
/// unshared ones (non-indexed primitives).
/// Summed in f32 and, only if that overflows or underflows somewhere (the cross product of a
/// huge or a tiny model's edges), again in f64 for the vertices it failed.
fn generate_normals(vertices: &mut [Vertex], indices: &[u32]) {
    let exact = |sum: Vec3| sum.length_squared().is_finite() && sum.length_squared() > 1e-30;
    let mut sums = vec![Vec3::ZERO; vertices.len()];
    for tri in indices.chunks_exact(3) {
        let [a, b, c] = [tri[0], tri[1], tri[2]].map(|i| Vec3::from(vertices[i as usize].position));
        let face = (b - a).cross(c - a);
        for &i in tri {
            sums[i as usize] += face;
        }
    }
    let wide = (!sums.iter().all(|&sum| exact(sum))).then(|| {
        let mut wide = vec![DVec3::ZERO; vertices.len()];
        for tri in indices.chunks_exact(3) {
            let [a, b, c] = [tri[0], tri[1], tri[2]].map(|i| Vec3::from(vertices[i as usize].position).as_dvec3());
            let face = (b - a).cross(c - a);
            for &i in tri {
                wide[i as usize] += face;
            }
        }
        wide
    });
    for (i, (vertex, sum)) in vertices.iter_mut().zip(sums).enumerate() {
        vertex.normal = match &wide {
            Some(wide) if !exact(sum) => wide[i].normalize_or(DVec3::Y).as_vec3(),
            _ => sum.normalize_or(Vec3::Y),
        }
        .into();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_and_fans_become_lists_keeping_their_winding() {
        assert_eq!(triangle_list(Mode::TriangleStrip, vec![0, 1, 2, 3, 4]), [0, 1, 2, 2, 1, 3, 2, 3, 4]);
        assert_eq!(triangle_list(Mode::TriangleFan, vec![0, 1, 2, 3]), [1, 2, 0, 2, 3, 0]);
        assert!(triangle_list(Mode::TriangleStrip, vec![0, 1]).is_empty());
    }

    #[test]
    fn zero_normals_are_generated_and_long_ones_shortened() {
        let vertex = |position: [f32; 3], normal: [f32; 3]| Vertex::new(position, normal, [0.0; 2]);
        let mut vertices = vec![
            vertex([0.0, 0.0, 0.0], [0.0, 0.0, 0.0]),
            vertex([1.0, 0.0, 0.0], [0.0, 0.0, 2.0]),
            vertex([0.0, 1.0, 0.0], [0.0, 1e-30, 1e-30]),
            vertex([1.0, 1.0, 0.0], [f32::NAN, 0.0, 0.0]),
        ];
        repair_normals(&mut vertices, &[0, 1, 2, 1, 3, 2]);
        assert_eq!(vertices[0].normal, [0.0, 0.0, 1.0], "zero: the face normal");
        assert_eq!(vertices[1].normal, [0.0, 0.0, 1.0], "long: made unit");
        let tiny = Vec3::from(vertices[2].normal);
        assert!((tiny - Vec3::new(0.0, 1.0, 1.0).normalize()).length() < 1e-6, "tiny: normalised in f64, {tiny}");
        assert!(vertices[3].normal[0].is_nan(), "non-finite: left for the finiteness check");
    }
}
