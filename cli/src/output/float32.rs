//! Float32 samples as little-endian bytes, and the header of a `.npy`
//! file of them.

use std::io::{self, Write};

/// `values` as little-endian float32 bytes.
pub fn write_f32_le(out: &mut impl Write, values: &[f32]) -> io::Result<()> {
    if cfg!(target_endian = "little") {
        out.write_all(bytemuck::cast_slice(values))
    } else {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        out.write_all(&bytes)
    }
}

/// The header of a version 1.0 `.npy` file of little-endian float32 in C
/// order with this `shape`: the magic, the header length, and a Python
/// dict literal padded with spaces and a newline to a multiple of 64 bytes.
pub fn npy_header(shape: &[usize]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(|n| n.to_string()).collect();
    // A 1-tuple needs its trailing comma: (5,).
    let tuple = match dims.len() {
        1 => format!("({},)", dims[0]),
        _ => format!("({})", dims.join(", ")),
    };
    let mut dict = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': {tuple}, }}");
    // magic (6) + version (2) + length (2) + dict + padding + '\n'
    let unpadded = 10 + dict.len() + 1;
    dict.push_str(&" ".repeat(unpadded.next_multiple_of(64) - unpadded));
    dict.push('\n');
    let mut header = b"\x93NUMPY\x01\x00".to_vec();
    header.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    header.extend_from_slice(dict.as_bytes());
    header
}
