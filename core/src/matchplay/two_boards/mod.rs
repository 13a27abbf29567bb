//! A game on two boards (FIDE Laws, Appendix D1): the sighted player's board and the blind
//! player's peg board, each read by its own recognizer, one clock, one record. Pure, like the
//! [`Match`] it wraps: every call takes the instant and returns the effects in order.
//!
//! Each board keeps the record of moves as the board itself produced them: the player's own
//! moves and the opponent's moves as the player carried them out. The game's record is made
//! of the moves each player completed on his own board (or that were typed for a side
//! without one). Comparing the records is Appendix D2.8:
//!
//! - a board whose record is the game's, or lacks only its last moves (still to be carried
//!   out), is in order; if it settles in another position, the squares where it is wrong are
//!   named and it is guided back to the recorded position (the records agree);
//! - a board that produced a different move than the game's record, or a move the game does
//!   not have, makes the records disagree: hector names the last move both share and, on the
//!   arbiter's confirmation, takes the game back to it (or the arbiter has the board
//!   corrected instead).
//!
//! The duties of Appendix D9 (hector as the blind player's assistant) and D10 (the sighted
//! player's side, announcing and executing only) are chosen by [`Duty`]; the arbiter's mode
//! supervises with the same logic.

pub(crate) mod action;
pub(crate) mod console;
pub(crate) mod envelope;
pub(crate) mod game_file;
pub(crate) mod recorded;
pub(crate) mod relation;
pub use console::{ConsoleError, ConsoleLine, GameLine, read_console};
pub use envelope::Envelope;
pub use game_file::GameFile;
pub use recorded::{PEG_BOARD, SIGHTED_BOARD};

use std::time::Duration;

use shakmaty::{Chess, Color, Move, Position, Square};

use super::command::{Command, Line, read_line};
use super::session::{self, ClockAnswer, Match, Reconciled, Recorded, Setup, Side, Urgency};
use crate::board::{Recognition, SquareDiff};
use crate::clock::{AnnounceSettings, TimeControl};
use crate::game::Game;
use crate::laws::Rules;
use crate::machine::Machine;
use crate::machine::{Common, answer, say};
use crate::notation::board_words;
use crate::notation::clock_words::{clock_face, control_words};
use crate::notation::language::{Language, fill};
use crate::notation::parse::{message, parse_move_in};
use crate::notation::speak::{Form, announce};
use crate::record::export::{agreed_words, ply_number};
use crate::time::Timestamp;
use action::{Action, ActionError, has_prefix, parse_action};
use relation::{Relation, caught_up, relation, shown, wrong_squares};

/// How many moves back a board may stand and still count as behind the game.
const MAX_BEHIND: usize = 2;

/// Whose board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Seat {
    /// The blind player's peg board.
    Blind,
    /// The sighted player's board.
    Sighted,
}

impl Seat {
    pub const BOTH: [Seat; 2] = [Seat::Blind, Seat::Sighted];

    fn index(self) -> usize {
        match self {
            Seat::Blind => 0,
            Seat::Sighted => 1,
        }
    }

    pub(crate) fn other(self) -> Seat {
        match self {
            Seat::Blind => Seat::Sighted,
            Seat::Sighted => Seat::Blind,
        }
    }
}

/// Whom hector serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Duty {
    /// D9: the blind player's assistant: announces both players' moves, keeps the record,
    /// starts the opponent's clock when a move is complete, tells the times on request only,
    /// claims the win on the opponent's flag, reports the sighted player's touched pieces,
    /// and does the formalities of an adjournment.
    Blind,
    /// D10: the sighted player's assistant when the blind player has none: announces and
    /// tells what to carry out on which board (D9a, D9b), nothing else.
    Sighted,
    /// The arbiter supervising: every alert, every control.
    Arbiter,
}

/// How a two-board game is set up.
#[derive(Clone, Debug)]
pub struct TwoBoardSetup {
    /// The colour of the blind player.
    pub blind: Color,
    pub blind_board: bool,
    pub sighted_board: bool,
    pub control: Option<TimeControl>,
    pub form: Form,
    pub rules: Rules,
    pub duty: Duty,
}

impl TwoBoardSetup {
    pub fn color(&self, seat: Seat) -> Color {
        match seat {
            Seat::Blind => self.blind,
            Seat::Sighted => !self.blind,
        }
    }

    pub(crate) fn seat(&self, color: Color) -> Seat {
        if color == self.blind {
            Seat::Blind
        } else {
            Seat::Sighted
        }
    }

    fn has_board(&self, seat: Seat) -> bool {
        match seat {
            Seat::Blind => self.blind_board,
            Seat::Sighted => self.sighted_board,
        }
    }
}

