//! A material: one table of its fields, from which everything that handles them follows.
//!
//! Each row of `material_fields!` below is one field: its doc and serde attributes, its type
//! and default, its entry in the table of preset fields (the constant, its path in a preset
//! file, what it accepts, the default as the reference tables write it), how it changes with
//! the particle size (`Law`), the scene-wide parameter it overrides (`or params.NAME`) and, if
//! the live panel tunes it, its `Tunable` and the panel's label. From the table come:
//!
//! - the [`Material`] struct (the preset file and snapshots read and write it with serde) and
//!   its `Default`;
//! - the fields' entries ([`FIELDS`]: the preset loader and a restored snapshot check each
//!   value by it, `docs/REFERENCE.md` is rendered from it);
//! - [`MATERIAL_FIELDS`], each numeric field with its law and accessors: rescaling to other
//!   particles (`resolution`), run-time edits (`World::set_material`) and a saved preset's
//!   untouched values walk it;
//! - [`Tunable`], the fields the panel and replays tune, with their names and labels.
//!
//! A new material field is one row here and the physics that reads it.

use super::params::SimParams;
use super::ranges::{Accepts, Bound, Field, Scale};
use serde::{Deserialize, Serialize};
use Accepts::{Above, Range, Rule};
use Bound::{Number as N, PerDtSquared, TimesDtSquared};

/// How a material's value changes when the same scene runs with particles λ times the
/// reference radius (`sim::scene::resolution` derives each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Law {
    /// It does not depend on the particle size.
    Same,
    /// A particle's mass: λ² (the same density with more, smaller particles).
    Mass,
    /// Pressure shading: λ⁻³ (pressures grow as λ³, the shading stays).
    PressureShading,
    /// Pressure stiffness and near stiffness: λ³.
    Stiffness,
    /// Linear viscosity σ: λ⁻³ (the kinematic viscosity of the continuum).
    LinearViscosity,
    /// Quadratic viscosity β: λ⁻² (the distance an impact is stopped in, in h).
    QuadraticViscosity,
    /// Spring stiffness and stickiness: λ⁻² (the same elastic modulus).
    Springs,
    /// Surface tension: it follows the substeps, τ² for substeps τ times shorter
    /// (`Scene::with_substeps`), not the particle size.
    Substeps,
}

impl Law {
    /// The factor for particles `lambda` times the reference radius (1 for `Same` and
    /// `Substeps`).
    pub fn length_factor(self, lambda: f32) -> f32 {
        let (l2, l3) = (lambda * lambda, lambda * lambda * lambda);
        match self {
            Law::Same | Law::Substeps => 1.0,
            Law::Mass => l2,
            Law::PressureShading | Law::LinearViscosity => 1.0 / l3,
            Law::Stiffness => l3,
            Law::QuadraticViscosity | Law::Springs => 1.0 / l2,
        }
    }
}

/// A numeric field of a material as code that walks every field sees it.
#[derive(Clone, Copy, Debug)]
pub struct MaterialField {
    /// Its name in preset files (`linear_viscosity`).
    pub name: &'static str,
    /// Its entry in the table of preset fields: what it accepts.
    pub field: &'static Field,
    /// How it changes with the particle size.
    pub law: Law,
    /// Its value in `material`: `None` for an override left to the scene's parameter, a value
    /// the material does not have (a boiling point of what never boils) or a field that is no
    /// number.
    pub value: fn(&Material) -> Option<f32>,
    /// Sets it in `material` exactly (`None` clears an optional field; a plain number ignores
    /// `None`).
    pub put: fn(&mut Material, Option<f32>),
    /// The scene-wide parameter it overrides, if any.
    pub fallback: Option<fn(&SimParams) -> f32>,
}

impl MaterialField {
    /// Its value for `material` under `params`: its own, or the parameter it overrides; a
    /// value the material does not have (a boiling point) reads as the top of its range.
    pub fn resolved(&self, material: &Material, params: &SimParams) -> f32 {
        match ((self.value)(material), self.fallback) {
            (Some(value), _) => value,
            (None, Some(fallback)) => fallback(params),
            (None, None) => self.field.range(&Scale::default()).1,
        }
    }

