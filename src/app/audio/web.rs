//! The page's sound: the `slosh_audio` plugin in `web/index.html` creates an `AudioContext` at
//! the first click, touch or key, and its script processor asks for each buffer of samples
//! through `slosh_audio_render`, which renders them here. The page runs on one thread, so the
//! synthesiser and the frames' events waiting for it are kept in a thread-local, not behind a
//! channel.

use super::shared::{apply_gain, Status};
use crate::sound::{FrameEvents, Synth, CHANNELS};
use std::cell::RefCell;

/// Frames' events waiting for the next buffer, at most (a hidden tab's sound stops asking for
/// buffers); the oldest are dropped.
const QUEUE: usize = 120;
/// The most stereo frames one call renders (WebAudio's script buffers are 16,384 at most).
const MOST_FRAMES: usize = 16_384;

/// The synthesiser and what it is given.
struct State {
    synth: Synth,
    queue: Vec<FrameEvents>,
    /// The gain of the last sample rendered, and the one to move to.
    gain: f32,
    target: f32,
    /// The samples of the last call, which the plugin reads.
    buffer: Vec<f32>,
}

thread_local! {
    static STATE: RefCell<Option<State>> = const { RefCell::new(None) };
}

/// The game's end of the page's sound.
pub struct Page;

impl Page {
    /// Makes the synthesiser (from `seed`); the sound starts when the plugin first asks for
    /// samples, after the first click or touch.
    pub fn start(seed: u64) -> Self {
        STATE.with(|state| {
            *state.borrow_mut() = Some(State {
                synth: Synth::new(seed),
                queue: Vec::with_capacity(QUEUE),
                gain: 0.0,
                target: 1.0,
                buffer: Vec::new(),
            });
        });
        Page
    }

    /// Where the page's sound stands, as the plugin says.
    pub fn status(&self) -> Status {
        // SAFETY: the plugin's function takes nothing and returns a number.
        match unsafe { js::slosh_audio_state() } {
            0 => Status::Waiting("waiting for a click"),
            1 => Status::On,
            2 => Status::Waiting("starting"),
            _ => Status::Off("the browser gives the page no sound".into()),
        }
    }

    /// Queues a frame's events for the next buffer.
    pub fn send(&self, events: FrameEvents) {
        STATE.with(|state| {
            if let Some(state) = state.borrow_mut().as_mut() {
                if state.queue.len() >= QUEUE {
                    state.queue.remove(0);
                }
                state.queue.push(events);
            }
        });
    }

    /// The gain from the next buffer on.
    pub fn set_gain(&self, gain: f32) {
        STATE.with(|state| {
            if let Some(state) = state.borrow_mut().as_mut() {
                state.target = gain;
            }
        });
    }
}

/// Renders the next `frames` stereo frames (interleaved left, right, at `sound::SAMPLE_RATE`)
/// for the plugin, after starting the events queued since the last call; returns where they are
/// in the page's memory (valid until the next call), or null before `Page::start`.
#[no_mangle]
pub extern "C" fn slosh_audio_render(frames: u32) -> *const f32 {
    STATE.with(|state| {
        let mut state = state.borrow_mut();
        let Some(state) = state.as_mut() else {
            return std::ptr::null();
        };
        for events in state.queue.drain(..) {
            state.synth.push(&events);
        }
        let frames = (frames as usize).min(MOST_FRAMES);
        state.buffer.resize(frames * CHANNELS, 0.0);
        state.synth.render(&mut state.buffer);
        apply_gain(&mut state.buffer, state.gain, state.target);
        state.gain = state.target;
        state.buffer.as_ptr()
    })
}

mod js {
    //! The functions of the `slosh_audio` plugin (`web/index.html`).
    extern "C" {
        /// 0: no click or touch yet; 1: playing (a buffer was rendered); 2: the context exists
        /// but the browser has not started it; 3: the browser gives no `AudioContext`.
        pub fn slosh_audio_state() -> u32;
    }

    /// The plugin's version, which macroquad's loader compares with the page's.
    #[no_mangle]
    pub extern "C" fn slosh_audio_crate_version() -> u32 {
        1
    }
}
