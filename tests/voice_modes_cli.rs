//! Voice input in the modes that listen, through the real binary in pseudo-terminals and the
//! real recogniser, fed by recordings made at test time (`--voice-input`, tests/common/voice.rs):
//! the full screen's listening key (Ctrl+V, named in F1, in `--help` and in the README),
//! `online` against the local lichess stand-in and `assist` with two simulated boards.

// Tests and benchmarks stop at the first surprise, and the pseudo-terminals need the
// system's calls: the crate's [lints] are for hector itself.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, unsafe_code)]
// The binary is driven through Unix pseudo-terminals and processes (tests/common).
#![cfg(unix)]

mod common;
#[path = "common/lichess.rs"]
mod lichess;
#[path = "common/voice.rs"]
mod recordings;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::pty::Pty;
use common::sim::Simulator;
use common::{run, temp_dir};
use lichess::{Server, TOKEN};
use recordings::{Rendition, Seeded, record};

const LIMIT: Duration = Duration::from_secs(60);

/// Recordings of `texts` in German, one voice after another, in `dir`.
fn recordings(dir: &Path, seed: u64, texts: &[&str]) -> Vec<PathBuf> {
    let mut rng = Seeded::new(seed);
    texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            // Even renditions: without the louder noise.
            let how = Rendition::nth("de", i * 2, &mut rng);
            record(dir, &format!("r{i}"), text, how).expect("a recording")
        })
        .collect()
}

fn paths(files: &[PathBuf]) -> Vec<&str> {
    files.iter().map(|f| f.to_str().expect("path")).collect()
}

