/* A reader-writer lock whose writer is preferred: background threads take
 * and drop it for every unit of work, so with reader preference a pause
 * could wait for ever. */
#define _GNU_SOURCE
#include "quiesce.h"

#include <pthread.h>

static pthread_rwlock_t quiesce_lock = PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP;

void ordo_quiesce_work_begin(void) { pthread_rwlock_rdlock(&quiesce_lock); }
void ordo_quiesce_work_end(void) { pthread_rwlock_unlock(&quiesce_lock); }
void ordo_quiesce_pause(void) { pthread_rwlock_wrlock(&quiesce_lock); }
void ordo_quiesce_resume(void) { pthread_rwlock_unlock(&quiesce_lock); }
