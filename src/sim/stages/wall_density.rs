//! The liquid a wall stands for: the density and pressure the walls add to the particles near
//! them, so that a particle at a wall has a full neighbourhood.
//!
//! A particle within h of a wall is missing the neighbours that would lie beyond it, so its
//! density falls short by the kernel's weight over the part of its disc cut off by the wall
//! plane. Its pressure then says "sparse", and the near pressure of the particles above it,
//! unanswered from below, presses it into the wall. In a pool of two liquids this holds a film
//! of whichever liquid came first on the floor and the side walls: the film is one or two
//! particle rows thick at any resolution, so it is a larger share of a coarse pool than of a fine
//! one, and the layers of a coarse and a fine run differ.
//!
//! slosh fills the cut-off part of the disc with liquid at rest, as a continuum (the
//! semi-analytic walls of Kulasegaram et al. 2004 and Ferrand et al. 2013, here for double
//! density relaxation). For a particle at distance d = q h from a wall plane:
//!
//! - density: Σ a³ gains n_w h² F₃(q) and Σ a⁴ gains n_w h² F₄(q), where
//!   F_k(q) = ∫ (1 − ρ)^k over the part of the unit disc beyond the line at distance q, and
//!   n_w is the wall's particles per area;
//! - relaxation: the wall's liquid has the particle's own pressure and near pressure, and the
//!   pair pressure pushes only (a wall never pulls a sparse particle onto itself), so the
//!   particle moves away from the wall by n_w h² [2 max(L, 0) G₂(q) + 2 L_near G₃(q)] / m along
//!   the wall's normal, where L and L_near are its pressure lanes (½ Δt² N P and
//!   ½ Δt² N_near P_near, `neighbours::lanes`) and G_k(q) = ∫ (1 − ρ)^k cos θ over the same
//!   part of the disc (the normal part of the pair pushes summed over it);
//! - viscosity: the wall's liquid is at rest, and the particle's viscosity acts on it as on a
//!   neighbour (Clavet et al. algorithm 5, the same material on both sides): each part of the
//!   cut-off disc that the particle approaches takes the impulse ½ Δt a (σ u + β u²). Summed
//!   over the disc this slows a particle sliding along the wall as well as one moving into it, in
//!   proportion to its viscosity: honey clings to the walls, water slides along them. The
//!   integrals depend on q and on the angle between the velocity and the wall; they are
//!   tabulated over both.
//!
//! n_w is chosen so that the first row of a resting hexagonal packing, one particle radius from
//! the wall, has exactly the rest density: the wall stands in for the rows the packing would
//! have below it. The tables are computed once (in units of h, for every scene) and
//! interpolated. Obstacles and bodies add nothing: they are smaller than a wall and are mostly
//! surrounded by the liquid on several sides.
//!
//! With the walls carrying the liquid's density, pressure and viscosity, a liquid needs no
//! Coulomb friction at the walls (`SimParams::wall_friction` is 0 by default, as in the seed).
//! Before, a particle on the floor had half a neighbourhood: the liquid above pressed it into
//! the floor, and friction had to keep it from racing sideways, which pinned the floor row
//! (`docs/PHYSICS.md`, "Walls").

use crate::sim::numerics::portable::Ordered;
use crate::sim::numerics::simd::Lanes;
use crate::sim::physics::packing_sum;
use crate::sim::scene::domain::Wall;
use glam::Vec2;
use std::sync::OnceLock;
use wide::f32x4;

/// Intervals of the tables over q in 0..1.
const STEPS: usize = 256;

/// F₃, F₄, G₂ and G₃ at q = 0, 1/STEPS, …, 1 (see the module documentation).
#[derive(Debug)]
struct Tables {
    values: [[f32; 4]; STEPS + 1],
}

