//! Bad preset files: every class of mistake is refused with a `PresetError` that names the file,
//! the field path and, where the text has one, the line, and nothing panics.
//!
//! Each test starts from `valid()`, a small preset that parses, breaks one thing in it, and
//! computes the expected line from its own text.

use crate::common::box_walls_spaced;
use slosh::preset::{Preset, PresetError, MAX_PARTICLES};

/// File name the texts are parsed under.
const FILE: &str = "bad.toml";

/// A minimal valid preset using every table: two materials, one emitter, one block, in a 4 × 3
/// box.
fn valid() -> String {
    format!(
        r#"name = "tiny"
description = "A small box with a nozzle and a block"

[params]
frame_rate = 20
substeps = 7
max_particles = 500

{}
[[materials]]
name = "water"
colour = [0.2, 0.4, 0.9]
mass = 1.0

[[materials]]
name = "amber"
colour = [0.8, 0.6, 0.1]
mass = 0.8
pressure_scale = 0.05

[[emitters]]
material = "water"
position = [0.5, 2.0]
direction = [1.0, 0.0]
width = 0.2
speed = 3.0
rate = 20.0
budget = 100

[[blocks]]
material = "amber"
min = [0.1, 0.1]
max = [1.1, 1.1]
spacing = 0.1
"#,
        box_walls_spaced(4.0, 3.0)
    )
}

/// `text` with `old`, which must occur exactly once, replaced by `new`.
fn replace_in(text: &str, old: &str, new: &str) -> String {
    assert_eq!(text.matches(old).count(), 1, "`{old}` must occur once");
    text.replacen(old, new, 1)
}

/// `valid()` with `old`, which must occur exactly once, replaced by `new`.
fn broken(old: &str, new: &str) -> String {
    replace_in(&valid(), old, new)
}

/// 1-based line of the `nth` (0-based) line of `text` that contains `needle`.
fn nth_line_of(text: &str, needle: &str, nth: usize) -> usize {
    text.lines()
        .enumerate()
        .filter(|(_, line)| line.contains(needle))
        .nth(nth)
        .unwrap_or_else(|| panic!("`{needle}` occurs fewer than {} times", nth + 1))
        .0
        + 1
}

/// 1-based line of the only line of `text` that contains `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    assert_eq!(
        text.lines().filter(|line| line.contains(needle)).count(),
        1,
        "`{needle}` must be on one line"
    );
    nth_line_of(text, needle, 0)
}

/// Parses `text` as `FILE` and returns the error, failing if it panics or is accepted.
fn refuse(text: &str) -> PresetError {
    let outcome = std::panic::catch_unwind(|| Preset::parse(FILE, text));
    match outcome {
        Err(_) => panic!("parsing panicked on:\n{text}"),
        Ok(Ok(_)) => panic!("accepted:\n{text}"),
        Ok(Err(error)) => error,
    }
}

/// Asserts that `error` names `FILE`, `field` and `line`, reads as one line
/// `bad.toml:LINE: FIELD: message`, and that its message contains every one of `words`.
fn assert_names(error: &PresetError, field: &str, line: Option<usize>, words: &[&str]) {
    let shown = error.to_string();
    assert_eq!(error.file, FILE, "{shown}");
    assert_eq!(error.field, field, "{shown}");
    assert_eq!(error.line, line, "{shown}");
    let location = match line {
        Some(line) => format!("{FILE}:{line}"),
        None => FILE.to_string(),
    };
    let prefix = if field.is_empty() {
        format!("{location}: ")
    } else {
        format!("{location}: {field}: ")
    };
    assert!(
        shown.starts_with(&prefix),
        "`{shown}` should start `{prefix}`"
    );
    assert!(!shown.contains('\n'), "not one line: {shown:?}");
    assert!(!error.message.is_empty());
    for word in words {
        assert!(error.message.contains(word), "`{shown}` lacks `{word}`");
    }
}

/// Breaks `valid()` by replacing `old` with `new`, and expects an error at `field` on the line of
/// `new`'s last line (the one a replacement adds), mentioning `words`.
fn assert_refused_at_new_line(old: &str, new: &str, field: &str, words: &[&str]) {
    let text = broken(old, new);
    let last_line = new.lines().last().expect("non-empty replacement");
    let line = line_of(&text, last_line);
    assert_names(&refuse(&text), field, Some(line), words);
}

