//! Undo and redo: the world as it was before each edit, to go back to (Ctrl+Z) and forward
//! again (Ctrl+Y). Time goes back with the world, and the liquid continues bit for bit from
//! there: a step keeps a whole copy of the world.
//!
//! An edit is a draw, an undraw, a grab, or a stroke: pouring, erasing, heating or cooling,
//! tilting or tuning in consecutive frames is one step, the state before its first frame. Stirs
//! and pulls only move the liquid and are no steps of their own. The window and a replay both
//! apply inputs through [`History::apply`], so a replay with `undo` and `redo` lines plays back to
//! its checksum. A fresh world (a `preset` input) starts a new history; a level is played without
//! undo (R retries it).
//!
//! Memory is bounded: the oldest steps are dropped once the steps kept take more than
//! [`MOST_BYTES`], but never below [`LEAST_STEPS`] undo steps.

use super::Input;
use crate::level::Attempt;
use crate::sim::{EditError, World};
use std::collections::VecDeque;

/// Most bytes the steps kept may take, counted by [`world_bytes`] (but `LEAST_STEPS` are kept
/// whatever they take).
pub const MOST_BYTES: usize = 1 << 30;
/// Fewest undo steps kept, however much they take.
pub const LEAST_STEPS: usize = 32;

/// One world kept, with its size.
#[derive(Clone)]
struct Kept {
    world: World,
    bytes: usize,
}

/// The steps to undo and to redo, and the last edit applied (to tell a stroke going on).
#[derive(Clone, Default)]
pub struct History {
    undo: VecDeque<Kept>,
    redo: Vec<Kept>,
    /// The frame and stroke of the last edit applied.
    last: Option<(u64, Stroke)>,
}

/// The kinds of edit that go on over frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stroke {
    Pour,
    Erase,
    Heat,
    Gravity,
    Tune,
    /// A grab, then its drags and its release.
    Grab,
}

/// When an edit starts a step of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Starts {
    /// Always (a draw, an undraw, a grab).
    Always,
    /// Never: it goes on with the step before (a drag or a release, with its grab).
    Never,
    /// Unless the same stroke had an input in the frame before.
    UnlessGoingOn,
}

/// What `input` is to the history: no edit (`None`), or when it starts a step and the stroke
/// it belongs to, if any.
fn edit_of(input: &Input) -> Option<(Starts, Option<Stroke>)> {
    let stroke = |stroke| Some((Starts::UnlessGoingOn, Some(stroke)));
    match input {
        Input::Preset { .. } | Input::Stir(_) | Input::Pull { .. } | Input::Cap(_) => None,
        Input::Push { .. } | Input::Tag { .. } => None,
        Input::Undo | Input::Redo => None,
        Input::Draw(_) | Input::Undraw(_) | Input::Body { .. } => Some((Starts::Always, None)),
        Input::Grab(_) => Some((Starts::Always, Some(Stroke::Grab))),
        Input::Drag(_) | Input::Release => Some((Starts::Never, Some(Stroke::Grab))),
        Input::Pour { .. } => stroke(Stroke::Pour),
        Input::Erase { .. } => stroke(Stroke::Erase),
        Input::Heat { .. } => stroke(Stroke::Heat),
        Input::Gravity(_) => stroke(Stroke::Gravity),
        Input::Tune { .. } => stroke(Stroke::Tune),
    }
}

/// About how many bytes a copy of `world` takes: its particles (their columns and the buffers
/// sized by them), springs and air grid.
pub fn world_bytes(world: &World) -> usize {
    // Measured with a counting allocator (`tests/allocations.rs`): what a copy of `dam`,
    // `jelly` and `volcano` allocates, per particle, spring and air cell.
    const PER_PARTICLE: usize = 185;
    const PER_SPRING: usize = 30;
    const PER_AIR_CELL: usize = 320;
    // A watcher's `Seen` per id (`sim::world::Watcher`).
    const PER_WATCHED_PARTICLE: usize = 32;
    let air = world.air().map_or(0, |air| {
        let grid = air.grid();
        grid.nx * grid.ny * PER_AIR_CELL
    });
    // A world that records its events keeps its watcher's view of each particle too.
    let watched = if world.records_events() {
        PER_WATCHED_PARTICLE
    } else {
        0
    };
    let particles = world.particles().len() * (PER_PARTICLE + watched);
    4096 + particles + world.spring_counts().total * PER_SPRING + air
}

impl History {
    /// An empty history.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets every step (a fresh world).
    pub fn clear(&mut self) {
        *self = Self::default();
    }

    /// Steps that can be undone and redone.
    pub fn steps(&self) -> (usize, usize) {
        (self.undo.len(), self.redo.len())
    }

