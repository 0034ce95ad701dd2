//! Writing a preset back out as a TOML file (the demo's save), after folding the person's
//! run-time edits (tuned materials, drawn obstacles, gravity) back into the scene as written.
//!
//! The file is the one the preset was read from, as it was written (`Preset::written`: the values
//! before validation normalised any of them), with the edited values in place of its own:
//! `Preset::parse` of the text gives the same preset back, bit for bit, with no search for the
//! values that normalise to the scene's.

use super::file::ObstacleFile;
use super::{library, Preset};
use crate::sim::scene::material::{Law, MATERIAL_FIELDS};
use crate::sim::scene::resolution::scale_material;
use crate::sim::{Material, Obstacle, Product, Shape, World};
use glam::Vec2;

/// The first line of every saved preset.
const HEADER: &str = "# slosh preset, saved from the demo";

impl Preset {
    /// The preset as the text of a preset file: `Preset::parse` of it gives back the same name,
    /// description, `base_particles`, reference scene and own radius, bit for bit, hence the same
    /// `scene` at the file's own resolution. A preset rescaled by `with_particles` or `at_radius`
    /// is written at its own (unscaled) resolution: parse it, then rescale it the same way.
    pub fn to_toml(&self) -> String {
        let body = toml::to_string(&self.written)
            .expect("a preset file is tables of strings, numbers and arrays: always TOML");
        format!("{HEADER}\n\n{body}")
    }

    /// The preset with the person's run-time edits in place of its own values, in both the
    /// reference scene (what `to_toml` writes) and `scene` (rebuilt from it at the radius in use).
    ///
    /// - `materials`: the preset's materials as tuned at the current resolution, comparable with
    ///   `self.scene.materials` (same length and order, surface tensions for
    ///   `self.scene.params.substeps`). A world's materials are not quite that when it runs more
    ///   substeps than the scene: convert them with `materials_of_world` first. Each value is
    ///   mapped back to the reference radius (the inverse of `Scene::at_particle_radius`); a
    ///   value left as it is in `self.scene` keeps the reference's value exactly.
    /// - `obstacles`: replace the obstacles, in the coordinates of `self.scene` (obstacles do not
    ///   depend on the resolution; a scene widened by `with_particles` for `base_particles` has
    ///   them narrowed back for the reference).
    /// - `gravity`: replaces `params.gravity`.
    ///
    /// Nothing is checked: obstacles too close to a wall or to each other make a file that
    /// `Preset::parse` refuses (`sim::subsystems::obstacles::gap_problem` tells beforehand).
    ///
    /// # Panics
    ///
    /// When `materials` is not as long as `self.scene.materials`.
    pub fn edited(&self, materials: &[Material], obstacles: &[Obstacle], gravity: Vec2) -> Preset {
        assert_eq!(
            materials.len(),
            self.scene.materials.len(),
            "one tuned material for each of the scene's"
        );
        let radius = self.scene.params.particle_radius;
        let mut reference = self.reference.clone();
        for ((kept, current), tuned) in reference
            .materials
            .iter_mut()
            .zip(&self.scene.materials)
            .zip(materials)
        {
            *kept = keep_untouched(kept, current, tuned, self.material_at_reference(tuned));
        }
        let widening = self.widening();
        reference.obstacles = obstacles
            .iter()
            .map(|obstacle| match widening {
                Some(stretch) => narrowed(obstacle, stretch),
                None => *obstacle,
            })
            .collect();
        reference.params.gravity = gravity;
        let rebuilt = reference
            .at_particle_radius(radius)
            .expect("the walls held particles of this radius before the edit");
        let scene = match widening {
            // Keep the widened walls, emitters and blocks (`with_particles`); only the edited
            // values change.
            Some(_) => {
                let mut scene = self.scene.clone();
                scene.materials = rebuilt.materials;
                scene.obstacles = obstacles.to_vec();
                scene.params.gravity = gravity;
                scene
            }
            None => rebuilt,
        };
        let mut written = self.written.clone();
        written.materials = reference.materials.clone();
        written.obstacles = reference.obstacles.iter().map(obstacle_file).collect();
        written.params.gravity = gravity;
        Preset {
            scene,
            reference,
            written,
            ..self.clone()
        }
    }

