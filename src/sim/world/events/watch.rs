//! The frame-by-frame comparison that finds a world's events (`Watcher`).
//!
//! A [`Watcher`] reads the world's public state after each frame, compares it with the frame
//! before, particle by particle (by id, in id order, so that the result does not depend on the
//! particles' order in memory or the thread count), and tells what changed, as the game's
//! `Event`s and as the sound's summary, [`FrameEvents`]:
//! - an **impact** is a particle whose velocity changed in the frame by much more than gravity
//!   explains (`IMPACT_ACCELERATION` beyond |g|), and that lost speed doing it: liquid that
//!   stopped fast, against liquid, a wall, an obstacle or a body. Its energy is ½ m |Δv − g Δt|²
//!   (m the particle's mass, which scales with its area, so that a splash's energy does not
//!   depend on the resolution). Impacts are gathered in `IMPACT_BINS` strips across the box, so
//!   that a frame has a bounded list of splashes;
//! - a **birth** is a new id (an emitter, the pour tool, vapour condensing into drops): the
//!   stream's flow;
//! - a **death** is an id gone: erased (the erase tool) if it was cold, boiled off if it was hot;
//! - a **phase change or reaction** is a particle whose material changed: into a solid it froze
//!   (a crackle), into anything else it reacted (a hiss), with the scene's reaction counts;
//! - an **ignition** is a particle that had burned none of its fuel and now has;
//! - the **sizzle** is heat passing from hot liquid (above `HOT`) into cold: the smaller of the
//!   heat the hot particles lost and the heat the cold ones gained in the frame, so that lava
//!   cooling in the air alone, or water warming under warm air alone, is quiet;
//! - a **knock** is a rigid body whose velocity changed sharply: against a wall, or hitting the
//!   water.

use super::event::Event;
use crate::sim::numerics::portable::Ordered;
use crate::sim::scene::bodies::Body;
use crate::sim::scene::domain::Domain;
use crate::sim::scene::params::SimParams;
use crate::sim::scene::shape::Part;
use crate::sim::{BodyState, Material, Obstacle, Particles};
use glam::Vec2;

/// Strips across the box that impacts are gathered in: a frame has at most this many splashes.
pub const IMPACT_BINS: usize = 8;

/// The deceleration, in m/s², beyond what holding a particle up against gravity takes (|g|),
/// that makes its change of velocity an impact: 5 + 9.8, about one and a half g, on Earth. The
/// pressure of a flowing or resting liquid changes its particles' velocities by less, a splash
/// or a wave against a wall by more.
pub const IMPACT_ACCELERATION: f32 = 5.0;

/// A rigid body's change of velocity in one frame, in m/s beyond gravity's, that is a knock.
pub const KNOCK_SPEED: f32 = 0.8;

/// °C: a particle above it is hot (water's boiling point): a hot particle that dies boiled off,
/// and heat from hot to cold liquid sizzles.
pub const HOT: f32 = 100.0;

/// The most particle ids a watcher follows: ids are never reused, so a long session of pouring
/// and erasing makes them grow; past this (16 million particles ever made) it finds nothing more.
const MAX_IDS: usize = 1 << 24;

/// Frames a watcher may miss: when more time than this passed since the last frame it saw
/// (or the clock went back: an undo, a new world), it starts again from the world as it is.
const MAX_GAP_FRAMES: f64 = 4.0;

/// What a watcher reads of a world after a frame (`World::watcher`, `World::watch`).
pub(crate) struct View<'a> {
    pub particles: &'a Particles,
    pub materials: &'a [Material],
    pub params: &'a SimParams,
    pub domain: &'a Domain,
    pub obstacles: &'a [Obstacle],
    /// The rigid bodies as the scene gave them, their states now and their parts where they
    /// are, with their body's index (`World::body_parts`).
    pub body_specs: &'a [Body],
    pub body_states: Vec<BodyState>,
    pub body_parts: Vec<(usize, Part)>,
    /// Each reaction's count so far, in the scene's order.
    pub reactions: Vec<u64>,
    pub time: f64,
    /// The fraction of a particle's fuel burned, by id.
    pub burnt: Box<dyn Fn(u32) -> f32 + 'a>,
}

