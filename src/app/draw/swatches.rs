//! The material palette: a column of swatches along the window's right edge, one for each of
//! the world's materials and then each library material it lacks (pouring one brings it in),
//! with its colour and name; a click (or a tap) picks it for pouring.
//! I and the touch toolbar's "palette" button open and close it; Tab still steps through the
//! same materials. The layout keeps the box clear of it (`layout::Layout::palette`). Its
//! geometry (`column`, `row_at`) draws nothing, so that a test can lay it out.

use super::text::{DIM, TEXT};
use crate::app::game::Game;
use crate::sim::numerics::portable::Ordered as _;
use macroquad::prelude::{draw_rectangle, draw_rectangle_lines, draw_text, Color, Rect, Vec2};

/// Width of the palette's column, pixels.
pub const WIDTH: f32 = 150.0;
/// Height of a swatch's row at most, pixels (less where the window is too short for all).
const ROW: f32 = 24.0;
/// Height of the title line above the swatches, pixels.
const TITLE: f32 = 22.0;
/// Space inside the column's frame, pixels.
const PAD: f32 = 6.0;
const BACKGROUND: Color = Color::new(0.0, 0.0, 0.0, 0.72);
const CHOSEN: Color = Color::new(0.25, 0.45, 0.8, 0.9);
/// The name of a material the world does not hold yet.
const NEW: Color = Color::new(0.75, 0.78, 0.85, 0.85);

/// Where the palette lies: its rectangle, and how many swatches stand side by side in it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    /// The palette's frame, in window pixels.
    pub rect: Rect,
    /// Swatches to a row: 1 in the column along the right edge, more in a strip across.
    pub columns: usize,
}

/// The palette as a column for `materials` materials on a `screen`, from `top` down to at most
/// `bottom` pixels, `margin` from the right edge: its rows as tall as `ROW` or as fit.
pub fn column(screen: Vec2, top: f32, bottom: f32, margin: f32, materials: usize) -> Grid {
    let room = (bottom - top).at_least(1.0);
    let wanted = TITLE + 2.0 * PAD + materials as f32 * ROW;
    let x = (screen.x - margin - WIDTH).at_least(0.0);
    Grid {
        rect: Rect::new(x, top, WIDTH.at_most(screen.x), wanted.at_most(room)),
        columns: 1,
    }
}

/// The palette as a strip `width` pixels wide from (`x`, `top`), for a narrow screen (a phone
/// held upright): as many swatches to a row as `WIDTH`-wide cells fit, rows of `ROW`.
pub fn strip(x: f32, top: f32, width: f32, materials: usize) -> Grid {
    let columns = ((width / WIDTH).floor() as usize).clamp(1, materials.max(1));
    let rows = materials.div_ceil(columns);
    Grid {
        rect: Rect::new(x, top, width, TITLE + 2.0 * PAD + rows as f32 * ROW),
        columns,
    }
}

impl Grid {
    /// Height of each swatch's row for `materials` materials.
    fn row_height(self, materials: usize) -> f32 {
        let rows = materials.div_ceil(self.columns).max(1);
        ((self.rect.h - TITLE - 2.0 * PAD) / rows as f32).clamp(1.0, ROW)
    }

    /// The swatch of material `index`, of `materials`.
    fn cell(self, materials: usize, index: usize) -> Rect {
        let h = self.row_height(materials);
        let w = (self.rect.w - 2.0 * PAD) / self.columns as f32;
        let (row, column) = (index / self.columns, index % self.columns);
        Rect::new(
            self.rect.x + PAD + column as f32 * w,
            self.rect.y + PAD + TITLE + row as f32 * h,
            w,
            h,
        )
    }

    /// The material whose swatch holds `pixel`, if one does.
    pub fn row_at(self, materials: usize, pixel: Vec2) -> Option<usize> {
        (0..materials).find(|&index| self.cell(materials, index).contains(pixel))
    }
}

/// Draws the palette in `grid`: a title, then each material offered (the world's, then the
/// library's it lacks, their names dimmer) as a swatch of its colour and its name, the one in
/// hand marked.
pub fn draw(game: &Game, grid: Grid) {
    let offered = game.tools.offered(&game.session.world);
    let column = grid.rect;
    draw_rectangle(column.x, column.y, column.w, column.h, BACKGROUND);
    draw_rectangle_lines(column.x, column.y, column.w, column.h, 1.0, DIM);
    draw_text(
        "materials (I)",
        column.x + PAD,
        column.y + PAD + 15.0,
        18.0,
        DIM,
    );
    let size = grid.row_height(offered.len()).at_most(20.0);
    for (index, material) in offered.iter().enumerate() {
        let rect = grid.cell(offered.len(), index);
        if index == game.tools.material {
            draw_rectangle(rect.x, rect.y, rect.w, rect.h, CHOSEN);
        }
        let [r, g, b] = material.colour;
        let swatch = (rect.h - 6.0).at_least(2.0);
        draw_rectangle(
            rect.x + 3.0,
            rect.y + 3.0,
            swatch,
            swatch,
            Color::new(r, g, b, 1.0),
        );
        draw_text(
            &material.name,
            rect.x + swatch + 10.0,
            rect.y + rect.h * 0.5 + size * 0.3,
            size,
            if material.joins { NEW } else { TEXT },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fourteen materials fit a 720-pixel window's column at full height and a phone's strip in
    /// two to a row; each swatch is found under its own middle and nowhere else; a short window
    /// shrinks the column's rows to fit.
    #[test]
    fn each_swatch_is_found_where_it_is_drawn() {
        let screen = Vec2::new(1280.0, 720.0);
        let grid = column(screen, 8.0, 712.0, 8.0, 14);
        assert_eq!(grid.rect.right(), 1272.0);
        assert!(grid.rect.bottom() < 712.0);
        let phone = strip(8.0, 70.0, 374.0, 14);
        assert_eq!(phone.columns, 2);
        for grid in [grid, phone] {
            for index in 0..14 {
                let middle = grid.cell(14, index).center();
                assert_eq!(grid.row_at(14, middle), Some(index), "{grid:?}");
            }
            let outside = Vec2::new(grid.rect.x - 1.0, grid.rect.y + 40.0);
            assert_eq!(grid.row_at(14, outside), None);
        }
        let short = column(Vec2::new(640.0, 200.0), 8.0, 192.0, 8.0, 14);
        assert!(short.rect.bottom() <= 192.0);
        assert!(short.cell(14, 13).bottom() <= short.rect.bottom() + 0.01);
    }
}
