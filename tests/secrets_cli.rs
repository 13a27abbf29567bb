//! The lichess token stays secret: never sent over plain http to another machine (a proxy
//! stand-in on 127.0.0.1 sees what would have gone out), never read through a symbolic link,
//! and never in the environment of a program hector starts: the engine, espeak-ng, and the
//! speech-dispatcher that libspeechd starts for hector (read from /proc/PID/environ).

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
#[path = "common/lichess.rs"]
mod lichess;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{ChildGuard, Env, find_program, hector, kill_mentioning, processes_mentioning};
use common::{temp_dir, within};
use lichess::{Server, TOKEN};
use shakmaty::Color;

const LIMIT: Duration = Duration::from_secs(30);

/// `http://` to another machine is refused before anything is sent: the stand-in, as the
/// proxy every request would go through, sees no request and no token (it saw both before),
/// and `login` does not even ask for the token.
#[test]
fn the_token_is_never_sent_over_plain_http_to_another_machine() {
    let proxy = Server::start();
    proxy.add_game(Color::White, "Anna", &[]);
    let dir = temp_dir("secrets-http");
    let mut env = Env::player_home(&dir);
    for (k, v) in [
        ("ALL_PROXY", proxy.url.as_str()),
        ("NO_PROXY", ""),
        ("no_proxy", ""),
        ("LICHESS_TOKEN", TOKEN),
    ] {
        env = env.var(k, v);
    }
    let mirror = "http://mirror.example.com:8080";
    for args in [
        &["online", "--server", mirror, "games"][..],
        &["online", "--server", mirror, "play", "--game", "1"][..],
        &["online", "--server", mirror, "login"][..],
    ] {
        let out = env.run(args, format!("{TOKEN}\n").as_bytes(), LIMIT);
        assert_eq!(out.code, Some(1), "{args:?}: {}{}", out.stdout, out.stderr);
        assert!(
            out.stderr.contains(
                "http://mirror.example.com:8080 ist keine https-Adresse: der Zugangsschlüssel ginge unverschlüsselt durchs Netz"
            ),
            "{args:?}: {}",
            out.stderr
        );
        assert!(!out.stdout.contains("board:play"), "{}", out.stdout);
    }
    assert!(proxy.requests().is_empty(), "{:?}", proxy.requests());
    assert!(proxy.snapshot().authorizations.is_empty());
    assert!(!dir.join("config/hector/lichess-token").exists());
    // This machine itself stays allowed: the stand-in answers directly.
    let direct = Env::player_home(&dir).token(TOKEN);
    let local = direct.run(&["online", "--server", &proxy.url, "games"], b"", LIMIT);
    assert_eq!(local.code, Some(0), "{}", local.stderr);
    // The stand-in sees a token that reaches it: the empty list above means none did.
    let authorizations = proxy.snapshot().authorizations;
    assert!(
        !authorizations.is_empty()
            && authorizations
                .iter()
                .all(|a| *a == format!("Bearer {TOKEN}")),
        "{authorizations:?}"
    );
}

/// A symbolic link where the token file belongs is not followed: the token it points to is
/// not read, not sent, and the player hears why.
#[test]
fn a_token_file_that_is_a_link_is_not_read() {
    let server = Server::start();
    let dir = temp_dir("secrets-link");
    let config = dir.join("config/hector");
    std::fs::create_dir_all(&config).unwrap();
    let elsewhere = dir.join("elsewhere");
    std::fs::write(&elsewhere, format!("{TOKEN}\n")).unwrap();
    std::fs::set_permissions(&elsewhere, std::fs::Permissions::from_mode(0o600)).unwrap();
    std::os::unix::fs::symlink(&elsewhere, config.join(server.token_file())).unwrap();
    let env = Env::player_home(&dir);
    let out = env.run(&["online", "--server", &server.url, "games"], b"", LIMIT);
    assert_eq!(out.code, Some(1), "{}{}", out.stdout, out.stderr);
    assert!(
        out.stderr.contains("sie ist ein symbolischer Verweis"),
        "{}",
        out.stderr
    );
    assert!(server.requests().is_empty(), "{:?}", server.requests());
    // Written again by a login, it becomes a file of its own (the link is replaced).
    let login = env.run(
        &["online", "--server", &server.url, "login"],
        format!("{TOKEN}\n").as_bytes(),
        LIMIT,
    );
    assert_eq!(login.code, Some(0), "{}", login.stderr);
    let meta = std::fs::symlink_metadata(config.join(server.token_file())).unwrap();
    assert!(meta.is_file());
    let again = env.run(&["online", "--server", &server.url, "games"], b"", LIMIT);
    assert_eq!(again.code, Some(0), "{}", again.stderr);
}

