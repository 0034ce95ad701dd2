//! Why a file cannot be read, written or used: a replay, a snapshot, a WAV.

use std::fmt;

/// Why a file (a replay, a snapshot, a WAV) cannot be read, written or used: the file, the
/// line where the problem is on one, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    /// The file (its path, or the name its text was read under).
    pub file: String,
    /// The line (from 1), where the problem is on one.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl FileError {
    /// A problem on `line` of `file`.
    pub(crate) fn at(file: &str, line: usize, message: impl Into<String>) -> Self {
        Self {
            file: file.to_string(),
            line: Some(line),
            message: message.into(),
        }
    }

    /// A problem with `file` as a whole.
    pub(crate) fn of(file: &str, message: impl Into<String>) -> Self {
        Self {
            file: file.to_string(),
            line: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for FileError {}

/// The `slosh` program's errors are its one-line messages.
impl From<FileError> for String {
    fn from(error: FileError) -> Self {
        error.to_string()
    }
}
