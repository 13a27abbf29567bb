//! Streams one follows without playing: a broadcast round's PGN, a game's moves, lichess TV.
//! One request at a time on a thread of its own: each line goes to the mode as it comes (the
//! PGN's lines raw, since only the core knows where a game ends); a stream that breaks, closes
//! or goes silent longer than its keep-alive is opened again with backoff (said once, and said
//! back once a connection has held), a 429 waits the minute lichess asks, and a refusal (no
//! such round or game, a redirect) ends the watch with its reason. A stream's close is no sign
//! that the game is over (lichess closes streams when it restarts, a proxy when it likes): the
//! mode, which reads the game's result, stops the link. These streams are public: no token
//! goes with them.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, bounded};

use super::{ApiError, Client, HEALTHY, MAX_BACKOFF, Next, Stream, agent, pause};

/// What the watch's thread tells the mode.
#[derive(Debug)]
pub(crate) enum WatchNews {
    /// A connection is open: its lines follow (a game's stream replays the game first).
    Connected,
    Line(String),
    TooLong,
    Dropped,
    Restored,
    Waiting(Duration),
    /// Nothing more comes: the server refused (why, for the mode to say in its words).
    Ended(Option<ApiError>),
}

/// What to follow.
#[derive(Clone, Debug)]
pub(crate) enum Followed {
    /// A broadcast round, by its id.
    Round(String),
    /// A game, by its id.
    Game(String),
    /// lichess TV: the best game, or a channel's.
    Tv(Option<String>),
}

impl Followed {
    fn path(&self) -> String {
        match self {
            Followed::Round(id) => format!("/api/stream/broadcast/round/{id}.pgn"),
            Followed::Game(id) => format!("/api/stream/game/{id}"),
            Followed::Tv(None) => "/api/tv/feed".to_string(),
            Followed::Tv(Some(channel)) => format!("/api/tv/{channel}/feed"),
        }
    }

    /// How long a stream may stay silent: lichess keeps a round alive with a space every 60 s;
    /// a game's stream brings a line at each move, which may take long in a slow game.
    fn stall(&self) -> Duration {
        match self {
            Followed::Round(_) => Duration::from_secs(150),
            Followed::Game(_) | Followed::Tv(_) => Duration::from_secs(600),
        }
    }
}

/// The watch's stream, read on a thread of its own until dropped.
pub(crate) struct WatchLink {
    news: Receiver<WatchNews>,
    stop: Arc<AtomicBool>,
}

impl WatchLink {
    pub(crate) fn start(client: &Client, followed: Followed) -> WatchLink {
        let (tx, news) = bounded(256);
        let stop = Arc::new(AtomicBool::new(false));
        let (client, st) = (client.clone(), stop.clone());
        thread::spawn(move || follow(&client, &followed, &tx, &st));
        WatchLink { news, stop }
    }

    pub(crate) fn news(&self) -> &Receiver<WatchNews> {
        &self.news
    }

    pub(crate) fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl Drop for WatchLink {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A reader that notes when bytes last came: lichess keeps a round alive with a lone space,
/// no line, so a stream is silent only when no byte at all comes.
struct Activity {
    inner: Box<dyn std::io::Read + Send>,
    last: Arc<std::sync::Mutex<Instant>>,
}

impl std::io::Read for Activity {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n > 0 {
            *super::lock(&self.last) = Instant::now();
        }
        Ok(n)
    }
}

impl Client {
    /// A GET stream, with the client's token only when it has one (the watch gives it none:
    /// public rounds and games need none); `last` notes when its bytes last came.
    fn watch_stream(
        &self,
        path: &str,
        stall: Duration,
        last: &Arc<std::sync::Mutex<Instant>>,
    ) -> Result<Stream, ApiError> {
        if let Some(left) = self.quiet_left() {
            return Err(ApiError::RateLimited(left));
        }
        let agent = agent(Some(stall), None);
        let mut request = agent.get(self.url(path)).header(
            "Accept",
            if path.ends_with(".pgn") {
                "application/x-chess-pgn"
            } else {
                "application/x-ndjson"
            },
        );
        if !super::lock(&self.token).is_empty() {
            request = request.header("Authorization", self.auth());
        }
        let response = match self.check(request.call()) {
            Ok(r) => r,
            Err(e) => {
                // Ends a refusal's answer still being read.
                agent.shutdown();
                return Err(e);
            }
        };
        let reader = Activity {
            inner: Box::new(response.into_body().into_reader()),
            last: last.clone(),
        };
        Ok(Stream::open(Box::new(reader), Some(agent)))
    }
}

/// Until stopped: open the stream, forward its lines, and open it again when it breaks.
fn follow(client: &Client, followed: &Followed, tx: &Sender<WatchNews>, stop: &AtomicBool) {
    let path = followed.path();
    let stall = followed.stall();
    let mut backoff = Duration::from_secs(1);
    let mut down = false;
    loop {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let activity = Arc::new(std::sync::Mutex::new(Instant::now()));
        match client.watch_stream(&path, stall, &activity) {
            Ok(stream) => {
                if tx.send(WatchNews::Connected).is_err() {
                    return;
                }
                let opened = Instant::now();
                loop {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    // "Restored" only once the connection has held (as the game stream
                    // does), so that a server closing each connection at once is not said
                    // to be back again and again; the backoff starts over then too.
                    if opened.elapsed() >= HEALTHY {
                        backoff = Duration::from_secs(1);
                        if std::mem::take(&mut down) && tx.send(WatchNews::Restored).is_err() {
                            return;
                        }
                    }
                    let news = match stream.next(Duration::from_millis(250)) {
                        Next::Silent if super::lock(&activity).elapsed() >= stall => break,
                        Next::Silent => continue,
                        Next::Closed => break,
                        Next::TooLong => WatchNews::TooLong,
                        Next::Line(text) => WatchNews::Line(text),
                    };
                    if tx.send(news).is_err() {
                        return;
                    }
                }
                drop(stream);
                if !std::mem::replace(&mut down, true) {
                    let _ = tx.send(WatchNews::Dropped);
                }
            }
            Err(ApiError::RateLimited(wait)) => {
                let _ = tx.send(WatchNews::Waiting(wait));
                if !pause(wait, stop) {
                    return;
                }
                continue;
            }
            // No such round or game, or not for this token: asking again changes nothing.
            Err(e @ (ApiError::Refused { status: ..500, .. } | ApiError::Unauthorized)) => {
                let _ = tx.send(WatchNews::Ended(Some(e)));
                return;
            }
            Err(ApiError::Network(_) | ApiError::Refused { .. }) => {
                if !std::mem::replace(&mut down, true) {
                    let _ = tx.send(WatchNews::Dropped);
                }
            }
        }
        if !pause(backoff, stop) {
            return;
        }
        backoff = (backoff * 2).min(MAX_BACKOFF);
    }
}