// ---- The baseline ---------------------------------------------------------------------------

#[test]
fn the_valid_base_preset_parses_and_builds() {
    let preset = Preset::parse(FILE, &valid()).expect("the base of these tests must be valid");
    assert_eq!(preset.scene.materials.len(), 2);
    assert_eq!(preset.scene.emitters.len(), 1);
    assert_eq!(preset.scene.blocks.len(), 1);
    let world = preset.build_world(1);
    assert_eq!(world.particles().len(), 100, "the 10 × 10 block");
}

#[test]
fn the_embedded_presets_parse() {
    for preset in Preset::builtins() {
        assert!(!preset.name.is_empty());
    }
}

// ---- Missing fields -------------------------------------------------------------------------

#[test]
fn missing_material_mass_is_named_with_its_table_line() {
    let text = broken("mass = 0.8\n", "");
    assert_names(
        &refuse(&text),
        "materials[1].name",
        Some(line_of(&text, "name = \"amber\"")),
        &["no library material is called `amber`", "lacks `mass`"],
    );
}

#[test]
fn missing_emitter_rate_is_named_with_its_table_line() {
    let text = broken("rate = 20.0\n", "");
    let header = line_of(&text, "[[emitters]]");
    assert_names(
        &refuse(&text),
        "emitters[0].rate",
        Some(header),
        &["missing", "rate"],
    );
}

#[test]
fn missing_top_level_name_is_named_without_a_line() {
    let text = broken("name = \"tiny\"\n", "");
    assert_names(&refuse(&text), "name", None, &["missing", "name"]);
}

#[test]
fn missing_walls_are_named() {
    let base = valid();
    let walls_start = base.find("[[walls]]").unwrap();
    let materials_start = base.find("[[materials]]").unwrap();
    let text = format!("{}{}", &base[..walls_start], &base[materials_start..]);
    assert_names(&refuse(&text), "walls", None, &["missing", "walls"]);
}

#[test]
fn an_empty_file_asks_for_its_first_field() {
    let error = refuse("");
    assert_eq!(error.file, FILE);
    assert!(error.message.contains("missing field"), "{error}");
    assert!(!error.field.is_empty(), "{error}");
}

// ---- Wrong types ----------------------------------------------------------------------------

#[test]
fn a_string_for_mass_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "mass = 0.8",
        "mass = \"heavy\"",
        "materials[1].mass",
        &["invalid type", "string"],
    );
}

#[test]
fn a_fraction_for_substeps_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "substeps = 7",
        "substeps = 7.5",
        "params.substeps",
        &["invalid type"],
    );
}

#[test]
fn a_number_for_the_description_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "description = \"A small box with a nozzle and a block\"",
        "description = 7",
        "description",
        &["invalid type"],
    );
}

#[test]
fn a_scalar_for_gravity_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "frame_rate = 20",
        "frame_rate = 20\ngravity = -9.8",
        "params.gravity",
        &["invalid type"],
    );
}

#[test]
fn a_colour_with_two_channels_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "colour = [0.8, 0.6, 0.1]",
        "colour = [0.8, 0.6]",
        "materials[1].colour",
        &["length"],
    );
}

#[test]
fn a_negative_budget_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "budget = 100",
        "budget = -100",
        "emitters[0].budget",
        &["-100"],
    );
}

#[test]
fn a_fractional_budget_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "budget = 100",
        "budget = 1e20",
        "emitters[0].budget",
        &["invalid type"],
    );
}

// ---- Zero, negative and non-finite numbers --------------------------------------------------

#[test]
fn a_negative_mass_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "mass = 0.8",
        "mass = -0.8",
        "materials[1].mass",
        &["above 0", "-0.8"],
    );
}

#[test]
fn a_zero_mass_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "mass = 1.0",
        "mass = 0.0",
        "materials[0].mass",
        &["above 0"],
    );
}

