//! What a journal holds: one [`Header`] and then one [`Entry`] per event at the board.
//!
//! Entries are the actions, in the order they happened; what the game concludes from them by
//! itself is not written again: the draw offer an incorrect claim stands for (9.1b4), the
//! offer a move declines (9.1b1), the end a mate or a dead position brings (replay finds these
//! again). Replay tolerates such entries where they are harmless, see [`super::replay`].

use std::fmt::Display;
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Deserializer, Serialize, Serializer, de::Error as _};
use shakmaty::{CastlingMode, Color, Move, Square, san::SanPlus, uci::UciMove};

use crate::game::PlayedMove;
use crate::laws::{ClaimKind, Rules};
use crate::notation::language::WordSet;
use crate::notation::speak::Form;
use crate::outcome::{ClaimBasis, DeadReason, GameResult, Termination};
use crate::time::Timestamp;
use crate::variant::Variant;

/// The journal format this hector writes, and the newest it reads.
///
/// Version 2 added the arbiter's entries (`clock_paused`, `clock_resumed`, `moves_adjusted`,
/// `board_mismatch`, `board_reconciled`, `adjourned`, `adjournment_resumed`) and the used
/// times of `clock_checkpoint`; it reads version 1 unchanged.
pub const FORMAT_VERSION: u32 = 2;

/// Everything about a game that is known when it starts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// The journal format version (set by [`Header::new`]).
    pub(crate) version: u32,
    /// When the game was created, as text given by the caller (the core reads no clock),
    /// e.g. `2026-11-21T14:03:05Z`.
    pub created: String,
    pub white: String,
    pub black: String,
    #[serde(default)]
    pub event: String,
    #[serde(default)]
    pub site: String,
    #[serde(default)]
    pub round: String,
    #[serde(with = "variant_text")]
    pub variant: Variant,
    /// The start position when it is not the standard one (always for Chess960).
    #[serde(default)]
    pub start_fen: Option<String>,
    /// The time control in `TimeControl` syntax (`core::clock::control`); `None`: no clock.
    #[serde(default)]
    pub time_control: Option<String>,
    /// The colour of the player hector records for; `None` when both sit at one keyboard.
    #[serde(default, with = "opt_color")]
    pub local_player: Option<Color>,
    /// Who the opponent is: "engine Stockfish 15.1, level 3", "keyboard", "board".
    #[serde(default)]
    pub opponent: String,
    /// The language of the words spoken (`de`, `en`).
    pub language: String,
    /// The words moves are announced with (`--words`), kept so that a resume announces with
    /// them again; `None` in journals written before hector recorded them (a resume then
    /// takes the option or the configuration, as it did).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub words: Option<WordSet>,
    #[serde(with = "form_text")]
    pub(crate) form: Form,
    #[serde(with = "rules_record")]
    pub(crate) rules: Rules,
}

impl Header {
    /// A standard game under the standard rules, in German short form; fill in the rest.
    pub fn new(created: &str, white: &str, black: &str) -> Header {
        Header {
            version: FORMAT_VERSION,
            created: created.to_string(),
            white: white.to_string(),
            black: black.to_string(),
            event: String::new(),
            site: String::new(),
            round: String::new(),
            variant: Variant::Standard,
            start_fen: None,
            time_control: None,
            local_player: None,
            opponent: String::new(),
            language: "de".to_string(),
            words: None,
            form: Form::Short,
            rules: Rules::default(),
        }
    }
}

/// Both players' remaining times in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Times {
    pub white_ms: u64,
    pub black_ms: u64,
}

impl Times {
    pub(crate) fn new(white: Duration, black: Duration) -> Times {
        Times {
            white_ms: millis(white),
            black_ms: millis(black),
        }
    }

    pub(crate) fn of(self, color: Color) -> u64 {
        color.fold_wb(self.white_ms, self.black_ms)
    }

    pub(crate) fn set(&mut self, color: Color, ms: u64) {
        match color {
            Color::White => self.white_ms = ms,
            Color::Black => self.black_ms = ms,
        }
    }
}

