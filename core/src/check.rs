//! The arbiter's check of a game record: replay every move, find the first illegal one, the
//! first ply each draw claim became available, the first automatic end, and whether the Result
//! tag agrees with what the moves decide. Pure: works on a parsed [`RawGame`].

use shakmaty::{Chess, Position};

use super::dead::dead_reason;
use super::laws::{FIFTY_MOVES, FIVEFOLD, SEVENTY_FIVE_MOVES, THREEFOLD};
use super::legality::{Illegal, resolve_record_san};
use super::outcome::{DeadReason, GameResult};
use super::pgn::{RawGame, SyntaxError, shown};
use super::repetition::{KeyContext, PositionKey, Repetitions};
use super::variant::{Variant, position_from_fen};

/// The automatic ends `hector check` reports, by their names in the JSON output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    /// A dead position other than by material (locked pawns), see `core::dead`.
    DeadPosition,
    Fivefold,
    SeventyFiveMove,
}

impl Rule {
    pub fn name(self) -> &'static str {
        match self {
            Rule::Checkmate => "checkmate",
            Rule::Stalemate => "stalemate",
            Rule::InsufficientMaterial => "insufficient-material",
            Rule::DeadPosition => "dead-position",
            Rule::Fivefold => "fivefold",
            Rule::SeventyFiveMove => "seventy-five-move",
        }
    }

    /// Words for a sentence: "fivefold repetition at ply 16".
    pub fn describe(self) -> &'static str {
        match self {
            Rule::Checkmate => "checkmate",
            Rule::Stalemate => "stalemate",
            Rule::InsufficientMaterial => "dead position by insufficient material",
            Rule::DeadPosition => "dead position by locked pawns",
            Rule::Fivefold => "fivefold repetition",
            Rule::SeventyFiveMove => "seventy-five-move rule",
        }
    }

    pub fn article(self) -> &'static str {
        match self {
            Rule::Checkmate => "5.1a",
            Rule::Stalemate => "5.2a",
            Rule::InsufficientMaterial | Rule::DeadPosition => "5.2b",
            Rule::Fivefold => "9.6a",
            Rule::SeventyFiveMove => "9.6b",
        }
    }

    fn result(self, pos: &Chess) -> GameResult {
        match self {
            Rule::Checkmate => GameResult::win_for(!pos.turn()),
            _ => GameResult::Draw,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AutomaticEnd {
    /// Half-moves played when the ending position arose.
    pub ply: usize,
    pub rule: Rule,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalPly {
    /// The ply the move would have been (the first move of the game is ply 1).
    pub ply: usize,
    /// The move number and side as a scoresheet shows them (FEN starts keep their numbers).
    pub move_number: u32,
    pub turn: shakmaty::Color,
    pub san: String,
    pub reason: Illegal,
    pub line: usize,
}

/// The verdict on one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameCheck {
    pub game: usize,
    pub line: usize,
    pub white: Option<String>,
    pub black: Option<String>,
    pub plies: usize,
    pub illegal: Option<IllegalPly>,
    /// First ply at which a threefold claim (9.2b) was open to the player to move.
    pub threefold: Option<usize>,
    /// First ply at which a fifty-move claim (9.3b) was open to the player to move.
    pub fifty_move: Option<usize>,
    pub automatic: Option<AutomaticEnd>,
    pub result_tag: Option<String>,
    /// The result the moves alone decide, `None` for `*`.
    pub(crate) status: Option<GameResult>,
    /// Problems with the record itself, each with its line.
    pub errors: Vec<SyntaxError>,
}

impl GameCheck {
    /// `status` as written in PGN.
    pub fn status_text(&self) -> &'static str {
        self.status.map_or("*", GameResult::pgn)
    }

    /// Whether the Result tag agrees with the moves: it may not contradict an automatic end; a
    /// decisive or drawn result without one is a resignation, flag, agreement or claim.
    pub fn result_agrees(&self) -> bool {
        let Some(tag) = self.result_tag.as_deref() else {
            return self.automatic.is_none();
        };
        let written = GameResult::from_pgn(tag);
        if written.is_none() && tag.trim() != "*" {
            return false;
        }
        match self.status {
            Some(decided) => written == Some(decided),
            None => true,
        }
    }

    /// Legal, well formed and with a Result that agrees.
    pub fn is_consistent(&self) -> bool {
        self.illegal.is_none() && self.errors.is_empty() && self.result_agrees()
    }
}

/// Replays one game and reports on it.
pub fn check_game(raw: &RawGame<'_>) -> GameCheck {
    let mut report = GameCheck {
        game: raw.number,
        line: raw.line,
        white: raw.tag("White").map(str::to_owned),
        black: raw.tag("Black").map(str::to_owned),
        plies: 0,
        illegal: None,
        threefold: None,
        fifty_move: None,
        automatic: None,
        result_tag: raw
            .tag("Result")
            .map(str::to_owned)
            .or_else(|| raw.termination.map(str::to_owned)),
        status: None,
        errors: raw.errors.clone(),
    };
    if let (Some(tag), Some(marker)) = (raw.tag("Result"), raw.termination)
        && tag.trim() != marker
    {
        report.errors.push(SyntaxError::new(
            raw.movetext.last().map_or(raw.line, |l| l.line),
            format!(
                "the moves end with {marker} but the Result tag says {}",
                shown(tag.as_bytes())
            ),
        ));
    }
    let start = match game_start(raw) {
        Ok((pos, _)) => pos,
        Err(e) => {
            report.errors.push(e);
            return report;
        }
    };
    replay(raw, start, &mut report);
    report
}

/// The start position and variant of a game from its Variant, SetUp and FEN tags.
pub fn game_start(raw: &RawGame<'_>) -> Result<(Chess, Variant), SyntaxError> {
    let tag_line = |name: &str| {
        raw.tags
            .iter()
            .find(|t| t.name == name)
            .map_or(raw.line, |t| t.line)
    };
    let variant = match raw.tag("Variant") {
        None => Variant::Standard,
        Some(name) => Variant::from_pgn_tag(name).ok_or_else(|| {
            SyntaxError::new(
                tag_line("Variant"),
                format!(
                    "the variant \"{}\" is not chess or Chess960",
                    shown(name.as_bytes())
                ),
            )
        })?,
    };
    match raw.tag("FEN") {
        Some(fen) => position_from_fen(fen, variant)
            .map(|pos| (pos, variant))
            .map_err(|e| SyntaxError::new(tag_line("FEN"), format!("FEN tag: {e}"))),
        None => Ok((Chess::default(), variant)),
    }
}

/// Tracks the first automatic end and first claims while replaying.
struct Watch<'r> {
    report: &'r mut GameCheck,
    reps: Repetitions,
}

