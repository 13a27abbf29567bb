//! From sensor events to moves, as FIDE Laws Appendix D2.2–D2.3 define them for the blind
//! player's board: a piece taken out of its hole counts as touched; a move is executed when
//! the captured piece has been removed and the moving piece stands in its new hole.
//!
//! The recognizer compares what the sensors show with the expected position and with the
//! position after each legal move. Occupancy-only boards cannot name pieces, so the
//! recognizer keeps, besides the sensors' picture, the last board it knew piece by piece
//! (`basis`) and which squares have had a peg put in since (`disturbed`): an undisturbed
//! occupied square still holds the piece the basis has there; a disturbed one holds some
//! piece. That is what tells a completed capture (a peg went into the captured piece's
//! hole) from a capturing piece still in the hand (the same occupancy, nothing put in).
//!
//! When two legal moves still fit the picture (Chess960: king e1 rook g1, the rook put on f1
//! and then a peg on g1 is castling or Kf1 with the rook put back), the order of the events
//! decides: a peg put in while the hand held only the rook is the rook.

use std::time::Duration;

use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, Move, Piece, Position, Role, Square, attacks,
};

use super::{Picture, SensorEvent, SquareState};
use crate::time::Timestamp;

/// The settle pause of the brief: no event for this long and the board is taken as it is.
pub(crate) const DEFAULT_SETTLE: Duration = Duration::from_millis(1500);

/// Quiet time before a move is taken on a board that reports a sliding piece on the squares
/// it passes (a DGT board scans all squares every 200–250 ms: a bit more than one scan).
pub(crate) const DEFAULT_SLIDE_PAUSE: Duration = Duration::from_millis(500);

/// What the recognizer reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recognition {
    /// D2.2: a piece of the side to move left its square. Recorded for the arbiter: Article
    /// 4.3 obliges that piece to move. Reported once per square and expected position.
    Touched { square: Square, piece: Piece },
    /// D2.3: the board shows the position after this legal move; it is now expected.
    Moved(Move),
    /// A pawn reached the last rank on a board that cannot tell which piece replaced it; the
    /// player announces it (D2.1) and [`Recognizer::choose_promotion`] completes the move.
    PromotionChoiceNeeded { from: Square, to: Square },
    /// The board has settled in a position that is neither the expected one nor one legal
    /// move away; the squares where it differs from the expected position.
    Mismatch(Vec<SquareDiff>),
    /// The board agrees with the expected position again after a mismatch or a take-back
    /// was reported, or after an expected move from elsewhere has been carried out.
    Matches,
    /// The board shows the position before the last move again. Only reported: the game is
    /// not changed (whoever accepts a take-back calls [`Recognizer::expect_position`]).
    TakeBack,
}

/// One square where the board differs from the expected position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SquareDiff {
    pub square: Square,
    pub expected: Option<Piece>,
    /// What stands there as far as the recognizer knows: the board's reading, with the piece
    /// filled in on occupancy-only boards when it has not been moved since it was known.
    pub found: SquareState,
}

/// Why a promotion choice cannot be taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PromotionError {
    #[error("no promotion is waiting for a choice")]
    NotAsked,
    #[error("a pawn cannot be promoted to a {0:?} here")]
    NotAllowed(Role),
}

/// A set of pieces, one bit per colour and role.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PieceSet(u16);

impl PieceSet {
    const ANY: PieceSet = PieceSet(0x0fff);
    const NONE: PieceSet = PieceSet(0);

    fn of(p: Piece) -> PieceSet {
        let index = p.color.fold_wb(0, 6) + u32::from(p.role) - 1;
        PieceSet(1 << index)
    }

    fn contains(self, p: Piece) -> bool {
        self.0 & PieceSet::of(p).0 != 0
    }

    fn with(self, other: PieceSet) -> PieceSet {
        PieceSet(self.0 | other.0)
    }

    /// The piece, if the set holds exactly one.
    fn single(self) -> Option<Piece> {
        if self.0.count_ones() != 1 {
            return None;
        }
        Color::ALL
            .into_iter()
            .flat_map(|color| Role::ALL.into_iter().map(move |role| Piece { color, role }))
            .find(|&p| self.contains(p))
    }
}

/// More pieces than a hand can hold: the oldest are forgotten, so that a board that never
/// settles cannot make the hand grow without end.
const HAND_LIMIT: usize = 32;

