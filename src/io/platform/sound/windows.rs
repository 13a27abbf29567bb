//! Sounds through winmm's `PlaySoundW`, from memory and synchronously, on a thread of its own:
//! the call returns when the sound has ended (at once, with FALSE, when there is no sound
//! device), and one that does not is stopped and given up.
#![allow(unsafe_code, reason = "winmm's PlaySoundW")]

use std::time::Duration;

use crossbeam_channel::bounded;
use windows_sys::Win32::Media::Audio::{PlaySoundW, SND_MEMORY, SND_NODEFAULT, SND_SYNC};

pub(crate) struct Player {
    /// Set when a sound did not end in time: no more are tried.
    given_up: Option<String>,
}

impl Player {
    pub(crate) fn new() -> Player {
        Player { given_up: None }
    }

    pub(crate) fn play(&mut self, wav: &[u8], limit: Duration) -> Result<(), String> {
        if let Some(reason) = &self.given_up {
            return Err(reason.clone());
        }
        let bytes = wav.to_vec();
        let (tx, rx) = bounded(1);
        std::thread::Builder::new()
            .name("hector-sound".into())
            .spawn(move || {
                // SAFETY: with SND_MEMORY the first argument is the WAV's image in memory,
                // which `bytes` keeps alive until the synchronous call has returned.
                let played = unsafe {
                    PlaySoundW(
                        bytes.as_ptr().cast(),
                        std::ptr::null_mut(),
                        SND_MEMORY | SND_SYNC | SND_NODEFAULT,
                    )
                };
                let _ = tx.send(played != 0);
            })
            .map_err(|e| format!("cannot start the sound's thread ({e})"))?;
        match rx.recv_timeout(limit) {
            Ok(true) => Ok(()),
            Ok(false) => Err("PlaySound could not play it (no sound device?)".into()),
            Err(_) => {
                // SAFETY: no sound named: stops whatever waveform sound plays.
                unsafe {
                    PlaySoundW(std::ptr::null(), std::ptr::null_mut(), 0);
                }
                let reason = "PlaySound did not finish in time; no more sounds".to_string();
                self.given_up = Some(reason.clone());
                Err(reason)
            }
        }
    }
}
