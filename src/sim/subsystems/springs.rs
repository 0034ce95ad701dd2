//! Viscoelastic springs between particles of one material (Clavet et al. 2005, section 5.2,
//! algorithms 3 and 4), computed Jacobi-style so that results do not depend on the thread count.
//!
//! Each particle keeps its own list of at most `MAX_SPRINGS` springs, keyed by its stable id and
//! naming the other particle by id, so the lists survive the grid's reordering untouched. Every
//! substep, each particle independently (in parallel, reading only frozen positions):
//! - lets each rest length L yield: stretched beyond L(1 + γ), L += Δt α (r − L − γL);
//!   compressed below L(1 − γ), L −= Δt α (L − γL − r);
//! - drops springs with L > h (the paper's break) or torn (so that a purely elastic jelly,
//!   whose L never changes, can still be torn apart): an elastic solid's when stretched more
//!   than [`tear_stretch`] beyond L, a goo's when its pair is `PLASTIC_TEAR` h apart;
//! - adds its own half of the displacement D = Δt² k_spring (1 − L/h)(L − r) r̂ of each spring;
//! - proposes, for its free slots, the nearest same-material neighbours within `spring_radius`
//!   × h that it has no spring to yet (nearest first, ties by id).
//!
//! Then a second pass adds a spring wherever two particles proposed each other. Both ends of a
//! spring thus always hold it, with bit-identical rest lengths (they are computed from the same
//! numbers), so the two halves of D are equal and opposite and springs keep momentum.
//!
//! Departure from the paper, on purpose: a new spring's rest length is the pair's current
//! distance, not h (with L = h the factor 1 − L/h is zero, so springs would be inert until
//! plasticity shortens them, and an elastic jelly with α = 0 would have none). The cap keeps the
//! lists bounded and makes a full jelly purely elastic: it forms no new springs that would
//! remember a squashed shape.

use crate::sim::numerics::portable::Ordered;
use crate::sim::particles::Particles;
use crate::sim::physics::spring_half_displacement;
use crate::sim::scene::params::SimParams;
use crate::sim::scene::ranges::Step;
use crate::sim::scene::resolution::REFERENCE_RADIUS;
use crate::sim::scene::Material;
use crate::sim::scene::Scene;
use crate::sim::subsystems::{
    from_state, to_state, FromScene, Frozen, Restoring, SavedState, StateError, Subsystem,
};
use glam::Vec2;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// Most springs one particle holds.
pub const MAX_SPRINGS: usize = 16;

/// At the reference particle size, a spring of an elastic solid tears when stretched this many h
/// beyond its rest length (see [`tear_stretch`]).
pub const TEAR_STRETCH: f32 = 2.5;

/// A spring of a goo (plasticity > 0) tears when its pair is this many h apart, at any
/// resolution. A goo's springs break as it flows (their rest length grows past h), at the same
/// strain at any resolution; the tear is only a backstop. Given `tear_stretch` instead, the
/// `slime` preset's layer stuck to the wall chattered along it at the speed limit once its
/// stickiness was raised to 5,000 or more (the panel goes to 10,000; the preset has 3,000):
/// springs that no longer tore kept pulling at particles the wall held.
const PLASTIC_TEAR: f32 = 2.0;

/// How far (m) a spring of an elastic solid stretches beyond its rest length before it tears,
/// for particles of `particle_radius` with interaction radius `h`: `TEAR_STRETCH` × h at the
/// reference radius (`resolution::REFERENCE_RADIUS`, the size presets are written for), and in
/// proportion to the square root of the particle size otherwise.
///
/// The square root keeps the energy a crack costs per length the same at any resolution
/// (Griffith's criterion): a spring torn at stretch s has stored ½ m κ s², with m ∝ r² and the
/// spring constant κ ∝ k_spring ∝ r⁻² (`resolution.rs`), so ∝ s²; a crack of given length cuts
/// ∝ 1 / r springs, so it costs ∝ s² / r, which stays the same when s ∝ √r. A tear at a fixed
/// number of h (s ∝ r), as before, made cracks cheaper in proportion to the particle size: at 16
/// times the particles a jelly dropped onto a boulder split in two where at its own count it
/// held.
pub fn tear_stretch(h: f32, particle_radius: f32) -> f32 {
    TEAR_STRETCH * h * (REFERENCE_RADIUS / particle_radius).sqrt()
}

