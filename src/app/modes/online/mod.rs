//! `hector online`: games on lichess through its Board API. `login` and `logout` keep the
//! player's token; `play` starts a game (a seek, a challenge, lichess's computer) or continues
//! one, and plays it on the shared runtime: the pure [`Online`] session decides, this module
//! carries out its effects (speech, screen, journal, the player's board) and sends its
//! requests to the adapter's threads.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use shakmaty::Color;

use crate::app::services::output::Out as Report;
use crate::app::services::recorder::Recorder;
use crate::app::services::ui::narrator::Narrator;
use crate::app::services::ui::view::Pieces;
use crate::app::services::ui::{Front, Incoming, Mode, Picture, Source, Ui};
use crate::core::machine::Machine;
use crate::core::matchplay::Command;
use crate::core::matchplay::{BoardOf, Effect, Urgency};
use crate::core::mode::MODE_SETTING;
use crate::core::notation::Form;
use crate::core::notation::{Language, fill};
use crate::core::online::wire::{GameLine, game_line};
use crate::core::online::{self, Online, Options};
use crate::core::record::{Entry, Header};
use crate::core::settings::SpeechSettings;
use crate::core::time::Timestamp;
use crate::io::board_link::{BoardEvent, BoardLink, Protocol};
use crate::io::lichess::{self, ApiError, Client, GameLink, News, token};
use crate::io::terminal::FullScreen;

/// What `hector online` is asked to do, and on which server (lichess, or a server with the
/// same API).
pub(crate) struct OnlineOptions {
    pub(crate) server: String,
    pub(crate) action: OnlineAction,
}

pub(crate) enum OnlineAction {
    /// Store the player's token.
    Login,
    /// Delete the stored token.
    Logout,
    /// Play a game, or continue one.
    Play(Box<GameRequest>),
    /// List the games in progress.
    Games,
}

#[derive(Debug, Clone, Copy)]
pub(crate) enum ColorChoice {
    White,
    Black,
    Random,
}

#[derive(Debug, Clone, Copy)]
pub(crate) enum VariantChoice {
    Standard,
    Chess960,
}

/// The game asked for: a seek, a challenge, lichess's computer, or one in progress.
#[derive(Debug)]
pub(crate) struct GameRequest {
    /// A public seek with this time control (minutes plus seconds per move).
    pub(crate) seek: Option<String>,
    /// Challenge this lichess user.
    pub(crate) challenge: Option<String>,
    /// Play lichess's computer at this level (1-8).
    pub(crate) ai: Option<u8>,
    /// A game in progress: its number in the list of games, or its lichess id.
    pub(crate) game: Option<String>,
    /// The time control of a challenge or a game against the computer.
    pub(crate) time: Option<String>,
    pub(crate) color: ColorChoice,
    pub(crate) rated: bool,
    pub(crate) variant: VariantChoice,
    /// The player's board: its port and protocol.
    pub(crate) board: Option<(PathBuf, Protocol)>,
    pub(crate) screen_reader: bool,
    /// The player's own time said without asking.
    pub(crate) announce: bool,
    /// Moves and commands said aloud (`--voice`).
    pub(crate) voice: Option<crate::app::services::voice::VoiceOptions>,
    /// A correspondence (daily) game: days per move.
    pub(crate) days: Option<u32>,
    /// A seek's range of opponents' ratings, as typed ("1500-1800").
    pub(crate) rating_range: Option<String>,
}

/// Runs `hector online`.
pub(crate) fn main(
    options: OnlineOptions,
    speech: SpeechSettings,
    speech_chosen: bool,
    lang: &'static Language,
) -> ExitCode {
    // Before anything is read or sent: the token goes only where no one can read it.
    if !matches!(options.action, OnlineAction::Logout)
        && let Err(e) = lichess::check_server(&options.server)
    {
        return fail(&server_words(&e, lang));
    }
    match options.action {
        OnlineAction::Login => login(&options.server, lang),
        OnlineAction::Logout => logout(&options.server, lang),
        OnlineAction::Games => games(&options.server, lang),
        OnlineAction::Play(play) => {
            let setup = Setup {
                server: options.server.clone(),
                speech,
                speech_chosen,
            };
            run_play(*play, setup, lang)
        }
    }
}

/// Why a server is not asked, in words.
fn server_words(e: &lichess::ServerError, lang: &Language) -> String {
    let (template, server) = match e {
        lichess::ServerError::Insecure(s) => (&lang.online.insecure_server, s),
        lichess::ServerError::NotAnAddress(s) => (&lang.online.bad_server, s),
    };
    fill(
        template,
        &[("server", &crate::core::notation::printable(server))],
    )
}

/// Why the token file is not read, in words.
fn token_file_words(e: &token::TokenFileError, lang: &Language) -> String {
    use token::TokenFileError as E;
    let o = &lang.online;
    let (path, reason) = match e {
        E::Link(p) => (p, o.token_file_reasons[0].clone()),
        E::NotAFile(p) => (p, o.token_file_reasons[1].clone()),
        E::NotYours(p) => (p, o.token_file_reasons[2].clone()),
        E::TooLarge(p) => (p, o.token_file_reasons[3].clone()),
        E::Unreadable { path, reason } => (path, reason.clone()),
    };
    fill(
        &o.token_file_refused,
        &[
            (
                "path",
                &crate::core::notation::printable(&path.display().to_string()),
            ),
            ("reason", &reason),
        ],
    )
}

