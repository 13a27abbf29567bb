//! Appendix D6: hector is the recording device and never loses a move. The real binary is
//! killed (SIGKILL) at many points of a scripted game and resumed; every completed move and the
//! clock (within a second) must be there. A journal cut off mid-record loses only that record.

#![allow(
    clippy::expect_used,
    clippy::panic,
    unsafe_code,
    reason = "tests stop at the first surprise, and the pseudo-terminals need the system's calls; the crate's lints are for hector itself"
)]
// The binary is driven through Unix pseudo-terminals and processes (tests/common).
#![cfg(unix)]

mod common;

use std::path::Path;
use std::time::Duration;

use common::pty::Pty;
use common::{Env, temp_dir};
use hector::core::record::replay;
use hector::io::journal::{journal_paths, load};
use shakmaty::Color;

const LIMIT: Duration = Duration::from_secs(30);

fn kill(t: &Pty) {
    let _ = std::process::Command::new("kill")
        .args(["-s", "KILL"])
        .arg(t.pid().to_string())
        .status();
}

/// The moves (UCI) and the clock of the one journal in `data`.
fn journal_state(data: &Path) -> (Vec<String>, Option<(u64, u64)>) {
    let paths = journal_paths(&data.join("games")).expect("games dir");
    assert_eq!(paths.len(), 1, "one game: {paths:?}");
    let decoded = load(&paths[0]).expect("journal readable");
    let replayed = replay(&decoded.header, &decoded.entries).expect("journal replays");
    let moves = replayed
        .game
        .moves()
        .iter()
        .map(|m| shakmaty::uci::UciMove::from_standard(m.mv).to_string())
        .collect();
    (
        moves,
        replayed.clock.map(|c| (c.times.white_ms, c.times.black_ms)),
    )
}

/// "Weiß 4 Minuten 57 Sekunden, Schwarz 5 Minuten, …": the seconds of one side.
fn seconds_of(answer: &str, color: &str) -> Option<u64> {
    let part = answer.split(", ").find(|p| p.starts_with(color))?;
    let words: Vec<&str> = part.split_whitespace().collect();
    let mut total = 0;
    for pair in words[1..].chunks(2) {
        let n: u64 = pair.first()?.parse().ok()?;
        total += match pair.get(1).copied()? {
            w if w.starts_with("Minute") => n * 60,
            w if w.starts_with("Sekunde") => n,
            w if w.starts_with("Stunde") => n * 3600,
            _ => return None,
        };
    }
    Some(total)
}

