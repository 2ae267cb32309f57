/*
 * hl_alloctrace: an LD_PRELOAD malloc tracer for "who allocates" (hotloops, seed 004).
 *
 * Loaded into a single-user PostgreSQL backend, it records every malloc-family call of at
 * least HL_ALLOCTRACE_MIN bytes (default 4096: AllocSet blocks and the chunks above its 8 KiB
 * chunk limit, which go straight to malloc) with the caller's stack, and per segment between
 * two marks the program break's movements (the heap's high-water mark, grows and trims) and
 * the chunks glibc served with mmap. Marks come from SQL through hl_btree's
 * hl_alloctrace_mark(text), which calls hl_alloctrace_segment() here when it is loaded.
 *
 * Output (HL_ALLOCTRACE=PATH, one text file): per segment
 *   Q label brk_start brk_max brk_end grows trims mmaps munmaps mmap_thr trim_thr arena free
 *   M size mmapped frame frame ...      (frames as file+0xoffset, innermost first)
 * mmap_thr and trim_thr are glibc's dynamic thresholds as its free() sets them (a freed mmap'd
 * chunk larger than the threshold, up to 32 MiB, raises the mmap threshold to its size and the
 * trim threshold to twice that; a MALLOC_*_ variable switches this off), followed from the
 * process's start, fork included; arena and free are mallinfo2's heap size and free bytes when
 * the segment began.
 * Nothing is recorded before the first mark. A backend is one thread; the guard below keeps the
 * tracer's own allocations (backtrace's first dlopen) out of the record.
 *
 * Written for hotloops; the glibc facts used: __libc_malloc and friends are exported, and a
 * chunk's size word (just below the pointer) has bit 1 set when mmap served it.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>
#include <malloc.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);

void		hl_alloctrace_segment(const char *label);

#define HL_DEPTH 12
#define HL_BUF (1 << 16)

static int	hl_fd = -1;
static void *hl_self;			/* this library's load address: its frames are skipped */
static uintptr_t hl_exe_base;	/* the program's load address, and its path: a backend */
static char hl_exe[4096];		/* rewrites argv[0] (its ps title), which dladdr reports */
static int	hl_active;
static size_t hl_min = 4096;
static __thread int hl_busy;
static char hl_buf[HL_BUF];
static size_t hl_len;

/* The current segment's program-break figures. */
static uintptr_t hl_brk_start, hl_brk_max, hl_brk_last;
static long hl_grows, hl_trims, hl_mmaps, hl_munmaps;
static char hl_label[64] = "";
static size_t hl_arena_start, hl_free_start;

/* glibc's dynamic thresholds, followed from the start (and inherited across fork). */
static size_t hl_mmap_thr = 128 * 1024;
static int	hl_dynamic = 1;

static void
hl_flush(void)
{
	size_t		off = 0;

	while (hl_fd >= 0 && off < hl_len)
	{
		ssize_t		n = write(hl_fd, hl_buf + off, hl_len - off);

		if (n <= 0)
			break;
		off += (size_t) n;
	}
	hl_len = 0;
}

static void
hl_put(const char *s, size_t n)
{
	if (hl_len + n > HL_BUF)
		hl_flush();
	if (n > HL_BUF)
		n = HL_BUF;
	memcpy(hl_buf + hl_len, s, n);
	hl_len += n;
}

static int
hl_mmapped(const void *p)
{
	return p != NULL && (((const size_t *) p)[-1] & 2) != 0;
}

/* Before an mmap'd chunk is freed: glibc's threshold update (malloc.c, __libc_free). */
static void
hl_before_free(const void *p)
{
	size_t		size;

	if (!hl_mmapped(p))
		return;
	if (hl_active && !hl_busy)
		hl_munmaps++;
	size = ((const size_t *) p)[-1] & ~(size_t) 7;
	if (hl_dynamic && size > hl_mmap_thr && size <= 32 * 1024 * 1024)
		hl_mmap_thr = size;
}

/* The break after a call: a grow or a trim since the last look. */
static void
hl_look_at_brk(void)
{
	uintptr_t	b = (uintptr_t) sbrk(0);

	if (b > hl_brk_last)
		hl_grows++;
	else if (b < hl_brk_last)
		hl_trims++;
	hl_brk_last = b;
	if (b > hl_brk_max)
		hl_brk_max = b;
}

__attribute__((noinline)) static void
hl_record(size_t size, void *p)
{
	void	   *frames[HL_DEPTH];
	char		line[2048];
	int			n,
				len;

	hl_busy = 1;
	n = backtrace(frames, HL_DEPTH);
	len = snprintf(line, sizeof line, "M %zu %d", size, hl_mmapped(p));
	for (int i = 0; i < n && len < (int) sizeof line - 80; i++)
	{
		Dl_info		info = {0};
		int			found = dladdr(frames[i], &info);

		if (found && info.dli_fbase == hl_self)
			continue;			/* the tracer's own frames */
		if (found && (uintptr_t) info.dli_fbase == hl_exe_base && hl_exe[0])
			info.dli_fname = hl_exe;
		if (found && info.dli_fname)
			len += snprintf(line + len, sizeof line - len, " %s+0x%lx", info.dli_fname,
							(unsigned long) ((uintptr_t) frames[i] - (uintptr_t) info.dli_fbase));
		else
			len += snprintf(line + len, sizeof line - len, " ?+0x%lx", (unsigned long) (uintptr_t) frames[i]);
	}
	line[len++] = '\n';
	hl_put(line, (size_t) len);
	hl_busy = 0;
}

