//! The files hector keeps for itself, tried as an attacker would through the real binary:
//! each kind of stranger (a symbolic link to a file outside, a hard link to a file outside, a
//! symbolic link to a file that does not exist, a folder) planted where the puzzle record,
//! the training record, a game's kept analysis, the voice log, the lichess token and a
//! journal belong. Nothing outside the data folder changes (its text, its permissions, a
//! missing target stays missing), the stranger stays as it was planted, and the player is
//! told. A record hector cannot read (from a newer hector, larger than its format allows) is
//! set aside under a name that says so and the player told where, before anything new is
//! written; a valid record larger than the old reader took is read.

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
#[path = "common/voice.rs"]
mod recordings;

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::time::Duration;

use common::microphone::Microphone;
use common::{Env, Run, temp_dir};

const LIMIT: Duration = Duration::from_secs(120);

/// What is planted where a file of hector's own belongs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Planted {
    LinkOut,
    HardOut,
    LinkMissing,
    Folder,
}

const ALL: [Planted; 4] = [
    Planted::LinkOut,
    Planted::HardOut,
    Planted::LinkMissing,
    Planted::Folder,
];

impl Planted {
    /// How hector names it (German, the default language).
    fn words(self) -> &'static str {
        match self {
            Planted::LinkOut | Planted::LinkMissing => "ein symbolischer Verweis",
            Planted::HardOut => "eine Datei mit mehreren Namen (harter Verweis)",
            Planted::Folder => "keine gewöhnliche Datei",
        }
    }
}

/// A file outside the data folder that must stay as it is, and a path that must stay empty.
struct Outside {
    file: PathBuf,
    missing: PathBuf,
    text: String,
}

impl Outside {
    fn new(dir: &Path, name: &str) -> Outside {
        let outside = dir.join("outside");
        std::fs::create_dir_all(&outside).unwrap();
        let file = outside.join(name);
        let text = format!("the player's own {name}\n");
        std::fs::write(&file, &text).unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        Outside {
            file,
            missing: outside.join(format!("{name}.missing")),
            text,
        }
    }

    /// Plants `kind` at `at` (its folder made).
    fn plant(&self, at: &Path, kind: Planted) {
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        match kind {
            Planted::LinkOut => std::os::unix::fs::symlink(&self.file, at).unwrap(),
            Planted::HardOut => std::fs::hard_link(&self.file, at).unwrap(),
            Planted::LinkMissing => std::os::unix::fs::symlink(&self.missing, at).unwrap(),
            Planted::Folder => std::fs::create_dir(at).unwrap(),
        }
    }

    /// Nothing outside changed, and the stranger at `at` is still what was planted.
    fn unchanged(&self, at: &Path, kind: Planted, what: &str) {
        assert_eq!(
            std::fs::read_to_string(&self.file).unwrap(),
            self.text,
            "{what} ({kind:?}): the file outside was written"
        );
        let meta = std::fs::metadata(&self.file).unwrap();
        assert_eq!(
            meta.mode() & 0o777,
            0o644,
            "{what} ({kind:?}): the file outside was chmod-ed"
        );
        assert!(
            std::fs::symlink_metadata(&self.missing).is_err(),
            "{what} ({kind:?}): a link's missing target was made"
        );
        let planted = std::fs::symlink_metadata(at).unwrap();
        match kind {
            Planted::LinkOut | Planted::LinkMissing => assert!(planted.file_type().is_symlink()),
            Planted::HardOut => assert_eq!(planted.ino(), meta.ino(), "{what}: replaced"),
            Planted::Folder => {
                assert!(planted.is_dir());
                assert_eq!(std::fs::read_dir(at).unwrap().count(), 0, "{what}");
            }
        }
    }
}

/// No temporary file of hector's is left in `dir`.
fn no_leftovers(dir: &Path) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        assert!(
            !(name.starts_with('.') && name.ends_with(".tmp")),
            "left behind: {name}"
        );
    }
}

fn said(r: &Run) -> String {
    format!("{}\n{}", r.stdout, r.stderr)
}

fn told(r: &Run, needles: &[&str], what: &str) {
    let text = said(r);
    for n in needles {
        assert!(text.contains(n), "{what}: {n:?} was not said:\n{text}");
    }
}

fn puzzle(home: &Path, stdin: &[u8]) -> Run {
    Env::player(home).run(
        &["puzzle", "--screen-reader", "--speech", "print"],
        stdin,
        LIMIT,
    )
}

#[test]
fn the_puzzle_record_is_never_written_through_a_stranger() {
    for kind in ALL {
        let home = temp_dir("owned-puzzle");
        let outside = Outside::new(home.path(), "puzzles");
        let at = home.path().join("puzzles.progress");
        outside.plant(&at, kind);
        let r = puzzle(home.path(), "lösung\nende\n".as_bytes());
        assert_eq!(r.code, Some(0), "{kind:?}: {}", said(&r));
        told(
            &r,
            &[
                "Der Aufgabenstand kann nicht gespeichert werden",
                kind.words(),
            ],
            "puzzles.progress",
        );
        outside.unchanged(&at, kind, "puzzles.progress");
        no_leftovers(home.path());
    }
}

