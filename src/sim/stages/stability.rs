//! The substeps a scene needs to stay a liquid, from its constants, as the move cap's CFL rule
//! (`SimParams::cfl`) gives the substeps its speed needs.
//!
//! Double density relaxation is an explicit position correction: each substep moves a pair
//! apart by ½ Δt² (P N a² + P_near N_near a³) (`physics::pressure_displacement`). Like a Jacobi
//! sweep it overshoots when that correction is larger than the compression it answers, and the
//! liquid boils: particles fly at the move cap every substep. How far a scene is from that edge
//! is a number without units, its *load*, which is 1 at the edge and grows with Δt²:
//!
//! - the **pressure load** (k / k_calm + k_near / k_near,calm) (Δt / Δt₀)² (h₀ / h)³ (ρ0 / ρ0₀)
//!   (ρ0 r² / ρ0₀ r₀²)^½, over the materials' own stiffnesses too. A pair's correction grows as
//!   k Δt² N ∂ρ/∂r, that is as k Δt² / h³ for the particle size it is measured at, and faster
//!   than the rest density, which sets how many neighbours push and how close they sit
//!   (measured: linear in ρ0 left ρ0 = 1000 boiling at the 19 substeps it asked for; the power
//!   1.5 asks for 35, calm). It is the same at any particle size: `Scene::at_particle_radius`
//!   scales k as λ³, Δt as λ, h and r as λ and ρ0 as λ⁻², which keeps ρ0 r².
//! - the **gravity load** |g| / g_calm (Δt / Δt₀)² (h₀ / h): gravity's fall per substep against h,
//!   which the pressure of a compressed pool must undo within the same substep.
//!
//! The two add: each alone is calibrated with the other at the seed's value (0.56 + 0.39 for the
//! seed), so their sum is cautious, and it is what a strong gravity on a stiff liquid needs
//! (stiffness 10 with gravity 1000 m/s² boiled at 16 m/s at the 45 substeps either alone asks
//! for; their sum asks for 58).
//!
//! Measured on `dam` without its crate, 400 frames at the seed's 7 substeps, 20 frames per
//! second, h₀ = 0.3 and ρ0₀ = 82 (fastest particle at the end; a calm pool is under 2 m/s):
//! stiffness 0.2 calm (1.2 m/s), 0.4 on the edge (1.0 m/s, 23,000 capped moves), 0.6 boils
//! (21 m/s); near stiffness 0.3 on the edge (1.8 m/s), 0.6 boils (7.3 m/s); gravity −30 m/s² on
//! the edge (2.1 m/s), −60 boils (24 m/s). With the substeps the loads ask for, each value up to
//! its accepted maximum is calm: stiffness 10 at 45 substeps (0.5 m/s), gravity −1000 at 45
//! (3.6 m/s), h = 2 r at 45 (0.6 m/s), ρ0 = 1000 at 45 (0.05 m/s). The calm constants below sit
//! below the edge by 10 to 20%.
//!
//! Surface tension has no load: it moves particles by a distance per substep with no Δt², and
//! `Scene::with_substeps` scales it by τ² to keep the liquid the same, so more substeps keep it
//! as strong against the pressure as it was. Its range is bounded instead
//! (`ranges::SURFACE_TENSION`, 30 Δt²: 0.0015 at 1/140 s; 0.002 is on the edge, 0.004 boils).

use crate::sim::numerics::portable::Ordered;
use crate::sim::scene::params::SimParams;
use crate::sim::scene::Material;

