//! Smoke test of the demo window: screenshot mode under Xvfb for a few presets, then a look at
//! the pictures: a fair share of liquid-coloured pixels, not blank, not washed out to white, the
//! dam's water at the bottom (the picture is not upside down), and the HUD and the box where the
//! window says it drew them, clear of each other, on a laptop's window and a phone's.
//!
//! Needs Xvfb and xdotool (`.ci/setup` installs them; `.ci/test` runs setup first). Set
//! `SLOSH_SKIP_WINDOW_TESTS=1` to skip on a machine that cannot open windows at all.
//!
//! Nothing here waits for a length of time: each test has an X display of its own, told ready by
//! Xvfb itself (`-displayfd`), and the test that drives the window with xdotool waits for the
//! state the window reports after every frame (`--report-state`) to show what each key and drag
//! did, holding every key down until it has.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// A screenshot as rows of RGBA pixels.
struct Picture {
    width: usize,
    height: usize,
    rgba: Vec<u8>,
}

impl Picture {
    fn load(path: &Path) -> Picture {
        let file =
            std::fs::File::open(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        let mut reader = png::Decoder::new(file).read_info().unwrap();
        let mut buffer = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buffer).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgba, "{}", path.display());
        assert_eq!(info.bit_depth, png::BitDepth::Eight, "{}", path.display());
        buffer.truncate(info.buffer_size());
        Picture {
            width: info.width as usize,
            height: info.height as usize,
            rgba: buffer,
        }
    }

    fn pixels(&self) -> impl Iterator<Item = (usize, [u8; 3])> + '_ {
        self.rgba
            .chunks_exact(4)
            .enumerate()
            .map(|(index, p)| (index / self.width, [p[0], p[1], p[2]]))
    }
}

/// Clearly coloured, not the grey background, walls or HUD text.
fn is_liquid([r, g, b]: [u8; 3]) -> bool {
    let (max, min) = (r.max(g).max(b), r.min(g).min(b));
    max >= 60 && f32::from(max - min) >= 0.25 * f32::from(max)
}

fn is_near_white([r, g, b]: [u8; 3]) -> bool {
    r > 235 && g > 235 && b > 235
}

/// Whether the window tests are to be skipped (`SLOSH_SKIP_WINDOW_TESTS=1`, where no window can
/// be opened at all); says so when they are.
fn skipped() -> bool {
    let skip = std::env::var_os("SLOSH_SKIP_WINDOW_TESTS").is_some_and(|value| value == "1");
    if skip {
        eprintln!("window tests skipped: SLOSH_SKIP_WINDOW_TESTS=1");
    }
    skip
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|folder| folder.join(program).is_file())
    })
}

/// Runs screenshot mode on a display of its own and returns the picture, having checked that
/// the HUD and the box are where the window says it drew them.
fn screenshot(folder: &Path, preset: &str, frames: u32) -> Picture {
    screenshot_sized(folder, preset, frames, (1280, 720))
}

/// `screenshot` in a window of `size` pixels (`--window-size`).
fn screenshot_sized(folder: &Path, preset: &str, frames: u32, size: (u32, u32)) -> Picture {
    screenshot_playing_to(folder, preset, frames, size, None).0
}

