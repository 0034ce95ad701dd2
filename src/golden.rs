//! Golden checksums: runs whose final checksums are written down (`tests/golden/checksums.tsv`),
//! so that any machine, any thread count, either implementation of the lanes and the web page can
//! show that it computes the same bits.
//!
//! The file is tab-separated text. Lines that are blank or start with `#` are comments; every
//! other line is one case with six columns:
//!
//! | column | what |
//! |---|---|
//! | `preset` | an embedded preset's name |
//! | `particles` | `own`, or the count it is rescaled to (`--particles`) |
//! | `frames` | frames run |
//! | `stir` | `none`, or `random` (`--stir random`) |
//! | `seed` | `--seed` |
//! | `checksum` | the headless report's `checksum` after the run, 16 hexadecimal digits |
//!
//! A case is exactly `slosh --headless --preset P --particles N --frames F --stir S --seed X`,
//! and its checksum is that report's. `slosh --golden FILE` checks every case of a file (with
//! `--cheaper-half`, the cheaper half of them, for slow machines and emulators), and
//! `slosh --golden FILE --update` writes the checksums this build computes into it (for a change
//! that alters behaviour on purpose; the commit says why).

use crate::headless::{self, HeadlessOptions, StirMode};
use crate::preset::one_line;

/// The golden checksums of this build's tests, embedded (the web page checks them).
pub const CHECKSUMS: &str = include_str!("../tests/golden/checksums.tsv");

/// The file the embedded checksums come from, for messages.
pub const CHECKSUMS_FILE: &str = "tests/golden/checksums.tsv";

/// One golden case: a headless run and the checksum it must end with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// Embedded preset's name.
    pub preset: String,
    /// Particle count it is rescaled to (`None`: its own).
    pub particles: Option<usize>,
    /// Frames run.
    pub frames: u64,
    /// Stirring.
    pub stir: StirMode,
    /// Seed of all randomness.
    pub seed: u64,
    /// The checksum the run must end with.
    pub checksum: u64,
    /// The case's line in its file (from 1).
    pub line: usize,
}

impl Case {
    /// The headless run this case is.
    pub fn options(&self) -> HeadlessOptions {
        HeadlessOptions {
            preset: self.preset.clone(),
            frames: self.frames,
            particles: self.particles,
            seed: self.seed,
            stir: self.stir,
            ..HeadlessOptions::default()
        }
    }

    /// Runs the case on the current thread pool and returns the checksum it ends with.
    pub fn run(&self) -> Result<u64, String> {
        headless::run_here(&self.options()).map(|report| report.checksum)
    }

    /// The columns before the checksum, tab-separated, as the file writes them.
    pub fn key(&self) -> String {
        let particles = self.particles.map_or("own".to_string(), |n| n.to_string());
        let stir = match self.stir {
            StirMode::None => "none",
            StirMode::Random => "random",
        };
        format!(
            "{}\t{particles}\t{}\t{stir}\t{}",
            self.preset, self.frames, self.seed
        )
    }

    /// Roughly how much work the case is: particles and air cells, times frames (to pick the
    /// cheaper cases where time is short). A preset that does not load costs nothing here; the
    /// run says what is wrong with it.
    pub fn cost(&self) -> u64 {
        let Ok(preset) = crate::preset::Preset::load_scaled(&self.preset, self.particles) else {
            return 0;
        };
        let cells = preset
            .scene
            .air
            .as_ref()
            .map_or(0, |air| air.columns * air.columns);
        (preset.particles() + cells) as u64 * self.frames
    }
}

/// The cheaper half of `cases` (rounded up) by [`Case::cost`], in their order.
pub fn cheaper_half(cases: &[Case]) -> Vec<Case> {
    let mut by_cost: Vec<&Case> = cases.iter().collect();
    by_cost.sort_by_key(|case| (case.cost(), case.line));
    let kept: Vec<usize> = by_cost[..cases.len().div_ceil(2)]
        .iter()
        .map(|case| case.line)
        .collect();
    cases
        .iter()
        .filter(|case| kept.contains(&case.line))
        .cloned()
        .collect()
}

/// Reads a golden file's cases; a malformed line is refused as `FILE:LINE: message`.
pub fn parse(file: &str, text: &str) -> Result<Vec<Case>, String> {
    let mut cases = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let case =
            parse_case(line, number).map_err(|message| format!("{file}:{number}: {message}"))?;
        cases.push(case);
    }
    if cases.is_empty() {
        return Err(format!("{file}: no cases"));
    }
    Ok(cases)
}

/// One case's line.
fn parse_case(line: &str, number: usize) -> Result<Case, String> {
    let columns: Vec<&str> = line.split('\t').map(str::trim).collect();
    let [preset, particles, frames, stir, seed, checksum] = columns[..] else {
        return Err(format!(
            "{} tab-separated columns, wanted 6: preset, particles, frames, stir, seed, checksum",
            columns.len()
        ));
    };
    let whole = |name: &str, text: &str| {
        text.parse::<u64>()
            .map_err(|_| format!("{name} `{text}` is not a whole number"))
    };
    let particles = match particles {
        "own" => None,
        count => Some(whole("particles", count)? as usize),
    };
    let stir = match stir {
        "none" => StirMode::None,
        "random" => StirMode::Random,
        other => return Err(format!("stir `{other}` is neither none nor random")),
    };
    let checksum = (checksum.len() == 16)
        .then(|| u64::from_str_radix(checksum, 16).ok())
        .flatten()
        .ok_or_else(|| format!("checksum `{checksum}` is not 16 hexadecimal digits"))?;
    Ok(Case {
        preset: preset.to_string(),
        particles,
        frames: whole("frames", frames)?,
        stir,
        seed: whole("seed", seed)?,
        checksum,
        line: number,
    })
}

