//! lichess's Board API over HTTPS (rustls): requests with the player's token, the game's
//! NDJSON stream read line by line on a thread of its own (each line capped, keep-alive lines
//! skipped, the connection made again with backoff when it drops), and the player's actions
//! sent on another thread, so that neither a slow server nor a wait the server asks for (HTTP
//! 429) holds up the terminal. The token lives in the XDG config directory, mode 0600.

pub mod token;

use std::io::{BufRead, BufReader, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender, unbounded};
use ureq::Agent;
use ureq::http::Response;

use crate::core::online::wire::{self, Account, AccountEvent, GameLine, Playing};
use crate::core::online::{Action, Link};

/// The longest stream line hector reads; a longer one is skipped and said.
pub const MAX_LINE: usize = 1 << 20;
/// The wait after a 429 when the server names none (lichess: "one minute").
const RATE_WAIT: Duration = Duration::from_secs(60);
/// A game stream silent this long (lichess sends a keep-alive line every few seconds) is
/// taken as broken.
const STALL: Duration = Duration::from_secs(20);
/// The longest pause between two attempts to connect again.
const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// What went wrong with a request.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    #[error("the token is not accepted (HTTP 401)")]
    Unauthorized,
    #[error("too many requests: wait {} s (HTTP 429)", .0.as_secs())]
    RateLimited(Duration),
    #[error("HTTP {status}: {reason}")]
    Refused { status: u16, reason: String },
    #[error("{0}")]
    Network(String),
}

/// lichess (or the server at `base`) with the player's token.
#[derive(Clone)]
pub struct Client {
    agent: Agent,
    base: String,
    token: String,
}

