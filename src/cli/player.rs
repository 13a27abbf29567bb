//! The spoken player's options resolved once. Every mode is handed a [`Player`]: the
//! configuration file read once, the language chosen in one order, the mode's words and the
//! speech output over it. Nothing after this reads `--lang` or the file's language again.
//!
//! The language's order: `--lang` (or, for a game continued, the language its journal
//! recorded), else the configuration file's `[speech] language` when it names one, else the
//! system's language (the locale: `LC_ALL`, `LC_MESSAGES`, `LANG`; on Windows also the user's
//! interface language, through `io::platform::locale`) when hector has a table for it, else
//! German, the FIDE wording. A code that names no table is refused in the language of
//! [`fallback`]: the same order without `--lang`.

use crate::core::mode::Mode;
use crate::core::notation::{Language, WordSet, default_language, language, of_locale};
use crate::core::settings::{BackendChoice, Settings, SpeechSettings};

use super::args::{LangArg, PlayerArgs, ToolWordsArgs, VoiceArg, WordingArgs};
use super::fatal::{Fatal, refuse};

/// What a mode speaks with, resolved once from its options and the configuration file.
pub(super) struct Player {
    /// The language's table, with the words the mode announces with.
    pub(crate) lang: &'static Language,
    /// The file's speech settings with `--speech` over them; their language is `lang`'s.
    pub(crate) speech: SpeechSettings,
    /// A speech output was chosen, by option or in the file, rather than left to auto.
    pub(crate) speech_chosen: bool,
    /// The whole configuration file, read once.
    pub(crate) config: Settings,
}

/// The player's options as given: what [`PlayerArgs`] (or a part of it) holds.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Asked<'a> {
    pub(crate) lang: Option<&'a str>,
    pub(crate) words: Option<WordSet>,
    pub(crate) speech: Option<BackendChoice>,
    /// The sound options, where the mode has them.
    pub(crate) sound: Option<&'a super::args::SoundArgs>,
}

impl PlayerArgs {
    pub(super) fn asked(&self) -> Asked<'_> {
        Asked {
            lang: self.lang.lang.as_deref(),
            words: self.words.words.map(Into::into),
            speech: self.speech.speech.map(Into::into),
            sound: Some(&self.sound),
        }
    }

    /// `mode`'s player (a refused language is said, as the mode would speak).
    pub(super) fn resolve(&self, mode: Mode) -> Result<Player, Fatal> {
        Player::of(Some(mode), self.asked())
    }
}

impl ToolWordsArgs {
    /// A printing tool's language and words: `--words`, else the language's own (the
    /// `[announcement]` of `mode` when the tool has one). A refused language is printed only.
    pub(super) fn resolve(&self, mode: Option<Mode>) -> Result<Player, Fatal> {
        let asked = Asked {
            lang: self.lang.lang.as_deref(),
            words: self.words.words.map(Into::into),
            speech: None,
            sound: None,
        };
        Player::of(mode, asked).map_err(Fatal::unspoken)
    }
}

impl LangArg {
    /// A tool's language, without words or speech; a refused language is printed only.
    pub(super) fn resolve(&self) -> Result<&'static Language, Fatal> {
        let asked = Asked {
            lang: self.lang.as_deref(),
            ..Asked::default()
        };
        Ok(Player::of(None, asked).map_err(Fatal::unspoken)?.lang)
    }
}

impl Player {
    /// Reads the configuration file and the system's locale, then resolves as
    /// [`Player::resolve`].
    pub(crate) fn of(mode: Option<Mode>, asked: Asked<'_>) -> Result<Player, Fatal> {
        let locale = system_locale();
        Player::resolve(read_config(asked.lang), locale.as_deref(), mode, asked)
    }

    /// The one resolution. The language by the order of this module (`locale` is the
    /// system's, as [`system_locale`] reads it); the words by `[announcement]` for `mode`
    /// (`--words` over the file's over the mode's default), the language's own for a tool
    /// without a mode; the speech output `--speech` over the file's. An unknown language is
    /// refused, said in the [`fallback`] language.
    pub(crate) fn resolve(
        config: Settings,
        locale: Option<&str>,
        mode: Option<Mode>,
        asked: Asked<'_>,
    ) -> Result<Player, Fatal> {
        let mut speech = config.speech.clone();
        let speech_chosen = asked.speech.is_some() || config.speech.backend != BackendChoice::Auto;
        if let Some(b) = asked.speech {
            speech.backend = b;
        }
        speech.sound = match asked.sound {
            Some(args) => args.apply(config.sound.clone()),
            None => config.sound.clone(),
        };
        let table = match asked.lang.or(config.speech.language.as_deref()) {
            Some(code) => match language(code) {
                Ok(table) => table,
                Err(e) => {
                    let lang = unasked(&config, locale);
                    let mut said = speech.clone();
                    said.language = Some(lang.code.clone());
                    return Err(refuse(&refusal_words(&e, lang), &said, lang));
                }
            },
            None => unasked(&config, locale),
        };
        speech.language = Some(table.code.clone());
        let words = match mode {
            Some(m) => config.announcement.words(m, asked.words),
            None => asked.words.unwrap_or(WordSet::Language),
        };
        Ok(Player {
            lang: table.with_words(words),
            speech,
            speech_chosen,
            config,
        })
    }

