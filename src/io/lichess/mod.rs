//! lichess's Board API over HTTPS (rustls): requests with the player's token, the game's
//! NDJSON stream read line by line on a thread of its own (each line capped, keep-alive lines
//! skipped, the connection made again with backoff when it drops), and the player's actions
//! sent on another thread, so that neither a slow server nor a wait the server asks for (HTTP
//! 429) holds up the terminal. The token lives in the XDG config directory, mode 0600; it is
//! sent only over https (or to this machine itself), never after a 429 before the wait the API
//! asks for, and a refused token is looked for again in its file, so that a new login lets the
//! game go on.

pub(crate) mod explorer;
pub(crate) mod push;
pub mod token;
pub(crate) mod watch;

use std::io::{BufRead, BufReader, Read};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, bounded};
use ureq::Agent;
use ureq::http::Response;

use crate::core::online::wire::{self, Account, AccountEvent, GameLine, Playing};
use crate::core::online::{Action, Link};

/// The longest stream line hector reads; a longer one is skipped and said.
pub(crate) const MAX_LINE: usize = 1 << 20;
/// The least wait after a 429: lichess asks for a full minute, whatever Retry-After says.
pub(crate) const RATE_WAIT: Duration = Duration::from_secs(60);
/// The longest wait a server may ask for; a longer Retry-After counts as this.
const MAX_RATE_WAIT: Duration = Duration::from_secs(3600);
/// A stream silent this long (lichess sends a keep-alive line every few seconds) is taken as
/// broken.
const STALL: Duration = Duration::from_secs(20);
/// A connection that still brings lines this long after it opened is healthy: only then does
/// its backoff start again from the beginning and "connection back" get said, so that a server
/// that closes each stream at once is asked ever more rarely, not every second.
const HEALTHY: Duration = Duration::from_secs(5);
/// The longest pause between two attempts to connect again.
const MAX_BACKOFF: Duration = Duration::from_secs(30);
/// How often the token file is looked at again after the token was refused.
const TOKEN_LOOK: Duration = Duration::from_secs(2);
/// How often a waiting stream thread looks whether it should stop.
const TICK: Duration = Duration::from_millis(250);

/// What went wrong with a request.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ApiError {
    #[error("the token is not accepted (HTTP 401)")]
    Unauthorized,
    #[error("too many requests: wait {} s (HTTP 429)", .0.as_secs())]
    RateLimited(Duration),
    #[error("HTTP {status}: {reason}")]
    Refused { status: u16, reason: String },
    #[error("{0}")]
    Network(String),
}

/// Why a server is not asked at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ServerError {
    #[error("{0} is not a web address such as https://lichess.org")]
    NotAnAddress(String),
    /// Plain http to another machine: the token would cross the network readable by anyone.
    #[error("{0} is not https: the token would travel in clear text")]
    Insecure(String),
}

/// Whether the token may be sent to `base`: https anywhere, plain http only to this machine
/// itself (localhost, 127.0.0.0/8, ::1), where no network carries it.
pub(crate) fn check_server(base: &str) -> Result<(), ServerError> {
    let not_an_address = || ServerError::NotAnAddress(base.to_string());
    let uri: ureq::http::Uri = base.trim().parse().map_err(|_| not_an_address())?;
    let host = uri.host().ok_or_else(not_an_address)?;
    match uri.scheme_str() {
        Some(s) if s.eq_ignore_ascii_case("https") => Ok(()),
        Some(s) if s.eq_ignore_ascii_case("http") && is_loopback(host) => Ok(()),
        Some(s) if s.eq_ignore_ascii_case("http") => Err(ServerError::Insecure(base.to_string())),
        _ => Err(not_an_address()),
    }
}

