//! Allocation counting for the test binaries that check the game loops allocate nothing once
//! warm: a global allocator that counts this thread's allocations, and [`flat`].
#![allow(dead_code)]

use tahur::rng::base_stream;
use tahur::runner::Simulation;

struct CountingAllocator;

thread_local! {
    static ALLOCATIONS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

// SAFETY: every call is passed on unchanged to the system allocator.
unsafe impl std::alloc::GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        unsafe { std::alloc::System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        unsafe { std::alloc::System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        unsafe { std::alloc::System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Allocations on this thread while `f` runs.
pub fn allocations(f: impl FnOnce()) -> u64 {
    let before = ALLOCATIONS.with(|c| c.get());
    f();
    ALLOCATIONS.with(|c| c.get()) - before
}

/// Allocations of one chunk of `n` samples into a copy of `warm` (bots and scratch are made once
/// per chunk; a tally already grown by the same stream's games needs no more room).
fn chunk_allocations<S: Simulation>(sim: &S, n: u64, warm: &S::Tally) -> u64 {
    let mut t = warm.clone();
    allocations(|| sim.run_chunk(&mut base_stream(9), n, &mut t))
}

/// Playing `many` samples allocates no more than playing `few` (after a warm-up run that builds
/// the shared tables and grows the tally), and the counter counts (the bots' scratch space is
/// made once per chunk).
pub fn flat<S: Simulation>(sim: &S, few: u64, many: u64, what: &str) {
    let mut warm = sim.empty_tally();
    sim.run_chunk(&mut base_stream(9), many, &mut warm);
    let (a, b) = (
        chunk_allocations(sim, few, &warm),
        chunk_allocations(sim, many, &warm),
    );
    assert!(
        a > 0,
        "{what}: the counter counts (the bots' scratch space)"
    );
    assert_eq!(
        a, b,
        "{what}: {a} allocations for {few} samples, {b} for {many}"
    );
}
