//! `hector play`: a spoken game at the terminal. The pure match logic decides; this module
//! wires it to the terminal (full-screen or lines), the speech thread, the engine, the boards
//! and the record, in one event loop.

pub mod keys;
pub mod resume;
pub mod view;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, never, select, unbounded};
use shakmaty::{CastlingMode, Chess, Color, Square};

use crate::app::narrator::Narrator;
use crate::app::recorder::Recorder;
use crate::app::say::mode_speaker;
use crate::core::clock::{AnnounceSettings, TimeControl};
use crate::core::game::Game;
use crate::core::laws::Rules;
use crate::core::matchplay::command::Command;
use crate::core::matchplay::session::{
    BoardOf, ClockAnswer, Effect, Event, Match, Setup, Side, Urgency,
};
use crate::core::notation::board_words;
use crate::core::notation::clock_words::clock_faces;
use crate::core::notation::language::{Language, fill};
use crate::core::notation::printable;
use crate::core::notation::speak::Form;
use crate::core::settings::SpeechSettings;
use crate::core::time::Timestamp;
use crate::io::board_link::{BoardEvent, BoardLink, Protocol};
use crate::io::engine::{
    ClockTimes, Ending, Engine, EngineError, EngineEvent, EngineOptions, SearchLimits,
    level_limits, whole_seconds,
};
use crate::io::speech::Notice;
use crate::io::terminal::{FullScreen, Input, interactive};
use keys::{Focus, KeyOutcome};
use view::{Pieces, View};

/// Who plays the other side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// The engine when one is installed, else a second player at the keyboard.
    Auto,
    Engine(Option<PathBuf>),
    Keyboard,
    /// The sighted player's e-board on this port.
    Board(PathBuf, Protocol),
}

/// Everything `hector play` was asked for.
pub struct PlayOptions {
    pub color: Color,
    pub opponent: Opponent,
    pub level: u8,
    pub control: Option<TimeControl>,
    /// Automatic time announcements (off by default: Appendix D9d).
    pub announce: bool,
    pub form: Form,
    pub speech: SpeechSettings,
    /// The speech backend was chosen on the command line or in the configuration.
    pub speech_chosen: bool,
    pub screen_reader: bool,
    pub start: Start,
    /// The local player's board.
    pub board: Option<(PathBuf, Protocol)>,
    pub pieces: Pieces,
    pub colors: bool,
}

/// Where the game comes from.
pub enum Start {
    /// A new game from this position, with entries to begin its record with (a game
    /// continued from a PGN file brings its moves).
    New {
        game: Box<Game>,
        entries: Vec<crate::core::record::Entry>,
    },
    /// A journal continued: its record, and the game and clock it replays to.
    Resume {
        recorder: Box<Recorder>,
        replayed: Box<crate::core::record::Replayed>,
    },
}

enum AppEvent {
    Input(Input),
    Notice(Notice),
}

/// How the engine is doing.
struct EngineSlot {
    engine: Engine,
    restarts: u8,
    rejected: u8,
}

struct Board {
    link: BoardLink,
    local: bool,
}

struct App {
    lang: &'static Language,
    options_color: Color,
    game_match: Match,
    voice: Narrator,
    focus: Focus,
    engine: Option<EngineSlot>,
    boards: Vec<Board>,
    origin: Instant,
    level: u8,
    pieces: Pieces,
    colors: bool,
    recorder: Recorder,
}

impl App {
    fn now(&self) -> Timestamp {
        Timestamp::from_duration(self.origin.elapsed())
    }

    fn tell(&mut self, urgency: Urgency, lines: Vec<String>) {
        self.voice.tell(urgency, lines);
    }

