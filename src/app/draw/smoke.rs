//! The air's smoke and steam, drawn behind the liquid from a field finer than the air grid.
//!
//! The air grid is coarse (`volcano`: 96 × 54 cells); drawn a texel per cell, a puff of steam is
//! a rectangle one cell wide. So the layer keeps its own field, `FINE` times finer on each axis,
//! as WebGL-Fluid keeps its dye finer than its velocities: every simulated frame it is carried
//! along by the air's velocity (semi-Lagrangian, bilinear), then drawn toward the grid's own
//! values at the rate `FOLLOW_TIME` sets. The grid's values are read through a quadratic B-spline,
//! smooth across cell edges, where bilinear interpolation would crease along them. The grid decides where
//! smoke is; the finer field draws it in the wisps the air's motion stretches it into. It lives
//! in the drawing only: the simulation and its checksums know nothing of it.
//!
//! Smoke has the air's colour, steam (vapour and dew) is white, and hot air glows warm; opacity
//! grows with the density as 1 − e^(−k s).

#![allow(
    clippy::disallowed_methods,
    reason = "drawing only: the platform's own exp touches no simulation state"
)]

use crate::sim::subsystems::air::{bilinear, Air, MacGrid};
use macroquad::prelude::{draw_texture_ex, Color, DrawTextureParams, FilterMode, Texture2D, Vec2};
use rayon::prelude::*;

/// Texels of the drawn field per air cell, on each axis.
pub const FINE: usize = 4;
/// Seconds in which the finer field closes about two thirds of its gap to the grid's values.
const FOLLOW_TIME: f32 = 0.4;
/// Longest simulated step the field is carried over at once (a paused world, a reset or a
/// loaded snapshot starts the field again from the grid).
const LONGEST_STEP: f32 = 0.25;
/// Opacity per unit of smoke density: alpha = 1 − e^(−k s).
const OPACITY_PER_SMOKE: f32 = 1.2;
/// Most opacity smoke may reach (the liquid and walls behind stay visible).
const MAX_OPACITY: f32 = 0.85;
/// Temperature (°C) at which hot air glows at about two thirds of its tint.
const GLOW_TEMPERATURE: f32 = 300.0;
/// The tint of hot air.
const GLOW: [f32; 3] = [1.0, 0.55, 0.2];
/// How far hot smoke's colour moves toward the glow.
const GLOW_TINT: f32 = 0.3;
/// Most opacity the glow of clear hot air may reach.
const MAX_GLOW: f32 = 0.1;
/// The colour of steam.
const STEAM: [f32; 3] = [0.95, 0.96, 0.98];
/// Smoke shown per unit of vapour and dew (mass per cell).
const SMOKE_PER_VAPOUR: f32 = 1.5;

/// What is drawn of the air: smoke, steam and heat, per cell or per texel.
#[derive(Default)]
struct Shown {
    smoke: Vec<f32>,
    steam: Vec<f32>,
    heat: Vec<f32>,
}

impl Shown {
    fn resize(&mut self, len: usize) {
        for field in [&mut self.smoke, &mut self.steam, &mut self.heat] {
            field.clear();
            field.resize(len, 0.0);
        }
    }
}

/// The smoke layer: the finer field and its texture, made again when the grid's size changes.
#[derive(Default)]
pub struct SmokeLayer {
    /// The grid's values, solid cells filled from their open neighbours.
    coarse: Shown,
    /// The finer field, `FINE` times the grid on each axis.
    fine: Shown,
    /// Scratch for the carried field.
    carried: Shown,
    /// The simulated time the finer field was last carried to, and the grid it belongs to.
    at: Option<(f64, (usize, usize))>,
    texture: Option<(Texture2D, (usize, usize))>,
    rgba: Vec<u8>,
}

impl SmokeLayer {
    /// The size of the texture the smoke is drawn from (texels across, down), once drawn.
    pub fn texture_size(&self) -> Option<(usize, usize)> {
        self.texture.as_ref().map(|(_, size)| *size)
    }

    /// Draws `air`'s smoke over its grid's rectangle, in the world camera, at simulated `time`.
    pub fn draw(&mut self, air: &Air, time: f64) {
        let grid = air.grid();
        let (nx, ny) = (grid.nx, grid.ny);
        let (w, h) = (nx * FINE, ny * FINE);
        // Between simulated frames (a paused world, a display faster than the simulation) the
        // field and its texture stay as they are.
        if self.follow(air, time) {
            self.upload(air.settings().colour, (w, h));
        }
        let Some((texture, _)) = &self.texture else {
            return;
        };
        let size = grid.dx * Vec2::new(nx as f32, ny as f32);
        draw_texture_ex(
            texture,
            grid.origin.x,
            grid.origin.y,
            Color::new(1.0, 1.0, 1.0, 1.0),
            DrawTextureParams {
                dest_size: Some(size),
                ..Default::default()
            },
        );
    }

