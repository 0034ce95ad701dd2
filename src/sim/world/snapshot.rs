//! Snapshots of a world: [`WorldState`] holds, as plain data, everything the next step depends
//! on, and `World::from_state` rebuilds a world from one that continues bit for bit.
//!
//! What is stored: the world's current parameters, materials and obstacles (edits may have
//! changed them since the scene was built), the particles in their current array order (the
//! grid sort breaks ties by it), every spring, the emitters' progress, the random generator,
//! the particle ids handed out, the step counters and clocks, the orientation of the neighbour
//! grid (chosen with hysteresis, so it remembers the past), the air's dynamic state, and the
//! rigid bodies' (`bodies::BodiesState`: rapier's whole world, serialized with rapier's own
//! serde support, whose floats are JSON numbers that read back to the same bits).
//! What is not: the walls, the emitters and the air's settings (the scene gives them), and
//! everything derived (neighbour grid, lanes, liquid constants, densities, scratch buffers),
//! which is rebuilt or recomputed by the next substep.
//!
//! Serialized (serde), every float is written as its IEEE bits (`f32::to_bits`, `f64::to_bits`),
//! so that any text format round-trips it exactly, NaN and infinities included.

use super::{FrameReport, StageTimes, World};
use crate::sim::air::AirStep;
use crate::sim::bodies::{Bodies, BodiesState};
use crate::sim::emission::Emission;
use crate::sim::liquid::Liquid;
use crate::sim::neighbours::Neighbours;
use crate::sim::obstacles::gap_problem;
use crate::sim::params::SimParams;
use crate::sim::particles::{Births, Particles};
use crate::sim::scene::{Material, Obstacle, Scene};
use crate::sim::springs::MAX_SPRINGS;
use crate::sim::subsystems::Subsystems;
use glam::Vec2;
use rand_pcg::Pcg32;
use serde::{Deserialize, Serialize};
use std::fmt;

use crate::sim::ranges::{self, Accepts, Bound, Field, MAX_PARTICLES};

/// Everything the next step of a world depends on, as plain data (`World::state`); rebuilt into
/// a world that continues bit for bit by `World::from_state`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorldState {
    /// The parameters in use (gravity as last set; the substeps the world runs).
    #[serde(with = "crate::sim::bits")]
    pub params: SimParams,
    /// The materials in use, as last tuned.
    #[serde(with = "crate::sim::bits")]
    pub materials: Vec<Material>,
    /// The obstacles, as last drawn.
    #[serde(with = "crate::sim::bits")]
    pub obstacles: Vec<Obstacle>,
    /// Simulated seconds since the world was made.
    #[serde(with = "crate::sim::bits")]
    pub time: f64,
    /// Length of the current substep.
    #[serde(with = "crate::sim::bits")]
    pub dt: f32,
    /// Substeps run since the world was made.
    pub substeps_done: u64,
    /// What the last frame did.
    #[serde(with = "crate::sim::bits")]
    pub last_frame: FrameReport,
    /// The id the next particle gets (ids are never reused).
    pub next_id: u32,
    /// The particle cap has stopped a particle.
    pub cap_reached: bool,
    /// The random generator (emitters' jitter), mid-stream.
    pub rng: Pcg32,
    /// The neighbour grid numbers its cells column by column: the next sort keeps or flips
    /// that with hysteresis, and the order it sorts the particles into depends on it.
    pub grid_transposed: bool,
    /// Each emitter's progress, in the scene's emitter order.
    pub emission: Vec<EmitterProgress>,
    /// The particles, in the world's array order.
    pub particles: Vec<ParticleState>,
    /// The springs of each particle that holds any, by increasing id.
    pub springs: Vec<SpringList>,
    /// The air's dynamic state, in scenes with air.
    pub air: Option<AirState>,
    /// The rigid bodies' state, in scenes with bodies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bodies: Option<BodiesState>,
}

/// How far one emitter has got.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EmitterProgress {
    /// Rows emitted so far.
    pub rows: u64,
    /// Particles emitted so far.
    pub emitted: usize,
}