impl View<'_> {
    fn particles(&self) -> &Particles {
        self.particles
    }
    fn materials(&self) -> &[Material] {
        self.materials
    }
    fn params(&self) -> &SimParams {
        self.params
    }
    fn domain(&self) -> &Domain {
        self.domain
    }
    fn obstacles(&self) -> &[Obstacle] {
        self.obstacles
    }
    /// Signed distance from `point` to the nearest body's surface (infinite without bodies).
    fn body_distance(&self, point: Vec2) -> f32 {
        (self.body_parts.iter())
            .map(|(_, part)| part.surface(point).0)
            .fold(f32::INFINITY, crate::sim::numerics::portable::min)
    }
    fn time(&self) -> f64 {
        self.time
    }
}

/// One frame's impacts in one strip of the box: a splash.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Impact {
    /// Where, across the box (0 at its left wall, 1 at its right), weighted by energy.
    pub x: f32,
    /// ½ m |Δv|² summed over the particles that stopped.
    pub energy: f32,
    /// Their mass: the splash's size (the bubbles it entrains).
    pub mass: f32,
    /// The share of `energy` spent against something hard (a wall, an obstacle, a body) rather
    /// than against liquid, 0 to 1.
    pub hard: f32,
}

/// A flow of something in one frame: how much per second, and where.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Flow {
    /// How much per second: mass for births, deaths and phase changes; heat (mass × heat
    /// capacity × °C) for the sizzle.
    pub rate: f32,
    /// Where, across the box (0 to 1), weighted by amount; 0.5 when there is none.
    pub x: f32,
}

/// A rigid body's sharp change of velocity.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Knock {
    /// Where, across the box (0 to 1).
    pub x: f32,
    /// ½ M |Δv|².
    pub energy: f32,
    /// Against a wall (a thud) rather than into the liquid (a splash).
    pub wall: bool,
}

/// One simulation frame's sound sources. Positions are across the box: `x` 0 at its left wall,
/// 1 at its right (the stereo pan). Plain data: it goes to an audio thread.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FrameEvents {
    /// Simulated seconds the frame lasts (1 / the scene's frame rate).
    pub seconds: f32,
    /// Splashes, at most `IMPACT_BINS`, left to right.
    pub impacts: Vec<Impact>,
    /// Liquid made: emitters, the pour tool, condensing drops (the stream).
    pub births: Flow,
    /// Liquid removed cold: the erase tool, or a reaction into nothing.
    pub erased: Flow,
    /// Liquid boiled off as vapour (hot when it went).
    pub boiled: Flow,
    /// Liquid turned solid (freezing, lava into rock): the crackle.
    pub frozen: Flow,
    /// Liquid turned into another liquid, and the scene's reactions, per second.
    pub reacted: Flow,
    /// Heat passed from hot liquid into cold, per second: the hiss.
    pub sizzle: Flow,
    /// Bodies' knocks.
    pub knocks: Vec<Knock>,
}

impl FrameEvents {
    /// True when nothing in the frame makes a sound.
    pub fn is_silent(&self) -> bool {
        self.impacts.is_empty()
            && self.knocks.is_empty()
            && [
                self.births,
                self.erased,
                self.boiled,
                self.frozen,
                self.reacted,
                self.sizzle,
            ]
            .iter()
            .all(|flow| flow.rate == 0.0)
    }
}

/// What a watcher keeps of a particle from the last frame.
#[derive(Clone, Copy, Debug, Default)]
struct Seen {
    velocity: Vec2,
    temperature: f32,
    /// Across the box, 0 to 1.
    x: f32,
    position: Vec2,
    material: u16,
    here: bool,
    /// Whether it had started to burn (in scenes where something burns).
    burning: bool,
}

impl Seen {
    /// Particle `i` of `p` as it is now (`burning`: whether it has started to burn).
    fn of(p: &Particles, i: usize, place: &Place, burning: bool) -> Self {
        Self {
            velocity: p.velocity[i],
            temperature: p.temperature[i],
            x: place.x(p.position[i]),
            position: p.position[i],
            material: p.material[i],
            here: true,
            burning,
        }
    }
}

