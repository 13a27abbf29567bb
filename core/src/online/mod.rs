//! A game on lichess as hector plays it, pure: the server's stream lines, the player's lines
//! and the connection's news go in, with the instant; what to record, say and send to the
//! server comes out, in order. The server is the authority: its list of moves is played into
//! a [`Match`] (so a move is announced, recorded and asked about exactly as in `hector play`),
//! its clock and its result stand; the player's own move is sent and only played when the
//! stream confirms it.

pub mod daily;
pub(crate) mod warnings;
pub mod wire;

use std::time::Duration;

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Move, Position};

use crate::board::Recognition;
use crate::game::Game;
use crate::laws::Rules;
use crate::legality::Illegal;
use crate::machine::Machine;
use crate::machine::{Common, answer, say};
use crate::matchplay::command::{Command, Line, read_line};
use crate::matchplay::session::{
    BoardOf, ClockAnswer, Effect as MatchEffect, Event as MatchEvent, Match, NoPremove, Recorded,
    Setup, Side, Urgency,
};
use crate::notation::clock_words::{clock_face, player_time};
use crate::notation::language::{Language, fill};
use crate::notation::parse::{ParseError, message, parse_move_in};
use crate::notation::printable;
use crate::notation::speak::Form;
use crate::outcome::{Outcome, Termination};
use crate::time::Timestamp;
use crate::variant::{Variant, position_from_fen};
use wire::{GameFull, GameLine, GameState, Player};

/// What hector asks the server to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// A move in UCI.
    Move(String),
    /// Offer or accept a draw (true), decline (false).
    Draw(bool),
    /// Propose or accept a take-back (true), decline (false).
    Takeback(bool),
    Resign,
    Abort,
    ClaimVictory,
    Chat(String),
}

/// What the mode carries out, in this order.
#[derive(Debug)]
pub enum Effect {
    /// An effect of the session, carried out as in `hector play`.
    Match(MatchEffect),
    /// A request to the server.
    Send(Action),
}

/// What happens to an online game.
#[derive(Clone, Debug)]
pub enum Event {
    /// A line of the game stream.
    Server(GameLine),
    /// A line typed at the terminal.
    Line(String),
    /// A command from a key (full-screen).
    Command(Command),
    /// What the player's board recognized.
    Board(Recognition),
    /// Time passed (the adapter wakes the game at its next deadline).
    Tick,
    /// The connection's news.
    Link(Link),
}

/// The connection's news, from the adapter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Link {
    /// The stream broke; the adapter connects again.
    Dropped,
    /// The stream is back (its first line, the whole game, follows).
    Restored,
    /// The server asks to wait (HTTP 429) this long.
    Waiting(Duration),
    /// The token is not accepted any more (HTTP 401).
    Revoked,
    /// A new token (the player logged in again) is accepted.
    Authorized,
    /// An action was not sent: the token was refused (HTTP 401).
    Unsent(Action),
    /// The server refused an action, in its words.
    Refused { action: Action, reason: String },
    /// A line the server sent could not be read, and why.
    BadLine(String),
    /// A line longer than the adapter reads (it is skipped).
    TooLong,
}

/// Why a game cannot be played here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OnlineError {
    #[error("the account {0} does not play in this game")]
    NotYourGame(String),
    #[error("the variant {0} is not supported")]
    Variant(String),
    #[error("the start position cannot be read: {0}")]
    Position(String),
}

/// The server's clock as last told: both times at that instant, and whose time runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ServerClock {
    white: Duration,
    black: Duration,
    at: Timestamp,
    running: Option<Color>,
}

impl ServerClock {
    fn remaining(&self, color: Color, now: Timestamp) -> Duration {
        let told = color.fold_wb(self.white, self.black);
        if self.running == Some(color) {
            told.saturating_sub(now.saturating_since(self.at))
        } else {
            told
        }
    }
}

/// How lichess classes a time control, by its estimated duration: the initial time plus 40
/// times the increment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Speed {
    UltraBullet,
    Bullet,
    Blitz,
    Rapid,
    Classical,
}

impl Speed {
    pub(crate) fn of(initial_seconds: u32, increment_seconds: u32) -> Speed {
        let estimate = u64::from(initial_seconds) + 40 * u64::from(increment_seconds);
        match estimate {
            0..=29 => Speed::UltraBullet,
            30..=179 => Speed::Bullet,
            180..=479 => Speed::Blitz,
            480..=1499 => Speed::Rapid,
            _ => Speed::Classical,
        }
    }
}

/// Why a time control cannot be asked for with the board API: a public seek must be rapid or
/// classical; a challenge or a game against lichess's computer may also be blitz. Checked
/// before anything is sent, so the player hears the rule, not the server's refusal.
pub fn time_control_refusal(
    text: &str,
    initial_seconds: u32,
    increment_seconds: u32,
    seek: bool,
    lang: &Language,
) -> Option<String> {
    let speed = Speed::of(initial_seconds, increment_seconds);
    let o = &lang.online;
    let printable = crate::notation::printable(text);
    if seek && speed < Speed::Rapid {
        Some(fill(&o.seek_too_fast, &[("text", &printable)]))
    } else if speed < Speed::Blitz {
        Some(fill(&o.too_fast, &[("text", &printable)]))
    } else {
        None
    }
}

/// Whether lichess offers this clock for a challenge or a game against its computer: the
/// API lists the initial times 0, 15, 30, 45, 60 and 90 seconds and whole minutes up to 180,
/// and increments of at most 60 seconds.
pub fn challenge_clock_offered(initial_seconds: u32, increment_seconds: u32) -> bool {
    let initial = matches!(initial_seconds, 0 | 15 | 30 | 45 | 60 | 90)
        || (initial_seconds.is_multiple_of(60) && initial_seconds <= 180 * 60);
    initial && increment_seconds <= 60
}

/// An offer of the opponent that waits for an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Offer {
    Draw,
    Takeback,
}

/// How a game is played here, besides what the server says.
#[derive(Clone, Debug)]
pub struct Options {
    pub form: Form,
    /// The player moves on a board that must show every move.
    pub local_board: bool,
    /// The marks of the player's own time that are said without asking (none: D9d).
    pub announce: crate::clock::AnnounceSettings,
}

