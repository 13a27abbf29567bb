//! `hector play`: a spoken game at the terminal. The pure match logic decides; this module
//! wires it to the terminal (full-screen or lines), the speech thread, the engine, the boards
//! and the record, in one event loop.

mod analysis;
pub(crate) mod resume;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use shakmaty::{CastlingMode, Chess, Color};

use crate::app::services::engine_words::{
    engine_ending, engine_error_text, engine_hung, engine_illegal, eval_of,
};
use crate::app::services::recorder::Recorder;
use crate::app::services::ui::narrator::Narrator;
use crate::app::services::ui::view::Pieces;
use crate::app::services::ui::{Front, Incoming, Mode, Picture, Source, Ui};
use crate::app::services::voice::VoiceInput;
use crate::core::clock::TimeControl;
use crate::core::game::Game;
use crate::core::machine::Machine;
use crate::core::matchplay::Command;
use crate::core::matchplay::Question;
use crate::core::matchplay::{BoardOf, Effect, Event, Match, PlayExtras, Side, Urgency};
use crate::core::matchplay::{PlayRecord, RecordedOpponent, next_game};
use crate::core::notation::Form;
use crate::core::notation::board_words;
use crate::core::notation::clock_words::clock_faces;
use crate::core::notation::{Language, fill};
use crate::core::settings::SpeechSettings;
use crate::core::time::Timestamp;
use crate::io::board_link::{BoardEvent, BoardLink, Protocol};
use crate::io::engine::{
    ClockTimes, Engine, EngineEvent, EngineOptions, SearchLimits, level_limits,
};
use crate::io::terminal::FullScreen;
// bewertung and tipp.
use crate::core::matchplay::AdviceKind;

/// How deep the engine looks for bewertung and tipp (as `hector analyse` by default), and
/// the longest it may take: the player waits for the answer.
const ADVICE_DEPTH: u32 = crate::app::services::engine_words::DEFAULT_DEPTH;
const ADVICE_TIME: Duration = crate::app::services::engine_words::DEFAULT_CAP;

/// Who plays the other side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Opponent {
    /// The engine when one is installed, else a second player at the keyboard.
    Auto,
    Engine(Option<PathBuf>),
    Keyboard,
    /// The sighted player's e-board on this port.
    Board(PathBuf, Protocol),
}

/// Everything `hector play` was asked for.
pub(crate) struct PlayOptions {
    pub(crate) color: Color,
    pub(crate) opponent: Opponent,
    pub(crate) level: u8,
    pub(crate) control: Option<TimeControl>,
    /// Automatic time announcements (off by default: Appendix D9d).
    pub(crate) announce: bool,
    pub(crate) form: Form,
    pub(crate) speech: SpeechSettings,
    /// The speech backend was chosen on the command line or in the configuration.
    pub(crate) speech_chosen: bool,
    pub(crate) screen_reader: bool,
    pub(crate) start: Start,
    /// The local player's board.
    pub(crate) board: Option<(PathBuf, Protocol)>,
    pub(crate) pieces: Pieces,
    pub(crate) colors: bool,
    /// Say each newly reached named opening.
    pub(crate) openings: bool,
    pub(crate) wording: crate::core::notation::Wording,
    /// Take-back, abort, rematch and the taken pieces said.
    pub(crate) extras: PlayExtras,
    /// bewertung and tipp may ask the engine (`--no-hints` switches them off).
    pub(crate) hints: bool,
    /// The game is walked through with its analysis (`hector analyse --walk`): nothing is
    /// recorded and no move is played.
    pub(crate) walk: Option<crate::core::matchplay::Walk>,
    /// Moves and commands said aloud (`--voice`).
    pub(crate) voice: Option<crate::app::services::voice::VoiceOptions>,
    /// Said after the opening words: what to do with the position ("win this").
    pub(crate) goal: Option<String>,
    /// The opening explorer's address (`--explorer`, `[explorer] server`).
    pub(crate) explorer: String,
}

