//! Opening a serial port, and the reader thread that turns its bytes into [`PortEvent`]s.
//!
//! The thread stamps every chunk with the instant it arrived (a [`Timestamp`] from the origin
//! the caller passes in), reports a read error or hang-up once, then tries to open the same
//! path again every [`PortSettings::reconnect_every`] until the board is back, and says so.
//! The caller decides what to do on reconnection (ask the board for its position, compare it
//! with the game): this module knows nothing about protocols.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};
use serialport::{DataBits, FlowControl, Parity, StopBits};

use crate::core::board::{self, SerialSettings};
use crate::core::time::Timestamp;
use crate::io::platform::serial::{self as device, Port, Refusal};

/// What the reader thread reports is a core type: the board driver reads it.
pub(crate) use crate::core::board::PortEvent;
/// How often a lost port is looked for again.
pub(crate) const RECONNECT_EVERY: Duration = Duration::from_millis(500);

/// How long one read waits before the thread looks at its stop flag again. Data wakes it at
/// once; this only bounds how long dropping a [`SerialLink`] takes.
const READ_SLICE: Duration = Duration::from_millis(50);
/// How long a write may wait for the device to take the bytes.
const WRITE_TIMEOUT: Duration = Duration::from_secs(1);

/// Why a port cannot be opened, in words a person can act on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpenError {
    #[error(
        "{}: there is no such port. Is the board plugged in and switched on? \
         `hector board list` shows the serial ports",
        path.display()
    )]
    Missing { path: PathBuf },
    #[error(
        "{} is in use by another program (another chess program, a terminal program such as \
         screen or minicom, or ModemManager); close it and try again",
        path.display()
    )]
    Busy { path: PathBuf },
    #[error(
        "no permission to open {}: the port belongs to the group {group}. Join that group \
         (on Debian: sudo adduser $USER {group}), then log out and in again",
        path.display()
    )]
    PermissionDenied { path: PathBuf, group: String },
    #[error(
        "no permission to open {}, and only root may use it; ask the administrator to give \
         the port to the group dialout (a udev rule)",
        path.display()
    )]
    RootOnly { path: PathBuf },
    #[error("{} is not a serial port", path.display())]
    NotSerial { path: PathBuf },
    #[error("cannot open {}: {reason}", path.display())]
    Other { path: PathBuf, reason: String },
}

/// Opens `path` with the rate and framing of `serial` (a protocol's, from its codec), for this
/// program alone. Reads wait at most [`READ_SLICE`].
pub(crate) fn open_port(path: &Path, serial: &SerialSettings) -> Result<Port, OpenError> {
    device::check_device(path).map_err(|r| refused(path, r))?;
    let (data_bits, parity, stop_bits, flow_control) = framing(serial);
    serialport::new(path.to_string_lossy(), serial.baud)
        .data_bits(data_bits)
        .parity(parity)
        .stop_bits(stop_bits)
        .flow_control(flow_control)
        .timeout(READ_SLICE)
        .open()
        .map_err(|e| refused(path, device::classify(path, &e)))
}

/// The core's framing in serialport's terms.
fn framing(serial: &SerialSettings) -> (DataBits, Parity, StopBits, FlowControl) {
    (
        match serial.data_bits {
            board::DataBits::Five => DataBits::Five,
            board::DataBits::Six => DataBits::Six,
            board::DataBits::Seven => DataBits::Seven,
            board::DataBits::Eight => DataBits::Eight,
        },
        match serial.parity {
            board::Parity::None => Parity::None,
            board::Parity::Odd => Parity::Odd,
            board::Parity::Even => Parity::Even,
        },
        match serial.stop_bits {
            board::StopBits::One => StopBits::One,
            board::StopBits::Two => StopBits::Two,
        },
        match serial.flow_control {
            board::FlowControl::None => FlowControl::None,
            board::FlowControl::Software => FlowControl::Software,
            board::FlowControl::Hardware => FlowControl::Hardware,
        },
    )
}

/// A refusal in words a person can act on.
fn refused(path: &Path, refusal: Refusal) -> OpenError {
    let path = path.to_owned();
    match refusal {
        Refusal::Missing => OpenError::Missing { path },
        Refusal::Busy => OpenError::Busy { path },
        Refusal::NoPermission => permission_denied(path),
        Refusal::NotSerial => OpenError::NotSerial { path },
        Refusal::Other(reason) => OpenError::Other { path, reason },
    }
}

/// Names the group to join, read from the device's group owner (`dialout` on Debian).
fn permission_denied(path: PathBuf) -> OpenError {
    match device::device_group(&path).as_deref() {
        Some("root") => OpenError::RootOnly { path },
        group => OpenError::PermissionDenied {
            group: group.unwrap_or("dialout").to_owned(),
            path,
        },
    }
}

