//! `hostile-cpu-spin`: spins on the CPU forever without reading or writing.
//! Game-agnostic.
//!
//! protocheck must report `io.timeout` on the first due reply, or, with a
//! `--cpu-limit` shorter than the reply timeout, `io.resource-limit`, and
//! stop the bot either way.

fn main() {
    let mut x: u64 = 1;
    loop {
        x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
    }
}
