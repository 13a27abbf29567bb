//! The speakers of the modes: speech set up from the settings, the notices about the speech
//! backends in the player's words.

use std::sync::{Arc, Mutex};

use crossbeam_channel::{Receiver, Sender};

use crate::core::notation::{Language, fill};
use crate::core::settings::SpeechSettings;
use crate::io::speech::{self, BackendKind, Notice, Speaker, SpeechConfig, Voice};

/// What the player hears or reads about the speech backends, in their language.
pub(crate) fn notice_text(n: &Notice, lang: &Language) -> String {
    let m = &lang.messages;
    match n {
        Notice::Using(kind, end) => {
            let w = &lang.windows;
            let backend = match end {
                None => kind.name().to_string(),
                Some(e) => {
                    let how = match e {
                        speech::end::End::Reported => &w.speech_end_reported,
                        speech::end::End::Estimated => &w.speech_end_estimated,
                    };
                    format!("{} ({how})", kind.name())
                }
            };
            fill(&m.speech_using, &[("backend", &backend)])
        }
        Notice::Switched {
            from, to, cause, ..
        } => {
            let w = &lang.windows;
            // What is said is the true reason: hung, no sound device, not on this system,
            // not running, or not working.
            let template = match (cause, from) {
                (speech::Cause::Hung, _) => &m.speech_switched,
                (speech::Cause::NoAudio, _) => &m.speech_switched_no_audio,
                (speech::Cause::NotOnThisSystem, BackendKind::SpeechDispatcher) => {
                    &w.speech_dispatcher
                }
                (speech::Cause::NotOnThisSystem, _) => &w.speech_windows_only,
                (speech::Cause::NotRunning, _) => &w.speech_not_running,
                (speech::Cause::ClientMissing, _) => &w.speech_client_missing,
                (speech::Cause::Failed, _) => &m.speech_switched_failed,
            };
            fill(template, &[("from", from.name()), ("to", to.name())])
        }
        Notice::Silent { .. } => m.speech_silent.clone(),
        Notice::NoSound { .. } => m.sound_unplayable.clone(),
    }
}

/// The system's own words behind a notice, for a line of their own on standard error:
/// hector's reading of them is the notice, in the player's language.
pub(crate) fn notice_detail(n: &Notice) -> Option<&str> {
    match n {
        Notice::Switched { system, .. } | Notice::Silent { system, .. } => system.as_deref(),
        // hector's own account of the players it tried is English: not for the player.
        Notice::Using(..) | Notice::NoSound { .. } => None,
    }
}

/// A sentence the first speaker of this run says before anything else: a problem with the
/// configuration file, printed as soon as it was found, before any speaker existed.
static FIRST_WORDS: Mutex<Option<String>> = Mutex::new(None);

/// Has the first speaker of an interactive mode say `text` first, once.
pub(crate) fn say_first(text: String) {
    if let Ok(mut first) = FIRST_WORDS.lock() {
        *first = Some(text);
    }
}

/// The sentence left by [`say_first`], taken: for a speaker that says it itself.
pub(crate) fn take_first_words() -> Option<String> {
    FIRST_WORDS.lock().ok().and_then(|mut first| first.take())
}

/// Says the sentence left by [`say_first`], if any: as a move is, queued and never dropped
/// for a newer answer (the mode's greeting comes right after it).
fn speak_first_words(speaker: &Speaker) {
    if let Some(text) = take_first_words() {
        speaker.say(speech::Kind::Move, text);
    }
}

/// The voice the settings ask for.
pub(crate) fn voice_of(s: &SpeechSettings) -> Voice {
    Voice {
        rate: s.rate,
        volume: s.volume,
        name: s.voice.clone(),
        reader_wpm: s.screen_reader_rate,
    }
}

/// A speaker whose print backend writes nothing: for callers that print every sentence
/// themselves, so a print fallback would only repeat it.
pub(crate) fn quiet_speaker(
    settings: &SpeechSettings,
    lang: &Language,
) -> (Speaker, Receiver<Notice>) {
    let mut config = SpeechConfig::new(settings.backend, &lang.speech, voice_of(settings));
    config.sink = Arc::new(|_: &str| Ok(()));
    config.sounds = crate::io::speech::sounds::for_settings(&settings.sound);
    let (speaker, notices) = Speaker::start(config);
    speak_first_words(&speaker);
    (speaker, notices)
}

/// The speaker of an interactive mode on the full screen or in plain lines. The mode shows
/// every sentence itself (the full screen's "last said" lines, or a printed line each), so
/// the print backend shows nothing more. In line mode the lines are the output and a screen
/// reader reads them, so hector's own speech is that silent print backend unless the player
/// chose a backend (`chosen`).
pub(crate) fn mode_speaker<E: Send + 'static>(
    settings: &SpeechSettings,
    chosen: bool,
    full_screen: bool,
    lang: &Language,
    events: &Sender<E>,
    notice: fn(Notice) -> E,
) -> Speaker {
    let mut settings = settings.clone();
    if !full_screen && !chosen {
        settings.backend = crate::core::settings::BackendChoice::Print;
    }
    app_speaker(&settings, lang, events, None, notice)
}