fn fail(text: &str) -> ExitCode {
    errln!("hector online: {text}");
    ExitCode::from(1)
}

/// Reads a line from the terminal without showing it (the token), or from a pipe. Ctrl-C
/// (or SIGTERM, SIGHUP) while it waits gives the terminal its echo back and ends the wait:
/// `Err` with the signal.
fn read_secret(prompt: &str) -> Result<Option<String>, crate::io::platform::signals::Ending> {
    use std::io::{IsTerminal, Write};
    let terminal = std::io::stdin().is_terminal();
    let mut echo = None;
    // Caught before the echo goes off, so that no signal leaves it off.
    let signals = terminal.then(crate::io::platform::signals::endings);
    if terminal {
        let _ = write!(std::io::stderr(), "{prompt}");
        let _ = std::io::stderr().flush();
        echo = Some(crate::io::platform::console::EchoOff::start());
    }
    // The line is read on a thread of its own, so that a signal ends the wait at once.
    let (tx, lines) = crossbeam_channel::bounded(1);
    std::thread::spawn(move || {
        let line = crate::io::files::bounded_lines(std::io::stdin().lock()).next();
        let _ = tx.send(line);
    });
    let read = match &signals {
        Some(signals) => crossbeam_channel::select! {
            recv(lines) -> line => Ok(line.ok().flatten()),
            recv(signals) -> ending => ending.map_or(Ok(None), Err),
        },
        None => Ok(lines.recv().ok().flatten()),
    };
    if let Some(echo) = echo
        && echo.is_off()
    {
        drop(echo);
        errln!();
    }
    read.map(|line| line.map(|l| l.trim().to_string()).filter(|l| !l.is_empty()))
}

fn login(server: &str, lang: &Language) -> ExitCode {
    let o = &lang.online;
    let mut out = Report::new();
    out.line(&o.login_where);
    out.flush();
    let t = match read_secret(&o.login_prompt) {
        Ok(Some(t)) => t,
        Ok(None) => return fail(&o.token_refused),
        // Nothing stored, nothing sent; 128 + the signal's number, as a shell reports it.
        Err(ending) => return ExitCode::from(128 + ending.number()),
    };
    let client = match Client::new(server, &t) {
        Ok(c) => c,
        Err(e) => return fail(&server_words(&e, lang)),
    };
    match client.account() {
        Ok(account) => match token::store(server, &t) {
            Ok(path) => {
                let name = crate::core::notation::printable(&account.username);
                out.line(&fill(&o.login_ok, &[("name", &name)]));
                out.line(&fill(
                    &o.login_stored,
                    &[("path", &path.display().to_string())],
                ));
                out.finish(
                    "hector online login",
                    &lang.messages.output_failed,
                    ExitCode::SUCCESS,
                )
            }
            Err(token::TokenStoreError::Owned(e)) => {
                fail(&crate::app::services::games::owned_problem(&e, lang))
            }
            Err(e) => fail(&crate::io::error_chain(&e)),
        },
        Err(ApiError::Unauthorized) => fail(&o.token_refused),
        Err(e) => fail(&connect_failed(&e, lang)),
    }
}

/// A request that failed, in words; the server's own words shown safe to print.
fn connect_failed(e: &ApiError, lang: &Language) -> String {
    fill(
        &lang.online.connect_failed,
        &[("reason", &crate::core::notation::printable(&e.to_string()))],
    )
}

fn logout(server: &str, lang: &Language) -> ExitCode {
    let said = match token::remove(server) {
        Ok(true) => &lang.online.logout_done,
        Ok(false) => &lang.online.logout_none,
        Err(e) => return fail(&crate::io::error_chain(&e)),
    };
    let mut out = Report::new();
    out.line(said);
    out.finish(
        "hector online logout",
        &lang.messages.output_failed,
        ExitCode::SUCCESS,
    )
}

/// The client with the stored token and the player's account, or the reason in words.
fn connect(
    server: &str,
    lang: &Language,
) -> Result<(Client, crate::core::online::wire::Account), String> {
    let o = &lang.online;
    let t = token::load(server)
        .map_err(|e| token_file_words(&e, lang))?
        .ok_or_else(|| o.no_token.clone())?;
    let client = Client::new(server, &t).map_err(|e| server_words(&e, lang))?;
    match client.account() {
        Ok(a) => Ok((client, a)),
        Err(ApiError::Unauthorized) => Err(o.revoked.clone()),
        Err(ApiError::RateLimited(d)) => Err(fill(
            &o.rate_limited,
            &[("seconds", &d.as_secs().to_string())],
        )),
        Err(e) => Err(connect_failed(&e, lang)),
    }
}

