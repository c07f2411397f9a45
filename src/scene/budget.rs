//! The resource budget a scene must fit, checked from the parsed file before the work it
//! would cause: object counts before generating, vertex and index counts before building
//! meshes, an image's decoded size before decoding it.
//!
//! Two kinds of limit apply. The adapter's, when a device is known ([`DeviceBudget`], plain
//! numbers: this layer knows no GPU types; `gpu_scene::device_budget` makes them from
//! `wgpu::Limits`): objects against the per-object storage arrays, vertex and index bytes
//! against the largest buffer, texture layers against the array limit. And the host's
//! ([`Budget::host_bytes`], by default a share of physical memory): what the scene costs in
//! memory from loading to its first frame, estimated with the measured per-item costs of
//! [`crate::tunables`]. And the time a load may take, as the triangles to build and measure
//! ([`Budget::triangles`], [`MAX_BUILD_TRIANGLES`] by default).

use crate::mesh::Vertex;
use crate::text;
use crate::tunables::{
    FALLBACK_PHYSICAL_MEMORY, HOST_BYTES_PER_INDEX, HOST_BYTES_PER_OBJECT, HOST_BYTES_PER_SCENE_BYTE,
    HOST_BYTES_PER_TEXTURE_BYTE, HOST_BYTES_PER_VERTEX, HOST_MEMORY_SHARE, MAX_BUILD_TRIANGLES, MAX_OBJECT_IDS,
};

/// Bytes per vertex of the vertex buffer (position, normal, `TEXCOORD_0`: `GpuVertex`).
pub const VERTEX_BYTES: u64 = 32;
/// Bytes per vertex of each optional-input storage array beside it (tangents, colours,
/// `TEXCOORD_1`), each one binding.
pub const OPTIONAL_VERTEX_BYTES: u64 = 8;

// The host estimate counts three copies of each vertex as the CPU keeps it.
const _: () = assert!(HOST_BYTES_PER_VERTEX == 3 * std::mem::size_of::<Vertex>() as u64);
/// Bytes per index of the mesh arena.
pub const INDEX_BYTES: u64 = 4;

/// An adapter's limits, as the scene needs them: plain numbers, since the scene layer knows
/// no GPU types (the engine fills one from `wgpu::Limits` with `gpu_scene::device_budget`).
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceBudget {
    /// Most objects the per-object storage arrays can hold.
    pub max_objects: u64,
    /// What decides `max_objects`, for messages: "max_storage_buffer_binding_size of … bytes
    /// (… bytes per object: at most … objects fit)".
    pub objects_limit: String,
    /// Largest buffer (`max_buffer_size`): the vertex arena and the index arena each.
    pub max_buffer_bytes: u64,
    /// Largest storage binding (`max_storage_buffer_binding_size`): each optional-input array.
    pub max_binding_bytes: u64,
    /// Most layers of one texture array (`max_texture_array_layers`).
    pub max_texture_layers: u64,
    /// Largest texture edge (`max_texture_dimension_2d`): no texture is kept larger.
    pub max_texture_size: u64,
}

/// Everything a scene must fit: host memory, build time (as triangles), and the adapter's
/// limits when one is known. The loaders check it from counts and sizes before building
/// what they count; [`Budget::default`] is a share of physical memory and no adapter.
#[derive(Clone, Debug, PartialEq)]
pub struct Budget {
    /// Host memory the scene may need, in bytes.
    pub host_bytes: u64,
    /// Where `host_bytes` comes from, for messages ("--max-memory", "half of …").
    pub host_source: String,
    /// Triangles of every distinct mesh over all its levels of detail: what building the
    /// meshes costs in time.
    pub triangles: u64,
    /// Where `triangles` comes from, for messages.
    pub triangles_source: String,
    /// The adapter's limits, when known.
    pub device: Option<DeviceBudget>,
}

impl Default for Budget {
    /// The default host budget and no adapter.
    fn default() -> Self {
        Self::host_default()
    }
}

impl Budget {
    /// A share of physical memory (`tunables::HOST_MEMORY_SHARE`), the default triangle
    /// budget, no adapter.
    pub fn host_default() -> Self {
        let (share, of) = HOST_MEMORY_SHARE;
        let (physical, source) = match physical_memory() {
            Some(bytes) => (bytes, "physical memory (MemTotal in /proc/meminfo)"),
            None => (FALLBACK_PHYSICAL_MEMORY, "an assumed physical memory (/proc/meminfo unreadable)"),
        };
        let host_bytes = physical / of * share;
        Self {
            host_bytes,
            host_source: format!(
                "{share}/{of} of the {} bytes of {source}; --max-memory sets it",
                text::count(physical)
            ),
            triangles: MAX_BUILD_TRIANGLES,
            triangles_source: "the default, about half a minute of building; --max-triangles sets it".into(),
            device: None,
        }
    }

