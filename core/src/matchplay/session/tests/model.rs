//! The session against its journal, over the whole input space: random sequences of every
//! event a game can meet (moves in every input form, legal and illegal, draw offers and their
//! answers, claims right and wrong, resigning and quitting with their questions answered or
//! left, the clock's ticks and flags, the arbiter's actions, a quit and a resume) are run
//! through the session, and after every step the journal written so far must replay to the
//! same game: position, moves, whose turn, a pending offer, illegal-move tallies, the game's
//! events, the result, the clock and an adjournment.

use std::time::Duration;

use proptest::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::{ByColor, Color, EnPassantMode, Move, Piece, Position, Role, Square};

use super::super::recorded::{PlayRecord, RecordedOpponent, next_game};
use super::super::*;
use crate::board::Recognition;
use crate::matchplay::two_boards::envelope::Envelope;
use crate::notation::language::language;
use crate::outcome::GameResult;
use crate::record::codec::{Decoded, decode, encode_entry, encode_header};
use crate::record::{Entry, Header, Replayed, replay};

/// One thing that happens to a game.
#[derive(Clone, Debug)]
enum Step {
    /// The `n`th legal move (modulo their number) typed in input form `form`.
    Move {
        n: u16,
        form: u8,
    },
    /// A line that is not a legal move here, or a command.
    Text(&'static str),
    /// A claim announcing the `n`th legal move.
    ClaimWith {
        n: u16,
        form: u8,
    },
    /// Time passes.
    Wait(u32),
    /// The engine answers with the `n`th legal move (wherever it is asked or not).
    Engine(u16),
    EngineFailed(bool),
    /// The engine is back after a restart the session asked for.
    EngineRestarted,
    /// The local board recognises the `n`th legal move, or a touch of a piece.
    BoardMove(u16),
    /// The sighted opponent's e-board recognises the `n`th legal move.
    OpponentMove(u16),
    BoardTouch(u8),
    /// The arbiter's actions (assist, arbiter).
    Arbiter(ArbiterStep),
    /// The player leaves and continues the game from its journal.
    Resume,
    /// The opening words have been said: a held clock starts.
    Ready,
    /// Space on a square of the screen's board, or Escape there.
    Select(u8),
    PutDown,
    /// The `n`th legal move made on the screen's board: Space on its square, Space on its
    /// target.
    SelectMove(u16),
    /// The engine answers a bewertung (false) or tipp (true) about the position `behind`
    /// half-moves back (0: the current one), with the `n`th legal move.
    Advice {
        hint: bool,
        behind: u8,
        n: u16,
    },
    /// The player types the `n`th move they could make were it their turn (a premove while
    /// the opponent is to move), in input form `form`.
    Premove {
        n: u16,
        form: u8,
    },
    /// A key on the screen's board that asks the session something (lichess's blind mode:
    /// m, Shift+M, o, v, g, Shift+A, Shift+D) on square `sq`.
    Key(u8, u8),
}

#[derive(Clone, Debug)]
enum ArbiterStep {
    Pause,
    Unpause,
    SetTime(bool, u32),
    AddTime(bool, u32),
    RemoveTime(bool, u32),
    SetMoves(bool, u8),
    Penalize(bool),
    IllegalMove(bool),
    ClaimFor(bool, Option<u16>),
    AgreeDraw,
    Decide(u8),
    TakeBack(u8),
    Adjourn(u16),
    OpenEnvelope,
    Note,
}

/// Lines that are not a legal move in most positions, and every command of a game, in both
/// languages.
const TEXTS: &[&str] = &[
    "Bb4",
    "Lb4",
    "bb4",
    "OO",
    "OOO",
    "Rochade",
    "castle",
    "kurz",
    "lang",
    "long",
    "Springa",
    "Springa Felix drei",
    "N f3",
    "S f3",
    "reihe Eva",
    "linie 5",
    "feld e9",
    "angriff",
    "züge Springer",
    "weiße figuren",
    "wo ist der weiße König",
    "d5",
    "Springer Felix vier",
    "Elefant f3",
    "e9",
    "O-O-O",
    "Kxe8",
    "a1a1",
    "",
    "   ",
    "remis",
    "remis annehmen",
    "remis ablehnen",
    "annehmen",
    "ablehnen",
    "draw",
    "accept",
    "decline",
    "reklamieren",
    "claim",
    "aufgeben",
    "resign",
    "ja",
    "nein",
    "yes",
    "no",
    "ende",
    "quit",
    "neu",
    "new",
    "speichern",
    "brett",
    "wer",
    "uhr",
    "letzter",
    "liste",
    "züge",
    "feld e4",
    "figuren weiß",
    "material",
    "hilfe",
    "wiederholen",
    "stumm",
    "laut",
    "Dame",
    "reihe 4",
    "linie e",
    "diagonale e4",
    "angriff e4",
    "angriff",
    "still",
    "schneller",
    "langsamer",
    "stellung 1",
    "stellung 2 weiß",
    "stellung 0",
    "stellung 40",
    "stellung",
    "position 1 white",
    "vor",
    "vorher",
    "next",
    "previous",
    "aktuell",
    "current",
    "eröffnung",
    "opening",
    "zurücknehmen",
    "takeback",
    "abbrechen",
    "abort",
    "revanche",
    "rematch",
    "geschlagen",
    "captured",
    "drohungen",
    "threats",
    "züge e7",
    "züge e2",
    "bewertung",
    "tipp",
    "eval",
    "hint",
    "schlagzüge",
    "schlagzüge e4",
    "captures d5",
    "gegner",
    "opponent",
    // The walk's words: outside a walk they are answered and change nothing.
    "analyse",
    "fehler",
    "mistakes",
    "besser",
    "better",
    "zurück",
    "back",
];

fn arbiter_step() -> impl Strategy<Value = ArbiterStep> {
    prop_oneof![
        Just(ArbiterStep::Pause),
        Just(ArbiterStep::Unpause),
        (any::<bool>(), 0u32..400_000).prop_map(|(c, ms)| ArbiterStep::SetTime(c, ms)),
        (any::<bool>(), 0u32..120_000).prop_map(|(c, ms)| ArbiterStep::AddTime(c, ms)),
        (any::<bool>(), 0u32..120_000).prop_map(|(c, ms)| ArbiterStep::RemoveTime(c, ms)),
        (any::<bool>(), 0u8..60).prop_map(|(c, n)| ArbiterStep::SetMoves(c, n)),
        any::<bool>().prop_map(ArbiterStep::Penalize),
        any::<bool>().prop_map(ArbiterStep::IllegalMove),
        (any::<bool>(), proptest::option::of(any::<u16>()))
            .prop_map(|(c, n)| ArbiterStep::ClaimFor(c, n)),
        Just(ArbiterStep::AgreeDraw),
        (0u8..3).prop_map(ArbiterStep::Decide),
        (0u8..4).prop_map(ArbiterStep::TakeBack),
        any::<u16>().prop_map(ArbiterStep::Adjourn),
        Just(ArbiterStep::OpenEnvelope),
        Just(ArbiterStep::Note),
    ]
}

fn step(arbiter: bool) -> BoxedStrategy<Step> {
    let common = prop_oneof![
        12 => (any::<u16>(), 0u8..5).prop_map(|(n, form)| Step::Move { n, form }),
        8 => proptest::sample::select(TEXTS).prop_map(Step::Text),
        1 => (any::<u16>(), 0u8..5).prop_map(|(n, form)| Step::ClaimWith { n, form }),
        4 => prop_oneof![0u32..3_000, 0u32..400_000].prop_map(Step::Wait),
        3 => any::<u16>().prop_map(Step::Engine),
        1 => any::<bool>().prop_map(Step::EngineFailed),
        1 => Just(Step::EngineRestarted),
        2 => any::<u16>().prop_map(Step::BoardMove),
        2 => any::<u16>().prop_map(Step::OpponentMove),
        1 => any::<u8>().prop_map(Step::BoardTouch),
        1 => Just(Step::Resume),
        1 => Just(Step::Ready),
        1 => any::<u8>().prop_map(Step::Select),
        1 => Just(Step::PutDown),
        2 => any::<u16>().prop_map(Step::SelectMove),
        1 => (any::<bool>(), 0u8..2, any::<u16>())
            .prop_map(|(hint, behind, n)| Step::Advice { hint, behind, n }),
        3 => (any::<u16>(), 0u8..5).prop_map(|(n, form)| Step::Premove { n, form }),
        2 => (0u8..7, any::<u8>()).prop_map(|(k, sq)| Step::Key(k, sq)),
    ];
    if arbiter {
        prop_oneof![6 => common, 2 => arbiter_step().prop_map(Step::Arbiter)].boxed()
    } else {
        common.boxed()
    }
}

/// The game's set-ups as `hector play` records them: the opponent (a second player, the
/// computer, an e-board), the player's colour, the player's own board or none, a clock
/// (blitz or not) or none; take-back and hints on or off.
fn record(kind: u8, black: bool, clock: bool, blitz: bool) -> PlayRecord {
    PlayRecord {
        local: if black { Color::Black } else { Color::White },
        opponent: match kind % 3 {
            0 => RecordedOpponent::Keyboard,
            1 => RecordedOpponent::Engine(None),
            _ => RecordedOpponent::Board {
                protocol: "dgt".into(),
                port: "/dev/ttyUSB0".into(),
            },
        },
        level: 1 + kind % 8,
        // Short enough that flags fall within a sequence.
        control: clock.then(|| {
            if blitz { "180+2" } else { "660+2" }
                .parse()
                .expect("time control")
        }),
        announce: blitz,
        takeback: kind % 4 != 3,
        hints: kind % 5 != 4,
        board: (kind / 3 % 2 == 1).then(|| ("peg".into(), "/dev/ttyACM0".into())),
        form: Form::Short,
        language: "de".into(),
        words: (kind % 2 == 1).then_some(crate::notation::language::WordSet::Fide),
    }
}

/// What the player's configuration adds to the record's set-up (the same on every resume):
/// opening names always said, check words off in the games with a clock.
#[derive(Clone, Copy)]
struct Config {
    openings: bool,
    wording: crate::notation::wording::Wording,
    say_captured: bool,
}

/// The names the journal's header gives the player and the opponent.
const PLAYER: &str = "Anna";
const OPPONENT: &str = "Gegner";
const CREATED: &str = "2026-11-23T12:00:00Z";

/// The session set up from a record, as `hector play` (and `hector resume`) does.
fn session(
    record: &PlayRecord,
    game: Game,
    config: Config,
    play: bool,
    now: Timestamp,
) -> (Match, Vec<Effect>) {
    let port = match &record.opponent {
        RecordedOpponent::Board { port, .. } => Some(port.clone()),
        _ => None,
    };
    let setup = record.setup(
        record.opponent.side(),
        port,
        config.openings,
        config.wording,
    );
    // A resume announces with the words the journal recorded, as the mode does.
    let lang = language(&record.language)
        .expect("language")
        .with_words(record.words.unwrap_or_default());
    let (mut m, effects) = Match::new(setup, game, lang, now);
    m.set_extras(extras(record, config, play));
    m.set_advice(record.hints);
    // hector play keeps a move typed on the opponent's turn as a premove.
    m.set_premoves(play);
    (m, effects)
}

/// hector play offers the players' agreements; the assistant and the arbiter do not.
fn extras(record: &PlayRecord, config: Config, play: bool) -> PlayExtras {
    if play {
        PlayExtras {
            takeback: record.takeback,
            agreements: true,
            say_captured: config.say_captured,
        }
    } else {
        PlayExtras::default()
    }
}

fn legal(m: &Match, n: u16) -> Option<Move> {
    let moves = m.game().legal_moves();
    (!moves.is_empty()).then(|| moves[usize::from(n) % moves.len()])
}

/// A move in one of the forms a player types or says.
fn typed(m: &Match, mv: Move, form: u8) -> String {
    typed_in(m, m.game().position(), mv, form)
}

/// The `n`th move the local player could make were it their turn, as typed in `form`.
fn premove(m: &Match, n: u16, form: u8) -> Option<String> {
    let pos = m.game().position();
    let turned;
    let pos = if pos.turn() == m.setup().local {
        pos
    } else {
        turned = crate::matchplay::dangers::turned(pos)?;
        &turned
    };
    let moves = pos.legal_moves();
    let mv = *moves.get(usize::from(n) % moves.len().max(1))?;
    Some(typed_in(m, pos, mv, form))
}

/// A move in `pos` in one of the forms a player types or says.
fn typed_in(m: &Match, pos: &Chess, mv: Move, form: u8) -> String {
    let san = shakmaty::san::SanPlus::from_move(pos.clone(), mv).to_string();
    match form {
        0 => san,
        1 => shakmaty::uci::UciMove::from_move(mv, m.game().variant().castling_mode()).to_string(),
        // German piece letters.
        2 => san
            .chars()
            .map(|c| match c {
                'N' => 'S',
                'B' => 'L',
                'R' => 'T',
                'Q' => 'D',
                other => other,
            })
            .collect(),
        3 => crate::notation::speak::announce(pos, mv, m.lang(), Form::Short),
        _ => crate::notation::speak::announce(pos, mv, m.lang(), Form::Long),
    }
}

/// A session with the journal it has written, as a mode keeps them: only its bytes.
struct Run {
    m: Match,
    written: Written,
    now: Timestamp,
    /// The envelope of an adjournment, as the assistant's table writes it (TOML).
    envelope: Option<String>,
    /// The clock waits for the opening words, and the players' agreements are offered
    /// (hector play); else the assistant's and the arbiter's session.
    play: bool,
    config: Config,
    /// The engine was given up in this sitting: a person plays its side until the next
    /// start, which tries the engine again.
    engine_gone: bool,
}

impl Run {
    fn new(record: &PlayRecord, play: bool, config: Config) -> Run {
        let game = Game::default();
        let header = record.header(&game, CREATED, PLAYER, OPPONENT);
        let (mut m, effects) = session(record, game, config, play, Timestamp::ZERO);
        // As hector play does: the clock waits for the opening words.
        if play {
            m.hold_clock(Timestamp::ZERO);
        }
        let mut run = Run {
            m,
            written: Written::new(&header, &record.settings()),
            now: Timestamp::ZERO,
            envelope: None,
            play,
            config,
            engine_gone: false,
        };
        run.apply(effects);
        run
    }

