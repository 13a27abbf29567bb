//! `hector check`: replay every game of a PGN file and report what the Laws say about it.

use std::path::Path;
use std::process::ExitCode;

use serde_json::{Value, json};
use shakmaty::Color;

use crate::app::services::output::Out;
use crate::app::services::pgn_jobs::{self, Finish, Progress};
use crate::core::check::{GameCheck, check_game};
use crate::core::notation::printable;
use crate::core::pgn::{shown, shown_limited};
use crate::io::files::open_input;

/// What one game gives the report.
enum Verdict {
    /// Stray text between games: no game, but the input was not empty.
    Blank,
    Game {
        line: String,
        consistent: bool,
    },
}

/// The report is in English, and so is this.
const OUTPUT_FAILED: &str = "cannot write the report: {reason}";

/// Exit status: 0 all games legal and consistent, 1 otherwise, 2 input unreadable.
pub(crate) fn run(path: &Path, as_json: bool, jobs: usize, quiet: bool) -> ExitCode {
    let input = match open_input(path) {
        Ok(input) => input,
        Err(e) => {
            errln!("hector check: {}", crate::io::error_chain(&e));
            return ExitCode::from(2);
        }
    };
    let mut progress = Progress::new(&input, quiet);
    let mut out = Out::new();
    let mut games = 0usize;
    let mut bad = 0usize;
    let mut blanks = 0usize;
    let finish = pgn_jobs::run(
        input,
        jobs,
        &mut progress,
        move |raw| {
            Some(if raw.is_blank() {
                Verdict::Blank
            } else {
                let report = check_game(raw);
                let line = if as_json {
                    json_line(&report).to_string()
                } else {
                    text_line(&report)
                };
                Verdict::Game {
                    line,
                    consistent: report.is_consistent(),
                }
            })
        },
        |verdict, _| match verdict {
            Verdict::Blank => {
                blanks += 1;
                true
            }
            Verdict::Game { line, consistent } => {
                games += 1;
                bad += usize::from(!consistent);
                out.line(&line)
            }
        },
    );
    let stopped = match finish {
        Ok(finish) => finish == Finish::Stopped,
        Err(e) => {
            out.flush();
            errln!("hector check: {e:#}");
            return ExitCode::from(2);
        }
    };
    if !as_json && !stopped {
        out.line(&summary(games, bad));
    }
    if !out.flush() {
        return out.finish("hector check", OUTPUT_FAILED, ExitCode::SUCCESS);
    }
    let code = if games == 0 && blanks > 0 {
        errln!("hector check: {} holds no PGN games", path.display());
        ExitCode::from(2)
    } else if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    };
    out.finish("hector check", OUTPUT_FAILED, code)
}

/// The last line: how many games were checked, and how many have problems.
fn summary(games: usize, bad: usize) -> String {
    match (games, bad) {
        (0, _) => "No games found.".to_string(),
        (n, 0) => format!(
            "{n} {} checked: all legal and consistent.",
            plural(n, "game", "games")
        ),
        (n, b) => format!(
            "{n} {} checked: {} legal and consistent, {b} with problems.",
            plural(n, "game", "games"),
            n - b
        ),
    }
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

/// One JSON object per game, in the documented key order.
pub(crate) fn json_line(r: &GameCheck) -> Value {
    let mut v = json!({
        "game": r.game,
        "plies": r.plies,
        "illegal": r.illegal.as_ref().map(|i| json!({
            "ply": i.ply,
            "san": i.san,
            "reason": i.reason.describe(),
        })),
        "claims": {
            "threefold": r.threefold,
            "fifty_move": r.fifty_move,
        },
        "automatic": r.automatic.map(|a| json!({"ply": a.ply, "rule": a.rule.name()})),
        "result_tag": r.result_tag.as_deref().map(|t| shown(t.as_bytes())),
        "status": r.status_text(),
    });
    if !r.errors.is_empty()
        && let Some(map) = v.as_object_mut()
    {
        map.insert(
            "errors".into(),
            r.errors
                .iter()
                .map(|e| {
                    let mut error = json!({"line": e.line, "message": e.message});
                    if e.more > 0 {
                        error["more"] = json!(e.more);
                    }
                    error
                })
                .collect(),
        );
    }
    v
}

/// The most of a player's name a report shows.
const NAME_CHARS: usize = 100;

/// One sentence per game, for reading aloud or on a braille display.
pub(crate) fn text_line(r: &GameCheck) -> String {
    let mut parts: Vec<String> = Vec::new();
    let players = match (&r.white, &r.black) {
        (Some(w), Some(b)) => format!(
            ", {} against {}",
            shown_limited(w.as_bytes(), NAME_CHARS),
            shown_limited(b.as_bytes(), NAME_CHARS)
        ),
        _ => String::new(),
    };
    let head = format!("Game {}{players} (line {})", r.game, r.line);
    for e in &r.errors {
        parts.push(format!("error on {e}"));
    }
    parts.push(format!("{} {}", r.plies, plural(r.plies, "ply", "plies")));
    if let Some(i) = &r.illegal {
        let dots = if i.turn == Color::White { "." } else { "..." };
        parts.push(format!(
            "illegal move at ply {}, {}{dots} {} on line {}: {}",
            i.ply,
            i.move_number,
            i.san,
            i.line,
            i.reason.describe()
        ));
    }
    if let Some(p) = r.threefold {
        parts.push(format!(
            "threefold repetition claimable from ply {p} (9.2b)"
        ));
    }
    if let Some(p) = r.fifty_move {
        parts.push(format!("fifty-move draw claimable from ply {p} (9.3b)"));
    }
    match r.automatic {
        Some(a) => parts.push(format!(
            "{} at ply {} ({}), so {}",
            a.rule.describe(),
            a.ply,
            a.rule.article(),
            r.status_text()
        )),
        None => parts.push("no automatic end".to_string()),
    }
    parts.push(match r.result_tag.as_deref() {
        None => "no Result tag".to_string(),
        Some(tag) if r.result_agrees() => format!("result {} agrees", shown(tag.as_bytes())),
        Some(tag) => format!("result {} does not agree", shown(tag.as_bytes())),
    });
    // Names and moves come from the file: no control character reaches the terminal.
    printable(&format!("{head}: {}.", parts.join("; "))).into_owned()
}
