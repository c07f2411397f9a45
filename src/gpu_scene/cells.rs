//! The cull's hierarchy: objects in cells of [`CELL_OBJECTS`], each cell a bounding sphere the
//! cull tests before it reads any of its objects.
//!
//! The cull does not walk objects in id order (within a batch, ids follow the scene's order,
//! so neighbours in id may be anywhere in it) but in *cull order* ([`CullOrder`]): objects
//! grouped by batch and orbit class, then along a Morton curve of their centres. Slot `s` of
//! the cull holds object `order[s]`; `cull_records[s]` is that object's [`GpuCullRecord`], and
//! each run of [`CELL_OBJECTS`] slots is a cell, whose bounding record follows the objects'
//! records (`cull_records[slots + cell]`). A cell is a record too: its `fixed` part is its centre, its
//! spin parts are zero and its orbit class is its members' when they share one, so the orbit
//! turns the cell with them and no refit is needed while the scene animates; where members
//! orbit differently, the sphere holds every place their orbits take them, and the cell does
//! not move.
//!
//! A cell's sphere holds every member's sphere at any time, with a margin for rounding, so a
//! cell the frustum (and, in a shadow cascade, the caster test) rejects holds no object that
//! passes: the hierarchy's cull is the flat cull, only cheaper
//! (`passes::cull::cpu::cull_hierarchy` checks it on the CPU).

use glam::Vec3;

use super::types::{GpuCullRecord, GpuObject};
use crate::tunables::{CELL_OBJECTS, SPIN_MASK};

/// A cell whose members are all spare slots (negative radius): every frustum rejects it.
const EMPTY_RADIUS: f32 = -1.0e30;
/// A cell with a member whose bounds are not finite: accepted by every frustum, so the
/// member's own test decides, as in the flat cull.
const OPEN_RADIUS: f32 = 3.0e38;

/// Which object each slot of the cull holds, and the reverse.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CullOrder {
    /// Slot → object id.
    pub ids: Vec<u32>,
    /// Object id → slot.
    pub slots: Vec<u32>,
}

impl CullOrder {
    /// The cull order of `objects`: by batch (so that a workgroup's drawn objects fall in a few
    /// batches, and the cull appends to each with one atomic), then by orbit class, then by
    /// the Morton code of the centre before the orbit (the middle of its spin's ellipse; 10
    /// bits per axis over the centres' bounds), then by id. A live scene's spare slots sort
    /// to where their (zero) records put them, so objects added into them later may make
    /// their cells wide until the scene is laid out again: still right, only less culled.
    /// With it, the cull's records ([`CullOrder::records`]), each object's made once.
    pub fn new(objects: &[GpuObject]) -> (Self, Vec<GpuCullRecord>) {
        let by_id: Vec<GpuCullRecord> = objects.iter().map(GpuCullRecord::of).collect();
        let order = Self::of_records(&by_id);
        let records = order.laid_out(|id| by_id[id as usize]);
        (order, records)
    }

    /// The order of the objects whose cull records are `by_id`.
    fn of_records(by_id: &[GpuCullRecord]) -> Self {
        let centres: Vec<Vec3> = by_id.iter().map(still_centre).collect();
        let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
        for c in centres.iter().filter(|c| c.is_finite()) {
            (lo, hi) = (lo.min(*c), hi.max(*c));
        }
        let scale = Vec3::splat(1023.0) / (hi - lo).max(Vec3::splat(f32::MIN_POSITIVE));
        let mut keys: Vec<(u128, u32)> = by_id
            .iter()
            .zip(&centres)
            .enumerate()
            .map(|(id, (object, c))| {
                let morton = if c.is_finite() {
                    let q = ((*c - lo) * scale).clamp(Vec3::ZERO, Vec3::splat(1023.0));
                    spread(q.x as u32) | spread(q.y as u32) << 1 | spread(q.z as u32) << 2
                } else {
                    u32::MAX
                };
                let group = u128::from(object.batch) << 64 | u128::from(object.animation & 0xffff) << 32;
                (group | u128::from(morton), id as u32)
            })
            .collect();
        keys.sort_unstable();
        let ids: Vec<u32> = keys.into_iter().map(|(_, id)| id).collect();
        let mut slots = vec![0; ids.len()];
        for (slot, &id) in ids.iter().enumerate() {
            slots[id as usize] = slot as u32;
        }
        Self { ids, slots }
    }

