//! Where the window's parts go: the HUD's strip at the top left (with the temperature view's
//! scale under it), the engine figures under that (F3, `--stats`), the touch toolbar along the
//! bottom, and the box fitted clear of them all (`View::fit_clear_of`). Geometry only: nothing is
//! drawn and no text measured here, so that a test can lay out any window.

use super::view::View;
use super::{swatches, toolbar};
use crate::sim::numerics::portable::Ordered as _;
use crate::sim::World;
use macroquad::prelude::{Rect, Vec2};

/// Gap between the window's edges and the HUD, pixels.
pub const MARGIN: f32 = 8.0;
/// Widest the HUD's strip goes, pixels (less on a narrower window): its text is cut to fit.
pub const HUD_WIDTH: f32 = 320.0;
/// Height of one line of the HUD's text, pixels.
pub const LINE: f32 = 20.0;
/// Space around the text inside the strip, pixels.
pub const PAD: f32 = 7.0;
/// Height of a level's progress bar between the strip's two lines, pixels.
pub const BAR: f32 = 8.0;
/// Height of the temperature view's scale under the strip, pixels.
pub const LEGEND_HEIGHT: f32 = 46.0;
/// Space between the HUD's pieces, pixels.
pub const GAP: f32 = 4.0;
/// Height of the reload error's banner across the top of the window, pixels.
pub const BANNER: f32 = 30.0;
/// The least share of its size the box keeps to stay clear of the engine figures as well as the
/// HUD; rather than shrink more, it lets them cover a corner (they are a tool for the engine's
/// work, not part of the game).
const CLEAR_OF_STATS: f32 = 0.9;

/// The narrowest upright window whose palette is a column along the right edge; narrower
/// upright ones (a phone held upright) lay it across under the HUD. A window wider than it is
/// tall always has the column.
const PALETTE_COLUMN_SCREEN: f32 = 900.0;

/// What the window shows around the box, as far as the layout goes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Parts {
    /// A level is played: its progress bar lies between the strip's two lines.
    pub level: bool,
    /// The temperature view's scale, under the strip.
    pub legend: bool,
    /// The reload error's banner, across the top.
    pub banner: bool,
    /// Lines of engine figures (F3, `--stats`); 0 when they are hidden.
    pub stats: usize,
    /// The touch toolbar shows along the bottom.
    pub toolbar: bool,
    /// Materials in the palette when it is open (`swatches`); 0 when it is
    /// closed.
    pub palette: usize,
}

/// Where each part of the window goes, in window pixels, and the view of the box clear of them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// The HUD's strip at the top left: the room for its two lines (and a level's bar); the
    /// text drawn is cut to fit its width.
    pub strip: Rect,
    /// The temperature view's scale under the strip, when it shows.
    pub legend: Option<Rect>,
    /// The engine figures' panel under the HUD, as wide as its strip, when they show.
    pub stats: Option<Rect>,
    /// The touch toolbar along the bottom, when it shows.
    pub toolbar: Option<Rect>,
    /// The material palette, along the right edge or across under the HUD, when it is open.
    pub palette: Option<swatches::Grid>,
    /// How the world maps to the window: its box beside or below the HUD, above the toolbar.
    pub view: View,
}

