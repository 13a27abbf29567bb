//! Following games one does not play, pure: a lichess broadcast round's PGN stream (every game
//! first, then a game's whole PGN each time it changes), a game's move stream, or lichess TV.
//! The stream's lines go in with the instant; what to say comes out: each new move of the board
//! followed in the Appendix D words, other boards' moves with the board's name when all are
//! followed, corrections, results, and the answers to the player's questions about the board
//! followed (asked exactly as at the board, since each board is a [`Match`] of its own). No
//! move can be typed: the games are someone else's.

pub(crate) mod feed;
pub(crate) mod split;
pub use crate::notation::words::watch as words;

use std::time::Duration;

use shakmaty::uci::UciMove;
use shakmaty::{ByColor, CastlingMode, Chess, Color, Position};

use crate::game::Game;
use crate::laws::Rules;
use crate::machine::Machine;
use crate::machine::{Common, answer, say};
use crate::matchplay::command::{Command, Line, read_line};
use crate::matchplay::session::{ClockAnswer, Effect, Event as MatchEvent, Match, Setup, Side};
use crate::matchplay::session::{SpeechControl, Urgency};
use crate::notation::clock_words::player_time;
use crate::notation::language::{Language, fill};
use crate::notation::printable;
use crate::notation::printable::{MAX_NAME, MAX_REASON, printable_cut};
use crate::notation::speak::Form;
use crate::pgn::{Item, Reader};
use crate::record::import::import_game;
use crate::time::Timestamp;
use crate::variant::Variant;
use feed::FeedLine;

/// Which board of a round to follow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// The first board (also when nothing is asked).
    First,
    /// The board with this number (1 for the first game of the round).
    Number(usize),
    /// The board where a player's name holds this text (any case).
    Name(String),
}

impl Choice {
    /// `--board` and `folgen`: a number, or a part of a player's name.
    pub fn parse(text: &str) -> Option<Choice> {
        let text = text.trim();
        if text.is_empty() {
            return None;
        }
        Some(match text.parse::<usize>() {
            Ok(n) if n >= 1 => Choice::Number(n),
            _ => Choice::Name(text.to_string()),
        })
    }

    fn fits(&self, number: usize, white: &str, black: &str) -> bool {
        match self {
            Choice::First => number == 1,
            Choice::Number(n) => *n == number,
            Choice::Name(part) => {
                let part = part.to_lowercase();
                white.to_lowercase().contains(&part) || black.to_lowercase().contains(&part)
            }
        }
    }

    fn words(&self) -> String {
        match self {
            Choice::First => "1".to_string(),
            Choice::Number(n) => n.to_string(),
            Choice::Name(s) => printable(s).into_owned(),
        }
    }
}

/// What is followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A broadcast round: its PGN stream.
    Round,
    /// One game's move stream (or lichess TV): NDJSON.
    Game,
}

/// How a watch is set up.
#[derive(Clone, Debug)]
pub struct WatchOptions {
    pub source: Source,
    pub choice: Choice,
    /// Every board's moves are said, the others' with their board's name.
    pub all_boards: bool,
    pub form: Form,
}

/// What happens to the watch.
#[derive(Clone, Debug)]
pub enum Event {
    /// A line of the stream, as the server sent it.
    Stream(String),
    /// A stream line longer than the adapter reads (it is skipped).
    TooLong,
    /// The stream closed or broke; the adapter connects again (unless the game followed is
    /// over: then the watch is).
    Dropped,
    /// The stream is back.
    Restored,
    /// The server asks to wait (HTTP 429) this long.
    Waiting(Duration),
    /// The stream ended for good (a finished game's stream, or a refusal), in words.
    Ended(Option<String>),
    /// A new connection begins: a game's stream first describes the game, then replays its
    /// moves from the start.
    Connected,
    /// A line the player typed.
    Line(String),
    /// A command from a key.
    Command(Command),
    Tick,
}

/// A clock as a stream told it: both times at that instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Told {
    times: ByColor<Option<Duration>>,
    at: Timestamp,
}

/// One game followed.
struct Board {
    /// How the stream names the game again (its GameURL, else its players and round).
    key: String,
    number: usize,
    white: String,
    black: String,
    m: Match,
    /// The result as the stream last gave it ("*" while the game runs).
    result: String,
    clock: Option<Told>,
}

impl Board {
    /// How another board's moves and results are said: the board's number ("Brett 2"); a
    /// single game by its players.
    fn short(&self, lang: &Language, source: Source) -> String {
        match source {
            Source::Round => fill(
                &lang.watch.board_short,
                &[("number", &self.number.to_string())],
            ),
            Source::Game => self.name(lang, source),
        }
    }

    /// The result in words ("Anna gewinnt, 1 zu 0"), the same wherever it is said: the
    /// stream's, else the game's own when it ended by the rules; `None` while it runs.
    fn result_words(&self, lang: &Language) -> Option<String> {
        let result = match self.result.as_str() {
            "*" => self.m.game().result().map(|r| r.pgn())?,
            r => r,
        };
        let w = &lang.watch;
        let template = match result {
            "1-0" => &w.result_white,
            "0-1" => &w.result_black,
            "1/2-1/2" | "½-½" => &w.result_draw,
            _ => return None,
        };
        Some(fill(
            template,
            &[("white", &self.white), ("black", &self.black)],
        ))
    }

