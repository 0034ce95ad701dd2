//! What happens to a particle's velocity where it touches a solid surface (walls, obstacles):
//! Clavet et al. 2005, section 6.1, with Coulomb friction.

use crate::sim::numerics::portable::Ordered;
use crate::sim::scene::domain::Domain;
use glam::Vec2;

/// Velocity after touching a surface with unit `normal`: the part into the surface is removed
/// and, with Coulomb friction, the sliding part shrinks by at most `friction` × the removed part
/// (without ever reversing). Sliding without pressing on the surface is not slowed.
pub fn collide(velocity: Vec2, normal: Vec2, friction: f32) -> Vec2 {
    let normal_speed = velocity.dot(normal);
    if normal_speed >= 0.0 {
        return velocity;
    }
    let sliding = velocity - normal * normal_speed;
    let sliding_speed = sliding.length();
    if sliding_speed <= 0.0 {
        return Vec2::ZERO;
    }
    sliding * (1.0 - friction * -normal_speed / sliding_speed).at_least(0.0)
}

/// A particle at `x` moving at `velocity` put back inside the walls (`Domain::clamp`, one
/// particle radius in): against each wall it was closer than that to, it loses the velocity it
/// had into the wall, with Coulomb friction `friction` (`collide`).
#[inline(always)]
pub fn keep_inside(domain: &Domain, x: Vec2, mut velocity: Vec2, friction: f32) -> (Vec2, Vec2) {
    let inside = domain.clamp(x);
    if inside != x {
        for wall in domain.walls() {
            if wall.distance(x) < domain.particle_radius() {
                velocity = collide(velocity, wall.normal, friction);
            }
        }
    }
    (inside, velocity)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collision_removes_the_velocity_into_the_wall() {
        let v = collide(Vec2::new(0.0, -3.0), Vec2::Y, 0.5);
        assert_eq!(v, Vec2::ZERO);
        let v = collide(Vec2::new(2.0, -1.0), Vec2::Y, 0.0);
        assert_eq!(v, Vec2::new(2.0, 0.0));
    }

    #[test]
    fn coulomb_friction_slows_sliding_by_the_pressing_speed_and_never_reverses_it() {
        let v = collide(Vec2::new(2.0, -1.0), Vec2::Y, 0.5);
        assert!((v - Vec2::new(1.5, 0.0)).length() < 1e-6, "{v}");
        let v = collide(Vec2::new(0.2, -10.0), Vec2::Y, 0.5);
        assert_eq!(v, Vec2::ZERO);
        let leaving = Vec2::new(3.0, 1.0);
        assert_eq!(collide(leaving, Vec2::Y, 0.5), leaving);
    }
}
