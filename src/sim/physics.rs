//! The physics of double density relaxation as plain scalar formulas: Clavet et al. 2005,
//! "Particle-based Viscoelastic Fluid Simulation", with the 2D-normalised kernels of Tom Madams,
//! "Why my fluids don't flow" (2010). `docs/PHYSICS.md` derives and explains them.
//!
//! Symbols: particle i and a neighbour j at distance r < h (the interaction radius); q = r / h;
//! a = 1 − q; r̂ the unit vector from i to j; Δt the substep; m the particle mass.
//!
//! This module is the reference. The neighbour stages (`sim::stages::neighbours`) compute the same
//! quantities four or eight pairs at a time, with per-particle factors folded in beforehand for
//! speed (see `neighbours::lanes`); their tests compare every lane width with
//! [`reference_densities`] and [`reference_relaxation`] (LiquidFun's `_Reference` / `_Simd`
//! pairing). Nothing here is on a hot path.

use crate::sim::numerics::portable::Ordered;
use crate::sim::scene::params::SimParams;
use glam::Vec2;
use std::f32::consts::PI;

/// Normalisation of the density kernel a³ in 2D, 20 / (2π h²): its integral over the disc of
/// radius h is 2π h² / 20.
pub fn density_norm(h: f32) -> f32 {
    20.0 / (2.0 * PI * h * h)
}

/// Normalisation of the near-density kernel a⁴ in 2D, 30 / (2π h²).
pub fn near_density_norm(h: f32) -> f32 {
    30.0 / (2.0 * PI * h * h)
}

/// Kernel weight a = 1 − r / h, zero at and beyond h.
pub fn weight(r: f32, h: f32) -> f32 {
    (1.0 - r / h).at_least(0.0)
}

/// Normalised density kernel W(r) = N a³.
pub fn density_kernel(r: f32, h: f32) -> f32 {
    let a = weight(r, h);
    density_norm(h) * a * a * a
}

/// Normalised near-density kernel W_near(r) = N_near a⁴.
pub fn near_density_kernel(r: f32, h: f32) -> f32 {
    let a = weight(r, h);
    let a2 = a * a;
    near_density_norm(h) * a2 * a2
}

/// Equation of state (Clavet et al. eq. 2, per unit mass of rest density): P = k (ρ − m ρ0).
/// Negative below rest density, so a sparse surface pulls itself together.
#[inline(always)]
pub fn pressure(stiffness: f32, density: f32, mass: f32, rest_density: f32) -> f32 {
    stiffness * (density - mass * rest_density)
}

/// Near pressure P_near = k_near ρ_near: always repulsive, it keeps particles apart and the
/// surface from clustering (Clavet et al. eq. 5).
#[inline(always)]
pub fn near_pressure(near_stiffness: f32, near_density: f32) -> f32 {
    near_stiffness * near_density
}

/// Size of the pressure displacement of a pair (Clavet et al. algorithm 2, Madams' kernels):
/// D = Δt² ((P_i + P_j) N a² + (P_near,i + P_near,j) N_near a³) / 2, given the pair's
/// `pressure_sum` P_i + P_j and `near_pressure_sum` P_near,i + P_near,j. Particle i moves by
/// −D / m_i along r̂, particle j by +D / m_j (the paper's unit masses move by D / 2 each, with P
/// the pair's mean pressure).
pub fn pressure_displacement(
    dt: f32,
    h: f32,
    a: f32,
    pressure_sum: f32,
    near_pressure_sum: f32,
) -> f32 {
    let pressure = pressure_sum * density_norm(h) * a * a;
    let near = near_pressure_sum * near_density_norm(h) * a * a * a;
    0.5 * dt * dt * (pressure + near)
}

/// The inward closing speed of a pair, u = (v_i − v_j) · r̂; viscosity acts only while u > 0.
pub fn closing_speed(velocity_i: Vec2, velocity_j: Vec2, direction: Vec2) -> f32 {
    (velocity_i - velocity_j).dot(direction)
}

