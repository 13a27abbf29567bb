//! The walk through an analysed game, through the real binary in pseudo-terminals with the
//! real Stockfish: `hector analyse GAME --walk` stops at the known blunder, says and shows
//! the better line, returns, steps and answers the questions of play for the position looked
//! at; `analyse` typed after a game of `hector play` judges it and opens the same walk.

// Tests and benchmarks stop at the first surprise, and the pseudo-terminals need the
// system's calls: the crate's [lints] are for hector itself.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, unsafe_code)]
// The binary is driven through Unix pseudo-terminals and processes (tests/common).
#![cfg(unix)]

mod common;

use std::time::Duration;

use common::pty::Pty;
use common::{Env, data, temp_dir};

const LIMIT: Duration = Duration::from_secs(60);

fn typed(t: &mut Pty, line: &str) {
    t.send(line.as_bytes());
    t.send(b"\r");
}

fn expect(t: &Pty, needle: &str) {
    assert!(
        t.wait_for(needle, LIMIT).is_some(),
        "{needle}:\n{}",
        t.text()
    );
}

/// The engine may prefer any of the moves that keep the game: 3... g6, Qe7, Qf6.
const BETTER_DE: [&str; 3] = [
    "Besser: 3. Gustav sechs",
    "Besser: 3. Dame Eva sieben",
    "Besser: 3. Dame Felix sechs",
];

#[test]
fn the_walk_stops_at_the_blunder_and_shows_the_better_line() {
    let home = temp_dir("walk");
    let file = data("blunder.pgn");
    let mut t = Env::player(home.path()).spawn(&[
        "analyse",
        file.to_str().unwrap(),
        "--walk",
        // A fixed depth on one engine walking the game in order gives the same line every
        // run (its end is checked below); a time limit does not under load, and engines
        // sharing the positions differ in their hash.
        "--depth",
        "12",
        "--engines",
        "1",
        "--screen-reader",
        "--backend",
        "print",
    ]);
    expect(&t, "bewertet die Partie: 4 Züge");
    expect(
        &t,
        "Analyse. Weiß: 0 Ungenauigkeiten, 0 Fehler, 0 grobe Fehler. Schwarz:",
    );
    expect(&t, "1 grober Fehler");
    typed(&mut t, "fehler");
    expect(
        &t,
        "Vor 3. Schwarz: gespielt wurde Springer Felix sechs, grober Fehler. Finden Sie einen \
         besseren Zug, oder: besser",
    );
    // The position before the blunder answers every question.
    typed(&mut t, "feld f6");
    expect(&t, "Felix sechs: leer");
    typed(&mut t, "besser");
    expect(&t, "Besser: 3. ");
    let text = t.text();
    let said = BETTER_DE
        .iter()
        .find(|b| text.contains(**b))
        .unwrap_or_else(|| panic!("another better move:\n{text}"));
    // The better line's end is shown: the black knight did not come to f6 by g6 or a
    // queen's move, and f7 still stands.
    typed(&mut t, "feld f7");
    expect(&t, "Felix sieben: schwarzer Bauer");
    typed(&mut t, "zurück");
    expect(
        &t,
        "Zurück in der Partie. Rückblick nach 3. Weiß: Läufer Cäsar vier",
    );
    typed(&mut t, "vor");
    expect(
        &t,
        "Rückblick nach 3. Schwarz: Springer Felix sechs, grober Fehler",
    );
    typed(&mut t, "bewertung");
    expect(&t, "Weiß setzt in einem Zug matt");
    typed(&mut t, "Dxf7");
    expect(&t, "In der Analyse wird nicht gezogen");
    typed(&mut t, "fehler");
    expect(&t, "Danach kein Fehler mehr");
    typed(&mut t, "ende");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{said}\n{}", t.text());
    // Nothing was recorded: the walk made no journal.
    let games = home.path().join("games");
    let made = std::fs::read_dir(&games).map_or(0, |d| d.count());
    assert_eq!(made, 0, "{}", games.display());
}

#[test]
fn analyse_after_a_game_of_play_opens_the_walk() {
    let home = temp_dir("walk-play");
    let mut t = Env::player(home.path()).spawn(&[
        "play",
        "--opponent",
        "keyboard",
        "--speech",
        "print",
        "--new",
        "--screen-reader",
    ]);
    expect(&t, "Weiß ist am Zug");
    typed(&mut t, "fehler");
    expect(&t, "Die Analyse gibt es nach der Partie");
    // The fool's mate: 2. g4 is White's blunder.
    for mv in ["f3", "e5", "g4", "Dh4"] {
        typed(&mut t, mv);
    }
    expect(&t, "Schachmatt");
    typed(&mut t, "analyse");
    expect(&t, "Der Computer bewertet die Partie, 2 Züge. Bitte warten");
    expect(&t, "Analyse. Weiß:");
    expect(
        &t,
        "1 grober Fehler. Schwarz: 0 Ungenauigkeiten, 0 Fehler, 0 grobe Fehler",
    );
    typed(&mut t, "fehler");
    expect(&t, "Vor 2. Weiß: gespielt wurde Gustav vier");
    typed(&mut t, "wer");
    expect(&t, "Weiß ist am Zug");
    typed(&mut t, "besser");
    expect(&t, "Besser: 2. ");
    typed(&mut t, "ende");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.text());
}
