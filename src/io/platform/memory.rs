//! The C allocator's tuning, where there is one to tune (glibc).
//!
//! Unsafe code: one call into the C library, which Rust cannot check; see its SAFETY note.
#![allow(unsafe_code, reason = "one call into glibc (none elsewhere)")]

/// Has the C allocator give large blocks back to the system when they are freed. By default
/// glibc raises its threshold for that after each such free, and then every worker thread of
/// `check` and `transcript` keeps the memory of the longest game it has read: resident memory
/// would grow with the number of jobs instead of with the games in flight. Other systems'
/// allocators give large blocks back by themselves.
pub(crate) fn return_large_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a tuning parameter of the allocator; any value is allowed, and
    // it is called before the worker threads start.
    unsafe {
        nix::libc::mallopt(nix::libc::M_MMAP_THRESHOLD, 256 * 1024);
    }
}
