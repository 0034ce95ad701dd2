//! A floating box integrated by the game itself, coupled with the liquid without rapier: every
//! substep the game steps its own physics and gives the liquid its box's shape and motion
//! (`Coupling::bodies`), and takes back the impulses the liquid put on it (`Coupling::take`).
//!
//!     cargo run --release --no-default-features --example coupled_box

use glam::Vec2;
use slosh::preset::Preset;
use slosh::sim::physics::water_density;
use slosh::sim::{BodyShape, Coupled, Coupling, Part, Substep, Taken, World};

/// The game's box: a rigid body of its own, with its own integration.
struct FloatingBox {
    position: Vec2,
    velocity: Vec2,
    angle: f32,
    spin: f32,
    half: Vec2,
    mass: f32,
    inertia: f32,
}

impl FloatingBox {
    /// A box of `half` size at `position`, of `density` times the water's.
    fn new(world: &World, position: Vec2, half: Vec2, density: f32) -> Self {
        let mass = density * water_density(world.params()) * 4.0 * half.x * half.y;
        Self {
            position,
            velocity: Vec2::ZERO,
            angle: 0.3,
            spin: 0.0,
            half,
            mass,
            inertia: mass * half.length_squared() / 3.0,
        }
    }

    /// The game's own step of `dt`: gravity and a little air drag, then the motion.
    fn step(&mut self, gravity: Vec2, dt: f32) {
        self.velocity += gravity * dt;
        self.velocity *= 1.0 - 0.1 * dt;
        self.position += self.velocity * dt;
        self.angle += self.spin * dt;
    }
}

impl Coupling for FloatingBox {
    fn bodies(&mut self, substep: &Substep, out: &mut Vec<Coupled>) {
        self.step(substep.gravity, substep.dt);
        let shape = Part::new(BodyShape::Box {
            half_size: self.half,
        });
        out.push(Coupled {
            body: 0,
            shape: shape.placed(self.position, self.angle),
            centre: self.position,
            velocity: self.velocity,
            angular_velocity: self.spin,
            friction: 0.2,
        });
    }

    fn take(&mut self, _body: usize, taken: Taken) {
        self.velocity += taken.impulse / self.mass;
        self.spin += taken.angular / self.inertia;
    }
}

fn main() -> Result<(), slosh::preset::PresetError> {
    // The dam break without its bodies: a box dropped on the reservoir rides the wave.
    let mut world = Preset::load("tank")?.build_world(1);
    let mut body = FloatingBox::new(&world, Vec2::new(3.0, 5.5), Vec2::new(0.7, 0.25), 0.6);
    let dt = 1.0 / world.params().frame_rate;
    for frame in 1..=160 {
        world.step_frame_with(&mut body);
        if frame % 20 == 0 {
            println!(
                "{:4.1} s: box at ({:5.2}, {:4.2}), turned {:5.2} rad, moving {:4.2} m/s",
                frame as f32 * dt,
                body.position.x,
                body.position.y,
                body.angle,
                body.velocity.length()
            );
        }
    }
    assert!(body.position.y > 0.5, "the water holds the box up");
    Ok(())
}
