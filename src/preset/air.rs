//! The `[air]` table of a preset: the grid, its constants and its sources, read and checked.

use super::check::{check, check_colour, check_count, check_vector, invalid, Invalid};
use super::file::AirFile;
use crate::sim::air::{AirSettings, AirSource, Method, ScalarAdvection};
use crate::sim::ranges::{self as field, Field, Scale, Step, MAX_AIR_CELLS};
use crate::sim::Domain;
use Step::{Index, Key};

/// Checks `[air]` against the walls `domain`.
pub(super) fn air(file: &AirFile, domain: &Domain) -> Result<AirSettings, Invalid> {
    let at = |field| [Key("air"), Key(field)];
    let fixed = Scale::default();
    let value = |field: &Field, value| check(&at(field.key()), field, value, &fixed);
    let columns = check_count(&at("columns"), &field::AIR_COLUMNS, file.columns, &fixed)?;
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
        density: value(&field::AIR_DENSITY, file.density)?,
        smoke_weight: value(&field::AIR_SMOKE_WEIGHT, file.smoke_weight)?,
        heat_lift: value(&field::AIR_HEAT_LIFT, file.heat_lift)?,
        vorticity: value(&field::AIR_VORTICITY, file.vorticity)?,
        cooling: value(&field::AIR_COOLING, file.cooling)?,
        smoke_decay: value(&field::AIR_SMOKE_DECAY, file.smoke_decay)?,
        drag: value(&field::AIR_DRAG, file.drag)?,
        heating: value(&field::AIR_HEATING, file.heating)?,
        advection,
        colour: check_colour(&at("colour"), &field::AIR_COLOUR, file.colour, &fixed)?,
        ..AirSettings::default()
    };
    settings.solver.method = method;
    settings.solver.tolerance = value(&field::AIR_TOLERANCE, file.tolerance)?;
    settings.solver.max_iterations = check_count(
        &at("max_iterations"),
        &field::AIR_MAX_ITERATIONS,
        file.max_iterations as usize,
        &fixed,
    )? as u32;
    for (index, source) in file.sources.iter().enumerate() {
        let at = |field| [Key("air"), Key("sources"), Index(index), Key(field)];
        let value = |field: &Field, value| check(&at(field.key()), field, value, &fixed);
        let position = check_vector(
            &at("position"),
            &field::SOURCE_POSITION,
            source.position,
            &fixed,
        )?;
        if !domain.contains(position) {
            return Err(invalid(&at("position"), "must be inside the walls"));
        }
        settings.sources.push(AirSource {
            position,
            radius: value(&field::SOURCE_RADIUS, source.radius)?,
            smoke: value(&field::SOURCE_SMOKE, source.smoke)?,
            temperature: value(&field::SOURCE_TEMPERATURE, source.temperature)?,
            velocity: check_vector(
                &at("velocity"),
                &field::SOURCE_VELOCITY,
                source.velocity,
                &fixed,
            )?,
            start: value(&field::SOURCE_START, source.start)?,
            duration: source
                .duration
                .map(|d| value(&field::SOURCE_DURATION, d))
                .transpose()?
                .unwrap_or(f32::INFINITY),
        });
    }
    Ok(settings)
}
