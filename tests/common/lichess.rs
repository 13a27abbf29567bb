//! A local stand-in for lichess's Board API, on 127.0.0.1 only: the endpoints hector uses,
//! with the status codes, JSON answers and NDJSON streams (chunked, keep-alive newlines) the
//! published spec describes, one game at a time, and an opponent the test plays (scripted
//! replies, or moves, offers and chat on request). Faults on request: streams dropped and
//! refused for a while, 429 with any Retry-After, a revoked token (401) and a new one, a game
//! stream that closes right after gameFull or drips bytes without a line end, an event stream
//! that goes silent, a refusal with control characters in its text. Requests and open streams
//! are counted. Every thread stops when the server is dropped. A test reads the state as a
//! copy (`snapshot`) and changes it through `set`: nothing it holds can make a later call
//! wait for ever.
#![allow(
    dead_code,
    reason = "each test binary uses its own part of the helpers"
)]

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Position};

pub const TOKEN: &str = "lip_test_token";
pub const ME: &str = "blind";
pub const GAME: &str = "Xy7Gm2Qa";

/// The game as the server keeps it.
#[derive(Clone, Debug)]
pub struct Game {
    pub moves: Vec<String>,
    pub me: Color,
    pub opponent: String,
    pub ai: Option<u8>,
    pub status: String,
    pub winner: Option<Color>,
    pub draw: [bool; 2],
    pub takeback: [bool; 2],
    pub wtime: u64,
    pub btime: u64,
}

#[derive(Clone, Default)]
pub struct State {
    pub game: Option<Game>,
    /// The game stream's lines after gameFull, in order (each stream reads from its index).
    pub log: Vec<String>,
    /// Moves the opponent plays, one after each of hector's.
    pub replies: VecDeque<String>,
    pub revoked: bool,
    /// This many requests are answered with 429.
    pub limited: u32,
    /// Streams are cut; new ones are refused until this instant.
    pub down_until: Option<Instant>,
    pub cut: u64,
    /// The watch's streams (a round's, a game's, TV's) end cleanly, as a server that restarts
    /// ends them: the last chunk, then the close; new ones are served.
    pub closed_cleanly: u64,
    pub gone: bool,
    /// Every request, "METHOD path".
    pub requests: Vec<String>,
    /// Every Authorization header received.
    pub authorizations: Vec<String>,
    pub streams_opened: u32,
    /// A challenge was declined with this reason (said on the event stream).
    pub declined: Option<String>,
    /// The Retry-After of a 429 (None: "1").
    pub retry_after: Option<String>,
    /// How game streams behave.
    pub stream_mode: StreamMode,
    /// Game streams whose connection is still open (counted down when the server notices the
    /// other end has gone).
    pub streams_open: u32,
    /// The first this many event streams send nothing at all after their headers.
    pub silent_events: u32,
    pub event_streams_opened: u32,
    /// After a revocation, this token (a new login) is accepted.
    pub renewed: Option<String>,
    /// A move is refused (400) with this error text.
    pub refuse_moves: Option<String>,
    /// Broadcast rounds and the game watched (`hector watch`, `hector arbiter --broadcast`).
    pub relay: Relay,
    /// Puzzles: the daily one, new ones by theme, results recorded.
    pub puzzles: PuzzleDesk,
    /// The opening explorer (`/masters`, `/lichess`).
    pub explorer: ExplorerDesk,
}

/// How the game stream behaves after its gameFull line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StreamMode {
    #[default]
    Normal,
    /// Closed right after gameFull, every time.
    CloseAfterFull,
    /// A byte every 200 ms and never a line end.
    Drip,
}

fn index(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Game {
    fn position(&self) -> Option<Chess> {
        let mut pos = Chess::default();
        for m in &self.moves {
            let mv = UciMove::from_ascii(m.as_bytes()).ok()?.to_move(&pos).ok()?;
            pos.play_unchecked(mv);
        }
        Some(pos)
    }

    fn turn(&self) -> Color {
        if self.moves.len().is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        }
    }

    fn state_json(&self) -> String {
        let mut s = format!(
            r#"{{"type":"gameState","moves":"{}","wtime":{},"btime":{},"winc":10000,"binc":10000,"status":"{}""#,
            self.moves.join(" "),
            self.wtime,
            self.btime,
            self.status
        );
        if let Some(w) = self.winner {
            s.push_str(&format!(r#","winner":"{}""#, w.fold_wb("white", "black")));
        }
        for (name, flags) in [("draw", self.draw), ("takeback", self.takeback)] {
            for (c, letter) in [(Color::White, 'w'), (Color::Black, 'b')] {
                if flags[index(c)] {
                    s.push_str(&format!(r#","{letter}{name}":true"#));
                }
            }
        }
        s.push('}');
        s
    }

    fn player(&self, c: Color) -> String {
        if c == self.me {
            format!(r#"{{"id":"{ME}","name":"Blind","title":null,"rating":1500}}"#)
        } else if let Some(level) = self.ai {
            format!(r#"{{"aiLevel":{level}}}"#)
        } else {
            format!(
                r#"{{"id":"{}","name":"{}","title":null,"rating":1600}}"#,
                self.opponent.to_lowercase(),
                self.opponent
            )
        }
    }

    fn full_json(&self) -> String {
        format!(
            r#"{{"type":"gameFull","id":"{GAME}","variant":{{"key":"standard","name":"Standard","short":"Std"}},"speed":"rapid","perf":{{"name":"Rapid"}},"rated":false,"createdAt":1745112707998,"white":{},"black":{},"initialFen":"startpos","clock":{{"initial":900000,"increment":10000}},"state":{}}}"#,
            self.player(Color::White),
            self.player(Color::Black),
            self.state_json()
        )
    }

    fn over(&self) -> bool {
        !matches!(self.status.as_str(), "started" | "created")
    }
}

type Shared = Arc<(Mutex<State>, Condvar)>;

pub struct Server {
    pub url: String,
    shared: Shared,
    stop: Arc<AtomicBool>,
    accept: Option<thread::JoinHandle<()>>,
}

fn lock(shared: &Shared) -> MutexGuard<'_, State> {
    shared.0.lock().unwrap_or_else(|e| e.into_inner())
}

thread_local! {
    /// Whether this thread holds the state through `Server::state`.
    static HOLDING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The state held by a test's thread: marked, so that the same thread asking again panics
/// with a message rather than waiting for itself.
struct Held<'a>(MutexGuard<'a, State>);

impl<'a> Held<'a> {
    fn take(shared: &'a Shared) -> Held<'a> {
        if HOLDING.with(std::cell::Cell::get) {
            panic!(
                "the lichess stand-in's state asked for while this thread holds it: read a \
                 snapshot() first"
            );
        }
        let guard = lock(shared);
        HOLDING.with(|h| h.set(true));
        Held(guard)
    }
}

impl std::ops::Deref for Held<'_> {
    type Target = State;
    fn deref(&self) -> &State {
        &self.0
    }
}

impl std::ops::DerefMut for Held<'_> {
    fn deref_mut(&mut self) -> &mut State {
        &mut self.0
    }
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        HOLDING.with(|h| h.set(false));
    }
}

impl Server {
    /// A server with a game against `opponent` in progress (hector plays `me`), or none.
    pub fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        listener.set_nonblocking(true).expect("nonblocking");
        let shared: Shared = Arc::default();
        let stop = Arc::new(AtomicBool::new(false));
        let (s, st) = (shared.clone(), stop.clone());
        let accept = thread::spawn(move || {
            while !st.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((conn, _)) => {
                        let (s, st) = (s.clone(), st.clone());
                        thread::spawn(move || {
                            let _ = serve(conn, &s, &st);
                        });
                    }
                    Err(_) => thread::sleep(Duration::from_millis(10)),
                }
            }
        });
        Server {
            url,
            shared,
            stop,
            accept: Some(accept),
        }
    }

    /// The name of the file in hector's configuration folder that keeps the token stored
    /// for this server (`hector online --server URL login`).
    pub fn token_file(&self) -> String {
        let port = self.url.rsplit(':').next().unwrap_or("80");
        format!("lichess-token.http.127.0.0.1.{port}")
    }

    /// A copy of the state as it is now. The lock is let go before this returns, so a check
    /// may read it, and anything else of the server's, in one expression.
    pub fn snapshot(&self) -> State {
        self.state().clone()
    }

    /// Changes the state (what the next requests and streams meet), and wakes the streams.
    /// Asking the server for anything inside `f` fails the test at once (the state is held).
    pub fn set(&self, f: impl FnOnce(&mut State)) {
        f(&mut self.state());
        self.changed();
    }

    /// The state, held by this thread until the guard goes; a second hold on the same thread
    /// (which would wait for itself for ever) fails the test instead.
    fn state(&self) -> Held<'_> {
        Held::take(&self.shared)
    }

    fn changed(&self) {
        self.shared.1.notify_all();
    }

    /// A game in progress where hector plays `me` against `opponent`.
    pub fn add_game(&self, me: Color, opponent: &str, moves: &[&str]) {
        let mut s = self.state();
        s.game = Some(Game {
            moves: moves.iter().map(|m| m.to_string()).collect(),
            me,
            opponent: opponent.to_string(),
            ai: None,
            status: "started".into(),
            winner: None,
            draw: [false; 2],
            takeback: [false; 2],
            wtime: 900_000,
            btime: 900_000,
        });
    }

    /// The opponent's moves, one after each of hector's.
    pub fn script(&self, replies: &[&str]) {
        self.state().replies = replies.iter().map(|m| m.to_string()).collect();
    }

    fn update(&self, f: impl FnOnce(&mut Game)) {
        let mut s = self.state();
        if let Some(g) = s.game.as_mut() {
            f(g);
            let line = g.state_json();
            s.log.push(line);
        }
        drop(s);
        self.changed();
    }

    /// The opponent plays `uci` now.
    pub fn opponent_move(&self, uci: &str) {
        self.update(|g| {
            g.moves.push(uci.to_string());
            g.draw = [false; 2];
            g.takeback = [false; 2];
        });
    }

    pub fn opponent_offers_draw(&self) {
        self.update(|g| {
            let them = !g.me;
            g.draw[index(them)] = true;
        });
    }

    pub fn opponent_proposes_takeback(&self) {
        self.update(|g| {
            let them = !g.me;
            g.takeback[index(them)] = true;
        });
    }

    /// The opponent answers the player's take-back request or draw offer.
    pub fn opponent_answers(&self, yes: bool) {
        self.update(|g| {
            let me = g.me;
            if g.takeback[index(me)] && yes {
                loop {
                    g.moves.pop();
                    if g.turn() == me || g.moves.is_empty() {
                        break;
                    }
                }
            }
            if g.draw[index(me)] && yes {
                g.status = "draw".into();
            }
            g.takeback = [false; 2];
            g.draw = [false; 2];
        });
    }

    /// A raw line on the game stream (a broken or oversized one).
    pub fn inject(&self, line: &str) {
        self.state().log.push(line.to_string());
        self.changed();
    }

    pub fn opponent_says(&self, text: &str) {
        let mut s = self.state();
        let name = s
            .game
            .as_ref()
            .map(|g| g.opponent.clone())
            .unwrap_or_default();
        s.log.push(format!(
            r#"{{"type":"chatLine","room":"player","username":"{name}","text":"{text}"}}"#
        ));
        drop(s);
        self.changed();
    }

    pub fn opponent_gone(&self, claim_in: u32) {
        let mut s = self.state();
        s.gone = true;
        s.log.push(format!(
            r#"{{"type":"opponentGone","gone":true,"claimWinInSeconds":{claim_in}}}"#
        ));
        drop(s);
        self.changed();
    }

    /// Cuts every open stream and refuses new ones for `down`.
    pub fn drop_streams(&self, down: Duration) {
        let mut s = self.state();
        s.cut += 1;
        s.down_until = Some(Instant::now() + down);
        drop(s);
        self.changed();
    }

    /// Ends every open watch stream cleanly (the last chunk, then the close); new ones are
    /// served at once.
    pub fn close_streams_cleanly(&self) {
        self.state().closed_cleanly += 1;
        self.changed();
    }

    pub fn rate_limit(&self, requests: u32) {
        self.state().limited = requests;
    }

    pub fn revoke(&self) {
        self.state().revoked = true;
    }

    /// The player logged in again: `token` is accepted from now on.
    pub fn renew(&self, token: &str) {
        self.state().renewed = Some(token.to_string());
    }

    /// Requests whose "METHOD path" starts with `prefix`.
    pub fn count(&self, prefix: &str) -> usize {
        self.state()
            .requests
            .iter()
            .filter(|r| r.starts_with(prefix))
            .count()
    }

    pub fn moves(&self) -> Vec<String> {
        self.state()
            .game
            .as_ref()
            .map(|g| g.moves.clone())
            .unwrap_or_default()
    }

    pub fn status(&self) -> String {
        self.state()
            .game
            .as_ref()
            .map(|g| g.status.clone())
            .unwrap_or_default()
    }

    pub fn requests(&self) -> Vec<String> {
        self.state().requests.clone()
    }

    /// Waits until `f` holds for the state (false after `limit`).
    pub fn wait(&self, limit: Duration, f: impl Fn(&State) -> bool) -> bool {
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if f(&self.state()) {
                return true;
            }
            thread::sleep(Duration::from_millis(20));
        }
        false
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.changed();
        if let Some(t) = self.accept.take() {
            let _ = t.join();
        }
    }
}