/// Writes `ParticleState` from the table of `particle_columns!`: its saved columns.
macro_rules! particle_state {
    (
        saved {
            $( $(#[doc = $doc:literal])* $saved:ident: $saved_type:ty $([$role:ident])?, )*
        }
        derived {
            $( $(#[doc = $derived_doc:literal])* $derived:ident: $derived_type:ty, )*
        }
        scratch { $($scratch:tt)* }
    ) => {
        /// One particle: its saved columns (`particle_columns!`; its mass is its material's).
        /// Serialized as one array of them in their order, a vector as x then y, the floats as
        /// bits: `[id, material, x, y, vx, vy]`.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct ParticleState {
            $( $(#[doc = $doc])* pub $saved: $saved_type, )*
        }

        impl ParticleState {
            /// Numbers in the serialized array.
            const WIDTH: usize = 0 $( + <$saved_type as SavedColumn>::WIDTH )*;

            /// Particle `i` of `particles`.
            fn of(particles: &Particles, i: usize) -> Self {
                Self {
                    $( $saved: particles.$saved[i], )*
                }
            }

            /// Appends this particle to `particles`, with its derived columns.
            fn push_into(self, particles: &mut Particles, $( $derived: $derived_type, )*) {
                particles.push($( self.$saved, )* $( $derived, )*);
            }
        }

        impl Serialize for ParticleState {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeTuple;
                let mut tuple = serializer.serialize_tuple(Self::WIDTH)?;
                $( self.$saved.write(&mut tuple)?; )*
                tuple.end()
            }
        }

        impl<'de> Deserialize<'de> for ParticleState {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                /// Reads the array, refusing it as serde refuses a short tuple.
                struct Visitor;
                impl<'de> serde::de::Visitor<'de> for Visitor {
                    type Value = ParticleState;
                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        write!(f, "a tuple of size {}", ParticleState::WIDTH)
                    }
                    fn visit_seq<A: serde::de::SeqAccess<'de>>(
                        self,
                        mut seq: A,
                    ) -> Result<ParticleState, A::Error> {
                        let mut read = 0;
                        Ok(ParticleState {
                            $( $saved: SavedColumn::read(&mut seq, &mut read, &self)?, )*
                        })
                    }
                }
                deserializer.deserialize_tuple(Self::WIDTH, Visitor)
            }
        }
    };
}

crate::sim::particles::particle_columns!(particle_state);

/// How a saved particle column is written in `ParticleState`'s array: as `WIDTH` numbers, the
/// floats as bits.
trait SavedColumn: Sized {
    /// Numbers it takes.
    const WIDTH: usize;
    /// Writes them.
    fn write<S: serde::ser::SerializeTuple>(&self, tuple: &mut S) -> Result<(), S::Error>;
    /// Reads them; `read` counts the numbers read so far, `expected` describes the array.
    fn read<'de, A: serde::de::SeqAccess<'de>>(
        seq: &mut A,
        read: &mut usize,
        expected: &dyn serde::de::Expected,
    ) -> Result<Self, A::Error>;
}

/// The next number of a particle's array (`read` of them read before), refused as missing.
fn next_number<'de, T: Deserialize<'de>, A: serde::de::SeqAccess<'de>>(
    seq: &mut A,
    read: &mut usize,
    expected: &dyn serde::de::Expected,
) -> Result<T, A::Error> {
    let value = seq
        .next_element()?
        .ok_or_else(|| serde::de::Error::invalid_length(*read, expected))?;
    *read += 1;
    Ok(value)
}

/// Integers are written as they are.
macro_rules! saved_integer {
    ($($integer:ty),*) => {$(
        impl SavedColumn for $integer {
            const WIDTH: usize = 1;
            fn write<S: serde::ser::SerializeTuple>(&self, tuple: &mut S) -> Result<(), S::Error> {
                tuple.serialize_element(self)
            }
            fn read<'de, A: serde::de::SeqAccess<'de>>(
                seq: &mut A,
                read: &mut usize,
                expected: &dyn serde::de::Expected,
            ) -> Result<Self, A::Error> {
                next_number(seq, read, expected)
            }
        }
    )*};
}

saved_integer!(u16, u32);

impl SavedColumn for Vec2 {
    const WIDTH: usize = 2;
    fn write<S: serde::ser::SerializeTuple>(&self, tuple: &mut S) -> Result<(), S::Error> {
        tuple.serialize_element(&self.x.to_bits())?;
        tuple.serialize_element(&self.y.to_bits())
    }
    fn read<'de, A: serde::de::SeqAccess<'de>>(
        seq: &mut A,
        read: &mut usize,
        expected: &dyn serde::de::Expected,
    ) -> Result<Self, A::Error> {
        let x = f32::from_bits(next_number(seq, read, expected)?);
        Ok(Vec2::new(
            x,
            f32::from_bits(next_number(seq, read, expected)?),
        ))
    }
}

/// One particle's springs. Serialized as `[id, [[other, rest length], …]]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "(u32, Vec<(u32, u32)>)", into = "(u32, Vec<(u32, u32)>)")]
pub struct SpringList {
    /// Id of the particle that holds them.
    pub id: u32,
    /// Its springs, in the order it holds them (the order it adds their pushes in).
    pub springs: Vec<SpringState>,
}

/// One particle's half of a spring.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpringState {
    /// Id of the particle at the other end.
    pub other: u32,
    /// Rest length.
    pub rest_length: f32,
}

impl From<(u32, Vec<(u32, u32)>)> for SpringList {
    fn from((id, springs): (u32, Vec<(u32, u32)>)) -> Self {
        let springs = springs
            .into_iter()
            .map(|(other, rest)| SpringState {
                other,
                rest_length: f32::from_bits(rest),
            })
            .collect();
        Self { id, springs }
    }
}

