//! The announcement words chosen apart from the language, through the real binary: a French
//! game with the FIDE words of Appendix D2.1, heard through a private speech-dispatcher; the
//! assistant, whose default is the FIDE words in every language, and its --words language;
//! the configuration's [announcement]; typed moves in both sets; the table's punctuation
//! around the prompt and the mover's label.

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
use common::{Env, SpeechDaemon, temp_dir};

const LIMIT: Duration = Duration::from_secs(30);

/// Every phrase heard so far. The capturing module declares UTF-8 for de and en only:
/// speech-dispatcher hands it other languages' phrases in Latin-1, so each line is read in
/// whichever it is.
fn heard_lines(daemon: &SpeechDaemon) -> Vec<String> {
    let bytes = std::fs::read(&daemon.out).unwrap_or_default();
    bytes
        .split(|&b| b == b'\n')
        .map(|line| match std::str::from_utf8(line) {
            Ok(l) => l.to_string(),
            Err(_) => line.iter().map(|&b| char::from(b)).collect(),
        })
        .collect()
}

/// Where the phrases heard so far end: what comes after is the answer to what comes next.
fn heard_mark(daemon: &SpeechDaemon) -> usize {
    // The file ends with a line end: its last, empty piece is where the next phrase goes.
    heard_lines(daemon).len().saturating_sub(1)
}