/// Milliseconds of a duration, saturating (a journal never holds 584 million years).
pub(crate) fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// How a deviation between the two boards ended (D2.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reconciled {
    /// The board shows the recorded position again (put right, or the wrong move taken back).
    Board,
    /// The records disagreed: the game was taken back to the last move both share.
    TakenBack,
    /// The arbiter decided: the board is to follow the game's record.
    Arbiter,
}

/// One event of the game, in the order it happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Entry {
    /// A completed move (the clock pressed). `uci` decides (Chess960 castling as king takes
    /// rook); `san` is checked against it on replay. `clock`: both times after the press.
    Move {
        #[serde(with = "text")]
        uci: UciMove,
        #[serde(with = "text")]
        san: SanPlus,
        #[serde(with = "color")]
        by: Color,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clock: Option<Times>,
    },
    /// A piece touched with the intention to move or capture it (4.3, 4.4; D2.2).
    Touched {
        #[serde(with = "color")]
        by: Color,
        #[serde(with = "text")]
        square: Square,
    },
    /// A draw offer (9.1b), (=) on the scoresheet (C12).
    DrawOffered {
        #[serde(with = "color")]
        by: Color,
    },
    /// A draw offer refused aloud (a move refuses it too; that needs no entry).
    DrawDeclined {
        #[serde(with = "color")]
        by: Color,
    },
    /// The opponent's standing offer accepted: the game is drawn (5.2c).
    DrawAccepted {
        #[serde(with = "color")]
        by: Color,
    },
    /// A claim under 9.2 or 9.3, on the board or on an intended move, and the verdict. An
    /// incorrect claim on an intended move plays that move (9.5b); a `Move` entry for it may
    /// follow to give its clock times.
    Claim {
        #[serde(with = "color")]
        by: Color,
        #[serde(with = "claim_kind")]
        kind: ClaimKind,
        #[serde(default, with = "opt_text")]
        intended: Option<UciMove>,
        correct: bool,
    },
    /// Time added to `beneficiary`'s clock: the game's penalty after an illegal move (7.5b)
    /// or an incorrect claim (9.5b), or one the arbiter gives (12.9). Written once, with what
    /// the clock received; replay adds it to the last known clock.
    Penalty {
        #[serde(with = "color")]
        beneficiary: Color,
        ms: u64,
        article: String,
    },
    /// A completed illegal move (7.5): the position was restored, so the move is not written.
    IllegalMove {
        #[serde(with = "color")]
        by: Color,
    },
    /// A pawn moved to the last rank and the clock pressed without promoting it (7.5a): an
    /// illegal move, and the pawn became a queen. `uci` is the pawn's move without a piece.
    UnpromotedPawn {
        #[serde(with = "color")]
        by: Color,
        #[serde(with = "text")]
        uci: UciMove,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clock: Option<Times>,
    },
    /// 5.1b.
    Resigned {
        #[serde(with = "color")]
        by: Color,
    },
    /// 6.9: `color`'s flag fell (lost, or drawn when the opponent cannot mate).
    FlagFell {
        #[serde(with = "color")]
        color: Color,
    },
    /// 6.11: both flags fell and it cannot be said which first.
    BothFlagsFell { last_period: bool },
    /// The arbiter took back the last move (an arbiter's correction); `uci` names it.
    TakenBack {
        #[serde(with = "text")]
        uci: UciMove,
    },
    /// The players agreed to take back moves: `by` asked, and the `TakenBack` entries just
    /// before this one name the moves. A clock checkpoint follows (the times stay as they
    /// were; the player to move has the move).
    TakebackAgreed {
        #[serde(with = "color")]
        by: Color,
    },
    /// `by` refused the opponent's request to take back a move.
    TakebackDeclined {
        #[serde(with = "color")]
        by: Color,
    },
    /// `by` abandoned the game before both sides had moved: no result (`*`).
    Aborted {
        #[serde(with = "color")]
        by: Color,
    },
    /// The clock as it stands, written about once a second while it runs (and on pause).
    /// `used`: both players' thinking time so far (D9d), from version 2.
    ClockCheckpoint {
        white_ms: u64,
        black_ms: u64,
        #[serde(default, with = "opt_color")]
        running: Option<Color>,
        paused: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        used: Option<Times>,
    },
    /// 6.12: the arbiter paused the clock.
    ClockPaused,
    /// The arbiter set the clock going again.
    ClockResumed,
    /// 7.1: the arbiter set the number of moves `color` has completed (the clock's count).
    MovesAdjusted {
        #[serde(with = "color")]
        color: Color,
        moves: u32,
    },
    /// D2.8: the two boards differ. `board`: the colour of the player whose board deviates.
    /// `agreed_plies`: when the two records disagree, the half-moves they share; `None` when
    /// they agree (the board alone is wrong). `detail`: what differs, in the game's language.
    BoardMismatch {
        #[serde(with = "color")]
        board: Color,
        #[serde(default)]
        agreed_plies: Option<u32>,
        detail: String,
    },
    /// The deviation of `board` is resolved, as `how` says.
    BoardReconciled {
        #[serde(with = "color")]
        board: Color,
        how: Reconciled,
    },
    /// Appendix E: the game is adjourned and `by` sealed a move (kept in the envelope, not
    /// here) as move number `move_number`.
    Adjourned {
        #[serde(with = "color")]
        by: Color,
        move_number: u32,
    },
    /// The adjourned game resumed (E9): the envelope was opened.
    AdjournmentResumed,
    /// The arbiter set a player's remaining time.
    ClockAdjusted {
        #[serde(with = "color")]
        color: Color,
        remaining_ms: u64,
    },
    /// The result, written when the game ends. It must agree with what the entries before it
    /// decide; a result they do not decide (an arbiter's decision) is kept as declared.
    Result {
        #[serde(with = "result_text")]
        result: GameResult,
        #[serde(with = "termination_text")]
        termination: Termination,
    },
    /// A setting changed during the game (speech, form, announcements …).
    Setting { key: String, value: String },
    /// An arbiter's note, exported as a comment.
    Note { text: String },
}