/// What a two-board game reacts to.
#[derive(Clone, Debug)]
pub enum Event {
    /// What a board's recognizer found.
    Board {
        seat: Seat,
        recognition: Recognition,
    },
    /// A board was unplugged (`false`) or is back (`true`).
    Connection {
        seat: Seat,
        connected: bool,
    },
    /// A typed or dictated line: a question, a command, a move for a side without a board,
    /// or (after "sr", or the assistant's own "abgeben"/"öffnen") an arbiter's command.
    Line(String),
    /// A command from a key.
    Command(Command),
    Action(Action),
    Tick,
}

/// What the adapters must do, in this order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Words said (assistant) or shown in the game's log (arbiter), the speech's controls, a
    /// refusal, the end.
    Common(Common),
    /// Write to the journal before anything after it is said.
    Record(Recorded),
    /// The board's recognizer must expect this position: the board moved back or caught up,
    /// or (`setup`) it must be set up to it, nothing it shows being a move until it does.
    Expect {
        seat: Seat,
        position: Box<Chess>,
        previous: Option<Box<Chess>>,
        setup: bool,
    },
    /// The piece of a promotion the board could not tell.
    Promotion {
        seat: Seat,
        role: shakmaty::Role,
    },
    /// Who made the move said next (the colour), for the assistant's voice and screen.
    Label(String),
    Save(Option<String>),
    /// Write the envelope of the adjourned game (the caller adds names, place and journal).
    Envelope(Box<Envelope>),
}

/// Something the arbiter must look at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Alert {
    /// D2.8: the board's record differs from the game's after `shared` half-moves.
    Records { shared: usize },
    /// The board has moves the game does not have.
    Ahead,
    /// The board shows another position than it should: the squares where it is wrong.
    Position(Vec<SquareDiff>),
    /// The board is unplugged.
    Disconnected,
}

/// One board as the game sees it.
#[derive(Clone, Debug)]
struct Board {
    present: bool,
    connected: bool,
    /// The moves as the board produced them.
    record: Vec<Move>,
    /// The position after `record` (what its recognizer expects).
    position: Chess,
    /// Where the board, when it last settled, differed from `position`.
    deviation: Vec<SquareDiff>,
    alert: Option<Alert>,
    /// A promotion on this board waits for the piece.
    promotion: bool,
    /// The board is being set up to the record (after a take-back or the arbiter's
    /// correction): a missing piece is not excused as one in the hand.
    setting_up: bool,
}

/// A board's state, for the screens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BoardState {
    pub(crate) present: bool,
    pub(crate) connected: bool,
    /// Moves of the game still to be carried out on the board.
    pub to_execute: Vec<Move>,
    pub(crate) alert: Option<Alert>,
}

pub struct TwoBoards {
    m: Match,
    setup: TwoBoardSetup,
    lang: &'static Language,
    boards: [Board; 2],
    /// Both clocks after each half-move, when known (for the arbiter after a take-back).
    times_after: Vec<Option<shakmaty::ByColor<Duration>>>,
}

impl From<Common> for Effect {
    fn from(c: Common) -> Effect {
        Effect::Common(c)
    }
}

impl TwoBoards {
    /// Whether the record is on the disk (see [`Match::set_unrecorded`]).
    pub fn set_unrecorded(&mut self, reason: Option<String>) {
        self.m.set_unrecorded(reason);
    }

    /// Starts the game (a new one, or one continued from its record: both boards are taken
    /// to show the game's position until they say otherwise).
    pub fn new(
        setup: TwoBoardSetup,
        game: Game,
        lang: &'static Language,
        now: Timestamp,
    ) -> (TwoBoards, Vec<Effect>) {
        let (local, side) = match setup.duty {
            Duty::Sighted => (!setup.blind, Side::Keyboard),
            Duty::Blind | Duty::Arbiter => (setup.blind, Side::Keyboard),
        };
        let match_setup = Setup {
            white: side,
            black: side,
            local,
            local_board: false,
            control: setup.control.clone(),
            // D9d: no automatic time announcements; the flag only.
            announce: AnnounceSettings::tournament(),
            form: setup.form,
            rules: setup.rules,
            engine_level: 1,
            opponent_port: None,
            clock_answer: match setup.duty {
                Duty::Blind | Duty::Arbiter => ClockAnswer::Used,
                Duty::Sighted => ClockAnswer::Remaining,
            },
            openings: false,
            wording: Default::default(),
        };
        let plies = game.ply();
        let position = game.position().clone();
        let record: Vec<Move> = game.moves().iter().map(|p| p.mv).collect();
        let (m, effects) = Match::start(match_setup, game, lang, now);
        let board = |present: bool| Board {
            present,
            connected: present,
            record: record.clone(),
            position: position.clone(),
            deviation: Vec::new(),
            alert: None,
            promotion: false,
            setting_up: false,
        };
        let mut tb = TwoBoards {
            boards: [board(setup.blind_board), board(setup.sighted_board)],
            m,
            setup,
            lang,
            times_after: vec![None; plies],
        };
        let mut out = Vec::new();
        if tb.setup.duty != Duty::Arbiter {
            out.push(answer(tb.welcome()));
        }
        tb.translate(effects, &mut out);
        (tb, out)
    }

