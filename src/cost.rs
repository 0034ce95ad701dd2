//! What a scene costs to simulate on this machine, and so how many particles it affords in a
//! share of real time: the window's automatic resolution (`--particles auto`) and the headless
//! report's `cost_model` (`docs/ENGINE.md`, "The automatic resolution").
//!
//! A frame of a scene costs, in milliseconds,
//!
//! ```text
//! fixed + substeps × (particles × per_particle + (elastic − share × particles) × spring) / 1000
//! ```
//!
//! `fixed` is what a frame costs whatever its particles: the air grid's step (one a frame, on a
//! grid whose cells do not change with the particles), the rigid bodies, each stage's own
//! overhead. `per_particle` is the microseconds one particle costs a substep in this scene (its
//! heat, reactions and springs included), as the scene is when it starts, where `share` of its
//! particles have springs. `particles` and `elastic` are what the scene holds once its emitters
//! are spent and its materials have turned into what they turn into; `spring` prices the springs
//! it then has beyond that share. Lava poured into the sea in `volcano` becomes rock that keeps
//! springs, and its frames then cost more than twice what its first ones do: priced as it
//! starts, it would be given a count it cannot keep up with half a minute later.
//!
//! `CostModel::measure` times the scene itself at two particle counts (`SAMPLE_COUNTS`), the
//! same frames of it each time (from its start, seed 1), and fits `fixed` and `per_particle`
//! through the two; `spring` comes from the springs stage's time in a block of the scene's own
//! material with springs (`spring_probe`), and the price of a particle in a scene that starts
//! nearly empty from `collapse` (`liquid_reference`).

use crate::preset::{Preset, MAX_PARTICLES};
use crate::sim::numerics::clock::Instant;
use crate::sim::numerics::portable::Ordered;
use crate::sim::{Block, Product, Scene, World};
use glam::Vec2;
use serde::Serialize;
use std::sync::OnceLock;

/// One measurement: frames of a scene at one particle count.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Particles in the world while it was timed.
    pub particles: usize,
    /// Of those, particles of a material with springs.
    pub elastic: usize,
    /// Substeps each timed frame ran.
    pub substeps: u32,
    /// Median wall milliseconds of the timed frames.
    pub ms: f64,
}

impl Sample {
    /// Particle-substeps a frame of this sample runs.
    fn work(&self) -> f64 {
        self.particles as f64 * f64::from(self.substeps)
    }
}

/// What a scene holds for the cost model: its particles once poured, how many of them have (or
/// will have) springs, and its substeps per frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Load {
    /// Particles the scene holds once its blocks are filled and its emitters spent.
    pub particles: usize,
    /// Of those, the particles of a material with springs or of one that turns into one
    /// (`eventually_elastic`).
    pub elastic: usize,
    /// Substeps per frame.
    pub substeps: u32,
}

impl Load {
    /// What `scene` holds once poured: its blocks' particles and its emitters' budgets (within
    /// `max_particles`), each elastic when its material is or turns into one with springs.
    pub fn of(scene: &Scene) -> Self {
        let elastic = eventually_elastic(scene);
        let (mut particles, mut springs) = (0_usize, 0_usize);
        for (material, count) in held(scene) {
            particles += count;
            if elastic.get(material).is_some_and(Option::is_some) {
                springs += count;
            }
        }
        let held = particles.min(scene.params.max_particles);
        let elastic = if particles == 0 {
            0
        } else {
            (springs as f64 * held as f64 / particles as f64).round() as usize
        };
        Self {
            particles: held,
            elastic,
            substeps: scene.params.substeps,
        }
    }

    /// What `world` holds now: its particles, those of a material with springs, and the
    /// substeps its last frame ran.
    pub fn now(world: &World) -> Self {
        let springs: Vec<bool> = world
            .materials()
            .iter()
            .map(|m| m.spring_stiffness > 0.0 && !m.fixed)
            .collect();
        let elastic = world
            .particles()
            .material
            .iter()
            .filter(|&&m| springs.get(usize::from(m)).copied().unwrap_or(false))
            .count();
        Self {
            particles: world.particles().len(),
            elastic,
            substeps: world.last_frame().substeps,
        }
    }
}

