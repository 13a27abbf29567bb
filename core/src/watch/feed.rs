//! The lines of a game's move stream (`/api/stream/game/{id}`) and of lichess TV
//! (`/api/tv/feed`), read into what a watch needs: a game's description (its players, its
//! position, its result once it ends, how many moves the stream replays next) and each
//! position (the move that led to it in UCI, none for the start position the game stream
//! sends first; the position as placement and side to move; both clocks in seconds).
//! Names are cut to [`MAX_NAME`] characters, clocks past [`MAX_CLOCK`] are no clocks, and a
//! replay longer than [`MAX_REPLAY`] counts as that long.

use std::time::Duration;

use serde_json::Value;
use shakmaty::ByColor;

use crate::notation::printable::{MAX_NAME, printable_cut};

/// The longest clock read (100 days): a larger or stranger number is no clock.
pub(crate) const MAX_CLOCK: f64 = 100.0 * 86_400.0;
/// The most moves a game stream replays before its live moves (a game of the 75-move rule
/// has some 6,000 half-moves).
pub(crate) const MAX_REPLAY: usize = 10_000;

/// One line read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum FeedLine {
    /// A game described: at the stream's start and end, or a new game on TV.
    Game {
        id: String,
        fen: String,
        white: String,
        black: String,
        /// "1-0", "0-1", "1/2-1/2" once the game is over.
        result: Option<String>,
        clocks: ByColor<Option<Duration>>,
        /// TV's featured game changed: a new game even with the same id.
        new_game: bool,
        /// The positions with a move the game stream replays next, from the start position
        /// it sends first up to this description's (its `turns` after `startedAtTurn`);
        /// `None` when the line does not say (TV replays nothing).
        replay: Option<usize>,
    },
    /// A position: after a move played (`uci`), or the start position (`None`), which the
    /// game stream sends before it replays the game's moves.
    Move {
        fen: String,
        uci: Option<String>,
        clocks: ByColor<Option<Duration>>,
    },
}

fn seconds(v: &Value) -> Option<Duration> {
    v.as_f64()
        .filter(|s| s.is_finite() && *s >= 0.0 && *s <= MAX_CLOCK)
        .map(Duration::from_secs_f64)
}

/// A count from the stream, bounded.
fn count(v: Option<&Value>) -> Option<usize> {
    let n = v?.as_u64()?;
    Some(usize::try_from(n).unwrap_or(usize::MAX).min(MAX_REPLAY))
}

fn name(player: &Value) -> Option<String> {
    let user = player.get("user").unwrap_or(player);
    let name = user
        .get("name")
        .or_else(|| user.get("id"))
        .and_then(Value::as_str)?;
    let title = user.get("title").and_then(Value::as_str);
    let name = match title {
        Some(t) if !t.is_empty() => format!("{t} {name}"),
        _ => name.to_string(),
    };
    Some(printable_cut(&name, MAX_NAME))
}

/// The statuses that end a game with a result of the board or the players.
fn result(status: Option<&str>, winner: Option<&str>) -> Option<String> {
    let status = status?;
    if matches!(status, "created" | "started" | "aborted" | "noStart") {
        return None;
    }
    Some(
        match winner {
            Some("white") => "1-0",
            Some("black") => "0-1",
            _ => "1/2-1/2",
        }
        .to_string(),
    )
}

/// A line of either stream: `Ok(None)` for a keep-alive (empty) line, and for an empty
/// object (lichess pushes a few out as a finished game's stream ends).
pub(crate) fn line(text: &str) -> Result<Option<FeedLine>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    let v: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    // TV wraps each message: {"t":"featured"|"fen","d":{…}}.
    if let Some(t) = v.get("t").and_then(Value::as_str) {
        let d = v.get("d").ok_or_else(|| "no d".to_string())?;
        return match t {
            "featured" => tv_featured(d).map(Some),
            "fen" => move_line(d).map(Some),
            _ => Ok(None),
        };
    }
    if v.get("lm").is_some() {
        return move_line(&v).map(Some);
    }
    if v.get("id").is_some() {
        return description(&v).map(Some);
    }
    // A position without a move: the start position before the replay.
    if v.get("fen").is_some() {
        return move_line(&v).map(Some);
    }
    if v.as_object().is_some_and(serde_json::Map::is_empty) {
        return Ok(None);
    }
    Err("neither a game nor a move".to_string())
}

fn text_of(v: &Value, key: &str) -> Result<String, String> {
    v.get(key)
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| format!("no {key}"))
}