impl Tables {
    /// The tables, computed on first use (midpoint sums over strips parallel to the wall; square
    /// roots only, so every platform computes the same bits).
    fn get() -> &'static Tables {
        static TABLES: OnceLock<Tables> = OnceLock::new();
        TABLES.get_or_init(Tables::compute)
    }

    fn compute() -> Tables {
        // Strips x..x + dx at distance x from the particle, each integrated along y.
        const STRIPS_PER_STEP: usize = 8;
        const SAMPLES: usize = 1024;
        let strips = STEPS * STRIPS_PER_STEP;
        let dx = 1.0 / strips as f64;
        let mut strip_values = vec![[0.0f64; 4]; strips];
        for (k, values) in strip_values.iter_mut().enumerate() {
            let x = (k as f64 + 0.5) * dx;
            let half_chord = (1.0 - x * x).sqrt();
            let dy = half_chord / SAMPLES as f64;
            for s in 0..SAMPLES {
                let y = (s as f64 + 0.5) * dy;
                let rho = (x * x + y * y).sqrt();
                let a = (1.0 - rho).at_least(0.0);
                let (a2, a3) = (a * a, a * a * a);
                let cosine = x / rho;
                // Both halves of the chord: twice the upper one.
                let weight = 2.0 * dy * dx;
                values[0] += weight * a3;
                values[1] += weight * a3 * a;
                values[2] += weight * a2 * cosine;
                values[3] += weight * a3 * cosine;
            }
        }
        // Each table entry sums the strips beyond its q, from the far edge of the disc inwards.
        let mut values = [[0.0f32; 4]; STEPS + 1];
        let mut beyond = [0.0f64; 4];
        for step in (0..STEPS).rev() {
            for strip in &strip_values[step * STRIPS_PER_STEP..(step + 1) * STRIPS_PER_STEP] {
                for (total, value) in beyond.iter_mut().zip(strip) {
                    *total += value;
                }
            }
            values[step] = beyond.map(|v| v as f32);
        }
        Tables { values }
    }

    /// (F₃, F₄, G₂, G₃) at q in 0..1, linearly interpolated.
    #[inline(always)]
    fn at(&self, q: f32) -> [f32; 4] {
        let position = q.clamp(0.0, 1.0) * STEPS as f32;
        let index = (position as usize).min(STEPS - 1);
        let t = position - index as f32;
        let (low, high) = (self.values[index], self.values[index + 1]);
        // The four values at once (the same operations, lane by lane).
        let (low, high) = (f32x4::new(low), f32x4::new(high));
        (low + (high - low) * f32x4::splat(t)).to_array()
    }
}

/// What the walls' part of the relaxation reads of one particle (`WallDensity::relaxation`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NearWall {
    /// Position.
    pub position: Vec2,
    /// Velocity (for the viscosity).
    pub velocity: Vec2,
    /// Pressure lane ½ Δt² N P.
    pub pressure: f32,
    /// Near-pressure lane ½ Δt² N_near P_near.
    pub near_pressure: f32,
    /// `WallSums::fullness` of its density stage.
    pub fullness: f32,
    /// 1 / m.
    pub inverse_mass: f32,
    /// Its material's linear viscosity, folded as ½ Δt² σ.
    pub linear_viscosity: f32,
    /// Its material's quadratic viscosity, folded as ½ Δt² β.
    pub quadratic_viscosity: f32,
}

/// What the walls add to one particle's density sums.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WallSums {
    /// Added to Σ a³.
    pub sum: f32,
    /// Added to Σ a⁴.
    pub near_sum: f32,
    /// How much of the liquid a wall stands for is there, 0 to 1: the particle's own
    /// neighbours' Σ a³ over what they hold at rest beside the wall. The wall mirrors the liquid
    /// at its side: a particle in a full pool gets all of it, one at the free surface less, and a
    /// lone drop touching the wall none (it is not pushed off or held by liquid that is not
    /// there).
    pub fullness: f32,
}

/// The walls' contribution to the density and relaxation of the particles near them.
#[derive(Clone, Debug)]
pub struct WallDensity {
    walls: Vec<Wall>,
    inverse_h: f32,
    /// Σ a³ of a particle at rest density, ρ0 / N.
    rest_sum: f32,
    /// n_w h²: the wall's particles per area times h² (the tables are in units of h).
    per_area_h2: f32,
}

impl WallDensity {
    /// The walls' liquid for interaction radius `h`, particle radius `radius` and rest density
    /// `rest_density`: as dense as the rows a resting hexagonal packing would have beyond the
    /// wall.
    pub fn new(walls: &[Wall], h: f32, radius: f32, rest_density: f32) -> Self {
        let per_area_h2 = wall_particles_per_area(h, radius, rest_density) * h * h;
        Self {
            walls: walls.to_vec(),
            inverse_h: 1.0 / h,
            rest_sum: rest_density / crate::sim::physics::density_norm(h),
            per_area_h2,
        }
    }