pub struct Online {
    m: Match,
    lang: &'static Language,
    me: Color,
    /// The lichess id of the game.
    pub id: String,
    opponent: String,
    my_name: String,
    /// The player's move sent and not yet confirmed by the stream.
    sent: Option<Move>,
    /// It was made on the player's board (which shows it already).
    sent_from_board: bool,
    clock: Option<ServerClock>,
    warnings: warnings::Warnings,
    /// The low-clock sound's watch over the server's clock (each side's once).
    low_clock: Option<crate::cue::LowClock>,
    increment: Option<Duration>,
    /// The opponent's offer that waits for an answer.
    offer: Option<Offer>,
    /// The player's own standing offers, as the server last showed them.
    mine: (bool, bool),
    /// The opponent left: from this instant the player may claim the win.
    claim_at: Option<Timestamp>,
    claim_told: bool,
    /// The newest chat lines, at most [`CHAT_KEPT`]; the first `unread` of them were read
    /// out.
    chat: std::collections::VecDeque<String>,
    unread: usize,
    ask_resign: bool,
    /// A typed promotion without its piece: the next line names it.
    promotion: Option<String>,
    /// The server ended the game (also aborted, which has no result).
    ended: bool,
    link_down: bool,
    /// The token was refused and no new one is accepted yet.
    revoked: bool,
    /// The player's move that the refused token kept from the server: sent once the player
    /// has logged in again, unless it is taken back first.
    held: Option<Move>,
    /// A 429's wait said, until this instant.
    waiting_until: Option<Timestamp>,
    /// An unreadable line was said; the next is only said after a good one.
    bad_told: bool,
    /// The player asked to abort: an abort is theirs.
    abort_sent: bool,
    /// The opponent is lichess's computer (its moves are labelled so, as in hector play).
    opponent_ai: bool,
    /// The opponent's rating on lichess, when the server gave one.
    opponent_rating: Option<u32>,
    /// A move typed while the opponent is to move: its text, its words and the position it
    /// waits in; sent when the opponent's move makes it legal (core::matchplay's premoves).
    premove: Option<(String, String, Chess)>,
    /// The move sent is a premove: its confirmation is said as one.
    sent_premove: bool,
    /// A correspondence game: its days per move.
    days: Option<u32>,
    /// In such a game, that `ende` leaves it without resigning was said.
    daily_told: bool,
}

/// The chat lines kept: a flood of messages costs no more memory than these.
pub(crate) const CHAT_KEPT: usize = 100;

/// The statuses of a game on lichess that end it; any other but `created` and `started` is
/// not understood, and not taken as an end.
const ENDS: [&str; 12] = [
    "aborted",
    "noStart",
    "mate",
    "resign",
    "stalemate",
    "timeout",
    "draw",
    "outoftime",
    "cheat",
    "unknownFinish",
    "variantEnd",
    "insufficientMaterialClaim",
];

impl From<Common> for Effect {
    fn from(c: Common) -> Effect {
        Effect::Match(MatchEffect::Common(c))
    }
}

/// The moves of `text` (UCI, space-separated) from `start`: as many as are legal, and the
/// first that is not.
fn server_moves(start: &Chess, text: &str) -> (Vec<Move>, Option<String>) {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for word in text.split_ascii_whitespace() {
        let legal = UciMove::from_ascii(word.as_bytes())
            .ok()
            .and_then(|u| u.to_move(&pos).ok())
            .filter(|m| pos.is_legal(*m));
        match legal {
            Some(m) => {
                pos.play_unchecked(m);
                moves.push(m);
            }
            None => return (moves, Some(word.to_string())),
        }
    }
    (moves, None)
}

/// Which side `account` plays in the game, or why the game is not the player's.
fn my_color(full: &GameFull, account: &str) -> Result<Color, OnlineError> {
    let is = |p: &Player| {
        p.id.as_deref()
            .is_some_and(|id| id.eq_ignore_ascii_case(account))
    };
    if is(&full.white) {
        Ok(Color::White)
    } else if is(&full.black) {
        Ok(Color::Black)
    } else {
        Err(OnlineError::NotYourGame(account.to_string()))
    }
}

/// The game's start: its variant and its first position.
fn start_game(full: &GameFull) -> Result<Game, OnlineError> {
    let variant = match full.variant.key.as_str() {
        "standard" | "fromPosition" => Variant::Standard,
        "chess960" => Variant::Chess960,
        other => return Err(OnlineError::Variant(other.to_string())),
    };
    let start = if full.initial_fen == "startpos" {
        Chess::default()
    } else {
        position_from_fen(&full.initial_fen, variant)
            .map_err(|e| OnlineError::Position(format!("{e:?}")))?
    };
    Ok(Game::from_position(start, variant))
}

/// The match under the online game.
fn online_setup(me: Color, options: &Options) -> Setup {
    // Both sides are "the engine" to the match: it plays the moves it is given (the
    // server's) and never takes a typed move itself; typed moves go to the server.
    Setup {
        white: Side::Engine,
        black: Side::Engine,
        local: me,
        local_board: options.local_board,
        control: None,
        announce: crate::clock::AnnounceSettings::tournament(),
        form: options.form,
        rules: Rules::STANDARD,
        engine_level: 0,
        opponent_port: None,
        clock_answer: ClockAnswer::Remaining,
        openings: false,
        wording: Default::default(),
    }
}

/// The first words: the colour, the opponent and the time control.
fn welcome_parts(full: &GameFull, me: Color, opponent: &str, lang: &Language) -> Vec<String> {
    let o = &lang.online;
    let mut parts = vec![fill(
        &o.welcome,
        &[("color", lang.color(me)), ("opponent", opponent)],
    )];
    if let Some(c) = full.clock {
        parts.push(fill(
            &o.control,
            &[
                ("minutes", &(c.initial / 60_000).to_string()),
                ("seconds", &(c.increment / 1000).to_string()),
            ],
        ));
    }
    if let Some(days) = full.days_per_turn {
        parts.push(daily::control(days, lang));
    }
    parts
}

