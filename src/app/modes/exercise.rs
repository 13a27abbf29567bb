//! The exercises, `hector train` and `hector puzzle`, on one runtime (full screen or lines,
//! speech, braille), with moves typed, said, or made on a peg board or e-board; the core's
//! machine (`Train` or `PuzzleRun`, both `Exercises`) decides.
//!
//! `hector train`: learning from one's own mistakes. The player's recorded games are judged
//! (each once: the analysis is kept beside its journal), the positions where the player
//! erred are asked again; this asks the engine about the answers and keeps the progress file.
//! `hector puzzle`: lichess puzzles from hector's set or from lichess, with their rating.

use crate::core::machine::Common;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use shakmaty::{CastlingMode, Chess, Color, Move, Position};

use crate::app::services::engine_words::{DEFAULT_CAP, DEFAULT_DEPTH, engine_error_text, eval_of};
use crate::app::services::engine_words::{engine_ending, engine_hung, engine_illegal};
use crate::app::services::judging;
use crate::app::services::output::Out;
use crate::app::services::own_file;
use crate::app::services::ui::narrator::Narrator;
use crate::app::services::ui::view::Pieces;
use crate::app::services::ui::{Front, Incoming, Mode, Picture, Source, Ui};
use crate::core::analysis::review;
use crate::core::analysis::store::Search as KeptSearch;
use crate::core::exercise::{ExerciseEffect, ExerciseEvent, Exercises};
use crate::core::game::Game;
use crate::core::matchplay::Command;
use crate::core::matchplay::Urgency;
use crate::core::notation::Form;
use crate::core::notation::Wording;
use crate::core::notation::board_words;
use crate::core::notation::printable;
use crate::core::notation::{Language, counted, fill};
use crate::core::settings::SpeechSettings;
use crate::core::time::Timestamp;
use crate::core::training::progress::{Progress, ProgressError};
use crate::core::training::{Exercise, Train, exercises_of};
use crate::core::variant::Variant;
use crate::io::board_link::{BoardEvent, BoardLink, Protocol};
use crate::io::engine::{Engine, EngineEvent};
use crate::io::terminal::FullScreen;

/// The progress file in hector's data directory.
pub(crate) const PROGRESS_FILE: &str = "training.progress";

/// How a player is asked and answers, in `hector train` and `hector puzzle` alike.
#[derive(Debug)]
pub(crate) struct PracticeFront {
    pub(crate) form: Form,
    pub(crate) wording: Wording,
    pub(crate) speech: SpeechSettings,
    pub(crate) speech_chosen: bool,
    pub(crate) screen_reader: bool,
    /// The player's board.
    pub(crate) board: Option<(PathBuf, Protocol)>,
    pub(crate) pieces: Pieces,
    pub(crate) colors: bool,
}

/// Everything `hector train` was asked for.
pub(crate) struct TrainOptions {
    pub(crate) front: PracticeFront,
    pub(crate) depth: Option<u32>,
    pub(crate) movetime: Option<u64>,
    pub(crate) engine: Option<PathBuf>,
    pub(crate) engines: Option<usize>,
}

/// The search per position, as `hector analyse` does by default (so that a game judged by
/// either is judged once).
fn search(options: &TrainOptions) -> judging::Search {
    let movetime = options
        .movetime
        .map_or(DEFAULT_CAP, std::time::Duration::from_millis);
    let depth = match (options.depth, options.movetime) {
        (Some(d), _) => Some(d),
        (None, Some(_)) => None,
        (None, None) => Some(DEFAULT_DEPTH),
    };
    judging::Search { depth, movetime }
}

fn kept_search(s: judging::Search) -> KeptSearch {
    KeptSearch {
        depth: s.depth,
        millis: u64::try_from(s.movetime.as_millis()).unwrap_or(u64::MAX),
    }
}

/// Where the progress is kept.
fn progress_path() -> Option<PathBuf> {
    crate::io::journal::data_dir()
        .ok()
        .map(|d| d.join(PROGRESS_FILE))
}

