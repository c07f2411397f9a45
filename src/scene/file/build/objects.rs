//! `[[objects]]` sets: each one's spec checked and its names resolved (meshes and materials,
//! or models, whose prefabs place one object per part), then handed to its generator in
//! [`crate::scene::placement`]; a `stress` set appends the stress scene. Each set's extent
//! adds how far its meshes or models reach from their origins, for the automatic camera.

use std::rc::Rc;

use glam::{Quat, Vec3};
use toml::Spanned;

use super::materials::LayerSet;
use super::{invalid, Builder};
use crate::scene::file::finite::Finite;
use crate::scene::file::spec::{
    ClassSpec, ExtentSpec, GridSpec, ObjectSetSpec, RandomSpec, RingsSpec, ScaleSpec, StressSpec, TransformSpec,
};
use crate::scene::file::SceneError;
use crate::scene::generator::{self, StressParams};
use crate::scene::placement::prefab::{Prefab, PrefabPalette};
use crate::scene::placement::transforms::Item;
use crate::scene::placement::{self, grid, random, rings, transforms, ClassRange, Fill, Palette, ScaleRange};
use crate::scene::{Material, Object, TextureLayers};
use crate::tunables::ANIMATION_CLASSES;

/// What a generated set picks from, resolved: meshes and materials, or models.
enum Picks {
    Meshes { meshes: Vec<u32>, materials: Vec<u32> },
    Models(Vec<Rc<Prefab>>),
}

/// A generated set's picks, scale range and how far its items reach from their origins.
struct Choices {
    picks: Picks,
    scale: ScaleRange,
    /// The largest reach of the items it picks from, at scale 1.
    reach: f32,
}

impl Choices {
    /// Places the set through `place` with the palette its picks need; returns the set's
    /// extent, the placements' plus the farthest an item reaches at the largest scale.
    fn place(&self, orbit: ClassRange, spin: ClassRange, place: impl FnOnce(&dyn Fill) -> f32) -> f32 {
        let extent = match &self.picks {
            Picks::Meshes { meshes, materials } => {
                place(&Palette { meshes, materials, scale: self.scale, orbit, spin })
            }
            Picks::Models(prefabs) => {
                let prefabs: Vec<&Prefab> = prefabs.iter().map(|prefab| &**prefab).collect();
                place(&PrefabPalette { prefabs: &prefabs, scale: self.scale, orbit, spin })
            }
        };
        extent + self.scale.hi * self.reach
    }
}

/// What a generated set's spec (grid, random, rings) names to pick from, and its scale range.
struct PickSpec<'a> {
    meshes: &'a [Spanned<String>],
    materials: &'a [Spanned<String>],
    model: &'a Option<Spanned<String>>,
    /// `None` where the key is absent.
    models: Option<&'a [Spanned<String>]>,
    scale: Option<ScaleSpec>,
}

trait Picking {
    fn picks(&self) -> PickSpec<'_>;
}

macro_rules! picking {
    ($($spec:ty),*) => {$(
        impl Picking for $spec {
            fn picks(&self) -> PickSpec<'_> {
                PickSpec {
                    meshes: &self.meshes,
                    materials: &self.materials,
                    model: &self.model,
                    models: self.models.as_deref(),
                    scale: self.scale,
                }
            }
        }
    )*};
}

picking!(GridSpec, RandomSpec, RingsSpec);

