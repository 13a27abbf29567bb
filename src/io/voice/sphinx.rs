//! CMU PocketSphinx 0.8 (Debian's libpocketsphinx3), loaded the first time hector listens:
//! a player without a microphone needs neither the library nor its model, and hector starts
//! without them. A hand-written binding of the two dozen functions hector calls, each declared
//! as pocketsphinx.h, jsgf.h, fsg_model.h, err.h and ckd_alloc.h of 0.8+5prealpha declare it.
//!
//! Besides `io::platform`, this module is the place of hector with `unsafe` code: calling into
//! the library (loaded through `platform::library`). Every call is made on a decoder this
//! module created and owns, with arguments it made (C strings without inner NUL, sample
//! buffers with their length).
#![expect(unsafe_code, reason = "calls into the speech recognition library")]

use std::ffi::{CStr, CString, c_char, c_float, c_int, c_void};
use std::path::Path;
use std::sync::{Mutex, OnceLock};

use crate::core::voice::decide::Decoded;
use crate::io::platform::library::Library;

/// The shared library of Debian's libpocketsphinx3 (it brings libsphinxbase3 with it).
const LIBRARY: &str = if cfg!(windows) {
    "pocketsphinx.dll"
} else {
    "libpocketsphinx.so.3"
};

/// The language weight PocketSphinx uses by default (-lw), for grammars built here.
const LANGUAGE_WEIGHT: c_float = 6.5;

type Handle = *mut c_void;

/// The library's functions (names and types as its headers give them).
struct Api {
    ps_args: unsafe extern "C" fn() -> *const c_void,
    cmd_ln_parse_r:
        unsafe extern "C" fn(Handle, *const c_void, i32, *const *const c_char, c_int) -> Handle,
    cmd_ln_free_r: unsafe extern "C" fn(Handle) -> c_int,
    err_set_logfp: unsafe extern "C" fn(Handle),
    ckd_free: unsafe extern "C" fn(*mut c_void),
    ps_init: unsafe extern "C" fn(Handle) -> Handle,
    ps_free: unsafe extern "C" fn(Handle) -> c_int,
    ps_add_word: unsafe extern "C" fn(Handle, *const c_char, *const c_char, c_int) -> i32,
    ps_lookup_word: unsafe extern "C" fn(Handle, *const c_char) -> *mut c_char,
    ps_get_logmath: unsafe extern "C" fn(Handle) -> Handle,
    jsgf_parse_string: unsafe extern "C" fn(*const c_char, Handle) -> Handle,
    jsgf_get_public_rule: unsafe extern "C" fn(Handle) -> Handle,
    jsgf_build_fsg: unsafe extern "C" fn(Handle, Handle, Handle, c_float) -> Handle,
    jsgf_grammar_free: unsafe extern "C" fn(Handle),
    fsg_model_free: unsafe extern "C" fn(Handle) -> c_int,
    ps_set_fsg: unsafe extern "C" fn(Handle, *const c_char, Handle) -> c_int,
    ps_set_search: unsafe extern "C" fn(Handle, *const c_char) -> c_int,
    ps_start_stream: unsafe extern "C" fn(Handle) -> c_int,
    ps_start_utt: unsafe extern "C" fn(Handle) -> c_int,
    ps_process_raw: unsafe extern "C" fn(Handle, *const i16, usize, c_int, c_int) -> c_int,
    ps_end_utt: unsafe extern "C" fn(Handle) -> c_int,
    ps_get_in_speech: unsafe extern "C" fn(Handle) -> u8,
    ps_get_hyp: unsafe extern "C" fn(Handle, *mut i32) -> *const c_char,
    ps_get_n_frames: unsafe extern "C" fn(Handle) -> c_int,
    ps_seg_iter: unsafe extern "C" fn(Handle) -> Handle,
    ps_seg_next: unsafe extern "C" fn(Handle) -> Handle,
    ps_seg_word: unsafe extern "C" fn(Handle) -> *const c_char,
    ps_seg_frames: unsafe extern "C" fn(Handle, *mut c_int, *mut c_int),
}

