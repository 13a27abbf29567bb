//! Serial ports for boards: listing them, opening them with a reason when that fails, a
//! reader thread per port that survives unplugging, and pseudo-terminals for the simulator.
//!
//! Thin on purpose: bytes and instants go out on a channel, commands come in as bytes; what the
//! bytes mean is decided in `core::board` (and combined with it in `io::board_link`).

pub mod list;
pub mod port;

pub use crate::io::platform::pty;

pub use list::{PortInfo, PortKind, list_ports};
pub use port::{
    DGT_BAUD, OpenError, PEG_BAUD, PortEvent, PortSettings, PortWriter, RECONNECT_EVERY,
    SerialLink, open_port,
};
pub use pty::Pty;
