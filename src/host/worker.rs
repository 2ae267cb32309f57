//! The one fresh-process protocol: `hotloops worker` reads one JSON [`Request`] line on stdin
//! and answers with JSON [`Reply`] lines on stdout. A request names variants, cases and sizes
//! by id only; the handlers live in the layer that owns the work (trials in `measure`, a
//! backend that serves queries in the study, a sweep point in `report`) and `main.rs` routes
//! to them. A [`Serve`](Request::Serve) session goes on reading [`Message`] lines until
//! `quit` or the end of stdin.
//!
//! The client ([`Worker`]) starts the `hotloops` binary ([`exe`]), checks every reply, and
//! kills its child when dropped, so no worker outlives the client, on error or panic alike.
//! The child also watches its stdin ([`watch_parent`]): when the parent is gone (even killed
//! outright) stdin ends and the child exits. So a client keeps stdin open until the reply
//! (by hand: `(echo '{"request": "probe", "free_mmap": null}'; cat) | hotloops worker`).

use anyhow::{Context, Result, anyhow, bail};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};

/// The hidden `hotloops` subcommand that serves one request.
pub const SUBCOMMAND: &str = "worker";

/// One request to a fresh `hotloops worker` process. Sizes are `Size::name`s.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "request", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Request {
    /// The ABBA/BAAB trials of one wall-clock pair (`report --processes`): replies with the
    /// trials.
    Trials {
        /// Baseline variant id.
        a: String,
        /// Variant id of the same study.
        b: String,
        /// Case id.
        case: String,
        /// Workload size.
        size: String,
        /// Wall-clock budget, ms.
        budget_ms: u64,
        /// Target block length, us.
        block_us: u64,
    },
    /// The trials of several pairs on one case, built once (the report's wall clock under
    /// one code layout: the binary the worker was started from): replies with one
    /// `PairTrials` per pair, in order.
    CaseTrials {
        /// Case id.
        case: String,
        /// Workload size.
        size: String,
        /// (baseline, variant) ids, one study.
        pairs: Vec<(String, String)>,
        /// Wall-clock budget per pair, ms.
        budget_ms: u64,
        /// Target block length, us.
        block_us: u64,
        /// Fewest trials a pair (the pair's share of its report's minimum over the layouts).
        min_trials: usize,
        /// Bytes allocated (and kept) before the workload, to move the heap.
        heap_pad: usize,
        /// The client's cargo features: a worker built with others refuses (its pipeline
        /// variants would differ).
        features: Vec<String>,
    },
    /// A backend of one alloc-churn variant, in a heap of its own: replies `ready`, then
    /// answers [`Message::Run`] with a digest and [`Message::Ping`] with `pong`.
    Serve {
        /// Variant id.
        variant: String,
        /// Rows.
        accounts: u64,
        /// Partitions.
        partitions: usize,
        /// Queries a run.
        queries: u32,
        /// Query constant.
        key: i64,
    },
    /// One alloc-churn sweep point, measured in this fresh process: replies with the point.
    Point {
        /// Variant id.
        variant: String,
        /// Partitions.
        partitions: usize,
        /// How the plan scans each partition (`index-only` or `index`; the study's
        /// `ScanForm` ids).
        #[serde(default = "index_only")]
        form: String,
        /// Rows.
        accounts: u64,
        /// Query constant.
        key: i64,
        /// Target timed duration, ms.
        target_ms: u64,
        /// Fewest timed queries.
        min_queries: u32,
        /// Most timed queries.
        max_queries: u32,
    },
    /// glibc's trim probe of a fresh process, after freeing an mmap'd chunk of `free_mmap`
    /// bytes first if asked.
    Probe {
        /// Bytes of the chunk to malloc and free first.
        free_mmap: Option<usize>,
    },
    /// alloc-churn variants run in order through one case in this process, then the probe
    /// (the isolation tests).
    Sequence {
        /// Variant ids or short names, in order.
        variants: Vec<String>,
        /// Partitions.
        partitions: usize,
        /// Dedicate the process to this variant first, as `hotloops run` does.
        dedicate: Option<String>,
    },
}

impl Request {
    /// The request's name in the protocol (`trials`, `serve`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            Request::Trials { .. } => "trials",
            Request::CaseTrials { .. } => "case-trials",
            Request::Serve { .. } => "serve",
            Request::Point { .. } => "point",
            Request::Probe { .. } => "probe",
            Request::Sequence { .. } => "sequence",
        }
    }
}

