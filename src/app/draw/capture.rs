//! Animated GIFs of the window: the replay buffer (F9 saves the last `SECONDS` seconds, as a
//! console's does) and screenshot mode's `--gif PATH` (every frame it renders).
//!
//! The main thread only reads the screen back and hands the pixels over: a worker thread
//! shrinks each frame to at most `WIDTH` pixels wide (an area average), keeps them, and encodes
//! the GIF when asked. The palette is one for the whole GIF: NeuQuant (Dekker 1994, the
//! `color_quant` crate) trained on frames spread over the clip picks 255 colours, so the
//! liquid's shading keeps its steps the same from frame to frame; the 256th is transparent,
//! and a pixel that keeps its colour from the frame before is written as it, which the GIF's
//! compression then all but drops. A page has no threads: there capture is not offered.

use crate::sim::numerics::portable::Ordered as _;
use macroquad::prelude::{
    draw_texture_ex, get_internal_gl, render_target, screen_height, screen_width, set_camera,
    set_default_camera, vec2, Camera2D, DrawTextureParams, FilterMode, Rect, RenderTarget,
    Texture2D, WHITE,
};
use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::mpsc;

/// Seconds the replay buffer keeps.
pub const SECONDS: f64 = 10.0;
/// Frames a second the replay buffer keeps, and the GIF plays at.
pub const FRAMES_PER_SECOND: f64 = 20.0;
/// Most pixels a kept frame is wide (narrower screens are kept at their own width).
pub const WIDTH: usize = 400;
/// The palette's transparent entry: "as in the frame before".
const UNCHANGED: u8 = 255;

/// One kept frame: RGB, top row first.
#[derive(Clone, Debug, PartialEq)]
pub struct Shot {
    /// Pixels wide.
    pub width: usize,
    /// Pixels high.
    pub height: usize,
    /// Red, green and blue of each pixel, row by row from the top.
    pub rgb: Vec<u8>,
    /// Seconds it shows for: from when it was taken to when the next one was.
    pub seconds: f64,
}

impl Shot {
    /// `rgba` (the screen as OpenGL reads it: bottom row first, `width` × `height`) shrunk to at
    /// most `most_width` pixels wide, each pixel the mean of the screen's pixels it covers.
    /// It shows for 1 / `FRAMES_PER_SECOND` seconds until told otherwise.
    pub fn shrunk(rgba: &[u8], width: usize, height: usize, most_width: usize) -> Self {
        let factor = width.div_ceil(most_width.max(1)).max(1);
        let (small_width, small_height) = (width / factor, height / factor);
        let mut rgb = Vec::with_capacity(small_width * small_height * 3);
        let area = (factor * factor) as u32;
        for row in 0..small_height {
            // Top row first: the screen's rows from the top are its last.
            let top = height - (row + 1) * factor;
            for column in 0..small_width {
                let mut sum = [0_u32; 3];
                for y in top..top + factor {
                    let start = (y * width + column * factor) * 4;
                    for pixel in rgba[start..start + factor * 4].chunks_exact(4) {
                        for (channel, &value) in sum.iter_mut().zip(pixel) {
                            *channel += u32::from(value);
                        }
                    }
                }
                rgb.extend(sum.map(|channel| ((channel + area / 2) / area) as u8));
            }
        }
        Self {
            width: small_width,
            height: small_height,
            rgb,
            seconds: 1.0 / FRAMES_PER_SECOND,
        }
    }
}

