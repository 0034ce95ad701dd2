//! ALSA, opened at run time: `libasound.so.2` loaded with `libloading` and the few functions
//! the sound needs looked up in it, so that building the window needs no ALSA headers or
//! `-dev` package and a machine without the library (or without a device: CI, a server, Xvfb)
//! runs silent instead of failing to start.
//!
//! The device is opened, written and closed on a thread of its own, which owns the `Synth`:
//! before each period it takes the events the game sent, renders the period, applies the volume
//! and writes it (blocking until the device has room: the device paces the thread).

use super::shared::{apply_gain, Status};
use crate::sound::{FrameEvents, Synth, CHANNELS, SAMPLE_RATE};
use libloading::Library;
use std::ffi::{c_char, c_int, c_long, c_uint, c_ulong, c_void, CStr, CString};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The library's file name (its ABI's soname, as every distribution installs it).
const LIBRARY: &str = "libasound.so.2";
/// Stereo frames in a period: 10 ms. Events are taken before each.
const PERIOD: usize = 480;
/// The device's buffer, microseconds (`snd_pcm_set_params`' `latency`): room for six periods,
/// which the main thread's longest frames do not empty.
const LATENCY_US: c_uint = 60_000;
/// Frames' events waiting for the audio thread, at most (two seconds at 60 frames a second);
/// more are dropped.
const QUEUE: usize = 120;
/// The longest the window waits for the device to open before going on silent.
const OPEN_PATIENCE: Duration = Duration::from_secs(3);
/// A device that takes samples faster than it plays them (ALSA's `null`, a file) is held to the
/// clock: the thread sleeps when it is more than this far ahead of real time.
const AHEAD: f64 = 0.1;

/// `snd_pcm_t`, opaque.
#[repr(C)]
struct Pcm {
    _private: [u8; 0],
}

/// `SND_PCM_STREAM_PLAYBACK` of `snd_pcm_stream_t`.
const STREAM_PLAYBACK: c_int = 0;
/// `SND_PCM_ACCESS_RW_INTERLEAVED` of `snd_pcm_access_t`.
const ACCESS_RW_INTERLEAVED: c_int = 3;
/// `SND_PCM_FORMAT_S16_LE` of `snd_pcm_format_t`.
const FORMAT_S16_LE: c_int = 2;
/// `SND_PCM_FORMAT_FLOAT_LE` of `snd_pcm_format_t`.
const FORMAT_FLOAT_LE: c_int = 14;

// The functions as `alsa/pcm.h` and `alsa/error.h` declare them (C enums are `int`).
/// `int snd_pcm_open(snd_pcm_t **pcm, const char *name, snd_pcm_stream_t stream, int mode)`
type OpenFn = unsafe extern "C" fn(*mut *mut Pcm, *const c_char, c_int, c_int) -> c_int;
/// `int snd_pcm_set_params(snd_pcm_t *pcm, snd_pcm_format_t format, snd_pcm_access_t access,
/// unsigned int channels, unsigned int rate, int soft_resample, unsigned int latency)`
type SetParamsFn =
    unsafe extern "C" fn(*mut Pcm, c_int, c_int, c_uint, c_uint, c_int, c_uint) -> c_int;
/// `snd_pcm_sframes_t snd_pcm_writei(snd_pcm_t *pcm, const void *buffer, snd_pcm_uframes_t
/// size)` (`snd_pcm_sframes_t` is `long`, `snd_pcm_uframes_t` `unsigned long`)
type WriteiFn = unsafe extern "C" fn(*mut Pcm, *const c_void, c_ulong) -> c_long;
/// `int snd_pcm_recover(snd_pcm_t *pcm, int err, int silent)`
type RecoverFn = unsafe extern "C" fn(*mut Pcm, c_int, c_int) -> c_int;
/// `int snd_pcm_close(snd_pcm_t *pcm)`
type CloseFn = unsafe extern "C" fn(*mut Pcm) -> c_int;
/// `const char *snd_strerror(int errnum)`
type StrerrorFn = unsafe extern "C" fn(c_int) -> *const c_char;
/// `typedef void (*snd_local_error_handler_t)(const char *file, int line, const char *func, int
/// errcode, const char *fmt, va_list arg)`. A `va_list` parameter is a pointer on x86-64 (an
/// array that decays) and on AArch64 Linux (a 32-byte struct passed by reference).
type LocalErrorHandler =
    unsafe extern "C" fn(*const c_char, c_int, *const c_char, c_int, *const c_char, *mut c_void);
