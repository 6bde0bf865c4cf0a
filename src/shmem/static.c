/* The program's global and static variables as symmetric data.  Every PE
 * runs the same executable, so its writable segment (.data, .bss) has the
 * same layout everywhere, wherever the loader put it: at shmem_init the
 * segment becomes an ordo region (ordo_region_create, the pages moved
 * into shared memory with their content kept, at the same addresses), and
 * an address in it names the same variable on every PE by its offset.
 *
 * Where that cannot be done (SHMEM_STATIC=off, the segment not found, or
 * the region refused) global data is not symmetric and RMA to it is
 * refused by name; the heap works either way. */
#define _DEFAULT_SOURCE   /* readlink */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shmem_internal.h"

/* The executable's writable segment: its file-backed rw-p mapping and the
 * anonymous one right after it (the rest of .bss), from /proc/self/maps. */
static int data_segment(char **start_p, size_t *size_p)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    FILE *maps = fopen("/proc/self/maps", "r");
    if (n <= 0 || maps == NULL) {
        if (maps)
            fclose(maps);
        return -1;
    }
    exe[n] = '\0';
    char line[4352];
    unsigned long start = 0, end = 0;
    while (fgets(line, sizeof(line), maps)) {
        unsigned long a, b;
        char perms[5], path[4096] = "";
        if (sscanf(line, "%lx-%lx %4s %*s %*s %*s %4095s", &a, &b, perms, path) < 3)
            continue;
        if (start == 0) {
            if (strcmp(perms, "rw-p") == 0 && strcmp(path, exe) == 0)
                start = a, end = b;
            continue;
        }
        /* the anonymous rest of .bss follows at once, unnamed */
        if (a == end && strcmp(perms, "rw-p") == 0 && path[0] == '\0')
            end = b;
        break;
    }
    fclose(maps);
    if (start == 0)
        return -1;
    *start_p = (char *)start;
    *size_p = end - start;
    return 0;
}

void shmem_static_init(void)
{
    const char *v = getenv("SHMEM_STATIC");
    if (v && strcmp(v, "off") == 0)
        return;
    char *start = NULL;
    size_t size = 0;
    int found = data_segment(&start, &size) == 0;
    /* every PE takes part in the collective create, found or not: sizes
     * that differ (different executables) make it fail everywhere */
    ordo_region_h r = NULL;
    ordo_status_t st = ordo_region_create(found ? start : NULL, found ? size : 0,
                                          ORDO_REGION_CREATE_MAPPED, &r);
    if (st != ORDO_OK || !found) {
        if (st == ORDO_OK)
            ordo_region_free(r);
        shmem_error("shmem_init", "global and static data are not symmetric here (%s): use "
                                  "the symmetric heap", found ? ordo_status_string(st)
                                                              : "the data segment was not found");
        return;
    }
    size_t theirs = 0;
    for (int pe = 0; pe < shmem_g.npes; pe++)
        if (ordo_region_size(r, pe, &theirs) != ORDO_OK || theirs != size) {
            shmem_error("shmem_init", "PE %d's global data differs in size (another "
                                      "executable?): global data is not symmetric", pe);
            ordo_region_free(r);
            return;
        }
    shmem_g.seg[1] = (shmem_segment_t){.region = r, .base = start, .size = size};
    shmem_g.nseg = 2;
}

void shmem_static_fini(void)
{
    if (shmem_g.nseg < 2)
        return;
    shmem_g.nseg = 1;
    ordo_region_free(shmem_g.seg[1].region);
}