/// Encodes `shots` (all the size of the first) as an animated GIF that loops, each frame shown
/// for its `seconds` (in the GIF's hundredths, the rounding carried to the next frame, so the
/// clip keeps its length). Errors are one line.
pub fn encode(shots: &[Shot], out: impl std::io::Write) -> Result<(), String> {
    let Some(first) = shots.first() else {
        return Err("no frames to write".into());
    };
    let (width, height) = (first.width, first.height);
    let quantizer = train(shots);
    let mut palette = quantizer.color_map_rgb();
    palette.resize(256 * 3, 0);
    let mut encoder = gif::Encoder::new(out, width as u16, height as u16, &palette)
        .map_err(|error| format!("cannot write the GIF: {error}"))?;
    encoder
        .set_repeat(gif::Repeat::Infinite)
        .map_err(|error| format!("cannot write the GIF: {error}"))?;
    let mut index_of: HashMap<[u8; 3], u8> = HashMap::new();
    let mut before: Vec<u8> = Vec::new();
    let mut shown = 0.0_f64;
    let mut written_cs = 0_u64;
    for shot in shots
        .iter()
        .filter(|shot| shot.width == width && shot.height == height)
    {
        let indices: Vec<u8> = shot
            .rgb
            .chunks_exact(3)
            .map(|pixel| {
                let colour = [pixel[0], pixel[1], pixel[2]];
                *index_of.entry(colour).or_insert_with(|| {
                    quantizer.index_of(&[colour[0], colour[1], colour[2], 255]) as u8
                })
            })
            .collect();
        let mut written = indices.clone();
        if before.len() == indices.len() {
            for (pixel, &old) in written.iter_mut().zip(&before) {
                if *pixel == old {
                    *pixel = UNCHANGED;
                }
            }
        }
        shown += shot.seconds;
        let until = (shown * 100.0).round() as u64;
        let delay = (until.saturating_sub(written_cs)).clamp(1, u64::from(u16::MAX)) as u16;
        written_cs += u64::from(delay);
        let frame = gif::Frame {
            width: width as u16,
            height: height as u16,
            buffer: std::borrow::Cow::Owned(written),
            delay,
            transparent: (!before.is_empty()).then_some(UNCHANGED),
            dispose: gif::DisposalMethod::Keep,
            ..gif::Frame::default()
        };
        encoder
            .write_frame(&frame)
            .map_err(|error| format!("cannot write the GIF: {error}"))?;
        before = indices;
    }
    Ok(())
}

/// NeuQuant trained on up to 12 frames spread over `shots`, for 255 colours. It learns from
/// every pixel of a small sample and every 10th of a large one (a clip of the window's frames
/// gives a million pixels): sampled sparsely, a few thousand pixels leave colours 50 steps off.
fn train(shots: &[Shot]) -> color_quant::NeuQuant {
    let step = shots.len().div_ceil(12).max(1);
    let mut sample = Vec::new();
    for shot in shots.iter().step_by(step) {
        for pixel in shot.rgb.chunks_exact(3) {
            sample.extend_from_slice(&[pixel[0], pixel[1], pixel[2], 255]);
        }
    }
    let pixels = sample.len() / 4;
    let sampling = (pixels / 100_000).clamp(1, 10) as i32;
    color_quant::NeuQuant::new(sampling, 255, &sample)
}

/// Writes `shots` to `path` as a GIF.
pub fn write(shots: &[Shot], path: &Path) -> Result<(), String> {
    let file = std::fs::File::create(path)
        .map_err(|error| format!("cannot write the GIF to {}: {error}", path.display()))?;
    encode(shots, std::io::BufWriter::new(file))
        .map_err(|error| format!("{}: {error}", path.display()))
}

/// What the main thread hands the worker.
enum Job {
    /// A frame as read from the screen: RGBA, bottom row first, width, height, and the seconds
    /// since the frame before was taken.
    Frame(Vec<u8>, usize, usize, f64),
    /// Write the frames kept to this file, and say how it went.
    Write(PathBuf),
}

/// Frames taken from the window, kept and written as GIFs by a worker thread.
///
/// Taking a frame costs the main thread little: the screen is copied into a texture and drawn
/// shrunk into a small render target on the GPU (`take`, after the world is drawn), and the small
/// target is read back at the start of the next frame (`collect`, before anything is drawn), when
/// the GPU has finished it, so the read does not wait for the frame being drawn.
pub struct Capture {
    jobs: mpsc::Sender<Job>,
    written: mpsc::Receiver<Result<PathBuf, String>>,
    /// Seconds since the last frame taken (every frame when `every_frame`).
    since_taken: f64,
    every_frame: bool,
    /// The screen's copy, at the screen's size.
    copy: Option<Texture2D>,
    /// The shrunk frame, and its size.
    small: Option<(RenderTarget, (u32, u32))>,
    /// A shrunk frame waits in `small` to be read back.
    pending: bool,
    /// The main thread's milliseconds in the last `take`.
    taken_ms: f64,
    /// Seconds from the frame taken before to the last one taken.
    taken_since: f64,
}

