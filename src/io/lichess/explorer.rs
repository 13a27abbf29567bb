//! The opening explorer over HTTPS: one thread of its own asks it about the positions the
//! game's machine names (both databases, `/masters` and `/lichess`) and sends each reply
//! back as an event, so that the game never waits on it. The token is lichess.org's when the
//! explorer is lichess's own (`token::file_name` names the hosts that share it), read again
//! for each request so that a login during the game counts; each request is bounded as a
//! whole ([`DEADLINE`]) and its body ([`MAX_BODY`]); after a 429 the client sends nothing for
//! the minute lichess asks.

use std::thread;
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender, bounded};
use shakmaty::Chess;

use super::{ApiError, Client, token};
use crate::core::explorer::{self, Database, Failure, MAX_BODY, Reply, Tables};

/// The explorer's own address: lichess's since 2026.
pub(crate) const DEFAULT_SERVER: &str = "https://explorer.lichess.org";
/// The longest one database's request may take, body included.
const DEADLINE: Duration = Duration::from_secs(10);
/// Positions waiting to be asked about; more are dropped (asked again later).
const QUEUE: usize = 8;

/// The explorer's reply about a position, as the machine's event takes it.
#[derive(Debug)]
pub(crate) struct Explored {
    pub(crate) fen: String,
    pub(crate) reply: Reply,
}

/// The thread that asks the explorer at `server`.
pub(crate) struct ExplorerLink {
    asks: Sender<Chess>,
    news: Receiver<Explored>,
}

impl ExplorerLink {
    /// Starts the thread; it ends when the link is dropped.
    pub(crate) fn start(server: &str) -> ExplorerLink {
        let (asks, asked) = bounded::<Chess>(QUEUE);
        let (told, news) = bounded(QUEUE);
        let server = server.trim().trim_end_matches('/').to_string();
        // Without its thread (the system refused one) nothing answers: the channel is
        // closed and the runtime stops waiting on it.
        let _ = thread::Builder::new()
            .name("hector-explorer".into())
            .spawn(move || serve(&server, &asked, &told));
        ExplorerLink { asks, news }
    }

    /// Asks about `pos`; the reply comes on [`ExplorerLink::news`].
    pub(crate) fn ask(&self, pos: Chess) {
        // A full queue drops the position: the machine asks again when the player does.
        let _ = self.asks.try_send(pos);
    }

    pub(crate) fn news(&self) -> &Receiver<Explored> {
        &self.news
    }
}

/// Whether a token for the explorer at `server` is stored (or given in the environment): a
/// small file read, done before each of the player's lines.
pub(crate) fn token_stored(server: &str) -> bool {
    let server = server.trim().trim_end_matches('/');
    matches!(token::load(server), Ok(Some(_)))
}

/// Asks about each position in turn until the link is dropped.
fn serve(server: &str, asked: &Receiver<Chess>, told: &Sender<Explored>) {
    // One client per token, so that a 429's wait holds for every later request.
    let mut client: Option<(String, Client)> = None;
    while let Ok(pos) = asked.recv() {
        let fen = explorer::fen(&pos);
        let reply = match token::load(server) {
            Ok(Some(t)) => {
                if client.as_ref().is_none_or(|(old, _)| *old != t) {
                    client = Client::new(server, &t)
                        .ok()
                        .map(|c| (t.clone(), c.with_deadline(DEADLINE)));
                }
                match &client {
                    Some((_, c)) => ask_both(c, &pos, &fen),
                    // An address the token may not go to (plain http to another machine).
                    None => Reply::Failed(Failure::Unreachable),
                }
            }
            Ok(None) | Err(_) => Reply::Failed(Failure::NoToken),
        };
        if told.send(Explored { fen, reply }).is_err() {
            return;
        }
    }
}

fn ask_both(client: &Client, pos: &Chess, fen: &str) -> Reply {
    let mut tables = Vec::with_capacity(2);
    for db in Database::ALL {
        match ask_one(client, db, pos, fen) {
            Ok(t) => tables.push(t),
            Err(f) => return Reply::Failed(f),
        }
    }
    let mut tables = tables.into_iter();
    match (tables.next(), tables.next()) {
        (Some(masters), Some(lichess)) => Reply::Found(Tables { masters, lichess }),
        _ => Reply::Failed(Failure::Unreachable),
    }
}

fn ask_one(
    client: &Client,
    db: Database,
    pos: &Chess,
    fen: &str,
) -> Result<explorer::Table, Failure> {
    let mut response = client.get_response(&db.query(fen)).map_err(|e| match e {
        ApiError::Unauthorized => Failure::TokenRefused,
        ApiError::RateLimited(_) => Failure::RateLimited,
        ApiError::Refused { .. } | ApiError::Network(_) => Failure::Unreachable,
    })?;
    let body = response
        .body_mut()
        .with_config()
        .limit(MAX_BODY)
        .read_to_string()
        .map_err(|e| match e {
            ureq::Error::BodyExceedsLimit(_) => Failure::Unreadable,
            _ => Failure::Unreachable,
        })?;
    explorer::decode(&body, pos).map_err(|_| Failure::Unreadable)
}