fn games(server: &str, lang: &Language) -> ExitCode {
    let (client, _) = match connect(server, lang) {
        Ok(c) => c,
        Err(text) => return fail(&text),
    };
    let o = &lang.online;
    let mut out = Report::new();
    match client.playing() {
        Ok(list) if list.is_empty() => {
            out.line(&o.games_none);
        }
        Ok(list) => {
            for (i, g) in list.iter().enumerate() {
                let color = if g.color == "black" {
                    Color::Black
                } else {
                    Color::White
                };
                let turn = if g.is_my_turn {
                    o.your_turn.as_str()
                } else {
                    ""
                };
                let printable = crate::core::notation::printable;
                // A daily game: how long is left for the move, in days and hours.
                let daily = match g.seconds_left {
                    Some(secs) if g.speed == "correspondence" => fill(
                        &o.games_daily,
                        &[(
                            "time",
                            &crate::core::online::daily::days_hours(
                                Duration::from_secs(secs),
                                lang,
                            ),
                        )],
                    ),
                    _ => String::new(),
                };
                out.line(&format!(
                    "{}{daily} ({})",
                    fill(
                        &o.games_line,
                        &[
                            ("number", &(i + 1).to_string()),
                            ("opponent", &printable(&g.opponent.username)),
                            ("color", lang.color(color)),
                            ("turn", turn),
                        ],
                    ),
                    printable(&g.game_id)
                ));
            }
            out.line(&o.games_hint);
        }
        Err(e) => return fail(&connect_failed(&e, lang)),
    }
    out.finish(
        "hector online games",
        &lang.messages.output_failed,
        ExitCode::SUCCESS,
    )
}

struct Setup {
    server: String,
    speech: SpeechSettings,
    speech_chosen: bool,
}

/// "15+10" as seconds of the clock and of the increment: the time control as players type
/// it in every mode (minutes plus seconds), one period with an increment or none.
fn time_control(text: &str) -> Option<(u32, u32)> {
    let (control, _) = crate::core::clock::TimeControl::typed(text).ok()?;
    let [period] = control.periods() else {
        return None;
    };
    let inc = match period.bonus {
        crate::core::clock::Bonus::None => 0,
        crate::core::clock::Bonus::Fischer(d) => d.as_secs(),
        _ => return None,
    };
    if period.moves.is_some() || period.time.as_secs() > 180 * 60 || inc > 180 {
        return None;
    }
    Some((
        u32::try_from(period.time.as_secs()).ok()?,
        u32::try_from(inc).ok()?,
    ))
}

/// "1500-1800": the lowest and highest rating of the opponents a seek asks for.
fn rating_range(text: &str) -> Option<(u32, u32)> {
    let (low, high) = text.trim().split_once('-')?;
    let (low, high) = (
        low.trim().parse::<u32>().ok()?,
        high.trim().parse::<u32>().ok()?,
    );
    (low <= high && high <= 4000).then_some((low, high))
}

/// The game asked for in words, said back before it is sent: its time (or days per move),
/// rated or not, the variant, the colour, the opponents' ratings.
fn described(args: &GameRequest, time: &str, range: Option<(u32, u32)>, lang: &Language) -> String {
    let o = &lang.online;
    let mut parts = vec![
        time.to_string(),
        o.rated_words[usize::from(args.rated)].clone(),
    ];
    parts.push(match args.variant {
        VariantChoice::Standard => o.variant_words[0].clone(),
        VariantChoice::Chess960 => o.variant_words[1].clone(),
    });
    parts.push(match args.color {
        ColorChoice::White => fill(&o.plays_color, &[("color", lang.color(Color::White))]),
        ColorChoice::Black => fill(&o.plays_color, &[("color", lang.color(Color::Black))]),
        ColorChoice::Random => o.random_color.clone(),
    });
    if let Some((low, high)) = range {
        parts.push(fill(
            &o.range_words,
            &[("low", &low.to_string()), ("high", &high.to_string())],
        ));
    }
    parts.join(", ")
}

/// A correspondence game: lichess's computer, a challenge (waited for), or a seek (left on
/// the server: `None`).
fn daily_game(
    args: &GameRequest,
    client: &Client,
    lang: &Language,
    days: u32,
    range: Option<(u32, u32)>,
    known: &[String],
) -> Result<Option<String>, String> {
    let o = &lang.online;
    let reason = |e: ApiError| match e {
        ApiError::Unauthorized => o.revoked.clone(),
        e => connect_failed(&e, lang),
    };
    let printable = crate::core::notation::printable;
    let (color, variant, rated) = form_values(args);
    let days_text = days.to_string();
    let what = described(
        args,
        &crate::core::online::daily::control(days, lang),
        range,
        lang,
    );
    if let Some(level) = args.ai {
        let level = level.to_string();
        let body = client
            .post(
                "/api/challenge/ai",
                &[
                    ("level", &level),
                    ("days", &days_text),
                    ("color", color),
                    ("variant", variant),
                ],
            )
            .map_err(reason)?;
        return crate::core::online::wire::created_id(&body)
            .map(Some)
            .ok_or_else(|| fill(&o.connect_failed, &[("reason", &printable(&body))]));
    }
    if let Some(user) = &args.challenge {
        errln!(
            "{}",
            fill(
                &o.challenge_said,
                &[("user", &printable(user)), ("what", &what)]
            )
        );
        let path = format!("/api/challenge/{user}");
        client
            .post(
                &path,
                &[
                    ("rated", rated),
                    ("days", &days_text),
                    ("color", color),
                    ("variant", variant),
                ],
            )
            .map_err(reason)?;
        errln!("{}", o.waiting);
        // A correspondence challenge does not expire: no time limit.
        return wait_started(client, known, None, lang).map(Some);
    }
    errln!("{}", fill(&o.seek_said, &[("what", &what)]));
    let range_text = range.map(|(l, h)| format!("{l}-{h}"));
    let mut form = vec![
        ("rated", rated),
        ("variant", variant),
        ("days", days_text.as_str()),
    ];
    if let Some(r) = &range_text {
        form.push(("ratingRange", r));
    }
    // A correspondence seek answers at once with its id and stays on lichess.
    client.post("/api/board/seek", &form).map_err(reason)?;
    errln!("{}", o.seek_posted);
    Ok(None)
}

