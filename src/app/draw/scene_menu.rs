//! The scene menu (O, or the touch toolbar's "scenes"): every scene a player can open as a card
//! with a small picture of how it starts, its name and its key, in a grid over the world. Its
//! geometry (`cards`) draws nothing, so that a test can lay it out; the cards' contents are
//! `game::scenes`.

use super::text::{fit, DIM, FONT, TEXT};
use crate::app::game::scenes::Picture;
use crate::app::game::Game;
use crate::sim::numerics::portable::Ordered as _;
use crate::sim::Shape;
use macroquad::prelude::{
    draw_circle, draw_line, draw_rectangle, draw_rectangle_lines, draw_text, draw_triangle,
    screen_height, screen_width, Color, Rect, Vec2,
};

/// Widest a card gets, pixels.
const CARD: f32 = 170.0;
/// Height of a card's picture as a share of its width.
const PICTURE: f32 = 0.56;
/// Height of a card's two lines of text under the picture, pixels.
const LINES: f32 = 42.0;
/// Space between cards and around the grid, pixels.
const GAP: f32 = 10.0;
/// Height of the menu's title line, pixels.
const HEADER: f32 = 48.0;
const PANEL: Color = Color::new(0.04, 0.05, 0.08, 0.9);
const CHOSEN: Color = Color::new(0.25, 0.45, 0.8, 0.9);
const GROUND: Color = Color::new(0.06, 0.07, 0.09, 1.0);
const BOX: Color = Color::new(0.14, 0.15, 0.19, 1.0);
const SOLID: Color = Color::new(0.55, 0.55, 0.6, 1.0);

/// The menu's frame on a `screen` for `count` cards, with the cards to a row and their width:
/// the widest cards (up to `CARD`) whose rows all fit the screen's height, centred.
fn frame(screen: Vec2, count: usize) -> (Rect, usize, f32) {
    let room = (screen.x - 2.0 * GAP).at_least(CARD * 0.5);
    let count = count.max(1);
    let layout = |columns: usize| {
        let width = ((room + GAP) / columns as f32 - GAP).at_most(CARD);
        let rows = count.div_ceil(columns);
        let height = width * PICTURE + LINES;
        let total = Vec2::new(
            columns as f32 * (width + GAP) + GAP,
            HEADER + rows as f32 * (height + GAP) + GAP,
        );
        (columns, width, total)
    };
    let widest = ((room + GAP) / (CARD + GAP)).floor() as usize;
    let (columns, width, total) = (widest.clamp(1, count)..=count)
        .map(layout)
        .find(|(_, _, total)| total.y <= screen.y)
        .unwrap_or_else(|| layout(count));
    let corner = Vec2::new(
        ((screen.x - total.x) * 0.5).at_least(0.0),
        ((screen.y - total.y) * 0.5).at_least(0.0),
    );
    (
        Rect::new(corner.x, corner.y, total.x, total.y),
        columns,
        width,
    )
}

/// Where each of `count` cards lies on a `screen`, in the menu's order (row by row).
pub fn cards(screen: Vec2, count: usize) -> Vec<Rect> {
    let (frame, columns, width) = frame(screen, count);
    let height = width * PICTURE + LINES;
    (0..count)
        .map(|index| {
            let (row, column) = (index / columns, index % columns);
            Rect::new(
                frame.x + GAP + column as f32 * (width + GAP),
                frame.y + HEADER + row as f32 * (height + GAP),
                width,
                height,
            )
        })
        .collect()
}

/// Draws the menu, when it is open: a title, then each scene's card (its picture, its key and
/// name, what it shows), the one chosen marked.
pub fn draw(game: &Game) {
    let menu = &game.scenes;
    if !menu.open {
        return;
    }
    let screen = Vec2::new(screen_width(), screen_height());
    let (outline, _, _) = frame(screen, menu.cards.len());
    draw_rectangle(outline.x, outline.y, outline.w, outline.h, PANEL);
    draw_rectangle_lines(outline.x, outline.y, outline.w, outline.h, 2.0, DIM);
    draw_text(
        "Scenes",
        outline.x + GAP + 4.0,
        outline.y + 32.0,
        28.0,
        TEXT,
    );
    let keys = fit(
        "arrows, Enter or click: open    O: close",
        outline.w - 130.0,
        FONT,
    );
    let measured = macroquad::prelude::measure_text(&keys, None, FONT, 1.0);
    draw_text(
        &keys,
        outline.x + outline.w - measured.width - GAP - 4.0,
        outline.y + 30.0,
        f32::from(FONT),
        DIM,
    );
    for (index, (card, rect)) in menu
        .cards
        .iter()
        .zip(cards(screen, menu.cards.len()))
        .enumerate()
    {
        if index == menu.selected {
            draw_rectangle(
                rect.x - 4.0,
                rect.y - 4.0,
                rect.w + 8.0,
                rect.h + 8.0,
                CHOSEN,
            );
        }
        let picture = Rect::new(rect.x, rect.y, rect.w, rect.w * PICTURE);
        draw_picture(&card.picture, picture);
        let name = fit(&format!("{}  {}", card.key, card.name), rect.w, FONT);
        draw_text(
            &name,
            rect.x,
            picture.bottom() + 17.0,
            f32::from(FONT),
            TEXT,
        );
        let title = fit(&card.title, rect.w, 14);
        draw_text(&title, rect.x, picture.bottom() + 35.0, 14.0, DIM);
    }
}

