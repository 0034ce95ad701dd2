//! Every value the loader accepts gives a liquid: each field of the table of ranges
//! (`sim::scene::ranges`) swept over its accepted range in the scene that exercises it, 400 frames
//! each or 20 simulated seconds where that is fewer frames (a frame rate of 1 runs 20 frames; its
//! fastest particle then goes 1.5 m/s, against the fall's 13.3).
//!
//! A sweep runs a field at its minimum, its maximum and three values spaced logarithmically
//! between (from the maximum / 1000 when the minimum is 0). Every run must end with no NaN, no
//! particle outside the walls, and:
//! - in a settling scene, its fastest particle under 5 m/s (a pool left alone settles to under
//!   2 m/s in 20 s; a boiling one runs at the move cap, 20 to 84 m/s);
//! - where the liquid may still be falling at the end (a frame rate of 1,000 is 0.4 s in all; a
//!   sticky clump that lets go of the ceiling), under the speed of a fall from the top of the box,
//!   √(2 g H), 13.3 m/s in the 9 m tank;
//! - in the air, the largest divergence left after the projection under 0.1 per second, and for
//!   the confinement a plume that rises;
//! - for bodies, every one inside the walls, and those lighter than half the water floating
//!   above its centroid, those twice as heavy sinking below it.
//!
//! `cargo test --release --test suite ranges_sweep::` runs the extremes (the minimum and the
//! maximum of every field); `-- --ignored` adds the three values between, about 75 s on 2 cores.

use slosh::preset::Preset;
use slosh::sim::World;

/// What a run must end as, besides no NaN and no escape.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Expect {
    /// Fastest particle under 5 m/s.
    Settled,
    /// Fastest particle under the free-fall speed from the top of the box.
    Falling,
    /// Divergence under 0.1 per second at the end.
    Air,
    /// As `Air`, and the smoke's centroid 2 m above its source after 4 s.
    Plume,
    /// Settled, every body inside the walls, floating or sinking as its density says.
    Bodies,
}

/// One field to sweep: the preset, the table (`params`, `air`, every `materials` or `bodies`
/// entry), the key, its accepted range and what each run must end as.
struct Sweep {
    preset: &'static str,
    table: &'static str,
    key: &'static str,
    range: (f32, f32),
    expect: Expect,
}

const fn sweep(
    preset: &'static str,
    table: &'static str,
    key: &'static str,
    range: (f32, f32),
    expect: Expect,
) -> Sweep {
    Sweep {
        preset,
        table,
        key,
        range,
        expect,
    }
}

/// The dam's tank, the preset `dam` without its crate and with its column of water a quarter as
/// wide (1.75 m): the same depth, so the same pressures for the stiffness, density and gravity
/// extremes to hold, in a quarter of the time (about 700 particles instead of 3,000).
const DAM: &str = "dam-without-crate";