/// How a port is opened and looked for again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PortSettings {
    /// Rate and framing, the protocol's (with the user's rate, if given).
    pub(crate) serial: SerialSettings,
    pub(crate) reconnect_every: Duration,
}

impl PortSettings {
    pub(crate) fn new(serial: SerialSettings) -> PortSettings {
        PortSettings {
            serial,
            reconnect_every: RECONNECT_EVERY,
        }
    }
}

/// Writes to whatever port is open now; cheap to clone and to send to other threads.
#[derive(Clone)]
pub(crate) struct PortWriter {
    current: Arc<Mutex<Option<Port>>>,
}

impl std::fmt::Debug for PortWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PortWriter")
            .field("connected", &self.is_connected())
            .finish()
    }
}

impl PortWriter {
    fn new() -> PortWriter {
        PortWriter {
            current: Arc::new(Mutex::new(None)),
        }
    }

    fn slot(&self) -> MutexGuard<'_, Option<Port>> {
        // A panic elsewhere while holding the lock leaves nothing half-written that matters.
        self.current.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn replace(&self, port: Option<Port>) {
        *self.slot() = port;
    }

    /// Sends `bytes` to the board. While the board is unplugged this fails with
    /// `NotConnected`; callers send their requests again when [`PortEvent::Reconnected`] comes.
    pub(crate) fn write(&self, bytes: &[u8]) -> io::Result<()> {
        match self.slot().as_mut() {
            Some(port) => port.write_all(bytes).and_then(|()| port.flush()),
            None => Err(io::Error::new(
                io::ErrorKind::NotConnected,
                "the board is not connected",
            )),
        }
    }

    pub(crate) fn is_connected(&self) -> bool {
        self.slot().is_some()
    }
}

/// One open port and its reader thread. Dropping it stops the thread and closes the port.
#[derive(Debug)]
pub(crate) struct SerialLink {
    events: Receiver<PortEvent>,
    writer: PortWriter,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl SerialLink {
    /// Opens `path` and starts reading. Instants are measured from `origin`.
    pub(crate) fn open(
        path: &Path,
        settings: PortSettings,
        origin: Instant,
    ) -> Result<SerialLink, OpenError> {
        let port = open_port(path, &settings.serial)?;
        let writer = PortWriter::new();
        writer.replace(Some(writer_clone(path, &port)?));
        let (tx, events) = crossbeam_channel::unbounded();
        let stop = Arc::new(AtomicBool::new(false));
        let reader = Reader {
            path: path.to_owned(),
            settings,
            writer: writer.clone(),
            tx,
            stop: Arc::clone(&stop),
            origin,
        };
        let thread = thread::Builder::new()
            .name(format!("serial {}", path.display()))
            .spawn(move || reader.run(port))
            .map_err(|e| OpenError::Other {
                path: path.to_owned(),
                reason: format!("cannot start the reader thread: {e}"),
            })?;
        Ok(SerialLink {
            events,
            writer,
            stop,
            thread: Some(thread),
        })
    }

    /// The reader thread's events, in order. Select on it together with other channels.
    pub(crate) fn events(&self) -> &Receiver<PortEvent> {
        &self.events
    }

    pub(crate) fn write(&self, bytes: &[u8]) -> io::Result<()> {
        self.writer.write(bytes)
    }
}

impl Drop for SerialLink {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A second handle on the same device for writing, with a longer timeout than reads.
fn writer_clone(path: &Path, port: &Port) -> Result<Port, OpenError> {
    let mut clone = port.try_clone().map_err(|e| OpenError::Other {
        path: path.to_owned(),
        reason: e.description,
    })?;
    // Only the timeout of this handle changes; a failure leaves the short one, still usable.
    let _ = clone.set_timeout(WRITE_TIMEOUT);
    Ok(clone)
}

/// What one read gave.
enum Got {
    Data(usize),
    Nothing,
    HungUp(String),
}

fn read_once(port: &mut Port, buf: &mut [u8]) -> Got {
    match port.read(buf) {
        // Raw mode returns at least one byte once poll said so: zero is the end of the line.
        Ok(0) => Got::HungUp("the port was closed".to_owned()),
        Ok(n) => Got::Data(n),
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::TimedOut | io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock
            ) =>
        {
            Got::Nothing
        }
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Got::HungUp("hang-up".to_owned()),
        Err(e) => Got::HungUp(e.to_string()),
    }
}

struct Reader {
    path: PathBuf,
    settings: PortSettings,
    writer: PortWriter,
    tx: Sender<PortEvent>,
    stop: Arc<AtomicBool>,
    origin: Instant,
}

impl Reader {
    fn now(&self) -> Timestamp {
        Timestamp::from_duration(self.origin.elapsed())
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    fn run(self, port: Port) {
        let mut buf = vec![0u8; 4096];
        let mut current = Some(port);
        while !self.stopped() {
            let event = match current.as_mut() {
                Some(port) => match read_once(port, &mut buf) {
                    Got::Data(n) => PortEvent::Data {
                        bytes: buf[..n].to_vec(),
                        at: self.now(),
                    },
                    Got::Nothing => continue,
                    Got::HungUp(reason) => {
                        // Close both handles now: the device node of a vanished board (or the
                        // pseudo-terminal of the simulator) is only freed when nobody holds it.
                        current = None;
                        self.writer.replace(None);
                        PortEvent::Disconnected {
                            reason,
                            at: self.now(),
                        }
                    }
                },
                None => match self.reopen() {
                    Some(port) => {
                        current = Some(port);
                        PortEvent::Reconnected { at: self.now() }
                    }
                    None => continue,
                },
            };
            if self.tx.send(event).is_err() {
                // Nobody listens any more.
                return;
            }
        }
    }

    /// Waits one interval (watching the stop flag), then tries the path once.
    fn reopen(&self) -> Option<Port> {
        let until = Instant::now() + self.settings.reconnect_every;
        while Instant::now() < until {
            if self.stopped() {
                return None;
            }
            thread::sleep(READ_SLICE.min(until.saturating_duration_since(Instant::now())));
        }
        let port = open_port(&self.path, &self.settings.serial).ok()?;
        let writer = writer_clone(&self.path, &port).ok()?;
        self.writer.replace(Some(writer));
        Some(port)
    }
}

// Boards are played by pseudo-terminals here, which only Unix has.
#[cfg(test)]
#[cfg(unix)]
mod tests {
    use super::*;
    use crate::io::serial::Pty;
    use std::fs;

