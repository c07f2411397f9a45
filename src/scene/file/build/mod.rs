//! Stages 3 and 4 of loading: checked specs to a [`Scene`]. The object total is computed
//! from the counts alone (a set placing a `[[model]]` counts instances × its parts, counted
//! from the file's node tree, [`models`]) and checked against the budget, then the meshes'
//! sizes (the placed models' distinct meshes too) are planned from their parameters and glTF
//! accessors and checked ([`plan`]), all before any work; then meshes ([`meshes`]), materials
//! and texture layers ([`materials`]), the placed models' meshes, materials and prefabs
//! ([`models`]), object sets ([`objects`]) and the camera ([`camera`]) are built, each kind in the order the file lists
//! it, each error naming where it was written, and the finished state is checked finite.

mod camera;
mod materials;
mod meshes;
mod models;
mod objects;
mod plan;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use toml::Spanned;

use super::spec::{ObjectSetSpec, SceneSpec};
use super::suggest::{closest, short};
use super::{line_column, SceneError};
use crate::mesh::size::MeshSize;
use crate::mesh::MeshArena;
use crate::scene::budget::Budget;
use crate::scene::gltf_import::{self, GltfFile, ImageCache};
use crate::scene::sandbox::Sandbox;
use crate::scene::{Material, Object, Scene};
use materials::LayerSet;
use models::{MeshKey, ModelPlan};

#[derive(Clone, Copy)]
pub(super) struct Options<'a> {
    pub(super) max_objects: u64,
    /// `default_scene_within`: counts come from the command line, not the file.
    pub(super) override_counts: bool,
    pub(super) budget: &'a Budget,
    /// What glTF references may read; `None` for a scene parsed from text alone.
    pub(super) sandbox: Option<&'a Sandbox>,
}

/// One object set's count, for naming what asks for too many objects.
struct SetCount {
    index: usize,
    kind: &'static str,
    count: u64,
    /// Parts per instance where the set places models of more than one part (the count is
    /// instances × parts; a list of models counts its largest).
    parts: Option<u64>,
}

impl SetCount {
    /// "objects[0].random asks for 1,600,000 objects (400,000 instances × 4 parts)".
    fn asks(&self) -> String {
        let count = crate::text::count(self.count);
        let at = format!("objects[{}].{}", self.index, self.kind);
        match self.parts {
            Some(parts) => format!(
                "{at} asks for {count} objects ({} instances × {parts} parts each)",
                crate::text::count(self.count / parts)
            ),
            None => format!("{at} asks for {count} objects"),
        }
    }
}

/// A scene being built from its spec, with the name tables the object sets resolve against.
struct Builder<'a> {
    file: &'a str,
    text: &'a str,
    base_dir: Option<&'a Path>,
    options: Options<'a>,
    /// The object total, from the counts.
    total_objects: u64,
    /// Planned size of each `[[mesh]]` not built yet (index = the file's mesh index), and of
    /// the stress generator's meshes if a stress set will add them.
    planned_meshes: Vec<MeshSize>,
    /// Transient host bytes of importing each planned glTF mesh (0 for procedural ones).
    planned_imports: Vec<u64>,
    planned_stress: MeshSize,
    images: ImageCache,
    animated: bool,
    meshes: MeshArena,
    /// Meshes the file declared, by name (the stress set's own meshes are not addressable).
    mesh_ids: HashMap<String, u32>,
    materials: Vec<Material>,
    material_ids: HashMap<String, u32>,
    base_color_layers: LayerSet,
    normal_layers: LayerSet,
    gltf_files: HashMap<PathBuf, Rc<GltfFile>>,
    /// The scene's `notes`: what each glTF file uses that is not drawn.
    notes: Vec<String>,
    /// `[[model]]`s in the file's order, and their index by name.
    models: Vec<ModelPlan>,
    model_ids: HashMap<String, usize>,
    /// Meshes and materials imported for models, shared within the load.
    gltf_mesh_ids: HashMap<MeshKey, u32>,
    gltf_material_ids: HashMap<(usize, Option<usize>), u32>,
    /// Where the stress generator's meshes and materials start, once appended.
    stress_offsets: Option<(u32, u32)>,
    objects: Vec<Object>,
    /// Half the edge of a box centred on the origin that holds every set; drives the
    /// automatic camera.
    extent: f32,
    /// The farthest one placed mesh or model reaches from its own origin (reach × scale): the
    /// automatic camera stands outside the largest object, not only around the sets' box.
    largest_item: f32,
}

