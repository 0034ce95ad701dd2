//! The demo window (macroquad): the main loop, screenshots and screenshot mode. The only part of
//! the crate that uses macroquad.

mod game;
mod hud;
mod input;
mod render;
mod smoke;
mod splats;

pub use game::{
    rescaled, Command, FixedStep, Game, PresetSource, Resolution, Shading, MAX_FRAMES_PER_DISPLAY,
};
pub use hud::CONTROLS;

use crate::preset::{one_line, Preset, BUILTIN};
use macroquad::prelude::{get_screen_data, next_frame, screen_height, screen_width, Vec2};
use render::{Renderer, View};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// Window title (scripts find the window by it).
pub const TITLE: &str = "slosh";

/// Frames rendered before a screenshot when `--frames` is not given.
pub const DEFAULT_SCREENSHOT_FRAMES: u64 = 120;

/// What the window is asked to do.
#[derive(Clone, Debug, PartialEq)]
pub struct WindowOptions {
    /// Preset name, or a path to a `.toml` file.
    pub preset: String,
    /// Particle count every preset is rescaled to.
    pub particles: Option<usize>,
    /// Without a count: pick each preset's count from this machine's speed (`--particles
    /// auto`, the default); else run presets at their own resolution.
    pub auto_particles: bool,
    /// Seed of all randomness.
    pub seed: u64,
    /// Frames to render before quitting (and saving the screenshot).
    pub frames: Option<u64>,
    /// Save a PNG of the window after the last frame.
    pub screenshot: Option<PathBuf>,
}

/// Opens the window and runs until Esc, or until `--frames` frames (saving `--screenshot` after
/// the last one). Errors are one line: a preset that does not load, a screenshot path that cannot
/// be written, shaders that do not compile.
pub fn run(options: &WindowOptions) -> Result<(), String> {
    let resolution = match (options.particles, &options.screenshot) {
        (Some(particles), _) => Resolution::Fixed(particles),
        (None, Some(_)) => Resolution::Own,
        (None, None) if options.auto_particles => Resolution::Auto,
        (None, None) => Resolution::Own,
    };
    let preset = Preset::load(&options.preset).map_err(|error| error.to_string())?;
    let preset = rescaled(preset, resolution)?;
    let source = if options.preset.ends_with(".toml") {
        PresetSource::File(PathBuf::from(&options.preset))
    } else {
        let key = BUILTIN
            .iter()
            .position(|(name, _)| *name == options.preset)
            .map_or(0, |index| index + 1);
        PresetSource::Builtin {
            name: options.preset.clone(),
            key,
        }
    };
    if let Some(path) = &options.screenshot {
        check_writable(path)?;
    }
    let game = Game::new(preset, source, options.seed, resolution);
    let conf = macroquad::conf::Conf {
        miniquad_conf: macroquad::miniquad::conf::Conf {
            window_title: TITLE.into(),
            window_width: 1280,
            window_height: 720,
            high_dpi: false,
            window_resizable: true,
            ..Default::default()
        },
        draw_call_vertex_capacity: render::DRAW_CALL_VERTICES,
        draw_call_index_capacity: render::DRAW_CALL_INDICES,
        ..Default::default()
    };
    let outcome = Rc::new(RefCell::new(Ok(())));
    let result = Rc::clone(&outcome);
    let options = options.clone();
    macroquad::Window::from_config(conf, async move {
        let ended = main_loop(game, &options).await;
        *result.borrow_mut() = ended;
    });
    outcome.replace(Ok(()))
}