/// Viscous displacement of an approaching pair (Clavet et al. algorithm 5, as the seed applies
/// it): the impulse I = ½ Δt a (σ u + β u²) for closing speed `approach` u > 0, applied for one
/// substep along the offset x_j − x_i rather than along r̂ (the seed's `x_i −= I Δt (x_j − x_i)`),
/// so the displacement is I Δt r. The pair shares it by mass ([`mass_share`]): i moves away from
/// j, j away from i.
pub fn viscous_displacement(
    dt: f32,
    a: f32,
    r: f32,
    approach: f32,
    linear: f32,
    quadratic: f32,
) -> f32 {
    0.5 * dt * dt * a * (linear * approach + quadratic * approach * approach) * r
}

/// The part of a pair's viscous displacement that particle i takes: 2 m_j / (m_i + m_j), so that
/// the pair's momentum is kept and a heavy particle moves less than a light one (1 for equal
/// masses; the seed forgets the masses here).
pub fn mass_share(mass_i: f32, mass_j: f32) -> f32 {
    2.0 * mass_j / (mass_i + mass_j)
}

/// Surface tension between particles of one material (Becker & Teschner 2007, as Madams adds
/// it): particle i moves toward j by σs N m_j a² r / m_i, where σs is j's tension. Unlike the
/// pressure it carries no Δt²: the seed's constant 0.0004 is tuned for that.
pub fn tension_displacement(surface_tension: f32, h: f32, a: f32, r: f32, mass_j: f32) -> f32 {
    surface_tension * density_norm(h) * mass_j * a * a * r
}

/// One particle's half of a viscoelastic spring's displacement (Clavet et al. algorithm 3):
/// D = Δt² k (1 − L / h)(L − r) for rest length L at distance r; each end moves by D / 2,
/// toward the other when the spring is stretched (L < r).
pub fn spring_half_displacement(dt: f32, stiffness: f32, rest_length: f32, h: f32, r: f32) -> f32 {
    let half_dt2 = 0.5 * dt * dt;
    half_dt2 * stiffness * (1.0 - rest_length / h) * (rest_length - r)
}

/// The velocity a sticky particle gains toward a surface at distance d < d_stick (Clavet et al.
/// section 6.2): Δt k_stick d (1 − d / d_stick).
pub fn stickiness_impulse(dt: f32, stickiness: f32, distance: f32, reach: f32) -> f32 {
    dt * stickiness * distance * (1.0 - distance / reach)
}

/// A particle's share of its pairs' conductances, A = k V = m c α: its thermal conductivity
/// k = ρ c α times its volume V = m / ρ, which is its mass m times its heat capacity c and its
/// material's thermal diffusivity α (a material's `conductivity`), whatever its density.
pub fn heat_share(mass: f32, heat_capacity: f32, diffusivity: f32) -> f32 {
    mass * heat_capacity * diffusivity
}

/// Normalisation of the conduction kernel, 28 N / h² (N the density kernel's, `density_norm`):
/// the second moment ∫ F r² dA of F = (28 N / h²) a³ over the disc of radius h is 2d = 4.
pub fn conduction_norm(h: f32) -> f32 {
    28.0 * density_norm(h) / (h * h)
}

/// The kernel of the conduction along a pair at distance r, F(r) = (28 N / h²) a³: the density
/// kernel, normalised as a Laplacian's. For any positive radial F whose second moment is 2d,
/// Σ_j V_j (T_j − T_i) F(r_ij) approximates ∇²T at particle i (the particle strength exchange
/// of Degond and Mas-Gallic 1989, "The weighted particle method for convection-diffusion
/// equations"; Cleary and Monaghan's F = 2 (−W') / r, Brookshaw's, is one such). The density
/// kernel's costs the density stage's pair loop one load and three operations per pair, and
/// its sum over a particle's neighbours is the density stage's own Σ a³, so how fast a particle
/// exchanges heat is known from its density (`sim::subsystems::heat`'s step limit).
pub fn conduction_kernel(r: f32, h: f32) -> f32 {
    let a = weight(r, h);
    conduction_norm(h) * a * a * a
}

