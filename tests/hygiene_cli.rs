//! hector as a good citizen of the machine, through the real binary: what `--output` does with
//! what is already at the path, output that cannot be written (a full device, a reader that
//! went away), helper programs that hang, and input without end.

#![allow(
    clippy::expect_used,
    clippy::panic,
    unsafe_code,
    reason = "tests stop at the first surprise, and the pseudo-terminals need the system's calls; the crate's lints are for hector itself"
)]
// The binary is driven through Unix pseudo-terminals and processes (tests/common).
#![cfg(unix)]

mod common;

use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{Env, TempDir, data, run_closing_stdout, run_into, run_with, temp_dir};
use hector::core::record::{Entry, Header};
use hector::io::journal::Journal;
use shakmaty::Color;

const LIMIT: Duration = Duration::from_secs(60);

/// A data directory with one short game in it.
fn one_game() -> TempDir {
    let data = temp_dir("hygiene-data");
    let header = Header::new("2026-11-21T14:03:05Z", "Anna", "Bernd");
    let mut j = Journal::create_in(&data.join("games"), &header).expect("create");
    for (uci, san, by) in [("e2e4", "e4", Color::White), ("e7e5", "e5", Color::Black)] {
        j.append(&Entry::Move {
            uci: uci.parse().expect("uci"),
            san: san.parse().expect("san"),
            by,
            clock: None,
        })
        .expect("append");
    }
    data
}

fn export_to(data: &Path, target: &Path) -> common::Run {
    let env = Env::player(data);
    let target = target.to_str().expect("utf-8 path");
    env.run(&["export", "1", "--output", target], b"", LIMIT)
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn export_output_writes_regular_files_and_links_and_refuses_the_rest() {
    let data = one_game();
    let out = temp_dir("hygiene-out");

    // A new file, then a file its owner made private: it stays private.
    let file = out.join("game.pgn");
    let r = export_to(&data, &file);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.contains("Geschrieben nach"), "{}", r.stdout);
    assert!(
        std::fs::read_to_string(&file)
            .expect("written")
            .contains("1. e4 e5")
    );
    std::fs::write(&file, "old").expect("old text");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    let r = export_to(&data, &file);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let meta = std::fs::metadata(&file).expect("still there");
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    assert!(
        std::fs::read_to_string(&file)
            .expect("read")
            .contains("1. e4 e5")
    );

    // A symbolic link stays a link; the file it leads to is written.
    let link = out.join("link.pgn");
    std::os::unix::fs::symlink("game.pgn", &link).expect("link");
    std::fs::write(&file, "old").expect("old text");
    let r = export_to(&data, &link);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        std::fs::symlink_metadata(&link)
            .expect("link")
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(&file)
            .expect("read")
            .contains("1. e4 e5")
    );

    // A device (also behind a link), a directory and a named pipe are refused and kept.
    let to_null = out.join("null");
    std::os::unix::fs::symlink("/dev/null", &to_null).expect("link");
    let fifo = out.join("fifo");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600)).expect("fifo");
    let sub = out.join("folder");
    std::fs::create_dir(&sub).expect("folder");
    for (target, kind) in [
        (Path::new("/dev/null"), "ein Gerät"),
        (&to_null, "ein Gerät"),
        (&fifo, "eine benannte Pipe"),
        (&sub, "ein Verzeichnis"),
    ] {
        let r = export_to(&data, target);
        assert_eq!(r.code, Some(2), "{}: {}", target.display(), r.stderr);
        assert!(r.stderr.contains(kind), "{}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
        assert!(r.stdout.is_empty(), "{}", r.stdout);
    }
    let null = std::fs::metadata("/dev/null").expect("/dev/null");
    assert!(null.file_type().is_char_device());
    assert!(
        std::fs::symlink_metadata(&fifo)
            .expect("fifo")
            .file_type()
            .is_fifo()
    );
    // No temporary file is left behind, and nothing was added.
    assert_eq!(
        names(&out),
        ["fifo", "folder", "game.pgn", "link.pgn", "null"]
    );
    assert!(names(&sub).is_empty());
}

fn full() -> Stdio {
    Stdio::from(
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full"),
    )
}

#[test]
fn output_to_a_full_device_is_reported_once_with_status_2() {
    let data = one_game();
    let env = Env::player(&data);
    let masters = data_file("masters.pgn");
    let cases: [&[&str]; 7] = [
        &["check", &masters],
        &["transcript", &masters],
        &["games"],
        &["export", "1"],
        &["export", "1", "--text"],
        &["parse", "Springer Felix drei"],
        &["voices", "--lang", "de"],
    ];
    for args in cases {
        let (code, stderr) = run_into(args, &env.vars(), full(), LIMIT);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        let problems: Vec<&str> = stderr
            .lines()
            .filter(|l| l.contains("No space left on device"))
            .collect();
        assert_eq!(problems.len(), 1, "{args:?}: {stderr}");
    }
}

