//! The words of voice input in a language table (`[voice]`).

use serde::Deserialize;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VoiceWords {
    /// Asking back what was heard: {phrase} ("Springer Felix drei?").
    pub(crate) ask: String,
    /// A "yes" heard without confidence: the question again.
    pub unsure: String,
    /// Asking back two moves in one question: {first}, {second} ("Eva vier, oder zweitens:
    /// Eva drei?"); the words of `second` name the second.
    pub(crate) ask_two: String,
    /// The words that take the second move, said or typed; the first is the one listened
    /// for and named in `ask_two`.
    pub second: Vec<String>,
    /// An unsure answer to a two-move question: the question again.
    pub unsure_two: String,
    /// `hector listen --details`: the move a two-move question names second: {move}.
    pub details_second: String,
    /// `hector listen --details`: the legal move one near word away: {move}.
    pub details_near: String,
    /// Nothing understood.
    pub nothing: String,
    /// Said when the microphone listens.
    pub listening: String,
    /// The listening key in a game started without --voice.
    pub not_asked: String,
    /// The listening key when voice input could not be set up (said once at the start).
    pub not_working: String,
    /// A phrase longer than the longest one: {seconds}.
    pub cut: String,
    /// PocketSphinx is missing: {reason} (the loader's words).
    pub no_library: String,
    /// Debian's English model is missing: {dir}.
    pub no_default_model: String,
    /// No acoustic model in a folder the player named: {dir}.
    pub no_model: String,
    /// The model was found and cannot be read: {dir}.
    pub model_refused: String,
    /// Neither hector nor the model has a pronunciation dictionary: {language}.
    pub no_dictionary: String,
    /// Words the dictionary lacks: {words}.
    pub unknown_words: String,
    /// No recorder works: {reasons}, each one of the three below.
    pub no_microphone: String,
    /// {program} is not installed.
    pub recorder_missing: String,
    /// {program} stopped at once: {reason} (its own words).
    pub recorder_failed: String,
    /// {program} sent no sound.
    pub recorder_silent: String,
    /// The microphone's recorder ended while listening: {program}, {reason}.
    pub recorder_ended: String,
    /// A file that cannot be read: {file}, {reason} (the system's words).
    pub cannot_read: String,
    /// The voice log cannot be kept: {reason}.
    pub log_refused: String,
    /// A file that is no WAV recording hector can read: {file}, {reason}, one of the below.
    pub not_wav: String,
    /// Not RIFF/WAVE; no format chunk; an encoding: {format}; bits per sample: {bits};
    /// no channels or no rate; no sound data; a rate out of range: {rate}.
    pub wav_reasons: [String; 7],
    /// The recogniser failed inside: a defect to report.
    pub failed: String,
    /// `hector listen --details`: what each grammar heard and the tests' results. {position},
    /// {language}, {second}, {agree}, {coverage}, {margin}, {decided}.
    pub details: String,
    /// In the details: no phrase fitted.
    pub none: String,
    /// In the details: the second pass did not run.
    pub not_run: String,
    pub agree_yes: String,
    pub agree_no: String,
}

impl VoiceWords {
    /// Placeholders each template must keep, checked when the table loads.
    pub(crate) fn placeholders(&self) -> [(&'static str, &str, &'static [&'static str]); 22] {
        [
            ("voice.ask", &self.ask, &["{phrase}"]),
            ("voice.ask_two", &self.ask_two, &["{first}", "{second}"]),
            ("voice.details_second", &self.details_second, &["{move}"]),
            ("voice.details_near", &self.details_near, &["{move}"]),
            ("voice.cut", &self.cut, &["{seconds}"]),
            ("voice.no_library", &self.no_library, &["{reason}"]),
            ("voice.no_default_model", &self.no_default_model, &["{dir}"]),
            ("voice.no_model", &self.no_model, &["{dir}"]),
            ("voice.model_refused", &self.model_refused, &["{dir}"]),
            ("voice.no_dictionary", &self.no_dictionary, &["{language}"]),
            ("voice.unknown_words", &self.unknown_words, &["{words}"]),
            ("voice.no_microphone", &self.no_microphone, &["{reasons}"]),
            (
                "voice.recorder_missing",
                &self.recorder_missing,
                &["{program}"],
            ),
            (
                "voice.recorder_failed",
                &self.recorder_failed,
                &["{program}", "{reason}"],
            ),
            (
                "voice.recorder_silent",
                &self.recorder_silent,
                &["{program}"],
            ),
            (
                "voice.recorder_ended",
                &self.recorder_ended,
                &["{program}", "{reason}"],
            ),
            ("voice.not_wav", &self.not_wav, &["{file}", "{reason}"]),
            (
                "voice.cannot_read",
                &self.cannot_read,
                &["{file}", "{reason}"],
            ),
            ("voice.wav_reasons[2]", &self.wav_reasons[2], &["{format}"]),
            ("voice.wav_reasons[3]", &self.wav_reasons[3], &["{bits}"]),
            ("voice.wav_reasons[6]", &self.wav_reasons[6], &["{rate}"]),
            (
                "voice.details",
                &self.details,
                &[
                    "{position}",
                    "{language}",
                    "{second}",
                    "{agree}",
                    "{coverage}",
                    "{margin}",
                    "{decided}",
                ],
            ),
        ]
    }
}