/// Where the game comes from.
pub(crate) enum Start {
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

/// A game to continue: its record and what it replays to.
type Resumed = (Recorder, Box<crate::core::record::Replayed>);

impl Start {
    /// The game to start from, the entries to begin a new record with, and a continued
    /// game's record; a new standard game is left in its place.
    fn take(&mut self) -> (Game, Vec<crate::core::record::Entry>, Option<Resumed>) {
        let start = std::mem::replace(
            self,
            Start::New {
                game: Box::default(),
                entries: Vec::new(),
            },
        );
        match start {
            Start::New { game, entries } => (*game, entries, None),
            Start::Resume { recorder, replayed } => (
                replayed.game.clone(),
                Vec::new(),
                Some((*recorder, replayed)),
            ),
        }
    }
}

/// How the engine is doing.
struct EngineSlot {
    engine: Engine,
    /// The request of a bewertung or tipp not yet answered: its number, which question,
    /// and the half-moves played when it was asked.
    advice: Option<(u64, AdviceKind, usize)>,
}

struct Board {
    link: BoardLink,
    local: bool,
}

struct App {
    lang: &'static Language,
    game_match: Match,
    front: Front,
    engine: Option<EngineSlot>,
    boards: Vec<Board>,
    origin: Instant,
    level: u8,
    pieces: Pieces,
    colors: bool,
    recorder: Recorder,
    /// Signals when the opening words have been said: the held clock starts.
    ready: Option<crossbeam_channel::Receiver<()>>,
    /// `analyse` after the game, while the engine judges it.
    analysis: Option<analysis::AnalysisJob>,
    /// The game is recorded (not a walk through a game recorded before).
    recording: bool,
    /// Listening for moves said aloud (`--voice`).
    voice_input: Option<VoiceInput>,
    /// The opening explorer's address, and its thread once asked.
    explorer_server: String,
    explorer: Option<crate::io::lichess::explorer::ExplorerLink>,
}

impl App {
    fn now(&self) -> Timestamp {
        Timestamp::from_duration(self.origin.elapsed())
    }

    fn tell(&mut self, urgency: Urgency, lines: Vec<String>) {
        self.front.voice.tell(urgency, lines);
    }

    /// Carries out the match's effects in order. Returns false when the player quits.
    fn apply(&mut self, effects: Vec<Effect>) -> bool {
        let mut keep_going = true;
        for effect in effects {
            self.front.voice.dirty = true;
            match effect {
                Effect::Common(common) => keep_going &= self.front.carry_out(common),
                Effect::Record(r) => {
                    self.recorder.record(&r, self.game_match.game());
                    self.tell_record_problem();
                }
                Effect::EngineThink => self.ask_engine(),
                Effect::EngineRestart => keep_going &= self.restart_engine(),
                Effect::EngineGone => self.engine = None,
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
                Effect::Label(label) => self.front.voice.label = Some(label),
                Effect::Save(path) => self.save(path),
                Effect::NewGame => self.new_game(false),
                Effect::Rematch => self.new_game(true),
                Effect::EngineAdvice { kind, ply } => keep_going &= self.ask_advice(kind, ply),
                Effect::Analyse => keep_going &= self.start_analysis(),
                Effect::Explore(position) => {
                    let server = &self.explorer_server;
                    self.explorer
                        .get_or_insert_with(|| {
                            crate::io::lichess::explorer::ExplorerLink::start(server)
                        })
                        .ask(*position);
                }
            }
        }
        keep_going
    }

    /// The record's news (it stopped reaching the disk, or works again), told once; the
    /// session learns whether the game is on the disk for its quit question.
    fn tell_record_problem(&mut self) {
        let unrecorded = self.recorder.unrecorded_words(self.lang);
        self.game_match.set_unrecorded(unrecorded);
        if let Some((urgency, text)) = self.recorder.news_words(self.lang) {
            self.tell(urgency, vec![text]);
        }
    }

