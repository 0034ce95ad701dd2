//! The same scene at any particle size: [`Scene::at_particle_radius`] rescales every constant
//! that depends on the particle size, so that a liquid of finer particles behaves like the
//! coarser one, only smoother. `docs/PHYSICS.md` ("Resolution") derives each rule.
//!
//! With λ = r′ / r the ratio of the new particle radius to the old and τ = Δt′ / Δt the ratio of
//! the substeps, the liquid keeps its physics when:
//!
//! | quantity | scaled by | what stays the same |
//! | --- | --- | --- |
//! | particle radius r, interaction radius h, block spacing | λ | h / r: each particle's neighbour count |
//! | substep Δt | τ ≈ λ (substeps per frame rounded up) | the relaxation number k Δt² / h⁵, the CFL number |
//! | rest density ρ0 | λ⁻² | the rest spacing (ρ0 counts particles per area) |
//! | particle mass m | λ² | the liquid's mass per area |
//! | stiffness k, near stiffness k_near | λ³ | the speed of sound, so a pool compresses as much |
//! | linear viscosity σ | λ⁻³ | the kinematic viscosity of the continuum |
//! | quadratic viscosity β | λ⁻² | the distance an impact is stopped in, in h |
//! | surface tension σs | τ² ([`Scene::with_substeps`]) | how much the cohesion squeezes a pool |
//! | spring stiffness, stickiness | λ⁻² | the elastic wave speed; the grip of a sticky layer |
//! | an elastic solid's tear stretch (`springs::tear_stretch`, in h) | λ^(−½) | the energy a crack costs per length |
//! | pressure shading scale | λ⁻³ | the colour of a pool at a given depth (P grows as λ³) |
//! | emitter rows, budgets, block counts, particle cap | λ⁻² in particles | volumes and volume flows |
//!
//! Gravity, walls, obstacles, emitter positions, widths and speeds, frame rate, `cfl`, friction,
//! yield ratios, plasticity and the reaches given in h do not depend on the particle size.

use super::domain::{Domain, DomainError};
use super::material::{Law, MATERIAL_FIELDS};
use super::params::SimParams;
use crate::sim::numerics::portable::Ordered;
use crate::sim::scene::{Emitter, Material, Scene};

/// The particle radius the seed's constants are written for (Madams 2010): preset files give
/// every value at this radius, and their `particle_radius` chooses the resolution they run at.
pub const REFERENCE_RADIUS: f32 = 0.05;

impl Scene {
    /// This scene with particles of `radius` instead of `params.particle_radius`, every constant
    /// rescaled as the module documentation says. At the scene's own radius it is the same scene,
    /// bit for bit. Fails when the walls leave no room for particles that large.
    pub fn at_particle_radius(&self, radius: f32) -> Result<Scene, DomainError> {
        let old = self.params.particle_radius;
        if radius == old {
            return Ok(self.clone());
        }
        let lambda = radius / old;
        let substeps = (self.params.substeps as f32 / lambda).ceil().at_least(1.0) as u32;
        let mut scene = self.with_substeps(substeps);
        let factors = Factors::new(lambda);
        let p = &mut scene.params;
        p.particle_radius = radius;
        p.interaction_radius *= lambda;
        p.rest_density *= factors.rest_density;
        // The scene-wide values the materials' overrides stand for, by the same laws.
        p.stiffness *= Law::Stiffness.length_factor(lambda);
        p.near_stiffness *= Law::Stiffness.length_factor(lambda);
        p.linear_viscosity *= Law::LinearViscosity.length_factor(lambda);
        p.quadratic_viscosity *= Law::QuadraticViscosity.length_factor(lambda);
        p.max_particles = scale_count(p.max_particles, factors.count);
        for material in &mut scene.materials {
            factors.scale_material(material);
        }
        for block in &mut scene.blocks {
            block.spacing *= lambda;
            block.count = block.count.map(|count| scale_count(count, factors.count));
        }
        for emitter in &mut scene.emitters {
            scale_emitter(emitter, old, radius);
        }
        scene.domain = Domain::new(self.domain.walls().to_vec(), radius)?;
        Ok(scene)
    }