/// For each material of `scene`, the material with springs its particles have or come to have
/// (`None`: they never have springs): itself where it has springs, else the one it turns into,
/// by a reaction or by freezing (or the one that turns into, and so on). A material freezes into
/// the one that melts into it when the scene's mean temperature (of everything its blocks and
/// emitters hold, weighted by mass and heat capacity; latent heats and the air left out) is
/// below that one's melting point: the lava of `volcano` (1,000 °C, poured into a sea at 20 °C)
/// freezes into rock, the water of `ice` (at 40 °C, with a little ice at −10 °C) does not
/// freeze. Fixed materials (which hold still) keep no springs.
pub fn eventually_elastic(scene: &Scene) -> Vec<Option<usize>> {
    let materials = &scene.materials;
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for reaction in &scene.reactions {
        for (from, product) in reaction.between.iter().zip(reaction.into) {
            if let Product::Material(to) = product {
                edges.push((*from, to));
            }
        }
    }
    let mean = mean_temperature(scene);
    for (solid, material) in materials.iter().enumerate() {
        let Some(melt) = material.melts_into.as_deref() else {
            continue;
        };
        let Some(liquid) = materials.iter().position(|m| m.name == melt) else {
            continue;
        };
        if mean.is_some_and(|mean| mean < material.melting_point) {
            edges.push((liquid, solid));
        } else {
            edges.push((solid, liquid));
        }
    }
    let mut springs: Vec<Option<usize>> = materials
        .iter()
        .enumerate()
        .map(|(m, material)| (material.spring_stiffness > 0.0 && !material.fixed).then_some(m))
        .collect();
    // What turns into a material with springs comes to have them too, to a fixed point.
    let mut changed = true;
    while changed {
        changed = false;
        for &(from, to) in &edges {
            let reached = springs.get(to).copied().flatten();
            if let (Some(reached), Some(None)) = (reached, springs.get(from)) {
                springs[from] = Some(reached);
                changed = true;
            }
        }
    }
    springs
}

/// The particles each of `scene`'s blocks and emitters holds once poured, by material.
fn held(scene: &Scene) -> impl Iterator<Item = (usize, usize)> + '_ {
    let blocks = scene
        .blocks
        .iter()
        .map(|block| (block.material, block.positions().len()));
    let emitted = scene
        .emitters
        .iter()
        .map(|emitter| (emitter.material, emitter.budget));
    blocks.chain(emitted)
}

/// The material with springs that most of `scene`'s particles with springs have once poured
/// (`eventually_elastic`), if any has.
pub fn main_spring_material(scene: &Scene) -> Option<usize> {
    let springs = eventually_elastic(scene);
    let mut counts = vec![0_usize; scene.materials.len()];
    for (material, count) in held(scene) {
        if let Some(Some(spring)) = springs.get(material) {
            counts[*spring] += count;
        }
    }
    (0..counts.len())
        .filter(|&m| counts[m] > 0)
        .max_by_key(|&m| counts[m])
}

/// The mean temperature of what `scene`'s blocks and emitters hold, weighted by each particle's
/// mass and heat capacity; `None` when they hold nothing.
fn mean_temperature(scene: &Scene) -> Option<f32> {
    let (mut heat, mut capacity) = (0.0_f64, 0.0_f64);
    for (material, count) in held(scene) {
        let Some(material) = scene.materials.get(material) else {
            continue;
        };
        let c = count as f64 * f64::from(material.mass) * f64::from(material.heat_capacity);
        heat += c * f64::from(material.temperature);
        capacity += c;
    }
    (capacity > 0.0).then(|| (heat / capacity) as f32)
}

/// True when `sample` has particles enough to price one of a scene that holds `poured` once
/// poured (`FEWEST_PRICED`).
fn priced(sample: &Sample, poured: usize) -> bool {
    sample.particles >= FEWEST_PRICED.max(poured / 4)
}