fn is_loopback(host: &str) -> bool {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    bare.eq_ignore_ascii_case("localhost")
        || bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The longest a request may take as a whole, from connecting to the last byte of its
/// answer: a server that sends its headers and then drips its body (or never ends it) holds
/// no thread longer than this.
pub(crate) const REQUEST_DEADLINE: Duration = Duration::from_secs(30);
/// How long a refused stream's answer is read for its reason.
const REASON_WAIT: Duration = Duration::from_secs(5);
/// The most of a refusal's answer read for its reason.
const REASON_BYTES: u64 = 64 * 1024;

/// An agent of hector's: statuses are answers, not errors; no redirects (the token would not
/// follow one anyway); `per_read` bounds each read of a stream; `whole`, a request's whole
/// exchange (none for a stream, which lasts as long as it brings lines).
fn agent(per_read: Option<Duration>, whole: Option<Duration>) -> Agent {
    Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .timeout_connect(Some(Duration::from_secs(15)))
        .timeout_recv_response(Some(Duration::from_secs(30)))
        .timeout_per_read(per_read)
        .timeout_global(whole)
        .user_agent(concat!("hector/", env!("CARGO_PKG_VERSION")))
        .build()
        .into()
}

/// A refusal's reason in words: the server's `{"error": …}` or text, cut to a sensible
/// length; when it gives none, what its status line means.
fn reason_of(status: u16, body: &str) -> String {
    let text = wire::error_text(body);
    let text = text.trim();
    if text.is_empty() {
        return ureq::http::StatusCode::from_u16(status)
            .ok()
            .and_then(|s| s.canonical_reason())
            .unwrap_or("no reason given")
            .to_string();
    }
    crate::core::notation::printable_cut(text, crate::core::notation::MAX_REASON)
}

/// Reads a refused answer's body for its reason, for at most [`REASON_WAIT`] (a stream's
/// agent bounds no whole exchange): the read goes on a thread of its own, which ends when
/// the caller closes the connection.
fn reason_within(response: Response<ureq::Body>) -> String {
    let status = response.status().as_u16();
    let (tx, rx) = bounded(1);
    let spawned = thread::Builder::new()
        .name("hector-lichess-reason".into())
        .spawn(move || {
            let mut response = response;
            let body = response
                .body_mut()
                .with_config()
                .limit(REASON_BYTES)
                .lossy_utf8(true)
                .read_to_string()
                .unwrap_or_default();
            let _ = tx.send(body);
        });
    let body = match spawned {
        Ok(_) => rx.recv_timeout(REASON_WAIT).unwrap_or_default(),
        Err(_) => String::new(),
    };
    reason_of(status, &body)
}

/// lichess (or the server at `base`) with the player's token. Clones share the token, the
/// wait a 429 asked for and whether the token was refused.
#[derive(Clone)]
pub(crate) struct Client {
    agent: Agent,
    base: String,
    token: Arc<Mutex<String>>,
    /// No request goes out before this instant (a 429 asked to wait).
    quiet_until: Arc<Mutex<Option<Instant>>>,
    /// The least wait after a 429: [`RATE_WAIT`] (shorter only in this module's tests).
    rate_floor: Duration,
    /// A request was answered 401: the token is looked for again in its file.
    revoked: Arc<AtomicBool>,
}

impl Client {
    /// A client for `base`; refused when the token would travel in clear text.
    pub(crate) fn new(base: &str, token: &str) -> Result<Client, ServerError> {
        check_server(base)?;
        Ok(Client {
            agent: agent(None, Some(REQUEST_DEADLINE)),
            base: base.trim().trim_end_matches('/').to_string(),
            token: Arc::new(Mutex::new(token.trim().to_string())),
            quiet_until: Arc::default(),
            rate_floor: RATE_WAIT,
            revoked: Arc::default(),
        })
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    fn auth(&self) -> String {
        format!("Bearer {}", lock(&self.token))
    }

    /// The rest of a wait a 429 asked for, if one is still running.
    fn quiet_left(&self) -> Option<Duration> {
        let until = (*lock(&self.quiet_until))?;
        let left = until.saturating_duration_since(Instant::now());
        (!left.is_zero()).then_some(left)
    }

    /// A 429: no request for the time the server asks, and never less than a minute.
    fn rate_limited(&self, asked: Option<u64>) -> Duration {
        let wait = asked
            .map_or(RATE_WAIT, Duration::from_secs)
            .max(self.rate_floor)
            .min(MAX_RATE_WAIT);
        *lock(&self.quiet_until) = Some(Instant::now() + wait);
        wait
    }

    /// The token was refused (HTTP 401) and no newer one has been found yet.
    pub(crate) fn is_revoked(&self) -> bool {
        self.revoked.load(Ordering::Relaxed)
    }

    /// After a refused token: a different token in the file (the player logged in again) is
    /// taken, and true returned.
    pub(crate) fn renewed(&self) -> bool {
        match token::stored(&self.base) {
            Ok(Some(t)) if t != *lock(&self.token) => {
                *lock(&self.token) = t;
                self.revoked.store(false, Ordering::Relaxed);
                true
            }
            _ => false,
        }
    }

    /// A successful answer, or the error its status says (its reason read within the
    /// request's deadline, or [`REASON_WAIT`] for a stream).
    fn check(
        &self,
        result: Result<Response<ureq::Body>, ureq::Error>,
    ) -> Result<Response<ureq::Body>, ApiError> {
        let response = result.map_err(|e| ApiError::Network(e.to_string()))?;
        let status = response.status().as_u16();
        match status {
            200..=299 => Ok(response),
            401 => {
                self.revoked.store(true, Ordering::Relaxed);
                Err(ApiError::Unauthorized)
            }
            429 => {
                let asked = response
                    .headers()
                    .get("retry-after")
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.trim().parse::<u64>().ok());
                Err(ApiError::RateLimited(self.rate_limited(asked)))
            }
            _ => Err(ApiError::Refused {
                status,
                reason: reason_within(response),
            }),
        }
    }

    /// Sends a request unless a 429's wait still runs.
    fn send(
        &self,
        request: impl FnOnce(&Agent) -> Result<Response<ureq::Body>, ureq::Error>,
    ) -> Result<Response<ureq::Body>, ApiError> {
        if let Some(left) = self.quiet_left() {
            return Err(ApiError::RateLimited(left));
        }
        self.check(request(&self.agent))
    }

    /// A client whose requests end, body included, within `whole`.
    pub(crate) fn with_deadline(mut self, whole: Duration) -> Client {
        self.agent = agent(None, Some(whole));
        self
    }

    /// A GET with the token whose answer's body the caller reads (and bounds).
    pub(crate) fn get_response(&self, path: &str) -> Result<Response<ureq::Body>, ApiError> {
        let (url, auth) = (self.url(path), self.auth());
        self.send(|agent| {
            agent
                .get(url)
                .header("Authorization", auth)
                .header("Accept", "application/json")
                .call()
        })
    }

    fn text(response: Response<ureq::Body>) -> Result<String, ApiError> {
        let mut response = response;
        response
            .body_mut()
            .with_config()
            .limit(4 * 1024 * 1024)
            .read_to_string()
            .map_err(|e| ApiError::Network(e.to_string()))
    }

    pub(crate) fn get(&self, path: &str) -> Result<String, ApiError> {
        let (url, auth) = (self.url(path), self.auth());
        let r = self.send(|agent| agent.get(url).header("Authorization", auth).call())?;
        Client::text(r)
    }

    pub(crate) fn post(&self, path: &str, form: &[(&str, &str)]) -> Result<String, ApiError> {
        let (url, auth) = (self.url(path), self.auth());
        let r = self.send(|agent| {
            let request = agent.post(url).header("Authorization", auth);
            if form.is_empty() {
                request.send_empty()
            } else {
                request.send_form(form.iter().copied())
            }
        })?;
        Client::text(r)
    }

    /// A GET that lichess answers without a token too: the token goes along only when
    /// `with_token` and there is one (an empty token is none).
    pub(crate) fn get_open(&self, path: &str, with_token: bool) -> Result<String, ApiError> {
        let url = self.url(path);
        let token = lock(&self.token).clone();
        let r = self.send(|agent| {
            let request = agent.get(url);
            if with_token && !token.is_empty() {
                request
                    .header("Authorization", format!("Bearer {token}"))
                    .call()
            } else {
                request.call()
            }
        })?;
        Client::text(r)
    }

    /// A POST of a JSON body with the token (the API's JSON endpoints, such as recording
    /// puzzle results).
    pub(crate) fn post_json(&self, path: &str, json: &str) -> Result<String, ApiError> {
        let (url, auth) = (self.url(path), self.auth());
        let r = self.send(|agent| {
            agent
                .post(url)
                .header("Authorization", auth)
                .content_type("application/json")
                .send(json)
        })?;
        Client::text(r)
    }

    /// A streamed answer, read line by line on a thread of its own. Each stream has an agent
    /// of its own, so that giving it up closes its connection (and ends its thread).
    pub(crate) fn stream(
        &self,
        path: &str,
        form: Option<&[(&str, &str)]>,
    ) -> Result<Stream, ApiError> {
        if let Some(left) = self.quiet_left() {
            return Err(ApiError::RateLimited(left));
        }
        // A read that waits longer than a stall ends by itself too.
        let agent = agent(Some(STALL + STALL), None);
        let (url, auth) = (self.url(path), self.auth());
        let r = match form {
            None => agent
                .get(url)
                .header("Authorization", auth)
                .header("Accept", "application/x-ndjson")
                .call(),
            Some(form) => agent
                .post(url)
                .header("Authorization", auth)
                .send_form(form.iter().copied()),
        };
        let response = match self.check(r) {
            Ok(r) => r,
            Err(e) => {
                // Ends a refusal's answer still being read.
                agent.shutdown();
                return Err(e);
            }
        };
        Ok(Stream::open(
            Box::new(response.into_body().into_reader()),
            Some(agent),
        ))
    }

    pub(crate) fn account(&self) -> Result<Account, ApiError> {
        let text = self.get("/api/account")?;
        wire::account(&text).map_err(|e| ApiError::Network(e.0))
    }

    /// The games in progress, as many as lichess lists (50; it lists 9 unless asked), so
    /// that a correspondence player's tenth game is found and numbered too.
    pub(crate) fn playing(&self) -> Result<Vec<Playing>, ApiError> {
        let text = self.get("/api/account/playing?nb=50")?;
        wire::playing(&text).map_err(|e| ApiError::Network(e.0))
    }
}

/// A stream's lines, each at most [`MAX_LINE`] bytes.
pub(crate) struct Lines {
    reader: BufReader<Box<dyn Read + Send>>,
}

/// One read from a stream.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Read1 {
    Line(String),
    /// A line longer than [`MAX_LINE`], skipped.
    TooLong,
    End,
}

