/* The symmetric heap: one ordo region of SHMEM_SYMMETRIC_SIZE bytes per PE,
 * and an allocator every PE runs alike.  Allocation is collective, with the
 * same arguments in the same order everywhere, so the same decisions give
 * the same offsets on every PE without any exchange.  Blocks are kept in
 * an array by offset, outside the heap (a remote put can never corrupt
 * them); first fit. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "shmem_internal.h"

/* Unset, the heap is 1 GiB of address space, backed only where it is
 * touched (OSU's message-rate programs need 200 MiB): a program written
 * for a library with a large default runs without a setting.  Where that
 * cannot be had (a memory limit below it), 128 MiB, with a warning. */
#define DEFAULT_HEAP  ((size_t)1 << 30)
#define FALLBACK_HEAP ((size_t)128 << 20)
#define MIN_ALIGN    16u

typedef struct block {
    size_t off, size;
    int    used;
} block_t;

static block_t *blocks;
static size_t   nblocks, capblocks;

/* SHMEM_SYMMETRIC_SIZE: a number of bytes with an optional K, M, G or T
 * (powers of 1024), as the standard describes it. */
static int heap_size_setting(size_t *size_p, int *given_p)
{
    const char *v = getenv("SHMEM_SYMMETRIC_SIZE");
    *given_p = v != NULL && *v != '\0';
    if (!*given_p) {
        *size_p = DEFAULT_HEAP;
        return 0;
    }
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    unsigned shift = 0;
    switch (toupper((unsigned char)*end)) {
    case 'K': shift = 10, end++; break;
    case 'M': shift = 20, end++; break;
    case 'G': shift = 30, end++; break;
    case 'T': shift = 40, end++; break;
    default: break;
    }
    if (end == v || *end != '\0' || errno || !(x > 0) || x * (double)(1ull << shift) > 1e15) {
        shmem_error("shmem_init", "SHMEM_SYMMETRIC_SIZE=%s: a size in bytes, with an optional "
                                  "K, M, G or T", v);
        return -1;
    }
    *size_p = (size_t)(x * (double)(1ull << shift));
    return 0;
}

int shmem_heap_init(void)
{
    size_t size;
    int given;
    if (heap_size_setting(&size, &given) != 0)
        return -1;
    size = (size + 4095) & ~(size_t)4095;
    void *base;
    ordo_status_t st = ordo_region_alloc(size, 0, &shmem_g.heap, &base);
    if (st == ORDO_ERR_NO_MEMORY && !given) {
        /* refused on every PE alike (region creation agrees on failure) */
        if (ordo_rank() == 0)
            shmem_error("shmem_init", "warning: the default symmetric heap of %zu bytes could "
                        "not be had; using %zu (SHMEM_SYMMETRIC_SIZE sets it)", size,
                        FALLBACK_HEAP);
        size = FALLBACK_HEAP;
        st = ordo_region_alloc(size, 0, &shmem_g.heap, &base);
    }
    if (st != ORDO_OK) {
        shmem_error("shmem_init", "a symmetric heap of %zu bytes could not be had (%s): set "
                                  "SHMEM_SYMMETRIC_SIZE lower", size, ordo_status_string(st));
        return -1;
    }
    shmem_g.heap_base = base;
    shmem_g.heap_size = size;
    shmem_g.seg[0] = (shmem_segment_t){.region = shmem_g.heap, .base = base, .size = size};
    shmem_g.nseg = 1;
    blocks = malloc(16 * sizeof(*blocks));
    if (blocks == NULL) {
        ordo_region_free(shmem_g.heap);
        return -1;
    }
    capblocks = 16;
    nblocks = 1;
    blocks[0] = (block_t){.off = 0, .size = size, .used = 0};
    return 0;
}

void shmem_heap_fini(void)
{
    shmem_g.nseg = 0;
    ordo_region_free(shmem_g.heap);
    free(blocks);
    blocks = NULL;
    nblocks = capblocks = 0;
}

int shmem_symmetric_slow(const char *routine, const void *addr, size_t len)
{
    shmem_error(routine, "%p (%zu bytes) is not symmetric (neither in the symmetric heap nor "
                         "in the program's global data): nothing done", addr, len);
    return 0;
}

static int insert_at(size_t i, block_t b)
{
    if (nblocks == capblocks) {
        block_t *n = realloc(blocks, 2 * capblocks * sizeof(*n));
        if (n == NULL)
            return -1;
        blocks = n;
        capblocks *= 2;
    }
    memmove(&blocks[i + 1], &blocks[i], (nblocks - i) * sizeof(*blocks));
    blocks[i] = b;
    nblocks++;
    return 0;
}

