//! The match logic of `hector play`: one game, its clock, and who plays each side. Pure:
//! every call takes the current instant and returns the effects for the adapters to carry
//! out (speak, record, ask the engine, guide the board), in order. A move is recorded before
//! it is announced, so that nothing announced is ever lost.

use std::time::Duration;

use shakmaty::{ByColor, Chess, Color, Move, Position, Role, Square};

use super::command::{Command, CommandError, Line, read_line};
use super::queries;
use super::question::{self, Asked, Question};
use crate::board::Recognition;
use crate::clock::{AnnounceSettings, Announcement, Announcer, Clock, TimeControl};
use crate::cue::{self, Cue};
use crate::game::{ClaimVerdict, Game, GameError, MoveReport};
use crate::laws::{ClaimKind, Penalty, Rules};
use crate::machine::Machine;
use crate::notation::board_words;
use crate::notation::clock_words::{announcement_words, duration_words, summary_words};
use crate::notation::language::{Language, fill};
use crate::notation::parse::{ParseError, message, parse_move_in};
use crate::notation::speak::{Form, announce_san, announce_san_taking};
use crate::notation::vocabulary::fold;
use crate::notation::wording::Wording;
use crate::openings;
use crate::outcome::{Outcome, Termination};
use crate::record::ClockSnapshot;
pub use crate::record::entry::Reconciled;
use crate::time::Timestamp;

/// Who makes the moves of one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Typed or dictated at the terminal.
    Keyboard,
    /// The UCI engine.
    Engine,
    /// A board on a serial port (the local player's peg board, or the opponent's e-board).
    Board,
}

/// How the game is set up.
#[derive(Clone, Debug)]
pub struct Setup {
    pub white: Side,
    pub black: Side,
    /// The player hector serves: boards are read from this side, "you" is this colour.
    pub local: Color,
    /// The local player also has a board that must show every move (Appendix D2.1).
    pub local_board: bool,
    pub control: Option<TimeControl>,
    pub announce: AnnounceSettings,
    pub form: Form,
    pub rules: Rules,
    /// The engine's level (1..8), for what the player hears about the opponent.
    pub engine_level: u8,
    /// The opponent's board, for what the player hears about the opponent.
    pub opponent_port: Option<String>,
    /// What "clock" answers.
    pub clock_answer: ClockAnswer,
    /// Say the name of each newly reached named opening after the move.
    pub openings: bool,
    /// How much board readings and move announcements say.
    pub wording: Wording,
}

/// What the player hears on asking for the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockAnswer {
    /// Both remaining times and the move count.
    Remaining,
    /// D9d: the move count and the time each player has used (and has left).
    Used,
}

impl Setup {
    pub(crate) fn side(&self, c: Color) -> Side {
        c.fold_wb(self.white, self.black)
    }
}

pub use crate::machine::{Common, SpeechControl, Urgency};
use crate::machine::{answer, lines, say};

/// Something that happened in the game, for the record (the journal).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recorded {
    Move {
        mv: Move,
        by: Color,
        /// Both remaining times after the clock was pressed.
        clock: Option<ByColor<Duration>>,
    },
    Touched {
        by: Color,
        square: Square,
    },
    DrawOffered {
        by: Color,
    },
    DrawDeclined {
        by: Color,
    },
    DrawAccepted {
        by: Color,
    },
    Claim {
        by: Color,
        kind: ClaimKind,
        intended: Option<Move>,
        correct: bool,
    },
    Penalty(Penalty),
    IllegalMove {
        by: Color,
    },
    /// 5.1b.
    Resigned {
        by: Color,
    },
    /// 6.9: the flag of `color` fell.
    FlagFell {
        color: Color,
    },
    /// 6.11.
    BothFlags {
        in_last_period: bool,
    },
    Ended(Outcome),
    /// 6.12.
    ClockPaused,
    ClockResumed,
    /// 6.10, 7.1: the arbiter set a player's remaining time.
    ClockSet {
        color: Color,
        remaining: Duration,
    },
    /// 7.1: the arbiter set a player's move counter.
    MovesSet {
        color: Color,
        moves: u32,
    },
    /// The arbiter took this move back (D2.8).
    TakenBack(Move),
    /// D2.8: `board` (the colour of its player) differs; `agreed`: the half-moves both
    /// records share when they disagree.
    Mismatch {
        board: Color,
        agreed: Option<u32>,
        detail: String,
    },
    Reconciled {
        board: Color,
        how: Reconciled,
    },
    /// Appendix E: `by` sealed move number `move_number`.
    Adjourned {
        by: Color,
        move_number: u32,
    },
    AdjournmentResumed,
    /// A setting a resume needs (the envelope's file).
    Setting {
        key: String,
        value: String,
    },
    /// The arbiter's note.
    Note(String),
    /// The players agreed to take back moves (the `TakenBack` before it name them); `by`
    /// asked.
    TakebackAgreed {
        by: Color,
    },
    /// `by` refused the opponent's take-back request.
    TakebackDeclined {
        by: Color,
    },
    /// `by` abandoned the game before both sides had moved.
    Aborted {
        by: Color,
    },
}

/// Whose board an effect is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardOf {
    /// The local player's own board (a peg board, or an e-board).
    Player,
    /// The sighted opponent's e-board.
    Opponent,
}

/// What the adapters must do, in this order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// What every machine's effects share: words to say, the speech's controls, a refusal,
    /// the end.
    Common(Common),
    /// Write to the journal, and wait for the disk, before anything after it is said.
    Record(Recorded),
    /// The engine should find a move for the side to move.
    EngineThink,
    EngineStop,
    /// Start the engine again (it failed once); the adapter answers with
    /// [`Event::EngineRestarted`] or [`Event::EngineFailed`].
    EngineRestart,
    /// The engine is not tried any more: a person plays its side.
    EngineGone,
    /// A board must show this position: the local board an opponent's move to execute
    /// (D2.1), the sighted opponent's e-board the local player's move.
    BoardExpect {
        board: BoardOf,
        position: Box<Chess>,
        previous: Option<Box<Chess>>,
    },
    /// The piece for a promotion the player made on an occupancy-only board.
    BoardPromotion(Role),
    /// The next line said is the opponent's move: shown and heard after this label
    /// ("Schwarz", "Computer"), so that it is never taken for the player's own move.
    Label(String),
    /// Write the game as PGN (to this path, or a default one).
    Save(Option<String>),
    /// The player asked for a new game with the same setup.
    NewGame,
    /// A new game with the same settings and the colours swapped ([`Setup::swapped`]).
    Rematch,
    /// bewertung or tipp: the engine should judge the position after `ply` half-moves
    /// without disturbing its own play; the adapter answers with [`Event::EngineAdvice`].
    EngineAdvice {
        kind: AdviceKind,
        ply: usize,
    },
    /// `analyse` after the game: the engine should judge every position of the game; the
    /// adapter answers with [`Event::Analysed`] or [`Event::AnalysisFailed`].
    Analyse,
    /// The opening explorer should be asked about this position; the adapter answers with
    /// [`Event::Explored`].
    Explore(Box<Chess>),
}

