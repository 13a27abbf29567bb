//! The players' agreements of `hector play` in real pseudo-terminals: taking moves back
//! against Stockfish and at one keyboard, aborting, a rematch, the captured pieces and the
//! threats; the journal and the PGN export keep what happened.

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

/// `hector play --screen-reader` with `args`.
fn play(args: &[&str], data: &std::path::Path) -> Pty {
    let mut all = vec!["play", "--screen-reader"];
    all.extend_from_slice(args);
    Env::player(data).spawn(&all)
}

/// Types `input` and waits until `expected` has been said (the `n`th time).
fn say(t: &mut Pty, input: &str, expected: &str, n: usize) {
    t.send(format!("{input}\r").as_bytes());
    let deadline = std::time::Instant::now() + LIMIT;
    while t.all_output().matches(expected).count() < n {
        assert!(
            std::time::Instant::now() < deadline,
            "no {expected:?} after {input:?} in:\n{}",
            t.all_output()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn hector(args: &[&str], data: &std::path::Path) -> String {
    let env = Env::player(data);
    let run = env.run(args, b"", LIMIT);
    assert_eq!(run.code, Some(0), "{args:?}: {}", run.stderr);
    run.stdout
}

fn quit(t: &mut Pty) {
    t.send(b"ende\r");
    t.wait_answer("ende", LIMIT);
    // "ja" and "yes" answer in every language.
    t.send(b"ja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}

#[test]
fn a_move_and_the_computers_reply_are_taken_back() {
    let data = temp_dir("takeback-data");
    let mut t = play(
        &["--opponent", "engine", "--level", "1", "--tc", "600"],
        &data,
    );
    assert!(
        t.wait_for("Weiß ist am Zug", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    say(&mut t, "Eva vier", "Computer: ", 1);
    say(&mut t, "zurücknehmen", "Zurückgenommen: Eva vier, ", 1);
    // The answer ends with whose move it is: White's again (said first at the start).
    say(&mut t, "wer", "Weiß ist am Zug", 3);
    say(&mut t, "David vier", "Computer: ", 2);
    say(&mut t, "liste", "Züge ab 1: 1. David vier; ", 1);
    quit(&mut t);
    // The record keeps the take-back; the PGN has the moves played and a comment.
    let pgn = hector(&["export", "1"], &data);
    // Comments are wrapped to the PGN's line length.
    let pgn = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(pgn.contains("1. d4 "), "{pgn}");
    assert!(!pgn.contains("1. e4 "), "{pgn}");
    assert!(pgn.contains("Der Zug e4 wurde zurückgenommen"), "{pgn}");
    assert!(pgn.contains("Auf Wunsch von Weiß zurückgenommen"), "{pgn}");
    // It continues where it was.
    let mut t = Env::player(&data).spawn(&["resume", "--screen-reader"]);
    assert!(
        t.wait_for("Zuletzt: Zug 1, Schwarz", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    quit(&mut t);
}

#[test]
fn at_one_keyboard_the_opponent_answers() {
    let data = temp_dir("takeback-data");
    let mut t = play(&["--opponent", "keyboard"], &data);
    assert!(
        t.wait_for("Weiß ist am Zug", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    say(&mut t, "e4", "Eva vier", 1);
    say(&mut t, "d5", "David fünf", 1);
    say(
        &mut t,
        "zurücknehmen",
        "Schwarz möchte den letzten Zug zurücknehmen. Weiß, einverstanden? Ja oder nein",
        1,
    );
    say(&mut t, "nein", "Weiß lehnt die Rücknahme ab", 1);
    say(&mut t, "exd5", "Eva schlägt David fünf", 1);
    say(&mut t, "letzter", "Eva schlägt Bauer auf David fünf", 1);
    say(
        &mut t,
        "geschlagen",
        "Geschlagene weiße Figuren: keine. Geschlagene schwarze Figuren: Bauer",
        1,
    );
    say(
        &mut t,
        "drohungen",
        "Weiß kann Schach geben: Läufer Bella fünf",
        1,
    );
    say(
        &mut t,
        "züge d5",
        "Weiß könnte Bauer David fünf ziehen: David sechs",
        1,
    );
    say(&mut t, "zurücknehmen", "Weiß möchte den letzten Zug", 1);
    say(
        &mut t,
        "ja",
        "Zurückgenommen: Eva schlägt David fünf. Weiß ist am Zug",
        1,
    );
    // The English word is understood; the answer is in the game's language.
    say(
        &mut t,
        "captured",
        "Geschlagene weiße Figuren: keine. Geschlagene schwarze Figuren: keine",
        1,
    );
    quit(&mut t);
}

#[test]
fn abort_before_both_moved_and_a_rematch_with_the_colours_swapped() {
    let data = temp_dir("takeback-data");
    let mut t = play(&["--opponent", "engine", "--level", "1"], &data);
    assert!(
        t.wait_for("Weiß ist am Zug", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    say(
        &mut t,
        "abbrechen",
        "Die Partie ist abgebrochen, ohne Ergebnis",
        1,
    );
    say(&mut t, "e4", "Die Partie ist beendet", 1);
    say(&mut t, "revanche", "Revanche: Sie spielen jetzt Schwarz", 1);
    // The computer opens the rematch with White; once both have moved, no abort.
    assert!(
        t.wait_for("Computer: ", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    say(&mut t, "Eva sechs", "Computer: ", 2);
    say(
        &mut t,
        "abort",
        "Abbrechen geht nur, bevor beide Seiten gezogen haben",
        1,
    );
    say(&mut t, "aufgeben", "Wirklich aufgeben?", 1);
    say(&mut t, "ja", "Weiß gewinnt", 1);
    t.send(b"ende\r");
    assert!(t.wait_exit(LIMIT).is_some(), "{}", t.all_output());
    let games = hector(&["games"], &data);
    assert!(games.contains("abgebrochen"), "{games}");
    // Nothing is left to resume: the aborted game is over.
    let run = Env::player(&data).run(&["resume", "--screen-reader"], b"", LIMIT);
    assert_ne!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
}

#[test]
fn take_back_switched_off_and_captures_said_with_every_move() {
    let data = temp_dir("takeback-data");
    let mut t = play(
        &["--opponent", "keyboard", "--no-takeback", "--say-captured"],
        &data,
    );
    assert!(
        t.wait_for("Weiß ist am Zug", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    say(&mut t, "e4", "Eva vier", 1);
    say(&mut t, "d5", "David fünf", 1);
    say(&mut t, "exd5", "Eva schlägt Bauer auf David fünf", 1);
    say(
        &mut t,
        "zurücknehmen",
        "Zurücknehmen ist in dieser Partie ausgeschaltet",
        1,
    );
    quit(&mut t);
}

#[test]
fn the_english_words_and_answers() {
    let data = temp_dir("takeback-data");
    let mut t = play(&["--opponent", "keyboard", "--lang", "en"], &data);
    assert!(
        t.wait_for("White to move", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    say(&mut t, "e4", "Eva four", 1);
    say(&mut t, "d5", "David five", 1);
    say(&mut t, "exd5", "Eva takes David five", 1);
    say(&mut t, "last", "Eva takes Pawn on David five", 1);
    say(
        &mut t,
        "captured",
        "Captured white pieces: none. Captured black pieces: Pawn",
        1,
    );
    say(
        &mut t,
        "threats",
        "White can give check: Bishop Bella five, check",
        1,
    );
    say(
        &mut t,
        "abort",
        "A game can be aborted only before both sides have moved",
        1,
    );
    say(
        &mut t,
        "rematch",
        "A rematch comes when the game is over",
        1,
    );
    say(
        &mut t,
        "takeback",
        "White would like to take back the last move. Black, do you agree? Yes or no",
        1,
    );
    say(
        &mut t,
        "yes",
        "Taken back: Eva takes David five. White to move",
        1,
    );
    quit(&mut t);
}

#[test]
fn a_rematch_resumes_with_its_own_colours_and_opponent() {
    let data = temp_dir("takeback-data");
    let mut t = play(&["--opponent", "engine", "--level", "1"], &data);
    assert!(
        t.wait_for("Weiß ist am Zug", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    say(&mut t, "aufgeben", "Wirklich aufgeben?", 1);
    say(&mut t, "ja", "Schwarz gewinnt", 1);
    say(&mut t, "revanche", "Revanche: Sie spielen jetzt Schwarz", 1);
    assert!(
        t.wait_for("Computer: ", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    quit(&mut t);
    let env = Env::player(&data);
    let mut t = env.spawn(&["resume", "--screen-reader"]);
    assert!(
        t.wait_for("Sie spielen Schwarz gegen den Computer", LIMIT)
            .is_some(),
        "{}",
        t.all_output()
    );
    assert!(
        t.wait_for("Zuletzt: Zug 1, Weiß", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    quit(&mut t);
}

/// The case the players met: a rematch against a second player at the keyboard, three moves,
/// `ende`, `ja` and `hector resume`: the player is Black, the player's own move is no
/// opponent's, and the export names the players where they sat.
#[test]
fn a_rematch_at_one_keyboard_resumes_with_the_players_colour() {
    let data = temp_dir("takeback-data");
    let mut t = play(&["--opponent", "keyboard"], &data);
    assert!(
        t.wait_for("Weiß ist am Zug", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    say(&mut t, "aufgeben", "Wirklich aufgeben?", 1);
    say(&mut t, "ja", "Schwarz gewinnt", 1);
    say(&mut t, "revanche", "Revanche: Sie spielen jetzt Schwarz", 1);
    say(&mut t, "e4", "Weiß: Eva vier", 1);
    say(&mut t, "c5", "Cäsar fünf", 1);
    say(&mut t, "Sf3", "Weiß: Springer Felix drei", 1);
    quit(&mut t);
    let env = Env::player(&data);
    let mut t = env.spawn(&["resume", "--screen-reader"]);
    assert!(
        t.wait_for(
            "Sie spielen Schwarz gegen einen zweiten Spieler an der Tastatur",
            LIMIT
        )
        .is_some(),
        "{}",
        t.all_output()
    );
    assert!(
        t.wait_for("Zuletzt: Zug 2, Weiß: Springer Felix drei", LIMIT)
            .is_some(),
        "{}",
        t.all_output()
    );
    // The player's own move is not labelled as the opponent's.
    say(&mut t, "d6", "David sechs", 1);
    say(&mut t, "d4", "Weiß: David vier", 1);
    assert!(
        !t.all_output().contains("Schwarz: David sechs"),
        "{}",
        t.all_output()
    );
    quit(&mut t);
    let games = hector(&["games"], &data);
    let pgn = hector(&["export", "2"], &data);
    let player = std::env::var("USER")
        .ok()
        .filter(|u| !u.is_empty() && u != "root")
        .unwrap_or_else(|| "Spieler".into());
    assert!(
        pgn.contains("[White \"Spieler 2\"]") && pgn.contains(&format!("[Black \"{player}\"]")),
        "{games}\n{pgn}"
    );
    assert!(pgn.contains("1. e4 c5 2. Nf3 d6 3. d4"), "{pgn}");
}
