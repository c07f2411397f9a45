//! Buffer and image URIs: `data:` URIs (base64) and files relative to the glTF file, read
//! through the scene's sandbox (which decides whether a path stays inside).

use std::path::{Path, PathBuf};

use super::{GltfFile, ImportError};

impl GltfFile {
    /// Reads a `data:` URI or a file relative to the glTF file through the sandbox. Returns
    /// the file's canonical path (`None` for a `data:` URI) and its bytes.
    pub(super) fn read_uri(&self, what: &str, uri: &str) -> Result<(Option<PathBuf>, Vec<u8>), ImportError> {
        if let Some(bytes) = decode_data_uri(what, uri)? {
            return Ok((None, bytes));
        }
        let path = self.uri_path(what, uri)?;
        let (canonical, bytes) = self.sandbox.read(&path, what)?;
        Ok((Some(canonical), bytes))
    }

    /// The path a relative file URI names (joined to the glTF file's directory).
    pub(super) fn uri_path(&self, what: &str, uri: &str) -> Result<PathBuf, ImportError> {
        let bad =
            |reason: &str| ImportError::BadUri { what: what.to_string(), uri: shorten(uri), reason: reason.into() };
        if uri.contains("://") {
            return Err(bad("is not a relative file path or a data: URI"));
        }
        let relative = percent_decode(uri).ok_or_else(|| bad("has an invalid %-escape"))?;
        let path = Path::new(&relative);
        if path.has_root() || path.is_absolute() {
            return Err(bad("is an absolute path; a glTF file names its files relative to itself"));
        }
        if relative.is_empty() {
            return Err(bad("is empty"));
        }
        Ok(self.dir.join(path))
    }
}

/// The bytes of a `data:` URI, or `None` for any other URI.
pub(super) fn decode_data_uri(what: &str, uri: &str) -> Result<Option<Vec<u8>>, ImportError> {
    let bad = |reason: &str| ImportError::BadUri { what: what.to_string(), uri: shorten(uri), reason: reason.into() };
    let Some(rest) = uri.strip_prefix("data:") else { return Ok(None) };
    let (header, payload) = rest.split_once(',').ok_or_else(|| bad("is a data URI without a comma"))?;
    if !header.ends_with(";base64") {
        return Err(bad("is a data URI that is not base64"));
    }
    decode_base64(payload).map(Some).ok_or_else(|| bad("has invalid base64 data"))
}

/// A URI cut to 48 characters for a message: `data:` URIs run to megabytes.
pub(super) fn shorten(uri: &str) -> String {
    if uri.chars().count() > 48 {
        format!("{}…", uri.chars().take(48).collect::<String>())
    } else {
        uri.to_string()
    }
}

/// Undoes `%XX` escapes; `None` on a bad escape or a result that is not UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

const BASE64_ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with optional padding; `None` on any other character.
pub fn decode_base64(text: &str) -> Option<Vec<u8>> {
    let value = |symbol: u8| -> Option<u32> {
        Some(match symbol {
            b'A'..=b'Z' => symbol - b'A',
            b'a'..=b'z' => symbol - b'a' + 26,
            b'0'..=b'9' => symbol - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let symbols = text.trim_end_matches('=').as_bytes();
    let mut out = Vec::with_capacity(symbols.len() * 3 / 4);
    let (mut accumulator, mut bits) = (0u32, 0u32);
    for &symbol in symbols {
        accumulator = (accumulator << 6) | value(symbol)?;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((accumulator >> bits) as u8);
            accumulator &= (1 << bits) - 1;
        }
    }
    // One symbol left over carries 6 bits, less than a byte: the text was cut short.
    (bits != 6).then_some(out)
}

/// Standard base64 with padding (used to write embedded buffers).
pub fn encode_base64(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | (b as u32) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(BASE64_ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}
