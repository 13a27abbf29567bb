//! `hector analyse` through the real binary with the real Stockfish, a short time per
//! position: a known blunder found and the better move named in Appendix D words, the
//! annotated PGN read back by pgn-extract and by python-chess in its strict mode, a recorded
//! game by its number, and a terminal.

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
#[path = "common/pgn_readers.rs"]
mod pgn_readers;

use std::process::Command;
use std::time::Duration;

use common::pty::Pty;
use common::{Env, data, find_program, run_with, temp_dir, words};
use hector::core::record::{encode_entry, encode_header, import_pgn};

const LIMIT: Duration = Duration::from_secs(60);

fn path_with_games() -> String {
    format!(
        "{}:/usr/games",
        std::env::var("PATH").unwrap_or_else(|_| "/usr/bin:/bin".into())
    )
}

fn analyse(args: &[&str]) -> common::Run {
    let path = path_with_games();
    let home = temp_dir("analyse-home");
    let home = home.path().to_str().unwrap().to_string();
    let mut all = vec!["analyse"];
    all.extend_from_slice(args);
    run_with(
        &all,
        b"",
        &[("PATH", &path), ("HOME", &home), ("HECTOR_CONFIG", "")],
        LIMIT,
    )
}

/// The better move named after `marker` in `text` (up to the sentence's end), when it keeps
/// the game: the engine may prefer any such move (3... g6, Qe7, Qf6, Nh6, …), read with the
/// test's own words.
fn better_named(text: &str, marker: &str, w: &words::Words) -> Result<(), String> {
    let at = text.find(marker).ok_or_else(|| format!("no {marker:?}"))?;
    let rest = &text[at + marker.len()..];
    let said = rest.split_once('.').map_or(rest, |(m, _)| m);
    words::better_than_blunder(w, said).map(|_| ())
}

#[test]
fn errors_finds_the_blunder_and_names_the_better_move() {
    let file = data("blunder.pgn");
    let r = analyse(&[file.to_str().unwrap(), "--errors", "--movetime", "100"]);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert!(
        lines[0].contains("bewertet die Partie: 4 Züge"),
        "{}",
        r.stdout
    );
    let blunder = lines
        .iter()
        .find(|l| l.starts_with("Zug 3, Schwarz: Springer Felix sechs, grober Fehler. Besser: "))
        .unwrap_or_else(|| panic!("no blunder found:\n{}", r.stdout));
    if let Err(why) = better_named(blunder, "Besser: ", &words::DE) {
        panic!("{why}: {blunder}");
    }
    assert!(
        blunder.ends_with("Weiß setzt in einem Zug matt"),
        "{blunder}"
    );
    // Black's summary: the one blunder, and as many mistakes as are listed. How many
    // inaccuracies the engine finds in 1... e5 and 2... Nc6 is its business (none, at any
    // depth it reaches here, but not a rule), and --errors does not list them.
    let summary = r
        .stdout
        .lines()
        .filter_map(|l| l.split_once("Schwarz: ").map(|(_, s)| s))
        .find(|s| s.contains(" Ungenauigkeit"))
        .unwrap_or_else(|| panic!("no summary for Black:\n{}", r.stdout));
    let listed_mistakes = lines
        .iter()
        .filter(|l| l.contains(". Schwarz: ") && l.contains(", Fehler"))
        .count();
    let counts = summary
        .split_once(" Ungenauigkeit")
        .and_then(|(_, rest)| rest.split_once(", "))
        .map_or("", |(_, counts)| counts);
    assert!(
        counts.starts_with(&format!("{listed_mistakes} Fehler, 1 grober Fehler")),
        "{}",
        r.stdout
    );
    // Only the turning point: no other half-move is said.
    assert!(!r.stdout.contains("Eva vier"), "{}", r.stdout);
}

#[test]
fn every_move_in_english_with_evaluations() {
    let file = data("blunder.pgn");
    let r = analyse(&[file.to_str().unwrap(), "--lang", "en", "--movetime", "50"]);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    // The start and each of the 7 half-moves with an evaluation: a pawn figure, or a mate.
    let judged: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("Start position: ") || l.starts_with("Move "))
        .collect();
    assert_eq!(judged.len(), 8, "{}", r.stdout);
    for line in &judged {
        // "plus 0.3", "minus 1.8", or a bare "0.0" when the engine says the position is even.
        let figure = line.rsplit_once(", ").is_some_and(|(_, f)| {
            let f = f
                .strip_prefix("plus ")
                .or_else(|| f.strip_prefix("minus "))
                .unwrap_or(f);
            f.parse::<f64>().is_ok()
        });
        assert!(
            figure || line.contains("mates in") || line.ends_with("White has won"),
            "no evaluation: {line}"
        );
    }
    assert!(
        judged[1].starts_with("Move 1, White: Eva four. "),
        "{}",
        r.stdout
    );
    let blunder = judged
        .iter()
        .find(|l| l.starts_with("Move 3, Black: Knight Felix six, blunder. Better: "))
        .unwrap_or_else(|| panic!("no blunder:\n{}", r.stdout));
    if let Err(why) = better_named(blunder, "Better: ", &words::EN) {
        panic!("{why}: {blunder}");
    }
    assert!(
        r.stdout.contains(
            "Move 4, White: Queen takes Felix seven, checkmate. Checkmate, White has won"
        ),
        "{}",
        r.stdout
    );
}