impl Online {
    /// The game from its stream's first line. `account` is the player's lichess id.
    pub fn new(
        full: &GameFull,
        account: &str,
        options: Options,
        lang: &'static Language,
        now: Timestamp,
    ) -> Result<(Online, Vec<Effect>), OnlineError> {
        let me = my_color(full, account)?;
        let game = start_game(full)?;
        let setup = online_setup(me, &options);
        let (m, _) = Match::start(setup, game, lang, now);
        let them = me.fold_wb(&full.black, &full.white);
        let opponent = player_name(them, lang);
        let my_name = me
            .fold_wb(&full.white, &full.black)
            .name
            .clone()
            .unwrap_or_else(|| account.to_string());
        let mut online = Online {
            m,
            lang,
            me,
            id: full.id.clone(),
            opponent,
            my_name,
            sent: None,
            sent_from_board: false,
            clock: None,
            warnings: warnings::Warnings::new(options.announce.clone(), me),
            increment: full.clock.map(|c| Duration::from_millis(c.increment)),
            offer: None,
            mine: (false, false),
            claim_at: None,
            claim_told: false,
            chat: std::collections::VecDeque::new(),
            unread: 0,
            ask_resign: false,
            promotion: None,
            ended: false,
            link_down: false,
            revoked: false,
            held: None,
            waiting_until: None,
            bad_told: false,
            abort_sent: false,
            opponent_ai: them.ai_level.is_some(),
            opponent_rating: them.rating,
            premove: None,
            sent_premove: false,
            days: full.days_per_turn,
            daily_told: false,
            low_clock: None,
        };
        let parts = welcome_parts(full, me, &online.opponent, lang);
        let mut out = vec![answer(parts.join(". "))];
        // A game continued: its moves so far are recorded, not read out one by one.
        online.sync(&full.state, true, now, &mut out);
        if !online.m.game().is_over() && !online.ended {
            let turn = online.m.game().turn();
            let mut said = crate::matchplay::queries::turn(online.m.game().position(), lang);
            // A daily game joined again: whose move it is and how long is left for it.
            if online.days.is_some() {
                let left = turn.fold_wb(full.state.wtime, full.state.btime);
                said = format!(
                    "{said}. {}",
                    daily::time_left(turn, Duration::from_millis(left), lang)
                );
            }
            out.push(answer(said));
        }
        Ok((online, out))
    }

    pub fn game(&self) -> &Game {
        self.m.game()
    }

    /// The match as hector keeps it (what the screen draws: a position looked back at).
    pub fn game_match(&self) -> &Match {
        &self.m
    }

    pub fn me(&self) -> Color {
        self.me
    }

    pub fn opponent(&self) -> &str {
        &self.opponent
    }

    /// The player waits for the server: the move sent is not confirmed yet, or the opponent
    /// is to move and nothing was asked since (line mode's prompt waits for the reply).
    pub fn awaits_reply(&self) -> bool {
        !self.is_over() && (self.sent.is_some() || self.m.awaits_reply())
    }

    /// A premove waits for the opponent's move.
    pub fn premove_kept(&self) -> bool {
        self.premove.is_some() && self.premove_time()
    }

    /// The game is over on the server (or aborted): nothing more comes.
    pub fn is_over(&self) -> bool {
        self.ended || self.m.game().is_over()
    }

    /// The question that waits for an answer, in words.
    /// The open question is answered by yes or no.
    pub fn asks_yes_no(&self) -> bool {
        self.ask_resign || (self.promotion.is_none() && self.m.asks_yes_no())
    }

    pub fn question(&self) -> Option<String> {
        if self.ask_resign {
            return Some(self.lang.online.resign_question.clone());
        }
        if self.promotion.is_some() {
            return Some(self.lang.play.promotion_question.clone());
        }
        self.m.question()
    }

    /// The screen's clock: both faces and whose time runs.
    pub fn clock_faces(&self, now: Timestamp) -> Option<crate::notation::clock_words::ClockFaces> {
        let c = self.clock?;
        let running = if self.is_over() { None } else { c.running };
        Some(crate::notation::clock_words::ClockFaces {
            faces: shakmaty::ByColor::new_with(|color| clock_face(c.remaining(color, now))),
            running,
        })
    }

    pub fn clock_runs(&self) -> bool {
        !self.is_over() && self.clock.is_some_and(|c| c.running.is_some())
    }

    /// The low-clock sound when a side's time (as the server tells it) first falls under
    /// `threshold`; none for `None` or zero.
    pub fn set_low_clock(&mut self, threshold: Option<Duration>) {
        self.low_clock = threshold
            .filter(|t| !t.is_zero())
            .map(crate::cue::LowClock::new);
    }

    /// When the running side's time falls under the low-clock threshold, if its sound may
    /// still come (just after, so that the tick finds it fallen).
    fn low_clock_instant(&self, now: Timestamp) -> Option<Timestamp> {
        let c = self.clock.filter(|_| !self.is_over())?;
        let watch = self.low_clock.as_ref()?;
        let color = c.running?;
        if !watch.pending(color) {
            return None;
        }
        let left = c.remaining(color, now).checked_sub(watch.threshold())?;
        Some(now + left + Duration::from_millis(1))
    }

    /// A mark of the player's own time passed since the last look: said; a side's time
    /// fallen under the low-clock threshold: its sound.
    fn warn(&mut self, now: Timestamp, out: &mut Vec<Effect>) {
        let Some(c) = self.clock.filter(|_| !self.is_over()) else {
            return;
        };
        if let Some(watch) = self.low_clock.as_mut() {
            for color in [Color::White, Color::Black] {
                if watch.fell_under(color, c.remaining(color, now)) {
                    out.push(Effect::from(Common::Cue(vec![crate::cue::Cue::LowClock])));
                }
            }
        }
        if let Some(a) = self.warnings.due(c.remaining(self.me, now)) {
            out.push(answer(crate::notation::clock_words::announcement_words(
                &a, self.lang,
            )));
        }
    }

    /// The record problem told by the adapter (for the quit question).
    pub fn set_unrecorded(&mut self, reason: Option<String>) {
        self.m.set_unrecorded(reason);
    }

