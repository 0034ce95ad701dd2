//! Levels in the window, without any window types: the stars earned so far (kept between runs:
//! natively a small file in the user's data folder, in a page the browser's local storage),
//! which levels are open, and the menu's selection.

use crate::level::{self, Tool};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The key the stars are kept under in a page's local storage.
const STORAGE_KEY: &str = "slosh-progress";

/// The stars earned in each level, best first kept, and the sound's settings, which are kept
/// with them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    stars: BTreeMap<String, u8>,
    /// The sound's volume and mute.
    pub sound: SoundSettings,
    /// Where it is kept natively (`None`: nowhere, as in tests or a page).
    file: Option<PathBuf>,
}

/// The sound's settings, as the player left them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SoundSettings {
    /// 0 to 1: the panel's slider (the samples are scaled by its square).
    pub volume: f32,
    /// Sound off (V), the volume kept.
    pub muted: bool,
}

impl Default for SoundSettings {
    fn default() -> Self {
        Self {
            volume: 0.8,
            muted: false,
        }
    }
}

/// The lines of the progress's text that hold the sound's settings (`volume 0.80`, `muted
/// yes`). A level's line is `NAME STARS` with whole stars, so an older reader skips them.
const VOLUME: &str = "volume";
const MUTED: &str = "muted";

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

    /// Progress read from its text (`NAME STARS` a line, then `volume V` and `muted yes|no`;
    /// anything else is skipped, and what is missing has its default: a file from before the
    /// sound reads as it did), kept in `file` when it changes.
    pub fn from_text(text: &str, file: Option<PathBuf>) -> Self {
        let mut sound = SoundSettings::default();
        let mut stars = BTreeMap::new();
        for line in text.lines() {
            let Some((name, value)) = line.split_once(' ') else {
                continue;
            };
            let value = value.trim();
            match name {
                VOLUME => {
                    if let Some(volume) = value.parse::<f32>().ok().filter(|v| v.is_finite()) {
                        sound.volume = volume.clamp(0.0, 1.0);
                    }
                }
                MUTED => sound.muted = value == "yes",
                _ => {
                    if let Ok(count) = value.parse::<u8>() {
                        stars.insert(name.to_string(), count.min(3));
                    }
                }
            }
        }
        Self { stars, sound, file }
    }

    /// Its text, as `from_text` reads it.
    pub fn to_text(&self) -> String {
        let mut text: String = self
            .stars
            .iter()
            .map(|(name, stars)| format!("{name} {stars}\n"))
            .collect();
        let muted = if self.sound.muted { "yes" } else { "no" };
        text.push_str(&format!(
            "{VOLUME} {:.2}\n{MUTED} {muted}\n",
            self.sound.volume
        ));
        text
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

    /// Keeps the progress where it lives (natively its file, in a page the browser's local
    /// storage); what went wrong, if anything.
    pub fn keep(&self) -> Result<(), String> {
        if cfg!(target_arch = "wasm32") {
            crate::app::game::page::store(STORAGE_KEY, &self.to_text());
            return Ok(());
        }
        let Some(file) = &self.file else {
            return Ok(());
        };
        if let Some(folder) = file.parent() {
            std::fs::create_dir_all(folder).map_err(|error| {
                format!("cannot keep the progress in {}: {error}", folder.display())
            })?;
        }
        std::fs::write(file, self.to_text())
            .map_err(|error| format!("cannot keep the progress in {}: {error}", file.display()))
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

    #[test]
    fn the_sound_settings_are_kept_with_the_stars_and_old_files_still_load() {
        // A file from before the sound: its stars, the sound's defaults.
        let old = Progress::from_text("first-pour 2\nwake-up 1\n", None);
        assert_eq!(old.stars("first-pour"), 2);
        assert_eq!(old.sound, SoundSettings::default());
        // Settings changed round-trip, and the stars with them.
        let mut progress = old.clone();
        progress.sound = SoundSettings {
            volume: 0.35,
            muted: true,
        };
        let text = progress.to_text();
        assert!(text.starts_with("first-pour 2\nwake-up 1\n"), "{text}");
        let back = Progress::from_text(&text, None);
        assert_eq!(back, progress);
        // An older reader (NAME and whole stars a line) finds no level in the sound's lines.
        for line in text.lines().skip(2) {
            let stars = line.split_once(' ').unwrap().1;
            assert!(stars.parse::<u8>().is_err(), "{line}");
        }
        // Nonsense keeps the defaults; a volume out of range is held to 0..1.
        let odd = Progress::from_text("volume loud\nmuted maybe\n", None);
        assert_eq!(odd.sound, SoundSettings::default());
        assert_eq!(Progress::from_text("volume 7\n", None).sound.volume, 1.0);
        assert_eq!(Progress::from_text("volume NaN\n", None).sound.volume, 0.8);
    }
}
