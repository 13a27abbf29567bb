//! The simulator's command language, one command a line (documented in the `--help` of
//! `hector simulate-board`).

use std::path::PathBuf;
use std::time::Duration;

use shakmaty::{Piece, Square};

/// One command.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Command {
    Lift(Square),
    Place(Square, Option<Piece>),
    /// A whole move, as written (UCI, SAN or words); the simulator knows the position.
    Move(String),
    /// Every move of game `game` (from 1) of a PGN file.
    Pgn {
        path: PathBuf,
        game: usize,
    },
    Wait(Duration),
    /// Wait until the host has connected (at most this long).
    AwaitHost(Duration),
    /// Time between the sensor changes of one move.
    Gap(Duration),
    /// Time between the moves of `pgn`.
    Pause(Duration),
    Slide(bool),
    Noise(usize),
    Raw(Vec<u8>),
    Line(String),
    Snapshot,
    Setup(String),
    Unplug,
    Replug,
    Echo(String),
    Quit,
}

/// How long `await-host` waits when no time is given.
pub(crate) const DEFAULT_AWAIT: Duration = Duration::from_secs(30);

/// `300ms`, `2s`, `1.5s`, `2m`; a bare number is milliseconds.
pub(crate) fn parse_duration(text: &str) -> Option<Duration> {
    let text = text.trim();
    let (number, scale) = if let Some(n) = text.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = text.strip_suffix('m') {
        (n, 60.0)
    } else {
        (text, 0.001)
    };
    let value: f64 = number.trim().parse().ok()?;
    let seconds = value * scale;
    // An hour is more than any script needs; larger values are a typing error.
    (seconds.is_finite() && (0.0..=3600.0).contains(&seconds))
        .then(|| Duration::from_secs_f64(seconds))
}

fn square(text: &str) -> Result<Square, String> {
    match text.as_bytes() {
        [b'a'..=b'h', b'1'..=b'8'] => Square::from_ascii(text.as_bytes())
            .map_err(|_| format!("{text:?} is not a square (a1 … h8)")),
        _ => Err(format!("{text:?} is not a square (a1 … h8)")),
    }
}

fn piece(text: &str) -> Result<Piece, String> {
    let mut chars = text.chars();
    match (chars.next().and_then(Piece::from_char), chars.next()) {
        (Some(p), None) => Ok(p),
        _ => Err(format!(
            "{text:?} is not a piece letter (K Q R B N P white, k q r b n p black)"
        )),
    }
}

fn duration(text: &str) -> Result<Duration, String> {
    parse_duration(text).ok_or_else(|| format!("{text:?} is not a duration (300ms, 2s, 1.5s)"))
}

