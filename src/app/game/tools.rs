//! The mouse's tools, the box's tilt and the panel's tuning, without any window types: which
//! tool is in hand, its ring, the material poured, what the mouse asks of a simulation frame and
//! the edits each tool makes (each through the recording), and how a drawn wall is fitted
//! between the walls.

use super::recording::Recording;
use crate::input::MaterialRef;
use crate::level::Tool;
use crate::replay::Input;
use crate::sim::numerics::portable::Ordered;
use crate::sim::{EditError, Material, Obstacle, Stir, Tunable, World};
use glam::Vec2;

/// Fastest the arrow keys turn gravity, in radians per second.
pub const TILT_SPEED: f32 = 0.8;

/// Furthest gravity may turn either way: a full turn.
pub const MAX_TILT: f32 = std::f32::consts::TAU;

/// A drawn wall's radius as a share of the ring's.
pub const DRAW_THICKNESS: f32 = 0.25;

/// How fast the heat and cool tools change the temperature under the ring, in degrees per
/// second: liquid held under the ring goes from 0 to 100 °C in a third of a second, or from 20
/// to −20 °C in under a seventh, less as the heat spreads to its neighbours (in scenes that
/// conduct); lava's 1000 °C takes a few seconds.
pub const HEAT_RATE: f32 = 300.0;

/// What the mouse asks of one simulation frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameInput {
    /// A stir (left drag with the stir tool).
    pub stir: Option<Stir>,
    /// A pull toward this point (right button).
    pub pull: Option<Vec2>,
    /// Pour at this point with this velocity (pour tool).
    pub pour: Option<(Vec2, Vec2)>,
    /// Erase at this point (erase tool).
    pub erase: Option<Vec2>,
    /// Heat (a positive rate) or cool (a negative one) under the ring at this point, in degrees
    /// per second (heat and cool tools).
    pub heat: Option<(Vec2, f32)>,
    /// Pull the held body toward this point (grab tool, while a body is held).
    pub drag: Option<Vec2>,
}

/// A material the palette offers.
#[derive(Clone, Debug, PartialEq)]
pub struct Offered {
    /// Its name.
    pub name: String,
    /// Its colour.
    pub colour: [f32; 3],
    /// It is the library's, not yet in the world: pouring it brings it in.
    pub joins: bool,
    /// It is a rigid body of the library, which a click places.
    pub body: bool,
}

/// What a world holds that a pour may add to: its materials and reactions, and whether it has
/// heat and air.
struct Joined {
    materials: usize,
    reactions: usize,
    heat: bool,
    air: bool,
}

impl Joined {
    fn of(world: &World) -> Self {
        Self {
            materials: world.materials().len(),
            reactions: world.reactions().len(),
            heat: world.heat().is_some(),
            air: world.air().is_some(),
        }
    }

    /// What joined `world` since, in words for the HUD (`None`: nothing).
    fn news(&self, world: &World) -> Option<String> {
        let names = |from: usize| -> Vec<String> {
            world.materials()[from.min(world.materials().len())..]
                .iter()
                .map(|m| m.name.clone())
                .collect()
        };
        let new = names(self.materials);
        let (first, products) = new.split_first()?;
        let mut brought: Vec<String> = Vec::new();
        if !products.is_empty() {
            brought.push(products.join(" and "));
        }
        if world.heat().is_some() && !self.heat {
            brought.push("heat".into());
        }
        if world.air().is_some() && !self.air {
            brought.push("air".into());
        }
        let reactions: Vec<&str> = world.reactions()[self.reactions.min(world.reactions().len())..]
            .iter()
            .map(|r| r.name.as_str())
            .collect();
        if !reactions.is_empty() {
            brought.push(format!("reactions: {}", reactions.join(", ")));
        }
        Some(match brought.is_empty() {
            true => format!("{first} joins the scene"),
            false => format!("{first} joins the scene, bringing {}", brought.join("; ")),
        })
    }
}

/// The player's hands on the world: the tool in hand and its ring, the material poured, the
/// box's tilt and gravity's strength, and the materials as built (the panel's "preset values").
pub struct Tools {
    /// What the left mouse button does.
    pub tool: Tool,
    /// The material poured: its place in the palette (`offered`).
    pub material: usize,
    /// The palette offers the library's materials beside the world's (not in a level, which
    /// pours only its own).
    pub library: bool,
    /// Radius of the stirring and pulling cursor, in world units.
    pub stir_radius: f32,
    /// How far the box is tilted, in radians (positive: anticlockwise, so the liquid runs
    /// left); gravity turns the other way.
    pub tilt: f32,
    /// Strength of gravity in m/s² (the panel's slider; the preset's to begin with).
    gravity_strength: f32,
    /// The world's materials as built, for the panel's "preset values".
    initial_materials: Vec<Material>,
}

