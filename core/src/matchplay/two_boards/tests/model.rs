//! Two boards against their journal, over the whole input space of `hector assist` and
//! `hector arbiter`: random sequences of what either board recognises (moves from its own
//! position, touches, deviations, a board back in order or taken back, unplugged and back),
//! typed lines (moves for a side without a board, questions, commands), the arbiter's every
//! action, time passing, and a continuation from the record. After every step the journal
//! written so far replays to the same game.

use std::time::Duration;

use proptest::prelude::*;
use shakmaty::{Color, Move, Position, Role, Square};

use super::super::*;
use crate::board::{SquareDiff, SquareState};
use crate::matchplay::session::TimeChange;
use crate::matchplay::session::tests::model::{Journal, Written, same_state};
use crate::notation::language::language;
use crate::outcome::GameResult;
use crate::record::codec::Decoded;
use crate::record::{Entry, replay};

#[derive(Clone, Debug)]
enum Step {
    /// The `n`th legal move of the board's own position.
    BoardMove(bool, u16),
    BoardTouch(bool, u8),
    /// The board shows a piece missing on a square.
    BoardOff(bool, u8),
    BoardMatches(bool),
    BoardTakeBack(bool),
    Connection(bool, bool),
    /// The `n`th legal move of the game, typed (for a side without a board).
    Typed(u16),
    Text(&'static str),
    Action(ActionStep),
    Wait(u32),
    Resume,
}

#[derive(Clone, Debug)]
enum ActionStep {
    Pause,
    Resume,
    Time(bool, u32),
    Moves(bool, u8),
    Penalty(bool),
    Illegal(bool),
    Claim(Option<u16>),
    Draw,
    Result(u8),
    Confirm,
    Correct(bool),
    Promote,
    Seal(u16),
    Open,
    Note,
}

const TEXTS: &[&str] = &[
    "",
    "Bb4",
    "remis",
    "annehmen",
    "ablehnen",
    "reklamieren",
    "aufgeben",
    "ja",
    "nein",
    "ende",
    "brett",
    "uhr",
    "wer",
    "letzter",
    "eröffnung",
    "sr pause",
    "sr weiter",
    "Elefant",
    // The players' agreements of hector play are not offered here.
    "revanche",
    "zurücknehmen",
    "abbrechen",
];

fn action() -> impl Strategy<Value = ActionStep> {
    prop_oneof![
        Just(ActionStep::Pause),
        Just(ActionStep::Resume),
        (any::<bool>(), 0u32..400_000).prop_map(|(c, ms)| ActionStep::Time(c, ms)),
        (any::<bool>(), 0u8..60).prop_map(|(c, n)| ActionStep::Moves(c, n)),
        any::<bool>().prop_map(ActionStep::Penalty),
        any::<bool>().prop_map(ActionStep::Illegal),
        proptest::option::of(any::<u16>()).prop_map(ActionStep::Claim),
        Just(ActionStep::Draw),
        (0u8..3).prop_map(ActionStep::Result),
        Just(ActionStep::Confirm),
        any::<bool>().prop_map(ActionStep::Correct),
        Just(ActionStep::Promote),
        any::<u16>().prop_map(ActionStep::Seal),
        Just(ActionStep::Open),
        Just(ActionStep::Note),
    ]
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        12 => (any::<bool>(), any::<u16>()).prop_map(|(s, n)| Step::BoardMove(s, n)),
        2 => (any::<bool>(), any::<u8>()).prop_map(|(s, n)| Step::BoardTouch(s, n)),
        2 => (any::<bool>(), any::<u8>()).prop_map(|(s, n)| Step::BoardOff(s, n)),
        1 => any::<bool>().prop_map(Step::BoardMatches),
        1 => any::<bool>().prop_map(Step::BoardTakeBack),
        1 => (any::<bool>(), any::<bool>()).prop_map(|(s, c)| Step::Connection(s, c)),
        4 => any::<u16>().prop_map(Step::Typed),
        3 => proptest::sample::select(TEXTS).prop_map(Step::Text),
        4 => action().prop_map(Step::Action),
        3 => prop_oneof![0u32..3_000, 0u32..400_000].prop_map(Step::Wait),
        1 => Just(Step::Resume),
    ]
}

