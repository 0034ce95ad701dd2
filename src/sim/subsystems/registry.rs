//! The optional subsystems of a world, in the order the substep calls them (see `subsystem`).

use super::air::Air;
use super::fixed::Fixed;
use super::granular::Granular;
use super::heat::Heat;
use super::obstacles::Contacts;
use super::springs::Springs;
use super::stir::Stir;
use crate::sim::numerics::clock::Instant;
use crate::sim::particles::Particles;
use crate::sim::scene::domain::Domain;
use crate::sim::scene::ranges::Step;
use crate::sim::scene::Scene;
use crate::sim::stages::motion::Touch;
use crate::sim::stages::pairs;
use crate::sim::subsystems::{
    AfterFrame, Diffusion, FromScene, Frozen, Moving, Restoring, SavedState, StateError, Subsystem,
};
use glam::Vec2;
use std::collections::BTreeMap;
use std::time::Duration;

/// A world's rigid bodies: rapier2d's, the scene's coupling (`bodies`).
#[cfg(feature = "bodies")]
use super::bodies::Bodies;
/// A world's rigid bodies without the `bodies` feature: none. `()` is the coupling with no
/// bodies (`world::Coupling`); the preset loader and `World::from_state` refuse a scene that
/// has any, naming the feature.
#[cfg(not(feature = "bodies"))]
type Bodies = ();

#[cfg(not(feature = "bodies"))]
impl Subsystem for () {
    fn name(&self) -> &'static str {
        "bodies"
    }

    fn is_active(&self) -> bool {
        false
    }
}

/// Never any without the `bodies` feature: a scene built in code runs without its bodies.
#[cfg(not(feature = "bodies"))]
impl FromScene for Option<()> {
    fn from_scene(_scene: &Scene) -> Self {
        None
    }
}

