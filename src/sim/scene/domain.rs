//! Wall planes and the convex region they enclose.
//!
//! Each wall is a half-plane n·x ≥ c with the fluid on the side the normal points to. The fluid's
//! region is the intersection of all walls: a convex polygon, computed once so that particles
//! can be projected back into it exactly (not by repeated per-wall pushes, which fail in acute
//! corners).

use crate::sim::numerics::portable::Ordered;
use glam::{DVec2, Vec2};

/// A wall plane n·x = c; fluid lives where n·x > c.
///
/// A preset's `[[walls]]` entry as written; there the normal need not have unit length, and
/// `Wall::new` scales it (and the offset with it) when the scene is built.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wall {
    /// Unit normal pointing into the fluid.
    pub normal: Vec2,
    /// Plane offset c along the normal.
    pub offset: f32,
    /// A heater or cooler plate: the particles beside it (and the air, in scenes with air) are
    /// brought toward this temperature, in °C (`sim::subsystems::heat`). `None` (the default):
    /// adiabatic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f32>,
}

impl Wall {
    /// A wall with the given normal (normalised here) and offset.
    pub fn new(normal: Vec2, offset: f32) -> Self {
        let length = normal.length();
        Self {
            normal: normal / length,
            offset: offset / length,
            temperature: None,
        }
    }

    /// Signed distance of `point` from the wall, positive on the fluid side.
    pub fn distance(&self, point: Vec2) -> f32 {
        self.normal.dot(point) - self.offset
    }
}

/// Why a set of walls does not make a usable domain.
#[derive(Clone, Debug, PartialEq)]
pub enum DomainError {
    /// Fewer than three walls, or walls open on some side.
    Unbounded,
    /// The walls leave no room for fluid (or only a sliver thinner than a particle).
    Empty,
}

impl std::fmt::Display for DomainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DomainError::Unbounded => write!(f, "the walls do not enclose a bounded region"),
            DomainError::Empty => write!(f, "the walls enclose no room for fluid"),
        }
    }
}

/// The convex region enclosed by the walls, and the same region shrunk by the particle radius,
/// where particle centres are kept.
#[derive(Clone, Debug)]
pub struct Domain {
    walls: Vec<Wall>,
    /// Corners of the enclosed region, counter-clockwise.
    polygon: Vec<Vec2>,
    /// Corners of the region shrunk by `particle_radius`, counter-clockwise.
    inner_polygon: Vec<Vec2>,
    /// Distance particle centres keep from every wall.
    particle_radius: f32,
    min: Vec2,
    max: Vec2,
}

/// Half-size of the square that half-planes are clipped from; far beyond any sensible scene.
const FAR: f32 = 1.0e6;

impl Domain {
    /// Builds the region enclosed by `walls`, for particles of `particle_radius` (> 0).
    pub fn new(walls: Vec<Wall>, particle_radius: f32) -> Result<Self, DomainError> {
        let polygon = clip_polygon(&walls, 0.0);
        if polygon.len() < 3 {
            return Err(DomainError::Empty);
        }
        if polygon
            .iter()
            .any(|p| p.x.abs() >= FAR * 0.5 || p.y.abs() >= FAR * 0.5)
        {
            return Err(DomainError::Unbounded);
        }
        let (min, max) = bounds(&polygon);
        let inner_polygon = clip_polygon(&walls, particle_radius);
        if inner_polygon.len() < 3
            || polygon_area(&inner_polygon) < particle_radius * particle_radius
        {
            return Err(DomainError::Empty);
        }
        Ok(Self {
            walls,
            polygon,
            inner_polygon,
            particle_radius,
            min,
            max,
        })
    }

    /// The wall planes.
    pub fn walls(&self) -> &[Wall] {
        &self.walls
    }

    /// Corners of the fluid region, counter-clockwise (for drawing and tests).
    pub fn polygon(&self) -> &[Vec2] {
        &self.polygon
    }

    /// Lower-left corner of the region's bounding box.
    pub fn min(&self) -> Vec2 {
        self.min
    }

    /// Upper-right corner of the region's bounding box.
    pub fn max(&self) -> Vec2 {
        self.max
    }

    /// Area of the fluid region.
    pub fn area(&self) -> f32 {
        polygon_area(&self.polygon)
    }

    /// Distance particle centres keep from the walls.
    pub fn particle_radius(&self) -> f32 {
        self.particle_radius
    }

    /// True when `point` is on the fluid side of every wall (or on one).
    pub fn contains(&self, point: Vec2) -> bool {
        self.walls.iter().all(|wall| wall.distance(point) >= 0.0)
    }

    /// True when `point` is at least `margin` inside every wall.
    #[inline]
    pub fn contains_with_margin(&self, point: Vec2, margin: f32) -> bool {
        self.walls.iter().all(|wall| wall.distance(point) >= margin)
    }

    /// Returns `point` if it keeps (to rounding) one particle radius from every wall, else the
    /// nearest point that does. The result is always strictly inside every wall.
    #[inline]
    pub fn clamp(&self, point: Vec2) -> Vec2 {
        let tolerance = 1.0e-3 * self.particle_radius;
        if point.is_finite() && self.contains_with_margin(point, self.particle_radius - tolerance) {
            return point;
        }
        if !point.is_finite() {
            return centroid(&self.inner_polygon);
        }
        nearest_on_boundary(&self.inner_polygon, point)
    }
}