impl Watch<'_> {
    /// Looks at the position after `ply` half-moves. `has_moves` is known by the caller.
    fn look(&mut self, pos: &Chess, ply: usize, has_moves: bool, zeroing: bool) {
        if self.report.automatic.is_some() {
            return;
        }
        let halfmoves = pos.halfmoves();
        let repetitions = if halfmoves >= 4 {
            self.reps.count_current(halfmoves)
        } else {
            1
        };
        let rule = if !has_moves {
            Some(if pos.is_check() {
                Rule::Checkmate
            } else {
                Rule::Stalemate
            })
        } else if zeroing
            && may_be_dead(pos)
            && let Some(reason) = dead_reason(pos)
        {
            Some(match reason {
                DeadReason::InsufficientMaterial => Rule::InsufficientMaterial,
                DeadReason::LockedPawns => Rule::DeadPosition,
            })
        } else if repetitions >= FIVEFOLD {
            Some(Rule::Fivefold)
        } else if halfmoves >= SEVENTY_FIVE_MOVES {
            Some(Rule::SeventyFiveMove)
        } else {
            None
        };
        if let Some(rule) = rule {
            self.report.automatic = Some(AutomaticEnd { ply, rule });
            self.report.status = Some(rule.result(pos));
            return;
        }
        if self.report.threefold.is_none() && repetitions >= THREEFOLD {
            self.report.threefold = Some(ply);
        }
        if self.report.fifty_move.is_none() && halfmoves >= FIFTY_MOVES {
            self.report.fifty_move = Some(ply);
        }
    }
}

/// A cheap filter before [`dead_reason`]: dead positions have no rooks or queens, and
/// pawns only when nothing but kings stands beside them.
fn may_be_dead(pos: &Chess) -> bool {
    let board = pos.board();
    board.rooks_and_queens().is_empty()
        && (board.pawns().is_empty() || board.occupied() == board.pawns() | board.kings())
}

