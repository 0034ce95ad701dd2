//! Levels: a scene with a job to do.
//!
//! A level is a preset file with two more sections: `[level]` (its title, what it teaches, its
//! rules and the par for the stars) and `[[goals]]` (what the liquid, a body or the clock must
//! do). [`Attempt`] plays the rules and judges the goals every frame, without a window, so a
//! level is tested headless like any scene:
//!
//! ```
//! use slosh::level::Attempt;
//! use slosh::preset::Preset;
//!
//! let preset = Preset::load("first-pour")?;
//! let level = preset.level.clone().expect("a level");
//! let mut world = preset.build_world(1);
//! let mut attempt = Attempt::new(level, &world).expect("its names are the scene's");
//! for _ in 0..20 {
//!     world.step_frame();
//!     attempt.observe(&world);
//! }
//! // Nobody poured: the cup is still empty.
//! assert!(!attempt.report().met);
//! # Ok::<(), slosh::preset::PresetError>(())
//! ```
//!
//! # The file's sections
//!
//! ```toml
//! [level]
//! title = "First pour"
//! teaches = "pouring: hold the left button with the pour tool (P)"
//! hint = "Fill the cup to its line"
//! time_limit = 60.0          # seconds; the level is lost when they run out
//! tools = ["pour"]           # what the player may use (default: everything)
//! combine = "all"            # every goal met ("all", the default), or one ("any")
//! budget = { pour = 1.2 }    # most liquid poured or erased (m² at rest) and wall drawn (m)
//! par_seconds = 25.0         # two stars within this time
//! par_budget = 0.8           # three stars also within this share of each budget
//!
//! [[goals]]
//! kind = "fill"              # this material fills a share of the zone
//! material = "water"
//! zone = [5.0, 0.5, 7.0, 2.0]  # left, bottom, right, top
//! fraction = 0.8
//! ```
//!
//! The kinds of goal:
//!
//! | kind | fields | met when |
//! |---|---|---|
//! | `fill` | material, zone, fraction | that much of the zone is the material (at rest packing) |
//! | `keep_out` | material, zone, most (default 0.02) | never broken: the level is lost once more than `most` of the zone is the material |
//! | `body` | body, zone | the body's centre of mass is in the zone |
//! | `temperature` | material, `above` or `below` (°C), fraction (default 0.9), zone (optional) | that share of the material (in the zone) is over or under the temperature |
//! | `turn` | body (hinged), turns | the body has turned that many times, either way |
//! | `survive` | seconds | the level has lasted that long |
//!
//! A level is lost when its time runs out first, or when a `keep_out` zone is broken. One star
//! for meeting the goals, two within `par_seconds`, three also within `par_budget` of each
//! budget given.

mod attempt;
mod check;

pub use attempt::{Attempt, Outcome, Report};
pub use check::check;

use crate::replay::Input;
use crate::sim::portable::Ordered;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// The embedded levels, in the order they are played (each unlocks the next): (name, file text).
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "first-pour",
        include_str!("../../assets/levels/first-pour.toml"),
    ),
    ("wake-up", include_str!("../../assets/levels/wake-up.toml")),
    (
        "dry-village",
        include_str!("../../assets/levels/dry-village.toml"),
    ),
    ("tip-it", include_str!("../../assets/levels/tip-it.toml")),
    (
        "crate-lift",
        include_str!("../../assets/levels/crate-lift.toml"),
    ),
    (
        "mill-race",
        include_str!("../../assets/levels/mill-race.toml"),
    ),
    (
        "rain-barrel",
        include_str!("../../assets/levels/rain-barrel.toml"),
    ),
    ("thaw", include_str!("../../assets/levels/thaw.toml")),
];

/// A level: its rules and its goals, as the preset file gives them (checked by [`check`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    /// `[level]`.
    pub rules: Rules,
    /// `[[goals]]`.
    pub goals: Vec<Goal>,
}