/// A journal of hector play where the player (Black) blunders with 3... Nf6?? and is mated.
fn blunder_game(home: &Path) {
    let r = Env::player(home).run(
        &[
            "play",
            "--opponent",
            "keyboard",
            "--color",
            "black",
            "--speech",
            "print",
            "--new",
            "--screen-reader",
        ],
        "e4\ne5\nDh5\nSc6\nLc4\nSf6\nDxf7\nende\n".as_bytes(),
        LIMIT,
    );
    assert!(said(&r).contains("Schachmatt"), "{}", said(&r));
}

fn journal_in(games: &Path) -> PathBuf {
    std::fs::read_dir(games)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "journal"))
        .expect("a journal")
}

#[test]
fn the_training_record_and_a_kept_analysis_are_never_written_through_a_stranger() {
    let template = temp_dir("owned-train-game");
    blunder_game(template.path());
    let journal = journal_in(&template.path().join("games"));
    for kind in ALL {
        let home = temp_dir("owned-train");
        let games = home.path().join("games");
        std::fs::create_dir_all(&games).unwrap();
        let copy = games.join(journal.file_name().unwrap());
        std::fs::copy(&journal, &copy).unwrap();
        let progress_outside = Outside::new(home.path(), "training");
        let progress = home.path().join("training.progress");
        progress_outside.plant(&progress, kind);
        let analysis_outside = Outside::new(home.path(), "analysis");
        let analysis = copy.with_extension("analysis");
        analysis_outside.plant(&analysis, kind);
        let r = Env::player(home.path()).run(
            &[
                "train",
                "--movetime",
                "100",
                "--speech",
                "print",
                "--screen-reader",
            ],
            "lösung\nende\n".as_bytes(),
            LIMIT,
        );
        assert_eq!(r.code, Some(0), "{kind:?}: {}", said(&r));
        told(
            &r,
            &[
                "Der Trainingsstand kann nicht gespeichert werden",
                "Die Analyse wurde nicht gespeichert",
                kind.words(),
            ],
            "training.progress and GAME.analysis",
        );
        progress_outside.unchanged(&progress, kind, "training.progress");
        analysis_outside.unchanged(&analysis, kind, "GAME.analysis");
        no_leftovers(home.path());
        no_leftovers(&games);
    }
}

#[test]
fn the_voice_log_is_never_appended_through_a_stranger() {
    let dir = temp_dir("owned-voice-recordings");
    let wav = recordings::record(
        dir.path(),
        "e4",
        "Eva vier",
        recordings::Rendition::nth("de", 0, &mut recordings::Seeded::new(5)),
    )
    .expect("a recording");
    for kind in ALL {
        let home = temp_dir("owned-voice");
        let outside = Outside::new(home.path(), "profile");
        let at = home.path().join("voice.log");
        outside.plant(&at, kind);
        // The phrase comes through the microphone's path, as a player's does: were the log
        // kept, its line would be appended.
        let mut mic = Microphone::streaming();
        let (key, value) = mic.var();
        let mut t = Env::player(home.path())
            .var("PATH", &mic.path_first())
            .var(key, &value)
            .spawn(&[
                "play",
                "--opponent",
                "keyboard",
                "--speech",
                "print",
                "--screen-reader",
                "--new",
                "--voice",
                "--voice-always-ask",
            ]);
        t.expect("Das Sprachprotokoll wird nicht geführt", LIMIT);
        t.expect(kind.words(), LIMIT);
        t.mark();
        mic.say(&wav);
        t.expect("Eva vier, oder zweitens: ", LIMIT);
        t.send("nein\r".as_bytes());
        t.send("ende\rja\r".as_bytes());
        assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
        outside.unchanged(&at, kind, "voice.log");
    }
}

