//! The sound events of the frames the game runs, for the window to play (`app::audio`): a
//! `sound::Listener` that follows the session's world. The world can be replaced between two
//! frames (a new preset, a reset, an undo, a snapshot opened, a replay's next preset); the
//! listener is then made anew from the world as it is, so that no frame is compared with
//! another world's. Events are not recorded: a replay gives them again.

use crate::sim::numerics::clock::Instant;
use crate::sim::World;
use crate::sound::{FrameEvents, Listener};

/// Frames' events kept for the window at most (it takes them every displayed frame).
const KEPT: usize = 16;

/// A listener on the session's world and the events it heard since the window took them.
#[derive(Debug, Default)]
pub struct Hearing {
    listener: Option<Listener>,
    /// The world's time after the frame last heard; a world at another time before the next
    /// frame is another world (or this one taken back).
    heard_at: f64,
    pending: Vec<FrameEvents>,
    /// Main-thread milliseconds spent listening since the window last took the events.
    millis: f64,
}

impl Hearing {
    /// Before a frame of `world`: a listener for it, if it is not the world last heard; the
    /// world records its events (`World::record_events`), which the listener reads.
    pub fn before_frame(&mut self, world: &mut World) {
        if self.listener.is_some() && world.time() == self.heard_at && world.records_events() {
            return;
        }
        let started = Instant::now();
        world.record_events(true);
        self.listener = Some(Listener::new(world));
        self.millis += started.elapsed().as_secs_f64() * 1000.0;
    }

    /// After a frame of `world`: its events.
    pub fn after_frame(&mut self, world: &World) {
        let Some(listener) = &mut self.listener else {
            return;
        };
        let started = Instant::now();
        let events = listener.listen(world);
        if self.pending.len() >= KEPT {
            self.pending.remove(0);
        }
        self.pending.push(events);
        self.heard_at = world.time();
        self.millis += started.elapsed().as_secs_f64() * 1000.0;
    }

    /// Hands each frame's events heard since the last call to `each`, oldest first; returns
    /// how many frames there were and the milliseconds spent listening to them.
    pub fn take(&mut self, mut each: impl FnMut(FrameEvents)) -> (usize, f64) {
        let frames = self.pending.len();
        for events in self.pending.drain(..) {
            each(events);
        }
        (frames, std::mem::take(&mut self.millis))
    }
}

#[cfg(test)]
mod tests {
    use crate::app::game::session::{PresetSource, Resolution};
    use crate::app::game::tools::FrameInput;
    use crate::app::game::{Command, Game};
    use crate::preset::Preset;

    #[test]
    fn every_frame_run_is_heard_once_and_none_while_not_listening() {
        let preset = Preset::load("seed").unwrap();
        let source = PresetSource::Builtin {
            name: "seed".into(),
            key: 1,
        };
        let mut game = Game::new(preset, source, 1, Resolution::Own);
        game.step(FrameInput::default());
        assert_eq!(game.take_sounds(|_| {}), (0, 0.0), "not listening");
        game.hear(true);
        for _ in 0..3 {
            game.step(FrameInput::default());
        }
        let mut frames = Vec::new();
        let (count, millis) = game.take_sounds(|events| frames.push(events));
        assert_eq!((count, frames.len()), (3, 3));
        assert!(millis >= 0.0);
        let seconds = 1.0 / game.session.world.params().frame_rate;
        assert!(frames.iter().all(|events| events.seconds == seconds));
        assert_eq!(
            game.take_sounds(|_| {}).0,
            0,
            "each frame is handed over once"
        );
        // A reset replaces the world; its frames are heard from it, by a listener of its own.
        game.apply(Command::Reset);
        game.step(FrameInput::default());
        game.step(FrameInput::default());
        assert_eq!(game.take_sounds(|_| {}).0, 2);
        game.hear(false);
        game.step(FrameInput::default());
        assert_eq!(game.take_sounds(|_| {}).0, 0);
    }
}
