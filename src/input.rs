//! What a player does to a world: each edit call the window, levels and replays make, as a value
//! and as the one line of text a replay writes for it (the verbs are listed in the module
//! documentation of `replay`).

use crate::sim::{EditError, Obstacle, Part, Pour, Push, Shape, Stir, Tunable, World};
use glam::Vec2;
use std::fmt::Write as _;

/// One input that reaches the simulation.
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    /// A fresh world from a preset: `source` is a name or a `.toml` path, `particles` the count
    /// it was rescaled to (`None`: its own), `checksum` the new world's (checked on replay).
    Preset {
        /// Preset name or file.
        source: String,
        /// `--particles` count, if rescaled.
        particles: Option<usize>,
        /// Checksum of the world just built.
        checksum: u64,
    },
    /// The mouse stirs.
    Stir(Stir),
    /// The mouse pulls.
    Pull {
        /// Where to.
        centre: Vec2,
        /// Reach.
        radius: f32,
        /// Speed at the rim.
        speed: f32,
    },
    /// Liquid poured from a disc (`World::pour`).
    Pour {
        /// What is poured: a material the world lacks joins it first, when the library has it
        /// (`replay::History::apply`).
        material: MaterialRef,
        /// Centre of the disc.
        centre: Vec2,
        /// Its radius.
        radius: f32,
        /// Velocity of the new particles.
        velocity: Vec2,
    },
    /// A rigid body of the library placed, at rest (`World::add_body`, through
    /// `replay::History::apply`, which takes it from the library).
    Body {
        /// The library body's name (`crate`, `ball`, `log`, `duck`).
        name: String,
        /// Where its origin goes.
        position: Vec2,
    },
    /// The most particles the world may hold, lowered by the window's automatic resolution
    /// when the world's frames came to cost more than it affords (`World::set_particle_cap`).
    Cap(usize),
    /// Particles erased in a disc.
    Erase {
        /// Centre of the disc.
        centre: Vec2,
        /// Its radius.
        radius: f32,
    },
    /// The particles in a disc heated or cooled for one frame.
    Heat {
        /// Centre of the disc.
        centre: Vec2,
        /// Its radius.
        radius: f32,
        /// Degrees per second: positive heats, negative cools.
        rate: f32,
    },
    /// Each particle in a disc given an impulse by the game (`World::push`).
    Push {
        /// Centre of the disc.
        centre: Vec2,
        /// Its radius.
        radius: f32,
        /// The impulse each particle takes.
        impulse: Vec2,
    },
    /// Each particle in a disc given a tag of the game's own (`World::tag`).
    Tag {
        /// Centre of the disc.
        centre: Vec2,
        /// Its radius.
        radius: f32,
        /// The tag.
        tag: u32,
    },
    /// An obstacle drawn.
    Draw(Obstacle),
    /// Obstacle `index` removed.
    Undraw(usize),
    /// Gravity set.
    Gravity(Vec2),
    /// The grab tool takes hold of the body under a point.
    Grab(Vec2),
    /// The held body is pulled toward a point.
    Drag(Vec2),
    /// The held body is let go.
    Release,
    /// The last edit undone: the world as it was before it (`History`).
    Undo,
    /// The last edit undone done again (`History`).
    Redo,
    /// A material constant tuned.
    Tune {
        /// Material index.
        material: usize,
        /// Which constant.
        field: Tunable,
        /// Its new value, in the world's units.
        value: f32,
    },
}

/// Why the words of a replay line are not an input (`Input::parse`): what is wrong, in one line
/// (the replay reader adds the file and the line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for InputError {}

impl From<String> for InputError {
    fn from(message: String) -> Self {
        Self { message }
    }
}

impl From<&str> for InputError {
    fn from(message: &str) -> Self {
        message.to_string().into()
    }
}

/// The material an input pours: by name (`pour lava …`, as the window records it), or by its
/// index among the world's materials (`pour 0 …`, as older replays do).
#[derive(Clone, Debug, PartialEq)]
pub enum MaterialRef {
    /// The material of this name: the world's, or the library's, which then joins the world
    /// (`preset::library::arrival`, by `replay::History::apply`).
    Name(String),
    /// The world's material of this index.
    Index(usize),
}

impl MaterialRef {
    /// The index of the world's material this names, when the world has it.
    pub fn in_world(&self, world: &World) -> Option<usize> {
        match self {
            Self::Index(index) => (*index < world.materials().len()).then_some(*index),
            Self::Name(name) => world.materials().iter().position(|m| &m.name == name),
        }
    }

