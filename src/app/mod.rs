//! The demo window (macroquad): the main loop, screenshots and screenshot mode. The only part of
//! the crate that uses macroquad.

mod audio;
mod draw;
mod game;
mod input;

pub use crate::cli::WindowOptions;
pub use crate::level::Tool;
pub use audio::{Audio, Status as SoundStatus, DEVICE_VARIABLE};
pub use draw::hud::CONTROLS;
pub use game::display::{Display, Shading};
pub use game::levels::{data_file, Progress, SoundSettings};
pub use game::recording::Recording;
pub use game::session::{
    rescaled_to, FixedStep, PresetSource, Resolution, Scale, Session, MAX_FRAMES_PER_DISPLAY,
};
pub use game::tools::{FrameInput, Tools, HEAT_RATE};
pub use game::{Command, Game, WEB};

use crate::preset::{one_line, Preset, BUILTIN};
use crate::replay::{Feed, Input, Recorder, Replay};
use crate::share::{Opened, Shared};
use crate::sim::numerics::clock::Instant;
use crate::sim::numerics::portable::Ordered;
use draw::layout::{as_json, Layout, Parts};
use draw::render::Renderer;
use game::page::PageMode;
use macroquad::prelude::{get_screen_data, next_frame, screen_height, screen_width, Rect, Vec2};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{SystemTime, UNIX_EPOCH};

/// Window title (scripts find the window by it).
pub const TITLE: &str = "slosh";

/// Frames rendered before a screenshot when `--frames` is not given.
pub const DEFAULT_SCREENSHOT_FRAMES: u64 = 120;

/// Opens the window and runs until Esc, or until `--frames` frames (saving `--screenshot` after
/// the last one). Errors are one line: a preset that does not load, a screenshot path that cannot
/// be written, shaders that do not compile.
pub fn run(options: &WindowOptions) -> Result<(), String> {
    // A web page has no `std::time`: the clock reads the page's.
    crate::sim::numerics::clock::set_source(macroquad::miniquad::date::now);
    // The simulation's parallel passes start from this thread. As one of the pool's threads it
    // works on them itself, instead of handing each one to the pool and sleeping until it is
    // done (a wake-up per pass, which the air's many short passes felt most). Fails only if
    // the pool already exists, and then it stays as it is.
    #[cfg(not(target_arch = "wasm32"))]
    let _ = rayon::ThreadPoolBuilder::new()
        .use_current_thread()
        .build_global();
    // A page's address may ask it to check the golden checksums or to play a replay beside it;
    // an address it does not know is said in the page, which then plays as usual.
    let (mode, mode_error) = match game::page::mode() {
        Ok(mode) => (mode, None),
        Err(error) => (PageMode::Play, Some(error)),
    };
    let feed = match (&options.replay, &options.linked_replay) {
        (Some(path), _) => Some(Feed::new(Replay::load(path)?)),
        (None, Some(replay)) => Some(Feed::new(replay.clone())),
        (None, None) => None,
    };
    // Natively the game is made before the window opens, so that a preset or file that does not
    // load is an error and an exit code; a page fetches its replay first.
    let opening = match mode {
        PageMode::Play => {
            let mut game = new_game(options, feed)?;
            if let Some(error) = mode_error {
                game.say(error);
            }
            Opening::Play(Box::new(game))
        }
        PageMode::Open(link) => {
            let (game, said) = match opened_from_link(options, &link) {
                Ok((options, feed)) => (new_game(&options, feed)?, None),
                Err(error) => (new_game(options, feed)?, Some(error)),
            };
            let mut game = game;
            match said {
                Some(error) => {
                    macroquad::logging::error!("slosh: {}", error);
                    game.say(error);
                }
                None => {
                    let name = game.session.preset.name.clone();
                    macroquad::logging::info!("slosh: opened link: {}", name);
                    game.say(format!("{name}: opened from the link"));
                }
            }
            Opening::Play(Box::new(game))
        }
        PageMode::Golden => Opening::Golden,
        PageMode::Replay(file) => Opening::Fetch(file),
    };
    if let Some(path) = &options.screenshot {
        check_writable(path, "screenshot")?;
    }
    if let Some(path) = &options.gif {
        check_writable(path, "GIF")?;
    }
    let conf = macroquad::conf::Conf {
        miniquad_conf: macroquad::miniquad::conf::Conf {
            window_title: TITLE.into(),
            window_width: options.window_size.0 as i32,
            window_height: options.window_size.1 as i32,
            high_dpi: false,
            window_resizable: true,
            ..Default::default()
        },
        draw_call_vertex_capacity: draw::render::DRAW_CALL_VERTICES,
        draw_call_index_capacity: draw::render::DRAW_CALL_INDICES,
        ..Default::default()
    };
    let outcome = Rc::new(RefCell::new(Ok(())));
    let result = Rc::clone(&outcome);
    let options = options.clone();
    macroquad::Window::from_config(conf, async move {
        let ended = match opening {
            Opening::Play(game) => main_loop(*game, &options).await,
            Opening::Golden => golden_page().await,
            Opening::Fetch(file) => match fetch_replay(&file).await {
                Ok(feed) => match new_game(&options, Some(feed)) {
                    Ok(game) => main_loop(game, &options).await,
                    Err(error) => Err(error),
                },
                Err(error) => Err(error),
            },
        };
        if let (true, Err(error)) = (WEB, &ended) {
            // A page has no exit code: the console says it.
            macroquad::logging::error!("slosh: {}", error);
        }
        *result.borrow_mut() = ended;
    });
    outcome.replace(Ok(()))
}