static void
hl_after(size_t size, void *p)
{
	if (!hl_active || hl_busy)
		return;
	if (hl_mmapped(p))
		hl_mmaps++;
	hl_look_at_brk();
	if (p != NULL && size >= hl_min)
		hl_record(size, p);
}

static void
hl_end_segment(void)
{
	char		line[256];
	int			len;

	if (!hl_active)
		return;
	hl_look_at_brk();
	len = snprintf(line, sizeof line, "Q %s %lu %lu %lu %ld %ld %ld %ld %zu %zu %zu %zu\n", hl_label,
				   (unsigned long) hl_brk_start, (unsigned long) hl_brk_max, (unsigned long) hl_brk_last,
				   hl_grows, hl_trims, hl_mmaps, hl_munmaps,
				   hl_dynamic ? hl_mmap_thr : 0, hl_dynamic ? 2 * hl_mmap_thr : 0, hl_arena_start, hl_free_start);
	hl_put(line, (size_t) len);
	hl_flush();
}

/* End the running segment and start one named `label` (the first mark starts recording). */
void
hl_alloctrace_segment(const char *label)
{
	if (hl_fd < 0)
	{
		const char *path = getenv("HL_ALLOCTRACE");
		const char *min = getenv("HL_ALLOCTRACE_MIN");

		if (path == NULL)
			return;
		if (min)
			hl_min = (size_t) strtoul(min, NULL, 10);
		hl_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (hl_fd < 0)
			return;
	}
	hl_end_segment();
	snprintf(hl_label, sizeof hl_label, "%s", label);
	for (char *c = hl_label; *c; c++)
		if (*c == ' ' || *c == '\n')
			*c = '_';
	hl_brk_start = hl_brk_max = hl_brk_last = (uintptr_t) sbrk(0);
	hl_grows = hl_trims = hl_mmaps = hl_munmaps = 0;
	{
		struct mallinfo2 mi;

		hl_busy = 1;
		mi = mallinfo2();
		hl_busy = 0;
		hl_arena_start = mi.arena;
		hl_free_start = mi.fordblks;
	}
	hl_active = 1;
}

/* The first object dl_iterate_phdr reports is the program itself. */
static int
hl_first_object(struct dl_phdr_info *info, size_t size, void *data)
{
	(void) size;
	*(uintptr_t *) data = (uintptr_t) info->dlpi_addr;
	return 1;
}

__attribute__((constructor)) static void
hl_init(void)
{
	void	   *f[2];
	Dl_info		me;

	if (dladdr((void *) hl_init, &me))
		hl_self = me.dli_fbase;
	/* Any of these in the environment switches glibc's dynamic thresholds off. */
	hl_dynamic = !getenv("MALLOC_TRIM_THRESHOLD_") && !getenv("MALLOC_TOP_PAD_") &&
		!getenv("MALLOC_MMAP_THRESHOLD_") && !getenv("MALLOC_MMAP_MAX_");
	dl_iterate_phdr(hl_first_object, &hl_exe_base);
	{
		ssize_t		n = readlink("/proc/self/exe", hl_exe, sizeof hl_exe - 1);

		hl_exe[n > 0 ? n : 0] = '\0';
	}
	/* backtrace's first call loads libgcc_s (and allocates): do it before recording */
	hl_busy = 1;
	backtrace(f, 2);
	hl_busy = 0;
}

__attribute__((destructor)) static void
hl_fini(void)
{
	hl_end_segment();
	hl_active = 0;
}

void *
malloc(size_t size)
{
	void	   *p = __libc_malloc(size);

	hl_after(size, p);
	return p;
}

void *
calloc(size_t n, size_t size)
{
	void	   *p = __libc_calloc(n, size);

	hl_after(n * size, p);
	return p;
}

void *
realloc(void *old, size_t size)
{
	/* glibc moves an mmap'd chunk with mremap here; only free() adjusts the thresholds */
	void	   *p = __libc_realloc(old, size);

	hl_after(size, p);
	return p;
}

void
free(void *p)
{
	hl_before_free(p);
	__libc_free(p);
	if (hl_active && !hl_busy)
		hl_look_at_brk();
}

void *
memalign(size_t align, size_t size)
{
	void	   *p = __libc_memalign(align, size);

	hl_after(size, p);
	return p;
}

void *
aligned_alloc(size_t align, size_t size)
{
	void	   *p = __libc_memalign(align, size);

	hl_after(size, p);
	return p;
}

int
posix_memalign(void **out, size_t align, size_t size)
{
	void	   *p = __libc_memalign(align, size);

	if (p == NULL)
		return 12;				/* ENOMEM */
	*out = p;
	hl_after(size, p);
	return 0;
}
