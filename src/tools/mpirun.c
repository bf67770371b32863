/*
 * `rck run --backend mpi`: wrap the MPI's launcher (see mpirun.h).
 *
 * Invariants: mpirun runs in a process group of its own (one kill()
 * reaches it and whatever it forked locally) with PR_SET_PDEATHSIG, so a
 * killed rck leaves nothing behind; its stdout and stderr come through
 * pipes that are drained to the end before rck exits.
 */
#include "mpirun.h"

#include "rck/config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { FLAVOR_OPENMPI = 0, FLAVOR_MPICH = 1 };
#define MR_MAX_ARGS 4096
#define MR_LINE_MAX 65536

extern char **environ;

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
    got_signal = sig;
}

static int in_path(const char *name, char *out, size_t outlen)
{
    const char *path = getenv("PATH");
    char buf[PATH_MAX];

    if (strchr(name, '/') != NULL) {
        snprintf(out, outlen, "%s", name);
        return access(name, X_OK) == 0;
    }
    if (path == NULL)
        path = "/usr/bin:/bin";
    while (*path != '\0') {
        const char *end = strchr(path, ':');
        size_t len = end ? (size_t)(end - path) : strlen(path);

        snprintf(buf, sizeof(buf), "%.*s/%s", (int)len, path, name);
        if (access(buf, X_OK) == 0) {
            snprintf(out, outlen, "%s", buf);
            return 1;
        }
        path += len + (end ? 1 : 0);
    }
    return 0;
}

/* Which MPI a launcher belongs to: by name, else by its --version. */
static int flavor_of(const char *cmd)
{
    char line[256], q[PATH_MAX + 32];
    FILE *p;
    int flavor = -1;

    if (strstr(cmd, "openmpi") != NULL || strstr(cmd, "orterun") != NULL)
        return FLAVOR_OPENMPI;
    if (strstr(cmd, "mpich") != NULL || strstr(cmd, "hydra") != NULL)
        return FLAVOR_MPICH;
    snprintf(q, sizeof(q), "'%s' --version 2>&1", cmd);
    p = popen(q, "r");
    if (p == NULL)
        return -1;
    while (fgets(line, sizeof(line), p) != NULL) {
        if (strstr(line, "Open MPI") || strstr(line, "Open RTE") ||
            strstr(line, "OpenRTE"))
            flavor = FLAVOR_OPENMPI;
        else if (strstr(line, "HYDRA") || strstr(line, "MPICH"))
            flavor = FLAVOR_MPICH;
    }
    pclose(p);
    return flavor;
}

/* RCK_MPIRUN (words split at spaces), else the launcher of RCK_MPI, else
 * the first of Open MPI's and MPICH's that is installed. */