impl Tools {
    /// The stir tool with its ring at the preset's size, the first material, the box upright,
    /// for `world` as built.
    pub fn new(world: &World) -> Self {
        let mut tools = Self {
            tool: Tool::Stir,
            material: 0,
            library: true,
            stir_radius: default_stir_radius(world),
            tilt: 0.0,
            gravity_strength: 0.0,
            initial_materials: Vec::new(),
        };
        tools.remember_build(world);
        tools
    }

    /// Notes `world`'s gravity and materials as built (the panel's starting values).
    pub fn remember_build(&mut self, world: &World) {
        self.gravity_strength = world.params().gravity.length();
        self.initial_materials = world.materials().to_vec();
    }

    /// For a fresh `world` from the same preset: the box upright, the first material, the
    /// starting values noted, the ring kept within the new box's range.
    pub fn restart(&mut self, world: &World) {
        self.tilt = 0.0;
        self.material = 0;
        self.remember_build(world);
        self.keep_stir_radius_in(world);
    }

    /// The ring back to the size a preset starts with, in `world`.
    pub fn reset_stir_radius(&mut self, world: &World) {
        self.stir_radius = default_stir_radius(world);
    }

    /// The ring's size kept within `world`'s range.
    pub fn keep_stir_radius_in(&mut self, world: &World) {
        let (low, high) = stir_radius_range(world);
        self.stir_radius = self.stir_radius.clamp(low, high);
    }

    /// Multiplies the stir radius by `factor`, kept between one interaction radius and half
    /// `world`'s box's smaller side.
    pub fn scale_stir_radius(&mut self, world: &World, factor: f32) {
        if !factor.is_finite() || factor <= 0.0 {
            return;
        }
        let (low, high) = stir_radius_range(world);
        self.stir_radius = (self.stir_radius * factor).clamp(low, high);
    }

    /// What the palette offers in `world`: its materials, then, unless in a level, the
    /// library's that it lacks (pouring one brings it in).
    pub fn offered(&self, world: &World) -> Vec<Offered> {
        let own = world.materials().iter().map(|m| Offered {
            name: m.name.clone(),
            colour: m.colour,
            joins: false,
            body: false,
        });
        let library = crate::preset::library::library();
        let lacking = library
            .materials()
            .iter()
            .filter(|m| self.library && !world.materials().iter().any(|w| w.name == m.name))
            .map(|m| Offered {
                name: m.name.clone(),
                colour: m.colour,
                joins: true,
                body: false,
            });
        // With rigid bodies: the library's bodies last, placed by a click.
        let radius = world.params().particle_radius;
        let bodies = crate::preset::library_body_names()
            .filter(|_| self.library && cfg!(feature = "bodies"))
            .filter_map(|name| crate::preset::library_body(name, Vec2::ZERO, radius))
            .map(|body| Offered {
                name: body.name,
                colour: body.colour,
                joins: true,
                body: true,
            });
        own.chain(lacking).chain(bodies).collect()
    }

    /// The palette's entry in hand, in `world`.
    pub fn in_hand(&self, world: &World) -> Offered {
        let offered = self.offered(world);
        let at = self.material.min(offered.len() - 1);
        offered[at].clone()
    }

    /// Places the body in hand at `at` (the pour tool's click with a body picked in the
    /// palette); what to say.
    pub fn place_body(
        &mut self,
        world: &mut World,
        recording: &mut Recording,
        at: Vec2,
    ) -> Option<String> {
        let chosen = self.in_hand(world);
        if !chosen.body {
            return None;
        }
        let input = Input::Body {
            name: chosen.name.clone(),
            position: at,
        };
        Some(match recording.input(world, input) {
            Ok(()) => format!("placed a {}: F grabs and throws it", chosen.name),
            Err(refused) => refused.to_string(),
        })
    }

    /// The name of the material in hand, in `world`.
    pub fn material_name(&self, world: &World) -> String {
        self.in_hand(world).name
    }

    /// Selects the next material of the palette for pouring; what to say.
    pub fn next_material(&mut self, world: &World) -> String {
        self.material = (self.material + 1) % self.offered(world).len();
        format!("pouring {}", self.material_name(world))
    }