/// A program that writes its own environment to `dir/NAME.PID.env`, then becomes `real`.
fn recording(dir: &Path, name: &str, real: &Path) -> std::path::PathBuf {
    let script = dir.join(name);
    std::fs::write(
        &script,
        format!(
            // Written aside and renamed: the test reads a whole environment or none (the
            // redirection makes the file before cat has written into it).
            "#!/bin/sh\ncat /proc/$$/environ > '{d}/{name}.'$$'.part'\nmv '{d}/{name}.'$$'.part' '{d}/{name}.'$$'.env'\nexec '{}' \"$@\"\n",
            real.display(),
            d = dir.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

/// The environments the recording programs wrote, by program name.
fn recorded(dir: &Path, name: &str) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n.starts_with(&format!("{name}.")) && n.ends_with(".env")
        })
        .map(|e| String::from_utf8_lossy(&std::fs::read(e.path()).unwrap()).into_owned())
        .collect()
}

/// The engine and espeak-ng, started by hector with LICHESS_TOKEN in its environment, do not
/// have it in theirs.
#[test]
fn the_engine_and_espeak_ng_do_not_inherit_the_token() {
    let stockfish = find_program("stockfish").expect("stockfish is installed (scripts/setup)");
    let espeak = find_program("espeak-ng").expect("espeak-ng is installed (scripts/setup)");
    let dir = temp_dir("secrets-children");
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let engine = recording(&dir, "engine", &stockfish);
    recording(&bin, "espeak-ng", &espeak);
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let env = Env::player_home(&dir).var("PATH", &path).token(TOKEN);
    let engine_arg = format!("engine:{}", engine.display());
    let mut t = env.spawn(&[
        "play",
        "--new",
        "--opponent",
        &engine_arg,
        "--speech",
        "espeak-ng",
        "--screen-reader",
    ]);
    assert!(
        t.wait_for("Zug oder Befehl", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"Eva vier\r");
    let deadline = Instant::now() + LIMIT;
    while recorded(&dir, "engine").is_empty() || recorded(&bin, "espeak-ng").is_empty() {
        assert!(
            Instant::now() < deadline,
            "the engine or espeak-ng did not start: {}",
            t.all_output()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    for (who, environ) in recorded(&dir, "engine")
        .into_iter()
        .map(|e| ("the engine", e))
        .chain(
            recorded(&bin, "espeak-ng")
                .into_iter()
                .map(|e| ("espeak-ng", e)),
        )
    {
        assert!(
            environ.contains("HECTOR_DATA="),
            "{who}: read its environment"
        );
        assert!(!environ.contains("LICHESS_TOKEN"), "{who}: {environ:?}");
        assert!(!environ.contains(TOKEN), "{who}: {environ:?}");
    }
}

/// The speech-dispatcher that libspeechd starts for hector (and that outlives it) does not
/// have the token in its environment.
#[test]
fn the_speech_dispatcher_started_for_hector_does_not_inherit_the_token() {
    let dir = temp_dir("secrets-speechd");
    let runtime = dir.join("runtime");
    std::fs::create_dir_all(&runtime).unwrap();
    let runtime_text = format!("{}/", runtime.display());
    // Whatever happens, the daemon and its modules go with the test.
    struct Daemons(String);
    impl Drop for Daemons {
        fn drop(&mut self) {
            kill_mentioning(&self.0);
        }
    }
    let _daemons = Daemons(runtime_text.clone());
    let child = Command::new(hector())
        .args(["say", "Eva vier", "--backend", "speech-dispatcher"])
        .envs(common::NO_LOCALE)
        // No address of a private daemon: libspeechd starts one, in this runtime folder.
        .env_remove("SPEECHD_ADDRESS")
        .env("XDG_RUNTIME_DIR", &runtime)
        .env("HECTOR_CONFIG", "/nonexistent")
        .env("HOME", dir.path())
        .env("LICHESS_TOKEN", TOKEN)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start hector");
    let mut guard = ChildGuard(child);
    let deadline = Instant::now() + LIMIT;
    let daemons = loop {
        let found = processes_mentioning(&runtime_text);
        if !found.is_empty() {
            break found;
        }
        assert!(
            Instant::now() < deadline,
            "no speech-dispatcher was started in {runtime_text}"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut read = 0;
    for pid in daemons {
        let Ok(environ) = std::fs::read(format!("/proc/{pid}/environ")) else {
            continue;
        };
        read += 1;
        let environ = String::from_utf8_lossy(&environ);
        assert!(environ.contains("XDG_RUNTIME_DIR="), "{pid}: {environ:?}");
        assert!(!environ.contains("LICHESS_TOKEN"), "{pid}: {environ:?}");
    }
    assert!(read > 0, "no daemon's environment could be read");
    within(LIMIT, "hector say", move || guard.0.wait()).expect("hector ends");
}
