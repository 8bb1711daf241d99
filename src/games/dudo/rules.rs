//! The rules of Dudo (`docs/rules.md` §1) as values: [`Bidding`], how a bid is counted and
//! which raises are legal under a rule set, and [`Rules`], a whole game's rules (rule set, table
//! and house-rule switches) with its one rule table.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::bid::Bid;
use super::face::Face;
use crate::error::{Error, Result};
use crate::play::rules::{flip, on_off, switch, whole, Flag, Rule};
use crate::play::GameRules;
use crate::text::normalize;

/// The most players a table may have.
pub const MAX_PLAYERS: usize = 16;

/// Which rule set is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RuleSet {
    /// Chimbo 9: 3 fichas, fixed direction, aces by "la mitad más uno".
    Chimbo9,
    /// Dudo Caleuchano: 5 palos, millas bonus, paso, mandada reforzada, obligado.
    Caleuchano,
}

impl RuleSet {
    /// What [`RuleSet::parse`] accepts, said to whoever gave something else.
    pub const ACCEPTS: &'static str = "use chimbo9 or caleuchano";

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
    /// Parses a rule set as players write it: `chimbo9`, `chimbo-9`, `Chimbo 9`, `chimbo`,
    /// `caleuchano`, `caleuche`, `Dudo Caleuchano` (any case, accents and separators ignored).
    pub fn parse(text: &str) -> Option<RuleSet> {
        let word: String = normalize(text)
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | '_'))
            .collect();
        match word.as_str() {
            "chimbo9" | "chimbo" => Some(RuleSet::Chimbo9),
            "caleuchano" | "caleuche" | "dudocaleuchano" => Some(RuleSet::Caleuchano),
            _ => None,
        }
    }
}

impl fmt::Display for RuleSet {
    /// The command-line name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// How Chimbo 9 rounds "la mitad más uno" for odd quantities.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AceRound {
    /// floor(Q/2) + 1 (default).
    #[default]
    Floor,
    /// ceil(Q/2) + 1.
    Ceil,
}

impl AceRound {
    /// What [`AceRound::parse`] accepts, said to whoever gave something else.
    pub const ACCEPTS: &'static str = "use floor or ceil";

    /// Parses `floor` or `ceil` (any case).
    pub fn parse(text: &str) -> Option<AceRound> {
        match normalize(text).as_str() {
            "floor" => Some(AceRound::Floor),
            "ceil" => Some(AceRound::Ceil),
            _ => None,
        }
    }
}

impl fmt::Display for AceRound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AceRound::Floor => "floor",
            AceRound::Ceil => "ceil",
        })
    }
}

/// The bidding rules of a rule set with its two counting switches: how a bid is counted
/// ([`Bidding::counting`]) and which raises are legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Bidding {
    /// The rule set.
    pub set: RuleSet,
    /// Chimbo 9's rounding of "la mitad más uno" (ignored under Caleuchano).
    pub ace_round: AceRound,
    /// Aces count for a face only if at least one natural die of that face is on the table.
    pub aces_need_natural: bool,
    /// Chimbo 9 house rule: "la mitad más uno" aces or more is always a legal raise, even when
    /// it lowers the face without raising the quantity (Q aces after Q of another face).
    /// Off: the text's example ("dos ases" after "dos tontos" is illegal) holds for aces too.
    #[serde(default)]
    pub aces_or_more: bool,
}

