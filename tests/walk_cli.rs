//! The walk through an analysed game, through the real binary in pseudo-terminals with the
//! real Stockfish: `hector analyse GAME --walk` stops at the known blunder, says and shows
//! the better line, returns, steps and answers the questions of play for the position looked
//! at; `analyse` typed after a game of `hector play` judges it and opens the same walk.

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

use common::brltty::{Brltty, brltty_or_skip};
use common::pty::Pty;
use common::words::{DE, de_square_answer, play_line};
use common::{Env, SpeechDaemon, assert_in_order, data, temp_dir};
use shakmaty::{Chess, Position, san::San};

const LIMIT: Duration = Duration::from_secs(60);

/// Types `line` and Enter as one action: what follows is the answer (the line's echo
/// included, which `wait_answer` reads).
fn typed(t: &mut Pty, line: &str) {
    t.send(format!("{line}\r").as_bytes());
}

fn expect(t: &Pty, needle: &str) {
    t.expect(needle, LIMIT);
}

/// The position after `sans` from the start.
fn after(sans: &[&str]) -> Chess {
    let mut pos = Chess::default();
    for san in sans {
        let m = san
            .parse::<San>()
            .unwrap()
            .to_move(&pos)
            .unwrap_or_else(|e| panic!("{san}: {e}"));
        pos.play_unchecked(m);
    }
    pos
}

/// Types `besser` and reads the line said ("Besser: Zug 3, Schwarz: Gustav sechs; Zug 4,
/// Weiß: Dame Felix drei; Schwarz: Springer Felix sechs. Weiß steht …") with the test's own words, played from `before`
/// (the position looked at); then asks for squares where the line's end differs from
/// `before` and expects the end's pieces there: the board walked into the line, which a
/// `besser` that only spoke would not have done. The line's first move, in words, and the
/// squares it changed.
fn better_line_is_shown(
    t: &mut Pty,
    before: &Chess,
    first_number: &str,
) -> (String, Vec<shakmaty::Square>) {
    typed(t, "besser");
    t.wait_answer("besser", LIMIT);
    let said = t.since_mark();
    let start = format!("Besser: Zug {first_number}, ");
    let at = said
        .find(&start)
        .unwrap_or_else(|| panic!("no better line:\n{said}"));
    let rest = &said[at + "Besser: ".len()..];
    // The line ends where the evaluation begins: the first ". " after a move's words.
    let mut end = rest.len();
    let mut from = 0;
    while let Some(i) = rest[from..].find(". ") {
        let dot = from + i;
        if !rest[..dot].ends_with(|c: char| c.is_ascii_digit()) {
            end = dot;
            break;
        }
        from = dot + 2;
    }
    let line = &rest[..end];
    let (end_pos, moves) =
        play_line(before, &DE, line).unwrap_or_else(|| panic!("a line of legal moves: {line}"));
    assert!(!moves.is_empty(), "{line}");
    let changed: Vec<shakmaty::Square> = shakmaty::Square::ALL
        .into_iter()
        .filter(|&sq| before.board().piece_at(sq) != end_pos.board().piece_at(sq))
        .collect();
    assert!(!changed.is_empty(), "{line}");
    for &sq in &changed {
        typed(t, &format!("feld {sq}"));
        expect(t, &de_square_answer(&end_pos, sq));
    }
    (
        line.split(';')
            .next()
            .and_then(|m| m.rsplit_once(": "))
            .map_or("", |(_, m)| m)
            .to_string(),
        changed,
    )
}

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
        // The name every mode gives the speech output (analyse's old --backend is kept).
        "--speech",
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
        "Vor Zug 3, Schwarz: gespielt wurde Springer Felix sechs, grober Fehler. besser nennt \
         den besseren Zug",
    );
    // The position before the blunder answers every question.
    typed(&mut t, "feld f6");
    expect(&t, "Felix sechs: leer");
    // The engine may prefer any of the moves that keep the game (3... g6, Qe7, Qf6); the
    // board at the end of its line is the one shown.
    let before = after(&["e4", "e5", "Qh5", "Nc6", "Bc4"]);
    let (said, changed) = better_line_is_shown(&mut t, &before, "3");
    typed(&mut t, "zurück");
    expect(
        &t,
        "Zurück in der Partie. Rückblick nach Zug 3, Weiß: Läufer Cäsar vier",
    );
    // Back in the game: the squares the line changed are as they were.
    for sq in changed {
        typed(&mut t, &format!("feld {sq}"));
        expect(&t, &de_square_answer(&before, sq));
    }
    typed(&mut t, "vor");
    expect(
        &t,
        "Rückblick nach Zug 3, Schwarz: Springer Felix sechs, grober Fehler",
    );
    typed(&mut t, "bewertung");
    expect(&t, "Weiß setzt in einem Zug matt");
    typed(&mut t, "Dxf7");
    expect(&t, "In der Analyse wird nicht gezogen");
    typed(&mut t, "fehler");
    expect(&t, "Danach kein Fehler mehr");
    typed(&mut t, "ende");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{said}\n{}", t.all_output());
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
    expect(&t, "Vor Zug 2, Weiß: gespielt wurde Gustav vier");
    // The position before 2. g4 answers, not the game's end (where the queen gives mate
    // from h4 and a pawn stands on g4).
    typed(&mut t, "feld g4");
    expect(&t, "Gustav vier: leer");
    typed(&mut t, "feld h4");
    expect(&t, "Hector vier: leer");
    let before = after(&["f3", "e5"]);
    better_line_is_shown(&mut t, &before, "2");
    typed(&mut t, "ende");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}

