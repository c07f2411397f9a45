//! Every tunable of the engine in one place.
//!
//! WGSL never repeats these numbers: [`wgsl_constants`] turns them into a generated preamble
//! that is prepended to every shader (see `gpu_scene::shader`), so the host and the shaders cannot
//! disagree about a workgroup size or a table length.

/// Threads per workgroup of the cull, build and scatter compute passes. 64 is a multiple of the
/// subgroup width of every desktop GPU (32 on NVIDIA, 64 on AMD, 8–16 on lavapipe).
pub const WORKGROUP_SIZE: u32 = 64;
/// Objects per cell of the cull's hierarchy (`gpu_scene::cells`): the cull tests a cell's
/// bounding sphere before it reads any of its objects.
pub const CELL_OBJECTS: u32 = 64;
/// A cell's sphere is widened, in the cull's test, by this share of the largest magnitude the
/// test's sums carry (the planes' offsets, the caster sweep's length, the centre's
/// coordinates): an object that passes its own test by less than a rounding step of those sums
/// must not sit in a cell that fails (`cell_slack` in `shaders/cull.wgsl`,
/// `passes::cull::cpu::cell_rejected`).
pub const CELL_SLACK: f32 = 1.0e-5;

/// Side of the square workgroups of the passes with a thread per texel (the pyramid's levels,
/// the deferred composite in compute): 8 × 8 = 64 threads (the same multiple of every subgroup
/// width as `WORKGROUP_SIZE`).
pub const TILE_WORKGROUP_SIDE: u32 = 8;

/// wgpu's default `max_compute_workgroups_per_dimension`; dispatches past it are split into a
/// second dimension.
pub const MAX_WORKGROUPS_PER_DIMENSION: u32 = 65_535;

/// Number of render pipeline variants (opaque, masked, double-sided, debug, blend). Each owns
/// a range of batches and one count slot, so the main pass issues one multi-draw per variant
/// (the blended one's draws come from the blend sort instead, `passes::blend`).
pub const VARIANT_COUNT: u32 = 5;

/// `Variant::Blend as u32`, for the shaders (the cull pass lists blended objects for the blend
/// sort instead of batching them).
pub const VARIANT_BLEND: u32 = 4;

/// `Variant::DoubleSided as u32`, for the shaders (the raster pass culls no back faces of it);
/// `gpu_scene::prepare` asserts that they agree.
pub const VARIANT_DOUBLE_SIDED: u32 = 2;
/// `Variant::Masked as u32`, for the shaders (the raster pass alpha-tests it).
pub const VARIANT_MASKED: u32 = 1;
/// `Variant::Opaque as u32`, for the shaders (the cull pass lists the view's occluders from it).
pub const VARIANT_OPAQUE: u32 = 0;

/// Number of animation speed classes. Objects pick an orbit class and a spin class; the CPU
/// evaluates cos/sin once per class per frame, so the GPU and the CPU reference cull with
/// bit-identical inputs.
pub const ANIMATION_CLASSES: u32 = 16;

/// Default largest projected error of a level of detail, in pixels (`--lod-error`). The error
/// is geometric (surface distance), but a coarser level also shades differently: at 1 px the
/// default scene changes far more pixels than tests/lod.rs allows (1% by more than 16/255), at
/// 0.25 px it stays within that, at the cost of more triangles (measured:
/// docs/BENCHMARKS.md § "Default LOD error").
pub const DEFAULT_LOD_ERROR_PX: f32 = 0.25;

/// Default size threshold, in pixels of projected bounding-sphere diameter, below which objects
/// are culled (`--min-pixels`).
pub const DEFAULT_MIN_PIXELS: f32 = 0.5;

/// Least share of triangles a level of detail must drop from the level before it; a coarser
/// level that saves less is not built, and the chain ends there. Below this, switching levels
/// costs more (a bigger arena, one more popping transition) than the triangles it saves.
pub const LOD_MIN_TRIANGLE_SAVING: f32 = 0.15;

