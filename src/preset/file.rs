//! The preset file format: the TOML tables as serde reads them, before any value is checked.

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
    pub air: Option<super::air::AirFile>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bodies: Vec<super::bodies::BodyFile>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hinges: Vec<super::bodies::HingeFile>,
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
