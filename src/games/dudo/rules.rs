//! The two rule sets (`../shared/RULES.md` §1) as parameters: how a bid is counted and which
//! raises are legal.

use serde::{Deserialize, Serialize};

use super::bid::Bid;
use super::face::Face;

/// Which rule set is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum RuleSet {
    /// Chimbo 9: 3 fichas, fixed direction, aces by "la mitad más uno".
    #[value(name = "chimbo9", alias = "chimbo-9", alias = "chimbo")]
    Chimbo9,
    /// Dudo Caleuchano: 5 palos, millas bonus, paso, mandada reforzada, obligado.
    #[value(name = "caleuchano", alias = "caleuche")]
    Caleuchano,
}

impl RuleSet {
    /// The rule set's name as players write it.
    pub fn title(self) -> &'static str {
        match self {
            RuleSet::Chimbo9 => "Chimbo 9",
            RuleSet::Caleuchano => "Caleuchano",
        }
    }
    /// The command-line name.
    pub fn key(self) -> &'static str {
        match self {
            RuleSet::Chimbo9 => "chimbo9",
            RuleSet::Caleuchano => "caleuchano",
        }
    }
}

/// How Chimbo 9 rounds "la mitad más uno" for odd quantities.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum AceRound {
    /// floor(Q/2) + 1 (default).
    #[default]
    Floor,
    /// ceil(Q/2) + 1.
    Ceil,
}

/// A rule set with its house-rule flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rules {
    /// The rule set.
    pub set: RuleSet,
    /// Chimbo 9's rounding of "la mitad más uno" (ignored under Caleuchano).
    pub ace_round: AceRound,
    /// Aces count for a face only if at least one natural die of that face is on the table.
    pub aces_need_natural: bool,
}

impl Rules {
    /// The rule set with default flags.
    pub fn new(set: RuleSet) -> Self {
        Self {
            set,
            ace_round: AceRound::Floor,
            aces_need_natural: false,
        }
    }

    /// How a bid on `face` is counted, in a normal round or an obligado round.
    pub fn counting(&self, face: Face, obligado: bool) -> Counting {
        let wild_aces = !obligado && !face.is_ace();
        Counting {
            face,
            wild_aces,
            need_natural: wild_aces && self.aces_need_natural,
            bonus: u32::from(self.set == RuleSet::Caleuchano && !obligado && face == Face::TWO),
        }
    }

    /// The fewest aces that may follow a bid of `quantity` of another face.
    ///
    /// Chimbo 9: "la mitad más uno", floor(Q/2) + 1 (or ceil(Q/2) + 1 under
    /// [`AceRound::Ceil`]), and more aces are allowed too; but Q aces after Q of another face
    /// lower the face without raising the quantity ("dos ases" after "dos tontos" is illegal), so
    /// where the half-plus-one is Q itself (floor: Q = 1, 2; ceil: Q = 2, 3) the fewest is Q + 1.
    /// Where it is below Q, Q aces are still illegal: see [`Rules::forbidden_quantity`].
    /// Caleuchano: "la mitad o mayor que la mitad", ceil(Q/2).
    pub fn min_aces_after(&self, quantity: u32) -> u32 {
        match self.set {
            RuleSet::Chimbo9 => {
                let half_plus_one = match self.ace_round {
                    AceRound::Floor => quantity / 2 + 1,
                    AceRound::Ceil => quantity.div_ceil(2) + 1,
                };
                if half_plus_one == quantity {
                    quantity + 1
                } else {
                    half_plus_one
                }
            }
            RuleSet::Caleuchano => quantity.div_ceil(2).max(1),
        }
    }

    /// The smallest quantity of another face that may follow a bid of `aces` aces ("el doble
    /// más uno").
    pub fn min_quantity_after_aces(&self, aces: u32) -> u32 {
        2 * aces + 1
    }

    /// The smallest quantity of a legal raise on `face` over `prev` in a normal round. Every
    /// larger quantity is legal too except [`Rules::forbidden_quantity`], the one gap.
    pub fn min_raise(&self, prev: Bid, face: Face) -> u32 {
        match (prev.face.is_ace(), face.is_ace()) {
            (false, false) => prev.quantity + u32::from(face <= prev.face),
            (false, true) => self.min_aces_after(prev.quantity),
            (true, true) => prev.quantity + 1,
            (true, false) => self.min_quantity_after_aces(prev.quantity),
        }
    }

