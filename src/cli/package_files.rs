//! `hector package-files DIR` (hidden): the manual pages and shell completions, generated from
//! the same clap definitions that read the command line, so they cannot drift from it.
//! scripts/package puts them into the Debian package.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Context as _;
use clap::CommandFactory as _;
use clap_complete::Shell;

use super::args::Cli;

/// Writes `DIR/man/hector.1` and one page per mode (`hector-play.1`, `hector-board-list.1`
/// …), and `DIR/completions/` for bash, zsh and fish.
pub(crate) fn run(dir: &Path) -> ExitCode {
    match write(dir) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            errln!("hector package-files: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn write(dir: &Path) -> anyhow::Result<()> {
    let man = dir.join("man");
    std::fs::create_dir_all(&man).with_context(|| format!("cannot create {}", man.display()))?;
    clap_mangen::generate_to(Cli::command(), &man)
        .with_context(|| format!("cannot write the manual pages into {}", man.display()))?;
    let completions = dir.join("completions");
    std::fs::create_dir_all(&completions)
        .with_context(|| format!("cannot create {}", completions.display()))?;
    for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
        clap_complete::generate_to(shell, &mut Cli::command(), "hector", &completions)
            .with_context(|| format!("cannot write the {shell} completion"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mode_has_a_page_and_every_shell_a_completion() {
        let dir = std::env::temp_dir().join(format!("hector-package-files-{}", std::process::id()));
        let result = write(&dir);
        let listing = |sub: &str| -> Vec<String> {
            let mut names: Vec<String> = std::fs::read_dir(dir.join(sub))
                .map(|r| {
                    r.flatten()
                        .map(|e| e.file_name().to_string_lossy().into_owned())
                        .collect()
                })
                .unwrap_or_default();
            names.sort();
            names
        };
        let pages = listing("man");
        let completions = listing("completions");
        let play = std::fs::read_to_string(dir.join("man/hector-play.1")).unwrap_or_default();
        let bash = std::fs::read_to_string(dir.join("completions/hector.bash")).unwrap_or_default();
        let _ = std::fs::remove_dir_all(&dir);
        result.expect("written");
        let mut expected = vec!["hector.1".to_string()];
        for mode in Cli::command()
            .get_subcommands()
            .filter(|c| !c.is_hide_set())
        {
            expected.push(format!("hector-{}.1", mode.get_name()));
            for sub in mode.get_subcommands().filter(|c| !c.is_hide_set()) {
                expected.push(format!("hector-{}-{}.1", mode.get_name(), sub.get_name()));
            }
        }
        expected.sort();
        assert_eq!(pages, expected);
        assert!(
            pages.contains(&"hector-board-monitor.1".to_string()),
            "{pages:?}"
        );
        assert!(
            !pages.iter().any(|p| p.contains("package-files")),
            "{pages:?}"
        );
        assert_eq!(completions, ["_hector", "hector.bash", "hector.fish"]);
        // The play page carries the mode's long help and its options.
        assert!(play.contains("\\-\\-screen\\-reader"), "{play}");
        assert!(play.contains("hector play"), "{play}");
        assert!(bash.contains("--screen-reader"), "{bash}");
    }
}
