//! The `[air]` table of a preset: the grid, its constants and its sources, read and checked.

use super::validate::{
    check_count, check_positive, check_range, check_vector, invalid, Invalid, Step,
};
use crate::sim::air::{AirSettings, AirSource, Method, ScalarAdvection, MAX_AIR_SPEED};
use crate::sim::Domain;
use serde::{Deserialize, Serialize};
use Step::{Index, Key};

/// Most cells a side of the air grid may have.
pub const MAX_AIR_CELLS: usize = 1024;

/// `[air]`: every field optional, defaulting to `AirSettings::default()`.
#[derive(Deserialize, Serialize)]
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
    fn default() -> Self {
        super::save::air_file(&AirSettings::default())
    }
}

/// `[[air.sources]]`.
#[derive(Deserialize, Serialize)]
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

/// Checks `[air]` against the walls `domain`.
pub(super) fn air(file: &AirFile, domain: &Domain) -> Result<AirSettings, Invalid> {
    let at = |field| [Key("air"), Key(field)];
    let columns = check_count(&at("columns"), file.columns, 4, MAX_AIR_CELLS)?;
    let size = domain.max() - domain.min();
    let rows = (size.y / (size.x / columns as f32)).ceil() as usize;
    if rows > MAX_AIR_CELLS {
        return Err(invalid(
            &at("columns"),
            format!(
                "gives {rows} rows of square cells over the walls' height; at most \
                 {MAX_AIR_CELLS} are allowed"
            ),
        ));
    }
    let advection = match file.advection.as_str() {
        "conservative" => ScalarAdvection::Conservative,
        "semi-lagrangian" => ScalarAdvection::SemiLagrangian,
        other => {
            return Err(invalid(
                &at("advection"),
                format!("must be \"conservative\" or \"semi-lagrangian\", got {other:?}"),
            ))
        }
    };
    let method = match file.solver.as_str() {
        "multigrid" => Method::MultigridPcg,
        "gauss-seidel" => Method::GaussSeidel,
        other => {
            return Err(invalid(
                &at("solver"),
                format!("must be \"multigrid\" or \"gauss-seidel\", got {other:?}"),
            ))
        }
    };
    let mut settings = AirSettings {
        columns,
        density: check_positive(&at("density"), file.density, 1000.0)?,
        smoke_weight: check_range(&at("smoke_weight"), file.smoke_weight, 0.0, 100.0)?,
        heat_lift: check_range(&at("heat_lift"), file.heat_lift, 0.0, 100.0)?,
        vorticity: check_range(&at("vorticity"), file.vorticity, 0.0, 100.0)?,
        cooling: check_range(&at("cooling"), file.cooling, 0.0, 100.0)?,
        smoke_decay: check_range(&at("smoke_decay"), file.smoke_decay, 0.0, 100.0)?,
        drag: check_range(&at("drag"), file.drag, 0.0, 1000.0)?,
        heating: check_range(&at("heating"), file.heating, 0.0, 1000.0)?,
        advection,
        colour: file.colour,
        ..AirSettings::default()
    };
    for channel in file.colour {
        check_range(&at("colour"), channel, 0.0, 1.0)?;
    }
    settings.solver.method = method;
    settings.solver.tolerance = check_range(&at("tolerance"), file.tolerance, 1e-8, 0.5)?;
    settings.solver.max_iterations = check_count(
        &at("max_iterations"),
        file.max_iterations as usize,
        1,
        100_000,
    )? as u32;
    for (index, source) in file.sources.iter().enumerate() {
        let at = |field| [Key("air"), Key("sources"), Index(index), Key(field)];
        let position = check_vector(
            &at("position"),
            source.position,
            super::validate::MAX_COORDINATE,
        )?;
        if !domain.contains(position) {
            return Err(invalid(&at("position"), "must be inside the walls"));
        }
        settings.sources.push(AirSource {
            position,
            radius: check_positive(&at("radius"), source.radius, 1000.0)?,
            smoke: check_range(&at("smoke"), source.smoke, 0.0, 1.0e4)?,
            temperature: check_range(&at("temperature"), source.temperature, -1000.0, 1000.0)?,
            velocity: check_vector(&at("velocity"), source.velocity, MAX_AIR_SPEED)?,
            start: check_range(&at("start"), source.start, 0.0, 1.0e6)?,
            duration: source
                .duration
                .map(|d| check_positive(&at("duration"), d, 1.0e6))
                .transpose()?
                .unwrap_or(f32::INFINITY),
        });
    }
    Ok(settings)
}