    /// Carries out the match's effects in order. Returns false when the player quits.
    fn apply(&mut self, effects: Vec<Effect>) -> bool {
        let mut keep_going = true;
        for effect in effects {
            self.voice.dirty = true;
            match effect {
                Effect::Say { urgency, lines } => self.tell(urgency, lines),
                Effect::Record(r) => {
                    self.recorder.record(&r, self.game_match.game());
                    self.tell_record_problem();
                }
                Effect::EngineThink => self.ask_engine(),
                Effect::EngineStop => {
                    if let Some(slot) = self.engine.as_mut() {
                        slot.engine.stop();
                    }
                }
                Effect::BoardExpect {
                    board,
                    position,
                    previous,
                } => {
                    let local = board == BoardOf::Player;
                    let mut follow_up = Vec::new();
                    for b in self.boards.iter_mut().filter(|b| b.local == local) {
                        follow_up.extend(
                            b.link
                                .expect_position((*position).clone(), previous.as_deref().cloned()),
                        );
                    }
                    keep_going &= self.board_events(follow_up, local);
                }
                Effect::BoardPromotion(role) => {
                    let mut follow_up = Vec::new();
                    for b in self.boards.iter_mut().filter(|b| b.local) {
                        if let Ok(events) = b.link.choose_promotion(role) {
                            follow_up.extend(events);
                        }
                    }
                    keep_going &= self.board_events(follow_up, true);
                }
                Effect::Speech(c) => self.voice.speech(c),
                Effect::Save(path) => self.save(path),
                Effect::NewGame => self.new_game(),
                Effect::Quit => keep_going = false,
            }
        }
        keep_going
    }

    fn tell_record_problem(&mut self) {
        if let Some(problem) = self.recorder.take_problem() {
            let text = fill(&self.lang.play.record_failed, &[("reason", &problem)]);
            self.tell(Urgency::Urgent, vec![text]);
        }
    }

    /// Saves the game as PGN: to `path`, or beside the player in the current directory.
    fn save(&mut self, path: Option<String>) {
        let path = path.map(PathBuf::from).unwrap_or_else(|| {
            let stamp: String = self
                .recorder
                .header
                .created
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '-' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            PathBuf::from(format!("hector-{stamp}.pgn"))
        });
        let text = match self.recorder.save_pgn(&path, self.lang) {
            Ok(()) => fill(
                &self.lang.play.saved,
                &[("path", &path.display().to_string())],
            ),
            Err(e) => fill(
                &self.lang.play.save_failed,
                &[("reason", &format!("{e:#}"))],
            ),
        };
        self.tell(Urgency::Answer, vec![text]);
    }

    /// A clock checkpoint for the record when one is due.
    fn checkpoint(&mut self, force: bool) {
        let now = self.now();
        if let Some(clock) = self.game_match.clock() {
            self.recorder.checkpoint(clock, now, force);
            self.tell_record_problem();
        }
    }

    fn handle(&mut self, event: Event) -> bool {
        let now = self.now();
        let effects = self.game_match.handle(event, now);
        self.apply(effects)
    }

    fn new_game(&mut self) {
        let setup = self.game_match.setup().clone();
        let game = Game::from_position(
            self.game_match.game().start().clone(),
            self.game_match.game().variant(),
        );
        if let Some(slot) = self.engine.as_mut() {
            slot.engine.stop();
        }
        let mut header = self.recorder.header.clone();
        header.created = crate::io::journal::now_utc();
        self.recorder = Recorder::create(header, Vec::new());
        self.tell_record_problem();
        let (m, effects) = Match::new(setup, game, self.lang, self.now());
        self.game_match = m;
        self.tell(Urgency::Answer, vec![self.lang.play.new_game.clone()]);
        self.apply(effects);
    }

    fn ask_engine(&mut self) {
        let now = self.now();
        let game = self.game_match.game();
        let start = game.start().clone();
        let moves: Vec<_> = game.moves().iter().map(|m| m.mv).collect();
        let mut limits: SearchLimits = level_limits(self.level);
        if let Some(clock) = self.game_match.clock() {
            let bonus = clock.control().period(0).bonus.amount();
            let own = clock.remaining(game.turn(), now);
            // Never more than a thirtieth of the time left.
            limits.movetime = limits.movetime.min(own / 30).max(Duration::from_millis(50));
            limits.clock = Some(ClockTimes {
                wtime: clock.remaining(Color::White, now),
                btime: clock.remaining(Color::Black, now),
                winc: bonus,
                binc: bonus,
            });
        }
        let Some(slot) = self.engine.as_mut() else {
            return;
        };
        if let Err(e) = slot.engine.request_move(&start, &moves, limits) {
            let reason = engine_error_text(&e, self.lang);
            self.engine_failed(reason);
        }
    }

