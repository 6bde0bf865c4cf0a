/* Pausing ordo's own threads.
 *
 * Some work changes how the process's memory is mapped (a created region's
 * pages moving into shared memory) and must not race with writes to that
 * memory.  ordo's background threads (the network progress helper, the
 * offload engines, the descriptor service) touch heap memory the program
 * shares pages with, so each brackets a unit of work with
 * ordo_quiesce_work_begin/end, and a page move waits for every unit in
 * progress and keeps new ones out with ordo_quiesce_pause/resume.
 *
 * Units are short (one poll of the network, one chunk of a copy, one
 * request): a pause waits at most that long.  Never pause from one of these
 * threads, nor while holding a lock one of them waits for. */
#ifndef ORDO_BASE_QUIESCE_H
#define ORDO_BASE_QUIESCE_H

void ordo_quiesce_work_begin(void);
void ordo_quiesce_work_end(void);

void ordo_quiesce_pause(void);
void ordo_quiesce_resume(void);

#endif