/// The colour, variant and rated values of the forms.
fn form_values(args: &GameRequest) -> (&'static str, &'static str, &'static str) {
    let color = match args.color {
        ColorChoice::White => "white",
        ColorChoice::Black => "black",
        ColorChoice::Random => "random",
    };
    let variant = match args.variant {
        VariantChoice::Standard => "standard",
        VariantChoice::Chess960 => "chess960",
    };
    (color, variant, if args.rated { "true" } else { "false" })
}

/// How long a real-time challenge waits for its answer before hector withdraws it.
const CHALLENGE_WAIT: Duration = Duration::from_secs(180);

/// Waits on the account's events for the game that starts (a challenge accepted); a
/// challenge of `user` is waited for [`CHALLENGE_WAIT`] at most.
fn wait_started(
    client: &Client,
    known: &[String],
    challenged: Option<&str>,
    lang: &Language,
) -> Result<String, String> {
    let o = &lang.online;
    let mut told = false;
    let mut dropped = || {
        if !std::mem::replace(&mut told, true) {
            errln!("{}", o.reconnecting);
        }
    };
    let limit = challenged.map(|_| CHALLENGE_WAIT);
    lichess::wait_for_game(client, known, limit, &mut dropped).map_err(|e| match e {
        lichess::WaitError::Declined(r) => fill(
            &o.challenge_declined,
            &[(
                "reason",
                &crate::core::notation::printable_cut(&r, crate::core::notation::MAX_REASON),
            )],
        ),
        lichess::WaitError::TimedOut => fill(
            &o.challenge_unanswered,
            &[
                (
                    "user",
                    &crate::core::notation::printable(challenged.unwrap_or_default()),
                ),
                ("minutes", &(CHALLENGE_WAIT.as_secs() / 60).to_string()),
            ],
        ),
        lichess::WaitError::Api(ApiError::Unauthorized) => o.revoked.clone(),
        lichess::WaitError::Api(e) => connect_failed(&e, lang),
    })
}

/// Starts or finds the game: its lichess id (none after a correspondence seek, which stays on
/// the server until someone accepts it).
fn start_game(
    args: &GameRequest,
    client: &Client,
    lang: &Language,
) -> Result<Option<String>, String> {
    let o = &lang.online;
    let known: Vec<String> = client
        .playing()
        .map_err(|e| api_reason(e, lang))?
        .into_iter()
        .map(|p| p.game_id)
        .collect();
    if let Some(chosen) = game_in_progress(args, &known, lang) {
        return chosen;
    }
    let range = match &args.rating_range {
        Some(text) => Some(rating_range(text).ok_or_else(|| {
            fill(
                &o.bad_range,
                &[("text", &crate::core::notation::printable(text))],
            )
        })?),
        None => None,
    };
    // `--seek` alone: the seek's time is the default (or days per move with --days).
    let typed_time = args
        .seek
        .as_deref()
        .filter(|t| !t.trim().is_empty())
        .or(args.time.as_deref());
    if let Some(days) = args.days {
        if let Some(t) = typed_time {
            return Err(fill(
                &o.days_with_time,
                &[("text", &crate::core::notation::printable(t))],
            ));
        }
        return daily_game(args, client, lang, days, range, &known);
    }
    let tc = typed_time.unwrap_or("15+10");
    let Some((limit, inc)) = time_control(tc) else {
        return Err(fill(
            &o.bad_time,
            &[("text", &crate::core::notation::printable(tc))],
        ));
    };
    if let Some(refusal) = crate::core::online::time_control_refusal(
        tc,
        limit,
        inc,
        args.seek.is_some() && args.ai.is_none() && args.challenge.is_none(),
        lang,
    ) {
        return Err(refusal);
    }
    // A challenge and lichess's computer take only the clocks the API lists: refused here,
    // in the player's words, rather than by the server.
    if (args.challenge.is_some() || args.ai.is_some())
        && !crate::core::online::challenge_clock_offered(limit, inc)
    {
        return Err(fill(
            &o.challenge_clock,
            &[("text", &crate::core::notation::printable(tc))],
        ));
    }
    let form = GameForm::new(args, limit, inc);
    if let Some(level) = args.ai {
        return ai_game(client, level, &form, lang).map(Some);
    }
    say_asked(args, limit, inc, range, lang);
    // The seek stays open until a game starts (or it is closed); it runs on its own
    // thread while the event stream says which game began. A challenge is kept alive by
    // its own open answer (keepAliveStream): dropped, it is withdrawn.
    let (_seek, _challenge) = match &args.challenge {
        Some(user) => (None, Some(challenge(client, user, &form, lang)?)),
        None => (Some(open_seek(client, &form, range)), None),
    };
    wait_started(client, &known, args.challenge.as_deref(), lang).map(Some)
}