/// Events the match reacts to.
#[derive(Clone, Debug)]
pub enum Event {
    /// A line typed at the terminal: a move or a command.
    Line(String),
    /// A command from a key (full-screen).
    Command(Command),
    EngineMove(Move),
    /// The engine failed (it hung, ended, or could not be asked): restarted once, then a
    /// person takes over ([`Effect::EngineRestart`], [`Effect::EngineGone`]).
    EngineFailed {
        reason: String,
    },
    /// The engine answered something that is not a legal move here.
    EngineRejected {
        reason: String,
    },
    /// The engine was started again after [`Effect::EngineRestart`].
    EngineRestarted,
    /// What the local player's board recognised.
    LocalBoard(Recognition),
    /// What the opponent's e-board recognised.
    OpponentBoard(Recognition),
    /// Time passed (the adapters wake the loop at `next_deadline`).
    Tick,
    /// The opening announcement has been said: a held clock starts.
    Ready,
    /// The engine's answer to [`Effect::EngineAdvice`]: how the position after `ply`
    /// half-moves stands and its best move there.
    EngineAdvice {
        kind: AdviceKind,
        ply: usize,
        eval: crate::analysis::Eval,
        best: Option<Move>,
    },
    /// The engine's answers to [`Effect::Analyse`]: one per position of the game, the start
    /// included, with its best line from there.
    Analysed {
        evals: Vec<crate::analysis::PositionEval>,
        lines: Vec<Vec<Move>>,
    },
    /// The game could not be analysed.
    AnalysisFailed {
        reason: String,
    },
    /// Walk through an analysed game (`hector analyse --walk`): the answer says the counts
    /// of each side's errors.
    Walk(Box<walk::Walk>),
    /// The explorer's reply about the position `fen` ([`Effect::Explore`]).
    Explored {
        fen: String,
        reply: crate::explorer::Reply,
    },
}

/// A question hector asked and waits an answer for.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Pending {
    None,
    /// "Umwandlung in welche Figur?" after a typed move without the piece.
    Promotion(String),
    /// "Kurze oder lange Rochade?" after "Rochade" while both are legal.
    Castling,
    /// A promotion on an occupancy-only board.
    BoardPromotion,
    /// "Wirklich aufgeben?": confirmed only by yes, answered by no; the command again asks
    /// again, and anything else lets it lapse.
    Resign,
    /// "Wirklich beenden?", likewise.
    Quit,
    /// "Eine neue Partie beginnen?" while a game runs, likewise.
    New,
    /// The opponent is asked to agree to a take-back by this colour: yes or no.
    Takeback(Color),
}

impl Pending {
    /// A question answered by yes or no; Enter or its own command asks it again.
    fn is_yes_no(&self) -> bool {
        matches!(
            self,
            Pending::Resign | Pending::Quit | Pending::New | Pending::Takeback(_)
        )
    }
}

pub struct Match {
    setup: Setup,
    lang: &'static Language,
    game: Game,
    clock: Option<Clock>,
    announcer: Option<Announcer>,
    /// The low-clock sound's watch, when the player wants it.
    low_clock: Option<cue::LowClock>,
    pending: Pending,
    /// The side of the position the local board is still to show, with the move that led
    /// there (for the guidance).
    board_behind: Option<Move>,
    /// Appendix E: the game is adjourned with this sealed move (not played yet).
    adjourned: Option<Move>,
    /// Pieces touched in the move in progress that are reported unless moved (D9e, 4.3).
    watched: Vec<(Color, Square, shakmaty::Piece)>,
    /// Why the record is not on the disk, while it is not (told by the adapter that writes
    /// it): the quit question must not say the game stays saved.
    unrecorded: Option<String>,
    /// The clock waits for the opening announcement (or the player's first action).
    held: bool,
    /// The engine's second chances: restarted once, an illegal answer asked for again once.
    engine_restarts: u8,
    engine_rejected: u8,
    /// Looking back at the position after this many half-moves (not recorded).
    review: Option<usize>,
    /// The piece picked up on the screen's board (not recorded).
    picked: Option<Square>,
    /// The opening last named after a move (with `Setup::openings`), so that each is said
    /// once.
    opening_said: Option<&'static openings::Opening>,
    /// What this mode offers besides the Laws (take-back, abort, rematch, …).
    extras: PlayExtras,
    /// Whether bewertung and tipp may ask the engine (session/advice.rs).
    advice: advice::Advice,
    /// The opening explorer's answers and rate limit (session/explore.rs); `None` where the
    /// mode has no explorer.
    explorer: Option<crate::explorer::memory::Memory>,
    /// Nothing was typed or asked since the last move (or the start): when that move handed
    /// the turn to a side not at this keyboard, the player waits for its reply.
    awaiting: bool,
    /// Moves typed while the opponent is to move are kept (session/premove.rs).
    premoves: bool,
    premove: Option<premove::Premove>,
    /// The opponent's name as the record gives it (session/opponent.rs).
    opponent_name: Option<String>,
    /// The analysed game walked through (session/walk.rs).
    walk: Option<Walk>,
    /// The walk's help was the last answer: `hilfe` again says every command of the walk.
    help: crate::matchplay::help::HelpAgain,
}

impl From<Common> for Effect {
    fn from(c: Common) -> Effect {
        Effect::Common(c)
    }
}

/// Ends the last answer among `out[from..]` with `words`, as one utterance (the speech
/// replaces an answer not yet spoken by a newer one); a new answer when there is none.
fn end_answer_with(out: &mut Vec<Effect>, from: usize, words: String) {
    let last = out.get_mut(from..).and_then(|tail| {
        tail.iter_mut().rev().find_map(|e| match e {
            Effect::Common(Common::Say {
                urgency: Urgency::Answer,
                lines,
            }) => lines.last_mut(),
            _ => None,
        })
    });
    match last {
        Some(last) => *last = format!("{last}. {words}"),
        None => out.push(answer(words)),
    }
}

impl Match {
    /// Starts a match on `game` (a fresh game, or one continued from a record). The clock,
    /// when there is one, starts at once with the side to move (6.6).
    pub fn new(
        setup: Setup,
        game: Game,
        lang: &'static Language,
        now: Timestamp,
    ) -> (Match, Vec<Effect>) {
        let (m, mut effects) = Match::start(setup, game, lang, now);
        effects.insert(0, m.welcome());
        (m, effects)
    }

    /// Like [`Match::new`], without the welcome (a mode that says its own).
    pub fn start(
        setup: Setup,
        game: Game,
        lang: &'static Language,
        now: Timestamp,
    ) -> (Match, Vec<Effect>) {
        let game = game.with_rules(setup.rules);
        let clock = setup.control.clone().map(Clock::new);
        let mut m = Match {
            setup,
            lang,
            game,
            clock,
            announcer: None,
            low_clock: None,
            pending: Pending::None,
            board_behind: None,
            adjourned: None,
            watched: Vec::new(),
            unrecorded: None,
            held: false,
            engine_restarts: 0,
            engine_rejected: 0,
            review: None,
            picked: None,
            opening_said: None,
            extras: PlayExtras::default(),
            advice: advice::Advice::default(),
            explorer: None,
            awaiting: true,
            premoves: false,
            premove: None,
            opponent_name: None,
            walk: None,
            help: Default::default(),
        };
        // A continued game's opening was named before: only a new one is said.
        if m.setup.openings {
            m.opening_said = openings::of_game(&m.game);
        }
        let mut effects = Vec::new();
        if !m.game.is_over() {
            let turn = m.game.turn();
            if let Some(c) = m.clock.as_mut()
                && c.start_with(turn, now).is_ok()
            {
                m.announcer = Some(Announcer::new(m.setup.announce.clone(), c, now));
            }
            if m.setup.side(turn) == Side::Engine {
                effects.push(Effect::EngineThink);
            }
        }
        (m, effects)
    }