pub(super) fn build(
    spec: SceneSpec,
    text: &str,
    file: &str,
    base_dir: Option<&Path>,
    options: Options,
) -> Result<Scene, SceneError> {
    let mut builder = Builder {
        file,
        text,
        base_dir,
        options,
        total_objects: 0,
        planned_meshes: Vec::new(),
        planned_imports: Vec::new(),
        planned_stress: MeshSize::default(),
        images: ImageCache::default(),
        animated: spec.scene.animated,
        meshes: MeshArena::default(),
        mesh_ids: HashMap::new(),
        materials: Vec::new(),
        material_ids: HashMap::new(),
        base_color_layers: LayerSet::default(),
        normal_layers: LayerSet::default(),
        gltf_files: HashMap::new(),
        notes: Vec::new(),
        models: Vec::new(),
        model_ids: HashMap::new(),
        gltf_mesh_ids: HashMap::new(),
        gltf_material_ids: HashMap::new(),
        stress_offsets: None,
        objects: Vec::new(),
        extent: 0.0,
        largest_item: 0.0,
    };
    // A model's parts are counted (no buffer read) before the object total is known.
    builder.open_models(&spec)?;
    let parts = |name: &str| builder.model_part_count(name).unwrap_or(1);
    let (total, sets) = count_objects(&spec, file, options, &parts)?;
    if total > options.max_objects {
        return Err(SceneError::TooManyObjects { file: file.to_string(), count: total, max: options.max_objects });
    }
    plan::check_objects(file, options.budget, total, &sets, options.override_counts)?;
    if spec.scene.empty && total > 0 {
        return Err(invalid(file, format!("[scene] says empty = true, but the scene has {total} objects")));
    }
    if !spec.scene.empty && spec.objects.is_empty() && !options.override_counts {
        return Err(invalid(
            file,
            "the scene has no objects: add an [[objects]] set, or set empty = true under [scene] for a deliberately empty scene",
        ));
    }
    let name = match &spec.scene.name {
        Some(name) if name.trim().is_empty() => return Err(invalid(file, "[scene] name is empty")),
        Some(name) => name.clone(),
        None => scene_name_from_file(file),
    };

    builder.total_objects = total;
    builder.objects.reserve(total.min(options.max_objects) as usize);
    builder.plan(&spec)?;
    for (index, mesh) in spec.mesh.iter().enumerate() {
        builder.add_mesh(index, mesh)?;
        builder.check_built(index)?;
    }
    for (index, material) in spec.material.iter().enumerate() {
        builder.add_material(index, material)?;
    }
    builder.add_models(spec.mesh.len())?;
    builder.check_layers()?;
    for (index, set) in spec.objects.iter().enumerate() {
        builder.add_objects(index, set)?;
    }
    // Sets that placed nothing drawable (models whose every part is flattened or has no
    // triangles) would draw an empty frame the file did not ask for.
    if !spec.scene.empty && builder.objects.is_empty() && !spec.objects.is_empty() && !options.override_counts {
        return Err(invalid(
            file,
            "the scene's [[objects]] sets place nothing that can be drawn: every part of their models is flattened \
             (a scale of 0, or a matrix that squashes it to a plane or a line) or has no triangles; fix the model, or \
             set empty = true under [scene] for a deliberately empty scene",
        ));
    }
    let camera = builder.camera(spec.camera.as_ref())?;
    let sun = builder.sun(spec.sun.as_ref())?;
    let environment = builder.environment(spec.environment.as_ref())?;
    builder.check_bounds()?;

    Ok(Scene {
        name,
        meshes: builder.meshes,
        materials: builder.materials,
        objects: builder.objects,
        camera,
        sun,
        environment,
        animated: spec.scene.animated,
        base_color_textures: builder.base_color_layers.into_layers(),
        normal_textures: builder.normal_layers.into_layers(),
        notes: builder.notes,
    })
}

