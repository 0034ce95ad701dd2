//! Rigid bodies without any window: a raft and a barrel added in code to the dam break, a throw,
//! and where they are each second.
//!
//!     cargo run --release --no-default-features --features bodies --example floating

use glam::Vec2;
use slosh::preset::Preset;
use slosh::sim::{Body, BodyShape, Part, World};

fn main() -> Result<(), slosh::preset::PresetError> {
    // Any preset's scene can take bodies: density is relative to water (0.5 floats half under).
    let mut scene = Preset::load("dam")?.scene;
    let raft = Part::new(BodyShape::Box {
        half_size: Vec2::new(0.8, 0.15),
    });
    scene
        .bodies
        .push(Body::new("raft", vec![raft], Vec2::new(3.0, 6.0), 0.5));
    let barrel = Part::new(BodyShape::Circle { radius: 0.35 });
    let mut barrel = Body::new("barrel", vec![barrel], Vec2::new(6.0, 6.5), 0.8);
    barrel.colour = [0.45, 0.3, 0.2];
    scene.bodies.push(barrel);
    let mut world = World::new(scene, 1);

    let frame_rate = world.params().frame_rate as usize;
    for second in 1..=6 {
        if second == 4 {
            // A throw from code: the barrel (index 2: the dam's own crate is 0) flies left.
            world
                .throw_body(2, Vec2::new(-8.0, 5.0), 3.0)
                .expect("the barrel exists");
        }
        for _ in 0..frame_rate {
            world.step_frame();
        }
        let bodies = world.bodies().expect("the scene has bodies");
        let line: Vec<String> = bodies
            .specs()
            .iter()
            .zip(bodies.states())
            .map(|(body, state)| {
                format!(
                    "{} at ({:5.2}, {:4.2})",
                    body.name, state.position.x, state.position.y
                )
            })
            .collect();
        println!("{second} s: {}", line.join(", "));
    }
    Ok(())
}
