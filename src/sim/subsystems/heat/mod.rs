//! Heat: every particle's temperature (the `temperature` column, in °C, starting at its
//! material's `temperature`) conducted between neighbours by the SPH heat equation in the pair
//! form of Cleary and Monaghan 1999 (`physics::conductance`: the conductivities averaged
//! harmonically, the density kernel as the Laplacian's, exact for quadratic temperatures in the
//! resting liquid); phase changes with latent heat (`phase.rs`: ice and water, rock and lava,
//! water ready to boil); reactions between materials in contact (`reactions.rs`); and walls and
//! obstacles with a temperature, heater and cooler plates.
//!
//! A scene has it when any material conducts (`conductivity` > 0) or changes phase, when it has
//! reactions or plates; a scene without pays nothing. Conduction joins the density stage
//! (`Subsystem::diffusion` and `diffused`, `conduction.rs`): its pair loop weighs each pair
//! closer than h once, from the frozen positions, and what one particle gains the other loses,
//! so the heat is conserved to rounding. Walls and obstacles without a temperature are
//! adiabatic. The reactions note the pairs in contact at the pair hook (`Subsystem::contacts`).
//! Once a frame (`Subsystem::after_frame`, before the air, which takes the particles ready to
//! boil and exchanges heat with the surface): the plates, the reactions, the phase changes.
//!
//! The exchange is explicit. How far a substep moves a particle toward its neighbours is known
//! from its density; past `conduction`'s limit the substep is slowed a little or cut into up to
//! `MAX_CYCLES` cycles, so a temperature never overshoots its neighbours'; past that many cycles
//! every pair is slowed alike (heat is still conserved) and the heat spreads more slowly than
//! its diffusivity asks.
//!
//! Deterministic: every pair sum is taken by the neighbour stages' bands in a fixed order, and
//! the liquid's mean volume in chunks of a fixed size, so any thread count gives the same bits.

mod books;
mod combustion;
mod conduction;
mod phase;
mod reactions;

pub(crate) use books::held_by;
pub use books::HeatBooks;
pub use conduction::MAX_CYCLES;

use crate::sim::numerics::checksum::Fnv;
use crate::sim::numerics::portable;
use crate::sim::numerics::portable::Ordered;
use crate::sim::particles::Particles;
use crate::sim::scene::domain::Wall;
use crate::sim::scene::params::SimParams;
use crate::sim::scene::{Material, Obstacle, Product, Reaction, Scene};
use crate::sim::stages::pairs::Contact;
use crate::sim::subsystems::{from_state, to_state, AfterFrame, Diffusion, FromScene, Frozen};
use crate::sim::subsystems::{Restoring, SavedState, StateError, Subsystem};
use combustion::{Combustion, SavedBurning};
use conduction::{Conduction, Thermal};
use glam::Vec2;
use phase::Phases;
use rayon::prelude::*;
use reactions::{Reacted, Reactions};

/// The heat subsystem: the materials' thermal constants, their phase changes, the scene's
/// reactions and heater and cooler plates, and the stages' scratch (the temperatures and latent
/// heats themselves are the particles').
#[derive(Clone, Debug)]
pub struct Heat {
    materials: Vec<Thermal>,
    /// True when some material conducts.
    conducts: bool,
    /// The conduction stage's scratch.
    conduction: Conduction,
    phases: Phases,
    reactions: Reactions,
    /// The burning materials and what has burned (`combustion.rs`).
    combustion: Combustion,
    plates: Vec<Plate>,
    /// The interaction radius h, for the plates' reach.
    h: f32,
    /// Whether the world has air: without it boiling and burning wait (`awaiting_air`).
    air: bool,
}

/// A wall or obstacle with a temperature: the particles within h of its surface are brought
/// toward that temperature.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Plate {
    /// A wall plane.
    Wall(Wall, f32),
    /// An obstacle.
    Obstacle(Obstacle, f32),
}

impl Plate {
    /// Distance from `point` to its surface (negative inside), and its temperature.
    fn distance_and_temperature(&self, point: Vec2) -> (f32, f32) {
        match self {
            Plate::Wall(wall, t) => (wall.distance(point), *t),
            Plate::Obstacle(obstacle, t) => (obstacle.distance(point), *t),
        }
    }
}

/// How fast a plate brings a particle touching it to its temperature, per second, for each m²/s
/// of the particle's diffusivity and over h²: a particle at the plate's surface, with the
/// seed's h of 0.3 and a diffusivity of 0.5, takes its temperature at about 44 per second.
const PLATE_RATE: f32 = 8.0;

