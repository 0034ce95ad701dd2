//! The checks a scene's bodies must pass before a world is built, shared by the presets and by
//! code that places bodies: distances between bodies, to obstacles and to the walls, at the
//! bodies' starting poses (rapier's shapes, no rapier world).

use super::rapier;
use crate::sim::numerics::portable::Ordered;
use crate::sim::scene::bodies::Body;
use crate::sim::scene::domain::Domain;
use crate::sim::scene::shape::Part;
use crate::sim::scene::Obstacle;

/// The world pose of `part` of `body` at the body's starting pose, as rapier's.
fn start_pose(body: &Body, part: &Part) -> rapier2d::math::Pose {
    let centre = body.to_world(part.offset);
    rapier2d::math::Pose::new(rapier::to_vector(centre), body.angle + part.angle)
}

/// Surface-to-surface distance between two bodies at their starting poses (0 when they touch
/// or overlap).
pub fn distance_between(a: &Body, b: &Body) -> f32 {
    let mut least = f32::INFINITY;
    for pa in &a.parts {
        for pb in &b.parts {
            let (Some(sa), Some(sb)) = (rapier::rapier_shape(pa), rapier::rapier_shape(pb)) else {
                continue;
            };
            let gap = rapier2d::parry::query::distance(
                &start_pose(a, pa),
                sa.as_ref(),
                &start_pose(b, pb),
                sb.as_ref(),
            )
            .map(|d| d.distance)
            .unwrap_or(0.0);
            least = least.at_most(gap);
        }
    }
    least
}

/// Surface-to-surface distance between a body at its starting pose and an obstacle.
pub fn distance_to_obstacle(body: &Body, obstacle: &Obstacle) -> f32 {
    let (core, pose) = rapier::obstacle_shape(obstacle, 0.0);
    body.parts
        .iter()
        .filter_map(|part| {
            let shape = rapier::rapier_shape(part)?;
            rapier2d::parry::query::distance(
                &start_pose(body, part),
                shape.as_ref(),
                &pose,
                core.as_ref(),
            )
            .ok()
            .map(|d| d.distance)
        })
        .fold(f32::INFINITY, crate::sim::numerics::portable::min)
}

/// Why a body at its starting pose does not fit inside the walls with `gap` to spare, if it
/// does not.
pub fn wall_problem(body: &Body, domain: &Domain, gap: f32) -> Option<String> {
    let outlines = body.outlines(64);
    for (k, wall) in domain.walls().iter().enumerate() {
        let room = outlines
            .iter()
            .flatten()
            .map(|&p| wall.distance(p))
            .fold(f32::INFINITY, crate::sim::numerics::portable::min);
        if room < gap {
            return Some(if room < 0.0 {
                format!(
                    "lies (partly) outside the walls: walls[{k}] cuts it by {}",
                    -room
                )
            } else {
                format!(
                    "must keep {gap} (2 particle radii) from every wall, \
                     but its surface is {room} from walls[{k}]"
                )
            });
        }
    }
    None
}