fn index_only() -> String {
    "index-only".into()
}

/// A line a client sends after a [`Request::Serve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Message {
    /// Run one batch of queries; the reply is its digest.
    Run,
    /// Answer `pong` (round-trip time).
    Ping,
    /// End the session.
    Quit,
}

/// One line a worker writes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reply {
    /// The answer.
    Ok(serde_json::Value),
    /// The request failed with this message; `usage` when the request itself was bad (a
    /// malformed line, an unknown id).
    Error {
        /// What went wrong.
        message: String,
        /// A bad request rather than a failed measurement.
        usage: bool,
    },
}

/// A request or message line that is not one of this protocol's.
#[derive(Debug)]
pub struct BadRequest(pub String);

impl std::fmt::Display for BadRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadRequest {}

/// Parse a request line, with a message that says what is wrong and what is expected.
pub fn parse_request(line: &str) -> Result<Request, BadRequest> {
    let line = line.trim();
    if line.is_empty() {
        return Err(BadRequest("hotloops worker: no request on stdin (expected one JSON line such as {\"request\": \"probe\", \"free_mmap\": null})".into()));
    }
    serde_json::from_str(line).map_err(|e| {
        BadRequest(format!(
            "hotloops worker: malformed request `{}`: {e} (requests: trials, case-trials, serve, point, probe, sequence)",
            line.chars().take(200).collect::<String>()
        ))
    })
}

/// Parse a session line.
pub fn parse_message(line: &str) -> Result<Message, BadRequest> {
    serde_json::from_str(line.trim()).map_err(|e| BadRequest(format!("hotloops worker: malformed message `{}`: {e} (messages: \"run\", \"ping\", \"quit\")", line.trim())))
}

/// The `hotloops` binary to start workers from: `$HOTLOOPS_EXE`, else this executable if it
/// is `hotloops` or a `hotloops-layout-*` twin, else `hotloops` one directory up (a test or bench binary in
/// `target/<profile>/deps`).
pub fn exe() -> Result<PathBuf> {
    if let Some(p) = std::env::var_os("HOTLOOPS_EXE") {
        return Ok(PathBuf::from(p));
    }
    let me = std::env::current_exe().context("finding the current executable")?;
    // `hotloops` or one of its code-layout twins (`hotloops-layout-at-16`), whose workers
    // must share its layout.
    if me.file_stem().and_then(|s| s.to_str()).is_some_and(|s| s == "hotloops" || s.starts_with("hotloops-layout-")) {
        return Ok(me);
    }
    let up = me.parent().and_then(|d| d.parent()).map(|d| d.join(format!("hotloops{}", std::env::consts::EXE_SUFFIX)));
    match up {
        Some(p) if p.is_file() => Ok(p),
        _ => bail!(
            "hotloops measures in fresh `hotloops worker` processes, but {} is not the hotloops binary and none was found \
             beside it; set HOTLOOPS_EXE to the hotloops binary",
            me.display()
        ),
    }
}

/// A `hotloops worker` child serving one request. Dropping it kills the child.
pub struct Worker {
    child: Child,
    to: Option<ChildStdin>,
    from: BufReader<ChildStdout>,
    /// The child's stderr: an unnamed temporary file (nothing to clean up, no pipe to fill).
    err: File,
    what: String,
    /// Killed by the signal handler while registered ([`super::cleanup`]).
    _registered: super::cleanup::ChildGuard,
}

impl Worker {
    /// Start a worker and send it `req`.
    pub fn start(req: &Request) -> Result<Worker> {
        Self::start_with(&exe()?, req)
    }

    /// [`start`](Self::start) from a given `hotloops` binary.
    pub fn start_with(exe: &std::path::Path, req: &Request) -> Result<Worker> {
        Self::start_env(exe, req, &[])
    }