impl Bidding {
    /// The rule set with default flags.
    pub fn new(set: RuleSet) -> Self {
        Self {
            set,
            ace_round: AceRound::Floor,
            aces_need_natural: false,
            aces_or_more: false,
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
    /// Where it is below Q, Q aces are still illegal: see [`Bidding::forbidden_quantity`].
    /// Under [`Bidding::aces_or_more`] the half-plus-one is always the fewest.
    /// Caleuchano: "la mitad o mayor que la mitad", ceil(Q/2).
    pub fn min_aces_after(&self, quantity: u32) -> u32 {
        match self.set {
            RuleSet::Chimbo9 => {
                let half_plus_one = match self.ace_round {
                    AceRound::Floor => quantity / 2 + 1,
                    AceRound::Ceil => quantity.div_ceil(2) + 1,
                };
                if half_plus_one == quantity && !self.aces_or_more {
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
    /// larger quantity is legal too except [`Bidding::forbidden_quantity`], the one gap.
    pub fn min_raise(&self, prev: Bid, face: Face) -> u32 {
        match (prev.face.is_ace(), face.is_ace()) {
            (false, false) => prev.quantity + u32::from(face <= prev.face),
            (false, true) => self.min_aces_after(prev.quantity),
            (true, true) => prev.quantity + 1,
            (true, false) => self.min_quantity_after_aces(prev.quantity),
        }
    }

    /// A quantity above [`Bidding::min_raise`] that is nevertheless not a legal raise on `face`
    /// over `prev` in a normal round, if there is one.
    ///
    /// Chimbo 9 forbids going down in face without raising the quantity, and aces are the
    /// lowest face: after Q of another face, Q aces are illegal even where the half-plus-one is
    /// below Q (after 3 quinas: 2 aces, or 4 and more, but not 3). Caleuchano's conversion has
    /// no such rule: its ace bid of half or more *is* the higher bid ("se acepta la mandada de
    /// ASES … la mitad o mayor que la mitad"); nor has Chimbo 9 under
    /// [`Bidding::aces_or_more`].
    pub fn forbidden_quantity(&self, prev: Bid, face: Face) -> Option<u32> {
        let lowers_face = face.is_ace() && !prev.face.is_ace();
        (self.set == RuleSet::Chimbo9
            && !self.aces_or_more
            && lowers_face
            && prev.quantity > self.min_raise(prev, face))
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

/// A whole game's rules: the rule set with its counting switches, the table and the house-rule
/// switches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rules {
    /// Counting and raising rules.
    pub bidding: Bidding,
    /// Players at the start.
    pub players: u8,
    /// Lives each (Chimbo 9: 3 fichas; Caleuchano: out at the 5th palo).
    pub lives: u8,
    /// Paso allowed (Caleuchano).
    pub paso: bool,
    /// Mandada reforzada allowed (Caleuchano).
    pub reforzada: bool,
    /// Obligado allowed (Caleuchano).
    pub obligado: bool,
    /// The opener chooses the direction each round (Caleuchano); otherwise always to the right.
    pub choose_direction: bool,
    /// Revivir (house rule, "no reglamentario"): once a game, a player just down to their last
    /// life gets it back when nobody else is on their last life, or, when every player still in
    /// has lost the same number of lives (one or more), each gets one back.
    #[serde(default)]
    pub revivir: bool,
}

impl Rules {
    /// The rule set as written: Chimbo 9 with 3 lives and none of the Caleuchano rules, or
    /// Caleuchano with 5 palos, paso, reforzada, obligado and the opener's choice of direction.
    pub fn standard(set: RuleSet, players: u8) -> Self {
        let cal = set == RuleSet::Caleuchano;
        Self {
            bidding: Bidding::new(set),
            players,
            lives: if cal { 5 } else { 3 },
            paso: cal,
            reforzada: cal,
            obligado: cal,
            choose_direction: cal,
            revivir: false,
        }
    }

    /// The rule set played.
    pub fn set(&self) -> RuleSet {
        self.bidding.set
    }

    /// Checks the table size and lives, and refuses a rule of the other rule set.
    pub fn validate(&self) -> Result<()> {
        if !(2..=MAX_PLAYERS as u8).contains(&self.players) {
            return Err(Error::usage(format!(
                "invalid players={}: a game needs 2 to {MAX_PLAYERS} players",
                self.players
            )));
        }
        if !(1..=20).contains(&self.lives) {
            return Err(Error::usage(format!(
                "invalid lives={}: give 1 to 20 lives",
                self.lives
            )));
        }
        // Rules of one rule set only: refused under the other, as `dudo prob` refuses them.
        if self.obligado && self.set() == RuleSet::Chimbo9 {
            return Err(Error::usage(
                "obligado=on is a Caleuchano rule (Chimbo 9 has no obligado round): drop it or add rules=caleuchano",
            ));
        }
        if self.bidding.ace_round == AceRound::Ceil && self.set() == RuleSet::Caleuchano {
            return Err(Error::usage(
                "ace-round=ceil is a Chimbo 9 rule (Caleuchano converts by half or more): drop it or use rules=chimbo9",
            ));
        }
        if self.bidding.aces_or_more && self.set() == RuleSet::Caleuchano {
            return Err(Error::usage(
                "aces-or-more=on is a Chimbo 9 rule (Caleuchano's half or more has no gap): drop it or use rules=chimbo9",
            ));
        }
        Ok(())
    }

    /// The standard table of this rule set and size, which the description and the changes of
    /// `flags` measure from.
    fn at_standard(&self) -> Rules {
        Rules::standard(self.set(), self.players)
    }
}

/// A Caleuchano switch (paso, reforzada, obligado) in a description: said when it differs from
/// the rule set's standard.
fn describe_switch(on: bool, standard: bool, name: &str) -> Option<String> {
    (on != standard).then(|| format!("{} {name}", if on { "with" } else { "no" }))
}

/// The change that turns a Caleuchano switch the other way, labelled `paso on`, `paso off`, ….
fn flip_switch(key: &str, now: bool) -> (String, String) {
    flip(key, now, &format!("{key} on"), &format!("{key} off"))
}

/// Every rule of Dudo, once (docs/rules.md §1). `rules` comes first: a rule set brings its own
/// standard for every rule still at the old set's standard (lives, paso, reforzada, obligado,
/// direction; Chimbo 9's rounding goes back to floor under Caleuchano), and the changes given
/// with it have the last word.
const TABLE: &[Rule<Rules>] = &[
    Rule {
        key: "rules",
        aliases: &["reglas", "rule-set"],
        flag: Flag::Value { long: "rules", value_name: "SET" },
        help: "Rule set: chimbo9 or caleuchano (flags at that rule set's standard unless --house changes them) [default: chimbo9]",
        accepts: RuleSet::ACCEPTS,
        set: |r, v| {
            let Some(set) = RuleSet::parse(v) else {
                return false;
            };
            let (old, new) = (r.at_standard(), Rules::standard(set, r.players));
            if r.lives == old.lives {
                r.lives = new.lives;
            }
            if r.paso == old.paso {
                r.paso = new.paso;
            }
            if r.reforzada == old.reforzada {
                r.reforzada = new.reforzada;
            }
            if r.obligado == old.obligado {
                r.obligado = new.obligado;
            }
            if r.choose_direction == old.choose_direction {
                r.choose_direction = new.choose_direction;
            }
            if set == RuleSet::Caleuchano {
                r.bidding.ace_round = AceRound::Floor;
                r.bidding.aces_or_more = false;
            }
            r.bidding.set = set;
            true
        },
        get: |r| r.set().key().to_string(),
        describe: |r| Some(r.set().title().to_string()),
        changes: |r| {
            let other = match r.set() {
                RuleSet::Chimbo9 => RuleSet::Caleuchano,
                RuleSet::Caleuchano => RuleSet::Chimbo9,
            };
            vec![(format!("rules={}", other.key()), other.title().to_string())]
        },
    },
    Rule {
        key: "lives",
        aliases: &["vidas"],
        flag: Flag::None,
        help: "Lives each, 1–20 [default: 3 fichas in Chimbo 9, 5 palos in Caleuchano]",
        accepts: "give 1 to 20 lives",
        set: |r, v| whole(v, 1, 20).map(|n| r.lives = n as u8).is_some(),
        get: |r| r.lives.to_string(),
        describe: |r| (r.lives != r.at_standard().lives).then(|| format!("{} lives", r.lives)),
        changes: |r| {
            // The other standard number of lives.
            let lives = if r.lives == 5 { 3 } else { 5 };
            vec![(format!("lives={lives}"), format!("{lives} lives"))]
        },
    },
    Rule {
        key: "paso",
        aliases: &[],
        flag: Flag::None,
        help: "Paso: once per round a player may pass instead of raising; a doubted pass stands with poker, full or pichanga [default: on in Caleuchano]",
        accepts: "use on or off",
        set: |r, v| switch(v).map(|b| r.paso = b).is_some(),
        get: |r| on_off(r.paso),
        describe: |r| describe_switch(r.paso, r.at_standard().paso, "paso"),
        changes: |r| vec![flip_switch("paso", r.paso)],
    },
    Rule {
        key: "reforzada",
        aliases: &[],
        flag: Flag::None,
        help: "Mandada reforzada: a bidder may show the dice of the face bid and re-roll the rest unseen [default: on in Caleuchano]",
        accepts: "use on or off",
        set: |r, v| switch(v).map(|b| r.reforzada = b).is_some(),
        get: |r| on_off(r.reforzada),
        describe: |r| describe_switch(r.reforzada, r.at_standard().reforzada, "reforzada"),
        changes: |r| vec![flip_switch("reforzada", r.reforzada)],
    },
    Rule {
        key: "obligado",
        aliases: &[],
        flag: Flag::None,
        help: "Obligado (Caleuchano only): a player just down to one life may open a round with a fixed face, no wild aces and no millas [default: on in Caleuchano]",
        accepts: "use on or off",
        set: |r, v| switch(v).map(|b| r.obligado = b).is_some(),
        get: |r| on_off(r.obligado),
        describe: |r| describe_switch(r.obligado, r.at_standard().obligado, "obligado"),
        changes: |r| {
            if r.set() == RuleSet::Caleuchano {
                vec![flip_switch("obligado", r.obligado)]
            } else {
                vec![]
            }
        },
    },
    Rule {
        key: "direction",
        aliases: &["direccion"],
        flag: Flag::None,
        help: "Direction of play: choose (the opener chooses each round) or fixed (always to the right) [default: choose in Caleuchano, fixed in Chimbo 9]",
        accepts: "use choose or fixed",
        set: |r, v| {
            let choose = match normalize(v).as_str() {
                "choose" => true,
                "fixed" => false,
                _ => return false,
            };
            r.choose_direction = choose;
            true
        },
        get: |r| if r.choose_direction { "choose" } else { "fixed" }.to_string(),
        describe: |r| {
            describe_switch(
                r.choose_direction,
                r.at_standard().choose_direction,
                "direction choice",
            )
        },
        changes: |r| {
            let to = if r.choose_direction { "fixed" } else { "choose" };
            vec![(format!("direction={to}"), format!("direction {to}"))]
        },
    },
    Rule {
        key: "aces-need-natural",
        aliases: &[],
        flag: Flag::None,
        help: "Aces count for a face only if at least one natural die of that face is on the table [default: off]",
        accepts: "use on or off",
        set: |r, v| switch(v).map(|b| r.bidding.aces_need_natural = b).is_some(),
        get: |r| on_off(r.bidding.aces_need_natural),
        describe: |r| r.bidding.aces_need_natural.then(|| "aces need a natural".into()),
        changes: |r| {
            vec![flip(
                "aces-need-natural",
                r.bidding.aces_need_natural,
                "aces need a natural",
                "aces always wild",
            )]
        },
    },
    Rule {
        key: "ace-round",
        aliases: &[],
        flag: Flag::None,
        help: "Chimbo 9: round \"la mitad más uno\" down (floor) or up (ceil) for odd quantities [default: floor]",
        accepts: AceRound::ACCEPTS,
        set: |r, v| AceRound::parse(v).map(|a| r.bidding.ace_round = a).is_some(),
        get: |r| r.bidding.ace_round.to_string(),
        describe: |r| {
            (r.set() == RuleSet::Chimbo9 && r.bidding.ace_round == AceRound::Ceil)
                .then(|| "aces by ceil(Q/2) + 1".into())
        },
        changes: |r| match (r.set(), r.bidding.ace_round) {
            (RuleSet::Chimbo9, AceRound::Floor) => {
                vec![("ace-round=ceil".into(), "aces ceil(Q/2)+1".into())]
            }
            (RuleSet::Chimbo9, AceRound::Ceil) => {
                vec![("ace-round=floor".into(), "aces floor(Q/2)+1".into())]
            }
            (RuleSet::Caleuchano, _) => vec![],
        },
    },
    Rule {
        key: "aces-or-more",
        aliases: &["ases-o-mas"],
        flag: Flag::None,
        help: "Chimbo 9: \"la mitad más uno\" aces or more is always a legal raise, Q aces after Q of another face included (docs/rules.md §1a); off, the text's example (\"dos ases\" after \"dos tontos\" is illegal) forbids exactly Q aces [default: off]",
        accepts: "use on or off",
        set: |r, v| switch(v).map(|b| r.bidding.aces_or_more = b).is_some(),
        get: |r| on_off(r.bidding.aces_or_more),
        describe: |r| r.bidding.aces_or_more.then(|| "half plus one aces or more".into()),
        changes: |r| {
            if r.set() == RuleSet::Chimbo9 {
                vec![flip(
                    "aces-or-more",
                    r.bidding.aces_or_more,
                    "aces or more",
                    "no Q aces after Q",
                )]
            } else {
                vec![]
            }
        },
    },
    Rule {
        key: "revivir",
        aliases: &["revivida"],
        flag: Flag::None,
        help: "Revivir (not regulation; never in competitions): once a game, a player just down to their last life gets it back if nobody else is on their last life (instead of obligado), or, when every player still in has lost the same number of lives, each gets one back [default: off]",
        accepts: "use on or off",
        set: |r, v| switch(v).map(|b| r.revivir = b).is_some(),
        get: |r| on_off(r.revivir),
        describe: |r| r.revivir.then(|| "revivir".into()),
        changes: |r| {
            if r.lives > 1 {
                vec![flip("revivir", r.revivir, "revivir", "no revivir")]
            } else {
                vec![]
            }
        },
    },
];

impl GameRules for Rules {
    const TABLE: &'static [Rule<Rules>] = TABLE;
    fn standard(players: usize) -> Rules {
        Rules::standard(RuleSet::Chimbo9, players.min(u8::MAX as usize) as u8)
    }
    fn players(&self) -> usize {
        self.players as usize
    }
    fn validate(&self) -> Result<()> {
        Rules::validate(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(rules: Rules) -> Vec<String> {
        rules
            .one_rule_changes()
            .into_iter()
            .map(|c| c.name)
            .collect()
    }

    #[test]
    fn changes_are_the_meaningful_ones() {
        assert_eq!(
            names(Rules::standard(RuleSet::Chimbo9, 4)),
            [
                "rules=caleuchano",
                "lives=5",
                "paso=on",
                "reforzada=on",
                "direction=choose",
                "aces-need-natural=on",
                "ace-round=ceil",
                "aces-or-more=on",
                "revivir=on",
            ]
        );
        assert_eq!(
            names(Rules::standard(RuleSet::Caleuchano, 5)),
            [
                "rules=chimbo9",
                "lives=3",
                "paso=off",
                "reforzada=off",
                "obligado=off",
                "direction=fixed",
                "aces-need-natural=on",
                "revivir=on",
            ]
        );
        // The other rule set is its standard table; each other change moves one rule.
        let cal = Rules::standard(RuleSet::Caleuchano, 5);
        for c in cal.one_rule_changes() {
            assert_eq!(cal.with_changes(&c.name).unwrap(), c.rules, "{}", c.name);
            if c.name == "rules=chimbo9" {
                assert_eq!(c.rules, Rules::standard(RuleSet::Chimbo9, 5));
                assert_eq!(c.label, "Chimbo 9");
            }
        }
        let ceil = Rules::standard(RuleSet::Chimbo9, 3)
            .with_changes("ace-round=ceil")
            .unwrap();
        let to_cal = ceil.with_changes("rules=caleuchano").unwrap();
        assert_eq!(to_cal, Rules::standard(RuleSet::Caleuchano, 3));
        assert!(names(ceil).contains(&"ace-round=floor".to_string()));
    }

    #[test]
    fn the_table_reads_back_what_it_writes() {
        for players in 2..=8 {
            for set in [RuleSet::Chimbo9, RuleSet::Caleuchano] {
                let r = Rules::standard(set, players);
                crate::play::rules::check_table(&r).unwrap();
                for c in r.one_rule_changes() {
                    crate::play::rules::check_table(&c.rules).unwrap();
                }
            }
        }
    }

    #[test]
    fn changes_as_written() {
        let chimbo = Rules::standard(RuleSet::Chimbo9, 4);
        // The rule set first, whatever the order given: the others have the last word.
        let r = chimbo
            .with_changes("paso=off, Rules=Caleuchano,lives=1e1,direction=fixed")
            .unwrap();
        assert_eq!(
            (
                r.set(),
                r.lives,
                r.paso,
                r.reforzada,
                r.obligado,
                r.choose_direction
            ),
            (RuleSet::Caleuchano, 10, false, true, true, false)
        );
        // A rule set moves only the rules at the old one's standard.
        let r = chimbo
            .with_changes("lives=2,aces-need-natural=on")
            .unwrap()
            .with_changes("rules=caleuchano")
            .unwrap();
        assert_eq!(
            (r.lives, r.bidding.aces_need_natural, r.paso),
            (2, true, true)
        );
        for (bad, said) in [
            (
                "rules=perudo",
                "invalid rules=perudo: use chimbo9 or caleuchano",
            ),
            ("lives=0", "invalid lives=0: give 1 to 20 lives"),
            ("paso=maybe", "invalid paso=maybe: use on or off"),
            (
                "direction=left",
                "invalid direction=left: use choose or fixed",
            ),
            ("ace-round=up", "invalid ace-round=up: use floor or ceil"),
        ] {
            assert_eq!(chimbo.with_changes(bad).unwrap_err().to_string(), said);
        }
        let e = chimbo.with_changes("colour=red").unwrap_err().to_string();
        assert!(
            e.contains("colour") && e.contains("rules, lives, paso"),
            "{e}"
        );
        assert!(chimbo
            .with_changes("obligado=on")
            .unwrap()
            .validate()
            .is_err());
    }

    #[test]
    fn descriptions() {
        assert_eq!(
            Rules::standard(RuleSet::Chimbo9, 3).describe(),
            "3 players · Chimbo 9"
        );
        let r = Rules::standard(RuleSet::Caleuchano, 3)
            .with_changes("paso=off,obligado=off,direction=fixed,lives=3")
            .unwrap();
        assert_eq!(
            r.describe(),
            "3 players · Caleuchano · 3 lives · no paso · no obligado · no direction choice"
        );
        let r = Rules::standard(RuleSet::Chimbo9, 4)
            .with_changes("ace-round=ceil,reforzada=on,aces-need-natural=on")
            .unwrap();
        assert_eq!(
            r.describe(),
            "4 players · Chimbo 9 · with reforzada · aces need a natural · aces by ceil(Q/2) + 1"
        );
    }

    #[test]
    fn rule_sets_as_players_write_them() {
        for (text, set) in [
            ("chimbo9", RuleSet::Chimbo9),
            ("chimbo-9", RuleSet::Chimbo9),
            ("Chimbo 9", RuleSet::Chimbo9),
            ("CHIMBO", RuleSet::Chimbo9),
            ("caleuchano", RuleSet::Caleuchano),
            ("Caleuche", RuleSet::Caleuchano),
            ("Dudo Caleuchano", RuleSet::Caleuchano),
        ] {
            assert_eq!(RuleSet::parse(text), Some(set), "{text}");
            assert_eq!(RuleSet::parse(&set.to_string()), Some(set));
        }
        assert_eq!(RuleSet::parse("perudo"), None);
        assert_eq!(AceRound::parse(" Ceil"), Some(AceRound::Ceil));
        assert_eq!(AceRound::parse("round"), None);
    }

    fn bid(q: u32, f: u8) -> Bid {
        Bid {
            quantity: q,
            face: Face::new(f).unwrap(),
        }
    }

    #[test]
    fn chimbo9_half_plus_one() {
        let r = Bidding::new(RuleSet::Chimbo9);
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
        let ceil = Bidding {
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
        let r = Bidding::new(RuleSet::Caleuchano);
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
            for (ace_round, aces_or_more) in [
                (AceRound::Floor, false),
                (AceRound::Ceil, false),
                (AceRound::Floor, true),
                (AceRound::Ceil, true),
            ] {
                let r = Bidding {
                    set,
                    ace_round,
                    aces_need_natural: false,
                    aces_or_more,
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
        let r = Bidding::new(RuleSet::Chimbo9);
        assert!(r.is_raise(bid(2, 2), bid(2, 3)));
        assert!(r.is_raise(bid(2, 5), bid(3, 2)));
        assert!(!r.is_raise(bid(2, 5), bid(2, 4)));
        assert!(!r.is_raise(bid(2, 5), bid(2, 5)));
        assert!(r.is_raise(bid(3, 1), bid(4, 1)));
        assert!(!r.is_raise(bid(3, 1), bid(3, 1)));
    }

    #[test]
    fn counting_rules() {
        let chimbo = Bidding::new(RuleSet::Chimbo9);
        let cal = Bidding::new(RuleSet::Caleuchano);
        let natural = Bidding {
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
