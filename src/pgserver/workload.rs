//! A workload for `hotloops pg ab`: a plain file a hacker also runs by hand.
//!
//! A `.sql` workload (`psql -v rows=N -f FILE` runs all of it once) is split by comment lines:
//! - header: `-- hl: var NAME=DEFAULT` (optionally `(full: VALUE)`, what `--full` uses), and
//!   `-- hl: server NAME=VALUE` (postmaster settings the workload needs);
//! - `-- hl: setup`: run once by psql (`-v NAME=VALUE` for every variable) into a data
//!   directory that is cached and copied for each server;
//! - `-- hl: session`: run once per connection, untimed;
//! - `-- hl: measure`: the measured statements, each ending with `;` at the end of a line;
//!   `-- hl: explain NODE TYPE` before one also times that plan node (EXPLAIN ANALYZE is
//!   added by the tool), `-- hl: untimed` before one runs it untimed ahead of the next.
//!
//! A `.pgbench` workload is a pgbench script (`pgbench -f FILE`) whose header says how to make
//! its data: `-- hl: init ARGS` (`pgbench -i` arguments), `-- hl: setup SQL;` (after init,
//! repeatable), `-- hl: server`, `-- hl: pgbench ARGS` (`-M prepared`), `-- hl: var`.

use super::UsageError;
use anyhow::Result;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One measured statement and what runs before it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// The statement (variables substituted).
    pub sql: String,
    /// The plan node to time (`Bitmap Index Scan`), if asked.
    pub explain: Option<String>,
    /// Statements run untimed just before it, each time.
    pub before: Vec<String>,
    /// A short label for tables (`1: SELECT sum(col1) FROM table3 ...`).
    pub label: String,
}

/// What a workload is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Kind {
    /// A `.sql` file: statements timed one by one.
    Sql,
    /// A pgbench script.
    Pgbench {
        /// `pgbench -i` arguments.
        init: Vec<String>,
        /// `pgbench` arguments for every run (`-M prepared`).
        args: Vec<String>,
        /// The script's text (variables left for pgbench).
        script: String,
    },
}

/// A parsed workload.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Workload {
    /// The file.
    pub path: PathBuf,
    /// sha256 of its text (its identity in results and in the data cache).
    pub sha256: String,
    /// Its kind.
    pub kind: Kind,
    /// Variables and their values (defaults, `--full` values, then `--var`).
    pub vars: Vec<(String, String)>,
    /// Postmaster settings.
    pub server: Vec<(String, String)>,
    /// The setup text for psql (`.sql`), or the SQL lines after `pgbench -i`.
    pub setup: String,
    /// Per-connection statements.
    pub session: Vec<String>,
    /// Measured statements (`.sql`), in order.
    pub steps: Vec<Step>,
}

fn usage(path: &Path, line: usize, msg: &str) -> anyhow::Error {
    UsageError(format!("{}:{line}: {msg}", path.display())).into()
}

