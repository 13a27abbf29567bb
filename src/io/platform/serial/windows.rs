//! The Windows implementation: a port is named `COMn` (serialport adds the `\\.\` prefix
//! above COM9). Windows says "not found" and "access denied" alike through serialport, and
//! access is denied only while another program holds the port: a port the registry lists is
//! busy then, one it does not list is missing.

use std::path::Path;

use super::Refusal;

/// Any name may be a port: Windows' device names are no files to look at.
pub(crate) fn check_device(_path: &Path) -> Result<(), Refusal> {
    Ok(())
}

/// Whether the registry lists a port of this name.
fn listed(name: &str) -> bool {
    let bare = name.trim_start_matches(r"\\.\");
    serialport::available_ports()
        .is_ok_and(|ports| ports.iter().any(|p| p.port_name.eq_ignore_ascii_case(bare)))
}

/// Why serialport could not open the port `path` (`COM3`).
pub(crate) fn classify(path: &Path, err: &serialport::Error) -> Refusal {
    match err.kind {
        serialport::ErrorKind::NoDevice if listed(&path.to_string_lossy()) => Refusal::Busy,
        serialport::ErrorKind::NoDevice => Refusal::Missing,
        serialport::ErrorKind::Io(std::io::ErrorKind::NotFound) => Refusal::Missing,
        _ => Refusal::Other(err.description.clone()),
    }
}

/// Windows has no group owners of ports.
pub(crate) fn device_group(_path: &Path) -> Option<String> {
    None
}

/// Every user may open a port nobody holds.
pub(crate) fn may_open(_path: &Path) -> bool {
    true
}

/// The registry can always be asked.
pub(crate) fn can_list() -> bool {
    true
}