fn data_file(name: &str) -> String {
    data(name).to_str().expect("utf-8 path").to_owned()
}

#[test]
fn a_reader_that_goes_away_ends_hector_quietly() {
    let data = one_game();
    let env = Env::player(&data);
    let long = "N".repeat(100_000);
    // Enough output that the pipe is closed long before the end.
    let big = temp_dir("hygiene-big");
    let games = std::fs::read_to_string(common::data("masters.pgn")).expect("masters");
    let many = big.join("many.pgn");
    std::fs::write(&many, games.repeat(200)).expect("many games");
    let many = many.to_str().expect("utf-8 path");
    let cases: [&[&str]; 5] = [
        &["parse", &long],
        &["check", many],
        &["transcript", many],
        &["transcript", "--format", "tsv", many],
        &["export", "1"],
    ];
    for args in cases {
        let (code, head, stderr) = run_closing_stdout(args, &env.vars(), 1, LIMIT);
        assert_eq!(head.len(), 1);
        assert_eq!(code, Some(0), "{:?}: {stderr}", &args[..1]);
        assert!(stderr.is_empty(), "{:?}: {stderr}", &args[..1]);
    }
}

/// A fake program that hangs and starts a child that hangs too; both carry the fake's folder
/// on their command line, so that anything left running is found.
fn hanging_program(dir: &Path, name: &str) {
    let path = dir.join(name);
    std::fs::write(&path, "#!/bin/sh\nsh -c 'sleep 600; :' \"$0\"\n").expect("fake program");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// Kills whatever still mentions the folder when dropped, so that a failing test leaves
/// nothing behind either.
struct Reaper(TempDir);

impl Drop for Reaper {
    fn drop(&mut self) {
        // With the slash: the folder "…-1" is not the folder "…-12" of another test.
        common::kill_mentioning(&format!("{}/", self.0.display()));
    }
}

#[test]
fn a_hanging_espeak_ng_probe_is_killed_with_its_children() {
    let bin = Reaper(temp_dir("hygiene-bin"));
    hanging_program(&bin.0, "espeak-ng");
    let path = format!(
        "{}:{}",
        bin.0.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for args in [
        &["say", "--backend", "espeak-ng", "Eva vier"][..],
        &["voices", "--lang", "de"][..],
    ] {
        // run_with's limit is the bound: a hang fails the test.
        let r = run_with(
            args,
            b"",
            &[
                ("PATH", &path),
                ("HECTOR_CONFIG", ""),
                // No speech-dispatcher answers here.
                ("SPEECHD_ADDRESS", "unix_socket:/nonexistent/speechd.sock"),
            ],
            LIMIT,
        );
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
        let left = common::processes_mentioning(&format!("{}/", bin.0.display()));
        assert!(left.is_empty(), "{args:?} left {left:?} running");
    }
}

#[test]
fn the_simulator_leaves_an_existing_link_alone() {
    let dir = temp_dir("hygiene-link");
    let link = dir.join("board");
    std::os::unix::fs::symlink("/dev/null", &link).expect("link");
    let r = run_with(
        &[
            "simulate-board",
            "--protocol",
            "peg",
            "--link",
            link.to_str().expect("utf-8 path"),
        ],
        b"quit\n",
        &[],
        LIMIT,
    );
    assert_ne!(r.code, Some(0), "{}", r.stdout);
    assert!(r.stderr.contains("already exists"), "{}", r.stderr);
    assert_eq!(
        std::fs::read_link(&link).expect("still a link"),
        Path::new("/dev/null")
    );
}

#[test]
fn a_configuration_file_is_read_only_when_it_is_a_small_regular_file() {
    let dir = temp_dir("hygiene-config");
    let big = dir.join("big.toml");
    std::fs::write(&big, format!("# {}\n", "x".repeat(100_000))).expect("big file");
    let missing = dir.join("missing.toml");
    let cases = [
        (Path::new("/dev/zero"), "keine gewöhnliche Datei"),
        (dir.path(), "keine gewöhnliche Datei"),
        (&big, "größer als 64 KiB"),
        (&missing, "gibt es nicht"),
    ];
    for (config, expected) in cases {
        let r = run_with(
            &["say", "--backend", "print", "Eva vier"],
            b"",
            &[("HECTOR_CONFIG", config.to_str().expect("utf-8 path"))],
            LIMIT,
        );
        assert_eq!(r.code, Some(0), "{config:?}: {}", r.stderr);
        assert_eq!(r.stdout, "Eva vier\n", "{config:?}");
        let told: Vec<&str> = r.stderr.lines().filter(|l| l.contains(expected)).collect();
        assert_eq!(told.len(), 1, "{config:?}: {}", r.stderr);
    }
    // Empty: no file, nothing to tell.
    let r = run_with(
        &["say", "--backend", "print", "Eva vier"],
        b"",
        &[("HECTOR_CONFIG", "")],
        LIMIT,
    );
    assert!(!r.stderr.contains("Voreinstellungen"), "{}", r.stderr);
}

#[test]
fn endless_input_is_cut_and_refused() {
    // A line without end between two moves: cut, and the next line still arrives.
    let mut input = b"Eva vier\n".to_vec();
    input.extend(std::iter::repeat_n(b'N', 1_000_000));
    input.extend("\nEva fünf\n".as_bytes());
    let r = run_with(
        &["say", "--backend", "print", "-"],
        &input,
        &[("HECTOR_CONFIG", "")],
        LIMIT,
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{}", r.stderr);
    assert_eq!(lines[0], "Eva vier");
    assert!(lines[1].len() <= 4096 && lines[1].starts_with("NNN"));
    assert_eq!(lines[2], "Eva fünf");
    // A device that never ends is not read at all (read, it would hold hector past the
    // limit).
    let r = run_with(&["check", "/dev/zero"], b"", &[], LIMIT);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("it is a device"), "{}", r.stderr);
}

#[test]
fn line_mode_ends_when_its_reader_goes_away() {
    use std::io::{Read, Write};
    let data = temp_dir("hygiene-play");
    let runtime = temp_dir("hygiene-runtime");
    for args in [
        &["play", "--screen-reader", "--opponent", "keyboard", "--new"][..],
        &["clock", "--screen-reader", "--tc", "300"][..],
    ] {
        let child = std::process::Command::new(common::hector())
            .args(args)
            .envs(Env::player(&data).vars())
            .env("XDG_RUNTIME_DIR", runtime.path())
            .env("SPEECHD_ADDRESS", common::no_speech_dispatcher(&runtime))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start hector");
        let mut guard = common::ChildGuard(child);
        let mut out = guard.0.stdout.take().expect("stdout");
        common::within(Duration::from_secs(20), "hector's first byte", move || {
            let mut first = [0u8; 1];
            out.read_exact(&mut first).expect("a first byte");
        });
        // The input stays open: only the closed output can end it.
        let mut input = guard.0.stdin.take().expect("stdin");
        let deadline = Instant::now() + Duration::from_secs(20);
        let status = loop {
            let _ = input.write_all(b"brett\n");
            let _ = input.flush();
            if let Some(status) = guard.0.try_wait().expect("wait") {
                break status;
            }
            assert!(
                Instant::now() < deadline,
                "{args:?} goes on without a reader"
            );
            std::thread::sleep(Duration::from_millis(100));
        };
        assert_eq!(status.code(), Some(0), "{args:?}");
    }
}

#[test]
fn control_characters_typed_or_in_files_are_shown_not_sent() {
    let data = temp_dir("hygiene-control");
    let r = Env::player(&data).run(
        &["play", "--screen-reader", "--opponent", "keyboard", "--new"],
        b"Eva\x1b[2J\x07 vier\n",
        LIMIT,
    );
    assert!(
        !r.stdout.contains('\x1b') && !r.stdout.contains('\x07'),
        "{:?}",
        r.stdout
    );
    assert!(r.stdout.contains("\\x1B[2J\\x07"), "{}", r.stdout);
    let r = run_with(&["parse", "Eva\u{1}vier"], b"", &[], LIMIT);
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stdout.contains("\\x01"), "{}", r.stdout);
}

#[test]
fn output_and_errors_into_a_closed_pipe_are_no_panic() {
    let dir = temp_dir("hygiene-stderr");
    let game = dir.join("game.toml");
    std::fs::write(
        &game,
        format!(
            "white = \"A\"\nblack = \"B\"\nblind = \"black\"\ntime_control = \"300\"\n\
             [peg_board]\nport = \"{0}/peg\"\nprotocol = \"peg\"\n\
             [sighted_board]\nport = \"{0}/dgt\"\nprotocol = \"dgt\"\n",
            dir.display()
        ),
    )
    .expect("game file");
    let game = game.to_str().expect("utf-8 path");
    let long = "N".repeat(100_000);
    let data = dir.join("data");
    for args in [
        &["arbiter", "--screen-reader", game][..],
        &["voices"][..],
        &["parse", &long][..],
    ] {
        // Standard output and standard error both into a pipe closed after one byte.
        let child = std::process::Command::new("bash")
            .arg("-c")
            .arg("\"$0\" \"$@\" 2>&1 | head -c1 >/dev/null; echo \"${PIPESTATUS[0]}\"")
            .arg(common::hector())
            .args(args)
            .envs(Env::player(&data).vars())
            .env("XDG_RUNTIME_DIR", dir.path())
            .env(
                "SPEECHD_ADDRESS",
                format!("unix_socket:{}/none.sock", dir.display()),
            )
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("bash");
        let mut guard = common::ChildGuard(child);
        let deadline = Instant::now() + LIMIT;
        while matches!(guard.0.try_wait(), Ok(None)) {
            assert!(Instant::now() < deadline, "{:?} did not end", &args[..1]);
            std::thread::sleep(Duration::from_millis(20));
        }
        let mut status = String::new();
        if let Some(mut out) = guard.0.stdout.take() {
            use std::io::Read;
            let _ = out.read_to_string(&mut status);
        }
        let status: i32 = status.trim().parse().expect("a status");
        assert_ne!(status, 101, "{:?} panicked", &args[..1]);
        let expected = if args[0] == "arbiter" { 1 } else { 0 };
        assert_eq!(status, expected, "{:?}", &args[..1]);
    }
}

#[test]
fn export_of_a_device_is_refused_at_once() {
    let r = run_with(
        &["export", "/dev/zero"],
        b"",
        &[("HECTOR_CONFIG", "")],
        LIMIT,
    );
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("/dev/zero ist ein Gerät, keine Partiedatei"),
        "{}",
        r.stderr
    );
}

