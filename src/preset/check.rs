//! The checks every section of a preset shares: a value against its entry in the table of fields
//! (`sim::scene::ranges`), reported as `Invalid` at its path in the file.

use crate::sim::scene::ranges::{Field, Scale, Step};
use glam::Vec2;

/// A value out of range, with the path to it.
pub(super) struct Invalid {
    pub path: Vec<Step>,
    pub message: String,
}

/// Builds an `Invalid` at `path`.
pub(super) fn invalid(path: &[Step], message: impl Into<String>) -> Invalid {
    Invalid {
        path: path.to_vec(),
        message: message.into(),
    }
}

/// Checks `value` against the table's `field` (`sim::scene::ranges`) in a scene measured by
/// `scale`.
pub(super) fn check(
    path: &[Step],
    field: &Field,
    value: f32,
    scale: &Scale,
) -> Result<f32, Invalid> {
    field
        .check(value, scale)
        .map_err(|refused| invalid(path, refused.0))
}

/// `check` for a whole-number field.
pub(super) fn check_count(
    path: &[Step],
    field: &Field,
    value: usize,
    scale: &Scale,
) -> Result<usize, Invalid> {
    field
        .check_count(value, scale)
        .map_err(|refused| invalid(path, refused.0))
}

/// `check` for both components of a vector field.
pub(super) fn check_vector(
    path: &[Step],
    field: &Field,
    value: [f32; 2],
    scale: &Scale,
) -> Result<Vec2, Invalid> {
    field
        .check_vector(value, scale)
        .map_err(|refused| invalid(path, refused.0))
}

/// `check` for each channel of a colour.
pub(super) fn check_colour(
    path: &[Step],
    field: &Field,
    colour: [f32; 3],
    scale: &Scale,
) -> Result<[f32; 3], Invalid> {
    for channel in colour {
        check(path, field, channel, scale)?;
    }
    Ok(colour)
}

/// Checks that a name or description is non-empty, single-line text (it is printed in lists,
/// the window title and JSON reports).
pub(super) fn check_text(path: &[Step], value: &str) -> Result<(), Invalid> {
    if value.trim().is_empty() {
        Err(invalid(path, "must not be empty"))
    } else if value.chars().any(char::is_control) {
        Err(invalid(path, "must be one line without control characters"))
    } else {
        Ok(())
    }
}
