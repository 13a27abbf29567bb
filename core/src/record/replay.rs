//! Rebuilding a game from its journal with the game's own API: the same calls the play mode
//! made, in the same order, so the game, its events and its outcome come out as they were.
//!
//! Consequences the game draws itself are not expected in the journal, but tolerated when
//! they are there: a `DrawOffered` for an offer that already stands (an incorrect claim makes
//! one, 9.1b4), a `DrawAccepted` or `Result` for an end the game already reached, and a `Move`
//! right after an incorrect claim on an intended move or an unpromoted pawn, which the game
//! has already played (that entry then only gives the clock times).

use std::collections::BTreeMap;

use shakmaty::{ByColor, Chess, Color, Move, Position, san::SanPlus, uci::UciMove};

use super::entry::{Entry, Header, Times};
use crate::game::{ClaimVerdict, Game, GameError};
use crate::laws::ClaimKind;
use crate::outcome::{GameResult, Outcome};
use crate::variant::{Variant, chess960_position, position_from_fen};

/// The clock as last known from the journal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockSnapshot {
    pub times: Times,
    /// Whose clock was running; `None` before the start and after the end.
    pub(crate) running: Option<Color>,
    pub(crate) paused: bool,
    /// Both players' thinking time so far, when the journal gives it (version 2).
    pub(crate) used: Option<Times>,
}

/// An arbiter's note with the number of half-moves played when it was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Note {
    pub(crate) ply: usize,
    pub(crate) text: String,
}

/// A game rebuilt from its journal.
#[derive(Clone, Debug)]
pub struct Replayed {
    pub game: Game,
    /// The last clock state: from the latest move, checkpoint, adjustment or penalty.
    pub clock: Option<ClockSnapshot>,
    /// Each setting's latest value.
    pub settings: BTreeMap<String, String>,
    pub(crate) notes: Vec<Note>,
    /// A result written in the journal that the game itself does not decide (an arbiter's
    /// decision); `None` when the game decides its own result or is still on.
    pub declared: Option<Outcome>,
    /// The clock's move counters when the arbiter set them (7.1), carried on
    /// through the moves since; `None`: they follow from the moves.
    pub(crate) move_counts: Option<ByColor<u32>>,
    /// The game stands adjourned: who sealed the move, and its number (Appendix E).
    pub adjourned: Option<(Color, u32)>,
}

impl Replayed {
    /// The game's outcome, or else the declared one.
    pub fn outcome(&self) -> Option<Outcome> {
        self.game.outcome().or(self.declared)
    }

    pub fn result(&self) -> Option<GameResult> {
        self.outcome().map(|o| o.result)
    }

    /// The clock's move counters: as the arbiter set them, or from the moves.
    pub fn clock_moves(&self) -> ByColor<u32> {
        self.move_counts.unwrap_or_else(|| {
            let game = &self.game;
            ByColor::new_with(|c| {
                (0..game.ply())
                    .filter(|&i| game.position_at(i).is_some_and(|p| p.turn() == c))
                    .count() as u32
            })
        })
    }
}

/// Why a journal does not replay. `entry` counts from 1 (the first entry after the header).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    #[error("the start position cannot be set up: {0}")]
    BadStart(String),
    #[error("entry {entry}: {uci} is not a legal move in this position")]
    IllegalMove { entry: usize, uci: String },
    #[error(
        "entry {entry}: the move {uci} is written {actual} in this position, the journal says {recorded}"
    )]
    SanMismatch {
        entry: usize,
        uci: String,
        recorded: String,
        actual: String,
    },
    #[error("entry {entry} ({kind}) is refused by the game: {error}")]
    Refused {
        entry: usize,
        kind: &'static str,
        error: GameError,
    },
    #[error("entry {entry}: the claim was recorded as {recorded}, but the Laws find it {found}")]
    ClaimMismatch {
        entry: usize,
        recorded: &'static str,
        found: &'static str,
    },
    #[error("entry {entry}: the take-back names {uci}, but the last move was {last}")]
    TakeBackMismatch {
        entry: usize,
        uci: String,
        last: String,
    },
    #[error("entry {entry}: the journal says {recorded}, but the game ended {actual}")]
    ResultMismatch {
        entry: usize,
        recorded: String,
        actual: String,
    },
}