/// The progress so far: a missing file is a fresh start; an unreadable one is set aside and
/// named, a stranger where it belongs named (and nothing written there).
fn read_progress(path: &Path, lang: &Language) -> own_file::Loaded<Progress> {
    own_file::load(
        path,
        crate::core::training::progress::MAX_BYTES,
        |text| Progress::decode(text).map_err(|e: ProgressError| e.to_string()),
        &own_file::RecordWords {
            damaged: &lang.train.progress_damaged,
            unwritten: &lang.train.progress_unwritten,
        },
        lang,
    )
}

/// The positions to practise from every recorded game of the player (a game not yet judged
/// is judged now and its analysis kept); the progress line on standard output.
fn gather(options: &TrainOptions, lang: &Language) -> Result<Vec<Exercise>, ExitCode> {
    let paths = crate::io::journal::games_dir()
        .and_then(|dir| crate::io::journal::journal_paths(&dir))
        .map_err(|e| {
            errln!("hector train: {}", crate::io::error_chain(&e));
            ExitCode::from(2)
        })?;
    let search = search(options);
    let games: Vec<OwnGame> = paths
        .iter()
        .enumerate()
        .filter_map(|(n, path)| own_game(n + 1, path, search, lang))
        .collect();
    let unjudged = games.iter().filter(|g| g.kept.is_none()).count();
    let mut out = Out::new();
    if unjudged > 0 {
        out.line(&fill(
            &lang.train.analysing,
            &[("games", &counted(&lang.train.games, unjudged as u64))],
        ));
        out.flush();
    }
    let mut judge = Judge {
        options,
        search,
        lang,
        engines: Vec::new(),
        judged: 0,
        total: unjudged,
        out,
    };
    let mut exercises = Vec::new();
    for mut g in games {
        let stored = match g.kept.take() {
            Some(s) => s,
            None => match judge.judge(&g)? {
                Some(s) => s,
                None => continue,
            },
        };
        if let Ok(r) = review(g.game.start(), &g.moves, &stored.evals) {
            exercises.extend(exercises_of(&r, &stored.lines, g.player, &g.words));
        }
    }
    Ok(exercises)
}

/// One of the player's own recorded games, with its kept analysis if it has one.
struct OwnGame {
    /// Its number among the recorded games (1 is the first).
    number: usize,
    path: PathBuf,
    game: Game,
    moves: Vec<Move>,
    player: Color,
    /// "the game of {date} against {opponent}", as an exercise names it.
    words: String,
    kept: Option<crate::core::analysis::store::Stored>,
}

/// The game of a journal, if it is one of the player's own (a game of two at one keyboard is
/// no one's) and can be read.
fn own_game(
    number: usize,
    path: &Path,
    search: judging::Search,
    lang: &Language,
) -> Option<OwnGame> {
    let bytes = crate::io::journal::read_journal(path).ok()?;
    let salvaged = crate::core::record::salvage(&bytes).ok()?;
    let header = &salvaged.header;
    let player = header.local_player?;
    let game = salvaged.replayed.game.clone();
    let moves: Vec<Move> = game.moves().iter().map(|p| p.mv).collect();
    let opponent = if player == Color::White {
        &header.black
    } else {
        &header.white
    };
    let words = fill(
        &lang.train.game,
        &[
            (
                "date",
                &crate::app::services::games::date_text(&header.created),
            ),
            ("opponent", &printable(opponent)),
        ],
    );
    let kept = crate::app::services::kept_analysis::read(
        path,
        game.start(),
        &moves,
        kept_search(search),
        lang,
    );
    Some(OwnGame {
        number,
        path: path.to_path_buf(),
        game,
        moves,
        player,
        words,
        kept,
    })
}

/// The engines judging the games that have no kept analysis yet, started for the first.
struct Judge<'a> {
    options: &'a TrainOptions,
    search: judging::Search,
    lang: &'a Language,
    engines: Vec<Engine>,
    /// Games judged so far, and how many are to be.
    judged: usize,
    total: usize,
    out: Out,
}