/// The options and replay a page's link opens (`#s1.…`): its scene, particle count and seed,
/// or its replay. A damaged link, or one the loaders refuse, is one line to show.
fn opened_from_link(
    options: &WindowOptions,
    link: &str,
) -> Result<(WindowOptions, Option<Feed>), String> {
    let opened = Shared::decode(link)
        .and_then(|shared| shared.open())
        .map_err(|error| format!("cannot open the link: {}", one_line(&error.to_string())))?;
    let mut options = options.clone();
    match opened {
        Opened::Start {
            source,
            particles,
            seed,
        } => {
            options.level = Preset::load(&source).is_ok_and(|preset| preset.level.is_some());
            options.preset = source;
            options.particles = particles;
            options.seed = seed;
            Ok((options, None))
        }
        Opened::Replay(replay) => Ok((options, Some(Feed::new(replay)))),
    }
}

/// What the window does once it is open.
enum Opening {
    /// Run this game.
    Play(Box<Game>),
    /// Check the golden checksums (a page's `#golden`).
    Golden,
    /// Fetch this replay file from beside the page and play it (a page's `#replay=FILE`).
    Fetch(String),
}

/// The game the window opens with: the replay's start when playing one (`feed`), else the
/// options' preset, resolution and seed, or the snapshot given with `--load`. It records every
/// input: to `--record`'s file, else in memory (F8 saves the replay so far).
fn new_game(options: &WindowOptions, feed: Option<Feed>) -> Result<Game, String> {
    // A page runs every preset at its own resolution: one thread, and figures comparable with
    // the native program's.
    let auto = options.auto_particles && !WEB;
    let resolution = match (options.particles, options.screenshot_mode()) {
        (Some(particles), _) => Resolution::Fixed(particles),
        (None, true) => Resolution::Own,
        (None, false) if auto => Resolution::Auto,
        (None, false) => Resolution::Own,
    };
    // A replay starts from the preset, particles and seed it recorded.
    let (preset_name, seed, resolution) = match feed.as_ref().map(Feed::replay) {
        Some(replay) => match replay.inputs.first() {
            Some((
                _,
                Input::Preset {
                    source, particles, ..
                },
                _,
            )) => (
                source.clone(),
                replay.seed,
                particles.map_or(Resolution::Own, Resolution::Fixed),
            ),
            _ => return Err(format!("{}: no preset to start from", replay.file)),
        },
        None => (options.preset.clone(), options.seed, resolution),
    };
    let preset = if options.level {
        Preset::load_level(&preset_name)
    } else {
        Preset::load(&preset_name)
    }
    .map_err(|error| error.to_string())?;
    let (preset, scale) = rescaled_to(preset, resolution)?;
    let source = if preset_name.ends_with(".toml") {
        PresetSource::File(PathBuf::from(&preset_name))
    } else {
        let key = BUILTIN
            .iter()
            .position(|(name, _)| *name == preset_name)
            .map_or(0, |index| index + 1);
        PresetSource::Builtin {
            name: preset_name.clone(),
            key,
        }
    };
    let recorder = match (&options.record, &feed) {
        (Some(path), _) => Some(Recorder::create(path, seed)?),
        (None, None) => Some(Recorder::in_memory(seed)),
        // A replay being played is not recorded again.
        (None, Some(_)) => None,
    };
    let mut game = Game::with_inputs(preset, source, seed, resolution, scale, recorder, feed);
    game.progress = Progress::load();
    game.display.stats = options.stats;
    game.display.lite = options.lite;
    if let Some(path) = &options.load {
        let (preset, world) = crate::snapshot::load(path)?;
        game.open_snapshot(preset, world);
    }
    Ok(game)
}