impl Lines {
    pub(crate) fn new(reader: Box<dyn Read + Send>) -> Lines {
        Lines {
            reader: BufReader::new(reader),
        }
    }

    /// The next line without its newline; a line past the cap is read to its end and
    /// dropped, so one bad line costs no memory and the stream goes on.
    pub(crate) fn read_line(&mut self) -> std::io::Result<Read1> {
        let mut line: Vec<u8> = Vec::new();
        let mut too_long = false;
        loop {
            let available = self.reader.fill_buf()?;
            if available.is_empty() {
                return Ok(if line.is_empty() && !too_long {
                    Read1::End
                } else if too_long {
                    Read1::TooLong
                } else {
                    Read1::Line(String::from_utf8_lossy(&line).into_owned())
                });
            }
            let (chunk, done) = match memchr::memchr(b'\n', available) {
                Some(i) => (&available[..i], Some(i + 1)),
                None => (available, None),
            };
            if !too_long {
                if line.len() + chunk.len() > MAX_LINE {
                    too_long = true;
                    line = Vec::new();
                } else {
                    line.extend_from_slice(chunk);
                }
            }
            let used = done.unwrap_or(available.len());
            self.reader.consume(used);
            if done.is_some() {
                return Ok(if too_long {
                    Read1::TooLong
                } else {
                    Read1::Line(String::from_utf8_lossy(&line).into_owned())
                });
            }
        }
    }
}

