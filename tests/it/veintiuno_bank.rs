//! `tahur veintiuno bank` from a depleted shoe against an independent exact enumeration: every
//! ordered sequence of cards the bank can be dealt (up card, hole card, draws until it stands or
//! busts) from the explicit multiset of cards left, in exact integer fractions. Nothing here
//! calls the library's recursion: the shoe, the card values and the bank's two-card specials
//! (docs/rules.md §2, the default house rules) are written again below.

use crate::common;
use common::*;

/// Ranks in the order the enumeration uses, with their points (aces as 1).
const RANKS: [char; 10] = ['A', '2', '3', '4', '5', '6', '7', 'J', 'Q', 'K'];
const POINTS: [u32; 10] = [1, 2, 3, 4, 5, 6, 7, 10, 10, 10];
const SUITS: [char; 4] = ['H', 'D', 'C', 'S'];
/// Index of "bust" in a distribution; indices 0..=21 are final totals.
const BUST: usize = 22;

/// The cards left: `count[rank][suit]`.
type Shoe = [[u32; 4]; 10];

fn card(code: &str) -> (usize, usize) {
    let mut ch = code.chars();
    let r = ch.next().unwrap();
    let s = ch.next().unwrap();
    assert!(ch.next().is_none(), "{code}");
    (
        RANKS.iter().position(|&x| x == r).unwrap(),
        SUITS.iter().position(|&x| x == s).unwrap(),
    )
}

/// `decks` full decks without the listed cards.
fn shoe(decks: u32, removed: &str) -> Shoe {
    let mut s = [[decks; 4]; 10];
    for code in removed.split(',').filter(|c| !c.is_empty()) {
        let (r, su) = card(code);
        s[r][su] = s[r][su]
            .checked_sub(1)
            .expect("removed more than the shoe holds");
    }
    s
}

/// The bank's total after its first two cards, the specials included: two aces (moñona) and
/// ace + figure count 21; 12 in two cards counts 20, or 21 when both cards share a suit. A
/// special total is final (the bank does not draw to it).
fn two_cards(a: (usize, usize), b: (usize, usize)) -> (u32, bool) {
    let hard = POINTS[a.0] + POINTS[b.0];
    let figure = |r: usize| r >= 7;
    if a.0 == 0 && b.0 == 0 {
        return (21, true);
    }
    if (a.0 == 0 && figure(b.0)) || (b.0 == 0 && figure(a.0)) {
        return (21, true);
    }
    if hard == 12 {
        return (if a.1 == b.1 { 21 } else { 20 }, true);
    }
    let ace = a.0 == 0 || b.0 == 0;
    (
        if ace && hard + 10 <= 21 {
            hard + 10
        } else {
            hard
        },
        false,
    )
}

/// Exact probabilities: `num[t] / den`.
struct Exact {
    num: [u128; 23],
    den: u128,
}

impl Exact {
    fn f64(&self, t: usize) -> f64 {
        self.num[t] as f64 / self.den as f64
    }
}

/// Leaves of the enumeration: `by_depth[j][t]` sums, over the sequences of `j` cards dealt
/// after the up card that end on `t`, the product of the counts each card was drawn from
/// (times the up card's count). A sequence of `j` cards has probability
/// `product / (R · M (M−1) … (M−j+1))`, R the cards of the up card's rank, M the cards left
/// after the up card.
struct Leaves {
    by_depth: Vec<[u128; 23]>,
}

impl Leaves {
    fn add(&mut self, depth: usize, total: usize, w: u128) {
        if self.by_depth.len() <= depth {
            self.by_depth.resize(depth + 1, [0; 23]);
        }
        self.by_depth[depth][total] = self.by_depth[depth][total].checked_add(w).unwrap();
    }

    /// Everything over one denominator: `R · M (M−1) … (M−J+1)`, J the deepest sequence.
    fn exact(&self, r: u128, m: u128) -> Exact {
        let deepest = self.by_depth.len() - 1;
        let falling = |from: u128, n: usize| -> u128 {
            (0..n as u128).fold(1u128, |p, i| p.checked_mul(from - i).unwrap())
        };
        let den = r.checked_mul(falling(m, deepest)).unwrap();
        let mut num = [0u128; 23];
        for (j, row) in self.by_depth.iter().enumerate() {
            let scale = falling(m - j as u128, deepest - j);
            for t in 0..23 {
                num[t] = num[t]
                    .checked_add(row[t].checked_mul(scale).unwrap())
                    .unwrap();
            }
        }
        Exact { num, den }
    }
}

