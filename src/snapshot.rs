//! Snapshot files: a whole world saved as JSON text that reopens exactly (the same checksum, and
//! the same bits after any number of further frames, at any thread count).
//!
//! The file is one JSON object, one top-level key per line:
//!
//! - `"format": "slosh-snapshot"` and `"version": 5` (older versions are refused with a one-line
//!   error: version 1 came before the scene types carried their own serde, version 2 before the
//!   particles carried their temperature, version 3 before they carried their latent heat);
//! - `"preset"`: the text of the preset file the world was built from (`Preset::to_toml`), which
//!   gives the walls, the emitters and the air's settings;
//! - `"checksum"`: `World::checksum` of the saved world, as 16 hex digits;
//! - `"world"`: the `WorldState`, one field per line, one particle per line (`[id, material, x,
//!   y, vx, vy, temperature, latent, tag]`), every float as the integer of its IEEE bits; in scenes
//!   with rigid bodies, `"bodies"` holds rapier's world as rapier serializes it (its floats as
//!   the shortest JSON numbers that read back to the same bits).
//!
//! Loading checks the format and version, parses the preset, rebuilds the world with
//! `World::from_state` and compares the checksum. Every error is one line, `FILE:LINE: message`
//! where there is a line, never a panic.

use crate::preset::{one_line, Preset, PresetError};
use crate::sim::scene::ranges::Step;
use crate::sim::world::WorldState;
use crate::sim::{SimParams, World};
use crate::FileError;
use serde::{Deserialize, Serialize};
use std::io::{self, Write};
use std::path::Path;

/// The `"format"` of every snapshot file.
pub const FORMAT: &str = "slosh-snapshot";

/// The `"version"` this build writes and reads.
pub const VERSION: u64 = 5;

/// The file as written.
#[derive(Serialize)]
struct Written<'a> {
    format: &'a str,
    version: u64,
    preset: &'a str,
    checksum: &'a str,
    world: &'a WorldState,
}

/// The file as read.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Read {
    #[allow(dead_code)]
    format: String,
    #[allow(dead_code)]
    version: u64,
    preset: String,
    checksum: String,
    world: WorldState,
}

/// The two fields read before the rest, to tell a snapshot of another version from a broken one.
#[derive(Deserialize)]
struct Header {
    format: Option<serde_json::Value>,
    version: Option<serde_json::Value>,
}

/// Saves `world`, built from `preset` (with the person's edits, if any: the world's own
/// parameters, materials and obstacles are saved either way), to `path`. Refused when the preset
/// does not give the world's walls, emitters and air, so that the file would not reopen.
pub fn save(path: &Path, preset: &Preset, world: &World) -> Result<(), FileError> {
    let file = &path.display().to_string();
    let fail = |message: String| FileError::of(file, message);
    let state = world.state();
    let text = preset.to_toml();
    let reread = Preset::parse("the preset", &text)
        .map_err(|error| fail(format!("the preset does not read back: {error}")))?;
    let scene = at_resolution(reread, &state.params)
        .map_err(|error| fail(format!("the preset does not read back: {error}")))?
        .scene;
    let air = world.air().map(|air| air.settings());
    let fits = scene.domain.walls() == world.domain().walls()
        && scene.emitters == world.emitters()
        && scene.air.as_ref() == air;
    if !fits {
        return Err(fail(
            "the preset does not give this world's walls, emitters and air, so the snapshot \
             could not reopen"
                .into(),
        ));
    }
    let checksum = format!("{:016x}", world.checksum());
    let written = Written {
        format: FORMAT,
        version: VERSION,
        preset: &text,
        checksum: &checksum,
        world: &state,
    };
    let mut bytes = Vec::new();
    let mut serializer = serde_json::Serializer::with_formatter(&mut bytes, Layout::default());
    written
        .serialize(&mut serializer)
        .map_err(|error| fail(format!("cannot write the snapshot: {error}")))?;
    bytes.push(b'\n');
    // Written beside it first, so that a failed write leaves an older snapshot whole.
    let mut partial = path.as_os_str().to_owned();
    partial.push(".partial");
    let partial = Path::new(&partial);
    std::fs::write(partial, &bytes)
        .and_then(|()| std::fs::rename(partial, path))
        .map_err(|error| {
            let _ = std::fs::remove_file(partial);
            fail(format!("cannot write the file: {error}"))
        })
}