/// Most sample points per surface when a level's error is measured
/// ([`crate::mesh::distance`]): a denser mesh is sampled at an even stride through its
/// vertices, edge midpoints and centroids. This bounds the cost of measuring a level whatever
/// the mesh's size (a file of many distinct dense meshes would otherwise spend minutes here);
/// on tessellations and simplified meshes the extremes recur across the surface, so a strided
/// sample finds them (tested within 2% of full sampling on a 256 × 256 sphere).
pub const MAX_DISTANCE_SAMPLES: usize = 1 << 16;

/// Triangle corners a vertex may have before it counts as a hub ([`crate::mesh::valence`]):
/// ten times an ordinary mesh's six.
pub const HUB_CORNERS: u64 = 64;

/// Most work (Σ corners² over the hubs) a mesh may cause before the vertex-cache order and
/// the simplifier, whose time grows with it, are skipped for it: 2^26, a hub of 8,192
/// corners (a 4,096-segment cap is well under it; the 150,000-triangle fan of
/// tests/hostile_files.rs, 2.25 × 10^10, far over).
pub const MAX_HUB_WORK: u64 = 1 << 26;

/// Largest error meshoptimizer may reach while simplifying an imported mesh for one level of
/// detail, relative to the mesh's extent: past a tenth of its size a level reads as a
/// different object, however small on screen. A level that stops short of its triangle target
/// because of it may still be kept (it only has to save `LOD_MIN_TRIANGLE_SAVING`).
pub const LOD_SIMPLIFY_MAX_ERROR: f32 = 0.1;

/// Most levels of detail per mesh (level 0, the full mesh, included).
pub const LOD_LEVELS: u32 = 6;

/// An entry of `instances[]` holds an object id in its low bits and the level of detail it is
/// drawn at from this bit up (for the LOD debug view), so object ids stay below 2^29.
pub const LEVEL_SHIFT: u32 = 29;
const _: () = assert!(LOD_LEVELS <= 1 << (32 - LEVEL_SHIFT), "levels fit above LEVEL_SHIFT");

/// The GPU's counters live in the draw-count buffer after one draw count per variant; these
/// are their slots. Visible: objects that pass the frustum and size tests (what the CPU
/// baseline draws); occlusion culling draws a subset of them.
pub const COUNTER_VISIBLE: u32 = VARIANT_COUNT;
/// Objects whose bounding sphere meets the culling frustum.
pub const COUNTER_IN_FRUSTUM: u32 = VARIANT_COUNT + 1;
/// Objects in the frustum culled for projecting below the size threshold.
pub const COUNTER_TOO_SMALL: u32 = VARIANT_COUNT + 2;
/// Visible objects the second phase found hidden behind the depth pyramid.
pub const COUNTER_OCCLUDED: u32 = VARIANT_COUNT + 3;
/// Objects drawn by the first phase (or the only one without occlusion culling).
pub const COUNTER_DRAWN_EARLY: u32 = VARIANT_COUNT + 4;
/// Objects drawn by the second phase.
pub const COUNTER_DRAWN_LATE: u32 = VARIANT_COUNT + 5;
/// Triangles drawn, a 64-bit count in two words (low, high).
pub const COUNTER_TRIANGLES: u32 = VARIANT_COUNT + 6;
/// Objects drawn at each level of detail, `LOD_LEVELS` slots.
pub const COUNTER_LEVELS: u32 = VARIANT_COUNT + 8;
/// Objects of materials without an alpha test drawn by the compute rasteriser (both phases):
/// the length of the first part of the frame's list of them in `instances[]`
/// (`passes::raster`).
pub const COUNTER_SOFT: u32 = VARIANT_COUNT + 8 + LOD_LEVELS;
/// The length of that part after the first phase, where the second phase's entries start.
pub const COUNTER_SOFT_EARLY: u32 = COUNTER_SOFT + 1;
/// Objects of masked materials drawn by the compute rasteriser: the length of the list's
/// second part, from `FrameUniforms::soft_masked_base`.
pub const COUNTER_SOFT_MASKED: u32 = COUNTER_SOFT + 2;
/// The length of that part after the first phase.
pub const COUNTER_SOFT_MASKED_EARLY: u32 = COUNTER_SOFT + 3;
/// Blended objects the last culling phase listed for the blend sort (`passes::blend`): the
/// length of its key list, then the count of its sorted draws.
pub const COUNTER_BLEND: u32 = COUNTER_SOFT + 4;
/// Large opaque objects the first culling phase (or the only one) listed to be drawn first,
/// nearest first (`passes::build`'s occluder sort): the length of that list, then the count of
/// its sorted draws.
pub const COUNTER_OCCLUDERS: u32 = COUNTER_SOFT + 5;
/// Number of counter slots after the draw counts.
pub const COUNTER_SLOTS: u32 = 14 + LOD_LEVELS;