    /// Writes the finer field, `w` × `h` texels, into the texture (made anew for a new size).
    fn upload(&mut self, colour: [f32; 3], (w, h): (usize, usize)) {
        self.rgba.resize(w * h * 4, 0);
        let fine = &self.fine;
        self.rgba
            .par_chunks_mut(4 * w)
            .enumerate()
            .for_each(|(j, row)| {
                for (i, texel) in row.chunks_exact_mut(4).enumerate() {
                    let k = j * w + i;
                    texel.copy_from_slice(&rgba(
                        colour,
                        fine.smoke[k],
                        fine.steam[k],
                        fine.heat[k],
                    ));
                }
            });
        let fresh = self
            .texture
            .as_ref()
            .is_none_or(|(_, size)| *size != (w, h));
        if fresh {
            let texture = Texture2D::from_rgba8(w as u16, h as u16, &self.rgba);
            texture.set_filter(FilterMode::Linear);
            self.texture = Some((texture, (w, h)));
        } else if let Some((texture, _)) = &self.texture {
            texture.update_from_bytes(w as u32, h as u32, &self.rgba);
        }
    }

    /// Carries the finer field to simulated `time` and draws it toward the grid's values; starts
    /// it from the grid's values when there is nothing to carry (the first frame, a new grid,
    /// time gone back or leapt ahead). Returns whether the field changed.
    fn follow(&mut self, air: &Air, time: f64) -> bool {
        let grid = air.grid();
        let (nx, ny) = (grid.nx, grid.ny);
        let step = match self.at {
            Some((last, size)) if size == (nx, ny) => (time - last) as f32,
            _ => f32::NAN,
        };
        if step == 0.0 {
            return false;
        }
        self.coarse.resize(nx * ny);
        for c in 0..nx * ny {
            let (smoke, steam, heat) = shown_values(grid, c);
            self.coarse.smoke[c] = smoke;
            self.coarse.steam[c] = steam;
            self.coarse.heat[c] = heat;
        }
        let (w, h) = (nx * FINE, ny * FINE);
        let texel = grid.dx / FINE as f32;
        let restart = !(step > 0.0 && step <= LONGEST_STEP);
        if restart {
            self.fine.resize(w * h);
            self.carried.resize(w * h);
        }
        let follow = if restart {
            1.0
        } else {
            1.0 - (-step / FOLLOW_TIME).exp()
        };
        let (coarse, fine) = (&self.coarse, &self.fine);
        let carried = &mut self.carried;
        let rows = carried
            .smoke
            .par_chunks_mut(w)
            .zip(carried.steam.par_chunks_mut(w))
            .zip(carried.heat.par_chunks_mut(w));
        rows.enumerate().for_each(|(j, ((smoke, steam), heat))| {
            for i in 0..w {
                let centre = Vec2::new(i as f32 + 0.5, j as f32 + 0.5);
                let point = grid.origin + centre * texel;
                // Where the air that is here now was a step ago, in texels and in cells.
                let from = if restart {
                    centre
                } else {
                    (point - grid.velocity_at(point) * step - grid.origin) / texel
                };
                let (fx, fy) = (from.x - 0.5, from.y - 0.5);
                let cell = (centre / FINE as f32) - Vec2::splat(0.5);
                let target = |values: &[f32]| smooth(values, nx, ny, cell);
                let previous = |values: &[f32]| bilinear(values, w, h, fx, fy);
                let blend = |values: &[f32], target: f32| {
                    let was = if restart { target } else { previous(values) };
                    was + follow * (target - was)
                };
                smoke[i] = blend(&fine.smoke, target(&coarse.smoke));
                steam[i] = blend(&fine.steam, target(&coarse.steam));
                heat[i] = blend(&fine.heat, target(&coarse.heat));
            }
        });
        std::mem::swap(&mut self.fine, &mut self.carried);
        self.at = Some((time, (nx, ny)));
        true
    }
}

/// `values` (an `nx` × `ny` grid of cell values) at `cell` (in cells, 0 at the first centre),
/// through a quadratic B-spline: its slope is continuous across cell edges, so no cell's outline
/// shows; edge cells repeat outward.
fn smooth(values: &[f32], nx: usize, ny: usize, cell: Vec2) -> f32 {
    let weights = |at: f32, n: usize| {
        let centre = at.round();
        let t = at - centre;
        let index = |offset: f32| (centre + offset).clamp(0.0, n as f32 - 1.0) as usize;
        [
            (index(-1.0), 0.5 * (0.5 - t) * (0.5 - t)),
            (index(0.0), 0.75 - t * t),
            (index(1.0), 0.5 * (0.5 + t) * (0.5 + t)),
        ]
    };
    let (xs, ys) = (weights(cell.x, nx), weights(cell.y, ny));
    ys.iter()
        .map(|&(j, wy)| {
            wy * xs
                .iter()
                .map(|&(i, wx)| wx * values[j * nx + i])
                .sum::<f32>()
        })
        .sum()
}

