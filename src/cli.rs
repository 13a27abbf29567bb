//! Command-line interface: the modes of hector and their options.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "hector",
    version,
    about = "An accessible chess companion for blind and visually impaired players (FIDE Appendix D).",
    long_about = "hector speaks every move in the words of the FIDE Laws of Chess, Appendix D \
        (Anna, Bella, Cäsar … Hector; eins … acht), keeps the record and checks games against \
        the Laws.\n\nEvery mode has its own help: hector help MODE, or hector MODE --help."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check every game of a PGN file against the Laws of Chess (an arbiter's tool).
    #[command(long_about = CHECK_HELP)]
    Check {
        /// The PGN file to check; - reads standard input.
        file: PathBuf,
        /// One JSON object per game, one per line, instead of sentences.
        #[arg(long)]
        json: bool,
    },
}

const CHECK_HELP: &str = "Check every game of a PGN file against the Laws of Chess.\n\n\
For each game hector replays the moves (standard chess, and Chess960 with [Variant \"Chess960\"] \
and a [FEN] tag) and reports: the first illegal move (ply, move and reason); the first ply at \
which a draw could be claimed by threefold repetition (Article 9.2b) and by the fifty-move rule \
(9.3b); the first automatic end (checkmate 5.1a, stalemate 5.2a, dead position 5.2b with \
insufficient material or locked pawns, fivefold repetition 9.6a, seventy-five-move rule 9.6b); \
and whether the Result tag agrees. A ply number counts the half-moves played when the position \
arose (0 is the start position).\n\n\
Without --json, one sentence per game and a summary line. With --json, one object per game:\n\
{\"game\":1,\"plies\":85,\"illegal\":null,\"claims\":{\"threefold\":40,\"fifty_move\":null},\
\"automatic\":{\"ply\":85,\"rule\":\"checkmate\"},\"result_tag\":\"1-0\",\"status\":\"1-0\"}\n\
A game with syntax problems also has \"errors\": [{\"line\":N,\"message\":\"…\"}].\n\n\
Exit status: 0 when every game is legal and consistent, 1 otherwise, 2 when the file cannot be \
read.";

/// Parses the command line and runs the chosen mode.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check { file, json } => crate::app::check::run(&file, json),
    }
}
