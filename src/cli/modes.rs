//! Each mode's set-up from its options: the player's options resolved once (`player`), then
//! what only the mode takes (the opponent, the start position, a journal to continue); what
//! cannot be used is refused here, in words.

use crate::core::matchplay::PlayExtras;
use std::path::PathBuf;
use std::process::ExitCode;

use super::args::*;
use super::fatal::{Fatal, refuse};
use super::player::{Asked, Player, fallback, read_config};
use crate::core::mode::Mode;
use crate::core::notation::refusals;
use crate::core::notation::{Language, WordSet, language};
use crate::core::settings::{BackendChoice, Settings};

/// The command line itself is wrong (clap could not read it): said in the language it asks
/// for (`--lang`, else the fallback), and aloud for a mode that speaks.
pub(super) fn command_line(e: &clap::Error, argv: &[String]) -> Fatal {
    use super::usage::{mode_of, option_value, usage_words};
    use clap::ValueEnum;
    let config = crate::io::config::load_settings().0;
    let lang = option_value(argv, "lang")
        .and_then(|l| language(l).ok())
        .unwrap_or_else(|| fallback(&config));
    let word = mode_of(argv);
    let message = usage_words(e, word, lang).join("\n");
    if !word.and_then(Mode::from_name).is_some_and(Mode::speaks) {
        return Fatal::usage(message);
    }
    let mut speech = config.speech;
    speech.language = Some(lang.code.clone());
    if let Some(b) = option_value(argv, "speech").and_then(|b| BackendArg::from_str(b, true).ok()) {
        speech.backend = b.into();
    }
    refuse(&message, &speech, lang)
}

impl Command {
    /// Runs the mode: one resolve function per mode turns its options into its set-up,
    /// refuses what cannot be used, and runs it.
    pub(super) fn run(self) -> Result<ExitCode, Fatal> {
        Ok(match self {
            Command::Play(args) => play(args)?,
            Command::Online(args) => online(args)?,
            Command::Watch(args) => watch(args)?,
            Command::Study(args) => study(args)?,
            Command::Resume(args) => resume(args)?,
            Command::Assist(args) => assist(args)?,
            Command::Arbiter(args) => arbiter(args)?,
            Command::Say(args) => say(&args)?,
            Command::Voices(args) => crate::app::modes::say::voices(args.lang.as_deref()),
            Command::Clock(args) => clock(args)?,
            Command::Check(a) => {
                crate::app::modes::check::run(&a.file, a.json, a.run.jobs(), a.run.quiet)
            }
            Command::Games(args) => crate::app::modes::games::list(args.lang.resolve()?),
            Command::Analyse(args) => analyse(args)?,
            Command::Train(args) => train(args)?,
            Command::Puzzle(args) => puzzle(args)?,
            Command::Export(args) => export(args)?,
            Command::Transcript(args) => transcript(&args)?,
            Command::Parse(args) => parse(&args)?,
            Command::Listen(args) => listen(args)?,
            Command::Board(BoardCommand::List) => crate::app::modes::board::list(),
            Command::Board(BoardCommand::Monitor(args)) => monitor(args)?,
            Command::SimulateBoard(a) => {
                crate::app::modes::simulate::run(crate::app::modes::simulate::Options {
                    protocol: a.protocol.into(),
                    identify_pieces: a.identify_pieces,
                    script: a.script,
                    link: a.link,
                    fen: a.fen,
                    chess960: a.chess960,
                    // No --lang: the configuration file's, read silently as before.
                    lang: fallback(&crate::io::config::load_settings().0),
                })
            }
            Command::PackageFiles(a) => super::package_files::run(&a.dir),
            Command::VoiceModelCheck(a) => {
                crate::app::services::voice::check_model(&a.dir, &a.lang, &a.words)
            }
        })
    }
}

/// A number for a random Chess960 start position, from the system clock.
pub(super) fn random_chess960() -> u16 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos() ^ (d.as_secs() as u32));
    (nanos % u32::from(crate::core::variant::CHESS960_POSITIONS)) as u16
}