/// `screenshot_sized` with the sound played to the ALSA device `device` (`SLOSH_AUDIO_DEVICE`;
/// the system's default when `None`); returns the picture and the window's final line, having
/// checked what it says of the sound: on, or off with one line on standard error that says why.
fn screenshot_playing_to(
    folder: &Path,
    preset: &str,
    frames: u32,
    size: (u32, u32),
    device: Option<&str>,
) -> (Picture, serde_json::Value) {
    let path: PathBuf = folder.join(format!("{preset}-{}x{}.png", size.0, size.1));
    let display = Display::start();
    let mut command = Command::new(env!("CARGO_BIN_EXE_slosh"));
    match device {
        Some(device) => command.env("SLOSH_AUDIO_DEVICE", device),
        None => command.env_remove("SLOSH_AUDIO_DEVICE"),
    };
    let output = command
        .env("DISPLAY", display.name())
        .args(["--preset", preset, "--frames", &frames.to_string()])
        .args(["--window-size", &format!("{}x{}", size.0, size.1)])
        .arg("--screenshot")
        .arg(&path)
        .output()
        .expect("the window starts");
    assert!(
        output.status.success(),
        "{preset}: exit {:?}\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stderr)
    );
    // The last line reports the state and the renderer's cost per frame.
    let stdout = String::from_utf8_lossy(&output.stdout);
    let report: serde_json::Value =
        serde_json::from_str(stdout.lines().last().unwrap_or("")).expect("a JSON report");
    for key in ["splat_ms", "splat_prepare_ms"] {
        let millis = report[key].as_f64().unwrap_or(-1.0);
        assert!(
            millis > 0.0 && millis < 10_000.0,
            "{preset}: `{key}` {millis} in {stdout}"
        );
    }
    assert!(report["splat_prepare_ms"].as_f64() <= report["splat_ms"].as_f64());
    // The sound: on, or off with why in the final line and in one line of standard error (no
    // messages of ALSA's own).
    let sound = report["sound"].as_str().unwrap_or_default();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let said: Vec<&str> = stderr
        .lines()
        .filter(|line| line.contains("sound") || line.contains("ALSA"))
        .collect();
    if sound == "on" {
        assert!(said.is_empty(), "{preset}: sound on, yet: {said:?}");
    } else {
        assert!(sound.starts_with("off: "), "{preset}: sound {sound:?}");
        assert_eq!(
            said,
            [format!("sound: off ({})", &sound["off: ".len()..])],
            "{preset}: one line on standard error"
        );
    }
    assert!(
        report["sound_ms"].as_f64().is_some_and(|ms| ms >= 0.0),
        "{preset}: {stdout}"
    );
    let picture = Picture::load(&path);
    assert_eq!(
        (picture.width, picture.height),
        (size.0 as usize, size.1 as usize),
        "{preset}"
    );
    check_hud_and_box(
        &format!("{preset} at {}x{}", size.0, size.1),
        &report,
        &picture,
    );
    (picture, report)
}

/// A rectangle of window pixels as the window's final line gives it: `[x, y, w, h]`.
#[derive(Clone, Copy, Debug)]
struct Rect {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

impl Rect {
    /// The rectangle `report[key]`, `None` for `null`.
    fn of(report: &serde_json::Value, key: &str) -> Option<Rect> {
        let values = report[key].as_array()?;
        let value = |index: usize| values[index].as_f64().expect("a number");
        assert_eq!(values.len(), 4, "`{key}`: {values:?}");
        Some(Rect {
            x: value(0),
            y: value(1),
            w: value(2),
            h: value(3),
        })
    }

    /// The rectangle grown by `by` pixels on every side.
    fn grown(self, by: f64) -> Rect {
        Rect {
            x: self.x - by,
            y: self.y - by,
            w: self.w + 2.0 * by,
            h: self.h + 2.0 * by,
        }
    }

    /// Whether pixel (`column`, `row`), its centre, lies within.
    fn holds(self, column: usize, row: usize) -> bool {
        let (x, y) = (column as f64 + 0.5, row as f64 + 0.5);
        x >= self.x && x < self.x + self.w && y >= self.y && y < self.y + self.h
    }

