//! The preset file format: the TOML tables as serde reads them, before any value is checked.
//!
//! The file is the scene's own types ([`SimParams`], [`Material`], [`Wall`], [`AirSettings`];
//! emitters and blocks as [`Emitter`] and [`Block`] naming their material instead of indexing
//! it). Only obstacles, bodies and hinges have a file form of their own: a `kind` and the sizes
//! that kind needs, which serde cannot check for unknown keys through a flattened tag, and for
//! bodies the parts' geometry the engine derives from them.

use super::library::{self, ReactionFile};
use super::{locate, PresetError};
use crate::level::{Goal, Rules};
use crate::sim::scene::ranges::Step::{Index, Key};
use crate::sim::subsystems::air::AirSettings;
use crate::sim::{Block, Emitter, Material, MaterialPatch, SimParams, Wall};
use serde::{Deserialize, Serialize};

/// A preset file. `M` is how its materials are held: as written (`MaterialPatch`, each entry
/// only the fields it gives) while it is read, then resolved against the material library
/// (`Material`).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PresetFile<M = Material> {
    pub name: String,
    pub description: String,
    #[serde(default)]
    pub params: SimParams,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_particles: Option<usize>,
    pub walls: Vec<Wall>,
    pub materials: Vec<M>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub emitters: Vec<Emitter<String>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blocks: Vec<Block<String>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub obstacles: Vec<ObstacleFile>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub air: Option<AirSettings>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bodies: Vec<BodyFile>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hinges: Vec<HingeFile>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reactions: Vec<ReactionFile>,
    /// A level's rules (`crate::level`): with `goals`, the scene is a level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<Rules>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub goals: Vec<Goal>,
}

impl PresetFile {
    /// Reads preset text (`file_name` names it in errors): each material entry resolved against the
    /// material library (`library::resolve`), and the library's reactions between the scene's
    /// materials brought in (`library::apply`). Two parameters default to a multiple of
    /// another, which serde's defaults cannot see: an `interaction_radius` left out is
    /// 6 × `particle_radius`, a `max_substeps` left out 4 × `substeps`. They are filled in here,
    /// so the file as read (and as saved back) holds every value the scene is built from.
    pub fn read(file_name: &str, text: &str) -> Result<Self, PresetError> {
        let located = |error: toml::de::Error| locate::read_error(file_name, text, &error);
        let written: PresetFile<MaterialPatch> = toml::from_str(text).map_err(located)?;
        let table: toml::Table = toml::from_str(text).map_err(located)?;
        let (mut file, patches) = written.with_materials(Vec::new());
        for (index, patch) in patches.into_iter().enumerate() {
            let line = |key: &'static str| {
                let path = [Key("materials"), Index(index), Key(key)];
                locate::line_of_field(text, &path)
            };
            file.materials
                .push(library::resolve(file_name, index, patch, line)?);
        }
        library::apply(&mut file.materials, &mut file.reactions);
        let params = table.get("params").and_then(toml::Value::as_table);
        let given = |key| params.is_some_and(|params| params.contains_key(key));
        if !given("interaction_radius") {
            file.params.interaction_radius = 6.0 * file.params.particle_radius;
        }
        if !given("max_substeps") {
            file.params.max_substeps = file.params.substeps.saturating_mul(4);
        }
        Ok(file)
    }
}

impl<M> PresetFile<M> {
    /// The same file with `materials` instead of its own, and its own beside it.
    fn with_materials<N>(self, materials: Vec<N>) -> (PresetFile<N>, Vec<M>) {
        let file = PresetFile {
            name: self.name,
            description: self.description,
            params: self.params,
            base_particles: self.base_particles,
            walls: self.walls,
            materials,
            emitters: self.emitters,
            blocks: self.blocks,
            obstacles: self.obstacles,
            air: self.air,
            bodies: self.bodies,
            hinges: self.hinges,
            reactions: self.reactions,
            level: self.level,
            goals: self.goals,
        };
        (file, self.materials)
    }
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f32>,
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
