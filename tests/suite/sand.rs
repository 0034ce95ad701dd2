//! Sand (`friction_angle`, `sim::subsystems::granular`): a pile poured from a point stands at its
//! friction angle at its own count and at four times the particles; sand poured into a pool
//! should sink and stay under the water (ignored: it does not yet, see the test).
//! `docs/PHYSICS.md` ("Sand") has the figures.

use crate::common::world_from;
use glam::Vec2;
use slosh::preset::Preset;
use slosh::sim::numerics::portable::{angle_of, Ordered};

/// A floor 8 wide, sand of `angle` degrees poured from a point 2.6 above its middle: 400
/// particles at the file's radius (0.05).
fn pile_scene(angle: f32) -> String {
    format!(
        "name = \"pile\"\ndescription = \"a pile\"\n\
         [params]\nframe_rate = 20\nsubsteps = 7\nmax_particles = 2000\n{walls}\
         [[materials]]\nname = \"sand\"\ncolour = [0.8, 0.7, 0.4]\nmass = 2.0\n\
         friction_angle = {angle:?}\n\
         [[emitters]]\nmaterial = \"sand\"\nposition = [4.0, 2.6]\ndirection = [0.0, -1.0]\n\
         width = 0.2\nspeed = 0.5\ndelay = 0.0\nrate = 20.0\nbudget = 400\n",
        walls = crate::common::box_walls(8.0, 4.0),
    )
}

/// The slope of each side of a pile in degrees, from the particles: in bands two radii high
/// between 20% and 80% of the pile's height (its top: the highest but the top 0.5%), the
/// outermost particle on each side; a line fitted through them by least squares.
fn pile_angles(points: &[Vec2], radius: f32) -> [f32; 2] {
    let mut heights: Vec<f32> = points.iter().map(|p| p.y).collect();
    heights.sort_by(f32::total_cmp);
    let height = heights[heights.len() - 1 - heights.len() / 200];
    let centre = points.iter().map(|p| p.x).sum::<f32>() / points.len() as f32;
    let band = 2.0 * radius;
    let mut sides = [Vec::new(), Vec::new()];
    let mut y = 0.2 * height;
    while y + band <= 0.8 * height {
        let across = points
            .iter()
            .filter(|p| p.y >= y && p.y < y + band)
            .map(|p| p.x - centre);
        let (left, right) = across.fold((0.0_f32, 0.0_f32), |(left, right), x| {
            (left.at_most(x), right.at_least(x))
        });
        sides[0].push(Vec2::new(-left, y + 0.5 * band));
        sides[1].push(Vec2::new(right, y + 0.5 * band));
        y += band;
    }
    sides.map(|side| {
        let n = side.len() as f32;
        let mean = side.iter().copied().sum::<Vec2>() / n;
        let (mut cross, mut spread) = (0.0, 0.0);
        for point in &side {
            let d = *point - mean;
            cross += d.x * d.y;
            spread += d.y * d.y;
        }
        // How far out the surface goes per unit of height (negative: it narrows upward).
        let out_per_up = cross / spread;
        angle_of(Vec2::new(-out_per_up, 1.0)).to_degrees()
    })
}

/// The pile of sand of `angle` degrees at `scale` times the file's particles, after 20 s:
/// the angle of each side and the particles it has.
fn pour_pile(angle: f32, scale: f32) -> ([f32; 2], usize) {
    let preset = Preset::parse("pile.toml", &pile_scene(angle)).unwrap();
    let preset = preset.at_radius(0.05 / scale.sqrt()).unwrap();
    let mut world = preset.build_world(1);
    for _ in 0..400 {
        world.step_frame();
    }
    let radius = world.params().particle_radius;
    let particles = world.particles();
    (pile_angles(&particles.position, radius), particles.len())
}

