//! Vapour: the mass of the scene's boiling material (water) that has left the liquid, carried
//! by the air as a conserved cell field (advected like conservative smoke, never fading), and
//! condensing back into drops where the air is below the boiling point.
//!
//! - **Boiling off** (`boil_off`): a particle that has taken up all its boiling heat
//!   (`sim::subsystems::heat`) and has open air beside it (at least `SURFACE_OPEN_CELLS` of the cells
//!   around it: it is at the surface) leaves: its mass is shared
//!   among the open cells around it. A particle deep in the liquid stays, superheated, and
//!   passes its heat on until the surface boils.
//! - **Pushed out** (`out_of_the_liquid`): vapour in a cell the liquid has moved over goes to
//!   the open cells around it.
//! - **Condensing** (`condense`): in open cells cooler than the boiling point by
//!   `AirSettings::condensation`, vapour turns into dew, which stays where it formed (a cold
//!   lid gathers it); scanning the cells in order, where the open cells around one (5 × 5)
//!   hold a drop's mass of dew between them, it becomes a drop of the boiling material, at
//!   rest with the air, at the cell's temperature; each of those cells gives its share.
//!
//! The boiling material's mass, liquid and vapour, is conserved to rounding through the cycle
//! (`tests/suite/heat.rs`). The air is not a heat store: it has a temperature for buoyancy and
//! condensation, not a heat capacity, so the boiling heat leaves the particles' enthalpy with
//! the vapour and a condensed drop starts with none.

use super::field::MacGrid;
use crate::sim::numerics::portable::Ordered;
use crate::sim::scene::Material;
use crate::sim::subsystems::AfterFrame;

/// A particle is at the surface, and may boil off, when at least this many of the 3 × 3 cells
/// around it are open: a row of open air beside it, not a lone gap between the liquid and a
/// wall (the liquid's cells are found from the particles' discs, which leave such gaps).
const SURFACE_OPEN_CELLS: usize = 3;

/// Upward acceleration, m/s², of a particle ready to boil that is still under the surface: it
/// rises through the liquid as a bubble would, and boils off at the top (without it, the
/// liquid under the surface superheats and flashes to vapour all at once).
const BUBBLE_LIFT: f32 = 30.0;

/// How fast vapour in air cool enough turns into dew, per second.
const DEW_RATE: f32 = 1.0;

/// The scene's boiling material: the one whose vapour the air carries.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Boiling {
    /// Its index.
    pub material: usize,
    /// Its boiling point, °C: vapour condenses in cells cooler than this.
    pub point: f32,
    /// Its latent heat of boiling: a particle holding this much is ready to leave.
    pub heat: f32,
    /// The mass of one of its particles: what a drop takes.
    pub drop_mass: f32,
}

impl Boiling {
    /// The boiling material of `materials`, if one boils.
    pub fn of(materials: &[Material]) -> Option<Self> {
        let material = materials.iter().position(|m| m.boiling_point.is_some())?;
        let m = &materials[material];
        Some(Self {
            material,
            point: m.boiling_point?,
            heat: m.boiling_heat,
            drop_mass: m.mass,
        })
    }
}

/// The open cells among the 3 × 3 around cell (`ci`, `cj`), and how many there are.
pub(super) fn open_around(grid: &MacGrid, ci: usize, cj: usize) -> ([usize; 9], usize) {
    let mut open = [usize::MAX; 9];
    let mut count = 0;
    for dj in -1..=1isize {
        for di in -1..=1isize {
            let (i, j) = (ci as isize + di, cj as isize + dj);
            if grid.is_open(i, j) {
                open[count] = i as usize + grid.nx * j as usize;
                count += 1;
            }
        }
    }
    (open, count)
}

/// Most cells a drop gathers its dew from: the open ones among the (2 `GATHER` + 1)² around.
const GATHER_CELLS: usize = (2 * GATHER as usize + 1) * (2 * GATHER as usize + 1);

/// How far, in cells, a drop gathers the dew it forms from.
const GATHER: isize = 2;

/// The open cells within `reach` cells of cell (`ci`, `cj`) (a square), and how many there are.
fn open_within(
    grid: &MacGrid,
    ci: usize,
    cj: usize,
    reach: isize,
) -> ([usize; GATHER_CELLS], usize) {
    let mut open = [usize::MAX; GATHER_CELLS];
    let mut count = 0;
    for dj in -reach..=reach {
        for di in -reach..=reach {
            let (i, j) = (ci as isize + di, cj as isize + dj);
            if grid.is_open(i, j) && count < GATHER_CELLS {
                open[count] = i as usize + grid.nx * j as usize;
                count += 1;
            }
        }
    }
    (open, count)
}