/// What the recognizer believes stands on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reading {
    Empty,
    Piece(Piece),
    /// Some piece, which one is not known.
    Unknown,
}

impl Reading {
    fn fits(self, want: Option<Piece>) -> bool {
        match (self, want) {
            (Reading::Empty, None) => true,
            (Reading::Piece(p), Some(q)) => p == q,
            (Reading::Unknown, Some(_)) => true,
            _ => false,
        }
    }

    fn state(self) -> SquareState {
        match self {
            Reading::Empty => SquareState::Empty,
            Reading::Piece(p) => SquareState::Occupied(Some(p)),
            Reading::Unknown => SquareState::Occupied(None),
        }
    }
}

/// Where the board stands relative to the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// The board shows the expected position.
    Agrees,
    /// The board shows the position after `mv`; it is taken when nothing happens until
    /// `due` (the move might still grow into another one: castling, a sliding piece).
    Pending { mv: Move, due: Timestamp },
    /// The board shows a promotion, the piece unknown.
    Promotion { from: Square, to: Square },
    /// The board shows the position before the last move.
    TakenBack,
    /// Anything else.
    Differs,
}

/// Recognizes moves on one physical board. See the module documentation.
#[derive(Clone, Debug)]
pub struct Recognizer {
    expected: Chess,
    previous: Option<Chess>,
    #[expect(
        dead_code,
        reason = "stored but never read: recognition works from the position itself"
    )]
    mode: CastlingMode,
    #[expect(
        dead_code,
        reason = "stored but never read: new chooses the picture from it"
    )]
    identifies_pieces: bool,
    settle: Duration,
    slide_pause: Duration,

    /// The sensors' last word on every square.
    picture: Picture,
    /// The last board known piece by piece.
    basis: Board,
    /// Squares that had a piece put in since `basis`: their occupant is not known.
    disturbed: Bitboard,
    /// Squares emptied since `basis`, in the order they were first emptied.
    lifted: Vec<Square>,
    /// The pieces lifted since `basis` and not known to be down again (`None`: unknown).
    hand: Vec<Option<Piece>>,
    /// For each disturbed square, the pieces its occupant can be: what was in the hand when
    /// the peg went in (anything, if the hand was empty or held an unknown piece).
    could_be: [PieceSet; 64],
    /// Squares already reported as touched for the expected position.
    touched: Bitboard,
    /// The board has shown the expected position since it was set.
    reached: bool,
    /// The board is being set up to the expected position (after moves were taken back):
    /// nothing it shows is a move until it has shown that position once.
    setting_up: bool,

    state: State,
    last_change: Option<Timestamp>,
    /// The latest instant the recognizer has been told about.
    latest: Timestamp,
    /// The settled mismatch has been looked at (reported, or the same as reported before).
    mismatch_checked: bool,
    reported_mismatch: Option<Vec<SquareDiff>>,
    takeback_reported: bool,
    promotion_asked: Option<(Square, Square)>,
}

impl Recognizer {
    /// A recognizer for a board assumed to show `position` until the sensors say otherwise.
    ///
    /// `identifies_pieces`: the board reports which piece stands where (DGT). Such boards scan
    /// their sensors and can report a sliding piece on the squares it passes, so a move the
    /// piece could still extend along its line is taken after [`DEFAULT_SLIDE_PAUSE`] of
    /// quiet. Peg boards cannot slide: a peg in a new
    /// hole completes the move at once (D2.3).
    ///
    /// `settle`: how long the board must be quiet before a mismatch is reported, and before a
    /// rook or king move is taken that may be the first half of castling.
    pub(crate) fn new(
        position: Chess,
        mode: CastlingMode,
        identifies_pieces: bool,
        settle: Duration,
    ) -> Recognizer {
        let picture = if identifies_pieces {
            Picture::from_board(position.board())
        } else {
            Picture::occupancy_of(position.board())
        };
        Recognizer {
            basis: position.board().clone(),
            expected: position,
            previous: None,
            mode,
            identifies_pieces,
            settle,
            slide_pause: if identifies_pieces {
                DEFAULT_SLIDE_PAUSE
            } else {
                Duration::ZERO
            },
            picture,
            disturbed: Bitboard::EMPTY,
            lifted: Vec::new(),
            hand: Vec::new(),
            could_be: [PieceSet::ANY; 64],
            touched: Bitboard::EMPTY,
            reached: true,
            setting_up: false,
            state: State::Agrees,
            last_change: None,
            latest: Timestamp::ZERO,
            mismatch_checked: true,
            reported_mismatch: None,
            takeback_reported: false,
            promotion_asked: None,
        }
    }