/// The start position a header describes.
pub(crate) fn start_position(header: &Header) -> Result<Chess, ReplayError> {
    match &header.start_fen {
        Some(fen) => position_from_fen(fen, header.variant)
            .map_err(|e| ReplayError::BadStart(format!("{e} ({fen})"))),
        None => match header.variant {
            Variant::Standard => Ok(Chess::default()),
            // Without a FEN a Chess960 game starts from position 518, the standard one.
            Variant::Chess960 => chess960_position(518)
                .ok_or_else(|| ReplayError::BadStart("Chess960 position 518".into())),
        },
    }
}

/// What one entry did, for callers that annotate the record (the PGN export).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// A move entered the game (by a `Move`, an intended move or an unpromoted pawn).
    Played,
    /// A `Move` entry for a move the game had already played: it gave only clock times.
    ClockOfPlayed,
    /// The last move was taken back.
    TookBack(Move),
    /// Anything else.
    Other,
}

/// Replays entries one at a time.
#[derive(Clone, Debug)]
pub struct Replayer {
    replayed: Replayed,
    variant: Variant,
    /// The move the game played by itself on the last entry (an incorrect claim's intended
    /// move, or an unpromoted pawn's queen), which a following `Move` entry may repeat.
    auto_played: Option<(Color, Move)>,
    entry: usize,
    /// Both players' time before anything was written about the clock: the first period's.
    initial: Option<ClockSnapshot>,
}

impl Replayer {
    pub(crate) fn new(header: &Header) -> Result<Replayer, ReplayError> {
        let start = start_position(header)?;
        let game = Game::from_position(start, header.variant).with_rules(header.rules);
        Ok(Replayer {
            replayed: Replayed {
                game,
                clock: None,
                settings: BTreeMap::new(),
                notes: Vec::new(),
                declared: None,
                move_counts: None,
                adjourned: None,
            },
            variant: header.variant,
            auto_played: None,
            entry: 0,
            initial: header
                .time_control
                .as_deref()
                .and_then(|tc| tc.parse::<crate::clock::TimeControl>().ok())
                .map(|tc| {
                    let ms = super::entry::millis(tc.period(0).time);
                    ClockSnapshot {
                        times: Times {
                            white_ms: ms,
                            black_ms: ms,
                        },
                        running: None,
                        paused: false,
                        used: None,
                    }
                }),
        })
    }

    pub(crate) fn game(&self) -> &Game {
        &self.replayed.game
    }

    pub(crate) fn finish(self) -> Replayed {
        self.replayed
    }

    fn refused(&self, entry: &Entry, error: GameError) -> ReplayError {
        ReplayError::Refused {
            entry: self.entry,
            kind: entry.kind(),
            error,
        }
    }

    fn to_move(&self, uci: &UciMove) -> Result<Move, ReplayError> {
        let game = &self.replayed.game;
        if let Some(o) = game.outcome() {
            return Err(ReplayError::Refused {
                entry: self.entry,
                kind: "move",
                error: GameError::GameOver(o),
            });
        }
        uci.to_move(game.position())
            .map_err(|_| ReplayError::IllegalMove {
                entry: self.entry,
                uci: uci.to_string(),
            })
    }

    fn set_clock_after_move(&mut self, by: Color, times: Option<Times>) {
        if let Some(times) = times {
            let running = (!self.replayed.game.is_over()).then_some(!by);
            let used = self.replayed.clock.and_then(|c| c.used);
            // A move made while the arbiter holds the clock leaves it stopped.
            let paused = self.replayed.clock.is_some_and(|c| c.paused);
            self.replayed.clock = Some(ClockSnapshot {
                times,
                running,
                paused,
                used,
            });
        }
    }

