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

use super::*;
use crate::core::board::Recognition;
use crate::core::notation::language::language;
use crate::core::outcome::GameResult;
use crate::core::record::{Entry, Header, Replayed, replay};

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

/// The game's set-ups: who plays which side, with or without a clock and a board.
fn setup(kind: u8, clock: bool, rules: Rules) -> Setup {
    let (white, black, local, local_board) = match kind % 5 {
        0 => (Side::Keyboard, Side::Keyboard, Color::White, false),
        1 => (Side::Keyboard, Side::Engine, Color::White, false),
        2 => (Side::Engine, Side::Board, Color::Black, true),
        3 => (Side::Board, Side::Keyboard, Color::White, true),
        // The sighted opponent plays Black on an e-board.
        _ => (Side::Keyboard, Side::Board, Color::White, false),
    };
    Setup {
        white,
        black,
        local,
        local_board,
        // Short enough that flags fall within a sequence.
        control: clock.then(|| "180+2".parse().expect("time control")),
        announce: AnnounceSettings::tournament(),
        form: Form::Short,
        rules,
        engine_level: 1,
        opponent_port: None,
        clock_answer: ClockAnswer::Remaining,
        // Opening names are always said; check words are off in the games with a clock.
        openings: true,
        wording: crate::core::notation::wording::Wording {
            check_words: !clock,
            ..Default::default()
        },
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
        turned = crate::core::matchplay::dangers::turned(pos)?;
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
        3 => crate::core::notation::speak::announce(pos, mv, m.lang(), Form::Short),
        _ => crate::core::notation::speak::announce(pos, mv, m.lang(), Form::Long),
    }
}

/// A session with the journal it has written, as a mode keeps them.
struct Run {
    m: Match,
    header: Header,
    entries: Vec<Entry>,
    now: Timestamp,
    /// The move a quit left sealed (an adjourned game continued from its record).
    sealed: Option<Move>,
    /// The clock waits for the opening words (hector play), at the start and on a resume.
    hold: bool,
    /// What the mode offers besides the Laws (hector play: take-back, abort, rematch).
    extras: PlayExtras,
}

impl Run {
    fn with_extras(s: Setup, hold: bool, extras: PlayExtras) -> Run {
        let lang = language("de").expect("de");
        let mut header = Header::new("2026-11-23T12:00:00Z", "Weiß", "Schwarz");
        header.rules = s.rules;
        header.time_control = s.control.as_ref().map(ToString::to_string);
        let (mut m, effects) = Match::new(s, Game::default(), lang, Timestamp::ZERO);
        m.set_extras(extras);
        // As hector play does: bewertung and tipp ask the engine where there is one, and a
        // move typed on the opponent's turn is kept as a premove.
        m.set_advice(true);
        m.set_premoves(hold);
        // As hector play does: the clock waits for the opening words.
        if hold {
            m.hold_clock(Timestamp::ZERO);
        }
        let mut run = Run {
            m,
            header,
            entries: Vec::new(),
            now: Timestamp::ZERO,
            sealed: None,
            hold,
            extras,
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
                    self.entries.extend(entries);
                    // As the modes' recorder does: the clock's standing with a pause.
                    if r.needs_checkpoint() {
                        self.checkpoint();
                    }
                }
                Effect::NewGame => {
                    *self = Run::with_extras(self.m.setup().clone(), self.hold, self.extras);
                    return;
                }
                Effect::Rematch => {
                    *self = Run::with_extras(self.m.setup().swapped(), self.hold, self.extras);
                    return;
                }
                _ => {}
            }
        }
    }

    /// The clock as the recorder writes it on leaving.
    fn checkpoint(&mut self) {
        if let Some(c) = self.m.clock() {
            self.entries.push(Entry::clock_checkpoint(c, self.now));
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
                    super::AdviceKind::Hint
                } else {
                    super::AdviceKind::Eval
                };
                let ply = self.m.game().ply().saturating_sub(usize::from(*behind));
                let best = legal(&self.m, *n);
                let eval = crate::core::analysis::Eval::Centipawns(i32::from(*n) - 30_000);
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
                    0 => Command::Moves(Some(square)),
                    1 => Command::Captures(Some(square)),
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
                Some(mv) if !self.m.is_adjourned() => match self.m.adjourn(mv, now) {
                    Ok(effects) => {
                        self.sealed = Some(mv);
                        effects
                    }
                    Err(_) => Vec::new(),
                },
                _ => Vec::new(),
            },
            ArbiterStep::OpenEnvelope => {
                self.sealed = None;
                self.m.open_envelope(now)
            }
            ArbiterStep::Note => self.m.note("Notiz"),
        }
    }

    /// Leaves and continues from the journal, as `hector resume` does.
    fn resume(&mut self) {
        if !self.m.game().is_over() {
            self.checkpoint();
        }
        let replayed = replay(&self.header, &self.entries).expect("the journal replays");
        let setup = self.m.setup().clone();
        let lang = self.m.lang();
        let (mut m, effects) = Match::start(setup, replayed.game.clone(), lang, self.now);
        m.set_extras(self.extras);
        m.set_advice(true);
        // A premove is not recorded: the game continues without one.
        m.set_premoves(self.hold);
        if let Some(snapshot) = &replayed.clock {
            m.restore_clock(snapshot, replayed.clock_moves(), self.now);
        }
        if replayed.adjourned.is_some()
            && let Some(sealed) = self.sealed
        {
            m.restore_adjournment(sealed);
        }
        if self.hold {
            m.hold_clock(self.now);
        }
        self.m = m;
        self.apply(effects);
    }

    /// The journal so far replays to the session's game.
    fn check(&self, history: &[Step]) -> Result<(), TestCaseError> {
        same_state(
            &self.header,
            &self.entries,
            &self.m,
            self.now,
            &format!("{history:?}"),
        )
    }
}

