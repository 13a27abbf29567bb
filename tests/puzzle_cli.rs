//! `hector puzzle` and `hector play --from-puzzle` through the real binary in
//! pseudo-terminals: a puzzle of the shipped set near the rating and of the theme asked is
//! played through (each move of the solution typed, the opponent's answers said), the rating
//! moves and is kept, a puzzle played does not come again; a theme that does not exist is
//! refused; a puzzle's position is played against Stockfish, said as "win this".

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, unsafe_code)]
// The binary is driven through Unix pseudo-terminals and processes (tests/common).
#![cfg(unix)]

mod common;

use std::time::Duration;

use common::pty::Pty;
use common::sim::Simulator;
use common::{Env, temp_dir};

const LIMIT: Duration = Duration::from_secs(60);

fn env(dir: &std::path::Path) -> Env {
    Env::player(dir)
}

fn spawn(args: &[&str], dir: &std::path::Path) -> Pty {
    env(dir).spawn(args)
}

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

/// The moves of a shipped puzzle, from the file itself.
fn moves_of(id: &str) -> Vec<String> {
    let csv = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/puzzles/puzzles.csv"),
    )
    .unwrap();
    let row = csv
        .lines()
        .find(|l| l.starts_with(&format!("{id},")))
        .unwrap_or_else(|| panic!("no puzzle {id}"));
    row.split(',')
        .nth(2)
        .unwrap()
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// The position of a shipped puzzle as it is asked: after the opponent's first move.
fn asked_fen(id: &str) -> String {
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;
    use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};
    let csv = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/puzzles/puzzles.csv"),
    )
    .unwrap();
    let row = csv
        .lines()
        .find(|l| l.starts_with(&format!("{id},")))
        .unwrap_or_else(|| panic!("no puzzle {id}"));
    let fen: Fen = row.split(',').nth(1).unwrap().parse().unwrap();
    let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
    let first: UciMove = moves_of(id)[0].parse().unwrap();
    let first = first.to_move(&pos).unwrap();
    let pos = pos.play(first).unwrap();
    Fen::from_position(&pos, EnPassantMode::Legal).to_string()
}

/// The id in "Aufgabe ID, Wertung".
fn asked_id(text: &str, after: usize) -> String {
    let at = text[after..].find("Aufgabe ").unwrap() + after + "Aufgabe ".len();
    text[at..].split(',').next().unwrap().to_string()
}

fn puzzle(dir: &std::path::Path) -> Pty {
    spawn(
        &[
            "puzzle",
            "--theme",
            "Gabel",
            "--rating",
            "1500",
            "--speech",
            "print",
            "--screen-reader",
        ],
        dir,
    )
}

#[test]
fn a_puzzle_of_the_theme_is_played_through_and_the_rating_kept() {
    let home = temp_dir("puzzle");
    let mut t = puzzle(home.path());
    expect(&t, "Aufgaben. Ihre Wertung: 1500, Thema Gabel");
    expect(&t, "Finden Sie den besten Zug");
    let text = t.text();
    assert!(text.contains("Gabel"), "{text}");
    let id = asked_id(&text, 0);
    let moves = moves_of(&id);
    // The solver's moves are every second one after the opponent's first.
    for (i, mv) in moves.iter().enumerate().skip(1).step_by(2) {
        typed(&mut t, mv);
        if i + 1 < moves.len() {
            expect(&t, "Richtig: ");
        }
    }
    expect(&t, "Gelöst: ");
    expect(&t, "Ihre Wertung: 15");
    expect(&t, "(+");
    expect(&t, "Finden Sie den besten Zug");
    typed(&mut t, "tipp");
    expect(&t, "Tipp: ");
    typed(&mut t, "ende");
    expect(&t, "Ende: 1 von 1 gelöst");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.text());
    let kept = std::fs::read_to_string(home.path().join("puzzles.progress")).unwrap();
    assert!(kept.starts_with("hector-puzzles 1\nrating 15"), "{kept}");
    assert!(kept.contains(&format!("\n{id} 1\n")), "{kept}");

    // The next session: the puzzle solved does not come again.
    let mut t = puzzle(home.path());
    expect(&t, "Finden Sie den besten Zug");
    let again = asked_id(&t.text(), 0);
    assert_ne!(again, id);
    typed(&mut t, "lösung");
    expect(&t, "Die Lösung: ");
    typed(&mut t, "ende");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.text());
}

