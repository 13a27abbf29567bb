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
    // The braille display is the shared runtime's: chosen once, for whichever mode runs.
    let mut braille = crate::io::config::load_settings().0.braille;
    if let Some(choice) = cli.command.braille() {
        braille.display = choice.into();
    }
    crate::app::services::ui::braille::choose(braille);
    // One resolve function per mode (modes.rs): it turns the options into the mode's
    // set-up, refuses what cannot be used, and runs the mode.
    Ok(match cli.command {
        Command::Play(args) => play(args)?,
        Command::Online(args) => online(args)?,
        Command::Watch(args) => watch(args)?,
        Command::Resume {
            game,
            screen_reader,
            speech,
            envelope,
            no_takeback,
            voice,
            words,
            ..
        } => resume(
            game,
            screen_reader,
            speech.map(Into::into),
            envelope,
            no_takeback,
            &voice,
            words,
        )?,
        Command::Assist(args) => assist(args)?,
        Command::Arbiter {
            games,
            screen_reader,
            new,
            broadcast,
            server,
            lang,
            speech,
            words,
            ..
        } => arbiter(
            games,
            screen_reader,
            new,
            (broadcast, server),
            (lang, words),
            speech,
        )?,
        Command::Say { text, speech, wav } => say(&text, &speech, wav.as_deref())?,
        Command::Voices { lang } => crate::app::modes::say::voices(lang.as_deref()),
        Command::Clock(args) => clock(args)?,
        Command::Check { file, json, run } => {
            crate::app::modes::check::run(&file, json, run.jobs(), run.quiet)
        }
        Command::Games { lang } => games(lang)?,
        Command::Analyse(args) => analyse(args)?,
        Command::Train(args) => train(args)?,
        Command::Puzzle(args) => puzzle(args)?,
        Command::Export {
            game,
            pgn: _,
            text,
            format,
            paper,
            lang,
            output,
        } => export(&game, text, format, paper, lang, output.as_deref())?,
        Command::Transcript {
            file,
            lang,
            words,
            form,
            format,
            paper,
            run,
        } => transcript(&file, (lang, words), form, format.with_paper(paper), &run)?,
        Command::Parse {
            text,
            fen,
            chess960,
            lang,
            words,
        } => parse(&text, fen.as_deref(), chess960, (lang, words))?,
        Command::Listen {
            file,
            fen,
            chess960,
            answer,
            details,
            voice,
            lang,
            words,
        } => listen(
            crate::app::modes::listen::ListenOptions {
                file,
                fen,
                chess960,
                model: voice.voice_model,
                always_ask: voice.voice_always_ask,
                answer,
                details,
            },
            (lang, words),
        )?,
        Command::Board(BoardCommand::List) => crate::app::modes::board::list(),
        Command::Board(BoardCommand::Monitor {
            port,
            protocol,
            baud,
            fen,
            chess960,
            lang,
            words,
            no_raw,
            speak,
            backend,
        }) => monitor(
            crate::app::modes::board::MonitorOptions {
                port,
                protocol: protocol.into(),
                baud,
                fen,
                chess960,
                raw: !no_raw,
                speaker: None,
            },
            (lang, words),
            speak.then_some(backend),
        )?,
        Command::SimulateBoard {
            protocol,
            script,
            identify_pieces,
            link,
            fen,
            chess960,
        } => crate::app::modes::simulate::run(crate::app::modes::simulate::Options {
            protocol: protocol.into(),
            identify_pieces,
            script,
            link,
            fen,
            chess960,
        }),
        Command::PackageFiles { dir } => package_files::run(&dir),
        Command::VoiceModelCheck { dir, lang, words } => {
            crate::app::services::voice::check_model(&dir, &lang, &words)
        }
    })
}
