//! The events a world finds in a frame, as a game drains them.

use glam::Vec2;

/// One thing that happened in a frame (`World::drain_events`).
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// Liquid that stopped fast in one strip of the box (`IMPACT_BINS` strips across it): a
    /// splash, or a wave against a wall.
    Splash {
        /// Where, weighted by energy.
        position: Vec2,
        /// ½ m |Δv|² of the particles that stopped, beyond what gravity explains.
        energy: f32,
        /// Their mass.
        mass: f32,
        /// The material that put the most energy into it.
        material: usize,
        /// The share of the energy spent against a wall, an obstacle or a body, 0 to 1.
        hard: f32,
    },
    /// A rigid body whose velocity changed sharply (`KNOCK_SPEED`).
    Knock {
        /// The body's index.
        body: usize,
        /// Its centre of mass.
        position: Vec2,
        /// ½ M |Δv|².
        energy: f32,
        /// Against a wall rather than into the liquid.
        wall: bool,
    },
    /// Particles that turned from one material into another in the frame: melting, freezing,
    /// a reaction's products.
    Changed {
        /// The material they were.
        from: usize,
        /// The material they are.
        to: usize,
        /// Their mass.
        mass: f32,
        /// Where, weighted by mass.
        position: Vec2,
    },
    /// Particles that went in the frame: boiled off as vapour (`boiled`), burned out, reacted
    /// into nothing, or erased.
    Gone {
        /// Their material.
        material: usize,
        /// Their mass.
        mass: f32,
        /// Where they were, weighted by mass.
        position: Vec2,
        /// Hot when they went (above `HOT`): boiled or burned away rather than erased.
        boiled: bool,
    },
    /// One of the world's reactions (`World::reactions`, by index) happened `count` times in the
    /// frame.
    Reacted {
        /// The reaction's index.
        reaction: usize,
        /// How many times.
        count: u64,
    },
    /// A particle that caught fire in the frame.
    Ignited {
        /// Its id.
        id: u32,
        /// Where.
        position: Vec2,
    },
    /// Particles that came into or left a sensor in the frame (`World::add_sensor`).
    Sensed {
        /// The sensor's index.
        sensor: usize,
        /// The ids that came in, ascending.
        entered: Vec<u32>,
        /// The ids that left (or went), ascending.
        left: Vec<u32>,
    },
}