/// The replay file `file` from beside the page (or, natively, from the current folder), read
/// and checked.
async fn fetch_replay(file: &str) -> Result<Feed, String> {
    let text = macroquad::file::load_string(file)
        .await
        .map_err(|error| format!("cannot fetch the replay {file}: {error}"))?;
    Ok(Feed::new(Replay::parse(file, &text)?))
}

/// The page opened as `#golden`: runs every golden case (`golden::CHECKSUMS`) on the page's one
/// thread, a case between two drawn frames, and reports each on the console, then the tally as
/// `slosh: golden {"matched": M, "of": N, …}` (the browser test reads it).
async fn golden_page() -> Result<(), String> {
    use crate::golden::{check, parse, CHECKSUMS, CHECKSUMS_FILE};
    use macroquad::prelude::{clear_background, draw_text, Color};
    let cases = parse(CHECKSUMS_FILE, CHECKSUMS)?;
    let started = Instant::now();
    let mut matched = 0;
    let show = |lines: &[String]| {
        clear_background(Color::new(0.06, 0.07, 0.09, 1.0));
        for (row, line) in lines.iter().enumerate() {
            draw_text(
                line,
                40.0,
                60.0 + 32.0 * row as f32,
                28.0,
                Color::new(0.9, 0.9, 0.9, 1.0),
            );
        }
    };
    for (index, case) in cases.iter().enumerate() {
        let doing = format!(
            "golden checksums: case {} of {}: {}",
            index + 1,
            cases.len(),
            case.key().replace('\t', " ")
        );
        // Two frames, so that the page shows where it is before the case holds the thread.
        for _ in 0..2 {
            show(&[doing.clone(), format!("{matched} matched so far")]);
            next_frame().await;
        }
        let outcome = check(CHECKSUMS_FILE, std::slice::from_ref(case));
        matched += outcome.matched;
        match outcome.failures.first() {
            None => {
                macroquad::logging::info!("slosh: golden ok: {}", case.key().replace('\t', " "))
            }
            Some(failure) => macroquad::logging::warn!("slosh: golden differs: {}", failure),
        }
    }
    let summary = serde_json::json!({
        "matched": matched,
        "of": cases.len(),
        "lanes": crate::sim::lanes_name(),
        "seconds": (started.elapsed().as_secs_f64() * 10.0).round() / 10.0,
    });
    macroquad::logging::info!("slosh: golden {}", summary);
    let result = [
        format!("golden checksums: {matched} of {} matched", cases.len()),
        format!(
            "on {} lanes, in {:.1} s (the console lists each case)",
            crate::sim::lanes_name(),
            started.elapsed().as_secs_f64()
        ),
    ];
    loop {
        show(&result);
        next_frame().await;
    }
}

