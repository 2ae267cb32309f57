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