/// Every ordered sequence of draws from `left` (by rank: after the first two cards the suits
/// no longer matter, so the cards of a rank are counted together), from a hand of `hard`
/// points holding an ace or not; the bank stands on `stand` or more.
#[allow(clippy::too_many_arguments)]
fn draw(
    left: &mut [u32; 10],
    n_left: u32,
    hard: u32,
    ace: bool,
    stand: u32,
    depth: usize,
    w: u128,
    out: &mut Leaves,
) {
    assert!(
        n_left > 0,
        "the shoe ran dry: choose a shoe with more points in it"
    );
    for r in 0..10 {
        let c = left[r];
        if c == 0 {
            continue;
        }
        let w = w * c as u128;
        let (h, a) = (hard + POINTS[r], ace || r == 0);
        let total = if a && h + 10 <= 21 { h + 10 } else { h };
        if h > 21 {
            out.add(depth + 1, BUST, w);
        } else if total >= stand {
            out.add(depth + 1, total as usize, w);
        } else {
            left[r] -= 1;
            draw(left, n_left - 1, h, a, stand, depth + 1, w, out);
            left[r] += 1;
        }
    }
}

/// Which up card.
#[derive(Clone, Copy)]
enum Up {
    /// A random card of this rank from the shoe, every card left equally likely.
    Random(usize),
    /// This card (rank, suit).
    Named(usize, usize),
}

/// The bank's final-total distribution, by enumeration; `None` when no such up card is left.
fn enumerate(shoe: &Shoe, up: Up, stand: u32) -> Option<Exact> {
    let (rank, suits): (usize, Vec<usize>) = match up {
        Up::Random(r) => (r, (0..4).collect()),
        Up::Named(r, s) => (r, vec![s]),
    };
    let r_total: u32 = suits.iter().map(|&s| shoe[rank][s]).sum();
    if r_total == 0 {
        return None;
    }
    let n: u32 = shoe.iter().flatten().sum();
    let m = n - 1;
    let mut leaves = Leaves {
        by_depth: Vec::new(),
    };
    for &us in &suits {
        let cu = shoe[rank][us];
        if cu == 0 {
            continue;
        }
        let mut after_up = *shoe;
        after_up[rank][us] -= 1;
        for hr in 0..10 {
            for hs in 0..4 {
                let ch = after_up[hr][hs];
                if ch == 0 {
                    continue;
                }
                let w = cu as u128 * ch as u128;
                let (two, special) = two_cards((rank, us), (hr, hs));
                if special || two >= stand {
                    leaves.add(1, two as usize, w);
                    continue;
                }
                let mut left = [0u32; 10];
                for (r, slot) in left.iter_mut().enumerate() {
                    *slot = after_up[r].iter().sum();
                }
                left[hr] -= 1;
                let hard = POINTS[rank] + POINTS[hr];
                let ace = rank == 0 || hr == 0;
                draw(&mut left, m - 1, hard, ace, stand, 1, w, &mut leaves);
            }
        }
    }
    Some(leaves.exact(r_total as u128, m as u128))
}

/// `tahur veintiuno bank ARGS --format json`'s rows.
fn report(args: &[&str]) -> serde_json::Value {
    let mut a = vec!["veintiuno", "bank"];
    a.extend_from_slice(args);
    a.extend_from_slice(&["--format", "json"]);
    json(&a)
}

/// Asserts that `row` (a report row) is `want`, column by column, within 1e-12; its shown
/// columns must hold the whole distribution.
fn assert_row(row: &serde_json::Value, want: &Exact, stand: u32, what: &str) {
    let shown: Vec<usize> = (stand.min(20) as usize..=21).chain([BUST]).collect();
    let in_shown: u128 = shown.iter().map(|&t| want.num[t]).sum();
    assert_eq!(in_shown, want.den, "{what}: every total is a column");
    let mut sum = 0.0;
    for t in shown {
        let key = if t == BUST {
            "bust".to_string()
        } else {
            format!("t{t}")
        };
        let got = row[&key]
            .as_f64()
            .unwrap_or_else(|| panic!("{what}: no {key}"));
        sum += got;
        assert!(
            (got - want.f64(t)).abs() < 1e-12,
            "{what} {key}: report {got}, enumeration {} = {}/{}",
            want.f64(t),
            want.num[t],
            want.den
        );
    }
    assert!((sum - 1.0).abs() < 1e-12, "{what}: row adds up to {sum}");
}