/// An open stream: a thread of its own reads its lines (so that a stream that goes silent is
/// noticed); dropping it closes the connection, which ends that thread.
pub(crate) struct Stream {
    lines: Receiver<std::io::Result<Read1>>,
    /// The connection's own agent, shut down to close it.
    hangup: Option<Agent>,
}

/// What a stream brought.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Next {
    Line(String),
    /// A line longer than [`MAX_LINE`], skipped.
    TooLong,
    /// The server closed the stream, or it broke.
    Closed,
    /// Nothing within the time waited.
    Silent,
}

impl Stream {
    /// Reads `reader`'s lines on a thread of its own; `hangup` closes its connection.
    pub(crate) fn open(reader: Box<dyn Read + Send>, hangup: Option<Agent>) -> Stream {
        let (tx, lines) = bounded(64);
        let mut source = Lines::new(reader);
        // Without a thread the channel is closed at once: the stream reads as closed.
        let _ = thread::Builder::new()
            .name("hector-lichess-lines".into())
            .spawn(move || {
                loop {
                    let read = source.read_line();
                    let end = !matches!(read, Ok(Read1::Line(_) | Read1::TooLong));
                    if tx.send(read).is_err() || end {
                        return;
                    }
                }
            });
        Stream { lines, hangup }
    }

    /// The next line, waiting at most `wait`.
    pub(crate) fn next(&self, wait: Duration) -> Next {
        match self.lines.recv_timeout(wait) {
            Err(crossbeam_channel::RecvTimeoutError::Timeout) => Next::Silent,
            Err(crossbeam_channel::RecvTimeoutError::Disconnected) => Next::Closed,
            Ok(Ok(Read1::Line(text))) => Next::Line(text),
            Ok(Ok(Read1::TooLong)) => Next::TooLong,
            Ok(Ok(Read1::End) | Err(_)) => Next::Closed,
        }
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        if let Some(agent) = self.hangup.take() {
            agent.shutdown();
        }
    }
}

/// What the adapter's threads send the mode.
#[derive(Debug)]
pub(crate) enum News {
    Line(GameLine),
    Link(Link),
}

/// Sleeps `d` in short steps; false when `stop` was set meanwhile.
fn pause(d: Duration, stop: &AtomicBool) -> bool {
    let step = Duration::from_millis(50);
    let mut left = d;
    while !left.is_zero() {
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        let s = left.min(step);
        thread::sleep(s);
        left -= s;
    }
    !stop.load(Ordering::Relaxed)
}

/// The news waiting for the mode: a flood of lines holds up the stream's reading, not the
/// memory.
const NEWS_QUEUE: usize = 256;

/// The game's stream and the sender of actions, each on a thread of its own.
pub(crate) struct GameLink {
    news: Receiver<News>,
    actions: Sender<Action>,
    stop: Arc<AtomicBool>,
}

impl GameLink {
    /// Streams game `id` and sends actions for it; `first` is the stream already open (its
    /// first line read by the caller).
    pub(crate) fn start(client: &Client, id: &str, first: Option<Stream>) -> GameLink {
        let (tx, news) = bounded(NEWS_QUEUE);
        let (actions, action_rx) = crossbeam_channel::unbounded();
        let stop = Arc::new(AtomicBool::new(false));
        {
            let (client, id, tx, stop) = (client.clone(), id.to_string(), tx.clone(), stop.clone());
            thread::spawn(move || stream_game(&client, &id, first, &tx, &stop));
        }
        {
            let (client, id, stop) = (client.clone(), id.to_string(), stop.clone());
            thread::spawn(move || send_actions(&client, &id, &action_rx, &tx, &stop));
        }
        GameLink {
            news,
            actions,
            stop,
        }
    }

    pub(crate) fn news(&self) -> &Receiver<News> {
        &self.news
    }

    pub(crate) fn send(&self, action: Action) {
        let _ = self.actions.send(action);
    }