    fn name(&self, lang: &Language, source: Source) -> String {
        let pairs = [
            ("number", self.number.to_string()),
            ("white", self.white.clone()),
            ("black", self.black.clone()),
        ];
        let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
        match source {
            Source::Round => fill(&lang.watch.board_name, &pairs),
            Source::Game => fill(&lang.watch.game_name, &pairs),
        }
    }

    /// Times now: the side to move's time runs on from when it was told, while the game runs.
    fn times(&self, now: Timestamp) -> Option<ByColor<Option<Duration>>> {
        let told = self.clock?;
        let running =
            (self.result == "*" && !self.m.game().is_over()).then(|| self.m.game().turn());
        Some(ByColor::new_with(|c| {
            told.times.get(c).map(|d| {
                if running == Some(c) {
                    d.saturating_sub(now.saturating_since(told.at))
                } else {
                    d
                }
            })
        }))
    }
}

/// How long after the first game the choice of board may stay unmatched before it is said.
const CHOICE_WAIT: Duration = Duration::from_secs(3);

/// The most boards of a round kept: a lichess round holds at most 100 games; a stream that
/// names more costs no more memory, and the rest is said once.
pub(crate) const MAX_BOARDS: usize = 100;

/// The longest key by which a round names a game again (its address): a longer one is cut.
const MAX_KEY: usize = 300;

/// A game stream's replay of the game's moves from its start, taken in silently: the board
/// stands where the game does once it is over.
struct Replay {
    /// Positions with a move still to come.
    left: usize,
    /// The start position the stream sent first, and the moves since.
    start: Option<Chess>,
    moves: Vec<shakmaty::Move>,
    clocks: ByColor<Option<Duration>>,
}

/// Following a round or a game.
pub struct Watch {
    lang: &'static Language,
    options: WatchOptions,
    boards: Vec<Board>,
    followed: Option<usize>,
    split: split::Splitter,
    /// The first game came at this instant (the choice is matched from then on).
    first_at: Option<Timestamp>,
    unmatched_told: bool,
    link_down: bool,
    /// Said once per wait.
    waiting_until: Option<Timestamp>,
    /// A broken line was said; the next is said only after a good one.
    bad_told: bool,
    over: bool,
    /// A round with more boards than [`MAX_BOARDS`] was said.
    too_many_told: bool,
    /// The next line is a connection's first (a game's stream then replays its moves).
    fresh: bool,
    /// The replay of a game's stream under way.
    replay: Option<Replay>,
    /// The board followed is said once its replay is over.
    follow_after_replay: bool,
    /// The watch's help was the last answer: `hilfe` again says every command.
    help: crate::matchplay::help::HelpAgain,
    wording: crate::notation::wording::Wording,
    /// The low-clock sound for the board followed: each side's once, when its time falls
    /// under the threshold; a new watcher for each board followed.
    low_clock: Option<crate::cue::LowClock>,
}

/// A match that plays what it is given and takes no typed move.
fn new_match(
    start: Chess,
    variant: Variant,
    form: Form,
    wording: crate::notation::wording::Wording,
    lang: &'static Language,
    now: Timestamp,
) -> Match {
    let setup = Setup {
        white: Side::Engine,
        black: Side::Engine,
        local: Color::White,
        local_board: false,
        control: None,
        announce: crate::clock::AnnounceSettings::tournament(),
        form,
        rules: Rules::STANDARD,
        engine_level: 0,
        opponent_port: None,
        clock_answer: ClockAnswer::Remaining,
        openings: false,
        wording,
    };
    Match::start(setup, Game::from_position(start, variant), lang, now).0
}

/// Only what a listener hears of a match's effects: its sounds, words and speech controls.
fn heard(effects: Vec<Effect>) -> impl Iterator<Item = Effect> {
    effects.into_iter().filter(|e| {
        matches!(
            e,
            Effect::Common(Common::Say { .. })
                | Effect::Common(Common::Cue(_))
                | Effect::Common(Common::Speech(_))
                | Effect::Common(Common::Refused)
        )
    })
}

/// The `[%clk h:mm:ss]` of a PGN comment.
pub(crate) fn clk(comment: &[u8]) -> Option<Duration> {
    let text = std::str::from_utf8(comment).ok()?;
    let rest = &text[text.find("[%clk")? + 5..];
    let value = rest.trim_start().split(']').next()?.trim();
    let mut secs = 0.0f64;
    for part in value.split(':') {
        secs = secs * 60.0 + part.trim().parse::<f64>().ok()?;
    }
    // A clock past 100 days (or "1e30") is no clock: never a Duration it cannot hold.
    (secs.is_finite() && (0.0..=feed::MAX_CLOCK).contains(&secs))
        .then(|| Duration::from_secs_f64(secs))
}

