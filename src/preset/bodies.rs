//! The `[[bodies]]` and `[[hinges]]` tables of a preset: rigid bodies that float, checked.

use super::check::{check, check_colour, check_count, check_text, check_vector, invalid, Invalid};
use super::file::{BodyFile, HingeFile, ShapeFile};
use crate::sim::scene::ranges::{self as field, Field, Scale, Step};
use crate::sim::subsystems::bodies::{
    self, is_convex_counter_clockwise, Body, BodyShape, Hinge, Part,
};
use crate::sim::{Domain, Obstacle};
use glam::Vec2;
use Step::{Index, Key};

/// Checks `[[bodies]]` and `[[hinges]]` against the walls and obstacles, for particles of
/// `radius`: every body inside the walls, apart from the others and from the obstacles by 2 r
/// (a particle fits between any two solids), every part convex and at least r thick.
pub(super) fn bodies(
    list: &[BodyFile],
    hinges: &[HingeFile],
    domain: &Domain,
    obstacles: &[Obstacle],
    radius: f32,
) -> Result<(Vec<Body>, Vec<Hinge>), Invalid> {
    let gap = 2.0 * radius;
    let mut built: Vec<Body> = Vec::with_capacity(list.len());
    for (index, file) in list.iter().enumerate() {
        let at = |field| [Key("bodies"), Index(index), Key(field)];
        check_text(&at("name"), &file.name)?;
        if built.iter().any(|b| b.name == file.name) {
            return Err(invalid(
                &at("name"),
                format!("`{}` is defined twice", file.name),
            ));
        }
        let fixed = Scale::default();
        let value = |field: &Field, value| check(&at(field.key()), field, value, &fixed);
        check_count(
            &at("shapes"),
            &field::BODY_SHAPES,
            file.shapes.len(),
            &fixed,
        )?;
        let mut parts = Vec::with_capacity(file.shapes.len());
        for (k, shape) in file.shapes.iter().enumerate() {
            parts.push(part(
                shape,
                &[Key("bodies"), Index(index), Key("shapes"), Index(k)],
                radius,
            )?);
        }
        check_colour(&at("colour"), &field::BODY_COLOUR, file.colour, &fixed)?;
        let body = Body {
            name: file.name.clone(),
            parts,
            position: check_vector(
                &at("position"),
                &field::BODY_POSITION,
                file.position,
                &fixed,
            )?,
            angle: value(&field::BODY_ANGLE, file.angle)?,
            velocity: check_vector(
                &at("velocity"),
                &field::BODY_VELOCITY,
                file.velocity,
                &fixed,
            )?,
            angular_velocity: value(&field::BODY_ANGULAR_VELOCITY, file.angular_velocity)?,
            density: value(&field::BODY_DENSITY, file.density)?,
            friction: value(&field::BODY_FRICTION, file.friction)?,
            restitution: value(&field::BODY_RESTITUTION, file.restitution)?,
            colour: file.colour,
        };
        if let Some(problem) = bodies::wall_problem(&body, domain, gap) {
            return Err(invalid(&at("position"), problem));
        }
        for (o, obstacle) in obstacles.iter().enumerate() {
            let room = bodies::distance_to_obstacle(&body, obstacle);
            if room < gap {
                return Err(invalid(
                    &at("position"),
                    format!(
                        "must keep {gap} (2 particle radii) from every obstacle, \
                         but its surface is {room} from obstacles[{o}]"
                    ),
                ));
            }
        }
        for (other_index, other) in built.iter().enumerate() {
            let room = bodies::distance_between(&body, other);
            if room < gap {
                return Err(invalid(
                    &at("position"),
                    format!(
                        "overlaps or nearly touches bodies[{other_index}] (`{}`): \
                         bodies must keep {gap} (2 particle radii) apart, got {room}",
                        other.name
                    ),
                ));
            }
        }
        built.push(body);
    }
    let mut joints = Vec::with_capacity(hinges.len());
    for (index, hinge) in hinges.iter().enumerate() {
        let at = |field| [Key("hinges"), Index(index), Key(field)];
        let find = |field, name: &str| {
            built
                .iter()
                .position(|b| b.name == name)
                .ok_or_else(|| invalid(&at(field), format!("no body is named `{name}`")))
        };
        let body = find("body", &hinge.body)?;
        let to = hinge
            .to
            .as_deref()
            .map(|name| find("to", name))
            .transpose()?;
        if to == Some(body) {
            return Err(invalid(&at("to"), "a body cannot be hinged to itself"));
        }
        let anchor = check_vector(
            &at("anchor"),
            &field::HINGE_ANCHOR,
            hinge.anchor,
            &Scale::default(),
        )?;
        if !domain.contains(anchor) {
            return Err(invalid(&at("anchor"), "lies outside the walls"));
        }
        joints.push(Hinge { body, to, anchor });
    }
    Ok((built, joints))
}