    /// A host budget the user set (`--max-memory`).
    pub fn with_host_bytes(self, bytes: u64, source: &str) -> Self {
        Self { host_bytes: bytes, host_source: source.to_string(), ..self }
    }

    /// A triangle budget the user set (`--max-triangles`).
    pub fn with_triangles(self, triangles: u64, source: &str) -> Self {
        Self { triangles, triangles_source: source.to_string(), ..self }
    }

    /// The same budget with an adapter's limits.
    pub fn with_device(self, device: DeviceBudget) -> Self {
        Self { device: Some(device), ..self }
    }

    /// Edge of the largest texture kept: the largest size class, or below it the adapter's
    /// largest texture.
    pub(crate) fn largest_texture(&self) -> u32 {
        let adapter = self.device.as_ref().map_or(u64::MAX, |device| device.max_texture_size);
        crate::scene::textures::largest_class(adapter)
    }

    /// No limit but the object ids': for tests and tools that parse many small files.
    pub fn unlimited() -> Self {
        Self {
            host_bytes: u64::MAX,
            host_source: "no limit".into(),
            triangles: u64::MAX,
            triangles_source: "no limit".into(),
            device: None,
        }
    }

    /// Checks what a scene needs; `cause` names what in the file asks for the quantity that is
    /// over (called only on a refusal).
    #[doc(hidden)]
    pub fn check(&self, needs: &Needs, cause: &dyn Fn(Quantity) -> String) -> Result<(), OverBudget> {
        let over = |quantity: Quantity, needed: String, limit: String| OverBudget {
            quantity: quantity.name(),
            needed,
            limit,
            cause: cause(quantity),
        };
        if needs.objects > MAX_OBJECT_IDS {
            return Err(over(
                Quantity::Objects,
                format!("{} objects", text::count(needs.objects)),
                format!("the engine's limit of {} object ids", text::count(MAX_OBJECT_IDS)),
            ));
        }
        if let Some(device) = &self.device {
            if needs.objects > device.max_objects {
                return Err(over(
                    Quantity::Objects,
                    format!("{} objects", text::count(needs.objects)),
                    format!("this adapter's {}", device.objects_limit),
                ));
            }
            for (quantity, count, unit) in
                [(Quantity::Vertices, needs.vertices, VERTEX_BYTES), (Quantity::Indices, needs.indices, INDEX_BYTES)]
            {
                let bytes = count.saturating_mul(unit);
                if bytes > device.max_buffer_bytes {
                    return Err(over(
                        quantity,
                        format!(
                            "{} bytes of {} ({} × {unit} bytes, every level of detail)",
                            text::count(bytes),
                            quantity.name(),
                            text::count(count)
                        ),
                        format!("this adapter's max_buffer_size of {} bytes", text::count(device.max_buffer_bytes)),
                    ));
                }
            }
            let optional = needs.vertices.saturating_mul(OPTIONAL_VERTEX_BYTES);
            let binding = device.max_binding_bytes.min(device.max_buffer_bytes);
            if optional > binding {
                return Err(over(
                    Quantity::Vertices,
                    format!(
                        "{} bytes for each optional vertex input (tangents, colours, TEXCOORD_1: {} × \
                         {OPTIONAL_VERTEX_BYTES} bytes, every level of detail)",
                        text::count(optional),
                        text::count(needs.vertices)
                    ),
                    format!("this adapter's max_storage_buffer_binding_size of {} bytes", text::count(binding)),
                ));
            }
            if needs.texture_layers > device.max_texture_layers {
                return Err(over(
                    Quantity::TextureLayers,
                    format!("{} texture layers in one texture array", text::count(needs.texture_layers)),
                    format!("this adapter's max_texture_array_layers of {}", text::count(device.max_texture_layers)),
                ));
            }
        }
        let triangles = needs.indices / 3;
        if triangles > self.triangles {
            return Err(over(
                Quantity::Triangles,
                format!("{} triangles to build (every distinct mesh, every level of detail)", text::count(triangles)),
                format!("the budget of {} ({})", text::count(self.triangles), self.triangles_source),
            ));
        }
        let host = needs.host_bytes();
        if host > self.host_bytes {
            return Err(over(
                needs.largest_host_share(),
                format!("about {} bytes of host memory ({})", text::count(host), needs.describe_host()),
                format!("the budget of {} bytes ({})", text::count(self.host_bytes), self.host_source),
            ));
        }
        Ok(())
    }