/// A texel's colour: smoke in the air's `colour`, steam white, both more opaque the denser, and
/// a warm glow where the air is hot.
fn rgba(colour: [f32; 3], smoke: f32, steam: f32, heat: f32) -> [u8; 4] {
    let density = (smoke + steam).max(0.0);
    let steam_share = if density > 1e-6 { steam / density } else { 0.0 };
    let alpha = (1.0 - (-OPACITY_PER_SMOKE * density).exp()).min(MAX_OPACITY);
    let glow = 1.0 - (-heat.max(0.0) / GLOW_TEMPERATURE).exp();
    let glow_alpha = MAX_GLOW * glow;
    let total = (alpha + glow_alpha * (1.0 - alpha)).max(1e-6);
    let mut texel = [0; 4];
    for k in 0..3 {
        let base = colour[k] * (1.0 - steam_share) + STEAM[k] * steam_share;
        let tinted = base * (1.0 - GLOW_TINT * glow) + GLOW[k] * GLOW_TINT * glow;
        // Clear texels keep the smoke's colour: the texture's filtering blends colours of
        // neighbouring texels, and black ones would darken the smoke's edges.
        let mixed = if total < 1e-3 {
            tinted
        } else {
            (tinted * alpha + GLOW[k] * glow_alpha * (1.0 - alpha)) / total
        };
        texel[k] = (mixed.clamp(0.0, 1.0) * 255.0) as u8;
    }
    texel[3] = (total.clamp(0.0, 1.0) * 255.0) as u8;
    texel
}

/// What cell `c` holds to show: its smoke, and its vapour and dew as steam.
fn held(grid: &MacGrid, c: usize) -> (f32, f32) {
    (
        grid.smoke[c].max(0.0),
        SMOKE_PER_VAPOUR * (grid.vapour[c] + grid.dew[c]).max(0.0),
    )
}

/// Smoke, steam and temperature to show in cell `c`: its own in open air; in a solid cell
/// (obstacle or liquid, where the air holds nothing) the mean of its open neighbours, so the
/// interpolation does not draw dark rims around solids.
fn shown_values(grid: &MacGrid, c: usize) -> (f32, f32, f32) {
    if !grid.solid[c] {
        let (smoke, steam) = held(grid, c);
        return (smoke, steam, grid.temperature[c].max(0.0));
    }
    let (i, j) = ((c % grid.nx) as isize, (c / grid.nx) as isize);
    let mut sum = (0.0, 0.0, 0.0);
    let mut count = 0.0;
    for (di, dj) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
        if grid.is_open(i + di, j + dj) {
            let n = grid.cell((i + di) as usize, (j + dj) as usize);
            let (smoke, steam) = held(grid, n);
            sum = (
                sum.0 + smoke,
                sum.1 + steam,
                sum.2 + grid.temperature[n].max(0.0),
            );
            count += 1.0;
        }
    }
    if count > 0.0 {
        (sum.0 / count, sum.1 / count, sum.2 / count)
    } else {
        (0.0, 0.0, 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The B-spline keeps a constant field constant and a sloping one on its slope inside the
    /// grid (its weights sum to one and centre on the point), so it adds no bumps of its own.
    #[test]
    fn the_spline_keeps_flat_and_sloping_fields() {
        let (nx, ny) = (6, 5);
        let flat = vec![2.5; nx * ny];
        let slope: Vec<f32> = (0..nx * ny)
            .map(|c| (c % nx) as f32 + 3.0 * (c / nx) as f32)
            .collect();
        for k in 0..=40 {
            let cell = Vec2::new(1.0 + 3.0 * k as f32 / 40.0, 1.0 + 2.0 * k as f32 / 40.0);
            assert!((smooth(&flat, nx, ny, cell) - 2.5).abs() < 1e-5);
            let expected = cell.x + 3.0 * cell.y;
            assert!(
                (smooth(&slope, nx, ny, cell) - expected).abs() < 1e-4,
                "{cell}"
            );
        }
    }

    /// Clear air is transparent, dense smoke stops at the most opacity, and steam is whiter
    /// than the air's grey smoke.
    #[test]
    fn texels_are_clear_dense_and_white_as_they_should_be() {
        let grey = [0.5, 0.5, 0.5];
        assert_eq!(rgba(grey, 0.0, 0.0, 0.0)[3], 0);
        assert_eq!(rgba(grey, 100.0, 0.0, 0.0)[3], (MAX_OPACITY * 255.0) as u8);
        let smoke = rgba(grey, 1.0, 0.0, 0.0);
        let steam = rgba(grey, 0.0, 1.0, 0.0);
        assert!(steam[0] > smoke[0] + 100, "{steam:?} against {smoke:?}");
    }
}