/// Amounts and amount-weighted world positions, by a key (a material, a pair of them), in the
/// order the keys first came: a frame's `Changed` and `Gone` events.
#[derive(Clone, Debug, Default)]
struct Keyed<K> {
    entries: Vec<(K, f32, Vec2)>,
}

impl<K: PartialEq + Copy> Keyed<K> {
    fn add(&mut self, key: K, amount: f32, at: Vec2) {
        match self.entries.iter_mut().find(|(k, _, _)| *k == key) {
            Some(entry) => {
                entry.1 += amount;
                entry.2 += amount * at;
            }
            None => self.entries.push((key, amount, amount * at)),
        }
    }

    /// Each key, its amount and its weighted position.
    fn each(&self) -> impl Iterator<Item = (K, f32, Vec2)> + '_ {
        let at = |amount: f32, sum: Vec2| sum / amount.at_least(f32::MIN_POSITIVE);
        (self.entries.iter()).map(move |&(key, amount, sum)| (key, amount, at(amount, sum)))
    }
}

/// A sum of amounts and of amount × x, for a `Flow`'s rate and place.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    amount: f32,
    at: f32,
}

impl Tally {
    fn add(&mut self, amount: f32, x: f32) {
        self.amount += amount;
        self.at += amount * x;
    }

    fn flow(self, seconds: f32) -> Flow {
        if self.amount > 0.0 {
            Flow {
                rate: self.amount / seconds,
                x: (self.at / self.amount).clamp(0.0, 1.0),
            }
        } else {
            Flow { rate: 0.0, x: 0.5 }
        }
    }
}

/// One strip's impacts while a frame is gathered.
#[derive(Clone, Copy, Debug, Default)]
struct Strip {
    energy: f32,
    hard: f32,
    mass: f32,
    at: f32,
    /// Σ energy × world position.
    point: Vec2,
    /// The material with the particle of most energy, and that energy.
    loudest: (u16, f32),
}

/// Watches a world after each of its frames (`after_frame`) and keeps what it needs of the last
/// one: what `World::record_events` runs, and what `sound::Listener` runs on a world that does
/// not record.
#[derive(Clone, Debug, Default)]
pub(crate) struct Watcher {
    /// The last frame's particles, by id.
    seen: Vec<Seen>,
    /// This frame's particle index by id (`u32::MAX`: none), rebuilt each frame.
    index: Vec<u32>,
    /// Ids below this were all gone in the last frame (ids are never reused).
    first: usize,
    /// The world's clock at the last frame heard.
    time: f64,
    /// The scene's reactions so far, summed, at the last frame.
    reactions: u64,
    /// Each reaction's count so far, at the last frame.
    reaction_counts: Vec<u64>,
    /// Each body's velocity at the last frame.
    bodies: Vec<Vec2>,
    /// Each body's reach from its frame's origin (its parts' farthest point).
    reach: Vec<f32>,
}

impl Watcher {
    /// A watcher of `world` as it is now: its first `after_frame` compares with this state.
    pub(crate) fn new(world: &View) -> Self {
        let mut listener = Self::default();
        listener.start(world);
        listener
    }

    /// Forgets the last frame and keeps `world` as it is now.
    fn start(&mut self, world: &View) {
        self.seen.clear();
        self.first = 0;
        let (_, max) = id_range(world);
        if max < MAX_IDS {
            self.seen.resize(max, Seen::default());
            let p = world.particles();
            let place = Place::new(world);
            let burns = burns(world);
            for i in 0..p.len() {
                let burning = burns && (world.burnt)(p.id[i]) > 0.0;
                self.seen[p.id[i] as usize] = Seen::of(p, i, &place, burning);
            }
            self.first = self.seen.iter().position(|s| s.here).unwrap_or(max);
        }
        self.time = world.time();
        self.reactions = reactions(world);
        self.reaction_counts = reaction_counts(world);
        self.bodies.clear();
        self.reach.clear();
        self.bodies = world.body_states.iter().map(|b| b.velocity).collect();
        self.reach = (world.body_specs.iter())
            .map(|body| {
                (body.parts.iter())
                    .flat_map(|part| part.outline(16))
                    .map(Vec2::length)
                    .fold(0.0, crate::sim::numerics::portable::max)
            })
            .collect();
    }

