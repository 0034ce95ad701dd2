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
use wide::f32x4;

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
    let step = Step {
        dt,
        inverse_dt: 1.0 / dt,
        gravity_step: gravity * dt,
        reach,
        wall_friction,
        advance_next,
    };
    let (displacement_x, displacement_y) = displacement;
    let p = particles;
    (
        p.position.par_chunks_mut(CHUNK),
        p.velocity.par_chunks_mut(CHUNK),
        (
            displacement_x.par_chunks(CHUNK),
            displacement_y.par_chunks(CHUNK),
        ),
        p.material.par_chunks(CHUNK),
    )
        .into_par_iter()
        .enumerate()
        .map(|(chunk, (position, velocity, (dx, dy), material))| {
            let n = position.len();
            assert!(velocity.len() == n && dx.len() == n && dy.len() == n && material.len() == n);
            let (mut capped, mut bounds) = (0, Bounds::default());
            let mut free_bounds = LaneBounds::default();
            let mut k = 0;
            while k < n {
                // Blocks of four in the lanes where every particle of the block moves freely
                // (and no subsystem has solids), the rest one by one.
                let block = k..(k + 4).min(n);
                let freely = (touching.is_none() && block.len() == 4)
                    .then(|| {
                        move_freely(
                            &mut position[block.clone()],
                            &mut velocity[block.clone()],
                            (&dx[block.clone()], &dy[block.clone()]),
                            domain,
                            &step,
                        )
                    })
                    .flatten();
                if let Some(moved) = freely {
                    free_bounds.grow(moved);
                } else {
                    for j in block.clone() {
                        let moving = (&mut position[j], &mut velocity[j]);
                        let relaxation = Vec2::new(dx[j], dy[j]);
                        let index = chunk * CHUNK + j;
                        let touching = touching.as_ref();
                        let one = move_one(
                            moving,
                            relaxation,
                            material[j],
                            index,
                            domain,
                            touching,
                            &step,
                        );
                        capped += one as usize;
                        bounds = bounds.with(position[j]);
                    }
                }
                k = block.end;
            }
            (capped, bounds.union(free_bounds.bounds()))
        })
        .reduce(
            || (0, Bounds::default()),
            |(capped, bounds), (more, other)| (capped + more, bounds.union(other)),
        )
}

/// The constants of one move stage as each particle's move reads them (`MoveConstants`).
struct Step {
    /// This substep's length Δt.
    dt: f32,
    /// 1 / Δt.
    inverse_dt: f32,
    /// g Δt, for the next substep's advance.
    gravity_step: Vec2,
    /// Most travel in this substep.
    reach: f32,
    /// Coulomb friction of the walls.
    wall_friction: f32,
    /// Whether the move also does the next substep's advance.
    advance_next: bool,
}

/// The move of one particle (see `move_and_collide`), at sorted `index`; returns whether its
/// travel was capped.
#[inline(always)]
fn move_one(
    (position, velocity): (&mut Vec2, &mut Vec2),
    relaxation: Vec2,
    material: u16,
    index: usize,
    domain: &Domain,
    touching: Option<&impl Touch>,
    step: &Step,
) -> bool {
    let Step {
        dt,
        inverse_dt,
        gravity_step,
        reach,
        wall_friction,
        advance_next,
    } = *step;
    // This substep's travel: the advance's v Δt, then the relaxation's displacement.
    let advanced = *velocity * dt;
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
    if let Some(touching) = touching {
        touching.push_out(&mut moving);
    }
    (moving.position, moving.velocity) =
        keep_inside(domain, moving.position, moving.velocity, wall_friction);
    if let Some(touching) = touching {
        touching.after_walls(&mut moving, domain, dt);
    }
    *position = moving.position;
    *velocity = moving.velocity;
    if advance_next {
        advance(position, velocity, gravity_step, dt);
    }
    capped
}

