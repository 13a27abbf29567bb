//! NVDA, through its controller client (`nvdaControllerClient64.dll` beside hector.exe):
//! every utterance is spoken and shown on the braille display NVDA drives. NVDA speaks with
//! the player's own NVDA voice and rate; it cannot say when it has finished, so an urgent
//! message and every stop silence it (`BackendKind::tells_the_end`).
//!
//! NVDA counts as running when its client says so and one of NVDA's programs runs
//! (`nvda.exe`, `nvda_uiAccess.exe`, …): the client is an RPC stub, and an RPC runtime that
//! does not report a missing endpoint (wine's) makes it answer "running" with no NVDA.

use crate::io::platform::screen_reader::{self, NVDA_CLIENT, Nvda, NvdaError};

use super::backend::{Backend, BackendKind, SpeechError, Voice, clean};

const NAME: &str = "NVDA";

pub(crate) struct NvdaBackend {
    nvda: Nvda,
}

impl NvdaBackend {
    pub(crate) fn open() -> Result<NvdaBackend, SpeechError> {
        let running = nvda_runs();
        let dll = std::env::current_exe()
            .ok()
            .and_then(|exe| exe.parent().map(|dir| dir.join(NVDA_CLIENT)))
            .ok_or_else(|| SpeechError::ClientMissing {
                backend: NAME,
                reason: "the folder of hector.exe is unknown".into(),
                running,
            })?;
        let nvda = Nvda::open(&dll).map_err(|e| match e {
            NvdaError::ClientMissing(reason) => SpeechError::ClientMissing {
                backend: NAME,
                reason,
                running,
            },
            NvdaError::NotRunning(status) => SpeechError::NotRunning {
                backend: NAME,
                reason: format!("its controller client answered {status}"),
            },
            NvdaError::Broken(reason) => SpeechError::Unavailable {
                backend: NAME,
                reason,
            },
        })?;
        if !running {
            return Err(SpeechError::NotRunning {
                backend: NAME,
                reason: "its client answers, but no program of NVDA runs".into(),
            });
        }
        Ok(NvdaBackend { nvda })
    }
}

/// Whether one of NVDA's programs runs (`nvda.exe`, `nvda_uiAccess.exe`, …).
fn nvda_runs() -> bool {
    screen_reader::program_running(&|exe| {
        let exe = exe.to_ascii_lowercase();
        exe.starts_with("nvda") && exe.ends_with(".exe")
    })
}

fn refused(what: &str, status: u32) -> SpeechError {
    SpeechError::Failed {
        backend: NAME,
        reason: format!("NVDA refused to {what} (status {status})"),
    }
}

impl Backend for NvdaBackend {
    fn kind(&self) -> BackendKind {
        BackendKind::Nvda
    }

    fn speak(&mut self, text: &str, _lang: &str) -> Result<(), SpeechError> {
        let text = clean(text);
        self.nvda.speak(&text).map_err(|s| refused("speak", s))?;
        // Without a braille display NVDA takes the message and shows it nowhere; a refusal
        // here leaves the speech, which went through.
        let _ = self.nvda.braille(&text);
        Ok(())
    }

    fn is_speaking(&mut self) -> Result<bool, SpeechError> {
        Ok(false)
    }

    fn stop(&mut self) -> Result<(), SpeechError> {
        self.nvda.cancel().map_err(|s| refused("stop", s))
    }

    fn set_voice(&mut self, _voice: &Voice) -> Result<(), SpeechError> {
        // NVDA's voice, rate and volume are the player's NVDA settings.
        Ok(())
    }
}
