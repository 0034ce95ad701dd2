//! Run-time edits of a world, the calls a game's tools make: pour and erase liquid, heat or
//! cool it, draw and remove obstacles, tilt gravity, tune a material. Each checks its input and
//! refuses what would break an invariant of the engine (a particle outside the walls or inside a
//! solid, a value outside the ranges the preset loader accepts) with an `EditError`, never a panic.

use super::World;
use crate::sim::numerics::portable::Ordered;
use crate::sim::scene::air::AirSettings;
use crate::sim::scene::material::{Tunable, MATERIAL_FIELDS, TEMPERATURE};
use crate::sim::scene::params::SimParams;
use crate::sim::scene::ranges::{self, Field, Scale};
use crate::sim::scene::resolution::{rescale_substeps, scale_material, REFERENCE_RADIUS};
use crate::sim::scene::{Material, Obstacle, Product, Reaction};
use crate::sim::stages::contact::collide;
use crate::sim::stages::liquid::{contrast_substep_factor, Liquid};
use crate::sim::stages::stability;
use crate::sim::subsystems::air::Air;
use crate::sim::subsystems::granular::Granular;
use crate::sim::subsystems::heat::Heat;
use crate::sim::subsystems::obstacles::{gap_problem, way_out};
use glam::Vec2;
use rayon::prelude::*;
use std::fmt;

/// Why an edit was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum EditError {
    /// No material with this index.
    NoMaterial(usize),
    /// No obstacle with this index.
    NoObstacle(usize),
    /// No body there (or none held, or none with that index).
    NoBody,
    /// A position, size or velocity that is not a finite number.
    NotFinite(&'static str),
    /// A value outside its accepted range: the field, the value and the range.
    OutOfRange {
        /// Which value.
        field: &'static str,
        /// What was asked for.
        value: f32,
        /// Smallest accepted.
        low: f32,
        /// Largest accepted.
        high: f32,
    },
    /// A value no world holds calm, even at `stability::MAX_STABILITY_SUBSTEPS` substeps per
    /// frame (values inside the preset files' ranges never are).
    Boils {
        /// Which value.
        field: &'static str,
        /// What was asked for.
        value: f32,
        /// The largest calm value at the most substeps.
        limit: f32,
    },
    /// An obstacle that leaves too narrow a gap to a wall or another obstacle.
    Gap(String),
    /// A change the engine cannot make at run time.
    Unsupported(&'static str),
    /// An edit the game's rules refuse: a level allows only some tools, and only so much.
    Refused(String),
    /// Materials that cannot join the world (`World::add_materials`), and why.
    Arrival(String),
    /// No room for a body where it was placed (`World::add_body`), and why.
    NoRoom(String),
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoMaterial(index) => write!(f, "no material {index}"),
            Self::NoObstacle(index) => write!(f, "no obstacle {index}"),
            Self::NoBody => write!(f, "no body there"),
            Self::NotFinite(what) => write!(f, "{what} must be a finite number"),
            Self::OutOfRange {
                field,
                value,
                low,
                high,
            } => write!(f, "{field} must be from {low} to {high}, got {value}"),
            Self::Boils {
                field,
                value,
                limit,
            } => write!(
                f,
                "{field} {value} would boil even at {} substeps per frame: at most {limit}",
                stability::MAX_STABILITY_SUBSTEPS
            ),
            Self::Gap(problem) => write!(f, "the obstacle {problem}"),
            Self::Unsupported(what) => write!(f, "{what}"),
            Self::Refused(why) | Self::Arrival(why) => write!(f, "{why}"),
            Self::NoRoom(why) => write!(f, "no room for the body there: it {why}"),
        }
    }
}

impl std::error::Error for EditError {}

/// Liquid poured from a disc: every free site of a lattice of one particle diameter inside the
/// disc gets a particle, so holding a pour fills the disc as fast as the liquid leaves it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pour {
    /// Index of the material poured.
    pub material: usize,
    /// Centre of the disc.
    pub centre: Vec2,
    /// Radius of the disc.
    pub radius: f32,
    /// Velocity of the new particles.
    pub velocity: Vec2,
}