    fn apply(&mut self, effects: Vec<Effect>) {
        for e in effects {
            match e {
                Effect::Record(r) => {
                    let entries = r.entries(self.m.game());
                    assert!(!entries.is_empty(), "{r:?} gave no entry");
                    for e in &entries {
                        self.written.append(e);
                    }
                    // As the modes' recorder does: the clock's standing with a pause.
                    if r.needs_checkpoint() {
                        self.checkpoint();
                    }
                }
                Effect::EngineGone => self.engine_gone = true,
                Effect::NewGame => return self.next_game(false),
                Effect::Rematch => return self.next_game(true),
                _ => {}
            }
        }
    }

    /// `neu` or `revanche`, as hector play starts the next game: a new journal with the
    /// header and settings the core derives from this one, the same set-up (swapped for a
    /// rematch) from the start position.
    fn next_game(&mut self, rematch: bool) {
        let before = self.written.read();
        let (header, entries) = next_game(&before.header, &before.entries, CREATED, rematch);
        let setup = if rematch {
            self.m.setup().swapped()
        } else {
            self.m.setup().clone()
        };
        let g = self.m.game();
        let game = Game::from_position(g.start().clone(), g.variant());
        let (extras, hints, lang) = (self.m.extras(), self.m.advice_on(), self.m.lang());
        let (mut m, effects) = Match::new(setup, game, lang, self.now);
        m.set_extras(extras);
        m.set_advice(hints);
        m.set_premoves(self.play);
        self.m = m;
        self.written = Written::new(&header, &entries);
        self.envelope = None;
        self.apply(effects);
    }