    /// A quantity above [`Rules::min_raise`] that is nevertheless not a legal raise on `face`
    /// over `prev` in a normal round, if there is one.
    ///
    /// Chimbo 9 forbids going down in face without raising the quantity, and aces are the
    /// lowest face: after Q of another face, Q aces are illegal even where the half-plus-one is
    /// below Q (after 3 quinas: 2 aces, or 4 and more, but not 3). Caleuchano's conversion has
    /// no such rule: its ace bid of half or more *is* the higher bid ("se acepta la mandada de
    /// ASES … la mitad o mayor que la mitad").
    pub fn forbidden_quantity(&self, prev: Bid, face: Face) -> Option<u32> {
        let lowers_face = face.is_ace() && !prev.face.is_ace();
        (self.set == RuleSet::Chimbo9 && lowers_face && prev.quantity > self.min_raise(prev, face))
            .then_some(prev.quantity)
    }

    /// Whether `next` is a legal raise over `prev` in a normal (not obligado) round.
    pub fn is_raise(&self, prev: Bid, next: Bid) -> bool {
        next.quantity >= self.min_raise(prev, next.face)
            && self.forbidden_quantity(prev, next.face) != Some(next.quantity)
    }

    /// Whether `next` is a legal raise over `prev` in an obligado round: the face is fixed, so
    /// only the quantity can rise. (Face changes by players on 4 palos belong to the game engine.)
    pub fn is_obligado_raise(&self, prev: Bid, next: Bid) -> bool {
        next.face == prev.face && next.quantity > prev.quantity
    }

    /// Every legal raise over `prev` with quantity at most `max_quantity`, lowest first.
    pub fn raises(&self, prev: Bid, obligado: bool, max_quantity: u32) -> Vec<Bid> {
        let mut out = Vec::new();
        for q in 1..=max_quantity {
            for face in Face::ALL {
                let next = Bid { quantity: q, face };
                let legal = if obligado {
                    self.is_obligado_raise(prev, next)
                } else {
                    self.is_raise(prev, next)
                };
                if legal {
                    out.push(next);
                }
            }
        }
        out
    }
}

/// How the dice are counted for one bid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counting {
    /// The face bid.
    pub face: Face,
    /// Aces count as this face.
    pub wild_aces: bool,
    /// Aces count only if at least one natural die of the face is on the table.
    pub need_natural: bool,
    /// Dice added at the count (the Caleuchano millas bonus).
    pub bonus: u32,
}

impl Counting {
    /// The count for a table where `naturals` dice show the face and `aces` dice show aces
    /// (for an ace bid, `naturals` are the aces themselves and `aces` is ignored).
    #[inline]
    pub fn count(&self, naturals: u32, aces: u32) -> u32 {
        let wild = if self.wild_aces && (!self.need_natural || naturals > 0) {
            aces
        } else {
            0
        };
        naturals + wild + self.bonus
    }

