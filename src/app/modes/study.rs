//! `hector study FILE.pgn`: a PGN file's games walked with their variations and comments. The
//! pure [`Study`] decides what is said; this module hands its requests to the file's thread
//! ([`StudyFile`]), writes the player's new file, and says and shows what the study gives on
//! the shared runtime (typed questions, the full screen or lines for a screen reader).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use shakmaty::Color;

use crate::app::services::ui::narrator::Narrator;
use crate::app::services::ui::view::Pieces;
use crate::app::services::ui::{Front, Incoming, Mode, Picture, Source, Ui};
use crate::core::game::Game;
use crate::core::machine::Machine;
use crate::core::matchplay::Command;
use crate::core::matchplay::Urgency;
use crate::core::notation::Form;
use crate::core::notation::{Language, fill};
use crate::core::settings::SpeechSettings;
use crate::core::study::{Effect, Event, Study};
use crate::core::time::Timestamp;
use crate::core::variant::Variant;
use crate::io::lichess::explorer::ExplorerLink;
use crate::io::study_file::{Answer, Request, StudyFile};
use crate::io::terminal::FullScreen;

/// What `hector study` reads and how it speaks.
pub(crate) struct StudyRun {
    pub(crate) file: PathBuf,
    /// The game opened first (1 for the file's first).
    pub(crate) game: usize,
    pub(crate) form: Form,
    pub(crate) wording: crate::core::notation::Wording,
    pub(crate) screen_reader: bool,
    pub(crate) speech: SpeechSettings,
    pub(crate) speech_chosen: bool,
    /// The opening explorer's address (`--explorer`, `[explorer] server`).
    pub(crate) explorer: String,
}

fn fail(text: &str) -> ExitCode {
    errln!("hector study: {text}");
    ExitCode::from(1)
}

/// Runs `hector study`.
pub(crate) fn run(options: StudyRun, lang: &'static Language) -> ExitCode {
    let file = match StudyFile::start(options.file.clone(), lang) {
        Ok(f) => f,
        Err(e) => return fail(&e),
    };
    let ui = Ui::new(options.screen_reader).with_keys_in_lines();
    let speaker = ui.speaker(&options.speech, options.speech_chosen, lang);
    let mut app = App {
        study: Study::new(options.form, options.wording, lang),
        file,
        original: options.file.clone(),
        front: Front::new(
            Narrator::new(speaker, ui.full_screen, &lang.study.prompt),
            Color::White,
            lang,
        ),
        origin: Instant::now(),
        empty: Game::new(Variant::Standard),
        shown: None,
        explorer_server: options.explorer.clone(),
        explorer: None,
    };
    app.handle(Event::Open(options.game));
    let screen = ui.open(crate::core::mode::Mode::Study, &mut app.front.voice);
    ui.run(&mut app, screen, lang);
    app.front.voice.speaker.wait_idle(Duration::from_secs(3));
    ExitCode::SUCCESS
}

struct App {
    study: Study,
    file: StudyFile,
    original: PathBuf,
    front: Front,
    origin: Instant,
    /// What the screen shows before a game is open.
    empty: Game,
    /// The game up to the position reached, for the screen.
    shown: Option<Game>,
    /// The opening explorer's address, and its thread once asked.
    explorer_server: String,
    explorer: Option<ExplorerLink>,
}

/// Where the player's file goes when no name is given: beside the original, its name with
/// "-study" and the first number that names no file yet.
fn default_path(original: &Path) -> PathBuf {
    let stem = original
        .file_name()
        .and_then(|n| n.to_str())
        .map(|n| {
            let n = n
                .strip_suffix(".gz")
                .or(n.strip_suffix(".zst"))
                .unwrap_or(n);
            let n = n.strip_suffix(".bz2").unwrap_or(n);
            n.strip_suffix(".pgn").unwrap_or(n).to_string()
        })
        .unwrap_or_else(|| "study".to_string());
    let folder = original.parent().unwrap_or(Path::new("."));
    (1..)
        .map(|i| folder.join(format!("{stem}-study-{i}.pgn")))
        .find(|p| !p.exists())
        .unwrap_or_else(|| folder.join(format!("{stem}-study.pgn")))
}

/// Whether two paths name the same file (the original is never written).
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

impl App {
    fn now(&self) -> Timestamp {
        Timestamp::from_duration(self.origin.elapsed())
    }