/// The substep the calm constants are measured at: 1 / (20 frames × 7 substeps) s.
const REFERENCE_DT: f32 = 1.0 / 140.0;
/// The interaction radius they are measured at (the seed's 6 × 0.05).
const REFERENCE_H: f32 = 0.3;
/// The particle radius they are measured at (the seed's).
const REFERENCE_RADIUS: f32 = 0.05;
/// The rest density they are measured at (the seed's).
const REFERENCE_REST_DENSITY: f32 = 82.0;
/// The stiffness k that is calm at the reference, the others at the seed's values.
const CALM_STIFFNESS: f32 = 0.35;
/// The near stiffness that is calm at the reference.
const CALM_NEAR_STIFFNESS: f32 = 0.3;
/// The gravity, in m/s², that is calm at the reference.
const CALM_GRAVITY: f32 = 25.0;
/// Most substeps per frame a world runs for stability (the top of `params.max_substeps`' range).
pub const MAX_STABILITY_SUBSTEPS: u32 = 400;

/// How much (Δt, h, ρ0) weigh in the pressure load under `params` at `substeps` per frame.
fn pressure_geometry(params: &SimParams, substeps: u32) -> f32 {
    let dt = dt_at(params, substeps) / REFERENCE_DT;
    let h = REFERENCE_H / params.interaction_radius;
    // ρ0 r²: how many particles a particle's area holds at rest, the same at any resolution.
    let radius = params.particle_radius / REFERENCE_RADIUS;
    let packing = params.rest_density * radius * radius / REFERENCE_REST_DENSITY;
    dt * dt * h * h * h * (params.rest_density / REFERENCE_REST_DENSITY) * packing.sqrt()
}

/// How much (Δt, h) weigh in the gravity load under `params` at `substeps` per frame.
fn gravity_geometry(params: &SimParams, substeps: u32) -> f32 {
    let dt = dt_at(params, substeps) / REFERENCE_DT;
    dt * dt * (REFERENCE_H / params.interaction_radius)
}

fn dt_at(params: &SimParams, substeps: u32) -> f32 {
    1.0 / (params.frame_rate * substeps.max(1) as f32)
}

/// The pressure load of the stiffest material of `materials` under `params` at `substeps` per
/// frame, and which of the two stiffnesses carries more of it (`"stiffness"` or
/// `"near_stiffness"`).
pub fn pressure_load(
    params: &SimParams,
    materials: &[Material],
    substeps: u32,
) -> (f32, &'static str) {
    let geometry = pressure_geometry(params, substeps);
    let mut most = (0.0, "stiffness");
    for material in materials {
        let far = material.stiffness.unwrap_or(params.stiffness) / CALM_STIFFNESS;
        let near = material.near_stiffness.unwrap_or(params.near_stiffness) / CALM_NEAR_STIFFNESS;
        let load = (far + near) * geometry;
        if load > most.0 {
            let field = if near > far {
                "near_stiffness"
            } else {
                "stiffness"
            };
            most = (load, field);
        }
    }
    most
}

/// The gravity load of `params` at `substeps` per frame.
pub fn gravity_load(params: &SimParams, substeps: u32) -> f32 {
    params.gravity.length() / CALM_GRAVITY * gravity_geometry(params, substeps)
}

/// The fields whose load asks for more than `own` substeps per frame (the substeps the scene
/// gives), with the substeps they need: empty for every embedded preset, which are calm as
/// written. The two loads add (a pool under strong gravity holds less stiffness), and the field
/// named is the one that carries most of their sum. The loads are measured at `own` substeps,
/// so the answer does not depend on how many a world runs now (surface tension, which
/// `rescale_substeps` changes, carries no load). A need may pass `MAX_STABILITY_SUBSTEPS`; a
/// world runs at most that many.
pub fn substeps_needed(
    params: &SimParams,
    materials: &[Material],
    own: u32,
) -> Vec<(&'static str, u32)> {
    let (pressure, field) = pressure_load(params, materials, own);
    let gravity = gravity_load(params, own);
    let load = pressure + gravity;
    // The load goes with Δt², so n substeps become n √load.
    let needed = (own as f32 * load.sqrt()).ceil() as u32;
    if load <= 1.0 || needed <= own {
        return Vec::new();
    }
    vec![(if gravity > pressure { "gravity" } else { field }, needed)]
}

