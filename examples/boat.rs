//! A boat that rides the waves: a paddle of the game's own pushes the water at one end of a
//! tank (`World::push`), and the boat, a hull the game integrates itself, is held up and rocked
//! by the liquid through a `Coupling`. Between frames the game asks the liquid where its surface
//! is (`World::surface_height`) to print the wave beside the boat.
//!
//!     cargo run --release --no-default-features --example boat

use glam::Vec2;
use slosh::preset::Preset;
use slosh::sim::physics::water_density;
use slosh::sim::{BodyShape, Coupled, Coupling, Part, Push, Substep, Taken};

/// The hull: a trapezoid, wider at the deck, in the boat's frame (counter-clockwise).
fn hull() -> Part {
    Part::new(BodyShape::Polygon {
        points: vec![
            Vec2::new(-0.6, -0.2),
            Vec2::new(0.6, -0.2),
            Vec2::new(0.9, 0.2),
            Vec2::new(-0.9, 0.2),
        ],
    })
}

/// The boat's rigid motion, integrated by the game.
struct Boat {
    position: Vec2,
    velocity: Vec2,
    angle: f32,
    spin: f32,
    mass: f32,
    inertia: f32,
}

impl Coupling for Boat {
    /// The game's step of the boat through one substep, then its hull where it ends.
    fn bodies(&mut self, substep: &Substep, out: &mut Vec<Coupled>) {
        self.velocity += substep.gravity * substep.dt;
        self.position += self.velocity * substep.dt;
        self.angle += self.spin * substep.dt;
        out.push(Coupled {
            body: 0,
            shape: hull().placed(self.position, self.angle),
            centre: self.position,
            velocity: self.velocity,
            angular_velocity: self.spin,
            friction: 0.1,
        });
    }

    fn take(&mut self, _body: usize, taken: Taken) {
        self.velocity += taken.impulse / self.mass;
        self.spin += taken.angular / self.inertia;
    }
}

fn main() -> Result<(), slosh::preset::PresetError> {
    // A calm tank of water 1.5 deep.
    let text = r#"
        name = "wave tank"
        description = "a long tank of still water"
        [params]
        max_particles = 6000
        [[walls]]
        normal = [1.0, 0.0]
        offset = 0.0
        [[walls]]
        normal = [0.0, 1.0]
        offset = 0.0
        [[walls]]
        normal = [-1.0, 0.0]
        offset = -14.0
        [[walls]]
        normal = [0.0, -1.0]
        offset = -5.0
        [[materials]]
        name = "water"
        [[blocks]]
        material = "water"
        min = [0.1, 0.1]
        max = [13.9, 1.5]
        spacing = 0.1
    "#;
    let mut world = Preset::parse("wave tank.toml", text)?.build_world(1);
    let area = hull().area();
    let mass = 0.4 * water_density(world.params()) * area;
    let mut boat = Boat {
        position: Vec2::new(8.0, 1.7),
        velocity: Vec2::ZERO,
        angle: 0.0,
        spin: 0.0,
        mass,
        inertia: mass * 0.3,
    };
    let dt = 1.0 / world.params().frame_rate;
    let paddle = Part::rect(Vec2::new(0.0, 0.0), Vec2::new(1.0, 1.6));
    for frame in 0..240 {
        // The paddle: a push one way, then the other, every 1.2 s.
        let phase = (frame / 12) % 2;
        let direction = if phase == 0 { 1.0 } else { -1.0 };
        world
            .push(&paddle, Push::Force(Vec2::new(direction * 12.0, 0.0)))
            .expect("a finite force");
        world.step_frame_with(&mut boat);
        // The game's own walls: the boat stays clear of the tank's ends.
        if !(2.0..12.0).contains(&boat.position.x) {
            boat.position.x = boat.position.x.clamp(2.0, 12.0);
            boat.velocity.x *= -0.5;
        }
        if frame % 20 == 19 {
            // The water beside the boat (under it, the surface is the boat's keel).
            let beside = world
                .surface_height(boat.position.x - 1.5)
                .unwrap_or(f32::NAN);
            println!(
                "{:4.1} s: boat at x {:5.2}, keel {:4.2} m, heel {:+5.2} rad; the water beside {:4.2} m",
                (frame + 1) as f32 * dt,
                boat.position.x,
                boat.position.y - 0.2,
                boat.angle,
                beside
            );
        }
    }
    assert!(boat.position.y > 0.8, "afloat: {}", boat.position);
    Ok(())
}