/// The particles of `boiling` ready to leave that have open air beside them leave as vapour:
/// their mass is shared among those cells. Returns how many left.
pub fn boil_off(grid: &mut MacGrid, frame: &mut AfterFrame, boiling: &Boiling) -> usize {
    let p = &*frame.particles;
    let mut keep = Vec::new();
    let mut rising = Vec::new();
    for i in 0..p.len() {
        if p.material[i] as usize != boiling.material || p.latent[i] < boiling.heat {
            continue;
        }
        let Some((ci, cj)) = grid.cell_at(p.position[i]) else {
            continue;
        };
        let (open, count) = open_around(grid, ci, cj);
        if count < SURFACE_OPEN_CELLS {
            // Under the surface it rises, as a bubble would.
            rising.push(i);
            continue;
        }
        let share = p.mass[i] / count as f32;
        for &c in &open[..count] {
            grid.vapour[c] += share;
            // The steam is as hot as the particle it leaves.
            grid.temperature[c] = grid.temperature[c].at_least(p.temperature[i]);
        }
        if keep.is_empty() {
            keep.resize(p.len(), true);
        }
        keep[i] = false;
    }
    let lift = -frame.params.gravity.normalize_or_zero() * (BUBBLE_LIFT * frame.dt);
    for i in rising {
        frame.particles.velocity[i] += lift;
    }
    if keep.is_empty() {
        return 0;
    }
    // The steam takes the heat of the particles it was.
    let left: f64 = (0..frame.particles.len())
        .filter(|&i| !keep[i])
        .map(|i| frame.held_by(i))
        .sum();
    frame.books.air -= left;
    frame.remove(&keep)
}

/// Vapour and dew in cells the liquid now fills (it moved over them) go to the open cells
/// around, shared evenly: the liquid pushes them out. Where no cell around is open they wait.
pub fn out_of_the_liquid(grid: &mut MacGrid, static_solid: &[bool]) {
    for cj in 0..grid.ny {
        for ci in 0..grid.nx {
            let c = grid.cell(ci, cj);
            let held = grid.vapour[c] + grid.dew[c];
            if !grid.solid[c] || static_solid[c] || held <= 0.0 {
                continue;
            }
            let (open, count) = open_around(grid, ci, cj);
            if count == 0 {
                continue;
            }
            for field in [&mut grid.vapour, &mut grid.dew] {
                let share = field[c] / count as f32;
                let mut given = 0.0;
                for (k, &cell) in open[..count].iter().enumerate() {
                    // The last takes what rounding left, so the total is kept.
                    let give = if k + 1 == count {
                        field[c] - given
                    } else {
                        share
                    };
                    field[cell] += give;
                    given += give;
                }
                field[c] = 0.0;
            }
        }
    }
}

/// Vapour in open cells cooler than the boiling point by `condensation` turns into dew at
/// `DEW_RATE` per second; where the open cells around one (3 × 3) hold a drop's mass of dew
/// between them, it becomes a drop of the boiling material, at rest with the air, at the cell's
/// temperature, each of those cells giving its share. In cell order; returns how many drops
/// formed.
pub fn condense(
    grid: &mut MacGrid,
    frame: &mut AfterFrame,
    boiling: &Boiling,
    condensation: f32,
    dt: f32,
) -> usize {
    let below = boiling.point - condensation;
    let share = 1.0 - crate::sim::numerics::portable::exp(-DEW_RATE * dt);
    for c in 0..grid.vapour.len() {
        if !grid.solid[c] && grid.temperature[c] < below && grid.vapour[c] > 0.0 {
            let condensed = grid.vapour[c] * share;
            grid.vapour[c] -= condensed;
            grid.dew[c] += condensed;
        }
    }
    let mut drops = 0;
    let drop_mass = boiling.drop_mass;
    for cj in 0..grid.ny {
        for ci in 0..grid.nx {
            let c = grid.cell(ci, cj);
            if grid.solid[c] || grid.dew[c] <= 0.0 {
                continue;
            }
            let (open, count) = open_within(grid, ci, cj, GATHER);
            let around: f32 = open[..count].iter().map(|&k| grid.dew[k]).sum();
            if around < drop_mass {
                continue;
            }
            let centre = grid.cell_centre(ci, cj);
            let velocity = grid.velocity_at(centre);
            if !frame.spawn(boiling.material, centre, velocity) {
                return drops;
            }
            let new = frame.particles.len() - 1;
            frame.particles.temperature[new] = grid.temperature[c].at_most(below);
            // The drop brings the heat it holds.
            frame.books.air += frame.held_by(new);
            // Each cell gives its share; the last what rounding left of the drop.
            let mut taken = 0.0;
            for (k, &cell) in open[..count].iter().enumerate() {
                let give = if k + 1 == count {
                    drop_mass - taken
                } else {
                    grid.dew[cell] * (drop_mass / around)
                };
                grid.dew[cell] -= give;
                taken += give;
            }
            drops += 1;
        }
    }
    drops
}

/// Total mass of vapour and dew on the grid.
pub fn total(grid: &MacGrid) -> f64 {
    let vapour = grid.vapour.iter().chain(&grid.dew);
    vapour.map(|&v| f64::from(v)).sum()
}
