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
    // Each move typed, with its words from Appendix D (tests/common/words.rs is the source of
    // these words; written out here, as the moves are fixed).
    let script = [
        ("e4", "Eva vier"),
        ("e5", "Eva fünf"),
        ("Sf3", "Springer Felix drei"),
        ("Sc6", "Springer Cäsar sechs"),
        ("Lb5", "Läufer Bella fünf"),
        ("a6", "Anna sechs"),
        ("La4", "Läufer Anna vier"),
        ("Sf6", "Springer Felix sechs"),
        ("0-0", "Kurze Rochade"),
        ("Le7", "Läufer Eva sieben"),
        ("Te1", "Turm Eva eins"),
        ("b5", "Bella fünf"),
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
            let (mv, words) = script[next];
            t.send(format!("{mv}\r").as_bytes());
            // The move is confirmed aloud only after it is on the disk: its words, after
            // the line typed.
            t.wait_answer(mv, LIMIT);
            t.expect(words, LIMIT);
            confirmed.push(mv);
            next += 1;
        }
        // Some rounds wait a little on the clock before the kill.
        std::thread::sleep(Duration::from_millis([0, 300, 1200, 50, 2100, 700][round]));
        t.send(b"uhr\r");
        let answer = t.expect_span("Weiß ", "\r\n", LIMIT).trim().to_string();
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
    let list = t.expect_span("Züge ab 1: ", "\r\n", LIMIT);
    let pairs: Vec<String> = script
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| format!("{}. {}; {}", i + 1, pair[0].1, pair[1].1))
        .collect();
    let expected = format!("Züge ab 1: {}", pairs.join(". "));
    assert_eq!(list.trim_end(), expected, "every move, in order");
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
    assert!(
        before_prompt.contains("Zuletzt: Zug 1, Schwarz: Eva fünf"),
        "{text}"
    );
    // Both clocks, each near its 5 minutes: one move each, with 2 s added per move.
    let clocks = before_prompt
        .lines()
        .find(|l| l.contains("Weiß ") && l.contains("Schwarz "))
        .unwrap_or_else(|| panic!("no clocks before the prompt: {text}"));
    let clocks = &clocks[clocks.find("Weiß ").unwrap_or(0)..];
    for color in ["Weiß", "Schwarz"] {
        let left = seconds_of(clocks, color).unwrap_or_else(|| panic!("{color}: {clocks}"));
        assert!((285..=302).contains(&left), "{color}: {clocks}");
    }
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

/// The hint at the end names the command as the player types it, "hector resume", in speech
/// and on screen. When `hector` on the PATH is not this program, its full path is printed on
/// a line of its own and never said: a path is a long string of folder names to listen to.
#[test]
fn the_resume_hint_says_the_command_and_prints_the_path_only_when_needed() {
    let data = temp_dir("resume-hint");
    let daemon = common::SpeechDaemon::capturing();
    let exe = env!("CARGO_BIN_EXE_hector");
    // The PATH of the tests has no hector on it.
    let r = Env::player(&data).speech(&daemon).run(
        &[
            "play",
            "--opponent",
            "keyboard",
            "--speech",
            "speech-dispatcher",
        ],
        "e4\ne5\nende\nja\n".as_bytes(),
        LIMIT,
    );
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    let hint = "Die Partie ist gespeichert. Weiter mit: hector resume";
    assert!(r.stdout.contains(hint), "{}", r.stdout);
    let shown = format!("Programm hector: {exe}");
    assert!(r.stdout.contains(&shown), "{}", r.stdout);
    // hector has ended: everything it said has reached the daemon or is on its way.
    let heard = daemon.heard_when_quiet(0, LIMIT);
    assert!(heard.contains("Weiter mit: hector resume"), "{heard}");
    assert!(!heard.contains("Programm hector"), "{heard}");
    assert!(!heard.contains(exe), "{heard}");
    // With hector's own folder on the PATH the command alone finds it: no path at all.
    let folder = Path::new(exe).parent().unwrap().display().to_string();
    let path = format!("{folder}:{}", std::env::var("PATH").unwrap_or_default());
    let r = Env::player(&data).var("PATH", &path).run(
        &["resume", "--speech", "print"],
        "ende\nja\n".as_bytes(),
        LIMIT,
    );
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains(hint), "{}", r.stdout);
    assert!(!r.stdout.contains("Programm hector"), "{}", r.stdout);
    assert!(!r.stdout.contains(exe), "{}", r.stdout);
}
