//! The scene's rigid bodies as a world's caller reads and moves them: where each is, the grab
//! tool's hold, a throw, a body placed while the world runs. They run with the `bodies`
//! feature (rapier2d, `subsystems::bodies`), the scene's `Coupling`; without it a world has
//! none, the readers find none, and an edit of one is refused.

use super::edit::{check, finite, EditError};
use super::World;
use crate::sim::scene::bodies::{Body, BodyState};
use crate::sim::scene::ranges::{self, Scale};
use crate::sim::scene::shape::Part;
use crate::sim::scene::Obstacle;
#[cfg(feature = "bodies")]
use crate::sim::subsystems::bodies::Bodies;
use glam::Vec2;

impl World {
    /// The rigid bodies, in scenes that have any.
    #[cfg(feature = "bodies")]
    pub fn bodies(&self) -> Option<&Bodies> {
        self.subsystems.bodies.as_ref()
    }

    /// The rigid bodies as the scene gave them (names, parts, colours, starting poses), in
    /// order: empty in scenes without bodies, and without the `bodies` feature.
    /// ```
    /// let world = slosh::preset::Preset::load("tank")?.build_world(1);
    /// assert!(world.body_specs().is_empty() && world.body_state(0).is_none(), "no bodies");
    /// # #[cfg(feature = "bodies")] {
    /// let bath = slosh::preset::Preset::load("bath")?.build_world(1);
    /// let names: Vec<&str> = bath.body_specs().iter().map(|b| b.name.as_str()).collect();
    /// assert!(names.contains(&"duck"), "{names:?}");
    /// let duck = names.iter().position(|n| *n == "duck").unwrap();
    /// let at = bath.body_state(duck).unwrap().centre_of_mass;
    /// assert_eq!(bath.body_at(at), Some(duck));
    /// # }
    /// # Ok::<(), slosh::preset::PresetError>(())
    /// ```
    pub fn body_specs(&self) -> &[Body] {
        #[cfg(feature = "bodies")]
        if let Some(bodies) = self.bodies() {
            return bodies.specs();
        }
        &[]
    }

    /// Where rigid body `index` is and how it moves now; `None` past the last.
    pub fn body_state(&self, index: usize) -> Option<BodyState> {
        #[cfg(feature = "bodies")]
        if let Some(bodies) = self.bodies() {
            return (index < bodies.len()).then(|| bodies.state(index));
        }
        let _ = index;
        None
    }

    /// Every rigid body's state now, in order.
    pub fn body_states(&self) -> Vec<BodyState> {
        (0..self.body_specs().len())
            .filter_map(|index| self.body_state(index))
            .collect()
    }

