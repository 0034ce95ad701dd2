//! The colours heat is shown in, without any window types: the glow of hot particles along a
//! blackbody ramp (the normal views) and the temperature view's cold-to-hot scale (which the
//! HUD draws as its legend). Colours are RGB in 0..=1, drawn as they are, as the materials'
//! own colours are.

/// Where a particle starts to glow, in °C: below it, a particle shows its material's colour.
pub const GLOW_START: f32 = 450.0;

/// Degrees above `GLOW_START` over which the glow's colour takes over from the material's.
const GLOW_TAKEOVER: f32 = 100.0;

/// The colour of a hot body by its temperature (°C): dark red at 550, then red, orange,
/// yellow, white at 1500 (a blackbody's colour as the eye sees it, in steps).
const GLOW: [(f32, [f32; 3]); 7] = [
    (550.0, [0.42, 0.04, 0.02]),
    (700.0, [0.78, 0.1, 0.02]),
    (900.0, [1.0, 0.42, 0.04]),
    (1050.0, [1.0, 0.62, 0.12]),
    (1200.0, [1.0, 0.82, 0.3]),
    (1350.0, [1.0, 0.93, 0.62]),
    (1500.0, [1.0, 1.0, 1.0]),
];

/// The temperature view's scale, by temperature (°C): blue at −20 and below, pale blue at
/// freezing, white at 20, yellow, orange at boiling, red at 500, dark red at 1000 and above.
/// The HUD draws it, a stop to each tick.
pub const THERMOMETER: [(f32, [f32; 3]); 7] = [
    (-20.0, [0.1, 0.25, 0.95]),
    (0.0, [0.5, 0.75, 1.0]),
    (20.0, [0.95, 0.95, 0.95]),
    (60.0, [1.0, 0.85, 0.3]),
    (100.0, [1.0, 0.5, 0.1]),
    (500.0, [0.85, 0.08, 0.05]),
    (1000.0, [0.5, 0.0, 0.05]),
];

/// The colour of the piecewise-linear `ramp` at `x`, held at its ends (its first colour for
/// NaN).
fn along(ramp: &[(f32, [f32; 3])], x: f32) -> [f32; 3] {
    let (first, last) = (ramp[0], ramp[ramp.len() - 1]);
    if x.is_nan() || x <= first.0 {
        return first.1;
    }
    if x >= last.0 {
        return last.1;
    }
    let upper = ramp
        .iter()
        .position(|&(at, _)| at > x)
        .unwrap_or(ramp.len() - 1);
    let ((a, from), (b, to)) = (ramp[upper - 1], ramp[upper]);
    let t = (x - a) / (b - a);
    [0, 1, 2].map(|c| from[c] + (to[c] - from[c]) * t)
}

/// `colour` as a particle at `temperature` °C shows it: unchanged up to `GLOW_START`; then
/// turning to the glow's dark red by 550 °C, and on through red, orange and yellow to white at
/// 1500 °C and above. A temperature that is not a number glows not at all.
pub fn glowing(colour: [f32; 3], temperature: f32) -> [f32; 3] {
    if temperature.is_nan() || temperature <= GLOW_START {
        return colour;
    }
    let glow = along(&GLOW, temperature);
    let share = ((temperature - GLOW_START) / GLOW_TAKEOVER).clamp(0.0, 1.0);
    [0, 1, 2].map(|c| (colour[c] + (glow[c] - colour[c]) * share).clamp(0.0, 1.0))
}

/// The temperature view's colour for `temperature` °C (`THERMOMETER`); grey for a temperature
/// that is not a number.
pub fn thermometer(temperature: f32) -> [f32; 3] {
    if temperature.is_nan() {
        return [0.5, 0.5, 0.5];
    }
    along(&THERMOMETER, temperature)
}

/// The temperature as the HUD writes it: a decimal below 100 degrees either way, whole degrees
/// above.
pub fn degrees(temperature: f32) -> String {
    if temperature.abs() < 100.0 {
        format!("{temperature:.1} °C")
    } else {
        format!("{temperature:.0} °C")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::numerics::portable::Ordered;

    fn brightness(colour: [f32; 3]) -> f32 {
        colour.iter().sum()
    }

    #[test]
    fn cool_particles_keep_their_colour_and_hot_ones_glow_toward_white() {
        let water = [0.25, 0.55, 0.95];
        for t in [-1000.0, 0.0, 100.0, GLOW_START, f32::NAN] {
            assert_eq!(glowing(water, t), water, "{t}");
        }
        // Dark red from about 500: red leads, and the colour is no longer the material's.
        for t in [520.0, 600.0] {
            let red = glowing(water, t);
            assert!(red[0] > red[1] + 0.1 && red[0] > red[2], "{t}: {red:?}");
        }
        // By 550 the material's own colour is gone.
        let (a, b) = (glowing(water, 550.0), glowing([0.0; 3], 550.0));
        assert!((0..3).all(|c| (a[c] - b[c]).abs() < 1e-6), "{a:?} {b:?}");
        // Brighter and whiter as it heats, white at 1500 and above.
        let mut last = glowing([0.0; 3], 550.0);
        for t in (600..=1500).step_by(50) {
            let now = glowing([0.0; 3], t as f32);
            assert!(
                brightness(now) > brightness(last),
                "{t}: {now:?} after {last:?}"
            );
            last = now;
        }
        assert_eq!(glowing(water, 1500.0), [1.0; 3]);
        assert_eq!(glowing(water, 1.0e9), [1.0; 3]);
        let orange = glowing(water, 900.0);
        assert!(
            orange[0] > orange[1] + 0.3 && orange[1] > orange[2],
            "{orange:?}"
        );
        let yellow = glowing(water, 1200.0);
        assert!(
            yellow[1] > 0.7 && yellow[2] < 0.5,
            "yellow, not white yet: {yellow:?}"
        );
    }

    #[test]
    fn the_thermometer_runs_from_blue_through_white_to_red() {
        let cold = thermometer(-20.0);
        assert!(cold[2] > cold[0] + 0.5, "{cold:?}");
        assert_eq!(thermometer(-500.0), cold);
        assert_eq!(thermometer(20.0), [0.95, 0.95, 0.95]);
        let boiling = thermometer(100.0);
        assert!(boiling[0] > boiling[2] + 0.5, "{boiling:?}");
        let hot = thermometer(500.0);
        assert!(hot[0] > hot[1] + 0.5 && hot[0] > hot[2] + 0.5, "{hot:?}");
        assert_eq!(thermometer(5000.0), thermometer(1000.0));
        // Between the stops, between their colours.
        let (from, to) = (thermometer(0.0), thermometer(20.0));
        for (c, &between) in thermometer(10.0).iter().enumerate() {
            let (a, b) = (from[c], to[c]);
            assert!(a.at_most(b) <= between && between <= a.at_least(b));
        }
        assert!(thermometer(f32::NAN).iter().all(|c| c.is_finite()));
    }

    #[test]
    fn degrees_are_written_to_a_tenth_below_a_hundred() {
        assert_eq!(degrees(21.04), "21.0 °C");
        assert_eq!(degrees(-3.96), "-4.0 °C");
        assert_eq!(degrees(512.4), "512 °C");
    }
}
