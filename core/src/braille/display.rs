//! What a braille display shows, as a pure model: a line of its own underneath (the board's
//! rank, an input line) and, over it, the newest answer flashed as screen readers flash their
//! messages, until the next key or for a time the player sets. The display's panning keys
//! read a text longer than the display window by window; a window ends at a space where it
//! can, and its last cell carries a mark while more follows.
//!
//! Cells are counted in characters: BrlAPI writes one character to a cell.

use std::ops::Range;
use std::time::Duration;

use super::brlapi::DisplayKey;
use crate::time::Timestamp;

/// How long a flashed answer stays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hold {
    /// Until the next key (the display's or the keyboard's).
    UntilKey,
    /// This long after it was shown or last panned, unless a key ends it before.
    For(Duration),
}

/// What to write to the display: at most as many characters as it has cells, and the cursor
/// on a cell counted from 0.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Frame {
    pub text: String,
    pub cursor: Option<usize>,
}

/// What a key did besides what the display shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// A routing key over this character of the line underneath (counted from 0).
    Route(usize),
    LineUp,
    LineDown,
}

/// The answer to a key: whether the display must be written again, and what is left for the
/// mode to do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reaction {
    pub(crate) redraw: bool,
    pub action: Option<Action>,
}

/// Text cut for a display: characters, `\n` a forced break, other control characters as
/// spaces (an opponent's name or a chat line comes from outside).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Text {
    chars: Vec<char>,
    cursor: Option<usize>,
    /// Where each window starts and ends (the end excludes the spaces at the break).
    windows: Vec<Range<usize>>,
}

impl Text {
    fn new(text: &str, cursor: Option<usize>, cells: usize) -> Text {
        let mut chars: Vec<char> = text
            .chars()
            .map(|c| if c != '\n' && c.is_control() { ' ' } else { c })
            .collect();
        // A cursor after the last character needs a cell of its own.
        let keep = match cursor {
            Some(c) if c >= chars.len() => {
                chars.resize(c + 1, ' ');
                c + 1
            }
            _ => 0,
        };
        let windows = windows_keeping(&chars, cells, keep);
        Text {
            chars,
            cursor,
            windows,
        }
    }

    fn window_of(&self, at: usize) -> usize {
        self.windows
            .iter()
            .rposition(|w| w.start <= at)
            .unwrap_or(0)
    }
}

/// The windows of `text` on a display of `cells`: as many characters as fit, broken after the
/// last space that fits (a word longer than the display is cut); one cell is kept for the mark
/// in every window but the last. A line break always starts a new window.
#[cfg(test)]
pub(crate) fn windows(text: &[char], cells: usize) -> Vec<Range<usize>> {
    windows_keeping(text, cells, 0)
}

/// [`windows`], with the text's trailing spaces kept up to `keep` characters (the cell of a
/// cursor after the text).
fn windows_keeping(text: &[char], cells: usize, keep: usize) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    if cells == 0 {
        return out;
    }
    let end = text
        .iter()
        .rposition(|c| !c.is_whitespace())
        .map_or(0, |i| i + 1)
        .max(keep.min(text.len()));
    let mut at = 0;
    // The first window keeps the text's own start; later ones skip the spaces at the break.
    while at < end || out.is_empty() {
        let line_end = text[at..end]
            .iter()
            .position(|&c| c == '\n')
            .map_or(end, |i| at + i);
        let last = line_end == end;
        if last && end - at <= cells {
            out.push(at..end);
            break;
        }
        // More follows: the mark takes the last cell (a display of one cell has no room).
        let room = if cells > 1 { cells - 1 } else { 1 };
        let (stop, next) = if line_end - at <= room {
            (line_end, line_end + 1)
        } else {
            // The last space within reach: the character just after the window may be one.
            match (at + 1..=at + room)
                .rev()
                .find(|&i| text.get(i).is_some_and(|c| *c == ' '))
            {
                Some(space) => (space, space + 1),
                None => (at + room, at + room),
            }
        };
        let stop = text[at..stop]
            .iter()
            .rposition(|c| !c.is_whitespace())
            .map_or(at, |i| at + i + 1);
        out.push(at..stop);
        at = next;
        while at < end && text[at] == ' ' {
            at += 1;
        }
    }
    out
}

/// A flashed answer and where the player is in it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Flash {
    text: Text,
    window: usize,
    until: Option<Timestamp>,
}

/// The display: its size, the line underneath, the flashed answer over it.
#[derive(Clone, Debug)]
pub struct BrailleDisplay {
    cells: usize,
    hold: Hold,
    mark: char,
    base: Text,
    base_source: (String, Option<usize>),
    base_window: usize,
    flash: Option<Flash>,
}