impl Heat {
    /// Heat for `scene`, or `None` when it has nothing to do: no material conducts, melts or
    /// freezes, no reactions, nothing burns, no wall or obstacle with a temperature. A liquid
    /// that could boil brings no heat by itself: in such a scene nothing brings it to the boil.
    pub fn new(scene: &Scene) -> Option<Self> {
        let walls = scene.domain.walls().iter();
        let walls = walls.filter_map(|w| Some(Plate::Wall(*w, w.temperature?)));
        let obstacles = scene.obstacles.iter();
        let obstacles = obstacles.filter_map(|o| Some(Plate::Obstacle(*o, o.temperature?)));
        let plates: Vec<Plate> = walls.chain(obstacles).collect();
        let air = scene.air.is_some();
        let materials = awaiting_air(&scene.materials, air);
        let heat = Self {
            materials: thermal(&materials),
            conducts: materials.iter().any(|m| m.conductivity > 0.0),
            conduction: Conduction::default(),
            phases: Phases::new(&materials),
            reactions: Reactions::new(scene.reactions.clone()),
            combustion: Combustion::new(&materials),
            plates,
            h: scene.params.interaction_radius,
            air,
        };
        let needed = heat.conducts
            || heat.phases.melts_or_freezes()
            || heat.reactions.any()
            || heat.combustion.any()
            || !heat.plates.is_empty();
        needed.then_some(heat)
    }

    /// Heat for a running world (with `air` or without) that had none (so no plates), now that
    /// its `materials` were edited or joined by others, with `reactions` between them; `None`
    /// when it still has nothing to do. It is the heat `new` builds for a scene of these
    /// materials and reactions.
    pub fn for_materials(
        materials: &[Material],
        params: &SimParams,
        air: bool,
        reactions: Vec<Reaction>,
    ) -> Option<Self> {
        let materials = &*awaiting_air(materials, air);
        let heat = Self {
            materials: thermal(materials),
            conducts: materials.iter().any(|m| m.conductivity > 0.0),
            conduction: Conduction::default(),
            phases: Phases::new(materials),
            reactions: Reactions::new(reactions),
            combustion: Combustion::new(materials),
            plates: Vec::new(),
            h: params.interaction_radius,
            air,
        };
        let needed = heat.conducts
            || heat.phases.melts_or_freezes()
            || heat.reactions.any()
            || heat.combustion.any();
        needed.then_some(heat)
    }

    /// Takes a running world's `materials` after others joined them, with the `reactions` they
    /// bring (after the world's own, none of which happened yet) and whether the world has air
    /// now; what happened and what burned stay.
    pub fn join(&mut self, materials: &[Material], reactions: Vec<Reaction>, air: bool) {
        self.air = air;
        self.set_materials(materials);
        self.reactions.extend(reactions);
    }

    /// Takes the thermal constants and phase changes of `materials` (changed at run time).
    pub fn set_materials(&mut self, materials: &[Material]) {
        let materials = &*awaiting_air(materials, self.air);
        self.materials = thermal(materials);
        self.conducts = materials.iter().any(|m| m.conductivity > 0.0);
        self.phases = Phases::new(materials);
        self.combustion.set_materials(materials);
    }

    /// The scene's reactions, in the order they happen.
    pub fn reactions(&self) -> &[Reaction] {
        &self.reactions.list
    }

    /// How many times each of the scene's reactions has happened, by name, in the scene's order;
    /// then, in a scene where something burns, `burning`: how many particles have burned away.
    pub fn reaction_counts(&self) -> impl Iterator<Item = (&str, u64)> {
        let names = self.reactions.list.iter().map(|r| r.name.as_str());
        let burning = self
            .combustion
            .any()
            .then_some(("burning", self.combustion.burned_out));
        names
            .zip(self.reactions.counts.iter().copied())
            .chain(burning)
    }

    /// The fraction of the particle `id`'s fuel that has burned (0 for what never burned).
    pub fn burnt(&self, id: u32) -> f32 {
        self.combustion.burnt(id)
    }

    /// Once a frame: the burning particles burn (`combustion.rs`); their fumes go to the air,
    /// and what burned out is returned, to remove.
    fn burn(&mut self, frame: &mut AfterFrame) -> Vec<usize> {
        if !self.combustion.any() {
            return Vec::new();
        }
        let capacity: Vec<f32> = self.materials.iter().map(|m| m.heat_capacity).collect();
        let offsets = self.phases.offsets();
        let down = frame.params.gravity.normalize_or_zero();
        let burned = self
            .combustion
            .burn(frame.particles, &capacity, &offsets, down, frame.dt);
        frame.books.burning += burned.released;
        frame.fumes.extend(burned.fumes);
        burned.gone
    }

    /// True when a particle of `material` holding `latent` has taken up all its boiling heat:
    /// at the surface, the air takes it as vapour.
    pub fn ready_to_boil(&self, material: usize, latent: f32) -> bool {
        self.phases.ready_to_boil(material, latent)
    }