    /// This scene in `substeps` substeps per frame instead of `params.substeps` (the adaptive
    /// limit `max_substeps` in proportion), with the surface tension rescaled so that the liquid
    /// behaves the same: tension moves particles by a fixed distance per substep (it carries no
    /// Δt², see `physics::tension_displacement`), so its constant goes with τ² = (Δt′ / Δt)².
    pub fn with_substeps(&self, substeps: u32) -> Scene {
        let mut scene = self.clone();
        rescale_substeps(&mut scene.params, &mut scene.materials, substeps);
        scene
    }

    /// About how many particles the scene holds once every block is filled and every emitter
    /// has spent its budget, within the particle cap (block sites taken by obstacles counted
    /// too: an estimate).
    pub fn particle_estimate(&self) -> usize {
        let blocks: usize = self.blocks.iter().map(|b| b.positions().len()).sum();
        let emitted: usize = self.emitters.iter().map(|e| e.budget).sum();
        (blocks + emitted).min(self.params.max_particles)
    }
}

/// `params` and `materials` in `substeps` substeps per frame instead of `params.substeps`, as
/// `Scene::with_substeps` says (a running world changes its substeps the same way,
/// `World::tune`); nothing changes for the same count or 0.
pub(crate) fn rescale_substeps(params: &mut SimParams, materials: &mut [Material], substeps: u32) {
    if substeps == params.substeps || substeps == 0 {
        return;
    }
    let tau = params.substeps as f32 / substeps as f32;
    let tension = tau * tau;
    params.max_substeps = ((params.max_substeps as f32 * substeps as f32 / params.substeps as f32)
        .ceil() as u32)
        .max(substeps);
    params.substeps = substeps;
    params.surface_tension *= tension;
    for material in materials {
        for row in MATERIAL_FIELDS
            .iter()
            .filter(|row| row.law == Law::Substeps)
        {
            if let Some(value) = (row.value)(material) {
                (row.put)(material, Some(value * tension));
            }
        }
    }
}

/// `material` for particles λ times the size (`radius × lambda`): every constant that depends on
/// the particle size scaled as `Scene::at_particle_radius` scales it. The surface tension is left
/// alone: it follows the substeps (`Scene::with_substeps`), not the radius.
pub(crate) fn scale_material(material: &mut Material, lambda: f32) {
    Factors::new(lambda).scale_material(material);
}

/// The factors of one change of resolution (see the module documentation).
struct Factors {
    lambda: f32,
    rest_density: f32,
    /// Particles per volume: λ⁻².
    count: f32,
}

impl Factors {
    fn new(lambda: f32) -> Self {
        let l2 = lambda * lambda;
        Self {
            lambda,
            rest_density: 1.0 / l2,
            count: 1.0 / l2,
        }
    }

    fn scale_material(&self, material: &mut Material) {
        for row in MATERIAL_FIELDS {
            if let Some(value) = (row.value)(material) {
                (row.put)(material, Some(value * row.law.length_factor(self.lambda)));
            }
        }
    }
}

/// `count` particles of the old size, in particles of the new (`factor` = λ⁻²), at least one.
fn scale_count(count: usize, factor: f32) -> usize {
    ((count as f64 * factor as f64).round() as usize).max(1)
}

