//! The built `slosh` binary on bad command lines: every bad flag or value exits with code 2,
//! prints nothing on standard output and exactly one line on standard error naming the problem.
//! Also the good paths the errors sit beside: `--list-presets` and a tiny headless run's JSON.

use crate::common::box_walls_spaced;
use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::{Command, Output};

fn slosh<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    Command::new(env!("CARGO_BIN_EXE_slosh"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs `slosh ARGS` and asserts: exit code 2, empty standard output, one line on standard error
/// starting `slosh: ` and containing every one of `words`. Returns that line.
fn assert_refused<S: AsRef<OsStr>>(args: &[S], words: &[&str]) -> String {
    let output = slosh(args);
    let shown: Vec<_> = args.iter().map(|arg| arg.as_ref().to_owned()).collect();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(2), "{shown:?}: {stderr}");
    assert!(
        output.stdout.is_empty(),
        "{shown:?} printed on stdout: {}",
        String::from_utf8_lossy(&output.stdout)
    );
    assert_eq!(stderr.lines().count(), 1, "{shown:?}: {stderr:?}");
    assert!(stderr.ends_with('\n'), "{shown:?}: {stderr:?}");
    let line = stderr.trim_end_matches('\n').to_string();
    assert!(line.starts_with("slosh: "), "{shown:?}: {line}");
    for word in words {
        assert!(line.contains(word), "{shown:?}: `{line}` lacks `{word}`");
    }
    line
}

/// A fresh empty folder for one test's files.
fn temp_folder(test: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("slosh-cli-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

// ---- Flags ----------------------------------------------------------------------------------

#[test]
fn an_unknown_long_flag_is_refused() {
    assert_refused(&["--headless", "--bogus"], &["unknown flag `--bogus`"]);
}

#[test]
fn an_unknown_short_flag_is_refused() {
    assert_refused(&["-x"], &["unknown flag `-x`"]);
}

#[test]
fn a_stray_argument_is_refused() {
    assert_refused(&["--headless", "seed"], &["unexpected argument `seed`"]);
}

#[test]
fn a_value_for_a_switch_is_refused() {
    assert_refused(&["--headless=yes"], &["--headless takes no value"]);
    assert_refused(&["--list-presets=all"], &["--list-presets takes no value"]);
}

#[test]
fn every_value_flag_without_its_value_is_refused() {
    for flag in [
        "--preset",
        "--frames",
        "--particles",
        "--seed",
        "--threads",
        "--stir",
        "--screenshot",
    ] {
        assert_refused(&["--headless", flag], &[flag, "needs a value"]);
        assert_refused(&[&format!("{flag}=")[..]], &[flag, "needs a value"]);
    }
}

#[test]
fn a_flag_in_place_of_a_value_is_refused() {
    assert_refused(&["--preset", "--headless"], &["--preset needs a value"]);
}

#[test]
fn non_numbers_are_refused() {
    for (flag, value) in [
        ("--frames", "ten"),
        ("--frames", "1.5"),
        ("--frames", "0x10"),
        ("--particles", "1e4"),
        ("--seed", "abc"),
        ("--threads", "two"),
    ] {
        assert_refused(
            &["--headless", flag, value],
            &[flag, value, "expected a whole number"],
        );
    }
}

#[test]
fn zero_counts_are_refused() {
    for flag in ["--frames", "--particles", "--threads"] {
        assert_refused(&["--headless", flag, "0"], &[flag, "`0`", "must be from 1"]);
    }
}

#[test]
fn negative_numbers_are_refused_as_out_of_range() {
    for (flag, value) in [
        ("--frames", "-5"),
        ("--particles", "-1"),
        ("--seed", "-1"),
        ("--threads", "-2"),
    ] {
        assert_refused(&["--headless", flag, value], &[flag, value, "must be from"]);
    }
}

#[test]
fn huge_numbers_are_refused_as_out_of_range() {
    for (flag, value) in [
        ("--frames", "100000001"),
        ("--frames", "99999999999999999999999"),
        ("--particles", "2000001"),
        ("--threads", "5000"),
        ("--seed", "18446744073709551616"),
    ] {
        assert_refused(&["--headless", flag, value], &[flag, value, "must be from"]);
    }
}

#[test]
fn a_bad_stir_mode_is_refused() {
    assert_refused(
        &["--headless", "--stir", "gently"],
        &["`gently`", "--stir", "random"],
    );
}

#[test]
fn a_screenshot_without_the_window_is_refused() {
    assert_refused(
        &["--headless", "--screenshot", "out.png"],
        &["--screenshot", "--headless"],
    );
}

#[test]
fn a_line_break_in_an_argument_stays_on_one_line() {
    let line = assert_refused(&["--headless", "--bo\ngus"], &["unknown flag"]);
    assert!(line.contains("--bo\\ngus"), "{line}");
    assert_refused(&["--headless", "--preset", "a\nb"], &["no such preset"]);
}

#[cfg(unix)]
#[test]
fn an_argument_that_is_not_utf8_is_refused() {
    use std::os::unix::ffi::OsStrExt;
    let bad = OsStr::from_bytes(b"--pre\xffset");
    assert_refused(&[OsStr::new("--headless"), bad], &["not valid UTF-8"]);
}

// ---- Presets --------------------------------------------------------------------------------

#[test]
fn an_unknown_preset_is_refused_listing_the_known_ones() {
    assert_refused(
        &["--headless", "--preset", "atlantis"],
        &["atlantis", "no such preset", "seed", "dam"],
    );
}

#[test]
fn a_missing_preset_file_is_refused_naming_it() {
    let folder = temp_folder("missing");
    let path = folder.join("nowhere.toml");
    let path = path.to_str().unwrap();
    assert_refused(
        &["--headless", "--preset", path],
        &[path, "cannot read the file"],
    );
    std::fs::remove_dir_all(folder).unwrap();
}

#[test]
fn a_malformed_preset_file_is_refused_naming_path_line_and_field() {
    let folder = temp_folder("malformed");
    let path = folder.join("broken.toml");
    std::fs::write(
        &path,
        "name = \"broken\"\ndescription = \"x\"\n\n[[walls]]\nnormal = [1.0, 0.0]\noffset = 0.0\n\n\
         [[materials]]\nname = \"water\"\ncolour = [0.5, 0.5, 0.5]\nmass = \"heavy\"\n",
    )
    .unwrap();
    let path = path.to_str().unwrap();
    assert_refused(
        &["--headless", "--preset", path],
        &[
            &format!("{path}:11: materials[0].mass: ")[..],
            "invalid type",
        ],
    );
    std::fs::remove_dir_all(folder).unwrap();
}

#[test]
fn a_preset_file_that_is_not_toml_is_refused_with_its_line() {
    let folder = temp_folder("not-toml");
    let path = folder.join("notes.toml");
    std::fs::write(&path, "name = \"x\"\nthis is not toml\n").unwrap();
    let path = path.to_str().unwrap();
    assert_refused(
        &["--headless", "--preset", path],
        &[&format!("{path}:2: ")[..]],
    );
    std::fs::remove_dir_all(folder).unwrap();
}

// ---- The good paths -------------------------------------------------------------------------

#[test]
fn list_presets_prints_one_preset_per_line_starting_with_its_name() {
    let output = slosh(["--list-presets"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stderr.is_empty());
    let stdout = String::from_utf8(output.stdout).unwrap();
    let names: Vec<&str> = stdout
        .lines()
        .map(|line| line.split_whitespace().next().unwrap_or(""))
        .collect();
    let embedded: Vec<&str> = slosh::preset::BUILTIN
        .iter()
        .map(|(name, _)| *name)
        .collect();
    assert_eq!(names, embedded, "{stdout}");
    assert!(
        names.starts_with(&["seed", "dam", "layers", "fountain", "rain", "funnel"]),
        "{stdout}"
    );
    assert!(
        names.ends_with(&[
            "jelly",
            "pachinko",
            "slime",
            "flood",
            "smoke",
            "lava",
            "bath",
            "mill",
            "collapse",
            "volcano",
            "ice",
            "kettle",
            "fire",
            "hourglass",
            "sandbox",
            "tank"
        ]),
        "{stdout}"
    );
    for line in stdout.lines() {
        assert!(
            line.split_whitespace().count() > 1,
            "no description: {line}"
        );
    }
}

#[test]
fn help_exits_zero_with_usage() {
    let output = slosh(["--help"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&output.stdout).contains("--headless"));
}

#[test]
fn a_tiny_headless_run_prints_its_report_as_json_on_the_last_line() {
    let output = slosh([
        "--headless",
        "--frames",
        "3",
        "--particles",
        "40",
        "--threads",
        "1",
        "--stir",
        "random",
    ]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    let last = stdout.lines().last().expect("some output");
    let report: serde_json::Value = serde_json::from_str(last).expect("the last line is JSON");
    for key in [
        "preset",
        "frames",
        "substeps",
        "particles",
        "threads",
        "ms_per_substep_median",
        "particle_substeps_per_s",
        "checksum",
        "nan",
        "escaped",
        "max_speed",
        "kinetic_energy",
    ] {
        assert!(report.get(key).is_some(), "`{key}` missing from {last}");
    }
    assert_eq!(report["preset"], "seed");
    assert_eq!(report["frames"], 3);
    let per_frame = report["substeps_per_frame"].as_u64().unwrap();
    assert!(
        (1..=7).contains(&per_frame),
        "40 particles are coarser than the seed's 3,000: no more than its 7 substeps, {last}"
    );
    assert_eq!(report["substeps"], 3 * per_frame, "{last}");
    assert_eq!(report["threads"], 1);
    let particles = report["particles"].as_u64().unwrap();
    assert!((1..=40).contains(&particles), "{last}");
    assert_eq!(report["nan"], 0);
    assert_eq!(report["escaped"], 0);
    let checksum = report["checksum"].as_str().unwrap();
    assert_eq!(checksum.len(), 16, "{last}");
    assert!(checksum.chars().all(|c| c.is_ascii_hexdigit()), "{last}");
    for key in [
        "ms_per_substep_median",
        "particle_substeps_per_s",
        "max_speed",
        "kinetic_energy",
    ] {
        let value = report[key].as_f64().unwrap();
        assert!(value.is_finite() && value >= 0.0, "{key}: {last}");
    }
}

#[test]
fn a_valid_preset_file_runs_headless() {
    let folder = temp_folder("valid");
    let path = folder.join("pool.toml");
    std::fs::write(
        &path,
        format!(
            "name = \"pool\"\ndescription = \"A small pool\"\n\n{}\n\
             [[materials]]\nname = \"water\"\ncolour = [0.5, 0.5, 0.9]\nmass = 1.0\n\n\
             [[blocks]]\nmaterial = \"water\"\nmin = [0.1, 0.1]\nmax = [1.1, 0.6]\nspacing = 0.1\n",
            box_walls_spaced(2.0, 2.0)
        ),
    )
    .unwrap();
    let output = slosh([
        "--headless",
        "--frames",
        "2",
        "--preset",
        path.to_str().unwrap(),
    ]);
    std::fs::remove_dir_all(folder).unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    let report: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(report["preset"], "pool");
    assert_eq!(report["particles"], 50, "the 10 × 5 block");
}

// ---- Record, replay and snapshots -------------------------------------------------------------

#[test]
fn flags_that_do_not_go_together_are_refused() {
    assert_refused(
        &["--record", "a", "--replay", "b"],
        &["--record", "--replay"],
    );
    assert_refused(&["--replay", "a", "--load", "b"], &["--replay", "--load"]);
    assert_refused(&["--record", "a", "--load", "b"], &["--record", "--load"]);
    assert_refused(
        &["--headless", "--load", "a", "--particles", "100"],
        &["--load", "drop --particles"],
    );
}

#[test]
fn missing_or_broken_replays_and_snapshots_name_the_file() {
    let folder = temp_folder("replay-files");
    let missing = folder.join("missing.replay");
    let missing = missing.to_str().unwrap();
    assert_refused(
        &["--headless", "--replay", missing],
        &[missing, "cannot read"],
    );
    assert_refused(&["--replay", missing], &[missing, "cannot read"]);
    let snapshot = folder.join("broken.snapshot.json");
    std::fs::write(
        &snapshot,
        "{\n  \"format\": \"slosh-snapshot\",\n  \"version\": 1,\n  \"pre",
    )
    .unwrap();
    let snapshot = snapshot.to_str().unwrap();
    assert_refused(&["--headless", "--load", snapshot], &[snapshot]);
    let unwritable = folder.join("no-such-folder").join("run.replay");
    assert_refused(
        &[
            "--headless",
            "--frames",
            "2",
            "--record",
            unwritable.to_str().unwrap(),
        ],
        &["cannot write the recording"],
    );
}

// ---- Golden checksums -----------------------------------------------------------------------

#[test]
fn golden_files_that_are_missing_or_malformed_are_refused_with_their_line() {
    let folder = temp_folder("golden-files");
    let missing = folder.join("missing.tsv");
    let missing = missing.to_str().unwrap();
    assert_refused(&["--golden", missing], &[missing, "cannot read"]);
    let malformed = folder.join("malformed.tsv");
    std::fs::write(
        &malformed,
        "# a comment\nseed\town\tten\tnone\t1\t0123456789abcdef\n",
    )
    .unwrap();
    let malformed = malformed.to_str().unwrap();
    assert_refused(
        &["--golden", malformed],
        &[&format!("{malformed}:2"), "frames `ten`"],
    );
    assert_refused(&["--update"], &["--golden is needed"]);
    assert_refused(&["--cheaper-half"], &["--golden is needed"]);
    assert_refused(
        &["--golden", malformed, "--update", "--cheaper-half"],
        &["--update", "--cheaper-half"],
    );
    assert_refused(
        &["--golden", malformed, "--headless"],
        &["--golden", "--headless"],
    );
}

/// A golden file of one cheap case: checked when its checksum is the run's, refused (exit 2,
/// the case's line named) when it is not, and put right by `--update`.
#[test]
fn a_golden_case_is_checked_and_updated() {
    let folder = temp_folder("golden-check");
    let run = slosh([
        "--headless",
        "--preset",
        "dam",
        "--frames",
        "3",
        "--stir",
        "random",
    ]);
    let report = String::from_utf8(run.stdout).unwrap();
    let checksum = report.split("\"checksum\":\"").nth(1).unwrap()[..16].to_string();
    let file = folder.join("one.tsv");
    let path = file.to_str().unwrap();
    std::fs::write(
        &file,
        format!("# one case\ndam\town\t3\trandom\t1\t{checksum}\n"),
    )
    .unwrap();
    let good = slosh(["--golden", path]);
    let summary = String::from_utf8(good.stdout).unwrap();
    assert!(good.status.success(), "{summary}");
    assert!(summary.contains("\"matched\": 1, \"of\": 1"), "{summary}");
    std::fs::write(
        &file,
        "# one case\ndam\town\t3\trandom\t1\t0000000000000000\n",
    )
    .unwrap();
    let bad = slosh(["--golden", path]);
    let errors = String::from_utf8(bad.stderr).unwrap();
    assert_eq!(bad.status.code(), Some(2), "{errors}");
    assert!(
        errors.contains(&format!(
            "{path}:2: dam own 3 random 1: checksum {checksum}"
        )),
        "{errors}"
    );
    assert!(slosh(["--golden", path, "--update"]).status.success());
    let updated = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        updated,
        format!("# one case\ndam\town\t3\trandom\t1\t{checksum}\n")
    );
}