    /// A line of the game stream.
    fn server(&mut self, line: GameLine, now: Timestamp) -> Vec<Effect> {
        let mut out = Vec::new();
        self.bad_told = false;
        match line {
            GameLine::Full(full) => self.sync(&full.state, false, now, &mut out),
            GameLine::State(state) => self.sync(&state, false, now, &mut out),
            GameLine::Chat(c) => {
                if c.room == "player" && !c.username.eq_ignore_ascii_case(&self.my_name) {
                    // Names and texts from outside: no control character reaches the screen.
                    let name = printable(&c.username);
                    let text = printable(&c.text);
                    // Said when the first unread message comes, not at each of a flood.
                    if self.unread == self.chat.len() {
                        out.push(answer(fill(
                            &self.lang.online.chat_arrived,
                            &[("name", &name)],
                        )));
                    }
                    self.chat.push_back(fill(
                        &self.lang.online.chat_line,
                        &[("name", &name), ("text", &text)],
                    ));
                    if self.chat.len() > CHAT_KEPT {
                        self.chat.pop_front();
                        self.unread = self.unread.saturating_sub(1);
                    }
                }
            }
            GameLine::Gone(g) => {
                let o = &self.lang.online;
                if self.is_over() {
                } else if g.gone {
                    if self.claim_at.is_none() {
                        out.push(say(
                            Urgency::Urgent,
                            fill(&o.opponent_gone, &[("opponent", &self.opponent)]),
                        ));
                    }
                    let wait = Duration::from_secs(u64::from(g.claim_win_in_seconds.unwrap_or(0)));
                    self.claim_at = Some(now + wait);
                    self.claim_told = false;
                    self.tell_claim(now, &mut out);
                } else if self.claim_at.take().is_some() {
                    out.push(answer(fill(
                        &o.opponent_back,
                        &[("opponent", &self.opponent)],
                    )));
                }
            }
        }
        out
    }

    /// Says once that the win may be claimed, when it may.
    fn tell_claim(&mut self, now: Timestamp, out: &mut Vec<Effect>) {
        if let Some(at) = self.claim_at
            && at <= now
            && !self.claim_told
            && !self.is_over()
        {
            self.claim_told = true;
            out.push(say(Urgency::Urgent, self.lang.online.may_claim.clone()));
        }
    }

    /// The server's state: its moves played into the match (taken back first where the server
    /// has fewer), its clock, its offers and its result.
    fn sync(&mut self, state: &GameState, quiet: bool, now: Timestamp, out: &mut Vec<Effect>) {
        let o = &self.lang.online;
        let game = self.m.game();
        let (moves, bad) = server_moves(game.start(), &state.moves);
        if let Some(word) = bad {
            out.push(say(
                Urgency::Urgent,
                fill(&o.bad_move, &[("move", &printable(&word))]),
            ));
        }
        let local: Vec<Move> = game.moves().iter().map(|p| p.mv).collect();
        let common = local.iter().zip(&moves).take_while(|(a, b)| a == b).count();
        if common < local.len() {
            self.follow_take_back(local.len() - common, common, now, out);
        }
        for (i, &mv) in moves.iter().enumerate().skip(common) {
            if self.m.game().is_over() {
                break;
            }
            self.play_server_move(mv, i + 1 == moves.len(), state, quiet, now, out);
        }
        // A sent move that is no longer possible was refused or overtaken; so was a move kept
        // back by a refused token (the server may have it after all).
        let possible =
            |m: Move| self.m.game().turn() == self.me && self.m.game().position().is_legal(m);
        if self.sent.is_some_and(|m| !possible(m)) {
            self.sent = None;
        }
        if self.held.is_some_and(|m| !possible(m)) {
            self.held = None;
        }
        self.play_premove(out);
        let started = state.status == "started" || state.status == "created";
        // A status hector does not know ends nothing: said once, as an unreadable line.
        let unknown = !started && !ENDS.contains(&state.status.as_str());
        if unknown {
            let reason = fill(&o.unknown_status, &[("status", &printable(&state.status))]);
            out.extend(self.link(Link::BadLine(reason), now));
        }
        let ply = self.m.game().ply();
        self.clock = Some(ServerClock {
            white: Duration::from_millis(state.wtime),
            black: Duration::from_millis(state.btime),
            at: now,
            // lichess starts the clocks once both players have moved.
            running: (started && ply >= 2).then(|| self.m.game().turn()),
        });
        // The server's time for the player may have passed a mark since the last look.
        self.warn(now, out);
        if started {
            self.offers(state, quiet, out);
        } else if !self.ended && !unknown {
            self.end(state, now, out);
        }
    }

    /// The server's game has `taken` fewer moves than the one here: they were taken back.
    fn follow_take_back(
        &mut self,
        taken: usize,
        common: usize,
        now: Timestamp,
        out: &mut Vec<Effect>,
    ) {
        let o = &self.lang.online;
        let effects = self.m.take_back_to(common, now);
        self.pass(effects, false, out);
        out.push(answer(if taken == 1 {
            o.taken_back_one.clone()
        } else {
            fill(&o.taken_back, &[("count", &taken.to_string())])
        }));
        self.sent = None;
    }

    /// One move of the server's game played here; with the times after it when it is the
    /// `newest`.
    fn play_server_move(
        &mut self,
        mv: Move,
        newest: bool,
        state: &GameState,
        quiet: bool,
        now: Timestamp,
        out: &mut Vec<Effect>,
    ) {
        // Said once, after the player's own move: a daily game may be left now.
        let daily_hint = self.sent == Some(mv) && self.days.is_some() && !quiet && !self.daily_told;
        let mut effects = if self.sent == Some(mv) {
            self.sent = None;
            if std::mem::take(&mut self.sent_premove) && !quiet {
                out.push(Effect::Match(MatchEffect::Label(
                    self.lang.premove.label.clone(),
                )));
            }
            if std::mem::take(&mut self.sent_from_board) {
                self.m.board_move(mv, now)
            } else {
                self.m.handle(MatchEvent::EngineMove(mv), now)
            }
        } else {
            self.m.handle(MatchEvent::EngineMove(mv), now)
        };
        // The server's times are those after its newest move: recorded with it, so the
        // PGN has them as [%clk] (earlier moves of a batch have no times of their own).
        if newest && self.increment.is_some() {
            for e in &mut effects {
                if let MatchEffect::Record(Recorded::Move { clock, .. }) = e {
                    *clock = Some(shakmaty::ByColor {
                        white: Duration::from_millis(state.wtime),
                        black: Duration::from_millis(state.btime),
                    });
                }
            }
        }
        self.pass(effects, quiet, out);
        if daily_hint {
            self.daily_told = true;
            out.push(answer(self.lang.online.daily_after_move.clone()));
        }
    }

