//! What a game does to the particles besides the tools: pushes on a region or on ids, and tags
//! of its own that stay with the particles through steps, snapshots, replays and melting.

use crate::common::step_frames;
use glam::Vec2;
use slosh::input::Input;
use slosh::preset::Preset;
use slosh::sim::{EditError, Part, Push, World};
use std::collections::HashMap;

fn tank() -> World {
    let mut world = Preset::load("tank").unwrap().build_world(1);
    step_frames(&mut world, 5);
    world
}

/// Each particle's momentum, by id.
fn momenta(world: &World) -> HashMap<u32, Vec2> {
    let p = world.particles();
    (0..p.len())
        .map(|i| (p.id[i], p.mass[i] * p.velocity[i]))
        .collect()
}

/// Each particle's tag, by id.
fn tags(world: &World) -> HashMap<u32, u32> {
    let p = world.particles();
    (0..p.len()).map(|i| (p.id[i], p.tag[i])).collect()
}

#[test]
fn a_push_gives_each_particle_in_the_region_its_impulse_and_no_other() {
    let mut world = tank();
    let region = Part::circle(Vec2::new(3.0, 1.5), 0.6);
    let mut inside = Vec::new();
    world.particles_in(&region, &mut inside);
    let before = momenta(&world);
    let impulse = Vec2::new(0.5, 2.0);
    assert_eq!(
        world.push(&region, Push::Impulse(impulse)).unwrap(),
        inside.len()
    );
    let after = momenta(&world);
    for (id, momentum) in &after {
        let pushed = inside.iter().any(|hit| hit.id == *id);
        let change = *momentum - before[id];
        let expected = if pushed { impulse } else { Vec2::ZERO };
        assert!(
            (change - expected).length() < 1e-5,
            "{id}: {change} vs {expected}"
        );
    }
    // A force is the impulse of one frame.
    let before = momenta(&world);
    let force = Vec2::new(-20.0, 0.0);
    world.push(&region, Push::Force(force)).unwrap();
    let frame = 1.0 / world.params().frame_rate;
    let hit = inside[0].id;
    let change = momenta(&world)[&hit] - before[&hit];
    assert!((change - force * frame).length() < 1e-5, "{change}");
    // Refused, and nothing changes.
    let before = momenta(&world);
    let refused = world.push(&region, Push::Impulse(Vec2::new(f32::NAN, 0.0)));
    assert_eq!(refused, Err(EditError::NotFinite("impulse")));
    assert_eq!(momenta(&world), before);
}

#[test]
fn a_push_on_ids_moves_those_particles_only() {
    let mut world = tank();
    let ids: Vec<u32> = world.particles().id.iter().copied().step_by(97).collect();
    let before = momenta(&world);
    let gone = u32::MAX;
    let pushed = world
        .push_ids(&[&ids[..], &[gone]].concat(), Push::Impulse(4.0 * Vec2::Y))
        .unwrap();
    assert_eq!(pushed, ids.len(), "an id no particle has is skipped");
    for (id, momentum) in momenta(&world) {
        let expected = if ids.contains(&id) {
            4.0 * Vec2::Y
        } else {
            Vec2::ZERO
        };
        assert!((momentum - before[&id] - expected).length() < 1e-5);
    }
}

#[test]
fn tags_stay_with_their_particles_through_steps_and_snapshots_and_change_no_motion() {
    let mut tagged = tank();
    let mut plain = tagged.clone();
    let left = tagged.tag(&Part::rect(Vec2::ZERO, Vec2::new(3.0, 5.0)), 7);
    let few: Vec<u32> = tagged.particles().id.iter().copied().step_by(50).collect();
    let marked = tagged.tag_ids(&few, 9);
    assert!(left > 500 && marked == few.len(), "{left} {marked}");
    let given = tags(&tagged);
    step_frames(&mut tagged, 20);
    step_frames(&mut plain, 20);
    assert_eq!(tags(&tagged), given, "the sorting carries the tags");
    assert_eq!(
        tagged.checksum(),
        plain.checksum(),
        "the engine never reads a tag"
    );
    let scene = Preset::load("tank").unwrap().scene;
    let reopened = World::from_state(scene, tagged.state()).unwrap();
    assert_eq!(tags(&reopened), given, "a snapshot keeps the tags");
}

#[test]
fn a_replays_push_and_tag_lines_read_back_and_do_the_same() {
    let inputs = [
        Input::Push {
            centre: Vec2::new(3.0, 1.5),
            radius: 0.6,
            impulse: Vec2::new(0.1, 2.5),
        },
        Input::Tag {
            centre: Vec2::new(1.0, 1.0),
            radius: 0.8,
            tag: 4_000_000_000,
        },
    ];
    let (mut direct, mut replayed) = (tank(), tank());
    for input in &inputs {
        let line = input.to_line();
        let words: Vec<&str> = line.split_whitespace().collect();
        let read = Input::parse(&words).unwrap();
        assert_eq!(&read, input, "{line}");
        input.apply(&mut direct).unwrap();
        read.apply(&mut replayed).unwrap();
    }
    assert_eq!(tags(&direct), tags(&replayed));
    assert!(tags(&direct).values().any(|&tag| tag == 4_000_000_000));
    assert_eq!(momenta(&direct), momenta(&replayed));
    for bad in [
        "tag 1 1 0.5 -3",
        "tag 1 1 0.5 x",
        "push 1 1 0.5 2",
        "tag 1 1 0.5 5000000000",
    ] {
        let words: Vec<&str> = bad.split_whitespace().collect();
        assert!(Input::parse(&words).is_err(), "{bad}");
    }
    let negative = Input::Tag {
        centre: Vec2::ONE,
        radius: -1.0,
        tag: 1,
    };
    assert!(negative.apply(&mut direct).is_err());
}

#[test]
fn a_tag_stays_with_ice_that_melts_into_water() {
    let preset = Preset::load("ice").unwrap();
    let mut world = preset.build_world(1);
    let ice = world
        .materials()
        .iter()
        .position(|m| m.name == "ice")
        .unwrap();
    let ids: Vec<u32> = {
        let p = world.particles();
        (0..p.len())
            .filter(|&i| p.material[i] as usize == ice)
            .map(|i| p.id[i])
            .collect()
    };
    assert_eq!(world.tag_ids(&ids, 3), ids.len());
    step_frames(&mut world, 80);
    let p = world.particles();
    let melted: Vec<usize> = (0..p.len())
        .filter(|&i| ids.contains(&p.id[i]) && p.material[i] as usize != ice)
        .collect();
    assert!(melted.len() > 50, "{} melted", melted.len());
    assert!(melted.iter().all(|&i| p.tag[i] == 3));
}
