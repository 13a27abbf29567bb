//! The Windows implementation: a link is opened as itself (`FILE_FLAG_OPEN_REPARSE_POINT`)
//! and then refused by its kind, hard links are counted by `GetFileInformationByHandle`,
//! owner-only is a protected access list with one entry allowing the user everything, a
//! folder is opened with `FILE_FLAG_BACKUP_SEMANTICS` to make its entries durable.
//!
//! Unsafe code: the security and file-information calls of Win32, which Rust cannot check.
//! Each hands the system buffers it sized or got from the system, and frees what the system
//! allocated with the function the system names (`LocalFree`).
#![allow(unsafe_code, reason = "Win32's security and file-information calls")]

use std::fs::{File, Metadata, OpenOptions};
use std::io;
use std::os::windows::fs::OpenOptionsExt;
use std::os::windows::io::AsRawHandle;
use std::path::Path;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use windows_sys::Win32::Foundation::{
    CloseHandle, ERROR_ACCESS_DENIED, ERROR_SHARING_VIOLATION, ERROR_STOPPED_ON_SYMLINK,
    ERROR_SUCCESS, HANDLE, LocalFree,
};
use windows_sys::Win32::Security::Authorization::{
    EXPLICIT_ACCESS_W, GetSecurityInfo, NO_MULTIPLE_TRUSTEE, SE_FILE_OBJECT, SET_ACCESS,
    SetEntriesInAclW, SetSecurityInfo, TRUSTEE_IS_SID, TRUSTEE_IS_USER, TRUSTEE_W,
};
use windows_sys::Win32::Security::{
    ACL, ACL_REVISION, DACL_SECURITY_INFORMATION, EqualSid, GetLengthSid, GetTokenInformation,
    InitializeAcl, NO_INHERITANCE, OWNER_SECURITY_INFORMATION, PROTECTED_DACL_SECURITY_INFORMATION,
    PSECURITY_DESCRIPTOR, PSID, TOKEN_QUERY, TOKEN_USER, TokenUser,
    UNPROTECTED_DACL_SECURITY_INFORMATION,
};
use windows_sys::Win32::Storage::FileSystem::{
    BY_HANDLE_FILE_INFORMATION, FILE_ALL_ACCESS, FILE_FLAG_BACKUP_SEMANTICS,
    FILE_FLAG_DELETE_ON_CLOSE, FILE_FLAG_OPEN_REPARSE_POINT, FILE_GENERIC_WRITE,
    FILE_READ_ATTRIBUTES, FILE_WRITE_DATA, GetFileInformationByHandle, WRITE_DAC,
};
use windows_sys::Win32::System::Threading::{GetCurrentProcess, OpenProcessToken};

use super::{Kind, Privacy};

/// How long a rename is tried again while another program holds the file.
const RENAME_PATIENCE: Duration = Duration::from_secs(1);

/// The kind of a file from its metadata (from `symlink_metadata` a link or a junction is a
/// link). Windows has no named pipes or sockets in folders.
pub(crate) fn kind(meta: &Metadata) -> Kind {
    let t = meta.file_type();
    if t.is_symlink() {
        Kind::SymbolicLink
    } else if t.is_file() {
        Kind::File
    } else if t.is_dir() {
        Kind::Directory
    } else {
        Kind::Device
    }
}

/// The number of names of the file behind an open handle.
fn handle_links(handle: HANDLE) -> Option<u64> {
    // SAFETY: an all-zero BY_HANDLE_FILE_INFORMATION is a valid value of the plain struct,
    // which the call fills; `handle` is open for the duration of the call.
    unsafe {
        let mut info: BY_HANDLE_FILE_INFORMATION = std::mem::zeroed();
        (GetFileInformationByHandle(handle, &mut info) != 0)
            .then_some(u64::from(info.nNumberOfLinks))
    }
}

