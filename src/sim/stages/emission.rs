//! The emit stage: emitters shoot rows of particles on their own schedule (row k of an emitter
//! leaves at `delay + k / rate`), until their budget is spent.
//!
//! Rows fall due between substeps; each is placed where it has travelled since its own time, so
//! rows are evenly spaced along the stream (`speed / rate` apart) whatever the substep length.
//! Placed at the nozzle instead, rows due at a rate that is not a whole number of substeps
//! bunch into pairs and gaps, and a fine stream breaks up along them.

use crate::sim::scene::Emitter;
use glam::Vec2;
use rand::Rng;
use rand_pcg::Pcg32;

/// The emitters and how far each has got.
#[derive(Clone, Debug, Default)]
pub struct Emission {
    emitters: Vec<Emitter>,
    /// Rows emitted so far by each emitter.
    rows: Vec<u64>,
    /// Particles emitted so far by each emitter.
    emitted: Vec<usize>,
}

impl Emission {
    /// `emitters`, none of which has emitted yet.
    pub fn new(emitters: Vec<Emitter>) -> Self {
        let count = emitters.len();
        Self {
            emitters,
            rows: vec![0; count],
            emitted: vec![0; count],
        }
    }

    /// `emitters` that have emitted `rows` rows and `emitted` particles each (snapshots; the
    /// caller gives one entry per emitter).
    pub fn restored(emitters: Vec<Emitter>, rows: Vec<u64>, emitted: Vec<usize>) -> Self {
        Self {
            emitters,
            rows,
            emitted,
        }
    }

    /// Rows and particles emitted so far by each emitter.
    pub fn progress(&self) -> (&[u64], &[usize]) {
        (&self.rows, &self.emitted)
    }

    /// The emitters.
    pub fn emitters(&self) -> &[Emitter] {
        &self.emitters
    }

    /// True when every emitter has used its budget.
    pub fn spent(&self) -> bool {
        self.emitters
            .iter()
            .zip(&self.emitted)
            .all(|(emitter, &emitted)| emitted >= emitter.budget)
    }

    /// Emits the rows that are due at simulated `time`: `spawn(material, position, velocity)`
    /// makes each particle, or returns false when the particle cap stops it (then emission stops
    /// for this substep). `rng` draws each particle's speed jitter.
    pub fn emit(
        &mut self,
        time: f64,
        particle_radius: f32,
        rng: &mut Pcg32,
        mut spawn: impl FnMut(usize, Vec2, Vec2) -> bool,
    ) {
        for (index, emitter) in self.emitters.iter().enumerate() {
            // A spent emitter is skipped before its row layout is allocated.
            if time < emitter.delay as f64 || self.emitted[index] >= emitter.budget {
                continue;
            }
            let since_delay = time - emitter.delay as f64;
            let rows_due = (since_delay * emitter.rate as f64).floor() as u64 + 1;
            let offsets = emitter.row_offsets(particle_radius);
            while self.rows[index] < rows_due {
                // How long ago this row fell due: it has come that far out of the nozzle.
                let late = (since_delay - self.rows[index] as f64 / emitter.rate as f64) as f32;
                let ahead = emitter.direction * (emitter.speed * late);
                self.rows[index] += 1;
                for offset in &offsets {
                    if self.emitted[index] >= emitter.budget {
                        break;
                    }
                    let jitter = emitter.speed_jitter;
                    let scale = Vec2::new(
                        rng.random_range(1.0 - jitter..=1.0 + jitter),
                        rng.random_range(1.0 - jitter..=1.0 + jitter),
                    );
                    let velocity = emitter.direction * emitter.speed * scale;
                    let position = emitter.position + *offset + ahead;
                    if !spawn(emitter.material, position, velocity) {
                        return;
                    }
                    self.emitted[index] += 1;
                }
            }
        }
    }
}
