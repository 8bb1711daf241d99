//! Tuned tables: the parameters a game's `tune` command finds for each table size, as the CSV it
//! writes (a header naming `players` and the parameters, other columns ignored, then one row per
//! size), and the row a table of any size uses.

use crate::error::{Error, Result};

/// Reads a tuned table written by `tahur GAME tune`: for each row, the table size (2 to
/// `max_players`) and the two parameters named by `columns`, each from 0 to 1. `name` (the
/// file) and `game` name the table in messages, which give the line and what is wrong.
pub fn parse_table(
    text: &str,
    name: &str,
    game: &str,
    columns: [&str; 2],
    max_players: usize,
) -> Result<Vec<(u8, [f64; 2])>> {
    Ok(
        parse_table_with(text, name, game, columns, &[], max_players)?
            .into_iter()
            .map(|(players, values, _)| (players, values))
            .collect(),
    )
}

/// One row of [`parse_table_with`]: the table size, the two parameters, and the optional
/// columns' values (`None` where the header lacks the column).
pub type TableRow = (u8, [f64; 2], Vec<Option<f64>>);

/// [`parse_table`] with columns a table may leave out (`optional`, in that order): each row's
/// values of those columns, `None` where the header has no such column (a table written before
/// the column existed). Present, they are numbers from 0 to 1 like the others.
pub fn parse_table_with(
    text: &str,
    name: &str,
    game: &str,
    columns: [&str; 2],
    optional: &[&str],
    max_players: usize,
) -> Result<Vec<TableRow>> {
    let accepted = format!(
        "a CSV as `tahur {game} tune` writes it (players,{},{},…)",
        columns[0], columns[1]
    );
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (_, header) = lines
        .next()
        .ok_or_else(|| Error::usage(format!("tuned table '{name}' is empty; give {accepted}")))?;
    let heads: Vec<&str> = header.split(',').map(str::trim).collect();
    let col = |c: &str| {
        heads.iter().position(|h| *h == c).ok_or_else(|| {
            Error::usage(format!(
                "tuned table '{name}' has no '{c}' column in its header '{header}'; give {accepted}"
            ))
        })
    };
    let (cp, c0, c1) = (col("players")?, col(columns[0])?, col(columns[1])?);
    let extra: Vec<(usize, &str)> = optional
        .iter()
        .filter_map(|c| heads.iter().position(|h| h == c).map(|i| (i, *c)))
        .collect();
    let mut rows: Vec<TableRow> = Vec::new();
    for (i, line) in lines {
        let cells: Vec<&str> = line.split(',').map(str::trim).collect();
        let bad = |what: &str| {
            Error::usage(format!(
                "tuned table '{name}' line {}: {what} in '{line}'; give {accepted}",
                i + 1
            ))
        };
        let cell = |c: usize| cells.get(c).copied().ok_or_else(|| bad("a missing column"));
        let players: u8 = cell(cp)?
            .parse()
            .ok()
            .filter(|p| (2..=max_players).contains(&(*p as usize)))
            .ok_or_else(|| bad(&format!("players is not 2 to {max_players}")))?;
        let unit = |c: usize, what: &str| -> Result<f64> {
            cell(c)?
                .parse::<f64>()
                .ok()
                .filter(|x| (0.0..=1.0).contains(x))
                .ok_or_else(|| bad(&format!("{what} is not a number from 0 to 1")))
        };
        let values = [unit(c0, columns[0])?, unit(c1, columns[1])?];
        let mut more = vec![None; optional.len()];
        for (slot, c) in more.iter_mut().zip(optional) {
            if let Some(&(i, _)) = extra.iter().find(|(_, e)| e == c) {
                *slot = Some(unit(i, c)?);
            }
        }
        if rows.iter().any(|(p, _, _)| *p == players) {
            return Err(bad(&format!("a second row for {players} players")));
        }
        rows.push((players, values, more));
    }
    if rows.is_empty() {
        return Err(Error::usage(format!(
            "tuned table '{name}' has a header but no rows; give {accepted}"
        )));
    }
    Ok(rows)
}

/// The row of `rows` for `players`, or the nearest size's (the smaller on a tie); `None` for an
/// empty table. `size` reads a row's table size.
pub fn nearest<T: Copy>(rows: &[T], players: u8, size: impl Fn(&T) -> u8) -> Option<T> {
    rows.iter()
        .copied()
        .min_by_key(|r| ((size(r) as i32 - players as i32).abs(), size(r)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_as_tune_writes_them() {
        let rows = parse_table(
            "players,games,call,bluff\n4,100,0.3,0.1\n\n2,100,0,1\n",
            "t.csv",
            "poker",
            ["call", "bluff"],
            8,
        )
        .unwrap();
        assert_eq!(rows, [(4, [0.3, 0.1]), (2, [0.0, 1.0])]);
        let e = |text: &str| {
            parse_table(text, "t.csv", "dudo", ["t", "bluff"], 6)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            e("players,t\n2,0.3\n"),
            "tuned table 't.csv' has no 'bluff' column in its header 'players,t'; give a CSV as `tahur dudo tune` writes it (players,t,bluff,…)"
        );
        assert!(e("").contains("is empty"));
        assert!(e("players,t,bluff\n").contains("header but no rows"));
        assert!(e("players,t,bluff\n7,0.3,0\n").contains("line 2: players is not 2 to 6"));
        assert!(e("players,t,bluff\n2,1.5,0\n").contains("t is not a number from 0 to 1"));
        assert!(e("players,t,bluff\n2,0.3\n").contains("a missing column"));
        assert!(e("players,t,bluff\n2,0.3,0\n2,0.2,0\n").contains("a second row for 2 players"));
    }

    #[test]
    fn optional_columns_are_read_when_the_header_has_them() {
        let rows = parse_table_with(
            "players,t,lives,bluff\n4,0.3,0.5,0.1\n",
            "t.csv",
            "dudo",
            ["t", "bluff"],
            &["paso", "lives"],
            8,
        )
        .unwrap();
        assert_eq!(rows, [(4, [0.3, 0.1], vec![None, Some(0.5)])]);
        let e = parse_table_with(
            "players,t,bluff,paso\n4,0.3,0.1,2\n",
            "t.csv",
            "dudo",
            ["t", "bluff"],
            &["paso"],
            8,
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("line 2: paso is not a number from 0 to 1"),
            "{e}"
        );
    }

    #[test]
    fn the_nearest_size_and_the_smaller_on_a_tie() {
        let rows = [3u8, 5, 8];
        let at = |p| nearest(&rows, p, |r| *r);
        assert_eq!(at(2), Some(3));
        assert_eq!(at(4), Some(3));
        assert_eq!(at(5), Some(5));
        assert_eq!(at(7), Some(8));
        assert_eq!(nearest(&[] as &[u8], 4, |r| *r), None);
    }
}
