//! The memory budget: a counting global allocator and the checks that turn "memory ran out"
//! into an [`ErrorCode::OutOfMemory`] error instead of an abort.
//!
//! A failed allocation aborts a Rust program, and inside WebAssembly the abort is a trap that
//! leaves the module unusable. So turnwire never lets an allocation fail: [`BudgetAllocator`]
//! counts the bytes in use, and the operations that grow memory (rendering, appending, reading
//! a transcript, decoding a stream event) call [`check`] between their stages. Once the bytes
//! in use exceed the budget, the operation stops with `out_of_memory`; a
//! [`crate::Conversation`] drops its render caches and keeps its transcript, so it stays
//! usable. The budget is soft: an operation can go past it by at most one stage's allocations
//! (about one render of the history) before it notices.
//!
//! The npm package installs the allocator with a budget of [`DEFAULT_BUDGET_BYTES`] (2 GiB, half
//! the 4 GiB wasm32 limit; `setMemoryBudget` changes it). A Rust program opts
//! in by installing it itself; without it, [`live_bytes`] is 0 and [`check`] never fails.
//!
//! # Growing the WebAssembly memory
//!
//! The wasm32 system allocator asks the host for what each allocation needs, 64 KiB at a time,
//! and every `memory.grow` has a cost in the engine (V8 does garbage-collection work on many of
//! them): the first render of a big history took several times the second. So in WebAssembly,
//! after an allocation that made the memory grow, [`BudgetAllocator`] at once asks for
//! [`growth_step`] more — at least 8 MiB, or a quarter of the memory's size — by allocating
//! that much and freeing it: the allocator keeps it, and the next allocations use it without
//! growing the memory (a free block that large already held is used instead, and then nothing
//! grows). The memory grows a few dozen times on the way to a GiB instead of
//! thousands. When the host refuses the larger step, nothing more is asked for (the allocation
//! itself has already succeeded). The budget is unchanged by this: it counts the bytes
//! allocated and not yet freed, exactly, and the reserved step is neither; only the memory's
//! size (`wasmBytes` of `memoryStats`) can run ahead of the peak in use, by at most a quarter
//! of it or 8 MiB.
//!
//! ```
//! use turnwire::memory;
//! // #[global_allocator] static ALLOC: memory::BudgetAllocator = memory::BudgetAllocator::new();
//! memory::set_budget(Some(512 << 20));
//! assert_eq!(memory::budget(), Some(512 << 20));
//! memory::set_budget(None);
//! assert!(memory::check("rendering").is_ok()); // nothing counted without the allocator
//! ```
#![allow(unsafe_code)] // the GlobalAlloc impl below, and nothing else in the crate

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use crate::error::{Error, ErrorCode};

/// The budget the npm package starts with: 2 GiB, half the 4 GiB wasm32 limit, so the stage
/// that crosses it has as much again before the engine refuses to grow the memory. Natively
/// there is none until [`set_budget`].
pub const DEFAULT_BUDGET_BYTES: usize = 2 << 30;

/// No budget.
const UNLIMITED: usize = usize::MAX;

/// The least the WebAssembly memory grows by once it has to grow (see the module docs).
pub const MIN_GROWTH_BYTES: usize = 8 << 20;

/// How much more the WebAssembly memory asks for after an allocation grew it to `size` bytes:
/// [`MIN_GROWTH_BYTES`] or a quarter of `size`, whichever is more.
///
/// ```
/// use turnwire::memory::growth_step;
/// assert_eq!(growth_step(1 << 20), 8 << 20);
/// assert_eq!(growth_step(400 << 20), 100 << 20);
/// ```
pub const fn growth_step(size: usize) -> usize {
    let quarter = size / 4;
    if quarter > MIN_GROWTH_BYTES {
        quarter
    } else {
        MIN_GROWTH_BYTES
    }
}

/// The WebAssembly memory's size in 64 KiB pages (0 outside WebAssembly).
fn memory_pages() -> usize {
    #[cfg(target_arch = "wasm32")]
    let pages = core::arch::wasm32::memory_size::<0>();
    #[cfg(not(target_arch = "wasm32"))]
    let pages = 0;
    pages
}

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
#[cfg(target_arch = "wasm32")]
static BUDGET: AtomicUsize = AtomicUsize::new(DEFAULT_BUDGET_BYTES);
#[cfg(not(target_arch = "wasm32"))]
static BUDGET: AtomicUsize = AtomicUsize::new(UNLIMITED);

/// A global allocator that counts the bytes in use (and their peak) for the budget, then hands
/// every request to `A` (the system allocator unless given). It never refuses an allocation:
/// the budget is enforced by [`check`], where an operation can still stop cleanly.
///
/// ```ignore
/// #[global_allocator]
/// static ALLOC: turnwire::memory::BudgetAllocator = turnwire::memory::BudgetAllocator::new();
/// ```
pub struct BudgetAllocator<A = System> {
    inner: A,
}

