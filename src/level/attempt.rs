//! One go at a level: its rules applied to every input, its goals judged after every frame.

use super::description::{Combine, Goal, Level, Tool, Zone};
use super::error::LevelError;
use crate::input::Input;
use crate::sim::numerics::portable::Ordered;
use crate::sim::physics::rest_particles_per_area;
use crate::sim::{EditError, Shape, World};
use serde::Serialize;

/// How a go at a level ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The goals were met, after `seconds`, earning `stars` (1 to 3).
    Won {
        /// Seconds of simulated time it took.
        seconds: f64,
        /// One for the goals, two within the par time, three also within the par budget.
        stars: u8,
    },
    /// The level was lost, for this reason (time ran out, or a zone was broken into).
    Lost(String),
}

/// Where a go stands, as the headless report's `goal` gives it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// The goals are met.
    pub met: bool,
    /// How far along, from 0 to 1 (1 once met).
    pub progress: f32,
    /// Stars earned (0 unless met).
    pub stars: u8,
    /// Seconds played: when the goals were met, or until now.
    pub seconds: f64,
}

/// A goal with its names resolved to the world's indices, and what it keeps between frames.
#[derive(Clone, Debug)]
enum Judged {
    Fill {
        material: u16,
        zone: Zone,
        wanted: f32,
    },
    KeepOut {
        material: u16,
        zone: Zone,
        most: f32,
    },
    Body {
        body: usize,
        zone: Zone,
        /// How far its centre of mass started from the zone.
        start: f32,
    },
    Temperature {
        material: u16,
        zone: Option<Zone>,
        above: Option<f32>,
        below: Option<f32>,
        fraction: f32,
    },
    Turn {
        body: usize,
        turns: f32,
        /// Its angle at the last frame, and the turn so far (radians, signed).
        last_angle: f32,
        turned: f32,
    },
    Survive {
        seconds: f32,
    },
}

/// What the tools have spent of the level's budget.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spent {
    /// Liquid poured, m² at rest.
    pub pour: f32,
    /// Wall drawn, m.
    pub walls: f32,
    /// Liquid erased, m² at rest.
    pub erase: f32,
}

/// One go at a level in one world: admits inputs by the rules, counts what they spend, and
/// judges the goals after each frame (`observe`). Deterministic: it reads the world's state.
#[derive(Clone, Debug)]
pub struct Attempt {
    level: Level,
    judged: Vec<Judged>,
    /// Progress of each goal, from 0 to 1.
    progress: Vec<f32>,
    spent: Spent,
    /// Particles in a m² of liquid at rest.
    per_area: f32,
    /// The world's time when the go started.
    start: f64,
    seconds: f64,
    outcome: Option<Outcome>,
}

impl Attempt {
    /// A go at `level` in `world` (fresh from the level's preset). Fails when a goal names a
    /// material or body the world does not have.
    pub fn new(level: Level, world: &World) -> Result<Self, LevelError> {
        let material = |name: &str| {
            world
                .materials()
                .iter()
                .position(|m| m.name == name)
                .map(|index| index as u16)
                .ok_or_else(|| LevelError::NoMaterial(name.to_string()))
        };
        let body = |name: &str| {
            (world.body_specs().iter())
                .position(|b| b.name == name)
                .ok_or_else(|| LevelError::NoBody(name.to_string()))
        };
        let params = world.params();
        let per_area = rest_particles_per_area(params.interaction_radius, params.rest_density);
        let mut judged = Vec::new();
        for goal in &level.goals {
            judged.push(match goal {
                Goal::Fill {
                    material: name,
                    zone,
                    fraction,
                } => Judged::Fill {
                    material: material(name)?,
                    zone: *zone,
                    wanted: fraction * zone.area() * per_area,
                },
                Goal::KeepOut {
                    material: name,
                    zone,
                    most,
                } => Judged::KeepOut {
                    material: material(name)?,
                    zone: *zone,
                    most: most * zone.area() * per_area,
                },
                Goal::Body { body: name, zone } => {
                    let index = body(name)?;
                    let at = world.body_state(index).map(|b| b.centre_of_mass);
                    Judged::Body {
                        body: index,
                        zone: *zone,
                        start: at.map_or(1.0, |at| zone.distance(at)).at_least(1e-3),
                    }
                }
                Goal::Temperature {
                    material: name,
                    zone,
                    above,
                    below,
                    fraction,
                } => Judged::Temperature {
                    material: material(name)?,
                    zone: *zone,
                    above: *above,
                    below: *below,
                    fraction: *fraction,
                },
                Goal::Turn { body: name, turns } => {
                    let index = body(name)?;
                    Judged::Turn {
                        body: index,
                        turns: *turns,
                        last_angle: world.body_state(index).map_or(0.0, |b| b.angle),
                        turned: 0.0,
                    }
                }
                Goal::Survive { seconds } => Judged::Survive { seconds: *seconds },
            });
        }
        let progress = vec![0.0; judged.len()];
        let mut attempt = Self {
            level,
            judged,
            progress,
            spent: Spent::default(),
            per_area,
            start: world.time(),
            seconds: 0.0,
            outcome: None,
        };
        attempt.judge(world);
        Ok(attempt)
    }

