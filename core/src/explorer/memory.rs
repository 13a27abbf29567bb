//! What a session keeps of the explorer: the answers per position (the newest
//! [`CACHED`] positions, the oldest forgotten first), the position asked and not yet
//! answered, and the minute without requests after a 429, said once. Time is passed in.

use std::collections::VecDeque;
use std::time::Duration;

use super::{Failure, Reply, Tables};
use crate::time::Timestamp;

/// The positions whose answers are kept.
pub const CACHED: usize = 64;
/// The wait after a 429: lichess asks for a full minute.
pub const RATE_WAIT: Duration = Duration::from_secs(60);
/// A request not answered in this time is asked again (the adapter's own limit is shorter).
const STALE: Duration = Duration::from_secs(40);

/// What to do about a position asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ask {
    /// Its answer is kept: say it.
    Known(Tables),
    /// Ask the explorer.
    Fetch,
    /// Already asked; its answer is on its way.
    Waiting,
    /// A 429's minute runs: nothing is asked; `tell` the first time only.
    Quiet { tell: bool },
}

/// The explorer's answers of a session and its rate limit.
#[derive(Debug, Default)]
pub struct Memory {
    kept: VecDeque<(String, Tables)>,
    asked: Option<(String, Timestamp)>,
    quiet_until: Option<Timestamp>,
    wait_told: bool,
    /// Whether a lichess token is stored (the adapter tells before each request of the
    /// player's): without one nothing is asked.
    token: bool,
}

impl Memory {
    /// Whether the answer about `fen` is kept.
    pub fn knows(&self, fen: &str) -> bool {
        self.kept.iter().any(|(k, _)| k == fen)
    }

    /// The player asks about the position `fen` at `now`.
    pub fn ask(&mut self, fen: &str, now: Timestamp) -> Ask {
        if let Some((_, t)) = self.kept.iter().find(|(k, _)| k == fen) {
            return Ask::Known(t.clone());
        }
        if let Some(until) = self.quiet_until {
            if now < until {
                let tell = !self.wait_told;
                self.wait_told = true;
                return Ask::Quiet { tell };
            }
            self.quiet_until = None;
            self.wait_told = false;
        }
        if let Some((k, at)) = &self.asked
            && k == fen
            && now.saturating_since(*at) < STALE
        {
            return Ask::Waiting;
        }
        self.asked = Some((fen.to_string(), now));
        Ask::Fetch
    }

    /// The explorer's reply about `fen` came at `now`: an answer is kept, a 429 starts the
    /// minute. Returns whether the reason of a failure is still to be said (a 429's wait
    /// is said once, however many replies bring it).
    pub fn answered(&mut self, fen: &str, reply: &Reply, now: Timestamp) -> bool {
        if self.asked.as_ref().is_some_and(|(k, _)| k == fen) {
            self.asked = None;
        }
        match reply {
            Reply::Found(tables) => {
                if !self.kept.iter().any(|(k, _)| k == fen) {
                    if self.kept.len() >= CACHED {
                        self.kept.pop_front();
                    }
                    self.kept.push_back((fen.to_string(), tables.clone()));
                }
                true
            }
            Reply::Failed(Failure::RateLimited) => {
                self.quiet_until = Some(now + RATE_WAIT);
                let tell = !self.wait_told;
                self.wait_told = true;
                tell
            }
            Reply::Failed(Failure::NoToken) => {
                // The token went between the player's line and the request.
                self.token = false;
                true
            }
            Reply::Failed(_) => true,
        }
    }

    /// Whether a lichess token is stored now: the adapter looks before each line the player
    /// types, so that a login during the session counts.
    pub fn token_stored(&mut self, stored: bool) {
        self.token = stored;
    }

    pub fn has_token(&self) -> bool {
        self.token
    }

    /// How many positions' answers are kept.
    pub fn kept(&self) -> usize {
        self.kept.len()
    }
}
