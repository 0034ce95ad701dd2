//! The engine in a game loop of your own: a macroquad window that steps a `World`, draws its
//! particles and stirs them with the mouse. Everything a game needs to call is here.
//!
//!     cargo run --release --example embed

use macroquad::prelude::*;
use slosh::preset::Preset;
use slosh::sim::numerics::portable::Ordered;
use slosh::sim::{Stir, World};

#[macroquad::main("slosh: embedded")]
async fn main() {
    let mut world: World = Preset::load("dam").expect("embedded preset").build_world(1);
    let frame_time = 1.0 / world.params().frame_rate as f64; // the world's fixed frame
    let mut pending = 0.0;
    let mut last_mouse = None;
    loop {
        // World coordinates to pixels: fit the walls' bounding box into the window.
        let (min, max) = (world.domain().min(), world.domain().max());
        let scale = (screen_width() / (max.x - min.x)).at_most(screen_height() / (max.y - min.y));
        let to_screen = |p: glam::Vec2| {
            vec2(
                (p.x - min.x) * scale,
                screen_height() - (p.y - min.y) * scale,
            )
        };
        let (mx, my) = mouse_position();
        let mouse = glam::Vec2::new(mx / scale + min.x, (screen_height() - my) / scale + min.y);

        // Step at the world's own rate (at most two frames per display frame).
        pending = (pending + get_frame_time() as f64).at_most(2.0 * frame_time);
        while pending >= frame_time {
            pending -= frame_time;
            if is_mouse_button_down(MouseButton::Left) {
                if let Some(last) = last_mouse {
                    let velocity: glam::Vec2 = (mouse - last) / frame_time as f32;
                    world.stir(Stir {
                        position: mouse,
                        velocity,
                        radius: 0.8,
                    });
                }
            }
            last_mouse = Some(mouse);
            world.step_frame();
        }

        clear_background(Color::new(0.1, 0.11, 0.13, 1.0));
        let particles = world.particles();
        let radius = (world.params().particle_radius * scale).at_least(1.0);
        for (position, &material) in particles.position.iter().zip(&particles.material) {
            let [r, g, b] = world.materials()[material as usize].colour;
            let at = to_screen(*position);
            draw_circle(at.x, at.y, radius * 1.5, Color::new(r, g, b, 1.0));
        }
        draw_text("drag to stir, Esc quits", 10.0, 24.0, 22.0, WHITE);
        if is_key_pressed(KeyCode::Escape) {
            break;
        }
        next_frame().await;
    }
}
