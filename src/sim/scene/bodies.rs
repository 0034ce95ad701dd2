//! What a scene says of its rigid bodies, as plain values: each body (its convex parts, starting
//! pose and motion, density, friction, bounce, colour), the hinges between them, and where a
//! body is and how it moves at a moment (`BodyState`, what the running bodies report). The
//! coupled rapier world (`bodies`) is built from these and knows them; they know nothing of it.

use super::shape::Part;
use glam::Vec2;

/// A rigid body as a scene describes it.
#[derive(Clone, Debug, PartialEq)]
pub struct Body {
    /// Name, for reports and presets.
    pub name: String,
    /// Its convex parts, in its own frame (at least one).
    pub parts: Vec<Part>,
    /// Where its frame's origin starts.
    pub position: Vec2,
    /// Its starting turn, in radians.
    pub angle: f32,
    /// Starting velocity.
    pub velocity: Vec2,
    /// Starting angular velocity, radians per second (counter-clockwise positive).
    pub angular_velocity: f32,
    /// Mass per area relative to a liquid of `mass = 1` (water): 0.5 floats half under, 2
    /// sinks. The same at any resolution.
    pub density: f32,
    /// Coulomb friction against particles, walls and other bodies.
    pub friction: f32,
    /// Bounciness against walls and other bodies (0: none, 1: elastic).
    pub restitution: f32,
    /// Linear RGB colour for drawing.
    pub colour: [f32; 3],
}

impl Body {
    /// A body of `parts` at `position`, with density `density` (relative to water), at rest,
    /// friction 0.5, no bounce, wood-coloured. A scene built in code lists it in
    /// `Scene::bodies`:
    ///
    /// ```
    /// use glam::Vec2;
    /// use slosh::preset::Preset;
    /// use slosh::sim::{Body, BodyShape, Part, World};
    ///
    /// # #[cfg(feature = "bodies")] {
    /// let mut scene = Preset::load("dam")?.scene;
    /// let raft = Part::new(BodyShape::Box { half_size: Vec2::new(0.8, 0.2) });
    /// scene.bodies.push(Body::new("raft", vec![raft], Vec2::new(3.0, 6.0), 0.5));
    /// let mut world = World::new(scene, 1);
    /// for _ in 0..20 {
    ///     world.step_frame();
    /// }
    /// let raft = world.bodies().unwrap().state(1);
    /// assert!(raft.position.y < 6.0, "it fell into the water");
    /// # }
    /// # Ok::<(), slosh::preset::PresetError>(())
    /// ```
    pub fn new(name: &str, parts: Vec<Part>, position: Vec2, density: f32) -> Self {
        Self {
            name: name.to_string(),
            parts,
            position,
            angle: 0.0,
            velocity: Vec2::ZERO,
            angular_velocity: 0.0,
            density,
            friction: 0.5,
            restitution: 0.0,
            colour: [0.6, 0.45, 0.3],
        }
    }

    /// A point of the body's frame in the world, at its starting pose.
    pub fn to_world(&self, point: Vec2) -> Vec2 {
        self.position + crate::sim::numerics::portable::unit_vector(self.angle).rotate(point)
    }

    /// A world point in the body's frame, at its starting pose.
    pub fn to_local(&self, point: Vec2) -> Vec2 {
        crate::sim::numerics::portable::unit_vector(-self.angle).rotate(point - self.position)
    }

    /// The outline of each part in the world at its starting pose.
    pub fn outlines(&self, segments: usize) -> Vec<Vec<Vec2>> {
        self.parts
            .iter()
            .map(|part| {
                part.outline(segments)
                    .into_iter()
                    .map(|p| self.to_world(p))
                    .collect()
            })
            .collect()
    }
}

/// A hinge: `body` turns about `anchor` (a world point at the start), fixed to the world or to
/// the body `to`.
#[derive(Clone, Debug, PartialEq)]
pub struct Hinge {
    /// Index of the body that turns.
    pub body: usize,
    /// The body it is fixed to (`None`: the world).
    pub to: Option<usize>,
    /// The axle, in world coordinates at the start.
    pub anchor: Vec2,
}

/// Where a body is and how it moves now.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyState {
    /// Position of its frame's origin.
    pub position: Vec2,
    /// Turn, in radians.
    pub angle: f32,
    /// Velocity of its centre of mass.
    pub velocity: Vec2,
    /// Angular velocity, radians per second.
    pub angular_velocity: f32,
    /// Its centre of mass in the world.
    pub centre_of_mass: Vec2,
    /// Its mass (in the liquid's mass units).
    pub mass: f32,
}

impl BodyState {
    /// A point of the body's frame in the world now.
    pub fn to_world(&self, point: Vec2) -> Vec2 {
        self.position + crate::sim::numerics::portable::unit_vector(self.angle).rotate(point)
    }

    /// A world point in the body's frame now.
    pub fn to_local(&self, point: Vec2) -> Vec2 {
        crate::sim::numerics::portable::unit_vector(-self.angle).rotate(point - self.position)
    }

    /// `part`, given in the body's frame, where it is in the world now.
    pub fn place(&self, part: &Part) -> Part {
        Part {
            offset: self.to_world(part.offset),
            angle: self.angle + part.angle,
            ..part.clone()
        }
    }
}

/// The velocity of a state's rigid motion at `point` (the running bodies' coupling).
#[cfg(feature = "bodies")]
pub(crate) fn velocity_at(state: &BodyState, point: Vec2) -> Vec2 {
    state.velocity + (point - state.centre_of_mass).perp() * state.angular_velocity
}
