use super::*;
use crate::machine::Common;
use crate::notation::language::language;
use wire::{GameLine, game_line};

use crate::testkit::de;

fn full(moves: &str) -> GameFull {
    let text = format!(
        r#"{{"type":"gameFull","id":"abcd1234","variant":{{"key":"standard"}},"clock":{{"initial":900000,"increment":10000}},"rated":false,"white":{{"id":"blind","name":"Blind"}},"black":{{"id":"anna","name":"Anna"}},"initialFen":"startpos","state":{{"type":"gameState","moves":"{moves}","wtime":900000,"btime":900000,"winc":10000,"binc":10000,"status":"started"}}}}"#
    );
    match game_line(&text) {
        Ok(Some(GameLine::Full(f))) => *f,
        other => panic!("test line not read: {other:?}"),
    }
}

fn state(moves: &str, extra: &str) -> GameLine {
    let text = format!(
        r#"{{"type":"gameState","moves":"{moves}","wtime":800000,"btime":700000,"winc":10000,"binc":10000,"status":"started"{extra}}}"#
    );
    match game_line(&text) {
        Ok(Some(line)) => line,
        other => panic!("test line not read: {other:?}"),
    }
}

const OPTIONS: Options = Options {
    form: Form::Short,
    local_board: false,
    announce: crate::clock::AnnounceSettings {
        every: None,
        thresholds: Vec::new(),
        countdown: false,
        period_start: false,
    },
};

fn said(out: &[Effect]) -> Vec<String> {
    out.iter()
        .filter_map(|o| match o {
            Effect::Match(MatchEffect::Common(Common::Say { lines, .. })) => Some(lines.join(" ")),
            _ => None,
        })
        .collect()
}

fn sent(out: &[Effect]) -> Vec<Action> {
    out.iter()
        .filter_map(|o| match o {
            Effect::Send(a) => Some(a.clone()),
            _ => None,
        })
        .collect()
}

fn recorded_moves(out: &[Effect]) -> usize {
    out.iter()
        .filter(|o| matches!(o, Effect::Match(MatchEffect::Record(Recorded::Move { .. }))))
        .count()
}

fn start(moves: &str) -> (Online, Vec<Effect>) {
    Online::new(&full(moves), "Blind", OPTIONS, de(), Timestamp::ZERO).expect("the game starts")
}

#[test]
fn a_typed_move_is_sent_and_played_only_when_the_stream_confirms_it() {
    let (mut g, out) = start("");
    assert!(said(&out)[0].contains("Sie spielen Weiß gegen Anna auf lichess"));
    let t = Timestamp::from_millis(1000);
    let out = g.handle(Event::Line("Eva vier".into()), t);
    assert_eq!(sent(&out), vec![Action::Move("e2e4".into())]);
    assert_eq!(
        g.game().ply(),
        0,
        "not played before the server confirms it"
    );
    assert_eq!(
        said(&g.handle(Event::Line("David vier".into()), t)),
        vec!["Ihr Zug ist unterwegs zum Server"]
    );
    let out = g.handle(Event::Server(state("e2e4", "")), t);
    assert_eq!(recorded_moves(&out), 1);
    assert_eq!(said(&out), vec!["Eva vier"]);
    let out = g.handle(Event::Server(state("e2e4 e7e5", "")), t);
    assert_eq!(said(&out), vec!["Eva fünf"]);
    assert_eq!(g.game().ply(), 2);
    // The same state again (a reconnect) changes nothing.
    assert!(said(&g.handle(Event::Server(state("e2e4 e7e5", "")), t)).is_empty());
}

#[test]
fn a_refused_move_is_said_and_the_player_moves_again() {
    let (mut g, _) = start("");
    let t = Timestamp::ZERO;
    g.handle(Event::Line("e4".into()), t);
    let out = g.handle(
        Event::Link(Link::Refused {
            action: Action::Move("e2e4".into()),
            reason: "Not your turn".into(),
        }),
        t,
    );
    assert_eq!(
        said(&out),
        vec!["lichess hat den Zug abgelehnt: Not your turn. Sie sind am Zug"]
    );
    assert_eq!(
        sent(&g.handle(Event::Line("d4".into()), t)),
        vec![Action::Move("d2d4".into())]
    );
}

