//! A body the game integrates itself, coupled with the liquid through `Coupling`: it floats at
//! the depth Archimedes gives, and no particle stays inside it.

use crate::common::{box_walls, world_from};
use glam::Vec2;
use slosh::sim::physics::water_density;
use slosh::sim::{Coupled, Coupling, Part, Substep, Taken, World};

/// A box of the game's own: it falls under gravity and takes the liquid's impulses, and turns.
struct Crate {
    position: Vec2,
    velocity: Vec2,
    angle: f32,
    spin: f32,
    half: Vec2,
    mass: f32,
    inertia: f32,
}

impl Crate {
    fn shape(&self) -> Part {
        Part::new(slosh::sim::BodyShape::Box {
            half_size: self.half,
        })
        .placed(self.position, self.angle)
    }
}

impl Coupling for Crate {
    /// The game's own step of one substep, then its shape.
    fn bodies(&mut self, substep: &Substep, out: &mut Vec<Coupled>) {
        self.velocity += substep.gravity * substep.dt;
        self.position += self.velocity * substep.dt;
        self.angle += self.spin * substep.dt;
        out.push(Coupled {
            body: 0,
            shape: self.shape(),
            centre: self.position,
            velocity: self.velocity,
            angular_velocity: self.spin,
            friction: 0.0,
        });
    }

    fn take(&mut self, body: usize, taken: Taken) {
        assert_eq!(body, 0);
        self.velocity += taken.impulse / self.mass;
        self.spin += taken.angular / self.inertia;
    }
}

/// An 8 × 6 box with water 2.5 deep.
fn pool() -> World {
    let walls = box_walls(8.0, 6.0);
    world_from(&format!(
        r#"
name = "pool"
description = "a pool for a game's own body"
[params]
max_particles = 4000
{walls}[[materials]]
name = "water"
[[blocks]]
material = "water"
min = [0.1, 0.1]
max = [7.9, 2.6]
spacing = 0.1
"#
    ))
}

#[test]
fn a_game_body_of_half_the_waters_density_floats_half_under() {
    let mut world = pool();
    let half = Vec2::new(0.8, 0.3);
    let mass = 0.5 * water_density(world.params()) * 4.0 * half.x * half.y;
    let mut body = Crate {
        position: Vec2::new(4.0, 3.5),
        velocity: Vec2::ZERO,
        angle: 0.0,
        spin: 0.0,
        half,
        mass,
        inertia: mass * (half.x * half.x + half.y * half.y) / 3.0,
    };
    let radius = world.params().particle_radius;
    let mut drafts = Vec::new();
    for frame in 0..200 {
        world.step_frame_with(&mut body);
        let shape = body.shape();
        let p = world.particles();
        let inside = (0..p.len())
            .filter(|&i| shape.surface(p.position[i]).0 < -radius)
            .count();
        assert!(
            inside <= 2,
            "frame {frame}: {inside} particles deep inside the body"
        );
        if frame >= 140 {
            let p = world.particles();
            let mut heights: Vec<f32> = (0..p.len())
                .filter(|&i| (p.position[i].x - body.position.x).abs() > 1.5)
                .map(|i| p.position[i].y)
                .collect();
            heights.sort_by(f32::total_cmp);
            let surface = heights[heights.len() * 95 / 100] + radius;
            drafts.push(surface - (body.position.y - half.y));
        }
    }
    let draft = drafts.iter().sum::<f32>() / drafts.len() as f32;
    println!(
        "draft {draft:.3} of {:.3}, at {}",
        2.0 * half.y,
        body.position
    );
    assert!((draft / half.y - 1.0).abs() < 0.25, "draft {draft}");
    assert!(
        body.velocity.length() < 0.3 && body.angle.abs() < 0.3,
        "calm: {}",
        body.velocity
    );
    assert!((body.position.x - 4.0).abs() < 1.0);
}

#[test]
fn no_bodies_is_the_plain_step() {
    let (mut plain, mut coupled) = (pool(), pool());
    for _ in 0..10 {
        plain.step_frame();
        coupled.step_frame_with(&mut ());
    }
    assert_eq!(plain.checksum(), coupled.checksum());
}
