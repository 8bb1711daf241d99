//! What the command line says about each game: its line in `tahur --help`, its strategies, the
//! examples of its whole-game commands and the help of `--series`. A game says what it is (its
//! [`GameInfo`]: names, scoring, the words of its reports, players, defaults); the words of the
//! command line live here, one impl per game.
//!
//! [`GameInfo`]: tahur::play::GameInfo

use tahur::play::Game;

/// The command line's words for a game of [`tahur::with_games`].
pub trait GameCli: Game {
    /// One line for `tahur --help`.
    const ABOUT: &'static str;
    /// The strategies, for the help of `--strategies`.
    const STRATEGIES: &'static str;
    /// Help for `--series`, if the game has a rule for later games
    /// ([`GameInfo::series`](tahur::play::GameInfo::series)).
    const SERIES_HELP: &'static str =
        "Play games in series of N, each later one started as the rules say after the one before; --games still counts games";
    /// The game has a `sim` command of its own (21's hand-by-hand analysis): the shared `sim`
    /// is then not put on the command line (it still runs inside `compare` and `flags`).
    const OWN_SIM: bool = false;
    /// Examples for `--help` of sim, compare, tournament and flags.
    const EXAMPLES: [&'static str; 4];
}

impl GameCli for tahur::games::durak::Durak {
    const ABOUT: &'static str = "Durak (podkidnoy, perevodnoy, platkowy; 2–6 players, 7–8 with 52 cards, teams): whole games between bots, seat and first-attacker advantage, rule and strategy comparisons, tournaments, house rules";
    const STRATEGIES: &'static str = "random, greedy, expert, sheet (the cheat sheet in data/durak, built in), ismcts[:N] (N iterations per move, default 300); Spanish azar, codicioso, experto, hoja";
    const SERIES_HELP: &'static str = "Play games in series of N: the first with a random dealer (the holder of the lowest trump attacks), each later one dealt by the previous durak with the player on their left attacking; after a draw the next game starts afresh. --games still counts games";
    const EXAMPLES: [&'static str; 4] = [
        "  tahur durak sim --players 2 --strategies greedy,random --games 100000
  tahur durak sim --players 4 --strategies expert,greedy \\
      --variant perevodnoy --chart seats.svg
  tahur durak sim --players 4 --teams 2x2 --strategies greedy --games 1e5 \\
      --format json
  tahur durak sim --players 3 --strategies random --deck 52 --hand-size 7 \\
      --length-chart length.svg
  tahur durak sim --players 2 --strategies ismcts:100,greedy --games 200 --check
  tahur durak sim --players 4 --strategies greedy --series 10 --games 1e6
  tahur durak sim --players 6 --games 1e7 --shard 1/4 --output part1.json",
        "  tahur durak compare --players 2 --strategies greedy,random \\
      --b variant=perevodnoy
  tahur durak compare --players 4 --strategies greedy --b teams=2x2 --games 1e5
  tahur durak compare --players 3 --a-strategies expert,greedy \\
      --b-strategies greedy --detect 1
  tahur durak compare --players 4 --b variant=perevodnoy --until-decided \\
      --games 1e7",
        "  tahur durak tournament --players 2 --strategies random,greedy,expert \\
      --games 20000
  tahur durak tournament --players 4 --strategies greedy,expert \\
      --chart ranking.svg
  tahur durak tournament --players 2 --strategies greedy,ismcts:100 --games 100
  tahur durak tournament --players 3 --games 1e6 --shard 2/3 --output part2.json",
        "  tahur durak flags --players 4 --strategies greedy --games 1e5
  tahur durak flags --players 2 --strategies expert --variant perevodnoy \\
      --chart fair.svg
  tahur durak flags --players 6 --strategies greedy --games 1e6 \\
      --format markdown",
    ];
}

impl GameCli for tahur::games::dudo::Dudo {
    const ABOUT: &'static str =
        "Dudo (Chilean liar's dice): bid odds, cheat sheets, advice, whole games";
    const STRATEGIES: &'static str = "random, honest, tuned (the table in data/dudo, built in), tuned:FILE.csv (a `dudo tune` output, read at run time), threshold, threshold:t=0.4,bluff=0.1 (and what tuned adds: paso=P bluff passes, lives=W caution on the last life, direction=dice), duel (the solved five-dice duel of data/dudo when two are left, tuned before), duel:FILE.csv (a `dudo duel --sheet-dir` sheet), ismcts[:N] (N iterations per move, default 200); Spanish azar, honesto, afinado, umbral, duelo, busqueda";
    const EXAMPLES: [&'static str; 4] = [
        "  tahur dudo sim --players 3 --strategies threshold,random,random --games 10000
  tahur dudo sim --rules caleuchano --players 6 --strategies tuned \\
      --games 1e5 --chart seats.svg
  tahur dudo sim --players 4 \\
      --strategies 'threshold:t=0.3,bluff=0.1,honest' --house lives=5 \\
      --format json
  tahur dudo sim --players 6 --strategies threshold --games 1e6 \\
      --shard 1/4 --output part1.json",
        "  tahur dudo compare --players 4 --strategies threshold,honest \\
      --a rules=chimbo9 --b rules=caleuchano
  tahur dudo compare --rules caleuchano --players 5 --strategies threshold \\
      --b paso=off --games 1e5
  tahur dudo compare --players 3 --strategies threshold,honest --a lives=3 \\
      --b lives=5 --until-decided --games 1e6
  tahur dudo compare --players 4 --a-strategies threshold \\
      --b-strategies tuned --games 1e5",
        "  tahur dudo tournament --players 4 \\
      --strategies random,honest,threshold,tuned --games 20000
  tahur dudo tournament --rules caleuchano --players 5 \\
      --strategies threshold:t=0.3,tuned --chart ranking.svg",
        "  tahur dudo flags --players 4 --strategies tuned --games 1e5
  tahur dudo flags --rules caleuchano --players 6 --strategies threshold \\
      --chart fair.svg",
    ];
}

impl GameCli for tahur::games::domino::Domino {
    const ABOUT: &'static str = "Dominó (block, draw, cross, double-nine trees; pairs; all fives; matches): exact deal facts, whole games between bots, the opener's edge, blocked games, points, house rules";
    const STRATEGIES: &'static str = "random, heaviest (bota gorda), company, scorer (all fives), sheet (the cheat sheet in data/domino, built in), search[:N] (N sampled deals per move, default 64), ismcts[:N] (N iterations per move, default 300); each takes miss=P, the chance of missing a score; Spanish azar, bota-gorda, compañía, anotador, hoja, búsqueda";
    const EXAMPLES: [&'static str; 4] = [
        "  tahur domino sim --players 4 --games 1e6
  tahur domino sim --players 4 --strategies heaviest,company --games 1e6
  tahur domino sim --players 2 --hand-size 7 --draw --strategies company,random
  tahur domino sim --players 4 --set 9 --cross --tree --hand-size 7 \\
      --length-chart length.svg
  tahur domino sim --players 4 --score all-fives --to 100 \\
      --strategies scorer:miss=0.1,scorer --games 1e5
  tahur domino sim --players 4 --strategies search:32,company --games 200",
        "  tahur domino compare --players 4 --b draw=on --games 1e6
  tahur domino compare --players 4 --a-strategies company \\
      --b-strategies heaviest --games 1e6
  tahur domino compare --players 4 --score pips --to 100 --b to=121 \\
      --until-decided --games 1e6",
        "  tahur domino tournament --players 4 \\
      --strategies random,heaviest,company,scorer --games 1e5
  tahur domino tournament --players 4 --score all-fives --to 100 \\
      --strategies scorer,company --chart ranking.svg
  tahur domino tournament --players 2 --strategies company,search:16 --games 500",
        "  tahur domino flags --players 4 --games 1e6
  tahur domino flags --players 2 --strategies company --chart fair.svg
  tahur domino flags --players 4 --score all-fives --to 100 --games 1e5 \\
      --format markdown",
    ];
}

impl GameCli for tahur::games::ocho::Ocho {
    const ABOUT: &'static str = "Ocho loco («Montañita»: A, 2, 3, joker, 8, J, K; 2–10 players): whole games between bots, the starter's and the dealer's edge, what each special card is worth, exact deal odds";
    const STRATEGIES: &'static str = "random, greedy, expert, sheet (the cheat sheet in data/ocho, built in), ismcts[:N] (N iterations per move, default 200); each takes forget=R, the chance of forgetting «voy por una» (greedy:forget=0.1); Spanish azar, codicioso, experto, hoja, busqueda";
    const EXAMPLES: [&'static str; 4] = [
        "  tahur ocho sim --players 4 --games 1e6
  tahur ocho sim --players 4 --strategies expert,greedy --chart seats.svg
  tahur ocho sim --players 6 --strategies greedy:forget=0.2,greedy \\
      --length-chart length.svg
  tahur ocho sim --players 3 --joker three --first-card acts --format json
  tahur ocho sim --players 2 --strategies ismcts:50,expert --games 200 --check
  tahur ocho sim --players 4 --games 1e7 --shard 1/4 --output part1.json",
        "  tahur ocho compare --players 4 --b eight-answers=on
  tahur ocho compare --players 4 --a-strategies greedy \\
      --b-strategies greedy:forget=0.5,greedy     # what forgetting costs
  tahur ocho compare --players 5 --b joker=three --until-decided --games 1e7",
        "  tahur ocho tournament --players 2 --strategies random,greedy,expert
  tahur ocho tournament --players 4 --strategies greedy,expert \\
      --chart ranking.svg
  tahur ocho tournament --players 2 --strategies expert,ismcts:50 --games 100",
        "  tahur ocho flags --players 4 --games 1e5
  tahur ocho flags --players 6 --strategies expert --chart fair.svg
  tahur ocho flags --players 3 --joker three --format markdown",
    ];
}

impl GameCli for tahur::games::poker::Poker {
    const ABOUT: &'static str = "Póker mentiroso (liar's poker dice): exact re-roll odds and plans, call chances, claim sheets, whole games";
    const STRATEGIES: &'static str = "random, honest, threshold, threshold:call=0.1,bluff=0.4, tuned (the table in data/poker, built in), tuned:FILE.csv, search[:N] (N play-outs per call, default 200), ismcts[:N] (N iterations per decision, default 300); Spanish azar, honesto, umbral, afinado, busqueda, arbol";
    const EXAMPLES: [&'static str; 4] = [
        "  tahur poker sim --players 4 --strategies threshold --games 1e5
  tahur poker sim --players 3 --strategies tuned,honest,random \\
      --points 5 --chart seats.svg
  tahur poker sim --players 2 --strategies search:100,tuned --games 2000
  tahur poker sim --players 6 --games 1e6 --shard 1/4 --output part1.json",
        "  tahur poker compare --players 4 --strategies tuned --b kickers=off
  tahur poker compare --players 3 --a-strategies threshold \\
      --b-strategies tuned --games 1e5
  tahur poker compare --players 4 --b loser-starts=on --until-decided \\
      --games 1e7",
        "  tahur poker tournament --players 4 \\
      --strategies random,honest,threshold,tuned --games 20000
  tahur poker tournament --players 2 --strategies tuned,search:100 \\
      --games 2000 --chart ranking.svg",
        "  tahur poker flags --players 4 --strategies tuned --games 1e5
  tahur poker flags --players 3 --strategies threshold --points 5 \\
      --chart fair.svg",
    ];
}

