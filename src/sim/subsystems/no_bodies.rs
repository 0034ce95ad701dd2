//! The rigid bodies' place in a build without the `bodies` feature (and so without rapier2d):
//! a `Bodies` type that has no values. `World::bodies` is then always `None`, and what reads the
//! bodies (the window, the levels, the grab tool, the edits) compiles as it is and finds none: a
//! grab or a throw is `EditError::NoBody`. No scene with bodies reaches a world: the preset
//! loader and `World::from_state` refuse it, naming the feature.

pub use crate::sim::scene::bodies::{Body, BodyState, Hinge};
pub use crate::sim::scene::shape::{is_convex_counter_clockwise, BodyShape, Part};

use crate::sim::scene::{Obstacle, Scene};
use crate::sim::subsystems::{FromScene, Subsystem};
use glam::Vec2;

/// The rigid bodies of a world: none in this build (the type has no values).
#[derive(Clone, Debug)]
pub enum Bodies {}

impl Bodies {
    /// The bodies as the scene gave them.
    pub fn specs(&self) -> &[Body] {
        match *self {}
    }

    /// How many bodies there are.
    pub fn len(&self) -> usize {
        match *self {}
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        match *self {}
    }

    /// Where body `index` is and how it moves.
    pub fn state(&self, _index: usize) -> BodyState {
        match *self {}
    }

    /// The body whose solid holds `point`, if any.
    pub fn body_at(&self, _point: Vec2) -> Option<usize> {
        match *self {}
    }

    /// Signed distance from `point` to the nearest body's surface.
    pub fn surface_distance(&self, _point: Vec2) -> f32 {
        match *self {}
    }

    /// The held body, the held point in the world and the cursor, while one is held.
    pub fn held(&self) -> Option<(usize, Vec2, Vec2)> {
        match *self {}
    }

    /// The mouse takes hold of body `index` at world `point`.
    pub fn grab(&mut self, _index: usize, _point: Vec2) {
        match *self {}
    }

    /// The held body is pulled toward `target` from now on.
    pub fn drag_to(&mut self, _target: Vec2) {
        match *self {}
    }

    /// The mouse lets go.
    pub fn release(&mut self) {
        match *self {}
    }

    /// Sets body `index` moving at `velocity` and `angular_velocity`.
    pub fn set_velocity(&mut self, _index: usize, _velocity: Vec2, _angular_velocity: f32) {
        match *self {}
    }

    /// Replaces the fixed obstacles the bodies meet.
    pub fn set_obstacles(&mut self, _obstacles: &[Obstacle]) {
        match *self {}
    }

    /// Surface-to-surface distance from the nearest body to `obstacle`.
    pub fn distance_to_obstacle(&self, _obstacle: &Obstacle) -> f32 {
        match *self {}
    }
}

/// Never any: a scene's bodies and hinges are not run in this build (the preset loader and
/// `World::from_state` refuse scenes that have them; a scene built in code runs without them).
impl FromScene for Option<Bodies> {
    fn from_scene(_scene: &Scene) -> Self {
        None
    }
}

impl Subsystem for Bodies {
    fn name(&self) -> &'static str {
        match *self {}
    }

    fn is_active(&self) -> bool {
        match *self {}
    }
}