/// The objects the file asks for, from its counts alone; also checks each set has exactly
/// one placement kind and positive counts.
/// `parts` gives a model's parts per instance (1 for a name that is not a model: resolving
/// names reports it later); a set of models counts its largest model for every instance.
fn count_objects(
    spec: &SceneSpec,
    file: &str,
    options: Options,
    parts: &dyn Fn(&str) -> u64,
) -> Result<(u64, Vec<SetCount>), SceneError> {
    let most_parts = |one: &Option<Spanned<String>>, many: &Option<Vec<Spanned<String>>>| {
        one.iter().chain(many.iter().flatten()).map(|model| parts(model.get_ref())).max().unwrap_or(1)
    };
    enum Placed {
        Objects(u64),
        /// Instances of models, and the parts of the largest.
        Instances(u64, u64),
    }
    let mut total = 0u64;
    let mut sets = Vec::with_capacity(spec.objects.len());
    for (index, set) in spec.objects.iter().enumerate() {
        let at = |what: &str| format!("objects[{index}].{what}");
        let positive = |what: &str, count: i64| -> Result<u64, SceneError> {
            if count < 1 && !(options.override_counts && count == 0) {
                return Err(invalid(file, format!("{} must be at least 1, got {count}", at(what))));
            }
            Ok(count as u64)
        };
        let kinds: Vec<&str> = [
            ("transforms", set.transforms.is_some()),
            ("grid", set.grid.is_some()),
            ("random", set.random.is_some()),
            ("rings", set.rings.is_some()),
            ("stress", set.stress.is_some()),
        ]
        .iter()
        .filter(|(_, present)| *present)
        .map(|(kind, _)| *kind)
        .collect();
        let placed = match (kinds.as_slice(), set) {
            ([_], ObjectSetSpec { transforms: Some(transforms), .. }) => {
                if transforms.is_empty() {
                    return Err(invalid(file, format!("{} is empty", at("transforms"))));
                }
                Placed::Objects(transforms.iter().fold(0u64, |sum, t| {
                    sum.saturating_add(t.model.as_ref().map_or(1, |model| parts(model.get_ref())))
                }))
            }
            ([_], ObjectSetSpec { grid: Some(grid), .. }) => {
                let mut product = 1u64;
                for (axis, &count) in grid.counts.iter().enumerate() {
                    product = product.saturating_mul(positive(&format!("grid.counts[{axis}]"), count)?);
                }
                Placed::Instances(product, most_parts(&grid.model, &grid.models))
            }
            ([_], ObjectSetSpec { random: Some(random), .. }) => {
                Placed::Instances(positive("random.count", random.count)?, most_parts(&random.model, &random.models))
            }
            ([_], ObjectSetSpec { rings: Some(rings), .. }) => {
                Placed::Instances(positive("rings.count", rings.count)?, most_parts(&rings.model, &rings.models))
            }
            ([_], ObjectSetSpec { stress: Some(stress), .. }) => {
                Placed::Objects(positive("stress.count", stress.count)?)
            }
            _ => {
                let found = if kinds.is_empty() { "none".to_string() } else { kinds.join(" and ") };
                return Err(invalid(
                    file,
                    format!(
                        "objects[{index}] needs exactly one of transforms, grid, random, rings or stress (found {found})"
                    ),
                ));
            }
        };
        let (count, parts) = match placed {
            Placed::Objects(count) => (count, None),
            Placed::Instances(instances, parts) => (instances.saturating_mul(parts), (parts > 1).then_some(parts)),
        };
        total = total.saturating_add(count);
        sets.push(SetCount { index, kind: kinds[0], count, parts });
    }
    Ok((total, sets))
}

fn scene_name_from_file(file: &str) -> String {
    Path::new(file)
        .file_stem()
        .and_then(|stem| stem.to_str())
        .filter(|stem| !stem.is_empty())
        .unwrap_or("scene")
        .to_string()
}

fn invalid(at: impl Into<String>, message: impl Into<String>) -> SceneError {
    SceneError::Invalid { at: at.into(), message: message.into() }
}