    /// Continues with the clock as a record left it: the remaining and used times, the move
    /// counters (white, black), and a pause.
    pub fn restore_clock(&mut self, snapshot: &ClockSnapshot, moves: ByColor<u32>, now: Timestamp) {
        if let Some(c) = self.clock.as_mut() {
            let ms = Duration::from_millis;
            c.set_moves(Color::White, moves.white, now);
            c.set_moves(Color::Black, moves.black, now);
            for color in Color::ALL {
                c.set_remaining(color, ms(snapshot.times.of(color)), now);
                if let Some(used) = snapshot.used {
                    c.set_used(color, ms(used.of(color)));
                }
            }
            if snapshot.paused {
                let _ = c.pause(now);
            }
            self.announcer = Some(Announcer::new(self.setup.announce.clone(), c, now));
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The adapter that writes the journal tells whether the record is on the disk: `Some`
    /// with the reason while it is not, `None` once everything is written.
    pub fn set_unrecorded(&mut self, reason: Option<String>) {
        self.unrecorded = reason;
    }

    /// Whether a question waits for yes or no (resigning, quitting).
    #[cfg(test)]
    pub(crate) fn asks_confirmation(&self) -> bool {
        self.pending.is_yes_no()
    }

    /// The question that waits for its answer, in words (a screen keeps it in view).
    pub fn question(&self) -> Option<String> {
        match &self.pending {
            Pending::None => None,
            Pending::Promotion(_) | Pending::BoardPromotion => {
                Some(self.lang.play.promotion_question.clone())
            }
            question => Some(self.question_text(question)),
        }
    }

    /// The open question is answered by yes or no.
    pub fn asks_yes_no(&self) -> bool {
        self.pending.is_yes_no()
    }

    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    pub fn clock(&self) -> Option<&Clock> {
        self.clock.as_ref()
    }

    #[cfg(test)]
    pub(crate) fn lang(&self) -> &'static Language {
        self.lang
    }

    /// The player waits for the opponent's move (the computer, the e-board, the server):
    /// nothing was typed or asked since the turn went to a side not at this keyboard. Line
    /// mode shows no prompt then: the reply brings it, so that the prompt stands once,
    /// after the last line.
    pub fn awaits_reply(&self) -> bool {
        let turn = self.game.turn();
        self.awaiting
            && !self.game.is_over()
            && turn != self.setup.local
            && self.setup.side(turn) != Side::Keyboard
    }

    /// The player typed or asked something that is not a move (a mode that reads some lines
    /// itself, as online chat): a prompt follows its answer.
    pub(crate) fn player_spoke(&mut self) {
        self.awaiting = false;
    }

    fn welcome(&self) -> Effect {
        let p = &self.lang.play;
        let opponent_side = self.setup.side(!self.setup.local);
        let opponent = match opponent_side {
            Side::Engine => fill(
                &p.opponent_engine,
                &[("level", &self.setup.engine_level.to_string())],
            ),
            Side::Keyboard => p.opponent_keyboard.clone(),
            Side::Board => fill(
                &p.opponent_board,
                &[("port", self.setup.opponent_port.as_deref().unwrap_or("?"))],
            ),
        };
        let mut parts = vec![format!(
            "{} {}",
            fill(&p.you_play, &[("color", self.lang.color(self.setup.local))]),
            fill(&p.against, &[("opponent", &opponent)])
        )];
        if let Some(tc) = &self.setup.control {
            parts.push(crate::notation::clock_words::control_words(tc, self.lang));
        }
        // A game from another start (Chess960, a FEN) says where the pieces stand.
        if self.game.ply() == 0
            && let Some(words) = queries::start_position(self.game.start(), self.lang)
        {
            parts.push(words);
        }
        match self.game.outcome() {
            Some(o) => parts.push(self.outcome_text(o)),
            None => parts.push(queries::turn(self.game.position(), self.lang)),
        }
        answer(parts.join(". "))
    }

    /// The clock waits until the opening announcement has been said ([`Event::Ready`]) or
    /// the player does anything: nobody's time runs while hector speaks first. A clock the
    /// record left stopped in this wait stays held too.
    pub fn hold_clock(&mut self, now: Timestamp) {
        if self.game.is_over() {
            return;
        }
        if let Some(c) = self.clock.as_mut()
            && c.hold(now).is_ok()
        {
            self.held = true;
            self.announcer = None;
        }
    }

    fn release_clock(&mut self, now: Timestamp) {
        if !std::mem::take(&mut self.held) || self.game.is_over() {
            return;
        }
        let turn = self.game.turn();
        if let Some(c) = self.clock.as_mut()
            && c.start_with(turn, now).is_ok()
        {
            self.announcer = Some(Announcer::new(self.setup.announce.clone(), c, now));
        }
    }
}

impl Machine for Match {
    type Event = Event;
    type Effect = Effect;

    fn handle(&mut self, event: Event, now: Timestamp) -> Vec<Effect> {
        // Opening a walk is no move in time: the clock and the prompt stay as they are.
        if let Event::Walk(walk) = event {
            return self.open_walk(*walk);
        }
        let mut out = Vec::new();
        if !matches!(event, Event::Tick) {
            self.release_clock(now);
        }
        // Time first: a flag that fell before this event decides the game before it.
        self.tick(now, &mut out);
        if matches!(event, Event::Line(_) | Event::Command(_)) {
            self.awaiting = false;
            self.help.input();
        }
        match event {
            // A walk was opened above.
            Event::Tick | Event::Ready | Event::Walk(_) => {}
            Event::Line(text) => self.line(&text, now, &mut out),
            Event::Command(c) => self.command(c, now, &mut out),
            Event::EngineMove(m) => {
                self.engine_rejected = 0;
                if self.engine_to_move() {
                    self.play(m, false, now, &mut out);
                }
            }
            Event::EngineRejected { reason } => {
                // An answer that is not a legal move is asked for again once; a second one
                // counts as a failure.
                self.engine_rejected += 1;
                if self.engine_rejected < 2 {
                    if self.engine_to_move() {
                        out.push(Effect::EngineThink);
                    }
                } else {
                    self.engine_rejected = 0;
                    self.engine_failure(&reason, &mut out);
                }
            }
            Event::EngineFailed { reason } => self.engine_failure(&reason, &mut out),
            Event::EngineRestarted => {
                out.push(answer(self.lang.play.engine_restarted.clone()));
                if self.engine_to_move() {
                    out.push(Effect::EngineThink);
                }
            }
            Event::LocalBoard(r) => self.local_board(r, now, &mut out),
            Event::OpponentBoard(r) => self.opponent_board(r, now, &mut out),
            Event::EngineAdvice {
                kind,
                ply,
                eval,
                best,
            } => self.advice_answer(kind, ply, eval, best, &mut out),
            e @ (Event::Analysed { .. } | Event::AnalysisFailed { .. }) => {
                self.walk_event(&e, &mut out);
            }
            Event::Explored { fen, reply } => self.explored(&fen, reply, now, &mut out),
        }
        out
    }