    const LINE: SerialSettings = SerialSettings::eight_n_one(115_200);

    #[test]
    fn the_framing_asked_for_is_the_framing_given_to_the_port() {
        // A pseudo-terminal keeps 8 data bits and no parity whatever is asked, so the
        // mapping itself is checked here.
        let seven_odd = SerialSettings {
            data_bits: board::DataBits::Seven,
            parity: board::Parity::Odd,
            ..SerialSettings::eight_n_one(38_400)
        };
        assert_eq!(
            framing(&seven_odd),
            (
                DataBits::Seven,
                Parity::Odd,
                StopBits::One,
                FlowControl::None
            )
        );
        let all = [
            (board::DataBits::Five, DataBits::Five),
            (board::DataBits::Six, DataBits::Six),
            (board::DataBits::Seven, DataBits::Seven),
            (board::DataBits::Eight, DataBits::Eight),
        ];
        for (ours, theirs) in all {
            let asked = SerialSettings {
                data_bits: ours,
                parity: board::Parity::Even,
                stop_bits: board::StopBits::Two,
                flow_control: board::FlowControl::Hardware,
                ..LINE
            };
            assert_eq!(
                framing(&asked),
                (theirs, Parity::Even, StopBits::Two, FlowControl::Hardware)
            );
        }
        let software = SerialSettings {
            flow_control: board::FlowControl::Software,
            ..LINE
        };
        assert_eq!(
            framing(&software),
            (
                DataBits::Eight,
                Parity::None,
                StopBits::One,
                FlowControl::Software
            )
        );
    }

    fn temp_path(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("hector-port-test-{}-{name}", std::process::id()))
    }

    #[test]
    fn a_missing_port_says_so() {
        let path = temp_path("missing");
        let err = open_port(&path, &LINE).expect_err("no such file");
        assert_eq!(err, OpenError::Missing { path: path.clone() });
        assert!(err.to_string().contains("hector board list"), "{err}");
        // A link whose target is gone is missing too (the simulator's link while unplugged).
        let link = temp_path("dangling");
        let _ = fs::remove_file(&link);
        std::os::unix::fs::symlink(&path, &link).expect("symlink");
        assert!(matches!(
            open_port(&link, &LINE),
            Err(OpenError::Missing { .. })
        ));
        let _ = fs::remove_file(&link);
    }

    #[test]
    fn a_regular_file_is_not_a_serial_port() {
        let path = temp_path("file");
        fs::write(&path, b"not a tty").expect("write");
        assert!(matches!(
            open_port(&path, &LINE),
            Err(OpenError::NotSerial { .. })
        ));
        let _ = fs::remove_file(&path);
    }

