//! FNV-1a (Fowler, Noll and Vo's hash, variant 1a, with its 64-bit offset basis and prime: each
//! byte is xored in, then the hash is multiplied by the prime), the hash behind every checksum the
//! engine reports: the particles', the air's, the bodies' and the world's that joins them. The
//! golden checksums are these hashes, so which bytes each feeds in, and in what order, is fixed.

/// FNV-1a's 64-bit offset basis: the hash of nothing.
const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a's 64-bit prime.
const PRIME: u64 = 0x0000_0100_0000_01b3;

/// A running FNV-1a hash, fed a value at a time, for checksums that are equal only for
/// bit-identical states.
#[derive(Clone, Copy, Debug)]
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Self::new()
    }
}

impl Fnv {
    /// The hash of nothing yet.
    pub const fn new() -> Self {
        Self(OFFSET_BASIS)
    }

    /// Feeds in one byte.
    pub fn byte(&mut self, byte: u8) {
        self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(PRIME);
    }

    /// Feeds in `value`'s bits, as four little-endian bytes.
    pub fn f32(&mut self, value: f32) {
        for byte in value.to_bits().to_le_bytes() {
            self.byte(byte);
        }
    }

    /// The hash of everything fed in so far.
    pub const fn finish(&self) -> u64 {
        self.0
    }
}

/// `hash` with `other` folded in whole, as one FNV-1a step on a 64-bit word rather than a byte:
/// how the world's checksum takes in its subsystems' checksums.
pub const fn join(hash: u64, other: u64) -> u64 {
    (hash ^ other).wrapping_mul(PRIME)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_vectors() {
        // From the FNV reference's test suite: "" and "a".
        assert_eq!(Fnv::new().finish(), 0xcbf2_9ce4_8422_2325);
        let mut a = Fnv::new();
        a.byte(b'a');
        assert_eq!(a.finish(), 0xaf63_dc4c_8601_ec8c);
    }
}