/// `snd_local_error_handler_t snd_lib_error_set_local(snd_local_error_handler_t func)` (alsa-lib
/// 1.1.6 and later: the calling thread's handler of the library's own messages)
type SetLocalErrorFn = unsafe extern "C" fn(Option<LocalErrorHandler>) -> Option<LocalErrorHandler>;

/// The library and the functions looked up in it (valid while `_library` is loaded).
struct Alsa {
    open: OpenFn,
    set_params: SetParamsFn,
    writei: WriteiFn,
    recover: RecoverFn,
    close: CloseFn,
    strerror: StrerrorFn,
    set_local_error: Option<SetLocalErrorFn>,
    _library: Library,
}

impl Alsa {
    /// Loads the library and looks its functions up; the error names what is missing.
    fn load() -> Result<Self, String> {
        // SAFETY: loading libasound runs its initialisers, which only set up the library's own
        // state; it is a system library meant to be loaded into any process.
        let library = unsafe { Library::new(LIBRARY) }
            .map_err(|error| format!("no audio device: {LIBRARY} not loaded ({error})"))?;
        /// The function `name` of `library`, as type `T`.
        ///
        /// SAFETY (for each call below): `T` is the function's type exactly as ALSA's headers
        /// declare it (the type aliases above), and the pointer is used only while `library`
        /// is loaded: both are kept together in `Alsa`.
        unsafe fn symbol<T: Copy>(library: &Library, name: &str) -> Result<T, String> {
            let bytes = format!("{name}\0");
            // SAFETY: as above.
            unsafe { library.get::<T>(bytes.as_bytes()) }
                .map(|symbol| *symbol)
                .map_err(|error| format!("no audio device: {LIBRARY} lacks {name} ({error})"))
        }
        // SAFETY: each type is the function's as declared in alsa/pcm.h and alsa/error.h.
        unsafe {
            Ok(Self {
                open: symbol(&library, "snd_pcm_open")?,
                set_params: symbol(&library, "snd_pcm_set_params")?,
                writei: symbol(&library, "snd_pcm_writei")?,
                recover: symbol(&library, "snd_pcm_recover")?,
                close: symbol(&library, "snd_pcm_close")?,
                strerror: symbol(&library, "snd_strerror")?,
                set_local_error: symbol(&library, "snd_lib_error_set_local").ok(),
                _library: library,
            })
        }
    }

    /// ALSA's words for the error code `code` (a negative errno or one of its own).
    fn error(&self, code: c_int) -> String {
        // SAFETY: snd_strerror takes any int and returns a static NUL-terminated string (or
        // null, checked).
        let text = unsafe { (self.strerror)(code) };
        if text.is_null() {
            return format!("error {code}");
        }
        // SAFETY: non-null, NUL-terminated, static (above).
        unsafe { CStr::from_ptr(text) }
            .to_string_lossy()
            .into_owned()
    }

    /// Keeps the library's own messages ("ALSA lib confmisc.c:…", several lines where no card
    /// exists) off standard error on this thread: the window says in one line what failed.
    fn quiet(&self) {
        /// Ignores one message of the library.
        unsafe extern "C" fn ignore(
            _file: *const c_char,
            _line: c_int,
            _function: *const c_char,
            _code: c_int,
            _format: *const c_char,
            _arguments: *mut c_void,
        ) {
        }
        if let Some(set_local_error) = self.set_local_error {
            // SAFETY: `ignore` has the handler's type (`LocalErrorHandler`) and reads none of
            // its arguments; the handler applies to this thread only, which owns the device.
            unsafe { set_local_error(Some(ignore)) };
        }
    }
}

/// The samples' format the device took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    /// 32-bit floats, as the synthesiser makes them.
    Float,
    /// 16-bit integers, for a device that takes no floats.
    S16,
}

/// An open playback device (closed when dropped). It lives on the audio thread only.
struct Device {
    alsa: Alsa,
    pcm: *mut Pcm,
    format: Format,
    /// The samples as 16-bit integers, for `Format::S16`.
    integers: Vec<i16>,
}