    /// The position the board is expected to show.
    pub(crate) fn expected(&self) -> &Chess {
        &self.expected
    }

    /// The sensors' current picture.
    pub(crate) fn picture(&self) -> &Picture {
        &self.picture
    }

    /// The game moved on from elsewhere (D2.1: the opponent's move, announced, which the
    /// blind player now carries out on his board). `previous` is the position before that
    /// move, usually what the board still shows. Until the board shows `position`, lifted
    /// pieces are not reported as touched and mismatches only once the player has started
    /// and the board has settled; when it shows it, [`Recognition::Matches`].
    pub(crate) fn expect_position(
        &mut self,
        position: Chess,
        previous: Option<Chess>,
    ) -> Vec<Recognition> {
        self.expect(position, previous, false)
    }

    /// The board must be set up to `position` (the game was taken back, D2.8): until it shows
    /// it, nothing it shows is taken as a move; where it differs is reported once it has been
    /// quiet for the settle pause.
    pub(crate) fn expect_setup(&mut self, position: Chess) -> Vec<Recognition> {
        self.expect(position, None, true)
    }

    fn expect(
        &mut self,
        position: Chess,
        previous: Option<Chess>,
        setting_up: bool,
    ) -> Vec<Recognition> {
        self.expected = position;
        self.previous = previous;
        self.reached = false;
        self.setting_up = setting_up;
        self.touched = Bitboard::EMPTY;
        self.reported_mismatch = None;
        self.takeback_reported = false;
        self.promotion_asked = None;
        if setting_up {
            // Counted from now: the board is told how it differs once it has settled.
            self.last_change = Some(self.latest);
            self.mismatch_checked = false;
        } else {
            self.last_change = None;
            self.mismatch_checked = true;
        }
        let mut out = Vec::new();
        self.evaluate(&mut out);
        out
    }

    /// A sensor event at `now`.
    pub(crate) fn event(&mut self, event: SensorEvent, now: Timestamp) -> Vec<Recognition> {
        self.latest = self.latest.max(now);
        let mut out = Vec::new();
        // A move waiting for quiet (a piece that might slide on, the first half of castling)
        // is over when the hand goes elsewhere: a piece lifted that cannot go on with it, or
        // (on a board that names pieces) another piece set down.
        if let State::Pending { mv, .. } = self.state {
            let castling = self.castling_squares();
            let elsewhere = match &event {
                SensorEvent::Lifted(sq) => *sq != mv.to() && !castling.contains(*sq),
                // Another piece, even on the moving piece's square (it captures it).
                SensorEvent::Placed(sq, Some(piece)) => {
                    let moving = self.expected.board().piece_at(mv.from().unwrap_or(mv.to()));
                    moving != Some(*piece) && !castling.contains(*sq)
                }
                _ => false,
            };
            if elsewhere {
                self.complete(mv, &mut out);
            }
        }
        if self.apply(event, &mut out) {
            self.last_change = Some(now);
            self.mismatch_checked = false;
            self.evaluate(&mut out);
        }
        out
    }

    /// Time passes: takes a pending move, or reports a settled mismatch.
    pub(crate) fn tick(&mut self, now: Timestamp) -> Vec<Recognition> {
        self.latest = self.latest.max(now);
        let mut out = Vec::new();
        match self.state {
            State::Pending { mv, due } if now >= due => self.complete(mv, &mut out),
            State::Differs if self.settled_by(now) => {
                self.mismatch_checked = true;
                let diffs = self.diffs();
                if self.reported_mismatch.as_ref() != Some(&diffs) {
                    out.push(Recognition::Mismatch(diffs.clone()));
                    self.reported_mismatch = Some(diffs);
                }
            }
            _ => {}
        }
        out
    }

    /// When [`Recognizer::tick`] has something to do, if ever.
    pub(crate) fn next_deadline(&self) -> Option<Timestamp> {
        match self.state {
            State::Pending { due, .. } => Some(due),
            State::Differs if !self.mismatch_checked => self.last_change.map(|t| t + self.settle),
            _ => None,
        }
    }