    /// The preset holding what joined `world` since it was built from `self.scene`
    /// (`World::add_materials`, as pouring a library material the scene lacked does, and
    /// `World::add_body`): the materials after the scene's (the library's of each name, or, for
    /// one the library lacks, the world's mapped back to the reference radius), the reactions
    /// after the scene's, the world's air where the scene had none, and the library's bodies
    /// placed, where they were placed. `edited` and the snapshot then take the world
    /// as one of this preset; a preset whose world gained nothing comes back as it is.
    pub fn holding(&self, world: &World) -> Preset {
        let (own, joined) = (self.scene.materials.len(), world.materials().len());
        let air = world.air().filter(|_| self.scene.air.is_none());
        let placed = world.body_specs();
        let placed = placed.get(self.scene.bodies.len()..).unwrap_or(&[]);
        if joined <= own && air.is_none() && placed.is_empty() {
            return self.clone();
        }
        let mut written = self.written.clone();
        for material in &world.materials()[own.min(joined)..] {
            let reference = library::library().material(&material.name).cloned();
            written
                .materials
                .push(reference.unwrap_or_else(|| self.material_at_reference(material)));
        }
        let named = |name: &str| -> Option<library::ReactionFile> {
            let names = |index: usize| world.materials().get(index).map(|m| m.name.clone());
            let library = library::library().reactions().iter();
            if let Some(file) = library.clone().find(|r| r.name == name) {
                return Some(file.clone());
            }
            let reaction = world.reactions().iter().find(|r| r.name == name)?;
            let product = |product: &Product| match product {
                Product::Vapour => Some("vapour".to_string()),
                Product::Nothing => Some("nothing".to_string()),
                Product::Material(index) => names(*index),
            };
            Some(library::ReactionFile {
                name: name.to_string(),
                between: [names(reaction.between[0])?, names(reaction.between[1])?],
                into: [product(&reaction.into[0])?, product(&reaction.into[1])?],
                rate: reaction.rate,
                heat: reaction.heat,
            })
        };
        let own_reactions = self.scene.reactions.len();
        for reaction in world.reactions().iter().skip(own_reactions) {
            written.reactions.extend(named(&reaction.name));
        }
        if let Some(air) = air {
            written.air = Some(air.settings().clone());
        }
        for body in placed {
            // `crate 2` is the library's crate, placed a second time.
            let base = match body.name.rsplit_once(' ') {
                Some((base, count)) if count.parse::<u32>().is_ok() => base,
                _ => body.name.as_str(),
            };
            if let Some(file) = super::bodies::library_body_file(base) {
                let mut file = file.clone();
                file.name = body.name.clone();
                file.position = body.position.to_array();
                file.angle = body.angle;
                file.velocity = body.velocity.to_array();
                file.angular_velocity = body.angular_velocity;
                written.bodies.push(file);
            }
        }
        let text = toml::to_string(&written).expect("a preset file is always TOML");
        let Ok(reread) = Preset::parse(&self.name, &text) else {
            return self.clone();
        };
        let radius = self.scene.params.particle_radius;
        let Ok(rebuilt) = reread.reference.at_particle_radius(radius) else {
            return self.clone();
        };
        let mut scene = self.scene.clone();
        scene.materials = rebuilt.materials;
        scene.reactions = rebuilt.reactions;
        scene.air = rebuilt.air;
        scene.bodies = rebuilt.bodies;
        Preset {
            scene,
            reference: reread.reference,
            written: reread.written,
            ..self.clone()
        }
    }

