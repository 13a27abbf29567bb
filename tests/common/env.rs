//! The environment a test runs the real binary in, built by name: a player's folders in the
//! test's own directory, no configuration file unless one is named, Debian's /usr/games (where
//! stockfish is) on the PATH; what a test needs beyond that is said by the method it calls.

use std::path::Path;
use std::time::Duration;

use super::pty::Pty;
use super::{Run, SpeechDaemon, run_with};

/// Environment variables for hector, in the order they are set (a later one replaces an
/// earlier one of the same name).
#[derive(Clone, Debug)]
pub struct Env {
    vars: Vec<(String, String)>,
}

impl Env {
    /// A player's environment with everything in `data`: the games (HECTOR_DATA), the home
    /// folder and the configuration folder (`data/config`); no configuration file.
    pub fn player(data: &Path) -> Env {
        Env::player_home(data).data(data)
    }

    /// A player's environment whose home is `dir`: the games in `dir/data`, the configuration
    /// folder `dir/config` (where `login` keeps the token); no configuration file.
    pub fn player_home(dir: &Path) -> Env {
        let path = format!(
            "{}:/usr/games",
            std::env::var("PATH").unwrap_or_else(|_| "/usr/bin:/bin".into())
        );
        let mut env = Env { vars: Vec::new() };
        for (key, value) in super::NO_LOCALE.into_iter().chain(super::NO_SOUNDS) {
            env = env.var(key, value);
        }
        env.var("HECTOR_CONFIG", "")
            .data(&dir.join("data"))
            .home(dir)
            .var("PATH", &path)
    }

    /// The home folder `home` (and the configuration folder `home/config`) instead.
    pub fn home(self, home: &Path) -> Env {
        self.var("HOME", &home.display().to_string()).var(
            "XDG_CONFIG_HOME",
            &home.join("config").display().to_string(),
        )
    }

    /// The games (and the rest of hector's data) in `data` instead.
    pub fn data(self, data: &Path) -> Env {
        self.var("HECTOR_DATA", &data.display().to_string())
    }

    /// The configuration file `file` instead of none.
    pub fn config_file(self, file: &Path) -> Env {
        self.var("HECTOR_CONFIG", &file.display().to_string())
    }

    /// A lichess token in the environment (LICHESS_TOKEN).
    pub fn token(self, token: &str) -> Env {
        self.var("LICHESS_TOKEN", token)
    }

    /// The BrlAPI server at `host` instead of none.
    pub fn braille_host(self, host: &str) -> Env {
        self.var("BRLAPI_HOST", host)
    }

    /// The speech-dispatcher `daemon` instead of none.
    pub fn speech(self, daemon: &SpeechDaemon) -> Env {
        self.var("SPEECHD_ADDRESS", &daemon.address())
    }

    /// Any other variable (a proxy, a language, a PATH of the test's own).
    pub fn var(mut self, key: &str, value: &str) -> Env {
        self.vars.retain(|(k, _)| k != key);
        self.vars.push((key.into(), value.into()));
        self
    }

    /// The variables, as `Pty::spawn` and `run_with` take them.
    pub fn vars(&self) -> Vec<(&str, &str)> {
        self.vars
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect()
    }

    /// hector with `args` on a new terminal (see `Pty::spawn`).
    pub fn spawn(&self, args: &[&str]) -> Pty {
        Pty::spawn(args, &self.vars())
    }

    /// hector with `args` on a new terminal of `cols` x `rows`.
    pub fn spawn_sized(&self, args: &[&str], cols: u16, rows: u16) -> Pty {
        Pty::spawn_sized(args, &self.vars(), cols, rows)
    }

    /// hector with `args` on the full screen a new user has: a terminal of 80 x 24.
    pub fn spawn_80x24(&self, args: &[&str]) -> Pty {
        self.spawn_sized(args, 80, 24)
    }

    /// hector with `args` and `stdin` through pipes, killed after `limit`.
    pub fn run(&self, args: &[&str], stdin: &[u8], limit: Duration) -> Run {
        run_with(args, stdin, &self.vars(), limit)
    }
}