#[test]
fn a_zero_particle_radius_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "frame_rate = 20",
        "frame_rate = 20\nparticle_radius = 0.0",
        "params.particle_radius",
        &["0.001"],
    );
}

#[test]
fn a_negative_particle_radius_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "frame_rate = 20",
        "frame_rate = 20\nparticle_radius = -0.05",
        "params.particle_radius",
        &["-0.05"],
    );
}

#[test]
fn a_vanishing_particle_radius_is_refused_instead_of_filling_memory() {
    // A 0.2 wide nozzle holds width / (2 r) + 1 particles per row: with r = 1e-30 that row alone
    // would not fit in memory.
    assert_refused_at_new_line(
        "frame_rate = 20",
        "frame_rate = 20\nparticle_radius = 1e-30",
        "params.particle_radius",
        &["0.001"],
    );
}

#[test]
fn an_interaction_radius_below_the_particle_radius_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "frame_rate = 20",
        "frame_rate = 20\nparticle_radius = 0.05\ninteraction_radius = 0.04",
        "params.interaction_radius",
        &["0.1", "0.04"],
    );
}

#[test]
fn a_zero_frame_rate_is_refused_as_it_makes_dt_infinite() {
    assert_refused_at_new_line(
        "frame_rate = 20",
        "frame_rate = 0",
        "params.frame_rate",
        &["from 1 to 1000"],
    );
}

#[test]
fn a_negative_frame_rate_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "frame_rate = 20",
        "frame_rate = -20",
        "params.frame_rate",
        &["-20"],
    );
}

#[test]
fn a_vanishing_frame_rate_is_refused_as_it_makes_dt_huge() {
    assert_refused_at_new_line(
        "frame_rate = 20",
        "frame_rate = 1e-30",
        "params.frame_rate",
        &["from 1 to 1000"],
    );
}

#[test]
fn zero_substeps_are_refused_with_their_line() {
    assert_refused_at_new_line(
        "substeps = 7",
        "substeps = 0",
        "params.substeps",
        &["from 1 to 100"],
    );
}

#[test]
fn negative_substeps_are_refused_with_their_line() {
    assert_refused_at_new_line("substeps = 7", "substeps = -7", "params.substeps", &["-7"]);
}

#[test]
fn a_zero_rate_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "rate = 20.0",
        "rate = 0.0",
        "emitters[0].rate",
        &["above 0"],
    );
}

#[test]
fn a_zero_block_spacing_is_refused_with_its_line() {
    assert_refused_at_new_line("spacing = 0.1", "spacing = 0.0", "blocks[0].spacing", &[]);
}

#[test]
fn a_nan_mass_is_refused_with_its_line() {
    assert_refused_at_new_line("mass = 0.8", "mass = nan", "materials[1].mass", &["NaN"]);
}

#[test]
fn an_infinite_wall_offset_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "offset = -4.0",
        "offset = -inf",
        "walls[2].offset",
        &["-inf"],
    );
}

#[test]
fn a_nan_gravity_component_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "frame_rate = 20",
        "frame_rate = 20\ngravity = [0.0, nan]",
        "params.gravity",
        &["NaN"],
    );
}

#[test]
fn a_nan_emitter_position_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "position = [0.5, 2.0]",
        "position = [nan, 2.0]",
        "emitters[0].position",
        &["NaN"],
    );
}

#[test]
fn an_infinite_speed_is_refused_with_its_line() {
    assert_refused_at_new_line("speed = 3.0", "speed = inf", "emitters[0].speed", &["inf"]);
}

#[test]
fn a_nan_colour_channel_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "colour = [0.2, 0.4, 0.9]",
        "colour = [0.2, nan, 0.9]",
        "materials[0].colour",
        &["NaN"],
    );
}

#[test]
fn a_nan_stiffness_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "frame_rate = 20",
        "frame_rate = 20\nstiffness = nan",
        "params.stiffness",
        &["NaN"],
    );
}

#[test]
fn a_float_too_large_for_f32_is_refused_with_its_line() {
    assert_refused_at_new_line("mass = 0.8", "mass = 1e300", "materials[1].mass", &[]);
}

// ---- Walls ----------------------------------------------------------------------------------

