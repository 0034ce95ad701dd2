//! The material library (`assets/materials.toml`): every kind of matter defined once, with its
//! constants, look and heat, and the reactions between library materials.
//!
//! A preset's `[[materials]]` entry that names a library material takes it, overriding only the
//! fields it gives; a library reaction joins every scene that holds both its materials, and
//! brings in the products the scene lacks (`apply`). The library is embedded in the binary and
//! checked by the same rules as a preset's materials (its test below builds it as a scene).

use super::PresetError;
use crate::sim::scene::{Product, Reaction};
use crate::sim::{AirSettings, Arrival, Material, MaterialPatch, World};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// The library's file, as embedded.
pub const TEXT: &str = include_str!("../../assets/materials.toml");

/// The material library: its materials in the file's order (the palette's), and its reactions.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Library {
    materials: Vec<Material>,
    #[serde(default)]
    reactions: Vec<ReactionFile>,
}

/// A `[[reactions]]` entry as written: materials by name, and each product a material's name,
/// `"vapour"` or `"nothing"` (a view of `Reaction`, as obstacles' kinds are of theirs).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReactionFile {
    pub name: String,
    pub between: [String; 2],
    pub into: [String; 2],
    pub rate: f32,
    #[serde(default)]
    pub heat: f32,
}

/// The embedded library, read once.
pub fn library() -> &'static Library {
    static LIBRARY: OnceLock<Library> = OnceLock::new();
    LIBRARY.get_or_init(|| toml::from_str(TEXT).expect("the embedded material library reads"))
}

impl Library {
    /// Every library material, in the palette's order.
    pub fn materials(&self) -> &[Material] {
        &self.materials
    }

    /// The library material called `name`, if any.
    pub fn material(&self, name: &str) -> Option<&Material> {
        self.materials.iter().find(|m| m.name == name)
    }

    /// The library's reactions, as the file writes them.
    pub(crate) fn reactions(&self) -> &[ReactionFile] {
        &self.reactions
    }

    /// The library material whose name is nearest to `name` (by edit distance, ignoring case),
    /// when one is near enough to be what was meant.
    pub fn nearest(&self, name: &str) -> Option<&str> {
        nearest(name, self.materials.iter().map(|m| m.name.as_str()))
    }
}

/// The name among `known` nearest to `name` (by edit distance, ignoring case), when it is within
/// a third of the longer name's length (at least 2 edits): what a typo most likely meant.
pub fn nearest<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let wanted = name.to_lowercase();
    known
        .into_iter()
        .map(|candidate| {
            let distance = strsim::levenshtein(&wanted, &candidate.to_lowercase());
            (distance, candidate)
        })
        .filter(|(distance, candidate)| {
            let longest = wanted.chars().count().max(candidate.chars().count());
            *distance <= (longest / 3).max(2)
        })
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

/// The material a preset's entry `patch` (its `index`th) stands for: the library's of that name
/// with the entry's fields laid over it, or a material of the preset's own, which gives its
/// `colour` and `mass` too. `line` finds the entry's name in the file, for errors.
pub(super) fn resolve(
    file: &str,
    index: usize,
    patch: MaterialPatch,
    line: impl Fn(&'static str) -> Option<usize>,
) -> Result<Material, PresetError> {
    let error = |key: &'static str, message: String| PresetError {
        file: file.to_string(),
        line: line(key),
        field: format!("materials[{index}].{key}"),
        message,
    };
    let Some(name) = patch.name.clone() else {
        return Err(error("name", "missing field `name`".into()));
    };
    if let Some(material) = library().material(&name) {
        return Ok(patch.over(material.clone()));
    }
    let missing: Vec<&str> = [
        ("colour", patch.colour.is_none()),
        ("mass", patch.mass.is_none()),
    ]
    .into_iter()
    .filter_map(|(key, missing)| missing.then_some(key))
    .collect();
    if missing.is_empty() {
        return Ok(patch.over(Material::default()));
    }
    let lacks = missing
        .iter()
        .map(|key| format!("`{key}`"))
        .collect::<Vec<_>>()
        .join(" and ");
    let message = match library().nearest(&name) {
        Some(nearest) => format!(
            "no library material is called `{name}` (the nearest is `{nearest}`), and as a \
             material of the preset's own it lacks {lacks}"
        ),
        None => format!(
            "no library material is called `{name}` (see `slosh --list-materials`), and as a \
             material of the preset's own it lacks {lacks}"
        ),
    };
    Err(error("name", message))
}

/// Brings the library's reactions into a scene of `materials` with its own `reactions`: each
/// library reaction between two materials the scene holds, under a name the scene does not use,
/// joins it. What the scene's materials turn into that it lacks (a reaction's products, what a
/// material melts into) joins its materials from the library, after its own, and may bring
/// reactions of its own in turn. A reaction whose product is `vapour` joins only a scene with a
/// boiling material.
pub(super) fn apply(materials: &mut Vec<Material>, reactions: &mut Vec<ReactionFile>) {
    let names: Vec<&str> = reactions.iter().map(|r| r.name.as_str()).collect();
    let (more, joining) = joining(materials, &names);
    materials.extend(more);
    reactions.extend(joining);
}