    /// A failed engine is restarted once; after a second failure a person takes its moves.
    fn engine_failed(&mut self, reason: String) {
        let restarted = match self.engine.as_mut() {
            Some(slot) if slot.restarts == 0 => {
                slot.restarts += 1;
                slot.engine.restart().is_ok()
            }
            _ => false,
        };
        if restarted {
            self.handle(Event::EngineFailed {
                reason,
                gone: false,
            });
            self.tell(
                Urgency::Answer,
                vec![self.lang.play.engine_restarted.clone()],
            );
            if self.game_match.setup().side(self.game_match.game().turn()) == Side::Engine
                && !self.game_match.game().is_over()
            {
                self.ask_engine();
            }
        } else {
            self.engine = None;
            self.handle(Event::EngineFailed { reason, gone: true });
        }
    }

    fn engine_event(&mut self, e: EngineEvent) -> bool {
        match e {
            EngineEvent::BestMove { mv, .. } => {
                if let Some(slot) = self.engine.as_mut() {
                    slot.rejected = 0;
                }
                self.handle(Event::EngineMove(mv))
            }
            EngineEvent::Rejected { answer, .. } => {
                let again = self.engine.as_mut().is_some_and(|slot| {
                    slot.rejected += 1;
                    slot.rejected < 2
                });
                if again {
                    self.ask_engine();
                } else {
                    let answer = printable(&answer);
                    let text = fill(&self.lang.play.engine_illegal, &[("answer", &answer)]);
                    self.engine_failed(text);
                }
                true
            }
            EngineEvent::Timeout { waited, .. } => {
                let seconds = whole_seconds(waited).to_string();
                let text = fill(&self.lang.play.engine_hung, &[("seconds", &seconds)]);
                self.engine_failed(text);
                true
            }
            EngineEvent::Died { how, .. } => {
                let text = engine_ending(how, self.lang);
                self.engine_failed(text);
                true
            }
        }
    }

    /// Board events: recognitions go to the match, everything else is told in words.
    fn board_events(&mut self, events: Vec<BoardEvent>, local: bool) -> bool {
        let mut keep_going = true;
        for event in events {
            match event {
                BoardEvent::Recognized { recognition, .. } => {
                    let ev = if local {
                        Event::LocalBoard(recognition)
                    } else {
                        Event::OpponentBoard(recognition)
                    };
                    keep_going &= self.handle(ev);
                }
                BoardEvent::Disconnected { .. } => {
                    let text = board_words::disconnected(self.lang).to_string();
                    self.tell(Urgency::Urgent, vec![text]);
                }
                BoardEvent::Reconnected => {
                    let text = board_words::reconnected(self.lang).to_string();
                    self.tell(Urgency::Answer, vec![text]);
                }
                _ => {}
            }
        }
        keep_going
    }

    fn key(&mut self, k: crossterm::event::KeyEvent) -> bool {
        self.voice.dirty = true;
        match self.voice.key(self.focus.press(k, self.options_color)) {
            Some(KeyOutcome::Command { command, keys_help }) => {
                let keep = self.handle(Event::Command(command));
                if keys_help {
                    self.tell(Urgency::Answer, vec![self.lang.play.keys_help.clone()]);
                }
                keep
            }
            Some(KeyOutcome::Line(line)) => self.handle(Event::Line(line)),
            Some(KeyOutcome::Quit) => self.handle(Event::Command(Command::Quit)),
            _ => true,
        }
    }

    fn clock_strings(&self) -> Option<(String, String, Option<Color>)> {
        let clock = self.game_match.clock()?;
        let now = self.now();
        Some(clock_faces(clock, now))
    }

    fn draw(&mut self, screen: &mut FullScreen) {
        let clock = self.clock_strings();
        let view = View {
            game: self.game_match.game(),
            lang: self.lang,
            local: self.options_color,
            cursor: self.focus.cursor,
            input: &self.focus.input,
            said: &self.voice.said,
            clock,
            pieces: self.pieces,
            colors: self.colors,
            status: &self.voice.status,
            boards: &[],
        };
        let _ = screen.terminal.draw(|f| view.draw(f));
        self.voice.dirty = false;
    }