impl From<SpringList> for (u32, Vec<(u32, u32)>) {
    fn from(list: SpringList) -> Self {
        let springs = list.springs.iter();
        (
            list.id,
            springs
                .map(|s| (s.other, s.rest_length.to_bits()))
                .collect(),
        )
    }
}

/// The air's dynamic state: its fields on the scene's grid (arrays laid out as `MacGrid`'s), the
/// pressure the next solve starts from, and its clock and counters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AirState {
    /// Simulated seconds the air has been stepped.
    #[serde(with = "crate::sim::bits")]
    pub time: f32,
    /// Steps taken.
    pub steps: u64,
    /// Pressure-solver iterations over all steps.
    pub iterations: u64,
    /// What the last step did.
    #[serde(with = "crate::sim::bits")]
    pub last: AirStep,
    /// x velocity on the vertical faces, (nx + 1) × ny.
    #[serde(with = "crate::sim::bits")]
    pub u: Vec<f32>,
    /// y velocity on the horizontal faces, nx × (ny + 1).
    #[serde(with = "crate::sim::bits")]
    pub v: Vec<f32>,
    /// Smoke per cell, nx × ny.
    #[serde(with = "crate::sim::bits")]
    pub smoke: Vec<f32>,
    /// Temperature per cell, nx × ny.
    #[serde(with = "crate::sim::bits")]
    pub temperature: Vec<f32>,
    /// Pressure per cell from the last projection, nx × ny.
    #[serde(with = "crate::sim::bits")]
    pub pressure: Vec<f32>,
    /// Solid cells of the last step (walls, obstacles, liquid), nx × ny; serialized as a string
    /// of `0` and `1`.
    #[serde(with = "cells")]
    pub solid: Vec<bool>,
    /// Velocity of the solid in each cell, nx × ny; serialized flat, `[x0, y0, x1, y1, …]`.
    #[serde(with = "flat")]
    pub solid_velocity: Vec<Vec2>,
}

/// Why a state does not fit its scene: where in the state (`particles[17]`) and what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct StateError {
    /// Keys and indices from the state's root to the offending value.
    pub path: Vec<Step>,
    /// What is wrong with it.
    pub message: String,
}

pub(crate) use crate::sim::ranges::Step;

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", crate::sim::ranges::path_string(&self.path))?;
        if !self.path.is_empty() {
            write!(f, ": ")?;
        }
        write!(f, "{}", self.message)
    }
}

/// A refusal at `path`.
fn refuse<T>(path: &[Step], message: impl Into<String>) -> Result<T, StateError> {
    Err(StateError {
        path: path.to_vec(),
        message: message.into(),
    })
}

use Step::{Index, Key};

impl World {
    /// The world's state as plain data, for snapshots (`World::from_state` rebuilds it).
    /// Springs whose other end was erased since the last substep are left out: that substep
    /// drops them anyway.
    pub fn state(&self) -> WorldState {
        let p = &self.particles;
        let particles = (0..p.len()).map(|i| ParticleState::of(p, i)).collect();
        let next_id = self.births.next_id();
        let mut ids = p.id.clone();
        ids.sort_unstable();
        let alive = |id: u32| ids.binary_search(&id).is_ok();
        let springs = &self.subsystems.springs;
        let springs = ids
            .iter()
            .filter_map(|&id| {
                let springs: Vec<SpringState> = springs
                    .held(id)
                    .filter(|&(other, _)| alive(other))
                    .map(|(other, rest_length)| SpringState { other, rest_length })
                    .collect();
                (!springs.is_empty()).then_some(SpringList { id, springs })
            })
            .collect();
        let (rows, emitted) = self.emission.progress();
        let emission = rows
            .iter()
            .zip(emitted)
            .map(|(&rows, &emitted)| EmitterProgress { rows, emitted })
            .collect();
        let air = self.air().map(|air| {
            let grid = air.grid();
            AirState {
                time: air.time(),
                steps: air.steps(),
                iterations: air.solver_iterations(),
                last: air.last_step(),
                u: grid.u.clone(),
                v: grid.v.clone(),
                smoke: grid.smoke.clone(),
                temperature: grid.temperature.clone(),
                pressure: air.pressure().to_vec(),
                solid: grid.solid.clone(),
                solid_velocity: grid.solid_velocity.clone(),
            }
        });
        WorldState {
            params: self.params.clone(),
            materials: self.materials.clone(),
            obstacles: self.obstacles().to_vec(),
            time: self.time,
            dt: self.dt,
            substeps_done: self.substeps_done,
            last_frame: self.last_frame,
            next_id,
            cap_reached: self.births.cap_reached(),
            rng: self.rng.clone(),
            grid_transposed: self.neighbours.grid().is_transposed(),
            emission,
            particles,
            springs,
            air,
            bodies: self.bodies().map(Bodies::save_state),
        }
    }