/// The conductance of a pair, in the form of Cleary and Monaghan 1999 ("Conduction modelling
/// using smoothed particle hydrodynamics", J. Comput. Phys. 148), their conduction equation
/// multiplied by m_i: the heat that flows into particle i per second is G (T_j − T_i), and out
/// of j the same, with
///
/// G = k_ij V_i V_j F(r) c = 2 A_i A_j / (A_i + A_j) F(r) V c,
///
/// k_ij = 2 k_i k_j / (k_i + k_j) the harmonic mean of the two conductivities (dominated by
/// the poorer conductor, so heat crosses from a good conductor into a poor one as slowly as the
/// poor one lets it, and 0 when either is 0), A = k V the shares (`heat_share`), F the kernel
/// (`conduction_kernel`), V the volume of a particle of the resting liquid and c the Laplacian
/// correction; `scale` is V c (`conduction_scale`). For one material it gives dT_i/dt =
/// α V c Σ_j (T_j − T_i) F(r_ij): the heat equation dT/dt = α ∇²T.
pub fn conductance(shares: (f32, f32), kernel: f32, scale: f32) -> f32 {
    let (a_i, a_j) = shares;
    let sum = a_i + a_j;
    if sum > 0.0 {
        2.0 * a_i * a_j / sum * kernel * scale
    } else {
        0.0
    }
}

/// The resting liquid's part of the conductance (`conductance`): V c, a resting particle's
/// volume V times the correction c that makes the conduction's Laplacian exact for quadratic
/// temperatures in the resting liquid, and the number density n = 1 / V it is for.
/// Σ_j V F(r_ij) r_ij² is 2d = 4 for a full, even neighbourhood and an exact integral, but the
/// few neighbours within h give another sum; V c is 4 over Σ_j F(r_ij) r_ij² in the hexagonal
/// packing of rest density `rest_density` (`rest_particles_per_area`), and n its kernel
/// number density N (1 + Σ a³), the particle itself counted, as the density stage finds one:
/// the same at any resolution in units of h, one constant for the whole liquid (so heat stays
/// conserved and no pass is spent on a sum per particle). A liquid packed more loosely than
/// at rest takes V c n / n̄ (`sim::subsystems::heat`). A departure from Cleary and Monaghan, in the
/// spirit of the renormalised SPH Laplacians.
pub fn conduction_scale(h: f32, rest_density: f32) -> (f32, f32) {
    let per_area = rest_particles_per_area(h, rest_density) as f64;
    let spacing = (2.0 / (3f64.sqrt() * per_area)).sqrt();
    let (h64, reach) = (h as f64, (h as f64 / spacing).ceil() as i64 + 2);
    let row = spacing * 3f64.sqrt() / 2.0;
    let mut moment = 0.0;
    for j in -reach..=reach {
        for i in -reach..=reach {
            let (x, y) = ((i as f64 + 0.5 * j as f64) * spacing, j as f64 * row);
            let r = (x * x + y * y).sqrt();
            if (i, j) != (0, 0) && r < h64 {
                moment += conduction_kernel(r as f32, h) as f64 * r * r;
            }
        }
    }
    let sum = packing_sum(h64, spacing, -reach..=reach, reach);
    let number_density = density_norm(h) as f64 * (1.0 + sum);
    ((4.0 / moment) as f32, number_density as f32)
}

/// The heat each of `particles` gains per second by conduction (`conductance`) from every other
/// closer than h, by brute force over all pairs: the reference of the conduction in the
/// density stage's pair loop and of the diffusion pass (`sim::stages::neighbours`).
pub fn reference_conduction(particles: &[Conducting], h: f32, scale: f32) -> Vec<f32> {
    let mut gained = vec![0.0; particles.len()];
    for (i, p) in particles.iter().enumerate() {
        for (j, q) in particles.iter().enumerate().skip(i + 1) {
            let r = (q.position - p.position).length();
            if r >= h {
                continue;
            }
            let g = conductance((p.share, q.share), conduction_kernel(r, h), scale);
            let heat = g * (q.temperature - p.temperature);
            gained[i] += heat;
            gained[j] -= heat;
        }
    }
    gained
}

/// What the conduction of a particle reads (`reference_conduction`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Conducting {
    /// Position.
    pub position: Vec2,
    /// Temperature.
    pub temperature: f32,
    /// Share A = m c α (`heat_share`).
    pub share: f32,
}

/// Squared distance below which two particles count as being at the same spot: they have no
/// direction between them, so one is chosen for them (deterministically, from their ids).
pub const COINCIDENT2: f32 = 1.0e-12;

/// A particle's density and near density.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Densities {
    /// Density ρ.
    pub density: f32,
    /// Near density ρ_near.
    pub near_density: f32,
}