    /// The count of a full table given as one face per die: the rule read literally, die by die.
    pub fn count_dice(&self, dice: &[Face]) -> u32 {
        let naturals = dice.iter().filter(|&&d| d == self.face).count() as u32;
        let aces = dice.iter().filter(|d| d.is_ace()).count() as u32;
        self.count(naturals, if self.face.is_ace() { 0 } else { aces })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bid(q: u32, f: u8) -> Bid {
        Bid {
            quantity: q,
            face: Face::new(f).unwrap(),
        }
    }

    #[test]
    fn chimbo9_half_plus_one() {
        let r = Rules::new(RuleSet::Chimbo9);
        // "dos ases" after "dos tontos" is illegal; three aces is fine.
        assert!(!r.is_raise(bid(2, 2), bid(2, 1)));
        assert!(r.is_raise(bid(2, 2), bid(3, 1)));
        assert_eq!(r.min_aces_after(1), 2);
        assert_eq!(r.min_aces_after(3), 2);
        assert_eq!(r.min_aces_after(15), 8);
        assert_eq!(r.min_aces_after(16), 9);
        assert!(r.is_raise(bid(15, 4), bid(8, 1)));
        assert!(!r.is_raise(bid(15, 4), bid(7, 1)));
        assert!(
            r.is_raise(bid(15, 4), bid(9, 1)),
            "more aces is also allowed"
        );
        let ceil = Rules {
            ace_round: AceRound::Ceil,
            ..r
        };
        assert_eq!(ceil.min_aces_after(15), 9);
        assert_eq!(ceil.min_aces_after(16), 9);
        // Q aces after Q of another face lower the face without raising the quantity, under
        // either rounding. After 3 quinas: floor allows 2 aces (3/2 + 1) and 4 or more, not 3;
        // ceil's half-plus-one is 3 itself (2 + 1), so it starts at 4.
        assert!(r.is_raise(bid(3, 5), bid(2, 1)));
        assert!(!r.is_raise(bid(3, 5), bid(3, 1)));
        assert!(r.is_raise(bid(3, 5), bid(4, 1)));
        assert_eq!(r.forbidden_quantity(bid(3, 5), Face::ACE), Some(3));
        assert_eq!(ceil.min_aces_after(3), 4);
        assert!(!ceil.is_raise(bid(3, 5), bid(3, 1)));
        assert!(ceil.is_raise(bid(3, 5), bid(4, 1)));
        assert_eq!(ceil.forbidden_quantity(bid(3, 5), Face::ACE), None);
        assert_eq!(ceil.min_aces_after(2), 3);
        assert_eq!(ceil.min_aces_after(1), 2);
        assert!(!r.is_raise(bid(15, 4), bid(15, 1)));
        assert!(r.is_raise(bid(15, 4), bid(14, 1)) && r.is_raise(bid(15, 4), bid(16, 1)));
        // No gap anywhere else: not among ordinary faces, not from aces.
        assert_eq!(r.forbidden_quantity(bid(3, 5), Face::new(6).unwrap()), None);
        assert_eq!(r.forbidden_quantity(bid(3, 1), Face::ACE), None);
        assert_eq!(r.forbidden_quantity(bid(3, 1), Face::TWO), None);
        // back from aces: 2A + 1
        assert!(r.is_raise(bid(8, 1), bid(17, 2)));
        assert!(!r.is_raise(bid(8, 1), bid(16, 6)));
    }

    #[test]
    fn caleuchano_half_or_more() {
        let r = Rules::new(RuleSet::Caleuchano);
        assert_eq!(r.min_aces_after(15), 8);
        assert_eq!(r.min_aces_after(16), 8);
        assert_eq!(r.min_aces_after(2), 1);
        assert_eq!(r.min_aces_after(1), 1);
        assert!(r.is_raise(bid(16, 4), bid(8, 1)));
        assert!(!r.is_raise(bid(16, 4), bid(7, 1)));
        assert!(r.is_raise(bid(8, 1), bid(17, 3)));
        // Half or more is the higher bid: Q aces after Q of a face stay legal.
        assert!(r.is_raise(bid(1, 5), bid(1, 1)));
        assert!(r.is_raise(bid(2, 5), bid(2, 1)));
        assert!(r.is_raise(bid(3, 5), bid(3, 1)));
        assert_eq!(r.forbidden_quantity(bid(3, 5), Face::ACE), None);
    }

    #[test]
    fn min_raise_and_the_gap_agree_with_is_raise() {
        for set in [RuleSet::Chimbo9, RuleSet::Caleuchano] {
            for ace_round in [AceRound::Floor, AceRound::Ceil] {
                let r = Rules {
                    set,
                    ace_round,
                    aces_need_natural: false,
                };
                for q in 1..=40 {
                    for f in 1..=6 {
                        for f2 in 1..=6 {
                            let face = Face::new(f2).unwrap();
                            let min = r.min_raise(bid(q, f), face);
                            let gap = r.forbidden_quantity(bid(q, f), face);
                            assert!(gap.is_none_or(|g| g > min));
                            for q2 in 1..=90 {
                                assert_eq!(
                                    r.is_raise(bid(q, f), bid(q2, f2)),
                                    q2 >= min && Some(q2) != gap,
                                    "{set:?} {q}x{f} -> {q2}x{f2}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn ordinary_raises() {
        let r = Rules::new(RuleSet::Chimbo9);
        assert!(r.is_raise(bid(2, 2), bid(2, 3)));
        assert!(r.is_raise(bid(2, 5), bid(3, 2)));
        assert!(!r.is_raise(bid(2, 5), bid(2, 4)));
        assert!(!r.is_raise(bid(2, 5), bid(2, 5)));
        assert!(r.is_raise(bid(3, 1), bid(4, 1)));
        assert!(!r.is_raise(bid(3, 1), bid(3, 1)));
    }

    #[test]
    fn counting_rules() {
        let chimbo = Rules::new(RuleSet::Chimbo9);
        let cal = Rules::new(RuleSet::Caleuchano);
        let natural = Rules {
            aces_need_natural: true,
            ..cal
        };
        let f = |v| Face::new(v).unwrap();
        let dice: Vec<Face> = [1, 1, 4, 2, 6].iter().map(|&v| f(v)).collect();
        assert_eq!(chimbo.counting(f(4), false).count_dice(&dice), 3);
        assert_eq!(chimbo.counting(f(1), false).count_dice(&dice), 2);
        assert_eq!(chimbo.counting(f(2), false).count_dice(&dice), 3);
        assert_eq!(
            cal.counting(f(2), false).count_dice(&dice),
            4,
            "millas bonus"
        );
        assert_eq!(
            cal.counting(f(2), true).count_dice(&dice),
            1,
            "obligado: no bonus, no wilds"
        );
        assert_eq!(chimbo.counting(f(5), false).count_dice(&dice), 2);
        assert_eq!(
            natural.counting(f(5), false).count_dice(&dice),
            0,
            "no natural five"
        );
        assert_eq!(natural.counting(f(4), false).count_dice(&dice), 3);
        assert_eq!(natural.counting(f(3), false).count_dice(&dice), 0);
    }
}
