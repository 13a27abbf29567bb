//! The Windows implementation: NVDA's controller client through the loader, JAWS and SAPI 5
//! through COM, the running programs through a tool-help snapshot.
//!
//! Unsafe code: the calls into the controller client, COM and the snapshot, each with its
//! SAFETY note. Everything else stays safe code around them.
#![allow(unsafe_code, reason = "calls into NVDA's client, COM and the snapshot")]

use std::path::Path;

use windows::Win32::Foundation::{CloseHandle, HANDLE};
use windows::Win32::Media::Speech::{
    ISpVoice, SPF_ASYNC, SPF_PURGEBEFORESPEAK, SPRS_IS_SPEAKING, SPVOICESTATUS, SpVoice,
};
use windows::Win32::System::Com::{
    CLSCTX_INPROC_SERVER, CLSCTX_LOCAL_SERVER, CLSIDFromProgID, COINIT_MULTITHREADED,
    CoCreateInstance, CoInitializeEx, DISPATCH_METHOD, DISPPARAMS, IDispatch,
};
use windows::Win32::System::Diagnostics::ToolHelp::{
    CreateToolhelp32Snapshot, PROCESSENTRY32W, Process32FirstW, Process32NextW, TH32CS_SNAPPROCESS,
};
use windows::Win32::UI::WindowsAndMessaging::FindWindowW;
use windows::core::{GUID, HSTRING, PCWSTR, PWSTR, VARIANT, w};

use super::NvdaError;
use crate::io::platform::library::Library;

/// NVDA's functions return an RPC status: 0 is success.
type Status = u32;
type NoArgs = unsafe extern "system" fn() -> Status;
type TextArg = unsafe extern "system" fn(*const u16) -> Status;
/// `speakSsml(ssml, symbolLevel, priority, asynchronous)`: the two enums are C `int`s, the
/// flag MIDL's one-byte `boolean`.
type SpeakSsml = unsafe extern "system" fn(*const u16, i32, i32, u8) -> Status;
/// `onSsmlMarkReached(mark)`, called by the client while `speakSsml` runs synchronously.
type MarkReached = unsafe extern "system" fn(*const u16) -> Status;
type SetMarkReached = unsafe extern "system" fn(Option<MarkReached>) -> Status;

/// The symbol level NVDA's player has set (`SYMBOL_LEVEL_UNCHANGED`).
const SYMBOL_LEVEL_UNCHANGED: i32 = -1;
/// Queued behind what NVDA says, as `speakText` is (`SPEECH_PRIORITY_NORMAL`).
const SPEECH_PRIORITY_NORMAL: i32 = 0;
/// The highest utterance number whose end mark NVDA has reached. The client keeps one
/// callback for the whole process, so what it reports is kept here.
static MARK_REACHED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The callback hector gives the client: notes the number of a mark of hector's reached.
unsafe extern "system" fn mark_reached(mark: *const u16) -> Status {
    if mark.is_null() {
        return 0;
    }
    // SAFETY: the client passes a NUL-terminated wide string, valid during the call.
    let name = unsafe {
        let mut len = 0;
        while *mark.add(len) != 0 {
            len += 1;
        }
        String::from_utf16_lossy(std::slice::from_raw_parts(mark, len))
    };
    if let Some(n) = crate::io::speech::end::mark_number(&name) {
        MARK_REACHED.fetch_max(n, std::sync::atomic::Ordering::SeqCst);
    }
    0
}

/// The highest utterance number whose end mark NVDA has reached.
pub(crate) fn mark_reached_number() -> u64 {
    MARK_REACHED.load(std::sync::atomic::Ordering::SeqCst)
}

/// Text as a NUL-terminated wide string. The text reaching here has no control characters
/// (speech's `clean`); an inner NUL would only cut it short.
fn wide(text: &str) -> Vec<u16> {
    text.encode_utf16()
        .map(|c| if c == 0 { u16::from(b' ') } else { c })
        .chain(std::iter::once(0))
        .collect()
}

/// NVDA, reached through its controller client.
pub(crate) struct Nvda {
    speak: TextArg,
    braille: TextArg,
    cancel: NoArgs,
    /// The functions of a client of 2024.1 or later, when it has them.
    ssml: Option<Ssml>,
    // The client stays loaded while its functions are used (it is never unloaded anyway).
    _client: Library,
}