/// A game of the round as read from its PGN.
struct Read {
    key: String,
    white: String,
    black: String,
    result: String,
    game: Game,
    clocks: ByColor<Option<Duration>>,
}

/// Reads one game's PGN: its players, result, moves and last clock times, or why not.
fn read_pgn(text: &str, lang: &Language) -> Result<Read, String> {
    let raw = Reader::new(text.as_bytes())
        .find(|g| !g.is_blank())
        .ok_or_else(|| lang.watch.no_game.clone())?;
    let imported =
        import_game(&raw, 1).map_err(|e| crate::record::import::import_error_words(&e, lang))?;
    // A server's text of any length is cut before it is kept, shown or said.
    let tag = |name: &str| {
        raw.tag(name)
            .map(str::trim)
            .filter(|v| !v.is_empty() && *v != "?")
            .map(|v| printable_cut(v, MAX_NAME))
    };
    let white = tag("White").unwrap_or_else(|| lang.color(Color::White).to_string());
    let black = tag("Black").unwrap_or_else(|| lang.color(Color::Black).to_string());
    let url = |name: &str| {
        raw.tag(name)
            .map(str::trim)
            .filter(|v| !v.is_empty() && *v != "?")
            .map(|v| printable_cut(v, MAX_KEY))
    };
    let key = url("GameURL")
        .or_else(|| url("ChapterURL"))
        .unwrap_or_else(|| format!("{white}\n{black}\n{}", tag("Round").unwrap_or_default()));
    let result = tag("Result")
        .or_else(|| raw.termination.map(str::to_string))
        .unwrap_or_else(|| "*".to_string());
    // The last time told for each side: a [%clk] after that side's move.
    let mut clocks = ByColor::new_with(|_| None);
    let mut mover = imported.game.start().turn();
    let mut last: Option<Color> = None;
    let mut depth = 0usize;
    for item in raw.movetext.iter() {
        match item.item {
            Item::StartVariation => depth += 1,
            Item::EndVariation => depth = depth.saturating_sub(1),
            Item::San(_) if depth == 0 => {
                last = Some(mover);
                mover = !mover;
            }
            Item::Comment(c) if depth == 0 => {
                if let (Some(by), Some(d)) = (last, clk(c)) {
                    *clocks.get_mut(by) = Some(d);
                }
            }
            _ => {}
        }
    }
    Ok(Read {
        key,
        white,
        black,
        result,
        game: imported.game,
        clocks,
    })
}

impl Watch {
    pub fn new(options: WatchOptions, lang: &'static Language) -> Watch {
        Watch {
            lang,
            options,
            boards: Vec::new(),
            followed: None,
            split: split::Splitter::default(),
            first_at: None,
            unmatched_told: false,
            link_down: false,
            waiting_until: None,
            bad_told: false,
            over: false,
            too_many_told: false,
            fresh: true,
            replay: None,
            follow_after_replay: false,
            help: Default::default(),
            wording: Default::default(),
            low_clock: None,
        }
    }

    /// The low-clock sound when a side's time on the board followed first falls under
    /// `threshold`; none for `None` or zero. A time already under it when the board is
    /// followed is no news.
    pub fn with_low_clock(mut self, threshold: Option<Duration>) -> Watch {
        self.low_clock = threshold
            .filter(|t| !t.is_zero())
            .map(crate::cue::LowClock::new);
        self
    }

    /// The followed board's times now, while its game runs.
    fn running_times(&self, now: Timestamp) -> Option<ByColor<Option<Duration>>> {
        let board = self.followed.and_then(|i| self.boards.get(i))?;
        if board.result != "*" || board.m.game().is_over() || self.replay.is_some() {
            return None;
        }
        board.times(now)
    }

    /// The low-clock sound for each side of the board followed whose time has just fallen
    /// under the threshold.
    fn watch_low_clock(&mut self, now: Timestamp, out: &mut Vec<Effect>) {
        let Some(times) = self.running_times(now) else {
            return;
        };
        let Some(watch) = self.low_clock.as_mut() else {
            return;
        };
        for color in Color::ALL {
            if let Some(left) = *times.get(color)
                && watch.fell_under(color, left)
            {
                out.push(Effect::Common(Common::Cue(vec![crate::cue::Cue::LowClock])));
            }
        }
    }

    /// When the side to move's time on the board followed reaches the low-clock threshold,
    /// if its sound may still come (just after, so that the tick finds it fallen).
    fn low_clock_instant(&self, now: Timestamp) -> Option<Timestamp> {
        let watch = self.low_clock.as_ref()?;
        let board = self.followed.and_then(|i| self.boards.get(i))?;
        let color = board.m.game().turn();
        if !watch.pending(color) {
            return None;
        }
        let left = (*self.running_times(now)?.get(color))?.checked_sub(watch.threshold())?;
        Some(now + left + Duration::from_millis(1))
    }

    /// The moves said in these words (the capture and check words left out where the
    /// player's sounds say them).
    pub fn with_wording(mut self, wording: crate::notation::wording::Wording) -> Watch {
        self.wording = wording;
        self
    }

    /// The board followed, if one is.
    pub fn followed(&self) -> Option<&Match> {
        self.followed.and_then(|i| self.boards.get(i)).map(|b| &b.m)
    }