    /// Checks the size of a scene file's text against what parsing it costs.
    pub(crate) fn check_scene_text(&self, bytes: u64) -> Result<(), OverBudget> {
        let needed = bytes.saturating_mul(HOST_BYTES_PER_SCENE_BYTE);
        if needed > self.host_bytes {
            return Err(OverBudget {
                quantity: Quantity::SceneText.name(),
                needed: format!(
                    "about {} bytes of host memory to parse its {} bytes of text ({HOST_BYTES_PER_SCENE_BYTE} per byte)",
                    text::count(needed),
                    text::count(bytes)
                ),
                limit: format!("the budget of {} bytes ({})", text::count(self.host_bytes), self.host_source),
                cause: "split the scene, or use generated sets (grid, random, rings) instead of long transforms lists".into(),
            });
        }
        Ok(())
    }

    /// Checks, before an image is decoded, the memory it needs to decode (`working_bytes`: the
    /// decoded image and what resampling it holds) on top of the textures made so far
    /// (`texture_bytes`, with mips, this image's included, each counted
    /// [`HOST_BYTES_PER_TEXTURE_BYTE`] times as the scene's estimate counts them). The
    /// per-image limit is the importer's.
    pub(crate) fn check_image(
        &self,
        working_bytes: u64,
        texture_bytes: u64,
        cause: &dyn Fn(Quantity) -> String,
    ) -> Result<(), OverBudget> {
        let textures = texture_bytes.saturating_mul(HOST_BYTES_PER_TEXTURE_BYTE);
        let needed = working_bytes.saturating_add(textures);
        if needed > self.host_bytes {
            let quantity = if textures > working_bytes { Quantity::TextureBytes } else { Quantity::ImageBytes };
            let needed = format!(
                "about {} bytes of host memory: {} to decode this image, and {} for the textures ({} bytes with \
                 their mips × {HOST_BYTES_PER_TEXTURE_BYTE}, this image's included)",
                text::count(needed),
                text::count(working_bytes),
                text::count(textures),
                text::count(texture_bytes)
            );
            return Err(OverBudget {
                quantity: quantity.name(),
                needed,
                limit: format!("the budget of {} bytes ({})", text::count(self.host_bytes), self.host_source),
                cause: cause(quantity),
            });
        }
        Ok(())
    }
}

/// What a scene needs, counted before it is built.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Needs {
    pub objects: u64,
    /// Vertices of every mesh, every level of detail.
    pub vertices: u64,
    pub indices: u64,
    /// Layers of the fullest texture array (one per size class and encoding).
    pub texture_layers: u64,
    /// Bytes of every texture with its mip chain.
    pub texture_bytes: u64,
    /// Host bytes needed for a while on top of the rest: importing the largest glTF mesh.
    pub transient_bytes: u64,
}

impl Needs {
    /// Estimated peak host bytes (saturating).
    pub fn host_bytes(&self) -> u64 {
        self.objects
            .saturating_mul(HOST_BYTES_PER_OBJECT)
            .saturating_add(self.vertices.saturating_mul(HOST_BYTES_PER_VERTEX))
            .saturating_add(self.indices.saturating_mul(HOST_BYTES_PER_INDEX))
            .saturating_add(self.transient_bytes)
            .saturating_add(self.texture_bytes.saturating_mul(HOST_BYTES_PER_TEXTURE_BYTE))
    }

    fn largest_host_share(&self) -> Quantity {
        let shares = [
            (self.objects.saturating_mul(HOST_BYTES_PER_OBJECT), Quantity::Objects),
            (self.vertices.saturating_mul(HOST_BYTES_PER_VERTEX), Quantity::Vertices),
            (self.indices.saturating_mul(HOST_BYTES_PER_INDEX), Quantity::Indices),
            (self.transient_bytes, Quantity::Vertices),
            (self.texture_bytes.saturating_mul(HOST_BYTES_PER_TEXTURE_BYTE), Quantity::TextureBytes),
        ];
        shares.iter().max_by_key(|(bytes, _)| *bytes).map_or(Quantity::Objects, |(_, quantity)| *quantity)
    }

    fn describe_host(&self) -> String {
        let transient = if self.transient_bytes > 0 {
            format!(", {} while importing the largest glTF mesh", text::count(self.transient_bytes))
        } else {
            String::new()
        };
        let textures = if self.texture_bytes > 0 {
            format!(
                ", {} bytes of textures with their mips × {HOST_BYTES_PER_TEXTURE_BYTE}",
                text::count(self.texture_bytes)
            )
        } else {
            String::new()
        };
        format!(
            "{} objects × {HOST_BYTES_PER_OBJECT}, {} vertices × {HOST_BYTES_PER_VERTEX}, {} indices × \
             {HOST_BYTES_PER_INDEX}{transient}{textures}",
            text::count(self.objects),
            text::count(self.vertices),
            text::count(self.indices)
        )
    }
}

