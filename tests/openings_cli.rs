//! Opening names and the player's wording in `hector play`, in real pseudo-terminals: the
//! options, and the configuration file's `[play]` and `[words]` tables.

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

use common::{Env, temp_dir};

const LIMIT: Duration = Duration::from_secs(30);

/// Types `inputs` in line mode against a second player at the keyboard, waits for
/// `wait_for`, quits, and returns what hector said. `config` is the configuration file's text.
fn session(args: &[&str], config: &str, inputs: &[&str], wait_for: &str) -> String {
    session_quitting(args, config, inputs, wait_for, "ende\rja\r")
}

/// As [`session`], quitting with `quit` (the command and the answer, in the game's language).
fn session_quitting(
    args: &[&str],
    config: &str,
    inputs: &[&str],
    wait_for: &str,
    quit: &str,
) -> String {
    let data = temp_dir("openings-data");
    let config_file = data.join("config.toml");
    std::fs::write(&config_file, config).expect("config");
    let mut all = vec!["play", "--screen-reader", "--opponent", "keyboard", "--new"];
    all.extend_from_slice(args);
    let mut t = Env::player(&data.join("games"))
        .home(&data)
        .config_file(&config_file)
        .spawn(&all);
    assert!(t.wait_for(":", LIMIT).is_some(), "{}", t.all_output());
    for input in inputs {
        t.send(format!("{input}\r").as_bytes());
        t.wait_answer(input, LIMIT);
    }
    // Each answer was waited for in turn; the one named is anywhere after the start's words.
    t.wait_in_all_output(wait_for, LIMIT);
    t.send(quit.as_bytes());
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    t.all_output()
}

#[test]
fn the_opening_is_named_on_asking_and_after_the_moves_with_openings() {
    let text = session(
        &["--openings"],
        "",
        &[
            "eröffnung",
            "Eva vier",
            "Cäsar fünf",
            "Springer Felix drei",
            "eröffnung",
            "wer",
        ],
        // The second question's answer (whose turn it is was said at the start already).
        "ECO B27",
    );
    for expected in [
        "Noch keine benannte Eröffnung",
        "Eröffnung: Königsbauernspiel",
        "Eröffnung: Sizilianische Verteidigung",
        "Sizilianische Verteidigung, ECO B27",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    // Said once: the same family after Springer Felix drei is not said again.
    assert_eq!(
        text.matches("Eröffnung: Sizilianische Verteidigung")
            .count(),
        1,
        "{text}"
    );
}

#[test]
fn without_the_option_only_the_question_names_it() {
    let text = session(
        &["--lang", "en"],
        "",
        &["e4", "e5", "Nf3", "Nc6", "Bb5", "opening", "turn"],
        "Black to move",
    );
    assert!(text.contains("Ruy Lopez, ECO C60"), "{text}");
    assert!(!text.contains("Opening: "), "{text}");
}

#[test]
fn the_configuration_file_sets_openings_and_wording() {
    let text = session(
        &[],
        "[play]\nopenings = true\n[words]\norder = \"piece-first\"\ncheck_words = false\ncolour_words = false\n",
        &["e4", "f5", "Dh5", "feld e4", "angriff", "letzter"],
        "Zuletzt: Zug",
    );
    for expected in [
        "Eröffnung: Königsbauernspiel",
        "Weißer Bauer Eva vier",
        // The pieces a side attacks: the colour is clear, the words are left out.
        "Weiß greift an: Bauer Felix fünf",
        "Zuletzt: Zug 2, Weiß: Dame Hector fünf, Schach",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    // The move itself was announced without "Schach".
    assert!(
        text.lines().any(|l| l.trim_end() == "Dame Hector fünf"),
        "{text}"
    );
}

#[test]
fn options_override_the_configuration_file() {
    let text = session(
        &["--square-first", "--no-check-words"],
        "[words]\norder = \"piece-first\"\n",
        &["e4", "d5", "feld e4", "angriff"],
        "greift an",
    );
    assert!(text.contains("Eva vier: weißer Bauer"), "{text}");
    assert!(
        text.contains("Weiß greift an: David fünf schwarzer Bauer"),
        "{text}"
    );
}

/// A game announces its opening in Spanish, French and Dutch as in German: the family in the
/// language's words (the move, then the question's answer with the ECO code).
#[test]
fn the_opening_is_named_in_spanish_french_and_dutch() {
    for (code, opening, reached, answer, quit) in [
        (
            "es",
            "apertura",
            "Apertura: Defensa siciliana",
            "Defensa siciliana, ECO B20",
            "salir\rsí\r",
        ),
        (
            "fr",
            "ouverture",
            "Ouverture : Défense sicilienne",
            "Défense sicilienne, ECO B20",
            "quitter\roui\r",
        ),
        (
            "nl",
            "opening",
            "Opening: Siciliaanse verdediging",
            "Siciliaanse verdediging, ECO B20",
            "stoppen\rja\r",
        ),
    ] {
        let text = session_quitting(
            &["--lang", code, "--openings"],
            "",
            &["e4", "c5", opening],
            answer,
            quit,
        );
        assert!(text.contains(reached), "{code}: no {reached:?} in:\n{text}");
    }
}
