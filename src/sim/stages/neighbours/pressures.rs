//! The density stage's finish, once a particle's sums are complete: its density and near density
//! (with the liquid the walls stand for), its pressures by the equation of state, and the
//! relaxation's pressure lanes.
//!
//! A block of particles of one material is done in the lanes at once (`block_of`), as if no wall
//! reached them; those a wall reaches are then done again one at a time (`one`), as are the
//! particles of blocks of mixed materials. Both make the same IEEE operations in the same order,
//! so the bits are the same either way.

use super::super::liquid::{Liquid, MaterialConstants};
use super::super::wall_density::{WallDensity, WallSums};
use super::lanes::{Folding, LaneData};
use crate::sim::numerics::portable::Ordered;
use crate::sim::numerics::simd::Lanes;
use crate::sim::physics::{near_pressure, pressure};
use glam::Vec2;
use std::ops::Range;

/// A band's window of the density stage's outputs: (density, near density) sums, then
/// (pressure, near pressure), then their lanes, how full the walls' liquid is and what the
/// diffusion's exchange gave.
pub(super) type DensityOutputs<'a> = (
    (&'a mut [f32], &'a mut [f32]),
    (&'a mut [f32], &'a mut [f32]),
    (
        (&'a mut [f32], &'a mut [f32]),
        (&'a mut [f32], &'a mut [f32]),
    ),
);

/// The widest lanes (two groups of eight side by side).
const MOST_LANES: usize = 16;

/// What the finish of every band reads.
pub struct PressureStage<'a> {
    /// The particles' values (positions and masses).
    pub lanes: &'a LaneData,
    /// Each particle's material (sorted order).
    pub material: &'a [u16],
    /// The materials' constants.
    pub liquid: &'a Liquid,
    /// The liquid the walls stand for.
    pub walls: &'a WallDensity,
    /// This substep's folded factors (the kernels' norms, the pressure lanes' factors).
    pub folding: &'a Folding,
    /// Rest density ρ0.
    pub rest_density: f32,
}

/// Finishes the particles `done` (sorted order), whose outputs lie in `outputs` from sorted
/// index `start` on, their sums complete: blocks of `S::LANES` in the lanes where they can be,
/// the rest one by one.
#[inline(always)]
pub(super) fn pressures_for<S: Lanes>(
    done: Range<usize>,
    start: usize,
    stage: &PressureStage,
    outputs: &mut DensityOutputs,
) {
    let window = outputs.0 .0.len();
    assert!(start <= done.start && done.end - start <= window);
    let lanes = stage.lanes;
    assert!(done.end <= stage.material.len());
    assert!([&lanes.x, &lanes.y, &lanes.mass]
        .iter()
        .all(|field| done.end <= field.len()));
    let mut base = done.start;
    while base + S::LANES <= done.end {
        let material = stage.material[base];
        let block = base..base + S::LANES;
        if stage.material[block.clone()].iter().all(|&m| m == material) {
            let constants = &stage.liquid.materials[material as usize];
            // SAFETY: the block lies inside `done`, checked above against the lanes and the
            // window.
            let walls_reach = unsafe { block_of::<S>(base, start, constants, stage, outputs) };
            if let Some(raw) = walls_reach {
                // Those the walls reach again, with the walls, from their sums as they were.
                for (k, i) in block.enumerate() {
                    if stage.walls.reach(Vec2::new(lanes.x[i], lanes.y[i])) {
                        one(i, start, (raw.0[k], raw.1[k]), stage, outputs);
                    }
                }
            }
        } else {
            for i in block {
                one(i, start, sums_of(i, start, outputs), stage, outputs);
            }
        }
        base += S::LANES;
    }
    for i in base..done.end {
        one(i, start, sums_of(i, start, outputs), stage, outputs);
    }
}