impl Judge<'_> {
    /// Judges a game and keeps the analysis; `None` when the engine could not judge it (said),
    /// an exit code when no engine starts.
    fn judge(
        &mut self,
        g: &OwnGame,
    ) -> Result<Option<crate::core::analysis::store::Stored>, ExitCode> {
        let lang = self.lang;
        self.judged += 1;
        let black_first = usize::from(g.game.start().turn() == Color::Black);
        let full = u64::try_from((g.moves.len() + black_first).div_ceil(2)).unwrap_or(u64::MAX);
        self.out.line(&fill(
            &lang.train.analysing_game,
            &[
                ("index", &self.judged.to_string()),
                ("total", &self.total.to_string()),
                ("moves", &counted(&lang.record.moves, full)),
            ],
        ));
        self.out.flush();
        if self.engines.is_empty() {
            let chess960 = g.game.variant() == Variant::Chess960;
            match judging::start_engines(
                self.options.engine.as_deref(),
                chess960,
                judging::engine_count(self.options.engines),
                lang,
            ) {
                Ok(e) => self.engines = e,
                Err(reason) => {
                    errln!(
                        "hector train: {}",
                        fill(&lang.analysis.engine_failed, &[("reason", &reason)])
                    );
                    return Err(ExitCode::from(1));
                }
            }
        }
        match judging::evaluate(
            &mut self.engines,
            g.game.start(),
            &g.moves,
            self.search,
            lang,
            &mut |_, _| {},
        ) {
            Ok((evals, lines)) => {
                let stored = crate::core::analysis::store::Stored {
                    search: kept_search(self.search),
                    evals,
                    lines,
                };
                crate::app::services::kept_analysis::write(&g.path, &g.moves, &stored, lang);
                Ok(Some(stored))
            }
            Err(reason) => {
                errln!(
                    "hector train: {}",
                    fill(
                        &lang.train.game_failed,
                        &[("game", &g.number.to_string()), ("reason", &reason)]
                    )
                );
                Ok(None)
            }
        }
    }
}

struct App<M: Exercises> {
    lang: &'static Language,
    machine: M,
    front: Front,
    origin: Instant,
    /// The position asked about, as a game for the board view.
    shown: Game,
    engine: Option<Engine>,
    /// The engine's request judging an answer: its number, the position and the answer.
    judging: Option<(u64, Chess, Move)>,
    search: judging::Search,
    engine_path: Option<PathBuf>,
    board: Option<BoardLink>,
    progress_path: Option<PathBuf>,
    /// The words when the progress cannot be written: {reason}.
    unwritten: &'static str,
    pieces: Pieces,
    colors: bool,
}

impl<M: Exercises> App<M> {
    fn now(&self) -> Timestamp {
        Timestamp::from_duration(self.origin.elapsed())
    }

    fn handle(&mut self, event: ExerciseEvent) -> bool {
        let now = self.now();
        let effects = self.machine.handle(event, now);
        let keep = self.apply(effects);
        // A question (skipping what was begun) stays in view until it is answered; on the
        // board, the first letters of yes and no answer it.
        let question = self.machine.question().map(str::to_string);
        self.front.voice.yes_no = question.is_some();
        self.front.voice.question = question;
        keep
    }

    fn apply(&mut self, effects: Vec<ExerciseEffect>) -> bool {
        let mut keep = true;
        for effect in effects {
            self.front.voice.dirty = true;
            match effect {
                ExerciseEffect::Common(common) => keep &= self.front.carry_out(common),
                ExerciseEffect::Judge { position, answer } => keep &= self.judge(position, answer),
                ExerciseEffect::Keep(text) => self.keep(&text),
                ExerciseEffect::Show(pos) => {
                    self.front.side = pos.turn();
                    self.shown = Game::from_position(pos.clone(), Variant::Standard);
                    if let Some(b) = self.board.as_mut() {
                        let events = b.expect_position(pos, None);
                        keep &= self.board_events(events);
                    }
                }
            }
        }
        keep
    }

