//! What installing hector rests on: `hector --version` names the build's commit; the hidden
//! `hector package-files` writes the manual pages and completions scripts/package ships; and
//! scripts/build, which scripts/play runs before hector exists, builds a small project of two
//! packages with the real cargo, as it builds hector, while the test reads what it printed and
//! what it had espeak-ng say. espeak-ng is replaced by a recorder on the PATH there, since the
//! script only hands it the words (and no test may need a sound card).

#![allow(
    clippy::expect_used,
    reason = "tests stop at the first surprise; the crate's lints are for hector itself"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A folder removed when the test ends, passed or failed.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("folder");
    std::fs::write(path, text).expect("write");
}

/// A binary package `tiny` with a library `part`, locked; espeak-ng as a recorder that writes
/// its arguments, one call a line, to `spoken`.
fn project(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("hector-build-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let scratch = Scratch(dir.clone());
    write(
        &dir.join("tiny/Cargo.toml"),
        "[package]\nname = \"tiny\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
         [dependencies]\npart = { path = \"../part\" }\n",
    );
    write(
        &dir.join("tiny/src/main.rs"),
        "fn main() { part::hello(); }\n",
    );
    write(
        &dir.join("part/Cargo.toml"),
        "[package]\nname = \"part\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    write(&dir.join("part/src/lib.rs"), "pub fn hello() {}\n");
    let lock = Command::new(env!("CARGO"))
        .args(["generate-lockfile", "--offline", "--manifest-path"])
        .arg(dir.join("tiny/Cargo.toml"))
        .output()
        .expect("cargo");
    assert!(lock.status.success(), "{lock:?}");
    write(
        &dir.join("bin/espeak-ng"),
        &format!(
            "#!/bin/sh\necho \"$*\" >> {}\n",
            dir.join("spoken").display()
        ),
    );
    let chmod = Command::new("chmod")
        .arg("+x")
        .arg(dir.join("bin/espeak-ng"))
        .status()
        .expect("chmod");
    assert!(chmod.success());
    scratch
}

/// The same project, where compiling `tiny` itself takes seven seconds (a procedural macro
/// that waits), as compiling hector itself takes minutes; and `part` names a build dependency
/// `unused` but has no build script, so cargo tree lists a package cargo never builds.
fn slow_project(name: &str) -> Scratch {
    let scratch = project(name);
    let dir = &scratch.0;
    write(
        &dir.join("tiny/Cargo.toml"),
        "[package]\nname = \"tiny\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
         [dependencies]\npart = { path = \"../part\" }\nslow = { path = \"../slow\" }\n",
    );
    write(
        &dir.join("tiny/src/main.rs"),
        "slow::pause!();\nfn main() { part::hello(); }\n",
    );
    write(
        &dir.join("slow/Cargo.toml"),
        "[package]\nname = \"slow\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
         [lib]\nproc-macro = true\n",
    );
    write(
        &dir.join("slow/src/lib.rs"),
        "#[proc_macro]\npub fn pause(_: proc_macro::TokenStream) -> proc_macro::TokenStream {\n\
         std::thread::sleep(std::time::Duration::from_secs(7));\n\
         proc_macro::TokenStream::new()\n}\n",
    );
    write(
        &dir.join("part/Cargo.toml"),
        "[package]\nname = \"part\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
         [build-dependencies]\nunused = { path = \"../unused\" }\n",
    );
    write(
        &dir.join("unused/Cargo.toml"),
        "[package]\nname = \"unused\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    write(&dir.join("unused/src/lib.rs"), "");
    let lock = Command::new(env!("CARGO"))
        .args(["generate-lockfile", "--offline", "--manifest-path"])
        .arg(dir.join("tiny/Cargo.toml"))
        .output()
        .expect("cargo");
    assert!(lock.status.success(), "{lock:?}");
    scratch
}

fn build(dir: &Path, args: &[&str]) -> Output {
    build_with(dir, args, &[])
}

fn build_with(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let path = format!(
        "{}:{}",
        dir.join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    Command::new(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/build"))
        .args(args)
        .env("HECTOR_BUILD_MANIFEST", dir.join("tiny/Cargo.toml"))
        .env("PATH", path)
        // No configuration file's language: the arguments decide.
        .env("HECTOR_CONFIG", "")
        .envs(env.iter().copied())
        .output()
        .expect("scripts/build runs")
}

fn spoken(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("spoken"))
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

/// The spoken words are started in the background: wait until what was said is `done`.
fn spoken_until(dir: &Path, done: impl Fn(&[String]) -> bool) -> Vec<String> {
    for _ in 0..100 {
        let said = spoken(dir);
        if done(&said) {
            return said;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    spoken(dir)
}

#[test]
fn the_first_build_is_announced_said_once_and_shown_as_it_goes() {
    let scratch = project("first");
    let dir = &scratch.0;
    let out = build(dir, &["--screen-reader"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            "hector wird zum ersten Mal gebaut. Das dauert einige Minuten; der Fortschritt wird angesagt.",
            "Gebaut: 1 von 2 Teilen, 50 Prozent; zuletzt part",
            "Gebaut: 2 von 2 Teilen, 100 Prozent; zuletzt tiny",
            "hector ist gebaut.",
        ],
        "{out:?}"
    );
    assert!(dir.join("tiny/target/release/tiny").exists());
    // Said once, at the start, in German (the build is shorter than a minute).
    assert_eq!(
        spoken_until(dir, |said| !said.is_empty()),
        [
            "-v de hector wird zum ersten Mal gebaut. Das dauert einige Minuten; der Fortschritt wird angesagt."
        ]
    );

    // Built: nothing to say or show.
    let again = build(dir, &[]);
    assert!(again.status.success(), "{again:?}");
    assert_eq!(String::from_utf8_lossy(&again.stdout), "", "{again:?}");
    assert_eq!(spoken(dir).len(), 1);
}

#[test]
fn the_long_last_part_is_named_once_and_its_time_moves_and_the_count_reaches_the_total() {
    let scratch = slow_project("slow");
    let dir = &scratch.0;
    // A minute of two seconds: the seven seconds of tiny's own compile are three "minutes".
    let out = build_with(dir, &[], &[("HECTOR_BUILD_MINUTE", "2")]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    let lines: Vec<&str> = text.lines().collect();
    // Said once that the last and largest part is being built, then how long it has taken.
    let own = "Jetzt wird tiny selbst gebaut, der letzte und größte Teil.";
    assert_eq!(lines.iter().filter(|l| **l == own).count(), 1, "{text}");
    let since: Vec<&&str> = lines
        .iter()
        .filter(|l| l.starts_with("tiny selbst wird gebaut; bisher "))
        .collect();
    assert!(!since.is_empty(), "{text}");
    assert!(
        since.contains(&&"tiny selbst wird gebaut; bisher 1 Minute."),
        "{text}"
    );
    // Nothing shown twice.
    for (i, line) in lines.iter().enumerate() {
        assert!(!lines[..i].contains(line), "{line} twice in {text}");
    }
    // cargo tree's estimate counted `unused`, which cargo never built: the last line counts
    // what was built, all of it.
    assert_eq!(
        lines[lines.len() - 2..],
        [
            "Gebaut: 3 von 3 Teilen, 100 Prozent; zuletzt tiny",
            "hector ist gebaut."
        ],
        "{text}"
    );
    assert!(lines.iter().any(|l| l.contains(" von 4 Teilen")), "{text}");
    // Spoken: the start, the last part once, then its time; never the same words twice.
    let said = spoken_until(dir, |said| said.len() >= 3);
    assert_eq!(
        said.iter().filter(|s| s.ends_with(own)).count(),
        1,
        "{said:?}"
    );
    assert!(
        said.iter()
            .any(|s| s.starts_with("-v de tiny selbst wird gebaut; bisher ")),
        "{said:?}"
    );
    for (i, s) in said.iter().enumerate() {
        assert!(!said[..i].contains(s), "{s} said twice: {said:?}");
    }
}

#[test]
fn a_failed_build_shows_the_compilers_messages_in_full_in_the_players_language() {
    let scratch = project("failed");
    let dir = &scratch.0;
    let first = build(dir, &["--lang", "en"]);
    assert!(first.status.success(), "{first:?}");
    assert!(
        String::from_utf8_lossy(&first.stdout).starts_with("Building hector for the first time."),
        "{first:?}"
    );
    write(
        &dir.join("tiny/src/main.rs"),
        "fn main() { part::hello(); let x: u8 = nonsense; }\n",
    );
    let out = build(dir, &["--new", "--lang=en"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    // Nothing was built before the error (part was built already): no progress, the failure;
    // a compiler slower than eight seconds has the rebuild announced first.
    let text = text
        .strip_prefix("Building hector again.\n")
        .unwrap_or(&text);
    let messages = text
        .strip_prefix("Building hector failed. The compiler's messages:\n")
        .unwrap_or_else(|| panic!("the failure comes first: {text}"));
    // The compiler's own words: the error, where it is, and cargo's closing line.
    assert!(messages.contains("cannot find value `nonsense`"), "{text}");
    assert!(messages.contains("src/main.rs:1:"), "{text}");
    assert!(messages.contains("could not compile `tiny`"), "{text}");
    let failure = "-v en Building hector failed. The messages are on the screen.";
    let said = spoken_until(dir, |said| said.last().is_some_and(|l| l == failure));
    assert_eq!(
        said.first().map(String::as_str),
        Some(
            "-v en Building hector for the first time. This takes some minutes; the progress is announced."
        )
    );
    assert_eq!(said.last().map(String::as_str), Some(failure), "{said:?}");
    assert!(
        said.len() == 2 || said[1] == "-v en Building hector again.",
        "{said:?}"
    );
}

fn hector() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hector"))
}

#[test]
fn the_version_names_the_commit_it_was_built_from() {
    let out = hector().arg("--version").output().expect("hector runs");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    // As build.rs decides: $HECTOR_COMMIT, else git's HEAD in this checkout, else unknown.
    let git = Command::new("git")
        .args([
            "-C",
            env!("CARGO_MANIFEST_DIR"),
            "rev-parse",
            "--short=12",
            "HEAD",
        ])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    let commit = std::env::var("HECTOR_COMMIT")
        .ok()
        .filter(|c| !c.trim().is_empty())
        .or(git)
        .unwrap_or_else(|| "unknown".to_string());
    assert_eq!(
        text.trim(),
        format!("hector {} (commit {commit})", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn package_files_writes_a_manual_page_per_mode_and_three_completions() {
    let dir = Scratch(std::env::temp_dir().join(format!("hector-pkgfiles-{}", std::process::id())));
    let out = hector()
        .arg("package-files")
        .arg(&dir.0)
        .output()
        .expect("hector runs");
    assert!(out.status.success(), "{out:?}");
    for page in [
        "hector.1",
        "hector-play.1",
        "hector-clock.1",
        "hector-board-monitor.1",
    ] {
        let text = std::fs::read_to_string(dir.0.join("man").join(page)).expect(page);
        // A manual page of its own mode: its title line and its NAME section name it.
        let name = page.trim_end_matches(".1");
        assert!(
            text.lines()
                .any(|l| l.starts_with(&format!(".TH {name} 1 "))),
            "{page}: {text}"
        );
        let named = text
            .lines()
            .skip_while(|l| *l != ".SH NAME")
            .nth(1)
            .unwrap_or_default();
        assert!(
            named.starts_with(&format!("{} \\- ", name.replace('-', "\\-"))),
            "{page}: {named}"
        );
    }
    let play = std::fs::read_to_string(dir.0.join("man/hector-play.1")).expect("play page");
    assert!(play.contains("\\-\\-screen\\-reader"), "{play}");
    for file in ["hector.bash", "_hector", "hector.fish"] {
        let text = std::fs::read_to_string(dir.0.join("completions").join(file)).expect(file);
        assert!(text.contains("screen-reader"), "{file}: {text}");
    }
    // bash reads its completion script without a syntax error.
    let bash = Command::new("bash")
        .arg("-n")
        .arg(dir.0.join("completions/hector.bash"))
        .output()
        .expect("bash runs");
    assert!(bash.status.success(), "{bash:?}");
    // The hidden mode is not offered to players.
    let help = hector().arg("--help").output().expect("hector runs");
    assert!(!String::from_utf8_lossy(&help.stdout).contains("package-files"));
}