    /// The clock as the recorder writes it on leaving.
    fn checkpoint(&mut self) {
        if let Some(c) = self.m.clock() {
            self.written.append(&Entry::clock_checkpoint(c, self.now));
        }
    }

    fn step(&mut self, s: &Step) {
        let now = self.now;
        let effects = match s {
            Step::Move { n, form } => match legal(&self.m, *n) {
                Some(mv) => {
                    let text = typed(&self.m, mv, *form);
                    self.m.handle(Event::Line(text), now)
                }
                None => self.m.handle(Event::Line("e4".into()), now),
            },
            Step::Text(t) => self.m.handle(Event::Line((*t).to_string()), now),
            Step::ClaimWith { n, form } => match legal(&self.m, *n) {
                Some(mv) => {
                    let text = format!("reklamieren {}", typed(&self.m, mv, *form));
                    self.m.handle(Event::Line(text), now)
                }
                None => self.m.handle(Event::Line("reklamieren".into()), now),
            },
            Step::Wait(ms) => {
                self.now = now + Duration::from_millis(u64::from(*ms));
                self.m.handle(Event::Tick, self.now)
            }
            Step::Engine(n) => match legal(&self.m, *n) {
                Some(mv) => self.m.handle(Event::EngineMove(mv), now),
                None => Vec::new(),
            },
            Step::EngineFailed(rejected) if *rejected => self.m.handle(
                Event::EngineRejected {
                    reason: "illegal".into(),
                },
                now,
            ),
            Step::EngineFailed(_) => self.m.handle(
                Event::EngineFailed {
                    reason: "crashed".into(),
                },
                now,
            ),
            Step::BoardMove(n) => match legal(&self.m, *n) {
                Some(mv) => self
                    .m
                    .handle(Event::LocalBoard(Recognition::Moved(mv)), now),
                None => Vec::new(),
            },
            Step::OpponentMove(n) => match legal(&self.m, *n) {
                Some(mv) => self
                    .m
                    .handle(Event::OpponentBoard(Recognition::Moved(mv)), now),
                None => Vec::new(),
            },
            Step::BoardTouch(sq) => {
                let square = Square::new(u32::from(*sq) % 64);
                match self.m.game().position().board().piece_at(square) {
                    Some(piece) => self.m.handle(
                        Event::LocalBoard(Recognition::Touched { square, piece }),
                        now,
                    ),
                    None => self.m.touch(
                        square,
                        Piece {
                            color: Color::White,
                            role: Role::Pawn,
                        },
                        true,
                    ),
                }
            }
            Step::Arbiter(a) => self.arbiter(a),
            Step::Resume => {
                self.resume();
                return;
            }
            Step::Ready => self.m.handle(Event::Ready, now),
            Step::EngineRestarted => self.m.handle(Event::EngineRestarted, now),
            Step::Select(sq) => {
                let square = Square::new(u32::from(*sq) % 64);
                self.m.handle(Event::Command(Command::Select(square)), now)
            }
            Step::PutDown => self.m.handle(Event::Command(Command::PutDown), now),
            Step::SelectMove(n) => match legal(&self.m, *n) {
                Some(mv) => {
                    let mut effects = Vec::new();
                    for square in [mv.from(), Some(mv.to())].into_iter().flatten() {
                        effects.extend(self.m.handle(Event::Command(Command::Select(square)), now));
                    }
                    effects
                }
                None => Vec::new(),
            },
            Step::Advice { hint, behind, n } => {
                let kind = if *hint {
                    super::super::AdviceKind::Hint
                } else {
                    super::super::AdviceKind::Eval
                };
                let ply = self.m.game().ply().saturating_sub(usize::from(*behind));
                let best = legal(&self.m, *n);
                let eval = crate::analysis::Eval::Centipawns(i32::from(*n) - 30_000);
                self.m.handle(
                    Event::EngineAdvice {
                        kind,
                        ply,
                        eval,
                        best,
                    },
                    now,
                )
            }
            Step::Premove { n, form } => match premove(&self.m, *n, *form) {
                Some(text) => self.m.handle(Event::Line(text), now),
                None => Vec::new(),
            },
            Step::Key(k, sq) => {
                let square = Square::new(u32::from(*sq) % 64);
                let command = match k {
                    0 => Command::Ask(Question::Moves(Some(square))),
                    1 => Command::Ask(Question::Captures(Some(square))),
                    2 => Command::Opponent,
                    3 => Command::Eval,
                    4 => Command::Hint,
                    5 => Command::ReviewPrevious,
                    _ => Command::ReviewNext,
                };
                self.m.handle(Event::Command(command), now)
            }
        };
        self.apply(effects);
    }

