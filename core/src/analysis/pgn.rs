//! The judged game as PGN: every move with its evaluation as a `[%eval …]` comment (the
//! form lichess and ChessBase read), judged moves with their glyph ($6, $2, $4) and the
//! engine's better move as a variation with its own evaluation.

use shakmaty::{Chess, Color, EnPassantMode, fen::Fen};

use super::{Eval, Review};
use crate::record::export::{tag_section, wrap};

/// The tags of the game being written; empty texts become "?".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tags {
    pub event: String,
    pub site: String,
    /// PGN's form, "2026.11.23", or empty.
    pub date: String,
    pub round: String,
    pub white: String,
    pub black: String,
    /// "1-0", "0-1", "1/2-1/2" or "*".
    pub result: String,
    pub chess960: bool,
}

fn eval_comment(eval: Eval) -> Option<String> {
    eval.pgn().map(|v| format!("{{ [%eval {v}] }}"))
}

/// `number.` before White's move, `number...` before Black's where a number is needed.
fn numbered(number: u32, mover: Color, san: &str, need_number: bool) -> String {
    match mover {
        Color::White => format!("{number}. {san}"),
        Color::Black if need_number => format!("{number}... {san}"),
        Color::Black => san.to_string(),
    }
}

/// The annotated PGN of a judged game.
pub fn annotated_pgn(tags: &Tags, review: &Review) -> String {
    let result = match tags.result.as_str() {
        r @ ("1-0" | "0-1" | "1/2-1/2") => r,
        _ => "*",
    };
    let mut others = vec![("Annotator", "hector analyse".to_string())];
    if tags.chess960 {
        others.push(("Variant", "Chess960".into()));
    }
    let start = &review.start;
    if tags.chess960 || *start != Chess::default() {
        others.push(("SetUp", "1".into()));
        others.push((
            "FEN",
            Fen::from_position(start, EnPassantMode::Legal).to_string(),
        ));
    }
    let mut out = tag_section(
        [
            &tags.event,
            &tags.site,
            &tags.date,
            &tags.round,
            &tags.white,
            &tags.black,
            result,
        ],
        others,
    );

    let mut tokens: Vec<String> = Vec::new();
    if let Some(c) = eval_comment(review.start_eval) {
        tokens.push(c);
    }
    let mut need_number = true;
    for ply in &review.plies {
        tokens.push(numbered(
            ply.number,
            ply.mover,
            &ply.san.to_string(),
            need_number,
        ));
        need_number = false;
        if let Some(j) = ply.judgement {
            tokens.push(j.nag().to_string());
        }
        if let Some(c) = eval_comment(ply.after) {
            tokens.push(c);
            need_number = true;
        }
        if let (Some(_), Some((_, san))) = (ply.judgement, &ply.better) {
            // The variation replaces the move just written; its evaluation is the engine's
            // before the move, with its best play.
            let mut first = numbered(ply.number, ply.mover, &san.to_string(), true);
            first.insert_str(0, "( ");
            tokens.push(first);
            match eval_comment(ply.before) {
                Some(c) => tokens.push(format!("{c} )")),
                None => tokens.push(")".into()),
            }
            need_number = true;
        }
    }
    tokens.push(result.to_string());
    out.push_str(&wrap(&tokens));
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{PositionEval, review};
    use shakmaty::{Move, Role, Square};

    fn normal(role: Role, from: Square, to: Square, capture: Option<Role>) -> Move {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion: None,
        }
    }

    #[test]
    fn evals_as_comments_and_the_better_move_as_a_variation() {
        let start = Chess::default();
        let e4 = normal(Role::Pawn, Square::E2, Square::E4, None);
        let f6 = normal(Role::Pawn, Square::F7, Square::F6, None);
        let e5 = normal(Role::Pawn, Square::E7, Square::E5, None);
        let evals = [
            PositionEval {
                eval: Eval::Centipawns(20),
                best: Some(e4),
            },
            PositionEval {
                eval: Eval::Centipawns(30),
                best: Some(e5),
            },
            PositionEval {
                eval: Eval::Centipawns(300),
                best: None,
            },
        ];
        let r = review(&start, &[e4, f6], &evals).unwrap();
        let tags = Tags {
            white: "Anna".into(),
            result: "1-0".into(),
            ..Tags::default()
        };
        let pgn = annotated_pgn(&tags, &r);
        assert!(pgn.contains("[White \"Anna\"]"), "{pgn}");
        assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
        assert!(!pgn.contains("[FEN"), "{pgn}");
        let moves = pgn.split("\n\n").nth(1).unwrap().replace('\n', " ");
        assert_eq!(
            moves.trim(),
            "{ [%eval 0.20] } 1. e4 { [%eval 0.30] } 1... f6 $2 { [%eval 3.00] } \
             ( 1... e5 { [%eval 0.30] } ) 1-0"
        );
    }

    #[test]
    fn mates_and_a_set_up_position() {
        // White mates with Ra8#.
        let start: Chess = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        let mate = normal(Role::Rook, Square::A1, Square::A8, None);
        let evals = [
            PositionEval {
                eval: Eval::Mate(1),
                best: Some(mate),
            },
            PositionEval {
                eval: Eval::Over(Some(Color::White)),
                best: None,
            },
        ];
        let r = review(&start, &[mate], &evals).unwrap();
        let pgn = annotated_pgn(&Tags::default(), &r);
        // After the seven tag roster, the others in ASCII order of their names.
        assert!(
            pgn.contains(
                "[Result \"*\"]\n[Annotator \"hector analyse\"]\n\
                 [FEN \"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\"]\n[SetUp \"1\"]\n\n"
            ),
            "{pgn}"
        );
        assert!(pgn.contains("{ [%eval #1] } 1. Ra8# *"), "{pgn}");
    }
}
