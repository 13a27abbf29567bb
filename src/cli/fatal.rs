//! Why a mode cannot start, and how that is printed and said: the one error every mode's
//! set-up returns to `cli::main`.

use std::process::ExitCode;

use crate::core::notation::Language;

/// A mode that cannot start: what to say and the exit status. Only `cli::main` reports it.
pub(crate) struct Fatal {
    /// "hector", or "hector MODE".
    who: &'static str,
    message: String,
    status: u8,
    /// Said aloud too, in this speech and language (a start-up problem of a spoken mode).
    spoken: Option<Box<(crate::core::settings::SpeechSettings, &'static Language)>>,
}

impl Fatal {
    /// A usage error: status 2.
    pub(super) fn usage(message: impl Into<String>) -> Fatal {
        Fatal {
            who: "hector",
            message: message.into(),
            status: 2,
            spoken: None,
        }
    }

    /// The mode could not do what was asked: status 1.
    pub(super) fn failed(who: &'static str, message: impl Into<String>) -> Fatal {
        Fatal {
            who,
            message: message.into(),
            status: 1,
            spoken: None,
        }
    }

    /// What it says, and the language it is said in when it is said.
    #[cfg(test)]
    pub(super) fn said(&self) -> (&str, Option<&str>) {
        (
            &self.message,
            self.spoken.as_ref().map(|s| s.1.code.as_str()),
        )
    }

    /// The same problem as the named mode's failure (status 1): a file or server it cannot
    /// use, said as it was refused.
    pub(super) fn failed_in(self, who: &'static str) -> Fatal {
        Fatal {
            who,
            status: 1,
            ..self
        }
    }

    /// The same problem, printed only (a tool that does not speak).
    pub(super) fn unspoken(self) -> Fatal {
        Fatal {
            spoken: None,
            ..self
        }
    }

    /// Prints it once on standard error, says it when it belongs to a spoken mode, and gives
    /// the exit status.
    pub(super) fn report(self) -> ExitCode {
        errln!("{}: {}", self.who, self.message);
        if let Some((settings, lang)) = self.spoken.as_deref() {
            // Already printed on standard error: a print backend adds nothing.
            let (speaker, _notices) = crate::app::services::speaker::quiet_speaker(settings, lang);
            // Lines printed one under the other are one utterance, sentence after sentence.
            speaker.urgent(self.message.replace('\n', ". "));
            speaker.wait_idle(std::time::Duration::from_secs(8));
        }
        ExitCode::from(self.status)
    }
}

/// A start-up problem of a spoken mode: a usage error, printed and said.
pub(super) fn refuse(
    message: &str,
    settings: &crate::core::settings::SpeechSettings,
    lang: &'static Language,
) -> Fatal {
    Fatal {
        spoken: Some(Box::new((settings.clone(), lang))),
        ..Fatal::usage(message)
    }
}