static int launcher_find(const char *tool, char **words, int *nwords,
                         char *storage, size_t len, int *flavor)
{
    const char *over = rck_config_get("MPIRUN");
    const char *want = rck_config_get("MPI");
    static const char *const names[][3] = {
        {"mpirun.openmpi", "orterun", NULL},
        {"mpirun.mpich", "mpiexec.mpich", "mpiexec.hydra"}};
    char path[PATH_MAX];
    char *save = NULL, *w;

    *nwords = 0;
    if (over[0] != '\0') {
        snprintf(storage, len, "%s", over);
        for (w = strtok_r(storage, " \t", &save); w != NULL && *nwords < 32;
             w = strtok_r(NULL, " \t", &save))
            words[(*nwords)++] = w;
        if (*nwords == 0 || !in_path(words[0], path, sizeof(path))) {
            fprintf(stderr, "%s: RCK_MPIRUN='%s': no such program\n", tool,
                    over);
            return -1;
        }
        *flavor = flavor_of(path);
        if (*flavor < 0) {
            fprintf(stderr, "%s: RCK_MPIRUN='%s' is neither Open MPI's nor "
                            "MPICH's launcher\n", tool, over);
            return -1;
        }
        return 0;
    }
    for (int f = 0; f < 2; f++) {
        if (!strcmp(want, "openmpi") && f != FLAVOR_OPENMPI)
            continue;
        if (!strcmp(want, "mpich") && f != FLAVOR_MPICH)
            continue;
        for (int k = 0; k < 3 && names[f][k] != NULL; k++) {
            if (in_path(names[f][k], path, sizeof(path))) {
                snprintf(storage, len, "%s", path);
                words[(*nwords)++] = storage;
                *flavor = f;
                return 0;
            }
        }
    }
    if (!strcmp(want, "auto")) {
        const char *generic[] = {"mpirun", "mpiexec"};
        for (int k = 0; k < 2; k++) {
            if (in_path(generic[k], path, sizeof(path)) &&
                (*flavor = flavor_of(path)) >= 0) {
                snprintf(storage, len, "%s", path);
                words[(*nwords)++] = storage;
                return 0;
            }
        }
    }
    fprintf(stderr, "%s: the mpi backend needs an MPI launcher (%s); none "
                    "was found: install openmpi-bin or mpich "
                    "(scripts/install-deps.sh) or set RCK_MPIRUN\n", tool,
            !strcmp(want, "mpich") ? "mpirun.mpich" :
            !strcmp(want, "openmpi") ? "mpirun.openmpi" :
                                      "mpirun.openmpi, mpirun.mpich");
    return -1;
}

/* ---- output: whole lines, prefixed by each rank's wrapper ---- */

typedef struct {
    char buf[MR_LINE_MAX];
    size_t len;
} mr_line_t;

/* The first failure, as the MPI's launcher reports it, restated in
 * rck's words (the native launcher's) once the run is over. */
typedef struct {
    int ue, status, signal, pending_abort;
} mr_fail_t;

static mr_fail_t mr_fail = {-1, 0, 0, -1};

static void fail_scan(const char *s, size_t len)
{
    char line[512];
    const char *p;
    int a, b;

    if (mr_fail.ue >= 0 && mr_fail.pending_abort < 0)
        return;
    snprintf(line, sizeof(line), "%.*s", (int)(len < 511 ? len : 511), s);
    if (mr_fail.pending_abort >= 0) {
        if (sscanf(line, "with errorcode %d", &a) == 1) {
            mr_fail.ue = mr_fail.pending_abort;
            mr_fail.status = a;
        }
        mr_fail.pending_abort = -1;
        return;
    }
    if ((p = strstr(line, "(UE ")) != NULL &&
        sscanf(p, "(UE %d) exited with status %d; stopping every rank", &a,
               &b) == 2) {
        mr_fail.ue = a; /* the failing rank's own word (mpi.c) */
        mr_fail.status = b;
    } else if ((p = strstr(line, "noticed that process rank ")) != NULL &&
        sscanf(p, "noticed that process rank %d with PID %*d on node %*s "
                  "exited on signal %d", &a, &b) == 2) {
        mr_fail.ue = a;
        mr_fail.signal = b;
    } else if (sscanf(line, "MPI_ABORT was invoked on rank %d", &a) == 1) {
        mr_fail.pending_abort = a;
    } else if ((p = strstr(line, "(rank ")) != NULL &&
               strstr(line, "MPI_Abort(") != NULL &&
               sscanf(p, "(rank %d", &a) == 1 &&
               (p = strstr(line, "MPI_Abort(MPI_COMM_WORLD, ")) != NULL &&
               sscanf(p, "MPI_Abort(MPI_COMM_WORLD, %d", &b) == 1) {
        mr_fail.ue = a; /* MPICH */
        mr_fail.status = b;
    }
}

static void line_out(int fd, const char *s, size_t len)
{
    if (fd == STDERR_FILENO)
        fail_scan(s, len);
    while (len > 0) {
        ssize_t w = write(fd, s, len);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return;
        }
        s += w;
        len -= (size_t)w;
    }
}

