//! hector's modes by name: the word on the command line, the mode's entry in the
//! configuration's `[announcement]`, and the `mode` setting a journal keeps. One type from the
//! command line to the journal, so that no mode is named by a string compared somewhere else.

/// A mode of hector that speaks to a player or keeps a player's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    Play,
    /// Continues a journal in the mode that wrote it.
    Resume,
    Online,
    Watch,
    /// study: a PGN file's games with their variations and comments.
    Study,
    /// analyse: the judged moves and the walk through them.
    Analyse,
    Train,
    Puzzle,
    /// The blind player's assistant (tournament use).
    Assist,
    /// The arbiter's console (tournament use).
    Arbiter,
    Clock,
    Transcript,
}

/// The key of a journal's setting that names the mode that wrote it.
pub const MODE_SETTING: &str = "mode";

impl Mode {
    pub(crate) const ALL: [Mode; 12] = [
        Mode::Play,
        Mode::Resume,
        Mode::Online,
        Mode::Watch,
        Mode::Study,
        Mode::Analyse,
        Mode::Train,
        Mode::Puzzle,
        Mode::Assist,
        Mode::Arbiter,
        Mode::Clock,
        Mode::Transcript,
    ];

    /// The mode's word on the command line, which is also its word in a journal.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Play => "play",
            Mode::Resume => "resume",
            Mode::Online => "online",
            Mode::Watch => "watch",
            Mode::Study => "study",
            Mode::Analyse => "analyse",
            Mode::Train => "train",
            Mode::Puzzle => "puzzle",
            Mode::Assist => "assist",
            Mode::Arbiter => "arbiter",
            Mode::Clock => "clock",
            Mode::Transcript => "transcript",
        }
    }

    /// The mode a command-line word names, if it names one of these.
    pub fn from_name(word: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.name() == word)
    }

    /// Whether the mode talks to the player from its start: its command-line errors are said
    /// too, not only printed.
    pub fn speaks(self) -> bool {
        matches!(
            self,
            Mode::Play
                | Mode::Resume
                | Mode::Assist
                | Mode::Arbiter
                | Mode::Online
                | Mode::Clock
                | Mode::Watch
                | Mode::Study
        )
    }

    /// The value of the journal's [`MODE_SETTING`] this mode writes. hector play writes none:
    /// its journals are older than the setting, and stay as they were.
    pub fn journal_setting(self) -> Option<&'static str> {
        match self {
            Mode::Online | Mode::Assist | Mode::Arbiter => Some(self.name()),
            _ => None,
        }
    }

    /// The mode that wrote a journal, from its [`MODE_SETTING`]: none, or a word no mode
    /// writes, is hector play's (continued as a game at the keyboard).
    pub fn of_journal(setting: Option<&str>) -> Mode {
        [Mode::Online, Mode::Assist, Mode::Arbiter]
            .into_iter()
            .find(|m| m.journal_setting() == setting)
            .unwrap_or(Mode::Play)
    }

    /// Whether `hector resume` continues the games this mode recorded: the arbiter's console
    /// and lichess continue their own.
    pub fn resumed_by_resume(self) -> bool {
        !matches!(self, Mode::Arbiter | Mode::Online)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_reads_back_as_its_mode() {
        for m in Mode::ALL {
            assert_eq!(Mode::from_name(m.name()), Some(m));
        }
        assert_eq!(Mode::from_name("say"), None);
        assert_eq!(Mode::from_name("Play"), None);
    }

    /// The words journals hold on disk: those written before the type existed read the same.
    #[test]
    fn journal_words_are_those_on_disk() {
        assert_eq!(Mode::of_journal(None), Mode::Play);
        assert_eq!(Mode::of_journal(Some("assist")), Mode::Assist);
        assert_eq!(Mode::of_journal(Some("arbiter")), Mode::Arbiter);
        assert_eq!(Mode::of_journal(Some("online")), Mode::Online);
        assert_eq!(Mode::of_journal(Some("something new")), Mode::Play);
        assert_eq!(Mode::Play.journal_setting(), None);
        for m in Mode::ALL {
            if let Some(word) = m.journal_setting() {
                assert_eq!(Mode::of_journal(Some(word)), m);
            }
        }
    }

    #[test]
    fn the_spoken_modes_are_the_interactive_ones() {
        let spoken: Vec<&str> = Mode::ALL
            .into_iter()
            .filter(|m| m.speaks())
            .map(Mode::name)
            .collect();
        assert_eq!(
            spoken,
            [
                "play", "resume", "online", "watch", "study", "assist", "arbiter", "clock"
            ]
        );
    }
}
