//! The reference tables of the preset format, rendered from the table of preset fields
//! (`ranges`) and the materials' table (`material`): `docs/REFERENCE.md` holds them, and a test
//! checks that it holds them as the engine has them.

use super::material;
use super::ranges::{Field, ALL};

/// Every field of the preset format in the reference's order: the materials' rows follow the
/// entry of the materials together.
pub fn every_field() -> impl Iterator<Item = &'static Field> {
    ALL.iter().flat_map(|field| {
        let materials: &'static [Field] = if field.path == "materials" {
            material::FIELDS
        } else {
            &[]
        };
        std::iter::once(field).chain(materials)
    })
}

/// docs/REFERENCE.md's table of every field: `| field | accepted |`, one row per entry of `ALL`.
pub fn fields_markdown() -> String {
    let mut table = String::from("| field | accepted |\n| --- | --- |\n");
    for field in every_field() {
        let path = field
            .path
            .split(", ")
            .map(|part| format!("`{part}`"))
            .collect::<Vec<_>>()
            .join(", ");
        table.push_str(&format!("| {path} | {} |\n", field.accepted()));
    }
    table
}

/// docs/REFERENCE.md's table of the solver's parameters (`[params]`, `SimParams`): field, default,
/// meaning.
pub fn parameters_markdown() -> String {
    let mut table = String::from("| field | default | meaning |\n| --- | --- | --- |\n");
    for field in every_field().filter(|field| !field.meaning.is_empty()) {
        let name = field.path.trim_start_matches("params.");
        table.push_str(&format!(
            "| `{name}` | {} | {} |\n",
            field.default, field.meaning
        ));
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/REFERENCE.md's two tables are rendered from the tables; after changing a field,
    /// paste the rendering this prints.
    #[test]
    fn the_reference_tables_are_the_engines() {
        let reference =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/REFERENCE.md"))
                .expect("docs/REFERENCE.md beside Cargo.toml");
        for (what, table) in [
            ("fields", fields_markdown()),
            ("parameters", parameters_markdown()),
        ] {
            assert!(
                reference.contains(&table),
                "docs/REFERENCE.md's table of {what} differs from the engine's; it should read:\n{table}"
            );
        }
    }
}