    /// The level played.
    pub fn level(&self) -> &Level {
        &self.level
    }

    /// Whether the rules let `input` through: its tool is one the level allows, and what it
    /// makes or removes has budget left. The refusal says why, in a few words.
    pub fn admits(&self, input: &Input) -> Result<(), LevelError> {
        let Some(tool) = tool_of(input) else {
            return Ok(());
        };
        if !self.level.rules.tools.contains(&tool) {
            return Err(LevelError::NotATool(tool.name()));
        }
        let budget = self.level.rules.budget;
        let left = |most: Option<f32>, spent: f32| most.is_none_or(|most| spent < most);
        let spent = self.spent;
        let within = match input {
            Input::Pour { .. } => left(budget.pour, spent.pour),
            Input::Erase { .. } => left(budget.erase, spent.erase),
            Input::Draw(obstacle) => budget
                .walls
                .is_none_or(|most| spent.walls + wall_length(&obstacle.shape) <= most),
            _ => true,
        };
        if within {
            Ok(())
        } else {
            Err(LevelError::BudgetSpent(tool.name()))
        }
    }

    /// Counts what `input`, just applied, spent: `particles_before` is how many particles the
    /// world held before it.
    pub fn spend(&mut self, input: &Input, particles_before: usize, world: &World) {
        let now = world.particles().len();
        match input {
            Input::Pour { .. } => {
                self.spent.pour += now.saturating_sub(particles_before) as f32 / self.per_area
            }
            Input::Erase { .. } => {
                self.spent.erase += particles_before.saturating_sub(now) as f32 / self.per_area
            }
            Input::Draw(obstacle) => self.spent.walls += wall_length(&obstacle.shape),
            _ => {}
        }
    }

    /// What the tools have spent so far.
    pub fn spent(&self) -> Spent {
        self.spent
    }

    /// What is left of each budget the level gives, as a share from 0 to 1 (pour, walls,
    /// erase; `None` where the level gives none).
    pub fn budget_left(&self) -> [Option<f32>; 3] {
        let budget = self.level.rules.budget;
        let left =
            |most: Option<f32>, spent: f32| most.map(|most| (1.0 - spent / most).at_least(0.0));
        [
            left(budget.pour, self.spent.pour),
            left(budget.walls, self.spent.walls),
            left(budget.erase, self.spent.erase),
        ]
    }

    /// Judges the goals in `world` after a frame. Once the go is won or lost it stays so.
    pub fn observe(&mut self, world: &World) {
        if self.outcome.is_some() {
            return;
        }
        self.seconds = world.time() - self.start;
        let broken = self.judge(world);
        let met = {
            let mut reached = self.to_reach().map(|progress| progress >= 1.0);
            match self.level.rules.combine {
                Combine::All => reached.all(|done| done),
                Combine::Any => reached.any(|done| done),
            }
        };
        if let Some(zone) = broken {
            self.outcome = Some(Outcome::Lost(zone));
        } else if met {
            self.outcome = Some(Outcome::Won {
                seconds: self.seconds,
                stars: self.stars(),
            });
        } else if self.seconds >= self.level.rules.time_limit as f64 - 1e-6 {
            self.outcome = Some(Outcome::Lost("time is up".into()));
        }
    }

    /// How the go ended, once it has.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Each goal's progress, from 0 to 1, in the file's order.
    pub fn goal_progress(&self) -> &[f32] {
        &self.progress
    }

    /// Seconds left before time is up.
    pub fn seconds_left(&self) -> f64 {
        (self.level.rules.time_limit as f64 - self.seconds).at_least(0.0)
    }

    /// Where the go stands.
    pub fn report(&self) -> Report {
        let counted: Vec<f32> = self.to_reach().collect();
        let progress = match self.level.rules.combine {
            Combine::All => counted.iter().sum::<f32>() / counted.len().max(1) as f32,
            Combine::Any => counted.iter().copied().fold(0.0, |a, b| a.at_least(b)),
        };
        match self.outcome {
            Some(Outcome::Won { seconds, stars }) => Report {
                met: true,
                progress: 1.0,
                stars,
                seconds,
            },
            _ => Report {
                met: false,
                progress: progress.at_most(0.999),
                stars: 0,
                seconds: self.seconds,
            },
        }
    }