/// Density ρ_i = m_i N Σ a³ and near density ρ_near,i = m_i N_near Σ a⁴ of every particle, summed
/// over every other particle closer than h (the particle itself excluded, as in the seed): the
/// reference of the density stage, by brute force over all pairs.
///
/// The sums count neighbours and the particle's own mass scales them (Solenthaler and Pajarola
/// 2008, "Density Contrast SPH Interfaces"), where Clavet et al. and the seed sum the
/// neighbours' masses. In one liquid the two agree; where a light liquid meets a heavy one, the
/// summed masses give the light particles a huge density and the heavy ones a deficit, which
/// opens a gap and makes the interface boil.
pub fn reference_densities(positions: &[Vec2], masses: &[f32], h: f32) -> Vec<Densities> {
    (0..positions.len())
        .map(|i| {
            let mut sums = Densities::default();
            for j in (0..positions.len()).filter(|&j| j != i) {
                let r = positions[i].distance(positions[j]);
                if r < h {
                    sums.density += density_kernel(r, h);
                    sums.near_density += near_density_kernel(r, h);
                }
            }
            Densities {
                density: masses[i] * sums.density,
                near_density: masses[i] * sums.near_density,
            }
        })
        .collect()
}

/// What the relaxation reads of one particle.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RelaxingParticle {
    /// Position (frozen for the whole stage).
    pub position: Vec2,
    /// Velocity (for viscosity).
    pub velocity: Vec2,
    /// Mass m.
    pub mass: f32,
    /// Pressure P.
    pub pressure: f32,
    /// Near pressure P_near.
    pub near_pressure: f32,
    /// Material index: tension acts only within one material.
    pub material: u16,
    /// Surface tension σs of its material.
    pub surface_tension: f32,
    /// Linear viscosity σ of its material (a pair uses the mean of its two).
    pub linear_viscosity: f32,
    /// Quadratic viscosity β of its material (a pair uses the mean of its two).
    pub quadratic_viscosity: f32,
}

/// The displacements of particles i and j from their pair at distance `r` < h along unit
/// `direction` (from i to j): pressure and near pressure, surface tension within a material and
/// the viscosity of an approaching pair.
pub fn pair_displacements(
    i: &RelaxingParticle,
    j: &RelaxingParticle,
    direction: Vec2,
    r: f32,
    h: f32,
    dt: f32,
) -> (Vec2, Vec2) {
    let a = weight(r, h);
    let pressure = pressure_displacement(
        dt,
        h,
        a,
        i.pressure + j.pressure,
        i.near_pressure + j.near_pressure,
    );
    let (mut along_i, mut along_j) = (-pressure / i.mass, pressure / j.mass);
    if i.material == j.material {
        along_i += tension_displacement(j.surface_tension, h, a, r, j.mass) / i.mass;
        along_j -= tension_displacement(i.surface_tension, h, a, r, i.mass) / j.mass;
    }
    let approach = closing_speed(i.velocity, j.velocity, direction).at_least(0.0);
    let linear = 0.5 * (i.linear_viscosity + j.linear_viscosity);
    let quadratic = 0.5 * (i.quadratic_viscosity + j.quadratic_viscosity);
    let viscous = viscous_displacement(dt, a, r, approach, linear, quadratic);
    along_i -= viscous * mass_share(i.mass, j.mass);
    along_j += viscous * mass_share(j.mass, i.mass);
    (direction * along_i, direction * along_j)
}

/// Every particle's relaxation displacement (Jacobi: each pair reads the same frozen state), by
/// brute force over all pairs closer than h; `coincident(i, j)` is the direction from i to j for
/// two particles at one spot (opposite for j, i). The reference of the relaxation stage.
pub fn reference_relaxation(
    particles: &[RelaxingParticle],
    h: f32,
    dt: f32,
    coincident: impl Fn(usize, usize) -> Vec2,
) -> Vec<Vec2> {
    let mut displacement = vec![Vec2::ZERO; particles.len()];
    for i in 0..particles.len() {
        for j in i + 1..particles.len() {
            let offset = particles[j].position - particles[i].position;
            let r2 = offset.length_squared();
            if r2 >= h * h {
                continue;
            }
            let r = r2.sqrt();
            let direction = if r2 > COINCIDENT2 {
                offset / r
            } else {
                coincident(i, j)
            };
            let (on_i, on_j) =
                pair_displacements(&particles[i], &particles[j], direction, r, h, dt);
            displacement[i] += on_i;
            displacement[j] += on_j;
        }
    }
    displacement
}

