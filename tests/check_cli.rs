//! `hector check` through the real binary: published master games, constructed records for
//! every automatic end and claim, faulty records, and an outside check against pgn-extract.

#![allow(
    clippy::expect_used,
    clippy::panic,
    unsafe_code,
    reason = "tests stop at the first surprise, and the pseudo-terminals need the system's calls; the crate's lints are for hector itself"
)]
// The binary is driven through Unix pseudo-terminals and processes (tests/common).
#![cfg(unix)]

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
    let text =
        hector::core::testkit::games::write_games(hector::core::testkit::games::SampleOptions {
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

/// A directory of its own for a test's files, removed when the test ends, failed or not.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("hector-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        Scratch(dir)
    }

    fn write(&self, name: &str, bytes: &[u8]) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).expect("write test file");
        path.to_str().expect("utf-8 path").to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const LIMIT: std::time::Duration = std::time::Duration::from_secs(120);

fn check_stdin(args: &[&str], input: &[u8]) -> common::Run {
    run_with(args, input, &[], LIMIT)
}

fn sample(games: usize, seed: u64) -> String {
    hector::core::testkit::games::write_games(hector::core::testkit::games::SampleOptions {
        games,
        seed,
        clock_comments: false,
    })
}

#[test]
fn many_tags_are_read_in_one_pass() {
    // 40,000 tags in one game (under the size limit), then a normal game.
    let mut pgn = String::from("[Event \"tags\"]\n");
    for i in 0..40_000 {
        pgn.push_str(&format!("[Tag{i} \"v\"]\n"));
    }
    pgn.push_str("\n1. e4 e5 *\n\n[Event \"next\"]\n1. f3 e5 2. g4 Qh4# 0-1\n");
    let r = check_stdin(&["check", "--json", "-"], pgn.as_bytes());
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let games = json_lines(&r.stdout);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0]["plies"], 2);
    assert_eq!(games[1]["automatic"]["rule"], "checkmate");
}

#[test]
fn a_game_over_the_size_limit_is_one_error_and_the_next_game_is_checked() {
    // A million tags (about 15 MB in one game), then a game that must still be found.
    let mut pgn = String::from("[Event \"huge\"]\n");
    for i in 0..1_000_000 {
        pgn.push_str(&format!("[T{i} \"v\"]\n"));
    }
    pgn.push_str(
        "\n*\n\n[Event \"after\"]\n[White \"A\"]\n[Black \"B\"]\n1. f3 e5 2. g4 Qh4# 0-1\n",
    );
    let r = check_stdin(&["check", "-"], pgn.as_bytes());
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(
        lines,
        [
            "Game 1 (line 1): error on line 1: the game is longer than 1 MiB, the most hector \
             reads as one game; it is skipped up to the next line that starts with [Event; \
             0 plies; no automatic end; no Result tag.",
            "Game 2, A against B (line 1000005): 4 plies; checkmate at ply 4 (5.1a), so 0-1; \
             result 0-1 agrees.",
            "2 games checked: 1 legal and consistent, 1 with problems.",
        ]
    );
}

#[test]
fn hostile_inputs_give_one_short_report_each() {
    let cases: Vec<(&str, Vec<u8>)> = vec![
        // 3 MB of "(": over the limit.
        ("open parentheses", vec![b'('; 3_000_000]),
        // 50 MB of zero bytes, as from /dev/zero.
        ("zero bytes", vec![0u8; 50_000_000]),
        // One line of 20 MB.
        ("a long line", b"1. e4 ".repeat(3_500_000)),
    ];
    for (what, input) in cases {
        let r = check_stdin(&["check", "--json", "-"], &input);
        assert_eq!(r.code, Some(1), "{what}: {}", r.stderr);
        let games = json_lines(&r.stdout);
        assert_eq!(games.len(), 1, "{what}");
        let errors = games[0]["errors"].as_array().expect("errors");
        assert_eq!(errors.len(), 1, "{what}");
        assert!(
            errors[0]["message"]
                .as_str()
                .expect("message")
                .starts_with("the game is longer than 1 MiB"),
            "{what}: {errors:?}"
        );
        assert!(r.stdout.len() < 1000, "{what}: {} bytes", r.stdout.len());
    }
}

#[test]
fn repeated_problems_are_counted_not_repeated() {
    // Half a megabyte of "(" fits in one game: one error with the count of the others.
    let mut input = b"[Event \"x\"]\n1. e4 ".to_vec();
    input.extend(std::iter::repeat_n(b'(', 500_000));
    input.extend_from_slice(b"\n} } } e5 *\n");
    let r = check_stdin(&["check", "-"], &input);
    assert_eq!(r.code, Some(1));
    assert!(
        r.stdout.contains(
            "error on line 3: unexpected } in the moves (and 2 more times in this game); \
             error on line 2: a variation opened with ( is not closed \
             (and 499999 more times in this game)"
        ),
        "{}",
        r.stdout
    );
    assert!(r.stdout.len() < 1000, "{} bytes", r.stdout.len());
}

#[test]
fn bad_tokens_are_shown_short_and_escaped() {
    let mut input = b"[Event \"x\"]\n[White \"Evil\x1b[2J\"]\n[Black \"\xff\"]\n1. e4 N".to_vec();
    input.extend(std::iter::repeat_n(b'b', 100_000));
    input.extend_from_slice(b"\x07 *\n");
    let r = check_stdin(&["check", "-"], &input);
    assert_eq!(r.code, Some(1));
    let expected_san = format!("N{}…", "b".repeat(39));
    assert!(
        r.stdout.starts_with(&format!(
            "Game 1, Evil\\x1b[2J against ÿ (line 1): 1 ply; illegal move at ply 2, 1... \
             {expected_san} on line 4:"
        )),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.bytes().any(|b| b < 0x20 && b != b'\n'));
    let r = check_stdin(&["check", "--json", "-"], &input);
    let games = json_lines(&r.stdout);
    assert_eq!(games[0]["illegal"]["san"], expected_san.as_str());
}

