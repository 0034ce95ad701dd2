//! The heat's books: what each process that brings or takes heat by design has moved, so that
//! the particles' heat (`heat::totals`) changes by what the books say and by nothing else. A
//! test that checks this catches any process that gains or loses heat it should not.

use crate::sim::particles::Particles;
use crate::sim::scene::Material;

/// The heat moved into the particles (out of them where negative) since the world was made, or
/// since heat joined it, by the processes that bring or take heat by design; in degrees of water
/// × mass, `HeatTotals::total`'s unit. The particles' heat changes by `total()` and, up to
/// rounding, by nothing else: conduction, the latent heat of melting and boiling, and the heat
/// a burned-out particle leaves to its neighbours all conserve it. Edits (pours, the eraser,
/// the heat tool) and emitters are not booked: a world with them changes by what they did too.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HeatBooks {
    /// What heater and cooler walls and obstacles gave or took.
    pub plates: f64,
    /// The heat of combustion released by what burned.
    pub burning: f64,
    /// What reactions gave or took: their heat, and what their products hold more or less than
    /// what reacted (a product of another material keeps its c T, not its latent heat; steam
    /// takes its boiling heat; nothing takes the particle's heat away).
    pub reactions: f64,
    /// What phase changes gave or took with the mass they change: a particle keeps its heat per
    /// unit mass as it melts or freezes and takes its new material's mass (ice of 0.9 melts into
    /// water of 1.0, which holds a ninth more heat).
    pub phase_mass: f64,
    /// The air's: what its surface exchange gave or took, the steam it took off the liquid, the
    /// drops it condensed.
    pub air: f64,
}

impl HeatBooks {
    /// Everything booked.
    pub fn total(&self) -> f64 {
        self.plates + self.burning + self.reactions + self.phase_mass + self.air
    }
}

/// The heat particle `i` holds, m (c T + latent + offset), with `offsets` each material's heat
/// per unit mass at 0 °C (`Phases::offsets`).
pub(crate) fn held_by(
    particles: &Particles,
    materials: &[Material],
    offsets: &[f64],
    i: usize,
) -> f64 {
    let material = particles.material[i] as usize;
    let c = f64::from(materials[material].heat_capacity);
    let per_mass = c * f64::from(particles.temperature[i])
        + f64::from(particles.latent[i])
        + offsets[material];
    f64::from(particles.mass[i]) * per_mass
}