    /// [`start_with`](Self::start_with), with these environment variables set in the child.
    pub fn start_env(exe: &std::path::Path, req: &Request, env: &[(&str, String)]) -> Result<Worker> {
        let what = describe(req);
        let err = tempfile::tempfile().context("a file for a worker's stderr")?;
        let mut cmd = Command::new(exe);
        super::affinity::every_core_for(&mut cmd);
        let (mut child, registered) = super::cleanup::spawn(
            cmd.envs(env.iter().map(|(k, v)| (*k, v.as_str()))).arg(SUBCOMMAND).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(err.try_clone()?),
        )
        .with_context(|| format!("starting a worker process ({what})"))?;
        let to = child.stdin.take().context("worker stdin")?;
        let from = BufReader::new(child.stdout.take().context("worker stdout")?);
        let mut w = Worker { child, to: Some(to), from, err, what, _registered: registered };
        let line = serde_json::to_string(req)?;
        w.write_line(&line)?;
        Ok(w)
    }

    /// The child's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    fn write_line(&mut self, line: &str) -> Result<()> {
        let to = self.to.as_mut().ok_or_else(|| anyhow!("worker ({}): its stdin is closed", self.what))?;
        writeln!(to, "{line}").and_then(|_| to.flush()).with_context(|| format!("writing to the worker ({})", self.what))
    }

    /// Send a session message.
    pub fn send(&mut self, m: Message) -> Result<()> {
        self.write_line(&serde_json::to_string(&m)?)
    }

    /// Read the next reply as a `T`; the worker's error, or its end with its stderr and exit
    /// status, is an error.
    pub fn reply<T: DeserializeOwned>(&mut self) -> Result<T> {
        let mut line = String::new();
        let n = self.from.read_line(&mut line).with_context(|| format!("reading from the worker ({})", self.what))?;
        if n == 0 {
            let status = self.child.wait().ok().map_or("no status".into(), |s| s.to_string());
            let err = self.stderr();
            bail!("worker ({}) ended without replying ({status}): {err}", self.what);
        }
        let reply: Reply = serde_json::from_str(line.trim())
            .with_context(|| format!("worker ({}) answered `{}`, not a reply of this protocol", self.what, line.trim()))?;
        match reply {
            Reply::Ok(v) => serde_json::from_value(v).with_context(|| format!("worker ({}): an unexpected reply `{}`", self.what, line.trim())),
            Reply::Error { message, usage } => {
                let e = anyhow!("worker ({}): {message}", self.what);
                Err(if usage { e.context(BadRequest("the worker refused the request".into())) } else { e })
            }
        }
    }

    /// Send `m` and read its reply.
    pub fn call<T: DeserializeOwned>(&mut self, m: Message) -> Result<T> {
        self.send(m)?;
        self.reply()
    }

    /// Close the child's stdin and wait for it; an error if it failed.
    pub fn finish(mut self) -> Result<()> {
        drop(self.to.take());
        let status = self.child.wait().with_context(|| format!("waiting for the worker ({})", self.what))?;
        if !status.success() {
            let err = self.stderr();
            bail!("worker ({}) failed ({status}): {err}", self.what);
        }
        Ok(())
    }

    fn stderr(&mut self) -> String {
        let mut s = String::new();
        let _ = self.err.rewind().and_then(|_| self.err.read_to_string(&mut s));
        s.trim().to_string()
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        drop(self.to.take());
        // Already gone after `finish` or an end seen in `reply`: kill then fails, harmlessly.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn describe(req: &Request) -> String {
    match req {
        Request::Trials { a, b, case, .. } => format!("trials {b} vs {a} on {case}"),
        Request::CaseTrials { case, pairs, .. } => format!("{} pairs on {case}", pairs.len()),
        Request::Serve { variant, partitions, .. } => format!("serve {variant} at {partitions} partitions"),
        Request::Point { variant, partitions, form, .. } => format!("point {variant} at {partitions} partitions ({form} scans)"),
        Request::Probe { .. } => "probe".into(),
        Request::Sequence { variants, .. } => format!("sequence {}", variants.join(" ")),
    }
}

/// One request, one reply, then the worker's clean exit.
pub fn one_shot<T: DeserializeOwned>(req: &Request) -> Result<T> {
    let mut w = Worker::start(req)?;
    let r = w.reply()?;
    w.finish()?;
    Ok(r)
}

/// [`one_shot`] from a given binary with these environment variables.
pub fn one_shot_env<T: DeserializeOwned>(exe: &std::path::Path, req: &Request, env: &[(&str, String)]) -> Result<T> {
    let mut w = Worker::start_env(exe, req, env)?;
    let r = w.reply()?;
    w.finish()?;
    Ok(r)
}

