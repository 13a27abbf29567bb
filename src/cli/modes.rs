//! The options resolved into each mode's set-up: the language, the speech, the opponent, the
//! start position, a journal to continue; what cannot be used is refused here, in words.

use crate::core::matchplay::session::PlayExtras;
use std::path::PathBuf;
use std::process::ExitCode;

use super::args::*;
use crate::core::notation::language::{Language, language};
use crate::core::notation::refusals;
use crate::core::settings::WordsMode;

/// A mode that cannot start: what to say and the exit status. Only `cli::main` reports it.
pub struct Fatal {
    /// "hector", or "hector MODE".
    who: &'static str,
    message: String,
    status: u8,
    /// Said aloud too, in this speech and language (a start-up problem of a spoken mode).
    spoken: Option<(crate::core::settings::SpeechSettings, &'static Language)>,
}

impl Fatal {
    /// A usage error: status 2.
    pub(super) fn usage(message: impl Into<String>) -> Fatal {
        Fatal {
            who: "hector",
            message: message.into(),
            status: 2,
            spoken: None,
        }
    }

    /// The mode could not do what was asked: status 1.
    pub(super) fn failed(who: &'static str, message: impl Into<String>) -> Fatal {
        Fatal {
            who,
            message: message.into(),
            status: 1,
            spoken: None,
        }
    }

    /// Prints it once on standard error, says it when it belongs to a spoken mode, and gives
    /// the exit status.
    pub(super) fn report(self) -> ExitCode {
        errln!("{}: {}", self.who, self.message);
        if let Some((settings, lang)) = &self.spoken {
            // Already printed on standard error: a print backend adds nothing.
            let (speaker, _notices) = crate::app::services::speaker::quiet_speaker(settings, lang);
            // Lines printed one under the other are one utterance, sentence after sentence.
            speaker.urgent(self.message.replace('\n', ". "));
            speaker.wait_idle(std::time::Duration::from_secs(8));
        }
        ExitCode::from(self.status)
    }
}

/// The command line itself is wrong (clap could not read it): said in the language it asks
/// for (`--lang`, else the configuration file's), and aloud for a mode that speaks.
pub(super) fn command_line(e: &clap::Error, argv: &[String]) -> Fatal {
    use super::usage::{SPOKEN_MODES, mode_of, option_value, usage_words};
    use clap::ValueEnum;
    let (config, _problem) = crate::io::config::load_settings();
    let mut speech = config.speech;
    if let Some(l) = option_value(argv, "lang") {
        speech.language = l.to_string();
    }
    let lang = language(&speech.language)
        .unwrap_or_else(|_| crate::core::notation::language::default_language());
    let mode = mode_of(argv);
    let message = usage_words(e, mode, lang).join("\n");
    if !mode.is_some_and(|m| SPOKEN_MODES.contains(&m)) {
        return Fatal::usage(message);
    }
    if let Some(b) = option_value(argv, "speech").and_then(|b| BackendArg::from_str(b, true).ok()) {
        speech.backend = b.into();
    }
    refuse(&message, &speech, lang)
}

pub(super) fn lang_or_exit(code: &str) -> Result<&'static Language, Fatal> {
    language(code).map_err(|e| Fatal::usage(language_refusal(&e).0))
}

/// Why a language cannot be used, in the language hector would speak otherwise (the
/// configuration file's, else German), and that language.
fn language_refusal(
    e: &crate::core::notation::language::LanguageError,
) -> (String, &'static Language) {
    use crate::core::notation::language::{LanguageError, codes, default_language, fill};
    let (config, _problem) = crate::io::config::load_settings();
    let lang = language(&config.speech.language).unwrap_or_else(|_| default_language());
    let text = match e {
        LanguageError::Unknown(code, _) => fill(
            &lang.usage.unknown_language,
            &[
                ("code", &crate::core::notation::printable(code)),
                ("codes", &codes().join(", ")),
            ],
        ),
        // A table that does not load is the build's fault: its own words name the file.
        LanguageError::Broken(..) => e.to_string(),
    };
    (text, lang)
}

/// A start-up option whose value cannot be used ("--tc: …"): a usage error, printed and said.
pub(super) fn refuse_option(
    option: &str,
    why: &str,
    settings: &crate::core::settings::SpeechSettings,
    lang: &'static Language,
) -> Fatal {
    refuse(&refusals::option_words(option, why, lang), settings, lang)
}