impl Device {
    /// Opens `name` for interleaved stereo at `SAMPLE_RATE`, as floats or else 16-bit integers,
    /// with ALSA resampling for a device of another rate.
    fn open(name: &str) -> Result<Self, String> {
        let alsa = Alsa::load()?;
        alsa.quiet();
        let c_name = CString::new(name)
            .map_err(|_| format!("no audio device: the name {name:?} holds a NUL"))?;
        let mut pcm = std::ptr::null_mut();
        // SAFETY: `pcm` is a valid place for the handle, `c_name` a NUL-terminated string that
        // outlives the call; mode 0 is a blocking open.
        let code = unsafe { (alsa.open)(&mut pcm, c_name.as_ptr(), STREAM_PLAYBACK, 0) };
        if code < 0 || pcm.is_null() {
            return Err(format!(
                "no audio device: cannot open {name:?}: {}",
                alsa.error(code)
            ));
        }
        let mut device = Device {
            alsa,
            pcm,
            format: Format::Float,
            integers: Vec::new(),
        };
        let mut code = 0;
        for (format, alsa_format) in [
            (Format::Float, FORMAT_FLOAT_LE),
            (Format::S16, FORMAT_S16_LE),
        ] {
            // SAFETY: `device.pcm` is the open handle; the other arguments are plain values.
            code = unsafe {
                (device.alsa.set_params)(
                    device.pcm,
                    alsa_format,
                    ACCESS_RW_INTERLEAVED,
                    CHANNELS as c_uint,
                    SAMPLE_RATE,
                    1,
                    LATENCY_US,
                )
            };
            if code == 0 {
                device.format = format;
                return Ok(device);
            }
        }
        Err(format!(
            "no audio device: {name:?} takes no stereo at {SAMPLE_RATE} Hz: {}",
            device.alsa.error(code)
        ))
    }

    /// What was opened, for the stream's description.
    fn format(&self) -> Format {
        self.format
    }

    /// Writes interleaved stereo `samples` (each within -1..1), waiting for room; recovers from
    /// an underrun or a suspend, and gives up (with why) only when ALSA cannot recover.
    fn write(&mut self, samples: &[f32]) -> Result<(), String> {
        if self.format == Format::S16 {
            self.integers.clear();
            self.integers.extend(
                samples
                    .iter()
                    .map(|&sample| (sample * 32767.0).round() as i16),
            );
        }
        let frames = samples.len() / CHANNELS;
        let mut done = 0;
        let mut stuck = 0;
        while done < frames {
            let at = done * CHANNELS;
            let buffer: *const c_void = match self.format {
                Format::Float => samples[at..].as_ptr().cast(),
                Format::S16 => self.integers[at..].as_ptr().cast(),
            };
            // SAFETY: `buffer` holds at least `frames - done` interleaved stereo frames of the
            // format the device was set to, alive for the call; `self.pcm` is open.
            let written =
                unsafe { (self.alsa.writei)(self.pcm, buffer, (frames - done) as c_ulong) };
            if written > 0 {
                done += written as usize;
                stuck = 0;
                continue;
            }
            stuck += 1;
            if stuck > 100 {
                return Err("the audio device takes no samples".into());
            }
            if written < 0 {
                let code = c_int::try_from(written).unwrap_or(c_int::MIN);
                // SAFETY: `self.pcm` is open; silent = 1 keeps ALSA's own message off stderr.
                let recovered = unsafe { (self.alsa.recover)(self.pcm, code, 1) };
                if recovered < 0 {
                    return Err(format!(
                        "the audio device stopped: {}",
                        self.alsa.error(code)
                    ));
                }
            }
        }
        Ok(())
    }
}

impl Drop for Device {
    fn drop(&mut self) {
        // SAFETY: `self.pcm` was opened by snd_pcm_open and is closed once, here.
        unsafe { (self.alsa.close)(self.pcm) };
    }
}

/// What the game's thread and the audio thread share.
#[derive(Default)]
struct Shared {
    /// The gain to play at, as the bits of an f32.
    gain: AtomicU32,
    /// Why the sound stopped, once it has.
    stopped: Mutex<Option<String>>,
}

