//! Particle state as struct-of-arrays, and the summaries taken of it (counts, extremes, energy,
//! checksum).

use crate::sim::numerics::checksum::Fnv;
use crate::sim::numerics::portable::Ordered;
use crate::sim::scene::domain::Domain;
use glam::Vec2;
use rayon::prelude::*;

/// The particle columns, declared once: `particle_columns!(generate)` hands this table to the
/// macro `generate`, which writes one of the lists of them (here: the struct `Particles`, its
/// `push`, `retain` and `checksum`, and the reorder the grid stage runs; in the snapshot:
/// `ParticleState`). Three kinds of column:
/// - `saved`: the state itself. Stored in snapshots (in this order) and moved by the reorder;
///   those marked `[checksum]` are hashed by `Particles::checksum`, in this order.
/// - `derived`: a function of the saved columns kept per particle for the pair loops. Moved by
///   the reorder, recomputed when a snapshot is restored.
/// - `scratch`: written by every substep's density stage, which comes after the reorder, before
///   anything reads it. Neither moved nor saved (a new particle starts at zero).
///
/// A column left out of the reorder would be silently scrambled; generated from here, none can
/// be (`neighbours::tests::a_column_left_out_of_the_reorder_is_caught`).
macro_rules! particle_columns {
    ($generate:ident) => {
        $generate! {
            saved {
                /// Stable id: emission order, never reused.
                id: u32,
                /// Index into the world's materials.
                material: u16,
                /// Position.
                position: Vec2 [checksum],
                /// Velocity.
                velocity: Vec2 [checksum],
                /// Temperature, in °C: its material's `temperature` when it is made, then
                /// conducted by the heat subsystem (`sim::subsystems::heat`), which folds it into
                /// the checksum in scenes with heat (so scenes without keep theirs).
                temperature: f32,
                /// Latent heat held at a phase change, per unit mass, in degrees of water: taken
                /// up toward melting or boiling (positive) or given off toward freezing
                /// (negative) while the temperature stays at the change's point
                /// (`sim::subsystems::heat`). Zero away from one.
                latent: f32,
                /// A number of the game's own meaning (`World::tag`): 0 for a new particle, kept
                /// through every step and change of phase. The engine never reads it.
                tag: u32,
            }
            derived {
                /// Mass, copied from the material (the neighbour stages read it per pair).
                mass: f32,
            }
            scratch {
                /// Density ρ from the last substep.
                density: f32,
                /// Near density ρ_near from the last substep.
                near_density: f32,
                /// Pressure P = k (ρ − m ρ0) from the last substep (also drives the renderer's
                /// shading).
                pressure: f32,
                /// Near pressure P_near = k_near ρ_near from the last substep.
                near_pressure: f32,
            }
        }
    };
}
pub(crate) use particle_columns;