/// What a refused or failed request to lichess means to the player.
fn api_reason(e: ApiError, lang: &Language) -> String {
    match e {
        ApiError::Unauthorized => lang.online.revoked.clone(),
        e => connect_failed(&e, lang),
    }
}

/// A game already in progress, when that is what was asked for: with nothing asked for, the
/// first one (or the choices when there is none); with `--game`, the one named or numbered.
fn game_in_progress(
    args: &GameRequest,
    known: &[String],
    lang: &Language,
) -> Option<Result<Option<String>, String>> {
    let o = &lang.online;
    if args.seek.is_none() && args.challenge.is_none() && args.ai.is_none() && args.game.is_none() {
        return Some(match known.first() {
            Some(id) => Ok(Some(id.clone())),
            None => Err(o.choose.clone()),
        });
    }
    let g = args.game.as_ref()?;
    Some(match g.parse::<usize>() {
        Ok(n) if n >= 1 && n <= known.len() => Ok(Some(known[n - 1].clone())),
        _ if known.contains(g) => Ok(Some(g.clone())),
        _ => Err(fill(
            &o.no_game,
            &[("game", &crate::core::notation::printable(g))],
        )),
    })
}

/// The form fields of a new game asked for: the clock in seconds, the colour, the variant
/// and whether it is rated, as lichess spells them.
struct GameForm {
    limit: String,
    inc: String,
    color: &'static str,
    variant: &'static str,
    rated: &'static str,
}

impl GameForm {
    fn new(args: &GameRequest, limit: u32, inc: u32) -> GameForm {
        GameForm {
            limit: limit.to_string(),
            inc: inc.to_string(),
            color: match args.color {
                ColorChoice::White => "white",
                ColorChoice::Black => "black",
                ColorChoice::Random => "random",
            },
            variant: match args.variant {
                VariantChoice::Standard => "standard",
                VariantChoice::Chess960 => "chess960",
            },
            rated: if args.rated { "true" } else { "false" },
        }
    }
}

/// A game against lichess's own engine at `level`: it starts at once.
fn ai_game(client: &Client, level: u8, form: &GameForm, lang: &Language) -> Result<String, String> {
    let level = level.to_string();
    let body = client
        .post(
            "/api/challenge/ai",
            &[
                ("level", &level),
                ("clock.limit", &form.limit),
                ("clock.increment", &form.inc),
                ("color", form.color),
                ("variant", form.variant),
            ],
        )
        .map_err(|e| api_reason(e, lang))?;
    crate::core::online::wire::created_id(&body).ok_or_else(|| {
        fill(
            &lang.online.connect_failed,
            &[("reason", &crate::core::notation::printable(&body))],
        )
    })
}

/// Challenges `user` to the game of `form`, kept alive while its answer stays open (a
/// real-time challenge lichess otherwise lets expire after 20 s): the answer's stream,
/// which withdraws the challenge when dropped.
fn challenge(
    client: &Client,
    user: &str,
    form: &GameForm,
    lang: &Language,
) -> Result<lichess::Stream, String> {
    client
        .stream(
            &format!("/api/challenge/{user}"),
            Some(&[
                ("rated", form.rated),
                ("clock.limit", &form.limit),
                ("clock.increment", &form.inc),
                ("color", form.color),
                ("variant", form.variant),
                ("keepAliveStream", "true"),
            ]),
        )
        .map_err(|e| api_reason(e, lang))
}

/// Says what was asked for, a challenge or a seek, and that hector waits for the game.
fn say_asked(args: &GameRequest, limit: u32, inc: u32, range: Option<(u32, u32)>, lang: &Language) {
    let o = &lang.online;
    let control = fill(
        &o.control,
        &[
            ("minutes", &(limit / 60).to_string()),
            ("seconds", &inc.to_string()),
        ],
    );
    let what = described(args, &control, range, lang);
    match &args.challenge {
        Some(user) => errln!(
            "{}",
            fill(
                &o.challenge_said,
                &[
                    ("user", &crate::core::notation::printable(user)),
                    ("what", &what)
                ]
            )
        ),
        None => errln!("{}", fill(&o.seek_said, &[("what", &what)])),
    }
    errln!("{}", o.waiting);
}

/// Opens the seek on a thread of its own: it stays open while its stream does and closes
/// when a game starts.
fn open_seek(
    client: &Client,
    form: &GameForm,
    range: Option<(u32, u32)>,
) -> crossbeam_channel::Receiver<()> {
    // The seek names its clock in minutes (a half: 0.5), however it was typed.
    let minutes = match form.limit.parse::<u32>() {
        Ok(secs) if secs.is_multiple_of(60) => (secs / 60).to_string(),
        Ok(secs) => format!("{}", f64::from(secs) / 60.0),
        Err(_) => "15".to_string(),
    };
    let seek_client = client.clone();
    let (rated, color, variant, inc) = (form.rated, form.color, form.variant, form.inc.clone());
    let range = range.map(|(l, h)| format!("{l}-{h}"));
    lichess::in_background(move || {
        let mut form = vec![
            ("rated", rated),
            ("time", minutes.as_str()),
            ("increment", inc.as_str()),
            ("variant", variant),
            ("color", color),
        ];
        if let Some(r) = &range {
            form.push(("ratingRange", r.as_str()));
        }
        if let Ok(stream) = seek_client.stream("/api/board/seek", Some(&form)) {
            while matches!(
                stream.next(Duration::from_secs(3600)),
                lichess::Next::Line(_) | lichess::Next::TooLong
            ) {}
        }
    })
}

