//! The Board API's stream lines as types: one NDJSON line of a game stream
//! (`/api/board/game/stream/{id}`) or of the event stream (`/api/stream/event`), read with
//! serde. An empty line is the server's keep-alive; a line of an unknown type is skipped, so a
//! newer server with more kinds of lines does not stop a game.

use serde::Deserialize;

use crate::notation::printable::{MAX_NAME, MAX_REASON, printable_cut};

/// A line of a game stream.
#[derive(Clone, Debug, PartialEq)]
pub enum GameLine {
    Full(Box<GameFull>),
    State(GameState),
    Chat(ChatLine),
    Gone(OpponentGone),
}

/// `gameFull`: the game's fixed facts and its state; always the stream's first line.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameFull {
    pub(crate) id: String,
    pub(crate) variant: VariantInfo,
    #[serde(default)]
    pub clock: Option<ClockInfo>,
    #[serde(default)]
    pub rated: bool,
    pub white: Player,
    pub black: Player,
    #[serde(default = "startpos")]
    pub initial_fen: String,
    pub(crate) state: GameState,
    /// A correspondence (daily) game: the days for each move; such a game has no clock.
    #[serde(default)]
    pub(crate) days_per_turn: Option<u32>,
}

fn startpos() -> String {
    "startpos".to_string()
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub(crate) struct VariantInfo {
    pub(crate) key: String,
}

/// The clock in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
pub struct ClockInfo {
    pub initial: u64,
    pub increment: u64,
}

/// A player of a game: a person (id, name, rating) or lichess's engine (`aiLevel`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Player {
    #[serde(default)]
    pub(crate) id: Option<String>,
    #[serde(default)]
    pub(crate) name: Option<String>,
    #[serde(default)]
    pub(crate) rating: Option<u32>,
    #[serde(default)]
    pub(crate) ai_level: Option<u8>,
}

/// `gameState`: the moves so far (UCI, space-separated), the times, the status, the offers.
/// The moves, the times and the status must be there: a line without them is unreadable
/// (read as empty they would take every move back or end the game).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct GameState {
    pub(crate) moves: String,
    pub(crate) wtime: u64,
    pub(crate) btime: u64,
    pub(crate) status: String,
    #[serde(default)]
    pub(crate) winner: Option<String>,
    #[serde(default)]
    pub(crate) wdraw: bool,
    #[serde(default)]
    pub(crate) bdraw: bool,
    #[serde(default)]
    pub(crate) wtakeback: bool,
    #[serde(default)]
    pub(crate) btakeback: bool,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct ChatLine {
    pub(crate) room: String,
    pub(crate) username: String,
    pub(crate) text: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpponentGone {
    pub(crate) gone: bool,
    #[serde(default)]
    pub(crate) claim_win_in_seconds: Option<u32>,
}

/// A line that is not what the API describes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LineError(pub String);

#[derive(Deserialize)]
struct Tagged {
    #[serde(rename = "type")]
    kind: String,
}

/// One line of a game stream: `None` for a keep-alive line or a kind hector does not use.
pub fn game_line(line: &str) -> Result<Option<GameLine>, LineError> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(None);
    }
    let err = |e: serde_json::Error| LineError(e.to_string());
    let tag: Tagged = serde_json::from_str(line).map_err(err)?;
    Ok(Some(
        match tag.kind.as_str() {
            "gameFull" => GameLine::Full(Box::new(serde_json::from_str(line).map_err(err)?)),
            "gameState" => GameLine::State(serde_json::from_str(line).map_err(err)?),
            "chatLine" => GameLine::Chat(serde_json::from_str(line).map_err(err)?),
            "opponentGone" => GameLine::Gone(serde_json::from_str(line).map_err(err)?),
            _ => return Ok(None),
        }
        .bounded(),
    ))
}

/// The longest time read from the server, in milliseconds (100 days; lichess sends some
/// 25 days for a correspondence game): a larger one counts as this.
pub(crate) const MAX_TIME_MS: u64 = 100 * 86_400_000;
/// The longest wait before a win may be claimed, in seconds.
const MAX_CLAIM_SECONDS: u32 = 3600;

fn bounded_name(name: &mut String) {
    if name.chars().count() > MAX_NAME {
        *name = printable_cut(name, MAX_NAME);
    }
}

impl GameState {
    fn bounded(mut self) -> GameState {
        self.wtime = self.wtime.min(MAX_TIME_MS);
        self.btime = self.btime.min(MAX_TIME_MS);
        self
    }
}