    fn welcome(&self) -> String {
        let a = &self.lang.assist;
        let blind = self.setup.blind;
        let served = match self.setup.duty {
            Duty::Sighted => fill(&a.welcome_sighted, &[("color", self.lang.color(!blind))]),
            _ => fill(&a.welcome_blind, &[("color", self.lang.color(blind))]),
        };
        let mut parts = vec![served];
        for seat in Seat::BOTH {
            let color = self.lang.color(self.setup.color(seat));
            let template = match (seat, self.setup.has_board(seat)) {
                (Seat::Blind, true) => &a.blind_on_board,
                (Seat::Sighted, true) => &a.sighted_on_board,
                (_, false) => &a.typed,
            };
            parts.push(fill(template, &[("color", color)]));
        }
        if let Some(tc) = &self.setup.control {
            parts.push(control_words(tc, self.lang));
        }
        parts.push(super::queries::turn(self.game().position(), self.lang));
        parts.join(". ")
    }

    pub fn game(&self) -> &Game {
        self.m.game()
    }

    pub fn game_match(&self) -> &Match {
        &self.m
    }

    pub fn setup(&self) -> &TwoBoardSetup {
        &self.setup
    }

    pub fn clock(&self) -> Option<&crate::clock::Clock> {
        self.m.clock()
    }

    /// The low-clock sound when a side's time first falls under `threshold` (none: never).
    pub fn set_low_clock(&mut self, threshold: Option<std::time::Duration>, now: Timestamp) {
        self.m.set_low_clock(threshold, now);
    }

    /// Continues with the clock as the record left it.
    pub fn restore_clock(
        &mut self,
        snapshot: &crate::record::ClockSnapshot,
        moves: shakmaty::ByColor<u32>,
        now: Timestamp,
    ) {
        self.m.restore_clock(snapshot, moves, now);
    }

    /// The game stands adjourned with this sealed move (continued from its record).
    pub fn restore_adjournment(&mut self, sealed: Move) {
        self.m.restore_adjournment(sealed);
    }

    pub fn is_adjourned(&self) -> bool {
        self.m.is_adjourned()
    }

    /// A board as the screens show it.
    pub(crate) fn board(&self, seat: Seat) -> BoardState {
        let b = &self.boards[seat.index()];
        let official = self.official();
        let to_execute = match relation(&b.record, &official) {
            Relation::Behind(n) => official[official.len() - n..].to_vec(),
            _ => Vec::new(),
        };
        BoardState {
            present: b.present,
            connected: b.connected,
            to_execute,
            alert: b.alert.clone(),
        }
    }

    /// The alerts standing now.
    pub fn alerts(&self) -> Vec<(Seat, Alert)> {
        Seat::BOTH
            .into_iter()
            .filter_map(|s| self.boards[s.index()].alert.clone().map(|a| (s, a)))
            .collect()
    }

    /// A board's state in words: "stimmt", "auszuführen: Eva vier", or its alert.
    pub fn board_words(&self, seat: Seat) -> String {
        let w = &self.lang.arbiter;
        let state = self.board(seat);
        if !state.present {
            return w.no_board.clone();
        }
        if let Some(alert) = &state.alert {
            return self.alert_detail(seat, alert);
        }
        if state.to_execute.is_empty() {
            return w.in_sync.clone();
        }
        let mut pos = self.position_at(self.official().len() - state.to_execute.len());
        let moves: Vec<String> = state
            .to_execute
            .iter()
            .map(|&m| {
                let text = announce(&pos, m, self.lang, self.setup.form);
                pos.play_unchecked(m);
                text
            })
            .collect();
        fill(&w.to_execute, &[("moves", &moves.join(", "))])
    }

    fn official(&self) -> Vec<Move> {
        self.game().moves().iter().map(|p| p.mv).collect()
    }

    fn position_at(&self, ply: usize) -> Chess {
        self.game()
            .position_at(ply)
            .cloned()
            .unwrap_or_else(|| self.game().position().clone())
    }

    fn board_name(&self, seat: Seat) -> String {
        fill(
            &self.lang.record.board_of,
            &[("color", self.lang.color(self.setup.color(seat)))],
        )
    }
}

impl Machine for TwoBoards {
    type Event = Event;
    type Effect = Effect;

    fn handle(&mut self, event: Event, now: Timestamp) -> Vec<Effect> {
        let mut out = Vec::new();
        match event {
            Event::Tick => {
                let effects = self.m.handle(session::Event::Tick, now);
                self.translate(effects, &mut out);
            }
            Event::Board { seat, recognition } => {
                self.board_input(seat, recognition, now, &mut out)
            }
            Event::Connection { seat, connected } => {
                let b = &mut self.boards[seat.index()];
                if b.present && b.connected != connected {
                    b.connected = connected;
                    let text = if connected {
                        &self.lang.arbiter.reconnected
                    } else {
                        &self.lang.arbiter.disconnected
                    };
                    let text = fill(text, &[("board", &self.board_name(seat))]);
                    let urgency = if connected {
                        Urgency::Answer
                    } else {
                        Urgency::Urgent
                    };
                    out.push(say(urgency, text));
                    self.evaluate(seat, &mut out, true);
                }
            }
            Event::Line(text) => self.line(&text, now, &mut out),
            Event::Command(c) => {
                let effects = self.m.handle(session::Event::Command(c), now);
                self.translate(effects, &mut out);
            }
            Event::Action(a) => self.action(a, now, &mut out),
        }
        out
    }

