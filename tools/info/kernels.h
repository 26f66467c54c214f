/* clrt-info --kernels: what the device's compiler made of each built-in
 * kernel at the parameters clrt runs it with (see info/kernels.c). */
#ifndef CLRT_TOOLS_INFO_KERNELS_H
#define CLRT_TOOLS_INFO_KERNELS_H

/* Print the report for the default device ($CLRT_DEVICE honoured); 0 on
 * success, 1 when a kernel could not be built (the message says why). */
int info_kernels(void);

#endif