/// Opaque objects whose bounding sphere projects to at least this radius, in pixels, are the
/// view's occluders: its first main pass draws them before everything else, nearest first, so
/// that the fragments of what they hide fail the depth test instead of being written and
/// overwritten (`shaders/cull.wgsl`'s `is_occluder`). Twice the compute rasteriser's limit;
/// the lower limits measured cost more in the sort than they saved (docs/BENCHMARKS.md §
/// "Occluders first").
pub const OCCLUDER_MIN_RADIUS_PX: f32 = 2.0 * SOFT_MAX_RADIUS_PX;
/// Most occluders a view lists: the sort orders them in one workgroup's memory
/// (`shaders/blend.wgsl`'s `LOCAL_KEYS`); the rest of the large objects are drawn from their
/// batches, after the listed ones.
pub const OCCLUDER_CAPACITY: u32 = 1024;

/// Objects whose bounding sphere projects to at most this radius, in pixels, wherever it is on
/// screen (at its nearest distance, stretched by its angle off the view axis: `is_soft` in
/// `shaders/cull.wgsl`), are drawn by the compute rasteriser (`passes::raster`) where it can
/// draw them: every triangle then fits its window ([`SOFT_MAX_TRIANGLE_PX`], with room for
/// snapping), and it is much cheaper there than the hardware path on a GPU with little raster
/// hardware (the H200: docs/BENCHMARKS.md § "Compute rasteriser against the raster hardware").
/// Larger objects cost the compute rasteriser more than the hardware: a thread per triangle
/// walks every pixel of its box. Of the limits tried, this one gave the fastest frame of the
/// default scene and close to the fastest of the million scene (measured:
/// docs/BENCHMARKS.md § "Compute rasteriser size limit").
pub const SOFT_MAX_RADIUS_PX: f32 = 16.0;
/// Bits of a visibility-buffer payload that hold the triangle within its level; above them the
/// object's place in the frame's list of compute-rasterised objects, and in the top bit
/// [`SOFT_TEXTURED_BIT`].
pub const SOFT_TRIANGLE_BITS: u32 = 10;
/// Most triangles a level may have to be compute-rasterised.
pub const SOFT_MAX_TRIANGLES: u32 = 1 << SOFT_TRIANGLE_BITS;
/// Most objects one frame may compute-rasterise (the payload's bits between the triangle and
/// the textured bit); past it objects go to the hardware path.
pub const SOFT_MAX_OBJECTS: u32 = 1 << (31 - SOFT_TRIANGLE_BITS);
/// Payload bit set when the object's material has a texture, so the list dispatch sorts the
/// pixel into the textured list without looking the object up.
pub const SOFT_TEXTURED_BIT: u32 = 1 << 31;
/// Bit of a deferred pixel's triangle id (`shaders/shared/visibility.wgsl`) set when its
/// object's material reads a texture, so the list dispatch sorts the pixel as it does the
/// compute rasteriser's (`SOFT_TEXTURED_BIT`) without looking the triangle up.
pub const DRAWN_TEXTURED_BIT: u32 = 1 << 31;
/// What the `ids` target holds where no deferred triangle is to be shaded (cleared, or a
/// forward-shaded fragment): no triangle id is all ones (`PreparedScene::triangle_table`).
pub const NO_IDS: u32 = u32::MAX;
/// Threads per workgroup of the raster pass: one workgroup per object, one thread per
/// triangle in turn (32: NVIDIA's subgroup, and the triangle count of most small levels).
pub const RASTER_WORKGROUP_SIZE: u32 = 32;
/// The same on a CPU adapter (`passes::raster::raster_lanes`): 8, the width of the vectors
/// lavapipe runs a workgroup's invocations as (256 bits of 32-bit lanes), so that an object's
/// work is one vector, not four that repeat its fetches with lanes mostly idle (the default
/// scene's frame at 100,000 objects: docs/BENCHMARKS.md § "The compute rasteriser's lanes on a
/// CPU adapter").
pub const CPU_RASTER_WORKGROUP_SIZE: u32 = 8;
/// The occlusion test (`is_occluded` in shaders/cull.wgsl) reads the depth pyramid at the level
/// where an object's screen rectangle is at most this many texels wide and high: up to
/// (this + 1)² texels, each the farthest depth of the pixels it covers. At one texel (up to
/// 2 × 2 read), one gap in the coarser texels let through whatever lay behind it
/// (docs/BENCHMARKS.md § "Visibility from the pixels").
pub const OCCLUSION_TEST_TEXELS: f32 = 4.0;
/// Threads per workgroup of the compute rasteriser's list and shade dispatches.
pub const SHADE_WORKGROUP_SIZE: u32 = 64;
/// Pixels of a row one thread of the list dispatch looks through (one atomic add per segment).
pub const SHADE_LIST_SEGMENT: u32 = 64;
/// Words at the start of the shade list before its entries: per kind of pixel (plain, then
/// textured) the count and its shade dispatch's three workgroup counts.
pub const SHADE_LIST_HEADER: u32 = 8;
/// Widest triangle, in pixels of its bounding box, the raster pass draws: its edge functions,
/// products of two differences of at most 96 × 256 in 1/256 pixels, stay within 32-bit
/// integers (2 × 24,576² < 2³¹). Objects within [`SOFT_MAX_RADIUS_PX`] stay under it.
pub const SOFT_MAX_TRIANGLE_PX: u32 = 96;
const _: () = assert!(2 * (SOFT_MAX_TRIANGLE_PX as u64 * 256).pow(2) < 1 << 31, "edge functions fit in i32");

