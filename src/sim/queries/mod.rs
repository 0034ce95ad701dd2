//! What a game asks of the liquid between frames: which particles lie in a shape, the density,
//! velocity and pressure at a point, the height of the surface over an x, and the force and
//! torque the liquid puts on a shape of the game's own. `World`'s query methods
//! (`sim::world`) call these with its particles; every answer reads the particles as they are
//! after the last step or edit.
//!
//! The fields are SPH interpolations with the density kernel W = N (1 − r/h)³ of every particle
//! closer than h to the point: the density is Σ m_j W_j, the mass per area; the velocity and the
//! pressure are the kernel-weighted means of the particles' own (Shepard's normalisation, so a
//! point near a wall or a body, with neighbours on one side only, reads their value rather than
//! a fraction of it). A particle's pressure is its equation of state's P and P_near as a force
//! per length (`physics::PressureScales`).

pub(crate) mod index;

use crate::sim::numerics::portable::Ordered;
use crate::sim::particles::Particles;
use crate::sim::physics::{density_kernel, PressureScales};
use crate::sim::scene::shape::Part;
use glam::Vec2;
use index::Index;

/// One particle a query found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// Its index in `World::particles()` until the next step or edit (the columns' order).
    pub index: usize,
    /// Its id, which stays with it.
    pub id: u32,
    /// Its material's index in `World::materials()`.
    pub material: usize,
}

/// The liquid at one point (`World::sample`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Mass per area, Σ m_j W_j: about the liquid's density inside it, falling to zero across
    /// its surface over one interaction radius.
    pub density: f32,
    /// The neighbours' velocity, weighted by the kernel.
    pub velocity: Vec2,
    /// The neighbours' pressure, weighted by the kernel, as a force per length: the equation of
    /// state's P and P_near as the relaxation turns them into force (`physics::PressureScales`).
    /// Its differences are the liquid's: between two depths of a still pool it differs by the
    /// weight of the liquid between them, g ∫ ρ dy. Its zero is not the free surface's: the
    /// method holds its surface together with a pull, so the surface reads above zero.
    pub pressure: f32,
    /// How many particles lie closer than h to the point.
    pub neighbours: usize,
}

/// A force and its torque (`World::force_on`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Wrench {
    /// The force, per unit depth of the 2D world.
    pub force: Vec2,
    /// Its torque about the shape's centre (its `offset`), counter-clockwise positive.
    pub torque: f32,
}

/// What the queries read of a world.
pub(crate) struct Fields<'a> {
    pub particles: &'a Particles,
    pub index: &'a Index,
    pub h: f32,
    pub scales: PressureScales,
    /// Particles per area of the liquid at rest (`physics::rest_particles_per_area`).
    pub rest_per_area: f32,
}