/// Why the recogniser cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SphinxError {
    /// The library is not installed (or is not the 0.8 one): the loader's words.
    #[error("PocketSphinx cannot be loaded: {0}")]
    NotInstalled(String),
    /// The model in this folder cannot be read.
    #[error("the acoustic model cannot be read")]
    Model,
    /// A grammar the library refused (a defect: hector's grammars are tested).
    #[error("the grammar {0} was refused")]
    Grammar(String),
    /// Decoding failed inside the library.
    #[error("decoding failed")]
    Decode,
}

/// Looks a symbol up in the library.
///
/// SAFETY: the caller names the type of the function as the library's header declares it; the
/// library stays loaded for the rest of the process (it is never closed).
unsafe fn symbol<T: Copy>(lib: &Library, name: &str) -> Result<T, SphinxError> {
    // SAFETY: the caller gives the function's declared type.
    unsafe { lib.symbol(name) }
        .ok_or_else(|| SphinxError::NotInstalled(format!("{LIBRARY} lacks {name}")))
}

impl Api {
    fn open(name: &str) -> Result<Api, SphinxError> {
        let lib = &Library::open(name).map_err(SphinxError::NotInstalled)?;
        // SAFETY: every type below is the one the library's header declares for the name.
        let api = unsafe {
            Api {
                ps_args: symbol(lib, "ps_args")?,
                cmd_ln_parse_r: symbol(lib, "cmd_ln_parse_r")?,
                cmd_ln_free_r: symbol(lib, "cmd_ln_free_r")?,
                err_set_logfp: symbol(lib, "err_set_logfp")?,
                ckd_free: symbol(lib, "ckd_free")?,
                ps_init: symbol(lib, "ps_init")?,
                ps_free: symbol(lib, "ps_free")?,
                ps_add_word: symbol(lib, "ps_add_word")?,
                ps_lookup_word: symbol(lib, "ps_lookup_word")?,
                ps_get_logmath: symbol(lib, "ps_get_logmath")?,
                jsgf_parse_string: symbol(lib, "jsgf_parse_string")?,
                jsgf_get_public_rule: symbol(lib, "jsgf_get_public_rule")?,
                jsgf_build_fsg: symbol(lib, "jsgf_build_fsg")?,
                jsgf_grammar_free: symbol(lib, "jsgf_grammar_free")?,
                fsg_model_free: symbol(lib, "fsg_model_free")?,
                ps_set_fsg: symbol(lib, "ps_set_fsg")?,
                ps_set_search: symbol(lib, "ps_set_search")?,
                ps_start_stream: symbol(lib, "ps_start_stream")?,
                ps_start_utt: symbol(lib, "ps_start_utt")?,
                ps_process_raw: symbol(lib, "ps_process_raw")?,
                ps_end_utt: symbol(lib, "ps_end_utt")?,
                ps_get_in_speech: symbol(lib, "ps_get_in_speech")?,
                ps_get_hyp: symbol(lib, "ps_get_hyp")?,
                ps_get_n_frames: symbol(lib, "ps_get_n_frames")?,
                ps_seg_iter: symbol(lib, "ps_seg_iter")?,
                ps_seg_next: symbol(lib, "ps_seg_next")?,
                ps_seg_word: symbol(lib, "ps_seg_word")?,
                ps_seg_frames: symbol(lib, "ps_seg_frames")?,
            }
        };
        // The library writes its log to standard error, into the terminal's picture: off.
        // SAFETY: a null stream is the documented way to switch logging off (err.h).
        unsafe { (api.err_set_logfp)(std::ptr::null_mut()) };
        Ok(api)
    }
}

/// The library, loaded once.
fn api() -> Result<&'static Api, SphinxError> {
    static API: OnceLock<Result<Api, SphinxError>> = OnceLock::new();
    API.get_or_init(|| Api::open(LIBRARY))
        .as_ref()
        .map_err(Clone::clone)
}

/// Decoders are made one at a time: making one sets the library's global debug level.
static MAKING: Mutex<()> = Mutex::new(());

fn c_string(text: &str) -> Result<CString, SphinxError> {
    // Grammars and words are hector's own; an inner NUL would be a defect.
    CString::new(text).map_err(|_| SphinxError::Grammar(text.chars().take(40).collect()))
}

/// One PocketSphinx decoder with its configuration. Used by one thread at a time.
pub(crate) struct Decoder {
    api: &'static Api,
    ps: Handle,
    config: Handle,
}