/// How many springs a world holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpringCounts {
    /// Springs in all (each joins two particles).
    pub total: usize,
    /// The most springs one particle holds (at most `MAX_SPRINGS`).
    pub most_per_particle: usize,
}

/// One particle's half of a spring.
#[derive(Clone, Copy, Debug, Default)]
struct Spring {
    /// Stable id of the particle at the other end.
    other: u32,
    /// Rest length L.
    rest_length: f32,
}

/// A material's spring constants.
#[derive(Clone, Copy, Debug, Default)]
struct SpringMaterial {
    stiffness: f32,
    yield_ratio: f32,
    plasticity: f32,
    /// Absolute distance below which springs form.
    radius: f32,
    /// When one of its springs tears.
    tear: Tear,
}

/// When a spring tears, whatever its rest length does.
#[derive(Clone, Copy, Debug)]
enum Tear {
    /// An elastic solid's (plasticity 0): stretched more than this (m) beyond its rest length
    /// ([`tear_stretch`]).
    Stretch(f32),
    /// A goo's (plasticity > 0): its pair this far apart (m), `PLASTIC_TEAR` × h.
    Apart(f32),
}

impl Default for Tear {
    fn default() -> Self {
        Tear::Apart(f32::INFINITY)
    }
}

impl Tear {
    /// True when a spring of rest length `rest_length` whose pair is `r` apart tears.
    fn torn(self, r: f32, rest_length: f32) -> bool {
        match self {
            Tear::Stretch(stretch) => r - rest_length > stretch,
            Tear::Apart(distance) => r > distance,
        }
    }
}

/// Every particle's springs, by stable id.
#[derive(Clone, Debug, Default)]
pub struct Springs {
    materials: Vec<SpringMaterial>,
    /// Some material has springs (else the stage is skipped).
    active: bool,
    /// `MAX_SPRINGS` slots per id; the first `count[id]` are live, in a fixed order.
    slots: Vec<Spring>,
    count: Vec<u8>,
    /// This substep's spring displacement of each particle, by id.
    push: Vec<Vec2>,
    /// `MAX_SPRINGS` slots per id: the ids it would like new springs to, nearest first.
    proposals: Vec<u32>,
    proposal_count: Vec<u8>,
    /// Current (grid-sorted) index of each id.
    index_of: Vec<u32>,
}

impl Springs {
    /// Springs for `materials` (their `spring_stiffness`, `yield_ratio`, `plasticity` and
    /// `spring_radius`), with the interaction radius and particle size of `params`; inactive
    /// when no material has springs.
    pub fn new(materials: &[Material], params: &SimParams) -> Self {
        let mut springs = Self::default();
        springs.set_materials(materials, params);
        springs
    }

    /// Takes the spring constants of `materials` (changed at run time); the springs already
    /// formed keep their rest lengths.
    pub fn set_materials(&mut self, materials: &[Material], params: &SimParams) {
        let h = params.interaction_radius;
        let materials: Vec<SpringMaterial> = materials
            .iter()
            .map(|m| SpringMaterial {
                stiffness: m.spring_stiffness,
                yield_ratio: m.yield_ratio,
                plasticity: m.plasticity,
                radius: m.spring_radius * h,
                tear: if m.plasticity > 0.0 {
                    Tear::Apart(PLASTIC_TEAR * h)
                } else {
                    Tear::Stretch(tear_stretch(h, params.particle_radius))
                },
            })
            .collect();
        self.active = materials
            .iter()
            .any(|m| m.stiffness > 0.0 && m.radius > 0.0);
        self.materials = materials;
    }

    /// How many springs there are.
    pub fn counts(&self) -> SpringCounts {
        SpringCounts {
            total: self.count.iter().map(|&c| c as usize).sum::<usize>() / 2,
            most_per_particle: self.count.iter().copied().max().unwrap_or(0) as usize,
        }
    }