    /// The piece the player announced for a promotion the board could not read.
    pub(crate) fn choose_promotion(
        &mut self,
        role: Role,
    ) -> Result<Vec<Recognition>, PromotionError> {
        let State::Promotion { from, to } = self.state else {
            return Err(PromotionError::NotAsked);
        };
        let mv = self
            .expected
            .legal_moves()
            .into_iter()
            .find(|m| m.from() == Some(from) && m.to() == to && m.promotion() == Some(role))
            .ok_or(PromotionError::NotAllowed(role))?;
        let mut out = Vec::new();
        self.complete(mv, &mut out);
        Ok(out)
    }

    fn settled_by(&self, now: Timestamp) -> bool {
        !self.mismatch_checked && self.last_change.is_some_and(|t| now >= t + self.settle)
    }

    /// Updates the picture; whether anything changed.
    fn apply(&mut self, event: SensorEvent, out: &mut Vec<Recognition>) -> bool {
        match event {
            SensorEvent::Lifted(sq) => {
                let before = self.reading(sq);
                if before == Reading::Empty {
                    return false;
                }
                self.report_touch(sq, before, out);
                self.hand.push(match before {
                    Reading::Piece(p) => Some(p),
                    _ => self.could_be[sq.to_usize()].single(),
                });
                if self.hand.len() > HAND_LIMIT {
                    self.hand.remove(0);
                }
                self.picture.set(sq, SquareState::Empty);
                self.note_lift(sq);
                true
            }
            SensorEvent::Placed(sq, piece) => {
                let state = SquareState::Occupied(piece);
                let known = piece.is_some() && self.picture.get(sq) == state;
                if known || (piece.is_none() && self.reading(sq) == Reading::Unknown) {
                    return false;
                }
                // On an occupied square this is a replacement: a capture DGT reports in one
                // update, or a peg board that missed the lift.
                self.picture.set(sq, state);
                self.disturbed.add(sq);
                self.could_be[sq.to_usize()] = self.take_from_hand(piece);
                true
            }
            SensorEvent::Snapshot(picture) => {
                let mut changed = false;
                for (sq, new) in picture.iter() {
                    let old = self.picture.get(sq);
                    if old == new {
                        continue;
                    }
                    changed = true;
                    match (old, new) {
                        (_, SquareState::Empty) => self.note_lift(sq),
                        // Which piece now stands there is not known.
                        (_, SquareState::Occupied(None)) => {
                            self.disturbed.add(sq);
                            self.could_be[sq.to_usize()] = PieceSet::ANY;
                        }
                        _ => {}
                    }
                    self.picture.set(sq, new);
                }
                changed
            }
        }
    }

    /// A piece goes down: which it can be, as far as the hand tells. Taken out of the hand
    /// only when it is known which one it was.
    fn take_from_hand(&mut self, piece: Option<Piece>) -> PieceSet {
        if let Some(p) = piece {
            if let Some(i) = self.hand.iter().position(|&h| h == Some(p)) {
                self.hand.remove(i);
            }
            return PieceSet::of(p);
        }
        let mut set = PieceSet::NONE;
        for held in &self.hand {
            match held {
                Some(p) => set = set.with(PieceSet::of(*p)),
                // From an empty hand (a piece from beside the board) or with an unknown
                // piece in it, the peg can be anything.
                None => return PieceSet::ANY,
            }
        }
        match self.hand.first() {
            None => PieceSet::ANY,
            Some(first) => {
                if self.hand.iter().all(|h| h == first) {
                    self.hand.pop();
                }
                set
            }
        }
    }

    fn note_lift(&mut self, sq: Square) {
        if !self.lifted.contains(&sq) {
            self.lifted.push(sq);
        }
    }

    fn report_touch(&mut self, sq: Square, before: Reading, out: &mut Vec<Recognition>) {
        // Not while the player carries out a move from elsewhere, and only for the piece that
        // stands there in the game (not one passing over the square).
        if !self.reached || self.touched.contains(sq) {
            return;
        }
        let Some(piece) = self.expected.board().piece_at(sq) else {
            return;
        };
        if piece.color == self.expected.turn() && before.fits(Some(piece)) {
            self.touched.add(sq);
            out.push(Recognition::Touched { square: sq, piece });
        }
    }