    /// Bytes the steps kept take (`world_bytes` each).
    pub fn bytes(&self) -> usize {
        self.undo
            .iter()
            .chain(&self.redo)
            .map(|kept| kept.bytes)
            .sum()
    }

    /// Applies `input`, given `frame` frames after the recording started, to `world` and the go
    /// at its level: an edit keeps the world as it was first (unless it goes on with a stroke
    /// from the frame before) and drops what could be redone; `undo` and `redo` swap the world
    /// for the one kept. Every other input goes to the world through the level's rules
    /// (`Attempt::apply`). A refused input changes nothing: nothing to undo or redo, or undo
    /// in a level, is `EditError::Refused`.
    pub fn apply(
        &mut self,
        frame: u64,
        attempt: Option<&mut Attempt>,
        input: &Input,
        world: &mut World,
    ) -> Result<(), EditError> {
        match input {
            Input::Undo | Input::Redo => {
                if attempt.is_some() {
                    return Err(EditError::Refused(
                        "a level is played without undo (R retries it)".into(),
                    ));
                }
                let undoing = *input == Input::Undo;
                let kept = if undoing {
                    self.undo.pop_back()
                } else {
                    self.redo.pop()
                };
                let Some(kept) = kept else {
                    let what = if undoing { "undo" } else { "redo" };
                    return Err(EditError::Refused(format!("nothing to {what}")));
                };
                let now = Kept {
                    bytes: world_bytes(world),
                    world: std::mem::replace(world, kept.world),
                };
                if undoing {
                    self.redo.push(now);
                } else {
                    self.undo.push_back(now);
                }
                self.last = None;
                Ok(())
            }
            _ => {
                let edit = edit_of(input);
                let starts = match edit {
                    None | Some((Starts::Never, _)) => false,
                    Some((Starts::Always, _)) => true,
                    Some((Starts::UnlessGoingOn, stroke)) => !matches!(
                        (self.last, stroke),
                        (Some((at, last)), Some(now)) if last == now && at + 1 >= frame
                    ),
                };
                let before = starts.then(|| world.clone());
                if !from_the_library(input, world, attempt.is_some())? {
                    Attempt::apply(attempt, input, world)?;
                }
                if let Some((_, stroke)) = edit {
                    self.last = stroke.map(|stroke| (frame, stroke));
                }
                if let Some(world) = before {
                    self.redo.clear();
                    let bytes = world_bytes(&world);
                    self.undo.push_back(Kept { world, bytes });
                    while self.undo.len() > LEAST_STEPS && self.bytes() > MOST_BYTES {
                        self.undo.pop_front();
                    }
                }
                Ok(())
            }
        }
    }
}

/// What the library brings for `input` before `world` takes it: a library material that a pour
/// names and the world lacks joins the world (`preset::library::arrival`, with what it brings),
/// and a body is placed (`World::add_body`); true when that was the whole input. In a level
/// (`in_level`) neither: a level pours only its own materials and places no bodies. A name
/// the library lacks is refused with the nearest it has; a refusal changes nothing.
fn from_the_library(input: &Input, world: &mut World, in_level: bool) -> Result<bool, EditError> {
    use crate::input::MaterialRef;
    use crate::preset::library;
    match input {
        Input::Pour {
            material: MaterialRef::Name(name),
            centre,
            radius,
            velocity,
        } if !in_level && world.materials().iter().all(|m| &m.name != name) => {
            // A pour the world would refuse brings nothing in.
            if !(centre.is_finite() && velocity.is_finite() && radius.is_finite()) {
                return Err(EditError::NotFinite("pour"));
            }
            let Some(arrival) = library::arrival(world, name) else {
                let known = (world.materials().iter().map(|m| m.name.as_str())).chain(
                    library::library()
                        .materials()
                        .iter()
                        .map(|m| m.name.as_str()),
                );
                return Err(EditError::Arrival(match library::nearest(name, known) {
                    Some(near) => {
                        format!("no material is called `{name}` (the nearest is `{near}`)")
                    }
                    None => {
                        format!("no material is called `{name}` (see `slosh --list-materials`)")
                    }
                }));
            };
            world.add_materials(arrival)?;
            Ok(false)
        }
        Input::Body { name, position } if !in_level => {
            let radius = world.params().particle_radius;
            let Some(body) = crate::preset::library_body(name, *position, radius) else {
                let names: Vec<&str> = crate::preset::library_body_names().collect();
                return Err(EditError::Arrival(format!(
                    "no body is called `{name}` (the library's: {})",
                    names.join(", ")
                )));
            };
            world.add_body(body)?;
            Ok(true)
        }
        _ => Ok(false),
    }
}
