//! Every pair of the palette's materials, poured into each other in a small box with air and
//! stirred at random for 10 s, stays calm: no NaN, nothing escapes, the fastest particle stays
//! under the move cap's speed (`cfl` h a substep at the most substeps), and no reaction runs
//! away: the particles' heat changes by what the heat's books say its reactions, burning,
//! phase changes and air brought or took (`HeatBooks`), to 1e-3. The library's extremes are among
//! them: lava at 1000 °C on ice at −10, stone and wood that hold still, sand, springs of rock and
//! jelly, slime's stickiness, mud's viscosity.

use crate::common::box_walls;
use rayon::prelude::*;
use slosh::preset::library::library;
use slosh::preset::Preset;
use slosh::sim::numerics::portable::Ordered as _;
use slosh::sim::subsystems::heat;
use slosh::sim::{RandomStirrer, World};

/// A 3 × 2 box with air that neither cools nor takes heat from the liquid: a block of `a` on
/// the floor and a block of `b` (`a` again, when they are the same) dropped onto it.
fn pair_scene(a: &str, b: &str) -> String {
    let walls = box_walls(3.0, 2.0);
    let second = if a == b {
        String::new()
    } else {
        format!("[[materials]]\nname = \"{b}\"\n")
    };
    format!(
        "name = \"pair\"\ndescription = \"two library materials\"\n\
         [params]\nframe_rate = 20\nsubsteps = 7\nmax_particles = 600\n{walls}\
         [[materials]]\nname = \"{a}\"\n{second}\
         [[blocks]]\nmaterial = \"{a}\"\nmin = [0.3, 0.05]\nmax = [2.7, 0.5]\nspacing = 0.1\n\
         [[blocks]]\nmaterial = \"{b}\"\nmin = [1.0, 0.9]\nmax = [2.0, 1.4]\nspacing = 0.1\n\
         [air]\ncolumns = 16\ncooling = 0.0\nsurface_exchange = 0.0\n"
    )
}

/// What one pair's run came to.
struct Outcome {
    pair: String,
    problems: Vec<String>,
    /// The fastest particle over the run, as a share of the move cap's speed.
    speed_share: f32,
    /// The relative change over the run of the particles' heat less what the heat's books say
    /// was brought or taken (in a world with heat).
    heat_error: Option<f64>,
}

/// Runs the pair `a`, `b` for 10 s of random stirring.
fn run_pair(a: &str, b: &str) -> Outcome {
    let pair = format!("{a} + {b}");
    let mut world = Preset::parse("pair.toml", &pair_scene(a, b))
        .unwrap_or_else(|error| panic!("{pair}: {error}"))
        .build_world(1);
    let p = world.params();
    let cap = p.cfl * p.interaction_radius * p.frame_rate * p.max_substeps as f32;
    // The particles' heat less what the heat's books say its processes brought or took.
    let unbooked = |world: &World| {
        let books = world.heat_books()?;
        Some(heat::totals(world.particles(), world.materials()).total - books.total())
    };
    let start = unbooked(&world);
    let mut stirrer = RandomStirrer::new(7);
    let (mut problems, mut fastest) = (Vec::new(), 0.0f32);
    for frame in 0..200 {
        if let Some(stir) = stirrer.next(&world) {
            world.stir(stir);
        }
        world.step_frame();
        let stats = world.stats();
        fastest = fastest.at_least(stats.max_speed);
        if stats.nan > 0 || stats.escaped > 0 {
            problems.push(format!("frame {frame}: {stats:?}"));
            break;
        }
    }
    if fastest > cap * 1.001 {
        problems.push(format!("fastest {fastest} m/s over the cap {cap}"));
    }
    let end = unbooked(&world);
    let heat_error = start
        .zip(end)
        .map(|(start, end)| ((end - start) / start.abs().at_least(1.0)).abs());
    if heat_error.is_some_and(|error| error > 1e-3) {
        problems.push(format!(
            "heat less its books {start:?} -> {end:?}: {:?}",
            world.heat_books()
        ));
    }
    Outcome {
        pair,
        problems,
        speed_share: fastest / cap,
        heat_error,
    }
}

/// Every unordered pair of library materials, and each with itself.
#[test]
fn every_pair_of_palette_materials_stays_calm_when_stirred() {
    let names: Vec<&str> = library()
        .materials()
        .iter()
        .map(|m| m.name.as_str())
        .collect();
    let pairs: Vec<(&str, &str)> = (0..names.len())
        .flat_map(|i| (i..names.len()).map(move |j| (i, j)))
        .map(|(i, j)| (names[i], names[j]))
        .collect();
    let outcomes: Vec<Outcome> = pairs.par_iter().map(|&(a, b)| run_pair(a, b)).collect();
    let fastest = outcomes
        .iter()
        .max_by(|x, y| x.speed_share.total_cmp(&y.speed_share))
        .expect("pairs");
    let worst_heat = outcomes
        .iter()
        .filter_map(|o| o.heat_error.map(|error| (error, &o.pair)))
        .max_by(|x, y| x.0.total_cmp(&y.0));
    // Most pairs have heat (all but those of materials that neither conduct nor change), the
    // reacting, burning and melting ones among them.
    let checked: Vec<&str> = (outcomes.iter())
        .filter(|o| o.heat_error.is_some())
        .map(|o| o.pair.as_str())
        .collect();
    for pair in [
        "water + lava",
        "water + ice",
        "oil + lava",
        "water + sand",
        "lava + wood",
    ] {
        assert!(checked.contains(&pair), "{pair}'s heat is checked");
    }
    println!(
        "{} pairs; fastest: {} at {:.3} of the cap; heat checked in {}, worst error: {worst_heat:?}",
        outcomes.len(),
        fastest.pair,
        fastest.speed_share,
        checked.len()
    );
    assert!(checked.len() * 3 > outcomes.len() * 2, "{checked:?}");
    let problems: Vec<String> = outcomes
        .iter()
        .flat_map(|o| o.problems.iter().map(move |p| format!("{}: {p}", o.pair)))
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
