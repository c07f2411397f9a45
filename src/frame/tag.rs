//! The data every per-frame puffin scope carries — the frame's number, its mode and its object
//! count, "frame 12 · gpu · 1000 objects" — so that a capture can be grouped by mode and object
//! count and a GPU pass read back frames later is matched to the frame that submitted it.
//! One format, written and parsed here.

use std::fmt;

use super::DrawMode;

/// Which frame a scope belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameTag {
    /// The renderer's frame number ([`crate::frame::FrameStats::frame`]).
    pub frame: u64,
    /// The mode's command-line name (`DrawMode::name`).
    pub mode: String,
    pub objects: u32,
}

impl FrameTag {
    pub fn new(frame: u64, mode: DrawMode, objects: u32) -> Self {
        Self { frame, mode: mode.name().to_string(), objects }
    }

    /// Reads back what [`fmt::Display`] wrote; `None` for anything else.
    pub fn parse(text: &str) -> Option<Self> {
        let mut parts = text.split(" · ");
        let frame = parts.next()?.strip_prefix("frame ")?.parse().ok()?;
        let mode = parts.next()?.to_string();
        let objects = parts.next()?.strip_suffix(" objects")?.parse().ok()?;
        Some(Self { frame, mode, objects })
    }
}

impl fmt::Display for FrameTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "frame {} · {} · {} objects", self.frame, self.mode, self.objects)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tag_reads_back() {
        let tag = FrameTag::new(12, DrawMode::GpuNocount, 100_000);
        assert_eq!(tag.to_string(), "frame 12 · gpu-nocount · 100000 objects");
        assert_eq!(FrameTag::parse(&tag.to_string()), Some(tag));
        assert_eq!(FrameTag::parse("gpu"), None);
    }
}