    /// The materials of a world built from `self.scene` (`World::materials()`) as `edited`
    /// takes them: `World::new` runs scenes of very unequal masses in more substeps
    /// (`world_substeps`, its `World::params().substeps`), which scales the surface tension
    /// overrides by (scene substeps / world substeps)² (`Scene::with_substeps`); this undoes it
    /// (exactly, for a value left as the world had it).
    ///
    /// # Panics
    ///
    /// When `world_materials` is not as long as `self.scene.materials`.
    pub fn materials_of_world(
        &self,
        world_materials: &[Material],
        world_substeps: u32,
    ) -> Vec<Material> {
        assert_eq!(
            world_materials.len(),
            self.scene.materials.len(),
            "one world material for each of the scene's"
        );
        let substeps = self.scene.params.substeps;
        if world_substeps == substeps || world_substeps == 0 {
            return world_materials.to_vec();
        }
        // As `with_substeps` scales them, and back.
        let tau = substeps as f32 / world_substeps as f32;
        let (forward, back) = (tau * tau, 1.0 / (tau * tau));
        world_materials
            .iter()
            .zip(&self.scene.materials)
            .map(|(world, scene)| {
                let mut material = world.clone();
                material.surface_tension =
                    if world.surface_tension == scene.surface_tension.map(|v| v * forward) {
                        scene.surface_tension
                    } else {
                        world.surface_tension.map(|v| v * back)
                    };
                material
            })
            .collect()
    }

    /// `material`, given at the resolution of `self.scene`, at the reference radius: the inverse
    /// of `Scene::at_particle_radius`'s scaling, the surface tension by the inverse of the
    /// substep change (the reference runs `reference.params.substeps`).
    fn material_at_reference(&self, material: &Material) -> Material {
        let (reference, current) = (&self.reference.params, &self.scene.params);
        let mut back = material.clone();
        scale_material(
            &mut back,
            reference.particle_radius / current.particle_radius,
        );
        if current.substeps != reference.substeps {
            // `with_substeps` took the reference's σs by (reference / current substeps)².
            let tau = current.substeps as f32 / reference.substeps as f32;
            if let Some(tension) = &mut back.surface_tension {
                *tension *= tau * tau;
            }
        }
        back
    }

    /// The stretch `with_particles` widened `scene` by for `base_particles` (None: not widened).
    /// The walls of the two scenes differ by nothing else: `at_particle_radius` keeps them.
    fn widening(&self) -> Option<Vec2> {
        let base = self.base_particles?;
        (self.scene.domain.walls() != self.reference.domain.walls()).then(|| {
            // As `with_particles` computes it, from the count it leaves in `max_particles`.
            Vec2::new(self.scene.params.max_particles as f32 / base as f32, 1.0)
        })
    }
}

/// `tuned` mapped back (`mapped`), but every size-dependent value the person left as it is in
/// the current scene (`current`) kept as the reference has it, free of the rounding of a round
/// trip through the factors.
fn keep_untouched(
    reference: &Material,
    current: &Material,
    tuned: &Material,
    mapped: Material,
) -> Material {
    let mut kept = mapped;
    for row in MATERIAL_FIELDS.iter().filter(|row| row.law != Law::Same) {
        if (row.value)(tuned) == (row.value)(current) {
            (row.put)(&mut kept, (row.value)(reference));
        }
    }
    kept
}

/// `obstacle` with its points divided by `stretch` (radius kept): undoes `with_particles`'s
/// widening.
fn narrowed(obstacle: &Obstacle, stretch: Vec2) -> Obstacle {
    let shape = match obstacle.shape {
        Shape::Circle { centre, radius } => Shape::Circle {
            centre: centre / stretch,
            radius,
        },
        Shape::Capsule { a, b, radius } => Shape::Capsule {
            a: a / stretch,
            b: b / stretch,
            radius,
        },
    };
    Obstacle { shape, ..*obstacle }
}

