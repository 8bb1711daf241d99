//! Whether a signal asked the process to stop, and which. Set by the handler the runner installs
//! (Ctrl-C, SIGTERM, SIGHUP); read by every long loop, and by the progress display to say how
//! the work ended. A run stopped by a signal exits with 128 + its number, as shells report a
//! process the signal killed: 130 for Ctrl-C (SIGINT), 143 for SIGTERM, 129 for SIGHUP.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// Set by the first Ctrl-C (SIGINT), SIGTERM or SIGHUP; runs stop starting new chunks (and
/// every long command new units of work, search bots new iterations) once it is set.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The number of the first signal that asked the process to stop (0: none seen yet).
static FIRST_SIGNAL: AtomicI32 = AtomicI32::new(0);

/// The number of the latest such signal (0: none seen yet).
static LATEST_SIGNAL: AtomicI32 = AtomicI32::new(0);

/// Signal number of SIGINT (Ctrl-C), the same on every system.
const SIGINT: i32 = 2;

/// Whether a signal asked the process to stop ([`INTERRUPTED`]).
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

thread_local! {
    /// Whether a loop inside this thread's current unit of work (a chunk) stopped part-way.
    static CUT_SHORT: Cell<bool> = const { Cell::new(false) };
}

/// For loops inside a unit of work (a search bot's iterations): whether a signal asks to stop
/// now. When it does, the unit this thread runs is marked cut short ([`take_cut_short`]), so
/// the runner drops its tally instead of counting a half-searched game.
#[inline]
pub fn stop_inside() -> bool {
    if interrupted() {
        CUT_SHORT.with(|c| c.set(true));
        true
    } else {
        false
    }
}

/// Whether [`stop_inside`] stopped a loop on this thread since the last call (and clears it).
pub fn take_cut_short() -> bool {
    CUT_SHORT.with(|c| c.replace(false))
}

/// The exit code of a run the first stopping signal ended: 128 + its number (130 when the
/// signal is not known, as after Ctrl-C on systems without numbered signals).
pub fn exit_code() -> i32 {
    128 + known_or_sigint(FIRST_SIGNAL.load(Ordering::SeqCst))
}

/// The exit code when a second signal quits at once: 128 + that signal's number.
pub fn exit_code_now() -> i32 {
    128 + known_or_sigint(LATEST_SIGNAL.load(Ordering::SeqCst))
}

fn known_or_sigint(signal: i32) -> i32 {
    if signal > 0 {
        signal
    } else {
        SIGINT
    }
}

/// Records `signal` as seen: the first one decides the exit code of a stopped run.
pub fn record(signal: i32) {
    let _ = FIRST_SIGNAL.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
    LATEST_SIGNAL.store(signal, Ordering::SeqCst);
}

/// Makes SIGINT, SIGTERM and SIGHUP also record which of them arrived ([`record`]) before the
/// handler already installed for them (ctrlc's, which cannot tell them apart) runs. Call it once,
/// right after installing that handler.
#[cfg(unix)]
pub fn record_which() {
    use std::sync::atomic::AtomicUsize;
    /// The handlers found for SIGINT, SIGTERM and SIGHUP, as addresses (0: none to call).
    static CHAINED: [AtomicUsize; 3] = [
        AtomicUsize::new(0),
        AtomicUsize::new(0),
        AtomicUsize::new(0),
    ];
    const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

    extern "C" fn on_signal(signal: libc::c_int) {
        // Only atomics and the chained handler: nothing here may allocate or lock.
        record(signal);
        if let Some(k) = SIGNALS.iter().position(|&s| s == signal) {
            let next = CHAINED[k].load(Ordering::SeqCst);
            if next != 0 {
                // SAFETY: `next` is the address of a one-argument C handler (`sa_handler`),
                // checked when it was stored.
                let handler: extern "C" fn(libc::c_int) = unsafe { std::mem::transmute(next) };
                handler(signal);
            }
        }
    }

    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        for (k, &signal) in SIGNALS.iter().enumerate() {
            // SAFETY: sigaction is given valid, zero-initialised structures; the new handler
            // only touches atomics and calls the handler it replaces.
            unsafe {
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(signal, std::ptr::null(), &mut old) != 0 {
                    continue;
                }
                let previous = old.sa_sigaction;
                // Chain only a plain handler: not the default action nor "ignore", and not a
                // three-argument one (SA_SIGINFO), which ctrlc does not install.
                if previous == libc::SIG_DFL
                    || previous == libc::SIG_IGN
                    || old.sa_flags & libc::SA_SIGINFO != 0
                {
                    continue;
                }
                CHAINED[k].store(previous, Ordering::SeqCst);
                let mut new = old;
                new.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as usize;
                libc::sigaction(signal, &new, std::ptr::null_mut());
            }
        }
    });
}

/// Elsewhere every stop counts as Ctrl-C (exit 130).
#[cfg(not(unix))]
pub fn record_which() {}
