//! Pictures given by users (card art), decoded under a pixel and memory budget.
//!
//! A picture is a PNG or JPEG (by its bytes, not its name) of at most [`MAX_SIDE`] pixels a
//! side whose decoding needs at most [`MAX_DECODE`] bytes. The same [`MAX_DECODE`] bounds
//! every picture being decoded at one time, all threads together: a thread reserves its
//! picture's share before decoding and waits while the others' shares leave too little,
//! so a job's threads never decode several bombs at once. A decoded picture is kept at most
//! [`MAX_KEPT_SIDE`] pixels a side (more than print needs: a poker card's art at 600 dpi is
//! about 2,100 pixels tall), so a job holds a few megabytes a card, not hundreds.
//!
//! Import (`catalogue::art`) adopts only files that decode here, and print and preflight
//! load art through [`decode`] too, so preflight names every card whose art will not print.

use std::io::Cursor;
use std::sync::{Condvar, Mutex, MutexGuard};

use image::{ImageDecoder, ImageFormat, ImageReader, Limits};

use crate::safe_io::size_text;

/// The widest and tallest picture decoded, in pixels.
pub const MAX_SIDE: u32 = 8192;
/// The most memory decoding one picture may need, and all pictures decoded at once together.
pub const MAX_DECODE: u64 = 512 << 20;
/// The widest and tallest picture kept once decoded (larger ones are scaled down).
pub const MAX_KEPT_SIDE: u32 = 2400;

/// Why a picture was not decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PictureError {
    #[error("not a PNG or JPEG image")]
    NotAnImage,
    #[error("{width} x {height} pixels; a picture is at most {MAX_SIDE} pixels a side")]
    TooLarge { width: u32, height: u32 },
    /// Refused by the decoder's own limits before its size was known.
    #[error(
        "larger than a picture may be (at most {MAX_SIDE} pixels a side and {} to decode)",
        size_text(MAX_DECODE)
    )]
    OverLimits,
    #[error(
        "{width} x {height} pixels need {} MiB to decode, more than the {} a picture may use",
        need.div_ceil(1 << 20),
        size_text(MAX_DECODE)
    )]
    TooMuchMemory { width: u32, height: u32, need: u64 },
    #[error("not a whole {format} image: {message}")]
    Broken {
        format: &'static str,
        message: String,
    },
}

/// A picture decoded: its format, its size in the file, and its pixels (at most
/// [`MAX_KEPT_SIDE`] a side).
#[derive(Debug, Clone)]
pub struct Decoded {
    /// `png` or `jpg`: the extension its bytes call for.
    pub extension: &'static str,
    /// Its width and height in the file.
    pub size: (u32, u32),
    pub rgba: image::RgbaImage,
}

/// A budget of bytes that threads take shares of, waiting while the shares taken leave too
/// little.
struct Pool {
    used: Mutex<u64>,
    released: Condvar,
    limit: u64,
}

/// The bytes reserved by the pictures being decoded now, all threads together.
static DECODING: Pool = Pool::new(MAX_DECODE);

impl Pool {
    const fn new(limit: u64) -> Pool {
        Pool {
            used: Mutex::new(0),
            released: Condvar::new(),
            limit,
        }
    }

    fn used(&self) -> MutexGuard<'_, u64> {
        // A thread that panicked while holding the lock left a plain number: still good.
        self.used.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until `bytes` (at most the limit) fit beside the others' shares.
    fn take(&self, bytes: u64) -> Share<'_> {
        let bytes = bytes.min(self.limit);
        let mut used = self.used();
        while *used + bytes > self.limit {
            used = self.released.wait(used).unwrap_or_else(|e| e.into_inner());
        }
        *used += bytes;
        Share(self, bytes)
    }
}

/// A share of a [`Pool`], given back when dropped (also when a decode panics).
struct Share<'a>(&'a Pool, u64);

impl Drop for Share<'_> {
    fn drop(&mut self) {
        *self.0.used() -= self.1;
        self.0.released.notify_all();
    }
}

/// What a picture of `size` with `decoded` bytes costs to decode and keep: the decoder's
/// buffer, its RGBA copy, and the kept RGBA picture (counted twice: the picture and the
/// premultiplied copy print makes of it).
fn cost((w, h): (u32, u32), decoded: u64, already_rgba: bool) -> u64 {
    let rgba = u64::from(w) * u64::from(h) * 4;
    let (kw, kh) = kept((w, h));
    let kept = u64::from(kw) * u64::from(kh) * 4;
    decoded
        .saturating_add(if already_rgba { 0 } else { rgba })
        .saturating_add(2 * kept)
}

