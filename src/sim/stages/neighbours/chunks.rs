//! The order a particle's forward candidates are read in: its rows' groups of eight, one
//! after the other, handed out as the values of the lanes that run the loop (`simd::Chunk`):
//! a group's two parts of four, a group, or two groups side by side, the second possibly from
//! the next row. Every width reads the same groups in the same order, and adds each into the
//! running sums of its parity (`Chunk::slot`), so the sums are the same bits at every width;
//! sixteen lanes only take two groups per step.

use super::super::grid::ForwardRows;
use crate::sim::numerics::simd::{Chunk, Lanes, WIDTH};

/// The chunks of one particle's forward rows, for lanes `S` (`next`).
pub(super) struct Chunks<'a> {
    rows: &'a ForwardRows,
    /// The row being read.
    row: usize,
    /// The next group's first candidate in it, and the row's end.
    base: usize,
    end: usize,
    /// The second part of a group of four-lane parts, when it is still to come.
    second_part: Option<Chunk>,
    /// 1 when the next group is odd in the particle's reading order (`Chunk::slot`), else 0.
    odd: usize,
}

impl<'a> Chunks<'a> {
    /// The chunks of `rows`, each of which must end at or before `count` (checked here, once
    /// per row, so that every chunk's groups are inside `count + WIDTH` values).
    #[inline(always)]
    pub(super) fn new(rows: &'a ForwardRows, count: usize) -> Self {
        assert!(rows.iter().all(|row| row.end as usize <= count));
        Self {
            rows,
            row: 0,
            base: rows[0].start as usize,
            end: rows[0].end as usize,
            second_part: None,
            odd: 0,
        }
    }

    /// The next group: its first candidate and how many candidates from there on are in its
    /// row.
    #[inline(always)]
    fn next_group(&mut self) -> Option<(usize, usize)> {
        while self.base >= self.end {
            self.row += 1;
            let row = self.rows.get(self.row)?;
            (self.base, self.end) = (row.start as usize, row.end as usize);
        }
        let group = (self.base, self.end - self.base);
        self.base += WIDTH;
        Some(group)
    }

    /// The parity of the group just taken (0 even, 1 odd), for lanes that take one group at a
    /// time.
    #[inline(always)]
    fn parity(&mut self) -> usize {
        let parity = self.odd;
        self.odd ^= 1;
        parity
    }

    /// The next value's worth of candidates for lanes `S`, or `None` after the last.
    #[inline(always)]
    pub(super) fn next<S: Lanes>(&mut self) -> Option<Chunk> {
        if S::GROUPS == 2 {
            let (first, valid) = self.next_group()?;
            // Without a second group the first is read again, adding nothing (`valid` 0).
            let (second, second_valid) = self.next_group().unwrap_or((first, 0));
            return Some(Chunk {
                base: [first, second],
                valid: [valid, second_valid],
                slot: 0,
            });
        }
        if S::PARTS == 2 {
            if let Some(second) = self.second_part.take() {
                return Some(second);
            }
            let (base, valid) = self.next_group()?;
            let parity = self.parity();
            // A part wholly past the row's end would add only zeros: it is skipped.
            if valid > S::LANES {
                self.second_part = Some(Chunk {
                    base: [base + S::LANES; 2],
                    valid: [valid - S::LANES, 0],
                    slot: 2 * parity + 1,
                });
            }
            return Some(Chunk {
                base: [base; 2],
                valid: [valid, 0],
                slot: 2 * parity,
            });
        }
        let (base, valid) = self.next_group()?;
        let parity = self.parity();
        Some(Chunk {
            base: [base; 2],
            valid: [valid, 0],
            slot: parity,
        })
    }
}