impl Fields<'_> {
    /// Every particle whose centre lies in `part` (in the world's frame), in index order.
    pub(crate) fn particles_in(&self, part: &Part, out: &mut Vec<Found>) {
        out.clear();
        let (min, max) = part.bounds();
        let p = self.particles;
        self.index.visit_box(min, max, |i| {
            if part.contains(p.position[i]) {
                out.push(Found {
                    index: i,
                    id: p.id[i],
                    material: p.material[i] as usize,
                });
            }
        });
        out.sort_unstable_by_key(|found| found.index);
    }

    /// A particle's pressure as a force per length (`PressureScales`).
    fn pressure_of(&self, i: usize) -> f32 {
        let p = self.particles;
        self.scales.pressure * p.pressure[i] + self.scales.near * p.near_pressure[i]
    }

    /// The kernel-weighted sums at `point`: Σ W, Σ m W, Σ W v, Σ W p and the neighbour count.
    fn sums(&self, point: Vec2, pressure: bool) -> (f32, f32, Vec2, f32, usize) {
        let (h, p) = (self.h, self.particles);
        let mut sums = (0.0, 0.0, Vec2::ZERO, 0.0, 0);
        if !point.is_finite() {
            return sums;
        }
        let reach = Vec2::splat(h);
        self.index.visit_box(point - reach, point + reach, |j| {
            let r = p.position[j].distance(point);
            if r < h {
                let w = density_kernel(r, h);
                sums.0 += w;
                sums.1 += p.mass[j] * w;
                sums.2 += w * p.velocity[j];
                if pressure {
                    sums.3 += w * self.pressure_of(j);
                }
                sums.4 += 1;
            }
        });
        sums
    }

    /// The liquid at `point`; `None` where no particle is closer than h (or for a point that is
    /// not finite).
    pub(crate) fn sample(&self, point: Vec2) -> Option<Sample> {
        let (weight, density, momentum, pressure, neighbours) = self.sums(point, true);
        (weight > 0.0).then(|| Sample {
            density,
            velocity: momentum / weight,
            pressure: pressure / weight,
            neighbours,
        })
    }

    /// Particles per area at `point`, Σ W.
    fn number_density(&self, point: Vec2) -> f32 {
        self.sums(point, false).0
    }

    /// The height of the liquid's surface over `x`: the highest point of the vertical line at
    /// `x` where the particles per area reach half the resting liquid's, so that a lone drop or a
    /// thin spray above the surface does not count (its particles per area are a third of the
    /// liquid's at most). `None` over a column with no liquid.
    pub(crate) fn surface_height(&self, x: f32) -> Option<f32> {
        if !x.is_finite() {
            return None;
        }
        let (h, p) = (self.h, self.particles);
        let mut top = f32::NEG_INFINITY;
        let mut bottom = f32::INFINITY;
        let column = (Vec2::new(x - h, -f32::MAX), Vec2::new(x + h, f32::MAX));
        self.index.visit_box(column.0, column.1, |j| {
            let at = p.position[j];
            if (at.x - x).abs() < h {
                top = top.at_least(at.y);
                bottom = bottom.at_most(at.y);
            }
        });
        if top < bottom {
            return None;
        }
        let half = 0.5 * self.rest_per_area;
        let liquid_at = |y: f32| self.number_density(Vec2::new(x, y)) >= half;
        // Down from above the highest particle in steps of h / 8, then halving the last step.
        let step = h / 8.0;
        let mut above = top + h;
        let mut below = above;
        loop {
            if below < bottom - h {
                return None;
            }
            if liquid_at(below) {
                break;
            }
            above = below;
            below -= step;
        }
        for _ in 0..12 {
            let middle = 0.5 * (above + below);
            if liquid_at(middle) {
                below = middle;
            } else {
                above = middle;
            }
        }
        Some(0.5 * (above + below))
    }

    /// The force and torque on `part` (in the world's frame) moving at `velocity` and turning at
    /// `angular_velocity` about its centre, in a liquid under `gravity`; `step` is the spacing of
    /// the points the liquid is sampled at (`World::force_on`).
    ///
    /// - Buoyancy, as Archimedes gives it: the weight of the liquid the shape takes the place
    ///   of, −g ∫ ρ dA over the shape, acting at that liquid's centre of mass. The liquid passes
    ///   through a shape it does not see, so its density inside the shape is what the shape
    ///   displaces; over a shape half in the liquid only the wet half counts.
    /// - Drag, as Newton's impact theory gives it: where the liquid's velocity relative to a
    ///   piece of the outline, u, runs into it (u · n < 0), the liquid stops against it and
    ///   pushes with its momentum flux, ρ (u · n)² per length: a drag coefficient of 2 for a plate
    ///   across the stream, 4/3 for a cylinder.
    pub(crate) fn force_on(
        &self,
        part: &Part,
        motion: (Vec2, f32),
        gravity: Vec2,
        step: f32,
    ) -> Wrench {
        let (velocity, angular_velocity) = motion;
        let centre = part.offset;
        let mut wrench = Wrench::default();
        let (min, max) = part.bounds();
        let cells = ((max - min) / step).ceil();
        if !cells.is_finite() || step <= 0.0 {
            return wrench;
        }
        for row in 0..cells.y as usize {
            for column in 0..cells.x as usize {
                let point = min + step * Vec2::new(column as f32 + 0.5, row as f32 + 0.5);
                if !part.contains(point) {
                    continue;
                }
                let mass = self.sums(point, false).1 * step * step;
                let force = -gravity * mass;
                wrench.force += force;
                wrench.torque += (point - centre).perp_dot(force);
            }
        }
        let outline = part.outline(64);
        let n = outline.len();
        for k in 0..n {
            let (a, b) = (outline[k], outline[(k + 1) % n]);
            let edge = b - a;
            let length = edge.length();
            if length <= 0.0 {
                continue;
            }
            let pieces = (length / step).ceil().at_least(1.0) as usize;
            let outward = Vec2::new(edge.y, -edge.x) / length;
            let size = length / pieces as f32;
            for m in 0..pieces {
                let point = a + edge * ((m as f32 + 0.5) / pieces as f32);
                let (weight, density, momentum, _, _) = self.sums(point, false);
                if weight <= 0.0 {
                    continue;
                }
                let arm = point - centre;
                let moving = velocity + angular_velocity * arm.perp();
                let into = (momentum / weight - moving).dot(outward).at_most(0.0);
                let force = -outward * (density * into * into * size);
                wrench.force += force;
                wrench.torque += arm.perp_dot(force);
            }
        }
        wrench
    }
}