    /// The next instant something falls due: an announcement or a flag.
    fn next_deadline(&self, now: Timestamp) -> Option<Timestamp> {
        let clock = self.clock.as_ref()?;
        if self.game.is_over() {
            return None;
        }
        [
            clock.next_deadline(now),
            self.announcer
                .as_ref()
                .and_then(|a| a.next_instant(clock, now)),
            self.low_clock_instant(now),
        ]
        .into_iter()
        .flatten()
        .min()
    }
}

impl Match {
    /// A sound when a side's clock first falls under `threshold` (none when it is `None` or
    /// zero). The clocks are looked at now: a time already under it is no news.
    pub fn set_low_clock(&mut self, threshold: Option<Duration>, now: Timestamp) {
        self.low_clock = threshold.filter(|t| !t.is_zero()).map(cue::LowClock::new);
        self.watch_low_clock(now, &mut Vec::new());
    }

    /// The low-clock threshold set, if any (a new game keeps it).
    pub fn low_clock(&self) -> Option<Duration> {
        self.low_clock.as_ref().map(cue::LowClock::threshold)
    }

    /// The low-clock cue for each side whose time has just fallen under the threshold.
    fn watch_low_clock(&mut self, now: Timestamp, out: &mut Vec<Effect>) {
        let (Some(clock), Some(watch)) = (self.clock.as_ref(), self.low_clock.as_mut()) else {
            return;
        };
        for color in Color::ALL {
            if watch.fell_under(color, clock.remaining(color, now)) {
                out.push(Effect::Common(Common::Cue(vec![Cue::LowClock])));
            }
        }
    }

    /// When the running side's time reaches the threshold, if its cue may still come.
    fn low_clock_instant(&self, now: Timestamp) -> Option<Timestamp> {
        let clock = self.clock.as_ref()?;
        let watch = self.low_clock.as_ref()?;
        let color = clock.running()?;
        if !watch.pending(color) {
            return None;
        }
        let remaining = clock.remaining(color, now);
        // Just under it, so that the tick finds it fallen.
        let left = remaining.checked_sub(watch.threshold())?;
        Some(now + left + Duration::from_millis(1))
    }

    fn tick(&mut self, now: Timestamp, out: &mut Vec<Effect>) {
        if self.game.is_over() {
            return;
        }
        self.watch_low_clock(now, out);
        let (Some(clock), Some(announcer)) = (self.clock.as_ref(), self.announcer.as_mut()) else {
            return;
        };
        for a in announcer.due(clock, now) {
            match a {
                // Recorded only when the game takes it: a flag after the end (the other
                // flag fell first) changes nothing, and its entry would not replay.
                Announcement::FlagFell { color, .. } => {
                    if let Ok(outcome) = self.game.flag_fall(color) {
                        out.push(Effect::Record(Recorded::FlagFell { color }));
                        out.push(say(Urgency::Urgent, announcement_words(&a, self.lang)));
                        self.finish(outcome, now, out);
                    }
                }
                Announcement::BothFlags { in_last_period } => {
                    if let Ok(ended) = self.game.both_flags_fell(in_last_period) {
                        out.push(Effect::Record(Recorded::BothFlags { in_last_period }));
                        out.push(say(Urgency::Urgent, announcement_words(&a, self.lang)));
                        if let Some(outcome) = ended {
                            self.finish(outcome, now, out);
                        }
                    }
                }
                other => out.push(answer(announcement_words(&other, self.lang))),
            }
        }
    }

    fn line(&mut self, text: &str, now: Timestamp, out: &mut Vec<Effect>) {
        // An answer to a question hector asked comes first.
        match std::mem::replace(&mut self.pending, Pending::None) {
            Pending::Promotion(move_text) => {
                if let Ok(Line::Move(piece)) = read_line(text) {
                    let combined = format!("{move_text} {piece}");
                    if parse_move_in(&combined, self.game.position(), self.lang).is_ok()
                        || self.premove_possible(&combined)
                    {
                        self.typed_move(&combined, now, out);
                        return;
                    }
                }
            }
            Pending::Castling => {
                if let Some(side) = castling_answer(text) {
                    let words = crate::notation::speak::castling_words(self.lang, side);
                    self.typed_move(words, now, out);
                    return;
                }
            }
            Pending::BoardPromotion => {
                if let Some(role) = board_words::promotion_role(text) {
                    out.push(Effect::BoardPromotion(role));
                    return;
                }
                self.pending = Pending::BoardPromotion;
            }
            question @ (Pending::Resign | Pending::Quit | Pending::New | Pending::Takeback(_)) => {
                match read_line(text) {
                    // Enter alone asks again.
                    Ok(Line::Empty) => {
                        out.push(answer(self.question_text(&question)));
                        self.pending = question;
                        return;
                    }
                    // A command is the answer, the question again, or lets it lapse
                    // (`confirmation`).
                    Ok(Line::Command(_)) => self.pending = question,
                    // A move or a word that is none: the question lapses, and a line that
                    // is refused says so, since it may have been meant as the answer.
                    _ => {
                        let before = out.len();
                        self.line_unasked(text, now, out);
                        if out[before..].contains(&Effect::Common(Common::Refused)) {
                            self.say_lapsed(&question, before, out);
                        }
                        return;
                    }
                }
            }
            Pending::None => {}
        }
        self.line_unasked(text, now, out);
    }

    /// A typed line when no question waits for it.
    fn line_unasked(&mut self, text: &str, now: Timestamp, out: &mut Vec<Effect>) {
        match read_line(text) {
            Ok(Line::Empty) => {
                self.cancel_premove(out);
            }
            Ok(Line::Command(c)) => self.command(c, now, out),
            // The training's word for the solution is the walk's better line.
            Ok(Line::Move(m)) if self.walk().is_some() && walk::is_solution_word(&m) => {
                self.walk_command(&Command::Better, out)
            }
            Ok(Line::Move(m)) => self.typed_move(&m, now, out),
            Err(e) => {
                out.push(answer(self.command_error(&e)));
                out.push(Effect::Common(Common::Refused));
            }
        }
    }

    fn command_error(&self, e: &CommandError) -> String {
        command_error_message(e, self.lang)
    }

    fn typed_move(&mut self, text: &str, now: Timestamp, out: &mut Vec<Effect>) {
        if self.refused_in_review(out) {
            return;
        }
        let p = &self.lang.play;
        if self.game.is_over() {
            out.push(answer(self.lang.messages.game_over.clone()));
            return;
        }
        if self.premove_time() {
            self.keep_premove(text, out);
            return;
        }
        let turn = self.game.turn();
        match self.setup.side(turn) {
            Side::Engine => {
                out.push(answer(p.engine_thinking.clone()));
                return;
            }
            // The opponent moves on the e-board; the local player may type own moves even
            // with a peg board (the board then has to follow).
            Side::Board if turn != self.setup.local => {
                out.push(answer(fill(
                    &p.not_your_turn,
                    &[("color", self.lang.color(turn))],
                )));
                return;
            }
            _ => {}
        }
        match parse_move_in(text, self.game.position(), self.lang) {
            Ok(m) => self.play(m, false, now, out),
            Err(e) => {
                if e == ParseError::Illegal(crate::legality::Illegal::PromotionMissing) {
                    self.pending = Pending::Promotion(text.to_string());
                } else {
                    out.push(Effect::Common(Common::Refused));
                    out.push(Effect::Common(Common::Cue(vec![Cue::Illegal])));
                }
                if e == ParseError::WhichCastling {
                    self.pending = Pending::Castling;
                }
                out.push(answer(message(&e, self.game.position(), self.lang)));
            }
        }
    }

