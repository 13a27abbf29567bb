//! The serial ports of this computer and what is known of each (from sysfs, through
//! serialport's enumeration: no libudev needed).

use std::path::PathBuf;

use serialport::SerialPortType;

use crate::io::platform::serial as device;

/// How a port is attached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PortKind {
    Usb {
        vid: u16,
        pid: u16,
        manufacturer: Option<String>,
        product: Option<String>,
        serial_number: Option<String>,
    },
    Pci,
    Bluetooth,
    Unknown,
}

/// One serial port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PortInfo {
    pub(crate) path: PathBuf,
    pub(crate) kind: PortKind,
    /// This user may open it for reading and writing.
    pub(crate) accessible: bool,
    /// The group that owns the device (who may open it).
    pub(crate) group: Option<String>,
}

impl PortInfo {
    /// One line: "/dev/ttyACM0: USB, vendor 2341, product 0043, manufacturer Arduino, …".
    pub(crate) fn describe(&self) -> String {
        let mut parts = vec![match &self.kind {
            PortKind::Usb { vid, pid, .. } => {
                format!("USB, vendor id {vid:04x}, product id {pid:04x}")
            }
            PortKind::Pci => "built in (PCI)".to_owned(),
            PortKind::Bluetooth => "Bluetooth".to_owned(),
            PortKind::Unknown => "connection unknown".to_owned(),
        }];
        if let PortKind::Usb {
            manufacturer,
            product,
            serial_number,
            ..
        } = &self.kind
        {
            for (label, value) in [
                ("manufacturer", manufacturer),
                ("product", product),
                ("serial number", serial_number),
            ] {
                if let Some(v) = value.as_deref().filter(|v| !v.is_empty()) {
                    parts.push(format!("{label} {v}"));
                }
            }
        }
        if !self.accessible {
            let group = self.group.as_deref().unwrap_or("dialout");
            parts.push(format!(
                "you may not open it yet: join the group {group} (sudo adduser $USER {group}), \
                 then log out and in again"
            ));
        }
        format!("{}: {}", self.path.display(), parts.join(", "))
    }
}

/// The system could not list the serial ports.
#[derive(Debug, thiserror::Error)]
#[error("cannot list the serial ports")]
pub(crate) struct ListError(#[source] serialport::Error);

/// Every serial port, sorted by path.
pub(crate) fn list_ports() -> Result<Vec<PortInfo>, ListError> {
    if !device::can_list() {
        return Ok(Vec::new());
    }
    let ports = serialport::available_ports().map_err(ListError)?;
    let mut out: Vec<PortInfo> = ports
        .into_iter()
        .map(|p| {
            let path = PathBuf::from(&p.port_name);
            let kind = match p.port_type {
                SerialPortType::UsbPort(usb) => PortKind::Usb {
                    vid: usb.vid,
                    pid: usb.pid,
                    manufacturer: usb.manufacturer,
                    product: usb.product,
                    serial_number: usb.serial_number,
                },
                SerialPortType::PciPort => PortKind::Pci,
                SerialPortType::BluetoothPort => PortKind::Bluetooth,
                SerialPortType::Unknown => PortKind::Unknown,
            };
            let accessible = device::may_open(&path);
            let group = device::device_group(&path);
            PortInfo {
                path,
                kind,
                accessible,
                group,
            }
        })
        .collect();
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_usb_board_in_one_line() {
        let info = PortInfo {
            path: PathBuf::from("/dev/ttyACM0"),
            kind: PortKind::Usb {
                vid: 0x2341,
                pid: 0x43,
                manufacturer: Some("Arduino (www.arduino.cc)".to_owned()),
                product: None,
                serial_number: Some("8573531".to_owned()),
            },
            accessible: true,
            group: Some("dialout".to_owned()),
        };
        assert_eq!(
            info.describe(),
            "/dev/ttyACM0: USB, vendor id 2341, product id 0043, manufacturer Arduino \
             (www.arduino.cc), serial number 8573531"
        );
        let locked = PortInfo {
            accessible: false,
            kind: PortKind::Pci,
            path: PathBuf::from("/dev/ttyS0"),
            ..info
        };
        assert_eq!(
            locked.describe(),
            "/dev/ttyS0: built in (PCI), you may not open it yet: join the group dialout \
             (sudo adduser $USER dialout), then log out and in again"
        );
    }

    #[test]
    fn listing_never_fails_on_this_machine() {
        // Whatever hardware the machine has (usually none in a test run).
        let ports = list_ports().expect("list");
        assert!(ports.windows(2).all(|w| w[0].path <= w[1].path));
    }
}
