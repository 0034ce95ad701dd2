//! Links (`slosh::share`): a link opens to exactly what its source gives (the same checksum
//! after the same frames, and a replay to its recorded checksum), a preset's link fits in 2,000
//! characters, and a damaged link is one line and exit code 2, never a panic.

use slosh::headless::{self, HeadlessOptions, StirMode};
use slosh::preset::Preset;
use slosh::replay::Replay;
use slosh::share::{Opened, Shared};
use std::path::PathBuf;
use std::process::Command;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("slosh-share-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The checksum `preset` (rescaled to `particles`) ends with after `frames` frames from `seed`.
fn checksum_after(preset: &Preset, particles: Option<usize>, seed: u64, frames: u32) -> u64 {
    let preset = match particles {
        Some(particles) => preset.clone().with_particles(particles).unwrap(),
        None => preset.clone(),
    };
    let mut world = preset.build_world(seed);
    for _ in 0..frames {
        world.step_frame();
    }
    world.checksum()
}

/// What `link` opens, run for `frames` frames: its checksum.
fn opened_checksum(link: &str, frames: u32) -> u64 {
    let Opened::Start {
        source,
        particles,
        seed,
    } = Shared::decode(link).unwrap().open().unwrap()
    else {
        panic!("a scene, not a replay");
    };
    checksum_after(&Preset::load(&source).unwrap(), particles, seed, frames)
}

/// Every embedded preset, shared by name and as its file's text (at another seed and particle
/// count for two of them), opens to the same world and runs to the same checksum; each link
/// fits in 2,000 characters. Measured: 86 to 98 characters by name, 651 (tank) to 1,490
/// (volcano) as text.
#[test]
fn a_preset_link_opens_to_the_same_run_and_fits_in_2000_characters() {
    for (index, (name, text)) in slosh::preset::BUILTIN.iter().enumerate() {
        let preset = Preset::load(name).unwrap();
        let (particles, seed) = match index {
            0 => (Some(1500), 5),
            3 => (None, 9),
            _ => (None, 1),
        };
        let by_name = Shared::of_preset(name, particles, seed).unwrap().encode();
        let as_text = Shared::Scene {
            toml: text.to_string(),
            particles,
            seed,
        }
        .encode();
        for link in [&by_name, &as_text] {
            assert!(link.len() <= 2000, "{name}: {} characters", link.len());
        }
        let frames = 15;
        let expected = checksum_after(&preset, particles, seed, frames);
        assert_eq!(
            opened_checksum(&by_name, frames),
            expected,
            "{name} by name"
        );
        assert_eq!(
            opened_checksum(&as_text, frames),
            expected,
            "{name} as text"
        );
    }
}

/// A replay's link plays to the recorded checksum, through the library and through
/// `slosh --headless --open`: a level's solution, and a recording of a scene from a file that
/// is gone by the time the link is opened (the link carries the file's text).
#[test]
fn a_replay_link_plays_to_its_recorded_checksum_even_without_its_preset_file() {
    let solution = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/levels/mill-race.replay");
    let link = Shared::of_replay(&solution).unwrap().encode();
    let Opened::Replay(replay) = Shared::decode(&link).unwrap().open().unwrap() else {
        panic!("a replay");
    };
    assert_eq!(replay.inputs, Replay::load(&solution).unwrap().inputs);
    let report = headless::play(replay, Some(2)).unwrap();
    assert_eq!(report.goal.map(|goal| goal.met), Some(true));

    // A scene from a file, stirred and recorded, then the file deleted.
    let scene = temp("pool.toml");
    let text = slosh::preset::BUILTIN
        .iter()
        .find(|(name, _)| *name == "dam")
        .unwrap()
        .1
        .replace("name = \"dam\"", "name = \"pool\"");
    std::fs::write(&scene, text).unwrap();
    let recording = temp("pool.replay");
    let options = HeadlessOptions {
        preset: scene.display().to_string(),
        frames: 60,
        stir: StirMode::Random,
        record: Some(recording.clone()),
        threads: Some(2),
        ..HeadlessOptions::default()
    };
    let recorded = headless::run(&options).unwrap().checksum;
    let link = Shared::of_replay(&recording).unwrap().encode();
    std::fs::remove_file(&scene).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_slosh"))
        .args(["--headless", "--threads", "2", "--open", &link])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let report: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&output.stdout).trim()).unwrap();
    assert_eq!(
        report["checksum"].as_str(),
        Some(format!("{recorded:016x}").as_str())
    );
}

/// `slosh --share` prints a link that `slosh --headless --open` runs to the checksum the
/// source gives, and damaged links are one line each with exit code 2: cut short, another
/// version, a character no link holds, not a link at all, a scene the loader refuses.
#[test]
fn the_command_line_shares_and_opens_and_refuses_damaged_links() {
    let slosh = |args: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_slosh"))
            .args(args)
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).trim().to_string(),
            String::from_utf8_lossy(&output.stderr).trim().to_string(),
        )
    };
    let (code, link, _) = slosh(&["--share", "--preset", "fountain", "--seed", "4"]);
    assert_eq!(code, Some(0));
    let checksum = |args: &[&str]| {
        let (code, out, err) = slosh(args);
        assert_eq!(code, Some(0), "{err}");
        let report: serde_json::Value = serde_json::from_str(&out).unwrap();
        report["checksum"].as_str().unwrap().to_string()
    };
    let frames = ["--headless", "--frames", "20", "--threads", "2"];
    assert_eq!(
        checksum(&[&frames[..], &["--open", &link]].concat()),
        checksum(&[&frames[..], &["--preset", "fountain", "--seed", "4"]].concat())
    );

    let dam = slosh::preset::BUILTIN
        .iter()
        .find(|(name, _)| *name == "dam")
        .unwrap()
        .1;
    let refused_scene = Shared::Scene {
        toml: dam.replace("substeps = 7", "substeps = 0"),
        particles: None,
        seed: 1,
    }
    .encode();
    let cases = [
        (link[..link.len() / 2].to_string(), "cut short or damaged"),
        (link.replacen("s1.", "s7.", 1), "version 7"),
        (format!("{}*{}", &link[..8], &link[9..]), "`*`"),
        (
            "https://example.org/#nothing".to_string(),
            "not a slosh link",
        ),
        (refused_scene, "params.substeps"),
    ];
    for (damaged, says) in cases {
        let (code, out, err) = slosh(&["--headless", "--open", &damaged]);
        assert_eq!(code, Some(2), "{damaged}: {out} {err}");
        assert!(err.contains(says), "{damaged}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}