/// One displayed frame after another until the player quits or the frame count is reached.
async fn main_loop(mut game: Game, options: &WindowOptions) -> Result<(), String> {
    let mut renderer = Renderer::new()?;
    warm_font_cache();
    let presets = Preset::builtins();
    let mut mouse = input::Mouse::default();
    let mut keyboard = input::Keyboard::new();
    let mut timing = draw::stats::Timing::default();
    let mut panel = draw::panel::Panel::default();
    let mut toolbar = draw::toolbar::Toolbar::default();
    let mut web_log = WebLog::default();
    let mut state_report = game::state_report::StateReport::new(options.report_state, WEB);
    let mut audio = Audio::open(game.session.seed());
    let screenshot_mode = options.screenshot_mode();
    // `--gif` keeps every frame; the window keeps the last seconds (F9); a screenshot, none.
    let mut capture = match (&options.gif, screenshot_mode) {
        (Some(_), _) => {
            Some(draw::capture::Capture::start(true).ok_or("cannot start the GIF writer")?)
        }
        (None, true) => None,
        (None, false) => draw::capture::Capture::start(false),
    };
    let last_frame = options
        .frames
        .or(screenshot_mode.then_some(DEFAULT_SCREENSHOT_FRAMES));
    let mut clock = Instant::now();
    let mut frame = 0_u64;
    let mut replay_reported = false;
    let mut shown = Shown::default();
    loop {
        frame += 1;
        let dt = clock.elapsed().as_secs_f64();
        clock = Instant::now();
        if let Some(ms) = capture.as_mut().and_then(draw::capture::Capture::collect) {
            timing.note_capture(ms);
        }
        game.poll_file();
        let open = match (game.menu.open, game.scenes.open) {
            (true, _) => input::Open::Levels,
            (_, true) => input::Open::Scenes,
            _ => input::Open::Nothing,
        };
        for command in input::commands(open, &keyboard.take()) {
            game.apply(command);
        }
        if game.quit_requested() {
            return finish(&mut game, &renderer, &timing, &shown);
        }
        if game.replay_finished() && !replay_reported {
            // Natively the window closes at a replay's end; a page reports it on the console
            // and goes on showing the last frame.
            if !WEB {
                return finish(&mut game, &renderer, &timing, &shown);
            }
            replay_reported = true;
            if let Err(error) = finish(&mut game, &renderer, &timing, &shown) {
                macroquad::logging::error!("slosh: {}", error);
            }
            let ended = match game.recorded_checksum() {
                Some(recorded) if recorded == game.session.world.checksum() => {
                    "at its recorded checksum"
                }
                _ => "at another checksum than it recorded",
            };
            game.say(format!("the replay ended {ended}"));
        }
        let notches = input::wheel_notches();
        if notches != 0.0 {
            game.scale_stir_radius(crate::sim::numerics::portable::powf(1.12, notches));
        }
        game.turn_gravity(
            input::tilt_direction() * game::tools::TILT_SPEED * dt.at_most(0.25) as f32,
        );
        // The box keeps clear of the HUD, and of the toolbar on a touch screen.
        let compact = toolbar.shown();
        let layout = Layout::new(
            &game.session.world,
            Vec2::new(screen_width(), screen_height()),
            Parts {
                level: game.attempt().is_some(),
                legend: game.display.shading == Shading::Temperature,
                banner: game.session.reload_error.is_some(),
                stats: if game.display.stats {
                    draw::stats::rows(&game)
                } else {
                    0
                },
                toolbar: compact,
                palette: if game.display.palette {
                    game.tools.offered(&game.session.world).len()
                } else {
                    0
                },
            },
        );
        let view = layout.view;
        mouse.update(&view, dt as f32);
        let pixel = Vec2::from(macroquad::prelude::mouse_position());
        if panel.captures(&game, pixel) {
            mouse.release();
        }
        toolbar.update();
        if toolbar.captures(pixel) {
            if mouse.pressed {
                if let Some(command) = toolbar.command_at(pixel) {
                    game.apply(command);
                }
            }
            mouse.release();
        }
        if let Some(grid) = layout.palette.filter(|grid| grid.rect.contains(pixel)) {
            // The palette takes the mouse: a click picks the material under it.
            if mouse.pressed {
                let materials = game.tools.offered(&game.session.world).len();
                if let Some(index) = grid.row_at(materials, pixel) {
                    game.apply(Command::SelectMaterial(index));
                }
            }
            mouse.release();
        }
        if game.scenes.open {
            // The scene menu takes the mouse: a click opens the scene under it.
            if mouse.pressed {
                let screen = Vec2::new(screen_width(), screen_height());
                let cards = draw::scene_menu::cards(screen, game.scenes.cards.len());
                if let Some(index) = cards.iter().position(|card| card.contains(pixel)) {
                    game.scenes.selected = index;
                    game.apply(Command::Confirm);
                }
            }
            mouse.release();
        }
        if game.menu.open {
            // The menu takes the mouse: a click plays the level under it.
            if mouse.pressed {
                if let Some(index) = draw::level_hud::menu_row_at(&game, pixel) {
                    game.menu.selected = index;
                    game.apply(Command::PlayLevel(index));
                }
            }
            mouse.release();
        }
        match game.tools.tool {
            Tool::Draw => {
                if let Some((start, end)) = mouse.released {
                    game.draw(start, end);
                }
            }
            Tool::Grab => match mouse.position {
                Some(at) if mouse.pressed => game.grab_body(at),
                _ if !mouse.stirring => game.release_body(),
                _ => {}
            },
            Tool::Pour => {
                if let Some(at) = mouse.position.filter(|_| mouse.pressed) {
                    game.place_body(at);
                }
            }
            _ => {}
        }
        save_if_asked(&mut game, capture.as_mut());
        if let Some(written) = capture.as_ref().and_then(draw::capture::Capture::written) {
            say_saved(&mut game, written);
        }
        // Screenshot mode steps once per rendered frame, so the picture does not depend on how
        // fast this machine renders.
        let due = if screenshot_mode {
            1
        } else {
            game.frames_due(dt)
        };
        // The sound: the volume and mute as the player left them, and the events of the frames
        // about to run, while they are heard (not muted, the output playing).
        audio.set_volume(game.progress.sound.volume);
        audio.set_muted(game.progress.sound.muted);
        game.hear(audio.listening());
        for _ in 0..due {
            let input = frame_input(&game, &mouse);
            game.step(input);
        }
        let sending = Instant::now();
        let (heard, listen_ms) = game.take_sounds(|events| audio.send(events));
        let send_ms = sending.elapsed().as_secs_f64() * 1000.0;
        timing.note_sound(heard, listen_ms + send_ms);
        timing.sound = audio.status().describe();
        timing.update(
            dt,
            game.session.sim_ms,
            game.session.world.last_frame().substeps,
        );
        if WEB {
            web_log.note(&game, &timing);
        }
        state_report.note(frame, || {
            game::state_report::WindowState::of(&game, mouse.stirring, compact, &timing.sound)
        });
        let fraction = if screenshot_mode || game.session.paused {
            1.0
        } else {
            game.session.clock.fraction()
        };
        renderer.draw_world(&game, &view, fraction);
        draw::level_hud::draw_zones(&view, &game);
        // The GIF shows the world and the level's zones, not the HUD or the cursor.
        if let Some(capture) = &mut capture {
            capture.take(dt);
            // Read back at once in screenshot mode: its last frame has no next one.
            if screenshot_mode {
                if let Some(ms) = capture.collect() {
                    timing.note_capture(ms);
                }
            }
        }
        timing.splat_ms = renderer.splat_millis();
        timing.splat_prepare_ms = renderer.splat_prepare_millis();
        // No cursor in screenshots, nor on the toolbar's buttons.
        if !screenshot_mode && !toolbar.captures(pixel) {
            if game.tools.tool == Tool::Grab && !mouse.pulling {
                draw::hud::draw_grab_cursor(&view, &game, mouse.position);
            } else {
                draw::hud::draw_cursor(
                    &view,
                    mouse.position,
                    game.tools.stir_radius,
                    mouse.stirring || mouse.pulling,
                    game.tools.tool,
                );
            }
            if game.tools.tool == Tool::Draw {
                draw::hud::draw_wall_preview(&view, &game, mouse.pressed_at, mouse.position);
            }
        }
        let hud = draw::hud::draw(&game, mouse.position, &layout, !compact);
        let stats = layout
            .stats
            .map(|rect| draw::stats::draw(&game, &timing, rect));
        if let Some(grid) = layout.palette {
            draw::swatches::draw(&game, grid);
        }
        shown = Shown {
            hud,
            world_box: view.box_on_screen(&game.session.world),
            stats,
            toolbar: layout.toolbar,
            palette: layout.palette.map(|grid| grid.rect),
        };
        draw::level_hud::draw_end(&game);
        draw::level_hud::draw_menu(&game);
        draw::scene_menu::draw(&game);
        panel.draw(&mut game);
        toolbar.draw(&game);
        draw::hud::draw_overlays(&game, &presets, &layout);

        if game.take_screenshot_request() {
            let path = PathBuf::from(timestamped_name(wall_time()));
            say_saved(&mut game, save_screenshot(&path).map(|()| path));
        }
        if last_frame == Some(frame) {
            if let Some(path) = &options.screenshot {
                save_screenshot(path)?;
            }
            if let (Some(path), Some(capture)) = (&options.gif, &mut capture) {
                capture.write(path.clone());
                capture.wait_written()?;
            }
            return finish(&mut game, &renderer, &timing, &shown);
        }
        timing.note_frame(clock.elapsed().as_secs_f64() * 1000.0);
        next_frame().await;
    }
}