    /// The live springs of particle `id` (none past the last id), as (other id, rest length), in
    /// slot order (snapshots).
    pub(crate) fn held(&self, id: u32) -> impl Iterator<Item = (u32, f32)> + '_ {
        let id = id as usize;
        let count = self.count.get(id).map_or(0, |&c| c as usize);
        self.slots[id.min(self.count.len()) * MAX_SPRINGS..][..count]
            .iter()
            .map(|spring| (spring.other, spring.rest_length))
    }

    /// Replaces every spring with `lists`: (id, its springs as (other id, rest length), at most
    /// `MAX_SPRINGS`, in slot order), for ids below `ids` (snapshots; the caller checks both).
    fn restore_lists<'a>(
        &mut self,
        ids: usize,
        lists: impl Iterator<Item = (u32, &'a [(u32, f32)])>,
    ) {
        self.slots = vec![Spring::default(); ids * MAX_SPRINGS];
        self.count = vec![0; ids];
        for (id, list) in lists {
            let id = id as usize;
            for (slot, &(other, rest_length)) in self.slots[id * MAX_SPRINGS..].iter_mut().zip(list)
            {
                *slot = Spring { other, rest_length };
            }
            self.count[id] = list.len() as u8;
        }
    }

    /// Updates every spring from the frozen positions (new ones form with the neighbours the
    /// grid finds), and adds the spring displacements to `displacement` (indexed like the
    /// particles).
    fn apply(&mut self, frozen: &Frozen, displacement: (&mut [f32], &mut [f32])) {
        let Frozen {
            particles,
            grid,
            h,
            dt,
            ..
        } = *frozen;
        let ids = particles.id.len();
        let mut slots_needed = self.index_of.len();
        self.index_of.fill(u32::MAX);
        for (index, &id) in particles.id.iter().enumerate() {
            let id = id as usize;
            if id >= slots_needed {
                slots_needed = id + 1;
                self.index_of.resize(slots_needed, u32::MAX);
            }
            self.index_of[id] = index as u32;
        }
        debug_assert!(slots_needed >= ids);
        self.slots
            .resize(slots_needed * MAX_SPRINGS, Spring::default());
        self.count.resize(slots_needed, 0);
        self.push.resize(slots_needed, Vec2::ZERO);
        self.proposals.resize(slots_needed * MAX_SPRINGS, 0);
        self.proposal_count.resize(slots_needed, 0);

        let (position, material, id) = (&particles.position, &particles.material, &particles.id);
        let (index_of, materials) = (&self.index_of, &self.materials);
        (
            self.slots.par_chunks_mut(MAX_SPRINGS),
            &mut self.count,
            &mut self.push,
            self.proposals.par_chunks_mut(MAX_SPRINGS),
            &mut self.proposal_count,
        )
            .into_par_iter()
            .with_min_len(256)
            .enumerate()
            .for_each(|(own_id, (list, count, push, proposals, proposal_count))| {
                *push = Vec2::ZERO;
                *proposal_count = 0;
                let i = index_of[own_id];
                if i == u32::MAX {
                    *count = 0;
                    return;
                }
                let i = i as usize;
                let constants = materials[material[i] as usize];
                if constants.stiffness <= 0.0 {
                    *count = 0;
                    return;
                }
                let xi = position[i];
                let mut kept = 0;
                for s in 0..*count as usize {
                    let spring = list[s];
                    let j = index_of[spring.other as usize];
                    if j == u32::MAX {
                        // The other end was erased.
                        continue;
                    }
                    let j = j as usize;
                    let offset = position[j] - xi;
                    let r = offset.length();
                    // Yield and plastic flow of the rest length (algorithm 4).
                    let mut rest_length = spring.rest_length;
                    let tolerance = constants.yield_ratio * rest_length;
                    let flow = dt * constants.plasticity;
                    if r > rest_length + tolerance {
                        rest_length += flow * (r - rest_length - tolerance);
                    } else if r < rest_length - tolerance {
                        rest_length -= flow * (rest_length - tolerance - r);
                    }
                    if rest_length > h || constants.tear.torn(r, rest_length) || !r.is_finite() {
                        continue;
                    }
                    // This particle's half of D = Δt² k (1 − L/h)(L − r) r̂ (algorithm 3).
                    if r > 0.0 {
                        let d =
                            spring_half_displacement(dt, constants.stiffness, rest_length, h, r);
                        *push -= offset * (d / r);
                    }
                    list[kept] = Spring {
                        other: spring.other,
                        rest_length,
                    };
                    kept += 1;
                }
                let free = MAX_SPRINGS - kept;
                if free > 0 {
                    // The `free` nearest new partners, as (weight, id, index), nearest first.
                    let mut best = [(0.0_f32, 0_u32, 0_u32); MAX_SPRINGS];
                    let mut found = 0;
                    let min_weight = 1.0 - constants.radius / h;
                    let candidates = grid.candidates(xi);
                    for j in candidates.filter(|&j| j != i && material[j] == material[i]) {
                        let r = (position[j] - xi).length();
                        let weight = 1.0 - r / h;
                        if weight <= min_weight {
                            continue;
                        }
                        let other = id[j];
                        let candidate = (weight, other, j as u32);
                        let nearer = |held: &(f32, u32, u32)| {
                            held.0 < candidate.0 || (held.0 == candidate.0 && held.1 > other)
                        };
                        let Some(slot) = best[..found].iter().position(nearer).or(
                            // Room at the end.
                            (found < free).then_some(found),
                        ) else {
                            continue;
                        };
                        // Partners it already holds are never proposed (checked only for
                        // candidates near enough to be, which is cheaper and changes nothing).
                        if list[..kept].iter().any(|s| s.other == other) {
                            continue;
                        }
                        let last = found.min(free - 1);
                        best.copy_within(slot..last, slot + 1);
                        best[slot] = candidate;
                        found = (found + 1).min(free);
                    }
                    for (slot, &(_, other, _)) in proposals.iter_mut().zip(&best[..found]) {
                        *slot = other;
                    }
                    *proposal_count = found as u8;
                }
                *count = kept as u8;
            });

        // Springs form where two particles proposed each other.
        let (proposals, proposal_count) = (&self.proposals, &self.proposal_count);
        let proposed = |from: usize, to: u32| {
            proposals[from * MAX_SPRINGS..][..proposal_count[from] as usize].contains(&to)
        };
        (self.slots.par_chunks_mut(MAX_SPRINGS), &mut self.count)
            .into_par_iter()
            .with_min_len(256)
            .enumerate()
            .for_each(|(own_id, (list, count))| {
                let wanted = &proposals[own_id * MAX_SPRINGS..][..proposal_count[own_id] as usize];
                if wanted.is_empty() {
                    return;
                }
                let xi = position[index_of[own_id] as usize];
                let mut kept = *count as usize;
                for &other in wanted {
                    if proposed(other as usize, own_id as u32) {
                        let j = index_of[other as usize] as usize;
                        let r = (position[j] - xi).length();
                        list[kept] = Spring {
                            other,
                            rest_length: r.at_least(0.1 * h),
                        };
                        kept += 1;
                    }
                }
                *count = kept as u8;
            });

        let push = &self.push;
        (displacement.0, displacement.1, id)
            .into_par_iter()
            .with_min_len(1024)
            .for_each(|(x, y, &own_id)| {
                let push = push[own_id as usize];
                *x += push.x;
                *y += push.y;
            });
    }
}

