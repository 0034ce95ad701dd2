//! Phase changes with latent heat, by the enthalpy method: a particle at a change's point keeps
//! that temperature while it takes up (or gives off) the latent heat, held in its `latent`
//! column, and changes material only when all of it has moved. Water freezes into ice and ice
//! melts back; lava cools into rock and rock melts back into lava; water past its boiling point
//! takes up the boiling heat and is then ready to leave as vapour (the air takes it,
//! `sim::subsystems::air`).
//!
//! A particle's heat per unit mass is h = c T + latent (+ a constant per material, so that h is
//! continuous across a change: `Phases::offsets`), and every step here keeps it: a particle
//! 3 degrees above its melting point with 10 degrees of water of latent heat already taken up
//! has the same h as one with 3 c more latent heat at the point. A change between materials of
//! different particle mass (ice lighter than water, so that it floats) keeps the heat per unit
//! mass, not the particle's heat.

use crate::sim::scene::Material;

/// A change from one material into another at a temperature.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Change {
    /// The material it turns into.
    pub into: usize,
    /// Where: the melting point, in °C.
    pub point: f32,
    /// The latent heat per unit mass, in degrees of water.
    pub heat: f32,
}

/// What a material does at its phase changes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Phase {
    /// Heat capacity per unit mass, relative to water.
    pub heat_capacity: f32,
    /// Melting, heated past the point (ice into water).
    pub melts: Option<Change>,
    /// Freezing, cooled below the point (water into ice): the reverse of the material that
    /// melts into this one.
    pub freezes: Option<Change>,
    /// Boiling point and heat: past it, a particle takes up the heat and is then ready to leave
    /// as vapour.
    pub boils: Option<(f32, f32)>,
}

impl Phase {
    /// True when it changes at all.
    pub fn changes(&self) -> bool {
        self.melts.is_some() || self.freezes.is_some() || self.boils.is_some()
    }
}

/// The phase changes of a scene's materials.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Phases {
    /// Each material's, by index.
    pub materials: Vec<Phase>,
}

impl Phases {
    /// The phase changes of `materials` (each `melts_into` resolved by name; a name that is not
    /// there, which the loader refuses, changes nothing).
    pub fn new(materials: &[Material]) -> Self {
        let index = |name: &str| materials.iter().position(|m| m.name == name);
        let mut phases: Vec<Phase> = materials
            .iter()
            .map(|m| Phase {
                heat_capacity: m.heat_capacity,
                melts: None,
                freezes: None,
                boils: m.boiling_point.map(|point| (point, m.boiling_heat)),
            })
            .collect();
        for (solid, m) in materials.iter().enumerate() {
            let Some(liquid) = m.melts_into.as_deref().and_then(index) else {
                continue;
            };
            if liquid == solid {
                continue;
            }
            phases[solid].melts = Some(Change {
                into: liquid,
                point: m.melting_point,
                heat: m.melting_heat,
            });
            phases[liquid].freezes = Some(Change {
                into: solid,
                point: m.melting_point,
                heat: m.melting_heat,
            });
        }
        Self { materials: phases }
    }

    /// True when some material melts or freezes (boiling aside).
    pub fn melts_or_freezes(&self) -> bool {
        self.materials
            .iter()
            .any(|phase| phase.melts.is_some() || phase.freezes.is_some())
    }

    /// Each material's heat per unit mass at 0 °C with no latent heat, in degrees of water,
    /// chosen so that the heat per unit mass c T + latent + offset is the same on both sides of
    /// every change: the solid's offset is 0 (or its own solid's), the melt's
    /// offset(solid) + (c_solid − c_melt) point + heat.
    pub fn offsets(&self) -> Vec<f64> {
        let mut offsets = vec![0.0_f64; self.materials.len()];
        // A chain of changes is at most as long as the list of materials.
        for _ in 0..self.materials.len() {
            for (solid, phase) in self.materials.iter().enumerate() {
                if let Some(melt) = phase.melts {
                    let liquid = &self.materials[melt.into];
                    offsets[melt.into] = offsets[solid]
                        + f64::from(phase.heat_capacity - liquid.heat_capacity)
                            * f64::from(melt.point)
                        + f64::from(melt.heat);
                }
            }
        }
        offsets
    }

    /// Settles one particle of `material` at temperature `t` holding `latent`: moves the heat
    /// past a change's point into `latent`, and returns the material it turns into once all
    /// the latent heat has moved (its `t` and `latent` then those of the new material).
    pub fn settle(&self, material: usize, t: &mut f32, latent: &mut f32) -> Option<usize> {
        let phase = &self.materials[material];
        let c = phase.heat_capacity;
        if let Some(melt) = phase.melts {
            if *latent > 0.0 || (*latent == 0.0 && *t > melt.point) {
                // The heat above the point: taken up first, the rest warms.
                let above = *latent + c * (*t - melt.point);
                if above >= melt.heat {
                    let into = &self.materials[melt.into];
                    *t = melt.point + (above - melt.heat) / into.heat_capacity;
                    *latent = 0.0;
                    return Some(melt.into);
                }
                hold(above, melt.point, c, Side::Above, t, latent);
                return None;
            }
        }
        if let Some(freeze) = phase.freezes {
            if *latent < 0.0 || (*latent == 0.0 && *t < freeze.point) {
                // The heat below the point (negative): given off first, the rest cools.
                let below = *latent + c * (*t - freeze.point);
                if below <= -freeze.heat {
                    let into = &self.materials[freeze.into];
                    *t = freeze.point + (below + freeze.heat) / into.heat_capacity;
                    *latent = 0.0;
                    return Some(freeze.into);
                }
                hold(below, freeze.point, c, Side::Below, t, latent);
                return None;
            }
        }
        if let Some((point, heat)) = phase.boils {
            if *latent > 0.0 || (*latent == 0.0 && *t > point) {
                let above = *latent + c * (*t - point);
                if above >= heat {
                    // Ready to leave: all the boiling heat taken up, the rest superheats it.
                    *latent = heat;
                    *t = point + (above - heat) / c;
                } else {
                    hold(above, point, c, Side::Above, t, latent);
                }
            }
        }
        None
    }

