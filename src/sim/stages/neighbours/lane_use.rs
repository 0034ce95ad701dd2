//! How full the pair loops' lanes are: what the last sort gave each particle to walk (its forward
//! candidates, read in groups of eight) against the pairs within h among them. Every group
//! costs the loops its loads, arithmetic and scatter whether its lanes hold pairs or not, so their
//! cost follows the groups, and the share of lanes that hold a pair is what a faster neighbour
//! search has to raise (docs/ENGINE.md, "Performance").

use super::super::grid::ForwardRows;
use crate::sim::numerics::simd::WIDTH;
use serde::Serialize;

/// Per particle of the last sort: candidates, groups of eight and pairs within h (each pair
/// counted once, by its lower index, as the loops evaluate it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct LaneUse {
    /// Forward candidates per particle.
    pub candidates: f64,
    /// Groups of eight lanes per particle: what each pair loop evaluates.
    pub groups: f64,
    /// Pairs closer than h per particle.
    pub pairs: f64,
    /// The share of the lanes evaluated that hold a pair: pairs / (8 × groups).
    pub share: f64,
}

/// The lane use of particles at (`x`, `y`) (sorted order, as long as `rows` or longer) with
/// forward candidates `rows` and interaction radius `h`. A pair counts where the loops give it a
/// weight above zero (`lanes::weights`).
pub fn lane_use(rows: &[ForwardRows], x: &[f32], y: &[f32], h: f32) -> LaneUse {
    let (mut candidates, mut groups, mut pairs) = (0u64, 0u64, 0u64);
    for (i, rows) in rows.iter().enumerate() {
        for range in rows {
            let (start, end) = (range.start as usize, range.end.max(range.start) as usize);
            candidates += (end - start) as u64;
            groups += (end - start).div_ceil(WIDTH) as u64;
            pairs += (start..end)
                .filter(|&j| weighed(x[j] - x[i], y[j] - y[i], h))
                .count() as u64;
        }
    }
    let per_particle = |total: u64| total as f64 / rows.len().max(1) as f64;
    LaneUse {
        candidates: per_particle(candidates),
        groups: per_particle(groups),
        pairs: per_particle(pairs),
        share: pairs as f64 / (WIDTH as u64 * groups).max(1) as f64,
    }
}

/// Whether the pair loops give a pair at offset (`dx`, `dy`) a weight above zero: 1 − r/h
/// computed as they compute it (`lanes::weights`).
fn weighed(dx: f32, dy: f32, h: f32) -> bool {
    (dx * dx + dy * dy).sqrt() * (-1.0 / h) + 1.0 > 0.0
}

#[cfg(test)]
mod tests {
    use super::super::test_scene::{scene, NOTHING_SAME};
    use super::*;

    /// Every pair within h is among its lower index's forward candidates once, so the pairs
    /// counted are the scene's pairs, counted from scratch; the groups hold the candidates.
    #[test]
    fn the_pairs_counted_are_every_pair_within_h_once() {
        let h = 0.3;
        for (count, size, stretch, seed) in
            [(40, 0.4, 1.0, 3), (1500, 3.0, 1.0, 4), (1500, 1.0, 5.0, 5)]
        {
            let scene = scene(count, size, stretch, h, seed, NOTHING_SAME);
            let (x, y) = (&scene.lanes.x, &scene.lanes.y);
            let mut within = 0u64;
            for i in 0..count {
                within += (i + 1..count)
                    .filter(|&j| weighed(x[j] - x[i], y[j] - y[i], h))
                    .count() as u64;
            }
            assert!(within > 0, "the scene has pairs");
            let lanes = lane_use(&scene.rows, x, y, h);
            let total = |per_particle: f64| (per_particle * count as f64).round() as u64;
            assert_eq!(total(lanes.pairs), within, "{count} particles, seed {seed}");
            assert!(lanes.candidates >= lanes.pairs);
            assert!(8.0 * lanes.groups >= lanes.candidates);
            assert!(lanes.groups < lanes.candidates / 8.0 + 3.0, "{lanes:?}");
            assert!(lanes.share > 0.0 && lanes.share <= 1.0, "{lanes:?}");
        }
    }
}