/// Most object ids a scene may use: ids share a 32-bit `instances[]` entry with the level
/// of detail, so they stay below 2^`LEVEL_SHIFT` whatever the adapter allows.
pub const MAX_OBJECT_IDS: u64 = 1 << LEVEL_SHIFT;

/// Largest file a scene may make the engine read (the scene file itself, a glTF file, an
/// external buffer or image), checked from the file's metadata before it is opened. 1 GiB is
/// several times the largest glTF buffers of public test scenes; past it a file is more likely
/// a mistake (or `/dev/zero` behind a link) than a model.
pub const MAX_INPUT_FILE_BYTES: u64 = 1 << 30;

/// Largest decoded size of one imported image, read from its header before decoding. No
/// texture is kept larger than [`LARGEST_TEXTURE_CLASS`] square, so a bigger image only costs
/// memory and time: 128 MiB holds a 4096 × 4096 RGBA image at 16 bits per channel, or
/// 8192 × 8192 at 16 bits per texel.
pub const MAX_IMAGE_DECODED_BYTES: u64 = 128 << 20;

/// Edge of the smallest texture size class: every texture is a square power of two from this
/// to [`LARGEST_TEXTURE_CLASS`] (the generated textures are this size). A smaller image is
/// resampled up to it: 64 × 64 RGBA with its mips is 21 KiB, less than a slot's bookkeeping is
/// worth saving.
pub const SMALLEST_TEXTURE_CLASS: u32 = 64;

