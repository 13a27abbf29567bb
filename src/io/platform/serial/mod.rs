//! Serial device ports, where the operating system decides: what may be opened as one, why
//! an open failed, who may open it, which are there. Unix: a character device such as
//! `/dev/ttyACM0`, whose group (`dialout`) a player joins to open it. Windows: `COM3`,
//! which only one program at a time may hold; the ports are listed from the registry.

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub(crate) use unix::*;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
pub(crate) use windows::*;

/// An open serial port (a `TTYPort` on Unix, a `COMPort` on Windows).
pub(crate) type Port = Box<dyn serialport::SerialPort>;

/// Why a serial port cannot be opened, before it is put in words with its path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// No such port (nothing plugged in, a link to nothing).
    Missing,
    /// Another program holds it.
    Busy,
    /// This user may not open it.
    #[cfg_attr(
        windows,
        allow(dead_code, reason = "Windows' port errors do not say it")
    )]
    NoPermission,
    /// It is no serial port (a regular file, another device).
    #[cfg_attr(
        windows,
        allow(dead_code, reason = "Windows' port errors do not say it")
    )]
    NotSerial,
    /// Anything else: the system's words.
    Other(String),
}