    /// Asks the engine how the position stands after the answer; started when first needed.
    fn judge(&mut self, position: Chess, answer: Move) -> bool {
        if self.engine.is_none() {
            match judging::start_engines(self.engine_path.as_deref(), false, 1, self.lang) {
                Ok(mut e) => self.engine = e.pop(),
                Err(reason) => return self.handle(ExerciseEvent::JudgeFailed { reason }),
            }
        }
        let Some(engine) = self.engine.as_mut() else {
            return true;
        };
        match engine.request_analysis(
            &position,
            &[answer],
            self.search.depth,
            self.search.movetime,
        ) {
            Ok(request) => {
                self.judging = Some((request, position, answer));
                true
            }
            Err(e) => {
                let reason = engine_error_text(&e, self.lang);
                self.handle(ExerciseEvent::JudgeFailed { reason })
            }
        }
    }

    fn engine_event(&mut self, e: EngineEvent) -> bool {
        let lang = self.lang;
        let failure = match e {
            EngineEvent::Analysis {
                request,
                score,
                line,
                ..
            } => {
                let Some((_, pos, answer)) = self.judging.take_if(|(r, ..)| *r == request) else {
                    return true;
                };
                let turn = !pos.turn();
                return self.handle(ExerciseEvent::Judged {
                    answer,
                    eval: eval_of(score, turn),
                    reply: line,
                });
            }
            EngineEvent::Rejected { answer, .. } => engine_illegal(&answer, lang),
            EngineEvent::Timeout { waited, .. } => engine_hung(waited, lang),
            EngineEvent::Died { how, .. } => {
                self.engine = None;
                engine_ending(how, lang)
            }
            _ => return true,
        };
        self.judging = None;
        self.handle(ExerciseEvent::JudgeFailed { reason: failure })
    }

    /// Writes the progress whole, as a file of hector's own; a failure is said each time.
    fn keep(&mut self, text: &str) {
        let Some(path) = &self.progress_path else {
            return;
        };
        if let Err(words) = own_file::keep(path, text, self.unwritten, self.lang) {
            self.front.voice.tell(Urgency::Urgent, vec![words]);
        }
    }

    fn board_events(&mut self, events: Vec<BoardEvent>) -> bool {
        let mut keep = true;
        for event in events {
            match event {
                BoardEvent::Recognized { recognition, .. } => {
                    use crate::core::board::Recognition;
                    match recognition {
                        Recognition::Moved(m) => {
                            keep &= self.handle(ExerciseEvent::Move(m));
                            // The board shows the position asked about again once the
                            // answer is taken back.
                            if let (Some(pos), Some(b)) =
                                (self.machine.position().cloned(), self.board.as_mut())
                            {
                                let follow = b.expect_position(pos, None);
                                keep &= self.board_events(follow);
                            }
                        }
                        Recognition::Mismatch(diffs) => {
                            let text = board_words::mismatch(&diffs, self.lang);
                            self.front.voice.tell(Urgency::Answer, vec![text]);
                        }
                        _ => {}
                    }
                }
                BoardEvent::Disconnected { .. } => {
                    let text = board_words::disconnected(self.lang).to_string();
                    self.front.voice.tell(Urgency::Urgent, vec![text]);
                }
                BoardEvent::Reconnected => {
                    let text = board_words::reconnected(self.lang).to_string();
                    self.front.voice.tell(Urgency::Answer, vec![text]);
                }
                _ => {}
            }
        }
        keep
    }
}

const ENGINE: usize = 0;
const BOARD: usize = 1;

impl<M: Exercises> Mode for App<M> {
    fn sources(&self) -> Vec<(usize, Source)> {
        let mut sources = Vec::new();
        if let Some(e) = &self.engine {
            sources.push((ENGINE, Source::Engine(e.events().clone())));
        }
        if let Some(b) = &self.board {
            sources.push((BOARD, Source::Port(b.events().clone())));
        }
        sources
    }

    fn next_wake(&self) -> Option<Instant> {
        let now = self.now();
        let mine = self
            .machine
            .next_deadline(now)
            .map(|t| self.origin + t.since_origin());
        let board = self.board.as_ref().and_then(BoardLink::next_deadline);
        mine.into_iter().chain(board).min()
    }