// SAFETY: a decoder's memory belongs to it alone and PocketSphinx keeps no per-thread state, so
// it may move to another thread; `&mut self` on every call keeps it to one thread at a time.
unsafe impl Send for Decoder {}

/// Where the model is and how to listen.
pub(crate) struct Setup<'a> {
    /// The acoustic model's folder (the one with `mdef`).
    pub(crate) model: &'a Path,
    /// A pronunciation dictionary file, or none (words are added with [`Decoder::add_word`]).
    pub(crate) dictionary: Option<&'a Path>,
    /// Frames of silence (10 ms each) that end a phrase.
    pub(crate) end_silence: u32,
    /// How the decoder hears: whole phrases or sound block by block.
    pub(crate) hears: Hears,
}

/// How a decoder is given its sound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Hears {
    /// Whole phrases ([`Decoder::decode`]): the cepstral mean is each phrase's own (`-cmn
    /// batch`), so that a phrase decodes the same whatever was decoded before it. With the
    /// library's default (`live`) the mean is carried from phrase to phrase, and the same
    /// recording heard after another one scored and was decided otherwise.
    Phrases,
    /// Sound block by block, for the voice activity ([`Decoder::listen`]): the mean can only
    /// be a running one there.
    Blocks,
}

impl Decoder {
    pub(crate) fn new(setup: &Setup) -> Result<Decoder, SphinxError> {
        let api = api()?;
        let dict = setup
            .dictionary
            .map_or_else(|| "/dev/null".into(), |d| d.display().to_string());
        let silence = setup.end_silence.to_string();
        let cmn = match setup.hears {
            Hears::Phrases => "batch",
            Hears::Blocks => "live",
        };
        // Beams wider than the defaults: grammars are small, and the defaults prune the
        // right phrase away now and then.
        let args = [
            "-hmm",
            &setup.model.display().to_string(),
            "-dict",
            &dict,
            "-vad_postspeech",
            &silence,
            "-beam",
            "1e-60",
            "-wbeam",
            "1e-40",
            "-pbeam",
            "1e-60",
            "-cmn",
            cmn,
        ]
        .iter()
        .map(|a| c_string(a))
        .collect::<Result<Vec<CString>, _>>()?;
        let argv: Vec<*const c_char> = args.iter().map(|a| a.as_ptr()).collect();
        let _making = MAKING.lock().unwrap_or_else(|p| p.into_inner());
        let argc = i32::try_from(argv.len()).map_err(|_| SphinxError::Model)?;
        // SAFETY: argv points to `argc` C strings that live across the call; the definitions
        // come from the library itself; strict checking refuses unknown options with NULL.
        let config = unsafe {
            (api.cmd_ln_parse_r)(
                std::ptr::null_mut(),
                (api.ps_args)(),
                argc,
                argv.as_ptr(),
                1,
            )
        };
        if config.is_null() {
            return Err(SphinxError::Model);
        }
        // SAFETY: a configuration the library made; ps_init takes a reference of its own.
        let ps = unsafe { (api.ps_init)(config) };
        if ps.is_null() {
            // SAFETY: the configuration is ours and used by nothing else.
            unsafe { (api.cmd_ln_free_r)(config) };
            return Err(SphinxError::Model);
        }
        Ok(Decoder { api, ps, config })
    }

    /// Adds a pronunciation (`name` is `word` or `word(2)`); false when the model lacks one
    /// of its phones (a dictionary for another phone set) or the name is there already.
    pub(crate) fn add_word(&mut self, name: &str, phones: &str) -> bool {
        // A name the dictionary has is never handed to the library: for `word(2)` it links
        // the new entry into the word's alternatives before it finds the name taken, and
        // leaves that link pointing at an empty slot (a crash when a grammar uses the word)
        // or at whatever word is added next (heard as this one).
        if self.knows(name) {
            return false;
        }
        let (Ok(name), Ok(phones)) = (c_string(name), c_string(phones)) else {
            return false;
        };
        // SAFETY: our decoder and two C strings; update=false: no search exists to update
        // while words are added (they are added before any grammar).
        unsafe { (self.api.ps_add_word)(self.ps, name.as_ptr(), phones.as_ptr(), 0) >= 0 }
    }