/// Edge of the largest texture size class (and never above the adapter's
/// `max_texture_dimension_2d`): a larger image is resampled down to it. 2048 × 2048 RGBA with
/// its mips is 21.3 MiB; glTF sample models rarely go above it, and 4096 would make one layer
/// 85 MiB, so one large texture could take the whole texture budget of a small GPU.
pub const LARGEST_TEXTURE_CLASS: u32 = 2048;

/// Number of texture size classes (64, 128, …, 2048): one texture array per class and
/// encoding (sRGB colour, linear data) in the `textures` bind group.
pub const TEXTURE_CLASS_COUNT: u32 = LARGEST_TEXTURE_CLASS.ilog2() - SMALLEST_TEXTURE_CLASS.ilog2() + 1;

/// Most texels the images of one load may decode together, read from each image's header
/// before it is decoded: decoding and resampling take time by the texel (a small PNG can
/// describe an 11,500² image), so this bounds how long a load spends on images. 2^28: sixteen
/// 4096² images, or four 8192² ones.
pub const MAX_LOAD_IMAGE_TEXELS: u64 = 1 << 28;

/// Share of physical memory (`MemTotal` in /proc/meminfo) a scene may need by default, as
/// numerator and denominator; `--max-memory` replaces it.
pub const HOST_MEMORY_SHARE: (u64, u64) = (1, 2);

/// Triangles a scene's meshes may have, summed over every distinct mesh and every level of
/// detail, before the build is refused (`--max-triangles`). Building and measuring levels of
/// detail costs time per triangle, so this bounds how long a load builds (about half a minute
/// on a 2-core machine at the measured cost: docs/BENCHMARKS.md § "Build time per triangle");
/// without it a small file of many distinct dense spheres fits the memory budget and builds
/// for most of a minute. 126 spheres of 256 × 256 (21 M triangles) still fit.
pub const MAX_BUILD_TRIANGLES: u64 = 32_000_000;

/// Host memory assumed where /proc/meminfo cannot be read (not Linux): the default budget is
/// this times [`HOST_MEMORY_SHARE`].
pub const FALLBACK_PHYSICAL_MEMORY: u64 = 8 << 30;

/// Peak host bytes one object costs from loading to the first frame: the scene's copy
/// (48 bytes), the GPU-order copy and its upload (96 + 96 on a CPU adapter, whose buffers are
/// host memory), the `instances[]` identity ranges and batch slices (48 + 48), visibility and
/// draw slots. Rounded up from the peak growth per object measured for `render` of the default
/// scene (docs/BENCHMARKS.md § "Host memory per object").
pub const HOST_BYTES_PER_OBJECT: u64 = 400;

/// Host bytes per byte of texture (counted with its mip chain, 4/3 of level 0): the scene's
/// level 0 and the mip chain made at upload (1 together), and the upload itself, host memory on
/// a CPU adapter (1 more). An estimate from those copies, not a measurement.
pub const HOST_BYTES_PER_TEXTURE_BYTE: u64 = 2;

/// Peak host bytes per vertex of the mesh arena (three copies of a 56-byte vertex; the budget
/// checks the size at compile time): the arena, the upload (host memory on a CPU adapter) and a
/// transient copy while meshes are packed. With [`HOST_BYTES_PER_INDEX`] it predicted the
/// measured peak growth of `render` closely: docs/BENCHMARKS.md § "Host memory per vertex and index".
pub const HOST_BYTES_PER_VERTEX: u64 = 3 * 56;

/// Peak host bytes per index of the mesh arena (4 bytes each), counted like vertices.
pub const HOST_BYTES_PER_INDEX: u64 = 3 * 4;

/// Peak host bytes per byte of scene-file text while it is parsed (toml's spanned document and
/// the specs), just above the measured peak: docs/BENCHMARKS.md § "Host memory per byte of scene text".
/// A scene file over the memory budget divided by this is refused before it is read.
pub const HOST_BYTES_PER_SCENE_BYTE: u64 = 48;