/// How many names the file at `path` has (hard links); `meta` is what was seen there.
pub(crate) fn links(path: &Path, meta: &Metadata) -> u64 {
    if !meta.is_file() {
        return 1;
    }
    // Only its attributes are asked, of the name itself (never a link's target).
    OpenOptions::new()
        .access_mode(FILE_READ_ATTRIBUTES)
        .custom_flags(FILE_FLAG_OPEN_REPARSE_POINT | FILE_FLAG_BACKUP_SEMANTICS)
        .open(path)
        .ok()
        .and_then(|f| handle_links(f.as_raw_handle()))
        .unwrap_or(1)
}

/// How many names the open `file` has (hard links).
pub(crate) fn file_links(file: &File, _meta: &Metadata) -> u64 {
    handle_links(file.as_raw_handle()).unwrap_or(1)
}

/// Who owns a file, as far as a replacement keeps it: on Windows nobody of its own (the new
/// file is the user's, with the folder's permissions), so any two are alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Owner;

/// The file's owner, as far as a replacement keeps it.
pub(crate) fn owner(_meta: &Metadata) -> Owner {
    Owner
}

/// Gives the open file an owner: nothing to do (see [`Owner`]).
pub(crate) fn set_owner(_file: &File, _owner: Owner) -> io::Result<()> {
    Ok(())
}

/// The permissions a replacement keeps: those the folder gives (no bits of their own).
pub(crate) fn mode(_meta: &Metadata) -> u32 {
    0
}

/// Gives the open file (made owner-only by [`create_new`]) the permissions its folder
/// passes on, as any new file there has.
pub(crate) fn set_mode(file: &File, _mode: u32) -> io::Result<()> {
    apply(file, &Acl::empty()?, UNPROTECTED_DACL_SECURITY_INFORMATION)
}

/// The user hector runs as, as a security identifier (copied out of the process's token).
pub(crate) struct Sid(Vec<u8>);

impl Sid {
    fn as_psid(&self) -> PSID {
        self.0.as_ptr().cast_mut().cast()
    }
}

/// Who hector runs as, read once.
pub(crate) fn user_sid() -> io::Result<&'static Sid> {
    static USER: OnceLock<Result<Sid, i32>> = OnceLock::new();
    USER.get_or_init(|| read_user_sid().map_err(|e| e.raw_os_error().unwrap_or(0)))
        .as_ref()
        .map_err(|&code| io::Error::from_raw_os_error(code))
}

fn read_user_sid() -> io::Result<Sid> {
    // SAFETY: the token handle is closed on every way out; GetTokenInformation writes at
    // most `len` bytes into a buffer of that size, aligned for TOKEN_USER (u64 words); the
    // SID it points to lies inside that buffer and is copied (GetLengthSid bytes) before
    // the buffer goes.
    unsafe {
        let mut token: HANDLE = std::ptr::null_mut();
        if OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &mut token) == 0 {
            return Err(io::Error::last_os_error());
        }
        let mut len = 0u32;
        GetTokenInformation(token, TokenUser, std::ptr::null_mut(), 0, &mut len);
        let mut buf = vec![0u64; (len as usize).div_ceil(8).max(1)];
        let ok = GetTokenInformation(token, TokenUser, buf.as_mut_ptr().cast(), len, &mut len);
        let error = io::Error::last_os_error();
        CloseHandle(token);
        if ok == 0 {
            return Err(error);
        }
        let user = &*buf.as_ptr().cast::<TOKEN_USER>();
        let sid = user.User.Sid;
        let n = GetLengthSid(sid) as usize;
        Ok(Sid(std::slice::from_raw_parts(sid.cast::<u8>(), n).to_vec()))
    }
}

/// An access list: one the system allocated (freed when dropped), or an empty one of our
/// own. Never a null list, which would let everyone in.
pub(crate) enum Acl {
    System(*mut ACL),
    Empty(Box<[u64; 2]>),
}