    /// The parts of every rigid body where they are now, in the world's frame, with the index of
    /// their body.
    pub fn body_parts(&self) -> impl Iterator<Item = (usize, Part)> + '_ {
        placed_parts(self.body_specs(), self.body_states())
    }

    /// The last rigid body whose solid holds `point`, if any (the one drawn on top).
    pub fn body_at(&self, point: Vec2) -> Option<usize> {
        (self.body_parts())
            .filter(|(_, part)| part.contains(point))
            .last()
            .map(|(index, _)| index)
    }

    /// The held body, the held point in the world and the cursor, while the grab tool holds
    /// one.
    pub fn held_body(&self) -> Option<(usize, Vec2, Vec2)> {
        #[cfg(feature = "bodies")]
        if let Some(bodies) = self.bodies() {
            return bodies.held();
        }
        None
    }

    /// The mouse takes hold of the body under `point` (the grab tool); returns its index.
    /// ```
    /// # #[cfg(feature = "bodies")] {
    /// use glam::Vec2;
    ///
    /// let mut world = slosh::preset::Preset::load("crate-lift")?.build_world(1);
    /// let at = world.body_state(0).unwrap().centre_of_mass;
    /// assert_eq!(world.grab_body(at)?, 0);
    /// world.drag_body(at + Vec2::new(0.0, 2.0))?;
    /// for _ in 0..20 {
    ///     world.step_frame();
    /// }
    /// assert!(world.body_state(0).unwrap().centre_of_mass.y > at.y + 0.5, "lifted");
    /// world.release_body();
    /// assert!(world.held_body().is_none());
    /// # }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn grab_body(&mut self, point: Vec2) -> Result<usize, EditError> {
        finite("grab position", point)?;
        let index = self.body_at(point).ok_or(EditError::NoBody)?;
        #[cfg(feature = "bodies")]
        if let Some(bodies) = self.subsystems.bodies.as_mut() {
            bodies.grab(index, point);
        }
        Ok(index)
    }

    /// The held body is pulled toward `target` (a spring to the cursor: it cannot be dragged
    /// through a wall or the liquid, only pulled against them).
    pub fn drag_body(&mut self, target: Vec2) -> Result<(), EditError> {
        finite("drag position", target)?;
        if self.held_body().is_none() {
            return Err(EditError::NoBody);
        }
        #[cfg(feature = "bodies")]
        if let Some(bodies) = self.subsystems.bodies.as_mut() {
            bodies.drag_to(target);
        }
        Ok(())
    }

    /// Lets go of the held body (if any): it flies on with the velocity it has.
    pub fn release_body(&mut self) {
        #[cfg(feature = "bodies")]
        if let Some(bodies) = self.subsystems.bodies.as_mut() {
            bodies.release();
        }
    }

    /// Sets body `index` moving (a throw from code); each component of `velocity` within
    /// ±100 m/s and `angular_velocity` within ±100 rad/s.
    /// ```
    /// # #[cfg(feature = "bodies")] {
    /// use glam::Vec2;
    ///
    /// let mut world = slosh::preset::Preset::load("crate-lift")?.build_world(1);
    /// world.throw_body(0, Vec2::new(0.0, 8.0), 1.0)?;
    /// assert!(world.throw_body(0, Vec2::new(0.0, 800.0), 0.0).is_err(), "too fast");
    /// assert!(world.throw_body(9, Vec2::ZERO, 0.0).is_err(), "no such body");
    /// world.step_frame();
    /// assert!(world.body_state(0).unwrap().velocity.y > 5.0);
    /// # }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn throw_body(
        &mut self,
        index: usize,
        velocity: Vec2,
        angular_velocity: f32,
    ) -> Result<(), EditError> {
        let fixed = Scale::default();
        let speed = &ranges::BODY_VELOCITY;
        check("body velocity x", speed, velocity.x, &fixed)?;
        check("body velocity y", speed, velocity.y, &fixed)?;
        let spin = &ranges::BODY_ANGULAR_VELOCITY;
        check("body angular velocity", spin, angular_velocity, &fixed)?;
        if self.body_state(index).is_none() {
            return Err(EditError::NoBody);
        }
        #[cfg(feature = "bodies")]
        if let Some(bodies) = self.subsystems.bodies.as_mut() {
            bodies.set_velocity(index, velocity, angular_velocity);
        }
        Ok(())
    }

    /// Surface-to-surface distance from the nearest body, where the bodies are now, to
    /// `obstacle` (infinite without bodies).
    pub(crate) fn bodies_distance_to(&self, obstacle: &Obstacle) -> f32 {
        #[cfg(feature = "bodies")]
        if let Some(bodies) = self.bodies() {
            return bodies.distance_to_obstacle(obstacle);
        }
        let _ = obstacle;
        f32::INFINITY
    }

    /// The bodies meet `obstacles` from now on.
    pub(crate) fn bodies_meet(&mut self, obstacles: &[Obstacle]) {
        #[cfg(feature = "bodies")]
        if let Some(bodies) = self.subsystems.bodies.as_mut() {
            bodies.set_obstacles(obstacles);
        }
        let _ = obstacles;
    }

    /// Places `body` in the running world at its `position` and `angle` (with its velocity),
    /// after the scene's bodies, and returns its index. Its name is made unique (`crate`, then
    /// `crate 2`). The particles under it give it room, as under the eraser, so that none is
    /// squeezed out of it at once. Refused, changing nothing, where it would come within two
    /// particle radii of a wall, an obstacle or another body where they stand now, and in a
    /// build without the `bodies` feature.
    /// ```
    /// # #[cfg(feature = "bodies")] {
    /// use glam::Vec2;
    ///
    /// let mut world = slosh::preset::Preset::load("tank")?.build_world(1);
    /// let radius = world.params().particle_radius;
    /// let ball = slosh::preset::library_body("ball", Vec2::new(6.0, 6.0), radius).unwrap();
    /// assert_eq!(world.add_body(ball.clone())?, 0);
    /// assert_eq!(world.body_specs()[0].name, "ball");
    /// assert!(world.add_body(ball).is_err(), "no room: the first ball is there");
    /// # }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg_attr(not(feature = "bodies"), allow(unused_variables, unused_mut))]
    pub fn add_body(&mut self, mut body: Body) -> Result<usize, EditError> {
        #[cfg(not(feature = "bodies"))]
        return Err(EditError::Unsupported(
            "rigid bodies need the `bodies` feature",
        ));
        #[cfg(feature = "bodies")]
        {
            use crate::sim::subsystems::bodies::{
                distance_between, distance_to_obstacle, wall_problem, Bodies,
            };
            use crate::sim::subsystems::Subsystem as _;
            finite("body position", body.position)?;
            finite("body velocity", body.velocity)?;
            let r = self.params.particle_radius;
            let gap = 2.0 * r;
            if let Some(problem) = wall_problem(&body, &self.domain, gap) {
                return Err(EditError::NoRoom(problem));
            }
            for obstacle in self.obstacles() {
                let room = distance_to_obstacle(&body, obstacle);
                if room < gap {
                    return Err(EditError::NoRoom(format!(
                        "would be {room} from an obstacle, under {gap}"
                    )));
                }
            }
            if let Some(bodies) = self.subsystems.bodies.as_ref() {
                for (spec, now) in bodies.specs().iter().zip(bodies.states()) {
                    let there = Body {
                        position: now.position,
                        angle: now.angle,
                        ..spec.clone()
                    };
                    let room = distance_between(&body, &there);
                    if room < gap {
                        return Err(EditError::NoRoom(format!(
                            "would be {room} from the {}, under {gap}",
                            spec.name
                        )));
                    }
                }
            }
            let taken = |name: &str, bodies: &Option<Bodies>| {
                bodies
                    .as_ref()
                    .is_some_and(|b| b.specs().iter().any(|s| s.name == name))
            };
            let base = body.name.clone();
            let mut count = 1;
            while taken(&body.name, &self.subsystems.bodies) {
                count += 1;
                body.name = format!("{base} {count}");
            }
            let water = crate::sim::physics::water_density(&self.params);
            let index = match self.subsystems.bodies.as_mut() {
                Some(bodies) => bodies.add(body, water),
                None => {
                    self.subsystems.bodies = Some(Bodies::new(
                        vec![body],
                        Vec::new(),
                        &self.domain,
                        self.obstacles(),
                        r,
                        water,
                    ));
                    0
                }
            };
            let bodies = self.subsystems.bodies.as_ref().expect("just added");
            let keep: Vec<bool> = (self.particles.position.iter())
                .map(|&p| !bodies.occupies(p))
                .collect();
            if keep.contains(&false) {
                self.queries.invalidate();
                self.particles.retain(&keep);
            }
            Ok(index)
        }
    }
}

/// Each part of the bodies `specs`, in the states `states`, where it is in the world, with the
/// index of its body.
pub(crate) fn placed_parts(
    specs: &[Body],
    states: Vec<BodyState>,
) -> impl Iterator<Item = (usize, Part)> + '_ {
    (specs.iter().zip(states).enumerate()).flat_map(|(index, (spec, state))| {
        (spec.parts.iter()).map(move |part| (index, state.place(part)))
    })
}
