//! The questions: the commands that ask about a position or a game and change nothing. This is
//! the one list of them ([`Question`], which a command carries as
//! [`Command::Ask`](crate::matchplay::command::Command::Ask)) and the one function that answers
//! them ([`answer`]); every machine that takes questions (play, the exercises, the watch, the
//! arbiter's console through the match) asks here, so a question added once is answered
//! everywhere a position is.

use shakmaty::{Chess, Color, File, Rank, Role, Square};

use super::{capture_moves, dangers, queries};
use crate::game::Game;
use crate::notation::language::Language;
use crate::notation::speak::Form;
use crate::notation::wording::Wording;
use crate::openings;

/// A question about the position or the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Question {
    /// The whole board, rank by rank.
    Board,
    /// The pieces of one side, one kind, or both.
    Pieces {
        color: Option<Color>,
        role: Option<Role>,
    },
    Square(Square),
    Rank(Rank),
    File(File),
    /// The diagonals through a square.
    Diagonal(Square),
    /// Attackers and defenders of a square.
    Attacks(Square),
    /// Every piece either side attacks.
    Threats,
    /// Legal moves of the piece on a square, or of every piece.
    Moves(Option<Square>),
    /// Legal moves of every piece of one kind of the side to move.
    PieceMoves(Role),
    /// The capturing moves of the piece on a square, or of every piece.
    Captures(Option<Square>),
    Material,
    /// The opponent's checks and the player's pieces attacked and not defended enough.
    Dangers,
    /// Whose move it is.
    Turn,
    /// The last move (of the position looked at).
    Last,
    /// The moves of the game from a move number (the last five moves when left out).
    List(Option<u32>),
    /// The name of the opening the game has reached.
    Opening,
    /// The pieces each side has lost.
    Captured,
}

impl Question {
    /// Whether only a game answers it (its moves), not a position alone.
    #[cfg(test)]
    pub(crate) fn needs_game(&self) -> bool {
        matches!(
            self,
            Question::Last | Question::List(_) | Question::Opening | Question::Captured
        )
    }

    /// Whether it lists the moves to play (nothing to list once the game is over).
    pub(crate) fn lists_moves(&self) -> bool {
        matches!(
            self,
            Question::Moves(_) | Question::PieceMoves(_) | Question::Captures(_)
        )
    }
}

/// What a question is asked about, and how the answer is worded.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Asked<'a> {
    /// The position looked at (an earlier one while looking back).
    pub(crate) position: &'a Chess,
    /// The game around it, and the half-moves of it played up to the position looked at;
    /// `None` for a position alone (a puzzle, a training position).
    pub(crate) game: Option<(&'a Game, usize)>,
    /// The side the board is read from (the eighth rank first for White).
    pub(crate) seen_from: Color,
    /// The side whose dangers are meant.
    pub(crate) player: Color,
    pub(crate) lang: &'a Language,
    pub(crate) form: Form,
    pub(crate) wording: &'a Wording,
}

/// The answer to `question`, one line or several; `None` when it needs a game and there is
/// none.
pub(crate) fn answer(question: &Question, at: &Asked<'_>) -> Option<Vec<String>> {
    let (pos, lang, form, w) = (at.position, at.lang, at.form, at.wording);
    let one = |text: String| Some(vec![text]);
    match *question {
        Question::Board => Some(queries::board(pos, at.seen_from, lang, w)),
        Question::Pieces { color, role } => Some(queries::pieces(pos, color, role, lang)),
        Question::Square(sq) => one(queries::square(pos, sq, lang, w)),
        Question::Rank(r) => one(queries::rank(pos, r, lang, w)),
        Question::File(f) => one(queries::file(pos, f, lang, w)),
        Question::Diagonal(sq) => Some(queries::diagonals(pos, sq, lang, w)),
        Question::Attacks(sq) => one(queries::attacks_on(pos, sq, lang, w)),
        Question::Threats => one(queries::threats(pos, lang, w)),
        Question::Moves(sq) => one(queries::moves(pos, sq, lang, form)),
        Question::PieceMoves(role) => one(queries::piece_moves(pos, role, lang)),
        Question::Captures(sq) => one(capture_moves::captures(pos, sq, lang, form)),
        Question::Material => Some(queries::material(pos, lang)),
        Question::Dangers => one(dangers::dangers(pos, at.player, lang, form)),
        Question::Turn => one(queries::turn(pos, lang)),
        Question::Last => {
            let (game, ply) = at.game?;
            one(queries::last_move_at(game, ply, lang, form))
        }
        Question::List(from) => one(queries::move_list(at.game?.0, from, lang, form)),
        Question::Opening => one(openings::answer(openings::of_game(at.game?.0), lang)),
        Question::Captured => one(dangers::captured(at.game?.0, lang)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matchplay::command::{Line, read_line};
    use crate::notation::language::language;

    fn asked<'a>(pos: &'a Chess, game: Option<(&'a Game, usize)>, w: &'a Wording) -> Asked<'a> {
        Asked {
            position: pos,
            game,
            seen_from: Color::White,
            player: Color::White,
            lang: language("de").expect("de"),
            form: Form::Short,
            wording: w,
        }
    }

    fn question(text: &str) -> Question {
        match read_line(text) {
            Ok(Line::Command(c)) => c.question().cloned().expect("a question"),
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn the_questions_are_the_commands_that_change_nothing() {
        for text in ["brett", "feld e4", "züge", "material", "liste", "eröffnung"] {
            question(text);
        }
        for text in ["aufgeben", "remis", "ende", "hilfe", "still", "speichern"] {
            let Ok(Line::Command(c)) = read_line(text) else {
                panic!("{text} is a command");
            };
            assert_eq!(c.question(), None, "{text}");
        }
    }

    #[test]
    fn a_position_alone_answers_no_question_about_moves_played() {
        let pos = Chess::default();
        let w = Wording::default();
        for text in ["letzter", "liste", "eröffnung", "geschlagen"] {
            assert!(question(text).needs_game(), "{text}");
            assert_eq!(answer(&question(text), &asked(&pos, None, &w)), None);
        }
        let game = Game::new(crate::variant::Variant::Standard);
        for text in [
            "letzter",
            "liste",
            "eröffnung",
            "geschlagen",
            "brett",
            "wer",
        ] {
            let said = answer(&question(text), &asked(&pos, Some((&game, 0)), &w));
            assert!(said.is_some_and(|l| !l.is_empty()), "{text}");
        }
    }

    #[test]
    fn the_board_is_read_from_the_side_asked() {
        let pos = Chess::default();
        let w = Wording::default();
        let mut at = asked(&pos, None, &w);
        let white = answer(&Question::Board, &at).unwrap_or_default();
        at.seen_from = Color::Black;
        let black = answer(&Question::Board, &at).unwrap_or_default();
        assert_eq!(white.len(), 8);
        assert_eq!(white.first(), black.last());
    }
}