    /// The next instant something falls due (a flag).
    fn next_deadline(&self, now: Timestamp) -> Option<Timestamp> {
        self.m.next_deadline(now)
    }
}

impl TwoBoards {
    /// Carries the match's effects over, with what a two-board game adds to them.
    fn translate(&mut self, effects: Vec<session::Effect>, out: &mut Vec<Effect>) {
        let flag_claim = self.setup.duty == Duty::Blind;
        let mut claim: Option<Color> = None;
        for e in effects {
            match e {
                session::Effect::Common(Common::Say { urgency, lines }) => {
                    out.push(Effect::Common(Common::Say { urgency, lines }))
                }
                session::Effect::Record(r) => {
                    match &r {
                        Recorded::Move { clock, .. } => self.times_after.push(*clock),
                        Recorded::TakenBack(_) => {
                            self.times_after.pop();
                        }
                        // D9e: the assistant claims the win when the opponent's flag falls.
                        Recorded::FlagFell { color }
                            if flag_claim && *color != self.setup.blind =>
                        {
                            claim = Some(self.setup.blind);
                        }
                        Recorded::Ended(_) => {
                            if let Some(winner) = claim.take() {
                                out.push(say(
                                    Urgency::Urgent,
                                    fill(
                                        &self.lang.assist.flag_claimed,
                                        &[("color", self.lang.color(winner))],
                                    ),
                                ));
                            }
                        }
                        _ => {}
                    }
                    out.push(Effect::Record(r));
                }
                // A two-board game has no engine: the session never asks for advice.
                session::Effect::EngineAdvice { .. } => {}
                // Its match has no explorer: `explorer` is answered as not here.
                session::Effect::Explore(_) => {}
                // The finished game is judged and walked through with hector analyse.
                session::Effect::Analyse => {
                    out.push(say(Urgency::Answer, self.lang.walk.elsewhere.clone()))
                }
                session::Effect::BoardPromotion(role) => {
                    if let Some(seat) = Seat::BOTH
                        .into_iter()
                        .find(|s| self.boards[s.index()].promotion)
                    {
                        self.boards[seat.index()].promotion = false;
                        out.push(Effect::Promotion { seat, role });
                    }
                }
                session::Effect::Common(Common::Speech(c)) => {
                    out.push(Effect::Common(Common::Speech(c)))
                }
                session::Effect::Common(Common::Refused) => {
                    out.push(Effect::Common(Common::Refused))
                }
                session::Effect::Common(Common::Cue(c)) => out.push(Effect::Common(Common::Cue(c))),
                // The assistant announces both players' moves as Appendix D words them.
                session::Effect::Label(l) => out.push(Effect::Label(l)),
                session::Effect::Save(p) => out.push(Effect::Save(p)),
                session::Effect::Common(Common::Quit) => out.push(Effect::Common(Common::Quit)),
                session::Effect::NewGame | session::Effect::Rematch => {
                    out.push(answer(self.lang.assist.no_new_game.clone()))
                }
                // No engine plays here, and the boards are followed below.
                session::Effect::EngineThink
                | session::Effect::EngineStop
                | session::Effect::EngineRestart
                | session::Effect::EngineGone
                | session::Effect::BoardExpect { .. } => {}
            }
        }
    }

    /// After the game's record changed: the boards are compared again.
    fn after_game_change(&mut self, out: &mut Vec<Effect>) {
        for seat in Seat::BOTH {
            self.evaluate(seat, out, false);
        }
    }

    fn board_input(&mut self, seat: Seat, r: Recognition, now: Timestamp, out: &mut Vec<Effect>) {
        if !self.boards[seat.index()].present {
            return;
        }
        let owner = self.setup.color(seat);
        match r {
            Recognition::Moved(m) => self.board_moved(seat, m, now, out),
            Recognition::Touched { square, piece } => {
                let b = &self.boards[seat.index()];
                let in_order = relation(&b.record, &self.official()) == Relation::Same;
                if in_order
                    && piece.color == owner
                    && self.game().turn() == owner
                    && !self.game().is_over()
                {
                    // D9e: the assistant tells the arbiter what the sighted player touched.
                    let report = seat == Seat::Sighted && self.setup.duty != Duty::Sighted;
                    let effects = self.m.touch(square, piece, report);
                    self.translate(effects, out);
                }
            }
            Recognition::PromotionChoiceNeeded { from, to } => {
                self.board_promotion(seat, from, to, out)
            }
            Recognition::Mismatch(diffs) => {
                self.boards[seat.index()].deviation = diffs;
                if !self.catch_up(seat, now, out) {
                    self.evaluate(seat, out, false);
                }
            }
            Recognition::Matches => {
                self.boards[seat.index()].deviation.clear();
                self.boards[seat.index()].setting_up = false;
                self.evaluate(seat, out, false);
            }
            Recognition::TakeBack => self.board_took_back(seat, out),
        }
    }