    /// Saves the game as PGN: to `path`, or beside the player in the current directory.
    fn save(&mut self, path: Option<String>) {
        let default = self.recorder.default_pgn_name();
        let text = self
            .recorder
            .save_typed(path.as_deref(), &default, self.lang);
        // Asking to save also tried the journal again: its news first.
        self.tell_record_problem();
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
        if matches!(event, Event::Line(_) | Event::Command(_)) {
            // A login during the game counts; without a token `explorer` asks nothing.
            let stored = crate::io::lichess::explorer::token_stored(&self.explorer_server);
            self.game_match.explorer_token(stored);
        }
        let effects = self.game_match.handle(event, now);
        let keep = self.apply(effects);
        self.front.voice.question = self.game_match.question();
        self.front.voice.yes_no = self.game_match.asks_yes_no();
        // Line mode: while looking back the prompt says so instead of asking for a move.
        // The walk takes no moves: its prompt names what it takes.
        let prompt = if self.game_match.walk().is_some() {
            &self.lang.walk.prompt
        } else if self.game_match.reviewed_ply().is_some() {
            &self.lang.review.label
        } else {
            &self.lang.play.prompt
        };
        self.front.voice.set_prompt(prompt);
        keep
    }

    /// A new game with the same settings; a rematch swaps the colours (and the names).
    fn new_game(&mut self, rematch: bool) {
        let extras = self.game_match.extras();
        let setup = if rematch {
            self.game_match.setup().swapped()
        } else {
            self.game_match.setup().clone()
        };
        let game = Game::from_position(
            self.game_match.game().start().clone(),
            self.game_match.game().variant(),
        );
        if let Some(slot) = self.engine.as_mut() {
            slot.engine.stop();
        }
        // The same settings (opponent, level, announcements, take-back, hints), so that the
        // new game resumes as it was played.
        let (header, settings) = next_game(
            &self.recorder.header,
            self.recorder.entries(),
            &crate::io::utc::now_utc(),
            rematch,
        );
        self.recorder = Recorder::create(header, settings);
        self.tell_record_problem();
        let local = setup.local;
        let hints = self.game_match.advice_on();
        let low_clock = self.game_match.low_clock();
        let (mut m, effects) = Match::new(setup, game, self.lang, self.now());
        // The explorer's answers are kept for the session, not the game.
        m.carry_explorer_from(&mut self.game_match);
        m.set_extras(extras);
        m.set_advice(hints);
        m.set_low_clock(low_clock, self.now());
        m.set_premoves(true);
        m.set_opponent_name(&self.recorder.header.opponent);
        self.game_match = m;
        // The screen shows the board from the player's new side.
        self.front.side = local;
        let said = if rematch {
            fill(
                &self.lang.takeback.rematch,
                &[("color", self.lang.color(local))],
            )
        } else {
            self.lang.play.new_game.clone()
        };
        self.tell(Urgency::Answer, vec![said]);
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
            self.handle(Event::EngineFailed { reason });
        }
    }

    /// bewertung or tipp: the engine judges the position now on the board. The session asks
    /// only while the engine is not thinking about its own move.
    fn ask_advice(&mut self, kind: AdviceKind, ply: usize) -> bool {
        let game = self.game_match.game();
        let start = game.start().clone();
        let moves: Vec<_> = game.moves().iter().map(|m| m.mv).collect();
        let Some(slot) = self.engine.as_mut() else {
            return true;
        };
        match slot
            .engine
            .request_analysis(&start, &moves, Some(ADVICE_DEPTH), ADVICE_TIME)
        {
            Ok(request) => {
                slot.advice = Some((request, kind, ply));
                true
            }
            Err(e) => {
                let reason = engine_error_text(&e, self.lang);
                self.handle(Event::EngineFailed { reason })
            }
        }
    }

