//! What a snapshot keeps of the air (`AirState`): its fields on the scene's grid, the pressure
//! the next solve starts from, and its clock and counters; and how the air continues from it.

use super::{Air, AirStep};
use crate::sim::scene::ranges::Step;
use crate::sim::subsystems::StateError;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// The air's dynamic state: its fields on the scene's grid (arrays laid out as `MacGrid`'s), the
/// pressure the next solve starts from, and its clock and counters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AirState {
    /// Simulated seconds the air has been stepped.
    pub time: f32,
    /// Steps taken.
    pub steps: u64,
    /// Pressure-solver iterations over all steps.
    pub iterations: u64,
    /// What the last step did.
    pub last: AirStep,
    /// x velocity on the vertical faces, (nx + 1) × ny.
    pub u: Vec<f32>,
    /// y velocity on the horizontal faces, nx × (ny + 1).
    pub v: Vec<f32>,
    /// Smoke per cell, nx × ny.
    pub smoke: Vec<f32>,
    /// Temperature per cell, nx × ny.
    pub temperature: Vec<f32>,
    /// Vapour per cell, nx × ny.
    pub vapour: Vec<f32>,
    /// Dew per cell, nx × ny.
    pub dew: Vec<f32>,
    /// Pressure per cell from the last projection, nx × ny.
    pub pressure: Vec<f32>,
    /// Solid cells of the last step (walls, obstacles, liquid), nx × ny; serialized as a string
    /// of `0` and `1`.
    #[serde(with = "cells")]
    pub solid: Vec<bool>,
    /// Velocity of the solid in each cell, nx × ny; serialized flat, `[x0, y0, x1, y1, …]`.
    #[serde(with = "flat")]
    pub solid_velocity: Vec<Vec2>,
}

impl Air {
    /// Its state, for a snapshot.
    pub(super) fn saved(&self) -> AirState {
        let grid = self.grid();
        AirState {
            time: self.time(),
            steps: self.steps(),
            iterations: self.solver_iterations(),
            last: self.last_step(),
            u: grid.u.clone(),
            v: grid.v.clone(),
            smoke: grid.smoke.clone(),
            temperature: grid.temperature.clone(),
            vapour: grid.vapour.clone(),
            dew: grid.dew.clone(),
            pressure: self.pressure().to_vec(),
            solid: grid.solid.clone(),
            solid_velocity: grid.solid_velocity.clone(),
        }
    }

    /// Continues from `saved`, refused (with the field) when its arrays do not fit this grid.
    pub(super) fn restore_saved(&mut self, saved: AirState) -> Result<(), StateError> {
        if !saved.time.is_finite() || saved.time < 0.0 {
            return Err(StateError::at(
                &[Step::Key("time")],
                format!("must be finite and not negative, got {}", saved.time),
            ));
        }
        let grid = self.grid_mut();
        let (nx, ny) = (grid.nx, grid.ny);
        let cells = nx * ny;
        for (key, len, expected) in [
            ("u", saved.u.len(), (nx + 1) * ny),
            ("v", saved.v.len(), nx * (ny + 1)),
            ("smoke", saved.smoke.len(), cells),
            ("temperature", saved.temperature.len(), cells),
            ("vapour", saved.vapour.len(), cells),
            ("dew", saved.dew.len(), cells),
            ("pressure", saved.pressure.len(), cells),
            ("solid", saved.solid.len(), cells),
            ("solid_velocity", saved.solid_velocity.len(), cells),
        ] {
            if len != expected {
                return Err(StateError::at(
                    &[Step::Key(key)],
                    format!(
                        "{len} values, but the scene's air grid of {nx} × {ny} cells has {expected}"
                    ),
                ));
            }
        }
        grid.u = saved.u;
        grid.v = saved.v;
        grid.smoke = saved.smoke;
        grid.temperature = saved.temperature;
        grid.vapour = saved.vapour;
        grid.dew = saved.dew;
        grid.solid = saved.solid;
        grid.solid_velocity = saved.solid_velocity;
        self.restore(
            saved.pressure,
            saved.time,
            saved.steps,
            saved.iterations,
            saved.last,
        );
        Ok(())
    }
}

/// `#[serde(with = "cells")]`: flags serialized as one string of `0` and `1`.
mod cells {
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(flags: &[bool], serializer: S) -> Result<S::Ok, S::Error> {
        let text: String = flags.iter().map(|&f| if f { '1' } else { '0' }).collect();
        serializer.serialize_str(&text)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<bool>, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.chars()
            .map(|c| match c {
                '0' => Ok(false),
                '1' => Ok(true),
                other => Err(D::Error::custom(format!(
                    "solid cells are written as 0 and 1, found {other:?}"
                ))),
            })
            .collect()
    }
}

/// `#[serde(with = "flat")]`: vectors serialized as one flat array of bits, x then y.
mod flat {
    use glam::Vec2;
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(vectors: &[Vec2], serializer: S) -> Result<S::Ok, S::Error> {
        let bits: Vec<u32> = vectors
            .iter()
            .flat_map(|v| [v.x.to_bits(), v.y.to_bits()])
            .collect();
        bits.serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Vec2>, D::Error> {
        let bits = Vec::<u32>::deserialize(deserializer)?;
        if bits.len() % 2 != 0 {
            return Err(D::Error::custom(
                "vectors need an even count of numbers, x then y",
            ));
        }
        let pairs = bits.chunks_exact(2);
        Ok(pairs
            .map(|xy| Vec2::new(f32::from_bits(xy[0]), f32::from_bits(xy[1])))
            .collect())
    }
}
