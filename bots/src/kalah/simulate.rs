//! A Kalah move applied to a board, for the sample bot that tracks the board
//! itself ([`super::Flaw::SevenSeeds`]). The rules of kalah.md §3.3–§3.6:
//! sowing over 2n+1 pits (the opponent's store skipped), capture when the
//! last seed lands in an own hole that was empty and the opposite hole holds
//! seeds, and the sweep when either row is empty.

/// Sows `hole` (1-based, numbered from the mover's side) on `board`, laid out
/// as on the wire: North holes 1..n, North store, South holes 1..n, South
/// store. Returns false, leaving the board as it was, if the move is not
/// legal (no such hole, or an empty one).
pub fn apply(board: &mut [u32], north_moves: bool, hole: usize) -> bool {
    if board.len() < 4 || !board.len().is_multiple_of(2) {
        return false;
    }
    let n = (board.len() - 2) / 2;
    let (own, opp) = if north_moves { (0, n + 1) } else { (n + 1, 0) };
    if hole == 0 || hole > n || board[own + hole - 1] == 0 {
        return false;
    }
    // The pits in sowing order from own hole 1: own holes, own store,
    // opponent's holes (never the opponent's store).
    let pit = |k: usize| if k <= n { own + k } else { opp + k - n - 1 };
    let lap = 2 * n + 1;
    let mut seeds = board[own + hole - 1];
    board[own + hole - 1] = 0;
    let mut at = hole - 1;
    while seeds > 0 {
        at = (at + 1) % lap;
        board[pit(at)] += 1;
        seeds -= 1;
    }
    // Capture: the last seed made an own hole hold exactly 1.
    if at < n && board[own + at] == 1 {
        let opposite = opp + (n - 1 - at);
        if board[opposite] > 0 {
            board[own + n] += board[opposite] + 1;
            board[opposite] = 0;
            board[own + at] = 0;
        }
    }
    // Game over when either row is empty: each side sweeps its own seeds.
    let row_empty = |base: usize, board: &[u32]| board[base..base + n].iter().all(|&s| s == 0);
    if row_empty(0, board) || row_empty(n + 1, board) {
        for base in [0, n + 1] {
            let left: u32 = board[base..base + n].iter().sum();
            board[base..base + n].iter_mut().for_each(|s| *s = 0);
            board[base + n] += left;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::apply;

    fn start(n: usize, s: u32) -> Vec<u32> {
        let mut b = vec![s; 2 * (n + 1)];
        b[n] = 0;
        b[2 * n + 1] = 0;
        b
    }

    #[test]
    fn worked_examples_of_kalah_md() {
        // §3.9: South's opening 1, then the capture sequence S2 N3 S4 N1 S2.
        let mut b = start(7, 7);
        assert!(apply(&mut b, false, 1));
        assert_eq!(b, [7, 7, 7, 7, 7, 7, 7, 0, 0, 8, 8, 8, 8, 8, 8, 1]);
        let mut b = start(7, 7);
        for (north, h) in [(false, 2), (true, 3), (false, 4), (true, 1), (false, 2)] {
            assert!(apply(&mut b, north, h));
        }
        assert_eq!(b, [0, 9, 2, 0, 9, 9, 9, 2, 9, 0, 9, 0, 9, 9, 9, 13]);
        // g1 seq 33: a 15-seed lap capture.
        let mut b = vec![0, 0, 0, 0, 11, 11, 1, 16, 1, 15, 11, 11, 10, 10, 0, 1];
        assert!(apply(&mut b, false, 2));
        assert_eq!(b, [1, 1, 1, 1, 12, 0, 2, 16, 2, 0, 12, 12, 11, 11, 1, 15]);
        // g4: the last seed into the store empties the row: sweep.
        let mut b = vec![0, 0, 0, 0, 0, 0, 1, 32, 0, 0, 0, 0, 3, 0, 0, 62];
        assert!(apply(&mut b, true, 7));
        assert_eq!(b, [0, 0, 0, 0, 0, 0, 0, 33, 0, 0, 0, 0, 0, 0, 0, 65]);
        assert!(!apply(&mut b, true, 7));
    }
}
