//! Keys of the full-screen view: typing goes to the input line; arrows walk the board;
//! function keys ask about the focused square and the game. Where a mode takes moves on the
//! board, Tab gives the keys to the board: Space picks up and plays, letters find pieces,
//! digits go to a rank (the input line's letters are then not typed).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use shakmaty::{Board, Color, File, Piece, Rank, Role, Square};

use crate::core::matchplay::Command;
use crate::core::matchplay::Question;
use crate::core::matchplay::SpeechControl;
use crate::core::notation::{Language, TABLE_ROLES, role_index};
use crate::io::files::MAX_LINE_BYTES;

/// What a key does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum KeyAction {
    Type(char),
    Backspace,
    Delete,
    /// Enter: the line is done (an empty line reads the focused square).
    Submit,
    /// Escape: clears the input line, or silences the speech when it is empty.
    Escape,
    /// Move the focus by files and ranks, seen from the player's side.
    Walk(i8, i8),
    /// Jump to a file or rank edge: Home, End, Ctrl+Home, Ctrl+End.
    Jump(Edge),
    /// Page Down (`true`) or Page Up through the newest answer.
    Page(bool),
    /// A question about the game or the focused square.
    Ask(Query),
    Repeat,
    ToggleMute,
    Faster,
    Slower,
    Quit,
    Redraw,
    /// Ctrl+V: listen for a spoken move or command (voice input).
    Listen,
    Nothing,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Edge {
    FirstFile,
    LastFile,
    FarRank,
    NearRank,
}

/// The function keys' questions; some are about the focused square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Query {
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
    pub(crate) fn command(self, focus: Square) -> Command {
        match self {
            Query::Help => Command::Help,
            Query::Board => Command::Ask(Question::Board),
            Query::Last => Command::Ask(Question::Last),
            Query::Clock => Command::Clock,
            Query::Turn => Command::Ask(Question::Turn),
            Query::Material => Command::Ask(Question::Material),
            Query::List => Command::Ask(Question::List(None)),
            Query::MovesHere => Command::Ask(Question::Moves(Some(focus))),
            Query::AttacksHere => Command::Ask(Question::Attacks(focus)),
            Query::RankHere => Command::Ask(Question::Rank(focus.rank())),
            Query::FileHere => Command::Ask(Question::File(focus.file())),
            Query::DiagonalsHere => Command::Ask(Question::Diagonal(focus)),
        }
    }
}