pub(super) fn play(args: PlayArgs) -> Result<ExitCode, Fatal> {
    use crate::app::modes::play::{Opponent, PlayOptions};
    use crate::io::engine::MAX_LEVEL;

    let player = args.player.resolve(Mode::Play)?;
    let control = control_arg(args.tc.as_deref(), &player)?;
    let opponent = opponent_of(&args);
    let fresh = args.new
        || args.fen.is_some()
        || args.chess960.is_some()
        || args.from.is_some()
        || args.from_puzzle.is_some();
    // A position to practise: the computer at full strength, the player on the side that
    // solves a puzzle.
    let practice = args.fen.is_some() || args.from_puzzle.is_some();
    let level = args.level.unwrap_or(if practice { MAX_LEVEL } else { 1 });
    let mut color: shakmaty::Color = args.color.into();
    if !fresh
        && let Some(path) = crate::app::modes::play::resume::offer(player.lang, &player.speech)
    {
        let asked = ResumeAsk {
            envelope: None,
            screen_reader: args.screen_reader,
            speech: args.player.speech.speech.map(Into::into),
            words: args.player.words.words.map(Into::into),
            no_takeback: args.no_takeback,
            voice: VoiceArg::default(),
            sound: args.player.sound.clone(),
        };
        return resume_journal(&path, &asked, player.lang, player.config);
    }
    let (game, entries) = starting_game(&args, &mut color, &player)?;
    let board = match (args.board, args.protocol) {
        (Some(port), Some(p)) => Some((port, p.into())),
        _ => None,
    };
    let goal = if practice && !matches!(opponent, Opponent::Keyboard | Opponent::Board(..)) {
        crate::app::modes::exercise::goal_of(game.position(), color, player.lang)
    } else {
        None
    };
    let options = PlayOptions {
        color,
        opponent,
        level,
        control,
        announce: args.announce,
        form: args
            .form
            .map_or(crate::core::notation::Form::Short, Into::into),
        speech_chosen: player.speech_chosen,
        screen_reader: args.screen_reader,
        start: crate::app::modes::play::Start::New {
            game: Box::new(game),
            entries,
        },
        board,
        pieces: args.pieces.into(),
        colors: args.colors,
        openings: args.openings || player.config.play.openings,
        wording: player.wording(&args.wording),
        extras: PlayExtras {
            takeback: !args.no_takeback,
            agreements: true,
            say_captured: args.say_captured || player.config.play.say_captured,
        },
        hints: !args.no_hints,
        walk: None,
        voice: player.voice(&args.voice),
        goal,
        explorer: explorer_server(args.explorer, &player.config),
        speech: player.speech,
    };
    Ok(crate::app::modes::play::run(options, player.lang))
}

/// `--opponent` and its board's `--opponent-protocol`.
fn opponent_of(args: &PlayArgs) -> crate::app::modes::play::Opponent {
    use crate::app::modes::play::Opponent;
    match args.opponent.clone() {
        OpponentArg::Auto => Opponent::Auto,
        OpponentArg::Engine(path) => Opponent::Engine(path),
        OpponentArg::Keyboard => Opponent::Keyboard,
        OpponentArg::Board(port) => Opponent::Board(port, args.opponent_protocol.into()),
    }
}

/// `--tc`, read; a time control that cannot be read is refused.
fn control_arg(
    tc: Option<&str>,
    player: &Player,
) -> Result<Option<crate::core::clock::TimeControl>, Fatal> {
    match tc.map(|tc| crate::core::clock::TimeControl::typed(tc).map(|(c, _)| c)) {
        None => Ok(None),
        Some(Ok(c)) => Ok(Some(c)),
        Some(Err(e)) => {
            Err(player.refuse_option("--tc", &refusals::control_error_words(&e, player.lang)))
        }
    }
}

/// The game `hector play` starts with: a file's (with its entries), a puzzle's (whose
/// solver takes `color`), a FEN's, a Chess960 number's or the standard start.
fn starting_game(
    args: &PlayArgs,
    color: &mut shakmaty::Color,
    player: &Player,
) -> Result<(crate::core::game::Game, Vec<crate::core::record::Entry>), Fatal> {
    use crate::core::game::Game;
    let lang = player.lang;
    use crate::core::variant::{Variant, chess960_position, position_from_fen};

    if let Some(file) = &args.from {
        return game_from_file(file, player);
    }
    let variant = if args.chess960.is_some() {
        Variant::Chess960
    } else {
        Variant::Standard
    };
    let game = if let Some(id) = &args.from_puzzle {
        match crate::app::modes::exercise::puzzle_position(id.trim()) {
            Some((pos, solver)) => {
                *color = solver;
                Game::from_position(pos, Variant::Standard)
            }
            None => {
                let words = crate::core::notation::fill(
                    &lang.puzzle.no_such,
                    &[("id", &crate::core::notation::printable(id))],
                );
                return Err(player.refuse_option("--from-puzzle", &words));
            }
        }
    } else if let Some(fen) = &args.fen {
        match position_from_fen(fen, variant) {
            Ok(p) => Game::from_position(p, variant),
            Err(e) => {
                return Err(player.refuse_option("--fen", &refusals::fen_problem_words(&e, lang)));
            }
        }
    } else if let Some(n) = args.chess960 {
        let number = match n {
            Chess960Arg::Random => random_chess960(),
            Chess960Arg::Number(n) => n,
        };
        match chess960_position(number) {
            Some(p) => Game::from_position(p, Variant::Chess960),
            None => {
                return Err(player
                    .refuse_option("--chess960", &refusals::chess960_range_words(number, lang)));
            }
        }
    } else {
        Game::new(Variant::Standard)
    };
    Ok((game, Vec::new()))
}