    /// Applies the next entry.
    pub(crate) fn apply(&mut self, entry: &Entry) -> Result<Step, ReplayError> {
        let mover = self.replayed.game.turn();
        let step = self.apply_entry(entry)?;
        if self.replayed.game.is_over() {
            self.replayed.adjourned = None;
        }
        // Counters the arbiter set go on with the moves made and taken back since.
        if let Some(counts) = self.replayed.move_counts {
            let counted = match &step {
                Step::Played => Some((mover, true)),
                // The player whose move was taken back is to move again.
                Step::TookBack(_) => Some((self.replayed.game.turn(), false)),
                _ => None,
            };
            if let Some((by, up)) = counted {
                let mut counts = counts;
                let n = counts.get_mut(by);
                *n = if up {
                    n.saturating_add(1)
                } else {
                    n.saturating_sub(1)
                };
                self.replayed.move_counts = Some(counts);
            }
        }
        Ok(step)
    }

    fn apply_entry(&mut self, entry: &Entry) -> Result<Step, ReplayError> {
        self.entry += 1;
        let auto_played = self.auto_played_before(entry);
        match entry {
            Entry::Move {
                uci,
                san,
                by,
                clock,
            } => self.replay_move(entry, uci, san, *by, *clock, auto_played),
            Entry::Claim {
                by,
                kind,
                intended,
                correct,
            } => self.replay_claim(entry, *by, *kind, intended.as_ref(), *correct),
            Entry::UnpromotedPawn { by, uci, clock } => {
                self.replay_unpromoted_pawn(entry, *by, uci, *clock)
            }
            Entry::TakenBack { uci } => self.replay_take_back(uci),
            Entry::Result {
                result,
                termination,
            } => self.replay_result(Outcome::new(*result, *termination)),
            Entry::Penalty { .. }
            | Entry::ClockCheckpoint { .. }
            | Entry::ClockPaused
            | Entry::ClockResumed
            | Entry::MovesAdjusted { .. }
            | Entry::ClockAdjusted { .. } => {
                self.replay_clock_entry(entry);
                Ok(Step::Other)
            }
            Entry::Adjourned { by, move_number } => {
                let game = &self.replayed.game;
                if game.is_over() || game.turn() != *by {
                    return Err(self.refused(entry, GameError::NotYourTurn(*by)));
                }
                self.replayed.adjourned = Some((*by, *move_number));
                Ok(Step::Other)
            }
            Entry::AdjournmentResumed => {
                self.replayed.adjourned = None;
                Ok(Step::Other)
            }
            Entry::Setting { key, value } => {
                self.replayed.settings.insert(key.clone(), value.clone());
                Ok(Step::Other)
            }
            Entry::Note { text } => {
                let ply = self.replayed.game.ply();
                self.replayed.notes.push(Note {
                    ply,
                    text: text.clone(),
                });
                Ok(Step::Other)
            }
            Entry::TakebackAgreed { .. }
            | Entry::TakebackDeclined { .. }
            | Entry::BoardMismatch { .. }
            | Entry::BoardReconciled { .. } => Ok(Step::Other),
            Entry::Touched { .. }
            | Entry::DrawOffered { .. }
            | Entry::DrawDeclined { .. }
            | Entry::DrawAccepted { .. }
            | Entry::IllegalMove { .. }
            | Entry::Resigned { .. }
            | Entry::FlagFell { .. }
            | Entry::BothFlagsFell { .. }
            | Entry::Aborted { .. } => {
                self.replay_game_act(entry)?;
                Ok(Step::Other)
            }
        }
    }

