//! The UCI protocol as text, without I/O: what an engine writes, parsed into [`EngineLine`]s,
//! and the commands hector writes, built from shakmaty types.
//!
//! Everything an engine writes is outside input: parsers accept any text and never panic.

use std::time::Duration;

use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position, fen::Fen, uci::UciMove};

/// One line from an engine, as far as hector cares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum EngineLine {
    IdName(String),
    Option(UciOption),
    UciOk,
    ReadyOk,
    BestMove {
        answer: Answer,
        ponder: Option<UciMove>,
    },
    Info(Info),
    /// `id author`, banners, `info string`, empty lines and garbage.
    Other,
}

/// What follows `bestmove`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Answer {
    Move(UciMove),
    /// `(none)`, `0000` or nothing: the engine has no move to give.
    NoMove(String),
    /// Text that is not a move in UCI notation.
    Unreadable(String),
}

/// An `option name … type …` line of the handshake.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UciOption {
    /// The engine's own spelling; UCI compares option names without regard to case.
    pub(crate) name: String,
    /// `spin`, `check`, `combo`, `button` or `string`.
    pub(crate) kind: String,
    pub(crate) default: Option<String>,
    pub(crate) min: Option<i64>,
    pub(crate) max: Option<i64>,
    pub(crate) vars: Vec<String>,
}

impl UciOption {
    pub(crate) fn is(&self, name: &str) -> bool {
        self.name.eq_ignore_ascii_case(name)
    }
}

/// The parts of an `info` line hector uses: the candidate moves of a MultiPV search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Info {
    pub(crate) depth: Option<u32>,
    /// 1 for the best line; engines leave it out when they search one line only.
    pub(crate) multipv: u32,
    pub(crate) score: Option<Score>,
    /// The score is only a bound (`lowerbound`/`upperbound`), not a value.
    pub(crate) bound: bool,
    /// The first move of the principal variation.
    pub(crate) pv: Option<UciMove>,
    /// The moves of the principal variation after the first (at most [`MAX_LINE`]).
    pub(crate) line: Vec<UciMove>,
}

/// How many moves of a principal variation are kept: enough to say a better line.
pub(crate) const MAX_LINE: usize = 12;

/// An engine's score from the point of view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Centipawns(i32),
    /// Mate in so many moves; negative when the side to move is mated.
    Mate(i32),
}

const MATE_VALUE: i32 = 100_000;

impl Score {
    /// One scale for comparing scores: a mate outweighs any material, a nearer mate more so.
    pub(crate) fn value(self) -> i32 {
        match self {
            Score::Centipawns(cp) => cp.clamp(-MATE_VALUE / 2, MATE_VALUE / 2),
            Score::Mate(n) if n > 0 => MATE_VALUE - n.min(1000),
            Score::Mate(n) => -MATE_VALUE + n.unsigned_abs().min(1000) as i32,
        }
    }
}

/// What the engine said about itself during the handshake.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineInfo {
    pub(crate) name: Option<String>,
    pub(crate) options: Vec<UciOption>,
}

impl EngineInfo {
    pub(crate) fn option(&self, name: &str) -> Option<&UciOption> {
        self.options.iter().find(|o| o.is(name))
    }

    /// A `spin` option with its range, if the engine offers one by that name.
    pub fn spin(&self, name: &str) -> Option<(&UciOption, i64, i64)> {
        let o = self.option(name).filter(|o| o.kind == "spin")?;
        let (min, max) = (o.min?, o.max?);
        (min <= max).then_some((o, min, max))
    }

    /// A `check` option, if the engine offers one by that name.
    pub(crate) fn check(&self, name: &str) -> Option<&UciOption> {
        self.option(name).filter(|o| o.kind == "check")
    }

    /// Takes in one handshake line.
    pub(crate) fn absorb(&mut self, line: &EngineLine) {
        match line {
            EngineLine::IdName(name) => self.name = Some(name.clone()),
            EngineLine::Option(o) => self.options.push(o.clone()),
            _ => {}
        }
    }
}