    /// The events of the frame `world` just ran: the sound's summary, and the game's events
    /// appended to `found` when it is given.
    pub(crate) fn after_frame(
        &mut self,
        world: &View,
        mut found: Option<&mut Vec<Event>>,
    ) -> FrameEvents {
        let frame = 1.0 / world.params().frame_rate;
        let mut events = FrameEvents {
            seconds: frame,
            ..FrameEvents::default()
        };
        let elapsed = world.time() - self.time;
        let (min, max) = id_range(world);
        let bodies = world.body_states.len();
        if !(elapsed > 0.0 && elapsed <= MAX_GAP_FRAMES * f64::from(frame))
            || max >= MAX_IDS
            || bodies != self.bodies.len()
        {
            // A world swapped in (an undo, a snapshot, a replay's next preset): nothing to
            // compare with.
            self.start(world);
            return events;
        }
        let dt = elapsed as f32;
        self.particles(world, (min, max), dt, &mut events, found.as_deref_mut());
        self.knocks(world, dt, &mut events, found.as_deref_mut());
        let counts = reaction_counts(world);
        if let Some(found) = found {
            for (reaction, (&now, &before)) in counts.iter().zip(&self.reaction_counts).enumerate()
            {
                if now > before {
                    found.push(Event::Reacted {
                        reaction,
                        count: now - before,
                    });
                }
            }
        }
        self.reaction_counts = counts;
        let reactions = reactions(world);
        let reacted = reactions.saturating_sub(self.reactions) as f32;
        self.reactions = reactions;
        if reacted > 0.0 {
            // A reaction into vapour or nothing takes its particle away cold: that went up as
            // steam, it was not erased.
            let (erased, boiled) = (events.erased, events.boiled);
            let rate = erased.rate + boiled.rate;
            events.boiled = Flow {
                rate,
                x: (erased.x * erased.rate + boiled.x * boiled.rate)
                    / rate.at_least(f32::MIN_POSITIVE),
            };
            if rate == 0.0 {
                events.boiled.x = 0.5;
            }
            events.erased = Flow { rate: 0.0, x: 0.5 };
            events.reacted.rate += reacted / dt;
        }
        self.time = world.time();
        events.seconds = dt;
        events
    }