/// The largest stiffness (`near` false) or near stiffness (`near` true) material `material`
/// may take under `params` at `substeps` per frame before the load reaches 1, the other
/// stiffness and gravity as they are.
pub fn calm_stiffness(params: &SimParams, material: &Material, near: bool, substeps: u32) -> f32 {
    let geometry = pressure_geometry(params, substeps);
    let room = (1.0 - gravity_load(params, substeps)) / geometry;
    let far = material.stiffness.unwrap_or(params.stiffness) / CALM_STIFFNESS;
    let close = material.near_stiffness.unwrap_or(params.near_stiffness) / CALM_NEAR_STIFFNESS;
    if near {
        ((room - far) * CALM_NEAR_STIFFNESS).at_least(0.0)
    } else {
        ((room - close) * CALM_STIFFNESS).at_least(0.0)
    }
}

/// The strongest gravity, in m/s², that is calm under `params` and `materials` at `substeps`
/// per frame.
pub fn calm_gravity(params: &SimParams, materials: &[Material], substeps: u32) -> f32 {
    let (pressure, _) = pressure_load(params, materials, substeps);
    (CALM_GRAVITY * (1.0 - pressure) / gravity_geometry(params, substeps)).at_least(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_needs_no_extra_substeps() {
        let params = SimParams::default();
        assert!(substeps_needed(&params, &[Material::default()], 7).is_empty());
        let (load, _) = pressure_load(&params, &[Material::default()], 7);
        let gravity = gravity_load(&params, 7);
        assert!(
            load + gravity < 0.96,
            "the seed's load is {load} + {gravity}"
        );
    }

    #[test]
    fn a_stiffness_of_ten_takes_the_substeps_that_calm_it() {
        let params = SimParams {
            stiffness: 10.0,
            ..SimParams::default()
        };
        let needs = substeps_needed(&params, &[Material::default()], 7);
        assert_eq!(needs.len(), 1);
        assert_eq!(needs[0].0, "stiffness");
        // Measured calm at 45 substeps; the load asks for 7 √(10 / 0.35 + 1 / 3 + 9.8 / 25).
        assert!((35..=45).contains(&needs[0].1), "{needs:?}");
    }

    #[test]
    fn the_load_is_the_same_at_any_particle_size() {
        let base = SimParams {
            stiffness: 2.0,
            ..SimParams::default()
        };
        let lambda: f32 = 0.5;
        let cube = lambda * lambda * lambda;
        let finer = SimParams {
            stiffness: base.stiffness * cube,
            near_stiffness: base.near_stiffness * cube,
            interaction_radius: base.interaction_radius * lambda,
            particle_radius: base.particle_radius * lambda,
            rest_density: base.rest_density / (lambda * lambda),
            substeps: 14,
            ..base.clone()
        };
        let (coarse, _) = pressure_load(&base, &[Material::default()], 7);
        let (fine, _) = pressure_load(&finer, &[Material::default()], 14);
        assert!(
            (coarse - fine).abs() < 1e-4 * coarse,
            "{coarse} against {fine}"
        );
    }

    #[test]
    fn calm_limits_sit_where_the_load_is_one() {
        let params = SimParams::default();
        let material = Material::default();
        for near in [false, true] {
            let limit = calm_stiffness(&params, &material, near, 7);
            let tuned = Material {
                stiffness: (!near).then_some(limit),
                near_stiffness: near.then_some(limit),
                ..Material::default()
            };
            let (load, _) = pressure_load(&params, &[tuned], 7);
            let total = load + gravity_load(&params, 7);
            assert!((total - 1.0).abs() < 1e-4, "{total}");
        }
        let strong = SimParams {
            gravity: glam::Vec2::new(
                0.0,
                -calm_gravity(&params, std::slice::from_ref(&material), 7),
            ),
            ..params
        };
        let (load, _) = pressure_load(&strong, &[material], 7);
        assert!((load + gravity_load(&strong, 7) - 1.0).abs() < 1e-4);
    }
}
