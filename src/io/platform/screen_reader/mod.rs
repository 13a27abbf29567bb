//! Speech through the screen reader that runs, and the system's own voices, where the system
//! has them (Windows): NVDA through its controller client `nvdaControllerClient64.dll`, loaded
//! at run time from beside hector.exe; JAWS through its automation object
//! `FreedomSci.JawsApi`; SAPI 5 through `SAPI.SpVoice`. Elsewhere there are none: Linux's
//! screen readers (Orca, speakup) read hector's lines, and speech-dispatcher speaks.
//!
//! Every object here is made and used on one thread (the speech worker's), never sent to
//! another: the COM objects live in that thread's apartment.

#[cfg(windows)]
mod windows;
#[cfg(windows)]
pub(crate) use windows::*;

/// The file name of NVDA's controller client, as NV Access shipped it (64-bit) before 2024.1.
#[cfg(windows)]
pub(crate) const NVDA_CLIENT: &str = "nvdaControllerClient64.dll";
/// Its name from NVDA 2024.1 on (the one for hector's architecture is the x64 folder's),
/// with `speakSsml`: tried first.
#[cfg(windows)]
pub(crate) const NVDA_CLIENT_2024: &str = "nvdaControllerClient.dll";

/// Why NVDA cannot be reached.
#[cfg(windows)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum NvdaError {
    /// The controller client is not beside hector.exe (the loader's words).
    ClientMissing(String),
    /// The client answered that NVDA does not run (its status code, an RPC error).
    NotRunning(u32),
    /// The client lacks a function hector calls.
    Broken(String),
}
