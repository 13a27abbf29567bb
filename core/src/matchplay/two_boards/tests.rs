//! Two boards with virtual time: moves from each board, D2.8 in both branches, the duties of
//! D9 and D10, the arbiter's controls and the adjournment.

use crate::machine::Common;
use std::time::Duration;

use shakmaty::{Chess, Color, Move, Piece, Role, Square, uci::UciMove};

use super::*;
use crate::board::SquareState;
use crate::notation::language::language;
use crate::outcome::{GameResult, Outcome, Termination};
use crate::record::entry::Reconciled;

use crate::testkit::t;

mod model;

fn setup(duty: Duty, tc: Option<&str>) -> TwoBoardSetup {
    TwoBoardSetup {
        blind: Color::Black,
        blind_board: true,
        sighted_board: true,
        control: tc.map(|s| s.parse().expect("tc")),
        form: Form::Short,
        rules: Rules::STANDARD,
        duty,
    }
}

fn start(s: TwoBoardSetup) -> (TwoBoards, Vec<Effect>) {
    TwoBoards::new(s, Game::default(), language("de").expect("de"), t(0))
}

fn said(effects: &[Effect]) -> Vec<String> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Common(Common::Say { lines, .. }) => Some(lines.join(" / ")),
            _ => None,
        })
        .collect()
}

fn recorded(effects: &[Effect]) -> Vec<Recorded> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Record(r) => Some(r.clone()),
            _ => None,
        })
        .collect()
}

fn mv(pos: &Chess, text: &str) -> Move {
    text.parse::<UciMove>()
        .expect("uci")
        .to_move(pos)
        .expect("legal")
}

/// A move as a board's recognizer reports it, from the board's own position.
fn moved(tb: &mut TwoBoards, seat: Seat, text: &str, ms: u64) -> Vec<Effect> {
    let pos = tb.boards[seat.index()].position.clone();
    let m = mv(&pos, text);
    tb.handle(
        Event::Board {
            seat,
            recognition: Recognition::Moved(m),
        },
        t(ms),
    )
}

fn board(tb: &mut TwoBoards, seat: Seat, r: Recognition, ms: u64) -> Vec<Effect> {
    tb.handle(
        Event::Board {
            seat,
            recognition: r,
        },
        t(ms),
    )
}

fn action(tb: &mut TwoBoards, text: &str, ms: u64) -> Vec<Effect> {
    let a = action::parse_action(text).expect("action");
    tb.handle(Event::Action(a), t(ms))
}

#[test]
fn moves_from_both_boards_are_announced_and_carried_out() {
    let (mut tb, effects) = start(setup(Duty::Blind, Some("5400+30")));
    assert_eq!(
        said(&effects),
        vec![
            "hector assistiert Schwarz. Schwarz zieht auf dem Steckbrett. Weiß zieht auf dem \
             elektronischen Brett. 1 Stunde 30 Minuten plus 30 Sekunden pro Zug. Weiß ist am Zug"
        ]
    );
    // White on the e-board: recorded (with the clock pressed) before it is announced.
    let e = moved(&mut tb, Seat::Sighted, "e2e4", 5_000);
    let r = recorded(&e);
    assert!(matches!(
        r[0],
        Recorded::Move {
            by: Color::White,
            clock: Some(_),
            ..
        }
    ));
    assert_eq!(said(&e), vec!["Eva vier"]);
    assert_eq!(tb.clock().and_then(|c| c.running()), Some(Color::Black));
    assert_eq!(tb.board_words(Seat::Blind), "auszuführen: Eva vier");
    assert_eq!(tb.board_words(Seat::Sighted), "stimmt");
    // The blind player carries it out on the peg board.
    let e = moved(&mut tb, Seat::Blind, "e2e4", 8_000);
    assert_eq!(said(&e), vec!["Zug auf dem Brett ausgeführt"]);
    assert!(recorded(&e).is_empty());
    // D9c: the opponent's clock starts only when the blind player's move is complete.
    let e = moved(&mut tb, Seat::Blind, "e7e5", 20_000);
    assert_eq!(said(&e), vec!["Eva fünf"]);
    assert_eq!(tb.clock().and_then(|c| c.running()), Some(Color::White));
    let used = tb.clock().map(|c| c.used(Color::Black, t(20_000)));
    assert_eq!(used, Some(Duration::from_secs(15)));
    // The sighted player carries it out: nothing to say.
    let e = moved(&mut tb, Seat::Sighted, "e7e5", 22_000);
    assert!(said(&e).is_empty() && recorded(&e).is_empty());
    assert!(tb.alerts().is_empty());
    assert_eq!(tb.game().ply(), 2);
}