/// What a frame of one scene costs on this machine at any particle count (the module's
/// formula).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CostModel {
    /// Milliseconds a frame costs whatever its particles.
    pub fixed_ms: f64,
    /// Microseconds one particle costs a substep, springs included as far as `elastic_share` of
    /// the particles have them (as in the samples the model was fitted to).
    pub per_particle_us: f64,
    /// The share of the samples' particles that had springs.
    pub elastic_share: f64,
    /// Microseconds a particle with springs costs a substep more than one without
    /// (`Reference`): what the scene pays for more springs once poured than it had when timed.
    pub spring_us: f64,
}

/// The share of `sample`'s particles that have springs (0 without particles).
fn elastic_share(sample: &Sample) -> f64 {
    if sample.particles == 0 {
        0.0
    } else {
        sample.elastic as f64 / sample.particles as f64
    }
}

/// What a scene's model takes from elsewhere than its two samples: the price of a particle where
/// the samples have too few to price (`liquid_reference`), and what springs add to a particle
/// where the scene comes to have more than the samples did (`spring_probe`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Reference {
    /// Microseconds a particle of a liquid costs a substep (`liquid_reference`).
    pub liquid_us: f64,
    /// Microseconds a particle with springs costs a substep more than one without
    /// (`spring_probe`).
    pub spring_us: f64,
}

/// The counts `CostModel::measure` times a scene at (each at least a quarter of the scene's own
/// count, the coarsest `--particles auto` goes): far enough apart that the fit separates the
/// fixed cost from the particles', near enough to what this machine affords that the fit
/// interpolates, and cheap enough that a jelly, the dearest scene per particle, is timed in
/// about a quarter of a second here.
pub const SAMPLE_COUNTS: [usize; 2] = [2_000, 6_000];

/// Frames each sample runs before it is timed (caches, buffers and springs formed).
const WARM_UP_FRAMES: usize = 1;

/// Frames each sample times; the sample is their median, a typical frame (what the window's
/// `sim_ms_per_frame` is the median of): the cheapest of them priced scenes 5 to 10% under what
/// their frames went on to cost.
const TIMED_FRAMES: usize = 3;

/// Fewer particles than this in the larger sample, or fewer than a quarter of what the scene
/// holds once poured, and the scene's particles are priced as `collapse`'s: a scene that starts
/// with its emitters still to pour has too few to price.
const FEWEST_PRICED: usize = 500;

/// Times `world` as `Sample` does: `WARM_UP_FRAMES`, then the median of `TIMED_FRAMES`.
/// `None` when the clock did not move (a page whose clock is not readable).
pub fn time_frames(world: &mut World) -> Option<Sample> {
    for _ in 0..WARM_UP_FRAMES {
        world.step_frame();
    }
    let mut times = Vec::with_capacity(TIMED_FRAMES);
    let mut substeps = Vec::with_capacity(TIMED_FRAMES);
    for _ in 0..TIMED_FRAMES {
        let start = Instant::now();
        world.step_frame();
        times.push(start.elapsed().as_secs_f64() * 1000.0);
        substeps.push(world.last_frame().substeps);
    }
    let mut order: Vec<usize> = (0..times.len()).collect();
    order.sort_by(|&a, &b| times[a].total_cmp(&times[b]));
    let median = order[order.len() / 2];
    let now = Load::now(world);
    (times[median] > 0.0).then(|| Sample {
        particles: now.particles,
        elastic: now.elastic,
        substeps: substeps[median],
        ms: times[median],
    })
}

/// `preset` with about `particles` particles, or the nearest count above it that fits (a scene
/// whose obstacles leave no room for coarser ones), but no fewer than a quarter of its own.
fn scaled(preset: &Preset, particles: usize) -> Option<Preset> {
    let mut count = particles.max(preset.own_particles() / 4).max(1);
    while count <= MAX_PARTICLES {
        if let Ok(scaled) = preset.clone().with_particles(count) {
            return Some(scaled);
        }
        count *= 2;
    }
    None
}

/// `preset` at about `particles` particles, built from seed 1 and timed (`time_frames`).
fn sample(preset: &Preset, particles: usize) -> Option<Sample> {
    let scaled = scaled(preset, particles)?;
    time_frames(&mut scaled.build_world(1))
}

