//! The Windows implementation: `LoadLibraryW`, `GetProcAddress`.
//!
//! Unsafe code: the loader's calls, and turning a symbol's address into a function of the
//! type its caller names; see their SAFETY notes.
#![allow(
    unsafe_code,
    reason = "the loader's calls and a symbol's address as a function"
)]

use std::ffi::CString;
use std::os::windows::ffi::OsStrExt;

use windows_sys::Win32::Foundation::HMODULE;
use windows_sys::Win32::System::LibraryLoader::{GetProcAddress, LoadLibraryW};

/// A shared library (a DLL), loaded for the rest of the run.
pub(crate) struct Library(HMODULE);

impl Library {
    /// Loads the DLL `name` (as Windows finds it: the program's folder first); the system's
    /// words when it cannot.
    pub(crate) fn open(name: &str) -> Result<Library, String> {
        let wide: Vec<u16> = std::ffi::OsStr::new(name)
            .encode_wide()
            .chain(std::iter::once(0))
            .collect();
        // SAFETY: a NUL-terminated wide string that outlives the call; the DLL's
        // initialisation is its own code.
        let lib = unsafe { LoadLibraryW(wide.as_ptr()) };
        if lib.is_null() {
            return Err(format!(
                "{name} cannot be loaded: {}",
                std::io::Error::last_os_error()
            ));
        }
        Ok(Library(lib))
    }

    /// The function `name` of the library, as a value of type `T`; `None` when the library
    /// has no such symbol.
    ///
    /// # Safety
    /// `T` must be the function pointer type the library declares for `name`.
    pub(crate) unsafe fn symbol<T: Copy>(&self, name: &str) -> Option<T> {
        let cname = CString::new(name).ok()?;
        // SAFETY: `self.0` is a module LoadLibraryW returned; `cname` is a C string.
        let found = unsafe { GetProcAddress(self.0, cname.as_ptr().cast()) }?;
        // SAFETY: the caller gives the function's declared type, a function pointer as
        // GetProcAddress's answer is.
        Some(unsafe { std::mem::transmute_copy::<_, T>(&found) })
    }
}