    /// A move on a board: the game's move when it is the owner's, in order and in time; else
    /// the board catches up with the game, or falls out of order.
    fn board_moved(&mut self, seat: Seat, m: Move, now: Timestamp, out: &mut Vec<Effect>) {
        let owner = self.setup.color(seat);
        let official = self.official();
        let b = &mut self.boards[seat.index()];
        let before = relation(&b.record, &official);
        let mover = b.position.turn();
        b.record.push(m);
        b.position.play_unchecked(m);
        b.deviation.clear();
        b.promotion = false;
        let own_move = before == Relation::Same
            && mover == owner
            && self.game().turn() == owner
            && !self.game().is_over()
            && !self.m.is_adjourned();
        if own_move {
            let effects = self.m.board_move(m, now);
            self.translate(effects, out);
            self.hint_execution(seat, out);
            self.after_game_change(out);
        } else {
            if before == Relation::Behind(1)
                && relation(&self.boards[seat.index()].record, &official) == Relation::Same
                && seat == Seat::Blind
                && self.setup.duty == Duty::Blind
            {
                out.push(answer(self.lang.play.executed.clone()));
            }
            self.evaluate(seat, out, false);
        }
    }

    /// A pawn reached the last rank on a board that cannot tell the piece: the game's piece
    /// when the board carries out the opponent's promotion, else the player (or the arbiter)
    /// is asked.
    fn board_promotion(&mut self, seat: Seat, from: Square, to: Square, out: &mut Vec<Effect>) {
        let official = self.official();
        let b = &self.boards[seat.index()];
        let pending = match relation(&b.record, &official) {
            Relation::Behind(n) => official.get(official.len() - n).copied(),
            _ => None,
        };
        match pending {
            // Carrying out the opponent's promotion: the game knows the piece.
            Some(m) if m.from() == Some(from) && m.to() == to => {
                if let Some(role) = m.promotion() {
                    out.push(Effect::Promotion { seat, role });
                }
            }
            _ => {
                self.boards[seat.index()].promotion = true;
                if self.setup.duty == Duty::Arbiter {
                    out.push(say(
                        Urgency::Urgent,
                        fill(
                            &self.lang.arbiter.promotion_wait,
                            &[
                                ("board", &self.board_name(seat)),
                                ("square", &self.lang.square(to)),
                            ],
                        ),
                    ));
                } else {
                    let e = self.m.ask_promotion();
                    self.translate(vec![e], out);
                }
            }
        }
    }

    /// A board's last move taken back: its record and position, and what it must show now.
    fn board_took_back(&mut self, seat: Seat, out: &mut Vec<Effect>) {
        let start = self.game().start().clone();
        let b = &mut self.boards[seat.index()];
        if b.record.pop().is_some() {
            let mut pos = start;
            for &m in &b.record[..b.record.len().saturating_sub(1)] {
                pos.play_unchecked(m);
            }
            let previous = b.record.last().map(|_| Box::new(pos.clone()));
            if let Some(&last) = b.record.last() {
                pos.play_unchecked(last);
            }
            b.position = pos.clone();
            b.deviation.clear();
            out.push(Effect::Expect {
                seat,
                position: Box::new(pos),
                previous,
                setup: false,
            });
            self.evaluate(seat, out, false);
        }
    }

    /// D9a: a move to be carried out on a board nobody reads is said, with the board.
    fn hint_execution(&self, mover: Seat, out: &mut Vec<Effect>) {
        let target = mover.other();
        if self.setup.duty != Duty::Arbiter && !self.setup.has_board(target) {
            out.push(answer(fill(
                &self.lang.assist.execute_on,
                &[("color", self.lang.color(self.setup.color(target)))],
            )));
        }
    }

