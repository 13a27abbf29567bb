//! `hector arbiter`: the arbiter supervising several games on two boards each (Appendix D,
//! D2.8). Each game is a [`Table`]; the console lists them, says every alert at once (with
//! the game's number), carries out the arbiter's commands and reads the games' event logs
//! back. Full screen or lines for a screen reader.

pub(crate) mod view;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow};
use shakmaty::{Color, Position};

use crate::app::services::recorder::Recorder;
use crate::app::services::table::{BoardSpec, Table, TableSpec, TableStart, Told};
use crate::app::services::ui::narrator::Narrator;
use crate::app::services::ui::{Front, Incoming, Mode, Source, Ui};
use crate::core::game::Game;
use crate::core::machine::Common;
use crate::core::matchplay::Urgency;
use crate::core::matchplay::two_boards::GameFile;
use crate::core::matchplay::two_boards::{Alert, Duty, Event, Seat, action_error_words};
use crate::core::matchplay::two_boards::{ConsoleError, ConsoleLine, GameLine, read_console};
use crate::core::matchplay::{Command, Line, read_line};
use crate::core::mode::MODE_SETTING;
use crate::core::notation::Form;
use crate::core::notation::clock_words::clock_face;
use crate::core::notation::printable;
use crate::core::notation::{Language, fill, language};
use crate::core::settings::SpeechSettings;
use crate::io::journal::{games_dir, journal_paths, load};
use crate::io::terminal::FullScreen;
use view::{ConsoleView, Row};

/// Everything `hector arbiter` was asked for.
pub(crate) struct ArbiterOptions {
    pub(crate) files: Vec<PathBuf>,
    pub(crate) speech: SpeechSettings,
    pub(crate) speech_chosen: bool,
    pub(crate) screen_reader: bool,
    /// Start every game afresh instead of continuing its unfinished journal.
    pub(crate) new: bool,
    /// Push every game to this lichess broadcast round.
    pub(crate) broadcast: Option<String>,
    /// The server for the broadcast (lichess, or one with the same API).
    pub(crate) server: String,
}

/// A game of the console.
struct Supervised {
    number: usize,
    table: Table,
    lang: &'static Language,
}

/// How many lines of a game's log the full screen keeps.
const LOG_KEPT: usize = 200;

struct Arbiter {
    lang: &'static Language,
    games: Vec<Supervised>,
    selected: Option<usize>,
    front: Front,
    /// "Wirklich beenden?" was asked: only yes ends the console; the command again asks again
    /// and anything else lets the question go.
    quit_asked: bool,
    /// The games go to a lichess broadcast round (`--broadcast`).
    pusher: Option<crate::io::lichess::push::Pusher>,
    /// What was last pushed of each game: its half-moves and its result.
    pushed: Vec<(usize, Option<crate::core::outcome::Outcome>)>,
}

/// The unfinished journal hector arbiter kept for this game file, if any.
fn unfinished_journal(file: &Path) -> Option<PathBuf> {
    let dir = games_dir().ok()?;
    let wanted = file.display().to_string();
    journal_paths(&dir).ok()?.into_iter().rev().find(|path| {
        let Ok(decoded) = load(path) else {
            return false;
        };
        let setting = |key: &str| {
            decoded.entries.iter().find_map(|e| match e {
                crate::core::record::Entry::Setting { key: k, value } if k == key => {
                    Some(value.as_str())
                }
                _ => None,
            })
        };
        crate::core::mode::Mode::of_journal(setting(MODE_SETTING))
            == crate::core::mode::Mode::Arbiter
            && setting("game_file") == Some(wanted.as_str())
            && crate::core::record::replay(&decoded.header, &decoded.entries)
                .is_ok_and(|r| r.outcome().is_none())
    })
}

