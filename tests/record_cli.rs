//! The record through the real binary: `hector games` and `hector export` on journals written
//! through hector's own API, in both languages and both formats; and many exported games read
//! back by hector's import, by pgn-extract, by python-chess in its strict mode and by
//! `hector check`.

#![allow(
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

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::{Env, find_program, run_with, temp_dir};
use hector::core::outcome::{GameResult, Termination};
use hector::core::record::{Entry, Header, Times, encode_entry, encode_header, import_pgn, replay};
use hector::io::journal::Journal;
use shakmaty::Color;

/// Runs hector with its games in `data`.
fn hector(data: &Path, args: &[&str]) -> common::Run {
    Env::player(data).run(args, b"", Duration::from_secs(60))
}

fn mv(uci: &str, san: &str, by: Color, white_ms: u64, black_ms: u64) -> Entry {
    Entry::Move {
        uci: uci.parse().expect("uci"),
        san: san.parse().expect("san"),
        by,
        clock: Some(Times { white_ms, black_ms }),
    }
}

/// Three games through `Journal`: finished with an offer and a penalty, in progress, and one
/// with a torn last record.
fn three_games(data: &Path) -> Vec<PathBuf> {
    let games = data.join("games");
    let mut header = Header::new("2026-11-21T14:03:05Z", "Anna Schmidt", "Stockfish");
    header.event = "Vereinsabend".into();
    header.time_control = Some("5400+30".into());
    header.opponent = "engine Stockfish 15.1, level 3".into();
    let mut j = Journal::create_in(&games, &header).expect("create");
    for e in [
        mv("f2f3", "f3", Color::White, 5_390_000, 5_400_000),
        Entry::DrawOffered { by: Color::White },
        mv("e7e5", "e5", Color::Black, 5_390_000, 5_395_000),
        Entry::IllegalMove { by: Color::White },
        Entry::Penalty {
            beneficiary: Color::Black,
            ms: 120_000,
            article: "7.5b".into(),
        },
        mv("g2g4", "g4", Color::White, 5_380_000, 5_515_000),
        mv("d8h4", "Qh4#", Color::Black, 5_380_000, 5_512_000),
        Entry::Result {
            result: GameResult::BlackWins,
            termination: Termination::Checkmate,
        },
    ] {
        j.append(&e).expect("append");
    }
    let first = j.path().to_path_buf();
    drop(j);

    let header = Header::new("2026-11-21T15:00:00Z", "", "");
    let mut j = Journal::create_in(&games, &header).expect("create");
    j.append(&mv("e2e4", "e4", Color::White, 1, 2))
        .expect("append");
    let second = j.path().to_path_buf();
    drop(j);

    let header = Header::new("2026-11-21T16:00:00Z", "Carl", "Dora");
    let mut j = Journal::create_in(&games, &header).expect("create");
    j.append(&mv("d2d4", "d4", Color::White, 1, 2))
        .expect("append");
    let third = j.path().to_path_buf();
    drop(j);
    // A power cut while the next record was written.
    let record = encode_entry(&mv("d7d5", "d5", Color::Black, 1, 2)).expect("encode");
    let mut bytes = std::fs::read(&third).expect("read");
    bytes.extend_from_slice(&record[..record.len() - 7]);
    std::fs::write(&third, bytes).expect("write");
    vec![first, second, third]
}