impl Builder<'_> {
    /// The scene's sun: the default one where the file has no `[sun]`, each key it gives
    /// replacing the default's.
    fn sun(&self, spec: Option<&super::spec::SunSpec>) -> Result<crate::scene::Sun, SceneError> {
        let mut sun = crate::scene::Sun::default();
        let Some(spec) = spec else { return Ok(sun) };
        let at = |message: String| invalid(self.file, format!("[sun] {message}"));
        if let Some(direction) = &spec.direction {
            let direction = glam::Vec3::from(direction.0);
            sun.direction = direction.try_normalize().filter(|d| d.is_finite()).ok_or_else(|| {
                at(format!(
                    "direction {direction} has no length; give the way the light travels, e.g. [-0.4, -0.8, -0.45]"
                ))
            })?;
        }
        const MOST: f32 = 1000.0;
        if let Some(color) = &spec.color {
            let color = glam::Vec3::from(color.0);
            if color.min_element() < 0.0 || color.max_element() > MOST {
                return Err(at(format!("color {color} is outside [0, {MOST}] (linear RGB)")));
            }
            sun.color = color;
        }
        if let Some(illuminance) = &spec.illuminance {
            let illuminance = illuminance.0;
            if !(0.0..=MOST).contains(&illuminance) {
                return Err(at(format!("illuminance {illuminance} is outside [0, {MOST}]")));
            }
            sun.illuminance = illuminance;
        }
        Ok(sun)
    }

    fn environment(
        &self,
        spec: Option<&super::spec::EnvironmentSpec>,
    ) -> Result<crate::scene::Environment, SceneError> {
        let mut environment = crate::scene::Environment::default();
        let Some(spec) = spec else { return Ok(environment) };
        let at = |message: String| invalid(self.file, format!("[environment] {message}"));
        const MOST: f32 = 1000.0;
        for (key, value, slot) in [
            ("zenith", &spec.zenith, &mut environment.zenith),
            ("horizon", &spec.horizon, &mut environment.horizon),
            ("ground", &spec.ground, &mut environment.ground),
        ] {
            if let Some(color) = value {
                let color = glam::Vec3::from(color.0);
                if color.min_element() < 0.0 || color.max_element() > MOST {
                    return Err(at(format!("{key} {color} is outside [0, {MOST}] (linear RGB)")));
                }
                *slot = color;
            }
        }
        if let Some(intensity) = &spec.intensity {
            if !(0.0..=MOST).contains(&intensity.0) {
                return Err(at(format!("intensity {} is outside [0, {MOST}]", intensity.0)));
            }
            environment.intensity = intensity.0;
        }
        if let Some(exposure) = &spec.exposure {
            if !(exposure.0 > 0.0 && exposure.0 <= MOST) {
                return Err(at(format!("exposure {} is outside (0, {MOST}]", exposure.0)));
            }
            environment.exposure = exposure.0;
        }
        if let Some(tone_mapping) = spec.tone_mapping {
            environment.tone_mapping = match tone_mapping {
                super::spec::ToneMappingSpec::Neutral => crate::scene::ToneMapping::Neutral,
                super::spec::ToneMappingSpec::None => crate::scene::ToneMapping::None,
            };
        }
        Ok(environment)
    }

    /// `file:line:column` of a spanned value.
    fn at<T>(&self, spanned: &Spanned<T>) -> String {
        let (line, column) = line_column(self.text, spanned.span().start);
        format!("{}:{line}:{column}", self.file)
    }

    /// Opens (once per scene) a glTF file named relative to the scene file's directory,
    /// through the sandbox (which refuses what leaves the directory, links included).
    fn gltf_file(&mut self, path: &Spanned<String>) -> Result<Rc<GltfFile>, SceneError> {
        let at = self.at(path);
        let written = path.get_ref();
        let (Some(base_dir), Some(sandbox)) = (self.base_dir, self.options.sandbox) else {
            return Err(invalid(
                at,
                format!(
                    "glTF path \"{}\" needs a scene file on disk to resolve against (this scene was parsed from text)",
                    short(written)
                ),
            ));
        };
        let relative = Path::new(written);
        if written.is_empty() {
            return Err(invalid(at, "glTF path is empty"));
        }
        if relative.has_root() || relative.is_absolute() {
            return Err(invalid(
                at,
                format!("glTF path \"{}\" is absolute; give it relative to the scene file's directory", short(written)),
            ));
        }
        let full = base_dir.join(relative);
        if let Some(file) = self.gltf_files.get(&full) {
            return Ok(file.clone());
        }
        let file = Rc::new(gltf_import::open(&full, sandbox).map_err(|source| SceneError::Gltf {
            at,
            path: short(written),
            source: Box::new(source),
        })?);
        for (found, what) in [
            (file.unsupported(), "uses what multidraw does not draw"),
            (file.broken_rules(), "breaks rules of the glTF 2.0 specification, read as written"),
        ] {
            if !found.is_empty() {
                self.notes.push(format!("glTF file \"{}\" {what}: {}", short(written), found.join("; ")));
            }
        }
        self.gltf_files.insert(full, file.clone());
        Ok(file)
    }

    fn resolve(&self, kind: &'static str, name: &Spanned<String>, context: &str) -> Result<u32, SceneError> {
        let ids = if kind == "mesh" { &self.mesh_ids } else { &self.material_ids };
        if let Some(&id) = ids.get(name.get_ref()) {
            return Ok(id);
        }
        let mut known: Vec<&str> = ids.keys().map(String::as_str).collect();
        known.sort_by_key(|k| ids[*k]);
        let plural = if kind == "mesh" { "meshes" } else { "materials" };
        let hint = match closest(name.get_ref(), &known) {
            Some(close) => format!("did you mean \"{close}\"?"),
            None if known.is_empty() => format!("the scene declares no {plural}; add a [[{kind}]] section"),
            None => format!("the scene declares {}", quoted_list(&known)),
        };
        Err(SceneError::UnknownName {
            at: self.at(name),
            kind,
            name: short(name.get_ref()),
            context: context.to_string(),
            hint,
        })
    }

    fn resolve_all(
        &self,
        kind: &'static str,
        names: &[Spanned<String>],
        context: &str,
    ) -> Result<Vec<u32>, SceneError> {
        if names.is_empty() {
            let field = if kind == "mesh" { "meshes" } else { "materials" };
            return Err(invalid(self.file, format!("{context}.{field} is empty; name at least one {kind}")));
        }
        names.iter().map(|name| self.resolve(kind, name, context)).collect()
    }
}

/// Up to 12 names, quoted, for a message.
fn quoted_list(names: &[&str]) -> String {
    let shown: Vec<String> = names.iter().take(12).map(|n| format!("\"{}\"", short(n))).collect();
    let more = names.len().saturating_sub(12);
    if more > 0 {
        format!("{} and {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}