    /// A board behind the game settled where its recognizer could not follow in one move:
    /// the game's position (the moves carried out at once), or that position and the
    /// player's own move. Whether it was taken so.
    fn catch_up(&mut self, seat: Seat, now: Timestamp, out: &mut Vec<Effect>) -> bool {
        let official = self.official();
        let b = &self.boards[seat.index()];
        let rel = relation(&b.record, &official);
        if !matches!(rel, Relation::Same | Relation::Behind(_)) {
            return false;
        }
        let picture = shown(&b.position, &b.deviation);
        // The board shows an earlier position of the game (a game continued from its record
        // while a board still lacked the last moves): those moves are still to be made there.
        for back in 1..=MAX_BEHIND.min(b.record.len()) {
            let ply = b.record.len() - back;
            let earlier = self.position_at(ply);
            if relation::fits(&picture, &earlier) {
                let b = &mut self.boards[seat.index()];
                b.record.truncate(ply);
                b.position = earlier.clone();
                b.deviation.clear();
                out.push(Effect::Expect {
                    seat,
                    position: Box::new(earlier),
                    previous: None,
                    setup: false,
                });
                self.evaluate(seat, out, false);
                return true;
            }
        }
        if rel == Relation::Same {
            return false;
        }
        let owner = self.setup.color(seat);
        let target = self.game().position().clone();
        let Some(own) = caught_up(&picture, &target, owner) else {
            return false;
        };
        let b = &mut self.boards[seat.index()];
        b.record = official;
        b.position = target.clone();
        b.deviation.clear();
        let mut expected = target.clone();
        let mut previous = None;
        if let Some(m) = own {
            previous = Some(Box::new(target.clone()));
            expected.play_unchecked(m);
            b.record.push(m);
            b.position = expected.clone();
        }
        out.push(Effect::Expect {
            seat,
            position: Box::new(expected),
            previous,
            setup: false,
        });
        match own {
            Some(m) if !self.game().is_over() && !self.m.is_adjourned() => {
                let effects = self.m.board_move(m, now);
                self.translate(effects, out);
                self.hint_execution(seat, out);
                self.after_game_change(out);
            }
            _ => self.evaluate(seat, out, false),
        }
        true
    }

    /// Compares a board with the game and tells what changed: a new alert, a changed one, or
    /// one resolved. `quiet`: the change was said already (a connection).
    fn evaluate(&mut self, seat: Seat, out: &mut Vec<Effect>, quiet: bool) {
        let b = &self.boards[seat.index()];
        if !b.present {
            return;
        }
        let official = self.official();
        let owner = self.setup.color(seat);
        let alert = if !b.connected {
            Some(Alert::Disconnected)
        } else {
            match relation(&b.record, &official) {
                Relation::Differs { shared } => Some(Alert::Records { shared }),
                Relation::Ahead(_) => Some(Alert::Ahead),
                Relation::Same | Relation::Behind(_) if b.deviation.is_empty() => None,
                Relation::Same | Relation::Behind(_) => {
                    let pending = &official[b.record.len()..];
                    let hand =
                        self.game().turn() == owner && !self.game().is_over() && !b.setting_up;
                    let wrong = wrong_squares(
                        &shown(&b.position, &b.deviation),
                        &b.position,
                        self.game().position(),
                        pending,
                        hand,
                    );
                    (!wrong.is_empty()).then_some(Alert::Position(wrong))
                }
            }
        };
        let old = b.alert.clone();
        if old == alert {
            return;
        }
        self.boards[seat.index()].alert = alert.clone();
        match (&old, &alert) {
            (_, Some(Alert::Disconnected)) | (Some(Alert::Disconnected), None) => {}
            (Some(Alert::Disconnected), Some(a)) | (None, Some(a)) => {
                self.raise(seat, a, out);
            }
            (Some(_), Some(a)) => {
                // The same kind of trouble, changed: said again, recorded once.
                let text = self.alert_text(seat, a);
                if !quiet {
                    out.push(say(Urgency::Urgent, text));
                }
            }
            (Some(_), None) => {
                out.push(Effect::Record(Recorded::Reconciled {
                    board: owner,
                    how: Reconciled::Board,
                }));
                if !quiet {
                    // Said as the alarm was: whoever heard the trouble hears it is over (the
                    // arbiter's console says only urgent news unasked).
                    out.push(say(
                        Urgency::Urgent,
                        fill(
                            &self.lang.arbiter.in_order,
                            &[("board", &self.board_name(seat))],
                        ),
                    ));
                }
            }
            (None, None) => {}
        }
    }

    fn raise(&self, seat: Seat, alert: &Alert, out: &mut Vec<Effect>) {
        let agreed = match alert {
            Alert::Records { shared } => Some(u32::try_from(*shared).unwrap_or(u32::MAX)),
            _ => None,
        };
        out.push(Effect::Record(Recorded::Mismatch {
            board: self.setup.color(seat),
            agreed,
            detail: self.alert_detail(seat, alert),
        }));
        out.push(say(Urgency::Urgent, self.alert_text(seat, alert)));
    }

    /// The alert as said: the board, what is wrong, what to do.
    fn alert_text(&self, seat: Seat, alert: &Alert) -> String {
        let w = &self.lang.arbiter;
        let board = self.board_name(seat);
        let detail = self.alert_detail(seat, alert);
        let template = match alert {
            Alert::Records { .. } => &w.alert_records,
            Alert::Ahead => &w.alert_ahead,
            Alert::Position(_) => &w.alert_position,
            Alert::Disconnected => &w.alert_disconnected,
        };
        fill(template, &[("board", &board), ("detail", &detail)])
    }

