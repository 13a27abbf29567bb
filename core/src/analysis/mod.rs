//! A game judged by an engine (`hector analyse`), without the engine: its evaluations in
//! words and numbers, each half-move judged by how much it lowered the mover's chances, and
//! the annotated PGN ([`pgn`]). The adapter asks the engine about every position and hands
//! the answers in as [`Eval`]s.
//!
//! Judging a move: the evaluation before it (the engine's best play) and after it, both from
//! the mover's side, as winning chances (0 to 100 %, the logistic curve lichess publishes
//! for its analysis). A drop of at least 10 points is an inaccuracy, 20 a mistake, 30 a
//! blunder. Chances flatten where the game is decided anyway, so a move from +6 to +4 is no
//! mistake while one from +1 to −1 is. The engine's own best move is never judged (deeper
//! or shallower searches of neighbouring positions disagree by a few hundredths).

pub(crate) mod pgn;
pub mod store;
pub use crate::notation::words::analysis as words;
pub use pgn::{Tags, annotated_pgn};

use shakmaty::{Chess, Color, Move, Position, san::SanPlus};

use crate::notation::language::{Language, counted, fill};
use crate::notation::speak::{Form, announce_san};

/// How a position stands, from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Hundredths of a pawn; positive when White is better.
    Centipawns(i32),
    /// Mate in so many moves: positive when White mates, negative when Black does.
    Mate(i32),
    /// The game is over on the board: the winner by checkmate, or `None` for a draw.
    Over(Option<Color>),
}

/// Below this many centipawns either way the position is equal in words.
pub(crate) const EQUAL_CP: i32 = 30;
/// From here one side is clearly better.
pub(crate) const CLEARLY_CP: i32 = 100;
/// From here one side is winning.
pub(crate) const WINNING_CP: i32 = 250;

/// Drops in winning chances (percentage points) that make a move an inaccuracy, a mistake,
/// a blunder.
pub(crate) const INACCURACY_DROP: f64 = 10.0;
pub(crate) const MISTAKE_DROP: f64 = 20.0;
pub(crate) const BLUNDER_DROP: f64 = 30.0;

impl Eval {
    /// An engine's centipawns, which count from the side to move.
    pub fn centipawns_for(to_move: Color, cp: i32) -> Eval {
        Eval::Centipawns(to_move.fold_wb(cp, cp.saturating_neg()))
    }

    /// An engine's "mate in n", counted from the side to move (negative: it is mated).
    /// `mate 0` is a position where the side to move is already mated.
    pub fn mate_for(to_move: Color, n: i32) -> Eval {
        if n == 0 {
            return Eval::Over(Some(!to_move));
        }
        Eval::Mate(to_move.fold_wb(n, n.saturating_neg()))
    }

    /// The evaluation of a position where the game has ended on the board, if it has.
    pub fn of_finished(pos: &Chess) -> Option<Eval> {
        if pos.is_checkmate() {
            Some(Eval::Over(Some(!pos.turn())))
        } else if pos.is_stalemate() || pos.is_insufficient_material() {
            Some(Eval::Over(None))
        } else {
            None
        }
    }

    /// The chances of `side` to win, 0 to 100: 50 is equal, a mate is 100 or 0.
    pub(crate) fn win_chance(self, side: Color) -> f64 {
        let white = match self {
            Eval::Centipawns(cp) => {
                // lichess's published fit of results to Stockfish's centipawns.
                let x = f64::from(cp.clamp(-1000, 1000));
                50.0 + 50.0 * (2.0 / (1.0 + (-0.003_682_08 * x).exp()) - 1.0)
            }
            Eval::Mate(n) if n > 0 => 100.0,
            Eval::Mate(_) => 0.0,
            Eval::Over(Some(Color::White)) => 100.0,
            Eval::Over(Some(Color::Black)) => 0.0,
            Eval::Over(None) => 50.0,
        };
        side.fold_wb(white, 100.0 - white)
    }

    /// The value of a PGN `[%eval …]` command: "1.80", "-0.35", "#3", "#-2"; `None` for a
    /// finished game (no engine score belongs there).
    pub(crate) fn pgn(self) -> Option<String> {
        match self {
            Eval::Centipawns(cp) => {
                let sign = if cp < 0 { "-" } else { "" };
                let abs = cp.unsigned_abs();
                Some(format!("{sign}{}.{:02}", abs / 100, abs % 100))
            }
            Eval::Mate(n) => Some(format!("#{n}")),
            Eval::Over(_) => None,
        }
    }
}