/// Opens the game's stream and reads its first line, the whole game.
fn open_game(
    client: &Client,
    id: &str,
    lang: &Language,
) -> Result<(Box<crate::core::online::wire::GameFull>, lichess::Stream), String> {
    let o = &lang.online;
    let printable = crate::core::notation::printable;
    let stream = client
        .stream(&format!("/api/board/game/stream/{id}"), None)
        .map_err(|e| match e {
            ApiError::Unauthorized => o.revoked.clone(),
            e => connect_failed(&e, lang),
        })?;
    loop {
        match stream.next(Duration::from_secs(30)) {
            lichess::Next::Line(text) => match game_line(&text) {
                Ok(Some(GameLine::Full(full))) => return Ok((full, stream)),
                Ok(_) => {}
                Err(e) => return Err(fill(&o.bad_line, &[("reason", &printable(&e.0))])),
            },
            lichess::Next::TooLong => {}
            lichess::Next::Closed => return Err(fill(&o.no_game, &[("game", &printable(id))])),
            lichess::Next::Silent => {
                let e = ApiError::Network("no answer within 30 s".into());
                return Err(connect_failed(&e, lang));
            }
        }
    }
}

fn run_play(args: GameRequest, setup: Setup, lang: &'static Language) -> ExitCode {
    let (client, account) = match connect(&setup.server, lang) {
        Ok(c) => c,
        Err(text) => return fail(&text),
    };
    let id = match start_game(&args, &client, lang) {
        Ok(Some(id)) => id,
        // A correspondence seek stays on the server: nothing to play yet.
        Ok(None) => return ExitCode::SUCCESS,
        Err(text) => return fail(&text),
    };
    let (full, lines) = match open_game(&client, &id, lang) {
        Ok(x) => x,
        Err(text) => return fail(&text),
    };
    let origin = Instant::now();
    let options = Options {
        form: Form::Short,
        local_board: args.board.is_some(),
        announce: if args.announce {
            crate::core::clock::AnnounceSettings::casual()
        } else {
            crate::core::clock::AnnounceSettings::tournament()
        },
    };
    let (mut online, first) = match Online::new(&full, &account.id, options, lang, Timestamp::ZERO)
    {
        Ok(x) => x,
        Err(e) => return fail(&e.to_string()),
    };
    let sound = &setup.speech.sound;
    online.set_low_clock(
        sound
            .cues
            .then(|| Duration::from_secs(u64::from(sound.low_clock))),
    );
    let board = match open_board(&args, &online, origin) {
        Ok(board) => board,
        Err(text) => return fail(&text),
    };
    let url = format!("{}/{}", setup.server.trim_end_matches('/'), id);
    let recorder = new_recorder(&online, &full, &url, lang);
    let link = GameLink::start(&client, &id, Some(lines));
    let again = again_words(&setup.server, &id);
    let ui = Ui::new(args.screen_reader).with_keys_in_lines();
    let speaker = ui.speaker(&setup.speech, setup.speech_chosen, lang);
    let me = online.me();
    let mut app = App {
        lang,
        online,
        link,
        board,
        front: Front::new(
            Narrator::new(speaker, ui.full_screen, &lang.play.prompt),
            me,
            lang,
        ),
        origin,
        recorder,
        again,
        voice_input: None,
    };
    // Moves are made on the board too (Tab gives it the keys), as in hector play.
    app.front.focus.board_entry = true;
    let screen = ui.open(crate::core::mode::Mode::Online, &mut app.front.voice);
    app.tell_record_problem();
    if let Some(voice) = &args.voice {
        let (input, why) = crate::app::services::voice::VoiceInput::start(lang, voice);
        app.voice_input = Some(input);
        if let Some(why) = why {
            app.tell(Urgency::Urgent, vec![why]);
        }
    }
    if app.apply(first) {
        ui.run(&mut app, screen, lang);
    }
    app.leave();
    ExitCode::SUCCESS
}

/// The board of `--board`, in the game's position.
fn open_board(
    args: &GameRequest,
    online: &Online,
    origin: Instant,
) -> Result<Option<BoardLink>, String> {
    let Some((port, protocol)) = &args.board else {
        return Ok(None);
    };
    let mode = online.game().variant().castling_mode();
    BoardLink::open(
        port,
        *protocol,
        None,
        online.game().position().clone(),
        mode,
        origin,
    )
    .map(Some)
    .map_err(|e| format!("{}: {e}", port.display()))
}

/// How to come back to this game: hector online play names it (hector resume does not).
fn again_words(server: &str, id: &str) -> String {
    let server = server.trim_end_matches('/');
    if server == "https://lichess.org" {
        format!("online play --game {id}")
    } else {
        format!("online --server {server} play --game {id}")
    }
}