impl GameLine {
    /// Every number range-checked before it becomes a time, every name and chat line cut
    /// to a sensible length, before anything is kept or said.
    fn bounded(self) -> GameLine {
        match self {
            GameLine::Full(mut full) => {
                full.state = std::mem::take(&mut full.state).bounded();
                if let Some(c) = full.clock.as_mut() {
                    c.initial = c.initial.min(MAX_TIME_MS);
                    c.increment = c.increment.min(MAX_TIME_MS);
                }
                for p in [&mut full.white, &mut full.black] {
                    if let Some(n) = p.name.as_mut() {
                        bounded_name(n);
                    }
                    if let Some(n) = p.id.as_mut() {
                        bounded_name(n);
                    }
                }
                GameLine::Full(full)
            }
            GameLine::State(state) => GameLine::State(state.bounded()),
            GameLine::Chat(mut chat) => {
                bounded_name(&mut chat.username);
                if chat.text.chars().count() > MAX_REASON {
                    chat.text = printable_cut(&chat.text, MAX_REASON);
                }
                GameLine::Chat(chat)
            }
            GameLine::Gone(mut gone) => {
                gone.claim_win_in_seconds =
                    gone.claim_win_in_seconds.map(|s| s.min(MAX_CLAIM_SECONDS));
                GameLine::Gone(gone)
            }
        }
    }
}

/// The event stream's news hector waits for: a game started (its id) or a challenge declined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AccountEvent {
    GameStart { id: String },
    ChallengeDeclined { reason: String },
}

/// lichess names the game both `gameId` and `id` here.
#[derive(Deserialize)]
struct GameRef {
    #[serde(rename = "gameId")]
    game_id: Option<String>,
    id: Option<String>,
}

#[derive(Deserialize)]
struct EventLine {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    game: Option<GameRef>,
    #[serde(default)]
    challenge: Option<ChallengeRef>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ChallengeRef {
    #[serde(default)]
    decline_reason: Option<String>,
}

/// One line of the event stream: `None` for keep-alive lines and events hector ignores.
pub fn event_line(line: &str) -> Result<Option<AccountEvent>, LineError> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(None);
    }
    let e: EventLine = serde_json::from_str(line).map_err(|e| LineError(e.to_string()))?;
    Ok(match (e.kind.as_str(), e.game, e.challenge) {
        ("gameStart", Some(g), _) => g.game_id.or(g.id).map(|id| AccountEvent::GameStart { id }),
        ("challengeDeclined", _, Some(c)) => Some(AccountEvent::ChallengeDeclined {
            reason: c.decline_reason.unwrap_or_default(),
        }),
        _ => None,
    })
}

/// A game in progress (`/api/account/playing`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Playing {
    pub game_id: String,
    #[serde(default)]
    pub color: String,
    #[serde(default)]
    pub is_my_turn: bool,
    #[serde(default)]
    pub opponent: PlayingOpponent,
    /// The time left to move, in seconds (days in a correspondence game).
    #[serde(default)]
    pub seconds_left: Option<u64>,
    /// "correspondence" for a daily game.
    #[serde(default)]
    pub speed: String,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct PlayingOpponent {
    #[serde(default)]
    pub username: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct NowPlaying {
    now_playing: Vec<Playing>,
}

/// The games in progress from `/api/account/playing`'s answer.
pub fn playing(text: &str) -> Result<Vec<Playing>, LineError> {
    let mut games = serde_json::from_str::<NowPlaying>(text)
        .map(|n| n.now_playing)
        .map_err(|e| LineError(e.to_string()))?;
    // lichess lists at most 50; a longer list is cut, its names and times bounded.
    games.truncate(50);
    for g in &mut games {
        bounded_name(&mut g.opponent.username);
        g.seconds_left = g.seconds_left.map(|s| s.min(MAX_TIME_MS / 1000));
    }
    Ok(games)
}

/// The account (`/api/account`): its id and name.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Account {
    pub id: String,
    pub username: String,
}

pub fn account(text: &str) -> Result<Account, LineError> {
    let mut account: Account = serde_json::from_str(text).map_err(|e| LineError(e.to_string()))?;
    bounded_name(&mut account.username);
    Ok(account)
}

/// The error text of a refusal (`{"error": "..."}`), or the body as it is.
pub fn error_text(body: &str) -> String {
    #[derive(Deserialize)]
    struct Error {
        error: serde_json::Value,
    }
    match serde_json::from_str::<Error>(body) {
        Ok(Error {
            error: serde_json::Value::String(s),
        }) => s,
        Ok(Error { error }) => error.to_string(),
        Err(_) => body.trim().chars().take(200).collect(),
    }
}

