//! The braille adapters: the link to a braille display through BRLTTY's BrlAPI server
//! ([`BrailleLink`], the protocol spoken in plain Rust, no C library), and liblouis for
//! literary braille on paper ([`louis`]).
//!
//! The link lives on threads of its own and never makes the mode wait: the connection and
//! its set-up run on the link's thread (a local socket that is not there fails at once, a
//! server that accepts and says nothing is given up after a time limit), one thread reads
//! the keys, and what the mode shows is written by the link's thread, the newest frame only.
//! Nothing is written before the display's size is known (BRLTTY 6.5 can abort when a client
//! writes to a display still starting). When the server goes away the link says so once and
//! tries again now and then.

pub(crate) mod louis;
pub(crate) mod server;

use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, bounded, select, unbounded};

use crate::core::braille::Frame;
use crate::core::braille::brlapi::{
    Decoder, DisplayKey, FromServer, Next, ProtocolError, Request, Session, SessionError,
};
use crate::io::platform::socket::LocalStream;
use server::Target;

/// How long a server may take to answer during the set-up (and a write to go out).
pub(crate) const ANSWER_LIMIT: Duration = Duration::from_secs(3);
/// How long a display may stay without a size (its driver starting) before it is given up.
pub(crate) const START_LIMIT: Duration = Duration::from_secs(10);
/// The first wait before connecting again; it doubles up to [`LinkSettings::retry`].
const FIRST_RETRY: Duration = Duration::from_secs(1);
/// How often the size of a display still starting is asked.
const SIZE_POLL: Duration = Duration::from_millis(100);
/// Keys pressed during the set-up that are kept for the mode.
const EARLY_KEYS: usize = 8;

/// Where the server is, how hector is let in, which tty it takes, and how it waits.
#[derive(Clone, Debug)]
pub(crate) struct LinkSettings {
    pub(crate) targets: Vec<Target>,
    pub(crate) key_file: Option<PathBuf>,
    pub(crate) tty_path: Vec<u32>,
    pub(crate) answer_limit: Duration,
    pub(crate) start_limit: Duration,
    /// The longest wait between attempts to connect again; `None`: one attempt only.
    pub(crate) retry: Option<Duration>,
}

impl LinkSettings {
    /// As libbrlapi finds them: `BRLAPI_HOST`, `BRLAPI_AUTH`, the console hector runs on.
    pub(crate) fn from_env() -> LinkSettings {
        let var = |name: &str| std::env::var(name).ok();
        LinkSettings {
            targets: server::targets(var("BRLAPI_HOST").as_deref()),
            key_file: server::key_file(var("BRLAPI_AUTH").as_deref()),
            tty_path: server::tty_path(var, server::controlling_tty()),
            answer_limit: ANSWER_LIMIT,
            start_limit: START_LIMIT,
            retry: Some(Duration::from_secs(15)),
        }
    }
}

/// What the link tells the mode.
#[derive(Debug)]
pub(crate) enum BrailleEvent {
    /// The display is hector's: columns of its (first) row.
    Ready {
        columns: usize,
    },
    Key(DisplayKey),
    /// No display (any more): why. Said once, until the link is ready again.
    Lost(LinkError),
}

