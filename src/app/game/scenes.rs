//! The scene menu's contents, without any window types: each scene a player can open (the
//! presets on the number keys and B, not the benchmarks' scenes after them) as a card, with its
//! name, its key, what it shows, and a small picture of how it starts: the box, the blocks of
//! each material in its colour, the solids and the emitters.

use super::session::{key_label, PRESET_KEYS};
use crate::preset::{Preset, BUILTIN};
use crate::sim::Shape;
use glam::Vec2;

/// One scene of the menu.
#[derive(Clone, Debug, PartialEq)]
pub struct Card {
    /// The preset's name.
    pub name: String,
    /// The key that opens it (`1`, `Shift+2`, `B`).
    pub key: String,
    /// Its key as `Command::SwitchPreset` counts it (from 1).
    pub number: usize,
    /// What it shows, in a few words (the preset's description after its colon).
    pub title: String,
    /// The picture.
    pub picture: Picture,
}

/// How a scene starts, in world coordinates: the walls' bounding box, its blocks, solids,
/// emitters and rigid bodies, each in its colour.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Picture {
    /// Lower left corner of the box.
    pub min: Vec2,
    /// Upper right corner of the box.
    pub max: Vec2,
    /// Each block: its corners and its material's colour.
    pub blocks: Vec<(Vec2, Vec2, [f32; 3])>,
    /// The obstacles' shapes.
    pub solids: Vec<Shape>,
    /// Each emitter: where it is, which way it pours, and its material's colour.
    pub emitters: Vec<(Vec2, Vec2, [f32; 3])>,
    /// Each part of each rigid body, as its outline where it starts, and the body's colour.
    pub bodies: Vec<(Vec<Vec2>, [f32; 3])>,
}

impl Picture {
    /// The picture of `preset` as it starts.
    pub fn of(preset: &Preset) -> Self {
        let scene = &preset.scene;
        let colour = |material: usize| scene.materials.get(material).map_or([0.5; 3], |m| m.colour);
        Self {
            min: scene.domain.min(),
            max: scene.domain.max(),
            blocks: (scene.blocks.iter())
                .map(|b| (b.min, b.max, colour(b.material)))
                .collect(),
            solids: scene.obstacles.iter().map(|o| o.shape).collect(),
            emitters: (scene.emitters.iter())
                .map(|e| (e.position, e.direction, colour(e.material)))
                .collect(),
            bodies: (scene.bodies.iter())
                .flat_map(|body| {
                    let turn = crate::sim::numerics::portable::unit_vector(body.angle);
                    body.parts.iter().map(move |part| {
                        let outline = part.outline(12).into_iter();
                        let placed = outline.map(|p| body.position + turn.rotate(p)).collect();
                        (placed, body.colour)
                    })
                })
                .collect(),
        }
    }
}

/// `text` with its first letter in capitals.
fn capitalised(text: &str) -> String {
    let mut letters = text.chars();
    match letters.next() {
        Some(first) => first.to_uppercase().chain(letters).collect(),
        None => String::new(),
    }
}

/// The cards of every scene a player can open, in key order; a preset this build cannot load
/// (one with rigid bodies, without the `bodies` feature) is left out.
pub fn cards() -> Vec<Card> {
    BUILTIN[..PRESET_KEYS.min(BUILTIN.len())]
        .iter()
        .enumerate()
        .filter_map(|(index, (name, _))| {
            let preset = Preset::load(name).ok()?;
            // The words after the description's title, which the card's name already gives.
            let title = match preset.description.split_once(':') {
                Some((_, what)) => capitalised(what.trim()),
                None => preset.description.clone(),
            };
            Some(Card {
                name: preset.name.clone(),
                key: key_label(index + 1),
                number: index + 1,
                title,
                picture: Picture::of(&preset),
            })
        })
        .collect()
}

/// The scene menu: open or not, the card chosen, and the cards (made the first time it opens).
#[derive(Clone, Debug, Default)]
pub struct SceneMenu {
    /// Shown over the world.
    pub open: bool,
    /// The card chosen (an index into `cards`).
    pub selected: usize,
    /// The scenes, once made.
    pub cards: Vec<Card>,
}

impl SceneMenu {
    /// Opens or closes the menu; opened, the card of the scene running (`current`, a preset's
    /// name) is chosen.
    pub fn toggle(&mut self, current: &str) {
        self.open = !self.open;
        if self.open {
            if self.cards.is_empty() {
                self.cards = cards();
            }
            self.selected = (self.cards.iter())
                .position(|card| card.name == current)
                .unwrap_or(0);
        }
    }

    /// Moves the choice by `cards`, within them.
    pub fn step(&mut self, cards: isize) {
        let last = self.cards.len().saturating_sub(1) as isize;
        self.selected = (self.selected as isize + cards).clamp(0, last) as usize;
    }

    /// The key number (`Command::SwitchPreset`) of the card chosen.
    pub fn chosen(&self) -> Option<usize> {
        self.cards.get(self.selected).map(|card| card.number)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The menu holds every keyed scene and the sandbox, not the benchmarks' tank; each picture
    /// has a box, and every scene but the empty ones (the sandbox, the smoke) something in it.
    #[test]
    fn the_menu_holds_the_players_scenes_with_pictures() {
        let cards = cards();
        let names: Vec<&str> = cards.iter().map(|c| c.name.as_str()).collect();
        assert!(names.contains(&"sandbox") && names.contains(&"seed"));
        assert!(!names.contains(&"tank"));
        assert!(cards.len() >= 15, "{names:?}");
        let sandbox = cards.iter().find(|c| c.name == "sandbox").unwrap();
        assert_eq!(sandbox.key, "B");
        for card in &cards {
            let p = &card.picture;
            assert!(p.max.x > p.min.x && p.max.y > p.min.y, "{}", card.name);
            let drawn = p.blocks.len() + p.solids.len() + p.emitters.len() + p.bodies.len();
            let empty = ["sandbox", "smoke"].contains(&card.name.as_str());
            assert!(empty || drawn > 0, "{} has nothing to show", card.name);
            assert!(!card.title.is_empty());
        }
    }

    /// Opening chooses the scene running; the choice stays among the cards.
    #[test]
    fn opening_chooses_the_scene_running() {
        let mut menu = SceneMenu::default();
        menu.toggle("jelly");
        assert!(menu.open);
        assert_eq!(menu.cards[menu.selected].name, "jelly");
        menu.step(-100);
        assert_eq!(menu.selected, 0);
        menu.step(100);
        assert_eq!(menu.selected, menu.cards.len() - 1);
        assert_eq!(menu.chosen(), Some(menu.cards.last().unwrap().number));
        menu.toggle("jelly");
        assert!(!menu.open);
    }
}
