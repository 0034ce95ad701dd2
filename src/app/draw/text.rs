//! The HUDs' type: the size of their text, its colours, and text cut to fit a width. Every
//! part that writes over the world (`hud`, `level_hud`, `stats`, `toolbar`) takes it from here.

use macroquad::prelude::{measure_text, Color};

/// The text's size (every new size is a new set of glyphs in the font's atlas).
pub const FONT: u16 = 18;
/// The text's colour.
pub const TEXT: Color = Color::new(0.92, 0.93, 0.96, 1.0);
/// Dimmed text.
pub const DIM: Color = Color::new(0.62, 0.65, 0.72, 1.0);
/// What needs the eye: a pause, a replay, the stability control at work.
pub const WARN: Color = Color::new(1.0, 0.72, 0.25, 1.0);
/// Behind text that explains (the engine figures, the messages).
pub const PANEL: Color = Color::new(0.0, 0.0, 0.0, 0.55);

/// The baseline of a line of `FONT` text whose line starts at `top`, in whole pixels.
pub fn baseline(top: f32) -> f32 {
    (top + 15.0).round()
}

/// `text` cut with an ellipsis to fit `width` pixels at `font`.
pub fn fit(text: &str, width: f32, font: u16) -> String {
    if measure_text(text, None, font, 1.0).width <= width {
        return text.to_string();
    }
    let mut chars: Vec<char> = text.chars().collect();
    while !chars.is_empty() {
        chars.pop();
        let cut: String = chars.iter().collect::<String>() + "...";
        if measure_text(&cut, None, font, 1.0).width <= width {
            return cut;
        }
    }
    String::new()
}