    fn offers(&mut self, state: &GameState, quiet: bool, out: &mut Vec<Effect>) {
        let o = &self.lang.online;
        let (their_draw, their_takeback) = self.me.fold_wb(
            (state.bdraw, state.btakeback),
            (state.wdraw, state.wtakeback),
        );
        let mine = self.me.fold_wb(
            (state.wdraw, state.wtakeback),
            (state.bdraw, state.btakeback),
        );
        let opponent = [("opponent", self.opponent.as_str())];
        if their_draw && self.offer != Some(Offer::Draw) {
            self.offer = Some(Offer::Draw);
            out.push(say(Urgency::Urgent, fill(&o.draw_offer, &opponent)));
        } else if their_takeback && self.offer != Some(Offer::Takeback) && !their_draw {
            self.offer = Some(Offer::Takeback);
            out.push(say(Urgency::Urgent, fill(&o.takeback_offer, &opponent)));
        } else if !their_draw && !their_takeback && self.offer.take().is_some() && !quiet {
            out.push(answer(o.offer_lapsed.clone()));
        }
        // The player's own offer went away without the game ending: declined.
        if self.mine.0 && !mine.0 && !quiet {
            out.push(answer(fill(&o.draw_declined, &opponent)));
        }
        if self.mine.1 && !mine.1 && !quiet {
            out.push(answer(fill(&o.takeback_declined, &opponent)));
        }
        self.mine = mine;
    }

    fn end(&mut self, state: &GameState, now: Timestamp, out: &mut Vec<Effect>) {
        self.ended = true;
        self.offer = None;
        self.ask_resign = false;
        if self.m.game().is_over() {
            return;
        }
        let winner = match state.winner.as_deref() {
            Some("white") => Some(Color::White),
            Some("black") => Some(Color::Black),
            _ => None,
        };
        let result = |t: Termination| match winner {
            Some(w) => Outcome::win(w, t),
            None => Outcome::draw(t),
        };
        let o = &self.lang.online;
        // What the board can show and does not: the server's word is said with the board's,
        // and the game ends without a result.
        let contradicted = match state.status.as_str() {
            "mate" => Some(&o.mate_not_on_board),
            "stalemate" => Some(&o.stalemate_not_on_board),
            "resign" if winner.is_none() => Some(&o.resign_without_winner),
            _ => None,
        };
        if let Some(words) = contradicted {
            out.push(Effect::Match(MatchEffect::Record(Recorded::Note(format!(
                "lichess ended the game ({}), which the board does not show",
                printable(&state.status)
            )))));
            out.push(say(Urgency::Urgent, words.clone()));
            return;
        }
        let outcome = match state.status.as_str() {
            "aborted" | "noStart" => {
                // Whoever did not make the first moves in time, or asked to abort.
                let by = match state.status.as_str() {
                    "noStart" => self.m.game().turn(),
                    _ if self.abort_sent => self.me,
                    _ => !self.me,
                };
                match self.m.abandoned(by, now) {
                    Some(effects) => self.pass(effects, false, out),
                    // Too late to abort by the Laws: kept as the server's word.
                    None => out.push(Effect::Match(MatchEffect::Record(Recorded::Note(
                        "aborted on lichess".to_string(),
                    )))),
                }
                out.push(say(Urgency::Urgent, self.lang.online.aborted.clone()));
                return;
            }
            "mate" => result(Termination::Checkmate),
            "resign" => result(Termination::Resignation),
            "stalemate" => Outcome::draw(Termination::Stalemate),
            "outoftime" => result(Termination::FlagFall),
            "draw" => Outcome::draw(Termination::Agreement),
            "timeout" => {
                out.push(answer(fill(
                    &self.lang.online.left_game,
                    &[("opponent", &self.opponent)],
                )));
                result(Termination::ArbiterDecision)
            }
            _ => result(Termination::ArbiterDecision),
        };
        let effects = self.m.conclude(outcome, now);
        self.pass(effects, false, out);
    }

    /// The match's effects as the mode's: the engine's are nobody's here; a quiet sync leaves
    /// the moves unsaid.
    fn pass(&mut self, effects: Vec<MatchEffect>, quiet: bool, out: &mut Vec<Effect>) {
        for e in effects {
            match e {
                MatchEffect::EngineThink | MatchEffect::EngineStop => {}
                MatchEffect::Common(Common::Say {
                    urgency: Urgency::Move,
                    ..
                }) if quiet => {}
                // The game is judged later, from its journal.
                MatchEffect::Analyse => out.push(answer(self.lang.walk.elsewhere.clone())),
                // The server's game has no "new game".
                MatchEffect::NewGame | MatchEffect::Rematch => {
                    out.push(answer(self.lang.online.no_new.clone()))
                }
                // Both sides are "the engine" to the match: the opponent's move is labelled
                // with its colour, or as the computer's when it is lichess's.
                MatchEffect::Label(_) if quiet => {}
                MatchEffect::Label(_) => {
                    let label = if self.opponent_ai {
                        self.lang.play.computer.clone()
                    } else {
                        self.lang.color(!self.me).to_string()
                    };
                    out.push(Effect::Match(MatchEffect::Label(label)));
                }
                e => out.push(Effect::Match(e)),
            }
        }
    }

    /// A typed line: an answer, a word of the online game, a move for the server, or anything
    /// `hector play` understands.
    fn line(&mut self, text: &str, now: Timestamp) -> Vec<Effect> {
        let mut out = Vec::new();
        self.m.player_spoke();
        let parsed = read_line(text);
        if std::mem::take(&mut self.ask_resign) {
            match parsed {
                Ok(Line::Command(Command::Yes)) => {
                    let action = if self.m.game().ply() < 2 {
                        self.abort_sent = true;
                        Action::Abort
                    } else {
                        Action::Resign
                    };
                    out.push(Effect::Send(action));
                    return out;
                }
                Ok(Line::Command(Command::No)) => {
                    out.push(answer(self.lang.online.play_on.clone()));
                    return out;
                }
                Ok(Line::Empty) => {
                    self.ask_resign = true;
                    out.push(answer(self.lang.online.resign_question.clone()));
                    return out;
                }
                _ => {}
            }
        }
        if let Some(move_text) = self.promotion.take()
            && let Ok(Line::Move(piece)) = &parsed
        {
            let combined = format!("{move_text} {piece}");
            let pos = self.m.game().position();
            let premove = self.premove_time()
                && crate::matchplay::session::premove_reading(
                    pos,
                    &combined,
                    self.lang,
                    self.m.setup().form,
                )
                .is_ok();
            if parse_move_in(&combined, pos, self.lang).is_ok() || premove {
                self.typed_move(&combined, &mut out);
                return out;
            }
        }
        if self.m.question().is_some() {
            self.pass_line(text, now, &mut out);
            return out;
        }
        if parsed == Ok(Line::Empty) && self.premove.take().is_some() {
            out.push(answer(self.lang.premove.cancelled.clone()));
            return out;
        }
        if let Some(o) = self.online_word(text, now) {
            return o;
        }
        match parsed {
            Ok(Line::Move(m)) if !self.is_over() => self.typed_move(&m, &mut out),
            Ok(Line::Command(c)) => out.extend(self.command(c, now)),
            _ => self.pass_line(text, now, &mut out),
        }
        out
    }