    fn front(&mut self) -> &mut Front {
        &mut self.front
    }

    fn draw(&mut self, screen: &mut FullScreen) {
        self.front.draw_board(
            screen,
            Picture {
                game: &self.shown,
                clock: None,
                pieces: self.pieces,
                colors: self.colors,
                boards: &[],
            },
        );
    }

    fn shown_board(&self) -> Option<shakmaty::Board> {
        self.machine.position().map(|p| p.board().clone())
    }

    fn heard_position(&self) -> Option<Chess> {
        self.machine.position().cloned()
    }

    fn line(&mut self, line: String) -> bool {
        self.handle(ExerciseEvent::Line(line))
    }

    fn command(&mut self, command: Command) -> bool {
        self.handle(ExerciseEvent::Command(command))
    }

    fn incoming(&mut self, tag: usize, event: Incoming) -> bool {
        match (tag, event) {
            (ENGINE, Incoming::Engine(e)) => self.engine_event(e),
            (BOARD, Incoming::Port(pe)) => {
                let Some(b) = self.board.as_mut() else {
                    return true;
                };
                let events = b.handle(pe);
                self.board_events(events)
            }
            _ => true,
        }
    }

    fn tick(&mut self) -> bool {
        let events = self.board.as_mut().map(BoardLink::tick).unwrap_or_default();
        self.board_events(events)
    }

    fn clock_runs(&self) -> bool {
        false
    }

    fn ends_with_answer(&self) -> bool {
        self.machine.ran_out()
    }

    /// Not while the engine judges the answer: its verdict comes first.
    fn prompt_now(&self) -> bool {
        !self.machine.judging()
    }
}

/// `hector train`. Exit status 0; 1 when the engine or the board cannot start; 2 when the
/// games cannot be listed.
pub(crate) fn run(options: TrainOptions, lang: &'static Language) -> ExitCode {
    let exercises = match gather(&options, lang) {
        Ok(e) => e,
        Err(code) => return code,
    };
    let loaded = progress_path().map(|p| read_progress(&p, lang));
    let (progress, progress_path, told) = match loaded {
        Some(l) => (l.value.unwrap_or_default(), l.path, l.told),
        None => (Progress::default(), None, None),
    };
    let due: Vec<Exercise> = exercises
        .into_iter()
        .filter(|e| progress.due(&e.key()))
        .collect();
    let (train, effects) = Train::new(
        due,
        progress,
        lang,
        options.front.form,
        options.front.wording,
    );
    let start = train.position().cloned().unwrap_or_default();
    let front = FrontOptions::of(&options.front, &lang.train.prompt);
    let exercise = Practice {
        search: search(&options),
        engine_path: options.engine.clone(),
        progress_path,
        unwritten: &lang.train.progress_unwritten,
        told: told.into_iter().collect(),
    };
    run_exercises(train, effects, start, front, exercise, lang, |_| Vec::new())
}

/// How the exercises are shown and answered.
struct FrontOptions<'a> {
    /// The line mode's prompt.
    prompt: &'a str,
    screen_reader: bool,
    speech: &'a SpeechSettings,
    speech_chosen: bool,
    board: Option<&'a (PathBuf, Protocol)>,
    pieces: Pieces,
    colors: bool,
}

impl<'a> FrontOptions<'a> {
    fn of(front: &'a PracticeFront, prompt: &'a str) -> FrontOptions<'a> {
        FrontOptions {
            prompt,
            screen_reader: front.screen_reader,
            speech: &front.speech,
            speech_chosen: front.speech_chosen,
            board: front.board.as_ref(),
            pieces: front.pieces,
            colors: front.colors,
        }
    }
}

/// What the exercises keep and ask.
struct Practice {
    search: judging::Search,
    engine_path: Option<PathBuf>,
    progress_path: Option<PathBuf>,
    unwritten: &'static str,
    /// What happened to the progress file, said first.
    told: Vec<String>,
}

