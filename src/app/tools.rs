//! The mouse's tools and the box's tilt, without any window types: which tool is in hand, what
//! the mouse asks of a simulation frame, and how a drawn wall is fitted between the walls.

use crate::sim::portable::Ordered;
use crate::sim::{Stir, World};
use glam::Vec2;

/// What the left mouse button does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Drag to push the liquid along (the default).
    Stir,
    /// Hold to pour the selected material from the ring.
    Pour,
    /// Hold to remove the particles under the ring.
    Erase,
    /// Drag to lay a capsule wall; click an obstacle to remove it.
    Draw,
    /// Press on a rigid body to take hold of it, drag to pull it along, let go to throw it.
    Grab,
}

impl Tool {
    /// Its name in the HUD.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Stir => "stir",
            Tool::Pour => "pour",
            Tool::Erase => "erase",
            Tool::Draw => "draw",
            Tool::Grab => "grab",
        }
    }
}

/// Fastest the arrow keys turn gravity, in radians per second.
pub const TILT_SPEED: f32 = 0.8;

/// Furthest gravity may turn either way: a full turn.
pub const MAX_TILT: f32 = std::f32::consts::TAU;

/// A drawn wall's radius as a share of the ring's.
pub const DRAW_THICKNESS: f32 = 0.25;

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
    /// Pull the held body toward this point (grab tool, while a body is held).
    pub drag: Option<Vec2>,
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
}
