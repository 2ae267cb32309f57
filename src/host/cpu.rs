//! The host's processor from CPUID, how hotloops classifies its core, and the compiler that
//! built this binary. Bottom layer: imports nothing of the crate.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The compiler that built this binary.
pub fn rustc_version_pinned() -> &'static str {
    env!("HOTLOOPS_RUSTC_VERSION")
}

/// CPUID facts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cpu {
    /// Vendor string.
    pub vendor: String,
    /// Display family.
    pub family: u32,
    /// Display model.
    pub model: u32,
    /// Brand string.
    pub name: String,
    /// Hypervisor bit (CPUID.1:ECX[31]).
    pub hypervisor: bool,
    /// ISA features of leaf 7 that tell core generations apart where the model number
    /// cannot be trusted (under KVM).
    pub features: Features,
}

/// The ISA features the classification looks at (CPUID leaf 7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// AVX512F.
    pub avx512f: bool,
    /// AVX512_VBMI2 (Ice Lake and later).
    pub avx512_vbmi2: bool,
    /// AVX512_FP16 (Sapphire Rapids).
    pub avx512_fp16: bool,
    /// AMX-TILE (Sapphire Rapids and later Xeons).
    pub amx_tile: bool,
    /// Hybrid part (Alder Lake and later clients).
    pub hybrid: bool,
    /// GFNI (Ice Lake, Tremont, Golden Cove...).
    pub gfni: bool,
}

/// Read CPUID.
#[cfg(target_arch = "x86_64")]
pub fn cpu() -> Cpu {
    use std::arch::x86_64::__cpuid;
    let (l0, l1) = (__cpuid(0), __cpuid(1));
    let mut vendor = Vec::with_capacity(12);
    for r in [l0.ebx, l0.edx, l0.ecx] {
        vendor.extend_from_slice(&r.to_le_bytes());
    }
    let base_family = (l1.eax >> 8) & 0xf;
    let ext_family = (l1.eax >> 20) & 0xff;
    let base_model = (l1.eax >> 4) & 0xf;
    let ext_model = (l1.eax >> 16) & 0xf;
    let family = if base_family == 0xf { base_family + ext_family } else { base_family };
    let model = if base_family == 0x6 || base_family == 0xf { (ext_model << 4) | base_model } else { base_model };
    let max_ext = __cpuid(0x8000_0000).eax;
    let mut name = Vec::new();
    if max_ext >= 0x8000_0004 {
        for leaf in 0x8000_0002u32..=0x8000_0004 {
            let r = __cpuid(leaf);
            for x in [r.eax, r.ebx, r.ecx, r.edx] {
                name.extend_from_slice(&x.to_le_bytes());
            }
        }
    }
    let name = String::from_utf8_lossy(&name).trim_matches(char::from(0)).trim().to_string();
    let l7 = if l0.eax >= 7 { std::arch::x86_64::__cpuid_count(7, 0) } else { __cpuid(0) };
    let has7 = l0.eax >= 7;
    let features = Features {
        avx512f: has7 && (l7.ebx >> 16) & 1 == 1,
        avx512_vbmi2: has7 && (l7.ecx >> 6) & 1 == 1,
        avx512_fp16: has7 && (l7.edx >> 23) & 1 == 1,
        amx_tile: has7 && (l7.edx >> 24) & 1 == 1,
        hybrid: has7 && (l7.edx >> 15) & 1 == 1,
        gfni: has7 && (l7.ecx >> 8) & 1 == 1,
    };
    Cpu {
        features,
        vendor: String::from_utf8_lossy(&vendor).into_owned(),
        family,
        model,
        name,
        hypervisor: (l1.ecx >> 31) & 1 == 1,
    }
}

/// Not x86_64: no CPUID.
#[cfg(not(target_arch = "x86_64"))]
pub fn cpu() -> Cpu {
    Cpu { vendor: "unknown".into(), family: 0, model: 0, name: std::env::consts::ARCH.into(), hypervisor: false, features: Features::default() }
}

/// The microarchitectures hotloops has vendor events for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Microarch {
    /// Intel Skylake-family cores (SKL, SKX, KBL, CFL, CML).
    IntelSkylake,
    /// Intel Ice Lake / Tiger Lake (Sunny/Willow Cove).
    IntelIceLake,
    /// Intel Golden Cove and later P-cores (Alder/Raptor Lake P, Sapphire/Emerald Rapids).
    IntelGoldenCove,
    /// Another Intel core: generic events only.
    IntelOther,
    /// AMD Zen 1/2 (family 17h).
    Zen2,
    /// AMD Zen 3/4 (family 19h).
    Zen3,
    /// AMD Zen 5 (family 1Ah).
    Zen5,
    /// Anything else.
    Other,
}

impl fmt::Display for Microarch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Microarch::IntelSkylake => "intel-skylake",
            Microarch::IntelIceLake => "intel-icelake",
            Microarch::IntelGoldenCove => "intel-goldencove",
            Microarch::IntelOther => "intel-other",
            Microarch::Zen2 => "amd-zen1-2",
            Microarch::Zen3 => "amd-zen3-4",
            Microarch::Zen5 => "amd-zen5",
            Microarch::Other => "other",
        })
    }
}

impl Microarch {
    /// Classify from CPUID vendor, family and model.
    pub fn detect(c: &Cpu) -> Microarch {
        match (c.vendor.as_str(), c.family, c.model) {
            ("GenuineIntel", 6, 0x4E | 0x5E | 0x55 | 0x8E | 0x9E | 0xA5 | 0xA6) => Microarch::IntelSkylake,
            ("GenuineIntel", 6, 0x7D | 0x7E | 0x6A | 0x6C | 0x8C | 0x8D | 0xA7) => Microarch::IntelIceLake,
            ("GenuineIntel", 6, 0x97 | 0x9A | 0x8F | 0xB7 | 0xBA | 0xBF | 0xCF | 0xAA | 0xAC | 0xAD | 0xAE) => {
                Microarch::IntelGoldenCove
            }
            ("GenuineIntel", _, _) => Microarch::IntelOther,
            ("AuthenticAMD", 0x17, _) => Microarch::Zen2,
            ("AuthenticAMD", 0x19, _) => Microarch::Zen3,
            ("AuthenticAMD", 0x1A, _) => Microarch::Zen5,
            _ => Microarch::Other,
        }
    }
}


#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpuid_reads_something_real() {
        let c = cpu();
        assert!(!c.vendor.is_empty());
        if cfg!(target_arch = "x86_64") {
            assert!(c.family >= 6, "{c:?}");
        }
    }
}