/// One displayed frame after another until the player quits or the frame count is reached.
async fn main_loop(mut game: Game, options: &WindowOptions) -> Result<(), String> {
    let mut renderer = Renderer::new()?;
    let presets = Preset::builtins();
    let mut mouse = input::Mouse::default();
    let mut timing = hud::Timing::default();
    let screenshot_mode = options.screenshot.is_some();
    let last_frame = options
        .frames
        .or(screenshot_mode.then_some(DEFAULT_SCREENSHOT_FRAMES));
    let mut clock = Instant::now();
    let mut frame = 0_u64;
    loop {
        frame += 1;
        let dt = clock.elapsed().as_secs_f64();
        clock = Instant::now();
        game.poll_file();
        for command in input::commands() {
            game.apply(command);
        }
        if game.quit_requested() {
            println!("{}", final_state(&game, &renderer));
            return Ok(());
        }
        let notches = input::wheel_notches();
        if notches != 0.0 {
            game.scale_stir_radius(1.12_f32.powf(notches));
        }
        let view = View::fit(&game.world, Vec2::new(screen_width(), screen_height()));
        mouse.update(&view, dt as f32);
        // Screenshot mode steps once per rendered frame, so the picture does not depend on how
        // fast this machine renders.
        let due = if screenshot_mode {
            1
        } else {
            game.frames_due(dt)
        };
        for _ in 0..due {
            game.step(mouse.stir(game.stir_radius), mouse.pull());
        }
        timing.update(dt, game.sim_ms);
        let fraction = if screenshot_mode || game.paused {
            1.0
        } else {
            game.clock.fraction()
        };
        renderer.draw_world(&game, &view, fraction);
        timing.splat_ms = renderer.splat_millis();
        timing.splat_prepare_ms = renderer.splat_prepare_millis();
        if !screenshot_mode {
            hud::draw_cursor(
                &view,
                mouse.position,
                game.stir_radius,
                mouse.stirring || mouse.pulling,
            );
        }
        hud::draw(&game, &timing, &presets);

        if game.take_screenshot_request() {
            let path = PathBuf::from(timestamped_name(SystemTime::now()));
            match save_screenshot(&path) {
                Ok(()) => {
                    println!("{}", path.display());
                    game.say(format!("saved {}", path.display()));
                }
                Err(error) => game.say(error),
            }
        }
        if last_frame == Some(frame) {
            if let Some(path) = &options.screenshot {
                save_screenshot(path)?;
            }
            println!("{}", final_state(&game, &renderer));
            return Ok(());
        }
        next_frame().await;
    }
}

/// The state the window leaves behind, as one line of JSON on exit (for scripts that drive the
/// window and check that the fluid came through whole), with the renderer's CPU cost per frame
/// (`splat_ms`: prepare and submit the splats; `splat_prepare_ms`: the part before the draw
/// calls, which a software rasterizer does not inflate).
fn final_state(game: &Game, renderer: &Renderer) -> String {
    let stats = game.world.stats();
    serde_json::json!({
        "preset": game.preset.name,
        "particles": stats.particles,
        "splat_ms": renderer.splat_millis(),
        "splat_prepare_ms": renderer.splat_prepare_millis(),
        "nan": stats.nan,
        "escaped": stats.escaped,
        "max_speed": finite_or_minus_one(stats.max_speed.into()),
        "kinetic_energy": finite_or_minus_one(stats.kinetic_energy),
        "simulated_seconds": game.world.time(),
    })
    .to_string()
}

/// JSON has no NaN or infinity; such values (counted in `nan` anyway) are written as −1.
fn finite_or_minus_one(value: f64) -> f64 {
    if value.is_finite() {
        value
    } else {
        -1.0
    }
}

/// Fails with a one-line error when `path` cannot be written (checked before the window opens).
fn check_writable(path: &Path) -> Result<(), String> {
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|error| {
            one_line(&format!(
                "cannot write the screenshot to {}: {error}",
                path.display()
            ))
        })?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// Saves what the window shows now as an opaque PNG.
fn save_screenshot(path: &Path) -> Result<(), String> {
    let image = get_screen_data();
    let (width, height) = (image.width as usize, image.height as usize);
    // The screen comes bottom row first.
    let mut rows = Vec::with_capacity(width * height * 4);
    for row in image.bytes.chunks_exact(width * 4).rev() {
        rows.extend(row.chunks_exact(4).flat_map(|p| [p[0], p[1], p[2], 255]));
    }
    write_png(path, width as u32, height as u32, &rows).map_err(|error| {
        one_line(&format!(
            "cannot write the screenshot to {}: {error}",
            path.display()
        ))
    })
}

fn write_png(path: &Path, width: u32, height: u32, rgba: &[u8]) -> Result<(), String> {
    let file = std::fs::File::create(path).map_err(|error| error.to_string())?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Best);
    encoder.set_adaptive_filter(png::AdaptiveFilterType::Adaptive);
    let mut writer = encoder.write_header().map_err(|error| error.to_string())?;
    writer
        .write_image_data(rgba)
        .map_err(|error| error.to_string())?;
    writer.finish().map_err(|error| error.to_string())
}

/// `slosh-YYYYMMDD-HHMMSS.png` for `time` (UTC).
pub fn timestamped_name(time: SystemTime) -> String {
    let seconds = time
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs());
    let (days, of_day) = ((seconds / 86_400) as i64, seconds % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!(
        "slosh-{year:04}{month:02}{day:02}-{:02}{:02}{:02}.png",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn screenshot_names_carry_the_utc_time() {
        let time = UNIX_EPOCH + Duration::from_secs(1_795_000_000);
        assert_eq!(timestamped_name(time), "slosh-20261118-110640.png");
    }
}
