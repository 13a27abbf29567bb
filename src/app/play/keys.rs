//! Keys of the full-screen view: typing goes to the input line; arrows walk the board;
//! function keys ask about the focused square and the game.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use shakmaty::{Color, File, Rank, Square};

use crate::core::matchplay::command::Command;
use crate::core::matchplay::session::SpeechControl;
use crate::io::files::MAX_LINE_BYTES;

/// What a key does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyAction {
    Type(char),
    Backspace,
    /// Enter: the line is done (an empty line reads the focused square).
    Submit,
    /// Escape: clears the input line, or silences the speech when it is empty.
    Escape,
    /// Move the focus by files and ranks, seen from the player's side.
    Walk(i8, i8),
    /// Jump to a file or rank edge: Home, End, Page Up, Page Down.
    Jump(Edge),
    /// A question about the game or the focused square.
    Ask(Query),
    Repeat,
    ToggleMute,
    Faster,
    Slower,
    Quit,
    Redraw,
    Nothing,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    FirstFile,
    LastFile,
    FarRank,
    NearRank,
}

/// The function keys' questions; some are about the focused square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    Help,
    Board,
    Last,
    Clock,
    Turn,
    Material,
    List,
    MovesHere,
    AttacksHere,
    RankHere,
    FileHere,
    DiagonalsHere,
}

impl Query {
    pub fn command(self, focus: Square) -> Command {
        match self {
            Query::Help => Command::Help,
            Query::Board => Command::Board,
            Query::Last => Command::Last,
            Query::Clock => Command::Clock,
            Query::Turn => Command::Turn,
            Query::Material => Command::Material,
            Query::List => Command::List(None),
            Query::MovesHere => Command::Moves(Some(focus)),
            Query::AttacksHere => Command::Attacks(focus),
            Query::RankHere => Command::Rank(focus.rank()),
            Query::FileHere => Command::File(focus.file()),
            Query::DiagonalsHere => Command::Diagonal(focus),
        }
    }
}

pub fn action(k: KeyEvent) -> KeyAction {
    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
    match k.code {
        KeyCode::Char(c) if ctrl => match c.to_ascii_lowercase() {
            'r' => KeyAction::Repeat,
            'x' => KeyAction::ToggleMute,
            'q' | 'c' | 'd' => KeyAction::Quit,
            'l' => KeyAction::Redraw,
            _ => KeyAction::Nothing,
        },
        KeyCode::Up if ctrl => KeyAction::Faster,
        KeyCode::Down if ctrl => KeyAction::Slower,
        KeyCode::Char(c) => KeyAction::Type(c),
        KeyCode::Backspace => KeyAction::Backspace,
        KeyCode::Enter => KeyAction::Submit,
        KeyCode::Esc => KeyAction::Escape,
        KeyCode::Left => KeyAction::Walk(-1, 0),
        KeyCode::Right => KeyAction::Walk(1, 0),
        KeyCode::Up => KeyAction::Walk(0, 1),
        KeyCode::Down => KeyAction::Walk(0, -1),
        KeyCode::Home => KeyAction::Jump(Edge::FirstFile),
        KeyCode::End => KeyAction::Jump(Edge::LastFile),
        KeyCode::PageUp => KeyAction::Jump(Edge::FarRank),
        KeyCode::PageDown => KeyAction::Jump(Edge::NearRank),
        KeyCode::F(n) => match n {
            1 => KeyAction::Ask(Query::Help),
            2 => KeyAction::Ask(Query::Board),
            3 => KeyAction::Ask(Query::Last),
            4 => KeyAction::Ask(Query::Clock),
            5 => KeyAction::Ask(Query::Turn),
            6 => KeyAction::Ask(Query::Material),
            7 => KeyAction::Ask(Query::List),
            8 => KeyAction::Ask(Query::MovesHere),
            9 => KeyAction::Ask(Query::AttacksHere),
            10 => KeyAction::Ask(Query::RankHere),
            11 => KeyAction::Ask(Query::FileHere),
            12 => KeyAction::Ask(Query::DiagonalsHere),
            _ => KeyAction::Nothing,
        },
        _ => KeyAction::Nothing,
    }
}

/// What a key comes to, for the mode to carry out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyOutcome {
    /// A question or command; `keys_help`: the keys' help is said after it (F1).
    Command {
        command: Command,
        keys_help: bool,
    },
    /// A typed line, done.
    Line(String),
    Speech(SpeechControl),
    ToggleMute,
    Quit,
    /// Only the screen changed (typing, Ctrl+L).
    Redraw,
    Nothing,
}

/// The input line and the focused square of the full-screen view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Focus {
    pub input: String,
    pub cursor: Square,
}

impl Focus {
    pub fn new(cursor: Square) -> Focus {
        Focus {
            input: String::new(),
            cursor,
        }
    }