/// Puts every glyph the window's text uses, at every size it uses, into the default font's
/// atlas before the first frame. The atlas grows (a new texture, the old one deleted) when a
/// glyph first shows; in a frame that already drew text from the old texture, WebGL then
/// reports a deleted texture (the level menu's first opening did).
fn warm_font_cache() {
    let font = macroquad::text::get_default_font();
    let characters: Vec<char> = (' '..='~').chain("°·…".chars()).collect();
    let sizes = draw::hud::HELP_SIZES.into_iter().chain([24, 28]);
    for size in sizes {
        font.populate_font_cache(&characters, size);
    }
}

/// Every few seconds in a web page, the simulation's cost on the browser's console (a page has
/// no standard output; the browser test reads these lines).
#[derive(Default)]
struct WebLog {
    last: Option<Instant>,
}

impl WebLog {
    /// Seconds between two lines.
    const INTERVAL: f64 = 3.0;

    fn note(&mut self, game: &Game, timing: &draw::stats::Timing) {
        let due = self
            .last
            .is_none_or(|last| last.elapsed().as_secs_f64() >= Self::INTERVAL);
        if !due {
            return;
        }
        self.last = Some(Instant::now());
        macroquad::logging::info!(
            "slosh: {} with {} particles: {:.3} ms per substep, {:.1} ms per frame, {:.0} fps, {} thread(s)",
            game.session.preset.name,
            game.session.world.particles().len(),
            timing.substep_ms,
            timing.sim_ms,
            timing.fps,
            rayon::current_num_threads()
        );
    }
}