#[test]
fn pgn_has_evaluations_and_the_better_move_and_pgn_extract_reads_it() {
    let file = data("blunder.pgn");
    let r = analyse(&[file.to_str().unwrap(), "--pgn", "--movetime", "50"]);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("[%eval "), "{}", r.stdout);
    assert!(r.stdout.contains("[White \"Anna\"]"), "{}", r.stdout);
    let flat = r.stdout.replace('\n', " ");
    assert!(
        flat.contains("3... Nf6 $4 { [%eval #1] } ( 3... "),
        "{flat}"
    );
    assert!(flat.contains("4. Qxf7# 1-0"), "{flat}");
    let dir = temp_dir("analyse-pgn");
    let written = dir.join("judged.pgn");
    let r = analyse(&[
        file.to_str().unwrap(),
        "--pgn",
        "--movetime",
        "50",
        "--output",
        written.to_str().unwrap(),
    ]);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    let text = std::fs::read_to_string(&written).unwrap();
    assert!(text.contains("[%eval "), "{text}");
    // The file is a game again: the same moves when read back.
    let again = import_pgn(text.as_bytes(), 1).unwrap();
    assert_eq!(again.game.ply(), 7);
    let pgn_extract = find_program("pgn-extract").expect("pgn-extract: run scripts/setup");
    let out = Command::new(pgn_extract)
        .arg("-s")
        .arg(&written)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let read = String::from_utf8_lossy(&out.stdout).replace('\n', " ");
    assert!(
        read.contains("[%eval #1]") && read.contains("(3... "),
        "{read}"
    );
    // The tags in the standard's export order, as pgn-extract writes them in that order, and
    // python-chess reads the game strictly, to the mate.
    let sections = pgn_readers::tag_sections(&text);
    assert_eq!(sections.len(), 1, "{text}");
    assert!(pgn_readers::in_export_order(&sections[0]), "{text}");
    assert!(sections[0].contains(&"[Annotator \"hector analyse\"]".to_string()));
    assert_eq!(
        pgn_readers::pgn_extract_in_standard_order(&written, &dir),
        sections
    );
    let strict = pgn_readers::python_chess_strict(&written);
    assert_eq!(strict.len(), 1);
    assert_eq!(strict[0].plies, 7);
    assert_eq!(strict[0].side, "b");
}

#[test]
fn a_recorded_game_by_its_number() {
    let data_dir = temp_dir("analyse-data");
    let games = data_dir.join("games");
    std::fs::create_dir_all(&games).unwrap();
    let pgn = std::fs::read(data("blunder.pgn")).unwrap();
    let imported = import_pgn(&pgn, 1).unwrap();
    let mut bytes = encode_header(&imported.header("2026-11-23T20:00:00Z")).unwrap();
    for e in imported.entries() {
        bytes.extend(encode_entry(&e).unwrap());
    }
    std::fs::write(games.join("0001.journal"), bytes).unwrap();
    let path = path_with_games();
    let r = run_with(
        &[
            "analyse",
            "1",
            "--errors",
            "--movetime",
            "50",
            "--lang",
            "en",
        ],
        b"",
        &Env::player(&data_dir).var("PATH", &path).vars(),
        LIMIT,
    );
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("Move 3, Black: Knight Felix six, blunder. Better: "),
        "{}",
        r.stdout
    );
    // No such game: said, status 2.
    let r = run_with(
        &["analyse", "7"],
        b"",
        &Env::player(&data_dir).var("PATH", &path).vars(),
        LIMIT,
    );
    assert_eq!(r.code, Some(2), "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.starts_with("hector analyse: "), "{}", r.stderr);
}

#[test]
fn a_missing_engine_is_said_and_ends_with_status_1() {
    let file = data("blunder.pgn");
    let r = analyse(&[
        file.to_str().unwrap(),
        "--engine",
        "/nonexistent/engine",
        "--lang",
        "en",
    ]);
    assert_eq!(r.code, Some(1), "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("The computer cannot judge the game"),
        "{}",
        r.stderr
    );
}

