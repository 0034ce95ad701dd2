//! Particle state as struct-of-arrays, and the summaries taken of it (counts, extremes, energy,
//! checksum).

use super::checksum::Fnv;
use super::domain::Domain;
use crate::sim::portable::Ordered;
use glam::Vec2;

/// Particle state as struct-of-arrays, kept sorted by grid cell by the grid stage (ids stay
/// stable: use `id` for identity, never the index).
#[derive(Clone, Debug, Default)]
pub struct Particles {
    /// Stable id: emission order, never reused.
    pub id: Vec<u32>,
    /// Position.
    pub position: Vec<Vec2>,
    /// Velocity.
    pub velocity: Vec<Vec2>,
    /// Index into the world's materials.
    pub material: Vec<u16>,
    /// Mass, copied from the material (the neighbour stages read it per pair).
    pub mass: Vec<f32>,
    /// Density ρ from the last substep.
    pub density: Vec<f32>,
    /// Near density ρ_near from the last substep.
    pub near_density: Vec<f32>,
    /// Pressure P = k (ρ − m ρ0) from the last substep (also drives the renderer's shading).
    pub pressure: Vec<f32>,
    /// Near pressure P_near = k_near ρ_near from the last substep.
    pub near_pressure: Vec<f32>,
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

    /// The id the next particle gets.
    pub fn next_id(&self) -> u32 {
        self.next_id
    }

    /// True once the cap stopped a particle.
    pub fn cap_reached(&self) -> bool {
        self.cap_reached
    }

    /// Adds a particle of `material` and `mass` to `particles` unless the cap is reached (then
    /// records that); returns whether it was added.
    pub fn spawn(
        &mut self,
        particles: &mut Particles,
        material: usize,
        mass: f32,
        position: Vec2,
        velocity: Vec2,
    ) -> bool {
        if particles.len() >= self.cap {
            self.cap_reached = true;
            return false;
        }
        particles.push(self.next_id, material, mass, position, velocity);
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

    /// Keeps the particles whose `keep` entry is true, in order; returns how many went.
    pub(crate) fn retain(&mut self, keep: &[bool]) -> usize {
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
        let before = self.len();
        filter(&mut self.id, keep);
        filter(&mut self.position, keep);
        filter(&mut self.velocity, keep);
        filter(&mut self.material, keep);
        filter(&mut self.mass, keep);
        filter(&mut self.density, keep);
        filter(&mut self.near_density, keep);
        filter(&mut self.pressure, keep);
        filter(&mut self.near_pressure, keep);
        before - self.len()
    }

    /// Appends a particle with no density or pressure yet.
    fn push(&mut self, id: u32, material: usize, mass: f32, position: Vec2, velocity: Vec2) {
        self.id.push(id);
        self.position.push(position);
        self.velocity.push(velocity);
        self.material.push(material as u16);
        self.mass.push(mass);
        for field in [
            &mut self.density,
            &mut self.near_density,
            &mut self.pressure,
            &mut self.near_pressure,
        ] {
            field.push(0.0);
        }
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

    /// Count, centroid and top of each of `materials` materials (finite positions only).
    pub fn material_stats(&self, materials: usize) -> Vec<MaterialStats> {
        let mut heights = vec![Vec::new(); materials];
        let mut sums = vec![glam::DVec2::ZERO; materials];
        for (&material, position) in self.material.iter().zip(&self.position) {
            let material = material as usize;
            if material < materials && position.is_finite() {
                heights[material].push(position.y);
                sums[material] += position.as_dvec2();
            }
        }
        heights
            .iter_mut()
            .zip(sums)
            .map(|(heights, sum)| {
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
                }
            })
            .collect()
    }

    /// FNV-1a hash of every particle's position and velocity bits, in id order: equal
    /// checksums mean bit-identical states.
    pub fn checksum(&self) -> u64 {
        let mut by_id: Vec<usize> = (0..self.len()).collect();
        by_id.sort_unstable_by_key(|&i| self.id[i]);
        let mut hash = Fnv::new();
        for i in by_id {
            for value in [
                self.position[i].x,
                self.position[i].y,
                self.velocity[i].x,
                self.velocity[i].y,
            ] {
                hash.f32(value);
            }
        }
        hash.finish()
    }
}
