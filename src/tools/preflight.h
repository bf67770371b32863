/*
 * What `rck run` checks before any core starts, so that bad input fails
 * at once (exit status 2) instead of in every core or after the whole
 * run: the RCK_* environment (every value against its setting's row,
 * names that are no setting), and the files the run will write.
 *
 * Owns: the list of RCK_* variables that are not settings (the launcher's
 * and the backends' protocol with their cores, other tools' variables).
 * May call: the settings mechanism (rck/config.h).
 */
#ifndef RCK_TOOLS_PREFLIGHT_H
#define RCK_TOOLS_PREFLIGHT_H

/**
 * Check every RCK_* variable of the environment: a setting's value must
 * be valid (rck_config_check); a name that is no setting (nor one of the
 * variables rockcreek sets for its cores or other tools read) gets a
 * warning naming the nearest setting.
 * @param [in] tool  the command, for messages.
 * @return 0, or -1 if a value is bad (each reported on stderr, naming
 *         the variable).
 */
int rck_preflight_settings(const char *tool);

/**
 * Check one setting's value given on the command line.
 * @param [in] tool     the command, for messages.
 * @param [in] option   the option, for messages ("--compute").
 * @param [in] setting  the setting it sets ("COMPUTE").
 * @param [in] value    the value.
 * @return 0, or -1 (reported).
 */
int rck_preflight_option(const char *tool, const char *option,
                         const char *setting, const char *value);

/** The outputs of a run, each as the user named it. */
typedef struct {
    const char *report;  /* --report FILE, or NULL: RCK_REPORT */
    const char *trace;   /* --trace FILE, or NULL: RCK_SIM_TRACE */
    const char *msglog;  /* --msglog FILE, or NULL: RCK_MSGLOG */
    int sim;             /* the sim backend: its report and trace */
} rck_preflight_outputs_t;

/**
 * Can every output of the run be written: its directory exists and can be
 * written in, and the file, if it exists, is no directory (and can be
 * written, for the message log, which is appended to)?
 * @param [in] tool  the command, for messages.
 * @param [in] out   the run's outputs (the settings give the rest).
 * @return 0, or -1 (reported once, naming the option or the variable and
 *         the path as the user gave them).
 */
int rck_preflight_outputs(const char *tool, const rck_preflight_outputs_t *out);

#endif
