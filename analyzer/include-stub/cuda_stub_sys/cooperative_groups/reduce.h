// warplint's bundled stand-in for <cooperative_groups/reduce.h> (no CUDA
// toolkit): cooperative_groups::reduce and its operators are declared with
// the groups.
#pragma once
#include "../cooperative_groups.h"
