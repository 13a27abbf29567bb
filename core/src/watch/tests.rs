use super::*;
use crate::machine::Common;
use crate::matchplay::question::Question;
use crate::testkit::words::{de, t};

fn said(effects: &[Effect]) -> String {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Common(Common::Say { lines, .. }) => Some(lines.join(" / ")),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

fn round(choice: Choice, all: bool) -> Watch {
    Watch::new(
        WatchOptions {
            source: Source::Round,
            choice,
            all_boards: all,
            form: Form::Short,
        },
        de(),
    )
}

/// Feeds a PGN text line by line.
fn pgn(w: &mut Watch, text: &str, now: Timestamp) -> Vec<Effect> {
    text.lines()
        .flat_map(|l| w.handle(Event::Stream(l.to_string()), now))
        .collect()
}

fn game(white: &str, black: &str, moves: &str, result: &str) -> String {
    format!(
        "[Event \"Open\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n[GameURL \"https://lichess.org/broadcast/-/-/r/{white}\"]\n\n{moves} {result}\n\n"
    )
}

#[test]
fn the_first_board_is_followed_and_each_new_move_is_said() {
    let mut w = round(Choice::First, false);
    let first = pgn(
        &mut w,
        &game(
            "Anna",
            "Bert",
            "1. e4 { [%clk 1:30:00] } e5 { [%clk 1:29:50] }",
            "*",
        ),
        t(0),
    );
    assert_eq!(
        said(&first),
        "Sie verfolgen Brett 1, Anna gegen Bert. Zuletzt: Zug 1, Schwarz: Eva fünf. Weiß ist am Zug"
    );
    let other = pgn(&mut w, &game("Carl", "Dora", "1. d4", "*"), t(10));
    assert_eq!(said(&other), "", "another board is not followed");
    let next = pgn(
        &mut w,
        &game("Anna", "Bert", "1. e4 e5 2. Nf3 { [%clk 1:29:00] }", "*"),
        t(20),
    );
    assert_eq!(said(&next), "Weiß: Springer Felix drei");
    // The same PGN again brings nothing new.
    assert_eq!(
        said(&pgn(
            &mut w,
            &game("Anna", "Bert", "1. e4 e5 2. Nf3", "*"),
            t(30)
        )),
        ""
    );
    // Questions are answered for the board followed; the clock as the stream told it.
    let last = w.handle(Event::Line("letzter".into()), t(40));
    assert!(
        said(&last).contains("Springer Felix drei"),
        "{}",
        said(&last)
    );
    let clock = w.handle(Event::Line("uhr".into()), t(40));
    assert!(
        said(&clock).contains("Weiß 1 Stunde 29 Minuten"),
        "{}",
        said(&clock)
    );
    assert!(
        said(&clock).contains("Schwarz 1 Stunde 29 Minuten"),
        "{}",
        said(&clock)
    );
    // No move can be typed.
    let typed = w.handle(Event::Line("Sc6".into()), t(50));
    assert!(
        said(&typed).starts_with("Hier wird nur zugesehen"),
        "{}",
        said(&typed)
    );
    assert!(typed.contains(&Effect::Common(Common::Refused)));
    let resign = w.handle(Event::Line("aufgeben".into()), t(50));
    assert!(said(&resign).starts_with("Hier wird nur zugesehen"));
    // The result is said.
    let end = pgn(
        &mut w,
        &game("Anna", "Bert", "1. e4 e5 2. Nf3", "1-0"),
        t(60),
    );
    assert_eq!(said(&end), "Brett 1, Anna gegen Bert: Anna gewinnt, 1 zu 0");
}

#[test]
fn a_board_is_chosen_by_name_or_number_and_switched_and_all_boards_are_named() {
    let mut w = round(Choice::Name("dora".into()), true);
    assert_eq!(
        said(&pgn(&mut w, &game("Anna", "Bert", "1. e4", "*"), t(0))),
        ""
    );
    let chosen = pgn(&mut w, &game("Carl", "Dora", "1. d4", "*"), t(1));
    assert!(
        said(&chosen).starts_with("Sie verfolgen Brett 2, Carl gegen Dora"),
        "{}",
        said(&chosen)
    );
    let elsewhere = pgn(&mut w, &game("Anna", "Bert", "1. e4 c5", "*"), t(10_000));
    assert_eq!(said(&elsewhere), "Brett 1: Cäsar fünf");
    let here = pgn(&mut w, &game("Carl", "Dora", "1. d4 d5", "*"), t(10_001));
    assert_eq!(said(&here), "Schwarz: David fünf");
    let list = w.handle(Event::Line("bretter".into()), t(10_002));
    assert_eq!(
        said(&list),
        "Brett 1, Anna gegen Bert. Brett 2, Carl gegen Dora, verfolgt"
    );
    let switched = w.handle(Event::Line("folgen 1".into()), t(10_003));
    assert!(
        said(&switched).starts_with("Sie verfolgen Brett 1, Anna gegen Bert"),
        "{}",
        said(&switched)
    );
    let nothing = w.handle(Event::Line("folgen Zoe".into()), t(10_004));
    assert!(said(&nothing).starts_with("Kein solches Brett: Zoe"));
}

#[test]
fn an_unmatched_choice_is_said_once_the_round_has_come() {
    let mut w = round(Choice::Number(5), false);
    pgn(&mut w, &game("Anna", "Bert", "1. e4", "*"), t(0));
    assert_eq!(w.next_deadline(t(0)), Some(t(3000)));
    let told = w.handle(Event::Tick, t(3000));
    assert!(
        said(&told).starts_with("Kein Brett passt zu 5"),
        "{}",
        said(&told)
    );
    assert_eq!(w.next_deadline(t(3000)), None);
}

#[test]
fn a_broken_pgn_is_said_and_skipped_and_a_correction_is_taken_back() {
    let mut w = round(Choice::First, false);
    pgn(&mut w, &game("Anna", "Bert", "1. e4 e5 2. Nf3", "*"), t(0));
    let broken = pgn(&mut w, &game("Anna", "Bert", "1. e4 e5 2. Ke3", "*"), t(1));
    assert!(
        said(&broken).starts_with("Eine Partie der Übertragung war unlesbar"),
        "{}",
        said(&broken)
    );
    assert_eq!(w.followed().map(|m| m.game().ply()), Some(3));
    let fixed = pgn(&mut w, &game("Anna", "Bert", "1. e4 e5 2. Nc3", "*"), t(2));
    assert_eq!(
        said(&fixed),
        "Brett 1, Anna gegen Bert: berichtigt, 1 Halbzüge zurückgenommen | Weiß: Springer Cäsar drei"
    );
    // The keep-alive space is nothing.
    assert!(w.handle(Event::Stream(" ".into()), t(3)).is_empty());
}

#[test]
fn a_dropped_stream_is_said_once_and_its_return_once() {
    let mut w = round(Choice::First, false);
    let a = w.handle(Event::Dropped, t(0));
    let b = w.handle(Event::Dropped, t(1));
    assert_eq!(
        said(&a),
        "Verbindung zu lichess unterbrochen. Ich verbinde neu"
    );
    assert!(b.is_empty());
    assert_eq!(
        said(&w.handle(Event::Restored, t(2))),
        "Verbindung wieder da"
    );
    assert!(w.handle(Event::Restored, t(3)).is_empty());
}

#[test]
fn a_game_stream_says_each_move_and_the_end() {
    let mut w = Watch::new(
        WatchOptions {
            source: Source::Game,
            choice: Choice::First,
            all_boards: false,
            form: Form::Short,
        },
        de(),
    );
    let first = r#"{"id":"g1","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","status":{"name":"started"},"players":{"white":{"user":{"name":"Anna"}},"black":{"user":{"name":"Bert"}}}}"#;
    let start = w.handle(Event::Stream(first.into()), t(0));
    assert_eq!(
        said(&start),
        "Sie verfolgen Anna gegen Bert. Weiß ist am Zug"
    );
    let mv = r#"{"fen":"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b","lm":"e2e4","wc":170,"bc":180}"#;
    assert_eq!(
        said(&w.handle(Event::Stream(mv.into()), t(1))),
        "Weiß: Eva vier"
    );
    // The same line again (after a reconnection) is nothing.
    assert_eq!(said(&w.handle(Event::Stream(mv.into()), t(2))), "");
    let clock = w.handle(Event::Line("uhr".into()), t(3));
    assert!(
        said(&clock).contains("Weiß 2 Minuten 50 Sekunden"),
        "{}",
        said(&clock)
    );
    let bad = w.handle(Event::Stream("{oops".into()), t(4));
    assert!(
        said(&bad).starts_with("Eine Partie der Übertragung war unlesbar"),
        "{}",
        said(&bad)
    );
    let end = r#"{"id":"g1","fen":"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1","status":{"name":"resign"},"winner":"white","players":{"white":{"user":{"name":"Anna"}},"black":{"user":{"name":"Bert"}}}}"#;
    assert_eq!(
        said(&w.handle(Event::Stream(end.into()), t(5))),
        "Anna gegen Bert: Anna gewinnt, 1 zu 0"
    );
    assert!(!w.is_over());
    // The finished game's stream closes: the watch is over, said once.
    assert_eq!(
        said(&w.handle(Event::Dropped, t(6))),
        "Die Übertragung ist zu Ende"
    );
    assert!(w.is_over());
    assert!(w.handle(Event::Dropped, t(7)).is_empty());
    assert!(w.handle(Event::Restored, t(8)).is_empty());
}

/// A game's stream (and TV's) that closes while the game runs is a break like any other:
/// said, made again, said back, and the game goes on.
#[test]
fn a_running_games_stream_that_closes_is_made_again() {
    for (first, mv) in [
        (
            r#"{"id":"g1","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","status":{"name":"started"},"players":{"white":{"user":{"name":"Anna"}},"black":{"user":{"name":"Bert"}}}}"#,
            r#"{"fen":"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b","lm":"e2e4","wc":170,"bc":180}"#,
        ),
        (
            r#"{"t":"featured","d":{"id":"g1","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","players":[{"color":"white","user":{"name":"Anna"}},{"color":"black","user":{"name":"Bert"}}]}}"#,
            r#"{"t":"fen","d":{"fen":"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b","lm":"e2e4","wc":170,"bc":180}}"#,
        ),
    ] {
        let mut w = Watch::new(
            WatchOptions {
                source: Source::Game,
                choice: Choice::First,
                all_boards: false,
                form: Form::Short,
            },
            de(),
        );
        let _ = w.handle(Event::Stream(first.into()), t(0));
        assert_eq!(
            said(&w.handle(Event::Dropped, t(1))),
            "Verbindung zu lichess unterbrochen. Ich verbinde neu"
        );
        assert!(!w.is_over());
        assert_eq!(
            said(&w.handle(Event::Restored, t(2))),
            "Verbindung wieder da"
        );
        assert_eq!(
            said(&w.handle(Event::Stream(mv.into()), t(3))),
            "Weiß: Eva vier"
        );
    }
}

/// Random sequences of stream lines, connection news, typed lines and keys, for a round and
/// for one game: nothing panics, and nothing the player types or presses, nor time passing,
/// changes a board or the number of boards (only the stream does).
#[test]
fn random_sequences_never_panic_and_only_the_stream_moves_a_board() {
    use crate::testkit::games::Rng;
    let round_text = format!(
        "{}{}",
        game(
            "Anna",
            "Bert",
            "1. e4 e5 2. Nf3 { [%clk 1:30:00] } Nc6",
            "*"
        ),
        game("Carl", "Dora", "1. d4 d5 2. c4", "*")
    );
    let stream: Vec<String> = round_text
        .lines()
        .map(str::to_string)
        .chain(
            [
                " ",
                "",
                "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
                "1. e4 e4",
                "[White \"Erik",
                "{ [%clk 0:01:00]",
                "*",
                "1/2-1/2",
                "{\"id\":\"abc\",\"fen\":\"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\",\"lm\":\"e2e4\",\"wc\":60,\"bc\":60}",
                "{\"fen\":\"broken\"}",
                "\u{0}\u{7f}",
            ]
            .map(str::to_string),
        )
        .collect();
    let typed = [
        "brett",
        "letzter",
        "uhr",
        "stellung 1",
        "stellung 99",
        "folgen 2",
        "folgen Dora",
        "folgen 0",
        "folgen",
        "bretter",
        "züge",
        "liste",
        "e4",
        "Springer Felix drei",
        "aufgeben",
        "remis",
        "zurück",
        "hilfe",
        "",
        "?!",
        "ende",
    ];
    let commands = [
        Command::Ask(Question::Last),
        Command::Ask(Question::Board),
        Command::Clock,
        Command::Help,
    ];
    for seed in 1..=150u64 {
        let mut rng = Rng::new(seed);
        let mut w = if seed % 3 == 0 {
            Watch::new(
                WatchOptions {
                    source: Source::Game,
                    choice: Choice::First,
                    all_boards: false,
                    form: Form::Short,
                },
                de(),
            )
        } else {
            round(Choice::First, seed % 2 == 0)
        };
        for step in 0..80u64 {
            let now = t(step * 700);
            let event = match rng.below(10) {
                0..=4 => Event::Stream(stream[rng.below(stream.len())].clone()),
                5 | 6 => Event::Line(typed[rng.below(typed.len())].to_string()),
                7 => Event::Command(commands[rng.below(commands.len())].clone()),
                8 => Event::Tick,
                _ => match rng.below(6) {
                    0 => Event::Dropped,
                    1 => Event::Restored,
                    2 => Event::TooLong,
                    3 => Event::Waiting(Duration::from_secs(60)),
                    4 => Event::Connected,
                    _ => Event::Ended(None),
                },
            };
            let from_player = matches!(event, Event::Line(_) | Event::Command(_) | Event::Tick);
            let state = |w: &Watch| {
                (
                    w.board_count(),
                    w.followed_name(),
                    w.followed().map(|m| m.game().moves().len()),
                )
            };
            let before = state(&w);
            let _ = w.handle(event, now);
            if from_player {
                let after = state(&w);
                assert_eq!(after.0, before.0, "seed {seed}, step {step}");
                // "folgen" may choose another board, whose moves are its own.
                if after.1 == before.1 {
                    assert_eq!(after.2, before.2, "seed {seed}, step {step}");
                }
            }
        }
    }
}

fn game_watch() -> Watch {
    Watch::new(
        WatchOptions {
            source: Source::Game,
            choice: Choice::First,
            all_boards: false,
            form: Form::Short,
        },
        de(),
    )
}

/// The positions of `moves` (UCI) from the start, as the game stream sends them: placement
/// and side to move.
fn positions(moves: &[&str]) -> Vec<String> {
    let mut pos = Chess::default();
    let mut out = vec![format!("{} w", pos.board())];
    for m in moves {
        let mv = UciMove::from_ascii(m.as_bytes())
            .expect("uci")
            .to_move(&pos)
            .expect("legal");
        pos.play_unchecked(mv);
        out.push(format!(
            "{} {}",
            pos.board(),
            if pos.turn() == Color::White { "w" } else { "b" }
        ));
    }
    out
}

/// A connection of lichess's game stream: the description of the game after `moves`, the
/// start position without a move, then every position with its move (lila's ApiMoveStream).
fn connection(moves: &[&str], status: &str) -> Vec<String> {
    let fens = positions(moves);
    let mut lines = vec![format!(
        r#"{{"id":"LuGQwhBb","variant":{{"key":"standard"}},"initialFen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","fen":"{} - - 0 1","turns":{},"startedAtTurn":0,"status":{{"name":"{status}"}},"winner":"white","players":{{"white":{{"user":{{"name":"Anna"}}}},"black":{{"user":{{"name":"Bert"}}}}}}}}"#,
        fens[fens.len() - 1],
        moves.len()
    )];
    lines.push(format!(r#"{{"fen":"{}","wc":180,"bc":180}}"#, fens[0]));
    for (m, fen) in moves.iter().zip(&fens[1..]) {
        lines.push(format!(r#"{{"fen":"{fen}","lm":"{m}","wc":170,"bc":175}}"#));
    }
    lines
}

fn feed_lines(w: &mut Watch, lines: &[String], now: Timestamp) -> Vec<Effect> {
    let mut out = w.handle(Event::Connected, now);
    for l in lines {
        out.extend(w.handle(Event::Stream(l.clone()), now));
    }
    out
}

#[test]
fn a_game_streams_first_line_and_replay_are_read_as_lichess_sends_them() {
    let mut w = game_watch();
    let moves = ["e2e4", "e7e5", "g1f3"];
    let first = feed_lines(&mut w, &connection(&moves, "started"), t(0));
    assert_eq!(
        said(&first),
        "Sie verfolgen Anna gegen Bert. Zuletzt: Zug 2, Weiß: Springer Felix drei. Schwarz ist am Zug"
    );
    // A live move, then lines lichess pushes out at the end: empty objects.
    let fens = positions(&["e2e4", "e7e5", "g1f3", "b8c6"]);
    let live = format!(r#"{{"fen":"{}","lm":"b8c6","wc":160,"bc":170}}"#, fens[4]);
    assert_eq!(
        said(&w.handle(Event::Stream(live), t(1))),
        "Schwarz: Springer Cäsar sechs"
    );
    assert_eq!(said(&w.handle(Event::Stream("{}".into()), t(2))), "");
    // A new connection replays the whole game again: only the move it missed is said.
    let again = feed_lines(
        &mut w,
        &connection(&["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"], "started"),
        t(3),
    );
    assert_eq!(said(&again), "Weiß: Läufer Bella fünf");
    assert_eq!(w.followed().map(|m| m.game().moves().len()), Some(5));
    // A finished game's stream: its description, the replay, the description again.
    let mut done = game_watch();
    let mut lines = connection(&moves, "resign");
    lines.push(lines[0].clone());
    lines.push("{}".into());
    let ended = feed_lines(&mut done, &lines, t(0));
    let text = said(&ended);
    assert!(
        text.starts_with(
            "Sie verfolgen Anna gegen Bert. Zuletzt: Zug 2, Weiß: Springer Felix drei"
        ),
        "{text}"
    );
    assert!(
        !text.contains("unlesbar") && !text.contains("verpasst"),
        "{text}"
    );
}

#[test]
fn a_round_keeps_at_most_its_boards_and_says_the_rest_once() {
    let mut w = round(Choice::First, true);
    let mut said_new = 0;
    let mut too_many = 0;
    for n in 0..(MAX_BOARDS + 50) {
        let effects = pgn(
            &mut w,
            &game(&format!("W{n}"), "B", "1. e4", "*"),
            t(n as u64 * 4000),
        );
        let text = said(&effects);
        said_new += text.matches("Neues Brett").count();
        too_many += text.matches("mehr als 100 Bretter").count();
    }
    assert_eq!(w.board_count(), MAX_BOARDS);
    assert_eq!(too_many, 1);
    assert!(said_new < MAX_BOARDS, "{said_new}");
}

#[test]
fn a_clock_no_duration_can_hold_is_no_clock() {
    for value in [
        "1e30",
        "99999999999999999999",
        "inf",
        "NaN",
        "-5",
        "1e308:00",
    ] {
        let mut w = round(Choice::First, false);
        let text = game("Anna", "Bert", &format!("1. e4 {{ [%clk {value}] }}"), "*");
        let _ = pgn(&mut w, &text, t(0));
        let clock = w.handle(Event::Line("uhr".into()), t(1));
        assert_eq!(
            said(&clock),
            "Für dieses Brett ist keine Bedenkzeit gemeldet",
            "{value}"
        );
    }
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    /// Text a server might send where a name, a clock or a FEN belongs.
    fn any_text() -> impl Strategy<Value = String> {
        prop_oneof![
            ".{0,40}",
            "[0-9:.eE+-]{0,30}",
            Just("x".repeat(5000)),
            Just("1e30".to_string()),
            Just("99999999999999999999".to_string()),
        ]
    }

    /// A FEN, usable or not.
    fn any_fen() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_string()),
            Just("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b".to_string()),
            any_text(),
        ]
    }

    fn json_text(s: &str) -> String {
        serde_json::Value::String(s.to_string()).to_string()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn the_round_reader_takes_any_clock_name_and_fen(
            clk in any_text(),
            white in any_text(),
            black in any_text(),
            fen in proptest::option::of(any_text()),
        ) {
            let mut w = round(Choice::First, true);
            // Without a FEN most games are read, so that their clocks are.
            let set_up = fen.map_or(String::new(), |f| {
                format!("[FEN \"{}\"]\n[SetUp \"1\"]\n", f.replace(['"', '\n'], ""))
            });
            let text = format!(
                "[White \"{}\"]\n[Black \"{}\"]\n{set_up}\n1. e4 {{ [%clk {}] }} e5 {{ [%clk {}] }} *\n\n",
                white.replace(['"', '\n'], ""),
                black.replace(['"', '\n'], ""),
                clk.replace(['}', '\n'], ""),
                clk.replace(['}', '\n', ']'], ""),
            );
            let mut out = pgn(&mut w, &text, t(0));
            out.extend(w.handle(Event::Line("uhr".into()), t(5)));
            out.extend(w.handle(Event::Line("bretter".into()), t(6)));
            for e in &out {
                if let Effect::Common(Common::Say { lines, .. }) = e {
                    for l in lines {
                        prop_assert!(l.chars().count() < 1500, "{} characters said", l.len());
                    }
                }
            }
        }

        #[test]
        fn the_feed_reader_takes_any_clock_name_and_fen(
            fen in any_fen(),
            lm in any_text(),
            name in any_text(),
            wc in prop_oneof![any::<f64>().prop_map(|f| f.to_string()), any_text().prop_map(|t| json_text(&t))],
            turns in any::<u64>(),
        ) {
            let mut w = game_watch();
            let lines = [
                format!(r#"{{"id":"g","fen":{},"turns":{turns},"players":{{"white":{{"user":{{"name":{}}}}},"black":{{"seconds":{wc}}}}}}}"#, json_text(&fen), json_text(&name)),
                format!(r#"{{"fen":{},"wc":{wc},"bc":{wc}}}"#, json_text(&fen)),
                format!(r#"{{"fen":{},"lm":{},"wc":{wc},"bc":1}}"#, json_text(&fen), json_text(&lm)),
                format!(r#"{{"t":"featured","d":{{"id":"g","fen":{},"players":[{{"color":"white","user":{{"name":{}}},"seconds":{wc}}}]}}}}"#, json_text(&fen), json_text(&name)),
                format!(r#"{{"t":"fen","d":{{"fen":{},"lm":{},"wc":{wc}}}}}"#, json_text(&fen), json_text(&lm)),
            ];
            let mut out = w.handle(Event::Connected, t(0));
            for l in &lines {
                out.extend(w.handle(Event::Stream(l.clone()), t(1)));
            }
            out.extend(w.handle(Event::Line("uhr".into()), t(2)));
            for e in &out {
                if let Effect::Common(Common::Say { lines, .. }) = e {
                    for l in lines {
                        prop_assert!(l.chars().count() < 1500, "{} characters said", l.len());
                    }
                }
            }
            if let Some(name) = w.followed_name() {
                prop_assert!(name.chars().count() < 400, "{name}");
            }
        }
    }
}

/// Every command word the watch's help names, typed as the help names it (with its example),
/// is taken in every language once a board is followed: nothing is refused.
#[test]
fn every_word_the_help_names_is_taken_in_every_language() {
    use crate::matchplay::help::command_words;
    use crate::notation::language::languages;
    for lang in languages() {
        let template = &lang.watch.help;
        let named: Vec<(&str, &str)> = command_words(lang)
            .into_iter()
            .filter(|(key, _)| template.contains(&format!("{{{key}}}")))
            .collect();
        assert!(named.len() >= 5, "{}: {named:?}", lang.code);
        for (key, word) in named {
            let typed = match key {
                "follow" => format!("{word} 1"),
                "position" => format!("{word} 1"),
                _ => word.to_string(),
            };
            let mut w = Watch::new(
                WatchOptions {
                    source: Source::Round,
                    choice: Choice::First,
                    all_boards: false,
                    form: Form::Short,
                },
                lang,
            );
            pgn(&mut w, &game("Anna", "Bert", "1. e4 e5", "*"), t(0));
            let effects = w.handle(Event::Line(typed.clone()), t(1));
            assert!(
                !effects.is_empty() && !effects.contains(&Effect::Common(Common::Refused)),
                "{}: {typed:?} refused: {effects:?}",
                lang.code
            );
        }
    }
}

/// A result is said in words in every language, never as "1-0" (which a synthesizer may
/// read as "one minus nought").
#[test]
fn results_are_said_in_words_in_every_language() {
    for (code, white, black) in [
        ("de", "Anna gewinnt, 1 zu 0", "Bert gewinnt, 0 zu 1"),
        ("en", "Anna wins, 1 to 0", "Bert wins, 0 to 1"),
        ("es", "gana Anna, 1 a 0", "gana Bert, 0 a 1"),
        ("fr", "Anna gagne, 1 à 0", "Bert gagne, 0 à 1"),
        ("nl", "Anna wint, 1 tegen 0", "Bert wint, 0 tegen 1"),
    ] {
        let lang = crate::notation::language::language(code).unwrap();
        for (result, expected) in [("1-0", white), ("0-1", black)] {
            let mut w = Watch::new(
                WatchOptions {
                    source: Source::Round,
                    choice: Choice::First,
                    all_boards: false,
                    form: Form::Short,
                },
                lang,
            );
            pgn(&mut w, &game("Anna", "Bert", "1. e4 e5", "*"), t(0));
            let end = said(&pgn(
                &mut w,
                &game("Anna", "Bert", "1. e4 e5", result),
                t(10),
            ));
            assert!(end.ends_with(expected), "{code}: {end}");
            assert!(!end.contains(result), "{code}: {end}");
        }
    }
}

fn low_clock_cues(effects: &[Effect]) -> usize {
    effects
        .iter()
        .filter(|e| **e == Effect::Common(Common::Cue(vec![crate::cue::Cue::LowClock])))
        .count()
}

/// The board followed: each side's low-clock sound once, when its time as the stream told
/// it, run on while it is to move, falls under the threshold; not for a time that was
/// already under it, not again, not for a board not followed; and the watch wakes for it.
#[test]
fn the_followed_boards_low_clock_sounds_once_for_each_side() {
    let mut w = round(Choice::First, false).with_low_clock(Some(Duration::from_secs(30)));
    // White has a minute and is to move; Black is already under, which is no news.
    let first = pgn(
        &mut w,
        &game(
            "Anna",
            "Bert",
            "1. e4 { [%clk 0:01:00] } e5 { [%clk 0:00:20] }",
            "*",
        ),
        t(0),
    );
    assert_eq!(low_clock_cues(&first), 0);
    // Another board falling under is not followed.
    let other = pgn(
        &mut w,
        &game("Carl", "Dora", "1. d4 { [%clk 0:00:10] }", "*"),
        t(1000),
    );
    assert_eq!(low_clock_cues(&other), 0);
    // White's time runs on: the watch wakes just after it reaches 30 s.
    let due = w.next_deadline(t(1000)).expect("a wake for the low clock");
    assert_eq!(due, t(30_001));
    assert_eq!(low_clock_cues(&w.handle(Event::Tick, t(29_000))), 0);
    assert_eq!(low_clock_cues(&w.handle(Event::Tick, due)), 1);
    assert_eq!(low_clock_cues(&w.handle(Event::Tick, t(40_000))), 0);
    assert_eq!(w.next_deadline(t(40_000)), None);
    // A move with White still under: no sound again.
    let moved = pgn(
        &mut w,
        &game(
            "Anna",
            "Bert",
            "1. e4 { [%clk 0:01:00] } e5 { [%clk 0:00:20] } 2. Nf3 { [%clk 0:00:15] }",
            "*",
        ),
        t(41_000),
    );
    assert_eq!(low_clock_cues(&moved), 0);
    // Without a threshold, nothing.
    let mut quiet = round(Choice::First, false).with_low_clock(None);
    pgn(
        &mut quiet,
        &game(
            "Anna",
            "Bert",
            "1. e4 { [%clk 0:01:00] } e5 { [%clk 0:00:40] }",
            "*",
        ),
        t(0),
    );
    assert_eq!(low_clock_cues(&quiet.handle(Event::Tick, t(60_000))), 0);
}