    /// Sets it to `value` where the material can have it: an override always, a value the
    /// material may lack (a boiling point) only where it has one.
    pub fn set(&self, material: &mut Material, value: f32) {
        if self.fallback.is_some() || (self.value)(material).is_some() {
            (self.put)(material, Some(value));
        }
    }
}

impl Tunable {
    /// The tunable called `name`, if any.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|t| t.name() == name)
    }

    /// Its value for `material` under `params` (an override, or the scene's value, resolved as
    /// the liquid resolves them; a material that does not boil reads as boiling at the top of
    /// the range).
    pub fn get(self, material: &Material, params: &SimParams) -> f32 {
        self.row().resolved(material, params)
    }

    /// Sets it on `material` (as an override where the field has one; only a material that
    /// boils has a boiling point to move).
    pub fn set(self, material: &mut Material, value: f32) {
        self.row().set(material, value);
    }

    /// Whether `material` has it to tune: springs only in a material with springs, stickiness in
    /// a sticky one, a melting point in one that melts, a boiling point in one that boils.
    pub fn applies_to(self, material: &Material) -> bool {
        match self {
            Self::SpringStiffness => material.spring_stiffness > 0.0,
            Self::Stickiness => material.stickiness > 0.0,
            Self::MeltingPoint => material.melts_into.is_some(),
            Self::BoilingPoint => material.boiling_point.is_some(),
            _ => true,
        }
    }

    /// Its entry in the table of preset fields.
    pub fn field(self) -> &'static Field {
        self.row().field
    }

    /// The range preset files accept, at the reference particle radius (for springs, in a
    /// scene measured by `scale`: at most 0.05 / Δt²).
    pub fn reference_range(self, scale: &Scale) -> (f32, f32) {
        self.field().range(scale)
    }

    /// The top of the range where a stirred liquid stays calm, in preset file units, for the
    /// constants no stability rule bounds: the viscosities, measured on `dam` under random
    /// stirring (the seed's 0.5 and 1 sit well inside; at 100 the stirred pool boils, though a
    /// pool left alone stays calm). `None` for the others, calm over their whole accepted range:
    /// the world runs the substeps a stiffness needs (`stability`), the tension's range is its
    /// calm one (30 Δt²), springs and stickiness are calm up to their tops
    /// (`tests/suite/ranges_sweep.rs`), and the conduction stays calm to the top of its range
    /// (`CONDUCTIVITY`); a temperature moves nothing.
    pub fn calm_limit(self) -> Option<f32> {
        match self {
            Self::LinearViscosity | Self::QuadraticViscosity => Some(20.0),
            _ => None,
        }
    }

    /// What a reference value is multiplied by in a world of particles λ times the reference
    /// radius and substeps τ times shorter than the file's (`sim::scene::resolution`).
    pub fn factor(self, lambda: f32, tau: f32) -> f32 {
        match self.row().law {
            Law::Substeps => tau * tau,
            law => law.length_factor(lambda),
        }
    }
}

/// A field's value as a number, for the fields that are one.
trait Number {
    fn number(&self) -> Option<f32>;
    fn put(&mut self, value: Option<f32>);
}

impl Number for f32 {
    fn number(&self) -> Option<f32> {
        Some(*self)
    }

    fn put(&mut self, value: Option<f32>) {
        if let Some(value) = value {
            *self = value;
        }
    }
}

impl Number for Option<f32> {
    fn number(&self) -> Option<f32> {
        *self
    }

    fn put(&mut self, value: Option<f32>) {
        *self = value;
    }
}

/// Fields that are no number (a name, a colour, a material's name, a flag): the preset loader
/// checks them by rules of their own.
macro_rules! no_number {
    ($($ty:ty),*) => {$(
        impl Number for $ty {
            fn number(&self) -> Option<f32> {
                None
            }

            fn put(&mut self, _: Option<f32>) {}
        }
    )*};
}

no_number!(String, [f32; 3], Option<String>, bool, Style);