    /// The engine's answers and failures go to the session, which decides (ask again,
    /// restart, hand its side to a person); this only puts them into words.
    fn engine_event(&mut self, e: EngineEvent) -> bool {
        // While the game is judged after its end, the engine answers the analysis.
        let failure = match &e {
            EngineEvent::Rejected { answer, .. } => Some(engine_illegal(answer, self.lang)),
            EngineEvent::Timeout { waited, .. } => Some(engine_hung(*waited, self.lang)),
            EngineEvent::Died { how, .. } => Some(engine_ending(*how, self.lang)),
            _ => None,
        };
        if let Some(reason) = failure
            && let Some(keep) = self.analysis_failed(reason)
        {
            return keep;
        }
        let event = match e {
            EngineEvent::BestMove { mv, .. } => Event::EngineMove(mv),
            EngineEvent::Rejected { answer, .. } => Event::EngineRejected {
                reason: engine_illegal(&answer, self.lang),
            },
            EngineEvent::Timeout { waited, .. } => Event::EngineFailed {
                reason: engine_hung(waited, self.lang),
            },
            EngineEvent::Died { how, .. } => Event::EngineFailed {
                reason: engine_ending(how, self.lang),
            },
            EngineEvent::Analysis {
                request,
                best,
                score,
                line,
            } => {
                if let Some(keep) = self.analysis_answer(request, best, score, line) {
                    return keep;
                }
                let asked = self
                    .engine
                    .as_mut()
                    .and_then(|slot| slot.advice.take_if(|(id, ..)| *id == request));
                let Some((_, kind, ply)) = asked else {
                    return true;
                };
                Event::EngineAdvice {
                    kind,
                    ply,
                    eval: eval_of(score, self.game_match.game().turn()),
                    best: Some(best),
                }
            }
        };
        self.handle(event)
    }

    /// Starts the engine again, as the session asked; tells it how that went.
    fn restart_engine(&mut self) -> bool {
        let Some(slot) = self.engine.as_mut() else {
            return true;
        };
        let event = match slot.engine.restart() {
            Ok(()) => Event::EngineRestarted,
            Err(e) => Event::EngineFailed {
                reason: engine_error_text(&e, self.lang),
            },
        };
        self.handle(event)
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

    fn clock_strings(&self) -> Option<crate::core::notation::clock_words::ClockFaces> {
        let clock = self.game_match.clock()?;
        let now = self.now();
        Some(clock_faces(clock, now))
    }
}

/// The opponent as set up: who plays, the engine or the board, and what failed to start.
struct Opposition {
    side: Side,
    engine: Option<EngineSlot>,
    port: Option<String>,
    boards: Vec<Board>,
    problems: Vec<String>,
}

/// Starts the opponent (the engine, or the sighted player's e-board) and the local player's
/// board. A board that cannot be opened ends the mode (exit status 1).
fn open_opposition(
    options: &PlayOptions,
    position: &Chess,
    mode: CastlingMode,
    origin: Instant,
    lang: &Language,
) -> Result<Opposition, ExitCode> {
    let mut o = Opposition {
        side: Side::Keyboard,
        engine: None,
        port: None,
        boards: Vec::new(),
        problems: Vec::new(),
    };
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
                o.side = Side::Engine;
                o.engine = Some(EngineSlot {
                    engine: e,
                    advice: None,
                });
            }
            Err(e) => o.problems.push(engine_error_text(&e, lang)),
        }
    }
    let mut links = Vec::new();
    if let Opponent::Board(port, protocol) = &options.opponent {
        links.push((port, *protocol, false));
    }
    if let Some((port, protocol)) = &options.board {
        links.push((port, *protocol, true));
    }
    for (port, protocol, local) in links {
        match BoardLink::open(port, protocol, None, position.clone(), mode, origin) {
            Ok(link) => {
                if !local {
                    o.side = Side::Board;
                    o.port = Some(port.display().to_string());
                }
                o.boards.push(Board { link, local });
            }
            Err(e) => {
                errln!("hector play: {}: {e}", port.display());
                return Err(ExitCode::from(1));
            }
        }
    }
    Ok(o)
}

