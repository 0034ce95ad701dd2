//! The world's queries (`sim::queries`): what a game asks of the liquid between frames.

use super::World;
use crate::sim::queries::{Fields, Found, Sample, Wrench};
use crate::sim::scene::shape::Part;

impl World {
    /// Runs `query` on the world's fields, sorting the particles into the queries' cells first
    /// when they moved, came or went since the last query.
    fn fields<R>(&self, query: impl FnOnce(&Fields) -> R) -> R {
        let h = self.params.interaction_radius;
        self.queries.with(&self.particles.position, h, |index| {
            query(&Fields {
                particles: &self.particles,
                index,
                h,
                scales: self.pressure_scales,
                rest_per_area: self.rest_per_area,
            })
        })
    }

    /// Every particle whose centre lies in `region`, in index order, into `out` (cleared first;
    /// a buffer kept between calls makes the query allocate nothing). `Part::circle`,
    /// `Part::rect` and `Part::capsule` make the usual regions; any body part, turned and placed,
    /// is one too.
    ///
    /// ```
    /// use glam::Vec2;
    /// use slosh::sim::Part;
    ///
    /// let mut world = slosh::preset::Preset::load("tank")?.build_world(1);
    /// world.step_frame();
    /// let mut found = Vec::new();
    /// world.particles_in(&Part::circle(Vec2::new(2.0, 1.0), 0.5), &mut found);
    /// assert!(!found.is_empty());
    /// for hit in &found {
    ///     let position = world.particles().position[hit.index];
    ///     assert!(position.distance(Vec2::new(2.0, 1.0)) <= 0.5);
    /// }
    /// # Ok::<(), slosh::preset::PresetError>(())
    /// ```
    pub fn particles_in(&self, region: &Part, out: &mut Vec<Found>) {
        self.fields(|fields| fields.particles_in(region, out));
    }

    /// The liquid's density, velocity and pressure at `point` (`Sample`), interpolated with the
    /// SPH kernel from the particles closer than h; `None` where there are none.
    ///
    /// ```
    /// use glam::Vec2;
    ///
    /// let mut world = slosh::preset::Preset::load("tank")?.build_world(1);
    /// for _ in 0..20 {
    ///     world.step_frame();
    /// }
    /// let deep = world.sample(Vec2::new(2.0, 0.5)).expect("the reservoir is there");
    /// let high = world.sample(Vec2::new(2.0, 3.0)).expect("the reservoir is there");
    /// assert!(deep.pressure > high.pressure, "deeper is under more pressure");
    /// assert!(world.sample(Vec2::new(12.0, 7.0)).is_none(), "nothing up on the dry side");
    /// # Ok::<(), slosh::preset::PresetError>(())
    /// ```
    pub fn sample(&self, point: glam::Vec2) -> Option<Sample> {
        self.fields(|fields| fields.sample(point))
    }

    /// The height of the liquid's surface over `x`: the highest point above which the
    /// particles per area stay below half the resting liquid's; `None` over a column without
    /// liquid. Every material counts (a grain pile has a surface too).
    ///
    /// ```
    /// let mut world = slosh::preset::Preset::load("tank")?.build_world(1);
    /// world.step_frame();
    /// let level = world.surface_height(2.0).expect("the reservoir is there");
    /// assert!((3.8..4.4).contains(&level), "{level}");
    /// assert!(world.surface_height(12.0).is_none(), "the dry side");
    /// # Ok::<(), slosh::preset::PresetError>(())
    /// ```
    pub fn surface_height(&self, x: f32) -> Option<f32> {
        self.fields(|fields| fields.surface_height(x))
    }

    /// The force and torque the liquid puts on `shape`, a shape of the game's own in the
    /// world's frame that moves at `velocity` and turns at `angular_velocity` (radians per
    /// second, counter-clockwise) about its centre (`Wrench`; torque about `shape.offset`):
    /// buoyancy, the weight of the liquid inside the shape, and drag, the momentum of the
    /// liquid that runs into its outline. The liquid does not see the shape and flows through
    /// it; the force is what the liquid would put on a body there. The liquid is sampled every
    /// particle radius, inside the shape and along its outline.
    ///
    /// ```
    /// use glam::Vec2;
    /// use slosh::sim::Part;
    ///
    /// let mut world = slosh::preset::Preset::load("tank")?.build_world(1);
    /// world.step_frame();
    /// let ball = Part::circle(Vec2::new(2.0, 2.0), 0.5);
    /// let lift = world.force_on(&ball, Vec2::ZERO, 0.0).force;
    /// // Archimedes: the weight of the water the ball's disc displaces.
    /// let density = world.sample(ball.offset).unwrap().density;
    /// let displaced = density * ball.area() * 9.8;
    /// assert!((lift.y / displaced - 1.0).abs() < 0.05, "{lift} against {displaced}");
    /// # Ok::<(), slosh::preset::PresetError>(())
    /// ```
    pub fn force_on(&self, shape: &Part, velocity: glam::Vec2, angular_velocity: f32) -> Wrench {
        let (step, gravity) = (self.params.particle_radius, self.params.gravity);
        let motion = (velocity, angular_velocity);
        self.fields(|fields| fields.force_on(shape, motion, gravity, step))
    }
}
