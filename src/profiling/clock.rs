//! The GPU's timestamp clock mapped onto puffin's CPU clock (`puffin::now_ns()`), so every pass
//! can be drawn where and when the GPU ran it.
//!
//! A calibration sample is a tiny compute pass that only writes a timestamp at its beginning,
//! submitted and waited for, with `puffin::now_ns()` read just before the submit and just after
//! the wait: the GPU wrote its tick somewhere inside that CPU interval, so the clock offset
//! (CPU ns − GPU ns) lies in `[before − tick, after − tick]`. Several samples are taken and
//! their intervals intersected (the tightest bound all of them allow); if clock drift or a
//! scheduler hiccup makes them disagree, the narrowest single sample is used. The midpoint of
//! the bound is the offset; half its width is the error.
//!
//! The two clocks drift apart slowly (different oscillators), so callers recalibrate every
//! [`GpuClock::RECALIBRATE_AFTER`]; each sample costs one submit and a wait for an idle queue.

use std::time::{Duration, Instant};

use crate::gpu::readback::{map_and_read, staging_buffer};
use crate::gpu::GpuContext;

/// Samples per calibration.
const SAMPLES: usize = 8;

/// The mapping from GPU ticks to `puffin::now_ns()`.
#[derive(Clone, Copy, Debug)]
pub struct GpuClock {
    /// A GPU tick and the CPU time (puffin ns) it corresponds to.
    gpu_tick: u64,
    cpu_ns: i64,
    /// Nanoseconds per GPU tick (`Queue::get_timestamp_period`).
    period: f64,
    /// Half the width of the CPU interval the calibration tick was known to lie in, in ns.
    pub uncertainty_ns: i64,
    calibrated_at: Instant,
}

/// One sample: the GPU tick and the CPU interval around it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub tick: u64,
    pub before_ns: i64,
    pub after_ns: i64,
}

/// What a calibration sample writes and reads: made once, so recalibrating creates nothing.
pub struct Calibrator {
    queries: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    staging: wgpu::Buffer,
    /// Nanoseconds per GPU tick.
    period: f64,
}

impl Calibrator {
    /// `None` without timestamp queries.
    pub fn new(ctx: &GpuContext) -> Option<Self> {
        let period = ctx.queue.get_timestamp_period() as f64;
        if !ctx.has_timestamps() || period <= 0.0 {
            return None;
        }
        let queries = ctx.device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("clock calibration"),
            ty: wgpu::QueryType::Timestamp,
            count: 1,
        });
        let resolve = crate::gpu::counted::buffer(
            &ctx.device,
            &wgpu::BufferDescriptor {
                label: Some("clock calibration resolve"),
                size: wgpu::QUERY_SIZE as u64,
                usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            },
        );
        let staging = staging_buffer(&ctx.device, "clock calibration readback", wgpu::QUERY_SIZE as u64);
        Some(Self { queries, resolve, staging, period })
    }

    /// Calibrates against `ctx`'s queue. Waits for the queue to be idle (several times): call
    /// between frames or at start-up.
    pub fn calibrate(&self, ctx: &GpuContext) -> GpuClock {
        puffin::profile_function!();
        let Self { queries, resolve, staging, period } = self;
        // Anything queued before would run first and widen the first sample.
        ctx.wait_idle();
        let samples: Vec<Sample> = (0..SAMPLES)
            .map(|_| {
                let mut encoder = ctx
                    .device
                    .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("clock calibration") });
                drop(encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some("clock calibration"),
                    timestamp_writes: Some(wgpu::ComputePassTimestampWrites {
                        query_set: queries,
                        beginning_of_pass_write_index: Some(0),
                        end_of_pass_write_index: None,
                    }),
                }));
                encoder.resolve_query_set(queries, 0..1, resolve, 0);
                encoder.copy_buffer_to_buffer(resolve, 0, staging, 0, wgpu::QUERY_SIZE as u64);
                let command_buffer = encoder.finish();
                let before_ns = puffin::now_ns();
                let index = ctx.queue.submit([command_buffer]);
                let _ = ctx.device.poll(wgpu::PollType::Wait { submission_index: Some(index.clone()), timeout: None });
                let after_ns = puffin::now_ns();
                let bytes = map_and_read(&ctx.device, staging, Some(index));
                Sample { tick: u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes read")), before_ns, after_ns }
            })
            .collect();
        GpuClock::from_samples(&samples, *period)
    }
}

impl GpuClock {
    /// How long a calibration is trusted.
    pub const RECALIBRATE_AFTER: Duration = Duration::from_secs(3);

    /// The clock the samples allow (see the module documentation).
    pub fn from_samples(samples: &[Sample], period: f64) -> Self {
        let reference = samples[0].tick;
        // Offsets relative to the first sample's tick: (CPU ns at `reference`) bounds.
        let bounds: Vec<(i64, i64)> = samples
            .iter()
            .map(|s| {
                let since = ((s.tick as i128 - reference as i128) as f64 * period) as i64;
                (s.before_ns - since, s.after_ns - since)
            })
            .collect();
        let low = bounds.iter().map(|b| b.0).max().expect("at least one sample");
        let high = bounds.iter().map(|b| b.1).min().expect("at least one sample");
        let (low, high) = if low <= high {
            (low, high)
        } else {
            *bounds.iter().min_by_key(|b| b.1 - b.0).expect("at least one sample")
        };
        Self {
            gpu_tick: reference,
            cpu_ns: low + (high - low) / 2,
            period,
            uncertainty_ns: (high - low) / 2,
            calibrated_at: Instant::now(),
        }
    }

    /// The CPU time (puffin ns) of GPU tick `tick`.
    pub fn to_cpu_ns(&self, tick: u64) -> i64 {
        self.cpu_ns + ((tick as i128 - self.gpu_tick as i128) as f64 * self.period) as i64
    }

    /// Whether the calibration is older than [`GpuClock::RECALIBRATE_AFTER`].
    pub fn stale(&self) -> bool {
        self.calibrated_at.elapsed() > Self::RECALIBRATE_AFTER
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_intersected() {
        // True offset: CPU = 1_000_000 + tick (period 1). Each sample's interval holds it.
        let samples = [
            Sample { tick: 100, before_ns: 1_000_090, after_ns: 1_000_140 },
            Sample { tick: 500, before_ns: 1_000_480, after_ns: 1_000_505 },
            Sample { tick: 900, before_ns: 1_000_895, after_ns: 1_000_990 },
        ];
        let clock = GpuClock::from_samples(&samples, 1.0);
        // Bounds on CPU(100): [990+.., ..]: max(before − since) = 1_000_095, min(after − since) = 1_000_105.
        assert_eq!(clock.to_cpu_ns(100), 1_000_100);
        assert_eq!(clock.uncertainty_ns, 5);
        assert_eq!(clock.to_cpu_ns(1100), 1_001_100);
    }

    #[test]
    fn disagreeing_samples_fall_back_to_the_narrowest() {
        let samples =
            [Sample { tick: 0, before_ns: 0, after_ns: 10 }, Sample { tick: 1000, before_ns: 2000, after_ns: 2004 }];
        let clock = GpuClock::from_samples(&samples, 2.0);
        // Narrowest: [2000, 2004] at tick 1000 → CPU(0) in [0, 4].
        assert_eq!(clock.to_cpu_ns(0), 2);
        assert_eq!(clock.to_cpu_ns(1000), 2002);
    }
}