#[test]
fn compressed_files_and_standard_input_give_the_plain_report() {
    use std::io::Write as _;
    let text = sample(300, 7);
    let dir = Scratch::new("compressed");
    let plain = dir.write("games.pgn", text.as_bytes());
    let expected = run(&["check", "--json", &plain]);
    assert_eq!(expected.code, Some(0), "{}", expected.stderr);
    assert_eq!(json_lines(&expected.stdout).len(), 300);

    let zst = zstd::stream::encode_all(text.as_bytes(), 3).expect("zstd");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(text.as_bytes()).expect("gzip");
    let gz = gz.finish().expect("gzip");
    let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    bz.write_all(text.as_bytes()).expect("bzip2");
    let bz = bz.finish().expect("bzip2");
    for (name, bytes) in [
        ("games.pgn.zst", &zst),
        ("games.pgn.gz", &gz),
        ("games.pgn.bz2", &bz),
    ] {
        // By its name, by its first bytes alone, and on standard input.
        let named = dir.write(name, bytes);
        let unnamed = dir.write(&format!("{name}.data"), bytes);
        for args in [
            vec!["check", "--json", named.as_str()],
            vec!["check", "--json", unnamed.as_str()],
        ] {
            let r = run(&args);
            assert_eq!(r.code, Some(0), "{args:?}: {}", r.stderr);
            assert_eq!(r.stdout, expected.stdout, "{args:?}");
        }
        let r = check_stdin(&["check", "--json", "-"], bytes);
        assert_eq!(r.code, Some(0), "{name} on stdin: {}", r.stderr);
        assert_eq!(r.stdout, expected.stdout, "{name} on stdin");
    }
    // Plain text on standard input, too.
    let r = check_stdin(&["check", "--json", "-"], text.as_bytes());
    assert_eq!(r.stdout, expected.stdout);
    assert_eq!(
        r.stderr, "",
        "no progress line when standard error is not a terminal"
    );

    // A name that promises compression the data does not have.
    let liar = dir.write("games.pgn.gz", text.as_bytes());
    let r = run(&["check", &liar]);
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr
            .contains("is named like gzip data but holds uncompressed data"),
        "{}",
        r.stderr
    );
    // Damaged compressed data: the games before the damage are reported, then the error.
    let mut damaged = gz.clone();
    let cut = damaged.len() / 2;
    damaged.truncate(cut);
    let damaged = dir.write("damaged.pgn.gz", &damaged);
    let r = run(&["check", "--json", &damaged]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("cannot read"), "{}", r.stderr);
    let before = json_lines(&r.stdout);
    assert!(
        !before.is_empty() && before.len() < 300,
        "{} games before the damage",
        before.len()
    );
}

#[test]
fn any_number_of_jobs_gives_the_same_output() {
    let mut text = sample(3000, 11);
    // Faulty records among them, so that errors and blank stretches are in the mix.
    let faulty = std::fs::read_to_string(data("faulty.pgn")).expect("faulty.pgn");
    text.insert_str(text.len() / 2, &format!("\n{faulty}\n% escape\n"));
    text.push_str(&faulty);
    let dir = Scratch::new("jobs");
    let file = dir.write("games.pgn", text.as_bytes());
    for args in [
        vec!["check", "--json", file.as_str()],
        vec!["check", file.as_str()],
        vec!["transcript", "--format", "tsv", file.as_str()],
        vec!["transcript", "--lang", "en", file.as_str()],
    ] {
        let mut one = args.clone();
        one.extend(["--jobs", "1"]);
        let sequential = run_with(&one, b"", &[], LIMIT);
        assert!(sequential.stdout.lines().count() > 3000, "{args:?}");
        for jobs in ["2", "5"] {
            let mut many = args.clone();
            many.extend(["--jobs", jobs]);
            let parallel = run_with(&many, b"", &[], LIMIT);
            assert_eq!(parallel.code, sequential.code, "{many:?}");
            assert!(
                parallel.stdout == sequential.stdout,
                "{many:?}: output differs"
            );
            assert_eq!(parallel.stderr, sequential.stderr, "{many:?}");
        }
    }
}

/// On a terminal a progress line comes on standard error once a second has passed; `--quiet`
/// leaves it out. The games come from the terminal itself, in two parts 1.5 s apart.
#[test]
fn a_progress_line_on_a_terminal_unless_quiet() {
    let games = sample(700, 3);
    let half = games.len() / 2;
    let cut = games[half..]
        .find("\n[Event")
        .map_or(half, |i| half + i + 1);
    for quiet in [false, true] {
        let mut args = vec!["check", "--jobs", "2", "-"];
        if quiet {
            args.push("--quiet");
        }
        let mut pty = common::pty::Pty::spawn(&args, &[]);
        pty.send(&games.as_bytes()[..cut]);
        std::thread::sleep(std::time::Duration::from_millis(1500));
        pty.send(&games.as_bytes()[cut..]);
        pty.send(b"\n\x04");
        assert!(
            pty.wait_for("700 games checked", LIMIT).is_some(),
            "{}",
            pty.all_output()
        );
        let shown = pty.all_output().contains(" MB read, ");
        assert_eq!(shown, !quiet, "quiet {quiet}");
        assert_eq!(pty.wait_exit(LIMIT), Some(0));
    }
}
