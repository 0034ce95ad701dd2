//! Where in the text a problem lies: the line of a field named by its path, and the field a
//! parse error's position falls in.

use super::error::PresetError;
use crate::sim::scene::ranges::Step;
use std::ops::Range;

/// Line of the deepest existing value along `path` (the table itself when a field is missing).
pub(super) fn line_of_field(text: &str, path: &[Step]) -> Option<usize> {
    let document = toml::de::DeTable::parse(text).ok()?;
    let mut span = document.span();
    let mut table = Some(document.get_ref());
    let mut array: Option<&toml::de::DeArray> = None;
    for step in path {
        let value = match (step, table, array) {
            (Step::Key(key), Some(current), _) => current.get(*key),
            (Step::Index(index), _, Some(current)) => current.get(*index),
            _ => None,
        };
        let Some(value) = value else { break };
        span = value.span();
        table = value.get_ref().as_table();
        array = value.get_ref().as_array();
    }
    Some(line_at(text, span.start))
}

/// Dotted path of the field a parse error at `target` is about.
///
/// In valid TOML (a type, range or unknown-field error) it is the innermost value or key whose
/// span holds `target`; table spans cover only their headers, so every value is visited, not
/// just those whose parent holds `target`. In text that is not valid TOML the recovered values
/// are unreliable, so there it is the table whose header comes last before the error, then the
/// key written at the start of the error's line (none for a broken header).
fn field_at(text: &str, target: Range<usize>) -> String {
    let (document, syntax_errors) = toml::de::DeTable::parse_recoverable(text);
    let mut search = FieldSearch {
        target: target.clone(),
        deepest: None,
        last_table: None,
    };
    search.table(document.get_ref(), &mut String::new(), 0);
    if syntax_errors.is_empty() {
        return search.deepest.map(|(_, path)| path).unwrap_or_default();
    }
    let start = target.start.min(text.len());
    let line_start = text[..start].rfind('\n').map_or(0, |newline| newline + 1);
    let line = text[line_start..].lines().next().unwrap_or("");
    let Some(key) = key_at_line_start(line) else {
        return String::new();
    };
    match search.last_table {
        Some((_, table)) if !table.is_empty() => format!("{table}.{key}"),
        _ => key.to_string(),
    }
}

/// The bare key a `key = value` line starts with, if it does.
fn key_at_line_start(line: &str) -> Option<&str> {
    let line = line.trim_start();
    let end = line
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
        .unwrap_or(line.len());
    let (key, rest) = line.split_at(end);
    (!key.is_empty() && rest.trim_start().starts_with('=')).then_some(key)
}

/// State of `field_at`'s walk over the document.
struct FieldSearch {
    target: Range<usize>,
    /// (depth, path) of the deepest value or key whose span holds the target.
    deepest: Option<(usize, String)>,
    /// (header start, path) of the table whose header starts last before the target.
    last_table: Option<(usize, String)>,
}

impl FieldSearch {
    fn holds(&self, span: &Range<usize>) -> bool {
        span.start <= self.target.start && self.target.end <= span.end.max(span.start + 1)
    }

    fn found(&mut self, depth: usize, path: &str) {
        if self.deepest.as_ref().is_none_or(|(best, _)| depth > *best) {
            self.deepest = Some((depth, path.to_string()));
        }
    }

    fn table(&mut self, table: &toml::de::DeTable, path: &mut String, depth: usize) {
        for (key, value) in table.iter() {
            let length = path.len();
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(key.get_ref());
            if self.holds(&key.span()) {
                self.found(depth + 1, path);
            }
            self.value(value, path, depth + 1);
            path.truncate(length);
        }
    }

    fn value(&mut self, value: &toml::Spanned<toml::de::DeValue>, path: &mut String, depth: usize) {
        let span = value.span();
        if self.holds(&span) {
            self.found(depth, path);
        }
        if let Some(table) = value.get_ref().as_table() {
            let header = span.start;
            if header <= self.target.start
                && self
                    .last_table
                    .as_ref()
                    .is_none_or(|(best, _)| header >= *best)
            {
                self.last_table = Some((header, path.clone()));
            }
            self.table(table, path, depth);
        } else if let Some(array) = value.get_ref().as_array() {
            for (index, item) in array.iter().enumerate() {
                let length = path.len();
                path.push_str(&format!("[{index}]"));
                self.value(item, path, depth + 1);
                path.truncate(length);
            }
        }
    }
}

/// `message` on one line, its lines joined by "; ".
fn join_lines(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// The text between backquotes right after `prefix` in `message` (`missing field `mass``).
fn quoted_after<'a>(message: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = message.strip_prefix(prefix)?.strip_prefix('`')?;
    rest.split_once('`').map(|(quoted, _)| quoted)
}

/// 1-based line of byte `offset` in `text`.
fn line_at(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// The error of text that serde could not read as a preset (not TOML, a wrong type, a missing
/// or unknown field), located in `text` as well as the parser allows.
pub(super) fn read_error(file: &str, text: &str, error: &toml::de::Error) -> PresetError {
    let span = error.span();
    let message = join_lines(error.message());
    let mut field = span
        .as_ref()
        .map(|span| field_at(text, span.clone()))
        .unwrap_or_default();
    let mut line = span.as_ref().map(|span| line_at(text, span.start));
    if let Some(missing) = quoted_after(&message, "missing field ") {
        // The span is the table's header, or empty at the start for a top-level field (which
        // has no line then).
        if span.is_some_and(|span| span.is_empty()) {
            field.clear();
            line = None;
        }
        if !field.is_empty() {
            field.push('.');
        }
        field.push_str(missing);
    } else if quoted_after(&message, "unknown field ").is_some() {
        // The key's span also lies in its first array item: name the key itself.
        while field.ends_with(']') {
            field.truncate(field.rfind('[').unwrap_or(0));
        }
    }
    PresetError {
        file: file.to_string(),
        line,
        field,
        message,
    }
}
