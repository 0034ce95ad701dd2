//! Granular materials (sand): grains with Coulomb friction on each other and on the walls and
//! no cohesion, so that a pile stands at its material's `friction_angle`.
//!
//! The friction between grains is position-based, after Macklin et al. 2014, "Unified particle
//! physics for real-time applications", section 6.1: a displacement within μ times the normal
//! displacement is undone entirely (static friction), a larger one by μ times the normal
//! displacement (kinetic). Here it is held per grain rather than per pair: each grain keeps the
//! point it is held at (its anchor, by id). In the springs stage, with the relaxation done, a
//! grain that would end the substep at x is pulled back toward its anchor A, by all of A − x when
//! |A − x| ≤ μ n (it stays put) and by μ n along it otherwise (it slides, and the anchor comes
//! along to where it ends). The normal displacement n is the push the other grains' pressure
//! gives it in this substep (the pairs' `physics::pressure_displacement` over its mass, summed as
//! vectors), |p|, when p bears it up (has a part against gravity), and 0 when p presses it down:
//! grains above a grain do not hold it. A grain in the air is pressed by nothing and falls
//! freely; a grain in a pile is borne by the grains under it and holds until the slope asks more
//! than μ of it. A liquid's push is not counted (it holds nothing), so sand sinks through water.
//!
//! Friction per pair (the relative tangential displacement of two grains, capped by μ times
//! their pressure push, averaged over a grain's contacts as Macklin does for Jacobi) was tried
//! first: averaged, it acts as a viscosity, and a viscous heap always spreads; a pile poured
//! onto the floor flattened to two grains deep even at a thousand times the friction. Held per
//! grain, the friction has a yield: below it nothing moves.
//!
//! Sand has no cohesion: its pressure is clamped at zero (the density stage, for a `granular`
//! material), and it has no surface tension (`stages::liquid`). The walls do not carry its density
//! (it rests on them by contact, as jelly does) and hold it with Coulomb friction μ
//! (`contact::collide`), applied in the move stage before the walls' own. The obstacles (and the
//! walls a person draws) hold it with μ where that is more than their own friction
//! (`obstacles::Contacts`), so it stays on a ramp gentler than its angle.
//!
//! Confinement: a grain deep in a heap is pressed from every side, and a slide across its
//! contacts has to shear them all. So it is also held by c μ Σ d (1 − (n·t)²) over its mass, the
//! part of each contact's push d across the slide's direction t (n the contact's unit offset),
//! with c = [`CONFINEMENT`]; it is held by the larger of the two. A grain at the surface, borne
//! from below alone, is held by about μ times its weight, as before.
//!
//! Hand-down: what holds a grain pushes the grains under it the other way (Newton's third law).
//! Each grain hands its friction push, reversed, to its supports in proportion to their push on
//! it, the part across each contact, at most μ times that contact's push (what Coulomb lets a
//! contact carry); they take it in the next substep. So a grain low in a heap carries the shear
//! of the grains above it, as the grains of a silo do (Janssen): the pressure at an hourglass's
//! neck stops growing with the head, and its discharge stays steady.
//!
//! μ between grains is tan(friction angle + [`GRAIN_ANGLE_MARGIN`]); on walls and obstacles it is
//! tan(friction angle), Coulomb's own for a grain sliding on a surface. Piles of 400 grains
//! poured from a point stand, as a mean over eight pour points, within 2° of the friction angle
//! at 25° and 35°, and within 1° over two at four times the particles; one such pile scatters
//! more than that (measured in `docs/PHYSICS.md`, "Sand").
//!
//! In a liquid (Terzaghi's effective stress): the pressures in p are less each grain's pore
//! pressure (what the liquid within h adds to its density, or the liquid's pressure at its
//! height where larger); the liquid bears a grain by its pressure alone (Archimedes), so what
//! its tension pulls and its near pressure pushes a grain by is given back; a wet grain is held
//! against the grains that bear it (its anchor moves as theirs did in the last substep), not the
//! world, and slides on walls. Dry grains are unchanged to the bit.
//!
//! Known gap: the anchors hold a grain against motion in every direction, not only along its
//! contacts (sand thrown at a wall can stand on it in a column one grain wide;
//! `docs/PHYSICS.md`, "Sand", has what was tried).
//!
//! Every grain is computed from the frozen particles, the relaxation's displacements and the
//! last substep's hand-downs, and writes only its own push, anchor and hand-down, so any thread
//! count gives the same bits. The anchors are held in the world frame: a grain resting on a
//! moving body is not carried by its friction.
//! A scene without a granular material has no `Granular` and pays nothing.

