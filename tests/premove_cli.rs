//! Premoves through the real binary in pseudo-terminals: a move typed while the opponent is
//! to move is kept ("Vorauszug gemerkt"), played as soon as the opponent's move makes it legal
//! ("Vorauszug: …") and recorded then; against Stockfish, against the sighted player's
//! simulated e-board, and online against the local stand-in for lichess. Enter on an empty
//! line cancels one; a resumed game has none.

#![allow(
    clippy::expect_used,
    clippy::panic,
    unsafe_code,
    reason = "tests stop at the first surprise, and the pseudo-terminals need the system's calls; the crate's lints are for hector itself"
)]
// The binary is driven through Unix pseudo-terminals and processes (tests/common).
#![cfg(unix)]

mod common;
#[path = "common/lichess.rs"]
mod lichess;

use std::time::Duration;

use common::pty::Pty;
use common::sim::Simulator;
use common::{Env, temp_dir};
use shakmaty::Color;

const LIMIT: Duration = Duration::from_secs(30);

/// Waits until `needle` appears after byte `from` of the output.
fn heard_after(t: &Pty, from: usize, needle: &str) -> usize {
    let deadline = std::time::Instant::now() + LIMIT;
    loop {
        let text = t.all_output();
        if let Some(at) = text.get(from..).and_then(|tail| tail.find(needle)) {
            return from + at + needle.len();
        }
        assert!(
            std::time::Instant::now() < deadline,
            "hector did not say {needle:?}; it said:\n{text:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Against the computer in line mode: the premove typed together with the move (the
/// computer at full strength thinks two seconds) is kept, played after its reply, and in the
/// game's record.
#[test]
fn a_premove_against_the_computer_is_played_after_its_reply() {
    let data = temp_dir("premove-engine");
    let mut t = Env::player(data.path()).spawn(&[
        "play",
        "--screen-reader",
        "--opponent",
        "engine",
        "--level",
        "8",
    ]);
    heard_after(&t, 0, "Zug oder Befehl:");
    t.send(b"e4\rSf3\r");
    let at = heard_after(&t, 0, "Vorauszug gemerkt: Springer Felix drei");
    let at = heard_after(&t, at, "Computer: ");
    let at = heard_after(&t, at, "Vorauszug: Springer Felix drei");
    heard_after(&t, at, "Computer: ");
    // A second one, typed with the next move and cancelled by Enter on an empty line
    // before the reply.
    let before = t.all_output().len();
    t.send(b"d3\rLe2\r\r");
    let at = heard_after(&t, before, "Vorauszug gemerkt: Läufer Eva zwei");
    heard_after(&t, at, "Vorauszug aufgehoben");
    t.send(b"ende\r");
    heard_after(&t, before, "Wirklich beenden?");
    t.send(b"ja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    let pgn = Env::player(data.path()).run(&["export", "1"], b"", LIMIT);
    assert_eq!(pgn.code, Some(0), "{}", pgn.stderr);
    // e4, the reply, Nf3, the reply, d3: Be2 was cancelled and never played.
    assert!(pgn.stdout.contains("1. e4 "), "{}", pgn.stdout);
    assert!(pgn.stdout.contains("2. Nf3 "), "{}", pgn.stdout);
    assert!(pgn.stdout.contains("3. d3 "), "{}", pgn.stdout);
    assert!(!pgn.stdout.contains("Be2"), "{}", pgn.stdout);
}

/// The sighted player's e-board: the premove is played when the opponent's move stands on
/// the board, and the opponent then carries it out there.
#[test]
fn a_premove_is_played_when_the_e_boards_move_comes() {
    let dir = temp_dir("premove-board");
    let link = dir.join("board");
    let mut sim = Simulator::start("dgt", &link);
    let opponent = format!("board:{}", link.display());
    let mut t = Env::player(dir.path()).spawn(&[
        "play",
        "--screen-reader",
        "--opponent",
        &opponent,
        "--opponent-protocol",
        "dgt",
    ]);
    heard_after(&t, 0, "Zug oder Befehl:");
    t.send(b"Eva vier\r");
    let at = heard_after(&t, 0, "Eva vier");
    t.send(b"Springer Felix drei\r");
    let at = heard_after(&t, at, "Vorauszug gemerkt: Springer Felix drei");
    sim.send("move e2e4");
    sim.send("move e7e5");
    let at = heard_after(&t, at, "Schwarz: Eva fünf");
    let at = heard_after(&t, at, "Vorauszug: Springer Felix drei");
    // The opponent carries it out and replies.
    sim.send("move g1f3");
    sim.send("move b8c6");
    heard_after(&t, at, "Schwarz: Springer Cäsar sechs");
    assert!(
        !t.all_output().contains("Das ist kein Zug"),
        "{}",
        t.all_output()
    );
    t.send(b"ende\r");
    heard_after(&t, at, "Wirklich beenden?");
    t.send(b"ja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}

/// Online: the premove goes to the server once the opponent's move has come, and is said
/// as the premove when the server confirms it.
#[test]
fn an_online_premove_is_sent_after_the_opponents_move() {
    let server = lichess::Server::start();
    server.add_game(Color::White, "Anna", &["e2e4", "e7e5", "g1f3"]);
    let dir = temp_dir("premove-online");
    let mut t = Env::player(dir.path()).token(lichess::TOKEN).spawn(&[
        "online",
        "--server",
        &server.url,
        "--speech",
        "print",
        "play",
        "--game",
        "1",
        "--screen-reader",
    ]);
    let at = heard_after(&t, 0, "Schwarz ist am Zug");
    t.send(b"Laeufer Caesar vier\r");
    let at = heard_after(&t, at, "Vorauszug gemerkt: Läufer Cäsar vier");
    assert_eq!(server.moves(), ["e2e4", "e7e5", "g1f3"]);
    server.opponent_move("b8c6");
    let at = heard_after(&t, at, "Schwarz: Springer Cäsar sechs");
    heard_after(&t, at, "Vorauszug: Läufer Cäsar vier");
    assert!(
        server.wait(LIMIT, |s| s
            .game
            .as_ref()
            .is_some_and(|g| g.moves.len() == 5)),
        "{}",
        t.all_output()
    );
    assert_eq!(server.moves(), ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4"]);
    t.send(b"ende\r");
    heard_after(&t, at, "Wirklich");
    t.send(b"ja\r");
    assert!(t.wait_exit(LIMIT).is_some(), "{}", t.all_output());
}