    fn arbiter(&mut self, a: &ArbiterStep) -> Vec<Effect> {
        let now = self.now;
        let color = |white: bool| if white { Color::White } else { Color::Black };
        let ms = |ms: u32| Duration::from_millis(u64::from(ms));
        match a {
            ArbiterStep::Pause => self.m.pause_clock(now),
            ArbiterStep::Unpause => self.m.resume_clock(now),
            ArbiterStep::SetTime(c, t) => {
                self.m.change_time(color(*c), TimeChange::Set(ms(*t)), now)
            }
            ArbiterStep::AddTime(c, t) => {
                self.m.change_time(color(*c), TimeChange::Add(ms(*t)), now)
            }
            ArbiterStep::RemoveTime(c, t) => {
                self.m
                    .change_time(color(*c), TimeChange::Remove(ms(*t)), now)
            }
            ArbiterStep::SetMoves(c, n) => self.m.set_move_count(color(*c), u32::from(*n), now),
            ArbiterStep::Penalize(c) => self.m.penalize(color(*c), now),
            ArbiterStep::IllegalMove(c) => self.m.declare_illegal_move(color(*c), now),
            ArbiterStep::ClaimFor(c, n) => {
                let intended = n
                    .and_then(|n| legal(&self.m, n))
                    .map(|mv| typed(&self.m, mv, 0));
                self.m.claim_for(color(*c), intended, now)
            }
            ArbiterStep::AgreeDraw => self.m.agree_draw(now),
            ArbiterStep::Decide(r) => {
                let result = match r {
                    0 => GameResult::WhiteWins,
                    1 => GameResult::BlackWins,
                    _ => GameResult::Draw,
                };
                self.m.decide_result(result, now)
            }
            ArbiterStep::TakeBack(n) => {
                let plies = self.m.game().ply().saturating_sub(usize::from(*n));
                self.m.take_back_to(plies, now)
            }
            ArbiterStep::Adjourn(n) => match legal(&self.m, *n) {
                Some(mv) if !self.m.is_adjourned() => {
                    // Sealed in the position before the seal, as the table writes it.
                    let envelope = Envelope::seal(self.m.game(), self.m.clock(), mv, now);
                    match self.m.adjourn(mv, now) {
                        Ok(effects) => {
                            self.envelope = Some(envelope.to_toml());
                            effects
                        }
                        Err(_) => Vec::new(),
                    }
                }
                _ => Vec::new(),
            },
            ArbiterStep::OpenEnvelope => self.m.open_envelope(now),
            ArbiterStep::Note => self.m.note("Notiz"),
        }
    }