/// Registers the subsystems: one line each, in the order the substep calls them. A field is
/// the subsystem itself, or an `Option` of it for one only some scenes have.
macro_rules! register {
    ($($(#[$doc:meta])* $name:ident: $kind:ty,)*) => {
        /// Every subsystem of a world, in substep order.
        #[derive(Clone, Debug)]
        pub struct Subsystems {
            $($(#[$doc])* pub(crate) $name: $kind,)*
            /// Wall-clock time each has spent in its substep hooks, in registration order.
            times: [Duration; SUBSYSTEMS],
        }

        /// How many kinds of subsystem a world may have.
        pub(crate) const SUBSYSTEMS: usize = [$(stringify!($name)),*].len();

        /// Their names (`Subsystem::name`), in registration order: the keys of their timers.
        pub(crate) const NAMES: [&str; SUBSYSTEMS] = [$(stringify!($name)),*];

        impl Subsystems {
            /// The subsystems of `scene` (`FromScene`), as the world runs it.
            pub fn new(scene: &Scene) -> Self {
                Self {
                    $($name: FromScene::from_scene(scene),)*
                    times: [Duration::ZERO; SUBSYSTEMS],
                }
            }

            /// All of them the scene has, in substep order.
            fn all(&self) -> impl Iterator<Item = &dyn Subsystem> {
                [$(Slot::get(&self.$name)),*].into_iter().flatten()
            }

            /// All of them the scene has, in substep order, to step.
            fn all_mut(&mut self) -> impl Iterator<Item = &mut dyn Subsystem> {
                [$(Slot::get_mut(&mut self.$name)),*].into_iter().flatten()
            }

            /// The active ones, in substep order, to step, each with its timer.
            fn active_timed(&mut self) -> impl Iterator<Item = (&mut dyn Subsystem, &mut Duration)> {
                [$(Slot::get_mut(&mut self.$name)),*]
                    .into_iter()
                    .zip(self.times.iter_mut())
                    .filter_map(|(subsystem, time)| Some((subsystem?, time)))
                    .filter(|(subsystem, _)| subsystem.is_active())
            }
        }
    };
}

register! {
    /// Viscoelastic springs between particles of a material (Clavet et al. section 5).
    springs: Springs,
    /// Coulomb friction between grains of sand and on the walls (`None` in scenes without a
    /// granular material).
    granular: Option<Granular>,
    /// Static obstacles and the stickiness of materials (Clavet et al. section 6).
    contacts: Contacts,
    /// Materials that hold still (rock): put back where they started every move.
    fixed: Fixed,
    /// Heat: conduction between neighbouring particles, plates, reactions and phase changes
    /// (`None` in scenes without any); before the air, which takes the particles ready to boil.
    heat: Option<Heat>,
    /// Air and smoke on a grid, stepped once per frame (`None` in scenes without air).
    air: Option<Air>,
    /// Rigid bodies (rapier2d), the scene's coupling (`world::Coupling`), stepped and met by
    /// the particles every substep (`None` in scenes without bodies; always `None` without the
    /// `bodies` feature, where the type is `()`).
    bodies: Option<Bodies>,
}

/// A field of `Subsystems`: a subsystem every world has, or one some scenes have.
trait Slot {
    /// The subsystem, if the scene has it.
    fn get(&self) -> Option<&dyn Subsystem>;
    /// The subsystem, if the scene has it, to step.
    fn get_mut(&mut self) -> Option<&mut dyn Subsystem>;
}

impl<T: Subsystem + 'static> Slot for T {
    fn get(&self) -> Option<&dyn Subsystem> {
        Some(self)
    }

    fn get_mut(&mut self) -> Option<&mut dyn Subsystem> {
        Some(self)
    }
}

impl<T: Subsystem + 'static> Slot for Option<T> {
    fn get(&self) -> Option<&dyn Subsystem> {
        self.as_ref().map(|subsystem| subsystem as &dyn Subsystem)
    }

    fn get_mut(&mut self) -> Option<&mut dyn Subsystem> {
        self.as_mut()
            .map(|subsystem| subsystem as &mut dyn Subsystem)
    }
}

impl Subsystems {
    /// Once per frame: every active subsystem's `after_frame`, in order.
    pub fn after_frame(&mut self, frame: &mut AfterFrame) {
        for subsystem in self.all_mut() {
            if subsystem.is_active() {
                subsystem.after_frame(frame);
            }
        }
    }

    /// Each subsystem's name and the time it has spent in its substep hooks (the pairs it
    /// asked for, its displacements, its stage after the move), in registration order.
    pub fn times(&self) -> [(&'static str, Duration); SUBSYSTEMS] {
        std::array::from_fn(|k| (NAMES[k], self.times[k]))
    }

    /// Fastest speed of anything the subsystems move through the particles.
    pub fn max_speed(&self) -> f32 {
        self.all()
            .filter(|s| s.is_active())
            .map(|s| s.max_speed())
            .fold(0.0, crate::sim::numerics::portable::max)
    }

    /// The mouse stirs: every subsystem that feels it.
    pub fn stir(&mut self, stir: &Stir) {
        for subsystem in self.all_mut() {
            subsystem.stir(stir);
        }
    }

    /// The mouse pulls: every subsystem that feels it.
    pub fn pull(&mut self, centre: Vec2, radius: f32, speed: f32) {
        for subsystem in self.all_mut() {
            subsystem.pull(centre, radius, speed);
        }
    }

    /// Before the density stage: the subsystem that diffuses a value along the pairs (the first
    /// active one that `diffuses`) sets its lanes (`Diffusion::is_set` says whether it did).
    pub fn diffusion(&mut self, particles: &Particles, diffusion: &mut Diffusion) {
        if let Some((subsystem, time)) = self.active_timed().find(|(s, _)| s.diffuses()) {
            let start = Instant::now();
            subsystem.diffusion(particles, diffusion);
            *time += Instant::now() - start;
        }
    }

    /// After the density stage: the subsystem that set the diffusion's lanes takes the
    /// exchange.
    pub fn diffused(&mut self, particles: &mut Particles, diffusion: &mut Diffusion) {
        if let Some((subsystem, time)) = self.active_timed().find(|(s, _)| s.diffuses()) {
            let start = Instant::now();
            subsystem.diffused(particles, diffusion);
            *time += Instant::now() - start;
        }
    }

    /// The springs stage: every active subsystem's displacement, after (in the frame's last
    /// substep, `last_of_frame`) its notes of the pairs in contact, which are read at the
    /// frame's end (`Subsystem::contacts`).
    pub fn displace(
        &mut self,
        frozen: &Frozen,
        displacement: (&mut [f32], &mut [f32]),
        last_of_frame: bool,
    ) {
        if last_of_frame && self.all().any(|s| s.is_active() && s.wants_contacts()) {
            let contacts = pairs::gather(&frozen.particles.position, frozen.grid, frozen.h);
            for (subsystem, time) in self.active_timed() {
                if subsystem.wants_contacts() {
                    let start = Instant::now();
                    subsystem.contacts(frozen, &contacts);
                    *time += Instant::now() - start;
                }
            }
        }
        let (x, y) = displacement;
        for (subsystem, time) in self.active_timed() {
            let start = Instant::now();
            subsystem.displace(frozen, (&mut *x, &mut *y));
            *time += Instant::now() - start;
        }
    }

    /// The subsystems the move stage must call for every particle, or `None` when there are
    /// none (then it takes its plain path).
    pub fn touching(&self) -> Option<Touching<'_>> {
        let mut list = [None; SUBSYSTEMS];
        let mut count = 0;
        for subsystem in self.all() {
            if subsystem.is_active() && subsystem.touches_particles() {
                list[count] = Some(subsystem);
                count += 1;
            }
        }
        (count > 0).then_some(Touching { list })
    }

    /// Every subsystem's saved state (`Subsystem::save`), by name.
    pub fn save(&self, particles: &Particles) -> BTreeMap<String, SavedState> {
        self.all()
            .filter_map(|s| Some((s.name().to_string(), s.save(particles)?)))
            .collect()
    }

    /// Restores each subsystem, just built from the scene, from its state in `states`. Refused
    /// when a subsystem that keeps a state finds none, when a state names no subsystem of the
    /// scene, or when a subsystem refuses its state (the path then goes through `subsystems`).
    pub fn restore(
        &mut self,
        mut states: BTreeMap<String, SavedState>,
        particles: &Particles,
        restoring: &Restoring,
    ) -> Result<(), StateError> {
        for subsystem in self.all_mut() {
            let name = subsystem.name();
            let Some(state) = states.remove(name) else {
                if subsystem.save(particles).is_some() {
                    return Err(StateError::at(
                        &[Step::Key("subsystems")],
                        format!("no state of `{name}`, which the scene has"),
                    ));
                }
                continue;
            };
            subsystem
                .restore(state, restoring)
                .map_err(|error| error.under(&[Step::Key("subsystems"), Step::Key(name)]))?;
        }
        match states.into_keys().next() {
            Some(name) => Err(StateError::at(
                &[Step::Key("subsystems")],
                format!("a state of `{name}`, which the scene does not have"),
            )),
            None => Ok(()),
        }
    }

    /// The checksums of the subsystems that keep one (`Subsystem::checksum`), in order.
    pub fn checksums<'a>(&'a self, particles: &'a Particles) -> impl Iterator<Item = u64> + 'a {
        self.all().filter_map(|s| s.checksum(particles))
    }

    /// True when some subsystem's solid takes up `point`.
    pub fn occupies(&self, point: Vec2) -> bool {
        self.all().any(|s| s.is_active() && s.occupies(point))
    }
}

/// The subsystems with per-particle work in the move stage, in substep order.
#[derive(Clone, Copy)]
pub struct Touching<'a> {
    list: [Option<&'a dyn Subsystem>; SUBSYSTEMS],
}

impl Touch for Touching<'_> {
    /// Every subsystem's `push_out`, in order.
    #[inline]
    fn push_out(&self, particle: &mut Moving) {
        for subsystem in self.list.iter().flatten() {
            subsystem.push_out(particle);
        }
    }

    /// Every subsystem's `after_walls`, in order.
    #[inline]
    fn after_walls(&self, particle: &mut Moving, domain: &Domain, dt: f32) {
        for subsystem in self.list.iter().flatten() {
            subsystem.after_walls(particle, domain, dt);
        }
    }
}