use crate::sim::numerics::portable;
use crate::sim::numerics::portable::Ordered;
use crate::sim::particles::Particles;
use crate::sim::physics::{density_norm, near_density_norm, pressure_displacement};
use crate::sim::scene::domain::Domain;
use crate::sim::scene::{Material, Scene};
use crate::sim::stages::contact::keep_inside;
use crate::sim::subsystems::{
    from_state, to_state, FromScene, Frozen, Moving, Restoring, SavedState, StateError, Subsystem,
};
use glam::Vec2;
use rayon::prelude::*;

/// The share of the pushes confining a grain across a slide that holds it against the slide
/// (see the module documentation, "confinement"), the same at every particle count: the load
/// of the grains above is handed down, so no grain holds more than its own share.
pub const CONFINEMENT: f32 = 0.45;

/// How many degrees steeper than the material's angle of repose the grains' coefficient between
/// each other is: round grains of one size, with nothing interlocking, stand below atan μ (every
/// hold consistent with Newton's third law stood piles 5° to 8° low with μ = tan θ).
pub const GRAIN_ANGLE_MARGIN: f32 = 4.0;

/// The Coulomb coefficient μ of a material whose pile stands at `angle` degrees: tan of it (0
/// for a liquid's 0). A grain slides on a wall or an obstacle with it.
pub fn friction_coefficient(angle: f32) -> f32 {
    if angle <= 0.0 {
        return 0.0;
    }
    portable::tan(angle * (std::f32::consts::PI / 180.0))
}

/// Each of `materials`' Coulomb coefficient μ (0 for a material that is not granular).
pub fn friction_coefficients(materials: &[Material]) -> Vec<f32> {
    materials
        .iter()
        .map(|m| friction_coefficient(m.friction_angle))
        .collect()
}

/// Each of `materials`' coefficient between its grains: tan(angle + [`GRAIN_ANGLE_MARGIN`]) (0
/// for a material that is not granular).
pub fn grain_coefficients(materials: &[Material]) -> Vec<f32> {
    materials
        .iter()
        .map(|m| match m.friction_angle {
            angle if angle > 0.0 => friction_coefficient(angle + GRAIN_ANGLE_MARGIN),
            _ => 0.0,
        })
        .collect()
}

/// The grains' friction: each material's coefficient, where each grain is held, and the scratch
/// of the springs stage.
#[derive(Clone, Debug)]
pub struct Granular {
    /// Each material's Coulomb coefficient μ on walls and obstacles (0: not granular).
    friction: Vec<f32>,
    /// Each material's coefficient between its grains (0: not granular).
    between_grains: Vec<f32>,
    /// The walls.
    domain: Domain,
    /// Where each grain is held, by id (NaN: not held, or no grain).
    anchor: Vec<Vec2>,
    /// How far each grain's anchor moved in the last substep, by id (zero: not held).
    moved: Vec<Vec2>,
    /// The friction reaction each grain hands down, by id: what it was pushed by to hold it in
    /// the last substep, reversed, per unit of its supports' push (zero: none).
    handed: Vec<Vec2>,
    /// This substep's hand-down of each particle (sorted order).
    handing: Vec<Vec2>,
    /// This substep's friction displacement of each particle (sorted order).
    push: Vec<Vec2>,
    /// Where each particle is held after this substep (sorted order; NaN: not a grain).
    held: Vec<Vec2>,
    /// Each particle's effective pressure and near pressure this substep (sorted order): its
    /// own less what the liquid in its pores gives it (zero for a particle that is no grain);
    /// whether liquid is within h; and what the liquid moved it by other than by its pressure's
    /// push (its tension's pull and its near pressure's push, given back).
    effective: Vec<(f32, f32, bool, Vec2)>,
    /// The liquid's pressure per unit of stiffness and mass in bands of height h from the
    /// lowest particle: (sum, count) of the liquid particles in each.
    pore_bands: Vec<(f32, u32)>,
}