/// One `shapes` entry, checked: sizes above 0 and at least one particle radius thick.
fn part(file: &ShapeFile, path: &[Step], radius: f32) -> Result<Part, Invalid> {
    let at = |field| {
        let mut p = path.to_vec();
        p.push(Key(field));
        p
    };
    let kinds: &[(&str, &[&str])] = &[
        ("circle", &["radius"]),
        ("box", &["half_size"]),
        ("capsule", &["half_length", "radius"]),
        ("polygon", &["points"]),
    ];
    let Some((_, wanted)) = kinds.iter().find(|(kind, _)| *kind == file.kind) else {
        return Err(invalid(
            &at("kind"),
            format!(
                "must be \"circle\", \"box\", \"capsule\" or \"polygon\", got {:?}",
                file.kind
            ),
        ));
    };
    let given = [
        ("radius", file.radius.is_some()),
        ("half_size", file.half_size.is_some()),
        ("half_length", file.half_length.is_some()),
        ("points", file.points.is_some()),
    ];
    for (field, present) in given {
        if present != wanted.contains(&field) {
            let message = if present {
                format!("a {} has no `{field}`", file.kind)
            } else {
                format!("a {} needs `{field}`", file.kind)
            };
            return Err(invalid(&at(if present { field } else { "kind" }), message));
        }
    }
    let fixed = Scale::default();
    let size = |name, value: f32| check(&at(name), &field::PART_SIZE, value, &fixed);
    let shape = match file.kind.as_str() {
        "circle" => BodyShape::Circle {
            radius: size("radius", file.radius.unwrap_or_default())?,
        },
        "box" => {
            let [x, y] = file.half_size.unwrap_or_default();
            BodyShape::Box {
                half_size: Vec2::new(size("half_size", x)?, size("half_size", y)?),
            }
        }
        "capsule" => BodyShape::Capsule {
            half_length: size("half_length", file.half_length.unwrap_or_default())?,
            radius: size("radius", file.radius.unwrap_or_default())?,
        },
        _ => {
            let points = file.points.as_deref().unwrap_or_default();
            check_count(&at("points"), &field::PART_POINTS, points.len(), &fixed)?;
            let points = points
                .iter()
                .map(|&p| check_vector(&at("points"), &field::PART_POINT, p, &fixed))
                .collect::<Result<Vec<_>, _>>()?;
            if !is_convex_counter_clockwise(&points) {
                return Err(invalid(
                    &at("points"),
                    "must be the corners of a convex polygon, counter-clockwise",
                ));
            }
            BodyShape::Polygon { points }
        }
    };
    let built = Part::new(shape).placed(
        check_vector(&at("offset"), &field::PART_POINT, file.offset, &fixed)?,
        check(&at("angle"), &field::BODY_ANGLE, file.angle, &fixed)?,
    );
    let thickness = built.half_thickness();
    if thickness < radius {
        return Err(invalid(
            &at("kind"),
            format!(
                "must be at least {radius} (one particle radius) from its middle to every side, \
                 got {thickness}"
            ),
        ));
    }
    Ok(built)
}
