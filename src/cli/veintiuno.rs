//! `tahur veintiuno …`

use clap::{Args, Subcommand};

use tahur::report::chart::SvgChart;

use super::run::{exit_code, samples, with_progress, RunArgs, SeedArgs};
use super::{emit, OutputArgs};
use tahur::error::{Error, Result};
use tahur::games::veintiuno::cards::{Card, Composition};
use tahur::games::veintiuno::engine::BankPolicy;
use tahur::games::veintiuno::exact;
use tahur::games::veintiuno::rules::Options;
use tahur::games::veintiuno::sim::{parse_policy, HandSimSetup};
use tahur::games::veintiuno::sitting::TableRules;
use tahur::jobs::Job;

/// 21 ecuatoriano commands.
#[derive(Subcommand, Debug)]
pub enum VeintiunoCommand {
    /// Exact odds of every two-card special, from a full shoe or what is left of one.
    #[command(after_help = "Examples:
  tahur veintiuno odds
  tahur veintiuno odds --house decks=2 --removed AH,AS,KD --format json")]
    Odds(OddsCmd),
    /// Exact distribution of the bank's final total by up card.
    ///
    /// From a depleted shoe, each row's up card is a random remaining card of its rank (every
    /// card left equally likely, so suits weigh by the copies left; the suit matters through the
    /// 12 of one suit counting 21). `--up` names one card instead and gives its row alone.
    ///
    /// Against a bank that draws to 17 (--bank-stand N); the default bank that sees is not
    /// solved exactly.
    #[command(after_help = "Examples:
  tahur veintiuno bank
  tahur veintiuno bank --infinite --bank-stand 16
  tahur veintiuno bank --removed AH,AS,AD,KD,QS --format csv
  tahur veintiuno bank --removed 5H --up 7S   # the bank shows 7♠: its row alone
  tahur veintiuno bank --removed 5H --up \"siete de picas\" --format json")]
    Bank(BankCmd),
    /// Whole hands with a rotating bank: EV per seat, the bank's edge, specials, shoe depth.
    #[command(after_help = "Examples:
  tahur veintiuno sim --players 4 --hands 1e6
  tahur veintiuno sim --players 5 --policies basic,mimic:16 \\
      --house puje=off,decks=2 --format json
  tahur veintiuno sim --players 4 --hands 1e8 --shard 1/10 --output part1.json")]
    Sim(SimCmd),
    /// Sittings with chips, as the text plays them: bets on the face-down card between the
    /// bank's minimum and maximum, a bank that can be broken, until one seat holds every chip.
    ///
    /// Reports each seat's chance to end with everything, and the first bank's risk of being
    /// broken before the bank changes hands — simulated, and exactly as a gambler's ruin on the
    /// bank's result per hand.
    #[command(after_help = "Examples:
  tahur veintiuno bankroll --players 4 --chips 100 --house max-bet=10
  tahur veintiuno bankroll --players 4 --chips 1000 --bank-chips 100 \\
      --house max-bet=10 --max-hands 200   # the first bank's risk only
  tahur veintiuno bankroll --players 3 --strategies sheet,flat,basic \\
      --chips 50 --house min-bet=1,max-bet=5 --format json")]
    Bankroll(BankrollCmd),
    /// The best move at every decision point (hit/stand, split, tapo, withdraw) by the bank's up
    /// card, for a fresh shoe or a depleted one: every move's expected value computed exactly
    /// from the cards left (or estimated by Monte Carlo with --samples), with each cell's margin.
    ///
    /// Against a bank that draws to 17 (--bank-stand N); the default bank that sees is not
    /// solved exactly.
    #[command(after_help = "Examples:
  tahur veintiuno strategy
  tahur veintiuno strategy --removed AH,AS,KD,KS,QH,5C,7C --chart grid.svg
  tahur veintiuno strategy --samples 50000        # Monte Carlo, the check
  tahur veintiuno strategy --infinite --house puje=off
  tahur veintiuno strategy --write strategy.json --format markdown")]
    Strategy(StrategyCmd),
    /// One decision at once: every legal move's EV and its margin to the best, for a hand
    /// against the bank's up card — from the built-in exact sheet for a fresh shoe, computed
    /// exactly for a depleted one (--removed).
    ///
    /// Against a bank that draws to 17 (--bank-stand N); the default bank that sees is not
    /// solved exactly.
    #[command(after_help = "Examples:
  tahur veintiuno advise --hand 10,6 --up 7
  tahur veintiuno advise --hand \"as, cinco\" --up rey
  tahur veintiuno advise --hand 7H,7S --up 5 --removed AH,AS,KD,KS,QH")]
    Advise(AdviseCmd),
}

