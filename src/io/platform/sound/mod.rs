//! Playing one of hector's sound cues (a small WAV file held in memory) to its end, where the
//! speech backend cannot play sounds itself: espeak-ng, the print backend, the screen readers
//! and the system's voices on Windows. The speech worker plays it before it hands over the
//! words, so the sound is heard before them and never over them; each call is bounded, so
//! that a player that hangs costs at most its `limit` and never trips the speech watchdog.
//!
//! Unix: the first of `paplay`, `pw-play` and `aplay` found on PATH, with the WAV on its
//! standard input (no native library to build against). A player that fails (no sound
//! server, no sound card) or overstays is killed and not tried again; the next one is.
//! Windows: winmm's `PlaySoundW` from memory, synchronously, on a thread of its own so that
//! a sound that does not end can be given up.

#[cfg(unix)]
mod unix;
#[cfg(unix)]
use unix as imp;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
use windows as imp;

use std::time::Duration;

/// hector's own sound player. Made and used on the speech worker's thread.
pub(crate) struct Player(imp::Player);

impl Player {
    /// Looks for a way to play sounds; nothing is played yet.
    pub(crate) fn new() -> Player {
        Player(imp::Player::new())
    }

    /// Plays `wav` to its end, waiting at most `limit`. An error says, in English for the
    /// log, why nothing was heard; once no way to play is left, every call fails at once.
    pub(crate) fn play(&mut self, wav: &[u8], limit: Duration) -> Result<(), String> {
        self.0.play(wav, limit)
    }
}