/// Every row of `tahur veintiuno bank --removed REMOVED` (and `--house decks=D`) equals the
/// enumeration with a random up card of its rank; a rank with no card left has no row.
fn check_table(decks: u32, removed: &str, stand: u32) -> Vec<Option<Exact>> {
    let s = shoe(decks, removed);
    let house = format!("decks={decks}");
    let st = stand.to_string();
    let v = report(&["--house", &house, "--removed", removed, "--bank-stand", &st]);
    assert!(
        v["title"]
            .as_str()
            .unwrap()
            .contains("up card: a random remaining card of its rank"),
        "{}",
        v["title"]
    );
    let rows = v["bank"].as_array().unwrap();
    let mut rows = rows.iter();
    let mut all = Vec::new();
    for (rank, name) in RANKS.iter().enumerate() {
        let want = enumerate(&s, Up::Random(rank), stand);
        if let Some(want) = &want {
            let row = rows.next().expect("a row per rank left");
            assert_eq!(row["up"], name.to_string());
            assert_row(row, want, stand, &format!("{removed} up {name}"));
        }
        all.push(want);
    }
    assert!(rows.next().is_none(), "no row for a rank with no card left");
    all
}

fn named(decks: u32, removed: &str, up: &str, stand: u32) -> Exact {
    let (r, s) = card(up);
    let want = enumerate(&shoe(decks, removed), Up::Named(r, s), stand).unwrap();
    let house = format!("decks={decks}");
    let st = stand.to_string();
    let v = report(&[
        "--house",
        &house,
        "--removed",
        removed,
        "--bank-stand",
        &st,
        "--up",
        up,
    ]);
    let rows = v["bank"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "--up gives one row");
    assert_eq!(rows[0]["up"], up);
    assert!(
        v["title"]
            .as_str()
            .unwrap()
            .ends_with(&format!("up card: {}", up_symbol(up))),
        "{}",
        v["title"]
    );
    assert_row(&rows[0], &want, stand, &format!("{removed} --up {up}"));
    want
}

fn up_symbol(code: &str) -> String {
    let (r, s) = card(code);
    format!("{}{}/{code}", RANKS[r], ["♥", "♦", "♣", "♠"][s])
}

fn six(x: f64, want: f64) {
    assert!((x - want).abs() < 5e-7, "{x} is not {want} to 6 decimals");
}

#[test]
fn five_of_hearts_removed_every_up_card_is_a_random_remaining_card() {
    let rows = check_table(1, "5H", 17);
    let seven = rows[6].as_ref().unwrap();
    // A random 7 (7H, 7D, 7C, 7S, 1 in 4 each), where the first suit held (7H) gave t20
    // 0.161649 and t21 0.068400: 7H can no longer make a 12 of one suit, the other three can.
    six(seven.f64(20), 0.141912);
    six(seven.f64(21), 0.088137);
    // t17 … t19 and bust do not depend on the suit (as the first-suit model gave them).
    six(seven.f64(17), 0.380767);
    six(seven.f64(18), 0.156229);
    six(seven.f64(19), 0.072677);
    six(seven.f64(BUST), 0.160277);

    // The named 7H is the old figure; 7S makes its 12 of one suit with 5S, 1 time in 38, where
    // 7H makes a plain 12 (20) with it; the rest of the shoe has the same ranks either way.
    let h = named(1, "5H", "7H", 17);
    six(h.f64(20), 0.161649);
    six(h.f64(21), 0.068400);
    let s = named(1, "5H", "7S", 17);
    assert_eq!(
        s.num[21] * h.den * 38,
        h.num[21] * s.den * 38 + s.den * h.den
    );
    assert_eq!(
        s.num[20] * h.den * 38 + s.den * h.den,
        h.num[20] * s.den * 38
    );
    // A random 7 is 7H 1 time in 4 and a 7 of another suit (each like 7S) 3 times in 4.
    for t in 0..23 {
        assert_eq!(
            seven.num[t] * 4 * s.den * h.den,
            (h.num[t] * s.den + 3 * s.num[t] * h.den) * seven.den,
            "7 total {t}"
        );
    }

    // Ranks that cannot make a 12 with a missing 5 keep one figure whatever the suit: A, 3, 4.
    for (rank, up) in [(0, "AS"), (2, "3D"), (3, "4C")] {
        let n = named(1, "5H", up, 17);
        let r = rows[rank].as_ref().unwrap();
        for t in 0..23 {
            assert_eq!(n.num[t] * r.den, r.num[t] * n.den, "{up} total {t}");
        }
    }
}

