//! Text from files and command lines, made safe to show on a terminal.
//!
//! A scene file is a document someone else wrote: its names can hold an escape sequence that
//! clears the screen or recolours everything after it, a carriage return that overwrites the
//! start of the line, or a NUL that a terminal shows as nothing. Every such character is shown
//! as a visible escape instead ([`escape_for_terminal`]), and a name of thousands of characters
//! is cut to a readable length that says how long it was ([`display_name`]).
//!
//! The binary also passes its whole error message through [`escape_lines`] before printing it,
//! as a last line of defence for any name a message forgot to escape; [`error_chain`] joins an
//! error with its sources and says each cause once.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Longest name [`display_name`] shows whole, in characters.
pub const MAX_NAME_CHARS: usize = 80;

/// Characters of a longer name [`display_name`] keeps before the ellipsis.
const KEPT_NAME_CHARS: usize = 60;

/// Whether `c` changes what a terminal shows rather than showing itself: the C0 and C1 control
/// characters (NUL, ESC, CR, …, DEL, CSI) and the bidirectional overrides and isolates, which
/// reorder the text around them on screen.
fn needs_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn push_escaped(out: &mut String, c: char) {
    match c {
        '\0' => out.push_str("\\0"),
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        c => {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
    }
}

/// `text` with every control character (NUL, ESC, CR, LF, tab, DEL, the C1 controls) and
/// bidirectional override written as a visible escape: `\0`, `\t`, `\n`, `\r`, or `\u{1b}`
/// style. Borrows when there is nothing to escape. Backslashes are kept as they are.
pub fn escape_for_terminal(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if needs_escape(c) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// As [`escape_for_terminal`], but line breaks stay line breaks: for a whole message, which
/// may span lines on purpose (a shader compiler's report), not for a name.
pub fn escape_lines(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c != '\n' && needs_escape(c)) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.split('\n').map(escape_for_terminal).collect::<Vec<_>>().join("\n"))
}

/// A user-provided name (a scene, mesh, material or file name) as a message should quote it:
/// escaped as [`escape_for_terminal`] does, and when longer than [`MAX_NAME_CHARS`]
/// characters, its first 60 followed by `…` and the full length, e.g.
/// `aaaa…aaaa… (5000 characters)`.
pub fn display_name(name: &str) -> String {
    let length = name.chars().count();
    if length <= MAX_NAME_CHARS {
        return escape_for_terminal(name).into_owned();
    }
    let kept: String = name.chars().take(KEPT_NAME_CHARS).collect();
    format!("{}… ({length} characters)", escape_for_terminal(&kept))
}

/// A count with thousands separators, `12,345,678`. Counts of what a file describes are summed
/// and multiplied with saturating arithmetic, so `u64::MAX` means "at least this many" and is
/// written so (`18,446,744,073,709,551,615 or more`), never as if it were the count.
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 8);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n == u64::MAX {
        out.push_str(" or more");
    }
    out
}