/// Loads a snapshot saved by `save`: the preset (at the resolution the world ran at) and the
/// world, which continues exactly as the saved one would have.
pub fn load(path: &Path) -> Result<(Preset, World), FileError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|error| FileError::of(&file, format!("cannot read the file: {error}")))?;
    let at = |path: &[Step]| line_of(&text, path);
    let fail = |line: Option<usize>, message: String| FileError {
        file: file.clone(),
        line,
        message,
    };
    let start = text.len() - text.trim_start().len();
    match text[start..].chars().next() {
        None => return Err(fail(None, "the file is empty".into())),
        Some('{') => {}
        Some(_) => {
            let line = text[..start].matches('\n').count() + 1;
            return Err(fail(
                Some(line),
                "not a slosh snapshot (not a JSON object)".into(),
            ));
        }
    }
    let header: Header = serde_json::from_str(&text).map_err(|error| json_error(&file, &error))?;
    let format_line = at(&[Step::Key("format")]);
    match header.format {
        Some(serde_json::Value::String(format)) if format == FORMAT => {}
        Some(other) => {
            return Err(fail(
                format_line,
                format!("not a slosh snapshot: \"format\" is {other}, not \"{FORMAT}\""),
            ))
        }
        None => {
            return Err(fail(
                None,
                format!("not a slosh snapshot: no \"format\": \"{FORMAT}\""),
            ))
        }
    }
    let version_line = at(&[Step::Key("version")]);
    match header.version {
        Some(version) if version.as_u64() == Some(VERSION) => {}
        Some(version) => {
            return Err(fail(
                version_line,
                format!("snapshot format version {version}, this build reads {VERSION}"),
            ))
        }
        None => return Err(fail(None, "no \"version\"".into())),
    }
    let read: Read = serde_json::from_str(&text).map_err(|error| json_error(&file, &error))?;
    let preset_line = at(&[Step::Key("preset")]);
    let preset = Preset::parse(&file, &read.preset)
        .map_err(|error| fail(preset_line, preset_error(&error)))?;
    let preset = at_resolution(preset, &read.world.params).map_err(|error| {
        fail(
            preset_line,
            format!("the preset at the world's resolution: {}", one_line(&error)),
        )
    })?;
    let checksum_line = at(&[Step::Key("checksum")]);
    let saved = parse_checksum(&read.checksum).ok_or_else(|| {
        fail(
            checksum_line,
            format!(
                "checksum must be 16 hex digits, got \"{}\"",
                one_line(&read.checksum)
            ),
        )
    })?;
    let world = World::restore(preset.scene.clone(), read.world).map_err(|error| {
        let mut path = vec![Step::Key("world")];
        path.extend(&error.path);
        fail(at(&path), format!("world.{}", one_line(&error.to_string())))
    })?;
    if world.checksum() != saved {
        return Err(fail(
            None,
            "the state does not give the checksum it was saved with (edited by hand, or from \
             another build)"
                .into(),
        ));
    }
    Ok((preset, world))
}

/// `preset` at the resolution of a world that runs with `params`: as it is, or rescaled the way
/// `--particles` rescaled it (widened to `max_particles` for a preset with `base_particles`,
/// else at the world's particle radius).
fn at_resolution(preset: Preset, params: &SimParams) -> Result<Preset, String> {
    let own = &preset.scene.params;
    if preset.base_particles.is_some() {
        if params.max_particles != own.max_particles {
            let particles = params.max_particles;
            return preset.with_particles(particles).map_err(|e| e.to_string());
        }
    } else if params.particle_radius.to_bits() != own.particle_radius.to_bits() {
        return preset
            .at_radius(params.particle_radius)
            .map_err(|error| error.to_string());
    }
    Ok(preset)
}

/// 16 hex digits, as `save` writes the checksum.
fn parse_checksum(text: &str) -> Option<u64> {
    let hex = text.len() == 16 && text.bytes().all(|b| b.is_ascii_hexdigit());
    hex.then(|| u64::from_str_radix(text, 16).ok()).flatten()
}

/// A preset error inside a snapshot: where in the preset's text, and what.
fn preset_error(error: &PresetError) -> String {
    let mut message = String::from("in the preset");
    if let Some(line) = error.line {
        message += &format!(" (its line {line})");
    }
    if !error.field.is_empty() {
        message += &format!(": {}", one_line(&error.field));
    }
    message + ": " + &one_line(&error.message)
}

/// A JSON error as `FILE:LINE: message (column C)`.
fn json_error(file: &str, error: &serde_json::Error) -> FileError {
    let (line, column) = (error.line(), error.column());
    let text = error.to_string();
    let location = format!(" at line {line} column {column}");
    let message = text.strip_suffix(&location).unwrap_or(&text);
    let message = one_line(message);
    if line == 0 {
        FileError::of(file, message)
    } else {
        FileError::at(file, line, format!("{message} (column {column})"))
    }
}