    /// The move the game played by itself before `entry`, if any: kept for the entries
    /// after this one only while the clock, the penalty and the (already standing) offer of
    /// an incorrect claim come between that move and its `Move` entry.
    fn auto_played_before(&mut self, entry: &Entry) -> Option<(Color, Move)> {
        let keeps_auto_played = matches!(
            entry,
            Entry::Penalty { .. }
                | Entry::DrawOffered { .. }
                | Entry::ClockCheckpoint { .. }
                | Entry::ClockAdjusted { .. }
                | Entry::Setting { .. }
                | Entry::Note { .. }
        );
        if keeps_auto_played {
            self.auto_played
        } else {
            self.auto_played.take()
        }
    }

    /// A move entry: the move played (or, after a move the game played by itself, only the
    /// clock after it), its SAN checked against the one recorded.
    fn replay_move(
        &mut self,
        entry: &Entry,
        uci: &UciMove,
        san: &SanPlus,
        by: Color,
        clock: Option<Times>,
        auto_played: Option<(Color, Move)>,
    ) -> Result<Step, ReplayError> {
        if let Some((player, m)) = auto_played
            && player == by
            && self
                .replayed
                .game
                .last_move()
                .is_some_and(|last| last.mv == m)
            && uci_matches(*uci, m, self.variant)
        {
            self.set_clock_after_move(by, clock);
            return Ok(Step::ClockOfPlayed);
        }
        let m = self.to_move(uci)?;
        let game = &mut self.replayed.game;
        if game.turn() != by {
            return Err(self.refused(entry, GameError::NotYourTurn(by)));
        }
        let report = game.play(m).map_err(|e| self.refused(entry, e))?;
        if report.played.san != *san {
            return Err(ReplayError::SanMismatch {
                entry: self.entry,
                uci: uci.to_string(),
                recorded: san.to_string(),
                actual: report.played.san.to_string(),
            });
        }
        self.set_clock_after_move(by, clock);
        Ok(Step::Played)
    }

    /// The players' own acts on the game that play no move: a touch, a draw offer and its
    /// answers, an illegal move completed, a resignation, a flag, an abort.
    fn replay_game_act(&mut self, entry: &Entry) -> Result<(), ReplayError> {
        let game = &mut self.replayed.game;
        let done = match entry {
            Entry::Touched { by, square } => game.touch(*by, *square),
            Entry::DrawOffered { by } => {
                if game.pending_draw_offer() == Some(*by) {
                    Ok(())
                } else {
                    game.offer_draw(*by).map(|_| ())
                }
            }
            Entry::DrawDeclined { by } => {
                // Journals of hector 0.1 wrote the lapse a move brings about (9.1b1) as its
                // own entry after the move; the move has declined the offer already.
                let ply = game.ply();
                let lapsed_by_move = game.pending_draw_offer().is_none()
                    && game
                        .events()
                        .iter()
                        .rev()
                        .take_while(|e| e.ply == ply)
                        .any(|e| e.kind == crate::game::EventKind::DrawDeclined(*by));
                if lapsed_by_move {
                    Ok(())
                } else {
                    game.decline_draw(*by)
                }
            }
            Entry::DrawAccepted { by } => {
                let agreed = game.outcome().map(|o| o.termination)
                    == Some(crate::outcome::Termination::Agreement);
                if agreed {
                    Ok(())
                } else {
                    game.accept_draw(*by).map(|_| ())
                }
            }
            Entry::IllegalMove { by } => game.illegal_move_completed(*by).map(|_| ()),
            Entry::Resigned { by } => game.resign(*by).map(|_| ()),
            Entry::FlagFell { color } => game.flag_fall(*color).map(|_| ()),
            Entry::BothFlagsFell { last_period } => game.both_flags_fell(*last_period).map(|_| ()),
            Entry::Aborted { .. } => game.abort(),
            _ => Ok(()),
        };
        done.map_err(|e| self.refused(entry, e))
    }

