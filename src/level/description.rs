//! What a level is made of, as its preset file gives it: `[level]` (`Rules`, with its `Tool`s,
//! `Combine` and `Budget`) and `[[goals]]` (`Goal`, with its `Zone`s).

use crate::sim::numerics::portable::Ordered;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// A level: its rules and its goals, as the preset file gives them (checked by [`super::check`]).
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

/// A player's tool: what a level's `tools` allow, and what the window holds. The left button
/// holds the window's `TOOLS`; `Pull`, `Tilt` and `Tune` have buttons and keys of their own.
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