    /// What the walls add to the sums Σ a³ and Σ a⁴ of a particle at `position` whose
    /// neighbours give Σ a³ = `neighbour_sum`, and how full of liquid they stand in as
    /// (`WallSums::fullness`).
    #[inline(always)]
    pub fn sums(&self, position: Vec2, neighbour_sum: f32) -> WallSums {
        let tables = Tables::get();
        let (mut sum, mut near_sum) = (0.0, 0.0);
        for wall in &self.walls {
            let q = wall.distance(position) * self.inverse_h;
            if q < 1.0 {
                let [f3, f4, _, _] = tables.at(q);
                sum += f3;
                near_sum += f4;
            }
        }
        if sum == 0.0 {
            return WallSums::default();
        }
        let (sum, near_sum) = (sum * self.per_area_h2, near_sum * self.per_area_h2);
        // The share of its rest sum that the particle's own side of the walls holds.
        let own_side = (self.rest_sum - sum).at_least(0.25 * self.rest_sum);
        let fullness = (neighbour_sum / own_side).clamp(0.0, 1.0);
        WallSums {
            sum: sum * fullness,
            near_sum: near_sum * fullness,
            fullness,
        }
    }

    /// Whether some wall is within h of `position`, as `sums` finds it: where none is, the walls
    /// add nothing to its sums.
    #[inline(always)]
    pub fn reach(&self, position: Vec2) -> bool {
        (self.walls.iter()).any(|wall| wall.distance(position) * self.inverse_h < 1.0)
    }

    /// Whether some wall is within h of the particle in some lane (x, y), as `sums` finds it:
    /// where none is, the walls add nothing to its sums.
    #[inline(always)]
    pub fn within_reach<S: Lanes>(&self, x: S, y: S) -> bool {
        let one = S::splat(1.0);
        self.walls.iter().any(|wall| {
            // `Wall::distance`, lane by lane, then × 1/h as `sums` does.
            let distance =
                (S::splat(wall.normal.x) * x + S::splat(wall.normal.y) * y) - S::splat(wall.offset);
            (distance * S::splat(self.inverse_h)).less(one).any()
        })
    }

    /// The walls' part of the relaxation of `particle`: a displacement away from the walls
    /// within h, and against its motion relative to them. The viscous part never more than
    /// stops the particle in the substep `dt`.
    #[inline(always)]
    pub fn relaxation(&self, particle: &NearWall, dt: f32) -> Vec2 {
        let NearWall {
            position,
            velocity,
            pressure,
            near_pressure,
            fullness,
            inverse_mass,
            linear_viscosity,
            quadratic_viscosity,
        } = *particle;
        let tables = Tables::get();
        let viscosity = ViscosityTables::get();
        let (mut push, mut drag) = (Vec2::ZERO, Vec2::ZERO);
        let pressures = 2.0 * pressure.at_least(0.0);
        let speed = velocity.length();
        for wall in &self.walls {
            let q = wall.distance(position) * self.inverse_h;
            if q >= 1.0 {
                continue;
            }
            let [_, _, g2, g3] = tables.at(q);
            push += wall.normal * (pressures * g2 + 2.0 * near_pressure * g3);
            if speed > 0.0 {
                // The velocity in the wall's frame: n into the liquid, t along the wall.
                let along = wall.normal.perp();
                let toward = -velocity.dot(wall.normal) / speed;
                let sliding = velocity.dot(along);
                let [n1, t1, n2, t2] = viscosity.at(q, toward);
                let linear = linear_viscosity * speed;
                let quadratic = quadratic_viscosity * speed * speed;
                let normal_part = linear * n1 + quadratic * n2;
                // The tables slide along +t: mirrored for the other way.
                let along_part = linear * t1 + quadratic * t2;
                let along_part = if sliding < 0.0 {
                    -along_part
                } else {
                    along_part
                };
                drag -= wall.normal * normal_part + along * along_part;
            }
        }
        drag *= fullness * self.per_area_h2 / self.inverse_h;
        // Never more than the particle's own motion relative to the wall.
        let most = speed * dt;
        if drag.length_squared() > most * most {
            drag = drag.clamp_length_max(most);
        }
        push * (fullness * self.per_area_h2 * inverse_mass) + drag
    }
}

