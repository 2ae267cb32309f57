# scripts/pg-first-query.sh --events: query 1's reading and planning in MessageContext, event
# by event.
# The aset.c methods see every allocation and free there, whichever API called them (repalloc
# included: a chunk that grows is a new AllocSetAlloc and an AllocSetFree of the old one).
set pagination off
set confirm off
set $q = 0
set $on = 0
# PostgresMain resets MessageContext, then reads the query into it (a 1 KiB StringInfo):
# query 1's events start at that reset.
break MemoryContextReset if $q == 0 && $rdi == *(long *) &MessageContext
commands
silent
set $on = 1
continue
end
break pg_parse_query
commands
silent
set $q = $q + 1
set $on = $q == 1
continue
end
break standard_ExecutorStart
commands
silent
set $on = 0
continue
end
break standard_ExecutorEnd
commands
silent
if $q == 1
printf "END\n"
call (void) MemoryContextStats(*(void **) &TopMemoryContext)
end
continue
end
# The session's first transaction snapshot mallocs CurrentSnapshotData's xid arrays, kept for
# the backend's life (GetSnapshotData): the model needs where in the stream that falls.
break GetTransactionSnapshot if $on
commands
silent
printf "S\n"
continue
end
# A new block of any other context (`M`), or a chunk of its over the chunk limit (`L`, a
# catalog scan's state, freed with the scan): its malloc, with the context's name and ident
# (MemoryContextData.name and .ident, at offsets 56 and 64 on 18), so the model can keep the
# session-long blocks (the local lock table's, the smgr table's, pgstat's) where they fall.
# An `L` chunk's free is `X K`, K its ordinal among the `L`s: the holes it leaves decide where
# later blocks land. (The block malloc returned is matched at free(), wherever that is called.)
python
import gdb
large_live, large_seen = {}, [0]
class LargeMalloc(gdb.FinishBreakpoint):
    def __init__(self, n):
        super().__init__(gdb.newest_frame(), internal=True)
        self.n = n
    def stop(self):
        large_live[int(self.return_value)] = self.n
        return False
    def out_of_scope(self):
        pass
class LargeFree(gdb.Breakpoint):
    def stop(self):
        n = large_live.pop(int(gdb.parse_and_eval("$rdi")), None)
        if n is not None:
            print(f"X {n}")
        return False
LargeFree("free", internal=True)
end
set $nb = 0
break AllocSetAllocFromNewBlock if $on && $rdi != *(long *) &MessageContext
commands
silent
set $nb = 1
set $nbctx = $rdi
continue
end
break AllocSetAllocLarge if $on && $rdi != *(long *) &MessageContext
commands
silent
set $nb = 2
set $nbctx = $rdi
continue
end
break malloc if $on && $nb
commands
silent
if $nb == 1
printf "M "
else
printf "L "
python LargeMalloc(large_seen[0]); large_seen[0] += 1
end
if *(long *) ((char *) $nbctx + 64) != 0
printf "%lu %s/%s\n", $rdi, *(char **) ((char *) $nbctx + 56), *(char **) ((char *) $nbctx + 64)
else
printf "%lu %s\n", $rdi, *(char **) ((char *) $nbctx + 56)
end
set $nb = 0
continue
end
break hash_create if $on
commands
silent
printf "H %s\n", (char *) $rdi
continue
end
break RelationBuildDesc if $on
commands
silent
printf "B %u\n", $rdi
continue
end
break AllocSetContextCreateInternal if $on
commands
silent
printf "C %s\n", (char *) $rsi
continue
end
break AllocSetAlloc if $on && $rdi == *(long *) &MessageContext
commands
silent
printf "A %lu\n", $rsi
continue
end
break AllocSetFree if $on && (long) GetMemoryChunkContext($rdi) == *(long *) &MessageContext
commands
silent
printf "F %lu\n", (unsigned long) GetMemoryChunkSpace($rdi)
continue
end
