//! The arbiter's games pushed to a lichess broadcast round (`POST
//! /api/broadcast/round/{id}/push`, `text/plain` PGN of up to 100 games, the token's
//! study:write scope), on a thread of its own, so that no push ever holds up a game: the
//! newest PGN of the round waits in one slot (an older one not yet sent is replaced, since each
//! push carries every game whole); one request at a time, each bounded as a whole (a server
//! that drips its answer is given up after `REQUEST_DEADLINE`); a refusal or a failure is told
//! once and the push tried again with backoff (a 429 after the minute lichess asks) until one
//! goes through, which is told again.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender, bounded};

use super::{ApiError, Client, lock, pause};

/// The longest pause between two tries of a refused push.
const MAX_RETRY: Duration = Duration::from_secs(60);

/// What the pushing thread tells the console.
#[derive(Debug)]
pub(crate) enum PushNews {
    /// lichess took the round's games (said once, and again after refusals).
    Pushed,
    /// lichess refused, or did not answer in time: why, and when the push is tried again.
    /// Said once until a push goes through.
    Refused { reason: String, retry: Duration },
    /// lichess took the push but not one game of it: the game's players and why.
    GameRefused { game: String, reason: String },
}

type Slot = Arc<(Mutex<Option<String>>, Condvar)>;

/// Pushes to one round.
pub(crate) struct Pusher {
    slot: Slot,
    news: Receiver<PushNews>,
    stop: Arc<AtomicBool>,
}

impl Pusher {
    pub(crate) fn start(client: &Client, round: &str) -> Pusher {
        let slot: Slot = Arc::default();
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, news) = bounded(64);
        let (client, path, sl, st) = (
            client.clone(),
            format!("/api/broadcast/round/{round}/push"),
            slot.clone(),
            stop.clone(),
        );
        thread::spawn(move || push_loop(&client, &path, &sl, &tx, &st));
        Pusher { slot, news, stop }
    }

    /// The round's PGN as it stands now: pushed as soon as the thread is free.
    pub(crate) fn push(&self, pgn: String) {
        *lock(&self.slot.0) = Some(pgn);
        self.slot.1.notify_all();
    }

    pub(crate) fn news(&self) -> &Receiver<PushNews> {
        &self.news
    }

    /// Waits up to `limit` for the last PGN to go (the console is closing).
    pub(crate) fn flush(&self, limit: Duration) {
        let end = std::time::Instant::now() + limit;
        while lock(&self.slot.0).is_some() && std::time::Instant::now() < end {
            thread::sleep(Duration::from_millis(50));
        }
        self.stop.store(true, Ordering::Relaxed);
        self.slot.1.notify_all();
    }
}

impl Drop for Pusher {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.slot.1.notify_all();
    }
}

impl Client {
    fn push_pgn(&self, path: &str, pgn: &str) -> Result<String, ApiError> {
        let (url, auth) = (self.url(path), self.auth());
        let r = self.send(|agent| {
            agent
                .post(url)
                .header("Authorization", auth)
                .content_type("text/plain; charset=utf-8")
                .send(pgn)
        })?;
        Client::text(r)
    }
}

/// The games lichess did not take, from its answer `{"games":[{tags, moves}|{tags, error}]}`.
fn refused_games(answer: &str) -> Vec<(String, String)> {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(answer) else {
        return Vec::new();
    };
    let games = v
        .get("games")
        .and_then(|g| g.as_array())
        .cloned()
        .unwrap_or_default();
    games
        .iter()
        .filter_map(|g| {
            let error = g.get("error")?.as_str()?;
            let tag = |name: &str| {
                g.get("tags")
                    .and_then(|t| t.get(name))
                    .and_then(|t| t.as_str())
                    .unwrap_or("?")
                    .to_string()
            };
            Some((
                format!("{} - {}", tag("White"), tag("Black")),
                error.to_string(),
            ))
        })
        .collect()
}

fn push_loop(client: &Client, path: &str, slot: &Slot, tx: &Sender<PushNews>, stop: &AtomicBool) {
    // Nothing has gone yet, or the last try failed: the next success is told.
    let mut failing = true;
    // A failure was told, and no push has gone through since.
    let mut told = false;
    let mut retry = Duration::from_secs(2);
    loop {
        // The newest PGN: it stays in the slot until it is sent, so that a refusal loses
        // nothing and a newer one replaces it.
        let pgn = {
            let mut guard = lock(&slot.0);
            while guard.is_none() && !stop.load(Ordering::Relaxed) {
                guard = slot
                    .1
                    .wait_timeout(guard, Duration::from_millis(250))
                    .map(|(g, _)| g)
                    .unwrap_or_else(|e| e.into_inner().0);
            }
            match guard.clone() {
                Some(p) => p,
                None => return,
            }
        };
        let (reason, wait) = match client.push_pgn(path, &pgn) {
            Ok(answer) => {
                {
                    let mut guard = lock(&slot.0);
                    if guard.as_deref() == Some(pgn.as_str()) {
                        *guard = None;
                    }
                }
                told = false;
                if std::mem::take(&mut failing) {
                    let _ = tx.send(PushNews::Pushed);
                }
                for (game, reason) in refused_games(&answer) {
                    let _ = tx.send(PushNews::GameRefused { game, reason });
                }
                retry = Duration::from_secs(2);
                continue;
            }
            Err(ApiError::RateLimited(wait)) => (ApiError::RateLimited(wait).to_string(), wait),
            Err(e) => {
                let wait = retry;
                retry = (retry * 2).min(MAX_RETRY);
                (e.to_string(), wait)
            }
        };
        failing = true;
        if !std::mem::replace(&mut told, true) {
            let _ = tx.send(PushNews::Refused {
                reason,
                retry: wait,
            });
        }
        if !pause(wait, stop) {
            return;
        }
    }
}