    /// The world `state` was taken of, in `scene` (which gives the walls, the emitters and the
    /// air's settings; its parameters, materials, obstacles and blocks are not used: the state's
    /// win, and nothing is filled). Stepping it gives the same bits as stepping the world the
    /// state was taken of. Refused, with the offending part of the state named, when the state
    /// does not fit the scene or breaks an invariant of the engine.
    pub fn from_state(scene: Scene, state: WorldState) -> Result<World, String> {
        Self::restore(scene, state).map_err(|error| error.to_string())
    }

    /// `from_state`, with the path of the offending value on refusal.
    pub(crate) fn restore(scene: Scene, state: WorldState) -> Result<World, StateError> {
        check_fit(&scene, &state)?;
        check_params(&state.params, state.particles.len())?;
        check_materials(&state.materials, &scene)?;
        let domain = scene.domain;
        check_obstacles(&state.obstacles, &domain, state.params.particle_radius)?;
        check_clocks(&state)?;
        let ids = check_particles(&state, &domain)?;
        check_springs(&state.springs, &ids)?;

        let WorldState {
            params,
            materials,
            obstacles,
            time,
            dt,
            substeps_done,
            last_frame,
            next_id,
            cap_reached,
            rng,
            grid_transposed,
            emission,
            particles: saved,
            springs,
            air: saved_air,
            bodies: saved_bodies,
        } = state;
        let mut particles = Particles::default();
        for &p in &saved {
            p.push_into(&mut particles, materials[p.material as usize].mass);
        }

        let mut subsystems = Subsystems::new(
            &materials,
            obstacles,
            &params,
            scene.air.map(|air| (air, &domain)),
            None,
        );
        if let Some(saved) = saved_bodies {
            let bodies = Bodies::restore(scene.bodies, scene.hinges, params.particle_radius, saved)
                .or_else(|message| refuse(&[Key("bodies")], message))?;
            subsystems.bodies = Some(bodies);
        }
        if let (Some(air), Some(saved)) = (subsystems.air.as_mut(), saved_air) {
            let grid = air.grid_mut();
            let (nx, ny) = (grid.nx, grid.ny);
            let cells = nx * ny;
            for (key, len, expected) in [
                ("u", saved.u.len(), (nx + 1) * ny),
                ("v", saved.v.len(), nx * (ny + 1)),
                ("smoke", saved.smoke.len(), cells),
                ("temperature", saved.temperature.len(), cells),
                ("pressure", saved.pressure.len(), cells),
                ("solid", saved.solid.len(), cells),
                ("solid_velocity", saved.solid_velocity.len(), cells),
            ] {
                if len != expected {
                    return refuse(
                        &[Key("air"), Key(key)],
                        format!(
                            "{len} values, but the scene's air grid of {nx} × {ny} cells has \
                             {expected}"
                        ),
                    );
                }
            }
            grid.u = saved.u;
            grid.v = saved.v;
            grid.smoke = saved.smoke;
            grid.temperature = saved.temperature;
            grid.solid = saved.solid;
            grid.solid_velocity = saved.solid_velocity;
            air.restore(
                saved.pressure,
                saved.time,
                saved.steps,
                saved.iterations,
                saved.last,
            );
        }
        let lists = springs.iter().map(|list| {
            let springs: Vec<(u32, f32)> = list
                .springs
                .iter()
                .map(|s| (s.other, s.rest_length))
                .collect();
            (list.id, springs)
        });
        let lists: Vec<(u32, Vec<(u32, f32)>)> = lists.collect();
        let slots = lists.iter().map(|(id, _)| *id as usize + 1).max();
        subsystems.springs.restore(
            slots.unwrap_or(0),
            lists.iter().map(|(id, list)| (*id, list.as_slice())),
        );

        let (rows, emitted) = emission.iter().map(|e| (e.rows, e.emitted)).unzip();
        let mut neighbours = Neighbours::new(
            domain.min(),
            domain.max(),
            params.interaction_radius,
            params.max_particles,
        );
        neighbours.set_grid_transposed(grid_transposed);
        Ok(World {
            births: Births::restored(params.max_particles, next_id, cap_reached),
            liquid: Liquid::new(&materials, &params),
            subsystems,
            neighbours,
            emission: Emission::restored(scene.emitters, rows, emitted),
            wall_density: super::wall_density(&domain, &params),
            params,
            materials,
            domain,
            particles,
            rng,
            substeps_done,
            time,
            dt,
            last_frame,
            times: StageTimes::default(),
        })
    }
}

/// The state belongs to a scene like this one: same particle radius, air on both sides or
/// neither, one progress entry per emitter.
fn check_fit(scene: &Scene, state: &WorldState) -> Result<(), StateError> {
    let (radius, drawn) = (state.params.particle_radius, scene.domain.particle_radius());
    if radius.to_bits() != drawn.to_bits() {
        return refuse(
            &[Key("params"), Key("particle_radius")],
            format!("particles of radius {radius}, but the scene's walls are for radius {drawn}"),
        );
    }
    match (&state.bodies, scene.bodies.is_empty()) {
        (Some(_), true) => return refuse(&[Key("bodies")], "bodies in a scene without bodies"),
        (None, false) => return refuse(&[Key("bodies")], "no bodies, but the scene has bodies"),
        _ => {}
    }
    match (&state.air, &scene.air) {
        (Some(_), None) => return refuse(&[Key("air")], "air in a scene without air"),
        (None, Some(_)) => return refuse(&[Key("air")], "no air, but the scene has air"),
        _ => {}
    }
    let (progress, emitters) = (state.emission.len(), scene.emitters.len());
    if progress != emitters {
        return refuse(
            &[Key("emission")],
            format!("the progress of {progress} emitters, but the scene has {emitters}"),
        );
    }
    Ok(())
}

