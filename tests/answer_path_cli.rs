//! A result and the next question reach the player whole and in order, through the real
//! clients: the full screen of 80x24 speaking through a private speech-dispatcher (whose
//! capturing module writes each sentence as the daemon hands it on and takes a while to say
//! it, so an utterance cut short loses its later sentences) and a private BRLTTY of 40 cells.
//! After the solution of a puzzle is asked for, the solution, the new rating and then the
//! next puzzle are heard, and the display flashes the solution, not the next puzzle's
//! heading; the training's solution is heard with its whole line and, the round's last
//! answer, flashed until a key before the round ends; F1 in a puzzle speaks the puzzle's
//! help, then the keys.

#![cfg(unix)]
#![allow(
    clippy::expect_used,
    clippy::panic,
    unsafe_code,
    reason = "tests stop at the first surprise, and the pseudo-terminals need the system's calls; the crate's lints are for hector itself"
)]

mod common;

use std::time::Duration;

use common::brltty::{Brltty, brltty_or_skip};
use common::{Env, SpeechDaemon, assert_in_order, temp_dir, words};

const LIMIT: Duration = Duration::from_secs(60);

fn heard_until(daemon: &SpeechDaemon, from: usize, last: &str) -> String {
    daemon.heard_until(from, last, LIMIT)
}

/// The process is there and has not ended (a zombie has).
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            s.rsplit_once(')')
                .map(|(_, rest)| !rest.trim_start().starts_with('Z'))
        })
        .unwrap_or(false)
}