    /// Presses the clock for the move just played and records it with the times after the
    /// press. A press after the flag fell gives no time back: the flag decides (6.9), and the
    /// move is recorded without times.
    fn press_and_record(&mut self, m: Move, by: Color, now: Timestamp, out: &mut Vec<Effect>) {
        let mut times = None;
        if let Some(c) = self.clock.as_mut() {
            match c.press(by, now) {
                Ok(_) => times = Some(ByColor::new_with(|color| c.remaining(color, now))),
                // A move made while the clock cannot be pressed (the arbiter holds it, or a
                // flag is down in a game the arbiter reopened) still counts (7.1), and the
                // clock, as it stands, waits for the opponent.
                Err(_) => {
                    let moves = c.moves_completed(by).saturating_add(1);
                    c.set_moves(by, moves, now);
                    if c.give_move(!by, now).is_ok() {
                        times = Some(ByColor::new_with(|color| c.remaining(color, now)));
                    }
                }
            }
        }
        out.push(Effect::Record(Recorded::Move {
            mv: m,
            by,
            clock: times,
        }));
    }

    /// A move completed on a board (D2.3), in a mode that reads the boards itself.
    pub(crate) fn board_move(&mut self, m: Move, now: Timestamp) -> Vec<Effect> {
        let mut out = Vec::new();
        self.tick(now, &mut out);
        self.play(m, true, now, &mut out);
        out
    }

    /// D2.2, 4.3: the player to move touched a piece; recorded. When `report`ed (the
    /// assistant tells the arbiter when the sighted player touched a piece, D9e), a touched
    /// piece that is not the one then moved is said with the move (every move begins with a
    /// touch; only one that does not lead to moving that piece matters under 4.3).
    pub(crate) fn touch(
        &mut self,
        square: Square,
        piece: shakmaty::Piece,
        report: bool,
    ) -> Vec<Effect> {
        let by = self.game.turn();
        if piece.color != by || self.game.touch(by, square).is_err() {
            return Vec::new();
        }
        if report && !self.watched.iter().any(|&(_, sq, _)| sq == square) {
            self.watched.push((by, square, piece));
        }
        vec![Effect::Record(Recorded::Touched { by, square })]
    }

    /// 4.3: the watched pieces `by` touched and did not move with `m`, said after the move.
    fn touched_not_moved(&mut self, by: Color, m: Move, out: &mut Vec<Effect>) {
        let moved: Vec<Square> = match m {
            Move::Castle { king, rook } => vec![king, rook],
            other => other.from().into_iter().collect(),
        };
        for (color, square, piece) in std::mem::take(&mut self.watched) {
            if color == by && !moved.contains(&square) {
                out.push(answer(fill(
                    &self.lang.play.opponent_touched,
                    &[
                        ("color", self.lang.color(color)),
                        ("piece", self.lang.piece(piece.role)),
                        ("square", &self.lang.square(square)),
                    ],
                )));
            }
        }
    }

    /// A board cannot tell which piece a pawn became: the player's next line names it
    /// ([`Effect::BoardPromotion`]).
    pub(crate) fn ask_promotion(&mut self) -> Effect {
        self.pending = Pending::BoardPromotion;
        answer(self.lang.play.promotion_question.clone())
    }

    /// Plays a legal move, presses the clock, records, announces, and hands over.
    fn play(&mut self, m: Move, from_local_board: bool, now: Timestamp, out: &mut Vec<Effect>) {
        if self.adjourned.is_some() {
            out.push(answer(self.lang.arbiter.adjourned_wait.clone()));
            return;
        }
        let by = self.game.turn();
        let before = self.game.position().clone();
        let report: MoveReport = match self.game.play(m) {
            Ok(r) if self.pending.is_yes_no() => {
                self.pending = Pending::None;
                r
            }
            Ok(r) => r,
            Err(GameError::GameOver(_)) => {
                out.push(answer(self.lang.messages.game_over.clone()));
                return;
            }
            Err(_) => {
                out.push(answer(self.lang.messages.not_a_move.clone()));
                return;
            }
        };
        // A move declines a standing offer by itself (9.1b1): replay makes it lapse the same
        // way, so the journal holds no entry for it.
        self.press_and_record(m, by, now, out);
        self.awaiting = true;
        if by != self.setup.local {
            out.push(Effect::Label(self.mover_label(by)));
        }
        out.push(Effect::Common(Common::Cue(cue::for_move(
            &report.played.san,
        ))));
        out.push(say(Urgency::Move, self.move_words(report.played.san, m)));
        self.opening_reached(out);
        self.touched_not_moved(by, m, out);
        self.after_move_in_review(out);
        if self.setup.local_board && !from_local_board {
            self.board_behind = Some(m);
            out.push(Effect::BoardExpect {
                board: BoardOf::Player,
                position: Box::new(self.game.position().clone()),
                previous: Some(Box::new(before.clone())),
            });
        }
        // The opponent carries out the local player's move on his e-board: its recognizer
        // must wait for that, not take it for the opponent's own move.
        if by == self.setup.local && self.setup.side(!by) == Side::Board {
            out.push(Effect::BoardExpect {
                board: BoardOf::Opponent,
                position: Box::new(self.game.position().clone()),
                previous: Some(Box::new(before.clone())),
            });
        }
        match report.outcome {
            Some(o) => self.finish(o, now, out),
            None if by != self.setup.local && self.premove.is_some() => {
                self.play_premove(&before, now, out);
            }
            None => {
                if self.setup.side(self.game.turn()) == Side::Engine {
                    out.push(Effect::EngineThink);
                }
            }
        }
    }

    /// With `Setup::openings`: the name of the opening the move just played reached, when
    /// the position is named and differs from the one named last.
    fn opening_reached(&mut self, out: &mut Vec<Effect>) {
        if !self.setup.openings {
            return;
        }
        if let Some(o) = openings::named(self.game.position())
            && self.opening_said.is_none_or(|said| said.name != o.name)
        {
            self.opening_said = Some(o);
            out.push(answer(openings::reached(o, self.lang)));
        }
    }

    /// A played move in words, as the player's wording and --say-captured ask.
    fn move_words(&self, san: shakmaty::san::SanPlus, m: Move) -> String {
        let san = self.setup.wording.san(san);
        if self.extras.say_captured {
            announce_san_taking(san, m, self.lang, self.setup.form)
        } else {
            announce_san(san, m, self.lang, self.setup.form)
        }
    }

    /// Whether the engine is to move in a game that goes on.
    fn engine_to_move(&self) -> bool {
        !self.game.is_over() && self.setup.side(self.game.turn()) == Side::Engine
    }

    /// The policy for a failed engine: it is started again once; after a second failure a
    /// person at the keyboard plays its side.
    fn engine_failure(&mut self, reason: &str, out: &mut Vec<Effect>) {
        let p = &self.lang.play;
        out.push(say(
            Urgency::Urgent,
            fill(&p.engine_failed, &[("reason", reason)]),
        ));
        if self.engine_restarts == 0 {
            self.engine_restarts = 1;
            out.push(Effect::EngineRestart);
            return;
        }
        let Some(engine_color) = Color::ALL
            .into_iter()
            .find(|&c| self.setup.side(c) == Side::Engine)
        else {
            return;
        };
        if engine_color == Color::White {
            self.setup.white = Side::Keyboard;
        } else {
            self.setup.black = Side::Keyboard;
        }
        out.push(Effect::EngineGone);
        out.push(answer(fill(
            &p.engine_gone,
            &[("color", self.lang.color(engine_color))],
        )));
    }

