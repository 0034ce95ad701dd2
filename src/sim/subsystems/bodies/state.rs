//! The bodies' snapshot: everything their next step depends on (`BodiesState`), saved by
//! `Bodies::save_state` and read back by `Bodies::restore`, for the world's snapshots.

use super::rapier::Rapier;
use rapier2d::prelude::{ColliderHandle, RigidBodyHandle};
use serde::{Deserialize, Serialize};

/// Everything the next step of the bodies depends on, for snapshots (`World::state`): rapier's
/// whole world (bodies, colliders, joints, contact caches, islands), which body and collider
/// handles are the scene's bodies and parts, the impulses the particles owe the bodies, and the
/// grab. The scene gives the rest (names, shapes, colours, hinges). Serialized with rapier's own
/// serde support (its floats as JSON numbers, which read back to the same bits); the slosh
/// values as bits.
#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodiesState {
    pub(super) rapier: Rapier,
    pub(super) handles: Vec<RigidBodyHandle>,
    pub(super) colliders: Vec<ColliderHandle>,
    /// Per body: impulse x, y and angular impulse, as bits.
    pub(super) pending: Vec<[u32; 3]>,
    /// The held body, its held point in its frame and the cursor, as bits.
    pub(super) grab: Option<(usize, [u32; 4])>,
}

impl std::fmt::Debug for BodiesState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BodiesState")
            .field("bodies", &self.handles.len())
            .field("pending", &self.pending)
            .field("grab", &self.grab)
            .finish()
    }
}

/// Equal when the same handles hold bodies in the same poses and motions (to the bit), with
/// the same impulses owed and the same grab; rapier's caches are not compared.
impl PartialEq for BodiesState {
    fn eq(&self, other: &Self) -> bool {
        let motion = |state: &Self| -> Vec<[u32; 6]> {
            state
                .handles
                .iter()
                .filter(|&&h| state.rapier.has_body(h))
                .map(|&h| {
                    let s = state.rapier.state(h);
                    [
                        s.position.x,
                        s.position.y,
                        s.angle,
                        s.velocity.x,
                        s.velocity.y,
                        s.angular_velocity,
                    ]
                    .map(f32::to_bits)
                })
                .collect()
        };
        self.handles == other.handles
            && self.colliders == other.colliders
            && self.pending == other.pending
            && self.grab == other.grab
            && motion(self) == motion(other)
    }
}
