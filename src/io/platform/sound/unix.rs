//! Sounds through a player program: PulseAudio's `paplay`, PipeWire's `pw-play` or ALSA's
//! `aplay`, whichever is found first on PATH, the WAV written to its standard input.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crate::io::child::{bound_to_hector, kill_group, reaped, register};

/// The players, best first, with the arguments that make each read a WAV from standard
/// input: `paplay` and `aplay` read it when no file is named, `pw-play` when the file is `-`.
const PLAYERS: [(&str, &[&str]); 3] = [("paplay", &[]), ("pw-play", &["-"]), ("aplay", &["-q"])];

/// How often a playing program is looked at.
const POLL: Duration = Duration::from_millis(5);

pub(crate) struct Player {
    /// The players found and not yet failed, best first.
    left: Vec<(PathBuf, &'static [&'static str])>,
    /// Why each one tried could not play.
    failures: Vec<String>,
}

fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .filter(|dir| dir.is_absolute())
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

impl Player {
    pub(crate) fn new() -> Player {
        Player {
            left: PLAYERS
                .iter()
                .filter_map(|(name, args)| on_path(name).map(|p| (p, *args)))
                .collect(),
            failures: Vec::new(),
        }
    }

    pub(crate) fn play(&mut self, wav: &[u8], limit: Duration) -> Result<(), String> {
        let deadline = Instant::now() + limit;
        while let Some((program, args)) = self.left.first() {
            let name = program
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            match play_with(program, args, wav, deadline) {
                Ok(()) => return Ok(()),
                Err(reason) => {
                    self.failures.push(format!("{name}: {reason}"));
                    self.left.remove(0);
                }
            }
            if Instant::now() >= deadline {
                break;
            }
        }
        Err(if self.failures.is_empty() {
            "none of paplay, pw-play and aplay is installed".to_string()
        } else {
            self.failures.join("; ")
        })
    }
}

/// Runs one player on `wav` until it ends, killing it at `deadline`.
fn play_with(
    program: &PathBuf,
    args: &[&str],
    wav: &[u8],
    deadline: Instant,
) -> Result<(), String> {
    let mut child = bound_to_hector(&mut Command::new(program))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        // What a player says about a missing server or card is not for the player's ears.
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start it ({e})"))?;
    register(&child);
    // Written on a thread of its own: a player that does not read cannot hold the worker.
    // The pipe closes when the thread ends, which tells the player the sound is whole.
    if let Some(mut stdin) = child.stdin.take() {
        let bytes = wav.to_vec();
        let _ = thread::Builder::new()
            .name("hector-sound".into())
            .spawn(move || {
                let _ = stdin.write_all(&bytes);
            });
    }
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                reaped(&child);
                return if status.success() {
                    Ok(())
                } else {
                    Err(format!("it ended with {status}"))
                };
            }
            Ok(None) if Instant::now() >= deadline => {
                kill_group(&mut child);
                return Err("it did not finish in time and was stopped".into());
            }
            Ok(None) => thread::sleep(POLL),
            Err(e) => {
                kill_group(&mut child);
                return Err(format!("cannot wait for it ({e})"));
            }
        }
    }
}
