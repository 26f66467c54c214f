/* clrt-train: the source article's CNN trained on any OpenCL device
 * (docs/train.md), in one process. */
#include "hooks.h"

int main(int argc, char **argv) { return train_main(argc, argv, &train_single_process); }
