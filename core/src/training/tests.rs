use crate::machine::Common;
use proptest::prelude::*;
use shakmaty::{Chess, Color, Move, Position, san::San};

use super::progress::Progress;
use super::*;
use crate::analysis::{Eval, PositionEval, review};
use crate::testkit::words::{de, t};

/// 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6?? 4. Qxf7#: Black's third move is the blunder; g6 holds.
fn blunder_game() -> (Vec<Move>, Vec<PositionEval>, Vec<Vec<Move>>) {
    let mut pos = Chess::default();
    let mut moves = Vec::new();
    let mut positions = vec![pos.clone()];
    for san in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"] {
        let m = san
            .parse::<San>()
            .expect("san")
            .to_move(&pos)
            .expect("legal");
        pos.play_unchecked(m);
        moves.push(m);
        positions.push(pos.clone());
    }
    let mv = |i: usize, san: &str| {
        san.parse::<San>()
            .expect("san")
            .to_move(&positions[i])
            .expect("legal")
    };
    let g6 = mv(5, "g6");
    let mut evals = Vec::new();
    let mut lines = Vec::new();
    for (i, p) in positions.iter().enumerate() {
        let (eval, line) = match i {
            5 => (
                Eval::Centipawns(20),
                vec![g6, {
                    let mut after = p.clone();
                    after.play_unchecked(g6);
                    "Qf3"
                        .parse::<San>()
                        .expect("san")
                        .to_move(&after)
                        .expect("legal")
                }],
            ),
            6 => (Eval::Mate(1), vec![moves[6]]),
            7 => (Eval::Over(Some(Color::White)), Vec::new()),
            _ => (Eval::Centipawns(30), vec![moves[i]]),
        };
        evals.push(PositionEval {
            eval,
            best: line.first().copied(),
        });
        lines.push(line);
    }
    (moves, evals, lines)
}

fn exercises() -> Vec<Exercise> {
    let (moves, evals, lines) = blunder_game();
    let judged = review(&Chess::default(), &moves, &evals).expect("review");
    exercises_of(
        &judged,
        &lines,
        Color::Black,
        "Partie vom 2026-11-25 gegen Stockfish",
    )
}

