//! The `[air]` table of a preset: the grid, its constants and its sources, read and checked.

use super::check::{check, check_colour, check_count, check_vector, invalid, Invalid};
use crate::sim::scene::ranges::{self as field, Field, Scale, Step, MAX_AIR_CELLS};
use crate::sim::subsystems::air::{AirSettings, AirSource};
use crate::sim::Domain;
use Step::{Index, Key};

/// Checks `[air]` against the walls `domain`.
pub(super) fn air(file: &AirSettings, domain: &Domain) -> Result<AirSettings, Invalid> {
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
        surface_exchange: value(&field::AIR_SURFACE_EXCHANGE, file.surface_exchange)?,
        condensation: value(&field::AIR_CONDENSATION, file.condensation)?,
        advection: file.advection,
        solver: file.solver,
        tolerance: value(&field::AIR_TOLERANCE, file.tolerance)?,
        max_iterations: check_count(
            &at("max_iterations"),
            &field::AIR_MAX_ITERATIONS,
            file.max_iterations as usize,
            &fixed,
        )? as u32,
        colour: check_colour(&at("colour"), &field::AIR_COLOUR, file.colour, &fixed)?,
        sources: Vec::with_capacity(file.sources.len()),
    };
    for (index, source) in file.sources.iter().enumerate() {
        let at = |field| [Key("air"), Key("sources"), Index(index), Key(field)];
        let value = |field: &Field, value| check(&at(field.key()), field, value, &fixed);
        let position = check_vector(
            &at("position"),
            &field::SOURCE_POSITION,
            source.position.to_array(),
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
                source.velocity.to_array(),
                &fixed,
            )?,
            start: value(&field::SOURCE_START, source.start)?,
            // Left out, it is infinite: the source never closes.
            duration: if source.duration == f32::INFINITY {
                source.duration
            } else {
                value(&field::SOURCE_DURATION, source.duration)?
            },
        });
    }
    Ok(settings)
}
