//! The liquid's look in numbers, without any window types: what each material style means to
//! the light (`Look`), where liquid turns to foam, how hot matter glows, and the optics the
//! liquid shader (`assets/shaders/liquid.frag`) computes per pixel: the surface normal from the
//! splat field, Fresnel reflection and Beer–Lambert depth. The shader's formulas are the ones
//! written here; the bloom's blur weights are made here and handed to the shader as they are.
//!
//! After LiquidFun's EyeCandy shaders (a normal from the splatted field, Phong light with a
//! specular power of 128, a Fresnel term, the background seen through the liquid offset by the
//! normal) and Ten Minute Physics' FLIP demo (particles whiten into foam where the density falls
//! well below rest).

#![allow(
    clippy::disallowed_methods,
    reason = "drawing only: the platform's own exp and powf touch no simulation state"
)]

use crate::sim::Style;

/// What a style asks of the light, each in 0..=1. The splat pass carries these four per
/// particle (as the four channels of a second field), so where materials meet, their looks
/// blend as their colours do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Look {
    /// How much of what lies behind is seen through it (1: clear water, 0: opaque).
    pub clarity: f32,
    /// How glossy its surface is: the highlight's strength and the Fresnel reflection's; past a
    /// half the highlight also broadens into a sheen (oil, syrup).
    pub gloss: f32,
    /// Light it gives off: drawn brighter and fed to the bloom (lava).
    pub glow: f32,
    /// A frosted or stony grain over it, and a crisp bright edge (ice, jelly, rock).
    pub grain: f32,
}

impl Look {
    /// The look of `style`.
    pub fn of(style: Style) -> Self {
        let look = |clarity, gloss, glow, grain| Self {
            clarity,
            gloss,
            glow,
            grain,
        };
        match style {
            Style::Clear => look(0.8, 0.45, 0.0, 0.0),
            Style::Sheen => look(0.3, 0.9, 0.0, 0.0),
            Style::Opaque => look(0.0, 0.3, 0.0, 0.0),
            Style::Translucent => look(0.5, 0.4, 0.0, 0.55),
            Style::Matte => look(0.0, 0.0, 0.0, 1.0),
            Style::Emissive => look(0.0, 0.2, 0.8, 0.25),
            Style::Grain => look(0.0, 0.0, 0.0, 1.0),
        }
    }

    /// The brightness factor of the grain of particle `id` in the `grain` style: 0.7 to 1.3,
    /// from a hash of the id (the same grain keeps its shade from frame to frame).
    pub fn speckle(id: u32) -> f32 {
        // A 32-bit integer hash (Wellons' lowbias32): neighbouring ids get unrelated shades.
        let mut x = id;
        x ^= x >> 16;
        x = x.wrapping_mul(0x7feb_352d);
        x ^= x >> 15;
        x = x.wrapping_mul(0x846c_a68b);
        x ^= x >> 16;
        0.7 + 0.6 * ((x >> 8) as f32 / (1u32 << 24) as f32)
    }

    /// The temperature view's look: opaque and plainly lit, so that the colour is the
    /// temperature's alone.
    pub const PLAIN: Look = Look {
        clarity: 0.0,
        gloss: 0.2,
        glow: 0.0,
        grain: 0.0,
    };

    /// As foam of weight `foam` (0..=1) turns it: foam is white and opaque.
    pub fn foamed(self, foam: f32) -> Self {
        Self {
            clarity: self.clarity * (1.0 - foam),
            ..self
        }
    }

    /// Glowing at least `glow` (a hot particle glows whatever its style).
    pub fn glowing(self, glow: f32) -> Self {
        Self {
            glow: self.glow.max(glow),
            ..self
        }
    }

    /// As the liquid shader's `vec4`: clarity, gloss, glow, grain.
    pub fn to_array(self) -> [f32; 4] {
        [self.clarity, self.gloss, self.glow, self.grain]
    }

    /// As the splat pass's per-particle bytes: clarity, gloss, glow, grain.
    pub fn to_bytes(self) -> [u8; 4] {
        self.to_array()
            .map(|c| (c.clamp(0.0, 1.0) * 255.0 + 0.5) as u8)
    }
}