fn name_value(s: &str) -> Option<(String, String)> {
    let (k, v) = s.split_once('=')?;
    let k = k.trim();
    (!k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')).then(|| (k.to_string(), v.trim().to_string()))
}

/// Replace psql-style `:name` and `:'name'` with their values (not `::casts`); a variable that
/// is not defined is an error naming it.
pub fn substitute(sql: &str, vars: &[(String, String)]) -> std::result::Result<String, String> {
    let b = sql.as_bytes();
    let mut out = String::with_capacity(sql.len());
    let mut i = 0;
    let (mut in_str, mut in_ident) = (false, false);
    while i < b.len() {
        let c = b[i] as char;
        if c == '\'' && !in_ident {
            in_str = !in_str;
        } else if c == '"' && !in_str {
            in_ident = !in_ident;
        }
        if c == ':' && !in_str && !in_ident && i + 1 < b.len() && b[i + 1] != b':' && (i == 0 || b[i - 1] != b':') {
            let quoted = b[i + 1] == b'\'';
            let start = if quoted { i + 2 } else { i + 1 };
            let end = start + b[start..].iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'_').count();
            if end > start && (!quoted || b.get(end) == Some(&b'\'')) {
                let name = &sql[start..end];
                let v = vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()).ok_or_else(|| format!("the variable :{name} is not defined (no `-- hl: var {name}=...` and no --var {name}=...)"))?;
                if quoted {
                    out.push('\'');
                    out.push_str(&v.replace('\'', "''"));
                    out.push('\'');
                    i = end + 1;
                } else {
                    out.push_str(&v);
                    i = end;
                }
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    Ok(out)
}

/// Statements of a section: split at lines ending with `;`, comments dropped.
fn statements(lines: &[(usize, String)]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut first = 0;
    for (n, l) in lines {
        let t = l.trim();
        if t.is_empty() || t.starts_with("--") {
            continue;
        }
        if cur.is_empty() {
            first = *n;
        }
        let code = l.split(" --").next().unwrap_or(l).trim_end();
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(code.trim());
        if code.ends_with(';') {
            out.push((first, std::mem::take(&mut cur)));
        }
    }
    if !cur.is_empty() {
        out.push((first, cur));
    }
    out
}

fn label(i: usize, sql: &str) -> String {
    let one: String = sql.split_whitespace().collect::<Vec<_>>().join(" ");
    let short: String = one.chars().take(60).collect();
    format!("{}: {}{}", i + 1, short, if one.chars().count() > 60 { "..." } else { "" })
}

impl Workload {
    /// Read and parse `path`; `overrides` are `--var NAME=VALUE`; `full` picks the variables'
    /// `(full: VALUE)`.
    pub fn load(path: &Path, overrides: &[String], full: bool) -> Result<Workload> {
        let text = std::fs::read_to_string(path).map_err(|e| UsageError(format!("--workload {}: {e}", path.display())))?;
        let sha256 = format!("{:016x}", super::fnv(&[&text]));
        let pgbench = path.extension().is_some_and(|e| e == "pgbench");
        let mut vars: Vec<(String, String)> = Vec::new();
        let mut server = Vec::new();
        let mut init = Vec::new();
        let mut args = Vec::new();
        let mut setup_sql = Vec::new();
        #[derive(PartialEq)]
        enum Sec {
            Header,
            Setup,
            Session,
            Measure,
        }
        let mut sec = Sec::Header;
        let mut setup = String::new();
        let mut session_lines = Vec::new();
        let mut measure_lines: Vec<(usize, String)> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            let t = line.trim();
            if let Some(d) = t.strip_prefix("-- hl:") {
                let d = d.trim();
                let (word, rest) = d.split_once(char::is_whitespace).map(|(w, r)| (w, r.trim())).unwrap_or((d, ""));
                match word {
                    "var" => {
                        let (spec, full_v) = match rest.split_once("(full:") {
                            Some((s, f)) => (s.trim(), Some(f.trim().trim_end_matches(')').trim().to_string())),
                            None => (rest, None),
                        };
                        let (k, v) = name_value(spec).ok_or_else(|| usage(path, n, "`-- hl: var` takes NAME=VALUE"))?;
                        let v = if full { full_v.unwrap_or(v) } else { v };
                        vars.retain(|(kk, _)| *kk != k);
                        vars.push((k, v));
                    }
                    "server" => server.push(name_value(rest).ok_or_else(|| usage(path, n, "`-- hl: server` takes NAME=VALUE"))?),
                    "init" if pgbench => init.extend(rest.split_whitespace().map(str::to_string)),
                    "pgbench" if pgbench => args.extend(rest.split_whitespace().map(str::to_string)),
                    "setup" if pgbench => {
                        if rest.is_empty() {
                            return Err(usage(path, n, "in a pgbench script `-- hl: setup` takes the SQL on its line"));
                        }
                        setup_sql.push(rest.to_string());
                    }
                    "setup" | "session" | "measure" if !pgbench => {
                        let next = match word {
                            "setup" => Sec::Setup,
                            "session" => Sec::Session,
                            _ => Sec::Measure,
                        };
                        sec = next;
                    }
                    "explain" | "untimed" if !pgbench && sec == Sec::Measure => measure_lines.push((n, line.to_string())),
                    _ => {
                        let known = if pgbench { "var, server, init, setup, pgbench" } else { "var, server, setup, session, measure, explain, untimed (the last two in measure)" };
                        return Err(usage(path, n, &format!("unknown or misplaced directive `-- hl: {word}` (known: {known})")));
                    }
                }
                continue;
            }
            match sec {
                Sec::Header => {}
                Sec::Setup => {
                    setup.push_str(line);
                    setup.push('\n');
                }
                Sec::Session => session_lines.push((n, line.to_string())),
                Sec::Measure => measure_lines.push((n, line.to_string())),
            }
        }
        for o in overrides {
            let (k, v) = name_value(o).ok_or_else(|| UsageError(format!("--var {o}: give NAME=VALUE")))?;
            if !vars.iter().any(|(kk, _)| *kk == k) {
                let names: Vec<&str> = vars.iter().map(|(k, _)| k.as_str()).collect();
                return Err(UsageError(format!("--var {k}: {} declares no such variable (it has: {})", path.display(), if names.is_empty() { "none".into() } else { names.join(", ") })).into());
            }
            vars.retain(|(kk, _)| *kk != k);
            vars.push((k, v));
        }
        let sub = |n: usize, s: &str| substitute(s, &vars).map_err(|m| usage(path, n, &m));
        if pgbench {
            if init.is_empty() {
                return Err(usage(path, 1, "a pgbench workload needs `-- hl: init ARGS` (its `pgbench -i` arguments, e.g. `-s 10`)"));
            }
            let init = init.iter().map(|a| sub(1, a)).collect::<Result<Vec<_>>>()?;
            let args = args.iter().map(|a| sub(1, a)).collect::<Result<Vec<_>>>()?;
            let setup = setup_sql.iter().map(|s| sub(1, s)).collect::<Result<Vec<_>>>()?.join("\n");
            // pgbench sets :scale from -s for a custom script: so does a run without pgbench.
            let mut vars = vars;
            if !vars.iter().any(|(k, _)| k == "scale")
                && let Some(s) = args.windows(2).find(|w| w[0] == "-s").map(|w| w[1].clone()).or_else(|| args.iter().find_map(|a| a.strip_prefix("-s").filter(|x| !x.is_empty()).map(str::to_string)))
            {
                vars.push(("scale".into(), s));
            }
            if !text.lines().any(|l| { let t = l.trim(); !t.is_empty() && !t.starts_with("--") }) {
                return Err(usage(path, 1, "the pgbench script has no command"));
            }
            return Ok(Workload { path: path.to_path_buf(), sha256, kind: Kind::Pgbench { init, args, script: text }, vars, server, setup, session: Vec::new(), steps: Vec::new() });
        }
        if setup.trim().is_empty() && sec == Sec::Header {
            return Err(usage(path, 1, "no `-- hl: setup` / `-- hl: measure` sections (see docs/pg-ab.md for the format)"));
        }
        let session = statements(&session_lines).into_iter().map(|(n, s)| sub(n, &s)).collect::<Result<Vec<_>>>()?;
        // Directives attach to the statement after them: collect statements and directives
        // in file order, then walk them once.
        enum Item {
            Stmt(usize, String),
            Explain(String),
            Untimed,
        }
        let mut items = Vec::new();
        let mut pending: Vec<(usize, String)> = Vec::new();
        for (n, l) in &measure_lines {
            let t = l.trim();
            if let Some(d) = t.strip_prefix("-- hl:") {
                items.extend(statements(&std::mem::take(&mut pending)).into_iter().map(|(n, s)| Item::Stmt(n, s)));
                let d = d.trim();
                items.push(match d.strip_prefix("explain") {
                    Some(node) => Item::Explain(node.trim().to_string()),
                    None => Item::Untimed,
                });
                continue;
            }
            pending.push((*n, l.clone()));
        }
        items.extend(statements(&pending).into_iter().map(|(n, s)| Item::Stmt(n, s)));
        let mut steps: Vec<Step> = Vec::new();
        let (mut explain, mut untimed_next, mut before) = (None, false, Vec::new());
        for item in items {
            match item {
                Item::Explain(node) => explain = Some(node),
                Item::Untimed => untimed_next = true,
                Item::Stmt(n, s) => {
                    let s = sub(n, &s)?;
                    if std::mem::take(&mut untimed_next) {
                        before.push(s);
                    } else {
                        steps.push(Step { label: label(steps.len(), &s), sql: s, explain: explain.take(), before: std::mem::take(&mut before) });
                    }
                }
            }
        }
        if steps.is_empty() {
            return Err(usage(path, 1, "the `-- hl: measure` section has no statement to time"));
        }
        if steps.iter().any(|s| s.sql.trim_start().to_ascii_uppercase().starts_with("EXPLAIN") && s.explain.is_some()) {
            return Err(usage(path, 1, "a statement under `-- hl: explain` must not say EXPLAIN itself (the tool adds EXPLAIN ANALYZE)"));
        }
        Ok(Workload { path: path.to_path_buf(), sha256, kind: Kind::Sql, vars, server, setup, session, steps })
    }

    /// psql `-v` arguments for the setup.
    pub fn psql_vars(&self) -> Vec<(&str, String)> {
        self.vars.iter().map(|(k, v)| (k.as_str(), v.clone())).collect()
    }

    /// The cache key of the data this workload builds on a server of `major`.
    pub fn data_key(&self, major: u32) -> String {
        let vars: Vec<String> = self.vars.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let init = match &self.kind {
            Kind::Pgbench { init, .. } => init.join(" "),
            Kind::Sql => String::new(),
        };
        format!("{major}-{:016x}", super::fnv(&[&self.setup, &vars.join(","), &init]))
    }

    /// The file name, for titles.
    pub fn name(&self) -> String {
        self.path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default()
    }
}

/// A pgbench script's commands for running it without pgbench (one client): `\set` lines and
/// SQL commands, in order.
#[derive(Clone, Debug, PartialEq)]
pub enum ScriptCmd {
    /// `\set NAME EXPR`.
    Set(String, Expr),
    /// An SQL command with `:name` variables.
    Sql(String),
}

/// The subset of pgbench's expressions `pg ab` evaluates itself: integers, variables,
/// `+ - * / %`, parentheses and `random(lo, hi)`.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A literal.
    Int(i64),
    /// `:name` or a bare name.
    Var(String),
    /// `a op b`.
    Bin(Box<Expr>, char, Box<Expr>),
    /// `random(lo, hi)`, inclusive.
    Random(Box<Expr>, Box<Expr>),
    /// `-a`.
    Neg(Box<Expr>),
}

