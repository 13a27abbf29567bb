//! The PGN file `hector study` reads, on a thread of its own: each request (a game opened, the
//! games that fit a search) streams the file again from its start, compressed or not, holding
//! no more than the game being read, so a file of any size is studied without being kept and
//! the player's keys are answered while a long search runs. The core reads the games
//! ([`crate::core::study`]); this module only owns the file and the thread.

use std::path::PathBuf;

use crossbeam_channel::{Receiver, Sender, unbounded};

use crate::core::notation::Language;
use crate::core::pgn::RawGame;
use crate::core::study::{LISTED, Loaded, Search, Summary, read_error_words};

/// What the study asks of its file.
#[derive(Clone, Debug)]
pub(crate) enum Request {
    Open(usize),
    Find(Search),
}

/// The file's answers.
#[derive(Debug)]
pub(crate) enum StudyNews {
    /// Game `number`: read; not readable (`Err(Some(words))`); not in the file (`Err(None)`).
    Opened {
        number: usize,
        game: Result<Box<Loaded>, Option<String>>,
    },
    Found {
        search: Search,
        games: Vec<Summary>,
        more: Option<usize>,
    },
    /// The file cannot be read (the system's words).
    Failed(String),
}

/// The thread that reads the file.
pub(crate) struct StudyFile {
    requests: Sender<Request>,
    news: Receiver<StudyNews>,
}

impl StudyFile {
    /// Starts the thread for `path`, which words a game it cannot read in `lang`; it ends
    /// when the study drops its requests.
    pub(crate) fn start(path: PathBuf, lang: &'static Language) -> std::io::Result<StudyFile> {
        let (requests, jobs) = unbounded::<Request>();
        let (tell, news) = unbounded();
        std::thread::Builder::new()
            .name("study-file".into())
            .spawn(move || {
                for job in jobs {
                    let answer = match job {
                        Request::Open(n) => open(&path, n, lang),
                        Request::Find(search) => find(&path, search),
                    };
                    if tell.send(answer).is_err() {
                        break;
                    }
                }
            })?;
        Ok(StudyFile { requests, news })
    }

    pub(crate) fn ask(&self, request: Request) {
        // The thread ends only when this end is dropped.
        let _ = self.requests.send(request);
    }

    pub(crate) fn news(&self) -> &Receiver<StudyNews> {
        &self.news
    }
}

/// Streams the games of `path` to `each` (with its number, 1 for the first) until it says
/// stop; a game too long to keep is handed on as the reader marks it.
fn each_game(
    path: &std::path::Path,
    mut each: impl FnMut(&RawGame<'_>, usize) -> bool,
) -> Result<(), String> {
    let input = crate::io::files::open_input(path).map_err(|e| crate::io::error_chain(&e))?;
    let mut splitter = crate::io::pgn_stream::Splitter::new(input.reader);
    let mut number = 0usize;
    loop {
        let text = match splitter.next_game() {
            Ok(Some(text)) => text,
            Ok(None) => return Ok(()),
            Err(e) => return Err(format!("{}: {e}", input.name)),
        };
        for raw in text.games() {
            number += 1;
            if !each(&raw, number) {
                return Ok(());
            }
        }
    }
}

fn open(path: &std::path::Path, number: usize, lang: &Language) -> StudyNews {
    let mut game = Err(None);
    let read = each_game(path, |raw, n| {
        if n < number {
            return true;
        }
        game = Loaded::read(raw, n)
            .map(Box::new)
            .map_err(|e| Some(read_error_words(&e, n, lang)));
        false
    });
    match read {
        Ok(()) => StudyNews::Opened { number, game },
        Err(e) => StudyNews::Failed(e),
    }
}

fn find(path: &std::path::Path, search: Search) -> StudyNews {
    let mut games = Vec::new();
    let mut more = None;
    let read = each_game(path, |raw, n| {
        if n < search.from {
            return true;
        }
        let summary = Summary::of(raw, n);
        if !search.fits(&summary) {
            return true;
        }
        if games.len() == LISTED {
            more = Some(n);
            return false;
        }
        games.push(summary);
        true
    });
    match read {
        Ok(()) => StudyNews::Found {
            search,
            games,
            more,
        },
        Err(e) => StudyNews::Failed(e),
    }
}
