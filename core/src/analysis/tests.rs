use super::*;
use crate::notation::language::language;
use shakmaty::{Role, Square};

use crate::testkit::de;

fn en() -> &'static Language {
    language("en").unwrap()
}

fn normal(role: Role, from: Square, to: Square) -> Move {
    Move::Normal {
        role,
        from,
        capture: None,
        to,
        promotion: None,
    }
}

#[test]
fn numbers_with_the_languages_decimal_sign() {
    assert_eq!(number_words(180, de()), "plus 1,8");
    assert_eq!(number_words(180, en()), "plus 1.8");
    assert_eq!(number_words(-35, de()), "minus 0,4");
    assert_eq!(number_words(4, de()), "0,0");
    assert_eq!(number_words(-4, en()), "0.0");
    assert_eq!(number_words(1250, de()), "plus 12,5");
}

#[test]
fn evaluations_in_words() {
    assert_eq!(
        eval_words(Eval::Centipawns(180), de()),
        "Weiß steht deutlich besser, plus 1,8"
    );
    assert_eq!(
        eval_words(Eval::Centipawns(-180), en()),
        "Black is clearly better, minus 1.8"
    );
    assert_eq!(
        eval_words(Eval::Centipawns(12), de()),
        "Ausgeglichen, plus 0,1"
    );
    // The words follow the number said: 0.25 and 0.30 are both "plus 0,3".
    for (cp, said) in [
        (24, "Ausgeglichen, plus 0,2"),
        (25, "Weiß steht etwas besser, plus 0,3"),
        (30, "Weiß steht etwas besser, plus 0,3"),
        (-95, "Schwarz steht deutlich besser, minus 1,0"),
        (245, "Weiß steht auf Gewinn, plus 2,5"),
    ] {
        assert_eq!(eval_words(Eval::Centipawns(cp), de()), said, "{cp}");
    }
    assert_eq!(
        eval_words(Eval::Centipawns(-60), de()),
        "Schwarz steht etwas besser, minus 0,6"
    );
    assert_eq!(
        eval_words(Eval::Centipawns(400), en()),
        "White is winning, plus 4.0"
    );
    assert_eq!(
        eval_words(Eval::Mate(3), de()),
        "Weiß setzt in 3 Zügen matt"
    );
    assert_eq!(eval_words(Eval::Mate(-1), en()), "Black mates in one");
    assert_eq!(
        eval_words(Eval::Over(Some(Color::Black)), de()),
        "Schachmatt, Schwarz hat gewonnen"
    );
    assert_eq!(eval_words(Eval::Over(None), en()), "The game is drawn");
}

#[test]
fn engine_scores_count_from_the_side_to_move() {
    assert_eq!(
        Eval::centipawns_for(Color::Black, 50),
        Eval::Centipawns(-50)
    );
    assert_eq!(Eval::centipawns_for(Color::White, 50), Eval::Centipawns(50));
    assert_eq!(Eval::mate_for(Color::Black, 2), Eval::Mate(-2));
    assert_eq!(Eval::mate_for(Color::Black, -2), Eval::Mate(2));
    assert_eq!(
        Eval::mate_for(Color::White, 0),
        Eval::Over(Some(Color::Black))
    );
    assert_eq!(Eval::Centipawns(180).pgn().as_deref(), Some("1.80"));
    assert_eq!(Eval::Centipawns(-5).pgn().as_deref(), Some("-0.05"));
    assert_eq!(Eval::Mate(-3).pgn().as_deref(), Some("#-3"));
    assert_eq!(Eval::Over(None).pgn(), None);
}

#[test]
fn winning_chances_are_symmetric_and_bounded() {
    let even = Eval::Centipawns(0);
    assert!((even.win_chance(Color::White) - 50.0).abs() < 1e-9);
    let up = Eval::Centipawns(300);
    assert!((up.win_chance(Color::White) + up.win_chance(Color::Black) - 100.0).abs() < 1e-9);
    assert!(up.win_chance(Color::White) > 75.0);
    assert_eq!(Eval::Mate(-4).win_chance(Color::Black), 100.0);
    assert!(Eval::Centipawns(i32::MAX).win_chance(Color::White) < 100.0);
}

