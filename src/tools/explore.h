/*
 * `rck explore`: run a program on the sim backend under many schedule
 * seeds (RCK_SIM_SCHEDULE), several at a time, and name the seeds under
 * which it fails, each with the `rck run` command that replays it.
 */
#ifndef RCK_TOOLS_EXPLORE_H
#define RCK_TOOLS_EXPLORE_H

/**
 * Parse a schedule seed: decimal digits only, 0 to 2^64 - 1.
 * @param [in]  s    the text.
 * @param [out] out  the seed (set only on success).
 * @return 0, or -1 if @p s is not a seed.
 */
int rck_explore_parse_seed(const char *s, unsigned long long *out);

/**
 * rck explore [options] [--] program [args...]
 * @param [in] argc, argv  the arguments after "explore".
 * @param [in] self        how rck was invoked (argv[0]), for the printed
 *                         commands.
 * @return 0 when every seed passed, 1 when one failed, 2 for bad input.
 */
int rck_explore_main(int argc, char **argv, const char *self);

#endif