impl BrailleDisplay {
    /// A display not yet connected (no cells); `mark` ends a window while more follows.
    pub fn new(hold: Hold, mark: char) -> BrailleDisplay {
        BrailleDisplay {
            cells: 0,
            hold,
            mark,
            base: Text::default(),
            base_source: (String::new(), None),
            base_window: 0,
            flash: None,
        }
    }

    pub fn cells(&self) -> usize {
        self.cells
    }

    /// The mark that ends a window while more follows.
    pub fn set_mark(&mut self, mark: char) {
        self.mark = mark;
    }

    #[cfg(test)]
    pub(crate) fn set_hold(&mut self, hold: Hold) {
        self.hold = hold;
    }

    /// The display's size is known (or changed): every text is cut anew.
    pub fn set_cells(&mut self, cells: usize) {
        self.cells = cells;
        let (text, cursor) = self.base_source.clone();
        self.base = Text::new(&text, cursor, cells);
        self.base_window = cursor.map_or(0, |c| self.base.window_of(c));
        if let Some(flash) = &mut self.flash {
            let chars: String = flash.text.chars.iter().collect();
            flash.text = Text::new(&chars, None, cells);
            flash.window = 0;
        }
    }

    /// The line shown when no answer is flashed, with the cursor on a character (counted
    /// from 0): the window follows the cursor.
    pub fn set_base(&mut self, text: &str, cursor: Option<usize>) {
        if self.base_source.0 == text && self.base_source.1 == cursor {
            return;
        }
        self.base_source = (text.to_string(), cursor);
        self.base = Text::new(text, cursor, self.cells);
        self.base_window = match cursor {
            Some(c) => self.base.window_of(c),
            None => 0,
        };
    }

    /// Shows an answer over the line underneath, from its start.
    pub fn flash(&mut self, text: &str, now: Timestamp) {
        self.flash = Some(Flash {
            text: Text::new(text, None, self.cells),
            window: 0,
            until: self.until(now),
        });
    }

    fn until(&self, now: Timestamp) -> Option<Timestamp> {
        match self.hold {
            Hold::UntilKey => None,
            Hold::For(d) => Some(now + d),
        }
    }

    /// Whether an answer is flashed now.
    pub fn is_flashing(&self) -> bool {
        self.flash.is_some()
    }

    /// When a flashed answer ends by itself, if it does.
    pub fn deadline(&self) -> Option<Timestamp> {
        self.flash.as_ref().and_then(|f| f.until)
    }

    /// Time passed: a flashed answer whose time is up ends; whether the display changed.
    pub fn tick(&mut self, now: Timestamp) -> bool {
        match self.deadline() {
            Some(until) if until <= now => {
                self.flash = None;
                true
            }
            _ => false,
        }
    }

    /// A key of the keyboard (not the display's): it ends a flashed answer.
    pub fn other_key(&mut self) -> bool {
        self.flash.take().is_some()
    }

    /// A key of the display.
    pub fn key(&mut self, key: DisplayKey, now: Timestamp) -> Reaction {
        let until = self.until(now);
        match key {
            DisplayKey::PanLeft | DisplayKey::PanRight => {
                let forward = key == DisplayKey::PanRight;
                if let Some(flash) = &mut self.flash {
                    // Reading: the time starts again.
                    flash.until = until;
                    let moved = step(&mut flash.window, flash.text.windows.len(), forward);
                    return Reaction {
                        redraw: moved,
                        action: None,
                    };
                }
                let moved = step(&mut self.base_window, self.base.windows.len(), forward);
                Reaction {
                    redraw: moved,
                    action: None,
                }
            }
            DisplayKey::Route(cell) => {
                // Over an answer, a routing key only ends it: the squares are not in sight.
                if self.flash.take().is_some() {
                    return Reaction {
                        redraw: true,
                        action: None,
                    };
                }
                let Some(window) = self.base.windows.get(self.base_window) else {
                    return Reaction::default();
                };
                let at = window.start + usize::from(cell);
                Reaction {
                    redraw: false,
                    action: (at < window.end).then_some(Action::Route(at)),
                }
            }
            DisplayKey::LineUp | DisplayKey::LineDown => Reaction {
                redraw: self.flash.take().is_some(),
                action: Some(if key == DisplayKey::LineUp {
                    Action::LineUp
                } else {
                    Action::LineDown
                }),
            },
            DisplayKey::Other(_) => Reaction {
                redraw: self.flash.take().is_some(),
                action: None,
            },
        }
    }