    /// Cells over the slots.
    pub fn cell_count(&self) -> usize {
        self.ids.len().div_ceil(CELL_OBJECTS as usize)
    }

    /// The cull's records: one per slot in cull order, then one per cell.
    pub fn records(&self, objects: &[GpuObject]) -> Vec<GpuCullRecord> {
        self.laid_out(|id| GpuCullRecord::of(&objects[id as usize]))
    }

    /// The records in cull order, `record(id)` each, then the cells'.
    fn laid_out(&self, record: impl Fn(u32) -> GpuCullRecord) -> Vec<GpuCullRecord> {
        let mut records: Vec<GpuCullRecord> = self.ids.iter().map(|&id| record(id)).collect();
        let cells: Vec<GpuCullRecord> = records.chunks(CELL_OBJECTS as usize).map(cell_bounds).collect();
        records.extend(cells);
        records
    }

    /// Cell `cell`'s record, from its members' current objects.
    pub fn cell(&self, objects: &[GpuObject], cell: usize) -> GpuCullRecord {
        let first = cell * CELL_OBJECTS as usize;
        let members = &self.ids[first..(first + CELL_OBJECTS as usize).min(self.ids.len())];
        let records: Vec<GpuCullRecord> = members.iter().map(|&id| GpuCullRecord::of(&objects[id as usize])).collect();
        cell_bounds(&records)
    }
}

/// The low 10 bits of `v` spread to every third bit.
fn spread(v: u32) -> u32 {
    let mut x = v & 0x3ff;
    x = (x | x << 16) & 0x0300_00ff;
    x = (x | x << 8) & 0x0300_f00f;
    x = (x | x << 4) & 0x030c_30c3;
    (x | x << 2) & 0x0924_9249
}

/// Whether the record's spin class moves its centre (class 0 stands still).
fn spins(record: &GpuCullRecord) -> bool {
    (record.animation >> 16) & SPIN_MASK != 0
}

/// Where the record's centre is before the orbit when its spin class stands still (class 0:
/// cos 1, sin 0, `scene::animation`), and the middle of the ellipse it runs on when it spins.
fn still_centre(record: &GpuCullRecord) -> Vec3 {
    if spins(record) {
        record.fixed
    } else {
        record.spin_cos + record.fixed
    }
}

/// How far from [`still_centre`] the spin takes the centre: `cos s · a + sin s · b` is at
/// most `sqrt(|a|² + |b|²)` long.
fn spin_reach(record: &GpuCullRecord) -> f32 {
    if spins(record) {
        (record.spin_cos.length_squared() + record.spin_sin.length_squared()).sqrt()
    } else {
        0.0
    }
}

