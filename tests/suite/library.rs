//! The material library (`assets/materials.toml`): a preset names a library material and
//! overrides only what differs; an unknown name is one line naming the file, the line and the
//! nearest known name; and every reaction of the library's table happens in a scene that holds
//! its two materials and says nothing of it: lava and water make rock and steam, sand and water
//! make wet sand, lava and heat melt ice, hot oil and hot wood catch fire, water puts the fire
//! out, and lava sets wood alight.

use crate::common::{box_walls, world_from};
use slosh::preset::library::library;
use slosh::preset::Preset;
use slosh::sim::World;

/// A 3 × 2 box with air, holding `materials` (library names, each entry's own lines after its
/// name: `("oil", "temperature = 200.0")`) laid out as `blocks` (material, min, max), and
/// `extra` preset text.
fn scene(materials: &[(&str, &str)], blocks: &[(&str, [f32; 2], [f32; 2])], extra: &str) -> String {
    let walls = box_walls(3.0, 2.0);
    let mut text = format!(
        "name = \"meeting\"\ndescription = \"library materials meet\"\n{walls}{extra}\n\
         [air]\ncolumns = 24\n"
    );
    for (name, own) in materials {
        text.push_str(&format!("\n[[materials]]\nname = \"{name}\"\n{own}\n"));
    }
    for (material, min, max) in blocks {
        text.push_str(&format!(
            "\n[[blocks]]\nmaterial = \"{material}\"\nmin = {min:?}\nmax = {max:?}\nspacing = 0.1\n"
        ));
    }
    text
}

/// The particles of the material called `name` (0 when the world has no such material).
fn count(world: &World, name: &str) -> usize {
    let Some(index) = world.materials().iter().position(|m| m.name == name) else {
        return 0;
    };
    let p = world.particles();
    p.material.iter().filter(|&&m| m as usize == index).count()
}

/// How many times the reaction (or `burning`) called `name` has happened.
fn happened(world: &World, name: &str) -> u64 {
    let counts = world.reaction_counts();
    counts.iter().find(|(n, _)| *n == name).map_or(0, |c| c.1)
}

/// The mass of `name` not yet burned: its particles' mass times the fraction of each not burned.
fn fuel(world: &World, name: &str) -> f64 {
    let Some(index) = world.materials().iter().position(|m| m.name == name) else {
        return 0.0;
    };
    let p = world.particles();
    (0..p.len())
        .filter(|&i| p.material[i] as usize == index)
        .map(|i| f64::from(p.mass[i]) * f64::from(1.0 - world.burnt(p.id[i])))
        .sum()
}

/// Runs `world` for `seconds` of simulated time.
fn run(world: &mut World, seconds: f64) {
    let end = world.time() + seconds;
    while world.time() < end - 1e-6 {
        world.step_frame();
    }
}

/// A `[[materials]]` entry of only a library name is the library's material; a field it gives
/// overrides the library's, and only that one.
#[test]
fn a_library_name_takes_the_library_material_and_overrides_only_what_it_gives() {
    let text = scene(
        &[("lava", ""), ("water", "colour = [0.1, 0.2, 0.3]")],
        &[("water", [0.05, 0.05], [2.95, 0.5])],
        "",
    );
    let preset = Preset::parse("meeting.toml", &text).expect("library names load");
    let materials = &preset.reference().materials;
    assert_eq!(&materials[0], library().material("lava").unwrap());
    let water = library().material("water").unwrap();
    assert_eq!(materials[1].colour, [0.1, 0.2, 0.3]);
    assert_eq!(
        slosh::sim::Material {
            colour: water.colour,
            ..materials[1].clone()
        },
        *water
    );
}

/// A material of the preset's own under a new name is taken as written, the library aside.
#[test]
fn a_material_of_the_presets_own_is_taken_as_written() {
    let text = scene(
        &[("fizz", "colour = [0.5, 0.5, 0.5]\nmass = 1.2")],
        &[("fizz", [0.05, 0.05], [1.0, 0.5])],
        "",
    );
    let preset = Preset::parse("meeting.toml", &text).expect("a material of its own loads");
    let fizz = &preset.reference().materials[0];
    assert_eq!((fizz.name.as_str(), fizz.mass), ("fizz", 1.2));
    assert_eq!(fizz.boiling_point, None);
}

/// A name that is no library material, in an entry that is no whole material either, is refused
/// in one line that names the file, the entry's line and the nearest library name.
#[test]
fn an_unknown_material_names_the_file_the_line_and_the_nearest_name() {
    let text = scene(
        &[("water", ""), ("lavaa", "")],
        &[("water", [0.05, 0.05], [1.0, 0.5])],
        "",
    );
    let error = Preset::parse("meeting.toml", &text).unwrap_err();
    let line = text
        .lines()
        .position(|line| line == "name = \"lavaa\"")
        .unwrap()
        + 1;
    let said = error.to_string();
    println!("{said}");
    assert!(
        said.starts_with(&format!("meeting.toml:{line}: materials[1].name: ")),
        "{said}"
    );
    assert!(said.contains("the nearest is `lava`"), "{said}");
    assert!(!said.contains('\n'));
}