/// Particles per unit area of a settled liquid of rest density `rest_density`: the number
/// density of the hexagonal packing whose kernel density (`density_kernel` summed over the
/// neighbours within h, the particle itself excluded, as the density stage sums it) equals
/// `rest_density`. The kernel's discrete sum undercounts the continuum, so this is about 1.3 ×
/// ρ0 for the seed's h = 6 r; a settled pool measures within a few percent of it.
pub fn rest_particles_per_area(h: f32, rest_density: f32) -> f32 {
    let density_at = |spacing: f64| -> f64 {
        let h = h as f64;
        let norm = 20.0 / (2.0 * std::f64::consts::PI * h * h);
        let reach = (h / spacing).ceil() as i64 + 2;
        norm * packing_sum(h, spacing, -reach..=reach, reach)
    };
    // The density falls as the spacing grows: bisect between a crowded and a sparse packing.
    let (mut crowded, mut sparse) = (h as f64 / 20.0, h as f64 * 0.99);
    for _ in 0..60 {
        let middle = 0.5 * (crowded + sparse);
        if density_at(middle) > rest_density as f64 {
            crowded = middle;
        } else {
            sparse = middle;
        }
    }
    let spacing = 0.5 * (crowded + sparse);
    (2.0 / (3f64.sqrt() * spacing * spacing)) as f32
}

/// Σ (1 − r/h)³ over the sites of a hexagonal packing of spacing `spacing` that lie within h of
/// its site at the origin, that site left out, in the rows `rows` and the columns −`columns` to
/// `columns`: the density kernel's sum up to its norm, as a particle of a resting liquid gets it
/// from those sites (the particles per area at rest, and the liquid a wall stands for, are found
/// from it). Site (i, j) lies at ((i + j/2) · spacing, j · spacing · √3/2).
pub(crate) fn packing_sum(
    h: f64,
    spacing: f64,
    rows: std::ops::RangeInclusive<i64>,
    columns: i64,
) -> f64 {
    packing_sum_of(h, spacing, rows, columns, |_, a| a * a * a)
}

/// Σ `term(r, a)` over the sites of `packing_sum`'s packing within h of the origin's site, that
/// site left out.
fn packing_sum_of(
    h: f64,
    spacing: f64,
    rows: std::ops::RangeInclusive<i64>,
    columns: i64,
    term: impl Fn(f64, f64) -> f64,
) -> f64 {
    let row = spacing * 3f64.sqrt() / 2.0;
    let mut sum = 0.0;
    for j in rows {
        for i in -columns..=columns {
            let x = (i as f64 + 0.5 * j as f64) * spacing;
            let y = j as f64 * row;
            let r = (x * x + y * y).sqrt();
            if (i, j) != (0, 0) && r < h {
                sum += term(r, 1.0 - r / h);
            }
        }
    }
    sum
}

/// What the equation of state's pressures stand for as a pressure (a force per length, in 2D),
/// `p = pressure × P + near × P_near`, whose gradient the relaxation turns into the liquid's
/// acceleration: in a still pool p grows with depth by the weight of the liquid above, ρ g.
///
/// The relaxation moves particle i by −Δt² Σ_j ((P_i + P_j) N a² + (P_near,i + P_near,j) N_near
/// a³) r̂ / (2 m_i) (`pressure_displacement`), an acceleration of that over Δt². Where P varies
/// by a gradient G over a resting packing of n particles per area, the sum is N G S₂ / (2 m_i),
/// with S₂ = ½ Σ_j a² r (the packing's sums are isotropic), and the same with S₃ = ½ Σ_j a³ r for
/// the near pressure. A liquid of mass density m n accelerates by −∇p / (m n), so ∇p =
/// n (N S₂ ∇P + N_near S₃ ∇P_near) / 2, whatever the mass. The sums run over the hexagonal
/// packing of `rest_particles_per_area`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PressureScales {
    /// The pressure of one unit of P.
    pub pressure: f32,
    /// The pressure of one unit of P_near.
    pub near: f32,
}

