//! The window's and the page's sound output: the frames' sound events (`sound::FrameEvents`)
//! played through a `sound::Synth` on the platform's audio.
//!
//! - Natively on Linux, ALSA opened at run time (`alsa.rs`): its own thread owns the
//!   synthesiser, takes the events sent to it before each period, renders, applies the volume
//!   and writes to the device.
//! - In a page, WebAudio (`web.rs` and the `slosh_audio` plugin in `web/index.html`), started at
//!   the first click, touch or key, as browsers require.
//! - Where no output opens (no library, no device, another system), the handle is silent and
//!   says why in one line. Nothing here panics, and a failed write stops the sound, not the game.
//!
//! The main thread's part is `send` (a bounded channel natively, a queue in the page); events
//! that find it full are dropped rather than waited for.

#[cfg(target_os = "linux")]
mod alsa;
mod shared;
#[cfg(target_arch = "wasm32")]
mod web;

use crate::sound::FrameEvents;
pub use shared::Status;

/// The environment variable that names the ALSA device the window plays to (`default` when
/// unset or empty); `off` keeps the window silent.
pub const DEVICE_VARIABLE: &str = "SLOSH_AUDIO_DEVICE";

/// The sound output the game sends each simulation frame's events to, with its volume.
pub struct Audio {
    output: Output,
    volume: f32,
    muted: bool,
}

/// What plays the samples.
enum Output {
    /// An ALSA device, fed by a thread of its own.
    #[cfg(target_os = "linux")]
    Alsa(alsa::Stream),
    /// The page's WebAudio, through the `slosh_audio` plugin.
    #[cfg(target_arch = "wasm32")]
    Page(web::Page),
    /// Nothing: the reason.
    Silent(String),
}

impl Audio {
    /// The platform's output for a run from `seed` (the synthesiser's noise starts from it). A
    /// page's starts at the first click or touch; natively, the ALSA device `SLOSH_AUDIO_DEVICE`
    /// names (`default`). Where none opens, says so in one line on standard error and plays
    /// nothing.
    pub fn open(seed: u64) -> Self {
        #[cfg(target_arch = "wasm32")]
        {
            Self::with(Output::Page(web::Page::start(seed)))
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            let named = std::env::var(DEVICE_VARIABLE).unwrap_or_default();
            let device = if named.trim().is_empty() {
                "default"
            } else {
                named.trim()
            };
            let audio = Self::open_device(device, seed);
            if let Status::Off(why) = audio.status() {
                eprintln!("sound: off ({why})");
            }
            audio
        }
    }

    /// The native output on the ALSA device `device` (`off`: none), silently: `status` says
    /// whether it opened.
    pub fn open_device(device: &str, seed: u64) -> Self {
        if device == "off" {
            return Self::with(Output::Silent(format!("{DEVICE_VARIABLE}=off")));
        }
        Self::with(native(device, seed))
    }

    /// A silent output, for `why`.
    pub fn silent(why: impl Into<String>) -> Self {
        Self::with(Output::Silent(why.into()))
    }

    fn with(output: Output) -> Self {
        let mut audio = Self {
            output,
            volume: 1.0,
            muted: false,
        };
        audio.apply_gain();
        audio
    }

    /// Where the sound stands now.
    pub fn status(&self) -> Status {
        match &self.output {
            #[cfg(target_os = "linux")]
            Output::Alsa(stream) => stream.status(),
            #[cfg(target_arch = "wasm32")]
            Output::Page(page) => page.status(),
            Output::Silent(why) => Status::Off(why.clone()),
        }
    }

    /// True when the events of each frame are wanted: the output plays and is not muted (the
    /// game then listens to its world; otherwise it spares the main thread that work).
    pub fn listening(&self) -> bool {
        !self.muted && self.status() == Status::On
    }

    /// Plays one simulation frame's events from the output's next period. Never waits: events
    /// the output has no room for are dropped.
    pub fn send(&self, events: FrameEvents) {
        match &self.output {
            #[cfg(target_os = "linux")]
            Output::Alsa(stream) => stream.send(events),
            #[cfg(target_arch = "wasm32")]
            Output::Page(page) => page.send(events),
            Output::Silent(_) => {
                let _ = events;
            }
        }
    }

    /// The volume, 0 to 1 (a slider's share: the samples are scaled by its square, a rough
    /// loudness curve).
    pub fn set_volume(&mut self, volume: f32) {
        let volume = if volume.is_finite() {
            volume.clamp(0.0, 1.0)
        } else {
            1.0
        };
        if volume != self.volume {
            self.volume = volume;
            self.apply_gain();
        }
    }

    /// Mutes or unmutes (the volume is kept).
    pub fn set_muted(&mut self, muted: bool) {
        if muted != self.muted {
            self.muted = muted;
            self.apply_gain();
        }
    }

    /// The factor the samples are scaled by: 0 muted, else the volume squared.
    pub fn gain(&self) -> f32 {
        if self.muted {
            0.0
        } else {
            self.volume * self.volume
        }
    }

    fn apply_gain(&mut self) {
        let gain = self.gain();
        match &self.output {
            #[cfg(target_os = "linux")]
            Output::Alsa(stream) => stream.set_gain(gain),
            #[cfg(target_arch = "wasm32")]
            Output::Page(page) => page.set_gain(gain),
            Output::Silent(_) => {}
        }
    }
}

/// The native output on `device`: ALSA on Linux.
#[cfg(target_os = "linux")]
fn native(device: &str, seed: u64) -> Output {
    match alsa::Stream::open(device, seed) {
        Ok(stream) => Output::Alsa(stream),
        Err(why) => Output::Silent(why),
    }
}

/// No native output elsewhere yet (a page has its own, `Audio::open`).
#[cfg(not(target_os = "linux"))]
fn native(device: &str, seed: u64) -> Output {
    let _ = (device, seed);
    Output::Silent(
        "no audio output on this system yet (ALSA on Linux, WebAudio in the page)".into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_is_silent_and_says_why_in_one_line() {
        let mut audio = Audio::open_device("off", 1);
        let Status::Off(why) = audio.status() else {
            panic!("{:?}", audio.status())
        };
        assert!(why.contains(DEVICE_VARIABLE), "{why}");
        assert!(!audio.listening());
        audio.set_volume(0.5);
        audio.set_muted(true);
        audio.send(FrameEvents::default());
        assert_eq!(audio.gain(), 0.0);
        audio.set_muted(false);
        assert_eq!(audio.gain(), 0.25);
    }

    /// A device that does not exist (or a machine without ALSA's library, as a bare CI image)
    /// gives a silent handle and one line that says why; nothing panics, and sending to it,
    /// muting it and dropping it are harmless.
    #[test]
    fn a_missing_device_is_silent_with_one_line() {
        let mut audio = Audio::open_device("slosh-no-such-device", 7);
        let status = audio.status();
        let Status::Off(why) = &status else {
            panic!("a device that does not exist opened: {status:?}")
        };
        assert!(!why.is_empty() && !why.contains('\n'), "{why:?}");
        assert!(why.starts_with("no audio device"), "{why}");
        assert!(status.describe().starts_with("off: no audio device"));
        for _ in 0..10 {
            audio.send(FrameEvents::default());
        }
        audio.set_muted(true);
        drop(audio);
    }
}
