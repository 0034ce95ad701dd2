//! The advance and move stages, on either side of the neighbour stages: gravity and the explicit
//! step (`v += g Δt`, `x += v Δt`), then the move to the relaxed positions, the velocity that move
//! implies, and the contacts with the subsystems' solids and the walls.

use super::contact::keep_inside;
use super::grid::Bounds;
use crate::sim::numerics::LIGHT_CHUNK;
use crate::sim::particles::Particles;
use crate::sim::scene::domain::Domain;
use glam::Vec2;
use rayon::prelude::*;

/// Particles per rayon task of the move stage: large enough to amortise scheduling, small
/// enough to balance 2–16 cores.
const CHUNK: usize = 512;

/// The advance of one particle: v += g Δt, then x += v Δt (`gravity_step` is g Δt).
#[inline(always)]
fn advance(position: &mut Vec2, velocity: &mut Vec2, gravity_step: Vec2, dt: f32) {
    *velocity += gravity_step;
    *position += *velocity * dt;
}

/// The advance stage for the particles from `first` on. Returns the bounds of their new
/// positions (for the grid).
pub fn advance_from(particles: &mut Particles, first: usize, gravity: Vec2, dt: f32) -> Bounds {
    let gravity_step = gravity * dt;
    let p = particles;
    (&mut p.position[first..], &mut p.velocity[first..])
        .into_par_iter()
        .with_min_len(LIGHT_CHUNK)
        .fold(Bounds::default, |bounds, (position, velocity)| {
            advance(position, velocity, gravity_step, dt);
            bounds.with(*position)
        })
        .reduce(Bounds::default, Bounds::union)
}

/// The constants of one move stage.
#[derive(Clone, Copy, Debug)]
pub struct MoveConstants {
    /// This substep's length.
    pub dt: f32,
    /// Gravity (for the next substep's advance, when it is fused in).
    pub gravity: Vec2,
    /// Most travel per substep, `cfl` × h.
    pub reach: f32,
    /// Coulomb friction of the walls.
    pub wall_friction: f32,
}

/// A particle in the move stage after its move: where it is now, where it started the substep,
/// its velocity and its material. Subsystems with solids change position and velocity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moving {
    /// Position after the move.
    pub position: Vec2,
    /// Position at the start of the substep (to rounding).
    pub start: Vec2,
    /// Velocity derived from the move.
    pub velocity: Vec2,
    /// Index into the world's materials.
    pub material: usize,
    /// The particle's index in this substep's (sorted) order.
    pub index: usize,
}

/// What keeps particles out of solids other than the walls, called for each particle in the
/// move (the subsystems with solids: obstacles, bodies, fixed particles, through
/// `subsystems::registry::Touching`).
pub trait Touch {
    /// Before the walls: keep `particle` out of the solids.
    fn push_out(&self, particle: &mut Moving);
    /// After the walls: see `particle` where it ended.
    fn after_walls(&self, particle: &mut Moving, domain: &Domain, dt: f32);
}

/// The move stage: moves every particle to its relaxed position (`displacement`, indexed like
/// the particles), derives its velocity from the substep's travel, and resolves contacts as
/// Clavet et al. do for bodies. First the `touching` subsystems keep it out of their solids;
/// then a particle closer than one radius to a wall is put back at one radius (an exact
/// projection, right in acute corners too), loses the velocity it had into the wall, and Coulomb
/// friction takes up to `wall_friction` × that much of its sliding speed; then the subsystems
/// see it where it ended. A particle that would travel more than `reach` in this substep travels
/// only that far. With `advance_next`, each particle then gets the next substep's advance too.
/// Returns how many particles were capped, and the bounds of the positions (advanced or not).
pub fn move_and_collide(
    particles: &mut Particles,
    displacement: (&[f32], &[f32]),
    domain: &Domain,
    touching: Option<impl Touch + Sync>,
    constants: MoveConstants,
    advance_next: bool,
) -> (usize, Bounds) {
    let MoveConstants {
        dt,
        gravity,
        reach,
        wall_friction,
    } = constants;
    let inverse_dt = 1.0 / dt;
    let gravity_step = gravity * dt;
    let (displacement_x, displacement_y) = displacement;
    let p = particles;
    (
        &mut p.position,
        &mut p.velocity,
        (displacement_x, displacement_y),
        &p.material,
    )
        .into_par_iter()
        .with_min_len(CHUNK)
        .enumerate()
        .map(|(index, (position, velocity, (&dx, &dy), &material))| {
            // This substep's travel: the advance's v Δt, then the relaxation's displacement.
            let advanced = *velocity * dt;
            let relaxation = Vec2::new(dx, dy);
            let mut travel = advanced + relaxation;
            // Where the particle started the substep (to rounding).
            let start = *position - advanced;
            // NaN travel counts as capped too.
            let within_reach = travel.length_squared() <= reach * reach;
            let capped = !within_reach;
            let mut x = *position + relaxation;
            if capped {
                travel = travel.clamp_length_max(reach);
                if !travel.is_finite() {
                    travel = Vec2::ZERO;
                }
                x = start + travel;
            }
            let mut moving = Moving {
                position: x,
                start,
                velocity: travel * inverse_dt,
                material: material as usize,
                index,
            };
            if let Some(touching) = &touching {
                touching.push_out(&mut moving);
            }
            (moving.position, moving.velocity) =
                keep_inside(domain, moving.position, moving.velocity, wall_friction);
            if let Some(touching) = &touching {
                touching.after_walls(&mut moving, domain, dt);
            }
            *position = moving.position;
            *velocity = moving.velocity;
            if advance_next {
                advance(position, velocity, gravity_step, dt);
            }
            (capped as usize, Bounds::default().with(*position))
        })
        .reduce(
            || (0, Bounds::default()),
            |(capped, bounds), (more, other)| (capped + more, bounds.union(other)),
        )
}