    /// Whether the two share more than an edge.
    fn overlaps(self, other: Rect) -> bool {
        self.x < other.x + other.w
            && other.x < self.x + self.w
            && self.y < other.y + other.h
            && other.y < self.y + self.h
    }
}

/// The window's own colour, around the box (`render::OUTSIDE`).
fn is_outside([r, g, b]: [u8; 3]) -> bool {
    r.abs_diff(14) <= 2 && g.abs_diff(15) <= 2 && b.abs_diff(19) <= 2
}

/// How far, in pixels, what the box holds is drawn past its edges: the walls' outline straddles
/// them, and the liquid's surface lies a particle's radius past the particles.
const PAST_THE_BOX: f64 = 6.0;

/// The HUD and the box of the window's final line (`report`) against the picture: apart, the
/// box within the window; the HUD's strip drawn over its whole rectangle; and outside the HUD
/// and the toolbar, nothing drawn but the box, which spans the rectangle given (to within
/// `PAST_THE_BOX`).
fn check_hud_and_box(what: &str, report: &serde_json::Value, picture: &Picture) {
    let hud = Rect::of(report, "hud").unwrap_or_else(|| panic!("{what}: no `hud` in {report}"));
    let seen = Rect::of(report, "box").unwrap_or_else(|| panic!("{what}: no `box` in {report}"));
    let toolbar = Rect::of(report, "toolbar");
    assert!(
        !hud.overlaps(seen),
        "{what}: the HUD {hud:?} covers the box {seen:?}"
    );
    let (width, height) = (picture.width as f64, picture.height as f64);
    let free = toolbar.map_or(height, |toolbar| toolbar.y);
    assert!(
        seen.x >= 0.0 && seen.y >= 0.0 && seen.x + seen.w <= width && seen.y + seen.h <= free,
        "{what}: the box {seen:?} is not inside the window above the toolbar ({free})"
    );
    let walls = seen.grown(PAST_THE_BOX);
    let (mut strip, mut in_hud, mut stray) = (0usize, 0usize, Vec::new());
    let (mut low, mut high) = ([usize::MAX; 2], [0usize; 2]);
    for (index, (row, pixel)) in picture.pixels().enumerate() {
        let column = index % picture.width;
        if hud.holds(column, row) {
            in_hud += 1;
            strip += usize::from(!is_outside(pixel));
        } else if toolbar.is_some_and(|toolbar| toolbar.holds(column, row)) || is_outside(pixel) {
            continue;
        } else if walls.holds(column, row) {
            low = [low[0].min(column), low[1].min(row)];
            high = [high[0].max(column), high[1].max(row)];
        } else if stray.len() < 5 {
            stray.push((column, row, pixel));
        }
    }
    assert!(
        stray.is_empty(),
        "{what}: drawn outside the HUD and the box: {stray:?}"
    );
    assert!(
        strip as f64 > 0.95 * in_hud as f64,
        "{what}: the HUD's strip covers {strip} of the {in_hud} pixels of {hud:?}"
    );
    let drawn = [
        low[0] as f64,
        low[1] as f64,
        high[0] as f64 + 1.0,
        high[1] as f64 + 1.0,
    ];
    let given = [seen.x, seen.y, seen.x + seen.w, seen.y + seen.h];
    assert!(
        drawn
            .iter()
            .zip(given)
            .all(|(drawn, given)| (drawn - given).abs() <= PAST_THE_BOX),
        "{what}: the box was drawn over {drawn:?}, the window gives {given:?}"
    );
}

#[test]
fn screenshots_show_liquid() {
    if skipped() {
        return;
    }
    assert!(
        on_path("Xvfb"),
        "Xvfb is missing: run the project's test script .ci/test (its .ci/setup installs it), \
         or set SLOSH_SKIP_WINDOW_TESTS=1 where no window can be opened"
    );
    let folder = std::env::temp_dir().join(format!("slosh-window-test-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    for (preset, frames) in [("dam", 40), ("seed", 100), ("fountain", 60)] {
        let picture = screenshot(&folder, preset, frames);
        let total = (picture.width * picture.height) as f64;
        let (mut liquid, mut white, mut liquid_low) = (0usize, 0usize, 0usize);
        for (row, pixel) in picture.pixels() {
            if is_liquid(pixel) {
                liquid += 1;
                liquid_low += (row >= picture.height / 2) as usize;
            }
            white += is_near_white(pixel) as usize;
        }
        let (liquid_share, white_share) = (liquid as f64 / total, white as f64 / total);
        assert!(
            liquid_share > 0.03,
            "{preset}: only {:.1}% liquid-coloured pixels",
            100.0 * liquid_share
        );
        assert!(
            white_share < 0.02,
            "{preset}: {:.1}% near-white pixels (washed out?)",
            100.0 * white_share
        );
        if preset == "dam" {
            assert!(
                liquid_low as f64 > 0.8 * liquid as f64,
                "dam: the water should lie in the lower half ({liquid_low} of {liquid} pixels)"
            );
        }
    }
    std::fs::remove_dir_all(&folder).unwrap();
}

/// The window plays to ALSA's `null` device (in ALSA's library itself: no sound card needed):
/// the sound is on, and the main thread's part of it, listening to the world after each
/// simulation frame and sending the events to the audio thread, stays within the budget of
/// 0.5 ms a frame. Off (and skipped) where ALSA's library is not installed; a device that does not
/// exist leaves the window silent, saying so in one line, and it runs as before.
#[test]
fn the_window_plays_to_alsa_s_null_device_and_runs_silent_without_one() {
    if skipped() {
        return;
    }
    let folder = std::env::temp_dir().join(format!("slosh-sound-test-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let (_, report) = screenshot_playing_to(&folder, "dam", 60, (1280, 720), Some("null"));
    let sound = report["sound"].as_str().unwrap();
    if sound.contains("libasound.so.2 not loaded") {
        eprintln!("ALSA's library is not installed: the window runs silent ({sound})");
    } else {
        assert_eq!(sound, "on", "{report}");
        let ms = report["sound_ms"].as_f64().unwrap();
        assert!(ms > 0.0 && ms < 0.5, "sound_ms {ms} in {report}");
    }
    let (_, report) = screenshot_playing_to(
        &folder,
        "dam",
        10,
        (1280, 720),
        Some("slosh-no-such-device"),
    );
    let sound = report["sound"].as_str().unwrap();
    assert!(sound.starts_with("off: no audio device"), "{sound}");
    assert_eq!(report["sound_ms"].as_f64(), Some(0.0), "nothing heard");
    std::fs::remove_dir_all(&folder).unwrap();
}

/// On a phone's screen, held upright (with the touch toolbar, which a narrow screen shows) and on
/// its side, the HUD and the box are where the window says and apart (`check_hud_and_box`).
#[test]
fn on_a_phone_either_way_up_the_hud_keeps_clear_of_the_box() {
    if skipped() {
        return;
    }
    let folder = std::env::temp_dir().join(format!("slosh-phone-test-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    for (preset, size) in [("seed", (390, 844)), ("dam", (844, 390))] {
        screenshot_sized(&folder, preset, 5, size);
    }
    std::fs::remove_dir_all(&folder).unwrap();
}

/// Light grey smoke over the dark box: bright, not white, and not the obstacles' flat grey
/// (0.42, 0.44, 0.5).
fn is_smoke(pixel: [u8; 3]) -> bool {
    let [r, g, b] = pixel;
    let brightness = (u16::from(r) + u16::from(g) + u16::from(b)) / 3;
    let obstacle = r.abs_diff(107) < 8 && g.abs_diff(112) < 8 && b.abs_diff(128) < 8;
    brightness > 90 && !is_near_white(pixel) && !obstacle
}

#[test]
fn the_smoke_preset_draws_a_plume_above_its_burner() {
    if skipped() {
        return;
    }
    let folder = std::env::temp_dir().join(format!("slosh-smoke-test-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let picture = screenshot(&folder, "smoke", 100);
    // Below the HUD: rows from 120 on.
    let (mut smoke, mut smoke_high, mut counted) = (0usize, 0usize, 0usize);
    for (row, pixel) in picture.pixels().filter(|(row, _)| *row >= 120) {
        counted += 1;
        if is_smoke(pixel) {
            smoke += 1;
            smoke_high += (row < picture.height / 2) as usize;
        }
    }
    let share = smoke as f64 / counted as f64;
    assert!(
        share > 0.03,
        "smoke: only {:.1}% smoky pixels",
        100.0 * share
    );
    assert!(
        smoke_high as f64 > 0.5 * smoke as f64,
        "smoke: the plume should have risen ({smoke_high} of {smoke} pixels in the upper half)"
    );
    std::fs::remove_dir_all(&folder).unwrap();
}

/// Runs the window with `flag` writing to `path` in a folder that does not exist, checks that
/// it exits 2 with one line, and returns the line.
fn unwritable(flag: &str, path: &str) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_slosh"))
        .args(["--frames", "1", flag, path])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    stderr.into_owned()
}

#[test]
fn an_unwritable_screenshot_path_is_one_line_and_exit_2() {
    let stderr = unwritable("--screenshot", "/nonexistent-folder/x.png");
    assert!(stderr.contains("/nonexistent-folder/x.png"), "{stderr}");
}

/// `--gif` renders its frames into an animated GIF that loops at 20 frames a second, shrunk to
/// 400 pixels wide, with the liquid in it; an unwritable path is one line and exit 2.
#[test]
fn gif_mode_writes_an_animated_gif_of_its_frames() {
    let folder = std::env::temp_dir().join(format!("slosh-gif-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join("dam.gif");
    let display = Display::start();
    let output = Command::new(env!("CARGO_BIN_EXE_slosh"))
        .env("DISPLAY", display.name())
        .args(["--preset", "dam", "--frames", "30", "--gif"])
        .arg(&path)
        .output()
        .expect("the window starts");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options
        .read_info(std::fs::File::open(&path).unwrap())
        .unwrap();
    assert_eq!((decoder.width(), decoder.height()), (400, 225));
    let (mut frames, mut hundredths, mut liquid) = (0, 0_u32, 0);
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        frames += 1;
        hundredths += u32::from(frame.delay);
        liquid += frame
            .buffer
            .chunks_exact(4)
            .filter(|p| p[3] != 0 && is_liquid([p[0], p[1], p[2]]))
            .count();
    }
    assert_eq!(frames, 30);
    assert_eq!(hundredths, 150, "30 frames at 20 a second");
    assert!(liquid > 5_000, "liquid-coloured pixels written: {liquid}");

    let stderr = unwritable("--gif", "/nonexistent-folder/x.gif");
    assert!(stderr.contains("cannot write the GIF"), "{stderr}");
}

/// How long any wait below may last before the test fails: a bound for a broken window, not a
/// time anything is expected to take.
const PATIENCE: Duration = Duration::from_secs(300);

/// A virtual X display of its own, stopped when dropped.
struct Display {
    number: u32,
    server: Child,
}

impl Display {
    /// Starts Xvfb on a free display number, which it writes (`-displayfd`) once it accepts
    /// connections.
    fn start() -> Display {
        let mut server = Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                // Room for a phone's window held upright (`--window-size 390x844`).
                "1280x900x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb starts");
        let mut line = String::new();
        BufReader::new(server.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let number = line
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("Xvfb wrote {line:?} instead of its display number"));
        Display { number, server }
    }

    fn name(&self) -> String {
        format!(":{}", self.number)
    }

    /// Runs `xdotool ARGS` on this display.
    fn xdotool(&self, args: &[&str]) {
        let status = Command::new("xdotool")
            .env("DISPLAY", self.name())
            .args(args)
            .status()
            .expect("xdotool runs");
        assert!(status.success(), "xdotool {args:?}");
    }
}

impl Drop for Display {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

/// What the window's standard output said so far: the last state it reported, and its other
/// lines.
#[derive(Default)]
struct Said {
    lines: Vec<String>,
    state: Option<serde_json::Value>,
    closed: bool,
}

/// A window run with `--report-state`, driven with xdotool on `display`: every action waits for
/// the state to show that it took effect.
struct Driven<'a> {
    display: &'a Display,
    window: Child,
    said: Arc<(Mutex<Said>, Condvar)>,
}

impl<'a> Driven<'a> {
    /// Starts `command` (the window, with `--report-state` added) on `display` and waits for its
    /// first frame.
    fn start(display: &'a Display, mut command: Command) -> Self {
        let mut window = command
            .env("DISPLAY", display.name())
            .arg("--report-state")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let said = Arc::new((Mutex::new(Said::default()), Condvar::new()));
        let stdout = window.stdout.take().unwrap();
        let writer = Arc::clone(&said);
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let (said, changed) = &*writer;
                let mut said = said.lock().unwrap();
                match line.strip_prefix("state ") {
                    Some(state) => said.state = serde_json::from_str(state).ok(),
                    None => said.lines.push(line),
                }
                changed.notify_all();
            }
            let (said, changed) = &*writer;
            said.lock().unwrap().closed = true;
            changed.notify_all();
        });
        let driven = Driven {
            display,
            window,
            said,
        };
        driven.wait_for("the first frame", |_| true);
        driven
    }

    /// Waits until the reported state satisfies `done`; fails, saying `what` was awaited, if the
    /// window closes or `PATIENCE` runs out first. Returns that state.
    fn wait_for(&self, what: &str, done: impl Fn(&serde_json::Value) -> bool) -> serde_json::Value {
        let (said, changed) = &*self.said;
        let deadline = Instant::now() + PATIENCE;
        let mut said = said.lock().unwrap();
        loop {
            if let Some(state) = said.state.as_ref().filter(|state| done(state)) {
                return state.clone();
            }
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(
                !said.closed && !left.is_zero(),
                "waited for {what}; the window's last state: {:?}",
                said.state
            );
            said = changed.wait_timeout(said, left).unwrap().0;
        }
    }

    /// The state reported last.
    fn state(&self) -> serde_json::Value {
        self.wait_for("a state", |_| true)
    }

    /// Waits until the window has drawn `count` more frames.
    fn frames(&self, count: u64) {
        let from = self.state()["frame"].as_u64().unwrap();
        self.wait_for(&format!("{count} frames"), |state| {
            state["frame"].as_u64().unwrap() >= from + count
        });
    }

    /// Holds `keys` (xdotool's names, pressed in order) until the state satisfies `done`, then
    /// lets them go in reverse order.
    fn chord(&self, keys: &[&str], what: &str, done: impl Fn(&serde_json::Value) -> bool) {
        for key in keys {
            self.display.xdotool(&["keydown", key]);
        }
        self.wait_for(what, done);
        for key in keys.iter().rev() {
            self.display.xdotool(&["keyup", key]);
        }
        self.frames(1);
    }

    /// Presses `key` until the state field `field` reads `value`.
    fn key_until(&self, key: &str, field: &str, value: serde_json::Value) {
        self.chord(&[key], &format!("{key}: {field} = {value}"), |state| {
            state[field] == value
        });
    }

    /// Presses `keys` until the state field `field` (a count) has grown.
    fn chord_until_more(&self, keys: &[&str], field: &str) {
        let before = self.state()[field].as_u64().unwrap();
        self.chord(keys, &format!("{keys:?}: more {field}"), |state| {
            state[field].as_u64().unwrap() > before
        });
    }

    /// Moves the pointer to `at` and waits for a frame to see it there.
    fn move_to(&self, at: (u32, u32)) {
        self.display
            .xdotool(&["mousemove", &at.0.to_string(), &at.1.to_string()]);
        self.frames(1);
    }

    /// A left drag from `from` to `to` in eight steps, a frame seen at each; `over_world` says
    /// whether it starts over the world (the state then shows the button held) or the panel.
    fn drag(&self, from: (u32, u32), to: (u32, u32), over_world: bool) {
        self.move_to(from);
        self.display.xdotool(&["mousedown", "1"]);
        if over_world {
            self.wait_for("the button held", |state| state["held"] == true);
        } else {
            self.frames(2);
        }
        for step in 1..=8 {
            let x = from.0 as f32 + (to.0 as f32 - from.0 as f32) * step as f32 / 8.0;
            let y = from.1 as f32 + (to.1 as f32 - from.1 as f32) * step as f32 / 8.0;
            self.move_to((x.round() as u32, y.round() as u32));
        }
        self.display.xdotool(&["mouseup", "1"]);
        self.wait_for("the button let go", |state| state["held"] == false);
        self.frames(1);
    }

    /// Waits for the window to close by itself; returns its exit status and its standard
    /// output's lines other than the state.
    fn finish(mut self) -> (std::process::ExitStatus, Vec<String>, String) {
        let status = self.window.wait().unwrap();
        let mut stderr = String::new();
        self.window
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        let (said, changed) = &*self.said;
        let mut said = said.lock().unwrap();
        while !said.closed {
            said = changed.wait(said).unwrap();
        }
        (status, std::mem::take(&mut said.lines), stderr)
    }
}

/// Regression: Shift, a digit and Shift's release typed together (one xdotool call, the events
/// microseconds apart, so within one frame) open the second row's preset. The window read Shift
/// from the keyboard's state when the frame ran, by then up again, and opened the first row's.
#[test]
fn a_shift_digit_typed_within_one_frame_opens_the_second_row() {
    if skipped() {
        return;
    }
    let display = Display::start();
    let mut command = Command::new(env!("CARGO_BIN_EXE_slosh"));
    command.args(["--preset", "seed", "--particles", "500"]);
    let window = Driven::start(&display, command);
    window.move_to((1200, 700));
    display.xdotool(&["key", "--delay", "0", "shift+3"]);
    let opened = window.wait_for("a preset opened", |state| state["preset"] != "seed");
    assert_eq!(
        opened["preset"], "bath",
        "Shift+3 opened {}",
        opened["preset"]
    );
    display.xdotool(&["key", "Escape"]);
    let (status, _, stderr) = window.finish();
    assert!(status.success(), "{stderr}");
}

/// Drives every tool with xdotool while recording, quits, replays the recording headless and
/// compares the checksums; leaves screenshots of the tools and the panel in the test's folder.
#[test]
fn every_tool_driven_by_xdotool_records_a_replay_that_ends_alike() {
    if skipped() {
        return;
    }
    assert!(on_path("Xvfb") && on_path("xdotool"), "run .ci/setup");
    let folder = std::env::temp_dir().join(format!("slosh-tools-test-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let replay = folder.join("tools.replay");
    // The dam without its crate: the stir below can fling the crate anywhere, and a wall drawn
    // where it flew would be refused (bodies and their tool have tests of their own).
    let (_, dam) = slosh::preset::BUILTIN
        .iter()
        .find(|(name, _)| *name == "dam")
        .unwrap();
    // Outside the test's folder, where the window's own saved preset (F7) is looked for.
    let still = std::env::temp_dir().join(format!(
        "slosh-tools-test-{}-dam-without-crate.toml",
        std::process::id()
    ));
    std::fs::write(&still, &dam[..dam.find("[[bodies]]").unwrap()]).unwrap();
    let display = Display::start();
    let mut command = Command::new(env!("CARGO_BIN_EXE_slosh"));
    command
        .current_dir(&folder)
        .arg("--preset")
        .arg(&still)
        .args(["--particles", "1500", "--record"])
        .arg(&replay);
    let window = Driven::start(&display, command);
    // Stir through the pool, pour the palette's second material, erase a hole.
    window.drag((300, 600), (900, 560), true);
    window.key_until("w", "tool", "pour".into());
    // The dam has one liquid: Tab goes on to the library's next, oil, which the pour brings in.
    window.chord(&["Tab"], "the next liquid", |state| {
        state["message"]
            .as_str()
            .is_some_and(|message| message.starts_with("pouring oil"))
    });
    window.drag((640, 200), (700, 220), true);
    window.key_until("e", "tool", "erase".into());
    window.drag((400, 620), (420, 600), true);
    // Undo the hole and redo it (Ctrl+Z, Ctrl+Shift+Z), undo it and redo it again (Ctrl+Y).
    window.chord_until_more(&["ctrl", "z"], "redo");
    window.chord_until_more(&["ctrl", "shift", "z"], "undo");
    window.chord_until_more(&["ctrl", "z"], "redo");
    window.chord_until_more(&["ctrl", "y"], "undo");
    // Heat the pool beside the hole, then cool it.
    window.key_until("a", "tool", "heat".into());
    window.drag((700, 620), (760, 620), true);
    window.key_until("z", "tool", "cool".into());
    window.drag((760, 620), (700, 620), true);
    // Draw a wall, then click it away and draw another that stays.
    window.key_until("d", "tool", "draw".into());
    window.drag((500, 380), (800, 420), true);
    window.drag((650, 400), (650, 400), true);
    window.drag((450, 330), (750, 300), true);
    window.chord_until_more(&["F12"], "saved");
    // Tilt the box (held for 20 frames), tune on the panel, save a preset and a snapshot.
    let tilted_from = window.state()["frame"].as_u64().unwrap();
    window.chord(&["Left"], "20 frames of tilting", |state| {
        state["frame"].as_u64().unwrap() >= tilted_from + 20
    });
    window.key_until("t", "panel", true.into());
    // The first slider (stiffness) of the panel at the top right: drag along its track.
    window.drag((1000, 70), (1150, 70), false);
    // The engine's figures show on F3.
    window.key_until("F3", "stats", true.into());
    for key in ["F12", "F7", "F6"] {
        window.chord_until_more(&[key], "saved");
    }
    display.xdotool(&["key", "Escape"]);
    let (status, lines, stderr) = window.finish();
    assert!(status.success(), "{}\n{stderr}", lines.join("\n"));
    let last: serde_json::Value = serde_json::from_str(lines.last().unwrap()).unwrap();
    assert_eq!(
        (last["nan"].as_u64(), last["escaped"].as_u64()),
        (Some(0), Some(0))
    );
    let checksum = last["checksum"].as_str().unwrap().to_string();

    let recording = std::fs::read_to_string(&replay).unwrap();
    for verb in [
        " stir ",
        " pour oil ",
        " erase ",
        " heat ",
        " draw capsule ",
        " undraw 0",
        " gravity ",
        // The panel tunes the material in hand: the oil Tab picked and the pour brought in.
        " tune 1 stiffness ",
        " undo\n",
        " redo\n",
    ] {
        assert!(
            recording.contains(verb),
            "no `{verb}` recorded:\n{recording}"
        );
    }
    assert!(recording.trim_end().ends_with(&checksum), "{recording}");
    let replayed = Command::new(env!("CARGO_BIN_EXE_slosh"))
        .args(["--headless", "--replay"])
        .arg(&replay)
        .output()
        .unwrap();
    assert!(replayed.status.success(), "{replayed:?}");
    let report: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&replayed.stdout).trim()).unwrap();
    assert_eq!(report["checksum"].as_str().unwrap(), checksum);

    // F6 and F7 wrote a snapshot and a preset the program opens again.
    let saved = |ending: &str| {
        std::fs::read_dir(&folder)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .find(|path| path.to_string_lossy().ends_with(ending))
            .unwrap_or_else(|| panic!("no *{ending} saved"))
    };
    let preset = saved(".toml");
    let run = Command::new(env!("CARGO_BIN_EXE_slosh"))
        .args(["--headless", "--frames", "5", "--preset"])
        .arg(&preset)
        .output()
        .unwrap();
    assert!(run.status.success(), "{run:?}");
    let text = std::fs::read_to_string(&preset).unwrap();
    assert!(
        text.contains("capsule"),
        "the drawn wall is in the preset:\n{text}"
    );
    // The snapshot reopens (its checksum is checked on load) and runs on.
    let snapshot = saved(".snapshot.json");
    let resumed = Command::new(env!("CARGO_BIN_EXE_slosh"))
        .args(["--headless", "--frames", "3", "--load"])
        .arg(&snapshot)
        .output()
        .unwrap();
    assert!(resumed.status.success(), "{resumed:?}");

    // The window plays the recording back to the same checksum, then exits by itself.
    let played = Command::new(env!("CARGO_BIN_EXE_slosh"))
        .current_dir(&folder)
        .env("DISPLAY", display.name())
        .arg("--replay")
        .arg(&replay)
        .output()
        .unwrap();
    assert!(played.status.success(), "{played:?}");
    let stdout = String::from_utf8_lossy(&played.stdout).into_owned();
    let last: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(last["checksum"].as_str().unwrap(), checksum, "{stdout}");
    assert_eq!(last["recorded_checksum"].as_str().unwrap(), checksum);
    let pictures = std::fs::read_dir(&folder)
        .unwrap()
        .filter(|entry| entry.as_ref().unwrap().path().extension() == Some("png".as_ref()))
        .count();
    assert!(pictures >= 1, "F12 saved no screenshot");
    std::fs::remove_file(&still).unwrap();
    if std::env::var_os("SLOSH_KEEP_TEST_PICTURES").is_none() {
        std::fs::remove_dir_all(&folder).unwrap();
    } else {
        eprintln!("pictures kept in {}", folder.display());
    }
}

/// The sandbox's palette, driven with xdotool: I opens it, a click on the lava's swatch (the
/// fourth row) picks lava, and the pour tool then pours lava into the empty box; the window's
/// final line gives the palette's rectangle, clear of the box and of the HUD.
#[test]
fn the_palette_picks_a_material_with_a_click_and_keeps_clear_of_the_box() {
    if skipped() {
        return;
    }
    assert!(on_path("Xvfb") && on_path("xdotool"), "run .ci/setup");
    let display = Display::start();
    let mut command = Command::new(env!("CARGO_BIN_EXE_slosh"));
    command.args(["--preset", "sandbox", "--window-size", "1280x720"]);
    let window = Driven::start(&display, command);
    window.move_to((640, 700));
    window.key_until("i", "palette", serde_json::json!(true));
    // The column's fourth swatch: 8 px from the top, 6 inside the frame, a 22-px title, rows of
    // 24, their middle.
    window.move_to((1197, 8 + 6 + 22 + 3 * 24 + 12));
    display.xdotool(&["mousedown", "1"]);
    window.wait_for("lava picked", |state| state["material"] == 3);
    display.xdotool(&["mouseup", "1"]);
    window.key_until("w", "tool", serde_json::json!("pour"));
    window.move_to((640, 400));
    display.xdotool(&["mousedown", "1"]);
    window.wait_for("the button held", |state| state["held"] == true);
    window.frames(10);
    display.xdotool(&["mouseup", "1"]);
    window.wait_for("the pour done", |state| state["held"] == false);
    display.xdotool(&["key", "Escape"]);
    let (status, lines, stderr) = window.finish();
    assert!(status.success(), "{}\n{stderr}", lines.join("\n"));
    let last: serde_json::Value = serde_json::from_str(lines.last().unwrap()).unwrap();
    let palette = Rect::of(&last, "palette").expect("the palette is open");
    let (hud, world_box) = (
        Rect::of(&last, "hud").unwrap(),
        Rect::of(&last, "box").unwrap(),
    );
    assert!(!palette.overlaps(world_box), "{last}");
    assert!(!palette.overlaps(hud), "{last}");
    assert!(
        last["particles"].as_u64().unwrap() > 20,
        "lava was poured: {last}"
    );
    assert_eq!(
        (last["nan"].as_u64(), last["escaped"].as_u64()),
        (Some(0), Some(0))
    );
}