    /// A draw claim: decided again, and the decision must be the one recorded; an incorrect
    /// claim with a move plays it (the game's own move, whose `Move` entry follows).
    fn replay_claim(
        &mut self,
        entry: &Entry,
        by: Color,
        kind: ClaimKind,
        intended: Option<&UciMove>,
        correct: bool,
    ) -> Result<Step, ReplayError> {
        let intended = match intended {
            Some(uci) => Some(self.to_move(uci)?),
            None => None,
        };
        let game = &mut self.replayed.game;
        let verdict = game
            .claim_draw(by, kind, intended)
            .map_err(|e| self.refused(entry, e))?;
        let found = matches!(verdict, ClaimVerdict::Correct(_));
        if found != correct {
            let word = |c: bool| if c { "correct" } else { "incorrect" };
            return Err(ReplayError::ClaimMismatch {
                entry: self.entry,
                recorded: word(correct),
                found: word(found),
            });
        }
        match verdict {
            ClaimVerdict::Incorrect {
                played: Some(report),
                ..
            } => {
                self.auto_played = Some((by, report.played.mv));
                Ok(Step::Played)
            }
            _ => Ok(Step::Other),
        }
    }

    /// A pawn left unpromoted on the last rank (7.5a): the game may play it (a move of its
    /// own, whose `Move` entry follows) with the clock after it.
    fn replay_unpromoted_pawn(
        &mut self,
        entry: &Entry,
        by: Color,
        uci: &UciMove,
        clock: Option<Times>,
    ) -> Result<Step, ReplayError> {
        let m = self.to_move_unpromoted(uci)?;
        let game = &mut self.replayed.game;
        if game.turn() != by {
            return Err(self.refused(entry, GameError::NotYourTurn(by)));
        }
        let before = game.ply();
        let n = self.entry;
        game.unpromoted_pawn(m)
            .map_err(|error| ReplayError::Refused {
                entry: n,
                kind: entry.kind(),
                error,
            })?;
        if game.ply() > before
            && let Some(last) = game.last_move()
        {
            self.auto_played = Some((by, last.mv));
            self.set_clock_after_move(by, clock);
            return Ok(Step::Played);
        }
        Ok(Step::Other)
    }

    /// A take-back: it must take back the game's last move.
    fn replay_take_back(&mut self, uci: &UciMove) -> Result<Step, ReplayError> {
        let game = &mut self.replayed.game;
        let last = game.last_move().map(|l| l.mv);
        match last {
            Some(m) if uci_matches(*uci, m, self.variant) => {
                game.take_back();
                // The game is open again, as it was for the arbiter who took it back.
                self.replayed.declared = None;
                Ok(Step::TookBack(m))
            }
            _ => Err(ReplayError::TakeBackMismatch {
                entry: self.entry,
                uci: uci.to_string(),
                last: last.map_or_else(
                    || "none".to_string(),
                    |m| super::entry::uci_of(m, self.variant).to_string(),
                ),
            }),
        }
    }

    /// The clock's entries: a penalty's time, a checkpoint, a pause, an arbiter's move count
    /// or time.
    fn replay_clock_entry(&mut self, entry: &Entry) {
        match entry {
            Entry::Penalty {
                beneficiary, ms, ..
            } => {
                if self.replayed.clock.is_none() {
                    self.replayed.clock = self.initial;
                }
                if let Some(clock) = &mut self.replayed.clock {
                    let now = clock.times.of(*beneficiary);
                    clock.times.set(*beneficiary, now.saturating_add(*ms));
                }
            }
            Entry::ClockCheckpoint {
                white_ms,
                black_ms,
                running,
                paused,
                used,
            } => {
                let used = used.or(self.replayed.clock.and_then(|c| c.used));
                self.replayed.clock = Some(ClockSnapshot {
                    times: Times {
                        white_ms: *white_ms,
                        black_ms: *black_ms,
                    },
                    running: *running,
                    paused: *paused,
                    used,
                });
            }
            Entry::ClockPaused | Entry::ClockResumed => {
                if let Some(clock) = &mut self.replayed.clock {
                    clock.paused = matches!(entry, Entry::ClockPaused);
                }
            }
            Entry::MovesAdjusted { color, moves } => {
                let mut counts = self.replayed.clock_moves();
                *counts.get_mut(*color) = *moves;
                self.replayed.move_counts = Some(counts);
            }
            Entry::ClockAdjusted {
                color,
                remaining_ms,
            } => {
                let clock =
                    self.replayed
                        .clock
                        .get_or_insert(self.initial.unwrap_or(ClockSnapshot {
                            times: Times::default(),
                            running: None,
                            paused: false,
                            used: None,
                        }));
                clock.times.set(*color, *remaining_ms);
            }
            _ => {}
        }
    }