impl Layout {
    /// The layout of a `screen` of pixels showing `world` and `parts`.
    pub fn new(world: &World, screen: Vec2, parts: Parts) -> Self {
        let top = MARGIN + if parts.banner { BANNER } else { 0.0 };
        let room = (screen.x - 2.0 * MARGIN).at_least(1.0);
        let strip = Rect::new(
            MARGIN,
            top,
            HUD_WIDTH.at_most(room),
            strip_height(parts.level),
        );
        let legend = parts
            .legend
            .then(|| Rect::new(MARGIN, strip.bottom() + GAP, strip.w, LEGEND_HEIGHT));
        let hud = legend.map_or(strip, |legend| strip.combine_with(legend));
        let stats = (parts.stats > 0).then(|| {
            let lines = parts.stats as f32;
            Rect::new(
                MARGIN,
                hud.bottom() + GAP,
                strip.w,
                lines * LINE + 2.0 * PAD,
            )
        });
        let toolbar = parts.toolbar.then(|| {
            let height = toolbar::height_on(screen.x);
            Rect::new(0.0, screen.y - height, screen.x, height)
        });
        let bottom = toolbar.map_or(0.0, |toolbar| toolbar.h);
        // The palette: a column along the right edge where the window is wide enough to leave
        // the box room between it and the HUD (or wider than tall), else a strip across under
        // the HUD.
        let palette = (parts.palette > 0).then(|| {
            if screen.x >= PALETTE_COLUMN_SCREEN || screen.x > screen.y {
                let floor = (screen.y - bottom - MARGIN).at_least(top + 1.0);
                swatches::column(screen, top, floor, MARGIN, parts.palette)
            } else {
                swatches::strip(MARGIN, hud.bottom() + GAP, room, parts.palette)
            }
        });
        let (hud, right) = match palette {
            Some(grid) if grid.columns == 1 => (hud, screen.x - grid.rect.x + MARGIN),
            Some(grid) => (hud.combine_with(grid.rect), 0.0),
            None => (hud, 0.0),
        };
        let corner = |rect: Rect| Vec2::new(rect.right(), rect.bottom());
        let mut view = View::fit_clear_of(world, screen, bottom, corner(hud), right);
        if let Some(stats) = stats {
            let panel = corner(hud.combine_with(stats));
            let clear = View::fit_clear_of(world, screen, bottom, panel, right);
            if clear.scale >= CLEAR_OF_STATS * view.scale {
                view = clear;
            }
        }
        Self {
            strip,
            legend,
            stats,
            toolbar,
            palette,
            view,
        }
    }
}

/// Height of the HUD's strip: two lines, with a level's progress bar between them.
fn strip_height(level: bool) -> f32 {
    2.0 * LINE + 2.0 * PAD + if level { BAR } else { 0.0 }
}