/// `text` (a golden file) with each case's checksum replaced by `found[k]` for the k-th case,
/// comments and order kept.
pub fn with_checksums(text: &str, cases: &[Case], found: &[u64]) -> String {
    let mut out = String::new();
    let mut next = cases.iter().zip(found).peekable();
    for (index, line) in text.lines().enumerate() {
        match next.peek() {
            Some((case, checksum)) if case.line == index + 1 => {
                out.push_str(&format!("{}\t{checksum:016x}\n", case.key()));
                next.next();
            }
            _ => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

/// How a set of cases came out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Cases that ended with their checksum.
    pub matched: usize,
    /// Cases run.
    pub of: usize,
    /// One line per case that did not, naming its line, the checksum found and the one wanted
    /// (or the error that stopped it).
    pub failures: Vec<String>,
    /// The checksum each case ended with, in order (0 where it failed to run).
    pub found: Vec<u64>,
}

/// Runs every case on the current thread pool (`file` names them in messages).
pub fn check(file: &str, cases: &[Case]) -> Outcome {
    let mut outcome = Outcome {
        of: cases.len(),
        ..Outcome::default()
    };
    for case in cases {
        match case.run() {
            Ok(found) if found == case.checksum => {
                outcome.matched += 1;
                outcome.found.push(found);
            }
            Ok(found) => {
                outcome.failures.push(format!(
                    "{file}:{}: {}: checksum {found:016x}, wanted {:016x}",
                    case.line,
                    case.key().replace('\t', " "),
                    case.checksum
                ));
                outcome.found.push(found);
            }
            Err(error) => {
                outcome
                    .failures
                    .push(format!("{file}:{}: {error}", case.line));
                outcome.found.push(0);
            }
        }
    }
    outcome
}

/// Checks (or with `update`, rewrites) the golden checksums of `path` (`golden`), or only the
/// cheaper half of them, on `threads` worker threads, printing one line per case that differs (`slosh --golden FILE`). The
/// error is one line: a file that
/// cannot be read or written, a malformed case, or how many cases differ.
pub fn check_file(
    path: &std::path::Path,
    threads: Option<usize>,
    update: bool,
    only_cheaper_half: bool,
) -> Result<String, String> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|error| one_line(&format!("cannot read {file}: {error}")))?;
    let mut cases = parse(&file, &text)?;
    if only_cheaper_half {
        cases = cheaper_half(&cases);
    }
    let outcome = headless::in_pool(threads, || Ok(check(&file, &cases)))?;
    if !update {
        for failure in &outcome.failures {
            eprintln!("{failure}");
        }
    }
    let summary = format!(
        "{{\"golden\": {{\"matched\": {}, \"of\": {}, \"lanes\": \"{}\", \"threads\": {}}}}}",
        outcome.matched,
        outcome.of,
        crate::sim::lanes_name(),
        threads.unwrap_or_else(rayon::current_num_threads)
    );
    if update {
        if outcome.found.contains(&0) {
            return Err(format!("{file}: a case did not run; nothing written"));
        }
        let updated = with_checksums(&text, &cases, &outcome.found);
        std::fs::write(path, updated)
            .map_err(|error| one_line(&format!("cannot write {file}: {error}")))?;
        return Ok(summary);
    }
    if outcome.matched == outcome.of {
        Ok(summary)
    } else {
        Err(format!(
            "{summary}: {} of {} cases differ",
            outcome.of - outcome.matched,
            outcome.of
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_file_reads_and_names_every_builtin_preset() {
        let cases = parse(CHECKSUMS_FILE, CHECKSUMS).unwrap();
        for preset in crate::preset::Preset::builtins() {
            assert!(
                cases.iter().any(|case| case.preset == preset.name),
                "{} has no golden case",
                preset.name
            );
        }
    }

    #[test]
    fn malformed_lines_are_refused_with_their_line() {
        for (text, wanted) in [
            (
                "seed\town\t10\tnone\t1",
                "golden.tsv:1: 5 tab-separated columns",
            ),
            (
                "# a comment\nseed\town\tten\tnone\t1\t0123456789abcdef",
                "golden.tsv:2: frames `ten`",
            ),
            (
                "seed\town\t10\tsometimes\t1\t0123456789abcdef",
                "golden.tsv:1: stir `sometimes`",
            ),
            (
                "seed\town\t10\tnone\t1\t0123",
                "golden.tsv:1: checksum `0123`",
            ),
            ("# nothing but comments\n", "golden.tsv: no cases"),
        ] {
            let error = parse("golden.tsv", text).unwrap_err();
            assert!(error.starts_with(wanted), "{error}");
        }
    }

    #[test]
    fn updating_keeps_comments_and_replaces_checksums() {
        let text = "# head\nseed\town\t10\tnone\t1\t0000000000000000\n\n# mid\ndam\t6000\t5\trandom\t2\t0000000000000001\n";
        let cases = parse("g", text).unwrap();
        let updated = with_checksums(text, &cases, &[0xab, 0xcd]);
        assert_eq!(
            updated,
            "# head\nseed\town\t10\tnone\t1\t00000000000000ab\n\n# mid\ndam\t6000\t5\trandom\t2\t00000000000000cd\n"
        );
        assert_eq!(parse("g", &updated).unwrap()[1].checksum, 0xcd);
    }
}