/// `error` and its sources joined by `: `, each cause said once: a source whose text the
/// message already holds (a `thiserror` message that embeds `{source}`, a context that repeats
/// its cause) is left out, so nothing is lost and nothing is said twice. An empty message is
/// skipped; if every message is empty, the error's type is named instead of printing nothing.
pub fn error_chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut out = String::new();
    let mut cause = Some(error);
    while let Some(current) = cause {
        let text = current.to_string();
        let text = text.trim();
        if !text.is_empty() && !out.contains(text) {
            // A cause that restates the last part of the message ("glTF file \"x\"" then
            // "cannot read glTF file \"x\"") replaces that part, so the name is said once.
            let (head, last) = match out.rfind(": ") {
                Some(i) => (i, &out[i + 2..]),
                None => (0, out.as_str()),
            };
            if !last.is_empty() && text.contains(last) {
                out.truncate(head);
            }
            if !out.is_empty() {
                out.push_str(": ");
            }
            out.push_str(text);
        }
        cause = current.source();
    }
    if out.is_empty() {
        out = format!("an error with no message ({error:?})");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_borrowed_unchanged() {
        for text in ["", "crate", "Grüße, 世界 \\ \"quoted\"", "ünïcödé-mesh_01"] {
            assert!(matches!(escape_for_terminal(text), Cow::Borrowed(t) if t == text));
            assert!(matches!(escape_lines(text), Cow::Borrowed(t) if t == text));
        }
    }

    #[test]
    fn control_characters_become_visible_escapes() {
        assert_eq!(escape_for_terminal("a\0b"), "a\\0b");
        assert_eq!(escape_for_terminal("\u{1b}[2J\u{1b}[31mRED"), "\\u{1b}[2J\\u{1b}[31mRED");
        assert_eq!(escape_for_terminal("over\rwrite\ttab\nline"), "over\\rwrite\\ttab\\nline");
        assert_eq!(escape_for_terminal("del\u{7f} csi\u{9b}"), "del\\u{7f} csi\\u{9b}");
        assert_eq!(escape_for_terminal("abc\u{202e}cba"), "abc\\u{202e}cba");
        assert_eq!(escape_for_terminal("\0"), "\\0", "a lone NUL must not print as nothing");
        for text in ["\u{1b}]0;title\u{7}", "\0\0", "x\u{85}y"] {
            assert!(!escape_for_terminal(text).chars().any(|c| c.is_control()), "{text:?}");
        }
    }

    #[test]
    fn whole_messages_keep_their_line_breaks() {
        assert_eq!(escape_lines("first\nsecond \u{1b}[1m\0"), "first\nsecond \\u{1b}[1m\\0");
        assert_eq!(escape_lines("a\r\nb"), "a\\r\nb");
    }

    #[test]
    fn long_names_are_cut_with_their_length() {
        let short = "x".repeat(MAX_NAME_CHARS);
        assert_eq!(display_name(&short), short);
        let long = "é".repeat(5000);
        let shown = display_name(&long);
        assert_eq!(shown, format!("{}… (5000 characters)", "é".repeat(60)));
        assert!(shown.chars().count() < MAX_NAME_CHARS);
        // Escaped after cutting, so a cut never splits an escape.
        let hostile = "\u{1b}".repeat(100);
        assert_eq!(display_name(&hostile), format!("{}… (100 characters)", "\\u{1b}".repeat(60)));
        assert_eq!(display_name("a\0b"), "a\\0b");
    }

    #[test]
    fn counts_read_as_counts() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1000), "1,000");
        assert_eq!(count(50_000_000), "50,000,000");
        assert_eq!(count(u64::MAX - 1), "18,446,744,073,709,551,614");
        assert_eq!(count(u64::MAX), "18,446,744,073,709,551,615 or more");
    }

    #[derive(Debug)]
    struct Error(&'static str, Option<Box<Error>>);
    impl std::fmt::Display for Error {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(self.0)
        }
    }
    impl std::error::Error for Error {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            self.1.as_deref().map(|e| e as _)
        }
    }

    #[test]
    fn each_cause_is_said_once() {
        let io = || Some(Box::new(Error("file name contained an unexpected NUL byte", None)));
        // A thiserror message embedding `{source}`, whose source embeds its own source.
        let nested = Error(
            "a.toml:3:1: glTF file \"\\0\": cannot read it: file name contained an unexpected NUL byte",
            Some(Box::new(Error("cannot read it: file name contained an unexpected NUL byte", io()))),
        );
        assert_eq!(
            error_chain(&nested),
            "a.toml:3:1: glTF file \"\\0\": cannot read it: file name contained an unexpected NUL byte"
        );
        let plain = Error("cannot write x.png", Some(Box::new(Error("No space left on device (os error 28)", None))));
        assert_eq!(error_chain(&plain), "cannot write x.png: No space left on device (os error 28)");
        let anyhow_error = anyhow::Error::new(Error("inner", None)).context("outer");
        assert_eq!(error_chain(anyhow_error.as_ref()), "outer: inner");
    }

    #[test]
    fn an_error_never_prints_as_nothing() {
        let empty = Error("", Some(Box::new(Error(" ", None))));
        let shown = error_chain(&empty);
        assert!(shown.starts_with("an error with no message"), "{shown}");
        assert_eq!(error_chain(&Error("", Some(Box::new(Error("the cause", None))))), "the cause");
    }
}
