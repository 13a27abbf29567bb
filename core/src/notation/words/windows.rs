//! The words only the Windows build says (`[windows]`): the parts of hector that have no
//! Windows form yet, each said in one sentence, and where to get a chess program.

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
    /// No engine found: {name}, {looked}, {folder} (hector's data folder).
    pub engine_not_found: String,
    /// A named engine that does not exist: {path}.
    pub engine_missing: String,
    /// A named engine that is no program: {path}.
    pub engine_not_executable: String,
    /// The engine ended with a Windows error status: {code} (0xC0000005, access violation).
    pub engine_crashed: String,
}