    /// No more connecting again (the game is over, or the player left).
    pub(crate) fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl Drop for GameLink {
    fn drop(&mut self) {
        self.stop();
    }
}

/// How a connection's lines ended.
#[derive(Debug, PartialEq, Eq)]
enum Pumped {
    /// The server closed the stream, or it broke.
    Closed,
    /// Nothing came for too long, not even a keep-alive line: taken as broken.
    Stalled,
    /// The token was refused (by this stream's server or an action's answer).
    Revoked,
    /// Nobody listens any more, or hector stops.
    Gone,
}

/// When a connection counts as broken, and as healthy.
#[derive(Clone, Copy, Debug)]
struct Patience {
    stall: Duration,
    healthy: Duration,
}

const PATIENCE: Patience = Patience {
    stall: STALL,
    healthy: HEALTHY,
};

/// Forwards a connection's lines as news until it closes, stalls, or the token is refused;
/// `healthy` is called once, when a line comes after the connection has lasted
/// `patience.healthy`.
fn pump(
    stream: &Stream,
    patience: Patience,
    tx: &Sender<News>,
    stop: &AtomicBool,
    revoked: &dyn Fn() -> bool,
    healthy: &mut dyn FnMut(),
) -> Pumped {
    let opened = Instant::now();
    let mut last = opened;
    let mut was_healthy = false;
    loop {
        if stop.load(Ordering::Relaxed) {
            return Pumped::Gone;
        }
        if revoked() {
            return Pumped::Revoked;
        }
        let news = match stream.next(TICK.min(patience.stall)) {
            Next::Silent if last.elapsed() >= patience.stall => return Pumped::Stalled,
            Next::Silent => continue,
            Next::Closed => return Pumped::Closed,
            Next::TooLong => {
                last = Instant::now();
                News::Link(Link::TooLong)
            }
            Next::Line(text) => {
                last = Instant::now();
                if !was_healthy && opened.elapsed() >= patience.healthy {
                    was_healthy = true;
                    healthy();
                }
                match wire::game_line(&text) {
                    Ok(Some(line)) => News::Line(line),
                    Ok(None) => continue,
                    Err(e) => News::Link(Link::BadLine(e.0)),
                }
            }
        };
        if tx.send(news).is_err() {
            return Pumped::Gone;
        }
    }
}

/// Reads the game's stream until told to stop; connects again with backoff when it drops
/// (the backoff starts again only after a healthy connection), waits the time a 429 asks,
/// and after a refused token waits for a new one in the token file.
fn stream_game(
    client: &Client,
    id: &str,
    mut open: Option<Stream>,
    tx: &Sender<News>,
    stop: &AtomicBool,
) {
    let path = format!("/api/board/game/stream/{id}");
    let mut backoff = Duration::from_secs(1);
    // "Dropped" was said and "Restored" not yet.
    let mut down = false;
    // "Revoked" was said and "Authorized" not yet.
    let mut refused = false;
    loop {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        if client.is_revoked() {
            match await_token(client, tx, stop, &mut refused) {
                None => return,
                Some(false) => continue,
                Some(true) => {}
            }
        }
        let stream = match open.take() {
            Some(s) => Ok(s),
            None => client.stream(&path, None),
        };
        match stream {
            Ok(stream) => {
                if std::mem::take(&mut refused) {
                    let _ = tx.send(News::Link(Link::Authorized));
                }
                let mut healthy = || {
                    backoff = Duration::from_secs(1);
                    if std::mem::take(&mut down) {
                        let _ = tx.send(News::Link(Link::Restored));
                    }
                };
                let end = pump(
                    &stream,
                    PATIENCE,
                    tx,
                    stop,
                    &|| client.is_revoked(),
                    &mut healthy,
                );
                // Closes the connection, which ends its reading thread.
                drop(stream);
                match end {
                    Pumped::Gone => return,
                    Pumped::Revoked => continue,
                    Pumped::Closed | Pumped::Stalled => {}
                }
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                say_dropped(&mut down, tx);
            }
            Err(ApiError::Unauthorized) => continue,
            Err(ApiError::RateLimited(wait)) => {
                let _ = tx.send(News::Link(Link::Waiting(wait)));
                if !pause(wait, stop) {
                    return;
                }
                continue;
            }
            Err(_) => {
                say_dropped(&mut down, tx);
            }
        }
        if !pause(backoff, stop) {
            return;
        }
        backoff = (backoff * 2).min(MAX_BACKOFF);
    }
}

/// While the token is refused: says so once, then looks for a new one in the token file.
/// None when told to stop meanwhile; whether a new token was read.
fn await_token(
    client: &Client,
    tx: &Sender<News>,
    stop: &AtomicBool,
    refused: &mut bool,
) -> Option<bool> {
    if !*refused {
        *refused = true;
        let _ = tx.send(News::Link(Link::Revoked));
    }
    if !pause(TOKEN_LOOK, stop) {
        return None;
    }
    Some(client.renewed())
}

/// "Dropped", said once until the link is restored.
fn say_dropped(down: &mut bool, tx: &Sender<News>) {
    if !*down {
        *down = true;
        let _ = tx.send(News::Link(Link::Dropped));
    }
}

/// The request of an action: its path and form.
fn action_request(id: &str, action: &Action) -> (String, Vec<(&'static str, String)>) {
    let game = format!("/api/board/game/{id}");
    let yes = |b: bool| if b { "yes" } else { "no" };
    match action {
        Action::Move(uci) => (format!("{game}/move/{uci}"), Vec::new()),
        Action::Draw(b) => (format!("{game}/draw/{}", yes(*b)), Vec::new()),
        Action::Takeback(b) => (format!("{game}/takeback/{}", yes(*b)), Vec::new()),
        Action::Resign => (format!("{game}/resign"), Vec::new()),
        Action::Abort => (format!("{game}/abort"), Vec::new()),
        Action::ClaimVictory => (format!("{game}/claim-victory"), Vec::new()),
        Action::Chat(text) => (
            format!("{game}/chat"),
            vec![("room", "player".to_string()), ("text", text.clone())],
        ),
    }
}

/// Sends each action in turn, one request at a time: after a 429 it waits as asked (a minute
/// at least) and sends it again (a move is never dropped); a refusal is told with the
/// server's reason; after a refused token the action is given back to the session, which
/// keeps a move until the player has logged in again.
fn send_actions(
    client: &Client,
    id: &str,
    actions: &Receiver<Action>,
    tx: &Sender<News>,
    stop: &AtomicBool,
) {
    while let Ok(action) = actions.recv() {
        let (path, form) = action_request(id, &action);
        let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let mut tries = 0;
        loop {
            match client.post(&path, &form) {
                Ok(_) => break,
                Err(ApiError::RateLimited(wait)) => {
                    let _ = tx.send(News::Link(Link::Waiting(wait)));
                    if !pause(wait, stop) {
                        return;
                    }
                }
                Err(ApiError::Unauthorized) => {
                    let _ = tx.send(News::Link(Link::Unsent(action)));
                    break;
                }
                Err(ApiError::Refused { reason, .. }) => {
                    let _ = tx.send(News::Link(Link::Refused { action, reason }));
                    break;
                }
                Err(ApiError::Network(reason)) => {
                    tries += 1;
                    if tries >= 3 {
                        let _ = tx.send(News::Link(Link::Refused { action, reason }));
                        break;
                    }
                    if !pause(Duration::from_secs(1 << tries), stop) {
                        return;
                    }
                }
            }
        }
    }
}

/// Waits on the account's event stream for a game to start that is not in `known`; a
/// challenge declined ends the wait, and so does `limit` when one is given (a challenge
/// nobody accepted in time). A stream that closes or stays silent (not even keep-alive
/// lines) is opened again with backoff; `dropped` is called each time, so that the caller
/// can say it (once).
pub(crate) fn wait_for_game(
    client: &Client,
    known: &[String],
    limit: Option<Duration>,
    dropped: &mut dyn FnMut(),
) -> Result<String, WaitError> {
    let deadline = limit.map(|l| Instant::now() + l);
    wait_for_game_with(client, known, PATIENCE, deadline, dropped)
}

fn wait_for_game_with(
    client: &Client,
    known: &[String],
    patience: Patience,
    deadline: Option<Instant>,
    dropped: &mut dyn FnMut(),
) -> Result<String, WaitError> {
    let left = || deadline.map(|d| d.saturating_duration_since(Instant::now()));
    let timed_out = || left().is_some_and(|l| l.is_zero());
    // Sleeps `d`, but not past the deadline.
    let nap = |d: Duration| thread::sleep(left().map_or(d, |l| l.min(d)));
    let mut backoff = Duration::from_secs(1);
    let mut first = true;
    loop {
        if timed_out() {
            return Err(WaitError::TimedOut);
        }
        let stream = match client.stream("/api/stream/event", None) {
            Ok(s) => s,
            Err(e @ ApiError::Unauthorized) => return Err(WaitError::Api(e)),
            Err(e) if first => return Err(WaitError::Api(e)),
            Err(ApiError::RateLimited(wait)) => {
                nap(wait);
                continue;
            }
            Err(_) => {
                nap(backoff);
                backoff = (backoff * 2).min(MAX_BACKOFF);
                continue;
            }
        };
        first = false;
        let opened = Instant::now();
        let mut last = opened;
        loop {
            let wait = patience.stall.saturating_sub(last.elapsed());
            match stream.next(left().map_or(wait, |l| l.min(wait))) {
                Next::Line(text) => {
                    last = Instant::now();
                    if opened.elapsed() >= patience.healthy {
                        backoff = Duration::from_secs(1);
                    }
                    match wire::event_line(&text) {
                        Ok(Some(AccountEvent::GameStart { id })) if !known.contains(&id) => {
                            return Ok(id);
                        }
                        Ok(Some(AccountEvent::ChallengeDeclined { reason })) => {
                            return Err(WaitError::Declined(reason));
                        }
                        _ => {}
                    }
                }
                Next::TooLong => last = Instant::now(),
                Next::Silent if timed_out() => return Err(WaitError::TimedOut),
                Next::Silent if last.elapsed() < patience.stall => {}
                Next::Silent | Next::Closed => break,
            }
        }
        // Closes the connection before the next one opens.
        drop(stream);
        dropped();
        nap(backoff);
        backoff = (backoff * 2).min(MAX_BACKOFF);
    }
}

#[derive(Debug, thiserror::Error)]
pub(crate) enum WaitError {
    #[error("{0}")]
    Api(ApiError),
    #[error("declined: {0}")]
    Declined(String),
    /// Nothing started within the time given.
    #[error("no game started in time")]
    TimedOut,
}

/// Runs `f` on a thread and returns its answers on a channel (a seek's long request).
pub(crate) fn in_background<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Receiver<T> {
    let (tx, rx) = bounded(1);
    thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &'static [u8]) -> Lines {
        Lines::new(Box::new(bytes))
    }

    #[test]
    fn lines_are_split_and_a_last_line_without_newline_counts() {
        let mut l = lines(b"{\"a\":1}\n\n{\"b\":2}");
        assert_eq!(l.read_line().ok(), Some(Read1::Line("{\"a\":1}".into())));
        assert_eq!(l.read_line().ok(), Some(Read1::Line(String::new())));
        assert_eq!(l.read_line().ok(), Some(Read1::Line("{\"b\":2}".into())));
        assert_eq!(l.read_line().ok(), Some(Read1::End));
    }

    #[test]
    fn a_line_past_the_cap_is_skipped_and_the_next_is_read() {
        let mut big = vec![b'x'; MAX_LINE + 10];
        big.extend_from_slice(b"\nok\n");
        let mut l = Lines::new(Box::new(std::io::Cursor::new(big)));
        assert_eq!(l.read_line().ok(), Some(Read1::TooLong));
        assert_eq!(l.read_line().ok(), Some(Read1::Line("ok".into())));
    }

    /// A reader that gives nothing for a while, then ends.
    struct Silent(Duration);

    impl Read for Silent {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            thread::sleep(self.0);
            Ok(0)
        }
    }