    /// What the display shows now; `None` while its size is not known.
    pub fn frame(&self) -> Option<Frame> {
        if self.cells == 0 {
            return None;
        }
        let (text, window) = match &self.flash {
            Some(flash) => (&flash.text, flash.window),
            None => (&self.base, self.base_window),
        };
        let Some(range) = text.windows.get(window) else {
            return Some(Frame::default());
        };
        let mut shown: String = text.chars[range.clone()].iter().collect();
        let cursor = text
            .cursor
            .filter(|&c| text.window_of(c) == window)
            .and_then(|c| c.checked_sub(range.start))
            .filter(|&c| c < self.cells);
        if window + 1 < text.windows.len() && self.cells > 1 {
            let used = range.len();
            shown.extend(std::iter::repeat_n(
                ' ',
                self.cells - 1 - used.min(self.cells - 1),
            ));
            shown.push(self.mark);
        }
        Some(Frame {
            text: shown,
            cursor,
        })
    }

    /// The windows of what is shown now: how many, and which one is shown (from 0).
    #[cfg(test)]
    pub(crate) fn position(&self) -> (usize, usize) {
        match &self.flash {
            Some(flash) => (flash.text.windows.len(), flash.window),
            None => (self.base.windows.len(), self.base_window),
        }
    }
}