    #[test]
    fn the_port_is_opened_with_the_codecs_rate_stop_bits_and_flow_control() {
        // Read back from the open device: what the driver of a pseudo-terminal keeps (all but
        // the character size and parity, which the mapping test above covers).
        for (baud, stop_bits, flow_control, stop, flow) in [
            (
                38_400,
                board::StopBits::Two,
                board::FlowControl::Hardware,
                StopBits::Two,
                FlowControl::Hardware,
            ),
            (
                9600,
                board::StopBits::One,
                board::FlowControl::Software,
                StopBits::One,
                FlowControl::Software,
            ),
            (
                115_200,
                board::StopBits::One,
                board::FlowControl::None,
                StopBits::One,
                FlowControl::None,
            ),
        ] {
            let pty = Pty::open().expect("pty");
            let asked = SerialSettings {
                stop_bits,
                flow_control,
                ..SerialSettings::eight_n_one(baud)
            };
            let port = open_port(pty.path(), &asked).expect("open");
            assert_eq!(port.baud_rate().expect("rate"), baud, "{asked}");
            assert_eq!(port.stop_bits().expect("stop bits"), stop, "{asked}");
            assert_eq!(port.flow_control().expect("flow"), flow, "{asked}");
        }
    }

    #[test]
    fn a_port_in_use_is_busy() {
        let pty = Pty::open().expect("pty");
        let _first = open_port(pty.path(), &LINE).expect("first opener");
        let err = open_port(pty.path(), &LINE).expect_err("second opener");
        assert!(matches!(err, OpenError::Busy { .. }), "{err:?}");
        assert!(err.to_string().contains("in use"), "{err}");
    }

    #[test]
    fn permission_messages_name_the_group() {
        let err = OpenError::PermissionDenied {
            path: PathBuf::from("/dev/ttyACM0"),
            group: "dialout".to_owned(),
        };
        let text = err.to_string();
        assert!(text.contains("sudo adduser $USER dialout"), "{text}");
        assert!(text.contains("/dev/ttyACM0"), "{text}");
        // The group of a device this process can see: /dev/null belongs to root.
        assert_eq!(
            device::device_group(Path::new("/dev/null")).as_deref(),
            Some("root")
        );
    }

    fn next(link: &SerialLink) -> PortEvent {
        link.events()
            .recv_timeout(Duration::from_secs(5))
            .expect("an event within 5 s")
    }

    #[test]
    fn bytes_arrive_stamped_and_writes_reach_the_board() {
        let origin = Instant::now();
        let pty = Pty::open().expect("pty");
        let link = SerialLink::open(pty.path(), PortSettings::new(LINE), origin).expect("open");
        pty.write_all(b"L e2\n").expect("write");
        // Stamped as it arrived: how soon is measured in benches/board.rs ("to the reader").
        let PortEvent::Data { bytes, .. } = next(&link) else {
            panic!("data expected");
        };
        assert_eq!(bytes, b"L e2\n");
        link.write(b"?\n").expect("write to the board");
        let got = pty
            .read_timeout(Duration::from_secs(5))
            .expect("read")
            .expect("the host's line");
        assert_eq!(got, b"?\n");
    }

    #[test]
    fn unplug_is_reported_once_and_replug_reopens_the_path() {
        let origin = Instant::now();
        let dir = temp_path("replug");
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("dir");
        let link_path = dir.join("board");
        let pty = Pty::open().expect("pty");
        std::os::unix::fs::symlink(pty.path(), &link_path).expect("symlink");
        let settings = PortSettings {
            serial: LINE,
            reconnect_every: Duration::from_millis(50),
        };
        let link = SerialLink::open(&link_path, settings, origin).expect("open");
        // Unplug: the device vanishes.
        fs::remove_file(&link_path).expect("unlink");
        drop(pty);
        assert!(matches!(next(&link), PortEvent::Disconnected { .. }));
        assert!(link.write(b"?\n").is_err());
        // Several reconnection attempts fail quietly.
        thread::sleep(Duration::from_millis(300));
        assert!(link.events().is_empty(), "reported once");
        // Replug: a new device behind the same path.
        let pty = Pty::open().expect("pty");
        std::os::unix::fs::symlink(pty.path(), &link_path).expect("symlink");
        assert!(matches!(next(&link), PortEvent::Reconnected { .. }));
        link.write(b"?\n").expect("write after replug");
        pty.write_all(b"P e4\n").expect("write");
        assert!(matches!(next(&link), PortEvent::Data { .. }));
        drop(link);
        let _ = fs::remove_dir_all(&dir);
    }
}