impl Capture {
    /// A replay buffer: a frame every 1 / `FRAMES_PER_SECOND` seconds, the last `SECONDS`
    /// seconds kept (`every_frame`: every frame taken, all of them kept, for `--gif`). `None` in
    /// a page, which has no threads.
    pub fn start(every_frame: bool) -> Option<Self> {
        if cfg!(target_arch = "wasm32") {
            return None;
        }
        let (jobs, incoming) = mpsc::channel::<Job>();
        let (done, written) = mpsc::channel();
        let most_seconds = if every_frame { f64::INFINITY } else { SECONDS };
        std::thread::Builder::new()
            .name("gif".into())
            .spawn(move || {
                let mut kept: VecDeque<Shot> = VecDeque::new();
                // Seconds the frames kept show for, the last one's not yet known.
                let mut kept_seconds = 0.0;
                for job in incoming {
                    match job {
                        Job::Frame(rgba, width, height, since) => {
                            // The frame before shows until this one was taken (at most a
                            // frame's time: a pause or a slow frame does not freeze the clip).
                            if let Some(last) = kept.back_mut() {
                                last.seconds = since.at_most(4.0 / FRAMES_PER_SECOND);
                                kept_seconds += last.seconds;
                            }
                            while kept_seconds > most_seconds && kept.len() > 1 {
                                if let Some(first) = kept.pop_front() {
                                    kept_seconds -= first.seconds;
                                }
                            }
                            let shot = Shot::shrunk(&rgba, width, height, WIDTH);
                            kept.push_back(shot);
                        }
                        Job::Write(path) => {
                            let shots: Vec<Shot> = kept.iter().cloned().collect();
                            let _ = done.send(write(&shots, &path).map(|()| path));
                        }
                    }
                }
            })
            .ok()?;
        Some(Self {
            jobs,
            written,
            since_taken: f64::INFINITY,
            every_frame,
            copy: None,
            small: None,
            pending: false,
            taken_ms: 0.0,
            taken_since: 0.0,
        })
    }

    /// Reads back the frame `take` shrunk last and hands it to the worker; call before
    /// anything of the frame is drawn. Returns the main thread's milliseconds: `take`'s and this
    /// read's (`None`: no frame waited). With a software rasterizer `take`'s includes drawing
    /// the frame so far, which the screen's copy waits for and a GPU does elsewhere.
    pub fn collect(&mut self) -> Option<f64> {
        if !std::mem::take(&mut self.pending) {
            return None;
        }
        let (target, (width, height)) = self.small.as_ref()?;
        let start = crate::sim::numerics::clock::Instant::now();
        let image = target.texture.get_texture_data();
        let since = std::mem::take(&mut self.taken_since);
        let frame = Job::Frame(image.bytes, *width as usize, *height as usize, since);
        let _ = self.jobs.send(frame);
        Some(self.taken_ms + start.elapsed().as_secs_f64() * 1000.0)
    }

    /// Takes the frame drawn so far if one is due, `dt` seconds after the last call: copies the
    /// screen and draws it shrunk on the GPU, to be read back by `collect`.
    pub fn take(&mut self, dt: f64) {
        self.since_taken += dt;
        if !self.every_frame && self.since_taken < 1.0 / FRAMES_PER_SECOND {
            return;
        }
        // Screenshot mode steps one simulation frame per rendered frame: its frames are
        // `FRAMES_PER_SECOND` apart in the world's time, however fast they render.
        self.taken_since = if self.every_frame {
            1.0 / FRAMES_PER_SECOND
        } else {
            self.since_taken
        };
        self.since_taken = 0.0;
        let start = crate::sim::numerics::clock::Instant::now();
        let (screen_width, screen_height) = (screen_width() as u32, screen_height() as u32);
        if screen_width == 0 || screen_height == 0 {
            return;
        }
        let copy_size = self
            .copy
            .as_ref()
            .map(|copy| (copy.width() as u32, copy.height() as u32));
        if copy_size != Some((screen_width, screen_height)) {
            let copy = Texture2D::from_rgba8(
                screen_width as u16,
                screen_height as u16,
                &vec![0; (screen_width * screen_height * 4) as usize],
            );
            copy.set_filter(FilterMode::Linear);
            self.copy = Some(copy);
            let small_width = (WIDTH as u32).min(screen_width);
            let small_height = (small_width * screen_height / screen_width).max(1);
            let target = render_target(small_width, small_height);
            target.texture.set_filter(FilterMode::Linear);
            self.small = Some((target, (small_width, small_height)));
        }
        let (Some(copy), Some((target, _))) = (&self.copy, &self.small) else {
            return;
        };
        // SAFETY: the batched draws are submitted to the GPU before the screen is copied, on
        // the main thread that owns the context.
        unsafe { get_internal_gl().flush() };
        copy.grab_screen();
        // The copy is bottom row first, as OpenGL reads the screen; drawn with the rectangle's
        // y upward it lands in the target the same way, which `Shot::shrunk` expects.
        let mut camera = Camera2D::from_display_rect(Rect::new(0.0, 0.0, 1.0, 1.0));
        camera.zoom.y = -camera.zoom.y;
        camera.render_target = Some(target.clone());
        set_camera(&camera);
        draw_texture_ex(
            copy,
            0.0,
            0.0,
            WHITE,
            DrawTextureParams {
                dest_size: Some(vec2(1.0, 1.0)),
                ..DrawTextureParams::default()
            },
        );
        set_default_camera();
        self.pending = true;
        self.taken_ms = start.elapsed().as_secs_f64() * 1000.0;
    }

