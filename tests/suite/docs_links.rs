//! Every relative link in README.md and docs/*.md leads somewhere: the file or folder it names
//! exists beside the document that links to it, and an `#anchor` into a markdown file (or into
//! the document itself) is the slug of one of that file's headings, as GitHub makes them. Links
//! inside code (fenced or indented blocks, `inline code`) are not links and are not checked.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The repository's root, where README.md is.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every markdown file in docs/, in a fixed order.
fn documents() -> Vec<PathBuf> {
    let mut documents = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ beside Cargo.toml")
        .map(|entry| entry.expect("an entry of docs/").path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "md"))
        .collect();
    docs.sort();
    documents.extend(docs);
    documents
}

/// The path as the failure messages write it: relative to the repository's root.
fn shown(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The document's lines with code blocks blanked: fenced blocks (``` or ~~~) and indented
/// blocks (four spaces or a tab, after a blank line or another such line). Line numbers stay.
fn without_code_blocks(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut fenced = false;
    let mut indented = false;
    let mut previous_blank = true;
    for line in text.lines() {
        let trimmed = line.trim_start();
        let fence = trimmed.starts_with("```") || trimmed.starts_with("~~~");
        let blank = trimmed.is_empty();
        let code = if fence {
            fenced = !fenced;
            true
        } else if fenced {
            true
        } else {
            let deep = line.starts_with("    ") || line.starts_with('\t');
            indented = deep && (previous_blank || indented) && !blank;
            indented
        };
        previous_blank = blank;
        lines.push(if code {
            String::new()
        } else {
            line.to_string()
        });
    }
    lines
}

/// The text with every inline code span blanked (its characters turned into spaces, newlines
/// kept). A span ends at the next run of as many backticks, within its paragraph; a backtick
/// without one is an ordinary character.
fn without_code_spans(text: &str) -> String {
    let characters: Vec<char> = text.chars().collect();
    let mut out = characters.clone();
    let mut i = 0;
    while i < characters.len() {
        if characters[i] != '`' {
            i += 1;
            continue;
        }
        let run = characters[i..].iter().take_while(|&&c| c == '`').count();
        let mut end = None;
        let mut j = i + run;
        while j < characters.len() {
            if characters[j] == '\n' && characters.get(j + 1) == Some(&'\n') {
                break;
            }
            if characters[j] == '`' {
                let closing = characters[j..].iter().take_while(|&&c| c == '`').count();
                if closing == run {
                    end = Some(j + closing);
                    break;
                }
                j += closing;
            } else {
                j += 1;
            }
        }
        match end {
            Some(end) => {
                for c in &mut out[i..end] {
                    if *c != '\n' {
                        *c = ' ';
                    }
                }
                i = end;
            }
            None => i += run,
        }
    }
    out.into_iter().collect()
}

/// A heading's anchor as GitHub makes it: lower case, every character but letters, digits,
/// spaces, '-' and '_' dropped, spaces turned into '-'.
fn slug(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|&c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a markdown document's headings (`#` to `######`, outside code blocks); a
/// heading whose slug came before gets "-1", "-2", ... as on GitHub.
fn anchors(text: &str) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut anchors = Vec::new();
    for line in without_code_blocks(text) {
        let trimmed = line.trim_start();
        if line.len() - trimmed.len() > 3 {
            continue;
        }
        let level = trimmed.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&level) {
            continue;
        }
        let rest = &trimmed[level..];
        if !(rest.is_empty() || rest.starts_with(' ')) {
            continue;
        }
        let base = slug(rest.trim().trim_end_matches('#').trim());
        let count = seen.entry(base.clone()).or_insert(0);
        anchors.push(if *count == 0 {
            base
        } else {
            format!("{base}-{count}")
        });
        *count += 1;
    }
    anchors
}