/// `tahur veintiuno advise`.
#[derive(Args, Debug)]
pub struct AdviseCmd {
    /// Your cards in the order dealt: ranks (10 for a figure) or cards with suits (AH, 7♦,
    /// rey de picas) where a 12 of one suit matters.
    #[arg(long, value_name = "CARDS")]
    pub hand: String,
    /// The bank's up card (a rank, or a card with its suit).
    #[arg(long, value_name = "CARD")]
    pub up: String,
    /// Cards already dealt from the shoe (then the sheet is computed exactly for what is left).
    #[arg(long, value_name = "CARDS", default_value = "", alias = "deck-state")]
    pub removed: String,
    #[command(flatten)]
    pub house: HouseArgs,
    #[command(flatten)]
    pub fixed: FixedBankArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Runs `tahur veintiuno advise`.
pub fn advise(a: AdviseCmd) -> Result<i32> {
    use tahur::games::veintiuno::advise as adv;
    let bank = a.fixed.policy("advise", &a.house)?;
    let opts = a.house.options()?;
    let items = tahur::text::list_items(&a.hand, "--hand")?;
    if items.len() < 2 {
        return Err(Error::usage(format!(
            "--hand '{}': give at least two cards, e.g. --hand 10,6",
            a.hand.trim()
        )));
    }
    // Cards named without a suit take different suits (a 12 of one suit needs its suits named).
    let hand = items
        .iter()
        .enumerate()
        .map(|(i, w)| adv::parse_card(w, i))
        .collect::<Result<Vec<Card>>>()?;
    let up = adv::parse_card(&a.up, 3)?;
    let composition = Composition::from_removed(opts.decks, &a.removed)?;
    if composition.total() < 12 {
        return Err(Error::usage(
            "fewer than 12 cards left: too few to play a hand out; remove fewer cards",
        ));
    }
    let (sheet, source) = adv::sheet_for(&composition, &opts, bank, a.removed.trim().is_empty())?;
    let mut rep = adv::report(&hand, up, &sheet, &opts, &source)?;
    rep.note(exact::fixed_bank_note(bank.stand));
    emit(&rep, &a.out)?;
    Ok(0)
}

/// House rules shared by the commands.
#[derive(Args, Debug, Clone)]
pub struct HouseArgs {
    /// House rules: decks=N, twelve=on|off, suited12=on|off, monona=N, natural=N, trillona=on|off,
    /// puje=on|off, tapo=on|off, withdraw13=on|off, steal=on|off, min-bet=N, max-bet=N.
    #[arg(long, value_name = "KEY=VALUE,…", default_value = "")]
    pub house: String,
}

impl HouseArgs {
    fn options(&self) -> Result<Options> {
        Options::default().with_house_rules(&self.house)
    }