    /// What is wrong, without the board's name.
    fn alert_detail(&self, seat: Seat, alert: &Alert) -> String {
        let w = &self.lang.arbiter;
        let b = &self.boards[seat.index()];
        match alert {
            Alert::Records { shared } => {
                let official = self.official();
                let pos = self.position_at(*shared);
                let words = |m: Option<&Move>| {
                    m.map_or_else(String::new, |&m| {
                        announce(&pos, m, self.lang, self.setup.form)
                    })
                };
                let point = ply_number(self.game().start(), *shared as u32);
                fill(
                    &w.records_differ,
                    &[
                        ("found", &words(b.record.get(*shared))),
                        ("expected", &words(official.get(*shared))),
                        ("agreed", &agreed_words(point, self.lang)),
                    ],
                )
            }
            Alert::Ahead => {
                let n = self.official().len();
                let pos = self.position_at(n);
                let mv = b
                    .record
                    .get(n)
                    .map(|&m| announce(&pos, m, self.lang, self.setup.form))
                    .unwrap_or_default();
                fill(&w.ahead, &[("move", &mv)])
            }
            Alert::Position(diffs) => board_words::mismatch(diffs, self.lang),
            Alert::Disconnected => w.unplugged.clone(),
        }
    }

    fn line(&mut self, text: &str, now: Timestamp, out: &mut Vec<Effect>) {
        // The players' commands and moves first; an arbiter's command when marked ("sr …")
        // or when the players' language has no such word.
        let marked = has_prefix(text);
        let players = if marked { None } else { Some(read_line(text)) };
        match players {
            // The players' take-back and abort are not offered here: the words are the
            // arbiter's ("zurücknehmen", "abbrechen").
            Some(Ok(Line::Command(Command::Takeback | Command::Abort))) => {
                match parse_action(text) {
                    Ok(a) => self.action(a, now, out),
                    Err(ActionError::NotAnAction) => {
                        out.push(answer(self.lang.takeback.not_here.clone()))
                    }
                    Err(e) => out.push(answer(self.action_error(&e))),
                }
            }
            Some(Ok(Line::Command(_) | Line::Empty)) | Some(Err(_)) => {
                let effects = self.m.handle(session::Event::Line(text.to_string()), now);
                self.translate(effects, out);
                self.after_game_change(out);
            }
            _ => match parse_action(text) {
                Ok(a) => self.action(a, now, out),
                Err(ActionError::NotAnAction) if !marked => {
                    // A move, for a side without a board (or a board that failed).
                    let before = self.game().ply();
                    let effects = self.m.handle(session::Event::Line(text.to_string()), now);
                    self.translate(effects, out);
                    if self.game().ply() > before {
                        let mover = self.setup.seat(!self.game().turn());
                        self.hint_execution(mover, out);
                        if self.setup.has_board(mover) {
                            self.hint_own_board(mover, out);
                        }
                    }
                    self.after_game_change(out);
                }
                Err(e) => out.push(answer(self.action_error(&e))),
            },
        }
    }

    /// A move typed for a side that has a board: it must be made on that board too.
    fn hint_own_board(&self, seat: Seat, out: &mut Vec<Effect>) {
        if self.setup.duty != Duty::Arbiter {
            out.push(answer(fill(
                &self.lang.assist.execute_on,
                &[("color", self.lang.color(self.setup.color(seat)))],
            )));
        }
    }

    fn action_error(&self, e: &ActionError) -> String {
        action_error_words(e, self.lang)
    }

    fn action(&mut self, a: Action, now: Timestamp, out: &mut Vec<Effect>) {
        // D10: announcing and carrying out only (9a, 9b).
        if self.setup.duty == Duty::Sighted && matches!(a, Action::Seal { .. } | Action::Open) {
            out.push(answer(self.lang.assist.not_in_d10.clone()));
            return;
        }
        let effects = match a {
            Action::Pause => self.m.pause_clock(now),
            Action::Resume => self.m.resume_clock(now),
            Action::Time { color, change } => self.m.change_time(color, change, now),
            Action::Moves { color, moves } => self.m.set_move_count(color, moves, now),
            Action::Penalty { offender } => self.m.penalize(offender, now),
            Action::Illegal { by } => self.m.declare_illegal_move(by, now),
            Action::Claim { intended } => {
                let by = self.game().turn();
                self.m.claim_for(by, intended, now)
            }
            Action::Draw => self.m.agree_draw(now),
            Action::Result(r) => self.m.decide_result(r, now),
            Action::Confirm => return self.confirm(now, out),
            Action::Correct(color) => return self.correct(self.setup.seat(color), out),
            Action::Promote(role) => {
                match Seat::BOTH
                    .into_iter()
                    .find(|s| self.boards[s.index()].promotion)
                {
                    Some(seat) => {
                        self.boards[seat.index()].promotion = false;
                        out.push(Effect::Promotion { seat, role });
                    }
                    None => out.push(answer(self.lang.arbiter.no_promotion.clone())),
                }
                return;
            }
            Action::Seal { text, resumption } => return self.seal(&text, resumption, now, out),
            Action::Open => {
                let effects = self.m.open_envelope(now);
                self.translate(effects, out);
                self.after_game_change(out);
                return;
            }
            Action::Note(text) => self.m.note(&text),
        };
        self.translate(effects, out);
        self.after_game_change(out);
    }