impl Drop for Acl {
    fn drop(&mut self) {
        if let Acl::System(acl) = self
            && !acl.is_null()
        {
            // SAFETY: the list came from SetEntriesInAclW, which allocates with LocalAlloc.
            unsafe { LocalFree(acl.cast()) };
        }
    }
}

impl Acl {
    fn as_ptr(&self) -> *const ACL {
        match self {
            Acl::System(acl) => acl.cast_const(),
            Acl::Empty(words) => words.as_ptr().cast(),
        }
    }

    /// A list without entries: with the folder's entries added, a file has exactly those.
    pub(crate) fn empty() -> io::Result<Acl> {
        let mut words = Box::new([0u64; 2]);
        // SAFETY: 16 bytes, aligned, hold an ACL header (8 bytes) and nothing else.
        let ok = unsafe { InitializeAcl(words.as_mut_ptr().cast(), 16, ACL_REVISION) };
        if ok == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(Acl::Empty(words))
    }

    /// One entry allowing `user` everything on the file.
    pub(crate) fn owner_only(user: &Sid) -> io::Result<Acl> {
        let entry = EXPLICIT_ACCESS_W {
            grfAccessPermissions: FILE_ALL_ACCESS,
            grfAccessMode: SET_ACCESS,
            grfInheritance: NO_INHERITANCE,
            Trustee: TRUSTEE_W {
                pMultipleTrustee: std::ptr::null_mut(),
                MultipleTrusteeOperation: NO_MULTIPLE_TRUSTEE,
                TrusteeForm: TRUSTEE_IS_SID,
                TrusteeType: TRUSTEE_IS_USER,
                ptstrName: user.as_psid().cast(),
            },
        };
        let mut acl: *mut ACL = std::ptr::null_mut();
        // SAFETY: one initialised entry whose SID outlives the call; the new list is written
        // to `acl` and owned by the returned value.
        let r = unsafe { SetEntriesInAclW(1, &entry, std::ptr::null(), &mut acl) };
        if r != ERROR_SUCCESS || acl.is_null() {
            return Err(io::Error::from_raw_os_error(r as i32));
        }
        Ok(Acl::System(acl))
    }

    /// The entries: (type, access mask, whether it names `sid`), for the tests.
    #[cfg(test)]
    fn entries(&self, sid: &Sid) -> Vec<(u8, u32, bool)> {
        use windows_sys::Win32::Security::{ACCESS_ALLOWED_ACE, GetAce};
        let mut out = Vec::new();
        // SAFETY: the list is valid while `self` lives; GetAce points into it, and an
        // ACCESS_ALLOWED_ACE's SID starts at its SidStart field.
        unsafe {
            let acl = self.as_ptr();
            for i in 0..u32::from((*acl).AceCount) {
                let mut ace: *mut core::ffi::c_void = std::ptr::null_mut();
                if GetAce(acl, i, &mut ace) == 0 {
                    continue;
                }
                let allowed = &*ace.cast::<ACCESS_ALLOWED_ACE>();
                let ace_sid: PSID = std::ptr::from_ref(&allowed.SidStart).cast_mut().cast();
                out.push((
                    allowed.Header.AceType,
                    allowed.Mask,
                    EqualSid(ace_sid, sid.as_psid()) != 0,
                ));
            }
        }
        out
    }
}

/// Sets the access list of the open file (which must allow WRITE_DAC): `how` is
/// PROTECTED_ (nothing inherited from the folder) or UNPROTECTED_ (the folder's entries
/// added).
fn apply(file: &File, acl: &Acl, how: u32) -> io::Result<()> {
    // SAFETY: an open handle and a valid list, both alive across the call; owner and group
    // are not changed (null).
    let r = unsafe {
        SetSecurityInfo(
            file.as_raw_handle(),
            SE_FILE_OBJECT,
            DACL_SECURITY_INFORMATION | how,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            acl.as_ptr(),
            std::ptr::null(),
        )
    };
    if r != ERROR_SUCCESS {
        return Err(io::Error::from_raw_os_error(r as i32));
    }
    Ok(())
}

