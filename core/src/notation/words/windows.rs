//! The words about Windows (`[windows]`): the parts of hector that have no Windows form yet,
//! each said in one sentence, where to get a chess program, and the speech that runs only
//! there (NVDA, JAWS, SAPI).

use serde::Deserialize;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WindowsWords {
    /// `--voice`: voice input (PocketSphinx) has no Windows form yet.
    pub voice_unavailable: String,
    /// `--braille on`: hector drives no braille display itself; the screen reader does.
    pub braille_unavailable: String,
    /// `hector simulate-board`: no pseudo-terminals on Windows.
    pub simulator_unavailable: String,
    /// `--speech speech-dispatcher`: it does not run on Windows; {to} speaks instead.
    pub speech_dispatcher: String,
    /// `--speech nvda`, `jaws` or `sapi` on another system: {from} runs only on Windows;
    /// {to} speaks instead.
    pub speech_windows_only: String,
    /// `--speech nvda` or `jaws` while that screen reader is not running: {from}, {to}.
    pub speech_not_running: String,
    /// NVDA's controller client is not beside hector.exe (asked for by name, or NVDA runs):
    /// {to} speaks instead.
    pub speech_client_missing: String,
    /// No engine found: {name}, {looked}, {folder} (hector's data folder).
    pub engine_not_found: String,
    /// A named engine that does not exist: {path}.
    pub engine_missing: String,
    /// A named engine that is no program: {path}.
    pub engine_not_executable: String,
    /// The engine ended with a Windows error status: {code} (0xC0000005, access violation).
    pub engine_crashed: String,
    /// After the screen reader's name where the backend in use is named: it tells the end
    /// of hector's words (NVDA 2024.1 and later), so sounds come after them.
    pub speech_end_reported: String,
    /// The end is estimated from the text's length (JAWS, NVDA before 2024.1).
    pub speech_end_estimated: String,
}