/// Why there is no display.
#[derive(Debug, thiserror::Error)]
pub(crate) enum LinkError {
    #[error("no BrlAPI server answers at {tried}: {last}")]
    NoServer { tried: String, last: io::Error },
    #[error("the BrlAPI server at {target} said nothing within {} seconds", .limit.as_secs())]
    Silent { target: Target, limit: Duration },
    #[error("the BrlAPI server at {0} closed the connection")]
    Closed(Target),
    #[error("the braille display at {target} did not start within {} seconds", .limit.as_secs())]
    NotStarted { target: Target, limit: Duration },
    #[error("the BrlAPI server at {target} did not hand the display over within {} seconds", .limit.as_secs())]
    NoHandOver { target: Target, limit: Duration },
    #[error("{0}")]
    Session(#[from] SessionError),
    #[error("the connection to the BrlAPI server broke: {0}")]
    Io(#[from] io::Error),
    /// This system has no BrlAPI link (Windows: the screen reader drives the display).
    #[error("BrlAPI is not available on {}", crate::io::platform::SYSTEM)]
    NotOnThisSystem,
}

/// Whether this system has the link to BRLTTY (its local socket; on Windows NVDA and JAWS
/// drive the braille display themselves).
pub(crate) const AVAILABLE: bool = crate::io::platform::socket::AVAILABLE;

impl From<ProtocolError> for LinkError {
    fn from(e: ProtocolError) -> LinkError {
        LinkError::Session(SessionError::Protocol(e))
    }
}

/// A socket to the server: local or TCP.
#[derive(Debug)]
enum Stream {
    Local(LocalStream),
    Tcp(TcpStream),
}

impl Stream {
    fn try_clone(&self) -> io::Result<Stream> {
        Ok(match self {
            Stream::Local(s) => Stream::Local(s.try_clone()?),
            Stream::Tcp(s) => Stream::Tcp(s.try_clone()?),
        })
    }

    fn set_timeouts(&self, read: Option<Duration>, write: Option<Duration>) -> io::Result<()> {
        match self {
            Stream::Local(s) => {
                s.set_read_timeout(read)?;
                s.set_write_timeout(write)
            }
            Stream::Tcp(s) => {
                s.set_read_timeout(read)?;
                s.set_write_timeout(write)
            }
        }
    }

    fn shutdown(&self) {
        let _ = match self {
            Stream::Local(s) => s.shutdown(Shutdown::Both),
            Stream::Tcp(s) => s.shutdown(Shutdown::Both),
        };
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Local(s) => s.read(buf),
            Stream::Tcp(s) => s.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Local(s) => s.write(buf),
            Stream::Tcp(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Stream::Local(s) => s.flush(),
            Stream::Tcp(s) => s.flush(),
        }
    }
}

/// A braille display, as far as the link has reached it. Dropping it closes the frames'
/// channel: the link's thread gives the display back to BRLTTY, closes the socket (which ends
/// the reading thread) and ends.
pub(crate) struct BrailleLink {
    events: Receiver<BrailleEvent>,
    frames: Sender<Frame>,
}

impl BrailleLink {
    /// Starts connecting on a thread of its own and returns at once.
    pub(crate) fn start(settings: LinkSettings) -> BrailleLink {
        let (event_tx, events) = bounded(256);
        let (frames, frame_rx) = unbounded();
        let spawned = thread::Builder::new()
            .name("hector-braille".into())
            .spawn(move || run(&settings, &event_tx, &frame_rx));
        if let Err(e) = spawned {
            // Without a thread there is no display; the mode hears it as from a server.
            let (tx, rx) = bounded(1);
            let _ = tx.send(BrailleEvent::Lost(LinkError::Io(e)));
            return BrailleLink { events: rx, frames };
        }
        BrailleLink { events, frames }
    }

    /// A link on a system without BrlAPI: it says so once, and nothing more.
    pub(crate) fn unavailable() -> BrailleLink {
        let (tx, events) = bounded(1);
        let (frames, _) = unbounded();
        let _ = tx.send(BrailleEvent::Lost(LinkError::NotOnThisSystem));
        BrailleLink { events, frames }
    }

    /// The link's news, for the mode's select.
    pub(crate) fn events(&self) -> &Receiver<BrailleEvent> {
        &self.events
    }

    /// Shows a frame once the display is ready (earlier ones are dropped): never waits.
    pub(crate) fn show(&self, frame: Frame) {
        let _ = self.frames.send(frame);
    }
}

/// Connects, serves, and connects again after a loss until the link is dropped.
fn run(settings: &LinkSettings, events: &Sender<BrailleEvent>, frames: &Receiver<Frame>) {
    let mut wait = FIRST_RETRY;
    let mut told = false;
    loop {
        let mut was_ready = false;
        let result = serve(settings, events, frames, &mut was_ready);
        let Err(error) = result else { return };
        if was_ready {
            told = false;
            wait = FIRST_RETRY;
        }
        if !told {
            told = true;
            if events.send(BrailleEvent::Lost(error)).is_err() {
                return;
            }
        }
        let Some(longest) = settings.retry else {
            return;
        };
        if !pause(frames, wait) {
            return;
        }
        wait = (wait * 2).min(longest);
    }
}

/// Waits `d`, dropping frames meanwhile; false when the link was dropped.
fn pause(frames: &Receiver<Frame>, d: Duration) -> bool {
    let until = Instant::now() + d;
    loop {
        match frames.recv_timeout(until.saturating_duration_since(Instant::now())) {
            Ok(_) => {}
            Err(RecvTimeoutError::Timeout) => return true,
            Err(RecvTimeoutError::Disconnected) => return false,
        }
    }
}

fn connect(settings: &LinkSettings) -> Result<(Stream, Target), LinkError> {
    let mut last = io::Error::from(io::ErrorKind::NotFound);
    for target in &settings.targets {
        match target {
            Target::Local(path) => match LocalStream::connect(path) {
                Ok(s) => return Ok((Stream::Local(s), target.clone())),
                Err(e) => last = e,
            },
            Target::Tcp(host, port) => {
                let addrs = match (host.as_str(), *port).to_socket_addrs() {
                    Ok(addrs) => addrs,
                    Err(e) => {
                        last = e;
                        continue;
                    }
                };
                for addr in addrs {
                    match TcpStream::connect_timeout(&addr, settings.answer_limit) {
                        Ok(s) => {
                            let _ = s.set_nodelay(true);
                            return Ok((Stream::Tcp(s), target.clone()));
                        }
                        Err(e) => last = e,
                    }
                }
            }
        }
    }
    let tried: Vec<String> = settings.targets.iter().map(|t| t.to_string()).collect();
    Err(LinkError::NoServer {
        tried: tried.join(", "),
        last,
    })
}

/// Reads until at least one message came; a silence over the time limit is an error.
fn messages(
    stream: &mut Stream,
    decoder: &mut Decoder,
    target: &Target,
    limit: Duration,
) -> Result<Vec<FromServer>, LinkError> {
    let mut buf = [0u8; 4096];
    loop {
        let n = match stream.read(&mut buf) {
            Ok(0) => return Err(LinkError::Closed(target.clone())),
            Ok(n) => n,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                return Err(LinkError::Silent {
                    target: target.clone(),
                    limit,
                });
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(LinkError::Io(e)),
        };
        let packets = decoder.push(&buf[..n])?;
        if !packets.is_empty() {
            return packets
                .iter()
                .map(|p| FromServer::parse(p).map_err(LinkError::from))
                .collect();
        }
    }
}

fn send(stream: &mut Stream, request: &Request) -> Result<(), LinkError> {
    stream.write_all(&request.encode()?)?;
    Ok(())
}

/// One connection: set up, then keys in and frames out until it breaks or the link is
/// dropped (`Ok`).
fn serve(
    settings: &LinkSettings,
    events: &Sender<BrailleEvent>,
    frames: &Receiver<Frame>,
    was_ready: &mut bool,
) -> Result<(), LinkError> {
    let (mut stream, target) = connect(settings)?;
    stream.set_timeouts(Some(settings.answer_limit), Some(settings.answer_limit))?;
    let key = settings.key_file.as_deref().and_then(server::read_key);
    let mut session = Session::new(key, settings.tty_path.clone());
    let mut decoder = Decoder::new();
    let set_up = set_up(
        &mut stream,
        &mut decoder,
        &mut session,
        &target,
        settings,
        frames,
    )?;
    let Some(Handshake {
        columns,
        rows,
        early_keys,
    }) = set_up
    else {
        return Ok(());
    };
    *was_ready = true;
    let cells = (columns as usize) * (rows as usize);
    let reader = stream.try_clone()?;
    // The options are the socket's, shared by both handles: keys may come at any time, a
    // write that cannot go out within the limit is a broken link.
    reader.set_timeouts(None, Some(settings.answer_limit))?;
    // Frames made before the size was known are not written.
    while frames.try_recv().is_ok() {}
    let ready = BrailleEvent::Ready {
        columns: columns as usize,
    };
    if events.send(ready).is_err() {
        return Ok(());
    }
    for key in early_keys {
        if events.send(BrailleEvent::Key(key)).is_err() {
            return Ok(());
        }
    }
    let (broken_tx, broken) = bounded::<LinkError>(1);
    let key_events = events.clone();
    let reader_target = target.clone();
    thread::Builder::new()
        .name("hector-braille-keys".into())
        .spawn(move || {
            read_keys(
                reader,
                decoder,
                session,
                &reader_target,
                &key_events,
                &broken_tx,
            )
        })?;
    write_frames(stream, frames, &broken, cells, target)
}

/// The newest frame written as it comes, until the link is dropped (`Ok`, the display given
/// back) or the connection breaks.
fn write_frames(
    mut stream: Stream,
    frames: &Receiver<Frame>,
    broken: &Receiver<LinkError>,
    cells: usize,
    target: Target,
) -> Result<(), LinkError> {
    loop {
        select! {
            recv(frames) -> frame => {
                let Ok(mut frame) = frame else {
                    // The link was dropped: give the display back.
                    let _ = send(&mut stream, &Request::LeaveTtyMode);
                    stream.shutdown();
                    return Ok(());
                };
                // Only the newest frame matters.
                while let Ok(newer) = frames.try_recv() {
                    frame = newer;
                }
                let write = Request::Write { text: frame.text, cursor: frame.cursor, cells };
                if let Err(e) = send(&mut stream, &write) {
                    stream.shutdown();
                    return Err(e);
                }
            }
            recv(broken) -> why => {
                stream.shutdown();
                return Err(why.unwrap_or(LinkError::Closed(target)));
            }
        }
    }
}

/// The display's size, and the keys pressed before it was known.
struct Handshake {
    columns: u32,
    rows: u32,
    early_keys: Vec<DisplayKey>,
}

/// The handshake until the display is hector's: its columns and rows, and the keys pressed
/// meanwhile; `None` when the link was dropped first.
fn set_up(
    stream: &mut Stream,
    decoder: &mut Decoder,
    session: &mut Session,
    target: &Target,
    settings: &LinkSettings,
    frames: &Receiver<Frame>,
) -> Result<Option<Handshake>, LinkError> {
    let started = Instant::now();
    let mut early_keys = Vec::new();
    loop {
        // Bounded in every state: a server that answers, but never hands the display over
        // (messages the set-up passes over, one within each answer limit), is given up.
        if started.elapsed() > settings.start_limit + settings.answer_limit {
            return Err(LinkError::NoHandOver {
                target: target.clone(),
                limit: settings.start_limit + settings.answer_limit,
            });
        }
        for message in messages(stream, decoder, target, settings.answer_limit)? {
            for next in session.receive(message)? {
                match next {
                    Next::Send(request) => send(stream, &request)?,
                    Next::AskSizeLater => {
                        if started.elapsed() > settings.start_limit {
                            return Err(LinkError::NotStarted {
                                target: target.clone(),
                                limit: settings.start_limit,
                            });
                        }
                        if !pause(frames, SIZE_POLL) {
                            return Ok(None);
                        }
                        let request = session.ask_size();
                        send(stream, &request)?;
                    }
                    Next::Ready { columns, rows } => {
                        return Ok(Some(Handshake {
                            columns,
                            rows,
                            early_keys,
                        }));
                    }
                    // A few keys pressed while the display is taken are kept, no more.
                    Next::Key(key) if early_keys.len() < EARLY_KEYS => early_keys.push(key),
                    Next::Key(_) => {}
                }
            }
        }
    }
}

/// The reading thread: keys to the mode until the connection breaks.
fn read_keys(
    mut stream: Stream,
    mut decoder: Decoder,
    mut session: Session,
    target: &Target,
    events: &Sender<BrailleEvent>,
    broken: &Sender<LinkError>,
) {
    let error = loop {
        let messages = match messages(&mut stream, &mut decoder, target, Duration::ZERO) {
            Ok(m) => m,
            Err(e) => break e,
        };
        for message in messages {
            match session.receive(message) {
                Ok(next) => {
                    for n in next {
                        if let Next::Key(key) = n
                            && events.send(BrailleEvent::Key(key)).is_err()
                        {
                            return;
                        }
                    }
                }
                Err(e) => {
                    let _ = broken.send(LinkError::Session(e));
                    return;
                }
            }
        }
    };
    let _ = broken.send(error);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    fn settings(targets: Vec<Target>) -> LinkSettings {
        LinkSettings {
            targets,
            key_file: None,
            tty_path: Vec::new(),
            answer_limit: Duration::from_millis(300),
            start_limit: Duration::from_secs(1),
            retry: None,
        }
    }

    fn lost(link: &BrailleLink, within: Duration) -> LinkError {
        match link.events().recv_timeout(within) {
            Ok(BrailleEvent::Lost(e)) => e,
            other => panic!("expected the link lost, got {other:?}"),
        }
    }

    #[test]
    fn no_server_is_told_and_showing_meanwhile_never_waits() {
        let dir = std::env::temp_dir().join(format!("hector-no-brlapi-{}", std::process::id()));
        let link = BrailleLink::start(settings(vec![Target::Local(dir.join("nothing"))]));
        // Showing before anything is known goes nowhere, and does not wait.
        link.show(Frame {
            text: "Computer: Eva fünf".into(),
            cursor: None,
        });
        assert!(matches!(
            lost(&link, Duration::from_secs(10)),
            LinkError::NoServer { .. }
        ));
    }

    #[test]
    fn a_server_that_accepts_and_says_nothing_is_given_up() {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let mut slow = settings(vec![Target::Tcp("127.0.0.1".into(), port)]);
        slow.answer_limit = Duration::from_secs(2);
        let link = BrailleLink::start(slow);
        // Started while the server has not even accepted: the mode never waits for it.
        assert!(link.events().try_recv().is_err());
        let (_held, _) = listener.accept().expect("hector connects");
        assert!(matches!(
            lost(&link, Duration::from_secs(10)),
            LinkError::Silent { .. }
        ));
    }

    /// A server that sends its version and then only packets the set-up passes over, slowly
    /// (each within the answer limit) or fast, is given up, and said.
    #[test]
    fn a_server_that_never_hands_the_display_over_is_given_up() {
        use crate::core::braille::brlapi::Packet;
        // Slowly, each within the answer limit: the time limit ends it; fast: the count.
        for (pause, slow) in [
            (Duration::from_millis(250), true),
            (Duration::from_millis(1), false),
        ] {
            let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
            let port = listener.local_addr().expect("addr").port();
            let link = BrailleLink::start(settings(vec![Target::Tcp("127.0.0.1".into(), port)]));
            let (mut peer, _) = listener.accept().expect("hector connects");
            let version = Packet::encode(u32::from(b'v'), &8u32.to_be_bytes()).expect("packet");
            peer.write_all(&version).expect("version");
            let unknown = Packet::encode(u32::from(b'p'), &[0; 8]).expect("packet");
            // Until hector hangs up (closing first would reset the connection).
            let feeder = std::thread::spawn(move || {
                let end = Instant::now() + Duration::from_secs(15);
                while Instant::now() < end && peer.write_all(&unknown).is_ok() {
                    std::thread::sleep(pause);
                }
            });
            let why = lost(&link, Duration::from_secs(10));
            let ended = match why {
                LinkError::NoHandOver { .. } => slow,
                LinkError::Session(SessionError::NoHandOver(_)) => !slow,
                _ => false,
            };
            assert!(ended, "{pause:?}: {why:?}");
            drop(link);
            let _ = feeder.join();
        }
    }

    #[test]
    fn a_stranger_on_the_port_is_not_taken_for_a_server() {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let link = BrailleLink::start(settings(vec![Target::Tcp("127.0.0.1".into(), port)]));
        let (mut peer, _) = listener.accept().expect("hector connects");
        peer.write_all(b"HTTP/1.1 400 Bad Request\r\n\r\n")
            .expect("write");
        assert!(matches!(
            lost(&link, Duration::from_secs(5)),
            LinkError::Session(SessionError::Protocol(ProtocolError::TooLarge(_)))
                | LinkError::Session(SessionError::NotBrlapi)
        ));
    }
}