/// Writes, from the table of `particle_columns!`, the struct `Particles` and every list of its
/// columns that lives here.
macro_rules! particles {
    (
        saved {
            $( $(#[doc = $saved_doc:literal])* $saved:ident: $saved_type:ty $([$role:ident])?, )*
        }
        derived {
            $( $(#[doc = $derived_doc:literal])* $derived:ident: $derived_type:ty, )*
        }
        scratch {
            $( $(#[doc = $scratch_doc:literal])* $scratch:ident: $scratch_type:ty, )*
        }
    ) => {
        /// Particle state as struct-of-arrays, kept sorted by grid cell by the grid stage (ids
        /// stay stable: use `id` for identity, never the index). The columns are declared in
        /// `particle_columns!`.
        #[derive(Clone, Debug, Default)]
        pub struct Particles {
            $( $(#[doc = $saved_doc])* pub $saved: Vec<$saved_type>, )*
            $( $(#[doc = $derived_doc])* pub $derived: Vec<$derived_type>, )*
            $( $(#[doc = $scratch_doc])* pub $scratch: Vec<$scratch_type>, )*
        }

        /// One particle's values of the columns the reorder moves (saved and derived).
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub(crate) struct Moved {
            $( $(#[doc = $saved_doc])* pub $saved: $saved_type, )*
            $( $(#[doc = $derived_doc])* pub $derived: $derived_type, )*
        }

        /// Targets of a reorder of the particles: one array per moved column, written in parallel
        /// chunks (`par_chunks_mut`), then swapped into the particles (`swap_into`). Kept between
        /// reorders so that a steady particle count allocates nothing.
        #[derive(Clone, Debug, Default)]
        pub(crate) struct Reordered {
            $( $saved: Vec<$saved_type>, )*
            $( $derived: Vec<$derived_type>, )*
        }

        /// One chunk of `Reordered`: the same window of every moved column.
        pub(crate) struct ReorderedChunk<'a> {
            $( $saved: &'a mut [$saved_type], )*
            $( $derived: &'a mut [$derived_type], )*
        }

        impl Particles {
            /// Keeps the particles whose `keep` entry is true, in order; returns how many went.
            pub(crate) fn retain(&mut self, keep: &[bool]) -> usize {
                let before = self.len();
                $( filter(&mut self.$saved, keep); )*
                $( filter(&mut self.$derived, keep); )*
                $( filter(&mut self.$scratch, keep); )*
                before - self.len()
            }

            /// Appends a particle with these saved and derived values; its scratch columns
            /// start at zero.
            #[allow(clippy::too_many_arguments)]
            pub(crate) fn push(
                &mut self,
                $( $saved: $saved_type, )*
                $( $derived: $derived_type, )*
            ) {
                $( self.$saved.push($saved); )*
                $( self.$derived.push($derived); )*
                $( self.$scratch.push(<$scratch_type>::default()); )*
            }

            /// Particle `i`'s values of the moved columns.
            #[inline(always)]
            pub(crate) fn moved(&self, i: usize) -> Moved {
                Moved {
                    $( $saved: self.$saved[i], )*
                    $( $derived: self.$derived[i], )*
                }
            }

            /// FNV-1a hash of the bits of every particle's `[checksum]` columns (position and
            /// velocity), in id order: equal checksums mean bit-identical states.
            pub fn checksum(&self) -> u64 {
                let mut by_id: Vec<usize> = (0..self.len()).collect();
                by_id.sort_unstable_by_key(|&i| self.id[i]);
                let mut hash = Fnv::new();
                for i in by_id {
                    $( $( hash_column!($role, hash, self.$saved[i]); )? )*
                }
                hash.finish()
            }
        }

        impl Reordered {
            /// Makes every target `count` long.
            pub fn resize(&mut self, count: usize) {
                $( self.$saved.resize(count, <$saved_type>::default()); )*
                $( self.$derived.resize(count, <$derived_type>::default()); )*
            }

            /// The targets in chunks of `size`, for writing in parallel (at most twelve moved
            /// columns: rayon zips up to twelve).
            pub fn par_chunks_mut(
                &mut self,
                size: usize,
            ) -> impl IndexedParallelIterator<Item = ReorderedChunk<'_>> {
                (
                    $( self.$saved.par_chunks_mut(size), )*
                    $( self.$derived.par_chunks_mut(size), )*
                )
                    .into_par_iter()
                    .map(|($( $saved, )* $( $derived, )*)| ReorderedChunk {
                        $( $saved, )*
                        $( $derived, )*
                    })
            }

            /// Swaps the written targets with the particles' columns: the particles are now in
            /// the new order (and these hold the old, to be overwritten by the next reorder).
            pub fn swap_into(&mut self, particles: &mut Particles) {
                $( std::mem::swap(&mut self.$saved, &mut particles.$saved); )*
                $( std::mem::swap(&mut self.$derived, &mut particles.$derived); )*
            }
        }

        impl ReorderedChunk<'_> {
            /// True when every column of the chunk is `n` long (one check before a loop of
            /// `set`, none per write).
            #[inline(always)]
            pub fn all_len(&self, n: usize) -> bool {
                true $( && self.$saved.len() == n )* $( && self.$derived.len() == n )*
            }

            /// Writes `moved` at `k` in every column.
            #[inline(always)]
            pub fn set(&mut self, k: usize, moved: Moved) {
                $( self.$saved[k] = moved.$saved; )*
                $( self.$derived[k] = moved.$derived; )*
            }
        }
    };
}

/// Hashes a column's value into an FNV-1a hash, for columns marked `[checksum]`.
macro_rules! hash_column {
    (checksum, $hash:ident, $value:expr) => {
        for value in Hashed::floats($value) {
            $hash.f32(value);
        }
    };
}

particle_columns!(particles);

/// A column type the checksum can hash: the floats whose bits it hashes, in order.
trait Hashed {
    /// The floats of a value.
    fn floats(self) -> impl IntoIterator<Item = f32>;
}

impl Hashed for Vec2 {
    fn floats(self) -> impl IntoIterator<Item = f32> {
        [self.x, self.y]
    }
}

/// Keeps the `values` whose `keep` entry is true, in order.
fn filter<T: Copy>(values: &mut Vec<T>, keep: &[bool]) {
    let mut next = 0;
    for (index, &kept) in keep.iter().enumerate() {
        if kept {
            values[next] = values[index];
            next += 1;
        }
    }
    values.truncate(next);
}

/// Hands out particle ids (never reused) and holds the particle cap.
#[derive(Clone, Debug)]
pub(crate) struct Births {
    next_id: u32,
    cap: usize,
    cap_reached: bool,
}

impl Births {
    /// No particle yet, at most `cap` at a time.
    pub fn new(cap: usize) -> Self {
        Self {
            next_id: 0,
            cap,
            cap_reached: false,
        }
    }

    /// Births that continue from `next_id` (snapshots).
    pub fn restored(cap: usize, next_id: u32, cap_reached: bool) -> Self {
        Self {
            next_id,
            cap,
            cap_reached,
        }
    }

    /// Makes `cap` the most particles: a lower one than the particles there are stops every
    /// birth, removing none.
    pub fn set_cap(&mut self, cap: usize) {
        self.cap = cap;
    }

    /// The id the next particle gets.
    pub fn next_id(&self) -> u32 {
        self.next_id
    }

    /// True once the cap stopped a particle.
    pub fn cap_reached(&self) -> bool {
        self.cap_reached
    }

    /// Adds a particle of `material` (its `mass` and initial `temperature`) to `particles`
    /// unless the cap is reached (then records that); returns whether it was added.
    pub fn spawn(
        &mut self,
        particles: &mut Particles,
        material: usize,
        (mass, temperature): (f32, f32),
        position: Vec2,
        velocity: Vec2,
    ) -> bool {
        if particles.len() >= self.cap {
            self.cap_reached = true;
            return false;
        }
        let material = material as u16;
        particles.push(
            self.next_id,
            material,
            position,
            velocity,
            temperature,
            0.0,
            0,
            mass,
        );
        self.next_id += 1;
        true
    }
}

/// Summary numbers of the particle state (for tests, the HUD and the headless report).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WorldStats {
    /// Particles alive.
    pub particles: usize,
    /// Particles with a non-finite position or velocity.
    pub nan: usize,
    /// Particles outside any wall.
    pub escaped: usize,
    /// Largest particle speed.
    pub max_speed: f32,
    /// Σ ½ m |v|².
    pub kinetic_energy: f64,
}

/// Where one material's particles are: for comparing a scene at different resolutions.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MaterialStats {
    /// Its particles.
    pub particles: usize,
    /// Their mean position (zero without particles).
    pub centroid: Vec2,
    /// The 95th percentile of their heights: the top of a settled pool, spray left out (zero
    /// without particles).
    pub top: f32,
    /// Their mean temperature (zero without particles).
    pub temperature: f32,
    /// Their mass, summed: what is left of a material that burns, dissolves or boils away.
    pub mass: f32,
}

impl Particles {
    /// Number of particles.
    pub fn len(&self) -> usize {
        self.id.len()
    }

    /// True when there are no particles.
    pub fn is_empty(&self) -> bool {
        self.id.is_empty()
    }

    /// Counts, extremes and energy; `domain` decides which particles escaped.
    pub fn stats(&self, domain: &Domain) -> WorldStats {
        let mut stats = WorldStats {
            particles: self.len(),
            ..WorldStats::default()
        };
        for i in 0..self.len() {
            let (x, v) = (self.position[i], self.velocity[i]);
            if !x.is_finite() || !v.is_finite() {
                stats.nan += 1;
                continue;
            }
            if !domain.contains(x) {
                stats.escaped += 1;
            }
            stats.max_speed = stats.max_speed.at_least(v.length());
            stats.kinetic_energy += 0.5 * self.mass[i] as f64 * v.length_squared() as f64;
        }
        stats
    }

    /// Count, centroid, top and mean temperature of each of `materials` materials (finite
    /// positions only).
    pub fn material_stats(&self, materials: usize) -> Vec<MaterialStats> {
        let mut heights = vec![Vec::new(); materials];
        let mut sums = vec![glam::DVec2::ZERO; materials];
        let mut temperatures = vec![0.0_f64; materials];
        let mut masses = vec![0.0_f64; materials];
        for i in 0..self.len() {
            let (material, position) = (self.material[i] as usize, self.position[i]);
            if material < materials && position.is_finite() {
                heights[material].push(position.y);
                sums[material] += position.as_dvec2();
                temperatures[material] += f64::from(self.temperature[i]);
                masses[material] += f64::from(self.mass[i]);
            }
        }
        heights
            .iter_mut()
            .zip(sums)
            .zip(temperatures)
            .zip(masses)
            .map(|(((heights, sum), temperature), mass)| {
                let count = heights.len();
                if count == 0 {
                    return MaterialStats::default();
                }
                heights.sort_by(f32::total_cmp);
                let rank = ((0.95 * count as f64).ceil() as usize).clamp(1, count) - 1;
                MaterialStats {
                    particles: count,
                    centroid: (sum / count as f64).as_vec2(),
                    top: heights[rank],
                    temperature: (temperature / count as f64) as f32,
                    mass: mass as f32,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::sim::ParticleState;

    /// The array a snapshot holds, as plain numbers: `[id, material, x, y, vx, vy,
    /// temperature, latent, tag]`, the floats as bits (`ParticleState` is written from
    /// `particle_columns!`).
    type Tuple = (u32, u16, u32, u32, u32, u32, u32, u32, u32);

    #[test]
    fn a_saved_particle_is_written_and_refused_as_its_old_tuple() {
        let tuple: Tuple = (
            7,
            1,
            0x3f80_0000,
            0x7fc0_0001,
            0xbf00_0000,
            0xff80_0000,
            0x4120_0000,
            0xc2a0_0000,
            9,
        );
        let written = serde_json::to_string(&tuple).unwrap();
        let particle: ParticleState = serde_json::from_str(&written).unwrap();
        assert_eq!(serde_json::to_string(&particle).unwrap(), written);
        assert_eq!(particle.position.y.to_bits(), 0x7fc0_0001);
        assert_eq!(particle.temperature, 10.0);
        assert_eq!(particle.latent, -80.0);
        assert_eq!(particle.tag, 9);
        for text in [
            "[7, 1, 2, 3, 4, 5, 6, 7]",
            "[7, 1, 2, 3, 4, 5, 6, 7, 8, 9]",
            "[7, 70000, 2, 3, 4, 5, 6, 7, 8]",
            "[7, 1, 2, 3, -4, 5, 6, 7, 8]",
            "[7, 1, 2, 3, 4.5, 5, 6, 7, 8]",
            "[7, 1, 2, 3, 4, 5, -6, 7, 8]",
            "[7, 1, 2, 3, 4, 5, 6, 7, -8]",
            "{\"id\": 7}",
            "7",
            "[]",
        ] {
            let old = serde_json::from_str::<Tuple>(text).unwrap_err().to_string();
            let new = serde_json::from_str::<ParticleState>(text)
                .unwrap_err()
                .to_string();
            assert_eq!(new, old, "{text}");
        }
    }
}
