//! Continuing a recorded game: `hector resume`, and the offer `hector play` makes when an
//! unfinished game is waiting.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};
use shakmaty::Color;

use super::{Opponent, Start};
use crate::app::services::recorder::Recorder;
use crate::core::clock::TimeControl;
use crate::core::matchplay::{PlayRecord, RecordedOpponent};
use crate::core::mode::{MODE_SETTING, Mode};
use crate::core::notation::Form;
use crate::core::notation::{Language, counted, default_language, fill, language, own_name};
use crate::core::record::Stop;
use crate::core::record::{Entry, Salvaged, stop_words};
use crate::core::settings::SpeechSettings;
use crate::io::board_link::Protocol;
use crate::io::journal::{Journal, games_dir, latest_in_progress, load_good_part};

/// How the recorded game was set up.
pub(crate) struct Resumed {
    pub(crate) start: Start,
    pub(crate) color: Color,
    pub(crate) opponent: Opponent,
    pub(crate) level: u8,
    pub(crate) announce: bool,
    /// Taking moves back is allowed (not switched off when the game began).
    pub(crate) takeback: bool,
    pub(crate) control: Option<TimeControl>,
    pub(crate) form: Form,
    pub(crate) language: String,
    /// The words the game was announced with, when its journal says.
    pub(crate) words: Option<crate::core::notation::WordSet>,
    pub(crate) board: Option<(PathBuf, Protocol)>,
    /// bewertung and tipp (off when the game began with --no-hints).
    pub(crate) hints: bool,
}

/// Opens the journal at `path` for continuing, and reads how its game was set up.
pub(crate) fn from_journal(path: &Path) -> Result<Resumed> {
    let (recorder, replayed) = Recorder::resume(path)?;
    if replayed.game.is_over() || replayed.declared.is_some() {
        return Err(anyhow!(
            "the game in {} is already finished",
            path.display()
        ));
    }
    let h = &recorder.header;
    let settings = &replayed.settings;
    if Mode::of_journal(settings.get(MODE_SETTING).map(String::as_str)) == Mode::Online {
        return Err(anyhow!(
            "the game in {} is played on lichess; continue it with hector online play --game {}",
            path.display(),
            settings.get("lichess").map_or("?", String::as_str)
        ));
    }
    let record = PlayRecord::read(h, settings).map_err(|e| anyhow!("{e}"))?;
    let opponent = match &record.opponent {
        RecordedOpponent::Keyboard => Opponent::Keyboard,
        RecordedOpponent::Engine(path) => Opponent::Engine(path.as_ref().map(PathBuf::from)),
        RecordedOpponent::Board { protocol: p, port } => Opponent::Board(
            PathBuf::from(port),
            Protocol::from_name(p).context("the journal names a board hector cannot read")?,
        ),
    };
    Ok(Resumed {
        color: record.local,
        opponent,
        level: record.level,
        announce: record.announce,
        takeback: record.takeback,
        control: record.control,
        form: record.form,
        language: record.language,
        words: record.words,
        board: record
            .board
            .and_then(|(p, port)| Some((PathBuf::from(port), Protocol::from_name(&p)?))),
        hints: record.hints,
        start: Start::Resume {
            recorder: Box::new(recorder),
            replayed: Box::new(replayed),
        },
    })
}

/// The unfinished game `hector resume` takes when none is named.
pub(crate) fn latest() -> Result<Option<PathBuf>> {
    let dir = games_dir()?;
    Ok(latest_in_progress(&dir)?.map(|g| g.path))
}

/// At the start of `hector play`: when a game is unfinished and a person sits at the
/// terminal, asks whether to continue it. `None`: start a new game. A game whose journal
/// replays only in part is offered from its last good position, in a new journal.
pub(crate) fn offer(lang: &Language, speech: &SpeechSettings) -> Option<PathBuf> {
    if !std::io::stdin().is_terminal() {
        return None;
    }
    let dir = games_dir().ok()?;
    let game = latest_in_progress(&dir).ok()??;
    if game.stop.is_some() {
        return match continue_damaged(&game.path, speech, Some(lang)) {
            Ok(Continue::Journal(path)) => Some(path),
            Ok(Continue::Declined | Continue::NotAsked) => None,
            Err(e) => {
                errln!("hector: {e:#}");
                None
            }
        };
    }
    let question = fill(
        &lang.play.resume_question,
        &[
            (
                "date",
                &crate::app::services::games::date_text(&game.created),
            ),
            ("white", &own_name(&game.white, lang)),
            ("black", &own_name(&game.black, lang)),
            ("moves", &counted(&lang.record.moves, game.moves as u64)),
        ],
    );
    ask_yes_no(&question).then_some(game.path)
}

/// Prints `question` and reads the answer from the terminal: yes or no in any language (see
/// `continue_or_new`). Enter alone, or any other answer, asks again; the end of the
/// input means no.
fn ask_yes_no(question: &str) -> bool {
    loop {
        let mut out = std::io::stdout().lock();
        let _ = write!(out, "{question}: ");
        let _ = out.flush();
        drop(out);
        let mut answer = String::new();
        match std::io::stdin().lock().read_line(&mut answer) {
            Ok(0) | Err(_) => return false,
            Ok(_) => {}
        }
        if let Some(yes) = continue_or_new(&answer) {
            return yes;
        }
    }
}