static void remove_at(size_t i)
{
    memmove(&blocks[i], &blocks[i + 1], (nblocks - i - 1) * sizeof(*blocks));
    nblocks--;
}

/* First fit: a used block of size bytes at an offset aligned to align. */
static void *carve(size_t size, size_t align)
{
    size = (size + MIN_ALIGN - 1) & ~(size_t)(MIN_ALIGN - 1);
    for (size_t i = 0; i < nblocks; i++) {
        block_t b = blocks[i];
        if (b.used)
            continue;
        size_t start = (b.off + align - 1) & ~(align - 1), pad = start - b.off;
        if (pad > b.size || b.size - pad < size)
            continue;
        size_t k = i;
        if (pad) {   /* the gap before stays free */
            blocks[k].size = pad;
            if (insert_at(++k, (block_t){.off = start, .size = b.size - pad}) != 0)
                return NULL;
        }
        if (blocks[k].size > size &&
            insert_at(k + 1, (block_t){.off = start + size, .size = blocks[k].size - size}) != 0)
            return NULL;
        blocks[k].size = size;
        blocks[k].used = 1;
        return shmem_g.heap_base + start;
    }
    return NULL;
}

static size_t block_of(const void *ptr)
{
    size_t off = (size_t)((const char *)ptr - shmem_g.heap_base);
    for (size_t i = 0; i < nblocks; i++)
        if (blocks[i].off == off && blocks[i].used)
            return i;
    return (size_t)-1;
}

static void release(size_t i)
{
    blocks[i].used = 0;
    if (i + 1 < nblocks && !blocks[i + 1].used) {
        blocks[i].size += blocks[i + 1].size;
        remove_at(i + 1);
    }
    if (i > 0 && !blocks[i - 1].used) {
        blocks[i - 1].size += blocks[i].size;
        remove_at(i);
    }
}

static void *allocate(const char *routine, size_t size, size_t align)
{
    if (!shmem_ready(routine) || size == 0)
        return NULL;   /* no action, and no barrier, as the standard says */
    void *p = carve(size, align);
    if (p == NULL) {
        shmem_error(routine, "%zu bytes do not fit in what is left of the symmetric heap "
                             "(SHMEM_SYMMETRIC_SIZE=%zu bytes)", size, shmem_g.heap_size);
        return NULL;   /* the same on every PE: they all decide alike */
    }
    return p;
}

void *shmem_malloc(size_t size)
{
    void *p = allocate("shmem_malloc", size, MIN_ALIGN);
    if (p)
        shmem_barrier_all();
    return p;
}

void *shmem_malloc_with_hints(size_t size, long hints)
{
    (void)hints;   /* every block is reachable by every operation already */
    return shmem_malloc(size);
}

void *shmem_calloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size) {
        shmem_error("shmem_calloc", "%zu x %zu bytes overflow", count, size);
        return NULL;
    }
    void *p = allocate("shmem_calloc", count * size, MIN_ALIGN);
    if (p) {
        memset(p, 0, count * size);
        shmem_barrier_all();
    }
    return p;
}

void *shmem_align(size_t alignment, size_t size)
{
    if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
        shmem_error("shmem_align", "alignment %zu is not a power of two", alignment);
        return NULL;
    }
    void *p = allocate("shmem_align", size, alignment < MIN_ALIGN ? MIN_ALIGN : alignment);
    if (p)
        shmem_barrier_all();
    return p;
}

void shmem_free(void *ptr)
{
    if (ptr == NULL || !shmem_ready("shmem_free"))
        return;
    size_t i = block_of(ptr);
    if (i == (size_t)-1) {
        shmem_error("shmem_free", "%p is no block of the symmetric heap: nothing freed", ptr);
        return;
    }
    shmem_barrier_all();   /* nobody still reaches into it */
    release(i);
}

void *shmem_realloc(void *ptr, size_t size)
{
    if (ptr == NULL)
        return shmem_malloc(size);
    if (size == 0) {
        shmem_free(ptr);
        return NULL;
    }
    if (!shmem_ready("shmem_realloc"))
        return NULL;
    size_t i = block_of(ptr);
    if (i == (size_t)-1) {
        shmem_error("shmem_realloc", "%p is no block of the symmetric heap", ptr);
        return NULL;
    }
    size_t old = blocks[i].size;
    shmem_barrier_all();   /* nobody writes into the old block while it moves */
    void *p = carve(size, MIN_ALIGN);
    if (p == NULL) {
        shmem_error("shmem_realloc", "%zu bytes do not fit in what is left of the symmetric "
                                     "heap: the block stays as it was", size);
        return NULL;
    }
    memcpy(p, ptr, old < size ? old : size);
    release(block_of(ptr));
    shmem_barrier_all();
    return p;
}