impl FromScene for Springs {
    fn from_scene(scene: &Scene) -> Self {
        Springs::new(&scene.materials, &scene.params)
    }
}

impl Subsystem for Springs {
    fn name(&self) -> &'static str {
        "springs"
    }

    /// The springs of each particle that holds any, by increasing id (`None` without springs);
    /// springs whose other end was erased since the last substep are left out (that substep
    /// drops them anyway).
    fn save(&self, particles: &Particles) -> Option<SavedState> {
        let mut ids = particles.id.clone();
        ids.sort_unstable();
        let alive = |id: u32| ids.binary_search(&id).is_ok();
        let lists: Vec<SpringList> = ids
            .iter()
            .filter_map(|&id| {
                let springs: Vec<SpringState> = self
                    .held(id)
                    .filter(|&(other, _)| alive(other))
                    .map(|(other, rest_length)| SpringState { other, rest_length })
                    .collect();
                (!springs.is_empty()).then_some(SpringList { id, springs })
            })
            .collect();
        (!lists.is_empty()).then(|| to_state(&lists))
    }

    fn restore(&mut self, state: SavedState, restoring: &Restoring) -> Result<(), StateError> {
        let lists: Vec<SpringList> = from_state(&state)?;
        check_springs(&lists, restoring.ids)?;
        let lists: Vec<(u32, Vec<(u32, f32)>)> = lists
            .iter()
            .map(|list| {
                let springs = list.springs.iter().map(|s| (s.other, s.rest_length));
                (list.id, springs.collect())
            })
            .collect();
        let slots = lists.iter().map(|(id, _)| *id as usize + 1).max();
        self.restore_lists(
            slots.unwrap_or(0),
            lists.iter().map(|(id, list)| (*id, list.as_slice())),
        );
        Ok(())
    }

    fn is_active(&self) -> bool {
        self.active
    }

    fn displace(&mut self, frozen: &Frozen, displacement: (&mut [f32], &mut [f32])) {
        self.apply(frozen, displacement);
    }
}