/// Host bytes counted per byte of a glTF file against a load's memory budget (the bytes
/// read of buffers and images count once): above the measured peak of parsing its JSON
/// (docs/BENCHMARKS.md § "Host memory per byte of glTF").
pub const HOST_BYTES_PER_GLTF_BYTE: u64 = 6;

/// Transient host bytes per vertex and per index of a glTF mesh while it is imported
/// (read, normals, simplified, its levels measured by `mesh::distance`), on top of what the
/// scene keeps; meshes are imported one at a time, so the largest one counts. Fitted to two
/// measured imports and rounded up (docs/BENCHMARKS.md § "Host memory of a glTF import").
pub const HOST_BYTES_PER_IMPORTED_VERTEX: u64 = 256;
/// See [`HOST_BYTES_PER_IMPORTED_VERTEX`].
pub const HOST_BYTES_PER_IMPORTED_INDEX: u64 = 16;

/// Names longer than this (in characters) get no did-you-mean suggestion (the edit distance
/// costs the product of the two lengths) and are cut to this length in messages.
pub const MAX_NAME_CHARS: usize = 64;

/// Bind group indices any pipeline uses (frame, scene or pass i/o, textures); commands are
/// counted per index up to this.
pub const BIND_GROUPS: usize = 3;

/// Most views one frame renders (the main camera, more cameras), each with its own shadow
/// cascades; sizes the per-view readbacks of a frame.
pub const MAX_VIEWS: usize = 8;

/// Most shadow cascades of one view (`frame::shadows`): the layers of its shadow map.
pub const MAX_CASCADES: usize = 4;

/// Fraction of a cascade, at its far end, over which its shadow fades into the next one's (or,
/// for the last, into no shadow), so the seam between two resolutions does not show as a line
/// (`sunlight` in `shaders/shared/math.wgsl`; the casters' cull widens each cascade's receivers
/// by it, `frame::shadows::fit`).
pub const SHADOW_BLEND: f32 = 0.1;

/// How fast the shadow filter's light follows an edge of the map: at most this fraction of a
/// pixel's light per texel the edge moves. The four bilinear comparison taps half a texel
/// apart (`cascade_light` in `shaders/shared/math.wgsl`) weigh each axis with a kernel whose
/// peak is 1/2, so a caster drawn at a level whose outline is off by `e` texels changes no
/// pixel's light by more than `e / 2`. A cascade's own level of detail may therefore err by
/// the view's `--lod-error` over this slope in its texels (0.5 texel at the default 0.25 px):
/// the light of a pixel moves no more than its coverage may under the view's threshold. What
/// it saves, against a whole texel and a quarter: docs/BENCHMARKS.md § "Cascades, levels of
/// detail and the compute rasteriser's triangles".
pub const SHADOW_FILTER_SLOPE: f32 = 0.5;

/// Most passes one shadow cascade records: its cull, its build, its compute rasteriser's pass,
/// the merge of its small casters with its layer and its depth pass, and with occlusion culling
/// its pyramid and the second phase's five.
pub const CASCADE_PASSES: usize = 11;

/// The shadow casters' depth bias: a constant part in steps of the shadow map's depth format
/// (`passes::shadow::SHADOW_FORMAT`, 16 bits: a step is 1/65,536 of a cascade's depth range,
/// which covers the rounding of a surface to its step), and a factor of the triangle's depth
/// slope per texel, so a surface lit at a grazing angle does not shadow itself. The hardware
/// depth pass applies them as its pipeline's depth bias, the compute rasteriser of small
/// casters adds them itself (`shaders/raster.wgsl`).
pub const SHADOW_BIAS_STEPS: i32 = 2;
pub const SHADOW_BIAS_SLOPE: f32 = 2.0;
/// One step of the shadow map's 16-bit depth.
pub const SHADOW_DEPTH_STEP: f32 = 1.0 / 65536.0;

/// Side of a shadow cascade's depth map, in texels, at most and at least: the view's larger
/// side rounded up to a power of two, within these (so a 1920 × 1080 view gets 2048² per
/// cascade and a small test view a small map).
pub const SHADOW_MAP_MAX_SIZE: u32 = 2048;
pub const SHADOW_MAP_MIN_SIZE: u32 = 256;