/// `[[obstacles]]` for `obstacle`, with its friction always written.
fn obstacle_file(obstacle: &Obstacle) -> ObstacleFile {
    let (kind, centre, a, b, radius) = match obstacle.shape {
        Shape::Circle { centre, radius } => ("circle", Some(centre.to_array()), None, None, radius),
        Shape::Capsule { a, b, radius } => (
            "capsule",
            None,
            Some(a.to_array()),
            Some(b.to_array()),
            radius,
        ),
    };
    ObstacleFile {
        kind: kind.into(),
        centre,
        a,
        b,
        radius,
        friction: Some(obstacle.friction),
        temperature: obstacle.temperature,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preset::BUILTIN;
    use crate::sim::numerics::portable::Ordered;
    use crate::sim::Scene;

    /// `preset` saved and read back.
    fn reread(preset: &Preset) -> Preset {
        let text = preset.to_toml();
        assert!(text.starts_with(HEADER), "{text}");
        Preset::parse("x.toml", &text)
            .unwrap_or_else(|error| panic!("{}: {error}\n{text}", preset.name))
    }

    /// Asserts that two scenes are equal field by field (`Scene` has no `PartialEq`).
    fn assert_same_scene(a: &Scene, b: &Scene, what: &str) {
        assert_eq!(a.params, b.params, "{what}: params");
        assert_eq!(a.materials, b.materials, "{what}: materials");
        assert_eq!(a.domain.walls(), b.domain.walls(), "{what}: walls");
        assert_eq!(a.domain.polygon(), b.domain.polygon(), "{what}: polygon");
        assert_eq!(a.obstacles, b.obstacles, "{what}: obstacles");
        assert_eq!(a.emitters, b.emitters, "{what}: emitters");
        assert_eq!(a.blocks, b.blocks, "{what}: blocks");
        assert_eq!(a.air, b.air, "{what}: air");
    }

    /// Asserts that `read` is the same preset as `preset`: texts, reference, own radius, scene.
    fn assert_same_preset(read: &Preset, preset: &Preset) {
        let what = &preset.name;
        assert_eq!(read.name, preset.name);
        assert_eq!(read.description, preset.description, "{what}");
        assert_eq!(read.base_particles, preset.base_particles, "{what}");
        assert_eq!(
            read.own_radius.to_bits(),
            preset.own_radius.to_bits(),
            "{what}"
        );
        assert_same_scene(
            &read.reference,
            &preset.reference,
            &format!("{what} reference"),
        );
        assert_same_scene(&read.scene, &preset.scene, &format!("{what} scene"));
    }

    /// The embedded preset `name`, or `None` where this build refuses it: one with rigid bodies
    /// without the `bodies` feature.
    fn load(name: &str) -> Option<Preset> {
        match Preset::load(name) {
            Err(error) if !cfg!(feature = "bodies") && error.field == "bodies" => None,
            loaded => Some(loaded.unwrap()),
        }
    }

    /// Every embedded preset this build loads, and the same rescaled to four times its
    /// particles.
    fn presets_and_rescaled() -> Vec<(Preset, Preset)> {
        BUILTIN
            .iter()
            .filter_map(|(name, _)| load(name))
            .map(|preset| {
                // `smoke` has no liquid: any count leaves it as it is.
                let particles = (4 * preset.own_particles()).max(1);
                let rescaled = preset.clone().with_particles(particles).unwrap();
                (preset, rescaled)
            })
            .collect()
    }

    fn close(a: f32, b: f32, tolerance: f32) -> bool {
        (a - b).abs() <= tolerance * a.abs().at_least(b.abs())
    }

    /// Asserts that two materials agree within `tolerance` (relative) in every value.
    fn assert_close_material(a: &Material, b: &Material, tolerance: f32, what: &str) {
        let option = |x: Option<f32>, y: Option<f32>| match (x, y) {
            (Some(x), Some(y)) => close(x, y, tolerance),
            (x, y) => x == y,
        };
        // The values that change with the particle size within `tolerance`, the rest exactly.
        let fine = a.name == b.name
            && a.colour == b.colour
            && a.melts_into == b.melts_into
            && a.fixed == b.fixed
            && MATERIAL_FIELDS.iter().all(|row| {
                let (x, y) = ((row.value)(a), (row.value)(b));
                match row.law {
                    Law::Same => x == y,
                    _ => option(x, y),
                }
            });
        assert!(fine, "{what}:\n{a:?}\n{b:?}");
    }

    #[test]
    fn every_builtin_reads_back_the_same() {
        for (preset, _) in presets_and_rescaled() {
            assert_same_preset(&reread(&preset), &preset);
        }
    }

    #[test]
    fn a_rescaled_preset_reads_back_at_its_own_resolution() {
        for (preset, rescaled) in presets_and_rescaled() {
            let read = reread(&rescaled);
            // The file keeps the 1×: the same preset as the unscaled one ...
            assert_same_preset(&read, &preset);
            // ... which rescales to the same scene.
            let again = read
                .with_particles((4 * preset.own_particles()).max(1))
                .unwrap();
            assert_same_scene(&again.scene, &rescaled.scene, &preset.name);
        }
    }

    #[test]
    fn editing_nothing_gives_the_same_preset() {
        for (preset, rescaled) in presets_and_rescaled() {
            for (tuned, what) in [(&preset, "1×"), (&rescaled, "4×")] {
                let scene = &tuned.scene;
                let edited = tuned.edited(&scene.materials, &scene.obstacles, scene.params.gravity);
                for (a, b) in edited
                    .reference
                    .materials
                    .iter()
                    .zip(&preset.reference.materials)
                {
                    assert_close_material(a, b, 1e-6, &format!("{} {what}", preset.name));
                }
                // Untouched values keep their bits.
                assert_same_preset(&edited, tuned);
            }
        }
    }

    #[test]
    fn materials_map_back_to_the_reference() {
        for (preset, rescaled) in presets_and_rescaled() {
            let coarse = preset.at_radius(1.5 * preset.own_radius).ok();
            for scaled in [Some(&preset), Some(&rescaled), coarse.as_ref()]
                .into_iter()
                .flatten()
            {
                for (material, reference) in scaled
                    .scene
                    .materials
                    .iter()
                    .zip(&preset.reference.materials)
                {
                    let back = scaled.material_at_reference(material);
                    let what = format!(
                        "{} at r = {}",
                        preset.name, scaled.scene.params.particle_radius
                    );
                    assert_close_material(&back, reference, 1e-6, &what);
                }
            }
        }
    }

    #[test]
    fn a_value_tuned_at_four_times_the_particles_comes_back_at_the_reference() {
        for name in ["dam", "pachinko", "jelly", "flood"] {
            let Some(preset) = load(name) else { continue };
            let rescaled = preset
                .clone()
                .with_particles(4 * preset.own_particles())
                .unwrap();
            let (scene, reference) = (&rescaled.scene, &preset.reference);
            assert_ne!(scene.params.substeps, reference.params.substeps, "{name}");
            // Every value doubled (springs halved, within their limit; the tension half as much
            // again, within its 30 Δt²), the overrides set where the scene had none.
            let doubled = |value: Option<f32>, default: f32| Some(2.0 * value.unwrap_or(default));
            let half_again =
                |value: Option<f32>, default: f32| Some(1.5 * value.unwrap_or(default));
            let mut tuned = scene.materials.clone();
            let p = &scene.params;
            tuned[0].linear_viscosity = doubled(tuned[0].linear_viscosity, p.linear_viscosity);
            tuned[0].quadratic_viscosity =
                doubled(tuned[0].quadratic_viscosity, p.quadratic_viscosity);
            tuned[0].stiffness = doubled(tuned[0].stiffness, p.stiffness);
            tuned[0].surface_tension = half_again(tuned[0].surface_tension, p.surface_tension);
            tuned[0].spring_stiffness = 0.5 * tuned[0].spring_stiffness + 1.0;
            tuned[0].mass *= 2.0;
            let edited = rescaled.edited(&tuned, &scene.obstacles, scene.params.gravity);
            let (was, now) = (&reference.materials[0], &edited.reference.materials[0]);
            let q = &reference.params;
            let twice = |now: Option<f32>, was: Option<f32>, default: f32| {
                close(now.unwrap(), 2.0 * was.unwrap_or(default), 1e-5)
            };
            assert!(
                twice(
                    now.linear_viscosity,
                    was.linear_viscosity,
                    q.linear_viscosity
                ),
                "{name}: {now:?}"
            );
            assert!(
                twice(
                    now.quadratic_viscosity,
                    was.quadratic_viscosity,
                    q.quadratic_viscosity
                ),
                "{name}"
            );
            assert!(twice(now.stiffness, was.stiffness, q.stiffness), "{name}");
            let tension = 1.5 * was.surface_tension.unwrap_or(q.surface_tension);
            assert!(close(now.surface_tension.unwrap(), tension, 1e-5), "{name}");
            assert!(close(now.mass, 2.0 * was.mass, 1e-5), "{name}");
            // Springs go with λ⁻²: 1 at the fine resolution is less at the reference.
            let lambda = scene.params.particle_radius / q.particle_radius;
            let spring = 0.5 * was.spring_stiffness + lambda * lambda;
            assert!(close(now.spring_stiffness, spring, 1e-5), "{name}");
            // Untouched: exactly as before.
            assert_eq!(now.pressure_scale.to_bits(), was.pressure_scale.to_bits());
            assert_eq!(now.near_stiffness, was.near_stiffness);
            assert_eq!(edited.reference.materials[1..], reference.materials[1..]);
            // The scene is the edited reference at the radius in use, and reads back so.
            let rebuilt = edited
                .reference
                .at_particle_radius(p.particle_radius)
                .unwrap();
            assert_same_scene(&edited.scene, &rebuilt, name);
            assert!(close(
                edited.scene.materials[0].linear_viscosity.unwrap(),
                tuned[0].linear_viscosity.unwrap(),
                1e-5
            ));
            assert_same_preset(
                &reread(&edited),
                &edited.at_radius(preset.own_radius).unwrap(),
            );
        }
    }

    #[test]
    fn an_added_capsule_and_new_gravity_are_saved() {
        let Some(preset) = load("dam") else { return };
        let rescaled = preset
            .clone()
            .with_particles(4 * preset.own_particles())
            .unwrap();
        let capsule = Obstacle::capsule(Vec2::new(10.0, 2.0), Vec2::new(12.0, 3.0), 0.3, 0.2);
        let gravity = Vec2::new(1.5, -9.0);
        for tuned in [&preset, &rescaled] {
            let mut obstacles = tuned.scene.obstacles.clone();
            obstacles.push(capsule);
            let edited = tuned.edited(&tuned.scene.materials, &obstacles, gravity);
            assert_eq!(edited.scene.obstacles, obstacles);
            assert_eq!(edited.scene.params.gravity, gravity);
            let text = edited.to_toml();
            assert!(text.contains("kind = \"capsule\""), "{text}");
            let read = reread(&edited);
            assert_eq!(read.reference.obstacles, obstacles);
            assert_eq!(read.reference.params.gravity, gravity);
            let again = read.with_particles(4 * preset.own_particles()).unwrap();
            assert_eq!(again.scene.obstacles, obstacles);
        }
    }

    #[test]
    fn a_widened_tank_keeps_its_widening() {
        let tank = Preset::load("tank").unwrap();
        let widened = tank.clone().with_particles(12_000).unwrap();
        assert_eq!(widened.widening(), Some(Vec2::new(4.0, 1.0)));
        assert_eq!(tank.widening(), None);
        let capsule = Obstacle::capsule(Vec2::new(40.0, 6.0), Vec2::new(44.0, 6.5), 0.3, 0.2);
        let edited = widened.edited(&widened.scene.materials, &[capsule], Vec2::new(0.0, -5.0));
        assert_eq!(edited.scene.obstacles, [capsule]);
        assert_eq!(edited.scene.domain.walls(), widened.scene.domain.walls());
        assert_eq!(edited.scene.blocks, widened.scene.blocks);
        // The file keeps the 1× tank, the capsule narrowed with it ...
        let read = reread(&edited);
        let narrow = Obstacle::capsule(Vec2::new(10.0, 6.0), Vec2::new(11.0, 6.5), 0.3, 0.2);
        assert_eq!(read.scene.obstacles, [narrow]);
        // ... and widens back to the same scene.
        let again = read.with_particles(12_000).unwrap();
        assert_same_scene(&again.scene, &edited.scene, "tank");
    }

    #[test]
    fn world_materials_convert_back_to_the_scene() {
        for heavy in [16.0, 36.0] {
            let mut preset = Preset::load("pachinko").unwrap();
            preset.reference.materials[0].surface_tension = Some(0.001);
            let mut lead = preset.reference.materials[0].clone();
            lead.name = "lead".into();
            lead.mass = heavy;
            preset.reference.materials.push(lead);
            let preset = preset.at_radius(0.04).unwrap();
            let world = preset.build_world(1);
            let substeps = world.params().substeps;
            assert_eq!(
                substeps,
                preset.scene.params.substeps * (heavy.sqrt() / 2.0) as u32
            );
            let mut materials = world.materials().to_vec();
            assert_ne!(materials, preset.scene.materials);
            assert_eq!(
                preset.materials_of_world(&materials, substeps),
                preset.scene.materials
            );
            // A tension doubled in the world is doubled in the scene.
            materials[1].surface_tension = materials[1].surface_tension.map(|v| 2.0 * v);
            let back = preset.materials_of_world(&materials, substeps);
            let (now, was) = (
                back[1].surface_tension,
                preset.scene.materials[1].surface_tension,
            );
            assert!(
                close(now.unwrap(), 2.0 * was.unwrap(), 1e-6),
                "{now:?} {was:?}"
            );
            assert_eq!(back[0], preset.scene.materials[0]);
        }
    }

    /// Regression test for the search for preimages: values validation normalises (a direction,
    /// a wall's normal and offset, an interaction radius for other particles) are saved as the
    /// file wrote them, so any of them reads back to the same bits.
    #[test]
    fn values_validation_normalises_are_saved_as_written() {
        let text = r#"
            name = "odd"
            description = "directions no search would find"
            [params]
            particle_radius = 0.0173
            interaction_radius = 0.1234567
            [[walls]]
            normal = [0.0, 1.0]
            offset = 0.0
            [[walls]]
            normal = [1.0, 0.1234]
            offset = 0.0
            [[walls]]
            normal = [-0.77, -0.0123]
            offset = -7.654321
            [[walls]]
            normal = [0.0, -3.3]
            offset = -24.1
            [[materials]]
            name = "water"
            colour = [0.2, 0.4, 0.9]
            mass = 1.0
            [[emitters]]
            material = "water"
            position = [4.0, 5.0]
            direction = [0.3123, -1.7771]
            width = 0.3
            speed = 3.0
            rate = 10.0
            budget = 100
        "#;
        let preset = Preset::parse("odd.toml", text).unwrap();
        let back = reread(&preset);
        assert_same_scene(preset.reference(), back.reference(), "odd");
        assert_eq!(preset.scene.emitters, back.scene.emitters);
        let saved = preset.to_toml();
        for written in ["0.1234567", "0.3123", "-1.7771", "-7.654321", "0.1234"] {
            assert!(saved.contains(written), "{written} not in\n{saved}");
        }
    }
}