/// The bounding record of a cell of `members` (see the module's doc).
pub fn cell_bounds(members: &[GpuCullRecord]) -> GpuCullRecord {
    let open = GpuCullRecord {
        spin_cos: Vec3::ZERO,
        radius: OPEN_RADIUS,
        spin_sin: Vec3::ZERO,
        batch: 0,
        fixed: Vec3::ZERO,
        animation: 0,
    };
    // Members with a negative radius are spare slots, which every test rejects; a NaN radius
    // passes the GPU's tests, so it stays (and opens the cell below).
    let live: Vec<&GpuCullRecord> = members.iter().filter(|m| m.radius >= 0.0 || m.radius.is_nan()).collect();
    if live.is_empty() {
        return GpuCullRecord { radius: EMPTY_RADIUS, ..open };
    }
    // A member with a part that is not finite may pass the GPU's tests (0 · ∞ is NaN there).
    let finite = |m: &&GpuCullRecord| {
        m.spin_cos.is_finite() && m.spin_sin.is_finite() && m.fixed.is_finite() && m.radius.is_finite()
    };
    if !live.iter().all(finite) {
        return open;
    }
    let spheres: Vec<(Vec3, f32)> = live.iter().map(|m| (still_centre(m), spin_reach(m) + m.radius)).collect();
    if spheres.iter().any(|(c, r)| !c.is_finite() || !r.is_finite()) {
        return open;
    }
    let class = live[0].animation & 0xffff;
    let (centre, radius, orbit) = if live.iter().all(|m| m.animation & 0xffff == class) {
        // One orbit turns them all rigidly (class 0 not at all): the sphere around them turns
        // with it.
        let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
        for &(c, r) in &spheres {
            (lo, hi) = (lo.min(c - r), hi.max(c + r));
        }
        let centre = (lo + hi) * 0.5;
        let radius = spheres.iter().map(|&(c, r)| c.distance(centre) + r).fold(0.0, f32::max);
        (centre, radius, class)
    } else {
        // Each member may be anywhere on its orbit's circle about the world's Y axis: a still
        // sphere on the axis holds every such circle.
        let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
        for &(c, r) in &spheres {
            (lo, hi) = (lo.min(c.y - r), hi.max(c.y + r));
        }
        let middle = (lo + hi) * 0.5;
        let radius = spheres
            .iter()
            .map(|&(c, r)| {
                let across = Vec3::new(c.x, 0.0, c.z).length() + r;
                let up = (c.y - middle).abs() + r;
                (across * across + up * up).sqrt()
            })
            .fold(0.0, f32::max);
        (Vec3::new(0.0, middle, 0.0), radius, 0)
    };
    // Rounding: the GPU turns the cell's centre and each member's with its own few rounding
    // steps; a margin far above them keeps every member inside.
    let radius = radius * (1.0 + 1.0e-5) + 1.0e-5 * centre.abs().max_element();
    GpuCullRecord { fixed: centre, radius, animation: orbit, ..open }
}

#[cfg(test)]
mod tests {
    use glam::{Mat4, Quat, Vec4};

    use super::*;

    fn object(i: u32) -> GpuObject {
        let f = i as f32;
        GpuObject {
            model: Mat4::from_scale_rotation_translation(
                Vec3::splat(0.5 + (f * 0.37).sin().abs()),
                Quat::from_rotation_y(f * 0.7) * Quat::from_rotation_x(f * 0.3),
                Vec3::new((f * 1.7).sin() * 50.0, (f * 0.9).cos() * 20.0, (f * 2.3).cos() * 50.0),
            ),
            bounds: Vec4::new((f * 0.5).sin(), 0.3, (f * 0.8).cos(), 0.5 + (f * 0.1).sin().abs()),
            mesh: 0,
            material: 0,
            batch: 0,
            animation: (i % 5) | ((i % 3) << 16),
        }
    }

    #[test]
    fn the_order_is_a_permutation_grouped_by_orbit() {
        let objects: Vec<GpuObject> = (0..1000).map(object).collect();
        let (order, records) = CullOrder::new(&objects);
        let mut seen = order.ids.clone();
        seen.sort_unstable();
        assert_eq!(seen, (0..1000).collect::<Vec<u32>>());
        for (slot, &id) in order.ids.iter().enumerate() {
            assert_eq!(order.slots[id as usize], slot as u32);
        }
        let classes: Vec<u32> = order.ids.iter().map(|&id| objects[id as usize].animation & 0xffff).collect();
        assert!(classes.windows(2).all(|w| w[0] <= w[1]), "grouped by orbit class (one batch)");
        assert_eq!(order.cell_count(), 1000usize.div_ceil(CELL_OBJECTS as usize));
        assert_eq!(records.len(), 1000 + order.cell_count());
        assert_eq!(records, order.records(&objects), "the records made at once are the ones made again");
    }

    #[test]
    fn spare_and_broken_members() {
        let good = GpuCullRecord::of(&object(3));
        let spare = GpuCullRecord { radius: -1.0e30, ..good };
        assert_eq!(cell_bounds(&[spare, spare]).radius, EMPTY_RADIUS);
        assert_eq!(cell_bounds(&[spare, good]), cell_bounds(&[good]));
        let broken = GpuCullRecord { fixed: Vec3::new(f32::NAN, 0.0, 0.0), ..good };
        assert_eq!(cell_bounds(&[good, broken]).radius, OPEN_RADIUS);
    }
}
