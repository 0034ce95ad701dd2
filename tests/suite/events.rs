//! The events a game drains each frame: the same at any thread count, the same summary the
//! sound plays, sensors that count what came and went, and the changes of material, reactions
//! and ignitions of the heat scenes.

use crate::common::{on_threads, step_frames};
use glam::Vec2;
use slosh::preset::Preset;
use slosh::sim::{Event, Part, World};

/// `name`'s world recording its events, run for `frames`, with every event drained.
fn recorded(name: &str, frames: usize) -> (World, Vec<Event>) {
    let mut world = Preset::load(name).unwrap().build_world(1);
    world.record_events(true);
    let mut events = Vec::new();
    for _ in 0..frames {
        world.step_frame();
        world.drain_events(&mut events);
    }
    (world, events)
}

#[test]
fn a_world_records_nothing_until_asked() {
    let mut world = Preset::load("tank").unwrap().build_world(1);
    step_frames(&mut world, 30);
    let mut events = Vec::new();
    world.drain_events(&mut events);
    assert!(!world.records_events() && events.is_empty() && world.frame_events().is_none());
}

#[test]
fn the_dam_breaks_with_splashes_that_are_the_same_at_any_thread_count() {
    let one = on_threads(1, || recorded("tank", 40).1);
    let two = on_threads(2, || recorded("tank", 40).1);
    assert_eq!(one, two);
    let splashes: Vec<&Event> = one
        .iter()
        .filter(|event| matches!(event, Event::Splash { .. }))
        .collect();
    assert!(splashes.len() > 20, "{} splashes", splashes.len());
    for splash in splashes {
        let Event::Splash {
            position,
            energy,
            hard,
            material,
            ..
        } = splash
        else {
            unreachable!()
        };
        assert!(energy.is_finite() && *energy > 0.0 && (0.0..=1.0).contains(hard));
        assert!((0.0..=16.0).contains(&position.x) && (0.0..=9.0).contains(&position.y));
        assert_eq!(*material, 0);
    }
}

#[cfg(feature = "sound")]
#[test]
fn the_sound_plays_the_summary_the_worlds_events_give() {
    use slosh::sound::Listener;
    let preset = Preset::load("tank").unwrap();
    let mut recording = preset.build_world(1);
    recording.record_events(true);
    let mut plain = preset.build_world(1);
    let (mut reads, mut own) = (Listener::new(&recording), Listener::new(&plain));
    let mut loud = 0;
    for _ in 0..40 {
        recording.step_frame();
        plain.step_frame();
        let (heard, found) = (reads.listen(&recording), own.listen(&plain));
        assert_eq!(&heard, recording.frame_events().unwrap());
        assert_eq!(heard, found, "one comparison, whoever runs it");
        loud += usize::from(!heard.is_silent());
    }
    assert!(loud > 10);
    assert_eq!(
        recording.checksum(),
        plain.checksum(),
        "recording changes no motion"
    );
}

#[test]
fn a_sensor_counts_what_came_in_and_what_left() {
    let mut world = Preset::load("tank").unwrap().build_world(1);
    let region = Part::rect(Vec2::new(10.0, 0.0), Vec2::new(16.0, 1.5));
    let cup = world.add_sensor(region.clone());
    let mut inside = world.sensor(cup).unwrap().inside().len();
    assert_eq!(inside, 0, "the far side starts dry");
    let mut events = Vec::new();
    let (mut came, mut went) = (0, 0);
    for _ in 0..60 {
        world.step_frame();
        events.clear();
        world.drain_events(&mut events);
        for event in &events {
            if let Event::Sensed {
                sensor,
                entered,
                left,
            } = event
            {
                assert_eq!(*sensor, cup);
                assert!(entered.windows(2).all(|w| w[0] < w[1]));
                came += entered.len();
                went += left.len();
                inside = inside + entered.len() - left.len();
            }
        }
        let sensor = world.sensor(cup).unwrap();
        assert_eq!(sensor.inside().len(), inside, "came in minus left");
        let mut found = Vec::new();
        world.particles_in(&region, &mut found);
        assert_eq!(found.len(), inside);
        let mass: f32 = found
            .iter()
            .map(|hit| world.particles().mass[hit.index])
            .sum();
        assert!((sensor.mass() - mass).abs() < 1e-3 * (mass + 1.0));
        assert_eq!(sensor.materials()[0].0, inside);
    }
    println!("{came} came into the sensor, {went} left, {inside} inside");
    assert!(
        came > 500 && went > 0 && inside > 300,
        "{came} {went} {inside}"
    );
    assert!(world.remove_sensor(cup) && !world.remove_sensor(cup) && world.sensor(cup).is_none());
}

#[test]
fn lava_into_water_changes_material_and_reacts_as_the_counts_say() {
    let (world, events) = recorded("volcano", 120);
    let names: Vec<&str> = world.materials().iter().map(|m| m.name.as_str()).collect();
    let changed: f32 = events
        .iter()
        .filter_map(|event| match event {
            Event::Changed { from, to, mass, .. } => {
                assert_ne!(from, to);
                Some(*mass)
            }
            _ => None,
        })
        .sum();
    assert!(changed > 0.0, "lava cools into rock: {names:?}");
    let reacted: u64 = events
        .iter()
        .filter_map(|event| match event {
            Event::Reacted { count, .. } => Some(*count),
            _ => None,
        })
        .sum();
    let counted: u64 = world.reaction_counts().iter().map(|(_, n)| n).sum();
    assert_eq!(
        reacted, counted,
        "the reactions' events add up to their counts"
    );
}

#[test]
fn wood_catches_fire_once_per_particle() {
    let (_, events) = recorded("fire", 100);
    let mut ignited: Vec<u32> = events
        .iter()
        .filter_map(|event| match event {
            Event::Ignited { id, .. } => Some(*id),
            _ => None,
        })
        .collect();
    let count = ignited.len();
    ignited.sort_unstable();
    ignited.dedup();
    assert!(count > 10, "{count} ignitions");
    assert_eq!(ignited.len(), count, "each particle catches fire once");
    assert!(events
        .iter()
        .any(|event| matches!(event, Event::Gone { boiled: true, .. })));
}