    /// Once a frame: the plates warm or cool the particles beside them. Returns the heat they
    /// gave (taken, where negative), the same at any thread count.
    fn plates(&self, particles: &mut Particles, dt: f32) -> f64 {
        if self.plates.is_empty() {
            return 0.0;
        }
        let (h, materials) = (self.h, &self.materials);
        let p = particles;
        let (position, material, mass) = (&p.position, &p.material, &p.mass);
        crate::sim::numerics::par_update_summed(&mut p.temperature, |i, t| {
            let thermal = &materials[material[i] as usize];
            let alpha = thermal.diffusivity;
            if alpha <= 0.0 {
                return 0.0;
            }
            let before = *t;
            for plate in &self.plates {
                let (distance, plate_t) = plate.distance_and_temperature(position[i]);
                if distance < h {
                    let weight = (1.0 - distance / h).at_most(1.0);
                    let rate = PLATE_RATE * alpha / (h * h) * weight;
                    *t += (plate_t - *t) * (1.0 - portable::exp(-rate * dt));
                }
            }
            let c = f64::from(thermal.heat_capacity);
            f64::from(mass[i]) * c * (f64::from(*t) - f64::from(before))
        })
    }

    /// Once a frame: this frame's reactions, then every particle's phase changes; then the
    /// particles `gone` (burned out) and those reactions turned into nothing go.
    fn react_and_change(&mut self, frame: &mut AfterFrame, mut gone: Vec<usize>) {
        let reacted = self.reactions.react(frame.particles, frame.dt, frame.rng);
        for Reacted {
            index,
            product,
            heat,
        } in reacted
        {
            let before = frame.held_by(index);
            let material = frame.particles.material[index] as usize;
            let c = self.materials[material].heat_capacity;
            frame.particles.temperature[index] += heat / c;
            match product {
                Product::Material(into) => {
                    if into != material {
                        // The new material keeps the heat per unit mass: T from c T.
                        let c_into = self.materials[into].heat_capacity;
                        let p = &mut *frame.particles;
                        p.temperature[index] *= c / c_into;
                        p.latent[index] = 0.0;
                        frame.convert(index, into);
                    }
                }
                Product::Vapour => {
                    let boiling = self.phases.materials.iter().position(|p| p.boils.is_some());
                    if let Some(boiling) = boiling {
                        let Some((point, heat)) = self.phases.materials[boiling].boils else {
                            continue;
                        };
                        frame.convert(index, boiling);
                        let p = &mut *frame.particles;
                        p.temperature[index] = p.temperature[index].at_least(point);
                        p.latent[index] = heat;
                    }
                }
                Product::Nothing => {
                    gone.push(index);
                    frame.books.reactions -= before;
                    continue;
                }
            }
            frame.books.reactions += frame.held_by(index) - before;
        }
        let phases = &self.phases;
        let p = &mut *frame.particles;
        let changed: Vec<(usize, usize)> = (&p.material, &mut p.temperature, &mut p.latent)
            .into_par_iter()
            .with_min_len(1024)
            .enumerate()
            .filter_map(|(i, (&material, t, latent))| {
                let material = material as usize;
                if !phases.materials[material].changes() {
                    return None;
                }
                phases.settle(material, t, latent).map(|into| (i, into))
            })
            .collect();
        for (index, into) in changed {
            // The heat per unit mass stays (`settle`); the mass is the new material's.
            let mass = frame.particles.mass[index];
            frame.convert(index, into);
            let kept = f64::from(mass) / f64::from(frame.particles.mass[index]);
            frame.books.phase_mass += frame.held_by(index) * (1.0 - kept);
        }
        if !gone.is_empty() {
            let mut keep = vec![true; frame.particles.len()];
            for index in gone {
                keep[index] = false;
            }
            frame.remove(&keep);
        }
    }
}

/// What snapshots keep of the heat in a scene where something burns: the reactions' counts and
/// the burning.
#[derive(serde::Serialize, serde::Deserialize)]
struct SavedBurningHeat {
    reactions: Vec<u64>,
    burning: SavedBurning,
}

/// `materials` as heat takes them: in a world without air neither boils nor burns (the vapour
/// and the smoke are carried by the air), so their boiling points and ignition temperatures wait
/// for it, and a library material brought into such a world (water, oil, wood) costs no heat
/// that it does not use.
fn awaiting_air(materials: &[Material], air: bool) -> std::borrow::Cow<'_, [Material]> {
    if air {
        return std::borrow::Cow::Borrowed(materials);
    }
    let waiting = materials
        .iter()
        .map(|m| Material {
            boiling_point: None,
            ignition_temperature: None,
            ..m.clone()
        })
        .collect();
    std::borrow::Cow::Owned(waiting)
}

