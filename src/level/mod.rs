//! Levels: a scene with a job to do.
//!
//! A level is a preset file with two more sections: `[level]` (its title, what it teaches, its
//! rules and the par for the stars) and `[[goals]]` (what the liquid, a body or the clock must
//! do). [`Attempt`] plays the rules and judges the goals every frame, without a window, so a
//! level is tested headless like any scene:
//!
//! ```
//! use slosh::level::Attempt;
//! use slosh::preset::Preset;
//!
//! # #[cfg(feature = "bodies")] { // the level's cup is a rigid body
//! let preset = Preset::load("first-pour")?;
//! let level = preset.level.clone().expect("a level");
//! let mut world = preset.build_world(1);
//! let mut attempt = Attempt::new(level, &world).expect("its names are the scene's");
//! for _ in 0..20 {
//!     world.step_frame();
//!     attempt.observe(&world);
//! }
//! // Nobody poured: the cup is still empty.
//! assert!(!attempt.report().met);
//! # }
//! # Ok::<(), slosh::preset::PresetError>(())
//! ```
//!
//! # The file's sections
//!
//! ```toml
//! [level]
//! title = "First pour"
//! teaches = "pouring: hold the left button with the pour tool (W)"
//! hint = "Fill the cup to its line"
//! time_limit = 60.0          # seconds; the level is lost when they run out
//! tools = ["pour"]           # what the player may use (default: everything)
//! combine = "all"            # every goal met ("all", the default), or one ("any")
//! budget = { pour = 1.2 }    # most liquid poured or erased (m² at rest) and wall drawn (m)
//! par_seconds = 25.0         # two stars within this time
//! par_budget = 0.8           # three stars also within this share of each budget
//!
//! [[goals]]
//! kind = "fill"              # this material fills a share of the zone
//! material = "water"
//! zone = [5.0, 0.5, 7.0, 2.0]  # left, bottom, right, top
//! fraction = 0.8
//! ```
//!
//! The kinds of goal:
//!
//! | kind | fields | met when |
//! |---|---|---|
//! | `fill` | material, zone, fraction | that much of the zone is the material (at rest packing) |
//! | `keep_out` | material, zone, most (default 0.02) | never broken: the level is lost once more than `most` of the zone is the material |
//! | `body` | body, zone | the body's centre of mass is in the zone |
//! | `temperature` | material, `above` or `below` (°C), fraction (default 0.9), zone (optional) | that share of the material (in the zone) is over or under the temperature |
//! | `turn` | body (hinged), turns | the body has turned that many times, either way |
//! | `survive` | seconds | the level has lasted that long |
//!
//! A level is lost when its time runs out first, or when a `keep_out` zone is broken. One star
//! for meeting the goals, two within `par_seconds`, three also within `par_budget` of each
//! budget given.

mod attempt;
mod check;
mod description;
mod error;

pub use attempt::{tool_of, Attempt, Outcome, Report, Spent};
pub use check::check;
pub use description::{Budget, Combine, Goal, Level, Rules, Tool, Zone};
pub use error::LevelError;

/// The embedded levels, in the order they are played (each unlocks the next): (name, file text).
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "first-pour",
        include_str!("../../assets/levels/first-pour.toml"),
    ),
    ("wake-up", include_str!("../../assets/levels/wake-up.toml")),
    (
        "dry-village",
        include_str!("../../assets/levels/dry-village.toml"),
    ),
    ("tip-it", include_str!("../../assets/levels/tip-it.toml")),
    (
        "crate-lift",
        include_str!("../../assets/levels/crate-lift.toml"),
    ),
    (
        "mill-race",
        include_str!("../../assets/levels/mill-race.toml"),
    ),
    (
        "rain-barrel",
        include_str!("../../assets/levels/rain-barrel.toml"),
    ),
    ("thaw", include_str!("../../assets/levels/thaw.toml")),
    (
        "wood-dam",
        include_str!("../../assets/levels/wood-dam.toml"),
    ),
    (
        "sand-bin",
        include_str!("../../assets/levels/sand-bin.toml"),
    ),
];
