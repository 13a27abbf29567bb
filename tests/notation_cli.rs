//! `hector transcript` and `hector parse` through the real binary.

#![allow(
    clippy::expect_used,
    clippy::panic,
    unsafe_code,
    reason = "tests stop at the first surprise, and the pseudo-terminals need the system's calls; the crate's lints are for hector itself"
)]
// The binary is driven through Unix pseudo-terminals and processes (tests/common).
#![cfg(unix)]

mod common;

use common::{data, run, run_with};
use std::time::Duration;

#[test]
fn transcript_text_reads_like_the_scoresheet() {
    let r = run(&["transcript", data("masters.pgn").to_str().expect("path")]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(
        lines[0],
        "Partie 1: Morphy, Paul gegen Duke Karl / Count Isouard"
    );
    // White's and Black's moves apart with a mark a screen reader keeps.
    assert_eq!(lines[1], "1. Eva vier; Eva fünf");
    assert_eq!(lines[2], "2. Springer Felix drei; David sechs");
    assert_eq!(lines[12], "12. Lange Rochade; Turm David acht");
    assert_eq!(lines[17], "17. Turm David acht, Schachmatt");
    assert_eq!(lines[18], "Weiß gewinnt");
    assert_eq!(
        lines[19],
        "Partie 2: Anderssen, Adolf gegen Kieseritzky, Lionel"
    );
}

#[test]
fn transcript_tsv_has_one_line_per_ply_and_nothing_else() {
    let r = run(&[
        "transcript",
        "--format",
        "tsv",
        "--lang",
        "en",
        "--form",
        "long",
        data("masters.pgn").to_str().expect("path"),
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    // 33 + 45 + 47 + 82 + 13 + 21 + 37 + 87 plies.
    assert_eq!(lines.len(), 365);
    for line in &lines {
        assert_eq!(line.split('\t').count(), 5, "{line}");
    }
    assert_eq!(lines[0], "1\t1\te4\te2e4\tPawn Eva two to Eva four");
    assert_eq!(lines[22], "1\t23\tO-O-O\te1c1\tlong castling");
    assert_eq!(
        lines[32],
        "1\t33\tRd8#\td1d8\tRook David one to David eight, checkmate"
    );
}

#[test]
fn transcript_chess960_castling_is_king_takes_rook() {
    let r = run(&[
        "transcript",
        "--format",
        "tsv",
        data("claims.pgn").to_str().expect("path"),
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let castles: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("5\t"))
        .take(2)
        .collect();
    assert_eq!(
        castles,
        [
            "5\t1\tO-O\tb1h1\tKurze Rochade",
            "5\t2\tO-O-O\tb8a8\tLange Rochade"
        ]
    );
}

#[test]
fn transcript_reports_an_illegal_move_and_goes_on() {
    let r = run(&["transcript", data("faulty.pgn").to_str().expect("path")]);
    assert_eq!(r.code, Some(1));
    assert!(
        r.stderr
            .contains("game 1: line 10: ply 25 Rxd8: no rook can reach d8"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.contains("12. Lange Rochade; Turm David acht"));
    assert!(
        r.stdout
            .contains("Partie 4: Reti, Richard gegen Tartakower, Savielly")
    );
}

#[test]
fn parse_prints_uci_and_phrase() {
    let r = run(&["parse", "Springer", "Felix", "drei"]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (Some(0), "g1f3\tSpringer Felix drei\n")
    );
    let r = run(&["parse", "--lang", "en", "knight gustav one to felix three"]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (Some(0), "g1f3\tKnight Felix three\n")
    );
    let r = run(&[
        "parse",
        "--fen",
        "8/4P3/8/8/8/8/k7/4K3 w - - 0 1",
        "Eva acht Dame",
    ]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (Some(0), "e7e8q\tEva acht, Umwandlung in Dame\n")
    );
    let r = run(&[
        "parse",
        "--chess960",
        "--fen",
        "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1",
        "Kurze Rochade",
    ]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (Some(0), "b1h1\tKurze Rochade\n")
    );
}

/// A move in French, Spanish and Dutch words and letters, and the answer in that language.
#[test]
fn parse_in_french_spanish_and_dutch() {
    for (code, text, expected) in [
        ("fr", "Cavalier Felix trois", "g1f3\tCavalier Felix trois\n"),
        ("fr", "Cf3", "g1f3\tCavalier Felix trois\n"),
        (
            "es",
            "caballo gustav uno hacia felix tres",
            "g1f3\tCaballo Felix tres\n",
        ),
        ("es", "Cf3", "g1f3\tCaballo Felix tres\n"),
        ("nl", "Paard Felix drie", "g1f3\tPaard Felix drie\n"),
        ("nl", "Pf3", "g1f3\tPaard Felix drie\n"),
        ("de", "Pf3", "f2f3\tFelix drei\n"),
    ] {
        let r = run(&["parse", "--lang", code, text]);
        assert_eq!(
            (r.code, r.stdout.as_str()),
            (Some(0), expected),
            "{code}: {text}"
        );
    }
    // R is the king in French and Spanish: after 1. e4 e5 Re2 is the king's step.
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    let r = run(&["parse", "--lang", "fr", "--fen", fen, "Re2"]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (Some(0), "e1e2\tRoi Eva deux\n")
    );
    let r = run(&["parse", "--lang", "es", "--fen", fen, "Re2"]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (Some(0), "e1e2\tRey Eva dos\n")
    );
    // The refusal is said in the language: no Dutch rook can reach e2.
    let r = run(&["parse", "--lang", "nl", "--fen", fen, "Re2"]);
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(
        format!("{}{}", r.stdout, r.stderr).contains("Geen toren kan Eva twee bereiken"),
        "{}{}",
        r.stdout,
        r.stderr
    );
}

#[test]
fn parse_explains_and_exits_1() {
    let r = run(&["parse", "Springer Felix vier"]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (Some(1), "Kein Springer kann Felix vier erreichen\n")
    );
    let r = run(&[
        "parse",
        "--lang",
        "en",
        "--fen",
        "4k3/8/8/2N1N3/8/8/8/4K3 w - - 0 1",
        "Nd7",
    ]);
    assert_eq!(r.code, Some(1));
    assert_eq!(
        r.stdout,
        "Ambiguous: Knight Cesar David seven or Knight Eva David seven\n"
    );
    let r = run(&["parse", "Springer Felix zwölf"]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (Some(1), "Unbekanntes Wort: zwölf\n")
    );
}

/// Nothing is reread into a move that was not meant: the true reason, or the one move.
#[test]
fn parse_refuses_what_was_not_meant_and_accepts_what_players_type() {
    let after_d5 = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    let both = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    for (args, code, out) in [
        (&["Bb4"][..], 1, "Kein Läufer kann Bella vier erreichen\n"),
        (
            &["--lang", "en", "Bb4"],
            1,
            "No bishop can reach Bella four\n",
        ),
        (
            &["Läufer", "Bella", "vier"],
            1,
            "Kein Läufer kann Bella vier erreichen\n",
        ),
        (
            &["--fen", after_d5, "David fünf"],
            1,
            "Kein Bauer kann David fünf erreichen, ohne zu schlagen. Schlagen: Eva schlägt David fünf\n",
        ),
        (&["N f3"], 0, "g1f3\tSpringer Felix drei\n"),
        (&["S", "f3"], 0, "g1f3\tSpringer Felix drei\n"),
        (&["--fen", both, "OO"], 0, "e1g1\tKurze Rochade\n"),
        (&["--fen", both, "OOO"], 0, "e1c1\tLange Rochade\n"),
        (
            &["--fen", both, "Rochade"],
            1,
            "Kurze oder lange Rochade?\n",
        ),
        (
            &[
                "--fen",
                "r3k2r/8/8/8/8/8/8/R3K3 w Qkq - 0 1",
                "--lang",
                "en",
                "castle",
            ],
            0,
            "e1c1\tlong castling\n",
        ),
        (
            &["Springa", "Felix", "drei"],
            1,
            "Unbekanntes Wort: Springa. Meinten Sie Springer?\n",
        ),
    ] {
        let mut all = vec!["parse"];
        all.extend_from_slice(args);
        let r = run(&all);
        assert_eq!((r.code, r.stdout.as_str()), (Some(code), out), "{args:?}");
    }
}

#[test]
fn parse_usage_errors_exit_2() {
    let r = run(&["parse", "--fen", "not a fen", "e4"]);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("FEN"), "{}", r.stderr);
    let r = run(&["parse", "--lang", "xx", "e4"]);
    assert_eq!(r.code, Some(2));
    // In the language hector speaks without --lang: German.
    assert!(
        r.stderr
            .contains("hector spricht xx nicht; vorhanden sind: de, en, es, fr, nl"),
        "{}",
        r.stderr
    );
    let r = run_with(&["parse"], b"", &[], Duration::from_secs(30));
    assert_eq!(r.code, Some(2));
}
