//! The keys of lichess's blind mode on hector's board, through the real binary on the full
//! screen (a pseudo-terminal read by a terminal emulator): m and Shift+M, Shift and a digit,
//! Shift+A and Shift+D, v and g, f, o; and the same words typed in line mode
//! (schlagzüge, gegner).

#![allow(
    clippy::expect_used,
    clippy::panic,
    unsafe_code,
    reason = "tests stop at the first surprise, and the pseudo-terminals need the system's calls; the crate's lints are for hector itself"
)]
// The binary is driven through Unix pseudo-terminals and processes (tests/common).
#![cfg(unix)]

mod common;

use std::time::Duration;

use common::pty::Pty;
use common::{Env, temp_dir};

const LIMIT: Duration = Duration::from_secs(30);

/// Sends `keys` and waits until the screen shows `shown`.
fn press(t: &mut Pty, keys: &[u8], shown: &str) {
    t.send(keys);
    assert!(
        t.wait_for_screen(shown, LIMIT),
        "{:?} did not show {shown:?}:\n{}",
        String::from_utf8_lossy(keys),
        t.screen()
    );
}

#[test]
fn the_board_keys_of_lichess_blind_mode() {
    let data = temp_dir("board-keys");
    let mut t = Env::player(data.path()).spawn_sized(
        &["play", "--opponent", "keyboard", "--speech", "print"],
        100,
        30,
    );
    assert!(
        t.wait_for_screen("Zug oder Befehl:", LIMIT),
        "{}",
        t.screen()
    );
    for mv in ["e4", "e5", "Sf3", "Sc6"] {
        t.send(format!("{mv}\r").as_bytes());
    }
    assert!(t.wait_for_screen("2. Sf3 Sc6", LIMIT), "{}", t.screen());
    press(&mut t, b"\t", "Brett:");
    // Shift+6 on a German keyboard (&): the f-file, on the focused rank (2); then rank 3.
    press(&mut t, b"&", "Felix zwei: weißer Bauer");
    press(&mut t, b"3", "Felix drei: weißer Springer");
    // Shift+M: only the knight's captures; m: all its moves.
    press(
        &mut t,
        b"M",
        "Weißer Springer Felix drei: Springer schlägt Eva fünf",
    );
    press(
        &mut t,
        b"m",
        "Weißer Springer Felix drei: Springer Gustav eins",
    );
    // o: the opponent.
    press(
        &mut t,
        b"o",
        "Gegner: zweiter Spieler an dieser Tastatur, spielt Schwarz",
    );
    // Shift+A and Shift+D: one half-move back and forward, as vorher and vor.
    press(
        &mut t,
        b"A",
        "Rückblick nach Zug 2, Weiß: Springer Felix drei",
    );
    press(&mut t, b"A", "Rückblick nach Zug 1, Schwarz: Eva fünf");
    // Forward again: the heading names the half-move looked at (its words were said before).
    press(&mut t, b"D", "Rückblick: 2. Weiß");
    press(&mut t, b"D", "Aktuelle Stellung");
    // v and g: the computer's advice, which a game between two players has not.
    press(
        &mut t,
        b"v",
        "In dieser Partie gibt es keinen Computer, der bewerten könnte",
    );
    // f: the board turned, Black at the bottom (its first rank at the top).
    press(&mut t, b"f", "Brett gedreht, Schwarz unten");
    assert!(
        t.wait_for_screen("   h   g   f   e   d   c   b   a", LIMIT),
        "{}",
        t.screen()
    );
    // The arrows walk as the board is seen: left is towards the h-file now.
    press(&mut t, b"\x1b[D", "Gustav drei: leer");
    press(&mut t, b"f", "Brett gedreht, Weiß unten");
    // The player's own pieces are still White's.
    press(&mut t, b"s", "Bella eins: weißer Springer");
    // A yes-or-no question is answered on the board by the words' first letters: n keeps
    // the game, j ends it; the player need not go back to the input line.
    press(&mut t, &[0x11], "Wirklich beenden?");
    press(&mut t, b"n", "Die Partie geht weiter");
    // Asked again (the same words on the screen already): j ends it, which only an answer
    // to the question does.
    t.send(&[0x11]);
    t.send(b"j");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}

#[test]
fn captures_and_the_opponent_are_asked_in_words_in_line_mode() {
    let data = temp_dir("board-words");
    let mut t = Env::player(data.path()).spawn_sized(
        &[
            "play",
            "--screen-reader",
            "--lang",
            "en",
            "--opponent",
            "keyboard",
        ],
        100,
        30,
    );
    assert!(
        t.wait_for("Move or command:", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"e4\rd5\rcaptures\rcaptures d5\ropponent\rquit\r");
    for needle in [
        "1 capture: Eva takes David five",
        "Black could move Pawn David five: David takes Eva four",
        "Opponent: a second player at this keyboard, playing Black",
    ] {
        assert!(
            t.wait_for(needle, LIMIT).is_some(),
            "{needle:?}:\n{}",
            t.all_output()
        );
    }
    assert!(
        t.wait_for("Really quit?", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"yes\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}

/// A premove made on the full screen's board while the computer thinks (at full strength,
/// two seconds), and Enter on an empty line cancels it before the computer's reply.
#[test]
fn a_premove_on_the_board_is_cancelled_by_enter() {
    let data = temp_dir("board-premove");
    let mut t = Env::player(&data).spawn_sized(
        &[
            "play",
            "--opponent",
            "engine",
            "--level",
            "8",
            "--speech",
            "print",
        ],
        100,
        30,
    );
    assert!(
        t.wait_for_screen("Zug oder Befehl:", LIMIT),
        "{}",
        t.screen()
    );
    press(&mut t, b"\t", "Brett:");
    // e2-e4 on the board: Space, rank 4, Space.
    press(&mut t, b" ", "Bauer Eva zwei aufgenommen");
    t.send(b"4 ");
    // While the computer thinks: the knight b1 to c3, as a premove.
    press(&mut t, b"s", "Bella eins: weißer Springer");
    press(&mut t, b" ", "Springer Bella eins aufgenommen");
    // Shift+3 on a German keyboard (§): the c-file; then rank 3.
    press(&mut t, "§".as_bytes(), "Cäsar eins: weißer Läufer");
    t.send(b"3 ");
    assert!(
        t.wait_for_screen("Vorauszug gemerkt: Springer Cäsar drei", LIMIT),
        "{}",
        t.screen()
    );
    press(&mut t, b"\r", "Vorauszug aufgehoben");
    assert!(t.wait_for_screen("Computer: ", LIMIT), "{}", t.screen());
    // The computer's reply came and nothing else was played: White is to move. A question
    // asked after the reply is answered, so the reply has been handled (a premove would
    // have been played at once).
    assert!(t.wait_for_screen("1. e4 ", LIMIT), "{}", t.screen());
    press(&mut t, b"o", "Gegner: Stockfish");
    assert!(!t.screen().contains("2. Sc3"), "{}", t.screen());
    assert!(!t.screen().contains("Vorauszug: "), "{}", t.screen());
    press(&mut t, b"\t", "Eingabe");
    t.quit_saying_ja(LIMIT);
}
