//! Command-line interface, split as the modes need it: `args` (what clap reads), `help` (the
//! long help texts), `modes` (the options resolved into each mode's set-up), and here the one
//! entry point that runs a mode and decides the exit status.

mod args;
mod help;
mod modes;
mod package_files;
mod usage;

pub use args::*;
use modes::*;
pub use usage::{ValueProblem, in_range};

use std::process::ExitCode;

use clap::Parser;

/// Parses the command line and runs the chosen mode. The one place where a mode that cannot
/// start is reported and its exit status chosen.
pub fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(fatal) => fatal.report(),
    }
}

fn run() -> Result<ExitCode, Fatal> {
    let cli = match Cli::try_parse_from(std::env::args_os()) {
        Ok(cli) => cli,
        // Help and the version are what was asked for: clap prints them as they are.
        Err(e)
            if matches!(
                e.kind(),
                clap::error::ErrorKind::DisplayHelp
                    | clap::error::ErrorKind::DisplayVersion
                    | clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) =>
        {
            // A closed pipe while printing help is no error of the player's.
            let _ = e.print();
            return Ok(ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2)));
        }
        Err(e) => {
            let argv: Vec<String> = std::env::args_os()
                .map(|a| a.to_string_lossy().into_owned())
                .collect();
            return Err(command_line(&e, &argv));
        }
    };
    Ok(match cli.command {
        Command::Play(args) => play(args)?,
        Command::Online(args) => {
            let (speech, chosen, lang, _) =
                mode_speech(args.lang.as_deref(), args.speech.map(Into::into))?;
            crate::app::online::main(args, speech, chosen, lang)
        }
        Command::Resume {
            game,
            screen_reader,
            speech,
            envelope,
            no_takeback,
        } => resume(
            game,
            screen_reader,
            speech.map(Into::into),
            envelope,
            no_takeback,
        )?,
        Command::Assist(args) => assist(args)?,
        Command::Arbiter {
            games,
            screen_reader,
            new,
            lang,
            speech,
        } => {
            let (settings, speech_chosen, lang, _) =
                mode_speech(lang.as_deref(), speech.map(Into::into))?;
            crate::app::arbiter::run(
                crate::app::arbiter::ArbiterOptions {
                    files: games,
                    speech: settings,
                    speech_chosen,
                    screen_reader,
                    new,
                },
                lang,
            )
        }
        Command::Say { text, speech, wav } => {
            let settings = speech.apply(settings_or_defaults(speech.lang.as_deref()).speech);
            let lang = lang_or_exit(&settings.language)?;
            crate::app::say::run(&text, &settings, lang, wav.as_deref())
        }
        Command::Voices { lang } => crate::app::say::voices(lang.as_deref()),
        Command::Clock {
            tc,
            white,
            screen_reader,
            tournament,
            every,
            warn,
            no_countdown,
            speech,
        } => {
            let settings = speech.apply(settings_or_defaults(speech.lang.as_deref()).speech);
            let lang = lang_or_exit(&settings.language)?;
            let control = match crate::core::clock::TimeControl::typed(&tc) {
                Ok((c, _)) => c,
                Err(e) => {
                    let why = crate::core::notation::refusals::control_error_words(&e, lang);
                    return Err(refuse_option(&format!("--tc {tc}"), &why, &settings, lang));
                }
            };
            let mut announce = if tournament {
                crate::core::clock::AnnounceSettings::tournament()
            } else {
                crate::core::clock::AnnounceSettings::casual()
            };
            if let Some(m) = every {
                announce.every = Some(std::time::Duration::from_secs(m * 60));
            }
            if let Some(marks) = warn {
                announce.thresholds = marks.0;
            }
            if no_countdown {
                announce.countdown = false;
            }
            crate::app::clock::run(
                crate::app::clock::ClockOptions {
                    control,
                    white,
                    screen_reader,
                    announce,
                    speech_chosen: settings.backend != crate::core::settings::BackendChoice::Auto,
                    speech: settings,
                },
                lang,
            )
        }
        Command::Check { file, json, run } => {
            crate::app::check::run(&file, json, run.jobs(), run.quiet)
        }
        Command::Games { lang } => {
            let lang = lang_or_exit(&chosen_language(lang))?;
            crate::app::games::list(lang)
        }
        Command::Analyse(args) => {
            let lang = lang_or_exit(&args.lang)?;
            let speaker = args
                .speak
                .then(|| printing_speaker(lang, args.backend.map(Into::into)));
            crate::app::analyse::run(&args, lang, speaker)
        }
        Command::Export {
            game,
            pgn: _,
            text,
            lang,
            output,
        } => {
            let lang = lang_or_exit(&chosen_language(lang))?;
            let format = if text {
                crate::app::games::ExportFormat::Text
            } else {
                crate::app::games::ExportFormat::Pgn
            };
            crate::app::games::export(&game, format, lang, output.as_deref())
        }
        Command::Transcript {
            file,
            lang,
            form,
            format,
            run,
        } => {
            let lang = lang_or_exit(&lang)?;
            crate::app::transcript::run(&file, lang, form.into(), format, run.jobs(), run.quiet)
        }
        Command::Parse {
            text,
            fen,
            chess960,
            lang,
        } => {
            let lang = lang_or_exit(&lang)?;
            crate::app::parse::run(&text.join(" "), fen.as_deref(), chess960, lang)
        }
        Command::Board(BoardCommand::List) => crate::app::board::list(),
        Command::Board(BoardCommand::Monitor {
            port,
            protocol,
            baud,
            fen,
            chess960,
            lang,
            no_raw,
            speak,
            backend,
        }) => {
            let lang = lang_or_exit(&lang)?;
            let speaker = speak.then(|| printing_speaker(lang, backend.map(Into::into)));
            let opts = crate::app::board::MonitorOptions {
                port,
                protocol: protocol.into(),
                baud,
                fen,
                chess960,
                raw: !no_raw,
                speaker,
            };
            crate::app::board::monitor(&opts, lang)
        }
        Command::SimulateBoard {
            protocol,
            script,
            identify_pieces,
            link,
            fen,
            chess960,
        } => crate::app::simulate::run(crate::app::simulate::Options {
            protocol: protocol.into(),
            identify_pieces,
            script,
            link,
            fen,
            chess960,
        }),
        Command::PackageFiles { dir } => package_files::run(&dir),
    })
}

/// The language asked for with `--lang`, else the configuration file's.
fn chosen_language(lang: Option<String>) -> String {
    lang.unwrap_or_else(|| settings_or_defaults(None).speech.language)
}