/// `--from`: the file's first game and its entries.
fn game_from_file(
    file: &std::path::Path,
    player: &Player,
) -> Result<(crate::core::game::Game, Vec<crate::core::record::Entry>), Fatal> {
    // Compressed or not, streamed: a game too long to keep is refused, never read empty.
    match crate::io::pgn_stream::import_from(file, 1) {
        Ok(imported) => {
            let entries = imported.entries();
            Ok((imported.game, entries))
        }
        Err(crate::io::pgn_stream::GameFromFile::Read(e)) => Err(player.refuse_option(
            "--from",
            &crate::core::notation::printable(&crate::io::error_chain(&e)),
        )),
        Err(crate::io::pgn_stream::GameFromFile::Import(e)) => {
            let option = format!("--from {}", file.display());
            Err(player.refuse_option(
                &option,
                &crate::core::record::import_error_words(&e, player.lang),
            ))
        }
    }
}

/// How a game is to be continued: the options of `hector resume` (or of the `hector play`
/// that offered it), as values.
pub(super) struct ResumeAsk {
    envelope: Option<PathBuf>,
    screen_reader: bool,
    speech: Option<BackendChoice>,
    words: Option<WordSet>,
    no_takeback: bool,
    voice: VoiceArg,
    sound: super::args::SoundArgs,
}

pub(super) fn resume(args: ResumeArgs) -> Result<ExitCode, Fatal> {
    let config = read_config(None);
    // Until the journal is read, the game's language is not known.
    let lang = fallback(&config);
    let asked = ResumeAsk {
        envelope: args.envelope,
        screen_reader: args.screen_reader,
        speech: args.speech.speech.map(Into::into),
        words: args.words.words.map(Into::into),
        no_takeback: args.no_takeback,
        voice: args.voice,
        sound: args.sound,
    };
    let path = match args.game {
        // `resolve` has said why there is no such game.
        Some(g) => match crate::app::services::games::resolve_for("hector resume", &g, lang) {
            Ok(p) => p,
            Err(code) => return Ok(code),
        },
        None => match crate::app::modes::play::resume::latest() {
            Ok(Some(p)) => p,
            Ok(None) => {
                return Err(Fatal::failed(
                    "hector resume",
                    lang.record.no_unfinished.clone(),
                ));
            }
            Err(e) => {
                return Err(Fatal::failed("hector resume", format!("{e:#}")));
            }
        },
    };
    // A journal that replays only in part is continued from its last good position in a new
    // journal, when the player says so.
    let mut speech = config.speech.clone();
    if let Some(b) = asked.speech {
        speech.backend = b;
    }
    // In the game's own language, as the game that follows.
    let path = match crate::app::modes::play::resume::continue_damaged(&path, &speech, None) {
        Ok(crate::app::modes::play::resume::Continue::Journal(p)) => p,
        Ok(crate::app::modes::play::resume::Continue::Declined) => return Ok(ExitCode::SUCCESS),
        // Nobody could be asked: the reason has been told.
        Ok(crate::app::modes::play::resume::Continue::NotAsked) => return Ok(ExitCode::from(1)),
        Err(e) => {
            return Err(Fatal::failed("hector resume", format!("{e:#}")));
        }
    };
    resume_journal(&path, &asked, lang, config)
}

/// Continues a journal in the mode that wrote it, in the language it recorded; `lang` says
/// what goes wrong before that is known.
fn resume_journal(
    path: &std::path::Path,
    asked: &ResumeAsk,
    lang: &'static Language,
    config: Settings,
) -> Result<ExitCode, Fatal> {
    match crate::io::journal::mode_of(path) {
        Mode::Assist => resume_assist(path, asked, config),
        Mode::Arbiter => {
            let path = crate::core::notation::printable(&path.display().to_string()).into_owned();
            Err(Fatal::failed(
                "hector resume",
                crate::core::notation::fill(&lang.usage.arbiter_game, &[("path", &path)]),
            ))
        }
        _ => resume_play(path, asked, lang, config),
    }
}