/// The speech of a mode that prints every sentence itself (analyse, board monitor): the
/// configuration's, with `--speech` over it, and nothing printed twice.
pub(super) fn printing_speaker(
    lang: &'static Language,
    backend: Option<crate::core::settings::BackendChoice>,
) -> crate::io::speech::Speaker {
    let mut s = settings_or_defaults(Some(&lang.code)).speech;
    if let Some(b) = backend {
        s.backend = b;
    }
    crate::app::services::speaker::quiet_speaker(&s, lang).0
}

/// A start-up problem of a spoken mode: a usage error, printed and said.
pub(super) fn refuse(
    message: &str,
    settings: &crate::core::settings::SpeechSettings,
    lang: &'static Language,
) -> Fatal {
    Fatal {
        spoken: Some((settings.clone(), lang)),
        ..Fatal::usage(message)
    }
}

/// An interactive mode's speech: the configuration file's settings with `--lang` and
/// `--speech` over them; whether a backend was chosen (by option or in the file); the
/// language's words; and the whole configuration, read once. Exit status 2 for an unknown
/// language.
pub(super) fn mode_speech(
    lang: Option<&str>,
    speech: Option<crate::core::settings::BackendChoice>,
) -> Result<
    (
        crate::core::settings::SpeechSettings,
        bool,
        &'static Language,
        crate::core::settings::Settings,
    ),
    Fatal,
> {
    let config = settings_or_defaults(lang);
    let mut settings = config.speech.clone();
    if let Some(l) = lang {
        settings.language = l.to_string();
    }
    let chosen =
        speech.is_some() || config.speech.backend != crate::core::settings::BackendChoice::Auto;
    if let Some(b) = speech {
        settings.backend = b;
    }
    // A mode that speaks says the refusal too, in the language it would have spoken.
    let words = language(&settings.language).map_err(|e| {
        let (text, lang) = language_refusal(&e);
        let mut speech = settings.clone();
        speech.language = lang.code.clone();
        refuse(&text, &speech, lang)
    })?;
    Ok((settings, chosen, words, config))
}

pub(super) fn settings_or_defaults(lang_hint: Option<&str>) -> crate::core::settings::Settings {
    let (settings, problem) = crate::io::config::load_settings();
    if let Some((path, problem)) = problem {
        use crate::core::notation::language::fill;
        use crate::core::notation::printable;
        use crate::core::settings::SettingsError;
        use crate::io::config::{ConfigProblem, MAX_CONFIG_BYTES};
        let lang = lang_hint
            .and_then(|l| language(l).ok())
            .unwrap_or_else(crate::core::notation::language::default_language);
        let m = &lang.messages;
        let path = printable(&path.display().to_string()).into_owned();
        let text = match problem {
            ConfigProblem::Missing => fill(&m.config_missing, &[("path", &path)]),
            ConfigProblem::NotAFile => fill(&m.config_not_file, &[("path", &path)]),
            ConfigProblem::TooLarge => fill(
                &m.config_too_large,
                &[
                    ("path", &path),
                    ("kib", &(MAX_CONFIG_BYTES / 1024).to_string()),
                ],
            ),
            ConfigProblem::NotText => fill(&m.config_not_text, &[("path", &path)]),
            ConfigProblem::Invalid(SettingsError::Rate(v)) => fill(
                &m.config_rate,
                &[("path", &path), ("value", &v.to_string())],
            ),
            ConfigProblem::Invalid(SettingsError::Volume(v)) => fill(
                &m.config_volume,
                &[("path", &path), ("value", &v.to_string())],
            ),
            ConfigProblem::Invalid(SettingsError::BrailleHold(v)) => fill(
                &m.config_braille_hold,
                &[
                    ("path", &path),
                    ("value", &v.to_string()),
                    ("max", &crate::core::settings::MAX_BRAILLE_HOLD.to_string()),
                ],
            ),
            ConfigProblem::Invalid(SettingsError::Language(code, known)) => fill(
                &m.config_language,
                &[
                    ("path", &path),
                    ("value", &printable(&code)),
                    ("known", &known),
                ],
            ),
            // The system's or the TOML reader's own words, quoted after the colon.
            ConfigProblem::Unreadable(reason)
            | ConfigProblem::Invalid(SettingsError::Syntax(reason)) => fill(
                &m.config_ignored,
                &[("path", &path), ("reason", &printable(&reason))],
            ),
        };
        errln!("hector: {text}");
    }
    settings
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

    let (speech, speech_chosen, lang, config) =
        mode_speech(args.lang.lang.as_deref(), args.speech.map(Into::into))?;
    let lang = with_words(lang, WordsMode::Play, &args.words, &config);
    let control = control_arg(args.tc.as_deref(), &speech, lang)?;
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
    if !fresh && let Some(path) = crate::app::modes::play::resume::offer(lang, &speech) {
        return resume_journal(
            &path,
            None,
            args.screen_reader,
            args.speech.map(Into::into),
            speech,
            &config,
            (args.no_takeback, &args.words),
        );
    }
    let (game, entries) = starting_game(&args, &mut color, &speech, lang)?;
    let board = match (args.board, args.protocol) {
        (Some(port), Some(p)) => Some((port, p.into())),
        _ => None,
    };
    let goal = if practice && !matches!(opponent, Opponent::Keyboard | Opponent::Board(..)) {
        crate::app::modes::train::goal_of(game.position(), color, lang)
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
            .map_or(crate::core::notation::speak::Form::Short, Into::into),
        speech,
        speech_chosen,
        screen_reader: args.screen_reader,
        start: crate::app::modes::play::Start::New {
            game: Box::new(game),
            entries,
        },
        board,
        pieces: args.pieces.into(),
        colors: args.colors,
        openings: args.openings || config.play.openings,
        wording: args.wording.apply(config.words),
        extras: PlayExtras {
            takeback: !args.no_takeback,
            agreements: true,
            say_captured: args.say_captured || config.play.say_captured,
        },
        hints: !args.no_hints,
        walk: None,
        voice: mode_voice(&config.voice, &args.voice),
        goal,
    };
    Ok(crate::app::modes::play::run(options, lang))
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
    speech: &crate::core::settings::SpeechSettings,
    lang: &'static Language,
) -> Result<Option<crate::core::clock::TimeControl>, Fatal> {
    match tc.map(|tc| crate::core::clock::TimeControl::typed(tc).map(|(c, _)| c)) {
        None => Ok(None),
        Some(Ok(c)) => Ok(Some(c)),
        Some(Err(e)) => Err(refuse_option(
            "--tc",
            &refusals::control_error_words(&e, lang),
            speech,
            lang,
        )),
    }
}