pub(crate) fn action(k: KeyEvent) -> KeyAction {
    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
    match k.code {
        KeyCode::Char(c) if ctrl => match c.to_ascii_lowercase() {
            'r' => KeyAction::Repeat,
            'x' => KeyAction::ToggleMute,
            'q' | 'c' | 'd' => KeyAction::Quit,
            'l' => KeyAction::Redraw,
            'v' => KeyAction::Listen,
            // A line feed (Ctrl+J) ends a line as Enter does: piped and pasted text has it.
            'j' => KeyAction::Submit,
            _ => KeyAction::Nothing,
        },
        KeyCode::Up if ctrl => KeyAction::Faster,
        KeyCode::Down if ctrl => KeyAction::Slower,
        KeyCode::Home if ctrl => KeyAction::Jump(Edge::FarRank),
        KeyCode::End if ctrl => KeyAction::Jump(Edge::NearRank),
        KeyCode::Char(c) => KeyAction::Type(c),
        KeyCode::Backspace => KeyAction::Backspace,
        KeyCode::Delete => KeyAction::Delete,
        KeyCode::Enter => KeyAction::Submit,
        KeyCode::Esc => KeyAction::Escape,
        KeyCode::Left => KeyAction::Walk(-1, 0),
        KeyCode::Right => KeyAction::Walk(1, 0),
        KeyCode::Up => KeyAction::Walk(0, 1),
        KeyCode::Down => KeyAction::Walk(0, -1),
        KeyCode::Home => KeyAction::Jump(Edge::FirstFile),
        KeyCode::End => KeyAction::Jump(Edge::LastFile),
        KeyCode::PageUp => KeyAction::Page(false),
        KeyCode::PageDown => KeyAction::Page(true),
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
pub(crate) enum KeyOutcome {
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
    /// Tab gave the keys to the board (`true`) or back to the input line.
    FocusSwitched(bool),
    /// A key would leave the board: the focus stays, and a cue word is said.
    Edge,
    /// On the board, a piece letter: the next such piece of the player, or with Shift of
    /// the opponent (the mode knows the position).
    Find {
        letter: char,
        opponent: bool,
    },
    /// On the board, a key that does nothing there: a word says so.
    NoMeaning,
    /// Page Down (`true`) or Page Up through the newest answer.
    Page(bool),
    /// On the board, f: the board is seen from the other side.
    Flip,
    /// Listen for one phrase (voice input).
    Listen,
    Nothing,
}

/// The input line and the focused square of the full-screen view.
/// How many typed lines Up and Down recall.
const HISTORY: usize = 100;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Focus {
    pub(crate) input: String,
    /// Where typing goes in `input`, in characters.
    pub(crate) caret: usize,
    /// The input holds a line hector refused, selected: typing replaces it.
    pub(crate) selected: bool,
    pub(crate) cursor: Square,
    /// Lines sent, oldest first, and which one Up and Down show (`None`: the line being typed).
    history: Vec<String>,
    recalled: Option<usize>,
    /// The mode takes moves on the board: Tab switches the keys between the input line and
    /// the board.
    pub(crate) board_entry: bool,
    /// The keys go to the board (Tab).
    pub(crate) on_board: bool,
    /// The characters Shift and the digits 1 to 8 give on the keyboard of the language
    /// (! " § $ % & / ( in German, ! @ # $ % ^ & * in English): they jump to a file.
    pub(crate) shifted_digits: Vec<char>,
}

impl Focus {
    pub(crate) fn new(cursor: Square) -> Focus {
        Focus {
            input: String::new(),
            caret: 0,
            selected: false,
            cursor,
            history: Vec::new(),
            recalled: None,
            board_entry: false,
            on_board: false,
            shifted_digits: Vec::new(),
        }
    }

    /// The keys of the board's focus: Space, piece letters, rank digits, Escape. `None` for
    /// the others (arrows, function keys, Enter), which work as with the input line.
    fn board_key(&mut self, k: KeyEvent) -> Option<KeyOutcome> {
        if k.modifiers.contains(KeyModifiers::CONTROL) {
            return None;
        }
        let command = |command| KeyOutcome::Command {
            command,
            keys_help: false,
        };
        // Shift and a digit: that file, on the same rank (lichess's blind mode). Terminals
        // send the shifted character; some send the digit with Shift.
        let file = match k.code {
            KeyCode::Char(c @ '1'..='8') if k.modifiers.contains(KeyModifiers::SHIFT) => {
                Some(c as u32 - '1' as u32)
            }
            KeyCode::Char(c) => shifted_digit(c, &self.shifted_digits),
            _ => None,
        };
        if let Some(file) = file {
            self.cursor = Square::from_coords(File::new(file), self.cursor.rank());
            return Some(command(Command::Ask(Question::Square(self.cursor))));
        }
        Some(match k.code {
            KeyCode::Char(' ') => command(Command::Select(self.cursor)),
            KeyCode::Esc => command(Command::PutDown),
            KeyCode::Char(c @ '1'..='8') => {
                let rank = Rank::new(c as u32 - '1' as u32);
                self.cursor = Square::from_coords(self.cursor.file(), rank);
                command(Command::Ask(Question::Square(self.cursor)))
            }
            // The keys of lichess's blind mode: the moves of the focused piece (m), only its
            // captures (Shift+M), the opponent (o), evaluation (v) and best move (g), the
            // board turned (f), one half-move back and forward in the game (Shift+A/D).
            KeyCode::Char('m') => command(Command::Ask(Question::Moves(Some(self.cursor)))),
            KeyCode::Char('M') => command(Command::Ask(Question::Captures(Some(self.cursor)))),
            KeyCode::Char('o' | 'O') => command(Command::Opponent),
            KeyCode::Char('v' | 'V') => command(Command::Eval),
            KeyCode::Char('g' | 'G') => command(Command::Hint),
            KeyCode::Char('f' | 'F') => KeyOutcome::Flip,
            KeyCode::Char('A') => command(Command::ReviewPrevious),
            KeyCode::Char('D') => command(Command::ReviewNext),
            KeyCode::Char(c) if c.is_alphabetic() => KeyOutcome::Find {
                letter: c.to_lowercase().next().unwrap_or(c),
                opponent: c.is_uppercase() || k.modifiers.contains(KeyModifiers::SHIFT),
            },
            // Nothing is typed while the keys are the board's: a key without a use there
            // says so, rather than leave the player in silence.
            KeyCode::Char(_) | KeyCode::Backspace | KeyCode::Delete => KeyOutcome::NoMeaning,
            _ => return None,
        })
    }

    /// A line hector refused goes back into the input, selected for retyping.
    pub(crate) fn refused(&mut self, line: &str) {
        self.input = line.to_string();
        self.caret = self.input.chars().count();
        self.selected = true;
    }

    fn byte_at(&self, chars: usize) -> usize {
        self.input
            .char_indices()
            .nth(chars)
            .map_or(self.input.len(), |(i, _)| i)
    }

    fn set_input(&mut self, text: String) {
        self.caret = text.chars().count();
        self.input = text;
        self.selected = false;
    }

    /// Up (`back`) or Down through the lines sent before.
    fn recall(&mut self, back: bool) -> KeyOutcome {
        if self.history.is_empty() {
            return KeyOutcome::Nothing;
        }
        let last = self.history.len() - 1;
        self.recalled = match (self.recalled, back) {
            (None, true) => Some(last),
            (None, false) => None,
            (Some(i), true) => Some(i.saturating_sub(1)),
            (Some(i), false) if i < last => Some(i + 1),
            (Some(_), false) => None,
        };
        let text = self
            .recalled
            .and_then(|i| self.history.get(i).cloned())
            .unwrap_or_default();
        self.set_input(text);
        KeyOutcome::Redraw
    }

    /// The keys that edit the input line while it holds text (or shows a recalled line);
    /// `None` for the others, which walk the board as with an empty line.
    fn edit(&mut self, action: &KeyAction) -> Option<KeyOutcome> {
        if self.on_board || (self.input.is_empty() && self.recalled.is_none()) {
            return None;
        }
        let len = self.input.chars().count();
        match action {
            KeyAction::Walk(-1, 0) => self.caret = self.caret.saturating_sub(1),
            KeyAction::Walk(1, 0) => self.caret = (self.caret + 1).min(len),
            KeyAction::Jump(Edge::FirstFile) => self.caret = 0,
            KeyAction::Jump(Edge::LastFile) => self.caret = len,
            KeyAction::Walk(0, 1) => return Some(self.recall(true)),
            KeyAction::Walk(0, -1) => return Some(self.recall(false)),
            KeyAction::Delete if self.selected => self.set_input(String::new()),
            KeyAction::Delete => {
                if self.caret < len {
                    let at = self.byte_at(self.caret);
                    self.input.remove(at);
                }
            }
            _ => return None,
        }
        self.selected = false;
        Some(KeyOutcome::Redraw)
    }

    /// A key, seen from `side`: the input line or the focus changes, or something is asked.
    pub(crate) fn press(&mut self, k: KeyEvent, side: Color) -> KeyOutcome {
        let command = |command| KeyOutcome::Command {
            command,
            keys_help: false,
        };
        if k.code == KeyCode::Tab && self.board_entry {
            self.on_board = !self.on_board;
            return KeyOutcome::FocusSwitched(self.on_board);
        }
        if self.on_board
            && let Some(outcome) = self.board_key(k)
        {
            return outcome;
        }
        let action = action(k);
        if let Some(outcome) = self.edit(&action) {
            return outcome;
        }
        match action {
            // A paste without end stops growing the line at the limit of a piped line; a
            // control character is never part of it.
            KeyAction::Type(c) if c.is_control() || self.input.len() >= MAX_LINE_BYTES => {
                KeyOutcome::Redraw
            }
            KeyAction::Type(c) => {
                if self.selected {
                    self.set_input(String::new());
                }
                let at = self.byte_at(self.caret);
                self.input.insert(at, c);
                self.caret += 1;
                KeyOutcome::Redraw
            }
            KeyAction::Backspace => {
                if self.selected {
                    self.set_input(String::new());
                } else if self.caret > 0 {
                    self.caret -= 1;
                    let at = self.byte_at(self.caret);
                    self.input.remove(at);
                }
                KeyOutcome::Redraw
            }
            KeyAction::Delete => KeyOutcome::Nothing,
            KeyAction::Submit => {
                let line = std::mem::take(&mut self.input);
                self.caret = 0;
                self.selected = false;
                self.recalled = None;
                if line.trim().is_empty() {
                    // The mode decides: the focused square, or a question asked again.
                    KeyOutcome::Line(String::new())
                } else {
                    if self.history.last() != Some(&line) {
                        self.history.push(line.clone());
                        if self.history.len() > HISTORY {
                            self.history.remove(0);
                        }
                    }
                    KeyOutcome::Line(line)
                }
            }
            KeyAction::Escape => {
                if self.input.is_empty() {
                    KeyOutcome::Speech(SpeechControl::Silence)
                } else {
                    self.set_input(String::new());
                    self.recalled = None;
                    KeyOutcome::Redraw
                }
            }
            KeyAction::Walk(f, r) => {
                let to = walk(self.cursor, f, r, side);
                if to == self.cursor {
                    return KeyOutcome::Edge;
                }
                self.cursor = to;
                command(Command::Ask(Question::Square(self.cursor)))
            }
            KeyAction::Jump(edge) => {
                let to = jump(self.cursor, edge, side);
                if to == self.cursor {
                    return KeyOutcome::Edge;
                }
                self.cursor = to;
                command(Command::Ask(Question::Square(self.cursor)))
            }
            KeyAction::Ask(q) => KeyOutcome::Command {
                command: q.command(self.cursor),
                keys_help: q == Query::Help,
            },
            KeyAction::Page(down) => KeyOutcome::Page(down),
            KeyAction::Repeat => KeyOutcome::Speech(SpeechControl::Repeat),
            KeyAction::ToggleMute => KeyOutcome::ToggleMute,
            KeyAction::Faster => KeyOutcome::Speech(SpeechControl::Faster),
            KeyAction::Slower => KeyOutcome::Speech(SpeechControl::Slower),
            KeyAction::Quit => KeyOutcome::Quit,
            KeyAction::Redraw => KeyOutcome::Redraw,
            KeyAction::Listen => KeyOutcome::Listen,
            KeyAction::Nothing if self.on_board => KeyOutcome::NoMeaning,
            KeyAction::Nothing => KeyOutcome::Nothing,
        }
    }
}

/// The file (from 0) that Shift and a digit gives on the keyboard: the language's own
/// characters first (`layout`), then those of the other languages (a German player may have
/// a US keyboard); & is Shift+6 in German and Shift+7 in English, so the language decides.
fn shifted_digit(c: char, layout: &[char]) -> Option<u32> {
    let index = |chars: &[char]| chars.iter().take(8).position(|&x| x == c);
    index(layout)
        .or_else(|| {
            crate::core::notation::languages()
                .find_map(|lang| index(&lang.board_keys.shifted_digits.chars().collect::<Vec<_>>()))
        })
        .and_then(|i| u32::try_from(i).ok())
}

/// The next square after `from` with `piece`, in the order the screen shows the squares
/// from `side` (rank by rank from the far one, each from the left), starting again at the
/// first square after the last.
pub(crate) fn next_piece(board: &Board, from: Square, piece: Piece, side: Color) -> Option<Square> {
    let order: Vec<Square> = match side {
        Color::White => Rank::ALL
            .into_iter()
            .rev()
            .flat_map(|r| {
                File::ALL
                    .into_iter()
                    .map(move |f| Square::from_coords(f, r))
            })
            .collect(),
        Color::Black => Rank::ALL
            .into_iter()
            .flat_map(|r| {
                File::ALL
                    .into_iter()
                    .rev()
                    .map(move |f| Square::from_coords(f, r))
            })
            .collect(),
    };
    let at = order.iter().position(|&sq| sq == from).unwrap_or(0);
    order[at + 1..]
        .iter()
        .chain(&order[..=at])
        .copied()
        .find(|&sq| board.piece_at(sq) == Some(piece))
}

/// The piece a letter on the board stands for: the letters the board is drawn with in the
/// language (K D T L S B in German, K Q R B N P in English) first, then those of the other
/// languages (so k q r b n p work everywhere, as they are understood everywhere when typed;
/// in German b is the Bauer).
pub(crate) fn role_of_letter(letter: char, lang: &Language) -> Option<Role> {
    let letter = letter.to_lowercase().to_string();
    let in_table = |table: &Language| {
        TABLE_ROLES
            .into_iter()
            .find(|&role| table.pieces.board_letters[role_index(role)].to_lowercase() == letter)
    };
    in_table(lang).or_else(|| crate::core::notation::languages().find_map(in_table))
}

/// The square the focus moves to; it stays on the board's edge.
pub(crate) fn walk(from: Square, files: i8, ranks: i8, side: Color) -> Square {
    let (df, dr) = match side {
        Color::White => (files, ranks),
        Color::Black => (-files, -ranks),
    };
    let f = (i8::try_from(u32::from(from.file())).unwrap_or(0) + df).clamp(0, 7);
    let r = (i8::try_from(u32::from(from.rank())).unwrap_or(0) + dr).clamp(0, 7);
    Square::from_coords(File::new(f as u32), Rank::new(r as u32))
}

pub(crate) fn jump(from: Square, edge: Edge, side: Color) -> Square {
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
            Command::Ask(Question::Moves(Some(Square::G1)))
        );
    }

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    fn typed(f: &mut Focus, text: &str) {
        for c in text.chars() {
            f.press(key(KeyCode::Char(c)), Color::White);
        }
    }

    #[test]
    fn the_input_line_is_edited_while_it_holds_text() {
        let mut f = Focus::new(Square::E2);
        typed(&mut f, "Sf3");
        f.press(key(KeyCode::Left), Color::White);
        f.press(key(KeyCode::Left), Color::White);
        f.press(key(KeyCode::Backspace), Color::White);
        typed(&mut f, "L");
        assert_eq!((f.input.as_str(), f.caret), ("Lf3", 1));
        f.press(key(KeyCode::Home), Color::White);
        f.press(key(KeyCode::Delete), Color::White);
        assert_eq!(f.input, "f3");
        f.press(key(KeyCode::End), Color::White);
        typed(&mut f, "+");
        assert_eq!(f.input, "f3+");
        // The board's focus did not move while editing.
        assert_eq!(f.cursor, Square::E2);
        // With an empty line the arrows walk the board as before.
        f.press(key(KeyCode::Esc), Color::White);
        f.press(key(KeyCode::Up), Color::White);
        assert_eq!(f.cursor, Square::E3);
    }

    #[test]
    fn up_and_down_recall_earlier_lines() {
        let mut f = Focus::new(Square::E2);
        for line in ["e4", "brett", "Sf3"] {
            typed(&mut f, line);
            assert_eq!(
                f.press(key(KeyCode::Enter), Color::White),
                KeyOutcome::Line(line.into())
            );
        }
        typed(&mut f, "x");
        f.press(key(KeyCode::Up), Color::White);
        assert_eq!(f.input, "Sf3");
        f.press(key(KeyCode::Up), Color::White);
        assert_eq!(f.input, "brett");
        f.press(key(KeyCode::Down), Color::White);
        assert_eq!(f.input, "Sf3");
        f.press(key(KeyCode::Down), Color::White);
        assert_eq!(f.input, "");
    }

    #[test]
    fn the_board_takes_the_keys_after_tab() {
        let mut f = Focus::new(Square::E2);
        // Without board entry Tab does nothing and letters are typed.
        assert_eq!(
            f.press(key(KeyCode::Tab), Color::White),
            KeyOutcome::Nothing
        );
        f.board_entry = true;
        assert_eq!(
            f.press(key(KeyCode::Tab), Color::White),
            KeyOutcome::FocusSwitched(true)
        );
        assert_eq!(
            f.press(key(KeyCode::Char(' ')), Color::White),
            KeyOutcome::Command {
                command: Command::Select(Square::E2),
                keys_help: false
            }
        );
        assert_eq!(
            f.press(key(KeyCode::Char('n')), Color::White),
            KeyOutcome::Find {
                letter: 'n',
                opponent: false
            }
        );
        assert_eq!(
            f.press(
                KeyEvent::new(KeyCode::Char('N'), KeyModifiers::SHIFT),
                Color::White
            ),
            KeyOutcome::Find {
                letter: 'n',
                opponent: true
            }
        );
        f.press(key(KeyCode::Char('5')), Color::White);
        assert_eq!(f.cursor, Square::E5);
        assert!(f.input.is_empty());
        // Keys without a use on the board say so, and type nothing.
        for k in [
            KeyCode::Char('9'),
            KeyCode::Char('.'),
            KeyCode::Backspace,
            KeyCode::Delete,
            KeyCode::Insert,
            KeyCode::F(13),
        ] {
            assert_eq!(
                f.press(key(k), Color::White),
                KeyOutcome::NoMeaning,
                "{k:?}"
            );
        }
        assert!(f.input.is_empty());
        assert_eq!(
            f.press(key(KeyCode::Esc), Color::White),
            KeyOutcome::Command {
                command: Command::PutDown,
                keys_help: false
            }
        );
        // The function keys still ask.
        assert!(matches!(
            f.press(key(KeyCode::F(2)), Color::White),
            KeyOutcome::Command {
                command: Command::Ask(Question::Board),
                ..
            }
        ));
        assert_eq!(
            f.press(key(KeyCode::Tab), Color::White),
            KeyOutcome::FocusSwitched(false)
        );
        typed(&mut f, "e4");
        assert_eq!(f.input, "e4");
    }

    #[test]
    fn piece_letters_are_the_boards() {
        let de = crate::core::notation::language("de").expect("de");
        let en = crate::core::notation::language("en").expect("en");
        assert_eq!(role_of_letter('s', de), Some(Role::Knight));
        assert_eq!(role_of_letter('b', de), Some(Role::Pawn));
        assert_eq!(role_of_letter('b', en), Some(Role::Bishop));
        assert_eq!(role_of_letter('N', en), Some(Role::Knight));
        assert_eq!(role_of_letter('x', en), None);
        // The international letters work in German too, where they mean nothing else.
        assert_eq!(role_of_letter('n', de), Some(Role::Knight));
        assert_eq!(role_of_letter('q', de), Some(Role::Queen));
        assert_eq!(role_of_letter('r', de), Some(Role::Rook));
        assert_eq!(role_of_letter('p', de), Some(Role::Pawn));
    }

    #[test]
    fn the_edge_is_a_cue_not_the_square_again() {
        let mut f = Focus::new(Square::A1);
        assert_eq!(f.press(key(KeyCode::Left), Color::White), KeyOutcome::Edge);
        assert_eq!(f.cursor, Square::A1);
        assert!(matches!(
            f.press(key(KeyCode::Right), Color::White),
            KeyOutcome::Command {
                command: Command::Ask(Question::Square(Square::B1)),
                ..
            }
        ));
    }

    #[test]
    fn letters_find_the_next_piece_in_reading_order() {
        let board = Board::default();
        let knight = Piece {
            color: Color::White,
            role: shakmaty::Role::Knight,
        };
        assert_eq!(
            next_piece(&board, Square::E2, knight, Color::White),
            Some(Square::B1)
        );
        assert_eq!(
            next_piece(&board, Square::B1, knight, Color::White),
            Some(Square::G1)
        );
        // After the last, the first again.
        assert_eq!(
            next_piece(&board, Square::G1, knight, Color::White),
            Some(Square::B1)
        );
        // Seen from Black, the first rank is read last, from the right.
        assert_eq!(
            next_piece(&board, Square::E7, knight, Color::Black),
            Some(Square::G1)
        );
        let queen = Piece {
            color: Color::Black,
            role: shakmaty::Role::Queen,
        };
        assert_eq!(
            next_piece(&board, Square::D8, queen, Color::White),
            Some(Square::D8)
        );
        assert_eq!(
            next_piece(&Board::empty(), Square::D8, queen, Color::White),
            None
        );
    }

    #[test]
    fn a_refused_line_stays_selected_and_typing_replaces_it() {
        let mut f = Focus::new(Square::E2);
        f.refused("Springa f3");
        assert_eq!((f.input.as_str(), f.selected), ("Springa f3", true));
        typed(&mut f, "S");
        assert_eq!((f.input.as_str(), f.selected), ("S", false));
        f.refused("Springa f3");
        f.press(key(KeyCode::Left), Color::White);
        assert!(!f.selected);
        f.press(key(KeyCode::Backspace), Color::White);
        assert_eq!(f.input, "Springa 3");
    }

    #[test]
    fn the_keys_of_lichess_blind_mode_on_the_board() {
        let shifted = |c: char| KeyEvent::new(KeyCode::Char(c), KeyModifiers::SHIFT);
        let command = |command| KeyOutcome::Command {
            command,
            keys_help: false,
        };
        let mut f = Focus::new(Square::E2);
        f.board_entry = true;
        f.on_board = true;
        assert_eq!(
            f.press(key(KeyCode::Char('m')), Color::White),
            command(Command::Ask(Question::Moves(Some(Square::E2))))
        );
        assert_eq!(
            f.press(shifted('M'), Color::White),
            command(Command::Ask(Question::Captures(Some(Square::E2))))
        );
        assert_eq!(
            f.press(key(KeyCode::Char('o')), Color::White),
            command(Command::Opponent)
        );
        assert_eq!(
            f.press(key(KeyCode::Char('v')), Color::White),
            command(Command::Eval)
        );
        assert_eq!(
            f.press(key(KeyCode::Char('g')), Color::White),
            command(Command::Hint)
        );
        assert_eq!(
            f.press(key(KeyCode::Char('f')), Color::White),
            KeyOutcome::Flip
        );
        assert_eq!(
            f.press(shifted('A'), Color::White),
            command(Command::ReviewPrevious)
        );
        assert_eq!(
            f.press(shifted('D'), Color::White),
            command(Command::ReviewNext)
        );
        // Shift and a digit: the file, on the same rank (US layout: ^ is Shift+6).
        assert_eq!(
            f.press(shifted('^'), Color::White),
            command(Command::Ask(Question::Square(Square::F2)))
        );
        assert_eq!(
            f.press(shifted('!'), Color::White),
            command(Command::Ask(Question::Square(Square::A2)))
        );
        // The digit itself with Shift, as some terminals send it.
        assert_eq!(
            f.press(shifted('8'), Color::White),
            command(Command::Ask(Question::Square(Square::H2)))
        );
        // & is Shift+7 on a US keyboard and Shift+6 on a German one.
        let layout = |code: &str| {
            crate::core::notation::language(code)
                .expect("language")
                .board_keys
                .shifted_digits
                .chars()
                .collect::<Vec<char>>()
        };
        f.shifted_digits = layout("en");
        f.press(shifted('&'), Color::White);
        assert_eq!(f.cursor, Square::G2);
        f.shifted_digits = layout("de");
        f.press(shifted('&'), Color::White);
        assert_eq!(f.cursor, Square::F2);
        f.press(shifted('§'), Color::White);
        assert_eq!(f.cursor, Square::C2);
        // Without Shift the digits are ranks, as before.
        f.press(key(KeyCode::Char('5')), Color::White);
        assert_eq!(f.cursor, Square::C5);
        // Other capitals still find the opponent's pieces.
        assert_eq!(
            f.press(shifted('S'), Color::White),
            KeyOutcome::Find {
                letter: 's',
                opponent: true
            }
        );
    }

    #[test]
    fn page_keys_page_and_ctrl_home_and_end_reach_the_ranks_edges() {
        let mut f = Focus::new(Square::E4);
        assert_eq!(
            f.press(key(KeyCode::PageDown), Color::White),
            KeyOutcome::Page(true)
        );
        assert_eq!(
            f.press(key(KeyCode::PageUp), Color::White),
            KeyOutcome::Page(false)
        );
        assert_eq!(f.cursor, Square::E4);
        let ctrl = |code| KeyEvent::new(code, KeyModifiers::CONTROL);
        f.press(ctrl(KeyCode::Home), Color::White);
        assert_eq!(f.cursor, Square::E8);
        f.press(ctrl(KeyCode::End), Color::White);
        assert_eq!(f.cursor, Square::E1);
        // Seen from Black, the far rank is the first.
        f.press(ctrl(KeyCode::Home), Color::Black);
        assert_eq!(f.cursor, Square::E1);
        // While typing, paging still pages.
        typed(&mut f, "Sf3");
        assert_eq!(
            f.press(key(KeyCode::PageDown), Color::White),
            KeyOutcome::Page(true)
        );
        assert_eq!(f.input, "Sf3");
        // A line feed ends the line as Enter does.
        assert_eq!(
            f.press(ctrl(KeyCode::Char('j')), Color::White),
            KeyOutcome::Line("Sf3".into())
        );
    }
}