    /// True when a particle of `material` holding `latent` has taken up all its boiling heat.
    pub fn ready_to_boil(&self, material: usize, latent: f32) -> bool {
        matches!(self.materials[material].boils, Some((_, heat)) if latent >= heat)
    }
}

/// Which side of its point a change lies on.
#[derive(Clone, Copy, PartialEq)]
enum Side {
    /// Melting and boiling: heated past the point.
    Above,
    /// Freezing: cooled below it.
    Below,
}

/// A particle with `heat` (per unit mass, in degrees of water) past a change's `point` on
/// `side`, short of its whole latent heat: held at the point when that heat is on the change's
/// side, else back on its own side of the point, warmer or colder by `heat` / c.
fn hold(heat: f32, point: f32, c: f32, side: Side, t: &mut f32, latent: &mut f32) {
    let toward_the_change = match side {
        Side::Above => heat > 0.0,
        Side::Below => heat < 0.0,
    };
    if toward_the_change {
        *t = point;
        *latent = heat;
    } else {
        *t = point + heat / c;
        *latent = 0.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ice_and_water() -> Phases {
        let ice = Material {
            name: "ice".into(),
            heat_capacity: 0.5,
            melts_into: Some("water".into()),
            melting_point: 0.0,
            melting_heat: 80.0,
            ..Material::default()
        };
        let water = Material {
            name: "water".into(),
            boiling_point: Some(100.0),
            boiling_heat: 540.0,
            ..Material::default()
        };
        Phases::new(&[ice, water])
    }

    /// The heat per unit mass c T + latent + offset of a particle.
    fn heat(phases: &Phases, material: usize, t: f32, latent: f32) -> f64 {
        let c = phases.materials[material].heat_capacity;
        phases.offsets()[material] + f64::from(c * t) + f64::from(latent)
    }

    /// Ice warmed past 0 °C stays at 0 while it takes up 80 degrees of water, then melts, and
    /// water cooled back gives the same heat off and freezes; each step keeps the heat.
    #[test]
    fn ice_takes_up_its_latent_heat_before_it_melts_and_gives_it_back_when_it_freezes() {
        let phases = ice_and_water();
        // Ice at −10 warmed by 60 degrees of water: 5 to reach 0, 55 taken up.
        let (mut t, mut latent) = (110.0, 0.0);
        let before = heat(&phases, 0, -10.0, 0.0) + 60.0;
        assert_eq!(phases.settle(0, &mut t, &mut latent), None);
        assert_eq!((t, latent), (0.0, 55.0));
        assert_eq!(heat(&phases, 0, t, latent), before);
        // 30 more: 25 finish the melt, 5 warm the water by 5.
        t += 30.0 / 0.5;
        assert_eq!(phases.settle(0, &mut t, &mut latent), Some(1));
        assert_eq!((t, latent), (5.0, 0.0));
        assert_eq!(heat(&phases, 1, t, latent), before + 30.0);
        // Water cooled to −5: 5 to reach 0, 5 given off toward freezing.
        t = -5.0;
        assert_eq!(phases.settle(1, &mut t, &mut latent), None);
        assert_eq!((t, latent), (0.0, -5.0));
        // Warmed back by 2: the freezing heat is taken up again first.
        t = 2.0;
        assert_eq!(phases.settle(1, &mut t, &mut latent), None);
        assert_eq!((t, latent), (0.0, -3.0));
        // Warmed by 10: 3 undo the freezing, 7 warm it.
        t = 10.0;
        assert_eq!(phases.settle(1, &mut t, &mut latent), None);
        assert_eq!((t, latent), (7.0, 0.0));
        // Cooled by 100 from 0: 80 freeze it, 20 cool the ice by 40.
        let (mut t, mut latent) = (-100.0, 0.0);
        assert_eq!(phases.settle(1, &mut t, &mut latent), Some(0));
        assert_eq!((t, latent), (-40.0, 0.0));
        assert_eq!(heat(&phases, 0, t, latent), heat(&phases, 1, -100.0, 0.0));
    }

    /// Water past 100 °C takes up the boiling heat at 100 and is then ready to leave, any heat
    /// beyond superheating it.
    #[test]
    fn water_takes_up_the_boiling_heat_at_its_boiling_point() {
        let phases = ice_and_water();
        let (mut t, mut latent) = (400.0, 0.0);
        assert_eq!(phases.settle(1, &mut t, &mut latent), None);
        assert_eq!((t, latent), (100.0, 300.0));
        assert!(!phases.ready_to_boil(1, latent));
        t = 400.0;
        assert_eq!(phases.settle(1, &mut t, &mut latent), None);
        assert_eq!((t, latent), (160.0, 540.0));
        assert!(phases.ready_to_boil(1, latent));
        // Ice is never ready to boil, and nothing changes between the points.
        assert!(!phases.ready_to_boil(0, 1000.0));
        let (mut t, mut latent) = (50.0, 0.0);
        assert_eq!(phases.settle(1, &mut t, &mut latent), None);
        assert_eq!((t, latent), (50.0, 0.0));
    }

    #[test]
    fn the_offsets_make_the_heat_continuous_across_a_change() {
        let phases = ice_and_water();
        assert_eq!(phases.offsets(), vec![0.0, 80.0]);
    }
}