    /// The followed board's name.
    #[cfg(test)]
    pub(crate) fn followed_name(&self) -> Option<String> {
        self.followed
            .and_then(|i| self.boards.get(i))
            .map(|b| b.name(self.lang, self.options.source))
    }

    /// The stream ended for good: nothing more comes, and the adapter stops following.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// One game followed by its stream, and the stream gave its result.
    fn single_game_over(&self) -> bool {
        self.options.source == Source::Game && self.boards.first().is_some_and(|b| b.result != "*")
    }

    /// Boards known so far.
    #[cfg(test)]
    pub(crate) fn board_count(&self) -> usize {
        self.boards.len()
    }

    fn stream(&mut self, text: &str, now: Timestamp, out: &mut Vec<Effect>) {
        match self.options.source {
            Source::Round => {
                for piece in self.split.line(text) {
                    match piece {
                        split::Piece::Game(pgn) => self.pgn(&pgn, now, out),
                        split::Piece::TooLong => {
                            out.push(say(Urgency::Urgent, self.lang.watch.too_long.clone()));
                        }
                    }
                }
            }
            Source::Game => {
                let fresh = std::mem::take(&mut self.fresh);
                match feed::line(text) {
                    Ok(None) => self.fresh = fresh,
                    Ok(Some(line)) => {
                        self.bad_told = false;
                        self.feed(line, fresh, now, out);
                    }
                    Err(reason) => self.bad(&reason, out),
                }
            }
        }
    }

    /// An unreadable piece of the stream: said, unless one was said and no good one came since.
    fn bad(&mut self, reason: &str, out: &mut Vec<Effect>) {
        if !std::mem::replace(&mut self.bad_told, true) {
            out.push(say(
                Urgency::Urgent,
                fill(
                    &self.lang.watch.bad_pgn,
                    &[("reason", &printable_cut(reason, MAX_REASON))],
                ),
            ));
        }
    }

    /// One game's whole PGN: a new board, or the new moves (and a correction, a result) of a
    /// known one.
    fn pgn(&mut self, text: &str, now: Timestamp, out: &mut Vec<Effect>) {
        let read = match read_pgn(text, self.lang) {
            Ok(r) => r,
            Err(reason) => return self.bad(&reason, out),
        };
        self.bad_told = false;
        self.first_at.get_or_insert(now);
        let index = match self.boards.iter().position(|b| b.key == read.key) {
            Some(i) => i,
            // A round holds at most MAX_BOARDS games: more are said once and not kept.
            None if self.boards.len() >= MAX_BOARDS => {
                if !std::mem::replace(&mut self.too_many_told, true) {
                    out.push(say(
                        Urgency::Urgent,
                        fill(
                            &self.lang.watch.too_many_boards,
                            &[("max", &MAX_BOARDS.to_string())],
                        ),
                    ));
                }
                return;
            }
            None => {
                let m = new_match(
                    read.game.start().clone(),
                    read.game.variant(),
                    self.options.form,
                    self.wording,
                    self.lang,
                    now,
                );
                self.boards.push(Board {
                    key: read.key.clone(),
                    number: self.boards.len() + 1,
                    white: read.white.clone(),
                    black: read.black.clone(),
                    m,
                    result: "*".to_string(),
                    clock: None,
                });
                let i = self.boards.len() - 1;
                // Its moves so far are taken in silently; following it says where it stands.
                let moves: Vec<_> = read.game.moves().iter().map(|p| p.mv).collect();
                for mv in moves {
                    let _ = self.boards[i].m.handle(MatchEvent::EngineMove(mv), now);
                }
                self.boards[i].result = read.result.clone();
                self.boards[i].clock = Some(Told {
                    times: read.clocks,
                    at: now,
                });
                if self.followed.is_none()
                    && self.options.choice.fits(i + 1, &read.white, &read.black)
                {
                    self.follow(i, out);
                } else if self.options.all_boards
                    && self.boards.len() > 1
                    && self.first_dump_over(now)
                {
                    let name = self.boards[i].name(self.lang, self.options.source);
                    out.push(answer(fill(
                        &self.lang.watch.new_board,
                        &[("board", &name)],
                    )));
                }
                return;
            }
        };
        let moves: Vec<_> = read.game.moves().iter().map(|p| p.mv).collect();
        self.update(index, &moves, now, out);
        let board = &mut self.boards[index];
        board.clock = Some(Told {
            times: ByColor::new_with(|c| {
                (*read.clocks.get(c)).or(board.clock.and_then(|t| *t.times.get(c)))
            }),
            at: now,
        });
        if board.result != read.result {
            board.result = read.result.clone();
            self.result(index, out);
        }
    }

    /// Games that come within the wait after the first belong to the round's first message.
    fn first_dump_over(&self, now: Timestamp) -> bool {
        self.first_at
            .is_some_and(|t| now.saturating_since(t) >= CHOICE_WAIT)
    }