impl Nvda {
    /// Loads the controller client from `dll` (a full path: no other folder is searched for
    /// it) and asks whether NVDA runs.
    pub(crate) fn open(dll: &Path) -> Result<Nvda, NvdaError> {
        let name = dll.to_str().ok_or_else(|| {
            NvdaError::ClientMissing(format!("{} is no Unicode path", dll.display()))
        })?;
        if !dll.is_file() {
            return Err(NvdaError::ClientMissing(format!(
                "{} does not exist",
                dll.display()
            )));
        }
        let client = Library::open(name).map_err(NvdaError::ClientMissing)?;
        let missing = |f: &str| NvdaError::Broken(format!("{name} has no function {f}"));
        // SAFETY: the types are those of nvdaController.h (version 1 and later): each function
        // is `error_status_t __stdcall` of nothing or of one `const wchar_t*`.
        let (test, speak, braille, cancel) = unsafe {
            (
                client
                    .symbol::<NoArgs>("nvdaController_testIfRunning")
                    .ok_or_else(|| missing("nvdaController_testIfRunning"))?,
                client
                    .symbol::<TextArg>("nvdaController_speakText")
                    .ok_or_else(|| missing("nvdaController_speakText"))?,
                client
                    .symbol::<TextArg>("nvdaController_brailleMessage")
                    .ok_or_else(|| missing("nvdaController_brailleMessage"))?,
                client
                    .symbol::<NoArgs>("nvdaController_cancelSpeech")
                    .ok_or_else(|| missing("nvdaController_cancelSpeech"))?,
            )
        };
        // SAFETY: as above, with the types of nvdaController.h of 2024.1: `speakSsml` of a
        // `const wchar_t*`, two enums and a `boolean`; the callback's setter of a pointer to
        // `error_status_t __stdcall (const wchar_t*)`.
        let ssml = unsafe {
            match (
                client.symbol::<SpeakSsml>("nvdaController_speakSsml"),
                client.symbol::<SetMarkReached>("nvdaController_setOnSsmlMarkReachedCallback"),
            ) {
                (Some(speak), Some(set_callback)) => Some(Ssml {
                    speak,
                    set_callback,
                }),
                _ => None,
            }
        };
        // SAFETY: a function of the loaded client with its declared type, no arguments.
        let status = unsafe { test() };
        if status != 0 {
            return Err(NvdaError::NotRunning(status));
        }
        Ok(Nvda {
            speak,
            braille,
            cancel,
            ssml,
            _client: client,
        })
    }

    /// The way to speak SSML and learn its end, when the client has it (2024.1 and later).
    pub(crate) fn ssml(&self) -> Option<Ssml> {
        self.ssml
    }

    /// Says `text` through `speakText`, from any thread.
    pub(crate) fn plain(&self) -> Plain {
        Plain(self.speak)
    }

    /// Queues `text` behind what NVDA says; its status when NVDA refuses.
    pub(crate) fn speak(&self, text: &str) -> Result<(), Status> {
        let text = wide(text);
        // SAFETY: a NUL-terminated wide string that outlives the call, which only reads it.
        ok(unsafe { (self.speak)(text.as_ptr()) })
    }

    /// Shows `text` on the braille display as a message.
    pub(crate) fn braille(&self, text: &str) -> Result<(), Status> {
        let text = wide(text);
        // SAFETY: as in `speak`.
        ok(unsafe { (self.braille)(text.as_ptr()) })
    }

    /// Silences NVDA now.
    pub(crate) fn cancel(&self) -> Result<(), Status> {
        // SAFETY: a function of the loaded client with its declared type, no arguments.
        ok(unsafe { (self.cancel)() })
    }
}

/// `speakSsml` and the mark callback of a client of 2024.1 or later. Plain function
/// pointers of a client never unloaded: usable from any thread.
#[derive(Clone, Copy)]
pub(crate) struct Ssml {
    speak: SpeakSsml,
    set_callback: SetMarkReached,
}

impl Ssml {
    /// Has the client report hector's marks ([`mark_reached_number`]).
    pub(crate) fn report_marks(&self) -> Result<(), Status> {
        // SAFETY: a function of the loaded client with its declared type; the callback is a
        // function of hector's with the type the client calls, alive for the whole run.
        ok(unsafe { (self.set_callback)(Some(mark_reached)) })
    }

    /// Whether NVDA takes SSML: an NVDA older than its client (before 2024.1) answers that it
    /// does not know the call. Asked with nothing to say, without waiting.
    pub(crate) fn accepted(&self) -> bool {
        let nothing = wide("<speak></speak>");
        // SAFETY: as in `say_to_the_end`; asynchronous, so the call returns at once.
        let status = unsafe {
            (self.speak)(
                nothing.as_ptr(),
                SYMBOL_LEVEL_UNCHANGED,
                SPEECH_PRIORITY_NORMAL,
                1,
            )
        };
        status == 0
    }

