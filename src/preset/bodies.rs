//! The `[[bodies]]` and `[[hinges]]` tables of a preset: rigid bodies that float, checked.

use super::check::{check, check_colour, check_count, check_text, check_vector, invalid, Invalid};
use super::file::{BodyFile, HingeFile, ShapeFile};
use crate::sim::scene::bodies::{Body, Hinge};
use crate::sim::scene::ranges::{self as field, Field, Scale, Step};
use crate::sim::scene::shape::{is_convex_counter_clockwise, BodyShape, Part};
use crate::sim::{Domain, Obstacle};
use glam::Vec2;
use Step::{Index, Key};

/// Checks `[[bodies]]` and `[[hinges]]` against the walls and obstacles, for particles of
/// `radius`: every body inside the walls, apart from the others and from the obstacles by 2 r
/// (a particle fits between any two solids), every part convex and at least r thick. Without
/// the `bodies` feature a preset with either is refused (`NO_BODIES`).
#[cfg_attr(not(feature = "bodies"), allow(unused_variables))]
pub(super) fn bodies(
    list: &[BodyFile],
    hinges: &[HingeFile],
    domain: &Domain,
    obstacles: &[Obstacle],
    radius: f32,
) -> Result<(Vec<Body>, Vec<Hinge>), Invalid> {
    #[cfg(not(feature = "bodies"))]
    if !list.is_empty() || !hinges.is_empty() {
        let table = if list.is_empty() { "hinges" } else { "bodies" };
        return Err(invalid(&[Key(table)], NO_BODIES));
    }
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
        let body = body(file, index, radius)?;
        #[cfg(feature = "bodies")]
        room(&body, &built, domain, obstacles, gap)
            .map_err(|problem| invalid(&at("position"), problem))?;
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

/// `[[bodies]]` entry `index`, `file`, checked for particles of `radius`: its name, parts, pose,
/// motion and constants (not its room among the others).
pub(super) fn body(file: &BodyFile, index: usize, radius: f32) -> Result<Body, Invalid> {
    let at = |field| [Key("bodies"), Index(index), Key(field)];
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
    Ok(Body {
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
    })
}

/// The body library's file, as embedded: the rigid bodies the palette places.
const LIBRARY: &str = include_str!("../../assets/bodies.toml");

/// The body library's file as serde reads it.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct BodyLibrary {
    bodies: Vec<BodyFile>,
}

/// The body library's entries, read once.
fn library() -> &'static [BodyFile] {
    static BODIES: std::sync::OnceLock<Vec<BodyFile>> = std::sync::OnceLock::new();
    BODIES.get_or_init(|| {
        let read: BodyLibrary = toml::from_str(LIBRARY).expect("the embedded body library reads");
        read.bodies
    })
}

/// The names of the body library's rigid bodies (crate, ball, log, duck), in the palette's
/// order.
pub fn library_body_names() -> impl Iterator<Item = &'static str> {
    library().iter().map(|b| b.name.as_str())
}

/// The body library's body called `name` at `position`, at rest, its parts checked for
/// particles of `radius` (each at least one radius thick); `None` for a name the library lacks
/// or parts too thin for these particles.
pub fn library_body(name: &str, position: Vec2, radius: f32) -> Option<Body> {
    let index = library().iter().position(|b| b.name == name)?;
    let body = body(&library()[index], index, radius).ok()?;
    Some(Body { position, ..body })
}

/// The body library's body called `name` as a preset's `[[bodies]]` entry writes it.
pub(super) fn library_body_file(name: &str) -> Option<&'static BodyFile> {
    library().iter().find(|b| b.name == name)
}

/// Why a preset with bodies or hinges does not load in a build without the `bodies` feature.
#[cfg(not(feature = "bodies"))]
pub(crate) const NO_BODIES: &str =
    "this preset has rigid bodies; build slosh with the `bodies` feature";

/// Why `body`, at its starting pose, has too little room (under `gap`) from the walls, the
/// obstacles or the bodies `built` before it, if it has too little (rapier's shapes measure it).
#[cfg(feature = "bodies")]
fn room(
    body: &Body,
    built: &[Body],
    domain: &Domain,
    obstacles: &[Obstacle],
    gap: f32,
) -> Result<(), String> {
    use crate::sim::subsystems::bodies;
    if let Some(problem) = bodies::wall_problem(body, domain, gap) {
        return Err(problem);
    }
    for (o, obstacle) in obstacles.iter().enumerate() {
        let room = bodies::distance_to_obstacle(body, obstacle);
        if room < gap {
            return Err(format!(
                "must keep {gap} (2 particle radii) from every obstacle, \
                 but its surface is {room} from obstacles[{o}]"
            ));
        }
    }
    for (other_index, other) in built.iter().enumerate() {
        let room = bodies::distance_between(body, other);
        if room < gap {
            return Err(format!(
                "overlaps or nearly touches bodies[{other_index}] (`{}`): \
                 bodies must keep {gap} (2 particle radii) apart, got {room}",
                other.name
            ));
        }
    }
    Ok(())
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

#[cfg(all(test, not(feature = "bodies")))]
mod tests {
    use super::NO_BODIES;
    use crate::preset::{Preset, BUILTIN};

    /// Without the `bodies` feature a preset with rigid bodies (an embedded one, a level, a file)
    /// is refused, not run without them: the error names the file, the line of its first body
    /// and the feature to build with. Hinges alone are refused the same way.
    #[test]
    fn a_preset_with_bodies_is_refused_without_the_feature() {
        let bath = BUILTIN.iter().find(|(name, _)| *name == "bath").unwrap().1;
        let line = bath.lines().position(|l| l.trim() == "[[bodies]]").unwrap() + 1;
        let error = Preset::load("bath").unwrap_err();
        assert!(error.file.ends_with("bath.toml"), "{error}");
        assert_eq!(error.line, Some(line));
        assert_eq!(
            error.to_string(),
            format!(
                "{}:{line}: bodies: this preset has rigid bodies; build slosh with the `bodies` \
                 feature",
                error.file
            )
        );
        let error = Preset::parse("my-bath.toml", bath).unwrap_err();
        assert_eq!(
            (error.file.as_str(), error.line),
            ("my-bath.toml", Some(line))
        );
        assert_eq!(Preset::load("first-pour").unwrap_err().message, NO_BODIES);

        let seed = BUILTIN[0].1;
        let hinged = format!("{seed}\n[[hinges]]\nbody = \"wheel\"\nanchor = [1.0, 1.0]\n");
        let error = Preset::parse("hinged.toml", &hinged).unwrap_err();
        assert_eq!(
            (error.field.as_str(), error.message.as_str()),
            ("hinges", NO_BODIES)
        );
        assert!(Preset::parse("seed.toml", seed).is_ok());
    }
}
