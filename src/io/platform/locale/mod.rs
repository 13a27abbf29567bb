//! The language the system is set to for messages, which hector speaks when neither
//! `--lang` nor the configuration file names one.
//!
//! Unix: the locale's variables in POSIX order, `LC_ALL`, then `LC_MESSAGES`, then `LANG`
//! (the first one set and not empty decides, as for every program's messages). Windows: the
//! same variables when set (a shell such as MSYS sets them), else the user's interface
//! language (`GetUserDefaultUILanguage`).

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub(crate) use unix::*;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
pub(crate) use windows::*;

/// The variables of a locale that name the messages' language, the strongest first.
const VARIABLES: [&str; 3] = ["LC_ALL", "LC_MESSAGES", "LANG"];

/// The messages' locale the environment names ("fr_FR.UTF-8", "C"), if any.
fn from_environment() -> Option<String> {
    VARIABLES
        .iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|value| !value.is_empty())
}