    fn reading(&self, sq: Square) -> Reading {
        match self.picture.get(sq) {
            SquareState::Empty => Reading::Empty,
            SquareState::Occupied(Some(p)) => Reading::Piece(p),
            SquareState::Occupied(None) if self.disturbed.contains(sq) => Reading::Unknown,
            SquareState::Occupied(None) => self
                .basis
                .piece_at(sq)
                .map_or(Reading::Unknown, Reading::Piece),
        }
    }

    fn shows(&self, board: &Board) -> bool {
        Square::ALL
            .into_iter()
            .all(|sq| self.reading(sq).fits(board.piece_at(sq)))
    }

    /// The legal moves after which the board would look as it does now.
    fn matching_moves(&self) -> Vec<Move> {
        let occupied = self.picture.occupied();
        self.expected
            .legal_moves()
            .into_iter()
            .filter(|&m| {
                let mut after = self.expected.clone();
                after.play_unchecked(m);
                after.board().occupied() == occupied && self.shows(after.board())
            })
            .collect()
    }

    fn evaluate(&mut self, out: &mut Vec<Recognition>) {
        let mut moves = self.matching_moves();
        let mut agrees = self.shows(self.expected.board());
        if moves.len() > 1 {
            let fitting: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| {
                    let mut after = self.expected.clone();
                    after.play_unchecked(m);
                    self.fits_hand(m, after.board())
                })
                .collect();
            if !fitting.is_empty() {
                moves = fitting;
            }
        }
        if let Some(castle) = moves.iter().copied().find(|m| m.is_castle())
            && (agrees || moves.len() > 1)
        {
            if self.king_lifted_first(castle) {
                moves = vec![castle];
                agrees = false;
            } else {
                moves.retain(|m| !m.is_castle());
            }
        }
        if agrees {
            self.agree(out);
        } else if !moves.is_empty() && !self.setting_up {
            self.candidate(&moves, out);
        } else if self.reached
            && self
                .previous
                .as_ref()
                .is_some_and(|p| self.shows(p.board()))
        {
            self.state = State::TakenBack;
            if !self.takeback_reported {
                self.takeback_reported = true;
                out.push(Recognition::TakeBack);
            }
        } else {
            self.state = State::Differs;
        }
    }

    /// Decides castling that an occupancy-only board cannot tell from another reading of the
    /// same picture. In Chess960 king and rook may swap squares (king f1 rook g1): castling
    /// leaves the occupancy as it was, like both pieces put back. Or the rook lands where the
    /// king stood (king d1 rook b1): castling looks like Rc1 with the king put back. Article
    /// 4.4 has castling begin with the king, so it is castling when the king was lifted
    /// before the rook, and the other reading when the rook was lifted first.
    fn king_lifted_first(&self, castle: Move) -> bool {
        let Move::Castle { king, rook } = castle else {
            return false;
        };
        let at = |sq| self.lifted.iter().position(|&s| s == sq);
        match (at(king), at(rook)) {
            (Some(k), Some(r)) => k < r,
            (Some(_), None) => true,
            _ => false,
        }
    }

    fn agree(&mut self, out: &mut Vec<Recognition>) {
        if self.reported_mismatch.is_some() || self.takeback_reported || !self.reached {
            out.push(Recognition::Matches);
        }
        self.reached = true;
        self.setting_up = false;
        self.reported_mismatch = None;
        self.takeback_reported = false;
        self.promotion_asked = None;
        self.state = State::Agrees;
        self.rebase();
    }

    /// The board shows the expected position: its pieces are known again.
    fn rebase(&mut self) {
        self.basis = self.expected.board().clone();
        self.disturbed = Bitboard::EMPTY;
        self.lifted.clear();
        self.hand.clear();
        self.could_be = [PieceSet::ANY; 64];
    }

    /// Whether the pieces `m` leaves on the disturbed squares can be the ones put there, as
    /// far as the hand tells. A promoted piece comes from beside the board.
    fn fits_hand(&self, m: Move, after: &Board) -> bool {
        (self.disturbed & after.occupied()).into_iter().all(|sq| {
            let promoted = m.is_promotion() && m.to() == sq;
            let reading = self.picture.get(sq);
            promoted
                || reading != SquareState::Occupied(None)
                || after
                    .piece_at(sq)
                    .is_some_and(|p| self.could_be[sq.to_usize()].contains(p))
        })
    }

    fn candidate(&mut self, moves: &[Move], out: &mut Vec<Recognition>) {
        let [first, rest @ ..] = moves else {
            return;
        };
        if !rest.is_empty() {
            let same_squares = moves
                .iter()
                .all(|m| m.from() == first.from() && m.to() == first.to() && m.is_promotion());
            match (same_squares, first.from()) {
                (true, Some(from)) => {
                    let to = first.to();
                    self.state = State::Promotion { from, to };
                    if self.promotion_asked != Some((from, to)) {
                        self.promotion_asked = Some((from, to));
                        out.push(Recognition::PromotionChoiceNeeded { from, to });
                    }
                }
                // Two different moves fit (only conceivable without piece identification):
                // none is taken, the player has to make the board unambiguous.
                _ => self.state = State::Differs,
            }
            return;
        }
        let pause = self.pause_before(*first);
        let since = self.last_change.unwrap_or(self.latest);
        if pause.is_zero() || since + pause <= self.latest {
            self.complete(*first, out);
        } else {
            self.state = State::Pending {
                mv: *first,
                due: since + pause,
            };
        }
    }

    /// The king's and rooks' squares of castling, from which a lift or onto which a piece may
    /// still belong to a pending first half of castling.
    fn castling_squares(&self) -> Bitboard {
        let mut squares = Bitboard::EMPTY;
        let turn = self.expected.turn();
        for c in self.expected.legal_moves() {
            if let (Move::Castle { king, rook }, Some(side)) = (c, c.castling_side()) {
                squares.add(king);
                squares.add(rook);
                squares.add(side.king_to(turn));
                squares.add(side.rook_to(turn));
            }
        }
        squares
    }

    /// How long the board must stay as it is before `m` is taken.
    fn pause_before(&self, m: Move) -> Duration {
        let castles: Vec<Move> = self
            .expected
            .legal_moves()
            .into_iter()
            .filter(|m| m.is_castle())
            .collect();
        if let Move::Normal {
            role: Role::King | Role::Rook,
            from,
            to,
            ..
        } = m
        {
            let turn = self.expected.turn();
            // The rook or the king is already where castling puts it: the other may follow.
            let first_half = castles.iter().any(|c| {
                let (Move::Castle { king, rook }, Some(side)) = (*c, c.castling_side()) else {
                    return false;
                };
                (from == king && to == side.king_to(turn))
                    || (from == rook && to == side.rook_to(turn))
            });
            if first_half {
                return self.settle;
            }
        }
        if !self.slide_pause.is_zero() && self.could_slide_on(m, &castles) {
            return self.slide_pause;
        }
        Duration::ZERO
    }

    /// Whether the moving piece may only be passing `m`'s target on its way to a square
    /// further along the same line.
    fn could_slide_on(&self, m: Move, castles: &[Move]) -> bool {
        let Move::Normal { role, from, to, .. } = m else {
            return false;
        };
        if role == Role::Knight {
            return false;
        }
        let turn = self.expected.turn();
        let further = self
            .expected
            .legal_moves()
            .into_iter()
            .filter_map(|other| match other {
                Move::Normal { from: f, to: t, .. } if f == from => Some(t),
                _ => None,
            });
        let castling = castles
            .iter()
            .filter_map(|c| match (*c, c.castling_side()) {
                (Move::Castle { king, .. }, Some(side)) if king == from => Some(side.king_to(turn)),
                _ => None,
            });
        further
            .chain(castling)
            .any(|target| attacks::between(from, target).contains(to))
    }

    fn complete(&mut self, mv: Move, out: &mut Vec<Recognition>) {
        out.push(Recognition::Moved(mv));
        let before = self.expected.clone();
        self.expected.play_unchecked(mv);
        self.previous = Some(before);
        self.reached = true;
        self.touched = Bitboard::EMPTY;
        self.state = State::Agrees;
        self.reported_mismatch = None;
        self.takeback_reported = false;
        self.promotion_asked = None;
        self.mismatch_checked = true;
        self.rebase();
    }

    fn diffs(&self) -> Vec<SquareDiff> {
        let board = self.expected.board();
        Square::ALL
            .into_iter()
            .filter_map(|sq| {
                let reading = self.reading(sq);
                let expected = board.piece_at(sq);
                (!reading.fits(expected)).then_some(SquareDiff {
                    square: sq,
                    expected,
                    found: reading.state(),
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
