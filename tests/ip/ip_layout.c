/*
 * ip_layout.c: mailboxes, IP and RCCE in one program (docs/IP.md, "The
 * MPB layout"): rck_mbox_init and rck_ip_init reserve their parts of the
 * MPB before RCCE_init takes the rest; an RCCE message, a mail and a TCP
 * echo between UE 0 and UE 1 all arrive intact.
 */
#include "RCCE.h"
#include "rck_ip.h"
#include "rck_mbox.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int me;

static int check(int ok, const char *what)
{
    if (!ok)
        fprintf(stderr, "ip layout ue %d: %s\n", me, what);
    return ok;
}

int main(int argc, char **argv)
{
    char buf[3000], want[3000];
    rck_mail_t mail;
    struct sockaddr_in a;
    uint32_t addr;
    int ok = 1, n;

    if (!check(rck_mbox_init() == RCK_OK, "rck_mbox_init") ||
        !check(rck_ip_init() == RCK_OK, "rck_ip_init"))
        return 1;
    RCCE_init(&argc, &argv);
    me = RCCE_ue();
    for (size_t i = 0; i < sizeof(want); i++)
        want[i] = (char)(i * 13 + 5);
    if (me == 0)
        RCCE_send(want, sizeof(want), 1);
    else if (me == 1) {
        RCCE_recv(buf, sizeof(buf), 0);
        ok &= check(memcmp(buf, want, sizeof(buf)) == 0, "RCCE data differs");
    }
    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_port = htons(9000);
    if (me == 1) {
        int l = socket(AF_INET, SOCK_STREAM, 0), c;

        a.sin_addr.s_addr = htonl(INADDR_ANY);
        ok &= check(l >= 0 && bind(l, (struct sockaddr *)&a, sizeof(a)) == 0
                        && listen(l, 1) == 0, "listen");
        RCCE_barrier(&RCCE_COMM_WORLD);
        c = accept(l, NULL, NULL);
        ok &= check(c >= 0, "accept");
        n = (int)read(c, buf, sizeof(buf));
        ok &= check(n > 0 && write(c, buf, (size_t)n) == n, "echo");
        close(c);
        close(l);
        ok &= check(rck_mbox_recv(&mail, -1) == RCK_OK && mail.sender == 0 &&
                        mail.tag == 7 && mail.len == 5 &&
                        !memcmp(mail.payload, "mail", 5),
                    "mail");
    } else if (me == 0) {
        int s = socket(AF_INET, SOCK_STREAM, 0);

        RCCE_barrier(&RCCE_COMM_WORLD);
        ok &= check(rck_ip_ue_addr(1, &addr) == RCK_OK, "rck_ip_ue_addr");
        a.sin_addr.s_addr = addr;
        ok &= check(s >= 0 && connect(s, (struct sockaddr *)&a,
                                      sizeof(a)) == 0, "connect");
        ok &= check(write(s, "hello", 5) == 5, "write");
        n = (int)read(s, buf, sizeof(buf));
        ok &= check(n == 5 && !memcmp(buf, "hello", 5), "echo differs");
        close(s);
        ok &= check(rck_mbox_send(1, 7, "mail", 5) == RCK_OK, "mail");
    } else
        RCCE_barrier(&RCCE_COMM_WORLD);
    RCCE_finalize();
    if (ok)
        printf("ip layout ue %d: ok\n", me);
    return ok ? 0 : 1;
}