#[test]
fn d9d_the_clock_on_request_only_with_the_time_used() {
    let (mut tb, _) = start(setup(Duty::Blind, Some("5400")));
    moved(&mut tb, Seat::Sighted, "e2e4", 60_000);
    // Nothing is announced as time passes (no automatic announcements).
    let e = tb.handle(Event::Tick, t(1_800_000));
    assert!(said(&e).is_empty());
    let e = tb.handle(Event::Line("uhr".into()), t(1_860_000));
    assert_eq!(
        said(&e),
        vec![
            "noch kein Zug gespielt. Weiß: 1 Minute verbraucht, 1 Stunde 29 Minuten übrig. \
             Schwarz: 30 Minuten verbraucht, 1 Stunde übrig"
        ]
    );
}

#[test]
fn d2_8_records_disagree_and_the_game_goes_back() {
    let (mut tb, _) = start(setup(Duty::Arbiter, Some("5400")));
    moved(&mut tb, Seat::Sighted, "e2e4", 1_000);
    moved(&mut tb, Seat::Blind, "e2e4", 2_000);
    moved(&mut tb, Seat::Blind, "e7e5", 3_000);
    // The sighted player carries out e6 instead of e5: his record differs.
    let e = moved(&mut tb, Seat::Sighted, "e7e6", 4_000);
    assert_eq!(
        recorded(&e),
        vec![Recorded::Mismatch {
            board: Color::White,
            agreed: Some(1),
            detail: "Eva sechs statt Eva fünf, die Aufzeichnungen stimmen nur bis Zug 1 Weiß \
                     überein"
                .into(),
        }]
    );
    assert_eq!(
        said(&e),
        vec![
            "Achtung, Brett von Weiß: Eva sechs statt Eva fünf, die Aufzeichnungen stimmen nur \
             bis Zug 1 Weiß überein. Zurück dorthin mit: zurück"
        ]
    );
    assert_eq!(
        tb.alerts(),
        vec![(Seat::Sighted, Alert::Records { shared: 1 })]
    );
    // The arbiter confirms: back to 1. e4, clock paused, both boards to show that position.
    let e = action(&mut tb, "zurück", 10_000);
    let r = recorded(&e);
    assert!(r.contains(&Recorded::ClockPaused), "{r:?}");
    assert!(r.iter().any(|x| matches!(x, Recorded::TakenBack(_))));
    assert!(r.contains(&Recorded::Reconciled {
        board: Color::White,
        how: Reconciled::TakenBack
    }));
    let expects = e
        .iter()
        .filter(|x| matches!(x, Effect::Expect { .. }))
        .count();
    assert_eq!(expects, 2);
    assert_eq!(tb.game().ply(), 1);
    assert!(tb.alerts().is_empty());
    let text = said(&e).join(" | ");
    assert!(
        text.contains("Partie zurück auf Zug 1 Weiß. Uhr angehalten"),
        "{text}"
    );
    assert!(
        text.contains("Die Uhren zeigten damals Weiß 1:29:59, Schwarz 1:30:00"),
        "{text}"
    );
    assert_eq!(tb.clock().map(|c| c.is_paused()), Some(true));
    assert_eq!(
        tb.clock().map(|c| c.state()),
        Some(crate::clock::ClockState::Paused(Color::Black))
    );
    // The arbiter sets the clocks and resumes.
    action(&mut tb, "zeit schwarz 1:29:00", 11_000);
    let e = action(&mut tb, "weiter", 12_000);
    assert_eq!(recorded(&e), vec![Recorded::ClockResumed]);
    assert_eq!(tb.clock().and_then(|c| c.running()), Some(Color::Black));
    // Nothing to confirm any more.
    assert_eq!(
        said(&action(&mut tb, "zurück", 13_000)),
        vec!["Keine abweichenden Aufzeichnungen"]
    );
}

