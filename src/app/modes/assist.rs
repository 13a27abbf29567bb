//! `hector assist`: hector as the blind player's assistant in an over-the-board game with two
//! boards (FIDE Appendix D9), or as the sighted player's when the blind player has none (D10).
//! The game's logic is the pure [`TwoBoards`]; the table joins it to the boards and the
//! journal; this module adds the terminal (full screen or lines) and the voice.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow};

use crate::app::services::recorder::Recorder;
use crate::app::services::table::{BoardSpec, Table, TableSpec, TableStart, Told};
use crate::app::services::ui::narrator::Narrator;
use crate::app::services::ui::view::Pieces;
use crate::app::services::ui::{Front, Incoming, Mode, Picture, Source, Ui};
use crate::core::game::Game;
use crate::core::matchplay::Command;
use crate::core::matchplay::Urgency;
use crate::core::matchplay::two_boards::Envelope;
use crate::core::matchplay::two_boards::{Duty, Event, Seat, TwoBoardSetup};
use crate::core::matchplay::two_boards::{PEG_BOARD, SIGHTED_BOARD};
use crate::core::notation::clock_words::clock_faces;
use crate::core::notation::{Language, fill};
use crate::core::settings::SpeechSettings;
use crate::io::terminal::FullScreen;

/// Everything `hector assist` was asked for.
pub(crate) struct AssistOptions {
    pub(crate) table: TableSpec,
    pub(crate) speech: SpeechSettings,
    /// The speech backend was chosen on the command line or in the configuration.
    pub(crate) speech_chosen: bool,
    pub(crate) screen_reader: bool,
    pub(crate) pieces: Pieces,
    pub(crate) colors: bool,
    pub(crate) start: TableStart,
    /// Moves and commands said aloud (`--voice`).
    pub(crate) voice: Option<crate::app::services::voice::VoiceOptions>,
}

struct Assist {
    lang: &'static Language,
    table: Table,
    front: Front,
    /// The board is drawn from this side: the player hector serves.
    pieces: Pieces,
    colors: bool,
    /// Listening for moves said aloud (`--voice`).
    voice_input: Option<crate::app::services::voice::VoiceInput>,
}

impl Assist {
    /// Says and carries out what the table told; false when the mode ends.
    fn told(&mut self, told: Vec<Told>) -> bool {
        let mut keep = true;
        for t in told {
            self.front.voice.dirty = true;
            match t {
                Told::Common(common) => keep &= self.front.carry_out(common),
                Told::Label(l) => self.front.voice.label = Some(l),
                Told::Save(path) => self.save(path),
            }
        }
        self.front.voice.question = self.table.game.game_match().question();
        self.front.voice.yes_no = self.table.game.game_match().asks_yes_no();
        keep
    }

    fn input(&mut self, input: Event) -> bool {
        let told = self.table.input(input);
        self.told(told)
    }

    fn save(&mut self, path: Option<String>) {
        let recorder = &mut self.table.recorder;
        let default = recorder.default_pgn_name();
        let text = recorder.save_typed(path.as_deref(), &default, self.lang);
        self.front.voice.tell(Urgency::Answer, vec![text]);
    }

    /// The boards' lines of the screen: the heading, then each board and its state.
    fn board_lines(&self) -> Vec<String> {
        let a = &self.lang.assist;
        let mut lines = vec![a.boards_heading.clone()];
        for seat in Seat::BOTH {
            let color = self.table.game.setup().color(seat);
            let name = fill(
                &self.lang.record.board_of,
                &[("color", self.lang.color(color))],
            );
            lines.push(format!("{name}: {}", self.table.game.board_words(seat)));
        }
        lines
    }
}

/// Runs the assistant. Exit status 0 when the player leaves (an unfinished game is kept for
/// `hector resume`), 1 when the game cannot start.
pub(crate) fn run(options: AssistOptions, lang: &'static Language) -> ExitCode {
    let ui = Ui::new(options.screen_reader).with_keys_in_lines();
    let speaker = ui.speaker(&options.speech, options.speech_chosen, lang);
    let side = match options.table.duty {
        Duty::Sighted => !options.table.blind,
        _ => options.table.blind,
    };
    let (mut table, told) = match Table::open(options.table, options.start, lang, Instant::now()) {
        Ok(t) => t,
        Err(e) => {
            errln!("hector assist: {e:#}");
            return ExitCode::from(1);
        }
    };
    let sound = &options.speech.sound;
    table.set_low_clock(
        sound
            .cues
            .then(|| Duration::from_secs(u64::from(sound.low_clock))),
    );
    let mut app = Assist {
        lang,
        table,
        front: Front::new(
            Narrator::new(speaker, ui.full_screen, &lang.play.prompt),
            side,
            lang,
        ),
        pieces: options.pieces,
        colors: options.colors,
        voice_input: None,
    };
    let screen = ui.open(crate::core::mode::Mode::Assist, &mut app.front.voice);
    let running = app.told(told);
    if let Some(voice) = &options.voice {
        let (input, why) = crate::app::services::voice::VoiceInput::start(lang, voice);
        app.voice_input = Some(input);
        if let Some(why) = why {
            app.front.voice.tell(Urgency::Urgent, vec![why]);
        }
    }
    if app.table.game.is_adjourned() {
        app.front
            .voice
            .tell(Urgency::Answer, vec![lang.assist.adjourned_resume.clone()]);
    }
    if running {
        ui.run(&mut app, screen, lang);
    }
    app.table.checkpoint(true);
    let over = app.table.game.game().is_over();
    let closing = app.table.recorder.closing_words(over, lang);
    // The hint names the command: where hector is, when the command alone would not find
    // it, is shown beside it and not said.
    let hinted = !closing.is_empty() && !over && app.table.recorder.is_saved();
    if !closing.is_empty() {
        app.front.voice.tell(Urgency::Answer, closing);
    }
    if let Some(line) = hinted
        .then(|| crate::io::program::path_line(lang))
        .flatten()
    {
        app.front.voice.show(vec![line]);
    }
    app.front.voice.speaker.wait_idle(Duration::from_secs(3));
    ExitCode::SUCCESS
}