/// Most passes one view records: its fullest schedule (two phases with the compute rasteriser
/// and its mark dispatch, the deferred shading and composite, then the blend sort and the blended draws;
/// `frame::plan`'s tests check it).
pub const MAX_VIEW_PASSES: usize = 14;

/// Most passes one frame records: every view's and its cascades', and the scatter of changed object records;
/// sizes the timestamp slots and the per-frame command counts.
pub const MAX_PASSES: usize = MAX_VIEWS * (MAX_VIEW_PASSES + MAX_CASCADES * CASCADE_PASSES) + 1;

/// Number of frames of GPU readbacks (visible counts, timestamps) kept in flight, so reading
/// them never stalls the frame.
pub const READBACK_RING: usize = 3;

/// Bit of `GpuObject::animation` (above the orbit class in bits 0-15 and the spin class in
/// bits 16-29) set when the object's mesh has vertex colours, so the vertex shader reads them
/// (`vertex_colors`); without it the colour is white and nothing is read.
pub const VERTEX_COLORS_BIT: u32 = 1 << 31;
/// Bit of `GpuObject::animation` set when the compute rasteriser can draw the object: its
/// material is opaque, masked or double-sided with its textures, if any, on the first
/// coordinate set, and its mesh has no vertex colours (what `shaders/shade.wgsl` shades;
/// `gpu_scene::prepare::soft_rasterisable`).
pub const SOFT_BIT: u32 = 1 << 30;
/// Mask of the spin class once shifted down from bit 16.
pub const SPIN_MASK: u32 = 0x3fff;
const _: () = assert!(ANIMATION_CLASSES <= SPIN_MASK + 1, "spin classes fit below SOFT_BIT");

/// Bits of `GpuMaterial::vertex_inputs`: the material reads the vertex tangent (it has a normal
/// map) and `TEXCOORD_1` (a texture reads set 1); the vertex shader fetches only what is set.
/// `MAIN_SET_1`: its main coordinate set (the base-colour texture's, or without one the normal
/// map's) is set 1, which the vertex shader then passes first.
pub const READS_TANGENT: u32 = 1;
pub const READS_UV1: u32 = 2;
pub const MAIN_SET_1: u32 = 4;