/// What the mouse asks of the next simulation frame, by the tool in hand.
fn frame_input(game: &Game, mouse: &input::Mouse) -> FrameInput {
    let held = mouse.position.filter(|_| mouse.stirring);
    let mut input = FrameInput {
        pull: mouse.pull(),
        ..FrameInput::default()
    };
    match game.tools.tool {
        Tool::Stir => input.stir = mouse.stir(game.tools.stir_radius),
        Tool::Pour => input.pour = held.map(|at| (at, mouse.velocity)),
        Tool::Erase => input.erase = held,
        Tool::Heat => input.heat = held.map(|at| (at, game::tools::HEAT_RATE)),
        Tool::Cool => input.heat = held.map(|at| (at, -game::tools::HEAT_RATE)),
        Tool::Grab => input.drag = held,
        // Drawing acts on release (above); the others are not held in the hand.
        Tool::Draw | Tool::Pull | Tool::Tilt | Tool::Tune => {}
    }
    input
}

/// Writes the preset (F7), the snapshot (F6) or the replay so far (F8) the player asked for,
/// into the current folder; a page hands the replay out as a download.
fn save_if_asked(game: &mut Game, capture: Option<&mut draw::capture::Capture>) {
    let Some(command) = game.take_save_request() else {
        return;
    };
    let stamp = timestamped_name(wall_time());
    let stem = stamp.trim_end_matches(".png");
    let outcome = match command {
        Command::SaveGif => {
            match capture {
                Some(capture) => {
                    let path = PathBuf::from(format!("{stem}.gif"));
                    game.say(format!("writing {}...", path.display()));
                    capture.write(path);
                }
                None => {
                    game.say("GIF capture is not in a web page (it has no threads to encode on)")
                }
            }
            return;
        }
        Command::SaveReplay => {
            let path = PathBuf::from(format!("{stem}.replay"));
            match game.replay_so_far() {
                Ok(text) if WEB => {
                    game::page::hand_out(&path.display().to_string(), &text);
                    Ok(path)
                }
                Ok(text) => std::fs::write(&path, text)
                    .map(|()| path)
                    .map_err(|error| format!("cannot write the replay: {error}")),
                Err(reason) => Err(reason.to_string()),
            }
        }
        Command::ShareLink => {
            let link = game.session.link().encode();
            game::page::show_link(&link);
            macroquad::miniquad::window::clipboard_set(&link);
            let shown: String = link.chars().take(32).collect();
            game.say(format!(
                "link copied ({} characters): {shown}...",
                link.chars().count()
            ));
            return;
        }
        Command::SavePreset => {
            let path = PathBuf::from(format!("{stem}.toml"));
            let text = game.edited_preset().to_toml();
            // Written at the preset's own particle size: a wall drawn at a finer one may be too
            // near another solid for it, and a file the loader refuses is not written.
            match Preset::parse(&path.display().to_string(), &text) {
                Ok(_) => std::fs::write(&path, text)
                    .map(|()| path)
                    .map_err(|error| format!("cannot write the preset: {error}")),
                Err(error) => Err(format!("not saved: {error}")),
            }
        }
        _ => {
            let path = PathBuf::from(format!("{stem}.snapshot.json"));
            crate::snapshot::save(&path, &game.edited_preset(), &game.session.world)
                .map(|()| path)
                .map_err(String::from)
        }
    };
    say_saved(game, outcome);
}

