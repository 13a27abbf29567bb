use std::collections::BTreeSet;

use crate::machine::Common;
use proptest::prelude::*;

use super::progress::PuzzleProgress;
use super::set::{Puzzle, read};
use super::*;
use crate::exercise::{ExerciseEffect, ExerciseEvent};
use crate::testkit::words::{de, t};

/// Two puzzles: a fork at 1500 (Black wins the queen) and a mate in 1 at 1400.
fn puzzles() -> Vec<Puzzle> {
    read(
        "PuzzleId,FEN,Moves,Rating,Themes\n\
         000tp,4r3/5pk1/1p3np1/3p3p/2qQ4/P4N1P/1P3RP1/7K w - - 6 34,d4b6 f6e4 h1g1 e4f2,1500,crushing endgame short trappedPiece\n\
         mate1,6k1/5ppp/p7/8/8/8/5PPP/3R2K1 b - - 0 1,a6a5 d1d8,1400,mate mateIn1 backRankMate\n",
    )
}

fn start(choice: Choice) -> (PuzzleRun, Vec<ExerciseEffect>) {
    PuzzleRun::new(
        puzzles(),
        choice,
        PuzzleProgress::default(),
        de(),
        Form::Short,
        Wording::default(),
    )
}

fn said(effects: &[ExerciseEffect]) -> String {
    effects
        .iter()
        .filter_map(|e| match e {
            ExerciseEffect::Common(Common::Say { lines, .. }) => Some(lines.join(" | ")),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(" || ")
}

/// The sounds and words, in their order: a sound as `[Name]` before the words it goes with.
fn heard(effects: &[ExerciseEffect]) -> String {
    let mut out = String::new();
    for e in effects {
        match e {
            ExerciseEffect::Common(Common::Cue(cues)) => {
                for c in cues {
                    out.push_str(&format!("[{c:?}] "));
                }
            }
            ExerciseEffect::Common(Common::Say { lines, .. }) => {
                out.push_str(&lines.join(" | "));
                out.push_str(" || ");
            }
            _ => {}
        }
    }
    out
}

fn line(run: &mut PuzzleRun, text: &str) -> Vec<ExerciseEffect> {
    run.handle(ExerciseEvent::Line(text.into()), t(0))
}

#[test]
fn the_nearest_puzzle_comes_first_and_its_solution_is_played_through() {
    let (mut run, effects) = start(Choice::default());
    let text = said(&effects);
    assert!(text.contains("Aufgaben. Ihre Wertung: 1500"), "{text}");
    assert!(
        text.contains(
            "Aufgabe 000tp, Wertung 1500: Vernichtend, Endspiel, Kurze Aufgabe, Gefangene \
             Figur. Schwarz am Zug nach Dame schlägt Bella sechs"
        ),
        "{text}"
    );
    assert_eq!(
        said(&line(&mut run, "tipp")),
        "Tipp: Springer auf Felix sechs"
    );
    // Each move's sound before its own words: the reply's before the reply's sentence.
    let text = heard(&line(&mut run, "Se4"));
    assert!(
        text.contains(
            "[Move] Richtig: Springer Eva vier. || [Move] Weiß antwortet König Gustav eins"
        ),
        "{text}"
    );
    let text = heard(&line(&mut run, "Sf2"));
    assert!(
        text.starts_with("[Capture] Gelöst: Springer schlägt Felix zwei. Ihre Wertung: 1516 (+16)"),
        "{text}"
    );
    // Then the mate in one, where any mate counts.
    assert!(text.contains("Aufgabe mate1"), "{text}");
    assert_eq!(run.progress().played.get("000tp"), Some(&true));
}

/// A mate solves the puzzle at any step, not only on the solution's last move: here the
/// solution goes Td7, a4, Td8#, and Td8# at once is a win too.
#[test]
fn a_mate_before_the_last_step_solves() {
    let set = read(
        "PuzzleId,FEN,Moves,Rating,Themes\n\
         early,6k1/5ppp/p7/8/8/8/5PPP/3R2K1 b - - 0 1,a6a5 d1d7 a5a4 d7d8,1500,mate mateIn2\n",
    );
    let run = || {
        PuzzleRun::new(
            set.clone(),
            Choice::default(),
            PuzzleProgress::default(),
            de(),
            Form::Short,
            Wording::default(),
        )
        .0
    };
    let mut early = run();
    let text = said(&line(&mut early, "Td8"));
    assert!(
        text.contains("Gelöst: Turm David acht, Schachmatt"),
        "{text}"
    );
    assert_eq!(early.progress().played.get("early"), Some(&true));
    // The solution's own way still solves it, and a move that does not mate is still wrong.
    let mut own = run();
    let text = said(&line(&mut own, "Td7"));
    assert!(text.contains("Richtig: Turm David sieben"), "{text}");
    let text = said(&line(&mut own, "Td8"));
    assert!(text.contains("Gelöst: Turm David acht"), "{text}");
    let mut wrong = run();
    let text = said(&line(&mut wrong, "Td6"));
    assert!(text.contains("ist nicht die Lösung"), "{text}");
    assert_eq!(wrong.progress().played.get("early"), Some(&false));
}

#[test]
fn a_wrong_move_ends_the_puzzle_with_its_solution() {
    let (mut run, _) = start(Choice::default());
    let text = heard(&line(&mut run, "Dc1"));
    assert!(
        text.starts_with("[Illegal] Dame Cäsar eins, Schach ist nicht die Lösung. Die Lösung: Zug 34, Schwarz: Springer Eva vier; Zug 35, Weiß: König Gustav eins; Schwarz: Springer schlägt Felix zwei"),
        "{text}"
    );
    assert!(text.contains("Ihre Wertung: 1484 (-16)"), "{text}");
    assert_eq!(run.progress().played.get("000tp"), Some(&false));
}

#[test]
fn a_theme_chooses_and_the_end_is_said() {
    let (mut run, effects) = start(Choice {
        theme: theme_key("Grundreihenmatt"),
        rating: None,
    });
    let text = said(&effects);
    assert!(text.contains("Thema Grundreihenmatt"), "{text}");
    assert!(text.contains("Aufgabe mate1"), "{text}");
    let text = heard(&line(&mut run, "Td8"));
    assert!(
        text.starts_with("[Move] [Check] Gelöst: Turm David acht, Schachmatt"),
        "{text}"
    );
    assert!(text.contains("Ende: 1 von 1 gelöst"), "{text}");
    assert!(effects.iter().any(|e| matches!(e, ExerciseEffect::Show(_))));
    assert_eq!(theme_key("fork").as_deref(), Some("fork"));
    assert_eq!(theme_key("Fourchette").as_deref(), Some("fork"));
    assert_eq!(theme_key("nichts"), None);
}

#[test]
fn pick_takes_the_nearest_unplayed() {
    let set = puzzles();
    let mut progress = PuzzleProgress::default();
    let none = BTreeSet::new();
    let choice = Choice {
        theme: None,
        rating: Some(1400),
    };
    assert_eq!(pick(&set, &progress, &none, &choice), Some(1));
    progress.record("mate1", 1400, true);
    assert_eq!(pick(&set, &progress, &none, &choice), Some(0));
    progress.record("000tp", 1500, true);
    assert_eq!(pick(&set, &progress, &none, &choice), None);
}

const LINES: [&str; 12] = [
    "Se4", "Sf2", "Td8", "Dc1", "tipp", "lösung", "weiter", "brett", "feld e4", "", "remis", "xyz",
];

proptest! {
    #[test]
    fn any_line_in_any_order_never_panics(
        lines in proptest::collection::vec(
            prop_oneof![
                proptest::sample::select(LINES.to_vec()).prop_map(str::to_string),
                "\\PC{0,20}",
            ],
            0..30,
        )
    ) {
        let (mut run, _) = start(Choice::default());
        let mut played = 0;
        for l in lines {
            let before = run.progress().clone();
            let _ = line(&mut run, &l);
            // The rating moves only when a puzzle ends, one at a time.
            let now = run.progress().played.len();
            prop_assert!(now == played || now == played + 1);
            if now == played {
                prop_assert_eq!(run.progress().rating, before.rating);
            }
            played = now;
        }
    }
}

/// Every command word the puzzles' help names, typed as the help names it (with an example
/// where it takes one), is taken in every language: nothing is refused as an unknown word.
#[test]
fn every_word_the_help_names_is_taken_in_every_language() {
    use crate::matchplay::help::command_words;
    use crate::notation::language::languages;
    for lang in languages() {
        let template = &lang.puzzle.help;
        let named: Vec<(&str, &str)> = command_words(lang)
            .into_iter()
            .filter(|(key, _)| template.contains(&format!("{{{key}}}")))
            .collect();
        assert!(named.len() >= 5, "{}: {named:?}", lang.code);
        for (key, word) in named {
            let typed = match key {
                "square" => format!("{word} e4"),
                _ => word.to_string(),
            };
            let (mut run, _) = PuzzleRun::new(
                puzzles(),
                Choice::default(),
                PuzzleProgress::default(),
                lang,
                Form::Short,
                Wording::default(),
            );
            let effects = line(&mut run, &typed);
            assert!(
                !effects.is_empty() && !effects.contains(&ExerciseEffect::Common(Common::Refused)),
                "{}: {typed:?} refused: {effects:?}",
                lang.code
            );
        }
    }
}

/// A puzzle begun (a hint taken, a right move played) is skipped only after a yes; one not
/// begun is skipped at once. No slip of one word loses it.
#[test]
fn skipping_a_puzzle_begun_asks_first() {
    let (mut run, _) = start(Choice::default());
    let first = run.current().map(|p| p.id.clone());
    // Not begun: skipped at once.
    assert!(said(&line(&mut run, "weiter")).starts_with("Übersprungen"));
    assert_ne!(run.current().map(|p| p.id.clone()), first);
    let second = run.current().map(|p| p.id.clone());
    // Begun with a hint: asked, and no keeps it.
    assert!(said(&line(&mut run, "tipp")).starts_with("Tipp: "));
    assert_eq!(
        said(&line(&mut run, "weiter")),
        "Die Aufgabe ist angefangen. Trotzdem überspringen? Ja oder nein"
    );
    assert_eq!(run.current().map(|p| p.id.clone()), second);
    assert_eq!(
        said(&line(&mut run, "nein")),
        "Nicht übersprungen, die Aufgabe bleibt"
    );
    assert_eq!(run.current().map(|p| p.id.clone()), second);
    // `neu` is asked the same; yes skips.
    assert!(said(&line(&mut run, "neu")).starts_with("Die Aufgabe ist angefangen"));
    assert!(said(&line(&mut run, "ja")).starts_with("Übersprungen"));
    assert_ne!(run.current().map(|p| p.id.clone()), second);
}
