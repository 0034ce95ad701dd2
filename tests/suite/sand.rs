//! Sand (`friction_angle`, `sim::subsystems::granular`): a pile poured from a point stands at its
//! friction angle at its own count and at four times the particles; sand poured into a pool
//! sinks and stays under the water; an hourglass of it empties at a steady rate where water
//! slows; it holds on a gentle ramp and runs down a steep one.
//! `docs/PHYSICS.md` ("Sand") has the figures.

use crate::common::world_from;
use glam::Vec2;
use slosh::preset::Preset;
use slosh::sim::numerics::portable::{angle_of, Ordered};

/// A floor 8 wide, sand of `angle` degrees poured from a point 2.6 above it, `off` to the side
/// of its middle: 400 particles at the file's radius (0.05).
fn pile_scene(angle: f32, off: f32) -> String {
    format!(
        "name = \"pile\"\ndescription = \"a pile\"\n\
         [params]\nframe_rate = 20\nsubsteps = 7\nmax_particles = 2000\n{walls}\
         [[materials]]\nname = \"sand\"\ncolour = [0.8, 0.7, 0.4]\nmass = 2.0\n\
         friction_angle = {angle:?}\n\
         [[emitters]]\nmaterial = \"sand\"\nposition = [{x:?}, 2.6]\ndirection = [0.0, -1.0]\n\
         width = 0.2\nspeed = 0.5\ndelay = 0.0\nrate = 20.0\nbudget = 400\n",
        walls = crate::common::box_walls(8.0, 4.0),
        x = 4.0 + off,
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

/// The pile of sand of `angle` degrees at `scale` times the file's particles, poured `off` to
/// the side of the floor's middle, after 20 s: the angle of each side.
fn pour_pile(angle: f32, scale: f32, off: f32) -> [f32; 2] {
    let preset = Preset::parse("pile.toml", &pile_scene(angle, off)).unwrap();
    let preset = preset.at_radius(0.05 / scale.sqrt()).unwrap();
    let mut world = preset.build_world(1);
    for _ in 0..400 {
        world.step_frame();
    }
    let radius = world.params().particle_radius;
    let particles = world.particles();
    pile_angles(&particles.position, radius)
}

/// A pile poured from a point stands at its friction angle: the mean of its sides within 4° of
/// it, at 25° and 35°, with 400 and with 1,600 particles. One pile of 400 grains is a dozen
/// grains high: its two sides differ by up to 9°, and moving the pour by a few centimetres
/// moves their mean by up to 8°. So the angle at each count is the mean over piles poured at
/// eight points near the middle (two at 1,600, whose sides agree within 3°). Twenty piles, on
/// both cores.
///
/// Measured, the means: 25° stands at 25.7° with 400 particles and 24.1° with 1,600; 35° at
/// 36.7° and 34.3°. The single piles of 400 stand at 23.0° to 27.9° (25°) and 32.0° to 39.9°
/// (35°) (`docs/PHYSICS.md`, "Sand"). Fifteen seconds on two cores.
#[test]
fn a_poured_pile_stands_at_its_friction_angle_at_one_and_four_times_the_particles() {
    let pours: [(f32, &[f32]); 2] = [
        (1.0, &[0.0, 0.03, -0.07, 0.11, -0.03, 0.07, -0.11, 0.05]),
        (4.0, &[0.0, 0.03]),
    ];
    let cases: Vec<(f32, f32, f32)> = [25.0, 35.0]
        .into_iter()
        .flat_map(|angle| {
            pours
                .iter()
                .flat_map(move |&(scale, offs)| offs.iter().map(move |&off| (angle, scale, off)))
        })
        .collect();
    let results: Vec<[f32; 2]> = std::thread::scope(|scope| {
        let handles: Vec<_> = cases
            .iter()
            .map(|&(angle, scale, off)| scope.spawn(move || pour_pile(angle, scale, off)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut problems = Vec::new();
    for angle in [25.0, 35.0] {
        for (scale, _) in pours {
            let piles: Vec<(f32, [f32; 2])> = cases
                .iter()
                .zip(&results)
                .filter(|(case, _)| case.0 == angle && case.1 == scale)
                .map(|(case, &sides)| (case.2, sides))
                .collect();
            let mean =
                piles.iter().flat_map(|(_, sides)| sides).sum::<f32>() / (2 * piles.len()) as f32;
            let sides: Vec<String> = piles
                .iter()
                .map(|(off, sides)| format!("{:.1}° and {:.1}° at {off:+}", sides[0], sides[1]))
                .collect();
            let line = format!(
                "{angle}° at {scale}x: mean {mean:.1}° (sides {})",
                sides.join(", ")
            );
            println!("{line}");
            if (mean - angle).abs() > 4.0 {
                problems.push(line);
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Sand poured into a pool of water sinks to the floor and stays there: after 12 s every grain
/// lies below the water's surface, and the grains' mean height is in the lowest third of the
/// pool. Measured: the highest grain at 1.00 with the surface at 1.91, the mean at 0.39. Before
/// the liquid's near pressure was given back to the grains, single grains rested on the
/// surface (at 1.94 to 1.97) as on a floor; `docs/PHYSICS.md`, "Sand in water". The sand is a
/// material of the test's own (`grit`), which the library's water does not soak into wet sand.
#[test]
fn sand_poured_into_a_pool_sinks_and_stays_under_the_water() {
    let text = format!(
        "name = \"pool\"\ndescription = \"sand into water\"\n\
         [params]\nframe_rate = 20\nsubsteps = 7\nmax_particles = 2000\n{walls}\
         [[materials]]\nname = \"water\"\ncolour = [0.2, 0.4, 0.9]\nmass = 1.0\n\
         [[materials]]\nname = \"grit\"\ncolour = [0.8, 0.7, 0.4]\nmass = 2.0\n\
         friction_angle = 30.0\n\
         [[blocks]]\nmaterial = \"water\"\nmin = [0.1, 0.1]\nmax = [3.9, 1.5]\nspacing = 0.1\n\
         [[emitters]]\nmaterial = \"grit\"\nposition = [2.0, 2.6]\ndirection = [0.0, -1.0]\n\
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

/// An hourglass's upper bulb: a silo 4 wide and 7.4 high, its sides the walls, over a funnel of
/// two capsules down to a neck 0.5 wide (as the `hourglass` preset's), 16 above the floor (so
/// that the pile below never reaches the neck), filled by a block of `material` (`friction_angle`
/// of `angle` degrees, 0 for water) at particle radius `radius`: how many particles it held at
/// the start and the times at which 80%, 60%, 40% and 20% of them were still above the neck.
/// `None` for a time not reached in 60 s.
fn empty_the_funnel(angle: f32, mass: f32, radius: f32) -> (usize, Vec<Option<f32>>) {
    let text = format!(
        "name = \"hourglass\"\ndescription = \"a funnel emptying\"\n\
         [params]\nframe_rate = 20\nsubsteps = 7\nmax_particles = 8000\n{walls}\
         [[materials]]\nname = \"grains\"\ncolour = [0.8, 0.7, 0.4]\nmass = {mass:?}\n\
         friction_angle = {angle:?}\n\
         [[obstacles]]\nkind = \"capsule\"\na = [0.18, 18.0]\nb = [1.67, 16.0]\nradius = 0.08\n\
         [[obstacles]]\nkind = \"capsule\"\na = [3.82, 18.0]\nb = [2.33, 16.0]\nradius = 0.08\n\
         [[blocks]]\nmaterial = \"grains\"\nmin = [0.1, 18.2]\nmax = [3.9, 25.6]\nspacing = 0.1\n",
        walls = crate::common::box_walls(4.0, 26.0),
    );
    let preset = Preset::parse("hourglass.toml", &text).unwrap();
    let mut world = preset.at_radius(radius).unwrap().build_world(1);
    let above = |world: &slosh::sim::World| {
        world
            .particles()
            .position
            .iter()
            .filter(|p| p.y > 15.9)
            .count()
    };
    let full = above(&world);
    let marks = [0.8, 0.6, 0.4, 0.2];
    let mut times = vec![None; marks.len()];
    for frame in 1..=1200 {
        world.step_frame();
        let left = above(&world) as f32 / full as f32;
        for (time, &mark) in times.iter_mut().zip(&marks) {
            if time.is_none() && left <= mark {
                *time = Some(frame as f32 / 20.0);
            }
        }
        if times.iter().all(Option::is_some) {
            break;
        }
    }
    (full, times)
}

/// An hourglass of sand empties at a steady rate whatever its fill (Beverloo et al. 1961): the
/// rate in each fifth of its content from 80% to 20% full lies within 15% of their mean. The same
/// funnel of water slows as its head falls (Torricelli): its rate over the last of those fifths
/// is at most 0.7 of its rate over the first (2,812 particles, at the file's radius; 10 s).
///
/// Measured, particles a second over the three fifths: sand 60, 62, 55 (Beverloo's law gives
/// about 65 through this neck); water 562, 489, 296. The grains hand the friction that holds
/// them down to the grains under them, so the funnel's walls carry the head's weight and the
/// pressure at the neck stops growing with it (`docs/PHYSICS.md`, "Sand").
#[test]
fn an_hourglass_of_sand_empties_steadily_where_water_slows() {
    let rates = |times: &[Option<f32>], full: usize| -> Vec<f32> {
        let times: Vec<f32> = times
            .iter()
            .map(|t| t.expect("the funnel emptied to 20% in 60 s"))
            .collect();
        times
            .windows(2)
            .map(|pair| 0.2 * full as f32 / (pair[1] - pair[0]))
            .collect()
    };
    let (sand_full, sand_times) = empty_the_funnel(30.0, 2.0, 0.05);
    let (water_full, water_times) = empty_the_funnel(0.0, 1.0, 0.05);
    println!("at 80%, 60%, 40% and 20% full: sand {sand_times:?} s, water {water_times:?} s");
    let sand = rates(&sand_times, sand_full);
    let water = rates(&water_times, water_full);
    println!("sand: {sand:?} of {sand_full} a second; water: {water:?} of {water_full}");
    let mean = sand.iter().sum::<f32>() / sand.len() as f32;
    assert!(
        sand.iter().all(|rate| (rate - mean).abs() <= 0.15 * mean),
        "the sand's rate strays more than 15% from its mean {mean}: {sand:?}"
    );
    assert!(
        water[2] <= 0.7 * water[0],
        "the water does not slow by 30%: {water:?}"
    );
}

/// How many of 150 grains of 30° sand poured onto the high end of a drawn wall (a capsule 0.1
/// thick) that falls `drop` over 5 to the right still lie on it after 10 s.
fn left_on_a_ramp(drop: f32) -> usize {
    let top = 1.0 + drop;
    let text = format!(
        "name = \"ramp\"\ndescription = \"sand on a ramp\"\n\
         [params]\nframe_rate = 20\nsubsteps = 7\nmax_particles = 2000\n{walls}\
         [[materials]]\nname = \"sand\"\ncolour = [0.8, 0.7, 0.4]\nmass = 2.0\n\
         friction_angle = 30.0\n\
         [[obstacles]]\nkind = \"capsule\"\na = [0.3, {top:?}]\nb = [5.3, 1.0]\nradius = 0.1\n\
         [[emitters]]\nmaterial = \"sand\"\nposition = [1.0, {pour:?}]\n\
         direction = [0.0, -1.0]\nwidth = 0.3\nspeed = 0.5\ndelay = 0.0\nrate = 20.0\n\
         budget = 150\n",
        walls = crate::common::box_walls(8.0, 8.0),
        pour = top + 0.3,
    );
    let mut world = world_from(&text);
    crate::common::step_frames(&mut world, 200);
    let above_the_ramp = |p: &&Vec2| p.x <= 5.3 && p.y > 1.0 + drop * (5.3 - p.x) / 5.0;
    world
        .particles()
        .position
        .iter()
        .filter(above_the_ramp)
        .count()
}

/// Sand holds on a drawn wall by its own friction: poured onto a ramp gentler than its angle of
/// repose (30°) most of it stays there, and down a steeper one it all runs off. Measured: 117 of
/// 150 grains stay on a ramp of 16.7° (the others fall off its high end), none on one of 45°.
#[test]
fn sand_stays_on_a_gentle_ramp_and_runs_down_a_steep_one() {
    let gentle = left_on_a_ramp(1.5);
    let steep = left_on_a_ramp(5.0);
    println!("left on the ramp: {gentle} of 150 at 16.7°, {steep} of 150 at 45°");
    assert!(
        gentle >= 90,
        "only {gentle} of 150 grains stayed on a 16.7° ramp"
    );
    assert!(steep <= 8, "{steep} of 150 grains stayed on a 45° ramp");
}