/// The move of four particles in the lanes, when none is capped and each ends at least one
/// particle radius inside every wall (so `keep_inside` leaves it as it is): the operations of
/// `move_one`, lane by lane. Returns their new positions, x and y; or `None`, having changed
/// nothing, when some particle does not move freely.
#[inline(always)]
fn move_freely(
    position: &mut [Vec2],
    velocity: &mut [Vec2],
    (dx, dy): (&[f32], &[f32]),
    domain: &Domain,
    step: &Step,
) -> Option<(f32x4, f32x4)> {
    let lanes = |values: &[Vec2], component: fn(&Vec2) -> f32| {
        f32x4::new(std::array::from_fn(|k| component(&values[k])))
    };
    let (px, py) = (lanes(position, |p| p.x), lanes(position, |p| p.y));
    let (vx, vy) = (lanes(velocity, |v| v.x), lanes(velocity, |v| v.y));
    let relaxation_x = f32x4::new(std::array::from_fn(|k| dx[k]));
    let relaxation_y = f32x4::new(std::array::from_fn(|k| dy[k]));
    let dt = f32x4::splat(step.dt);
    let (travel_x, travel_y) = (vx * dt + relaxation_x, vy * dt + relaxation_y);
    let reach2 = f32x4::splat(step.reach * step.reach);
    if !(travel_x * travel_x + travel_y * travel_y)
        .simd_le(reach2)
        .all()
    {
        return None;
    }
    let (x, y) = (px + relaxation_x, py + relaxation_y);
    // `Domain::clamp` keeps such a point as it is.
    let finite = x.is_finite() & y.is_finite();
    if !finite.all() {
        return None;
    }
    let radius = domain.particle_radius();
    let margin = f32x4::splat(radius - 1.0e-3 * radius);
    for wall in domain.walls() {
        let distance = (f32x4::splat(wall.normal.x) * x + f32x4::splat(wall.normal.y) * y)
            - f32x4::splat(wall.offset);
        if !distance.simd_ge(margin).all() {
            return None;
        }
    }
    let inverse_dt = f32x4::splat(step.inverse_dt);
    let (mut vx, mut vy) = (travel_x * inverse_dt, travel_y * inverse_dt);
    let (mut x, mut y) = (x, y);
    if step.advance_next {
        vx += f32x4::splat(step.gravity_step.x);
        vy += f32x4::splat(step.gravity_step.y);
        x += vx * dt;
        y += vy * dt;
    }
    let (xs, ys, vx, vy) = (x.to_array(), y.to_array(), vx.to_array(), vy.to_array());
    for k in 0..4 {
        position[k] = Vec2::new(xs[k], ys[k]);
        velocity[k] = Vec2::new(vx[k], vy[k]);
    }
    Some((x, y))
}

/// `Bounds` of points given four at a time, each lane bounding its own (as `Bounds::with`).
struct LaneBounds {
    min: (f32x4, f32x4),
    max: (f32x4, f32x4),
}

impl Default for LaneBounds {
    fn default() -> Self {
        Self {
            min: (f32x4::splat(f32::INFINITY), f32x4::splat(f32::INFINITY)),
            max: (
                f32x4::splat(f32::NEG_INFINITY),
                f32x4::splat(f32::NEG_INFINITY),
            ),
        }
    }
}

impl LaneBounds {
    /// Grown to hold the points (x, y) of the lanes.
    #[inline(always)]
    fn grow(&mut self, (x, y): (f32x4, f32x4)) {
        // `Ordered::at_most` and `at_least`, lane by lane (NaN skipped).
        let at_most = |value: f32x4, high: f32x4| value.simd_lt(high).bitselect(value, high);
        let at_least = |value: f32x4, low: f32x4| value.simd_gt(low).bitselect(value, low);
        self.min = (at_most(x, self.min.0), at_most(y, self.min.1));
        self.max = (at_least(x, self.max.0), at_least(y, self.max.1));
    }

    /// The bounds of every point given.
    fn bounds(&self) -> Bounds {
        let lanes = |value: f32x4| value.to_array();
        let (min_x, min_y) = (lanes(self.min.0), lanes(self.min.1));
        let (max_x, max_y) = (lanes(self.max.0), lanes(self.max.1));
        (0..4).fold(Bounds::default(), |bounds, k| {
            bounds.union(Bounds {
                min: Vec2::new(min_x[k], min_y[k]),
                max: Vec2::new(max_x[k], max_y[k]),
            })
        })
    }
}