    /// The house rules of a command whose figures only `keys` can change: any other key is
    /// refused (it would print the figures unchanged), saying `why`.
    fn options_for(&self, command: &str, keys: &[&str], why: &str) -> Result<Options> {
        let opts = self.options()?;
        let pairs = tahur::text::key_values(&self.house, "house rule", "decks=2")?;
        // Keys as the rule table knows them (its aliases and spellings included).
        let takes = |k: &str| {
            tahur::play::rules::rule::<TableRules>(k).is_some_and(|r| keys.contains(&r.key))
        };
        if let Some((k, v)) = pairs.iter().find(|(k, _)| !takes(k)) {
            return Err(Error::usage(format!(
                "--house {k}={v} does not change {why}: veintiuno {command} takes {}",
                tahur::text::and_list(keys)
            )));
        }
        Ok(opts)
    }
}

/// `tahur veintiuno odds`.
#[derive(Args, Debug)]
#[command(mut_arg("house", |a| a.help("House rules: decks=N (the other rules change what a hand pays, not its odds)")))]
pub struct OddsCmd {
    #[command(flatten)]
    pub house: HouseArgs,
    /// Cards already dealt from the shoe, e.g. AH,AS,KD (also "as de corazones").
    #[arg(long, value_name = "CARDS", default_value = "", alias = "deck-state")]
    pub removed: String,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// `tahur veintiuno bank`.
#[derive(Args, Debug)]
#[command(mut_arg("house", |a| a.help("House rules that change the bank's total: decks=N, twelve=on|off, suited12=on|off")))]
pub struct BankCmd {
    #[command(flatten)]
    pub house: HouseArgs,
    /// Cards already dealt from the shoe.
    #[arg(long, value_name = "CARDS", default_value = "", alias = "deck-state")]
    pub removed: String,
    /// Use an infinite deck (every rank 1 in 10) instead of the shoe's cards.
    #[arg(long, conflicts_with = "removed")]
    pub infinite: bool,
    /// The bank's up card, e.g. 7S, 7♠, siete de picas: the table has this card's row alone,
    /// and the card must still be in the shoe. Without it each row's up card is a random
    /// remaining card of its rank.
    #[arg(long, value_name = "CARD", value_parser = parse_up)]
    pub up: Option<Card>,
    #[command(flatten)]
    pub fixed: FixedBankArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// `tahur veintiuno sim`.
#[derive(Args, Debug)]
pub struct SimCmd {
    /// Players at the table, bank included (2–8).
    #[arg(long, value_name = "P", required = true, value_parser = parse_table_players)]
    pub players: u8,
    /// Player strategy (policy) by seat, repeated if fewer than players: basic, pie, mimic[:S]
    /// (hit below S), sheet (bets the maximum on an ace or a figure face down), flat (the sheet,
    /// minimum bets), sheet:FILE.json; Spanish básica, banca[:S], hoja, plana, hoja:FILE.json.
    #[arg(
        long = "strategies",
        visible_alias = "policies",
        value_name = "S1,S2,…",
        default_value = "basic"
    )]
    pub policies: String,
    #[command(flatten)]
    pub house: HouseArgs,
    #[command(flatten)]
    pub bank: BankArgs,
    /// Check every hand: no card dealt twice per shoe, money conserved.
    #[arg(long)]
    pub check: bool,
    /// Hands to play, e.g. 1000000 or 1e6.
    #[arg(long, value_name = "N", default_value = "1000000", value_parser = samples("hands"), alias = "games")]
    pub hands: u64,
    /// Draw each seat's EV per hand and the bank's result with 95 % intervals as a dot plot,
    /// SVG (PNG when FILE ends in .png).
    #[arg(long, value_name = "FILE")]
    pub chart: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// The bank of the exact commands (`bank`, `strategy`, `advise`): they are solved against a bank
/// that draws to a fixed total; the default bank of the other commands, which draws by what it
/// sees, is not solved exactly.
#[derive(Args, Debug)]
pub struct FixedBankArgs {
    /// The bank stands at this total or more: solved against a bank that draws to 17 (or N);
    /// the default bank that sees is not solved exactly.
    #[arg(long, value_name = "N", default_value_t = 17, value_parser = parse_bank_stand)]
    pub bank_stand: u8,
    /// How the bank draws: fixed only (to --bank-stand); sees, the default of `sim`, `compare`
    /// and `flags`, is not solved exactly and is refused.
    #[arg(long, value_name = "HOW", default_value = "fixed", value_parser = ["fixed", "sees"])]
    pub bank_draw: String,
}

impl FixedBankArgs {
    /// The bank `command` is solved against; a usage error for the bank that sees (asked for
    /// with --bank-draw or --house).
    fn policy(&self, command: &str, house: &HouseArgs) -> Result<BankPolicy> {
        let asked = tahur::text::key_values(&house.house, "house rule", "decks=2")
            .ok()
            .and_then(|pairs| {
                pairs
                    .iter()
                    .find(|(k, _)| k.trim().eq_ignore_ascii_case("bank-draw"))
                    .map(|(_, v)| v.trim().to_string())
            });
        if self.bank_draw == "sees" || asked.as_deref().is_some_and(|v| v != "fixed") {
            return Err(Error::usage(format!(
                "veintiuno {command} is solved against a bank that draws to a fixed total \
                 (--bank-stand N, default 17); the bank that draws by what it sees is not solved \
                 exactly: play it with veintiuno sim"
            )));
        }
        Ok(BankPolicy::fixed(self.bank_stand))
    }
}

/// The bank's policy of the hand-by-hand commands (`sim`, `bankroll`).
#[derive(Args, Debug)]
pub struct BankArgs {
    /// The total the bank that draws to a fixed total (--bank-draw fixed) stands at; the default
    /// bank, which draws by what it sees, has none (another total is refused without
    /// --bank-draw fixed).
    #[arg(long, value_name = "N", default_value_t = 17, value_parser = parse_bank_stand)]
    pub bank_stand: u8,
    /// The bank sends players al puje with 20 in two cards (off: a puje only gives the players
    /// chances; on measures what it gives away).
    #[arg(long, default_value = "off", value_parser = ["on", "off"])]
    pub bank_puje: String,
    /// How the bank draws: sees (it draws when drawing on is worth more than standing, judged
    /// from its cards, the face-up cards of the hands still open and the cards it has not seen)
    /// or fixed (to --bank-stand, the bank the exact sheet is solved against).
    #[arg(long, value_name = "HOW", default_value = "sees", value_parser = ["sees", "fixed"])]
    pub bank_draw: String,
}

impl BankArgs {
    fn policy(&self) -> BankPolicy {
        BankPolicy {
            stand: self.bank_stand,
            puje: self.bank_puje == "on",
            sees: self.bank_draw == "sees",
        }
    }
}

/// `tahur veintiuno bankroll`.
#[derive(Args, Debug)]
pub struct BankrollCmd {
    /// Players at the table, bank included (2–8).
    #[arg(long, value_name = "P", required = true, value_parser = parse_table_players)]
    pub players: u8,
    /// Player strategy (policy) by seat, repeated if fewer than players: sheet (bets the
    /// maximum on an ace or a figure face down), flat (the sheet, minimum bets), basic, pie,
    /// mimic[:S], sheet:FILE.json.
    #[arg(
        long = "strategies",
        visible_alias = "policies",
        value_name = "S1,S2,…",
        default_value = "sheet"
    )]
    pub policies: String,
    /// House rules, the bet limits among them: min-bet=N, max-bet=N (and the keys of --house of
    /// `veintiuno sim`).
    #[command(flatten)]
    pub house: HouseArgs,
    /// Chips each seat starts with.
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub chips: u32,
    /// Chips the first bank (drawn by high card) starts with; the others start with --chips.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub bank_chips: Option<u32>,
    /// A sitting still going after this many hands stops (counted as unfinished).
    #[arg(long, value_name = "N", default_value = "100000", value_parser = samples("hands"))]
    pub max_hands: u64,
    #[command(flatten)]
    pub bank: BankArgs,
    /// Sittings to play, e.g. 10000 or 1e4.
    #[arg(long, value_name = "N", default_value = "2000", value_parser = samples("sittings"), alias = "games")]
    pub sittings: u64,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}