#[test]
fn d2_8_records_agree_and_the_board_is_guided_back() {
    let (mut tb, _) = start(setup(Duty::Arbiter, None));
    moved(&mut tb, Seat::Sighted, "e2e4", 1_000);
    moved(&mut tb, Seat::Blind, "e2e4", 2_000);
    moved(&mut tb, Seat::Blind, "e7e5", 3_000);
    moved(&mut tb, Seat::Sighted, "e7e5", 4_000);
    // The peg board settles with a pawn missing on e5 and one extra on d5 (not a move).
    let wrong = vec![
        SquareDiff {
            square: Square::E5,
            expected: Some(Piece::from_char('p').expect("p")),
            found: SquareState::Empty,
        },
        SquareDiff {
            square: Square::D5,
            expected: None,
            found: SquareState::Occupied(None),
        },
    ];
    let e = board(&mut tb, Seat::Blind, Recognition::Mismatch(wrong), 9_000);
    let r = recorded(&e);
    assert!(
        matches!(
            &r[0],
            Recorded::Mismatch { board: Color::Black, agreed: None, detail } if detail.contains("David fünf")
        ),
        "{r:?}"
    );
    assert_eq!(
        said(&e),
        vec![
            "Achtung, Brett von Schwarz: David fünf: hier sollte kein Stein stehen; Eva fünf: \
             schwarzer Bauer fehlt. Bitte berichtigen"
        ]
    );
    // Put right: the recognizer sees the recorded position again.
    let e = board(&mut tb, Seat::Blind, Recognition::Matches, 12_000);
    assert_eq!(
        recorded(&e),
        vec![Recorded::Reconciled {
            board: Color::Black,
            how: Reconciled::Board
        }]
    );
    assert_eq!(said(&e), vec!["Brett von Schwarz stimmt wieder"]);
    assert!(tb.alerts().is_empty());
}

#[test]
fn a_piece_in_the_hand_of_the_player_to_move_is_no_alert() {
    let (mut tb, _) = start(setup(Duty::Arbiter, None));
    let lifted = vec![SquareDiff {
        square: Square::G1,
        expected: Some(Piece::from_char('N').expect("N")),
        found: SquareState::Empty,
    }];
    // White to move lifts a knight on the e-board and holds it.
    let e = board(
        &mut tb,
        Seat::Sighted,
        Recognition::Mismatch(lifted.clone()),
        2_000,
    );
    assert!(said(&e).is_empty() && tb.alerts().is_empty());
    // The same on the board of Black, who is not to move: named.
    let mut black = lifted;
    black[0].square = Square::G8;
    black[0].expected = Some(Piece::from_char('n').expect("n"));
    let e = board(&mut tb, Seat::Blind, Recognition::Mismatch(black), 3_000);
    assert_eq!(said(&e).len(), 1);
}

/// A piece put down on a square no legal move explains, by the player to move: the alert
/// names where it stands and where it is missing, as the board monitor does.
#[test]
fn a_piece_on_a_wrong_square_names_every_square_that_differs() {
    let (mut tb, _) = start(setup(Duty::Arbiter, None));
    moved(&mut tb, Seat::Sighted, "e2e4", 1_000);
    moved(&mut tb, Seat::Blind, "e2e4", 2_000);
    // Black, to move, lifts the knight from g8 and puts it on g6: no move of a knight.
    let wrong = vec![
        SquareDiff {
            square: Square::G8,
            expected: Some(Piece::from_char('n').expect("n")),
            found: SquareState::Empty,
        },
        SquareDiff {
            square: Square::G6,
            expected: None,
            found: SquareState::Occupied(None),
        },
    ];
    let e = board(&mut tb, Seat::Blind, Recognition::Mismatch(wrong), 9_000);
    assert_eq!(
        said(&e),
        vec![
            "Achtung, Brett von Schwarz: Gustav sechs: hier sollte kein Stein stehen; Gustav \
             acht: schwarzer Springer fehlt. Bitte berichtigen"
        ]
    );
    assert_eq!(
        tb.board_words(Seat::Blind),
        "Gustav sechs: hier sollte kein Stein stehen; Gustav acht: schwarzer Springer fehlt"
    );
}