/// The 1-based line where the value at `path` (from the root) starts in `text`, a JSON text
/// already known to parse; `None` where the path is not there.
fn line_of(text: &str, path: &[Step]) -> Option<usize> {
    let mut scanner = Scanner {
        bytes: text.as_bytes(),
        at: 0,
    };
    scanner.skip_space();
    for step in path {
        match *step {
            Step::Key(key) => {
                scanner.expect(b'{')?;
                loop {
                    scanner.skip_space();
                    let found = scanner.string()?;
                    scanner.skip_space();
                    scanner.expect(b':')?;
                    scanner.skip_space();
                    if found == key.as_bytes() {
                        break;
                    }
                    scanner.skip_value()?;
                    scanner.skip_space();
                    scanner.expect(b',')?;
                }
            }
            Step::Index(index) => {
                scanner.expect(b'[')?;
                scanner.skip_space();
                for _ in 0..index {
                    scanner.skip_value()?;
                    scanner.skip_space();
                    scanner.expect(b',')?;
                    scanner.skip_space();
                }
                if scanner.peek()? == b']' {
                    return None;
                }
            }
        }
    }
    let before = &scanner.bytes[..scanner.at];
    Some(before.iter().filter(|&&b| b == b'\n').count() + 1)
}

/// A cursor over JSON text, just enough to walk to a value.
struct Scanner<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Scanner<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.at += 1)
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// A string's raw contents (escapes left as they are).
    fn string(&mut self) -> Option<&'a [u8]> {
        self.expect(b'"')?;
        let start = self.at;
        loop {
            match self.peek()? {
                b'"' => break,
                b'\\' => self.at += 2,
                _ => self.at += 1,
            }
        }
        let contents = self.bytes.get(start..self.at)?;
        self.at += 1;
        Some(contents)
    }

    fn skip_value(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => self.string().map(|_| ()),
            open @ (b'{' | b'[') => {
                let close = if open == b'{' { b'}' } else { b']' };
                self.at += 1;
                self.skip_space();
                if self.peek()? == close {
                    self.at += 1;
                    return Some(());
                }
                loop {
                    if open == b'{' {
                        self.string()?;
                        self.skip_space();
                        self.expect(b':')?;
                        self.skip_space();
                    }
                    self.skip_value()?;
                    self.skip_space();
                    match self.peek()? {
                        b',' => {
                            self.at += 1;
                            self.skip_space();
                        }
                        byte if byte == close => {
                            self.at += 1;
                            return Some(());
                        }
                        _ => return None,
                    }
                }
            }
            _ => {
                while !matches!(
                    self.peek()?,
                    b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'
                ) {
                    self.at += 1;
                }
                Some(())
            }
        }
    }
}

/// The layout of a snapshot file: objects that are not inside an array have one key per line,
/// arrays of arrays or objects that are not inside an array have one element per line, and
/// everything else is written compact (a particle, a material, an array of numbers: one line).
#[derive(Default)]
struct Layout {
    open: Vec<Container>,
}

/// An array or object being written.
struct Container {
    object: bool,
    /// One element per line; for an array, decided by its first element.
    spread: Option<bool>,
    /// An array element is due: whether it is the first.
    due: Option<bool>,
    /// Something was written in it.
    filled: bool,
}

impl Layout {
    /// A newline and the indent of the current depth.
    fn newline<W: ?Sized + Write>(&self, writer: &mut W, depth: usize) -> io::Result<()> {
        writer.write_all(b"\n")?;
        for _ in 0..depth {
            writer.write_all(b"  ")?;
        }
        Ok(())
    }

    /// Before any value: the separator and line break of an array element.
    fn value<W: ?Sized + Write>(&mut self, writer: &mut W, container: bool) -> io::Result<()> {
        let depth = self.open.len();
        let spreadable = depth < 2 || self.open[depth - 2].object;
        let Some(top) = self.open.last_mut() else {
            return Ok(());
        };
        let Some(first) = top.due.take() else {
            return Ok(());
        };
        let spread = *top.spread.get_or_insert(container && spreadable);
        top.filled = true;
        if !first {
            writer.write_all(b",")?;
        }
        if spread {
            self.newline(writer, depth)?;
        }
        Ok(())
    }