/// `[level]`: what a level is called, what it teaches, and its rules and par.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// Its name in the menu.
    pub title: String,
    /// The tool or idea it teaches, one line.
    pub teaches: String,
    /// What to do, shown as it starts.
    pub hint: String,
    /// Seconds of simulated time to meet the goals in.
    pub time_limit: f32,
    /// The tools the player may use.
    #[serde(default = "Tool::every")]
    pub tools: Vec<Tool>,
    /// Whether every goal must be met, or one.
    #[serde(default)]
    pub combine: Combine,
    /// How much the tools that make or remove things may do.
    #[serde(default, skip_serializing_if = "Budget::is_unlimited")]
    pub budget: Budget,
    /// Seconds within which meeting the goals earns two stars.
    pub par_seconds: f32,
    /// The share of each budget within which (and within `par_seconds`) the goals earn three.
    #[serde(default = "whole")]
    pub par_budget: f32,
}

fn whole() -> f32 {
    1.0
}

/// A player's tool, as a level allows it.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Tool {
    /// Drag to push the liquid (the stir tool).
    Stir,
    /// Pull the liquid toward the cursor (the right button).
    Pull,
    /// Pour liquid.
    Pour,
    /// Erase liquid.
    Erase,
    /// Heat under the ring.
    Heat,
    /// Cool under the ring.
    Cool,
    /// Draw and remove walls.
    Draw,
    /// Grab and throw bodies.
    Grab,
    /// Turn gravity (tilt the box).
    Tilt,
    /// Tune the materials in the panel.
    Tune,
}

impl Tool {
    /// Every tool, the default of `tools`.
    pub fn every() -> Vec<Tool> {
        use Tool::*;
        vec![Stir, Pull, Pour, Erase, Heat, Cool, Draw, Grab, Tilt, Tune]
    }

    /// Its name, as the file writes it.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Stir => "stir",
            Tool::Pull => "pull",
            Tool::Pour => "pour",
            Tool::Erase => "erase",
            Tool::Heat => "heat",
            Tool::Cool => "cool",
            Tool::Draw => "draw",
            Tool::Grab => "grab",
            Tool::Tilt => "tilt",
            Tool::Tune => "tune",
        }
    }

    /// The tool an input comes from (`None` for a fresh world, which every level allows).
    pub fn of(input: &Input) -> Option<Tool> {
        Some(match input {
            Input::Preset { .. } => return None,
            Input::Stir(_) => Tool::Stir,
            Input::Pull { .. } => Tool::Pull,
            Input::Pour(_) => Tool::Pour,
            Input::Erase { .. } => Tool::Erase,
            Input::Heat { rate, .. } if *rate < 0.0 => Tool::Cool,
            Input::Heat { .. } => Tool::Heat,
            Input::Draw(_) | Input::Undraw(_) => Tool::Draw,
            Input::Gravity(_) => Tool::Tilt,
            Input::Grab(_) | Input::Drag(_) | Input::Release => Tool::Grab,
            Input::Tune { .. } => Tool::Tune,
        })
    }
}

/// How a level's goals combine.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Combine {
    /// Every goal must be met.
    #[default]
    All,
    /// One goal is enough.
    Any,
}

/// The most the tools that make or remove things may do in a level (none given: no limit).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Budget {
    /// Liquid the pour tool may add, in m² of liquid at rest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pour: Option<f32>,
    /// Wall the draw tool may lay, in metres along the walls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub walls: Option<f32>,
    /// Liquid the erase tool may remove, in m² of liquid at rest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub erase: Option<f32>,
}

impl Budget {
    /// True when no budget is given.
    pub fn is_unlimited(&self) -> bool {
        *self == Budget::default()
    }
}

/// A rectangle of the box, written `[left, bottom, right, top]`.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq)]
#[serde(from = "[f32; 4]", into = "[f32; 4]")]
pub struct Zone {
    /// Its lower left corner.
    pub min: Vec2,
    /// Its upper right corner.
    pub max: Vec2,
}

impl From<[f32; 4]> for Zone {
    fn from([left, bottom, right, top]: [f32; 4]) -> Self {
        Zone {
            min: Vec2::new(left, bottom),
            max: Vec2::new(right, top),
        }
    }
}

impl From<Zone> for [f32; 4] {
    fn from(zone: Zone) -> Self {
        [zone.min.x, zone.min.y, zone.max.x, zone.max.y]
    }
}