    /// Plays a board's new moves (taking back first what the stream no longer has), said as
    /// the board is followed.
    fn update(
        &mut self,
        index: usize,
        moves: &[shakmaty::Move],
        now: Timestamp,
        out: &mut Vec<Effect>,
    ) {
        let followed = self.followed == Some(index);
        let all = self.options.all_boards;
        let lang = self.lang;
        let name = self.boards[index].name(lang, self.options.source);
        let short = self.boards[index].short(lang, self.options.source);
        let board = &mut self.boards[index];
        let local: Vec<_> = board.m.game().moves().iter().map(|p| p.mv).collect();
        let common = local.iter().zip(moves).take_while(|(a, b)| a == b).count();
        if common < local.len() {
            let taken = local.len() - common;
            let _ = board.m.take_back_to(common, now);
            if followed || all {
                out.push(answer(fill(
                    &lang.watch.corrected,
                    &[("board", &name), ("count", &taken.to_string())],
                )));
            }
        }
        for &mv in moves.iter().skip(common) {
            if board.m.game().is_over() {
                break;
            }
            let mover = board.m.game().turn();
            let effects = board.m.handle(MatchEvent::EngineMove(mv), now);
            let mut labelled = false;
            for e in heard(effects) {
                match e {
                    // The board followed: each move with its side ("Weiß: Eva vier").
                    Effect::Common(Common::Say { urgency, mut lines }) if followed => {
                        if let (false, Urgency::Move, Some(first)) =
                            (labelled, urgency, lines.first_mut())
                        {
                            *first = format!("{}{}{first}", lang.color(mover), lang.messages.colon);
                            labelled = true;
                        }
                        out.push(Effect::Common(Common::Say { urgency, lines }));
                    }
                    // A move's sounds (and the game's end) come before its words, as in play.
                    Effect::Common(Common::Cue(cues)) if followed || all => {
                        out.push(Effect::Common(Common::Cue(cues)));
                    }
                    // Another board: its number, then the move.
                    Effect::Common(Common::Say { urgency, lines }) if all => {
                        out.push(Effect::Common(Common::Say {
                            urgency,
                            lines: vec![fill(
                                &lang.watch.board_move,
                                &[("board", &short), ("move", &lines.join(". "))],
                            )],
                        }))
                    }
                    _ => {}
                }
            }
        }
    }

    /// A result the stream gave: said for the board followed, and for every board when all are.
    fn result(&mut self, index: usize, out: &mut Vec<Effect>) {
        if self.followed != Some(index) && !self.options.all_boards {
            return;
        }
        let board = &self.boards[index];
        let Some(result) = board.result_words(self.lang) else {
            return;
        };
        let name = if self.followed == Some(index) {
            board.name(self.lang, self.options.source)
        } else {
            board.short(self.lang, self.options.source)
        };
        // A game the board's moves ended (a mate) had its sound with the move; one ended
        // otherwise (a resignation, a flag, an agreement) has it with its result.
        if !board.m.game().is_over() {
            out.push(Effect::Common(Common::Cue(vec![crate::cue::Cue::End])));
        }
        out.push(answer(fill(
            &self.lang.watch.board_result,
            &[("board", &name), ("result", &result)],
        )));
    }

    /// Follows board `index`: said with where its game stands.
    fn follow(&mut self, index: usize, out: &mut Vec<Effect>) {
        if self.followed != Some(index) {
            // Another board's clocks: their first look decides what is news.
            self.low_clock = self
                .low_clock
                .as_ref()
                .map(|w| crate::cue::LowClock::new(w.threshold()));
        }
        self.followed = Some(index);
        let board = &self.boards[index];
        let lang = self.lang;
        let mut parts = vec![fill(
            &lang.watch.following,
            &[("board", &board.name(lang, self.options.source))],
        )];
        let game = board.m.game();
        if game.ply() > 0 {
            parts.push(crate::matchplay::queries::last_move(
                game,
                lang,
                self.options.form,
            ));
        }
        match board.result_words(lang) {
            Some(result) => parts.push(fill(&lang.watch.finished, &[("result", &result)])),
            None => parts.push(crate::matchplay::queries::turn(game.position(), lang)),
        }
        out.push(answer(parts.join(". ")));
    }

