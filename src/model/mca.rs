//! Running llvm-mca 19 on a block and reading its JSON (`--json`): cycles per iteration, IPC,
//! µops, dispatch width and the pressure on each resource (port), from which the bottleneck
//! is named.

use anyhow::{Context, Result, anyhow, bail};
use std::io::Write;
use std::process::{Command, Stdio};

/// The llvm-mca binary (Debian's `llvm-19`): LLVM 19 has znver4 and Golden Cove models that
/// the unversioned LLVM 14 `llvm-mca` lacks.
pub const MCA: &str = "llvm-mca-19";
/// The Debian package that provides it.
pub const PACKAGE: &str = "llvm-19";
/// Iterations simulated: enough that the start-up transient is under 1% of the total.
pub const ITERATIONS: u32 = 1000;

/// llvm-mca's figures for one block on one CPU model.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct McaResult {
    /// The CPU model llvm-mca used (`TargetInfo.CPUName`).
    pub cpu: String,
    /// Iterations simulated.
    pub iterations: u64,
    /// Total cycles.
    pub total_cycles: u64,
    /// Cycles per iteration (total / iterations).
    pub cycles_per_iter: f64,
    /// Instructions per cycle.
    pub ipc: f64,
    /// µops per iteration.
    pub uops_per_iter: f64,
    /// Dispatch width of the model.
    pub dispatch_width: u64,
    /// The block's reciprocal throughput from resources alone.
    pub block_rthroughput: f64,
    /// Pressure per resource per iteration, highest first.
    pub pressure: Vec<(String, f64)>,
    /// What limits the block, in words.
    pub bottleneck: String,
}

/// Resource names as llvm-mca's JSON prints them, with the unit index (a control character
/// after the dot) made readable: `Zn4FP45.\u{0}` -> `Zn4FP45.0`.
fn resource_name(raw: &str) -> String {
    raw.chars().map(|c| if (c as u32) < 32 { char::from_digit(c as u32, 10).unwrap_or('?') } else { c }).collect()
}

/// Parse llvm-mca 19's `--json` output (one code region).
pub fn parse_json(text: &str) -> Result<McaResult> {
    let v: serde_json::Value = serde_json::from_str(text).context("llvm-mca output is not JSON")?;
    let region = v["CodeRegions"].get(0).ok_or_else(|| anyhow!("llvm-mca JSON has no code region"))?;
    parse_region(&v, region)
}

/// Parse llvm-mca 19's `--json` output of `n` code regions, in order.
pub fn parse_json_regions(text: &str, n: usize) -> Result<Vec<McaResult>> {
    let v: serde_json::Value = serde_json::from_str(text).context("llvm-mca output is not JSON")?;
    let regions = v["CodeRegions"].as_array().ok_or_else(|| anyhow!("llvm-mca JSON has no code regions"))?;
    if regions.len() != n {
        bail!("llvm-mca JSON has {} code regions for {n} blocks", regions.len());
    }
    regions.iter().map(|r| parse_region(&v, r)).collect()
}

fn parse_region(v: &serde_json::Value, region: &serde_json::Value) -> Result<McaResult> {
    let s = &region["SummaryView"];
    let num = |k: &str| s[k].as_f64().ok_or_else(|| anyhow!("llvm-mca JSON: SummaryView.{k} missing"));
    let iterations = num("Iterations")? as u64;
    let total_cycles = num("TotalCycles")? as u64;
    if iterations == 0 {
        bail!("llvm-mca JSON: zero iterations");
    }
    let n_insns = region["Instructions"].as_array().map_or(0, |a| a.len()) as u64;
    let names: Vec<String> =
        v["TargetInfo"]["Resources"].as_array().map(|a| a.iter().filter_map(|x| x.as_str()).map(resource_name).collect()).unwrap_or_default();
    // The per-resource totals are the entries whose instruction index is one past the last.
    let mut pressure: Vec<(String, f64)> = region["ResourcePressureView"]["ResourcePressureInfo"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter(|e| e["InstructionIndex"].as_u64() == Some(n_insns))
                .filter_map(|e| {
                    let ri = e["ResourceIndex"].as_u64()? as usize;
                    let u = e["ResourceUsage"].as_f64()?;
                    Some((names.get(ri).cloned().unwrap_or_else(|| format!("resource{ri}")), u))
                })
                .collect()
        })
        .unwrap_or_default();
    pressure.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let cycles_per_iter = total_cycles as f64 / iterations as f64;
    let uops_per_iter = num("TotaluOps")? / iterations as f64;
    let dispatch_width = num("DispatchWidth")? as u64;
    let bottleneck = name_bottleneck(cycles_per_iter, uops_per_iter, dispatch_width, &pressure);
    Ok(McaResult {
        cpu: v["TargetInfo"]["CPUName"].as_str().unwrap_or("?").to_string(),
        iterations,
        total_cycles,
        cycles_per_iter,
        ipc: num("IPC")?,
        uops_per_iter,
        dispatch_width,
        block_rthroughput: num("BlockRThroughput")?,
        pressure,
        bottleneck,
    })
}