/// The particles `base..base + S::LANES`, all of material `constants`, in the lanes, as if no
/// wall reached them. Where a wall that carries their liquid is within h of one of them (then
/// those need `one`), returns their sums as they were.
///
/// # Safety
/// `start <= base`, `base + S::LANES` at most the lanes' length and at most `start` plus the
/// outputs' window.
#[inline(always)]
unsafe fn block_of<S: Lanes>(
    base: usize,
    start: usize,
    constants: &MaterialConstants,
    stage: &PressureStage,
    outputs: &mut DensityOutputs,
) -> Option<([f32; MOST_LANES], [f32; MOST_LANES])> {
    let lanes = stage.lanes;
    // SAFETY (every load and store): as the caller guarantees.
    let (x, y, mass) = unsafe {
        (
            S::load(&lanes.x, base),
            S::load(&lanes.y, base),
            S::load(&lanes.mass, base),
        )
    };
    let walls_reach = constants.walls_carry && stage.walls.within_reach(x, y);
    let (sums, pressures, (pressure_lanes, (fullness, _))) = outputs;
    let local = base - start;
    let folding = stage.folding;
    let (sum, near_sum) = unsafe { (S::load(sums.0, local), S::load(sums.1, local)) };
    let raw = walls_reach.then(|| {
        const { assert!(S::LANES <= MOST_LANES) };
        let mut raw = ([0.0; MOST_LANES], [0.0; MOST_LANES]);
        // SAFETY: LANES <= MOST_LANES, asserted above.
        unsafe {
            sum.store(&mut raw.0, 0);
            near_sum.store(&mut raw.1, 0);
        }
        raw
    });
    // As `one` with no wall: the walls add +0 and the liquid's fullness is 0.
    let zero = S::splat(0.0);
    let density = (sum + zero) * (S::splat(folding.norm) * mass);
    let near_density = (near_sum + zero) * (S::splat(folding.near_norm) * mass);
    let mut pressure =
        S::splat(constants.stiffness) * (density - mass * S::splat(stage.rest_density));
    if constants.granular {
        pressure = pressure.positive_part();
    }
    let near_pressure = S::splat(constants.near_stiffness) * near_density;
    unsafe {
        zero.store(fullness, local);
        density.store(sums.0, local);
        near_density.store(sums.1, local);
        pressure.store(pressures.0, local);
        near_pressure.store(pressures.1, local);
        folding
            .pressure_lanes(pressure)
            .store(pressure_lanes.0, local);
        folding
            .near_pressure_lanes(near_pressure)
            .store(pressure_lanes.1, local);
    }
    raw
}

/// The density sums of particle `i` (its outputs at `i - start`).
#[inline(always)]
fn sums_of(i: usize, start: usize, outputs: &DensityOutputs) -> (f32, f32) {
    let sums = &outputs.0;
    (sums.0[i - start], sums.1[i - start])
}

/// Finishes particle `i` alone (its outputs at `i - start`), whose density sums are `sum` and
/// `near_sum`.
#[inline(always)]
fn one(
    i: usize,
    start: usize,
    (sum, near_sum): (f32, f32),
    stage: &PressureStage,
    outputs: &mut DensityOutputs,
) {
    let (sums, pressures, (pressure_lanes, (fullness, _))) = outputs;
    let PressureStage {
        lanes,
        material,
        liquid,
        walls,
        folding,
        rest_density,
    } = *stage;
    let local = i - start;
    let mass = lanes.mass[i];
    let constants = &liquid.materials[material[i] as usize];
    let wall = if constants.walls_carry {
        walls.sums(Vec2::new(lanes.x[i], lanes.y[i]), sum)
    } else {
        WallSums::default()
    };
    fullness[local] = wall.fullness;
    // The particle's own mass times the neighbours it counts (Solenthaler and Pajarola 2008):
    // liquids of very different mass meet without a gap.
    let density = (sum + wall.sum) * (folding.norm * mass);
    let near_density = (near_sum + wall.near_sum) * (folding.near_norm * mass);
    let mut pressure = pressure(constants.stiffness, density, mass, rest_density);
    if constants.granular {
        // Grains push apart but never pull together: no cohesion.
        pressure = pressure.at_least(0.0);
    }
    let near_pressure = near_pressure(constants.near_stiffness, near_density);
    (sums.0[local], sums.1[local]) = (density, near_density);
    (pressures.0[local], pressures.1[local]) = (pressure, near_pressure);
    pressure_lanes.0[local] = folding.pressure(pressure);
    pressure_lanes.1[local] = folding.near_pressure(near_pressure);
}