/// What `apply` adds to a scene of `materials` with the reactions called `reactions`: the
/// library materials, then the library reactions, in the order they join (until nothing more
/// does).
fn joining(materials: &[Material], reactions: &[&str]) -> (Vec<Material>, Vec<ReactionFile>) {
    let mut all = materials.to_vec();
    let mut joined: Vec<ReactionFile> = Vec::new();
    let has = |materials: &[Material], name: &str| materials.iter().any(|m| m.name == name);
    let add = |all: &mut Vec<Material>, name: &str| {
        if !has(all, name) {
            if let Some(material) = library().material(name) {
                all.push(material.clone());
            }
        }
    };
    loop {
        let (materials_before, reactions_before) = (all.len(), joined.len());
        for reaction in library().reactions() {
            let own = reactions.contains(&reaction.name.as_str())
                || joined.iter().any(|r| r.name == reaction.name);
            let meet = reaction.between.iter().all(|name| has(&all, name));
            let boils = all.iter().any(|m| m.boiling_point.is_some());
            let needs_vapour = reaction.into.iter().any(|p| p == "vapour");
            if own || !meet || (needs_vapour && !boils) {
                continue;
            }
            for product in &reaction.into {
                if product != "vapour" && product != "nothing" {
                    add(&mut all, product);
                }
            }
            joined.push(reaction.clone());
        }
        let mut k = 0;
        while k < all.len() {
            if let Some(melt) = all[k].melts_into.clone() {
                add(&mut all, &melt);
            }
            k += 1;
        }
        if all.len() == materials_before && joined.len() == reactions_before {
            break;
        }
    }
    (all.split_off(materials.len()), joined)
}

/// The side of the air's cells the library gives a world it brings air into: the sandbox's.
const AIR_CELL: f32 = 0.25;

/// What joins a running world when library material `name` is poured into it for the first
/// time (`World::add_materials`): the material, what it and the world's materials turn into
/// that the world lacks, the library reactions between them (as `apply` brings them into a
/// preset), and air, for a world without it where something would boil or burn at once: where
/// a material is as hot as another's boiling point or ignition temperature (lava poured beside
/// water or wood). `None` when the library has no material of that name.
pub fn arrival(world: &World, name: &str) -> Option<Arrival> {
    let material = library().material(name)?;
    let mut materials = world.materials().to_vec();
    materials.push(material.clone());
    let own: Vec<&str> = world.reactions().iter().map(|r| r.name.as_str()).collect();
    let (more, reactions) = joining(&materials, &own);
    let new: Vec<Material> = std::iter::once(material.clone()).chain(more).collect();
    let all: Vec<Material> = world.materials().iter().chain(&new).cloned().collect();
    let air = world.air().is_none() && needs_air(&all, &reactions);
    let domain = world.domain();
    let width = domain.max().x - domain.min().x;
    Some(Arrival {
        reactions: reactions.iter().map(|r| resolved(r, &all)).collect(),
        air: air.then(|| AirSettings {
            columns: ((width / AIR_CELL).round() as usize).clamp(16, 128),
            ..AirSettings::default()
        }),
        materials: new,
    })
}

/// True when something among `materials` would boil or burn at once, or a reaction makes
/// vapour: then the world needs air to carry it.
fn needs_air(materials: &[Material], reactions: &[ReactionFile]) -> bool {
    let hottest = materials
        .iter()
        .map(|m| m.temperature)
        .fold(f32::NEG_INFINITY, crate::sim::numerics::portable::max);
    let reached = |point: Option<f32>| point.is_some_and(|point| point <= hottest);
    let vapour = reactions
        .iter()
        .flat_map(|r| &r.into)
        .any(|p| p == "vapour");
    vapour
        || materials
            .iter()
            .any(|m| reached(m.boiling_point) || reached(m.ignition_temperature))
}

/// A library reaction among `materials`, which hold every material it names.
fn resolved(reaction: &ReactionFile, materials: &[Material]) -> Reaction {
    let index = |name: &str| {
        materials
            .iter()
            .position(|m| m.name == name)
            .expect("a joining reaction's materials joined before it")
    };
    let product = |name: &str| match name {
        "vapour" => Product::Vapour,
        "nothing" => Product::Nothing,
        name => Product::Material(index(name)),
    };
    Reaction {
        name: reaction.name.clone(),
        between: [index(&reaction.between[0]), index(&reaction.between[1])],
        into: [product(&reaction.into[0]), product(&reaction.into[1])],
        rate: reaction.rate,
        heat: reaction.heat,
    }
}

/// docs/REFERENCE.md's table of the library's materials: name, what it is, its particle mass
/// and its look.
pub fn materials_markdown() -> String {
    let mut table =
        String::from("| material | what it is | mass | look |\n| --- | --- | ---: | --- |\n");
    for m in library().materials() {
        let style = toml::Value::try_from(m.style)
            .ok()
            .and_then(|value| value.as_str().map(str::to_string))
            .unwrap_or_default();
        table.push_str(&format!(
            "| `{}` | {} | {} | {style} |\n",
            m.name, m.description, m.mass
        ));
    }
    table
}