#[test]
fn moves_are_judged_by_the_drop_in_the_movers_chances() {
    // Equal to lost: a blunder by either side.
    assert_eq!(
        judge(Eval::Centipawns(20), Eval::Centipawns(-500), Color::White),
        Some(Judgement::Blunder)
    );
    assert_eq!(
        judge(Eval::Centipawns(-20), Eval::Centipawns(500), Color::Black),
        Some(Judgement::Blunder)
    );
    // Equal to clearly worse: a mistake; to slightly worse: an inaccuracy.
    assert_eq!(
        judge(Eval::Centipawns(0), Eval::Centipawns(-250), Color::White),
        Some(Judgement::Mistake)
    );
    assert_eq!(
        judge(Eval::Centipawns(0), Eval::Centipawns(-120), Color::White),
        Some(Judgement::Inaccuracy)
    );
    // A small loss, or one where the game is decided anyway, is no error.
    assert_eq!(
        judge(Eval::Centipawns(30), Eval::Centipawns(0), Color::White),
        None
    );
    assert_eq!(
        judge(Eval::Centipawns(900), Eval::Centipawns(600), Color::White),
        None
    );
    // Missing a mate and losing the game is a blunder; a slower mate is none.
    assert_eq!(
        judge(Eval::Mate(2), Eval::Centipawns(-300), Color::White),
        Some(Judgement::Blunder)
    );
    assert_eq!(judge(Eval::Mate(2), Eval::Mate(5), Color::White), None);
    // Getting better is never an error.
    assert_eq!(
        judge(Eval::Centipawns(0), Eval::Centipawns(300), Color::White),
        None
    );
}

/// 1. f3 e5 2. g4?? Qh4#: White's second move loses at once.
fn fools_mate() -> (Vec<Move>, Vec<PositionEval>) {
    let f3 = normal(Role::Pawn, Square::F2, Square::F3);
    let e5 = normal(Role::Pawn, Square::E7, Square::E5);
    let g4 = normal(Role::Pawn, Square::G2, Square::G4);
    let qh4 = normal(Role::Queen, Square::D8, Square::H4);
    let nc3 = normal(Role::Knight, Square::B1, Square::C3);
    let e4 = normal(Role::Pawn, Square::E2, Square::E4);
    let pe = |eval, best| PositionEval { eval, best };
    let evals = vec![
        pe(Eval::Centipawns(25), Some(e4)),
        pe(Eval::Centipawns(-100), Some(e5)),
        pe(Eval::Centipawns(-70), Some(nc3)),
        pe(Eval::Mate(-1), Some(qh4)),
        pe(Eval::Over(Some(Color::Black)), None),
    ];
    (vec![f3, e5, g4, qh4], evals)
}

#[test]
fn a_review_finds_the_blunder_and_the_better_move() {
    let (moves, evals) = fools_mate();
    let r = review(&Chess::default(), &moves, &evals).unwrap();
    let judged: Vec<_> = r.plies.iter().map(|p| p.judgement).collect();
    // f3 drops from +0.25 to -1.00: an inaccuracy (about 11 points).
    assert_eq!(
        judged,
        [
            Some(Judgement::Inaccuracy),
            None,
            Some(Judgement::Blunder),
            None
        ]
    );
    assert_eq!(r.plies[2].better.as_ref().unwrap().1.to_string(), "Nc3");
    assert_eq!((r.plies[2].number, r.plies[2].mover), (2, Color::White));
    let lines = report_lines(&r, true, de(), Form::Short);
    assert_eq!(
        lines,
        [
            "Zug 2, Weiß: Gustav vier, grober Fehler. Besser: Springer Cäsar drei. Schwarz setzt in \
             einem Zug matt",
            "Weiß: 1 Ungenauigkeit, 0 Fehler, 1 grober Fehler",
            "Schwarz: 0 Ungenauigkeiten, 0 Fehler, 0 grobe Fehler",
        ]
    );
    let all = report_lines(&r, false, en(), Form::Short);
    assert_eq!(all[0], "Start position: White is slightly better, plus 0.3");
    assert_eq!(
        all[2],
        "Move 1, Black: Eva five. Black is slightly better, minus 0.7"
    );
    assert_eq!(
        all[4],
        "Move 2, Black: Queen Hector four, checkmate. Checkmate, Black has won"
    );
    assert_eq!(all.len(), 7);
}