impl GameCli for tahur::games::veintiuno::Veintiuno {
    const ABOUT: &'static str =
        "21 ecuatoriano: two-card specials, the bank's odds, whole hands with a rotating bank";
    const STRATEGIES: &'static str = "basic, pie, mimic[:S] (hit below S), sheet, sheet:FILE.json, ismcts[:N] (search, N iterations per decision, default 300); Spanish básica, banca[:S], hoja, hoja:FILE.json, busqueda[:N]";
    const OWN_SIM: bool = true;
    const EXAMPLES: [&'static str; 4] = [
        "  tahur veintiuno sim --players 4 --hands 1e6",
        "  tahur veintiuno compare --players 4 --a puje=on --b puje=off
  tahur veintiuno compare --players 5 --a decks=1 --b decks=2 --hands 1e7
  tahur veintiuno compare --players 4 --a monona=3 --b monona=2 \\
      --house bank-draw=fixed --bank-stand 16 --format json
  tahur veintiuno compare --players 5 --a-strategies basic \\
      --b-strategies sheet --hands 1e7",
        "  tahur veintiuno tournament --players 4 --strategies basic,sheet,mimic:17 \\
      --hands 1e6
  tahur veintiuno tournament --players 2 --strategies sheet,basic \\
      --hands 1e7 --chart ranking.svg",
        "  tahur veintiuno flags --players 4 --hands 1e7
  tahur veintiuno flags --players 6 --strategies sheet --hands 1e7 \\
      --chart bank.svg",
    ];
}