/// WGSL constants generated from the tunables above. `workgroup_size` may be overridden (tests
/// use a tiny one to push a dispatch past 65,535 workgroups without a multi-gigabyte scene).
pub fn wgsl_constants(workgroup_size: u32) -> String {
    let shadow_bias_constant = SHADOW_BIAS_STEPS as f32 * SHADOW_DEPTH_STEP;
    format!(
        "// Generated by src/tunables.rs; do not edit.\n\
         const WORKGROUP_SIZE: u32 = {workgroup_size}u;\n\
         const CELL_OBJECTS: u32 = {CELL_OBJECTS}u;\n\
         const CELL_SLACK: f32 = {CELL_SLACK:?};\n\
         const MAX_WORKGROUPS_PER_DIMENSION: u32 = {MAX_WORKGROUPS_PER_DIMENSION}u;\n\
         const VARIANT_DOUBLE_SIDED: u32 = {VARIANT_DOUBLE_SIDED}u;\n\
         const VARIANT_MASKED: u32 = {VARIANT_MASKED}u;\n\
         const VARIANT_OPAQUE: u32 = {VARIANT_OPAQUE}u;\n\
         const VARIANT_BLEND: u32 = {VARIANT_BLEND}u;\n\
         const TILE_WORKGROUP_SIDE: u32 = {TILE_WORKGROUP_SIDE}u;\n\
         const VARIANT_COUNT: u32 = {VARIANT_COUNT}u;\n\
         const ANIMATION_CLASSES: u32 = {ANIMATION_CLASSES}u;\n\
         const LOD_LEVELS: u32 = {LOD_LEVELS}u;\n\
         const MAX_CASCADES: u32 = {MAX_CASCADES}u;\n\
         const SHADOW_BLEND: f32 = {SHADOW_BLEND:?};\n\
         const SHADOW_BIAS_CONSTANT: f32 = {shadow_bias_constant:?};\n\
         const SHADOW_BIAS_SLOPE: f32 = {SHADOW_BIAS_SLOPE:?};\n\
         const LEVEL_SHIFT: u32 = {LEVEL_SHIFT}u;\n\
         const VERTEX_COLORS_BIT: u32 = {VERTEX_COLORS_BIT}u;\n\
         const SOFT_BIT: u32 = {SOFT_BIT}u;\n\
         const SPIN_MASK: u32 = {SPIN_MASK}u;\n\
         const SOFT_TRIANGLE_BITS: u32 = {SOFT_TRIANGLE_BITS}u;\n\
         const SOFT_MAX_TRIANGLES: u32 = {SOFT_MAX_TRIANGLES}u;\n\
         const SOFT_MAX_OBJECTS: u32 = {SOFT_MAX_OBJECTS}u;\n\
         const SOFT_TEXTURED_BIT: u32 = {SOFT_TEXTURED_BIT}u;\n\
         const DRAWN_TEXTURED_BIT: u32 = {DRAWN_TEXTURED_BIT}u;\n\
         const NO_IDS: u32 = {NO_IDS}u;\n\
         const SOFT_MAX_TRIANGLE_PX: i32 = {SOFT_MAX_TRIANGLE_PX};\n\
         const RASTER_WORKGROUP_SIZE: u32 = {RASTER_WORKGROUP_SIZE}u;\n\
         const SHADE_WORKGROUP_SIZE: u32 = {SHADE_WORKGROUP_SIZE}u;\n\
         const SHADE_LIST_SEGMENT: u32 = {SHADE_LIST_SEGMENT}u;\n\
         const SHADE_LIST_HEADER: u32 = {SHADE_LIST_HEADER}u;\n\
         const OCCLUSION_TEST_TEXELS: f32 = {OCCLUSION_TEST_TEXELS:?};\n\
         const READS_TANGENT: u32 = {READS_TANGENT}u;\n\
         const READS_UV1: u32 = {READS_UV1}u;\n\
         const MAIN_SET_1: u32 = {MAIN_SET_1}u;\n\
         const COUNTER_VISIBLE: u32 = {COUNTER_VISIBLE}u;\n\
         const COUNTER_IN_FRUSTUM: u32 = {COUNTER_IN_FRUSTUM}u;\n\
         const COUNTER_TOO_SMALL: u32 = {COUNTER_TOO_SMALL}u;\n\
         const COUNTER_OCCLUDED: u32 = {COUNTER_OCCLUDED}u;\n\
         const COUNTER_DRAWN_EARLY: u32 = {COUNTER_DRAWN_EARLY}u;\n\
         const COUNTER_DRAWN_LATE: u32 = {COUNTER_DRAWN_LATE}u;\n\
         const COUNTER_TRIANGLES: u32 = {COUNTER_TRIANGLES}u;\n\
         const COUNTER_LEVELS: u32 = {COUNTER_LEVELS}u;\n\
         const COUNTER_SOFT: u32 = {COUNTER_SOFT}u;\n\
         const COUNTER_SOFT_EARLY: u32 = {COUNTER_SOFT_EARLY}u;\n\
         const COUNTER_SOFT_MASKED: u32 = {COUNTER_SOFT_MASKED}u;\n\
         const COUNTER_SOFT_MASKED_EARLY: u32 = {COUNTER_SOFT_MASKED_EARLY}u;\n\
         const COUNTER_BLEND: u32 = {COUNTER_BLEND}u;\n\
         const COUNTER_OCCLUDERS: u32 = {COUNTER_OCCLUDERS}u;\n\
         const COUNTER_SLOTS: u32 = {COUNTER_SLOTS}u;\n"
    )
}