    /// Asks the worker to write the frames kept so far to `path` (the last one shrunk is
    /// collected first); `written` says when it has.
    pub fn write(&mut self, path: PathBuf) {
        self.collect();
        let _ = self.jobs.send(Job::Write(path));
    }

    /// The file written since the last call, or why not (None: nothing finished).
    pub fn written(&self) -> Option<Result<PathBuf, String>> {
        self.written.try_recv().ok()
    }

    /// Waits until the worker has written the file asked for last.
    pub fn wait_written(&self) -> Result<PathBuf, String> {
        self.written
            .recv()
            .unwrap_or_else(|_| Err("the GIF writer stopped".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bottom-up RGBA screen of `width` × `height` where each pixel is `colour(x, y)` (y from
    /// the top).
    fn screen(width: usize, height: usize, colour: impl Fn(usize, usize) -> [u8; 3]) -> Vec<u8> {
        let mut rgba = Vec::new();
        for y in (0..height).rev() {
            for x in 0..width {
                let [r, g, b] = colour(x, y);
                rgba.extend_from_slice(&[r, g, b, 255]);
            }
        }
        rgba
    }

    #[test]
    fn a_shrunk_frame_is_the_area_mean_top_row_first() {
        // 4 × 2 pixels, shrunk to at most 2 wide: 2 × 1, each the mean of a 2 × 2 block.
        let rgba = screen(4, 2, |x, y| [(x * 10 + y * 100) as u8, 0, 200]);
        let shot = Shot::shrunk(&rgba, 4, 2, 2);
        assert_eq!((shot.width, shot.height), (2, 1));
        assert_eq!(shot.rgb, vec![55, 0, 200, 75, 0, 200]);
        // Top row first: a screen red on top and blue below keeps red first.
        let rgba = screen(2, 2, |_, y| if y == 0 { [255, 0, 0] } else { [0, 0, 255] });
        let shot = Shot::shrunk(&rgba, 2, 2, 8);
        assert_eq!(shot.rgb[..3], [255, 0, 0]);
    }

    /// A GIF of a moving gradient decodes to as many frames, of the size written, whose colours
    /// are within a few steps of the originals (no banding beyond the palette's), and a still
    /// part of the picture costs next to nothing.
    #[test]
    fn a_gif_decodes_to_its_frames_with_close_colours() {
        let (width, height) = (64, 36);
        let shots: Vec<Shot> = (0..10)
            .map(|t| {
                let rgba = screen(width, height, |x, y| {
                    if y < 18 {
                        [20, 24, 30]
                    } else {
                        [(x * 4) as u8, (100 + t * 8) as u8, (y * 6) as u8]
                    }
                });
                Shot::shrunk(&rgba, width, height, 64)
            })
            .collect();
        let mut bytes = Vec::new();
        encode(&shots, &mut bytes).unwrap();
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::RGBA);
        let mut decoder = options.read_info(bytes.as_slice()).unwrap();
        let mut screen_now = vec![0_u8; width * height * 4];
        let mut frames = 0;
        let (mut total, mut count) = (0_i64, 0_i64);
        while let Some(frame) = decoder.read_next_frame().unwrap() {
            assert_eq!(
                (frame.width as usize, frame.height as usize),
                (width, height)
            );
            assert_eq!(frame.delay, 5);
            // Paint over what was there (transparent: keep).
            for (pixel, new) in screen_now
                .chunks_exact_mut(4)
                .zip(frame.buffer.chunks_exact(4))
            {
                if new[3] != 0 {
                    pixel.copy_from_slice(new);
                }
            }
            for (pixel, original) in screen_now
                .chunks_exact(4)
                .zip(shots[frames].rgb.chunks_exact(3))
            {
                for channel in 0..3 {
                    total += (i64::from(pixel[channel]) - i64::from(original[channel])).abs();
                    count += 1;
                }
            }
            frames += 1;
        }
        assert_eq!(frames, 10);
        // The mean step off, over every channel of every pixel of every frame. Measured: 3.7,
        // the still half exact (11,520 colours of a 3D gradient in 255; the window's frames
        // have far fewer).
        let mean = total as f64 / count as f64;
        assert!(mean <= 5.0, "colours {mean} steps off on average");
    }
}