    /// Selects the palette's material `index` for pouring; what to say (`None` for an index
    /// the palette has no material at).
    pub fn select_material(&mut self, world: &World, index: usize) -> Option<String> {
        let offered = self.offered(world);
        let chosen = offered.get(index)?;
        self.material = index;
        Some(match (chosen.body, chosen.joins) {
            (true, _) => format!("{}: click to place it", chosen.name),
            (false, true) => format!("pouring {} (new to this scene)", chosen.name),
            (false, false) => format!("pouring {}", chosen.name),
        })
    }

    /// Applies what the mouse asks of one simulation frame to `world` through `recording`:
    /// what to say when the particle cap stops a pour.
    pub fn frame(
        &mut self,
        world: &mut World,
        recording: &mut Recording,
        input: FrameInput,
    ) -> Option<String> {
        let mut said = None;
        if let Some(stir) = input.stir {
            recording.input(world, Input::Stir(stir)).ok();
        }
        if let Some(centre) = input.pull {
            let speed = pull_speed(world);
            let radius = self.stir_radius;
            recording
                .input(
                    world,
                    Input::Pull {
                        centre,
                        radius,
                        speed,
                    },
                )
                .ok();
        }
        if let Some((centre, velocity)) = input.pour {
            said = self.pour(world, recording, centre, velocity);
        }
        if let Some(centre) = input.erase {
            let radius = self.stir_radius;
            recording.input(world, Input::Erase { centre, radius }).ok();
        }
        if let Some((centre, rate)) = input.heat {
            let radius = self.stir_radius;
            recording
                .input(
                    world,
                    Input::Heat {
                        centre,
                        radius,
                        rate,
                    },
                )
                .ok();
        }
        if let Some(target) = input.drag {
            drag_body(world, recording, target);
        }
        said
    }

    /// Pours the selected material from the ring at `centre`; what to say when the cap stops
    /// it.
    fn pour(
        &mut self,
        world: &mut World,
        recording: &mut Recording,
        centre: Vec2,
        velocity: Vec2,
    ) -> Option<String> {
        let chosen = self.in_hand(world);
        if chosen.body {
            // A body is placed by a click (`place_body`), not poured.
            return None;
        }
        let name = chosen.name;
        let pour = Input::Pour {
            material: MaterialRef::Name(name.clone()),
            centre,
            radius: self.stir_radius,
            velocity,
        };
        let cap = world.params().max_particles;
        let full = |world: &World| world.particles().len() >= cap;
        // A full world takes no pour (and records none).
        if full(world) {
            return Some(format!("the particle cap ({cap}) stops the pour"));
        }
        let before = Joined::of(world);
        recording.input(world, pour).ok();
        let joined = before.news(world);
        // The material in hand stays in hand where the palette moved it.
        let offered = self.offered(world);
        self.material = offered.iter().position(|o| o.name == name).unwrap_or(0);
        joined.or_else(|| full(world).then(|| format!("the particle cap ({cap}) stops the pour")))
    }

    /// Lays a wall from `a` to `b` of the draw thickness (a circle for a click), shortened to
    /// keep its gap from the walls; a click on an obstacle removes it instead. What to say.
    pub fn draw(
        &self,
        world: &mut World,
        recording: &mut Recording,
        a: Vec2,
        b: Vec2,
    ) -> Option<String> {
        let radius = self.wall_radius(world);
        if a.distance(b) < radius {
            if let Some(index) = world.obstacle_at(a) {
                let removed = recording.input(world, Input::Undraw(index)).is_ok();
                return removed.then(|| "obstacle removed".to_string());
            }
        }
        let obstacle = match fit_to_walls(world, a, b, radius) {
            Some((a, b)) if a.distance(b) < 1e-4 => {
                Obstacle::circle(a, radius, wall_friction(world))
            }
            Some((a, b)) => Obstacle::capsule(a, b, radius, wall_friction(world)),
            None => return Some("no room for a wall there (too close to the box)".to_string()),
        };
        recording
            .input(world, Input::Draw(obstacle))
            .err()
            .map(|error| error.to_string())
    }

    /// Radius of the wall the draw tool lays in `world`: a share of the ring, at least a
    /// particle's.
    pub fn wall_radius(&self, world: &World) -> f32 {
        (DRAW_THICKNESS * self.stir_radius).at_least(world.params().particle_radius)
    }