#[test]
fn games_lists_every_game_in_both_languages() {
    let data = temp_dir("record-games");
    let paths = three_games(&data);
    // A journal from a newer hector is listed, not hidden, so that the numbers stay.
    let json = br#"{"journal":"hector","version":7}"#;
    let mut newer = format!(
        "{}\t{:08x}\t",
        json.len(),
        hector::core::record::crc32(json)
    )
    .into_bytes();
    newer.extend_from_slice(json);
    newer.push(b'\n');
    std::fs::write(data.join("games/2099-01-01_000000_0001.journal"), &newer).expect("write");
    std::fs::write(data.join("games/notes.txt"), b"not a journal").expect("write");

    let r = hector(&data, &["games", "--lang", "en"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(
        lines[..3],
        [
            "1. 2026-11-21 14:03 UTC: Anna Schmidt against Stockfish, Black wins, 2 moves",
            "2. 2026-11-21 15:00 UTC: White against Black, in progress, 1 move",
            "3. 2026-11-21 16:00 UTC: Carl against Dora, in progress, 1 move",
        ]
    );
    assert!(
        lines[3].starts_with("4. 2099-01-01_000000_0001.journal cannot be read: the journal was written by a newer hector"),
        "{}",
        lines[3]
    );
    assert_eq!(lines.len(), 4);
    // The newer journal was not touched.
    assert_eq!(
        std::fs::read(data.join("games/2099-01-01_000000_0001.journal")).expect("read"),
        newer
    );

    let r = hector(&data, &["games"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stdout.starts_with(
            "1. 2026-11-21 14:03 UTC: Anna Schmidt gegen Stockfish, Schwarz gewinnt, 2 Züge\n\
             2. 2026-11-21 15:00 UTC: Weiß gegen Schwarz, läuft noch, 1 Zug\n"
        ),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("4. 2099-01-01_000000_0001.journal ist nicht lesbar")
    );
    assert_eq!(paths.len(), 3);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn no_games_yet() {
    let data = temp_dir("record-empty");
    let r = hector(&data, &["games", "--lang", "en"]);
    assert_eq!(r.code, Some(0));
    assert_eq!(
        r.stdout.trim_end(),
        format!("No saved games in {}", data.join("games").display())
    );
    let r = hector(&data, &["export", "1"]);
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr.contains(
            "Es gibt noch keine gespeicherte Partie. Eine neue Partie beginnt mit: hector play"
        ),
        "{}",
        r.stderr
    );
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn export_pgn_and_text_in_both_languages() {
    let data = temp_dir("record-export");
    let paths = three_games(&data);

    let r = hector(&data, &["export", "1", "--lang", "en"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "[Event \"Vereinsabend\"]\n[Site \"?\"]\n[Date \"2026.11.21\"]\n[Round \"-\"]\n\
         [White \"Anna Schmidt\"]\n[Black \"Stockfish\"]\n[Result \"0-1\"]\n\
         [Termination \"normal\"]\n[TimeControl \"5400+30\"]\n\n\
         1. f3 { [%clk 1:29:50] } { (=) } 1... e5 { [%clk 1:29:55] } { Illegal move by\n\
         White, Article 7.5 } { 2 minutes added to Black's clock, Article 7.5b } 2. g4\n\
         { [%clk 1:29:40] } 2... Qh4# { [%clk 1:31:52] } 0-1\n\n"
    );
    let r = hector(&data, &["export", "1", "--pgn"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stdout
            .contains("{ 2 Minuten Zeitgutschrift für Schwarz, Artikel 7.5b }"),
        "{}",
        r.stdout
    );

    let r = hector(&data, &["export", "1", "--text"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "Anna Schmidt gegen Stockfish\nVeranstaltung: Vereinsabend\nDatum: 2026-11-21\n\
         Bedenkzeit: 5400+30\nGegner: engine Stockfish 15.1, level 3\n\n\
         1. f3 (=) e5\n2. g4 Dh4#\nErgebnis: 0-1, Schwarz gewinnt: Schachmatt, Artikel 5.1a\n"
    );
    let by_path = paths[0].to_str().expect("path");
    let r = hector(&data, &["export", by_path, "--text", "--lang", "en"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stdout.contains(
            "\n1. f3 (=) e5\n2. g4 Qh4#\nResult: 0-1, Black wins: checkmate, Article 5.1a\n"
        ),
        "{}",
        r.stdout
    );

    // In progress, and with a torn last record (left out, with a note).
    let r = hector(&data, &["export", "2", "--lang", "en", "--text"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stdout.starts_with(
            "White against Black\nDate: 2026-11-21\n\n1. e4\nThe game is not finished\n"
        ),
        "{}",
        r.stdout
    );
    let r = hector(&data, &["export", "3", "--lang", "en"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stdout.contains("[Result \"*\"]") && r.stdout.contains("[Termination \"unterminated\"]")
    );
    assert!(
        r.stdout.ends_with("1. d4 { [%clk 0:00:00] } *\n\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stderr.contains("The last record was cut off"),
        "{}",
        r.stderr
    );
    // Exporting never changes a journal.
    let before = std::fs::read(&paths[2]).expect("read");
    hector(&data, &["export", "3", "--text"]);
    assert_eq!(std::fs::read(&paths[2]).expect("read"), before);

    // --output writes the whole file and says so.
    let file = data.join("out/game.pgn");
    std::fs::create_dir_all(data.join("out")).expect("dir");
    let target = file.to_str().expect("path");
    let r = hector(&data, &["export", "1", "--output", target, "--lang", "en"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stdout.trim_end(), format!("Written to {target}"));
    // The whole export, as standard output carries it (checked in full above).
    let pgn = hector(&data, &["export", "1", "--lang", "en"]).stdout;
    assert_eq!(std::fs::read_to_string(&file).expect("written"), pgn);
    let r = hector(&data, &["export", "1", "--text", "-o", target]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stdout.trim_end(), format!("Geschrieben nach {target}"));
    // Written over: the text now, in full.
    let text = hector(&data, &["export", "1", "--text"]).stdout;
    assert_eq!(std::fs::read_to_string(&file).expect("written"), text);
    assert_eq!(std::fs::read_dir(data.join("out")).expect("dir").count(), 1);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn export_refuses_missing_damaged_and_newer_journals() {
    let data = temp_dir("record-refuse");
    let paths = three_games(&data);
    let r = hector(&data, &["export", "9", "--lang", "en"]);
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr.contains(
            "There is no game 9. 3 games are saved; hector games lists them with their numbers"
        ),
        "{}",
        r.stderr
    );
    let r = hector(&data, &["export", "0"]);
    assert_eq!(r.code, Some(2));
    let r = hector(&data, &["export", "/nonexistent/x.journal"]);
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr.contains(
            "/nonexistent/x.journal ist weder eine Nummer aus hector games noch eine Datei"
        ),
        "{}",
        r.stderr
    );

    // Damage in the middle names its line and byte; the file stays as it is.
    let mut bytes = std::fs::read(&paths[0]).expect("read");
    let third_line = bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .nth(1)
        .map(|(i, _)| i + 1)
        .expect("three lines");
    bytes[third_line + 25] ^= 0x04;
    std::fs::write(&paths[0], &bytes).expect("write");
    // What comes before the damage is still the game's record (tests/damaged_cli.rs).
    let r = hector(&data, &["export", "1", "--lang", "en"]);
    assert_eq!(r.code, Some(0));
    assert!(
        r.stdout.contains("1. f3 { [%clk 1:29:50] }"),
        "{}",
        r.stdout
    );
    // And nothing from the damage on: Black's reply is not exported.
    assert!(!r.stdout.contains("e5"), "{}", r.stdout);
    assert!(
        r.stderr.contains(&format!(
            "The file is damaged from entry 2 on, line 3, byte {third_line}"
        )),
        "{}",
        r.stderr
    );
    assert_eq!(std::fs::read(&paths[0]).expect("read"), bytes);
    let r = hector(&data, &["games", "--lang", "en"]);
    assert!(r.stdout.starts_with("1. "), "{}", r.stdout);
    assert!(
        r.stdout
            .lines()
            .next()
            .is_some_and(|l| l.contains("damaged from entry 2 on, line 3")),
        "{}",
        r.stdout
    );

    let r = hector(&data, &["export", "1", "--pgn", "--text"]);
    assert_eq!(r.code, Some(2), "--pgn and --text exclude each other");
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn help_texts_explain_the_record() {
    let data = temp_dir("record-help");
    let r = hector(&data, &["games", "--help"]);
    assert_eq!(r.code, Some(0));
    assert!(r.stdout.contains("HECTOR_DATA") && r.stdout.contains(".local/share/hector/games"));
    let r = hector(&data, &["export", "--help"]);
    assert_eq!(r.code, Some(0));
    for word in [
        "%clk",
        "(=)",
        "--text",
        "braille",
        "Termination",
        "Chess960",
        "--output",
    ] {
        assert!(r.stdout.contains(word), "{word}: {}", r.stdout);
    }
    let _ = std::fs::remove_dir_all(&data);
}

/// The many-games check: sample journals with clocks, offers, claims, penalties, Chess960
/// games and over-long names, exported by the binary, then read back by hector's import (the
/// same moves and result), by pgn-extract (every game, no complaint, the tags in the
/// standard's export order), by python-chess in its strict mode (every game, the same moves
/// and position) and by `hector check` (all legal).
#[test]
fn many_exported_games_round_trip_and_pass_pgn_extract_python_chess_and_check() {
    let Some(pgn_extract) = find_program("pgn-extract") else {
        panic!("pgn-extract is not installed: run scripts/setup");
    };
    let data = temp_dir("record-many");
    let games_dir = data.join("games");
    std::fs::create_dir_all(&games_dir).expect("dir");
    let mut samples = hector::core::testkit::record::sample_journals(500, 2026);
    assert!(samples.len() >= 490, "{} samples", samples.len());
    // Names longer than a tag value may be, with letters of two bytes and quotes to escape.
    for s in samples.iter_mut().step_by(25) {
        s.header.event = format!("Großes \"Turnier\" {}", "ä".repeat(300));
        s.header.white = "W".repeat(254) + "\"";
    }
    let mut offers = 0;
    let mut claims = 0;
    let mut chess960 = 0;
    for (i, s) in samples.iter().enumerate() {
        // Written with the codec directly: 500 games through Journal would be 75 000 fsyncs.
        let mut bytes = encode_header(&s.header).expect("header");
        for e in &s.entries {
            bytes.extend(encode_entry(e).expect("entry"));
            offers += usize::from(matches!(e, Entry::DrawOffered { .. }));
            claims += usize::from(matches!(e, Entry::Claim { .. }));
        }
        chess960 += usize::from(s.header.variant == hector::core::variant::Variant::Chess960);
        std::fs::write(games_dir.join(format!("{:04}.journal", i + 1)), bytes).expect("write");
    }
    assert!(
        offers > 100 && claims > 100 && chess960 > 40,
        "{offers} {claims} {chess960}"
    );

    let r = hector(&data, &["games", "--lang", "en"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stdout.lines().count(), samples.len());
    assert!(!r.stdout.contains("cannot be read"), "{}", r.stdout);

    let mut all = String::new();
    for (i, s) in samples.iter().enumerate() {
        let n = (i + 1).to_string();
        let lang = if i % 2 == 0 { "en" } else { "de" };
        let r = hector(&data, &["export", &n, "--lang", lang]);
        assert_eq!(r.code, Some(0), "game {n}: {}", r.stderr);
        let expected = replay(&s.header, &s.entries).expect("replays");
        let back = import_pgn(r.stdout.as_bytes(), 1)
            .unwrap_or_else(|e| panic!("game {n}: {e}\n{}", r.stdout));
        assert_eq!(back.game.moves(), expected.game.moves(), "game {n}");
        assert_eq!(back.tags.result, expected.result(), "game {n}");
        assert_eq!(back.game.start(), expected.game.start(), "game {n}");
        // The movetext stays within 80 columns; a tag pair is one line however long
        // (the standard: "very long tag values will require 80 or more columns").
        for line in r.stdout.lines().filter(|l| !l.starts_with('[')) {
            assert!(line.chars().count() < 80, "game {n}: {line}");
        }
        all.push_str(&r.stdout);
    }
    let file = data.join("all.pgn");
    std::fs::write(&file, &all).expect("write");

    let out = Command::new(&pgn_extract)
        .arg("-s")
        .arg(&file)
        .output()
        .expect("run pgn-extract");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "pgn-extract failed: {stderr}");
    assert!(stderr.trim().is_empty(), "pgn-extract complains: {stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let extracted = stdout.lines().filter(|l| l.starts_with("[Event ")).count();
    assert_eq!(extracted, samples.len(), "pgn-extract read every game");

    // The tags: the roster, then the others in ASCII order, each value at most 255
    // characters; pgn-extract, asked to write them in that order, writes them unchanged.
    let sections = pgn_readers::tag_sections(&all);
    assert_eq!(sections.len(), samples.len());
    for (n, section) in sections.iter().enumerate() {
        assert!(
            pgn_readers::in_export_order(section),
            "game {}: {section:?}",
            n + 1
        );
        for line in section {
            let value = line.split_once(" \"").map_or("", |(_, v)| v);
            let value = value.strip_suffix("\"]").unwrap_or(value);
            let count = value.chars().count();
            assert!(count <= 255, "game {}: {count}: {line}", n + 1);
        }
    }
    assert!(sections[0][0].starts_with("[Event \"Großes \\\"Turnier\\\" ää"));
    assert_eq!(
        pgn_readers::pgn_extract_in_standard_order(&file, &data),
        sections
    );

    // python-chess, strictly: every game, its tags in the order written, the same number of
    // half-moves and the same position at the end.
    let strict = pgn_readers::python_chess_strict(&file);
    assert_eq!(strict.len(), samples.len());
    for (i, (read, s)) in strict.iter().zip(&samples).enumerate() {
        let expected = replay(&s.header, &s.entries).expect("replays");
        let end = expected.game.position();
        let fen = shakmaty::fen::Fen::from_position(end, shakmaty::EnPassantMode::Legal);
        let fen = fen.to_string();
        let names: Vec<String> = sections[i]
            .iter()
            .filter_map(|l| l.strip_prefix('[')?.split(' ').next().map(str::to_string))
            .collect();
        assert_eq!(read.tags, names, "game {}", i + 1);
        assert_eq!(read.plies, expected.game.ply(), "game {}", i + 1);
        assert_eq!(
            Some(read.board.as_str()),
            fen.split(' ').next(),
            "game {}",
            i + 1
        );
        let side = if shakmaty::Position::turn(end) == Color::White {
            "w"
        } else {
            "b"
        };
        assert_eq!(read.side, side, "game {}", i + 1);
    }

    let r = run_with(
        &["check", file.to_str().expect("path")],
        b"",
        &[],
        Duration::from_secs(120),
    );
    assert_eq!(r.code, Some(0), "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout.trim_end().ends_with(&format!(
            "{} games checked: all legal and consistent.",
            samples.len()
        )),
        "{}",
        r.stdout.lines().last().unwrap_or("")
    );
    let _ = std::fs::remove_dir_all(&data);
}

/// Errors that leave a player stuck say, in the player's language, what is wanted and how to
/// go on: a game that is neither a number nor a file, a number beyond the games, nothing to
/// resume, a language hector does not have, and the games listed in one language.
#[test]
fn errors_say_what_is_wanted_in_the_players_language() {
    let data = temp_dir("record-errors");
    let english = data.join("en.toml");
    std::fs::write(&english, "[speech]\nlanguage = \"en\"\n").expect("config");
    let english = english.to_str().expect("utf-8").to_string();
    let run = |config: &str, args: &[&str], input: &[u8]| {
        // hector's own name for the player, whoever runs the test.
        let env = Env::player(&data).var("USER", "");
        let env = match config {
            "" => env,
            file => env.config_file(Path::new(file)),
        };
        env.run(args, input, Duration::from_secs(60))
    };
    for (config, words) in [
        (
            "",
            [
                "hector export: abc ist weder eine Nummer aus hector games noch eine Datei. \
                 hector games zählt die Partien mit ihren Nummern auf",
                "hector resume: Keine unbeendete Partie gespeichert. Eine neue Partie beginnt \
                 mit: hector play",
                "hector: hector spricht xx nicht; vorhanden sind: de, en, es, fr, nl",
                "hector export: Es gibt keine Partie 999. 1 Partie ist gespeichert; hector games \
                 zählt sie mit ihren Nummern auf",
                "1. ",
            ],
        ),
        (
            english.as_str(),
            [
                "hector export: abc is neither a number from hector games nor a file. hector \
                 games lists the games with their numbers",
                "hector resume: No unfinished game is saved. A new game begins with: hector play",
                "hector: hector does not speak xx; available: de, en, es, fr, nl",
                "hector export: There is no game 999. 1 game is saved; hector games lists them \
                 with their numbers",
                "1. ",
            ],
        ),
    ] {
        let _ = std::fs::remove_dir_all(data.join("games"));
        let r = run(config, &["export", "abc"], b"");
        assert_eq!(r.code, Some(2), "{}", r.stderr);
        assert_eq!(r.stderr.trim_end(), words[0]);
        let r = run(config, &["resume"], b"");
        assert_eq!(r.code, Some(1), "{}", r.stderr);
        assert_eq!(r.stderr.trim_end(), words[1]);
        let r = run(config, &["play", "--lang", "xx", "--speech", "print"], b"");
        assert_eq!(r.code, Some(2), "{}", r.stderr);
        assert_eq!(r.stderr.lines().next(), Some(words[2]), "{}", r.stderr);
        // A game in the other language, finished: listed in this one.
        let other = if config.is_empty() { "en" } else { "de" };
        let quit = if config.is_empty() {
            "quit\nyes\n"
        } else {
            "ende\nja\n"
        };
        let r = run(
            config,
            &[
                "play",
                "--new",
                "--opponent",
                "keyboard",
                "--screen-reader",
                "--lang",
                other,
            ],
            format!("e4\n{quit}").as_bytes(),
        );
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        let r = run(config, &["export", "999"], b"");
        assert_eq!(r.code, Some(2), "{}", r.stderr);
        assert_eq!(r.stderr.trim_end(), words[3]);
        let r = run(config, &["games"], b"");
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        let expected = if config.is_empty() {
            "Spieler gegen Spieler 2, läuft noch, 1 Zug"
        } else {
            "Player against Player 2, in progress, 1 move"
        };
        assert!(r.stdout.starts_with(words[4]), "{}", r.stdout);
        assert!(r.stdout.contains(expected), "{}", r.stdout);
    }
}