/// A pile poured from a point stands at its friction angle: the mean of its two sides within
/// 4° of it, at 25° and 35°, with 400 and with 1,600 particles (the four piles on both cores).
///
/// Measured (left, right: mean): 25° stands at 32.5° and 23.1°: 27.8° with 400 particles, 23.7°
/// with 1,600; 35° at 41.3° and 32.8°: 37.0°, and 36.9° (`docs/PHYSICS.md`, "Sand"). Six seconds
/// on two cores.
#[test]
fn a_poured_pile_stands_at_its_friction_angle_at_one_and_four_times_the_particles() {
    let cases = [(25.0, 1.0), (35.0, 1.0), (25.0, 4.0), (35.0, 4.0)];
    let results: Vec<([f32; 2], usize)> = std::thread::scope(|scope| {
        let handles: Vec<_> = cases
            .iter()
            .map(|&(angle, scale)| scope.spawn(move || pour_pile(angle, scale)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut problems = Vec::new();
    for (&(angle, scale), &(sides, particles)) in cases.iter().zip(&results) {
        let mean = 0.5 * (sides[0] + sides[1]);
        let line = format!(
            "{angle}° at {scale}x ({particles} particles): sides {:.1}° and {:.1}°, mean {mean:.1}°",
            sides[0], sides[1]
        );
        println!("{line}");
        if (mean - angle).abs() > 4.0 {
            problems.push(line);
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Sand poured into a pool of water sinks to the floor and stays there: after 12 s every grain
/// lies below the water's surface, and the grains' mean height is in the lowest third of the
/// pool. It fails today on the first: after 12 s the grains' mean is at 0.50, in the lowest
/// third (the surface is at 1.87), but a hanging chain of 16 grains at the surface (the highest
/// at 1.97), held by their anchors in the world, and 4 grains on the right-hand wall above the
/// bed stay where they are to 40 s; `docs/PHYSICS.md`, "Sand", known gaps.
#[test]
#[ignore = "a few grains still float on the water's surface and stay on a wall"]
fn sand_poured_into_a_pool_sinks_and_stays_under_the_water() {
    let text = format!(
        "name = \"pool\"\ndescription = \"sand into water\"\n\
         [params]\nframe_rate = 20\nsubsteps = 7\nmax_particles = 2000\n{walls}\
         [[materials]]\nname = \"water\"\ncolour = [0.2, 0.4, 0.9]\nmass = 1.0\n\
         [[materials]]\nname = \"sand\"\ncolour = [0.8, 0.7, 0.4]\nmass = 2.0\n\
         friction_angle = 30.0\n\
         [[blocks]]\nmaterial = \"water\"\nmin = [0.1, 0.1]\nmax = [3.9, 1.5]\nspacing = 0.1\n\
         [[emitters]]\nmaterial = \"sand\"\nposition = [2.0, 2.6]\ndirection = [0.0, -1.0]\n\
         width = 0.3\nspeed = 0.5\ndelay = 0.0\nrate = 20.0\nbudget = 150\n",
        walls = crate::common::box_walls(4.0, 3.0),
    );
    let mut world = world_from(&text);
    for _ in 0..240 {
        world.step_frame();
    }
    let particles = world.particles();
    let heights = |material: u16| -> Vec<f32> {
        (0..particles.len())
            .filter(|&i| particles.material[i] == material)
            .map(|i| particles.position[i].y)
            .collect()
    };
    let (water, sand) = (heights(0), heights(1));
    assert_eq!(sand.len(), 150, "every grain was poured");
    let surface = water.iter().copied().fold(0.0, f32::at_least);
    let highest_grain = sand.iter().copied().fold(0.0, f32::at_least);
    let mean_grain = sand.iter().sum::<f32>() / sand.len() as f32;
    println!(
        "water's surface {surface:.2}, highest grain {highest_grain:.2}, mean {mean_grain:.2}"
    );
    assert!(
        highest_grain < surface,
        "a grain at {highest_grain} above the water's surface at {surface}"
    );
    assert!(
        mean_grain < surface / 3.0,
        "the grains' mean height {mean_grain} is not in the pool's lowest third ({surface})"
    );
}
