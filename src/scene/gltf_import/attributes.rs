//! Vertex attributes as floats, whatever their component type: `KHR_mesh_quantization` stores
//! positions, normals and texture coordinates as (normalised or plain) 8- and 16-bit integers,
//! and `EXT_mesh_gpu_instancing` rotations as normalised ones. The accessor must have been
//! checked ([`GltfFile::check_accessor`]) before it is read here.

use gltf::accessor::{DataType, Iter};

use super::GltfFile;

impl GltfFile {
    /// The accessor's elements as `width` floats each (`width` is its type's: 2, 3 or 4),
    /// flattened; integers are normalised as the glTF specification says where the accessor is
    /// `normalized` (`max(c / 127, -1)` for bytes, `c / 255` for unsigned bytes, likewise for
    /// shorts) and converted as they are otherwise. `None` when the data cannot be read.
    pub(super) fn read_floats(&self, accessor: gltf::Accessor, width: usize) -> Option<Vec<f32>> {
        let normalized = accessor.normalized();
        let get = |buffer: gltf::Buffer| self.buffers.get(buffer.index()).map(Vec::as_slice);
        macro_rules! read {
            ($component:ty, $largest:expr) => {{
                let to_float = |c: $component| {
                    if normalized {
                        (c as f32 / $largest as f32).max(-1.0)
                    } else {
                        c as f32
                    }
                };
                match width {
                    2 => Iter::<[$component; 2]>::new(accessor, get)?.flat_map(|v| v.map(to_float)).collect(),
                    3 => Iter::<[$component; 3]>::new(accessor, get)?.flat_map(|v| v.map(to_float)).collect(),
                    4 => Iter::<[$component; 4]>::new(accessor, get)?.flat_map(|v| v.map(to_float)).collect(),
                    _ => return None,
                }
            }};
        }
        Some(match accessor.data_type() {
            // Floats are never normalised.
            DataType::F32 => match width {
                2 => Iter::<[f32; 2]>::new(accessor, get)?.flatten().collect(),
                3 => Iter::<[f32; 3]>::new(accessor, get)?.flatten().collect(),
                4 => Iter::<[f32; 4]>::new(accessor, get)?.flatten().collect(),
                _ => return None,
            },
            DataType::I8 => read!(i8, i8::MAX),
            DataType::U8 => read!(u8, u8::MAX),
            DataType::I16 => read!(i16, i16::MAX),
            DataType::U16 => read!(u16, u16::MAX),
            DataType::U32 => read!(u32, u32::MAX),
        })
    }
}
