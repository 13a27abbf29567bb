//! Voice input in the modes that listen, through the real binary in pseudo-terminals and the
//! real recogniser, hearing the microphone's path: a stand-in recorder first on the PATH
//! (tests/common/microphone.rs) into which recordings made at test time are spoken
//! (tests/common/voice.rs): the full screen's listening key (Ctrl+V, named in F1, in `--help`
//! and in the README), `online` against the local lichess stand-in and `assist` with two
//! simulated boards.

#![allow(
    clippy::expect_used,
    clippy::panic,
    unsafe_code,
    reason = "tests stop at the first surprise, and the pseudo-terminals need the system's calls; the crate's lints are for hector itself"
)]
// The binary is driven through Unix pseudo-terminals and processes (tests/common).
#![cfg(unix)]

mod common;
#[path = "common/lichess.rs"]
mod lichess;
#[path = "common/voice.rs"]
mod recordings;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::microphone::Microphone;
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

/// The environment's variables for hector with the microphone `mic`, and `vars`.
fn with_mic(mic: &Microphone, vars: &[(&str, &str)]) -> Vec<(String, String)> {
    let (key, value) = mic.var();
    let mut all: Vec<(String, String)> = vars
        .iter()
        .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
        .collect();
    all.push((key.to_string(), value));
    all.push(("PATH".to_string(), mic.path_first()));
    all
}

fn refs(vars: &[(String, String)]) -> Vec<(&str, &str)> {
    vars.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
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
    let journal = hector::core::record::decode(&bytes).expect("a journal");
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
    let files = recordings(&dir, 21, &["Eva vier", "ja", "Springer Felix drei"]);
    let mut mic = Microphone::streaming();
    let args = [
        "play",
        "--lang",
        "de",
        "--opponent",
        "keyboard",
        "--speech",
        "print",
        "--voice",
        "--voice-always-ask",
    ];
    let data_s = data.display().to_string();
    let home = dir.display().to_string();
    let vars = with_mic(
        &mic,
        &[
            ("HECTOR_CONFIG", "/nonexistent"),
            ("HECTOR_DATA", &data_s),
            ("HOME", &home),
        ],
    );
    let mut t = Pty::spawn_sized(&args, &refs(&vars), 100, 30);
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
    // Nothing is listened to before the key: a phrase said then is not heard, nor later
    // (the sound from before listening is dropped).
    mic.say(&files[2]);
    mic.said_through(LIMIT);
    assert!(!data.join("voice.log").exists(), "heard before the key");
    assert!(!t.all_output().contains("zweitens"), "{}", t.all_output());
    t.send(&[0x16]);
    // Listening is said, then the move said is heard and asked back.
    assert!(t.wait_for_screen("Ich höre zu", LIMIT), "{}", t.screen());
    mic.say(&files[0]);
    assert!(
        t.wait_for_screen("Eva vier, oder zweitens: ", LIMIT),
        "{}",
        t.screen()
    );
    assert!(!t.screen().contains("Felix drei"), "{}", t.screen());
    // The answer is listened for at once: "ja" plays the move.
    mic.say(&files[1]);
    let log = wait_for_log(&data, "yes: played e2e4");
    assert!(log.contains("\tasked back e2e4 or second "), "{log}");
    t.quit_saying_ja(LIMIT);
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
    let mut mic = Microphone::streaming();
    let args = [
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
    ];
    let data_s = data.display().to_string();
    let home = dir.display().to_string();
    let config = dir.join("config").display().to_string();
    let vars = with_mic(
        &mic,
        &[
            ("HECTOR_CONFIG", "/nonexistent"),
            ("HECTOR_DATA", &data_s),
            ("XDG_CONFIG_HOME", &config),
            ("HOME", &home),
            ("LICHESS_TOKEN", TOKEN),
        ],
    );
    let mut t = Pty::spawn(&args, &refs(&vars));
    t.expect("Zug oder Befehl: ", LIMIT);
    mic.say(&files[0]);
    assert!(
        t.wait_for("Eva vier, oder zweitens: ", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    mic.say(&files[1]);
    // lichess's move comes back and is said.
    assert!(
        t.wait_for("Eva fünf", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    assert_eq!(server.moves(), ["e2e4", "e7e5"]);
    let log = wait_for_log(&data, "yes: played e2e4");
    assert!(log.contains("\tasked back e2e4 or second "), "{log}");
    t.send(b"ende\r");
    assert!(
        t.wait_for("Wirklich", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"ja\r");
    assert!(t.wait_exit(LIMIT).is_some(), "{}", t.all_output());
    assert_eq!(journaled_moves(&data), ["e2e4", "e7e5"]);
}

/// `hector assist --voice`: a command said aloud is carried out as if typed, on two simulated
/// boards; nothing said is journaled.
#[test]
fn assist_hears_a_command_said_aloud() {
    let dir = temp_dir("voice-assist");
    let data = dir.join("data");
    let files = recordings(&dir, 23, &["Uhr", "ja"]);
    let mut mic = Microphone::streaming();
    let mut dgt = Simulator::start("dgt", &dir.join("dgt"));
    let mut peg = Simulator::start("peg", &dir.join("peg"));
    let dgt_link = dir.join("dgt").display().to_string();
    let peg_link = dir.join("peg").display().to_string();
    let args = [
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
    ];
    let data_s = data.display().to_string();
    let vars = with_mic(&mic, &[("HECTOR_CONFIG", ""), ("HECTOR_DATA", &data_s)]);
    let mut t = Pty::spawn(&args, &refs(&vars));
    assert!(
        t.wait_for("Zug oder Befehl:", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    dgt.send("await-host");
    peg.send("await-host");
    // Heard sure of itself, "Uhr" is carried out; heard unsure, it is asked back and the
    // "ja" carries it out.
    mic.say(&files[0]);
    let log = wait_for_log(&data, "uhr");
    if log.contains("\tasked back uhr\n") {
        mic.say(&files[1]);
    }
    let log = wait_for_log(&data, " uhr\n");
    assert!(
        log.contains("\tcommand uhr\n") || log.contains("\tyes: carried out uhr\n"),
        "{log}"
    );
    // The clock's answer (White's clock runs while the phrase is said; Black's does not).
    let clock = t.expect_span("noch kein Zug gespielt. Weiß: ", "\r\n", LIMIT);
    assert!(
        clock.contains("Schwarz: 0 Sekunden verbraucht, 10 Minuten übrig"),
        "{clock}"
    );
    // The sighted player's move on the electronic board is still announced.
    dgt.send("move e2e4");
    assert!(
        t.wait_for("Eva vier", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"ende\rja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
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