    /// A key, seen from `side`: the input line or the focus changes, or something is asked.
    pub fn press(&mut self, k: KeyEvent, side: Color) -> KeyOutcome {
        let command = |command| KeyOutcome::Command {
            command,
            keys_help: false,
        };
        match action(k) {
            // A paste without end stops growing the line at the limit of a piped line; a
            // control character is never part of it.
            KeyAction::Type(c) if c.is_control() || self.input.len() >= MAX_LINE_BYTES => {
                KeyOutcome::Redraw
            }
            KeyAction::Type(c) => {
                self.input.push(c);
                KeyOutcome::Redraw
            }
            KeyAction::Backspace => {
                self.input.pop();
                KeyOutcome::Redraw
            }
            KeyAction::Submit => {
                let line = std::mem::take(&mut self.input);
                if line.trim().is_empty() {
                    command(Command::Square(self.cursor))
                } else {
                    KeyOutcome::Line(line)
                }
            }
            KeyAction::Escape => {
                if self.input.is_empty() {
                    KeyOutcome::Speech(SpeechControl::Silence)
                } else {
                    self.input.clear();
                    KeyOutcome::Redraw
                }
            }
            KeyAction::Walk(f, r) => {
                self.cursor = walk(self.cursor, f, r, side);
                command(Command::Square(self.cursor))
            }
            KeyAction::Jump(edge) => {
                self.cursor = jump(self.cursor, edge, side);
                command(Command::Square(self.cursor))
            }
            KeyAction::Ask(q) => KeyOutcome::Command {
                command: q.command(self.cursor),
                keys_help: q == Query::Help,
            },
            KeyAction::Repeat => KeyOutcome::Speech(SpeechControl::Repeat),
            KeyAction::ToggleMute => KeyOutcome::ToggleMute,
            KeyAction::Faster => KeyOutcome::Speech(SpeechControl::Faster),
            KeyAction::Slower => KeyOutcome::Speech(SpeechControl::Slower),
            KeyAction::Quit => KeyOutcome::Quit,
            KeyAction::Redraw => KeyOutcome::Redraw,
            KeyAction::Nothing => KeyOutcome::Nothing,
        }
    }
}

/// The square the focus moves to; it stays on the board's edge.
pub fn walk(from: Square, files: i8, ranks: i8, side: Color) -> Square {
    let (df, dr) = match side {
        Color::White => (files, ranks),
        Color::Black => (-files, -ranks),
    };
    let f = (i8::try_from(u32::from(from.file())).unwrap_or(0) + df).clamp(0, 7);
    let r = (i8::try_from(u32::from(from.rank())).unwrap_or(0) + dr).clamp(0, 7);
    Square::from_coords(File::new(f as u32), Rank::new(r as u32))
}

pub fn jump(from: Square, edge: Edge, side: Color) -> Square {
    let (near, far) = match side {
        Color::White => (Rank::First, Rank::Eighth),
        Color::Black => (Rank::Eighth, Rank::First),
    };
    let (left, right) = match side {
        Color::White => (File::A, File::H),
        Color::Black => (File::H, File::A),
    };
    match edge {
        Edge::FirstFile => Square::from_coords(left, from.rank()),
        Edge::LastFile => Square::from_coords(right, from.rank()),
        Edge::FarRank => Square::from_coords(from.file(), far),
        Edge::NearRank => Square::from_coords(from.file(), near),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walking_is_from_the_players_side() {
        assert_eq!(walk(Square::E2, 0, 1, Color::White), Square::E3);
        assert_eq!(walk(Square::E7, 0, 1, Color::Black), Square::E6);
        assert_eq!(walk(Square::A1, -1, -1, Color::White), Square::A1);
        assert_eq!(jump(Square::E4, Edge::FarRank, Color::White), Square::E8);
        assert_eq!(jump(Square::E4, Edge::FirstFile, Color::Black), Square::H4);
    }

    #[test]
    fn the_input_line_has_a_limit_and_no_control_characters() {
        let mut focus = Focus::new(Square::E1);
        for _ in 0..MAX_LINE_BYTES + 100 {
            focus.press(
                KeyEvent::new(KeyCode::Char('e'), KeyModifiers::NONE),
                Color::White,
            );
        }
        assert_eq!(focus.input.len(), MAX_LINE_BYTES);
        let mut focus = Focus::new(Square::E1);
        focus.press(
            KeyEvent::new(KeyCode::Char('\u{1b}'), KeyModifiers::NONE),
            Color::White,
        );
        assert!(focus.input.is_empty());
    }

    #[test]
    fn keys() {
        use crossterm::event::KeyEvent;
        assert_eq!(
            action(KeyEvent::new(KeyCode::F(9), KeyModifiers::NONE)),
            KeyAction::Ask(Query::AttacksHere)
        );
        assert_eq!(
            action(KeyEvent::new(KeyCode::Char('r'), KeyModifiers::CONTROL)),
            KeyAction::Repeat
        );
        assert_eq!(
            action(KeyEvent::new(KeyCode::Char('r'), KeyModifiers::NONE)),
            KeyAction::Type('r')
        );
        assert_eq!(
            Query::MovesHere.command(Square::G1),
            Command::Moves(Some(Square::G1))
        );
    }
}
