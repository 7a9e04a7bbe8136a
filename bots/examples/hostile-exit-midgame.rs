//! `hostile-exit-midgame`: behaves as a Kalah bot for exactly one reply
//! (`MOVE;1` after `START;South`, or the first non-empty hole of the North row
//! after the first `CHANGE;…;YOU` as North), then exits with status 0 as soon
//! as it receives the next line, in the middle of the game.
//!
//! protocheck must report `io.crash` (the bot left before `CHANGE;…;END` or
//! `END`) and must not fail on the broken pipe when it writes to the bot.

use std::io::{self, BufRead, Write};

fn main() {
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    let mut north = false;
    let mut replied = false;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if replied {
            return; // the line after our reply: leave mid-game
        }
        let reply = if line == "START;South" {
            Some(1)
        } else if line == "START;North" {
            north = true;
            None
        } else if north && line.starts_with("CHANGE;") && line.ends_with(";YOU") {
            Some(first_north_hole(line))
        } else if line == "END" {
            return;
        } else {
            None
        };
        if let Some(hole) = reply {
            if writeln!(out, "MOVE;{hole}")
                .and_then(|()| out.flush())
                .is_err()
            {
                return;
            }
            replied = true;
        }
    }
}

/// The first non-empty North hole in `CHANGE;m;state;YOU` (1 if none).
fn first_north_hole(line: &str) -> usize {
    let state = line.split(';').nth(2).unwrap_or("");
    let values: Vec<u32> = state.split(',').filter_map(|v| v.parse().ok()).collect();
    if values.len() < 4 {
        return 1;
    }
    let n = (values.len() - 2) / 2;
    values[..n].iter().position(|&s| s > 0).map_or(1, |i| i + 1)
}