impl Entry {
    /// The clock as it stands at `now`: both remaining and used times, who runs, a pause.
    pub fn clock_checkpoint(clock: &crate::clock::Clock, now: Timestamp) -> Entry {
        Entry::ClockCheckpoint {
            white_ms: millis(clock.remaining(Color::White, now)),
            black_ms: millis(clock.remaining(Color::Black, now)),
            running: clock.running(),
            paused: clock.is_paused(),
            used: Some(Times::new(
                clock.used(Color::White, now),
                clock.used(Color::Black, now),
            )),
        }
    }

    /// The entry for a move the game has just played.
    pub(crate) fn from_played(
        played: &PlayedMove,
        by: Color,
        variant: Variant,
        clock: Option<Times>,
    ) -> Entry {
        Entry::Move {
            uci: uci_of(played.mv, variant),
            san: played.san,
            by,
            clock,
        }
    }

    /// A short English name of the kind of entry, for error messages.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Entry::Move { .. } => "move",
            Entry::Touched { .. } => "touched piece",
            Entry::DrawOffered { .. } => "draw offer",
            Entry::DrawDeclined { .. } => "declined draw offer",
            Entry::DrawAccepted { .. } => "accepted draw offer",
            Entry::Claim { .. } => "claim",
            Entry::Penalty { .. } => "penalty",
            Entry::IllegalMove { .. } => "illegal move",
            Entry::UnpromotedPawn { .. } => "unpromoted pawn",
            Entry::Resigned { .. } => "resignation",
            Entry::FlagFell { .. } => "flag fall",
            Entry::BothFlagsFell { .. } => "both flags fell",
            Entry::TakenBack { .. } => "take-back",
            Entry::TakebackAgreed { .. } => "agreed take-back",
            Entry::TakebackDeclined { .. } => "declined take-back",
            Entry::Aborted { .. } => "abort",
            Entry::ClockCheckpoint { .. } => "clock checkpoint",
            Entry::ClockAdjusted { .. } => "clock adjustment",
            Entry::Result { .. } => "result",
            Entry::Setting { .. } => "setting",
            Entry::Note { .. } => "note",
            Entry::ClockPaused => "clock paused",
            Entry::ClockResumed => "clock resumed",
            Entry::MovesAdjusted { .. } => "move count adjustment",
            Entry::BoardMismatch { .. } => "board mismatch",
            Entry::BoardReconciled { .. } => "board reconciled",
            Entry::Adjourned { .. } => "adjournment",
            Entry::AdjournmentResumed => "adjournment resumed",
        }
    }
}

