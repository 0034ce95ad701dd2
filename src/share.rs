//! Links: a scene or a replay as one line of URL-safe text, to paste in a chat or after a web
//! page's `#`. What `slosh --share` prints, `slosh --open` and the page open, and the window's
//! F10 copies.
//!
//! # Format (version 1)
//!
//! `s1.` then the payload, zlib-compressed (its Adler-32 checksum catches a damaged or cut
//! link) and written in URL-safe base64 without padding (`A`–`Z`, `a`–`z`, `0`–`9`, `-`, `_`).
//! The payload is JSON, one of:
//!
//! - `{"kind":"preset","name":NAME,"particles":N|null,"seed":S}`: an embedded preset or level;
//! - `{"kind":"scene","toml":TEXT,"particles":N|null,"seed":S}`: a preset file's text, or the
//!   window's scene as edited (as F7 saves it);
//! - `{"kind":"replay","replay":TEXT,"presets":{SOURCE:TEXT}}`: a replay file's text, with the
//!   text of each preset file its `preset` inputs name (embedded presets need none).
//!
//! A link opens to exactly what its source gives: the same preset text, particle count and seed
//! build the same world, and a replay plays to its recorded checksum. A scene that comes from a
//! link has no file; [`Shared::open`] registers its text with the preset loader
//! ([`crate::preset::register_text`]) under the name [`scene_name`] gives it, so that every path
//! that loads a preset by name (reset, reload, a recording's `preset` line) finds it.

use crate::preset::{self, Preset, PresetError};
use crate::replay::{Input, Replay};
use crate::FileError;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

/// The link format version this build writes and reads.
pub const VERSION: u32 = 1;

/// Most bytes a link's payload may unpack to (a replay of a long session is well under it): a
/// link that would unpack to more is refused rather than allowed to fill the memory.
pub const MOST_UNPACKED: usize = 16 << 20;

/// Why a link cannot be made or opened.
#[derive(Clone, Debug, PartialEq)]
pub enum ShareError {
    /// A file the link would carry cannot be read: the file and why.
    Unreadable {
        /// The file.
        file: String,
        /// What it was to be: "the replay", "the preset".
        what: &'static str,
        /// Why not (the system's words).
        why: String,
    },
    /// A preset the link names or carries is refused by the loader.
    Preset(PresetError),
    /// A replay the link carries, or a preset file the replay names (at its line), is refused.
    File(FileError),
    /// The text is not a link this build opens: not a link, another version, a damaged or cut
    /// payload (one line saying which).
    Link(String),
}

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unreadable { file, what, why } => write!(f, "{file}: cannot read {what}: {why}"),
            Self::Preset(error) => write!(f, "{error}"),
            Self::File(error) => write!(f, "{error}"),
            Self::Link(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for ShareError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Preset(error) => Some(error),
            Self::File(error) => Some(error),
            _ => None,
        }
    }
}

/// The `slosh` program's errors are its one-line messages.
impl From<ShareError> for String {
    fn from(error: ShareError) -> Self {
        error.to_string()
    }
}

impl From<PresetError> for ShareError {
    fn from(error: PresetError) -> Self {
        Self::Preset(error)
    }
}

impl From<FileError> for ShareError {
    fn from(error: FileError) -> Self {
        Self::File(error)
    }
}

/// What a link carries.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Shared {
    /// An embedded preset or level, by name.
    Preset {
        /// Its name (`--list-presets`, `--list-levels`).
        name: String,
        /// The particle count it was rescaled to (none: its own).
        particles: Option<usize>,
        /// Seed of all randomness.
        seed: u64,
    },
    /// A scene as preset text.
    Scene {
        /// The preset file's text.
        toml: String,
        /// The particle count it was rescaled to (none: its own).
        particles: Option<usize>,
        /// Seed of all randomness.
        seed: u64,
    },
    /// A replay.
    Replay {
        /// The replay file's text.
        replay: String,
        /// The text of each preset file the replay's `preset` inputs name, by the name they
        /// give it.
        presets: BTreeMap<String, String>,
    },
}