#[test]
fn moves_of_the_opponent_and_wrong_input_are_refused_locally() {
    let (mut g, _) = start("e2e4");
    let t = Timestamp::ZERO;
    // On the opponent's turn a move is the player's premove, sent only after the reply.
    let out = g.handle(Event::Line("e5".into()), t);
    assert!(sent(&out).is_empty());
    assert_eq!(said(&out), vec!["Vorauszug gemerkt: Eva fünf"]);
    let out = g.handle(Event::Line("Sf6".into()), t);
    assert!(sent(&out).is_empty());
    assert_eq!(said(&out), vec!["Kein Springer kann Felix sechs erreichen"]);
    let (mut g, _) = start("");
    let out = g.handle(Event::Line("Springer Felix vier".into()), t);
    assert!(sent(&out).is_empty());
    assert!(
        out.iter()
            .any(|o| matches!(o, Effect::Match(MatchEffect::Common(Common::Refused))))
    );
}

#[test]
fn a_continued_game_is_recorded_without_reading_every_move() {
    let (g, out) = start("e2e4 e7e5 g1f3");
    assert_eq!(recorded_moves(&out), 3);
    let words = said(&out);
    assert_eq!(words.len(), 2, "{words:?}");
    assert_eq!(words[1], "Schwarz ist am Zug");
    assert_eq!(g.game().ply(), 3);
}

#[test]
fn a_move_made_while_the_stream_was_down_is_announced() {
    let (mut g, _) = start("e2e4");
    let t = Timestamp::ZERO;
    assert_eq!(
        said(&g.handle(Event::Link(Link::Dropped), t)),
        vec!["Verbindung zu lichess unterbrochen. Ich verbinde neu"]
    );
    assert!(
        said(&g.handle(Event::Link(Link::Dropped), t)).is_empty(),
        "said once"
    );
    assert_eq!(
        said(&g.handle(Event::Link(Link::Restored), t)),
        vec!["Verbindung wieder da"]
    );
    let out = g.handle(
        Event::Server(GameLine::Full(Box::new(full("e2e4 c7c5")))),
        t,
    );
    assert_eq!(said(&out), vec!["Cäsar fünf"]);
}