    /// Who made a move, as the screen labels it: the computer, or the colour.
    fn mover_label(&self, by: Color) -> String {
        match self.setup.side(by) {
            Side::Engine => self.lang.play.computer.clone(),
            _ => self.lang.color(by).to_string(),
        }
    }

    fn finish(&mut self, outcome: Outcome, now: Timestamp, out: &mut Vec<Effect>) {
        // An adjournment ends with the game: nothing is sealed in a finished game.
        self.adjourned = None;
        if let Some(c) = self.clock.as_mut() {
            c.stop(now);
        }
        out.push(Effect::Record(Recorded::Ended(outcome)));
        out.push(Effect::EngineStop);
        out.push(Effect::Common(Common::Cue(vec![Cue::End])));
        out.push(answer(self.outcome_text(outcome)));
    }

    fn outcome_text(&self, o: Outcome) -> String {
        let index = match o.termination {
            Termination::Checkmate => 0,
            Termination::Resignation => 1,
            Termination::Stalemate => 2,
            Termination::DeadPosition(_) => 3,
            Termination::Agreement => 4,
            Termination::Threefold(_) => 5,
            Termination::FiftyMoves(_) => 6,
            Termination::Fivefold => 7,
            Termination::SeventyFiveMoves => 8,
            Termination::FlagFall => 9,
            Termination::BothFlags => 10,
            Termination::IllegalMoves => 11,
            Termination::ArbiterDecision => 12,
        };
        fill(
            &self.lang.play.game_over,
            &[
                ("how", &self.lang.play.how[index]),
                ("result", self.lang.result(Some(o.result))),
            ],
        )
    }

    /// Who acts for "I" in a command: the local player, or with two players at the keyboard
    /// the one concerned (`to_move` for claims and resigning, else the one who just moved).
    fn actor(&self, to_move: bool) -> Color {
        let both_keyboard =
            self.setup.white == Side::Keyboard && self.setup.black == Side::Keyboard;
        if !both_keyboard {
            return self.setup.local;
        }
        let turn = self.game.turn();
        if to_move || self.game.ply() == 0 {
            turn
        } else {
            !turn
        }
    }

    /// The words of a question waiting for yes or no.
    fn question_text(&self, question: &Pending) -> String {
        let p = &self.lang.play;
        match question {
            Pending::Resign => p.resign_confirm.clone(),
            Pending::Takeback(by) => self.takeback_question(*by),
            Pending::New => match &self.unrecorded {
                Some(reason) => fill(&p.quit_confirm_unrecorded, &[("reason", reason)]),
                None => p.new_confirm.clone(),
            },
            _ => match &self.unrecorded {
                Some(reason) => fill(&p.quit_confirm_unrecorded, &[("reason", reason)]),
                None => p.quit_confirm.clone(),
            },
        }
    }

    /// A question that lapsed on a refused line: said with the refusal, in one answer, so
    /// that the player knows nothing was confirmed.
    fn say_lapsed(&self, question: &Pending, from: usize, out: &mut Vec<Effect>) {
        let p = &self.lang.play;
        let words = match question {
            Pending::Resign => &p.not_resigned,
            Pending::Takeback(_) => &self.lang.takeback.dropped,
            _ => &p.not_quit,
        };
        end_answer_with(out, from, words.clone());
    }

    /// A question for confirmation is confirmed only by yes (ja, yes); no answers it too.
    /// Its own command again asks it again (a slip of the keys must not resign or quit);
    /// any other command lets it lapse and is carried out as usual.
    fn confirmation(&mut self, c: &Command, now: Timestamp, out: &mut Vec<Effect>) -> bool {
        let question = std::mem::replace(&mut self.pending, Pending::None);
        let p = &self.lang.play;
        match (question, c) {
            (Pending::Resign, Command::Yes) => {
                let by = self.actor(true);
                match self.game.resign(by) {
                    Ok(o) => {
                        out.push(Effect::Record(Recorded::Resigned { by }));
                        self.finish(o, now, out);
                    }
                    Err(_) => out.push(answer(self.lang.messages.game_over.clone())),
                }
                true
            }
            (Pending::Quit, Command::Yes) => {
                out.push(Effect::EngineStop);
                out.push(Effect::Common(Common::Quit));
                true
            }
            (Pending::New, Command::Yes) => {
                out.push(Effect::NewGame);
                true
            }
            (Pending::Takeback(by), Command::Yes) => {
                self.take_back_agreed(by, now, out);
                true
            }
            (Pending::Takeback(by), Command::No) => {
                self.takeback_declined(by, out);
                true
            }
            (Pending::Resign, Command::No) => {
                out.push(answer(p.not_resigned.clone()));
                true
            }
            (Pending::Quit | Pending::New, Command::No) => {
                out.push(answer(p.not_quit.clone()));
                true
            }
            (promotion @ (Pending::Promotion(_) | Pending::BoardPromotion), _) => {
                self.pending = promotion;
                false
            }
            _ => false,
        }
    }