/// The game `hector play` starts with: a file's (with its entries), a puzzle's (whose
/// solver takes `color`), a FEN's, a Chess960 number's or the standard start.
fn starting_game(
    args: &PlayArgs,
    color: &mut shakmaty::Color,
    speech: &crate::core::settings::SpeechSettings,
    lang: &'static Language,
) -> Result<(crate::core::game::Game, Vec<crate::core::record::Entry>), Fatal> {
    use crate::core::game::Game;
    use crate::core::variant::{Variant, chess960_position, position_from_fen};

    if let Some(file) = &args.from {
        return game_from_file(file, speech, lang);
    }
    let variant = if args.chess960.is_some() {
        Variant::Chess960
    } else {
        Variant::Standard
    };
    let game = if let Some(id) = &args.from_puzzle {
        match crate::app::modes::train::puzzle_position(id.trim()) {
            Some((pos, solver)) => {
                *color = solver;
                Game::from_position(pos, Variant::Standard)
            }
            None => {
                let words = crate::core::notation::language::fill(
                    &lang.puzzle.no_such,
                    &[("id", &crate::core::notation::printable(id))],
                );
                return Err(refuse_option("--from-puzzle", &words, speech, lang));
            }
        }
    } else if let Some(fen) = &args.fen {
        match position_from_fen(fen, variant) {
            Ok(p) => Game::from_position(p, variant),
            Err(e) => {
                return Err(refuse_option(
                    "--fen",
                    &refusals::fen_problem_words(&e, lang),
                    speech,
                    lang,
                ));
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
                return Err(refuse_option(
                    "--chess960",
                    &refusals::chess960_range_words(number, lang),
                    speech,
                    lang,
                ));
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
    speech: &crate::core::settings::SpeechSettings,
    lang: &'static Language,
) -> Result<(crate::core::game::Game, Vec<crate::core::record::Entry>), Fatal> {
    // Compressed or not, streamed: a game too long to keep is refused, never read empty.
    match crate::io::pgn_stream::import_from(file, 1) {
        Ok(imported) => {
            let entries = imported.entries();
            Ok((imported.game, entries))
        }
        Err(crate::io::pgn_stream::GameFromFile::Read(e)) => Err(refuse_option(
            "--from",
            &crate::core::notation::printable(&crate::io::error_chain(&e)),
            speech,
            lang,
        )),
        Err(crate::io::pgn_stream::GameFromFile::Import(e)) => {
            let option = format!("--from {}", file.display());
            Err(refuse_option(
                &option,
                &crate::core::record::import_error_words(&e, lang),
                speech,
                lang,
            ))
        }
    }
}

/// Continues the game recorded at `path`.
pub(super) fn resume_path(
    path: &std::path::Path,
    screen_reader: bool,
    backend: Option<crate::core::settings::BackendChoice>,
    mut speech: crate::core::settings::SpeechSettings,
    config: &crate::core::settings::Settings,
    (no_takeback, words): (bool, &WordsArg),
) -> Result<ExitCode, Fatal> {
    let resumed = match crate::app::modes::play::resume::from_journal(path) {
        Ok(r) => r,
        // A link or a file of several names where the journal is: said in the player's
        // words (the journal's language is not known yet: the configuration's).
        Err(e) => {
            let owned = e.chain().find_map(|c| {
                c.downcast_ref::<crate::io::owned_file::OwnedError>()
                    .filter(|o| matches!(o, crate::io::owned_file::OwnedError::NotOwn { .. }))
            });
            let words = match owned {
                Some(o) => {
                    let lang = language(&speech.language)
                        .unwrap_or_else(|_| crate::core::notation::language::default_language());
                    crate::app::services::games::owned_problem(o, lang)
                }
                None => format!("{e:#}"),
            };
            return Err(Fatal::failed("hector resume", words));
        }
    };
    speech.language = resumed.language.clone();
    let speech_chosen =
        backend.is_some() || speech.backend != crate::core::settings::BackendChoice::Auto;
    if let Some(b) = backend {
        speech.backend = b;
    }
    let lang = resumed_words(
        lang_or_exit(&speech.language)?,
        WordsMode::Play,
        words,
        resumed.words,
        config,
    );
    let options = crate::app::modes::play::PlayOptions {
        color: resumed.color,
        opponent: resumed.opponent,
        level: resumed.level,
        control: resumed.control,
        announce: resumed.announce,
        form: resumed.form,
        speech,
        speech_chosen,
        screen_reader,
        start: resumed.start,
        board: resumed.board,
        pieces: crate::app::services::ui::view::Pieces::Letters,
        colors: false,
        openings: config.play.openings,
        wording: config.words,
        extras: PlayExtras {
            takeback: resumed.takeback && !no_takeback,
            agreements: true,
            say_captured: config.play.say_captured,
        },
        hints: resumed.hints,
        walk: None,
        voice: voice_options(&config.voice),
        goal: None,
    };
    Ok(crate::app::modes::play::run(options, lang))
}

pub(super) fn resume(
    game: Option<String>,
    screen_reader: bool,
    backend: Option<crate::core::settings::BackendChoice>,
    envelope: Option<PathBuf>,
    no_takeback: bool,
    voice: &VoiceArg,
    words: WordsArg,
) -> Result<ExitCode, Fatal> {
    let mut config = settings_or_defaults(None);
    with_voice_arg(&mut config.voice, voice);
    let speech = config.speech.clone();
    let lang = crate::core::notation::language::language(&speech.language)
        .unwrap_or_else(|_| crate::core::notation::language::default_language());
    let path = match game {
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
    let mut asked = speech.clone();
    if let Some(b) = backend {
        asked.backend = b;
    }
    // In the game's own language, as the game that follows.
    let path = match crate::app::modes::play::resume::continue_damaged(&path, &asked, None) {
        Ok(crate::app::modes::play::resume::Continue::Journal(p)) => p,
        Ok(crate::app::modes::play::resume::Continue::Declined) => return Ok(ExitCode::SUCCESS),
        // Nobody could be asked: the reason has been told.
        Ok(crate::app::modes::play::resume::Continue::NotAsked) => return Ok(ExitCode::from(1)),
        Err(e) => {
            return Err(Fatal::failed("hector resume", format!("{e:#}")));
        }
    };
    resume_journal(
        &path,
        envelope.as_deref(),
        screen_reader,
        backend,
        speech,
        &config,
        (no_takeback, &words),
    )
}

/// Continues a journal in the mode that wrote it.
pub(super) fn resume_journal(
    path: &std::path::Path,
    envelope: Option<&std::path::Path>,
    screen_reader: bool,
    backend: Option<crate::core::settings::BackendChoice>,
    speech: crate::core::settings::SpeechSettings,
    config: &crate::core::settings::Settings,
    (no_takeback, words): (bool, &WordsArg),
) -> Result<ExitCode, Fatal> {
    match crate::io::journal::mode_of(path).as_deref() {
        Some("assist") => resume_assist(
            path,
            envelope,
            screen_reader,
            backend,
            speech,
            (voice_options(&config.voice), words, config),
        ),
        Some("arbiter") => {
            let lang = language(&speech.language)
                .unwrap_or_else(|_| crate::core::notation::language::default_language());
            let path = crate::core::notation::printable(&path.display().to_string()).into_owned();
            Err(Fatal::failed(
                "hector resume",
                crate::core::notation::language::fill(&lang.usage.arbiter_game, &[("path", &path)]),
            ))
        }
        _ => resume_path(
            path,
            screen_reader,
            backend,
            speech,
            config,
            (no_takeback, words),
        ),
    }
}

pub(super) fn resume_assist(
    path: &std::path::Path,
    envelope: Option<&std::path::Path>,
    screen_reader: bool,
    backend: Option<crate::core::settings::BackendChoice>,
    mut speech: crate::core::settings::SpeechSettings,
    (voice, words, config): (
        Option<crate::app::services::voice::VoiceOptions>,
        &WordsArg,
        &crate::core::settings::Settings,
    ),
) -> Result<ExitCode, Fatal> {
    let (table, start, (language, recorded)) =
        match crate::app::modes::assist::resume_spec(path, envelope) {
            Ok(r) => r,
            Err(e) => {
                return Err(Fatal::failed("hector resume", format!("{e:#}")));
            }
        };
    speech.language = language;
    let speech_chosen =
        backend.is_some() || speech.backend != crate::core::settings::BackendChoice::Auto;
    if let Some(b) = backend {
        speech.backend = b;
    }
    let lang = resumed_words(
        lang_or_exit(&speech.language)?,
        WordsMode::Assist,
        words,
        recorded,
        config,
    );
    let options = crate::app::modes::assist::AssistOptions {
        table,
        speech,
        speech_chosen,
        screen_reader,
        pieces: crate::app::services::ui::view::Pieces::Letters,
        colors: false,
        start,
        voice,
    };
    Ok(crate::app::modes::assist::run(options, lang))
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
            .map_or(crate::core::notation::speak::Form::Short, Into::into),
        duty,
        white: name(&args.white, shakmaty::Color::White),
        black: name(&args.black, shakmaty::Color::Black),
        event: args.event.clone().unwrap_or_default(),
        site: String::new(),
        round: String::new(),
        envelope: args.envelope.clone(),
        settings: vec![("mode".into(), "assist".into())],
    }
}

pub(super) fn assist(args: AssistArgs) -> Result<ExitCode, Fatal> {
    use crate::core::matchplay::two_boards::Duty;

    let (speech, speech_chosen, lang, config) =
        mode_speech(args.lang.lang.as_deref(), args.speech.map(Into::into))?;
    let lang = with_words(lang, WordsMode::Assist, &args.words, &config);
    let duty = match args.duty {
        DutyArg::Blind => Duty::Blind,
        DutyArg::Sighted => Duty::Sighted,
    };
    if args.peg_board.is_none() && args.sighted_board.is_none() {
        return Err(refuse(&lang.usage.assist_needs_board, &speech, lang));
    }
    let control = control_arg(args.tc.as_deref(), &speech, lang)?;
    if control.is_some() && duty == Duty::Sighted {
        return Err(refuse(&lang.usage.assist_no_clock, &speech, lang));
    }
    if let Some(fen) = &args.fen
        && let Err(e) =
            crate::core::variant::position_from_fen(fen, crate::core::variant::Variant::Standard)
    {
        return Err(refuse_option(
            "--fen",
            &refusals::fen_problem_words(&e, lang),
            &speech,
            lang,
        ));
    }
    let start = match crate::app::modes::assist::new_start(args.fen.as_deref()) {
        Ok(s) => s,
        Err(e) => return Err(refuse(&format!("{e:#}"), &speech, lang)),
    };
    let table = assist_table(&args, duty, control, lang);
    let options = crate::app::modes::assist::AssistOptions {
        table,
        speech,
        speech_chosen,
        screen_reader: args.screen_reader,
        pieces: args.pieces.into(),
        colors: args.colors,
        start,
        voice: mode_voice(&config.voice, &args.voice),
    };
    Ok(crate::app::modes::assist::run(options, lang))
}

pub(super) fn online(args: OnlineArgs) -> Result<ExitCode, Fatal> {
    use crate::app::modes::online::{GameRequest, OnlineAction, OnlineOptions};
    let (speech, chosen, lang, config) =
        mode_speech(args.lang.lang.as_deref(), args.speech.map(Into::into))?;
    let lang = with_words(lang, WordsMode::Online, &args.words, &config);
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
            voice: mode_voice(&config.voice, &p.voice),
            days: p.days,
            rating_range: p.rating_range,
        })),
    };
    let options = OnlineOptions {
        server: args.server,
        action,
    };
    Ok(crate::app::modes::online::main(
        options, speech, chosen, lang,
    ))
}