#[test]
fn killed_at_many_points_resumes_with_every_move_and_the_clock() {
    let data = temp_dir("kill");
    let script = [
        "e4", "e5", "Sf3", "Sc6", "Lb5", "a6", "La4", "Sf6", "0-0", "Le7", "Te1", "b5",
    ];
    let mut confirmed: Vec<&str> = Vec::new();
    let mut next = 0;
    // Each round: start (or resume), play some moves, read the clock, and kill the program
    // at a different moment.
    for (round, moves_this_round) in [2usize, 1, 3, 2, 1, 3].into_iter().enumerate() {
        let mut t = if round == 0 {
            Env::player(&data).spawn(&[
                "play",
                "--new",
                "--screen-reader",
                "--opponent",
                "keyboard",
                "--tc",
                "300",
                "--lang",
                "de",
            ])
        } else {
            Env::player(&data).spawn(&["resume", "--screen-reader"])
        };
        assert!(
            t.wait_for("Zug oder Befehl:", LIMIT).is_some(),
            "round {round}: {}",
            t.all_output()
        );
        for _ in 0..moves_this_round {
            let mv = script[next];
            let before = t.all_output().len();
            t.send(format!("{mv}\r").as_bytes());
            // The move is confirmed aloud only after it is on the disk.
            let deadline = std::time::Instant::now() + LIMIT;
            loop {
                let text = t.all_output();
                let fresh = &text[before.min(text.len())..];
                if fresh
                    .lines()
                    .filter(|l| !l.contains("Zug oder Befehl"))
                    .any(|l| !l.trim().is_empty())
                {
                    break;
                }
                assert!(
                    std::time::Instant::now() < deadline,
                    "no confirmation of {mv}: {text}"
                );
                std::thread::sleep(Duration::from_millis(5));
            }
            confirmed.push(mv);
            next += 1;
        }
        // Some rounds wait a little on the clock before the kill.
        std::thread::sleep(Duration::from_millis([0, 300, 1200, 50, 2100, 700][round]));
        let before = t.all_output().len();
        t.send(b"uhr\r");
        let deadline = std::time::Instant::now() + LIMIT;
        let answer = loop {
            let text = t.all_output();
            if let Some(line) = text[before.min(text.len())..]
                .lines()
                .find(|l| l.contains("Weiß") && l.contains("Schwarz"))
            {
                break line
                    .trim_start_matches("Zug oder Befehl:")
                    .trim()
                    .to_string();
            }
            assert!(
                std::time::Instant::now() < deadline,
                "no clock answer: {text}"
            );
            std::thread::sleep(Duration::from_millis(5));
        };
        kill(&t);
        let _ = t.wait_exit(LIMIT);
        let (moves, clock) = journal_state(&data);
        assert_eq!(
            moves.len(),
            confirmed.len(),
            "round {round}: every confirmed move is in the journal"
        );
        let (white_ms, black_ms) = clock.expect("the clock is recorded");
        let running = if confirmed.len().is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        };
        let (name, saved_ms) = match running {
            Color::White => ("Weiß", white_ms),
            Color::Black => ("Schwarz", black_ms),
        };
        let said = seconds_of(&answer, name).unwrap_or_else(|| panic!("{answer}"));
        // The last checkpoint is at most a second old; the answer before the kill was floored
        // to the second.
        assert!(
            saved_ms + 1000 >= said * 1000 && saved_ms <= said * 1000 + 2000,
            "round {round}: said {said} s, saved {saved_ms} ms"
        );
    }
    // The last resume: the moves are all there, spoken back in order.
    let mut t = Env::player(&data).spawn(&["resume", "--screen-reader"]);
    assert!(
        t.wait_for("Partie fortgesetzt", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"liste 1\r");
    assert!(
        t.wait_for("Züge ab 1: 1. Eva vier; Eva fünf. 2. Springer Felix drei; Springer Cäsar sechs. 3. Läufer Bella fünf; Anna sechs", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"ende\rja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0));
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn a_journal_cut_mid_record_keeps_everything_before() {
    let data = temp_dir("torn");
    let mut t = Env::player(&data).spawn(&[
        "play",
        "--new",
        "--screen-reader",
        "--opponent",
        "keyboard",
        "--lang",
        "en",
    ]);
    assert!(t.wait_for("Move or command:", LIMIT).is_some());
    for mv in ["e4", "e5", "Nf3"] {
        t.send(format!("{mv}\r").as_bytes());
        t.wait_answer(mv, LIMIT);
    }
    assert!(
        t.wait_for("Knight Felix three", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    kill(&t);
    let _ = t.wait_exit(LIMIT);
    let path = journal_paths(&data.join("games")).expect("dir").remove(0);
    let bytes = std::fs::read(&path).expect("journal");
    // Cut the last record (Nf3) in its middle, as a power cut would.
    let last_start = bytes[..bytes.len() - 1]
        .iter()
        .rposition(|&b| b == b'\n')
        .expect("lines")
        + 1;
    let cut = last_start + (bytes.len() - last_start) / 2;
    std::fs::write(&path, &bytes[..cut]).expect("truncate");
    let (moves, _) = journal_state(&data);
    assert_eq!(
        moves,
        ["e2e4", "e7e5"],
        "everything before the torn record is kept"
    );
    let listed = Env::player(&data).run(&["games", "--lang", "en"], b"", LIMIT);
    assert!(listed.stdout.contains("1 move"), "{}", listed.stdout);
    // Resuming continues after the torn record, which stays in the file for the record.
    let mut t = Env::player(&data).spawn(&["resume", "--screen-reader"]);
    assert!(
        t.wait_for("White to move", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"Nf3\r");
    assert!(
        t.wait_for("Knight Felix three", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"quit\ryes\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0));
    let (moves, _) = journal_state(&data);
    assert_eq!(moves, ["e2e4", "e7e5", "g1f3"]);
    let _ = std::fs::remove_dir_all(&data);
}

/// `hector play` offers an unfinished game with its moves counted in the singular or plural.
#[test]
fn the_offer_to_continue_counts_one_move_as_one() {
    let data = temp_dir("resume-offer");
    let mut t = Env::player(&data).spawn(&["play", "--screen-reader", "--opponent", "keyboard"]);
    assert!(
        t.wait_for("Zug oder Befehl:", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"e4\r");
    assert!(
        t.wait_for("Eva vier", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"ende\rja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    let mut t = Env::player(&data).spawn(&["play", "--screen-reader", "--opponent", "keyboard"]);
    assert!(
        t.wait_for(", 1 Zug, ist noch nicht beendet. Fortsetzen?", LIMIT)
            .is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"nein\r");
    assert!(
        t.wait_for("Zug oder Befehl:", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"ende\rja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    let _ = std::fs::remove_dir_all(&data);
}

/// `hector resume` says the last move and both clocks before its first prompt.
#[test]
fn resume_announces_the_last_move_and_the_clocks() {
    let data = temp_dir("resume-announce");
    let args = [
        "play",
        "--screen-reader",
        "--opponent",
        "keyboard",
        "--tc",
        "300+2",
    ];
    let mut t = Env::player(&data).spawn(&args);
    assert!(
        t.wait_for("Weiß ist am Zug", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    for line in ["e4", "e5"] {
        t.send(format!("{line}\r").as_bytes());
        t.wait_answer(line, LIMIT);
    }
    t.send(b"ende\r");
    assert!(
        t.wait_for("Ja oder nein", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"ja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    let mut t = Env::player(&data).spawn(&["resume", "--screen-reader"]);
    assert!(
        t.wait_for("Zug oder Befehl:", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    let text = t.all_output();
    let before_prompt = text.split("Zug oder Befehl:").next().unwrap_or_default();
    assert!(before_prompt.contains("Partie fortgesetzt"), "{text}");
    assert!(before_prompt.contains("Zuletzt: Zug"), "{text}");
    assert!(before_prompt.contains("Eva fünf"), "{text}");
    assert!(before_prompt.contains("Minuten"), "{text}");
    t.send(b"ende\r");
    assert!(
        t.wait_for("Ja oder nein", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"ja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    let _ = std::fs::remove_dir_all(&data);
}

/// A game number that does not exist is refused by hector resume in its own name.
#[test]
fn a_missing_game_number_is_refused_by_resume_itself() {
    let data = temp_dir("resume-missing");
    let env = Env::player(data.path());
    let r = env.run(&["resume", "9"], b"", LIMIT);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.starts_with("hector resume: "), "{}", r.stderr);
    assert!(!r.stderr.contains("hector export"), "{}", r.stderr);
}
