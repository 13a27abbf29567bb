//! One game on two boards, as `hector assist` and `hector arbiter` run it: the pure
//! [`TwoBoards`] joined to its boards on their serial ports and to its journal. The modes give
//! it what happened (a port's bytes, a typed line, an arbiter's command, time) and receive
//! what is to be said; everything else (the journal, the boards' recognizers, the envelope of
//! an adjournment) is done here, in the order the core gave.

use crate::core::machine::Common;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use crossbeam_channel::Receiver;
use shakmaty::{Chess, Color};

use crate::app::services::recorder::Recorder;
use crate::core::clock::TimeControl;
use crate::core::game::Game;
use crate::core::laws::Rules;
use crate::core::machine::Machine;
use crate::core::matchplay::two_boards::Envelope;
use crate::core::matchplay::two_boards::{Duty, Effect, Event, Seat, TwoBoardSetup, TwoBoards};
use crate::core::matchplay::{Recorded, Urgency};
use crate::core::notation::Form;
use crate::core::notation::{Language, fill};
use crate::core::record::{Entry, Header, Replayed};
use crate::core::time::Timestamp;
use crate::io::board_link::{BoardEvent, BoardLink, Protocol};
use crate::io::serial::PortEvent;
use crate::io::utc::now_utc;

/// A board: its port and protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BoardSpec {
    pub(crate) port: PathBuf,
    pub(crate) protocol: Protocol,
}

impl BoardSpec {
    /// "peg:/dev/ttyACM0", as the journal keeps it.
    pub(crate) fn setting(&self) -> String {
        format!("{}:{}", self.protocol.name(), self.port.display())
    }

    pub(crate) fn from_setting(value: &str) -> Option<BoardSpec> {
        let (p, port) = value.split_once(':')?;
        Some(BoardSpec {
            port: PathBuf::from(port),
            protocol: Protocol::from_name(p)?,
        })
    }
}

/// Everything a table is set up with.
#[derive(Clone, Debug)]
pub(crate) struct TableSpec {
    pub(crate) blind: Color,
    /// The blind player's board.
    pub(crate) peg: Option<BoardSpec>,
    /// The sighted player's board.
    pub(crate) sighted: Option<BoardSpec>,
    pub(crate) control: Option<TimeControl>,
    pub(crate) form: Form,
    pub(crate) duty: Duty,
    pub(crate) white: String,
    pub(crate) black: String,
    pub(crate) event: String,
    pub(crate) site: String,
    pub(crate) round: String,
    /// Where the envelope of an adjournment is written; beside the journal when `None`.
    pub(crate) envelope: Option<PathBuf>,
    /// The mode that runs the table: the journal names it first.
    pub(crate) mode: crate::core::mode::Mode,
    /// What else the mode's resume needs (the arbiter's game file).
    pub(crate) settings: Vec<(String, String)>,
}

impl TableSpec {
    pub(crate) fn rules(&self) -> Rules {
        match &self.control {
            Some(tc) if tc.category() == crate::core::clock::Category::Blitz => Rules::BLITZ,
            _ => Rules::STANDARD,
        }
    }

    fn board(&self, seat: Seat) -> Option<&BoardSpec> {
        match seat {
            Seat::Blind => self.peg.as_ref(),
            Seat::Sighted => self.sighted.as_ref(),
        }
    }
}

/// Where the game comes from.
pub(crate) enum TableStart {
    New(Box<Game>),
    /// A journal continued: its record and the game it replays to; the sealed move of an
    /// adjourned game, from its envelope.
    Resume {
        recorder: Box<Recorder>,
        replayed: Box<Replayed>,
        sealed: Option<shakmaty::Move>,
    },
}

/// What a table has to tell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Told {
    /// Words, a speech control, a refused line, the end: as every machine tells them.
    Common(Common),
    /// Who made the move said next.
    Label(String),
    Save(Option<String>),
}

pub(crate) struct Table {
    pub(crate) game: TwoBoards,
    links: [Option<BoardLink>; 2],
    pub(crate) recorder: Recorder,
    pub(crate) spec: TableSpec,
    lang: &'static Language,
    origin: Instant,
}

