//! Speaking every move of a recorded game (used by `hector transcript`).

use shakmaty::{CastlingMode, Color, Position, san::SanPlus, uci::UciMove};

use crate::core::legality::san_plus_and_play;

use super::language::Language;
use super::speak::{Form, announce_into};
use crate::core::check::game_start;
use crate::core::legality::{Illegal, resolve_record_san};
use crate::core::pgn::{RawGame, SyntaxError, shown};

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
    use crate::core::notation::language::language;
    use crate::core::pgn::Reader;

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