/// Prints the path of a file saved and says so in the window, or says why it was not saved.
fn say_saved(game: &mut Game, outcome: Result<PathBuf, String>) {
    match outcome {
        Ok(path) => {
            println!("{}", path.display());
            game.display.saved += 1;
            game.say(format!("saved {}", path.display()));
        }
        Err(error) => game.say(one_line(&error)),
    }
}

/// Where the last frame drew the HUD, the box, the engine figures and the toolbar, in window
/// pixels (the final line gives them).
#[derive(Clone, Copy, Debug, Default)]
struct Shown {
    /// The HUD's strip as drawn, with the temperature scale when it shows.
    hud: Rect,
    /// The box: the bounding rectangle of the world's domain.
    world_box: Rect,
    /// The engine figures' panel as drawn, when it shows.
    stats: Option<Rect>,
    /// The touch toolbar, when it shows.
    toolbar: Option<Rect>,
    /// The material palette, when it is open.
    palette: Option<Rect>,
}

/// Ends the run: closes the recording and prints the final state.
fn finish(
    game: &mut Game,
    renderer: &Renderer,
    timing: &draw::stats::Timing,
    shown: &Shown,
) -> Result<(), String> {
    let recorded = game.finish_recording();
    // A replay that could not go on is an error, not a final state.
    if let Some(error) = game.recording.replay_error.take() {
        return Err(error);
    }
    let state = final_state(game, renderer, timing, shown);
    if WEB {
        // A page has no standard output: the console has the line (the browser test reads it).
        macroquad::logging::info!("slosh: final {}", state);
    } else {
        println!("{state}");
    }
    recorded
}