/// Name what limits a block: a resource busy nearly every cycle, the dispatch width, or
/// (neither) a dependency chain.
pub fn name_bottleneck(cycles: f64, uops: f64, width: u64, pressure: &[(String, f64)]) -> String {
    let top = pressure.first();
    match top {
        Some((name, p)) if *p >= 0.9 * cycles => format!("resource {name} ({p:.2}/iter)"),
        _ if width > 0 && uops / width as f64 >= 0.9 * cycles => format!("dispatch width ({uops:.1} uops, {width}-wide)"),
        _ => match top {
            Some((name, p)) => format!("dependency chain (busiest {name} {p:.2} of {cycles:.2})"),
            None => "dependency chain".to_string(),
        },
    }
}

/// `llvm-mca-19 --version`'s version line, or None if it is not installed.
pub fn version() -> Option<String> {
    let out = crate::host::cleanup::output(Command::new(MCA).arg("--version")).ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines().find(|l| l.contains("LLVM version")).map(|l| l.trim().to_string())
}

/// The message for a missing llvm-mca.
pub fn missing_message() -> String {
    format!("{MCA} is not installed: static core models need it (apt-get install {PACKAGE}, or scripts/install-tools.sh)")
}

/// The triple llvm-mca assembles `cpu`'s blocks for: AArch64 for the Arm cores
/// ([`super::is_arm_cpu`]), x86-64 otherwise.
pub fn triple(cpu: &str) -> &'static str {
    if super::is_arm_cpu(cpu) { "aarch64-linux-gnu" } else { "x86_64-unknown-linux-gnu" }
}

/// The name llvm-mca 19 reports for `cpu` (`TargetInfo.CPUName`): `apple-m1` is an alias of
/// the `apple-a14` model.
pub fn reported_name(cpu: &str) -> &str {
    match cpu {
        "apple-m1" => "apple-a14",
        c => c,
    }
}

/// Run llvm-mca on `asm` (the text of [`super::rewrite::mca_text`]) for `cpu`.
pub fn run(cpu: &str, asm: &str) -> Result<McaResult> {
    let out = invoke(cpu, asm)?;
    checked(cpu, parse_json(&out)?)
}

/// [`run`] for several blocks on one CPU model in one llvm-mca process, each block a code
/// region of its own (simulated alone, as [`run`] simulates it: the per-block start-up of a
/// process is most of a small block's cost). A block llvm-mca cannot take on its own fails
/// the whole input, so on any failure each block is run alone and gets its own answer.
pub fn run_many(cpu: &str, blocks: &[&str]) -> Vec<Result<McaResult>> {
    let joined = regions_text(blocks);
    match invoke(cpu, &joined).and_then(|out| parse_json_regions(&out, blocks.len())) {
        Ok(rs) => rs.into_iter().map(|r| checked(cpu, r)).collect(),
        Err(_) => blocks.iter().map(|b| run(cpu, b)).collect(),
    }
}

/// The blocks as one llvm-mca input: each between region markers, its labels renamed so that
/// no two blocks define the same one (a label's name changes nothing llvm-mca simulates).
pub fn regions_text(blocks: &[&str]) -> String {
    let mut o = String::new();
    for (i, b) in blocks.iter().enumerate() {
        let renamed = b.replace(super::rewrite::BLOCK_LABEL, &format!("{}_r{i}", super::rewrite::BLOCK_LABEL));
        o.push_str(&format!("# LLVM-MCA-BEGIN hl{i}\n{}\n# LLVM-MCA-END hl{i}\n", renamed.trim_end()));
    }
    o
}

/// llvm-mca's JSON for `asm` on `cpu`.
fn invoke(cpu: &str, asm: &str) -> Result<String> {
    // Registered with the one cleanup (the first registration installs the handler): an
    // interrupted model kills the runs in flight and exits 130 only once they are gone.
    let (mut child, _registered) = crate::host::cleanup::spawn(
        crate::host::cleanup::die_with_parent(&mut Command::new(MCA))
            .args([&format!("-mcpu={cpu}"), &format!("-mtriple={}", triple(cpu)), &format!("-iterations={ITERATIONS}"), "--json", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    )
    .with_context(missing_message)?;
    child.stdin.take().expect("piped stdin").write_all(asm.as_bytes()).context("writing to llvm-mca")?;
    let out = child.wait_with_output().context("waiting for llvm-mca")?;
    let err = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        bail!("{MCA} -mcpu={cpu} failed: {}", err.trim());
    }
    if err.contains("not a recognized processor") {
        bail!("{MCA} does not know CPU `{cpu}`");
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// `r` with the CPU name asked for, or an error if llvm-mca ran another.
fn checked(cpu: &str, mut r: McaResult) -> Result<McaResult> {
    if r.cpu == reported_name(cpu) {
        r.cpu = cpu.to_string();
    }
    if r.cpu != cpu {
        bail!("{MCA} ran CPU `{}` for `{cpu}`", r.cpu);
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_names_are_readable() {
        assert_eq!(resource_name("Zn4FP45.\u{1}"), "Zn4FP45.1");
        assert_eq!(resource_name("SKLPort0"), "SKLPort0");
    }

    #[test]
    fn bottlenecks() {
        let p = vec![("P0".to_string(), 2.0), ("P1".to_string(), 1.0)];
        assert!(name_bottleneck(2.05, 4.0, 6, &p).starts_with("resource P0"));
        assert!(name_bottleneck(1.0, 6.0, 6, &[("P0".into(), 0.5)]).starts_with("dispatch width"));
        assert!(name_bottleneck(5.0, 4.0, 6, &p).starts_with("dependency chain"));
    }
}
