//! The games. Each game is one folder: its rules and options, its engine, its bots and its exact
//! analysis. Games with whole games implement the [`crate::play`] traits and are listed once in
//! [`with_games`](crate::with_games): that list gives each of them `sim`, `compare`, `tournament` and `flags` on the
//! command line, in jobs and in shard files.

pub mod domino;
pub mod dudo;
pub mod durak;
pub mod ocho;
pub mod poker;
pub mod veintiuno;

/// Calls the macro `$m` with every game of the whole-game layer, as `Name => path::Marker`.
/// Adding a game to tahur is its folder and one line here.
#[macro_export]
macro_rules! with_games {
    ($m:ident) => {
        $m! {
            Dudo => $crate::games::dudo::Dudo,
            Durak => $crate::games::durak::Durak,
            Poker => $crate::games::poker::Poker,
            Ocho => $crate::games::ocho::Ocho,
            Veintiuno => $crate::games::veintiuno::Veintiuno,
            Domino => $crate::games::domino::Domino,
        }
    };
}
