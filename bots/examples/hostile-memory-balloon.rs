//! `hostile-memory-balloon`: allocates and touches memory in 8 MiB steps,
//! never answering, until an allocation fails (Rust then prints `memory
//! allocation of … bytes failed` and aborts) or it holds 4 GiB (a bound, so
//! a machine survives without a limit; then it sleeps). Game-agnostic.
//!
//! Under `--memory-limit` protocheck must report the game's memory rule
//! (`quoridor.process.memory`) or `io.resource-limit` (Kalah).

use std::time::Duration;

fn main() {
    const STEP: usize = 8 << 20;
    let mut held: Vec<Vec<u8>> = Vec::new();
    while held.len() * STEP < 4 << 30 {
        held.push(vec![1u8; STEP]);
        std::thread::sleep(Duration::from_millis(2));
    }
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}