/// `rect` as the window's final line writes it: `[x, y, w, h]` in whole pixels.
pub fn as_json(rect: Rect) -> [f32; 4] {
    [rect.x, rect.y, rect.w, rect.h].map(f32::round)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preset::Preset;

    /// The windows the HUD must keep clear of the box in: a laptop, a desktop, and a phone on
    /// its side and upright.
    const SCREENS: [(f32, f32); 4] = [
        (1280.0, 720.0),
        (1920.0, 1080.0),
        (844.0, 390.0),
        (390.0, 844.0),
    ];

    /// The HUD's room in `layout`: the strip, and the scale under it when it shows.
    fn hud(layout: &Layout) -> Rect {
        layout
            .legend
            .map_or(layout.strip, |legend| layout.strip.combine_with(legend))
    }

    /// Whether two rectangles share more than an edge.
    fn overlap(a: Rect, b: Rect) -> bool {
        a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom()
    }

    /// Every embedded preset and level, as a world at its own resolution.
    fn every_scene() -> Vec<(String, World)> {
        let presets = crate::preset::BUILTIN
            .iter()
            .map(|(name, _)| Preset::load(name).expect("embedded preset"));
        let levels = crate::level::BUILTIN
            .iter()
            .map(|(name, _)| Preset::load_level(name).expect("embedded level"));
        presets
            .chain(levels)
            .map(|preset| (preset.name.clone(), preset.build_world(1)))
            .collect()
    }

    #[test]
    fn the_hud_is_clear_of_the_box_for_every_scene_at_every_size() {
        // The least share of its size a box keeps beside or below the HUD, against the whole
        // window above the toolbar: with the HUD's two lines, and with all it may show (and
        // then with the palette open too: 0.57 at worst, the dam on a phone held sideways).
        let (mut smallest_plain, mut smallest) = (f32::INFINITY, f32::INFINITY);
        let mut worst = String::new();
        // With the palette open as well: the least share of all.
        let mut smallest_open = f32::INFINITY;
        for (name, world) in every_scene() {
            for (width, height) in SCREENS {
                let screen = Vec2::new(width, height);
                // As the window has it untouched, and a phone's after a touch.
                let mut toolbars = vec![toolbar::shown_untouched(width)];
                if width < 1000.0 {
                    toolbars.push(true);
                }
                for (toolbar, level, legend, banner) in toolbars.into_iter().flat_map(|toolbar| {
                    [
                        (toolbar, false, false, false),
                        (toolbar, true, false, false),
                        (toolbar, true, true, true),
                    ]
                }) {
                    let parts = Parts {
                        level,
                        legend,
                        banner,
                        toolbar,
                        stats: 0,
                        palette: if legend { 14 } else { 0 },
                    };
                    let layout = Layout::new(&world, screen, parts);
                    let seen = layout.view.box_on_screen(&world);
                    let what = format!("{name} at {width}x{height} with {parts:?}: box {seen:?}");
                    assert!(
                        !overlap(hud(&layout), seen),
                        "{what}, HUD {:?}",
                        hud(&layout)
                    );
                    if let Some(palette) = layout.palette.map(|grid| grid.rect) {
                        assert!(!overlap(palette, seen), "{what}, palette {palette:?}");
                        assert!(
                            !overlap(palette, hud(&layout)),
                            "{what}, palette {palette:?}"
                        );
                    }
                    let free_height = layout.toolbar.map_or(height, |toolbar| toolbar.y);
                    assert!(
                        seen.x >= 0.0
                            && seen.y >= 0.0
                            && seen.right() <= width
                            && seen.bottom() <= free_height,
                        "{what}: not inside the window above the toolbar ({free_height})"
                    );
                    let bottom = layout.toolbar.map_or(0.0, |toolbar| toolbar.h);
                    let whole = View::fit_clear_of(&world, screen, bottom, Vec2::ZERO, 0.0);
                    let kept = layout.view.scale / whole.scale;
                    if parts.palette > 0 {
                        smallest_open = smallest_open.at_most(kept);
                    } else if kept < smallest {
                        smallest = kept;
                        worst = what.clone();
                    }
                    if parts
                        == (Parts {
                            toolbar,
                            ..Parts::default()
                        })
                    {
                        smallest_plain = smallest_plain.at_most(kept);
                    }
                }
            }
        }
        assert!(smallest_open > 0.5, "{smallest_open} with the palette open");
        assert!(
            smallest_plain > 0.8 && smallest > 0.6,
            "a box kept only {smallest_plain} of its size beside the HUD, {smallest} at worst \
             ({worst})"
        );
    }

    #[test]
    fn the_engine_figures_keep_clear_when_it_costs_little_and_cover_a_corner_otherwise() {
        let seed = Preset::load("seed").expect("embedded").build_world(1);
        let dam = Preset::load("dam").expect("embedded").build_world(1);
        let screen = Vec2::new(1280.0, 720.0);
        let parts = Parts {
            stats: 6,
            ..Parts::default()
        };
        // The seed's box is nearly square: beside the HUD and the figures under it, it loses
        // nothing.
        let layout = Layout::new(&seed, screen, parts);
        let stats = layout.stats.expect("shown");
        assert!(!overlap(stats, layout.view.box_on_screen(&seed)));
        // The dam's has the screen's shape: below the figures it would lose a fifth; it keeps
        // its size and clear of the HUD, the figures over its corner.
        let layout = Layout::new(&dam, screen, parts);
        let seen = layout.view.box_on_screen(&dam);
        assert!(overlap(layout.stats.expect("shown"), seen));
        assert!(!overlap(hud(&layout), seen));
        assert_eq!(
            layout.view,
            Layout::new(&dam, screen, Parts::default()).view
        );
    }
}