/// The fields and their scenes. Gravity is swept as its downward strength (each component is
/// accepted within ±1,000; the diagonal corner is `gravity_at_its_corner`); `substeps` and
/// `frame_rate` keep the liquid's surface tension as `Scene::with_substeps` does (its accepted
/// 30 Δt² shrinks with Δt).
const SWEEPS: &[Sweep] = &[
    sweep(DAM, "params", "stiffness", (0.0, 10.0), Expect::Settled),
    sweep(
        DAM,
        "params",
        "near_stiffness",
        (0.0, 10.0),
        Expect::Settled,
    ),
    sweep(
        DAM,
        "params",
        "surface_tension",
        (0.0, 30.0 / 19600.0),
        Expect::Settled,
    ),
    sweep(
        DAM,
        "params",
        "linear_viscosity",
        (0.0, 100.0),
        Expect::Settled,
    ),
    sweep(
        DAM,
        "params",
        "quadratic_viscosity",
        (0.0, 100.0),
        Expect::Settled,
    ),
    sweep(
        DAM,
        "params",
        "rest_density",
        (5.0, 1000.0),
        Expect::Settled,
    ),
    sweep(
        DAM,
        "params",
        "interaction_radius",
        (0.1, 1.0),
        Expect::Settled,
    ),
    sweep(DAM, "params", "wall_friction", (0.0, 10.0), Expect::Settled),
    sweep(DAM, "params", "gravity", (0.0, 1000.0), Expect::Settled),
    sweep(DAM, "params", "frame_rate", (1.0, 1000.0), Expect::Falling),
    sweep(DAM, "params", "substeps", (1.0, 100.0), Expect::Settled),
    sweep(DAM, "params", "cfl", (0.05, 1.0), Expect::Settled),
    sweep(DAM, "materials", "stiffness", (0.0, 10.0), Expect::Settled),
    sweep(
        DAM,
        "materials",
        "near_stiffness",
        (0.0, 10.0),
        Expect::Settled,
    ),
    sweep(DAM, "materials", "mass", (0.01, 1000.0), Expect::Settled),
    sweep(
        "jelly",
        "materials",
        "spring_stiffness",
        (0.0, 0.05 * 19600.0),
        Expect::Settled,
    ),
    sweep(
        "jelly",
        "materials",
        "yield_ratio",
        (0.0, 1.0),
        Expect::Settled,
    ),
    sweep(
        "jelly",
        "materials",
        "plasticity",
        (0.0, 100.0),
        Expect::Settled,
    ),
    sweep(
        "jelly",
        "materials",
        "spring_radius",
        (0.001, 1.0),
        Expect::Settled,
    ),
    sweep(
        "slime",
        "materials",
        "stickiness",
        (0.0, 1.0e4),
        Expect::Falling,
    ),
    sweep(
        "slime",
        "materials",
        "stick_distance",
        (0.001, 1.0),
        Expect::Falling,
    ),
    sweep("bath", "bodies", "density", (0.05, 100.0), Expect::Bodies),
    sweep("bath", "bodies", "friction", (0.0, 10.0), Expect::Bodies),
    sweep("bath", "bodies", "restitution", (0.0, 1.0), Expect::Bodies),
    sweep(
        "bath",
        "bodies",
        "angular_velocity",
        (0.0, 100.0),
        Expect::Bodies,
    ),
    sweep("smoke", "air", "vorticity", (0.0, 100.0), Expect::Plume),
    sweep("smoke", "air", "heat_lift", (0.0, 100.0), Expect::Air),
    sweep("smoke", "air", "smoke_weight", (0.0, 100.0), Expect::Air),
    sweep("smoke", "air", "drag", (0.0, 1000.0), Expect::Air),
    sweep("smoke", "air", "heating", (0.0, 1000.0), Expect::Air),
    sweep("smoke", "air", "cooling", (0.0, 100.0), Expect::Air),
    sweep("smoke", "air", "smoke_decay", (0.0, 100.0), Expect::Air),
    sweep("smoke", "air", "density", (1.0e-3, 1000.0), Expect::Air),
];