/// The player of a continued game: the journal's language and words (`--words` over them),
/// the options' speech.
fn resumed_player(
    config: Settings,
    mode: Mode,
    asked: &ResumeAsk,
    (language, words): (&str, Option<WordSet>),
) -> Result<Player, Fatal> {
    let asked = Asked {
        lang: Some(language),
        words: asked.words.or(words),
        speech: asked.speech,
        sound: Some(&asked.sound),
    };
    // The locale only words a refusal of a journal's language that hector does not have.
    let locale = super::player::system_locale();
    Player::resolve(config, locale.as_deref(), Some(mode), asked)
}

/// Continues the game hector play recorded at `path`.
fn resume_play(
    path: &std::path::Path,
    asked: &ResumeAsk,
    lang: &'static Language,
    config: Settings,
) -> Result<ExitCode, Fatal> {
    let resumed = match crate::app::modes::play::resume::from_journal(path) {
        Ok(r) => r,
        // A link or a file of several names where the journal is: said in the player's
        // words (the journal's language is not known yet).
        Err(e) => {
            let owned = e.chain().find_map(|c| {
                c.downcast_ref::<crate::io::owned_file::OwnedError>()
                    .filter(|o| matches!(o, crate::io::owned_file::OwnedError::NotOwn { .. }))
            });
            let words = match owned {
                Some(o) => crate::app::services::games::owned_problem(o, lang),
                None => format!("{e:#}"),
            };
            return Err(Fatal::failed("hector resume", words));
        }
    };
    let player = resumed_player(
        config,
        Mode::Play,
        asked,
        (&resumed.language, resumed.words),
    )?;
    let options = crate::app::modes::play::PlayOptions {
        color: resumed.color,
        opponent: resumed.opponent,
        level: resumed.level,
        control: resumed.control,
        announce: resumed.announce,
        form: resumed.form,
        speech_chosen: player.speech_chosen,
        screen_reader: asked.screen_reader,
        start: resumed.start,
        board: resumed.board,
        pieces: crate::app::services::ui::view::Pieces::Letters,
        colors: false,
        openings: player.config.play.openings,
        wording: player.cued_wording(player.config.words),
        extras: PlayExtras {
            takeback: resumed.takeback && !asked.no_takeback,
            agreements: true,
            say_captured: player.config.play.say_captured,
        },
        hints: resumed.hints,
        walk: None,
        voice: player.voice(&asked.voice),
        goal: None,
        explorer: explorer_server(Default::default(), &player.config),
        speech: player.speech,
    };
    Ok(crate::app::modes::play::run(options, player.lang))
}

fn resume_assist(
    path: &std::path::Path,
    asked: &ResumeAsk,
    config: Settings,
) -> Result<ExitCode, Fatal> {
    let (table, start, (language, recorded)) =
        match crate::app::modes::assist::resume_spec(path, asked.envelope.as_deref()) {
            Ok(r) => r,
            Err(e) => {
                return Err(Fatal::failed("hector resume", format!("{e:#}")));
            }
        };
    let player = resumed_player(config, Mode::Assist, asked, (&language, recorded))?;
    let options = crate::app::modes::assist::AssistOptions {
        table,
        speech_chosen: player.speech_chosen,
        screen_reader: asked.screen_reader,
        pieces: crate::app::services::ui::view::Pieces::Letters,
        colors: false,
        start,
        voice: player.voice(&asked.voice),
        speech: player.speech,
    };
    Ok(crate::app::modes::assist::run(options, player.lang))
}