fn index(seat: Seat) -> usize {
    match seat {
        Seat::Blind => 0,
        Seat::Sighted => 1,
    }
}

impl Table {
    /// Opens the boards and the journal and starts the game. Fails when a board cannot be
    /// opened (the reason names the port).
    pub(crate) fn open(
        spec: TableSpec,
        start: TableStart,
        lang: &'static Language,
        origin: Instant,
    ) -> Result<(Table, Vec<Told>)> {
        let setup = TwoBoardSetup {
            blind: spec.blind,
            blind_board: spec.peg.is_some(),
            sighted_board: spec.sighted.is_some(),
            control: spec.control.clone(),
            form: spec.form,
            rules: spec.rules(),
            duty: spec.duty,
        };
        let (game, resumed) = match start {
            TableStart::New(game) => (*game, None),
            TableStart::Resume {
                recorder,
                replayed,
                sealed,
            } => (replayed.game.clone(), Some((recorder, replayed, sealed))),
        };
        let position: Chess = game.position().clone();
        let mode = game.variant().castling_mode();
        let mut links: [Option<BoardLink>; 2] = [None, None];
        for seat in Seat::BOTH {
            if let Some(b) = spec.board(seat) {
                // The port's error names the port itself.
                let link =
                    BoardLink::open(&b.port, b.protocol, None, position.clone(), mode, origin)?;
                links[index(seat)] = Some(link);
            }
        }
        let now = Timestamp::from_duration(origin.elapsed());
        let (mut tb, effects) = TwoBoards::new(setup, game, lang, now);
        let recorder = match resumed {
            Some((recorder, replayed, sealed)) => {
                if let Some(snapshot) = &replayed.clock {
                    tb.restore_clock(snapshot, replayed.clock_moves(), now);
                }
                if let Some(m) = sealed {
                    tb.restore_adjournment(m);
                }
                *recorder
            }
            None => Recorder::create(Table::header(&spec, &tb, lang), Table::settings(&spec, &tb)),
        };
        let mut table = Table {
            game: tb,
            links,
            recorder,
            spec,
            lang,
            origin,
        };
        let mut told = table.record_problem();
        told.extend(table.apply(effects));
        Ok((table, told))
    }

    /// The low-clock sound when a side's time first falls under `threshold` (none: never).
    pub(crate) fn set_low_clock(&mut self, threshold: Option<std::time::Duration>) {
        let now = Timestamp::from_duration(self.origin.elapsed());
        self.game.set_low_clock(threshold, now);
    }

    fn header(spec: &TableSpec, tb: &TwoBoards, lang: &Language) -> Header {
        let opponent = fill(&lang.record.board_of, &[("color", lang.color(!spec.blind))]);
        let mut h = tb.setup().header(
            tb.game(),
            &now_utc(),
            (&spec.white, &spec.black),
            &opponent,
            lang,
        );
        h.event = spec.event.clone();
        h.site = spec.site.clone();
        h.round = spec.round.clone();
        h
    }

    /// What a resume needs to set the table up again: the mode's settings, then the set-up's
    /// (the core's one mapping, which a resume reads back).
    fn settings(spec: &TableSpec, tb: &TwoBoards) -> Vec<Entry> {
        let mut settings: Vec<(String, String)> = spec
            .mode
            .journal_setting()
            .map(|word| {
                (
                    crate::core::mode::MODE_SETTING.to_string(),
                    word.to_string(),
                )
            })
            .into_iter()
            .chain(spec.settings.iter().cloned())
            .collect();
        settings.extend(tb.setup().settings(
            spec.peg.as_ref().map(BoardSpec::setting),
            spec.sighted.as_ref().map(BoardSpec::setting),
        ));
        settings
            .into_iter()
            .map(|(key, value)| Entry::Setting { key, value })
            .collect()
    }

    pub(crate) fn now(&self) -> Timestamp {
        Timestamp::from_duration(self.origin.elapsed())
    }

    /// The port events of a board, to wait on.
    pub(crate) fn events(&self, seat: Seat) -> Option<&Receiver<PortEvent>> {
        self.links[index(seat)].as_ref().map(|l| l.events())
    }