/// The index of the row called `name` in `MATERIAL_FIELDS` (at compile time: a tunable without
/// its row does not build).
const fn row_index(name: &str) -> usize {
    let mut k = 0;
    'rows: while k < MATERIAL_FIELDS.len() {
        let row = MATERIAL_FIELDS[k].name.as_bytes();
        let wanted = name.as_bytes();
        k += 1;
        if row.len() != wanted.len() {
            continue;
        }
        let mut i = 0;
        while i < row.len() {
            if row[i] != wanted[i] {
                continue 'rows;
            }
            i += 1;
        }
        return k - 1;
    }
    panic!("a tunable names no row of the table")
}

/// True for the default style (a saved material leaves it out).
fn is_clear(style: &Style) -> bool {
    *style == Style::Clear
}

/// The defaults a preset file's material takes for the fields it leaves out
/// (`Material::default`'s).
mod defaults {
    pub fn one() -> f32 {
        1.0
    }

    pub fn half() -> f32 {
        0.5
    }

    pub fn yield_ratio() -> f32 {
        0.1
    }
}

/// How a material looks in the window: the renderer's light, refraction, sheen, grain and glow
/// for it (`app::draw::look` turns each into numbers). The engine never reads it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Style {
    /// Water: clear, what lies behind it seen bent through it, a sharp highlight.
    #[default]
    Clear,
    /// Oil and syrup: little seen through it, a broad glossy sheen.
    Sheen,
    /// Slime: nothing seen through it, a soft highlight.
    Opaque,
    /// Ice and jelly: half seen through, a frosted grain and a crisp bright edge.
    Translucent,
    /// Rock: matte, with a grain.
    Matte,
    /// Lava: it gives off light, which blooms into what is around it.
    Emissive,
    /// Sand: matte, each grain a shade lighter or darker than the next (a speckle from its
    /// particle's id), so it reads as grains and not as a smooth liquid.
    Grain,
}

impl Style {
    /// Every style, in the reference's order.
    pub const ALL: [Style; 7] = [
        Style::Clear,
        Style::Sheen,
        Style::Opaque,
        Style::Translucent,
        Style::Matte,
        Style::Emissive,
        Style::Grain,
    ];
}

