//! Inputs shared by the benches.

/// `n` points per axis, uniform in [-1000, 1000], from a fixed xorshift stream.
pub fn random_coords(n: usize, axes: usize) -> Vec<Vec<f32>> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    (0..axes)
        .map(|_| {
            (0..n)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    (state >> 40) as f32 / (1u64 << 24) as f32 * 2000.0 - 1000.0
                })
                .collect()
        })
        .collect()
}
