"""scripts/pg-first-query.sh --events: one gdb output (pg-first-query-events.gdb) to a line.

argv: the gdb output file, the partition count. Prints `N token...` (A<size> F<space> B<oid>
H<name> C<name> S M<size>:<context>[/<ident>] L<size>:<context>[/<ident>] X<ordinal of an L>,
spaces in names as _), then as comments the bytes used at query 1's
ExecutorEnd in MessageContext and in the session contexts the model creates.
"""
import re
import sys

path, n = sys.argv[1], sys.argv[2]
text = open(path).read()
if "\nEND\n" not in text and not text.startswith("END\n"):
    sys.exit(f"pg-first-query: query 1 never reached ExecutorEnd (is gdb allowed to ptrace? see {path})")
body, dump = text.split("END\n", 1)
toks = []
for line in body.splitlines():
    if line.replace("backend> ", "").strip() == "S":
        toks.append("S")
        continue
    p = line.replace("backend> ", "").split(" ", 1)
    if len(p) != 2:
        continue
    kind, arg = p[0], p[1].strip()
    if kind in ("M", "L"):
        size, _, name = arg.partition(" ")
        if size.isdigit() and name:
            toks.append(f"{kind}{size}:{name.replace(' ', '_')}")
        continue
    if kind in ("A", "F", "B", "X") and arg.isdigit():
        toks.append(kind + arg)
    elif kind in ("H", "C") and arg:
        toks.append(kind + arg.replace(" ", "_"))
print(n, " ".join(toks))
names = "MessageContext|index info|search_path processing cache|Operator lookup cache|TableSpace cache|partition key|partition descriptor"
pat = rf"^ *({names}): (\d+) total in (\d+) blocks; \d+ free \(\d+ chunks\); (\d+) used(?:: (\S+))?"
# The dump lists a context's children newest first: the query's index info contexts lead.
index_infos = toks.count("Cindex_info")
for m in re.finditer(pat, dump, re.M):
    if m.group(1) == "index info":
        if index_infos == 0:
            continue
        index_infos -= 1
    print(f"# {n} partitions: {m.group(1)} {m.group(5) or ''}: {m.group(2)} in {m.group(3)} blocks, {m.group(4)} used")
