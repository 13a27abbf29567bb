//! The test helpers clean up after themselves: after a speech-dispatcher whose module hangs,
//! a capturing one, hector on a pseudo-terminal playing Stockfish, a board simulator, output
//! into a closed pipe and temporary folders, nothing of this test process is left running
//! and nothing of it is left in the temporary directory. One test in a binary of its own, so
//! that no other test runs beside it.

#![allow(
    clippy::expect_used,
    clippy::panic,
    unsafe_code,
    reason = "tests stop at the first surprise, and the pseudo-terminals need the system's calls; the crate's lints are for hector itself"
)]
// The binary is driven through Unix pseudo-terminals and processes (tests/common).
#![cfg(unix)]

mod common;

use std::time::Duration;

use common::sim::Simulator;
use common::{Env, SpeechDaemon, run_closing_stdout, run_with, temp_dir};

/// Entries of the temporary directory made by this test process.
fn our_temp_entries() -> Vec<String> {
    let marker = format!("-{}-", std::process::id());
    std::fs::read_dir(std::env::temp_dir())
        .map(|dir| {
            dir.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with("hector-") && n.contains(&marker))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn the_helpers_leave_no_process_and_no_file_behind() {
    assert!(our_temp_entries().is_empty(), "{:?}", our_temp_entries());
    {
        let hanging = SpeechDaemon::hanging();
        let address = hanging.address();
        let r = run_with(
            &["say", "--lang", "de", "Springer Felix drei"],
            b"",
            &[("SPEECHD_ADDRESS", &address), ("HECTOR_CONFIG", "")],
            Duration::from_secs(30),
        );
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        // The module is hanging now, its `sleep` running.
        assert!(
            !common::processes_mentioning(&common::hanging_marker()).is_empty(),
            "the hanging module did not start"
        );

        let capturing = SpeechDaemon::capturing();
        let address = capturing.address();
        let r = run_with(
            &["say", "--backend", "speech-dispatcher", "Eva vier"],
            b"",
            &[("SPEECHD_ADDRESS", &address), ("HECTOR_CONFIG", "")],
            Duration::from_secs(30),
        );
        assert_eq!(r.code, Some(0), "{}", r.stderr);

        // Speech without an address of its own: no speech-dispatcher may be started for it.
        let r = run_with(
            &["say", "--backend", "speech-dispatcher", "Eva fünf"],
            b"",
            &[("HECTOR_CONFIG", "")],
            Duration::from_secs(30),
        );
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);

        let dir = temp_dir("leftovers");
        let env = Env::player(&dir.join("data"));
        let t = env.spawn(&["play", "--screen-reader", "--opponent", "engine", "--new"]);
        assert!(
            t.wait_for("Zug oder Befehl:", Duration::from_secs(30))
                .is_some(),
            "{}",
            t.all_output()
        );
        let sim = Simulator::start("peg", &dir.join("board"));

        let (code, _, stderr) =
            run_closing_stdout(&["games"], &env.vars(), 0, Duration::from_secs(30));
        assert_eq!(code, Some(0), "{stderr}");

        drop(sim);
        drop(t);
        drop(dir);
        drop(capturing);
        drop(hanging);
    }
    // What was killed is gone within moments: waited for, a few seconds at most (what is
    // still there then is named below).
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while std::time::Instant::now() < deadline
        && !(common::descendants(std::process::id()).is_empty()
            && common::processes_mentioning(&common::hanging_marker()).is_empty())
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    let me = std::process::id();
    let children = common::descendants(me);
    let sleeping = common::processes_mentioning(&common::hanging_marker());
    let ours: Vec<u32> = common::processes_mentioning("hector-test-")
        .into_iter()
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains(&format!("-{me}-")))
        })
        .collect();
    let entries = our_temp_entries();
    // What is found is ended and removed before the verdict, so that even a failure here
    // leaves nothing behind.
    for pid in children.iter().chain(&sleeping).chain(&ours) {
        common::kill_all(&common::descendants(*pid));
    }
    common::kill_all(&children);
    common::kill_all(&sleeping);
    common::kill_all(&ours);
    for name in &entries {
        let _ = std::fs::remove_dir_all(std::env::temp_dir().join(name));
    }
    assert!(
        children.is_empty(),
        "still running below the test: {children:?}"
    );
    assert!(
        sleeping.is_empty(),
        "the hanging module's sleep is left: {sleeping:?}"
    );
    assert!(ours.is_empty(), "processes with our folders: {ours:?}");
    assert!(
        entries.is_empty(),
        "left in the temporary directory: {entries:?}"
    );
}