/// Draws `picture` fitted into `area`: the box dark, each block in its material's colour, the
/// solids grey, each body in its colour, each emitter a small arrow in its colour.
fn draw_picture(picture: &Picture, area: Rect) {
    draw_rectangle(area.x, area.y, area.w, area.h, GROUND);
    let size = picture.max - picture.min;
    let size = Vec2::new(size.x.at_least(1e-3), size.y.at_least(1e-3));
    let scale = (area.w / size.x).at_most(area.h / size.y);
    let offset = Vec2::new(area.x, area.y) + (Vec2::new(area.w, area.h) - size * scale) * 0.5;
    // World y up, screen y down.
    let at = |point: Vec2| {
        let local = point - picture.min;
        Vec2::new(
            offset.x + local.x * scale,
            offset.y + (size.y - local.y) * scale,
        )
    };
    // The box lighter than the card around it, its edges on whole pixels.
    let (low, high) = (at(picture.min).round(), at(picture.max).round());
    let (width, height) = (high.x - low.x, low.y - high.y);
    draw_rectangle(low.x, high.y, width, height, BOX);
    draw_rectangle_lines(low.x, high.y, width, height, 2.0, DIM);
    for &(min, max, [r, g, b]) in &picture.blocks {
        let (a, c) = (at(min), at(max));
        let colour = Color::new(r, g, b, 1.0);
        draw_rectangle(
            a.x,
            c.y,
            (c.x - a.x).at_least(1.0),
            (a.y - c.y).at_least(1.0),
            colour,
        );
    }
    for shape in &picture.solids {
        match *shape {
            Shape::Circle { centre, radius } => {
                let c = at(centre);
                draw_circle(c.x, c.y, (radius * scale).at_least(1.0), SOLID);
            }
            Shape::Capsule { a, b, radius } => {
                let (p, q) = (at(a), at(b));
                let thickness = (2.0 * radius * scale).at_least(1.0);
                draw_line(p.x, p.y, q.x, q.y, thickness, SOLID);
                draw_circle(p.x, p.y, thickness * 0.5, SOLID);
                draw_circle(q.x, q.y, thickness * 0.5, SOLID);
            }
        }
    }
    for (outline, [r, g, b]) in &picture.bodies {
        let colour = Color::new(*r, *g, *b, 1.0);
        let corners: Vec<Vec2> = outline.iter().map(|&p| at(p)).collect();
        if let Some((&first, rest)) = corners.split_first() {
            for pair in rest.windows(2) {
                draw_triangle(first, pair[0], pair[1], colour);
            }
        }
    }
    for &(position, direction, [r, g, b]) in &picture.emitters {
        let tip = at(position);
        let way = Vec2::new(direction.x, -direction.y).normalize_or_zero();
        let side = Vec2::new(-way.y, way.x);
        let length = (area.w * 0.06).at_least(5.0);
        let base = tip - way * length;
        let colour = Color::new(r, g, b, 1.0);
        draw_triangle(
            tip + way * length * 0.5,
            base + side * length * 0.5,
            base - side * length * 0.5,
            colour,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cards lie inside the screen, none over another, in a window, on a phone held
    /// upright and in a short window, for the twenty-one scenes: narrower where the rows would
    /// not fit.
    #[test]
    fn the_cards_fit_the_screen_without_overlapping() {
        for screen in [
            Vec2::new(1280.0, 720.0),
            Vec2::new(390.0, 844.0),
            Vec2::new(800.0, 600.0),
        ] {
            let cards = cards(screen, 21);
            assert_eq!(cards.len(), 21);
            for (i, card) in cards.iter().enumerate() {
                assert!(
                    card.x >= 0.0 && card.right() <= screen.x,
                    "{screen} {card:?}"
                );
                assert!(card.w > 60.0, "{screen} {card:?}");
                assert!(card.bottom() <= screen.y, "{screen} {card:?}");
                for other in &cards[i + 1..] {
                    assert!(!card.overlaps(other), "{screen}: {card:?} and {other:?}");
                }
            }
        }
    }
}