/// Microseconds a particle of a liquid costs a substep on this machine: the slope of
/// `collapse`'s fit (water alone: no springs, no air, no bodies, so that the engine built without
/// its `bodies` feature prices it too; and particles enough to price), timed on the first call (a few
/// hundredths of a second here) and kept for the rest of the run; `None` when the clock did not
/// move.
pub fn liquid_reference() -> Option<f64> {
    static LIQUID: OnceLock<Option<f64>> = OnceLock::new();
    *LIQUID.get_or_init(|| {
        let water = Preset::load("collapse").expect("the embedded collapse preset loads");
        let small = sample(&water, SAMPLE_COUNTS[0])?;
        let large = sample(&water, SAMPLE_COUNTS[1])?;
        Some(CostModel::fit(small, large, 0, Reference::default()).per_particle_us)
    })
}

/// Particles in each block `spring_probe` times.
const PROBE_PARTICLES: usize = 2_000;

/// What a spring of matter that turned elastic as the scene ran (its ids scattered among the
/// liquid's) costs against one of a fresh block (`spring_probe`): measured in `volcano` at 8,500
/// particles once its rock had piled, 0.029 to 0.049 µs a spring-substep (0.041 the median of
/// eight frames) against the block's 0.030, on the 2-core machine.
const FORMED_SPRINGS: f64 = 1.35;

/// Microseconds a particle of `material` costs a substep for its springs, in `scene` at its
/// resolution: the springs stage's time per particle-substep in a block of `PROBE_PARTICLES` of
/// it, resting on the floor of the scene's box with nothing else in it (no air, no bodies, no
/// obstacles), over `TIMED_FRAMES` frames after `WARM_UP_FRAMES` (its springs form in the first).
/// The stage's own clock, not the frame's, so that the rest of the frame's noise stays out. A
/// few hundredths of a second here; `None` when the clock did not move.
///
/// The block's particles hold as many springs each as rock that formed in a pile as `volcano`
/// runs (7.6 against 7.7 at 8,500 particles), but each of its springs costs less: its ids run in
/// the order of their places, where matter that turned elastic as the scene ran has its ids
/// scattered through the liquid's, and the springs stage reaches each spring's other end by id.
/// `FORMED_SPRINGS` prices that.
pub fn spring_probe(scene: &Scene, material: usize) -> Option<f64> {
    let mut probe = scene.clone();
    probe.emitters.clear();
    probe.blocks.clear();
    probe.obstacles.clear();
    probe.bodies.clear();
    probe.hinges.clear();
    probe.reactions.clear();
    probe.air = None;
    // At the rest spacing of the scene's blocks, from the floor, across half the box.
    let spacing = 2.0 * probe.params.particle_radius;
    let (low, high) = (probe.domain.min(), probe.domain.max());
    let width = (high.x - low.x) / 2.0;
    let columns = (width / spacing).floor().at_least(1.0);
    let rows = (PROBE_PARTICLES as f32 / columns).ceil();
    let min = Vec2::new(low.x + width / 2.0, low.y + spacing);
    probe.blocks.push(Block {
        material,
        min,
        max: min + Vec2::new(columns, rows) * spacing,
        spacing,
        count: Some(PROBE_PARTICLES),
    });
    let mut world = World::new(probe, 1);
    for _ in 0..WARM_UP_FRAMES {
        world.step_frame();
    }
    let (before, substeps) = (
        world.stage_times().subsystem("springs"),
        world.substeps_done(),
    );
    for _ in 0..TIMED_FRAMES {
        world.step_frame();
    }
    let spent = world.stage_times().subsystem("springs") - before;
    let elastic = Load::now(&world).elastic;
    let work = (world.substeps_done() - substeps) as f64 * elastic as f64;
    (spent.as_secs_f64() > 0.0).then(|| spent.as_secs_f64() * 1.0e6 / work.at_least(1.0))
}

