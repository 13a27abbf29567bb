//! Input that was silently lost is refused with its reason or read: a game longer than 1 MiB
//! and compressed files for `hector play --from` and `hector analyse`, a zstd file made with a
//! long window, a 2 GB sparse journal in `hector games`, and a closed standard output.

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

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::{ChildGuard, Env, find_program, hector, temp_dir};

const LIMIT: Duration = Duration::from_secs(60);

const SHORT: &str = "[Event \"Kurz\"]\n[White \"Anna\"]\n[Black \"Bruno\"]\n\n1. e4 e5 2. Nf3 *\n";

/// One game of more than 1 MiB: knights going back and forth under long comments.
fn long_game() -> String {
    let mut text = String::from("[Event \"Lang\"]\n[White \"Anna\"]\n[Black \"Bruno\"]\n\n");
    let mut n = 1;
    while text.len() < 1_200_000 {
        text.push_str(&format!(
            "{n}. Nf3 {{ {} }} Nf6 {}. Ng1 Ng8 ",
            "c".repeat(200),
            n + 1
        ));
        n += 2;
    }
    text.push_str("*\n");
    text
}

fn gzip(text: &str) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(text.as_bytes()).unwrap();
    e.finish().unwrap()
}

/// zstd data; with `window_log` the frame asks for a window that large (as `zstd --long=27`
/// does on a stream).
fn zstd(text: &str, window_log: Option<u32>) -> Vec<u8> {
    let mut e = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
    if let Some(log) = window_log {
        e.long_distance_matching(true).unwrap();
        e.window_log(log).unwrap();
    }
    e.write_all(text.as_bytes()).unwrap();
    e.finish().unwrap()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// `hector play --from` a game it cannot read whole refuses, saying why; compressed games
/// are read and continued.
#[test]
fn play_from_refuses_a_game_too_long_and_reads_compressed_files() {
    let dir = temp_dir("inputs-from");
    let long = write(&dir, "long.pgn", long_game().as_bytes());
    let long_gz = write(&dir, "long.pgn.gz", &gzip(&long_game()));
    let env = Env::player_home(&dir);
    for file in [&long, &long_gz] {
        let from = file.display().to_string();
        let out = env.run(
            &[
                "play",
                "--from",
                &from,
                "--opponent",
                "keyboard",
                "--screen-reader",
            ],
            b"ende\nja\n",
            LIMIT,
        );
        assert_ne!(out.code, Some(0), "{from}: {}{}", out.stdout, out.stderr);
        assert!(
            out.stderr
                .contains("Partie 1, Zeile 1: die Partie ist länger als 1 MiB"),
            "{from}: {}",
            out.stderr
        );
        assert!(!out.stdout.contains("Sie spielen"), "{}", out.stdout);
    }
    for (name, bytes) in [
        ("short.pgn.gz", gzip(SHORT)),
        ("short.pgn.zst", zstd(SHORT, None)),
    ] {
        let file = write(&dir, name, &bytes).display().to_string();
        let out = env.run(
            &[
                "play",
                "--from",
                &file,
                "--opponent",
                "keyboard",
                "--screen-reader",
            ],
            b"letzter\nende\nja\n",
            LIMIT,
        );
        assert_eq!(out.code, Some(0), "{name}: {}", out.stderr);
        assert!(
            out.stdout
                .contains("Zuletzt: Zug 2, Weiß: Springer Felix drei"),
            "{name}: {}",
            out.stdout
        );
    }
}

/// `hector analyse` of a game too long says so (it judged "0 moves" and ended with 0), and
/// judges a compressed game.
#[test]
fn analyse_refuses_a_game_too_long_and_reads_compressed_files() {
    find_program("stockfish").expect("stockfish is installed (scripts/setup)");
    let dir = temp_dir("inputs-analyse");
    let env = Env::player_home(&dir);
    let long = write(&dir, "long.pgn", long_game().as_bytes())
        .display()
        .to_string();
    let out = env.run(&["analyse", &long, "--movetime", "10"], b"", LIMIT);
    assert_eq!(out.code, Some(1), "{}{}", out.stdout, out.stderr);
    assert!(
        out.stderr.contains("the game is longer than 1 MiB"),
        "{}",
        out.stderr
    );
    assert!(!out.stdout.contains("0 Züge"), "{}", out.stdout);
    for (name, bytes) in [
        ("short.pgn.gz", gzip(SHORT)),
        ("short.pgn.zst", zstd(SHORT, None)),
        // Compressed, whatever its name: a journal never is.
        ("short.game", gzip(SHORT)),
    ] {
        let file = write(&dir, name, &bytes).display().to_string();
        let out = env.run(&["analyse", &file, "--movetime", "10"], b"", LIMIT);
        assert_eq!(out.code, Some(0), "{name}: {}", out.stderr);
        assert!(
            out.stdout.contains("Zug 2, Weiß: Springer Felix drei"),
            "{name}: {}",
            out.stdout
        );
    }
}

/// A zstd frame that asks for a window over 32 MiB is refused with the reason, not decoded
/// with that much memory; a window within the cap is read.
#[test]
fn a_zstd_window_over_the_cap_is_refused_with_the_reason() {
    let dir = temp_dir("inputs-window");
    let env = Env::player_home(&dir);
    let wide = write(&dir, "wide.pgn.zst", &zstd(SHORT, Some(27)))
        .display()
        .to_string();
    let out = env.run(&["check", &wide], b"", LIMIT);
    assert_eq!(out.code, Some(2), "{}{}", out.stdout, out.stderr);
    assert!(
        out.stderr
            .contains("the zstd data needs a window of more than 32 MiB"),
        "{}",
        out.stderr
    );
    let out = env.run(
        &[
            "play",
            "--from",
            &wide,
            "--opponent",
            "keyboard",
            "--screen-reader",
        ],
        b"ende\nja\n",
        LIMIT,
    );
    assert_ne!(out.code, Some(0), "{}", out.stdout);
    assert!(
        out.stderr.contains("window of more than 32 MiB"),
        "{}",
        out.stderr
    );
    let fits = write(&dir, "fits.pgn.zst", &zstd(SHORT, Some(25)))
        .display()
        .to_string();
    let out = env.run(&["check", &fits], b"", LIMIT);
    assert_eq!(out.code, Some(0), "{}{}", out.stdout, out.stderr);
}

/// Runs hector and returns its exit status, standard output and its own peak memory in KiB
/// (from wait4, not the test's other children's).
fn run_measured(args: &[&str], env: &Env) -> (Option<i32>, String, i64) {
    let child = Command::new(hector())
        .args(args)
        .envs(env.vars())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start hector");
    let mut guard = ChildGuard(child);
    let mut out = guard.0.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut out, &mut s);
        s
    });
    let pid = nix::libc::pid_t::try_from(guard.0.id()).unwrap();
    let (status, rusage) = common::within(LIMIT, "hector", move || {
        let mut status = 0;
        // SAFETY: an all-zero rusage is a valid value; wait4 fills it for the child it reaps.
        let mut rusage: nix::libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: the pointers are valid for the call.
        let reaped = unsafe { nix::libc::wait4(pid, &mut status, 0, &mut rusage) };
        assert_eq!(reaped, pid, "wait4");
        (status, rusage.ru_maxrss)
    });
    // Reaped here: the guard must not kill a number another process may get.
    std::mem::forget(guard);
    let code = nix::libc::WIFEXITED(status).then(|| nix::libc::WEXITSTATUS(status));
    (code, reader.join().unwrap(), rusage)
}

