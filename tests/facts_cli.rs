//! The facts hector states, in Spanish, French and Dutch as in German and English: whose move
//! it is, who won, and the puzzle rating, each said in every language and checked against the
//! test's own words for the sides (tests/common/words.rs, from the languages' sources) and the
//! rating worked out here by the Elo formula of docs/TRAINING.md. A table whose colours were
//! swapped, or a message that named the wrong side, turns these red.

#![allow(
    clippy::unwrap_used,
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
use common::words::{self, Words};
use common::{Env, temp_dir};

const LIMIT: Duration = Duration::from_secs(30);

/// A language's commands as a player types them.
struct Commands {
    code: &'static str,
    turn: &'static str,
    resign: &'static str,
    yes: &'static str,
    quit: &'static str,
    solution: &'static str,
}

const LANGUAGES: [Commands; 5] = [
    Commands {
        code: "es",
        turn: "turno",
        resign: "abandonar",
        yes: "sí",
        quit: "salir",
        solution: "solución",
    },
    Commands {
        code: "fr",
        turn: "trait",
        resign: "abandonner",
        yes: "oui",
        quit: "quitter",
        solution: "solution",
    },
    Commands {
        code: "nl",
        turn: "beurt",
        resign: "opgeven",
        yes: "ja",
        quit: "stoppen",
        solution: "oplossing",
    },
    Commands {
        code: "de",
        turn: "wer",
        resign: "aufgeben",
        yes: "ja",
        quit: "ende",
        solution: "lösung",
    },
    Commands {
        code: "en",
        turn: "turn",
        resign: "resign",
        yes: "yes",
        quit: "quit",
        solution: "solution",
    },
];

/// Types `line` and returns hector's answer to it (up to its next prompt).
fn answer(t: &mut Pty, line: &str) -> String {
    t.send(format!("{line}\r").as_bytes());
    t.wait_answer(line, LIMIT);
    let said = t.since_mark();
    // After the echo of the line typed, before the prompt.
    let after = said
        .split_once(&format!("{line}\r\n"))
        .map_or(said.as_str(), |(_, a)| a);
    after
        .rsplit_once("\r\n")
        .map_or(after, |(a, _)| a)
        .to_string()
}

/// The sentence names `side` and not the other side.
fn names_only(said: &str, side: &str, other: &str, what: &str) {
    let lower = said.to_lowercase();
    assert!(
        lower.contains(&side.to_lowercase()) && !lower.contains(&other.to_lowercase()),
        "{what}: {side:?} and not {other:?} in {said:?}"
    );
}

#[test]
fn whose_move_it_is_and_who_won_in_every_language() {
    for c in &LANGUAGES {
        let w: &Words = words::of(c.code);
        let data = temp_dir("facts");
        let mut t = Env::player(data.path()).spawn(&[
            "play",
            "--screen-reader",
            "--opponent",
            "keyboard",
            "--new",
            "--lang",
            c.code,
        ]);
        ready(&t);
        let said = answer(&mut t, c.turn);
        names_only(
            &said,
            w.white,
            w.black,
            &format!("{}: the turn at the start", c.code),
        );
        answer(&mut t, "e4");
        let said = answer(&mut t, c.turn);
        names_only(
            &said,
            w.black,
            w.white,
            &format!("{}: the turn after e4", c.code),
        );
        // Black resigns: White wins.
        answer(&mut t, c.resign);
        let said = answer(&mut t, c.yes);
        names_only(&said, w.white, w.black, &format!("{}: the winner", c.code));
        t.send(format!("{}\r", c.quit).as_bytes());
        assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    }
}

/// The puzzle rating after a solution shown, in every language: the number and its change,
/// in speech and in the file.
#[test]
fn the_puzzle_rating_in_every_language() {
    for c in &LANGUAGES {
        let data = temp_dir("facts-puzzle");
        let mut t = Env::player(data.path()).spawn(&[
            "puzzle",
            "--screen-reader",
            "--speech",
            "print",
            "--rating",
            "1500",
            "--lang",
            c.code,
        ]);
        ready(&t);
        let asked = t.all_output();
        let said = answer(&mut t, c.solution);
        t.send(format!("{}\r", c.quit).as_bytes());
        assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
        let kept = std::fs::read_to_string(data.join("puzzles.progress")).unwrap();
        let id = kept
            .lines()
            .nth(2)
            .and_then(|l| l.split_whitespace().next())
            .unwrap_or_else(|| panic!("{}: the puzzle played: {kept}", c.code));
        // The question names the side to move: the one after the opponent's first move.
        let question = asked
            .lines()
            .find(|l| l.contains(id))
            .unwrap_or_else(|| panic!("{}: no question of {id}: {asked}", c.code));
        let w = words::of(c.code);
        let (side, other) = if white_to_move_in_fen(id) {
            (w.black, w.white)
        } else {
            (w.white, w.black)
        };
        names_only(
            question,
            side,
            other,
            &format!("{}: the puzzle's side", c.code),
        );
        let (rating, change) = elo(1500, rating_of(id), false);
        assert!(
            said.contains(&format!("{rating} ({change})")),
            "{}: {rating} ({change}) in {said:?}",
            c.code
        );
        assert!(
            kept.starts_with(&format!("hector-puzzles 1\nrating {rating}\n")),
            "{kept}"
        );
    }
}

/// Waits until hector asks for input (its prompt ends the output).
fn ready(t: &Pty) {
    let deadline = std::time::Instant::now() + LIMIT;
    while !t.all_output().ends_with(": ") {
        assert!(std::time::Instant::now() < deadline, "{}", t.all_output());
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Whether White is to move in the puzzle's FEN (before the opponent's first move).
fn white_to_move_in_fen(id: &str) -> bool {
    let csv = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/puzzles/puzzles.csv"),
    )
    .unwrap();
    let row = csv
        .lines()
        .find(|l| l.starts_with(&format!("{id},")))
        .unwrap_or_else(|| panic!("no puzzle {id}"));
    row.split(',').nth(1).unwrap().split(' ').nth(1) == Some("w")
}

/// The rating of a shipped puzzle, from the file itself.
fn rating_of(id: &str) -> i32 {
    let csv = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/puzzles/puzzles.csv"),
    )
    .unwrap();
    let row = csv
        .lines()
        .find(|l| l.starts_with(&format!("{id},")))
        .unwrap_or_else(|| panic!("no puzzle {id}"));
    row.split(',').nth(3).unwrap().parse().unwrap()
}

/// The rating after a puzzle by the Elo formula with K = 32 (docs/TRAINING.md).
fn elo(player: i32, puzzle: i32, solved: bool) -> (i32, String) {
    let expected = 1.0 / (1.0 + 10f64.powf(f64::from(puzzle - player) / 400.0));
    let score = if solved { 1.0 } else { 0.0 };
    let change = (32.0 * (score - expected)).round() as i32;
    let sign = if change > 0 { "+" } else { "" };
    (player + change, format!("{sign}{change}"))
}