#[test]
fn on_a_terminal_the_lines_are_printed_and_said() {
    let file = data("blunder.pgn");
    let path = path_with_games();
    let home = temp_dir("analyse-pty");
    let daemon = common::SpeechDaemon::capturing();
    let mut pty = Pty::spawn(
        &[
            "analyse",
            file.to_str().unwrap(),
            "--errors",
            "--movetime",
            "50",
            "--speak",
            "--backend",
            "speech-dispatcher",
        ],
        &[
            ("PATH", path.as_str()),
            ("HOME", home.path().to_str().unwrap()),
            ("HECTOR_CONFIG", ""),
            ("SPEECHD_ADDRESS", daemon.address().as_str()),
        ],
    );
    // Printed, and said through speech-dispatcher: the same turning point.
    let blunder = "Zug 3, Schwarz: Springer Felix sechs, grober Fehler";
    assert!(
        pty.wait_for(blunder, LIMIT).is_some(),
        "{}",
        pty.all_output()
    );
    // The output module hears a sentence a line: the move's judgement, with its number as a
    // word (a "3." would end a sentence there), then the better move.
    daemon.said(
        "de|Zug 3, Schwarz: Springer Felix sechs, grober Fehler.",
        LIMIT,
    );
    let better = daemon.said("de| Besser: ", LIMIT);
    assert!(
        better.ends_with('.') && better.matches('.').count() == 1,
        "one sentence, the move: {better}"
    );
    if let Err(why) = better_named(&better, "de| Besser: ", &words::DE) {
        panic!("{why}: {better}");
    }
    assert_eq!(pty.wait_exit(LIMIT), Some(0), "{}", pty.all_output());
}

/// A recorded game is judged once: its analysis is kept beside the journal and read back
/// (no engine is needed the second time); a damaged file is named and replaced; another
/// search judges the game again.
#[test]
fn a_recorded_game_is_judged_once() {
    let data_dir = temp_dir("analyse-kept");
    let games = data_dir.join("games");
    std::fs::create_dir_all(&games).unwrap();
    let pgn = std::fs::read(data("blunder.pgn")).unwrap();
    let imported = import_pgn(&pgn, 1).unwrap();
    let mut bytes = encode_header(&imported.header("2026-11-23T20:00:00Z")).unwrap();
    for e in imported.entries() {
        bytes.extend(encode_entry(&e).unwrap());
    }
    std::fs::write(games.join("0001.journal"), bytes).unwrap();
    let kept = games.join("0001.analysis");
    let with_engine = path_with_games();
    // An engine that is not there: the kept analysis must answer.
    let missing = "/nonexistent/stockfish";
    let run = |engine: &str, movetime: &str| {
        let mut args = vec!["analyse", "1", "--errors", "--movetime", movetime];
        if engine == missing {
            args.extend(["--engine", missing]);
        }
        run_with(
            &args,
            b"",
            &Env::player(&data_dir).var("PATH", &with_engine).vars(),
            LIMIT,
        )
    };
    let blunder = "Zug 3, Schwarz: Springer Felix sechs, grober Fehler. Besser: ";
    let r = run("stockfish", "50");
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("bewertet die Partie"), "{}", r.stdout);
    assert!(r.stdout.contains(blunder), "{}", r.stdout);
    let text = std::fs::read_to_string(&kept).unwrap();
    assert!(
        text.starts_with("hector-analysis 1\ngame e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7\n"),
        "{text}"
    );
    // Without any engine: the kept analysis answers.
    let r = run(missing, "50");
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert!(!r.stdout.contains("bewertet die Partie"), "{}", r.stdout);
    assert!(r.stdout.contains(blunder), "{}", r.stdout);
    // The analysis of other moves (the game went on): judged again without a word.
    std::fs::write(&kept, "hector-analysis 1\ngame e2e4\nnonsense\n").unwrap();
    let r = run(missing, "50");
    assert_eq!(r.code, Some(1), "{}{}", r.stdout, r.stderr);
    assert!(!r.stderr.contains("beschädigt"), "{}", r.stderr);
    // Damaged: named, set aside, judged again.
    let moves = "game e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7";
    std::fs::write(&kept, format!("hector-analysis 1\n{moves}\nnonsense\n")).unwrap();
    let r = run(missing, "50");
    assert_eq!(r.code, Some(1), "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("0001.analysis ist nicht lesbar"),
        "{}",
        r.stderr
    );
    std::fs::write(
        &kept,
        "hector-analysis 1\ngame e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7\nsearch depth - ms 50\ncp x\n",
    )
    .unwrap();
    let r = run("stockfish", "50");
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("ist nicht lesbar"), "{}", r.stderr);
    assert!(r.stderr.contains(".analysis.unreadable-"), "{}", r.stderr);
    assert!(r.stdout.contains(blunder), "{}", r.stdout);
    // Replaced by a whole analysis: the same game and search as the first, no damaged line,
    // and read back without an engine.
    let again = std::fs::read_to_string(&kept).unwrap();
    let head = |t: &str| t.lines().take(3).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(head(&again), head(&text), "{again}");
    assert!(!again.lines().any(|l| l == "cp x"), "{again}");
    assert_eq!(again.lines().count(), text.lines().count(), "{again}");
    let r = run(missing, "50");
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains(blunder), "{}", r.stdout);
    // Another search: judged again.
    let r = run("stockfish", "60");
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("bewertet die Partie"), "{}", r.stdout);
}