/// `PressureScales` for interaction radius `h` and rest density `rest_density`.
pub fn pressure_scales(h: f32, rest_density: f32) -> PressureScales {
    let per_area = rest_particles_per_area(h, rest_density) as f64;
    let spacing = (2.0 / (3f64.sqrt() * per_area)).sqrt();
    let h64 = h as f64;
    let reach = (h64 / spacing).ceil() as i64 + 2;
    let sum = |term: fn(f64, f64) -> f64| packing_sum_of(h64, spacing, -reach..=reach, reach, term);
    let s2 = 0.5 * sum(|r, a| a * a * r);
    let s3 = 0.5 * sum(|r, a| a * a * a * r);
    let (norm, near_norm) = (density_norm(h) as f64, near_density_norm(h) as f64);
    PressureScales {
        pressure: (0.5 * per_area * norm * s2) as f32,
        near: (0.5 * per_area * near_norm * s3) as f32,
    }
}

/// Mass per area of a liquid of `mass = 1` at rest: the particles per area of a hexagonal
/// packing whose density (`physics::rest_particles_per_area`) is the rest density ρ0, times the
/// mass of a mass-1 material's particle at this resolution, (r / r_ref)² (`resolution`). The
/// same at any resolution; bodies' densities are relative to it.
pub fn water_density(params: &SimParams) -> f32 {
    let scale = params.particle_radius / crate::sim::scene::resolution::REFERENCE_RADIUS;
    let per_area = rest_particles_per_area(params.interaction_radius, params.rest_density);
    per_area * scale * scale
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_settled_liquid_packs_about_1_3_particles_per_rest_density_unit() {
        // The seed: h = 0.3, ρ0 = 82 (a settled pool measures about 107 per m²).
        let per_area = super::rest_particles_per_area(0.3, 82.0);
        assert!((104.0..111.0).contains(&per_area), "{per_area}");
        // The same packing in units of h at any resolution.
        let finer = super::rest_particles_per_area(0.15, 82.0 * 4.0);
        assert!((finer / per_area - 4.0).abs() < 0.01, "{finer}");
    }
    use super::*;

    /// Integrates a radial function over the disc of radius h with the midpoint rule in r.
    fn integrate_over_disc(kernel: impl Fn(f32) -> f32, h: f32) -> f64 {
        let steps = 20_000;
        let dr = h as f64 / steps as f64;
        (0..steps)
            .map(|k| {
                let r = (k as f64 + 0.5) * dr;
                kernel(r as f32) as f64 * 2.0 * std::f64::consts::PI * r * dr
            })
            .sum()
    }

    #[test]
    fn density_kernel_integrates_to_one_over_the_disc() {
        for h in [0.3_f32, 1.0, 2.5] {
            let integral = integrate_over_disc(|r| density_kernel(r, h), h);
            assert!((integral - 1.0).abs() < 1e-4, "h = {h}: ∫W = {integral}");
        }
    }

    #[test]
    fn near_density_kernel_integrates_to_one_over_the_disc() {
        for h in [0.3_f32, 1.0, 2.5] {
            let integral = integrate_over_disc(|r| near_density_kernel(r, h), h);
            assert!(
                (integral - 1.0).abs() < 1e-4,
                "h = {h}: ∫W_near = {integral}"
            );
        }
    }

    #[test]
    fn kernels_vanish_at_and_beyond_h() {
        assert_eq!(density_kernel(0.3, 0.3), 0.0);
        assert_eq!(near_density_kernel(0.31, 0.3), 0.0);
        assert!(density_kernel(0.0, 0.3) > near_density_kernel(0.29, 0.3));
    }

    fn particle(x: f32, mass: f32) -> RelaxingParticle {
        RelaxingParticle {
            position: Vec2::new(x, 0.0),
            mass,
            pressure: 0.02,
            near_pressure: 0.5,
            ..RelaxingParticle::default()
        }
    }

    #[test]
    fn a_pair_pushes_apart_and_keeps_its_momentum() {
        let (i, j) = (particle(0.0, 1.0), particle(0.1, 3.0));
        let (on_i, on_j) = pair_displacements(&i, &j, Vec2::X, 0.1, 0.3, 1.0 / 140.0);
        assert!(on_i.x < 0.0 && on_j.x > 0.0, "{on_i} {on_j}");
        // Momentum: m_i Δx_i + m_j Δx_j = 0.
        assert!((on_i * i.mass + on_j * j.mass).length() < 1e-9);
    }

    #[test]
    fn viscosity_slows_an_approaching_pair_only() {
        let dt = 1.0 / 140.0;
        let (mut i, mut j) = (particle(0.0, 1.0), particle(0.1, 1.0));
        (i.pressure, i.near_pressure, j.pressure, j.near_pressure) = (0.0, 0.0, 0.0, 0.0);
        (i.linear_viscosity, j.linear_viscosity) = (0.5, 0.5);
        i.velocity = Vec2::X;
        let (on_i, on_j) = pair_displacements(&i, &j, Vec2::X, 0.1, 0.3, dt);
        assert!(on_i.x < 0.0 && on_j.x > 0.0, "approaching: {on_i} {on_j}");
        i.velocity = -Vec2::X;
        let (on_i, on_j) = pair_displacements(&i, &j, Vec2::X, 0.1, 0.3, dt);
        assert_eq!((on_i, on_j), (Vec2::ZERO, Vec2::ZERO), "separating");
    }

    #[test]
    fn tension_pulls_one_material_together_and_ignores_another() {
        let dt = 1.0 / 140.0;
        let (mut i, mut j) = (particle(0.0, 1.0), particle(0.1, 1.0));
        (i.pressure, i.near_pressure, j.pressure, j.near_pressure) = (0.0, 0.0, 0.0, 0.0);
        (i.surface_tension, j.surface_tension) = (0.001, 0.001);
        let (on_i, on_j) = pair_displacements(&i, &j, Vec2::X, 0.1, 0.3, dt);
        assert!(on_i.x > 0.0 && on_j.x < 0.0, "{on_i} {on_j}");
        j.material = 1;
        let (on_i, _) = pair_displacements(&i, &j, Vec2::X, 0.1, 0.3, dt);
        assert_eq!(on_i, Vec2::ZERO);
    }
    /// In the resting hexagonal packing of the seed's rest density, the conductance's
    /// Laplacian of T = x² + 3y² (∇²T = 8) is 8, as `conduction_scale` makes it; on a square
    /// lattice of the same particles per area it is within 3% of 8; the scale is the same at
    /// any resolution in units of h²; the harmonic mean is 0 when either end is.
    #[test]
    fn the_conductance_gives_the_laplacian_on_a_lattice() {
        let h = 0.3_f32;
        let rest_density = SimParams::default().rest_density;
        let (scale, _) = conduction_scale(h, rest_density);
        let per_area = rest_particles_per_area(h, rest_density);
        let hexagonal = (2.0 / (3f32.sqrt() * per_area)).sqrt();
        let square = 1.0 / per_area.sqrt();
        type Site = Box<dyn Fn(i32, i32) -> Vec2>;
        let lattices: [(Site, f32); 2] = [
            (
                Box::new(move |i, j| {
                    Vec2::new(i as f32 + 0.5 * j as f32, j as f32 * 3f32.sqrt() / 2.0) * hexagonal
                }),
                1e-3,
            ),
            (
                Box::new(move |i, j| Vec2::new(i as f32, j as f32) * square),
                0.03,
            ),
        ];
        let share = heat_share(1.0, 1.0, 1.0);
        let temperature = |x: Vec2| x.x * x.x + 3.0 * x.y * x.y;
        let centre = Vec2::new(0.3, -0.2);
        for (site, tolerance) in lattices {
            let heat: f32 = (-8..=8)
                .flat_map(|i| (-8..=8).map(move |j| (i, j)))
                .map(|(i, j)| site(i, j))
                .filter(|d| d.length() > 0.0 && d.length() < h)
                .map(|d| {
                    let g = conductance((share, share), conduction_kernel(d.length(), h), scale);
                    g * (temperature(centre + d) - temperature(centre))
                })
                .sum();
            assert!((heat / 8.0 - 1.0).abs() < tolerance, "{heat}");
        }
        let (finer, _) = conduction_scale(h / 2.0, rest_density * 4.0);
        assert!((finer * 4.0 / scale - 1.0).abs() < 1e-3, "{finer} {scale}");
        assert!((integrate_over_disc(|r| conduction_kernel(r, h) * r * r, h) - 4.0).abs() < 1e-3);
        assert_eq!(conductance((2.0, 0.0), 1.0, 1.0), 0.0);
        assert_eq!(conductance((0.0, 0.0), 1.0, 1.0), 0.0);
        assert!((conductance((1.0, 3.0), 1.0, 1.0) - 1.5).abs() < 1e-6);
    }
}