#[test]
fn a_move_the_game_does_not_have_and_taking_it_back() {
    let (mut tb, _) = start(setup(Duty::Arbiter, None));
    // Black's pawn moved on Black's peg board while White is to move: not a move of the game.
    let e = moved(&mut tb, Seat::Blind, "e2e4", 1_000);
    assert_eq!(
        said(&e),
        vec![
            "Achtung, Brett von Schwarz: Eva vier ausgeführt, die Partie hat diesen Zug nicht. Bitte zurücknehmen"
        ]
    );
    assert_eq!(tb.game().ply(), 0);
    let e = board(&mut tb, Seat::Blind, Recognition::TakeBack, 2_000);
    assert!(e.iter().any(|x| matches!(
        x,
        Effect::Expect {
            seat: Seat::Blind,
            ..
        }
    )));
    assert_eq!(said(&e), vec!["Brett von Schwarz stimmt wieder"]);
}

#[test]
fn touched_pieces_of_the_sighted_player_are_reported() {
    let (mut tb, _) = start(setup(Duty::Blind, None));
    let knight = Piece::from_char('N').expect("N");
    let e = board(
        &mut tb,
        Seat::Sighted,
        Recognition::Touched {
            square: Square::G1,
            piece: knight,
        },
        1_000,
    );
    assert_eq!(
        recorded(&e),
        vec![Recorded::Touched {
            by: Color::White,
            square: Square::G1
        }]
    );
    // Every move begins with a touch: nothing is said yet.
    assert!(said(&e).is_empty());
    // White moves another piece: the touched knight is reported (4.3).
    let e = moved(&mut tb, Seat::Sighted, "e2e4", 1_500);
    assert_eq!(
        said(&e),
        vec![
            "Eva vier",
            "Weiß hat Springer auf Gustav eins berührt und nicht gezogen, Artikel 4.3"
        ]
    );
    moved(&mut tb, Seat::Blind, "e2e4", 1_600);
    moved(&mut tb, Seat::Blind, "e7e5", 1_700);
    moved(&mut tb, Seat::Sighted, "e7e5", 1_800);
    // A touch of the piece that is then moved is not said.
    board(
        &mut tb,
        Seat::Sighted,
        Recognition::Touched {
            square: Square::G1,
            piece: knight,
        },
        1_900,
    );
    let e = moved(&mut tb, Seat::Sighted, "g1f3", 2_000);
    assert_eq!(said(&e), vec!["Springer Felix drei"]);
    // The blind player's own touches are recorded, not reported.
    moved(&mut tb, Seat::Blind, "g1f3", 3_000);
    let e = board(
        &mut tb,
        Seat::Blind,
        Recognition::Touched {
            square: Square::G8,
            piece: Piece::from_char('n').expect("n"),
        },
        4_000,
    );
    assert_eq!(recorded(&e).len(), 1);
    assert!(said(&e).is_empty());
}

#[test]
fn d9e_the_win_is_claimed_when_the_opponents_flag_falls() {
    let (mut tb, _) = start(setup(Duty::Blind, Some("60")));
    let e = tb.handle(Event::Tick, t(61_000));
    let text = said(&e).join(" | ");
    assert!(text.contains("Weiß: Zeit abgelaufen"), "{text}");
    assert!(
        text.contains("Sieg für Schwarz reklamiert, Anhang D9e"),
        "{text}"
    );
    assert_eq!(
        tb.game().outcome(),
        Some(Outcome::win(Color::Black, Termination::FlagFall))
    );
    // The blind player's own flag: no claim for the opponent by the assistant.
    let (mut tb, _) = start(setup(Duty::Blind, Some("60")));
    moved(&mut tb, Seat::Sighted, "e2e4", 1_000);
    let e = tb.handle(Event::Tick, t(62_000));
    assert!(!said(&e).join(" ").contains("reklamiert"));
}

#[test]
fn a_side_without_a_board_is_typed_and_the_other_board_named() {
    let mut s = setup(Duty::Blind, None);
    s.sighted_board = false;
    let (mut tb, effects) = start(s);
    assert!(said(&effects)[0].contains("Die Züge von Weiß werden eingetippt"));
    let e = tb.handle(Event::Line("Eva vier".into()), t(1_000));
    assert_eq!(said(&e), vec!["Eva vier"]);
    let e = moved(&mut tb, Seat::Blind, "e2e4", 2_000);
    assert_eq!(said(&e), vec!["Zug auf dem Brett ausgeführt"]);
    // D9a: the blind player's move must be made on the sighted player's board.
    let e = moved(&mut tb, Seat::Blind, "e7e5", 3_000);
    assert_eq!(
        said(&e),
        vec!["Eva fünf", "Auf dem Brett von Weiß ausführen"]
    );
}

