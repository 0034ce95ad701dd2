//! Jets keep their shape at any resolution: a stream that leaves its nozzle as one piece at a
//! preset's own particle count stays one piece at 4× and 16× the particles, and comes down in the
//! same place, after 40 and 80 frames, in `seed`, `funnel`, `fountain`, `lava`, `layers` and
//! `mill`.
//!
//! A stream's particles are those its emitter made (each particle is given to the nearest
//! nozzle in the substep it appears). A particle is *in flight* until it lands, and it *lands*
//! where it first stops flying freely: where, within one frame, its velocity departs from free
//! fall from its velocity at the frame's start by more than 2 m/s (a free jet is pulled by
//! gravity alone; the pool, a wall, the funnel or the wheel stop it within a frame), not counting
//! its first tenth of a second at the nozzle, where its row settles into the stream. The pieces
//! of a stream are its particles in flight linked when closer than 1.5 particle spacings: a
//! stream that is whole is one piece, one that has broken up is as many pieces as it has drops.

use crate::common::piece_sizes;
use glam::Vec2;
use slosh::preset::Preset;
use slosh::sim::World;

/// cos 5°: a jet within 5° of straight up falls back onto itself.
const COS_5_DEGREES: f32 = 0.996_194_7;
/// Pieces smaller than this many of a preset's own particles (the same volume of finer ones) are
/// spray, not a piece of the stream.
const PIECE: usize = 20;
/// A particle's first tenth of a second, when its row settles into the stream, is not a landing.
const SETTLING: f64 = 0.1;
/// A particle has landed once its velocity departs from free fall by this much (m/s) within a
/// frame.
const LANDING: f32 = 2.0;

/// What one emitter's stream looked like at one frame.
#[derive(Debug)]
struct Stream {
    /// Pieces in flight of at least the size of `PIECE` of the preset's own particles.
    pieces: usize,
    /// The median place where the stream's particles landed in the ten frames before.
    landing: Option<Vec2>,
}

/// A world watched substep by substep: who made each particle, when, and where it landed.
struct Watched {
    world: World,
    /// By particle id: the emitter that made it (`None`: a block's).
    owner: Vec<Option<usize>>,
    /// By particle id: when it appeared.
    born: Vec<f64>,
    /// By particle id: the velocity free fall would give it now, from its velocity at the
    /// frame's start.
    velocity: Vec<Vec2>,
    /// By particle id: whether it has landed.
    landed: Vec<bool>,
    /// Per emitter: the frame and place of each landing.
    landings: Vec<Vec<(u32, Vec2)>>,
    frame: u32,
}

impl Watched {
    fn new(world: World) -> Self {
        let emitters = world.emitters().len();
        let mut watched = Self {
            world,
            owner: Vec::new(),
            born: Vec::new(),
            velocity: Vec::new(),
            landed: Vec::new(),
            landings: vec![Vec::new(); emitters],
            frame: 0,
        };
        watched.adopt(false);
        watched
    }

    /// Gives the particles not yet seen an owner: the nearest nozzle when `emitted`.
    fn adopt(&mut self, emitted: bool) {
        let particles = self.world.particles();
        let nozzles: Vec<Vec2> = self.world.emitters().iter().map(|e| e.position).collect();
        for i in 0..particles.len() {
            let id = particles.id[i] as usize;
            if id < self.owner.len() {
                continue;
            }
            self.owner.resize(id + 1, None);
            self.born.resize(id + 1, 0.0);
            self.velocity.resize(id + 1, Vec2::ZERO);
            self.landed.resize(id + 1, false);
            let x = particles.position[i];
            self.owner[id] = emitted
                .then(|| {
                    (0..nozzles.len()).min_by(|&a, &b| {
                        (nozzles[a] - x)
                            .length()
                            .total_cmp(&(nozzles[b] - x).length())
                    })
                })
                .flatten();
            self.born[id] = self.world.time();
            self.velocity[id] = particles.velocity[i];
        }
    }

    /// One frame, substep by substep, noting each landing.
    fn step_frame(&mut self) {
        self.frame += 1;
        let gravity = self.world.params().gravity;
        // Each particle's free flight is predicted from its velocity at the frame's start.
        let particles = self.world.particles();
        for (&id, &v) in particles.id.iter().zip(&particles.velocity) {
            self.velocity[id as usize] = v;
        }
        for _ in 0..self.world.params().substeps {
            let before = self.world.time();
            self.world.substep();
            let dt = (self.world.time() - before) as f32;
            self.adopt(true);
            let now = self.world.time();
            let particles = self.world.particles();
            for i in 0..particles.len() {
                let id = particles.id[i] as usize;
                let v = particles.velocity[i];
                self.velocity[id] += gravity * dt;
                let Some(emitter) = self.owner[id] else {
                    continue;
                };
                let settled = now - self.born[id] > SETTLING;
                let stopped = (v - self.velocity[id]).length() > LANDING;
                if settled && stopped && !self.landed[id] {
                    self.landed[id] = true;
                    self.landings[emitter].push((self.frame, particles.position[i]));
                }
            }
        }
    }

