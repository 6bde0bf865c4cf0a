/* ofi: libfabric, loaded when the transport is first needed.
 *
 * Linking libfabric into every ordo program would load, at start-up, the
 * libraries its providers depend on; Debian's pulls in PSM's
 * libinfinipath, whose constructor replaces the program's SIGSEGV, SIGBUS,
 * SIGILL and SIGFPE handling with its own (a backtrace, then exit 1): a
 * crash would no longer be a crash.  So libfabric is opened with dlopen
 * only when a job spans nodes, any signal handler its loading or its
 * providers' start-up install is put back as the program had it, and a
 * machine without libfabric still runs one-node jobs.  Only five of
 * libfabric's functions are called by name; the rest are its inline
 * wrappers around the objects' operation tables. */
#define _GNU_SOURCE
#include "ofi.h"

#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "../../base/log.h"

struct ofi_lib ofi_lib;

void ofi_signals_save(struct sigaction *saved)
{
    for (int s = 1; s < NSIG; s++)
        if (sigaction(s, NULL, &saved[s]) != 0)
            saved[s].sa_handler = SIG_ERR;
}

void ofi_signals_restore(const struct sigaction *saved)
{
    for (int s = 1; s < NSIG; s++) {
        struct sigaction now;
        if (saved[s].sa_handler == SIG_ERR || sigaction(s, NULL, &now) != 0)
            continue;
        if (now.sa_handler != saved[s].sa_handler) {
            sigaction(s, &saved[s], NULL);
            ordo_debug("ofi: a library libfabric loaded took over signal %d (%s): given back",
                       s, strsignal(s));
        }
    }
}

ordo_status_t ofi_lib_load(void)
{
    if (ofi_lib.handle)
        return ORDO_OK;
    struct sigaction saved[NSIG];
    ofi_signals_save(saved);
    void *h = dlopen("libfabric.so.1", RTLD_NOW | RTLD_LOCAL);
    ofi_signals_restore(saved);
    if (h == NULL) {
        ordo_error("ofi: cannot load libfabric (%s): install libfabric1 to reach ranks on "
                   "other nodes", dlerror());
        return ORDO_ERR_UNSUPPORTED;
    }
    struct ofi_lib l = {.handle = h};
    *(void **)&l.getinfo = dlsym(h, "fi_getinfo");
    *(void **)&l.freeinfo = dlsym(h, "fi_freeinfo");
    *(void **)&l.dupinfo = dlsym(h, "fi_dupinfo");
    *(void **)&l.fabric = dlsym(h, "fi_fabric");
    *(void **)&l.strerror = dlsym(h, "fi_strerror");
    if (!l.getinfo || !l.freeinfo || !l.dupinfo || !l.fabric || !l.strerror) {
        ordo_error("ofi: the libfabric found lacks fi_getinfo, fi_dupinfo, fi_freeinfo, "
                   "fi_fabric or fi_strerror");
        dlclose(h);
        return ORDO_ERR_UNSUPPORTED;
    }
    uint32_t (*version)(void);
    *(void **)&version = dlsym(h, "fi_version");
    l.version = version ? version() : 0;
    Dl_info where;
    if (dladdr(*(void **)&l.getinfo, &where) != 0 && where.dli_fname)
        snprintf(l.path, sizeof(l.path), "%s", where.dli_fname);
    else
        snprintf(l.path, sizeof(l.path), "libfabric.so.1");
    ofi_lib = l;
    return ORDO_OK;
}