    /// The particles' events: impacts, births, deaths, phase changes, ignitions, the sizzle.
    fn particles(
        &mut self,
        world: &View,
        (min, max): (usize, usize),
        dt: f32,
        events: &mut FrameEvents,
        found: Option<&mut Vec<Event>>,
    ) {
        let p = world.particles();
        let end = max.max(self.seen.len());
        self.seen.resize(end, Seen::default());
        self.index.resize(end, u32::MAX);
        for (i, &id) in p.id.iter().enumerate() {
            self.index[id as usize] = i as u32;
        }
        let first = self.first.min(if p.is_empty() { end } else { min });
        let place = Place::new(world);
        let materials = world.materials();
        let gravity = world.params().gravity * dt;
        let threshold = (IMPACT_ACCELERATION + world.params().gravity.length()) * dt;
        let threshold = threshold * threshold;
        let mut strips = [Strip::default(); IMPACT_BINS];
        let (mut births, mut erased, mut boiled) =
            (Tally::default(), Tally::default(), Tally::default());
        let (mut frozen, mut reacted) = (Tally::default(), Tally::default());
        let (mut hot_out, mut cold_in) = (Tally::default(), Tally::default());
        let bodies = &world.body_states;
        let mut next_first = end;
        let (mut changed, mut gone) = (Keyed::<(u16, u16)>::default(), Keyed::default());
        let mut ignited = Vec::new();
        let burns = burns(world);
        for id in first..end {
            let last = self.seen[id];
            let i = self.index[id];
            if i == u32::MAX {
                if last.here {
                    let mass = materials
                        .get(usize::from(last.material))
                        .map_or(1.0, |m| m.mass);
                    let hot = last.temperature >= HOT;
                    if hot {
                        boiled.add(mass, last.x);
                    } else {
                        erased.add(mass, last.x);
                    }
                    gone.add((last.material, hot), mass, last.position);
                }
                self.seen[id] = Seen::default();
                continue;
            }
            let i = i as usize;
            self.index[id] = u32::MAX;
            next_first = next_first.min(id);
            let burning = burns && (last.burning || (world.burnt)(id as u32) > 0.0);
            let now = Seen::of(p, i, &place, burning);
            self.seen[id] = now;
            let mass = p.mass[i];
            if !last.here {
                births.add(mass, now.x);
                continue;
            }
            if burning && !last.burning {
                ignited.push((id as u32, now.position));
            }
            if now.material != last.material {
                changed.add((last.material, now.material), mass, now.position);
                let solid = |m: u16| materials.get(usize::from(m)).is_some_and(is_solid);
                match (solid(last.material), solid(now.material)) {
                    (_, true) => frozen.add(mass, now.x),
                    // Melting is quiet.
                    (true, false) => {}
                    (false, false) => reacted.add(mass, now.x),
                }
            }
            let capacity = materials
                .get(usize::from(now.material))
                .map_or(1.0, |m| m.heat_capacity);
            let warmed = now.temperature - last.temperature;
            if last.temperature > HOT && warmed < 0.0 {
                hot_out.add(-warmed * mass * capacity, now.x);
            } else if last.temperature < HOT && warmed > 0.0 {
                cold_in.add(warmed * mass * capacity, now.x);
            }
            let free = last.velocity + gravity;
            let change = now.velocity - free;
            let change2 = change.length_squared();
            if change2 > threshold && now.velocity.length_squared() < free.length_squared() {
                let energy = 0.5 * mass * change2;
                let strip = &mut strips[place.strip(now.x)];
                strip.energy += energy;
                strip.mass += mass;
                strip.at += energy * now.x;
                strip.point += energy * now.position;
                if energy > strip.loudest.1 {
                    strip.loudest = (now.material, energy);
                }
                if against_something_hard(world, p.position[i], bodies, &self.reach) {
                    strip.hard += energy;
                }
            }
        }
        self.first = next_first;
        if let Some(found) = found {
            for strip in strips.iter().filter(|strip| strip.energy > 0.0) {
                found.push(Event::Splash {
                    position: strip.point / strip.energy,
                    energy: strip.energy,
                    mass: strip.mass,
                    material: usize::from(strip.loudest.0),
                    hard: (strip.hard / strip.energy).clamp(0.0, 1.0),
                });
            }
            for ((from, to), mass, position) in changed.each() {
                found.push(Event::Changed {
                    from: usize::from(from),
                    to: usize::from(to),
                    mass,
                    position,
                });
            }
            for ((material, boiled), mass, position) in gone.each() {
                found.push(Event::Gone {
                    material: usize::from(material),
                    mass,
                    position,
                    boiled,
                });
            }
            for (id, position) in ignited {
                found.push(Event::Ignited { id, position });
            }
        }
        events.impacts = strips
            .iter()
            .filter(|strip| strip.energy > 0.0)
            .map(|strip| Impact {
                x: (strip.at / strip.energy).clamp(0.0, 1.0),
                energy: strip.energy,
                mass: strip.mass,
                hard: (strip.hard / strip.energy).clamp(0.0, 1.0),
            })
            .collect();
        events.births = births.flow(dt);
        events.erased = erased.flow(dt);
        events.boiled = boiled.flow(dt);
        events.frozen = frozen.flow(dt);
        events.reacted = reacted.flow(dt);
        // The heat that went from hot to cold: the smaller of the two, placed where the hot
        // liquid lost it.
        events.sizzle = Tally {
            amount: hot_out.amount.at_most(cold_in.amount),
            at: if hot_out.amount > 0.0 {
                hot_out.at / hot_out.amount * hot_out.amount.at_most(cold_in.amount)
            } else {
                0.0
            },
        }
        .flow(dt);
    }