/// Declares `Material`, its `Default`, the fields' entries, `FIELDS`, `MATERIAL_FIELDS` and
/// `Tunable` from one table (see the module documentation).
macro_rules! material_fields {
    ($(
        $(#[$attr:meta])*
        $field:ident: $ty:ty = $default:expr,
            $konst:ident = $path:literal $(in $unit:literal)?, $accepts:expr, $said:literal,
            law $law:ident $(or params.$param:ident)? $(, tune $tunable:ident $label:literal)?;
    )*) => {
        /// A kind of liquid: its look, its particle mass, and how it differs from the scene's
        /// plain liquid (its own pressure, tension and viscosity, elastic springs, stickiness,
        /// heat and phase changes).
        ///
        /// `Material::default()` is the seed's plain liquid: no springs, no stickiness, and every
        /// override `None` (the `SimParams` value applies).
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct Material {
            $($(#[$attr])* pub $field: $ty,)*
        }

        impl Default for Material {
            fn default() -> Self {
                Self { $($field: $default,)* }
            }
        }

        /// A `[[materials]]` entry as a preset file writes it: every field it gives, none
        /// required. Laid over a library material it overrides what it gives
        /// (`crate::preset::library`); a material of the preset's own lays it over
        /// `Material::default()`.
        #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct MaterialPatch {
            $(
                #[doc = concat!("`", stringify!($field), "`, if given.")]
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub $field: Option<$ty>,
            )*
        }

        impl MaterialPatch {
            /// `base` with every field this entry gives replaced by its value.
            pub fn over(self, base: Material) -> Material {
                let mut material = base;
                $(if let Some(value) = self.$field {
                    material.$field = value;
                })*
                material
            }
        }

        $(
            #[doc = concat!("What `", $path, "` accepts.")]
            pub const $konst: Field = Field {
                path: $path,
                accepts: $accepts,
                unit: material_fields!(@text $($unit)?),
                default: $said,
                meaning: "",
            };
        )*

        /// Every field of a material, in the table's order (the reference tables' order).
        pub const FIELDS: &[Field] = &[$($konst),*];

        /// Every field of a material, in the table's order, with its law and accessors (a field
        /// that is no number reads as `None` and ignores what is put).
        pub const MATERIAL_FIELDS: &[MaterialField] = &[$(
            MaterialField {
                name: stringify!($field),
                field: &$konst,
                law: Law::$law,
                value: |material| Number::number(&material.$field),
                put: |material, value| Number::put(&mut material.$field, value),
                fallback: material_fields!(@fallback $($param)?),
            },
        )*];

        /// A material constant the live panel tunes, by name (`Tunable::name` is how replays
        /// and the panel write it).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Tunable {
            $($(#[doc = $label] $tunable,)?)*
        }

        impl Tunable {
            /// Every tunable, in the panel's order.
            pub const ALL: &[Tunable] = &[$($(Tunable::$tunable,)?)*];

            /// The field's name in preset files.
            pub fn name(self) -> &'static str {
                match self {
                    $($(Self::$tunable => stringify!($field),)?)*
                }
            }

            /// The panel's label for it.
            pub fn label(self) -> &'static str {
                match self {
                    $($(Self::$tunable => $label,)?)*
                }
            }

            /// Its row of the table.
            pub fn row(self) -> &'static MaterialField {
                match self {
                    $($(Self::$tunable => &MATERIAL_FIELDS[const { row_index(stringify!($field)) }],)?)*
                }
            }
        }
    };
    (@text $text:literal) => { $text };
    (@text) => { "" };
    (@fallback $param:ident) => {
        Some(|params: &SimParams| params.$param)
    };
    (@fallback) => { None };
}

