/* ordorun --tag-output: each rank's stdout and stderr come through pipes
 * and every line is written out prefixed with its rank ("[3] ..."), so the
 * lines of different ranks never mix within a line. */
#ifndef ORDORUN_OUTPUT_H
#define ORDORUN_OUTPUT_H

#include <poll.h>

/* For n ranks; 0, or -1 with errno. */
int  ordorun_tag_open(int n);
/* Before forking rank r: its pipes; 0, or -1 with errno. */
int  ordorun_tag_pipes(int rank);
/* In rank r's child: stdout and stderr onto the pipes. */
void ordorun_tag_child(int rank);
/* In the launcher after forking rank r: close the child's ends. */
void ordorun_tag_parent(int rank);
/* The read ends as poll entries at p[0 .. 2n-1] (closed ones as -1). */
void ordorun_tag_poll_set(struct pollfd *p);
/* Relay what p (as filled above) says is readable. */
void ordorun_tag_relay(const struct pollfd *p);
/* Once every rank exited: relay what is left in the pipes, then free. */
void ordorun_tag_close(void);

#endif