    fn command(&mut self, c: Command, now: Timestamp, out: &mut Vec<Effect>) {
        if self.confirmation(&c, now, out) {
            return;
        }
        let lang = self.lang;
        // Looking back, the questions about the board answer for the position looked at.
        let pos = self.shown_position().clone();
        let reviewing = self.reviewed_ply().is_some();
        let form = self.setup.form;
        let wording = self.setup.wording;
        let w = &wording;
        let p = &lang.play;
        match c {
            // The walk's own commands first, then (asked again) every command of the walk.
            Command::Help if self.walk().is_some() => {
                use crate::matchplay::help::{all_commands, mode_help};
                let text = self.help.answer(
                    || mode_help(&lang.walk.help, lang),
                    || all_commands(&walk::commands(), lang),
                );
                out.push(answer(text));
            }
            Command::Help => {
                let walk_help = fill(
                    &lang.walk.help,
                    &crate::matchplay::help::command_words(lang),
                );
                let mut help = format!("{} {} {walk_help}", p.help, lang.review.help);
                if self.premoves {
                    help = format!("{help} {}", lang.premove.help);
                }
                if self.explorer.is_some() {
                    help = format!("{help} {}", lang.explorer.help);
                }
                out.push(answer(help));
            }
            Command::Eval | Command::Hint if self.walk().is_some() => self.walk_command(&c, out),
            Command::Mistakes | Command::Better | Command::Back | Command::Analyse => {
                self.walk_command(&c, out)
            }
            Command::Eval => self.advise(AdviceKind::Eval, out),
            Command::Hint => self.advise(AdviceKind::Hint, out),
            Command::Explore => self.explore(now, out),
            // A finished game has no moves to list: say so, not "0 Züge".
            Command::Ask(q) if q.lists_moves() && self.game.is_over() && !reviewing => {
                out.push(answer(lang.messages.game_over.clone()))
            }
            Command::Ask(Question::Turn) if self.game.outcome().is_some() && !reviewing => {
                if let Some(o) = self.game.outcome() {
                    out.push(answer(self.outcome_text(o)));
                }
            }
            Command::Clock => out.push(answer(match (&self.clock, self.setup.clock_answer) {
                (Some(c), ClockAnswer::Remaining) => summary_words(&c.summary(now), lang),
                (Some(c), ClockAnswer::Used) => used_words(c, now, lang),
                (None, _) => p.no_clock.clone(),
            })),
            Command::Offer => self.offer(now, out),
            Command::Accept => self.accept(now, out),
            Command::Decline => {
                let by = self.actor(true);
                match self.game.pending_draw_offer() {
                    Some(offerer) if offerer != by && self.game.decline_draw(by).is_ok() => {
                        out.push(Effect::Record(Recorded::DrawDeclined { by }));
                        out.push(answer(fill(&p.declined, &[("color", lang.color(by))])));
                    }
                    _ => out.push(answer(p.no_offer.clone())),
                }
            }
            Command::Claim(text) => self.claim(text, now, out),
            Command::Resign => {
                if self.game.is_over() {
                    out.push(answer(lang.messages.game_over.clone()));
                } else {
                    self.pending = Pending::Resign;
                    out.push(answer(self.question_text(&Pending::Resign)));
                }
            }
            Command::Save(path) => out.push(Effect::Save(path)),
            Command::Quit => {
                // The walk plays no move: leaving it loses nothing, and its game (a file's,
                // an unfinished one) was never recorded, so there is nothing to ask.
                if self.game.is_over() || self.walk().is_some() {
                    out.push(Effect::EngineStop);
                    out.push(Effect::Common(Common::Quit));
                } else {
                    self.pending = Pending::Quit;
                    out.push(answer(self.question_text(&Pending::Quit)));
                }
            }
            Command::Yes | Command::No => out.push(answer(p.no_question.clone())),
            // A game under way is not dropped on one word.
            Command::New if !self.game.is_over() && self.game.ply() > 0 => {
                self.pending = Pending::New;
                out.push(answer(self.question_text(&Pending::New)));
            }
            Command::New => out.push(Effect::NewGame),
            Command::Review { .. }
            | Command::ReviewNext
            | Command::ReviewPrevious
            | Command::ReviewCurrent => self.review_command(&c, out),
            Command::Select(square) => self.select(square, now, out),
            Command::PutDown => self.put_down(out),
            Command::Takeback => self.takeback_request(now, out),
            Command::Abort => self.abort(now, out),
            Command::Rematch => self.rematch(out),
            Command::Opponent => out.push(answer(self.opponent_words())),
            c => {
                if let Some(control) = c.speech() {
                    out.push(Effect::Common(Common::Speech(control)));
                } else if let Some(question) = c.question() {
                    let at = Asked {
                        position: &pos,
                        // Looking back, the last move is that of the position looked at.
                        game: Some((&self.game, self.reviewed_ply().unwrap_or(self.game.ply()))),
                        seen_from: self.setup.local,
                        player: self.actor(true),
                        lang,
                        form,
                        wording: w,
                    };
                    out.extend(question::answer(question, &at).map(lines));
                }
            }
        }
    }

    fn offer(&mut self, now: Timestamp, out: &mut Vec<Effect>) {
        let lang = self.lang;
        let by = self.actor(false);
        if self.game.pending_draw_offer() == Some(by) {
            out.push(answer(fill(
                &lang.play.offer_stands,
                &[("color", lang.color(by))],
            )));
            return;
        }
        match self.game.offer_draw(by) {
            Ok(Some(outcome)) => {
                out.push(Effect::Record(Recorded::DrawAccepted { by }));
                out.push(answer(lang.play.agreed.clone()));
                self.finish(outcome, now, out);
            }
            Ok(None) => {
                out.push(Effect::Record(Recorded::DrawOffered { by }));
                out.push(answer(fill(
                    &lang.play.offered,
                    &[("color", lang.color(by))],
                )));
                // The computer plays on: an offer is declined by making a move (9.1b1); it
                // says so at once rather than leave the player waiting.
                if self.setup.side(!by) == Side::Engine && self.game.decline_draw(!by).is_ok() {
                    out.push(Effect::Record(Recorded::DrawDeclined { by: !by }));
                    out.push(answer(lang.play.engine_declines.clone()));
                }
            }
            Err(_) => out.push(answer(lang.messages.game_over.clone())),
        }
    }

    fn accept(&mut self, now: Timestamp, out: &mut Vec<Effect>) {
        let lang = self.lang;
        let Some(offerer) = self.game.pending_draw_offer() else {
            out.push(answer(lang.play.no_offer.clone()));
            return;
        };
        let by = !offerer;
        match self.game.accept_draw(by) {
            Ok(outcome) => {
                out.push(Effect::Record(Recorded::DrawAccepted { by }));
                self.finish(outcome, now, out);
            }
            Err(_) => out.push(answer(lang.play.no_offer.clone())),
        }
    }

    /// 9.2 or 9.3: hector finds which rule, if any, makes the claim correct.
    fn claim(&mut self, text: Option<String>, now: Timestamp, out: &mut Vec<Effect>) {
        let lang = self.lang;
        let by = self.game.turn();
        if self.game.is_over() {
            out.push(answer(lang.messages.game_over.clone()));
            return;
        }
        // A claim with the move it intends would play that move (9.5b) in a position the
        // envelope holds still: the envelope is opened first.
        if text.is_some() && self.adjourned.is_some() {
            out.push(answer(lang.arbiter.adjourned_wait.clone()));
            return;
        }
        let intended = match text
            .as_deref()
            .map(|t| parse_move_in(t, self.game.position(), self.lang))
        {
            None => None,
            Some(Ok(m)) => Some(m),
            Some(Err(e)) => {
                out.push(answer(message(&e, self.game.position(), lang)));
                return;
            }
        };
        let kind = self.claimed_kind(by, intended);
        match self.game.claim_draw(by, kind, intended) {
            Ok(ClaimVerdict::Correct(outcome)) => {
                out.push(Effect::Record(Recorded::Claim {
                    by,
                    kind,
                    intended,
                    correct: true,
                }));
                out.push(answer(claim_correct_words(kind, lang)));
                self.finish(outcome, now, out);
            }
            Ok(ClaimVerdict::Incorrect { penalty, played }) => {
                out.push(Effect::Record(Recorded::Claim {
                    by,
                    kind,
                    intended,
                    correct: false,
                }));
                out.push(Effect::Record(Recorded::Penalty(penalty)));
                // Without a clock there is no time to give: the claim is only wrong, and
                // stands as a draw offer (9.1b4) either way.
                let verdict = match self.clock.as_mut() {
                    Some(c) => {
                        c.apply_penalty(penalty.beneficiary, penalty.time, now);
                        fill(
                            &lang.play.claim_incorrect,
                            &[
                                ("color", lang.color(penalty.beneficiary)),
                                ("time", &duration_words(penalty.time, lang)),
                            ],
                        )
                    }
                    None => lang.play.claim_incorrect_untimed.clone(),
                };
                out.push(answer(format!(
                    "{verdict}. {}",
                    fill(&lang.play.claim_as_offer, &[("color", lang.color(by))])
                )));
                if let Some(report) = played {
                    // 9.5b: the announced move is made; it needs its clock press and record.
                    self.after_claimed_move(report, by, now, out);
                }
            }
            Err(GameError::ClaimRightLost) => out.push(answer(lang.play.claim_right_lost.clone())),
            Err(_) => out.push(answer(lang.messages.not_a_move.clone())),
        }
    }

