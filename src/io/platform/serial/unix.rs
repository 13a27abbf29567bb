//! The Unix implementation: a port is a character device; its group owner says who may
//! open it; `access(2)` says whether this user may.

use std::io;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::Path;

use nix::unistd::{AccessFlags, access};

use super::Refusal;

/// What stands at `path` may be opened as a port: a character device.
pub(crate) fn check_device(path: &Path) -> Result<(), Refusal> {
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => Refusal::Missing,
        io::ErrorKind::PermissionDenied => Refusal::NoPermission,
        _ => Refusal::Other(e.to_string()),
    })?;
    if !meta.file_type().is_char_device() {
        return Err(Refusal::NotSerial);
    }
    Ok(())
}

/// Why serialport could not open the port at `path`.
pub(crate) fn classify(_path: &Path, err: &serialport::Error) -> Refusal {
    use serialport::ErrorKind;
    match err.kind {
        ErrorKind::Io(io::ErrorKind::NotFound) => Refusal::Missing,
        ErrorKind::Io(io::ErrorKind::PermissionDenied) => Refusal::NoPermission,
        // serialport reports EBUSY (TIOCEXCL) and a held lock as NoDevice.
        ErrorKind::NoDevice => Refusal::Busy,
        _ if err.description.contains("Inappropriate ioctl") => Refusal::NotSerial,
        _ => Refusal::Other(err.description.clone()),
    }
}

/// The name of the group that owns the device at `path` (who may open it), if it can be
/// found.
pub(crate) fn device_group(path: &Path) -> Option<String> {
    let gid = std::fs::metadata(path).ok()?.gid();
    nix::unistd::Group::from_gid(nix::unistd::Gid::from_raw(gid))
        .ok()
        .flatten()
        .map(|g| g.name)
}

/// Whether this user may open the port at `path` for reading and writing.
pub(crate) fn may_open(path: &Path) -> bool {
    access(path, AccessFlags::R_OK | AccessFlags::W_OK).is_ok()
}

/// Whether the ports can be listed: serialport's sysfs scan panics when /sys/class/tty is
/// missing (a container without sysfs); there are no ports to list then.
pub(crate) fn can_list() -> bool {
    Path::new("/sys/class/tty").is_dir()
}