struct P<'a> {
    s: &'a [u8],
    i: usize,
}

impl P<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn expr(&mut self) -> std::result::Result<Expr, String> {
        let mut l = self.term()?;
        loop {
            self.ws();
            match self.s.get(self.i) {
                Some(&c) if c == b'+' || c == b'-' => {
                    self.i += 1;
                    let r = self.term()?;
                    l = Expr::Bin(Box::new(l), c as char, Box::new(r));
                }
                _ => return Ok(l),
            }
        }
    }
    fn term(&mut self) -> std::result::Result<Expr, String> {
        let mut l = self.atom()?;
        loop {
            self.ws();
            match self.s.get(self.i) {
                Some(&c) if c == b'*' || c == b'/' || c == b'%' => {
                    self.i += 1;
                    let r = self.atom()?;
                    l = Expr::Bin(Box::new(l), c as char, Box::new(r));
                }
                _ => return Ok(l),
            }
        }
    }
    fn atom(&mut self) -> std::result::Result<Expr, String> {
        self.ws();
        let Some(&c) = self.s.get(self.i) else { return Err("the expression ends early".into()) };
        if c == b'(' {
            self.i += 1;
            let e = self.expr()?;
            self.ws();
            if self.s.get(self.i) != Some(&b')') {
                return Err("a `)` is missing".into());
            }
            self.i += 1;
            return Ok(e);
        }
        if c == b'-' {
            self.i += 1;
            return Ok(Expr::Neg(Box::new(self.atom()?)));
        }
        if c.is_ascii_digit() {
            let st = self.i;
            while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
                self.i += 1;
            }
            let t = std::str::from_utf8(&self.s[st..self.i]).unwrap_or("0");
            return t.parse().map(Expr::Int).map_err(|_| format!("{t} is out of range"));
        }
        let colon = c == b':';
        if colon {
            self.i += 1;
        }
        let st = self.i;
        while self.i < self.s.len() && (self.s[self.i].is_ascii_alphanumeric() || self.s[self.i] == b'_') {
            self.i += 1;
        }
        let name = std::str::from_utf8(&self.s[st..self.i]).unwrap_or("").to_string();
        if name.is_empty() {
            return Err(format!("unexpected `{}`", c as char));
        }
        self.ws();
        if !colon && self.s.get(self.i) == Some(&b'(') {
            if name != "random" {
                return Err(format!("the function {name}() is not supported here (only random(lo, hi)): run with --clients 2 or more to use pgbench itself"));
            }
            self.i += 1;
            let a = self.expr()?;
            self.ws();
            if self.s.get(self.i) != Some(&b',') {
                return Err("random() takes two arguments".into());
            }
            self.i += 1;
            let b = self.expr()?;
            self.ws();
            if self.s.get(self.i) != Some(&b')') {
                return Err("random() takes two arguments".into());
            }
            self.i += 1;
            return Ok(Expr::Random(Box::new(a), Box::new(b)));
        }
        Ok(Expr::Var(name))
    }
}