    /// The index of the world's material this names, or the error that the world has none of
    /// that name or index (a library material the world lacks joins it through the history
    /// first, `replay::History::apply`).
    pub fn index_in(&self, world: &World) -> Result<usize, EditError> {
        self.in_world(world).ok_or_else(|| match self {
            Self::Index(index) => EditError::NoMaterial(*index),
            Self::Name(name) => EditError::Arrival(format!("no material is called `{name}`")),
        })
    }

    /// The word a replay line writes for it: the name (`quoted`), else the index.
    fn word(&self) -> String {
        match self {
            Self::Index(index) => index.to_string(),
            Self::Name(name) => quoted(name),
        }
    }
}

/// `name` as a replay line writes it: in double quotes when it holds a space or reads as a
/// number (an index).
fn quoted(name: &str) -> String {
    let plain = !name.is_empty()
        && !name.contains(char::is_whitespace)
        && !name.contains('"')
        && name.parse::<f64>().is_err();
    if plain {
        name.to_string()
    } else {
        format!("\"{name}\"")
    }
}

/// The disc of a push or a tag, or the error that its centre or radius is no number or its
/// radius is negative.
fn disc(centre: Vec2, radius: f32) -> Result<Part, EditError> {
    if !centre.is_finite() {
        return Err(EditError::NotFinite("centre"));
    }
    if !(radius >= 0.0 && radius.is_finite()) {
        return Err(EditError::OutOfRange {
            field: "radius",
            value: radius,
            low: 0.0,
            high: f32::MAX,
        });
    }
    Ok(Part::circle(centre, radius))
}

/// `word` as a number, or the error that it is none.
fn number_word(word: &str) -> Result<f32, String> {
    word.parse::<f32>()
        .map_err(|_| format!("`{word}` is not a number"))
}

/// The arguments of `verb` that names a material or a body first and then takes `N` numbers.
fn named_values<const N: usize>(
    verb: &str,
    args: &[&str],
) -> Result<(MaterialRef, [f32; N]), String> {
    let (named, values) = material_word(args)?;
    if values.len() != N {
        return Err(format!(
            "`{verb}` takes a name and {N} values, got {}",
            values.len()
        ));
    }
    let mut numbers = [0.0; N];
    for (number, word) in numbers.iter_mut().zip(values) {
        *number = number_word(word)?;
    }
    Ok((named, numbers))
}