/// Each answer of the walk reaches the player whole and in order, through the real clients:
/// the full screen of 80x24 speaking through a speech-dispatcher whose module says a sentence
/// in a quarter of a second (an answer cut short loses its later sentences), and a BRLTTY of
/// 40 cells, which flashes each answer from its beginning.
#[test]
fn the_walks_answers_are_heard_whole_and_flashed() {
    if !brltty_or_skip("the_walks_answers_are_heard_whole_and_flashed") {
        return;
    }
    let home = temp_dir("walk-answers");
    let daemon = SpeechDaemon::speaking_slowly();
    let display = Brltty::tt(40);
    let file = data("blunder.pgn");
    let mut t = Env::player(home.path())
        .speech(&daemon)
        .braille_host(&display.host())
        .spawn_sized(
            &[
                "analyse",
                file.to_str().unwrap(),
                "--walk",
                "--depth",
                "12",
                "--engines",
                "1",
                "--speech",
                "speech-dispatcher",
            ],
            80,
            24,
        );
    // The judgement of the whole game: both sides, then what to type.
    let heard = daemon.heard_until(0, "hilfe sagt mehr", LIMIT);
    assert_in_order(
        &heard,
        &[
            "Analyse. Weiß: 0 Ungenauigkeiten, 0 Fehler, 0 grobe Fehler.",
            "Schwarz: 0 Ungenauigkeiten, 0 Fehler, 1 grober Fehler.",
            "fehler springt zum nächsten Fehler",
        ],
    );
    display.assert_flashed("Analyse. Weiß:", &heard);
    // The mistake: the move played, then what to ask.
    let before = daemon.spoken().len();
    typed(&mut t, "fehler");
    let heard = daemon.heard_when_quiet(before, LIMIT);
    assert_in_order(
        &heard,
        &[
            "Vor Zug 3, Schwarz: gespielt wurde Springer Felix sechs, grober Fehler.",
            "besser nennt den besseren Zug",
        ],
    );
    assert!(!heard.contains("Analyse."), "{heard}");
    display.assert_flashed("Vor Zug 3, Schwarz", &heard);
    // The better line, every move of it, and after it the judgement of where it leads.
    let before = daemon.spoken().len();
    typed(&mut t, "besser");
    let heard = daemon.heard_when_quiet(before, LIMIT);
    assert_in_order(&heard, &["Besser: Zug 3, Schwarz: ", "; Zug 5, Weiß: "]);
    let last = heard
        .rsplit(". ")
        .next()
        .unwrap_or_default()
        .trim_end_matches('.');
    assert!(
        ["Ausgeglichen", " steht ", " setzt in "]
            .iter()
            .any(|w| last.contains(w)),
        "the line is not followed by its judgement: {heard}"
    );
    display.assert_flashed("Besser: Zug 3", &heard);
    // Back: the position looked at, said once.
    let before = daemon.spoken().len();
    typed(&mut t, "zurück");
    let heard = daemon.heard_when_quiet(before, LIMIT);
    assert!(heard.starts_with("Zurück in der Partie."), "{heard}");
    assert!(!heard.contains("Besser:"), "{heard}");
    display.assert_flashed("Zurück in der Partie", &heard);
    typed(&mut t, "ende");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}