pub(super) fn watch(args: WatchArgs) -> Result<ExitCode, Fatal> {
    use crate::io::lichess::watch::Followed;
    let (speech, speech_chosen, lang, config) =
        mode_speech(args.lang.lang.as_deref(), args.speech.map(Into::into))?;
    // A board of a round is chosen only when a round is followed (clap's `requires` is not
    // held against the group of what to follow).
    if args.broadcast.is_none() {
        let given = [
            ("--board", args.board.is_some()),
            ("--all-boards", args.all_boards),
        ];
        if let Some((option, _)) = given.iter().find(|(_, given)| *given) {
            let words = crate::core::notation::language::fill(
                &lang.usage.needs,
                &[("arg", option), ("other", "--broadcast")],
            );
            return Err(refuse(&words, &speech, lang));
        }
    }
    let lang = with_words(lang, WordsMode::Watch, &args.words, &config);
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
            screen_reader: args.screen_reader,
            speech,
            speech_chosen,
        },
        lang,
    ))
}

pub(super) fn arbiter(
    files: Vec<PathBuf>,
    screen_reader: bool,
    new: bool,
    (broadcast, server): (Option<String>, String),
    (lang, words): (LangArg, WordsArg),
    speech: Option<BackendArg>,
) -> Result<ExitCode, Fatal> {
    let (settings, speech_chosen, lang, config) =
        mode_speech(lang.lang.as_deref(), speech.map(Into::into))?;
    let lang = with_words(lang, WordsMode::Arbiter, &words, &config);
    Ok(crate::app::modes::arbiter::run(
        crate::app::modes::arbiter::ArbiterOptions {
            files,
            speech: settings,
            speech_chosen,
            screen_reader,
            new,
            broadcast,
            server,
        },
        lang,
    ))
}