    /// Turns gravity by `radians` more (clamped to a full turn either way); 0 keeps it.
    /// `preset_gravity` is the preset's, which the tilt turns.
    pub fn turn_gravity(
        &mut self,
        world: &mut World,
        recording: &mut Recording,
        preset_gravity: Vec2,
        radians: f32,
    ) {
        if radians == 0.0 || !radians.is_finite() {
            return;
        }
        self.tilt = (self.tilt + radians).clamp(-MAX_TILT, MAX_TILT);
        self.apply_tilt(world, recording, preset_gravity);
    }

    /// Sets the box upright again: gravity back to the preset's direction.
    pub fn tilt_back(
        &mut self,
        world: &mut World,
        recording: &mut Recording,
        preset_gravity: Vec2,
    ) {
        self.tilt = 0.0;
        self.apply_tilt(world, recording, preset_gravity);
    }

    /// Sets the strength of gravity (its direction stays the tilt's).
    pub fn set_gravity_strength(
        &mut self,
        world: &mut World,
        recording: &mut Recording,
        preset_gravity: Vec2,
        strength: f32,
    ) {
        if strength.is_finite() && strength >= 0.0 {
            // Any direction keeps each component within the loader's ±1000.
            self.gravity_strength = strength.at_most(1000.0);
            self.apply_tilt(world, recording, preset_gravity);
        }
    }

    /// Gravity as the tilt and the strength make it from `preset_gravity` (the preset's
    /// itself, when untilted at its strength), given to `world` if it differs.
    fn apply_tilt(&self, world: &mut World, recording: &mut Recording, preset_gravity: Vec2) {
        let direction = preset_gravity.try_normalize().unwrap_or(Vec2::NEG_Y);
        let gravity = if self.tilt == 0.0 && self.gravity_strength == preset_gravity.length() {
            preset_gravity
        } else {
            // The box turns by `tilt`: gravity turns the other way in the box's frame.
            crate::sim::numerics::portable::unit_vector(-self.tilt)
                .rotate(direction * self.gravity_strength)
        };
        if gravity != world.params().gravity {
            recording.input(world, Input::Gravity(gravity)).ok();
        }
    }

    /// Material `index` as the world was built (the panel's "preset values").
    pub fn initial_material(&self, index: usize) -> Option<&Material> {
        self.initial_materials.get(index)
    }

    /// Puts material `index`'s tunable constants back to the values the world was built with,
    /// and gravity's strength to `preset_gravity`'s. What to say.
    pub fn restore_material(
        &mut self,
        world: &mut World,
        recording: &mut Recording,
        preset_gravity: Vec2,
        index: usize,
    ) -> Option<String> {
        let initial = self.initial_materials.get(index).cloned()?;
        let params = world.params().clone();
        for &field in Tunable::ALL {
            let value = field.get(&initial, &params);
            // The line returned below is what shows, even after a refused value.
            tune(world, recording, index, field, value).ok();
        }
        self.set_gravity_strength(world, recording, preset_gravity, preset_gravity.length());
        Some(format!("{}: preset values", initial.name))
    }
}

/// Sets a constant of `world`'s material `material` (world units) through `recording`; refused
/// values change nothing.
pub fn tune(
    world: &mut World,
    recording: &mut Recording,
    material: usize,
    field: Tunable,
    value: f32,
) -> Result<(), EditError> {
    let now = field.get(&world.materials()[material], world.params());
    if now == value {
        return Ok(());
    }
    recording.input(
        world,
        Input::Tune {
            material,
            field,
            value,
        },
    )
}

/// The grab tool pressed at `point`: takes hold of `world`'s body there. What to say: a press
/// beside every body (or in a scene without bodies) changes nothing and says so.
pub fn grab_body(world: &mut World, recording: &mut Recording, point: Vec2) -> Option<String> {
    if world.bodies().is_none() {
        return Some("no bodies in this scene (try bath, mill or dam)".to_string());
    }
    release_body(world, recording);
    recording
        .input(world, Input::Grab(point))
        .err()
        .map(|error| error.to_string())
}

/// Pulls the held body toward `target` (nothing while none is held, or when it is pulled there
/// already).
pub fn drag_body(world: &mut World, recording: &mut Recording, target: Vec2) {
    let held = world.bodies().and_then(|bodies| bodies.held());
    if let Some((_, _, cursor)) = held {
        if cursor != target {
            recording.input(world, Input::Drag(target)).ok();
        }
    }
}

/// Lets go of the held body, if any: it flies on with the velocity it has.
pub fn release_body(world: &mut World, recording: &mut Recording) {
    if holds_body(world) {
        recording.input(world, Input::Release).ok();
    }
}

