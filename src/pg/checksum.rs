//! Data checksums (`pg_checksum_page`): 32 FNV-1a-style lanes over the page's 32-bit words,
//! two rounds of zeroes, the lanes folded by xor, the block number mixed in, reduced to 16
//! bits with an offset of one (so 0 never appears). 18's `initdb` turns data checksums on by
//! default, so every page an 18 server reads from the OS is checksummed before its header is
//! checked (`PageIsVerified`); 15 and 17 default to off. The lane count and the 32 starting
//! values are part of the algorithm: a different parallelism gives different checksums.

use crate::pg::page::BLCKSZ;

/// Lanes hashed side by side.
const N_SUMS: usize = 32;
/// The FNV-1a prime.
const FNV_PRIME: u32 = 16_777_619;
/// Each lane's starting state.
const BASE_OFFSETS: [u32; N_SUMS] = [
    0x5B1F36E9, 0xB8525960, 0x02AB50AA, 0x1DE66D2A, 0x79FF467A, 0x9BB9F8A3, 0x217E7CD2, 0x83E13D2C, 0xF8D4474F, 0xE39EB970, 0x42C6AE16,
    0x993216FA, 0x7B093B5D, 0x98DAFF3C, 0xF718902A, 0x0B1C9CDB, 0xE58F764B, 0x187636BC, 0x5D7B3BB1, 0xE73DE7DE, 0x92BEC979, 0xCCA6C0B2,
    0x304A0979, 0x85AA43D4, 0x783125BB, 0x6CA8EAA2, 0xE407EAC6, 0x4B5CFC3E, 0x9FBF8C76, 0x15CA20BE, 0xF2CA9FD3, 0x959BD756,
];
/// Where `pd_checksum` sits in the page header (after the 8-byte LSN).
pub const PD_CHECKSUM: usize = 8;
/// Where `pd_upper` sits (0 on a new page).
const PD_UPPER: usize = 14;

#[inline(always)]
fn comp(sum: u32, value: u32) -> u32 {
    let t = sum ^ value;
    t.wrapping_mul(FNV_PRIME) ^ (t >> 17)
}

/// `pg_checksum_page`: the page's checksum as block `blkno`, computed as if its
/// `pd_checksum` were 0 (the field is zeroed for the computation and restored, as
/// PostgreSQL does). Out of line, as in 18's profile.
#[inline(never)]
pub fn pg_checksum_page(page: &mut [u8; BLCKSZ], blkno: u32) -> u16 {
    let saved = [page[PD_CHECKSUM], page[PD_CHECKSUM + 1]];
    page[PD_CHECKSUM] = 0;
    page[PD_CHECKSUM + 1] = 0;
    let mut sums = BASE_OFFSETS;
    for row in page.chunks_exact(4 * N_SUMS) {
        for (s, w) in sums.iter_mut().zip(row.chunks_exact(4)) {
            *s = comp(*s, u32::from_ne_bytes([w[0], w[1], w[2], w[3]]));
        }
    }
    for _ in 0..2 {
        for s in sums.iter_mut() {
            *s = comp(*s, 0);
        }
    }
    page[PD_CHECKSUM] = saved[0];
    page[PD_CHECKSUM + 1] = saved[1];
    let folded = sums.iter().fold(0u32, |a, s| a ^ s) ^ blkno;
    ((folded % 65535) + 1) as u16
}

/// `PageSetChecksumInplace`: store the page's checksum as block `blkno` (a new page,
/// `pd_upper == 0`, keeps none).
pub fn set_checksum(page: &mut [u8; BLCKSZ], blkno: u32) {
    if page[PD_UPPER] == 0 && page[PD_UPPER + 1] == 0 {
        return;
    }
    let c = pg_checksum_page(page, blkno);
    page[PD_CHECKSUM..PD_CHECKSUM + 2].copy_from_slice(&c.to_ne_bytes());
}

/// The checksum stored in the page header.
pub fn stored(page: &[u8; BLCKSZ]) -> u16 {
    u16::from_ne_bytes([page[PD_CHECKSUM], page[PD_CHECKSUM + 1]])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Block 3 of a relation in a PostgreSQL 18.6 cluster that `initdb` set up with its
    /// defaults (a table3 heap or index page, as the server wrote it).
    const SERVER_PAGE: &[u8; BLCKSZ] = include_bytes!("../../tests/fixtures/pg18-block3.page");

    #[test]
    fn the_servers_own_page_carries_the_checksum_we_compute() {
        let mut p = *SERVER_PAGE;
        assert_ne!(stored(&p), 0, "the fixture was written with checksums on");
        assert_eq!(pg_checksum_page(&mut p, 3), stored(SERVER_PAGE));
        assert_eq!(&p, SERVER_PAGE, "pd_checksum is restored");
        // The block number and every byte are in it.
        assert_ne!(pg_checksum_page(&mut p, 4), stored(SERVER_PAGE));
        p[5000] ^= 1;
        assert_ne!(pg_checksum_page(&mut p, 3), stored(SERVER_PAGE));
    }

    #[test]
    fn a_set_checksum_verifies_and_a_new_page_keeps_none() {
        let mut p = crate::pg::page::Page::new(16).0;
        p[200] = 7;
        set_checksum(&mut p, 9);
        assert_eq!(pg_checksum_page(&mut p, 9), stored(&p));
        assert_ne!(stored(&p), 0);
        let mut z = [0u8; BLCKSZ];
        set_checksum(&mut z, 1);
        assert!(z.iter().all(|b| *b == 0));
    }
}
