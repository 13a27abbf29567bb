//! A journal that does not replay never makes a game inaccessible, through the real binary:
//! `hector games` lists it with the reason, `hector export` writes every move before the
//! entry where it stops, and `hector resume` (and `hector play`) offer to continue from the
//! last good position in a new journal, leaving the damaged file as it is. Both kinds: an
//! entry the game refuses, and bytes damaged in the middle of the file.

#![allow(
    clippy::expect_used,
    clippy::panic,
    unsafe_code,
    reason = "tests stop at the first surprise, and the pseudo-terminals need the system's calls; the crate's lints are for hector itself"
)]
// The binary is driven through Unix pseudo-terminals and processes (tests/common).
#![cfg(unix)]

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::pty::Pty;
use common::{Env, temp_dir};
use hector::core::record::{Entry, Header, replay};
use hector::io::journal::{Journal, journal_paths, load};
use shakmaty::Color;

const LIMIT: Duration = Duration::from_secs(30);

/// A data directory, removed when the test ends, also when it fails.
struct Data(common::pty::TempDir);

impl Data {
    fn new(what: &str) -> Data {
        Data(temp_dir(what))
    }

    fn games(&self) -> PathBuf {
        self.0.join("games")
    }

    fn env(&self) -> Env {
        Env::player(&self.0)
    }

    fn hector(&self, args: &[&str]) -> common::Run {
        self.env().run(args, b"", LIMIT)
    }

    fn spawn(&self, args: &[&str]) -> Pty {
        self.env().spawn(args)
    }

    /// Every journal file with its bytes.
    fn snapshot(&self) -> Vec<(PathBuf, Vec<u8>)> {
        journal_paths(&self.games())
            .expect("games dir")
            .into_iter()
            .map(|p| {
                let bytes = std::fs::read(&p).expect("read");
                (p, bytes)
            })
            .collect()
    }
}

