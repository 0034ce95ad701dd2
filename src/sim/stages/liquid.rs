//! The liquid's constants as the neighbour stages read them: each material's stiffnesses,
//! tension and viscosities resolved from its own overrides and the scene's `SimParams`, and the
//! shortcuts the scene allows.

use crate::sim::numerics::portable::Ordered;
use crate::sim::scene::params::SimParams;
use crate::sim::scene::Material;

/// One material's constants of the pair law, resolved (its override, else the scene's value).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MaterialConstants {
    /// The mass of one particle.
    pub mass: f32,
    /// Pressure stiffness k.
    pub stiffness: f32,
    /// Near-pressure stiffness k_near.
    pub near_stiffness: f32,
    /// Surface tension σs toward particles of the same material.
    pub surface_tension: f32,
    /// Linear viscosity σ (a pair of materials uses the mean).
    pub linear_viscosity: f32,
    /// Quadratic viscosity β (a pair of materials uses the mean).
    pub quadratic_viscosity: f32,
    /// The walls carry this material's density, pressure and viscosity (`wall_density`): true
    /// for a liquid; false for a material with springs or stickiness, which holds on to the walls
    /// by contact and friction (jelly, goo, slime), and for grains, which rest on the walls and
    /// feel their friction (sand).
    pub walls_carry: bool,
    /// A granular material (a `friction_angle` above 0, sand): its pressure never pulls
    /// (clamped at 0, no cohesion) and it has no surface tension.
    pub granular: bool,
}

impl MaterialConstants {
    /// `material`'s constants: each override, or `params`' value where it has none.
    pub fn resolve(material: &Material, params: &SimParams) -> Self {
        let granular = material.friction_angle > 0.0;
        Self {
            mass: material.mass,
            stiffness: material.stiffness.unwrap_or(params.stiffness),
            near_stiffness: material.near_stiffness.unwrap_or(params.near_stiffness),
            surface_tension: if granular {
                0.0
            } else {
                material.surface_tension.unwrap_or(params.surface_tension)
            },
            linear_viscosity: material.linear_viscosity.unwrap_or(params.linear_viscosity),
            quadratic_viscosity: material
                .quadratic_viscosity
                .unwrap_or(params.quadratic_viscosity),
            walls_carry: material.spring_stiffness == 0.0
                && material.stickiness == 0.0
                && !granular,
            granular,
        }
    }
}

/// Which shortcuts the pair loops may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sameness {
    /// The scene has one material (so one mass and one viscosity too).
    pub material: bool,
    /// Every particle has the same mass.
    pub mass: bool,
    /// Every material has the same viscosity.
    pub viscosity: bool,
}

/// The constants of every material, in the world's material order, and the shortcuts they allow.
#[derive(Clone, Debug, PartialEq)]
pub struct Liquid {
    /// Constants of each material.
    pub materials: Vec<MaterialConstants>,
    /// The shortcuts the materials allow.
    pub same: Sameness,
}

impl Liquid {
    /// The constants of `materials` (at least one) under `params`.
    pub fn new(materials: &[Material], params: &SimParams) -> Self {
        let constants: Vec<MaterialConstants> = materials
            .iter()
            .map(|material| MaterialConstants::resolve(material, params))
            .collect();
        let viscosity = |c: &MaterialConstants| (c.linear_viscosity, c.quadratic_viscosity);
        let same = Sameness {
            material: materials.len() == 1,
            mass: materials.iter().all(|m| m.mass == materials[0].mass),
            viscosity: constants
                .iter()
                .all(|c| viscosity(c) == viscosity(&constants[0])),
        };
        Self {
            materials: constants,
            same,
        }
    }
}

/// How many times more substeps a scene of these materials needs to stay stable: a light
/// particle between heavy ones feels their pressure over its own small mass, so its pair
/// "spring" is stiffer by the mass ratio and its period shorter by the ratio's square root
/// (`docs/PHYSICS.md`, "Density contrast"). One for ratios up to 4 (every built-in preset).
pub fn contrast_substep_factor(materials: &[Material]) -> u32 {
    let masses = materials.iter().map(|m| m.mass);
    let lightest = masses
        .clone()
        .fold(f32::INFINITY, crate::sim::numerics::portable::min);
    let heaviest = masses.fold(0.0, crate::sim::numerics::portable::max);
    if !lightest.is_finite() || lightest <= 0.0 {
        return 1;
    }
    ((heaviest / lightest).sqrt() / 2.0).ceil().at_least(1.0) as u32
}
