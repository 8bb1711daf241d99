//! Whether a signal asked the process to stop. Set by the handler the runner installs
//! (Ctrl-C, SIGTERM, SIGHUP); read by every long loop, and by the progress display to say how
//! the work ended.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the first Ctrl-C (SIGINT), SIGTERM or SIGHUP; runs stop starting new chunks (and
/// every long command new units of work) once it is set.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Whether a signal asked the process to stop ([`INTERRUPTED`]).
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}