/// How bad a half-move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Judgement {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Judgement {
    /// The PGN's annotation glyph: $6 (?!), $2 (?), $4 (??).
    pub(crate) fn nag(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "$6",
            Judgement::Mistake => "$2",
            Judgement::Blunder => "$4",
        }
    }

    pub(crate) fn words(self, lang: &Language) -> &str {
        let w = &lang.analysis;
        match self {
            Judgement::Inaccuracy => &w.inaccuracy,
            Judgement::Mistake => &w.mistake,
            Judgement::Blunder => &w.blunder,
        }
    }
}

/// The judgement of a half-move by `mover` that took the position from `before` (the
/// engine's evaluation with its best move) to `after`.
pub(crate) fn judge(before: Eval, after: Eval, mover: Color) -> Option<Judgement> {
    let drop = before.win_chance(mover) - after.win_chance(mover);
    if drop >= BLUNDER_DROP {
        Some(Judgement::Blunder)
    } else if drop >= MISTAKE_DROP {
        Some(Judgement::Mistake)
    } else if drop >= INACCURACY_DROP {
        Some(Judgement::Inaccuracy)
    } else {
        None
    }
}

/// What the engine said about one position: how it stands, and its best move (none in a
/// finished game).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionEval {
    pub eval: Eval,
    pub best: Option<Move>,
}

/// One half-move of the game with what the analysis found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PlyReview {
    /// The move number and who moved.
    pub(crate) number: u32,
    pub(crate) mover: Color,
    pub(crate) mv: Move,
    pub(crate) san: SanPlus,
    /// The position after the move.
    pub(crate) after: Eval,
    /// The engine's evaluation before the move, with its best play.
    pub(crate) before: Eval,
    /// Set when the move was judged; then the engine's better move is `better`.
    pub(crate) judgement: Option<Judgement>,
    pub(crate) better: Option<(Move, SanPlus)>,
}

/// A whole game judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Review {
    pub(crate) start: Chess,
    pub(crate) start_eval: Eval,
    pub(crate) plies: Vec<PlyReview>,
}

/// Why the answers do not fit the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReviewError {
    #[error("{got} evaluations for {moves} moves (one per position is needed)")]
    Count { got: usize, moves: usize },
    #[error("move {0} of the game is not legal in its position")]
    Illegal(usize),
}

/// Joins the game's moves with one evaluation per position (`evals[0]` the start, `evals[i]`
/// the position after `i` half-moves) and judges every move.
pub fn review(
    start: &Chess,
    moves: &[Move],
    evals: &[PositionEval],
) -> Result<Review, ReviewError> {
    if evals.len() != moves.len() + 1 {
        return Err(ReviewError::Count {
            got: evals.len(),
            moves: moves.len(),
        });
    }
    let mut pos = start.clone();
    let mut plies = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        if !pos.is_legal(mv) {
            return Err(ReviewError::Illegal(i + 1));
        }
        let mover = pos.turn();
        let number = pos.fullmoves().get();
        let (before, after) = (evals[i], evals[i + 1]);
        let better = before
            .best
            .filter(|b| *b != mv && pos.is_legal(*b))
            .map(|b| (b, SanPlus::from_move(pos.clone(), b)));
        let judgement = better
            .as_ref()
            .and_then(|_| judge(before.eval, after.eval, mover));
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, mv);
        plies.push(PlyReview {
            number,
            mover,
            mv,
            san,
            after: after.eval,
            before: before.eval,
            better: judgement.and(better),
            judgement,
        });
    }
    Ok(Review {
        start: start.clone(),
        start_eval: evals[0].eval,
        plies,
    })
}

/// A score as a number to say: "plus 1,8", "minus 0,4", "0,0" (one decimal).
pub(crate) fn number_words(cp: i32, lang: &Language) -> String {
    let w = &lang.analysis;
    // Rounded to tenths, half away from zero.
    let tenths = (cp.unsigned_abs() + 5) / 10;
    let digits = format!("{}{}{}", tenths / 10, w.decimal, tenths % 10);
    if tenths == 0 {
        digits
    } else if cp > 0 {
        format!("{} {digits}", w.plus)
    } else {
        format!("{} {digits}", w.minus)
    }
}