/// One line of a script; `None` for an empty line or a comment (`#`).
pub(crate) fn parse_command(line: &str) -> Result<Option<Command>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    let args: Vec<&str> = rest.split_whitespace().collect();
    let need = |n: usize, usage: &str| -> Result<(), String> {
        if args.len() == n {
            Ok(())
        } else {
            Err(format!("usage: {usage}"))
        }
    };
    let command = match word.to_ascii_lowercase().as_str() {
        "lift" => {
            need(1, "lift SQUARE")?;
            Command::Lift(square(args[0])?)
        }
        "place" => match args.as_slice() {
            [sq] => Command::Place(square(sq)?, None),
            [sq, p] => Command::Place(square(sq)?, Some(piece(p)?)),
            _ => return Err("usage: place SQUARE [PIECE]".into()),
        },
        "move" if !rest.is_empty() => Command::Move(rest.to_owned()),
        "move" => return Err("usage: move MOVE (e2e4, Nf3, Springer Felix drei)".into()),
        "pgn" => match args.as_slice() {
            [path] => Command::Pgn {
                path: PathBuf::from(path),
                game: 1,
            },
            [path, n] => Command::Pgn {
                path: PathBuf::from(path),
                game: n
                    .parse()
                    .ok()
                    .filter(|&n| n >= 1)
                    .ok_or_else(|| format!("{n:?} is not a game number (1, 2, …)"))?,
            },
            _ => return Err("usage: pgn FILE [GAME]".into()),
        },
        "wait" => {
            need(1, "wait DURATION")?;
            Command::Wait(duration(args[0])?)
        }
        "await-host" => match args.as_slice() {
            [] => Command::AwaitHost(DEFAULT_AWAIT),
            [d] => Command::AwaitHost(duration(d)?),
            _ => return Err("usage: await-host [DURATION]".into()),
        },
        "gap" => {
            need(1, "gap DURATION")?;
            Command::Gap(duration(args[0])?)
        }
        "pause" => {
            need(1, "pause DURATION")?;
            Command::Pause(duration(args[0])?)
        }
        "slide" => match args.as_slice() {
            ["on"] => Command::Slide(true),
            ["off"] => Command::Slide(false),
            _ => return Err("usage: slide on|off".into()),
        },
        "noise" => {
            need(1, "noise COUNT")?;
            Command::Noise(
                args[0]
                    .parse()
                    .ok()
                    .filter(|&n| n <= 1 << 20)
                    .ok_or_else(|| format!("{:?} is not a byte count (up to 1048576)", args[0]))?,
            )
        }
        "raw" => {
            let bytes = args
                .iter()
                .map(|h| {
                    u8::from_str_radix(h.trim_start_matches("0x"), 16)
                        .map_err(|_| format!("{h:?} is not a hexadecimal byte"))
                })
                .collect::<Result<Vec<u8>, String>>()?;
            if bytes.is_empty() {
                return Err("usage: raw HEX … (raw 8e 00 05 24 01)".into());
            }
            Command::Raw(bytes)
        }
        "line" if !rest.is_empty() => Command::Line(rest.to_owned()),
        "line" => return Err("usage: line TEXT (line B done)".into()),
        "snapshot" => Command::Snapshot,
        "setup" if !rest.is_empty() => Command::Setup(rest.to_owned()),
        "setup" => return Err("usage: setup FEN".into()),
        "unplug" => Command::Unplug,
        "replug" => Command::Replug,
        "echo" => Command::Echo(rest.to_owned()),
        "quit" | "exit" => Command::Quit,
        other => {
            return Err(format!(
                "unknown command {other:?}; see hector simulate-board --help"
            ));
        }
    };
    Ok(Some(command))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(line: &str) -> Command {
        parse_command(line)
            .unwrap_or_else(|e| panic!("{line}: {e}"))
            .unwrap_or_else(|| panic!("{line}: a command"))
    }

    #[test]
    fn every_command() {
        assert_eq!(cmd("lift e2"), Command::Lift(Square::E2));
        assert_eq!(cmd("  place e4  "), Command::Place(Square::E4, None));
        assert_eq!(
            cmd("place e8 q"),
            Command::Place(Square::E8, Piece::from_char('q'))
        );
        assert_eq!(
            cmd("move Springer Felix drei"),
            Command::Move("Springer Felix drei".into())
        );
        assert_eq!(
            cmd("pgn games.pgn 3"),
            Command::Pgn {
                path: "games.pgn".into(),
                game: 3
            }
        );
        assert_eq!(cmd("wait 300ms"), Command::Wait(Duration::from_millis(300)));
        assert_eq!(cmd("WAIT 1.5s"), Command::Wait(Duration::from_millis(1500)));
        assert_eq!(cmd("await-host"), Command::AwaitHost(DEFAULT_AWAIT));
        assert_eq!(
            cmd("await-host 5s"),
            Command::AwaitHost(Duration::from_secs(5))
        );
        assert_eq!(cmd("gap 20"), Command::Gap(Duration::from_millis(20)));
        assert_eq!(cmd("pause 2s"), Command::Pause(Duration::from_secs(2)));
        assert_eq!(cmd("slide off"), Command::Slide(false));
        assert_eq!(cmd("noise 12"), Command::Noise(12));
        assert_eq!(cmd("raw 8e 0x00 05"), Command::Raw(vec![0x8e, 0, 5]));
        assert_eq!(cmd("line B done"), Command::Line("B done".into()));
        assert_eq!(cmd("snapshot"), Command::Snapshot);
        assert_eq!(
            cmd("setup 8/8/8/8/8/8/8/K6k w - - 0 1"),
            Command::Setup("8/8/8/8/8/8/8/K6k w - - 0 1".into())
        );
        assert_eq!(cmd("unplug"), Command::Unplug);
        assert_eq!(cmd("replug"), Command::Replug);
        assert_eq!(cmd("echo hello board"), Command::Echo("hello board".into()));
        assert_eq!(cmd("quit"), Command::Quit);
        assert_eq!(parse_command("   "), Ok(None));
        assert_eq!(parse_command("# a comment"), Ok(None));
    }

    #[test]
    fn mistakes_are_explained() {
        for (line, needle) in [
            ("lift", "usage: lift"),
            ("lift e9", "not a square"),
            ("place e4 X", "not a piece letter"),
            ("wait soon", "not a duration"),
            ("wait -1s", "not a duration"),
            ("wait 2h", "not a duration"),
            ("raw zz", "hexadecimal"),
            ("slide maybe", "slide on|off"),
            ("pgn a.pgn 0", "game number"),
            ("dance", "unknown command"),
            ("move", "usage: move"),
        ] {
            let err = parse_command(line).expect_err(line);
            assert!(err.contains(needle), "{line}: {err}");
        }
    }
}