impl Zone {
    /// True when `point` lies in the zone (edges included).
    pub fn contains(&self, point: Vec2) -> bool {
        point.cmpge(self.min).all() && point.cmple(self.max).all()
    }

    /// Its area, in m².
    pub fn area(&self) -> f32 {
        (self.max - self.min).x * (self.max - self.min).y
    }

    /// How far `point` is from the zone (0 inside).
    pub fn distance(&self, point: Vec2) -> f32 {
        let nearest = Vec2::new(
            point.x.at_least(self.min.x).at_most(self.max.x),
            point.y.at_least(self.min.y).at_most(self.max.y),
        );
        (point - nearest).length()
    }
}

/// One goal of a level (`[[goals]]`, by its `kind`).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Goal {
    /// A material fills a share of a zone.
    Fill {
        /// The material's name.
        material: String,
        /// Where.
        zone: Zone,
        /// The share of the zone, at the liquid's resting packing.
        fraction: f32,
    },
    /// A material stays out of a zone: the level is lost once more than `most` of it is that
    /// material.
    KeepOut {
        /// The material's name.
        material: String,
        /// Where.
        zone: Zone,
        /// The share of the zone it may take without breaking the goal.
        #[serde(default = "a_splash")]
        most: f32,
    },
    /// A body's centre of mass is brought into a zone.
    Body {
        /// The body's name.
        body: String,
        /// Where.
        zone: Zone,
    },
    /// A share of a material is over or under a temperature.
    Temperature {
        /// The material's name.
        material: String,
        /// Only its particles in this zone count (none: all of them).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        zone: Option<Zone>,
        /// Warmer than this, in °C.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        above: Option<f32>,
        /// Colder than this, in °C.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        below: Option<f32>,
        /// The share of its particles that must be.
        #[serde(default = "most_of_it")]
        fraction: f32,
    },
    /// A hinged body turns a number of times, either way.
    Turn {
        /// The body's name.
        body: String,
        /// Whole turns (fractions allowed).
        turns: f32,
    },
    /// The level lasts a number of seconds.
    Survive {
        /// Seconds of simulated time.
        seconds: f32,
    },
}

fn a_splash() -> f32 {
    0.02
}

fn most_of_it() -> f32 {
    0.9
}

impl Goal {
    /// Its kind, as the file writes it.
    pub fn kind(&self) -> &'static str {
        match self {
            Goal::Fill { .. } => "fill",
            Goal::KeepOut { .. } => "keep_out",
            Goal::Body { .. } => "body",
            Goal::Temperature { .. } => "temperature",
            Goal::Turn { .. } => "turn",
            Goal::Survive { .. } => "survive",
        }
    }

    /// The zone it is about, if any (drawn in the window).
    pub fn zone(&self) -> Option<Zone> {
        match self {
            Goal::Fill { zone, .. } | Goal::KeepOut { zone, .. } | Goal::Body { zone, .. } => {
                Some(*zone)
            }
            Goal::Temperature { zone, .. } => *zone,
            Goal::Turn { .. } | Goal::Survive { .. } => None,
        }
    }

    /// A few words saying what it asks, for the HUD.
    pub fn describe(&self) -> String {
        match self {
            Goal::Fill {
                material, fraction, ..
            } => format!("fill the zone {:.0}% with {material}", 100.0 * fraction),
            Goal::KeepOut { material, .. } => format!("keep the {material} out"),
            Goal::Body { body, .. } => format!("bring the {body} into the zone"),
            Goal::Temperature {
                material,
                above,
                below,
                fraction,
                ..
            } => match (above, below) {
                (Some(above), _) => {
                    format!(
                        "{:.0}% of the {material} above {above} °C",
                        100.0 * fraction
                    )
                }
                (_, Some(below)) => {
                    format!(
                        "{:.0}% of the {material} below {below} °C",
                        100.0 * fraction
                    )
                }
                _ => format!("the {material}'s temperature"),
            },
            Goal::Turn { body, turns } => format!("turn the {body} {turns} times"),
            Goal::Survive { seconds } => format!("hold out {seconds} s"),
        }
    }
}
