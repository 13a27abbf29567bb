//! Continuing a recorded game: `hector resume`, and the offer `hector play` makes when an
//! unfinished game is waiting.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};
use shakmaty::Color;

use super::{Opponent, Start};
use crate::app::recorder::Recorder;
use crate::core::clock::TimeControl;
use crate::core::notation::language::{Language, counted, fill};
use crate::core::notation::speak::Form;
use crate::io::board_link::Protocol;
use crate::io::journal::{games_dir, latest_in_progress};

/// How the recorded game was set up.
pub struct Resumed {
    pub start: Start,
    pub color: Color,
    pub opponent: Opponent,
    pub level: u8,
    pub announce: bool,
    pub control: Option<TimeControl>,
    pub form: Form,
    pub language: String,
    pub board: Option<(PathBuf, Protocol)>,
}

fn protocol(name: &str) -> Option<Protocol> {
    match name {
        "dgt" => Some(Protocol::Dgt),
        "peg" => Some(Protocol::Peg),
        _ => None,
    }
}

/// "peg:/dev/ttyACM0" to its protocol and port.
fn board(value: &str) -> Option<(PathBuf, Protocol)> {
    let (p, port) = value.split_once(':')?;
    Some((PathBuf::from(port), protocol(p)?))
}

/// Opens the journal at `path` for continuing, and reads how its game was set up.
pub fn from_journal(path: &Path) -> Result<Resumed> {
    let (recorder, replayed) = Recorder::resume(path)?;
    if replayed.game.is_over() || replayed.declared.is_some() {
        return Err(anyhow!(
            "the game in {} is already finished",
            path.display()
        ));
    }
    let h = &recorder.header;
    let settings = &replayed.settings;
    let control = match &h.time_control {
        Some(tc) => Some(
            tc.parse::<TimeControl>()
                .map_err(|e| anyhow!("the journal's time control {tc:?}: {e}"))?,
        ),
        None => None,
    };
    let opponent = match settings.get("opponent").map(String::as_str) {
        None | Some("keyboard") => Opponent::Keyboard,
        Some("engine") => Opponent::Engine(None),
        Some(other) => match other.split_once(':') {
            Some(("engine", path)) => Opponent::Engine(Some(PathBuf::from(path))),
            Some(("board", rest)) => {
                let (port, p) =
                    board(rest).context("the journal names a board hector cannot read")?;
                Opponent::Board(port, p)
            }
            _ => Opponent::Keyboard,
        },
    };
    Ok(Resumed {
        color: h.local_player.unwrap_or(Color::White),
        opponent,
        level: settings
            .get("level")
            .and_then(|l| l.parse().ok())
            .unwrap_or(1),
        announce: settings.get("announce").is_some_and(|a| a == "true"),
        control,
        form: h.form,
        language: h.language.clone(),
        board: settings.get("board").and_then(|b| board(b)),
        start: Start::Resume {
            recorder: Box::new(recorder),
            replayed: Box::new(replayed),
        },
    })
}

/// The unfinished game `hector resume` takes when none is named.
pub fn latest() -> Result<Option<PathBuf>> {
    let dir = games_dir()?;
    Ok(latest_in_progress(&dir)?.map(|g| g.path))
}

/// At the start of `hector play`: when a game is unfinished and a person sits at the
/// terminal, asks whether to continue it. `None`: start a new game.
pub fn offer(lang: &Language) -> Option<PathBuf> {
    if !std::io::stdin().is_terminal() {
        return None;
    }
    let dir = games_dir().ok()?;
    let game = latest_in_progress(&dir).ok()??;
    let question = fill(
        &lang.play.resume_question,
        &[
            ("date", &crate::app::games::date_text(&game.created)),
            ("white", &game.white),
            ("black", &game.black),
            ("moves", &counted(&lang.record.moves, game.moves as u64)),
        ],
    );
    let mut out = std::io::stdout().lock();
    let _ = write!(out, "{question}: ");
    let _ = out.flush();
    drop(out);
    let mut answer = String::new();
    std::io::stdin().lock().read_line(&mut answer).ok()?;
    let yes = matches!(
        answer.trim().to_lowercase().as_str(),
        "j" | "ja" | "y" | "yes" | "fortsetzen" | "continue"
    );
    yes.then_some(game.path)
}