/// What an opened link starts: a world, or a replay to play.
#[derive(Clone, Debug, PartialEq)]
pub enum Opened {
    /// Build this preset (a name the preset loader finds) at `particles`, with `seed`.
    Start {
        /// The preset's name or registered name.
        source: String,
        /// The particle count (none: the preset's own).
        particles: Option<usize>,
        /// Seed of all randomness.
        seed: u64,
    },
    /// Play this replay (its preset files registered with the loader).
    Replay(Replay),
}

/// The name a scene from a link is registered under: `link-` and the first 8 hex digits of its
/// text's FNV-1a hash, so that the same scene opened twice has one name.
pub fn scene_name(toml: &str) -> String {
    let mut hash = crate::sim::numerics::checksum::Fnv::new();
    for byte in toml.bytes() {
        hash.byte(byte);
    }
    format!("link-{:08x}", hash.finish() >> 32)
}

impl Shared {
    /// A link to `source` (an embedded preset or level by name, or a preset file), at
    /// `particles` with `seed`. A file is carried as its text, checked by the loader first.
    pub fn of_preset(
        source: &str,
        particles: Option<usize>,
        seed: u64,
    ) -> Result<Self, ShareError> {
        if is_embedded(source) {
            return Ok(Self::Preset {
                name: source.to_string(),
                particles,
                seed,
            });
        }
        let toml = read_preset_file(source)?;
        Ok(Self::Scene {
            toml,
            particles,
            seed,
        })
    }

    /// A link to the replay file at `path`, with the preset files it names (read from where the
    /// replay names them, as `--replay` would).
    pub fn of_replay(path: &Path) -> Result<Self, ShareError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|error| ShareError::Unreadable {
            file: file.clone(),
            what: "the replay",
            why: error.to_string(),
        })?;
        let replay = Replay::parse(&file, &text)?;
        let mut presets = BTreeMap::new();
        for (_, input, line) in &replay.inputs {
            if let Input::Preset { source, .. } = input {
                if !is_embedded(source) && !presets.contains_key(source) {
                    let toml = read_preset_file(source).map_err(|error| {
                        ShareError::File(FileError::at(&file, *line, error.to_string()))
                    })?;
                    presets.insert(source.clone(), toml);
                }
            }
        }
        Ok(Self::Replay {
            replay: text,
            presets,
        })
    }

    /// The link: `s1.` and the payload, compressed and in URL-safe base64.
    pub fn encode(&self) -> String {
        let json = serde_json::to_string(self).expect("a link's payload is plain data");
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(json.as_bytes(), 10);
        format!("s{VERSION}.{}", URL_SAFE_NO_PAD.encode(packed))
    }

    /// Reads a link, or a page address that ends with one after `#`. Every problem is one line:
    /// not a link, another version, a character base64 does not have, a cut or damaged payload.
    pub fn decode(link: &str) -> Result<Self, ShareError> {
        Self::decode_text(link).map_err(ShareError::Link)
    }

    /// `decode`, its refusal in words.
    fn decode_text(link: &str) -> Result<Self, String> {
        let link = link.trim();
        let link = link.rsplit_once('#').map_or(link, |(_, fragment)| fragment);
        let Some((version, body)) = version_and_body(link) else {
            return Err(format!(
                "not a slosh link (a link starts with `s{VERSION}.`): `{}`",
                shortened(link)
            ));
        };
        if version != VERSION.to_string() {
            return Err(format!(
                "the link is version {version}; this build opens version {VERSION}"
            ));
        }
        if let Some((at, bad)) = body
            .char_indices()
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '-' || *c == '_'))
        {
            return Err(format!(
                "the link has `{bad}` at character {}, which no link holds (damaged in copying?)",
                at + version.len() + 3
            ));
        }
        let packed = URL_SAFE_NO_PAD.decode(body).map_err(|_| {
            "the link is cut short or damaged (its text does not decode)".to_string()
        })?;
        let json = miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(&packed, MOST_UNPACKED)
            .map_err(|error| {
                if error.status == miniz_oxide::inflate::TINFLStatus::HasMoreOutput {
                    format!("the link unpacks to more than {MOST_UNPACKED} bytes")
                } else {
                    "the link is cut short or damaged (its payload does not unpack)".to_string()
                }
            })?;
        let json = String::from_utf8(json)
            .map_err(|_| "the link is damaged (its payload is not text)".to_string())?;
        serde_json::from_str(&json)
            .map_err(|error| format!("the link's payload is not a scene or a replay: {error}"))
    }

    /// Checks what the link carries with the loaders and makes it ready to run: a scene's text
    /// and a replay's preset files are registered with the preset loader. A scene the loader
    /// refuses, or a replay that does not parse, is one line naming what the link held.
    pub fn open(&self) -> Result<Opened, ShareError> {
        match self {
            Self::Preset {
                name,
                particles,
                seed,
            } => {
                Preset::load_scaled(name, *particles)?;
                Ok(Opened::Start {
                    source: name.clone(),
                    particles: *particles,
                    seed: *seed,
                })
            }
            Self::Scene {
                toml,
                particles,
                seed,
            } => {
                let source = scene_name(toml);
                preset::register_text(&source, toml)?;
                Preset::load_scaled(&source, *particles)?;
                Ok(Opened::Start {
                    source,
                    particles: *particles,
                    seed: *seed,
                })
            }
            Self::Replay { replay, presets } => {
                for (source, toml) in presets {
                    preset::register_text(source, toml)?;
                }
                Ok(Opened::Replay(Replay::parse("the link's replay", replay)?))
            }
        }
    }
}