/* Pass on the whole lines in @p lb (everything at EOF), one at a time so
 * that failure reports are scanned line by line. */
static void drain(int out, mr_line_t *lb, int eof)
{
    size_t start = 0;

    for (size_t i = 0; i < lb->len; i++) {
        if (lb->buf[i] == '\n') {
            line_out(out, lb->buf + start, i + 1 - start);
            start = i + 1;
        }
    }
    if (start == 0 && lb->len == sizeof(lb->buf)) {
        line_out(out, lb->buf, lb->len); /* overlong */
        start = lb->len;
    }
    if (eof && start < lb->len) {
        line_out(out, lb->buf + start, lb->len - start);
        line_out(out, "\n", 1);
        start = lb->len;
    }
    memmove(lb->buf, lb->buf + start, lb->len - start);
    lb->len -= start;
}

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cores_text(const rck_launch_t *l, char **out)
{
    size_t cap = (size_t)l->nues * 6 + 1, len = 0;
    char *s = malloc(cap);

    if (s == NULL)
        return -1;
    s[0] = '\0';
    for (int i = 0; i < l->nues; i++)
        len += (size_t)snprintf(s + len, cap - len, "%s%d", i ? "," : "",
                                l->cores[i]);
    *out = s;
    return 0;
}

/* The "-x" before each exported name: argv_free finds the names it owns
 * (strndup'ed) by this pointer. */
static char mr_x_opt[] = "-x";

/* mpirun's command line: the launcher, its options for this MPI, then
 * every rank as `rck run -- PROGRAM ARGS` (this program, RCK_MPI_WRAP set:
 * mpirank.c). @return argc, or -1. */
static int argv_build(const rck_launch_t *l, char **words, int nwords,
                      int flavor, const char *hostfile, const char *hosts,
                      char *self, char **argv, char *nbuf, size_t nlen)
{
    int argc = 0;

    for (int i = 0; i < nwords; i++)
        argv[argc++] = words[i];
    snprintf(nbuf, nlen, "%d", l->nues);
    argv[argc++] = "-n";
    argv[argc++] = nbuf;
    if (flavor == FLAVOR_OPENMPI) {
        /* More ranks than cores is the normal case here (48 UEs on a
         * laptop); Open MPI refuses both that and root without these. */
        argv[argc++] = "--oversubscribe";
        if (geteuid() == 0)
            argv[argc++] = "--allow-run-as-root";
        if (hostfile != NULL) {
            argv[argc++] = "--hostfile";
            argv[argc++] = (char *)hostfile;
        }
        if (hosts != NULL) {
            argv[argc++] = "--host";
            argv[argc++] = (char *)hosts;
        }
        /* Remote ranks get only what -x names: every RCK_* setting. */
        for (char **e = environ; *e != NULL && argc < MR_MAX_ARGS - 8; e++) {
            char *name;

            if (strncmp(*e, "RCK_", 4) != 0)
                continue;
            name = strndup(*e, strcspn(*e, "="));
            if (name == NULL)
                return -1;
            argv[argc++] = mr_x_opt;
            argv[argc++] = name;
        }
    } else {
        if (hostfile != NULL) {
            argv[argc++] = "-f";
            argv[argc++] = (char *)hostfile;
        }
        if (hosts != NULL) {
            argv[argc++] = "-hosts";
            argv[argc++] = (char *)hosts;
        }
        /* hydra passes the whole environment to every rank by default */
    }
    argv[argc++] = self;
    argv[argc++] = "run";
    argv[argc++] = "--";
    for (int i = 0; l->argv[i] != NULL && argc < MR_MAX_ARGS - 1; i++)
        argv[argc++] = l->argv[i];
    argv[argc] = NULL;
    return argc;
}

/* Free what argv_build allocated (the exported names) and @p argv. */
static void argv_free(char **argv)
{
    for (int i = 0; argv != NULL && argv[i] != NULL; i++)
        if (argv[i] == mr_x_opt && argv[i + 1] != NULL)
            free(argv[++i]);
    free(argv);
}

