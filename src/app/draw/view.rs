//! How the world maps to the window: the box fitted with its aspect ratio kept, clear of the
//! HUD and the touch toolbar (`layout` says where those are).

#![allow(
    clippy::disallowed_methods,
    reason = "drawing only: where the box lands in the window touches no simulation state"
)]

use crate::sim::numerics::portable::Ordered as _;
use crate::sim::World;
use macroquad::prelude::{render_target, vec2, Camera2D, FilterMode, Rect, RenderTarget, Vec2};

/// The most of its size the box gives up to stand centred in the window rather than beside the
/// HUD, off centre.
const CENTRED_LOSS: f32 = 0.15;

/// How the world maps to the window: the box's bounding box fitted with its aspect ratio kept.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// World point at the window's centre.
    pub centre: Vec2,
    /// Pixels per world unit.
    pub scale: f32,
    /// Window size in pixels.
    pub screen: Vec2,
}

impl View {
    /// Fits `world`'s box, with a small margin, into a `screen` of pixels.
    pub fn fit(world: &World, screen: Vec2) -> Self {
        let (min, max) = (world.domain().min(), world.domain().max());
        let size = (max - min).max(Vec2::splat(1e-3)) * 1.08;
        let screen = screen.max(Vec2::ONE);
        Self {
            centre: (min + max) * 0.5,
            scale: (screen.x / size.x).min(screen.y / size.y),
            screen,
        }
    }

    /// `fit` into the screen's `area` (pixels), centred there.
    pub fn fit_into(world: &World, screen: Vec2, area: Rect) -> Self {
        let mut view = Self::fit(world, Vec2::new(area.w, area.h).max(Vec2::ONE));
        view.screen = screen.max(Vec2::ONE);
        // The screen's middle shows what lies that far from the area's middle.
        let offset = Vec2::new(area.x + 0.5 * area.w, area.y + 0.5 * area.h) - 0.5 * view.screen;
        view.centre -= Vec2::new(offset.x, -offset.y) / view.scale;
        view
    }

    /// `fit`, leaving `bottom` pixels free along the bottom of the screen (the touch toolbar),
    /// `right` pixels along its right edge (the material palette, 0 when closed), and the world
    /// clear of a `panel` of pixels at the top left (the HUD). The box is centred across the
    /// window, below the panel or between the panel and its mirror on the right, whichever
    /// shows it larger; only where centring would cost it more than `CENTRED_LOSS` of its size
    /// (a phone held sideways, its HUD a third of the screen) does it stand beside the panel
    /// off centre. The box never lies under the panel or the palette, at any size of screen.
    pub fn fit_clear_of(world: &World, screen: Vec2, bottom: f32, panel: Vec2, right: f32) -> Self {
        let height = (screen.y - bottom).at_least(1.0);
        let span = |left: f32, right: f32| (screen.x - left - right).at_least(1.0);
        let side = panel.x.at_least(right);
        let below = Rect::new(
            right,
            panel.y,
            span(right, right),
            (height - panel.y).at_least(1.0),
        );
        let between = Rect::new(side, 0.0, span(side, side), height);
        let [below, between] = [below, between].map(|area| Self::fit_into(world, screen, area));
        let centred = if below.scale >= between.scale {
            below
        } else {
            between
        };
        let beside = Self::fit_into(
            world,
            screen,
            Rect::new(panel.x, 0.0, span(panel.x, right), height),
        );
        if centred.scale >= (1.0 - CENTRED_LOSS) * beside.scale {
            centred
        } else {
            beside
        }
    }

    /// The camera that draws world coordinates (y up) to the window or, with `target`, to an
    /// offscreen texture laid out like the window (row 0 at the top).
    pub fn camera(&self, target: Option<RenderTarget>) -> Camera2D {
        let zoom = vec2(
            2.0 * self.scale / self.screen.x,
            2.0 * self.scale / self.screen.y,
        );
        // Camera2D flips y for the window but not for render targets; drawn to the window, the
        // target's row 0 lands at the top, so both want the same (negative) zoom.y.
        Camera2D {
            target: self.centre,
            zoom: vec2(zoom.x, -zoom.y),
            render_target: target,
            ..Default::default()
        }
    }

    /// World position of window pixel `pixel`.
    pub fn to_world(self, pixel: Vec2) -> Vec2 {
        let from_centre = pixel - self.screen * 0.5;
        self.centre + Vec2::new(from_centre.x, -from_centre.y) / self.scale
    }

    /// Window pixel of world position `point`.
    pub fn to_screen(self, point: Vec2) -> Vec2 {
        let from_centre = (point - self.centre) * self.scale;
        self.screen * 0.5 + Vec2::new(from_centre.x, -from_centre.y)
    }

    /// The box on the screen: the bounding rectangle of `world`'s domain, in window pixels.
    pub fn box_on_screen(self, world: &World) -> Rect {
        let (a, b) = (
            self.to_screen(world.domain().min()),
            self.to_screen(world.domain().max()),
        );
        let (low, high) = (a.min(b), a.max(b));
        Rect::new(low.x, low.y, high.x - low.x, high.y - low.y)
    }
}