fn new_recorder(
    online: &Online,
    full: &crate::core::online::wire::GameFull,
    url: &str,
    lang: &Language,
) -> Recorder {
    use crate::core::online::player_name;
    let game = online.game();
    let white = player_name(&full.white, lang);
    let black = player_name(&full.black, lang);
    let mut header = Header::new(&crate::io::utc::now_utc(), &white, &black);
    header.site = url.to_string();
    header.event = if full.rated {
        "lichess rated".to_string()
    } else {
        "lichess casual".to_string()
    };
    header.variant = game.variant();
    header.start_fen = (full.initial_fen != "startpos").then(|| full.initial_fen.clone());
    // The PGN's TimeControl: seconds plus increment, as lichess exports it.
    header.time_control = full
        .clock
        .map(|c| format!("{}+{}", c.initial / 1000, c.increment / 1000));
    header.local_player = Some(online.me());
    header.opponent = format!("lichess {}", online.opponent());
    header.language = lang.code.clone();
    header.words = Some(lang.words);
    let mut entries = vec![
        // hector play and hector resume leave it alone (see io::journal::latest_in_progress).
        Entry::Setting {
            key: MODE_SETTING.to_string(),
            value: crate::core::mode::Mode::Online.name().to_string(),
        },
        Entry::Setting {
            key: "opponent".to_string(),
            value: "lichess".to_string(),
        },
        Entry::Setting {
            key: "lichess".to_string(),
            value: online.id.clone(),
        },
        Entry::Setting {
            key: "url".to_string(),
            value: url.to_string(),
        },
    ];
    if let Some(c) = full.clock {
        entries.push(Entry::Setting {
            key: "lichess_clock".to_string(),
            value: format!("{}+{}", c.initial / 1000, c.increment / 1000),
        });
    }
    Recorder::create(header, entries)
}

struct App {
    lang: &'static Language,
    online: Online,
    link: GameLink,
    board: Option<BoardLink>,
    front: Front,
    origin: Instant,
    recorder: Recorder,
    /// The arguments that come back to this game after leaving it.
    again: String,
    /// Listening for moves said aloud (`--voice`).
    voice_input: Option<crate::app::services::voice::VoiceInput>,
}

impl App {
    fn now(&self) -> Timestamp {
        Timestamp::from_duration(self.origin.elapsed())
    }

    fn tell(&mut self, urgency: Urgency, lines: Vec<String>) {
        self.front.voice.tell(urgency, lines);
    }

    fn tell_record_problem(&mut self) {
        let unrecorded = self.recorder.unrecorded_words(self.lang);
        self.online.set_unrecorded(unrecorded);
        if let Some((urgency, text)) = self.recorder.news_words(self.lang) {
            self.tell(urgency, vec![text]);
        }
    }

    /// Carries out the session's output in order; false when the player quits.
    fn apply(&mut self, outs: Vec<online::Effect>) -> bool {
        let mut keep_going = true;
        for out in outs {
            self.front.voice.dirty = true;
            match out {
                online::Effect::Send(action) => self.link.send(action),
                online::Effect::Match(effect) => match effect {
                    Effect::Common(common) => keep_going &= self.front.carry_out(common),
                    Effect::Record(r) => {
                        self.recorder.record(&r, self.online.game());
                        self.tell_record_problem();
                    }
                    Effect::BoardExpect {
                        board: BoardOf::Player,
                        position,
                        previous,
                    } => {
                        if let Some(b) = self.board.as_mut() {
                            let events = b.expect_position(*position, previous.map(|p| *p));
                            keep_going &= self.board_events(events);
                        }
                    }
                    Effect::BoardPromotion(role) => {
                        if let Some(b) = self.board.as_mut()
                            && let Ok(events) = b.choose_promotion(role)
                        {
                            keep_going &= self.board_events(events);
                        }
                    }
                    Effect::Label(label) => self.front.voice.label = Some(label),
                    Effect::Save(path) => self.save(path),
                    _ => {}
                },
            }
        }
        if self.online.is_over() {
            self.link.stop();
        }
        self.front.voice.question = self.online.question();
        self.front.voice.yes_no = self.online.asks_yes_no();
        keep_going
    }

    fn board_events(&mut self, events: Vec<BoardEvent>) -> bool {
        let mut keep = true;
        for event in events {
            match event {
                BoardEvent::Recognized { recognition, .. } => {
                    let now = self.now();
                    let outs = self.online.handle(online::Event::Board(recognition), now);
                    keep &= self.apply(outs);
                }
                BoardEvent::Disconnected { .. } => {
                    let text = crate::core::notation::board_words::disconnected(self.lang);
                    self.tell(Urgency::Urgent, vec![text.to_string()]);
                }
                BoardEvent::Reconnected => {
                    let text = crate::core::notation::board_words::reconnected(self.lang);
                    self.tell(Urgency::Answer, vec![text.to_string()]);
                }
                _ => {}
            }
        }
        keep
    }

    fn save(&mut self, path: Option<String>) {
        let default = format!("hector-lichess-{}.pgn", self.online.id);
        let text = self
            .recorder
            .save_typed(path.as_deref(), &default, self.lang);
        self.tell_record_problem();
        self.tell(Urgency::Answer, vec![text]);
    }

