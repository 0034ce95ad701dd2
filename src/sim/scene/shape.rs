//! What a rigid body is made of: convex parts (circles, boxes, capsules, convex polygons) placed
//! in the body's own frame, as a scene describes them (plain data:
//! the running bodies build rapier's shapes from them, `subsystems::bodies`).

use crate::sim::numerics::portable::Ordered;
use glam::Vec2;

/// One convex piece of a body, in the body's frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    /// Its outline.
    pub shape: BodyShape,
    /// Where its centre sits in the body's frame.
    pub offset: Vec2,
    /// Its turn in the body's frame, in radians.
    pub angle: f32,
}

/// The outline of a part, centred on the part's origin.
#[derive(Clone, Debug, PartialEq)]
pub enum BodyShape {
    /// A disc.
    Circle {
        /// Its radius.
        radius: f32,
    },
    /// A rectangle.
    Box {
        /// Half its width and half its height.
        half_size: Vec2,
    },
    /// A segment along x, `2 × half_length` long, thickened by `radius` (a stadium).
    Capsule {
        /// Half the length of the core segment.
        half_length: f32,
        /// Thickness on each side of the segment.
        radius: f32,
    },
    /// A convex polygon, its corners counter-clockwise.
    Polygon {
        /// Corners in the part's frame.
        points: Vec<Vec2>,
    },
}

impl Part {
    /// A part of `shape` at the body's origin.
    pub fn new(shape: BodyShape) -> Self {
        Self {
            shape,
            offset: Vec2::ZERO,
            angle: 0.0,
        }
    }

    /// The same part at `offset`, turned by `angle`, in the body's frame.
    pub fn placed(self, offset: Vec2, angle: f32) -> Self {
        Self {
            offset,
            angle,
            ..self
        }
    }

    /// A disc of `radius` about `centre`: a region for the world's queries, or a body's part.
    pub fn circle(centre: Vec2, radius: f32) -> Self {
        Self::new(BodyShape::Circle { radius }).placed(centre, 0.0)
    }

    /// The upright rectangle from corner `min` to corner `max`.
    pub fn rect(min: Vec2, max: Vec2) -> Self {
        let half_size = 0.5 * (max - min);
        Self::new(BodyShape::Box { half_size }).placed(0.5 * (min + max), 0.0)
    }

    /// The segment from `a` to `b` thickened by `radius` on each side (a stadium).
    pub fn capsule(a: Vec2, b: Vec2, radius: f32) -> Self {
        let half_length = 0.5 * a.distance(b);
        let angle = crate::sim::numerics::portable::angle_of(b - a);
        Self::new(BodyShape::Capsule {
            half_length,
            radius,
        })
        .placed(0.5 * (a + b), angle)
    }

    /// A point of the body's frame in the part's own frame (the inverse of `to_body`).
    pub fn to_part(&self, point: Vec2) -> Vec2 {
        let turn = crate::sim::numerics::portable::unit_vector(self.angle);
        Vec2::new(turn.x, -turn.y).rotate(point - self.offset)
    }

    /// True when `point` (in the body's frame) lies inside the part or on its outline.
    pub fn contains(&self, point: Vec2) -> bool {
        let local = self.to_part(point);
        match &self.shape {
            BodyShape::Circle { radius } => local.length_squared() <= radius * radius,
            BodyShape::Box { half_size } => local.abs().cmple(*half_size).all(),
            BodyShape::Capsule {
                half_length,
                radius,
            } => {
                let along = local.x.at_least(-half_length).at_most(*half_length);
                (local - Vec2::new(along, 0.0)).length_squared() <= radius * radius
            }
            BodyShape::Polygon { points } => (0..points.len()).all(|k| {
                let (a, b) = (points[k], points[(k + 1) % points.len()]);
                (b - a).perp_dot(local - a) >= 0.0
            }),
        }
    }