/// Makes the open file readable and writable by the user only: a protected list (nothing
/// inherited from the folder) with one entry. The file must be open with WRITE_DAC, as
/// [`create_new`] and [`open_append_no_follow`] open an owner-only file.
pub(crate) fn make_private(file: &File, _meta: &Metadata) -> io::Result<()> {
    let acl = Acl::owner_only(user_sid()?)?;
    apply(file, &acl, PROTECTED_DACL_SECURITY_INFORMATION)
}

/// Whether the open file's owner is the user hector runs as.
pub(crate) fn is_mine(file: &File, _meta: &Metadata) -> bool {
    let Ok(user) = user_sid() else {
        return false;
    };
    let mut owner: PSID = std::ptr::null_mut();
    let mut descriptor: PSECURITY_DESCRIPTOR = std::ptr::null_mut();
    // SAFETY: an open handle (read access includes READ_CONTROL); `owner` points into the
    // descriptor the system allocates, which is freed after the comparison.
    unsafe {
        let r = GetSecurityInfo(
            file.as_raw_handle(),
            SE_FILE_OBJECT,
            OWNER_SECURITY_INFORMATION,
            &mut owner,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            &mut descriptor,
        );
        let mine = r == ERROR_SUCCESS && !owner.is_null() && EqualSid(owner, user.as_psid()) != 0;
        if !descriptor.is_null() {
            LocalFree(descriptor);
        }
        mine
    }
}

/// Whether hector may write the file at `path` (its owner may have made it read-only).
pub(crate) fn may_write(path: &Path) -> io::Result<()> {
    if std::fs::metadata(path)?.permissions().readonly() {
        return Err(io::Error::from(io::ErrorKind::PermissionDenied));
    }
    Ok(())
}

/// Whether an open refused because of a symbolic link. The opens here take a link as itself
/// and the caller refuses it by its kind; the system refuses this way only in the middle of
/// a path.
pub(crate) fn is_link_refusal(e: &io::Error) -> bool {
    e.raw_os_error() == Some(ERROR_STOPPED_ON_SYMLINK as i32)
}

/// Opens `path` for reading; a link at its end is opened as itself, not followed (its
/// metadata then says so).
pub(crate) fn open_read_no_follow(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .read(true)
        .custom_flags(FILE_FLAG_OPEN_REPARSE_POINT)
        .open(path)
}

/// Appending without the right to overwrite (as std's append asks), and the right to set
/// the access list of an owner-only file.
const APPEND_PRIVATE: u32 = (FILE_GENERIC_WRITE & !FILE_WRITE_DATA) | WRITE_DAC;

/// Opens `path` for appending, made when missing, a link at its end taken as itself. An
/// owner-only file is opened so that [`make_private`] can set its access list.
pub(crate) fn open_append_no_follow(path: &Path, privacy: Privacy) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options
        .append(true)
        .create(true)
        .custom_flags(FILE_FLAG_OPEN_REPARSE_POINT);
    if privacy == Privacy::Owner {
        options.access_mode(APPEND_PRIVATE);
    }
    options.open(path)
}

/// Opens an existing file for reading and appending, a link at the end of `path` taken as
/// itself.
pub(crate) fn open_read_append_no_follow(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .read(true)
        .append(true)
        .custom_flags(FILE_FLAG_OPEN_REPARSE_POINT)
        .open(path)
}

/// Creates a new file at `path` (never one that exists). An owner-only file gets its access
/// list before anything is written into it.
pub(crate) fn create_new(path: &Path, privacy: Privacy) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    if privacy == Privacy::Owner {
        options.access_mode(FILE_GENERIC_WRITE | WRITE_DAC);
    }
    let file = options.open(path)?;
    if privacy == Privacy::Owner {
        let meta = file.metadata()?;
        if let Err(e) = make_private(&file, &meta) {
            drop(file);
            let _ = std::fs::remove_file(path);
            return Err(e);
        }
    }
    Ok(file)
}