    /// Leaves and continues from the journal alone, as `hector resume` does: the set-up
    /// from the header and the settings, the game and the clock from the entries, a sealed
    /// move from the envelope. Nothing is taken from the session that wrote them.
    fn resume(&mut self) {
        if !self.m.game().is_over() {
            self.checkpoint();
        }
        let read = self.written.read_whole();
        let (m, effects) = resumed(&self.journal(&read), self.config, self.play, self.now);
        // A question lapses when the player leaves: the game goes on asking none.
        prop_assert_none(m.question());
        self.m = m;
        self.engine_gone = false;
        self.apply(effects);
    }

    /// The journal as read back from its bytes.
    fn journal<'a>(&'a self, read: &'a Decoded) -> Journal<'a> {
        Journal {
            header: &read.header,
            entries: &read.entries,
            envelope: self.envelope.as_deref(),
        }
    }

    /// The journal so far, decoded from its bytes, replays to the session's game, and its
    /// set-up is the session's.
    fn check(&self, history: &[Step]) -> Result<(), TestCaseError> {
        let history = format!("{history:?}");
        let read = self.written.read();
        same_state(&self.journal(&read), &self.m, self.now, &history)?;
        self.same_setup(&read, &history)
    }

    /// What a resume reads from the header and the settings is the session's set-up: the
    /// player's colour and the names, who plays each side, the clock, the level, the
    /// wording, take-back and hints.
    fn same_setup(&self, read: &Decoded, history: &str) -> Result<(), TestCaseError> {
        let header = &read.header;
        let context = || format!("steps: {history}\nheader: {header:#?}");
        let replayed =
            replay(header, &read.entries).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let record = PlayRecord::read(header, &replayed.settings)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let port = match &record.opponent {
            RecordedOpponent::Board { port, .. } => Some(port.clone()),
            _ => None,
        };
        let mut expected = record.setup(
            record.opponent.side(),
            port,
            self.config.openings,
            self.config.wording,
        );
        let s = self.m.setup();
        // A computer given up in this sitting is a person's until the next start.
        if self.engine_gone {
            for side in [&mut expected.white, &mut expected.black] {
                if *side == Side::Engine {
                    *side = Side::Keyboard;
                }
            }
        }
        prop_assert_eq!(record.local, s.local, "the player's colour\n{}", context());
        let (white, black) = s.local.fold_wb((PLAYER, OPPONENT), (OPPONENT, PLAYER));
        prop_assert_eq!(
            (header.white.as_str(), header.black.as_str()),
            (white, black),
            "the names\n{}",
            context()
        );
        prop_assert_eq!(
            (expected.white, expected.black),
            (s.white, s.black),
            "who plays each side\n{}",
            context()
        );
        prop_assert_eq!(expected.local_board, s.local_board, "board\n{}", context());
        prop_assert_eq!(
            expected.control.as_ref().map(ToString::to_string),
            s.control.as_ref().map(ToString::to_string),
            "time control\n{}",
            context()
        );
        prop_assert_eq!(
            &expected.announce,
            &s.announce,
            "announcements\n{}",
            context()
        );
        prop_assert_eq!(expected.rules, s.rules, "rules\n{}", context());
        prop_assert_eq!(expected.form, s.form, "form\n{}", context());
        prop_assert_eq!(
            expected.engine_level,
            s.engine_level,
            "level\n{}",
            context()
        );
        prop_assert_eq!(
            &expected.opponent_port,
            &s.opponent_port,
            "opponent's board\n{}",
            context()
        );
        prop_assert_eq!(expected.wording, s.wording, "wording\n{}", context());
        prop_assert_eq!(
            &record.language,
            &self.m.lang().code,
            "language\n{}",
            context()
        );
        prop_assert_eq!(
            extras(&record, self.config, self.play),
            self.m.extras(),
            "take-back and agreements\n{}",
            context()
        );
        prop_assert_eq!(record.hints, self.m.advice_on(), "hints\n{}", context());
        prop_assert_eq!(
            record.words.unwrap_or_default(),
            self.m.lang().words,
            "the announcement words\n{}",
            context()
        );
        Ok(())
    }
}

/// A journal's bytes as the modes' recorder writes them (io::journal appends exactly these
/// records): the header's record, then one record per entry, each from the journal's codec.
/// The model tests read the journal back only by decoding them, as `hector resume` does: a
/// resume decodes the whole; the check after every step decodes the records appended since
/// the last check (behind the header's record, as a journal of their own), so that a long
/// sequence is not decoded again at every step.
pub(crate) struct Written {
    bytes: Vec<u8>,
    header_len: usize,
    /// The bytes decoded so far, and what they held.
    read: std::cell::RefCell<(usize, Option<Decoded>)>,
}

impl Written {
    pub(crate) fn new(header: &Header, entries: &[Entry]) -> Written {
        let bytes = encode_header(header).expect("the header encodes");
        let header_len = bytes.len();
        let mut w = Written {
            bytes,
            header_len,
            read: std::cell::RefCell::new((0, None)),
        };
        for e in entries {
            w.append(e);
        }
        w
    }