/// What the journal keeps of the options and of who plays (the core's one mapping, which
/// `hector resume` reads back).
fn play_record(options: &PlayOptions, o: &Opposition, lang: &Language) -> PlayRecord {
    let opponent = match (&options.opponent, o.side) {
        (Opponent::Engine(Some(path)), Side::Engine) => {
            RecordedOpponent::Engine(Some(path.display().to_string()))
        }
        (_, Side::Engine) => RecordedOpponent::Engine(None),
        (Opponent::Board(port, protocol), _) => RecordedOpponent::Board {
            protocol: protocol.name().to_string(),
            port: port.display().to_string(),
        },
        _ => RecordedOpponent::Keyboard,
    };
    PlayRecord {
        local: options.color,
        opponent,
        level: options.level,
        control: options.control.clone(),
        announce: options.announce,
        takeback: options.extras.takeback,
        hints: options.hints,
        board: options
            .board
            .as_ref()
            .map(|(port, protocol)| (protocol.name().to_string(), port.display().to_string())),
        form: options.form,
        language: lang.code.clone(),
        words: Some(lang.words),
    }
}

/// A new game's journal: its header, and the settings a resume needs to set it up again.
/// The match for `game`, with the players' extras, hints and premoves, and its opening
/// words (a walk says its own).
fn start_match(
    setup: crate::core::matchplay::Setup,
    game: &Game,
    walking: bool,
    options: &PlayOptions,
    lang: &'static Language,
) -> (Match, Vec<Effect>) {
    let (mut game_match, effects) = if walking {
        Match::start(setup, game.clone(), lang, Timestamp::ZERO)
    } else {
        Match::new(setup, game.clone(), lang, Timestamp::ZERO)
    };
    game_match.set_extras(options.extras);
    game_match.set_advice(options.hints);
    game_match.set_premoves(true);
    game_match.enable_explorer();
    let sound = &options.speech.sound;
    game_match.set_low_clock(
        sound
            .cues
            .then(|| std::time::Duration::from_secs(u64::from(sound.low_clock))),
        Timestamp::ZERO,
    );
    (game_match, effects)
}

fn new_recorder(
    record: &PlayRecord,
    game: &Game,
    o: &Opposition,
    mut entries: Vec<crate::core::record::Entry>,
    lang: &Language,
) -> Recorder {
    let user = std::env::var("USER")
        .ok()
        .filter(|u| !u.is_empty() && u != "root")
        .unwrap_or_else(|| lang.play.player.clone());
    let opponent_name = match (&o.engine, &o.port) {
        // Names as they stand in the PGN's tags: no article, no grammatical case.
        (Some(slot), _) => fill(
            &lang.play.engine_named,
            &[
                ("name", slot.engine.name()),
                ("level", &record.level.to_string()),
            ],
        ),
        (None, Some(port)) => fill(&lang.play.board_named, &[("port", port)]),
        (None, None) => lang.play.second_player.clone(),
    };
    let header = record.header(game, &crate::io::utc::now_utc(), &user, &opponent_name);
    entries.extend(record.settings());
    Recorder::create(header, entries)
}