    /// The signed distance from `point` (in the body's frame) to the part's outline, negative
    /// inside, and the outward normal there (in the body's frame): what pushes a particle out
    /// of a coupled body (`sim::world::Coupling`).
    pub fn surface(&self, point: Vec2) -> (f32, Vec2) {
        let local = self.to_part(point);
        let away = |offset: Vec2, fallback: Vec2| {
            let length = offset.length();
            if length > 0.0 {
                (length, offset / length)
            } else {
                (0.0, fallback)
            }
        };
        let (distance, normal) = match &self.shape {
            BodyShape::Circle { radius } => {
                let (length, normal) = away(local, Vec2::Y);
                (length - radius, normal)
            }
            BodyShape::Capsule {
                half_length,
                radius,
            } => {
                let core = Vec2::new(local.x.at_least(-half_length).at_most(*half_length), 0.0);
                let (length, normal) = away(local - core, Vec2::Y);
                (length - radius, normal)
            }
            BodyShape::Box { half_size } => {
                let q = local.abs() - *half_size;
                let sign = Vec2::new(1f32.copysign(local.x), 1f32.copysign(local.y));
                if q.x > 0.0 || q.y > 0.0 {
                    let (length, normal) = away(q.at_least(Vec2::ZERO), Vec2::Y);
                    (length, normal * sign)
                } else if q.x > q.y {
                    (q.x, Vec2::new(sign.x, 0.0))
                } else {
                    (q.y, Vec2::new(0.0, sign.y))
                }
            }
            BodyShape::Polygon { points } => polygon_surface(points, local),
        };
        let turn = crate::sim::numerics::portable::unit_vector(self.angle);
        (distance, turn.rotate(normal))
    }

    /// The corners of the smallest upright box, in the body's frame, that holds the part.
    pub fn bounds(&self) -> (Vec2, Vec2) {
        let (core, radius): (Vec<Vec2>, f32) = match &self.shape {
            BodyShape::Circle { radius } => (vec![Vec2::ZERO], *radius),
            BodyShape::Box { half_size } => (
                vec![
                    *half_size,
                    -*half_size,
                    Vec2::new(half_size.x, -half_size.y),
                    Vec2::new(-half_size.x, half_size.y),
                ],
                0.0,
            ),
            BodyShape::Capsule {
                half_length,
                radius,
            } => (
                vec![Vec2::new(*half_length, 0.0), Vec2::new(-half_length, 0.0)],
                *radius,
            ),
            BodyShape::Polygon { points } => (points.clone(), 0.0),
        };
        let placed = core.into_iter().map(|p| self.to_body(p));
        let (low, high) = placed.fold((Vec2::INFINITY, Vec2::NEG_INFINITY), |(low, high), p| {
            (low.at_most(p), high.at_least(p))
        });
        (low - Vec2::splat(radius), high + Vec2::splat(radius))
    }

    /// A point of the part's frame in the body's frame.
    pub fn to_body(&self, point: Vec2) -> Vec2 {
        self.offset + crate::sim::numerics::portable::unit_vector(self.angle).rotate(point)
    }

    /// Its outline as a closed polygon in the body's frame (curves as `segments` straight
    /// pieces per full turn), for drawing and for checking where a body lies.
    pub fn outline(&self, segments: usize) -> Vec<Vec2> {
        let arc = |centre: Vec2, radius: f32, from: f32, turn: f32, pieces: usize| {
            (0..=pieces).map(move |k| {
                let angle = from + turn * k as f32 / pieces as f32;
                centre + crate::sim::numerics::portable::unit_vector(angle) * radius
            })
        };
        let local: Vec<Vec2> = match &self.shape {
            BodyShape::Circle { radius } => {
                arc(Vec2::ZERO, *radius, 0.0, std::f32::consts::TAU, segments)
                    .take(segments)
                    .collect()
            }
            BodyShape::Box { half_size } => vec![
                Vec2::new(-half_size.x, -half_size.y),
                Vec2::new(half_size.x, -half_size.y),
                Vec2::new(half_size.x, half_size.y),
                Vec2::new(-half_size.x, half_size.y),
            ],
            BodyShape::Capsule {
                half_length,
                radius,
            } => {
                let half = (segments / 2).max(2);
                let pi = std::f32::consts::PI;
                arc(Vec2::new(*half_length, 0.0), *radius, -pi / 2.0, pi, half)
                    .chain(arc(
                        Vec2::new(-half_length, 0.0),
                        *radius,
                        pi / 2.0,
                        pi,
                        half,
                    ))
                    .collect()
            }
            BodyShape::Polygon { points } => points.clone(),
        };
        local.into_iter().map(|p| self.to_body(p)).collect()
    }