/// The viscosity integrals over the part of the unit disc beyond a wall at distance q, for a
/// particle moving at unit speed at an angle φ from the direction into the wall (cos φ =
/// `toward`, from −1: away from the wall, to 1: straight into it; sliding along +t):
/// ∫ (1 − ρ) ρ² cos(θ − φ)₊^k r̂ dρ dθ for k = 1, 2, with r̂ = −cos θ n + sin θ t, stored as
/// their n and t parts.
#[derive(Debug)]
struct ViscosityTables {
    /// `[q][toward]`: (n₁, t₁, n₂, t₂).
    values: Vec<[[f32; 4]; ANGLES + 1]>,
}

/// Intervals of the viscosity tables, over q and over cos φ in −1..1.
const DISTANCES: usize = 64;
const ANGLES: usize = 64;

impl ViscosityTables {
    fn get() -> &'static ViscosityTables {
        static TABLES: OnceLock<ViscosityTables> = OnceLock::new();
        TABLES.get_or_init(ViscosityTables::compute)
    }

    #[allow(clippy::needless_range_loop)] // the angle is both an index and a value
    fn compute() -> ViscosityTables {
        // Midpoint samples of the half disc beyond the wall, in polar coordinates about the
        // particle; each is added to the entries whose q it lies beyond.
        const RADII: usize = 256;
        const THETAS: usize = 256;
        let (d_rho, d_theta) = (1.0 / RADII as f64, std::f64::consts::PI / THETAS as f64);
        let mut values = vec![[[0.0f32; 4]; ANGLES + 1]; DISTANCES + 1];
        for angle in 0..=ANGLES {
            let cos_phi = -1.0 + 2.0 * angle as f64 / ANGLES as f64;
            let sin_phi = (1.0 - cos_phi * cos_phi).at_least(0.0).sqrt();
            // Sums of the samples whose distance beyond the wall falls in each q interval.
            let mut bins = vec![[0.0f64; 4]; DISTANCES + 1];
            for t in 0..THETAS {
                let theta = -std::f64::consts::FRAC_PI_2 + (t as f64 + 0.5) * d_theta;
                let (sin_theta, cos_theta) = crate::sim::numerics::portable::sin_cos_f64(theta);
                let approach = cos_theta * cos_phi + sin_theta * sin_phi;
                if approach <= 0.0 {
                    continue;
                }
                for k in 0..RADII {
                    let rho = (k as f64 + 0.5) * d_rho;
                    let weight = (1.0 - rho) * rho * rho * d_rho * d_theta;
                    let bin = ((rho * cos_theta * DISTANCES as f64) as usize).min(DISTANCES);
                    let (first, second) = (weight * approach, weight * approach * approach);
                    let sums = &mut bins[bin];
                    sums[0] -= first * cos_theta;
                    sums[1] += first * sin_theta;
                    sums[2] -= second * cos_theta;
                    sums[3] += second * sin_theta;
                }
            }
            let mut beyond = [0.0f64; 4];
            for distance in (0..=DISTANCES).rev() {
                for (total, value) in beyond.iter_mut().zip(bins[distance]) {
                    *total += value;
                }
                values[distance][angle] = beyond.map(|v| v as f32);
            }
        }
        ViscosityTables { values }
    }

    /// (n₁, t₁, n₂, t₂) at distance `q` (0..1) and cos φ = `toward` (−1..1), bilinearly
    /// interpolated.
    #[inline(always)]
    fn at(&self, q: f32, toward: f32) -> [f32; 4] {
        let split = |value: f32, steps: usize| {
            let position = value * steps as f32;
            let index = (position.at_least(0.0) as usize).min(steps - 1);
            (index, (position - index as f32).clamp(0.0, 1.0))
        };
        let (row, s) = split(q, DISTANCES);
        let (column, t) = split(0.5 * (toward + 1.0), ANGLES);
        let corner = |r: usize, c: usize| self.values[r][c];
        let (a, b) = (corner(row, column), corner(row, column + 1));
        let (c, d) = (corner(row + 1, column), corner(row + 1, column + 1));
        // The four values at once (the same operations, lane by lane).
        let [a, b, c, d] = [a, b, c, d].map(f32x4::new);
        let (s, t) = (f32x4::splat(s), f32x4::splat(t));
        let low = a + (b - a) * t;
        let high = c + (d - c) * t;
        (low + (high - low) * s).to_array()
    }
}