    /// Says `ssml` and returns when NVDA has said it or was silenced (synchronously: the
    /// marks are reported during the call, on this thread).
    pub(crate) fn say_to_the_end(&self, ssml: &str) -> Result<(), Status> {
        let ssml = wide(ssml);
        // SAFETY: a NUL-terminated wide string that outlives the call, which only reads it;
        // the other arguments are plain values of the declared types.
        ok(unsafe {
            (self.speak)(
                ssml.as_ptr(),
                SYMBOL_LEVEL_UNCHANGED,
                SPEECH_PRIORITY_NORMAL,
                0,
            )
        })
    }
}

/// `speakText` alone, usable from any thread (a plain function pointer of the client).
#[derive(Clone, Copy)]
pub(crate) struct Plain(TextArg);

impl Plain {
    pub(crate) fn speak(&self, text: &str) -> Result<(), Status> {
        let text = wide(text);
        // SAFETY: as in `Nvda::speak`.
        ok(unsafe { (self.0)(text.as_ptr()) })
    }
}

fn ok(status: Status) -> Result<(), Status> {
    if status == 0 { Ok(()) } else { Err(status) }
}

/// Joins this thread to COM's multithreaded apartment (once per thread; again is harmless).
fn join_com() -> Result<(), String> {
    // SAFETY: no arguments but the apartment kind; the thread is never uninitialised, as its
    // objects live as long as it does.
    unsafe { CoInitializeEx(None, COINIT_MULTITHREADED) }
        .ok()
        .map_err(|e| format!("COM cannot start ({e})"))
}

/// Whether JAWS runs: its main window (class `JFWUI2`) exists. The automation object can be
/// made while JAWS is closed, so it alone does not tell.
pub(crate) fn jaws_running() -> bool {
    // SAFETY: a static wide string for the class, no window name.
    unsafe { FindWindowW(w!("JFWUI2"), PCWSTR::null()) }.is_ok()
}

/// JAWS, reached through its automation object by late binding (no type library needed).
pub(crate) struct Jaws {
    object: IDispatch,
    say_string: i32,
    stop_speech: i32,
}

/// The user's default locale, for the names of the automation object's methods.
const LOCALE_USER_DEFAULT: u32 = 0x400;

impl Jaws {
    /// Makes JAWS' automation object (`FreedomSci.JawsApi`) on this thread.
    pub(crate) fn open() -> Result<Jaws, String> {
        join_com()?;
        // SAFETY: a static wide string naming the class.
        let class = unsafe { CLSIDFromProgID(w!("FreedomSci.JawsApi")) }
            .map_err(|e| format!("FreedomSci.JawsApi is not registered ({e})"))?;
        // SAFETY: a class id just read from the registry; no outer object.
        let object: IDispatch =
            unsafe { CoCreateInstance(&class, None, CLSCTX_INPROC_SERVER | CLSCTX_LOCAL_SERVER) }
                .map_err(|e| format!("FreedomSci.JawsApi cannot be made ({e})"))?;
        let id = |name: &str| -> Result<i32, String> {
            let name = HSTRING::from(name);
            let names = [PCWSTR(name.as_ptr())];
            let mut id = 0;
            // SAFETY: one name, one id to write; both outlive the call.
            unsafe {
                object.GetIDsOfNames(
                    &GUID::zeroed(),
                    names.as_ptr(),
                    1,
                    LOCALE_USER_DEFAULT,
                    &mut id,
                )
            }
            .map_err(|e| format!("JAWS has no method {name} ({e})"))?;
            Ok(id)
        };
        let say_string = id("SayString")?;
        let stop_speech = id("StopSpeech")?;
        Ok(Jaws {
            object,
            say_string,
            stop_speech,
        })
    }

    fn call(&self, id: i32, mut args: Vec<VARIANT>) -> Result<(), String> {
        // IDispatch takes the arguments last first.
        args.reverse();
        let count = u32::try_from(args.len()).map_err(|e| e.to_string())?;
        let params = DISPPARAMS {
            rgvarg: args.as_mut_ptr(),
            rgdispidNamedArgs: std::ptr::null_mut(),
            cArgs: count,
            cNamedArgs: 0,
        };
        // The answer (a VARIANT_BOOL) is not read: never formatted, as wine cannot show one.
        let mut answer = VARIANT::default();
        // SAFETY: an id the object named, arguments that outlive the call, an answer to fill.
        unsafe {
            self.object.Invoke(
                id,
                &GUID::zeroed(),
                LOCALE_USER_DEFAULT,
                DISPATCH_METHOD,
                &params,
                Some(&mut answer),
                None,
                None,
            )
        }
        .map_err(|e| format!("JAWS refused ({e})"))
    }

