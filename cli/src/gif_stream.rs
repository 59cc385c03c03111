//! A GIF89a writer that takes each frame's pixels band by band, so an
//! animation of any frame size is written with a band's memory, not a
//! frame's. Written from the GIF89a specification (W3C, 1990); the
//! LZW compression is `weezl`'s, the one the `gif` crate uses.
//!
//! ```text
//! "GIF89a", logical screen (w, h, global 256-colour table), the table
//! NETSCAPE2.0 application extension: loop forever
//! per frame: graphic control extension (delay), image descriptor (0, 0, w, h),
//!            LZW minimum code size 8, data sub-blocks of ≤ 255 bytes, 0
//! trailer 0x3B
//! ```

use std::io::{self, Write};
use weezl::{BitOrder, encode::Encoder};

/// Bits per palette index, and the LZW minimum code size.
const INDEX_BITS: u8 = 8;

/// The GIF trailer byte.
const TRAILER: u8 = 0x3B;

/// Writes the data sub-blocks of one image: at most 255 bytes each,
/// each after its length byte.
struct SubBlocks<'w, W: Write> {
    out: &'w mut W,
    block: Vec<u8>,
}

impl<W: Write> Write for SubBlocks<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let room = 255 - self.block.len();
        let n = room.min(buf.len());
        self.block.extend_from_slice(&buf[..n]);
        if self.block.len() == 255 {
            self.flush_block()?;
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.flush_block()?;
        self.out.flush()
    }
}

impl<W: Write> SubBlocks<'_, W> {
    fn flush_block(&mut self) -> io::Result<()> {
        if !self.block.is_empty() {
            self.out.write_all(&[self.block.len() as u8])?;
            self.out.write_all(&self.block)?;
            self.block.clear();
        }
        Ok(())
    }
}

/// An animated GIF being written: [`GifStream::pixels`] takes the palette
/// indices of the current frame in order, in pieces of any size;
/// [`GifStream::finish`] writes the trailer.
pub struct GifStream<W: Write> {
    out: W,
    width: u16,
    height: u16,
    delay: u16,
    /// Pixels of the current frame written so far.
    done: usize,
    lzw: Encoder,
    /// The current frame's pending sub-block (under 255 bytes).
    block: Vec<u8>,
}

impl<W: Write> GifStream<W> {
    /// The header, the 256-colour global `palette` (`r, g, b` × 256) and
    /// an infinite loop; every frame `width × height` pixels shown for
    /// `delay` hundredths of a second.
    pub fn new(
        mut out: W,
        width: u16,
        height: u16,
        palette: &[u8],
        delay: u16,
    ) -> io::Result<GifStream<W>> {
        assert_eq!(palette.len(), 3 * 256, "a 256-colour palette");
        out.write_all(b"GIF89a")?;
        out.write_all(&width.to_le_bytes())?;
        out.write_all(&height.to_le_bytes())?;
        // Global colour table present (0x80), 8 bits of colour resolution
        // (7 << 4), 2^(7 + 1) = 256 entries (7); background 0; no aspect.
        out.write_all(&[0x80 | (7 << 4) | 7, 0, 0])?;
        out.write_all(palette)?;
        // NETSCAPE2.0: sub-block 1 holds the loop count, 0 = forever.
        out.write_all(&[0x21, 0xFF, 11])?;
        out.write_all(b"NETSCAPE2.0")?;
        out.write_all(&[3, 1, 0, 0, 0])?;
        Ok(GifStream {
            out,
            width,
            height,
            delay,
            done: 0,
            lzw: Encoder::new(BitOrder::Lsb, INDEX_BITS),
            block: Vec::with_capacity(255),
        })
    }

    fn frame_len(&self) -> usize {
        usize::from(self.width) * usize::from(self.height)
    }

    /// Appends palette indices to the current frame; a frame starts and
    /// ends by itself at every `width × height` pixels.
    pub fn pixels(&mut self, mut indices: &[u8]) -> io::Result<()> {
        while !indices.is_empty() {
            if self.done == 0 {
                self.start_frame()?;
            }
            let n = (self.frame_len() - self.done).min(indices.len());
            self.encode(&indices[..n], false)?;
            self.done += n;
            indices = &indices[n..];
            if self.done == self.frame_len() {
                self.encode(&[], true)?;
                self.lzw.reset();
                self.done = 0;
            }
        }
        Ok(())
    }

    /// The graphic control extension and image descriptor of a frame.
    fn start_frame(&mut self) -> io::Result<()> {
        // Disposal unspecified, no user input, no transparency.
        self.out.write_all(&[0x21, 0xF9, 4, 0])?;
        self.out.write_all(&self.delay.to_le_bytes())?;
        self.out.write_all(&[0, 0])?;
        self.out.write_all(&[0x2C, 0, 0, 0, 0])?;
        self.out.write_all(&self.width.to_le_bytes())?;
        self.out.write_all(&self.height.to_le_bytes())?;
        // No local colour table, not interlaced.
        self.out.write_all(&[0, INDEX_BITS])
    }

    /// LZW-compresses `indices` into sub-blocks; `last` adds the end code,
    /// the last short block and the block terminator.
    fn encode(&mut self, indices: &[u8], last: bool) -> io::Result<()> {
        let mut blocks = SubBlocks {
            out: &mut self.out,
            block: std::mem::take(&mut self.block),
        };
        let mut stream = self.lzw.into_stream(&mut blocks);
        let result = match last {
            false => stream.encode(indices).status,
            true => stream.encode_all(indices).status,
        };
        result?;
        if last {
            blocks.flush_block()?;
            blocks.out.write_all(&[0])?;
        }
        self.block = blocks.block;
        Ok(())
    }

    /// Writes the trailer and returns the writer.
    pub fn finish(mut self) -> io::Result<W> {
        if self.done != 0 {
            return Err(io::Error::other("the last frame is incomplete"));
        }
        self.out.write_all(&[TRAILER])?;
        Ok(self.out)
    }
}
