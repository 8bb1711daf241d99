//! The `tahur` command: parses arguments, calls the library, prints. Everything it computes
//! lives in the library (`tahur::…`); the command line, its words and its run path live here.

/// `eprintln!` that never panics: a message to a closed stderr (`tahur … 2>&1 | head`, then
/// Ctrl-C) is dropped instead of aborting the run that is printing what it computed.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod cli;

fn main() {
    std::process::exit(cli::main());
}