#[test]
fn contradictory_walls_that_enclose_nothing_are_refused() {
    // x ≤ -4 and x ≥ 0 cannot both hold.
    let text = broken("offset = -4.0", "offset = 4.0");
    let first_wall = nth_line_of(&text, "[[walls]]", 0);
    assert_names(
        &refuse(&text),
        "walls",
        Some(first_wall),
        &["enclose no room"],
    );
}

#[test]
fn walls_closer_than_a_particle_are_refused() {
    // A box 0.01 wide: less than one particle diameter (0.1).
    let text = broken("offset = -4.0", "offset = -0.01");
    let first_wall = nth_line_of(&text, "[[walls]]", 0);
    assert_names(
        &refuse(&text),
        "walls",
        Some(first_wall),
        &["enclose no room"],
    );
}

#[test]
fn open_walls_are_refused_as_unbounded() {
    let text = broken("[[walls]]\nnormal = [0.0, -1.0]\noffset = -3.0\n", "");
    let first_wall = nth_line_of(&text, "[[walls]]", 0);
    assert_names(&refuse(&text), "walls", Some(first_wall), &["bounded"]);
}

#[test]
fn a_zero_wall_normal_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "normal = [0.0, 1.0]",
        "normal = [0.0, 0.0]",
        "walls[1].normal",
        &["zero"],
    );
}

#[test]
fn wall_offsets_follow_normal_dot_x_above_offset_for_non_unit_normals() {
    // 2 x ≥ 0 and -2 x ≥ -8, so the box spans x from 0 to 4 (not 0 to 8).
    let text = broken(
        "normal = [-1.0, 0.0]\noffset = -4.0",
        "normal = [-2.0, 0.0]\noffset = -8.0",
    );
    let preset = Preset::parse(FILE, &text).expect("valid");
    assert!(
        (preset.scene.domain.max().x - 4.0).abs() < 1e-4,
        "{:?}",
        preset.scene.domain.max()
    );
}

// ---- Emitters and blocks --------------------------------------------------------------------

#[test]
fn an_emitter_outside_the_walls_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "position = [0.5, 2.0]",
        "position = [9.5, 2.0]",
        "emitters[0].position",
        &["outside the walls"],
    );
}

#[test]
fn a_nozzle_wider_than_the_box_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "width = 0.2",
        "width = 50.0",
        "emitters[0].width",
        &["outside the walls"],
    );
}

#[test]
fn a_zero_emitter_direction_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "direction = [1.0, 0.0]",
        "direction = [0.0, 0.0]",
        "emitters[0].direction",
        &["zero"],
    );
}

#[test]
fn a_block_outside_the_walls_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "max = [1.1, 1.1]",
        "max = [6.1, 1.1]",
        "blocks[0].max",
        &["outside the walls"],
    );
}

#[test]
fn a_block_whose_side_corner_crosses_a_slanted_wall_is_refused() {
    // A slanted floor rising to the right, y ≥ x / 2 - 1.5: the block's corners `min`
    // (0.1, -0.9) and `max` (3.9, 1.1) lie inside, and so does (0.1, 1.1), but its lower right
    // corner (3.9, -0.9) lies below the floor.
    let text = broken(
        "normal = [0.0, 1.0]\noffset = 0.0",
        "normal = [-0.5, 1.0]\noffset = -1.5",
    );
    let text = replace_in(&text, "max = [1.1, 1.1]", "max = [3.9, 1.1]");
    let text = replace_in(&text, "min = [0.1, 0.1]", "min = [0.1, -0.9]");
    let error = refuse(&text);
    assert_names(
        &error,
        "blocks[0].max",
        Some(line_of(&text, "max = [3.9, 1.1]")),
        &["corner", "outside the walls"],
    );
}

#[test]
fn an_inverted_block_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "max = [1.1, 1.1]",
        "max = [0.05, 1.1]",
        "blocks[0].max",
        &["above and right"],
    );
}

