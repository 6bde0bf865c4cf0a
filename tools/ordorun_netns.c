/* ordorun --netns: every group of ranks (--nodes K) in a network namespace
 * of its own, as on separate machines: an interface eth0 with an address of
 * the job's own (10.77.x.y/16), linked by a veth pair to one bridge.
 *
 * The bridge lives in a further namespace, the "switch".  Every namespace
 * is anonymous and held only by descriptors of the launcher (and by the
 * ranks inside it), so when the job ends — normally, by Ctrl-C, or by kill
 * -9 of a rank or of the launcher — the kernel destroys the namespaces and
 * everything in them: nothing is left in the host's namespace, in `ip
 * netns` or in the filesystem.  Links are made over netlink with libnl. */
#define _GNU_SOURCE
#include "ordorun_netns.h"

#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <netlink/netlink.h>
#include <netlink/route/addr.h>
#include <netlink/route/link.h>
#include <netlink/route/link/bridge.h>
#include <netlink/route/link/veth.h>

#define BRIDGE "ordo-br"

/* A fresh namespace, held by the returned descriptor; we stay in orig. */
static int new_netns(int orig, char *err, size_t errlen)
{
    if (unshare(CLONE_NEWNET) < 0) {
        snprintf(err, errlen, "cannot create a network namespace: %s (--netns needs root)",
                 strerror(errno));
        return -1;
    }
    int fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
    int e = errno;
    if (setns(orig, CLONE_NEWNET) < 0) {
        snprintf(err, errlen, "cannot return to the launcher's network namespace: %s",
                 strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (fd < 0)
        snprintf(err, errlen, "cannot hold a network namespace: %s", strerror(e));
    return fd;
}

static int link_up(struct nl_sock *sk, const char *name)
{
    struct rtnl_link *link = NULL, *change = NULL;
    int ret = rtnl_link_get_kernel(sk, 0, name, &link);
    if (ret == 0 && (change = rtnl_link_alloc()) == NULL)
        ret = -NLE_NOMEM;
    if (ret == 0) {
        rtnl_link_set_flags(change, IFF_UP);
        ret = rtnl_link_change(sk, link, change, 0);
    }
    if (change)
        rtnl_link_put(change);
    if (link)
        rtnl_link_put(link);
    return ret;
}

static int ifindex(struct nl_sock *sk, const char *name)
{
    struct rtnl_link *link = NULL;
    if (rtnl_link_get_kernel(sk, 0, name, &link) < 0)
        return -1;
    int i = rtnl_link_get_ifindex(link);
    rtnl_link_put(link);
    return i;
}

/* The switch: a bridge, and a veth pair per group whose far end (eth0)
 * goes straight into the group's namespace. */
static int build_switch(struct nl_sock *sk, const ordorun_net_t *net, char *err, size_t errlen)
{
    struct rtnl_link *br = rtnl_link_bridge_alloc();
    if (br == NULL)
        return -NLE_NOMEM;
    rtnl_link_set_name(br, BRIDGE);
    int ret = rtnl_link_add(sk, br, NLM_F_CREATE | NLM_F_EXCL);
    rtnl_link_put(br);
    if (ret < 0 || (ret = link_up(sk, BRIDGE)) < 0) {
        snprintf(err, errlen, "cannot create the bridge: %s", nl_geterror(ret));
        return ret;
    }
    int br_index = ifindex(sk, BRIDGE);
    for (int g = 0; g < net->k; g++) {
        char name[IFNAMSIZ];
        snprintf(name, sizeof(name), "g%d", g);
        struct rtnl_link *veth = rtnl_link_veth_alloc();
        if (veth == NULL)
            return -NLE_NOMEM;
        struct rtnl_link *peer = rtnl_link_veth_get_peer(veth);
        rtnl_link_set_name(veth, name);
        rtnl_link_set_name(peer, "eth0");
        rtnl_link_set_ns_fd(peer, net->group_fd[g]);
        ret = rtnl_link_add(sk, veth, NLM_F_CREATE | NLM_F_EXCL);
        rtnl_link_put(peer);
        rtnl_link_put(veth);
        int idx = ret < 0 ? -1 : ifindex(sk, name);
        if (ret == 0 && idx < 0)
            ret = -NLE_OBJ_NOTFOUND;
        if (ret == 0)
            ret = rtnl_link_enslave_ifindex(sk, br_index, idx);
        if (ret == 0)
            ret = link_up(sk, name);
        if (ret < 0) {
            snprintf(err, errlen, "cannot link group %d to the bridge: %s", g, nl_geterror(ret));
            return ret;
        }
    }
    return 0;
}

/* Inside group g: loopback and eth0 up, eth0 addressed. */
static int build_group(struct nl_sock *sk, int g, char *err, size_t errlen)
{
    int ret = link_up(sk, "lo");
    if (ret == 0)
        ret = link_up(sk, "eth0");
    if (ret < 0) {
        snprintf(err, errlen, "cannot bring up group %d's interfaces: %s", g, nl_geterror(ret));
        return ret;
    }
    char text[32];
    ordorun_net_address(g, text, sizeof(text));
    strcat(text, "/16");
    struct nl_addr *local = NULL;
    struct rtnl_addr *addr = rtnl_addr_alloc();
    ret = addr ? nl_addr_parse(text, AF_INET, &local) : -NLE_NOMEM;
    if (ret == 0) {
        rtnl_addr_set_ifindex(addr, ifindex(sk, "eth0"));
        ret = rtnl_addr_set_local(addr, local);
    }
    if (ret == 0)
        ret = rtnl_addr_add(sk, addr, 0);
    if (local)
        nl_addr_put(local);
    if (addr)
        rtnl_addr_put(addr);
    if (ret < 0)
        snprintf(err, errlen, "cannot give group %d the address %s: %s", g, text,
                 nl_geterror(ret));
    return ret;
}

/* Run build in namespace fd with a netlink socket opened there. */
static int in_netns(int fd, int orig, int (*build)(struct nl_sock *, const ordorun_net_t *,
                                                    int, char *, size_t),
                    const ordorun_net_t *net, int g, char *err, size_t errlen)
{
    if (setns(fd, CLONE_NEWNET) < 0) {
        snprintf(err, errlen, "cannot enter a job namespace: %s", strerror(errno));
        return -1;
    }
    struct nl_sock *sk = nl_socket_alloc();
    int ret = sk ? nl_connect(sk, NETLINK_ROUTE) : -NLE_NOMEM;
    if (ret < 0)
        snprintf(err, errlen, "cannot open a netlink socket: %s", nl_geterror(ret));
    else
        ret = build(sk, net, g, err, errlen);
    if (sk)
        nl_socket_free(sk);
    if (setns(orig, CLONE_NEWNET) < 0) {
        snprintf(err, errlen, "cannot return to the launcher's network namespace: %s",
                 strerror(errno));
        return -1;
    }
    return ret;
}

static int switch_step(struct nl_sock *sk, const ordorun_net_t *net, int g, char *err,
                       size_t errlen)
{
    (void)g;
    return build_switch(sk, net, err, errlen);
}

static int group_step(struct nl_sock *sk, const ordorun_net_t *net, int g, char *err,
                      size_t errlen)
{
    (void)net;
    return build_group(sk, g, err, errlen);
}

void ordorun_net_address(int group, char *buf, size_t len)
{
    snprintf(buf, len, "10.77.%d.%d", group / 250, group % 250 + 1);
}

int ordorun_net_create(ordorun_net_t *net, int k, char *err, size_t errlen)
{
    memset(net, 0, sizeof(*net));
    net->k = k;
    net->switch_fd = -1;
    net->group_fd = malloc((size_t)k * sizeof(int));
    if (net->group_fd == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int g = 0; g < k; g++)
        net->group_fd[g] = -1;
    int orig = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
    if (orig < 0) {
        snprintf(err, errlen, "cannot open this process's network namespace: %s",
                 strerror(errno));
        goto fail;
    }
    if ((net->switch_fd = new_netns(orig, err, errlen)) < 0)
        goto fail;
    for (int g = 0; g < k; g++)
        if ((net->group_fd[g] = new_netns(orig, err, errlen)) < 0)
            goto fail;
    if (in_netns(net->switch_fd, orig, switch_step, net, 0, err, errlen) != 0)
        goto fail;
    for (int g = 0; g < k; g++)
        if (in_netns(net->group_fd[g], orig, group_step, net, g, err, errlen) != 0)
            goto fail;
    close(orig);
    return 0;
fail:
    if (orig >= 0)
        close(orig);
    ordorun_net_destroy(net);
    return -1;
}

int ordorun_net_enter(const ordorun_net_t *net, int group)
{
    return setns(net->group_fd[group], CLONE_NEWNET);
}

void ordorun_net_destroy(ordorun_net_t *net)
{
    if (net->switch_fd >= 0)
        close(net->switch_fd);
    net->switch_fd = -1;
    if (net->group_fd)
        for (int g = 0; g < net->k; g++)
            if (net->group_fd[g] >= 0)
                close(net->group_fd[g]);
    free(net->group_fd);
    net->group_fd = NULL;
}