    /// An event of a board's port.
    pub(crate) fn port_event(&mut self, seat: Seat, event: PortEvent) -> Vec<Told> {
        let events = match self.links[index(seat)].as_mut() {
            Some(link) => link.handle(event),
            None => return Vec::new(),
        };
        self.board_events(seat, events)
    }

    /// Something typed, asked or commanded.
    pub(crate) fn input(&mut self, input: Event) -> Vec<Told> {
        let now = self.now();
        let effects = self.game.handle(input, now);
        self.apply(effects)
    }

    /// Time passes: the boards' pauses, the clock's flag, the journal's clock checkpoint.
    pub(crate) fn tick(&mut self) -> Vec<Told> {
        let mut told = Vec::new();
        for seat in Seat::BOTH {
            let events = match self.links[index(seat)].as_mut() {
                Some(link) => link.tick(),
                None => continue,
            };
            if !events.is_empty() {
                told.extend(self.board_events(seat, events));
            }
        }
        told.extend(self.input(Event::Tick));
        self.checkpoint(false);
        told.extend(self.record_problem());
        told
    }

    /// The clock as it stands, for the journal: about once a second while it runs, and when
    /// `force`d (leaving, pausing).
    pub(crate) fn checkpoint(&mut self, force: bool) {
        let now = self.now();
        if self.game.game().is_over() {
            return;
        }
        if let Some(clock) = self.game.clock() {
            self.recorder.checkpoint(clock, now, force);
        }
    }

    /// The next instant the table must be ticked.
    pub(crate) fn next_wake(&self) -> Option<Instant> {
        let now = self.now();
        let mut wakes: Vec<Instant> = Vec::new();
        if let Some(t) = self.game.next_deadline(now) {
            wakes.push(self.origin + t.since_origin());
        }
        if !self.game.game().is_over()
            && let Some(t) = self.recorder.next_checkpoint(self.game.clock())
        {
            wakes.push(self.origin + t.since_origin());
        }
        for link in self.links.iter().flatten() {
            if let Some(t) = link.next_deadline() {
                wakes.push(t);
            }
        }
        wakes.into_iter().min()
    }

    fn board_events(&mut self, seat: Seat, events: Vec<BoardEvent>) -> Vec<Told> {
        let mut told = Vec::new();
        for event in events {
            let input = match event {
                BoardEvent::Recognized { recognition, .. } => Event::Board { seat, recognition },
                BoardEvent::Disconnected { .. } => Event::Connection {
                    seat,
                    connected: false,
                },
                BoardEvent::Reconnected => Event::Connection {
                    seat,
                    connected: true,
                },
                _ => continue,
            };
            told.extend(self.input(input));
        }
        told
    }

    /// The record's news (it stopped reaching the disk, or works again), told once.
    fn record_problem(&mut self) -> Vec<Told> {
        let unrecorded = self.recorder.unrecorded_words(self.lang);
        self.game.set_unrecorded(unrecorded);
        self.recorder
            .news_words(self.lang)
            .map(|(urgency, text)| {
                Told::Common(Common::Say {
                    urgency,
                    lines: vec![text],
                })
            })
            .into_iter()
            .collect()
    }

    /// From now on the journal is written on a thread of its own (one sync per batch of
    /// records) and what the game tells is told at once, not after the disk: for a console of
    /// many games, where one game's slow disk must not hold up another game's alert. The
    /// modes that speak to the blind player keep the journal in step (a move is said only
    /// once its record is on the disk).
    pub(crate) fn write_on_thread(&mut self) {
        self.recorder.write_on_thread();
    }

    /// The journal's acknowledgements, to wait on (after [`Table::write_on_thread`]).
    pub(crate) fn acks(&self) -> Option<&Receiver<crate::io::journal::Ack>> {
        self.recorder.acks()
    }

    /// Records are on the disk, or could not be written: a failure is told.
    pub(crate) fn acknowledged(&mut self, ack: crate::io::journal::Ack) -> Vec<Told> {
        self.recorder.acknowledged(ack);
        self.record_problem()
    }

    /// The end: the clock as it stands goes to the journal, and the journal's thread is given
    /// a moment to finish.
    pub(crate) fn finish(&mut self) {
        self.checkpoint(true);
        self.recorder.finish(std::time::Duration::from_secs(3));
    }