/// The first phrase heard after `from` that contains `part`, waited for.
fn heard(daemon: &SpeechDaemon, from: usize, part: &str) -> String {
    let deadline = std::time::Instant::now() + LIMIT;
    loop {
        let text = heard_lines(daemon);
        if let Some(line) = text.iter().skip(from).find(|l| l.contains(part)) {
            return line.clone();
        }
        let text = text.join("\n");
        assert!(
            std::time::Instant::now() < deadline,
            "{part:?} not heard: {text}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `hector play --lang fr --words fide`: the moves are heard in the FIDE words inside French
/// sentences ("Springer Felix drei", "Noirs : …", capture and check in French), whether they
/// were typed in the FIDE words, in French words or in SAN; the French words are not heard.
#[test]
fn a_french_game_is_heard_in_the_fide_words() {
    let daemon = SpeechDaemon::capturing();
    let data = temp_dir("words-fr-fide");
    let mut t = Env::player(data.path()).speech(&daemon).spawn_80x24(&[
        "play",
        "--lang",
        "fr",
        "--words",
        "fide",
        "--opponent",
        "keyboard",
        "--speech",
        "speech-dispatcher",
    ]);
    t.expect_screen("Coup ou commande", LIMIT);
    // French SAN letters: Cf3 is the knight.
    t.send(b"Cf3\r");
    daemon.said("fr|Springer Felix drei", LIMIT);
    // Black in the FIDE words, typed.
    t.send(b"Springer Felix sechs\r");
    let black = daemon.said("fr|Noirs", LIMIT);
    assert!(black.contains("Springer Felix sechs"), "{black}");
    // White in French words: understood, and said back in the FIDE words.
    t.send(b"pion Eva quatre\r");
    daemon.said("fr|Eva vier", LIMIT);
    let from = heard_mark(&daemon);
    t.send("Springer schlägt Eva vier\r".as_bytes());
    let capture = heard(&daemon, from, "Springer prend Eva vier");
    assert!(capture.starts_with("fr|Noirs"), "{capture}");
    let from = heard_mark(&daemon);
    t.send(b"e1e2\r");
    heard(&daemon, from, "König Eva zwei");
    t.send(&[0x11]);
    t.expect_screen("Vraiment quitter", LIMIT);
    t.send(b"oui\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    let spoken = heard_lines(&daemon).join("\n");
    assert!(spoken.contains("König Eva zwei"), "{spoken}");
    for local in ["Cavalier", "trois", "quatre", "Roi "] {
        assert!(!spoken.contains(local), "{local}: {spoken}");
    }
}

/// The same game without `--words`: the French words, as before; with the configuration's
/// `[announcement] play = "fide"`, the FIDE words.
#[test]
fn play_keeps_the_languages_words_unless_asked() {
    let data = temp_dir("words-fr-local");
    let r = Env::player(data.path()).run(
        &[
            "play",
            "--lang",
            "fr",
            "--opponent",
            "keyboard",
            "--screen-reader",
            "--speech",
            "print",
        ],
        b"Cf3\nSpringer Felix sechs\nquitter\noui\n",
        LIMIT,
    );
    assert!(r.stdout.contains("Cavalier Felix trois"), "{}", r.stdout);
    assert!(r.stdout.contains("Cavalier Felix six"), "{}", r.stdout);
    assert!(!r.stdout.contains("Springer"), "{}", r.stdout);
    // French punctuation from the table: a space before the colon of the prompt and of the
    // mover's label.
    assert!(
        r.stdout
            .contains("Coup ou commande : Noirs : Cavalier Felix six"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("commande:"), "{}", r.stdout);

    let config = data.path().join("fide.toml");
    std::fs::write(&config, "[announcement]\nplay = \"fide\"\n").expect("config");
    let r = Env::player(data.path()).config_file(&config).run(
        &[
            "play",
            "--lang",
            "fr",
            "--opponent",
            "keyboard",
            "--screen-reader",
            "--speech",
            "print",
        ],
        b"Cf3\nquitter\noui\n",
        LIMIT,
    );
    assert!(r.stdout.contains("Springer Felix drei"), "{}", r.stdout);
    assert!(!r.stdout.contains("Cavalier"), "{}", r.stdout);
}

/// The assistant defaults to the FIDE words in every language (a tournament's words): in
/// Spanish the sighted player's Nf3 is "Springer Felix drei"; `--words language` gives the
/// Spanish words.
#[test]
fn the_assistant_speaks_the_fide_words_in_spanish_by_default() {
    for (extra, expected, absent) in [
        (&[][..], "Springer Felix drei", "Caballo"),
        (
            &["--words", "language"][..],
            "Caballo Felix tres",
            "Springer",
        ),
    ] {
        let dir = temp_dir("words-assist-es");
        let mut dgt = Simulator::start("dgt", &dir.join("dgt"));
        let mut peg = Simulator::start("peg", &dir.join("peg"));
        let dgt_port = dir.join("dgt").display().to_string();
        let peg_port = dir.join("peg").display().to_string();
        let mut args = vec![
            "assist",
            "--lang",
            "es",
            "--screen-reader",
            "--speech",
            "print",
            "--blind",
            "black",
            "--peg-board",
            &peg_port,
            "--sighted-board",
            &dgt_port,
        ];
        args.extend_from_slice(extra);
        let mut t = Env::player_home(&dir).spawn(&args);
        t.expect("Jugada u orden", LIMIT);
        dgt.send("await-host");
        peg.send("await-host");
        t.mark();
        dgt.send("move g1f3");
        t.expect(expected, LIMIT);
        t.send(b"salir\rs\xc3\xad\r");
        assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
        assert!(!t.all_output().contains(absent), "{}", t.all_output());
        drop(t);
        drop(dgt);
        drop(peg);
        drop(dir);
    }
}

/// `hector parse` reads both sets in every language and answers in the set asked for.
#[test]
fn parse_reads_both_sets_and_answers_in_the_one_asked_for() {
    for (args, expected) in [
        (
            &[
                "parse",
                "--lang",
                "fr",
                "--words",
                "fide",
                "Cavalier Felix trois",
            ][..],
            "g1f3\tSpringer Felix drei",
        ),
        (
            &["parse", "--lang", "fr", "Springer Felix drei"][..],
            "g1f3\tCavalier Felix trois",
        ),
        (
            &[
                "parse",
                "--lang",
                "nl",
                "--words",
                "fide",
                "korte rochade",
                "--fen",
                "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
            ][..],
            "e1g1\tKurze Rochade",
        ),
        (
            &[
                "parse",
                "--lang",
                "es",
                "Lange Rochade",
                "--fen",
                "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
            ][..],
            "e1c1\tenroque largo",
        ),
    ] {
        let r = common::run_with(args, b"", &[("HECTOR_CONFIG", "")], LIMIT);
        assert_eq!(r.code, Some(0), "{args:?}: {}", r.stderr);
        assert_eq!(r.stdout.trim_end(), expected, "{args:?}");
    }
}

/// Without `--lang`, in a fresh home: the configuration file's language when it names one,
/// else the system's locale (LC_ALL over LC_MESSAGES over LANG) when hector has its language,
/// else German; `--lang` over all of them.
#[test]
fn without_lang_the_file_then_the_locale_then_german_choose() {
    let home = temp_dir("locale");
    let german = home.path().join("german.toml");
    let english = home.path().join("english.toml");
    std::fs::write(&german, "[speech]\nlanguage = \"de\"\n").expect("config");
    std::fs::write(&english, "[speech]\nlanguage = \"en\"\n").expect("config");
    let fr = ("LANG", "fr_FR.UTF-8");
    for (config, vars, args, expected) in [
        (None, &[fr][..], &[][..], "Cavalier Felix trois"),
        (None, &[("LANG", "C")], &[], "Springer Felix drei"),
        (None, &[("LANG", "it_IT.UTF-8")], &[], "Springer Felix drei"),
        (None, &[], &[], "Springer Felix drei"),
        (
            None,
            &[fr, ("LC_MESSAGES", "nl_NL.UTF-8")],
            &[],
            "Paard Felix drie",
        ),
        (
            None,
            &[fr, ("LC_MESSAGES", "nl_NL"), ("LC_ALL", "es_ES.UTF-8")],
            &[],
            "Caballo Felix tres",
        ),
        (Some(&german), &[fr], &[], "Springer Felix drei"),
        (Some(&english), &[fr], &[], "Knight Felix three"),
        (Some(&german), &[fr], &["--lang", "nl"], "Paard Felix drie"),
    ] {
        let mut env = Env::player(home.path());
        if let Some(file) = config {
            env = env.config_file(file);
        }
        for (key, value) in vars {
            env = env.var(key, value);
        }
        let mut argv = vec!["parse"];
        argv.extend_from_slice(args);
        argv.push("Springer Felix drei");
        let r = env.run(&argv, b"", LIMIT);
        assert_eq!(r.code, Some(0), "{vars:?} {args:?}: {}", r.stderr);
        assert_eq!(
            r.stdout.trim_end(),
            format!("g1f3\t{expected}"),
            "{config:?} {vars:?} {args:?}"
        );
    }
}

/// A game keeps its words: begun in French with `--words fide` and left, it is resumed
/// without `--words` and goes on in the FIDE words, its refusals too ("Le König est en
/// échec…"); resumed once more with `--words language`, in the French words.
#[test]
fn a_resumed_game_keeps_the_words_it_began_with() {
    let data = temp_dir("words-resume");
    let env = Env::player(data.path());
    let print = ["--screen-reader", "--speech", "print"];
    let mut play = vec![
        "play",
        "--lang",
        "fr",
        "--words",
        "fide",
        "--opponent",
        "keyboard",
    ];
    play.extend(print);
    let r = env.run(&play, b"e2e4\nf7f6\nd1h5\nquitter\noui\n", LIMIT);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("Dame Hector fünf"), "{}", r.stdout);

    let mut resume = vec!["resume"];
    resume.extend(print);
    let r = env.run(&resume, b"a7a6\ng7g6\nquitter\noui\n", LIMIT);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    let refused = r
        .stdout
        .find("Le König est en échec et ce coup n'y répond pas")
        .unwrap_or_else(|| panic!("no refusal in the FIDE words: {}", r.stdout));
    let after = &r.stdout[refused..];
    assert!(after.contains("Noirs : Gustav sechs"), "{}", r.stdout);
    assert!(!r.stdout.contains("Le Roi"), "{}", r.stdout);

    resume.extend(["--words", "language"]);
    let r = env.run(&resume, b"g1f3\nquitter\noui\n", LIMIT);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("Cavalier Felix trois"), "{}", r.stdout);
    assert!(!r.stdout.contains("Springer"), "{}", r.stdout);
}

/// The arbiter's game file chooses each game's words: two French games in one hall, the
/// first's file without `words` (the console's set, the FIDE words), the second's with
/// `words = "language"` (the arbiter's "otherwise"). White's Nf3 on each sighted board is
/// said in its game's set.
#[test]
fn each_arbiters_game_speaks_the_words_its_file_chooses() {
    let dir = temp_dir("words-arbiter");
    let mut boards = Vec::new();
    let mut files = Vec::new();
    for (i, words) in [(1, ""), (2, "words = \"language\"\n")] {
        let dgt = dir.join(format!("dgt{i}"));
        let peg = dir.join(format!("peg{i}"));
        boards.push((Simulator::start("dgt", &dgt), Simulator::start("peg", &peg)));
        let file = dir.join(format!("game{i}.toml"));
        std::fs::write(
            &file,
            format!(
                "white = \"Anne Blanc{i}\"\nblack = \"Bruno Noir{i}\"\nblind = \"black\"\n\
                 language = \"fr\"\n{words}[peg_board]\nport = \"{}\"\n\
                 [sighted_board]\nport = \"{}\"\n",
                peg.display(),
                dgt.display()
            ),
        )
        .expect("game file");
        files.push(file.display().to_string());
    }
    let mut args = vec!["arbiter", "--screen-reader", "--speech", "print"];
    args.extend(files.iter().map(String::as_str));
    let mut t = Env::player_home(&dir).spawn(&args);
    for (dgt, peg) in &mut boards {
        dgt.send("await-host");
        peg.send("await-host");
    }
    t.expect("Schiedsrichter: 2 Partien", LIMIT);
    // Each game's move, named with its game.
    t.mark();
    boards[0].0.send("move g1f3");
    t.expect("Partie 1: Springer Felix drei", LIMIT);
    t.mark();
    boards[1].0.send("move g1f3");
    t.expect("Partie 2: Cavalier Felix trois", LIMIT);
    t.send(b"ende\rja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    let all = t.all_output();
    assert_eq!(all.matches("Springer Felix drei").count(), 1, "{all}");
    assert_eq!(all.matches("Cavalier Felix trois").count(), 1, "{all}");
    drop(t);
    drop(boards);
    drop(dir);
}
