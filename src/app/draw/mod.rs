//! Everything that draws: the liquid and the scene (`render`, with `splats`, `smoke` and the
//! glow's `bloom`; the liquid's optics in numbers in `look`), the HUDs (`hud`, `level_hud`, the
//! engine figures `stats`, the touch `toolbar`, the tuning `panel`, the material palette
//! `swatches`, the scene menu `scene_menu`), where they and the box go
//! (`layout`, `view`), the colours heat is shown in (`palette`), the HUDs' type (`text`), and the
//! GIF capture (`capture`). The only code that calls macroquad's drawing.

pub(crate) mod bloom;
pub(crate) mod capture;
pub(crate) mod hud;
pub(crate) mod layout;
pub(crate) mod level_hud;
pub(crate) mod look;
pub(crate) mod palette;
pub(crate) mod panel;
pub(crate) mod render;
pub(crate) mod scene_menu;
pub(crate) mod smoke;
pub(crate) mod splats;
pub(crate) mod stats;
pub(crate) mod swatches;
pub(crate) mod text;
pub(crate) mod toolbar;
pub(crate) mod view;
