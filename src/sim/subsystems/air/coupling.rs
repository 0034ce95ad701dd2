//! The liquid and the air, both ways.
//!
//! Liquid → air: a cell filled with liquid is a moving solid for the air, with the mean velocity
//! of the particles in it, so a splash or a pour pushes the air out of its way; hot materials
//! bring the open air beside them toward their temperature, and fuming ones give off smoke there.
//! Air → liquid: spray (a particle with under half its rest density, a drop in flight) is
//! dragged toward the air's velocity at a stated rate; the bulk of the liquid is not.

use super::field::MacGrid;
use super::vapour::open_around;
use crate::sim::numerics::portable;
use crate::sim::numerics::portable::Ordered;
use crate::sim::particles::Particles;
use crate::sim::scene::air::AirSettings;
use crate::sim::scene::params::SimParams;
use crate::sim::scene::Material;
use crate::sim::subsystems::Fume;
use glam::Vec2;
use rayon::prelude::*;

/// Particles per rayon task of the drag pass.
const CHUNK: usize = 1024;

/// A cell is liquid when the discs of at least this many particles cover its centre (one
/// lone drop does not block the air).
const LIQUID_HITS: u32 = 2;

/// Scratch buffers of the liquid-to-air pass.
#[derive(Clone, Debug, Default)]
pub struct Coupling {
    hits: Vec<u32>,
    velocity: Vec<Vec2>,
}

impl Coupling {
    /// Marks the cells the liquid fills as solids moving with it (on top of `static_solid`), and
    /// lets hot and fuming materials heat the air and smoke into it.
    #[allow(clippy::too_many_arguments)]
    pub fn liquid_to_air(
        &mut self,
        grid: &mut MacGrid,
        static_solid: &[bool],
        particles: &Particles,
        materials: &[Material],
        params: &SimParams,
        settings: &AirSettings,
        dt: f32,
    ) {
        let cells = grid.nx * grid.ny;
        self.hits.clear();
        self.hits.resize(cells, 0);
        self.velocity.clear();
        self.velocity.resize(cells, Vec2::ZERO);
        // Each particle covers the cell centres within this reach: two radii closes the gaps
        // between neighbours, and at least 0.71 Δx reaches one centre from anywhere.
        let reach = (2.0 * params.particle_radius).at_least(0.71 * grid.dx);
        for (position, velocity) in particles.position.iter().zip(&particles.velocity) {
            for cell in covered_cells(grid, *position, reach) {
                self.hits[cell] += 1;
                self.velocity[cell] += *velocity;
            }
        }
        let cells = grid.solid.iter_mut().zip(grid.solid_velocity.iter_mut());
        for (c, (solid, velocity)) in cells.enumerate() {
            let liquid = self.hits[c] >= LIQUID_HITS && !static_solid[c];
            *solid = static_solid[c] || liquid;
            *velocity = if liquid {
                self.velocity[c] / self.hits[c] as f32
            } else {
                Vec2::ZERO
            };
        }
        heat_and_fumes(grid, particles, materials, params, settings, dt);
    }
}

/// The cells whose centres lie within `reach` of `point`.
fn covered_cells(grid: &MacGrid, point: Vec2, reach: f32) -> impl Iterator<Item = usize> + '_ {
    let g = (point - grid.origin) / grid.dx - Vec2::splat(0.5);
    let r = reach / grid.dx;
    let last = |n: usize| n as f32 - 1.0;
    let i0 = (g.x - r).ceil().clamp(0.0, last(grid.nx)) as usize;
    let i1 = (g.x + r).floor().clamp(-1.0, last(grid.nx));
    let j0 = (g.y - r).ceil().clamp(0.0, last(grid.ny)) as usize;
    let j1 = (g.y + r).floor().clamp(-1.0, last(grid.ny));
    let (i1, j1) = (i1 as isize, j1 as isize);
    let r2 = r * r;
    (j0 as isize..=j1).flat_map(move |j| {
        (i0 as isize..=i1).filter_map(move |i| {
            let d = Vec2::new(i as f32 - g.x, j as f32 - g.y);
            (d.length_squared() <= r2).then(|| i as usize + grid.nx * j as usize)
        })
    })
}

