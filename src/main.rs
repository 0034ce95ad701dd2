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
        Job::Help(text) => return say(text.trim_end_matches('\n')),
        Job::ListPresets => return say(&cli::list_presets()),
        Job::ListMaterials => return say(&cli::list_materials()),
        Job::ListLevels => return say(&cli::list_levels()),
        Job::Headless(options) => match headless::run(&options) {
            Ok(report) => return say(&report.to_json()),
            Err(message) => return fail(&message),
        },
        Job::Golden {
            path,
            threads,
            update,
            cheaper_half,
        } => match slosh::golden::check_file(&path, threads, update, cheaper_half) {
            Ok(summary) => return say(&summary.to_string()),
            Err(message) => return fail(&message),
        },
        Job::Replay { path, threads, wav } => {
            match headless::replay_to(&path, threads, wav.as_deref()) {
                Ok(report) => return say(&report.to_json()),
                Err(message) => return fail(&message),
            }
        }
        Job::ReplayLink {
            replay,
            threads,
            wav,
        } => match headless::play_to(replay, threads, wav.as_deref()) {
            Ok(report) => return say(&report.to_json()),
            Err(message) => return fail(&message),
        },
        Job::Share(link) => return say(&link.to_string()),
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

/// Prints `text` and a line break to standard output. A reader that has gone (a closed pipe:
/// `slosh --list-presets | head -1`) ends the program quietly, as a command-line tool does;
/// any other failure to write is an error.
fn say(text: &str) -> ExitCode {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => fail(&format!("cannot write to standard output: {error}")),
    }
}

/// Prints a one-line error and returns exit code 2.
fn fail(message: &str) -> ExitCode {
    eprintln!("slosh: {message}");
    ExitCode::from(2)
}