/// Runs a game. Exit status 0 when the player quits, also with a game in progress (it is
/// saved), 1 when the game cannot start.
pub(crate) fn run(mut options: PlayOptions, lang: &'static Language) -> ExitCode {
    let ui = Ui::new(options.screen_reader).with_keys_in_lines();
    let speaker = ui.speaker(&options.speech, options.speech_chosen, lang);
    let origin = Instant::now();
    let (game, start_entries, resumed) = options.start.take();
    let mode = game.variant().castling_mode();
    let mut o = match open_opposition(&options, game.position(), mode, origin, lang) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let record = play_record(&options, &o, lang);
    let setup = record.setup(o.side, o.port.clone(), options.openings, options.wording);
    let walk = options.walk.take();
    let walking = walk.is_some();
    let (mut game_match, mut effects) = start_match(setup, &game, walking, &options, lang);
    let was_resumed = resumed.is_some();
    let recorder = match resumed {
        Some((recorder, replayed)) => {
            if let Some(snapshot) = &replayed.clock {
                game_match.restore_clock(snapshot, replayed.clock_moves(), Timestamp::ZERO);
            }
            recorder
        }
        None if walking => Recorder::holding(
            record.header(
                &game,
                &crate::io::utc::now_utc(),
                &lang.play.player,
                &lang.play.second_player,
            ),
            crate::core::record::game_entries(&game),
        ),
        None => new_recorder(&record, &game, &o, start_entries, lang),
    };
    if let Some(walk) = walk {
        effects.extend(game_match.handle(Event::Walk(Box::new(walk)), Timestamp::ZERO));
    }
    game_match.set_opponent_name(&recorder.header.opponent);
    let prompt = if walking {
        &lang.walk.prompt
    } else {
        &lang.play.prompt
    };
    let mut app = App {
        lang,
        game_match,
        front: Front::new(
            Narrator::new(speaker, ui.full_screen, prompt),
            options.color,
            lang,
        ),
        engine: o.engine.take(),
        boards: std::mem::take(&mut o.boards),
        origin,
        level: options.level,
        pieces: options.pieces,
        colors: options.colors,
        recorder,
        ready: None,
        analysis: None,
        recording: !walking,
        voice_input: None,
        explorer_server: options.explorer.clone(),
        explorer: None,
    };
    // Moves are made on the board too (Tab gives it the keys).
    app.front.focus.board_entry = true;
    let screen = ui.open(crate::core::mode::Mode::Play, &mut app.front.voice);
    for p in o.problems {
        app.tell(Urgency::Urgent, vec![p]);
    }
    if let Some(voice) = &options.voice {
        let (input, why) = VoiceInput::start(lang, voice);
        app.voice_input = Some(input);
        if let Some(why) = why {
            app.tell(Urgency::Urgent, vec![why]);
        }
    }
    let running = app.first_words(effects, was_resumed, options.goal.take());
    app.ready = Some(app.front.voice.speaker.when_idle());
    if running {
        ui.run(&mut app, screen, lang);
    }
    app.leave();
    ExitCode::SUCCESS
}

impl App {
    /// What is said before the first prompt: a record problem, the game's opening words
    /// (the clock held meanwhile), and for a continued game its last move and both clocks;
    /// false when the player quit already.
    fn first_words(
        &mut self,
        effects: Vec<Effect>,
        was_resumed: bool,
        goal: Option<String>,
    ) -> bool {
        self.tell_record_problem();
        if was_resumed {
            self.tell(Urgency::Answer, vec![self.lang.play.resumed.clone()]);
        }
        // A game from a position: what the player is to do there ("win this", "hold this").
        if let Some(goal) = goal {
            self.tell(Urgency::Answer, vec![goal]);
        }
        // Nobody's time runs while hector speaks first.
        self.game_match.hold_clock(self.now());
        let mut running = self.apply(effects);
        if was_resumed && running {
            running = self.handle(Event::Command(Command::Ask(Question::Last)));
            if self.game_match.clock().is_some() {
                running &= self.handle(Event::Command(Command::Clock));
            }
        }
        running
    }

    /// The player left: the clock as it stands goes to the journal (for an exact resume),
    /// the engine stops, and the closing words say whether the game is saved.
    fn leave(&mut self) {
        let over = self.game_match.game().is_over();
        if !over {
            self.checkpoint(true);
        }
        if let Some(slot) = self.engine.as_mut() {
            slot.engine.stop();
        }
        let closing = if self.recording {
            self.recorder.closing_words(over, self.lang)
        } else {
            Vec::new()
        };
        // The hint names the command: where hector is, when the command alone would not
        // find it, is shown beside it and not said.
        let hinted = !closing.is_empty() && !over && self.recorder.is_saved();
        if !closing.is_empty() {
            self.tell(Urgency::Answer, closing);
        }
        if let Some(line) = hinted
            .then(|| crate::io::program::path_line(self.lang))
            .flatten()
        {
            self.front.voice.show(vec![line]);
        }
        self.front.voice.speaker.wait_idle(Duration::from_secs(3));
    }
}