/// Parses one line an engine wrote. Never fails: what hector does not understand is `Other`.
pub(crate) fn parse_line(line: &str) -> EngineLine {
    let mut words = line.split_whitespace();
    match words.next() {
        Some("id") => match words.next() {
            Some("name") => EngineLine::IdName(rest_after(line, 2)),
            _ => EngineLine::Other,
        },
        Some("uciok") => EngineLine::UciOk,
        Some("readyok") => EngineLine::ReadyOk,
        Some("option") => parse_option(words).map_or(EngineLine::Other, EngineLine::Option),
        Some("bestmove") => {
            let answer = match words.next() {
                None => Answer::NoMove(String::new()),
                Some(w) => parse_answer(w),
            };
            let ponder = match (words.next(), words.next()) {
                (Some("ponder"), Some(m)) => UciMove::from_ascii(m.as_bytes())
                    .ok()
                    .filter(|m| *m != UciMove::Null),
                _ => None,
            };
            EngineLine::BestMove { answer, ponder }
        }
        Some("info") => parse_info(words).map_or(EngineLine::Other, EngineLine::Info),
        _ => EngineLine::Other,
    }
}

fn parse_answer(word: &str) -> Answer {
    match word {
        "(none)" | "none" | "0000" | "(null)" | "null" => Answer::NoMove(word.to_string()),
        _ => match UciMove::from_ascii(word.as_bytes()) {
            Ok(UciMove::Null) => Answer::NoMove(word.to_string()),
            Ok(m) => Answer::Move(m),
            Err(_) => Answer::Unreadable(word.to_string()),
        },
    }
}

/// The text of `line` after its first `skip` words, with inner spacing kept.
fn rest_after(line: &str, skip: usize) -> String {
    let mut rest = line.trim_start();
    for _ in 0..skip {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        rest = rest[end..].trim_start();
    }
    rest.trim_end().to_string()
}

fn parse_option<'a>(words: impl Iterator<Item = &'a str>) -> Option<UciOption> {
    const KEYS: [&str; 6] = ["name", "type", "default", "min", "max", "var"];
    let mut option = UciOption::default();
    let mut key: Option<&str> = None;
    let mut value: Vec<&str> = Vec::new();
    let mut seen_name = false;
    let finish = |key: Option<&str>, value: &mut Vec<&str>, option: &mut UciOption| {
        let text = value.join(" ");
        value.clear();
        match key {
            Some("name") => option.name = text,
            Some("type") => option.kind = text.to_ascii_lowercase(),
            Some("default") => option.default = Some(text),
            Some("min") => option.min = text.parse().ok(),
            Some("max") => option.max = text.parse().ok(),
            Some("var") => option.vars.push(text),
            _ => {}
        }
    };
    for w in words {
        // Inside a name every word belongs to the name until `type`: names have spaces
        // ("Skill Level") and could contain other key words.
        let is_key = if key == Some("name") {
            w == "type"
        } else {
            KEYS.contains(&w)
        };
        if is_key {
            finish(key, &mut value, &mut option);
            seen_name |= w == "name";
            key = Some(w);
        } else {
            value.push(w);
        }
    }
    finish(key, &mut value, &mut option);
    (seen_name && !option.name.is_empty() && !option.kind.is_empty()).then_some(option)
}

fn parse_info<'a>(mut words: impl Iterator<Item = &'a str>) -> Option<Info> {
    let mut info = Info {
        multipv: 1,
        ..Info::default()
    };
    while let Some(w) = words.next() {
        match w {
            // The rest is free text for people.
            "string" => return None,
            "depth" => info.depth = words.next().and_then(|n| n.parse().ok()),
            "multipv" => info.multipv = words.next().and_then(|n| n.parse().ok()).unwrap_or(0),
            "score" => {
                info.score = match (words.next(), words.next().map(str::parse::<i32>)) {
                    (Some("cp"), Some(Ok(cp))) => Some(Score::Centipawns(cp)),
                    (Some("mate"), Some(Ok(n))) => Some(Score::Mate(n)),
                    _ => None,
                }
            }
            "lowerbound" | "upperbound" => info.bound = true,
            "pv" => {
                let mut moves = words
                    .map_while(|m| UciMove::from_ascii(m.as_bytes()).ok())
                    .take_while(|m| *m != UciMove::Null)
                    .take(MAX_LINE + 1);
                info.pv = moves.next();
                info.line = moves.collect();
                break;
            }
            // Other keys and their values (nodes, nps, currmove …) do not matter here.
            _ => {}
        }
    }
    Some(info)
}

