/*
 * The registry of the libraries above the HAL (rck/lib.h): ids in order
 * of registration, their settings handed to util's configuration.
 * Registration happens in constructors, before any thread runs: the
 * table is written then and only read afterwards.
 * Which libraries are attached to the core's HAL is libattach.c's (this
 * file is also compiled into the mpi backend's plugin, without hal.c).
 *
 * Owns: the registry. May call: util (settings, logger).
 */
#include "rck/lib.h"

#include "rck/log.h"

#include <string.h>

static const rck_lib_desc_t *lib_table[RCK_LIB_MAX];
static int lib_n;

static int name_ok(const char *name)
{
    size_t n = name != NULL ? strlen(name) : 0;

    if (n == 0 || n >= RCK_LIB_NAME_BYTES)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((name[i] >= 'a' && name[i] <= 'z') ||
              (i > 0 && ((name[i] >= '0' && name[i] <= '9') ||
                         name[i] == '_'))))
            return 0;
    return 1;
}

int rck_lib_register(const rck_lib_desc_t *desc)
{
    int id;

    if (desc == NULL || !name_ok(desc->name)) {
        rck_error("rck_lib_register: '%s' is not a library name (a "
                  "lowercase word of at most %d characters)",
                  desc != NULL && desc->name != NULL ? desc->name : "(null)",
                  RCK_LIB_NAME_BYTES - 1);
        return -1;
    }
    for (int i = 0; i < RCK_LIB_IRQS && desc->irq[i].fn != NULL; i++)
        if ((unsigned)desc->irq[i].kind >= RCK_IRQ_KINDS) {
            rck_error("rck_lib_register: '%s': handler %d is of no "
                      "interrupt kind (%d)",
                      desc->name, i, (int)desc->irq[i].kind);
            return -1;
        }
    id = rck_lib_find(desc->name);
    if (id >= 0)
        return id;
    if (lib_n == RCK_LIB_MAX) {
        rck_error("rck_lib_register: '%s': the registry is full (%d "
                  "libraries, RCK_LIB_MAX); its messages are not counted",
                  desc->name, RCK_LIB_MAX);
        return -1;
    }
    lib_table[lib_n] = desc;
    if (desc->settings != NULL)
        rck_config_register(desc->settings, desc->rank);
    return lib_n++;
}

int rck_lib_find(const char *name)
{
    for (int i = 0; name != NULL && i < lib_n; i++)
        if (!strcmp(lib_table[i]->name, name))
            return i;
    return -1;
}

const rck_lib_desc_t *rck_lib_desc(int id)
{
    return id >= 0 && id < lib_n ? lib_table[id] : NULL;
}

int rck_lib_count(void)
{
    return lib_n;
}

const char *rck_lib_name(int id)
{
    return id >= 0 && id < lib_n ? lib_table[id]->name : "?";
}

