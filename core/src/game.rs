//! The game model: a start position, the moves played, and every way the Laws end a game.
//!
//! Pure: no I/O and no clock. Time penalties are returned as [`Penalty`] values for the clock
//! to apply; flag falls are reported to the game by whoever watches the clock.

use shakmaty::{ByColor, Chess, Color, Move, Position, Role, Square, san::SanPlus};

use super::dead::cannot_mate;
use super::laws::{ClaimKind, Claims, FIFTY_MOVES, Penalty, Rules, THREEFOLD, automatic_end};
use super::outcome::{ClaimBasis, GameResult, Outcome, Termination};
use super::repetition::{PositionKey, Repetitions};
use super::variant::Variant;
use super::variant::chess960_position;

/// A move as it was played, with its SAN in the position it was played from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub mv: Move,
    pub san: SanPlus,
}

/// Something that happened in the game besides a move, for the record (Article 8.1b) and the
/// arbiter. `ply` is the number of half-moves played when it happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct GameEvent {
    pub(crate) ply: usize,
    pub(crate) kind: EventKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum EventKind {
    /// A draw offer, recorded with (=) on the scoresheet (9.1b3, Appendix C12).
    DrawOffered(Color),
    /// The offer lapsed: refused aloud, or refused by making a move (9.1b1).
    DrawDeclined(Color),
    /// A claim under 9.2 or 9.3 and its verdict.
    Claim {
        by: Color,
        kind: ClaimKind,
        intended: Option<Move>,
        correct: bool,
    },
    /// A completed illegal move (7.5): the position was restored; `count` is the offender's tally.
    IllegalMove { by: Color, count: u8 },
    /// A pawn reached the last rank without being replaced (7.5a): it became a queen.
    UnpromotedPawn { by: Color, square: Square },
    /// A piece was touched with the intention to move or capture it (4.3, 4.4).
    Touched { by: Color, square: Square },
    /// Time the arbiter added to a player's clock.
    Penalty(Penalty),
    /// The game ended (the outcome is also kept on the game).
    Ended(Outcome),
}

/// Why the game refused an action. Nothing changes when an error is returned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("the game is over: {0}")]
    GameOver(Outcome),
    #[error("that move is not legal in this position")]
    IllegalMove,
    #[error("it is not {0:?}'s turn")]
    NotYourTurn(Color),
    #[error("there is no draw offer to answer")]
    NoDrawOffer,
    #[error("a claim must be made before touching a piece (Article 9.4)")]
    ClaimRightLost,
    #[error("the game was aborted")]
    Aborted,
    #[error("a game is aborted only before both sides have moved")]
    TooLateToAbort,
}

/// What a played move did to the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReport {
    pub(crate) played: PlayedMove,
    /// The automatic end the move brought about, if any.
    pub(crate) outcome: Option<Outcome>,
    /// The claims now open to the player to move (9.2b, 9.3b).
    pub(crate) claims: Claims,
    /// A draw offer that the move declined (9.1b1).
    pub(crate) declined_offer: Option<Color>,
}

/// The verdict on a claim (9.5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ClaimVerdict {
    /// 9.5a: the game is drawn.
    Correct(Outcome),
    /// 9.5b: time to the opponent; the game goes on, and an intended move is played.
    Incorrect {
        penalty: Penalty,
        played: Option<MoveReport>,
    },
}

/// The consequence of a completed illegal move (7.5b).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IllegalMoveVerdict {
    Penalty(Penalty),
    GameOver(Outcome),
}

#[derive(Clone, Debug)]
pub struct Game {
    variant: Variant,
    rules: Rules,
    positions: Vec<Chess>,
    moves: Vec<PlayedMove>,
    repetitions: Repetitions,
    /// Whether the current position has a legal move (cached: computed once per position).
    has_moves: bool,
    outcome: Option<Outcome>,
    pending_offer: Option<Color>,
    touched: Option<(Color, Square)>,
    illegal_moves: ByColor<u8>,
    events: Vec<GameEvent>,
    /// The players abandoned the game before both had moved: over, without a result.
    aborted: bool,
}