/// Limits of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchLimits {
    /// The longest the engine may think. Also bounds the watchdog: no `bestmove` within this
    /// time plus a grace period means the engine hangs.
    pub movetime: Duration,
    /// The clocks, when the game has them: the engine may then answer sooner to save time.
    pub clock: Option<ClockTimes>,
}

/// Time left on both clocks and the increments, as UCI's `go wtime … btime … winc … binc …`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockTimes {
    pub wtime: Duration,
    pub btime: Duration,
    pub winc: Duration,
    pub binc: Duration,
}

/// `go …` for the limits, and a depth limit if the level has one. With a clock both times
/// are sent: engines stop at whichever limit comes first. An increment is sent only when it
/// is more than nothing, as the UCI text gives `winc` and `binc` ("if x > 0").
pub(crate) fn go_command(limits: &SearchLimits, depth: Option<u32>) -> String {
    let ms = |d: Duration| d.as_millis();
    let mut go = String::from("go");
    if let Some(c) = limits.clock {
        go.push_str(&format!(" wtime {} btime {}", ms(c.wtime), ms(c.btime)));
        for (name, inc) in [("winc", c.winc), ("binc", c.binc)] {
            if ms(inc) > 0 {
                go.push_str(&format!(" {name} {}", ms(inc)));
            }
        }
    }
    // `movetime 0` would mean "no time" to some engines and "no limit" to others.
    go.push_str(&format!(" movetime {}", ms(limits.movetime).max(1)));
    if let Some(d) = depth {
        go.push_str(&format!(" depth {d}"));
    }
    go
}

/// `position startpos moves …` for a standard game from the usual start, otherwise
/// `position fen <FEN> moves …`. Chess960 FENs use X-FEN castling letters (KQkq where they are
/// unambiguous, else rook files) and castling moves are written king-takes-rook.
pub(crate) fn position_command(start: &Chess, moves: &[Move], mode: CastlingMode) -> String {
    let mut cmd = String::from("position ");
    let usual_start = mode == CastlingMode::Standard
        && *start == Chess::default()
        && start.halfmoves() == 0
        && start.fullmoves().get() == 1;
    if usual_start {
        cmd.push_str("startpos");
    } else {
        cmd.push_str("fen ");
        cmd.push_str(&Fen::from_position(start, EnPassantMode::Legal).to_string());
    }
    if !moves.is_empty() {
        cmd.push_str(" moves");
        for m in moves {
            cmd.push(' ');
            UciMove::from_move(*m, mode).append_to_string(&mut cmd);
        }
    }
    cmd
}

/// Whether a `position` command continues the game of the previous one (the same start and
/// the earlier moves): if not, a new game begins and the engine gets `ucinewgame`.
pub(crate) fn continues(previous: &str, next: &str) -> bool {
    if next == previous {
        return true;
    }
    let prefix = if previous.contains(" moves ") {
        format!("{previous} ")
    } else {
        format!("{previous} moves ")
    };
    next.starts_with(&prefix)
}

/// `setoption name … value …`; buttons have no value.
pub(crate) fn setoption_command(name: &str, value: Option<&str>) -> String {
    match value {
        Some(v) => format!("setoption name {name} value {v}"),
        None => format!("setoption name {name}"),
    }
}

/// Plays `moves` from `start`; the index of the first move that is not legal, if any.
pub(crate) fn replay(start: &Chess, moves: &[Move]) -> Result<Chess, usize> {
    let mut pos = start.clone();
    for (i, m) in moves.iter().enumerate() {
        if !pos.is_legal(*m) {
            return Err(i);
        }
        pos.play_unchecked(*m);
    }
    Ok(pos)
}

/// The engine's answer as a legal move in `pos`, or why it cannot be played.
pub(crate) fn check_answer(pos: &Chess, answer: &Answer) -> Result<Move, Rejection> {
    match answer {
        Answer::Move(uci) => uci.to_move(pos).map_err(|_| Rejection::Illegal),
        Answer::NoMove(_) => Err(Rejection::NoMove),
        Answer::Unreadable(_) => Err(Rejection::Unreadable),
    }
}