impl Shared {
    fn gain(&self) -> f32 {
        f32::from_bits(self.gain.load(Ordering::Relaxed))
    }

    fn stop(&self, why: String) {
        if let Ok(mut stopped) = self.stopped.lock() {
            stopped.get_or_insert(why);
        }
    }
}

/// The game's end of the sound: the events' channel to the audio thread, and the volume. The
/// thread ends (and closes the device) when this is dropped.
pub struct Stream {
    events: SyncSender<FrameEvents>,
    shared: Arc<Shared>,
}

impl Stream {
    /// Opens ALSA's device `device` on a new audio thread that owns a `Synth` from `seed`;
    /// the error, one line, says why no sound plays.
    pub fn open(device: &str, seed: u64) -> Result<Self, String> {
        let (opened_sender, opened) = mpsc::channel();
        let (events, received) = mpsc::sync_channel(QUEUE);
        let shared = Arc::new(Shared::default());
        let theirs = Arc::clone(&shared);
        let name = device.to_string();
        std::thread::Builder::new()
            .name("slosh-sound".into())
            .spawn(move || {
                let device = match Device::open(&name) {
                    Ok(device) => {
                        let _ = opened_sender.send(Ok(device.format()));
                        device
                    }
                    Err(why) => {
                        let _ = opened_sender.send(Err(why));
                        return;
                    }
                };
                let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    play(device, Synth::new(seed), &received, &theirs)
                }));
                if played.is_err() {
                    theirs.stop("the synthesiser failed".into());
                }
            })
            .map_err(|error| format!("no audio thread: {error}"))?;
        match opened.recv_timeout(OPEN_PATIENCE) {
            Ok(Ok(_)) => Ok(Self { events, shared }),
            Ok(Err(why)) => Err(why),
            Err(_) => Err(format!(
                "no audio device: {device:?} did not open within {} s",
                OPEN_PATIENCE.as_secs()
            )),
        }
    }

    /// On, or off with why once the device stopped.
    pub fn status(&self) -> Status {
        match self
            .shared
            .stopped
            .lock()
            .ok()
            .and_then(|stopped| stopped.clone())
        {
            Some(why) => Status::Off(why),
            None => Status::On,
        }
    }

    /// Hands a frame's events to the audio thread; dropped if its queue is full (or it ended).
    pub fn send(&self, events: FrameEvents) {
        let _ = self.events.try_send(events);
    }

    /// The factor the samples are scaled by from the next period (ramped across it).
    pub fn set_gain(&self, gain: f32) {
        self.shared.gain.store(gain.to_bits(), Ordering::Relaxed);
    }
}

/// The audio thread's loop: events in, a period rendered, scaled and written, until the game
/// drops its end or the device stops.
fn play(mut device: Device, mut synth: Synth, events: &Receiver<FrameEvents>, shared: &Shared) {
    let mut period = vec![0.0_f32; PERIOD * CHANNELS];
    let mut gain = shared.gain();
    let started = Instant::now();
    let mut written = 0_u64;
    loop {
        loop {
            match events.try_recv() {
                Ok(frame) => synth.push(&frame),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => return,
            }
        }
        synth.render(&mut period);
        let target = shared.gain();
        apply_gain(&mut period, gain, target);
        gain = target;
        if let Err(why) = device.write(&period) {
            shared.stop(why);
            return;
        }
        written += PERIOD as u64;
        let ahead = written as f64 / f64::from(SAMPLE_RATE) - started.elapsed().as_secs_f64();
        if ahead > AHEAD {
            std::thread::sleep(Duration::from_secs_f64(ahead - AHEAD));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ALSA's `null` device (part of the library itself: no card needed) opens, takes the
    /// frames' events and periods of samples for a while, and closes when dropped. Skipped
    /// where the library is not installed.
    #[test]
    fn the_null_device_plays_and_stops() {
        if Alsa::load().is_err() {
            eprintln!("{LIBRARY} not installed: the null device is not tried");
            return;
        }
        let stream = Stream::open("null", 3).expect("ALSA's null device opens");
        stream.set_gain(0.5);
        for _ in 0..30 {
            stream.send(FrameEvents::default());
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(stream.status(), Status::On);
        drop(stream);
    }
}
