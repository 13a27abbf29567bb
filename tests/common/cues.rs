//! The sounds a player hears, through the capturing speech-dispatcher: its module writes an
//! icon played as "icon|NAME" and words as "de|…", one line each, in the order played.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::SpeechDaemon;
use super::pty::Pty;

const LIMIT: Duration = Duration::from_secs(60);

/// What the daemon played after line `from` (icons as "icon|NAME", words as "de|…"), once a
/// line starting with `last` has come; fails with what came when it does not within a minute.
pub fn played_until(daemon: &SpeechDaemon, from: usize, last: &str) -> Vec<String> {
    let deadline = Instant::now() + LIMIT;
    loop {
        let lines: Vec<String> = daemon.spoken().into_iter().skip(from).collect();
        if lines.iter().any(|l| l.starts_with(last)) {
            return lines;
        }
        assert!(
            Instant::now() < deadline,
            "not played {last:?}; played:\n{}",
            lines.join("\n")
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Sends `line` and asserts exactly what the daemon played after it, up to `last`.
pub fn step(t: &mut Pty, daemon: &SpeechDaemon, line: &[u8], last: &str, expected: &[&str]) {
    let from = daemon.spoken().len();
    t.send(line);
    let played = played_until(daemon, from, last);
    assert_eq!(
        played,
        expected,
        "after {:?}",
        String::from_utf8_lossy(line)
    );
}

/// A player's configuration whose `[sound]` plays icons from the daemon's icon folder, with
/// `extra` lines after it.
pub fn sound_config(dir: &Path, daemon: &SpeechDaemon, extra: &str) -> PathBuf {
    let file = dir.join("config.toml");
    std::fs::write(
        &file,
        format!(
            "[sound]\nicon_folder = \"{}\"\n{extra}",
            daemon.icon_folder().display()
        ),
    )
    .expect("config");
    file
}

/// The sound speech-dispatcher plays for a move (hector's icon names): its kind, and
/// "-check" when it gives check; written here from the move, not taken from hector.
pub fn icon_of(pos: &shakmaty::Chess, m: shakmaty::Move) -> String {
    use shakmaty::Position;
    let kind = if m.is_promotion() {
        "promotion"
    } else if m.is_castle() {
        "castle"
    } else if m.is_capture() {
        "capture"
    } else {
        "move"
    };
    let after = pos.clone().play(m).expect("a legal move");
    if after.is_check() {
        format!("icon|{kind}-check")
    } else {
        format!("icon|{kind}")
    }
}
