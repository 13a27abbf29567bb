//! The Unix implementation: `dlopen`, `dlsym`, `dlerror`.
//!
//! Unsafe code: the loader's calls, and turning a symbol's address into a function of the
//! type its caller names; see their SAFETY notes.
#![expect(
    unsafe_code,
    reason = "the loader's calls and a symbol's address as a function"
)]

use std::ffi::{CStr, CString, c_void};

/// A shared library, loaded for the rest of the run.
pub(crate) struct Library(*mut c_void);

impl Library {
    /// Loads the library `name` (as the loader finds it: `libpocketsphinx.so.3`); the
    /// loader's words when it cannot.
    pub(crate) fn open(name: &str) -> Result<Library, String> {
        let cname = CString::new(name).map_err(|e| e.to_string())?;
        // SAFETY: dlopen with a C string; the library's initialisers are C code that touches
        // only its own state.
        let lib = unsafe { nix::libc::dlopen(cname.as_ptr(), nix::libc::RTLD_NOW) };
        if lib.is_null() {
            // SAFETY: dlerror returns the loader's message for the failure just seen, or null.
            let why = unsafe { nix::libc::dlerror() };
            return Err(if why.is_null() {
                format!("{name} cannot be loaded")
            } else {
                // SAFETY: a non-null dlerror is a NUL-terminated string valid until the next
                // dl call on this thread; it is copied at once.
                unsafe { CStr::from_ptr(why) }
                    .to_string_lossy()
                    .into_owned()
            });
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
        // SAFETY: `self.0` is a handle dlopen returned; `cname` is a C string.
        let found = unsafe { nix::libc::dlsym(self.0, cname.as_ptr()) };
        if found.is_null() {
            return None;
        }
        // SAFETY: a function pointer has the size of a data pointer on the platforms hector
        // runs on, and the caller gives the function's declared type.
        Some(unsafe { std::mem::transmute_copy::<*mut c_void, T>(&found) })
    }
}
