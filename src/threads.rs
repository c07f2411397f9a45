//! Scoped worker threads where the platform has them, and the same calls run in place where it
//! has none (the browser build, wasm32: `std::thread::spawn` fails there). Start-up uses them to
//! compile pipelines while the scene uploads; the results are the same either way, only the
//! order the work runs in differs.

/// A scope that joins every job spawned in it before [`scope`] returns.
#[derive(Clone, Copy)]
pub struct Scope<'scope, 'env: 'scope> {
    #[cfg(not(target_arch = "wasm32"))]
    inner: &'scope std::thread::Scope<'scope, 'env>,
    #[cfg(target_arch = "wasm32")]
    inner: std::marker::PhantomData<(&'scope (), &'env ())>,
}

/// A job started by [`Scope::spawn`].
pub struct Handle<'scope, T> {
    #[cfg(not(target_arch = "wasm32"))]
    inner: std::thread::ScopedJoinHandle<'scope, T>,
    #[cfg(target_arch = "wasm32")]
    inner: (T, std::marker::PhantomData<&'scope ()>),
}

impl<'scope, T> Handle<'scope, T> {
    /// The job's result; `Err` with the panic's payload where a worker thread panicked.
    pub fn join(self) -> std::thread::Result<T> {
        #[cfg(not(target_arch = "wasm32"))]
        return self.inner.join();
        #[cfg(target_arch = "wasm32")]
        return Ok(self.inner.0);
    }
}

impl<'scope, 'env> Scope<'scope, 'env> {
    /// Runs `job` on a new thread of the scope, or here and now where there are no threads.
    pub fn spawn<T: Send + 'scope>(self, job: impl FnOnce() -> T + Send + 'scope) -> Handle<'scope, T> {
        #[cfg(not(target_arch = "wasm32"))]
        return Handle { inner: self.inner.spawn(job) };
        #[cfg(target_arch = "wasm32")]
        return Handle { inner: (job(), std::marker::PhantomData) };
    }
}

/// `std::thread::scope` where threads exist; `body` called with a scope that runs each job in
/// place otherwise.
pub fn scope<'env, T>(body: impl for<'scope> FnOnce(Scope<'scope, 'env>) -> T) -> T {
    #[cfg(not(target_arch = "wasm32"))]
    return std::thread::scope(|inner| body(Scope { inner }));
    #[cfg(target_arch = "wasm32")]
    return body(Scope { inner: std::marker::PhantomData });
}

/// How many jobs are worth running at once: the machine's parallelism, 1 without threads.
pub fn workers() -> usize {
    if cfg!(target_arch = "wasm32") {
        1
    } else {
        std::thread::available_parallelism().map_or(2, |n| n.get()).max(1)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_job_runs_and_returns_its_result() {
        let values = [1, 2, 3];
        let sums = super::scope(|scope| {
            let handles: Vec<_> = values.iter().map(|&v| scope.spawn(move || v * 10)).collect();
            handles.into_iter().map(|h| h.join().expect("no job panics")).collect::<Vec<_>>()
        });
        assert_eq!(sums, [10, 20, 30]);
    }
}
