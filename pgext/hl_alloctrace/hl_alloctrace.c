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
 *   Q label brk_start brk_max brk_end grows trims mmaps munmaps
 *   M size mmapped frame frame ...      (frames as file+0xoffset, innermost first)
 * Nothing is recorded before the first mark. A backend is one thread; the guard below keeps the
 * tracer's own allocations (backtrace's first dlopen) out of the record.
 *
 * Written for hotloops; the glibc facts used: __libc_malloc and friends are exported, and a
 * chunk's size word (just below the pointer) has bit 1 set when mmap served it.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
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
static int	hl_active;
static size_t hl_min = 4096;
static __thread int hl_busy;
static char hl_buf[HL_BUF];
static size_t hl_len;

/* The current segment's program-break figures. */
static uintptr_t hl_brk_start, hl_brk_max, hl_brk_last;
static long hl_grows, hl_trims, hl_mmaps, hl_munmaps;
static char hl_label[64] = "";

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
	len = snprintf(line, sizeof line, "Q %s %lu %lu %lu %ld %ld %ld %ld\n", hl_label,
				   (unsigned long) hl_brk_start, (unsigned long) hl_brk_max, (unsigned long) hl_brk_last,
				   hl_grows, hl_trims, hl_mmaps, hl_munmaps);
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
	hl_active = 1;
}

__attribute__((constructor)) static void
hl_init(void)
{
	void	   *f[2];
	Dl_info		me;

	if (dladdr((void *) hl_init, &me))
		hl_self = me.dli_fbase;
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
	int			was_mmapped = hl_active && !hl_busy && hl_mmapped(old);
	void	   *p = __libc_realloc(old, size);

	if (was_mmapped)
		hl_munmaps++;
	hl_after(size, p);
	return p;
}

void
free(void *p)
{
	if (hl_active && !hl_busy && hl_mmapped(p))
		hl_munmaps++;
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