/// A link's version and body: `s`, digits, `.` and the rest (none when `text` does not start
/// like a link; whether it is a good one is for `Shared::decode` to say).
pub fn version_and_body(text: &str) -> Option<(&str, &str)> {
    text.strip_prefix('s')
        .and_then(|rest| rest.split_once('.'))
        .filter(|(version, _)| !version.is_empty() && version.bytes().all(|b| b.is_ascii_digit()))
}

/// True for the name of an embedded preset or level (a link carries it by name).
pub fn is_embedded(source: &str) -> bool {
    preset::BUILTIN.iter().any(|(name, _)| *name == source)
        || crate::level::BUILTIN
            .iter()
            .any(|(name, _)| *name == source)
}

/// The text of the preset at `source` (a file, or a scene registered from a link), checked by
/// the loader.
fn read_preset_file(source: &str) -> Result<String, ShareError> {
    let toml = match preset::registered_text(source) {
        Some(toml) => toml,
        None => std::fs::read_to_string(source).map_err(|error| ShareError::Unreadable {
            file: source.to_string(),
            what: "the preset",
            why: error.to_string(),
        })?,
    };
    Preset::parse(source, &toml)?;
    Ok(toml)
}

/// `text` cut to its first 40 characters, for errors.
fn shortened(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_reads_back_to_what_it_carries() {
        let shared = Shared::Scene {
            toml: "name = \"x\"".into(),
            particles: Some(1234),
            seed: 7,
        };
        let link = shared.encode();
        assert!(link.starts_with("s1."), "{link}");
        assert!(link[3..]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
        assert_eq!(Shared::decode(&link), Ok(shared.clone()));
        // As a page address too.
        assert_eq!(
            Shared::decode(&format!("https://example.org/slosh/index.html#{link}")),
            Ok(shared)
        );
    }

    #[test]
    fn a_damaged_link_is_one_line_naming_what_is_wrong() {
        let link = Shared::Preset {
            name: "dam".into(),
            particles: None,
            seed: 1,
        }
        .encode();
        let cases = [
            (link[..link.len() - 3].to_string(), "cut short or damaged"),
            (link.replacen("s1.", "s2.", 1), "version 2"),
            (
                format!("{}!{}", &link[..10], &link[11..]),
                "`!` at character 11",
            ),
            ("hello".to_string(), "not a slosh link"),
            (String::new(), "not a slosh link"),
        ];
        for (damaged, says) in cases {
            let error = Shared::decode(&damaged).unwrap_err().to_string();
            assert!(error.contains(says), "{damaged}: {error}");
            assert!(!error.contains('\n'), "{error}");
        }
        // One character changed inside: the checksum catches it.
        let mut flipped = link.clone().into_bytes();
        let middle = flipped.len() / 2;
        flipped[middle] = if flipped[middle] == b'A' { b'B' } else { b'A' };
        let flipped = String::from_utf8(flipped).unwrap();
        assert!(Shared::decode(&flipped).is_err(), "{flipped}");
    }
}
