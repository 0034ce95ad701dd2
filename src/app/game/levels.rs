//! Levels in the window, without any window types: the stars earned so far (kept between runs:
//! natively a small file in the user's data folder, in a page the browser's local storage),
//! which levels are open, and the menu's selection.

use crate::level::{self, Tool};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The key the stars are kept under in a page's local storage.
const STORAGE_KEY: &str = "slosh-progress";

/// The stars earned in each level, best first kept.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    stars: BTreeMap<String, u8>,
    /// Where it is kept natively (`None`: nowhere, as in tests or a page).
    file: Option<PathBuf>,
}

impl Progress {
    /// The progress kept on this machine (or in this browser); none yet is no progress.
    pub fn load() -> Self {
        if cfg!(target_arch = "wasm32") {
            let text = crate::app::game::page::stored(STORAGE_KEY).unwrap_or_default();
            return Self::from_text(&text, None);
        }
        let file = data_file();
        let text = file
            .as_ref()
            .and_then(|file| std::fs::read_to_string(file).ok())
            .unwrap_or_default();
        Self::from_text(&text, file)
    }

    /// Progress read from its text (`NAME STARS` a line; anything else is skipped), kept in
    /// `file` when it changes.
    pub fn from_text(text: &str, file: Option<PathBuf>) -> Self {
        let stars = text
            .lines()
            .filter_map(|line| {
                let (name, stars) = line.split_once(' ')?;
                let stars: u8 = stars.trim().parse().ok()?;
                Some((name.to_string(), stars.min(3)))
            })
            .collect();
        Self { stars, file }
    }

    /// Its text, as `from_text` reads it.
    pub fn to_text(&self) -> String {
        self.stars
            .iter()
            .map(|(name, stars)| format!("{name} {stars}\n"))
            .collect()
    }

    /// Stars earned in level `name` (0: not met yet).
    pub fn stars(&self, name: &str) -> u8 {
        self.stars.get(name).copied().unwrap_or(0)
    }

    /// Notes `stars` earned in level `name`, and keeps the progress when it improved. What went
    /// wrong keeping it, if anything (the stars count for this run all the same).
    pub fn earn(&mut self, name: &str, stars: u8) -> Result<(), String> {
        if stars <= self.stars(name) {
            return Ok(());
        }
        self.stars.insert(name.to_string(), stars);
        self.keep()
    }

    /// True when level `index` (in `level::BUILTIN`'s order) may be played: every level before
    /// it has been met, so that the first unmet level is open and those after it are locked.
    pub fn is_open(&self, index: usize) -> bool {
        level::BUILTIN[..index.min(level::BUILTIN.len())]
            .iter()
            .all(|(name, _)| self.stars(name) > 0)
    }

    fn keep(&self) -> Result<(), String> {
        if cfg!(target_arch = "wasm32") {
            crate::app::game::page::store(STORAGE_KEY, &self.to_text());
            return Ok(());
        }
        let Some(file) = &self.file else {
            return Ok(());
        };
        if let Some(folder) = file.parent() {
            std::fs::create_dir_all(folder).map_err(|error| {
                format!("cannot keep the stars in {}: {error}", folder.display())
            })?;
        }
        std::fs::write(file, self.to_text())
            .map_err(|error| format!("cannot keep the stars in {}: {error}", file.display()))
    }
}

/// The file the stars are kept in natively: `SLOSH_DATA_DIR` when set, else the user's data
/// folder (`$XDG_DATA_HOME` or `~/.local/share`, `%APPDATA%` on Windows, `~/Library/Application
/// Support` on macOS), in `slosh/progress.txt`.
pub fn data_file() -> Option<PathBuf> {
    let var = |name| std::env::var_os(name).filter(|value| !value.is_empty());
    let folder = if let Some(folder) = var("SLOSH_DATA_DIR") {
        PathBuf::from(folder)
    } else if cfg!(windows) {
        PathBuf::from(var("APPDATA")?).join("slosh")
    } else if cfg!(target_os = "macos") {
        PathBuf::from(var("HOME")?).join("Library/Application Support/slosh")
    } else if let Some(data) = var("XDG_DATA_HOME") {
        PathBuf::from(data).join("slosh")
    } else {
        PathBuf::from(var("HOME")?).join(".local/share/slosh")
    };
    Some(folder.join("progress.txt"))
}

/// Each embedded level's title and what it teaches, in `level::BUILTIN`'s order (read once).
pub fn catalogue() -> &'static [(String, String)] {
    static CATALOGUE: std::sync::OnceLock<Vec<(String, String)>> = std::sync::OnceLock::new();
    CATALOGUE.get_or_init(|| {
        level::BUILTIN
            .iter()
            .map(|(name, _)| {
                crate::preset::Preset::load(name)
                    .ok()
                    .and_then(|preset| preset.level)
                    .map(|level| (level.rules.title, level.rules.teaches))
                    .unwrap_or_default()
            })
            .collect()
    })
}

/// The level menu: open or not, and the row chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Menu {
    /// Shown over the world.
    pub open: bool,
    /// The row chosen (`level::BUILTIN`'s index).
    pub selected: usize,
}

impl Menu {
    /// Moves the selection by `rows`, within the levels.
    pub fn step(&mut self, rows: isize) {
        let last = level::BUILTIN.len().saturating_sub(1) as isize;
        self.selected = (self.selected as isize + rows).clamp(0, last) as usize;
    }
}

/// The tools the left button can hold, in the order the keys pick them (the first one a level
/// allows is taken when the level refuses the one in hand); the others (`Pull`, `Tilt`, `Tune`)
/// have buttons and keys of their own.
pub const TOOLS: [Tool; 7] = [
    Tool::Stir,
    Tool::Pour,
    Tool::Erase,
    Tool::Draw,
    Tool::Grab,
    Tool::Heat,
    Tool::Cool,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_reads_back_keeps_the_best_and_opens_levels_in_order() {
        let folder = std::env::temp_dir().join(format!("slosh-progress-{}", std::process::id()));
        let file = folder.join("progress.txt");
        let mut progress = Progress::from_text("", Some(file.clone()));
        assert!(progress.is_open(0));
        assert!(!progress.is_open(1), "the second level waits for the first");
        let first = level::BUILTIN[0].0;
        progress.earn(first, 2).unwrap();
        assert!(progress.is_open(1) && !progress.is_open(2));
        // A worse go keeps the best.
        progress.earn(first, 1).unwrap();
        assert_eq!(progress.stars(first), 2);
        let text = std::fs::read_to_string(&file).unwrap();
        assert_eq!(Progress::from_text(&text, None).stars(first), 2);
        // A damaged file is read as far as it makes sense.
        let odd = Progress::from_text("first-pour 9\nnonsense\nwake-up x\n", None);
        assert_eq!(odd.stars("first-pour"), 3);
        assert_eq!(odd.stars("wake-up"), 0);
        std::fs::remove_dir_all(&folder).unwrap();
    }
}