impl BudgetAllocator<System> {
    /// Counts the system allocator's bytes.
    pub const fn new() -> Self {
        BudgetAllocator { inner: System }
    }
}

impl Default for BudgetAllocator<System> {
    fn default() -> Self {
        Self::new()
    }
}

impl<A> BudgetAllocator<A> {
    /// Counts `inner`'s bytes.
    pub const fn wrapping(inner: A) -> Self {
        BudgetAllocator { inner }
    }
}

fn grew(bytes: usize) {
    let live = LIVE.fetch_add(bytes, Relaxed).wrapping_add(bytes);
    PEAK.fetch_max(live, Relaxed);
}

fn shrank(bytes: usize) {
    LIVE.fetch_sub(bytes, Relaxed);
}

impl<A: GlobalAlloc> BudgetAllocator<A> {
    /// After an allocation: if it grew the memory (it had `pages_before` pages), reserve the
    /// next [`growth_step`] at once, by allocating it from `inner` and freeing it (not counted:
    /// it is never in use).
    ///
    /// # Safety
    /// Called from the `GlobalAlloc` methods only, after `inner` returned.
    unsafe fn reserve_after(&self, pages_before: usize) {
        let pages = memory_pages();
        if pages <= pages_before {
            return;
        }
        let step = growth_step(pages.saturating_mul(64 << 10));
        let Ok(layout) = Layout::from_size_align(step, 16) else {
            return;
        };
        // SAFETY: a valid non-zero layout; the block is freed with the same layout at once.
        unsafe {
            let block = self.inner.alloc(layout);
            if !block.is_null() {
                self.inner.dealloc(block, layout);
            }
        }
    }
}

// SAFETY: every method forwards to `inner` with the caller's arguments unchanged and returns
// its result; the counters are plain atomics and never touch the memory handed out.
unsafe impl<A: GlobalAlloc> GlobalAlloc for BudgetAllocator<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let before = memory_pages();
        // SAFETY: forwarded under the caller's contract.
        let p = unsafe { self.inner.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        // SAFETY: after `inner` returned.
        unsafe { self.reserve_after(before) };
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let before = memory_pages();
        // SAFETY: forwarded under the caller's contract.
        let p = unsafe { self.inner.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        // SAFETY: after `inner` returned.
        unsafe { self.reserve_after(before) };
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded under the caller's contract.
        unsafe { self.inner.dealloc(ptr, layout) };
        shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let before = memory_pages();
        // SAFETY: forwarded under the caller's contract.
        let p = unsafe { self.inner.realloc(ptr, layout, new_size) };
        // SAFETY: after `inner` returned.
        unsafe { self.reserve_after(before) };
        if !p.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                shrank(layout.size() - new_size);
            }
        }
        p
    }
}

/// Sets the budget in bytes (`None`: no budget). Operations started afterwards are checked
/// against it; lowering it below [`live_bytes`] makes the next growing operation fail.
pub fn set_budget(bytes: Option<usize>) {
    BUDGET.store(bytes.unwrap_or(UNLIMITED), Relaxed);
}

/// The budget in bytes, `None` when there is none.
pub fn budget() -> Option<usize> {
    match BUDGET.load(Relaxed) {
        UNLIMITED => None,
        b => Some(b),
    }
}

/// The bytes allocated and not yet freed (0 unless [`BudgetAllocator`] is the global allocator).
pub fn live_bytes() -> usize {
    LIVE.load(Relaxed)
}

/// The most bytes in use at once since the start or the last [`reset_peak`].
pub fn peak_bytes() -> usize {
    PEAK.load(Relaxed)
}

/// Starts a new peak measurement from the bytes in use now.
pub fn reset_peak() {
    PEAK.store(LIVE.load(Relaxed), Relaxed);
}

/// `Ok` while the bytes in use are within the budget; else the `out_of_memory` error for
/// `doing` (what stopped: "rendering", "appending a message"…).
///
/// ```
/// turnwire::memory::set_budget(None);
/// assert!(turnwire::memory::check("appending a message").is_ok());
/// ```
pub fn check(doing: &str) -> Result<(), Error> {
    let live = LIVE.load(Relaxed);
    let budget = BUDGET.load(Relaxed);
    if live <= budget {
        return Ok(());
    }
    Err(Error::new(
        ErrorCode::OutOfMemory,
        "$",
        format!(
            "memory ran out while {doing}: {live} bytes in use, over the budget of {budget} bytes \
             (raise it with setMemoryBudget / memory::set_budget, or free what is not needed)"
        ),
    ))
}

/// Whether an error is the budget's.
pub(crate) fn is_out_of_memory(e: &Error) -> bool {
    e.code() == ErrorCode::OutOfMemory
}
