//! Unit tests of the `.npy` header and of the formats file names ask for.

use super::*;

#[test]
fn npy_header_is_padded_and_describes_the_shape() {
    let h = npy_header(&[3, 4]);
    assert_eq!(h.len() % 64, 0);
    assert_eq!(&h[..8], b"\x93NUMPY\x01\x00");
    assert_eq!(u16::from_le_bytes([h[8], h[9]]) as usize, h.len() - 10);
    let text = std::str::from_utf8(&h[10..]).unwrap();
    assert!(text.starts_with("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }"));
    assert!(text.ends_with(" \n"));
    assert!(
        std::str::from_utf8(&npy_header(&[5])[10..])
            .unwrap()
            .contains("(5,)")
    );
}

#[test]
fn formats_from_extensions() {
    assert_eq!(
        Format::from_extension(Path::new("a/b.NPY")),
        Some(Format::Npy)
    );
    assert_eq!(
        Format::from_extension(Path::new("x.f32")),
        Some(Format::Raw)
    );
    assert_eq!(
        Format::from_extension(Path::new("x.TIFF")),
        Some(Format::Tiff)
    );
    assert_eq!(
        Format::from_extension(Path::new("x.r16")),
        Some(Format::R16)
    );
    assert_eq!(
        Format::from_extension(Path::new("x.exr")),
        Some(Format::Exr)
    );
    assert_eq!(Format::from_extension(Path::new("x.tga")), None);
    assert!(Format::Raw.admits(Format::R16) && !Format::Raw.admits(Format::Npy));
    assert!(Format::Png.admits(Format::Normal) && !Format::Exr.admits(Format::Tiff));
    assert_eq!(Format::from_extension(Path::new("x")), None);
}