    /// The opponent's move came: a premove kept before it is sent when it is legal now,
    /// else dropped with the reason. One kept in another position (a take-back came
    /// between) is left behind.
    fn play_premove(&mut self, out: &mut Vec<Effect>) {
        let game = self.m.game();
        if self.is_over() || game.turn() != self.me || self.sent.is_some() {
            return;
        }
        let Some((text, words, at)) = self.premove.take() else {
            return;
        };
        if game.position_at(game.ply().saturating_sub(1)) != Some(&at) || game.ply() == 0 {
            return;
        }
        let pos = game.position().clone();
        match parse_move_in(&text, &pos, self.lang) {
            Ok(m) => {
                self.send_move(m, out);
                self.sent_premove = self.sent == Some(m);
            }
            Err(e) => out.push(answer(fill(
                &self.lang.premove.dropped,
                &[("move", &words), ("reason", &message(&e, &pos, self.lang))],
            ))),
        }
    }

    /// A move typed while the opponent is to move: kept, or why it cannot be one.
    fn keep_premove(&mut self, text: &str, out: &mut Vec<Effect>) {
        let pos = self.m.game().position().clone();
        let form = self.m.setup().form;
        match crate::matchplay::session::premove_reading(&pos, text, self.lang, form) {
            Ok(words) => {
                out.push(answer(fill(&self.lang.premove.kept, &[("move", &words)])));
                self.premove = Some((text.to_string(), words, pos));
            }
            Err(NoPremove::Ask(e)) => {
                if e == ParseError::Illegal(Illegal::PromotionMissing) {
                    self.promotion = Some(text.to_string());
                } else {
                    out.push(Effect::Match(MatchEffect::Common(Common::Refused)));
                }
                out.push(answer(message(&e, &pos, self.lang)));
            }
            Err(NoPremove::Never(why)) => {
                out.push(answer(why));
                out.push(Effect::Match(MatchEffect::Common(Common::Refused)));
            }
        }
    }

    /// The opponent is to move and the player may keep a premove.
    fn premove_time(&self) -> bool {
        !self.is_over() && self.m.game().turn() != self.me
    }

    fn pass_line(&mut self, text: &str, now: Timestamp, out: &mut Vec<Effect>) {
        let effects = self.m.handle(MatchEvent::Line(text.to_string()), now);
        self.pass(effects, false, out);
    }

    /// The words only an online game has: chat, say, abort, take back, victory.
    fn online_word(&mut self, text: &str, now: Timestamp) -> Option<Vec<Effect>> {
        let o = &self.lang.online;
        let text = text.trim();
        let (first, rest) = text.split_once(' ').unwrap_or((text, ""));
        let first = first.to_lowercase();
        let is = |words: &[String]| words.iter().any(|w| w == &first);
        let mut out = Vec::new();
        if is(&o.words_chat) && rest.is_empty() {
            if self.unread == self.chat.len() {
                out.push(answer(o.no_chat.clone()));
            } else {
                out.push(Effect::Match(MatchEffect::Common(Common::Say {
                    urgency: Urgency::Answer,
                    lines: self.chat.iter().skip(self.unread).cloned().collect(),
                })));
                self.unread = self.chat.len();
            }
        } else if is(&o.words_say) {
            let said = rest.trim();
            if said.is_empty() {
                out.push(answer(o.say_what.clone()));
                out.push(Effect::Match(MatchEffect::Common(Common::Refused)));
            } else {
                out.push(Effect::Send(Action::Chat(said.chars().take(140).collect())));
                out.push(answer(o.chat_sent.clone()));
            }
        } else if is(&o.words_abort) && rest.is_empty() {
            // The same as hector play's word for it.
            return Some(self.command(Command::Abort, now));
        } else if is(&o.words_takeback) && rest.is_empty() {
            return Some(self.command(Command::Takeback, now));
        } else if is(&o.words_victory) && rest.is_empty() {
            self.claim(now, &mut out);
        } else {
            return None;
        }
        Some(out)
    }

    fn claim(&mut self, now: Timestamp, out: &mut Vec<Effect>) {
        if !self.is_over() && self.claim_at.is_some_and(|t| t <= now) {
            out.push(Effect::Send(Action::ClaimVictory));
        } else {
            out.push(answer(self.lang.online.no_claim.clone()));
        }
    }