fn train() -> (Train, Vec<ExerciseEffect>) {
    Train::new(
        exercises(),
        Progress::default(),
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

fn line(tr: &mut Train, text: &str) -> Vec<ExerciseEffect> {
    tr.handle(ExerciseEvent::Line(text.into()), t(0))
}

#[test]
fn only_the_players_mistakes_are_exercises() {
    let ex = exercises();
    assert_eq!(ex.len(), 1);
    assert_eq!(ex[0].number, 3);
    assert_eq!(ex[0].mover, Color::Black);
    let (moves, evals, lines) = blunder_game();
    let judged = review(&Chess::default(), &moves, &evals).expect("review");
    assert!(exercises_of(&judged, &lines, Color::White, "").is_empty());
}

#[test]
fn the_question_names_the_move_and_the_side() {
    let (tr, effects) = train();
    let text = said(&effects);
    assert!(
        text.contains("Training: 1 Stellung aus Ihren Partien"),
        "{text}"
    );
    assert!(
        text.contains(
            "1 von 1. Partie vom 2026-11-25 gegen Stockfish. Ihr 3. Zug, Schwarz am Zug: \
             finden Sie einen besseren Zug. In der Partie: Springer Felix sechs, grober Fehler"
        ),
        "{text}"
    );
    assert!(effects.iter().any(|e| matches!(e, ExerciseEffect::Show(_))));
    assert!(tr.current().is_some());
}

#[test]
fn the_best_move_is_praised_with_its_line_and_counted() {
    let (mut tr, _) = train();
    let effects = line(&mut tr, "g6");
    let text = said(&effects);
    assert!(
        text.contains("Richtig: Gustav sechs. Es folgt Zug 4, Weiß: Dame Felix drei"),
        "{text}"
    );
    assert!(text.contains("Training beendet: 1 von 1 gelöst"), "{text}");
    assert!(effects.iter().any(|e| matches!(e, ExerciseEffect::Keep(_))));
    assert_eq!(effects.last(), Some(&ExerciseEffect::Common(Common::Quit)));
    // The round ran out: its last answer is kept on braille before the mode ends.
    assert!(Exercises::ran_out(&tr));
    let key = exercises()[0].key();
    assert_eq!(tr.progress().get(&key).solved, 1);
    assert!(tr.progress().due(&key));
}

#[test]
fn the_move_of_the_game_is_answered_with_what_it_allows() {
    let (mut tr, _) = train();
    let effects = line(&mut tr, "Sf6");
    let text = said(&effects);
    assert!(
        text.contains("Das ist der Zug der Partie: darauf Zug 4, Weiß: Dame schlägt Felix sieben"),
        "{text}"
    );
    assert!(effects.contains(&ExerciseEffect::Common(Common::Refused)));
    assert!(tr.current().is_some());
}

#[test]
fn another_move_is_judged_by_the_engine() {
    let (mut tr, _) = train();
    let effects = line(&mut tr, "a6");
    let Some(ExerciseEffect::Judge { answer, .. }) = effects.first().cloned() else {
        panic!("{effects:?}");
    };
    assert!(tr.judging());
    // Lines typed while the engine judges are kept: nothing said, nothing judged yet.
    let kept = line(&mut tr, "a5");
    assert!(kept.is_empty(), "{kept:?}");
    assert!(line(&mut tr, "feld f7").is_empty());
    let pos = tr.position().cloned().expect("asked");
    let mut after = pos.clone();
    after.play_unchecked(answer);
    let qxf7 = "Qxf7#"
        .parse::<San>()
        .expect("san")
        .to_move(&after)
        .expect("legal");
    let effects = tr.handle(
        ExerciseEvent::Judged {
            answer,
            eval: Eval::Mate(1),
            reply: vec![qxf7],
        },
        t(1),
    );
    let text = said(&effects);
    assert!(
        text.contains("Anna sechs ist nicht besser: darauf Zug 4, Weiß: Dame schlägt Felix sieben"),
        "{text}"
    );
    assert!(text.contains("Weiß setzt in einem Zug matt"), "{text}");
    // Then the lines typed meanwhile, in order: the move is judged, and the question after
    // it waits for that verdict.
    let Some(ExerciseEffect::Judge { answer: a5, .. }) = effects
        .iter()
        .find(|e| matches!(e, ExerciseEffect::Judge { .. }))
        .cloned()
    else {
        panic!("{effects:?}");
    };
    assert_eq!(a5.to(), shakmaty::Square::A5);
    assert!(!text.contains("Felix sieben: "), "{text}");
    let effects = tr.handle(
        ExerciseEvent::Judged {
            answer: a5,
            eval: Eval::Mate(1),
            reply: vec![qxf7],
        },
        t(2),
    );
    let text = said(&effects);
    assert!(text.contains("Anna fünf ist nicht besser"), "{text}");
    assert!(text.contains("Felix sieben: schwarzer Bauer"), "{text}");
    assert!(
        text.find("Anna fünf").unwrap_or(usize::MAX) < text.find("Felix sieben:").unwrap_or(0),
        "{text}"
    );
    // As good as the best: right, and counted.
    let effects = line(&mut tr, "De7");
    let Some(ExerciseEffect::Judge { answer, .. }) = effects.first().cloned() else {
        panic!("{effects:?}");
    };
    let effects = tr.handle(
        ExerciseEvent::Judged {
            answer,
            eval: Eval::Centipawns(35),
            reply: Vec::new(),
        },
        t(2),
    );
    let text = said(&effects);
    assert!(
        text.contains("Richtig: Dame Eva sieben ist so gut wie Gustav sechs"),
        "{text}"
    );
}

#[test]
fn three_wrong_answers_show_the_solution() {
    let (mut tr, _) = train();
    line(&mut tr, "Sf6");
    line(&mut tr, "Sf6");
    let effects = line(&mut tr, "Sf6");
    let text = said(&effects);
    assert!(text.contains("Dreimal nicht gefunden"), "{text}");
    assert!(text.contains("Die Lösung: Gustav sechs"), "{text}");
    assert_eq!(tr.progress().get(&exercises()[0].key()).solved, 0);
}

#[test]
fn the_hint_names_the_piece_then_the_square() {
    let (mut tr, _) = train();
    let first = said(&line(&mut tr, "tipp"));
    assert_eq!(first, "Tipp: Bauer auf Gustav sieben");
    let second = said(&line(&mut tr, "tipp"));
    assert_eq!(second, "Tipp: Bauer nach Gustav sechs");
}

#[test]
fn questions_answer_for_the_position_asked_about() {
    let (mut tr, _) = train();
    assert_eq!(
        said(&line(&mut tr, "feld f7")),
        "Felix sieben: schwarzer Bauer"
    );
    let refused = line(&mut tr, "remis");
    assert!(
        refused.contains(&ExerciseEffect::Common(Common::Refused)),
        "{refused:?}"
    );
    let bad = line(&mut tr, "Ke9");
    assert!(
        bad.contains(&ExerciseEffect::Common(Common::Refused)),
        "{bad:?}"
    );
}

#[test]
fn solved_twice_it_does_not_come_back() {
    let (mut tr, _) = train();
    line(&mut tr, "g6");
    let progress = Progress::decode(&tr.progress().encode()).expect("reads back");
    let (mut tr, _) = Train::new(exercises(), progress, de(), Form::Short, Wording::default());
    let text = said(&line(&mut tr, "g6"));
    assert!(text.contains("Zweimal gelöst"), "{text}");
    assert!(!tr.progress().due(&exercises()[0].key()));
}

#[test]
fn nothing_to_practise_is_said_and_ends() {
    let (_, effects) = Train::new(
        Vec::new(),
        Progress::default(),
        de(),
        Form::Short,
        Wording::default(),
    );
    assert!(said(&effects).contains("Keine Stellungen zum Üben"));
    assert_eq!(effects.last(), Some(&ExerciseEffect::Common(Common::Quit)));
}

#[test]
fn a_round_quit_at_the_players_word_has_not_run_out() {
    let (mut tr, _) = train();
    assert!(!Exercises::ran_out(&tr));
    let effects = line(&mut tr, "ende");
    assert_eq!(effects.last(), Some(&ExerciseEffect::Common(Common::Quit)));
    assert!(!Exercises::ran_out(&tr));
}

/// Lines that only ask: they change neither the exercise nor the progress.
const QUESTIONS: [&str; 14] = [
    "brett", "feld e4", "reihe 7", "linie f", "figuren", "angriffe", "züge", "material",
    "gefahren", "hilfe", "", "remis", "xyz", "feld",
];
/// Lines that answer or move on.
const ACTIONS: [&str; 10] = [
    "g6", "Sf6", "a6", "De7", "tipp", "lösung", "weiter", "ende", "Ke9", "solution",
];

fn event() -> impl Strategy<Value = ExerciseEvent> {
    prop_oneof![
        proptest::sample::select(QUESTIONS.to_vec()).prop_map(|l| ExerciseEvent::Line(l.into())),
        proptest::sample::select(ACTIONS.to_vec()).prop_map(|l| ExerciseEvent::Line(l.into())),
        "\\PC{0,30}".prop_map(ExerciseEvent::Line),
        (-2000i32..2000).prop_map(|cp| ExerciseEvent::Judged {
            answer: Move::Normal {
                role: shakmaty::Role::Pawn,
                from: shakmaty::Square::A7,
                capture: None,
                to: shakmaty::Square::A6,
                promotion: None,
            },
            eval: Eval::Centipawns(cp),
            reply: Vec::new(),
        }),
        Just(ExerciseEvent::JudgeFailed { reason: "x".into() }),
    ]
}

proptest! {
    #[test]
    fn any_line_in_any_order_never_panics_and_questions_change_nothing(
        events in proptest::collection::vec(event(), 0..40),
        question in proptest::sample::select(QUESTIONS.to_vec()),
    ) {
        let (mut tr, _) = train();
        let mut solved = 0;
        for (i, e) in events.into_iter().enumerate() {
            let before = (tr.at, tr.stage, tr.progress.clone());
            let effects = tr.handle(e, t(i as u64));
            // Solutions only grow, by one at most.
            let now = tr.progress().get(&exercises()[0].key()).solved;
            prop_assert!(now == solved || now == solved + 1);
            solved = now;
            prop_assert!(tr.at >= before.0);
            // A question in between changes nothing.
            let (at, stage, progress) = (tr.at, tr.stage, tr.progress.clone());
            let asked = tr.handle(ExerciseEvent::Line(question.into()), t(0));
            prop_assert_eq!((tr.at, tr.stage, &tr.progress), (at, stage, &progress));
            prop_assert!(!asked.contains(&ExerciseEffect::Common(Common::Quit)));
            let _ = effects;
        }
    }
}

/// Every command word the training's help names, typed as the help names it, is taken in
/// every language: nothing is refused as an unknown word (the help once named `gefahren`).
#[test]
fn every_word_the_help_names_is_taken_in_every_language() {
    use crate::matchplay::help::command_words;
    use crate::notation::language::languages;
    for lang in languages() {
        let template = &lang.train.help;
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
            let (mut tr, _) = Train::new(
                exercises(),
                Progress::default(),
                lang,
                Form::Short,
                Wording::default(),
            );
            let effects = line(&mut tr, &typed);
            assert!(
                !effects.is_empty() && !effects.contains(&ExerciseEffect::Common(Common::Refused)),
                "{}: {typed:?} refused: {effects:?}",
                lang.code
            );
        }
    }
}

/// A position begun (a hint taken) is skipped only after a yes: `weiter` or `neu` asks, no
/// keeps the position, yes skips it.
#[test]
fn skipping_a_position_begun_asks_first() {
    let (mut tr, _) = train();
    assert!(said(&line(&mut tr, "tipp")).starts_with("Tipp: "));
    let asked = "Die Stellung ist angefangen. Trotzdem überspringen? Ja oder nein";
    assert_eq!(said(&line(&mut tr, "weiter")), asked);
    assert_eq!(tr.question_asked(), Some(asked));
    assert!(tr.current().is_some());
    assert_eq!(
        said(&line(&mut tr, "nein")),
        "Nicht übersprungen, die Stellung bleibt"
    );
    assert!(tr.current().is_some());
    assert_eq!(tr.question_asked(), None);
    assert_eq!(said(&line(&mut tr, "neu")), asked);
    assert!(said(&line(&mut tr, "ja")).starts_with("Übersprungen"));
}