/// Where a restored value breaks its entry in the table of fields (`sim::ranges`): not finite,
/// or of a sign its range refuses. A world's constants are the file's rescaled for its
/// particles and substeps (`sim::resolution`), by positive factors: they keep their sign, but
/// not the file's other bounds.
fn sign_problem(field: &Field, value: f32) -> Option<String> {
    if !value.is_finite() {
        return Some(format!("must be finite, got {value}"));
    }
    match field.accepts {
        Accepts::Above(Bound::Number(low), _) if low == 0.0 && value <= 0.0 => {
            Some(format!("must be above 0, got {value}"))
        }
        Accepts::Range(Bound::Number(low), _) if low == 0.0 && value < 0.0 => {
            Some(format!("must not be negative, got {value}"))
        }
        _ => None,
    }
}

/// Parameters that keep their fields' signs (`sign_problem`), at least one substep, an
/// interaction radius of 2 to 20 particle radii, room for the particles.
fn check_params(params: &SimParams, particles: usize) -> Result<(), StateError> {
    let field = |key: &'static str| [Key("params"), Key(key)];
    let floats = [
        ("rest_density", &ranges::REST_DENSITY, params.rest_density),
        ("stiffness", &ranges::STIFFNESS, params.stiffness),
        (
            "near_stiffness",
            &ranges::NEAR_STIFFNESS,
            params.near_stiffness,
        ),
        (
            "surface_tension",
            &ranges::SURFACE_TENSION,
            params.surface_tension,
        ),
        (
            "linear_viscosity",
            &ranges::LINEAR_VISCOSITY,
            params.linear_viscosity,
        ),
        (
            "quadratic_viscosity",
            &ranges::QUADRATIC_VISCOSITY,
            params.quadratic_viscosity,
        ),
        (
            "particle_radius",
            &ranges::PARTICLE_RADIUS,
            params.particle_radius,
        ),
        (
            "interaction_radius",
            &ranges::INTERACTION_RADIUS,
            params.interaction_radius,
        ),
        (
            "wall_friction",
            &ranges::WALL_FRICTION,
            params.wall_friction,
        ),
        ("gravity", &ranges::GRAVITY, params.gravity.x),
        ("gravity", &ranges::GRAVITY, params.gravity.y),
        ("frame_rate", &ranges::FRAME_RATE, params.frame_rate),
        ("cfl", &ranges::CFL, params.cfl),
    ];
    for (key, entry, value) in floats {
        if let Some(problem) = sign_problem(entry, value) {
            return refuse(&field(key), problem);
        }
    }
    // The frame rate, the travel per substep and the radius are positive though their ranges
    // start above 0.
    for (key, value) in [
        ("frame_rate", params.frame_rate),
        ("cfl", params.cfl),
        ("particle_radius", params.particle_radius),
    ] {
        if value <= 0.0 {
            return refuse(&field(key), format!("must be above 0, got {value}"));
        }
    }
    let (r, h) = (params.particle_radius, params.interaction_radius);
    if !(2.0 * r..=20.0 * r).contains(&h) {
        return refuse(
            &field("interaction_radius"),
            format!("must be 2 to 20 particle radii ({r}), got {h}"),
        );
    }
    if params.substeps == 0 || params.max_substeps < params.substeps {
        return refuse(
            &field("max_substeps"),
            format!(
                "substeps must be at least 1 and max_substeps at least substeps, got {} and {}",
                params.substeps, params.max_substeps
            ),
        );
    }
    let cap = params.max_particles;
    if cap == 0 || cap > MAX_PARTICLES {
        return refuse(
            &field("max_particles"),
            format!("must be 1 to {MAX_PARTICLES}, got {cap}"),
        );
    }
    if particles > cap {
        return refuse(
            &[Key("particles")],
            format!("{particles} particles, more than max_particles ({cap})"),
        );
    }
    Ok(())
}