impl Default for Game {
    fn default() -> Game {
        Game::new(Variant::Standard)
    }
}

impl Game {
    /// A game from the standard start position (for Chess960, start position 518).
    pub fn new(variant: Variant) -> Game {
        Game::from_position(Chess::default(), variant)
    }

    /// A Chess960 game from start position `number` (0..960).
    pub fn chess960(number: u16) -> Option<Game> {
        chess960_position(number).map(|pos| Game::from_position(pos, Variant::Chess960))
    }

    /// A game continuing from `start` (a FEN set-up or the last position of an imported game).
    pub fn from_position(start: Chess, variant: Variant) -> Game {
        let repetitions = Repetitions::new(&start);
        let has_moves = !start.legal_moves().is_empty();
        let mut game = Game {
            variant,
            rules: Rules::default(),
            positions: vec![start],
            moves: Vec::new(),
            repetitions,
            has_moves,
            outcome: None,
            pending_offer: None,
            touched: None,
            illegal_moves: ByColor::default(),
            events: Vec::new(),
            aborted: false,
        };
        game.outcome = automatic_end(game.position(), has_moves, 1);
        game
    }

    pub(crate) fn with_rules(mut self, rules: Rules) -> Game {
        self.rules = rules;
        self
    }

    pub(crate) fn rules(&self) -> Rules {
        self.rules
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn start(&self) -> &Chess {
        &self.positions[0]
    }

    pub fn position(&self) -> &Chess {
        // `positions` always holds the start position.
        self.positions.last().unwrap_or(&self.positions[0])
    }

    /// The position after `ply` half-moves (0 = start).
    pub fn position_at(&self, ply: usize) -> Option<&Chess> {
        self.positions.get(ply)
    }

    pub fn turn(&self) -> Color {
        self.position().turn()
    }

    pub fn moves(&self) -> &[PlayedMove] {
        &self.moves
    }

    pub fn last_move(&self) -> Option<&PlayedMove> {
        self.moves.last()
    }

    /// Half-moves played in this game.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// The move number of the next move, counting from the start position's own number.
    pub(crate) fn fullmove_number(&self) -> u32 {
        self.position().fullmoves().get()
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some() || self.aborted
    }

    /// Whether the game was aborted (over, without a result).
    pub fn is_aborted(&self) -> bool {
        self.aborted
    }

    /// The game is abandoned before both sides have moved (no result, `*`). Refused once the
    /// second half-move is played, or when the game is over.
    pub(crate) fn abort(&mut self) -> Result<(), GameError> {
        self.ensure_running()?;
        if self.ply() >= 2 {
            return Err(GameError::TooLateToAbort);
        }
        self.aborted = true;
        self.pending_offer = None;
        self.touched = None;
        Ok(())
    }

    pub(crate) fn events(&self) -> &[GameEvent] {
        &self.events
    }

    pub(crate) fn pending_draw_offer(&self) -> Option<Color> {
        self.pending_offer
    }

    #[cfg(any(test, feature = "testkit"))]
    pub(crate) fn illegal_move_count(&self, color: Color) -> u8 {
        self.illegal_moves[color]
    }

    pub fn legal_moves(&self) -> shakmaty::MoveList {
        if self.is_over() {
            shakmaty::MoveList::new()
        } else {
            self.position().legal_moves()
        }
    }

    /// How often the current position has appeared (9.2), counting now.
    pub(crate) fn repetition_count(&self) -> usize {
        self.repetitions.count_current(self.position().halfmoves())
    }

    /// The claims open to the player to move, unless the game is over or a piece was touched.
    pub(crate) fn claims(&self) -> Claims {
        if self.is_over() || self.touched.is_some() {
            Claims::default()
        } else {
            Claims::on_board(self.position(), self.repetition_count())
        }
    }

    fn ensure_running(&self) -> Result<(), GameError> {
        match self.outcome {
            Some(o) => Err(GameError::GameOver(o)),
            None if self.aborted => Err(GameError::Aborted),
            None => Ok(()),
        }
    }

    fn record(&mut self, kind: EventKind) {
        self.events.push(GameEvent {
            ply: self.ply(),
            kind,
        });
    }

    fn finish(&mut self, outcome: Outcome) -> Outcome {
        self.outcome = Some(outcome);
        self.pending_offer = None;
        self.record(EventKind::Ended(outcome));
        outcome
    }

    /// Plays a legal move. Declines a draw offer made by the opponent (9.1b1) and ends the
    /// game when the move brings about an automatic end.
    pub fn play(&mut self, m: Move) -> Result<MoveReport, GameError> {
        self.ensure_running()?;
        let before = self.position();
        if !before.is_legal(m) {
            return Err(GameError::IllegalMove);
        }
        let mover = before.turn();
        let mut after = before.clone();
        let san = SanPlus::from_move_and_play_unchecked(&mut after, m);
        self.has_moves = !after.legal_moves().is_empty();
        self.repetitions.push(&after);
        self.positions.push(after);
        self.moves.push(PlayedMove { mv: m, san });
        self.touched = None;

        let declined_offer = match self.pending_offer {
            Some(offerer) if offerer != mover => {
                self.pending_offer = None;
                self.record(EventKind::DrawDeclined(mover));
                Some(offerer)
            }
            _ => None,
        };
        let outcome = automatic_end(self.position(), self.has_moves, self.repetition_count());
        if let Some(o) = outcome {
            self.finish(o);
        }
        Ok(MoveReport {
            played: PlayedMove { mv: m, san },
            outcome,
            claims: self.claims(),
            declined_offer,
        })
    }

    /// Plays a move given in SAN (English letters), e.g. from a PGN file.
    pub fn play_san(&mut self, san: &str) -> Result<MoveReport, GameError> {
        self.ensure_running()?;
        let parsed: SanPlus = san.parse().map_err(|_| GameError::IllegalMove)?;
        let m = parsed
            .san
            .to_move(self.position())
            .map_err(|_| GameError::IllegalMove)?;
        self.play(m)
    }

    /// Takes back the last move (an arbiter's correction, e.g. after 7.5 or 6.10b).
    /// An ended game is reopened when its end came with that move.
    pub(crate) fn take_back(&mut self) -> Option<PlayedMove> {
        if self.moves.is_empty() {
            return None;
        }
        let taken = self.moves.pop()?;
        self.positions.pop();
        self.repetitions.pop();
        self.has_moves = true;
        self.touched = None;
        self.outcome = automatic_end(self.position(), self.has_moves, self.repetition_count());
        Some(taken)
    }

    /// How many half-moves a take-back asked for by `by` removes: `by`'s last move and any
    /// reply after it. `None` when `by` has not moved yet.
    pub(crate) fn plies_to_take_back(&self, by: Color) -> Option<usize> {
        let last = (0..self.ply())
            .rev()
            .find(|&i| self.positions[i].turn() == by)?;
        Some(self.ply() - last)
    }

    /// Notes that the player to move touched a piece (4.3): recorded, and claims under 9.2 and
    /// 9.3 are lost for this move (9.4).
    pub(crate) fn touch(&mut self, by: Color, square: Square) -> Result<(), GameError> {
        self.ensure_running()?;
        if by != self.turn() {
            return Err(GameError::NotYourTurn(by));
        }
        self.touched = Some((by, square));
        self.record(EventKind::Touched { by, square });
        Ok(())
    }

    /// The piece the player to move has touched, if any (Article 4.3 obliges it to move).
    #[cfg(test)]
    pub(crate) fn touched(&self) -> Option<(Color, Square)> {
        self.touched
    }

    /// 5.1b: `by` resigns.
    pub(crate) fn resign(&mut self, by: Color) -> Result<Outcome, GameError> {
        self.ensure_running()?;
        Ok(self.finish(Outcome::win(!by, Termination::Resignation)))
    }

    /// 9.1: `by` offers a draw; recorded with (=). An offer while the opponent's offer stands
    /// is an acceptance.
    pub(crate) fn offer_draw(&mut self, by: Color) -> Result<Option<Outcome>, GameError> {
        self.ensure_running()?;
        if self.pending_offer == Some(!by) {
            return self.accept_draw(by).map(Some);
        }
        self.pending_offer = Some(by);
        self.record(EventKind::DrawOffered(by));
        Ok(None)
    }

    /// 9.1, 5.2c: `by` accepts the opponent's standing offer.
    pub(crate) fn accept_draw(&mut self, by: Color) -> Result<Outcome, GameError> {
        self.ensure_running()?;
        if self.pending_offer != Some(!by) {
            return Err(GameError::NoDrawOffer);
        }
        Ok(self.finish(Outcome::draw(Termination::Agreement)))
    }

    /// 9.1b1: `by` refuses the opponent's offer aloud.
    pub(crate) fn decline_draw(&mut self, by: Color) -> Result<(), GameError> {
        self.ensure_running()?;
        if self.pending_offer != Some(!by) {
            return Err(GameError::NoDrawOffer);
        }
        self.pending_offer = None;
        self.record(EventKind::DrawDeclined(by));
        Ok(())
    }

    /// 9.2 or 9.3: the player to move claims a draw, on the board as it stands (`intended` is
    /// `None`, 9.2b/9.3b) or on a move written down and declared (9.2a/9.3a).
    ///
    /// A correct claim draws the game (9.5a). An incorrect one gives the opponent the time
    /// penalty, counts as a draw offer (9.1b4), and the intended move is played (9.5b).
    pub(crate) fn claim_draw(
        &mut self,
        by: Color,
        kind: ClaimKind,
        intended: Option<Move>,
    ) -> Result<ClaimVerdict, GameError> {
        self.ensure_running()?;
        if by != self.turn() {
            return Err(GameError::NotYourTurn(by));
        }
        if self.touched.is_some() {
            return Err(GameError::ClaimRightLost);
        }
        if let Some(m) = intended
            && !self.position().is_legal(m)
        {
            return Err(GameError::IllegalMove);
        }
        let correct = match intended {
            None => {
                let claims = self.claims();
                match kind {
                    ClaimKind::Threefold => claims.threefold,
                    ClaimKind::FiftyMoves => claims.fifty_moves,
                }
            }
            Some(m) => {
                let mut next = self.position().clone();
                next.play_unchecked(m);
                match kind {
                    ClaimKind::Threefold => {
                        let key = PositionKey::of(&next);
                        self.repetitions.count_if_next(key, next.halfmoves()) >= THREEFOLD
                    }
                    ClaimKind::FiftyMoves => next.halfmoves() >= FIFTY_MOVES,
                }
            }
        };
        self.record(EventKind::Claim {
            by,
            kind,
            intended,
            correct,
        });
        if correct {
            let basis = if intended.is_some() {
                ClaimBasis::IntendedMove
            } else {
                ClaimBasis::OnTheBoard
            };
            let termination = match kind {
                ClaimKind::Threefold => Termination::Threefold(basis),
                ClaimKind::FiftyMoves => Termination::FiftyMoves(basis),
            };
            return Ok(ClaimVerdict::Correct(
                self.finish(Outcome::draw(termination)),
            ));
        }
        let penalty = Penalty {
            beneficiary: !by,
            time: self.rules.time_penalty,
            article: "9.5b",
        };
        self.record(EventKind::Penalty(penalty));
        // The claim stands as a draw offer (9.1b4) until the opponent answers it.
        self.pending_offer = Some(by);
        self.record(EventKind::DrawOffered(by));
        let played = match intended {
            Some(m) => Some(self.play(m)?),
            None => None,
        };
        Ok(ClaimVerdict::Incorrect { penalty, played })
    }

    /// 6.9: `color`'s flag fell. Lost, unless the opponent cannot mate by any series of legal
    /// moves, then drawn. A game already ended (by mate, stalemate, …) is not changed.
    pub(crate) fn flag_fall(&mut self, color: Color) -> Result<Outcome, GameError> {
        self.ensure_running()?;
        let outcome = if cannot_mate(self.position(), !color) {
            Outcome::draw(Termination::FlagFall)
        } else {
            Outcome::win(!color, Termination::FlagFall)
        };
        Ok(self.finish(outcome))
    }

    /// 6.11: both flags fell and it cannot be established which fell first. In the last period
    /// the game is drawn; in any earlier period it continues (returns `None`).
    pub(crate) fn both_flags_fell(
        &mut self,
        in_last_period: bool,
    ) -> Result<Option<Outcome>, GameError> {
        self.ensure_running()?;
        if in_last_period {
            Ok(Some(self.finish(Outcome::draw(Termination::BothFlags))))
        } else {
            Ok(None)
        }
    }

    /// 7.5: `by` completed an illegal move. The position before it is the game's position
    /// (an illegal move never enters the record), the opponent gets the time penalty; the
    /// losing illegal move (the second, or the first under A4b) loses, but draws when the
    /// opponent cannot mate.
    pub(crate) fn illegal_move_completed(
        &mut self,
        by: Color,
    ) -> Result<IllegalMoveVerdict, GameError> {
        self.ensure_running()?;
        let count = self.illegal_moves[by].saturating_add(1);
        self.illegal_moves[by] = count;
        self.record(EventKind::IllegalMove { by, count });
        if count >= self.rules.illegal_move_that_loses {
            let outcome = if cannot_mate(self.position(), !by) {
                Outcome::draw(Termination::IllegalMoves)
            } else {
                Outcome::win(!by, Termination::IllegalMoves)
            };
            return Ok(IllegalMoveVerdict::GameOver(self.finish(outcome)));
        }
        let penalty = Penalty {
            beneficiary: !by,
            time: self.rules.time_penalty,
            article: "7.5b",
        };
        self.record(EventKind::Penalty(penalty));
        Ok(IllegalMoveVerdict::Penalty(penalty))
    }

    /// 7.5a, last sentence: a pawn moved to the last rank and the clock pressed without the pawn
    /// being replaced. The move is illegal; the pawn is replaced by a queen of its colour, and
    /// the illegal move counts under 7.5b. `m` is the move without its promotion piece.
    pub(crate) fn unpromoted_pawn(&mut self, m: Move) -> Result<IllegalMoveVerdict, GameError> {
        self.ensure_running()?;
        let by = self.turn();
        let queen = match m {
            Move::Normal {
                role: Role::Pawn,
                from,
                capture,
                to,
                promotion: None,
            } => Move::Normal {
                role: Role::Pawn,
                from,
                capture,
                to,
                promotion: Some(Role::Queen),
            },
            _ => return Err(GameError::IllegalMove),
        };
        if !self.position().is_legal(queen) {
            return Err(GameError::IllegalMove);
        }
        let square = queen.to();
        let verdict = self.illegal_move_completed(by)?;
        if let IllegalMoveVerdict::Penalty(_) = verdict {
            self.record(EventKind::UnpromotedPawn { by, square });
            self.play(queen)?;
        }
        Ok(verdict)
    }

    /// The arbiter ends the game: a draw agreed between the players, or a result the arbiter
    /// decides (12.2, 12.9). Refused when the game is already over.
    pub(crate) fn declare(&mut self, outcome: Outcome) -> Result<Outcome, GameError> {
        self.ensure_running()?;
        Ok(self.finish(outcome))
    }

    /// The result an arbiter records when the game has no outcome yet.
    pub fn result(&self) -> Option<GameResult> {
        self.outcome.map(|o| o.result)
    }
}

#[cfg(test)]
mod tests;