/// The preset's text as a TOML table (for `DAM`, `dam` without its crate and its column halved).
fn table_of(preset: &str) -> toml::Table {
    let name = if preset == DAM { "dam" } else { preset };
    let text = std::fs::read_to_string(format!(
        "{}/assets/presets/{name}.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let mut table: toml::Table = toml::from_str(&text).unwrap();
    if preset == DAM {
        table.remove("bodies");
        let column = table["blocks"].as_array_mut().unwrap()[0]
            .as_table_mut()
            .unwrap();
        column["max"].as_array_mut().unwrap()[0] = number(1.85);
    }
    table
}

fn number(value: f32) -> toml::Value {
    toml::Value::Float(f64::from(value))
}

/// `table` with `key` set to `value` in every entry the sweep names.
fn with_value(mut table: toml::Table, sweep: &Sweep, value: f32) -> toml::Table {
    let set = |entry: &mut toml::Table| {
        let value = match sweep.key {
            "substeps" => toml::Value::Integer(value.round() as i64),
            "gravity" => toml::Value::Array(vec![number(0.0), number(-value)]),
            "angular_velocity" => number(-value),
            _ => number(value),
        };
        entry.insert(sweep.key.into(), value);
    };
    let section = table
        .entry(sweep.table)
        .or_insert_with(|| toml::Value::Table(toml::Table::new()));
    match section {
        toml::Value::Table(entry) => set(entry),
        toml::Value::Array(entries) => {
            for entry in entries {
                set(entry.as_table_mut().unwrap());
            }
        }
        _ => unreachable!(),
    }
    if matches!(sweep.key, "substeps" | "frame_rate") {
        // The same liquid: its tension per substep goes with Δt² (`Scene::with_substeps`).
        let params = table["params"].as_table().unwrap();
        let read = |key: &str, default: f64| {
            params.get(key).map_or(default, |v| {
                v.as_float().or(v.as_integer().map(|i| i as f64)).unwrap()
            })
        };
        let dt = 1.0 / (read("frame_rate", 20.0) * read("substeps", 7.0));
        let tension = 0.0004 * (dt * 140.0) * (dt * 140.0);
        let params = table["params"].as_table_mut().unwrap();
        params.insert("surface_tension".into(), toml::Value::Float(tension));
    }
    table
}

/// The values a sweep runs: the ends, or the ends and three between.
fn values(sweep: &Sweep, full: bool) -> Vec<f32> {
    let (low, high) = sweep.range;
    if !full {
        return vec![low, high];
    }
    let from = if low > 0.0 { low } else { high * 1e-3 };
    let mut values = vec![low];
    values.extend(
        (1..=3).map(|k| from * slosh::sim::numerics::portable::powf(high / from, k as f32 / 4.0)),
    );
    values.push(high);
    values
}

/// Runs one value for 400 frames, or 20 simulated seconds where that is fewer frames (the frame
/// rates under 20; at a frame rate of 1, 400 frames were 400 s, a fifth of the whole sweep's
/// time), and checks it; `Err` says what went wrong.
fn run(sweep: &Sweep, value: f32) -> Result<(), String> {
    let table = with_value(table_of(sweep.preset), sweep, value);
    let text = toml::to_string(&table).unwrap();
    let name = format!("{} {}.{} = {value}", sweep.preset, sweep.table, sweep.key);
    let preset = Preset::parse(&name, &text).map_err(|error| format!("refused: {error}"))?;
    let frames = ((20.0 * preset.scene.params.frame_rate).ceil() as u32).min(400);
    let mut world = World::new(preset.scene.clone(), 1);
    let source = world
        .air()
        .and_then(|air| air.settings().sources.first().map(|s| s.position));
    let mut plume = None;
    for frame in 1..=frames {
        world.step_frame();
        if frame == 80 {
            plume = world.air().map(|air| air.grid().smoke_centroid());
        }
    }
    let stats = world.stats();
    let extra = world.stability_substeps();
    let said = format!("{name} ({extra:?}): {stats:?}");
    if stats.nan > 0 || stats.escaped > 0 {
        return Err(format!("NaN or escape: {said}"));
    }
    let box_height = world.domain().max().y - world.domain().min().y;
    let falling = (2.0 * 9.8 * box_height).sqrt();
    match sweep.expect {
        Expect::Settled | Expect::Bodies if stats.max_speed >= 5.0 => {
            return Err(format!("not settled: {said}"));
        }
        Expect::Falling if stats.max_speed >= falling => {
            return Err(format!("faster than a fall from the top: {said}"));
        }
        Expect::Air | Expect::Plume => {
            let divergence = world.air().unwrap().last_step().divergence_max;
            if divergence.is_nan() || divergence >= 0.1 {
                return Err(format!("divergence {divergence}: {said}"));
            }
            if sweep.expect == Expect::Plume {
                let (centroid, source) = (plume.unwrap(), source.unwrap());
                if centroid.y < source.y + 2.0 {
                    return Err(format!("no plume: smoke at {centroid}, {said}"));
                }
            }
        }
        _ => {}
    }
    if sweep.expect == Expect::Bodies {
        let water = world.material_stats()[0].centroid;
        for (index, spec) in world.body_specs().iter().enumerate() {
            let (state, density) = (world.body_state(index).unwrap(), spec.density);
            if !world.domain().contains(state.position) {
                return Err(format!("body {index} left the box: {state:?}, {said}"));
            }
            let y = state.centre_of_mass.y;
            if density <= 0.5 && y < water.y {
                return Err(format!("body {index} ({density}) sank to {y}: {said}"));
            }
            if density >= 2.0 && y > water.y {
                return Err(format!("body {index} ({density}) floats at {y}: {said}"));
            }
        }
    }
    Ok(())
}

/// Runs every sweep, the values in parallel, and lists every failure at once.
fn run_all(full: bool) {
    let cases: Vec<(&Sweep, f32)> = SWEEPS
        .iter()
        // `bath`'s sweeps are of its rigid bodies.
        .filter(|sweep| cfg!(feature = "bodies") || sweep.preset != "bath")
        .flat_map(|sweep| values(sweep, full).into_iter().map(move |v| (sweep, v)))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (next, cases) = (&next, &cases);
    let failures: Vec<String> = std::thread::scope(|scope| {
        let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(move || {
                    let mut failed = Vec::new();
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(&(sweep, value)) = cases.get(k) else {
                            break failed;
                        };
                        // One thread a case: the workers already keep every core busy.
                        if let Err(problem) = crate::common::on_threads(1, || run(sweep, value)) {
                            failed.push(problem);
                        }
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_field_at_both_ends_of_its_range_gives_a_liquid() {
    run_all(false);
}

#[test]
#[ignore = "five values of every field: about 75 s on 2 cores"]
fn every_field_across_its_range_gives_a_liquid() {
    run_all(true);
}

#[test]
fn gravity_at_its_corner_gives_a_liquid() {
    let mut table = table_of(DAM);
    let gravity = toml::Value::Array(vec![number(1000.0), number(-1000.0)]);
    table["params"]
        .as_table_mut()
        .unwrap()
        .insert("gravity".into(), gravity);
    let preset = Preset::parse("corner", &toml::to_string(&table).unwrap()).unwrap();
    let mut world = World::new(preset.scene.clone(), 1);
    for _ in 0..400 {
        world.step_frame();
    }
    let stats = world.stats();
    assert!(
        stats.nan == 0 && stats.escaped == 0 && stats.max_speed < 5.0,
        "{stats:?} with {:?}",
        world.stability_substeps()
    );
}

#[test]
fn a_value_beyond_the_calm_range_is_refused_naming_its_limit() {
    let mut table = table_of(DAM);
    table["params"]
        .as_table_mut()
        .unwrap()
        .insert("surface_tension".into(), number(0.004));
    let error = Preset::parse("x.toml", &toml::to_string(&table).unwrap())
        .expect_err("a tension of 0.004 boils at any substeps")
        .to_string();
    assert!(
        error.contains("surface_tension") && error.contains("0.0015306") && error.contains("dt²"),
        "{error}"
    );
}

/// A world edited past what its substeps hold (the panel's stiffness and gravity sliders reach
/// the loader's tops) runs the substeps the value needs, stays calm, and gives them back when the
/// value comes down.
#[test]
fn an_edit_past_the_calm_value_takes_substeps_and_gives_them_back() {
    let text = toml::to_string(&table_of(DAM)).unwrap();
    let preset = Preset::parse("dam", &text).unwrap();
    let mut world = World::new(preset.scene.clone(), 1);
    let own = world.params().substeps;
    for _ in 0..40 {
        world.step_frame();
    }
    world.tune(0, slosh::sim::Tunable::Stiffness, 10.0).unwrap();
    let needs = world.stability_substeps().to_vec();
    assert_eq!(
        needs.first().map(|need| need.0),
        Some("stiffness"),
        "{needs:?}"
    );
    assert_eq!(world.params().substeps, needs[0].1);
    world.set_gravity(glam::Vec2::new(0.0, -1000.0)).unwrap();
    assert!(
        world.params().substeps >= 45,
        "{:?}",
        world.stability_substeps()
    );
    let mut capped = 0;
    for frame in 0..360 {
        world.step_frame();
        if frame >= 260 {
            capped += world.last_frame().capped;
        }
    }
    // Under 100 g a calm pool moves as one under 1 g moves √100 times slower (the same Froude
    // number): 5 m/s becomes 50. A boiling one runs at the move cap every substep.
    let stats = world.stats();
    assert!(
        stats.nan == 0 && stats.escaped == 0 && stats.max_speed < 50.0 && capped == 0,
        "{stats:?} at {} substeps, {capped} moves capped in the last 100 frames",
        world.params().substeps
    );
    world.set_gravity(glam::Vec2::new(0.0, -9.8)).unwrap();
    world.tune(0, slosh::sim::Tunable::Stiffness, 0.08).unwrap();
    assert_eq!(world.params().substeps, own);
    assert!(world.stability_substeps().is_empty());
    assert!(world
        .tune(0, slosh::sim::Tunable::Stiffness, 1.0e6)
        .is_err());
}