    /// Each emitter's stream now; pieces count from `piece` particles.
    fn streams(&self, piece: usize) -> Vec<Stream> {
        (0..self.landings.len())
            .map(|emitter| {
                let recent = self.landings[emitter]
                    .iter()
                    .filter(|(frame, _)| frame + 10 > self.frame)
                    .map(|&(_, x)| x);
                let pieces = self.pieces_in_flight(emitter);
                Stream {
                    pieces: pieces.iter().filter(|&&size| size >= piece).count(),
                    landing: median(recent.collect()),
                }
            })
            .collect()
    }

    /// The sizes of the pieces `emitter`'s particles in flight (not landed) make, linked when
    /// closer than 1.5 particle spacings.
    fn pieces_in_flight(&self, emitter: usize) -> Vec<usize> {
        let world = &self.world;
        let particles = world.particles();
        let link = 1.5 * 2.0 * world.params().particle_radius;
        let flying: Vec<Vec2> = (0..particles.len())
            .filter(|&i| {
                let id = particles.id[i] as usize;
                self.owner[id] == Some(emitter) && !self.landed[id]
            })
            .map(|i| particles.position[i])
            .collect();
        piece_sizes(&flying, link)
    }
}

/// The component-wise median of `points` (`None` for none).
fn median(mut points: Vec<Vec2>) -> Option<Vec2> {
    if points.is_empty() {
        return None;
    }
    let middle = points.len() / 2;
    points.sort_by(|a, b| a.x.total_cmp(&b.x));
    let x = points[middle].x;
    points.sort_by(|a, b| a.y.total_cmp(&b.y));
    Some(Vec2::new(x, points[middle].y))
}

/// The streams of `preset` at `multiple` times its particles, after 40 and 80 frames, and the
/// width of its box.
fn streams(preset: &str, multiple: usize) -> ([Vec<Stream>; 2], f32) {
    let preset = Preset::load(preset).unwrap();
    let preset = match multiple {
        1 => preset,
        _ => {
            let particles = preset.particles() * multiple;
            preset.with_particles(particles).unwrap()
        }
    };
    let mut watched = Watched::new(preset.build_world(1));
    let domain = watched.world.domain();
    let width = domain.max().x - domain.min().x;
    for _ in 0..40 {
        watched.step_frame();
    }
    let early = watched.streams(PIECE * multiple);
    for _ in 0..40 {
        watched.step_frame();
    }
    ([early, watched.streams(PIECE * multiple)], width)
}

/// Every stream of `preset` at `multiple` times its particles has at most one piece in flight
/// more than at its own count, after 40 and after 80 frames, and lands within 5% of the box's
/// width of where it lands at its own count. A piece counts from as much liquid as `PIECE` of the
/// preset's own particles (`PIECE × multiple` finer ones): the same drop is the same size at
/// any resolution. A jet shot straight up (within 5° of vertical) falls back onto itself, to
/// one side or the other by chance: its landing place is not compared.
fn assert_same_streams(preset: &str, multiple: usize) {
    let (own, width) = streams(preset, 1);
    let (finer, _) = streams(preset, multiple);
    let straight_up: Vec<bool> = Preset::load(preset)
        .unwrap()
        .scene
        .emitters
        .iter()
        .map(|e| e.direction.y > COS_5_DEGREES)
        .collect();
    for ((frame, own), finer) in [40, 80].iter().zip(&own).zip(&finer) {
        for (emitter, (a, b)) in own.iter().zip(finer).enumerate() {
            let context = format!("{preset}, emitter {emitter}, frame {frame}, {multiple}x");
            eprintln!("{context}: own {a:?}, finer {b:?}");
            assert!(
                b.pieces <= a.pieces + 1,
                "{context}: {} pieces in flight, {} at its own count",
                b.pieces,
                a.pieces
            );
            if let (Some(a), Some(b), false) = (a.landing, b.landing, straight_up[emitter]) {
                assert!(
                    (a.x - b.x).abs() <= 0.05 * width,
                    "{context}: lands at x = {}, at its own count {} (box {width} wide)",
                    b.x,
                    a.x
                );
            }
        }
    }
}

#[test]
fn the_seeds_jets_keep_their_shape_at_four_times_the_particles() {
    assert_same_streams("seed", 4);
}

#[test]
fn the_funnels_streams_keep_their_shape_at_four_times_the_particles() {
    assert_same_streams("funnel", 4);
}

#[test]
fn the_fountains_jets_keep_their_shape_at_four_times_the_particles() {
    assert_same_streams("fountain", 4);
}

#[test]
fn the_lava_stream_keeps_its_shape_at_four_times_the_particles() {
    assert_same_streams("lava", 4);
}

#[test]
fn the_layers_streams_keep_their_shape_at_four_times_the_particles() {
    assert_same_streams("layers", 4);
}

#[cfg(feature = "bodies")]
#[test]
fn the_mills_pour_keeps_its_shape_at_four_times_the_particles() {
    assert_same_streams("mill", 4);
}

/// Half a minute in all: every scene at 16× its particles.
#[test]
fn every_stream_keeps_its_shape_at_sixteen_times_the_particles() {
    let presets = ["seed", "funnel", "fountain", "lava", "layers", "mill"];
    // The mill's wheel is a rigid body.
    for preset in presets
        .into_iter()
        .filter(|&p| cfg!(feature = "bodies") || p != "mill")
    {
        assert_same_streams(preset, 16);
    }
}
