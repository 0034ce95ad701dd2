//! Why a level cannot be played in a world, or why its rules refuse an input.

use std::fmt;

/// Why `Attempt::new` cannot judge a level in a world, or why `Attempt::admits` refuses an
/// input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LevelError {
    /// A goal names a material the scene does not have.
    NoMaterial(String),
    /// A goal names a body the scene does not have.
    NoBody(String),
    /// The input's tool (by its name) is not one the level allows.
    NotATool(&'static str),
    /// The tool's budget (by the tool's name) is spent.
    BudgetSpent(&'static str),
}

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoMaterial(name) => write!(f, "no material `{name}` in the scene"),
            Self::NoBody(name) => write!(f, "no body `{name}` in the scene"),
            Self::NotATool(tool) => write!(f, "{tool} is not a tool of this level"),
            Self::BudgetSpent(tool) => write!(f, "the level's {tool} budget is spent"),
        }
    }
}

impl std::error::Error for LevelError {}

/// The `slosh` program's errors are its one-line messages.
impl From<LevelError> for String {
    fn from(error: LevelError) -> Self {
        error.to_string()
    }
}