    /// The file's `[words]` with the mode's wording options over them.
    /// The capture and check words are left out where the player asked a sound to say them
    /// (`--cues-only-for`), while sounds are on.
    pub(crate) fn wording(&self, args: &WordingArgs) -> crate::core::notation::Wording {
        self.cued_wording(args.apply(self.config.words))
    }

    /// `w` with the capture and check words left out where the player asked a sound to say
    /// them (`--cues-only-for`), while sounds are on: the modes without wording options.
    pub(crate) fn cued_wording(
        &self,
        mut w: crate::core::notation::Wording,
    ) -> crate::core::notation::Wording {
        let sound = &self.speech.sound;
        if sound.cues
            && let Ok(only) = sound.cues_only()
        {
            w.capture_words &= !only.captures;
            w.check_words &= !only.check;
        }
        w
    }

    /// What the mode is asked to do with voice: the file's `[voice]` with `--voice` and its
    /// options over it; nothing unless it is on.
    pub(crate) fn voice(
        &self,
        arg: &VoiceArg,
    ) -> Option<crate::app::services::voice::VoiceOptions> {
        let mut v = self.config.voice.clone();
        v.enabled |= arg.voice;
        if arg.model.voice_model.is_some() {
            v.model.clone_from(&arg.model.voice_model);
        }
        v.always_ask |= arg.model.voice_always_ask;
        v.enabled
            .then(|| crate::app::services::voice::VoiceOptions {
                model: v.model.clone(),
                always_ask: v.always_ask,
            })
    }

    /// A start-up problem of the mode: printed and said in its speech and language.
    pub(crate) fn refuse(&self, message: &str) -> Fatal {
        refuse(message, &self.speech, self.lang)
    }

    /// A start-up option whose value cannot be used ("--tc: …"), printed and said.
    pub(crate) fn refuse_option(&self, option: &str, why: &str) -> Fatal {
        self.refuse(&crate::core::notation::refusals::option_words(
            option, why, self.lang,
        ))
    }

    /// The speech of a mode that prints every sentence itself (analyse, board monitor):
    /// nothing printed twice.
    pub(crate) fn printing_speaker(&self) -> crate::io::speech::Speaker {
        crate::app::services::speaker::quiet_speaker(&self.speech, self.lang).0
    }
}

/// The language hector speaks when the one asked for cannot be used, or before one is
/// known (a command line clap could not read, a game whose journal is not read yet): the
/// order of this module without `--lang`. The one fallback.
pub(super) fn fallback(config: &Settings) -> &'static Language {
    unasked(config, system_locale().as_deref())
}

/// The language when `--lang` names none: the file's, else the system's (`locale`), else
/// German.
fn unasked(config: &Settings, locale: Option<&str>) -> &'static Language {
    config
        .speech
        .language
        .as_deref()
        .and_then(|code| language(code).ok())
        .or_else(|| locale.and_then(of_locale))
        .unwrap_or_else(default_language)
}

/// The system's locale for messages, read where it is kept (the environment; on Windows
/// also the user's interface language).
pub(super) fn system_locale() -> Option<String> {
    crate::io::platform::locale::messages_locale()
}

/// Why a language cannot be used, in `lang`'s words.
fn refusal_words(e: &crate::core::notation::LanguageError, lang: &Language) -> String {
    use crate::core::notation::{LanguageError, codes, fill};
    match e {
        LanguageError::Unknown(code, _) => fill(
            &lang.usage.unknown_language,
            &[
                ("code", &crate::core::notation::printable(code)),
                ("codes", &codes().join(", ")),
            ],
        ),
        // A table that does not load is the build's fault: its own words name the file.
        LanguageError::Broken(..) => e.to_string(),
    }
}

/// The configuration file, read once; a problem with it is printed (in the language asked
/// for when it is known, else the system's, else German), said first by an interactive
/// mode's speech, and its defaults used.
pub(super) fn read_config(lang_hint: Option<&str>) -> Settings {
    let (settings, problem) = crate::io::config::load_settings();
    if let Some((path, problem)) = problem {
        let lang = lang_hint
            .and_then(|l| language(l).ok())
            .or_else(|| system_locale().as_deref().and_then(of_locale))
            .unwrap_or_else(default_language);
        let words = config_problem_words(&path, problem, lang);
        errln!("hector: {words}");
        // Printed now; spoken by the mode's speaker as soon as it starts.
        crate::app::services::speaker::say_first(words);
    }
    settings
}