material_fields! {
    /// Name used by presets to refer to it.
    name: String = String::new(),
        MATERIAL_NAME = "materials[i].name",
            Rule("non-empty, one line, unique; a library material's name takes it"), "",
            law Same;
    /// What it is, in a few words (`slosh --list-materials`, the palette's tooltip).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    description: String = String::new(),
        MATERIAL_DESCRIPTION = "materials[i].description", Rule("one line without control characters"), "none",
            law Same;
    /// Linear RGB colour, each channel in 0..=1.
    colour: [f32; 3] = [0.5; 3],
        COLOUR = "materials[i].colour" in "in each of three channels", Range(N(0.0), N(1.0)), "",
            law Same;
    /// Mass of one particle; heavier liquids sink below lighter ones.
    mass: f32 = 1.0,
        MASS = "materials[i].mass", Above(N(0.0), N(1000.0)), "", law Mass;
    /// Pressure shading: colour × (pressure_bias + pressure_scale × P), as in the seed.
    #[serde(default)]
    pressure_scale: f32 = 0.0,
        PRESSURE_SCALE = "materials[i].pressure_scale", Range(N(-100.0), N(100.0)), "0",
            law PressureShading;
    /// See `pressure_scale`.
    #[serde(default = "defaults::one")]
    pressure_bias: f32 = 1.0,
        PRESSURE_BIAS = "materials[i].pressure_bias", Range(N(-100.0), N(100.0)), "1", law Same;
    /// Pressure stiffness k of this material (`None`: `SimParams::stiffness`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stiffness: Option<f32> = None,
        MATERIAL_STIFFNESS = "materials[i].stiffness", Range(N(0.0), N(10.0)), "`params`",
            law Stiffness or params.stiffness, tune Stiffness "stiffness";
    /// Near-pressure stiffness k_near of this material (`None`: `SimParams::near_stiffness`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    near_stiffness: Option<f32> = None,
        MATERIAL_NEAR_STIFFNESS = "materials[i].near_stiffness", Range(N(0.0), N(10.0)),
            "`params`", law Stiffness or params.near_stiffness, tune NearStiffness "near stiffness";
    /// Surface tension σs between particles of this material (`None`:
    /// `SimParams::surface_tension`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    surface_tension: Option<f32> = None,
        MATERIAL_SURFACE_TENSION = "materials[i].surface_tension",
            Range(N(0.0), TimesDtSquared(30.0)), "`params`",
            law Substeps or params.surface_tension, tune SurfaceTension "surface tension";
    /// Linear viscosity σ (`None`: `SimParams::linear_viscosity`); a pair of two materials uses
    /// the mean of their coefficients.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    linear_viscosity: Option<f32> = None,
        MATERIAL_LINEAR_VISCOSITY = "materials[i].linear_viscosity", Range(N(0.0), N(100.0)),
            "`params`", law LinearViscosity or params.linear_viscosity,
            tune LinearViscosity "linear viscosity";
    /// Quadratic viscosity β (`None`: `SimParams::quadratic_viscosity`); pairs use the mean.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    quadratic_viscosity: Option<f32> = None,
        MATERIAL_QUADRATIC_VISCOSITY = "materials[i].quadratic_viscosity", Range(N(0.0), N(100.0)),
            "`params`", law QuadraticViscosity or params.quadratic_viscosity,
            tune QuadraticViscosity "quadratic viscosity";
    /// Spring stiffness k_spring of the viscoelastic springs between particles of this material
    /// (Clavet et al. 2005, section 5); 0 means no springs, and then the material costs nothing.
    #[serde(default)]
    spring_stiffness: f32 = 0.0,
        SPRING_STIFFNESS = "materials[i].spring_stiffness", Range(N(0.0), PerDtSquared(0.05)),
            "0: no springs", law Springs, tune SpringStiffness "spring stiffness";
    /// Yield ratio γ: a spring's rest length L only changes while the pair is stretched or
    /// compressed by more than γ L.
    #[serde(default = "defaults::yield_ratio")]
    yield_ratio: f32 = 0.1,
        YIELD_RATIO = "materials[i].yield_ratio", Range(N(0.0), N(1.0)), "0.1", law Same;
    /// Plasticity α: how fast rest lengths follow the deformation beyond the yield (0: a purely
    /// elastic jelly that returns to its shape; larger: a goo that flows and keeps new shapes).
    #[serde(default)]
    plasticity: f32 = 0.0,
        PLASTICITY = "materials[i].plasticity" in "per second", Range(N(0.0), N(100.0)),
            "0: elastic", law Same;
    /// Springs form between particles closer than this fraction of h.
    #[serde(default = "defaults::one")]
    spring_radius: f32 = 1.0,
        SPRING_RADIUS = "materials[i].spring_radius" in "h", Above(N(0.0), N(1.0)), "1", law Same;
    /// Stickiness k_stick: pull toward walls and obstacles within `stick_distance` (Clavet et
    /// al. 2005, section 6.2); 0 means not sticky.
    #[serde(default)]
    stickiness: f32 = 0.0,
        STICKINESS = "materials[i].stickiness", Range(N(0.0), N(1.0e4)), "0: not sticky",
            law Springs, tune Stickiness "stickiness";
    /// Reach of the stickiness, as a fraction of h, measured from the particle's centre to the
    /// surface (a particle resting on a surface is one particle radius from it).
    #[serde(default = "defaults::half")]
    stick_distance: f32 = 0.5,
        STICK_DISTANCE = "materials[i].stick_distance" in "h, from the particle centre",
            Above(N(0.0), N(1.0)), "0.5", law Same;
    /// Temperature in degrees above the ambient air (0): the temperature its particles start at
    /// (conducted from there in scenes with heat, `conductivity`). A hot liquid heats the air
    /// beside it, which rises (only in scenes with air).
    #[serde(default)]
    temperature: f32 = 0.0,
        TEMPERATURE = "materials[i].temperature" in "°C (the air starts at 0)",
            Range(N(-1000.0), N(1000.0)), "0", law Same,
            tune Temperature "temperature of new particles (°C)";
    /// Thermal diffusivity α in m²/s: how fast heat spreads through it (`sim::subsystems::heat`). 0
    /// (the default): it does not conduct; 0.5 evens out a metre in a second or two. A scene
    /// conducts heat when any material has some.
    #[serde(default)]
    conductivity: f32 = 0.0,
        CONDUCTIVITY = "materials[i].conductivity" in "m²/s (thermal diffusivity)",
            Range(N(0.0), N(10.0)), "0: does not conduct", law Same,
            tune Conductivity "conductivity (m²/s)";
    /// Heat capacity per unit mass, relative to water (1): the heat a particle holds is
    /// mass × heat capacity × temperature.
    #[serde(default = "defaults::one")]
    heat_capacity: f32 = 1.0,
        HEAT_CAPACITY = "materials[i].heat_capacity" in "relative to water",
            Above(N(0.0), N(100.0)), "1", law Same;
    /// Smoke (steam, fumes) given off into the air at the liquid's surface, per metre of surface
    /// per second (0). Only in scenes with air.
    #[serde(default)]
    smoke: f32 = 0.0,
        SMOKE = "materials[i].smoke" in "per metre of surface per second", Range(N(0.0), N(1.0e4)),
            "0", law Same;
    /// The material it becomes when it melts (ice into water, rock into lava), by name: heated
    /// to `melting_point`, a particle takes up `melting_heat` and then turns into it; that
    /// material cooled below the same point gives the heat back and turns into this one
    /// (`sim::subsystems::heat`). `None` (the default): it neither melts nor is frozen out of
    /// anything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    melts_into: Option<String> = None,
        MELTS_INTO = "materials[i].melts_into",
            Rule("a name from `materials`, another than its own; at most one material melts into \
            each"), "none: does not melt", law Same;
    /// The temperature in °C at which it melts into `melts_into` (and that freezes back).
    #[serde(default)]
    melting_point: f32 = 0.0,
        MELTING_POINT = "materials[i].melting_point" in "°C", Range(N(-1000.0), N(1000.0)), "0",
            law Same, tune MeltingPoint "melting point (°C)";
    /// The latent heat of melting, per unit mass, in degrees of water: the heat that would warm
    /// the same mass of water by that many degrees (ice: 80).
    #[serde(default)]
    melting_heat: f32 = 0.0,
        MELTING_HEAT = "materials[i].melting_heat" in "degrees of water",
            Range(N(0.0), N(10000.0)), "0", law Same;
    /// The temperature in °C at which it boils: past it a particle takes up `boiling_heat`, and
    /// a particle at the surface that holds all of it leaves the liquid as vapour on the air
    /// grid, which condenses back into drops of this material where the air is cooler
    /// (`sim::subsystems::air`). `None` (the default): it never boils. Needs `[air]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    boiling_point: Option<f32> = None,
        BOILING_POINT = "materials[i].boiling_point" in "°C, at most one material per scene, with `[air]`",
            Range(N(-1000.0), N(1000.0)), "none: never boils", law Same,
            tune BoilingPoint "boiling point (°C)";
    /// The latent heat of boiling, per unit mass, in degrees of water (water: 540).
    #[serde(default)]
    boiling_heat: f32 = 0.0,
        BOILING_HEAT = "materials[i].boiling_heat" in "degrees of water",
            Range(N(0.0), N(10000.0)), "0", law Same;
    /// The temperature in °C past which it burns where it touches the air: a particle at the
    /// surface hotter than this loses its mass at `burn_rate`, takes up the heat of what burned
    /// (`heat_of_combustion`), and the burned mass goes up as hot smoke on the air grid
    /// (`sim::subsystems::heat`'s combustion). `None` (the default): it never burns. Needs `[air]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ignition_temperature: Option<f32> = None,
        IGNITION_TEMPERATURE = "materials[i].ignition_temperature" in "°C, with `[air]`",
            Range(N(-1000.0), N(1000.0)), "none: never burns", law Same;
    /// The heat that burning releases, per unit mass burned, in degrees of water (like the
    /// latent heats: the heat that would warm the same mass of water by that many degrees).
    #[serde(default)]
    heat_of_combustion: f32 = 0.0,
        HEAT_OF_COMBUSTION = "materials[i].heat_of_combustion" in "degrees of water",
            Range(N(0.0), N(10000.0)), "0", law Same;
    /// How fast a burning particle's mass burns away at the surface, as a fraction of its mass
    /// per second (the last hundredth of it burns at once, and the particle goes).
    #[serde(default = "defaults::half")]
    burn_rate: f32 = 0.5,
        BURN_RATE = "materials[i].burn_rate" in "of its mass per second",
            Above(N(0.0), N(100.0)), "0.5", law Same;
    /// How it looks in the window (`Style`): `clear` water, `sheen` for oil and syrup,
    /// `opaque` slime, `translucent` ice and jelly, `matte` rock, `emissive` lava, `grain` sand.
    #[serde(default, skip_serializing_if = "is_clear")]
    style: Style = Style::Clear,
        STYLE = "materials[i].style",
            Rule("`clear`, `sheen`, `opaque`, `translucent`, `matte`, `emissive` or `grain`"),
            "`clear`",
            law Same;
    /// Its particles hold still where they are (a solid formed in place: rock); the liquid
    /// rests on them and flows around them.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    fixed: bool = false,
        FIXED = "materials[i].fixed", Rule("true or false"), "false", law Same;
    /// The angle of repose in degrees: above 0 its particles are grains of sand, held by
    /// Coulomb friction to the walls (μ = tan(angle)) and to each other (μ = tan(angle + 4°))
    /// (`sim::subsystems::granular`), with no cohesion (its pressure never pulls, and it has no
    /// surface tension); a pile of it stands at this angle. 0 (the default): a liquid.
    #[serde(default)]
    friction_angle: f32 = 0.0,
        FRICTION_ANGLE = "materials[i].friction_angle" in "degrees",
            Range(N(0.0), N(60.0)), "0: a liquid", law Same;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A preset's material that gives only what it must takes the same values as
    /// `Material::default()`: the serde defaults of the rows and their defaults agree.
    #[test]
    fn a_file_material_takes_the_tables_defaults() {
        let text = "name = \"plain\"\ncolour = [0.5, 0.5, 0.5]\nmass = 1.0\n";
        let read: Material = toml::from_str(text).expect("a minimal material parses");
        let expected = Material {
            name: "plain".into(),
            ..Material::default()
        };
        assert_eq!(read, expected);
    }

    /// Every tunable reads and writes its own field, and only overrides and values a material
    /// has are set.
    #[test]
    fn each_tunable_moves_its_own_field() {
        let params = SimParams::default();
        let boiling = Material {
            boiling_point: Some(100.0),
            ..Material::default()
        };
        for &tunable in Tunable::ALL {
            let mut material = boiling.clone();
            tunable.set(&mut material, 3.5);
            assert_eq!(tunable.get(&material, &params), 3.5, "{}", tunable.name());
            let changed: Vec<&str> = MATERIAL_FIELDS
                .iter()
                .filter(|row| (row.value)(&material) != (row.value)(&boiling))
                .map(|row| row.name)
                .collect();
            assert_eq!(changed, [tunable.name()]);
        }
        let mut dry = Material::default();
        Tunable::BoilingPoint.set(&mut dry, 50.0);
        assert_eq!(
            dry.boiling_point, None,
            "a material that never boils keeps never boiling"
        );
    }

    /// The laws are the resolution's: at twice the radius a mass is 4 times, a stiffness 8
    /// times, a linear viscosity an eighth, springs a quarter.
    #[test]
    fn laws_scale_as_the_resolution_says() {
        assert_eq!(Law::Mass.length_factor(2.0), 4.0);
        assert_eq!(Law::Stiffness.length_factor(2.0), 8.0);
        assert_eq!(Law::LinearViscosity.length_factor(2.0), 0.125);
        assert_eq!(Law::Springs.length_factor(2.0), 0.25);
        assert_eq!(Law::Substeps.length_factor(2.0), 1.0);
        assert_eq!(Tunable::SurfaceTension.factor(2.0, 0.5), 0.25);
    }
}