/// An emitter for particles of radius `new` instead of `old`, with the same stream: as thick
/// (its width plus one old particle), the same volume per second and in all.
///
/// A row holds more, thinner particles, and the rows come more often (the rate corrected for the
/// rounding of the count across, so that the volume flow is the old one): rows stay as far apart
/// along the stream, in new diameters, as the old ones were in old diameters, so the stream is
/// the same continuous jet, only finer. (Emitting each old row as a burst of several new rows at
/// once, one diameter apart, instead left a gap after every burst: from three times the
/// particles on, `seed`'s streams came out as a string of clumps that broke up at the nozzle.)
fn scale_emitter(emitter: &mut Emitter, old: f32, new: f32) {
    let old_row = emitter.row_offsets(old).len();
    let thickness = emitter.width + 2.0 * old;
    let across = ((thickness / (2.0 * new)).round() as usize).max(1);
    emitter.width = (across - 1) as f32 * 2.0 * new;
    let (old_area, new_area) = (4.0 * old * old, 4.0 * new * new);
    let old_volume = old_row as f32 * old_area;
    let new_volume = across as f32 * new_area;
    emitter.rate *= old_volume / new_volume;
    emitter.budget = scale_count(emitter.budget, old_area / new_area);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Block, Emitter, Material, SimParams, Wall};
    use glam::Vec2;

    fn scene() -> Scene {
        let walls = vec![
            Wall::new(Vec2::X, 0.0),
            Wall::new(Vec2::Y, 0.0),
            Wall::new(-Vec2::X, -4.0),
            Wall::new(-Vec2::Y, -3.0),
        ];
        let params = SimParams::default();
        Scene {
            domain: Domain::new(walls, params.particle_radius).unwrap(),
            materials: vec![Material {
                mass: 1.5,
                stiffness: Some(0.2),
                spring_stiffness: 100.0,
                ..Material::default()
            }],
            obstacles: Vec::new(),
            emitters: vec![Emitter {
                material: 0,
                position: Vec2::new(1.0, 2.0),
                direction: Vec2::X,
                width: 0.2,
                speed: 3.0,
                speed_jitter: 0.0,
                delay: 0.0,
                rate: 30.0,
                budget: 600,
            }],
            blocks: vec![Block {
                material: 0,
                min: Vec2::new(0.1, 0.1),
                max: Vec2::new(2.1, 1.1),
                spacing: 0.1,
                count: None,
            }],
            params,
            air: None,
            bodies: Vec::new(),
            hinges: Vec::new(),
            reactions: Vec::new(),
        }
    }

    #[test]
    fn the_scene_at_its_own_radius_is_unchanged() {
        let scene = scene();
        let same = scene
            .at_particle_radius(scene.params.particle_radius)
            .unwrap();
        assert_eq!(same.params, scene.params);
        assert_eq!(same.materials, scene.materials);
        assert_eq!(same.emitters, scene.emitters);
    }

    #[test]
    fn halving_the_radius_follows_the_table() {
        let scene = scene();
        let half = scene.at_particle_radius(0.025).unwrap();
        let (p, q) = (&scene.params, &half.params);
        let close = |a: f32, b: f32| (a - b).abs() <= 1e-5 * b.abs().at_least(1e-6);
        assert!(close(q.interaction_radius, p.interaction_radius / 2.0));
        assert_eq!(q.substeps, 14);
        assert_eq!(q.max_substeps, 56);
        assert!(close(q.rest_density, p.rest_density * 4.0));
        assert!(close(q.stiffness, p.stiffness / 8.0));
        assert!(close(q.near_stiffness, p.near_stiffness / 8.0));
        // τ = ½ here: σs × τ².
        assert!(close(q.surface_tension, p.surface_tension / 4.0));
        assert!(close(q.linear_viscosity, p.linear_viscosity * 8.0));
        assert!(close(q.quadratic_viscosity, p.quadratic_viscosity * 4.0));
        let (m, n) = (&scene.materials[0], &half.materials[0]);
        assert!(close(n.mass, m.mass / 4.0));
        assert!(close(n.stiffness.unwrap(), m.stiffness.unwrap() / 8.0));
        assert!(close(n.spring_stiffness, m.spring_stiffness * 4.0));
        assert!(close(half.blocks[0].spacing, 0.05));
        // Four times the particles in the same volumes.
        let ratio = half.particle_estimate() as f32 / scene.particle_estimate() as f32;
        assert!((ratio - 4.0).abs() < 0.25, "{ratio}");
    }

    #[test]
    fn emitters_keep_their_stream() {
        for radius in [0.1, 0.035, 0.025, 0.0125] {
            let scene = scene();
            let old = &scene.emitters[0];
            let new = &scene.at_particle_radius(radius).unwrap().emitters[0];
            let flow = |e: &Emitter, r: f32| e.row_offsets(r).len() as f32 * e.rate * 4.0 * r * r;
            let (before, after) = (flow(old, 0.05), flow(new, radius));
            assert!(
                (after / before - 1.0).abs() < 1e-4,
                "{radius}: {after} vs {before}"
            );
            let total = |e: &Emitter, r: f32| e.budget as f32 * 4.0 * r * r;
            let (before, after) = (total(old, 0.05), total(new, radius));
            assert!(
                (after / before - 1.0).abs() < 0.01,
                "{radius}: {after} vs {before}"
            );
            // As thick: the row spans the old width plus one old particle, less one new one.
            assert!((new.width + 2.0 * radius - (old.width + 0.1)).abs() <= 2.0 * radius);
        }
    }
}
