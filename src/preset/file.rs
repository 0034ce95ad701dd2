//! The preset file format: the TOML tables as serde reads them, before any value is checked.

use crate::sim::air::AirSettings;
use crate::sim::{Material, SimParams};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PresetFile {
    pub name: String,
    pub description: String,
    #[serde(default)]
    pub params: ParamsFile,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_particles: Option<usize>,
    pub walls: Vec<WallFile>,
    pub materials: Vec<Material>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub emitters: Vec<EmitterFile>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blocks: Vec<BlockFile>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub obstacles: Vec<ObstacleFile>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub air: Option<AirFile>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bodies: Vec<BodyFile>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hinges: Vec<HingeFile>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ObstacleFile {
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub centre: Option<[f32; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a: Option<[f32; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub b: Option<[f32; 2]>,
    pub radius: f32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub friction: Option<f32>,
}

/// `[params]`: every field optional, defaulting to `SimParams::default()` (the seed's values).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub(super) struct ParamsFile {
    pub rest_density: f32,
    pub stiffness: f32,
    pub near_stiffness: f32,
    pub surface_tension: f32,
    pub linear_viscosity: f32,
    pub quadratic_viscosity: f32,
    pub particle_radius: f32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interaction_radius: Option<f32>,
    pub wall_friction: f32,
    pub gravity: [f32; 2],
    pub frame_rate: f32,
    pub substeps: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_substeps: Option<u32>,
    pub cfl: f32,
    pub max_particles: usize,
}

impl Default for ParamsFile {
    fn default() -> Self {
        let seed = SimParams::default();
        Self {
            rest_density: seed.rest_density,
            stiffness: seed.stiffness,
            near_stiffness: seed.near_stiffness,
            surface_tension: seed.surface_tension,
            linear_viscosity: seed.linear_viscosity,
            quadratic_viscosity: seed.quadratic_viscosity,
            particle_radius: seed.particle_radius,
            interaction_radius: None,
            wall_friction: seed.wall_friction,
            gravity: seed.gravity.to_array(),
            frame_rate: seed.frame_rate,
            substeps: seed.substeps,
            max_substeps: None,
            cfl: seed.cfl,
            max_particles: seed.max_particles,
        }
    }
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct WallFile {
    pub normal: [f32; 2],
    pub offset: f32,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct EmitterFile {
    pub material: String,
    pub position: [f32; 2],
    pub direction: [f32; 2],
    pub width: f32,
    pub speed: f32,
    #[serde(default)]
    pub speed_jitter: f32,
    #[serde(default)]
    pub delay: f32,
    pub rate: f32,
    pub budget: usize,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct BlockFile {
    pub material: String,
    pub min: [f32; 2],
    pub max: [f32; 2],
    pub spacing: f32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<usize>,
}

/// `[air]`: every field optional, defaulting to `AirSettings::default()`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub(super) struct AirFile {
    pub columns: usize,
    pub density: f32,
    pub smoke_weight: f32,
    pub heat_lift: f32,
    pub vorticity: f32,
    pub cooling: f32,
    pub smoke_decay: f32,
    pub drag: f32,
    pub heating: f32,
    pub advection: String,
    pub solver: String,
    pub tolerance: f32,
    pub max_iterations: u32,
    pub colour: [f32; 3],
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<AirSourceFile>,
}

impl Default for AirFile {
    /// `AirSettings::default()`, no sources.
    fn default() -> Self {
        let air = AirSettings::default();
        Self {
            columns: air.columns,
            density: air.density,
            smoke_weight: air.smoke_weight,
            heat_lift: air.heat_lift,
            vorticity: air.vorticity,
            cooling: air.cooling,
            smoke_decay: air.smoke_decay,
            drag: air.drag,
            heating: air.heating,
            advection: "conservative".into(),
            solver: "multigrid".into(),
            tolerance: air.solver.tolerance,
            max_iterations: air.solver.max_iterations,
            colour: air.colour,
            sources: Vec::new(),
        }
    }
}

/// `[[air.sources]]`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AirSourceFile {
    pub position: [f32; 2],
    pub radius: f32,
    #[serde(default)]
    pub smoke: f32,
    #[serde(default)]
    pub temperature: f32,
    #[serde(default)]
    pub velocity: [f32; 2],
    #[serde(default)]
    pub start: f32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration: Option<f32>,
}

/// `[[bodies]]`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct BodyFile {
    pub name: String,
    pub position: [f32; 2],
    #[serde(default)]
    pub angle: f32,
    #[serde(default, skip_serializing_if = "is_zero_vector")]
    pub velocity: [f32; 2],
    #[serde(default, skip_serializing_if = "is_zero")]
    pub angular_velocity: f32,
    pub density: f32,
    #[serde(default = "default_friction")]
    pub friction: f32,
    #[serde(default)]
    pub restitution: f32,
    #[serde(default = "default_colour")]
    pub colour: [f32; 3],
    pub shapes: Vec<ShapeFile>,
}

/// One part of a body: `kind` and the sizes that kind needs.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ShapeFile {
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radius: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub half_size: Option<[f32; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub half_length: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<Vec<[f32; 2]>>,
    #[serde(default, skip_serializing_if = "is_zero_vector")]
    pub offset: [f32; 2],
    #[serde(default, skip_serializing_if = "is_zero")]
    pub angle: f32,
}

/// `[[hinges]]`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct HingeFile {
    pub body: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    pub anchor: [f32; 2],
}

fn default_friction() -> f32 {
    0.5
}

fn default_colour() -> [f32; 3] {
    [0.6, 0.45, 0.3]
}

fn is_zero(value: &f32) -> bool {
    *value == 0.0
}

fn is_zero_vector(value: &[f32; 2]) -> bool {
    value[0] == 0.0 && value[1] == 0.0
}