/// The table of `hector assist`: its boards, its clock and its players (the blind player
/// is "the player" unless named).
fn assist_table(
    args: &AssistArgs,
    duty: crate::core::matchplay::two_boards::Duty,
    control: Option<crate::core::clock::TimeControl>,
    lang: &'static Language,
) -> crate::app::services::table::TableSpec {
    use crate::app::services::table::{BoardSpec, TableSpec};

    let blind = shakmaty::Color::from(args.blind);
    let board = |port: &Option<PathBuf>, p: ProtocolArg| {
        port.as_ref().map(|port| BoardSpec {
            port: port.clone(),
            protocol: p.into(),
        })
    };
    let name = |given: &Option<String>, c: shakmaty::Color| {
        given.clone().unwrap_or_else(|| {
            if c == blind {
                lang.play.player.clone()
            } else {
                lang.play.second_player.clone()
            }
        })
    };
    TableSpec {
        blind,
        peg: board(&args.peg_board, args.peg_protocol),
        sighted: board(&args.sighted_board, args.sighted_protocol),
        control,
        form: args
            .form
            .map_or(crate::core::notation::Form::Short, Into::into),
        duty,
        white: name(&args.white, shakmaty::Color::White),
        black: name(&args.black, shakmaty::Color::Black),
        event: args.event.clone().unwrap_or_default(),
        site: String::new(),
        round: String::new(),
        envelope: args.envelope.clone(),
        mode: Mode::Assist,
        settings: Vec::new(),
    }
}

pub(super) fn assist(args: AssistArgs) -> Result<ExitCode, Fatal> {
    use crate::core::matchplay::two_boards::Duty;

    let player = args.player.resolve(Mode::Assist)?;
    let lang = player.lang;
    let duty = match args.duty {
        DutyArg::Blind => Duty::Blind,
        DutyArg::Sighted => Duty::Sighted,
    };
    if args.peg_board.is_none() && args.sighted_board.is_none() {
        return Err(player.refuse(&lang.usage.assist_needs_board));
    }
    let control = control_arg(args.tc.as_deref(), &player)?;
    if control.is_some() && duty == Duty::Sighted {
        return Err(player.refuse(&lang.usage.assist_no_clock));
    }
    if let Some(fen) = &args.fen
        && let Err(e) =
            crate::core::variant::position_from_fen(fen, crate::core::variant::Variant::Standard)
    {
        return Err(player.refuse_option("--fen", &refusals::fen_problem_words(&e, lang)));
    }
    let start = match crate::app::modes::assist::new_start(args.fen.as_deref()) {
        Ok(s) => s,
        Err(e) => return Err(player.refuse(&format!("{e:#}"))),
    };
    let table = assist_table(&args, duty, control, lang);
    let options = crate::app::modes::assist::AssistOptions {
        table,
        speech_chosen: player.speech_chosen,
        screen_reader: args.screen_reader,
        pieces: args.pieces.into(),
        colors: args.colors,
        start,
        voice: player.voice(&args.voice),
        speech: player.speech,
    };
    Ok(crate::app::modes::assist::run(options, lang))
}

pub(super) fn online(args: OnlineArgs) -> Result<ExitCode, Fatal> {
    use crate::app::modes::online::{GameRequest, OnlineAction, OnlineOptions};
    let player = args.player.resolve(Mode::Online)?;
    let action = match args.command {
        OnlineCommand::Login => OnlineAction::Login,
        OnlineCommand::Logout => OnlineAction::Logout,
        OnlineCommand::Games => OnlineAction::Games,
        OnlineCommand::Play(p) => OnlineAction::Play(Box::new(GameRequest {
            seek: p.seek,
            challenge: p.challenge,
            ai: p.ai,
            game: p.game,
            time: p.time,
            color: p.color.into(),
            rated: p.rated,
            variant: p.variant.into(),
            board: p.board.zip(p.protocol.map(Into::into)),
            screen_reader: p.screen_reader,
            announce: p.announce,
            voice: player.voice(&p.voice),
            days: p.days,
            rating_range: p.rating_range,
        })),
    };
    let options = OnlineOptions {
        server: args.server,
        action,
    };
    Ok(crate::app::modes::online::main(
        options,
        player.speech,
        player.speech_chosen,
        player.lang,
    ))
}

