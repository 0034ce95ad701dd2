//! The `slosh` program: the demo window, or the headless runner with `--headless`.

use slosh::cli::{self, Job};
use slosh::headless;
use std::process::ExitCode;

fn main() -> ExitCode {
    let job = match cli::parse(std::env::args_os().skip(1)) {
        Ok(job) => job,
        Err(message) => return fail(&message),
    };
    match job {
        Job::Help(text) => print!("{text}"),
        Job::ListPresets => println!("{}", cli::list_presets()),
        Job::ListLevels => println!("{}", cli::list_levels()),
        Job::Headless(options) => match headless::run(&options) {
            Ok(report) => println!("{}", report.to_json()),
            Err(message) => return fail(&message),
        },
        Job::Golden {
            path,
            threads,
            update,
            cheaper_half,
        } => match slosh::golden::check_file(&path, threads, update, cheaper_half) {
            Ok(summary) => println!("{summary}"),
            Err(message) => return fail(&message),
        },
        Job::Replay { path, threads, wav } => {
            match headless::replay_to(&path, threads, wav.as_deref()) {
                Ok(report) => println!("{}", report.to_json()),
                Err(message) => return fail(&message),
            }
        }
        Job::ReplayLink {
            replay,
            threads,
            wav,
        } => match headless::play_to(replay, threads, wav.as_deref()) {
            Ok(report) => println!("{}", report.to_json()),
            Err(message) => return fail(&message),
        },
        Job::Share(link) => println!("{link}"),
        Job::Window(options) => {
            if let Err(message) = window::run(&options) {
                return fail(&message);
            }
        }
    }
    ExitCode::SUCCESS
}

/// The demo window, or a clear refusal in a build without it.
#[cfg(feature = "window")]
use slosh::app as window;

#[cfg(not(feature = "window"))]
mod window {
    /// A build without the `window` feature has no window to open.
    pub fn run(_options: &slosh::cli::WindowOptions) -> Result<(), String> {
        Err("this build has no window (built without the `window` feature); use --headless".into())
    }
}

/// Prints a one-line error and returns exit code 2.
fn fail(message: &str) -> ExitCode {
    eprintln!("slosh: {message}");
    ExitCode::from(2)
}