#[test]
fn the_arbiters_controls() {
    let (mut tb, _) = start(setup(Duty::Arbiter, Some("5400")));
    let e = action(&mut tb, "pause", 1_000);
    assert_eq!(recorded(&e), vec![Recorded::ClockPaused]);
    assert_eq!(
        said(&action(&mut tb, "pause", 1_500)),
        vec!["Die Uhr ist schon angehalten"]
    );
    action(&mut tb, "weiter", 2_000);
    let e = action(&mut tb, "zeit weiß +2", 3_000);
    assert_eq!(said(&e), vec!["Weiß: noch 1 Stunde 31 Minuten"]);
    let e = action(&mut tb, "zähler schwarz 20", 4_000);
    assert_eq!(
        recorded(&e),
        vec![Recorded::MovesSet {
            color: Color::Black,
            moves: 20
        }]
    );
    let e = action(&mut tb, "strafe weiß", 5_000);
    assert_eq!(
        said(&e),
        vec!["2 Minuten Zeitgutschrift für Schwarz, Artikel 12.9b"]
    );
    // 7.5: the first illegal move costs two minutes, the second the game.
    let e = action(&mut tb, "regelwidrig weiß", 6_000);
    assert_eq!(
        said(&e),
        vec![
            "Regelwidriger Zug von Weiß, Artikel 7.5 / 2 Minuten Zeitgutschrift für Schwarz, Artikel 7.5b / Bitte die Stellung vor dem regelwidrigen Zug wiederherstellen"
        ]
    );
    let e = action(&mut tb, "regelwidrig weiß", 7_000);
    assert_eq!(
        tb.game().outcome(),
        Some(Outcome::win(Color::Black, Termination::IllegalMoves))
    );
    assert!(recorded(&e).iter().any(|r| matches!(r, Recorded::Ended(_))));
    // After the end: refused.
    assert_eq!(
        said(&action(&mut tb, "pause", 8_000)),
        vec!["Die Partie ist beendet"]
    );
}

#[test]
fn claims_draws_and_results_by_the_arbiter() {
    let (mut tb, _) = start(setup(Duty::Arbiter, Some("300")));
    // A wrong claim: 9.5b, the opponent gets time.
    let e = action(&mut tb, "reklamation", 1_000);
    assert!(
        recorded(&e)
            .iter()
            .any(|r| matches!(r, Recorded::Penalty(_)))
    );
    let e = action(&mut tb, "ergebnis 0-1", 2_000);
    assert!(recorded(&e).contains(&Recorded::Ended(Outcome::new(
        GameResult::BlackWins,
        Termination::ArbiterDecision
    ))));
    let (mut tb, _) = start(setup(Duty::Arbiter, None));
    action(&mut tb, "remis", 1_000);
    assert_eq!(
        tb.game().outcome(),
        Some(Outcome::draw(Termination::Agreement))
    );
}

#[test]
fn adjournment_sealed_and_opened() {
    let (mut tb, _) = start(setup(Duty::Blind, Some("5400")));
    moved(&mut tb, Seat::Sighted, "e2e4", 1_000);
    moved(&mut tb, Seat::Blind, "e2e4", 2_000);
    // Black seals; the move is not played, the clock stops.
    let e = tb.handle(
        Event::Line("abgeben Eva fünf; Sonntag 10 Uhr, Saal 2".into()),
        t(61_000),
    );
    assert!(recorded(&e).contains(&Recorded::Adjourned {
        by: Color::Black,
        move_number: 1
    }));
    let envelope = e
        .iter()
        .find_map(|x| match x {
            Effect::Envelope(env) => Some(env.clone()),
            _ => None,
        })
        .expect("envelope");
    assert_eq!(envelope.sealed_san, "e5");
    assert_eq!(envelope.black_used, "0:01:00");
    assert_eq!(envelope.resumption, "Sonntag 10 Uhr, Saal 2");
    assert_eq!(tb.game().ply(), 1);
    assert!(tb.is_adjourned());
    assert_eq!(tb.clock().map(|c| c.is_paused()), Some(true));
    // A move on the board now is not taken.
    let e = moved(&mut tb, Seat::Blind, "e7e5", 62_000);
    assert_eq!(tb.game().ply(), 1);
    assert!(said(&e)[0].starts_with("Achtung"));
    board(&mut tb, Seat::Blind, Recognition::TakeBack, 63_000);
    // E9: opened, the sealed move played, White's clock runs.
    let e = action(&mut tb, "öffnen", 100_000);
    assert_eq!(
        said(&e)[0],
        "Umschlag geöffnet. Abgabezug von Schwarz: Eva fünf"
    );
    assert_eq!(tb.game().ply(), 2);
    assert_eq!(tb.clock().and_then(|c| c.running()), Some(Color::White));
    assert!(recorded(&e).contains(&Recorded::AdjournmentResumed));
    assert_eq!(
        said(&action(&mut tb, "öffnen", 101_000)),
        vec!["Die Partie ist nicht abgebrochen"]
    );
}