    fn handle(&mut self, event: Event) -> bool {
        let now = self.now();
        if matches!(event, Event::Line(_) | Event::Command(_)) {
            // A login during the study counts; without a token `explorer` asks nothing.
            let stored = crate::io::lichess::explorer::token_stored(&self.explorer_server);
            self.study.explorer_token(stored);
        }
        let mut queue = vec![event];
        let mut keep = true;
        while let Some(event) = queue.pop() {
            for effect in self.study.handle(event, now) {
                self.front.voice.dirty = true;
                match effect {
                    Effect::Common(common) => keep &= self.front.carry_out(common),
                    Effect::Open(n) => self.file.ask(Request::Open(n)),
                    Effect::Find(search) => self.file.ask(Request::Find(search)),
                    Effect::Save { path, pgn } => queue.push(Event::Saved(self.save(path, &pgn))),
                    Effect::Explore(position) => {
                        let server = &self.explorer_server;
                        self.explorer
                            .get_or_insert_with(|| ExplorerLink::start(server))
                            .ask(*position);
                    }
                    Effect::Progress => queue.push(Event::Progress(self.file.progress())),
                    Effect::Cancel => self.file.cancel(),
                }
            }
        }
        self.shown = self.study.shown().map(|(game, _)| game);
        keep
    }

    /// Writes the player's file; the original is refused.
    fn save(&self, path: Option<String>, pgn: &str) -> Result<String, String> {
        let lang = self.front.lang;
        let path = match path {
            Some(p) => PathBuf::from(p),
            None => default_path(&self.original),
        };
        if path == self.original || same_file(&path, &self.original) {
            return Err(lang.study.not_original.clone());
        }
        crate::io::output_file::write_output(&path, pgn.as_bytes())
            .map(|_| crate::core::notation::printable(&path.display().to_string()).into_owned())
            .map_err(|e| {
                fill(
                    &lang.play.save_failed,
                    &[("reason", &crate::io::error_chain(&e))],
                )
            })
    }
}

const FILE: usize = 0;
const EXPLORER: usize = 1;

impl Mode for App {
    fn sources(&self) -> Vec<(usize, Source)> {
        let mut sources = vec![(FILE, Source::Study(self.file.news().clone()))];
        if let Some(link) = &self.explorer {
            sources.push((EXPLORER, Source::Explorer(link.news().clone())));
        }
        sources
    }

    fn next_wake(&self) -> Option<Instant> {
        let at = self.study.next_deadline(self.now())?;
        Some(self.origin + at.since_origin())
    }

    fn escape(&mut self) -> bool {
        self.study.waits() && self.handle(Event::Cancel)
    }

    fn front(&mut self) -> &mut Front {
        &mut self.front
    }

    fn draw(&mut self, screen: &mut FullScreen) {
        let game = self.shown.as_ref().unwrap_or(&self.empty);
        self.front.review = None;
        self.front.draw_board(
            screen,
            Picture {
                game,
                clock: None,
                pieces: Pieces::default(),
                colors: false,
                boards: &[],
            },
        );
    }

    fn shown_board(&self) -> Option<shakmaty::Board> {
        let game = self.shown.as_ref()?;
        Some(shakmaty::Position::board(game.position()).clone())
    }

    fn line(&mut self, line: String) -> bool {
        self.handle(Event::Line(line))
    }

    fn command(&mut self, command: Command) -> bool {
        // The board's keys may pick a piece up: a move is typed here.
        if matches!(command, Command::Select(_) | Command::PutDown) {
            let words = self.front.lang.study.not_here.clone();
            self.front.voice.tell(Urgency::Answer, vec![words]);
            return true;
        }
        self.handle(Event::Command(command))
    }

    fn incoming(&mut self, _tag: usize, event: Incoming) -> bool {
        let news = match event {
            Incoming::Study(news) => news,
            Incoming::Explorer(e) => {
                return self.handle(Event::Explored {
                    fen: e.fen,
                    reply: e.reply,
                });
            }
            _ => return true,
        };
        // The index's bound: news of the file, not an answer a cancel drops.
        if let Answer::Full { games } = news.answer {
            return self.handle(Event::IndexFull { games });
        }
        // An answer to a request the player cancelled since.
        if news.generation != self.file.generation() {
            return true;
        }
        match news.answer {
            Answer::Opened { number, game } => self.handle(Event::Opened { number, game }),
            Answer::Found {
                search,
                games,
                more,
            } => self.handle(Event::Found {
                search,
                games,
                more,
            }),
            Answer::Failed { reason, answers } => self.handle(Event::Failed { reason, answers }),
            Answer::Full { games } => self.handle(Event::IndexFull { games }),
        }
    }

    fn tick(&mut self) -> bool {
        self.handle(Event::Tick)
    }

    fn clock_runs(&self) -> bool {
        false
    }
}