// ---------------------------------------------------------------------------------------------
// The worker's side.

/// The worker's end of the pipes.
pub struct Server {
    output: std::io::StdoutLock<'static>,
}

impl Server {
    /// This process's stdin and stdout.
    pub fn stdio() -> Server {
        Server { output: std::io::stdout().lock() }
    }

    /// Read the request line.
    pub fn request(&mut self) -> Result<Request> {
        let mut line = String::new();
        std::io::stdin().read_line(&mut line).context("hotloops worker: reading the request")?;
        Ok(parse_request(&line)?)
    }

    /// The next session message; None at the end of stdin (the client is gone).
    pub fn message(&mut self) -> Result<Option<Message>> {
        let mut line = String::new();
        if std::io::stdin().read_line(&mut line).context("hotloops worker: reading a message")? == 0 {
            return Ok(None);
        }
        Ok(Some(parse_message(&line)?))
    }

    /// Write a reply.
    pub fn ok<T: Serialize>(&mut self, value: &T) -> Result<()> {
        self.write(&Reply::Ok(serde_json::to_value(value)?))
    }

    /// Write an error reply.
    pub fn error(&mut self, message: &str, usage: bool) -> Result<()> {
        self.write(&Reply::Error { message: message.to_string(), usage })
    }

    fn write(&mut self, r: &Reply) -> Result<()> {
        let line = serde_json::to_string(r)?;
        // Before the write: a client may close stdin the moment it has read the line.
        REPLIED.store(true, Ordering::SeqCst);
        writeln!(self.output, "{line}")?;
        self.output.flush()?;
        Ok(())
    }

    /// Hand stdin to [`watch_parent`] (for requests that read nothing more).
    pub fn watch_parent(&self) {
        watch_parent();
    }
}

/// Set once a reply is out: a client that closes stdin after it is finishing, not leaving.
static REPLIED: AtomicBool = AtomicBool::new(false);

/// Exit code of a worker whose client left before its reply.
pub const EXIT_CLIENT_GONE: i32 = 3;

/// Exit this process (code [`EXIT_CLIENT_GONE`]) when stdin ends before a reply was written:
/// the client closed it or died, so a worker measuring for seconds never outlives it. A
/// client keeps stdin open until it has its reply ([`Worker::finish`] then closes it).
pub fn watch_parent() {
    std::thread::spawn(move || {
        let mut input = std::io::stdin().lock();
        let mut buf = [0u8; 64];
        loop {
            match input.read(&mut buf) {
                Ok(0) | Err(_) if REPLIED.load(Ordering::SeqCst) => return,
                Ok(0) | Err(_) => std::process::exit(EXIT_CLIENT_GONE),
                Ok(_) => {}
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_round_trip_and_bad_lines_say_why() {
        let reqs = [
            Request::Trials { a: "x/a".into(), b: "x/b".into(), case: "c".into(), size: "test".into(), budget_ms: 40, block_us: 2000 },
            Request::Serve { variant: "alloc-churn/palloc-routine".into(), accounts: 10, partitions: 2, queries: 3, key: -1 },
            Request::Probe { free_mmap: Some(1 << 20) },
            Request::Sequence { variants: vec!["a".into()], partitions: 4, dedicate: None },
        ];
        for r in &reqs {
            let line = serde_json::to_string(r).unwrap();
            assert!(line.contains(&format!("\"request\":\"{}\"", r.name())), "{line}");
            assert_eq!(&parse_request(&line).unwrap(), r);
        }
        let e = parse_request("{\"request\": \"trials\", \"a\": \"x\"}").unwrap_err().to_string();
        assert!(e.contains("malformed request") && e.contains("missing field"), "{e}");
        let e = parse_request("{\"request\": \"dance\"}").unwrap_err().to_string();
        assert!(e.contains("unknown variant `dance`"), "{e}");
        let e = parse_request("{\"request\": \"probe\", \"free_mmap\": null, \"extra\": 1}").unwrap_err().to_string();
        assert!(e.contains("unknown field `extra`"), "{e}");
        assert!(parse_request("").unwrap_err().to_string().contains("no request"));
        assert_eq!(parse_message("\"run\"\n").unwrap(), Message::Run);
        assert!(parse_message("run").unwrap_err().to_string().contains("malformed message"));
    }
}
