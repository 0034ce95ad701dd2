//! What a scene says of its air, as plain values: the grid's size, the air's constants, how
//! smoke is advected, the pressure solve's settings and the smoke and heat sources
//! (`AirSettings`, the values a preset's `[air]` table holds). The running air (`air`) is built
//! from them; they know nothing of it. The pressure solve's method and stopping rule are here too
//! (`Method`, `Settings`), as plain data the solver reads.

use glam::Vec2;
use serde::{Deserialize, Serialize};

/// Which method solves the pressure Poisson equation (a preset's `air.solver`: `"multigrid"` or
/// `"gauss-seidel"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Method {
    /// Conjugate gradients preconditioned by one multigrid V-cycle (McAdams et al. 2010):
    /// a handful of iterations, whatever the grid size. Parallel over rows.
    #[default]
    #[serde(rename = "multigrid")]
    MultigridPcg,
    /// Stam's `lin_solve`: lexicographic Gauss–Seidel sweeps in place, on the calling thread.
    /// An iteration is a sweep; it needs of the order of (grid side)² of them.
    #[serde(rename = "gauss-seidel")]
    GaussSeidel,
}

/// The pressure solve's stopping rule (`air.tolerance` and `air.max_iterations` in a preset).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// The method to use.
    pub method: Method,
    /// Target relative residual ‖b' − A p‖₂ / ‖b'‖₂, where b' is b less its mean over each
    /// component of open cells. The f32 pressure returned cannot in general do better than
    /// about 1e-7 × ‖p‖ / ‖b'‖ (its rounding alone); asked for less, a solve stops there.
    pub tolerance: f32,
    /// Most iterations (CG iterations, or Gauss–Seidel sweeps) before giving up.
    pub max_iterations: u32,
}

impl Default for Settings {
    /// Multigrid-preconditioned CG to a relative residual of 1e-4, at most 100 iterations.
    fn default() -> Self {
        Self {
            method: Method::MultigridPcg,
            tolerance: 1e-4,
            max_iterations: 100,
        }
    }
}

/// The air of a scene: its grid, its constants, its sources. Every field has a documented
/// default (`AirSettings::default()`); it is a preset's `[air]` table as written, every field
/// optional.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AirSettings {
    /// Cells across the walls' bounding box (square cells; the rows follow from its height).
    pub columns: usize,
    /// Density ρ of the air (1): scales the pressure, not the motion.
    pub density: f32,
    /// Buoyancy α: downward acceleration per unit of smoke, m/s² (0.1).
    pub smoke_weight: f32,
    /// Buoyancy β: upward acceleration per degree above the ambient air, m/s² (1).
    pub heat_lift: f32,
    /// Vorticity confinement ε (2): how strongly small swirls are kept alive. Its step is
    /// limited to Δt ε = 0.5 (`forces::CONFINEMENT_LIMIT`): past that it pushes no harder.
    pub vorticity: f32,
    /// Rate at which the air's heat fades, per second (0.5).
    pub cooling: f32,
    /// Rate at which smoke thins away, per second (0: it only moves).
    pub smoke_decay: f32,
    /// Drag on spray (particles with under half their rest density), per second (3): how fast
    /// a lone drop takes up the air's velocity.
    pub drag: f32,
    /// Rate at which hot liquid brings the air beside it to its temperature, per second (4).
    pub heating: f32,
    /// Rate at which the liquid's surface takes the air's temperature, per second, for a
    /// material of water's heat capacity (0.2); only in scenes with heat, where particles have
    /// temperatures of their own (`sim::subsystems::heat`).
    pub surface_exchange: f32,
    /// How far below the boiling point the air must be for vapour to condense, in degrees (50):
    /// steam leaves at the boiling point and rises until the air has cooled this much.
    pub condensation: f32,
    /// How smoke is advected (conservative). Heat is always advected semi-Lagrangian: it cools
    /// anyway, and needs no accounting.
    pub advection: ScalarAdvection,
    /// The pressure solve's method (multigrid-preconditioned CG).
    pub solver: Method,
    /// The pressure solve's target relative residual (1e-4; see `Settings::tolerance`).
    pub tolerance: f32,
    /// The pressure solve's most iterations (100).
    pub max_iterations: u32,
    /// Smoke colour for the window (light grey), linear RGB.
    pub colour: [f32; 3],
    /// Smoke and heat sources.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<AirSource>,
}

impl Default for AirSettings {
    fn default() -> Self {
        Self {
            columns: 96,
            density: 1.0,
            smoke_weight: 0.1,
            heat_lift: 1.0,
            vorticity: 2.0,
            cooling: 0.5,
            smoke_decay: 0.0,
            drag: 3.0,
            heating: 4.0,
            surface_exchange: 0.2,
            condensation: 50.0,
            advection: ScalarAdvection::Conservative,
            solver: Method::MultigridPcg,
            tolerance: 1e-4,
            max_iterations: 100,
            colour: [0.8, 0.8, 0.82],
            sources: Vec::new(),
        }
    }
}

impl AirSettings {
    /// The pressure solve's settings: `solver`, `tolerance` and `max_iterations`.
    pub fn solver_settings(&self) -> Settings {
        Settings {
            method: self.solver,
            tolerance: self.tolerance,
            max_iterations: self.max_iterations,
        }
    }
}

/// A disc that puts smoke, heat and motion into the air for a while (a preset's
/// `[[air.sources]]` entry).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AirSource {
    /// Centre.
    pub position: Vec2,
    /// Radius.
    pub radius: f32,
    /// Smoke added per second (density units per second; 0).
    #[serde(default)]
    pub smoke: f32,
    /// Temperature the air in the disc is held at, in degrees above ambient (0: none).
    #[serde(default)]
    pub temperature: f32,
    /// Velocity given to the air in the disc (zero: none).
    #[serde(default)]
    pub velocity: Vec2,
    /// Seconds after the start when it opens (0).
    #[serde(default)]
    pub start: f32,
    /// Seconds it stays open (infinite, what a preset that leaves it out gets: never closes).
    #[serde(default = "forever", skip_serializing_if = "is_forever")]
    pub duration: f32,
}

/// An air source's `duration` when a preset leaves it out: it never closes.
fn forever() -> f32 {
    f32::INFINITY
}

fn is_forever(duration: &f32) -> bool {
    *duration == f32::INFINITY
}

/// How the scalars (smoke, temperature) are advected (a preset's `air.advection`:
/// `"conservative"` or `"semi-lagrangian"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScalarAdvection {
    /// Forward then backward accounting passes (seed 003): the total is kept to rounding.
    #[default]
    Conservative,
    /// Plain semi-Lagrangian: smooth, but gains or loses mass where the flow converges.
    SemiLagrangian,
}