/// A 2 GB sparse file among the journals: `hector games` names it from its head, in bounded
/// time and memory (it read all 2 GB, in 2.1 GB of memory), and export refuses it.
#[test]
fn a_huge_sparse_journal_is_named_too_large_from_its_head() {
    let dir = temp_dir("inputs-sparse");
    let games = dir.join("data/games");
    std::fs::create_dir_all(&games).unwrap();
    let imported = hector::core::record::import_pgn(SHORT.as_bytes(), 1).unwrap();
    let mut bytes =
        hector::core::record::encode_header(&imported.header("2026-11-23T20:00:00Z")).unwrap();
    for e in imported.entries() {
        bytes.extend(hector::core::record::encode_entry(&e).unwrap());
    }
    let path = games.join("2026-11-23_200000_0001.journal");
    std::fs::write(&path, &bytes).unwrap();
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(2 << 30).unwrap();
    drop(file);
    let env = Env::player_home(&dir);
    let (code, listed, peak_kib) = run_measured(&["games"], &env);
    assert_eq!(code, Some(0), "{listed}");
    assert!(
        listed.contains("ist mit 2048 MiB zu groß für ein Journal (höchstens 32 MiB)"),
        "{listed}"
    );
    assert!(listed.contains("Anna gegen Bruno"), "{listed}");
    assert!(peak_kib < 100 * 1024, "hector games used {peak_kib} KiB");
    // hector resume (and hector play, which looks for a game to continue) passes it over the
    // same way.
    let (code, _, peak_kib) = run_measured(&["resume", "--screen-reader"], &env);
    assert_eq!(code, Some(1));
    assert!(peak_kib < 100 * 1024, "hector resume used {peak_kib} KiB");
    let out = env.run(&["export", "1"], b"", LIMIT);
    assert_eq!(out.code, Some(1), "{}", out.stdout);
    assert!(
        out.stderr
            .contains("ist mit 2048 MiB zu groß für ein Journal (höchstens 32 MiB)"),
        "{}",
        out.stderr
    );
}

/// A closed standard output (not a pipe whose reader left) is an error with status 2: the
/// report went nowhere. /dev/null is a place to write to, and stays a success.
#[test]
fn a_closed_standard_output_is_an_error() {
    let dir = temp_dir("inputs-closed");
    let games = dir.join("data/games");
    std::fs::create_dir_all(&games).unwrap();
    let imported = hector::core::record::import_pgn(SHORT.as_bytes(), 1).unwrap();
    let mut bytes =
        hector::core::record::encode_header(&imported.header("2026-11-23T20:00:00Z")).unwrap();
    for e in imported.entries() {
        bytes.extend(hector::core::record::encode_entry(&e).unwrap());
    }
    std::fs::write(games.join("2026-11-23_200000_0001.journal"), bytes).unwrap();
    let env = Env::player_home(&dir);
    let hector = hector().display().to_string();
    for args in [
        &["export", "1"][..],
        &["games"][..],
        &["export", "1", "--text"][..],
    ] {
        for (redirect, code) in [(">&-", 2), (">/dev/null", 0)] {
            let mut line = vec!["-c", "exec \"$0\" \"$@\" REDIRECT", hector.as_str()];
            line.extend_from_slice(args);
            let script = line[1].replace("REDIRECT", redirect);
            line[1] = &script;
            let child = Command::new("sh")
                .args(&line)
                .envs(env.vars())
                .stdin(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let guard = ChildGuard(child);
            let out = common::within(LIMIT, "hector", move || {
                let mut guard = guard;
                let mut err = String::new();
                let _ = std::io::Read::read_to_string(
                    guard.0.stderr.as_mut().expect("stderr"),
                    &mut err,
                );
                (guard.0.wait().map(|s| s.code()).ok().flatten(), err)
            });
            assert_eq!(out.0, Some(code), "{args:?} {redirect}: {}", out.1);
            if code == 2 {
                assert!(out.1.contains("standard output is closed"), "{}", out.1);
            }
        }
    }
}
