//! The substeps a scene needs to stay a liquid, from its constants, as the move cap's CFL rule
//! (`SimParams::cfl`) gives the substeps its speed needs.
//!
//! Double density relaxation is an explicit position correction: each substep moves a pair
//! apart by ½ Δt² (P N a² + P_near N_near a³) (`physics::pressure_displacement`). Like a Jacobi
//! sweep it overshoots when that correction is larger than the compression it answers, and the
//! liquid boils: particles fly at the move cap every substep. How far a scene is from that edge
//! is a number without units, its *load*, which is 1 at the edge and grows with Δt²:
//!
//! - the **pressure load** (k / k_calm + k_near / k_near,calm) (Δt / Δt₀)² (h₀ / h)³ (ρ0 / ρ0₀)^1.5,
//!   over the materials' own stiffnesses too. A pair's correction grows as k Δt² N ∂ρ/∂r, that is
//!   as k Δt² / h³ for the particle size it is measured at, and faster than the rest density,
//!   which sets how many neighbours push and how close they sit (measured: linear in ρ0 left
//!   ρ0 = 1000 boiling at the 19 substeps it asked for; the power 1.5 asks for 35, calm). It is
//!   the same at any particle size: `Scene::at_particle_radius` scales k as λ³, Δt as λ, h as λ
//!   and ρ0 as λ⁻² (and keeps ρ0 r² with it).
//! - the **gravity load** |g| / g_calm (Δt / Δt₀)² (h₀ / h): gravity's fall per substep against h,
//!   which the pressure of a compressed pool must undo within the same substep.
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

use super::params::SimParams;
use super::portable::Ordered;
use super::scene::Material;

/// The substep the calm constants are measured at: 1 / (20 frames × 7 substeps) s.
const REFERENCE_DT: f32 = 1.0 / 140.0;
/// The interaction radius they are measured at (the seed's 6 × 0.05).
const REFERENCE_H: f32 = 0.3;
/// The rest density they are measured at (the seed's).
const REFERENCE_REST_DENSITY: f32 = 82.0;
/// The stiffness k that is calm at the reference, the others at the seed's values.
const CALM_STIFFNESS: f32 = 0.35;
/// The near stiffness that is calm at the reference.
const CALM_NEAR_STIFFNESS: f32 = 0.3;
/// The gravity, in m/s², that is calm at the reference.
const CALM_GRAVITY: f32 = 25.0;
/// Most substeps per frame stability may ask for (the top of `params.max_substeps`' range).
pub const MAX_STABILITY_SUBSTEPS: u32 = 400;

/// What the load of one field is measured against: how much (Δt, h, ρ0) weigh, for `params`.
fn pressure_geometry(params: &SimParams) -> f32 {
    let dt = params.dt() / REFERENCE_DT;
    let h = REFERENCE_H / params.interaction_radius;
    let packing = params.rest_density / REFERENCE_REST_DENSITY;
    dt * dt * h * h * h * packing * packing.sqrt()
}

fn gravity_geometry(params: &SimParams) -> f32 {
    let dt = params.dt() / REFERENCE_DT;
    dt * dt * (REFERENCE_H / params.interaction_radius)
}

/// The pressure load of the stiffest material of `materials` under `params`, and which of the
/// two stiffnesses carries more of it (`"stiffness"` or `"near_stiffness"`).
pub fn pressure_load(params: &SimParams, materials: &[Material]) -> (f32, &'static str) {
    let geometry = pressure_geometry(params);
    let mut most = (0.0, "stiffness");
    for material in materials {
        let far = material.stiffness.unwrap_or(params.stiffness) / CALM_STIFFNESS;
        let near = material.near_stiffness.unwrap_or(params.near_stiffness) / CALM_NEAR_STIFFNESS;
        let load = (far + near) * geometry;
        if load > most.0 {
            most = (
                load,
                if near > far {
                    "near_stiffness"
                } else {
                    "stiffness"
                },
            );
        }
    }
    most
}

/// The gravity load of `params`.
pub fn gravity_load(params: &SimParams) -> f32 {
    params.gravity.length() / CALM_GRAVITY * gravity_geometry(params)
}

/// The fields whose load asks for more substeps per frame than `params.substeps`, each with the
/// substeps it needs (at most `MAX_STABILITY_SUBSTEPS`), largest first. Empty for every
/// embedded preset: they are calm as written.
pub fn substeps_needed(params: &SimParams, materials: &[Material]) -> Vec<(&'static str, u32)> {
    let (pressure, field) = pressure_load(params, materials);
    let mut needs: Vec<(&'static str, u32)> =
        [(field, pressure), ("gravity", gravity_load(params))]
            .into_iter()
            .filter(|&(_, load)| load > 1.0)
            .map(|(field, load)| {
                // The load goes with Δt², so n substeps become n √load.
                let needed = (params.substeps as f32 * load.sqrt()).ceil();
                (field, needed.at_most(MAX_STABILITY_SUBSTEPS as f32) as u32)
            })
            .filter(|&(_, needed)| needed > params.substeps)
            .collect();
    needs.sort_by_key(|&(_, needed)| std::cmp::Reverse(needed));
    needs
}

/// The largest stiffness (`near` false) or near stiffness (`near` true) material `material`
/// may take under `params` before its pressure load reaches 1, the other stiffness as it is.
pub fn calm_stiffness(params: &SimParams, material: &Material, near: bool) -> f32 {
    let geometry = pressure_geometry(params);
    let far = material.stiffness.unwrap_or(params.stiffness) / CALM_STIFFNESS;
    let close = material.near_stiffness.unwrap_or(params.near_stiffness) / CALM_NEAR_STIFFNESS;
    if near {
        ((1.0 / geometry - far) * CALM_NEAR_STIFFNESS).at_least(0.0)
    } else {
        ((1.0 / geometry - close) * CALM_STIFFNESS).at_least(0.0)
    }
}

/// The strongest gravity, in m/s², that is calm under `params`.
pub fn calm_gravity(params: &SimParams) -> f32 {
    CALM_GRAVITY / gravity_geometry(params)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_needs_no_extra_substeps() {
        let params = SimParams::default();
        assert!(substeps_needed(&params, &[Material::default()]).is_empty());
        let (load, _) = pressure_load(&params, &[Material::default()]);
        assert!(load < 0.6, "the seed's pressure load is {load}");
    }

    #[test]
    fn a_stiffness_of_ten_takes_the_substeps_that_calm_it() {
        let params = SimParams {
            stiffness: 10.0,
            ..SimParams::default()
        };
        let needs = substeps_needed(&params, &[Material::default()]);
        assert_eq!(needs.len(), 1);
        assert_eq!(needs[0].0, "stiffness");
        // Measured calm at 45 substeps; the load asks for about 7 √(10 / 0.35 + 1 / 3).
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
            rest_density: base.rest_density / (lambda * lambda),
            substeps: 14,
            ..base.clone()
        };
        let (coarse, _) = pressure_load(&base, &[Material::default()]);
        let (fine, _) = pressure_load(&finer, &[Material::default()]);
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
            let limit = calm_stiffness(&params, &material, near);
            let tuned = Material {
                stiffness: (!near).then_some(limit),
                near_stiffness: near.then_some(limit),
                ..Material::default()
            };
            let (load, _) = pressure_load(&params, &[tuned]);
            assert!((load - 1.0).abs() < 1e-4, "{load}");
        }
        let strong = SimParams {
            gravity: glam::Vec2::new(0.0, -calm_gravity(&params)),
            ..params
        };
        assert!((gravity_load(&strong) - 1.0).abs() < 1e-4);
    }
}
