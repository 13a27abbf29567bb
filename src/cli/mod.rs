//! Command-line interface, split as the modes need it: `args` (what clap reads), `help` (the
//! long help texts), `player` (the spoken player's options, resolved once), `modes` (each
//! mode's set-up from its options), and here the one entry point that runs a mode and decides
//! the exit status.

mod args;
mod fatal;
mod help;
mod modes;
mod package_files;
mod player;
mod usage;

pub(crate) use args::*;
use fatal::Fatal;
use modes::*;

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
    let cli = match parse()? {
        Ok(cli) => cli,
        Err(printed) => return Ok(printed),
    };
    // The braille display is the shared runtime's: chosen once, for whichever mode runs.
    let mut braille = crate::io::config::load_settings().0.braille;
    if let Some(choice) = cli.command.braille() {
        braille.display = choice.into();
    }
    crate::app::services::ui::braille::choose(braille);
    cli.command.run()
}

/// The command line read; `Err` with the exit status when clap printed what was asked for
/// (the help, the version) instead.
fn parse() -> Result<Result<Cli, ExitCode>, Fatal> {
    match Cli::try_parse_from(std::env::args_os()) {
        Ok(cli) => Ok(Ok(cli)),
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
            Ok(Err(ExitCode::from(
                u8::try_from(e.exit_code()).unwrap_or(2),
            )))
        }
        Err(e) => {
            let argv: Vec<String> = std::env::args_os()
                .map(|a| a.to_string_lossy().into_owned())
                .collect();
            Err(command_line(&e, &argv))
        }
    }
}
