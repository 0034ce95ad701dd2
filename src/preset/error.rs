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

/// Why a preset does not take particles of a radius (`Preset::at_radius`).
#[derive(Clone, Debug, PartialEq)]
pub enum ResolutionError {
    /// The scene refuses the rescale (`Scene::at_particle_radius`), and why.
    Rescale {
        /// The radius asked for.
        radius: f32,
        /// The scene's reason.
        why: String,
    },
    /// Two solids would leave too narrow a gap for particles of this size.
    Gap {
        /// The radius asked for.
        radius: f32,
        /// The obstacle that leaves it.
        obstacle: usize,
        /// What is too close to what.
        problem: String,
    },
    /// The scene would hold more particles than `MAX_PARTICLES`.
    TooMany {
        /// The radius asked for.
        radius: f32,
        /// About how many particles it would make.
        count: usize,
    },
}

impl fmt::Display for ResolutionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Rescale { radius, why } => write!(f, "particles of radius {radius}: {why}"),
            Self::Gap {
                radius,
                obstacle,
                problem,
            } => write!(
                f,
                "particles of radius {radius} do not fit between the solids: obstacles[{obstacle}] {problem}"
            ),
            Self::TooMany { radius, count } => write!(
                f,
                "particles of radius {radius} make about {count} particles, more than {}",
                crate::sim::scene::ranges::MAX_PARTICLES
            ),
        }
    }
}

impl std::error::Error for ResolutionError {}