    fn pumped(stream: Stream, stall: Duration, tx: &Sender<News>) -> (Pumped, usize) {
        let stop = AtomicBool::new(false);
        let mut healthy = 0;
        let patience = Patience {
            stall,
            healthy: Duration::ZERO,
        };
        let end = pump(&stream, patience, tx, &stop, &|| false, &mut || {
            healthy += 1
        });
        (end, healthy)
    }

    #[test]
    fn a_silent_stream_is_given_up_and_lines_are_forwarded() {
        let (tx, rx) = bounded(16);
        let silent = Stream::open(Box::new(Silent(Duration::from_millis(300))), None);
        assert_eq!(
            pumped(silent, Duration::from_millis(20), &tx),
            (Pumped::Stalled, 0)
        );
        let talking = Stream::open(
            Box::new(&b"\n{\"type\":\"opponentGone\",\"gone\":false}\nnot json\n"[..]),
            None,
        );
        // Healthy once, at its first line.
        assert_eq!(
            pumped(talking, Duration::from_secs(5), &tx),
            (Pumped::Closed, 1)
        );
        let news: Vec<News> = rx.try_iter().collect();
        assert_eq!(news.len(), 2, "{news:?}");
        assert!(matches!(news[0], News::Line(GameLine::Gone(_))));
        assert!(matches!(news[1], News::Link(Link::BadLine(_))));
    }