/// The id of a game or challenge from a creation's answer (`{"id": ...}`, or a challenge
/// inside `{"challenge": {...}}`).
pub fn created_id(body: &str) -> Option<String> {
    #[derive(Deserialize)]
    struct Id {
        id: Option<String>,
        challenge: Option<Box<Id>>,
    }
    let id: Id = serde_json::from_str(body).ok()?;
    id.id.or_else(|| id.challenge.and_then(|c| c.id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_names_from_the_server_are_bounded() {
        let huge = format!(
            r#"{{"type":"gameFull","id":"x","variant":{{"key":"standard"}},"clock":{{"initial":18446744073709551615,"increment":18446744073709551615}},"white":{{"name":"{}"}},"black":{{"aiLevel":1}},"state":{{"moves":"","wtime":18446744073709551615,"btime":1,"status":"started"}}}}"#,
            "N".repeat(100_000)
        );
        let Ok(Some(GameLine::Full(full))) = game_line(&huge) else {
            panic!("not read");
        };
        assert_eq!(full.state.wtime, MAX_TIME_MS);
        assert_eq!(full.clock.map(|c| c.increment), Some(MAX_TIME_MS));
        assert!(
            full.white
                .name
                .is_some_and(|n| n.chars().count() <= MAX_NAME)
        );
        let gone =
            game_line(r#"{"type":"opponentGone","gone":true,"claimWinInSeconds":4000000000}"#);
        assert!(matches!(
            gone,
            Ok(Some(GameLine::Gone(OpponentGone {
                claim_win_in_seconds: Some(3600),
                ..
            })))
        ));
    }

    #[test]
    fn the_spec_examples_read() {
        let full = r#"{"id":"BEOucQJo","variant":{"key":"standard","name":"Standard","short":"Std"},"speed":"rapid","perf":{"name":"Rapid"},"rated":false,"createdAt":1745112707998,"white":{"id":"bobby","name":"Bobby","title":null,"rating":1751},"black":{"id":"mary","name":"Mary","title":null,"rating":1021},"initialFen":"startpos","clock":{"initial":900000,"increment":0},"type":"gameFull","state":{"type":"gameState","moves":"d2d3","wtime":900000,"btime":900000,"winc":0,"binc":0,"status":"started"}}"#;
        let Ok(Some(GameLine::Full(f))) = game_line(full) else {
            panic!("gameFull not read");
        };
        assert_eq!(f.id, "BEOucQJo");
        assert_eq!(f.state.moves, "d2d3");
        assert_eq!(f.white.name.as_deref(), Some("Bobby"));
        let gone = r#"{ "type": "opponentGone", "gone": true, "claimWinInSeconds": 8 }"#;
        assert_eq!(
            game_line(gone),
            Ok(Some(GameLine::Gone(OpponentGone {
                gone: true,
                claim_win_in_seconds: Some(8)
            })))
        );
        let ai = r#"{"type":"gameFull","id":"x","variant":{"key":"standard"},"white":{"aiLevel":3},"black":{"id":"me","name":"Me"},"state":{"moves":"","wtime":1,"btime":1,"status":"started"}}"#;
        let Ok(Some(GameLine::Full(f))) = game_line(ai) else {
            panic!("gameFull against lichess's computer not read");
        };
        assert_eq!(f.white.ai_level, Some(3));
    }

    #[test]
    fn keep_alive_and_unknown_lines_are_nothing_and_bad_lines_are_errors() {
        assert_eq!(game_line(""), Ok(None));
        assert_eq!(game_line("\r"), Ok(None));
        assert_eq!(game_line(r#"{"type":"somethingNew"}"#), Ok(None));
        assert!(game_line("{not json").is_err());
        assert!(game_line(r#"{"type":"gameState","moves":3}"#).is_err());
        // A state without its status (or moves, or times) is unreadable, never an end.
        assert!(game_line(r#"{"type":"gameState","moves":"e2e4","wtime":1,"btime":1}"#).is_err());
        assert!(
            game_line(r#"{"type":"gameState","status":"started","wtime":1,"btime":1}"#).is_err()
        );
        assert!(
            game_line(r#"{"type":"gameState","moves":"","wtime":1,"btime":1,"status":"started"}"#)
                .is_ok_and(|l| l.is_some())
        );
        assert!(event_line("[1,2]").is_err());
    }

    #[test]
    fn events_and_answers_read() {
        let start = r#"{"type":"gameStart","game":{"fullId":"abc12345wxyz","gameId":"abc12345","color":"white","id":"abc12345"}}"#;
        assert_eq!(
            event_line(start),
            Ok(Some(AccountEvent::GameStart {
                id: "abc12345".into()
            }))
        );
        assert_eq!(error_text(r#"{"error":"Not your turn"}"#), "Not your turn");
        assert_eq!(
            created_id(r#"{"challenge":{"id":"q1"}}"#).as_deref(),
            Some("q1")
        );
        assert_eq!(
            created_id(r#"{"id":"g1","fullId":"g1xxxx"}"#).as_deref(),
            Some("g1")
        );
        let p = playing(
            r#"{"nowPlaying":[{"gameId":"g1","color":"black","isMyTurn":true,"opponent":{"username":"Anna"}}]}"#,
        );
        assert_eq!(p.map(|v| v.len()), Ok(1));
    }

    proptest::proptest! {
        #[test]
        fn no_line_panics(s in ".{0,200}") {
            let _ = game_line(&s);
            let _ = event_line(&s);
            let _ = playing(&s);
            let _ = error_text(&s);
        }
    }
}