/// At least one material, each with finite constants and a positive mass, enough for every
/// emitter.
fn check_materials(materials: &[Material], scene: &Scene) -> Result<(), StateError> {
    if materials.is_empty() || materials.len() > usize::from(u16::MAX) + 1 {
        return refuse(
            &[Key("materials")],
            format!("must be 1 to 65536 materials, got {}", materials.len()),
        );
    }
    for (index, m) in materials.iter().enumerate() {
        let path = [Key("materials"), Index(index)];
        let fields = [
            (&ranges::MASS, Some(m.mass)),
            (&ranges::PRESSURE_SCALE, Some(m.pressure_scale)),
            (&ranges::PRESSURE_BIAS, Some(m.pressure_bias)),
            (&ranges::MATERIAL_STIFFNESS, m.stiffness),
            (&ranges::MATERIAL_NEAR_STIFFNESS, m.near_stiffness),
            (&ranges::MATERIAL_SURFACE_TENSION, m.surface_tension),
            (&ranges::MATERIAL_LINEAR_VISCOSITY, m.linear_viscosity),
            (&ranges::MATERIAL_QUADRATIC_VISCOSITY, m.quadratic_viscosity),
            (&ranges::SPRING_STIFFNESS, Some(m.spring_stiffness)),
            (&ranges::YIELD_RATIO, Some(m.yield_ratio)),
            (&ranges::PLASTICITY, Some(m.plasticity)),
            (&ranges::SPRING_RADIUS, Some(m.spring_radius)),
            (&ranges::STICKINESS, Some(m.stickiness)),
            (&ranges::STICK_DISTANCE, Some(m.stick_distance)),
            (&ranges::TEMPERATURE, Some(m.temperature)),
            (&ranges::SMOKE, Some(m.smoke)),
        ];
        let colour = m.colour.map(|channel| (&ranges::COLOUR, Some(channel)));
        for (entry, value) in fields.into_iter().chain(colour) {
            if let Some(problem) = value.and_then(|value| sign_problem(entry, value)) {
                let key = entry.path.trim_start_matches("materials[i].");
                let mut at = path.to_vec();
                at.push(Key(key));
                return refuse(&at, problem);
            }
        }
    }
    for (index, emitter) in scene.emitters.iter().enumerate() {
        if emitter.material >= materials.len() {
            return refuse(
                &[Key("materials")],
                format!(
                    "the scene's emitters[{index}] pours material {}, but there are only {}",
                    emitter.material,
                    materials.len()
                ),
            );
        }
    }
    Ok(())
}

/// Finite obstacles with positive radii, keeping the gaps `World::add_obstacle` keeps.
fn check_obstacles(
    obstacles: &[Obstacle],
    domain: &crate::sim::Domain,
    particle_radius: f32,
) -> Result<(), StateError> {
    for (index, obstacle) in obstacles.iter().enumerate() {
        let (a, b) = obstacle.core();
        let finite = a.is_finite() && b.is_finite() && obstacle.friction.is_finite();
        let radius = obstacle.radius();
        if !finite || !radius.is_finite() || radius <= 0.0 {
            return refuse(
                &[Key("obstacles"), Index(index)],
                "must be finite, with a radius above 0",
            );
        }
    }
    if let Some((index, problem)) = gap_problem(obstacles, domain, particle_radius) {
        return refuse(&[Key("obstacles"), Index(index)], problem);
    }
    Ok(())
}

/// A finite, non-negative clock and a finite, positive substep.
fn check_clocks(state: &WorldState) -> Result<(), StateError> {
    if !state.time.is_finite() || state.time < 0.0 {
        return refuse(
            &[Key("time")],
            format!("must be finite and not negative, got {}", state.time),
        );
    }
    if !state.dt.is_finite() || state.dt <= 0.0 {
        return refuse(
            &[Key("dt")],
            format!("must be finite and above 0, got {}", state.dt),
        );
    }
    if let Some(air) = &state.air {
        if !air.time.is_finite() || air.time < 0.0 {
            return refuse(
                &[Key("air"), Key("time")],
                format!("must be finite and not negative, got {}", air.time),
            );
        }
    }
    Ok(())
}

/// Every particle has a known material, a finite position inside the walls, a finite velocity
/// and an id of its own below `next_id`; returns the ids, sorted.
fn check_particles(
    state: &WorldState,
    domain: &crate::sim::Domain,
) -> Result<Vec<u32>, StateError> {
    let materials = state.materials.len();
    for (index, p) in state.particles.iter().enumerate() {
        let path = [Key("particles"), Index(index)];
        if usize::from(p.material) >= materials {
            return refuse(
                &path,
                format!(
                    "material index {} out of range (there are {materials} materials)",
                    p.material
                ),
            );
        }
        if !p.position.is_finite() || !p.velocity.is_finite() {
            return refuse(&path, "position and velocity must be finite");
        }
        if !domain.contains(p.position) {
            return refuse(
                &path,
                format!("position {} is outside the walls", p.position),
            );
        }
        if p.id >= state.next_id {
            return refuse(
                &path,
                format!(
                    "id {} was never handed out (next_id is {})",
                    p.id, state.next_id
                ),
            );
        }
    }
    let mut ids: Vec<(u32, usize)> = state
        .particles
        .iter()
        .enumerate()
        .map(|(index, p)| (p.id, index))
        .collect();
    ids.sort_unstable();
    if let Some(pair) = ids.windows(2).find(|pair| pair[0].0 == pair[1].0) {
        let (id, index) = (pair[0].0, pair[0].1.max(pair[1].1));
        return refuse(
            &[Key("particles"), Index(index)],
            format!(
                "id {id} is taken by particles[{}] too",
                pair[0].1.min(pair[1].1)
            ),
        );
    }
    Ok(ids.into_iter().map(|(id, _)| id).collect())
}

