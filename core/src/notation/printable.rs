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

/// The longest name from a server shown or spoken (a player, a board): lichess's user
/// names have at most 30 characters, a broadcast's player names some dozens with a title.
pub(crate) const MAX_NAME: usize = 100;
/// The longest reason from a server shown or spoken (a refusal, an error).
pub const MAX_REASON: usize = 300;

/// `text` made printable and cut to at most `max` characters (the cut marked with "…"), so
/// that a server's name or reason of any length costs one short line, not a page of speech.
pub fn printable_cut(text: &str, max: usize) -> String {
    let shown = printable(text);
    if shown.chars().count() <= max {
        return shown.into_owned();
    }
    let mut cut: String = shown.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_with_a_mark() {
        assert_eq!(printable_cut("Anna", 10), "Anna");
        assert_eq!(printable_cut(&"x".repeat(100_000), 5), "xxxx…");
        assert_eq!(printable_cut("Läufer\u{7}", 7), "Läufer…");
        assert_eq!(printable_cut("äöü", 3), "äöü");
    }

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