fn seat(blind: bool) -> Seat {
    if blind { Seat::Blind } else { Seat::Sighted }
}

/// The names the header gives the players.
const NAMES: (&str, &str) = ("Anna", "Bernd");
const CREATED: &str = "2026-11-23T12:00:00Z";

struct Run {
    tb: TwoBoards,
    /// The journal, only as the bytes its records are (read back by decoding them).
    written: Written,
    now: Timestamp,
    /// The envelope of an adjournment, as the table writes it (TOML).
    envelope: Option<String>,
}

impl Run {
    /// A new game, its journal begun as the table begins it (the core's mapping of the
    /// set-up to the header and the settings).
    fn new(setup: TwoBoardSetup) -> Run {
        let lang = language("de").expect("de");
        let game = Game::default();
        let header = setup.header(&game, CREATED, NAMES, "Brett", lang);
        let peg = setup.blind_board.then(|| "peg:/dev/ttyACM0".to_string());
        let sighted = setup.sighted_board.then(|| "dgt:/dev/ttyUSB0".to_string());
        let entries: Vec<Entry> = setup
            .settings(peg, sighted)
            .into_iter()
            .map(|(key, value)| Entry::Setting { key, value })
            .collect();
        let (tb, effects) = TwoBoards::new(setup, game, lang, Timestamp::ZERO);
        let mut run = Run {
            tb,
            written: Written::new(&header, &entries),
            now: Timestamp::ZERO,
            envelope: None,
        };
        run.apply(effects);
        run
    }

    fn checkpoint(&mut self) {
        if let Some(c) = self.tb.clock() {
            self.written.append(&Entry::clock_checkpoint(c, self.now));
        }
    }

    fn apply(&mut self, effects: Vec<Effect>) {
        for e in effects {
            match e {
                Effect::Record(r) => {
                    let entries = r.entries(self.tb.game());
                    assert!(!entries.is_empty(), "{r:?} gave no entry");
                    for e in &entries {
                        self.written.append(e);
                    }
                    // As the table does: the clock's standing with a pause.
                    if matches!(r, Recorded::ClockPaused | Recorded::ClockResumed) {
                        self.checkpoint();
                    }
                }
                // As the table does: the envelope is written, and its place recorded.
                Effect::Envelope(envelope) => {
                    self.envelope = Some(envelope.to_toml());
                    self.written.append(&Entry::Setting {
                        key: "envelope".into(),
                        value: "partie.envelope.toml".into(),
                    });
                }
                _ => {}
            }
        }
    }

    fn legal(&self, n: u16) -> Option<Move> {
        let moves = self.tb.game().legal_moves();
        (!moves.is_empty()).then(|| moves[usize::from(n) % moves.len()])
    }

    fn san(&self, m: Move) -> String {
        shakmaty::san::SanPlus::from_move(self.tb.game().position().clone(), m).to_string()
    }