impl Granular {
    /// The friction of `materials` inside `domain`; `None` when no material is granular.
    pub fn for_materials(materials: &[Material], domain: &Domain) -> Option<Self> {
        materials
            .iter()
            .any(|m| m.friction_angle > 0.0)
            .then(|| Self {
                friction: friction_coefficients(materials),
                between_grains: grain_coefficients(materials),
                domain: domain.clone(),
                anchor: Vec::new(),
                moved: Vec::new(),
                handed: Vec::new(),
                handing: Vec::new(),
                push: Vec::new(),
                held: Vec::new(),
                effective: Vec::new(),
                pore_bands: Vec::new(),
            })
    }

    /// Takes the friction angles of `materials` (changed at run time); the grains stay held
    /// where they are.
    pub fn set_materials(&mut self, materials: &[Material]) {
        self.friction = friction_coefficients(materials);
        self.between_grains = grain_coefficients(materials);
    }

    /// Adds the friction displacement of every grain to `displacement` and moves the anchors
    /// (see the module documentation).
    fn apply(&mut self, frozen: &Frozen, displacement: (&mut [f32], &mut [f32])) {
        let Frozen {
            particles,
            grid,
            h,
            dt,
            gravity,
            liquid,
        } = *frozen;
        let Particles {
            id,
            position,
            material,
            mass,
            pressure,
            near_pressure,
            ..
        } = particles;
        let count = position.len();
        let ids = id.iter().map(|&id| id as usize + 1).max().unwrap_or(0);
        if self.anchor.len() < ids {
            self.anchor.resize(ids, Vec2::NAN);
            self.moved.resize(ids, Vec2::ZERO);
            self.handed.resize(ids, Vec2::ZERO);
        }
        let (dx, dy) = displacement;
        self.push.resize(count, Vec2::ZERO);
        self.held.resize(count, Vec2::NAN);
        self.handing.resize(count, Vec2::ZERO);
        let (friction, anchor, moved) = (&self.friction, &self.anchor, &self.moved);
        let (between_grains, handed) = (&self.between_grains, &self.handed);
        let inverse_h = 1.0 / h;
        let (norm, near_norm) = (density_norm(h), near_density_norm(h));
        // Terzaghi's effective stress: a grain's pressure less the part of its density that the
        // liquid around it gives (its pore pressure), which presses it equally from every side
        // and holds nothing. Dry, it is the grain's own pressure to the bit.
        self.effective.resize(count, (0.0, 0.0, false, Vec2::ZERO));
        // The liquid's pressure by height (the pore pressure deep in a bed of grains, where no
        // liquid is within reach): its mean in bands of height h, summed in the particles' order.
        let bottom = position
            .iter()
            .fold(f32::INFINITY, |low, p| low.at_most(p.y));
        self.pore_bands.clear();
        for i in 0..count {
            let kind = material[i] as usize;
            let stiffness = liquid.materials[kind].stiffness;
            if friction[kind] > 0.0 || stiffness <= 0.0 {
                continue;
            }
            let band = ((position[i].y - bottom) * inverse_h) as usize;
            if self.pore_bands.len() <= band {
                self.pore_bands.resize(band + 1, (0.0, 0));
            }
            let entry = &mut self.pore_bands[band];
            entry.0 += pressure[i] / (stiffness * mass[i]);
            entry.1 += 1;
        }
        let pore_bands = &self.pore_bands;
        self.effective
            .par_iter_mut()
            .with_min_len(256)
            .enumerate()
            .for_each(|(i, effective)| {
                *effective = (0.0, 0.0, false, Vec2::ZERO);
                if friction[material[i] as usize] <= 0.0 {
                    return;
                }
                if pore_bands.is_empty() {
                    // No liquid in the scene: dry, the grain's own pressures (the same bits as
                    // the walk below would give, with nothing wet around it).
                    *effective = (
                        pressure[i].at_least(0.0),
                        near_pressure[i].at_least(0.0),
                        false,
                        Vec2::ZERO,
                    );
                    return;
                }
                let xi = position[i];
                let (mut wet, mut near_wet) = (0.0_f32, 0.0_f32);
                // What the liquid moved the grain by other than by its pressure's push, to be
                // given back: the pull of its tension (a pair's pressures summing below zero,
                // at the liquid's surface: no cohesion) and the push of the near pressure, which
                // keeps a liquid's own particles apart but would make its surface a floor for a
                // grain twice as heavy. A liquid bears a grain by its pressure alone.
                let mut given_back = Vec2::ZERO;
                for j in grid.candidates(xi) {
                    let offset = xi - position[j];
                    let r = offset.length();
                    if j == i || !(r < h && r >= 0.0) || friction[material[j] as usize] > 0.0 {
                        continue;
                    }
                    let a = 1.0 - r * inverse_h;
                    wet += a * a * a;
                    near_wet += a * a * a * a;
                    let d = pressure_displacement(
                        dt,
                        h,
                        a,
                        pressure[i] + pressure[j],
                        near_pressure[i] + near_pressure[j],
                    );
                    let near =
                        pressure_displacement(dt, h, a, 0.0, near_pressure[i] + near_pressure[j]);
                    let kept = (d - near).at_least(0.0);
                    if r > 0.0 {
                        given_back += offset * ((d - kept) / (r * mass[i]));
                    }
                }
                let constants = &liquid.materials[material[i] as usize];
                let band = ((xi.y - bottom) * inverse_h) as usize;
                let around = match pore_bands.get(band) {
                    Some(&(sum, n)) if n > 0 => (sum / n as f32).at_least(0.0),
                    _ => 0.0,
                };
                let pore = constants.stiffness * (wet * norm * mass[i]).at_least(around * mass[i]);
                let near_pore = constants.near_stiffness * (near_wet * near_norm * mass[i]);
                *effective = (
                    (pressure[i] - pore).at_least(0.0),
                    (near_pressure[i] - near_pore).at_least(0.0),
                    wet > 0.0,
                    given_back,
                );
            });
        let effective = &self.effective;
        // Up: against gravity (none without gravity, and then nothing holds).
        let up = -gravity.normalize_or_zero();
        (&mut self.push, &mut self.held, &mut self.handing)
            .into_par_iter()
            .with_min_len(256)
            .enumerate()
            .for_each(|(i, (push, held, handing))| {
                *push = Vec2::ZERO;
                *held = Vec2::NAN;
                *handing = Vec2::ZERO;
                let mu = between_grains[material[i] as usize];
                if mu <= 0.0 {
                    return;
                }
                let xi = position[i];
                // The pressure's push on the grain from the other grains in this substep: how
                // hard it is pressed (a liquid around it presses, but holds nothing).
                let mut pressed = Vec2::ZERO;
                // How the grains that bear it moved in the last substep, weighted by their push.
                let (mut support, mut carried) = (0.0_f32, Vec2::ZERO);
                // Its contacts' pushes, summed as magnitudes and as the tensor Σ d n nᵀ (n the
                // unit offset), for the hold of its confinement.
                let (mut confined, mut nxx, mut nxy, mut nyy) = (0.0_f32, 0.0, 0.0, 0.0);
                // The friction reactions the grains resting on it hand it, across their contacts.
                let mut received = Vec2::ZERO;
                for j in grid.candidates(xi) {
                    let offset = xi - position[j];
                    let r = offset.length();
                    if j == i || !(r < h && r > 0.0) || friction[material[j] as usize] <= 0.0 {
                        continue;
                    }
                    let a = 1.0 - r * inverse_h;
                    let pressures = effective[i].0 + effective[j].0;
                    let near_pressures = effective[i].1 + effective[j].1;
                    let d = pressure_displacement(dt, h, a, pressures, near_pressures);
                    pressed += offset * (d / r);
                    if d <= 0.0 {
                        continue;
                    }
                    let n = offset / r;
                    confined += d;
                    nxx += d * n.x * n.x;
                    nxy += d * n.x * n.y;
                    nyy += d * n.y * n.y;
                    let above = offset.dot(up);
                    if above > 0.0 {
                        support += d;
                        carried += moved[id[j] as usize] * d;
                    } else if above < 0.0 {
                        // j rests on it: its share of j's reaction, the part across the contact
                        // (the part along it is the push itself), at most μ times the contact's
                        // push, as Coulomb allows a contact to carry.
                        let per_push = handed[id[j] as usize];
                        let across = per_push - n * per_push.dot(n);
                        let across_length = across.length();
                        let across = if across_length > mu {
                            across * (mu / across_length)
                        } else {
                            across
                        };
                        received += across * d;
                    }
                }
                // Only grains that bear it up hold it: pressed down, it is not held.
                let hold = if pressed.dot(up) > 0.0 {
                    mu * pressed.length() / mass[i]
                } else {
                    0.0
                };
                // Not held by the liquid's tension nor by its near pressure: both are undone
                // first.
                let undone = -effective[i].3 + received / mass[i];
                let there = xi + Vec2::new(dx[i], dy[i]) + undone;
                let anchored = anchor[id[i] as usize];
                if !anchored.is_finite() {
                    *push = undone;
                    *held = there;
                    return;
                }
                // Held against the grains that bear it, not against the world: its anchor goes
                // along with them (a raft of grains on water sinks as one, a grain on a sliding
                // layer rides it). Still supports move it by nothing.
                let anchored = if support > 0.0 && effective[i].2 {
                    anchored + carried / support
                } else {
                    anchored
                };
                let back = anchored - there;
                let distance = back.length();
                // Held by its confinement too: each contact's push d resists a slide along t by
                // c μ d (1 − (n·t)²), the part of it across the contact; summed, c μ (Σ d less
                // tᵀ (Σ d n nᵀ) t).
                let hold = if distance > 0.0 {
                    let t = back / distance;
                    let along = t.x * t.x * nxx + 2.0 * t.x * t.y * nxy + t.y * t.y * nyy;
                    let across = (confined - along).at_least(0.0);
                    hold.at_least(CONFINEMENT * mu * across / mass[i])
                } else {
                    hold
                };
                let friction_push = if distance <= hold {
                    // Static: it stays where it is held.
                    *held = anchored;
                    back
                } else {
                    // Kinetic: it slides, held back by its hold, and is held where it ends.
                    let slid = back * (hold / distance);
                    *held = there + slid;
                    slid
                };
                *push = friction_push + undone;
                // What held it pushed its supports the other way: handed down, next substep.
                if support > 0.0 {
                    *handing = -friction_push * (mass[i] / support);
                }
            });
        for ((&own, &held), &handing) in id.iter().zip(&self.held).zip(&self.handing) {
            let own = own as usize;
            self.handed[own] = handing;
            let before = self.anchor[own];
            self.moved[own] = if before.is_finite() && held.is_finite() {
                held - before
            } else {
                Vec2::ZERO
            };
            self.anchor[own] = held;
        }
        let push = &self.push;
        (dx, dy, push)
            .into_par_iter()
            .with_min_len(1024)
            .for_each(|(x, y, push)| {
                *x += push.x;
                *y += push.y;
            });
    }
}