/// Hot materials bring the open cells around each of their particles toward their temperature
/// at `settings.heating` per second; fuming ones add their smoke there. A particle deep in the
/// liquid has no open cell around it, so only the surface gives heat and fumes.
fn heat_and_fumes(
    grid: &mut MacGrid,
    particles: &Particles,
    materials: &[Material],
    params: &SimParams,
    settings: &AirSettings,
    dt: f32,
) {
    if materials.iter().all(|m| m.smoke == 0.0) && particles.temperature.iter().all(|&t| t == 0.0) {
        return;
    }
    let approach = 1.0 - portable::exp(-settings.heating * dt);
    // Smoke per particle: a material's `smoke` is per metre of surface per second; a surface
    // particle stands for one particle diameter of it, spread over the open cells around it.
    let diameter = 2.0 * params.particle_radius;
    let cell_area = grid.dx * grid.dx;
    let p = particles;
    for ((position, &material), &temperature) in
        p.position.iter().zip(&p.material).zip(&p.temperature)
    {
        let m = &materials[material as usize];
        if temperature == 0.0 && m.smoke == 0.0 {
            continue;
        }
        let Some((ci, cj)) = grid.cell_at(*position) else {
            continue;
        };
        let (open, count) = open_around(grid, ci, cj);
        if count == 0 {
            continue;
        }
        let smoke = m.smoke * diameter * dt / (cell_area * count as f32);
        for &c in &open[..count] {
            if temperature != 0.0 {
                grid.temperature[c] += (temperature - grid.temperature[c]) * approach;
            }
            grid.smoke[c] += smoke;
        }
    }
}

/// Smoke a unit of burned mass makes, per m² of the cells it is shared among.
const SMOKE_PER_BURNED_MASS: f32 = 0.05;

/// The mass that burned in this frame (`fumes`, from the heat's combustion) goes up as smoke
/// into the open cells around where it burned, shared evenly, and those cells become as hot as
/// the flame (the air holds a temperature, not heat: the heat released stays in the particles'
/// books). A flame with no open cell around it makes none.
pub fn take_fumes(grid: &mut MacGrid, fumes: &[Fume]) {
    let cell_area = grid.dx * grid.dx;
    for fume in fumes {
        let Some((ci, cj)) = grid.cell_at(fume.position) else {
            continue;
        };
        let (open, count) = open_around(grid, ci, cj);
        if count == 0 {
            continue;
        }
        let smoke = SMOKE_PER_BURNED_MASS * fume.mass / (cell_area * count as f32);
        for &c in &open[..count] {
            grid.smoke[c] += smoke;
            grid.temperature[c] = grid.temperature[c].at_least(fume.temperature);
        }
    }
}

/// In scenes with heat, every particle with open air beside it (at the liquid's surface) takes
/// the mean temperature of those cells at `rate` per second, over its heat capacity (a particle
/// of water's capacity at 0.2 per second keeps 82% of its difference from the air after a
/// second). The air is not a heat store (`vapour.rs`): it is not cooled in return.
pub fn exchange_at_surface(
    grid: &MacGrid,
    particles: &mut Particles,
    materials: &[Material],
    rate: f32,
    dt: f32,
) -> f64 {
    if rate <= 0.0 {
        return 0.0;
    }
    let p = particles;
    let (position, material, mass) = (&p.position, &p.material, &p.mass);
    crate::sim::numerics::par_update_summed(&mut p.temperature, |i, temperature| {
        let Some((ci, cj)) = grid.cell_at(position[i]) else {
            return 0.0;
        };
        let (open, count) = open_around(grid, ci, cj);
        if count == 0 {
            return 0.0;
        }
        let air: f32 = open[..count].iter().map(|&c| grid.temperature[c]).sum();
        let air = air / count as f32;
        let c = materials[material[i] as usize].heat_capacity;
        let share = 1.0 - portable::exp(-rate * dt / c);
        let before = *temperature;
        *temperature += (air - *temperature) * share;
        let moved = f64::from(*temperature) - f64::from(before);
        f64::from(mass[i]) * f64::from(c) * moved
    })
}

/// Drags spray toward the air's velocity: v += (u_air − v)(1 − e^(−drag Δt)) for every particle
/// with under half its rest density.
pub fn drag_spray(
    grid: &MacGrid,
    particles: &mut Particles,
    params: &SimParams,
    drag: f32,
    dt: f32,
) {
    if drag <= 0.0 {
        return;
    }
    let share = 1.0 - portable::exp(-drag * dt);
    let rest = params.rest_density;
    let p = particles;
    (&p.position, &mut p.velocity, &p.density, &p.mass)
        .into_par_iter()
        .with_min_len(CHUNK)
        .for_each(|(position, velocity, density, mass)| {
            if *density < 0.5 * mass * rest {
                *velocity += (grid.velocity_at(*position) - *velocity) * share;
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reach_covers_the_centres_inside_it_only() {
        let grid = MacGrid::new(10, 10, 1.0, Vec2::ZERO);
        let cells: Vec<usize> = covered_cells(&grid, Vec2::new(5.0, 5.0), 0.71).collect();
        assert_eq!(cells.len(), 4, "{cells:?}");
        let corner: Vec<usize> = covered_cells(&grid, Vec2::new(0.1, 0.1), 0.71).collect();
        assert_eq!(corner, vec![0]);
        let outside: Vec<usize> = covered_cells(&grid, Vec2::new(-5.0, 3.0), 0.71).collect();
        assert!(outside.is_empty());
    }
}
