//! The match logic with virtual time: what is said, recorded and asked for, in which order.

use std::time::Duration;

use shakmaty::{Color, Move, Position, Role, Square, uci::UciMove};

use super::*;
use crate::core::board::SquareDiff;
use crate::core::notation::language::language;
use crate::core::outcome::GameResult;

fn setup(white: Side, black: Side) -> Setup {
    Setup {
        white,
        black,
        local: Color::White,
        local_board: false,
        control: None,
        announce: AnnounceSettings::tournament(),
        form: Form::Short,
        rules: Rules::STANDARD,
        engine_level: 1,
        opponent_port: None,
        clock_answer: ClockAnswer::Remaining,
    }
}

fn t(ms: u64) -> Timestamp {
    Timestamp::from_millis(ms)
}

fn start(s: Setup) -> (Match, Vec<Effect>) {
    Match::new(s, Game::default(), language("de").expect("de"), t(0))
}

fn said(effects: &[Effect]) -> Vec<String> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Say { lines, .. } => Some(lines.join(" / ")),
            _ => None,
        })
        .collect()
}

fn line(m: &mut Match, text: &str, ms: u64) -> Vec<Effect> {
    m.handle(Event::Line(text.to_string()), t(ms))
}

fn uci(m: &Match, text: &str) -> Move {
    text.parse::<UciMove>()
        .expect("uci")
        .to_move(m.game().position())
        .expect("legal")
}

#[test]
fn welcome_names_sides_opponent_and_turn() {
    let (_, effects) = start(setup(Side::Keyboard, Side::Engine));
    assert_eq!(
        said(&effects),
        ["Sie spielen Weiß gegen den Computer, Stufe 1. Weiß ist am Zug"]
    );
    let (_, effects) = start(setup(Side::Engine, Side::Keyboard));
    assert!(
        effects.contains(&Effect::EngineThink),
        "the engine opens with White"
    );
}

#[test]
fn a_typed_move_is_recorded_before_it_is_announced() {
    let (mut m, _) = start(setup(Side::Keyboard, Side::Keyboard));
    let e = line(&mut m, "Springer Felix drei", 10);
    let record = e
        .iter()
        .position(|x| matches!(x, Effect::Record(Recorded::Move { .. })));
    let announce = e.iter().position(|x| {
        matches!(
            x,
            Effect::Say {
                urgency: Urgency::Move,
                ..
            }
        )
    });
    assert!(record.is_some() && record < announce, "{e:?}");
    assert_eq!(said(&e), ["Springer Felix drei"]);
    // The other player at the keyboard answers in English words.
    assert_eq!(
        said(&line(&mut m, "knight felix six", 20)),
        ["Springer Felix sechs"]
    );
    assert_eq!(m.game().ply(), 2);
}

#[test]
fn a_wrong_move_is_explained_and_changes_nothing() {
    let (mut m, _) = start(setup(Side::Keyboard, Side::Keyboard));
    assert_eq!(
        said(&line(&mut m, "Springer Felix vier", 10)),
        ["Kein Springer kann Felix vier erreichen"]
    );
    assert_eq!(
        said(&line(&mut m, "Elefant Felix drei", 10)),
        ["Unbekanntes Wort: Elefant"]
    );
    assert_eq!(m.game().ply(), 0);
}

#[test]
fn the_engine_is_asked_and_its_move_announced() {
    let (mut m, _) = start(setup(Side::Keyboard, Side::Engine));
    let e = line(&mut m, "e4", 10);
    assert!(e.contains(&Effect::EngineThink));
    assert_eq!(said(&line(&mut m, "e5", 20)), ["Der Computer ist am Zug"]);
    let reply = uci(&m, "c7c5");
    let e = m.handle(Event::EngineMove(reply), t(30));
    assert_eq!(said(&e), ["Cäsar fünf"]);
    assert!(!e.contains(&Effect::EngineThink));
}

#[test]
fn a_promotion_asks_for_the_piece() {
    let game = Game::from_position(
        crate::core::variant::position_from_fen(
            "8/4P3/8/8/8/8/k7/4K3 w - - 0 1",
            crate::core::variant::Variant::Standard,
        )
        .expect("fen"),
        crate::core::variant::Variant::Standard,
    );
    let (mut m, _) = Match::new(
        setup(Side::Keyboard, Side::Keyboard),
        game,
        language("de").expect("de"),
        t(0),
    );
    assert_eq!(
        said(&line(&mut m, "Eva acht", 10)),
        ["Umwandlung in welche Figur? Dame, Turm, Läufer oder Springer"]
    );
    assert_eq!(
        said(&line(&mut m, "Turm", 20)),
        ["Eva acht, Umwandlung in Turm"]
    );
    assert_eq!(
        m.game().position().board().role_at(Square::E8),
        Some(Role::Rook)
    );
}