/// Materials joining a running world (`World::add_materials`), with what they bring.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Arrival {
    /// The materials, as a preset file writes them: at the reference particle radius
    /// (`sim::scene::resolution::REFERENCE_RADIUS`) and the default substeps per frame; the world
    /// rescales them to its own.
    pub materials: Vec<Material>,
    /// The reactions they take part in, by the indices of the world's materials followed by
    /// these; they follow the world's own.
    pub reactions: Vec<Reaction>,
    /// The air, for a world without it (what boils or burns needs it to carry the vapour and
    /// the smoke); a world with air keeps its own.
    pub air: Option<AirSettings>,
}

/// What a pour did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Poured {
    /// Particles added.
    pub added: usize,
    /// The particle cap stopped the pour.
    pub capped: bool,
}

/// A site is free when no particle is nearer than this fraction of the lattice spacing.
const FREE_SITE: f32 = 0.9;

/// Fastest `World::heat_under` heats or cools, in degrees per second either way: fast enough
/// to cross the whole range of temperatures (`ranges::TEMPERATURE`) in one frame of any scene.
pub const MAX_HEAT_RATE: f32 = 1.0e6;

/// `value` when the table's `field` (`sim::scene::ranges`) takes it in a world measured by `scale`;
/// `name` says which value in the error.
pub(super) fn check(
    name: &'static str,
    field: &Field,
    value: f32,
    scale: &Scale,
) -> Result<f32, EditError> {
    if !value.is_finite() {
        return Err(EditError::NotFinite(name));
    }
    field.check(value, scale).map_err(|_| {
        let (low, high) = field.range(scale);
        EditError::OutOfRange {
            field: name,
            value,
            low,
            high,
        }
    })
}

/// `value` when it is finite and from `low` to `high`: a value the table of fields does not
/// bound in this world's units (a constant `sim::scene::resolution` rescales, a tool's radius);
/// `name` says which value in the error.
fn within(name: &'static str, value: f32, low: f32, high: f32) -> Result<f32, EditError> {
    if !value.is_finite() {
        return Err(EditError::NotFinite(name));
    }
    if !(low..=high).contains(&value) {
        return Err(EditError::OutOfRange {
            field: name,
            value,
            low,
            high,
        });
    }
    Ok(value)
}

pub(super) fn finite(what: &'static str, value: Vec2) -> Result<Vec2, EditError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(EditError::NotFinite(what))
    }
}