pub(super) fn say(
    text: &[String],
    speech: &SpeechArgs,
    wav: Option<&std::path::Path>,
) -> Result<ExitCode, Fatal> {
    let settings = speech.apply(settings_or_defaults(speech.lang.lang.as_deref()).speech);
    let lang = lang_or_exit(&settings.language)?;
    Ok(crate::app::modes::say::run(text, &settings, lang, wav))
}

pub(super) fn clock(args: ClockArgs) -> Result<ExitCode, Fatal> {
    let settings = args
        .speech
        .apply(settings_or_defaults(args.speech.lang.lang.as_deref()).speech);
    let lang = lang_or_exit(&settings.language)?;
    let tc = &args.tc;
    let control = match crate::core::clock::TimeControl::typed(tc) {
        Ok((c, _)) => c,
        Err(e) => {
            let why = refusals::control_error_words(&e, lang);
            return Err(refuse_option(&format!("--tc {tc}"), &why, &settings, lang));
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
            speech_chosen: settings.backend != crate::core::settings::BackendChoice::Auto,
            speech: settings,
        },
        lang,
    ))
}

/// `lang` with the words `mode` announces with: `--words`, else the configuration file's
/// `[announcement]`, else the mode's default.
fn with_words(
    lang: &'static Language,
    mode: crate::core::settings::WordsMode,
    words: &WordsArg,
    config: &crate::core::settings::Settings,
) -> &'static Language {
    lang.with_words(config.announcement.words(mode, words.words.map(Into::into)))
}

