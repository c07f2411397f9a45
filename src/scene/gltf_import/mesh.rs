//! Meshes: every triangle primitive of one glTF mesh merged into one [`MeshData`], each
//! accessor checked against its buffer view before the `gltf` crate's readers walk it.

use glam::{DVec3, Vec3};
use gltf::accessor::{DataType, Dimensions};
use gltf::mesh::Mode;

use super::{describe, select, GltfFile, ImportError, Selector};
use crate::mesh::size::MeshSize;
use crate::mesh::{MeshData, Vertex};

impl GltfFile {
    /// One mesh with all its triangle primitives merged. Missing normals are generated from
    /// the faces (smooth where vertices are shared, flat where they are not); missing UVs are 0.
    pub fn mesh(&self, selector: Option<&Selector>) -> Result<MeshData, ImportError> {
        let names: Vec<Option<&str>> = self.document.meshes().map(|m| m.name()).collect();
        let index = select("mesh", selector, &names)?;
        let mesh = self.document.meshes().nth(index).expect("select returns an index in range");
        let label = |primitive: usize| format!("mesh {} primitive {primitive}", describe(index, names[index]));
        // Sized once: growing by doubling would hold up to three times the mesh while copying.
        let size = self.mesh_size(selector)?;
        let mut data = MeshData {
            vertices: Vec::with_capacity(size.vertices as usize),
            indices: Vec::with_capacity(size.indices as usize),
        };
        for primitive in mesh.primitives() {
            let what = label(primitive.index());
            let count = self.triangle_vertex_count(&primitive, &what)?;
            let reader = primitive.reader(|buffer| self.buffers.get(buffer.index()).map(Vec::as_slice));
            let read_failed = |attribute: &str| ImportError::Corrupt {
                what: format!("{what} {attribute}"),
                reason: "its data could not be read".into(),
            };
            let mut vertices: Vec<Vertex> = reader
                .read_positions()
                .ok_or_else(|| read_failed("POSITION"))?
                .map(|position| Vertex { position, normal: [0.0; 3], uv: [0.0; 2] })
                .collect();
            if vertices.len() != count {
                return Err(read_failed("POSITION"));
            }
            if let Some(normals) = primitive.get(&gltf::Semantic::Normals) {
                self.check_vertex_attribute(
                    &normals,
                    &format!("{what} NORMAL"),
                    count,
                    &[(Dimensions::Vec3, &[DataType::F32])],
                )?;
                for (vertex, normal) in
                    vertices.iter_mut().zip(reader.read_normals().ok_or_else(|| read_failed("NORMAL"))?)
                {
                    vertex.normal = normal;
                }
            }
            if let Some(uvs) = primitive.get(&gltf::Semantic::TexCoords(0)) {
                let types: &[DataType] = &[DataType::F32, DataType::U8, DataType::U16];
                self.check_vertex_attribute(&uvs, &format!("{what} TEXCOORD_0"), count, &[(Dimensions::Vec2, types)])?;
                let read = reader.read_tex_coords(0).ok_or_else(|| read_failed("TEXCOORD_0"))?;
                for (vertex, uv) in vertices.iter_mut().zip(read.into_f32()) {
                    vertex.uv = uv;
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
            let base = data.vertices.len() as u32;
            data.vertices.extend(vertices);
            data.indices.extend(indices.iter().map(|i| i + base));
        }
        if data.indices.is_empty() {
            return Err(ImportError::Corrupt {
                what: format!("mesh {}", describe(index, names[index])),
                reason: "it has no triangles".into(),
            });
        }
        if let Some(bad) =
            data.vertices.iter().position(|v| !v.position.iter().chain(&v.normal).chain(&v.uv).all(|x| x.is_finite()))
        {
            return Err(ImportError::Corrupt {
                what: format!("mesh {}", describe(index, names[index])),
                reason: format!("vertex {bad} has a non-finite component"),
            });
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
            let what = format!("mesh {} primitive {}", describe(index, names[index]), primitive.index());
            let count = self.triangle_vertex_count(&primitive, &what)?;
            let indices = match primitive.indices() {
                Some(accessor) => {
                    let types: &[DataType] = &[DataType::U8, DataType::U16, DataType::U32];
                    self.check_accessor(&accessor, &format!("{what} indices"), &[(Dimensions::Scalar, types)])?
                }
                None => count,
            };
            size.vertices = size.vertices.saturating_add(count as u64);
            size.indices = size.indices.saturating_add(indices as u64);
        }
        Ok(size)
    }

    /// Checks that a primitive is a triangle list with a valid POSITION accessor; returns its
    /// vertex count. [`GltfFile::mesh`] and [`GltfFile::mesh_size`] refuse the same primitives.
    fn triangle_vertex_count(&self, primitive: &gltf::Primitive, what: &str) -> Result<usize, ImportError> {
        if primitive.mode() != Mode::Triangles {
            return Err(ImportError::Unsupported(format!("{what}: mode {:?}, only triangle lists", primitive.mode())));
        }
        let positions = primitive.get(&gltf::Semantic::Positions).ok_or_else(|| ImportError::Corrupt {
            what: what.to_string(),
            reason: "it has no POSITION attribute".into(),
        })?;
        self.check_accessor(&positions, &format!("{what} POSITION"), &[(Dimensions::Vec3, &[DataType::F32])])
    }

    /// Checks an accessor that the crate's readers will walk: no sparse storage, an allowed
    /// type, and every element inside its view and its buffer. Returns the element count.
    fn check_accessor(
        &self,
        accessor: &gltf::Accessor,
        what: &str,
        allowed: &[(Dimensions, &[DataType])],
    ) -> Result<usize, ImportError> {
        let corrupt = |reason: String| ImportError::Corrupt { what: what.to_string(), reason };
        if accessor.sparse().is_some() {
            return Err(ImportError::Unsupported(format!("{what}: sparse accessor")));
        }
        let (dimensions, data_type) = (accessor.dimensions(), accessor.data_type());
        if !allowed.iter().any(|(d, types)| *d == dimensions && types.contains(&data_type)) {
            return Err(ImportError::Unsupported(format!("{what}: {dimensions:?} of {data_type:?}")));
        }
        let view = accessor.view().ok_or_else(|| corrupt("it has no buffer view".into()))?;
        let count = accessor.count();
        if count == 0 {
            return Err(corrupt("it has no elements".into()));
        }
        let element = accessor.size();
        let stride = view.stride().unwrap_or(element);
        if stride < element {
            return Err(corrupt(format!("stride {stride} is smaller than its {element}-byte elements")));
        }
        let view_bytes = self.view_bytes(&view, what)?;
        let end = (count - 1)
            .checked_mul(stride)
            .and_then(|n| n.checked_add(element))
            .and_then(|n| n.checked_add(accessor.offset()));
        match end {
            Some(end) if end <= view_bytes.len() => Ok(count),
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
    fn zero_normals_are_generated_and_long_ones_shortened() {
        let vertex = |position: [f32; 3], normal: [f32; 3]| Vertex { position, normal, uv: [0.0; 2] };
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
