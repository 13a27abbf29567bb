//! Serial ports for boards: listing them, opening them with a reason when that fails, a
//! reader thread per port that survives unplugging, and pseudo-terminals for the simulator.
//!
//! Thin on purpose: bytes and instants go out on a channel, commands come in as bytes; what the
//! bytes mean is decided in `core::board` (and combined with it in `io::board_link`).

//! The port's rate and framing are a protocol's (`core::board::Codec::serial`), never chosen
//! here. Only what is re-exported below is seen outside.

mod list;
mod port;

pub use crate::io::platform::pty::Pty;
pub(crate) use list::list_ports;
pub(crate) use port::{OpenError, PortEvent};
pub(crate) use port::{PortSettings, SerialLink};