    /// The rule a claim by `by` is decided by: the one that makes it correct, else the
    /// nearest.
    fn claimed_kind(&self, by: Color, intended: Option<Move>) -> ClaimKind {
        let correct_kind = [ClaimKind::Threefold, ClaimKind::FiftyMoves]
            .into_iter()
            .find(|&kind| {
                let mut trial = self.game.clone();
                matches!(
                    trial.claim_draw(by, kind, intended),
                    Ok(ClaimVerdict::Correct(_))
                )
            });
        correct_kind.unwrap_or_else(|| self.nearest_claim(intended))
    }

    /// The rule a claim that no rule makes correct is taken for: the one the game is nearer
    /// to (the position's repetitions of three, the half-moves of a hundred), so that a claim
    /// after many quiet moves is a fifty-move claim.
    fn nearest_claim(&self, intended: Option<Move>) -> ClaimKind {
        let halfmoves = match intended {
            Some(m) => {
                let mut next = self.game.position().clone();
                next.play_unchecked(m);
                next.halfmoves()
            }
            None => self.game.position().halfmoves(),
        };
        let repetitions = self.game.repetition_count() as u32;
        // repetitions / 3 against halfmoves / 100, without fractions.
        if u64::from(halfmoves) * 3 > u64::from(repetitions) * 100 {
            ClaimKind::FiftyMoves
        } else {
            ClaimKind::Threefold
        }
    }

    fn after_claimed_move(
        &mut self,
        report: MoveReport,
        by: Color,
        now: Timestamp,
        out: &mut Vec<Effect>,
    ) {
        let m = report.played.mv;
        self.press_and_record(m, by, now, out);
        out.push(answer(self.lang.play.claim_intended_played.clone()));
        out.push(Effect::Common(Common::Cue(cue::for_move(
            &report.played.san,
        ))));
        out.push(say(Urgency::Move, self.move_words(report.played.san, m)));
        self.opening_reached(out);
        if let Some(o) = report.outcome {
            self.finish(o, now, out);
        } else if self.setup.side(self.game.turn()) == Side::Engine {
            out.push(Effect::EngineThink);
        }
    }

    /// The local player's board (Appendix D2.2, D2.3).
    fn local_board(&mut self, r: Recognition, now: Timestamp, out: &mut Vec<Effect>) {
        let lang = self.lang;
        match r {
            Recognition::Touched { square, .. } => {
                let by = self.game.turn();
                if self.game.touch(by, square).is_ok() {
                    out.push(Effect::Record(Recorded::Touched { by, square }));
                }
            }
            Recognition::Moved(m) => {
                if self.game.is_over() {
                    out.push(answer(lang.messages.game_over.clone()));
                } else if self.game.turn() == self.setup.local
                    || self.setup.side(self.game.turn()) == Side::Keyboard
                {
                    self.play(m, true, now, out);
                } else {
                    out.push(answer(fill(
                        &lang.play.not_your_turn,
                        &[("color", lang.color(self.game.turn()))],
                    )));
                }
            }
            Recognition::PromotionChoiceNeeded { .. } => {
                self.pending = Pending::BoardPromotion;
                out.push(answer(lang.play.promotion_question.clone()));
            }
            Recognition::Mismatch(diffs) => {
                let mut text = board_words::mismatch(&diffs, lang);
                if let Some(m) = self.board_behind {
                    let before = self
                        .game
                        .position_at(self.game.ply().saturating_sub(1))
                        .cloned()
                        .unwrap_or_default();
                    let phrase =
                        crate::notation::speak::announce(&before, m, lang, self.setup.form);
                    text = format!(
                        "{text}. {}",
                        fill(&lang.play.execute_on_board, &[("move", &phrase)])
                    );
                }
                out.push(answer(text));
            }
            Recognition::Matches => {
                if self.board_behind.take().is_some() {
                    out.push(answer(lang.play.executed.clone()));
                } else {
                    out.push(answer(board_words::in_order(lang).to_string()));
                }
            }
            Recognition::TakeBack => out.push(answer(board_words::recognition(
                &r,
                self.game.position(),
                lang,
            ))),
        }
    }

    /// The sighted opponent's e-board: moves of the opponent, and pieces the opponent touched
    /// (reported to the player, as an assistant tells the arbiter, D9e).
    fn opponent_board(&mut self, r: Recognition, now: Timestamp, out: &mut Vec<Effect>) {
        let lang = self.lang;
        match r {
            Recognition::Moved(m)
                if !self.game.is_over() && self.game.turn() != self.setup.local =>
            {
                self.play(m, false, now, out);
            }
            Recognition::Touched { square, piece } if self.game.turn() != self.setup.local => {
                out.extend(self.touch(square, piece, true));
            }
            Recognition::Mismatch(diffs) => out.push(answer(board_words::mismatch(&diffs, lang))),
            _ => {}
        }
    }
}

/// Why a command's argument is not understood, naming what it needs.
pub(crate) fn command_error_message(e: &CommandError, lang: &Language) -> String {
    let m = &lang.messages;
    let named = |which: &String, not_a: &String, given: &Option<String>| match given {
        Some(word) => fill(not_a, &[("word", word)]),
        None => which.clone(),
    };
    match e {
        CommandError::NeedsSquare(given) => named(&m.which_square, &m.not_a_square, given),
        CommandError::NeedsRank(given) => named(&m.which_rank, &m.not_a_rank, given),
        CommandError::NeedsFile(given) => named(&m.which_file, &m.not_a_file, given),
        CommandError::Unknown(word) => crate::notation::parse::unknown_word_message(word, lang),
    }
}

/// The answer to "Kurze oder lange Rochade?" ("kurz", "long"), in any language.
fn castling_answer(text: &str) -> Option<shakmaty::CastlingSide> {
    let folded = fold(text.trim().trim_end_matches(['.', '!']));
    crate::notation::language::languages().find_map(|lang| {
        let u = &lang.understood;
        if u.short_answer.iter().any(|w| fold(w) == folded) {
            Some(shakmaty::CastlingSide::KingSide)
        } else if u.long_answer.iter().any(|w| fold(w) == folded) {
            Some(shakmaty::CastlingSide::QueenSide)
        } else {
            None
        }
    })
}

/// D9d: the move count and each player's time used and left.
fn used_words(c: &Clock, now: Timestamp, lang: &Language) -> String {
    let s = c.summary(now);
    let player = |color: Color| {
        fill(
            &lang.clock.used,
            &[
                ("color", lang.color(color)),
                ("used", &duration_words(c.used(color, now), lang)),
                ("left", &duration_words(c.remaining(color, now), lang)),
            ],
        )
    };
    fill(
        &lang.clock.used_summary,
        &[
            (
                "moves",
                &crate::notation::clock_words::moves_words(s.moves_played, lang),
            ),
            ("white", &player(Color::White)),
            ("black", &player(Color::Black)),
        ],
    )
}

/// "Reklamation berechtigt", with the rule that made the claim correct.
fn claim_correct_words(kind: ClaimKind, lang: &Language) -> String {
    let reason = match kind {
        ClaimKind::Threefold => &lang.play.threefold,
        ClaimKind::FiftyMoves => &lang.play.fifty_moves,
    };
    fill(&lang.play.claim_correct, &[("reason", reason)])
}

mod advice;
mod arbiter;
mod board_entry;
mod entries;
mod explore;
mod opponent;
mod premove;
pub(crate) mod recorded;
mod requests;
mod review;
mod walk;
pub use advice::AdviceKind;
pub use arbiter::TimeChange;
pub use premove::{NoPremove, reading as premove_reading};
pub use requests::PlayExtras;
pub use walk::Walk;

#[cfg(test)]
pub(crate) mod tests;