    /// A command of `hector play`: the ones that concern the server go there.
    fn command(&mut self, c: Command, now: Timestamp) -> Vec<Effect> {
        let o = &self.lang.online;
        let mut out = Vec::new();
        self.m.player_spoke();
        let over = self.is_over();
        match c {
            Command::Offer | Command::Accept | Command::Decline | Command::Resign if over => {
                out.push(answer(self.lang.messages.game_over.clone()));
            }
            Command::Offer => {
                out.push(Effect::Send(Action::Draw(true)));
                out.push(answer(o.draw_sent.clone()));
            }
            Command::Accept | Command::Decline => {
                let yes = c == Command::Accept;
                match self.offer.take() {
                    Some(Offer::Draw) => out.push(Effect::Send(Action::Draw(yes))),
                    Some(Offer::Takeback) => out.push(Effect::Send(Action::Takeback(yes))),
                    None => out.push(answer(o.nothing_to_answer.clone())),
                }
            }
            Command::Resign => {
                self.ask_resign = true;
                out.push(answer(o.resign_question.clone()));
            }
            Command::Claim(_) => self.claim(now, &mut out),
            // A daily game's time left, in days and hours.
            Command::Clock if self.days.is_some() && self.clock.is_some() => {
                out.extend(self.daily_clock_words(now).map(answer));
            }
            // A daily game is left at once: nothing is resigned or aborted.
            Command::Quit if self.days.is_some() && !over => {
                out.push(answer(o.daily_leave.clone()));
                out.push(Effect::Match(MatchEffect::Common(Common::Quit)));
            }
            Command::Clock => out.push(answer(self.clock_words(now))),
            Command::New | Command::Rematch => out.push(answer(o.no_new.clone())),
            // A move held back by a refused token is let go.
            Command::Takeback if self.held.is_some() => {
                if let Some(m) = self.held.take() {
                    out.push(answer(fill(
                        &o.move_dropped,
                        &[("move", &self.move_words(m))],
                    )));
                }
            }
            Command::Opponent => out.push(answer(self.opponent_words())),
            // hector play's words for the server's take-back and abort.
            Command::Takeback | Command::Abort if over => {
                out.push(answer(self.lang.messages.game_over.clone()));
            }
            Command::Takeback => {
                out.push(Effect::Send(Action::Takeback(true)));
                out.push(answer(o.takeback_asked.clone()));
            }
            Command::Abort => {
                self.abort_sent = true;
                out.push(Effect::Send(Action::Abort));
            }
            Command::Select(square) => self.select(square, &mut out),
            Command::Help => {
                let effects = self.m.handle(MatchEvent::Command(Command::Help), now);
                self.pass(effects, false, &mut out);
                out.push(answer(format!(
                    "{}. {}",
                    self.lang.online.help, self.lang.premove.help
                )));
            }
            other => {
                let effects = self.m.handle(MatchEvent::Command(other), now);
                self.pass(effects, false, &mut out);
            }
        }
        out
    }

    /// A daily game's time left, in days and hours.
    fn daily_clock_words(&self, now: Timestamp) -> Option<String> {
        let c = self.clock?;
        let parts: Vec<String> = Color::ALL
            .iter()
            .map(|&color| daily::time_left(color, c.remaining(color, now), self.lang))
            .collect();
        Some(parts.join(". "))
    }

    /// Both players' time on the server's clock, and the increment.
    fn clock_words(&self, now: Timestamp) -> String {
        let o = &self.lang.online;
        let Some(c) = self.clock else {
            return o.no_clock.clone();
        };
        let mut parts: Vec<String> = Color::ALL
            .iter()
            .map(|&color| player_time(color, c.remaining(color, now), self.lang))
            .collect();
        if let Some(inc) = self.increment.filter(|d| !d.is_zero()) {
            parts.push(fill(
                &o.increment,
                &[("seconds", &inc.as_secs().to_string())],
            ));
        }
        parts.join(". ")
    }

    /// Who the opponent is: the name, the rating when the server gives one, and the colour.
    fn opponent_words(&self) -> String {
        let w = &self.lang.opponent;
        let name = match self.opponent_rating {
            Some(r) => fill(
                &w.rated,
                &[("name", &self.opponent), ("rating", &r.to_string())],
            ),
            None => self.opponent.clone(),
        };
        let name = fill(&w.lichess, &[("name", &name)]);
        fill(
            &w.is,
            &[("name", &name), ("color", self.lang.color(!self.me))],
        )
    }

    /// Space on the screen's board: a piece of the player's is picked up, put down, or sent
    /// to the server as a typed move would be.
    fn select(&mut self, square: shakmaty::Square, out: &mut Vec<Effect>) {
        let mut refused = Vec::new();
        if self.m.refused_in_review(&mut refused) {
            self.pass(refused, false, out);
            return;
        }
        if self.is_over() {
            out.push(answer(self.lang.messages.game_over.clone()));
        } else {
            // While the opponent is to move, the player's piece goes to a premove.
            let mut effects = Vec::new();
            let from = self.m.picked();
            let text = self.m.board_pick(square, self.me, &mut effects);
            self.pass(effects, false, out);
            if let Some(text) = text {
                let before = out.len();
                self.typed_move(&text, out);
                // A target the piece cannot reach: it stays in the hand, as in hector play.
                if let Some(from) = from
                    && out[before..]
                        .iter()
                        .any(|o| matches!(o, Effect::Match(MatchEffect::Common(Common::Refused))))
                {
                    let words = self.m.keep_in_hand(from);
                    match out[before..].iter_mut().rev().find_map(|o| match o {
                        Effect::Match(MatchEffect::Common(Common::Say { lines, .. })) => {
                            lines.last_mut()
                        }
                        _ => None,
                    }) {
                        Some(last) => *last = format!("{last}. {words}"),
                        None => out.push(answer(words)),
                    }
                }
            }
        }
    }

    fn typed_move(&mut self, text: &str, out: &mut Vec<Effect>) {
        // Looking back, a move waits until the player comes back (as in hector play).
        let mut refused = Vec::new();
        if self.m.refused_in_review(&mut refused) {
            self.pass(refused, false, out);
            return;
        }
        if self.premove_time() {
            self.keep_premove(text, out);
            return;
        }
        let pos = self.m.game().position().clone();
        match parse_move_in(text, &pos, self.lang) {
            Ok(m) => self.send_move(m, out),
            Err(e) => {
                if e == ParseError::Illegal(Illegal::PromotionMissing) {
                    self.promotion = Some(text.to_string());
                } else {
                    out.push(Effect::Match(MatchEffect::Common(Common::Refused)));
                }
                out.push(answer(message(&e, &pos, self.lang)));
            }
        }
    }

    /// The player's move (typed, or from the player's board): sent, played when confirmed.
    fn send_move(&mut self, m: Move, out: &mut Vec<Effect>) {
        self.sent_from_board = false;
        let o = &self.lang.online;
        let game = self.m.game();
        if self.is_over() {
            out.push(answer(self.lang.messages.game_over.clone()));
        } else if game.turn() != self.me {
            out.push(answer(fill(
                &self.lang.play.not_your_turn,
                &[("color", self.lang.color(game.turn()))],
            )));
            out.push(Effect::Match(MatchEffect::Common(Common::Refused)));
        } else if self.sent.is_some() {
            out.push(answer(o.move_pending.clone()));
        } else if !game.position().is_legal(m) {
            out.push(answer(self.lang.messages.not_a_move.clone()));
            out.push(Effect::Match(MatchEffect::Common(Common::Refused)));
        } else if self.revoked {
            // The refused token would refuse it too: it waits for the next login.
            self.held = Some(m);
            out.push(answer(fill(&o.move_held, &[("move", &self.move_words(m))])));
        } else {
            self.sent = Some(m);
            let uci = m.to_uci(game.variant().castling_mode()).to_string();
            out.push(Effect::Send(Action::Move(uci)));
        }
    }