/// Two offscreen targets `scale` times a window of `screen` pixels on each axis, linearly
/// filtered, with their size: those `kept` while the window keeps its size, else made again.
pub(crate) fn target_pair(
    kept: &mut Option<([RenderTarget; 2], (u32, u32))>,
    screen: Vec2,
    scale: f32,
) -> ([RenderTarget; 2], (u32, u32)) {
    let size = (
        ((screen.x * scale).ceil() as u32).max(1),
        ((screen.y * scale).ceil() as u32).max(1),
    );
    if kept.as_ref().is_none_or(|(_, made)| *made != size) {
        let made = [(); 2].map(|()| {
            let target = render_target(size.0, size.1);
            target.texture.set_filter(FilterMode::Linear);
            target
        });
        *kept = Some((made, size));
    }
    kept.clone().expect("made above")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preset::Preset;

    /// The box's corners on the screen, pixels: (top left, bottom right).
    fn box_on_screen(view: View, world: &World) -> (Vec2, Vec2) {
        let (min, max) = (world.domain().min(), world.domain().max());
        let (a, b) = (view.to_screen(min), view.to_screen(max));
        (a.min(b), a.max(b))
    }

    #[test]
    fn the_world_keeps_clear_of_the_compact_hud_and_the_toolbar_either_way_a_phone_is_held() {
        let world = Preset::load("seed").expect("embedded").build_world(1);
        let panel = Vec2::new(330.0, 140.0);
        for (screen, toolbar, beside) in [
            (Vec2::new(844.0, 390.0), 44.0, true),
            (Vec2::new(390.0, 844.0), 132.0, false),
        ] {
            let view = View::fit_clear_of(&world, screen, toolbar, panel, 0.0);
            let (top_left, bottom_right) = box_on_screen(view, &world);
            let clear_beside = top_left.x >= panel.x - 0.5;
            let clear_below = top_left.y >= panel.y - 0.5;
            assert_eq!(clear_beside, beside, "{screen}: {top_left} {bottom_right}");
            assert!(clear_beside || clear_below, "{screen}: {top_left}");
            assert!(bottom_right.y <= screen.y - toolbar + 0.5, "{screen}");
            assert!(bottom_right.x <= screen.x + 0.5 && top_left.min_element() >= -0.5);
            // Nothing lost that the room allowed: the box fills the free area's width or height.
            let free = if beside {
                Vec2::new(screen.x - panel.x, screen.y - toolbar)
            } else {
                Vec2::new(screen.x, screen.y - toolbar - panel.y)
            };
            let size = (bottom_right - top_left) * 1.08;
            assert!(
                (size.x - free.x).abs() < 1.0 || (size.y - free.y).abs() < 1.0,
                "{screen}: {size} in {free}"
            );
        }
    }

    #[test]
    fn on_a_wide_screen_the_world_goes_below_the_panel_rather_than_under_it() {
        // The dam's box has the screen's shape: beside the panel it would lose a quarter of its
        // size, below it a tenth; under it, none, but the panel would cover a corner.
        let world = Preset::load("dam").expect("embedded").build_world(1);
        let (screen, panel) = (Vec2::new(1280.0, 720.0), Vec2::new(330.0, 70.0));
        let view = View::fit_clear_of(&world, screen, 0.0, panel, 0.0);
        let (top_left, bottom_right) = box_on_screen(view, &world);
        assert!(top_left.y >= panel.y, "{top_left}");
        assert!(bottom_right.y <= screen.y + 0.5 && top_left.x >= 0.0);
        let over = View::fit(&world, screen);
        assert!(
            view.scale > 0.85 * over.scale,
            "{} of {}",
            view.scale,
            over.scale
        );
    }

    /// A tall box (the seed's) in a wide window stands centred across it, below the HUD, where
    /// it stood beside the HUD a sixth of the window right of centre; with the palette open it
    /// keeps clear of the palette too, and keeps its size.
    #[test]
    fn a_tall_box_stands_centred_clear_of_the_hud_and_the_palette() {
        let world = Preset::load("seed").expect("embedded").build_world(1);
        let (screen, panel) = (Vec2::new(1280.0, 720.0), Vec2::new(328.0, 62.0));
        let view = View::fit_clear_of(&world, screen, 0.0, panel, 0.0);
        let (top_left, bottom_right) = box_on_screen(view, &world);
        let middle = 0.5 * (top_left.x + bottom_right.x);
        assert!((middle - 640.0).abs() < 1.0, "{top_left} {bottom_right}");
        assert!(top_left.y >= panel.y - 0.5, "{top_left}");
        let palette = 166.0;
        let open = View::fit_clear_of(&world, screen, 0.0, panel, palette);
        let (top_left, bottom_right) = box_on_screen(open, &world);
        assert!(bottom_right.x <= screen.x - palette + 0.5, "{bottom_right}");
        assert!(top_left.y >= panel.y - 0.5 || top_left.x >= panel.x - 0.5);
        assert!(
            (open.scale - view.scale).abs() < 1e-3,
            "{} {}",
            open.scale,
            view.scale
        );
    }

    #[test]
    fn without_a_panel_or_toolbar_the_view_is_the_plain_fit() {
        let world = Preset::load("dam").expect("embedded").build_world(1);
        let screen = Vec2::new(1280.0, 720.0);
        let plain = View::fit(&world, screen);
        let clear = View::fit_clear_of(&world, screen, 0.0, Vec2::ZERO, 0.0);
        assert!((plain.scale - clear.scale).abs() < 1e-4);
        assert!((plain.centre - clear.centre).length() < 1e-4);
    }
}