pub(super) fn watch(args: WatchArgs) -> Result<ExitCode, Fatal> {
    use crate::io::lichess::watch::Followed;
    let player = args.player.resolve(Mode::Watch)?;
    // A board of a round is chosen only when a round is followed (clap's `requires` is not
    // held against the group of what to follow).
    if args.broadcast.is_none() {
        let given = [
            ("--board", args.board.is_some()),
            ("--all-boards", args.all_boards),
        ];
        if let Some((option, _)) = given.iter().find(|(_, given)| *given) {
            let words = crate::core::notation::fill(
                &player.lang.usage.needs,
                &[("arg", option), ("other", "--broadcast")],
            );
            return Err(player.refuse(&words));
        }
    }
    // Rounds, games and TV are public: the token stays at home (no request needs it).
    if let Err(e) = crate::io::lichess::check_server(&args.server) {
        use crate::io::lichess::ServerError;
        let o = &player.lang.online;
        let (template, server) = match &e {
            ServerError::Insecure(s) => (&o.insecure_server, s),
            ServerError::NotAnAddress(s) => (&o.bad_server, s),
        };
        let words = crate::core::notation::fill(
            template,
            &[("server", &crate::core::notation::printable(server))],
        );
        return Err(player.refuse(&words).failed_in("hector watch"));
    }
    let followed = match (args.broadcast, args.game, args.tv) {
        (Some(round), _, _) => Followed::Round(round),
        (_, Some(game), _) => Followed::Game(game),
        (_, _, tv) => Followed::Tv(tv.filter(|c| !c.trim().is_empty())),
    };
    let choice = args
        .board
        .as_deref()
        .and_then(crate::core::watch::Choice::parse)
        .unwrap_or(crate::core::watch::Choice::First);
    Ok(crate::app::modes::watch::run(
        crate::app::modes::watch::WatchRun {
            server: args.server,
            followed,
            choice,
            all_boards: args.all_boards,
            form: args.form.into(),
            wording: player.cued_wording(player.config.words),
            screen_reader: args.screen_reader,
            speech_chosen: player.speech_chosen,
            speech: player.speech,
        },
        player.lang,
    ))
}

pub(super) fn study(args: StudyArgs) -> Result<ExitCode, Fatal> {
    let player = args.player.resolve(Mode::Study)?;
    // Opened once here so that a missing or unreadable file is said and printed before the
    // screen opens; the study's thread opens it again. A pipe is opened by the thread only:
    // what this read would take is gone.
    let regular = std::fs::metadata(&args.file).is_ok_and(|m| m.is_file());
    let checked = if regular || args.file.as_os_str() == "-" {
        crate::io::files::open_input(&args.file).map(drop)
    } else {
        std::fs::metadata(&args.file)
            .map(drop)
            .map_err(|source| crate::io::files::InputError::Io {
                name: args.file.display().to_string(),
                source,
            })
    };
    if let Err(e) = checked {
        let w = &player.lang.study;
        let words = match &e {
            crate::io::files::InputError::Io { source, .. }
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                let file = args.file.display().to_string();
                crate::core::notation::fill(
                    &w.missing,
                    &[("file", &crate::core::notation::printable(&file))],
                )
            }
            e => crate::core::notation::fill(
                &w.file_failed,
                &[(
                    "reason",
                    &crate::core::notation::printable(&crate::io::error_chain(e)),
                )],
            ),
        };
        return Err(player.refuse(&words).failed_in("hector study"));
    }
    Ok(crate::app::modes::study::run(
        crate::app::modes::study::StudyRun {
            file: args.file,
            game: usize::try_from(args.game).unwrap_or(usize::MAX),
            form: args.form.into(),
            wording: player.wording(&args.wording),
            screen_reader: args.screen_reader,
            speech_chosen: player.speech_chosen,
            explorer: explorer_server(args.explorer, &player.config),
            speech: player.speech,
        },
        player.lang,
    ))
}

/// The opening explorer's address: `--explorer`, else the configuration's, else lichess's.
fn explorer_server(arg: super::args::ExplorerArg, config: &Settings) -> String {
    arg.explorer
        .or_else(|| config.explorer.server.clone())
        .unwrap_or_else(|| crate::io::lichess::explorer::DEFAULT_SERVER.to_string())
}

pub(super) fn arbiter(args: ArbiterArgs) -> Result<ExitCode, Fatal> {
    let player = args.player.resolve(Mode::Arbiter)?;
    Ok(crate::app::modes::arbiter::run(
        crate::app::modes::arbiter::ArbiterOptions {
            files: args.games,
            speech_chosen: player.speech_chosen,
            speech: player.speech,
            screen_reader: args.screen_reader,
            new: args.new,
            broadcast: args.broadcast,
            server: args.server,
        },
        player.lang,
    ))
}

/// The player of `hector say` and `hector clock`: `--lang` and `--speech` resolved as
/// everywhere, then the voice, rate and volume of their speech options. A refused language
/// is printed only.
fn speech_player(
    speech: &SpeechArgs,
    sound: Option<&super::args::SoundArgs>,
    mode: Option<Mode>,
) -> Result<Player, Fatal> {
    let asked = Asked {
        lang: speech.lang.lang.as_deref(),
        words: None,
        speech: speech.speech.speech.map(Into::into),
        sound,
    };
    let mut player = Player::of(mode, asked).map_err(Fatal::unspoken)?;
    player.speech = speech.apply(player.speech);
    Ok(player)
}