/// Whether process `pid` still runs (a zombie does not count).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rfind(')')
            .and_then(|i| stat[i + 1..].split_whitespace().next())
            .is_some_and(|state| state != "Z")
    })
}

#[test]
fn an_engine_does_not_outlive_a_killed_hector() {
    let dir = Reaper(temp_dir("hygiene-stubborn"));
    let engine = dir.0.join("stubborn");
    // It plays, and the end of its input does not end it.
    std::fs::write(
        &engine,
        "#!/bin/sh\necho $$ > \"$0.pid\"\nwhile read -r line; do\n  case \"$line\" in\n    \
         uci) echo 'id name Stubborn'; echo uciok;;\n    isready) echo readyok;;\n    \
         go*) echo 'bestmove e7e5';;\n  esac\ndone\nexec sleep 600\n",
    )
    .expect("engine");
    std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let data = dir.0.join("data");
    let child = std::process::Command::new(common::hector())
        .args(["play", "--screen-reader", "--new", "--opponent"])
        .arg(format!("engine:{}", engine.display()))
        .envs(Env::player(&data).vars())
        .env("XDG_RUNTIME_DIR", dir.0.path())
        .env(
            "SPEECHD_ADDRESS",
            format!("unix_socket:{}/none.sock", dir.0.display()),
        )
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start hector");
    let mut guard = common::ChildGuard(child);
    let pid_file = dir.0.join("stubborn.pid");
    let deadline = Instant::now() + LIMIT;
    let pid: u32 = loop {
        if let Some(pid) = std::fs::read_to_string(&pid_file)
            .ok()
            .and_then(|t| t.trim().parse().ok())
        {
            break pid;
        }
        assert!(Instant::now() < deadline, "the engine did not start");
        std::thread::sleep(Duration::from_millis(20));
    };
    // hector is killed outright: no drop, no clean-up of its own.
    let _ = guard.0.kill();
    let _ = guard.0.wait();
    let deadline = Instant::now() + Duration::from_secs(5);
    while alive(pid) {
        if Instant::now() > deadline {
            common::kill_all(&[pid]);
            panic!("the engine outlived hector");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `speichern` during a game writes by the same rules as `export --output`: a link's target
/// is written and the link stays, a pipe is refused and left as it is.
#[test]
fn saving_during_a_game_keeps_links_and_refuses_pipes() {
    let dir = temp_dir("hygiene-save");
    let target = dir.join("target.pgn");
    std::fs::write(&target, b"old").expect("target");
    let link = dir.join("link.pgn");
    std::os::unix::fs::symlink(&target, &link).expect("link");
    let fifo = dir.join("fifo");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo")
            .success()
    );
    let input = format!(
        "e4\nspeichern {}\nspeichern {}\n",
        link.display(),
        fifo.display()
    );
    let r = Env::player_home(&dir).run(
        &["play", "--screen-reader", "--opponent", "keyboard", "--new"],
        input.as_bytes(),
        LIMIT,
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        std::fs::symlink_metadata(&link)
            .expect("link")
            .file_type()
            .is_symlink(),
        "{}",
        r.stdout
    );
    let written = std::fs::read_to_string(&target).expect("target");
    assert!(written.contains("1. e4"), "{written}");
    assert!(
        r.stdout
            .contains(&format!("Partie gespeichert: {}", target.display())),
        "{}",
        r.stdout
    );
    use std::os::unix::fs::FileTypeExt;
    assert!(
        std::fs::symlink_metadata(&fifo)
            .expect("fifo")
            .file_type()
            .is_fifo()
    );
    assert!(r.stdout.contains("Speichern nicht möglich"), "{}", r.stdout);
}