    pub(crate) fn append(&mut self, entry: &Entry) {
        self.bytes
            .extend(encode_entry(entry).expect("the entry encodes"));
    }

    /// The header and the entries, decoded from the bytes.
    pub(crate) fn read(&self) -> Decoded {
        let mut cache = self.read.borrow_mut();
        let (upto, decoded) = &mut *cache;
        match decoded {
            Some(d) if *upto < self.bytes.len() => {
                let mut part = self.bytes[..self.header_len].to_vec();
                part.extend_from_slice(&self.bytes[*upto..]);
                let more = decode(&part).unwrap_or_else(|e| panic!("the records decode: {e}"));
                d.entries.extend(more.entries);
            }
            Some(_) => {}
            None => *decoded = Some(self.read_whole()),
        }
        *upto = self.bytes.len();
        decoded.clone().expect("decoded")
    }

    /// The whole journal decoded at once, as a resume reads it.
    pub(crate) fn read_whole(&self) -> Decoded {
        decode(&self.bytes).unwrap_or_else(|e| panic!("the journal's bytes decode: {e}"))
    }
}

fn prop_assert_none(question: Option<String>) {
    assert_eq!(question, None, "a resumed game asks nothing");
}

/// A journal as a mode leaves it: the header, the entries, and an adjournment's envelope.
pub(crate) struct Journal<'a> {
    pub(crate) header: &'a Header,
    pub(crate) entries: &'a [Entry],
    pub(crate) envelope: Option<&'a str>,
}

impl Journal<'_> {
    /// The sealed move, as the assistant's resume opens the envelope (E9) against the
    /// replayed game; `None` when the game is not adjourned.
    pub(crate) fn sealed(&self, replayed: &Replayed) -> Result<Option<Move>, TestCaseError> {
        if replayed.adjourned.is_none() {
            return Ok(None);
        }
        let text = self
            .envelope
            .ok_or_else(|| TestCaseError::fail("adjourned without an envelope"))?;
        let envelope = Envelope::from_toml(text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        envelope
            .open(&replayed.game)
            .map(Some)
            .map_err(|e| TestCaseError::fail(e.to_string()))
    }
}

/// The session `hector resume` continues from a journal alone.
fn resumed(
    journal: &Journal<'_>,
    config: Config,
    play: bool,
    now: Timestamp,
) -> (Match, Vec<Effect>) {
    let replayed = replay(journal.header, journal.entries).expect("the journal replays");
    let record = PlayRecord::read(journal.header, &replayed.settings).expect("the set-up reads");
    let (mut m, effects) = session(&record, replayed.game.clone(), config, play, now);
    if let Some(snapshot) = &replayed.clock {
        m.restore_clock(snapshot, replayed.clock_moves(), now);
    }
    if let Some(sealed) = journal.sealed(&replayed).expect("the envelope opens") {
        m.restore_adjournment(sealed);
    }
    if play {
        m.hold_clock(now);
    }
    (m, effects)
}