/// One particle's springs. Serialized as `[id, [[other, rest length], …]]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "(u32, Vec<(u32, u32)>)", into = "(u32, Vec<(u32, u32)>)")]
pub struct SpringList {
    /// Id of the particle that holds them.
    pub id: u32,
    /// Its springs, in the order it holds them (the order it adds their pushes in).
    pub springs: Vec<SpringState>,
}

/// One particle's half of a spring.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpringState {
    /// Id of the particle at the other end.
    pub other: u32,
    /// Rest length.
    pub rest_length: f32,
}

impl From<(u32, Vec<(u32, u32)>)> for SpringList {
    fn from((id, springs): (u32, Vec<(u32, u32)>)) -> Self {
        let springs = springs
            .into_iter()
            .map(|(other, rest)| SpringState {
                other,
                rest_length: f32::from_bits(rest),
            })
            .collect();
        Self { id, springs }
    }
}

impl From<SpringList> for (u32, Vec<(u32, u32)>) {
    fn from(list: SpringList) -> Self {
        let springs = list.springs.iter();
        (
            list.id,
            springs
                .map(|s| (s.other, s.rest_length.to_bits()))
                .collect(),
        )
    }
}

/// Every spring list belongs to a particle (one list each), holds at most `MAX_SPRINGS`
/// springs, and names other particles, with finite positive rest lengths.
fn check_springs(lists: &[SpringList], ids: &[u32]) -> Result<(), StateError> {
    let known = |id: u32| ids.binary_search(&id).is_ok();
    let mut owners: Vec<(u32, usize)> = Vec::with_capacity(lists.len());
    for (index, list) in lists.iter().enumerate() {
        let path = [Step::Index(index)];
        if !known(list.id) {
            return Err(StateError::at(
                &path,
                format!("springs of particle {}, which does not exist", list.id),
            ));
        }
        if list.springs.len() > MAX_SPRINGS {
            return Err(StateError::at(
                &path,
                format!(
                    "{} springs, more than a particle holds ({MAX_SPRINGS})",
                    list.springs.len()
                ),
            ));
        }
        for spring in &list.springs {
            if !known(spring.other) || spring.other == list.id {
                return Err(StateError::at(
                    &path,
                    format!(
                        "a spring of particle {} to particle {}, which does not exist",
                        list.id, spring.other
                    ),
                ));
            }
            let length = spring.rest_length;
            if !length.is_finite() || length <= 0.0 {
                return Err(StateError::at(
                    &path,
                    format!("rest lengths must be finite and above 0, got {length}"),
                ));
            }
        }
        owners.push((list.id, index));
    }
    owners.sort_unstable();
    if let Some(pair) = owners.windows(2).find(|pair| pair[0].0 == pair[1].0) {
        return Err(StateError::at(
            &[Step::Index(pair[0].1.max(pair[1].1))],
            format!("a second list of springs of particle {}", pair[0].0),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tear_stretch_grows_with_the_square_root_of_the_particle_size() {
        let h = 6.0 * REFERENCE_RADIUS;
        assert_eq!(tear_stretch(h, REFERENCE_RADIUS), TEAR_STRETCH * h);
        // A quarter of the radius (16 times the particles): a quarter of h, twice as many of them.
        let fine = tear_stretch(h / 4.0, REFERENCE_RADIUS / 4.0);
        assert!(
            (fine / (h / 4.0) - 2.0 * TEAR_STRETCH).abs() < 1e-5,
            "{fine}"
        );
    }

    #[test]
    fn an_elastic_spring_tears_by_its_stretch_and_a_goos_by_its_length() {
        let params = SimParams::default();
        let h = params.interaction_radius;
        let jelly = Material {
            spring_stiffness: 900.0,
            ..Material::default()
        };
        let goo = Material {
            plasticity: 1.0,
            ..jelly.clone()
        };
        let springs = Springs::new(&[jelly, goo], &params);
        let [elastic, plastic] = [0, 1].map(|m| springs.materials[m].tear);
        let short = 0.3 * h;
        // Stretched 2.4 h beyond its rest length: 2.7 h apart.
        assert!(!elastic.torn(short + 2.4 * h, short));
        assert!(elastic.torn(short + 2.6 * h, short));
        assert!(!plastic.torn(1.9 * h, short));
        assert!(plastic.torn(2.1 * h, short));
    }
}