    /// Says `text`; `interrupt` silences what JAWS says first.
    pub(crate) fn say(&self, text: &str, interrupt: bool) -> Result<(), String> {
        self.call(
            self.say_string,
            vec![VARIANT::from(text), VARIANT::from(interrupt)],
        )
    }

    /// Silences JAWS now.
    pub(crate) fn stop(&self) -> Result<(), String> {
        self.call(self.stop_speech, Vec::new())
    }
}

/// SAPI 5's voice (`SAPI.SpVoice`): speaks without waiting, can be asked whether it speaks.
pub(crate) struct Sapi {
    voice: ISpVoice,
}

impl Sapi {
    pub(crate) fn open() -> Result<Sapi, String> {
        join_com()?;
        // SAFETY: SAPI's registered class id; no outer object.
        let voice: ISpVoice = unsafe { CoCreateInstance(&SpVoice, None, CLSCTX_INPROC_SERVER) }
            .map_err(|e| format!("SAPI.SpVoice cannot be made ({e})"))?;
        Ok(Sapi { voice })
    }

    /// Starts saying `text` and returns; `purge` drops what SAPI still had to say.
    pub(crate) fn speak(&self, text: &str, purge: bool) -> Result<(), String> {
        let flags = SPF_ASYNC.0 | if purge { SPF_PURGEBEFORESPEAK.0 } else { 0 };
        let text = wide(text);
        // SAFETY: a NUL-terminated wide string that outlives the call (SAPI copies it for the
        // asynchronous speaking); flags from sapi.h; no stream number asked for.
        unsafe { self.voice.Speak(PCWSTR(text.as_ptr()), flags as u32, None) }
            .map_err(|e| format!("SAPI refused to speak ({e})"))
    }

    /// Silences the voice: what it says and what it had queued.
    pub(crate) fn stop(&self) -> Result<(), String> {
        // SAFETY: no text with the purge flag is SAPI's documented way to silence a voice.
        unsafe {
            self.voice.Speak(
                PCWSTR::null(),
                (SPF_ASYNC.0 | SPF_PURGEBEFORESPEAK.0) as u32,
                None,
            )
        }
        .map_err(|e| format!("SAPI cannot be silenced ({e})"))
    }

    pub(crate) fn is_speaking(&self) -> Result<bool, String> {
        let mut status = SPVOICESTATUS::default();
        let mut bookmark = PWSTR::null();
        // SAFETY: a status to fill and a place for the last bookmark, both on this frame.
        unsafe { self.voice.GetStatus(&mut status, &mut bookmark) }
            .map_err(|e| format!("SAPI does not say whether it speaks ({e})"))?;
        Ok(status.dwRunningState & SPRS_IS_SPEAKING.0 as u32 != 0)
    }

    /// The rate, SAPI's -10 (slowest) to 10 (fastest).
    pub(crate) fn set_rate(&self, rate: i32) -> Result<(), String> {
        // SAFETY: a number in SAPI's range.
        unsafe { self.voice.SetRate(rate.clamp(-10, 10)) }
            .map_err(|e| format!("SAPI refused the rate ({e})"))
    }

    /// The volume, 0 to 100.
    pub(crate) fn set_volume(&self, volume: u16) -> Result<(), String> {
        // SAFETY: a number in SAPI's range.
        unsafe { self.voice.SetVolume(volume.min(100)) }
            .map_err(|e| format!("SAPI refused the volume ({e})"))
    }
}

/// A snapshot of the running programs, closed when dropped.
struct Snapshot(HANDLE);

impl Drop for Snapshot {
    fn drop(&mut self) {
        // SAFETY: a handle this process opened and closes once.
        let _ = unsafe { CloseHandle(self.0) };
    }
}

/// Whether a program runs whose file name (`nvda.exe`) `name` accepts.
pub(crate) fn program_running(name: &dyn Fn(&str) -> bool) -> bool {
    // SAFETY: a snapshot of all processes; no process id needed.
    let Ok(handle) = (unsafe { CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0) }) else {
        return false;
    };
    let snapshot = Snapshot(handle);
    let mut entry = PROCESSENTRY32W {
        dwSize: std::mem::size_of::<PROCESSENTRY32W>() as u32,
        ..Default::default()
    };
    // SAFETY: an open snapshot and an entry whose size field is set, as the calls require.
    let mut next = unsafe { Process32FirstW(snapshot.0, &mut entry) };
    while next.is_ok() {
        let len = entry
            .szExeFile
            .iter()
            .position(|&c| c == 0)
            .unwrap_or(entry.szExeFile.len());
        if name(&String::from_utf16_lossy(&entry.szExeFile[..len])) {
            return true;
        }
        // SAFETY: as above.
        next = unsafe { Process32NextW(snapshot.0, &mut entry) };
    }
    false
}
