//! The `tahur` command: all of it lives in the library's [`tahur::cli`].

fn main() {
    std::process::exit(tahur::cli::main());
}
