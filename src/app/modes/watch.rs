//! `hector watch`: following games one does not play, on lichess: a broadcast round's boards,
//! one game, or lichess TV. The pure [`Watch`] decides what is said; this module reads the
//! stream through the adapter's thread and says and shows what the watch gives, on the shared
//! runtime (typed questions, the full screen or lines for a screen reader).

use crate::core::machine::Common;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use shakmaty::Color;

use crate::app::services::ui::narrator::Narrator;
use crate::app::services::ui::view::Pieces;
use crate::app::services::ui::{Front, Incoming, Mode, Picture, Source, Ui};
use crate::core::game::Game;
use crate::core::machine::Machine;
use crate::core::matchplay::Command;
use crate::core::matchplay::{Effect, Urgency};
use crate::core::notation::Form;
use crate::core::notation::{Language, fill};
use crate::core::settings::SpeechSettings;
use crate::core::time::Timestamp;
use crate::core::variant::Variant;
use crate::core::watch::{Choice, Event, Watch, WatchOptions};
use crate::io::lichess::Client;
use crate::io::lichess::watch::{Followed, WatchLink, WatchNews};
use crate::io::terminal::FullScreen;

/// What `hector watch` follows, where, and how it speaks.
pub(crate) struct WatchRun {
    pub(crate) server: String,
    pub(crate) followed: Followed,
    pub(crate) choice: Choice,
    pub(crate) all_boards: bool,
    pub(crate) form: Form,
    pub(crate) wording: crate::core::notation::Wording,
    pub(crate) screen_reader: bool,
    pub(crate) speech: SpeechSettings,
    pub(crate) speech_chosen: bool,
}

fn fail(text: &str) -> ExitCode {
    errln!("hector watch: {text}");
    ExitCode::from(1)
}

/// Runs `hector watch`.
pub(crate) fn run(options: WatchRun, lang: &'static Language) -> ExitCode {
    let o = &lang.online;
    // The server was checked with the command line (cli::modes): this cannot refuse it.
    let Ok(client) = Client::new(&options.server, "") else {
        return fail(&o.bad_server);
    };
    let source = match options.followed {
        Followed::Round(_) => crate::core::watch::Source::Round,
        Followed::Game(_) | Followed::Tv(_) => crate::core::watch::Source::Game,
    };
    let watch = Watch::new(
        WatchOptions {
            source,
            choice: options.choice.clone(),
            all_boards: options.all_boards,
            form: options.form,
        },
        lang,
    )
    .with_wording(options.wording)
    .with_low_clock(
        (options.speech.sound.cues)
            .then(|| Duration::from_secs(u64::from(options.speech.sound.low_clock))),
    );
    let ui = Ui::new(options.screen_reader).with_keys_in_lines();
    let speaker = ui.speaker(&options.speech, options.speech_chosen, lang);
    let mut app = App {
        watch,
        link: WatchLink::start(&client, options.followed),
        front: Front::new(
            Narrator::new(speaker, ui.full_screen, &lang.watch.prompt),
            Color::White,
            lang,
        ),
        origin: Instant::now(),
        empty: Game::new(Variant::Standard),
    };
    let screen = ui.open(crate::core::mode::Mode::Watch, &mut app.front.voice);
    app.front
        .voice
        .tell(Urgency::Answer, vec![lang.watch.connecting.clone()]);
    ui.run(&mut app, screen, lang);
    app.link.stop();
    app.front.voice.speaker.wait_idle(Duration::from_secs(3));
    ExitCode::SUCCESS
}

struct App {
    watch: Watch,
    link: WatchLink,
    front: Front,
    origin: Instant,
    /// What the screen shows before the first game arrives.
    empty: Game,
}

impl App {
    fn now(&self) -> Timestamp {
        Timestamp::from_duration(self.origin.elapsed())
    }

    fn handle(&mut self, event: Event) -> bool {
        let now = self.now();
        let effects = self.watch.handle(event, now);
        let mut keep = true;
        let ended = self.front.lang.watch.stream_ended.as_str();
        for effect in effects {
            self.front.voice.dirty = true;
            match effect {
                // The broadcast's end closes what was said last (the game's result).
                Effect::Common(Common::Say { urgency, lines }) if lines == [ended] => {
                    self.front.voice.tell_after(urgency, lines);
                }
                Effect::Common(common) => keep &= self.front.carry_out(common),
                _ => {}
            }
        }
        // The game's end came with its stream's close: nothing more to follow.
        if self.watch.is_over() {
            self.link.stop();
        }
        keep
    }
}

const STREAM: usize = 0;

impl Mode for App {
    fn sources(&self) -> Vec<(usize, Source)> {
        vec![(STREAM, Source::Watch(self.link.news().clone()))]
    }

    fn next_wake(&self) -> Option<Instant> {
        let now = self.now();
        self.watch
            .next_deadline(now)
            .map(|t| self.origin + t.since_origin())
    }

    fn front(&mut self) -> &mut Front {
        &mut self.front
    }

    fn draw(&mut self, screen: &mut FullScreen) {
        let game = self.watch.followed().map_or(&self.empty, |m| m.game());
        self.front.review = self
            .watch
            .followed()
            .and_then(|m| m.review_heading().map(|h| (m.shown_position().clone(), h)));
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
        let shown = self.watch.followed()?.shown_position();
        Some(shakmaty::Position::board(shown).clone())
    }

    fn line(&mut self, line: String) -> bool {
        self.handle(Event::Line(line))
    }

    fn command(&mut self, command: Command) -> bool {
        // The board's keys may pick pieces up: nothing is moved here.
        if matches!(command, Command::Select(_) | Command::PutDown) {
            let words = self.front.lang.watch.read_only.clone();
            self.front.voice.tell(Urgency::Answer, vec![words]);
            return true;
        }
        self.handle(Event::Command(command))
    }

    fn incoming(&mut self, _tag: usize, event: Incoming) -> bool {
        let Incoming::Watch(news) = event else {
            return true;
        };
        let event = match news {
            WatchNews::Connected => Event::Connected,
            WatchNews::Line(text) => Event::Stream(text),
            WatchNews::TooLong => Event::TooLong,
            WatchNews::Dropped => Event::Dropped,
            WatchNews::Restored => Event::Restored,
            WatchNews::Waiting(d) => Event::Waiting(d),
            WatchNews::Ended(reason) => {
                Event::Ended(reason.map(|e| refusal_words(&e, self.front.lang)))
            }
        };
        self.handle(event)
    }

    fn tick(&mut self) -> bool {
        self.handle(Event::Tick)
    }

    fn clock_runs(&self) -> bool {
        false
    }
}

/// Why lichess refused the stream, in hector's words; the server's own text only where
/// hector has none for it.
fn refusal_words(e: &crate::io::lichess::ApiError, lang: &Language) -> String {
    use crate::io::lichess::ApiError;
    let w = &lang.watch;
    match e {
        ApiError::Unauthorized => w.unauthorized.clone(),
        ApiError::RateLimited(d) => fill(
            &lang.online.rate_limited,
            &[("seconds", &d.as_secs().to_string())],
        ),
        ApiError::Refused { status: 404, .. } => w.not_found.clone(),
        ApiError::Refused { status, reason } => fill(
            &w.refused,
            &[
                ("status", &status.to_string()),
                ("reason", &crate::core::notation::printable(reason)),
            ],
        ),
        ApiError::Network(reason) => fill(
            &w.refused_network,
            &[("reason", &crate::core::notation::printable(reason))],
        ),
    }
}
