//! What a preset that failed to load reports: file, line, field and message, on one line.

use std::fmt;

/// A preset that failed to load, with where and what.
#[derive(Clone, Debug, PartialEq)]
pub struct PresetError {
    /// File name or path the text came from.
    pub file: String,
    /// 1-based line, where known.
    pub line: Option<usize>,
    /// Dotted path of the offending field (`emitters[1].speed`), where known.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

/// One line: control characters (line breaks in a quoted name or key, say) are escaped.
impl fmt::Display for PresetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", Escaped(&self.file))?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if !self.field.is_empty() {
            write!(f, ": {}", Escaped(&self.field))?;
        }
        write!(f, ": {}", Escaped(&self.message))
    }
}

/// Text shown with its control characters escaped.
pub(crate) struct Escaped<'a>(&'a str);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_default())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for PresetError {}

/// `text` with every control character (line breaks included) escaped, so that it prints as
/// one line.
pub fn one_line(text: &str) -> String {
    Escaped(text).to_string()
}