fn config_problem_words(
    path: &std::path::Path,
    problem: crate::io::config::ConfigProblem,
    lang: &Language,
) -> String {
    use crate::core::notation::fill;
    use crate::core::notation::printable;
    use crate::core::settings::SettingsError;
    use crate::io::config::{ConfigProblem, MAX_CONFIG_BYTES};
    let m = &lang.messages;
    let path = printable(&path.display().to_string()).into_owned();
    match problem {
        ConfigProblem::Missing => fill(&m.config_missing, &[("path", &path)]),
        ConfigProblem::NotAFile => fill(&m.config_not_file, &[("path", &path)]),
        ConfigProblem::TooLarge => fill(
            &m.config_too_large,
            &[
                ("path", &path),
                ("kib", &(MAX_CONFIG_BYTES / 1024).to_string()),
            ],
        ),
        ConfigProblem::NotText => fill(&m.config_not_text, &[("path", &path)]),
        ConfigProblem::Invalid(SettingsError::Rate(v)) => fill(
            &m.config_rate,
            &[("path", &path), ("value", &v.to_string())],
        ),
        ConfigProblem::Invalid(SettingsError::Volume(v)) => fill(
            &m.config_volume,
            &[("path", &path), ("value", &v.to_string())],
        ),
        ConfigProblem::Invalid(SettingsError::BrailleHold(v)) => fill(
            &m.config_braille_hold,
            &[
                ("path", &path),
                ("value", &v.to_string()),
                ("max", &crate::core::settings::MAX_BRAILLE_HOLD.to_string()),
            ],
        ),
        ConfigProblem::Invalid(SettingsError::ScreenReaderRate(v)) => {
            let rates = crate::core::settings::SCREEN_READER_RATES;
            fill(
                &m.config_screen_reader_rate,
                &[
                    ("path", &path),
                    ("value", &v.to_string()),
                    ("min", &rates.start().to_string()),
                    ("max", &rates.end().to_string()),
                ],
            )
        }
        ConfigProblem::Invalid(SettingsError::Language(code, known)) => fill(
            &m.config_language,
            &[
                ("path", &path),
                ("value", &printable(&code)),
                ("known", &known),
            ],
        ),
        ConfigProblem::Invalid(SettingsError::SoundVolume(v)) => fill(
            &m.config_sound_volume,
            &[("path", &path), ("value", &printable(&v))],
        ),
        ConfigProblem::Invalid(SettingsError::SoundLowClock(v)) => fill(
            &m.config_sound_low_clock,
            &[("path", &path), ("value", &printable(&v))],
        ),
        ConfigProblem::Invalid(SettingsError::SoundOnlyFor(v)) => fill(
            &m.config_sound_only_for,
            &[("path", &path), ("value", &printable(&v))],
        ),
        ConfigProblem::Invalid(SettingsError::SoundCues(v)) => fill(
            &m.config_sound_cues,
            &[("path", &path), ("value", &printable(&v))],
        ),
        ConfigProblem::Invalid(SettingsError::SoundIconFolder(v)) => fill(
            &m.config_sound_icon_folder,
            &[("path", &path), ("value", &printable(&v))],
        ),
        ConfigProblem::Invalid(SettingsError::SyntaxAt { line, reason }) => fill(
            &m.config_syntax_at,
            &[
                ("path", &path),
                ("line", &line.to_string()),
                ("reason", &printable(&reason)),
            ],
        ),
        // The system's or the TOML reader's own words, quoted after the colon.
        ConfigProblem::Unreadable(reason)
        | ConfigProblem::Invalid(SettingsError::Syntax(reason)) => fill(
            &m.config_ignored,
            &[("path", &path), ("reason", &printable(&reason))],
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::settings::WordSet;

    fn config(code: &str, backend: BackendChoice) -> Settings {
        let mut c = Settings::default();
        c.speech.language = Some(code.to_string());
        c.speech.backend = backend;
        c
    }

    /// Every flag over every file's language: the flag wins, else the file, and the speech
    /// settings carry the table's code.
    #[test]
    fn the_language_is_the_flag_else_the_files() {
        let codes = crate::core::notation::codes();
        for file in &codes {
            let none = Player::resolve(
                config(file, BackendChoice::Auto),
                None,
                None,
                Asked::default(),
            )
            .ok()
            .expect("the file's language");
            assert_eq!(none.lang.code, *file);
            assert_eq!(none.speech.language.as_deref(), Some(*file));
            for flag in &codes {
                let asked = Asked {
                    lang: Some(flag),
                    ..Asked::default()
                };
                let p = Player::resolve(
                    config(file, BackendChoice::Auto),
                    None,
                    Some(Mode::Play),
                    asked,
                )
                .ok()
                .expect("the flag's language");
                assert_eq!(
                    (p.lang.code.as_str(), p.speech.language.as_deref()),
                    (*flag, Some(*flag))
                );
            }
        }
        let default = Player::resolve(Settings::default(), None, None, Asked::default())
            .ok()
            .expect("German");
        assert_eq!(default.lang.code, "de");
    }

    /// Without --lang: the file's language when it names one, else the system's when hector
    /// has it, else German; a flag over all of them.
    #[test]
    fn the_system_language_comes_after_the_file() {
        let code = |file: Option<&str>, locale: Option<&str>, flag: Option<&str>| {
            let mut config = Settings::default();
            config.speech.language = file.map(str::to_string);
            let asked = Asked {
                lang: flag,
                ..Asked::default()
            };
            let p = Player::resolve(config, locale, Some(Mode::Play), asked)
                .ok()
                .expect("a language");
            (p.lang.code.clone(), p.speech.language)
        };
        let is = |c: &str| (c.to_string(), Some(c.to_string()));
        assert_eq!(code(None, Some("fr_FR.UTF-8"), None), is("fr"));
        assert_eq!(code(None, Some("nl_BE@euro"), None), is("nl"));
        assert_eq!(code(None, Some("C"), None), is("de"));
        assert_eq!(code(None, Some("it_IT.UTF-8"), None), is("de"));
        assert_eq!(code(None, None, None), is("de"));
        assert_eq!(code(Some("de"), Some("fr_FR.UTF-8"), None), is("de"));
        assert_eq!(code(Some("en"), Some("fr_FR.UTF-8"), None), is("en"));
        assert_eq!(code(Some("en"), Some("fr_FR.UTF-8"), Some("es")), is("es"));
        assert_eq!(code(None, Some("fr_FR.UTF-8"), Some("nl")), is("nl"));
    }

    /// An unknown code is refused, said in the file's language (the one fallback).
    #[test]
    fn an_unknown_language_is_refused_in_the_files() {
        let asked = Asked {
            lang: Some("xx"),
            ..Asked::default()
        };
        let Err(refused) = Player::resolve(
            config("en", BackendChoice::Print),
            None,
            Some(Mode::Watch),
            asked,
        ) else {
            panic!("xx was taken");
        };
        let (message, spoken) = refused.said();
        assert!(message.contains("xx"), "{message}");
        assert_eq!(spoken, Some("en"));
        assert_eq!(unasked(&config("xx", BackendChoice::Auto), None).code, "de");
    }

    /// The words: --words over the file's [announcement] over the mode's default; a tool
    /// without a mode, the language's own.
    #[test]
    fn the_words_follow_the_mode() {
        let words = |mode: Option<Mode>, chosen: Option<WordSet>| {
            let asked = Asked {
                lang: Some("en"),
                words: chosen,
                speech: None,
                sound: None,
            };
            Player::resolve(Settings::default(), None, mode, asked)
                .ok()
                .expect("en")
                .lang
                .words
        };
        assert_eq!(words(Some(Mode::Assist), None), WordSet::Fide);
        assert_eq!(words(Some(Mode::Arbiter), None), WordSet::Fide);
        assert_eq!(words(Some(Mode::Play), None), WordSet::Language);
        assert_eq!(words(None, None), WordSet::Language);
        assert_eq!(
            words(Some(Mode::Assist), Some(WordSet::Language)),
            WordSet::Language
        );
        assert_eq!(words(None, Some(WordSet::Fide)), WordSet::Fide);
    }

    /// A speech output is chosen when the option names one or the file does.
    #[test]
    fn the_speech_output_is_the_options_over_the_files() {
        let resolve = |file: BackendChoice, option: Option<BackendChoice>| {
            let asked = Asked {
                speech: option,
                ..Asked::default()
            };
            let p = Player::resolve(config("de", file), None, Some(Mode::Play), asked)
                .ok()
                .expect("de");
            (p.speech.backend, p.speech_chosen)
        };
        assert_eq!(
            resolve(BackendChoice::Auto, None),
            (BackendChoice::Auto, false)
        );
        assert_eq!(
            resolve(BackendChoice::EspeakNg, None),
            (BackendChoice::EspeakNg, true)
        );
        assert_eq!(
            resolve(BackendChoice::EspeakNg, Some(BackendChoice::Print)),
            (BackendChoice::Print, true)
        );
        assert_eq!(
            resolve(BackendChoice::Auto, Some(BackendChoice::Auto)),
            (BackendChoice::Auto, true)
        );
    }
}