    /// Whether the decoder's dictionary has `word` (a name: `word` or `word(2)`).
    pub(crate) fn knows(&self, word: &str) -> bool {
        self.phones(word).is_some()
    }

    /// The phones of `name` (`word` or `word(2)`) in the decoder's dictionary, separated by
    /// single spaces.
    pub(crate) fn phones(&self, name: &str) -> Option<String> {
        let name = c_string(name).ok()?;
        // SAFETY: our decoder and a C string; a non-null answer is a string the library
        // allocated for us, copied, then freed with its own allocator's free.
        unsafe {
            let phones = (self.api.ps_lookup_word)(self.ps, name.as_ptr());
            if phones.is_null() {
                return None;
            }
            let text = CStr::from_ptr(phones).to_string_lossy().into_owned();
            (self.api.ckd_free)(phones.cast());
            Some(text.split_whitespace().collect::<Vec<_>>().join(" "))
        }
    }

    /// Makes `jsgf` the grammar called `name` and listens with it. Built from the parsed
    /// grammar here rather than by ps_set_jsgf_string, which keeps every parse (a leak of
    /// some 30 KB per grammar, one per move).
    pub(crate) fn set_grammar(&mut self, name: &str, jsgf: &str) -> Result<(), SphinxError> {
        let refused = || SphinxError::Grammar(name.to_string());
        let cname = c_string(name)?;
        let text = c_string(jsgf)?;
        // SAFETY: our decoder; each object made here is freed here once the library has
        // taken its own reference (ps_set_fsg keeps the FSG; the parse is not needed after).
        // The search replaced under `name` is freed by the library, and ps_set_search points
        // the decoder at the new one before anything else runs.
        unsafe {
            let parsed = (self.api.jsgf_parse_string)(text.as_ptr(), std::ptr::null_mut());
            if parsed.is_null() {
                return Err(refused());
            }
            let rule = (self.api.jsgf_get_public_rule)(parsed);
            if rule.is_null() {
                (self.api.jsgf_grammar_free)(parsed);
                return Err(refused());
            }
            let lmath = (self.api.ps_get_logmath)(self.ps);
            let fsg = (self.api.jsgf_build_fsg)(parsed, rule, lmath, LANGUAGE_WEIGHT);
            if fsg.is_null() {
                (self.api.jsgf_grammar_free)(parsed);
                return Err(refused());
            }
            let set = (self.api.ps_set_fsg)(self.ps, cname.as_ptr(), fsg);
            (self.api.fsg_model_free)(fsg);
            (self.api.jsgf_grammar_free)(parsed);
            // A word missing from the dictionary fails here: the search is not made.
            if set != 0 || (self.api.ps_set_search)(self.ps, cname.as_ptr()) != 0 {
                return Err(refused());
            }
        }
        Ok(())
    }

    /// Listens with the grammar called `name` (one set before with [`Decoder::set_grammar`]).
    pub(crate) fn use_grammar(&mut self, name: &str) -> Result<(), SphinxError> {
        let cname = c_string(name)?;
        // SAFETY: our decoder; the names passed are only those set before (the library reads
        // a missing one's type through a null pointer).
        if unsafe { (self.api.ps_set_search)(self.ps, cname.as_ptr()) } != 0 {
            return Err(SphinxError::Grammar(name.to_string()));
        }
        Ok(())
    }

    /// Decodes a whole utterance at once (a decoder that hears [`Hears::Phrases`]: the
    /// cepstral mean taken over all of it), with the grammar in use: its best phrase, or
    /// `None` when no phrase of the grammar fits. Each utterance starts a new stream: the
    /// front end's noise estimate and speech detection begin afresh, so that what was decoded
    /// before (a phrase decoded ahead and dropped, the phrase before, another recording) does
    /// not change the decodes of these samples.
    pub(crate) fn decode(&mut self, samples: &[i16]) -> Result<Option<Decoded>, SphinxError> {
        // SAFETY: our decoder with a grammar set; the samples live across the call, their
        // length passed with them.
        unsafe {
            if (self.api.ps_start_stream)(self.ps) < 0 || (self.api.ps_start_utt)(self.ps) < 0 {
                return Err(SphinxError::Decode);
            }
            let done = (self.api.ps_process_raw)(self.ps, samples.as_ptr(), samples.len(), 0, 1);
            let ended = (self.api.ps_end_utt)(self.ps);
            if done < 0 || ended < 0 {
                return Err(SphinxError::Decode);
            }
        }
        Ok(self.best())
    }