/// Density below this fraction of rest is spray (a drop alone or nearly); the liquid's own
/// surface, where a particle has about half its neighbours, stays above it.
pub const SPRAY_DENSITY: f32 = 0.45;
/// Density at and below which a particle is all foam.
pub const FOAM_DENSITY: f32 = 0.2;
/// Speed, in the scene's reference speed (that of a fall from the box's top), where a breaking
/// wave starts to whiten ...
pub const FOAM_SPEED_START: f32 = 0.45;
/// ... and where it is all foam.
pub const FOAM_SPEED_FULL: f32 = 1.1;
/// The most a particle whitens (foam keeps a hint of its liquid's colour).
pub const FOAM_MOST: f32 = 0.85;
/// The colour foam turns toward.
pub const FOAM: [f32; 3] = [0.92, 0.96, 1.0];

/// How much a particle shows as foam, 0..=1: thin (its density `density_ratio` of rest, below
/// `SPRAY_DENSITY`) or fast (`speed_ratio` of the scene's reference speed, past
/// `FOAM_SPEED_START`), whichever is more; at most `FOAM_MOST`. Anything not a number is no
/// foam.
pub fn foam_weight(density_ratio: f32, speed_ratio: f32) -> f32 {
    let thin = smoothstep(SPRAY_DENSITY, FOAM_DENSITY, density_ratio);
    let fast = smoothstep(FOAM_SPEED_START, FOAM_SPEED_FULL, speed_ratio);
    let foam = thin.max(fast);
    if foam.is_nan() {
        0.0
    } else {
        foam * FOAM_MOST
    }
}

/// `colour` turned toward `FOAM` by `foam`.
pub fn foamy(colour: [f32; 3], foam: f32) -> [f32; 3] {
    [0, 1, 2].map(|c| colour[c] + (FOAM[c] - colour[c]) * foam)
}

/// Degrees above `palette::GLOW_START` over which a hot particle's glow grows to its full
/// strength (white heat is all glow).
const GLOW_RISE: f32 = 600.0;

/// How strongly a particle at `temperature` °C gives off light (the bloom's share), 0 below
/// `palette::GLOW_START`, 1 from `GLOW_RISE` degrees above it.
pub fn hot_glow(temperature: f32) -> f32 {
    let glow = ((temperature - super::palette::GLOW_START) / GLOW_RISE).clamp(0.0, 1.0);
    if glow.is_nan() {
        0.0
    } else {
        glow
    }
}

/// GLSL's smoothstep: 0 at `edge0`, 1 at `edge1` (either way round), a cubic between.
pub fn smoothstep(edge0: f32, edge1: f32, x: f32) -> f32 {
    let t = ((x - edge0) / (edge1 - edge0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// Reflectance of water seen head-on (its refractive index 1.33: ((n − 1)/(n + 1))²).
pub const WATER_REFLECTANCE: f32 = 0.02;

/// Schlick's approximation of the Fresnel reflectance of a surface seen at an angle whose cosine
/// is `cos_incidence` (1: head-on, 0: grazing), with reflectance `head_on` at normal incidence.
#[allow(
    dead_code,
    reason = "the shader's formula (liquid.frag), written here to be tested"
)]
pub fn fresnel(cos_incidence: f32, head_on: f32) -> f32 {
    let grazing = 1.0 - cos_incidence.clamp(0.0, 1.0);
    head_on + (1.0 - head_on) * grazing.powi(5)
}

/// How steeply the surface leans for a slope of the field of one full pool's weight per field
/// texel: the normal tilts by this much sideways per unit up.
pub const STEEPNESS: f32 = 6.0;

/// The liquid surface's unit normal (x right, y up in the picture, z toward the viewer) from the
/// splat field's weights one step `left`, `right`, `below` and `above` the pixel, in units of a
/// full pool's weight: the field read as the liquid's thickness, a height over the picture. A
/// flat field faces the viewer; the normal leans toward where the liquid thins, so an edge
/// faces outward.
#[allow(
    dead_code,
    reason = "the shader's formula (liquid.frag), written here to be tested"
)]
pub fn surface_normal(left: f32, right: f32, below: f32, above: f32) -> [f32; 3] {
    let slope = [0.5 * (right - left), 0.5 * (above - below)];
    let n = [-STEEPNESS * slope[0], -STEEPNESS * slope[1], 1.0];
    let length = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    n.map(|c| c / length)
}

/// Beer–Lambert: the share of light of each channel that passes through liquid `depth` deep
/// (in the depth at which it passes `colour`, the material's colour: its transmittance over a
/// unit depth). Thin liquid is nearly clear, deep liquid deepens in its own colour.
#[allow(
    dead_code,
    reason = "the shader's formula (liquid.frag), written here to be tested"
)]
pub fn transmittance(colour: [f32; 3], depth: f32) -> [f32; 3] {
    colour.map(|c| c.clamp(0.02, 1.0).powf(depth.max(0.0)))
}

