//! The air's smoke, drawn from the grid as one texture (a texel per cell, bilinear filtering)
//! behind the liquid: its own colour, opacity growing with the density, and a warm glow where
//! the air is hot.

#![allow(
    clippy::disallowed_methods,
    reason = "drawing only: the platform's own exp and sin_cos touch no simulation state"
)]

use crate::sim::subsystems::air::Air;
use macroquad::prelude::{draw_texture_ex, Color, DrawTextureParams, FilterMode, Texture2D, Vec2};

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

/// The smoke texture, made again when the grid's size changes.
#[derive(Default)]
pub struct SmokeLayer {
    texture: Option<(Texture2D, (usize, usize))>,
    rgba: Vec<u8>,
}

impl SmokeLayer {
    /// Draws `air`'s smoke over its grid's rectangle, in the world camera.
    pub fn draw(&mut self, air: &Air) {
        let grid = air.grid();
        let (nx, ny) = (grid.nx, grid.ny);
        let colour = air.settings().colour;
        self.rgba.resize(nx * ny * 4, 0);
        for (c, texel) in self.rgba.chunks_exact_mut(4).enumerate() {
            let (smoke, heat) = shown_values(air, c);
            let alpha = (1.0 - (-OPACITY_PER_SMOKE * smoke).exp()).min(MAX_OPACITY);
            let glow = 1.0 - (-heat / GLOW_TEMPERATURE).exp();
            let glow_alpha = MAX_GLOW * glow;
            let total = (alpha + glow_alpha * (1.0 - alpha)).max(1e-6);
            for k in 0..3 {
                let tinted = colour[k] * (1.0 - GLOW_TINT * glow) + GLOW[k] * GLOW_TINT * glow;
                // Clear texels keep the smoke's colour: the texture's filtering blends colours
                // of neighbouring texels, and black ones would darken the smoke's edges.
                let mixed = if total < 1e-3 {
                    tinted
                } else {
                    (tinted * alpha + GLOW[k] * glow_alpha * (1.0 - alpha)) / total
                };
                texel[k] = (mixed.clamp(0.0, 1.0) * 255.0) as u8;
            }
            texel[3] = (total.clamp(0.0, 1.0) * 255.0) as u8;
        }
        let fresh = self
            .texture
            .as_ref()
            .is_none_or(|(_, size)| *size != (nx, ny));
        if fresh {
            let texture = Texture2D::from_rgba8(nx as u16, ny as u16, &self.rgba);
            texture.set_filter(FilterMode::Linear);
            self.texture = Some((texture, (nx, ny)));
        } else if let Some((texture, _)) = &self.texture {
            texture.update_from_bytes(nx as u32, ny as u32, &self.rgba);
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
}

/// Smoke shown per unit of vapour and dew (mass per cell): steam is drawn as smoke.
const SMOKE_PER_VAPOUR: f32 = 1.5;

/// What cell `c` holds to show as smoke: its smoke, and its vapour and dew as steam.
fn smoke_in(grid: &crate::sim::subsystems::air::MacGrid, c: usize) -> f32 {
    grid.smoke[c].max(0.0) + SMOKE_PER_VAPOUR * (grid.vapour[c] + grid.dew[c]).max(0.0)
}

/// Smoke and temperature to show in cell `c`: its own in open air; in a solid cell (obstacle or
/// liquid, where the air holds nothing) the mean of its open neighbours, so the texture's
/// filtering does not draw dark rims around solids.
fn shown_values(air: &Air, c: usize) -> (f32, f32) {
    let grid = air.grid();
    if !grid.solid[c] {
        return (smoke_in(grid, c), grid.temperature[c].max(0.0));
    }
    let (i, j) = ((c % grid.nx) as isize, (c / grid.nx) as isize);
    let mut sum = (0.0, 0.0);
    let mut count = 0.0;
    for (di, dj) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
        if grid.is_open(i + di, j + dj) {
            let n = grid.cell((i + di) as usize, (j + dj) as usize);
            sum.0 += smoke_in(grid, n);
            sum.1 += grid.temperature[n].max(0.0);
            count += 1.0;
        }
    }
    if count > 0.0 {
        (sum.0 / count, sum.1 / count)
    } else {
        (0.0, 0.0)
    }
}