/// A login is the player's own act: a link or a hard link where the token belongs becomes a
/// file of its own (what it led to is not written), a folder there is refused and said.
#[test]
fn a_login_never_writes_the_token_through_a_stranger() {
    let server = lichess::Server::start();
    for kind in ALL {
        let home = temp_dir("owned-token");
        let outside = Outside::new(home.path(), "bashrc");
        let at = home.path().join("config/hector").join(server.token_file());
        outside.plant(&at, kind);
        let r = Env::player_home(home.path()).run(
            &["online", "--server", &server.url, "login"],
            format!("{}\n", lichess::TOKEN).as_bytes(),
            LIMIT,
        );
        assert_eq!(
            std::fs::read_to_string(&outside.file).unwrap(),
            outside.text,
            "{kind:?}"
        );
        assert!(
            std::fs::symlink_metadata(&outside.missing).is_err(),
            "{kind:?}"
        );
        let meta = std::fs::metadata(&outside.file).unwrap();
        assert_eq!(meta.mode() & 0o777, 0o644, "{kind:?}");
        if kind == Planted::Folder {
            assert_eq!(r.code, Some(1), "{}", said(&r));
            told(&r, &[kind.words()], "the token");
            outside.unchanged(&at, kind, "the token");
        } else {
            assert_eq!(r.code, Some(0), "{kind:?}: {}", said(&r));
            let token = std::fs::symlink_metadata(&at).unwrap();
            assert!(token.is_file() && token.nlink() == 1, "{kind:?}");
            assert_eq!(token.mode() & 0o777, 0o600);
            // The token typed is what the new file keeps.
            assert_eq!(
                std::fs::read_to_string(&at).unwrap().trim_end(),
                lichess::TOKEN,
                "{kind:?}"
            );
        }
        no_leftovers(&home.path().join("config/hector"));
    }
}

/// A game in progress, and a link to its journal where the newest journal belongs: resume
/// refuses it, says so, and appends nothing to the file outside.
#[test]
fn a_journal_is_never_continued_through_a_link() {
    let template = temp_dir("owned-journal-game");
    let r = Env::player(template.path()).run(
        &[
            "play",
            "--opponent",
            "keyboard",
            "--speech",
            "print",
            "--new",
            "--screen-reader",
        ],
        b"e4\ne5\n",
        LIMIT,
    );
    assert!(said(&r).contains("Eva fünf"), "{}", said(&r));
    let journal = journal_in(&template.path().join("games"));
    let bytes = std::fs::read(&journal).unwrap();
    for kind in [Planted::LinkOut, Planted::HardOut] {
        let home = temp_dir("owned-journal");
        let outside_dir = home.path().join("outside");
        std::fs::create_dir_all(&outside_dir).unwrap();
        let outside = outside_dir.join("kept.journal");
        std::fs::write(&outside, &bytes).unwrap();
        let at = home.path().join("games/2099-01-01_000000_0001.journal");
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        match kind {
            Planted::LinkOut => std::os::unix::fs::symlink(&outside, &at).unwrap(),
            _ => std::fs::hard_link(&outside, &at).unwrap(),
        }
        let r = Env::player(home.path()).run(
            &["resume", "--speech", "print", "--screen-reader"],
            b"d4\nende\nja\n",
            LIMIT,
        );
        assert_ne!(r.code, Some(0), "{kind:?}: {}", said(&r));
        told(
            &r,
            &[kind.words().split(" (").next().unwrap_or("")],
            "journal",
        );
        assert_eq!(std::fs::read(&outside).unwrap(), bytes, "{kind:?}");
    }
}

fn aside_of(dir: &Path, name: &str) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name().is_some_and(|n| {
                n.to_string_lossy()
                    .starts_with(&format!("{name}.unreadable-"))
            })
        })
        .collect()
}

/// From a newer hector, or larger than its format allows: set aside, named, nothing lost;
/// then the new record is written beside it.
#[test]
fn an_unreadable_puzzle_record_is_set_aside_and_said_before_a_new_one_is_written() {
    let newer = "hector-puzzles 2\nrating 2100\nabcde 1\n".to_string();
    let mut huge = String::from("hector-puzzles 1\nrating 2100\n");
    while huge.len() <= 4 << 20 {
        huge.push_str("zzzzzzzz 1\n");
    }
    for (what, text) in [("newer", newer), ("too large", huge)] {
        let home = temp_dir("owned-aside");
        let at = home.path().join("puzzles.progress");
        std::fs::write(&at, &text).unwrap();
        let r = puzzle(home.path(), "lösung\nende\n".as_bytes());
        assert_eq!(r.code, Some(0), "{what}: {}", said(&r));
        let aside = aside_of(home.path(), "puzzles.progress");
        assert_eq!(aside.len(), 1, "{what}: {}", said(&r));
        assert_eq!(std::fs::read_to_string(&aside[0]).unwrap(), text, "{what}");
        let name = aside[0].display().to_string();
        told(&r, &["Der Aufgabenstand", "ist nicht lesbar", &name], what);
        // Said before anything else of the session.
        let text_said = said(&r);
        assert!(
            text_said.find(&name) < text_said.find("Die Lösung"),
            "{what}: {text_said}"
        );
        // The new record starts from a new player's 1500, not from the rating set aside
        // (2100): the puzzle shown lost some of it, and it is the one puzzle played.
        let new = std::fs::read_to_string(&at).unwrap();
        let mut lines = new.lines();
        assert_eq!(lines.next(), Some("hector-puzzles 1"), "{what}: {new}");
        let rating: i32 = lines
            .next()
            .and_then(|l| l.strip_prefix("rating "))
            .and_then(|r| r.parse().ok())
            .unwrap_or_else(|| panic!("{what}: no rating: {new}"));
        assert!((1400..1500).contains(&rating), "{what}: {new}");
        assert_eq!(lines.count(), 1, "{what}: {new}");
    }
}