/// Every spring list belongs to a particle (one list each), holds at most `MAX_SPRINGS`
/// springs, and names other particles, with finite positive rest lengths.
fn check_springs(lists: &[SpringList], ids: &[u32]) -> Result<(), StateError> {
    let known = |id: u32| ids.binary_search(&id).is_ok();
    let mut owners: Vec<(u32, usize)> = Vec::with_capacity(lists.len());
    for (index, list) in lists.iter().enumerate() {
        let path = [Key("springs"), Index(index)];
        if !known(list.id) {
            return refuse(
                &path,
                format!("springs of particle {}, which does not exist", list.id),
            );
        }
        if list.springs.len() > MAX_SPRINGS {
            return refuse(
                &path,
                format!(
                    "{} springs, more than a particle holds ({MAX_SPRINGS})",
                    list.springs.len()
                ),
            );
        }
        for spring in &list.springs {
            if !known(spring.other) || spring.other == list.id {
                return refuse(
                    &path,
                    format!(
                        "a spring of particle {} to particle {}, which does not exist",
                        list.id, spring.other
                    ),
                );
            }
            let length = spring.rest_length;
            if !length.is_finite() || length <= 0.0 {
                return refuse(
                    &path,
                    format!("rest lengths must be finite and above 0, got {length}"),
                );
            }
        }
        owners.push((list.id, index));
    }
    owners.sort_unstable();
    if let Some(pair) = owners.windows(2).find(|pair| pair[0].0 == pair[1].0) {
        return refuse(
            &[Key("springs"), Index(pair[0].1.max(pair[1].1))],
            format!("a second list of springs of particle {}", pair[0].0),
        );
    }
    Ok(())
}

/// `#[serde(with = "cells")]`: flags serialized as one string of `0` and `1`.
mod cells {
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(flags: &[bool], serializer: S) -> Result<S::Ok, S::Error> {
        let text: String = flags.iter().map(|&f| if f { '1' } else { '0' }).collect();
        serializer.serialize_str(&text)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<bool>, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.chars()
            .map(|c| match c {
                '0' => Ok(false),
                '1' => Ok(true),
                other => Err(D::Error::custom(format!(
                    "solid cells are written as 0 and 1, found {other:?}"
                ))),
            })
            .collect()
    }
}