    /// The bodies' knocks.
    fn knocks(
        &mut self,
        world: &View,
        dt: f32,
        events: &mut FrameEvents,
        mut found: Option<&mut Vec<Event>>,
    ) {
        let place = Place::new(world);
        let gravity = world.params().gravity * dt;
        let h = world.params().interaction_radius;
        for (index, &state) in world.body_states.iter().enumerate() {
            let last = self.bodies[index];
            self.bodies[index] = state.velocity;
            let change = state.velocity - (last + gravity);
            if change.length_squared() <= KNOCK_SPEED * KNOCK_SPEED
                || state.velocity.length_squared() >= (last + gravity).length_squared()
            {
                continue;
            }
            let reach = self.reach.get(index).copied().unwrap_or(0.0) + h;
            let wall = (world.domain().walls().iter()).any(|w| w.distance(state.position) < reach);
            let energy = 0.5 * state.mass * change.length_squared();
            events.knocks.push(Knock {
                x: place.x(state.centre_of_mass),
                energy,
                wall,
            });
            if let Some(found) = found.as_deref_mut() {
                found.push(Event::Knock {
                    body: index,
                    position: state.centre_of_mass,
                    energy,
                    wall,
                });
            }
        }
    }
}

/// Where a point is across the box.
struct Place {
    left: f32,
    width: f32,
}

impl Place {
    fn new(world: &View) -> Self {
        let (min, max) = (world.domain().min(), world.domain().max());
        Self {
            left: min.x,
            width: (max.x - min.x).at_least(f32::MIN_POSITIVE),
        }
    }

    /// 0 at the left wall, 1 at the right (clamped; 0.5 for a point that is not a number).
    fn x(&self, point: Vec2) -> f32 {
        let x = (point.x - self.left) / self.width;
        if x.is_nan() {
            0.5
        } else {
            x.clamp(0.0, 1.0)
        }
    }

    /// The strip of `x` (0 to 1).
    fn strip(&self, x: f32) -> usize {
        ((x * IMPACT_BINS as f32) as usize).min(IMPACT_BINS - 1)
    }
}

/// The lowest id and one past the highest id of `world`'s particles (0, 0 without any).
fn id_range(world: &View) -> (usize, usize) {
    let ids = &world.particles().id;
    if ids.is_empty() {
        return (0, 0);
    }
    let (min, max) = (ids.iter()).fold((u32::MAX, 0), |(min, max), &id| (min.min(id), max.max(id)));
    (min as usize, max as usize + 1)
}

/// Each of the scene's reactions' counts so far, in the scene's order.
fn reaction_counts(world: &View) -> Vec<u64> {
    world.reactions.clone()
}

/// Whether anything in `world` burns (so that its particles' ignitions are looked for).
fn burns(world: &View) -> bool {
    world
        .materials()
        .iter()
        .any(|m| m.ignition_temperature.is_some())
}

/// The scene's reactions so far, all kinds together.
fn reactions(world: &View) -> u64 {
    world.reactions.iter().sum()
}

/// A material that holds its shape: the solid side of a melting point, or fixed in place.
fn is_solid(material: &Material) -> bool {
    material.melts_into.is_some() || material.fixed
}

/// Whether a particle at `point` stopped against a wall, an obstacle or a body rather than
/// against liquid: one within the interaction radius of it.
fn against_something_hard(world: &View, point: Vec2, states: &[BodyState], reach: &[f32]) -> bool {
    let h = world.params().interaction_radius;
    if (world.domain().walls().iter()).any(|wall| wall.distance(point) < h) {
        return true;
    }
    if (world.obstacles().iter()).any(|obstacle| obstacle.distance(point) < h) {
        return true;
    }
    // The exact distance only near a body (its reach from its frame's origin).
    let near = (states.iter().zip(reach)).any(|(state, reach)| {
        (point - state.position).length_squared() < (reach + h) * (reach + h)
    });
    near && world.body_distance(point) < h
}
