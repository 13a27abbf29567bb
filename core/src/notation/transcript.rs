//! Speaking every move of a recorded game (used by `hector transcript`).

use shakmaty::{CastlingMode, Color, Position, san::SanPlus, uci::UciMove};

use crate::legality::san_plus_and_play;

use super::language::Language;
use super::speak::{Form, announce_into};
use crate::check::game_start;
use crate::legality::{Illegal, resolve_record_san};
use crate::pgn::{RawGame, SyntaxError, shown};

/// One ply of a game with everything a transcript shows.
pub struct SpokenPly<'a> {
    /// 1 for the first move of the game.
    pub ply: usize,
    /// The move number as the scoresheet shows it.
    pub move_number: u32,
    pub turn: Color,
    pub san: &'a SanPlus,
    pub uci: UciMove,
    pub spoken: &'a str,
}

/// Between White's and Black's move of one number, in a transcript and the game's move list:
/// a mark a screen reader keeps (it passes over double spaces), and not the comma that comes
/// before "Schach" or a promotion.
pub(crate) const BETWEEN_SIDES: &str = "; ";

/// In place of White's move when a game or a list begins with Black's.
pub(crate) const NO_WHITE_MOVE: &str = "…";

/// Appends one ply to a text transcript, one line per move number ("2. Springer Felix drei;
/// Felix sechs, Schach"). `line_open`: White's move of this line is written and the line is
/// not ended; the new value is returned.
pub fn push_text_ply(buf: &mut String, p: &SpokenPly<'_>, line_open: bool) -> bool {
    match p.turn {
        Color::White => {
            if line_open {
                buf.push('\n');
            }
            buf.push_str(&p.move_number.to_string());
            buf.push_str(". ");
            buf.push_str(p.spoken);
            true
        }
        Color::Black => {
            if !line_open {
                buf.push_str(&p.move_number.to_string());
                buf.push_str(". ");
                buf.push_str(NO_WHITE_MOVE);
            }
            buf.push_str(BETWEEN_SIDES);
            buf.push_str(p.spoken);
            buf.push('\n');
            false
        }
    }
}

/// Why a game could not be transcribed to its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TranscriptError {
    Setup(SyntaxError),
    Illegal {
        ply: usize,
        line: usize,
        san: String,
        reason: Illegal,
    },
}

impl std::fmt::Display for TranscriptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TranscriptError::Setup(e) => write!(f, "{e}"),
            TranscriptError::Illegal {
                ply,
                line,
                san,
                reason,
            } => write!(f, "line {line}: ply {ply} {san}: {}", reason.describe()),
        }
    }
}

/// Replays `raw` and calls `each` for every ply with its phrase in `lang`.
pub fn speak_game(
    raw: &RawGame<'_>,
    lang: &Language,
    form: Form,
    mut each: impl FnMut(SpokenPly<'_>),
) -> Result<(), TranscriptError> {
    let (mut pos, variant) = game_start(raw).map_err(TranscriptError::Setup)?;
    let mode: CastlingMode = variant.castling_mode();
    let mut spoken = String::with_capacity(64);
    for (i, token) in raw.mainline().enumerate() {
        let m =
            resolve_record_san(&pos, token.item).map_err(|reason| TranscriptError::Illegal {
                ply: i + 1,
                line: token.line,
                san: shown(token.item),
                reason,
            })?;
        let move_number = pos.fullmoves().get();
        let turn = pos.turn();
        let uci = UciMove::from_move(m, mode);
        let san: SanPlus = san_plus_and_play(&mut pos, m);
        spoken.clear();
        announce_into(&mut spoken, san, m, lang, form);
        each(SpokenPly {
            ply: i + 1,
            move_number,
            turn,
            san: &san,
            uci,
            spoken: &spoken,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::language::language;
    use crate::pgn::Reader;

    #[test]
    fn chess960_uci_is_king_takes_rook() {
        let text = "[Variant \"Chess960\"]\n[FEN \"rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1\"]\n1. O-O O-O-O *";
        let raw = Reader::new(text.as_bytes()).next().expect("game");
        let mut ucis = Vec::new();
        speak_game(&raw, language("de").expect("de"), Form::Short, |p| {
            ucis.push(p.uci.to_string())
        })
        .expect("legal");
        assert_eq!(ucis, ["b1h1", "b8a8"]);
        let text = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O *";
        let raw = Reader::new(text.as_bytes()).next().expect("game");
        let mut last = String::new();
        speak_game(&raw, language("en").expect("en"), Form::Short, |p| {
            last = p.uci.to_string()
        })
        .expect("legal");
        assert_eq!(last, "e1g1");
    }

    #[test]
    fn text_lines_separate_the_sides_with_a_semicolon() {
        let text = "1. e4 f5 2. Qh5+ g6 3. Nf3 *";
        let raw = Reader::new(text.as_bytes()).next().expect("game");
        let mut buf = String::new();
        let mut open = false;
        speak_game(&raw, language("de").expect("de"), Form::Short, |p| {
            open = push_text_ply(&mut buf, &p, open)
        })
        .expect("legal");
        assert_eq!(
            buf,
            "1. Eva vier; Felix fünf\n2. Dame Hector fünf, Schach; Gustav sechs\n3. Springer Felix drei"
        );
        let text = "[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 7\"]\n7... Kd7 8. e4 *";
        let raw = Reader::new(text.as_bytes()).next().expect("game");
        buf.clear();
        open = false;
        speak_game(&raw, language("en").expect("en"), Form::Short, |p| {
            open = push_text_ply(&mut buf, &p, open)
        })
        .expect("legal");
        assert_eq!(buf, "7. …; King David seven\n8. Eva four");
    }

    #[test]
    fn an_illegal_move_stops_the_game_with_its_line() {
        let raw = Reader::new(b"1. e4 e5\n2. Ke3 *").next().expect("game");
        let err = speak_game(&raw, language("de").expect("de"), Form::Short, |_| {})
            .expect_err("illegal");
        assert!(
            matches!(
                err,
                TranscriptError::Illegal {
                    ply: 3,
                    line: 2,
                    ..
                }
            ),
            "{err:?}"
        );
    }
}