    /// A server on 127.0.0.1 that answers each request with the next of `answers` and counts
    /// them; the listener ends when the last answer is given.
    fn answering(answers: Vec<&'static str>) -> (String, Arc<Mutex<Vec<String>>>) {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let seen: Arc<Mutex<Vec<String>>> = Arc::default();
        let log = seen.clone();
        thread::spawn(move || {
            for answer in answers {
                let Ok((mut conn, _)) = listener.accept() else {
                    return;
                };
                let mut reader = BufReader::new(conn.try_clone().expect("clone"));
                let mut first = String::new();
                let _ = reader.read_line(&mut first);
                loop {
                    let mut h = String::new();
                    if reader.read_line(&mut h).unwrap_or(0) == 0 || h.trim().is_empty() {
                        break;
                    }
                }
                lock(&log).push(first.trim().to_string());
                let _ = std::io::Write::write_all(&mut conn, answer.as_bytes());
            }
        });
        (url, seen)
    }

    const TOO_MANY: &str = "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 0\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
    const OK: &str =
        "HTTP/1.1 200 OK\r\nContent-Length: 11\r\nConnection: close\r\n\r\n{\"ok\":true}";

    #[test]
    fn after_a_429_nothing_is_sent_before_the_least_wait_and_the_move_still_goes() {
        let (url, seen) = answering(vec![TOO_MANY, OK]);
        let mut client = Client::new(&url, "lip_x").expect("loopback");
        client.rate_floor = Duration::from_millis(300);
        // "Retry-After: 0" does not shorten the wait: a request meanwhile is not sent.
        let first = client.post("/api/board/game/g/move/e2e4", &[]);
        assert_eq!(
            first,
            Err(ApiError::RateLimited(Duration::from_millis(300)))
        );
        let meanwhile = client.post("/api/board/game/g/draw/yes", &[]);
        assert!(
            matches!(meanwhile, Err(ApiError::RateLimited(_))),
            "{meanwhile:?}"
        );
        assert_eq!(lock(&seen).len(), 1, "{:?}", lock(&seen));
        // The sender waits the whole time and sends the move again, once.
        let (tx, rx) = bounded(16);
        let (actions, action_rx) = crossbeam_channel::unbounded();
        actions.send(Action::Move("e2e4".into())).expect("queued");
        drop(actions);
        let stop = AtomicBool::new(false);
        send_actions(&client, "g", &action_rx, &tx, &stop);
        let news: Vec<News> = rx.try_iter().collect();
        assert_eq!(
            *lock(&seen),
            [
                "POST /api/board/game/g/move/e2e4 HTTP/1.1",
                "POST /api/board/game/g/move/e2e4 HTTP/1.1"
            ]
        );
        assert_eq!(news.len(), 1, "{news:?}");
        assert!(matches!(news[0], News::Link(Link::Waiting(_))), "{news:?}");
    }

