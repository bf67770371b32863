/*
 * rck_exec_find: a program searched for as execvp(3) would (rck/exec.h).
 */
#include "rck/exec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* @return 0 if @p p is an executable regular file, else an errno. */
static int exec_ok(const char *p)
{
    struct stat sb;

    if (stat(p, &sb) != 0)
        return errno;
    if (S_ISDIR(sb.st_mode))
        return EISDIR;
    if (!S_ISREG(sb.st_mode) || access(p, X_OK) != 0)
        return EACCES;
    return 0;
}

static int give(const char *p, char *out, size_t len)
{
    if (out != NULL && (size_t)snprintf(out, len, "%s", p) >= len)
        return ENAMETOOLONG;
    return 0;
}

int rck_exec_find(const char *name, char *out, size_t len)
{
    const char *path = getenv("PATH");
    char cand[4096], defpath[256];
    int denied = 0, rc;

    if (name == NULL || *name == '\0')
        return ENOENT;
    if (strchr(name, '/') != NULL) {
        rc = exec_ok(name);
        return rc != 0 ? rc : give(name, out, len);
    }
    if (path == NULL) {
        /* execvp's default: the system's standard path */
        size_t n = confstr(_CS_PATH, defpath, sizeof(defpath));
        path = n > 0 && n <= sizeof(defpath) ? defpath : "/bin:/usr/bin";
    }
    for (;;) {
        size_t n = strcspn(path, ":");
        /* an empty entry means the current directory */
        if ((n > 0 ? n : 1) + strlen(name) + 2 <= sizeof(cand)) {
            if (n > 0)
                memcpy(cand, path, n);
            else
                cand[0] = '.';
            cand[n > 0 ? n : 1] = '/';
            strcpy(cand + (n > 0 ? n : 1) + 1, name);
            rc = exec_ok(cand);
            if (rc == 0)
                return give(cand, out, len);
            if (rc == EACCES)
                denied = 1;
        }
        if (path[n] == '\0')
            break;
        path += n + 1;
    }
    return denied ? EACCES : ENOENT;
}