    /// The smallest distance from the part's centre line to its surface: half its thickness.
    pub fn half_thickness(&self) -> f32 {
        match &self.shape {
            BodyShape::Circle { radius } | BodyShape::Capsule { radius, .. } => *radius,
            BodyShape::Box { half_size } => crate::sim::numerics::portable::smallest(*half_size),
            BodyShape::Polygon { points } => {
                let centre = points.iter().copied().sum::<Vec2>() / points.len().max(1) as f32;
                (0..points.len())
                    .map(|k| {
                        let (a, b) = (points[k], points[(k + 1) % points.len()]);
                        let normal = (b - a).perp().normalize_or_zero();
                        (centre - a).dot(normal).abs()
                    })
                    .fold(f32::INFINITY, crate::sim::numerics::portable::min)
            }
        }
    }

    /// The part's area.
    pub fn area(&self) -> f32 {
        match &self.shape {
            BodyShape::Circle { radius } => std::f32::consts::PI * radius * radius,
            BodyShape::Box { half_size } => 4.0 * half_size.x * half_size.y,
            BodyShape::Capsule {
                half_length,
                radius,
            } => 4.0 * half_length * radius + std::f32::consts::PI * radius * radius,
            BodyShape::Polygon { points } => crate::sim::scene::domain::polygon_area(points),
        }
    }
}

/// The signed distance from `point` to the convex counter-clockwise polygon `points`,
/// negative inside, and the outward normal there.
fn polygon_surface(points: &[Vec2], point: Vec2) -> (f32, Vec2) {
    let n = points.len();
    let outward = |k: usize| {
        let edge = points[(k + 1) % n] - points[k];
        Vec2::new(edge.y, -edge.x).normalize_or_zero()
    };
    let (mut deepest, mut deepest_normal) = (f32::NEG_INFINITY, Vec2::Y);
    let (mut nearest, mut nearest_point) = (f32::INFINITY, point);
    for k in 0..n {
        let (a, b) = (points[k], points[(k + 1) % n]);
        let normal = outward(k);
        let along = normal.dot(point - a);
        if along > deepest {
            (deepest, deepest_normal) = (along, normal);
        }
        let edge = b - a;
        let t = ((point - a).dot(edge) / edge.length_squared().at_least(f32::MIN_POSITIVE))
            .at_least(0.0)
            .at_most(1.0);
        let closest = a + edge * t;
        let distance = closest.distance_squared(point);
        if distance < nearest {
            (nearest, nearest_point) = (distance, closest);
        }
    }
    if deepest <= 0.0 {
        (deepest, deepest_normal)
    } else {
        let offset = point - nearest_point;
        let length = offset.length();
        if length > 0.0 {
            (length, offset / length)
        } else {
            (0.0, deepest_normal)
        }
    }
}

