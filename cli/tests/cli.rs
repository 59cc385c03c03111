//! The `noisefield` command, run as a user runs it: each test starts the
//! built binary in a fresh temporary directory and checks the files it
//! writes against the library's own fills, bit for bit (`to_bits`), or
//! against the documented mappings (gray = round(255·t), 16-bit =
//! round(65535·t), t = (v − lo)/(hi − lo)).

use noisefield::prelude::*;
use noisefield::{
    Billow, Blend, DynSource, Fbm, Grid2, Grid3, Level, Marble, Perlin, Ridged, Turbulence, Value,
    Warp,
};
mod common;

use common::{listing, run_in, temp_dir, words};
use std::fs;
use std::path::Path;
use std::process::Command;

/// Runs `noisefield args…` in `dir` and insists that it succeeds quietly:
/// exit 0, nothing on stderr (no progress bar when stderr is not a terminal).
fn ok_in(dir: &Path, args: &[&str]) -> String {
    let out = run_in(dir, args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "noisefield {args:?} failed: {stderr}");
    assert!(
        stderr.is_empty(),
        "noisefield {args:?} wrote to stderr: {stderr}"
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

/// Little-endian f32s.
fn floats(bytes: &[u8]) -> Vec<f32> {
    assert_eq!(bytes.len() % 4, 0, "not a whole number of f32");
    bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

/// Asserts equal lengths and equal bits.
fn assert_same_bits(got: &[f32], want: &[f32]) {
    assert_eq!(got.len(), want.len(), "lengths differ");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g.to_bits(), w.to_bits(), "sample {i}: {g} != {w}");
    }
}

/// The library's fill of a 2D grid.
fn library2(perlin: &Perlin, grid: Grid2) -> Vec<f32> {
    let [nx, ny] = grid.size();
    let mut out = vec![0.0; nx * ny];
    perlin.fill_grid(&grid, &mut out).unwrap();
    out
}

/// The library's fill of a 3D grid.
fn library3(perlin: &Perlin, grid: Grid3) -> Vec<f32> {
    let [nx, ny, nz] = grid.size();
    let mut out = vec![0.0; nx * ny * nz];
    perlin.fill_grid(&grid, &mut out).unwrap();
    out
}

/// Splits a `.npy` file into the text of its header dict and its data,
/// checking the magic, the version and the 64-byte alignment.
fn split_npy(bytes: &[u8]) -> (String, &[u8]) {
    assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00", "magic and version 1.0");
    let header_len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    assert_eq!((10 + header_len) % 64, 0, "data aligned to 64 bytes");
    let header = std::str::from_utf8(&bytes[10..10 + header_len]).unwrap();
    assert!(header.ends_with('\n'));
    (header.trim_end().to_string(), &bytes[10 + header_len..])
}

/// A decoded PNG: width, height, colour type, bit depth, pixel bytes, text chunks.
struct Png {
    width: u32,
    height: u32,
    color: png::ColorType,
    depth: png::BitDepth,
    pixels: Vec<u8>,
    text: Vec<(String, String)>,
}

fn decode_png(path: &Path) -> Png {
    let bytes = fs::read(path).unwrap();
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .expect("a valid PNG");
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let frame = reader.next_frame(&mut pixels).expect("PNG data decodes");
    pixels.truncate(frame.buffer_size());
    let info = reader.info();
    let text = info
        .uncompressed_latin1_text
        .iter()
        .map(|t| (t.keyword.clone(), t.text.clone()))
        .collect();
    Png {
        width: info.width,
        height: info.height,
        color: info.color_type,
        depth: info.bit_depth,
        pixels,
        text,
    }
}

#[test]
fn default_render_writes_noise_png_1024_terrain_map_in_an_empty_directory() {
    let dir = temp_dir();
    ok_in(dir.path(), &["render"]);
    assert_eq!(listing(dir.path()), ["noise.png"]);
    let png = decode_png(&dir.path().join("noise.png"));
    assert_eq!((png.width, png.height), (1024, 1024));
    assert_eq!(
        (png.color, png.depth),
        (png::ColorType::Rgb, png::BitDepth::Eight)
    );
    // A terrain map: some pixels are water (blue above red and green), some land.
    let pixels: Vec<&[u8]> = png.pixels.chunks_exact(3).collect();
    let water = pixels.iter().filter(|p| p[2] > p[0] && p[2] > p[1]).count();
    let green = pixels.iter().filter(|p| p[1] > p[0] && p[1] > p[2]).count();
    assert!(water > pixels.len() / 10, "{water} water pixels");
    assert!(green > pixels.len() / 10, "{green} green pixels");
}

#[test]
fn png_has_the_requested_size_and_gray_pixels_follow_the_documented_mapping() {
    let dir = temp_dir();
    let args = words(
        "render --source perlin --seed 5 --size 48x20 --frequency 1/16 --palette gray --range -1..1 -o g.png",
    );
    ok_in(dir.path(), &args);
    let png = decode_png(&dir.path().join("g.png"));
    assert_eq!((png.width, png.height), (48, 20));
    assert_eq!(
        (png.color, png.depth),
        (png::ColorType::Grayscale, png::BitDepth::Eight)
    );
    let grid = Grid2::new([0.0; 2], [1.0 / 16.0; 2], [48, 20]);
    let values = library2(&Perlin::new(5), grid);
    let want: Vec<u8> = values
        .iter()
        .map(|&v| ((f64::from(v) + 1.0) / 2.0 * 255.0).round() as u8)
        .collect();
    assert_eq!(png.pixels, want);
    assert!(
        png.text
            .contains(&("noisefield range".into(), "-1..1".into()))
    );
}

#[test]
fn png16_is_a_16_bit_gray_heightmap_spanning_the_fields_own_range() {
    let dir = temp_dir();
    let args = words("render --source perlin --size 33x17 --format png16 -o h.png");
    ok_in(dir.path(), &args);
    let png = decode_png(&dir.path().join("h.png"));
    assert_eq!((png.width, png.height), (33, 17));
    assert_eq!(
        (png.color, png.depth),
        (png::ColorType::Grayscale, png::BitDepth::Sixteen)
    );
    let heights: Vec<u16> = png
        .pixels
        .chunks_exact(2)
        .map(|b| u16::from_be_bytes([b[0], b[1]]))
        .collect();
    // Without --range the field's own min and max map to 0 and 65535.
    let grid = Grid2::new([0.0; 2], [1.0 / 128.0; 2], [33, 17]);
    let values = library2(&Perlin::new(0), grid);
    let lo = values.iter().copied().fold(f32::INFINITY, f32::min);
    let hi = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let (lo64, hi64) = (f64::from(lo), f64::from(hi));
    let want: Vec<u16> = values
        .iter()
        .map(|&v| ((f64::from(v) - lo64) / (hi64 - lo64) * 65535.0).round() as u16)
        .collect();
    assert_eq!(heights, want);
    assert!(heights.contains(&0) && heights.contains(&65535));
    assert!(
        png.text
            .contains(&("noisefield range".into(), format!("{lo64}..{hi64}")))
    );
}

#[test]
fn a_volume_as_png_is_its_slices_stacked_vertically() {
    let dir = temp_dir();
    let args = words("render --source perlin --size 16x8x3 --palette gray --range -2..2 -o v.png");
    ok_in(dir.path(), &args);
    let png = decode_png(&dir.path().join("v.png"));
    assert_eq!((png.width, png.height), (16, 24));
    let grid = Grid3::new([0.0; 3], [1.0 / 128.0; 3], [16, 8, 3]);
    let want: Vec<u8> = library3(&Perlin::new(0), grid)
        .iter()
        .map(|&v| ((f64::from(v) + 2.0) / 4.0 * 255.0).round() as u8)
        .collect();
    assert_eq!(png.pixels, want);
}

/// `--source name` and the options after it, as the library builds it.
fn library_source(name: &str) -> DynSource {
    let perlin = Perlin::new(4);
    match name {
        "perlin" => DynSource::new(perlin),
        "value" => DynSource::new(Value::new(4)),
        "simplex" => DynSource::new(noisefield::Simplex::new(4)),
        "fbm" => DynSource::new(
            Fbm::new(perlin)
                .octaves(3)
                .lacunarity(2.5)
                .persistence(0.25),
        ),
        "ridged" => DynSource::new(
            Ridged::new(perlin)
                .octaves(3)
                .lacunarity(2.5)
                .persistence(0.25),
        ),
        "billow" => DynSource::new(
            Billow::new(perlin)
                .octaves(3)
                .lacunarity(2.5)
                .persistence(0.25),
        ),
        "turbulence" => DynSource::new(
            Turbulence::new(perlin)
                .octaves(3)
                .lacunarity(2.5)
                .persistence(0.25),
        ),
        _ => DynSource::new(
            Marble::new(perlin)
                .octaves(3)
                .lacunarity(2.5)
                .persistence(0.25)
                .stripes(3.0)
                .power(2.0),
        ),
    }
}

/// The library's fill of a 3D grid by any source.
fn fill3_by(source: &DynSource, grid: &Grid3) -> Vec<f32> {
    let [nx, ny, nz] = grid.size();
    let mut out = vec![0.0; nx * ny * nz];
    source.fill_grid(grid, &mut out).unwrap();
    out
}

#[test]
fn every_source_writes_the_librarys_values() {
    let dir = temp_dir();
    for name in [
        "perlin",
        "value",
        "fbm",
        "ridged",
        "billow",
        "turbulence",
        "marble",
    ] {
        let fractal = match name {
            "perlin" | "value" => "",
            "marble" => "--octaves 3 --lacunarity 2.5 --persistence 0.25 --stripes 3 --power 2",
            _ => "--octaves 3 --lacunarity 2.5 --persistence 0.25",
        };
        let args = format!(
            "render --source {name} {fractal} --seed 4 --size 19x6x4 --frequency 0.15 \
             --origin -3,2.5,0.75 -o {name}.npy"
        );
        ok_in(dir.path(), &words(&args));
        let bytes = fs::read(dir.path().join(format!("{name}.npy"))).unwrap();
        let grid = Grid3::new([-3.0, 2.5, 0.75], [0.15; 3], [19, 6, 4]);
        let want = fill3_by(&library_source(name), &grid);
        assert_same_bits(&floats(split_npy(&bytes).1), &want);
    }
}

#[test]
fn a_recipe_writes_the_librarys_values_with_the_options_as_defaults() {
    let dir = temp_dir();
    let recipe = "select(warp(fbm(octaves=2),perlin(seed=9),amplitude=0.5),ridged(value),perlin(seed=3),edge=0.2)";
    let args = format!(
        "render --source {recipe} --seed 4 --octaves 3 --size 19x6x4 --frequency 0.15 \
         --origin -3,2.5,0.75 -o r.npy"
    );
    ok_in(dir.path(), &words(&args));
    let bytes = fs::read(dir.path().join("r.npy")).unwrap();
    let grid = Grid3::new([-3.0, 2.5, 0.75], [0.15; 3], [19, 6, 4]);
    // Written out with the library's types: --seed is the seed of every
    // lattice without one, --octaves the octaves of every fractal without.
    let want = Blend::select(
        Warp::new(Fbm::new(Perlin::new(4)).octaves(2), Perlin::new(9)).amplitude(0.5),
        Ridged::new(Value::new(4)).octaves(3),
        Perlin::new(3),
        0.0,
        0.2,
    );
    let mut values = vec![0.0; 19 * 6 * 4];
    want.fill_grid(&grid, &mut values).unwrap();
    assert_same_bits(&floats(split_npy(&bytes).1), &values);
}

#[test]
fn a_periodic_fbm_tile_is_the_fractal_over_a_periodic_perlin() {
    let dir = temp_dir();
    ok_in(
        dir.path(),
        &words("render --size 64x32 --period 4,2 -o tile.npy"),
    );
    let bytes = fs::read(dir.path().join("tile.npy")).unwrap();
    let got = floats(split_npy(&bytes).1);
    let base = Perlin::new(0).with_period([4, 2, 256, 256]).unwrap();
    let fbm = Fbm::new(base);
    let step = [4.0 / 64.0, 2.0 / 32.0];
    let mut want = vec![0.0; 64 * 32];
    fbm.fill_grid(&Grid2::new([0.0; 2], step, [64, 32]), &mut want)
        .unwrap();
    assert_same_bits(&got, &want);
    // Seamless: the row just below the tile is its first row again.
    let mut next = vec![0.0; 64];
    fbm.fill_grid(&Grid2::new([0.0, 2.0], step, [64, 1]), &mut next)
        .unwrap();
    for i in 0..64 {
        assert!(
            (next[i] - got[i]).abs() < 1e-5,
            "column {i}: {} vs {}",
            next[i],
            got[i]
        );
    }
}

#[test]
fn a_png_band_is_the_wholes_rows_pixel_for_pixel() {
    let dir = temp_dir();
    let base = "render --source perlin --size 20x10 --frequency 0.1 --palette clouds";
    ok_in(dir.path(), &words(&format!("{base} -o whole.png")));
    ok_in(
        dir.path(),
        &words(&format!("{base} --rows 3..7 -o band.png")),
    );
    let whole = decode_png(&dir.path().join("whole.png"));
    let band = decode_png(&dir.path().join("band.png"));
    assert_eq!((band.width, band.height), (20, 4));
    // Without --range both map the whole field's min..max.
    assert_eq!(band.pixels, whole.pixels[3 * 20 * 3..7 * 20 * 3]);
    assert_eq!(band.text, whole.text);
}

#[test]
fn npy_header_and_data_equal_the_library_fill() {
    let dir = temp_dir();
    let args = words(
        "render --source perlin --seed 7 --size 37x23 --frequency 0.05 --origin 1.5,-2 -o f.npy",
    );
    ok_in(dir.path(), &args);
    let bytes = fs::read(dir.path().join("f.npy")).unwrap();
    let (header, data) = split_npy(&bytes);
    assert_eq!(
        header,
        "{'descr': '<f4', 'fortran_order': False, 'shape': (23, 37), }"
    );
    let grid = Grid2::new([1.5, -2.0], [0.05; 2], [37, 23]);
    assert_same_bits(&floats(data), &library2(&Perlin::new(7), grid));
}

#[test]
fn npy_of_a_volume_has_shape_z_y_x_and_the_library_values() {
    let dir = temp_dir();
    let args = words(
        "render --source perlin --size 9x7x5 --frequency 0.3 --origin 0,0,-3.25 --format npy -o vol.npy",
    );
    ok_in(dir.path(), &args);
    let bytes = fs::read(dir.path().join("vol.npy")).unwrap();
    let (header, data) = split_npy(&bytes);
    assert!(header.contains("'shape': (5, 7, 9)"), "{header}");
    let grid = Grid3::new([0.0, 0.0, -3.25], [0.3; 3], [9, 7, 5]);
    assert_same_bits(&floats(data), &library3(&Perlin::new(0), grid));
}

#[test]
fn raw_has_4_bytes_per_sample_and_the_library_values_over_several_bands() {
    // 2100 × 1100 samples: more than one internal band of 2^20 samples.
    let dir = temp_dir();
    let args =
        words("render --source perlin --seed 3 --size 2100x1100 --frequency 1/100 -o big.raw");
    ok_in(dir.path(), &args);
    let bytes = fs::read(dir.path().join("big.raw")).unwrap();
    assert_eq!(bytes.len(), 2100 * 1100 * 4);
    let grid = Grid2::new([0.0; 2], [0.01; 2], [2100, 1100]);
    assert_same_bits(&floats(&bytes), &library2(&Perlin::new(3), grid));
}

#[test]
fn raw_bands_concatenate_byte_for_byte_into_the_whole() {
    let dir = temp_dir();
    let base = "render --source perlin --size 40x23 --format raw";
    let with = |extra: &str| format!("{base} {extra}");
    ok_in(dir.path(), &words(&with("-o whole.raw")));
    let mut joined = Vec::new();
    for (i, band) in ["0..5", "5..6", "6..23"].iter().enumerate() {
        let name = format!("band{i}.raw");
        ok_in(
            dir.path(),
            &words(&with(&format!("--rows {band} -o {name}"))),
        );
        joined.extend(fs::read(dir.path().join(name)).unwrap());
    }
    let whole = fs::read(dir.path().join("whole.raw")).unwrap();
    assert_eq!(whole.len(), 40 * 23 * 4);
    assert!(joined == whole, "bands differ from the whole");
}

#[test]
fn npy_bands_have_their_own_shapes_and_their_data_concatenate_to_the_whole() {
    let dir = temp_dir();
    let base = "render --source perlin --size 6x5x7 --frequency 0.2";
    let with = |extra: &str| format!("{base} {extra}");
    ok_in(dir.path(), &words(&with("-o whole.npy")));
    let whole = fs::read(dir.path().join("whole.npy")).unwrap();
    let (_, whole_data) = split_npy(&whole);
    let mut joined = Vec::new();
    for (band, slices) in [("0..2", 2), ("2..7", 5)] {
        ok_in(
            dir.path(),
            &words(&with(&format!("--rows {band} -o band.npy"))),
        );
        let bytes = fs::read(dir.path().join("band.npy")).unwrap();
        let (header, data) = split_npy(&bytes);
        assert!(
            header.contains(&format!("'shape': ({slices}, 5, 6)")),
            "{header}"
        );
        joined.extend_from_slice(data);
    }
    assert!(joined == whole_data, "bands differ from the whole");
}

#[test]
fn period_makes_the_field_span_whole_periods_so_it_tiles() {
    let dir = temp_dir();
    let args = words("render --source perlin --seed 2 --size 40x30 --period 3 -o t.npy");
    ok_in(dir.path(), &args);
    let bytes = fs::read(dir.path().join("t.npy")).unwrap();
    let got = floats(split_npy(&bytes).1);
    let tile = Perlin::new(2).with_period([3, 3, 256, 256]).unwrap();
    let grid = Grid2::new([0.0; 2], [3.0 / 40.0, 3.0 / 30.0], [40, 30]);
    assert_same_bits(&got, &library2(&tile, grid));
    // The column just right of the tile is the tile's first column again.
    let next = library2(
        &tile,
        Grid2::new([3.0, 0.0], [3.0 / 40.0, 3.0 / 30.0], [1, 30]),
    );
    for j in 0..30 {
        assert!((next[j] - got[j * 40]).abs() < 1e-6, "row {j}");
    }
}

#[test]
fn threads_and_levels_do_not_change_the_bytes() {
    let dir = temp_dir();
    let base = "render --source perlin --size 70x9x3 --format raw";
    let with = |extra: &str| format!("{base} {extra}");
    ok_in(dir.path(), &words(&with("-o default.raw")));
    let default = fs::read(dir.path().join("default.raw")).unwrap();
    ok_in(dir.path(), &words(&with("--threads 1 -o one.raw")));
    assert!(fs::read(dir.path().join("one.raw")).unwrap() == default);
    for level in Level::available() {
        ok_in(
            dir.path(),
            &words(&with(&format!("--level {level} -o level.raw"))),
        );
        let bytes = fs::read(dir.path().join("level.raw")).unwrap();
        assert!(bytes == default, "--level {level} differs");
    }
}

/// Arguments that must be refused: exit code 2, a message naming the
/// problem, and no file written or changed.
#[test]
fn bad_arguments_exit_2_with_a_message_and_write_nothing() {
    let mut cases: Vec<(String, &str)> = [
        ("render --size 0x10", "at least 1"),
        ("render --size 10", "WxH"),
        ("render --size 10x10x10x10", "WxH"),
        ("render --size 16777217x1", "more than"),
        ("render --size 9999999x9999999", "more than"),
        ("render --size ax5", "whole number"),
        ("render --frequency NaN", "finite"),
        ("render --frequency inf", "finite"),
        ("render --frequency 0", "greater than 0"),
        ("render --frequency -0.5", "greater than 0"),
        ("render --frequency 1/0", "finite"),
        ("render --palette rainbow", "rainbow"),
        ("render --source cellular", "cellular"),
        ("render --octaves 0", "octaves"),
        ("render --octaves 33", "octaves"),
        ("render --lacunarity NaN", "lacunarity"),
        ("render --persistence inf", "persistence"),
        ("render --source perlin --octaves 4", "--octaves"),
        ("render --period 4 --lacunarity 2.5", "lacunarity"),
        ("render --source perlin --normalize", "--normalize"),
        ("render --source fbm --stripes 2", "--stripes"),
        ("render --source marble --power NaN", "power"),
        (
            "render --source fbm(perlin,octavs=4)",
            "column 12: unknown parameter \"octavs\"",
        ),
        ("render --source add(perlin", "expected ',' or ')'"),
        (
            "render --source add(perlin,value) --octaves 4",
            "--octaves applies to fractal sources",
        ),
        (
            "render --source fbm(perlin) --stripes 2",
            "--stripes applies to marble",
        ),
        (
            "render --source fbm(perlin(period=4),lacunarity=2.5)",
            "lacunarity",
        ),
        (
            "render --source fbm(value) --period 4 --lacunarity 2.5",
            "lacunarity",
        ),
        (
            "render --source abs(ridged(perlin)) --format normal",
            "derivatives",
        ),
        ("render --rows 5..3", "empty"),
        ("render --rows 0..1025", "outside"),
        ("render --rows 3", "A..B"),
        ("render --size 4x4x4 --rows 2..5", "outside"),
        ("render --size 8x8x8 --origin 1,2", "--origin"),
        ("render --origin nan,0", "finite"),
        ("render --period 0", "period"),
        ("render --period 2 --frequency 0.1", "--frequency"),
        ("render --period 2,2,2", "--period"),
        ("render --seed -1", "seed"),
        ("render --level avx9", "avx9"),
        ("render --format bmp", "bmp"),
        ("render --range 1..0", "less than"),
        ("render --range 0..nan", "finite"),
        ("render --format npy --palette gray", "--palette"),
        ("render --format raw --range 0..1", "--range"),
        ("render --format exr --range 0..1", "--range"),
        ("render --format tiff --range 0..1", "--range"),
        ("render --format normal --range 0..1", "--range"),
        ("render --format normal --palette gray", "--palette"),
        ("render --size 8x8x8 --format normal", "3D volume"),
        ("render --size 8x8x8 --format r16", "3D volume"),
        ("render --source ridged --format normal", "derivatives"),
        ("render --source marble --format normal", "derivatives"),
        ("render --normal-strength 2", "--normal-strength"),
        ("render --format png16 --normal-flip-y", "--normal-flip-y"),
        ("render --format normal --normal-strength 0", "strength"),
        ("render --format normal --normal-strength nan", "finite"),
        ("render --format r16 -o x.npy", "does not match"),
        ("render --format exr -o x.tif", "does not match"),
        ("render --tile -1,0", "from 0"),
        ("render --tile 1", "X,Y"),
        ("render --tile 1,2,3", "--tile"),
        ("render --size 4x4x4 --tile 1,2", "--tile"),
        ("render --tile 1,1 --period 4", "--period"),
        ("render --tile a,0", "tile index"),
        ("render --shared-edges", "--tile"),
        ("render --size 1x8 --tile 0,0 --shared-edges", "2 or more"),
        ("render --size 8x8x4097 --format exr", "EXR volume"),
        ("render --threads 0", "threads"),
        ("render --bogus", "--bogus"),
        ("animate --frames 0", "frames"),
        ("animate --size 8x8x8", "WxH"),
        ("animate --size 70000x2", "GIF"),
        ("animate --fps 0", "fps"),
        ("animate --size 60000x60000 --frames 100000", "more than"),
        ("animate --time-step NaN", "finite"),
        ("stats --bins 0", "bins"),
        ("stats --size 0x0", "at least 1"),
        ("bench --points 0", "points"),
        ("frobnicate", "frobnicate"),
    ]
    .map(|(args, needle)| (args.to_string(), needle))
    .to_vec();
    let unavailable = [Level::Neon, Level::Avx2, Level::Avx512]
        .into_iter()
        .find(|l| !l.is_available());
    if let Some(level) = unavailable {
        cases.push((format!("render --level {level}"), "not supported"));
    }
    for (args, needle) in cases {
        let dir = temp_dir();
        // An existing output must survive, and no other file may appear.
        let keep = dir.path().join("noise.png");
        fs::write(&keep, b"precious").unwrap();
        let out = run_in(dir.path(), &words(&args));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(needle),
            "{args:?}: {needle:?} not in {stderr}"
        );
        assert_eq!(listing(dir.path()), ["noise.png"], "{args:?} wrote a file");
        assert_eq!(fs::read(&keep).unwrap(), b"precious", "{args:?} clobbered");
        assert!(out.stdout.is_empty(), "{args:?} printed {:?}", out.stdout);
    }
}