impl CostModel {
    /// Times `preset`'s scene at `SAMPLE_COUNTS` and fits its model (`fit`), with the price of
    /// its springs (`spring_probe`) where it comes to have more than it starts with, and a
    /// liquid's price (`liquid_reference`) where it starts with too few particles to price: 0.23 s
    /// for a jelly (the dearest particles) on the 2-core machine, 0.13 s for volcano, 0.06 s for
    /// dam. `None` when the clock did not move.
    pub fn measure(preset: &Preset) -> Option<Self> {
        let small = sample(preset, SAMPLE_COUNTS[0])?;
        let large = sample(preset, SAMPLE_COUNTS[1])?;
        let at = scaled(preset, SAMPLE_COUNTS[1])?;
        let poured = Load::of(&at.scene);
        let enough = priced(&large, poured.particles);
        let liquid_us = if enough { 0.0 } else { liquid_reference()? };
        // The springs' price only where the poured scene has more or fewer than the samples.
        let share = if enough { elastic_share(&large) } else { 0.0 };
        let expected = share * poured.particles as f64;
        let spring_us = match main_spring_material(&at.scene) {
            Some(material)
                if (poured.elastic as f64 - expected).abs() > 0.05 * expected.at_least(1.0) =>
            {
                spring_probe(&at.scene, material)? * FORMED_SPRINGS
            }
            _ => 0.0,
        };
        let reference = Reference {
            liquid_us,
            spring_us,
        };
        Some(Self::fit(small, large, poured.particles, reference))
    }

    /// The model through two samples of one scene, `large` the one with more particles, whose
    /// scene holds `poured` particles once poured: a straight line through the two gives
    /// `fixed_ms` (the cost at no particles) and `per_particle_us` (its slope, with springs as
    /// many as `large` has), except:
    ///
    /// - with fewer than `FEWEST_PRICED` particles in `large`, or fewer than a quarter of
    ///   `poured`, a particle costs what one of the reference liquid does (no springs), and
    ///   `fixed_ms` is what is left of `large`;
    /// - where the two samples are less than 1.5 times apart in particle-substeps, or the
    ///   larger costs no more than the smaller (the clock's noise), everything is priced per
    ///   particle through `large` (`fixed_ms` 0: dearer for more particles than it has, so the
    ///   count chosen errs coarse);
    /// - a line that would cross zero above no particles (a cost that grows faster than the
    ///   particles) keeps its slope, with `fixed_ms` 0.
    ///
    /// `spring_us` is the reference's, for the springs the poured scene has beyond (or short
    /// of) that share.
    pub fn fit(small: Sample, large: Sample, poured: usize, reference: Reference) -> Self {
        let (small, large) = if small.work() <= large.work() {
            (small, large)
        } else {
            (large, small)
        };
        let spring_us = reference.spring_us;
        if !priced(&large, poured) {
            let springs = spring_us * large.elastic as f64 * f64::from(large.substeps);
            let per_particle_us = reference.liquid_us;
            return Self {
                fixed_ms: (large.ms - (per_particle_us * large.work() + springs) / 1000.0)
                    .at_least(0.0),
                per_particle_us,
                elastic_share: 0.0,
                spring_us,
            };
        }
        let elastic_share = elastic_share(&large);
        let (x0, x1) = (small.work(), large.work());
        let (y0, y1) = (small.ms, large.ms);
        if x1 < 1.5 * x0 || y1 <= y0 {
            return Self {
                fixed_ms: 0.0,
                per_particle_us: y1 * 1000.0 / x1,
                elastic_share,
                spring_us,
            };
        }
        let slope = (y1 - y0) / (x1 - x0);
        Self {
            fixed_ms: (y0 - slope * x0).at_least(0.0),
            per_particle_us: slope * 1000.0,
            elastic_share,
            spring_us,
        }
    }

    /// Milliseconds a frame of a scene holding `load` costs: `fixed_ms`, and each substep
    /// `per_particle_us` for each particle and `spring_us` for each one with springs beyond
    /// `elastic_share` of them (less, for each one short of it).
    pub fn frame_ms(&self, load: Load) -> f64 {
        let particles = load.particles as f64;
        let beyond = load.elastic as f64 - self.elastic_share * particles;
        let per_substep = particles * self.per_particle_us + beyond * self.spring_us;
        self.fixed_ms + f64::from(load.substeps) * per_substep.at_least(0.0) / 1000.0
    }