#[test]
fn a_block_spacing_too_fine_for_the_particle_cap_is_refused() {
    // A 4000 × 3000 box filled at spacing 0.025 would hold 19 billion particles.
    let text = broken("offset = -4.0", "offset = -4000.0");
    let text = replace_in(&text, "offset = -3.0", "offset = -3000.0");
    let text = replace_in(&text, "max = [1.1, 1.1]", "max = [3999.0, 2999.0]");
    let text = replace_in(&text, "spacing = 0.1", "spacing = 0.025");
    let line = line_of(&text, "spacing = 0.025");
    assert_names(
        &refuse(&text),
        "blocks[0].spacing",
        Some(line),
        &[&MAX_PARTICLES.to_string()],
    );
}

// ---- Materials ------------------------------------------------------------------------------

#[test]
fn an_unknown_emitter_material_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "material = \"water\"",
        "material = \"lava\"",
        "emitters[0].material",
        &["unknown material `lava`", "water, amber"],
    );
}

#[test]
fn an_unknown_block_material_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "material = \"amber\"",
        "material = \"tar\"",
        "blocks[0].material",
        &["unknown material `tar`"],
    );
}

#[test]
fn a_duplicate_material_name_is_refused_with_its_line() {
    let text = broken("name = \"amber\"", "name = \"water\"");
    assert_names(
        &refuse(&text),
        "materials[1].name",
        Some(nth_line_of(&text, "name = \"water\"", 1)),
        &["`water` is defined twice"],
    );
}

#[test]
fn an_empty_material_name_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "name = \"amber\"",
        "name = \"  \"",
        "materials[1].name",
        &["empty"],
    );
}

#[test]
fn a_colour_channel_above_one_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "colour = [0.8, 0.6, 0.1]",
        "colour = [0.8, 1.6, 0.1]",
        "materials[1].colour",
        &["1.6"],
    );
}

#[test]
fn a_preset_without_materials_is_refused() {
    let base = valid();
    let start = base.find("[[materials]]").unwrap();
    let text = &base[..start];
    assert_names(&refuse(text), "materials", None, &["missing"]);
}

// ---- Huge counts ----------------------------------------------------------------------------

#[test]
fn a_huge_particle_cap_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "max_particles = 500",
        "max_particles = 99999999999",
        "params.max_particles",
        &["2000000"],
    );
}

#[test]
fn a_huge_emitter_budget_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "budget = 100",
        "budget = 99999999999",
        "emitters[0].budget",
        &["2000000"],
    );
}

#[test]
fn a_huge_block_count_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "spacing = 0.1",
        "spacing = 0.1\ncount = 99999999999",
        "blocks[0].count",
        &["2000000"],
    );
}

#[test]
fn a_huge_base_particle_count_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "description = \"A small box with a nozzle and a block\"",
        "description = \"A small box with a nozzle and a block\"\nbase_particles = 99999999999",
        "base_particles",
        &["2000000"],
    );
}

#[test]
fn an_integer_beyond_toml_range_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "budget = 100",
        "budget = 99999999999999999999999",
        "emitters[0].budget",
        &[],
    );
}

#[test]
fn rescaling_to_zero_or_too_many_particles_is_refused() {
    let preset = Preset::parse(FILE, &valid()).unwrap();
    for particles in [0, MAX_PARTICLES + 1] {
        let error = preset.clone().with_particles(particles).unwrap_err();
        assert_eq!(error.field, "--particles", "{error}");
        assert!(error.message.contains(&particles.to_string()), "{error}");
        assert!(!error.to_string().contains('\n'));
    }
}

// ---- Unknown keys and syntax ----------------------------------------------------------------

#[test]
fn an_unknown_top_level_key_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "name = \"tiny\"",
        "name = \"tiny\"\ncolour = \"blue\"",
        "colour",
        &["unknown field `colour`"],
    );
}

#[test]
fn a_typo_in_a_material_field_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "mass = 0.8",
        "masss = 0.8",
        "materials[1].masss",
        &["unknown field `masss`", "`mass`"],
    );
}

#[test]
fn a_typo_in_a_params_field_is_refused_with_its_line() {
    assert_refused_at_new_line(
        "substeps = 7",
        "substep = 7",
        "params.substep",
        &["unknown field `substep`"],
    );
}