/// `lang` with the words a continued game announces with: `--words`, else the words its
/// journal recorded, else the configuration file's `[announcement]`, else the mode's default.
fn resumed_words(
    lang: &'static Language,
    mode: crate::core::settings::WordsMode,
    words: &WordsArg,
    recorded: Option<crate::core::notation::language::WordSet>,
    config: &crate::core::settings::Settings,
) -> &'static Language {
    let chosen = words.words.map(Into::into).or(recorded);
    lang.with_words(config.announcement.words(mode, chosen))
}

/// The language asked for with `--lang`, else that of `config` (read once by the caller).
fn language_in(
    lang: LangArg,
    config: &crate::core::settings::Settings,
) -> Result<&'static Language, Fatal> {
    lang_or_exit(&lang.lang.unwrap_or_else(|| config.speech.language.clone()))
}

/// The language asked for with `--lang`, else the configuration file's.
fn chosen_language(lang: LangArg) -> Result<&'static Language, Fatal> {
    let code = lang
        .lang
        .unwrap_or_else(|| settings_or_defaults(None).speech.language);
    lang_or_exit(&code)
}

pub(super) fn games(lang: LangArg) -> Result<ExitCode, Fatal> {
    Ok(crate::app::modes::games::list(chosen_language(lang)?))
}