    /// This model with every price `factor` times what it is: a machine `factor` times slower.
    pub fn times(&self, factor: f64) -> Self {
        Self {
            fixed_ms: self.fixed_ms * factor,
            per_particle_us: self.per_particle_us * factor,
            elastic_share: self.elastic_share,
            spring_us: self.spring_us * factor,
        }
    }

    /// The share of real time `preset`'s scene takes, once poured: its frames' cost at its frame
    /// rate, in wall seconds per simulated second.
    pub fn share(&self, preset: &Preset) -> f64 {
        let load = Load::of(&preset.scene);
        self.frame_ms(load) * f64::from(preset.scene.params.frame_rate) / 1000.0
    }

    /// The model's figures for `preset` at the count it has, as reports give them.
    pub fn prediction(&self, preset: &Preset) -> Prediction {
        let load = Load::of(&preset.scene);
        Prediction {
            load,
            predicted_ms_per_frame: self.frame_ms(load),
            model: *self,
        }
    }
}

/// What the model says of one scene at one count: the headless report's `cost_model` and the
/// window's.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Prediction {
    /// What the scene holds once poured, and its substeps.
    #[serde(flatten)]
    pub load: Load,
    /// Milliseconds a frame costs once the scene is poured (`CostModel::frame_ms`).
    pub predicted_ms_per_frame: f64,
    /// The model.
    #[serde(flatten)]
    pub model: CostModel,
}

/// The share of real time the simulation may take under `--particles auto`: half, so that the
/// drawing has the other half, and a scene that costs more than its model says still keeps up.
pub const AUTO_SHARE: f64 = 0.5;

/// The finest `--particles auto` goes: this many times a preset's own particles, the finest the
/// tests check a preset's behaviour at (`tests/suite/resolution.rs`, `tests/suite/jets.rs`).
pub const AUTO_FINEST: usize = 16;