/// Parse one pgbench expression.
pub fn parse_expr(s: &str) -> std::result::Result<Expr, String> {
    let mut p = P { s: s.as_bytes(), i: 0 };
    let e = p.expr()?;
    p.ws();
    if p.i != s.len() {
        return Err(format!("unexpected text after the expression: {}", &s[p.i..]));
    }
    Ok(e)
}

impl Expr {
    /// Evaluate with `vars` and draws from `rng` for `random()`.
    pub fn eval(&self, vars: &[(String, String)], rng: &mut impl rand::Rng) -> std::result::Result<i64, String> {
        Ok(match self {
            Expr::Int(i) => *i,
            Expr::Var(n) => vars.iter().rev().find(|(k, _)| k == n).ok_or_else(|| format!("the variable :{n} is not set"))?.1.trim().parse().map_err(|_| format!(":{n} is not an integer"))?,
            Expr::Neg(a) => a.eval(vars, rng)?.checked_neg().ok_or("overflow")?,
            Expr::Random(a, b) => {
                let (lo, hi) = (a.eval(vars, rng)?, b.eval(vars, rng)?);
                if lo > hi {
                    return Err(format!("random({lo}, {hi}): the bounds are reversed"));
                }
                rng.random_range(lo..=hi)
            }
            Expr::Bin(a, op, b) => {
                let (x, y) = (a.eval(vars, rng)?, b.eval(vars, rng)?);
                match op {
                    '+' => x.checked_add(y),
                    '-' => x.checked_sub(y),
                    '*' => x.checked_mul(y),
                    '/' => x.checked_div(y),
                    _ => x.checked_rem(y),
                }
                .ok_or_else(|| format!("{x} {op} {y}: overflow or division by zero"))?
            }
        })
    }
}