#[test]
fn an_unknown_table_is_refused_with_its_line() {
    let text = broken("[params]", "[[magnets]]\nradius = 1.0\n\n[params]");
    assert_names(
        &refuse(&text),
        "magnets",
        Some(line_of(&text, "[[magnets]]")),
        &["unknown field `magnets`"],
    );
}

#[test]
fn a_malformed_number_is_refused_naming_its_field_and_line() {
    assert_refused_at_new_line("mass = 0.8", "mass = 0..8", "materials[1].mass", &[]);
}

#[test]
fn an_unclosed_table_header_is_refused_with_its_line() {
    let text = broken("[params]", "[params");
    let error = refuse(&text);
    assert_names(&error, "", Some(line_of(&text, "[params")), &["]"]);
}

#[test]
fn an_unterminated_string_is_refused_naming_its_field_and_line() {
    assert_refused_at_new_line(
        "material = \"amber\"",
        "material = \"amber",
        "blocks[0].material",
        &[],
    );
}

#[test]
fn a_duplicate_key_is_refused_with_its_line() {
    let text = broken("mass = 0.8", "mass = 0.8\nmass = 0.9");
    let error = refuse(&text);
    assert_eq!(error.line, Some(line_of(&text, "mass = 0.9")), "{error}");
    assert!(error.field.ends_with("mass"), "{error}");
}

#[test]
fn a_preset_name_with_a_line_break_is_refused_with_its_line() {
    // Names appear in one-line lists and JSON reports.
    assert_refused_at_new_line(
        "name = \"tiny\"",
        "name = \"ti\\nny\"",
        "name",
        &["one line"],
    );
}

#[test]
fn an_empty_preset_name_is_refused_with_its_line() {
    assert_refused_at_new_line("name = \"tiny\"", "name = \"\"", "name", &["empty"]);
}

// ---- Files ----------------------------------------------------------------------------------

#[test]
fn a_missing_file_is_refused_naming_it() {
    let error = Preset::load("missing.toml").unwrap_err();
    assert_eq!(error.file, "missing.toml");
    assert_eq!(error.line, None);
    assert!(error.message.contains("cannot read"), "{error}");
    assert!(error.to_string().starts_with("missing.toml: "), "{error}");
    assert!(!error.to_string().contains('\n'));
}

#[test]
fn an_unknown_preset_name_is_refused_listing_the_known_ones() {
    let error = Preset::load("no-such-preset").unwrap_err();
    assert_eq!(error.file, "no-such-preset");
    assert!(error.message.contains("seed"), "{error}");
    assert!(error.message.contains("dam"), "{error}");
}

#[test]
fn a_file_that_is_not_utf8_is_refused_naming_it() {
    let directory = std::env::temp_dir().join(format!("slosh-preset-{}", std::process::id()));
    std::fs::create_dir_all(&directory).unwrap();
    let path = directory.join("binary.toml");
    std::fs::write(&path, [0x6e, 0x61, 0xff, 0xfe, 0x00, 0x3d]).unwrap();
    let path = path.to_str().unwrap().to_string();
    let error = Preset::load(&path).unwrap_err();
    std::fs::remove_dir_all(&directory).unwrap();
    assert_eq!(error.file, path);
    assert!(error.message.contains("cannot read"), "{error}");
}

#[test]
fn a_bad_file_on_disk_reports_its_path_and_line() {
    let directory = std::env::temp_dir().join(format!("slosh-preset-disk-{}", std::process::id()));
    std::fs::create_dir_all(&directory).unwrap();
    let path = directory.join("broken.toml");
    let text = broken("mass = 0.8", "mass = -1.0");
    std::fs::write(&path, &text).unwrap();
    let path = path.to_str().unwrap().to_string();
    let error = Preset::load(&path).unwrap_err();
    std::fs::remove_dir_all(&directory).unwrap();
    assert_eq!(error.file, path);
    assert_eq!(error.field, "materials[1].mass");
    assert_eq!(error.line, Some(line_of(&text, "mass = -1.0")));
}

