//! C asm snapshots (filled in below).