pub(super) fn say(args: &SayArgs) -> Result<ExitCode, Fatal> {
    let player = speech_player(&args.speech, None, None)?;
    Ok(crate::app::modes::say::run(
        &args.text,
        &player.speech,
        player.lang,
        args.wav.as_deref(),
    ))
}

pub(super) fn clock(args: ClockArgs) -> Result<ExitCode, Fatal> {
    let player = speech_player(&args.speech, Some(&args.sound), Some(Mode::Clock))?;
    let lang = player.lang;
    let tc = &args.tc;
    let control = match crate::core::clock::TimeControl::typed(tc) {
        Ok((c, _)) => c,
        Err(e) => {
            let why = refusals::control_error_words(&e, lang);
            return Err(player.refuse_option(&format!("--tc {tc}"), &why));
        }
    };
    let mut announce = if args.tournament {
        crate::core::clock::AnnounceSettings::tournament()
    } else {
        crate::core::clock::AnnounceSettings::casual()
    };
    if let Some(m) = args.every {
        announce.every = Some(std::time::Duration::from_secs(m * 60));
    }
    if let Some(marks) = args.warn {
        announce.thresholds = marks.0;
    }
    if args.no_countdown {
        announce.countdown = false;
    }
    Ok(crate::app::modes::clock::run(
        crate::app::modes::clock::ClockOptions {
            control,
            white: args.white.into(),
            screen_reader: args.screen_reader,
            announce,
            speech_chosen: player.speech_chosen,
            speech: player.speech,
        },
        lang,
    ))
}

/// The options of `hector analyse` the engine's work takes.
fn analyse_options(
    args: &AnalyseArgs,
    form: crate::core::notation::Form,
) -> crate::app::modes::analyse::AnalyseOptions {
    crate::app::modes::analyse::AnalyseOptions {
        game: args.game.clone().unwrap_or_default(),
        pgn_game: args.pgn_game,
        errors: args.errors,
        pgn: args.pgn,
        output: args.output.clone(),
        depth: args.depth,
        movetime: args.movetime,
        engine: args.engine.clone(),
        engines: args.engines.and_then(|n| usize::try_from(n).ok()),
        form,
    }
}

pub(super) fn analyse(args: AnalyseArgs) -> Result<ExitCode, Fatal> {
    if args.walk {
        return analyse_walk(args);
    }
    // Analyse prints: an unknown language is refused in print only.
    let player = args
        .player
        .resolve(Mode::Analyse)
        .map_err(Fatal::unspoken)?;
    let mut options = analyse_options(&args, args.form.into());
    if args.all {
        options.game = String::new();
        options.pgn_game = None;
        options.output = None;
        return Ok(crate::app::modes::analyse::run_all(&options, player.lang));
    }
    let speaker = args.speak.then(|| player.printing_speaker());
    Ok(crate::app::modes::analyse::run(
        &options,
        player.lang,
        speaker,
    ))
}

/// `hector analyse --walk`: the game judged, then walked through in play's runtime.
fn analyse_walk(args: AnalyseArgs) -> Result<ExitCode, Fatal> {
    use crate::app::modes::play::{Opponent, PlayOptions, Start};
    let player = args.player.resolve(Mode::Analyse)?;
    let form = args.form.into();
    let options = analyse_options(&args, form);
    let walked = match crate::app::modes::analyse::walk_of(&options, player.lang) {
        Ok(w) => w,
        Err(code) => return Ok(code),
    };
    let options = PlayOptions {
        color: walked.player,
        opponent: Opponent::Keyboard,
        level: crate::io::engine::MAX_LEVEL,
        control: None,
        announce: false,
        form,
        speech_chosen: player.speech_chosen,
        screen_reader: args.screen_reader,
        start: Start::New {
            game: Box::new(walked.game),
            entries: Vec::new(),
        },
        board: None,
        pieces: crate::app::services::ui::view::Pieces::Letters,
        colors: false,
        openings: false,
        wording: player.cued_wording(player.config.words),
        extras: PlayExtras {
            takeback: false,
            agreements: false,
            say_captured: false,
        },
        hints: true,
        walk: Some(walked.walk),
        // The walk is asked by typing; voice stays with the games played.
        voice: None,
        goal: None,
        explorer: explorer_server(args.explorer, &player.config),
        speech: player.speech,
    };
    Ok(crate::app::modes::play::run(options, player.lang))
}