#[test]
fn an_unknown_output_extension_is_refused_unless_a_format_is_given() {
    let dir = temp_dir();
    let out = run_in(dir.path(), &["render", "--source", "perlin", "-o", "a.tga"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--format"));
    assert!(listing(dir.path()).is_empty());
    let args = words("render --source perlin --size 8x8 --format raw -o a.tga");
    ok_in(dir.path(), &args);
    assert_eq!(
        fs::metadata(dir.path().join("a.tga")).unwrap().len(),
        8 * 8 * 4
    );
}

#[test]
fn an_extension_naming_another_format_is_refused() {
    let dir = temp_dir();
    for line in [
        "render --size 8x8 --format npy -o x.png",
        "render --size 8x8 --format png -o x.npy",
        "render --size 8x8 --format raw -o x.npy",
        "render --size 8x8 --format png16 -o x.raw",
    ] {
        let out = run_in(dir.path(), &words(line));
        assert_eq!(out.status.code(), Some(2), "{line}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("does not match"), "{line}: {err}");
        assert!(listing(dir.path()).is_empty(), "{line} wrote a file");
    }
    // A 16-bit PNG is a `.png`; a matching format is fine.
    ok_in(
        dir.path(),
        &words("render --size 8x8 --format png16 -o h.png"),
    );
    ok_in(
        dir.path(),
        &words("render --size 8x8 --format npy -o h.npy"),
    );
    assert_eq!(listing(dir.path()), ["h.npy", "h.png"]);
}

#[test]
fn a_closed_pipe_ends_quietly_with_0() {
    use std::process::Stdio;
    // The reader is gone before stats has computed its field (as with
    // `noisefield stats | head -0`): writing the report meets a closed
    // pipe, which ends the command with 0 and nothing on stderr.
    let mut child = Command::new(env!("CARGO_BIN_EXE_noisefield"))
        .args(words("stats --size 256x256"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_failed_write_exits_1_and_leaves_no_partial_file() {
    let dir = temp_dir();
    // A device that refuses every byte (ENOSPC): written directly, the
    // failure comes after the work, as an I/O failure.
    for format in ["raw", "png"] {
        let line = format!("render --source perlin --size 64x64 --format {format} -o /dev/full");
        let out = run_in(dir.path(), &words(&line));
        assert_eq!(out.status.code(), Some(1), "{line}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("error: cannot write /dev/full"), "{err}");
        assert_eq!(listing(dir.path()), Vec::<String>::new());
    }
}

/// Paths that cannot be written are refused before any work with exit 2
/// and a message naming the problem; nothing is created or changed: a
/// directory (with or without a trailing slash), a missing directory, a
/// file inside a file, a name longer than 255 bytes, a read-only file, a
/// symbolic link into a missing directory. Each is refused in well under
/// a second although the field asked for would take minutes.
#[test]
fn bad_output_paths_are_refused_before_any_work() {
    let dir = temp_dir();
    fs::create_dir(dir.path().join("taken.raw")).unwrap();
    fs::write(dir.path().join("taken.raw/inside"), b"x").unwrap();
    fs::write(dir.path().join("plain"), b"x").unwrap();
    fs::write(dir.path().join("ro.raw"), b"keep").unwrap();
    let mut perms = fs::metadata(dir.path().join("ro.raw"))
        .unwrap()
        .permissions();
    perms.set_readonly(true);
    fs::set_permissions(dir.path().join("ro.raw"), perms).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("nowhere/x.raw", dir.path().join("dangling.raw")).unwrap();
    let long = format!("{}.raw", "n".repeat(300));
    let before = listing(dir.path());
    // 2^34 samples: minutes of work if it were started.
    let huge = "render --size 131072x131072 --format raw -o";
    for (output, says) in [
        ("taken.raw", "is a directory"),
        ("taken.raw/", "names a directory"),
        ("missing/a.raw", "the directory missing does not exist"),
        ("plain/a.raw", "plain is not a directory"),
        (long.as_str(), "more than the 255 allowed"),
        ("ro.raw", "read-only"),
        ("dangling.raw", "missing directory"),
    ] {
        let start = std::time::Instant::now();
        let mut args = words(huge);
        args.push(output);
        let out = run_in(dir.path(), &args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{output}: {err}");
        assert!(err.contains(says), "{output}: {err}");
        assert!(err.starts_with("error: cannot write "), "{output}: {err}");
        assert!(
            start.elapsed().as_secs_f64() < 2.0,
            "{output}: took {:?}",
            start.elapsed()
        );
        assert_eq!(listing(dir.path()), before, "{output}");
    }
    assert_eq!(listing(&dir.path().join("taken.raw")), ["inside"]);
    assert_eq!(fs::read(dir.path().join("ro.raw")).unwrap(), b"keep");
    // The same checks guard animate's output and stats' --plot and --csv.
    for line in [
        "animate --frames 100000 --size 4096x4096 -o taken.raw",
        "stats --size 65536x65536 --plot missing/p.png",
        "stats --size 65536x65536 --csv ro.raw",
    ] {
        let start = std::time::Instant::now();
        let out = run_in(dir.path(), &words(line));
        assert_eq!(out.status.code(), Some(2), "{line}: {out:?}");
        assert!(start.elapsed().as_secs_f64() < 2.0, "{line}");
        assert_eq!(listing(dir.path()), before, "{line}");
    }
}

#[test]
fn an_existing_output_is_replaced_whole() {
    let dir = temp_dir();
    let path = dir.path().join("noise.raw");
    fs::write(&path, vec![0xAB; 10_000]).unwrap();
    ok_in(
        dir.path(),
        &[
            "render",
            "--source",
            "perlin",
            "--size",
            "5x5",
            "-o",
            "noise.raw",
        ],
    );
    let grid = Grid2::new([0.0; 2], [1.0 / 128.0; 2], [5, 5]);
    assert_same_bits(
        &floats(&fs::read(&path).unwrap()),
        &library2(&Perlin::new(0), grid),
    );
    assert_eq!(listing(dir.path()), ["noise.raw"]);
}

/// The numbers after `name` on the line that starts with it.
fn stat(stdout: &str, name: &str) -> f64 {
    let line = stdout
        .lines()
        .find(|l| l.starts_with(name))
        .unwrap_or_else(|| panic!("no {name} line in {stdout}"));
    line[name.len()..].trim().parse().unwrap()
}

#[test]
fn stats_match_the_library_fill() {
    let dir = temp_dir();
    let args = words(
        "stats --source perlin --seed 9 --size 300x200 --frequency 1/40 --bins 7 --plot hist.png \
         --csv hist.csv",
    );
    let stdout = ok_in(dir.path(), &args);
    let values = library2(
        &Perlin::new(9),
        Grid2::new([0.0; 2], [1.0 / 40.0; 2], [300, 200]),
    );
    let lo = values.iter().copied().fold(f32::INFINITY, f32::min);
    let hi = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let n = values.len() as f64;
    let mean = values.iter().map(|&v| f64::from(v)).sum::<f64>() / n;
    let var = values
        .iter()
        .map(|&v| (f64::from(v) - mean).powi(2))
        .sum::<f64>()
        / n;
    assert_eq!(stat(&stdout, "samples"), 60_000.0);
    assert_eq!((stat(&stdout, "min") as f32).to_bits(), lo.to_bits());
    assert_eq!((stat(&stdout, "max") as f32).to_bits(), hi.to_bits());
    // Summation order differs (bands, merged): agreement to rounding only.
    assert!((stat(&stdout, "mean") - mean).abs() < 1e-12, "mean {mean}");
    assert!((stat(&stdout, "std dev") - var.sqrt()).abs() < 1e-12);
    // Bins: floor(7 (v - min) / (max - min)), the max in the last.
    let width = (f64::from(hi) - f64::from(lo)) / 7.0;
    let mut want = [0u64; 7];
    for &v in &values {
        want[(((f64::from(v) - f64::from(lo)) / width) as usize).min(6)] += 1;
    }
    let counts: Vec<u64> = stdout
        .lines()
        .filter(|l| l.contains(" .. "))
        .map(|l| l.split_whitespace().nth(3).unwrap().parse().unwrap())
        .collect();
    assert_eq!(counts, want);
    // The CSV: the same bins, edges from min to max.
    let csv = fs::read_to_string(dir.path().join("hist.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("lo,hi,count"));
    let rows: Vec<(f64, f64, u64)> = lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (
                f[0].parse().unwrap(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            )
        })
        .collect();
    assert_eq!(rows.iter().map(|r| r.2).collect::<Vec<_>>(), want);
    assert_eq!(rows[0].0, f64::from(lo));
    assert!((rows[6].1 - f64::from(hi)).abs() < 1e-12);
    for (i, r) in rows.iter().enumerate() {
        assert!((r.1 - r.0 - width).abs() < 1e-12, "bin {i}: {r:?}");
    }
    let plot = decode_png(&dir.path().join("hist.png"));
    assert_eq!((plot.width, plot.height), (640, 360));
    assert!(plot.pixels.iter().any(|&b| b != 255), "the plot is blank");
    // Labelled axes: numbers (black) left of the bars and below the
    // baseline, so black pixels on many rows there, not one axis line.
    let black = |x: usize, y: usize| {
        let i = (y * 640 + x) * 3;
        plot.pixels[i..i + 3] == [0, 0, 0]
    };
    let rows_with_black = |xs: std::ops::Range<usize>, ys: std::ops::Range<usize>| {
        ys.filter(|&y| xs.clone().any(|x| black(x, y))).count()
    };
    assert!(rows_with_black(0..80, 0..360) >= 15, "no count labels");
    assert!(rows_with_black(0..640, 326..360) >= 5, "no value labels");
}

/// The frames of a GIF as palette indices, and its size.
fn decode_gif(path: &Path) -> (u16, u16, Vec<Vec<u8>>) {
    let file = fs::File::open(path).unwrap();
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(file).expect("a valid GIF");
    let (w, h) = (decoder.width(), decoder.height());
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        assert_eq!((frame.width, frame.height), (w, h));
        frames.push(frame.buffer.to_vec());
    }
    (w, h, frames)
}

/// Mean absolute difference of two frames' gray levels.
fn frame_distance(a: &[u8], b: &[u8]) -> f64 {
    let sum: u64 = a
        .iter()
        .zip(b)
        .map(|(&x, &y)| u64::from(x.abs_diff(y)))
        .sum();
    sum as f64 / a.len() as f64
}

#[test]
fn animate_writes_frames_and_loop_closes_the_cycle_without_a_jump() {
    let dir = temp_dir();
    let base = "animate --source perlin --size 40x30 --frames 48 --time-step 1/16 --frequency 0.1 --palette gray --range -1..1";
    let with = |extra: &str| format!("{base} {extra}");
    ok_in(dir.path(), &words(&with("--loop -o loop.gif")));
    ok_in(dir.path(), &words(&with("-o open.gif")));
    let (w, h, looped) = decode_gif(&dir.path().join("loop.gif"));
    assert_eq!((w, h, looped.len()), (40, 30, 48));
    // Frame 0 is the library's 3D z = 0 slice under the documented gray
    // mapping. (With the coordinates mode, 2D noise has its own gradients
    // and is not that slice.)
    let slice = library3(&Perlin::new(0), Grid3::new([0.0; 3], [0.1; 3], [40, 30, 1]));
    let gray: Vec<u8> = slice
        .iter()
        .map(|&v| ((f64::from(v) + 1.0) / 2.0 * 255.0).round() as u8)
        .collect();
    let (_, _, open) = decode_gif(&dir.path().join("open.gif"));
    let steps = |frames: &[Vec<u8>]| -> f64 {
        frames
            .windows(2)
            .map(|p| frame_distance(&p[0], &p[1]))
            .fold(0.0, f64::max)
    };
    // Looping: 48 × 1/16 = 3 cells of z, periodic, so the jump from the last
    // frame back to the first is like any other step. Without --loop it is
    // the distance across 47/16 cells, much larger.
    let wrap = frame_distance(&looped[47], &looped[0]);
    assert!(
        wrap <= 1.5 * steps(&looped),
        "wrap {wrap} vs steps {}",
        steps(&looped)
    );
    let open_wrap = frame_distance(&open[47], &open[0]);
    assert!(open_wrap > 3.0 * steps(&open), "open wrap {open_wrap}");
    // Frames 0 and 1 are the library's slices at z = 0 and z = 1/16.
    assert_eq!(open[0], gray);
    let z1 = library3(
        &Perlin::new(0),
        Grid3::new([0.0, 0.0, 0.0625], [0.1; 3], [40, 30, 1]),
    );
    let gray1: Vec<u8> = z1
        .iter()
        .map(|&v| ((f64::from(v) + 1.0) / 2.0 * 255.0).round() as u8)
        .collect();
    assert_eq!(open[1], gray1);
}

#[test]
fn bench_prints_one_row_per_available_level() {
    let dir = temp_dir();
    let stdout = ok_in(dir.path(), &words("bench --points 4096 --runs 1"));
    for level in Level::available() {
        let row = stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(level.name()))
            .unwrap_or_else(|| panic!("no row for {level} in {stdout}"));
        let rates: Vec<f64> = row
            .split_whitespace()
            .skip(1)
            .map(|x| x.parse().unwrap())
            .collect();
        assert_eq!(rates.len(), 5, "{row}");
        assert!(rates.iter().all(|&r| r > 0.0 && r.is_finite()), "{row}");
    }
    assert!(listing(dir.path()).is_empty());
}

#[test]
fn each_subcommands_help_states_its_own_default_source_and_the_names() {
    let dir = temp_dir();
    for (sub, default) in [
        ("render", "fbm"),
        ("animate", "fbm"),
        ("stats", "fbm"),
        ("bench", "perlin"),
    ] {
        let help = ok_in(dir.path(), &[sub, "--help"]);
        let at = help.find("--source <RECIPE>").expect("--source documented");
        let next = help[at + 2..]
            .find("\n      -")
            .map_or(help.len(), |n| at + 2 + n);
        let source_help = &help[at..next];
        assert!(
            source_help.contains(&format!("[default: {default}]")),
            "{sub}: {source_help}"
        );
        assert_eq!(
            source_help.matches("[default:").count(),
            1,
            "{sub}: {source_help}"
        );
        for name in [
            "perlin",
            "value",
            "fbm",
            "billow",
            "ridged",
            "turbulence",
            "marble",
        ] {
            assert!(source_help.contains(name), "{sub}: {name} missing");
        }
    }
    // And the defaults are the ones used: stats names its source nowhere,
    // so compare with an explicit --source fbm.
    let implicit = ok_in(dir.path(), &words("stats --size 32x32"));
    let explicit = ok_in(dir.path(), &words("stats --size 32x32 --source fbm"));
    assert_eq!(implicit, explicit);
}

#[test]
fn every_error_has_one_style_whoever_finds_it() {
    let dir = temp_dir();
    // Found by clap (a value's syntax), by the tool (an option against
    // another), by the library (a fractal parameter): all read alike.
    for line in [
        "render --size 0x3",
        "render --source perlin --octaves 3",
        "render --octaves 99",
    ] {
        let out = run_in(dir.path(), &words(line));
        assert_eq!(out.status.code(), Some(2), "{line}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("error: "), "{line}: {err}");
        assert!(
            err.trim_end()
                .ends_with("For more information, try '--help'."),
            "{line}: {err}"
        );
        assert_eq!(err.matches("error").count(), 1, "{line}: {err}");
    }
    // A refused path and an I/O failure: the same prefix, and the user's
    // path, not a temporary one.
    fs::create_dir(dir.path().join("taken.npy")).unwrap();
    let out = run_in(dir.path(), &words("render --size 8x8 -o taken.npy"));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("error: ") && err.contains("taken.npy"),
        "{err}"
    );
    let out = run_in(
        dir.path(),
        &words("render --size 8x8 --format npy -o /dev/full"),
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("error: ") && err.contains("/dev/full"),
        "{err}"
    );
    assert!(
        !err.contains(".part") && !err.contains(".noisefield-"),
        "{err}"
    );
}

#[test]
fn help_names_every_subcommand() {
    let dir = temp_dir();
    let stdout = ok_in(dir.path(), &["--help"]);
    for sub in ["render", "animate", "stats", "bench"] {
        assert!(stdout.contains(sub), "{sub} missing from {stdout}");
    }
}

/// The bytes `noisefield args…` writes to standard output (a pipe), after
/// insisting on exit 0; its summary goes to standard error.
fn stdout_of(dir: &Path, args: &[&str]) -> Vec<u8> {
    let out = run_in(dir, args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "noisefield {args:?} failed: {stderr}");
    assert!(stderr.starts_with("wrote -: "), "{args:?}: {stderr}");
    out.stdout
}

/// `-o -` streams every format (and animate's GIF) to standard output, the
/// same bytes a file of that format holds, with no temporary file beside
/// the output (exr and tiff, which seek, pass through an unnamed one in the
/// system's temporary directory); the summary goes to standard error so the
/// data stays clean.
#[test]
fn dash_writes_every_format_to_stdout() {
    let dir = temp_dir();
    for (format, name) in [
        ("raw", "f.raw"),
        ("npy", "f.npy"),
        ("png", "f.png"),
        ("png16", "f.png"),
        ("r16", "f.r16"),
        ("exr", "f.exr"),
        ("tiff", "f.tif"),
        ("tiff16", "f.tif"),
    ] {
        let line = format!("render --size 33x17 --source ridged --format {format} -o");
        let mut args = words(&line);
        args.push("-");
        let streamed = stdout_of(dir.path(), &args);
        *args.last_mut().unwrap() = name;
        ok_in(dir.path(), &args);
        let file = fs::read(dir.path().join(name)).unwrap();
        assert!(!streamed.is_empty(), "{format}");
        assert!(streamed == file, "{format}: stdout differs from the file");
        fs::remove_file(dir.path().join(name)).unwrap();
    }
    // The raw bytes are the library's values.
    let raw = stdout_of(
        dir.path(),
        &words("render --source perlin --size 20x6 --format raw -o -"),
    );
    let grid = Grid2::new([0.0, 0.0], [1.0 / 128.0; 2], [20, 6]);
    assert_same_bits(&floats(&raw), &library2(&Perlin::new(0), grid));
    // Without --format, `-` gets png.
    let png = stdout_of(dir.path(), &words("render --size 8x8 -o -"));
    assert_eq!(&png[1..4], b"PNG");
    let gif = stdout_of(dir.path(), &words("animate --size 16x8 --frames 3 -o -"));
    ok_in(
        dir.path(),
        &words("animate --size 16x8 --frames 3 -o a.gif"),
    );
    assert!(gif == fs::read(dir.path().join("a.gif")).unwrap());
    assert_eq!(listing(dir.path()), ["a.gif"]);
    // stats prints its report on stdout: `-` is refused for its files.
    let out = run_in(dir.path(), &words("stats --size 8x8 --csv -"));
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

/// Character devices and FIFOs are written directly: `/dev/null` discards
/// the output and stays a device; a device node made in a scratch
/// directory (as root) is not replaced by a file; a FIFO delivers the bytes
/// to its reader. None leaves a temporary file.
#[cfg(unix)]
#[test]
fn devices_and_fifos_are_written_in_place() {
    use std::os::unix::fs::FileTypeExt;
    let dir = temp_dir();
    ok_in(
        dir.path(),
        &words("render --size 64x64 --format raw -o /dev/null"),
    );
    ok_in(dir.path(), &words("render --size 64x64 -o /dev/null"));
    assert!(
        fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
    let made = Command::new("mknod")
        .args(["null", "c", "1", "3"])
        .current_dir(dir.path())
        .status()
        .is_ok_and(|s| s.success());
    if made {
        ok_in(dir.path(), &words("render --size 64x64 -o null"));
        let kind = fs::symlink_metadata(dir.path().join("null"))
            .unwrap()
            .file_type();
        assert!(kind.is_char_device(), "the device node was replaced");
        fs::remove_file(dir.path().join("null")).unwrap();
    } else {
        eprintln!("NOT RUN: mknod needs root; the device-node case was not checked");
    }
    let fifo = dir.path().join("pipe");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let reader = std::thread::spawn({
        let fifo = fifo.clone();
        move || fs::read(fifo).unwrap()
    });
    ok_in(
        dir.path(),
        &words("render --source perlin --size 20x6 --format raw -o pipe"),
    );
    let bytes = reader.join().unwrap();
    let grid = Grid2::new([0.0, 0.0], [1.0 / 128.0; 2], [20, 6]);
    assert_same_bits(&floats(&bytes), &library2(&Perlin::new(0), grid));
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(listing(dir.path()), ["pipe"]);
}

/// A symbolic link is followed: its target is replaced (atomically) or
/// created, and the link stays a link.
#[cfg(unix)]
#[test]
fn symlinks_are_followed() {
    let dir = temp_dir();
    fs::create_dir(dir.path().join("data")).unwrap();
    fs::write(dir.path().join("data/real.raw"), b"old").unwrap();
    std::os::unix::fs::symlink("data/real.raw", dir.path().join("link.raw")).unwrap();
    std::os::unix::fs::symlink("data/new.raw", dir.path().join("fresh.raw")).unwrap();
    for link in ["link.raw", "fresh.raw"] {
        let line = format!("render --source perlin --size 20x6 -o {link}");
        ok_in(dir.path(), &words(&line));
        let path = dir.path().join(link);
        assert!(
            fs::symlink_metadata(&path)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        let grid = Grid2::new([0.0, 0.0], [1.0 / 128.0; 2], [20, 6]);
        assert_same_bits(
            &floats(&fs::read(&path).unwrap()),
            &library2(&Perlin::new(0), grid),
        );
    }
    assert_eq!(listing(&dir.path().join("data")), ["new.raw", "real.raw"]);
}

/// Messages name what is wrong: a thread count beyond the documented
/// 1024, octaves of -1, a range beyond f32, fractal settings that overflow
/// f32 (refused, exit 2, nothing written); a constant field reports the
/// range its PNG stores.
#[test]
fn bad_values_are_named_and_refused() {
    let dir = temp_dir();
    for (line, says) in [
        (
            "--threads 100000 render --size 8x8",
            "100000 threads: give 1 to 1024",
        ),
        ("render --threads 0 --size 8x8", "give 1 to 1024"),
        ("render --octaves -1", "-1 is not in 1..=32"),
        ("render --range 1e39..2e39", "beyond the largest f32"),
        (
            "render --persistence 1e30 --octaves 32",
            "amplitude overflows f32",
        ),
        (
            "render --lacunarity 1e30 --octaves 3",
            "frequency overflows f32",
        ),
        (
            "render --persistence 1e30 --octaves 32 --normalize --source ridged",
            "overflows f32",
        ),
    ] {
        let start = std::time::Instant::now();
        let out = run_in(dir.path(), &words(line));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{line}: {err}");
        assert!(err.contains(says), "{line}: {err}");
        assert!(!err.contains("less than"), "{line}: {err}");
        assert!(start.elapsed().as_secs_f64() < 2.0, "{line}");
    }
    assert_eq!(listing(dir.path()), Vec::<String>::new());
    // A constant field (every sample on a lattice point: 0): the message
    // gives the range the PNG stores in its text chunk.
    let said = ok_in(
        dir.path(),
        &words("render --source perlin --size 4x4 --frequency 1 -o c.png"),
    );
    let bytes = fs::read(dir.path().join("c.png")).unwrap();
    let reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    let chunk = reader
        .info()
        .uncompressed_latin1_text
        .iter()
        .find(|t| t.keyword == "noisefield range")
        .map(|t| t.text.clone())
        .unwrap();
    assert_eq!(chunk, "-1..1");
    assert!(said.contains(&format!("values {chunk} shown")), "{said}");
}

/// Rows wider than 2048 (tall windows), than the library's window (2^14)
/// and than a band (2^20) are filled in windows: the output is the
/// library's fill of the whole grid, bit for bit, for a lattice and a
/// fractal, 2D and 3D. Rows of 3001 go 349 to a band, in windows of 64
/// rows (the last 29) and 1024 columns (the last 953); all 17 rows of
/// 300,000 in one band (up to 27, within 8 · 2^20 samples), 1024 columns a
/// window; rows of 40,000, 3 to a band, 2688 columns a window.
#[test]
fn wide_rows_are_the_whole_grid_bit_for_bit() {
    let dir = temp_dir();
    for (nx, ny) in [
        (3001, 700),
        (40_000, 3),
        (300_000, 17),
        ((1 << 20) + 5000, 1),
    ] {
        let line = format!("render --source ridged --octaves 3 --size {nx}x{ny} --format raw -o -");
        let got = floats(&stdout_of(dir.path(), &words(&line)));
        let ridged = Ridged::new(Perlin::new(0)).octaves(3);
        let mut want = vec![0.0; nx * ny];
        ridged
            .fill_grid(&Grid2::new([0.0; 2], [1.0 / 128.0; 2], [nx, ny]), &mut want)
            .unwrap();
        assert_same_bits(&got, &want);
    }
    // Perlin goes in tall windows only past 2^14 (one lattice evaluation
    // a sample), a fractal from 2048 on.
    for (source, [nx, ny, nz]) in [
        ("perlin", [20000, 2, 2]),
        ("fbm --octaves 2", [2500, 100, 3]),
    ] {
        let line = format!(
            "render --source {source} --size {nx}x{ny}x{nz} --frequency 1/64 --format raw -o -"
        );
        let got = floats(&stdout_of(dir.path(), &words(&line)));
        let grid = Grid3::new([0.0; 3], [1.0 / 64.0; 3], [nx, ny, nz]);
        let want = match source {
            "perlin" => library3(&Perlin::new(0), grid),
            _ => {
                let mut out = vec![0.0; nx * ny * nz];
                Fbm::new(Perlin::new(0))
                    .octaves(2)
                    .fill_grid(&grid, &mut out)
                    .unwrap();
                out
            }
        };
        assert_same_bits(&got, &want);
    }
}

/// Rows wider than a band (2^20 samples), several of them, are computed
/// together and all but the first go through an unnamed temporary file: 5
/// rows of 2^21 + 5000 (three blocks of columns) and a volume's slices of 2
/// rows are the library's whole-grid fill bit for bit, with nothing left in
/// the temporary directory; without a usable temporary directory the rows go
/// one at a time, the same bits.
#[test]
fn spooled_wide_rows_are_the_whole_grid_bit_for_bit() {
    let dir = temp_dir();
    let tmp = temp_dir();
    let (nx, ny) = ((1 << 21) + 5000, 5);
    let line = format!("render --source ridged --octaves 2 --size {nx}x{ny} --format raw -o -");
    let ridged = Ridged::new(Perlin::new(0)).octaves(2);
    let mut want = vec![0.0; nx * ny];
    ridged
        .fill_grid(&Grid2::new([0.0; 2], [1.0 / 128.0; 2], [nx, ny]), &mut want)
        .unwrap();
    for temporary in [tmp.path(), Path::new("/nonexistent/noisefield")] {
        let out = Command::new(env!("CARGO_BIN_EXE_noisefield"))
            .args(words(&line))
            .current_dir(dir.path())
            .env("TMPDIR", temporary)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_same_bits(&floats(&out.stdout), &want);
    }
    assert!(listing(tmp.path()).is_empty(), "{:?}", listing(tmp.path()));
    let (nx, ny, nz) = ((1 << 20) + 3000, 2, 2);
    let line = format!("render --source perlin --size {nx}x{ny}x{nz} --format raw -o -");
    let got = floats(&stdout_of(dir.path(), &words(&line)));
    let want = library3(
        &Perlin::new(0),
        Grid3::new([0.0; 3], [1.0 / 128.0; 3], [nx, ny, nz]),
    );
    assert_same_bits(&got, &want);
}

/// Peak memory (`/usr/bin/time -v`'s maximum resident set size) stays
/// under 64 MiB however wide the rows: 2^24 × 1 samples of 2 fBm octaves
/// (about 1 GB before rows were split into windows), and an animation of
/// 8192×8192 frames (about 170 MB before frames were streamed band by band);
/// and for exr, tiff, r16 and normal maps of 8M samples (32 MiB of f32 and
/// more: they are written band by band, not held).
#[test]
fn peak_memory_is_bounded_whatever_the_size() {
    if !Path::new("/usr/bin/time").exists() {
        eprintln!("NOT RUN: /usr/bin/time is missing; peak memory was not measured");
        return;
    }
    let dir = temp_dir();
    for line in [
        "render --octaves 2 --size 16777216x1 --format raw -o /dev/null",
        "render --octaves 2 --size 1048576x32 --format raw -o /dev/null",
        "render --octaves 2 --size 4194304x16 --format raw -o /dev/null",
        "animate --source perlin --size 8192x8192 --frames 2 --range -1..1 -o /dev/null",
        "render --source perlin --size 16384x512 --format exr -o out.exr",
        "render --source perlin --size 16384x512 --format tiff -o out.tif",
        "render --source perlin --size 16384x512 --format r16 -o out.r16",
        "render --source perlin --size 16384x512 --format normal -o /dev/null",
    ] {
        let out = Command::new("/usr/bin/time")
            .arg("-v")
            .arg(env!("CARGO_BIN_EXE_noisefield"))
            .args(words(line))
            .current_dir(dir.path())
            .output()
            .unwrap();
        let report = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{line}: {report}");
        let kib: u64 = report
            .lines()
            .find_map(|l| {
                l.trim()
                    .strip_prefix("Maximum resident set size (kbytes): ")
            })
            .expect("time -v reports the peak")
            .parse()
            .unwrap();
        eprintln!("{line}: peak {} MiB", kib / 1024);
        assert!(kib < 64 * 1024, "{line}: peak {kib} KiB");
    }
}

/// Little-endian u16s.
fn words16_le(bytes: &[u8]) -> Vec<u16> {
    assert_eq!(bytes.len() % 2, 0, "not a whole number of u16");
    bytes
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect()
}

/// The documented 16-bit height of `v` on `lo..hi`: round(65535·t), in f64.
fn height16(v: f32, lo: f64, hi: f64) -> u16 {
    let t = ((f64::from(v) - lo) / (hi - lo)).clamp(0.0, 1.0);
    (65535.0 * t).round() as u16
}

/// r16: 2 bytes per sample, little-endian, x fastest then y, no header;
/// heights are png16's (round(65535·t) on the same range), so the two
/// files hold the same numbers in their own byte orders. A `.raw` name
/// may hold r16 too (Unity's import dialog asks for .raw).
#[test]
fn r16_is_little_endian_u16_x_fastest_with_png16s_heights() {
    let dir = temp_dir();
    let base = "render --source perlin --size 37x11 --frequency 1/8";
    ok_in(
        dir.path(),
        &words(&format!("{base} --range -1..1 -o h.r16")),
    );
    let bytes = fs::read(dir.path().join("h.r16")).unwrap();
    assert_eq!(bytes.len(), 37 * 11 * 2);
    let values = library2(
        &Perlin::new(0),
        Grid2::new([0.0; 2], [1.0 / 8.0; 2], [37, 11]),
    );
    let want: Vec<u16> = values.iter().map(|&v| height16(v, -1.0, 1.0)).collect();
    let got = words16_le(&bytes);
    assert_eq!(got, want);
    // Sample (x=1, y=0) is bytes 2..4, (x=0, y=1) bytes 74..76: x fastest.
    assert_eq!(u16::from_le_bytes([bytes[2], bytes[3]]), want[1]);
    assert_eq!(u16::from_le_bytes([bytes[74], bytes[75]]), want[37]);
    // Without --range, the field's own min..max, as png16: the same heights.
    ok_in(dir.path(), &words(&format!("{base} --format r16 -o t.raw")));
    ok_in(
        dir.path(),
        &words(&format!("{base} --format png16 -o t.png")),
    );
    let png = decode_png(&dir.path().join("t.png"));
    let png_heights: Vec<u16> = png
        .pixels
        .chunks_exact(2)
        .map(|b| u16::from_be_bytes([b[0], b[1]]))
        .collect();
    let r16 = words16_le(&fs::read(dir.path().join("t.raw")).unwrap());
    assert_eq!(r16, png_heights);
    assert_eq!(r16.iter().min(), Some(&0));
    assert_eq!(r16.iter().max(), Some(&65535));
}

/// One layer of an EXR file: name, width, height, channel names, f32 samples.
type ExrLayer = (String, usize, usize, Vec<String>, Vec<f32>);

/// Every layer of an EXR file, read back by the `exr` crate's own decoder.
fn read_exr(path: &Path) -> Vec<ExrLayer> {
    use exr::prelude::*;
    let image = read()
        .no_deep_data()
        .largest_resolution_level()
        .all_channels()
        .all_layers()
        .all_attributes()
        .from_file(path)
        .expect("a valid EXR");
    image
        .layer_data
        .iter()
        .map(|layer| {
            let name = layer
                .attributes
                .layer_name
                .as_ref()
                .map_or(String::new(), |n| n.to_string());
            let names = layer
                .channel_data
                .list
                .iter()
                .map(|c| c.name.to_string())
                .collect();
            let samples = match &layer.channel_data.list[0].sample_data {
                FlatSamples::F32(v) => v.clone(),
                other => panic!("not f32 samples: {other:?}"),
            };
            (name, layer.size.0, layer.size.1, names, samples)
        })
        .collect()
}

/// EXR holds the library's float32 values bit for bit: a picture as one
/// layer with one channel `Y`, a volume as one layer per z slice named
/// `z=K` (K the slice's index in the field, so `--rows` bands say where
/// they belong).
#[test]
fn exr_reads_back_as_the_librarys_values() {
    let dir = temp_dir();
    ok_in(
        dir.path(),
        &words("render --source perlin --size 41x13 --frequency 1/16 -o a.exr"),
    );
    let layers = read_exr(&dir.path().join("a.exr"));
    assert_eq!(layers.len(), 1);
    let (_, w, h, channels, samples) = &layers[0];
    assert_eq!((*w, *h), (41, 13));
    assert_eq!(channels, &["Y"]);
    let grid = Grid2::new([0.0; 2], [1.0 / 16.0; 2], [41, 13]);
    assert_same_bits(samples, &library2(&Perlin::new(0), grid));

    let line = "render --source perlin --size 9x7x5 --frequency 1/4 --rows 1..4 -o v.exr";
    ok_in(dir.path(), &words(line));
    let layers = read_exr(&dir.path().join("v.exr"));
    let want = library3(&Perlin::new(0), Grid3::new([0.0; 3], [0.25; 3], [9, 7, 5]));
    assert_eq!(layers.len(), 3);
    for (i, (name, w, h, _, samples)) in layers.iter().enumerate() {
        let k = i + 1;
        assert_eq!(name, &format!("z={k}"));
        assert_eq!((*w, *h), (9, 7));
        assert_same_bits(samples, &want[k * 63..(k + 1) * 63]);
    }
}

/// Each page of a TIFF file, read by the `tiff` crate's decoder:
/// (width, height, samples as f32 or u16, ImageDescription, SMin/SMax).
struct TiffPage {
    width: u32,
    height: u32,
    floats: Vec<f32>,
    words: Vec<u16>,
    description: String,
    min_max: Option<(f32, f32)>,
}

fn read_tiff(path: &Path) -> Vec<TiffPage> {
    use tiff::decoder::{Decoder, DecodingResult};
    use tiff::tags::Tag;
    let file = std::io::BufReader::new(fs::File::open(path).unwrap());
    let mut decoder = Decoder::new(file).expect("a valid TIFF");
    let mut pages = Vec::new();
    loop {
        let (width, height) = decoder.dimensions().unwrap();
        let description = decoder
            .get_tag_ascii_string(Tag::ImageDescription)
            .unwrap_or_default();
        let min_max = match (
            decoder.find_tag(Tag::SMinSampleValue).unwrap(),
            decoder.find_tag(Tag::SMaxSampleValue).unwrap(),
        ) {
            (Some(lo), Some(hi)) => Some((lo.into_f32().unwrap(), hi.into_f32().unwrap())),
            _ => None,
        };
        let (floats, words) = match decoder.read_image().unwrap() {
            DecodingResult::F32(v) => (v, Vec::new()),
            DecodingResult::U16(v) => (Vec::new(), v),
            _ => panic!("neither f32 nor u16 samples"),
        };
        pages.push(TiffPage {
            width,
            height,
            floats,
            words,
            description,
            min_max,
        });
        if !decoder.more_images() {
            return pages;
        }
        decoder.next_image().unwrap();
    }
}

/// TIFF: float32 pages hold the library's values bit for bit and record
/// their min and max (SMinSampleValue, SMaxSampleValue); tiff16 pages hold
/// png16's heights with the range in the ImageDescription; a volume is one
/// page per z slice. Rows wider than a band (2^20 samples) arrive in
/// pieces and are gathered into whole strips.
#[test]
fn tiff_reads_back_as_the_librarys_values_and_heights() {
    let dir = temp_dir();
    let base = "render --source perlin --size 41x13 --frequency 1/16";
    ok_in(dir.path(), &words(&format!("{base} -o a.tiff")));
    let grid = Grid2::new([0.0; 2], [1.0 / 16.0; 2], [41, 13]);
    let want = library2(&Perlin::new(0), grid);
    let pages = read_tiff(&dir.path().join("a.tiff"));
    assert_eq!(pages.len(), 1);
    assert_eq!((pages[0].width, pages[0].height), (41, 13));
    assert_same_bits(&pages[0].floats, &want);
    let lo = want.iter().copied().fold(f32::INFINITY, f32::min);
    let hi = want.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    assert_eq!(pages[0].min_max, Some((lo, hi)));

    ok_in(
        dir.path(),
        &words(&format!(
            "{base} --format tiff16 --range -0.5..0.5 -o b.tif"
        )),
    );
    let pages = read_tiff(&dir.path().join("b.tif"));
    let heights: Vec<u16> = want.iter().map(|&v| height16(v, -0.5, 0.5)).collect();
    assert_eq!(pages[0].words, heights);
    assert!(
        pages[0].description.contains("noisefield range -0.5..0.5"),
        "{}",
        pages[0].description
    );

    let line = "render --source perlin --size 9x7x3 --frequency 1/4 -o v.tif";
    ok_in(dir.path(), &words(line));
    let pages = read_tiff(&dir.path().join("v.tif"));
    let want = library3(&Perlin::new(0), Grid3::new([0.0; 3], [0.25; 3], [9, 7, 3]));
    assert_eq!(pages.len(), 3);
    for (k, page) in pages.iter().enumerate() {
        assert_eq!((page.width, page.height), (9, 7));
        assert_same_bits(&page.floats, &want[k * 63..(k + 1) * 63]);
    }

    let nx = (1 << 20) + 3;
    let line = format!("render --source perlin --size {nx}x2 --frequency 1/64 -o w.tif");
    ok_in(dir.path(), &words(&line));
    let pages = read_tiff(&dir.path().join("w.tif"));
    let want = library2(
        &Perlin::new(0),
        Grid2::new([0.0; 2], [1.0 / 64.0; 2], [nx, 2]),
    );
    assert_same_bits(&pages[0].floats, &want);
}

/// The EXR path gathers row pieces too: a row wider than a band.
#[test]
fn exr_rows_wider_than_a_band_are_whole() {
    let dir = temp_dir();
    let nx = (1 << 20) + 3;
    let line = format!("render --source perlin --size {nx}x2 --frequency 1/64 -o w.exr");
    ok_in(dir.path(), &words(&line));
    let layers = read_exr(&dir.path().join("w.exr"));
    let want = library2(
        &Perlin::new(0),
        Grid2::new([0.0; 2], [1.0 / 64.0; 2], [nx, 2]),
    );
    assert_same_bits(&layers[0].4, &want);
}

/// A normal map is RGB8 with each pixel the unit vector
/// A recipe graph with derivatives makes normal maps too (the operators
/// carry the gradient through): `scale_bias(fbm, scale=2)` at strength ½ is
/// `fbm` at strength 1, pixel for pixel (doubling is exact).
#[test]
fn recipe_graphs_with_derivatives_make_normal_maps() {
    let dir = temp_dir();
    let common = "render --size 48x32 --frequency 1/16 --format normal";
    ok_in(
        dir.path(),
        &words(&format!(
            "{common} --normal-strength 0.5 \
             --source scale_bias(fbm(perlin(seed=5),octaves=3),scale=2) -o a.png"
        )),
    );
    ok_in(
        dir.path(),
        &words(&format!(
            "{common} --normal-strength 1 --source fbm --seed 5 --octaves 3 -o b.png"
        )),
    );
    // The pixels, not the files: the strength is written in a text chunk.
    let a = decode_png(&dir.path().join("a.png"));
    let b = decode_png(&dir.path().join("b.png"));
    assert_eq!((a.width, a.height), (b.width, b.height));
    assert!(a.pixels == b.pixels, "the recipe's normal map differs");
    assert!(a.pixels.chunks_exact(3).any(|p| p[0] != 128), "a flat map");
}

/// normalize(−s·dx, −s·dy, 1) of the library's `fill_grid_grad`
/// derivatives, stored as round(255·(c + 1)/2): decoded, every pixel is
/// unit length within 8-bit quantisation and within one step of that
/// vector, on every channel; the strength changes the map.
#[test]
fn normal_maps_are_the_normalised_analytic_gradient() {
    let dir = temp_dir();
    let (nx, ny, s) = (64usize, 48usize, 0.75f64);
    let line = format!(
        "render --octaves 3 --size {nx}x{ny} --frequency 1/16 --seed 5 \
         --format normal --normal-strength {s} -o n.png"
    );
    ok_in(dir.path(), &words(&line));
    let png = decode_png(&dir.path().join("n.png"));
    assert_eq!((png.width, png.height), (nx as u32, ny as u32));
    assert_eq!(
        (png.color, png.depth),
        (png::ColorType::Rgb, png::BitDepth::Eight)
    );
    let fbm = Fbm::new(Perlin::new(5)).octaves(3);
    let grid = Grid2::new([0.0; 2], [1.0 / 16.0; 2], [nx, ny]);
    let (mut v, mut dx, mut dy) = (vec![0.0; nx * ny], vec![0.0; nx * ny], vec![0.0; nx * ny]);
    noisefield::Differentiable::fill_grid_grad(&fbm, &grid, &mut v, [&mut dx, &mut dy]).unwrap();
    let mut tilted = 0;
    for (i, rgb) in png.pixels.chunks_exact(3).enumerate() {
        let got: Vec<f64> = rgb
            .iter()
            .map(|&c| f64::from(c) / 255.0 * 2.0 - 1.0)
            .collect();
        let length = got.iter().map(|c| c * c).sum::<f64>().sqrt();
        // Each component is off by at most half a step of 2/255.
        assert!(
            (length - 1.0).abs() < 3f64.sqrt() / 255.0,
            "pixel {i}: |n| = {length}"
        );
        let n = [-s * f64::from(dx[i]), -s * f64::from(dy[i]), 1.0];
        let norm = (n[0] * n[0] + n[1] * n[1] + 1.0).sqrt();
        for c in 0..3 {
            let want = n[c] / norm;
            assert!(
                (got[c] - want).abs() <= 1.0 / 255.0 + 1e-9,
                "pixel {i} channel {c}: {} vs {want}",
                got[c]
            );
        }
        if n[0].abs() / norm > 0.2 {
            tilted += 1;
        }
    }
    assert!(
        tilted > nx * ny / 10,
        "a flat map proves little: {tilted} tilted"
    );
    let strong = line.replace(&format!("--normal-strength {s}"), "--normal-strength 3");
    ok_in(dir.path(), &words(&strong));
    assert!(decode_png(&dir.path().join("n.png")).pixels != png.pixels);
    // --normal-flip-y: green is the component along −y; red and blue stay.
    ok_in(dir.path(), &words(&format!("{line} --normal-flip-y")));
    let flipped = decode_png(&dir.path().join("n.png"));
    for (i, (a, b)) in png
        .pixels
        .chunks_exact(3)
        .zip(flipped.pixels.chunks_exact(3))
        .enumerate()
    {
        assert_eq!((a[0], a[2]), (b[0], b[2]), "pixel {i}");
        let n = [-s * f64::from(dx[i]), -s * f64::from(dy[i]), 1.0];
        let want = -n[1] / (n[0] * n[0] + n[1] * n[1] + 1.0).sqrt();
        let got = f64::from(b[1]) / 255.0 * 2.0 - 1.0;
        assert!(
            (got - want).abs() <= 1.0 / 255.0 + 1e-9,
            "pixel {i}: {got} vs {want}"
        );
    }
}

/// Tiles of an endless world: 2 × 2 tiles of 33×17 (odd, at a frequency
/// that is no power of two) written separately are the 66×34 world, bit
/// for bit (raw), so each tile's edge row and column continue exactly
/// into its neighbour's; no sample is shared. With --tile the 16-bit
/// formats map the source's fixed bounds, not each tile's min..max, so
/// png16 and r16 tiles join exactly too: the same heights as the world
/// rendered with --range set to those bounds.
#[test]
fn tiles_join_exactly_at_their_edges() {
    let dir = temp_dir();
    let (w, h) = (33usize, 17usize);
    let base = "render --size 33x17 --frequency 0.013 --origin 0.3,-2.1 --octaves 4";
    let world_line = "render --size 66x34 --frequency 0.013 --origin 0.3,-2.1 --octaves 4";
    let fbm = Fbm::new(Perlin::new(0)).octaves(4);
    let (lo, hi) = fbm.bounds(2);
    for (format, ext) in [("raw", "raw"), ("png16", "png"), ("r16", "r16")] {
        let range = if format == "raw" {
            String::new()
        } else {
            format!(" --range {lo}..{hi}")
        };
        let world_args = format!("{world_line} --format {format}{range} -o world.{ext}");
        let summary = ok_in(dir.path(), &words(&world_args));
        assert!(summary.contains("66×34"), "{summary}");
        let samples = |name: &str| -> Vec<u32> {
            let bytes = fs::read(dir.path().join(name)).unwrap();
            match format {
                "raw" => floats(&bytes).iter().map(|v| v.to_bits()).collect(),
                "r16" => words16_le(&bytes).into_iter().map(u32::from).collect(),
                _ => decode_png(&dir.path().join(name))
                    .pixels
                    .chunks_exact(2)
                    .map(|b| u32::from(u16::from_be_bytes([b[0], b[1]])))
                    .collect(),
            }
        };
        let world = samples(&format!("world.{ext}"));
        for (tx, ty) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let name = format!("tile_{tx}_{ty}.{ext}");
            let line = format!("{base} --format {format} --tile {tx},{ty} -o {name}");
            let summary = ok_in(dir.path(), &words(&line));
            if format != "raw" {
                let shown = format!("values {}..{}", f64::from(lo), f64::from(hi));
                assert!(summary.contains(&shown), "{summary}");
            }
            let tile = samples(&name);
            assert_eq!(tile.len(), w * h);
            for y in 0..h {
                for x in 0..w {
                    let at_world = (ty * h + y) * 2 * w + tx * w + x;
                    assert_eq!(
                        tile[y * w + x],
                        world[at_world],
                        "{format} tile {tx},{ty} sample {x},{y}"
                    );
                }
            }
        }
    }
    // With --shared-edges a tile's last column and row are its neighbours'
    // first, bit for bit: Unity's and Unreal's tiles of 2^n + 1 samples.
    let tile = |x: usize, y: usize| {
        let line = format!(
            "render --size 9x5 --frequency 0.07 --shared-edges --tile {x},{y} --format raw -o -"
        );
        floats(&stdout_of(dir.path(), &words(&line)))
    };
    let (a, right, below) = (tile(0, 0), tile(1, 0), tile(0, 1));
    for y in 0..5 {
        assert_eq!(a[y * 9 + 8].to_bits(), right[y * 9].to_bits(), "row {y}");
    }
    assert_same_bits(&a[4 * 9..], &below[..9]);
    let world = floats(&stdout_of(
        dir.path(),
        &words("render --size 17x9 --frequency 0.07 --format raw -o -"),
    ));
    for y in 0..5 {
        assert_same_bits(&right[y * 9..y * 9 + 9], &world[y * 17 + 8..y * 17 + 17]);
    }
    // A tile is where the issue puts it: origin + index × size × frequency
    // (bit for bit when that product is exact, as here).
    let tile = floats(&stdout_of(
        dir.path(),
        &words("render --source perlin --size 16x8 --frequency 1/32 --tile 3,2 --format raw -o -"),
    ));
    let grid = Grid2::new(
        [3.0 * 16.0 / 32.0, 2.0 * 8.0 / 32.0],
        [1.0 / 32.0; 2],
        [16, 8],
    );
    assert_same_bits(&tile, &library2(&Perlin::new(0), grid));
}

/// The perceptual palettes are colorous's maps at t = (v − lo)/(hi − lo).
#[test]
fn perceptual_palettes_follow_their_maps() {
    let dir = temp_dir();
    let values = library2(
        &Perlin::new(0),
        Grid2::new([0.0; 2], [1.0 / 8.0; 2], [24, 9]),
    );
    for (name, map) in [
        ("viridis", colorous::VIRIDIS),
        ("magma", colorous::MAGMA),
        ("turbo", colorous::TURBO),
        ("cividis", colorous::CIVIDIS),
    ] {
        let line = format!(
            "render --source perlin --size 24x9 --frequency 1/8 --range -1..1 --palette {name} -o p.png"
        );
        ok_in(dir.path(), &words(&line));
        let png = decode_png(&dir.path().join("p.png"));
        assert_eq!(png.color, png::ColorType::Rgb);
        for (i, rgb) in png.pixels.chunks_exact(3).enumerate() {
            let t = ((f64::from(values[i]) + 1.0) / 2.0).clamp(0.0, 1.0);
            let c = map.eval_continuous(f64::from(t as f32));
            assert_eq!(rgb, [c.r, c.g, c.b], "{name} pixel {i}");
        }
    }
}

/// An --origin of more coordinates than --size has axes: the picture or
/// volume is the slice of that many-dimensional noise along --axes, the
/// other coordinates at the origin, bit for bit the library's points; what
/// the source does not compute, or --axes that do not fit, exit 2.
#[test]
fn more_origin_coordinates_render_a_slice_of_higher_dimensional_noise() {
    let dir = temp_dir();
    let origin = [0.5, -1.25, 3.0, 4.5, 5.0, -6.0];
    for (source, size, axes) in [
        ("perlin", [13usize, 7, 1], "2,4"),
        ("fbm", [9, 5, 3], "5,0,3"),
        ("simplex", [11, 6, 1], "3,1"),
    ] {
        let fractal = if source == "fbm" {
            "--octaves 3 --lacunarity 2.5 --persistence 0.25"
        } else {
            ""
        };
        let volume = axes.split(',').count() == 3;
        let size_arg = if volume {
            format!("{}x{}x{}", size[0], size[1], size[2])
        } else {
            format!("{}x{}", size[0], size[1])
        };
        let args = format!(
            "render --source {source} {fractal} --seed 4 --size {size_arg} --frequency 0.2 \
             --origin 0.5,-1.25,3,4.5,5,-6 --axes {axes} -o slice.npy"
        );
        ok_in(dir.path(), &words(&args));
        let bytes = fs::read(dir.path().join("slice.npy")).unwrap();
        let axes: Vec<usize> = axes.split(',').map(|a| a.parse().unwrap()).collect();
        let n: usize = size[..axes.len()].iter().product();
        let mut coords: Vec<Vec<f64>> = (0..6).map(|_| Vec::with_capacity(n)).collect();
        for i in 0..n {
            let index = [i % size[0], i / size[0] % size[1], i / (size[0] * size[1])];
            for (a, c) in coords.iter_mut().enumerate() {
                let v = match axes.iter().position(|&b| b == a) {
                    Some(k) => origin[a] + index[k] as f64 * 0.2,
                    None => origin[a],
                };
                c.push(v);
            }
        }
        let slices: Vec<&[f64]> = coords.iter().map(Vec::as_slice).collect();
        let mut want = vec![0.0f32; n];
        library_source(source)
            .fill_f64_dyn(&slices, &mut want)
            .unwrap();
        assert_same_bits(&floats(split_npy(&bytes).1), &want);
    }
    for (args, says) in [
        (
            "--origin 1,2,3,4,5 --source perlin(hash=permuted)",
            "5 dimensions",
        ),
        ("--axes 0,1", "--axes"),
        ("--origin 1,2,3 --axes 0,3", "axis 3"),
        ("--origin 1,2,3 --axes 0,0", "twice"),
        (
            "--origin 1,2,3,4,5 --axes 3,4 --period 4 --source fbm(perlin)",
            "--period on axis 4 with a recipe",
        ),
        (
            "--origin 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 --axes 0,16 --period 4",
            "axis 16",
        ),
        (
            "--source simplex --period 8",
            "simplex noise cannot be periodic",
        ),
        (
            "--origin 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0",
            "17 dimensions",
        ),
    ] {
        let all = format!("render --size 8x8 {args} -o never.png");
        let out = run_in(dir.path(), &words(&all));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{all}: {stderr}");
        assert!(stderr.contains(says), "{all}: {stderr}");
        assert!(!dir.path().join("never.png").exists(), "{all}");
    }
}

/// `--period` on a slice of higher-dimensional noise makes the spanned
/// axes periodic (the library's `with_period` on those axes, bit for bit),
/// and `animate --axes A,B,T --loop` loops along time's axis: the same
/// animation one period further along it is the same file.
#[test]
fn slices_of_higher_dimensional_noise_tile_and_loop_along_their_axes() {
    let dir = temp_dir();
    let (w, h) = (16usize, 8usize);
    let render = |origin: &str, out: &str| {
        let args = format!(
            "render --source perlin --seed 4 --size {w}x{h} --origin {origin} --axes 3,4 \
             --period 4,2 -o {out}"
        );
        ok_in(dir.path(), &words(&args));
        fs::read(dir.path().join(out)).unwrap()
    };
    let bytes = render("0.5,-1.25,3,4.5,5", "a.npy");
    // One period further along both spanned axes: the same picture.
    assert_eq!(render("0.5,-1.25,3,8.5,3", "b.npy"), bytes);
    let p = Perlin::new(4)
        .with_period([u32::MAX, u32::MAX, u32::MAX, 4, 2])
        .unwrap();
    let n = w * h;
    let mut coords: Vec<Vec<f64>> = [0.5, -1.25, 3.0, 4.5, 5.0]
        .iter()
        .map(|&c| vec![c; n])
        .collect();
    coords[3] = (0..n)
        .map(|i| 4.5 + (i % w) as f64 * (4.0 / w as f64))
        .collect();
    coords[4] = (0..n)
        .map(|i| 5.0 + (i / w) as f64 * (2.0 / h as f64))
        .collect();
    let slices: Vec<&[f64]> = coords.iter().map(Vec::as_slice).collect();
    let mut want = vec![0.0f32; n];
    DynSource::new(p).fill_f64_dyn(&slices, &mut want).unwrap();
    assert_same_bits(&floats(split_npy(&bytes).1), &want);

    let animate = |origin: &str, looped: &str, out: &str| {
        let args = format!(
            "animate --size 12x10 --frames 6 --time-step 0.5 {looped} --range -1..1 \
             --origin {origin} --axes 2,0,4 -o {out}"
        );
        let said = ok_in(dir.path(), &words(&args));
        (fs::read(dir.path().join(out)).unwrap(), said)
    };
    let (looped, said) = animate("0.3,0.7,0.1,2,0.25", "--loop", "a.gif");
    assert!(said.contains("loops every 3 cells of axis 4"), "{said}");
    assert_eq!(animate("0.3,0.7,0.1,2,3.25", "--loop", "b.gif").0, looped);
    // Without --loop, time's axis is not periodic, and it is axis 4: the
    // frames differ where the origin moves along it, not along axis 3.
    let (plain, _) = animate("0.3,0.7,0.1,2,0.25", "", "c.gif");
    assert_ne!(animate("0.3,0.7,0.1,2,3.25", "", "d.gif").0, plain);
    assert_ne!(animate("0.3,0.7,0.1,5,0.25", "", "e.gif").0, plain);
    for (args, says) in [
        ("--origin 1,2,3 --axes 0,1,2", "--axes"),
        ("--origin 1,2,3,4 --axes 0,1", "A,B,T"),
        ("--origin 1,2,3,4 --axes 0,1,4", "axis 4"),
        ("--origin 1,2", "X,Y,Z"),
        (
            "--origin 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17 --axes 0,1,16 --loop",
            "axis 16",
        ),
    ] {
        let all = format!("animate --size 8x8 --frames 2 {args} -o never.gif");
        let out = run_in(dir.path(), &words(&all));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{all}: {stderr}");
        assert!(stderr.contains(says), "{all}: {stderr}");
        assert!(!dir.path().join("never.gif").exists(), "{all}");
    }
}