/// Runs the exercises of `machine` (opened with `effects`, the first position `start`) in
/// the shared runtime until they end; then says the lines `after` gives for the machine.
fn run_exercises<M: Exercises>(
    machine: M,
    effects: Vec<ExerciseEffect>,
    start: Chess,
    front: FrontOptions<'_>,
    exercise: Practice,
    lang: &'static Language,
    after: impl FnOnce(&M) -> Vec<String>,
) -> ExitCode {
    let origin = Instant::now();
    let ui = Ui::new(front.screen_reader).with_keys_in_lines();
    let speaker = ui.speaker(front.speech, front.speech_chosen, lang);
    let board = match front.board {
        Some((port, protocol)) => {
            match BoardLink::open(
                port,
                *protocol,
                None,
                start.clone(),
                CastlingMode::Standard,
                origin,
            ) {
                Ok(link) => Some(link),
                Err(e) => {
                    errln!("hector: {}: {e}", port.display());
                    return ExitCode::from(1);
                }
            }
        }
        None => None,
    };
    let mut app = App {
        lang,
        machine,
        front: Front::new(
            Narrator::new(speaker, ui.full_screen, front.prompt),
            start.turn(),
            lang,
        ),
        origin,
        shown: Game::from_position(start, Variant::Standard),
        engine: None,
        judging: None,
        search: exercise.search,
        engine_path: exercise.engine_path,
        board,
        progress_path: exercise.progress_path,
        unwritten: exercise.unwritten,
        pieces: front.pieces,
        colors: front.colors,
    };
    let screen = ui.open(crate::core::mode::Mode::Train, &mut app.front.voice);
    if !exercise.told.is_empty() {
        app.front.voice.tell(Urgency::Urgent, exercise.told);
    }
    if app.apply(effects) {
        ui.run(&mut app, screen, lang);
    } else {
        drop(screen);
    }
    if let Some(e) = app.engine.as_mut() {
        e.stop();
    }
    let closing = after(&app.machine);
    if !closing.is_empty() {
        // The full screen is closed by now: its lines are printed as well as said.
        if ui.full_screen {
            let mut out = Out::new();
            for line in &closing {
                out.line(line);
            }
            out.flush();
        }
        app.front.voice.tell(Urgency::Answer, closing);
    }
    app.front
        .voice
        .speaker
        .wait_idle(std::time::Duration::from_secs(3));
    ExitCode::SUCCESS
}

/// What `hector puzzle` was asked for.
pub(crate) struct PuzzleOptions {
    /// A theme as typed: a lichess key or its name in any language.
    pub(crate) theme: Option<String>,
    /// Choose near this rating instead of the player's.
    pub(crate) rating: Option<u32>,
    pub(crate) front: PracticeFront,
    /// A puzzle from lichess instead (and the server asked).
    pub(crate) online: Option<(OnlineAsk, String)>,
}

/// `hector puzzle --daily`, `--online`: which puzzle lichess is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OnlineAsk {
    /// The puzzle of the day (`GET /api/puzzle/daily`).
    Daily,
    /// A new puzzle, of the theme if one was chosen (`GET /api/puzzle/next`).
    Next,
}

/// Where an online puzzle's result goes: the server with the player's token (if any), and
/// the angle (theme, or lichess's "mix") it is recorded under.
struct Online {
    client: crate::io::lichess::Client,
    has_token: bool,
    angle: String,
}

/// A failed request in the puzzle's words.
fn api_words(e: &crate::io::lichess::ApiError, lang: &Language) -> String {
    use crate::io::lichess::ApiError;
    let w = &lang.puzzle;
    match e {
        ApiError::Unauthorized => w.token_refused.clone(),
        ApiError::RateLimited(d) => fill(&w.rate_limited, &[("seconds", &d.as_secs().to_string())]),
        ApiError::Refused { status: 404, .. } => w.not_found.clone(),
        ApiError::Refused { reason, .. } => fill(&w.refused, &[("reason", &printable(reason))]),
        ApiError::Network(reason) => fill(&w.network, &[("reason", &printable(reason))]),
    }
}