pub(super) fn analyse(args: AnalyseArgs) -> Result<ExitCode, Fatal> {
    if args.walk {
        return analyse_walk(args);
    }
    let config = settings_or_defaults(args.lang.lang.as_deref());
    let lang = with_words(
        language_in(args.lang, &config)?,
        WordsMode::Analyse,
        &args.words,
        &config,
    );
    if args.all {
        let options = crate::app::modes::analyse::AnalyseOptions {
            game: String::new(),
            pgn_game: None,
            errors: false,
            pgn: false,
            output: None,
            depth: args.depth,
            movetime: args.movetime,
            engine: args.engine,
            engines: args.engines.and_then(|n| usize::try_from(n).ok()),
            form: args.form.into(),
        };
        return Ok(crate::app::modes::analyse::run_all(&options, lang));
    }
    let speaker = args
        .speak
        .then(|| printing_speaker(lang, args.backend.map(Into::into)));
    let options = crate::app::modes::analyse::AnalyseOptions {
        game: args.game.unwrap_or_default(),
        pgn_game: args.pgn_game,
        errors: args.errors,
        pgn: args.pgn,
        output: args.output,
        depth: args.depth,
        movetime: args.movetime,
        engine: args.engine,
        engines: args.engines.and_then(|n| usize::try_from(n).ok()),
        form: args.form.into(),
    };
    Ok(crate::app::modes::analyse::run(&options, lang, speaker))
}

/// `hector analyse --walk`: the game judged, then walked through in play's runtime.
fn analyse_walk(args: AnalyseArgs) -> Result<ExitCode, Fatal> {
    use crate::app::modes::play::{Opponent, PlayOptions, Start};
    let (speech, speech_chosen, lang, config) =
        mode_speech(args.lang.lang.as_deref(), args.backend.map(Into::into))?;
    let lang = with_words(lang, WordsMode::Analyse, &args.words, &config);
    let form = args.form.into();
    let options = crate::app::modes::analyse::AnalyseOptions {
        game: args.game.unwrap_or_default(),
        pgn_game: args.pgn_game,
        errors: false,
        pgn: false,
        output: None,
        depth: args.depth,
        movetime: args.movetime,
        engine: args.engine,
        engines: args.engines.and_then(|n| usize::try_from(n).ok()),
        form,
    };
    let walked = match crate::app::modes::analyse::walk_of(&options, lang) {
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
        speech,
        speech_chosen,
        screen_reader: args.screen_reader,
        start: Start::New {
            game: Box::new(walked.game),
            entries: Vec::new(),
        },
        board: None,
        pieces: crate::app::services::ui::view::Pieces::Letters,
        colors: false,
        openings: false,
        wording: config.words,
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
    };
    Ok(crate::app::modes::play::run(options, lang))
}

/// How the player of `hector train` or `hector puzzle` is asked and answers.
fn practice_front(
    args: super::args::PracticeArgs,
    mode: WordsMode,
) -> Result<(crate::app::modes::train::PracticeFront, &'static Language), Fatal> {
    let (speech, speech_chosen, lang, config) =
        mode_speech(args.lang.lang.as_deref(), args.speech.map(Into::into))?;
    let lang = with_words(lang, mode, &args.words, &config);
    let board = match (args.board, args.protocol) {
        (Some(port), Some(p)) => Some((port, p.into())),
        _ => None,
    };
    let front = crate::app::modes::train::PracticeFront {
        form: args.form.into(),
        wording: args.wording.apply(config.words),
        speech,
        speech_chosen,
        screen_reader: args.screen_reader,
        board,
        pieces: args.pieces.into(),
        colors: args.colors,
    };
    Ok((front, lang))
}

/// `hector train`.
pub(super) fn train(args: super::args::TrainArgs) -> Result<ExitCode, Fatal> {
    let (front, lang) = practice_front(args.front, WordsMode::Train)?;
    let options = crate::app::modes::train::TrainOptions {
        front,
        depth: args.depth,
        movetime: args.movetime,
        engine: args.engine,
        engines: args.engines.and_then(|n| usize::try_from(n).ok()),
    };
    Ok(crate::app::modes::train::run(options, lang))
}