impl Mode for Assist {
    /// The blind player's board (tag 0) and the sighted player's (tag 1).
    fn sources(&self) -> Vec<(usize, Source)> {
        Seat::BOTH
            .into_iter()
            .enumerate()
            .filter_map(|(i, seat)| {
                let events = self.table.events(seat)?;
                Some((i, Source::Port(events.clone())))
            })
            .collect()
    }

    /// The next instant the loop must wake: the table's, or the next second on screen.
    fn next_wake(&self) -> Option<Instant> {
        let second = crate::app::services::ui::next_second(
            &self.front.voice,
            self.table.game.clock(),
            self.table.now(),
        );
        self.table.next_wake().into_iter().chain(second).min()
    }

    fn front(&mut self) -> &mut Front {
        &mut self.front
    }

    fn voice_input(&mut self) -> Option<&mut crate::app::services::voice::VoiceInput> {
        self.voice_input.as_mut()
    }

    fn heard_position(&self) -> Option<shakmaty::Chess> {
        Some(self.table.game.game().position().clone())
    }

    fn draw(&mut self, screen: &mut FullScreen) {
        let now = self.table.now();
        let clock = self.table.game.clock().map(|c| clock_faces(c, now));
        let boards = self.board_lines();
        let m = self.table.game.game_match();
        self.front.review = m.review_heading().map(|h| (m.shown_position().clone(), h));
        self.front.draw_board(
            screen,
            Picture {
                game: self.table.game.game(),
                clock,
                pieces: self.pieces,
                colors: self.colors,
                boards: &boards,
            },
        );
    }

    fn command(&mut self, command: Command) -> bool {
        self.input(Event::Command(command))
    }

    fn line(&mut self, line: String) -> bool {
        self.input(Event::Line(line))
    }

    fn incoming(&mut self, tag: usize, event: Incoming) -> bool {
        match (Seat::BOTH.get(tag), event) {
            (Some(&seat), Incoming::Port(pe)) => {
                let told = self.table.port_event(seat, pe);
                self.told(told)
            }
            _ => true,
        }
    }

    fn tick(&mut self) -> bool {
        let told = self.table.tick();
        self.told(told)
    }

    fn clock_runs(&self) -> bool {
        self.table
            .game
            .clock()
            .is_some_and(|c| c.running().is_some())
    }
}

/// A journal of `hector assist` continued: the table as it was set up, the game and clock as
/// they were; an adjourned game with its envelope (named, or the one the journal names); the
/// language and the words its journal recorded (`None`: a journal from before hector
/// recorded them).
pub(crate) fn resume_spec(
    path: &Path,
    envelope: Option<&Path>,
) -> Result<(
    TableSpec,
    TableStart,
    (String, Option<crate::core::notation::WordSet>),
)> {
    let (recorder, replayed) = Recorder::resume(path)?;
    if replayed.game.is_over() {
        return Err(anyhow!(
            "the game in {} is already finished",
            path.display()
        ));
    }
    let h = &recorder.header;
    let settings = &replayed.settings;
    let setup = TwoBoardSetup::read(h, settings).map_err(|e| anyhow!("{e}"))?;
    let board = |key: &str| -> Result<Option<BoardSpec>> {
        match settings.get(key) {
            None => Ok(None),
            Some(v) => BoardSpec::from_setting(v)
                .map(Some)
                .with_context(|| format!("the journal names a board hector cannot read: {v}")),
        }
    };
    let sealed = match replayed.adjourned {
        None => None,
        Some(_) => {
            let file = envelope
                .map(Path::to_path_buf)
                .or_else(|| settings.get("envelope").map(PathBuf::from))
                .context("the game is adjourned, and no envelope is named (--envelope FILE)")?;
            let text = crate::io::files::read_small_text(&file, "the envelope")?;
            let env = Envelope::from_toml(&text)
                .with_context(|| format!("the envelope {}", file.display()))?;
            Some(
                env.open(&replayed.game)
                    .with_context(|| format!("the envelope {}", file.display()))?,
            )
        }
    };
    let spec = TableSpec {
        blind: setup.blind,
        peg: board(PEG_BOARD)?,
        sighted: board(SIGHTED_BOARD)?,
        control: setup.control,
        form: setup.form,
        duty: setup.duty,
        white: h.white.clone(),
        black: h.black.clone(),
        event: h.event.clone(),
        site: h.site.clone(),
        round: h.round.clone(),
        envelope: envelope.map(Path::to_path_buf),
        mode: crate::core::mode::Mode::Assist,
        settings: Vec::new(),
    };
    let language = (h.language.clone(), h.words);
    Ok((
        spec,
        TableStart::Resume {
            recorder: Box::new(recorder),
            replayed: Box::new(replayed),
            sealed,
        },
        language,
    ))
}

/// A new game for the assistant, from the start position or a FEN.
pub(crate) fn new_start(fen: Option<&str>) -> Result<TableStart> {
    let game = match fen {
        Some(f) => {
            let pos =
                crate::core::variant::position_from_fen(f, crate::core::variant::Variant::Standard)
                    .map_err(|e| anyhow!("--fen: {e}"))?;
            Game::from_position(pos, crate::core::variant::Variant::Standard)
        }
        None => Game::default(),
    };
    Ok(TableStart::New(Box::new(game)))
}