/// Every link target `[text](target)` (images too) outside code, with the line it is on.
fn links(text: &str) -> Vec<(usize, String)> {
    let prose = without_code_spans(&without_code_blocks(text).join("\n"));
    let mut links = Vec::new();
    let mut from = 0;
    while let Some(found) = prose[from..].find("](") {
        let start = from + found + 2;
        from = start;
        // The target runs to the parenthesis that closes the one it opened.
        let mut depth = 1;
        let mut end = None;
        for (offset, c) in prose[start..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(start + offset);
                        break;
                    }
                }
                '\n' => break,
                _ => {}
            }
        }
        let Some(end) = end else { continue };
        let inside = prose[start..end].trim();
        // `<target>` or `target "title"`.
        let target = match inside.strip_prefix('<') {
            Some(bracketed) => bracketed.split('>').next().unwrap_or(""),
            None => inside.split_whitespace().next().unwrap_or(""),
        };
        let line = prose[..start].matches('\n').count() + 1;
        links.push((line, target.to_string()));
    }
    links
}

/// Why a link from `document` to `target` leads nowhere, or `None` when it leads somewhere.
fn broken(
    document: &Path,
    target: &str,
    headings: &mut HashMap<PathBuf, Vec<String>>,
) -> Option<String> {
    let lower = target.to_lowercase();
    if lower.starts_with("http://") || lower.starts_with("https://") || lower.starts_with("mailto:")
    {
        return None;
    }
    if target.is_empty() {
        return Some("the link has no target".to_string());
    }
    let (path, anchor) = match target.split_once('#') {
        Some((path, anchor)) => (path, Some(anchor)),
        None => (target, None),
    };
    let file = if path.is_empty() {
        document.to_path_buf()
    } else if let Some(from_root) = path.strip_prefix('/') {
        root().join(from_root)
    } else {
        document
            .parent()
            .expect("a document is in a folder")
            .join(path.replace("%20", " "))
    };
    if !file.exists() {
        return Some(format!("no file or folder {}", shown(&file)));
    }
    let anchor = anchor?;
    if file.extension().is_none_or(|extension| extension != "md") {
        return None;
    }
    let anchors = headings.entry(file.clone()).or_insert_with(|| {
        anchors(&std::fs::read_to_string(&file).expect("a markdown file that exists reads"))
    });
    if anchors.iter().any(|known| known == anchor) {
        None
    } else {
        Some(format!(
            "no heading of {} has the anchor #{anchor} (its anchors: {})",
            shown(&file),
            anchors.join(", ")
        ))
    }
}

/// Every relative link of README.md and docs/*.md names a file or folder that exists, and its
/// anchor, if any, a heading of the markdown file it points into. A section renamed or moved
/// without its links fails here, naming the document, the line, the link and why.
#[test]
fn every_relative_link_in_the_documentation_resolves() {
    let mut headings = HashMap::new();
    let mut problems = Vec::new();
    let mut checked = 0;
    for document in documents() {
        let text = std::fs::read_to_string(&document).expect("a document reads");
        for (line, target) in links(&text) {
            checked += 1;
            if let Some(why) = broken(&document, &target, &mut headings) {
                problems.push(format!("{}:{line}: ({target}): {why}", shown(&document)));
            }
        }
    }
    assert!(
        checked > 20,
        "only {checked} links found in README.md and docs/: is the parser broken?"
    );
    assert!(
        problems.is_empty(),
        "{} broken links in the documentation:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The anchors are GitHub's: punctuation and code marks dropped, spaces to '-', and a repeated
/// heading numbered; links in code are no links.
#[test]
fn anchors_and_links_are_read_as_github_reads_them() {
    assert_eq!(
        slug("Determinism: the same bits on every machine"),
        "determinism-the-same-bits-on-every-machine"
    );
    assert_eq!(slug("Air (`src/sim/air/`)"), "air-srcsimair");
    assert_eq!(slug("The `[air]` table"), "the-air-table");
    assert_eq!(
        anchors("# A\n\n## B b\n\n    # not a heading\n\n## B b\n"),
        ["a", "b-b", "b-b-1"]
    );
    let text = "[one](a.md) `[two](b.md)`\n\n    [three](c.md)\n\n```\n[four](d.md)\n```\n\
                ![five](e.png \"title\")\n";
    assert_eq!(
        links(text),
        [(1, "a.md".to_string()), (8, "e.png".to_string())]
    );
}
