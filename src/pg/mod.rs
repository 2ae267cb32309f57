//! Faithful models of the PostgreSQL structures the hot loops touch. Layouts match
//! `../shared/reference/postgres-hot-loops.md` (§9's table is asserted at compile time).

pub mod amapi;
pub mod array;
pub mod bloom;
pub mod bufmgr;
pub mod checksum;
pub mod cmodel;
pub mod elog;
pub mod execnodes;
pub mod fmgr;
pub mod itemptr;
pub mod mcxt;
pub mod nodes;
pub mod nbtpreprocesskeys;
pub mod nbtree;
pub mod nbtreadpage;
pub mod nbtscan;
pub mod nbtsearch;
pub mod page;
pub mod pagedam;
pub mod pgstat;
pub mod predicate;
pub mod qsort;
pub mod read_stream;
pub mod sink;
pub mod tidbitmap;
pub mod workload;

pub use itemptr::{BlockNumber, ItemPointer, OffsetNumber};