static void child_start(const char *tool, char **argv, int out_w, int err_w)
{
    int devnull = open("/dev/null", O_RDONLY);

    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    dup2(out_w, STDOUT_FILENO);
    dup2(err_w, STDERR_FILENO);
    if (devnull >= 0) {
        dup2(devnull, STDIN_FILENO);
        close(devnull);
    }
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    execv(argv[0], argv);
    fprintf(stderr, "%s: cannot execute '%s': %s\n", tool, argv[0],
            strerror(errno));
    _exit(RCK_EXIT_NOEXEC);
}

/* Pass mpirun's output on until it and its pipes are done; --timeout and
 * signals stop it. @return 0 or the status a stop decided (124, 128+N);
 * *wstatus is mpirun's. */
static int relay(const rck_launch_t *l, pid_t pid, int out_fd, int err_fd,
                 mr_line_t *lines, int *wstatus)
{
    struct pollfd pf[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
    int open_fds = 2, reaped = 0, killed = 0;
    double deadline = l->timeout_s > 0 ? now_s() + l->timeout_s : 0;
    double kill_at = 0;

    while (open_fds > 0 || !reaped) {
        if (poll(pf, 2, open_fds > 0 ? 100 : 10) < 0 && errno != EINTR)
            break;
        for (int s = 0; s < 2; s++) {
            int out = s ? STDERR_FILENO : STDOUT_FILENO;
            ssize_t r;

            if (pf[s].fd < 0 || !(pf[s].revents & (POLLIN | POLLHUP)))
                continue;
            r = read(pf[s].fd, lines[s].buf + lines[s].len,
                     sizeof(lines[s].buf) - lines[s].len);
            if (r > 0) {
                lines[s].len += (size_t)r;
                drain(out, &lines[s], 0);
            } else if (r == 0 || (errno != EINTR && errno != EAGAIN)) {
                drain(out, &lines[s], 1);
                close(pf[s].fd);
                pf[s].fd = -1;
                open_fds--;
            }
        }
        if (!reaped && waitpid(pid, wstatus, WNOHANG) == pid)
            reaped = 1;
        if (!reaped && !killed &&
            (got_signal || (deadline > 0 && now_s() >= deadline))) {
            if (!got_signal)
                fprintf(stderr, "%s: timeout after %g s\n", l->tool,
                        l->timeout_s);
            /* mpirun forwards SIGTERM to every rank, also remote ones */
            kill(-pid, SIGTERM);
            killed = got_signal ? 128 + got_signal : RCK_EXIT_TIMEOUT;
            kill_at = now_s() + (double)l->kill_grace_ms / 1000.0;
        }
        if (!reaped && killed && now_s() >= kill_at) {
            kill(-pid, SIGKILL);
            kill_at = now_s() + 3600;
        }
        if (reaped && open_fds > 0 && killed)
            kill(-pid, SIGKILL); /* ranks that survived mpirun must not
                                    hold us */
    }
    for (int s = 0; s < 2; s++) {
        if (pf[s].fd >= 0)
            close(pf[s].fd);
    }
    return killed;
}

/* rck's exit status, and the first failure restated in the native
 * launcher's words. */
static int report(const rck_launch_t *l, const char *mpirun, int killed,
                  int wstatus)
{
    int status;

    if (killed)
        return killed;
    if (WIFEXITED(wstatus))
        status = WEXITSTATUS(wstatus);
    else if (WIFSIGNALED(wstatus))
        status = 128 + WTERMSIG(wstatus);
    else
        status = 1;
    if (status != 0 && mr_fail.ue >= 0 && mr_fail.ue < l->nues) {
        int core = l->cores[mr_fail.ue];

        if (mr_fail.signal > 0) {
            const char *name = rck_launch_signame(mr_fail.signal);
            fprintf(stderr,
                    "%s: core %d (UE %d) was killed by signal %d (%s: %s)\n",
                    l->tool, core, mr_fail.ue, mr_fail.signal,
                    name ? name : "?", strsignal(mr_fail.signal));
            status = 128 + mr_fail.signal;
        } else {
            fprintf(stderr, "%s: core %d (UE %d) exited with status %d\n",
                    l->tool, core, mr_fail.ue, mr_fail.status);
            if (mr_fail.status > 0 && mr_fail.status < 256)
                status = mr_fail.status;
        }
    } else if (status != 0) {
        fprintf(stderr, "%s: the run failed: %s exited with status %d\n",
                l->tool, mpirun, status);
    }
    return status;
}

/* The settings every rank reads: its core, the MPI, the prefix width. */
static int env_set(const rck_launch_t *l, int flavor)
{
    char *cores = NULL, wbuf[16];
    int width = 1, rc;

    for (int v = l->nues - 1; v >= 10; v /= 10)
        width++;
    snprintf(wbuf, sizeof(wbuf), "%d", l->prefix ? width : 0);
    rc = cores_text(l, &cores) != 0 ||
         setenv("RCK_RUN_CORES", cores, 1) != 0 ||
         setenv("RCK_MPI", flavor == FLAVOR_OPENMPI ? "openmpi" : "mpich",
                1) != 0 ||
         setenv(RCK_MPIRUN_WRAP_VAR, wbuf, 1) != 0;
    free(cores);
    return rc ? -1 : 0;
}

int rck_mpirun_run(const rck_launch_t *l, const char *hostfile,
                   const char *hosts)
{
    char storage[PATH_MAX + 256], nbuf[32], self[PATH_MAX];
    char *words[32], **argv = NULL;
    int nwords, flavor, out_p[2] = {-1, -1}, err_p[2] = {-1, -1};
    int status = RCK_EXIT_USAGE, wstatus = 0, killed;
    mr_line_t *lines = NULL;
    struct sigaction sa, old_int, old_term, old_hup;
    ssize_t n;
    pid_t pid;

    if (launcher_find(l->tool, words, &nwords, storage, sizeof(storage),
                      &flavor) != 0)
        return RCK_EXIT_USAGE;
    n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n <= 0) {
        fprintf(stderr, "%s: cannot find its own program (/proc/self/exe): "
                        "%s\n", l->tool, strerror(errno));
        return RCK_EXIT_USAGE;
    }
    self[n] = '\0';
    if (env_set(l, flavor) != 0)
        goto out;
    argv = calloc(MR_MAX_ARGS, sizeof(*argv));
    lines = calloc(2, sizeof(*lines));
    if (argv == NULL || lines == NULL)
        goto out;
    if (argv_build(l, words, nwords, flavor, hostfile, hosts, self, argv,
                   nbuf, sizeof(nbuf)) < 0) {
        fprintf(stderr, "%s: out of memory building mpirun's command line\n",
                l->tool);
        goto out;
    }
    if (pipe2(out_p, O_CLOEXEC) != 0 || pipe2(err_p, O_CLOEXEC) != 0) {
        perror(l->tool);
        goto out;
    }
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    sigaction(SIGHUP, &sa, &old_hup);
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0) {
        perror(l->tool);
        goto out_sig;
    }
    if (pid == 0)
        child_start(l->tool, argv, out_p[1], err_p[1]);
    setpgid(pid, pid);
    close(out_p[1]);
    close(err_p[1]);
    out_p[1] = err_p[1] = -1;
    killed = relay(l, pid, out_p[0], err_p[0], lines, &wstatus);
    out_p[0] = err_p[0] = -1;
    status = report(l, words[0], killed, wstatus);
out_sig:
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGHUP, &old_hup, NULL);
out:
    for (int i = 0; i < 2; i++) {
        if (out_p[i] >= 0)
            close(out_p[i]);
        if (err_p[i] >= 0)
            close(err_p[i]);
    }
    free(lines);
    argv_free(argv);
    return status;
}