impl World {
    /// Adds one particle of `material` at `position` with `velocity`. Returns `Ok(false)` when
    /// the particle cap or a solid stops it (a position outside the walls, or within one particle
    /// radius of an obstacle, is no place for a particle).
    /// ```
    /// use glam::Vec2;
    ///
    /// // The seed's box, before its emitters start.
    /// let mut world = slosh::preset::Preset::load("seed")?.build_world(1);
    /// let before = world.particles().len();
    /// assert!(world.add_particle(0, Vec2::new(5.0, 5.0), Vec2::new(-1.0, 0.0))?);
    /// assert_eq!(world.particles().len(), before + 1);
    /// assert!(!world.add_particle(0, Vec2::new(40.0, 6.0), Vec2::ZERO)?, "outside the walls");
    /// assert!(world.add_particle(9, Vec2::new(5.0, 5.0), Vec2::ZERO).is_err(), "no material 9");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_particle(
        &mut self,
        material: usize,
        position: Vec2,
        velocity: Vec2,
    ) -> Result<bool, EditError> {
        self.material_index(material)?;
        let position = finite("position", position)?;
        let velocity = finite("velocity", velocity)?;
        let inside = self
            .domain
            .contains_with_margin(position, self.params.particle_radius);
        if !inside || self.subsystems.occupies(position) {
            return Ok(false);
        }
        Ok(self.spawn(material, position, velocity))
    }

    /// Pours liquid (see `Pour`): fills the free lattice sites of the disc that lie inside the
    /// walls and outside every obstacle, up to the particle cap.
    /// ```
    /// use glam::Vec2;
    /// use slosh::sim::Pour;
    ///
    /// let mut world = slosh::preset::Preset::load("seed")?.build_world(1);
    /// let poured = world.pour(Pour {
    ///     material: 0,
    ///     centre: Vec2::new(5.0, 5.0),
    ///     radius: 0.5,
    ///     velocity: Vec2::new(0.0, -2.0),
    /// })?;
    /// assert!(poured.added > 50 && !poured.capped);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn pour(&mut self, pour: Pour) -> Result<Poured, EditError> {
        self.material_index(pour.material)?;
        let centre = finite("pour centre", pour.centre)?;
        let velocity = finite("pour velocity", pour.velocity)?;
        let spacing = 2.0 * self.params.particle_radius;
        let extent = crate::sim::numerics::portable::largest(self.domain.max() - self.domain.min());
        let radius = within("pour radius", pour.radius, 0.0, extent)?;
        // Lattice sites anchored at the origin, so that a pour held still fills the same sites.
        let reach = (radius / spacing).ceil() as i64;
        let base = (centre / spacing).round();
        let (bx, by) = (base.x as i64, base.y as i64);
        let side = (2 * reach + 1) as usize;
        let mut taken = vec![false; side * side];
        let near = FREE_SITE * spacing;
        let position = &self.particles.position;
        let nearby: Vec<Vec2> = position
            .par_iter()
            .with_min_len(crate::sim::numerics::LIGHT_CHUNK)
            .filter(|p| (**p - centre).length_squared() < (radius + spacing) * (radius + spacing))
            .copied()
            .collect();
        for p in nearby {
            let cell = (p / spacing).round();
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let (sx, sy) = (cell.x as i64 + dx, cell.y as i64 + dy);
                    let (u, v) = (sx - bx + reach, sy - by + reach);
                    if u < 0 || v < 0 || u >= side as i64 || v >= side as i64 {
                        continue;
                    }
                    let site = Vec2::new(sx as f32, sy as f32) * spacing;
                    if (site - p).length_squared() < near * near {
                        taken[v as usize * side + u as usize] = true;
                    }
                }
            }
        }
        let mut poured = Poured::default();
        for v in 0..side {
            for u in 0..side {
                if taken[v * side + u] {
                    continue;
                }
                let sx = bx + u as i64 - reach;
                let sy = by + v as i64 - reach;
                let site = Vec2::new(sx as f32, sy as f32) * spacing;
                if (site - centre).length_squared() > radius * radius {
                    continue;
                }
                if self.particles.len() >= self.params.max_particles {
                    poured.capped = true;
                    return Ok(poured);
                }
                if self.add_particle(pour.material, site, velocity)? {
                    poured.added += 1;
                }
            }
        }
        Ok(poured)
    }

    /// Removes every particle whose centre is within `radius` of `centre`; returns how many.
    /// Their springs go with them; the ids of the others stay.
    /// ```
    /// use glam::Vec2;
    ///
    /// let mut world = slosh::preset::Preset::load("tank")?.build_world(1);
    /// let gone = world.erase(Vec2::new(2.0, 1.0), 0.5)?;
    /// assert!(gone > 50);
    /// assert!(world.erase(Vec2::new(2.0, 1.0), -1.0).is_err(), "a negative radius is refused");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn erase(&mut self, centre: Vec2, radius: f32) -> Result<usize, EditError> {
        let centre = finite("erase centre", centre)?;
        let radius = within("erase radius", radius, 0.0, f32::MAX)?;
        let keep: Vec<bool> = self
            .particles
            .position
            .par_iter()
            .with_min_len(crate::sim::numerics::LIGHT_CHUNK)
            .map(|p| (*p - centre).length_squared() >= radius * radius)
            .collect();
        self.queries.invalidate();
        Ok(self.particles.retain(&keep))
    }

    /// Heats (a positive `rate`) or cools (a negative one) every particle whose centre is
    /// within `radius` of `centre` by `rate` degrees per second for one frame, `1 /
    /// params().frame_rate` seconds (a heating or cooling tool held there, once per frame).
    /// Each temperature stays within `ranges::TEMPERATURE`. Returns how many particles it
    /// touched. Refused: a centre, radius or rate that is not finite, a negative radius, a rate
    /// beyond ±`MAX_HEAT_RATE`.
    /// ```
    /// use glam::Vec2;
    ///
    /// // The kettle's pool conducts heat: a torch held on it warms the water under it.
    /// let mut world = slosh::preset::Preset::load("kettle")?.build_world(1);
    /// let before = world.temperature_near(Vec2::new(3.0, 1.0), 0.3).unwrap();
    /// world.heat_under(Vec2::new(3.0, 1.0), 0.3, 200.0)?;
    /// let after = world.temperature_near(Vec2::new(3.0, 1.0), 0.3).unwrap();
    /// assert!((after - before - 200.0 / world.params().frame_rate).abs() < 1e-3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn heat_under(&mut self, centre: Vec2, radius: f32, rate: f32) -> Result<usize, EditError> {
        let centre = finite("heat centre", centre)?;
        let radius = within("heat radius", radius, 0.0, f32::MAX)?;
        let rate = within("heat rate", rate, -MAX_HEAT_RATE, MAX_HEAT_RATE)?;
        let (low, high) = TEMPERATURE.range(&Scale::of(&self.params));
        // Never 0 / 0: a frame rate of 0 (which the loader refuses) heats at once to the end.
        let change = rate / self.params.frame_rate.at_least(f32::MIN_POSITIVE);
        let reach = radius * radius;
        let p = &mut self.particles;
        let touched = (&p.position, &mut p.temperature)
            .into_par_iter()
            .with_min_len(crate::sim::numerics::LIGHT_CHUNK)
            .map(|(x, t)| {
                if (*x - centre).length_squared() > reach {
                    return 0;
                }
                *t = (*t + change).at_least(low).at_most(high);
                1
            })
            .sum();
        Ok(touched)
    }

    /// Adds a static obstacle; returns its index. Refused when it is not finite, larger than
    /// `ranges::OBSTACLE_RADIUS`, or closer than two particle radii to a wall or another
    /// obstacle (the gap that keeps particles from being squeezed between solids). Particles
    /// inside it are moved out to its surface at once, their velocity into it removed.
    /// ```
    /// use glam::Vec2;
    /// use slosh::sim::Obstacle;
    ///
    /// let mut world = slosh::preset::Preset::load("tank")?.build_world(1);
    /// let post = world.add_obstacle(Obstacle::circle(Vec2::new(10.0, 1.0), 0.4, 0.0))?;
    /// assert_eq!(world.obstacle_at(Vec2::new(10.0, 1.1)), Some(post));
    /// world.remove_obstacle(post)?;
    /// assert_eq!(world.obstacle_at(Vec2::new(10.0, 1.1)), None);
    /// // Too near the floor: a particle could not pass between them.
    /// assert!(world.add_obstacle(Obstacle::circle(Vec2::new(10.0, 0.45), 0.4, 0.0)).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_obstacle(&mut self, obstacle: Obstacle) -> Result<usize, EditError> {
        let (a, b) = obstacle.core();
        finite("obstacle position", a)?;
        finite("obstacle position", b)?;
        let fixed = Scale::default();
        check(
            "obstacle radius",
            &ranges::OBSTACLE_RADIUS,
            obstacle.radius(),
            &fixed,
        )?;
        check(
            "obstacle friction",
            &ranges::OBSTACLE_FRICTION,
            obstacle.friction,
            &fixed,
        )?;
        let mut obstacles = self.obstacles().to_vec();
        obstacles.push(obstacle);
        if let Some((_, problem)) =
            gap_problem(&obstacles, &self.domain, self.params.particle_radius)
        {
            return Err(EditError::Gap(problem));
        }
        let (gap, room) = (
            2.0 * self.params.particle_radius,
            self.bodies_distance_to(&obstacle),
        );
        if room < gap {
            return Err(EditError::Gap(format!(
                "must keep {gap} (2 particle radii) from every body, but its surface is {room} \
                 from one"
            )));
        }
        let radius = self.params.particle_radius;
        self.queries.invalidate();
        let p = &mut self.particles;
        (&mut p.position, &mut p.velocity)
            .into_par_iter()
            .with_min_len(crate::sim::numerics::LIGHT_CHUNK)
            .for_each(|(x, v)| {
                // As the move stage pushes particles out, but without friction: a wall laid
                // over the liquid only stops what moves into it.
                if let Some((out, normal)) = way_out(&obstacle, radius, *x, *x) {
                    *x = out;
                    *v = collide(*v, normal, 0.0);
                }
            });
        self.set_obstacles(obstacles);
        Ok(self.obstacles().len() - 1)
    }

    /// Removes obstacle `index` (later ones move down by one); returns it.
    pub fn remove_obstacle(&mut self, index: usize) -> Result<Obstacle, EditError> {
        let mut obstacles = self.obstacles().to_vec();
        if index >= obstacles.len() {
            return Err(EditError::NoObstacle(index));
        }
        let removed = obstacles.remove(index);
        self.set_obstacles(obstacles);
        Ok(removed)
    }

    /// The last-drawn obstacle whose solid contains `point`, if any.
    pub fn obstacle_at(&self, point: Vec2) -> Option<usize> {
        self.obstacles()
            .iter()
            .rposition(|obstacle| obstacle.distance(point) <= 0.0)
    }

    /// Sets gravity (each component within `ranges::GRAVITY`); the next substep feels it. A
    /// gravity stronger than the world's substeps hold calm makes it run the substeps it needs
    /// (`settle_substeps`).
    /// ```
    /// use glam::Vec2;
    ///
    /// let mut world = slosh::preset::Preset::load("tank")?.build_world(1);
    /// world.set_gravity(Vec2::new(3.0, -9.0))?; // the box tilted
    /// assert_eq!(world.params().gravity, Vec2::new(3.0, -9.0));
    /// assert!(world.set_gravity(Vec2::new(f32::NAN, 0.0)).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_gravity(&mut self, gravity: Vec2) -> Result<(), EditError> {
        check("gravity x", &ranges::GRAVITY, gravity.x, &Scale::default())?;
        check("gravity y", &ranges::GRAVITY, gravity.y, &Scale::default())?;
        let candidate = SimParams {
            gravity,
            ..self.params.clone()
        };
        let most = stability::calm_gravity(
            &candidate,
            &self.materials,
            stability::MAX_STABILITY_SUBSTEPS,
        );
        if gravity.length() > most {
            return Err(EditError::Boils {
                field: "gravity",
                value: gravity.length(),
                limit: most,
            });
        }
        self.params.gravity = gravity;
        self.settle_substeps();
        Ok(())
    }

    /// Runs the substeps the world's values need: its own (the scene's), or more where a
    /// stiffness, near stiffness or gravity asks for them (`stability::substeps_needed`), with
    /// the surface tension rescaled as `Scene::with_substeps` does, so the liquid stays the same
    /// liquid. An edit that lowers the value gives the substeps back.
    fn settle_substeps(&mut self) {
        let needs = stability::substeps_needed(&self.params, &self.materials, self.own_substeps);
        let target = needs.first().map_or(self.own_substeps, |&(_, needed)| {
            needed.min(stability::MAX_STABILITY_SUBSTEPS)
        });
        if target != self.params.substeps {
            rescale_substeps(&mut self.params, &mut self.materials, target);
            self.dt = self.params.dt();
            self.take_mechanics();
        }
        self.stability_substeps = needs;
    }

    /// Replaces material `index` with `material`, in the units `World::materials` gives (the
    /// constants of this world's resolution). The name, colour and mass stay those of the scene
    /// (a mass change would change the substeps a scene needs, see `liquid`); a stiffness must
    /// stay calm at the most substeps a world runs (`stability::calm_stiffness`), and every
    /// value must be finite and within its range of the preset files, in this world's units:
    /// the bounds that are plain numbers rescaled by the field's `Law` to this world's particle
    /// size, the others (the spring stiffness's 0.05 / Δt², the tension's 30 Δt²) taken at its
    /// substep.
    /// ```
    /// let mut world = slosh::preset::Preset::load("dam")?.build_world(1);
    /// let mut thicker = world.materials()[0].clone();
    /// thicker.linear_viscosity = Some(0.5);
    /// world.set_material(0, thicker)?;
    /// let mut wild = world.materials()[0].clone();
    /// wild.stiffness = Some(f32::NAN);
    /// assert!(world.set_material(0, wild).is_err(), "refused, the world unchanged");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_material(&mut self, index: usize, material: Material) -> Result<(), EditError> {
        let current = self.material_index(index)?;
        if material.mass != current.mass {
            return Err(EditError::Unsupported(
                "a material's mass cannot change at run time (rebuild the scene instead)",
            ));
        }
        self.check_material(&material)?;
        self.materials[index] = Material {
            name: current.name.clone(),
            colour: current.colour,
            ..material
        };
        self.take_materials();
        // Conduction starts and stops with the materials' conductivities; the temperatures are
        // the particles' and stay.
        if let Some(air) = self.subsystems.air.as_mut() {
            air.set_materials(&self.materials);
        }
        match &mut self.subsystems.heat {
            Some(heat) => heat.set_materials(&self.materials),
            None => {
                let air = self.subsystems.air.is_some();
                self.subsystems.heat =
                    Heat::for_materials(&self.materials, &self.params, air, Vec::new())
            }
        }
        self.settle_substeps();
        Ok(())
    }

    /// The liquid's, the springs', the contacts' and the fixed materials' constants, taken
    /// again from the materials and the parameters (edited, rescaled to other substeps).
    fn take_mechanics(&mut self) {
        let h = self.params.interaction_radius;
        self.liquid = Liquid::new(&self.materials, &self.params);
        self.subsystems
            .springs
            .set_materials(&self.materials, &self.params);
        self.subsystems.contacts.set_materials(&self.materials, h);
        self.subsystems.fixed.set_materials(&self.materials);
    }

    /// The stages' and the mechanical subsystems' constants, taken again from the materials
    /// (edited or joined by others): `take_mechanics`, and the sand's (which comes or stays
    /// with a granular material).
    fn take_materials(&mut self) {
        self.take_mechanics();
        match &mut self.subsystems.granular {
            Some(granular) => granular.set_materials(&self.materials),
            None => {
                self.subsystems.granular = Granular::for_materials(&self.materials, &self.domain)
            }
        }
    }

    /// `material` refused as `set_material` refuses it, in this world's units: a stiffness no
    /// substeps hold calm, a value outside its range of the preset files rescaled to this world.
    fn check_material(&self, material: &Material) -> Result<(), EditError> {
        for (field, value, near) in [
            ("stiffness", material.stiffness, false),
            ("near_stiffness", material.near_stiffness, true),
        ] {
            let most = stability::MAX_STABILITY_SUBSTEPS;
            let limit = stability::calm_stiffness(&self.params, material, near, most);
            if let Some(value) = value.filter(|&value| value > limit) {
                return Err(EditError::Boils {
                    field,
                    value,
                    limit,
                });
            }
        }
        let scale = Scale::of(&self.params);
        let lambda = self.params.particle_radius / REFERENCE_RADIUS;
        for row in MATERIAL_FIELDS {
            if let Some(value) = (row.value)(material) {
                let field = row.field.in_world(row.law.length_factor(lambda));
                check(row.name, &field, value, &scale)?;
            }
        }
        Ok(())
    }

    /// Brings materials the world lacks into it, with what they need (`Arrival`): the stages and
    /// subsystems take them as a scene holding them from the start would (heat joins when they
    /// conduct, melt, burn or react; the sand's friction with a granular material; the springs
    /// with an elastic one), and the substeps follow their masses and stiffnesses. Returns the
    /// index of the first of them (they follow the world's own, in the arrival's order). The
    /// world's particles, springs and clocks stay; a snapshot of it, saved with a scene holding
    /// the same materials, reactions and air, reopens into the same world.
    ///
    /// Refused, changing nothing, when a name is taken or empty, a value is out of range, a
    /// material melts into one neither the world nor the arrival has, or a reaction names a
    /// material there is not.
    /// ```
    /// use glam::Vec2;
    /// use slosh::sim::Pour;
    ///
    /// let mut world = slosh::preset::Preset::load("dam")?.build_world(1);
    /// let sand = slosh::preset::library::arrival(&world, "sand").expect("the library has sand");
    /// let index = world.add_materials(sand)?;
    /// assert_eq!(world.materials()[index].name, "sand");
    /// let pour = Pour { material: index, centre: Vec2::new(8.0, 6.0), radius: 0.4, velocity: Vec2::ZERO };
    /// assert!(world.pour(pour)?.added > 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_materials(&mut self, arrival: Arrival) -> Result<usize, EditError> {
        let first = self.materials.len();
        let lambda = self.params.particle_radius / REFERENCE_RADIUS;
        let mut materials = self.materials.clone();
        for material in &arrival.materials {
            let name = &material.name;
            if name.is_empty() || materials.iter().any(|m| &m.name == name) {
                return Err(EditError::Arrival(format!(
                    "a material called `{name}` is already in the world"
                )));
            }
            let mut joined = material.clone();
            scale_material(&mut joined, lambda);
            let mut one = [joined];
            let mut written = SimParams {
                substeps: SimParams::default().substeps,
                ..self.params.clone()
            };
            rescale_substeps(&mut written, &mut one, self.params.substeps);
            let [joined] = one;
            self.check_material(&joined)?;
            materials.push(joined);
        }
        for material in &materials[first..] {
            if let Some(into) = material.melts_into.as_ref() {
                if !materials.iter().any(|m| &m.name == into) {
                    return Err(EditError::Arrival(format!(
                        "`{}` melts into `{into}`, which is not in the world",
                        material.name
                    )));
                }
            }
        }
        let boils = materials.iter().any(|m| m.boiling_point.is_some());
        for reaction in &arrival.reactions {
            let products = reaction.into.iter().filter_map(|product| match product {
                Product::Material(index) => Some(*index),
                _ => None,
            });
            let vapour = reaction.into.contains(&Product::Vapour);
            if reaction
                .between
                .iter()
                .copied()
                .chain(products)
                .any(|index| index >= materials.len())
                || (vapour && !boils)
            {
                return Err(EditError::Arrival(format!(
                    "the reaction `{}` names a material the world does not have",
                    reaction.name
                )));
            }
        }
        // A heavier or lighter material than any before asks for the substeps a scene of these
        // masses runs (`World::new`).
        let before = contrast_substep_factor(&self.materials);
        let after = contrast_substep_factor(&materials);
        if after > before {
            self.own_substeps = self.own_substeps.div_ceil(before) * after;
        }
        self.materials = materials;
        self.take_materials();
        if self.subsystems.air.is_none() {
            if let Some(settings) = arrival.air {
                self.subsystems.air = Some(Air::joining(
                    settings,
                    &self.domain,
                    self.obstacles(),
                    &self.materials,
                    false,
                ));
            }
        }
        let air = self.subsystems.air.is_some();
        match &mut self.subsystems.heat {
            Some(heat) => heat.join(&self.materials, arrival.reactions, air),
            None => {
                self.subsystems.heat =
                    Heat::for_materials(&self.materials, &self.params, air, arrival.reactions)
            }
        }
        let heat = self.subsystems.heat.is_some();
        if let Some(air) = self.subsystems.air.as_mut() {
            air.take_heat(heat, &self.materials);
        }
        self.settle_substeps();
        Ok(first)
    }

    /// Makes `cap` the most particles the world holds (`params().max_particles`): pours and
    /// emitters stop there; a cap below the particles there are removes none, and only stops
    /// every new one. Refused outside 1 to `ranges::MAX_PARTICLES`.
    /// ```
    /// use glam::Vec2;
    /// use slosh::sim::Pour;
    ///
    /// let mut world = slosh::preset::Preset::load("tank")?.build_world(1);
    /// let now = world.particles().len();
    /// world.set_particle_cap(now)?;
    /// let pour = Pour { material: 0, centre: Vec2::new(12.0, 6.0), radius: 0.5, velocity: Vec2::ZERO };
    /// assert!(world.pour(pour)?.capped, "no more particles");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_particle_cap(&mut self, cap: usize) -> Result<(), EditError> {
        let most = ranges::MAX_PARTICLES;
        if !(1..=most).contains(&cap) {
            return Err(EditError::OutOfRange {
                field: "particle cap",
                value: cap as f32,
                low: 1.0,
                high: most as f32,
            });
        }
        self.params.max_particles = cap;
        self.births.set_cap(cap);
        Ok(())
    }

    /// Material `index`, or the error that there is none.
    fn material_index(&self, index: usize) -> Result<&Material, EditError> {
        self.materials
            .get(index)
            .ok_or(EditError::NoMaterial(index))
    }

    /// Gives the contacts and the air a new list of obstacles.
    fn set_obstacles(&mut self, obstacles: Vec<Obstacle>) {
        if let Some(air) = self.subsystems.air.as_mut() {
            air.set_solids(&self.domain, &obstacles);
        }
        self.bodies_meet(&obstacles);
        self.subsystems.contacts.set_obstacles(obstacles);
    }
}

impl World {
    /// Sets one constant of material `index` (in this world's units, see `set_material`).
    /// ```
    /// use slosh::sim::Tunable;
    ///
    /// let mut world = slosh::preset::Preset::load("tank")?.build_world(1);
    /// let viscosity = Tunable::from_name("linear_viscosity").expect("a tunable field");
    /// world.tune(0, viscosity, 2.0)?; // thicker water
    /// assert_eq!(world.materials()[0].linear_viscosity, Some(2.0));
    /// assert!(world.tune(0, viscosity, -1.0).is_err(), "out of its range");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tune(&mut self, index: usize, tunable: Tunable, value: f32) -> Result<(), EditError> {
        let mut material = self.material_index(index)?.clone();
        tunable.set(&mut material, value);
        self.set_material(index, material)
    }
}