/// The UCI form of a move as the journal writes it (Chess960 castling as king takes rook).
pub(crate) fn uci_of(m: Move, variant: Variant) -> UciMove {
    let mode: CastlingMode = variant.castling_mode();
    UciMove::from_move(m, mode)
}

/// The journal's name of a termination.
pub(crate) fn termination_name(t: Termination) -> &'static str {
    match t {
        Termination::Checkmate => "checkmate",
        Termination::Resignation => "resignation",
        Termination::Stalemate => "stalemate",
        Termination::DeadPosition(DeadReason::InsufficientMaterial) => "insufficient-material",
        Termination::DeadPosition(DeadReason::LockedPawns) => "locked-pawns",
        Termination::Agreement => "agreement",
        Termination::Threefold(ClaimBasis::IntendedMove) => "threefold-intended-move",
        Termination::Threefold(ClaimBasis::OnTheBoard) => "threefold-on-the-board",
        Termination::FiftyMoves(ClaimBasis::IntendedMove) => "fifty-moves-intended-move",
        Termination::FiftyMoves(ClaimBasis::OnTheBoard) => "fifty-moves-on-the-board",
        Termination::Fivefold => "fivefold",
        Termination::SeventyFiveMoves => "seventy-five-moves",
        Termination::FlagFall => "flag-fall",
        Termination::BothFlags => "both-flags",
        Termination::IllegalMoves => "illegal-moves",
        Termination::ArbiterDecision => "arbiter-decision",
    }
}

const TERMINATIONS: [Termination; 16] = [
    Termination::Checkmate,
    Termination::Resignation,
    Termination::Stalemate,
    Termination::DeadPosition(DeadReason::InsufficientMaterial),
    Termination::DeadPosition(DeadReason::LockedPawns),
    Termination::Agreement,
    Termination::Threefold(ClaimBasis::IntendedMove),
    Termination::Threefold(ClaimBasis::OnTheBoard),
    Termination::FiftyMoves(ClaimBasis::IntendedMove),
    Termination::FiftyMoves(ClaimBasis::OnTheBoard),
    Termination::Fivefold,
    Termination::SeventyFiveMoves,
    Termination::FlagFall,
    Termination::BothFlags,
    Termination::IllegalMoves,
    Termination::ArbiterDecision,
];

/// The termination a journal name stands for.
pub(crate) fn termination_from_name(name: &str) -> Option<Termination> {
    TERMINATIONS
        .into_iter()
        .find(|&t| termination_name(t) == name)
}

// Serde helpers: shakmaty's types are written as their usual text (e2e4, Nf3, e4, white).

mod text {
    use super::*;

    pub(crate) fn serialize<T: Display, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(v)
    }

    pub(crate) fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        let s = String::deserialize(d)?;
        s.parse()
            .map_err(|e| D::Error::custom(format!("{s:?}: {e}")))
    }
}

mod opt_text {
    use super::*;

    pub(crate) fn serialize<T: Display, S: Serializer>(
        v: &Option<T>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => s.collect_str(v),
            None => s.serialize_none(),
        }
    }

    pub(crate) fn deserialize<'de, T, D>(d: D) -> Result<Option<T>, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        match Option::<String>::deserialize(d)? {
            Some(s) => s
                .parse()
                .map(Some)
                .map_err(|e| D::Error::custom(format!("{s:?}: {e}"))),
            None => Ok(None),
        }
    }
}

