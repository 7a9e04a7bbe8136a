//! The play-legality check of the dominion-sexp rule engine allocates
//! nothing when a play is legal (the hot path of every reply and of every
//! generated move). Counted with a global allocator that tallies this
//! thread's allocations; a separate test binary so the allocator is ours.

use protocheck::games::dominion_sexp::messages::{Card, Play, State};
use protocheck::games::dominion_sexp::rules::{DominionTable, Supply};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

#[test]
fn checking_legal_plays_allocates_nothing() {
    use Card::*;
    let game = DominionTable::from_state(&State {
        players: vec!["alpha".into(), "bravo".into()],
        supply: Supply::v1(2).cards(),
        actions: 1,
        buys: 1,
        coins: 8,
        deck: vec![Copper, Estate],
        hand: vec![Mine, Silver, Copper, Estate, Gold],
        ..State::default()
    });
    let legal = [
        Play::Mine {
            trash: Silver,
            gain: Gold,
        },
        Play::Mine {
            trash: Copper,
            gain: Silver,
        },
        Play::Add(Copper),
        Play::Add(Gold),
        Play::Buy(Province),
        Play::Buy(Mine),
        Play::Clean(Some(Estate)),
    ];
    let before = allocations();
    for play in legal {
        assert!(game.check(play).is_ok(), "{play}");
    }
    assert_eq!(allocations() - before, 0);
    // The counter works: an illegal play's explanation is allocated.
    assert!(game.check(Play::Clean(None)).is_err());
    assert!(allocations() > before);
}