#[test]
fn offers_of_the_opponent_are_said_and_answered() {
    let (mut g, _) = start("e2e4 e7e5");
    let t = Timestamp::ZERO;
    let out = g.handle(Event::Server(state("e2e4 e7e5", r#","bdraw":true"#)), t);
    assert_eq!(
        said(&out),
        vec!["Anna bietet Remis an. annehmen oder ablehnen"]
    );
    assert_eq!(
        sent(&g.handle(Event::Line("ablehnen".into()), t)),
        vec![Action::Draw(false)]
    );
    let out = g.handle(Event::Server(state("e2e4 e7e5", r#","btakeback":true"#)), t);
    assert_eq!(
        said(&out),
        vec!["Anna möchte einen Zug zurücknehmen. annehmen oder ablehnen"]
    );
    assert_eq!(
        sent(&g.handle(Event::Line("annehmen".into()), t)),
        vec![Action::Takeback(true)]
    );
    let out = g.handle(Event::Server(state("e2e4", "")), t);
    assert_eq!(said(&out), vec!["Zurückgenommen: ein Halbzug"]);
    assert_eq!(g.game().ply(), 1);
    assert_eq!(
        said(&g.handle(Event::Line("annehmen".into()), t)),
        vec!["Es gibt kein Angebot zu beantworten"]
    );
}

#[test]
fn resigning_asks_first_and_the_servers_result_ends_the_game() {
    let (mut g, _) = start("e2e4 e7e5");
    let t = Timestamp::ZERO;
    assert_eq!(
        said(&g.handle(Event::Line("aufgeben".into()), t)),
        vec!["Wirklich aufgeben? Ja oder nein"]
    );
    assert_eq!(
        sent(&g.handle(Event::Line("ja".into()), t)),
        vec![Action::Resign]
    );
    // A slip never resigns: the command again asks again, a word that is no answer lets the
    // question go, and ja then answers nothing.
    let (mut g, _) = start("e2e4 e7e5");
    g.handle(Event::Line("aufgeben".into()), t);
    let out = g.handle(Event::Line("aufgeben".into()), t);
    assert!(sent(&out).is_empty());
    assert_eq!(said(&out), vec!["Wirklich aufgeben? Ja oder nein"]);
    let out = g.handle(Event::Line("vielleicht".into()), t);
    assert!(sent(&out).is_empty(), "{:?}", said(&out));
    let out = g.handle(Event::Line("ja".into()), t);
    assert!(sent(&out).is_empty(), "{:?}", said(&out));
    let over = r#"{"type":"gameState","moves":"e2e4 e7e5","wtime":1,"btime":1,"status":"resign","winner":"black"}"#;
    let Ok(Some(line)) = game_line(over) else {
        panic!("not read")
    };
    let out = g.handle(Event::Server(line), t);
    assert!(g.is_over());
    assert!(
        out.iter()
            .any(|o| matches!(o, Effect::Match(MatchEffect::Record(Recorded::Ended(_)))))
    );
    assert_eq!(
        g.game().result(),
        Some(crate::outcome::GameResult::BlackWins)
    );
}

#[test]
fn the_clock_is_the_servers_and_chat_is_read_on_request() {
    let (mut g, _) = start("e2e4 e7e5");
    let t = Timestamp::from_millis(10_000);
    g.handle(Event::Server(state("e2e4 e7e5 g1f3", "")), Timestamp::ZERO);
    let words = said(&g.handle(Event::Line("uhr".into()), t));
    assert!(
        words[0].contains("13 Minuten") && words[0].contains("11 Minuten"),
        "{words:?}"
    );
    let chat = r#"{"type":"chatLine","room":"player","username":"Anna","text":"Viel Glück"}"#;
    let Ok(Some(line)) = game_line(chat) else {
        panic!("not read")
    };
    assert_eq!(
        said(&g.handle(Event::Server(line), t)),
        vec!["Nachricht von Anna. chat liest sie vor"]
    );
    assert_eq!(
        said(&g.handle(Event::Line("chat".into()), t)),
        vec!["Anna: Viel Glück"]
    );
    assert_eq!(
        said(&g.handle(Event::Line("chat".into()), t)),
        vec!["Keine neuen Nachrichten"]
    );
    assert_eq!(
        sent(&g.handle(Event::Line("sag Danke".into()), t)),
        vec![Action::Chat("Danke".into())]
    );
}

#[test]
fn the_win_may_be_claimed_when_the_server_allows() {
    let (mut g, _) = start("e2e4 e7e5");
    let t = Timestamp::ZERO;
    let gone = r#"{"type":"opponentGone","gone":true,"claimWinInSeconds":5}"#;
    let Ok(Some(line)) = game_line(gone) else {
        panic!("not read")
    };
    assert_eq!(
        said(&g.handle(Event::Server(line), t)),
        vec!["Anna ist nicht mehr verbunden"]
    );
    assert_eq!(
        said(&g.handle(Event::Line("sieg".into()), t)),
        vec!["Sie können den Sieg jetzt nicht reklamieren"]
    );
    let later = Timestamp::from_millis(5000);
    assert_eq!(g.next_deadline(t), Some(later));
    assert_eq!(
        said(&g.handle(Event::Tick, later)),
        vec!["Sie können jetzt den Sieg reklamieren: sieg"]
    );
    assert_eq!(
        sent(&g.handle(Event::Line("sieg".into()), later)),
        vec![Action::ClaimVictory]
    );
}

#[test]
fn another_account_and_bad_moves_from_the_server_are_errors_not_panics() {
    assert!(matches!(
        Online::new(&full(""), "someone", OPTIONS, de(), Timestamp::ZERO),
        Err(OnlineError::NotYourGame(_))
    ));
    let (mut g, _) = start("");
    let out = g.handle(Event::Server(state("e2e4 zz99", "")), Timestamp::ZERO);
    assert!(said(&out).iter().any(|s| s.contains("zz99")));
    assert_eq!(g.game().ply(), 1);
}

#[test]
fn help_names_the_online_words_too() {
    let (mut g, _) = start("");
    let words = said(&g.handle(Event::Line("hilfe".into()), Timestamp::ZERO));
    assert!(words.iter().any(|w| w.contains("sag TEXT")), "{words:?}");
}

#[test]
fn english_is_complete_for_online_games() {
    let en = language("en").expect("English is built in");
    let (mut g, out) =
        Online::new(&full("e2e4 e7e5"), "blind", OPTIONS, en, Timestamp::ZERO).expect("starts");
    assert_eq!(
        said(&out),
        vec![
            "You play White against Anna on lichess. 15 minutes plus 10 seconds",
            "White to move"
        ]
    );
    let out = g.handle(
        Event::Server(state("e2e4 e7e5", r#","bdraw":true"#)),
        Timestamp::ZERO,
    );
    assert_eq!(said(&out), vec!["Anna offers a draw. accept or decline"]);
    assert_eq!(
        sent(&g.handle(Event::Line("accept".into()), Timestamp::ZERO)),
        vec![Action::Draw(true)]
    );
    assert_eq!(
        said(&g.handle(Event::Line("chat".into()), Timestamp::ZERO)),
        vec!["No new messages"]
    );
}

#[test]
fn a_promotion_without_its_piece_asks_which_and_the_next_line_names_it() {
    let text = r#"{"type":"gameFull","id":"p1","variant":{"key":"fromPosition"},"white":{"id":"blind","name":"Blind"},"black":{"id":"anna","name":"Anna"},"initialFen":"8/4P3/8/8/8/8/k7/4K3 w - - 0 1","state":{"moves":"","wtime":60000,"btime":60000,"status":"started"}}"#;
    let Ok(Some(GameLine::Full(f))) = game_line(text) else {
        panic!("not read")
    };
    let (mut g, _) = Online::new(&f, "blind", OPTIONS, de(), Timestamp::ZERO).expect("starts");
    let out = g.handle(Event::Line("Eva acht".into()), Timestamp::ZERO);
    assert!(sent(&out).is_empty());
    assert!(g.question().is_some());
    assert_eq!(
        sent(&g.handle(Event::Line("Dame".into()), Timestamp::ZERO)),
        vec![Action::Move("e7e8q".into())]
    );
}

#[test]
fn the_players_own_time_is_said_at_the_marks_chosen_and_only_then() {
    let options = Options {
        announce: crate::clock::AnnounceSettings::casual(),
        ..OPTIONS
    };
    let (mut g, _) =
        Online::new(&full("e2e4 e7e5"), "Blind", options, de(), Timestamp::ZERO).expect("starts");
    // White (the player) has 15 minutes running: the next mark is 10 minutes left.
    let at = g.next_deadline(Timestamp::ZERO).expect("a mark is due");
    assert_eq!(at, Timestamp::from_millis(300_000));
    assert!(said(&g.handle(Event::Tick, Timestamp::from_millis(299_000))).is_empty());
    let words = said(&g.handle(Event::Tick, at));
    assert_eq!(words.len(), 1, "{words:?}");
    assert!(words[0].contains("10 Minuten"), "{words:?}");
    assert!(said(&g.handle(Event::Tick, at)).is_empty(), "said once");
    // The opponent's time is not announced: after the player's move it is Black's clock.
    g.handle(Event::Server(state("e2e4 e7e5 g1f3", "")), at);
    assert_eq!(g.next_deadline(at), None);
    // Without --announce nothing is said (D9d), however the time runs.
    let (mut quiet, _) = start("e2e4 e7e5");
    assert_eq!(quiet.next_deadline(Timestamp::ZERO), None);
    assert!(said(&quiet.handle(Event::Tick, Timestamp::from_millis(899_000))).is_empty());
}

#[test]
fn the_servers_times_are_recorded_with_its_newest_move() {
    let (mut g, _) = start("e2e4 e7e5");
    let out = g.handle(Event::Server(state("e2e4 e7e5 g1f3", "")), Timestamp::ZERO);
    let clocks: Vec<_> = out
        .iter()
        .filter_map(|o| match o {
            Effect::Match(MatchEffect::Record(Recorded::Move { clock, .. })) => Some(*clock),
            _ => None,
        })
        .collect();
    assert_eq!(
        clocks,
        vec![Some(shakmaty::ByColor {
            white: Duration::from_millis(800_000),
            black: Duration::from_millis(700_000),
        })]
    );
}

#[test]
fn time_controls_the_board_api_refuses_are_refused_before_asking() {
    assert_eq!(Speed::of(15 * 60, 10), Speed::Rapid);
    assert_eq!(Speed::of(5 * 60, 3), Speed::Blitz);
    assert_eq!(Speed::of(5 * 60, 5), Speed::Rapid);
    assert_eq!(Speed::of(60, 0), Speed::Bullet);
    assert_eq!(Speed::of(90 * 60, 30), Speed::Classical);
    // A seek must be rapid or classical; a challenge may be blitz.
    assert_eq!(time_control_refusal("15+10", 900, 10, true, de()), None);
    let words = time_control_refusal("5+3", 300, 3, true, de()).expect("too fast to seek");
    assert!(
        words.starts_with("5+3 ist zu schnell für eine offene Suche"),
        "{words}"
    );
    assert_eq!(time_control_refusal("5+3", 300, 3, false, de()), None);
    let words = time_control_refusal("1+0", 60, 0, false, de()).expect("bullet");
    assert!(words.starts_with("1+0 ist zu schnell: "), "{words}");
}

#[test]
fn a_challenges_clock_is_one_the_api_lists() {
    for (initial, inc) in [
        (0, 1),
        (15, 0),
        (30, 0),
        (45, 60),
        (60, 0),
        (90, 2),
        (120, 1),
    ] {
        assert!(challenge_clock_offered(initial, inc), "{initial}+{inc}");
    }
    assert!(challenge_clock_offered(180 * 60, 60));
    for (initial, inc) in [
        (150, 0),
        (100, 0),
        (181 * 60, 0),
        (300, 61),
        (900, 180),
        (10, 0),
    ] {
        assert!(!challenge_clock_offered(initial, inc), "{initial}+{inc}");
    }
}

#[test]
fn looking_back_online_answers_for_the_old_position_and_sends_no_move() {
    let (mut g, _) = start("e2e4 e7e5");
    let t = Timestamp::ZERO;
    assert_eq!(
        said(&g.handle(Event::Line("stellung 1 weiß".into()), t)),
        vec!["Rückblick nach Zug 1, Weiß: Eva vier"]
    );
    assert_eq!(
        said(&g.handle(Event::Line("feld e5".into()), t)),
        vec!["Eva fünf: leer"]
    );
    let out = g.handle(Event::Line("Sf3".into()), t);
    assert!(sent(&out).is_empty());
    assert_eq!(
        said(&out),
        vec!["Rückblick: erst aktuell sagen, dann ziehen"]
    );
    g.handle(Event::Line("aktuell".into()), t);
    assert_eq!(
        sent(&g.handle(Event::Line("Sf3".into()), t)),
        vec![Action::Move("g1f3".into())]
    );
}

/// hector play's words for taking back, aborting and a rematch mean the server's here.
#[test]
fn the_play_words_for_takeback_abort_and_rematch_go_to_the_server() {
    let (mut g, _) = start("e2e4 e7e5");
    let t = Timestamp::from_millis(1000);
    let out = g.handle(Event::Line("zurücknehmen".into()), t);
    assert_eq!(sent(&out), vec![Action::Takeback(true)]);
    assert_eq!(said(&out), vec!["Rücknahme erbeten"]);
    assert_eq!(
        sent(&g.handle(Event::Line("abort".into()), t)),
        vec![Action::Abort]
    );
    assert_eq!(
        said(&g.handle(Event::Line("revanche".into()), t)),
        vec!["Eine neue Partie beginnt mit hector online play"]
    );
    assert_eq!(g.game().ply(), 2);
}

/// Space on the screen's board picks up the player's piece and sends the move to the server,
/// which plays it when the stream confirms it; the opponent's turn and looking back refuse.
#[test]
fn a_move_made_on_the_screens_board_goes_to_the_server() {
    use shakmaty::Square;
    let (mut g, _) = start("");
    let t = Timestamp::ZERO;
    let out = g.handle(Event::Command(Command::Select(Square::G1)), t);
    assert_eq!(said(&out), vec!["Springer Gustav eins aufgenommen"]);
    assert!(sent(&out).is_empty());
    let out = g.handle(Event::Command(Command::Select(Square::F3)), t);
    assert_eq!(sent(&out), vec![Action::Move("g1f3".into())]);
    assert_eq!(g.game().ply(), 0, "played only when the server confirms it");
    g.handle(Event::Server(state("g1f3", "")), t);
    assert_eq!(g.game().ply(), 1);
    // Black's turn: the player's piece goes to a premove, nothing is sent.
    let out = g.handle(Event::Command(Command::Select(Square::E2)), t);
    assert_eq!(said(&out), vec!["Bauer Eva zwei aufgenommen"]);
    let out = g.handle(Event::Command(Command::Select(Square::E4)), t);
    assert_eq!(said(&out), vec!["Vorauszug gemerkt: Eva vier"]);
    assert!(sent(&out).is_empty());
    assert_eq!(
        said(&g.handle(Event::Line("".into()), t)),
        vec!["Vorauszug aufgehoben"]
    );
    // Looking back, the board waits too.
    g.handle(Event::Server(state("g1f3 g8f6", "")), t);
    g.handle(Event::Line("stellung 1 weiß".into()), t);
    let out = g.handle(Event::Command(Command::Select(Square::E2)), t);
    assert_eq!(
        said(&out),
        vec!["Rückblick: erst aktuell sagen, dann ziehen"]
    );
    assert!(sent(&out).is_empty());
}

fn line(text: &str) -> GameLine {
    match game_line(text) {
        Ok(Some(line)) => line,
        other => panic!("test line not read: {other:?}"),
    }
}

/// A status hector does not know is one unreadable line, said once, and ends nothing.
#[test]
fn an_unknown_status_is_said_once_and_ends_nothing() {
    let (mut g, _) = start("e2e4 e7e5");
    let t = Timestamp::ZERO;
    let odd = r#"{"type":"gameState","moves":"e2e4 e7e5","wtime":1,"btime":1,"status":"paused"}"#;
    let words = said(&g.handle(Event::Server(line(odd)), t));
    assert_eq!(words.len(), 1, "{words:?}");
    assert!(
        words[0].contains("unlesbar") && words[0].contains("paused"),
        "{words:?}"
    );
    assert!(
        said(&g.handle(Event::Link(Link::BadLine("again".into())), t)).is_empty(),
        "said once"
    );
    assert!(!g.is_over());
    assert_eq!(
        sent(&g.handle(Event::Line("Sf3".into()), t)),
        vec![Action::Move("g1f3".into())]
    );
}

/// The board decides what it can show: mate that is not on the board is said with the
/// board's word and gives no result; mate without a winner on a mated board is the board's.
#[test]
fn a_servers_end_the_board_contradicts_is_said_and_decides_nothing() {
    let (mut g, _) = start("e2e4 e7e5");
    let t = Timestamp::ZERO;
    let mate = r#"{"type":"gameState","moves":"e2e4 e7e5","wtime":1,"btime":1,"status":"mate"}"#;
    let words = said(&g.handle(Event::Server(line(mate)), t));
    assert_eq!(
        words,
        vec![
            "lichess meldet Schachmatt, auf dem Brett ist aber kein Matt. Das Ergebnis bleibt offen"
        ]
    );
    assert!(g.is_over());
    assert_eq!(g.game().result(), None);
    let (mut g, _) = start("f2f3 e7e5 g2g4");
    let mated =
        r#"{"type":"gameState","moves":"f2f3 e7e5 g2g4 d8h4","wtime":1,"btime":1,"status":"mate"}"#;
    let words = said(&g.handle(Event::Server(line(mated)), t)).join(" ");
    assert!(!words.contains("Remis"), "{words}");
    assert_eq!(
        g.game().result(),
        Some(crate::outcome::GameResult::BlackWins)
    );
}

/// An aborted game is over without a result in the record (hector games says so).
#[test]
fn an_abort_on_the_server_is_recorded_as_one() {
    let (mut g, _) = start("e2e4");
    let t = Timestamp::ZERO;
    let aborted = r#"{"type":"gameState","moves":"e2e4","wtime":1,"btime":1,"status":"aborted"}"#;
    let out = g.handle(Event::Server(line(aborted)), t);
    assert!(
        out.iter().any(|o| matches!(
            o,
            Effect::Match(MatchEffect::Record(Recorded::Aborted { by: Color::Black }))
        )),
        "{out:?}"
    );
    assert_eq!(said(&out), vec!["Die Partie wurde abgebrochen"]);
    assert!(g.game().is_aborted());
}

/// A flood of chat costs a bounded number of lines and one announcement.
#[test]
fn a_chat_flood_keeps_only_the_newest_lines_and_is_announced_once() {
    let (mut g, _) = start("e2e4 e7e5");
    let t = Timestamp::ZERO;
    let mut announced = 0;
    for i in 0..5000 {
        let text = format!(
            r#"{{"type":"chatLine","room":"player","username":"Anna\u001b[2J","text":"spam {i}\u0007"}}"#
        );
        announced += said(&g.handle(Event::Server(line(&text)), t)).len();
    }
    assert_eq!(announced, 1);
    let read = said(&g.handle(Event::Line("chat".into()), t));
    let lines: Vec<&str> = read[0].split(" Anna").collect();
    assert_eq!(lines.len(), CHAT_KEPT, "{}", read[0].len());
    assert!(
        read[0].ends_with("Anna\\x1B[2J: spam 4999\\x07"),
        "{}",
        &read[0][read[0].len() - 40..]
    );
    assert!(!read[0].contains('\u{1b}'));
}

/// After a refused token the move is kept, said, and sent once the player logged in again;
/// `zurück` lets a held move go.
#[test]
fn a_move_the_refused_token_kept_goes_after_the_next_login() {
    let (mut g, _) = start("");
    let t = Timestamp::ZERO;
    assert_eq!(
        sent(&g.handle(Event::Line("e4".into()), t)),
        vec![Action::Move("e2e4".into())]
    );
    let words = said(&g.handle(Event::Link(Link::Unsent(Action::Move("e2e4".into()))), t));
    assert_eq!(
        words,
        vec![
            "lichess nimmt den Zugang nicht mehr an. Bitte neu anmelden: hector online login",
            "Eva vier ist nicht gesendet: es geht zu lichess, sobald Sie neu angemeldet sind. zurück lässt den Zug fallen"
        ]
    );
    assert!(
        said(&g.handle(Event::Link(Link::Revoked), t)).is_empty(),
        "said once"
    );
    // Another move replaces it, and is not sent either.
    let out = g.handle(Event::Line("d4".into()), t);
    assert!(sent(&out).is_empty());
    assert!(said(&out)[0].starts_with("David vier ist nicht gesendet"));
    let out = g.handle(Event::Link(Link::Authorized), t);
    assert_eq!(said(&out), vec!["Wieder bei lichess angemeldet"]);
    assert_eq!(sent(&out), vec![Action::Move("d2d4".into())]);
    // Let go: nothing is sent after the login.
    let (mut g, _) = start("");
    g.handle(Event::Line("e4".into()), t);
    g.handle(Event::Link(Link::Unsent(Action::Move("e2e4".into()))), t);
    assert_eq!(
        said(&g.handle(Event::Line("zurück".into()), t)),
        vec!["Eva vier wird nicht gesendet"]
    );
    assert!(sent(&g.handle(Event::Link(Link::Authorized), t)).is_empty());
}

/// A 429's wait is said once, not by every request that meets it.
#[test]
fn a_wait_is_said_once() {
    let (mut g, _) = start("");
    let t = Timestamp::ZERO;
    let wait = Duration::from_secs(60);
    assert_eq!(
        said(&g.handle(Event::Link(Link::Waiting(wait)), t)),
        vec!["lichess bittet zu warten: 60 Sekunden"]
    );
    let later = Timestamp::from_millis(2000);
    assert!(
        said(&g.handle(
            Event::Link(Link::Waiting(wait - Duration::from_secs(2))),
            later
        ))
        .is_empty()
    );
    let after = Timestamp::from_millis(70_000);
    assert_eq!(
        said(&g.handle(Event::Link(Link::Waiting(wait)), after)).len(),
        1
    );
}

/// A move typed on the opponent's turn is kept, sent as soon as the server's stream brings
/// the opponent's move, and said as the premove when the server confirms it; one the reply
/// makes illegal is dropped with the reason.
#[test]
fn a_premove_is_sent_when_the_opponent_has_moved() {
    let (mut g, _) = start("e2e4");
    let t = Timestamp::ZERO;
    assert!(g.awaits_reply());
    let out = g.handle(Event::Line("Sf3".into()), t);
    assert_eq!(said(&out), vec!["Vorauszug gemerkt: Springer Felix drei"]);
    assert!(!g.awaits_reply(), "a prompt follows the answer");
    let out = g.handle(Event::Server(state("e2e4 e7e5", "")), t);
    assert_eq!(sent(&out), vec![Action::Move("g1f3".into())]);
    let labels: Vec<&MatchEffect> = out
        .iter()
        .filter_map(|o| match o {
            Effect::Match(e @ MatchEffect::Label(_)) => Some(e),
            _ => None,
        })
        .collect();
    assert_eq!(labels, [&MatchEffect::Label("Schwarz".into())]);
    assert!(g.awaits_reply(), "the premove is on its way");
    let out = g.handle(Event::Server(state("e2e4 e7e5 g1f3", "")), t);
    let mut heard = Vec::new();
    let mut label = None;
    for o in &out {
        match o {
            Effect::Match(MatchEffect::Label(l)) => label = Some(l.clone()),
            Effect::Match(MatchEffect::Common(Common::Say { lines, .. })) => {
                let text = lines.join(" ");
                heard.push(match label.take() {
                    Some(l) => format!("{l}: {text}"),
                    None => text,
                });
            }
            _ => {}
        }
    }
    assert_eq!(heard, ["Vorauszug: Springer Felix drei"]);
    // A recapture kept for d5: the reply goes elsewhere, the premove is dropped.
    g.handle(Event::Line("exd5".into()), t);
    let out = g.handle(Event::Server(state("e2e4 e7e5 g1f3 b8c6", "")), t);
    assert!(sent(&out).is_empty());
    let words = said(&out);
    assert_eq!(words[0], "Springer Cäsar sechs");
    assert!(
        words[1].starts_with("Vorauszug Eva schlägt David fünf verworfen"),
        "{words:?}"
    );
}

#[test]
fn the_opponent_is_named_with_rating_and_colour() {
    let (mut g, _) = start("");
    assert_eq!(
        said(&g.handle(Event::Line("gegner".into()), Timestamp::ZERO)),
        vec!["Gegner: Anna auf lichess, spielt Schwarz"]
    );
}
