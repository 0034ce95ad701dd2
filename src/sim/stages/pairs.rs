//! Every pair of particles closer than h, each once, for the subsystems that exchange something
//! along pairs (the pair-contact hook, `Subsystem::contacts`). Gathered only when a subsystem
//! asks for them, from the substep's grid and frozen positions, in one fixed order (by the first
//! particle's sorted index, then the second's) whatever the thread count.

use super::grid::Grid;
use glam::Vec2;
use rayon::prelude::*;

/// A pair of particles closer than h in this substep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// Sorted index of the first particle (the lower).
    pub i: u32,
    /// Sorted index of the second particle (the higher).
    pub j: u32,
    /// Their distance.
    pub r: f32,
    /// The kernel weight 1 − r / h of the pair (Clavet et al. 2005's q complement).
    pub weight: f32,
}

/// Particles per task: enough to amortise scheduling, few enough to keep both threads busy.
const CHUNK: usize = 512;

/// Every pair of `positions` (sorted by `grid`, which was built from them) closer than `h`, once,
/// ordered by `i`, then `j`.
pub fn gather(positions: &[Vec2], grid: &Grid, h: f32) -> Vec<Contact> {
    let chunks: Vec<Vec<Contact>> = (0..positions.len())
        .into_par_iter()
        .chunks(CHUNK)
        .map(|indices| {
            let mut found = Vec::new();
            for i in indices {
                let xi = positions[i];
                let first = found.len();
                let candidates = grid.forward_rows(xi, i).into_iter();
                for j in candidates.flat_map(|row| row.start as usize..row.end as usize) {
                    let r = (positions[j] - xi).length();
                    if r < h {
                        found.push(Contact {
                            i: i as u32,
                            j: j as u32,
                            r,
                            weight: 1.0 - r / h,
                        });
                    }
                }
                // The rows come in the grid's order; the pairs of `i` go by `j`.
                found[first..].sort_unstable_by_key(|contact| contact.j);
            }
            found
        })
        .collect();
    chunks.concat()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg32;

    #[test]
    fn every_pair_closer_than_h_is_gathered_once_in_order() {
        let mut rng = Pcg32::seed_from_u64(3);
        let h = 0.3;
        let mut positions: Vec<Vec2> = (0..1500)
            .map(|_| Vec2::new(rng.random_range(0.0..4.0), rng.random_range(0.0..3.0)))
            .collect();
        let mut grid = Grid::default();
        grid.build(&positions, h);
        positions = grid
            .order()
            .iter()
            .map(|&k| positions[k as usize])
            .collect();
        grid.build(&positions, h);
        let sorted: Vec<Vec2> = grid
            .order()
            .iter()
            .map(|&k| positions[k as usize])
            .collect();
        assert_eq!(sorted, positions, "the second build keeps the sorted order");
        let contacts = gather(&positions, &grid, h);
        let mut brute = Vec::new();
        for i in 0..positions.len() {
            for j in i + 1..positions.len() {
                if (positions[j] - positions[i]).length() < h {
                    brute.push((i as u32, j as u32));
                }
            }
        }
        let found: Vec<(u32, u32)> = contacts.iter().map(|c| (c.i, c.j)).collect();
        assert!(brute.len() > 5000, "{} pairs", brute.len());
        assert_eq!(found, brute);
        assert!(contacts
            .iter()
            .all(|c| c.weight > 0.0 && (c.weight - (1.0 - c.r / h)).abs() < 1e-6));
    }
}