    /// Opens an array or object.
    fn open<W: ?Sized + Write>(&mut self, writer: &mut W, object: bool) -> io::Result<()> {
        self.value(writer, true)?;
        let spread = object && self.open.last().is_none_or(|parent| parent.object);
        self.open.push(Container {
            object,
            spread: object.then_some(spread),
            due: None,
            filled: false,
        });
        writer.write_all(if object { b"{" } else { b"[" })
    }

    /// Closes the innermost array or object.
    fn close<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        let container = self.open.pop().expect("closes only what it opened");
        if container.spread == Some(true) && container.filled {
            self.newline(writer, self.open.len())?;
        }
        writer.write_all(if container.object { b"}" } else { b"]" })
    }
}

/// A scalar writer that first places the value (`Layout::value`), then writes it compact.
macro_rules! scalars {
    ($($name:ident($type:ty)),* $(,)?) => {
        $(
            fn $name<W: ?Sized + Write>(&mut self, writer: &mut W, value: $type) -> io::Result<()> {
                self.value(writer, false)?;
                serde_json::ser::CompactFormatter.$name(writer, value)
            }
        )*
    };
}

impl serde_json::ser::Formatter for Layout {
    scalars!(
        write_bool(bool),
        write_i8(i8),
        write_i16(i16),
        write_i32(i32),
        write_i64(i64),
        write_i128(i128),
        write_u8(u8),
        write_u16(u16),
        write_u32(u32),
        write_u64(u64),
        write_u128(u128),
        write_f32(f32),
        write_f64(f64),
        write_number_str(&str),
        write_byte_array(&[u8]),
        write_raw_fragment(&str),
    );

    fn write_null<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.value(writer, false)?;
        writer.write_all(b"null")
    }

    fn begin_string<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.value(writer, false)?;
        writer.write_all(b"\"")
    }

    fn begin_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.open(writer, false)
    }

    fn end_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer)
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, _: &mut W, first: bool) -> io::Result<()> {
        if let Some(top) = self.open.last_mut() {
            top.due = Some(first);
        }
        Ok(())
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.open(writer, true)
    }

    fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer)
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if !first {
            writer.write_all(b",")?;
        }
        let depth = self.open.len();
        if let Some(top) = self.open.last_mut() {
            top.filled = true;
            if top.spread == Some(true) {
                self.newline(writer, depth)?;
            }
        }
        Ok(())
    }

    fn end_object_key<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        Ok(())
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        let spread = self.open.last().is_some_and(|top| top.spread == Some(true));
        writer.write_all(if spread { b": " } else { b":" })
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_find_their_lines() {
        let text = "{\n  \"a\": 1,\n  \"b\": {\n    \"c\": [[1, 2],\n      [3, \"]\"],\n      [5]]\n  }\n}";
        assert_eq!(line_of(text, &[]), Some(1));
        assert_eq!(line_of(text, &[Step::Key("a")]), Some(2));
        assert_eq!(line_of(text, &[Step::Key("b"), Step::Key("c")]), Some(4));
        let c = |k| [Step::Key("b"), Step::Key("c"), Step::Index(k)];
        assert_eq!(line_of(text, &c(0)), Some(4));
        assert_eq!(line_of(text, &c(1)), Some(5));
        assert_eq!(line_of(text, &c(2)), Some(6));
        assert_eq!(line_of(text, &c(3)), None);
        assert_eq!(line_of(text, &[Step::Key("z")]), None);
    }

    #[test]
    fn layout_spreads_objects_and_lists_of_lists_only() {
        let value = serde_json::json!({
            "a": [1, 2],
            "b": {"rows": [[1, 2], [3]], "items": [{"x": 1}, {"x": [2]}], "empty": []},
            "s": "x",
        });
        let mut bytes = Vec::new();
        let mut serializer = serde_json::Serializer::with_formatter(&mut bytes, Layout::default());
        value.serialize(&mut serializer).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        let expected = "{\n  \"a\": [1,2],\n  \"b\": {\n    \"empty\": [],\n    \"items\": [\n      \
                        {\"x\":1},\n      {\"x\":[2]}\n    ],\n    \"rows\": [\n      [1,2],\n      \
                        [3]\n    ]\n  },\n  \"s\": \"x\"\n}";
        assert_eq!(text, expected);
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, value);
    }

    #[test]
    fn checksums_are_sixteen_hex_digits() {
        assert_eq!(parse_checksum("00000000000000ff"), Some(255));
        assert_eq!(parse_checksum("ff"), None);
        assert_eq!(parse_checksum("+000000000000000"), None);
        assert_eq!(parse_checksum("000000000000000g"), None);
    }
}
