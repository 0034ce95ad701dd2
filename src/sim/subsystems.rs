//! The optional subsystems of a world, in the order the substep calls them (see `subsystem`).

use super::air::{Air, AirSettings};
use super::bodies::Bodies;
use super::domain::Domain;
use super::obstacles::Contacts;
use super::params::SimParams;
use super::scene::{Material, Obstacle};
use super::springs::Springs;
use super::stir::Stir;
use super::subsystem::{AfterFrame, AfterMove, Frozen, Moving, Subsystem};
use glam::Vec2;

/// How many kinds of subsystem a world may have.
const SUBSYSTEMS: usize = 4;

/// Every subsystem of a world, in substep order.
#[derive(Clone, Debug)]
pub struct Subsystems {
    /// Viscoelastic springs between particles of a material (Clavet et al. section 5).
    pub(crate) springs: Springs,
    /// Static obstacles and the stickiness of materials (Clavet et al. section 6).
    pub(crate) contacts: Contacts,
    /// Air and smoke on a grid, stepped once per frame (`None` in scenes without air).
    pub(crate) air: Option<Air>,
    /// Rigid bodies (rapier2d) coupled with the particles after every move (`None` in scenes
    /// without bodies).
    pub(crate) bodies: Option<Bodies>,
}

impl Subsystems {
    /// The subsystems of a scene with `materials` and `obstacles`.
    pub fn new(
        materials: &[Material],
        obstacles: Vec<Obstacle>,
        params: &SimParams,
        air: Option<(AirSettings, &Domain)>,
        bodies: Option<Bodies>,
    ) -> Self {
        let h = params.interaction_radius;
        Self {
            bodies,
            air: air.map(|(settings, domain)| Air::new(settings, domain, &obstacles)),
            springs: Springs::new(materials, h),
            contacts: Contacts::new(obstacles, materials, h, params.particle_radius),
        }
    }

    /// Once per frame: every active subsystem's `after_frame`, in order.
    pub fn after_frame(&mut self, frame: &mut AfterFrame) {
        for subsystem in self.all_mut() {
            if subsystem.is_active() {
                subsystem.after_frame(frame);
            }
        }
    }

    /// The stage after the move: every active subsystem's `after_move`, in order.
    pub fn after_move(&mut self, stage: &mut AfterMove) {
        for subsystem in self.all_mut() {
            if subsystem.is_active() {
                subsystem.after_move(stage);
            }
        }
    }

    /// True when some active subsystem has a stage after the move.
    pub fn moves_after_the_move(&self) -> bool {
        self.all()
            .any(|s| s.is_active() && s.moves_after_the_move())
    }

    /// Fastest speed of anything the subsystems move through the particles.
    pub fn max_speed(&self) -> f32 {
        self.all()
            .filter(|s| s.is_active())
            .map(|s| s.max_speed())
            .fold(0.0, crate::sim::portable::max)
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

    /// All of them the scene has, in substep order.
    fn all(&self) -> impl Iterator<Item = &dyn Subsystem> {
        let air = self.air.as_ref().map(|air| air as &dyn Subsystem);
        let bodies = self.bodies.as_ref().map(|bodies| bodies as &dyn Subsystem);
        [
            Some(&self.springs as &dyn Subsystem),
            Some(&self.contacts),
            air,
            bodies,
        ]
        .into_iter()
        .flatten()
    }

    /// All of them the scene has, in substep order, to step.
    fn all_mut(&mut self) -> impl Iterator<Item = &mut dyn Subsystem> {
        let air = self.air.as_mut().map(|air| air as &mut dyn Subsystem);
        let bodies = self
            .bodies
            .as_mut()
            .map(|bodies| bodies as &mut dyn Subsystem);
        let springs: &mut dyn Subsystem = &mut self.springs;
        [Some(springs), Some(&mut self.contacts), air, bodies]
            .into_iter()
            .flatten()
    }

    /// The springs stage: every active subsystem's displacement.
    pub fn displace(&mut self, frozen: &Frozen, displacement: (&mut [f32], &mut [f32])) {
        let (x, y) = displacement;
        for subsystem in self.all_mut() {
            if subsystem.is_active() {
                subsystem.displace(frozen, (&mut *x, &mut *y));
            }
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

impl Touching<'_> {
    /// Every subsystem's `push_out`, in order.
    #[inline]
    pub fn push_out(&self, particle: &mut Moving) {
        for subsystem in self.list.iter().flatten() {
            subsystem.push_out(particle);
        }
    }

    /// Every subsystem's `after_walls`, in order.
    #[inline]
    pub fn after_walls(&self, particle: &mut Moving, domain: &Domain, dt: f32) {
        for subsystem in self.list.iter().flatten() {
            subsystem.after_walls(particle, domain, dt);
        }
    }
}
