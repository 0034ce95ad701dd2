//! A monotonic clock that also works in a web page. `std::time::Instant` panics on
//! `wasm32-unknown-unknown`; there the page's clock is read through a function the program sets
//! with [`set_source`] (the demo gives it miniquad's). Without a source, time stands still there
//! and timings read zero, which changes no simulation result: the clock only times stages.

use crate::sim::numerics::portable::Ordered;
use std::sync::OnceLock;
use std::time::Duration;

/// The function that reads the page's clock, in seconds, where `std::time` has none.
static SOURCE: OnceLock<fn() -> f64> = OnceLock::new();

/// Reads time from `source` (seconds from any fixed origin) on targets without `std::time`
/// (`wasm32-unknown-unknown`: a browser); elsewhere `std::time::Instant` is used and this does
/// nothing. The first call wins.
pub fn set_source(source: fn() -> f64) {
    let _ = SOURCE.set(source);
}

/// Seconds since a fixed origin (also under WASI, which has a clock).
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
fn seconds() -> f64 {
    static START: OnceLock<std::time::Instant> = OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs_f64()
}

/// Seconds since a fixed origin: the source's, or zero without one.
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
fn seconds() -> f64 {
    SOURCE.get().map_or(0.0, |source| source())
}

/// A moment on the clock, as `std::time::Instant` is.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Instant {
    seconds: f64,
}

impl Instant {
    /// Now.
    pub fn now() -> Self {
        Self { seconds: seconds() }
    }

    /// Time since this moment (zero if the clock went back).
    pub fn elapsed(&self) -> Duration {
        Self::now() - *self
    }
}

impl std::ops::Sub for Instant {
    type Output = Duration;

    /// The time from `earlier` to this moment (zero if `earlier` is later).
    fn sub(self, earlier: Instant) -> Duration {
        Duration::from_secs_f64((self.seconds - earlier.seconds).at_least(0.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_moves_forward() {
        let start = Instant::now();
        std::thread::sleep(Duration::from_millis(5));
        let later = Instant::now();
        assert!(later - start >= Duration::from_millis(4));
        assert_eq!(start - later, Duration::ZERO);
        assert!(start.elapsed() >= later - start);
    }
}