/// Spoken lines say the move's number as a word ("Zug 2, Weiß"), in every language: speech
/// ends a sentence at "2." and would say the number and the rest as two pieces.
#[test]
fn every_language_says_the_moves_number_as_a_word() {
    let (moves, evals) = fools_mate();
    let r = review(&Chess::default(), &moves, &evals).unwrap();
    for (code, blunder, reply) in [
        (
            "de",
            "Zug 2, Weiß: Gustav vier, grober Fehler. ",
            "Zug 1, Schwarz: ",
        ),
        (
            "en",
            "Move 2, White: Gustav four, blunder. ",
            "Move 1, Black: ",
        ),
        ("es", "Jugada 2, Blancas: ", "Jugada 1, Negras: "),
        ("fr", "Coup 2, Blancs : ", "Coup 1, Noirs : "),
        ("nl", "Zet 2, Wit: ", "Zet 1, Zwart: "),
    ] {
        let lang = language(code).unwrap();
        let all = report_lines(&r, false, lang, Form::Short);
        assert!(all[2].starts_with(reply), "{code}: {}", all[2]);
        let errors = report_lines(&r, true, lang, Form::Short);
        assert!(errors[0].starts_with(blunder), "{code}: {}", errors[0]);
        for line in all.iter().chain(&errors) {
            let number_then_stop = line
                .as_bytes()
                .windows(3)
                .any(|w| w[0].is_ascii_digit() && w[1] == b'.' && w[2] == b' ');
            assert!(
                !number_then_stop,
                "{code}: a number ends a sentence: {line}"
            );
        }
    }
}

#[test]
fn the_engines_own_move_is_never_judged() {
    let (moves, mut evals) = fools_mate();
    // The engine itself wanted g4 here: no judgement, however the scores jump.
    evals[2].best = Some(moves[2]);
    let r = review(&Chess::default(), &moves, &evals).unwrap();
    assert_eq!(r.plies[2].judgement, None);
    assert_eq!(r.plies[2].better, None);
}

#[test]
fn answers_that_do_not_fit_are_refused() {
    let (moves, evals) = fools_mate();
    assert_eq!(
        review(&Chess::default(), &moves, &evals[..3]),
        Err(ReviewError::Count { got: 3, moves: 4 })
    );
    let mut wrong = moves.clone();
    wrong.swap(0, 1);
    assert_eq!(
        review(&Chess::default(), &wrong, &evals),
        Err(ReviewError::Illegal(1))
    );
    let empty = review(&Chess::default(), &[], &evals[..1]).unwrap();
    assert_eq!(
        report_lines(&empty, true, de(), Form::Short),
        ["Die Partie hat keine Züge"]
    );
}

#[test]
fn finished_positions_need_no_engine() {
    let (moves, _) = fools_mate();
    let mut pos = Chess::default();
    for m in &moves {
        assert_eq!(Eval::of_finished(&pos), None);
        pos.play_unchecked(*m);
    }
    assert_eq!(
        Eval::of_finished(&pos),
        Some(Eval::Over(Some(Color::Black)))
    );
}

#[test]
fn every_language_keeps_the_placeholders() {
    for lang in crate::notation::language::languages() {
        let w = &lang.analysis;
        let checks: [(&str, &[&str]); 15] = [
            (&w.equal, &["{number}"]),
            (&w.slightly_better, &["{color}", "{number}"]),
            (&w.clearly_better, &["{color}", "{number}"]),
            (&w.winning, &["{color}", "{number}"]),
            (&w.mate_in[0], &["{color}"]),
            (&w.mate_in[1], &["{color}", "{n}"]),
            (&w.checkmate, &["{color}"]),
            (&w.move_line, &["{number}", "{color}", "{move}", "{eval}"]),
            (
                &w.error_line,
                &[
                    "{number}", "{color}", "{move}", "{kind}", "{better}", "{eval}",
                ],
            ),
            (&w.start_line, &["{eval}"]),
            (
                &w.summary,
                &["{color}", "{inaccuracies}", "{mistakes}", "{blunders}"],
            ),
            (&w.analysing, &["{engine}", "{moves}"]),
            (&w.engine_failed, &["{reason}"]),
            (&w.hint, &["{move}"]),
            (&w.inaccuracies[1], &["{n}"]),
        ];
        for (template, needed) in checks {
            for n in needed {
                assert!(template.contains(n), "{}: {template} lacks {n}", lang.code);
            }
        }
        assert!(!w.words_eval.is_empty() && !w.words_hint.is_empty());
    }
}
