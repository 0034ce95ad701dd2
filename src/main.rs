//! The `slosh` program: the demo window, or the headless runner with `--headless`.

use slosh::app;
use slosh::cli::{self, Mode};
use std::process::ExitCode;

fn main() -> ExitCode {
    let options = match cli::parse_os_args(std::env::args_os().skip(1)) {
        Ok(options) => options,
        Err(message) => return fail(&message),
    };
    match options.mode {
        Mode::Help => println!("{}", cli::USAGE),
        Mode::ListPresets => println!("{}", cli::list_presets()),
        Mode::Headless => match cli::run_headless(&options) {
            Ok(report) => println!("{}", report.to_json()),
            Err(message) => return fail(&message),
        },
        Mode::Window => {
            if let Err(message) = app::run(&options) {
                return fail(&message);
            }
        }
    }
    ExitCode::SUCCESS
}

/// Prints a one-line error and returns exit code 2.
fn fail(message: &str) -> ExitCode {
    eprintln!("slosh: {message}");
    ExitCode::from(2)
}