    /// A line of a game's move stream or of lichess TV; `fresh`: the connection's first.
    fn feed(&mut self, line: FeedLine, fresh: bool, now: Timestamp, out: &mut Vec<Effect>) {
        match line {
            FeedLine::Game {
                id,
                fen,
                white,
                black,
                result,
                clocks,
                new_game,
                replay,
            } => {
                let known = self.boards.first().is_some_and(|b| b.key == id) && !new_game;
                let start = match from_fen(&fen) {
                    Some(p) => p,
                    None => return self.bad(&fen, out),
                };
                // A connection's first description: the game's moves are replayed next,
                // from its start (lichess's game stream; TV replays nothing).
                let replayed = replay.filter(|_| fresh && !new_game);
                self.replay = replayed.map(|left| Replay {
                    left,
                    start: None,
                    moves: Vec::new(),
                    clocks,
                });
                if !known {
                    self.boards.clear();
                    let m = new_match(
                        start,
                        Variant::Standard,
                        self.options.form,
                        self.wording,
                        self.lang,
                        now,
                    );
                    self.boards.push(Board {
                        key: id,
                        number: 1,
                        white,
                        black,
                        m,
                        result: result.clone().unwrap_or_else(|| "*".into()),
                        clock: Some(Told {
                            times: clocks,
                            at: now,
                        }),
                    });
                    // Said once the replay has brought the board to where the game stands.
                    if self.replay.is_some() {
                        self.followed = Some(0);
                        self.follow_after_replay = true;
                    } else {
                        self.follow(0, out);
                    }
                    return;
                }
                let board = &mut self.boards[0];
                // After a reconnection without a replay the description may be ahead: taken
                // as the new start.
                if self.replay.is_none() && board.m.game().position().board() != start.board() {
                    board.m = new_match(
                        start,
                        Variant::Standard,
                        self.options.form,
                        self.wording,
                        self.lang,
                        now,
                    );
                }
                board.clock = Some(Told {
                    times: clocks,
                    at: now,
                });
                if let Some(r) = result
                    && board.result != r
                {
                    board.result = r;
                    self.result(0, out);
                }
            }
            FeedLine::Move { fen, uci, clocks } => {
                if self.replay.is_some() {
                    return self.replayed(&fen, uci.as_deref(), clocks, now, out);
                }
                match uci {
                    Some(uci) => self.feed_move(&fen, &uci, clocks, now, out),
                    // A start position outside a replay: a position told.
                    None => self.feed_move(&fen, "", clocks, now, out),
                }
            }
        }
    }

    /// A position of the replay: the start first, then each move, taken in silently; the
    /// board is brought to the game once the last has come.
    fn replayed(
        &mut self,
        fen: &str,
        uci: Option<&str>,
        clocks: ByColor<Option<Duration>>,
        now: Timestamp,
        out: &mut Vec<Effect>,
    ) {
        let Some(replay) = self.replay.as_mut() else {
            return;
        };
        replay.clocks = clocks;
        let target = fen.split_ascii_whitespace().next().unwrap_or("");
        let played = match (uci, replay.start.as_ref()) {
            (None, _) => None,
            (Some(uci), Some(start)) => {
                let mut pos = start.clone();
                for &m in &replay.moves {
                    pos.play_unchecked(m);
                }
                UciMove::from_ascii(uci.as_bytes())
                    .ok()
                    .and_then(|u| u.to_move(&pos).ok())
                    .filter(|m| pos.is_legal(*m))
                    .filter(|m| {
                        let mut after = pos.clone();
                        after.play_unchecked(*m);
                        after.board().to_string() == target
                    })
            }
            // A move before any start: the replay is given up, the move taken as live.
            (Some(uci), None) => {
                self.replay = None;
                self.follow_after_replay_now(out);
                return self.feed_move(fen, uci, clocks, now, out);
            }
        };
        match (uci, played) {
            (None, _) => {
                let Some(start) = from_fen(fen) else {
                    self.replay = None;
                    self.follow_after_replay_now(out);
                    return self.bad(fen, out);
                };
                replay.start = Some(start);
                replay.moves.clear();
            }
            (Some(_), Some(m)) => {
                replay.moves.push(m);
                replay.left = replay.left.saturating_sub(1);
            }
            // A position that does not follow: the replay goes on from it.
            (Some(_), None) => match from_fen(fen) {
                Some(start) => {
                    replay.start = Some(start);
                    replay.moves.clear();
                    replay.left = replay.left.saturating_sub(1);
                }
                None => {
                    self.replay = None;
                    self.follow_after_replay_now(out);
                    return self.bad(fen, out);
                }
            },
        }
        if replay.left == 0 || replay.moves.len() >= feed::MAX_REPLAY {
            self.end_replay(now, out);
        }
    }

    /// The replay is over: the board stands where the game does (the moves a reconnection
    /// missed said, as any new move), and a board just found is said.
    fn end_replay(&mut self, now: Timestamp, out: &mut Vec<Effect>) {
        let Some(replay) = self.replay.take() else {
            return;
        };
        let Some(start) = replay.start else {
            return self.follow_after_replay_now(out);
        };
        let Some(board) = self.boards.first_mut() else {
            return;
        };
        board.clock = Some(Told {
            times: replay.clocks,
            at: now,
        });
        let same_start = board.m.game().start().board() == start.board()
            && board.m.game().start().turn() == start.turn();
        if self.follow_after_replay || !same_start {
            board.m = new_match(
                start,
                Variant::Standard,
                self.options.form,
                self.wording,
                self.lang,
                now,
            );
            for &m in &replay.moves {
                let _ = board.m.handle(MatchEvent::EngineMove(m), now);
            }
            if !self.follow_after_replay {
                let name = board.name(self.lang, self.options.source);
                out.push(answer(fill(&self.lang.watch.resynced, &[("board", &name)])));
            }
            return self.follow_after_replay_now(out);
        }
        self.update(0, &replay.moves, now, out);
    }