/// Opens one game file: its table, continued from its journal unless `new`.
fn open_game(
    file: &Path,
    new: bool,
    fallback: &'static Language,
    origin: Instant,
) -> Result<(Table, &'static Language, Vec<Told>)> {
    let text = crate::io::files::read_small_text(file, "the game file")?;
    let g = GameFile::parse(&text)?;
    // Each game speaks its file's language, with its file's set of words, else the
    // console's.
    let words = g.words.unwrap_or(fallback.words);
    let lang = match &g.language {
        Some(code) => language(code)?,
        None => fallback,
    }
    .with_words(words);
    let canonical = file.canonicalize().unwrap_or_else(|_| file.to_path_buf());
    let spec = table_spec(&g, &canonical);
    let journal = if new {
        None
    } else {
        unfinished_journal(&canonical)
    };
    let start = match journal {
        Some(path) => {
            let (recorder, replayed) = Recorder::resume(&path)?;
            let sealed = match replayed.adjourned {
                None => None,
                Some(_) => {
                    let envelope = replayed
                        .settings
                        .get("envelope")
                        .context("the game is adjourned and its journal names no envelope")?;
                    let text =
                        crate::io::files::read_small_text(Path::new(envelope), "the envelope")?;
                    let env = crate::core::matchplay::two_boards::Envelope::from_toml(&text)?;
                    Some(env.open(&replayed.game)?)
                }
            };
            TableStart::Resume {
                recorder: Box::new(recorder),
                replayed: Box::new(replayed),
                sealed,
            }
        }
        None => {
            let game = match &g.fen {
                Some(fen) => {
                    let pos = crate::core::variant::position_from_fen(
                        fen,
                        crate::core::variant::Variant::Standard,
                    )
                    .map_err(|e| anyhow!("fen: {e}"))?;
                    Game::from_position(pos, crate::core::variant::Variant::Standard)
                }
                None => Game::default(),
            };
            TableStart::New(Box::new(game))
        }
    };
    let (table, told) = Table::open(spec, start, lang, origin)?;
    Ok((table, lang, told))
}

/// The table of a game file: its two boards, its players and its clock, for the arbiter.
fn table_spec(g: &GameFile, canonical: &Path) -> TableSpec {
    TableSpec {
        blind: g.blind,
        peg: Some(BoardSpec {
            port: PathBuf::from(&g.peg.0),
            protocol: g.peg.1,
        }),
        sighted: Some(BoardSpec {
            port: PathBuf::from(&g.sighted.0),
            protocol: g.sighted.1,
        }),
        control: g.control.clone(),
        form: Form::Short,
        duty: Duty::Arbiter,
        white: g.white.clone(),
        black: g.black.clone(),
        event: g.event.clone(),
        site: g.site.clone(),
        round: g.round.clone(),
        envelope: None,
        mode: crate::core::mode::Mode::Arbiter,
        settings: vec![("game_file".into(), canonical.display().to_string())],
    }
}

/// The pusher for `--broadcast`, or why there is none (said on the console; the games go on).
fn broadcast(
    round: &str,
    server: &str,
    lang: &Language,
) -> std::result::Result<crate::io::lichess::push::Pusher, String> {
    use crate::io::lichess::{Client, ServerError, check_server, token};
    // The token goes nowhere it could be read on the way: said as `hector online` says it.
    let refused = |e: ServerError| {
        let (template, server) = match &e {
            ServerError::Insecure(s) => (&lang.online.insecure_server, s),
            ServerError::NotAnAddress(s) => (&lang.online.bad_server, s),
        };
        fill(template, &[("server", &printable(server))])
    };
    check_server(server).map_err(refused)?;
    let stored = token::load(server)
        .ok()
        .flatten()
        .ok_or_else(|| lang.broadcast.needs_token.clone())?;
    let client = Client::new(server, &stored).map_err(refused)?;
    Ok(crate::io::lichess::push::Pusher::start(&client, round))
}

impl Arbiter {
    /// The round's games as PGN when a game has a new move or a result since the last push:
    /// handed to the pushing thread (the journal stays the record; nothing here waits).
    fn push_if_changed(&mut self) {
        let Some(pusher) = &self.pusher else {
            return;
        };
        let now: Vec<_> = self
            .games
            .iter()
            .map(|g| {
                let game = g.table.game.game();
                (game.ply(), game.outcome())
            })
            .collect();
        if now == self.pushed {
            return;
        }
        self.pushed = now;
        let games: Vec<String> = self
            .games
            .iter()
            .filter_map(|g| g.table.recorder.pgn(g.lang))
            .map(|p| p.trim().to_string())
            .collect();
        pusher.push(games.join("\n\n"));
    }

    /// The pushing thread's news, said on the console.
    fn push_news(&mut self, news: crate::io::lichess::push::PushNews) {
        use crate::io::lichess::push::PushNews;
        let b = &self.lang.broadcast;
        let (urgency, text) = match news {
            PushNews::Pushed => (Urgency::Answer, b.pushed.clone()),
            PushNews::Refused { reason, retry } => (
                Urgency::Urgent,
                fill(
                    &b.refused,
                    &[
                        ("reason", &printable(&reason)),
                        ("seconds", &retry.as_secs().to_string()),
                    ],
                ),
            ),
            PushNews::GameRefused { game, reason } => (
                Urgency::Urgent,
                fill(
                    &b.game_refused,
                    &[("game", &printable(&game)), ("reason", &printable(&reason))],
                ),
            ),
        };
        self.front.voice.dirty = true;
        self.front.voice.tell(urgency, vec![text]);
    }

