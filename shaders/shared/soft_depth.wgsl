
// The compute rasteriser's depth per pixel, appended to the groups that bind its visibility
// buffer as `pixels` for a full-screen composite (`resolve io`, `composite io`).

/// Farther than any depth: no pixel of that kind.
const NO_DEPTH: f32 = 2.0;

/// The raster passes' depth at `pixel` (the visibility buffer holds its bits inverted);
/// `NO_DEPTH` where they drew none.
fn soft_depth_at(pixel: vec2<u32>) -> f32 {
    let word = pixels[pixel.y * u32(frame.target_size.x) + pixel.x];
    return select(bitcast<f32>(0xffffffffu - word.y), NO_DEPTH, all(word == vec2<u32>(0u)));
}