/// Whether another program holds the file for a moment.
fn held(e: &io::Error) -> bool {
    matches!(
        e.raw_os_error().and_then(|c| u32::try_from(c).ok()),
        Some(ERROR_ACCESS_DENIED | ERROR_SHARING_VIOLATION)
    )
}

/// Renames `from` over `to` in one step (the same folder). A virus scanner or the search
/// indexer may hold `to` open for a moment: the rename is tried again for up to a second.
pub(crate) fn replace(from: &Path, to: &Path) -> io::Result<()> {
    let deadline = Instant::now() + RENAME_PATIENCE;
    loop {
        match std::fs::rename(from, to) {
            Err(e) if held(&e) && Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(50));
            }
            done => return done,
        }
    }
}

/// Makes the folder's entries durable. A folder opens only with FILE_FLAG_BACKUP_SEMANTICS;
/// a file system that refuses to flush one keeps its entries by itself (NTFS journals them):
/// nothing to do then.
pub(crate) fn sync_dir(dir: &Path) -> io::Result<()> {
    let folder = match OpenOptions::new()
        .write(true)
        .custom_flags(FILE_FLAG_BACKUP_SEMANTICS)
        .open(dir)
    {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => return Ok(()),
        Err(e) => return Err(e),
    };
    match folder.sync_all() {
        Err(e) if matches!(e.kind(), io::ErrorKind::PermissionDenied) => Ok(()),
        // ERROR_INVALID_FUNCTION: the file system has no flush for folders.
        Err(e) if e.raw_os_error() == Some(1) => Ok(()),
        done => done,
    }
}

/// Makes `link` a symbolic link to the file `target`.
pub(crate) fn symlink(target: &Path, link: &Path) -> io::Result<()> {
    std::os::windows::fs::symlink_file(target, link)
}

/// Creates a new file at `path` for reading and writing that the system deletes when it is
/// closed (`FILE_FLAG_DELETE_ON_CLOSE`), also when hector is killed.
pub(crate) fn create_scratch(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .custom_flags(FILE_FLAG_DELETE_ON_CLOSE)
        .open(path)
}

/// Reads from `file` at `offset`. Windows moves the handle's cursor; every user of a
/// scratch file reads and writes at offsets of its own, so no one relies on it.
pub(crate) fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, offset)
}

/// Writes all of `buf` to `file` at `offset` (see [`read_at`] for the cursor).
pub(crate) fn write_all_at(file: &File, mut buf: &[u8], mut offset: u64) -> io::Result<()> {
    while !buf.is_empty() {
        match std::os::windows::fs::FileExt::seek_write(file, buf, offset) {
            Ok(0) => return Err(io::Error::from(io::ErrorKind::WriteZero)),
            Ok(n) => {
                buf = &buf[n..];
                offset += n as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The list an owner-only file gets: one entry, allowing, everything, for this user.
    #[test]
    fn the_owner_only_list_has_one_entry_allowing_the_user_everything() {
        let user = user_sid().expect("the user's SID");
        let acl = Acl::owner_only(user).expect("the list");
        // ACCESS_ALLOWED_ACE_TYPE is 0.
        assert_eq!(acl.entries(user), [(0, FILE_ALL_ACCESS, true)]);
        let empty = Acl::empty().expect("an empty list");
        assert!(empty.entries(user).is_empty());
    }

    #[test]
    fn an_owner_only_file_is_made_and_is_mine() {
        let dir = std::env::temp_dir().join(format!("hector-acl-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("folder");
        let path = dir.join("token");
        let file = create_new(&path, Privacy::Owner).expect("created");
        let meta = file.metadata().expect("metadata");
        assert!(is_mine(&file, &meta));
        assert_eq!(file_links(&file, &meta), 1);
        drop(file);
        sync_dir(&dir).expect("the folder is synced or needs nothing");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