fn parse_up(s: &str) -> std::result::Result<Card, String> {
    Card::parse(s).map_err(|e| e.to_string())
}

fn parse_bank_stand(s: &str) -> std::result::Result<u8, String> {
    tahur::text::parse_whole(s, 12, 21, "the bank stands at 12 to 21").map(|n| n as u8)
}

fn parse_table_players(s: &str) -> std::result::Result<u8, String> {
    tahur::text::parse_whole(s, 2, 8, "21 ecuatoriano is for 2 to 8 players").map(|n| n as u8)
}

/// Runs a 21 ecuatoriano command.
pub fn execute(cmd: VeintiunoCommand) -> Result<i32> {
    match cmd {
        VeintiunoCommand::Odds(a) => {
            let opts = a.house.options_for(
                "odds",
                &["decks"],
                "the odds of two-card hands (each special is counted whatever the rules pay)",
            )?;
            let comp = Composition::from_removed(opts.decks, &a.removed)?;
            if comp.total() < 2 {
                return Err(Error::usage(
                    "fewer than two cards left: remove fewer cards",
                ));
            }
            emit(&exact::odds_report(&comp, &opts, &a.removed), &a.out)?;
            Ok(0)
        }
        VeintiunoCommand::Bank(a) => {
            let bank = a.fixed.policy("bank", &a.house)?;
            let opts = a.house.options_for(
                "bank",
                &["decks", "twelve", "suited12"],
                "the bank's final total",
            )?;
            let comp = if a.infinite {
                None
            } else {
                Some(Composition::from_removed(opts.decks, &a.removed)?)
            };
            if comp.as_ref().is_some_and(|c| c.total() < 2) {
                return Err(Error::usage(
                    "fewer than two cards left: remove fewer cards",
                ));
            }
            emit(
                &exact::bank_report(comp.as_ref(), a.up, bank.stand, &opts)?,
                &a.out,
            )?;
            Ok(0)
        }
        VeintiunoCommand::Sim(a) => {
            let opts = a.house.options()?;
            let list = tahur::text::split_specs(&a.policies, "--policies")?
                .iter()
                .map(|p| parse_policy(p))
                .collect::<Result<Vec<_>>>()?;
            let bank = a.bank.policy();
            let setup = HandSimSetup::new(opts, a.players as usize, &list, bank, a.check)?;
            super::run::run_job_charted(Job::VeintiunoSim(setup), a.hands, &a.run, &a.out, a.chart)
        }
        VeintiunoCommand::Bankroll(a) => {
            use tahur::games::veintiuno::bankroll::BankrollSetup;
            let opts = a.house.options()?;
            let list = tahur::text::split_specs(&a.policies, "--policies")?
                .iter()
                .map(|p| parse_policy(p))
                .collect::<Result<Vec<_>>>()?;
            let bank = a.bank.policy();
            let setup = BankrollSetup::new(
                opts,
                a.players as usize,
                &list,
                bank,
                a.chips,
                a.bank_chips,
                a.max_hands,
            )?;
            super::run::run_job(
                Job::VeintiunoBankroll(setup),
                a.sittings,
                &a.run,
                &a.out,
                |_, _| Ok(()),
            )
        }
        VeintiunoCommand::Strategy(a) => strategy(a),
        VeintiunoCommand::Advise(a) => advise(a),
    }
}

