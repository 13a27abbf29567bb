//! `hector say` and `hector voices`: speech on its own, for setting up a machine.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use crate::app::services::output::Out;
use crate::app::services::speaker::{notice_detail, notice_text, take_first_words, voice_of};
use crate::core::notation::printable;
use crate::core::notation::{Language, fill};
use crate::core::settings::SpeechSettings;
use crate::io::speech::{self, BackendKind, Notice, Speaker, SpeechConfig, espeak};

pub(crate) fn run(
    texts: &[String],
    settings: &SpeechSettings,
    lang: &Language,
    wav: Option<&Path>,
) -> ExitCode {
    let mut phrases: Vec<String> = Vec::new();
    for t in texts {
        if t == "-" {
            phrases.extend(
                crate::io::files::bounded_lines(std::io::stdin().lock())
                    .filter(|l| !l.trim().is_empty()),
            );
        } else {
            phrases.push(t.clone());
        }
    }
    if phrases.is_empty() {
        errln!("hector say: {}", lang.messages.say_nothing);
        return ExitCode::from(2);
    }
    if let Some(path) = wav {
        let text = phrases.join(". ");
        let limit = Duration::from_secs(10) + Duration::from_millis(50 * text.len() as u64);
        return match espeak::write_wav(&text, &lang.speech, &voice_of(settings), path, limit) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                errln!("hector say: {e}");
                ExitCode::from(1)
            }
        };
    }
    let mut config = SpeechConfig::new(settings.backend, &lang.speech, voice_of(settings));
    // A bad configuration value, printed already on standard error: spoken first, as the
    // interactive modes do, but not printed again among the phrases.
    let first = take_first_words();
    if let Some(first) = first.clone() {
        let print = config.sink.clone();
        config.sink = Arc::new(
            move |line: &str| {
                if line == first { Ok(()) } else { print(line) }
            },
        );
    }
    let hang = config.hang_limit;
    let (speaker, notices) = Speaker::start(config);
    if let Some(first) = first {
        speaker.announce(first);
    }
    for p in &phrases {
        speaker.announce(p.clone());
    }
    // Each phrase may need its own length plus one fallback per backend.
    let chars: usize = phrases.iter().map(|p| p.chars().count()).sum();
    let limit = Duration::from_secs(10) + hang * 4 + Duration::from_millis(200 * chars as u64);
    let done = speaker.wait_idle(limit);
    let mut silent = false;
    for n in notices.try_iter() {
        silent |= matches!(n, Notice::Silent { .. });
        errln!("hector: {}", notice_text(&n, lang));
        // The system's own words, on a line of their own, named as such: one language per
        // sentence.
        if let Some(detail) = notice_detail(&n) {
            errln!(
                "hector: {}",
                fill(
                    &lang.messages.speech_system,
                    &[("words", &printable(detail))]
                )
            );
        }
    }
    if !done {
        errln!(
            "hector say: {}",
            fill(
                &lang.messages.say_unfinished,
                &[("seconds", &limit.as_secs().to_string())]
            )
        );
        return ExitCode::from(1);
    }
    if silent {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Lists the voices of each engine, never waiting more than a few seconds for one.
pub(crate) fn voices(lang: Option<&str>) -> ExitCode {
    let engines = [BackendKind::SpeechDispatcher, BackendKind::EspeakNg];
    let receivers: Vec<_> = engines
        .iter()
        .map(|&kind| {
            let (tx, rx) = crossbeam_channel::bounded(1);
            let lang = lang.map(str::to_string);
            // One thread per engine: a speech-dispatcher that hangs does not hold up espeak-ng.
            let _ = std::thread::Builder::new()
                .name("hector-voices".into())
                .spawn(move || {
                    let _ = tx.send(speech::list_voices(kind, lang.as_deref()));
                });
            (kind, rx)
        })
        .collect();
    let mut any = false;
    let mut out = Out::new();
    for (kind, rx) in receivers {
        let written = match rx.recv_timeout(Duration::from_secs(10)) {
            Ok(Ok(list)) if list.is_empty() => out.line(&format!("{kind}: no voices")),
            Ok(Ok(list)) => {
                any = true;
                list.iter()
                    .all(|(name, language)| out.line(&format!("{kind}: {name} ({language})")))
            }
            Ok(Err(e)) => out.line(&format!("{kind}: {e}")),
            Err(_) => out.line(&format!("{kind}: did not answer within 10 seconds")),
        };
        if !written {
            break;
        }
    }
    let code = if any {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    };
    out.finish("hector voices", "cannot write the list: {reason}", code)
}