/// The journal replays to the game of `m` at `now`: position, moves, outcome, pending
/// offer, illegal-move tallies, the game's events, an adjournment and its sealed move (from
/// the envelope), whether there is a clock and its control, the clock of the side that is
/// not running (or both untouched before the record holds a clock), whether it is paused,
/// and the move counters.
pub(crate) fn same_state(
    journal: &Journal<'_>,
    m: &Match,
    now: Timestamp,
    history: &str,
) -> Result<(), TestCaseError> {
    let (header, entries) = (journal.header, journal.entries);
    let r: Replayed = match replay(header, entries) {
        Ok(r) => r,
        Err(e) => {
            return Err(TestCaseError::fail(format!(
                "the journal does not replay: {e}\nsteps: {history}\nentries: {entries:#?}"
            )));
        }
    };
    let g = m.game();
    let fen = |p: &Chess| Fen::from_position(p, EnPassantMode::Legal).to_string();
    let context = || format!("steps: {history}\nentries: {entries:#?}");
    prop_assert_eq!(
        fen(r.game.position()),
        fen(g.position()),
        "position\n{}",
        context()
    );
    prop_assert_eq!(r.game.moves(), g.moves(), "moves\n{}", context());
    prop_assert_eq!(r.outcome(), g.outcome(), "outcome\n{}", context());
    prop_assert_eq!(
        r.game.pending_draw_offer(),
        g.pending_draw_offer(),
        "pending offer\n{}",
        context()
    );
    for c in Color::ALL {
        prop_assert_eq!(
            r.game.illegal_move_count(c),
            g.illegal_move_count(c),
            "illegal moves of {:?}\n{}",
            c,
            context()
        );
    }
    prop_assert_eq!(r.game.events(), g.events(), "events\n{}", context());
    prop_assert_eq!(
        r.adjourned.is_some(),
        m.is_adjourned(),
        "adjourned\n{}",
        context()
    );
    prop_assert_eq!(
        journal.sealed(&r)?,
        m.sealed_move(),
        "the sealed move\n{}",
        context()
    );
    // A clock exists exactly when the header names its control.
    prop_assert_eq!(
        header.time_control.clone(),
        m.setup().control.as_ref().map(ToString::to_string),
        "time control\n{}",
        context()
    );
    prop_assert_eq!(
        header.time_control.is_some(),
        m.clock().is_some(),
        "a clock\n{}",
        context()
    );
    let Some(clock) = m.clock() else {
        prop_assert!(r.clock.is_none(), "a clock in the record\n{}", context());
        return Ok(());
    };
    if g.is_over() {
        return Ok(());
    }
    match &r.clock {
        Some(snapshot) => {
            // The side whose clock stands keeps the time last written for it.
            for c in Color::ALL {
                if clock.running() != Some(c) {
                    prop_assert_eq!(
                        Duration::from_millis(snapshot.times.of(c)),
                        clock.remaining(c, now),
                        "{:?}'s time\n{}",
                        c,
                        context()
                    );
                }
            }
            prop_assert_eq!(snapshot.paused, clock.is_paused(), "paused\n{}", context());
        }
        // Nothing written of the clock yet: nobody's time has been touched but the running
        // side's.
        None => {
            let fresh = crate::clock::Clock::new(
                m.setup().control.clone().expect("a clock has its control"),
            );
            for c in Color::ALL {
                if clock.running() != Some(c) {
                    prop_assert_eq!(
                        fresh.remaining(c, now),
                        clock.remaining(c, now),
                        "{:?}'s time before any record of the clock\n{}",
                        c,
                        context()
                    );
                }
            }
            prop_assert!(!clock.is_paused(), "paused\n{}", context());
        }
    }
    prop_assert_eq!(
        r.clock_moves(),
        ByColor::new_with(|c| clock.moves_completed(c)),
        "move counters\n{}",
        context()
    );
    Ok(())
}

fn run_sequence(record: &PlayRecord, steps: &[Step], play: bool) -> Result<(), TestCaseError> {
    let clock = record.control.is_some();
    let config = Config {
        openings: true,
        wording: crate::notation::wording::Wording {
            check_words: !clock,
            ..Default::default()
        },
        say_captured: record.announce,
    };
    let mut run = Run::new(record, play, config);
    run.check(&[])?;
    for (i, s) in steps.iter().enumerate() {
        run.step(s);
        run.check(&steps[..=i])?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: crate::testkit::model_cases(1500), ..ProptestConfig::default() })]

    /// `hector play`: the player's commands, the engine and the boards, in every kind of
    /// game, with new games and rematches.
    #[test]
    fn every_played_session_replays_from_its_journal(
        kind in 0u8..12,
        black in any::<bool>(),
        clock in any::<bool>(),
        blitz in any::<bool>(),
        steps in proptest::collection::vec(step(false), 1..60),
    ) {
        run_sequence(&record(kind, black, clock, blitz), &steps, true)?;
    }

    /// The assistant's and the arbiter's sessions: the arbiter's actions as well.
    #[test]
    fn every_arbitrated_session_replays_from_its_journal(
        kind in 0u8..12,
        black in any::<bool>(),
        clock in any::<bool>(),
        blitz in any::<bool>(),
        steps in proptest::collection::vec(step(true), 1..60),
    ) {
        run_sequence(&record(kind, black, clock, blitz), &steps, false)?;
    }
}

/// A game at one keyboard (kind 0), against the computer (1), against an e-board (2); with
/// the player's own board (+3); the player's colour.
fn game(kind: u8, black: bool, clock: bool) -> PlayRecord {
    record(kind, black, clock, false)
}

