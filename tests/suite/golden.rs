//! The golden checksums (`tests/golden/checksums.tsv`, read by `slosh::golden`): every case ends
//! with the checksum written beside it. The file was written on one machine; these checksums
//! hold on every CPU, at any thread count, with every implementation of the pair loops' lanes
//! (`SLOSH_LANES=4` forces two parts of four, `SLOSH_LANES=8` AVX where the CPU also has AVX-512;
//! `.ci/test` runs all three) and in the web page (`web/test.mjs`).

use slosh::golden::{self, Case};
use slosh::headless::StirMode;
use slosh::preset::Preset;

const FILE: &str = "tests/golden/checksums.tsv";

fn cases() -> Vec<Case> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(FILE);
    let text = std::fs::read_to_string(path).unwrap();
    golden::parse(FILE, &text).unwrap()
}

#[test]
fn every_golden_case_ends_with_its_checksum() {
    let cases = cases();
    let outcome = golden::check(FILE, &cases);
    assert_eq!(
        outcome.matched,
        cases.len(),
        "with the pair loops on {}:\n{}",
        slosh::sim::lanes_name(),
        outcome.failures.join("\n")
    );
}

/// What the file must hold: every preset, two at four times their particles, several stirred at
/// random, and the embedded copy the web page checks is this file.
#[test]
fn the_golden_file_covers_every_preset_finer_runs_and_stirring() {
    let cases = cases();
    assert!(cases.len() >= 15, "{} cases", cases.len());
    for preset in Preset::builtins() {
        assert!(
            cases.iter().any(|case| case.preset == preset.name),
            "no case of {}",
            preset.name
        );
    }
    let four_times = cases
        .iter()
        .filter(|case| {
            let own = Preset::load(&case.preset).unwrap().particles();
            case.particles
                .is_some_and(|n| n.abs_diff(4 * own) * 10 <= 4 * own)
        })
        .count();
    assert!(
        four_times >= 2,
        "{four_times} cases at four times the particles"
    );
    let stirred = cases.iter().filter(|c| c.stir == StirMode::Random).count();
    assert!(stirred >= 4, "{stirred} stirred cases");
    assert_eq!(
        golden::parse(golden::CHECKSUMS_FILE, golden::CHECKSUMS).unwrap(),
        cases,
        "the embedded checksums are the file's"
    );
}