/// Why an engine's answer was not played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    #[error("the engine gave no move")]
    NoMove,
    #[error("the engine's answer is not a move")]
    Unreadable,
    #[error("the engine's move is not legal in this position")]
    Illegal,
}

impl Answer {
    /// The answer as the engine wrote it.
    pub(crate) fn text(&self) -> String {
        match self {
            Answer::Move(m) => m.to_string(),
            Answer::NoMove(s) | Answer::Unreadable(s) => s.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::variant::{Variant, chess960_position, position_from_fen};
    use shakmaty::{Square, san::San};

    fn uci(s: &str) -> UciMove {
        s.parse().expect("test move")
    }

    #[test]
    fn id_name_keeps_inner_spaces() {
        assert_eq!(
            parse_line("id name Stockfish 15.1"),
            EngineLine::IdName("Stockfish 15.1".into())
        );
        assert_eq!(
            parse_line("  id   name  Fruit  2.1 \r"),
            EngineLine::IdName("Fruit  2.1".into())
        );
        assert_eq!(parse_line("id author the authors"), EngineLine::Other);
        assert_eq!(parse_line("id name"), EngineLine::IdName(String::new()));
    }

    #[test]
    fn spin_option_with_range() {
        let EngineLine::Option(o) =
            parse_line("option name Skill Level type spin default 20 min 0 max 20")
        else {
            panic!("an option");
        };
        assert_eq!(o.name, "Skill Level");
        assert_eq!(o.kind, "spin");
        assert_eq!(o.default.as_deref(), Some("20"));
        assert_eq!((o.min, o.max), (Some(0), Some(20)));
        assert!(o.is("skill level"));
    }

    #[test]
    fn other_options() {
        let EngineLine::Option(o) = parse_line("option name UCI_Chess960 type check default false")
        else {
            panic!("check");
        };
        assert_eq!(
            (o.kind.as_str(), o.default.as_deref()),
            ("check", Some("false"))
        );
        let EngineLine::Option(o) = parse_line("option name Clear Hash type button") else {
            panic!("button");
        };
        assert_eq!((o.name.as_str(), o.default), ("Clear Hash", None));
        let EngineLine::Option(o) = parse_line(
            "option name Style type combo default Normal var Solid var Normal var Risky",
        ) else {
            panic!("combo");
        };
        assert_eq!(o.vars, ["Solid", "Normal", "Risky"]);
        // A name may hold words that are keys elsewhere.
        let EngineLine::Option(o) =
            parse_line("option name Max Depth min type spin default 0 min -5 max 99")
        else {
            panic!("name with keys");
        };
        assert_eq!(
            (o.name.as_str(), o.min, o.max),
            ("Max Depth min", Some(-5), Some(99))
        );
        let EngineLine::Option(o) = parse_line("option name Debug Log File type string default")
        else {
            panic!("empty default");
        };
        assert_eq!(o.default.as_deref(), Some(""));
        let EngineLine::Option(o) = parse_line("option name Hash type spin default 16 min x max")
        else {
            panic!("bad numbers");
        };
        assert_eq!((o.min, o.max), (None, None));
    }

    #[test]
    fn broken_options_are_other() {
        for line in [
            "option",
            "option name",
            "option name Hash",
            "option type spin name",
            "option type spin",
        ] {
            assert_eq!(parse_line(line), EngineLine::Other, "{line}");
        }
    }

    #[test]
    fn bestmove_with_ponder() {
        assert_eq!(
            parse_line("bestmove e2e4 ponder e7e5"),
            EngineLine::BestMove {
                answer: Answer::Move(uci("e2e4")),
                ponder: Some(uci("e7e5")),
            }
        );
        assert_eq!(
            parse_line("bestmove a7a8q"),
            EngineLine::BestMove {
                answer: Answer::Move(uci("a7a8q")),
                ponder: None,
            }
        );
    }

    #[test]
    fn bestmove_without_a_move() {
        for (line, text) in [
            ("bestmove (none)", "(none)"),
            ("bestmove 0000", "0000"),
            ("bestmove", ""),
        ] {
            assert_eq!(
                parse_line(line),
                EngineLine::BestMove {
                    answer: Answer::NoMove(text.into()),
                    ponder: None,
                },
                "{line}"
            );
        }
        assert_eq!(
            parse_line("bestmove e9e4 ponder zz"),
            EngineLine::BestMove {
                answer: Answer::Unreadable("e9e4".into()),
                ponder: None,
            }
        );
    }

    #[test]
    fn handshake_and_garbage_lines() {
        assert_eq!(parse_line("uciok"), EngineLine::UciOk);
        assert_eq!(parse_line("readyok\r"), EngineLine::ReadyOk);
        for line in [
            "",
            "   ",
            "Stockfish 15.1 by the Stockfish developers",
            "uciokay",
            "\u{0}\u{7f}ÿ garbage",
            "info string NNUE evaluation enabled",
            "bestmovee2e4",
        ] {
            assert_eq!(parse_line(line), EngineLine::Other, "{line:?}");
        }
    }

    #[test]
    fn info_lines() {
        let line = "info depth 12 seldepth 17 multipv 3 score cp -35 nodes 9000 nps 1 \
                    tbhits 0 time 12 pv g1f3 d7d5 c2c4";
        assert_eq!(
            parse_line(line),
            EngineLine::Info(Info {
                depth: Some(12),
                multipv: 3,
                score: Some(Score::Centipawns(-35)),
                bound: false,
                pv: Some(uci("g1f3")),
                line: vec![uci("d7d5"), uci("c2c4")],
            })
        );
        let EngineLine::Info(i) = parse_line("info depth 3 score mate -2 upperbound pv e1e2")
        else {
            panic!("info");
        };
        assert_eq!(
            (i.multipv, i.score, i.bound),
            (1, Some(Score::Mate(-2)), true)
        );
        let EngineLine::Info(i) = parse_line("info currmove e2e4 currmovenumber 1") else {
            panic!("info");
        };
        assert_eq!((i.score, i.pv), (None, None));
        let EngineLine::Info(i) = parse_line("info score cp") else {
            panic!("info");
        };
        assert_eq!(i.score, None);
    }

    #[test]
    fn score_values_order_mates_beyond_material() {
        let order = [
            Score::Mate(-1),
            Score::Mate(-7),
            Score::Centipawns(-900_000),
            Score::Centipawns(-300),
            Score::Centipawns(0),
            Score::Centipawns(500),
            Score::Mate(9),
            Score::Mate(1),
        ];
        for pair in order.windows(2) {
            assert!(pair[0].value() < pair[1].value(), "{pair:?}");
        }
        assert!(Score::Mate(i32::MIN).value() < 0);
        assert!(Score::Mate(i32::MAX).value() > 0);
    }

    #[test]
    fn position_of_a_standard_game() {
        let start = Chess::default();
        assert_eq!(
            position_command(&start, &[], CastlingMode::Standard),
            "position startpos"
        );
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for san in ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O"] {
            let m = san
                .parse::<San>()
                .expect("san")
                .to_move(&pos)
                .expect("legal");
            pos.play_unchecked(m);
            moves.push(m);
        }
        assert_eq!(
            position_command(&start, &moves, CastlingMode::Standard),
            "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1g1"
        );
        // The same moves to an engine in Chess960 mode: castling is king takes rook.
        assert_eq!(
            position_command(&start, &moves, CastlingMode::Chess960),
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 \
             moves e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1h1"
        );
        let later = position_from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 20", Variant::Standard)
            .expect("fen");
        assert_eq!(
            position_command(&later, &[], CastlingMode::Standard),
            "position fen r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 20"
        );
    }

    #[test]
    fn position_of_a_chess960_game() {
        // 746 is RKNNBBQR: the king on b1, the rooks on a1 and h1.
        let start = chess960_position(746).expect("746");
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for u in ["c1b3", "c8b6", "d1e3", "d8e6", "b1a1"] {
            let m = uci(u).to_move(&pos).expect("legal");
            pos.play_unchecked(m);
            moves.push(m);
        }
        assert!(matches!(
            moves[4],
            Move::Castle {
                king: Square::B1,
                rook: Square::A1
            }
        ));
        assert_eq!(
            position_command(&start, &moves, CastlingMode::Chess960),
            "position fen rknnbbqr/pppppppp/8/8/8/8/PPPPPPPP/RKNNBBQR w KQkq - 0 1 \
             moves c1b3 c8b6 d1e3 d8e6 b1a1"
        );
        // Rooks that are not the outermost ones are written by their file (Shredder style).
        let inner = position_from_fen("1r2k1r1/8/8/8/8/8/8/RR2K2R w BHbg - 0 1", Variant::Chess960)
            .expect("fen");
        let cmd = position_command(&inner, &[], CastlingMode::Chess960);
        assert_eq!(cmd, "position fen 1r2k1r1/8/8/8/8/8/8/RR2K2R w KBkq - 0 1");
    }

    #[test]
    fn go_commands() {
        let movetime = Duration::from_millis(250);
        assert_eq!(
            go_command(
                &SearchLimits {
                    movetime,
                    clock: None
                },
                None
            ),
            "go movetime 250"
        );
        let clock = ClockTimes {
            wtime: Duration::from_secs(60),
            btime: Duration::from_millis(59_500),
            winc: Duration::from_secs(2),
            binc: Duration::ZERO,
        };
        assert_eq!(
            go_command(
                &SearchLimits {
                    movetime,
                    clock: Some(clock)
                },
                Some(3)
            ),
            "go wtime 60000 btime 59500 winc 2000 movetime 250 depth 3"
        );
        // No increment on either side, or one under a millisecond: neither is sent.
        let none = ClockTimes {
            winc: Duration::from_micros(999),
            binc: Duration::ZERO,
            ..clock
        };
        assert_eq!(
            go_command(
                &SearchLimits {
                    movetime,
                    clock: Some(none)
                },
                None
            ),
            "go wtime 60000 btime 59500 movetime 250"
        );
        let black_only = ClockTimes {
            winc: Duration::ZERO,
            binc: Duration::from_secs(3),
            ..clock
        };
        assert_eq!(
            go_command(
                &SearchLimits {
                    movetime,
                    clock: Some(black_only)
                },
                None
            ),
            "go wtime 60000 btime 59500 binc 3000 movetime 250"
        );
        assert_eq!(
            go_command(
                &SearchLimits {
                    movetime: Duration::ZERO,
                    clock: None
                },
                None
            ),
            "go movetime 1"
        );
    }

    #[test]
    fn new_games_are_recognised() {
        let a = "position startpos";
        let b = "position startpos moves e2e4";
        let c = "position startpos moves e2e4 e7e5";
        assert!(continues(a, a));
        assert!(continues(a, b));
        assert!(continues(b, c));
        assert!(!continues(c, b), "a take-back");
        assert!(!continues(b, "position startpos moves e2e4q"));
        assert!(!continues(a, "position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1"));
    }

    #[test]
    fn answers_are_checked_against_the_position() {
        let pos = Chess::default();
        let legal = check_answer(&pos, &Answer::Move(uci("g1f3")));
        assert!(matches!(legal, Ok(Move::Normal { to: Square::F3, .. })));
        assert_eq!(
            check_answer(&pos, &Answer::Move(uci("e2e5"))),
            Err(Rejection::Illegal)
        );
        assert_eq!(
            check_answer(&pos, &Answer::Move(uci("e7e5"))),
            Err(Rejection::Illegal),
            "the other side's move"
        );
        assert_eq!(
            check_answer(&pos, &Answer::Move(uci("Q@e4"))),
            Err(Rejection::Illegal)
        );
        assert_eq!(
            check_answer(&pos, &Answer::NoMove("(none)".into())),
            Err(Rejection::NoMove)
        );
        assert_eq!(
            check_answer(&pos, &Answer::Unreadable("xyz".into())),
            Err(Rejection::Unreadable)
        );
    }

    #[test]
    fn replay_finds_the_first_illegal_move() {
        let start = Chess::default();
        let e4 = uci("e2e4").to_move(&start).expect("e4");
        assert!(replay(&start, &[e4]).is_ok());
        assert_eq!(replay(&start, &[e4, e4]).err(), Some(1));
    }

    proptest::proptest! {
        #[test]
        fn any_text_parses_without_panic(line in "\\PC{0,200}") {
            let _ = parse_line(&line);
            let _ = parse_line(&format!("option name {line}"));
            let _ = parse_line(&format!("info {line}"));
            let _ = parse_line(&format!("bestmove {line}"));
        }
    }
}