impl Builder<'_> {
    /// Resolves a generated set's mesh and material names, or its model names, and checks its
    /// scale range.
    fn choices(&self, context: &str, spec: &impl Picking, spin: ClassRange) -> Result<Choices, SceneError> {
        let PickSpec { meshes, materials, model, models, scale } = spec.picks();
        let scale = scale_range(self.file, context, scale)?;
        if models.is_some_and(<[_]>::is_empty) {
            return Err(invalid(self.file, format!("{context}.models is empty; name at least one model")));
        }
        let models = models.unwrap_or_default();
        let named: Vec<&Spanned<String>> = model.iter().chain(models).collect();
        if named.is_empty() {
            let meshes = self.resolve_all("mesh", meshes, context)?;
            let reach = meshes.iter().map(|&mesh| self.mesh_reach(mesh)).fold(0.0, f32::max);
            let materials = self.resolve_all("material", materials, context)?;
            return Ok(Choices { picks: Picks::Meshes { meshes, materials }, scale, reach });
        }
        if model.is_some() && !models.is_empty() {
            return Err(invalid(self.file, format!("{context}: give model or models, not both")));
        }
        if !meshes.is_empty() || !materials.is_empty() {
            return Err(invalid(
                self.file,
                format!("{context}: a set places models (their parts bring meshes and materials) or meshes with materials, not both"),
            ));
        }
        self.refuse_spin(context, spin)?;
        let prefabs = named.into_iter().map(|name| self.resolve_model(name, context)).collect::<Result<Vec<_>, _>>()?;
        let reach = prefabs.iter().map(|prefab| prefab.reach).fold(0.0, f32::max);
        Ok(Choices { picks: Picks::Models(prefabs), scale, reach })
    }

    /// How far a mesh reaches from its origin at scale 1: its bounding sphere's centre distance
    /// plus radius.
    fn mesh_reach(&self, mesh: u32) -> f32 {
        let bounds = self.meshes.meshes[mesh as usize].bounds;
        bounds.truncate().length() + bounds.w
    }

    /// Spin turns each object about its own origin, which would pull a model's parts apart.
    fn refuse_spin(&self, context: &str, spin: ClassRange) -> Result<(), SceneError> {
        if spin != ClassRange::STILL {
            return Err(invalid(
                self.file,
                format!(
                    "{context}: spin turns each object about its own origin, which would pull a model's parts \
                     apart; remove spin from the animation of a set that places models (orbit is fine)"
                ),
            ));
        }
        Ok(())
    }

    /// A placed model's prefab, built by [`Builder::add_models`].
    fn resolve_model(&self, name: &Spanned<String>, context: &str) -> Result<Rc<Prefab>, SceneError> {
        if let Some(prefab) = self.model_ids.get(name.get_ref()).and_then(|&i| self.models[i].prefab.as_ref()) {
            return Ok(prefab.clone());
        }
        let mut known: Vec<&str> = self.model_ids.keys().map(String::as_str).collect();
        known.sort_by_key(|k| self.model_ids[*k]);
        let hint = match super::closest(name.get_ref(), &known) {
            Some(close) => format!("did you mean \"{close}\"?"),
            None if known.is_empty() => "the scene declares no models; add a [[model]] section".into(),
            None => format!("the scene declares {}", super::quoted_list(&known)),
        };
        Err(SceneError::UnknownName {
            at: self.at(name),
            kind: "model",
            name: super::short(name.get_ref()),
            context: context.to_string(),
            hint,
        })
    }

    pub(super) fn add_objects(&mut self, index: usize, set: &ObjectSetSpec) -> Result<(), SceneError> {
        let context = format!("objects[{index}]");
        let animation = set.animation.as_ref();
        if set.stress.is_some() && animation.is_some() {
            return Err(invalid(
                self.file,
                format!("{context}: a stress set picks its own animation classes; remove `animation`"),
            ));
        }
        let orbit = self.class_range(animation.map_or(ClassSpec::Still, |a| a.orbit), &context, "orbit")?;
        let spin = self.class_range(animation.map_or(ClassSpec::Still, |a| a.spin), &context, "spin")?;
        let first = self.objects.len();
        let extent = if let Some(transforms) = &set.transforms {
            self.add_transforms(&context, transforms, orbit, spin, index as u64)?
        } else if let Some(grid) = &set.grid {
            self.add_grid(&format!("{context}.grid"), grid, orbit, spin)?
        } else if let Some(random) = &set.random {
            self.add_random(&format!("{context}.random"), random, orbit, spin)?
        } else if let Some(rings) = &set.rings {
            if orbit != ClassRange::STILL && (rings.center.0[0] != 0.0 || rings.center.0[2] != 0.0) {
                return Err(invalid(
                    self.file,
                    format!(
                        "{context}.rings: orbiting objects turn about the world Y axis, so an animated ring needs \
                         center x and z of 0 (got {:?})",
                        rings.center.0
                    ),
                ));
            }
            self.add_rings(&format!("{context}.rings"), rings, orbit, spin)?
        } else if let Some(stress) = &set.stress {
            self.add_stress(stress)
        } else {
            0.0
        };
        self.extent = self.extent.max(extent);
        for (i, object) in self.objects[first..].iter().enumerate() {
            let field = if !object.translation.is_finite() {
                "position"
            } else if !object.rotation.is_finite() {
                "rotation"
            } else if !object.scale.is_finite() {
                "scale"
            } else {
                continue;
            };
            return Err(invalid(
                self.file,
                format!(
                    "{context}: the {field} of object {i} of the set is not finite (its numbers overflow 32-bit \
                     floats: position {:?}, scale {})",
                    object.translation.to_array(),
                    object.scale
                ),
            ));
        }
        if !extent.is_finite() {
            // An object whose own bounding sphere overflows is the more precise cause.
            self.check_bounds_from(first)?;
            return Err(invalid(
                self.file,
                format!(
                    "{context}: the set reaches beyond 32-bit floats from the origin (a position plus its mesh's or \
                     model's reach times the scale overflows)"
                ),
            ));
        }
        Ok(())
    }

    /// Inclusive class range to draw from.
    fn class_range(&self, spec: ClassSpec, context: &str, what: &str) -> Result<ClassRange, SceneError> {
        let max = ANIMATION_CLASSES as i64 - 1;
        let (lo, hi) = match spec {
            ClassSpec::Still => (0, 0),
            ClassSpec::Random => (1, max),
            ClassSpec::Fixed(class) => (class, class),
            ClassSpec::Range(lo, hi) => (lo, hi),
        };
        if lo < 0 || hi > max || lo > hi {
            return Err(invalid(
                self.file,
                format!("{context}.animation.{what}: classes run from 0 (still) to {max}, got {lo}..={hi}"),
            ));
        }
        Ok(ClassRange { lo: lo as u16, hi: hi as u16 })
    }

    fn add_transforms(
        &mut self,
        context: &str,
        specs: &[TransformSpec],
        orbit: ClassRange,
        spin: ClassRange,
        seed: u64,
    ) -> Result<f32, SceneError> {
        // Resolved first, placed second: a placement borrows the prefab it places.
        let mut resolved = Vec::with_capacity(specs.len());
        for (i, t) in specs.iter().enumerate() {
            let context = format!("{context}.transforms[{i}]");
            let (item, reach) = match (&t.mesh, &t.material, &t.model) {
                (Some(mesh), Some(material), None) => {
                    let mesh = self.resolve("mesh", mesh, &context)?;
                    let material = self.resolve("material", material, &context)?;
                    (Ok((mesh, material)), self.mesh_reach(mesh))
                }
                (None, None, Some(model)) => {
                    self.refuse_spin(&context, spin)?;
                    let prefab = self.resolve_model(model, &context)?;
                    let reach = prefab.reach;
                    (Err(prefab), reach)
                }
                (_, _, Some(_)) => {
                    return Err(invalid(
                        self.file,
                        format!("{context}: a model brings its own meshes and materials; give model alone, or mesh and material"),
                    ))
                }
                (mesh, _, None) => {
                    let missing = if mesh.is_none() { "mesh" } else { "material" };
                    return Err(invalid(self.file, format!("{context}: needs a {missing} (or a model instead of mesh and material)")));
                }
            };
            let rotation = match (t.rotation_degrees, t.quaternion) {
                (Some(_), Some(_)) => {
                    return Err(invalid(self.file, format!("{context}: give rotation_degrees or quaternion, not both")))
                }
                (Some(Finite(degrees)), None) => placement::euler_degrees(degrees),
                (None, Some(Finite(q))) => {
                    // In f64: the squared length of a long quaternion overflows f32, and of a
                    // short one underflows; any non-zero one is a rotation.
                    let q64 = glam::DQuat::from_array(q.map(f64::from));
                    if q64.length() == 0.0 {
                        return Err(invalid(self.file, format!("{context}: quaternion has zero length")));
                    }
                    q64.normalize().as_quat()
                }
                (None, None) => Quat::IDENTITY,
            };
            let scale = t.scale.map_or(1.0, |scale| scale.0);
            if scale <= 0.0 {
                return Err(invalid(self.file, format!("{context}: scale must be positive, got {scale}")));
            }
            resolved.push((Vec3::from(t.position.0), rotation, scale, item, reach));
        }
        let placed: Vec<transforms::Placed> = resolved
            .iter()
            .map(|(translation, rotation, scale, item, reach)| transforms::Placed {
                translation: *translation,
                rotation: *rotation,
                scale: *scale,
                item: match item {
                    Ok((mesh, material)) => Item::Mesh { mesh: *mesh, material: *material },
                    Err(prefab) => Item::Prefab(prefab),
                },
                reach: *reach,
            })
            .collect();
        self.largest_item = placed.iter().map(|p| p.scale * p.reach).fold(self.largest_item, f32::max);
        Ok(transforms::place(&placed, orbit, spin, seed, &mut self.objects))
    }

    fn add_grid(
        &mut self,
        context: &str,
        spec: &GridSpec,
        orbit: ClassRange,
        spin: ClassRange,
    ) -> Result<f32, SceneError> {
        let choices = self.choices(context, spec, spin)?;
        let grid = grid::Grid {
            // count_objects has refused counts below 1.
            counts: spec.counts.map(|c| c.max(0) as u32),
            spacing: Vec3::from(spec.spacing.0),
            center: Vec3::from(spec.center.0),
            rotation: spec.rotation_degrees.map_or(Quat::IDENTITY, |degrees| placement::euler_degrees(degrees.0)),
            seed: spec.seed,
        };
        self.largest_item = self.largest_item.max(choices.scale.hi * choices.reach);
        Ok(choices.place(orbit, spin, |palette| grid::place(&grid, palette, &mut self.objects)))
    }

    fn add_random(
        &mut self,
        context: &str,
        spec: &RandomSpec,
        orbit: ClassRange,
        spin: ClassRange,
    ) -> Result<f32, SceneError> {
        let choices = self.choices(context, spec, spin)?;
        let count = spec.count.max(0) as u32;
        let half_extent = match spec.half_extent.unwrap_or(ExtentSpec::Auto) {
            ExtentSpec::Auto => generator::half_extent(count),
            ExtentSpec::Value(half) if half > 0.0 => half,
            ExtentSpec::Value(half) => {
                return Err(invalid(self.file, format!("{context}.half_extent must be positive, got {half}")))
            }
        };
        let set = random::RandomBox { count, center: Vec3::from(spec.center.0), half_extent, seed: spec.seed };
        self.largest_item = self.largest_item.max(choices.scale.hi * choices.reach);
        Ok(choices.place(orbit, spin, |palette| random::place(&set, palette, &mut self.objects)))
    }

    fn add_rings(
        &mut self,
        context: &str,
        spec: &RingsSpec,
        orbit: ClassRange,
        spin: ClassRange,
    ) -> Result<f32, SceneError> {
        let choices = self.choices(context, spec, spin)?;
        let Finite([inner, outer]) = spec.radius;
        let Finite(thickness) = spec.thickness;
        if inner < 0.0 || outer <= 0.0 || inner > outer {
            return Err(invalid(
                self.file,
                format!("{context}.radius must be [inner, outer] with 0 <= inner <= outer and outer > 0, got [{inner}, {outer}]"),
            ));
        }
        if thickness < 0.0 {
            return Err(invalid(self.file, format!("{context}.thickness must not be negative, got {thickness}")));
        }
        let ring = rings::Annulus {
            count: spec.count.max(0) as u32,
            center: Vec3::from(spec.center.0),
            inner_radius: inner,
            outer_radius: outer,
            thickness,
            seed: spec.seed,
        };
        self.largest_item = self.largest_item.max(choices.scale.hi * choices.reach);
        Ok(choices.place(orbit, spin, |palette| rings::place(&ring, palette, &mut self.objects)))
    }

    /// The built-in stress generator. Its meshes, materials and textures are appended once
    /// per scene, after the file's own; a file holding only a stress set is therefore exactly
    /// `generator::stress_scene`.
    fn add_stress(&mut self, stress: &StressSpec) -> f32 {
        let count = stress.count.max(0) as u32;
        let generated =
            generator::stress_scene(&StressParams { objects: count, seed: stress.seed, animated: self.animated });
        let (mesh_offset, material_offset) = match self.stress_offsets {
            Some(offsets) => offsets,
            None => {
                let offsets = (self.meshes.meshes.len() as u32, self.materials.len() as u32);
                let arena = &generated.meshes;
                for (id, range) in arena.meshes.iter().enumerate() {
                    self.meshes
                        .add_lods(&range.name, arena.chain(id as u32))
                        .expect("the stress scene's meshes are well-formed");
                }
                let base_color = remap_layers(&generated.base_color_textures, &mut self.base_color_layers);
                let normal = remap_layers(&generated.normal_textures, &mut self.normal_layers);
                for material in &generated.materials {
                    self.materials.push(Material {
                        base_color_layer: material.base_color_layer.map(|l| base_color[l as usize]),
                        normal_layer: material.normal_layer.map(|l| normal[l as usize]),
                        ..material.clone()
                    });
                }
                self.stress_offsets = Some(offsets);
                offsets
            }
        };
        self.objects.extend(generated.objects.iter().map(|o| Object {
            mesh: o.mesh + mesh_offset,
            material: o.material + material_offset,
            ..*o
        }));
        generator::half_extent(count)
    }
}

/// The scene's layer of each of the stress scene's layers (the same size: both use
/// [`crate::scene::textures::TEXTURE_SIZE`]).
fn remap_layers(source: &TextureLayers, into: &mut LayerSet) -> Vec<u32> {
    source.layers.iter().map(|layer| into.insert(layer.clone())).collect()
}

fn scale_range(file: &str, context: &str, spec: Option<ScaleSpec>) -> Result<ScaleRange, SceneError> {
    let (lo, hi) = match spec.unwrap_or(ScaleSpec::Fixed(1.0)) {
        ScaleSpec::Fixed(s) => (s, s),
        ScaleSpec::Range(lo, hi) => (lo, hi),
    };
    if !(lo > 0.0 && hi >= lo) {
        return Err(invalid(
            file,
            format!("{context}.scale must be positive (a range needs 0 < min <= max), got {lo}..{hi}"),
        ));
    }
    Ok(ScaleRange { lo, hi })
}