#[test]
fn every_query_gets_an_answer() {
    let (mut m, _) = start(setup(Side::Keyboard, Side::Keyboard));
    line(&mut m, "e4", 10);
    for q in [
        "hilfe",
        "brett",
        "figuren",
        "wo sind die schwarzen Türme",
        "feld e4",
        "reihe 2",
        "linie e",
        "diagonale c1",
        "angriff e4",
        "züge g8",
        "züge",
        "letzter",
        "wer",
        "material",
        "liste",
        "liste 1",
        "uhr",
    ] {
        let e = line(&mut m, q, 20);
        assert!(!said(&e).is_empty(), "{q}: {e:?}");
    }
    assert_eq!(
        said(&line(&mut m, "letzter", 30)),
        ["Letzter Zug: 1. Weiß, Eva vier"]
    );
    assert_eq!(said(&line(&mut m, "uhr", 30)), ["Ohne Uhr gespielt"]);
    assert_eq!(said(&line(&mut m, "feld", 30)), ["Welches Zielfeld?"]);
    assert_eq!(
        line(&mut m, "wiederholen", 30),
        [Effect::Speech(SpeechControl::Repeat)]
    );
}

#[test]
fn draw_offers_between_two_players() {
    let (mut m, _) = start(setup(Side::Keyboard, Side::Keyboard));
    line(&mut m, "e4", 10);
    // White has just moved and offers.
    let e = line(&mut m, "remis", 20);
    assert!(e.contains(&Effect::Record(Recorded::DrawOffered { by: Color::White })));
    assert_eq!(said(&e), ["Weiß bietet Remis an"]);
    let e = line(&mut m, "remis annehmen", 30);
    assert!(e.contains(&Effect::Record(Recorded::DrawAccepted { by: Color::Black })));
    assert_eq!(m.game().result(), Some(GameResult::Draw));
    assert_eq!(said(&e), ["Partie beendet: Remis vereinbart. Remis"]);
}

#[test]
fn the_engine_declines_a_draw() {
    let (mut m, _) = start(setup(Side::Keyboard, Side::Engine));
    let e = line(&mut m, "remis", 10);
    assert_eq!(
        said(&e),
        ["Weiß bietet Remis an", "Der Computer lehnt das Remis ab"]
    );
    assert!(!m.game().is_over());
}

#[test]
fn claims_are_checked_and_an_incorrect_one_costs_time() {
    let mut s = setup(Side::Keyboard, Side::Keyboard);
    s.control = Some("300".parse().expect("control"));
    let (mut m, _) = start(s);
    for (i, mv) in ["Nf3", "Nf6", "Ng1"].iter().enumerate() {
        line(&mut m, mv, 100 * (i as u64 + 1));
    }
    // Black claims too early: two minutes for White (9.5b).
    let e = line(&mut m, "reklamieren", 1000);
    assert!(
        e.iter()
            .any(|x| matches!(x, Effect::Record(Recorded::Penalty(_)))),
        "{e:?}"
    );
    assert_eq!(
        said(&e),
        ["Reklamation nicht berechtigt. Weiß bekommt 2 Minuten dazu"]
    );
    let white = m.clock().map(|c| c.remaining(Color::White, t(1000)));
    assert_eq!(white, Some(Duration::from_millis(300_000 - 200 + 120_000)));
    // With the intended move that repeats the position a third time.
    for mv in ["Ng8", "Nf3", "Nf6", "Ng1"] {
        line(&mut m, mv, 2000);
    }
    let e = line(&mut m, "reklamieren Sg8", 3000);
    assert_eq!(
        said(&e),
        [
            "Reklamation berechtigt: dreifache Stellungswiederholung",
            "Partie beendet: dreifache Stellungswiederholung. Remis"
        ]
    );
}

#[test]
fn resigning_and_quitting_ask_first() {
    let (mut m, _) = start(setup(Side::Keyboard, Side::Engine));
    assert_eq!(
        said(&line(&mut m, "aufgeben", 10)),
        ["Wirklich aufgeben? Zum Bestätigen noch einmal aufgeben eingeben"]
    );
    assert!(!m.game().is_over());
    let e = line(&mut m, "aufgeben", 20);
    assert_eq!(m.game().result(), Some(GameResult::BlackWins));
    assert!(e.contains(&Effect::EngineStop));
    // After the end, quitting needs no confirmation.
    assert!(line(&mut m, "ende", 30).contains(&Effect::Quit));
    let (mut m, _) = start(setup(Side::Keyboard, Side::Engine));
    assert!(!line(&mut m, "ende", 10).contains(&Effect::Quit));
    assert!(line(&mut m, "ende", 20).contains(&Effect::Quit));
}