/// The sources of `hector play`: the engine (tag 0), the boards (tag 1 and on), and the
/// speech's signal that the opening words were said.
const ENGINE: usize = 0;
const READY: usize = usize::MAX;
const EXPLORER: usize = usize::MAX - 1;

impl Mode for App {
    fn sources(&self) -> Vec<(usize, Source)> {
        let mut sources = Vec::new();
        if let Some(slot) = &self.engine {
            sources.push((ENGINE, Source::Engine(slot.engine.events().clone())));
        }
        for (i, b) in self.boards.iter().enumerate() {
            sources.push((i + 1, Source::Port(b.link.events().clone())));
        }
        if let Some(ready) = &self.ready {
            sources.push((READY, Source::Signal(ready.clone())));
        }
        if let Some(link) = &self.explorer {
            sources.push((EXPLORER, Source::Explorer(link.news().clone())));
        }
        sources
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
        wakes.extend(crate::app::services::ui::next_second(
            &self.front.voice,
            self.game_match.clock(),
            now,
        ));
        wakes.into_iter().min()
    }

    fn front(&mut self) -> &mut Front {
        &mut self.front
    }

    fn voice_input(&mut self) -> Option<&mut VoiceInput> {
        self.voice_input.as_mut()
    }

    fn heard_position(&self) -> Option<shakmaty::Chess> {
        Some(self.game_match.game().position().clone())
    }

    fn draw(&mut self, screen: &mut FullScreen) {
        let clock = self.clock_strings();
        self.front.review = self
            .game_match
            .review_heading()
            .map(|h| (self.game_match.shown_position().clone(), h));
        self.front.picked = self.game_match.picked();
        self.front.draw_board(
            screen,
            Picture {
                game: self.game_match.game(),
                clock,
                pieces: self.pieces,
                colors: self.colors,
                boards: &[],
            },
        );
    }

    fn command(&mut self, command: Command) -> bool {
        self.handle(Event::Command(command))
    }

    fn shown_board(&self) -> Option<shakmaty::Board> {
        Some(shakmaty::Position::board(self.game_match.shown_position()).clone())
    }

    fn line(&mut self, line: String) -> bool {
        self.handle(Event::Line(line))
    }

    fn premove_kept(&self) -> bool {
        self.game_match.premove().is_some()
    }

    fn incoming(&mut self, tag: usize, event: Incoming) -> bool {
        match event {
            Incoming::Engine(e) => self.engine_event(e),
            Incoming::Port(pe) => {
                let Some(board) = self.boards.get_mut(tag.wrapping_sub(1)) else {
                    return true;
                };
                let local = board.local;
                let events = board.link.handle(pe);
                self.board_events(events, local)
            }
            Incoming::Signal => {
                self.ready = None;
                self.handle(Event::Ready)
            }
            Incoming::Explorer(e) => self.handle(Event::Explored {
                fen: e.fen,
                reply: e.reply,
            }),
            Incoming::Journal(_)
            | Incoming::Lichess(_)
            | Incoming::Watch(_)
            | Incoming::Push(_)
            | Incoming::Study(_) => true,
        }
    }

    /// Settle pauses of the boards, flags and announcements, the clock's checkpoint.
    fn tick(&mut self) -> bool {
        let mut running = true;
        let ticks: Vec<_> = self
            .boards
            .iter_mut()
            .map(|b| (b.local, b.link.tick()))
            .collect();
        for (local, events) in ticks {
            if !events.is_empty() {
                running &= self.board_events(events, local);
            }
        }
        running &= self.handle(Event::Tick);
        if !self.game_match.game().is_over() {
            self.checkpoint(false);
        }
        running
    }

    /// Not while the player waits for the opponent's move or the computer's advice: the
    /// prompt follows the last line of the answer.
    fn prompt_now(&self) -> bool {
        let advising = self.engine.as_ref().is_some_and(|e| e.advice.is_some());
        !self.game_match.awaits_reply() && !advising && !self.analysing()
    }

    fn clock_runs(&self) -> bool {
        self.game_match
            .clock()
            .is_some_and(|c| c.running().is_some())
    }
}