/// How the player of `hector train` or `hector puzzle` is asked and answers.
fn practice_front(
    args: super::args::PracticeArgs,
    mode: Mode,
) -> Result<
    (
        crate::app::modes::exercise::PracticeFront,
        &'static Language,
    ),
    Fatal,
> {
    let player = args.player.resolve(mode)?;
    let board = match (args.board, args.protocol) {
        (Some(port), Some(p)) => Some((port, p.into())),
        _ => None,
    };
    let front = crate::app::modes::exercise::PracticeFront {
        form: args.form.into(),
        wording: player.wording(&args.wording),
        speech_chosen: player.speech_chosen,
        speech: player.speech,
        screen_reader: args.screen_reader,
        board,
        pieces: args.pieces.into(),
        colors: args.colors,
    };
    Ok((front, player.lang))
}

/// `hector train`.
pub(super) fn train(args: super::args::TrainArgs) -> Result<ExitCode, Fatal> {
    let (front, lang) = practice_front(args.front, Mode::Train)?;
    let options = crate::app::modes::exercise::TrainOptions {
        front,
        depth: args.depth,
        movetime: args.movetime,
        engine: args.engine,
        engines: args.engines.and_then(|n| usize::try_from(n).ok()),
    };
    Ok(crate::app::modes::exercise::run(options, lang))
}

/// `hector puzzle`.
pub(super) fn puzzle(args: super::args::PuzzleArgs) -> Result<ExitCode, Fatal> {
    let (front, lang) = practice_front(args.front, Mode::Puzzle)?;
    use crate::app::modes::exercise::OnlineAsk;
    let online = match (args.daily, args.online) {
        (true, _) => Some(OnlineAsk::Daily),
        (false, true) => Some(OnlineAsk::Next),
        (false, false) => None,
    };
    let options = crate::app::modes::exercise::PuzzleOptions {
        theme: args.theme,
        rating: args.rating,
        online: online.map(|ask| (ask, args.server)),
        front,
    };
    Ok(crate::app::modes::exercise::run_puzzles(options, lang))
}

pub(super) fn export(args: ExportArgs) -> Result<ExitCode, Fatal> {
    use super::args::ExportFormatArg;
    use crate::app::modes::games::ExportFormat;
    let lang = args.lang.resolve()?;
    let format = match args.format {
        Some(ExportFormatArg::Brf) => ExportFormat::Brf(args.paper.into()),
        Some(ExportFormatArg::Text) => ExportFormat::Text,
        _ if args.text => ExportFormat::Text,
        _ => ExportFormat::Pgn,
    };
    Ok(crate::app::modes::games::export(
        &args.game,
        format,
        lang,
        args.output.as_deref(),
    ))
}

pub(super) fn transcript(args: &TranscriptArgs) -> Result<ExitCode, Fatal> {
    let player = args.words.resolve(Some(Mode::Transcript))?;
    Ok(crate::app::modes::transcript::run(
        &args.file,
        player.lang,
        args.form.into(),
        args.format.with_paper(args.paper),
        args.run.jobs(),
        args.run.quiet,
    ))
}

pub(super) fn listen(args: ListenArgs) -> Result<ExitCode, Fatal> {
    let lang = args.words.resolve(None)?.lang;
    let options = crate::app::modes::listen::ListenOptions {
        file: args.file,
        fen: args.fen,
        chess960: args.chess960,
        model: args.voice.voice_model,
        always_ask: args.voice.voice_always_ask,
        answer: args.answer,
        details: args.details,
    };
    Ok(crate::app::modes::listen::run(&options, lang))
}

pub(super) fn parse(args: &ParseArgs) -> Result<ExitCode, Fatal> {
    let lang = args.words.resolve(None)?.lang;
    Ok(crate::app::modes::parse::run(
        &args.text.join(" "),
        args.fen.as_deref(),
        args.chess960,
        lang,
    ))
}

/// `hector board monitor`: with `--speak`, every sentence said too, in the speech asked for.
pub(super) fn monitor(args: MonitorArgs) -> Result<ExitCode, Fatal> {
    let mut player = args.words.resolve(None)?;
    if let Some(b) = args.speech.speech {
        player.speech.backend = b.into();
    }
    let options = crate::app::modes::board::MonitorOptions {
        port: args.port,
        protocol: args.protocol.into(),
        baud: args.baud,
        fen: args.fen,
        chess960: args.chess960,
        raw: !args.no_raw,
        speaker: args.speak.then(|| player.printing_speaker()),
    };
    Ok(crate::app::modes::board::monitor(&options, player.lang))
}