    fn game_index(&self, number: usize) -> Option<usize> {
        self.games.iter().position(|g| g.number == number)
    }

    fn prefix(&self, index: usize) -> String {
        fill(
            &self.lang.arbiter.game_prefix,
            &[("number", &self.games[index].number.to_string())],
        )
    }

    /// What a game told: every line is shown with the game's number; urgent ones are said,
    /// and everything when the arbiter asked (`asked`).
    fn told(&mut self, index: usize, told: Vec<Told>, asked: bool) {
        let prefix = self.prefix(index);
        for t in told {
            self.front.voice.dirty = true;
            match t {
                Told::Common(Common::Say { urgency, lines }) => {
                    let lines: Vec<String> = lines
                        .into_iter()
                        .map(|l| format!("{prefix}: {l}"))
                        .collect();
                    if asked || urgency == Urgency::Urgent {
                        self.front.voice.tell(urgency, lines);
                    } else {
                        self.show(lines);
                    }
                }
                Told::Common(Common::Speech(c)) => self.front.voice.speech(c),
                Told::Save(path) => self.save(index, path),
                // The players cannot end the console; its input line is its own.
                // The game's number already says where a move comes from. The games' sounds
                // are the players', not the arbiter's: many boards would be noise.
                Told::Common(Common::Quit | Common::Refused | Common::Cue(_)) | Told::Label(_) => {}
            }
        }
    }

    /// Shown (and printed in line mode) without being said: the moves of the games.
    fn show(&mut self, lines: Vec<String>) {
        self.front.voice.show(lines);
    }

