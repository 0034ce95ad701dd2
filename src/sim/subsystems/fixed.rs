//! Fixed materials: particles that hold still where they are (rock that formed where lava
//! cooled). The move stage puts each back where it started the substep, at rest, so the liquid
//! resting on it is carried (the relaxation pushes the liquid off it, and its own share of the
//! push is dropped) and flows around it. A scene without a fixed material pays nothing.

use crate::sim::scene::{Material, Scene};
use crate::sim::subsystems::{FromScene, Moving, Subsystem};
use glam::Vec2;

/// Which materials hold still.
#[derive(Clone, Debug, Default)]
pub struct Fixed {
    /// Each material's, by index.
    fixed: Vec<bool>,
}

impl Fixed {
    /// The fixed materials of `materials`.
    pub fn new(materials: &[Material]) -> Self {
        Self {
            fixed: materials.iter().map(|m| m.fixed).collect(),
        }
    }

    /// Takes the fixed materials of `materials` (changed at run time).
    pub fn set_materials(&mut self, materials: &[Material]) {
        *self = Self::new(materials);
    }
}

impl FromScene for Fixed {
    fn from_scene(scene: &Scene) -> Self {
        Self::new(&scene.materials)
    }
}

impl Subsystem for Fixed {
    fn name(&self) -> &'static str {
        "fixed"
    }

    fn is_active(&self) -> bool {
        self.fixed.iter().any(|&fixed| fixed)
    }

    fn touches_particles(&self) -> bool {
        true
    }

    fn push_out(&self, particle: &mut Moving) {
        if self.fixed[particle.material] {
            particle.position = particle.start;
            particle.velocity = Vec2::ZERO;
        }
    }
}