/// docs/REFERENCE.md's table of what the library's materials turn into: each reaction, then each
/// material's phase changes and burning, as the library's fields give them.
pub fn reactions_markdown() -> String {
    let mut table = String::from("| what | of | into | when |\n| --- | --- | --- | --- |\n");
    let product = |name: &str| match name {
        "vapour" => "steam (on the air)".to_string(),
        "nothing" => "nothing (it is taken up)".to_string(),
        name => format!("`{name}`"),
    };
    for r in library().reactions() {
        table.push_str(&format!(
            "| {} | `{}` and `{}` | {} and {} | in contact, at a rate of {} a second |\n",
            r.name,
            r.between[0],
            r.between[1],
            product(&r.into[0]),
            product(&r.into[1]),
            r.rate
        ));
    }
    for m in library().materials() {
        if let Some(melt) = &m.melts_into {
            table.push_str(&format!(
                "| melting | `{}` | `{melt}` | past {} °C, taking up {} degrees of water; `{melt}` \
                 freezes back below it |\n",
                m.name, m.melting_point, m.melting_heat
            ));
        }
        if let Some(point) = m.boiling_point {
            table.push_str(&format!(
                "| boiling | `{}` | steam (on the air) | past {point} °C, taking up {} degrees of \
                 water, in a scene with air and heat; the steam condenses back where the air is \
                 cool |\n",
                m.name, m.boiling_heat
            ));
        }
        if let Some(ignition) = m.ignition_temperature {
            table.push_str(&format!(
                "| burning | `{}` | smoke (on the air) | past {ignition} °C where it touches the \
                 air, releasing {} degrees of water per unit mass; water cools it out |\n",
                m.name, m.heat_of_combustion
            ));
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The library is a valid set of materials and reactions: a preset of an empty box that
    /// takes every library material by name loads, with every library reaction.
    #[test]
    fn every_library_material_loads_in_one_scene() {
        let mut text = String::from(
            "name = \"all\"\ndescription = \"every library material\"\n\
             [[walls]]\nnormal = [0.0, 1.0]\noffset = 0.0\n\
             [[walls]]\nnormal = [1.0, 0.0]\noffset = 0.0\n\
             [[walls]]\nnormal = [-1.0, 0.0]\noffset = -10.0\n\
             [[walls]]\nnormal = [0.0, -1.0]\noffset = -10.0\n\
             [air]\ncolumns = 32\n",
        );
        for material in library().materials() {
            text.push_str(&format!("[[materials]]\nname = \"{}\"\n", material.name));
        }
        let preset = crate::preset::Preset::parse("all.toml", &text).expect("the library loads");
        assert_eq!(preset.scene.materials.len(), library().materials().len());
        assert_eq!(preset.scene.reactions.len(), library().reactions().len());
        for (loaded, own) in preset.scene.materials.iter().zip(library().materials()) {
            assert_eq!(loaded.name, own.name);
            assert!(
                !own.description.is_empty(),
                "{} has a description",
                own.name
            );
        }
    }

    /// docs/REFERENCE.md's tables of the library are rendered from it; after changing the
    /// library, paste the rendering this prints.
    #[test]
    fn the_reference_holds_the_librarys_tables() {
        let reference =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/REFERENCE.md"))
                .expect("docs/REFERENCE.md beside Cargo.toml");
        let differing: Vec<String> = [
            ("materials", materials_markdown()),
            ("reactions", reactions_markdown()),
        ]
        .into_iter()
        .filter(|(_, table)| !reference.contains(table))
        .map(|(what, table)| format!("the library's {what} should read:\n{table}"))
        .collect();
        assert!(
            differing.is_empty(),
            "docs/REFERENCE.md differs from the library; {}",
            differing.join("\n")
        );
    }

    /// The sandbox holds every library material, in the library's order, as the library has
    /// it: a new library material is one the sandbox's palette offers.
    #[test]
    fn the_sandbox_holds_the_whole_library() {
        let sandbox = crate::preset::Preset::load(crate::preset::SANDBOX).expect("it loads");
        let names = |materials: &[Material]| -> Vec<String> {
            materials.iter().map(|m| m.name.clone()).collect()
        };
        assert_eq!(
            names(&sandbox.reference().materials),
            names(library().materials())
        );
        assert_eq!(&sandbox.reference().materials[..], library().materials());
        assert_eq!(sandbox.particles(), 0, "the box starts empty");
    }

    /// A name one typo away from a library material is answered with that material.
    #[test]
    fn a_typo_finds_the_nearest_material() {
        assert_eq!(library().nearest("lavaa"), Some("lava"));
        assert_eq!(library().nearest("Watr"), Some("water"));
        assert_eq!(library().nearest("wetsand"), Some("wet sand"));
        assert_eq!(library().nearest("plutonium"), None);
    }
}
