//! Sets of up to 64 (or 128) small things as bit words — cards, tiles — and the one operation
//! their games need fast: selecting the `k`-th member. Durak's and Ocho loco's cards and Dominó's
//! tiles all use it.
//!
//! [`select`] is branch-free (random play draws `k` uniformly, and a loop clearing `k` low bits
//! ends at an unpredictable point: a mispredicted branch per move). [`select_bmi2`] is one
//! `pdep` instruction, used where [`fast_select`] says the processor runs it fast; both give the
//! same member, so the choice never changes a result. [`select_by_clearing`] suits few
//! members and a small `k` (Dominó's tiles that fit one end): fewer instructions than either.

/// For each byte value, the positions of its set bits, lowest first.
static SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[0u8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut k, mut bit) = (0, 0);
        while bit < 8 {
            if byte >> bit & 1 == 1 {
                table[byte][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// The position of the `k`-th set bit (lowest first) of a word with more than `k` set bits.
///
/// Three halving steps find the byte that holds it (each keeps the low half when it holds more
/// than `k` members, else moves past it, by masks rather than branches), and a table gives the
/// bit in that byte.
#[inline]
pub fn select(set: u64, k: u32) -> u32 {
    debug_assert!(k < set.count_ones(), "select({set:#x}, {k}) past the end");
    let (mut rest, mut k, mut base) = (set, k, 0u32);
    for half in [32u32, 16, 8] {
        let low = (rest & ((1u64 << half) - 1)).count_ones();
        // All ones when the k-th member lies above the low half.
        let above = ((k >= low) as u32).wrapping_neg();
        let shift = half & above;
        rest >>= shift;
        k -= low & above;
        base += shift;
    }
    base + u32::from(SELECT_IN_BYTE[rest as usize & 0xFF][k as usize & 7])
}

/// [`select`] by clearing the `k` lowest set bits: cheapest when `k` is small (a handful of
/// members), as Dominó's plays against one end are.
#[inline]
pub fn select_by_clearing(mut set: u64, k: u32) -> u32 {
    debug_assert!(
        k < set.count_ones(),
        "select_by_clearing({set:#x}, {k}) past the end"
    );
    for _ in 0..k {
        set &= set - 1;
    }
    set.trailing_zeros()
}

/// [`select`] with BMI2's parallel bit deposit: one instruction instead of a chain of them.
///
/// # Safety
/// The CPU must have BMI2 (as it has wherever [`fast_select`] says yes).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
#[inline]
pub fn select_bmi2(set: u64, k: u32) -> u32 {
    debug_assert!(
        k < set.count_ones(),
        "select_bmi2({set:#x}, {k}) past the end"
    );
    std::arch::x86_64::_pdep_u64(1u64 << k, set).trailing_zeros()
}

/// The position of the `k`-th set bit of a 128-bit word (two decks of cards).
#[inline]
pub fn select128(set: u128, k: u32) -> u32 {
    let low = set as u64;
    let n = low.count_ones();
    if k < n {
        select(low, k)
    } else {
        64 + select((set >> 64) as u64, k - n)
    }
}

/// [`select128`] with BMI2.
///
/// # Safety
/// The CPU must have BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
#[inline]
pub fn select128_bmi2(set: u128, k: u32) -> u32 {
    let low = set as u64;
    let n = low.count_ones();
    if k < n {
        select_bmi2(low, k)
    } else {
        64 + select_bmi2((set >> 64) as u64, k - n)
    }
}

/// Whether [`select_bmi2`] may be used and is fast here: the CPU has BMI2 and is not an AMD (or
/// Hygon) processor from before Zen 3, whose microcoded `pdep` is slower than [`select`]. Both
/// give the same member, so this choice never changes a result. Checked once per process.
pub fn fast_select() -> bool {
    static FAST: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FAST.get_or_init(detect_fast_pdep)
}

#[cfg(target_arch = "x86_64")]
fn detect_fast_pdep() -> bool {
    use std::arch::x86_64::__cpuid;
    if !std::arch::is_x86_feature_detected!("bmi2") {
        return false;
    }
    // SAFETY: every x86-64 processor has CPUID with leaves 0 and 1.
    #[allow(unused_unsafe)]
    let (vendor, signature) = unsafe { (__cpuid(0), __cpuid(1).eax) };
    let name = [vendor.ebx, vendor.edx, vendor.ecx];
    let is = |text: &[u8; 12]| {
        name.iter()
            .zip(text.chunks(4))
            .all(|(&word, part)| word.to_le_bytes() == part)
    };
    if !is(b"AuthenticAMD") && !is(b"HygonGenuine") {
        return true;
    }
    let base = (signature >> 8) & 0xF;
    let family = if base == 0xF {
        base + ((signature >> 20) & 0xFF)
    } else {
        base
    };
    // Zen 3 is family 0x19; Zen, Zen 2 and Hygon's Dhyana are 0x17 and 0x18.
    family >= 0x19
}

#[cfg(not(target_arch = "x86_64"))]
fn detect_fast_pdep() -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The branch-free select against the obvious loop, on words of every density, and the BMI2
    /// path against it where the CPU has BMI2.
    #[test]
    fn select_is_the_kth_set_bit() {
        assert_eq!(select(0b1011_0000, 2), 7);
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for round in 0..20_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let set = match round % 4 {
                0 => x,
                1 => x & x.rotate_left(17),
                2 => x & x.rotate_left(17) & x.rotate_left(31),
                _ => x | 1u64 << 63,
            };
            let mut rest = set;
            for k in 0..set.count_ones() {
                assert_eq!(select(set, k), rest.trailing_zeros(), "{set:#x} {k}");
                assert_eq!(select_by_clearing(set, k), select(set, k), "{set:#x} {k}");
                rest &= rest - 1;
            }
            let wide = u128::from(set) << 64 | u128::from(x.rotate_left(5));
            let mut rest = wide;
            for k in 0..wide.count_ones() {
                assert_eq!(select128(wide, k), rest.trailing_zeros(), "{wide:#x} {k}");
                rest &= rest - 1;
            }
        }
        assert_eq!(select(u64::MAX, 63), 63);
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("bmi2") {
            for set in [
                0xF_FFFF_FFFF_u64,
                0b1011_0000,
                u64::MAX,
                x,
                x & x.rotate_left(9),
            ] {
                for k in 0..set.count_ones() {
                    // SAFETY: the CPU has BMI2.
                    assert_eq!(
                        unsafe { select_bmi2(set, k) },
                        select(set, k),
                        "{set:#x} {k}"
                    );
                }
                let wide = u128::from(set) << 64 | u128::from(x);
                for k in 0..wide.count_ones() {
                    // SAFETY: the CPU has BMI2.
                    assert_eq!(unsafe { select128_bmi2(wide, k) }, select128(wide, k));
                }
            }
        }
    }
}
