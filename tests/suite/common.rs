//! Helpers shared by the integration tests.
#![allow(
    dead_code,
    reason = "each module uses some of the helpers, and fewer without the default features"
)]

use glam::Vec2;
use slosh::preset::Preset;
use slosh::sim::{SpringList, Wall, World};
use std::collections::{HashMap, HashSet};

/// `run` on a rayon pool of `threads` threads (the results must not depend on the count).
pub fn on_threads<T: Send>(threads: usize, run: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
        .install(run)
}

/// The world that preset `text` builds with seed 1, for the tests that write their scene as
/// preset text (the text must parse).
pub fn world_from(text: &str) -> World {
    Preset::parse("test.toml", text).unwrap().build_world(1)
}

/// Steps `world` on by `frames` frames: lets a scene settle or run before a test looks at it.
pub fn step_frames(world: &mut World, frames: usize) {
    for _ in 0..frames {
        world.step_frame();
    }
}

/// The `[[walls]]` of a box from (0, 0) to (`width`, `height`), as preset text: the four tables
/// one after the other.
pub fn box_walls(width: f32, height: f32) -> String {
    box_wall_tables(width, height).concat()
}

/// The walls of `box_walls` laid out as in a preset file, a blank line between two tables (for the
/// texts whose lines the tests count or break one at a time).
pub fn box_walls_spaced(width: f32, height: f32) -> String {
    box_wall_tables(width, height).join("\n")
}

/// The four `[[walls]]` tables of `box_walls`: left, floor, right, ceiling.
fn box_wall_tables(width: f32, height: f32) -> [String; 4] {
    [
        (1.0, 0.0, 0.0),
        (0.0, 1.0, 0.0),
        (-1.0, 0.0, -width),
        (0.0, -1.0, -height),
    ]
    .map(|(x, y, offset): (f32, f32, f32)| {
        format!("[[walls]]\nnormal = [{x:?}, {y:?}]\noffset = {offset:?}\n")
    })
}

/// The four walls of the rectangle from `min` to `max`, facing in (left, floor, right, ceiling),
/// for the tests that build a `Domain` without a preset.
pub fn rectangle_walls(min: Vec2, max: Vec2) -> Vec<Wall> {
    vec![
        Wall::new(Vec2::X, min.x),
        Wall::new(Vec2::Y, min.y),
        Wall::new(-Vec2::X, -max.x),
        Wall::new(-Vec2::Y, -max.y),
    ]
}

/// The springs, each once, as pairs of particle ids (the lower id first).
pub fn spring_pairs(world: &World) -> HashSet<(u32, u32)> {
    let lists: Vec<SpringList> = world.state().subsystem("springs").unwrap_or_default();
    lists
        .iter()
        .flat_map(|list| {
            list.springs
                .iter()
                .map(move |spring| (list.id, spring.other))
        })
        .filter(|(id, other)| id < other)
        .collect()
}

/// The sizes of the pieces the particles at `points` make, two particles being of one piece when
/// closer than `link` (the jets test's pieces of a stream, the elastic test's pieces of a jelly).
pub fn piece_sizes(points: &[Vec2], link: f32) -> Vec<usize> {
    let cell = |x: Vec2| ((x.x / link).floor() as i32, (x.y / link).floor() as i32);
    let mut cells: HashMap<(i32, i32), Vec<usize>> = HashMap::new();
    for (i, &x) in points.iter().enumerate() {
        cells.entry(cell(x)).or_default().push(i);
    }
    let mut seen = vec![false; points.len()];
    let mut sizes = Vec::new();
    for start in 0..points.len() {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let (mut stack, mut size) = (vec![start], 0);
        while let Some(i) = stack.pop() {
            size += 1;
            let (cx, cy) = cell(points[i]);
            for dx in -1..=1 {
                for dy in -1..=1 {
                    for &j in cells.get(&(cx + dx, cy + dy)).into_iter().flatten() {
                        if !seen[j] && (points[j] - points[i]).length() < link {
                            seen[j] = true;
                            stack.push(j);
                        }
                    }
                }
            }
        }
        sizes.push(size);
    }
    sizes
}