/// Taps on each side of the bloom's blur (the kernel has `2 BLOOM_TAPS + 1` weights).
pub const BLOOM_TAPS: usize = 6;

/// The bloom's blur kernel, centre first then each side: a Gaussian of `sigma` taps, cut at
/// `BLOOM_TAPS` and scaled so that the whole kernel (the centre once, each side twice) sums to 1:
/// the blur spreads light without adding or losing any.
pub fn bloom_weights(sigma: f32) -> [f32; BLOOM_TAPS + 1] {
    let mut weights = [0.0; BLOOM_TAPS + 1];
    for (k, weight) in weights.iter_mut().enumerate() {
        let x = k as f32 / sigma.max(1e-3);
        *weight = (-0.5 * x * x).exp();
    }
    let total = weights[0] + 2.0 * weights[1..].iter().sum::<f32>();
    weights.map(|weight| weight / total)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f32, b: f32, tolerance: f32) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn a_flat_field_faces_the_viewer_and_an_edge_faces_outward() {
        assert_eq!(surface_normal(0.7, 0.7, 0.7, 0.7), [0.0, 0.0, 1.0]);
        // Liquid to the left, thinning to the right: the right edge of a pool.
        let right_edge = surface_normal(0.9, 0.1, 0.5, 0.5);
        assert!(
            right_edge[0] > 0.9 && right_edge[1] == 0.0,
            "{right_edge:?}"
        );
        // Its top: the field thins upward, the normal leans up.
        let top = surface_normal(0.5, 0.5, 0.6, 0.4);
        assert!(top[1] > 0.5 && top[0] == 0.0, "{top:?}");
        // A known slope: the field rises by 0.1 per step to the right.
        let n = surface_normal(0.4, 0.6, 0.5, 0.5);
        let expected = [-0.1 * STEEPNESS, 0.0, 1.0];
        let length = (expected[0] * expected[0] + 1.0f32).sqrt();
        for c in 0..3 {
            assert!(close(n[c], expected[c] / length, 1e-6), "{n:?}");
        }
        for n in [right_edge, top, n] {
            let length = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
            assert!(close(length, 1.0, 1e-5));
        }
    }

    #[test]
    fn fresnel_is_the_head_on_reflectance_face_on_and_total_at_grazing() {
        assert!(close(fresnel(1.0, WATER_REFLECTANCE), 0.02, 1e-6));
        assert!(close(fresnel(0.0, WATER_REFLECTANCE), 1.0, 1e-6));
        // In between it rises steadily toward grazing.
        let mut last = 0.0;
        for degrees in (0..=90).step_by(5) {
            let cos = (degrees as f32).to_radians().cos();
            let f = fresnel(cos, WATER_REFLECTANCE);
            assert!(f >= last, "{degrees}°: {f} after {last}");
            last = f;
        }
        // At 60° Schlick gives about 0.05 for water.
        let sixty = fresnel(0.5, WATER_REFLECTANCE);
        assert!(close(sixty, 0.0506, 0.001), "{sixty}");
    }

    #[test]
    fn spray_and_fast_water_foam_but_a_pool_and_its_surface_do_not() {
        // A pool at rest, and its surface particles with about half their neighbours.
        assert_eq!(foam_weight(1.0, 0.0), 0.0);
        assert_eq!(foam_weight(0.5, 0.1), 0.0);
        // A drop alone: all foam.
        assert!(close(foam_weight(0.1, 0.0), FOAM_MOST, 1e-6));
        // A breaking wave at the speed of a fall from the top of the box: all foam.
        assert!(close(foam_weight(1.0, 1.5), FOAM_MOST, 1e-6));
        // Between, more foam the thinner or the faster.
        let (a, b) = (foam_weight(0.35, 0.0), foam_weight(0.3, 0.0));
        assert!(0.0 < a && a < b && b < FOAM_MOST, "{a} {b}");
        let (a, b) = (foam_weight(1.0, 0.6), foam_weight(1.0, 0.8));
        assert!(0.0 < a && a < b && b < FOAM_MOST, "{a} {b}");
        assert_eq!(foam_weight(f32::NAN, f32::NAN), 0.0);
        // Foam is whiter and hides what is behind it.
        let water = [0.25, 0.55, 0.95];
        let white = foamy(water, FOAM_MOST);
        assert!(white.iter().zip(water).all(|(f, w)| *f >= w) && white[0] > 0.7);
        let look = Look::of(Style::Clear).foamed(FOAM_MOST);
        assert!(look.clarity < 0.2 * Look::of(Style::Clear).clarity);
    }

    #[test]
    fn grains_are_matte_and_each_a_shade_of_its_own() {
        let look = Look::of(Style::Grain);
        assert_eq!((look.clarity, look.gloss, look.glow), (0.0, 0.0, 0.0));
        let shades: Vec<f32> = (0..1000).map(Look::speckle).collect();
        assert!(shades.iter().all(|s| (0.7..=1.3).contains(s)));
        // Spread over the range, and neighbours unlike each other.
        let mean = shades.iter().sum::<f32>() / 1000.0;
        assert!((mean - 1.0).abs() < 0.03, "{mean}");
        let darker = shades.iter().filter(|&&s| s < 0.85).count();
        let lighter = shades.iter().filter(|&&s| s > 1.15).count();
        assert!(darker > 150 && lighter > 150, "{darker} {lighter}");
        let steps = shades.windows(2).map(|w| (w[1] - w[0]).abs()).sum::<f32>() / 999.0;
        assert!(steps > 0.15, "{steps}");
        assert_eq!(Look::speckle(7), Look::speckle(7));
    }

    #[test]
    fn thicker_liquid_lets_less_light_through_and_clear_water_most() {
        let water = [0.25, 0.55, 0.95];
        assert_eq!(transmittance(water, 0.0), [1.0; 3]);
        let (thin, deep) = (transmittance(water, 0.3), transmittance(water, 2.0));
        for c in 0..3 {
            assert!(deep[c] < thin[c] && thin[c] < 1.0);
        }
        // The red goes first: deep water is blue.
        assert!(deep[2] > 5.0 * deep[0], "{deep:?}");
        let looks = Style::ALL.map(Look::of);
        let clearest = looks.iter().map(|l| l.clarity).fold(0.0, f32::max);
        assert_eq!(Look::of(Style::Clear).clarity, clearest);
        assert_eq!(Look::of(Style::Opaque).clarity, 0.0);
        assert_eq!(Look::of(Style::Matte).gloss, 0.0);
        // Only lava gives off light of its own; anything gives it off when hot.
        for style in Style::ALL {
            assert_eq!(
                Look::of(style).glow > 0.0,
                style == Style::Emissive,
                "{style:?}"
            );
        }
        assert_eq!(hot_glow(20.0), 0.0);
        assert_eq!(hot_glow(f32::NAN), 0.0);
        assert!(hot_glow(900.0) > 0.5 && hot_glow(2000.0) == 1.0);
    }

    /// One blur pass along a row, clamping at the row's ends as the texture sampler does.
    fn blur_row(row: &[f32], weights: &[f32]) -> Vec<f32> {
        let last = row.len() as isize - 1;
        (0..row.len() as isize)
            .map(|x| {
                let at = |k: isize| row[(x + k).clamp(0, last) as usize];
                let sides: f32 = (1..weights.len() as isize)
                    .map(|k| weights[k as usize] * (at(k) + at(-k)))
                    .sum();
                weights[0] * at(0) + sides
            })
            .collect()
    }

    #[test]
    fn the_bloom_spreads_light_without_adding_or_losing_any() {
        for sigma in [1.0, 2.5, 4.0] {
            let weights = bloom_weights(sigma);
            let total = weights[0] + 2.0 * weights[1..].iter().sum::<f32>();
            assert!(close(total, 1.0, 1e-6), "{sigma}: {total}");
            assert!(weights.windows(2).all(|w| w[0] > w[1]), "{weights:?}");
            // A glowing spot in the middle of a row, blurred twice (the two passes each way
            // make the bloom): spread out, its light the same.
            let mut row = vec![0.0; 64];
            row[30] = 1.0;
            row[31] = 0.5;
            let blurred = blur_row(&blur_row(&row, &weights), &weights);
            let (before, after) = (row.iter().sum::<f32>(), blurred.iter().sum::<f32>());
            assert!(close(before, after, 1e-5), "{sigma}: {before} → {after}");
            assert!(blurred[30] < 1.0 && blurred[26] > 0.0, "{sigma}: spread");
        }
    }
}