    /// The recorded result: the game's own must be the same; a game not over yet ends here,
    /// so that nothing after it is played on.
    fn replay_result(&mut self, recorded: Outcome) -> Result<Step, ReplayError> {
        match self.replayed.game.outcome() {
            Some(actual) if actual != recorded => Err(ReplayError::ResultMismatch {
                entry: self.entry,
                recorded: recorded.to_string(),
                actual: actual.to_string(),
            }),
            Some(_) => Ok(Step::Other),
            None => {
                let _ = self.replayed.game.declare(recorded);
                self.replayed.declared = Some(recorded);
                Ok(Step::Other)
            }
        }
    }

    /// An unpromoted pawn's move, given without a promotion piece: the game wants it so.
    fn to_move_unpromoted(&self, uci: &UciMove) -> Result<Move, ReplayError> {
        let as_queen = match *uci {
            UciMove::Normal {
                from,
                to,
                promotion: None,
            } => UciMove::Normal {
                from,
                to,
                promotion: Some(shakmaty::Role::Queen),
            },
            _ => {
                return Err(ReplayError::IllegalMove {
                    entry: self.entry,
                    uci: uci.to_string(),
                });
            }
        };
        let m = self.to_move(&as_queen)?;
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                ..
            } => Ok(Move::Normal {
                role,
                from,
                capture,
                to,
                promotion: None,
            }),
            _ => Err(ReplayError::IllegalMove {
                entry: self.entry,
                uci: uci.to_string(),
            }),
        }
    }
}

/// Whether a journal's UCI names this move (either castling notation is accepted).
fn uci_matches(uci: UciMove, m: Move, variant: Variant) -> bool {
    uci == super::entry::uci_of(m, variant)
        || uci == UciMove::from_move(m, shakmaty::CastlingMode::Chess960)
        || uci == UciMove::from_standard(m)
}

/// Rebuilds the game, the last known clock and the settings from a journal.
pub fn replay(header: &Header, entries: &[Entry]) -> Result<Replayed, ReplayError> {
    let mut replayer = Replayer::new(header)?;
    for entry in entries {
        replayer.apply(entry)?;
    }
    Ok(replayer.finish())
}

/// As much of a journal as replays: the game after the good entries, the error that stopped
/// the replay (`None`: every entry replayed), and how many entries are good (`entries[..good]`).
#[derive(Clone, Debug)]
pub struct Prefix {
    pub(crate) replayed: Replayed,
    pub(crate) error: Option<ReplayError>,
    pub(crate) good: usize,
}

/// Replays the entries up to the first one the game refuses, so that a journal that does not
/// replay still gives every move before that entry. Only a start position that cannot be set
/// up is an error: then nothing replays.
pub fn replay_prefix(header: &Header, entries: &[Entry]) -> Result<Prefix, ReplayError> {
    let mut replayer = Replayer::new(header)?;
    for (i, entry) in entries.iter().enumerate() {
        if let Err(error) = replayer.apply(entry) {
            // A refused entry may have changed the game before it was refused (a move whose
            // SAN disagrees is played first): the good entries are replayed again without it.
            let replayed = replay(header, &entries[..i])?;
            return Ok(Prefix {
                replayed,
                error: Some(error),
                good: i,
            });
        }
    }
    Ok(Prefix {
        replayed: replayer.finish(),
        error: None,
        good: entries.len(),
    })
}