impl FromScene for Option<Granular> {
    fn from_scene(scene: &Scene) -> Self {
        Granular::for_materials(&scene.materials, &scene.domain)
    }
}

impl Subsystem for Granular {
    fn name(&self) -> &'static str {
        "granular"
    }

    fn is_active(&self) -> bool {
        self.friction.iter().any(|&mu| mu > 0.0)
    }

    fn displace(&mut self, frozen: &Frozen, displacement: (&mut [f32], &mut [f32])) {
        self.apply(frozen, displacement);
    }

    fn touches_particles(&self) -> bool {
        true
    }

    /// A grain against a wall: put back inside with its own Coulomb friction μ, before the
    /// walls (which then find it inside and leave it be).
    /// A grain with liquid about it is pressed on the wall by the liquid, which holds nothing:
    /// it slides (Terzaghi, as between grains).
    fn push_out(&self, particle: &mut Moving) {
        let wet = self.effective.get(particle.index).is_some_and(|e| e.2);
        let mu = if wet {
            0.0
        } else {
            self.friction[particle.material]
        };
        if mu > 0.0 {
            (particle.position, particle.velocity) =
                keep_inside(&self.domain, particle.position, particle.velocity, mu);
        }
    }

    /// Where each living grain is held, by increasing id, as `[id, anchor, moved, handed]`, each
    /// vector as its two coordinates' bits.
    fn save(&self, particles: &Particles) -> Option<SavedState> {
        let mut ids = particles.id.clone();
        ids.sort_unstable();
        let at = |field: &[Vec2], id: u32| field.get(id as usize).copied().unwrap_or(Vec2::ZERO);
        let held: Vec<(u32, Vec2, Vec2, Vec2)> = ids
            .iter()
            .filter_map(|&id| {
                let anchor = *self.anchor.get(id as usize)?;
                let (moved, handed) = (at(&self.moved, id), at(&self.handed, id));
                anchor.is_finite().then_some((id, anchor, moved, handed))
            })
            .collect();
        Some(to_state(&held))
    }

    /// Takes what [`Granular::save`] wrote; a state without the hand-down (saved before it
    /// was kept) hands down nothing in its first substep.
    fn restore(&mut self, state: SavedState, restoring: &Restoring) -> Result<(), StateError> {
        let held: Vec<(u32, Vec2, Vec2, Vec2)> = match from_state(&state) {
            Ok(held) => held,
            Err(error) => match from_state::<Vec<(u32, Vec2, Vec2)>>(&state) {
                Ok(older) => older
                    .into_iter()
                    .map(|(id, anchor, moved)| (id, anchor, moved, Vec2::ZERO))
                    .collect(),
                Err(_) => return Err(error),
            },
        };
        let mut anchor = Vec::new();
        let mut moved = Vec::new();
        let mut handed = Vec::new();
        for (index, &(id, point, motion, hand_down)) in held.iter().enumerate() {
            let path = [crate::sim::scene::ranges::Step::Index(index)];
            if restoring.ids.binary_search(&id).is_err() {
                return Err(StateError::at(
                    &path,
                    format!("an anchor of particle {id}, which does not exist"),
                ));
            }
            if !point.is_finite() || !motion.is_finite() || !hand_down.is_finite() {
                return Err(StateError::at(
                    &path,
                    "an anchor, its motion and its hand-down must be finite",
                ));
            }
            let id = id as usize;
            if anchor.len() <= id {
                anchor.resize(id + 1, Vec2::NAN);
                moved.resize(id + 1, Vec2::ZERO);
                handed.resize(id + 1, Vec2::ZERO);
            }
            anchor[id] = point;
            moved[id] = motion;
            handed[id] = hand_down;
        }
        self.handed = handed;
        self.anchor = anchor;
        self.moved = moved;
        Ok(())
    }
}