/// A valid record larger than the old reader's 1 MiB (its format allows 4 MiB) is read, not
/// replaced: its rating and every puzzle played are kept.
#[test]
fn a_valid_puzzle_record_up_to_its_formats_limit_is_read() {
    let home = temp_dir("owned-large");
    let at = home.path().join("puzzles.progress");
    let mut text = String::from("hector-puzzles 1\nrating 2345\n");
    let mut n = 0u32;
    while text.len() < 2 << 20 {
        text.push_str(&format!("x{n:07} 1\n"));
        n += 1;
    }
    std::fs::write(&at, &text).unwrap();
    let r = puzzle(home.path(), "lösung\nende\n".as_bytes());
    assert_eq!(r.code, Some(0), "{}", said(&r));
    assert!(!said(&r).contains("nicht lesbar"), "{}", said(&r));
    assert!(aside_of(home.path(), "puzzles.progress").is_empty());
    let kept = std::fs::read_to_string(&at).unwrap();
    assert!(
        kept.lines().filter(|l| l.starts_with('x')).count() == n as usize,
        "puzzles played were lost"
    );
    // The rating went on from 2345 (a puzzle shown is lost: it went down).
    let rating: i32 = kept.lines().nth(1).unwrap()["rating ".len()..]
        .parse()
        .unwrap();
    assert!((2300..2345).contains(&rating), "{rating}");
}

/// The arbiter's envelope of an adjourned game, where hector writes it itself: beside the
/// game's journal (`GAME.envelope.toml`). A stranger planted there before the adjournment is
/// refused and named; nothing outside changes and no other file is left there.
#[test]
fn the_arbiters_envelope_is_never_written_through_a_stranger() {
    for kind in ALL {
        let home = temp_dir("owned-envelope");
        let outside = Outside::new(home.path(), "envelope");
        let dgt = home.path().join("dgt");
        let peg = home.path().join("peg");
        let mut dgt_board = common::sim::Simulator::start("dgt", &dgt);
        let mut peg_board = common::sim::Simulator::start("peg", &peg);
        let file = home.path().join("game.toml");
        std::fs::write(
            &file,
            format!(
                "white = \"Anna Weiss\"\nblack = \"Bernd Schwarz\"\nblind = \"black\"\n\
                 time_control = \"5400+30\"\n[peg_board]\nport = \"{}\"\n\
                 [sighted_board]\nport = \"{}\"\n",
                peg.display(),
                dgt.display()
            ),
        )
        .unwrap();
        let mut t = Env::player(home.path()).spawn(&[
            "arbiter",
            "--screen-reader",
            "--speech",
            "print",
            &file.display().to_string(),
        ]);
        dgt_board.send("await-host");
        peg_board.send("await-host");
        t.expect("Schiedsrichter: 1 Partie", LIMIT);
        // The journal is there from the start; its envelope's place is taken.
        let games = home.path().join("games");
        let journal = journal_in(&games);
        let at = journal.with_extension("envelope.toml");
        outside.plant(&at, kind);
        t.mark();
        dgt_board.send("move e2e4");
        t.expect("Partie 1: Eva vier", LIMIT);
        peg_board.send("move e2e4");
        t.send("1 abgeben Springer Cäsar sechs; Sonntag 10 Uhr\r".as_bytes());
        t.expect(
            "Partie 1: Partie abgebrochen. Schwarz gibt den 1. Zug ab, der Umschlag wird \
             geschrieben",
            LIMIT,
        );
        t.expect("Der Umschlag konnte nicht geschrieben werden: ", LIMIT);
        t.expect(kind.words(), LIMIT);
        t.send("ende\r".as_bytes());
        t.expect("Wirklich beenden?", LIMIT);
        t.send("ja\r".as_bytes());
        assert_eq!(t.wait_exit(LIMIT), Some(0), "{kind:?}: {}", t.all_output());
        assert!(
            !t.all_output().contains("Umschlag geschrieben: "),
            "{kind:?}: {}",
            t.all_output()
        );
        outside.unchanged(&at, kind, "the envelope");
        no_leftovers(&games);
        // Nothing but the journal and the planted stranger beside it.
        let mut names: Vec<String> = std::fs::read_dir(&games)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let mut expected = vec![
            journal.file_name().unwrap().to_string_lossy().into_owned(),
            at.file_name().unwrap().to_string_lossy().into_owned(),
        ];
        expected.sort();
        assert_eq!(names, expected, "{kind:?}");
    }
}
