//! `hector check` through the real binary: published master games, constructed records for
//! every automatic end and claim, faulty records, and an outside check against pgn-extract.

// Tests and benchmarks stop at the first surprise, and the pseudo-terminals need the
// system's calls: the crate's [lints] are for hector itself.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, unsafe_code)]

mod common;

use std::collections::BTreeSet;
use std::process::Command;

use common::{data, find_program, run, run_with};
use serde_json::Value;

fn json_lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
        .collect()
}

fn check_json(file: &str) -> (Option<i32>, Vec<Value>) {
    let path = data(file);
    let r = run(&["check", "--json", path.to_str().expect("utf-8 path")]);
    (r.code, json_lines(&r.stdout))
}

#[test]
fn master_games_are_legal_and_consistent() {
    let (code, games) = check_json("masters.pgn");
    assert_eq!(code, Some(0));
    let summary: Vec<(u64, Option<&str>, &str)> = games
        .iter()
        .map(|g| {
            (
                g["plies"].as_u64().expect("plies"),
                g["automatic"]["rule"].as_str(),
                g["status"].as_str().expect("status"),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (33, Some("checkmate"), "1-0"), // Morphy, the opera game: 17. Rd8#
            (45, Some("checkmate"), "1-0"), // The Immortal Game: 23. Be7#
            (47, Some("checkmate"), "1-0"), // The Evergreen Game: 24. Bxe7#
            (82, Some("checkmate"), "0-1"), // Byrne - Fischer 1956: 41... Rc2#
            (13, Some("checkmate"), "1-0"), // Legall's mate: 7. Nd5#
            (21, Some("checkmate"), "1-0"), // Reti - Tartakower: 11. Bd8#
            (37, None, "*"),                // Deep Blue - Kasparov 1997, resigned
            (87, None, "*"),                // Kasparov - Topalov 1999, resigned
        ]
    );
    for g in &games {
        assert_eq!(g["illegal"], Value::Null);
        assert!(g.get("errors").is_none());
    }
}

#[test]
fn json_keys_come_in_the_documented_order() {
    let r = run(&[
        "check",
        "--json",
        data("masters.pgn").to_str().expect("path"),
    ]);
    let first = r.stdout.lines().next().expect("a line");
    assert_eq!(
        first,
        r#"{"game":1,"plies":33,"illegal":null,"claims":{"threefold":null,"fifty_move":null},"automatic":{"ply":33,"rule":"checkmate"},"result_tag":"1-0","status":"1-0"}"#
    );
}

#[test]
fn claims_and_automatic_draws() {
    let (code, games) = check_json("claims.pgn");
    assert_eq!(code, Some(0));
    // 9.2b threefold at ply 8, 9.6a fivefold at ply 16.
    assert_eq!(games[0]["claims"]["threefold"], 8);
    assert_eq!(games[0]["automatic"]["rule"], "fivefold");
    assert_eq!(games[0]["automatic"]["ply"], 16);
    // 9.3b fifty moves at ply 10 (the FEN starts at halfmove 90), 9.6b seventy-five at 60.
    assert_eq!(games[1]["claims"]["fifty_move"], 10);
    assert_eq!(games[1]["claims"]["threefold"], Value::Null);
    assert_eq!(games[1]["automatic"]["rule"], "seventy-five-move");
    assert_eq!(games[1]["automatic"]["ply"], 60);
    // 5.2a stalemate.
    assert_eq!(games[2]["automatic"]["rule"], "stalemate");
    assert_eq!(games[2]["status"], "1/2-1/2");
    // 5.2b dead position: king against king.
    assert_eq!(games[3]["automatic"]["rule"], "insufficient-material");
    assert_eq!(games[3]["automatic"]["ply"], 2);
    // Chess960 castling on both wings.
    assert_eq!(games[4]["plies"], 4);
    assert_eq!(games[4]["illegal"], Value::Null);
}

#[test]
fn faulty_records_are_reported_and_later_games_still_checked() {
    let (code, games) = check_json("faulty.pgn");
    assert_eq!(code, Some(1));
    assert_eq!(games.len(), 4);
    // A misread move: 13. Rxd8 where the knight on d7 is in the way.
    assert_eq!(games[0]["illegal"]["ply"], 25);
    assert_eq!(games[0]["illegal"]["san"], "Rxd8");
    assert_eq!(games[0]["illegal"]["reason"], "no rook can reach d8");
    assert_eq!(games[0]["plies"], 24);
    // A Result tag that contradicts the mate on the board.
    assert_eq!(games[1]["status"], "1-0");
    assert_eq!(games[1]["result_tag"], "0-1");
    // Syntax errors with their line numbers.
    let errors = games[2]["errors"].as_array().expect("errors");
    assert_eq!(errors[0]["line"], 23);
    assert_eq!(errors[1]["line"], 26);
    // The game after the broken one is read as usual.
    assert_eq!(games[3]["automatic"]["rule"], "checkmate");
}

#[test]
fn text_report_names_lines_and_articles() {
    let r = run(&["check", data("faulty.pgn").to_str().expect("path")]);
    assert_eq!(r.code, Some(1));
    assert!(
        r.stdout
            .contains("illegal move at ply 25, 13. Rxd8 on line 10: no rook can reach d8"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("checkmate at ply 13 (5.1a), so 1-0; result 0-1 does not agree")
    );
    assert!(
        r.stdout
            .contains("error on line 23: the value of tag Event is not closed with a quote")
    );
    assert!(
        r.stdout
            .ends_with("4 games checked: 1 legal and consistent, 3 with problems.\n")
    );
}

#[test]
fn reads_standard_input() {
    let pgn = b"[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
    let r = run_with(
        &["check", "--json", "-"],
        pgn,
        &[],
        std::time::Duration::from_secs(30),
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let games = json_lines(&r.stdout);
    assert_eq!(games[0]["automatic"]["rule"], "checkmate");
    assert_eq!(games[0]["status"], "0-1");
}

#[test]
fn unreadable_input_exits_2_with_a_message() {
    let r = run(&["check", "/nonexistent/games.pgn"]);
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr.contains("cannot read /nonexistent/games.pgn"),
        "{}",
        r.stderr
    );
}

#[test]
fn garbage_never_panics() {
    let inputs: [&[u8]; 6] = [
        b"\x00\x01\x02\xff\xfe",
        b"[Event \"x\"]\n[FEN \"not a fen\"]\n1. e4 *",
        b"[Variant \"Chess960\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n*",
        b"((((((((((1. e4",
        b"1. e4 e5 2. Ke2 Ke7 3. Kd3 Kd6 4. Kc4 Kc5 5. Kb5 Kb4 6. Ka6 Ka3 7. Kxa7 Kxa2 *",
        b"}}}]]]$$$ 1-0 0-1",
    ];
    for input in inputs {
        let r = run_with(
            &["check", "-"],
            input,
            &[],
            std::time::Duration::from_secs(30),
        );
        assert!(
            matches!(r.code, Some(0..=2)),
            "{input:?}: {:?} {}",
            r.code,
            r.stderr
        );
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    }
}

/// hector and pgn-extract (an independent PGN reader from Debian) must agree on which
/// generated games end in mate or stalemate, and on repeated positions, where pgn-extract's
/// positions may differ only by an en passant square on which no capture is possible (FIDE
/// 9.2 counts such positions as the same, so hector may find a few more repetitions).
#[test]
fn agrees_with_pgn_extract_on_generated_games() {
    let Some(pgn_extract) = find_program("pgn-extract") else {
        panic!("pgn-extract is not installed: run scripts/setup");
    };
    let dir = common::temp_dir("check");
    let file = dir.join("sample.pgn");
    let text = hector::testkit::games::write_games(hector::testkit::games::SampleOptions {
        games: 1500,
        seed: 42,
        clock_comments: false,
    });
    std::fs::write(&file, text).expect("write sample");
    let r = run(&["check", "--json", file.to_str().expect("path")]);
    assert_eq!(r.code, Some(0), "generated games are legal and consistent");
    let games = json_lines(&r.stdout);
    let ours = |pred: &dyn Fn(&Value) -> bool| -> BTreeSet<u64> {
        games
            .iter()
            .filter(|g| pred(g))
            .map(|g| g["game"].as_u64().expect("n"))
            .collect()
    };
    let theirs = |option: &str| -> BTreeSet<u64> {
        let out = Command::new(&pgn_extract)
            .args(["-s", option])
            .arg(&file)
            .output()
            .expect("run pgn-extract");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| l.strip_prefix("[Event \"hector sample "))
            .filter_map(|l| l.trim_end_matches("\"]").parse().ok())
            .collect()
    };
    let mates = ours(&|g| g["automatic"]["rule"] == "checkmate");
    let stalemates = ours(&|g| g["automatic"]["rule"] == "stalemate");
    let repeats =
        ours(&|g| g["claims"]["threefold"].is_u64() || g["automatic"]["rule"] == "fivefold");
    assert!(
        mates.len() > 10 && stalemates.len() > 5 && repeats.len() > 50,
        "sample too tame"
    );
    assert_eq!(mates, theirs("--checkmate"));
    assert_eq!(stalemates, theirs("--stalemate"));
    let their_repeats = theirs("--repetition");
    assert!(their_repeats.is_subset(&repeats));
    assert!(
        repeats.len() - their_repeats.len() <= repeats.len() / 50,
        "{} vs {}",
        repeats.len(),
        their_repeats.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