/// `hector puzzle`.
pub(super) fn puzzle(args: super::args::PuzzleArgs) -> Result<ExitCode, Fatal> {
    let (front, lang) = practice_front(args.front, WordsMode::Puzzle)?;
    use crate::app::modes::train::OnlineAsk;
    let online = match (args.daily, args.online) {
        (true, _) => Some(OnlineAsk::Daily),
        (false, true) => Some(OnlineAsk::Next),
        (false, false) => None,
    };
    let options = crate::app::modes::train::PuzzleOptions {
        theme: args.theme,
        rating: args.rating,
        online: online.map(|ask| (ask, args.server)),
        front,
    };
    Ok(crate::app::modes::train::run_puzzles(options, lang))
}

pub(super) fn export(
    game: &str,
    text: bool,
    format: Option<super::args::ExportFormatArg>,
    paper: super::args::PaperArgs,
    lang: LangArg,
    output: Option<&std::path::Path>,
) -> Result<ExitCode, Fatal> {
    use super::args::ExportFormatArg;
    use crate::app::modes::games::ExportFormat;
    let lang = chosen_language(lang)?;
    let format = match format {
        Some(ExportFormatArg::Brf) => ExportFormat::Brf(paper.into()),
        Some(ExportFormatArg::Text) => ExportFormat::Text,
        _ if text => ExportFormat::Text,
        _ => ExportFormat::Pgn,
    };
    Ok(crate::app::modes::games::export(game, format, lang, output))
}

pub(super) fn transcript(
    file: &std::path::Path,
    (lang, words): (LangArg, WordsArg),
    form: FormArg,
    format: crate::app::modes::transcript::Format,
    run: &PgnRunArgs,
) -> Result<ExitCode, Fatal> {
    let config = settings_or_defaults(lang.lang.as_deref());
    let lang = with_words(
        language_in(lang, &config)?,
        WordsMode::Transcript,
        &words,
        &config,
    );
    Ok(crate::app::modes::transcript::run(
        file,
        lang,
        form.into(),
        format,
        run.jobs(),
        run.quiet,
    ))
}

/// `--voice` and its options over the configuration's `[voice]`.
fn with_voice_arg(settings: &mut crate::core::settings::VoiceSettings, arg: &VoiceArg) {
    settings.enabled |= arg.voice;
    if arg.model.voice_model.is_some() {
        settings.model.clone_from(&arg.model.voice_model);
    }
    settings.always_ask |= arg.model.voice_always_ask;
}

/// A mode's voice: the configuration's `[voice]` with `--voice` and its options over it.
fn mode_voice(
    config: &crate::core::settings::VoiceSettings,
    arg: &VoiceArg,
) -> Option<crate::app::services::voice::VoiceOptions> {
    let mut v = config.clone();
    with_voice_arg(&mut v, arg);
    voice_options(&v)
}

/// What a mode is asked to do with voice: nothing unless it is on.
fn voice_options(
    settings: &crate::core::settings::VoiceSettings,
) -> Option<crate::app::services::voice::VoiceOptions> {
    settings
        .enabled
        .then(|| crate::app::services::voice::VoiceOptions {
            model: settings.model.clone(),
            always_ask: settings.always_ask,
        })
}

/// A tool's language with `--words`, the language's own words when it is not given.
fn tool_language(lang: LangArg, words: &WordsArg) -> Result<&'static Language, Fatal> {
    let set = words.words.map_or(
        crate::core::notation::language::WordSet::Language,
        Into::into,
    );
    Ok(chosen_language(lang)?.with_words(set))
}

pub(super) fn listen(
    options: crate::app::modes::listen::ListenOptions,
    (lang, words): (LangArg, WordsArg),
) -> Result<ExitCode, Fatal> {
    let lang = tool_language(lang, &words)?;
    Ok(crate::app::modes::listen::run(&options, lang))
}

pub(super) fn parse(
    text: &[String],
    fen: Option<&str>,
    chess960: bool,
    (lang, words): (LangArg, WordsArg),
) -> Result<ExitCode, Fatal> {
    let lang = tool_language(lang, &words)?;
    Ok(crate::app::modes::parse::run(
        &text.join(" "),
        fen,
        chess960,
        lang,
    ))
}

/// `backend` is `Some` when the sentences are to be said too (`--speak`), with the backend
/// asked for, if any.
pub(super) fn monitor(
    mut options: crate::app::modes::board::MonitorOptions,
    (lang, words): (LangArg, WordsArg),
    backend: Option<Option<BackendArg>>,
) -> Result<ExitCode, Fatal> {
    let lang = tool_language(lang, &words)?;
    options.speaker = backend.map(|b| printing_speaker(lang, b.map(Into::into)));
    Ok(crate::app::modes::board::monitor(&options, lang))
}