    /// The next instant the loop must wake: a flag or announcement, a board's settle pause,
    /// or (full-screen) the next second shown while a clock runs.
    fn next_wake(&self) -> Option<Instant> {
        let now = self.now();
        let mut wakes: Vec<Instant> = Vec::new();
        if let Some(t) = self.game_match.next_deadline(now) {
            wakes.push(self.origin + t.since_origin());
        }
        if !self.game_match.game().is_over()
            && let Some(t) = self.recorder.next_checkpoint(self.game_match.clock())
        {
            wakes.push(self.origin + t.since_origin());
        }
        for b in &self.boards {
            if let Some(t) = b.link.next_deadline() {
                wakes.push(t);
            }
        }
        if self.voice.full_screen
            && let Some(clock) = self.game_match.clock()
            && let Some(color) = clock.running()
        {
            let left = clock.remaining(color, now);
            let step =
                Duration::from_nanos(u64::from(left.subsec_nanos())) + Duration::from_millis(1);
            wakes.push(Instant::now() + step);
        }
        wakes.into_iter().min()
    }
}

/// Runs a game. Exit status 0 when the player quits, also with a game in progress (it is
/// saved), 1 when the game cannot start.
pub fn run(options: PlayOptions, lang: &'static Language) -> ExitCode {
    let full_screen = !options.screen_reader && interactive();
    let (tx, rx): (Sender<AppEvent>, Receiver<AppEvent>) = unbounded();
    let speaker = mode_speaker(
        &options.speech,
        options.speech_chosen,
        full_screen,
        lang,
        &tx,
        AppEvent::Notice,
    );

    let origin = Instant::now();
    let (game, start_entries, mut resumed) = match options.start {
        Start::New { game, entries } => (*game, entries, None),
        Start::Resume { recorder, replayed } => (
            replayed.game.clone(),
            Vec::new(),
            Some((*recorder, replayed)),
        ),
    };
    let mode = game.variant().castling_mode();
    let mut problems: Vec<String> = Vec::new();

    // The opponent.
    let mut opponent_side = Side::Keyboard;
    let mut engine = None;
    let mut opponent_port = None;
    let mut boards: Vec<Board> = Vec::new();
    let engine_path = match &options.opponent {
        Opponent::Auto => Some(None),
        Opponent::Engine(path) => Some(path.clone()),
        _ => None,
    };
    if let Some(path) = engine_path {
        let opts = EngineOptions {
            path,
            level: options.level,
            chess960: mode == CastlingMode::Chess960,
        };
        match Engine::start(&opts) {
            Ok(e) => {
                opponent_side = Side::Engine;
                engine = Some(EngineSlot {
                    engine: e,
                    restarts: 0,
                    rejected: 0,
                });
            }
            Err(e) => problems.push(engine_error_text(&e, lang)),
        }
    }
    let position: Chess = game.position().clone();
    if let Opponent::Board(port, protocol) = &options.opponent {
        match BoardLink::open(port, *protocol, None, position.clone(), mode, origin) {
            Ok(link) => {
                opponent_side = Side::Board;
                opponent_port = Some(port.display().to_string());
                boards.push(Board { link, local: false });
            }
            Err(e) => {
                errln!("hector play: {}: {e}", port.display());
                return ExitCode::from(1);
            }
        }
    }
    let mut local_side = Side::Keyboard;
    if let Some((port, protocol)) = &options.board {
        match BoardLink::open(port, *protocol, None, position.clone(), mode, origin) {
            Ok(link) => {
                local_side = Side::Board;
                boards.push(Board { link, local: true });
            }
            Err(e) => {
                errln!("hector play: {}: {e}", port.display());
                return ExitCode::from(1);
            }
        }
    }
    let setup = Setup {
        white: options.color.fold_wb(local_side, opponent_side),
        black: options.color.fold_wb(opponent_side, local_side),
        local: options.color,
        local_board: options.board.is_some(),
        control: options.control.clone(),
        announce: if options.announce {
            AnnounceSettings::casual()
        } else {
            AnnounceSettings::tournament()
        },
        form: options.form,
        rules: options.control.as_ref().map_or(Rules::STANDARD, |tc| {
            if tc.category() == crate::core::clock::Category::Blitz {
                Rules::BLITZ
            } else {
                Rules::STANDARD
            }
        }),
        engine_level: options.level,
        opponent_port: opponent_port.clone(),
        clock_answer: ClockAnswer::Remaining,
    };
    let variant = game.variant();
    let start_fen = (game.start() != &Chess::default()
        || variant == crate::core::variant::Variant::Chess960)
        .then(|| {
            shakmaty::fen::Fen::from_position(game.start(), shakmaty::EnPassantMode::Legal)
                .to_string()
        });
    let (mut game_match, effects) = Match::new(setup.clone(), game, lang, Timestamp::ZERO);
    let was_resumed = resumed.is_some();
    let recorder = match resumed.take() {
        Some((recorder, replayed)) => {
            if let Some(snapshot) = &replayed.clock {
                game_match.restore_clock(snapshot, replayed.clock_moves(), Timestamp::ZERO);
            }
            recorder
        }
        None => {
            let user = std::env::var("USER")
                .ok()
                .filter(|u| !u.is_empty() && u != "root")
                .unwrap_or_else(|| lang.play.player.clone());
            let opponent_name = match (&engine, &opponent_port) {
                (Some(slot), _) => format!(
                    "{} ({})",
                    slot.engine.name(),
                    fill(
                        &lang.play.opponent_engine,
                        &[("level", &options.level.to_string())]
                    )
                ),
                (None, Some(port)) => fill(&lang.play.opponent_board, &[("port", port)]),
                (None, None) => lang.play.second_player.clone(),
            };
            let (white, black) = options.color.fold_wb(
                (user.clone(), opponent_name.clone()),
                (opponent_name.clone(), user),
            );
            let mut header =
                crate::core::record::Header::new(&crate::io::journal::now_utc(), &white, &black);
            header.variant = variant;
            header.start_fen = start_fen;
            header.time_control = options.control.as_ref().map(ToString::to_string);
            header.local_player = (options.opponent != Opponent::Keyboard).then_some(options.color);
            header.opponent = opponent_name;
            header.language = lang.code.clone();
            header.form = options.form;
            header.rules = setup.rules;
            let mut entries = start_entries;
            // What a resume needs to set the game up again.
            let opponent_spec = match (&options.opponent, opponent_side) {
                (Opponent::Engine(Some(path)), Side::Engine) => {
                    format!("engine:{}", path.display())
                }
                (_, Side::Engine) => "engine".to_string(),
                (Opponent::Board(port, protocol), _) => {
                    format!("board:{}:{}", protocol.name(), port.display())
                }
                _ => "keyboard".to_string(),
            };
            for (key, value) in [
                ("opponent", opponent_spec),
                ("level", options.level.to_string()),
                ("announce", options.announce.to_string()),
            ] {
                entries.push(crate::core::record::Entry::Setting {
                    key: key.to_string(),
                    value,
                });
            }
            if let Some((port, protocol)) = &options.board {
                entries.push(crate::core::record::Entry::Setting {
                    key: "board".to_string(),
                    value: format!("{}:{}", protocol.name(), port.display()),
                });
            }
            Recorder::create(header, entries)
        }
    };
    let mut app = App {
        lang,
        options_color: options.color,
        game_match,
        voice: Narrator::new(speaker, full_screen, &lang.play.prompt),
        focus: Focus::new(options.color.fold_wb(Square::E2, Square::E7)),
        engine,
        boards,
        origin,
        level: options.level,
        pieces: options.pieces,
        colors: options.colors,
        recorder,
    };
    let mut screen = crate::io::terminal::open(full_screen, "play", tx.clone(), AppEvent::Input);
    app.voice.full_screen = screen.is_some();
    for p in problems {
        app.tell(Urgency::Urgent, vec![p]);
    }
    app.tell_record_problem();
    if was_resumed {
        app.tell(Urgency::Answer, vec![lang.play.resumed.clone()]);
    }
    let mut running = app.apply(effects);
    app.voice.prompt();
    while running && !app.voice.reader_gone {
        if app.voice.dirty
            && let Some(s) = screen.as_mut()
        {
            app.draw(s);
        }
        let engine_rx = app
            .engine
            .as_ref()
            .map_or_else(never, |s| s.engine.events().clone());
        let board_rx: Vec<Receiver<_>> =
            app.boards.iter().map(|b| b.link.events().clone()).collect();
        let local_rx = board_rx.first().cloned().unwrap_or_else(never);
        let other_rx = board_rx.get(1).cloned().unwrap_or_else(never);
        let timeout = app.next_wake().map_or(Duration::from_secs(3600), |w| {
            w.saturating_duration_since(Instant::now())
        });
        select! {
            recv(rx) -> ev => match ev {
                Ok(AppEvent::Input(Input::Key(k))) => running = app.key(k),
                Ok(AppEvent::Input(Input::Line(l))) => {
                    // Enter ended the prompt's line.
                    app.voice.prompt_open = false;
                    running = app.handle(Event::Line(l));
                }
                Ok(AppEvent::Input(Input::Closed)) => running = false,
                Ok(AppEvent::Input(Input::Resize)) => app.voice.dirty = true,
                Ok(AppEvent::Notice(n)) => app.voice.notice(&n, lang),
                Err(_) => running = false,
            },
            recv(engine_rx) -> ev => if let Ok(e) = ev {
                running = app.engine_event(e);
            },
            recv(local_rx) -> ev => if let Ok(pe) = ev {
                let events = app.boards.first_mut().map(|b| b.link.handle(pe)).unwrap_or_default();
                let local = app.boards.first().is_some_and(|b| b.local);
                running = app.board_events(events, local);
            },
            recv(other_rx) -> ev => if let Ok(pe) = ev {
                let events = app.boards.get_mut(1).map(|b| b.link.handle(pe)).unwrap_or_default();
                let local = app.boards.get(1).is_some_and(|b| b.local);
                running = app.board_events(events, local);
            },
            default(timeout) => {}
        }
        // Time-driven work: settle pauses of the boards, flags and announcements.
        let mut ticks = Vec::new();
        for (i, b) in app.boards.iter_mut().enumerate() {
            ticks.push((i, b.local, b.link.tick()));
        }
        for (_, local, events) in ticks {
            if !events.is_empty() {
                running &= app.board_events(events, local);
            }
        }
        running &= app.handle(Event::Tick);
        if !app.game_match.game().is_over() {
            app.checkpoint(false);
        }
        if running {
            app.voice.prompt();
        }
        if app.voice.full_screen
            && app
                .game_match
                .clock()
                .is_some_and(|c| c.running().is_some())
        {
            app.voice.dirty = true;
        }
    }
    // The clock as it stands when the player leaves, for an exact resume.
    if !app.game_match.game().is_over() {
        app.checkpoint(true);
    }
    drop(screen);
    if let Some(slot) = app.engine.as_mut() {
        slot.engine.stop();
    }
    if !app.game_match.game().is_over() {
        let hint = lang.play.resume_hint.clone();
        app.tell(Urgency::Answer, vec![hint]);
    }
    app.voice.speaker.wait_idle(Duration::from_secs(3));
    ExitCode::SUCCESS
}