/// Waits until the voice log in `data` holds `needle`; the log's text.
fn wait_for_log(data: &Path, needle: &str) -> String {
    let deadline = Instant::now() + LIMIT;
    loop {
        let log = std::fs::read_to_string(data.join("voice.log")).unwrap_or_default();
        if log.contains(needle) {
            return log;
        }
        assert!(
            Instant::now() < deadline,
            "{needle:?} not in the voice log:\n{log}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The moves of the one journal in `data`, in UCI.
fn journaled_moves(data: &Path) -> Vec<String> {
    let games: Vec<_> = std::fs::read_dir(data.join("games"))
        .expect("the games")
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(games.len(), 1, "{games:?}");
    let bytes = std::fs::read(&games[0]).expect("the journal");
    let journal = hector::core::record::codec::decode(&bytes).expect("a journal");
    journal
        .entries
        .iter()
        .filter_map(|e| match e {
            hector::core::record::Entry::Move { uci, .. } => Some(uci.to_string()),
            _ => None,
        })
        .collect()
}

/// The key that listens is named the same in F1, in `--help` and in the README; pressed, it
/// listens for one phrase (nothing is heard before), and the answer to a move asked back is
/// listened for without the key.
#[test]
fn on_the_full_screen_ctrl_v_listens_for_one_phrase() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("the README");
    assert!(
        readme
            .lines()
            .any(|l| l.starts_with("| Ctrl+V | with `--voice`: listen for one spoken move")),
        "the README's key table names no listening key"
    );
    let help = run(&["play", "--help"]);
    let help_words = help.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        help_words.contains("on the full screen Ctrl+V starts listening"),
        "{}",
        help.stdout
    );

    let dir = temp_dir("voice-screen");
    let data = dir.join("data");
    let files = recordings(&dir, 21, &["Eva vier", "ja"]);
    let mut args = vec![
        "play",
        "--lang",
        "de",
        "--opponent",
        "keyboard",
        "--speech",
        "print",
        "--voice",
        "--voice-always-ask",
        "--voice-input",
    ];
    args.extend(paths(&files));
    let data_s = data.display().to_string();
    let home = dir.display().to_string();
    let mut t = Pty::spawn_sized(
        &args,
        &[
            ("HECTOR_CONFIG", "/nonexistent"),
            ("HECTOR_DATA", &data_s),
            ("HOME", &home),
        ],
        100,
        30,
    );
    assert!(t.wait_for_screen("Zuletzt gesagt", LIMIT), "{}", t.screen());
    // F1 names the key, on the help's second page.
    t.send(b"\x1bOP");
    assert!(
        t.wait_for_screen("weiter mit Bild ab", LIMIT),
        "{}",
        t.screen()
    );
    t.send(b"\x1b[6~");
    assert!(
        t.wait_for_screen("Strg V hört auf einen gesagten Zug", LIMIT),
        "{}",
        t.screen()
    );
    // Nothing was listened to before the key: no phrase is in the log.
    assert!(!data.join("voice.log").exists(), "heard before the key");
    assert!(!t.text().contains("Eva vier?"), "{}", t.text());
    t.send(&[0x16]);
    // Listening is said (Ich höre zu), then the move heard is asked back.
    assert!(t.wait_for_screen("Eva vier?", LIMIT), "{}", t.screen());
    assert!(t.text().contains("höre"), "{}", t.text());
    // The answer is listened for at once: "ja" plays the move.
    let log = wait_for_log(&data, "yes: played e2e4");
    assert!(log.contains("\tasked back e2e4\n"), "{log}");
    t.send(&[0x11]);
    assert!(
        t.wait_for_screen("Wirklich beenden?", LIMIT),
        "{}",
        t.screen()
    );
    t.send(b"ja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.text());
    assert_eq!(journaled_moves(&data), ["e2e4"]);
}

/// `hector online play --voice`: the move said is sent to lichess (after "ja"), the
/// opponent's reply is said, and the game's journal has both.
#[test]
fn online_play_sends_a_move_said_aloud() {
    let server = Server::start();
    server.script(&["e7e5"]);
    let dir = temp_dir("voice-online");
    let data = dir.join("data");
    let files = recordings(&dir, 22, &["Eva vier", "ja"]);
    let mut args = vec![
        "online",
        "--server",
        &server.url,
        "--speech",
        "print",
        "play",
        "--ai",
        "1",
        "--color",
        "white",
        "--screen-reader",
        "--voice",
        "--voice-always-ask",
        "--voice-input",
    ];
    args.extend(paths(&files));
    let data_s = data.display().to_string();
    let home = dir.display().to_string();
    let config = dir.join("config").display().to_string();
    let mut t = Pty::spawn(
        &args,
        &[
            ("HECTOR_CONFIG", "/nonexistent"),
            ("HECTOR_DATA", &data_s),
            ("XDG_CONFIG_HOME", &config),
            ("HOME", &home),
            ("LICHESS_TOKEN", TOKEN),
        ],
    );
    assert!(t.wait_for("Eva vier?", LIMIT).is_some(), "{}", t.text());
    // lichess's move comes back and is said.
    assert!(t.wait_for("Eva fünf", LIMIT).is_some(), "{}", t.text());
    assert_eq!(server.moves(), ["e2e4", "e7e5"]);
    let log = wait_for_log(&data, "yes: played e2e4");
    assert!(log.contains("\tasked back e2e4\n"), "{log}");
    t.send(b"ende\r");
    assert!(t.wait_for("Wirklich", LIMIT).is_some(), "{}", t.text());
    t.send(b"ja\r");
    assert!(t.wait_exit(LIMIT).is_some(), "{}", t.text());
    assert_eq!(journaled_moves(&data), ["e2e4", "e7e5"]);
}

/// `hector assist --voice`: a command said aloud is carried out as if typed, on two simulated
/// boards; nothing said is journaled.
#[test]
fn assist_hears_a_command_said_aloud() {
    let dir = temp_dir("voice-assist");
    let data = dir.join("data");
    let files = recordings(&dir, 23, &["Uhr", "ja"]);
    let mut dgt = Simulator::start("dgt", &dir.join("dgt"));
    let mut peg = Simulator::start("peg", &dir.join("peg"));
    let dgt_link = dir.join("dgt").display().to_string();
    let peg_link = dir.join("peg").display().to_string();
    let mut args = vec![
        "assist",
        "--screen-reader",
        "--lang",
        "de",
        "--blind",
        "black",
        "--peg-board",
        &peg_link,
        "--sighted-board",
        &dgt_link,
        "--tc",
        "10+5",
        "--voice",
        "--voice-input",
    ];
    args.extend(paths(&files));
    let data_s = data.display().to_string();
    let mut t = Pty::spawn(&args, &[("HECTOR_CONFIG", ""), ("HECTOR_DATA", &data_s)]);
    assert!(
        t.wait_for("Zug oder Befehl:", LIMIT).is_some(),
        "{}",
        t.text()
    );
    dgt.send("await-host");
    peg.send("await-host");
    // Heard sure of itself, "Uhr" is carried out; heard unsure, it is asked back and the
    // "ja" carries it out.
    let log = wait_for_log(&data, "uhr");
    assert!(
        log.contains("\tcommand uhr\n") || log.contains("\tyes: carried out uhr\n"),
        "{log}"
    );
    assert!(
        t.wait_for("noch kein Zug gespielt. Weiß: 0 Sekunden verbraucht", LIMIT)
            .is_some(),
        "{}",
        t.text()
    );
    // The sighted player's move on the electronic board is still announced.
    dgt.send("move e2e4");
    assert!(t.wait_for("Eva vier", LIMIT).is_some(), "{}", t.text());
    t.send(b"ende\rja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.text());
    let games: Vec<_> = std::fs::read_dir(data.join("games"))
        .expect("the games")
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
        .collect();
    let journal = games.concat().to_lowercase();
    assert!(
        !journal.contains("uhr") && !journal.contains("score"),
        "{journal}"
    );
}