/// The state the window leaves behind, as one line of JSON on exit (for scripts that drive the
/// window and check that the fluid came through whole), with the renderer's CPU cost per frame
/// (`splat_ms`: prepare and submit the splats; `splat_prepare_ms`: the part before the draw
/// calls, which a software rasterizer does not inflate; `frame_ms`: the whole frame before its
/// hand-over to the screen; `capture_ms`: the GIF capture's part of a frame that takes one),
/// each the median of the last frames, and the GL renderer they ran on; the sound (`sound`:
/// `on` or `off: why`, `muted`, and `sound_ms`, the main thread's milliseconds per simulation
/// frame to listen to the world and send the events, the median of the last frames); where the last frame
/// drew the HUD, the box, the engine figures, the toolbar and the palette (`[x, y, w, h]` in window pixels,
/// `null` for what did not show). `sim_ms_per_frame` is
/// the median wall-clock milliseconds of the last simulation frames (`Session::sim_ms_median`),
/// and `cost_model` what the scene's cost model says a frame costs at its count, when
/// `--particles auto` measured one (`crate::cost::Prediction`; `null` otherwise), so that the
/// two can be compared; `particles_asked` is the count the preset was rescaled to (`null`: its
/// own), for a headless run of the same scene (`benches/auto_resolution.sh`), and
/// `auto_correction` how much dearer than that model the scene's first seconds were, when auto
/// restarted it coarser (`Session::auto_correction`; `null` otherwise); `wall_seconds` is
/// the real time since the world was built, beside its `simulated_seconds`.
fn final_state(
    game: &Game,
    renderer: &Renderer,
    timing: &draw::stats::Timing,
    shown: &Shown,
) -> String {
    let stats = game.session.world.stats();
    serde_json::json!({
        "preset": game.session.preset.name,
        "particles": stats.particles,
        "splat_ms": renderer.splat_millis(),
        "splat_prepare_ms": renderer.splat_prepare_millis(),
        "nan": stats.nan,
        "escaped": stats.escaped,
        "max_speed": finite_or_minus_one(stats.max_speed.into()),
        "kinetic_energy": finite_or_minus_one(stats.kinetic_energy),
        "simulated_seconds": game.session.world.time(),
        "wall_seconds": game.session.wall_seconds(),
        "sim_ms_per_substep": timing.substep_ms,
        "sim_ms_per_frame": game.session.sim_ms_median(),
        "particles_asked": game.session.particles_asked(),
        "cost_model": game.session.prediction(),
        "auto_correction": game.session.correction(),
        "capture_ms": timing.capture_ms(),
        "frame_ms": timing.frame_ms(),
        "gl_renderer": gl_renderer(),
        "sound": timing.sound,
        "muted": game.progress.sound.muted,
        "sound_ms": timing.sound_ms(),
        "smoke_texture": renderer.smoke_texture_size().map(|(w, h)| [w, h]),
        "checksum": format!("{:016x}", game.session.world.checksum()),
        "recorded_checksum": game.recorded_checksum().map(|checksum| format!("{checksum:016x}")),
        "hud": as_json(shown.hud),
        "box": as_json(shown.world_box),
        "stats": shown.stats.map(as_json),
        "toolbar": shown.toolbar.map(as_json),
        "palette": shown.palette.map(as_json),
    })
    .to_string()
}

/// The OpenGL renderer's name (a GPU, or a software rasterizer such as llvmpipe), so that the
/// frame times beside it say what they were measured on. `None` in a page.
fn gl_renderer() -> Option<String> {
    if WEB {
        return None;
    }
    const GL_RENDERER: u32 = 0x1F01;
    // SAFETY: called on the main thread, which holds the current GL context; the string the
    // driver returns is NUL-terminated and lives as long as the context.
    unsafe {
        let name = macroquad::miniquad::gl::glGetString(GL_RENDERER);
        (!name.is_null()).then(|| {
            std::ffi::CStr::from_ptr(name.cast())
                .to_string_lossy()
                .into_owned()
        })
    }
}

/// JSON has no NaN or infinity; such values (counted in `nan` anyway) are written as −1.
fn finite_or_minus_one(value: f64) -> f64 {
    if value.is_finite() {
        value
    } else {
        -1.0
    }
}

/// Fails with a one-line error when `path`, where the `what` goes, cannot be written (checked
/// before the window opens).
fn check_writable(path: &Path, what: &str) -> Result<(), String> {
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|error| {
            one_line(&format!(
                "cannot write the {what} to {}: {error}",
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

/// The time of day now, also in a page (where `SystemTime::now` panics: the page's clock).
fn wall_time() -> SystemTime {
    if WEB {
        let seconds = macroquad::miniquad::date::now();
        UNIX_EPOCH + std::time::Duration::from_secs_f64(seconds.at_least(0.0))
    } else {
        SystemTime::now()
    }
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
