/* ordorun --netns: a private network per group of ranks (see the .c). */
#ifndef ORDORUN_NETNS_H
#define ORDORUN_NETNS_H

#include <stddef.h>

typedef struct ordorun_net {
    int  k;
    int  switch_fd;   /* the bridge's namespace */
    int *group_fd;    /* each group's namespace */
} ordorun_net_t;

/* Build K group namespaces joined by a bridge; 0, or -1 with err filled. */
int  ordorun_net_create(ordorun_net_t *net, int k, char *err, size_t errlen);
/* In a rank's child process, before exec: join its group's namespace. */
int  ordorun_net_enter(const ordorun_net_t *net, int group);
/* Let go of the namespaces (the kernel removes them with their last user). */
void ordorun_net_destroy(ordorun_net_t *net);
/* The address of group g's interface, as text. */
void ordorun_net_address(int group, char *buf, size_t len);

#endif