/// A pgbench script as [`ScriptCmd`]s; a meta-command other than `\set` is refused, naming it.
pub fn parse_script(path: &Path, text: &str) -> Result<Vec<ScriptCmd>> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with("--") {
            continue;
        }
        if let Some(m) = t.strip_prefix('\\') {
            let (cmd, rest) = m.split_once(char::is_whitespace).unwrap_or((m, ""));
            if cmd != "set" {
                return Err(usage(path, i + 1, &format!("\\{cmd} is not supported with one client (only \\set): run with --clients 2 or more to use pgbench itself")));
            }
            let (name, e) = rest.trim().split_once(char::is_whitespace).ok_or_else(|| usage(path, i + 1, "\\set takes a name and an expression"))?;
            out.push(ScriptCmd::Set(name.to_string(), parse_expr(e.trim()).map_err(|m| usage(path, i + 1, &m))?));
            continue;
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(t);
        if t.ends_with(';') {
            out.push(ScriptCmd::Sql(std::mem::take(&mut cur)));
        }
    }
    if !cur.trim().is_empty() {
        out.push(ScriptCmd::Sql(cur));
    }
    if !out.iter().any(|c| matches!(c, ScriptCmd::Sql(_))) {
        return Err(usage(path, 1, "the pgbench script has no SQL command"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng as _;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn a_sql_workload_splits_into_setup_session_and_steps_with_directives() {
        let d = tempfile::tempdir().unwrap();
        let p = write(
            d.path(),
            "w.sql",
            "-- a test\n-- hl: var rows=1000 (full: 10000)\n-- hl: server shared_buffers=256MB\n\\if :{?rows}\n\\else\n\\set rows 1000\n\\endif\n-- hl: setup\nCREATE TABLE t (a int);\nINSERT INTO t SELECT g FROM generate_series(1, :rows) g;\n-- hl: session\nSET enable_seqscan = off;\n-- hl: measure\n-- hl: explain Bitmap Index Scan\nSELECT count(*)\n  FROM t WHERE a < :rows / 2;\n-- hl: untimed\nSELECT 1;\nSELECT a::text FROM t WHERE a = :'rows';\n",
        );
        let w = Workload::load(&p, &[], false).unwrap();
        assert_eq!(w.vars, [("rows".to_string(), "1000".to_string())]);
        assert_eq!(w.server, [("shared_buffers".to_string(), "256MB".to_string())]);
        assert!(w.setup.contains("generate_series(1, :rows)"), "setup keeps psql's variables for psql: {}", w.setup);
        assert_eq!(w.session, ["SET enable_seqscan = off;"]);
        assert_eq!(w.steps.len(), 2, "{:?}", w.steps);
        assert_eq!(w.steps[0].sql, "SELECT count(*) FROM t WHERE a < 1000 / 2;");
        assert_eq!(w.steps[0].explain.as_deref(), Some("Bitmap Index Scan"));
        assert!(w.steps[0].before.is_empty());
        assert_eq!(w.steps[1].sql, "SELECT a::text FROM t WHERE a = '1000';", "casts stay, quoted variables are quoted");
        assert_eq!(w.steps[1].before, ["SELECT 1;"]);
        assert_eq!(w.steps[1].explain, None);
        let full = Workload::load(&p, &[], true).unwrap();
        assert_eq!(full.vars[0].1, "10000");
        assert_ne!(full.data_key(18), w.data_key(18), "other rows, other data");
        assert_ne!(w.data_key(17), w.data_key(18));
        let over = Workload::load(&p, &["rows=5".into()], true).unwrap();
        assert_eq!(over.vars[0].1, "5", "--var wins over --full");
        let e = Workload::load(&p, &["nope=1".into()], false).unwrap_err();
        assert!(e.is::<UsageError>() && format!("{e}").contains("declares no such variable (it has: rows)"), "{e:#}");
    }

    #[test]
    fn bad_workloads_are_usage_errors_naming_the_line() {
        let d = tempfile::tempdir().unwrap();
        for (text, want) in [
            ("SELECT 1;\n", "no `-- hl: setup`"),
            ("-- hl: setup\nSELECT 1;\n-- hl: measure\n", "no statement to time"),
            ("-- hl: setup\n-- hl: measure\nSELECT :nope;\n", ":nope is not defined"),
            ("-- hl: bogus\n", "unknown or misplaced directive"),
            ("-- hl: setup\n-- hl: measure\n-- hl: explain\nEXPLAIN SELECT 1;\n", "must not say EXPLAIN"),
        ] {
            let p = write(d.path(), "bad.sql", text);
            let e = Workload::load(&p, &[], false).unwrap_err();
            assert!(e.is::<UsageError>() && format!("{e}").contains(want) && format!("{e}").contains("bad.sql:"), "{text:?}: {e:#}");
        }
        let e = Workload::load(&d.path().join("missing.sql"), &[], false).unwrap_err();
        assert!(e.is::<UsageError>(), "{e:#}");
    }

    #[test]
    fn a_pgbench_workload_keeps_its_script_and_init() {
        let d = tempfile::tempdir().unwrap();
        let p = write(d.path(), "r.pgbench", "-- hl: init -s :scale\n-- hl: var scale=10\n-- hl: pgbench -M prepared\n-- hl: setup CREATE INDEX ON pgbench_accounts (bid);\n\\set aid random(1, 100000 * :scale - 2000)\nSELECT abalance FROM pgbench_accounts\n WHERE aid BETWEEN :aid AND :aid + 2000;\n");
        let w = Workload::load(&p, &[], false).unwrap();
        let Kind::Pgbench { init, args, script } = &w.kind else { panic!("{w:?}") };
        assert_eq!(init, &["-s", "10"]);
        assert_eq!(args, &["-M", "prepared"]);
        assert_eq!(w.setup, "CREATE INDEX ON pgbench_accounts (bid);");
        let cmds = parse_script(&p, script).unwrap();
        assert_eq!(cmds.len(), 2, "{cmds:?}");
        let ScriptCmd::Set(name, e) = &cmds[0] else { panic!() };
        assert_eq!(name, "aid");
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
        for _ in 0..200 {
            let v = e.eval(&w.vars, &mut rng).unwrap();
            assert!((1..=998_000).contains(&v), "{v}");
        }
        assert!(matches!(&cmds[1], ScriptCmd::Sql(s) if s == "SELECT abalance FROM pgbench_accounts WHERE aid BETWEEN :aid AND :aid + 2000;"));
        let e = parse_script(&p, "\\sleep 1\nSELECT 1;\n").unwrap_err();
        assert!(format!("{e}").contains("\\sleep is not supported"), "{e:#}");
    }

    #[test]
    fn expressions_follow_precedence_and_refuse_what_they_cannot_do() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
        let vars = vec![("scale".to_string(), "3".to_string())];
        for (s, v) in [("1 + 2 * 3", 7), ("(1 + 2) * 3", 9), ("100000 * :scale", 300000), ("-4 + 10 % 3", -3), ("random(5, 5)", 5)] {
            assert_eq!(parse_expr(s).unwrap().eval(&vars, &mut rng).unwrap(), v, "{s}");
        }
        assert!(parse_expr("exp(1)").unwrap_err().contains("not supported"));
        assert!(parse_expr("1 +").is_err());
        assert!(parse_expr("1 / 0").unwrap().eval(&vars, &mut rng).is_err());
        assert!(parse_expr(":nope").unwrap().eval(&vars, &mut rng).is_err());
    }
}