/// How the engine ended, in the language's words.
fn engine_ending(how: Ending, lang: &Language) -> String {
    let p = &lang.play;
    match how {
        Ending::Exit(code) => fill(&p.engine_exited, &[("code", &code.to_string())]),
        Ending::Signal(signal) => fill(&p.engine_crashed, &[("signal", &signal.to_string())]),
        Ending::Closed => p.engine_closed.clone(),
        Ending::Overflow => p.engine_flooded.clone(),
    }
}

/// Why the engine cannot be started or asked, in the language's words.
fn engine_error_text(e: &EngineError, lang: &Language) -> String {
    let p = &lang.play;
    let path = |path: &std::path::Path| printable(&path.display().to_string()).into_owned();
    match e {
        EngineError::NotFound { name, looked } => fill(
            &p.engine_not_found,
            &[("name", &printable(name)), ("looked", looked)],
        ),
        EngineError::Missing { path: at } => fill(&p.engine_missing, &[("path", &path(at))]),
        EngineError::NotExecutable { path: at, .. } => {
            fill(&p.engine_not_executable, &[("path", &path(at))])
        }
        EngineError::Spawn { reason, .. } => {
            fill(&p.engine_start_failed, &[("reason", &printable(reason))])
        }
        EngineError::Handshake {
            path: at, waited, ..
        } => fill(
            &p.engine_no_handshake,
            &[
                ("path", &path(at)),
                ("seconds", &whole_seconds(*waited).to_string()),
            ],
        ),
        EngineError::EndedEarly { path: at, .. } => {
            fill(&p.engine_ended_early, &[("path", &path(at))])
        }
        EngineError::NoChess960 { name } => {
            fill(&p.engine_no_chess960, &[("name", &printable(name))])
        }
        EngineError::NotChess960 => p.engine_not_chess960.clone(),
        EngineError::IllegalHistory { number } => {
            fill(&p.engine_bad_history, &[("number", &number.to_string())])
        }
        EngineError::NoLegalMove => p.engine_no_move.clone(),
        EngineError::Dead { .. } => p.engine_dead.clone(),
    }
}