#[test]
fn a_puzzle_is_solved_on_an_e_board() {
    let home = temp_dir("puzzle-board");
    let link = home.path().join("board");
    let mut sim = Simulator::start("dgt", &link);
    let link_text = link.display().to_string();
    let mut t = spawn(
        &[
            "puzzle",
            "--theme",
            "Gabel",
            "--rating",
            "1500",
            "--board",
            &link_text,
            "--protocol",
            "dgt",
            "--speech",
            "print",
            "--screen-reader",
        ],
        home.path(),
    );
    expect(&t, "Finden Sie den besten Zug");
    let id = asked_id(&t.text(), 0);
    let moves = moves_of(&id);
    // The board is set up to the position asked about; the answers are made on it, and so
    // are the opponent's replies hector says.
    let fen = asked_fen(&id);
    sim.send(&format!("setup {fen}"));
    for (i, mv) in moves.iter().enumerate().skip(1) {
        sim.send(&format!("move {mv}"));
        if i % 2 == 1 && i + 1 < moves.len() {
            expect(&t, "Richtig: ");
        }
    }
    expect(&t, "Gelöst: ");
    typed(&mut t, "ende");
    expect(&t, "Ende: 1 von 1 gelöst");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.text());
}

#[test]
fn a_new_players_data_folder_is_made_for_the_puzzles_progress() {
    let home = temp_dir("puzzle-new");
    // The games and the progress go to home/data, which does not exist yet.
    let mut t =
        Env::player_home(home.path()).spawn(&["puzzle", "--screen-reader", "--speech", "print"]);
    expect(&t, "Finden Sie den besten Zug");
    typed(&mut t, "lösung");
    expect(&t, "Die Lösung: ");
    typed(&mut t, "ende");
    expect(&t, "Ende: 0 von 1 gelöst");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.text());
    assert!(
        !t.text().contains("kann nicht gespeichert werden"),
        "{}",
        t.text()
    );
    assert!(
        home.path().join("data/puzzles.progress").is_file(),
        "{}",
        t.text()
    );
}

#[test]
fn a_theme_that_does_not_exist_is_refused() {
    let home = temp_dir("puzzle-theme");
    let env = env(home.path());
    let env = env.vars();
    let run = common::run_with(
        &[
            "puzzle",
            "--theme",
            "Blumen",
            "--screen-reader",
            "--speech",
            "print",
        ],
        b"",
        &env,
        LIMIT,
    );
    assert_eq!(run.code, Some(2), "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("Das Thema Blumen gibt es nicht. Themen: "),
        "{}",
        run.stderr
    );
}

#[test]
fn a_puzzles_position_is_played_against_the_computer() {
    let home = temp_dir("from-puzzle");
    // 000tp: after 34. Qxb6 Black traps the queen's partner and wins.
    let mut t = spawn(
        &[
            "play",
            "--from-puzzle",
            "000tp",
            "--speech",
            "print",
            "--screen-reader",
        ],
        home.path(),
    );
    expect(&t, "Gewinnen Sie das: Schwarz am Zug.");
    typed(&mut t, "Se4");
    // The computer answers at full strength.
    expect(&t, "Weiß: ");
    typed(&mut t, "ende");
    expect(&t, "?");
    typed(&mut t, "ja");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.text());

    let env = env(home.path());
    let env = env.vars();
    let run = common::run_with(
        &[
            "play",
            "--from-puzzle",
            "nichts",
            "--screen-reader",
            "--speech",
            "print",
        ],
        b"",
        &env,
        LIMIT,
    );
    assert_ne!(run.code, Some(0));
    assert!(
        run.stderr.contains("Die Aufgabe nichts gibt es nicht"),
        "{}",
        run.stderr
    );
}

#[test]
fn the_full_screen_shows_the_puzzle_and_its_board() {
    let home = temp_dir("puzzle-screen");
    let env = env(home.path());
    let env = env.vars();
    let mut t = Pty::spawn_sized(
        &["puzzle", "--rating", "1661", "--speech", "print"],
        &env,
        100,
        32,
    );
    assert!(t.wait_for_screen("Aufgabe 00LII", LIMIT), "{}", t.screen());
    typed(&mut t, "h8h4");
    assert!(
        t.wait_for_screen("Richtig: Turm schlägt Hector vier", LIMIT),
        "{}",
        t.screen()
    );
    typed(&mut t, "ende");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.screen());
}
