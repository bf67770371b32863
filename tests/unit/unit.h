/*
 * The unit tests' assertion: a failed CHECK prints file:line and the
 * expression, counts the failure, and the test goes on; main returns
 * failures != 0.
 */
#ifndef RCK_TEST_UNIT_H
#define RCK_TEST_UNIT_H

#include <stdio.h>

static int failures;

#define CHECK(expr)                                                           \
    do {                                                                      \
        if (!(expr)) {                                                        \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
                    #expr);                                                   \
            failures++;                                                       \
        }                                                                     \
    } while (0)

#endif