#[test]
fn a_suit_of_the_up_rank_exhausted_small_shoe() {
    // One deck, 18 cards left: no 7H, no 7D, no 2H, no 6; figures to make the 12s of one suit.
    let removed = "7H,7D,2H,6H,6D,6C,6S,5D,5C,4H,4D,4S,3C,3S,AD,AS,JH,JC,QS,KH,KD,2S";
    let s = shoe(1, removed);
    assert_eq!(s.iter().flatten().sum::<u32>(), 18);
    let rows = check_table(1, removed, 17);
    assert!(rows[5].is_none(), "no 6 left: no row");
    // A random 7 is 7C or 7S, 1 in 2 each; a random 2 is 2D or 2C.
    let c = named(1, removed, "7C", 17);
    let sp = named(1, removed, "7S", 17);
    let seven = rows[6].as_ref().unwrap();
    for t in 0..23 {
        assert_eq!(
            seven.num[t] * 2 * c.den * sp.den,
            (c.num[t] * sp.den + sp.num[t] * c.den) * seven.den,
            "7 total {t}"
        );
    }
    assert_ne!(c.num[21] * sp.den, sp.num[21] * c.den, "7C and 7S differ");
    // The same shoe with the bank standing on 19.
    check_table(1, removed, 19);
}

#[test]
fn two_decks_with_a_named_up_card() {
    // Two decks: both 7H gone, one 7D gone; two 6S left, so 6S + 6S is a 12 of one suit, and
    // one 6C, which has no 6C to pair with.
    let removed = "6C,7H,7H,7D,5S,KH,KD,QC,JS,AH,AC,AC,4D,4D,3H,3S,2C,2C,2D,6H,6H,6D,QH,QH,QD,JD,JD,JC,KS,KS,KC,7C,5H,5D,4S,4H,3D,3C,2S,AD";
    let s = shoe(2, removed);
    assert_eq!(s[6], [0, 1, 1, 2]);
    assert_eq!(s[5], [0, 1, 1, 2]);
    check_table(2, removed, 17);
    let a = named(2, removed, "6S", 17);
    let b = named(2, removed, "6C", 17);
    assert_ne!(
        a.num[21] * b.den,
        b.num[21] * a.den,
        "6S + 6S counts 21; the one 6C has no partner"
    );
    named(2, removed, "7S", 16);
    named(2, removed, "7D", 16);
}

#[test]
fn full_shoe_rows_do_not_depend_on_the_model() {
    // Every suit held equally: the random card of a rank and each named card give one row.
    let v = report(&[]);
    let seven = &v["bank"].as_array().unwrap()[6];
    for up in ["7H", "7D", "7C", "7S"] {
        let r = &report(&["--up", up])["bank"][0];
        for key in ["t17", "t18", "t19", "t20", "t21", "bust"] {
            assert!((r[key].as_f64().unwrap() - seven[key].as_f64().unwrap()).abs() < 1e-15);
        }
    }
    // The infinite deck averages the suits already: a named card's row is its rank's.
    let inf = report(&["--infinite"]);
    let named = report(&["--infinite", "--up", "siete de corazones"]);
    assert_eq!(named["bank"][0]["up"], "7H");
    for key in ["t17", "t18", "t19", "t20", "t21", "bust"] {
        assert_eq!(named["bank"][0][key], inf["bank"][6][key]);
    }
    assert!(named["title"].as_str().unwrap().contains("up card: 7♥/7H"));
}

#[test]
fn spanish_names_and_symbols_name_the_up_card() {
    let want = report(&["--removed", "5H", "--up", "7S"]);
    for up in ["7♠", "siete de picas", "7s"] {
        assert_eq!(
            report(&["--removed", "5H", "--up", up])["bank"],
            want["bank"]
        );
    }
}

#[test]
fn an_up_card_not_in_the_shoe_is_a_user_error() {
    let e = fails(&["veintiuno", "bank", "--removed", "5H,7H", "--up", "7H"]);
    assert!(e.contains("7H") && e.contains("7D, 7C or 7S"), "{e}");
    let e = fails(&[
        "veintiuno",
        "bank",
        "--removed",
        "7H,7D,7C",
        "--up",
        "siete de corazones",
    ]);
    assert!(e.contains("7H") && e.contains("7S"), "{e}");
    let e = fails(&[
        "veintiuno",
        "bank",
        "--removed",
        "7H,7D,7C,7S",
        "--up",
        "7H",
    ]);
    assert!(e.contains("7H") && e.contains("no 7 is left"), "{e}");
    let e = fails(&["veintiuno", "bank", "--up", "8H"]);
    assert!(e.contains("8H") && e.contains("rank"), "{e}");
}