/// True while the grab tool holds one of `world`'s bodies.
pub fn holds_body(world: &World) -> bool {
    world.bodies().is_some_and(|bodies| bodies.held().is_some())
}

fn wall_friction(world: &World) -> f32 {
    world.params().wall_friction.at_most(10.0)
}

/// The stir radius a preset starts with: four interaction radii, within the allowed range.
fn default_stir_radius(world: &World) -> f32 {
    let (low, high) = stir_radius_range(world);
    (4.0 * world.params().interaction_radius).clamp(low, high)
}

/// Smallest and largest stir radius for `world`'s box.
fn stir_radius_range(world: &World) -> (f32, f32) {
    let low = world.params().interaction_radius;
    let extent = world.domain().max() - world.domain().min();
    let high = (0.5 * crate::sim::numerics::portable::smallest(extent)).at_least(low);
    (low, high)
}

/// How fast the right button gathers particles at the rim: a fifth of the box's height per
/// second times four, so gathering takes about a second anywhere.
fn pull_speed(world: &World) -> f32 {
    let extent = world.domain().max() - world.domain().min();
    0.8 * crate::sim::numerics::portable::smallest(extent)
}

/// The segment `a`–`b` shortened at either end so that a capsule of `radius` around it keeps two
/// particle radii (and a little more) from every wall; `None` when nothing of it fits.
pub fn fit_to_walls(world: &World, a: Vec2, b: Vec2, radius: f32) -> Option<(Vec2, Vec2)> {
    let room = radius + 2.0 * world.params().particle_radius * 1.01;
    let walls = world.domain().walls();
    // The smallest t at which p + t (q − p) is `room` inside every wall.
    let pull_in = |p: Vec2, q: Vec2| -> Option<f32> {
        let mut t: f32 = 0.0;
        for wall in walls {
            let (dp, dq) = (wall.distance(p), wall.distance(q));
            if dp >= room {
                continue;
            }
            if dq <= dp {
                return None;
            }
            t = t.at_least((room - dp) / (dq - dp));
        }
        Some(t)
    };
    let ta = pull_in(a, b)?;
    let tb = pull_in(b, a)?;
    if ta + tb > 1.0 {
        return if a.distance(b) < 1e-6 {
            None
        } else {
            // Only a point might fit: the middle of what is left.
            let middle = a.lerp(b, ta.at_most(1.0));
            walls
                .iter()
                .all(|w| w.distance(middle) >= room)
                .then_some((middle, middle))
        };
    }
    Some((a.lerp(b, ta), b.lerp(a, tb)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preset::Preset;

    #[test]
    fn a_wall_drawn_into_the_box_is_shortened_to_keep_its_gap() {
        let world = Preset::load("dam").unwrap().build_world(1);
        let (min, max) = (world.domain().min(), world.domain().max());
        let radius = 0.2;
        let room = radius + 2.0 * world.params().particle_radius;
        // From outside the left wall to the middle.
        let middle = (min + max) * 0.5;
        let (a, b) =
            fit_to_walls(&world, Vec2::new(min.x - 1.0, middle.y), middle, radius).unwrap();
        assert!(a.x >= min.x + room - 1e-4, "{a}");
        assert_eq!(b, middle);
        // Both ends in the floor: nothing fits.
        let floor = |x: f32| Vec2::new(x, min.y + 0.01);
        assert_eq!(fit_to_walls(&world, floor(2.0), floor(5.0), radius), None);
        // Inside, it stays as drawn.
        let (p, q) = (middle, middle + Vec2::new(1.0, 0.5));
        assert_eq!(fit_to_walls(&world, p, q, radius), Some((p, q)));
        // A click in the room is a point.
        assert_eq!(fit_to_walls(&world, p, p, radius), Some((p, p)));
    }

    #[test]
    fn stir_radius_stays_in_range() {
        let world = Preset::load("seed").unwrap().build_world(1);
        let mut tools = Tools::new(&world);
        for _ in 0..100 {
            tools.scale_stir_radius(&world, 2.0);
        }
        assert!(tools.stir_radius <= 3.75 + 1e-4);
        for _ in 0..100 {
            tools.scale_stir_radius(&world, 0.5);
        }
        assert!(tools.stir_radius >= 0.3 - 1e-4);
        tools.scale_stir_radius(&world, f32::NAN);
        assert!(tools.stir_radius.is_finite());
    }
}
