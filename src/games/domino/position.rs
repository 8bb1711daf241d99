//! Dominó positions as players write them: one line of `key: value` items separated by `;`,
//! everything the player to act sees at one decision, read back to exactly the view it was
//! written from.
//!
//! ```text
//! seat: 4; hand: 6-0, 5-3, 3-1, 2-1; line: 1-0 0-2 2-4 4-4 4-1 1-6 6-4 4-0; hands: 4 4 4 4;
//! boneyard: 4; opener: seat 2; passed: seat 2 on 4, seat 3 on 0 1; left: 1 0 0 2
//! ```
//!
//! (seat 4 to play against the ends 1 and 0, its partner, seat 2, having passed on the 4s.)
//!
//! Seats are numbered from 1 in turn order (with four in pairs, seats 1 and 3 against 2 and 4);
//! tiles are written `6-4` or as [`Tile::parse`] reads them (`64`, `6:4`, `doble seis`,
//! `blanca`). The keys (Spanish names read too):
//!
//! - `rules`: the rules that differ from the standard table for the players, as
//!   `key=value, …` (`score=all-fives, to=100`), checked against the table's rules.
//! - `seat`: the player to act, whose position it is; `hand`: that player's tiles.
//! - `line`: the line of play, the tiles on the table in order from one end to the other, each
//!   against the number the one before it leaves (`4-2 2-6 6-6 6-3`, either way round). With
//!   `--cross` or `--tree` the table lays out in arms instead: `table:` its tiles (any order)
//!   and `ends:` every open end, a number for the outer half of a tile (`4`) and the double for
//!   an open side of a double (`5-5`; an uncovered cross shows its double up to four times);
//!   with `--cross`, `cross:` the double that opened as the cross. `table:` and `ends:` read
//!   for a line too. A view keeps the tiles and the open ends, not the order they were placed
//!   in, so `position` writes a line that fits them: any line with those tiles and ends plays
//!   the same from here.
//! - `hands`: every seat's number of tiles, in seat order (yours included).
//! - `boneyard`: the sleeping tiles (optional: what the set leaves).
//! - `opener`: the seat that opened this game.
//! - `passed`: the numbers each seat is known to lack, because it passed (knocked) on them or
//!   drew on them: `seat 3 on 4, seat 2 on 1 5`. The deal of the hidden tiles gives nobody a
//!   tile showing a number they passed on.
//! - `left`: the number each seat's last tile left on an end, by seat, `-` for none yet
//!   (`left: 3 - 6 2`; the bots read their partner's play from it).
//! - `out`: with `--both-partners`, the seats that went out.
//! - `points`: all fives or fives and threes, each side's points in this game so far.
//! - `match`: with `--to N`, each side's points from the match's earlier games (pair 1 first).
//! - `games`, `first opener`, `tiles before`: the match's games (this one included), its first
//!   opener and the tiles placed in its earlier games. They change no advice; by default the
//!   fewest that fit (1 game, or 2 once the match has points; this game's opener; a tile a game).
//! - `missed`: a score the player before failed to announce, which the player to act may call
//!   muggins on; `decided: domino` or `blocked` when that play ended the game.
//!
//! A position is refused with one line naming what does not fit: a tile seen twice, a tile
//! against an end it does not show, more tiles than the set holds, hands that do not add up
//! with the table and the boneyard, passes that leave a hand no tiles to hold, a player to act
//! who cannot play (the engine knocks or draws for them), a match already won.

use super::engine::{Action, Board, DominoState, End, Setup, View, NONE};
use super::rules::{Rules, Score, MAX_PLAYERS};
use super::tiles::{full_set, number_word, Tile, TileSet, DOUBLES, NUMBERS, WITH};
use super::Domino;
use crate::error::{Error, Result};
use crate::play::position::{rule_changes, same_rules, Fields, Matches, Positions};
use crate::play::Start;
use crate::play::{PlayerView, Seat, State};
use crate::rng::Stream;
use crate::text::normalize;

/// The keys of a position with the other names they are read under.
const KEYS: &[(&str, &[&str])] = &[
    ("rules", &["reglas"]),
    ("seat", &["asiento", "yo"]),
    ("hand", &["mano", "mis fichas", "my tiles"]),
    ("line", &["linea", "line of play", "juego"]),
    ("table", &["mesa", "tablero", "board"]),
    ("ends", &["puntas", "extremos", "open ends"]),
    ("cross", &["cruz"]),
    ("hands", &["manos"]),
    (
        "boneyard",
        &["pozo", "sleeping", "durmiendo", "dormidas", "stock"],
    ),
    ("opener", &["salida", "salio", "opened"]),
    (
        "passed",
        &[
            "passes", "knocked", "knocks", "paso", "pasos", "pases", "lacks",
        ],
    ),
    ("left", &["dejo", "last left", "last"]),
    ("out", &["fuera"]),
    ("to act", &["turn", "turno"]),
    ("points", &["puntos", "game points", "tantos"]),
    ("match", &["partido", "match points", "score", "tanteo"]),
    ("games", &["partidas"]),
    ("first opener", &["primera salida"]),
    ("tiles before", &["fichas antes"]),
    ("missed", &["muggins", "perdidos"]),
    ("decided", &["decidido"]),
];

/// An open end: a plain end showing `number` (the outer half of a tile that is not a double),
/// or, `double`, an open side of the double `number-number`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct OpenEnd {
    number: u8,
    double: bool,
}

impl OpenEnd {
    fn text(self) -> String {
        if self.double {
            format!("{0}-{0}", self.number)
        } else {
            self.number.to_string()
        }
    }
}

/// The open ends of a board as positions write them: highest number first, a double's sides
/// before plain ends of its number.
fn ends_of(board: &Board, top: u8) -> Vec<OpenEnd> {
    let mut out = Vec::new();
    for n in (0..=top).rev() {
        for _ in 0..board.sides(n) {
            out.push(OpenEnd {
                number: n,
                double: true,
            });
        }
        for _ in 0..board.plain(n) {
            out.push(OpenEnd {
                number: n,
                double: false,
            });
        }
    }
    out
}

/// Tiles as positions write a hand or a table: highest first, `6-6, 6-1, 5-4` (`none` for no
/// tile).
fn tiles_text(set: TileSet) -> String {
    if set == 0 {
        return "none".into();
    }
    let mut v: Vec<String> = super::tiles::tiles(set).map(|t| t.to_string()).collect();
    v.reverse();
    v.join(", ")
}