    /// The best phrase of the utterance just ended, with its words' frames.
    fn best(&mut self) -> Option<Decoded> {
        let mut score: i32 = 0;
        // SAFETY: our decoder after ps_end_utt; the hypothesis and segment strings belong to
        // the decoder and are copied before the next call that could change them; the
        // segment iterator is walked to its end, where the library frees it.
        unsafe {
            let hyp = (self.api.ps_get_hyp)(self.ps, &mut score);
            if hyp.is_null() {
                return None;
            }
            let words = CStr::from_ptr(hyp).to_string_lossy().trim().to_string();
            if words.is_empty() {
                return None;
            }
            let frames = u32::try_from((self.api.ps_get_n_frames)(self.ps)).unwrap_or(0);
            let mut word_frames: u32 = 0;
            let mut seg = (self.api.ps_seg_iter)(self.ps);
            while !seg.is_null() {
                let word = (self.api.ps_seg_word)(seg);
                let filler = word.is_null() || {
                    let w = CStr::from_ptr(word).to_bytes();
                    w.first()
                        .is_none_or(|c| *c == b'<' || *c == b'[' || *c == b'(')
                };
                if !filler {
                    let (mut start, mut end): (c_int, c_int) = (0, 0);
                    (self.api.ps_seg_frames)(seg, &mut start, &mut end);
                    word_frames += u32::try_from(end - start + 1).unwrap_or(0);
                }
                seg = (self.api.ps_seg_next)(seg);
            }
            Some(Decoded {
                words,
                score,
                frames,
                word_frames,
            })
        }
    }

    /// Starts listening block by block with the grammar called `name`, for the voice
    /// activity: a grammar of one word keeps the search's work small, and the search consumes
    /// the frames as they come (without it the decoder would keep them all). With `anew`,
    /// the front end's noise estimate and speech detection start afresh (a recording: where
    /// its phrase is cut must not depend on what was heard before it); without, they go on
    /// from the phrase before (a microphone's sound goes on between phrases).
    pub(crate) fn start_listening(&mut self, name: &str, anew: bool) -> Result<(), SphinxError> {
        self.use_grammar(name)?;
        // SAFETY: our decoder with a grammar set.
        if (anew && unsafe { (self.api.ps_start_stream)(self.ps) } < 0)
            || unsafe { (self.api.ps_start_utt)(self.ps) } < 0
        {
            return Err(SphinxError::Decode);
        }
        Ok(())
    }

    /// Feeds a block of samples; whether the decoder hears speech now.
    pub(crate) fn listen(&mut self, block: &[i16]) -> bool {
        // SAFETY: our decoder in an utterance; the block lives across the call.
        unsafe {
            (self.api.ps_process_raw)(self.ps, block.as_ptr(), block.len(), 0, 0);
            (self.api.ps_get_in_speech)(self.ps) != 0
        }
    }

    pub(crate) fn stop_listening(&mut self) {
        // SAFETY: our decoder in an utterance.
        unsafe { (self.api.ps_end_utt)(self.ps) };
    }
}

impl Drop for Decoder {
    fn drop(&mut self) {
        // SAFETY: the decoder and configuration are ours and used by nothing else now.
        unsafe {
            (self.api.ps_free)(self.ps);
            (self.api.cmd_ln_free_r)(self.config);
        }
    }
}

/// The processor time this thread has used: what a decode costs whatever else the machine
/// runs (the voice benchmark's measure on a shared machine).
pub(crate) fn thread_cpu_time() -> std::time::Duration {
    crate::io::platform::process::thread_cpu_time()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_library_is_named_with_the_loaders_words() {
        let Err(SphinxError::NotInstalled(why)) = Api::open("libhector-nothing.so.9") else {
            panic!("a library that is not there loaded");
        };
        assert!(why.contains("libhector-nothing.so.9"), "{why}");
    }
}