#[test]
fn a_puzzles_solution_and_rating_are_heard_and_flashed_before_the_next_puzzle() {
    if !brltty_or_skip("a_puzzles_solution_and_rating_are_heard") {
        return;
    }
    let daemon = SpeechDaemon::speaking_slowly();
    let display = Brltty::tt(40);
    let home = temp_dir("answer-path-puzzle");
    let mut t = Env::player(home.path())
        .speech(&daemon)
        .braille_host(&display.host())
        .spawn_80x24(&[
            "puzzle",
            "--theme",
            "Gabel",
            "--rating",
            "1500",
            "--speech",
            "speech-dispatcher",
        ]);
    t.expect_screen("Finden Sie den besten Zug", LIMIT);
    heard_until(&daemon, 0, "Finden Sie den besten Zug");
    let before = daemon.spoken().len();
    t.send("lösung\r".as_bytes());
    // Heard: the solution, then the rating, then (only then) the next puzzle.
    let heard = heard_until(&daemon, before, "Finden Sie den besten Zug");
    let solution = heard
        .find("Die Lösung: ")
        .unwrap_or_else(|| panic!("no solution heard: {heard}"));
    let rating = heard
        .find("Ihre Wertung: ")
        .unwrap_or_else(|| panic!("no rating heard: {heard}"));
    let next = heard
        .find("Aufgabe ")
        .unwrap_or_else(|| panic!("no next puzzle heard: {heard}"));
    assert!(solution < rating && rating < next, "{heard}");
    // The rating heard is the new one: a new player's 1500 and the change said, which a
    // solution shown makes a loss.
    let (value, change) = heard[rating + "Ihre Wertung: ".len()..]
        .split_once(" (")
        .and_then(|(value, rest)| Some((value.parse::<i32>().ok()?, rest.split_once(')')?.0)))
        .unwrap_or_else(|| panic!("no rating and change heard: {heard}"));
    let change: i32 = change
        .parse()
        .unwrap_or_else(|_| panic!("change {change:?}: {heard}"));
    assert!(change < 0 && value == 1500 + change, "{heard}");
    // The moves of the solution are said as sentences of their own, not "34..." or "35.",
    // where speech breaks: no sentence of what was heard is a bare move number.
    for sentence in daemon.spoken().iter().skip(before) {
        let text = sentence.split_once('|').map_or("", |(_, s)| s).trim();
        let last = text.rsplit(' ').next().unwrap_or("");
        let number = last.trim_end_matches('.');
        assert!(
            number.is_empty()
                || number.len() == last.len()
                || !number.chars().all(|c| c.is_ascii_digit()),
            "a sentence ends in a move number: {text:?}\n{heard}"
        );
    }
    // Braille: the answer flashed is the solution, from its beginning.
    let shown = display.wait_until(LIMIT, |s| s.text.starts_with("Die Lösung"));
    assert!(
        shown.is_some(),
        "the display shows {:?}; heard: {heard}",
        display.shown()
    );
    t.send(b"ende\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    // And it is the rating kept.
    let kept = std::fs::read_to_string(home.path().join("puzzles.progress")).unwrap();
    assert!(
        kept.starts_with(&format!("hector-puzzles 1\nrating {value}\n")),
        "{kept}"
    );
}

#[test]
fn f1_in_a_puzzle_speaks_the_puzzles_help_then_the_keys() {
    let daemon = SpeechDaemon::speaking_slowly();
    let home = temp_dir("answer-path-f1");
    let mut t = Env::player(home.path()).speech(&daemon).spawn_80x24(&[
        "puzzle",
        "--theme",
        "Gabel",
        "--speech",
        "speech-dispatcher",
    ]);
    t.expect_screen("Finden Sie den besten Zug", LIMIT);
    heard_until(&daemon, 0, "Finden Sie den besten Zug");
    let before = daemon.spoken().len();
    t.send(b"\x1bOP");
    // The puzzle's own help, whole, and only then the keys.
    let heard = heard_until(&daemon, before, "Strg Q beenden");
    assert_in_order(
        &heard,
        &[
            "Aufgaben: ziehen Sie den besten Zug",
            "lösung zeigt die Lösung",
            "gelten wie im Spiel.",
            "Tasten: Pfeile gehen über die Felder",
            "Strg Q beenden",
        ],
    );
    assert!(!heard.contains("Finden Sie den besten Zug"), "{heard}");
    t.send(b"ende\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}

/// A game of hector play where Black blunders with 3... Nf6?? and is mated: the position the
/// training asks about.
fn blunder_game(dir: &std::path::Path) {
    let mut t = Env::player(dir).spawn(&[
        "play",
        "--opponent",
        "keyboard",
        "--color",
        "black",
        "--speech",
        "print",
        "--new",
        "--screen-reader",
    ]);
    t.expect("Weiß ist am Zug", LIMIT);
    for mv in ["e4", "e5", "Dh5", "Sc6", "Lc4", "Sf6", "Dxf7"] {
        t.send(mv.as_bytes());
        t.send(b"\r");
    }
    t.expect("Schachmatt", LIMIT);
    t.send(b"ende\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}

#[test]
fn the_trainings_last_solution_is_heard_whole_and_flashed_before_the_round_ends() {
    if !brltty_or_skip("the_trainings_last_solution_is_heard_whole") {
        return;
    }
    let home = temp_dir("answer-path-train");
    blunder_game(home.path());
    let daemon = SpeechDaemon::speaking_slowly();
    let mut display = Brltty::tt(40);
    let mut t = Env::player(home.path())
        .speech(&daemon)
        .braille_host(&display.host())
        .spawn_80x24(&[
            "train",
            "--movetime",
            "200",
            "--speech",
            "speech-dispatcher",
        ]);
    t.expect_screen("finden Sie einen besseren Zug", LIMIT);
    heard_until(&daemon, 0, "grober Fehler");
    assert!(
        display
            .wait_until(LIMIT, |s| !s.text.starts_with("Die Lösung"))
            .is_some(),
        "{:?}",
        display.shown()
    );
    let before = daemon.spoken().len();
    // The round's only position: its solution is the round's last answer.
    t.send("lösung\r".as_bytes());
    // The solution, then its line, each heard; what follows comes after them.
    let heard = heard_until(&daemon, before, "Die Linie: ");
    let solution = heard
        .find("Die Lösung: ")
        .unwrap_or_else(|| panic!("no solution heard: {heard}"));
    let line_at = heard.find("Die Linie: ").unwrap();
    assert!(solution < line_at, "{heard}");
    // The solution is the engine's, so any move that keeps the game is right (read in the
    // words of Appendix D, the mate on f7 stopped).
    let said = heard[solution + "Die Lösung: ".len()..line_at]
        .trim()
        .trim_end_matches('.');
    if let Err(why) = words::better_than_blunder(&words::DE, said) {
        panic!("the solution: {why}: {heard}");
    }
    // Braille: the solution is flashed, from its beginning, and hector waits for a key
    // (the hold is "until a key") before the round ends.
    let shown = display.wait_until(LIMIT, |s| s.text.starts_with("Die Lösung"));
    assert!(
        shown.is_some(),
        "the display shows {:?}; heard: {heard}",
        display.shown()
    );
    // The display's panning keys do not end the hold: the next part of the solution is
    // shown, by hector, which is still there; only then a key.
    let first = shown.unwrap().text;
    assert!(
        first.ends_with('»'),
        "the solution fits the display: {first:?}"
    );
    display.pan_right();
    let next = display
        .wait_until(LIMIT, |s| s.text != first)
        .unwrap_or_else(|| panic!("panning did not move past {first:?}"));
    assert!(!next.text.starts_with("Die Lösung"), "{next:?}");
    assert!(running(t.pid()), "ended before a key: {}", t.all_output());
    t.send(b" ");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}
