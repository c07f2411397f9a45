//! The slots behind a live scene's handles: a generation per slot, bumped on removal, and a
//! free list, so removal frees the slot for the next insertion and a stale handle no longer
//! matches its slot's generation.

/// One slot of an arena: its generation (bumped on removal) and its value while alive.
#[derive(Clone, Debug)]
pub(super) struct Slot<T> {
    pub(super) generation: u32,
    pub(super) value: Option<T>,
}

/// Slots with a free list: removal frees the slot, insertion reuses the most recently freed.
#[derive(Clone, Debug)]
pub(super) struct Arena<T> {
    pub(super) slots: Vec<Slot<T>>,
    pub(super) free: Vec<u32>,
    pub(super) live: u32,
}

impl<T> Default for Arena<T> {
    fn default() -> Self {
        Self { slots: Vec::new(), free: Vec::new(), live: 0 }
    }
}

impl<T> Arena<T> {
    pub(super) fn insert(&mut self, value: T) -> (u32, u32) {
        self.live += 1;
        if let Some(slot) = self.free.pop() {
            let entry = &mut self.slots[slot as usize];
            entry.value = Some(value);
            (slot, entry.generation)
        } else {
            // Vec's doubling growth: spawning is amortised O(1).
            self.slots.push(Slot { generation: 0, value: Some(value) });
            (self.slots.len() as u32 - 1, 0)
        }
    }

    pub(super) fn get(&self, slot: u32, generation: u32) -> Option<&T> {
        self.slots.get(slot as usize).filter(|s| s.generation == generation).and_then(|s| s.value.as_ref())
    }

    pub(super) fn get_mut(&mut self, slot: u32, generation: u32) -> Option<&mut T> {
        self.slots.get_mut(slot as usize).filter(|s| s.generation == generation).and_then(|s| s.value.as_mut())
    }

    /// Starts loading slot `slot` into the cache (see [`prefetch`]).
    pub(super) fn prefetch(&self, slot: u32) {
        prefetch(self.slots.get(slot as usize));
    }

    pub(super) fn remove(&mut self, slot: u32, generation: u32) -> Option<T> {
        let entry = self.slots.get_mut(slot as usize).filter(|s| s.generation == generation)?;
        let value = entry.value.take()?;
        entry.generation = entry.generation.wrapping_add(1);
        self.free.push(slot);
        self.live -= 1;
        Some(value)
    }
}

/// Asks the CPU to start loading `value`'s first cache line, without waiting for it. Work that
/// knows the slots it will touch a few steps ahead (a batch of edits, a frame's changes) asks
/// for them early: at a million objects each slot is a cache miss (and a TLB miss), and
/// misses asked for together overlap instead of following one another.
#[inline(always)]
pub(super) fn prefetch<T>(value: Option<&T>) {
    #[cfg(target_arch = "x86_64")]
    if let Some(value) = value {
        // SAFETY: a prefetch is a hint: it reads nothing into the program and cannot fault,
        // and the address is a live reference besides.
        unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>((value as *const T).cast()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// How many items ahead a batch asks for the slots it will touch: far enough for the loads
/// to arrive before they are needed, near enough that they are still cached when they are.
pub(super) const PREFETCH_AHEAD: usize = 16;