impl Client {
    pub fn new(base: &str, token: &str) -> Client {
        let agent: Agent = Agent::config_builder()
            .http_status_as_error(false)
            .timeout_connect(Some(Duration::from_secs(15)))
            .timeout_recv_response(Some(Duration::from_secs(30)))
            .user_agent(concat!("hector/", env!("CARGO_PKG_VERSION")))
            .build()
            .into();
        Client {
            agent,
            base: base.trim_end_matches('/').to_string(),
            token: token.trim().to_string(),
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    fn auth(&self) -> String {
        format!("Bearer {}", self.token)
    }

    /// A successful answer, or the error its status says.
    fn check(
        result: Result<Response<ureq::Body>, ureq::Error>,
    ) -> Result<Response<ureq::Body>, ApiError> {
        let mut response = result.map_err(|e| ApiError::Network(e.to_string()))?;
        let status = response.status().as_u16();
        match status {
            200..=299 => Ok(response),
            401 => Err(ApiError::Unauthorized),
            429 => {
                let wait = response
                    .headers()
                    .get("retry-after")
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.trim().parse::<u64>().ok())
                    .map_or(RATE_WAIT, Duration::from_secs);
                Err(ApiError::RateLimited(wait))
            }
            _ => {
                let body = response
                    .body_mut()
                    .with_config()
                    .limit(64 * 1024)
                    .read_to_string()
                    .unwrap_or_default();
                Err(ApiError::Refused {
                    status,
                    reason: wire::error_text(&body),
                })
            }
        }
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

    pub fn get(&self, path: &str) -> Result<String, ApiError> {
        let r = self
            .agent
            .get(self.url(path))
            .header("Authorization", self.auth())
            .call();
        Client::text(Client::check(r)?)
    }

    pub fn post(&self, path: &str, form: &[(&str, &str)]) -> Result<String, ApiError> {
        let request = self
            .agent
            .post(self.url(path))
            .header("Authorization", self.auth());
        let r = if form.is_empty() {
            request.send_empty()
        } else {
            request.send_form(form.iter().copied())
        };
        Client::text(Client::check(r)?)
    }

    /// A streamed answer, to be read line by line.
    pub fn stream(&self, path: &str, form: Option<&[(&str, &str)]>) -> Result<Lines, ApiError> {
        let r = match form {
            None => self
                .agent
                .get(self.url(path))
                .header("Authorization", self.auth())
                .header("Accept", "application/x-ndjson")
                .call(),
            Some(form) => self
                .agent
                .post(self.url(path))
                .header("Authorization", self.auth())
                .send_form(form.iter().copied()),
        };
        let response = Client::check(r)?;
        Ok(Lines::new(Box::new(response.into_body().into_reader())))
    }

    pub fn account(&self) -> Result<Account, ApiError> {
        let text = self.get("/api/account")?;
        wire::account(&text).map_err(|e| ApiError::Network(e.0))
    }

    pub fn playing(&self) -> Result<Vec<Playing>, ApiError> {
        let text = self.get("/api/account/playing")?;
        wire::playing(&text).map_err(|e| ApiError::Network(e.0))
    }
}

/// A stream's lines, each at most [`MAX_LINE`] bytes.
pub struct Lines {
    reader: BufReader<Box<dyn Read + Send>>,
}

/// One read from a stream.
#[derive(Debug, PartialEq, Eq)]
pub enum Read1 {
    Line(String),
    /// A line longer than [`MAX_LINE`], skipped.
    TooLong,
    End,
}

impl Lines {
    pub fn new(reader: Box<dyn Read + Send>) -> Lines {
        Lines {
            reader: BufReader::new(reader),
        }
    }

    /// The next line without its newline; a line past the cap is read to its end and
    /// dropped, so one bad line costs no memory and the stream goes on.
    pub fn read_line(&mut self) -> std::io::Result<Read1> {
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

/// What the adapter's threads send the mode.
#[derive(Debug)]
pub enum News {
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

/// The game's stream and the sender of actions, each on a thread of its own.
pub struct GameLink {
    news: Receiver<News>,
    actions: Sender<Action>,
    stop: Arc<AtomicBool>,
}

impl GameLink {
    /// Streams game `id` and sends actions for it; `first` is the stream already open (its
    /// first line read by the caller).
    pub fn start(client: &Client, id: &str, first: Option<Lines>) -> GameLink {
        let (tx, news) = unbounded();
        let (actions, action_rx) = unbounded();
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

    pub fn news(&self) -> &Receiver<News> {
        &self.news
    }

    pub fn send(&self, action: Action) {
        let _ = self.actions.send(action);
    }

    /// No more connecting again (the game is over, or the player left).
    pub fn stop(&self) {
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
    /// Nobody listens any more.
    Gone,
}

/// Forwards a connection's lines as news. The reading happens on a thread of its own, so
/// that a connection that goes silent without closing (no keep-alive lines) is noticed after
/// `stall` and given up; its thread ends when the socket does.
fn pump(mut lines: Lines, stall: Duration, tx: &Sender<News>) -> Pumped {
    let (inner_tx, inner) = crossbeam_channel::bounded::<std::io::Result<Read1>>(64);
    thread::spawn(move || {
        loop {
            let read = lines.read_line();
            let end = !matches!(read, Ok(Read1::Line(_) | Read1::TooLong));
            if inner_tx.send(read).is_err() || end {
                return;
            }
        }
    });
    loop {
        let news = match inner.recv_timeout(stall) {
            Err(crossbeam_channel::RecvTimeoutError::Timeout) => return Pumped::Stalled,
            Err(crossbeam_channel::RecvTimeoutError::Disconnected) => return Pumped::Closed,
            Ok(Ok(Read1::Line(text))) => match wire::game_line(&text) {
                Ok(Some(line)) => News::Line(line),
                Ok(None) => continue,
                Err(e) => News::Link(Link::BadLine(e.0)),
            },
            Ok(Ok(Read1::TooLong)) => News::Link(Link::TooLong),
            Ok(Ok(Read1::End) | Err(_)) => return Pumped::Closed,
        };
        if tx.send(news).is_err() {
            return Pumped::Gone;
        }
    }
}

/// Reads the game's stream until told to stop; connects again with backoff when it drops.
fn stream_game(
    client: &Client,
    id: &str,
    mut open: Option<Lines>,
    tx: &Sender<News>,
    stop: &AtomicBool,
) {
    let path = format!("/api/board/game/stream/{id}");
    let mut backoff = Duration::from_secs(1);
    let mut down = false;
    loop {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let lines = match open.take() {
            Some(l) => Ok(l),
            None => client.stream(&path, None),
        };
        match lines {
            Ok(lines) => {
                if down {
                    let _ = tx.send(News::Link(Link::Restored));
                }
                backoff = Duration::from_secs(1);
                if pump(lines, STALL, tx) == Pumped::Gone {
                    return;
                }
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                down = true;
                let _ = tx.send(News::Link(Link::Dropped));
            }
            Err(ApiError::Unauthorized) => {
                let _ = tx.send(News::Link(Link::Revoked));
                return;
            }
            Err(ApiError::RateLimited(wait)) => {
                let _ = tx.send(News::Link(Link::Waiting(wait)));
                if !pause(wait, stop) {
                    return;
                }
                continue;
            }
            Err(_) => {
                if !down {
                    down = true;
                    let _ = tx.send(News::Link(Link::Dropped));
                }
            }
        }
        if !pause(backoff, stop) {
            return;
        }
        backoff = (backoff * 2).min(MAX_BACKOFF);
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

/// Sends each action in turn: after a 429 it waits as asked and sends it again (a move is
/// never dropped); a refusal is told with the server's reason.
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
                    let _ = tx.send(News::Link(Link::Revoked));
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
/// challenge declined ends the wait. `also` runs meanwhile (a seek that stays open).
pub fn wait_for_game(client: &Client, known: &[String]) -> Result<String, WaitError> {
    let mut lines = client
        .stream("/api/stream/event", None)
        .map_err(WaitError::Api)?;
    loop {
        match lines.read_line() {
            Ok(Read1::Line(text)) => match wire::event_line(&text) {
                Ok(Some(AccountEvent::GameStart { id })) if !known.contains(&id) => return Ok(id),
                Ok(Some(AccountEvent::ChallengeDeclined { reason })) => {
                    return Err(WaitError::Declined(reason));
                }
                _ => {}
            },
            Ok(Read1::TooLong) => {}
            Ok(Read1::End) => return Err(WaitError::Api(ApiError::Network("stream ended".into()))),
            Err(e) => return Err(WaitError::Api(ApiError::Network(e.to_string()))),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum WaitError {
    #[error("{0}")]
    Api(ApiError),
    #[error("declined: {0}")]
    Declined(String),
}

/// Runs `f` on a thread and returns its answers on a channel (a seek's long request).
pub fn in_background<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Receiver<T> {
    let (tx, rx) = unbounded();
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

    #[test]
    fn a_silent_stream_is_given_up_and_lines_are_forwarded() {
        let (tx, rx) = unbounded();
        let silent = Lines::new(Box::new(Silent(Duration::from_millis(300))));
        assert_eq!(
            pump(silent, Duration::from_millis(20), &tx),
            Pumped::Stalled
        );
        let talking = lines(b"\n{\"type\":\"opponentGone\",\"gone\":false}\nnot json\n");
        assert_eq!(pump(talking, Duration::from_secs(5), &tx), Pumped::Closed);
        let news: Vec<News> = rx.try_iter().collect();
        assert_eq!(news.len(), 2, "{news:?}");
        assert!(matches!(news[0], News::Line(GameLine::Gone(_))));
        assert!(matches!(news[1], News::Link(Link::BadLine(_))));
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
