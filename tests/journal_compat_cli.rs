//! Journals written by an earlier hector (commit 3416d13, kept in tests/data/journals) are
//! continued in the mode that wrote them, and the journal's `mode` setting is still written
//! as those bytes have it: the mode became a type, the file did not change.

#![allow(
    clippy::expect_used,
    clippy::panic,
    unsafe_code,
    reason = "tests stop at the first surprise, and the pseudo-terminals need the system's calls; the crate's lints are for hector itself"
)]
// The simulated board is a Unix pseudo-terminal (tests/common/sim.rs).
#![cfg(unix)]

mod common;

use std::path::Path;
use std::time::Duration;

use common::sim::Simulator;
use common::{Env, data, temp_dir};

const LIMIT: Duration = Duration::from_secs(30);

/// The one journal in `dir`'s games folder.
fn journal_in(games: &Path) -> std::path::PathBuf {
    let mut found: Vec<_> = std::fs::read_dir(games)
        .expect("games folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "journal"))
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    found.remove(0)
}

/// Puts the old journal `name` where `hector resume` looks for games.
fn with_old_journal(dir: &Path, name: &str) -> (std::path::PathBuf, Vec<u8>) {
    let games = dir.join("data").join("games");
    std::fs::create_dir_all(&games).expect("games folder");
    let bytes = std::fs::read(data(&format!("journals/{name}"))).expect("fixture");
    let path = games.join("2026-11-28_031329_0001.journal");
    std::fs::write(&path, &bytes).expect("copy");
    (path, bytes)
}

#[test]
fn an_old_game_of_hector_play_is_continued_and_appended_to() {
    let dir = temp_dir("old-play");
    let (path, before) = with_old_journal(&dir, "play-3416d13.journal");
    let r = Env::player_home(&dir).run(
        &["resume", "--screen-reader", "--speech", "print"],
        b"Sc6\nende\nja\n",
        LIMIT,
    );
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    // Continued by play, at the keyboard, after its last move, and the reply is taken.
    assert!(
        r.stdout
            .contains("Zuletzt: Zug 2, Weiß: Springer Felix drei"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("Schwarz: Springer Cäsar sechs"),
        "{}",
        r.stdout
    );
    // The old bytes stay as they were, the new move follows them.
    let after = std::fs::read(&path).expect("journal");
    assert!(after.starts_with(&before), "the old records were changed");
    let added = String::from_utf8_lossy(&after[before.len()..]).into_owned();
    assert!(added.contains("\"uci\":\"b8c6\""), "{added}");
}

#[test]
fn an_old_game_of_the_assistant_is_continued_by_the_assistant() {
    let dir = temp_dir("old-assist");
    // Its sighted board was a simulator long gone: the assistant, not play, says so.
    let (path, before) = with_old_journal(&dir, "assist-3416d13.journal");
    let r = Env::player_home(&dir).run(
        &["resume", "--screen-reader", "--speech", "print"],
        b"ende\nja\n",
        LIMIT,
    );
    let all = format!("{}{}", r.stdout, r.stderr);
    assert!(
        all.contains("hector assist: /tmp/h39o-fx/assist/dgt: there is no such port"),
        "{all}"
    );
    assert_eq!(std::fs::read(&path).expect("journal"), before, "untouched");
}

#[test]
fn the_assistant_writes_its_mode_as_the_old_journals_have_it() {
    let dir = temp_dir("new-assist");
    let link = dir.join("dgt");
    let sim = Simulator::start("dgt", &link);
    let port = link.display().to_string();
    let r = Env::player_home(&dir).run(
        &[
            "assist",
            "--screen-reader",
            "--speech",
            "print",
            "--sighted-board",
            &port,
            "--white",
            "Anna Schmidt",
            "--black",
            "Bernd Weber",
        ],
        b"e4\nende\nja\n",
        LIMIT,
    );
    drop(sim);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    let written =
        std::fs::read_to_string(journal_in(&dir.join("data").join("games"))).expect("journal");
    let old = std::fs::read_to_string(data("journals/assist-3416d13.journal")).expect("fixture");
    // The records after the header, but for the board's path: the same bytes, checksums
    // included.
    let settings = |text: &str| -> Vec<String> {
        text.lines()
            .skip(1)
            .filter(|l| !l.contains("sighted_board"))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(settings(&written), settings(&old));
    assert!(written.contains("{\"type\":\"setting\",\"key\":\"mode\",\"value\":\"assist\"}"));
}