/// Asks lichess (or the server) for the puzzle; the reason in words when it cannot be had.
/// A new puzzle is asked with the token stored for that server (scope puzzle:read: lichess
/// then gives one the player has not seen); a token made before hector asked for that scope
/// is refused (403), and the puzzle is asked again without it, with a note on what to do.
fn fetch_online(
    ask: OnlineAsk,
    server: &str,
    theme: Option<&str>,
    lang: &Language,
) -> Result<(crate::core::puzzles::set::Puzzle, Online, Option<String>), String> {
    use crate::io::lichess::{ApiError, Client, ServerError, token};
    let o = &lang.online;
    let unusable = |e: ServerError| match e {
        ServerError::Insecure(s) => fill(&o.insecure_server, &[("server", &printable(&s))]),
        ServerError::NotAnAddress(s) => fill(&o.bad_server, &[("server", &printable(&s))]),
    };
    // The token goes only to a server check_server accepts (Client::new checks it).
    let token = token::load(server).ok().flatten().unwrap_or_default();
    let client = Client::new(server, &token).map_err(unusable)?;
    let path = match (ask, theme) {
        (OnlineAsk::Daily, _) => "/api/puzzle/daily".to_string(),
        (OnlineAsk::Next, Some(t)) => format!("/api/puzzle/next?angle={t}"),
        (OnlineAsk::Next, None) => "/api/puzzle/next".to_string(),
    };
    // The daily puzzle is the same for everyone: it needs no token, so none is sent.
    let with_token = ask == OnlineAsk::Next && !token.is_empty();
    let mut note = None;
    let text = match client.get_open(&path, with_token) {
        Err(ApiError::Refused { status: 403, .. }) if with_token => {
            note = Some(lang.puzzle.scope_missing.clone());
            client.get_open(&path, false)
        }
        other => other,
    }
    .map_err(|e| api_words(&e, lang))?;
    let puzzle = crate::core::puzzles::puzzle_of(&text).map_err(|_| lang.puzzle.broken.clone())?;
    let angle = match ask {
        OnlineAsk::Next => theme.unwrap_or("mix"),
        OnlineAsk::Daily => "mix",
    };
    let online = Online {
        client,
        has_token: !token.is_empty(),
        angle: angle.to_string(),
    };
    Ok((puzzle, online, note))
}

/// After an online puzzle played: its result recorded on lichess with the player's token
/// (the player's lichess puzzle rating said when the answer has it), or kept here only.
fn record_online(id: &str, win: bool, online: &Online, lang: &Language) -> String {
    use crate::core::puzzles::{rating_of, result_body};
    let w = &lang.puzzle;
    if !online.has_token {
        return w.local_only.clone();
    }
    let path = format!("/api/puzzle/batch/{}", online.angle);
    match online.client.post_json(&path, &result_body(id, win)) {
        Ok(answer) => match rating_of(&answer) {
            Some(r) => fill(&w.recorded, &[("rating", &r.to_string())]),
            None => w.recorded_plain.clone(),
        },
        Err(e) => fill(&w.not_recorded, &[("reason", &api_words(&e, lang))]),
    }
}

/// The puzzle record in hector's data directory.
pub(crate) const PUZZLE_FILE: &str = "puzzles.progress";