#[test]
fn the_flag_falls_at_its_instant() {
    let mut s = setup(Side::Keyboard, Side::Keyboard);
    s.control = Some("60".parse().expect("control"));
    let (mut m, _) = start(s);
    assert_eq!(m.next_deadline(t(0)), Some(t(60_000)));
    assert!(said(&m.handle(Event::Tick, t(59_999))).is_empty());
    let e = m.handle(Event::Tick, t(60_000));
    assert_eq!(
        said(&e),
        [
            "Weiß: Zeit abgelaufen",
            "Partie beendet: Zeitüberschreitung. Schwarz gewinnt"
        ]
    );
    assert!(
        e.iter()
            .any(|x| matches!(x, Effect::Record(Recorded::Ended(_))))
    );
    // A move typed after the flag changes nothing.
    assert_eq!(
        said(&line(&mut m, "e4", 60_100)),
        ["Die Partie ist beendet"]
    );
}

#[test]
fn clock_press_times_are_recorded_with_the_move() {
    let mut s = setup(Side::Keyboard, Side::Keyboard);
    s.control = Some("300+2".parse().expect("control"));
    let (mut m, _) = start(s);
    let e = line(&mut m, "e4", 5_000);
    let clock = e.iter().find_map(|x| match x {
        Effect::Record(Recorded::Move { clock, .. }) => *clock,
        _ => None,
    });
    assert_eq!(
        clock,
        Some((Duration::from_secs(297), Duration::from_secs(300)))
    );
}

#[test]
fn the_local_board_moves_and_is_guided_for_the_opponents_move() {
    let mut s = setup(Side::Board, Side::Engine);
    s.local_board = true;
    let (mut m, _) = start(s);
    let e4 = uci(&m, "e2e4");
    let e = m.handle(Event::LocalBoard(Recognition::Moved(e4)), t(10));
    assert!(
        !e.iter().any(|x| matches!(x, Effect::BoardExpect { .. })),
        "the board already shows it"
    );
    assert!(e.contains(&Effect::EngineThink));
    let c5 = uci(&m, "c7c5");
    let e = m.handle(Event::EngineMove(c5), t(20));
    assert!(
        e.iter().any(|x| matches!(x, Effect::BoardExpect { .. })),
        "{e:?}"
    );
    // The player has not yet made Black's move on the peg board.
    let diff = SquareDiff {
        square: Square::C7,
        expected: None,
        found: crate::core::board::SquareState::Occupied(None),
    };
    let e = m.handle(
        Event::LocalBoard(Recognition::Mismatch(vec![diff])),
        t(2000),
    );
    let text = said(&e).join(" ");
    assert!(
        text.contains("Bitte auf dem Brett ausführen: Cäsar fünf"),
        "{text}"
    );
    assert_eq!(
        said(&m.handle(Event::LocalBoard(Recognition::Matches), t(3000))),
        ["Zug auf dem Brett ausgeführt"]
    );
}

#[test]
fn a_failed_engine_hands_its_side_to_the_keyboard() {
    let (mut m, _) = start(setup(Side::Keyboard, Side::Engine));
    line(&mut m, "e4", 10);
    let e = m.handle(
        Event::EngineFailed {
            reason: "exited".into(),
            gone: true,
        },
        t(20),
    );
    assert_eq!(
        said(&e),
        [
            "exited",
            "Der Computer fällt aus. Bitte die Züge für Schwarz eintippen"
        ]
    );
    assert_eq!(said(&line(&mut m, "e5", 30)), ["Eva fünf"]);
}

#[test]
fn the_opponents_e_board_is_told_to_wait_for_the_local_players_move() {
    // The blind player types White's moves; the sighted opponent plays Black on an e-board
    // and carries out White's moves there too.
    let (mut m, _) = start(setup(Side::Keyboard, Side::Board));
    let e = line(&mut m, "Eva vier", 10);
    let expect = e.iter().find_map(|x| match x {
        Effect::BoardExpect {
            board,
            position,
            previous,
        } => Some((*board, position.clone(), previous.clone())),
        _ => None,
    });
    let (board, position, previous) = expect.expect("the e-board is told");
    assert_eq!(board, BoardOf::Opponent);
    assert_eq!(position.turn(), Color::Black);
    assert_eq!(previous.map(|p| p.turn()), Some(Color::White));
    // The opponent's own move from his board is the game's next move; no expectation follows.
    let e5 = uci(&m, "e7e5");
    let e = m.handle(Event::OpponentBoard(Recognition::Moved(e5)), t(20));
    assert!(said(&e).iter().any(|s| s.contains("Eva fünf")), "{e:?}");
    assert!(
        !e.iter().any(|x| matches!(x, Effect::BoardExpect { .. })),
        "{e:?}"
    );
}