/// The speaker of an interactive mode. Notices about the backend arrive on `events` as
/// `notice(n)`. Printed speech goes to `events` as `printed(text)` when a screen shows it
/// (full-screen); without one (line mode) the mode prints every sentence itself.
pub(crate) fn app_speaker<E: Send + 'static>(
    settings: &SpeechSettings,
    lang: &Language,
    events: &Sender<E>,
    printed: Option<fn(String) -> E>,
    notice: fn(Notice) -> E,
) -> Speaker {
    let mut config = SpeechConfig::new(settings.backend, &lang.speech, voice_of(settings));
    config.sounds = crate::io::speech::sounds::for_settings(&settings.sound);
    if let Some(wrap) = printed {
        let tx = events.clone();
        config.sink = Arc::new(move |text: &str| {
            let _ = tx.send(wrap(text.to_string()));
            Ok(())
        });
    } else {
        config.sink = Arc::new(|_: &str| Ok(()));
    }
    let (speaker, notices) = Speaker::start(config);
    speak_first_words(&speaker);
    let tx = events.clone();
    // Without this thread the notices would be lost; if it cannot start, they are.
    let _ = std::thread::Builder::new()
        .name("hector-notices".into())
        .spawn(move || {
            for n in notices.iter() {
                if tx.send(notice(n)).is_err() {
                    return;
                }
            }
        });
    speaker
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_backend_without_a_sound_device_is_named_as_such() {
        let de = crate::core::notation::language("de").expect("de");
        let words = notice_text(
            &Notice::Switched {
                from: BackendKind::EspeakNg,
                to: BackendKind::Print,
                cause: speech::Cause::NoAudio,
                reason: String::new(),
                system: None,
            },
            de,
        );
        assert_eq!(
            words,
            "espeak-ng findet keinen Tonausgang, weiter mit print"
        );
    }

    fn switched(from: BackendKind, cause: speech::Cause, lang: &str) -> String {
        let lang = crate::core::notation::language(lang).expect("a language");
        notice_text(
            &Notice::Switched {
                from,
                to: BackendKind::Tts,
                cause,
                reason: String::new(),
                system: None,
            },
            lang,
        )
    }

    #[test]
    fn a_screen_reader_that_cannot_speak_is_named_with_its_reason() {
        use speech::Cause::*;
        assert_eq!(
            switched(BackendKind::Nvda, NotRunning, "en"),
            "NVDA is not running; hector speaks with tts instead"
        );
        assert_eq!(
            switched(BackendKind::Nvda, ClientMissing, "en"),
            "hector cannot reach NVDA because nvdaControllerClient64.dll is not beside \
             hector.exe; hector speaks with tts instead"
        );
        assert_eq!(
            switched(BackendKind::Jaws, NotOnThisSystem, "de"),
            "JAWS gibt es nur unter Windows; hector spricht stattdessen mit tts"
        );
        // speech-dispatcher keeps its own sentence.
        assert_eq!(
            switched(BackendKind::SpeechDispatcher, NotOnThisSystem, "en"),
            "speech-dispatcher does not run on Windows; hector speaks with tts instead"
        );
        // Every language has the sentences, each naming what speaks instead.
        for lang in ["de", "en", "es", "fr", "nl"] {
            for cause in [NotRunning, ClientMissing, NotOnThisSystem] {
                let words = switched(BackendKind::Nvda, cause, lang);
                assert!(
                    words.contains("tts") && !words.contains('{'),
                    "{lang}: {words}"
                );
            }
        }
    }

    /// The backend in use is named with how a screen reader's end is known, which tells the
    /// player whether a sound can start over the words before it.
    #[test]
    fn a_screen_reader_in_use_is_named_with_how_its_end_is_known() {
        use speech::end::End;
        let using = |kind, end, lang| {
            let lang = crate::core::notation::language(lang).expect("a language");
            notice_text(&Notice::Using(kind, end), lang)
        };
        assert_eq!(
            using(BackendKind::Nvda, Some(End::Reported), "de"),
            "Sprachausgabe: NVDA (Ende gemeldet)"
        );
        assert_eq!(
            using(BackendKind::Jaws, Some(End::Estimated), "en"),
            "Speech: JAWS (end estimated)"
        );
        assert_eq!(
            using(BackendKind::SpeechDispatcher, None, "en"),
            "Speech: speech-dispatcher"
        );
        for lang in ["de", "en", "es", "fr", "nl"] {
            let words: Vec<String> = [End::Reported, End::Estimated]
                .into_iter()
                .map(|e| using(BackendKind::Nvda, Some(e), lang))
                .collect();
            assert!(
                words
                    .iter()
                    .all(|w| w.contains("NVDA (") && !w.contains('{')),
                "{lang}: {words:?}"
            );
            assert!(words[0] != words[1], "{lang}: {words:?}");
        }
    }
}