    fn news(&mut self, news: News) -> bool {
        let now = self.now();
        let outs = match news {
            News::Line(line) => self.online.handle(online::Event::Server(line), now),
            News::Link(link) => self.online.handle(online::Event::Link(link), now),
        };
        self.apply(outs)
    }

    fn leave(&mut self) {
        self.link.stop();
        let over = self.online.is_over();
        let mut closing = self.recorder.closing_words(over, self.lang);
        // Saved, and the game goes on on the server: this mode comes back to it.
        if !over && self.recorder.is_saved() {
            let command = format!("{} {}", crate::io::program::COMMAND, self.again);
            closing = vec![fill(
                &self.lang.online.continue_hint,
                &[("command", &command)],
            )];
        }
        // The hint names the command: where hector is, when the command alone would not
        // find it, is shown beside it and not said.
        let hinted = !closing.is_empty() && !over && self.recorder.is_saved();
        if !closing.is_empty() {
            self.tell(Urgency::Answer, closing);
        }
        if let Some(line) = hinted
            .then(|| crate::io::program::path_line(self.lang))
            .flatten()
        {
            self.front.voice.show(vec![line]);
        }
        self.front.voice.speaker.wait_idle(Duration::from_secs(3));
    }
}

const STREAM: usize = 0;
const BOARD: usize = 1;

impl Mode for App {
    fn sources(&self) -> Vec<(usize, Source)> {
        let mut sources = vec![(STREAM, Source::Lichess(self.link.news().clone()))];
        if let Some(b) = &self.board {
            sources.push((BOARD, Source::Port(b.events().clone())));
        }
        sources
    }

    fn next_wake(&self) -> Option<Instant> {
        let now = self.now();
        let mut wakes = Vec::new();
        if let Some(t) = self.online.next_deadline(now) {
            wakes.push(self.origin + t.since_origin());
        }
        if let Some(t) = self.board.as_ref().and_then(BoardLink::next_deadline) {
            wakes.push(t);
        }
        if self.front.voice.full_screen && self.online.clock_runs() {
            wakes.push(Instant::now() + Duration::from_millis(250));
        }
        wakes.into_iter().min()
    }

    fn front(&mut self) -> &mut Front {
        &mut self.front
    }

    fn draw(&mut self, screen: &mut FullScreen) {
        let clock = self.online.clock_faces(self.now());
        let m = self.online.game_match();
        self.front.review = m.review_heading().map(|h| (m.shown_position().clone(), h));
        self.front.picked = m.picked();
        self.front.draw_board(
            screen,
            Picture {
                game: self.online.game(),
                clock,
                pieces: Pieces::default(),
                colors: false,
                boards: &[],
            },
        );
    }

    fn line(&mut self, line: String) -> bool {
        let now = self.now();
        let outs = self.online.handle(online::Event::Line(line), now);
        self.apply(outs)
    }

    fn premove_kept(&self) -> bool {
        self.online.premove_kept()
    }

    fn voice_input(&mut self) -> Option<&mut crate::app::services::voice::VoiceInput> {
        self.voice_input.as_mut()
    }

    fn heard_position(&self) -> Option<shakmaty::Chess> {
        Some(self.online.game_match().game().position().clone())
    }

    fn shown_board(&self) -> Option<shakmaty::Board> {
        let shown = self.online.game_match().shown_position();
        Some(shakmaty::Position::board(shown).clone())
    }

    fn command(&mut self, command: Command) -> bool {
        let now = self.now();
        let outs = self.online.handle(online::Event::Command(command), now);
        self.apply(outs)
    }

    fn incoming(&mut self, _tag: usize, event: Incoming) -> bool {
        match event {
            Incoming::Lichess(news) => self.news(news),
            Incoming::Port(pe) => {
                let Some(b) = self.board.as_mut() else {
                    return true;
                };
                let events = b.handle(pe);
                self.board_events(events)
            }
            _ => true,
        }
    }

    fn tick(&mut self) -> bool {
        let now = self.now();
        let mut keep = true;
        if let Some(b) = self.board.as_mut() {
            let events = b.tick();
            keep &= self.board_events(events);
        }
        let outs = self.online.handle(online::Event::Tick, now);
        keep && self.apply(outs)
    }

    fn clock_runs(&self) -> bool {
        self.online.clock_runs()
    }

    /// Not while the player waits for the server's answer to a move or the opponent's
    /// move: the prompt follows the last line.
    fn prompt_now(&self) -> bool {
        !self.online.awaits_reply()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn time_controls_read() {
        assert_eq!(super::time_control("15+10"), Some((900, 10)));
        assert_eq!(super::time_control("0.5+0"), Some((30, 0)));
        // One rule with hector play and the clock: minutes, and PGN's seconds where the
        // text cannot be minutes.
        assert_eq!(super::time_control("15"), Some((900, 0)));
        assert_eq!(super::time_control("300+3"), Some((300, 3)));
        assert_eq!(super::time_control("180+0"), Some((10_800, 0)));
        assert_eq!(super::time_control("x+1"), None);
        assert_eq!(super::time_control("40/5400+30:1800+30"), None);
        assert_eq!(super::time_control("300d5"), None);
    }
}