struct Request {
    method: String,
    path: String,
    auth: Option<String>,
    body: String,
}

fn read_request(conn: &TcpStream) -> Option<Request> {
    conn.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    let mut reader = BufReader::new(conn.try_clone().ok()?);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let path = parts.next()?.to_string();
    let mut auth = None;
    let mut length = 0usize;
    for _ in 0..100 {
        let mut h = String::new();
        reader.read_line(&mut h).ok()?;
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            match k.trim().to_ascii_lowercase().as_str() {
                "authorization" => auth = Some(v.trim().to_string()),
                "content-length" => length = v.trim().parse().unwrap_or(0).min(1 << 16),
                _ => {}
            }
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(Request {
        method,
        path,
        auth,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}

fn respond(mut conn: &TcpStream, status: u16, extra: &str, body: &str) -> std::io::Result<()> {
    let reason = match status {
        200 => "OK",
        201 => "Created",
        400 => "Bad Request",
        401 => "Unauthorized",
        302 => "Found",
        403 => "Forbidden",
        404 => "Not Found",
        429 => "Too Many Requests",
        _ => "Status",
    };
    write!(
        conn,
        "HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n{extra}\r\n{body}",
        body.len()
    )?;
    conn.flush()
}

fn ok(conn: &TcpStream) -> std::io::Result<()> {
    respond(conn, 200, "", r#"{"ok":true}"#)
}

fn bad(conn: &TcpStream, error: &str) -> std::io::Result<()> {
    respond(conn, 400, "", &format!(r#"{{"error":"{error}"}}"#))
}

fn chunk(mut conn: &TcpStream, text: &str) -> std::io::Result<()> {
    write!(conn, "{:x}\r\n{text}\r\n", text.len())?;
    conn.flush()
}

fn serve(conn: TcpStream, shared: &Shared, stop: &AtomicBool) -> std::io::Result<()> {
    let Some(req) = read_request(&conn) else {
        return Ok(());
    };
    // As a proxy (ALL_PROXY): the tunnel is granted and the request inside it served, so that
    // what a client would send to another server through it is seen here.
    if req.method == "CONNECT" {
        lock(shared)
            .requests
            .push(format!("{} {}", req.method, req.path));
        let mut w = &conn;
        write!(w, "HTTP/1.1 200 Connection established\r\n\r\n")?;
        w.flush()?;
        return serve(conn, shared, stop);
    }
    let notify = || shared.1.notify_all();
    if let Some(result) = relay_routes(&conn, &req, shared, stop) {
        return result;
    }
    if let Some(result) = puzzle_routes(&conn, &req, shared) {
        return result;
    }
    if let Some(result) = explorer_routes(&conn, &req, shared) {
        return result;
    }
    {
        let mut s = lock(shared);
        s.requests.push(format!("{} {}", req.method, req.path));
        s.authorizations.extend(req.auth.clone());
        correspondence_form(&mut s, &req);
        let accepted = if s.revoked {
            s.renewed.as_ref().map(|t| format!("Bearer {t}"))
        } else {
            Some(format!("Bearer {TOKEN}"))
        };
        if accepted.is_none() || req.auth != accepted {
            drop(s);
            return respond(&conn, 401, "", r#"{"error":"No such token"}"#);
        }
        if s.limited > 0 {
            s.limited -= 1;
            let after = s.retry_after.clone().unwrap_or_else(|| "1".into());
            drop(s);
            return respond(
                &conn,
                429,
                &format!("Retry-After: {after}\r\n"),
                r#"{"error":"Too many requests. Try again later."}"#,
            );
        }
    }
    let path = req.path.split('?').next().unwrap_or("").to_string();
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    match (req.method.as_str(), segments.as_slice()) {
        ("GET", ["api", "account"]) => respond(
            &conn,
            200,
            "",
            &format!(r#"{{"id":"{ME}","username":"Blind","perfs":{{}},"createdAt":1}}"#),
        ),
        ("GET", ["api", "account", "playing"]) => {
            let s = lock(shared);
            // As lichess: nb games at most (9 unless asked, 50 at most), the most urgent
            // first (here the correspondence games the test adds).
            let nb = req
                .path
                .split_once('?')
                .and_then(|(_, q)| q.split('&').find_map(|kv| kv.strip_prefix("nb=")))
                .and_then(|n| n.parse::<usize>().ok())
                .unwrap_or(9)
                .clamp(1, 50);
            let mut list: Vec<String> = (1..=s.relay.extra_games)
                .map(|n| {
                    format!(
                        r#"{{"gameId":"Corr{n:04}","fullId":"Corr{n:04}abcd","color":"white","fen":"","isMyTurn":false,"opponent":{{"id":"c{n}","username":"Corr{n}"}},"secondsLeft":86400,"speed":"correspondence"}}"#
                    )
                })
                .collect();
            if let Some(g) = s.game.as_ref().filter(|g| !g.over()) {
                list.push(format!(
                    r#"{{"gameId":"{GAME}","fullId":"{GAME}abcd","color":"{}","fen":"","isMyTurn":{},"opponent":{{"id":"x","username":"{}"}},"secondsLeft":{},"speed":"{}"}}"#,
                    g.me.fold_wb("white", "black"),
                    g.turn() == g.me,
                    g.opponent,
                    g.me.fold_wb(g.wtime, g.btime) / 1000,
                    if s.relay.daily.is_some() {
                        "correspondence"
                    } else {
                        "rapid"
                    }
                ));
            }
            list.truncate(nb);
            drop(s);
            respond(
                &conn,
                200,
                "",
                &format!(r#"{{"nowPlaying":[{}]}}"#, list.join(",")),
            )
        }
        ("POST", ["api", "challenge", "ai"]) => {
            let mut s = lock(shared);
            let level = req
                .body
                .split('&')
                .find_map(|kv| kv.strip_prefix("level="))
                .and_then(|l| l.parse().ok());
            s.game = Some(Game {
                moves: Vec::new(),
                me: Color::White,
                opponent: "lichess computer".into(),
                ai: level,
                status: "started".into(),
                winner: None,
                draw: [false; 2],
                takeback: [false; 2],
                wtime: 900_000,
                btime: 900_000,
            });
            s.log.clear();
            drop(s);
            respond(
                &conn,
                201,
                "",
                &format!(
                    r#"{{"id":"{GAME}","variant":{{"key":"standard"}},"speed":"rapid","rated":false,"fen":"","turns":0,"status":{{"id":20,"name":"started"}},"createdAt":1,"player":"white","fullId":"{GAME}abcd"}}"#
                ),
            )
        }
        ("GET", ["api", "stream", "event"]) => event_stream(&conn, shared, stop),
        // A correspondence seek answers at once with its id and stays open on the server.
        ("POST", ["api", "board", "seek"]) if req.body.contains("days=") => {
            respond(&conn, 200, "", r#"{"id":"gwkzmEBY"}"#)
        }
        ("POST", ["api", "board", "seek"]) => {
            // The seek's answer is a stream of keep-alive newlines until a game starts.
            let mut w = &conn;
            write!(
                w,
                "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            )?;
            for _ in 0..3 {
                chunk(&conn, "\n")?;
                thread::sleep(Duration::from_millis(100));
            }
            new_game(shared, "Bruno", None);
            chunk(&conn, "")
        }
        ("POST", ["api", "challenge", user]) => {
            let user = user.to_string();
            let daily = req.body.contains("days=");
            let kept = req.body.contains("keepAliveStream=true");
            let json = format!(
                r#"{{"challenge":{{"id":"{GAME}","status":"created","challenger":{{"id":"{ME}","name":"Blind"}},"destUser":{{"id":"{}","name":"{user}"}}}},"socketVersion":0}}"#,
                user.to_lowercase()
            );
            if !daily && !kept {
                // A real-time challenge without keepAliveStream expires after 20 s: nobody
                // gets to accept it (here at once, so that a test need not wait).
                lock(shared).relay.challenges_expired += 1;
                return respond(&conn, 200, "", &json);
            }
            if !kept {
                respond(&conn, 200, "", &json)?;
            } else {
                let mut w = &conn;
                write!(
                    w,
                    "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                )?;
                chunk(&conn, &format!("{json}\n"))?;
            }
            let accept_after = lock(shared).relay.accept_after;
            let answer = {
                let shared = shared.clone();
                let user = user.clone();
                thread::spawn(move || {
                    thread::sleep(accept_after.unwrap_or(Duration::from_millis(200)));
                    if user == "Nobody" {
                        lock(&shared).declined =
                            Some("I'm not accepting challenges at the moment.".into());
                        shared.1.notify_all();
                    } else if user != "Silent" {
                        new_game(&shared, &user, None);
                    }
                })
            };
            if !kept {
                return Ok(());
            }
            // Kept alive while the client keeps the connection: keep-alive lines until the
            // challenge is answered, then its end and the stream closed. A closed
            // connection withdraws the challenge.
            let mut probe = [0u8; 1];
            conn.set_read_timeout(Some(Duration::from_millis(100)))?;
            lock(shared).relay.challenges_open += 1;
            let result = loop {
                if stop.load(Ordering::Relaxed) {
                    break Ok(());
                }
                if answer.is_finished() && user != "Silent" {
                    let done = if user == "Nobody" {
                        "declined"
                    } else {
                        "accepted"
                    };
                    let _ = chunk(&conn, &format!("{{\"done\":\"{done}\"}}\n"));
                    break chunk(&conn, "");
                }
                match (&conn).read(&mut probe) {
                    Ok(0) => {
                        lock(shared).relay.challenges_withdrawn += 1;
                        break Ok(());
                    }
                    Err(e)
                        if e.kind() == std::io::ErrorKind::WouldBlock
                            || e.kind() == std::io::ErrorKind::TimedOut => {}
                    _ => {
                        lock(shared).relay.challenges_withdrawn += 1;
                        break Ok(());
                    }
                }
                if chunk(&conn, "\n").is_err() {
                    lock(shared).relay.challenges_withdrawn += 1;
                    break Ok(());
                }
            };
            let mut s = lock(shared);
            s.relay.challenges_open = s.relay.challenges_open.saturating_sub(1);
            result
        }
        ("GET", ["api", "board", "game", "stream", id]) if *id == GAME => {
            game_stream(&conn, shared, stop)
        }
        ("GET", ["api", "board", "game", "stream", _]) => {
            respond(&conn, 404, "", r#"{"error":"Not found"}"#)
        }
        ("POST", ["api", "board", "game", id, rest @ ..]) if *id == GAME => {
            let result = game_action(&conn, shared, rest, &req.body);
            notify();
            result
        }
        _ => respond(&conn, 404, "", r#"{"error":"Not found"}"#),
    }
}

/// A new game against `opponent` (hector plays White).
fn new_game(shared: &Shared, opponent: &str, ai: Option<u8>) {
    let mut s = lock(shared);
    s.game = Some(Game {
        moves: Vec::new(),
        me: Color::White,
        opponent: opponent.to_string(),
        ai,
        status: "started".into(),
        winner: None,
        draw: [false; 2],
        takeback: [false; 2],
        wtime: 900_000,
        btime: 900_000,
    });
    s.log.clear();
    drop(s);
    shared.1.notify_all();
}

/// The account's event stream: gameStart for the game in progress (also one that starts
/// later), challengeDeclined, keep-alive newlines.
fn event_stream(conn: &TcpStream, shared: &Shared, stop: &AtomicBool) -> std::io::Result<()> {
    let mut w = conn;
    write!(
        w,
        "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )?;
    let silent = {
        let mut s = lock(shared);
        s.event_streams_opened += 1;
        let silent = s.silent_events > 0;
        s.silent_events = s.silent_events.saturating_sub(1);
        silent
    };
    if silent {
        // Nothing, not even keep-alive lines, until the other end goes or the server stops.
        let mut probe = [0u8; 1];
        conn.set_read_timeout(Some(Duration::from_millis(100)))?;
        while !stop.load(Ordering::Relaxed) {
            match (&*conn).read(&mut probe) {
                Ok(0) => return Ok(()),
                Err(e)
                    if e.kind() == std::io::ErrorKind::WouldBlock
                        || e.kind() == std::io::ErrorKind::TimedOut => {}
                _ => return Ok(()),
            }
        }
        return Ok(());
    }
    let mut announced = false;
    let mut declined = false;
    let mut last_keep_alive = Instant::now();
    while !stop.load(Ordering::Relaxed) {
        let (start, decline) = {
            let s = lock(shared);
            let (s, _) = shared
                .1
                .wait_timeout(s, Duration::from_millis(50))
                .unwrap_or_else(|e| e.into_inner());
            let start = s.game.as_ref().filter(|g| !g.over()).map(|g| g.me);
            (start, s.declined.clone())
        };
        if let Some(me) = start
            && !announced
        {
            announced = true;
            chunk(
                conn,
                &format!(
                    r#"{{"type":"gameStart","game":{{"gameId":"{GAME}","fullId":"{GAME}abcd","color":"{}","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","hasMoved":false,"isMyTurn":true,"lastMove":"","opponent":{{"id":"x","username":"x","rating":1500}},"perf":"rapid","rated":false,"secondsLeft":900,"source":"friend","status":{{"id":20,"name":"started"}},"speed":"rapid","variant":{{"key":"standard","name":"Standard"}},"compat":{{"bot":false,"board":true}},"id":"{GAME}"}}}}
"#,
                    me.fold_wb("white", "black")
                ),
            )?;
        }
        if let Some(reason) = decline
            && !declined
        {
            declined = true;
            chunk(
                conn,
                &format!(
                    r#"{{"type":"challengeDeclined","challenge":{{"id":"{GAME}","status":"declined","declineReason":"{reason}","declineReasonKey":"later"}}}}
"#
                ),
            )?;
        }
        if last_keep_alive.elapsed() > Duration::from_millis(500) {
            chunk(conn, "\n")?;
            last_keep_alive = Instant::now();
        }
    }
    Ok(())
}

fn game_action(
    conn: &TcpStream,
    shared: &Shared,
    action: &[&str],
    body: &str,
) -> std::io::Result<()> {
    let mut s = lock(shared);
    if let (["move", _], Some(error)) = (action, s.refuse_moves.clone()) {
        drop(s);
        return bad(conn, &error);
    }
    let Some(g) = s.game.as_mut() else {
        drop(s);
        return respond(conn, 404, "", r#"{"error":"Not found"}"#);
    };
    if g.over() {
        drop(s);
        return bad(conn, "This game is already over");
    }
    let me = g.me;
    let mut lines = Vec::new();
    match action {
        ["move", uci] => {
            if g.turn() != me {
                drop(s);
                return bad(conn, "Not your turn, or game already over");
            }
            let Some(pos) = g.position() else {
                drop(s);
                return bad(conn, "Broken game");
            };
            let legal = UciMove::from_ascii(uci.as_bytes())
                .ok()
                .and_then(|u| u.to_move(&pos).ok())
                .is_some_and(|m| pos.is_legal(m));
            if !legal {
                drop(s);
                return bad(conn, &format!("Piece on {uci} cannot move"));
            }
            g.moves.push(uci.to_string());
            g.draw = [false; 2];
            g.takeback = [false; 2];
            if let Some(pos) = g.position() {
                if pos.is_checkmate() {
                    g.status = "mate".into();
                    g.winner = Some(me);
                } else if pos.is_stalemate() {
                    g.status = "stalemate".into();
                }
            }
            lines.push(g.state_json());
            if !g.over()
                && let Some(reply) = s.replies.pop_front()
                && let Some(g) = s.game.as_mut()
            {
                g.moves.push(reply);
                if let Some(pos) = g.position()
                    && pos.is_checkmate()
                {
                    g.status = "mate".into();
                    g.winner = Some(!me);
                }
                lines.push(g.state_json());
            }
        }
        ["draw", answer] => {
            let them = index(!me);
            if *answer == "yes" && g.draw[them] {
                g.status = "draw".into();
                g.draw = [false; 2];
            } else if *answer == "yes" {
                g.draw[index(me)] = true;
            } else {
                g.draw[them] = false;
            }
            lines.push(g.state_json());
        }
        ["takeback", answer] => {
            let them = !me;
            if *answer == "yes" && g.takeback[index(them)] {
                // Back to the proposer's move.
                loop {
                    g.moves.pop();
                    if g.turn() == them || g.moves.is_empty() {
                        break;
                    }
                }
                g.takeback = [false; 2];
            } else if *answer == "yes" {
                g.takeback[index(me)] = true;
            } else {
                g.takeback[index(them)] = false;
            }
            lines.push(g.state_json());
        }
        ["resign"] => {
            g.status = "resign".into();
            g.winner = Some(!me);
            lines.push(g.state_json());
        }
        ["abort"] => {
            g.status = "aborted".into();
            lines.push(g.state_json());
        }
        ["claim-victory"] => {
            if !s.gone {
                drop(s);
                return bad(conn, "The opponent has not left");
            }
            if let Some(g) = s.game.as_mut() {
                g.status = "timeout".into();
                g.winner = Some(me);
                lines.push(g.state_json());
            }
        }
        ["chat"] => {
            let text = body
                .split('&')
                .find_map(|kv| kv.strip_prefix("text="))
                .unwrap_or("")
                .replace('+', " ");
            lines.push(format!(
                r#"{{"type":"chatLine","room":"player","username":"Blind","text":"{text}"}}"#
            ));
        }
        _ => {
            drop(s);
            return respond(conn, 404, "", r#"{"error":"Not found"}"#);
        }
    }
    s.log.extend(lines);
    drop(s);
    ok(conn)
}

/// The game's NDJSON stream: gameFull, then every new line of the log, keep-alive newlines
/// meanwhile; closed when the game is over, cut when the test drops the streams.
fn game_stream(conn: &TcpStream, shared: &Shared, stop: &AtomicBool) -> std::io::Result<()> {
    let mut counted = false;
    let result = game_stream_lines(conn, shared, stop, &mut counted);
    // Counted as open from its gameFull until the server notices the other end has gone.
    if counted {
        let mut s = lock(shared);
        s.streams_open = s.streams_open.saturating_sub(1);
    }
    result
}

fn game_stream_lines(
    conn: &TcpStream,
    shared: &Shared,
    stop: &AtomicBool,
    counted: &mut bool,
) -> std::io::Result<()> {
    let (full, mut next, cut, mode) = {
        let mut s = lock(shared);
        if s.down_until.is_some_and(|t| Instant::now() < t) {
            drop(s);
            let _ = conn.shutdown(Shutdown::Both);
            return Ok(());
        }
        let Some(g) = &s.game else {
            drop(s);
            return respond(conn, 404, "", r#"{"error":"Not found"}"#);
        };
        let (full, next, cut, mode) = (
            daily_full(g.full_json(), s.relay.daily),
            s.log.len(),
            s.cut,
            s.stream_mode,
        );
        s.streams_opened += 1;
        s.streams_open += 1;
        *counted = true;
        (full, next, cut, mode)
    };
    let mut w = conn;
    write!(
        w,
        "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )?;
    chunk(conn, &format!("{full}\n"))?;
    match mode {
        StreamMode::Normal => {}
        StreamMode::CloseAfterFull => return chunk(conn, ""),
        StreamMode::Drip => {
            // A byte now and then, never a line: a write fails once the other end is gone.
            while !stop.load(Ordering::Relaxed) {
                chunk(conn, " ")?;
                thread::sleep(Duration::from_millis(200));
            }
            return Ok(());
        }
    }
    let mut last_keep_alive = Instant::now();
    loop {
        if stop.load(Ordering::Relaxed) {
            return Ok(());
        }
        let (lines, over, cut_now) = {
            let s = lock(shared);
            // Waits for news unless some came while this thread was writing.
            let (s, _) = shared
                .1
                .wait_timeout_while(s, Duration::from_millis(100), |s| {
                    s.log.len() <= next && s.cut == cut && !stop.load(Ordering::Relaxed)
                })
                .unwrap_or_else(|e| e.into_inner());
            let lines: Vec<String> = s.log.get(next..).unwrap_or_default().to_vec();
            next = s.log.len().max(next);
            let over = s.game.as_ref().is_none_or(Game::over);
            (lines, over, s.cut != cut)
        };
        if cut_now {
            // A dropped connection: no final chunk.
            let _ = conn.shutdown(Shutdown::Both);
            return Ok(());
        }
        for line in lines {
            chunk(conn, &format!("{line}\n"))?;
        }
        if over {
            chunk(conn, "")?;
            return Ok(());
        }
        if last_keep_alive.elapsed() > Duration::from_millis(500) {
            chunk(conn, "\n")?;
            last_keep_alive = Instant::now();
        }
    }
}

// ---------------------------------------------------------------------------------------
// Broadcasts and games one does not play (lichess-org/api f59dc80: broadcastStreamRoundPgn,
// broadcastPush, streamGame): a round's PGN stream (every game first, then a game's whole PGN
// each time it changes, a lone space every keep-alive period), pushes to a round (the token's
// study:write scope checked, 403 for a round one may not push to, 400 for a body that is no
// PGN, 429 for a storm of pushes), and the move stream of a game watched.

/// The token of an arbiter who may push to the round (study:write).
pub const STUDY_TOKEN: &str = "lip_study_write_token";
/// A token made before hector asked for puzzle:read (board:play and puzzle:write only).
pub const OLD_TOKEN: &str = "lip_old_token_without_puzzle_read";
/// The round that is streamed and pushed to.
pub const ROUND: &str = "R0und001";
/// The game watched.
pub const WATCHED: &str = "LuGQwhBb";

#[derive(Clone, Default)]
pub struct Relay {
    /// The round's games as PGN, in board order.
    pub games: Vec<String>,
    /// What the round's streams send after the games: each a game's whole PGN (or a broken
    /// text a test injects).
    pub log: Vec<String>,
    /// The pause between keep-alive spaces (lichess: 60 s).
    pub keep_alive: Option<Duration>,
    pub round_streams_opened: u32,
    /// Keep-alive spaces sent on the round's streams.
    pub keep_alives_sent: u32,
    /// The push bodies accepted, in order.
    pub pushes: Vec<String>,
    /// Every push request, refused ones too.
    pub push_attempts: u32,
    /// This many pushes are answered with 403 (the round's study not writable for a while).
    pub refuse_pushes: u32,
    /// Pushes in the last second, for the storm check.
    pub recent_pushes: VecDeque<Instant>,
    /// The game watched: its players, its moves (UCI), its result once over.
    pub watched: Option<(String, String)>,
    pub watched_moves: Vec<String>,
    pub watched_result: Option<Color>,
    pub watched_over: bool,
    pub game_streams_opened: u32,
    /// Correspondence: the game is a daily one with these days per move (set by a seek or a
    /// challenge with `days`, or by the test).
    pub daily: Option<u32>,
    /// The forms of seeks and challenges, "path body".
    pub forms: Vec<String>,
    /// Real-time challenges sent without keepAliveStream (they expire unanswered).
    pub challenges_expired: u32,
    /// Challenges whose kept-alive answer is still open.
    pub challenges_open: u32,
    /// Challenges withdrawn by closing their answer before it was answered.
    pub challenges_withdrawn: u32,
    /// How long the challenged player takes to answer (200 ms unless set).
    pub accept_after: Option<Duration>,
    /// This many pushes are answered with their headers and then a body dripped one byte
    /// every `drip` (5 s unless set), never finished in time.
    pub drip_pushes: u32,
    pub drip: Option<Duration>,
    /// Pushes answered by dripping (their bodies are not taken).
    pub dripped: u32,
    /// How the round's streams behave.
    pub round_mode: RoundMode,
    /// Correspondence games listed before the game in progress (lichess lists the most
    /// urgent first), for a player with many games.
    pub extra_games: usize,
}

/// How a round's stream behaves (hostile servers included).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RoundMode {
    #[default]
    Normal,
    /// The games, then the stream closed at once, every time.
    CloseAfterGames,
    /// Answered with a redirect (302) and no body.
    Redirect,
    /// Refused (404) with an empty body.
    EmptyRefusal,
    /// After the games, this many new games, as fast as the connection takes them.
    Flood(usize),
}

impl Server {
    /// The round has these games (PGN each); its streams send them first.
    pub fn relay_games(&self, games: &[String]) {
        self.state().relay.games = games.to_vec();
        self.changed();
    }

    /// Board `board` (0 for the first) is now `pgn`: its whole PGN goes to every stream.
    pub fn relay_update(&self, board: usize, pgn: &str) {
        let mut s = self.state();
        if let Some(g) = s.relay.games.get_mut(board) {
            *g = pgn.to_string();
        }
        s.relay.log.push(pgn.to_string());
        drop(s);
        self.changed();
    }

    /// Raw text on the round's streams (a broken PGN).
    pub fn relay_inject(&self, text: &str) {
        self.state().relay.log.push(text.to_string());
        self.changed();
    }

    pub fn pushes(&self) -> Vec<String> {
        self.state().relay.pushes.clone()
    }

    /// A game being played by others, watched through its move stream.
    pub fn watch_game(&self, white: &str, black: &str, moves: &[&str]) {
        let mut s = self.state();
        s.relay.watched = Some((white.to_string(), black.to_string()));
        s.relay.watched_moves = moves.iter().map(|m| m.to_string()).collect();
        drop(s);
        self.changed();
    }

    pub fn watched_move(&self, uci: &str) {
        self.state().relay.watched_moves.push(uci.to_string());
        self.changed();
    }

    /// The watched game ends (a winner, or a draw).
    pub fn watched_end(&self, winner: Option<Color>) {
        let mut s = self.state();
        s.relay.watched_result = winner;
        s.relay.watched_over = true;
        drop(s);
        self.changed();
    }
}

/// The routes of this block, answered before the Board API's token check (lichess answers
/// public rounds and games without a token, AnonOrScoped).
fn relay_routes(
    conn: &TcpStream,
    req: &Request,
    shared: &Shared,
    stop: &AtomicBool,
) -> Option<std::io::Result<()>> {
    let path = req.path.split('?').next().unwrap_or("").to_string();
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let public = match (req.method.as_str(), segments.as_slice()) {
        ("GET", ["api", "stream", "broadcast", "round", _]) => true,
        ("GET", ["api", "stream", "game", _]) => true,
        ("GET", ["api", "tv", "feed"]) => true,
        ("POST", ["api", "broadcast", "round", _, "push"]) => false,
        _ => return None,
    };
    {
        let mut s = lock(shared);
        s.requests.push(format!("{} {}", req.method, req.path));
        s.authorizations.extend(req.auth.clone());
        // A token that is sent must be one lichess knows, even where none is needed.
        let known = [format!("Bearer {TOKEN}"), format!("Bearer {STUDY_TOKEN}")];
        let fine = match &req.auth {
            None => public,
            Some(a) => known.contains(a),
        };
        if !fine {
            drop(s);
            return Some(respond(conn, 401, "", r#"{"error":"No such token"}"#));
        }
        if s.limited > 0 {
            s.limited -= 1;
            let after = s.retry_after.clone().unwrap_or_else(|| "1".into());
            drop(s);
            return Some(respond(
                conn,
                429,
                &format!("Retry-After: {after}\r\n"),
                r#"{"error":"Too many requests. Try again later."}"#,
            ));
        }
    }
    let round_mode = lock(shared).relay.round_mode;
    Some(match segments.as_slice() {
        ["api", "stream", "broadcast", "round", _] if round_mode == RoundMode::Redirect => {
            respond(conn, 302, "Location: https://lichess.org/broadcast\r\n", "")
        }
        ["api", "stream", "broadcast", "round", _] if round_mode == RoundMode::EmptyRefusal => {
            respond(conn, 404, "", "")
        }
        ["api", "stream", "broadcast", "round", file] => match file.strip_suffix(".pgn") {
            Some(id) if id == ROUND => round_stream(conn, shared, stop),
            _ => respond(conn, 404, "", r#"{"error":"Not found"}"#),
        },
        ["api", "stream", "game", id] if *id == WATCHED => {
            watched_stream(conn, shared, stop, false)
        }
        ["api", "tv", "feed"] => watched_stream(conn, shared, stop, true),
        ["api", "stream", "game", _] => respond(conn, 404, "", r#"{"error":"Not found"}"#),
        ["api", "broadcast", "round", id, "push"] => push(conn, req, shared, id),
        _ => respond(conn, 404, "", r#"{"error":"Not found"}"#),
    })
}

fn tag<'a>(pgn: &'a str, name: &str) -> Option<&'a str> {
    let start = format!("[{name} \"");
    let at = pgn.find(&start)? + start.len();
    pgn[at..].split('"').next()
}

/// A push: `text/plain` PGN, up to 100 games; answered game by game with their tags and how
/// many moves were read.
fn push(conn: &TcpStream, req: &Request, shared: &Shared, id: &str) -> std::io::Result<()> {
    let mut s = lock(shared);
    s.relay.push_attempts += 1;
    if req.auth.as_deref() != Some(&format!("Bearer {STUDY_TOKEN}")) {
        drop(s);
        return respond(conn, 403, "", r#"{"error":"Missing scope: study:write"}"#);
    }
    if id != ROUND {
        drop(s);
        return respond(conn, 404, "", r#"{"error":"Not found"}"#);
    }
    let now = Instant::now();
    while s
        .relay
        .recent_pushes
        .front()
        .is_some_and(|t| now.duration_since(*t) > Duration::from_secs(1))
    {
        s.relay.recent_pushes.pop_front();
    }
    s.relay.recent_pushes.push_back(now);
    // More than five pushes a second is no client that makes one request at a time.
    if s.relay.recent_pushes.len() > 5 {
        drop(s);
        return respond(
            conn,
            429,
            "Retry-After: 60\r\n",
            r#"{"error":"Too many requests. Try again later."}"#,
        );
    }
    if s.relay.refuse_pushes > 0 {
        s.relay.refuse_pushes -= 1;
        drop(s);
        return respond(conn, 403, "", r#"{"error":"Forbidden"}"#);
    }
    if s.relay.drip_pushes > 0 {
        s.relay.drip_pushes -= 1;
        s.relay.dripped += 1;
        let drip = s.relay.drip.unwrap_or(Duration::from_secs(5));
        drop(s);
        // The headers at once, then the body a byte at a time: never done in time.
        let mut w = conn;
        write!(
            w,
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4096\r\nConnection: close\r\n\r\n"
        )?;
        w.flush()?;
        for _ in 0..4096 {
            thread::sleep(drip);
            if w.write_all(b" ").and_then(|()| w.flush()).is_err() {
                return Ok(());
            }
        }
        return Ok(());
    }
    // Games apart by a blank line: a new game begins where tags follow one after moves.
    let mut games: Vec<String> = Vec::new();
    let mut in_moves = false;
    let mut blank = false;
    for line in req.body.lines() {
        if line.starts_with('[') && in_moves && blank {
            in_moves = false;
            games.push(String::new());
        }
        if games.is_empty() {
            games.push(String::new());
        }
        blank = line.trim().is_empty();
        if !blank && !line.starts_with('[') {
            in_moves = true;
        }
        if let Some(g) = games.last_mut() {
            g.push_str(line);
            g.push('\n');
        }
    }
    let games: Vec<&str> = games
        .iter()
        .map(String::as_str)
        .filter(|g| !g.trim().is_empty())
        .collect();
    if games.is_empty()
        || games.len() > 100
        || !games.iter().all(|g| g.trim_start().starts_with('['))
    {
        drop(s);
        return bad(conn, "Cannot parse moves");
    }
    let answers: Vec<String> = games
        .iter()
        .map(|g| {
            let moves = g
                .lines()
                .filter(|l| !l.starts_with('['))
                .flat_map(str::split_whitespace)
                .filter(|t| !t.ends_with('.') && !matches!(*t, "*" | "1-0" | "0-1" | "1/2-1/2"))
                .count();
            format!(
                r#"{{"tags":{{"White":"{}","Black":"{}","Result":"{}"}},"moves":{moves}}}"#,
                tag(g, "White").unwrap_or(""),
                tag(g, "Black").unwrap_or(""),
                tag(g, "Result").unwrap_or("*")
            )
        })
        .collect();
    s.relay.pushes.push(req.body.clone());
    drop(s);
    shared.1.notify_all();
    respond(
        conn,
        200,
        "",
        &format!(r#"{{"games":[{}]}}"#, answers.join(",")),
    )
}

/// The round's PGN stream: every game, then each changed game's whole PGN; a lone space
/// (no line end) every keep-alive period; cut when the test drops the streams.
fn round_stream(conn: &TcpStream, shared: &Shared, stop: &AtomicBool) -> std::io::Result<()> {
    let (games, mut next, cut, clean, keep_alive) = {
        let mut s = lock(shared);
        if s.down_until.is_some_and(|t| Instant::now() < t) {
            drop(s);
            let _ = conn.shutdown(Shutdown::Both);
            return Ok(());
        }
        s.relay.round_streams_opened += 1;
        (
            s.relay.games.clone(),
            s.relay.log.len(),
            s.cut,
            s.closed_cleanly,
            s.relay.keep_alive.unwrap_or(Duration::from_secs(60)),
        )
    };
    let mut w = conn;
    write!(
        w,
        "HTTP/1.1 200 OK\r\nContent-Type: application/x-chess-pgn\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )?;
    for g in games {
        chunk(conn, &format!("{}\n\n\n", g.trim_end()))?;
    }
    match lock(shared).relay.round_mode {
        RoundMode::CloseAfterGames => return chunk(conn, ""),
        RoundMode::Flood(n) => {
            for i in 0..n {
                let game = format!(
                    "[Event \"Flood\"]\n[White \"Flood White {i}\"]\n[Black \"Flood Black {i}\"]\n[Result \"*\"]\n[GameURL \"https://lichess.org/broadcast/flood/round/{ROUND}/{i}\"]\n\n1. e4 e5 *\n\n\n"
                );
                chunk(conn, &game)?;
            }
        }
        _ => {}
    }
    let mut last_keep_alive = Instant::now();
    while !stop.load(Ordering::Relaxed) {
        let (texts, cut_now, clean_now) = {
            let s = lock(shared);
            let (s, _) = shared
                .1
                .wait_timeout_while(s, Duration::from_millis(50), |s| {
                    s.relay.log.len() <= next
                        && s.cut == cut
                        && s.closed_cleanly == clean
                        && !stop.load(Ordering::Relaxed)
                })
                .unwrap_or_else(|e| e.into_inner());
            let texts: Vec<String> = s.relay.log.get(next..).unwrap_or_default().to_vec();
            next = s.relay.log.len().max(next);
            (texts, s.cut != cut, s.closed_cleanly != clean)
        };
        if cut_now {
            let _ = conn.shutdown(Shutdown::Both);
            return Ok(());
        }
        for t in texts {
            chunk(conn, &format!("{}\n\n\n", t.trim_end()))?;
        }
        if clean_now {
            return chunk(conn, "");
        }
        if last_keep_alive.elapsed() >= keep_alive {
            chunk(conn, " ")?;
            lock(shared).relay.keep_alives_sent += 1;
            last_keep_alive = Instant::now();
        }
    }
    Ok(())
}

/// The watched game's state: its position after the moves.
fn watched_position(moves: &[String]) -> Chess {
    let mut pos = Chess::default();
    for m in moves {
        if let Some(mv) = UciMove::from_ascii(m.as_bytes())
            .ok()
            .and_then(|u| u.to_move(&pos).ok())
        {
            pos.play_unchecked(mv);
        }
    }
    pos
}

fn watched_description(s: &State) -> String {
    let (white, black) = s.relay.watched.clone().unwrap_or_default();
    let pos = watched_position(&s.relay.watched_moves);
    let fen = shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal);
    let (status, winner) = match (s.relay.watched_over, s.relay.watched_result) {
        (false, _) => ("started", String::new()),
        (true, Some(c)) => (
            "resign",
            format!(r#","winner":"{}""#, c.fold_wb("white", "black")),
        ),
        (true, None) => ("draw", String::new()),
    };
    format!(
        r#"{{"id":"{WATCHED}","variant":{{"key":"standard","name":"Standard","short":"Std"}},"speed":"blitz","perf":"blitz","rated":true,"initialFen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","fen":"{fen}","player":"{}","turns":{},"startedAtTurn":0,"source":"pool","status":{{"id":20,"name":"{status}"}},"createdAt":1,"lastMove":"{}","players":{{"white":{{"user":{{"name":"{white}","id":"{}"}},"rating":2500}},"black":{{"user":{{"name":"{black}","id":"{}"}},"rating":2400}}}}{winner}}}"#,
        pos.turn().fold_wb("white", "black"),
        s.relay.watched_moves.len(),
        s.relay.watched_moves.last().cloned().unwrap_or_default(),
        white.to_lowercase(),
        black.to_lowercase(),
    )
}

/// The move stream of a game one does not play: its description, a line for each move
/// (placement and side to move, the move in UCI, both clocks in seconds), its description again
/// when it ends, and the end of the stream.
/// lichess TV (`tv: true`) sends the same game as `{"t":"featured","d":…}` and
/// `{"t":"fen","d":…}` messages (TvFeed), and stays open when the game ends.
fn watched_stream(
    conn: &TcpStream,
    shared: &Shared,
    stop: &AtomicBool,
    tv: bool,
) -> std::io::Result<()> {
    let (first, mut sent, cut, clean) = {
        let mut s = lock(shared);
        if s.down_until.is_some_and(|t| Instant::now() < t) {
            drop(s);
            let _ = conn.shutdown(Shutdown::Both);
            return Ok(());
        }
        if s.relay.watched.is_none() {
            drop(s);
            return respond(conn, 404, "", r#"{"error":"Not found"}"#);
        }
        s.relay.game_streams_opened += 1;
        let first = if tv {
            tv_featured(&s)
        } else {
            watched_description(&s)
        };
        (first, s.relay.watched_moves.len(), s.cut, s.closed_cleanly)
    };
    let mut w = conn;
    write!(
        w,
        "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )?;
    chunk(conn, &format!("{first}\n"))?;
    if !tv {
        // The game's stream replays the game first: its start position without a move,
        // then every position with the move that led to it (lila's ApiMoveStream).
        let moves = lock(shared).relay.watched_moves.clone();
        chunk(
            conn,
            &format!(
                "{{\"fen\":\"{} w\",\"wc\":180,\"bc\":180}}\n",
                Chess::default().board()
            ),
        )?;
        for n in 1..=moves.len() {
            chunk(conn, &format!("{}\n", move_line(&moves, n)))?;
        }
    }
    while !stop.load(Ordering::Relaxed) {
        let (lines, over, cut_now, clean_now) = {
            let s = lock(shared);
            let (s, _) = shared
                .1
                .wait_timeout_while(s, Duration::from_millis(50), |s| {
                    s.relay.watched_moves.len() <= sent
                        && !s.relay.watched_over
                        && s.cut == cut
                        && s.closed_cleanly == clean
                        && !stop.load(Ordering::Relaxed)
                })
                .unwrap_or_else(|e| e.into_inner());
            let mut lines = Vec::new();
            while sent < s.relay.watched_moves.len() {
                sent += 1;
                let line = move_line(&s.relay.watched_moves, sent);
                lines.push(if tv {
                    format!(r#"{{"t":"fen","d":{line}}}"#)
                } else {
                    line
                });
            }
            if s.relay.watched_over && !tv {
                lines.push(watched_description(&s));
                // lichess pushes its buffer out with empty objects before it closes.
                lines.push("{}".to_string());
            }
            (
                lines,
                s.relay.watched_over,
                s.cut != cut,
                s.closed_cleanly != clean,
            )
        };
        if cut_now {
            let _ = conn.shutdown(Shutdown::Both);
            return Ok(());
        }
        for l in lines {
            chunk(conn, &format!("{l}\n"))?;
        }
        if clean_now {
            return chunk(conn, "");
        }
        if over && !tv {
            return chunk(conn, "");
        }
    }
    Ok(())
}

/// The position after the first `n` of `moves` and the move that led to it, as a game's
/// stream sends it (placement and side to move, both clocks in seconds).
fn move_line(moves: &[String], n: usize) -> String {
    let pos = watched_position(&moves[..n]);
    format!(
        r#"{{"fen":"{} {}","lm":"{}","wc":{},"bc":{}}}"#,
        pos.board(),
        pos.turn().fold_wb("w", "b"),
        moves[n - 1],
        180usize.saturating_sub(n),
        180usize.saturating_sub(n / 2)
    )
}

fn tv_featured(s: &State) -> String {
    let (white, black) = s.relay.watched.clone().unwrap_or_default();
    let pos = watched_position(&s.relay.watched_moves);
    let fen = shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal);
    format!(
        r#"{{"t":"featured","d":{{"id":"{WATCHED}","orientation":"white","players":[{{"color":"white","user":{{"name":"{white}","id":"{}"}},"rating":2500,"seconds":180}},{{"color":"black","user":{{"name":"{black}","id":"{}"}},"rating":2400,"seconds":180}}],"fen":"{fen}"}}}}"#,
        white.to_lowercase(),
        black.to_lowercase()
    )
}

/// A seek's or a challenge's form is noted; one with `days` makes the game a daily one.
fn correspondence_form(s: &mut State, req: &Request) {
    if req.method == "POST"
        && (req.path.starts_with("/api/board/seek") || req.path.starts_with("/api/challenge/"))
    {
        s.relay.forms.push(format!("{} {}", req.path, req.body));
        if let Some(days) = req
            .body
            .split('&')
            .find_map(|kv| kv.strip_prefix("days="))
            .and_then(|d| d.parse().ok())
        {
            s.relay.daily = Some(days);
        }
    }
}

/// A daily game's gameFull: `daysPerTurn` and no clock (GameFullEvent; lila's BotJsonView).
fn daily_full(full: String, days: Option<u32>) -> String {
    match days {
        Some(d) => full.replace(
            r#""clock":{"initial":900000,"increment":10000}"#,
            &format!(r#""daysPerTurn":{d}"#),
        ),
        None => full,
    }
}

// ---------------------------------------------------------------------------------------
// Puzzles (lichess-org/api f59dc80: apiPuzzleDaily, apiPuzzleNext, apiPuzzleBatchSolve):
// the daily puzzle and a new one (no token needed; one sent must be known), answered with
// the spec's own examples (PuzzleAndGame), a new one of the `angle` asked; results recorded
// by a JSON POST with the token (puzzle:write), answered with the player's glicko. Faults
// on request: a broken answer, a refused (revoked) token.

/// The spec's daily puzzle (puzzles-getDailyPuzzle): IFy4T, White to move, solution
/// c4d3 e4d3 e1e5.
pub const DAILY_PUZZLE: &str = r#"{"game":{"id":"bcZBqQrZ","perf":{"key":"rapid","name":"Rapid"},"rated":true,"players":[{"name":"StourKwn","id":"stourkwn","color":"white","rating":1898},{"name":"Jaraxis","id":"jaraxis","color":"black","rating":1837}],"pgn":"g3 e5 Bg2 d5 d3 Nc6 c4 Be6 Nc3 Nf6 Nf3 Qd7 Bg5 Be7 cxd5 Nxd5 Bxe7 Qxe7 O-O O-O-O Qc2 g5 Nxd5 Bxd5 e4 Be6 a3 f5 Rac1 Nd4 Nxd4 Rxd4 exf5 Bxf5 Rfd1 Rhd8 Qb3 c6 Rc3 h5 Rdc1 R8d6 Qg8+ Rd8 Qb3 R8d6 a4 Rxd3 Rxd3 Rxd3 Qc4 e4 a5 a6 Re1 Qe5 Bxe4 Bxe4","clock":"10+0"},"puzzle":{"id":"IFy4T","rating":1869,"plays":42035,"solution":["c4d3","e4d3","e1e5"],"themes":["endgame","crushing","short"],"fen":"2k5/1p6/p1p5/P3q1pp/2Q1b3/3r2P1/1P3P1P/4R1K1 w - - 0 1","lastMove":"f5e4","initialPly":57}}"#;

/// New puzzles, in the order `next` gives them: the spec's examples (puzzles-getNewPuzzle,
/// puzzles-solveMultiplePuzzlesAtOnce), without `fen` and `lastMove` as there; and one made
/// for hector's tests (angle "opening"), whose solution Bc5, a3, Qh4# passes over the mate
/// Qh4# that is there from the first move.
pub const NEXT_PUZZLES: [&str; 3] = [
    r#"{"game":{"id":"xAetwjh1","perf":{"key":"rapid","name":"Rapid"},"rated":true,"players":[{"name":"Marcel","id":"marcel","color":"white","rating":1708},{"name":"Ikem","id":"ikem","color":"black","rating":1621}],"pgn":"e4 e5 Nf3 Nf6 Nxe5 d6 Nf3 Nxe4 Qe2 Qe7 d3 Nf6 Nc3 Bg4 Be3 Nc6 h3 Bh5 O-O-O O-O-O g4 Bg6 Bg2 Re8 d4 Qd7 d5 Ne5 Rd4 Nxf3 Bxf3 Be7 Ra4 a6 Rd1 h5 g5 Nh7 h4 f6 Rdd4 fxg5 hxg5 Nxg5 Ra5 Nxf3 Qxf3 Qf5 Qe2 Bg5 Nb5 Bxe3+ fxe3 Rxe3 Qc4 Re7","clock":"10+0"},"puzzle":{"id":"A5w9m","rating":1624,"plays":5838,"solution":["b5d6","c8b8","d6f5"],"themes":["middlegame","short","crushing","pin"],"initialPly":55}}"#,
    r#"{"game":{"id":"50ZuAmiN","perf":{"key":"blitz","name":"Blitz"},"rated":true,"players":[{"name":"mjadidi","id":"mjadidi","color":"white","rating":1707},{"name":"B-A-L","id":"b-a-l","color":"black","rating":1679}],"pgn":"e4 e6 Nf3 d5 e5 c5 c3 Qb6 d4 cxd4 cxd4 Nc6 Be2 Bb4+ Nc3 Nge7 O-O O-O a3 Bxc3 bxc3 Na5 Be3 Qb2 Qa4 Qxe2 Qxa5 b6 Qb4 Nc6 Qd6 Na5 a4 Nc4 Qc6 Nxe3 fxe3 Qxe3+ Kh1 Ba6 Rfe1 Qf2 a5 Rac8 Qd6 Rfd8 Qe7 bxa5 Qxa7 Be2 Ng5 Ra8 Qe7 Re8 Qc7 Rec8 Qb7 Ba6 Qe7 Rxc3 Reb1 Rc2 Rg1 Rb2 Rxa5 Rc8 Rxa6","clock":"5+1"},"puzzle":{"id":"QBX2O","rating":1632,"plays":3889,"solution":["f2g1","h1g1","c8c1"],"themes":["mateIn2","middlegame","short","attraction","sacrifice"],"initialPly":66}}"#,
    r#"{"game":{"id":"hectorT1","perf":{"key":"blitz","name":"Blitz"},"rated":true,"players":[{"name":"Anna","id":"anna","color":"white","rating":1500},{"name":"Bernd","id":"bernd","color":"black","rating":1500}],"pgn":"f3 e5 g4","clock":"5+0"},"puzzle":{"id":"hecT1","rating":1200,"plays":1,"solution":["f8c5","a2a3","d8h4"],"themes":["mateIn2","opening","short"],"initialPly":2}}"#,
];

#[derive(Clone, Default)]
pub struct PuzzleDesk {
    /// The daily and new puzzles are answered with a broken text.
    pub broken: bool,
    /// The bodies of the results recorded, with the Authorization they came with.
    pub solved: Vec<(String, Option<String>)>,
    /// The `angle` of each new puzzle asked for ("" for none).
    pub angles: Vec<String>,
}

impl Server {
    /// The results recorded so far: (body, Authorization).
    pub fn solved(&self) -> Vec<(String, Option<String>)> {
        self.state().puzzles.solved.clone()
    }

    /// Daily and new puzzles are answered with text that is no puzzle.
    pub fn break_puzzles(&self) {
        self.state().puzzles.broken = true;
    }
}

fn puzzle_routes(conn: &TcpStream, req: &Request, shared: &Shared) -> Option<std::io::Result<()>> {
    let (path, query) = req.path.split_once('?').unwrap_or((req.path.as_str(), ""));
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let write = match (req.method.as_str(), segments.as_slice()) {
        ("GET", ["api", "puzzle", "daily" | "next"]) => false,
        ("POST", ["api", "puzzle", "batch", _]) => true,
        _ => return None,
    };
    let mut s = lock(shared);
    s.requests.push(format!("{} {}", req.method, req.path));
    s.authorizations.extend(req.auth.clone());
    let old = req.auth.as_deref() == Some(&format!("Bearer {OLD_TOKEN}"));
    let known = !s.revoked && (old || req.auth.as_deref() == Some(&format!("Bearer {TOKEN}")));
    // The daily and new puzzles need no token, but one that is sent must be known.
    if (write || req.auth.is_some()) && !known {
        drop(s);
        return Some(respond(conn, 401, "", r#"{"error":"No such token"}"#));
    }
    // A new puzzle asked with a token needs its scope puzzle:read (lila: 403).
    if old && segments.as_slice() == ["api", "puzzle", "next"] {
        drop(s);
        return Some(respond(conn, 403, "", r#"{"error":"Missing scope"}"#));
    }
    if s.limited > 0 {
        s.limited -= 1;
        drop(s);
        return Some(respond(
            conn,
            429,
            "Retry-After: 1\r\n",
            r#"{"error":"Too many requests. Try again later."}"#,
        ));
    }
    let broken = s.puzzles.broken;
    Some(match segments.as_slice() {
        ["api", "puzzle", "daily"] if broken => respond(conn, 200, "", r#"{"game":{"pgn":"e4 e5"#),
        ["api", "puzzle", "daily"] => respond(conn, 200, "", DAILY_PUZZLE),
        ["api", "puzzle", "next"] => {
            let angle = query
                .split('&')
                .find_map(|kv| kv.strip_prefix("angle="))
                .unwrap_or("")
                .to_string();
            s.puzzles.angles.push(angle.clone());
            if broken {
                return Some(respond(conn, 200, "", r#"{"puzzle":{"id":"x"}}"#));
            }
            let theme = format!("\"{angle}\"");
            let found = NEXT_PUZZLES
                .iter()
                .find(|p| angle.is_empty() || angle == "mix" || p.contains(&theme));
            match found {
                Some(p) => respond(conn, 200, "", p),
                None => respond(conn, 404, "", r#"{"error":"Not found"}"#),
            }
        }
        ["api", "puzzle", "batch", _] => {
            let body: Option<serde_json::Value> = serde_json::from_str(&req.body).ok();
            let rounds: Option<Vec<String>> = body
                .as_ref()
                .and_then(|b| b.get("solutions")?.as_array().cloned())
                .and_then(|list| {
                    list.iter()
                        .map(|x| {
                            let id = x.get("id")?.as_str()?;
                            let win = x.get("win")?.as_bool()?;
                            x.get("rated")?.as_bool()?;
                            Some(format!(r#"{{"id":"{id}","win":{win},"ratingDiff":14}}"#))
                        })
                        .collect()
                });
            match rounds {
                Some(rounds) => {
                    s.puzzles.solved.push((req.body.clone(), req.auth.clone()));
                    respond(
                        conn,
                        200,
                        "",
                        &format!(
                            r#"{{"puzzles":[],"glicko":{{"rating":1663.73,"deviation":91.04}},"rounds":[{}]}}"#,
                            rounds.join(",")
                        ),
                    )
                }
                None => respond(conn, 400, "", r#"{"error":"Invalid solutions"}"#),
            }
        }
        _ => respond(conn, 404, "", r#"{"error":"Not found"}"#),
    })
}

/// How the opening explorer answers.
#[derive(Clone, Default)]
pub struct ExplorerDesk {
    /// This many requests are answered with 429 (the explorer asks for a minute).
    pub limited: u32,
    /// Answers are cut off in the middle of their JSON.
    pub malformed: bool,
    /// Each answer waits this long before its headers.
    pub slow: Option<Duration>,
    /// The explorer's requests, "/masters?..." or "/lichess?...", with their Authorization.
    pub asked: Vec<(String, Option<String>)>,
}

/// The explorer's games from a position (by its placement and side to move), most played
/// first, each move as (uci, white, draws, black): the start and after 1. e4 answer as the
/// explorer does; any other position has no games.
fn explorer_moves(fen: &str, masters: bool) -> Vec<(&'static str, u64, u64, u64)> {
    let key: Vec<&str> = fen.split(' ').take(2).collect();
    let scale = if masters { 1 } else { 100 };
    let moves: Vec<(&'static str, u64, u64, u64)> = match key.as_slice() {
        ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "w"] => vec![
            ("e2e4", 500, 300, 400),
            ("d2d4", 450, 350, 200),
            ("g1f3", 150, 150, 100),
            ("c2c4", 100, 100, 200),
        ],
        ["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR", "b"] => vec![
            ("c7c5", 400, 300, 300),
            ("e7e5", 300, 400, 300),
            ("e7e6", 100, 100, 100),
        ],
        _ => Vec::new(),
    };
    moves
        .into_iter()
        .map(|(m, w, d, b)| (m, w * scale, d * scale, b * scale))
        .collect()
}

/// The explorer at `/masters` and `/lichess` as its specification describes it: a position
/// by `fen` (spaces as `%20` or `_`), `moves` the most played to list, the counts of the
/// position and of each move, `topGames` and `recentGames` as empty lists, the opening when
/// named; a token required (any token of the user's: this one), 429 with a minute's wait.
fn explorer_routes(
    conn: &TcpStream,
    req: &Request,
    shared: &Shared,
) -> Option<std::io::Result<()>> {
    let (path, query) = req.path.split_once('?').unwrap_or((req.path.as_str(), ""));
    let masters = match (req.method.as_str(), path) {
        ("GET", "/masters") => true,
        ("GET", "/lichess") => false,
        _ => return None,
    };
    let param = |name: &str| {
        query
            .split('&')
            .find_map(|kv| kv.strip_prefix(name)?.strip_prefix('='))
            .map(|v| v.replace("%20", " ").replace('_', " "))
    };
    let (slow, malformed) = {
        let mut s = lock(shared);
        s.requests.push(format!("{} {}", req.method, req.path));
        s.authorizations.extend(req.auth.clone());
        s.explorer.asked.push((req.path.clone(), req.auth.clone()));
        if req.auth.as_deref() != Some(&format!("Bearer {TOKEN}")) {
            drop(s);
            return Some(respond(conn, 401, "", r#"{"error":"No such token"}"#));
        }
        if s.explorer.limited > 0 {
            s.explorer.limited -= 1;
            drop(s);
            return Some(respond(
                conn,
                429,
                "Retry-After: 60\r\n",
                r#"{"error":"Too many requests. Try again in a minute."}"#,
            ));
        }
        (s.explorer.slow, s.explorer.malformed)
    };
    if let Some(d) = slow {
        thread::sleep(d);
    }
    let Some(fen) = param("fen") else {
        return Some(respond(conn, 400, "", r#"{"error":"fen: invalid"}"#));
    };
    let limit = param("moves")
        .and_then(|m| m.parse::<usize>().ok())
        .unwrap_or(12);
    let moves = explorer_moves(&fen, masters);
    let total = moves
        .iter()
        .fold((0, 0, 0), |(w, d, b), m| (w + m.1, d + m.2, b + m.3));
    let listed: Vec<String> = moves
        .iter()
        .take(limit)
        .map(|(uci, w, d, b)| {
            format!(
                r#"{{"uci":"{uci}","san":"?","averageRating":2400,"white":{w},"draws":{d},"black":{b},"game":null}}"#
            )
        })
        .collect();
    let opening = if moves.len() == 3 {
        r#"{"eco":"B00","name":"King's Pawn Game"}"#
    } else {
        "null"
    };
    let recent = if masters { "" } else { r#""recentGames":[],"# };
    let body = format!(
        r#"{{"white":{},"draws":{},"black":{},"moves":[{}],{recent}"topGames":[],"opening":{opening}}}"#,
        total.0,
        total.1,
        total.2,
        listed.join(",")
    );
    let body = if malformed {
        body[..body.len() / 2].to_string()
    } else {
        body
    };
    Some(respond(conn, 200, "", &body))
}

impl Server {
    /// The explorer's requests so far: (path and query, Authorization).
    pub fn explorer_asked(&self) -> Vec<(String, Option<String>)> {
        self.state().explorer.asked.clone()
    }
}