/// The most particles `preset` can have while one simulated second of it, once poured, costs at
/// most `share` of a wall second by `model` (finer particles also need more substeps per
/// frame); at least a quarter of its own count, at most `AUTO_FINEST` times it (and
/// `MAX_PARTICLES`).
pub fn affordable_particles(preset: &Preset, model: &CostModel, share: f64) -> usize {
    let cost = |particles: usize| -> f64 {
        match preset.clone().with_particles(particles) {
            Ok(scaled) => model.share(&scaled),
            Err(_) => f64::INFINITY,
        }
    };
    let own = preset.own_particles().max(1);
    let high = (AUTO_FINEST * own).min(MAX_PARTICLES);
    // The coarsest count that fits (a jelly's boulder leaves no room for a quarter of its
    // particles): a count that does not is no answer, and would stop the bisection.
    let mut low = (own / 4).max(1);
    while low < own && cost(low).is_infinite() {
        low = (2 * low).min(own);
    }
    let mut high = high.max(low);
    if cost(high) <= share {
        return high;
    }
    if cost(low) > share {
        return low;
    }
    // Bisection on the count, to about 2%.
    while high > low + low / 50 + 1 {
        let middle = low + (high - low) / 2;
        if cost(middle) <= share {
            low = middle;
        } else {
            high = middle;
        }
    }
    low
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sample of a scene whose frames cost exactly `model`'s figures.
    fn exact(model: &CostModel, particles: usize, elastic: usize, substeps: u32) -> Sample {
        let load = Load {
            particles,
            elastic,
            substeps,
        };
        Sample {
            particles,
            elastic,
            substeps,
            ms: model.frame_ms(load),
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * a.abs().at_least(b.abs()).at_least(1.0)
    }

    /// Two samples of a scene that costs a fixed part and a part per particle-substep give both
    /// back, whichever order they come in and whatever substeps each ran.
    #[test]
    fn the_fit_through_two_samples_separates_the_fixed_cost_from_the_particles() {
        let truth = CostModel {
            fixed_ms: 3.5,
            per_particle_us: 0.12,
            elastic_share: 0.0,
            spring_us: 0.0,
        };
        let small = exact(&truth, 2_000, 0, 6);
        let large = exact(&truth, 6_000, 0, 10);
        for (a, b) in [(small, large), (large, small)] {
            let fitted = CostModel::fit(a, b, 6_000, Reference::default());
            assert!(close(fitted.fixed_ms, 3.5), "{fitted:?}");
            assert!(close(fitted.per_particle_us, 0.12), "{fitted:?}");
            let fine = Load {
                particles: 20_000,
                elastic: 0,
                substeps: 18,
            };
            assert!(close(fitted.frame_ms(fine), truth.frame_ms(fine)));
        }
    }

    /// Samples the clock got wrong (the larger one cheaper) or too close together to tell the
    /// parts apart price everything per particle, through the larger; a cost growing faster
    /// than the particles keeps its slope with no fixed part; neither is ever negative.
    #[test]
    fn a_fit_the_samples_cannot_support_errs_toward_fewer_particles() {
        let sample = |particles, ms| Sample {
            particles,
            elastic: 0,
            substeps: 10,
            ms,
        };
        let none = Reference::default();
        let noisy = CostModel::fit(sample(2_000, 9.0), sample(6_000, 8.0), 6_000, none);
        assert_eq!(noisy.fixed_ms, 0.0);
        assert!(
            close(noisy.per_particle_us, 8.0 * 1000.0 / 60_000.0),
            "{noisy:?}"
        );
        let near = CostModel::fit(sample(5_000, 7.0), sample(6_000, 8.0), 6_000, none);
        assert_eq!(near.fixed_ms, 0.0);
        assert!(
            close(near.per_particle_us, 8.0 * 1000.0 / 60_000.0),
            "{near:?}"
        );
        let steep = CostModel::fit(sample(2_000, 1.0), sample(6_000, 9.0), 6_000, none);
        assert_eq!(steep.fixed_ms, 0.0);
        assert!(
            close(steep.per_particle_us, 8.0 * 1000.0 / 40_000.0),
            "{steep:?}"
        );
    }

    /// A scene that starts with its emitters still to pour (too few particles to price) pays a
    /// liquid's price per particle, and what its sample costs beyond that is its fixed part.
    #[test]
    fn a_scene_that_starts_empty_is_priced_as_a_liquid() {
        let reference = Reference {
            liquid_us: 0.1,
            spring_us: 0.0,
        };
        let empty = Sample {
            particles: 100,
            elastic: 0,
            substeps: 10,
            ms: 2.0,
        };
        let model = CostModel::fit(empty, empty, 8_000, reference);
        assert!(close(model.per_particle_us, 0.1), "{model:?}");
        assert!(
            close(model.fixed_ms, 2.0 - 0.1 * 1_000.0 / 1000.0),
            "{model:?}"
        );
        // Smoke: no particles at all, only air.
        let air = Sample {
            particles: 0,
            ms: 4.0,
            ..empty
        };
        let model = CostModel::fit(air, air, 0, reference);
        assert!(close(model.fixed_ms, 4.0), "{model:?}");
    }

    /// Springs cost `spring_us` only beyond the share the samples had: a jelly (all springs,
    /// timed so) pays nothing more; lava that turns into rock pays for every rock particle.
    #[test]
    fn springs_are_priced_beyond_the_share_the_samples_had() {
        let jelly = CostModel {
            fixed_ms: 0.0,
            per_particle_us: 0.5,
            elastic_share: 1.0,
            spring_us: 0.3,
        };
        let all = Load {
            particles: 1_000,
            elastic: 1_000,
            substeps: 10,
        };
        assert!(close(jelly.frame_ms(all), 5.0));
        let volcano = CostModel {
            elastic_share: 0.0,
            ..jelly
        };
        let third = Load {
            elastic: 300,
            ..all
        };
        assert!(close(volcano.frame_ms(third), 5.0 + 0.9));
        assert!(volcano.frame_ms(third) < volcano.frame_ms(all));
    }

    /// The model of a scene, priced `factor` times dearer.
    fn priced(factor: f64) -> CostModel {
        CostModel {
            fixed_ms: 0.5 * factor,
            per_particle_us: 0.1 * factor,
            elastic_share: 0.0,
            spring_us: 0.0,
        }
    }

    /// A faster machine (a cheaper model) affords at least as many particles, a fixed cost per
    /// frame (air, bodies) fewer, and whatever the machine the count stays within a quarter and
    /// `AUTO_FINEST` times the preset's own.
    #[test]
    fn the_affordable_count_follows_the_machine_and_the_fixed_cost() {
        let preset = Preset::load("collapse").unwrap();
        let own = preset.own_particles();
        let counts: Vec<usize> = [8.0, 4.0, 2.0, 1.0, 0.5, 0.25]
            .iter()
            .map(|&factor| affordable_particles(&preset, &priced(factor), AUTO_SHARE))
            .collect();
        assert!(counts.windows(2).all(|w| w[0] <= w[1]), "{counts:?}");
        assert!(counts[0] < counts[5], "{counts:?}");
        let bare = priced(1.0);
        let with_air = CostModel {
            fixed_ms: 15.0,
            ..bare
        };
        let (without, with) = (
            affordable_particles(&preset, &bare, AUTO_SHARE),
            affordable_particles(&preset, &with_air, AUTO_SHARE),
        );
        assert!(with < without, "{with} {without}");
        for factor in [1.0e-9, 1.0e9] {
            let count = affordable_particles(&preset, &priced(factor), AUTO_SHARE);
            assert!((own / 4..=AUTO_FINEST * own).contains(&count), "{count}");
        }
        let chosen = preset.clone().with_particles(counts[3]).unwrap();
        assert!(
            bare.share(&chosen) <= AUTO_SHARE,
            "the count chosen fits the share"
        );
    }

    /// Volcano's lava freezes into rock (it is poured into a cold sea), which has springs; its
    /// water and its fixed stone never have them. Ice's water does not freeze (it is warm),
    /// its ice has springs from the start; collapse's water never has any.
    #[test]
    fn what_comes_to_have_springs_follows_reactions_and_freezing() {
        let springs = |name: &str| {
            let scene = Preset::load(name).unwrap().scene;
            let by_name = |m: Option<usize>| m.map(|m| scene.materials[m].name.clone());
            scene
                .materials
                .iter()
                .zip(eventually_elastic(&scene))
                .map(|(material, spring)| (material.name.clone(), by_name(spring)))
                .collect::<Vec<_>>()
        };
        let rock = Some("rock".to_string());
        let volcano = springs("volcano");
        assert_eq!(volcano[0], ("water".into(), None));
        assert_eq!(volcano[1], ("lava".into(), rock.clone()));
        assert_eq!(volcano[2], ("rock".into(), rock));
        assert_eq!(volcano[3], ("stone".into(), None));
        let ice = springs("ice");
        assert_eq!(ice[0], ("water".into(), None));
        assert_eq!(ice[1], ("ice".into(), Some("ice".into())));
        assert_eq!(springs("collapse"), vec![("water".into(), None)]);
        let scene = Preset::load("volcano").unwrap().scene;
        let load = Load::of(&scene);
        let lava = scene.emitters[0].budget;
        assert_eq!(load.elastic, lava, "{load:?}");
        assert_eq!(main_spring_material(&scene), Some(2));
    }

    /// Measuring a scene (here one with air, heat and springs to come) gives figures a frame
    /// can be priced with: finite and not negative. What they are depends on the machine.
    #[test]
    fn a_measured_model_prices_frames() {
        let preset = Preset::load("volcano").unwrap();
        let Some(model) = CostModel::measure(&preset) else {
            return;
        };
        for figure in [
            model.fixed_ms,
            model.per_particle_us,
            model.elastic_share,
            model.spring_us,
        ] {
            assert!(figure.is_finite() && figure >= 0.0, "{model:?}");
        }
        let prediction = model.prediction(&preset);
        assert!(prediction.predicted_ms_per_frame > 0.0, "{prediction:?}");
    }
}