    /// Says the board followed when its replay was awaited.
    fn follow_after_replay_now(&mut self, out: &mut Vec<Effect>) {
        if std::mem::take(&mut self.follow_after_replay) && !self.boards.is_empty() {
            self.follow(0, out);
        }
    }

    /// A move of the game followed, or its position when moves were missed.
    fn feed_move(
        &mut self,
        fen: &str,
        uci: &str,
        clocks: ByColor<Option<Duration>>,
        now: Timestamp,
        out: &mut Vec<Effect>,
    ) {
        let Some(board) = self.boards.first_mut() else {
            return;
        };
        board.clock = Some(Told {
            times: clocks,
            at: now,
        });
        let pos = board.m.game().position().clone();
        let target = fen.split_ascii_whitespace().next().unwrap_or("");
        if pos.board().to_string() == target {
            // Already here (a repeated line after a reconnection).
            return;
        }
        let mv = UciMove::from_ascii(uci.as_bytes())
            .ok()
            .and_then(|u| u.to_move(&pos).ok())
            .filter(|m| pos.is_legal(*m))
            .filter(|m| {
                let mut after = pos.clone();
                after.play_unchecked(*m);
                after.board().to_string() == target
            });
        if let Some(m) = mv {
            let mut moves: Vec<_> = board.m.game().moves().iter().map(|p| p.mv).collect();
            moves.push(m);
            self.update(0, &moves, now, out);
            return;
        }
        // Moves were missed: the board starts again from the position told.
        match from_fen(fen) {
            Some(start) => {
                board.m = new_match(
                    start,
                    Variant::Standard,
                    self.options.form,
                    self.wording,
                    self.lang,
                    now,
                );
                let name = board.name(self.lang, self.options.source);
                out.push(answer(fill(&self.lang.watch.resynced, &[("board", &name)])));
            }
            None => self.bad(&printable(fen), out),
        }
    }

    fn clock(&self, now: Timestamp) -> String {
        let times = self
            .followed
            .and_then(|i| self.boards.get(i))
            .and_then(|b| b.times(now));
        let parts: Vec<String> = match times {
            Some(t) => Color::ALL
                .iter()
                .filter_map(|&c| t.get(c).map(|d| player_time(c, d, self.lang)))
                .collect(),
            None => Vec::new(),
        };
        if parts.is_empty() {
            self.lang.watch.no_clock.clone()
        } else {
            parts.join(". ")
        }
    }

    fn boards_words(&self) -> String {
        if self.boards.is_empty() {
            return self.lang.watch.no_boards.clone();
        }
        self.boards
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let mut s = b.name(self.lang, self.options.source);
                if let Some(result) = b.result_words(self.lang) {
                    s = fill(
                        &self.lang.watch.board_result,
                        &[("board", &s), ("result", &result)],
                    );
                }
                if self.followed == Some(i) {
                    s = fill(&self.lang.watch.followed_mark, &[("board", &s)]);
                }
                s
            })
            .collect::<Vec<_>>()
            .join(". ")
    }

    /// The player's line: a choice of board, or a question for the board followed; a move or
    /// a request that would change a game is refused.
    fn line(&mut self, text: &str, now: Timestamp, out: &mut Vec<Effect>) {
        let w = &self.lang.watch;
        let (first, rest) = match text.trim().split_once(char::is_whitespace) {
            Some((f, r)) => (f, r.trim()),
            None => (text.trim(), ""),
        };
        let is = |words: &[String]| words.iter().any(|x| x.eq_ignore_ascii_case(first));
        if is(&w.words_boards) {
            out.push(answer(self.boards_words()));
            return;
        }
        if is(&w.words_follow) {
            let found = Choice::parse(rest).and_then(|c| {
                self.boards
                    .iter()
                    .position(|b| c.fits(b.number, &b.white, &b.black))
            });
            match found {
                Some(i) => self.follow(i, out),
                None => {
                    out.push(answer(fill(
                        &w.unknown_board,
                        &[("choice", &printable(rest))],
                    )));
                    out.push(Effect::Common(Common::Refused));
                }
            }
            return;
        }
        match read_line(text) {
            Ok(Line::Move(_)) => {
                out.push(answer(w.read_only.clone()));
                out.push(Effect::Common(Common::Refused));
            }
            Ok(Line::Command(c)) => self.command(c, now, out),
            Ok(Line::Empty) => {}
            Err(e) => {
                out.push(answer(crate::matchplay::session::command_error_message(
                    &e, self.lang,
                )));
                out.push(Effect::Common(Common::Refused));
            }
        }
    }

    fn command(&mut self, c: Command, now: Timestamp, out: &mut Vec<Effect>) {
        use Command as C;
        match c {
            C::Quit => out.push(Effect::Common(Common::Quit)),
            C::Clock => out.push(answer(self.clock(now))),
            C::Repeat => out.push(Effect::Common(Common::Speech(SpeechControl::Repeat))),
            c if c.speech().is_some() => {
                let Some(i) = self.followed else {
                    return;
                };
                out.extend(heard(self.boards[i].m.handle(MatchEvent::Command(c), now)));
            }
            // The watch's own commands first, then (asked again) every command it takes.
            C::Help => {
                use crate::matchplay::help::{all_commands, mode_help};
                let lang = self.lang;
                let text = self.help.answer(
                    || mode_help(&lang.watch.help, lang),
                    || all_commands(&commands(), lang),
                );
                out.push(answer(text));
            }
            c if c.question().is_some() || c.looks_back() => match self.followed {
                Some(i) => out.extend(heard(self.boards[i].m.handle(MatchEvent::Command(c), now))),
                None => out.push(answer(self.lang.watch.no_boards.clone())),
            },
            _ => {
                out.push(answer(self.lang.watch.read_only.clone()));
                out.push(Effect::Common(Common::Refused));
            }
        }
    }

    fn link(&mut self, event: &Event, now: Timestamp, out: &mut Vec<Effect>) {
        let o = &self.lang.online;
        match event {
            // A single game's stream that closes after the game's result has come: nothing
            // more to follow (TV's featured games carry no result, so TV goes on).
            Event::Dropped if self.single_game_over() && !self.over => {
                self.over = true;
                out.push(answer(self.lang.watch.stream_ended.clone()));
            }
            _ if self.over => {}
            Event::Connected => {
                self.fresh = true;
                // A replay cut off by the break starts again with the new connection.
                self.replay = None;
            }
            Event::Dropped => {
                // A PGN cut off by the break is not kept half.
                self.split = split::Splitter::default();
                if !std::mem::replace(&mut self.link_down, true) {
                    out.push(say(Urgency::Urgent, o.reconnecting.clone()));
                }
            }
            Event::Restored if std::mem::take(&mut self.link_down) => {
                out.push(answer(o.reconnected.clone()));
            }
            Event::Waiting(d) if self.waiting_until.is_none_or(|t| now >= t) => {
                self.waiting_until = Some(now + *d);
                out.push(say(
                    Urgency::Urgent,
                    fill(&o.rate_limited, &[("seconds", &d.as_secs().to_string())]),
                ));
            }
            Event::TooLong => out.push(say(Urgency::Urgent, o.too_long.clone())),
            Event::Ended(reason) => {
                self.over = true;
                out.push(answer(match reason {
                    Some(r) => fill(
                        &self.lang.watch.stream_failed,
                        &[("reason", &printable_cut(r, MAX_REASON))],
                    ),
                    None => self.lang.watch.stream_ended.clone(),
                }));
            }
            _ => {}
        }
    }
}