fn replay(raw: &RawGame<'_>, mut pos: Chess, report: &mut GameCheck) {
    let mut watch = Watch {
        reps: Repetitions::new(&pos),
        report,
    };
    let mut key = PositionKey::of(&pos);
    let mut ply = 0usize;
    // Dead positions can only arise from a capture or pawn move (or be there at the start).
    let mut zeroing = true;
    for token in raw.mainline() {
        match resolve_record_san(&pos, token.item) {
            Ok(m) => {
                watch.look(&pos, ply, true, zeroing);
                zeroing = m.is_zeroing();
                let context = KeyContext::of(&pos);
                pos.play_unchecked(m);
                key = key.after_move(context, m, &pos);
                watch.reps.push_key(key);
                ply += 1;
            }
            Err(reason) => {
                let has_moves = !pos.legal_moves().is_empty();
                watch.look(&pos, ply, has_moves, zeroing);
                let reason = if has_moves { reason } else { Illegal::GameOver };
                watch.report.plies = ply;
                watch.report.illegal = Some(IllegalPly {
                    ply: ply + 1,
                    move_number: pos.fullmoves().get(),
                    turn: pos.turn(),
                    san: shown(token.item),
                    reason,
                    line: token.line,
                });
                return;
            }
        }
    }
    let has_moves = !pos.legal_moves().is_empty();
    watch.look(&pos, ply, has_moves, zeroing);
    watch.report.plies = ply;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::Reader;

    fn check(text: &str) -> GameCheck {
        let raw = Reader::new(text.as_bytes()).next().expect("one game");
        check_game(&raw)
    }

    #[test]
    fn fools_mate() {
        let c = check("[Result \"0-1\"]\n1. f3 e5 2. g4 Qh4# 0-1");
        assert_eq!(c.plies, 4);
        assert_eq!(
            c.automatic,
            Some(AutomaticEnd {
                ply: 4,
                rule: Rule::Checkmate
            })
        );
        assert_eq!(c.status_text(), "0-1");
        assert!(c.is_consistent());
    }

    #[test]
    fn wrong_result_after_mate_is_inconsistent() {
        let c = check("[Result \"1-0\"]\n1. f3 e5 2. g4 Qh4# 1-0");
        assert!(!c.result_agrees());
        let c = check("[Result \"*\"]\n1. f3 e5 2. g4 Qh4# *");
        assert!(!c.result_agrees());
    }

    #[test]
    fn resignation_is_consistent() {
        let c = check("[Result \"1-0\"]\n1. e4 e5 2. Qh5 Nc6 1-0");
        assert_eq!(c.automatic, None);
        assert_eq!(c.status_text(), "*");
        assert!(c.is_consistent());
    }

    #[test]
    fn threefold_claim_ply_and_fivefold_end() {
        let c = check(
            "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 1/2-1/2",
        );
        // The start position's third occurrence is after 8 plies, fifth after 16.
        assert_eq!(c.threefold, Some(8));
        assert_eq!(
            c.automatic,
            Some(AutomaticEnd {
                ply: 16,
                rule: Rule::Fivefold
            })
        );
        assert!(c.is_consistent());
    }

    #[test]
    fn illegal_move_is_found_with_ply_and_line() {
        let c = check("1. e4 e5\n2. Nf4 Nc6 *");
        let illegal = c.illegal.clone().expect("illegal");
        assert_eq!(illegal.ply, 3);
        assert_eq!(illegal.san, "Nf4");
        assert_eq!(illegal.line, 2);
        assert_eq!(c.plies, 2);
        assert!(!c.is_consistent());
    }

    #[test]
    fn move_after_mate_is_reported() {
        let c = check("1. f3 e5 2. g4 Qh4# 3. a3 0-1");
        assert_eq!(c.automatic.map(|a| a.ply), Some(4));
        assert_eq!(c.illegal.map(|i| i.reason), Some(Illegal::GameOver));
    }

    #[test]
    fn chess960_castling_from_fen() {
        // King on b1 between rooks on a1 and h1: short castling takes it to g1, long to c1.
        let text = "[Variant \"Chess960\"]\n[FEN \"rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1\"]\n1. O-O O-O-O *";
        let c = check(text);
        assert_eq!(c.illegal, None, "{:?}", c.errors);
        assert_eq!(c.plies, 2);
    }

    proptest::proptest! {
        #[test]
        fn any_bytes_never_panic(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..400)) {
            for raw in Reader::new(&bytes) {
                let _ = check_game(&raw);
            }
        }

        #[test]
        fn pgn_like_text_never_panics(text in "[\\[\\]{}()$;%\"a-hKQRBNOx0-9=+#!?./ \n-]{0,300}") {
            for raw in Reader::new(text.as_bytes()) {
                let report = check_game(&raw);
                proptest::prop_assert!(report.plies <= raw.movetext.len());
            }
        }
    }

    #[test]
    fn unknown_variant_is_an_error() {
        let c = check("[Variant \"Atomic\"]\n1. e4 *");
        assert_eq!(c.errors.len(), 1);
        assert!(!c.is_consistent());
    }
}