/// `hector puzzle`: the shipped puzzles near the player's rating. Exit status 0; 1 when the
/// board cannot be opened; 2 for a theme that does not exist.
pub(crate) fn run_puzzles(options: PuzzleOptions, lang: &'static Language) -> ExitCode {
    use crate::core::puzzles::progress::PuzzleProgress;
    use crate::core::puzzles::{Choice, PuzzleRun, set, theme_key};
    let theme = match options.theme.as_deref().map(|t| (t, theme_key(t))) {
        None => None,
        Some((_, Some(key))) => Some(key),
        Some((typed, None)) => {
            let names: Vec<&str> = lang.puzzle.themes.values().map(String::as_str).collect();
            errln!(
                "hector puzzle: {}",
                fill(
                    &lang.puzzle.unknown_theme,
                    &[("theme", &printable(typed)), ("themes", &names.join(", "))]
                )
            );
            return ExitCode::from(2);
        }
    };
    let loaded = crate::io::journal::data_dir().ok().map(|d| {
        own_file::load(
            &d.join(PUZZLE_FILE),
            crate::core::puzzles::progress::MAX_BYTES,
            |t| PuzzleProgress::decode(t).map_err(|e| e.to_string()),
            &own_file::RecordWords {
                damaged: &lang.puzzle.damaged,
                unwritten: &lang.puzzle.unwritten,
            },
            lang,
        )
    });
    let (mut progress, path, mut told) = match loaded {
        Some(l) => (l.value.unwrap_or_default(), l.path, Vec::from_iter(l.told)),
        None => (PuzzleProgress::default(), None, Vec::new()),
    };
    let mut choice = Choice {
        theme,
        rating: options.rating,
    };
    let mut puzzles = None;
    let mut failed = None;
    let mut online = None;
    if let Some((ask, server)) = &options.online {
        let mut out = Out::new();
        out.line(&lang.puzzle.asking);
        out.flush();
        match fetch_online(*ask, server, choice.theme.as_deref(), lang) {
            Ok((puzzle, o, note)) => {
                told.extend(note);
                // Played before or not, lichess's puzzle is the one asked.
                progress.played.remove(&puzzle.id);
                online = Some((puzzle.id.clone(), o));
                puzzles = Some(vec![puzzle]);
                choice = Choice::default();
            }
            // hector's own puzzles instead.
            Err(reason) => failed = Some(fill(&lang.puzzle.online_failed, &[("reason", &reason)])),
        }
    }
    let (run, mut effects) = PuzzleRun::new(
        puzzles.unwrap_or_else(|| set::read(set::SHIPPED)),
        choice,
        progress,
        lang,
        options.front.form,
        options.front.wording,
    );
    if let Some(text) = failed {
        effects.insert(
            0,
            ExerciseEffect::Common(Common::Say {
                urgency: Urgency::Answer,
                lines: vec![text],
            }),
        );
    }
    let start = run.position().cloned().unwrap_or_default();
    let front = FrontOptions::of(&options.front, &lang.puzzle.prompt);
    let practice = Practice {
        search: judging::Search {
            depth: Some(DEFAULT_DEPTH),
            movetime: DEFAULT_CAP,
        },
        engine_path: None,
        progress_path: path,
        unwritten: &lang.puzzle.unwritten,
        told,
    };
    let after = move |run: &PuzzleRun| {
        let Some((id, o)) = online else {
            return Vec::new();
        };
        match run.progress().played.get(&id) {
            Some(&win) => vec![record_online(&id, win, &o, lang)],
            None => Vec::new(),
        }
    };
    run_exercises(run, effects, start, front, practice, lang, after)
}

/// `hector play --from-puzzle ID`: the position the puzzle asks, and the side that solves it.
pub(crate) fn puzzle_position(id: &str) -> Option<(Chess, Color)> {
    crate::core::puzzles::set::read(crate::core::puzzles::set::SHIPPED)
        .into_iter()
        .find(|p| p.id == id)
        .map(|p| (p.start(), p.solver()))
}

/// Whether `side` should win or hold `pos`, from the engine's look at it (depth 14, at most
/// a second); `None` when the engine cannot say (the game then starts without it).
pub(crate) fn goal_of(pos: &Chess, side: Color, lang: &Language) -> Option<String> {
    if pos.is_game_over() {
        return None;
    }
    let mut engines = judging::start_engines(None, false, 1, lang).ok()?;
    let engine = engines.first_mut()?;
    let request = engine
        .request_analysis(pos, &[], Some(DEFAULT_DEPTH), DEFAULT_CAP)
        .ok()?;
    let patience = DEFAULT_CAP + std::time::Duration::from_secs(5);
    loop {
        match engine.events().recv_timeout(patience).ok()? {
            EngineEvent::Analysis {
                request: r, score, ..
            } if r == request => {
                let eval = eval_of(score, pos.turn());
                return Some(crate::core::puzzles::goal_words(side, eval, lang));
            }
            EngineEvent::Analysis { .. } | EngineEvent::BestMove { .. } => {}
            _ => return None,
        }
    }
}