#[test]
fn d10_announces_and_carries_out_only() {
    let mut s = setup(Duty::Sighted, None);
    s.blind_board = false;
    let (mut tb, effects) = start(s);
    assert!(said(&effects)[0].starts_with("hector assistiert Weiß, Anhang D10"));
    let e = moved(&mut tb, Seat::Sighted, "e2e4", 1_000);
    assert_eq!(
        said(&e),
        vec!["Eva vier", "Auf dem Brett von Schwarz ausführen"]
    );
    let e = tb.handle(Event::Line("abgeben e5".into()), t(2_000));
    assert_eq!(
        said(&e),
        vec!["Das macht der Assistent des sehbehinderten Spielers, Anhang D9"]
    );
}

#[test]
fn promotions_on_a_peg_board() {
    let fen = "8/P6k/8/8/8/8/6Kp/8 w - - 0 1";
    let pos: Chess = fen
        .parse::<shakmaty::fen::Fen>()
        .expect("fen")
        .into_position(shakmaty::CastlingMode::Standard)
        .expect("position");
    let game = Game::from_position(pos.clone(), crate::variant::Variant::Standard);
    let (mut tb, _) = TwoBoards::new(
        setup(Duty::Blind, None),
        game,
        language("de").expect("de"),
        t(0),
    );
    // White promotes on the e-board (which tells the piece).
    moved(&mut tb, Seat::Sighted, "a7a8n", 1_000);
    // The peg board cannot tell which piece: the game knows it.
    let e = board(
        &mut tb,
        Seat::Blind,
        Recognition::PromotionChoiceNeeded {
            from: Square::A7,
            to: Square::A8,
        },
        2_000,
    );
    assert_eq!(
        e,
        vec![Effect::Promotion {
            seat: Seat::Blind,
            role: Role::Knight
        }]
    );
    moved(&mut tb, Seat::Blind, "a7a8n", 2_100);
    // Black's own promotion: the blind player names the piece.
    let e = board(
        &mut tb,
        Seat::Blind,
        Recognition::PromotionChoiceNeeded {
            from: Square::H2,
            to: Square::H1,
        },
        3_000,
    );
    assert_eq!(said(&e), vec!["Umwandlung in welche Figur?"]);
    let e = tb.handle(Event::Line("Dame".into()), t(4_000));
    assert_eq!(
        e,
        vec![Effect::Promotion {
            seat: Seat::Blind,
            role: Role::Queen
        }]
    );
}

#[test]
fn a_board_that_catches_up_in_one_go() {
    let (mut tb, _) = start(setup(Duty::Arbiter, None));
    moved(&mut tb, Seat::Sighted, "e2e4", 1_000);
    // The blind player carried out e4 and played e5 before the board settled: what the board
    // shows, compared with its record (the start), is both moves at once.
    let diffs = vec![
        SquareDiff {
            square: Square::E2,
            expected: Some(Piece::from_char('P').expect("P")),
            found: SquareState::Empty,
        },
        SquareDiff {
            square: Square::E4,
            expected: None,
            found: SquareState::Occupied(None),
        },
        SquareDiff {
            square: Square::E7,
            expected: Some(Piece::from_char('p').expect("p")),
            found: SquareState::Empty,
        },
        SquareDiff {
            square: Square::E5,
            expected: None,
            found: SquareState::Occupied(None),
        },
    ];
    let e = board(&mut tb, Seat::Blind, Recognition::Mismatch(diffs), 5_000);
    assert_eq!(tb.game().ply(), 2);
    assert!(e.iter().any(|x| matches!(
        x,
        Effect::Expect {
            seat: Seat::Blind,
            ..
        }
    )));
    assert!(said(&e).contains(&"Eva fünf".to_string()), "{:?}", said(&e));
    assert!(tb.alerts().is_empty());
}