/// The journal `entries` replays to the game of `m` at `now`: position, moves, outcome,
/// pending offer, illegal-move tallies, the game's events, an adjournment, the clock of the
/// side that is not running, whether it is paused, and the move counters.
pub(crate) fn same_state(
    header: &Header,
    entries: &[Entry],
    m: &Match,
    now: Timestamp,
    history: &str,
) -> Result<(), TestCaseError> {
    {
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
        if let Some(clock) = m.clock()
            && let Some(snapshot) = &r.clock
        {
            // The side whose clock stands keeps the time last written for it.
            for c in Color::ALL {
                if clock.running() != Some(c) && !g.is_over() {
                    prop_assert_eq!(
                        Duration::from_millis(snapshot.times.of(c)),
                        clock.remaining(c, now),
                        "{:?}'s time\n{}",
                        c,
                        context()
                    );
                }
            }
            if !g.is_over() {
                prop_assert_eq!(snapshot.paused, clock.is_paused(), "paused\n{}", context());
                let counts = r.clock_moves();
                prop_assert_eq!(
                    counts,
                    ByColor::new_with(|c| clock.moves_completed(c)),
                    "move counters\n{}",
                    context()
                );
            }
        }
        Ok(())
    }
}

fn run_sequence(
    kind: u8,
    clock: bool,
    blitz: bool,
    steps: &[Step],
    hold: bool,
) -> Result<(), TestCaseError> {
    let rules = if blitz { Rules::BLITZ } else { Rules::STANDARD };
    // hector play offers the players' agreements (with and without take-back, and with the
    // taken pieces said); the assistant and the arbiter do not.
    let extras = if hold {
        PlayExtras {
            takeback: kind != 3 || !clock,
            agreements: true,
            say_captured: blitz,
        }
    } else {
        PlayExtras::default()
    };
    let mut run = Run::with_extras(setup(kind, clock, rules), hold, extras);
    run.check(&[])?;
    for (i, s) in steps.iter().enumerate() {
        run.step(s);
        run.check(&steps[..=i])?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    /// `hector play`: the player's commands, the engine and the boards.
    #[test]
    fn every_played_session_replays_from_its_journal(
        kind in 0u8..5,
        clock in any::<bool>(),
        blitz in any::<bool>(),
        steps in proptest::collection::vec(step(false), 1..60),
    ) {
        run_sequence(kind, clock, blitz, &steps, true)?;
    }

    /// The assistant's and the arbiter's sessions: the arbiter's actions as well.
    #[test]
    fn every_arbitrated_session_replays_from_its_journal(
        kind in 0u8..5,
        clock in any::<bool>(),
        blitz in any::<bool>(),
        steps in proptest::collection::vec(step(true), 1..60),
    ) {
        run_sequence(kind, clock, blitz, &steps, false)?;
    }
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
    run_sequence(0, false, false, &steps, true).expect("replays");
    run_sequence(0, true, false, &steps, true).expect("replays with a clock");
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
    run_sequence(0, false, false, &steps, true).expect("replays");
    run_sequence(0, true, false, &steps, true).expect("replays with a clock");
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
    ];
    run_sequence(0, false, false, &keyboard, true).expect("replays");
    run_sequence(0, true, false, &keyboard, true).expect("replays with a clock");
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
    ];
    run_sequence(1, false, false, &engine, true).expect("replays");
    run_sequence(1, true, true, &engine, true).expect("replays with a clock");
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
    run_sequence(1, false, false, &engine, true).expect("replays");
    run_sequence(1, true, false, &engine, true).expect("replays with a clock");
    // The player has Black on a peg board, the computer White.
    let peg = [
        Premove { n: 0, form: 0 },
        Engine(4),
        BoardMove(2),
        Premove { n: 5, form: 3 },
        Engine(3),
        Text("brett"),
    ];
    run_sequence(2, true, false, &peg, true).expect("replays");
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
    run_sequence(4, false, false, &e_board, true).expect("replays");
    run_sequence(4, true, true, &e_board, true).expect("replays with a clock");
}
