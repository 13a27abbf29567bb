//! Text from outside (typed lines, engine answers, board bytes, file contents) made safe to
//! print and speak: control characters would move a terminal's cursor, ring its bell or be
//! read out as noise, so each is shown as `\xNN`. Backslashes stay as they are, so that text
//! made printable once (a typed line) comes through a second time (a message echoing it)
//! unchanged.

use std::borrow::Cow;
use std::fmt::Write as _;

fn is_control(c: char) -> bool {
    c.is_control() || c == '\u{2028}' || c == '\u{2029}'
}

/// `text` with its control characters escaped; the same text when it has none.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_control(c) {
            let _ = write!(out, "\\x{:02X}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_shown_not_sent() {
        assert!(matches!(printable("Eva vier"), Cow::Borrowed("Eva vier")));
        assert_eq!(printable("e4\0\x07\x1b[2J"), "e4\\x00\\x07\\x1B[2J");
        assert_eq!(printable("a\\b"), "a\\b");
        let once = printable("e4\x1b");
        assert_eq!(printable(&once), once);
        assert_eq!(printable("Läufer\u{85}"), "Läufer\\x85");
        assert_eq!(printable("\u{2028}"), "\\x2028");
    }
}