#[test]
fn unplugged_boards_are_alerts_until_they_are_back() {
    let (mut tb, _) = start(setup(Duty::Arbiter, None));
    let e = tb.handle(
        Event::Connection {
            seat: Seat::Sighted,
            connected: false,
        },
        t(1_000),
    );
    assert_eq!(said(&e), vec!["Brett von Weiß: getrennt"]);
    assert_eq!(tb.alerts(), vec![(Seat::Sighted, Alert::Disconnected)]);
    let e = tb.handle(
        Event::Connection {
            seat: Seat::Sighted,
            connected: true,
        },
        t(2_000),
    );
    assert_eq!(said(&e), vec!["Brett von Weiß: wieder verbunden"]);
    assert!(tb.alerts().is_empty());
}

#[test]
fn a_board_that_shows_an_earlier_position_is_behind() {
    // A game continued from its record: 1. e4 e5, and the sighted player's board still
    // shows the position after 1. e4.
    let mut game = Game::default();
    game.play_san("e4").expect("e4");
    game.play_san("e5").expect("e5");
    let (mut tb, _) = TwoBoards::new(
        setup(Duty::Arbiter, None),
        game,
        language("de").expect("de"),
        t(0),
    );
    let diffs = vec![
        SquareDiff {
            square: Square::E7,
            expected: None,
            found: SquareState::Occupied(Some(Piece::from_char('p').expect("p"))),
        },
        SquareDiff {
            square: Square::E5,
            expected: Some(Piece::from_char('p').expect("p")),
            found: SquareState::Empty,
        },
    ];
    let e = board(&mut tb, Seat::Sighted, Recognition::Mismatch(diffs), 2_000);
    assert!(e.iter().any(|x| matches!(
        x,
        Effect::Expect {
            seat: Seat::Sighted,
            ..
        }
    )));
    assert!(said(&e).is_empty(), "{:?}", said(&e));
    assert_eq!(tb.board_words(Seat::Sighted), "auszuführen: Eva fünf");
    let e = moved(&mut tb, Seat::Sighted, "e7e5", 3_000);
    assert!(said(&e).is_empty());
    assert_eq!(tb.board_words(Seat::Sighted), "stimmt");
}

/// hector play's take-back, abort and rematch are not the players' here: "zurücknehmen" and
/// "abbrechen" stay the arbiter's words, "revanche" is not offered.
#[test]
fn the_players_agreements_of_hector_play_are_not_offered() {
    let (mut tb, _) = start(setup(Duty::Arbiter, Some("5400")));
    moved(&mut tb, Seat::Sighted, "e2e4", 1_000);
    moved(&mut tb, Seat::Blind, "e2e4", 2_000);
    let typed =
        |tb: &mut TwoBoards, text: &str, ms: u64| tb.handle(Event::Line(text.to_string()), t(ms));
    assert_eq!(
        said(&typed(&mut tb, "zurücknehmen", 3_000)),
        vec!["Keine abweichenden Aufzeichnungen"]
    );
    assert_eq!(
        said(&typed(&mut tb, "revanche", 4_000)),
        vec!["Das gibt es hier nicht"]
    );
    assert_eq!(
        said(&typed(&mut tb, "geschlagen", 5_000)),
        vec!["Geschlagene weiße Figuren: keine. Geschlagene schwarze Figuren: keine"]
    );
    assert_eq!(tb.game().ply(), 1);
}

#[test]
fn analyse_after_the_game_says_how_to_walk_it() {
    let (mut tb, _) = start(TwoBoardSetup {
        blind_board: false,
        sighted_board: false,
        ..setup(Duty::Blind, None)
    });
    let mut e = Vec::new();
    for (i, m) in ["f3", "e5", "g4", "Dh4"].into_iter().enumerate() {
        e = tb.handle(Event::Line(m.into()), t(1_000 * (i as u64 + 1)));
    }
    assert!(said(&e).join(" ").contains("matt"), "{:?}", said(&e));
    let e = tb.handle(Event::Line("analyse".into()), t(5_000));
    assert_eq!(
        said(&e),
        vec![
            "Die Analyse dieser Partie: hector games nennt ihre Nummer, hector analyse NUMMER --walk geht sie durch"
        ]
    );
}