fn move_line(v: &Value) -> Result<FeedLine, String> {
    Ok(FeedLine::Move {
        fen: text_of(v, "fen")?,
        uci: match v.get("lm") {
            None | Some(Value::Null) => None,
            Some(_) => Some(text_of(v, "lm")?),
        },
        clocks: ByColor {
            white: v.get("wc").and_then(seconds),
            black: v.get("bc").and_then(seconds),
        },
    })
}

/// The usual start position, for a description that names no position.
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn description(v: &Value) -> Result<FeedLine, String> {
    let players = v.get("players");
    let player = |c: &str| players.and_then(|p| p.get(c)).and_then(name);
    let status = v
        .get("status")
        .and_then(|s| s.get("name").or(Some(s)))
        .and_then(Value::as_str);
    let clock = |c: &str| {
        players
            .and_then(|p| p.get(c))
            .and_then(|p| p.get("seconds"))
            .and_then(seconds)
    };
    // The position now; the spec's own example leaves it out (the replay brings it).
    let fen = text_of(v, "fen")
        .or_else(|_| text_of(v, "initialFen"))
        .unwrap_or_else(|_| START.to_string());
    let replay = count(v.get("turns"))
        .map(|turns| turns.saturating_sub(count(v.get("startedAtTurn")).unwrap_or(0)));
    Ok(FeedLine::Game {
        id: text_of(v, "id")?,
        fen,
        white: player("white").unwrap_or_default(),
        black: player("black").unwrap_or_default(),
        result: result(status, v.get("winner").and_then(Value::as_str)),
        clocks: ByColor {
            white: clock("white"),
            black: clock("black"),
        },
        new_game: false,
        replay,
    })
}

fn tv_featured(d: &Value) -> Result<FeedLine, String> {
    let players = d.get("players").and_then(Value::as_array);
    let of = |color: &str| {
        players.and_then(|ps| {
            ps.iter()
                .find(|p| p.get("color").and_then(Value::as_str) == Some(color))
        })
    };
    Ok(FeedLine::Game {
        id: text_of(d, "id")?,
        fen: text_of(d, "fen")?,
        white: of("white").and_then(name).unwrap_or_default(),
        black: of("black").and_then(name).unwrap_or_default(),
        result: None,
        clocks: ByColor {
            white: of("white").and_then(|p| p.get("seconds")).and_then(seconds),
            black: of("black").and_then(|p| p.get("seconds")).and_then(seconds),
        },
        new_game: true,
        replay: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_game_stream_and_tv_lines_are_read() {
        let first = r#"{"id":"LuGQwhBb","variant":{"key":"standard"},"speed":"blitz","rated":true,"initialFen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","fen":"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1","player":"black","turns":1,"status":{"id":20,"name":"started"},"lastMove":"e2e4","players":{"white":{"user":{"name":"Anna","title":"GM","id":"anna"},"rating":2500},"black":{"user":{"name":"Bert","id":"bert"},"rating":2400}}}"#;
        match line(first) {
            Ok(Some(FeedLine::Game {
                id,
                white,
                black,
                result,
                ..
            })) => {
                assert_eq!(
                    (id.as_str(), white.as_str(), black.as_str()),
                    ("LuGQwhBb", "GM Anna", "Bert")
                );
                assert_eq!(result, None);
            }
            other => panic!("{other:?}"),
        }
        let mv = r#"{"fen":"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w","lm":"e7e5","wc":180,"bc":179}"#;
        assert!(
            matches!(line(mv), Ok(Some(FeedLine::Move { uci, clocks, .. })) if uci.as_deref() == Some("e7e5") && clocks.black == Some(Duration::from_secs(179)))
        );
        let tv = r#"{"t":"featured","d":{"id":"qVSOPtMc","orientation":"black","players":[{"color":"white","user":{"name":"A"},"rating":2000,"seconds":60},{"color":"black","user":{"name":"B"},"rating":2000,"seconds":60}],"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}}"#;
        assert!(matches!(
            line(tv),
            Ok(Some(FeedLine::Game { new_game: true, .. }))
        ));
        assert_eq!(line(""), Ok(None));
        assert!(line("{not json").is_err());
        let end = r#"{"id":"x","fen":"8/8/8/8/8/8/8/8 w - - 0 1","status":{"name":"resign"},"winner":"black","players":{}}"#;
        assert!(
            matches!(line(end), Ok(Some(FeedLine::Game { result: Some(r), .. })) if r == "0-1")
        );
    }
}