    #[test]
    fn a_refusals_reason_is_never_empty_and_never_long() {
        assert_eq!(reason_of(404, ""), "Not Found");
        assert_eq!(reason_of(404, r#"{"error":""}"#), "Not Found");
        assert_eq!(reason_of(302, "  "), "Found");
        assert_eq!(reason_of(599, ""), "no reason given");
        assert_eq!(
            reason_of(400, r#"{"error":"Piece on e2 cannot move"}"#),
            "Piece on e2 cannot move"
        );
        let long = format!(r#"{{"error":"{}"}}"#, "x".repeat(500_000));
        assert!(reason_of(400, &long).chars().count() <= 300);
    }

    /// A server whose event stream sends keep-alive lines and never a game: the wait for a
    /// challenge ends at its limit, and the stream's connection is closed.
    #[test]
    fn a_challenge_nobody_answers_is_waited_for_its_limit_only() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let closed = Arc::new(AtomicBool::new(false));
        let seen = closed.clone();
        thread::spawn(move || {
            let Ok((mut conn, _)) = listener.accept() else {
                return;
            };
            let mut reader = BufReader::new(conn.try_clone().expect("clone"));
            loop {
                let mut h = String::new();
                if reader.read_line(&mut h).unwrap_or(0) == 0 || h.trim().is_empty() {
                    break;
                }
            }
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n";
            let _ = std::io::Write::write_all(&mut conn, head.as_bytes());
            while std::io::Write::write_all(&mut conn, b"1\r\n\n\r\n").is_ok() {
                thread::sleep(Duration::from_millis(50));
            }
            seen.store(true, Ordering::Relaxed);
        });
        let client = Client::new(&url, "lip_x").expect("loopback");
        let started = Instant::now();
        let waited = wait_for_game_with(
            &client,
            &[],
            PATIENCE,
            Some(Instant::now() + Duration::from_millis(600)),
            &mut || {},
        );
        assert!(matches!(waited, Err(WaitError::TimedOut)), "{waited:?}");
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        let deadline = Instant::now() + Duration::from_secs(5);
        while !closed.load(Ordering::Relaxed) && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(20));
        }
        assert!(closed.load(Ordering::Relaxed), "the stream was left open");
    }

    #[test]
    fn the_token_goes_only_over_https_or_to_this_machine() {
        for ok in [
            "https://lichess.org",
            "https://lichess.org/",
            "HTTPS://example.com:8443",
            "http://127.0.0.1:9999",
            "http://127.3.4.5",
            "http://localhost:80",
            "http://[::1]:8080",
        ] {
            assert_eq!(check_server(ok), Ok(()), "{ok}");
        }
        for insecure in [
            "http://mirror.example.com:8080",
            "http://10.0.0.1",
            "http://[2001:db8::1]",
            "http://localhost.example.com",
        ] {
            assert!(
                matches!(check_server(insecure), Err(ServerError::Insecure(_))),
                "{insecure}"
            );
        }
        for bad in ["lichess.org", "ftp://lichess.org", "", "https://"] {
            assert!(
                matches!(check_server(bad), Err(ServerError::NotAnAddress(_))),
                "{bad}"
            );
        }
        assert!(Client::new("http://mirror.example.com", "lip_x").is_err());
    }

    #[test]
    fn actions_go_to_the_board_api_paths() {
        assert_eq!(
            action_request("g1", &Action::Move("e2e4".into())).0,
            "/api/board/game/g1/move/e2e4"
        );
        assert_eq!(
            action_request("g1", &Action::Draw(false)).0,
            "/api/board/game/g1/draw/no"
        );
        assert_eq!(
            action_request("g1", &Action::ClaimVictory).0,
            "/api/board/game/g1/claim-victory"
        );
        let (path, form) = action_request("g1", &Action::Chat("hi".into()));
        assert_eq!(path, "/api/board/game/g1/chat");
        assert_eq!(form.len(), 2);
    }
}