/// An evaluation in words: "Weiß steht deutlich besser, plus 1,8", "Schwarz setzt in 3
/// Zügen matt".
pub(crate) fn eval_words(eval: Eval, lang: &Language) -> String {
    let w = &lang.analysis;
    match eval {
        Eval::Centipawns(cp) => {
            let number = number_words(cp, lang);
            let side = lang.color(if cp > 0 { Color::White } else { Color::Black });
            // Judged by the number said, so that "plus 0,3" always has the same words.
            let said = (cp.unsigned_abs() + 5) / 10 * 10;
            let template = match said {
                a if a < EQUAL_CP.unsigned_abs() => &w.equal,
                a if a < CLEARLY_CP.unsigned_abs() => &w.slightly_better,
                a if a < WINNING_CP.unsigned_abs() => &w.clearly_better,
                _ => &w.winning,
            };
            fill(template, &[("color", side), ("number", &number)])
        }
        Eval::Mate(n) => {
            let side = lang.color(if n > 0 { Color::White } else { Color::Black });
            let moves = n.unsigned_abs();
            let form = if moves == 1 {
                &w.mate_in[0]
            } else {
                &w.mate_in[1]
            };
            fill(form, &[("color", side), ("n", &moves.to_string())])
        }
        Eval::Over(Some(winner)) => fill(&w.checkmate, &[("color", lang.color(winner))]),
        Eval::Over(None) => w.drawn.clone(),
    }
}

/// One half-move in words: its number, the mover, the move in Appendix D words and the
/// evaluation after it; a judged move also says how bad it was and the better move.
pub(crate) fn ply_line(ply: &PlyReview, lang: &Language, form: Form) -> String {
    let w = &lang.analysis;
    let number = ply.number.to_string();
    let said = announce_san(ply.san, ply.mv, lang, form);
    let eval = eval_words(ply.after, lang);
    match (ply.judgement, &ply.better) {
        (Some(j), Some((b, san))) => fill(
            &w.error_line,
            &[
                ("number", &number),
                ("color", lang.color(ply.mover)),
                ("move", &said),
                ("kind", j.words(lang)),
                ("better", &announce_san(*san, *b, lang, form)),
                ("eval", &eval),
            ],
        ),
        _ => fill(
            &w.move_line,
            &[
                ("number", &number),
                ("color", lang.color(ply.mover)),
                ("move", &said),
                ("eval", &eval),
            ],
        ),
    }
}

/// How many inaccuracies, mistakes and blunders `side` made in the game reviewed, in words.
pub(crate) fn errors_summary(review: &Review, side: Color, lang: &Language) -> String {
    let w = &lang.analysis;
    let count = |j: Judgement| {
        review
            .plies
            .iter()
            .filter(|p| p.mover == side && p.judgement == Some(j))
            .count() as u64
    };
    fill(
        &w.summary,
        &[
            ("color", lang.color(side)),
            (
                "inaccuracies",
                &counted(&w.inaccuracies, count(Judgement::Inaccuracy)),
            ),
            ("mistakes", &counted(&w.mistakes, count(Judgement::Mistake))),
            ("blunders", &counted(&w.blunders, count(Judgement::Blunder))),
        ],
    )
}

/// The lines to say: the start and every half-move, or (`errors_only`) only the mistakes and
/// blunders (or that there are none); then per side how many of each kind.
pub fn report_lines(
    review: &Review,
    errors_only: bool,
    lang: &Language,
    form: Form,
) -> Vec<String> {
    let w = &lang.analysis;
    let mut lines = Vec::new();
    if review.plies.is_empty() {
        lines.push(w.no_moves.clone());
        return lines;
    }
    if errors_only {
        let turning: Vec<&PlyReview> = review
            .plies
            .iter()
            .filter(|p| p.judgement >= Some(Judgement::Mistake))
            .collect();
        if turning.is_empty() {
            lines.push(w.no_errors.clone());
        }
        for ply in turning {
            lines.push(ply_line(ply, lang, form));
        }
    } else {
        lines.push(fill(
            &w.start_line,
            &[("eval", &eval_words(review.start_eval, lang))],
        ));
        for ply in &review.plies {
            lines.push(ply_line(ply, lang, form));
        }
    }
    for side in [Color::White, Color::Black] {
        lines.push(errors_summary(review, side, lang));
    }
    lines
}

#[cfg(test)]
mod tests;