impl Drop for Data {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn mv(uci: &str, san: &str, by: Color) -> Entry {
    Entry::Move {
        uci: uci.parse().expect("uci"),
        san: san.parse().expect("san"),
        by,
        clock: None,
    }
}

fn keyboard() -> Entry {
    Entry::Setting {
        key: "opponent".into(),
        value: "keyboard".into(),
    }
}

fn write(games: &Path, header: &Header, entries: &[Entry]) -> PathBuf {
    let mut j = Journal::create_in(games, header).expect("create");
    for e in entries {
        j.append(e).expect("append");
    }
    j.path().to_path_buf()
}

/// An older game still in progress, which a damaged later game must not hide.
fn older_game(games: &Path) -> PathBuf {
    let header = Header::new("2026-11-20T10:00:00Z", "Olga", "Otto");
    write(
        games,
        &header,
        &[keyboard(), mv("e2e4", "e4", Color::White)],
    )
}

/// Entry 6 is refused: Black moves when White is to move (a move missing before it).
fn refused_game(games: &Path) -> PathBuf {
    let mut header = Header::new("2026-11-21T14:03:05Z", "Anna", "Bert");
    header.language = "en".into();
    write(
        games,
        &header,
        &[
            keyboard(),
            mv("e2e4", "e4", Color::White),
            mv("e7e5", "e5", Color::Black),
            mv("g1f3", "Nf3", Color::White),
            mv("b8c6", "Nc6", Color::Black),
            mv("a7a6", "a6", Color::Black),
            mv("f1b5", "Bb5", Color::White),
        ],
    )
}

/// Where the damage of [`damaged_game`] begins: line 6 (entry 5), at this byte.
fn damage_offset(path: &Path) -> usize {
    let bytes = std::fs::read(path).expect("read");
    bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .nth(4)
        .map(|(i, _)| i + 1)
        .expect("lines")
}

/// The bytes of entry 5 (line 6) are changed; intact records follow.
fn damaged_game(games: &Path) -> PathBuf {
    let header = Header::new("2026-11-22T09:30:00Z", "Carl", "Dora");
    let path = write(
        games,
        &header,
        &[
            keyboard(),
            mv("d2d4", "d4", Color::White),
            mv("d7d5", "d5", Color::Black),
            mv("c2c4", "c4", Color::White),
            mv("e7e6", "e6", Color::Black),
            mv("b1c3", "Nc3", Color::White),
            mv("g8f6", "Nf6", Color::Black),
        ],
    );
    let line_6 = damage_offset(&path);
    let mut bytes = std::fs::read(&path).expect("read");
    bytes[line_6 + 20] ^= 0x04;
    std::fs::write(&path, &bytes).expect("write");
    path
}

#[test]
fn games_lists_a_damaged_game_with_its_readable_moves_and_the_reason() {
    let data = Data::new("damaged-games");
    older_game(&data.games());
    let at = damage_offset(&damaged_game(&data.games()));
    refused_game(&data.games());
    let before = data.snapshot();

    let r = data.hector(&["games", "--lang", "en"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    let damaged = format!(
        "2. 2026-11-22 09:30 UTC: Carl against Dora, damaged, 2 moves readable. The file is \
         damaged from entry 5 on, line 6, byte {at}"
    );
    assert_eq!(
        lines,
        [
            "1. 2026-11-20 10:00 UTC: Olga against Otto, in progress, 1 move",
            &damaged,
            "3. 2026-11-21 14:03 UTC: Anna against Bert, damaged, 2 moves readable. Entry 6 \
             does not fit the game, because the move a7a6 is not legal",
        ]
    );
    let r = data.hector(&["games"]);
    assert!(
        r.stdout.contains(&format!(
            "2. 2026-11-22 09:30 UTC: Carl gegen Dora, beschädigt, 2 Züge lesbar. Ab Eintrag 5 \
             ist die Datei beschädigt, Zeile 6, Byte {at}\n"
        )),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("Eintrag 6 passt nicht zur Partie, denn der Zug a7a6 ist nicht erlaubt"),
        "{}",
        r.stdout
    );
    assert_eq!(data.snapshot(), before, "listing changes nothing");
}

#[test]
fn export_writes_every_good_move_and_says_where_it_stopped() {
    let data = Data::new("damaged-export");
    older_game(&data.games());
    damaged_game(&data.games());
    refused_game(&data.games());
    let before = data.snapshot();

    // A partial success: exit status 0, the stop on standard error and in the record.
    let r = data.hector(&["export", "3", "--lang", "en"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.contains("[Result \"*\"]\n"), "{}", r.stdout);
    assert!(
        r.stdout.contains(
            "1. e4 e5 2. Nf3 Nc6 { The record stops here. Entry 6 does not fit the game,\n\
             because the move a7a6 is not legal. } *\n"
        ),
        "{}",
        r.stdout
    );
    assert!(
        r.stderr.contains(
            "Written up to entry 5, 2 moves. Entry 6 does not fit the game, because the move \
             a7a6 is not legal."
        ),
        "{}",
        r.stderr
    );

    let r = data.hector(&["export", "2"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stdout.contains(
            "1. d4 d5 2. c4 { Die Aufzeichnung endet hier. Ab Eintrag 5 ist die Datei\n\
             beschädigt, Zeile 6, Byte "
        ),
        "{}",
        r.stdout
    );
    assert!(
        r.stderr
            .contains("Geschrieben bis Eintrag 4, 2 Züge. Ab Eintrag 5 ist die Datei beschädigt,"),
        "{}",
        r.stderr
    );

    let r = data.hector(&["export", "3", "--text", "--lang", "de"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stdout.ends_with(
            "1. e4 e5\n2. Sf3 Sc6\nDie Aufzeichnung endet hier. Eintrag 6 passt nicht zur \
             Partie, denn der Zug a7a6 ist nicht erlaubt.\nDie Partie ist nicht beendet\n"
        ),
        "{}",
        r.stdout
    );
    assert!(r.stderr.contains("Eintrag 6 passt nicht"), "{}", r.stderr);
    assert_eq!(data.snapshot(), before, "exporting changes nothing");
}

/// The moves (UCI) and the settings of a journal that replays.
fn moves_and_settings(path: &Path) -> (Vec<String>, Vec<(String, String)>) {
    let decoded = load(path).expect("readable");
    let replayed = replay(&decoded.header, &decoded.entries).expect("replays");
    let moves = replayed
        .game
        .moves()
        .iter()
        .map(|m| shakmaty::uci::UciMove::from_standard(m.mv).to_string())
        .collect();
    (moves, replayed.settings.into_iter().collect())
}

#[test]
fn resume_offers_the_last_good_position_and_continues_in_a_new_journal() {
    let data = Data::new("damaged-resume-yes");
    older_game(&data.games());
    let damaged = refused_game(&data.games());
    let before = data.snapshot();

    // The damaged game is the latest unfinished one.
    let mut t = data.spawn(&["resume", "--screen-reader", "--speech", "print"]);
    let asked = t.wait_for("Yes or no", LIMIT);
    assert!(asked.is_some(), "{}", t.all_output());
    assert!(
        t.all_output().contains(
            "The game of 2026-11-21 14:03 UTC, Anna against Bert, can only be read up to move \
             2. Entry 6 does not fit the game, because the move a7a6 is not legal."
        ),
        "{}",
        t.all_output()
    );
    t.send(b"ja\r");
    // Both said after the answer: the new record and the game going on.
    t.expect_each(&["New record ", "White to move"], LIMIT);
    t.send(b"Bb5\r");
    assert!(
        t.wait_for("Bishop Bella five", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    // The move is on the disk before it is announced.
    drop(t);

    let after = data.snapshot();
    assert_eq!(after.len(), 3, "a new journal beside the others");
    assert_eq!(after[..2], before[..], "the damaged file is left as it was");
    let (moves, settings) = moves_and_settings(&after[2].0);
    assert_eq!(moves, ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]);
    let name = damaged
        .file_name()
        .and_then(|n| n.to_str())
        .expect("name")
        .to_string();
    assert!(
        settings.contains(&("continues".to_string(), name)),
        "{settings:?}"
    );
    let r = data.hector(&["games", "--lang", "en"]);
    assert!(
        r.stdout
            .contains("2. 2026-11-21 14:03 UTC: Anna against Bert, damaged")
    );
    assert!(
        r.stdout
            .contains("3. 2026-11-21 14:03 UTC: Anna against Bert, in progress, 3 moves"),
        "{}",
        r.stdout
    );
}

#[test]
fn answering_no_changes_nothing() {
    let data = Data::new("damaged-resume-no");
    older_game(&data.games());
    damaged_game(&data.games());
    refused_game(&data.games());
    let before = data.snapshot();

    let mut t = data.spawn(&["resume", "2", "--screen-reader", "--speech", "print"]);
    assert!(
        t.wait_for("Ja oder nein", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    assert!(
        t.all_output().contains(
            "Die Partie vom 2026-11-22 09:30 UTC, Carl gegen Dora, ist nur bis Zug 2 lesbar. \
             Ab Eintrag 5 ist die Datei beschädigt, Zeile 6, Byte "
        ),
        "{}",
        t.all_output()
    );
    t.send(b"nein\r");
    assert!(
        t.wait_for("Nichts geändert", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    assert_eq!(t.wait_exit(LIMIT), Some(0));
    assert_eq!(data.snapshot(), before);
}

#[test]
fn without_a_terminal_resume_says_why_and_changes_nothing() {
    let data = Data::new("damaged-resume-script");
    older_game(&data.games());
    refused_game(&data.games());
    let before = data.snapshot();
    let r = data.hector(&["resume", "--speech", "print"]);
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(
        r.stderr
            .contains("Entry 6 does not fit the game, because the move a7a6 is not legal."),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("To continue, start hector resume in a terminal and answer yes"),
        "{}",
        r.stderr
    );
    assert_eq!(data.snapshot(), before);
}

#[test]
fn play_offers_a_damaged_unfinished_game_from_its_last_good_position() {
    let data = Data::new("damaged-play");
    older_game(&data.games());
    let damaged = damaged_game(&data.games());
    let before = data.snapshot();

    // The question in the language chosen for play; the game goes on in its own.
    let mut t = data.spawn(&[
        "play",
        "--screen-reader",
        "--opponent",
        "keyboard",
        "--speech",
        "print",
        "--lang",
        "en",
    ]);
    assert!(
        t.wait_for("Yes or no", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    assert!(
        t.all_output().contains(
            "The game of 2026-11-22 09:30 UTC, Carl against Dora, can only be read up to move \
             2. The file is damaged from entry 5 on, line 6"
        ),
        "{}",
        t.all_output()
    );
    t.send(b"yes\r");
    assert!(
        t.wait_for("Schwarz ist am Zug", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"e6\r");
    assert!(
        t.wait_for("Eva sechs", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    drop(t);

    let after = data.snapshot();
    assert_eq!(after.len(), 3);
    assert_eq!(after[..2], before[..], "the damaged file is left as it was");
    let (moves, settings) = moves_and_settings(&after[2].0);
    assert_eq!(moves, ["d2d4", "d7d5", "c2c4", "e7e6"]);
    let name = damaged.file_name().and_then(|n| n.to_str()).expect("name");
    assert!(
        settings.contains(&("continues".to_string(), name.to_string())),
        "{settings:?}"
    );
}

#[test]
fn a_damaged_game_whose_good_part_ended_is_not_continued() {
    let data = Data::new("damaged-finished");
    let mut header = Header::new("2026-11-21T14:03:05Z", "Anna", "Bert");
    header.language = "en".into();
    write(
        &data.games(),
        &header,
        &[
            keyboard(),
            mv("f2f3", "f3", Color::White),
            mv("e7e5", "e5", Color::Black),
            mv("g2g4", "g4", Color::White),
            mv("d8h4", "Qh4#", Color::Black),
            // A later record the game refuses: the game was over.
            mv("a2a3", "a3", Color::White),
        ],
    );
    let before = data.snapshot();
    let r = data.hector(&["games", "--lang", "en"]);
    assert!(
        r.stdout.contains(
            "Anna against Bert, damaged, 2 moves readable. Entry 6 does not fit the game, \
             because the game is already over"
        ),
        "{}",
        r.stdout
    );
    // Not an unfinished game: plain resume finds none (said in the configured language).
    let r = data.hector(&["resume", "--speech", "print"]);
    assert_eq!(r.code, Some(1));
    assert!(r.stderr.contains("Keine unbeendete Partie"), "{}", r.stderr);
    let r = data.hector(&["resume", "1", "--speech", "print"]);
    assert_eq!(r.code, Some(1));
    assert!(
        r.stderr.contains("can only be read up to move 2") && r.stderr.contains("The game is over"),
        "{}",
        r.stderr
    );
    let r = data.hector(&["export", "1", "--lang", "en"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.contains("[Result \"0-1\"]"), "{}", r.stdout);
    assert!(r.stdout.contains("Qh4#"), "{}", r.stdout);
    assert_eq!(data.snapshot(), before);
}

#[test]
fn what_is_wrong_is_spoken_as_well_as_printed() {
    let data = Data::new("damaged-spoken");
    refused_game(&data.games());
    let before = data.snapshot();
    let daemon = common::SpeechDaemon::capturing();
    let env = data.env().speech(&daemon);
    let r = env.run(&["resume", "--speech", "speech-dispatcher"], b"", LIMIT);
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    let told = "The game of 2026-11-21 14:03 UTC, Anna against Bert, can only be read up to \
                move 2. Entry 6 does not fit the game, because the move a7a6 is not legal.";
    let hint = "To continue, start hector resume in a terminal and answer yes";
    assert!(r.stderr.contains(told), "{}", r.stderr);
    // speech-dispatcher's module may say a long text sentence by sentence.
    let spoken = daemon.wait_for(3, LIMIT);
    assert!(spoken.iter().all(|l| l.starts_with("en|")), "{spoken:?}");
    let said: String = spoken.iter().map(|l| &l[3..]).collect();
    assert_eq!(said, format!("{told}{hint}"), "{spoken:?}");
    assert_eq!(data.snapshot(), before);
}

#[test]
fn a_journal_of_which_nothing_can_be_used_is_listed_in_the_players_words() {
    let data = Data::new("damaged-unusable");
    older_game(&data.games());
    let json = br#"{"journal":"hector","version":7}"#;
    let mut newer = format!(
        "{}\t{:08x}\t",
        json.len(),
        hector::core::record::crc32(json)
    )
    .into_bytes();
    newer.extend_from_slice(json);
    newer.push(b'\n');
    std::fs::write(data.games().join("2099-01-01_000000_0001.journal"), &newer).expect("write");
    std::fs::write(data.games().join("2099-01-01_000000_0002.journal"), b"").expect("write");
    std::fs::write(
        data.games().join("2099-01-01_000000_0003.journal"),
        b"Notizen\n",
    )
    .expect("write");
    let before = data.snapshot();

    let r = data.hector(&["games"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(
        lines[1..],
        [
            "2. 2099-01-01_000000_0001.journal ist nicht lesbar: ein neueres hector hat sie \
             geschrieben (Format 7, dieses hector liest bis 2), bitte hector aktualisieren",
            "3. 2099-01-01_000000_0002.journal ist nicht lesbar: die Datei ist leer, es wurde \
             nichts darin aufgezeichnet",
            "4. 2099-01-01_000000_0003.journal ist nicht lesbar: das ist keine Aufzeichnung von \
             hector",
        ]
    );
    let r = data.hector(&["games", "--lang", "en"]);
    assert!(
        r.stdout
            .contains("3. 2099-01-01_000000_0002.journal cannot be read: the file is empty"),
        "{}",
        r.stdout
    );
    assert_eq!(data.snapshot(), before);
}