    /// What the player's board recognized: a move goes to the server, the rest (touches,
    /// differences, promotions) is the match's as at the board.
    fn board(&mut self, r: Recognition, now: Timestamp) -> Vec<Effect> {
        let mut out = Vec::new();
        match r {
            Recognition::Moved(m) => {
                self.send_move(m, &mut out);
                self.sent_from_board = self.sent == Some(m);
            }
            other => {
                let effects = self.m.handle(MatchEvent::LocalBoard(other), now);
                self.pass(effects, false, &mut out);
            }
        }
        out
    }

    /// The board must show the game as it stands (a move made on it was refused).
    fn board_back(&self, out: &mut Vec<Effect>) {
        if self.m.setup().local_board {
            out.push(Effect::Match(MatchEffect::BoardExpect {
                board: BoardOf::Player,
                position: Box::new(self.m.game().position().clone()),
                previous: None,
            }));
        }
    }

    /// Time passes: the claim becomes possible; the match's own deadlines.
    fn tick(&mut self, now: Timestamp) -> Vec<Effect> {
        let mut out = Vec::new();
        self.tell_claim(now, &mut out);
        self.warn(now, &mut out);
        out
    }

    /// The connection's news in words; a refused move is taken off, a move the token kept
    /// from the server is held until the player has logged in again.
    fn link(&mut self, news: Link, now: Timestamp) -> Vec<Effect> {
        let o = &self.lang.online;
        let mut out = Vec::new();
        match news {
            Link::Dropped if self.is_over() => {}
            Link::Dropped => {
                if !self.link_down {
                    self.link_down = true;
                    out.push(say(Urgency::Urgent, o.reconnecting.clone()));
                }
            }
            Link::Restored => {
                if std::mem::take(&mut self.link_down) {
                    out.push(answer(o.reconnected.clone()));
                }
            }
            Link::Waiting(d) => {
                let until = now + d;
                // Said once for a wait, not again by each request that meets it.
                if self
                    .waiting_until
                    .is_none_or(|told| until > told + Duration::from_secs(5))
                {
                    self.waiting_until = Some(until);
                    out.push(say(
                        Urgency::Urgent,
                        fill(
                            &o.rate_limited,
                            &[("seconds", &d.as_secs().max(1).to_string())],
                        ),
                    ));
                }
            }
            Link::Revoked => self.refused_token(None, &mut out),
            Link::Unsent(action) => self.refused_token(Some(action), &mut out),
            Link::Authorized => {
                if std::mem::take(&mut self.revoked) {
                    out.push(answer(o.authorized.clone()));
                }
                if let Some(m) = self.held.take() {
                    self.send_move(m, &mut out);
                }
            }
            Link::Refused { action, reason } => {
                let reason = printable(&reason);
                if let Action::Move(_) = action {
                    self.sent = None;
                    self.board_back(&mut out);
                    out.push(say(
                        Urgency::Urgent,
                        fill(&o.move_refused, &[("reason", &reason)]),
                    ));
                } else {
                    out.push(say(
                        Urgency::Urgent,
                        fill(&o.refused, &[("reason", &reason)]),
                    ));
                }
            }
            Link::TooLong => out.push(answer(o.too_long.clone())),
            Link::BadLine(reason) => {
                // Said once until a good line comes: a flood of bad lines is one sentence.
                if !std::mem::replace(&mut self.bad_told, true) {
                    out.push(say(
                        Urgency::Answer,
                        fill(&o.bad_line, &[("reason", &printable(&reason))]),
                    ));
                }
            }
        }
        out
    }

    /// The token was refused (said once); a move that did not go is held for the next login.
    fn refused_token(&mut self, unsent: Option<Action>, out: &mut Vec<Effect>) {
        let o = &self.lang.online;
        if !std::mem::replace(&mut self.revoked, true) {
            out.push(say(Urgency::Urgent, o.revoked.clone()));
        }
        if let Some(Action::Move(_)) = unsent
            && let Some(m) = self.sent.take()
        {
            self.held = Some(m);
            out.push(answer(fill(&o.move_held, &[("move", &self.move_words(m))])));
        }
    }

    /// A move of the player's in the game's words.
    fn move_words(&self, m: Move) -> String {
        crate::notation::speak::announce(
            self.m.game().position(),
            m,
            self.lang,
            self.m.setup().form,
        )
    }
}

impl Machine for Online {
    type Event = Event;
    type Effect = Effect;

    fn handle(&mut self, event: Event, now: Timestamp) -> Vec<Effect> {
        match event {
            Event::Server(line) => self.server(line, now),
            Event::Line(text) => self.line(&text, now),
            Event::Command(c) => self.command(c, now),
            Event::Board(r) => self.board(r, now),
            Event::Tick => self.tick(now),
            Event::Link(news) => self.link(news, now),
        }
    }

    /// The next instant something falls due: the opponent's absence long enough to claim,
    /// or a mark of the player's own time.
    fn next_deadline(&self, now: Timestamp) -> Option<Timestamp> {
        let claim = self
            .claim_at
            .filter(|&t| !self.claim_told && t > now && !self.is_over());
        let mark = self
            .clock
            .filter(|c| c.running == Some(self.me) && !self.is_over())
            .and_then(|c| self.warnings.next_in(c.remaining(self.me, now)))
            .map(|d| now + d);
        [claim, mark, self.low_clock_instant(now)]
            .into_iter()
            .flatten()
            .min()
    }
}

/// A player's name as said: a person's name, or lichess's engine with its level.
pub fn player_name(p: &Player, lang: &Language) -> String {
    match (p.ai_level, &p.name, &p.id) {
        (Some(level), _, _) => fill(&lang.online.ai, &[("level", &level.to_string())]),
        (None, Some(name), _) => printable(name).into_owned(),
        (None, None, Some(id)) => printable(id).into_owned(),
        (None, None, None) => lang.online.anonymous.clone(),
    }
}

#[cfg(test)]
mod tests;