fn color_name(c: Color) -> &'static str {
    c.fold_wb("white", "black")
}

fn color_from_name<E: serde::de::Error>(s: &str) -> Result<Color, E> {
    match s {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        other => Err(E::custom(format!(
            "{other:?} is not a colour (white or black)"
        ))),
    }
}

mod color {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(color_name(*c))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        color_from_name(&String::deserialize(d)?)
    }
}

mod opt_color {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(c: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
        match c {
            Some(c) => s.serialize_str(color_name(*c)),
            None => s.serialize_none(),
        }
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Color>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|s| color_from_name(&s))
            .transpose()
    }
}

mod variant_text {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(v: &Variant, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match v {
            Variant::Standard => "standard",
            Variant::Chess960 => "chess960",
        })
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
        match String::deserialize(d)?.as_str() {
            "standard" => Ok(Variant::Standard),
            "chess960" => Ok(Variant::Chess960),
            other => Err(D::Error::custom(format!(
                "{other:?} is not a variant (standard or chess960)"
            ))),
        }
    }
}

mod form_text {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(f: &Form, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match f {
            Form::Short => "short",
            Form::Long => "long",
        })
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Form, D::Error> {
        match String::deserialize(d)?.as_str() {
            "short" => Ok(Form::Short),
            "long" => Ok(Form::Long),
            other => Err(D::Error::custom(format!(
                "{other:?} is not a spoken form (short or long)"
            ))),
        }
    }
}

mod claim_kind {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(k: &ClaimKind, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match k {
            ClaimKind::Threefold => "threefold",
            ClaimKind::FiftyMoves => "fifty_moves",
        })
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<ClaimKind, D::Error> {
        match String::deserialize(d)?.as_str() {
            "threefold" => Ok(ClaimKind::Threefold),
            "fifty_moves" => Ok(ClaimKind::FiftyMoves),
            other => Err(D::Error::custom(format!(
                "{other:?} is not a claim (threefold or fifty_moves)"
            ))),
        }
    }
}

mod result_text {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(r: &GameResult, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(r.pgn())
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<GameResult, D::Error> {
        let s = String::deserialize(d)?;
        match s.as_str() {
            "1-0" | "0-1" | "1/2-1/2" => GameResult::from_pgn(&s),
            _ => None,
        }
        .ok_or_else(|| D::Error::custom(format!("{s:?} is not a result (1-0, 0-1, 1/2-1/2)")))
    }
}

mod termination_text {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(t: &Termination, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(termination_name(*t))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Termination, D::Error> {
        let s = String::deserialize(d)?;
        termination_from_name(&s)
            .ok_or_else(|| D::Error::custom(format!("{s:?} is not a termination hector knows")))
    }
}

/// `Rules` as the journal writes it: the penalty in milliseconds and the losing illegal move.
mod rules_record {
    use super::*;

    #[derive(Serialize, Deserialize)]
    struct RulesRecord {
        time_penalty_ms: u64,
        illegal_move_that_loses: u8,
    }

    pub(crate) fn serialize<S: Serializer>(r: &Rules, s: S) -> Result<S::Ok, S::Error> {
        RulesRecord {
            time_penalty_ms: millis(r.time_penalty),
            illegal_move_that_loses: r.illegal_move_that_loses,
        }
        .serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Rules, D::Error> {
        let r = RulesRecord::deserialize(d)?;
        if r.illegal_move_that_loses == 0 {
            return Err(D::Error::custom(
                "illegal_move_that_loses must be 1 (A4b) or more (7.5b: 2)",
            ));
        }
        Ok(Rules {
            time_penalty: Duration::from_millis(r.time_penalty_ms),
            illegal_move_that_loses: r.illegal_move_that_loses,
        })
    }
}