/// A position from a stream's FEN; one with only the placement and the side to move (a move
/// line) takes whatever castling rights its pieces still allow.
fn from_fen(fen: &str) -> Option<Chess> {
    let mut fields: Vec<&str> = fen.split_ascii_whitespace().collect();
    if fields.is_empty() {
        return None;
    }
    if fields.len() < 2 {
        fields.push("w");
    }
    let full = if fields.len() >= 4 {
        fields.join(" ")
    } else {
        format!("{} {} KQkq - 0 1", fields[0], fields[1])
    };
    let parsed = shakmaty::fen::Fen::from_ascii(full.as_bytes()).ok()?;
    parsed
        .into_position::<Chess>(CastlingMode::Standard)
        .or_else(shakmaty::PositionError::ignore_invalid_castling_rights)
        .ok()
}

/// Every command of the watch, as its whole list names them.
pub(crate) fn commands() -> Vec<crate::matchplay::help::Listed> {
    use crate::matchplay::help::{GAME, Listed, POSITION, REVIEW, SPEECH};
    let mut all = vec![Listed::Boards, Listed::Follow, Listed::Help, Listed::Quit];
    all.extend(POSITION);
    all.extend(GAME);
    all.push(Listed::Clock);
    all.extend(REVIEW);
    all.extend(SPEECH);
    all
}

impl Machine for Watch {
    type Event = Event;
    type Effect = Effect;

    fn handle(&mut self, event: Event, now: Timestamp) -> Vec<Effect> {
        let mut out = Vec::new();
        if matches!(event, Event::Line(_) | Event::Command(_)) {
            self.help.input();
        }
        match event {
            Event::Stream(text) => self.stream(&text, now, &mut out),
            Event::Line(text) => self.line(&text, now, &mut out),
            Event::Command(c) => self.command(c, now, &mut out),
            Event::Tick => {}
            e => self.link(&e, now, &mut out),
        }
        self.watch_low_clock(now, &mut out);
        // The board asked for is not in the round: said once, with how to choose another.
        if self.followed.is_none()
            && !self.unmatched_told
            && self.first_dump_over(now)
            && !self.boards.is_empty()
        {
            self.unmatched_told = true;
            out.push(answer(fill(
                &self.lang.watch.no_such_board,
                &[("choice", &self.options.choice.words())],
            )));
        }
        out
    }

    fn next_deadline(&self, now: Timestamp) -> Option<Timestamp> {
        let choice = match (self.followed, self.first_at) {
            (None, Some(t)) if !self.unmatched_told => Some(t + CHOICE_WAIT),
            _ => None,
        };
        [choice, self.low_clock_instant(now)]
            .into_iter()
            .flatten()
            .min()
    }
}

#[cfg(test)]
mod tests;