/// The thermal constants of `materials`, in their order.
fn thermal(materials: &[Material]) -> Vec<Thermal> {
    materials
        .iter()
        .map(|m| Thermal {
            diffusivity: m.conductivity,
            heat_capacity: m.heat_capacity,
            mass: m.mass,
        })
        .collect()
}

/// The heat of some particles and their extreme temperatures.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HeatTotals {
    /// The enthalpy Σ m (c T + latent + offset): mass × (heat capacity × temperature, plus the
    /// latent heat held, plus the material's offset that makes the heat continuous across its
    /// phase changes; 0 for a material without), in degrees of water × mass.
    pub total: f64,
    /// The lowest temperature (0 without particles).
    pub min: f32,
    /// The highest temperature (0 without particles).
    pub max: f32,
}

/// The heat of `particles`, with the heat capacities of `materials`.
pub fn totals(particles: &Particles, materials: &[Material]) -> HeatTotals {
    let mut total = 0.0;
    let (mut min, mut max) = (f32::INFINITY, f32::NEG_INFINITY);
    let offsets = Phases::new(materials).offsets();
    for i in 0..particles.len() {
        let t = particles.temperature[i];
        let material = particles.material[i] as usize;
        let capacity = materials[material].heat_capacity;
        let per_mass =
            f64::from(capacity) * f64::from(t) + f64::from(particles.latent[i]) + offsets[material];
        total += f64::from(particles.mass[i]) * per_mass;
        min = min.at_most(t);
        max = max.at_least(t);
    }
    if particles.is_empty() {
        HeatTotals::default()
    } else {
        HeatTotals { total, min, max }
    }
}

impl FromScene for Option<Heat> {
    fn from_scene(scene: &Scene) -> Self {
        Heat::new(scene)
    }
}

impl Subsystem for Heat {
    fn name(&self) -> &'static str {
        "heat"
    }

    fn is_active(&self) -> bool {
        true
    }

    fn diffuses(&self) -> bool {
        self.conducts
    }

    fn diffusion(&mut self, particles: &Particles, diffusion: &mut Diffusion) {
        self.conduction
            .set_lanes(&self.materials, particles, diffusion);
    }

    fn diffused(&mut self, particles: &mut Particles, diffusion: &mut Diffusion) {
        self.conduction.take(&self.materials, particles, diffusion);
    }

    fn wants_contacts(&self) -> bool {
        self.reactions.any() || self.combustion.any()
    }

    fn contacts(&mut self, frozen: &Frozen, contacts: &[Contact]) {
        self.reactions.note(frozen.particles, contacts);
        if self.combustion.any() {
            self.combustion.note(frozen.particles, contacts);
        }
    }

    fn after_frame(&mut self, frame: &mut AfterFrame) {
        frame.offsets = self.phases.offsets();
        frame.books.plates += self.plates(frame.particles, frame.dt);
        let burned_out = self.burn(frame);
        self.react_and_change(frame, burned_out);
    }

    fn save(&self, _particles: &Particles) -> Option<SavedState> {
        if self.combustion.any() {
            return Some(to_state(&SavedBurningHeat {
                reactions: self.reactions.counts.clone(),
                burning: self.combustion.saved(),
            }));
        }
        self.reactions
            .any()
            .then(|| to_state(&self.reactions.counts))
    }

    fn restore(&mut self, state: SavedState, _restoring: &Restoring) -> Result<(), StateError> {
        let counts: Vec<u64> = if self.combustion.any() {
            let saved: SavedBurningHeat = from_state(&state)?;
            self.combustion.restore(saved.burning);
            saved.reactions
        } else {
            from_state(&state)?
        };
        if counts.len() != self.reactions.list.len() {
            return Err(StateError::at(
                &[],
                format!(
                    "{} reaction counts for {} reactions",
                    counts.len(),
                    self.reactions.list.len()
                ),
            ));
        }
        self.reactions.counts = counts;
        Ok(())
    }

    /// The temperatures' bits, in id order.
    fn checksum(&self, particles: &Particles) -> Option<u64> {
        let mut by_id: Vec<usize> = (0..particles.len()).collect();
        by_id.sort_unstable_by_key(|&i| particles.id[i]);
        let mut hash = Fnv::new();
        let burns = self.combustion.any();
        for i in by_id {
            hash.f32(particles.temperature[i]);
            hash.f32(particles.latent[i]);
            // Only scenes where something burns (the others keep their checksums).
            if burns {
                hash.f32(self.combustion.burnt(particles.id[i]));
            }
        }
        Some(hash.finish())
    }
}
