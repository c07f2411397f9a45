//! The panel's scene rebuild: a new scene is built (generated, or its file read again) on a
//! worker thread while the old one keeps rendering, and replaces it at the start of a frame
//! once built; a failure keeps the running scene and says why in the panel.

use std::path::PathBuf;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::scene::file::{self, LoadOptions};
use crate::scene::Scene;

/// Where rebuilt scenes come from.
#[derive(Clone, Debug)]
pub enum SceneSource {
    /// The embedded default scene, generated with the object count set in the panel.
    Default,
    /// A scene file, read again (its counts are its own): the panel offers "reload".
    File(PathBuf),
}

impl SceneSource {
    /// Through the same checks as the command line's load: the sandbox and the budget.
    fn build(&self, objects: u32, load: &LoadOptions) -> Result<Scene, String> {
        match self {
            SceneSource::Default => file::default_scene_within(objects, &load.budget),
            SceneSource::File(path) => file::load_with(path, load),
        }
        .map_err(|error| error.chain())
    }
}

/// A build in progress.
struct Job {
    objects: u32,
    started: Instant,
    handle: JoinHandle<Result<Scene, String>>,
}

/// A finished build, to be installed by the viewer.
pub(crate) struct Built {
    pub scene: Result<Scene, String>,
    pub started: Instant,
}

pub(crate) struct SceneRebuild {
    source: SceneSource,
    load: LoadOptions,
    job: Option<Job>,
    /// Objects in the running scene.
    pub object_count: u32,
    /// How the last rebuild went.
    pub message: Option<String>,
}

impl SceneRebuild {
    pub fn new(source: SceneSource, object_count: u32, load: LoadOptions) -> Self {
        Self { source, load, job: None, object_count, message: None }
    }

    pub fn reloads_a_file(&self) -> bool {
        matches!(self.source, SceneSource::File(_))
    }

    /// The object count and age of the build in progress.
    pub fn in_progress(&self) -> Option<(u32, Duration)> {
        self.job.as_ref().map(|job| (job.objects, job.started.elapsed()))
    }

    /// Starts building a scene of `objects` (ignored by a file source); does nothing while a
    /// build is in progress.
    pub fn start(&mut self, objects: u32) {
        if self.job.is_some() {
            return;
        }
        let (source, load) = (self.source.clone(), self.load.clone());
        let handle = std::thread::spawn(move || source.build(objects, &load));
        self.job = Some(Job { objects, started: Instant::now(), handle });
    }

    /// The finished build, once; `None` while none is finished.
    pub fn take_finished(&mut self) -> Option<Built> {
        if !self.job.as_ref().is_some_and(|job| job.handle.is_finished()) {
            return None;
        }
        let job = self.job.take().expect("checked above");
        let scene = job.handle.join().map_err(|_| "the scene builder panicked".to_string()).and_then(|r| r);
        Some(Built { scene, started: job.started })
    }

    /// Records how installing a build went: the new scene's object count, or why the old
    /// scene stays.
    pub fn finish(&mut self, installed: Result<u32, String>, started: Instant) {
        self.message = Some(match installed {
            Ok(objects) => {
                self.object_count = objects;
                format!("loaded {objects} objects in {:.1} s", started.elapsed().as_secs_f32())
            }
            Err(error) => format!("keeping the previous scene: {error}"),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wait_for(rebuild: &mut SceneRebuild) -> Built {
        for _ in 0..1000 {
            if let Some(built) = rebuild.take_finished() {
                return built;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        panic!("the rebuild did not finish in 5 s");
    }

    #[test]
    fn rebuild_generates_the_requested_count_once() {
        let mut rebuild = SceneRebuild::new(SceneSource::Default, 10, LoadOptions::default());
        rebuild.start(25);
        rebuild.start(99); // ignored: a build is in progress
        assert_eq!(rebuild.in_progress().map(|(objects, _)| objects), Some(25));
        let built = wait_for(&mut rebuild);
        assert!(rebuild.in_progress().is_none() && rebuild.take_finished().is_none());
        let objects = built.scene.map(|s| s.objects.len() as u32);
        assert_eq!(objects, Ok(25));
        rebuild.finish(objects, built.started);
        assert_eq!(rebuild.object_count, 25);
        assert!(rebuild.message.as_deref().is_some_and(|m| m.starts_with("loaded 25 objects")));
    }

    #[test]
    fn a_failed_reload_keeps_the_running_scene() {
        let mut rebuild =
            SceneRebuild::new(SceneSource::File("/nonexistent/scene.toml".into()), 10, LoadOptions::default());
        assert!(rebuild.reloads_a_file());
        rebuild.start(0);
        let built = wait_for(&mut rebuild);
        let error = built.scene.map(|s| s.objects.len() as u32);
        assert!(error.is_err());
        rebuild.finish(error, built.started);
        assert_eq!(rebuild.object_count, 10);
        assert!(rebuild.message.as_deref().is_some_and(|m| m.starts_with("keeping the previous scene")));
    }
}