/// True when `points` (three or more) turn left at every corner.
pub fn is_convex_counter_clockwise(points: &[Vec2]) -> bool {
    let n = points.len();
    n >= 3
        && (0..n).all(|k| {
            let (a, b, c) = (points[k], points[(k + 1) % n], points[(k + 2) % n]);
            (b - a).perp_dot(c - b) > 0.0
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn areas_and_thickness_of_each_shape() {
        let circle = Part::new(BodyShape::Circle { radius: 1.0 });
        assert!((circle.area() - std::f32::consts::PI).abs() < 1e-6);
        let square = Part::new(BodyShape::Box {
            half_size: Vec2::new(1.0, 0.5),
        });
        assert_eq!(square.area(), 2.0);
        assert_eq!(square.half_thickness(), 0.5);
        let triangle = Part::new(BodyShape::Polygon {
            points: vec![Vec2::ZERO, Vec2::new(2.0, 0.0), Vec2::new(0.0, 2.0)],
        });
        assert!((triangle.area() - 2.0).abs() < 1e-6);
    }

    #[test]
    fn each_shape_holds_what_lies_inside_it() {
        let circle = Part::circle(Vec2::new(1.0, 1.0), 0.5);
        assert!(circle.contains(Vec2::new(1.4, 1.0)) && !circle.contains(Vec2::new(1.6, 1.0)));
        let rect = Part::rect(Vec2::new(0.0, 0.0), Vec2::new(2.0, 1.0));
        assert!(rect.contains(Vec2::new(1.9, 0.9)) && !rect.contains(Vec2::new(2.1, 0.5)));
        assert_eq!(rect.bounds(), (Vec2::ZERO, Vec2::new(2.0, 1.0)));
        let capsule = Part::capsule(Vec2::ZERO, Vec2::new(2.0, 2.0), 0.25);
        assert!(capsule.contains(Vec2::new(1.0, 1.2)) && !capsule.contains(Vec2::new(1.0, 1.5)));
        assert!(capsule.contains(Vec2::new(2.1, 2.1)) && !capsule.contains(Vec2::new(2.0, 0.0)));
        let (low, high) = capsule.bounds();
        assert!((low + Vec2::splat(0.25)).length() < 1e-5, "{low}");
        assert!((high - Vec2::splat(2.25)).length() < 1e-5, "{high}");
        let triangle = Part::new(BodyShape::Polygon {
            points: vec![Vec2::ZERO, Vec2::new(2.0, 0.0), Vec2::new(0.0, 2.0)],
        })
        .placed(Vec2::new(5.0, 0.0), 0.0);
        assert!(triangle.contains(Vec2::new(5.5, 0.5)) && !triangle.contains(Vec2::new(6.5, 1.0)));
    }

    #[test]
    fn the_surface_is_as_far_as_the_outline_and_faces_out() {
        let shapes = [
            Part::circle(Vec2::new(1.0, 1.0), 0.5),
            Part::new(BodyShape::Box {
                half_size: Vec2::new(0.6, 0.3),
            })
            .placed(Vec2::new(-1.0, 0.5), 0.4),
            Part::capsule(Vec2::ZERO, Vec2::new(2.0, 1.0), 0.25),
            Part::new(BodyShape::Polygon {
                points: vec![Vec2::ZERO, Vec2::new(2.0, 0.0), Vec2::new(0.0, 1.5)],
            })
            .placed(Vec2::new(3.0, -1.0), -0.3),
        ];
        for part in &shapes {
            let outline = part.outline(256);
            for k in 0..200 {
                let point = Vec2::new(-2.5 + 0.031 * k as f32, -1.7 + 0.019 * k as f32);
                let (distance, normal) = part.surface(point);
                assert_eq!(distance <= 0.0, part.contains(point), "{part:?} {point}");
                assert!((normal.length() - 1.0).abs() < 1e-4);
                // Out along the normal by the distance is on the outline.
                let on = point - normal * distance;
                let gap = (0..outline.len())
                    .map(|i| {
                        let (a, b) = (outline[i], outline[(i + 1) % outline.len()]);
                        let t = ((on - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
                        (a + (b - a) * t).distance(on)
                    })
                    .fold(f32::INFINITY, crate::sim::numerics::portable::min);
                assert!(
                    gap < 2e-3,
                    "{part:?} at {point}: {distance} {normal} off by {gap}"
                );
            }
        }
    }

    #[test]
    fn outline_follows_the_placement() {
        let part = Part::new(BodyShape::Box {
            half_size: Vec2::new(1.0, 0.5),
        })
        .placed(Vec2::new(3.0, 0.0), std::f32::consts::FRAC_PI_2);
        let outline = part.outline(16);
        assert!(
            (outline[0] - Vec2::new(3.5, -1.0)).length() < 1e-5,
            "{outline:?}"
        );
    }
}