fn step(window: &mut usize, count: usize, forward: bool) -> bool {
    if forward && *window + 1 < count {
        *window += 1;
        true
    } else if !forward && *window > 0 {
        *window -= 1;
        true
    } else {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const T0: Timestamp = Timestamp::ZERO;

    fn cut(text: &str, cells: usize) -> Vec<String> {
        let chars: Vec<char> = text.chars().collect();
        windows(&chars, cells)
            .into_iter()
            .map(|r| chars[r].iter().collect())
            .collect()
    }

    fn shown(d: &BrailleDisplay) -> String {
        d.frame().expect("connected").text
    }

    const REPLY: &str = "Computer: Springer Gustav acht nach Felix sechs. Weiß ist am Zug.";

    #[test]
    fn a_long_answer_breaks_at_spaces_with_a_mark_while_more_follows() {
        assert_eq!(
            cut(REPLY, 40),
            [
                "Computer: Springer Gustav acht nach",
                "Felix sechs. Weiß ist am Zug."
            ]
        );
        let mut d = BrailleDisplay::new(Hold::UntilKey, '»');
        d.set_cells(40);
        d.flash(REPLY, T0);
        assert_eq!(shown(&d), "Computer: Springer Gustav acht nach    »");
        assert_eq!(shown(&d).chars().count(), 40);
        assert!(d.key(DisplayKey::PanRight, T0).redraw);
        assert_eq!(shown(&d), "Felix sechs. Weiß ist am Zug.");
        // At the end it stays; back to the start.
        assert!(!d.key(DisplayKey::PanRight, T0).redraw);
        assert!(d.key(DisplayKey::PanLeft, T0).redraw);
        assert!(shown(&d).starts_with("Computer:"));
        assert!(!d.key(DisplayKey::PanLeft, T0).redraw);
    }

    #[test]
    fn a_word_longer_than_the_display_is_cut_and_lines_start_windows() {
        assert_eq!(cut("Abcdefghij", 4), ["Abc", "def", "ghij"]);
        assert_eq!(cut("eins\nzwei drei", 40), ["eins", "zwei drei"]);
        assert_eq!(cut("", 40), [""]);
        assert_eq!(cut("a b", 1), ["a", "b"]);
        // Exactly full: no mark needed, so no break.
        assert_eq!(cut(&"x".repeat(40), 40), ["x".repeat(40)]);
        // A full window with more after it leaves the last cell for the mark.
        assert_eq!(cut("aaaa bbbb", 4), ["aaa", "a", "bbbb"]);
    }

    #[test]
    fn a_flash_ends_with_the_next_key_or_its_time() {
        let mut d = BrailleDisplay::new(Hold::UntilKey, '»');
        d.set_cells(20);
        d.set_base("4 .:.:B:.:", Some(6));
        d.flash("Computer: Eva fünf", T0);
        assert_eq!(d.deadline(), None);
        assert!(!d.tick(Timestamp::from_millis(600_000)));
        assert!(d.other_key());
        assert_eq!(
            d.frame(),
            Some(Frame {
                text: "4 .:.:B:.:".into(),
                cursor: Some(6)
            })
        );

        d.set_hold(Hold::For(Duration::from_secs(5)));
        d.flash("Computer: Eva fünf", T0);
        assert_eq!(d.deadline(), Some(Timestamp::from_millis(5000)));
        // Panning starts the time again.
        d.key(DisplayKey::PanRight, Timestamp::from_millis(4000));
        assert!(!d.tick(Timestamp::from_millis(5000)));
        assert!(d.tick(Timestamp::from_millis(9000)));
        assert!(!d.is_flashing());
    }

    #[test]
    fn a_routing_key_over_an_answer_ends_it_and_over_the_line_is_the_modes() {
        let mut d = BrailleDisplay::new(Hold::UntilKey, '»');
        d.set_cells(40);
        d.set_base("4 .:.:B:.:", Some(6));
        d.flash(REPLY, T0);
        assert_eq!(
            d.key(DisplayKey::Route(3), T0),
            Reaction {
                redraw: true,
                action: None
            }
        );
        assert_eq!(
            d.key(DisplayKey::Route(3), T0).action,
            Some(Action::Route(3))
        );
        // Beyond the text: nothing.
        assert_eq!(d.key(DisplayKey::Route(30), T0), Reaction::default());
        // Line keys pass through, ending an answer on the way.
        d.flash(REPLY, T0);
        assert_eq!(
            d.key(DisplayKey::LineUp, T0),
            Reaction {
                redraw: true,
                action: Some(Action::LineUp)
            }
        );
    }

    #[test]
    fn the_window_of_the_line_underneath_follows_its_cursor() {
        let mut d = BrailleDisplay::new(Hold::UntilKey, '»');
        d.set_cells(10);
        let line = "Zug oder Befehl: Springer Felix drei";
        d.set_base(line, Some(line.chars().count()));
        let frame = d.frame().expect("connected");
        assert_eq!(frame.text, "drei ");
        assert_eq!(frame.cursor, Some(4));
        // Routing in the second window counts from that window's start.
        d.key(DisplayKey::PanLeft, T0);
        let at = match d.key(DisplayKey::Route(0), T0).action {
            Some(Action::Route(at)) => at,
            other => panic!("{other:?}"),
        };
        assert_eq!(line.chars().nth(at), Some('F'));
    }

    #[test]
    fn nothing_is_shown_before_the_size_is_known() {
        let mut d = BrailleDisplay::new(Hold::UntilKey, '»');
        d.flash(REPLY, T0);
        assert_eq!(d.frame(), None);
        d.set_cells(40);
        assert!(shown(&d).starts_with("Computer:"));
    }

    #[test]
    fn control_characters_from_outside_are_blanks() {
        let mut d = BrailleDisplay::new(Hold::UntilKey, '»');
        d.set_cells(40);
        d.flash("Chat: a\u{1b}[2Jb", T0);
        assert_eq!(shown(&d), "Chat: a [2Jb");
    }

    proptest! {
        #[test]
        fn windows_cover_every_word_in_order_within_the_display(
            words in proptest::collection::vec("[a-zäöüß0-9:,.]{1,15}", 0..40),
            cells in 1usize..50,
        ) {
            let text = words.join(" ");
            let chars: Vec<char> = text.chars().collect();
            let ws = windows(&chars, cells);
            prop_assert!(!ws.is_empty());
            let mut rebuilt = String::new();
            for (i, w) in ws.iter().enumerate() {
                let room = if i + 1 < ws.len() && cells > 1 { cells - 1 } else { cells };
                prop_assert!(w.len() <= room, "window {} of {:?}", i, ws);
                rebuilt.extend(&chars[w.clone()]);
            }
            // Nothing lost but the spaces at the breaks.
            let squeeze = |s: &str| s.replace(' ', "");
            prop_assert_eq!(squeeze(&rebuilt), squeeze(&text));
            // A word that fits a window is never split.
            for word in &words {
                if word.chars().count() < cells {
                    prop_assert!(
                        ws.iter().any(|w| chars[w.clone()].iter().collect::<String>().contains(word.as_str())),
                        "{} split in {:?}", word, ws
                    );
                }
            }
        }

        #[test]
        fn any_keys_keep_the_frame_within_the_display(
            text in ".{0,300}",
            cells in 1usize..60,
            keys in proptest::collection::vec(0u8..6, 0..40),
        ) {
            let mut d = BrailleDisplay::new(Hold::For(Duration::from_secs(3)), '»');
            d.set_cells(cells);
            d.set_base(&text, Some(text.chars().count() / 2));
            d.flash(&text, T0);
            for (i, k) in keys.into_iter().enumerate() {
                let now = Timestamp::from_millis(i as u64 * 700);
                let key = match k {
                    0 => DisplayKey::PanLeft,
                    1 => DisplayKey::PanRight,
                    2 => DisplayKey::Route(u16::from(k) * 7),
                    3 => DisplayKey::LineDown,
                    4 => { d.tick(now); continue; }
                    _ => { d.flash(&text, now); continue; }
                };
                d.key(key, now);
                let frame = d.frame().expect("connected");
                prop_assert!(frame.text.chars().count() <= cells);
                prop_assert!(frame.cursor.is_none_or(|c| c < cells));
                let (count, at) = d.position();
                prop_assert!(at < count.max(1));
            }
        }
    }
}
