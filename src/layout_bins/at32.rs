// The `hotloops` command linked with every kernel at 32 mod 64 (build.rs, src/host/layout.rs).
include!("../main.rs");