/// Particles per area of the liquid a wall stands for: the rows of a hexagonal packing at rest
/// density `rest_density` (`physics::rest_particles_per_area`) below a particle of its first
/// row, which rests one particle radius `radius` from the wall, give its Σ a³; the wall gives the
/// same over the part of the disc beyond the wall.
pub fn wall_particles_per_area(h: f32, radius: f32, rest_density: f32) -> f32 {
    let (spacing, row) = resting_packing(h, rest_density);
    let h = h as f64;
    let rows = (h / row).ceil() as i64;
    let columns = (h / spacing).ceil() as i64 + 1;
    let below = packing_sum(h, spacing, 1..=rows, columns);
    let f3 = Tables::get().at(radius / h as f32)[0] as f64;
    (below / (f3 * h * h)) as f32
}

/// The spacing of a resting hexagonal packing at `rest_density`, and the height between its
/// rows.
fn resting_packing(h: f32, rest_density: f32) -> (f64, f64) {
    let per_area = crate::sim::physics::rest_particles_per_area(h, rest_density) as f64;
    let spacing = (2.0 / (3f64.sqrt() * per_area)).sqrt();
    (spacing, spacing * 3f64.sqrt() / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    /// A particle at `position` moving at `velocity` with pressure lanes `pressures`, walls as
    /// full as `fullness`, mass 1 and viscosities `viscosities` (folded).
    fn near_wall(
        position: Vec2,
        velocity: Vec2,
        pressures: (f32, f32),
        fullness: f32,
        viscosities: (f32, f32),
    ) -> NearWall {
        NearWall {
            position,
            velocity,
            pressure: pressures.0,
            near_pressure: pressures.1,
            fullness,
            inverse_mass: 1.0,
            linear_viscosity: viscosities.0,
            quadratic_viscosity: viscosities.1,
        }
    }

    #[test]
    fn the_tables_match_the_half_disc_integrals_at_the_wall_and_vanish_at_h() {
        // At q = 0 the wall cuts the disc in half: F_k = π / ((k + 1)(k + 2)), and
        // G_k = ∫₀¹ (1 − ρ)^k 2ρ dρ = 2 / ((k + 1)(k + 2)).
        let [f3, f4, g2, g3] = Tables::get().at(0.0);
        let close = |found: f32, wanted: f64| (found as f64 - wanted).abs() < 1e-4 * wanted;
        assert!(close(f3, PI / 20.0), "{f3}");
        assert!(close(f4, PI / 30.0), "{f4}");
        assert!(close(g2, 2.0 / 12.0), "{g2}");
        assert!(close(g3, 2.0 / 20.0), "{g3}");
        assert_eq!(Tables::get().at(1.0), [0.0; 4]);
        // Falling with the distance.
        let mut last = Tables::get().at(0.0);
        for step in 1..=32 {
            let now = Tables::get().at(step as f32 / 32.0);
            assert!((0..4).all(|k| now[k] < last[k] || now[k] == 0.0));
            last = now;
        }
    }

    #[test]
    fn a_resting_first_row_gets_the_rest_density() {
        // The seed's h = 6 r: a particle one radius from the floor, with its own row and the
        // rows above of a hexagonal packing at rest, plus the floor, sums to ρ0.
        let (h, radius, rest_density) = (0.3f32, 0.05f32, 82.0f32);
        let walls = [Wall::new(Vec2::Y, 0.0)];
        let wall = WallDensity::new(&walls, h, radius, rest_density);
        let (spacing, _) = resting_packing(h, rest_density);
        let sum = packing_sum(h as f64, spacing, 0..=4, 5);
        let walls_part = wall.sums(Vec2::new(0.0, radius), sum as f32);
        assert_eq!(walls_part.fullness, 1.0);
        let density = (sum + walls_part.sum as f64) * crate::sim::physics::density_norm(h) as f64;
        assert!(
            (density - rest_density as f64).abs() < 0.01 * rest_density as f64,
            "{density}"
        );
    }

    #[test]
    fn walls_push_away_and_only_within_h() {
        let walls = [Wall::new(Vec2::Y, 0.0), Wall::new(Vec2::X, 0.0)];
        let wall = WallDensity::new(&walls, 0.3, 0.05, 82.0);
        let still = |position, pressures| {
            wall.relaxation(
                &near_wall(position, Vec2::ZERO, pressures, 1.0, (1e-4, 1e-4)),
                0.01,
            )
        };
        // Near the floor only: straight up.
        let up = still(Vec2::new(1.0, 0.05), (1e-5, 1e-5));
        assert!(up.y > 0.0 && up.x == 0.0, "{up}");
        // A particle below rest density is not pulled onto the wall by its pressure.
        let sparse = still(Vec2::new(1.0, 0.05), (-1e-5, 0.0));
        assert_eq!(sparse, Vec2::ZERO);
        // In the corner: away from both.
        let out = still(Vec2::new(0.05, 0.05), (1e-5, 1e-5));
        assert!(out.x > 0.0 && out.y > 0.0, "{out}");
        // Farther than h from every wall: nothing.
        assert_eq!(wall.sums(Vec2::new(1.0, 0.31), 10.0), WallSums::default());
        let far = |velocity| {
            wall.relaxation(
                &near_wall(Vec2::new(1.0, 0.31), velocity, (1.0, 1.0), 1.0, (1.0, 1.0)),
                1.0,
            )
        };
        assert_eq!(far(Vec2::ONE), Vec2::ZERO);
    }

    #[test]
    fn the_walls_liquid_is_as_full_as_the_particles_own_side() {
        let floor = [Wall::new(Vec2::Y, 0.0)];
        let (h, rest_density) = (0.3, 82.0);
        let wall = WallDensity::new(&floor, h, 0.05, rest_density);
        let at = Vec2::new(1.0, 0.05);
        // A lone particle touching the floor: no liquid beside it, none in the floor either.
        assert_eq!(wall.sums(at, 0.0), WallSums::default());
        // Half its own side: half of the floor's liquid; a full or crowded side: all of it.
        let full = wall.sums(at, 10.0);
        assert_eq!(full.fullness, 1.0);
        let own_side = wall.rest_sum - full.sum;
        let half = wall.sums(at, 0.5 * own_side);
        assert!((half.fullness - 0.5).abs() < 1e-5, "{half:?}");
        assert!((half.sum - 0.5 * full.sum).abs() < 1e-5 * full.sum);
        // The push and the drag follow the fullness.
        let relax = |fullness| {
            wall.relaxation(
                &near_wall(at, Vec2::X, (1e-5, 1e-5), fullness, (1e-4, 1e-4)),
                1.0,
            )
        };
        assert_eq!(relax(0.0), Vec2::ZERO);
        assert!((relax(0.5) * 2.0 - relax(1.0)).length() < 1e-6 * relax(1.0).length());
    }

    #[test]
    fn the_walls_viscosity_opposes_sliding_and_approach_in_proportion_to_the_viscosity() {
        let floor = [Wall::new(Vec2::Y, 0.0)];
        let wall = WallDensity::new(&floor, 0.3, 0.05, 82.0);
        let at = Vec2::new(1.0, 0.05);
        let drag = |velocity: Vec2, linear: f32| {
            wall.relaxation(
                &near_wall(at, velocity, (0.0, 0.0), 1.0, (linear, 0.0)),
                1.0,
            )
        };
        for sliding in [Vec2::X, -Vec2::X] {
            let d = drag(sliding, 1e-4);
            // Against the sliding, and pushed off the floor a little (it approaches the parts
            // of the floor's liquid ahead of it).
            assert!(d.dot(sliding) < 0.0 && d.y >= 0.0, "{sliding}: {d}");
            // Ten times the viscosity, ten times the drag.
            let ten = drag(sliding, 1e-3);
            assert!((ten.length() / d.length() - 10.0).abs() < 1e-3, "{d} {ten}");
        }
        let into = drag(-Vec2::Y, 1e-4);
        assert!(into.y > 0.0 && into.x.abs() < 1e-3 * into.y, "{into}");
        // Leaving the wall straight away: no part of its liquid is approached.
        assert_eq!(drag(Vec2::Y, 1e-4), Vec2::ZERO);
        // Never more than stops the particle: a huge viscosity at most cancels the substep's
        // travel.
        let huge = wall.relaxation(&near_wall(at, Vec2::X, (0.0, 0.0), 1.0, (1e6, 0.0)), 0.01);
        assert!(
            (huge.length() - 0.01).abs() < 1e-6 && huge.x < 0.0,
            "{huge}"
        );
    }
}
