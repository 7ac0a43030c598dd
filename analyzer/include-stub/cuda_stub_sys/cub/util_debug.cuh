// warplint's bundled stand-in for <cub/util_debug.cuh>: see <cub/cub.cuh>.
#pragma once
#include "cub.cuh"