/// `#[serde(with = "flat")]`: vectors serialized as one flat array of bits, x then y.
mod flat {
    use glam::Vec2;
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(vectors: &[Vec2], serializer: S) -> Result<S::Ok, S::Error> {
        let bits: Vec<u32> = vectors
            .iter()
            .flat_map(|v| [v.x.to_bits(), v.y.to_bits()])
            .collect();
        bits.serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Vec2>, D::Error> {
        let bits = Vec::<u32>::deserialize(deserializer)?;
        if bits.len() % 2 != 0 {
            return Err(D::Error::custom(
                "vectors need an even count of numbers, x then y",
            ));
        }
        let pairs = bits.chunks_exact(2);
        Ok(pairs
            .map(|xy| Vec2::new(f32::from_bits(xy[0]), f32::from_bits(xy[1])))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preset::Preset;

    /// A preset's world after `frames` frames, and its scene.
    fn world(name: &str, frames: usize) -> (Scene, World) {
        let preset = Preset::load(name).unwrap();
        let mut world = preset.build_world(1);
        for _ in 0..frames {
            world.step_frame();
        }
        (preset.scene, world)
    }

    /// The refusal of `state` in `scene`, as `from_state` words it.
    fn refusal(scene: &Scene, state: WorldState) -> String {
        match World::from_state(scene.clone(), state) {
            Ok(_) => panic!("accepted"),
            Err(error) => error,
        }
    }

    #[test]
    fn a_state_survives_json_bit_for_bit() {
        for name in ["seed", "jelly", "lava"] {
            let (scene, world) = world(name, 12);
            let state = world.state();
            let text = serde_json::to_string(&state).unwrap();
            let back: WorldState = serde_json::from_str(&text).unwrap();
            assert_eq!(back, state, "{name}");
            let rebuilt = World::from_state(scene, back).unwrap();
            assert_eq!(rebuilt.checksum(), world.checksum(), "{name}");
            assert_eq!(rebuilt.state(), state, "{name}");
        }
    }

    #[test]
    fn floats_are_written_as_their_bits() {
        let (_, world) = world("seed", 3);
        let mut state = world.state();
        state.particles[0].velocity = Vec2::new(f32::NAN, -0.0);
        state.params.gravity = Vec2::new(f32::INFINITY, 1.0e-42);
        let text = serde_json::to_string(&state).unwrap();
        let back: WorldState = serde_json::from_str(&text).unwrap();
        let v = back.particles[0].velocity;
        assert_eq!(
            (v.x.to_bits(), v.y.to_bits()),
            (f32::NAN.to_bits(), (-0.0f32).to_bits())
        );
        assert_eq!(back.params.gravity.y.to_bits(), 1.0e-42f32.to_bits());
        assert!(back.params.gravity.x.is_infinite());
    }

    /// The erase takes 21 to 23 of the jelly's particles over world seeds 1 to 5 and 7 (the test
    /// asks for one); the rest is exact.
    #[test]
    fn springs_to_erased_particles_are_left_out() {
        let (scene, mut world) = world("jelly", 15);
        let centre = world.material_stats()[0].centroid;
        assert!(world.erase(centre, 0.3).unwrap() > 0);
        let state = world.state();
        let ids: Vec<u32> = state.particles.iter().map(|p| p.id).collect();
        for list in &state.springs {
            assert!(ids.contains(&list.id));
            assert!(list.springs.iter().all(|s| ids.contains(&s.other)));
        }
        let mut rebuilt = World::from_state(scene, state).unwrap();
        world.step_frame();
        rebuilt.step_frame();
        assert_eq!(rebuilt.checksum(), world.checksum());
        assert_eq!(rebuilt.spring_counts(), world.spring_counts());
    }

    #[test]
    fn broken_states_are_refused() {
        let (scene, world) = world("jelly", 10);
        let good = world.state();
        let mut state = good.clone();
        state.particles[4].material = 9;
        let error = refusal(&scene, state);
        assert!(
            error.starts_with("particles[4]: material index 9 out of range"),
            "{error}"
        );
        let mut state = good.clone();
        state.particles[2].position = Vec2::new(-1.0, 1.0);
        let error = refusal(&scene, state);
        assert!(
            error.contains("particles[2]: position [-1, 1] is outside"),
            "{error}"
        );
        let mut state = good.clone();
        state.particles[2].velocity.y = f32::NAN;
        assert!(refusal(&scene, state).contains("must be finite"));
        let mut state = good.clone();
        state.particles[6].id = state.particles[1].id;
        let error = refusal(&scene, state);
        assert!(error.contains("particles[6]: id") && error.contains("particles[1] too"));
        let mut state = good.clone();
        state.particles[3].id = state.next_id;
        assert!(refusal(&scene, state).contains("never handed out"));
        let mut state = good.clone();
        state.springs[0].springs[0].other = state.next_id + 5;
        assert!(refusal(&scene, state).contains("springs[0]: a spring of particle"));
        let mut state = good.clone();
        let owner = state.springs[3].id;
        state.particles.retain(|p| p.id != owner);
        for list in &mut state.springs {
            list.springs.retain(|s| s.other != owner);
        }
        let error = refusal(&scene, state);
        let expected = format!("springs[3]: springs of particle {owner}, which does not exist");
        assert_eq!(error, expected);
        let mut state = good.clone();
        let copy = state.springs[2].clone();
        state.springs.insert(5, copy);
        assert!(refusal(&scene, state).starts_with("springs[5]: a second list"));
        let mut state = good.clone();
        state.materials.clear();
        assert!(refusal(&scene, state).starts_with("materials: "));
        let mut state = good.clone();
        state.params.interaction_radius = 0.0;
        assert!(refusal(&scene, state).starts_with("params.interaction_radius: "));
        let mut state = good.clone();
        state.params.particle_radius *= 2.0;
        assert!(refusal(&scene, state).starts_with("params.particle_radius: "));
        let mut state = good.clone();
        state.emission.push(EmitterProgress {
            rows: 0,
            emitted: 0,
        });
        let error = refusal(&scene, state);
        assert_eq!(
            error,
            "emission: the progress of 1 emitters, but the scene has 0"
        );
        let mut state = good;
        state
            .obstacles
            .push(Obstacle::circle(Vec2::new(0.05, 4.0), 0.5, 0.0));
        assert!(refusal(&scene, state).starts_with("obstacles[2]: must keep"));
    }

    #[test]
    fn air_must_match_the_scene() {
        let (scene, world) = world("lava", 3);
        let (plain, plain_world) = self::world("seed", 3);
        let good = world.state();
        let mut state = good.clone();
        state.air.as_mut().unwrap().u.pop();
        let error = refusal(&scene, state);
        assert!(
            error.starts_with("air.u: ") && error.contains("air grid of"),
            "{error}"
        );
        let mut state = good.clone();
        state.air.as_mut().unwrap().solid.push(true);
        assert!(refusal(&scene, state).starts_with("air.solid: "));
        let mut state = good;
        state.air = None;
        assert_eq!(refusal(&scene, state), "air: no air, but the scene has air");
        let mut state = plain_world.state();
        state.air = world.state().air;
        assert_eq!(refusal(&plain, state), "air: air in a scene without air");
    }
}