    fn step(&mut self, s: &Step) {
        let now = self.now;
        let board = |tb: &mut TwoBoards, blind: bool, recognition: Recognition| {
            tb.handle(
                Event::Board {
                    seat: seat(blind),
                    recognition,
                },
                now,
            )
        };
        let effects = match s {
            Step::BoardMove(blind, n) => {
                let pos = self.tb.boards[seat(*blind).index()].position.clone();
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    return;
                }
                let m = moves[usize::from(*n) % moves.len()];
                board(&mut self.tb, *blind, Recognition::Moved(m))
            }
            Step::BoardTouch(blind, sq) => {
                let pos = self.tb.boards[seat(*blind).index()].position.clone();
                let square = Square::new(u32::from(*sq) % 64);
                match pos.board().piece_at(square) {
                    Some(piece) => {
                        board(&mut self.tb, *blind, Recognition::Touched { square, piece })
                    }
                    None => return,
                }
            }
            Step::BoardOff(blind, sq) => {
                let pos = self.tb.boards[seat(*blind).index()].position.clone();
                let square = Square::new(u32::from(*sq) % 64);
                let expected = pos.board().piece_at(square);
                let found = match expected {
                    Some(_) => SquareState::Empty,
                    None => SquareState::Occupied(None),
                };
                board(
                    &mut self.tb,
                    *blind,
                    Recognition::Mismatch(vec![SquareDiff {
                        square,
                        expected,
                        found,
                    }]),
                )
            }
            Step::BoardMatches(blind) => board(&mut self.tb, *blind, Recognition::Matches),
            Step::BoardTakeBack(blind) => board(&mut self.tb, *blind, Recognition::TakeBack),
            Step::Connection(blind, connected) => self.tb.handle(
                Event::Connection {
                    seat: seat(*blind),
                    connected: *connected,
                },
                now,
            ),
            Step::Typed(n) => match self.legal(*n) {
                Some(m) => {
                    let text = self.san(m);
                    self.tb.handle(Event::Line(text), now)
                }
                None => return,
            },
            Step::Text(t) => self.tb.handle(Event::Line((*t).to_string()), now),
            Step::Wait(ms) => {
                self.now = now + Duration::from_millis(u64::from(*ms));
                self.tb.handle(Event::Tick, self.now)
            }
            Step::Action(a) => {
                let color = |white: bool| if white { Color::White } else { Color::Black };
                let action = match a {
                    ActionStep::Pause => Action::Pause,
                    ActionStep::Resume => Action::Resume,
                    ActionStep::Time(c, ms) => Action::Time {
                        color: color(*c),
                        change: TimeChange::Set(Duration::from_millis(u64::from(*ms))),
                    },
                    ActionStep::Moves(c, n) => Action::Moves {
                        color: color(*c),
                        moves: u32::from(*n),
                    },
                    ActionStep::Penalty(c) => Action::Penalty {
                        offender: color(*c),
                    },
                    ActionStep::Illegal(c) => Action::Illegal { by: color(*c) },
                    ActionStep::Claim(n) => Action::Claim {
                        intended: n.and_then(|n| self.legal(n)).map(|m| self.san(m)),
                    },
                    ActionStep::Draw => Action::Draw,
                    ActionStep::Result(r) => Action::Result(match r {
                        0 => GameResult::WhiteWins,
                        1 => GameResult::BlackWins,
                        _ => GameResult::Draw,
                    }),
                    ActionStep::Confirm => Action::Confirm,
                    ActionStep::Correct(c) => Action::Correct(color(*c)),
                    ActionStep::Promote => Action::Promote(Role::Queen),
                    ActionStep::Seal(n) => match self.legal(*n) {
                        Some(m) if !self.tb.is_adjourned() => Action::Seal {
                            text: self.san(m),
                            resumption: "morgen".into(),
                        },
                        _ => return,
                    },
                    ActionStep::Open => Action::Open,
                    ActionStep::Note => Action::Note("Notiz".into()),
                };
                self.tb.handle(Event::Action(action), now)
            }
            Step::Resume => {
                self.resume();
                return;
            }
        };
        self.apply(effects);
    }

    /// Leaves and continues from the journal alone, as the assistant does: the set-up from
    /// the header and the settings, the game and the clock from the entries, the sealed move
    /// from the envelope.
    fn resume(&mut self) {
        if !self.tb.game().is_over() {
            self.checkpoint();
        }
        let read = self.written.read_whole();
        let journal = self.journal(&read);
        let replayed = replay(&read.header, &read.entries).expect("the journal replays");
        let setup = TwoBoardSetup::read(&read.header, &replayed.settings).expect("set-up");
        let sealed = journal.sealed(&replayed).expect("the envelope opens");
        let lang = language(&read.header.language).expect("language");
        let (mut tb, effects) = TwoBoards::new(setup, replayed.game.clone(), lang, self.now);
        if let Some(snapshot) = &replayed.clock {
            tb.restore_clock(snapshot, replayed.clock_moves(), self.now);
        }
        if let Some(sealed) = sealed {
            tb.restore_adjournment(sealed);
        }
        assert_eq!(
            tb.game_match().question(),
            None,
            "a resumed game asks nothing"
        );
        self.tb = tb;
        self.apply(effects);
    }

    fn journal<'a>(&'a self, read: &'a Decoded) -> Journal<'a> {
        Journal {
            header: &read.header,
            entries: &read.entries,
            envelope: self.envelope.as_deref(),
        }
    }

    /// The journal, decoded from its bytes, replays to the game, and what a resume reads of
    /// the set-up is the table's: the blind player's colour and the names, the boards, the
    /// clock, the duty.
    fn check(&self, history: &str) -> Result<(), TestCaseError> {
        let bytes = self.written.read();
        let header = &bytes.header;
        same_state(
            &self.journal(&bytes),
            self.tb.game_match(),
            self.now,
            history,
        )?;
        let replayed =
            replay(header, &bytes.entries).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let read = TwoBoardSetup::read(header, &replayed.settings)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let s = self.tb.setup();
        let context = || format!("steps: {history}\nheader: {header:#?}");
        prop_assert_eq!(read.blind, s.blind, "the blind player\n{}", context());
        prop_assert_eq!(header.local_player, Some(s.blind), "{}", context());
        prop_assert_eq!(
            (header.white.as_str(), header.black.as_str()),
            NAMES,
            "the names\n{}",
            context()
        );
        prop_assert_eq!(
            (read.blind_board, read.sighted_board),
            (s.blind_board, s.sighted_board),
            "the boards\n{}",
            context()
        );
        prop_assert_eq!(
            read.control.as_ref().map(ToString::to_string),
            s.control.as_ref().map(ToString::to_string),
            "time control\n{}",
            context()
        );
        prop_assert_eq!(read.rules, s.rules, "rules\n{}", context());
        prop_assert_eq!(read.form, s.form, "form\n{}", context());
        prop_assert_eq!(read.duty, s.duty, "duty\n{}", context());
        Ok(())
    }
}