/// Lava poured onto water, in a scene that names no reaction, makes rock (which the scene did
/// not list: the library brings it) and steam on the air: `quench` happens (most of the lava
/// cools into rock first), and the water loses particles to it and to boiling.
#[test]
fn lava_and_water_make_rock_and_steam_in_any_scene() {
    let text = scene(
        &[("water", ""), ("lava", "")],
        &[
            ("water", [0.05, 0.05], [2.95, 0.5]),
            ("lava", [1.0, 0.7], [2.0, 1.0]),
        ],
        "",
    );
    let mut world = world_from(&text);
    let (water, lava) = (count(&world, "water"), count(&world, "lava"));
    run(&mut world, 3.0);
    let quenched = happened(&world, "quench");
    println!(
        "quench {quenched}: rock {}, water {water} -> {}, lava {lava} -> {}",
        count(&world, "rock"),
        count(&world, "water"),
        count(&world, "lava")
    );
    assert!(quenched > 0, "{quenched}");
    assert!(count(&world, "rock") > 10);
    assert!(count(&world, "water") < water);
    assert!(world.stats().nan == 0 && world.stats().escaped == 0);
}

/// Sand poured into water soaks it up: `soak` turns grains touching water into wet sand, and the
/// water they took goes.
#[test]
fn sand_and_water_make_wet_sand() {
    let text = scene(
        &[("water", "conductivity = 0.0"), ("sand", "")],
        &[
            ("water", [0.05, 0.05], [2.95, 0.4]),
            ("sand", [1.0, 0.6], [2.0, 1.0]),
        ],
        "",
    );
    let mut world = world_from(&text);
    let water = count(&world, "water");
    run(&mut world, 3.0);
    let (wet, left) = (count(&world, "wet sand"), count(&world, "water"));
    println!("wet sand {wet}, water {water} -> {left}");
    assert!(wet > 20, "{wet}");
    assert_eq!(water - left, happened(&world, "soak") as usize);
}

/// Ice beside lava melts into water (which the scene did not list), and so does ice under the
/// heat tool, in a scene without lava.
#[test]
fn lava_or_heat_melts_ice() {
    let beside_lava = scene(
        &[("ice", ""), ("lava", "")],
        &[
            ("ice", [0.05, 0.05], [1.0, 0.6]),
            ("lava", [1.1, 0.05], [2.0, 0.6]),
        ],
        "",
    );
    let mut world = world_from(&beside_lava);
    let ice = count(&world, "ice");
    run(&mut world, 4.0);
    let melted = ice - count(&world, "ice");
    println!("beside lava: {melted} of {ice} ice particles melted");
    assert!(melted > ice / 10, "{melted} of {ice}");
    assert!(count(&world, "water") > 0);

    let alone = scene(&[("ice", "")], &[("ice", [1.0, 0.05], [2.0, 0.6])], "");
    let mut world = world_from(&alone);
    let ice = count(&world, "ice");
    for _ in 0..80 {
        world
            .heat_under(glam::Vec2::new(1.5, 0.3), 0.8, 400.0)
            .unwrap();
        world.step_frame();
    }
    let melted = ice - count(&world, "ice");
    println!("under the heat tool: {melted} of {ice} ice particles melted");
    assert!(melted > ice / 4, "{melted} of {ice}");
}

/// Oil and wood hotter than their ignition temperature burn where they touch the air (a tenth of
/// their mass in 3 s); the same at 20 °C do not.
#[test]
fn hot_oil_and_hot_wood_catch_fire() {
    for (fuel_name, hot) in [
        ("oil", "temperature = 200.0"),
        ("wood", "temperature = 200.0"),
    ] {
        let burned = |own: &str| {
            let text = scene(
                &[(fuel_name, own)],
                &[(fuel_name, [1.0, 0.05], [2.0, 0.4])],
                "",
            );
            let mut world = world_from(&text);
            let start = fuel(&world, fuel_name);
            run(&mut world, 3.0);
            (start - fuel(&world, fuel_name)) / start
        };
        let (hot, cold) = (burned(hot), burned(""));
        println!("{fuel_name}: {hot:.3} of it burned hot, {cold:.3} cold");
        assert!(hot > 0.1, "{fuel_name} burns hot: {hot}");
        assert_eq!(cold, 0.0, "{fuel_name} does not burn cold");
    }
}

/// Water rained onto burning oil puts the fire out: from 3 s to 6 s less than a third of the oil
/// burns of what burns in those seconds without the rain.
#[test]
fn water_puts_the_fire_out() {
    let rain = "\n[[emitters]]\nmaterial = \"water\"\nposition = [1.5, 1.8]\n\
                direction = [0.0, -1.0]\nwidth = 2.4\nspeed = 2.0\ndelay = 1.0\nrate = 40.0\n\
                budget = 600\n";
    let burned = |extra: &str| {
        let text = scene(
            &[("water", ""), ("oil", "temperature = 200.0")],
            &[("oil", [0.05, 0.05], [2.95, 0.3])],
            extra,
        );
        let mut world = world_from(&text);
        run(&mut world, 3.0);
        let before = fuel(&world, "oil");
        run(&mut world, 3.0);
        before - fuel(&world, "oil")
    };
    let (rained, dry) = (burned(rain), burned(""));
    println!("oil burned from 3 s to 6 s: {rained:.3} with the rain, {dry:.3} without");
    assert!(dry > 1.0, "{dry}");
    assert!(rained * 3.0 < dry, "{rained} against {dry}");
}

/// Lava poured over cold wood sets it alight: the wood burns where the lava heats it.
#[test]
fn lava_sets_wood_alight() {
    let text = scene(
        &[("wood", ""), ("lava", "")],
        &[
            ("wood", [0.05, 0.05], [2.95, 0.3]),
            ("lava", [1.0, 0.5], [2.0, 0.8]),
        ],
        "",
    );
    let mut world = world_from(&text);
    let start = fuel(&world, "wood");
    run(&mut world, 5.0);
    let burned = start - fuel(&world, "wood");
    println!("wood burned under lava: {burned:.3} of {start:.3}");
    assert!(burned > 0.01 * start, "{burned} of {start}");
}
