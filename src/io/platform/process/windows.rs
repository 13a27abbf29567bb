//! The Windows implementation: no console window for a child (`CREATE_NO_WINDOW`, which also
//! keeps Ctrl+C in hector's console from reaching it), and a job object per child with
//! `JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE`: ending the job ends the child and what it started,
//! and the system ends it when its last handle closes, also when hector is killed. Exit
//! codes are named as the system's statuses (0xC0000005), not signals.
//!
//! Unsafe code: the job object calls of Win32, each on a handle this module holds, and the
//! thread's times.
#![allow(
    unsafe_code,
    reason = "Win32's job object calls and the thread's times"
)]

use std::os::windows::io::{AsRawHandle, FromRawHandle, OwnedHandle};
use std::os::windows::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus};

use windows_sys::Win32::System::JobObjects::{
    AssignProcessToJobObject, CreateJobObjectW, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION, JobObjectExtendedLimitInformation,
    SetInformationJobObject, TerminateJobObject,
};
use windows_sys::Win32::System::Threading::CREATE_NO_WINDOW;

use super::Exit;

/// Has `command` start without a console window of its own. The job that binds it to
/// hector is made as soon as it runs ([`Tree::of`]).
pub(crate) fn bind(command: &mut Command) -> &mut Command {
    command.creation_flags(CREATE_NO_WINDOW)
}

/// A started program and everything it started: a job object that ends them all when it is
/// ended or when its last handle closes.
#[derive(Debug)]
pub(crate) struct Tree {
    job: Option<OwnedHandle>,
}

/// A new job whose processes end when its last handle closes.
fn kill_on_close_job() -> Option<OwnedHandle> {
    // SAFETY: a new, unnamed job with default security; the handle is owned at once. The
    // limit information is a plain struct, all zero but the flag.
    unsafe {
        let raw = CreateJobObjectW(std::ptr::null(), std::ptr::null());
        if raw.is_null() {
            return None;
        }
        let job = OwnedHandle::from_raw_handle(raw);
        let mut info: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = std::mem::zeroed();
        info.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
        let size = u32::try_from(size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>()).ok()?;
        let set = SetInformationJobObject(
            job.as_raw_handle(),
            JobObjectExtendedLimitInformation,
            std::ptr::from_ref(&info).cast(),
            size,
        );
        (set != 0).then_some(job)
    }
}

impl Tree {
    /// Puts `child` into a job of its own. It ran for a moment before (std starts it), which
    /// matters only for a program that starts others at once; an engine does not.
    pub(crate) fn of(child: &Child) -> Tree {
        let job = kill_on_close_job().filter(|job| {
            // SAFETY: the job above and the child's process handle, both open.
            unsafe { AssignProcessToJobObject(job.as_raw_handle(), child.as_raw_handle()) != 0 }
        });
        Tree { job }
    }

    /// Ends every process of the job. A child that could not be put in one is ended by its
    /// caller (`Child::kill`), as every caller does after this.
    pub(crate) fn kill(&self) {
        if let Some(job) = &self.job {
            // SAFETY: the job's handle, open while `self` lives.
            unsafe {
                TerminateJobObject(job.as_raw_handle(), 1);
            }
        }
    }

    /// Whether [`Tree::kill`] ends the child itself too: only when it is in the job.
    pub(crate) fn holds_all(&self) -> bool {
        self.job.is_some()
    }
}

/// Whether `child` has ended. Its handle stays open in `child` until it is dropped, so its
/// number is not given to another process meanwhile.
pub(crate) fn has_ended(child: &mut Child) -> bool {
    !matches!(child.try_wait(), Ok(None))
}

/// How a program ended.
pub(crate) fn exit_of(status: ExitStatus) -> Option<Exit> {
    status
        .code()
        .map(|code| Exit::from_windows_code(code.cast_unsigned()))
}

/// Windows has no signals.
pub(crate) fn signal_name(_sig: i32) -> Option<&'static str> {
    None
}

/// Whether the file at `p` is a program hector may start: a file named `*.exe`.
pub(crate) fn is_executable(p: &Path) -> bool {
    std::fs::metadata(p).is_ok_and(|m| m.is_file())
        && p.extension().is_some_and(|e| e.eq_ignore_ascii_case("exe"))
}

/// Why a file is not a program hector may start, in English.
pub(crate) const NOT_EXECUTABLE: &str = "it is not a Windows program (a file named .exe)";

/// The file name of a program called `name`: `stockfish` is `stockfish.exe`.
pub(crate) fn program_file(name: &str) -> String {
    if Path::new(name).extension().is_some() {
        name.to_string()
    } else {
        format!("{name}.exe")
    }
}

/// Where programs are looked for after the folders of PATH: beside hector.exe, then in
/// hector's data folder. Never the current folder.
pub(crate) fn program_dirs() -> Vec<PathBuf> {
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(Path::to_path_buf));
    beside
        .into_iter()
        .chain(super::super::folders::data())
        .collect()
}

/// The processor time this thread has used (kernel and user).
pub(crate) fn thread_cpu_time() -> std::time::Duration {
    use windows_sys::Win32::Foundation::FILETIME;
    use windows_sys::Win32::System::Threading::{GetCurrentThread, GetThreadTimes};
    let zero = FILETIME {
        dwLowDateTime: 0,
        dwHighDateTime: 0,
    };
    let (mut created, mut exited, mut kernel, mut user) = (zero, zero, zero, zero);
    // SAFETY: the current thread's pseudo-handle and four times to write to.
    let ok = unsafe {
        GetThreadTimes(
            GetCurrentThread(),
            &mut created,
            &mut exited,
            &mut kernel,
            &mut user,
        )
    };
    if ok == 0 {
        return std::time::Duration::ZERO;
    }
    // In units of 100 ns.
    let ticks = |t: FILETIME| u64::from(t.dwHighDateTime) << 32 | u64::from(t.dwLowDateTime);
    std::time::Duration::from_nanos((ticks(kernel) + ticks(user)).saturating_mul(100))
}