/// The size a picture of `size` is kept at.
fn kept((w, h): (u32, u32)) -> (u32, u32) {
    let long = w.max(h);
    if long <= MAX_KEPT_SIDE {
        return (w, h);
    }
    let k = f64::from(MAX_KEPT_SIDE) / f64::from(long);
    (
        ((f64::from(w) * k).round() as u32).max(1),
        ((f64::from(h) * k).round() as u32).max(1),
    )
}

/// Decodes a PNG or JPEG under the limits above (waiting for a share of the budget).
pub fn decode(bytes: &[u8]) -> Result<Decoded, PictureError> {
    let format = image::guess_format(bytes).map_err(|_| PictureError::NotAnImage)?;
    let (extension, name) = match format {
        ImageFormat::Png => ("png", "PNG"),
        ImageFormat::Jpeg => ("jpg", "JPEG"),
        _ => return Err(PictureError::NotAnImage),
    };
    let broken = |e: image::ImageError| PictureError::Broken {
        format: name,
        message: crate::safe_io::excerpt(&e.to_string(), 200),
    };
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_DECODE);
    reader.limits(limits);
    // The header alone first: its size decides the share (a lying header is caught when
    // the pixels do not follow).
    let decoder = match reader.into_decoder() {
        Ok(d) => d,
        Err(image::ImageError::Limits(_)) => {
            return Err(match png_size(bytes) {
                Some((width, height)) if width.max(height) > MAX_SIDE => {
                    PictureError::TooLarge { width, height }
                }
                _ => PictureError::OverLimits,
            });
        }
        Err(e) => return Err(broken(e)),
    };
    let (width, height) = decoder.dimensions();
    if width > MAX_SIDE || height > MAX_SIDE {
        return Err(PictureError::TooLarge { width, height });
    }
    let rgba8 = decoder.color_type() == image::ColorType::Rgba8;
    let need = cost((width, height), decoder.total_bytes(), rgba8);
    if need > MAX_DECODE {
        return Err(PictureError::TooMuchMemory {
            width,
            height,
            need,
        });
    }
    let _share = DECODING.take(need);
    let img = image::DynamicImage::from_decoder(decoder).map_err(|e| match e {
        image::ImageError::Limits(_) => PictureError::TooMuchMemory {
            width,
            height,
            need,
        },
        e => broken(e),
    })?;
    let rgba = img.into_rgba8();
    let (kw, kh) = kept((width, height));
    let rgba = if (kw, kh) == (width, height) {
        rgba
    } else {
        image::imageops::thumbnail(&rgba, kw, kh)
    };
    Ok(Decoded {
        extension,
        size: (width, height),
        rgba,
    })
}

/// The size a PNG's header declares (for the message only).
fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    let ihdr = bytes.get(12..24)?;
    if &ihdr[..4] != b"IHDR" {
        return None;
    }
    let n = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    Some((n(&ihdr[4..8]), n(&ihdr[8..12])))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(w: u32, h: u32) -> Vec<u8> {
        let mut out = Vec::new();
        image::RgbaImage::from_pixel(w, h, image::Rgba([9, 200, 9, 255]))
            .write_to(&mut Cursor::new(&mut out), ImageFormat::Png)
            .unwrap();
        out
    }

    #[test]
    fn a_picture_decodes_and_a_large_one_is_kept_smaller() {
        let d = decode(&png(3, 2)).unwrap();
        assert_eq!(
            (d.extension, d.size, d.rgba.dimensions()),
            ("png", (3, 2), (3, 2))
        );
        let d = decode(&png(MAX_KEPT_SIDE * 2, 4)).unwrap();
        assert_eq!(d.size, (MAX_KEPT_SIDE * 2, 4));
        assert_eq!(d.rgba.dimensions(), (MAX_KEPT_SIDE, 2));
    }

    #[test]
    fn text_and_other_formats_are_not_pictures() {
        for bytes in [&b"root:x:0:0"[..], b"GIF89a......"] {
            assert_eq!(decode(bytes).unwrap_err(), PictureError::NotAnImage);
        }
    }

    /// Threads taking shares never hold more than the pool together, and all finish.
    #[test]
    fn shares_never_exceed_the_pool() {
        use std::sync::atomic::{AtomicU64, Ordering};
        let pool = Pool::new(100);
        let peak = AtomicU64::new(0);
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| {
                    for _ in 0..50 {
                        let _share = pool.take(60);
                        let now = *pool.used();
                        peak.fetch_max(now, Ordering::SeqCst);
                        std::thread::yield_now();
                    }
                });
            }
        });
        assert_eq!(peak.load(Ordering::SeqCst), 60);
        assert_eq!(*pool.used(), 0);
        // A share larger than the pool waits for all of it, not for ever.
        drop(pool.take(1000));
    }
}