/// `tahur veintiuno strategy`.
#[derive(Args, Debug)]
pub struct StrategyCmd {
    #[command(flatten)]
    pub house: HouseArgs,
    /// Cards already dealt (a depleted shoe), e.g. AH,AS,KD.
    #[arg(long, value_name = "CARDS", default_value = "", alias = "deck-state")]
    pub removed: String,
    #[command(flatten)]
    pub fixed: FixedBankArgs,
    /// Estimate by Monte Carlo instead, with this many sampled hands per decision point, up card
    /// and action (common random numbers; the check of the exact sheet). Without it every cell
    /// is computed exactly.
    #[arg(long, value_name = "N", value_parser = parse_strategy_samples)]
    pub samples: Option<u32>,
    /// An infinite shoe (every rank 1 in 10, as `bank --infinite`): no card dealt or drawn
    /// changes the odds of the next. Exact only.
    #[arg(long, conflicts_with_all = ["removed", "samples"])]
    pub infinite: bool,
    #[command(flatten)]
    pub run: SeedArgs,
    /// Draw the sheet as a coloured decision grid (best move and margin by hand and up card;
    /// with --samples, the EV of the best move by hard total, one line per up card), as SVG.
    #[arg(long, value_name = "FILE")]
    pub chart: Option<std::path::PathBuf>,
    /// Also write the sheet as JSON, playable with `--policies sheet:FILE.json` (the `sheet`
    /// policy plays data/veintiuno/strategy.json, the fresh-deck sheet).
    #[arg(long, value_name = "FILE.json")]
    pub write: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub out: OutputArgs,
}