    fn save(&mut self, index: usize, path: Option<String>) {
        let g = &self.games[index];
        let path = path
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(format!("hector-game-{}.pgn", g.number)));
        let text = g.table.recorder.save_words(&path, g.lang);
        self.front.voice.tell(Urgency::Answer, vec![text]);
    }

    fn answer(&mut self, text: String) {
        self.front.voice.tell(Urgency::Answer, vec![text]);
    }

    /// A console line; false when the arbiter leaves.
    fn line(&mut self, text: &str) -> bool {
        if std::mem::take(&mut self.quit_asked) {
            match read_line(text) {
                Ok(Line::Command(Command::Yes)) => return false,
                Ok(Line::Command(Command::No)) => {
                    self.answer(self.lang.arbiter.not_quit.clone());
                    return true;
                }
                _ => {}
            }
        }
        let w = &self.lang.arbiter;
        match read_console(text) {
            Ok(ConsoleLine::Empty) => {}
            Ok(ConsoleLine::Games) => {
                let lines: Vec<String> =
                    (0..self.games.len()).map(|i| self.games_line(i)).collect();
                self.front.voice.tell(Urgency::Answer, lines);
            }
            Ok(ConsoleLine::Help) => self.answer(w.help.clone()),
            Ok(ConsoleLine::Quit) => return self.quit(),
            Ok(ConsoleLine::Speech(c)) => self.front.voice.speech(c),
            Ok(ConsoleLine::Select(n)) => self.select(n),
            Ok(ConsoleLine::Log(n)) => self.log(n),
            Ok(ConsoleLine::Game { game, what }) => self.game_line(game, what),
            Err(e) => {
                let text = match e {
                    ConsoleError::Action(e) => action_error_words(&e, self.lang),
                    ConsoleError::Command(_) | ConsoleError::NotUnderstood(_) => {
                        w.unknown_command.clone()
                    }
                };
                self.answer(text);
            }
        }
        true
    }

    /// A game chosen by its number: the one the next lines are for.
    fn select(&mut self, n: usize) {
        let w = &self.lang.arbiter;
        match self.game_index(n) {
            Some(i) => {
                self.selected = Some(n);
                let h = &self.games[i].table.recorder.header;
                let text = fill(
                    &w.selected,
                    &[
                        ("number", &n.to_string()),
                        ("white", &printable(&h.white)),
                        ("black", &printable(&h.black)),
                    ],
                );
                self.answer(text);
            }
            None => self.no_such_game(n),
        }
    }

    /// The event log of the game named, or of the one selected.
    fn log(&mut self, n: Option<usize>) {
        let w = &self.lang.arbiter;
        match n.or(self.selected).map(|n| (n, self.game_index(n))) {
            Some((_, Some(i))) => {
                let mut lines = self.games[i].table.event_log();
                if lines.is_empty() {
                    lines.push(w.log_empty.clone());
                }
                let heading = fill(
                    &w.log_heading,
                    &[("number", &self.games[i].number.to_string())],
                );
                lines.insert(0, heading);
                self.front.voice.tell(Urgency::Answer, lines);
            }
            Some((n, None)) => self.no_such_game(n),
            None => self.answer(w.which_game.clone()),
        }
    }

    /// An action or a command for one game, the one named or the one selected.
    fn game_line(&mut self, game: Option<usize>, what: GameLine) {
        let w = &self.lang.arbiter;
        let Some(n) = game.or(self.selected) else {
            self.answer(w.which_game.clone());
            return;
        };
        let Some(i) = self.game_index(n) else {
            self.no_such_game(n);
            return;
        };
        let input = match what {
            GameLine::Action(a) => Event::Action(a),
            GameLine::Command(c) => Event::Command(c),
        };
        let told = self.games[i].table.input(input);
        self.told(i, told, true);
    }

    fn no_such_game(&mut self, n: usize) {
        let text = fill(
            &self.lang.arbiter.no_such_game,
            &[
                ("number", &n.to_string()),
                ("count", &self.games.len().to_string()),
            ],
        );
        self.answer(text);
    }

    fn quit(&mut self) -> bool {
        let running = self.games.iter().any(|g| !g.table.game.game().is_over());
        if !running {
            return false;
        }
        self.quit_asked = true;
        self.answer(self.lang.arbiter.quit_confirm.clone());
        true
    }

    fn alerts_words(&self, index: usize) -> String {
        let g = &self.games[index];
        let w = &self.lang.arbiter;
        let alerts = g.table.game.alerts();
        if alerts.is_empty() {
            return w.no_alert.clone();
        }
        alerts
            .iter()
            .map(|(seat, alert)| {
                let color = self.lang.color(g.table.game.setup().color(*seat));
                let template = match alert {
                    Alert::Records { .. } => &w.alert_word_records,
                    Alert::Ahead => &w.alert_word_ahead,
                    Alert::Position(_) => &w.alert_word_position,
                    Alert::Disconnected => &w.alert_word_disconnected,
                };
                fill(template, &[("color", color)])
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn clocks(&self, index: usize) -> (String, String, String) {
        let g = &self.games[index];
        let w = &self.lang.arbiter;
        let now = g.table.now();
        let Some(c) = g.table.game.clock() else {
            return ("-".into(), "-".into(), "-".into());
        };
        let running = if g.table.game.game().is_over() {
            w.over_word.clone()
        } else if c.is_paused() {
            w.paused_word.clone()
        } else {
            c.running()
                .map_or_else(|| "-".to_string(), |col| self.lang.color(col).to_string())
        };
        (
            clock_face(c.remaining(Color::White, now)),
            clock_face(c.remaining(Color::Black, now)),
            running,
        )
    }

    /// "12. Sf6", the result, or "-" before the first move.
    fn position_words(&self, index: usize) -> String {
        let game = self.games[index].table.game.game();
        if let Some(r) = game.result() {
            return r.to_string();
        }
        match game.last_move() {
            None => "-".to_string(),
            Some(last) => {
                let before = game
                    .position_at(game.ply().saturating_sub(1))
                    .cloned()
                    .unwrap_or_default();
                let number = before.fullmoves().get();
                let san = crate::core::notation::scoresheet_move(&last.san, self.lang);
                if before.turn() == Color::White {
                    format!("{number}. {san}")
                } else {
                    format!("{number}... {san}")
                }
            }
        }
    }

    fn row(&self, index: usize) -> Row {
        let g = &self.games[index];
        let h = &g.table.recorder.header;
        let surname =
            |name: &str| printable(name.split_whitespace().last().unwrap_or(name)).into_owned();
        let (white_clock, black_clock, running) = self.clocks(index);
        Row {
            number: g.number,
            players: format!("{} - {}", surname(&h.white), surname(&h.black)),
            position: self.position_words(index),
            white_clock,
            black_clock,
            running,
            alerts: self.alerts_words(index),
        }
    }

    fn board_lines(&self, index: usize) -> Vec<String> {
        let g = &self.games[index];
        Seat::BOTH
            .into_iter()
            .map(|seat| {
                let color = g.table.game.setup().color(seat);
                let name = fill(
                    &self.lang.record.board_of,
                    &[("color", self.lang.color(color))],
                );
                format!("{name}: {}", g.table.game.board_words(seat))
            })
            .collect()
    }

    /// Game `index` in one line, for "partien" and the screen reader.
    fn games_line(&self, index: usize) -> String {
        let g = &self.games[index];
        let h = &g.table.recorder.header;
        let game = g.table.game.game();
        let state = match game.outcome() {
            // Said as the log and the watch say it; the PGN keeps "1-0".
            Some(o) => self.lang.result_said(o.result).to_string(),
            None => crate::core::matchplay::queries::turn(game.position(), self.lang),
        };
        let clock = match g.table.game.clock() {
            Some(c) => crate::core::notation::clock_words::summary_words(
                &c.summary(g.table.now()),
                self.lang,
            ),
            None => self.lang.play.no_clock.clone(),
        };
        fill(
            &self.lang.arbiter.games_line,
            &[
                ("number", &g.number.to_string()),
                ("white", &printable(&h.white)),
                ("black", &printable(&h.black)),
                ("state", &state),
                ("boards", &self.board_lines(index).join(". ")),
                ("clock", &clock),
                ("alerts", &self.alerts_words(index)),
            ],
        )
    }
}

/// Runs the console. Exit status 0 when the arbiter leaves, 1 when no game could start.
/// A game file that could not be opened: the console goes on without it.
fn say_left_out(
    voice: &mut Narrator,
    full_screen: bool,
    number: usize,
    file: &Path,
    e: &anyhow::Error,
    lang: &Language,
) {
    let text = fill(
        &lang.arbiter.left_out,
        &[
            ("number", &number.to_string()),
            ("file", &file.display().to_string()),
            ("reason", &format!("{e:#}")),
        ],
    );
    // Once on standard error; the full screen shows it too (it covers standard
    // error), line mode only says it.
    errln!("hector arbiter: {text}");
    if full_screen {
        voice.tell(Urgency::Urgent, vec![text]);
    } else {
        voice.speaker.urgent(text);
    }
}

pub(crate) fn run(options: ArbiterOptions, lang: &'static Language) -> ExitCode {
    let ui = Ui::new(options.screen_reader).with_keys_in_lines();
    let speaker = ui.speaker(&options.speech, options.speech_chosen, lang);
    let origin = Instant::now();
    let mut voice = Narrator::new(speaker, ui.full_screen, &lang.arbiter.prompt);
    voice.lang = Some(lang);
    let mut games = Vec::new();
    let mut first_told = Vec::new();
    for (i, file) in options.files.iter().enumerate() {
        let number = i + 1;
        match open_game(file, options.new, lang, origin) {
            Ok((mut table, game_lang, told)) => {
                // Many games: no game's disk may hold up another's alert.
                table.write_on_thread();
                first_told.push((games.len(), told));
                games.push(Supervised {
                    number,
                    table,
                    lang: game_lang,
                });
            }
            Err(e) => say_left_out(&mut voice, ui.full_screen, number, file, &e, lang),
        }
    }
    if games.is_empty() {
        errln!("hector arbiter: {}", lang.arbiter.no_games);
        voice.speaker.wait_idle(Duration::from_secs(3));
        return ExitCode::from(1);
    }
    let mut app = Arbiter {
        lang,
        selected: (games.len() == 1).then_some(games[0].number),
        games,
        front: Front::new(voice, Color::White, lang),
        quit_asked: false,
        pusher: None,
        pushed: Vec::new(),
    };
    if let Some(round) = &options.broadcast {
        match broadcast(round, &options.server, lang) {
            Ok(p) => {
                app.pusher = Some(p);
                let text = fill(&lang.broadcast.pushing, &[("round", &printable(round))]);
                app.front.voice.tell(Urgency::Answer, vec![text]);
            }
            Err(why) => app.front.voice.tell(Urgency::Urgent, vec![why]),
        }
    }
    let heading = fill(
        &lang.arbiter.console_heading[usize::from(app.games.len() != 1)],
        &[("count", &app.games.len().to_string())],
    );
    app.front.voice.tell(Urgency::Answer, vec![heading]);
    for (i, told) in first_told {
        app.told(i, told, false);
    }
    let screen = ui.open(crate::core::mode::Mode::Arbiter, &mut app.front.voice);
    app.push_if_changed();
    ui.run(&mut app, screen, lang);
    for g in &mut app.games {
        g.table.finish();
    }
    // The games as they ended go too; a push that cannot go in time is no loss here.
    app.push_if_changed();
    if let Some(p) = &app.pusher {
        p.flush(Duration::from_secs(5));
    }
    app.front.voice.speaker.wait_idle(Duration::from_secs(3));
    ExitCode::SUCCESS
}

/// Each game's sources: its two boards and its journal's thread, three tags a game.
const PER_GAME: usize = 3;
/// The broadcast's answers.
const PUSH: usize = usize::MAX;

impl Mode for Arbiter {
    fn sources(&self) -> Vec<(usize, Source)> {
        let mut sources = Vec::new();
        for (i, g) in self.games.iter().enumerate() {
            for (k, seat) in Seat::BOTH.into_iter().enumerate() {
                if let Some(r) = g.table.events(seat) {
                    sources.push((i * PER_GAME + k, Source::Port(r.clone())));
                }
            }
            if let Some(r) = g.table.acks() {
                sources.push((i * PER_GAME + 2, Source::Journal(r.clone())));
            }
        }
        if let Some(p) = &self.pusher {
            sources.push((PUSH, Source::Push(p.news().clone())));
        }
        sources
    }

    fn next_wake(&self) -> Option<Instant> {
        let mut wake = self.games.iter().filter_map(|g| g.table.next_wake()).min();
        if self.front.voice.full_screen
            && self
                .games
                .iter()
                .any(|g| g.table.game.clock().is_some_and(|c| c.running().is_some()))
        {
            let next = Instant::now() + Duration::from_millis(250);
            wake = Some(wake.map_or(next, |w| w.min(next)));
        }
        wake
    }

    fn front(&mut self) -> &mut Front {
        &mut self.front
    }

    fn draw(&mut self, screen: &mut FullScreen) {
        let rows: Vec<Row> = (0..self.games.len()).map(|i| self.row(i)).collect();
        let chosen = self.selected.and_then(|n| self.game_index(n));
        let boards = chosen.map(|i| self.board_lines(i)).unwrap_or_default();
        let log = chosen
            .map(|i| {
                let mut log = self.games[i].table.event_log();
                let extra = log.len().saturating_sub(LOG_KEPT);
                log.drain(..extra);
                log
            })
            .unwrap_or_default();
        let view = ConsoleView {
            lang: self.lang,
            rows: &rows,
            selected: self.selected,
            boards: &boards,
            log: &log,
            said: &self.front.voice.said,
            input: &self.front.focus.input,
            status: &self.front.voice.status,
        };
        let _ = screen.terminal.draw(|f| view.draw(f));
        self.front.voice.dirty = false;
    }

    /// The console has lines; of the keys' commands only help and quit concern it (the board
    /// keys belong to the player's screen).
    fn command(&mut self, command: Command) -> bool {
        match command {
            Command::Help => {
                self.answer(self.lang.arbiter.help.clone());
                true
            }
            Command::Quit => self.quit(),
            _ => true,
        }
    }

    fn line(&mut self, line: String) -> bool {
        let keep = Arbiter::line(self, &line);
        self.push_if_changed();
        keep
    }

    /// The console shows the last two lines said, which no key pages.
    fn pages_answers(&self) -> bool {
        false
    }

    fn incoming(&mut self, tag: usize, event: Incoming) -> bool {
        if let Incoming::Push(news) = event {
            self.push_news(news);
            return true;
        }
        let i = tag / PER_GAME;
        let Some(game) = self.games.get_mut(i) else {
            return true;
        };
        let told = match (Seat::BOTH.get(tag % PER_GAME), event) {
            (Some(&seat), Incoming::Port(pe)) => game.table.port_event(seat, pe),
            (None, Incoming::Journal(ack)) => game.table.acknowledged(ack),
            _ => Vec::new(),
        };
        self.told(i, told, false);
        self.push_if_changed();
        true
    }

    /// Time-driven work for the games whose instant has come (a flag, a board's pause, the
    /// clock's checkpoint): with many games, not every game on every event.
    fn tick(&mut self) -> bool {
        let now = Instant::now();
        for i in 0..self.games.len() {
            if self.games[i].table.next_wake().is_some_and(|w| w <= now) {
                let told = self.games[i].table.tick();
                if !told.is_empty() {
                    self.told(i, told, false);
                }
            }
        }
        self.push_if_changed();
        true
    }

    /// The console shows every game's clock: drawn again as they run.
    fn clock_runs(&self) -> bool {
        true
    }
}