/// The first argument of `args` as a material or a body (an index, a name, or a name in double
/// quotes across several words), and the arguments after it.
fn material_word<'a>(args: &'a [&'a str]) -> Result<(MaterialRef, &'a [&'a str]), String> {
    let (first, rest) = args.split_first().ok_or("`pour` takes a material first")?;
    if let Some(opened) = first.strip_prefix('"') {
        if let Some(name) = opened.strip_suffix('"') {
            return Ok((MaterialRef::Name(name.to_string()), rest));
        }
        let mut words = vec![opened];
        for (at, word) in rest.iter().enumerate() {
            if let Some(last) = word.strip_suffix('"') {
                words.push(last);
                return Ok((MaterialRef::Name(words.join(" ")), &rest[at + 1..]));
            }
            words.push(word);
        }
        return Err(format!(
            "the material `{}` has no closing quote",
            args.join(" ")
        ));
    }
    Ok(match first.parse::<usize>() {
        Ok(index) => (MaterialRef::Index(index), rest),
        Err(_) => (MaterialRef::Name(first.to_string()), rest),
    })
}

impl Input {
    /// The input as the words of one replay line (after the frame number).
    pub fn to_line(&self) -> String {
        let mut line = String::new();
        let mut put = |value: &dyn std::fmt::Display| {
            let _ = write!(line, " {value}");
        };
        match self {
            Self::Preset {
                source,
                particles,
                checksum,
            } => {
                put(&"preset");
                put(source);
                match particles {
                    Some(count) => put(count),
                    None => put(&"own"),
                }
                put(&format!("{checksum:016x}"));
            }
            Self::Stir(stir) => {
                put(&"stir");
                for value in [
                    stir.position.x,
                    stir.position.y,
                    stir.velocity.x,
                    stir.velocity.y,
                    stir.radius,
                ] {
                    put(&value);
                }
            }
            Self::Pull {
                centre,
                radius,
                speed,
            } => {
                put(&"pull");
                for value in [centre.x, centre.y, *radius, *speed] {
                    put(&value);
                }
            }
            Self::Pour {
                material,
                centre,
                radius,
                velocity,
            } => {
                put(&"pour");
                put(&material.word());
                for value in [centre.x, centre.y, *radius, velocity.x, velocity.y] {
                    put(&value);
                }
            }
            Self::Body { name, position } => {
                put(&"body");
                put(&quoted(name));
                put(&position.x);
                put(&position.y);
            }
            Self::Cap(cap) => {
                put(&"cap");
                put(cap);
            }
            Self::Erase { centre, radius } => {
                put(&"erase");
                for value in [centre.x, centre.y, *radius] {
                    put(&value);
                }
            }
            Self::Heat {
                centre,
                radius,
                rate,
            } => {
                put(&"heat");
                for value in [centre.x, centre.y, *radius, *rate] {
                    put(&value);
                }
            }
            Self::Push {
                centre,
                radius,
                impulse,
            } => {
                put(&"push");
                for value in [centre.x, centre.y, *radius, impulse.x, impulse.y] {
                    put(&value);
                }
            }
            Self::Tag {
                centre,
                radius,
                tag,
            } => {
                put(&"tag");
                for value in [centre.x, centre.y, *radius] {
                    put(&value);
                }
                put(tag);
            }
            Self::Draw(obstacle) => {
                put(&"draw");
                match obstacle.shape {
                    Shape::Circle { centre, radius } => {
                        put(&"circle");
                        for value in [centre.x, centre.y, radius, obstacle.friction] {
                            put(&value);
                        }
                    }
                    Shape::Capsule { a, b, radius } => {
                        put(&"capsule");
                        for value in [a.x, a.y, b.x, b.y, radius, obstacle.friction] {
                            put(&value);
                        }
                    }
                }
            }
            Self::Undraw(index) => {
                put(&"undraw");
                put(index);
            }
            Self::Gravity(gravity) => {
                put(&"gravity");
                put(&gravity.x);
                put(&gravity.y);
            }
            Self::Grab(point) => {
                put(&"grab");
                put(&point.x);
                put(&point.y);
            }
            Self::Drag(point) => {
                put(&"drag");
                put(&point.x);
                put(&point.y);
            }
            Self::Release => put(&"release"),
            Self::Undo => put(&"undo"),
            Self::Redo => put(&"redo"),
            Self::Tune {
                material,
                field,
                value,
            } => {
                put(&"tune");
                put(material);
                put(&field.name());
                put(value);
            }
        }
        line.trim_start().to_string()
    }

    /// Reads the words of one line (after the frame number); the error says what is wrong.
    pub fn parse(words: &[&str]) -> Result<Self, InputError> {
        let (verb, args) = words.split_first().ok_or("a frame number with no input")?;
        let count = |n: usize| -> Result<(), String> {
            if args.len() == n {
                Ok(())
            } else {
                Err(format!("`{verb}` takes {n} values, got {}", args.len()))
            }
        };
        let number = |index: usize| number_word(args[index]);
        let index = |at: usize| -> Result<usize, String> {
            let word = args[at];
            word.parse::<usize>()
                .map_err(|_| format!("`{word}` is not a whole number"))
        };
        let point =
            |at: usize| -> Result<Vec2, String> { Ok(Vec2::new(number(at)?, number(at + 1)?)) };
        Ok(match *verb {
            "preset" => {
                count(3)?;
                let particles = match args[1] {
                    "own" => None,
                    _ => Some(index(1)?),
                };
                let checksum = u64::from_str_radix(args[2], 16)
                    .map_err(|_| format!("`{}` is not a 16-digit hexadecimal checksum", args[2]))?;
                Self::Preset {
                    source: args[0].to_string(),
                    particles,
                    checksum,
                }
            }
            "stir" => {
                count(5)?;
                Self::Stir(Stir {
                    position: point(0)?,
                    velocity: point(2)?,
                    radius: number(4)?,
                })
            }
            "pull" => {
                count(4)?;
                Self::Pull {
                    centre: point(0)?,
                    radius: number(2)?,
                    speed: number(3)?,
                }
            }
            "pour" => {
                let (material, [x, y, radius, vx, vy]) = named_values(verb, args)?;
                Self::Pour {
                    material,
                    centre: Vec2::new(x, y),
                    radius,
                    velocity: Vec2::new(vx, vy),
                }
            }
            "body" => {
                let (MaterialRef::Name(name), [x, y]) = named_values(verb, args)? else {
                    return Err("`body` takes a body's name first".into());
                };
                Self::Body {
                    name,
                    position: Vec2::new(x, y),
                }
            }
            "cap" => {
                count(1)?;
                Self::Cap(index(0)?)
            }
            "erase" => {
                count(3)?;
                Self::Erase {
                    centre: point(0)?,
                    radius: number(2)?,
                }
            }
            "heat" => {
                count(4)?;
                Self::Heat {
                    centre: point(0)?,
                    radius: number(2)?,
                    rate: number(3)?,
                }
            }
            "push" => {
                count(5)?;
                Self::Push {
                    centre: point(0)?,
                    radius: number(2)?,
                    impulse: point(3)?,
                }
            }
            "tag" => {
                count(4)?;
                let tag = args[3].parse::<u32>().map_err(|_| {
                    format!("`{}` is not a tag (a whole number below 2³²)", args[3])
                })?;
                Self::Tag {
                    centre: point(0)?,
                    radius: number(2)?,
                    tag,
                }
            }
            "draw" => match args.first().copied() {
                Some("circle") => {
                    count(5)?;
                    Self::Draw(Obstacle::circle(point(1)?, number(3)?, number(4)?))
                }
                Some("capsule") => {
                    count(7)?;
                    Self::Draw(Obstacle::capsule(
                        point(1)?,
                        point(3)?,
                        number(5)?,
                        number(6)?,
                    ))
                }
                _ => return Err("`draw` takes `circle` or `capsule` first".into()),
            },
            "undraw" => {
                count(1)?;
                Self::Undraw(index(0)?)
            }
            "gravity" => {
                count(2)?;
                Self::Gravity(point(0)?)
            }
            "grab" => {
                count(2)?;
                Self::Grab(point(0)?)
            }
            "drag" => {
                count(2)?;
                Self::Drag(point(0)?)
            }
            "undo" => {
                count(0)?;
                Self::Undo
            }
            "redo" => {
                count(0)?;
                Self::Redo
            }
            "release" => {
                count(0)?;
                Self::Release
            }
            "tune" => {
                count(3)?;
                let field = Tunable::from_name(args[1]).ok_or_else(|| {
                    let names: Vec<&str> = Tunable::ALL.iter().map(|t| t.name()).collect();
                    format!("unknown field `{}` (known: {})", args[1], names.join(", "))
                })?;
                Self::Tune {
                    material: index(0)?,
                    field,
                    value: number(2)?,
                }
            }
            other => return Err(format!("unknown input `{other}`").into()),
        })
    }

    /// Applies a world-level input to `world` (every verb but `preset`, which needs a new
    /// world: see `build`). An input the world refuses changes nothing.
    pub fn apply(&self, world: &mut World) -> Result<(), EditError> {
        match *self {
            Self::Preset { .. } => {
                return Err(EditError::Unsupported(
                    "a preset input builds a new world (replay::build)",
                ))
            }
            Self::Stir(stir) => world.stir(stir),
            Self::Pull {
                centre,
                radius,
                speed,
            } => world.pull(centre, radius, speed),
            Self::Pour {
                ref material,
                centre,
                radius,
                velocity,
            } => {
                let material = material.index_in(world)?;
                world.pour(Pour {
                    material,
                    centre,
                    radius,
                    velocity,
                })?;
            }
            Self::Body { .. } => {
                return Err(EditError::Unsupported(
                    "a body comes from the library through the history (replay::History)",
                ))
            }
            Self::Cap(cap) => world.set_particle_cap(cap)?,
            Self::Erase { centre, radius } => {
                world.erase(centre, radius)?;
            }
            Self::Heat {
                centre,
                radius,
                rate,
            } => {
                world.heat_under(centre, radius, rate)?;
            }
            Self::Push {
                centre,
                radius,
                impulse,
            } => {
                world.push(&disc(centre, radius)?, Push::Impulse(impulse))?;
            }
            Self::Tag {
                centre,
                radius,
                tag,
            } => {
                world.tag(&disc(centre, radius)?, tag);
            }
            Self::Draw(obstacle) => {
                world.add_obstacle(obstacle)?;
            }
            Self::Undraw(index) => {
                world.remove_obstacle(index)?;
            }
            Self::Gravity(gravity) => world.set_gravity(gravity)?,
            Self::Grab(point) => {
                world.grab_body(point)?;
            }
            Self::Drag(point) => world.drag_body(point)?,
            Self::Release => world.release_body(),
            Self::Undo | Self::Redo => {
                return Err(EditError::Unsupported(
                    "undo and redo go through the history (replay::History)",
                ))
            }
            Self::Tune {
                material,
                field,
                value,
            } => world.tune(material, field, value)?,
        }
        Ok(())
    }
}