#[test]
fn an_unknown_material_name_with_a_line_break_is_shown_on_one_line() {
    let text = broken("material = \"water\"", "material = \"\"\"la\nva\"\"\"");
    let error = refuse(&text);
    assert_eq!(error.field, "emitters[0].material");
    assert_eq!(error.line, Some(line_of(&text, "material = \"\"\"la")));
    let shown = error.to_string();
    assert!(!shown.contains('\n'), "{shown:?}");
    assert!(shown.contains("la\\nva"), "{shown}");
}

#[test]
fn a_quoted_key_with_a_line_break_is_shown_on_one_line() {
    let text = broken("mass = 0.8", "\"ma\\nss\" = 0.8");
    let error = refuse(&text);
    assert_eq!(error.line, Some(line_of(&text, "\"ma\\nss\" = 0.8")));
    let shown = error.to_string();
    assert!(!shown.contains('\n'), "{shown:?}");
    assert!(shown.contains("unknown field"), "{shown}");
}

#[test]
fn rescaling_a_preset_below_a_particle_is_refused() {
    let text = broken(
        "description = \"A small box with a nozzle and a block\"",
        "description = \"A small box with a nozzle and a block\"\nbase_particles = 2000000",
    );
    let preset = Preset::parse(FILE, &text).unwrap();
    let error = preset.with_particles(1).unwrap_err();
    assert_eq!(error.field, "--particles");
    assert!(error.message.contains("stretch the walls"), "{error}");
}

// ---- Obstacles and material behaviour -----------------------------------------------------------

/// `valid()` with one more `[[obstacles]]` table made of `lines`.
fn with_obstacle(lines: &str) -> String {
    format!("{}\n[[obstacles]]\n{lines}\n", valid())
}

#[test]
fn a_valid_obstacle_is_accepted_and_keeps_block_sites_out() {
    let text = with_obstacle("kind = \"circle\"\ncentre = [0.6, 0.6]\nradius = 0.2");
    let preset = Preset::parse(FILE, &text).unwrap();
    assert_eq!(preset.scene.obstacles.len(), 1);
    let world = preset.build_world(1);
    assert_eq!(world.obstacles().len(), 1);
    let count = world.particles().len();
    assert!(
        count < 100 && count > 70,
        "{count} sites left around the obstacle"
    );
}

#[test]
fn an_unknown_obstacle_kind_is_refused_with_its_line() {
    let text = with_obstacle("kind = \"square\"\ncentre = [2.0, 2.0]\nradius = 0.3");
    let line = line_of(&text, "square");
    assert_names(
        &refuse(&text),
        "obstacles[0].kind",
        Some(line),
        &["circle", "capsule"],
    );
}

#[test]
fn a_circle_without_a_centre_is_refused() {
    let text = with_obstacle("kind = \"circle\"\na = [2.0, 2.0]\nb = [3.0, 2.0]\nradius = 0.3");
    let line = line_of(&text, "kind = \"circle\"");
    assert_names(&refuse(&text), "obstacles[0].kind", Some(line), &["centre"]);
}

#[test]
fn a_capsule_with_a_centre_is_refused_at_the_centre() {
    let text = with_obstacle(
        "kind = \"capsule\"\na = [2.0, 2.0]\nb = [3.0, 2.0]\ncentre = [2.0, 2.0]\nradius = 0.3",
    );
    let line = line_of(&text, "centre = [2.0, 2.0]");
    assert_names(&refuse(&text), "obstacles[0].centre", Some(line), &["no"]);
}

#[test]
fn a_zero_or_nan_obstacle_radius_is_refused_with_its_line() {
    for radius in ["0.0", "nan", "-1.0"] {
        let text = with_obstacle(&format!(
            "kind = \"circle\"\ncentre = [2.0, 2.0]\nradius = {radius}"
        ));
        let line = line_of(&text, &format!("radius = {radius}"));
        assert_names(
            &refuse(&text),
            "obstacles[0].radius",
            Some(line),
            &["above 0"],
        );
    }
}

#[test]
fn an_obstacle_outside_the_walls_is_refused() {
    let text = with_obstacle("kind = \"capsule\"\na = [2.0, 2.0]\nb = [5.0, 2.0]\nradius = 0.1");
    let line = line_of(&text, "b = [5.0, 2.0]");
    assert_names(
        &refuse(&text),
        "obstacles[0].b",
        Some(line),
        &["outside the walls"],
    );
}