fn parse_strategy_samples(s: &str) -> std::result::Result<u32, String> {
    tahur::text::parse_whole(
        s,
        100,
        10_000_000,
        "give 100 to 10000000 samples, e.g. 20000",
    )
    .map(|n| n as u32)
}

/// Runs `tahur veintiuno strategy`.
pub fn strategy(a: StrategyCmd) -> Result<i32> {
    use tahur::games::veintiuno::strategy::{self as st, StrategyQuery};
    let bank = a.fixed.policy("strategy", &a.house)?;
    let opts = a.house.options()?;
    let composition = Composition::from_removed(opts.decks, &a.removed)?;
    if composition.total() < 12 {
        return Err(Error::usage(
            "fewer than 12 cards left: too few to play a hand out; remove fewer cards",
        ));
    }
    let q = StrategyQuery {
        options: opts,
        composition,
        bank,
        infinite: a.infinite,
        samples: a.samples.unwrap_or(0),
        seed: a.run.seed,
    };
    let sheet = match a.samples {
        Some(_) => {
            let progress = super::run::progress(st::decision_points(&q), "decision points");
            with_progress(a.run.threads, progress, |control| {
                tahur::runner::in_threads(control.threads, || {
                    st::derive_with(&q, &control.progress)
                })
            })?
        }
        None => tahur::runner::in_threads(a.run.threads, || st::derive_exact(&q))?,
    };
    if let Some(p) = &a.chart {
        let note = match a.samples {
            _ if !sheet.is_complete() => {
                "partial: the cells marked ? were not computed".to_string()
            }
            Some(n) => format!(
                "{} hands per decision point · seed {}",
                tahur::humanize::thousands(n.into()),
                a.run.seed
            ),
            None => "exact: every card the shoe holds".to_string(),
        };
        if sheet.exact.is_empty() {
            st::chart(&sheet, "21 ecuatoriano · EV of the best move").write_noted(p, &note)?;
        } else {
            st::SheetGrid {
                sheet: &sheet,
                title: if q.infinite {
                    "21 ecuatoriano · best move by the bank's up card · an infinite shoe".into()
                } else {
                    format!(
                        "21 ecuatoriano · best move by the bank's up card · {} cards",
                        q.composition.total()
                    )
                },
            }
            .write_noted(p, &note)?;
        }
    }
    let rep = st::report(&q, &sheet, &a.removed);
    if let Some(p) = &a.write {
        if sheet.is_complete() {
            let json = serde_json::to_string_pretty(&sheet)
                .map_err(|e| Error::Internal(e.to_string()))?
                + "\n";
            tahur::report::write_atomic(p, json.as_bytes())?;
        } else {
            // A sheet played as a strategy must be whole: the file is left as it was.
            say!(
                "tahur: interrupted: --write '{}' skipped: the sheet is partial, the file is left as it was",
                p.display()
            );
        }
    }
    let code = exit_code(!sheet.is_complete(), || {
        let missing = sheet.not_computed.as_ref().map_or(0, |m| m.count());
        let planned = st::decision_points(&q);
        format!(
            "interrupted: {} of {planned} decision points computed; the report marks the others ?",
            planned - missing.min(planned)
        )
    });
    emit(&rep, &a.out)?;
    Ok(code)
}
