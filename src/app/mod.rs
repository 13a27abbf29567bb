//! The application: the modes, and the services several modes share. A mode parses nothing
//! itself (clap did, in cli), wires adapters to the pure core and reports; only cli names a
//! mode. A service is named by modes and by other services, never names a mode.

pub mod modes;
pub(crate) mod services;