#[test]
fn an_obstacle_touching_a_wall_is_refused() {
    let text = with_obstacle("kind = \"circle\"\ncentre = [2.0, 0.3]\nradius = 0.3");
    let line = line_of(&text, "radius = 0.3");
    assert_names(
        &refuse(&text),
        "obstacles[0].radius",
        Some(line),
        &["2 particle radii", "walls[1]"],
    );
}

#[test]
fn obstacles_too_close_to_each_other_are_refused() {
    let first = with_obstacle("kind = \"circle\"\ncentre = [2.0, 2.0]\nradius = 0.3");
    let text = format!(
        "{first}\n[[obstacles]]\nkind = \"capsule\"\na = [2.0, 1.0]\nb = [2.0, 2.5]\n\
         radius = 0.05\n"
    );
    let line = line_of(&text, "radius = 0.05");
    assert_names(
        &refuse(&text),
        "obstacles[1].radius",
        Some(line),
        &["obstacles[0]"],
    );
}

#[test]
fn an_emitter_inside_an_obstacle_is_refused() {
    let text = with_obstacle("kind = \"circle\"\ncentre = [0.5, 2.0]\nradius = 0.3");
    let line = line_of(&text, "position = [0.5, 2.0]");
    assert_names(
        &refuse(&text),
        "emitters[0].position",
        Some(line),
        &["obstacles[0]"],
    );
}

#[test]
fn an_unknown_obstacle_field_is_refused() {
    let text = with_obstacle("kind = \"circle\"\ncentre = [2.0, 2.0]\nradius = 0.3\nsize = 2");
    let error = refuse(&text);
    assert!(error.field.starts_with("obstacles"), "{error}");
    assert_eq!(error.line, Some(line_of(&text, "size = 2")), "{error}");
    assert!(error.message.contains("size"), "{error}");
}

#[test]
fn bad_material_behaviour_fields_are_refused_with_their_lines() {
    for (line, field, words) in [
        (
            "spring_stiffness = -1.0",
            "spring_stiffness",
            &["from 0"][..],
        ),
        ("spring_stiffness = 5000.0", "spring_stiffness", &["dt"][..]),
        ("yield_ratio = 1.5", "yield_ratio", &["0 to 1"][..]),
        ("plasticity = nan", "plasticity", &["NaN"][..]),
        ("spring_radius = 0.0", "spring_radius", &["above 0"][..]),
        ("stickiness = -3.0", "stickiness", &["from 0"][..]),
        ("stick_distance = 2.0", "stick_distance", &["at most 1"][..]),
        ("linear_viscosity = inf", "linear_viscosity", &["inf"][..]),
        ("stiffness = -0.1", "stiffness", &["from 0"][..]),
        (
            "surface_tension = 3.0",
            "surface_tension",
            &["0 to 0.0015306", "dt²"][..],
        ),
    ] {
        assert_refused_at_new_line(
            "mass = 0.8\n",
            &format!("mass = 0.8\n{line}\n"),
            &format!("materials[1].{field}"),
            words,
        );
    }
}

/// A material that burns, in a scene without `[air]`, is accepted and waits for air: hotter than
/// its ignition temperature, it does not burn (it burns where it touches the air, and its smoke
/// goes into the air).
#[test]
fn burning_without_air_waits_for_air() {
    let text = broken(
        "mass = 0.8\n",
        "mass = 0.8\nignition_temperature = 150.0\ntemperature = 300.0\nconductivity = 0.1\n",
    );
    let mut world = Preset::parse(FILE, &text)
        .expect("burning without air is accepted")
        .build_world(1);
    let mass = |world: &slosh::sim::World| {
        let p = world.particles();
        let amber = (0..p.len()).filter(|&i| p.material[i] == 1);
        amber.map(|i| p.mass[i]).sum::<f32>()
    };
    let before = mass(&world);
    for _ in 0..40 {
        world.step_frame();
    }
    assert!(before > 50.0, "{before}");
    assert_eq!(mass(&world), before, "nothing burned");
}