/// A set-up as the modes make it: the rules follow the time control (A4b in blitz).
fn setup(duty: u8, white_blind: bool, boards: u8, clock: Option<bool>) -> TwoBoardSetup {
    let control: Option<TimeControl> = clock.map(|blitz| {
        if blitz { "180+2" } else { "660+2" }
            .parse()
            .expect("time control")
    });
    TwoBoardSetup {
        blind: if white_blind {
            Color::White
        } else {
            Color::Black
        },
        blind_board: boards & 1 == 1,
        sighted_board: boards & 2 == 2,
        rules: crate::matchplay::session::recorded::rules_for(control.as_ref()),
        control,
        form: Form::Short,
        duty: match duty % 3 {
            0 => Duty::Blind,
            1 => Duty::Sighted,
            _ => Duty::Arbiter,
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: crate::testkit::model_cases(1500), ..ProptestConfig::default() })]

    #[test]
    fn every_two_board_session_replays_from_its_journal(
        duty in 0u8..3,
        white_blind in any::<bool>(),
        boards in 0u8..4,
        clock in proptest::option::of(any::<bool>()),
        steps in proptest::collection::vec(step(), 1..60),
    ) {
        let mut run = Run::new(setup(duty, white_blind, boards, clock));
        run.check("")?;
        for (i, s) in steps.iter().enumerate() {
            run.step(s);
            run.check(&format!("{:?}", &steps[..=i]))?;
        }
    }
}