/// The quantity a refusal is about, so the caller can say what in the file caused it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantity {
    Objects,
    Vertices,
    Indices,
    /// Indices counted as triangles against the build-time budget.
    Triangles,
    TextureLayers,
    /// Texture bytes (with mips) against host memory.
    TextureBytes,
    ImageBytes,
    SceneText,
}

impl Quantity {
    pub fn name(self) -> &'static str {
        match self {
            Quantity::Objects => "objects",
            Quantity::Vertices => "vertices",
            Quantity::Indices => "indices",
            Quantity::Triangles => "triangles",
            Quantity::TextureLayers => "texture layers",
            Quantity::TextureBytes => "texture bytes",
            Quantity::ImageBytes => "image memory",
            Quantity::SceneText => "bytes of scene-file text",
        }
    }
}

/// A refusal: the quantity, what the scene needs, the limit, and what in the file caused it.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("too many {quantity}: the scene needs {needed}, over {limit}; {cause}")]
pub struct OverBudget {
    /// What is over, in words: `objects`, `vertices`, `texture layers`, `image memory`…
    pub quantity: &'static str,
    /// How much of it the scene needs.
    pub needed: String,
    /// The limit it is over, and where that limit comes from.
    pub limit: String,
    /// What in the scene asks for it, or what to do about it.
    pub cause: String,
}

/// `MemTotal` from /proc/meminfo, in bytes.
pub fn physical_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|line| line.starts_with("MemTotal:"))?;
    let kib: u64 = line.trim_start_matches("MemTotal:").trim().trim_end_matches("kB").trim().parse().ok()?;
    kib.checked_mul(1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn device() -> DeviceBudget {
        DeviceBudget {
            max_objects: 1000,
            objects_limit: "test".into(),
            // 100 vertices, or as many bytes of indices.
            max_buffer_bytes: VERTEX_BYTES * 100,
            max_binding_bytes: VERTEX_BYTES * 100,
            max_texture_layers: 4,
            max_texture_size: 16384,
        }
    }

    #[test]
    fn each_quantity_is_checked() {
        let budget = Budget::unlimited().with_host_bytes(1 << 20, "test").with_device(device());
        let cause = |q: Quantity| format!("caused by {}", q.name());
        let ok = Needs {
            objects: 1000,
            vertices: 100,
            indices: VERTEX_BYTES * 100 / INDEX_BYTES,
            texture_layers: 4,
            texture_bytes: 0,
            transient_bytes: 0,
        };
        budget.check(&ok, &cause).unwrap();
        let refused = |needs: Needs| budget.check(&needs, &cause).unwrap_err();
        assert_eq!(refused(Needs { objects: 1001, ..ok }).quantity, "objects");
        assert_eq!(refused(Needs { vertices: 101, ..ok }).quantity, "vertices");
        assert_eq!(refused(Needs { indices: ok.indices + 1, ..ok }).quantity, "indices");
        assert_eq!(refused(Needs { texture_layers: 5, ..ok }).quantity, "texture layers");
        assert_eq!(refused(Needs { texture_bytes: 1 << 20, ..ok }).quantity, "texture bytes");
        // The optional vertex-input arrays are one binding each: 8 bytes per vertex.
        let narrow =
            Budget::unlimited().with_device(DeviceBudget { max_binding_bytes: OPTIONAL_VERTEX_BYTES * 50, ..device() });
        narrow.check(&Needs { vertices: 50, ..Needs::default() }, &cause).unwrap();
        let error = narrow.check(&Needs { vertices: 51, ..Needs::default() }, &cause).unwrap_err();
        assert_eq!(error.quantity, "vertices");
        assert!(error.to_string().contains("max_storage_buffer_binding_size"), "{error}");
        let few = Budget::unlimited().with_triangles(100, "test");
        few.check(&Needs { indices: 300, ..Needs::default() }, &cause).unwrap();
        let error = few.check(&Needs { indices: 303, ..Needs::default() }, &cause).unwrap_err();
        assert_eq!(error.quantity, "triangles");
        assert!(error.to_string().contains("101 triangles"), "{error}");
        let host = Budget::unlimited().with_host_bytes(1000, "test");
        let error = host.check(&Needs { objects: 3, ..Needs::default() }, &cause).unwrap_err();
        assert!(error.to_string().contains("caused by objects"), "{error}");
        let ids = Budget::unlimited().check(&Needs { objects: u32::MAX as u64, ..Needs::default() }, &cause);
        assert!(ids.unwrap_err().to_string().contains("object ids"));
    }

    #[test]
    fn physical_memory_is_read() {
        if std::path::Path::new("/proc/meminfo").exists() {
            assert!(physical_memory().is_some_and(|bytes| bytes > 1 << 20));
        }
    }
}
