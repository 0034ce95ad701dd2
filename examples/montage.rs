//! Tiles screenshots into one picture (docs/presets.png, the montage of every preset):
//!
//!     cargo run --release --example montage -- OUT.png COLUMNS WIDTH IN.png...
//!
//! Each input (RGBA or RGB PNG) is shrunk to `WIDTH` pixels across by averaging the pixels that
//! fall in each output pixel, its height following its aspect ratio, and laid out in `COLUMNS`
//! columns, left to right then down, on the window's outside colour with a 4-pixel gap.

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

/// The gap between tiles, pixels.
const GAP: usize = 4;
/// The background between tiles (the window's outside colour).
const BACKGROUND: [u8; 3] = [14, 15, 19];

/// A picture as rows of RGB pixels.
struct Picture {
    width: usize,
    height: usize,
    rgb: Vec<u8>,
}

fn load(path: &Path) -> Result<Picture, String> {
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut reader = png::Decoder::new(file)
        .read_info()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut buffer = vec![0; reader.output_buffer_size()];
    let info = reader
        .next_frame(&mut buffer)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let channels = match info.color_type {
        png::ColorType::Rgba => 4,
        png::ColorType::Rgb => 3,
        other => return Err(format!("{}: {other:?} is not RGB(A)", path.display())),
    };
    if info.bit_depth != png::BitDepth::Eight {
        return Err(format!("{}: not 8 bits a channel", path.display()));
    }
    let rgb = buffer[..info.buffer_size()]
        .chunks_exact(channels)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    Ok(Picture {
        width: info.width as usize,
        height: info.height as usize,
        rgb,
    })
}

/// `picture` shrunk to `width` across, each output pixel the mean of the input pixels it covers.
fn shrink(picture: &Picture, width: usize) -> Picture {
    let height = (picture.height * width).div_ceil(picture.width).max(1);
    let mut rgb = vec![0; width * height * 3];
    for y in 0..height {
        let (y0, y1) = (
            y * picture.height / height,
            ((y + 1) * picture.height / height).max(y * picture.height / height + 1),
        );
        for x in 0..width {
            let (x0, x1) = (
                x * picture.width / width,
                ((x + 1) * picture.width / width).max(x * picture.width / width + 1),
            );
            let mut sum = [0u32; 3];
            for sy in y0..y1.min(picture.height) {
                for sx in x0..x1.min(picture.width) {
                    let at = (sy * picture.width + sx) * 3;
                    for (total, &channel) in sum.iter_mut().zip(&picture.rgb[at..at + 3]) {
                        *total += u32::from(channel);
                    }
                }
            }
            let count = ((y1 - y0) * (x1 - x0)).max(1) as u32;
            let at = (y * width + x) * 3;
            for (out, total) in rgb[at..at + 3].iter_mut().zip(sum) {
                *out = (total / count) as u8;
            }
        }
    }
    Picture { width, height, rgb }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: montage OUT.png COLUMNS WIDTH IN.png...";
    let [out, columns, width, inputs @ ..] = &args[..] else {
        return Err(usage.into());
    };
    let columns: usize = columns.parse().map_err(|_| usage.to_string())?;
    let width: usize = width.parse().map_err(|_| usage.to_string())?;
    if columns == 0 || width == 0 || inputs.is_empty() {
        return Err(usage.into());
    }
    let tiles = inputs
        .iter()
        .map(|path| load(Path::new(path)).map(|p| shrink(&p, width)))
        .collect::<Result<Vec<_>, _>>()?;
    let tile_height = tiles.iter().map(|t| t.height).max().unwrap_or(1);
    let rows = tiles.len().div_ceil(columns);
    let (total_w, total_h) = (
        columns * width + (columns + 1) * GAP,
        rows * tile_height + (rows + 1) * GAP,
    );
    let mut rgb: Vec<u8> = BACKGROUND
        .iter()
        .copied()
        .cycle()
        .take(total_w * total_h * 3)
        .collect();
    for (k, tile) in tiles.iter().enumerate() {
        let (left, top) = (
            GAP + (k % columns) * (width + GAP),
            GAP + (k / columns) * (tile_height + GAP),
        );
        for y in 0..tile.height {
            let from = y * tile.width * 3;
            let to = ((top + y) * total_w + left) * 3;
            rgb[to..to + tile.width * 3].copy_from_slice(&tile.rgb[from..from + tile.width * 3]);
        }
    }
    let file = File::create(out).map_err(|e| format!("{out}: {e}"))?;
    let mut encoder = png::Encoder::new(BufWriter::new(file), total_w as u32, total_h as u32);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(|e| format!("{out}: {e}"))?;
    writer
        .write_image_data(&rgb)
        .map_err(|e| format!("{out}: {e}"))?;
    println!("{out}: {} tiles, {total_w}x{total_h}", tiles.len());
    Ok(())
}

fn main() {
    if let Err(error) = run() {
        eprintln!("montage: {error}");
        std::process::exit(2);
    }
}