/// The case the players met: `e4`, `remis`, `e5`, `Sf3` at one keyboard.
#[test]
fn a_draw_offer_answered_by_a_move_replays() {
    let steps = [
        Step::Text("e4"),
        Step::Text("remis"),
        Step::Text("e5"),
        Step::Text("Sf3"),
    ];
    run_sequence(&game(0, false, false), &steps, true).expect("replays");
    run_sequence(&game(0, false, true), &steps, true).expect("replays with a clock");
}

/// A wrong claim stands as an offer (9.1b4), which the next move declines.
#[test]
fn a_wrong_claim_followed_by_moves_replays() {
    let steps = [
        Step::Text("e4"),
        Step::Text("e5"),
        Step::Text("reklamieren"),
        Step::Text("Sf3"),
        Step::Text("Sc6"),
    ];
    run_sequence(&game(0, false, false), &steps, true).expect("replays");
    run_sequence(&game(0, false, true), &steps, true).expect("replays with a clock");
}

/// The case the players met: a game with a second player, `revanche`, three moves, and a
/// resume: the player keeps Black, and the names stay where they were.
#[test]
fn a_rematch_at_one_keyboard_resumes_with_the_players_colour() {
    use Step::{Resume, Text};
    let steps = [
        Text("e4"),
        Text("e5"),
        Text("aufgeben"),
        Text("ja"),
        Text("revanche"),
        Text("e4"),
        Text("c5"),
        Text("Sf3"),
        Resume,
        Text("d6"),
        Text("revanche"),
        Resume,
    ];
    for kind in 0..6 {
        for black in [false, true] {
            for clock in [false, true] {
                run_sequence(&game(kind, black, clock), &steps, true)
                    .unwrap_or_else(|e| panic!("kind {kind}, black {black}, clock {clock}: {e}"));
            }
        }
    }
}

/// Take-back asked and answered at one keyboard (with a standing draw offer and a clock),
/// against the computer (after its reply and while it thinks), then abort and rematch.
#[test]
fn takeback_abort_and_rematch_replay() {
    use Step::{Engine, Resume, Text, Wait};
    let keyboard = [
        Text("e4"),
        Text("d5"),
        Text("exd5"),
        Wait(1_500),
        Text("remis"),
        Text("zurücknehmen"),
        Text(""),
        Text("nein"),
        Text("zurücknehmen"),
        Wait(700),
        Text("ja"),
        Text("geschlagen"),
        Text("drohungen"),
        Text("Sf3"),
        Text("abbrechen"),
        Text("revanche"),
        Resume,
    ];
    run_sequence(&game(0, false, false), &keyboard, true).expect("replays");
    run_sequence(&game(0, true, true), &keyboard, true).expect("replays with a clock");
    let engine = [
        Text("e4"),
        Wait(2_000),
        Engine(0),
        Wait(1_000),
        Text("zurücknehmen"),
        Text("d4"),
        Wait(3_000),
        Text("takeback"),
        Engine(3),
        Text("e4"),
        Engine(1),
        Resume,
        Text("zurücknehmen"),
        Text("aufgeben"),
        Text("ja"),
        Text("revanche"),
        Wait(500),
        Engine(2),
        Text("abbrechen"),
        Resume,
    ];
    run_sequence(&game(1, false, false), &engine, true).expect("replays");
    run_sequence(&record(1, false, true, true), &engine, true).expect("replays with a clock");
}

/// Premoves against the computer and the e-board: kept, played when the reply comes (and
/// recorded then), dropped, cancelled, and left behind by a take-back and by a resume.
#[test]
fn premoves_replay_and_a_resume_leaves_them_behind() {
    use Step::{BoardMove, Engine, Premove, Resume, Text, Wait};
    let engine = [
        Text("e4"),
        Premove { n: 3, form: 3 },
        Wait(800),
        Engine(0),
        Premove { n: 7, form: 0 },
        Text(""),
        Premove { n: 9, form: 1 },
        Resume,
        Engine(2),
        Text("d4"),
        Premove { n: 1, form: 2 },
        Text("zurücknehmen"),
        Engine(5),
        Premove { n: 4, form: 4 },
        Engine(1),
    ];
    run_sequence(&game(1, false, false), &engine, true).expect("replays");
    run_sequence(&game(1, false, true), &engine, true).expect("replays with a clock");
    // The player has Black on a peg board, the computer White.
    let peg = [
        Premove { n: 0, form: 0 },
        Engine(4),
        BoardMove(2),
        Premove { n: 5, form: 3 },
        Engine(3),
        Text("brett"),
    ];
    run_sequence(&game(4, true, true), &peg, true).expect("replays");
    // The sighted opponent's e-board.
    use Step::OpponentMove;
    let e_board = [
        Text("e4"),
        Premove { n: 2, form: 2 },
        OpponentMove(0),
        Premove { n: 6, form: 4 },
        Resume,
        OpponentMove(1),
        Premove { n: 11, form: 1 },
        Text(""),
        OpponentMove(3),
    ];
    run_sequence(&game(2, false, false), &e_board, true).expect("replays");
    run_sequence(&record(2, false, true, true), &e_board, true).expect("replays with a clock");
}