/// Clips a far square by every wall moved inward by `inset` (Sutherland–Hodgman), in f64 so that
/// the far corners lose no precision.
fn clip_polygon(walls: &[Wall], inset: f32) -> Vec<Vec2> {
    let far = FAR as f64;
    let mut polygon = vec![
        DVec2::new(-far, -far),
        DVec2::new(far, -far),
        DVec2::new(far, far),
        DVec2::new(-far, far),
    ];
    for wall in walls {
        let normal = wall.normal.as_dvec2();
        let offset = wall.offset as f64 + inset as f64;
        let side = |p: DVec2| normal.dot(p) - offset;
        let mut clipped = Vec::with_capacity(polygon.len() + 1);
        for (k, &current) in polygon.iter().enumerate() {
            let next = polygon[(k + 1) % polygon.len()];
            let (dc, dn) = (side(current), side(next));
            if dc >= 0.0 {
                clipped.push(current);
            }
            if (dc >= 0.0) != (dn >= 0.0) {
                clipped.push(current + (next - current) * (dc / (dc - dn)));
            }
        }
        polygon = clipped;
        if polygon.is_empty() {
            break;
        }
    }
    polygon.iter().map(|p| p.as_vec2()).collect()
}

fn bounds(polygon: &[Vec2]) -> (Vec2, Vec2) {
    polygon.iter().fold(
        (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
        |(min, max), &p| (min.at_most(p), max.at_least(p)),
    )
}

/// Area of a simple polygon, whichever way round its corners go.
pub(crate) fn polygon_area(polygon: &[Vec2]) -> f32 {
    let twice: f32 = (0..polygon.len())
        .map(|k| polygon[k].perp_dot(polygon[(k + 1) % polygon.len()]))
        .sum();
    0.5 * twice.abs()
}

fn centroid(polygon: &[Vec2]) -> Vec2 {
    polygon.iter().copied().sum::<Vec2>() / polygon.len() as f32
}

/// Nearest point to `point` on the boundary of a convex polygon.
fn nearest_on_boundary(polygon: &[Vec2], point: Vec2) -> Vec2 {
    let mut best = polygon[0];
    let mut best_distance = f32::INFINITY;
    for k in 0..polygon.len() {
        let (a, b) = (polygon[k], polygon[(k + 1) % polygon.len()]);
        let edge = b - a;
        let t = ((point - a).dot(edge) / edge.length_squared().at_least(f32::MIN_POSITIVE))
            .clamp(0.0, 1.0);
        let candidate = a + edge * t;
        let distance = candidate.distance_squared(point);
        if distance < best_distance {
            best_distance = distance;
            best = candidate;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_box() -> Vec<Wall> {
        vec![
            Wall::new(Vec2::X, 0.0),
            Wall::new(Vec2::Y, 0.0),
            Wall::new(-Vec2::X, -1.0),
            Wall::new(-Vec2::Y, -1.0),
        ]
    }

    #[test]
    fn a_box_encloses_its_square() {
        let domain = Domain::new(unit_box(), 0.01).unwrap();
        assert!((domain.area() - 1.0).abs() < 1e-5);
        assert_eq!(domain.min(), Vec2::ZERO);
        assert_eq!(domain.max(), Vec2::ONE);
    }

    #[test]
    fn open_walls_are_refused() {
        let walls = vec![Wall::new(Vec2::X, 0.0), Wall::new(Vec2::Y, 0.0)];
        assert_eq!(
            Domain::new(walls, 0.01).unwrap_err(),
            DomainError::Unbounded
        );
    }

    #[test]
    fn contradictory_walls_are_refused() {
        let walls = vec![
            Wall::new(Vec2::X, 1.0),
            Wall::new(-Vec2::X, 0.0),
            Wall::new(Vec2::Y, 0.0),
            Wall::new(-Vec2::Y, -1.0),
        ];
        assert_eq!(Domain::new(walls, 0.01).unwrap_err(), DomainError::Empty);
    }

    #[test]
    fn clamping_puts_points_in_an_acute_corner_strictly_inside() {
        // A narrow wedge: repeated per-wall pushes would bounce between its two walls.
        let walls = vec![
            Wall::new(Vec2::new(0.05, 1.0), 0.0),
            Wall::new(Vec2::new(0.05, -1.0), 0.0),
            Wall::new(-Vec2::X, -10.0),
        ];
        let domain = Domain::new(walls, 0.001).unwrap();
        for point in [
            Vec2::new(-3.0, 0.0),
            Vec2::new(-0.01, 0.3),
            Vec2::new(5.0, 4.0),
            Vec2::new(12.0, -1.0),
            Vec2::new(f32::NAN, 1.0),
        ] {
            let clamped = domain.clamp(point);
            assert!(domain.contains(clamped), "{point} → {clamped}");
            let distances: Vec<f32> = domain.walls().iter().map(|w| w.distance(clamped)).collect();
            assert!(
                distances.iter().all(|&d| d > 0.0),
                "{point} → {clamped}: {distances:?}"
            );
        }
        let inside = Vec2::new(5.0, 0.0);
        assert_eq!(domain.clamp(inside), inside);
    }
}
