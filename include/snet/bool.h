/* bool.h: the boolean type some S-Net box code of the era includes
 * (<bool.h>); an int, as there, unless <stdbool.h> came first. */
#ifndef RCK_SNET_BOOL_H
#define RCK_SNET_BOOL_H
#ifndef __bool_true_false_are_defined
#define __bool_true_false_are_defined 1
typedef int bool;
#define false 0
#define true 1
#endif
#endif /* RCK_SNET_BOOL_H */