    /// D2.8, the records disagree: the game goes back to the last move both share.
    fn confirm(&mut self, now: Timestamp, out: &mut Vec<Effect>) {
        let target = Seat::BOTH
            .into_iter()
            .filter_map(|s| match self.boards[s.index()].alert {
                Some(Alert::Records { shared }) => Some((s, shared)),
                _ => None,
            })
            .min_by_key(|&(_, shared)| shared);
        let Some((seat, shared)) = target else {
            out.push(answer(self.lang.arbiter.nothing_to_confirm.clone()));
            return;
        };
        // The envelope holds the position before the sealed move until it is opened (E9).
        if self.m.is_adjourned() && shared < self.game().ply() {
            out.push(answer(self.lang.arbiter.adjourned_wait.clone()));
            return;
        }
        let times = self
            .times_after
            .get(shared.wrapping_sub(1))
            .copied()
            .flatten();
        let effects = self.m.take_back_to(shared, now);
        self.translate(effects, out);
        out.push(Effect::Record(Recorded::Reconciled {
            board: self.setup.color(seat),
            how: Reconciled::TakenBack,
        }));
        let position = self.game().position().clone();
        let record = self.official();
        for s in Seat::BOTH {
            let b = &mut self.boards[s.index()];
            b.record = record.clone();
            b.position = position.clone();
            b.deviation.clear();
            // Resolved by the take-back; a board that still shows something else is named
            // again when it settles.
            b.alert = None;
            b.setting_up = true;
            if b.present {
                out.push(Effect::Expect {
                    seat: s,
                    position: Box::new(position.clone()),
                    previous: None,
                    setup: true,
                });
            }
        }
        let w = &self.lang.arbiter;
        let point = ply_number(self.game().start(), shared as u32);
        let mut lines = vec![fill(
            &w.taken_back,
            &[("agreed", &agreed_words(point, self.lang))],
        )];
        if let Some(shakmaty::ByColor { white, black }) = times {
            lines.push(fill(
                &w.times_then,
                &[
                    (
                        "white",
                        &format!("{} {}", self.lang.color(Color::White), clock_face(white)),
                    ),
                    (
                        "black",
                        &format!("{} {}", self.lang.color(Color::Black), clock_face(black)),
                    ),
                ],
            ));
        }
        out.push(Effect::Common(Common::Say {
            urgency: Urgency::Answer,
            lines,
        }));
    }

    /// D2.8, the arbiter's decision: the board is to follow the game's record.
    fn correct(&mut self, seat: Seat, out: &mut Vec<Effect>) {
        let b = &self.boards[seat.index()];
        if !b.present {
            out.push(answer(self.lang.arbiter.no_board.clone()));
            return;
        }
        let record = self.official();
        let position = self.game().position().clone();
        let b = &mut self.boards[seat.index()];
        b.record = record;
        b.position = position.clone();
        b.deviation.clear();
        b.alert = None;
        b.setting_up = true;
        out.push(Effect::Record(Recorded::Reconciled {
            board: self.setup.color(seat),
            how: Reconciled::Arbiter,
        }));
        out.push(Effect::Expect {
            seat,
            position: Box::new(position),
            previous: None,
            setup: true,
        });
        out.push(answer(fill(
            &self.lang.arbiter.corrected,
            &[("board", &self.board_name(seat))],
        )));
    }

    /// Appendix E1: the player to move seals a move; it is not played.
    fn seal(&mut self, text: &str, resumption: String, now: Timestamp, out: &mut Vec<Effect>) {
        let m = match parse_move_in(text, self.game().position(), self.lang) {
            Ok(m) => m,
            Err(e) => {
                out.push(answer(message(&e, self.game().position(), self.lang)));
                return;
            }
        };
        let mut envelope = Envelope::seal(self.game(), self.m.clock(), m, now);
        envelope.resumption = resumption;
        match self.m.adjourn(m, now) {
            Ok(effects) => {
                self.translate(effects, out);
                out.push(Effect::Envelope(Box::new(envelope)));
            }
            Err(_) => out.push(answer(self.lang.messages.game_over.clone())),
        }
    }
}

/// What is missing from an arbiter's command, in words.
pub fn action_error_words(e: &ActionError, lang: &Language) -> String {
    let w = &lang.arbiter;
    match e {
        ActionError::NotAnAction => w.unknown_command.clone(),
        ActionError::NeedsColor => w.needs_color.clone(),
        ActionError::NeedsTime => w.needs_time.clone(),
        ActionError::NeedsNumber => w.needs_number.clone(),
        ActionError::NeedsResult => w.needs_result.clone(),
        ActionError::NeedsPiece => w.needs_piece.clone(),
        ActionError::NeedsMove => w.needs_move.clone(),
        ActionError::NeedsText => w.needs_text.clone(),
    }
}

#[cfg(test)]
mod tests;