    /// The progress of each goal to reach (every goal but `keep_out`, which is only broken or
    /// not).
    fn to_reach(&self) -> impl Iterator<Item = f32> + '_ {
        (self.judged.iter().zip(&self.progress))
            .filter(|(goal, _)| !matches!(goal, Judged::KeepOut { .. }))
            .map(|(_, &progress)| progress)
    }

    /// Applies `input` to `world` under the rules of `attempt` (none: no level): refused when
    /// the level does not allow it, and what it spends counted. The one way an input reaches a
    /// level's world, live or replayed.
    pub fn apply(
        attempt: Option<&mut Attempt>,
        input: &Input,
        world: &mut World,
    ) -> Result<(), EditError> {
        let Some(attempt) = attempt else {
            return input.apply(world);
        };
        (attempt.admits(input)).map_err(|refused| EditError::Refused(refused.to_string()))?;
        if let Input::Pour { material, .. } = input {
            if material.in_world(world).is_none() {
                return Err(EditError::Refused(
                    "a level pours only its own materials".into(),
                ));
            }
        }
        if let Input::Body { .. } = input {
            return Err(EditError::Refused("a level places no bodies".into()));
        }
        let before = world.particles().len();
        input.apply(world)?;
        attempt.spend(input, before, world);
        Ok(())
    }

    /// Stars for goals met now: one, two within the par time, three also within the par budget.
    fn stars(&self) -> u8 {
        let rules = &self.level.rules;
        if self.seconds > rules.par_seconds as f64 + 1e-6 {
            return 1;
        }
        let within = |most: Option<f32>, spent: f32| {
            most.is_none_or(|most| spent <= rules.par_budget * most + 1e-6)
        };
        let budget = rules.budget;
        if within(budget.pour, self.spent.pour)
            && within(budget.walls, self.spent.walls)
            && within(budget.erase, self.spent.erase)
        {
            3
        } else {
            2
        }
    }

    /// Updates every goal's progress; the broken `keep_out` goal's words, if one is.
    fn judge(&mut self, world: &World) -> Option<String> {
        let particles = world.particles();
        let count_in = |material: u16, zone: &Zone| {
            particles
                .material
                .iter()
                .zip(&particles.position)
                .filter(|(&m, &p)| m == material && zone.contains(p))
                .count() as f32
        };
        let mut broken = None;
        for (index, goal) in self.judged.iter_mut().enumerate() {
            self.progress[index] = match goal {
                Judged::Fill {
                    material,
                    zone,
                    wanted,
                } => (count_in(*material, zone) / *wanted).at_most(1.0),
                Judged::KeepOut {
                    material,
                    zone,
                    most,
                } => {
                    if count_in(*material, zone) > *most {
                        let name = &world.materials()[*material as usize].name;
                        broken = Some(format!("the {name} got into the zone"));
                        0.0
                    } else {
                        1.0
                    }
                }
                Judged::Body { body, zone, start } => {
                    let at = (world.body_state(*body)).map_or(zone.min, |b| b.centre_of_mass);
                    if zone.contains(at) {
                        1.0
                    } else {
                        (1.0 - zone.distance(at) / *start).clamp(0.0, 0.99)
                    }
                }
                Judged::Temperature {
                    material,
                    zone,
                    above,
                    below,
                    fraction,
                } => {
                    let (mut all, mut there) = (0usize, 0usize);
                    for ((&m, &p), &t) in particles
                        .material
                        .iter()
                        .zip(&particles.position)
                        .zip(&particles.temperature)
                    {
                        if m != *material || zone.is_some_and(|zone| !zone.contains(p)) {
                            continue;
                        }
                        all += 1;
                        let warm = above.is_some_and(|above| t > above);
                        let cold = below.is_some_and(|below| t < below);
                        there += usize::from(warm || cold);
                    }
                    if all == 0 {
                        0.0
                    } else {
                        (there as f32 / all as f32 / *fraction).at_most(1.0)
                    }
                }
                Judged::Turn {
                    body,
                    turns,
                    last_angle,
                    turned,
                } => {
                    let angle = world.body_state(*body).map_or(0.0, |b| b.angle);
                    // The angle wraps at ±π; a frame turns a wheel far less than half a turn.
                    let step = (angle - *last_angle + std::f32::consts::PI)
                        .rem_euclid(std::f32::consts::TAU)
                        - std::f32::consts::PI;
                    *turned += step;
                    *last_angle = angle;
                    (turned.abs() / (std::f32::consts::TAU * *turns)).at_most(1.0)
                }
                Judged::Survive { seconds } => (self.seconds / *seconds as f64).at_most(1.0) as f32,
            };
        }
        broken
    }
}

/// The tool an input comes from (`None` for a fresh world, which every level allows).
pub fn tool_of(input: &Input) -> Option<Tool> {
    Some(match input {
        Input::Preset { .. } | Input::Undo | Input::Redo | Input::Cap(_) => return None,
        Input::Tag { .. } => return None,
        Input::Stir(_) | Input::Push { .. } => Tool::Stir,
        Input::Pull { .. } => Tool::Pull,
        Input::Pour { .. } | Input::Body { .. } => Tool::Pour,
        Input::Erase { .. } => Tool::Erase,
        Input::Heat { rate, .. } if *rate < 0.0 => Tool::Cool,
        Input::Heat { .. } => Tool::Heat,
        Input::Draw(_) | Input::Undraw(_) => Tool::Draw,
        Input::Gravity(_) => Tool::Tilt,
        Input::Grab(_) | Input::Drag(_) | Input::Release => Tool::Grab,
        Input::Tune { .. } => Tool::Tune,
    })
}

/// How much of a wall budget an obstacle takes: a capsule's length, a circle's width.
fn wall_length(shape: &Shape) -> f32 {
    match *shape {
        Shape::Capsule { a, b, .. } => (b - a).length(),
        Shape::Circle { radius, .. } => 2.0 * radius,
    }
}