    /// Carries out the core's effects in order; returns what is to be said.
    fn apply(&mut self, effects: Vec<Effect>) -> Vec<Told> {
        let mut told = Vec::new();
        for effect in effects {
            match effect {
                Effect::Common(common) => told.push(Told::Common(common)),
                Effect::Record(r) => {
                    self.recorder.record(&r, self.game.game());
                    if r.needs_checkpoint() {
                        self.checkpoint(true);
                    }
                    told.extend(self.record_problem());
                }
                Effect::Expect {
                    seat,
                    position,
                    previous,
                    setup,
                } => {
                    let events = match self.links[index(seat)].as_mut() {
                        Some(link) if setup => link.expect_setup(*position),
                        Some(link) => link.expect_position(*position, previous.map(|p| *p)),
                        None => Vec::new(),
                    };
                    told.extend(self.board_events(seat, events));
                }
                Effect::Promotion { seat, role } => {
                    let events = match self.links[index(seat)].as_mut() {
                        Some(link) => link.choose_promotion(role).unwrap_or_default(),
                        None => Vec::new(),
                    };
                    told.extend(self.board_events(seat, events));
                }
                Effect::Envelope(envelope) => told.extend(self.write_envelope(*envelope)),
                Effect::Label(l) => told.push(Told::Label(l)),
                Effect::Save(p) => told.push(Told::Save(p)),
            }
        }
        told
    }

    /// Where the envelope goes: as asked, or beside the journal.
    fn envelope_path(&self) -> PathBuf {
        if let Some(p) = &self.spec.envelope {
            return p.clone();
        }
        match self.recorder.path() {
            Some(j) => j.with_extension("envelope.toml"),
            None => PathBuf::from(format!(
                "hector-{}.envelope.toml",
                now_utc().replace([':', 'T'], "-")
            )),
        }
    }

    /// E2, E3: the envelope, written for the arbiter to keep; its place goes to the journal.
    fn write_envelope(&mut self, mut envelope: Envelope) -> Vec<Told> {
        let h = &self.recorder.header;
        envelope.white = h.white.clone();
        envelope.black = h.black.clone();
        envelope.event = h.event.clone();
        envelope.sealed_at = now_utc();
        envelope.journal = self
            .recorder
            .path()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        let path = self.envelope_path();
        let w = &self.lang.assist;
        // The envelope's place may be named by the arbiter: the rules of `--output` hold.
        // Beside the journal it is a file of hector's own: never written through a link.
        let beside_journal = self.spec.envelope.is_none() && self.recorder.path().is_some();
        let text = envelope.to_toml();
        let written = if beside_journal {
            crate::io::owned_file::write(
                &path,
                text.as_bytes(),
                crate::io::platform::files::Privacy::Default,
                crate::io::owned_file::Replace::FileOnly,
            )
            .map_err(|e| crate::app::services::games::owned_problem(&e, self.lang))
        } else {
            crate::io::output_file::write_output(&path, text.as_bytes())
                .map(|_| ())
                .map_err(|e| crate::app::services::games::output_problem(&e, self.lang))
        };
        match written {
            Ok(()) => {
                self.recorder.record(
                    &Recorded::Setting {
                        key: "envelope".into(),
                        value: path.display().to_string(),
                    },
                    self.game.game(),
                );
                let mut told = self.record_problem();
                told.push(Told::Common(Common::Say {
                    urgency: Urgency::Answer,
                    lines: vec![fill(
                        &w.envelope_written,
                        &[("path", &path.display().to_string())],
                    )],
                }));
                told
            }
            Err(reason) => vec![Told::Common(Common::Say {
                urgency: Urgency::Urgent,
                lines: vec![fill(&w.envelope_failed, &[("reason", &reason)])],
            })],
        }
    }

    /// The event log of this game, in its words.
    pub(crate) fn event_log(&self) -> Vec<String> {
        crate::core::record::event_log(&self.recorder.header, self.recorder.entries(), self.lang)
            .unwrap_or_else(|e| vec![e.to_string()])
    }
}