/// A line of tiles, each written from the half that meets the tile before it: `4-2 2-6 6-6`.
fn line_text(line: &[(u8, u8)]) -> String {
    line.iter()
        .map(|(a, b)| format!("{a}-{b}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A line through every tile of `table` from the open end `ends[0]` to `ends[1]`, each tile as
/// (the half meeting the tile before, the half it leaves); `None` when the tiles and the two
/// ends make no line. The tiles that are not doubles are the edges of an Eulerian trail between
/// the ends' numbers (Hierholzer's algorithm, lowest tile first, so the line is always the
/// same); each double lies at an end whose open side it is, or else where the line passes its
/// number.
fn line_of(table: TileSet, ends: &[OpenEnd]) -> Option<Vec<(u8, u8)>> {
    let [a, b] = ends else { return None };
    if table.count_ones() == 1 {
        let t = Tile(table.trailing_zeros() as u8);
        let fits = if t.is_double() {
            a.double && b.double && a.number == t.high() && b.number == t.high()
        } else {
            !a.double
                && !b.double
                && ((a.number, b.number) == (t.high(), t.low())
                    || (a.number, b.number) == (t.low(), t.high()))
        };
        return fits.then_some(vec![(a.number, b.number)]);
    }
    let plain = table & !DOUBLES;
    let mut remaining = plain;
    let mut stack = vec![a.number];
    let mut path = Vec::new();
    while let Some(&v) = stack.last() {
        let avail = remaining & WITH[v as usize];
        if avail != 0 {
            let t = Tile(avail.trailing_zeros() as u8);
            remaining &= !t.bit();
            stack.push(t.other(v));
        } else {
            path.push(v);
            stack.pop();
        }
    }
    path.reverse();
    if remaining != 0 || path.last() != Some(&b.number) {
        return None;
    }
    // Where each double lies: at an end (its open side), or after visit i of its number.
    let (mut at_start, mut at_end) = (false, false);
    let mut inner: Vec<(usize, u8)> = Vec::new();
    for d in super::tiles::tiles(table & DOUBLES) {
        let n = d.high();
        if a.double && a.number == n && !at_start {
            at_start = true;
        } else if b.double && b.number == n && !at_end {
            at_end = true;
        } else {
            let i = (1..path.len().saturating_sub(1)).find(|&i| path[i] == n)?;
            inner.push((i, n));
        }
    }
    if (a.double && !at_start) || (b.double && !at_end) {
        return None;
    }
    let mut line = Vec::new();
    if at_start {
        line.push((a.number, a.number));
    }
    for i in 0..path.len() {
        if i > 0 {
            line.push((path[i - 1], path[i]));
        }
        if let Some(&(_, n)) = inner.iter().find(|x| x.0 == i) {
            line.push((n, n));
        }
    }
    if at_end {
        line.push((b.number, b.number));
    }
    Some(line)
}

/// Seat `s` (0-based) as written: `seat 3`.
fn seat_name(s: usize) -> String {
    format!("seat {}", s + 1)
}

/// A side as messages name it: `pair 1 (seats 1 and 3)` or `seat 2`.
fn side_name(rules: &Rules, k: usize) -> String {
    if rules.pairs {
        format!("pair {} (seats {} and {})", k + 1, k + 1, k + 3)
    } else {
        seat_name(k)
    }
}

/// Numbers in a bit set, ascending, as written: `1 4`.
fn numbers_text(bits: u16) -> String {
    (0..NUMBERS as u8)
        .filter(|&n| bits >> n & 1 == 1)
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether a player without a tile for the open ends draws instead of knocking now.
fn may_draw(rules: &Rules, board: &Board, boneyard: u32) -> bool {
    (rules.draw || board.cross().is_some()) && boneyard > 0
}

/// The double that opened as the cross, when the view shows it: while the cross is uncovered,
/// and without trees afterwards too (it alone has four sides).
fn cross_double(view: &View<'_>) -> Option<u8> {
    let rules = view.rules();
    if !rules.cross {
        return None;
    }
    let board = view.board();
    board.cross().or_else(|| {
        (!rules.tree)
            .then(|| {
                (0..=rules.set).find(|&n| {
                    view.played() & Tile::new(n, n).bit() != 0
                        && board.sides(n) + board.built(n) == 4
                })
            })
            .flatten()
    })
}

/// The games a match has played by default: 1, or 2 once its earlier games scored points.
fn default_games(match_points: &[i64]) -> u32 {
    if match_points.iter().any(|&p| p != 0) {
        2
    } else {
        1
    }
}

impl Positions for Domino {
    const POSITION_EXAMPLE: &'static str = "seat: 4; hand: 6-0, 5-3, 3-1, 2-1; line: 1-0 0-2 2-4 4-4 4-1 1-6 6-4 4-0; hands: 4 4 4 4; boneyard: 4; opener: seat 2; passed: seat 2 on 4, seat 3 on 0 1; left: 1 0 0 2";
    /// `company` is the strongest bot that answers at once (README: it beats bota gorda by 8
    /// points a seat; `search` and `ismcts` play out hundreds of games a move).
    const ROLLOUT_BOTS: &'static str = "company";
    const ADVICE_VALUE: &'static str =
        "chance that your side wins the game (with --to, the match); a blocked game tied counts half";

    fn write_position(view: &View<'_>) -> String {
        let rules = view.rules();
        let n = rules.players as usize;
        let sides = rules.side_count();
        let seat = view.seat();
        let mut items = Vec::new();
        let changes = rule_changes(rules, &Rules::standard(rules.players), &[]);
        if !changes.is_empty() {
            items.push(format!("rules: {changes}"));
        }
        items.push(format!("seat: {}", seat + 1));
        items.push(format!("hand: {}", tiles_text(view.hand())));
        let ends = ends_of(view.board(), rules.set);
        let line = (!rules.cross && !rules.tree)
            .then(|| line_of(view.played(), &ends))
            .flatten();
        match line {
            Some(line) => items.push(format!("line: {}", line_text(&line))),
            None => {
                if let Some(d) = cross_double(view) {
                    items.push(format!("cross: {d}-{d}"));
                }
                items.push(format!("table: {}", tiles_text(view.played())));
                let ends: Vec<String> = ends.iter().map(|e| e.text()).collect();
                items.push(format!("ends: {}", ends.join(", ")));
            }
        }
        let hands: Vec<String> = (0..n).map(|s| view.hand_len(s).to_string()).collect();
        items.push(format!("hands: {}", hands.join(" ")));
        items.push(format!("boneyard: {}", view.stock_len()));
        items.push(format!("opener: {}", seat_name(view.opener())));
        let passed: Vec<String> = (0..n)
            .filter(|&s| view.lacks(s) != 0)
            .map(|s| format!("{} on {}", seat_name(s), numbers_text(view.lacks(s))))
            .collect();
        if !passed.is_empty() {
            items.push(format!("passed: {}", passed.join(", ")));
        }
        if (0..n).any(|s| view.exposed(s).is_some()) {
            let left: Vec<String> = (0..n)
                .map(|s| view.exposed(s).map_or("-".into(), |x| x.to_string()))
                .collect();
            items.push(format!("left: {}", left.join(" ")));
        }
        let out: Vec<String> = (0..n).filter(|&s| view.is_out(s)).map(seat_name).collect();
        if !out.is_empty() {
            items.push(format!("out: {}", out.join(", ")));
        }
        if view.to_act() != seat {
            items.push(format!("to act: {}", seat_name(view.to_act())));
        }
        let by_side = |f: &dyn Fn(usize) -> i64| -> Vec<i64> { (0..sides).map(f).collect() };
        let join = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(" ");
        if rules.score.by_ends() {
            items.push(format!(
                "points: {}",
                join(&by_side(&|k| view.game_points(k)))
            ));
        }
        let match_points = by_side(&|k| view.match_points(k));
        if rules.is_match() {
            items.push(format!("match: {}", join(&match_points)));
        }
        let games = view.games();
        if games != default_games(&match_points) {
            items.push(format!("games: {games}"));
        }
        if view.first_opener() != view.opener() {
            items.push(format!("first opener: {}", seat_name(view.first_opener())));
        }
        let before = view.tiles_placed() - view.played().count_ones();
        if before != games - 1 {
            items.push(format!("tiles before: {before}"));
        }
        if let Some((points, _)) = view.missed_score() {
            items.push(format!("missed: {points}"));
        }
        match view.decided() {
            Some(End::Domino(_)) => items.push("decided: domino".into()),
            Some(End::Blocked) => items.push("decided: blocked".into()),
            None => {}
        }
        items.join("; ")
    }

    fn read_position(rules: &Rules, text: &str, rng: &mut Stream) -> Result<DominoState> {
        let setup = read(rules, text)?;
        let me = setup.to_act;
        let game = DominoState::at_position(&setup)
            .map_err(|e| Error::usage(format!("the position cannot be played: {e}")))?;
        Ok(DominoState::deal_for_view(&game.view(me), rng))
    }

    /// A play as players say it: `6-1 on 6` (against a plain end showing 6), `6-1 on 6-6`
    /// (against an open side of the double, which all fives counts apart), with `, calling
    /// muggins` where the player calls it; `pass` in a claim window.
    fn action_name(action: Action) -> String {
        let muggins = if action.calls_muggins() {
            ", calling muggins"
        } else {
            ""
        };
        match action.tile() {
            None => format!("pass{muggins}"),
            Some(t) => {
                let n = action.at();
                if action.on_side() {
                    format!("{t} on {n}-{n}{muggins}")
                } else {
                    format!("{t} on {n}{muggins}")
                }
            }
        }
    }
}

/// A seat as written (`seat 3`, `3`), 0-based, among `n`.
fn parse_seat(key: &str, text: &str, n: usize) -> Result<Seat> {
    crate::play::position::parse_seat(key, text, n, "in turn order")
}

/// A number on a tile half as written: `4`, `cuatro`, `four`, plurals too (`4s`, `cuatros`,
/// `sixes`, `ases`); `None` above the set's top.
fn parse_number(word: &str, top: u8) -> Option<u8> {
    let w = normalize(word);
    let candidates = [
        Some(w.as_str()),
        w.strip_suffix("es"),
        w.strip_suffix('s'),
        w.strip_suffix("'s"),
    ];
    let n = candidates.into_iter().flatten().find_map(number_word);
    n.filter(|&n| n <= top)
}

/// Tiles in the order written, separated by commas or spaces; a tile may take two words
/// (`doble seis`, `seis cuatro`). `none` or `-` for no tile.
fn parse_tiles(key: &str, text: &str, top: u8) -> Result<Vec<Tile>> {
    if matches!(normalize(text).as_str(), "none" | "-" | "ninguna" | "") {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for group in text.split(',') {
        let words: Vec<&str> = group.split_whitespace().collect();
        let mut i = 0;
        while i < words.len() {
            if i + 1 < words.len() {
                if let Ok(t) = Tile::parse(&format!("{} {}", words[i], words[i + 1]), top) {
                    out.push(t);
                    i += 2;
                    continue;
                }
            }
            let t = Tile::parse(words[i], top).map_err(|e| Error::usage(format!("{key}: {e}")))?;
            out.push(t);
            i += 1;
        }
    }
    Ok(out)
}

/// The tiles the player sees, each in one place only.
struct Places {
    seen: TileSet,
    /// Where each tile was seen, for the message when it is seen again.
    place: Vec<(Tile, &'static str)>,
}

impl Places {
    fn add(&mut self, key: &str, t: Tile, place: &'static str) -> Result<()> {
        if self.seen & t.bit() != 0 {
            if self.place.iter().any(|&(x, p)| x == t && p == place) {
                return Err(Error::usage(format!(
                    "{key}: {t} is listed twice: each tile is in one place"
                )));
            }
            let before = self
                .place
                .iter()
                .find(|(x, _)| *x == t)
                .map_or("", |(_, p)| *p);
            return Err(Error::usage(format!(
                "{key}: {t} is both {before} and {place}: each tile is in one place"
            )));
        }
        self.seen |= t.bit();
        self.place.push((t, place));
        Ok(())
    }
}

/// A line as written: the tiles in order, each against the number the one before leaves; its
/// two open ends.
fn read_line(text: &str, top: u8, places: &mut Places) -> Result<(TileSet, Vec<OpenEnd>)> {
    let tiles = parse_tiles("line", text, top)?;
    let mut table = 0;
    for &t in &tiles {
        places.add("line", t, "on the table")?;
        table |= t.bit();
    }
    let end = |t: Tile, n: u8| OpenEnd {
        number: n,
        double: t.is_double(),
    };
    let ends = match tiles.as_slice() {
        [] => {
            return Err(Error::usage(
                "line: no tile: give the tiles on the table in order, e.g. line: 4-2 2-6 6-6 6-3",
            ))
        }
        [t] => vec![end(*t, t.high()), end(*t, t.low())],
        [first, second, ..] => {
            let inner = if second.high() == first.high() || second.low() == first.high() {
                first.high()
            } else if second.high() == first.low() || second.low() == first.low() {
                first.low()
            } else {
                return Err(Error::usage(format!(
                    "line: {second} does not match {first} beside it: each tile goes against a number the tile before it shows"
                )));
            };
            let mut open = inner;
            for pair in tiles.windows(2) {
                let (before, t) = (pair[0], pair[1]);
                if t.high() != open && t.low() != open {
                    return Err(Error::usage(format!(
                        "line: {t} does not match the {open} that {before} leaves: each tile goes against the number the one before it leaves"
                    )));
                }
                open = t.other(open);
            }
            let last = *tiles.last().expect("two tiles or more");
            vec![end(*first, first.other(inner)), end(last, open)]
        }
    };
    Ok((table, ends))
}

/// The open ends as written: `4, 1, 5-5` (a number for a plain end, the double for an open
/// side of a double).
fn read_ends(text: &str, top: u8) -> Result<Vec<OpenEnd>> {
    let mut out = Vec::new();
    for w in text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
    {
        if let Some(n) = parse_number(w, top) {
            out.push(OpenEnd {
                number: n,
                double: false,
            });
            continue;
        }
        match Tile::parse(w, top) {
            Ok(t) if t.is_double() => out.push(OpenEnd {
                number: t.high(),
                double: true,
            }),
            _ => {
                return Err(Error::usage(format!(
                    "ends: '{w}': give each open end as a number 0 to {top} (a plain end) or a double such as 5-5 (an open side of that double)"
                )))
            }
        }
    }
    if out.is_empty() {
        return Err(Error::usage(
            "ends: no open end: give every open end, e.g. ends: 6-6, 6-6, 4, 1",
        ));
    }
    Ok(out)
}

/// The board that `table` and its open `ends` make, refusing ends that do not fit the tiles.
/// Every tile is a node with *ports* (the halves of a plain tile; a double's sides, four for a
/// spinner or the cross, two else); the layout joins equal ports in pairs as a tree, and the
/// open ends are the ports left: so each number's ports less its open ends pair up, the pairs
/// number one less than the tiles, and the tiles hang together.
fn board_of(rules: &Rules, table: TileSet, ends: &[OpenEnd], cross: Option<u8>) -> Result<Board> {
    let top = rules.set;
    let ports_of = |d: u8| -> u8 {
        if rules.tree || cross == Some(d) {
            4
        } else {
            2
        }
    };
    let mut plain = [0u8; NUMBERS];
    let mut sides = [0u8; NUMBERS];
    let mut built = [0u8; NUMBERS];
    for e in ends {
        let n = e.number as usize;
        if e.double {
            if table & Tile::new(e.number, e.number).bit() == 0 {
                return Err(Error::usage(format!(
                    "ends: {} is an open side of the double {}, which is not on the table",
                    e.text(),
                    e.text()
                )));
            }
            sides[n] += 1;
        } else {
            plain[n] += 1;
        }
    }
    let mut pairs = 0u32;
    for n in 0..=top {
        let i = n as usize;
        let d = Tile::new(n, n);
        let halves = (table & !DOUBLES & WITH[i]).count_ones();
        if plain[i] as u32 > halves {
            return Err(Error::usage(format!(
                "ends: {} plain ends show {n}, but only {halves} tiles on the table that are not doubles show it",
                plain[i]
            )));
        }
        let mut ports = halves;
        if table & d.bit() != 0 {
            let p = ports_of(n);
            if sides[i] > p {
                return Err(Error::usage(format!(
                    "ends: {d} shows {} open sides, but it has {p}",
                    sides[i]
                )));
            }
            built[i] = p - sides[i];
            ports += p as u32;
        }
        let open = plain[i] as u32 + sides[i] as u32;
        if open > ports || (ports - open) % 2 == 1 {
            return Err(Error::usage(format!(
                "ends: {open} open ends show {n}, but the tiles on the table show {n} {ports} times and the others must meet in pairs: check the ends and the tiles"
            )));
        }
        pairs += (ports - open) / 2;
    }
    let tiles = table.count_ones();
    if pairs + 1 != tiles {
        let doubles = (table & DOUBLES).count_ones();
        let (want, why) = if rules.tree {
            (
                2 + 2 * doubles,
                "two and two more for each double, a spinner",
            )
        } else if cross.is_some() {
            (4, "the cross's four")
        } else if rules.cross {
            (
                2,
                "two; name the double that opened as the cross (cross: 6-6) for four",
            )
        } else {
            (2, "a line has two")
        };
        return Err(Error::usage(format!(
            "ends: {} open ends, but the {tiles} tiles on the table leave {want} open ({why})",
            ends.len()
        )));
    }
    // The tiles hang together: their numbers are one connected set.
    let mut root: [u8; NUMBERS] = std::array::from_fn(|n| n as u8);
    fn find(root: &mut [u8; NUMBERS], mut x: u8) -> u8 {
        while root[x as usize] != x {
            x = root[x as usize];
        }
        x
    }
    for t in super::tiles::tiles(table & !DOUBLES) {
        let (a, b) = (find(&mut root, t.high()), find(&mut root, t.low()));
        root[a as usize] = b;
    }
    let first = Tile(table.trailing_zeros() as u8);
    let base = find(&mut root, first.high());
    if let Some(t) = super::tiles::tiles(table).find(|t| find(&mut root, t.high()) != base) {
        return Err(Error::usage(format!(
            "table: {t} is not joined to {first}: the tiles on the table make one layout"
        )));
    }
    let uncovered = cross.filter(|&d| sides[d as usize] > 0);
    if let Some(d) = uncovered {
        if let Some(t) = super::tiles::tiles(table).find(|t| t.high() != d && t.low() != d) {
            return Err(Error::usage(format!(
                "table: {t} is on the table while the cross {d}-{d} is uncovered: until its four sides are covered only tiles showing {d} are played"
            )));
        }
    }
    Ok(Board::from_ends(plain, sides, built, uncovered))
}

/// Reads a position into the game it describes, with the hidden tiles placed in some order
/// that fits (the caller deals them afresh).
fn read(rules: &Rules, text: &str) -> Result<Setup> {
    let f = Fields::split(
        text,
        KEYS,
        "hand: 6-6, 6-1, 5-4",
        <Domino as Positions>::POSITION_EXAMPLE,
    )?;
    let n = rules.players as usize;
    let top = rules.set;
    let set = full_set(top);
    let sides = rules.side_count();
    if let Some(v) = f.get("rules") {
        same_rules(rules, &Rules::standard(rules.players), v, "position", &[])?;
    }
    let me = parse_seat("seat", f.need("seat")?, n)?;
    if let Some(v) = f.get("to act") {
        let s = parse_seat("to act", v, n)?;
        if s != me {
            return Err(Error::usage(format!(
                "to act: {}, but the position is seat {}'s: a position is read for the player to act, so give seat: {}",
                seat_name(s),
                me + 1,
                s + 1
            )));
        }
    }
    let mut places = Places {
        seen: 0,
        place: Vec::new(),
    };
    let mut hand = 0;
    for t in parse_tiles("hand", f.need("hand")?, top)? {
        places.add("hand", t, "in your hand")?;
        hand |= t.bit();
    }

    // The table: a line, or the tiles and their open ends.
    let cross = match f.get("cross") {
        None => None,
        Some(v) => {
            if !rules.cross {
                return Err(Error::usage(
                    "cross: the table plays no cross: drop it, or add --cross",
                ));
            }
            match Tile::parse(v, top) {
                Ok(t) if t.is_double() => Some(t.high()),
                _ => {
                    return Err(Error::usage(format!(
                        "cross: '{v}': name the double that opened as the cross, e.g. cross: 6-6"
                    )))
                }
            }
        }
    };
    let (table, ends) = match (f.get("line"), f.get("table"), f.get("ends")) {
        (Some(line), None, None) => {
            if rules.cross || rules.tree {
                return Err(Error::usage(format!(
                    "line: with {} the table lays out in arms, not one line: give table: (its tiles) and ends: (every open end)",
                    if rules.cross { "the cross" } else { "spinner trees" }
                )));
            }
            read_line(line, top, &mut places)?
        }
        (None, Some(table_text), Some(ends_text)) => {
            let mut table = 0;
            for t in parse_tiles("table", table_text, top)? {
                places.add("table", t, "on the table")?;
                table |= t.bit();
            }
            if table == 0 {
                return Err(Error::usage(
                    "table: no tile: the game opened, so its opening tile at least is on the table",
                ));
            }
            (table, read_ends(ends_text, top)?)
        }
        (Some(_), _, _) => {
            return Err(Error::usage(
                "line: give the line alone, or table: and ends: instead of it, not both",
            ))
        }
        (None, Some(_), None) => {
            return Err(Error::usage(
                "table: give ends: too, every open end (e.g. ends: 4, 1)",
            ))
        }
        (None, None, Some(_)) => {
            return Err(Error::usage(
                "ends: give table: too, the tiles on the table",
            ))
        }
        (None, None, None) => {
            return Err(Error::usage(
                "the position has no 'line': give the line of play, e.g. line: 4-2 2-6 6-6 6-3 (with --cross or --tree, table: and ends:)",
            ))
        }
    };
    if let Some(d) = cross {
        if table & Tile::new(d, d).bit() == 0 {
            return Err(Error::usage(format!(
                "cross: {d}-{d} is not on the table: the cross is the opening double"
            )));
        }
    }
    let board = board_of(rules, table, &ends, cross)?;
    if !rules.cross && !rules.tree && line_of(table, &ends).is_none() {
        let shown: Vec<String> = ends.iter().map(|e| e.text()).collect();
        return Err(Error::usage(format!(
            "table: the tiles on the table make no line with the ends {}: check the tiles and the ends",
            shown.join(" and ")
        )));
    }

    // Hand sizes, the boneyard.
    let sizes_text = f.need("hands")?;
    let words: Vec<&str> = sizes_text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    if words.len() != n {
        return Err(Error::usage(format!(
            "hands: '{sizes_text}' gives {} seats, but the rules are for {n} players: give each seat's number of tiles, in seat order",
            words.len()
        )));
    }
    let mut sizes = [0u32; MAX_PLAYERS];
    for (s, w) in words.iter().enumerate() {
        sizes[s] = w
            .parse::<u32>()
            .ok()
            .filter(|&k| k as usize <= rules.tiles())
            .ok_or_else(|| {
                Error::usage(format!(
                    "hands: '{w}' for seat {}: give a number of tiles, 0 to {}",
                    s + 1,
                    rules.tiles()
                ))
            })?;
    }
    if sizes[me] != hand.count_ones() {
        return Err(Error::usage(format!(
            "hands: seat {} holds {} tiles, but your hand lists {}: make them agree",
            me + 1,
            sizes[me],
            hand.count_ones()
        )));
    }
    let unseen = set & !hand & !table;
    let others: u32 = (0..n).filter(|&s| s != me).map(|s| sizes[s]).sum();
    let in_set = rules.tiles() as u32;
    let placed = hand.count_ones() + table.count_ones() + others;
    if placed > in_set {
        return Err(Error::usage(format!(
            "the tiles do not add up: the {} set has {in_set} tiles, but your hand ({}), the table ({}) and the other hands ({others}) hold {placed}",
            rules.set_name(),
            hand.count_ones(),
            table.count_ones()
        )));
    }
    let boneyard = unseen.count_ones() - others;
    if let Some(v) = f.get("boneyard") {
        let given = v.trim().parse::<u32>().map_err(|_| {
            Error::usage(format!(
                "boneyard: '{v}': give the number of sleeping tiles"
            ))
        })?;
        if given != boneyard {
            return Err(Error::usage(format!(
                "boneyard: {given} sleeping tiles, but the {} set's {in_set} tiles less your hand ({}), the table ({}) and the other hands ({others}) leave {boneyard}",
                rules.set_name(),
                hand.count_ones(),
                table.count_ones()
            )));
        }
    }
    let dealt = n as u32 * rules.hand as u32;
    let draws = rules.draw || rules.cross;
    if !draws && placed != dealt {
        return Err(Error::usage(format!(
            "the tiles do not add up: {n} players were dealt {} tiles each ({dealt}) and nobody draws in the block game, but the hands ({}) and the table ({}) hold {}",
            rules.hand,
            hand.count_ones() + others,
            table.count_ones(),
            placed
        )));
    }
    if draws && placed < dealt {
        return Err(Error::usage(format!(
            "the tiles do not add up: {n} players were dealt {} tiles each ({dealt}), more than the hands ({}) and the table ({}) hold, and tiles drawn come from the boneyard",
            rules.hand,
            hand.count_ones() + others,
            table.count_ones()
        )));
    }
    if !draws {
        if let Some(s) = (0..n).find(|&s| sizes[s] > rules.hand as u32) {
            return Err(Error::usage(format!(
                "hands: seat {} holds {} tiles, but {} were dealt and nobody draws in the block game",
                s + 1,
                sizes[s],
                rules.hand
            )));
        }
    }

    // Who opened.
    let opener = parse_seat("opener", f.need("opener")?, n)?;
    if !draws && sizes[opener] >= rules.hand as u32 {
        return Err(Error::usage(format!(
            "opener: seat {} opened, so it holds at most {} of its {} tiles, not {}",
            opener + 1,
            rules.hand - 1,
            rules.hand,
            sizes[opener]
        )));
    }

    // What everybody knows each seat lacks.
    let mut lacks = [0u16; 4];
    if let Some(v) = f.get("passed") {
        let mut current: Option<Seat> = None;
        for part in v.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let words: Vec<String> = part.split_whitespace().map(normalize).collect();
            let starts_seat = words.first().is_some_and(|w| w == "seat" || w == "asiento")
                || words.iter().any(|w| w == "on" || w == "en" || w == "a");
            let mut rest = &words[..];
            if starts_seat {
                if matches!(rest.first().map(String::as_str), Some("seat" | "asiento")) {
                    rest = &rest[1..];
                }
                let s = parse_seat("passed", rest.first().map_or("", String::as_str), n)?;
                if lacks[s] != 0 {
                    return Err(Error::usage(format!(
                        "passed: seat {} is given twice: list each seat once with every number it passed on",
                        s + 1
                    )));
                }
                current = Some(s);
                rest = &rest[1..];
                if matches!(rest.first().map(String::as_str), Some("on" | "en" | "a")) {
                    rest = &rest[1..];
                }
            }
            let Some(s) = current else {
                return Err(Error::usage(format!(
                    "passed: '{part}': name the seat first, e.g. passed: seat 3 on 4, seat 2 on 1 5"
                )));
            };
            if rest.is_empty() {
                return Err(Error::usage(format!(
                    "passed: '{part}': give the numbers {} passed on, e.g. seat {} on 4",
                    seat_name(s),
                    s + 1
                )));
            }
            for w in rest {
                let x = parse_number(w, top).ok_or_else(|| {
                    Error::usage(format!(
                        "passed: '{w}' is not a number of the set: give numbers 0 to {top}"
                    ))
                })?;
                lacks[s] |= 1 << x;
            }
        }
    }
    if !draws && hand & lacked_tiles(lacks[me]) != 0 {
        let t = Tile((hand & lacked_tiles(lacks[me])).trailing_zeros() as u8);
        return Err(Error::usage(format!(
            "passed: seat {} passed on {}, but holds {t}, and nobody draws in the block game",
            me + 1,
            numbers_text(lacks[me])
        )));
    }

    // The number each seat's last play left.
    let mut exposed = [NONE; 4];
    if let Some(v) = f.get("left") {
        let words: Vec<&str> = v
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .collect();
        if words.len() != n {
            return Err(Error::usage(format!(
                "left: '{v}' gives {} seats, but the rules are for {n} players: give the number each seat's last tile left, in seat order, - for none",
                words.len()
            )));
        }
        for (s, w) in words.iter().enumerate() {
            if *w == "-" {
                continue;
            }
            let x = parse_number(w, top).ok_or_else(|| {
                Error::usage(format!(
                    "left: '{w}' for seat {}: give a number 0 to {top}, or - for none",
                    s + 1
                ))
            })?;
            if table & WITH[x as usize] == 0 {
                return Err(Error::usage(format!(
                    "left: seat {}'s last tile left {x}, but no tile on the table shows {x}",
                    s + 1
                )));
            }
            exposed[s] = x;
        }
    }

    // Who is out.
    let mut out = 0u8;
    if let Some(v) = f.get("out") {
        if !rules.both_partners {
            return Err(Error::usage(
                "out: players go out one by one only with --both-partners: drop it, or add the rule",
            ));
        }
        for w in v.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            let s = parse_seat("out", w, n)?;
            if sizes[s] != 0 {
                return Err(Error::usage(format!(
                    "out: seat {} is out, but holds {} tiles (hands)",
                    s + 1,
                    sizes[s]
                )));
            }
            out |= 1 << s;
        }
    }
    if rules.both_partners {
        if let Some(s) = (0..n).find(|&s| sizes[s] == 0 && out >> s & 1 == 0) {
            return Err(Error::usage(format!(
                "hands: seat {} holds no tile: list it as out (out: seat {})",
                s + 1,
                s + 1
            )));
        }
    }
    if out >> me & 1 == 1 {
        return Err(Error::usage(format!(
            "out: seat {} is out, but it is to act: a player out has no decision",
            me + 1
        )));
    }

    // Scores.
    let side_values = |key: &str, v: &str| -> Result<[i64; 4]> {
        let words: Vec<&str> = v
            .split(|c: char| c.is_whitespace() || c == ',' || c == '-')
            .filter(|w| !w.is_empty())
            .collect();
        if words.len() != sides {
            return Err(Error::usage(format!(
                "{key}: '{v}' gives {} values, but the table has {sides} sides: give one per {}, in order",
                words.len(),
                if rules.pairs { "pair (seats 1 and 3 first)" } else { "seat" }
            )));
        }
        let mut out = [0i64; 4];
        for (k, w) in words.iter().enumerate() {
            out[k] = w
                .parse::<u32>()
                .ok()
                .filter(|&p| p <= 100_000)
                .ok_or_else(|| {
                    Error::usage(format!(
                        "{key}: '{w}' for {}: give points, 0 or more",
                        side_name(rules, k)
                    ))
                })?
                .into();
        }
        Ok(out)
    };
    let game_points = match f.get("points") {
        None => [0; 4],
        Some(v) => side_values("points", v)?,
    };
    if game_points.iter().any(|&p| p != 0) {
        if !rules.score.by_ends() {
            return Err(Error::usage(format!(
                "points: with score={} points are scored when a game ends, never during it: drop them (or give --score all-fives)",
                rules.score
            )));
        }
        if rules.score == Score::AllFives {
            if let Some(k) = (0..sides).find(|&k| game_points[k] % 5 != 0) {
                return Err(Error::usage(format!(
                    "points: {} for {}: all fives scores multiples of 5",
                    game_points[k],
                    side_name(rules, k)
                )));
            }
        }
    }
    let match_points = match f.get("match") {
        None => [0; 4],
        Some(v) => side_values("match", v)?,
    };
    if match_points.iter().any(|&p| p != 0) {
        if !rules.is_match() {
            return Err(Error::usage(
                "match: single games are played: drop it, or give the match's target (--to 100)",
            ));
        }
        let best = *match_points[..sides].iter().max().expect("sides");
        let leaders = match_points[..sides].iter().filter(|&&p| p == best).count();
        if best >= rules.to as i64 && leaders == 1 {
            let w = (0..sides)
                .find(|&k| match_points[k] == best)
                .expect("a leader");
            return Err(Error::usage(format!(
                "match: {} has {best} of the {} points the match is played to: the match is over",
                side_name(rules, w),
                rules.to
            )));
        }
    }
    let games = f.number("games", 1, 100_000, default_games(&match_points))?;
    if games > 1 && !rules.is_match() {
        return Err(Error::usage(
            "games: single games are played: drop it, or give the match's target (--to 100)",
        ));
    }
    if games == 1 && match_points.iter().any(|&p| p != 0) {
        return Err(Error::usage(
            "games: 1, but the match already has points: only earlier games score them",
        ));
    }
    let first_opener = match f.get("first opener") {
        None => opener,
        Some(v) => {
            let s = parse_seat("first opener", v, n)?;
            if games == 1 && s != opener {
                return Err(Error::usage(format!(
                    "first opener: this is the first game, so its opener, seat {}, opened first",
                    opener + 1
                )));
            }
            s
        }
    };
    let tiles_before = if games == 1 {
        if f.get("tiles before").is_some_and(|v| v.trim() != "0") {
            return Err(Error::usage(
                "tiles before: this is the match's first game (games: 1): no tile was placed before it",
            ));
        }
        0
    } else {
        f.number("tiles before", games - 1, 100_000_000, games - 1)?
    };

    // A missed score, and a game it decided.
    let missed = match f.get("missed") {
        None => None,
        Some(v) => {
            if !rules.score.by_ends() || !rules.muggins {
                return Err(Error::usage(
                    "missed: muggins is called only with all fives or fives and threes, muggins on: drop it",
                ));
            }
            let p = v
                .trim()
                .parse::<u16>()
                .ok()
                .filter(|&p| p > 0 && p <= 1000 && rules.score.end_points(p as u32) == p as u32)
                .ok_or_else(|| {
                    Error::usage(format!(
                        "missed: '{v}' is not a score under {}: give the open-end total the player before failed to announce ({})",
                        rules.score,
                        if rules.score == Score::AllFives {
                            "a multiple of 5"
                        } else {
                            "a multiple of 3 or 5"
                        }
                    ))
                })?;
            Some(p)
        }
    };
    let empty_side = (0..sides).find(|&k| {
        let seats: Vec<usize> = (0..n).filter(|&s| rules.side_of(s) == k).collect();
        if rules.both_partners {
            seats.iter().all(|&s| sizes[s] == 0)
        } else {
            seats.iter().any(|&s| sizes[s] == 0)
        }
    });
    let decided = match f.get("decided").map(normalize) {
        None => None,
        Some(v) => {
            if missed.is_none() {
                return Err(Error::usage(
                    "decided: a decided game waits only for a muggins call: give missed: too, or drop it",
                ));
            }
            match v.as_str() {
                "domino" | "yes" => Some(End::Domino(empty_side.ok_or_else(|| {
                    Error::usage("decided: domino, but nobody is out of tiles (hands)")
                })? as u8)),
                "blocked" | "tranque" | "trancado" | "cerrado" => Some(End::Blocked),
                _ => {
                    return Err(Error::usage(format!(
                    "decided: '{v}': use domino (a player went out) or blocked (nobody can move)"
                )))
                }
            }
        }
    };
    if decided.is_none() {
        if let Some(k) = empty_side {
            return Err(Error::usage(format!(
                "hands: {} is out of tiles, so the game is over",
                side_name(rules, k)
            )));
        }
    }

    // The player to act decides: a tile to play, or a pass calling muggins.
    if hand == 0 {
        return Err(Error::usage(format!(
            "hand: seat {} holds no tile, so it has nothing to decide",
            me + 1
        )));
    }
    let fits = hand & board.playable() != 0;
    let open = numbers_text(board.numbers());
    if missed.is_none() && !fits {
        return Err(Error::usage(format!(
            "seat {} holds no tile for the open ends ({open}): the engine {} for them, so it is not their decision; give the position after it",
            me + 1,
            if may_draw(rules, &board, boneyard) { "draws" } else { "passes" }
        )));
    }
    if decided == Some(End::Blocked) && (fits || may_draw(rules, &board, boneyard)) {
        return Err(Error::usage(format!(
            "decided: blocked, but seat {} can still {} for the open ends ({open})",
            me + 1,
            if fits { "play a tile" } else { "draw" }
        )));
    }
    if missed.is_some() && decided.is_none() && !fits && may_draw(rules, &board, boneyard) {
        return Err(Error::usage(format!(
            "seat {} holds no tile for the open ends ({open}) and draws from the boneyard before deciding: give the position after the draw",
            me + 1
        )));
    }

    // The hidden tiles: into the other hands (nobody holding a number it passed on) and the
    // boneyard.
    let hidden: Vec<Seat> = (0..n).filter(|&s| s != me && sizes[s] > 0).collect();
    let allowed = |s: Seat| unseen & !lacked_tiles(lacks[s]);
    for mask in 1u32..1 << hidden.len() {
        let group: Vec<Seat> = (0..hidden.len())
            .filter(|&i| mask >> i & 1 == 1)
            .map(|i| hidden[i])
            .collect();
        let need: u32 = group.iter().map(|&s| sizes[s]).sum();
        let room = group.iter().fold(0, |m, &s| m | allowed(s)).count_ones();
        if room < need {
            let who: Vec<String> = group
                .iter()
                .map(|&s| {
                    format!(
                        "{} ({} tiles, passed on {})",
                        seat_name(s),
                        sizes[s],
                        numbers_text(lacks[s])
                    )
                })
                .collect();
            return Err(Error::usage(format!(
                "passed: {} cannot hold their tiles: only {room} of the {} tiles you cannot see show none of the numbers they passed on",
                who.join(" and "),
                unseen.count_ones()
            )));
        }
    }
    let mut hands = [0; 4];
    hands[me] = hand;
    let placed_hidden = assign(&hidden, &sizes, allowed).expect("Hall's condition holds");
    for (&s, h) in hidden.iter().zip(placed_hidden) {
        hands[s] = h;
    }
    let stock = hands.iter().fold(unseen, |m, &h| m & !h);
    let opening = match cross {
        Some(d) => Tile::new(d, d),
        None if table & DOUBLES != 0 && !rules.cross => {
            Tile(63 - (table & DOUBLES).leading_zeros() as u8)
        }
        // The cross opened with a plain tile (no double dealt), or the double it opened with
        // is not named (spinner trees, covered: it plays as every other spinner).
        None => super::tiles::tiles(table & !DOUBLES)
            .max_by_key(|t| t.weight())
            .unwrap_or(Tile(table.trailing_zeros() as u8)),
    };
    Ok(Setup {
        rules: *rules,
        hands,
        stock,
        played: table,
        board,
        opening,
        to_act: me,
        opener,
        first_opener,
        out,
        lacks,
        exposed,
        missed,
        decided,
        game_points,
        match_points,
        games,
        tiles_before,
    })
}

/// The tiles showing a number in `numbers` (bits).
fn lacked_tiles(numbers: u16) -> TileSet {
    (0..NUMBERS)
        .filter(|&x| numbers >> x & 1 == 1)
        .fold(0, |m, x| m | WITH[x])
}

/// Places `sizes[s]` tiles in the hand of each seat of `seats`, each from `allowed(s)`, by
/// augmenting paths (Kuhn's matching of hand slots to tiles); `None` when they cannot all be
/// placed.
fn assign(
    seats: &[Seat],
    sizes: &[u32; MAX_PLAYERS],
    allowed: impl Fn(Seat) -> TileSet,
) -> Option<Vec<TileSet>> {
    let slots: Vec<Seat> = seats
        .iter()
        .flat_map(|&s| std::iter::repeat_n(s, sizes[s] as usize))
        .collect();
    let options: Vec<TileSet> = slots.iter().map(|&s| allowed(s)).collect();
    // The slot holding each tile.
    let mut holder: [Option<usize>; 64] = [None; 64];
    fn augment(
        slot: usize,
        options: &[TileSet],
        holder: &mut [Option<usize>; 64],
        visited: &mut TileSet,
    ) -> bool {
        let mut m = options[slot] & !*visited;
        while m != 0 {
            let t = m.trailing_zeros() as usize;
            m &= m - 1;
            *visited |= 1 << t;
            let free = match holder[t] {
                None => true,
                Some(other) => augment(other, options, holder, visited),
            };
            if free {
                holder[t] = Some(slot);
                return true;
            }
        }
        false
    }
    for slot in 0..slots.len() {
        let mut visited = 0;
        if !augment(slot, &options, &mut holder, &mut visited) {
            return None;
        }
    }
    let mut hands = vec![0; seats.len()];
    for (t, h) in holder.iter().enumerate() {
        if let Some(slot) = h {
            let i = seats
                .iter()
                .position(|&s| s == slots[*slot])
                .expect("a seat");
            hands[i] |= 1u64 << t;
        }
    }
    Some(hands)
}

/// A Dominó match state: each side's points from the match's earlier games (a side is a pair,
/// or a player playing alone); the next game is dealt as a new one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DominoMatch {
    /// Points by side.
    pub points: Vec<i64>,
}

impl Matches for Domino {
    type Match = DominoMatch;
    const MATCH_EXAMPLE: &'static str = "match: 85 60";
    // `--score` is the rule (how games score): the match state is `--match`.
    const MATCH_FLAG: Option<&'static str> = Some("match");

    fn read_match(rules: &Rules, text: &str) -> Result<DominoMatch> {
        let sides = rules.side_count();
        if !rules.is_match() {
            return Err(Error::usage(
                "a match state needs a match: give its target, e.g. --to 100 (single games start alike)",
            ));
        }
        let mut points = None;
        for item in text.split(';').map(str::trim).filter(|i| !i.is_empty()) {
            let (key, value) = item.split_once(':').unwrap_or((item, ""));
            match normalize(key).trim() {
                "rules" | "reglas" => {
                    same_rules(rules, &Rules::standard(rules.players), value, "match state", &[])?;
                }
                "score" | "match" | "partido" | "tanteo" | "match points" => {
                    let words: Vec<&str> = value
                        .split(|c: char| c == ',' || c == '-' || c.is_whitespace())
                        .filter(|w| !w.is_empty())
                        .collect();
                    if words.len() != sides {
                        return Err(Error::usage(format!(
                            "score: {} values but the table has {sides} sides: give each side's points, e.g. score: {}",
                            words.len(),
                            vec!["0"; sides].join(" ")
                        )));
                    }
                    let mut v = Vec::with_capacity(sides);
                    for (k, w) in words.iter().enumerate() {
                        let p = w.parse::<i64>().ok().filter(|&p| (0..rules.to as i64).contains(&p));
                        match p {
                            Some(p) => v.push(p),
                            None => {
                                return Err(Error::usage(format!(
                                    "score: '{w}' for {}: give 0 to {} (at {} the match is won)",
                                    side_name(rules, k),
                                    rules.to.saturating_sub(1),
                                    rules.to
                                )))
                            }
                        }
                    }
                    points = Some(v);
                }
                _ => {
                    return Err(Error::usage(format!(
                        "a Dominó match state holds the score (match: 85 60) and rules: '{item}' belongs to a position (which also names its seat: seat: N)"
                    )))
                }
            }
        }
        let points = points.ok_or_else(|| {
            Error::usage(format!(
                "the match state has no score: give each side's points, e.g. score: {}",
                vec!["0"; sides].join(" ")
            ))
        })?;
        Ok(DominoMatch { points })
    }

    fn write_match(rules: &Rules, m: &DominoMatch) -> String {
        let points: Vec<String> = m.points.iter().map(i64::to_string).collect();
        let changes = rule_changes(rules, &Rules::standard(rules.players), &[]);
        format!("rules: {changes}; match: {}", points.join(" "))
    }

    fn deal_from_match(
        rules: &Rules,
        m: &DominoMatch,
        start: &Start,
        rng: &mut Stream,
    ) -> DominoState {
        if m.points.iter().all(|&p| p == 0) {
            return DominoState::deal(rules, start, rng);
        }
        let mut points = [0i64; 4];
        points[..m.points.len()].copy_from_slice(&m.points);
        DominoState::dealt_from(*rules, points, rng)
    }

    /// For two sides (pairs, or two players), every score in fifths of the target (0, 20, 40,
    /// 60, 80 to 100; 0, 25, …, 100 to 121) for each side; more sides have too many: give one.
    fn equity_grid(rules: &Rules) -> Vec<DominoMatch> {
        if !rules.is_match() || rules.side_count() != 2 {
            return Vec::new();
        }
        let step = ((rules.to as i64 / 5 + 2) / 5 * 5).max(1);
        let scores: Vec<i64> = (0..)
            .map(|k| k * step)
            .take_while(|&p| p < rules.to as i64)
            .collect();
        let mut out = Vec::new();
        for &a in &scores {
            for &b in &scores {
                out.push(DominoMatch { points: vec![a, b] });
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn end(number: u8, double: bool) -> OpenEnd {
        OpenEnd { number, double }
    }

    fn set(list: &str) -> TileSet {
        super::super::tiles::parse_list(list, 9).unwrap()
    }

    #[test]
    fn a_line_goes_through_every_tile_between_its_ends() {
        // 4-2 2-6 6-6 6-3: the double in the middle.
        let line = line_of(set("4-2,2-6,6-6,6-3"), &[end(4, false), end(3, false)]).unwrap();
        assert_eq!(line_text(&line), "4-2 2-6 6-6 6-3");
        // A double at an end is its open side.
        let line = line_of(set("6-6,6-1,1-1"), &[end(6, true), end(1, true)]).unwrap();
        assert_eq!(line_text(&line), "6-6 6-1 1-1");
        // A loop: both ends show 6.
        let line = line_of(set("6-1,1-2,2-6"), &[end(6, false), end(6, false)]).unwrap();
        assert_eq!(line_text(&line), "6-1 1-2 2-6");
        // The opening alone.
        assert_eq!(
            line_of(set("5-5"), &[end(5, true), end(5, true)]),
            Some(vec![(5, 5)])
        );
        assert_eq!(
            line_of(set("5-3"), &[end(3, false), end(5, false)]),
            Some(vec![(3, 5)])
        );
        // No line: tiles apart, a double closed where its number is only an end, wrong ends.
        assert_eq!(
            line_of(set("6-1,3-2"), &[end(6, false), end(1, false)]),
            None
        );
        assert_eq!(
            line_of(set("6-6,6-1"), &[end(6, false), end(1, false)]),
            None
        );
        assert_eq!(
            line_of(set("6-1,1-2"), &[end(6, false), end(1, false)]),
            None
        );
    }

    #[test]
    fn numbers_are_read_as_players_say_them() {
        for (w, n) in [
            ("4", 4),
            ("4s", 4),
            ("cuatros", 4),
            ("fours", 4),
            ("seises", 6),
            ("sixes", 6),
            ("ases", 1),
            ("blancas", 0),
            ("tres", 3),
        ] {
            assert_eq!(parse_number(w, 6), Some(n), "{w}");
        }
        assert_eq!(parse_number("7", 6), None);
        assert_eq!(parse_number("x", 6), None);
        let t = parse_tiles("hand", "doble seis, 6-1 5:4 seis cuatro blanca", 6).unwrap();
        let shown: Vec<String> = t.iter().map(|t| t.to_string()).collect();
        assert_eq!(shown, ["6-6", "6-1", "5-4", "6-4", "0-0"]);
    }
}