/// An answer to "continue it?" in any language's table: yes or the words that continue a
/// game (fortsetzen, continue) are yes; no or the word for a new game (neu, new) are no.
fn continue_or_new(answer: &str) -> Option<bool> {
    use crate::core::notation::{fold, yes_or_no};
    let word = fold(answer.trim());
    let any = |lists: &dyn Fn(&Language) -> &Vec<String>| {
        crate::core::notation::languages().any(|l| lists(l).iter().any(|w| fold(w) == word))
    };
    yes_or_no(answer).or_else(|| {
        if any(&|l| &l.arbiter.commands.resume) {
            Some(true)
        } else if any(&|l| &l.commands.new) {
            Some(false)
        } else {
            None
        }
    })
}

/// What becomes of a journal the player wants to continue.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Continue {
    /// Continue this journal: the one asked for when it replays whole, or else a new one
    /// holding its good part.
    Journal(PathBuf),
    /// The journal replays only in part and the player said no: nothing was changed.
    Declined,
    /// The journal replays only in part and no one at a terminal could be asked (a script),
    /// or its good part ended the game: nothing was changed.
    NotAsked,
}

/// Before a journal is continued: when it replays only in part (damaged bytes, or an entry the
/// game refuses), the player hears and reads what is wrong, in the game's language, and is
/// asked whether to continue from the last good position. Yes: a new journal holds the good
/// entries and a `continues` setting naming the damaged file, which is never written to. As
/// with every question before a game, no terminal on standard input means no. The words are
/// in `lang` when the player chose one, else in the game's language.
pub(crate) fn continue_damaged(
    path: &Path,
    speech: &SpeechSettings,
    lang: Option<&Language>,
) -> Result<Continue> {
    let salvaged = match load_good_part(path) {
        Ok(s) => s,
        // Nothing of it can be used: continuing it says why.
        Err(_) => return Ok(Continue::Journal(path.to_path_buf())),
    };
    // The arbiter's games are continued by hector arbiter, which says so.
    let mode = salvaged
        .replayed
        .settings
        .get(MODE_SETTING)
        .map(String::as_str);
    if salvaged.stop.is_none() || Mode::of_journal(mode) == Mode::Arbiter {
        return Ok(Continue::Journal(path.to_path_buf()));
    }
    let lang = lang.unwrap_or_else(|| {
        language(&salvaged.header.language)
            .unwrap_or_else(|_| default_language())
            .with_words(salvaged.header.words.unwrap_or_default())
    });
    let mut settings = speech.clone();
    settings.language = Some(lang.code.clone());
    let (speaker, _notices) = crate::app::services::speaker::quiet_speaker(&settings, lang);
    // At a terminal this is a conversation; for a script it is why nothing was continued.
    let terminal = std::io::stdin().is_terminal();
    let tell = |text: &str| {
        if terminal {
            let _ = writeln!(std::io::stdout(), "{text}");
        } else {
            errln!("hector resume: {text}");
        }
        // Queued in order, never dropped: what is wrong, the question, what was done.
        speaker.announce(text.to_string());
    };
    let w = &lang.record.damaged;
    if let Some(stop) = &salvaged.stop {
        tell(&damage_words(&salvaged, stop, lang));
    }
    let choice = if salvaged.replayed.outcome().is_some() {
        // The good part ended the game: there is nothing to continue.
        tell(&lang.messages.game_over);
        Continue::NotAsked
    } else if !terminal {
        tell(&w.resume_no_terminal);
        Continue::NotAsked
    } else {
        speaker.announce(w.resume_question.clone());
        if ask_yes_no(&w.resume_question) {
            let new = write_good_part(path, &salvaged)?;
            let file = new.file_name().map_or_else(
                || new.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            tell(&fill(&w.resume_new_record, &[("file", &file)]));
            Continue::Journal(new)
        } else {
            tell(&w.resume_declined);
            Continue::Declined
        }
    };
    speaker.wait_idle(std::time::Duration::from_secs(8));
    Ok(choice)
}

/// What is wrong with the journal: its game, how far it replays, and why not further.
fn damage_words(salvaged: &Salvaged, stop: &Stop, lang: &Language) -> String {
    // A journal's names come from outside: their control characters are shown, not sent.
    let name = |n: &str, color: Color| {
        if n.trim().is_empty() {
            lang.color(color).to_string()
        } else {
            crate::core::notation::printable(&own_name(n.trim(), lang)).into_owned()
        }
    };
    fill(
        &lang.record.damaged.resume_told,
        &[
            (
                "date",
                &crate::core::notation::printable(&crate::app::services::games::date_text(
                    &salvaged.header.created,
                )),
            ),
            ("white", &name(&salvaged.header.white, Color::White)),
            ("black", &name(&salvaged.header.black, Color::Black)),
            ("number", &salvaged.moves().to_string()),
            ("reason", &format!("{}.", stop_words(stop, lang))),
        ],
    )
}

/// A new journal in the games directory with the good part of the journal at `damaged`,
/// then a `continues` setting naming it. Written whole or not at all.
fn write_good_part(damaged: &Path, salvaged: &Salvaged) -> Result<PathBuf> {
    let mut journal = Journal::create(&salvaged.header)?;
    let from = damaged.file_name().map_or_else(
        || damaged.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut entries = salvaged.entries.clone();
    entries.push(Entry::Setting {
        key: "continues".into(),
        value: from,
    });
    let path = journal.path().to_path_buf();
    if let Err(e) = journal.append_all(&entries, true) {
        drop(journal);
        // Only the header is there: a game of no moves would only be listed.
        let _ = std::fs::remove_file(&path);
        return Err(e).context("cannot write the new journal");
    }
    Ok(path)
}
